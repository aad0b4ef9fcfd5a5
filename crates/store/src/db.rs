//! The database layer: opening the file safely, the tables, and byte-level
//! reads and writes inside transactions.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, ErrorKind, Read};
use std::panic::{self, catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Once;
use std::time::{Duration, Instant};

use redb::{
    Database, DatabaseError, ReadableTable, ReadableTableMetadata, StorageError, TableDefinition,
    TableError, TableHandle,
};
use serde::{Deserialize, Serialize};

use crate::error::{one_line, Result, StoreError};
use crate::path::valid_ruleset;
use crate::record::{unix_now, Record, PARTIZAN_VERSION};

/// The store format written by this build. A file recording a larger number
/// is refused; a smaller one would be migrated on open.
pub const FORMAT_VERSION: u64 = 1;

/// How many recent runs the store remembers for `stats`.
pub const RUNS_KEPT: usize = 32;

pub(crate) const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
pub(crate) const CENSUS: TableDefinition<&str, &[u8]> = TableDefinition::new("census");
pub(crate) const RUNS: TableDefinition<u64, &[u8]> = TableDefinition::new("runs");
const REGIONS_PREFIX: &str = "regions/";

/// The region table of a ruleset.
pub(crate) type RegionTableDef<'a> = TableDefinition<'a, &'static [u8], &'static [u8]>;

pub(crate) fn region_table_name(ruleset: &str) -> Result<String> {
    if !valid_ruleset(ruleset) {
        return Err(StoreError::BadRuleset(ruleset.to_string()));
    }
    Ok(format!("{REGIONS_PREFIX}{ruleset}"))
}

/// How to open a store.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// How long to keep retrying while another process holds the store.
    pub wait: Duration,
    /// Create the file (and its folder) if the path does not exist.
    pub create: bool,
    /// Memory for the database engine's page cache, in bytes.
    pub cache_bytes: usize,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            wait: Duration::from_secs(2),
            create: true,
            cache_bytes: 64 << 20,
        }
    }
}

/// One region entry in bytes: its ruleset, its key and its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawEntry {
    /// The ruleset's name (`"domineering"`).
    pub ruleset: String,
    /// The key encoding of the folded region (see [`crate::keys`]).
    pub key: Vec<u8>,
    /// The record: build, time and value encoding (see [`crate::record`]).
    pub record: Vec<u8>,
}

/// One finished run, remembered so `stats` can show recent hit rates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Unix seconds when the run finished.
    pub at: u64,
    /// The partizan version that ran.
    pub version: String,
    /// What ran (e.g. `"value"`, `"warm domineering"`).
    pub label: String,
    /// Store lookups made.
    pub lookups: u64,
    /// Lookups the store answered.
    pub hits: u64,
    /// Values the run added.
    pub added: u64,
}

/// What is in a store, for `partizan store stats`.
#[derive(Clone, Debug, Serialize)]
pub struct StoreStats {
    /// The store file.
    pub path: PathBuf,
    /// The store format recorded in the file.
    pub format: u64,
    /// The file's size in bytes.
    pub file_bytes: u64,
    /// Region values per ruleset.
    pub regions: BTreeMap<String, u64>,
    /// All region values.
    pub total_regions: u64,
    /// Stored census results.
    pub census_entries: u64,
    /// The most recent runs, oldest first.
    pub recent_runs: Vec<RunRecord>,
    /// Hits over lookups across the recent runs, if they made any lookups.
    pub recent_hit_rate: Option<f64>,
}

/// What a batch write did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WriteReport {
    /// Entries that were new.
    pub added: u64,
    /// Entries already present (left alone).
    pub present: u64,
    /// Of those, entries whose stored value differs from the one offered.
    pub conflicting: u64,
}

struct Inner {
    db: Database,
    path: PathBuf,
    format: u64,
}

/// An open store. Cheap to clone; clones share one database handle, so many
/// threads of one process can read (never blocking) while one writes.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.inner.path)
            .field("format", &self.inner.format)
            .finish()
    }
}

thread_local! {
    /// Set while this thread runs a guarded engine call.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static QUIET_HOOK: Once = Once::new();

/// Run a database-engine call, turning a panic inside it into an error: a
/// damaged file must never crash the program. (redb asserts on some damaged
/// files.) The first call chains a panic hook that stays silent for panics
/// inside guarded calls on the calling thread and defers to the previous hook
/// for every other panic.
fn guarded<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info)
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    match outcome {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "engine panicked".to_string());
            let detail = if msg.contains("raw_file_len") {
                "the file is shorter than its header says: truncated".to_string()
            } else {
                format!("engine check failed: {}", one_line(&msg))
            };
            Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                detail,
            })
        }
    }
}

/// Why an existing file that the engine refused is not a store, or how it is damaged.
fn classify_refusal(path: &Path, e: DatabaseError) -> StoreError {
    let p = path.to_path_buf();
    match e {
        DatabaseError::DatabaseAlreadyOpen => StoreError::InUse { path: p },
        DatabaseError::UpgradeRequired(v) => {
            StoreError::EngineUpgradeRequired { path: p, found: v }
        }
        DatabaseError::RepairAborted => StoreError::Corrupt {
            path: p,
            detail: "repair aborted".into(),
        },
        DatabaseError::Storage(StorageError::Io(io)) if io.kind() == ErrorKind::InvalidData => {
            let mut head = [0u8; 9];
            let n = fs::File::open(path)
                .and_then(|mut f| f.read(&mut head))
                .unwrap_or(0);
            if n == 0 {
                StoreError::NotAStore {
                    path: p,
                    detail: "empty file".into(),
                }
            } else if n < 4 || &head[..4] != b"redb" {
                StoreError::NotAStore {
                    path: p,
                    detail: "no redb header".into(),
                }
            } else {
                StoreError::Corrupt {
                    path: p,
                    detail: "bad header".into(),
                }
            }
        }
        DatabaseError::Storage(StorageError::Io(io)) if io.kind() == ErrorKind::UnexpectedEof => {
            StoreError::Corrupt {
                path: p,
                detail: "the file is truncated".into(),
            }
        }
        DatabaseError::Storage(StorageError::Io(io)) => io_error("open", path, io),
        other => StoreError::Corrupt {
            path: p,
            detail: one_line(&other.to_string()),
        },
    }
}

fn io_error(op: &'static str, path: &Path, source: io::Error) -> StoreError {
    if source.kind() == ErrorKind::IsADirectory {
        return StoreError::IsDirectory {
            path: path.to_path_buf(),
        };
    }
    StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

impl Store {
    /// Open the store at `path`, creating it (and its folder) if the path
    /// does not exist; waits up to two seconds for another process to let go.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_with(path, &StoreOptions::default())
    }

    /// Open with explicit options.
    ///
    /// An existing file is only ever opened, never re-initialised: an empty,
    /// foreign, truncated or corrupted file is an error and is left as it was.
    pub fn open_with(path: &Path, opts: &StoreOptions) -> Result<Store> {
        let deadline = Instant::now() + opts.wait;
        loop {
            match Store::try_open(path, opts) {
                Err(StoreError::InUse { .. }) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                r => return r,
            }
        }
    }

    fn try_open(path: &Path, opts: &StoreOptions) -> Result<Store> {
        let mut builder = Database::builder();
        builder.set_cache_size(opts.cache_bytes);
        builder.create_with_file_format_v3(true);
        let db = match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(StoreError::IsDirectory {
                    path: path.to_path_buf(),
                })
            }
            Ok(_) => guarded(path, || {
                builder.open(path).map_err(|e| classify_refusal(path, e))
            })?,
            Err(e) if e.kind() == ErrorKind::NotFound && opts.create => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    fs::create_dir_all(dir)
                        .map_err(|e| io_error("create the folder of", path, e))?;
                }
                let file = match fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .open(path)
                {
                    Ok(f) => f,
                    // Another process created it first: open theirs.
                    Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                        return Err(StoreError::InUse {
                            path: path.to_path_buf(),
                        })
                    }
                    Err(e) => return Err(io_error("create", path, e)),
                };
                let r = guarded(path, || {
                    builder
                        .create_file(file)
                        .map_err(|e| classify_refusal(path, e))
                });
                match r {
                    Ok(db) => db,
                    Err(e) => {
                        // Only our own, still empty, new file is removed.
                        if fs::metadata(path).map(|m| m.len() == 0).unwrap_or(false) {
                            let _ = fs::remove_file(path);
                        }
                        return Err(e);
                    }
                }
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Err(StoreError::Missing {
                    path: path.to_path_buf(),
                })
            }
            Err(e) => return Err(io_error("open", path, e)),
        };
        let format = guarded(path, || init_or_check(&db, path))?;
        Ok(Store {
            inner: Arc::new(Inner {
                db,
                path: path.to_path_buf(),
                format,
            }),
        })
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The store format recorded in the file.
    pub fn format_version(&self) -> u64 {
        self.inner.format
    }

    pub(crate) fn db(&self) -> &Database {
        &self.inner.db
    }

    pub(crate) fn guard<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        guarded(&self.inner.path, f)
    }

    /// The file's size on disk, in bytes.
    pub fn file_bytes(&self) -> Result<u64> {
        fs::metadata(self.path())
            .map(|m| m.len())
            .map_err(|e| io_error("read the size of", self.path(), e))
    }

    /// The stored record of a region key, as bytes.
    pub fn get_region_record(&self, ruleset: &str, key: &[u8]) -> Result<Option<Vec<u8>>> {
        let name = region_table_name(ruleset)?;
        self.guard(|| {
            let tx = self.db().begin_read()?;
            let table = match tx.open_table(RegionTableDef::new(&name)) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(table.get(key)?.map(|v| v.value().to_vec()))
        })
    }

    /// Write region entries in one transaction: all of them or none. Entries
    /// already present are left alone (the first computation is kept).
    pub fn insert_regions(&self, entries: &[RawEntry]) -> Result<WriteReport> {
        self.insert_region_refs(
            entries
                .iter()
                .map(|e| (e.ruleset.as_str(), e.key.as_slice(), e.record.as_slice())),
        )
    }

    /// [`Store::insert_regions`] over borrowed `(ruleset, key, record)` triples.
    pub fn insert_region_refs<'a>(
        &self,
        entries: impl IntoIterator<Item = (&'a str, &'a [u8], &'a [u8])>,
    ) -> Result<WriteReport> {
        self.write_batch(entries, None)
    }

    /// Write region entries and, optionally, a run's record, in one transaction.
    pub(crate) fn write_batch<'a>(
        &self,
        entries: impl IntoIterator<Item = (&'a str, &'a [u8], &'a [u8])>,
        run: Option<&RunRecord>,
    ) -> Result<WriteReport> {
        let run_bytes = match run {
            Some(r) => Some(serde_json::to_vec(r).map_err(StoreError::db)?),
            None => None,
        };
        let mut report = WriteReport::default();
        self.guard(|| {
            let tx = self.db().begin_write()?;
            {
                let mut tables: BTreeMap<&str, redb::Table<&[u8], &[u8]>> = BTreeMap::new();
                for (ruleset, key, record) in entries {
                    if !tables.contains_key(ruleset) {
                        let name = region_table_name(ruleset)?;
                        tables.insert(ruleset, tx.open_table(RegionTableDef::new(&name))?);
                    }
                    let Some(table) = tables.get_mut(ruleset) else {
                        continue;
                    };
                    let existing = table.get(key)?.map(|g| g.value().to_vec());
                    if let Some(old) = existing {
                        report.present += 1;
                        if !same_value(&old, record) {
                            report.conflicting += 1;
                        }
                    } else {
                        table.insert(key, record)?;
                        report.added += 1;
                    }
                }
            }
            if let Some(bytes) = &run_bytes {
                append_run(&tx, bytes)?;
            }
            if report.added > 0 || run_bytes.is_some() {
                tx.commit()?;
            } else {
                tx.abort()?;
            }
            Ok(report)
        })
    }

    /// The rulesets that have region tables, in name order.
    pub fn rulesets(&self) -> Result<Vec<String>> {
        self.guard(|| {
            let tx = self.db().begin_read()?;
            let mut out: Vec<String> = tx
                .list_tables()?
                .filter_map(|h| h.name().strip_prefix(REGIONS_PREFIX).map(str::to_string))
                .collect();
            out.sort();
            Ok(out)
        })
    }

    /// Region values per ruleset.
    pub fn region_counts(&self) -> Result<BTreeMap<String, u64>> {
        let rulesets = self.rulesets()?;
        self.guard(|| {
            let tx = self.db().begin_read()?;
            let mut out = BTreeMap::new();
            for r in rulesets {
                let name = region_table_name(&r)?;
                let t = tx.open_table(RegionTableDef::new(&name))?;
                out.insert(r, t.len()?);
            }
            Ok(out)
        })
    }

    /// Visit every region entry of a ruleset in key order, in one consistent
    /// snapshot (writers carry on meanwhile). Stops at the first error `f` returns.
    pub fn for_each_region(
        &self,
        ruleset: &str,
        mut f: impl FnMut(&[u8], &[u8]) -> Result<()>,
    ) -> Result<()> {
        let name = region_table_name(ruleset)?;
        self.guard(|| {
            let tx = self.db().begin_read()?;
            let table = match tx.open_table(RegionTableDef::new(&name)) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(()),
                Err(e) => return Err(e.into()),
            };
            for item in table.iter()? {
                let (k, v) = item?;
                f(k.value(), v.value())?;
            }
            Ok(())
        })
    }

    /// Store a census result under its parameters
    /// (e.g. `"census/domineering/max_cells=9"`), replacing any previous one.
    pub fn put_census(&self, key: &str, value: &serde_json::Value) -> Result<()> {
        let bytes = serde_json::to_vec(value).map_err(StoreError::db)?;
        self.guard(|| {
            let tx = self.db().begin_write()?;
            {
                let mut t = tx.open_table(CENSUS)?;
                t.insert(key, bytes.as_slice())?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    /// Store a census result only if none is stored under the key yet.
    /// Returns whether it was added.
    pub fn insert_census(&self, key: &str, value: &serde_json::Value) -> Result<bool> {
        let bytes = serde_json::to_vec(value).map_err(StoreError::db)?;
        self.guard(|| {
            let tx = self.db().begin_write()?;
            let added = {
                let mut t = tx.open_table(CENSUS)?;
                let present = t.get(key)?.is_some();
                if !present {
                    t.insert(key, bytes.as_slice())?;
                }
                !present
            };
            tx.commit()?;
            Ok(added)
        })
    }

    /// The census result stored under a key, if any.
    pub fn get_census(&self, key: &str) -> Result<Option<serde_json::Value>> {
        let bytes = self.guard(|| {
            let tx = self.db().begin_read()?;
            let t = match tx.open_table(CENSUS) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(t.get(key)?.map(|v| v.value().to_vec()))
        })?;
        match bytes {
            None => Ok(None),
            Some(b) => serde_json::from_slice(&b)
                .map(Some)
                .map_err(|e| StoreError::BadValue(format!("census '{key}': {e}"))),
        }
    }

    /// Every stored census result, in key order.
    pub fn census_entries(&self) -> Result<Vec<(String, serde_json::Value)>> {
        let raw: Vec<(String, Vec<u8>)> = self.guard(|| {
            let tx = self.db().begin_read()?;
            let t = match tx.open_table(CENSUS) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            };
            let mut out = Vec::new();
            for item in t.iter()? {
                let (k, v) = item?;
                out.push((k.value().to_string(), v.value().to_vec()));
            }
            Ok(out)
        })?;
        raw.into_iter()
            .map(|(k, b)| match serde_json::from_slice(&b) {
                Ok(v) => Ok((k, v)),
                Err(e) => Err(StoreError::BadValue(format!("census '{k}': {e}"))),
            })
            .collect()
    }

    fn census_count(&self) -> Result<u64> {
        self.guard(|| {
            let tx = self.db().begin_read()?;
            match tx.open_table(CENSUS) {
                Ok(t) => Ok(t.len()?),
                Err(TableError::TableDoesNotExist(_)) => Ok(0),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// Remember a finished run (the last [`RUNS_KEPT`] are kept).
    pub fn record_run(&self, run: &RunRecord) -> Result<()> {
        self.write_batch(std::iter::empty(), Some(run)).map(|_| ())
    }

    /// The remembered runs, oldest first.
    pub fn recent_runs(&self) -> Result<Vec<RunRecord>> {
        self.guard(|| {
            let tx = self.db().begin_read()?;
            let t = match tx.open_table(RUNS) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            };
            let mut out = Vec::new();
            for item in t.iter()? {
                let (_, v) = item?;
                // A run record this build cannot read is skipped, not fatal.
                if let Ok(r) = serde_json::from_slice::<RunRecord>(v.value()) {
                    out.push(r);
                }
            }
            Ok(out)
        })
    }

    /// Counts for `partizan store stats`.
    pub fn stats(&self) -> Result<StoreStats> {
        let regions = self.region_counts()?;
        let recent_runs = self.recent_runs()?;
        let lookups: u64 = recent_runs.iter().map(|r| r.lookups).sum();
        let hits: u64 = recent_runs.iter().map(|r| r.hits).sum();
        Ok(StoreStats {
            path: self.path().to_path_buf(),
            format: self.format_version(),
            file_bytes: self.file_bytes()?,
            total_regions: regions.values().sum(),
            regions,
            census_entries: self.census_count()?,
            recent_hit_rate: (lookups > 0).then(|| hits as f64 / lookups as f64),
            recent_runs,
        })
    }

    /// Ask the engine to check every page checksum of the file. Needs the
    /// only handle to the store; returns `Ok(None)` if other clones are alive.
    pub fn check_integrity(&mut self) -> Result<Option<bool>> {
        let path = self.inner.path.clone();
        match Arc::get_mut(&mut self.inner) {
            None => Ok(None),
            Some(inner) => guarded(&path, || {
                inner
                    .db
                    .check_integrity()
                    .map(Some)
                    .map_err(|e| classify_refusal(&path, e))
            }),
        }
    }
}

/// Append a run's record to the `runs` table, keeping the last [`RUNS_KEPT`].
fn append_run(tx: &redb::WriteTransaction, bytes: &[u8]) -> Result<()> {
    let mut t = tx.open_table(RUNS)?;
    let next = t.last()?.map(|(k, _)| k.value() + 1).unwrap_or(0);
    t.insert(next, bytes)?;
    let keep_from = (next + 1).saturating_sub(RUNS_KEPT as u64);
    t.retain_in(..keep_from, |_, _| false)?;
    Ok(())
}

/// Do two records hold the same value? (The value encoding is canonical, so
/// equal values have equal bytes.)
fn same_value(a: &[u8], b: &[u8]) -> bool {
    match (Record::decode(a), Record::decode(b)) {
        (Ok(x), Ok(y)) => x.value == y.value,
        _ => a == b,
    }
}

impl Store {
    /// Rewrite the file to release free space. Needs the only handle to the
    /// store; returns `Ok(false)` if other clones are alive.
    pub fn compact(&mut self) -> Result<bool> {
        let path = self.inner.path.clone();
        match Arc::get_mut(&mut self.inner) {
            None => Ok(false),
            Some(inner) => guarded(&path, || {
                inner.db.compact().map_err(StoreError::db)?;
                Ok(true)
            }),
        }
    }
}

fn meta_u64(v: &[u8]) -> Option<u64> {
    let b: [u8; 8] = v.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

/// Check the store's metadata, writing it first if the database is new.
fn init_or_check(db: &Database, path: &Path) -> Result<u64> {
    let not_store = |detail: &str| StoreError::NotAStore {
        path: path.to_path_buf(),
        detail: detail.to_string(),
    };
    let format = {
        let tx = db.begin_read()?;
        match tx.open_table(META) {
            Ok(t) => match t.get("format")? {
                Some(v) => Some(
                    meta_u64(v.value()).ok_or_else(|| not_store("unreadable format version"))?,
                ),
                None => return Err(not_store("no format version")),
            },
            Err(TableError::TableDoesNotExist(_)) => {
                // A database with no tables is a store whose creation was cut
                // short before its first commit; anything else is foreign.
                if tx.list_tables()?.next().is_some() {
                    return Err(not_store("a redb database without partizan metadata"));
                }
                None
            }
            Err(e) => return Err(e.into()),
        }
    };
    match format {
        Some(found) if found > FORMAT_VERSION => Err(StoreError::NewerFormat {
            path: path.to_path_buf(),
            found,
            supported: FORMAT_VERSION,
        }),
        Some(found) => Ok(found),
        None => {
            let tx = db.begin_write()?;
            {
                let mut t = tx.open_table(META)?;
                t.insert("format", FORMAT_VERSION.to_le_bytes().as_slice())?;
                t.insert("created_at", unix_now().to_le_bytes().as_slice())?;
                t.insert("created_by", PARTIZAN_VERSION.as_bytes())?;
            }
            tx.commit()?;
            Ok(FORMAT_VERSION)
        }
    }
}

/// Overwrite the recorded format version (for tests of newer-format files).
#[doc(hidden)]
pub fn set_format_version_for_tests(store: &Store, v: u64) -> Result<()> {
    let tx = store.db().begin_write()?;
    {
        let mut t = tx.open_table(META)?;
        t.insert("format", v.to_le_bytes().as_slice())?;
    }
    tx.commit()?;
    Ok(())
}
