//! Loopy values (`partizan loopy VALUE...`, Python's `partizan.loopy`):
//! the game graph's outcome with draws, whether it is a stopper, and a
//! stopper's simplest form; with another value, how the two compare.

use std::fmt::Write as _;
use std::time::Instant;

use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::sides::{side, Side};
use partizan_loopy::stopper::{compare, simplest};
use partizan_loopy::{Graph, LoopyError, Play, Relation};
use serde::Serialize;

/// Rounds of sidling tried for each side of a non-stopper.
pub const SIDLING_ROUNDS: usize = 60;

/// A loopy value's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoopyReport {
    /// The values as given, added (`+`).
    pub value: String,
    /// Positions of its graph (reachable from the root).
    pub positions: usize,
    /// Whether it is a stopper (no play alternates forever).
    pub stopper: bool,
    /// Whether no position can recur (a short game).
    pub short: bool,
    /// The outcome class: L, R, N, P, D (a draw either way), or two
    /// letters (Left moving first's result, then Right moving first's).
    pub outcome: String,
    /// Left's result moving first.
    pub left_first: Play,
    /// Right's result moving first.
    pub right_first: Play,
    /// The simplest form (stoppers), or the canonical form (short games).
    pub form: Option<String>,
    /// Positions of the simplest form.
    pub form_positions: Option<usize>,
    /// Why there is no form, when there is none.
    pub no_form: Option<String>,
    /// A non-stopper's onside and offside (`G = onside & offside`), when
    /// sidling settled.
    pub sides: Option<(String, String)>,
    /// Sidling rounds run (each side), when sides were sought.
    pub sidling_rounds: Option<(usize, usize)>,
    /// The value compared with, and the relation (`>`, `<`, `=`, `||`).
    pub compared: Option<(String, String)>,
    /// Wall time, milliseconds.
    pub elapsed_ms: f64,
}

/// The report of the sum of `values` (CGSuite's loopy notation), compared
/// with `other` when given; graphs of at most `max_nodes` positions.
pub fn loopy_value<S: AsRef<str>>(
    values: &[S],
    other: Option<&str>,
    max_nodes: usize,
) -> Result<LoopyReport, LoopyError> {
    let start = Instant::now();
    let mut core = Arena::new();
    let mut g: Option<Graph> = None;
    for v in values {
        let h = parse(v.as_ref(), &mut core, max_nodes)?;
        g = Some(match g {
            None => h,
            Some(x) => x.sum(&h, max_nodes)?.trimmed(),
        });
    }
    let g = g.unwrap_or_else(Graph::zero);
    let outcome = g.outcome();
    let stopper = g.is_stopper();
    let short = g.short_nodes()[g.root() as usize];
    let mut sides = None;
    let mut sidling_rounds = None;
    let (form, form_positions, no_form) = if stopper {
        // A short form is written as core's canonical form by `display`.
        let s = simplest(&g, max_nodes)?;
        (Some(display(&s, &mut core)), Some(s.len()), None)
    } else {
        let on = side(&g, Side::On, SIDLING_ROUNDS, max_nodes)?;
        let off = side(&g, Side::Off, SIDLING_ROUNDS, max_nodes)?;
        let why = match (on, off) {
            (Some((a, ra)), Some((b, rb))) => {
                sides = Some((display(&a, &mut core), display(&b, &mut core)));
                sidling_rounds = Some((ra, rb));
                "not a stopper (some play alternates forever): stopper-sided, G = onside & offside".to_string()
            }
            _ => format!(
                "not a stopper (some play alternates forever), and sidling did not settle within {SIDLING_ROUNDS} rounds: no onside and offside (it is not stopper-sided, or needs more rounds)"
            ),
        };
        (None, None, Some(why))
    };
    let compared = match other {
        None => None,
        Some(text) => {
            let h = parse(text, &mut core, max_nodes)?;
            if !stopper {
                return Err(LoopyError::NotStopper(joined(values), "a comparison"));
            }
            if !h.is_stopper() {
                return Err(LoopyError::NotStopper(text.to_string(), "a comparison"));
            }
            let r = match compare(&g, &h, max_nodes)? {
                Relation::Greater => ">",
                Relation::Less => "<",
                Relation::Equal => "=",
                Relation::Confused => "||",
            };
            Some((text.to_string(), r.to_string()))
        }
    };
    Ok(LoopyReport {
        value: joined(values),
        positions: g.len(),
        stopper,
        short,
        outcome: outcome.class(),
        left_first: outcome.left_first,
        right_first: outcome.right_first,
        form,
        form_positions,
        no_form,
        sides,
        sidling_rounds,
        compared,
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

fn joined<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(" + ")
}

impl LoopyReport {
    /// The text `partizan loopy` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let kind = if self.short {
            "a short game (no position recurs)"
        } else if self.stopper {
            "a stopper (positions recur, but no play alternates forever)"
        } else {
            "not a stopper"
        };
        let _ = writeln!(out, "{}: {kind}, {} positions", self.value, self.positions);
        let outcome = partizan_loopy::LoopyOutcome {
            left_first: self.left_first,
            right_first: self.right_first,
        };
        let _ = writeln!(out, "outcome {}: {}", self.outcome, outcome.words());
        match (&self.form, &self.no_form) {
            (Some(f), _) => {
                let what = if self.short {
                    "canonical form"
                } else {
                    "simplest form"
                };
                let _ = writeln!(
                    out,
                    "{what} {f} ({} positions)",
                    self.form_positions.unwrap_or(0)
                );
            }
            (None, Some(why)) => {
                let _ = writeln!(out, "{why}");
                if let Some((on, off)) = &self.sides {
                    let (ra, rb) = self.sidling_rounds.unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "{on} & {off} (onside in {ra} rounds of sidling, offside in {rb})"
                    );
                }
            }
            _ => {}
        }
        if let Some((h, r)) = &self.compared {
            let _ = writeln!(out, "{} {r} {h}", self.value);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports() {
        let r = loopy_value(&["{0|pass}", "{0|pass}"], Some("over"), 10_000).unwrap();
        assert_eq!(r.form.as_deref(), Some("over"));
        assert_eq!(r.compared, Some(("over".into(), "=".into())));
        assert!(r.stopper && !r.short);
        let r = loopy_value(&["dud"], None, 10_000).unwrap();
        assert_eq!(r.outcome, "D");
        assert!(r.form.is_none() && r.no_form.is_some());
        // SidedValueTestCase: dud = on & off.
        assert_eq!(r.sides, Some(("on".into(), "off".into())));
        assert!(r.text().contains("on & off"), "{}", r.text());
        assert!(matches!(
            loopy_value(&["dud"], Some("0"), 10_000),
            Err(LoopyError::NotStopper(..))
        ));
        let r = loopy_value(&["{1|1}"], None, 10_000).unwrap();
        assert_eq!(r.form.as_deref(), Some("1*"));
        assert!(r.short);
    }
}
