//! Who wins, by win/loss search: normal play (the player who cannot move
//! loses) or misère play (the player who cannot move wins).
//!
//! This is the plain memoised search (an unbounded table keyed by region
//! multisets); the large-board solver with a bounded table, move ordering,
//! move-bound cutoffs, symmetry and two threads is [`crate::search`], and
//! this module (with [`wins_plain`]) is its brute-force twin.
//!
//! Regions are still found and still shrink the search: a position is keyed
//! by the multiset of its regions' keys folded over the ruleset's
//! value-preserving symmetries, so positions made of the same regions in
//! different places are one entry.
//!
//! Under normal play a position whose regions are all small is answered from
//! the sum of their exact values (a [`Solver`] underneath), which is what
//! makes boards such as 3 x 8 Clobber reachable. Under misère play region
//! values do not add, so nothing is ever summed: the search runs to the end.

use partizan_core::{Arena, GameId, Outcome};
use partizan_games::{Bits, Board, Player, Ruleset};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::regions::{region_board, regions};
use crate::value::{SolveError, Solver};

/// The play convention (the certificate format's, shared).
pub use partizan_check::Convention;

/// Who wins a position moving first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcomes {
    /// Left wins moving first.
    pub left_first: bool,
    /// Right wins moving first.
    pub right_first: bool,
}

impl Outcomes {
    /// The outcome class, as the value engine names it: who wins with
    /// each player moving first, read as one of L, R, N, P.
    pub fn outcome(&self) -> Outcome {
        match (self.left_first, self.right_first) {
            (true, true) => Outcome::N,
            (false, false) => Outcome::P,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
        }
    }

    /// The outcome class letter: L, R, N (first player) or P (second).
    pub fn class(&self) -> &'static str {
        match self.outcome() {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::L => "L",
            Outcome::R => "R",
        }
    }
}

impl From<Outcomes> for Outcome {
    fn from(o: Outcomes) -> Outcome {
        o.outcome()
    }
}

/// Counts of an outcome search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OutcomeStats {
    /// Positions examined (including table hits).
    pub nodes: u64,
    /// Distinct (position, mover) entries searched.
    pub distinct: u64,
    /// Table hits.
    pub hits: u64,
    /// Positions answered from the sum of exact region values.
    pub by_value: u64,
}

/// A memoised outcome search for one ruleset.
pub struct OutcomeSolver<'r, R: Ruleset> {
    rules: &'r R,
    convention: Convention,
    /// Positions of at most this many cells in every region are answered by
    /// exact values (normal play only; 0 turns it off).
    value_cells: u32,
    memo: FxHashMap<(Vec<Board>, GameId, bool), bool>,
    stats: OutcomeStats,
    values: Solver<'r, R>,
    arena: Arena,
}

impl<'r, R: Ruleset> OutcomeSolver<'r, R> {
    /// A new search under `convention`, answering normal-play positions
    /// whose regions have at most 12 cells from their exact values.
    pub fn new(rules: &'r R, convention: Convention) -> Self {
        OutcomeSolver {
            rules,
            convention,
            value_cells: if convention == Convention::Normal {
                12
            } else {
                0
            },
            memo: FxHashMap::default(),
            stats: OutcomeStats::default(),
            values: Solver::new(rules, crate::value::Savings::ALL)
                .expect("every-node decomposition is valid for every ruleset"),
            arena: Arena::new(),
        }
    }

    /// Answer from exact values only positions whose regions all have at
    /// most `cells` cells (0: never; ignored under misère play).
    pub fn with_value_cells(mut self, cells: u32) -> Self {
        if self.convention == Convention::Normal {
            self.value_cells = cells;
        }
        self
    }

    /// The counts so far.
    pub fn stats(&self) -> OutcomeStats {
        self.stats
    }

    /// Who wins `board` moving first, for each player.
    pub fn outcome(&mut self, board: &Board) -> Result<Outcomes, SolveError> {
        Ok(Outcomes {
            left_first: self.wins(board, Player::Left)?,
            right_first: self.wins(board, Player::Right)?,
        })
    }

    /// The regions of `board` as a sorted multiset of keys folded over the
    /// ruleset's value-preserving symmetries only (a player-swapping symmetry
    /// of one region is not a symmetry of the whole).
    fn key(&self, board: &Board) -> Vec<Board> {
        let mut keys: Vec<Board> = regions(self.rules, board)
            .into_iter()
            .map(|m| region_board(board, m))
            // A region where neither player can move plays no part under
            // either convention: play ends when no region has a move.
            .filter(|b| has_move(self.rules, b))
            .map(|b| {
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

    /// Split `board` into the regions searched by play (more than
    /// `value_cells` cells) and the sum of the exact values of the rest.
    fn normalise(
        &mut self,
        board: &Board,
        mut tail: GameId,
    ) -> Result<(Board, GameId), SolveError> {
        if self.value_cells == 0 {
            return Ok((*board, tail));
        }
        let mut big: Bits = 0;
        for m in regions(self.rules, board) {
            if m.count_ones() > self.value_cells {
                big |= m;
            } else {
                let g = self
                    .values
                    .value(&mut self.arena, &region_board(board, m))?;
                tail = self.arena.sum(tail, g)?;
            }
        }
        Ok((board.restrict(big), tail))
    }

    /// Does `mover` win `board` moving first?
    pub fn wins(&mut self, board: &Board, mover: Player) -> Result<bool, SolveError> {
        let zero = self.arena.zero();
        let (big, tail) = self.normalise(board, zero)?;
        self.wins_state(&big, tail, mover)
    }

    /// Does `mover` win the sum of the searched regions `big` and the exact
    /// value `tail`, moving first?
    fn wins_state(&mut self, big: &Board, tail: GameId, mover: Player) -> Result<bool, SolveError> {
        self.stats.nodes += 1;
        let left = mover == Player::Left;
        let key = self.key(big);
        if key.is_empty() && self.convention == Convention::Misere {
            // Nothing left to move in (under misère the tail is always 0):
            // the mover cannot move, and so wins.
            return Ok(true);
        }
        if key.is_empty() {
            self.stats.by_value += 1;
            return Ok(match self.arena.outcome(tail) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => left,
                Outcome::R => !left,
            });
        }
        if let Some(&w) = self.memo.get(&(key.clone(), tail, left)) {
            self.stats.hits += 1;
            return Ok(w);
        }
        let other = match mover {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        };
        let mut options = Vec::new();
        self.rules.options(big, mover, |o| options.push(o));
        let tail_options: Vec<GameId> = if left {
            self.arena.left_options(tail).to_vec()
        } else {
            self.arena.right_options(tail).to_vec()
        };
        let mut win = false;
        if options.is_empty() && tail_options.is_empty() {
            win = self.convention == Convention::Misere;
        } else {
            for o in &options {
                let (nb, nt) = self.normalise(o, tail)?;
                if !self.wins_state(&nb, nt, other)? {
                    win = true;
                    break;
                }
            }
            if !win {
                for t in tail_options {
                    if !self.wins_state(big, t, other)? {
                        win = true;
                        break;
                    }
                }
            }
        }
        self.stats.distinct += 1;
        self.memo.insert((key, tail, left), win);
        Ok(win)
    }
}

/// Does either player have a move in `b`?
fn has_move<R: Ruleset>(rules: &R, b: &Board) -> bool {
    let mut any = false;
    for p in [Player::Left, Player::Right] {
        if !any {
            rules.options(b, p, |_| any = true);
        }
    }
    any
}

/// The plain, keyless twin: who wins by exhaustive search on whole
/// positions, with a table keyed by the board itself.
pub fn wins_plain<R: Ruleset>(
    rules: &R,
    convention: Convention,
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
    let win = if options.is_empty() {
        convention == Convention::Misere
    } else {
        options
            .iter()
            .any(|o| !wins_plain(rules, convention, o, other, memo))
    };
    memo.insert(k, win);
    win
}
