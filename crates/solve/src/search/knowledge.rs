//! What a ruleset knows about itself that an outcome search can use:
//! a cheap count of each player's moves (for move ordering) and bounds on
//! how many moves each player can still make (for cutoffs).
//!
//! Every method has a conservative default, so a ruleset without special
//! knowledge searches correctly, only slower.

use partizan_games::{Amazons, Bits, Board, Clobber, Cram, Domineering, Konane, Player, Ruleset};

/// Bounds on the number of moves one player can make in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// Moves the player can make whatever both players do, if the player
    /// plays only these moves: pairwise disjoint and out of the opponent's
    /// reach ("safe" moves).
    pub safe: u32,
    /// At most this many moves can the player make under any play.
    pub max: u32,
}

/// Per-ruleset search knowledge (see the module comment).
pub trait Knowledge: Ruleset {
    /// The number of options `p` has in `b` (used to order moves). The
    /// default counts [`Ruleset::options`].
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let mut n = 0;
        self.options(b, p, |_| n += 1);
        n
    }

    /// Bounds on the moves `p` can make in `b` (see [`MoveBounds`]), or
    /// `None` when the ruleset knows none. Used under normal play only.
    fn move_bounds(&self, _b: &Board, _p: Player) -> Option<MoveBounds> {
        None
    }

    /// The default for [`SearchConfig::value_cells`](super::SearchConfig):
    /// regions up to this size are valued exactly (measured per ruleset:
    /// large enough to cut the search, small enough that valuing them
    /// costs less than searching them).
    fn default_value_cells(&self) -> u32 {
        12
    }

    /// The ruleset's own outcome search, if it has one for this board and
    /// configuration (`None`: the general engine runs). It must answer
    /// exactly what the general engine would (its twin tests say so).
    fn fast_solve(
        &self,
        _board: &Board,
        _config: &super::SearchConfig,
        _control: &super::Control<'_>,
    ) -> Option<Result<super::SearchReport, super::SearchError>> {
        None
    }

    /// How good `b` (just reached by a move of `mover`) looks for `mover`,
    /// for [`MoveOrdering::Safety`](super::MoveOrdering::Safety): fewer
    /// opponent's moves, more own safe moves and fewer of the opponent's.
    /// Only ordering depends on it, never an answer.
    fn safety_score(&self, b: &Board, mover: Player) -> i32 {
        let other = mover.opponent();
        let mut score = -(self.mobility(b, other) as i32);
        if let (Some(x), Some(y)) = (self.move_bounds(b, mover), self.move_bounds(b, other)) {
            score += x.safe as i32 - y.safe as i32;
        }
        score
    }
}

/// The most disjoint vertical pairs inside `d` (each vertical run of `k`
/// cells holds `k / 2`): every run gives up its top two cells (one, if it
/// has one) per round, all columns at once.
#[inline]
fn vertical_pairs_max(b: &Board, d: Bits) -> u32 {
    let w = b.width();
    if w == 0 || w >= 128 {
        return 0;
    }
    let mut x = d;
    let mut n = 0;
    while x != 0 {
        let starts = x & !(x << w);
        let pairs = starts & (x >> w);
        n += pairs.count_ones();
        x &= !(starts | (pairs << w));
    }
    n
}

/// The most disjoint horizontal pairs inside `d` (each horizontal run of
/// `k` cells holds `k / 2`), the same way along the rows.
#[inline]
fn horizontal_pairs_max(b: &Board, d: Bits) -> u32 {
    let has_west = b.not_first_col();
    let has_east = b.not_last_col();
    let mut x = d;
    let mut n = 0;
    while x != 0 {
        let starts = x & !((x & has_east) << 1);
        let pairs = starts & has_east & (x >> 1);
        n += pairs.count_ones();
        x &= !(starts | ((pairs << 1) & has_west));
    }
    n
}

/// The same packings one row (column) at a time: the twin of the two
/// above.
/// The other registered rulesets take the conservative defaults: no move
/// bounds, no cutoffs beyond the search's own (correct for any ruleset).
macro_rules! default_knowledge {
    ($($ty:ty),* $(,)?) => {
        $(impl Knowledge for $ty {})*
    };
}

default_knowledge!(
    partizan_games::ToadsAndFrogs,
    partizan_games::Snort,
    partizan_games::Col,
    partizan_games::TopplingDominoes,
    partizan_games::Fission,
    partizan_games::HackenbushStrings,
    partizan_games::NoGo,
    partizan_games::HackenbushGraph,
    partizan_games::SnortGraph,
    partizan_games::ColGraph,
    partizan_games::Elephants,
);

#[cfg(test)]
fn pairs_max_slow(b: &Board, d: Bits, vertical: bool) -> u32 {
    let (w, h) = (b.width(), b.height());
    let mut n = 0;
    let (outer, inner) = if vertical { (w, h) } else { (h, w) };
    for o in 0..outer {
        let mut run = 0;
        for i in 0..=inner {
            let cell = if vertical { (i, o) } else { (o, i) };
            let inside = i < inner && d & (1u128 << (cell.0 * w + cell.1)) != 0;
            if inside {
                run += 1;
            } else {
                n += run / 2;
                run = 0;
            }
        }
    }
    n
}

/// Empty cells with no empty east or west neighbour: no horizontal domino
/// can ever cover them (cells only fill up).
#[inline]
fn no_horizontal(b: &Board, e: Bits) -> Bits {
    let east = (e & b.not_first_col()) >> 1; // cells whose east neighbour is empty
    let west = (e & b.not_last_col()) << 1; // cells whose west neighbour is empty
    e & !east & !west
}

/// Empty cells with no empty north or south neighbour.
#[inline]
fn no_vertical(b: &Board, e: Bits) -> Bits {
    let w = b.width();
    if w == 0 || w >= 128 {
        return e;
    }
    let south = e >> w; // cells whose south neighbour is empty
    let north = (e << w) & b.full(); // cells whose north neighbour is empty
    e & !south & !north
}

/// Domineering: Left (vertical) mobility is the number of vertical empty
/// pairs. Left's safe moves are vertical dominoes on cells no horizontal
/// domino can ever reach, packed down each column; Left's maximum is the
/// vertical packing of the empty cells column by column (and the mirror
/// for Right).
impl Knowledge for Domineering {
    fn fast_solve(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
    ) -> Option<Result<super::SearchReport, super::SearchError>> {
        super::domineering::solve(board, config, control)
    }

    #[inline]
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let e = b.layer(0);
        let w = b.width();
        match p {
            Player::Left if w > 0 && w < 128 => (e & (e >> w)).count_ones(),
            Player::Left => 0,
            Player::Right => (e & (e >> 1) & b.not_last_col()).count_ones(),
        }
    }

    /// A cheap stand-in for the safe-move packings: the number of
    /// (possibly overlapping) safe pairs.
    #[inline]
    fn safety_score(&self, b: &Board, mover: Player) -> i32 {
        let e = b.layer(0);
        let w = b.width();
        if w == 0 || w >= 128 {
            return 0;
        }
        let v = no_horizontal(b, e);
        let h = no_vertical(b, e);
        let left_safe = (v & (v >> w)).count_ones() as i32;
        let right_safe = (h & (h >> 1) & b.not_last_col()).count_ones() as i32;
        match mover {
            Player::Left => left_safe - right_safe - self.mobility(b, Player::Right) as i32,
            Player::Right => right_safe - left_safe - self.mobility(b, Player::Left) as i32,
        }
    }

    #[inline]
    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        let e = b.layer(0);
        Some(match p {
            Player::Left => MoveBounds {
                safe: vertical_pairs_max(b, no_horizontal(b, e)),
                max: vertical_pairs_max(b, e),
            },
            Player::Right => MoveBounds {
                safe: horizontal_pairs_max(b, no_vertical(b, e)),
                max: horizontal_pairs_max(b, e),
            },
        })
    }
}

/// Cram: both players place dominoes either way. No safe moves are
/// claimed; the maximum is the better of the two one-orientation packings
/// plus nothing (a conservative bound: every domino covers two empty
/// cells, so at most half the empty cells).
impl Knowledge for Cram {
    fn move_bounds(&self, b: &Board, _p: Player) -> Option<MoveBounds> {
        Some(MoveBounds {
            safe: 0,
            max: b.layer(0).count_ones() / 2,
        })
    }
}

/// Clobber: every move removes one of the opponent's stones, so `p` can
/// make at most as many moves as the opponent has stones. No safe moves.
impl Knowledge for Clobber {
    /// 4 x 5 checkerboard: 12 cells 18 s, 8 cells 0.86 s (load average 20).
    fn default_value_cells(&self) -> u32 {
        8
    }

    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        let theirs = match p {
            Player::Left => b.layer(1),
            Player::Right => b.layer(0),
        };
        Some(MoveBounds {
            safe: 0,
            max: theirs.count_ones(),
        })
    }
}

/// Konane: every move captures at least one of the opponent's stones.
impl Knowledge for Konane {
    /// as Clobber: capturing games whose small regions are costly to value.
    fn default_value_cells(&self) -> u32 {
        8
    }

    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        let theirs = match p {
            Player::Left => b.layer(1),
            Player::Right => b.layer(0),
        };
        Some(MoveBounds {
            safe: 0,
            max: theirs.count_ones(),
        })
    }
}

/// Amazons: every move burns one empty cell, so no player can make more
/// moves than there are empty cells.
impl Knowledge for Amazons {
    /// valuing 12-cell Amazons regions stalls the 5 x 5 search.
    fn default_value_cells(&self) -> u32 {
        6
    }

    fn move_bounds(&self, b: &Board, _p: Player) -> Option<MoveBounds> {
        Some(MoveBounds {
            safe: 0,
            max: b.layer(2).count_ones(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_parallel_packings_match_the_row_by_row_twin() {
        let mut state = 7u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let w = 1 + (state >> 60) as usize % 11;
            let h = 1 + (state >> 56) as usize % 11;
            let full = if w * h >= 128 {
                !0
            } else {
                (1u128 << (w * h)) - 1
            };
            let mut d: Bits = 0;
            for k in 0..4 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(k);
                d = (d << 64) ^ u128::from(state) ^ (d >> 3);
            }
            let d = d & (d >> 1 | d << 2) & full;
            let b = Board::new(w, h, [d, 0, 0]).unwrap();
            assert_eq!(vertical_pairs_max(&b, d), pairs_max_slow(&b, d, true));
            assert_eq!(horizontal_pairs_max(&b, d), pairs_max_slow(&b, d, false));
        }
    }

    #[test]
    fn domineering_bounds_on_small_shapes() {
        let d = Domineering;
        // A single column of 5: Left has 2 safe moves, Right none.
        let b = d.parse(".|.|.|.|.").unwrap();
        assert_eq!(
            d.move_bounds(&b, Player::Left),
            Some(MoveBounds { safe: 2, max: 2 })
        );
        assert_eq!(
            d.move_bounds(&b, Player::Right),
            Some(MoveBounds { safe: 0, max: 0 })
        );
        // 2x2: nobody safe, each at most 2.
        let b = d.parse("..|..").unwrap();
        assert_eq!(
            d.move_bounds(&b, Player::Left),
            Some(MoveBounds { safe: 0, max: 2 })
        );
        assert_eq!(d.mobility(&b, Player::Left), 2);
        assert_eq!(d.mobility(&b, Player::Right), 2);
        // A row of 4 with a hole: Right safe 1 (the pair left of the
        // hole... no: cells 0,1 are isolated vertically).
        let b = d.parse("..#..").unwrap();
        assert_eq!(
            d.move_bounds(&b, Player::Right),
            Some(MoveBounds { safe: 2, max: 2 })
        );
    }
}
