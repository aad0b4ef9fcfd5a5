//! The store's error type: one enum, every message on one line, naming the
//! file and what to do about it.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// Everything that can go wrong opening, reading or writing a store.
///
/// Every variant displays on a single line. A store that cannot be opened is
/// never replaced: the messages say how to start afresh by hand.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Another process kept the store locked for longer than the wait (a
    /// migration, or a writer's transaction that did not end in time).
    #[error("store {path} is busy (another partizan process held it longer than the wait); retry, or use --no-store")]
    InUse {
        /// The store file.
        path: PathBuf,
    },
    /// There is no store at the path and the caller asked not to create one.
    #[error("no store at {path} yet (the first run that uses a store creates it)")]
    Missing {
        /// The store file.
        path: PathBuf,
    },
    /// The store path names a directory.
    #[error("store path {path} is a directory; give a file path (e.g. {path}/store.redb)")]
    IsDirectory {
        /// The offending path.
        path: PathBuf,
    },
    /// The file could not be opened, created or read.
    // The OS error is in the message, so it is not also a `source`: a
    // chain printer would show it twice.
    #[error("cannot {op} store {path}: {error}")]
    Io {
        /// What was being attempted ("open", "create", "create the folder of").
        op: &'static str,
        /// The store file.
        path: PathBuf,
        /// The operating system's reason.
        error: io::Error,
    },
    /// The file is a store but its contents are damaged (truncated, corrupted).
    #[error("store {path} is damaged ({detail}); it was left untouched: move it aside to start a new store")]
    Corrupt {
        /// The store file.
        path: PathBuf,
        /// What the database engine reported.
        detail: String,
    },
    /// The file exists but is not a partizan store at all.
    #[error("{path} is not a partizan store ({detail}); it was left untouched")]
    NotAStore {
        /// The file.
        path: PathBuf,
        /// Why it was rejected.
        detail: String,
    },
    /// The file was written by a newer build with a newer store format.
    #[error("store format v{found} is newer than this build's v{supported} ({path}); use a newer partizan")]
    NewerFormat {
        /// The store file.
        path: PathBuf,
        /// The format version recorded in the file.
        found: u64,
        /// The newest format this build reads.
        supported: u64,
    },
    /// The redb file format is older than this build's database engine reads.
    #[error("store {path} uses redb file format v{found}, which this build cannot open; export it with the partizan that wrote it")]
    EngineUpgradeRequired {
        /// The store file.
        path: PathBuf,
        /// The engine's file format version.
        found: u8,
    },
    /// A region key's bytes do not decode to a board.
    #[error("bad region key: {0}")]
    BadKey(String),
    /// A stored row's checksum does not hold: the row is damaged (it is
    /// never used as a value).
    #[error("{table} key {key}: the stored record fails its checksum (damaged); run `partizan store verify`")]
    Checksum {
        /// The ruleset (or `census`).
        table: String,
        /// The key, in hex (or the census key).
        key: String,
    },
    /// The store was opened read-only and a write was asked for.
    #[error("store {path} was opened read-only; this command does not write to it")]
    ReadOnly {
        /// The store file.
        path: PathBuf,
    },
    /// An engine error not yet tied to a file (the store layer turns these
    /// into [`StoreError::Corrupt`], [`StoreError::InUse`], [`StoreError::Io`]
    /// or [`StoreError::Db`] before they leave the crate).
    #[error("store database error: {0}")]
    Engine(#[from] rusqlite::Error),
    /// A stored value's bytes do not decode to a game.
    #[error("bad stored value: {0}")]
    BadValue(String),
    /// A ruleset name that cannot name a table.
    #[error("invalid ruleset name '{0}' (expected lower-case letters, digits, '-' or '_')")]
    BadRuleset(String),
    /// A line of an import file is malformed.
    #[error("import line {line}: {detail}")]
    Import {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        detail: String,
    },
    /// No store location could be worked out.
    #[error("no store location: set PARTIZAN_STORE, XDG_DATA_HOME or HOME, or pass --store PATH")]
    NoLocation,
    /// An error from the database engine during a transaction.
    #[error("store database error: {0}")]
    Db(String),
    /// The solver failed while verifying or warming.
    #[error("solver: {0}")]
    Solve(String),
    /// An I/O error on an export or import stream (its kind tells a closed
    /// pipe from a full disk).
    #[error("{0}")]
    Stream(io::Error),
}

impl StoreError {
    /// A database-engine error, flattened to one line.
    pub(crate) fn db(e: impl std::fmt::Display) -> StoreError {
        StoreError::Db(one_line(&e.to_string()))
    }
}

/// Replace line breaks so a message stays on one line.
pub(crate) fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

macro_rules! db_errors {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> StoreError {
                StoreError::db(e)
            }
        }
    )*};
}

db_errors!(
    redb::Error,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);

/// Shorthand for results of this crate.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
