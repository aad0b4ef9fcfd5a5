//! Carrying older stores forward: v1 (a redb file, the store's own value
//! encoding) and v2 (SQLite, rows sealed by a CRC-64) to v3 (rows sealed by
//! a MAC under the user's key). Whatever an older file holds is checked
//! again on the way ([`carry_forward`]), not believed: a CRC or no seal at
//! all cannot tell partizan's rows from rows edited by hand.
//!
//! The v1 file is never opened in place (redb writes to a file it opens):
//! it is copied, the copy is read, and a complete v2 store is built beside
//! it. In place, the v1 file is kept as `PATH.v1` and the v2 store renamed
//! over `PATH` in one step, under a lock file (`PATH.migrating`) so two
//! processes never migrate at once. Read-only, the v2 store is a temporary
//! file that disappears with the handle.

use std::fs;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use partizan_core::Arena;
use partizan_games::with_rules;
use partizan_solve::{Savings, Solver};
use redb::{ReadableTable, TableDefinition, TableHandle};

use crate::db::{build_store_file, take_lock, with_suffix, Migration, StoreOptions};
use crate::encoding::encode_value;
use crate::error::{one_line, Result, StoreError};
use crate::outcomes::{is_outcome_key, StoredOutcome};
use crate::record::{Provenance, Record};
use crate::rules::stored_rules;
use crate::v1::{decode_record_v1, decode_value_v1};

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const CENSUS: TableDefinition<&str, &[u8]> = TableDefinition::new("census");
const RUNS: TableDefinition<u64, &[u8]> = TableDefinition::new("runs");

type Rows = (
    Vec<(String, Vec<u8>, Vec<u8>)>,
    Vec<(String, Vec<u8>)>,
    Vec<Vec<u8>>,
    u64,
);

fn corrupt(path: &Path, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        detail: format!("v1 store: {}", one_line(&detail.to_string())),
    }
}

/// Read every row of a v1 file (through a copy at `copy`), converted to v2 bodies.
fn read_v1(path: &Path, copy: &Path) -> Result<Rows> {
    fs::copy(path, copy).map_err(|e| StoreError::Io {
        op: "copy for migration",
        path: path.to_path_buf(),
        error: e,
    })?;
    // redb panics on some damaged files: an error, said once, not a panic
    // message and a backtrace before it
    let r = crate::quiet::catch(|| read_copy(path, copy));
    let _ = fs::remove_file(copy);
    match r {
        Ok(r) => r,
        Err(_) => Err(corrupt(path, "the engine failed on the file")),
    }
}

fn read_copy(path: &Path, copy: &Path) -> Result<Rows> {
    let db = redb::Database::open(copy).map_err(|e| corrupt(path, e))?;
    let tx = db.begin_read().map_err(|e| corrupt(path, e))?;
    let meta = tx.open_table(META).map_err(|e| StoreError::NotAStore {
        path: path.to_path_buf(),
        detail: format!(
            "a redb database without partizan metadata ({})",
            one_line(&e.to_string())
        ),
    })?;
    let format = meta
        .get("format")
        .map_err(|e| corrupt(path, e))?
        .and_then(|v| <[u8; 8]>::try_from(v.value()).ok().map(u64::from_le_bytes));
    if format != Some(1) {
        return Err(StoreError::NotAStore {
            path: path.to_path_buf(),
            detail: format!("a redb file of format {format:?}, not v1"),
        });
    }
    let mut regions = Vec::new();
    let mut skipped = 0u64;
    let names: Vec<String> = tx
        .list_tables()
        .map_err(|e| corrupt(path, e))?
        .map(|h| h.name().to_string())
        .collect();
    let mut arena = Arena::new();
    for name in names {
        let Some(ruleset) = name.strip_prefix("regions/") else {
            continue;
        };
        let def: TableDefinition<&[u8], &[u8]> = TableDefinition::new(&name);
        let t = tx.open_table(def).map_err(|e| corrupt(path, e))?;
        for item in t.iter().map_err(|e| corrupt(path, e))? {
            let (k, v) = item.map_err(|e| corrupt(path, e))?;
            if regions.len() % 4096 == 0 {
                arena = Arena::new();
            }
            let converted = decode_record_v1(v.value()).and_then(|(at, version, value)| {
                crate::keys::decode_board(k.value())?;
                let g = decode_value_v1(&mut arena, value)?;
                let enc = encode_value(&mut arena, g);
                Ok(Record {
                    provenance: Provenance::Computed,
                    computed_at: at,
                    version,
                    value: &enc,
                }
                .encode())
            });
            match converted {
                Ok(body) => regions.push((ruleset.to_string(), k.value().to_vec(), body)),
                Err(_) => skipped += 1,
            }
        }
    }
    let mut census = Vec::new();
    if let Ok(t) = tx.open_table(CENSUS) {
        for item in t.iter().map_err(|e| corrupt(path, e))? {
            let (k, v) = item.map_err(|e| corrupt(path, e))?;
            if serde_json::from_slice::<serde_json::Value>(v.value()).is_ok() {
                census.push((k.value().to_string(), v.value().to_vec()));
            } else {
                skipped += 1;
            }
        }
    }
    let mut runs = Vec::new();
    if let Ok(t) = tx.open_table(RUNS) {
        for item in t.iter().map_err(|e| corrupt(path, e))? {
            let (_, v) = item.map_err(|e| corrupt(path, e))?;
            runs.push(v.value().to_vec());
        }
    }
    Ok((regions, census, runs, skipped))
}

fn is_redb(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map(|()| &head == b"redb")
        .unwrap_or(false)
}

/// A format older than the current one, carried forward when opened.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Older {
    /// The redb file of version 1.
    V1,
    /// The SQLite file of format 2 (rows under a CRC, no MAC).
    V2,
}

impl Older {
    /// The format's number.
    pub(crate) fn number(self) -> u64 {
        match self {
            Older::V1 => 1,
            Older::V2 => 2,
        }
    }

    /// Whether `path` still holds this format (another process may have
    /// carried it forward meanwhile).
    fn holds(self, path: &Path) -> Result<bool> {
        Ok(match self {
            Older::V1 => is_redb(path),
            Older::V2 => crate::db::sqlite_format(path)? == Some(2),
        })
    }

    /// Its rows, read from `src` through a copy at `copy`.
    fn read(self, src: &Path, copy: &Path) -> Result<Rows> {
        match self {
            Older::V1 => read_v1(src, copy),
            Older::V2 => read_v2(src, copy),
        }
    }

    /// Keep the file at `path` as `backup` before the new one replaces it:
    /// a hard link to the redb file; a copy of the SQLite file, whose
    /// `-wal` and `-shm` files are then removed (they belong to the old
    /// file, not to the one renamed over it).
    fn keep(self, path: &Path, backup: &Path) -> std::io::Result<()> {
        match self {
            Older::V1 => fs::hard_link(path, backup),
            Older::V2 => {
                fs::copy(path, backup)?;
                for suffix in ["-wal", "-shm"] {
                    let _ = fs::remove_file(format!("{}{suffix}", path.display()));
                }
                Ok(())
            }
        }
    }
}

/// Build a current store at `dst` from the `older` store at `src` (`src`
/// untouched), its rows carried forward ([`carry_forward`]).
pub(crate) fn migrate(
    older: Older,
    src: &Path,
    dst: &Path,
    opts: &StoreOptions,
) -> Result<Migration> {
    let n = older.number();
    let copy = with_suffix(dst, &format!(".v{n}copy"));
    let (regions, census, runs, skipped) = carry_forward(older.read(src, &copy)?)?;
    build_store_file(dst, opts, &regions, &census, &runs, n)?;
    Ok(Migration {
        from: n,
        regions: regions.len() as u64,
        census: census.len() as u64,
        skipped,
        backup: None,
    })
}

/// Migrate the `older` store at `path` in place, keeping it as
/// `PATH.vN`; `None` if another process already did.
pub(crate) fn migrate_in_place(
    path: &Path,
    opts: &StoreOptions,
    older: Older,
) -> Result<Option<Migration>> {
    let lock = with_suffix(path, ".migrating");
    let _held = take_lock(&lock, path, opts.wait)?;
    let result = (|| {
        if !older.holds(path)? {
            return Ok(None);
        }
        let tmp = with_suffix(path, ".migrating.sqlite");
        let mut m = match migrate(older, path, &tmp, opts) {
            Ok(m) => m,
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        };
        let n = older.number();
        let mut backup = with_suffix(path, &format!(".v{n}"));
        if backup.exists() {
            backup = PathBuf::from(format!(
                "{}.{}",
                backup.display(),
                crate::record::unix_now()
            ));
        }
        let io = |op, e| StoreError::Io {
            op,
            path: path.to_path_buf(),
            error: e,
        };
        older.keep(path, &backup).map_err(|e| {
            io(
                if n == 1 {
                    "keep a v1 backup of"
                } else {
                    "keep a v2 backup of"
                },
                e,
            )
        })?;
        if let Err(e) = fs::rename(&tmp, path) {
            let _ = fs::remove_file(&tmp);
            return Err(io("install the migrated", e));
        }
        m.backup = Some(backup);
        Ok(Some(m))
    })();
    let _ = fs::remove_file(&lock);
    result
}

/// Rows of an older store, carried forward to the current format: checked
/// again rather than believed (their seal, a CRC or none, stops damage but
/// not a deliberate edit). Small regions (at most
/// [`crate::export::RECOMPUTE_CELLS`] cells) are recomputed, kept if right
/// and dropped if not; larger ones are kept as unverified (never answered
/// from until `store verify` recomputes them); stored outcomes are kept as
/// unverified (searched by `store verify`); values of rulesets defined in
/// Python are dropped (recomputed when next asked for). What is dropped is
/// counted.
pub(crate) fn carry_forward(rows: Rows) -> Result<Rows> {
    let (regions, census, runs, mut skipped) = rows;
    let mut kept = Vec::with_capacity(regions.len());
    // (key, record body) rows by ruleset.
    type ByRuleset = BTreeMap<String, Vec<(Vec<u8>, Vec<u8>)>>;
    let mut by_ruleset = ByRuleset::new();
    for (ruleset, key, body) in regions {
        by_ruleset.entry(ruleset).or_default().push((key, body));
    }
    for (ruleset, rows) in by_ruleset {
        match stored_rules(&ruleset) {
            Some(rules) => {
                let (k, dropped) = with_rules!(rules, |r| carry_regions(r, &ruleset, rows))?;
                kept.extend(k);
                skipped += dropped;
            }
            None => {
                for (key, body) in rows {
                    match unverified(&body) {
                        Some(b) => kept.push((ruleset.clone(), key, b)),
                        None => skipped += 1,
                    }
                }
            }
        }
    }
    let mut census_kept = Vec::with_capacity(census.len());
    for (key, bytes) in census {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            skipped += 1;
            continue;
        };
        if is_outcome_key(&key) {
            match serde_json::from_value::<StoredOutcome>(v) {
                Ok(mut o) => {
                    o.provenance = Provenance::Unverified;
                    census_kept.push((key, serde_json::to_vec(&o).map_err(StoreError::db)?));
                }
                Err(_) => skipped += 1,
            }
        } else if v.get("kind").and_then(|k| k.as_str()) == Some("python-value") {
            skipped += 1;
        } else {
            census_kept.push((key, bytes));
        }
    }
    Ok((kept, census_kept, runs, skipped))
}

/// `body` marked unverified, if it decodes.
fn unverified(body: &[u8]) -> Option<Vec<u8>> {
    let mut r = Record::decode(body).ok()?;
    r.provenance = Provenance::Unverified;
    Some(r.encode())
}

type Carried = (Vec<(String, Vec<u8>, Vec<u8>)>, u64);

fn carry_regions<R: partizan_games::Ruleset>(
    rules: &R,
    ruleset: &str,
    rows: Vec<(Vec<u8>, Vec<u8>)>,
) -> Result<Carried> {
    let mut arena = Arena::new();
    let mut solver =
        Solver::new(rules, Savings::ALL).map_err(|e| StoreError::Solve(e.to_string()))?;
    let mut kept = Vec::with_capacity(rows.len());
    let mut dropped = 0;
    for (i, (key, body)) in rows.into_iter().enumerate() {
        if i % 4096 == 4095 {
            arena = Arena::new();
            solver =
                Solver::new(rules, Savings::ALL).map_err(|e| StoreError::Solve(e.to_string()))?;
        }
        let checked = (|| {
            let board = crate::keys::decode_board(&key).ok()?;
            let rec = Record::decode(&body).ok()?;
            let stored = crate::encoding::decode_value(&mut arena, rec.value).ok()?;
            let cells = (board.layer(0) | board.layer(1) | board.layer(2)).count_ones();
            if cells > crate::export::RECOMPUTE_CELLS {
                return unverified(&body);
            }
            let computed = solver.value(&mut arena, &board).ok()?;
            (computed == stored).then(|| body.clone())
        })();
        match checked {
            Some(b) => kept.push((ruleset.to_string(), key, b)),
            None => dropped += 1,
        }
    }
    Ok((kept, dropped))
}

/// Every row of a format-2 store at `path` (read through a copy at `copy`),
/// each passing its CRC (the others counted as skipped).
fn read_v2(path: &Path, copy: &Path) -> Result<Rows> {
    fs::copy(path, copy).map_err(|e| StoreError::Io {
        op: "copy for migration",
        path: path.to_path_buf(),
        error: e,
    })?;
    let r = read_v2_copy(copy);
    for suffix in ["", "-wal", "-shm"] {
        let _ = fs::remove_file(format!("{}{suffix}", copy.display()));
    }
    r.map_err(|e| corrupt2(path, e))
}

fn corrupt2(path: &Path, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        detail: format!("v2 store: {}", one_line(&e.to_string())),
    }
}

fn read_v2_copy(copy: &Path) -> std::result::Result<Rows, rusqlite::Error> {
    let c = rusqlite::Connection::open(copy)?;
    let mut skipped = 0u64;
    let mut regions = Vec::new();
    {
        let mut st = c.prepare("SELECT ruleset, key, record FROM regions")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Vec<u8>>(1)?,
                r.get::<_, Vec<u8>>(2)?,
            ))
        })?;
        for row in rows {
            let (ruleset, key, sealed) = row?;
            match crate::checksum::unseal_v2(&ruleset, &key, &sealed) {
                Some(body) => {
                    let body = body.to_vec();
                    regions.push((ruleset, key, body));
                }
                None => skipped += 1,
            }
        }
    }
    let mut census = Vec::new();
    {
        let mut st = c.prepare("SELECT key, value FROM census")?;
        let rows = st.query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
        })?;
        for row in rows {
            let (key, sealed) = row?;
            match crate::checksum::unseal_v2("census", key.as_bytes(), &sealed) {
                Some(body) => {
                    let body = body.to_vec();
                    census.push((key, body));
                }
                None => skipped += 1,
            }
        }
    }
    let mut runs = Vec::new();
    {
        let mut st = c.prepare("SELECT id, value FROM runs ORDER BY id")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))?;
        for row in rows {
            let (id, sealed) = row?;
            if let Some(body) =
                crate::checksum::unseal_v2("runs", &(id as u64).to_le_bytes(), &sealed)
            {
                runs.push(body.to_vec());
            }
        }
    }
    Ok((regions, census, runs, skipped))
}
