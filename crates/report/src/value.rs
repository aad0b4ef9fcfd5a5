//! Value reports: what a canonical value is worth ([`ValueSummary`]), the
//! value of a board with what the solver did ([`BoardValue`]), and the sum
//! of values written in notation ([`GameValue`]).

use std::fmt::Write as _;

use partizan_core::{Arena, Dyadic, GameId, ValueError};
use partizan_games::{with_rules, Board, BoardError, Rules, Ruleset};
use partizan_solve::{RegionTable, Savings, SolveError, Solver, Stats};
use partizan_store::Store;
use serde::Serialize;
use thiserror::Error;

/// Why a report could not be made. Each message is one line.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The board text does not parse for the ruleset.
    #[error("bad {ruleset} board: {source}")]
    Board {
        /// The ruleset's name.
        ruleset: &'static str,
        /// What is wrong with the text.
        source: BoardError,
    },
    /// Value notation that does not parse, in the `index`-th argument.
    #[error("bad value notation in argument {index} '{text}': {message}")]
    Notation {
        /// 1-based argument number.
        index: usize,
        /// The argument (at most 200 characters of it).
        text: String,
        /// What is wrong with it.
        message: String,
    },
    /// The solver failed or was stopped.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Value arithmetic failed.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The persistent table failed.
    #[error("store: {0}")]
    Store(String),
}

/// What a value is worth, in the subject's standard terms. Numbers print
/// in CGSuite notation (`3/2`, `-1/4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueSummary {
    /// The canonical form in CGSuite notation.
    pub value: String,
    /// Outcome class: `L`, `R`, `N` (first player wins) or `P` (second).
    pub outcome: String,
    /// Left's stop: where play ends when Left moves first and both play well.
    pub left_stop: String,
    /// Right's stop.
    pub right_stop: String,
    /// The mean value (the mast's position in the thermograph).
    pub mean: String,
    /// The temperature (where the thermograph's walls meet the mast).
    pub temperature: String,
    /// Whether the value is a number.
    pub is_number: bool,
}

impl ValueSummary {
    /// The summary of `g`.
    pub fn of(arena: &mut Arena, g: GameId) -> ValueSummary {
        // Mean and temperature can need a denominator beyond the dyadic
        // range on extreme forms: say so rather than fail.
        let shown = |r: Result<Dyadic, ValueError>| match r {
            Ok(x) => x.to_string(),
            Err(e) => format!("unrepresentable ({e})"),
        };
        ValueSummary {
            value: arena.display(g),
            outcome: arena.outcome(g).to_string(),
            left_stop: arena.left_stop(g).to_string(),
            right_stop: arena.right_stop(g).to_string(),
            mean: shown(arena.try_mean(g)),
            temperature: shown(arena.try_temperature(g)),
            is_number: arena.is_number(g),
        }
    }

    /// One line: outcome, stops, mean and temperature.
    pub fn facts_line(&self) -> String {
        format!(
            "outcome {}  stops {} / {}  mean {}  temperature {}",
            self.outcome, self.left_stop, self.right_stop, self.mean, self.temperature
        )
    }
}

/// What the persistent table did for one run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoreUse {
    /// Regions answered from the table.
    pub hits: u64,
    /// Regions the run added to it.
    pub added: u64,
}

/// The value of a board, with the counts of the search that found it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardValue {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// The value and its facts.
    #[serde(flatten)]
    pub value: ValueSummary,
    /// What the solver did.
    pub stats: Stats,
    /// The savings in force.
    pub savings: Savings,
    /// What the persistent table did, or `None` when the run had none.
    pub store: Option<StoreUse>,
}

impl BoardValue {
    /// The text form: the value; with `stats`, the facts and the counts.
    pub fn render_text(&self, stats: bool) -> String {
        let mut s = format!("{}\n", self.value.value);
        if stats {
            let t = &self.stats;
            let _ = writeln!(s, "{}", self.value.facts_line());
            let _ = writeln!(
                s,
                "nodes {}  distinct {}  hits {}  passes {}  splits {}  regions {}",
                t.nodes, t.distinct, t.hits, t.passes, t.splits, t.regions
            );
            if let Some(u) = self.store {
                let _ = writeln!(s, "store hits {}  added {}", u.hits, u.added);
            }
        }
        s
    }
}

/// How to value a board: which savings, which table, when to stop.
pub struct Options<'a> {
    /// The solver's savings.
    pub savings: Savings,
    /// The persistent table to read through and add to.
    pub store: Option<&'a Store>,
    /// Asked before each region search; `true` stops the run with
    /// [`SolveError::Stopped`] (a time budget, a cancel flag).
    pub stop: Option<&'a (dyn Fn() -> bool + 'a)>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            savings: Savings::ALL,
            store: None,
            stop: None,
        }
    }
}

/// Parse `text` as a board of `rules` and value it.
pub fn board_value(
    rules: Rules,
    text: &str,
    opts: &Options<'_>,
) -> Result<BoardValue, ReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| ReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        board_value_in(r, &board, opts)
    })
}

/// Value a parsed board of ruleset `r`.
pub fn board_value_in<R: Ruleset>(
    r: &R,
    board: &Board,
    opts: &Options<'_>,
) -> Result<BoardValue, ReportError> {
    let mut session = opts.store.map(|s| {
        let mut session = s.session();
        session.set_label(format!("value {} {}", r.name(), r.format(board)));
        session
    });
    let mut arena = Arena::new();
    let (g, stats) = {
        let mut solver = Solver::new(r, opts.savings)?;
        if let Some(s) = session.as_mut() {
            solver = solver.with_table(s as &mut dyn RegionTable);
        }
        if let Some(stop) = opts.stop {
            solver = solver.with_stop(stop);
        }
        let g = solver.value(&mut arena, board)?;
        (g, solver.stats())
    };
    if let Some(s) = session {
        s.finish().map_err(|e| ReportError::Store(e.to_string()))?;
    }
    Ok(BoardValue {
        ruleset: r.name(),
        board: r.format(board),
        value: ValueSummary::of(&mut arena, g),
        stats,
        savings: opts.savings,
        store: opts.store.map(|_| StoreUse {
            hits: stats.store_hits,
            added: stats.store_added,
        }),
    })
}

/// The sum of values written in CGSuite notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameValue {
    /// The values as given.
    pub terms: Vec<String>,
    /// Their sum and its facts.
    #[serde(flatten)]
    pub value: ValueSummary,
}

impl GameValue {
    /// The text form: the canonical form of the sum.
    pub fn render_text(&self) -> String {
        format!("{}\n", self.value.value)
    }
}

/// Parse each of `terms` as CGSuite notation and add them up.
pub fn game_value<S: AsRef<str>>(terms: &[S]) -> Result<GameValue, ReportError> {
    let mut arena = Arena::new();
    let mut total = arena.zero();
    for (i, text) in terms.iter().enumerate() {
        let text = text.as_ref();
        let g = arena.parse(text).map_err(|e| ReportError::Notation {
            index: i + 1,
            text: text.chars().take(200).collect(),
            message: e.to_string(),
        })?;
        total = arena.sum(total, g)?;
    }
    Ok(GameValue {
        terms: terms.iter().map(|t| t.as_ref().to_string()).collect(),
        value: ValueSummary::of(&mut arena, total),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_report_fields() {
        let r = board_value(Rules::Domineering, "...|...", &Options::default()).unwrap();
        let v = serde_json::to_value(&r).unwrap();
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
        assert_eq!(v["value"], "{2|-1/2}");
        assert_eq!(v["mean"], "3/4");
        assert_eq!(v["temperature"], "5/4");
        assert!(v["store"].is_null());
        assert_eq!(v["board"], "...|...");
        assert_eq!(r.render_text(false), "{2|-1/2}\n");
        assert!(r.render_text(true).contains("outcome N  stops 2 / -1/2"));
    }

    #[test]
    fn a_stop_stops_and_a_bad_board_is_named() {
        let stop = || true;
        let opts = Options {
            stop: Some(&stop),
            ..Options::default()
        };
        let e = board_value(Rules::Domineering, "....|....|....", &opts).unwrap_err();
        assert!(matches!(e, ReportError::Solve(SolveError::Stopped)));
        let e = board_value(Rules::Domineering, "..|.", &Options::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad domineering board: ragged rows: row 2 has 1 cells, expected 2"
        );
    }

    #[test]
    fn game_sums_and_names_bad_terms() {
        let g = game_value(&["^", "*"]).unwrap();
        assert_eq!(g.value.value, "^*");
        let e = game_value(&["1", "{1|"]).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("bad value notation in argument 2 '{1|'"));
    }
}
