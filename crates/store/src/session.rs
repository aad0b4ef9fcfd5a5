//! A solver's window on the store: read-through lookups, buffered writes.
//!
//! ```text
//!   Solver ──get──▶ Session ──▶ pending batch ──▶ the file (checksum checked)
//!          ──put──▶ Session ──▶ pending batch ══flush every 4096══▶ write transaction
//! ```
//!
//! A batch is written in one transaction, so a crash loses at most the
//! values not yet flushed and never leaves half an entry. A row whose
//! checksum fails, or that does not decode to the one canonical encoding of
//! a value, or an imported value not yet verified, is a *miss*: the solver
//! computes the value, and the write replaces the bad row. Such misses are
//! counted in [`SessionStats`] and described once by [`Session::warning`].
//!
//! A store at its size limit ([`Store::size_limit`]) is still read, but the
//! session keeps no more values: they are counted as `not_saved`, and the
//! warning says so.

use std::collections::BTreeMap;

use partizan_core::{Arena, GameId};
use partizan_games::Board;
use partizan_solve::value::{RegionTable, SolveError};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::db::{check_ruleset, read_region_on, Conn, RegionRead, RunRecord, Store};
use crate::encoding::{decode_value, Translator};
use crate::error::{Result, StoreError};
use crate::keys::{encode_board, to_hex};
use crate::record::{unix_now, Record, PARTIZAN_VERSION};

/// Values buffered before a session writes them in one transaction.
pub const DEFAULT_BATCH: usize = 4096;

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
    /// Rows found damaged (checksum or encoding); treated as misses.
    pub checksum_failures: u64,
    /// Imported, not yet verified rows met; treated as misses.
    pub unverified: u64,
    /// Lookups the engine could not complete (a damaged page); treated as misses.
    pub read_errors: u64,
    /// Damaged or unverified rows replaced by computed values.
    pub replaced: u64,
    /// New values not saved because the store reached its size limit
    /// ([`Store::size_limit`]).
    pub not_saved: u64,
}

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
    conn: Option<Conn>,
    translator: Translator,
    warning: Option<String>,
    stats: SessionStats,
    label: String,
    finished: bool,
    /// The store reached its size limit: values are no longer kept.
    full: bool,
    /// The store's size is to be checked before the next value is kept.
    check_due: bool,
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
            conn: None,
            translator: Translator::default(),
            warning: None,
            stats: SessionStats::default(),
            label: String::from("run"),
            finished: false,
            full: false,
            check_due: true,
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

    /// The first problem met (a damaged or unverified row, an engine
    /// error), in one line, for the caller to warn about once.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    fn note(&mut self, what: String) {
        if self.warning.is_none() {
            self.warning = Some(what);
        }
    }

    /// Whether the store has reached its size limit, so this session no
    /// longer adds values.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Check the store's size against its limit (before the first value is
    /// kept and after every batch written, so the file passes the limit by
    /// at most one batch); past it, stop keeping values and say so once.
    fn check_size(&mut self) -> Result<()> {
        if self.full {
            return Ok(());
        }
        let Some(limit) = self.store.size_limit()? else {
            return Ok(());
        };
        let size = self.store.file_bytes()?;
        if size < limit {
            return Ok(());
        }
        self.full = true;
        let what = format!(
            "store {} reached its size limit of {} ({} on disk); new values of this run are not saved (raise the limit with `partizan store limit SIZE`, or `partizan store limit none`)",
            self.store.path().display(),
            crate::human_bytes(limit),
            crate::human_bytes(size)
        );
        // The limit is the news a user must see, even after another warning.
        self.warning = Some(match self.warning.take() {
            None => what,
            Some(w) => format!("{what}; also: {w}"),
        });
        Ok(())
    }

    /// Look a folded region key up: the pending batch first, then the file.
    /// Anything that is not a trusted, intact, canonical value is a miss.
    pub fn lookup(
        &mut self,
        arena: &mut Arena,
        ruleset: &str,
        key: &Board,
    ) -> Result<Option<GameId>> {
        self.stats.lookups += 1;
        check_ruleset(ruleset)?;
        let k = encode_board(key);
        let body = match self.pending.get(ruleset).and_then(|m| m.get(&k)) {
            Some(v) => v.clone(),
            None => match self.read(ruleset, &k) {
                Ok(RegionRead::Found(b)) => b,
                Ok(RegionRead::Missing) => return Ok(None),
                Ok(RegionRead::Damaged) => {
                    self.damaged(ruleset, &k, "fails its checksum");
                    return Ok(None);
                }
                Err(e @ StoreError::Corrupt { .. }) => {
                    self.stats.read_errors += 1;
                    self.note(format!("{e}; values it cannot read are computed instead"));
                    // A fresh connection next time.
                    self.conn = None;
                    return Ok(None);
                }
                Err(e) => return Err(e),
            },
        };
        let rec = match Record::decode(&body) {
            Ok(r) => r,
            Err(_) => {
                self.damaged(ruleset, &k, "is not a readable record");
                return Ok(None);
            }
        };
        if !rec.provenance.trusted() {
            self.stats.unverified += 1;
            self.note(format!(
                "{ruleset} key {} is an imported value not yet verified; it was computed instead (run `partizan store verify`)",
                to_hex(&k)
            ));
            return Ok(None);
        }
        match decode_value(arena, rec.value) {
            Ok(v) => {
                self.stats.hits += 1;
                Ok(Some(v))
            }
            Err(_) => {
                self.damaged(ruleset, &k, "holds no canonical value");
                Ok(None)
            }
        }
    }

    fn damaged(&mut self, ruleset: &str, key: &[u8], how: &str) {
        self.stats.checksum_failures += 1;
        self.note(format!(
            "store {}: the record of {ruleset} key {} {how}; it was computed instead (run `partizan store verify`)",
            self.store.path().display(),
            to_hex(key)
        ));
    }

    fn read(&mut self, ruleset: &str, key: &[u8]) -> Result<RegionRead> {
        if self.conn.is_none() {
            self.conn = Some(self.store.conn()?);
        }
        let Some(c) = self.conn.as_ref() else {
            return Ok(RegionRead::Missing);
        };
        self.store.guard(|| read_region_on(c, ruleset, key))
    }

    /// Buffer a freshly computed value; writes the batch when it is full.
    pub fn record(
        &mut self,
        arena: &Arena,
        ruleset: &str,
        key: &Board,
        value: GameId,
    ) -> Result<()> {
        check_ruleset(ruleset)?;
        if self.check_due {
            // Once per batch (and before the first): is there room?
            self.check_due = false;
            if !self.store.is_read_only() {
                self.check_size()?;
            }
        }
        if self.full {
            self.stats.added += 1;
            self.stats.not_saved += 1;
            return Ok(());
        }
        let k = encode_board(key);
        let enc = self.translator.encode(arena, value)?;
        let rec = Record::computed(&enc).encode();
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
        if self.store.is_read_only() && pending_len == 0 {
            // Nothing to add, and a read-only store records no runs.
            return Ok(());
        }
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
            self.stats.replaced += report.replaced;
            self.stats.batches += 1;
            self.check_due = true;
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
