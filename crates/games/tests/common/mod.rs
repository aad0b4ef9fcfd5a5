//! Helpers shared by the graph tests and the graph-fold bench (the bench
//! reads this file by path).

use partizan_games::{Board, Player, Ruleset, Symmetry};

/// Another ruleset's game with every method delegated but two defaults:
/// folded by its rectangle symmetries only (no `fold_isomorphic`), and
/// claiming boards only fall apart as `falls_apart` says (`None`: as the
/// game does).
pub struct Delegate<R> {
    /// The game.
    pub inner: R,
    /// What `only_falls_apart` answers instead of the game, if anything.
    pub falls_apart: Option<bool>,
}

/// The game folded by its rectangle symmetries only (the fold before
/// `fold_isomorphic`).
#[allow(dead_code)]
pub fn rectangle<R>(inner: R) -> Delegate<R> {
    Delegate {
        inner,
        falls_apart: None,
    }
}

/// The game declaring, conservatively, that its boards may grow together.
#[allow(dead_code)]
pub fn may_merge<R>(inner: R) -> Delegate<R> {
    Delegate {
        inner,
        falls_apart: Some(false),
    }
}

impl<R: Ruleset> Ruleset for Delegate<R> {
    fn info(&self) -> &'static partizan_games::RulesetInfo {
        self.inner.info()
    }
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
        self.inner.options(b, p, f);
    }
    fn footprints<F: FnMut(u128)>(&self, b: &Board, f: F) {
        self.inner.footprints(b, f);
    }
    fn cells(&self, b: &Board) -> u128 {
        self.inner.cells(b)
    }
    fn symmetries(&self) -> &'static [Symmetry] {
        self.inner.symmetries()
    }
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        self.inner.apply(b, s)
    }
    fn only_falls_apart(&self) -> bool {
        self.falls_apart
            .unwrap_or_else(|| self.inner.only_falls_apart())
    }
    fn impartial(&self) -> bool {
        self.inner.impartial()
    }
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        self.inner.may_split(before, after)
    }
}
