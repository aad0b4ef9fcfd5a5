//! Cram: either player places a domino either way (the impartial cousin of
//! Domineering).
//!
//! Text format: `.` an empty cell, `#` a blocked one; rows separated by `|`
//! or newlines. Layer 0 holds the empty cells.

use crate::board::{Bits, Board, Player};
use crate::dominoes;
use crate::ruleset::{MoveBounds, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC};

/// Cram. All eight symmetries keep the value.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cram;

static INFO: RulesetInfo = RulesetInfo {
    name: "cram",
    aliases: &[],
    title: "Cram",
    summary: "Either player places a domino either way; who cannot place loses.",
    glyphs: dominoes::GLYPHS,
    edit_cycle: ".#",
    fillings: &['.'],
    example: "....|....|.#..|....",
    site_cells: 30,
};

impl Ruleset for Cram {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        Some(crate::ruleset::empty_rectangle(rows, cols))
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, _p: Player, mut f: F) {
        dominoes::place_vertical(b, &mut f);
        dominoes::place_horizontal(b, &mut f);
    }

    #[inline]
    fn options_while<F: FnMut(Board) -> bool>(&self, b: &Board, _p: Player, mut f: F) -> bool {
        dominoes::place_while(b, true, &mut f) && dominoes::place_while(b, false, &mut f)
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
        &GEOMETRIC
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        b.transform(s.transform)
    }

    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        true
    }

    fn may_split(&self, before: &Board, after: &Board) -> bool {
        dominoes::may_split(before, after)
    }

    /// A footprint is one move's pair of cells, and the move needs only them.
    fn footprints_whole(&self) -> bool {
        true
    }

    /// Every domino that fits, counted without placing it (both players
    /// have the same options).
    #[inline]
    fn mobility(&self, b: &Board, _p: Player) -> u32 {
        dominoes::vertical_tops(b).count_ones() + dominoes::horizontal_lefts(b).count_ones()
    }

    /// Two threads sharing the root's moves: Cram is impartial, so the
    /// outcome search keys positions without the mover and Right first is
    /// answered from Left first's entries; one thread per first player
    /// would search the same thing twice. Measured on 5 x 7 (unsolved by the
    /// mirror strategy), one run each on the shared machine: one thread
    /// 7.06 s wall, two splitting the root 5.28 s, one per first player
    /// 7.33 s (`partizan outcome cram BOARD --no-store --threads 1` /
    /// `--parallel root-split|first-players`). Under normal play Cram's
    /// outcome now goes by the solver's one-thread nimber search; this
    /// choice is for the general engine (misère play, checkpointed runs).
    fn default_parallel(&self) -> crate::TwoThreads {
        crate::TwoThreads::RootSplit
    }

    /// Both players place dominoes either way, so no safe moves are
    /// claimed; every domino covers two empty cells, so at most half of
    /// them.
    fn move_bounds(&self, b: &Board, _p: Player) -> Option<MoveBounds> {
        Some(MoveBounds {
            safe: 0,
            max: b.layer(0).count_ones() / 2,
        })
    }
}
