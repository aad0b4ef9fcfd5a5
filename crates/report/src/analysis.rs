//! A calculator over values written in CGSuite notation: each value with
//! everything the toolkit says about it ([`ValueAnalysis`]: canonical form,
//! stops, mean, temperature, atomic weight, reduced form, incentives,
//! thermograph), their sum, and every pair compared with its difference
//! ([`Calculation`]). The site's value page shows it; `/api/analyse`
//! answers it as JSON.
//!
//! ```
//! let c = partizan_report::calculate(&["{3||2*|1*}", "^"]).unwrap();
//! assert_eq!(c.values[0].value.mean, "9/4");
//! assert_eq!(c.values[0].reduced, "{3||2|1}");
//! assert_eq!(c.comparisons[0].comparison, ">");
//! assert_eq!(c.sum.as_ref().unwrap().value.outcome, "L");
//! ```

use std::sync::Arc;

use partizan_core::thermo::Thermograph;
use partizan_core::{Arena, GameId};
use serde::Serialize;

use crate::picture::ThermographData;
use crate::value::{ReportError, ValueSummary};

/// Everything the toolkit says about one value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueAnalysis {
    /// The value as written.
    pub text: String,
    /// Its canonical form, outcome, stops, mean, temperature and size.
    #[serde(flatten)]
    pub value: ValueSummary,
    /// The atomic weight, when the value is atomic.
    pub atomic_weight: Option<String>,
    /// Why the atomic weight is undefined, when it is.
    pub atomic_weight_error: Option<String>,
    /// The reduced canonical form (infinitesimals dropped).
    pub reduced: String,
    /// The value less its reduced form; `null` when not computed (a form
    /// of over [`partizan_core::toolkit::INCENTIVE_LIMIT`] subpositions whose reduced form is not a
    /// number).
    pub infinitesimal_part: Option<String>,
    /// The value cooled by its own temperature.
    pub frozen: String,
    /// An orthodox form (the same thermograph, only the options some
    /// temperature makes best); `null` past [`partizan_core::toolkit::INCENTIVE_LIMIT`]
    /// subpositions.
    pub orthodox_form: Option<String>,
    /// Left's options of the canonical form.
    pub left_options: Vec<String>,
    /// Right's options.
    pub right_options: Vec<String>,
    /// Left's incentives (GL − G); `null` past [`partizan_core::toolkit::INCENTIVE_LIMIT`]
    /// subpositions.
    pub left_incentives: Option<Vec<String>>,
    /// Right's incentives (G − GR).
    pub right_incentives: Option<Vec<String>>,
    /// The thermograph: mast, temperature and the walls' corners.
    pub thermograph: ThermographData,
    /// The thermograph itself, for [`ValueAnalysis::picture`].
    #[serde(skip)]
    pub walls: Arc<Thermograph>,
}

impl ValueAnalysis {
    /// The analysis of `g` (written `text`).
    pub fn of(arena: &mut Arena, g: GameId, text: &str) -> Result<ValueAnalysis, ReportError> {
        let t = arena.toolkit(g)?;
        let list = |a: &mut Arena, gs: &[GameId]| gs.iter().map(|&x| a.display(x)).collect();
        let lo = arena.left_options(g).to_vec();
        let ro = arena.right_options(g).to_vec();
        let (atomic_weight, atomic_weight_error) = match &t.atomic_weight {
            Ok(w) => (Some(arena.display(*w)), None),
            Err(e) => (None, Some(e.to_string())),
        };
        Ok(ValueAnalysis {
            text: text.to_string(),
            value: ValueSummary::of(arena, g),
            atomic_weight,
            atomic_weight_error,
            reduced: arena.display(t.reduced),
            infinitesimal_part: t.infinitesimal_part.map(|e| arena.display(e)),
            frozen: arena.display(t.frozen),
            orthodox_form: t.orthodox_form.map(|o| arena.display(o)),
            left_options: list(arena, &lo),
            right_options: list(arena, &ro),
            left_incentives: t.incentives.as_ref().map(|i| list(arena, &i.left)),
            right_incentives: t.incentives.as_ref().map(|i| list(arena, &i.right)),
            thermograph: ThermographData::of(&t.thermograph),
            walls: t.thermograph,
        })
    }

    /// The thermograph drawn `w` pixels wide, as (SVG, TikZ); `id` goes on
    /// the SVG, `title` above the axes (see [`crate::picture::thermograph`]).
    pub fn picture(&self, id: &str, title: &str, w: f64) -> (String, String) {
        crate::picture::thermograph(&self.walls, id, title, w)
    }
}

/// Two of the values compared: `G op H` and the difference `G − H`, whose
/// outcome decides the order (L: G > H, R: G < H, P: equal, N: confused).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairComparison {
    /// Index of G among the values (0-based).
    pub g: usize,
    /// Index of H.
    pub h: usize,
    /// `<`, `=`, `>` or `||`.
    pub comparison: &'static str,
    /// The canonical form of G − H.
    pub difference: String,
}

/// Several values in notation: each analysed, their sum analysed (when
/// there are two or more), and every pair compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Calculation {
    /// Each value, in the order given.
    pub values: Vec<ValueAnalysis>,
    /// The sum of all of them (absent for a single value).
    pub sum: Option<ValueAnalysis>,
    /// Every pair, G before H in the order given.
    pub comparisons: Vec<PairComparison>,
}

/// Analyse each of `terms` (CGSuite notation, with infix `+` and `-`),
/// their sum, and every pair. Boards (`RULESET:BOARD`) are not taken here:
/// valuing a board is a search, which a calculator must not start.
pub fn calculate<S: AsRef<str>>(terms: &[S]) -> Result<Calculation, ReportError> {
    let mut arena = Arena::new();
    let mut ids = Vec::with_capacity(terms.len());
    for (i, text) in terms.iter().enumerate() {
        let text = text.as_ref();
        let g = arena.parse(text).map_err(|e| ReportError::Notation {
            index: i + 1,
            text: text.chars().take(200).collect(),
            message: e.to_string(),
        })?;
        ids.push(g);
    }
    let mut values = Vec::with_capacity(ids.len());
    for (&g, text) in ids.iter().zip(terms) {
        values.push(ValueAnalysis::of(&mut arena, g, text.as_ref())?);
    }
    let sum = if ids.len() >= 2 {
        let mut total = arena.zero();
        for &g in &ids {
            total = arena.sum(total, g)?;
        }
        let text: Vec<&str> = terms.iter().map(|t| t.as_ref()).collect();
        Some(ValueAnalysis::of(&mut arena, total, &text.join(" + "))?)
    } else {
        None
    };
    let mut comparisons = Vec::new();
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            let (g, h) = (ids[i], ids[j]);
            let d = arena.sub(g, h)?;
            comparisons.push(PairComparison {
                g: i,
                h: j,
                comparison: arena.compare(g, h).symbol(),
                difference: arena.display(d),
            });
        }
    }
    Ok(Calculation {
        values,
        sum,
        comparisons,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgsuite_s_first_example_reads_as_cgsuite_says() {
        // CGSuite: {3||2*|1*} has mean 9/4, temperature 3/4, reduced
        // canonical form {3||2|1}; it is not atomic (its stops differ).
        let c = calculate(&["{3||2*|1*}"]).unwrap();
        let v = &c.values[0];
        assert_eq!(v.value.value, "{3||2*|1*}");
        assert_eq!(
            (v.value.left_stop.as_str(), v.value.right_stop.as_str()),
            ("3", "2")
        );
        assert_eq!(
            (v.value.mean.as_str(), v.value.temperature.as_str()),
            ("9/4", "3/4")
        );
        assert_eq!(v.reduced, "{3||2|1}");
        assert!(v.atomic_weight.is_none() && v.atomic_weight_error.is_some());
        assert_eq!(v.left_options, ["3"]);
        assert_eq!(v.right_options, ["{2*|1*}"]);
        assert!(v.left_incentives.is_some());
        assert!(c.sum.is_none() && c.comparisons.is_empty());
    }

    #[test]
    fn several_values_are_added_and_compared_pairwise() {
        let c = calculate(&["^", "*", "^*"]).unwrap();
        assert_eq!(c.sum.as_ref().unwrap().value.value, "^^");
        let pairs: Vec<(usize, usize, &str, &str)> = c
            .comparisons
            .iter()
            .map(|p| (p.g, p.h, p.comparison, p.difference.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [(0, 1, "||", "^*"), (0, 2, "||", "*"), (1, 2, "<", "v")]
        );
        assert_eq!(c.values[0].atomic_weight.as_deref(), Some("1"));
        let c = calculate(&["1", "1/2", "{1|0}"]).unwrap();
        let ops: Vec<&str> = c.comparisons.iter().map(|p| p.comparison).collect();
        assert_eq!(ops, [">", "||", "||"]);
    }

    #[test]
    fn bad_notation_names_the_argument_and_boards_are_refused() {
        let e = calculate(&["1", "{1|"]).unwrap_err().to_string();
        assert!(e.contains("argument 2"), "{e}");
        assert!(calculate(&["domineering:..|.."]).is_err());
    }
}
