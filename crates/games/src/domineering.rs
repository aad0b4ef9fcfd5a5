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
use crate::ruleset::{Ruleset, RulesetInfo};
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
}
