//! partizan-store: the persistent table of region values.
//!
//! A memo table dies with its search; a table of *region* values is the
//! accumulated output of every search anyone has run, and decomposition
//! guarantees each entry is asked for again. This crate keeps that table on
//! disk so every run starts where the last one stopped.
//!
//! ```text
//!   Solver ─get/put─▶ Session ─batches of 4096─▶ Store (one SQLite file, WAL mode)
//!                                                  meta      format version, created by/at
//!                                                  regions   (ruleset, key) → record‖crc64
//!                                                  census    parameters → JSON‖crc64
//!                                                  runs      last 32 runs' hits / lookups
//! ```
//!
//! # Why SQLite in WAL mode
//!
//! Several processes (a `partizan serve` and a script of `partizan value`
//! runs) read and add to one store at once: WAL readers never wait for a
//! writer and always see whole committed batches; writers take turns on
//! short transactions; a killed process loses at most its uncommitted
//! batch. Format v1 was a redb file (one process at a time); it is migrated
//! forward on open ([`Store::migration`]).
//!
//! # What a read promises
//!
//! Every row is sealed with a CRC-64 over its ruleset, key and record
//! ([`checksum`]), checked on every read, and its value must be the one
//! canonical encoding; anything else — and any imported value not yet
//! recomputed ([`Provenance::Unverified`]) — is a reported miss, never a
//! value. Imports are bounded and recomputed where small ([`export`]).
//!
//! # Where it lives
//!
//! `--store PATH`, else `PARTIZAN_STORE`, else
//! `$XDG_DATA_HOME/partizan/store.redb` (`~/.local/share/partizan/store.redb`);
//! `--no-store` runs without one. See [`path`].
//!
//! # Encodings (all versioned, all pinned by golden tests)
//!
//! * **Store format** ([`FORMAT_VERSION`] = 3) in the `meta` table. A file
//!   of a newer format is refused: "store format v4 is newer than this
//!   build's v3". Every row is sealed by a MAC under the user's key
//!   ([`checksum`]); a v1 or v2 file is carried forward on open, its
//!   values checked again rather than believed ([`migrate`]).
//! * **Region key** ([`keys`], v1): version byte, width, height, then each of
//!   the three layers as ⌈w·h/8⌉ little-endian bytes; the key is the region
//!   *after* symmetry folding, as the solver hands it over.
//! * **Record** ([`record`], v2): version byte, provenance, unix seconds,
//!   the partizan version that computed it, then the value encoding.
//! * **Value** ([`encoding`], v2): core's [`partizan_core::serial`] encoding
//!   (v1, the store's own DAG format, is read by [`v1`] for migration).
//! * **Export** ([`export`]): JSON Lines, a header then one object per entry.
//!
//! # Use
//!
//! ```no_run
//! use partizan_core::Arena;
//! use partizan_games::{Domineering, Ruleset};
//! use partizan_solve::{Savings, Solver};
//! use partizan_store::Store;
//!
//! let store = Store::open("store.redb".as_ref())?;
//! let mut session = store.session();
//! let mut arena = Arena::new();
//! let board = Domineering.parse("....|....|....").unwrap();
//! let stats = {
//!     let mut solver = Solver::new(&Domineering, Savings::ALL)
//!         .unwrap()
//!         .with_table(&mut session);
//!     solver.value(&mut arena, &board).unwrap();
//!     solver.stats()
//! };
//! if let Some(w) = session.warning() {
//!     eprintln!("warning: {w}"); // a damaged or unverified row was computed instead
//! }
//! let done = session.finish()?; // writes the last batch, records the run
//! println!("{} from the store, {} added", stats.store_hits, done.written);
//! # Ok::<(), partizan_store::StoreError>(())
//! ```

#![warn(missing_docs)]

pub mod checksum;
mod db;
pub mod encoding;
pub mod error;
pub mod export;
pub mod keys;
mod migrate;
pub mod outcomes;
pub mod path;
mod quiet;
pub mod record;
pub mod rules;
mod session;
pub mod v1;
pub mod verify;
pub mod warm;

pub use db::{
    set_format_version_for_tests, Migration, RawEntry, RegionRead, RunRecord, Store, StoreOptions,
    StoreStats, WriteReport, DEFAULT_MAX_BYTES, FORMAT_VERSION, RUNS_KEPT,
};
pub use encoding::{decode_value, encode_value, Translator, VALUE_ENCODING_VERSION};
pub use error::StoreError;
pub use export::{export_jsonl, import_jsonl, ExportReport, ImportReport};
pub use keys::{decode_board, encode_board, KEY_ENCODING_VERSION};
pub use outcomes::{search_outcome, OutcomeRead, Searched, StoredOutcome, OUTCOME_VERSION};
pub use path::{default_store_path, resolve_store_path, StoreChoice, STORE_ENV};
pub use record::{Provenance, Record, PARTIZAN_VERSION, RECORD_VERSION};
pub use session::{Session, SessionStats, DEFAULT_BATCH};
pub use verify::{promote_verified, verify, verify_with_progress, VerifyOptions, VerifyReport};
pub use warm::{warm, WarmReport};

/// A size in the binary units `partizan store limit SIZE` parses (a K is
/// 1024 bytes, an M 1024 K), so a printed limit can be typed back: `2 GiB`,
/// `1.5 MiB`, `512 B`. Whole numbers of a unit print without a fraction,
/// others with one decimal (within 5% of the size).
#[must_use]
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = n as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else if x.fract() == 0.0 {
        format!("{x:.0} {}", UNITS[u])
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}

    #[test]
    fn handles_cross_threads() {
        // A server shares one Store between threads; a session can move to a worker.
        send_sync::<super::Store>();
        send::<super::Session>();
    }
}
