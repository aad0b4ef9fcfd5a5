//! Remoteness: the exact number of moves in which a position is won or lost.
//!
//! With perfect play the winner hurries and the loser delays: a position
//! with no moves (only the gap 1 left) has remoteness 0; a position with a
//! move to a position of even remoteness has remoteness one more than the
//! least such; otherwise one more than the largest remoteness of its
//! options. Remoteness is odd exactly for won positions. Naming 1 is not
//! counted as a move (it is the loser's concession), so a remoteness of `r`
//! means the player to move wins (odd) or loses (even) after `r` more
//! numbers have been named.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::semigroup::Semigroup;

use super::pairing::is_struck;
use super::{Order, SearchCounts, StopFlag};

/// A memoised remoteness calculator.
#[derive(Clone, Debug, Default)]
pub struct Remoteness {
    memo: FxHashMap<u128, u8>,
    closures: u64,
    /// Raised from outside to abandon the calculation.
    stop: StopFlag,
}

impl Remoteness {
    /// The calculator abandons its work once `stop` is raised: from then
    /// on its answers are meaningless and the caller must discard them, as
    /// [`Remoteness::stopped`] tells.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Remoteness {
        self.stop = StopFlag::new(stop);
        self
    }

    /// Whether the stop flag was raised (answers since are meaningless).
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.raised()
    }

    /// A calculator with an empty table.
    #[must_use]
    pub fn new() -> Remoteness {
        Remoteness::default()
    }

    /// The remoteness of `s` (odd when won for the player to move).
    pub fn remoteness(&mut self, s: Semigroup) -> u32 {
        u32::from(self.solve(s))
    }

    /// The remoteness of `s` and a move achieving it when `s` is won (the
    /// smallest such move), or `None` as the move when `s` is lost.
    pub fn best_move(&mut self, s: Semigroup) -> (u32, Option<u32>) {
        let r = self.solve(s);
        if r.is_multiple_of(2) {
            return (u32::from(r), None);
        }
        let mv = Order::Increasing.moves(s).find(|&x| {
            let t = s.adjoin(x);
            !is_struck(t) && self.solve(t) + 1 == r
        });
        (u32::from(r), mv)
    }

    fn solve(&mut self, s: Semigroup) -> u8 {
        if let Some(&r) = self.memo.get(&s.gap_mask()) {
            return r;
        }
        let mut best_win: Option<u8> = None;
        let mut longest_loss = 0u8;
        if self.stopped() {
            return 0;
        }
        for x in Order::Increasing.moves(s) {
            self.closures += 1;
            let r = self.solve(s.adjoin(x));
            if r.is_multiple_of(2) {
                best_win = Some(best_win.map_or(r, |b| b.min(r)));
            } else {
                longest_loss = longest_loss.max(r);
            }
        }
        let r = match best_win {
            Some(r) => r + 1,
            None if Order::Increasing.moves(s).is_empty() => 0,
            None => longest_loss + 1,
        };
        self.memo.insert(s.gap_mask(), r);
        r
    }

    /// What the calculator has done.
    #[must_use]
    pub fn counts(&self) -> SearchCounts {
        SearchCounts {
            closures: self.closures,
            positions: self.memo.len() as u64,
            evaluations: self.memo.len() as u64,
        }
    }
}
