//! What a ruleset knows about itself that an outcome search can use.
//!
//! The cheap knowledge — a count of each player's moves (for move
//! ordering), bounds on how many moves each player can still make (for
//! cutoffs), the size of region worth valuing exactly — lives in
//! [`Ruleset`] itself as default methods ([`Ruleset::mobility`],
//! [`Ruleset::move_bounds`], [`Ruleset::default_value_cells`],
//! [`Ruleset::safety_score`]), so a new ruleset is one file plus one
//! registry line and searches correctly with the conservative defaults.
//!
//! [`Knowledge`] adds what needs the solver: a ruleset's own outcome
//! search. Every ruleset has it through one blanket impl, which picks the
//! fast path by the ruleset's type (Domineering's [`super::domineering`])
//! or kind (every impartial ruleset under normal play: the nimber search
//! of [`super::impartial`]), so no ruleset needs a line here.

use std::any::Any;

use partizan_games::{Board, Domineering, Ruleset};

pub use partizan_games::MoveBounds;

/// Per-ruleset search knowledge (see the module comment). Implemented for
/// every ruleset; the rules' own bounds are [`Ruleset`] methods.
pub trait Knowledge: Ruleset {
    /// The ruleset's own outcome search, if it has one for this board and
    /// configuration (`None`: the general engine runs). It must answer
    /// exactly what the general engine would (its twin tests say so).
    fn fast_solve(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
    ) -> Option<Result<super::SearchReport, super::SearchError>>;

    /// [`Knowledge::fast_solve`] keeping a checkpoint at `file`, written
    /// every `every` (see [`super::solve_resumable`]); `None`: the ruleset
    /// has no search of its own here, or that search keeps no checkpoint.
    fn fast_solve_resumable(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
        file: &std::path::Path,
        every: std::time::Duration,
    ) -> Option<Result<(super::SearchReport, super::Resumed), super::SearchError>>;

    /// Solve `board` (one thread) and run `f` with the report and the
    /// ruleset's own "does this player, moving first, win this board?" for
    /// boards of `board`'s rectangle, sharing the search's table (`None`:
    /// it has none here, and nothing was searched; Domineering's is its
    /// fast path). The certificate prover asks it which moves win.
    fn with_oracle<T>(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
        f: impl FnOnce(
            Option<(super::SearchReport, &mut super::domineering::Oracle<'_>)>,
        ) -> Result<T, super::SearchError>,
    ) -> Result<T, super::SearchError>;
}

impl<R: Ruleset + 'static> Knowledge for R {
    fn fast_solve(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
    ) -> Option<Result<super::SearchReport, super::SearchError>> {
        let me: &dyn Any = self;
        if me.is::<Domineering>() {
            return super::domineering::solve(board, config, control);
        }
        super::impartial::solve(self, board, config, control)
    }

    fn fast_solve_resumable(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
        file: &std::path::Path,
        every: std::time::Duration,
    ) -> Option<Result<(super::SearchReport, super::Resumed), super::SearchError>> {
        let me: &dyn Any = self;
        if me.is::<Domineering>() {
            return super::domineering::solve_resumable(board, config, control, file, every);
        }
        super::impartial::solve_resumable(self, board, config, control, file, every)
    }

    fn with_oracle<T>(
        &self,
        board: &Board,
        config: &super::SearchConfig,
        control: &super::Control<'_>,
        f: impl FnOnce(
            Option<(super::SearchReport, &mut super::domineering::Oracle<'_>)>,
        ) -> Result<T, super::SearchError>,
    ) -> Result<T, super::SearchError> {
        let me: &dyn Any = self;
        if me.is::<Domineering>() {
            return super::domineering::with_oracle(board, config, control, f);
        }
        f(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Convention;
    use crate::search::{Control, SearchConfig};
    use partizan_games::{Clobber, Cram, Rules};

    #[test]
    fn domineering_and_the_impartial_rulesets_take_a_fast_path() {
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let ctl = Control::default();
        let b = Domineering.parse("...|...").unwrap();
        assert!(Domineering.fast_solve(&b, &cfg, &ctl).is_some());
        // Cram's board is Domineering's board; Cram, impartial, takes the
        // nimber search under normal play only.
        let cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        assert!(Cram.fast_solve(&b, &cfg, &ctl).is_some());
        let misere = SearchConfig::for_ruleset(&Cram, Convention::Misere);
        assert!(Cram.fast_solve(&b, &misere, &ctl).is_none());
        let b = Clobber.parse("xo|ox").unwrap();
        assert!(Clobber.fast_solve(&b, &cfg, &ctl).is_none());
        // Every registered ruleset has the knowledge, with no line here.
        for &r in Rules::ALL {
            let (fast, impartial) = partizan_games::with_rules!(r, |rs| {
                let b = rs.parse(rs.info().example).unwrap();
                let _ = rs.default_value_cells();
                let cfg = SearchConfig::for_ruleset(rs, Convention::Normal);
                (rs.fast_solve(&b, &cfg, &ctl).is_some(), rs.impartial())
            });
            assert_eq!(fast, r == Rules::Domineering || impartial, "{r}");
        }
    }
}
