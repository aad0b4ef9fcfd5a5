//! Loopy values (`partizan loopy VALUE...`, Python's `partizan.loopy`):
//! the game graph's outcome with draws, whether it is a stopper, and a
//! stopper's simplest form; with another value, how the two compare.

use std::fmt::Write as _;
use std::time::Instant;

use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::stopper::{as_short, compare, simplest};
use partizan_loopy::{Graph, LoopyError, Play, Relation};
use serde::Serialize;

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
    let (form, form_positions, no_form) = if stopper {
        let s = simplest(&g, max_nodes)?;
        let text = match as_short(&s, &mut core)? {
            Some(v) => core.display(v),
            None => display(&s, &mut core),
        };
        (Some(text), Some(s.len()), None)
    } else {
        (
            None,
            None,
            Some("not a stopper (some play alternates forever): its onside and offside (G = onside & offside) are not computed yet".to_string()),
        )
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
        assert!(matches!(
            loopy_value(&["dud"], Some("0"), 10_000),
            Err(LoopyError::NotStopper(..))
        ));
        let r = loopy_value(&["{1|1}"], None, 10_000).unwrap();
        assert_eq!(r.form.as_deref(), Some("1*"));
        assert!(r.short);
    }
}
