//! Export to and import from JSON Lines: one object per line, a header
//! first, then every region value (ruleset by ruleset, in key order), then
//! every census result (in key order).
//!
//! ```text
//! {"kind":"header","format":"partizan-store","version":1}
//! {"kind":"region","ruleset":"domineering","key":"01020107","board":"..","value":"{0|0}"...}
//! {"kind":"census","key":"census/domineering/max_cells=9","value":{...}}
//! ```
//!
//! A region line carries the key and the value encoding in hex (the
//! authority on import) and, for people, the board and value as text (ignored
//! on import). Export → import → export gives the same bytes.

use std::io::{BufRead, Write};

use partizan_core::Arena;
use redb::{ReadableTable, TableError, TableHandle};
use serde::{Deserialize, Serialize};

use crate::db::{region_table_name, RegionTableDef, Store, CENSUS, FORMAT_VERSION};
use crate::encoding::decode_value;
use crate::error::{Result, StoreError};
use crate::keys::{decode_board, from_hex, to_hex};
use crate::record::Record;
use crate::rules::format_board;

/// The `format` field of an export's header line.
pub const EXPORT_FORMAT: &str = "partizan-store";

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
    /// Census results new to the store.
    pub census_added: u64,
    /// Census results already stored under the same key (the stored one is kept).
    pub census_present: u64,
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

/// Write the whole store (one consistent snapshot) as JSON Lines.
pub fn export_jsonl(store: &Store, out: &mut dyn Write) -> Result<ExportReport> {
    let mut report = ExportReport::default();
    let tx = store.guard(|| Ok(store.db().begin_read()?))?;
    write_line(
        out,
        &Line::Header {
            format: EXPORT_FORMAT.to_string(),
            version: FORMAT_VERSION,
        },
    )?;
    let mut rulesets: Vec<String> = store.guard(|| {
        Ok(tx
            .list_tables()?
            .filter_map(|h| h.name().strip_prefix("regions/").map(str::to_string))
            .collect())
    })?;
    rulesets.sort();
    let mut arena = Arena::new();
    let mut in_arena = 0usize;
    for ruleset in rulesets {
        let name = region_table_name(&ruleset)?;
        let table = store.guard(|| Ok(tx.open_table(RegionTableDef::new(&name))?))?;
        let mut iter = store.guard(|| Ok(table.iter()?))?;
        while let Some(item) = store.guard(|| Ok(iter.next()))? {
            let (k, v) = item?;
            let (key, rec_bytes) = (k.value(), v.value());
            let rec = Record::decode(rec_bytes)?;
            if in_arena == ARENA_RESET {
                arena = Arena::new();
                in_arena = 0;
            }
            in_arena += 1;
            let board = decode_board(key)
                .ok()
                .and_then(|b| format_board(&ruleset, &b));
            let value = decode_value(&mut arena, rec.value)
                .ok()
                .map(|g| arena.display(g));
            write_line(
                out,
                &Line::Region {
                    ruleset: ruleset.clone(),
                    key: to_hex(key),
                    board,
                    value,
                    computed_at: rec.computed_at,
                    version: rec.version.to_string(),
                    encoding: to_hex(rec.value),
                },
            )?;
            report.regions += 1;
        }
    }
    let census = match store.guard(|| match tx.open_table(CENSUS) {
        Ok(t) => Ok(Some(t)),
        Err(TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(e.into()),
    })? {
        Some(t) => t,
        None => return Ok(report),
    };
    let mut iter = store.guard(|| Ok(census.iter()?))?;
    while let Some(item) = store.guard(|| Ok(iter.next()))? {
        let (k, v) = item?;
        let value: serde_json::Value = serde_json::from_slice(v.value())
            .map_err(|e| StoreError::BadValue(format!("census '{}': {e}", k.value())))?;
        write_line(
            out,
            &Line::Census {
                key: k.value().to_string(),
                value,
            },
        )?;
        report.census += 1;
    }
    out.flush().map_err(stream)?;
    Ok(report)
}

/// Read a JSON Lines export into the store. Every line is checked first (a
/// bad line rejects the whole file, naming the line, before anything is
/// written); then the values are written in batches. Entries the store
/// already holds are kept, so importing twice changes nothing.
pub fn import_jsonl(store: &Store, input: &mut dyn BufRead) -> Result<ImportReport> {
    let mut report = ImportReport::default();
    let mut regions: Vec<(String, Vec<u8>, Vec<u8>)> = Vec::new();
    let mut census: Vec<(String, serde_json::Value)> = Vec::new();
    let mut arena = Arena::new();
    let mut buf = String::new();
    let mut n = 0usize;
    loop {
        buf.clear();
        let read = input.read_line(&mut buf).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                StoreError::Import {
                    line: n + 1,
                    detail: "not UTF-8 text".into(),
                }
            } else {
                stream(e)
            }
        })?;
        if read == 0 {
            break;
        }
        n += 1;
        let text = buf.trim();
        if text.is_empty() {
            continue;
        }
        report.lines += 1;
        let bad = |detail: String| StoreError::Import { line: n, detail };
        let line: Line = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if report.lines == 1 && !matches!(line, Line::Header { .. }) {
            return Err(bad("the first line must be the export header".into()));
        }
        match line {
            Line::Header { format, version } => {
                if report.lines != 1 {
                    return Err(bad("a second header line".into()));
                }
                if format != EXPORT_FORMAT {
                    return Err(bad(format!("format '{format}' is not '{EXPORT_FORMAT}'")));
                }
                if version > FORMAT_VERSION {
                    return Err(bad(format!(
                        "store format v{version} is newer than this build's v{FORMAT_VERSION}"
                    )));
                }
            }
            Line::Region {
                ruleset,
                key,
                computed_at,
                version,
                encoding,
                ..
            } => {
                region_table_name(&ruleset).map_err(|e| bad(e.to_string()))?;
                let key = from_hex(&key).ok_or_else(|| bad("key is not hex".into()))?;
                decode_board(&key).map_err(|e| bad(e.to_string()))?;
                let enc = from_hex(&encoding).ok_or_else(|| bad("encoding is not hex".into()))?;
                if regions.len().is_multiple_of(ARENA_RESET) {
                    arena = Arena::new();
                }
                decode_value(&mut arena, &enc).map_err(|e| bad(e.to_string()))?;
                if version.len() > 255 {
                    return Err(bad("version string longer than 255 bytes".into()));
                }
                let record = Record {
                    computed_at,
                    version: &version,
                    value: &enc,
                }
                .encode();
                regions.push((ruleset, key, record));
            }
            Line::Census { key, value } => census.push((key, value)),
        }
    }
    if report.lines == 0 {
        return Err(StoreError::Import {
            line: 0,
            detail: "empty input (no header line)".into(),
        });
    }
    for chunk in regions.chunks(IMPORT_BATCH) {
        let w = store.insert_region_refs(
            chunk
                .iter()
                .map(|(r, k, v)| (r.as_str(), k.as_slice(), v.as_slice())),
        )?;
        report.regions_added += w.added;
        report.regions_present += w.present - w.conflicting;
        report.regions_conflicting += w.conflicting;
    }
    for (key, value) in census {
        if store.insert_census(&key, &value)? {
            report.census_added += 1;
        } else {
            report.census_present += 1;
        }
    }
    Ok(report)
}
