//! The site's use of the shared report layer (`partizan-report`): the same
//! reports the command line prints, computed under a request's budget.
//!
//! The budget reaches the solver as its stop check
//! ([`partizan_solve::Solver::with_stop`]), so a spent budget stops the
//! search at the next region and nothing half-computed is stored.

use partizan_games::{Board, Ruleset};
use partizan_report::{board_value_in, BoardValue, Options, ReportError};
use partizan_solve::{Savings, SolveError};
use partizan_store::Store;

use crate::error::WebError;
use crate::limits::Budget;

/// Turn a solver error into a web fault: out of time if the budget is spent,
/// else a bad-parameter (an unknown mode, an unsound mode) or internal fault.
pub fn solve_error(e: SolveError, budget: &Budget) -> WebError {
    if budget.expired() || matches!(e, SolveError::Stopped) {
        return budget.out_of_time();
    }
    match e {
        SolveError::UnknownMode(_) | SolveError::RootOnlyUnsound(_) => {
            WebError::param("decompose", e.to_string())
        }
        other => WebError::Internal(other.to_string()),
    }
}

/// Turn a report error into a web fault.
pub fn report_error(e: ReportError, budget: &Budget) -> WebError {
    match e {
        ReportError::Solve(e) => solve_error(e, budget),
        ReportError::Board { ruleset, source } => WebError::BadBoard {
            ruleset: ruleset.to_string(),
            message: source.to_string(),
        },
        other => WebError::Internal(other.to_string()),
    }
}

/// The report `partizan value RULESET BOARD --json` prints, computed under a
/// budget, through `store` when the site has one (`"store": null` without
/// one, as with `--no-store`).
pub fn value_report<R: Ruleset>(
    r: &R,
    board: &Board,
    savings: Savings,
    store: Option<&Store>,
    budget: &Budget,
) -> Result<BoardValue, WebError> {
    let stop = || budget.expired();
    let opts = Options {
        savings,
        store,
        stop: Some(&stop),
    };
    board_value_in(r, board, &opts).map_err(|e| report_error(e, budget))
}

/// The value report answered from the store alone, without a search:
/// `None` unless every region of the board is in the store (the solver is
/// told to stop before its first search).
pub fn store_value_report<R: Ruleset>(
    r: &R,
    board: &Board,
    savings: Savings,
    store: &Store,
) -> Option<BoardValue> {
    let stop = || true;
    let opts = Options {
        savings,
        store: Some(store),
        stop: Some(&stop),
    };
    board_value_in(r, board, &opts).ok()
}

/// JSON text exactly as the command line prints it: pretty, one trailing
/// newline.
pub fn cli_text<T: serde::Serialize>(v: &T) -> Result<String, WebError> {
    serde_json::to_string_pretty(v)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| WebError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::Domineering;
    use std::time::Duration;

    #[test]
    fn report_is_the_shared_one() {
        let b = Domineering.parse("...|...").unwrap();
        let v = value_report(&Domineering, &b, Savings::ALL, None, &Budget::unlimited()).unwrap();
        let shared = partizan_report::board_value(
            partizan_games::Rules::Domineering,
            "...|...",
            &Options::default(),
        )
        .unwrap();
        assert_eq!(v, shared);
        assert_eq!(v.store, None);
        assert_eq!(v.stats.store_added, 0);
    }

    #[test]
    fn store_alone_answers_only_what_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        let b = Domineering.parse("...|...|...").unwrap();
        assert!(store_value_report(&Domineering, &b, Savings::ALL, &store).is_none());
        let full = value_report(
            &Domineering,
            &b,
            Savings::ALL,
            Some(&store),
            &Budget::unlimited(),
        )
        .unwrap();
        let hit = store_value_report(&Domineering, &b, Savings::ALL, &store).unwrap();
        assert_eq!(hit.value, full.value);
        assert_eq!(hit.stats.distinct, 0, "nothing searched");
    }

    #[test]
    fn spent_budget_stops_the_solver() {
        let b = Domineering.parse("....|....|....").unwrap();
        let budget = Budget::new(Duration::from_secs(0));
        let e = value_report(&Domineering, &b, Savings::ALL, None, &budget).unwrap_err();
        assert!(matches!(e, WebError::OutOfTime(0)));
    }
}
