//! The look every outcome engine takes now and then (every
//! [`CHECK_EVERY`](super::CHECK_EVERY) nodes) at the caller's stop flag,
//! the node budget, a sibling thread's win and the clock, and the progress
//! report it sends when one is due. The general engine and Domineering's
//! own search share it, so a budget or a stop means the same in both.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use partizan_games::Player;

use super::table::{Table, Tally};
use super::{Control, Progress, SearchError};

/// What the threads of one search share for the check: borrowed from the
/// engine's own shared state, so each engine keeps its layout.
pub(crate) struct Budget<'a> {
    /// The caller's stop flag and progress callback.
    pub control: &'a Control<'a>,
    /// The table (its counts are flushed, its fill reported); `None` for a
    /// search that keeps a memo of its own (its fill is
    /// [`Searcher::fill`]).
    pub table: Option<&'a Table>,
    /// Nodes searched by every thread, flushed here.
    pub nodes: &'a AtomicU64,
    /// When the search started.
    pub start: Instant,
    /// Milliseconds since the start of the last progress report.
    pub last_report: &'a AtomicU64,
    /// Stop with [`SearchError::Budget`] at this many nodes.
    pub max_nodes: Option<u64>,
}

/// One thread's side of the check.
pub(crate) struct Searcher<'a> {
    /// Nodes not yet added to the shared count (cleared here).
    pub unflushed: &'a mut u64,
    /// Table counts not yet added to the table's (cleared here).
    pub tally: &'a mut Tally,
    /// Raised by the other thread of a split root when it found the win.
    pub found: Option<&'a AtomicBool>,
    /// The first player this thread searches for.
    pub first: Player,
    /// The current line's first plies: (rank of the move tried, options).
    pub line: &'a [(u16, u16)],
    /// Entries in use and capacity of the thread's own memo, reported when
    /// the budget has no table.
    pub fill: (u64, u64),
}

impl Budget<'_> {
    /// Flush the thread's counts, then stop ([`SearchError::Stopped`],
    /// [`SearchError::Sibling`], [`SearchError::Budget`]) or report
    /// progress when one is due.
    pub(crate) fn check(&self, s: Searcher<'_>) -> Result<(), SearchError> {
        let total = self.nodes.fetch_add(*s.unflushed, Relaxed) + *s.unflushed;
        *s.unflushed = 0;
        if let Some(t) = self.table {
            t.add(s.tally);
        }
        let ctl = self.control;
        if ctl.stop.is_some_and(|stop| stop.load(Relaxed)) {
            return Err(SearchError::Stopped { nodes: total });
        }
        if s.found.is_some_and(|found| found.load(Relaxed)) {
            return Err(SearchError::Sibling);
        }
        if let Some(max) = self.max_nodes {
            if total >= max {
                return Err(SearchError::Budget(max));
            }
        }
        if let Some(f) = ctl.progress {
            let elapsed = self.start.elapsed();
            let ms = elapsed.as_millis() as u64;
            let last = self.last_report.load(Relaxed);
            if ms >= last + ctl.interval.as_millis() as u64
                && self
                    .last_report
                    .compare_exchange(last, ms, Relaxed, Relaxed)
                    .is_ok()
            {
                let (filled, capacity) = self
                    .table
                    .map_or(s.fill, |t| (t.stats().filled, t.stats().capacity));
                f(&Progress {
                    nodes: total,
                    nodes_per_sec: total as f64 / elapsed.as_secs_f64().max(1e-9),
                    table_filled: filled,
                    table_capacity: capacity,
                    elapsed_ms: ms,
                    left_first: s.first == Player::Left,
                    line: s.line.to_vec(),
                });
            }
        }
        Ok(())
    }
}
