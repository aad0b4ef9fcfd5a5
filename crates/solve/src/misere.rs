//! Outcomes under misère play (the player who cannot move wins).
//!
//! Regions are still found and still shrink the search: a position is keyed
//! by the multiset of its regions' folded keys, so two positions made of the
//! same regions in different places are one entry. What misère play forbids
//! is the step after: region *values* do not add, so this module never sums
//! anything. It answers who wins, by search.

use partizan_games::{Board, Player, Ruleset};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::regions::{region_board, regions};

/// Who wins a position under misère play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MisereOutcome {
    /// Left wins moving first.
    pub left_first: bool,
    /// Right wins moving first.
    pub right_first: bool,
}

impl MisereOutcome {
    /// The outcome class letter: L, R, N (first player) or P (second).
    pub fn class(&self) -> &'static str {
        match (self.left_first, self.right_first) {
            (true, true) => "N",
            (false, false) => "P",
            (true, false) => "L",
            (false, true) => "R",
        }
    }
}

/// Counts of a misère search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MisereStats {
    /// Positions examined (including table hits).
    pub nodes: u64,
    /// Distinct (position, mover) entries searched.
    pub distinct: u64,
    /// Table hits.
    pub hits: u64,
}

/// A memoised misère outcome search for one ruleset.
pub struct MisereSolver<'r, R: Ruleset> {
    rules: &'r R,
    memo: FxHashMap<(Vec<Board>, bool), bool>,
    stats: MisereStats,
}

impl<'r, R: Ruleset> MisereSolver<'r, R> {
    /// A new solver with an empty table.
    pub fn new(rules: &'r R) -> Self {
        MisereSolver {
            rules,
            memo: FxHashMap::default(),
            stats: MisereStats::default(),
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> MisereStats {
        self.stats
    }

    /// The misère outcome of `board`.
    pub fn outcome(&mut self, board: &Board) -> MisereOutcome {
        MisereOutcome {
            left_first: self.wins(board, Player::Left),
            right_first: self.wins(board, Player::Right),
        }
    }

    /// The regions of `board` as a sorted multiset of keys folded over the
    /// ruleset's value-preserving symmetries only (a player-swapping symmetry
    /// of one region is not a symmetry of the whole).
    fn key(&self, board: &Board) -> Vec<Board> {
        let mut keys: Vec<Board> = regions(self.rules, board)
            .into_iter()
            .map(|m| {
                let b = region_board(board, m);
                self.rules
                    .symmetries()
                    .iter()
                    .filter(|s| !s.negates)
                    .map(|s| self.rules.apply(&b, *s).crop())
                    .min()
                    .unwrap_or(b)
            })
            .collect();
        keys.sort_unstable();
        keys
    }

    /// Does `mover` win `board` moving first, under misère play?
    pub fn wins(&mut self, board: &Board, mover: Player) -> bool {
        self.stats.nodes += 1;
        let k = (self.key(board), mover == Player::Left);
        if let Some(&w) = self.memo.get(&k) {
            self.stats.hits += 1;
            return w;
        }
        let other = match mover {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        };
        let mut options = Vec::new();
        self.rules.options(board, mover, |o| options.push(o));
        // No move: the mover wins under misère play.
        let win = options.is_empty() || options.iter().any(|o| !self.wins(o, other));
        self.stats.distinct += 1;
        self.memo.insert(k, win);
        win
    }
}

/// The plain, keyless twin: misère outcome by exhaustive search on whole
/// positions with a table keyed by the board itself.
pub fn misere_wins_plain<R: Ruleset>(
    rules: &R,
    board: &Board,
    mover: Player,
    memo: &mut FxHashMap<(Board, bool), bool>,
) -> bool {
    let k = (*board, mover == Player::Left);
    if let Some(&w) = memo.get(&k) {
        return w;
    }
    let other = match mover {
        Player::Left => Player::Right,
        Player::Right => Player::Left,
    };
    let mut options = Vec::new();
    rules.options(board, mover, |o| options.push(o));
    let win = options.is_empty()
        || options
            .iter()
            .any(|o| !misere_wins_plain(rules, o, other, memo));
    memo.insert(k, win);
    win
}
