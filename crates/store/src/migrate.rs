//! Carrying a v1 store (a redb file, the store's own value encoding) forward
//! to v2 (SQLite, core's value encoding, sealed rows).
//!
//! The v1 file is never opened in place (redb writes to a file it opens):
//! it is copied, the copy is read, and a complete v2 store is built beside
//! it. In place, the v1 file is kept as `PATH.v1` and the v2 store renamed
//! over `PATH` in one step, under a lock file (`PATH.migrating`) so two
//! processes never migrate at once. Read-only, the v2 store is a temporary
//! file that disappears with the handle.

use std::fs;
use std::path::{Path, PathBuf};

use partizan_core::Arena;
use redb::{ReadableTable, TableDefinition, TableHandle};

use crate::db::{build_store_file, take_lock, with_suffix, Migration, StoreOptions};
use crate::encoding::encode_value;
use crate::error::{one_line, Result, StoreError};
use crate::record::{Provenance, Record};
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
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_copy(path, copy)));
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

/// Build a v2 store at `dst` from the v1 store at `src` (`src` untouched).
pub(crate) fn migrate_v1(src: &Path, dst: &Path, opts: &StoreOptions) -> Result<Migration> {
    let copy = with_suffix(dst, ".v1copy");
    let (regions, census, runs, skipped) = read_v1(src, &copy)?;
    build_store_file(dst, opts, &regions, &census, &runs, 1)?;
    Ok(Migration {
        from: 1,
        regions: regions.len() as u64,
        census: census.len() as u64,
        skipped,
        backup: None,
    })
}

fn is_redb(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map(|()| &head == b"redb")
        .unwrap_or(false)
}

/// Migrate the v1 file at `path` in place; `None` if another process
/// already did.
pub(crate) fn migrate_in_place(path: &Path, opts: &StoreOptions) -> Result<Option<Migration>> {
    let lock = with_suffix(path, ".migrating");
    let _held = take_lock(&lock, path, opts.wait)?;
    let result = (|| {
        if !is_redb(path) {
            return Ok(None);
        }
        let tmp = with_suffix(path, ".migrating.sqlite");
        let mut m = match migrate_v1(path, &tmp, opts) {
            Ok(m) => m,
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        };
        let mut backup = with_suffix(path, ".v1");
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
        fs::hard_link(path, &backup).map_err(|e| io("keep a v1 backup of", e))?;
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
