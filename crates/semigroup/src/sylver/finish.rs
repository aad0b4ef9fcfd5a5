//! The finishing search: plays every line to the end, skipping struck moves.
//!
//! Memoised on positions, it asks one question of each position (is it won
//! for the player to move?), tries moves in the given [`Order`], stops at
//! the first winning move and never tries a move the pairing test strikes.
//! It is charged one closure for every move it examines (struck ones
//! included: the closure is what the test looks at), and a memo hit on the
//! position a move reaches is still a move examined.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::semigroup::Semigroup;

use super::pairing::is_struck;
use super::{Order, SearchCounts, StopFlag};

/// A memoised search for the outcome of Sylver Coinage positions.
#[derive(Clone, Debug)]
pub struct FinishingSearch {
    order: Order,
    /// Position -> first winning move in `order`, or 0 when lost.
    memo: FxHashMap<u128, u8>,
    closures: u64,
    /// Raised from outside to abandon the search (see [`FinishingSearch::with_stop`]).
    stop: StopFlag,
}

impl FinishingSearch {
    /// The search abandons its work once `stop` is raised: from then on its
    /// answers are meaningless and the caller must discard them (and the
    /// search), as [`FinishingSearch::stopped`] tells.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> FinishingSearch {
        self.stop = StopFlag::new(stop);
        self
    }

    /// Whether the stop flag was raised (answers since are meaningless).
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.raised()
    }

    /// A search with an empty table, trying moves in `order`.
    #[must_use]
    pub fn new(order: Order) -> FinishingSearch {
        FinishingSearch {
            order,
            memo: FxHashMap::default(),
            closures: 0,
            stop: StopFlag::default(),
        }
    }

    /// Whether `s` is won for the player to move.
    pub fn wins(&mut self, s: Semigroup) -> bool {
        self.winning_move(s).is_some()
    }

    /// The first winning move of `s` in the search's order (a survivor
    /// leading to a lost position), or `None` if `s` is lost.
    pub fn winning_move(&mut self, s: Semigroup) -> Option<u32> {
        let found = self.solve(s);
        (found != 0).then_some(u32::from(found))
    }

    fn solve(&mut self, s: Semigroup) -> u8 {
        if let Some(&known) = self.memo.get(&s.gap_mask()) {
            return known;
        }
        let mut found = 0u8;
        if self.stopped() {
            return found;
        }
        for x in self.order.moves(s) {
            self.closures += 1;
            let t = s.adjoin(x);
            if is_struck(t) {
                continue;
            }
            if self.solve(t) == 0 {
                found = x as u8;
                break;
            }
        }
        self.memo.insert(s.gap_mask(), found);
        found
    }

    /// Whether `s` is already in the table, and if so its verdict.
    #[must_use]
    pub fn known(&self, s: Semigroup) -> Option<bool> {
        self.memo.get(&s.gap_mask()).map(|&m| m != 0)
    }

    /// What the search has done since it was created.
    #[must_use]
    pub fn counts(&self) -> SearchCounts {
        SearchCounts {
            closures: self.closures,
            positions: self.memo.len() as u64,
            evaluations: self.memo.len() as u64,
        }
    }

    /// The move order.
    #[must_use]
    pub fn order(&self) -> Order {
        self.order
    }
}
