//! The database layer: an SQLite file in WAL mode, opened safely, with
//! every row sealed by its own checksum.
//!
//! ```text
//!   meta     key TEXT → value          format version, created by/at, migrated from
//!   regions  (ruleset, key) → record‖mac(ruleset, key, record)
//!   census   key → JSON‖mac("census", key, JSON)
//!   runs     id → JSON‖mac("runs", id, JSON), the last 32 runs
//! ```
//!
//! (`mac`: 16 bytes of a MAC under the user's key, [`crate::checksum`];
//! format 2 had a CRC-64 there and is carried forward on open, its values
//! checked again: [`crate::migrate`].)
//!
//! ```text
//! ```
//!
//! Many processes may open one file at once: WAL readers never wait for a
//! writer, writers take turns (each batch is one short transaction, and a
//! writer waits up to [`StoreOptions::wait`] for its turn).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, ErrorKind, Read};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
use serde::{Deserialize, Serialize};

use crate::checksum::{seal, unseal};
use crate::error::{one_line, Result, StoreError};
use crate::migrate::Older;
use crate::path::valid_ruleset;
use crate::record::{unix_now, Provenance, Record, PARTIZAN_VERSION};

/// The store format written by this build. A file recording a larger number
/// is refused; a v1 (redb) file is migrated forward on open.
pub const FORMAT_VERSION: u64 = 3;

/// The size limit of a store that never set one: 2 GiB. Enough for every
/// region of up to 14 cells of every ruleset many times over, and far below
/// what a runaway `value` would write in an afternoon (the issue measured
/// 271 MB a minute without a limit).
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// How many recent runs the store remembers for `stats`.
pub const RUNS_KEPT: usize = 32;

/// The first 16 bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE regions (ruleset TEXT NOT NULL, key BLOB NOT NULL, record BLOB NOT NULL,
                      PRIMARY KEY (ruleset, key)) WITHOUT ROWID;
CREATE TABLE census (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE runs (id INTEGER PRIMARY KEY, value BLOB NOT NULL);
";

pub(crate) fn check_ruleset(ruleset: &str) -> Result<()> {
    if valid_ruleset(ruleset) {
        Ok(())
    } else {
        Err(StoreError::BadRuleset(ruleset.to_string()))
    }
}

/// How to open a store.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// How long a writer waits for its turn (and an opener for a migration).
    pub wait: Duration,
    /// Create the file if the path does not exist.
    pub create: bool,
    /// Create the file's missing folders too (only for the default location:
    /// a mistyped `--store` path must not grow directories).
    pub create_dirs: bool,
    /// Open for reading only: nothing is ever written to the file (a v1 file
    /// is read through a migrated copy in the temporary directory).
    pub read_only: bool,
    /// Memory for the database engine's page cache, per connection, in bytes.
    pub cache_bytes: usize,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            wait: Duration::from_secs(5),
            create: true,
            create_dirs: true,
            read_only: false,
            cache_bytes: 16 << 20,
        }
    }
}

impl StoreOptions {
    /// Options that only read an existing store.
    pub fn read_only() -> Self {
        StoreOptions {
            create: false,
            read_only: true,
            ..StoreOptions::default()
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
    /// The record body (see [`crate::record`]); the checksum is added on write.
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

/// What a v1 store's migration did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Migration {
    /// The format migrated from.
    pub from: u64,
    /// Region values carried over.
    pub regions: u64,
    /// Census results carried over.
    pub census: u64,
    /// v1 entries that did not decode (left behind; still in the backup).
    pub skipped: u64,
    /// Where the v1 file was kept (`None` for a read-only, in-memory copy).
    pub backup: Option<PathBuf>,
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
    /// The size limit past which no values are added (`None`: no limit).
    pub size_limit: Option<u64>,
    /// Region values per ruleset.
    pub regions: BTreeMap<String, u64>,
    /// All region values.
    pub total_regions: u64,
    /// Rows whose checksum fails (damaged; never used as values).
    pub checksum_failures: u64,
    /// Imported values not yet recomputed (never answered from; run
    /// `partizan store verify`).
    pub unverified: u64,
    /// Stored census results (not counting stored outcomes).
    pub census_entries: u64,
    /// Stored outcomes of whole boards (`partizan outcome`), kept beside
    /// the census results under `outcome/...` keys.
    pub outcome_entries: u64,
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
    /// Damaged or unverified rows replaced by a trusted value.
    pub replaced: u64,
}

/// A region read: absent, present, or present but failing its checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionRead {
    /// No row under the key.
    Missing,
    /// The record body (checksum verified).
    Found(Vec<u8>),
    /// A row whose checksum fails: damaged, never a value.
    Damaged,
}

struct Inner {
    /// The file the user named.
    path: PathBuf,
    /// The SQLite file actually opened (a temporary migrated copy for a
    /// read-only open of a v1 file).
    db_path: PathBuf,
    /// Remove `db_path` (and its sidecars) when the last handle goes.
    temporary: bool,
    format: u64,
    opts: StoreOptions,
    migration: Option<Migration>,
    pool: Mutex<Vec<Connection>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Ok(pool) = self.pool.get_mut() {
            pool.clear();
        }
        if self.temporary {
            remove_db_files(&self.db_path);
        }
    }
}

/// An open store. Cheap to clone; clones share a pool of connections, so
/// many threads can read (never blocking) while one writes. Other processes
/// may have the same file open, reading and writing too.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.inner.path)
            .field("format", &self.inner.format)
            .field("read_only", &self.inner.opts.read_only)
            .finish()
    }
}

/// A connection borrowed from a store's pool, returned on drop.
pub(crate) struct Conn {
    store: Store,
    conn: Option<Connection>,
}

impl Deref for Conn {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("connection present until drop")
    }
}

impl DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("connection present until drop")
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let (Some(c), Ok(mut pool)) = (self.conn.take(), self.store.inner.pool.lock()) {
            if pool.len() < 8 {
                pool.push(c);
            }
        }
    }
}

/// Run an engine call, turning a panic inside it into an error: a damaged
/// file must never crash the program.
fn guarded<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match crate::quiet::catch(f) {
        Ok(r) => r.map_err(|e| classify(path, e)),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "engine panicked".to_string());
            Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                detail: format!("engine check failed: {}", one_line(&msg)),
            })
        }
    }
}

/// Tie an engine error to the store file and say what it means.
fn classify(path: &Path, e: StoreError) -> StoreError {
    let StoreError::Engine(e) = e else {
        return e;
    };
    let p = path.to_path_buf();
    let detail = one_line(&e.to_string());
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::InUse { path: p },
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            StoreError::Corrupt { path: p, detail }
        }
        Some(ErrorCode::DiskFull) => StoreError::Io {
            op: "write to",
            path: p,
            error: io::Error::new(ErrorKind::StorageFull, "no space left on device"),
        },
        Some(ErrorCode::ReadOnly) => StoreError::Io {
            op: "write to",
            path: p,
            error: io::Error::new(ErrorKind::PermissionDenied, detail),
        },
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => StoreError::Io {
            op: "open",
            path: p,
            error: io::Error::new(ErrorKind::PermissionDenied, detail),
        },
        Some(ErrorCode::SystemIoFailure) => StoreError::Io {
            op: "read or write",
            path: p,
            error: io::Error::other(detail),
        },
        _ => StoreError::Db(detail),
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
        error: source,
    }
}

/// A name beside `path` for a file of this process (`PATH.TAG-PID-N`).
fn sibling(path: &Path, tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let mut s = path.as_os_str().to_owned();
    s.push(format!(
        ".{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    PathBuf::from(s)
}

pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Remove an SQLite file and its WAL sidecars (best effort).
fn remove_db_files(path: &Path) {
    let _ = fs::remove_file(path);
    let _ = fs::remove_file(with_suffix(path, "-wal"));
    let _ = fs::remove_file(with_suffix(path, "-shm"));
    let _ = fs::remove_file(with_suffix(path, "-journal"));
}

fn connect(path: &Path, opts: &StoreOptions, create: bool) -> Result<Connection> {
    let mut flags = OpenFlags::SQLITE_OPEN_NO_MUTEX;
    flags |= if opts.read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
    };
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let c = Connection::open_with_flags(path, flags)?;
    c.busy_timeout(opts.wait)?;
    let kib = (opts.cache_bytes / 1024).max(64);
    c.execute_batch(&format!(
        "PRAGMA cache_size = -{kib}; PRAGMA synchronous = FULL; PRAGMA cell_size_check = ON;"
    ))?;
    Ok(c)
}

/// What kind of file is at a path, from its first bytes.
enum FileKind {
    Sqlite,
    RedbV1,
    Empty,
    Foreign,
}

fn sniff(path: &Path) -> Result<FileKind> {
    let mut head = [0u8; 16];
    let mut f = fs::File::open(path).map_err(|e| io_error("open", path, e))?;
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error("read", path, e)),
        }
    }
    Ok(if n == 0 {
        FileKind::Empty
    } else if n == 16 && &head == SQLITE_MAGIC {
        FileKind::Sqlite
    } else if n >= 4 && &head[..4] == b"redb" {
        FileKind::RedbV1
    } else {
        FileKind::Foreign
    })
}

/// Build a complete new store at `tmp` (schema, metadata, then `fill`),
/// closed and checkpointed, so it can be linked or renamed into place.
/// On any error `tmp` is removed: a failed creation leaves nothing behind.
fn build_fresh(
    tmp: &Path,
    opts: &StoreOptions,
    fill: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<()>,
) -> Result<()> {
    let r = guarded(tmp, || {
        let rw = StoreOptions {
            read_only: false,
            ..opts.clone()
        };
        let mut c = connect(tmp, &rw, true)?;
        c.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
        let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(SCHEMA)?;
        {
            let mut st = tx.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
            st.execute(params!["format", FORMAT_VERSION as i64])?;
            st.execute(params!["created_at", unix_now() as i64])?;
            st.execute(params!["created_by", PARTIZAN_VERSION])?;
        }
        fill(&tx)?;
        tx.commit()?;
        c.close().map_err(|(_, e)| StoreError::Engine(e))?;
        Ok(())
    });
    if r.is_err() {
        remove_db_files(tmp);
    }
    r
}

impl Store {
    /// Open the store at `path`, creating it (and its folder) if the path
    /// does not exist.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_with(path, &StoreOptions::default())
    }

    /// Open with explicit options.
    ///
    /// An existing file is only ever opened, never re-initialised: an empty,
    /// foreign, truncated or corrupted file is an error and is left as it
    /// was. A v1 (redb) store is migrated forward (see [`Store::migration`]).
    pub fn open_with(path: &Path, opts: &StoreOptions) -> Result<Store> {
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(StoreError::IsDirectory {
                path: path.to_path_buf(),
            }),
            Ok(_) => Store::open_existing(path, opts),
            Err(e) if e.kind() == ErrorKind::NotFound && opts.create && !opts.read_only => {
                Store::create(path, opts)?;
                Store::open_existing(path, opts)
            }
            Err(e) if e.kind() == ErrorKind::NotFound => Err(StoreError::Missing {
                path: path.to_path_buf(),
            }),
            Err(e) => Err(io_error("open", path, e)),
        }
    }

    fn create(path: &Path, opts: &StoreOptions) -> Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if opts.create_dirs {
                fs::create_dir_all(dir).map_err(|e| io_error("create the folder of", path, e))?;
            } else if !dir.is_dir() {
                return Err(StoreError::Io {
                    op: "create",
                    path: path.to_path_buf(),
                    error: io::Error::new(
                        ErrorKind::NotFound,
                        format!("folder {} does not exist", dir.display()),
                    ),
                });
            }
        }
        let tmp = sibling(path, "creating");
        build_fresh(&tmp, opts, |_| Ok(()))?;
        // Link the finished store into place; if another process got there
        // first, theirs is kept and opened.
        let linked = fs::hard_link(&tmp, path);
        remove_db_files(&tmp);
        match linked {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
            Err(e) => Err(io_error("create", path, e)),
        }
    }

    fn open_existing(path: &Path, opts: &StoreOptions) -> Result<Store> {
        match sniff(path)? {
            FileKind::Empty => Err(StoreError::NotAStore {
                path: path.to_path_buf(),
                detail: "empty file".into(),
            }),
            FileKind::Foreign => Err(StoreError::NotAStore {
                path: path.to_path_buf(),
                detail: "neither an SQLite nor a redb file".into(),
            }),
            FileKind::Sqlite if sqlite_format(path)? == Some(2) => {
                Store::open_older(path, opts, Older::V2)
            }
            FileKind::Sqlite => Store::open_sqlite(path, path, opts, None, false),
            FileKind::RedbV1 => Store::open_older(path, opts, Older::V1),
        }
    }

    /// Open a store of an `older` format: carried forward in place, or,
    /// read-only, through a carried-forward temporary copy (copy-on-open:
    /// the file is never touched).
    fn open_older(path: &Path, opts: &StoreOptions, older: Older) -> Result<Store> {
        if opts.read_only {
            let tmp = std::env::temp_dir().join(format!(
                "partizan-v{}-{}-{}.sqlite",
                older.number(),
                std::process::id(),
                unix_now()
            ));
            let tmp = sibling(&tmp, "ro");
            let m = crate::migrate::migrate(older, path, &tmp, opts)?;
            return Store::open_sqlite(path, &tmp, opts, Some(m), true);
        }
        match crate::migrate::migrate_in_place(path, opts, older)? {
            Some(m) => Store::open_sqlite(path, path, opts, Some(m), false),
            // Another process migrated it meanwhile.
            None => Store::open_existing(path, opts),
        }
    }

    fn open_sqlite(
        path: &Path,
        db_path: &Path,
        opts: &StoreOptions,
        migration: Option<Migration>,
        temporary: bool,
    ) -> Result<Store> {
        let c = guarded(path, || connect(db_path, opts, false));
        let c = match c {
            Ok(c) => c,
            Err(e) => {
                if temporary {
                    remove_db_files(db_path);
                }
                return Err(e);
            }
        };
        let store = Store {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                db_path: db_path.to_path_buf(),
                temporary,
                format: 0,
                opts: opts.clone(),
                migration,
                pool: Mutex::new(Vec::new()),
            }),
        };
        let format = guarded(path, || check_meta(&c, path))?;
        let mut store = store;
        if let Some(inner) = Arc::get_mut(&mut store.inner) {
            inner.format = format;
        }
        if let Ok(mut pool) = store.inner.pool.lock() {
            pool.push(c);
        }
        Ok(store)
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The store format recorded in the file.
    pub fn format_version(&self) -> u64 {
        self.inner.format
    }

    /// Whether this handle only reads.
    pub fn is_read_only(&self) -> bool {
        self.inner.opts.read_only
    }

    /// What migrating a v1 file did, if this open migrated one.
    pub fn migration(&self) -> Option<&Migration> {
        self.inner.migration.as_ref()
    }

    /// A connection from the pool (or a new one).
    pub(crate) fn conn(&self) -> Result<Conn> {
        let pooled = self.inner.pool.lock().ok().and_then(|mut p| p.pop());
        let conn = match pooled {
            Some(c) => c,
            None => self.guard(|| connect(&self.inner.db_path, &self.inner.opts, false))?,
        };
        Ok(Conn {
            store: self.clone(),
            conn: Some(conn),
        })
    }

    /// Run an engine call with errors tied to this store's file.
    pub(crate) fn guard<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        guarded(&self.inner.path, f)
    }

    fn writable(&self) -> Result<()> {
        if self.is_read_only() {
            return Err(StoreError::ReadOnly {
                path: self.path().to_path_buf(),
            });
        }
        Ok(())
    }

    /// The store's size on disk, in bytes: the file plus its write-ahead
    /// log (values committed but not yet checkpointed live there).
    pub fn file_bytes(&self) -> Result<u64> {
        let main = fs::metadata(&self.inner.db_path)
            .map(|m| m.len())
            .map_err(|e| io_error("read the size of", self.path(), e))?;
        let wal = fs::metadata(with_suffix(&self.inner.db_path, "-wal")).map_or(0, |m| m.len());
        Ok(main + wal)
    }

    /// The store's size limit in bytes (`None`: no limit). Past it,
    /// sessions stop adding values (reads go on) and say so once; the file
    /// may pass it by at most one batch. Kept in the file's metadata (key
    /// `max_bytes`), so every process using the store obeys the same limit;
    /// a store that never set one has [`DEFAULT_MAX_BYTES`].
    pub fn size_limit(&self) -> Result<Option<u64>> {
        let c = self.conn()?;
        self.guard(|| {
            let v: Option<i64> = c
                .query_row("SELECT value FROM meta WHERE key = 'max_bytes'", [], |r| {
                    r.get(0)
                })
                .optional()?;
            Ok(match v {
                None => Some(DEFAULT_MAX_BYTES),
                Some(n) if n <= 0 => None,
                Some(n) => Some(n as u64),
            })
        })
    }

    /// Set the size limit (`None`: no limit). See [`Store::size_limit`].
    pub fn set_size_limit(&self, limit: Option<u64>) -> Result<()> {
        self.writable()?;
        let v = match limit {
            None => 0i64,
            Some(n) => i64::try_from(n.max(1)).unwrap_or(i64::MAX),
        };
        let c = self.conn()?;
        self.guard(|| {
            c.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('max_bytes', ?1)",
                params![v],
            )?;
            Ok(())
        })
    }

    /// Read a region's row, checking its checksum.
    pub fn read_region(&self, ruleset: &str, key: &[u8]) -> Result<RegionRead> {
        check_ruleset(ruleset)?;
        let c = self.conn()?;
        self.guard(|| read_region_on(&c, ruleset, key))
    }

    /// The stored record body of a region key; a row failing its checksum
    /// is [`StoreError::Checksum`], never bytes.
    pub fn get_region_record(&self, ruleset: &str, key: &[u8]) -> Result<Option<Vec<u8>>> {
        match self.read_region(ruleset, key)? {
            RegionRead::Missing => Ok(None),
            RegionRead::Found(b) => Ok(Some(b)),
            RegionRead::Damaged => Err(StoreError::Checksum {
                table: ruleset.to_string(),
                key: crate::keys::to_hex(key),
            }),
        }
    }

    /// Write region entries in one transaction: all of them or none. Entries
    /// already present are left alone (the first computation is kept),
    /// except damaged rows and unverified imports, which a trusted value
    /// replaces.
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
        self.writable()?;
        let run_bytes = match run {
            Some(r) => Some(serde_json::to_vec(r).map_err(StoreError::db)?),
            None => None,
        };
        let mut c = self.conn()?;
        self.guard(|| {
            let mut report = WriteReport::default();
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            {
                let mut get = tx
                    .prepare_cached("SELECT record FROM regions WHERE ruleset = ?1 AND key = ?2")?;
                let mut put = tx.prepare_cached(
                    "INSERT OR REPLACE INTO regions (ruleset, key, record) VALUES (?1, ?2, ?3)",
                )?;
                for (ruleset, key, record) in entries {
                    check_ruleset(ruleset)?;
                    let new = Record::decode(record)?;
                    let old: Option<Vec<u8>> = get
                        .query_row(params![ruleset, key], |r| r.get(0))
                        .optional()?;
                    let replace = match &old {
                        None => {
                            report.added += 1;
                            true
                        }
                        Some(stored) => match unseal(ruleset, key, stored)
                            .and_then(|b| Record::decode(b).ok())
                        {
                            None => {
                                report.replaced += 1;
                                true
                            }
                            Some(o) if !o.provenance.trusted() && new.provenance.trusted() => {
                                report.replaced += 1;
                                if o.value != new.value {
                                    report.conflicting += 1;
                                }
                                true
                            }
                            Some(o) => {
                                report.present += 1;
                                if o.value != new.value {
                                    report.conflicting += 1;
                                }
                                false
                            }
                        },
                    };
                    if replace {
                        put.execute(params![ruleset, key, seal(ruleset, key, record)])?;
                    }
                }
            }
            if let Some(bytes) = &run_bytes {
                append_run(&tx, bytes)?;
            }
            if report.added > 0 || report.replaced > 0 || run_bytes.is_some() {
                tx.commit()?;
            } else {
                tx.rollback()?;
            }
            Ok(report)
        })
    }

    /// The rulesets that have region values, in name order.
    pub fn rulesets(&self) -> Result<Vec<String>> {
        Ok(self.region_counts()?.into_keys().collect())
    }

    /// Region values per ruleset.
    pub fn region_counts(&self) -> Result<BTreeMap<String, u64>> {
        let c = self.conn()?;
        self.guard(|| {
            let mut st = c.prepare_cached(
                "SELECT ruleset, count(*) FROM regions GROUP BY ruleset ORDER BY ruleset",
            )?;
            let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
            let mut out = BTreeMap::new();
            for row in rows {
                let (r, n) = row?;
                out.insert(r, n.max(0) as u64);
            }
            Ok(out)
        })
    }

    /// Visit every region row of a ruleset in key order, in one consistent
    /// snapshot (writers carry on meanwhile): `f(key, Some(body))` for a row
    /// whose checksum holds, `f(key, None)` for a damaged one. Stops at the
    /// first error `f` returns.
    pub fn for_each_region(
        &self,
        ruleset: &str,
        mut f: impl FnMut(&[u8], Option<&[u8]>) -> Result<()>,
    ) -> Result<()> {
        check_ruleset(ruleset)?;
        let c = self.conn()?;
        self.guard(|| {
            let mut st = c.prepare_cached(
                "SELECT key, record FROM regions WHERE ruleset = ?1 ORDER BY key",
            )?;
            let mut rows = st.query(params![ruleset])?;
            while let Some(row) = rows.next()? {
                let key = blob(row, 0)?;
                let stored = blob(row, 1)?;
                f(key, unseal(ruleset, key, stored))?;
            }
            Ok(())
        })
    }

    /// Store a census result under its parameters
    /// (e.g. `"census/domineering/max_cells=9"`), replacing any previous one.
    pub fn put_census(&self, key: &str, value: &serde_json::Value) -> Result<()> {
        self.census_write(key, value, true).map(|_| ())
    }

    /// Store a census result only if none is stored under the key yet (a
    /// damaged one is replaced). Returns whether it was added.
    pub fn insert_census(&self, key: &str, value: &serde_json::Value) -> Result<bool> {
        self.census_write(key, value, false)
    }

    fn census_write(&self, key: &str, value: &serde_json::Value, replace: bool) -> Result<bool> {
        self.writable()?;
        let bytes = serde_json::to_vec(value).map_err(StoreError::db)?;
        let sealed = seal("census", key.as_bytes(), &bytes);
        let mut c = self.conn()?;
        self.guard(|| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let old: Option<Vec<u8>> = tx
                .query_row(
                    "SELECT value FROM census WHERE key = ?1",
                    params![key],
                    |r| r.get(0),
                )
                .optional()?;
            let healthy = old
                .as_deref()
                .is_some_and(|o| unseal("census", key.as_bytes(), o).is_some());
            let write = replace || !healthy;
            if write {
                tx.execute(
                    "INSERT OR REPLACE INTO census (key, value) VALUES (?1, ?2)",
                    params![key, sealed],
                )?;
                tx.commit()?;
            } else {
                tx.rollback()?;
            }
            Ok(write)
        })
    }

    /// The census result stored under a key, if any (a damaged one is
    /// [`StoreError::Checksum`]).
    pub fn get_census(&self, key: &str) -> Result<Option<serde_json::Value>> {
        let c = self.conn()?;
        let stored: Option<Vec<u8>> = self.guard(|| {
            Ok(c.query_row(
                "SELECT value FROM census WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()?)
        })?;
        match stored {
            None => Ok(None),
            Some(s) => census_value(key, &s).map(Some),
        }
    }

    /// Every stored census result, in key order (damaged ones are errors).
    pub fn census_entries(&self) -> Result<Vec<(String, serde_json::Value)>> {
        self.census_raw()?
            .into_iter()
            .map(|(k, s)| census_value(&k, &s).map(|v| (k, v)))
            .collect()
    }

    pub(crate) fn census_raw(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let c = self.conn()?;
        self.guard(|| {
            let mut st = c.prepare_cached("SELECT key, value FROM census ORDER BY key")?;
            let rows = st.query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
            })?;
            let mut out = Vec::new();
            for row in rows {
                out.push(row?);
            }
            Ok(out)
        })
    }

    /// Remember a finished run (the last [`RUNS_KEPT`] are kept).
    pub fn record_run(&self, run: &RunRecord) -> Result<()> {
        self.write_batch(std::iter::empty(), Some(run)).map(|_| ())
    }

    /// The remembered runs, oldest first (damaged ones are skipped).
    pub fn recent_runs(&self) -> Result<Vec<RunRecord>> {
        let c = self.conn()?;
        self.guard(|| {
            let mut st = c.prepare_cached("SELECT id, value FROM runs ORDER BY id")?;
            let rows = st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))?;
            let mut out = Vec::new();
            for row in rows {
                let (id, v) = row?;
                if let Some(body) = unseal("runs", &id.to_le_bytes(), &v) {
                    if let Ok(r) = serde_json::from_slice::<RunRecord>(body) {
                        out.push(r);
                    }
                }
            }
            Ok(out)
        })
    }

    /// Counts for `partizan store stats` (reads every row once, to count
    /// damaged and unverified ones).
    pub fn stats(&self) -> Result<StoreStats> {
        let regions = self.region_counts()?;
        let mut checksum_failures = 0u64;
        let mut unverified = 0u64;
        for r in regions.keys() {
            self.for_each_region(r, |_, body| {
                match body.map(Record::decode) {
                    Some(Ok(rec)) if !rec.provenance.trusted() => unverified += 1,
                    Some(Ok(_)) => {}
                    _ => checksum_failures += 1,
                }
                Ok(())
            })?;
        }
        let census = self.census_raw()?;
        checksum_failures += census
            .iter()
            .filter(|(k, s)| unseal("census", k.as_bytes(), s).is_none())
            .count() as u64;
        let outcomes = census
            .iter()
            .filter(|(k, _)| crate::outcomes::is_outcome_key(k))
            .count() as u64;
        let recent_runs = self.recent_runs()?;
        let lookups: u64 = recent_runs.iter().map(|r| r.lookups).sum();
        let hits: u64 = recent_runs.iter().map(|r| r.hits).sum();
        Ok(StoreStats {
            path: self.path().to_path_buf(),
            format: self.format_version(),
            file_bytes: self.file_bytes()?,
            size_limit: self.size_limit()?,
            total_regions: regions.values().sum(),
            regions,
            checksum_failures,
            unverified,
            census_entries: census.len() as u64 - outcomes,
            outcome_entries: outcomes,
            recent_hit_rate: (lookups > 0).then(|| hits as f64 / lookups as f64),
            recent_runs,
        })
    }

    /// Ask the engine to check the file's structure (`PRAGMA
    /// integrity_check`, read-only). `Some(true)` when it is sound.
    pub fn check_integrity(&mut self) -> Result<Option<bool>> {
        let c = self.conn()?;
        self.guard(|| {
            let first: String = c.query_row("PRAGMA integrity_check(1)", [], |r| r.get(0))?;
            Ok(Some(first == "ok"))
        })
    }

    /// Rewrite the file to release free space (`VACUUM`). Returns `Ok(false)`
    /// for a read-only handle.
    pub fn compact(&mut self) -> Result<bool> {
        if self.is_read_only() {
            return Ok(false);
        }
        let c = self.conn()?;
        self.guard(|| {
            c.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")?;
            Ok(true)
        })
    }

    /// Mark unverified region rows as verified, after `verify` recomputed
    /// them and found the stored value (the key and its record body as read).
    pub(crate) fn mark_verified(&self, rows: &[(String, Vec<u8>, Vec<u8>)]) -> Result<u64> {
        self.writable()?;
        let mut c = self.conn()?;
        self.guard(|| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut n = 0;
            {
                let mut get = tx
                    .prepare_cached("SELECT record FROM regions WHERE ruleset = ?1 AND key = ?2")?;
                let mut put = tx.prepare_cached(
                    "UPDATE regions SET record = ?3 WHERE ruleset = ?1 AND key = ?2",
                )?;
                for (ruleset, key, body) in rows {
                    let now: Option<Vec<u8>> = get
                        .query_row(params![ruleset, key], |r| r.get(0))
                        .optional()?;
                    // Only a row still exactly as verified is promoted.
                    if now.as_deref().and_then(|s| unseal(ruleset, key, s)) != Some(body.as_slice())
                    {
                        continue;
                    }
                    let mut rec = Record::decode(body)?;
                    rec.provenance = Provenance::Verified;
                    let new = rec.encode();
                    put.execute(params![ruleset, key, seal(ruleset, key, &new)])?;
                    n += 1;
                }
            }
            tx.commit()?;
            Ok(n)
        })
    }
}

/// A blob column of a row; any other type reads as no bytes, which no
/// checksum accepts (a damaged row).
pub(crate) fn blob<'r>(row: &'r rusqlite::Row<'_>, i: usize) -> Result<&'r [u8]> {
    match row.get_ref(i)? {
        rusqlite::types::ValueRef::Blob(b) => Ok(b),
        _ => Ok(&[]),
    }
}

pub(crate) fn read_region_on(c: &Connection, ruleset: &str, key: &[u8]) -> Result<RegionRead> {
    let mut st = c.prepare_cached("SELECT record FROM regions WHERE ruleset = ?1 AND key = ?2")?;
    let mut rows = st.query(params![ruleset, key])?;
    Ok(match rows.next()? {
        None => RegionRead::Missing,
        Some(row) => {
            let stored = blob(row, 0)?;
            match unseal(ruleset, key, stored) {
                Some(b) => RegionRead::Found(b.to_vec()),
                None => RegionRead::Damaged,
            }
        }
    })
}

pub(crate) fn census_value(key: &str, stored: &[u8]) -> Result<serde_json::Value> {
    let body = unseal("census", key.as_bytes(), stored).ok_or_else(|| StoreError::Checksum {
        table: "census".into(),
        key: key.to_string(),
    })?;
    serde_json::from_slice(body).map_err(|e| StoreError::BadValue(format!("census '{key}': {e}")))
}

/// Append a run's record to the `runs` table, keeping the last [`RUNS_KEPT`].
fn append_run(tx: &rusqlite::Transaction<'_>, bytes: &[u8]) -> Result<()> {
    let last: Option<i64> = tx.query_row("SELECT max(id) FROM runs", [], |r| r.get(0))?;
    let next = last.map_or(0, |l| l + 1);
    tx.execute(
        "INSERT INTO runs (id, value) VALUES (?1, ?2)",
        params![next, seal("runs", &next.to_le_bytes(), bytes)],
    )?;
    tx.execute(
        "DELETE FROM runs WHERE id < ?1",
        params![next + 1 - RUNS_KEPT as i64],
    )?;
    Ok(())
}

/// Write region rows, census results and runs into a fresh store's
/// transaction (the migration uses it).
pub(crate) fn fill_rows(
    tx: &rusqlite::Transaction<'_>,
    regions: &[(String, Vec<u8>, Vec<u8>)],
    census: &[(String, Vec<u8>)],
    runs: &[Vec<u8>],
) -> Result<()> {
    let mut put =
        tx.prepare("INSERT OR IGNORE INTO regions (ruleset, key, record) VALUES (?1, ?2, ?3)")?;
    for (r, k, body) in regions {
        put.execute(params![r, k, seal(r, k, body)])?;
    }
    let mut put = tx.prepare("INSERT OR IGNORE INTO census (key, value) VALUES (?1, ?2)")?;
    for (k, v) in census {
        put.execute(params![k, seal("census", k.as_bytes(), v)])?;
    }
    for r in runs.iter().rev().take(RUNS_KEPT).rev() {
        append_run(tx, r)?;
    }
    Ok(())
}

pub(crate) fn build_store_file(
    tmp: &Path,
    opts: &StoreOptions,
    regions: &[(String, Vec<u8>, Vec<u8>)],
    census: &[(String, Vec<u8>)],
    runs: &[Vec<u8>],
    from: u64,
) -> Result<()> {
    build_fresh(tmp, opts, |tx| {
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('migrated_from', ?1)",
            params![from as i64],
        )?;
        fill_rows(tx, regions, census, runs)
    })
}

/// The format an SQLite store file records, if it records one (read
/// through a read-only connection; `None`: no partizan metadata).
pub(crate) fn sqlite_format(path: &Path) -> Result<Option<u64>> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    );
    let Ok(c) = c else { return Ok(None) };
    let v: std::result::Result<Option<i64>, _> = c
        .query_row("SELECT value FROM meta WHERE key = 'format'", [], |r| {
            r.get(0)
        })
        .optional();
    Ok(v.ok().flatten().and_then(|n| u64::try_from(n).ok()))
}

/// Check the store's metadata: a partizan store of a format this build reads.
fn check_meta(c: &Connection, path: &Path) -> Result<u64> {
    let not_store = |detail: &str| StoreError::NotAStore {
        path: path.to_path_buf(),
        detail: detail.to_string(),
    };
    let has_meta: bool = c.query_row(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has_meta {
        return Err(not_store("an SQLite database without partizan metadata"));
    }
    let v: Option<rusqlite::types::Value> = c
        .query_row("SELECT value FROM meta WHERE key = 'format'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let found = match v {
        Some(rusqlite::types::Value::Integer(n)) if n >= 0 => n as u64,
        Some(_) => return Err(not_store("unreadable format version")),
        None => return Err(not_store("no format version")),
    };
    if found > FORMAT_VERSION {
        return Err(StoreError::NewerFormat {
            path: path.to_path_buf(),
            found,
            supported: FORMAT_VERSION,
        });
    }
    if found < FORMAT_VERSION {
        return Err(not_store(&format!(
            "an SQLite file claiming format v{found}"
        )));
    }
    Ok(found)
}

/// Take the lock file `lock`, waiting up to `wait` while another process
/// holds it. The lock is an OS file lock (`flock` on Unix, `LockFileEx` on
/// Windows, through `fs4`) on the file, not the file's existence: the
/// operating system releases it when the holder exits or is killed, so a
/// lock file left behind by a dead process is taken over at once, and one
/// held by a live process is respected however long its migration runs.
/// The holder writes its pid into the file (for people reading it) and
/// removes the file before letting go.
pub(crate) fn take_lock(lock: &Path, store: &Path, wait: Duration) -> Result<fs::File> {
    use std::io::Write;
    let deadline = Instant::now() + wait;
    loop {
        let mut f = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(lock)
            .map_err(|e| io_error("lock", store, e))?;
        // Called through the trait: std's own `File::try_lock` is newer
        // than the workspace's minimum Rust.
        match fs4::FileExt::try_lock(&f) {
            Ok(()) => {
                // The previous holder may have removed the file between our
                // open and our lock: then we hold an orphan; start again.
                if !still_named(&f, lock) {
                    continue;
                }
                let _ = f
                    .set_len(0)
                    .and_then(|()| writeln!(f, "{}", std::process::id()));
                return Ok(f);
            }
            Err(fs4::TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Err(StoreError::InUse {
                        path: store.to_path_buf(),
                    });
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io_error("lock", store, e)),
        }
    }
}

/// Whether the open file `f` is still the file named `path`.
fn still_named(f: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        // Windows does not remove a file that is open without
        // FILE_SHARE_DELETE, so the name cannot have moved on.
        let _ = f;
        path.exists()
    }
}

/// Overwrite the recorded format version (for tests of newer-format files).
#[doc(hidden)]
pub fn set_format_version_for_tests(store: &Store, v: u64) -> Result<()> {
    let c = store.conn()?;
    store.guard(|| {
        c.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'format'",
            params![v as i64],
        )?;
        Ok(())
    })
}

#[cfg(test)]
mod lock_tests {
    use super::*;

    /// Not a test by itself: the child process of
    /// `a_lock_dies_with_its_holder` (run with the lock file's path in
    /// `PARTIZAN_TEST_HOLD_LOCK`), which takes the lock and sleeps until
    /// it is killed.
    #[test]
    #[ignore = "the child half of a_lock_dies_with_its_holder; run by it"]
    fn hold_lock_until_killed() {
        if let Some(path) = std::env::var_os("PARTIZAN_TEST_HOLD_LOCK") {
            let path = PathBuf::from(path);
            let _held = take_lock(&path, &path, Duration::from_secs(5)).unwrap();
            std::thread::sleep(Duration::from_secs(60));
        }
    }

    fn holder_pid(lock: &Path) -> Option<u32> {
        fs::read_to_string(lock).ok()?.trim().parse().ok()
    }

    #[test]
    fn a_lock_dies_with_its_holder() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("s.sqlite.migrating");
        let store = dir.path().join("s.sqlite");
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "db::lock_tests::hold_lock_until_killed",
                "--ignored",
                "--quiet",
            ])
            .env("PARTIZAN_TEST_HOLD_LOCK", &lock)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while holder_pid(&lock) != Some(child.id()) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the child never took the lock"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        // A live holder is respected.
        let e = take_lock(&lock, &store, Duration::from_millis(300)).unwrap_err();
        assert!(matches!(e, StoreError::InUse { .. }), "{e}");
        // Killed, it leaves its lock file behind, which is taken over at once.
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(lock.exists());
        let t = Instant::now();
        let _held = take_lock(&lock, &store, Duration::from_secs(10)).unwrap();
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert_eq!(holder_pid(&lock), Some(std::process::id()));
    }

    #[test]
    fn an_old_lock_of_a_live_holder_is_respected() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("s.sqlite.migrating");
        let store = dir.path().join("s.sqlite");
        let held = take_lock(&lock, &store, Duration::from_secs(1)).unwrap();
        // A migration that has run for ten minutes is still not stale.
        let old = std::time::SystemTime::now() - Duration::from_secs(600);
        held.set_modified(old).unwrap();
        let e = take_lock(&lock, &store, Duration::from_millis(200)).unwrap_err();
        assert!(matches!(e, StoreError::InUse { .. }), "{e}");
        // Released (file removed first, as the migration does), it is free.
        fs::remove_file(&lock).unwrap();
        drop(held);
        let _again = take_lock(&lock, &store, Duration::from_secs(1)).unwrap();
    }

    #[test]
    fn a_fresh_lock_file_nobody_holds_is_taken_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("s.sqlite.migrating");
        let store = dir.path().join("s.sqlite");
        fs::write(&lock, b"12345\n").unwrap();
        let t = Instant::now();
        let _held = take_lock(&lock, &store, Duration::from_secs(5)).unwrap();
        assert!(t.elapsed() < Duration::from_secs(1));
    }
}
