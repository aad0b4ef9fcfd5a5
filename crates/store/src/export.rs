//! Export to and import from JSON Lines: one object per line, a header
//! first, then every region value (ruleset by ruleset, in key order), then
//! every census result (in key order).
//!
//! ```text
//! {"kind":"header","format":"partizan-store","version":2}
//! {"kind":"region","ruleset":"domineering","key":"01020107","board":"..","value":"{0|0}",...}
//! {"kind":"census","key":"census/domineering/max_cells=9","value":{...}}
//! ```
//!
//! A region line carries the key and the value encoding in hex (the
//! authority on import) and, for people, the board and value as text
//! (ignored on import). Export → import → export gives the same lines
//! (provenance aside: what is imported is *imported*, not computed).
//!
//! An import is never believed: every line is bounded ([`MAX_LINE`] bytes,
//! [`MAX_IMPORT_ENTRIES`] entries, the value bounds of [`crate::encoding`]),
//! every value must be the one canonical encoding, every region of at most
//! [`RECOMPUTE_CELLS`] cells is recomputed and any mismatch refuses the whole
//! file (naming the line) before anything is written; larger regions are
//! stored as *unverified* and are never answered from until `store verify`
//! has recomputed them. Census-table lines that are stored outcomes
//! (`outcome/...` keys) are searched again ([`crate::outcomes::search_outcome`],
//! [`IMPORT_OUTCOME_NODES`] nodes each): a different answer refuses the
//! whole file, an answer found is stored as `verified` (the search's own
//! record), and one not found within the budget as `unverified`, never
//! answered from until `store verify` searches it. Values of rulesets
//! defined in Python are left out (partizan cannot compute them to check).

use std::io::{BufRead, Write};

use partizan_core::{Arena, GameId};
use partizan_games::{Board, Ruleset};
use partizan_solve::{Savings, Solver};
use rusqlite::params;
use serde::{Deserialize, Serialize};

use crate::checksum::unseal;
use crate::db::{blob, check_ruleset, Store};
use crate::encoding::{decode_value, encode_value};
use crate::error::{one_line, Result, StoreError};
use crate::keys::{decode_board, from_hex, to_hex};
use crate::outcomes::{
    is_outcome_key, outcome_key, search_outcome, OutcomeRead, Searched, StoredOutcome,
};
use crate::record::{Provenance, Record};
use crate::rules::{format_board, stored_rules};
use crate::v1::decode_value_v1;
use partizan_games::with_rules;

/// The version of the export's lines (unchanged by store format 3, which
/// changed only how rows are sealed on disk): 2; 1 files hold values in
/// the v1 encoding.
pub const EXPORT_VERSION: u64 = 2;

/// The `format` field of an export's header line.
pub const EXPORT_FORMAT: &str = "partizan-store";

/// The longest line an import reads, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// The most region and census lines one import accepts.
pub const MAX_IMPORT_ENTRIES: usize = 4_000_000;

/// Regions of at most this many playable cells are recomputed on import.
pub const RECOMPUTE_CELLS: u32 = 12;

/// Nodes each imported outcome is searched with before it is believed.
pub const IMPORT_OUTCOME_NODES: u64 = 2_000_000;

/// Entries validated per fresh arena (bounds memory on large files).
const ARENA_RESET: usize = 4096;

/// Entries per write transaction on import.
const IMPORT_BATCH: usize = 4096;

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Line {
    Header {
        format: String,
        version: u64,
    },
    Region {
        ruleset: String,
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        board: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provenance: Option<Provenance>,
        computed_at: u64,
        version: String,
        encoding: String,
    },
    Census {
        key: String,
        value: serde_json::Value,
    },
}

/// What an export wrote.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ExportReport {
    /// Region lines written.
    pub regions: u64,
    /// Census lines written.
    pub census: u64,
    /// Damaged rows left out (their checksum fails).
    pub damaged: u64,
}

/// What an import did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Lines read (the header included).
    pub lines: u64,
    /// Region values new to the store.
    pub regions_added: u64,
    /// Region values the store already held with the same value.
    pub regions_present: u64,
    /// Region values the store already held with a *different* value (the
    /// stored one is kept; run `verify` to find out which is right).
    pub regions_conflicting: u64,
    /// Imported regions recomputed and found right.
    pub regions_recomputed: u64,
    /// Imported regions too large to recompute now: stored as unverified.
    pub regions_unverified: u64,
    /// Census results new to the store.
    pub census_added: u64,
    /// Census results already stored under the same key (the stored one is kept).
    pub census_present: u64,
    /// Imported outcomes searched again and found right (stored as verified).
    pub outcomes_verified: u64,
    /// Imported outcomes the search could not decide within its budget
    /// (stored as unverified: never answered from until `store verify`).
    pub outcomes_unverified: u64,
    /// Lines left out: values of rulesets defined in Python, which
    /// partizan cannot recompute.
    pub census_skipped: u64,
}

fn stream(e: std::io::Error) -> StoreError {
    StoreError::Stream(e)
}

fn write_line(out: &mut dyn Write, line: &Line) -> Result<()> {
    serde_json::to_writer(&mut *out, line).map_err(|e| match e.io_error_kind() {
        Some(kind) => StoreError::Stream(std::io::Error::new(kind, e.to_string())),
        None => StoreError::db(e),
    })?;
    out.write_all(b"\n").map_err(stream)
}

/// Write the whole store (one consistent snapshot) as JSON Lines. Damaged
/// rows are left out and counted, never written as data.
pub fn export_jsonl(store: &Store, out: &mut dyn Write) -> Result<ExportReport> {
    let mut report = ExportReport::default();
    let mut c = store.conn()?;
    let tx = store.guard(|| Ok(c.transaction()?))?;
    write_line(
        out,
        &Line::Header {
            format: EXPORT_FORMAT.to_string(),
            version: EXPORT_VERSION,
        },
    )?;
    let mut arena = Arena::new();
    let mut in_arena = 0usize;
    store.guard(|| {
        let mut st =
            tx.prepare("SELECT ruleset, key, record FROM regions ORDER BY ruleset, key")?;
        let mut rows = st.query([])?;
        while let Some(row) = rows.next()? {
            let ruleset: String = row.get(0)?;
            let key = blob(row, 1)?;
            let stored = blob(row, 2)?;
            let rec = match unseal(&ruleset, key, stored).map(Record::decode) {
                Some(Ok(r)) => r,
                _ => {
                    report.damaged += 1;
                    continue;
                }
            };
            if in_arena == ARENA_RESET {
                arena = Arena::new();
                in_arena = 0;
            }
            in_arena += 1;
            let board = decode_board(key)
                .ok()
                .and_then(|b| format_board(&ruleset, &b));
            let value = match decode_value(&mut arena, rec.value) {
                Ok(g) => arena.display(g),
                Err(_) => {
                    report.damaged += 1;
                    continue;
                }
            };
            write_line(
                out,
                &Line::Region {
                    ruleset: ruleset.clone(),
                    key: to_hex(key),
                    board,
                    value: Some(value),
                    provenance: Some(rec.provenance),
                    computed_at: rec.computed_at,
                    version: rec.version.to_string(),
                    encoding: to_hex(rec.value),
                },
            )?;
            report.regions += 1;
        }
        let mut st = tx.prepare("SELECT key, value FROM census ORDER BY key")?;
        let mut rows = st.query(params![])?;
        while let Some(row) = rows.next()? {
            let key: String = row.get(0)?;
            let stored = blob(row, 1)?;
            let Some(value) = unseal("census", key.as_bytes(), stored)
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
            else {
                report.damaged += 1;
                continue;
            };
            write_line(out, &Line::Census { key, value })?;
            report.census += 1;
        }
        Ok(())
    })?;
    drop(tx);
    out.flush().map_err(stream)?;
    Ok(report)
}

/// Read one line of at most [`MAX_LINE`] bytes into `buf`; `Ok(false)` at
/// the end of the input.
fn read_bounded_line(input: &mut dyn BufRead, buf: &mut Vec<u8>, line: usize) -> Result<bool> {
    buf.clear();
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(stream(e)),
        };
        if chunk.is_empty() {
            return Ok(!buf.is_empty());
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() + take > MAX_LINE + 1 {
            return Err(StoreError::Import {
                line,
                detail: format!("line longer than {MAX_LINE} bytes"),
            });
        }
        buf.extend_from_slice(&chunk[..take]);
        input.consume(take);
        if done {
            return Ok(true);
        }
    }
}

/// An imported region, checked: (line, ruleset, key, record body, cells).
struct Pending {
    line: usize,
    ruleset: String,
    key: Vec<u8>,
    computed_at: u64,
    version: String,
    enc: Vec<u8>,
    small: bool,
}

/// Read a JSON Lines export into the store. Every line is checked first (a
/// bad line, or a recomputed value that differs, rejects the whole file,
/// naming the line, before anything is written); then the values are
/// written in batches. Entries the store already holds are kept, so
/// importing twice changes nothing.
pub fn import_jsonl(store: &Store, input: &mut dyn BufRead) -> Result<ImportReport> {
    let mut report = ImportReport::default();
    let mut regions: Vec<Pending> = Vec::new();
    let mut census: Vec<(usize, String, serde_json::Value)> = Vec::new();
    let mut arena = Arena::new();
    let mut buf = Vec::new();
    let mut n = 0usize;
    let mut file_version = EXPORT_VERSION;
    loop {
        if !read_bounded_line(input, &mut buf, n + 1)? {
            break;
        }
        n += 1;
        let bad = |detail: String| StoreError::Import { line: n, detail };
        let text = std::str::from_utf8(&buf).map_err(|_| bad("not UTF-8 text".into()))?;
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        report.lines += 1;
        if regions.len() + census.len() >= MAX_IMPORT_ENTRIES {
            return Err(bad(format!(
                "more than {MAX_IMPORT_ENTRIES} entries in one import; split the file"
            )));
        }
        let line: Line = serde_json::from_str(text).map_err(|e| bad(short(&e.to_string())))?;
        if report.lines == 1 && !matches!(line, Line::Header { .. }) {
            return Err(bad("the first line must be the export header".into()));
        }
        match line {
            Line::Header { format, version } => {
                if report.lines != 1 {
                    return Err(bad("a second header line".into()));
                }
                if format != EXPORT_FORMAT {
                    return Err(bad(format!(
                        "format '{}' is not '{EXPORT_FORMAT}'",
                        short(&format)
                    )));
                }
                if version > EXPORT_VERSION {
                    return Err(bad(format!(
                        "store format v{version} is newer than this build's v{EXPORT_VERSION}"
                    )));
                }
                if version == 0 {
                    return Err(bad("store format v0 does not exist".into()));
                }
                file_version = version;
            }
            Line::Region {
                ruleset,
                key,
                computed_at,
                version,
                encoding,
                ..
            } => {
                check_ruleset(&ruleset).map_err(|e| bad(e.to_string()))?;
                if stored_rules(&ruleset).is_none() {
                    return Err(bad(format!("unknown ruleset '{ruleset}'")));
                }
                let key = from_hex(&key).ok_or_else(|| bad("key is not hex".into()))?;
                let board = decode_board(&key).map_err(|e| bad(e.to_string()))?;
                let enc = from_hex(&encoding).ok_or_else(|| bad("encoding is not hex".into()))?;
                if regions.len().is_multiple_of(ARENA_RESET) {
                    arena = Arena::new();
                }
                let enc = if file_version == 1 {
                    let g = decode_value_v1(&mut arena, &enc).map_err(|e| bad(e.to_string()))?;
                    encode_value(&mut arena, g)
                } else {
                    decode_value(&mut arena, &enc).map_err(|e| bad(e.to_string()))?;
                    enc
                };
                if version.len() > 255 {
                    return Err(bad("version string longer than 255 bytes".into()));
                }
                let cells = (board.layer(0) | board.layer(1) | board.layer(2)).count_ones();
                regions.push(Pending {
                    line: n,
                    ruleset,
                    key,
                    computed_at,
                    version,
                    enc,
                    small: cells <= RECOMPUTE_CELLS,
                });
            }
            Line::Census { key, value } => census.push((n, key, value)),
        }
    }
    if report.lines == 0 {
        return Err(StoreError::Import {
            line: 0,
            detail: "empty input (no header line)".into(),
        });
    }
    recompute_small(&mut regions)?;
    let census = check_census(census, &mut report)?;
    let bodies: Vec<(String, Vec<u8>, Vec<u8>)> = regions
        .iter()
        .map(|p| {
            let provenance = if p.small {
                Provenance::Verified
            } else {
                Provenance::Unverified
            };
            let body = Record {
                provenance,
                computed_at: p.computed_at,
                version: &p.version,
                value: &p.enc,
            }
            .encode();
            (p.ruleset.clone(), p.key.clone(), body)
        })
        .collect();
    report.regions_recomputed = regions.iter().filter(|p| p.small).count() as u64;
    report.regions_unverified = regions.len() as u64 - report.regions_recomputed;
    for chunk in bodies.chunks(IMPORT_BATCH) {
        let w = store.insert_region_refs(
            chunk
                .iter()
                .map(|(r, k, v)| (r.as_str(), k.as_slice(), v.as_slice())),
        )?;
        report.regions_added += w.added + w.replaced;
        report.regions_present += w.present.saturating_sub(w.conflicting);
        report.regions_conflicting += w.conflicting;
    }
    for (key, value) in census {
        let fresh = if is_outcome_key(&key) {
            // A searched outcome replaces an unverified one.
            let replace =
                matches!(
                    serde_json::from_value::<StoredOutcome>(value.clone()),
                    Ok(o) if o.provenance == Provenance::Verified
                ) && !matches!(store.get_outcome_by_key(&key)?, Some(OutcomeRead::Hit(_)));
            if replace {
                store.put_census(&key, &value)?;
                true
            } else {
                store.insert_census(&key, &value)?
            }
        } else {
            store.insert_census(&key, &value)?
        };
        if fresh {
            report.census_added += 1;
        } else {
            report.census_present += 1;
        }
    }
    Ok(report)
}

/// Check the census-table lines of an import: outcomes searched again (see
/// the module comment), Python values left out; what is to be stored.
fn check_census(
    lines: Vec<(usize, String, serde_json::Value)>,
    report: &mut ImportReport,
) -> Result<Vec<(String, serde_json::Value)>> {
    let mut out = Vec::with_capacity(lines.len());
    for (line, key, value) in lines {
        let bad = |detail: String| StoreError::Import { line, detail };
        if !is_outcome_key(&key) {
            if value.get("kind").and_then(|k| k.as_str()) == Some("python-value") {
                report.census_skipped += 1;
            } else {
                out.push((key, value));
            }
            continue;
        }
        let o: StoredOutcome = serde_json::from_value(value)
            .map_err(|e| bad(format!("not a stored outcome: {}", short(&e.to_string()))))?;
        if outcome_key(&o.ruleset, &o.convention, &o.board) != key {
            return Err(bad(format!(
                "the outcome of {} {} ({}) under another board's key",
                short(&o.ruleset),
                short(&o.board),
                short(&o.convention)
            )));
        }
        match search_outcome(&o, IMPORT_OUTCOME_NODES, Provenance::Verified)
            .map_err(|e| bad(e.to_string()))?
        {
            Searched::Decided(found) if !found.same_winners(&o) => {
                return Err(bad(format!(
                    "{} {} ({}) is {}, not the {} the file says; nothing was imported",
                    o.ruleset,
                    o.board,
                    o.convention,
                    found.class(),
                    o.class()
                )));
            }
            Searched::Decided(found) => {
                report.outcomes_verified += 1;
                out.push((key, serde_json::to_value(&found).map_err(StoreError::db)?));
            }
            Searched::Undecided => {
                report.outcomes_unverified += 1;
                let kept = StoredOutcome {
                    provenance: Provenance::Unverified,
                    ..o
                };
                out.push((key, serde_json::to_value(&kept).map_err(StoreError::db)?));
            }
        }
    }
    Ok(out)
}

/// At most ~200 characters of a message that may quote input.
fn short(s: &str) -> String {
    let s = one_line(s);
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// Recompute every small imported region, ruleset by ruleset, with one
/// solver each; the first mismatch refuses the import.
fn recompute_small(regions: &mut [Pending]) -> Result<()> {
    let mut order: Vec<usize> = (0..regions.len()).filter(|&i| regions[i].small).collect();
    order.sort_by(|&a, &b| regions[a].ruleset.cmp(&regions[b].ruleset));
    let mut start = 0;
    while start < order.len() {
        let ruleset = regions[order[start]].ruleset.clone();
        let end = start + order[start..].partition_point(|&i| regions[i].ruleset == ruleset);
        let group: Vec<&Pending> = order[start..end].iter().map(|&i| &regions[i]).collect();
        if let Some(rules) = stored_rules(&ruleset) {
            with_rules!(rules, |r| check_group(r, &group))?;
        }
        start = end;
    }
    Ok(())
}

fn check_group<R: Ruleset>(rules: &R, group: &[&Pending]) -> Result<()> {
    let mut arena = Arena::new();
    let mut solver =
        Solver::new(rules, Savings::ALL).map_err(|e| StoreError::Solve(e.to_string()))?;
    for (i, p) in group.iter().enumerate() {
        if i % ARENA_RESET == ARENA_RESET - 1 {
            arena = Arena::new();
            solver =
                Solver::new(rules, Savings::ALL).map_err(|e| StoreError::Solve(e.to_string()))?;
        }
        let board: Board = decode_board(&p.key)?;
        let stored: GameId = decode_value(&mut arena, &p.enc)?;
        let computed = solver
            .value(&mut arena, &board)
            .map_err(|e| StoreError::Solve(e.to_string()))?;
        if stored != computed {
            return Err(StoreError::Import {
                line: p.line,
                detail: format!(
                    "{} {} is {}, not the {} the file says; nothing was imported",
                    p.ruleset,
                    format_board(&p.ruleset, &board).unwrap_or_else(|| to_hex(&p.key)),
                    arena.display(computed),
                    short(&arena.display(stored)),
                ),
            });
        }
    }
    Ok(())
}
