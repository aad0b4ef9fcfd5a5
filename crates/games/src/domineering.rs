//! Domineering: Left places vertical dominoes, Right horizontal ones.
//!
//! Text format: `.` an empty cell, `#` a blocked one; rows separated by `|`
//! or newlines, read top to bottom. Layer 0 holds the empty cells.
//!
//! ```text
//! ..#.      Left may cover (r, c) and (r+1, c);
//! ....      Right may cover (r, c) and (r, c+1).
//! ```

use crate::board::{Bits, Board, Player};
use crate::dominoes;
use crate::ruleset::{MoveBounds, Ruleset, RulesetInfo};
use crate::transform::Symmetry;

/// Domineering. A transpose swaps vertical and horizontal, so the four
/// axis-swapping symmetries negate the value; the other four keep it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Domineering;

const SYMMETRIES: [Symmetry; 8] = crate::transform::AXIS_SWAP_NEGATES;

static INFO: RulesetInfo = RulesetInfo {
    name: "domineering",
    aliases: &[],
    title: "Domineering",
    summary: "Left places vertical dominoes, Right horizontal ones; who cannot place loses.",
    glyphs: dominoes::GLYPHS,
    edit_cycle: ".#",
    fillings: &['.'],
    example: "....|....|.#..|....",
    site_cells: 30,
};

impl Ruleset for Domineering {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        Some(crate::ruleset::empty_rectangle(rows, cols))
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        match p {
            Player::Left => dominoes::place_vertical(b, &mut f),
            Player::Right => dominoes::place_horizontal(b, &mut f),
        }
    }

    #[inline]
    fn options_while<F: FnMut(Board) -> bool>(&self, b: &Board, p: Player, mut f: F) -> bool {
        dominoes::place_while(b, p == Player::Left, &mut f)
    }

    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
        dominoes::footprints(b, f);
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        dominoes::related(b, set)
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.layer(0)
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        &SYMMETRIES
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        b.transform(s.transform)
    }

    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    fn may_split(&self, before: &Board, after: &Board) -> bool {
        dominoes::may_split(before, after)
    }

    /// Left (vertical) mobility is the number of vertical empty pairs,
    /// Right's the number of horizontal ones.
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

    /// Left's safe moves are vertical dominoes on cells no horizontal
    /// domino can ever reach, packed down each column; Left's maximum is
    /// the vertical packing of the empty cells column by column (and the
    /// mirror for Right).
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

#[cfg(test)]
mod knowledge_tests {
    use super::*;

    /// The same packings one row (column) at a time: the twin of the
    /// bit-parallel ones.
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
    fn mobility_counts_the_options() {
        let d = Domineering;
        for text in ["..|..", "...|.#.|...", ".#..|....|..#.", "....."] {
            let b = d.parse(text).unwrap();
            for p in [Player::Left, Player::Right] {
                let mut n = 0;
                d.options(&b, p, |_| n += 1);
                assert_eq!(d.mobility(&b, p), n, "{text} {p:?}");
            }
        }
    }

    #[test]
    fn bounds_on_small_shapes() {
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
        // A row with a hole: each pair beside the hole is out of Left's
        // reach, so Right has 2 safe moves of 2.
        let b = d.parse("..#..").unwrap();
        assert_eq!(
            d.move_bounds(&b, Player::Right),
            Some(MoveBounds { safe: 2, max: 2 })
        );
    }
}
