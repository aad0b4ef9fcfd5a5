//! A solver's window on the store: read-through lookups, buffered writes.
//!
//! ```text
//!   Solver ──get──▶ Session ──▶ pending batch ──▶ read snapshot (MVCC)
//!          ──put──▶ Session ──▶ pending batch ══flush every 4096══▶ write transaction
//! ```
//!
//! A batch is written in one transaction, so a crash loses at most the
//! values not yet flushed and never leaves half an entry.

use std::collections::BTreeMap;
use std::time::Instant;

use partizan_core::{Arena, GameId};
use partizan_games::Board;
use partizan_solve::value::{RegionTable, SolveError};
use redb::{ReadOnlyTable, TableError};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::db::{region_table_name, RegionTableDef, RunRecord, Store};
use crate::encoding::{decode_value, encode_value};
use crate::error::{Result, StoreError};
use crate::keys::{encode_board, to_hex};
use crate::record::{unix_now, Record, PARTIZAN_VERSION};

/// Values buffered before a session writes them in one transaction.
pub const DEFAULT_BATCH: usize = 4096;

/// How often (in lookups) a session checks whether its read snapshot is
/// older than a second and should be renewed to see other writers' values.
const SNAPSHOT_CHECK: u64 = 1024;

/// What a session did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SessionStats {
    /// Lookups made.
    pub lookups: u64,
    /// Lookups answered by the store (or by values this session added).
    pub hits: u64,
    /// New values handed to the session.
    pub added: u64,
    /// Values written to the file (new to it).
    pub written: u64,
    /// Values handed over that the file already held (another writer got there first).
    pub already_present: u64,
    /// Write transactions committed.
    pub batches: u64,
}

type ByteTable = ReadOnlyTable<&'static [u8], &'static [u8]>;

/// Reads through to, and writes in batches to, a [`Store`]. Implements the
/// solver's [`RegionTable`], so a solver attached to it consults the store
/// before searching a region and records every region it searches.
///
/// Call [`Session::finish`] to write the last batch and see any error; a
/// session dropped without it still writes, but cannot report failure.
pub struct Session {
    store: Store,
    batch: usize,
    /// ruleset -> key bytes -> record bytes, not yet written.
    pending: BTreeMap<String, FxHashMap<Vec<u8>, Vec<u8>>>,
    pending_len: usize,
    snapshot: FxHashMap<String, Option<ByteTable>>,
    snapshot_at: Instant,
    stats: SessionStats,
    label: String,
    finished: bool,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("store", &self.store)
            .field("pending", &self.pending_len)
            .field("stats", &self.stats)
            .finish()
    }
}

impl Store {
    /// A session on this store, writing every [`DEFAULT_BATCH`] new values.
    pub fn session(&self) -> Session {
        self.session_with_batch(DEFAULT_BATCH)
    }

    /// A session writing every `batch` new values (at least 1).
    pub fn session_with_batch(&self, batch: usize) -> Session {
        Session {
            store: self.clone(),
            batch: batch.max(1),
            pending: BTreeMap::new(),
            pending_len: 0,
            snapshot: FxHashMap::default(),
            snapshot_at: Instant::now(),
            stats: SessionStats::default(),
            label: String::from("run"),
            finished: false,
        }
    }
}

impl Session {
    /// The store this session works on.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// What the session did so far.
    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Name the run, as `stats` will list it (e.g. `"warm domineering 10"`).
    pub fn set_label(&mut self, label: impl Into<String>) {
        self.label = label.into();
    }

    /// Values waiting for the next write.
    pub fn pending(&self) -> usize {
        self.pending_len
    }

    /// Look a folded region key up: the pending batch first, then the file.
    pub fn lookup(
        &mut self,
        arena: &mut Arena,
        ruleset: &str,
        key: &Board,
    ) -> Result<Option<GameId>> {
        self.stats.lookups += 1;
        let k = encode_board(key);
        let found = self.lookup_bytes(ruleset, &k)?;
        match found {
            None => Ok(None),
            Some(rec) => {
                let bad = |e: StoreError| {
                    StoreError::BadValue(format!(
                        "{ruleset} key {}: {e}; run `partizan store verify`",
                        to_hex(&k)
                    ))
                };
                let r = Record::decode(&rec).map_err(bad)?;
                let v = decode_value(arena, r.value).map_err(bad)?;
                self.stats.hits += 1;
                Ok(Some(v))
            }
        }
    }

    fn lookup_bytes(&mut self, ruleset: &str, key: &[u8]) -> Result<Option<Vec<u8>>> {
        if let Some(v) = self.pending.get(ruleset).and_then(|m| m.get(key)) {
            return Ok(Some(v.clone()));
        }
        if self.stats.lookups.is_multiple_of(SNAPSHOT_CHECK)
            && self.snapshot_at.elapsed().as_secs() >= 1
        {
            self.snapshot.clear();
        }
        if !self.snapshot.contains_key(ruleset) {
            let name = region_table_name(ruleset)?;
            let table = self.store.guard(|| {
                let tx = self.store.db().begin_read()?;
                match tx.open_table(RegionTableDef::new(&name)) {
                    Ok(t) => Ok(Some(t)),
                    Err(TableError::TableDoesNotExist(_)) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            })?;
            if self.snapshot.is_empty() {
                self.snapshot_at = Instant::now();
            }
            self.snapshot.insert(ruleset.to_string(), table);
        }
        let Some(Some(table)) = self.snapshot.get(ruleset) else {
            return Ok(None);
        };
        let store = &self.store;
        store.guard(|| Ok(table.get(key)?.map(|g| g.value().to_vec())))
    }

    /// Buffer a freshly computed value; writes the batch when it is full.
    pub fn record(
        &mut self,
        arena: &Arena,
        ruleset: &str,
        key: &Board,
        value: GameId,
    ) -> Result<()> {
        region_table_name(ruleset)?;
        let k = encode_board(key);
        let enc = encode_value(arena, value);
        let rec = Record {
            computed_at: unix_now(),
            version: PARTIZAN_VERSION,
            value: &enc,
        }
        .encode();
        self.insert_pending(ruleset, k, rec);
        if self.pending_len >= self.batch {
            self.flush()?;
        }
        Ok(())
    }

    fn insert_pending(&mut self, ruleset: &str, key: Vec<u8>, record: Vec<u8>) {
        let m = match self.pending.get_mut(ruleset) {
            Some(m) => m,
            None => self.pending.entry(ruleset.to_string()).or_default(),
        };
        if let std::collections::hash_map::Entry::Vacant(e) = m.entry(key) {
            e.insert(record);
            self.pending_len += 1;
            self.stats.added += 1;
        }
    }

    /// Write the pending values in one transaction.
    pub fn flush(&mut self) -> Result<()> {
        if self.pending_len == 0 {
            return Ok(());
        }
        self.write(false)
    }

    /// Write the pending values, and the run's record if `with_run`, in one
    /// transaction (so finishing a run costs one commit, not two).
    fn write(&mut self, with_run: bool) -> Result<()> {
        let pending_len = self.pending_len as u64;
        let mut run = self.run_record();
        let report = {
            let entries = self.pending.iter().flat_map(|(r, m)| {
                m.iter()
                    .map(move |(k, v)| (r.as_str(), k.as_slice(), v.as_slice()))
            });
            if let Some(r) = run.as_mut() {
                // The values of this very batch count as written.
                r.added += pending_len;
            }
            let run = if with_run { run.as_ref() } else { None };
            self.store.write_batch(entries, run)?
        };
        if pending_len > 0 {
            self.pending.clear();
            self.pending_len = 0;
            self.stats.written += report.added;
            self.stats.already_present += report.present;
            self.stats.batches += 1;
            // Renew the read snapshot so it sees the batch (and frees old pages).
            self.snapshot.clear();
        }
        Ok(())
    }

    /// Write the last batch and remember the run's counts in the store.
    pub fn finish(mut self) -> Result<SessionStats> {
        self.finished = true;
        self.write(true)?;
        Ok(self.stats)
    }

    /// The record of this run so far (`None` if it did nothing worth
    /// remembering); `added` counts values already written.
    fn run_record(&self) -> Option<RunRecord> {
        if self.stats.lookups == 0 && self.stats.added == 0 {
            return None;
        }
        Some(RunRecord {
            at: unix_now(),
            version: PARTIZAN_VERSION.to_string(),
            label: self.label.clone(),
            lookups: self.stats.lookups,
            hits: self.stats.hits,
            added: self.stats.written,
        })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if !self.finished {
            // Nowhere to report a failure here; `finish` is the checked path.
            let _ = self.write(true);
        }
    }
}

fn solve_err(e: StoreError) -> SolveError {
    SolveError::Store(e.to_string())
}

impl RegionTable for Session {
    fn get(
        &mut self,
        arena: &mut Arena,
        ruleset: &str,
        key: &Board,
    ) -> Result<Option<GameId>, SolveError> {
        self.lookup(arena, ruleset, key).map_err(solve_err)
    }

    fn put(
        &mut self,
        arena: &Arena,
        ruleset: &str,
        key: &Board,
        value: GameId,
    ) -> Result<(), SolveError> {
        self.record(arena, ruleset, key, value).map_err(solve_err)
    }
}
