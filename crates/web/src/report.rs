//! The JSON reports the API shares with the command line, and the solver
//! plumbing that makes them stoppable.
//!
//! [`value_json`] is the one function behind both the command line's
//! `value --json` and `/api/value`; [`value_report`] adds the ruleset, board, counts and savings the
//! same way. The solver is run through a [`BudgetTable`], a region table that
//! checks the request's budget on every region the solver is about to search
//! and stops it when the budget is spent.

use partizan_core::{Arena, GameId};
use partizan_games::{Board, Ruleset};
use partizan_solve::{RegionTable, Savings, SolveError, Solver};
use partizan_store::Store;
use serde_json::json;

use crate::error::WebError;
use crate::limits::Budget;

/// The value report of one game, as printed by `partizan value --json`.
pub fn value_json(arena: &mut Arena, g: GameId) -> serde_json::Value {
    let left = arena.left_stop(g);
    let right = arena.right_stop(g);
    // Mean and temperature can need a denominator beyond the dyadic range
    // on extreme forms: say so rather than panic.
    let shown = |r: Result<partizan_core::Dyadic, partizan_core::ValueError>| match r {
        Ok(x) => x.to_string(),
        Err(e) => format!("unrepresentable ({e})"),
    };
    let temp = shown(arena.try_temperature(g));
    let mean = shown(arena.try_mean(g));
    json!({
        "value": arena.display(g),
        "outcome": arena.outcome(g).to_string(),
        "left_stop": left.to_string(),
        "right_stop": right.to_string(),
        "mean": mean,
        "temperature": temp,
        "is_number": arena.is_number(g),
    })
}

/// A region table that stops the solver when the budget is spent, and reads
/// through to an inner table (the persistent store) when there is one.
pub struct BudgetTable<'a> {
    budget: &'a Budget,
    inner: Option<&'a mut dyn RegionTable>,
    forwarded_puts: u64,
}

impl<'a> BudgetTable<'a> {
    /// Wrap an optional inner table under a budget.
    pub fn new(budget: &'a Budget, inner: Option<&'a mut dyn RegionTable>) -> BudgetTable<'a> {
        BudgetTable {
            budget,
            inner,
            forwarded_puts: 0,
        }
    }

    /// Values actually handed to the inner table (the solver counts every
    /// put it makes, including the ones that went nowhere).
    pub fn forwarded_puts(&self) -> u64 {
        self.forwarded_puts
    }
}

/// The message a [`BudgetTable`] stops the solver with.
const STOPPED: &str = "stopped: the request's time budget is spent";

impl RegionTable for BudgetTable<'_> {
    fn get(
        &mut self,
        arena: &mut Arena,
        ruleset: &str,
        key: &Board,
    ) -> Result<Option<GameId>, SolveError> {
        if self.budget.expired() {
            return Err(SolveError::Store(STOPPED.to_string()));
        }
        match self.inner.as_deref_mut() {
            Some(t) => t.get(arena, ruleset, key),
            None => Ok(None),
        }
    }

    fn put(
        &mut self,
        arena: &Arena,
        ruleset: &str,
        key: &Board,
        value: GameId,
    ) -> Result<(), SolveError> {
        if let Some(t) = self.inner.as_deref_mut() {
            t.put(arena, ruleset, key, value)?;
            self.forwarded_puts += 1;
        }
        Ok(())
    }
}

/// Turn a solver error into a web fault: out of time if the budget is spent,
/// else a bad-parameter (an unknown mode, an unsound mode) or internal fault.
pub fn solve_error(e: SolveError, budget: &Budget) -> WebError {
    if budget.expired() {
        return budget.out_of_time();
    }
    match e {
        SolveError::UnknownMode(_) | SolveError::RootOnlyUnsound(_) => {
            WebError::param("decompose", e.to_string())
        }
        other => WebError::Internal(other.to_string()),
    }
}

/// The report `partizan value RULESET BOARD --json` prints, computed under a
/// budget, through `store` when the site has one (as the command line reads
/// through its store; `"store": null` without one, as with `--no-store`).
pub fn value_report<R: Ruleset>(
    r: &R,
    board: &Board,
    savings: Savings,
    store: Option<&Store>,
    budget: &Budget,
) -> Result<serde_json::Value, WebError> {
    let mut session = store.map(|s| {
        let mut session = s.session();
        session.set_label(format!("value {} {}", r.name(), r.format(board)));
        session
    });
    let mut arena = Arena::new();
    let (g, stats) = {
        let mut table =
            BudgetTable::new(budget, session.as_mut().map(|s| s as &mut dyn RegionTable));
        let (g, mut stats) = {
            let solver = Solver::new(r, savings).map_err(|e| solve_error(e, budget))?;
            let mut solver = solver.with_table(&mut table);
            let g = solver
                .value(&mut arena, board)
                .map_err(|e| solve_error(e, budget))?;
            (g, solver.stats())
        };
        stats.store_added = table.forwarded_puts();
        (g, stats)
    };
    if let Some(s) = session {
        s.finish()
            .map_err(|e| WebError::Internal(format!("store: {e}")))?;
    }
    let mut out = value_json(&mut arena, g);
    out["ruleset"] = json!(r.name());
    out["board"] = json!(r.format(board));
    out["stats"] = serde_json::to_value(stats).map_err(|e| WebError::Internal(e.to_string()))?;
    out["savings"] =
        serde_json::to_value(savings).map_err(|e| WebError::Internal(e.to_string()))?;
    out["store"] = match store {
        Some(s) => json!({
            "path": s.path().display().to_string(),
            "hits": stats.store_hits,
            "added": stats.store_added,
        }),
        None => serde_json::Value::Null,
    };
    Ok(out)
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
    fn report_has_the_cli_fields() {
        let b = Domineering.parse("...|...").unwrap();
        let v = value_report(&Domineering, &b, Savings::ALL, None, &Budget::unlimited()).unwrap();
        for k in [
            "value",
            "outcome",
            "left_stop",
            "right_stop",
            "mean",
            "temperature",
            "is_number",
            "ruleset",
            "board",
            "stats",
            "savings",
            "store",
        ] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        assert!(v["store"].is_null());
        assert_eq!(v["board"], "...|...");
        assert_eq!(v["stats"]["store_added"], 0);
    }

    #[test]
    fn spent_budget_stops_the_solver() {
        let b = Domineering.parse("....|....|....").unwrap();
        let budget = Budget::new(Duration::from_secs(0));
        let e = value_report(&Domineering, &b, Savings::ALL, None, &budget).unwrap_err();
        assert!(matches!(e, WebError::OutOfTime(0)));
    }
}
