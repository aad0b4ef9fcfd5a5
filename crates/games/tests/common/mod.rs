//! Helpers shared by the graph tests and the graph-fold bench (the bench
//! reads this file by path).

use partizan_games::{Board, Player, Ruleset, Symmetry};

/// A ruleset folded by its rectangle symmetries only (the fold before
/// `fold_isomorphic`): every method but that one delegated.
pub struct Rectangle<R>(pub R);

impl<R: Ruleset> Ruleset for Rectangle<R> {
    fn info(&self) -> &'static partizan_games::RulesetInfo {
        self.0.info()
    }
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
        self.0.options(b, p, f);
    }
    fn footprints<F: FnMut(u128)>(&self, b: &Board, f: F) {
        self.0.footprints(b, f);
    }
    fn cells(&self, b: &Board) -> u128 {
        self.0.cells(b)
    }
    fn symmetries(&self) -> &'static [Symmetry] {
        self.0.symmetries()
    }
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        self.0.apply(b, s)
    }
    fn only_falls_apart(&self) -> bool {
        self.0.only_falls_apart()
    }
    fn impartial(&self) -> bool {
        self.0.impartial()
    }
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        self.0.may_split(before, after)
    }
}
