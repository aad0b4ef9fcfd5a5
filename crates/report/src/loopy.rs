//! Loopy values (`partizan loopy VALUE...`, Python's `partizan.loopy`):
//! the game graph's outcome with draws, whether it is a stopper, and a
//! stopper's simplest form; with another value, how the two compare.

use std::fmt::Write as _;
use std::time::Instant;

use partizan_core::Arena;
use partizan_loopy::display::display;
use partizan_loopy::parse::parse;
use partizan_loopy::sided::{side_by_deletion, side_eq};
use partizan_loopy::sides::{side, Side};
use partizan_loopy::stopper::as_short;
use partizan_loopy::stopper::{compare, simplest, stopper_le};
use partizan_loopy::stops::stops;
use partizan_loopy::valuation::value_all;
use partizan_loopy::{Graph, LoopyError, LoopyRules, Play, Relation};
use partizan_store::Store;
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
    /// Sidling rounds run (each side), when sides were sought; 0 for a
    /// side found on the game's graph by deleting the edges that do not
    /// change it (checked against the game by the comparison of sides).
    pub sidling_rounds: Option<(usize, usize)>,
    /// The value compared with, and the relation (`>`, `<`, `=`, `||`).
    pub compared: Option<(String, String)>,
    /// A stopper's Left and Right stops (numbers, `on` or `off`).
    pub stops: Option<(String, String)>,
    /// The thermograph, or why there is none: short games only (no
    /// thermography of loopy games is defined here).
    pub thermograph: Option<String>,
    /// The loopy ruleset, for a board.
    pub ruleset: Option<String>,
    /// Strongly connected parts of a board's graph valued one by one (a
    /// stopper board), and the distinct values among its positions.
    pub parts: Option<(usize, usize)>,
    /// Whether a board's value came from the store (checked against the
    /// board's graph before it was believed).
    pub from_store: bool,
    /// What happened with the store, when worth saying.
    pub store_note: Option<String>,
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
    let mut report = LoopyReport::of(joined(values), &g, g.is_stopper());
    if report.stopper {
        // A short form is written as core's canonical form by `display`.
        let s = simplest(&g, max_nodes)?;
        (report.stops, report.thermograph) = stops_and_thermograph(&s, &mut core)?;
        report.form = Some(display(&s, &mut core));
        report.form_positions = Some(s.len());
    } else {
        let why;
        (report.sides, report.sidling_rounds, why) = sided(&g, max_nodes, &mut core)?;
        report.no_form = Some(why);
    }
    if let Some(text) = other {
        let h = parse(text, &mut core, max_nodes)?;
        if !report.stopper {
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
        report.compared = Some((text.to_string(), r.to_string()));
    }
    report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

impl LoopyReport {
    /// What the graph alone says (root `g.root()`): positions, whether it
    /// is short, the outcome; nothing computed yet beyond.
    fn of(value: String, g: &Graph, stopper: bool) -> LoopyReport {
        let outcome = g.outcome();
        LoopyReport {
            value,
            positions: g.len(),
            stopper,
            short: g.short_nodes()[g.root() as usize],
            outcome: outcome.class(),
            left_first: outcome.left_first,
            right_first: outcome.right_first,
            form: None,
            form_positions: None,
            no_form: None,
            sides: None,
            sidling_rounds: None,
            compared: None,
            stops: None,
            thermograph: None,
            ruleset: None,
            parts: None,
            from_store: false,
            store_note: None,
            elapsed_ms: 0.0,
        }
    }
}

fn joined<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(" + ")
}

type Toolkit = (Option<(String, String)>, Option<String>);

/// A stopper's stops, and its thermograph when it is short (or why not).
fn stops_and_thermograph(form: &Graph, core: &mut Arena) -> Result<Toolkit, LoopyError> {
    let (l, r) = stops(form, core)?;
    let thermograph = match as_short(form, core)? {
        Some(v) => core
            .thermograph(v)
            .map_err(|e| LoopyError::Value(e.to_string()))?
            .cgsuite(),
        None => "none: thermographs are defined here for short games only (loopy thermography is \
not implemented)"
            .to_string(),
    };
    Ok((Some((l.to_string(), r.to_string())), Some(thermograph)))
}

/// Limits of a loopy board's analysis.
#[derive(Clone, Copy, Debug)]
pub struct BoardLimits {
    /// Most positions explored.
    pub max_positions: usize,
    /// Most positions in the graph of one strongly connected part (its
    /// positions plus the forms of the values its options reach).
    pub max_part: usize,
    /// Most positions of a graph that is not a stopper, whose sides are
    /// sought on the whole graph (deleting edges, then sidling).
    pub max_sidling: usize,
    /// The outcome only: no value, stops or sides.
    pub only_outcome: bool,
}

impl Default for BoardLimits {
    fn default() -> Self {
        BoardLimits {
            max_positions: 5_000_000,
            max_part: 2_000,
            max_sidling: 1_000,
            only_outcome: false,
        }
    }
}

/// What a long board analysis is doing: the stage, and how far it got.
pub type BoardProgress<'a> = &'a mut dyn FnMut(&str, usize, Option<usize>);

/// The report of a board of a loopy ruleset: its outcome with draws from
/// the whole position graph; a stopper's value from every strongly
/// connected part in turn; otherwise its sides on the whole graph, when it
/// is small enough.
pub fn loopy_board(
    rules: LoopyRules,
    board: &str,
    limits: &BoardLimits,
    store: Option<&Store>,
    progress: BoardProgress<'_>,
) -> Result<LoopyReport, LoopyError> {
    let start = Instant::now();
    let mut core = Arena::new();
    let (g, text) = rules.explore(board, limits.max_positions, &mut |n| {
        progress("exploring positions", n, None);
    })?;
    progress("outcomes", g.len(), None);
    let all: Vec<u32> = (0..g.len() as u32).collect();
    let mut report = LoopyReport::of(text, &g, g.is_stopper_from(&all));
    report.ruleset = Some(rules.name().to_string());
    let key = format!("loopy/{}/{}", rules.name(), report.value);
    if limits.only_outcome {
        report.no_form = Some("the outcome only was asked for".into());
        report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
        return Ok(report);
    }
    if let Some(stored) = store.and_then(|st| st.get_census(&key).ok().flatten()) {
        progress("checking the stored value", 0, None);
        if from_store(&g, &stored, &mut report, &mut core)?.is_some() {
            report.from_store = true;
            report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
            return Ok(report);
        }
        report.store_note =
            Some("the stored value did not check against the board's graph: computed again".into());
    }
    let mut report = finish_board(&g, report, limits, store, &key, progress, &mut core)?;
    report.elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

/// The value or sides of a board computed, and kept in the store (one it
/// can write) when there is one to keep.
fn finish_board(
    g: &Graph,
    mut report: LoopyReport,
    limits: &BoardLimits,
    store: Option<&Store>,
    key: &str,
    progress: BoardProgress<'_>,
    core: &mut Arena,
) -> Result<LoopyReport, LoopyError> {
    if report.stopper {
        let v = value_all(g, limits.max_part, &mut |done, total| {
            progress("valuing parts", done, Some(total));
        })?;
        let form = v.forms.form(v.values[0]).clone();
        (report.stops, report.thermograph) = stops_and_thermograph(&form, core)?;
        report.form = Some(display(&form, core));
        report.form_positions = Some(form.len());
        report.parts = Some((v.parts, v.forms.len()));
    } else if g.len() > limits.max_sidling {
        report.no_form = Some(format!(
            "not a stopper (some play alternates forever); its sides are sought on the \
whole graph, which is done for at most {} positions (this board has {})",
            limits.max_sidling,
            g.len()
        ));
    } else {
        progress("seeking the sides", 0, None);
        let why;
        (report.sides, report.sidling_rounds, why) =
            sided(g, limits.max_sidling.max(limits.max_part), core)?;
        report.no_form = Some(why);
    }
    if let Some(st) = store.filter(|st| !st.is_read_only()) {
        if report.form.is_some() || report.sides.is_some() {
            let kept = serde_json::json!({
                "version": 1,
                "form": report.form,
                "form_positions": report.form_positions,
                "parts": report.parts,
                "sides": report.sides,
                "sidling_rounds": report.sidling_rounds,
                "no_form": report.no_form,
            });
            if let Err(e) = st.put_census(key, &kept) {
                report.store_note = Some(format!("not kept in the store: {e}"));
            }
        }
    }
    Ok(report)
}

/// A stored value believed only when it checks against the board's own
/// graph `g`: a stopper board's form must be a stopper equal to it (each
/// `>=` the other by survival, one pass over the pairs of the board's
/// positions and the form's), a non-stopper's sides stoppers with the
/// board's onside and offside (the comparison of sides). Then the report
/// is filled from it (stops recomputed from the form) and `Some(())`;
/// `None` when anything is missing or does not check.
fn from_store(
    g: &Graph,
    stored: &serde_json::Value,
    report: &mut LoopyReport,
    core: &mut Arena,
) -> Result<Option<()>, LoopyError> {
    const MAX_FORM: usize = 100_000;
    if stored["version"] != 1 {
        return Ok(None);
    }
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    let stopper_of =
        |t: &str, core: &mut Arena| parse(t, core, MAX_FORM).ok().filter(Graph::is_stopper);
    let count = |v: &serde_json::Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
    let pair = |v: &serde_json::Value| match (count(&v[0]), count(&v[1])) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    if report.stopper {
        let Some(form) = text(&stored["form"]) else {
            return Ok(None);
        };
        let Some(s) = stopper_of(&form, core) else {
            return Ok(None);
        };
        if !(stopper_le(g, &s) && stopper_le(&s, g)) {
            return Ok(None);
        }
        // Written as this report writes it: the simplest form's text.
        let s = simplest(&s, MAX_FORM)?;
        (report.stops, report.thermograph) = stops_and_thermograph(&s, core)?;
        report.form = Some(display(&s, core));
        report.form_positions = count(&stored["form_positions"]);
        report.parts = pair(&stored["parts"]);
        return Ok(Some(()));
    }
    let (Some(on), Some(off)) = (text(&stored["sides"][0]), text(&stored["sides"][1])) else {
        return Ok(None);
    };
    let (Some(a), Some(b)) = (stopper_of(&on, core), stopper_of(&off, core)) else {
        return Ok(None);
    };
    if !(side_eq(g, &a, Side::On) && side_eq(g, &b, Side::Off)) {
        return Ok(None);
    }
    let (a, b) = (simplest(&a, MAX_FORM)?, simplest(&b, MAX_FORM)?);
    report.sides = Some((display(&a, core), display(&b, core)));
    report.sidling_rounds = pair(&stored["sidling_rounds"]);
    report.no_form = text(&stored["no_form"]);
    Ok(Some(()))
}

/// One side: found on the graph by deleting the edges that do not change
/// it (checked against the game by the comparison of sides; 0 rounds), or
/// else by sidling (the rounds it took).
fn one_side(
    g: &Graph,
    which: Side,
    max_nodes: usize,
) -> Result<Option<(Graph, usize)>, LoopyError> {
    if let Some(s) = side_by_deletion(g, which, max_nodes)? {
        return Ok(Some((s, 0)));
    }
    side(g, which, SIDLING_ROUNDS, max_nodes)
}

type Sided = (Option<(String, String)>, Option<(usize, usize)>, String);

/// A non-stopper's sides with how they were found, and what it is.
fn sided(g: &Graph, max_nodes: usize, core: &mut Arena) -> Result<Sided, LoopyError> {
    let on = one_side(g, Side::On, max_nodes)?;
    let off = one_side(g, Side::Off, max_nodes)?;
    Ok(match (on, off) {
        (Some((a, ra)), Some((b, rb))) => {
            let (a, b) = (display(&a, core), display(&b, core));
            // Simplest forms are unique, so equal sides print alike.
            let why = if a == b {
                format!(
                    "not a stopper (some play alternates forever): stopper-sided, G = onside & \
offside, and the two sides are equal, so G = {a}"
                )
            } else {
                "not a stopper (some play alternates forever): stopper-sided, G = onside & offside"
                    .to_string()
            };
            (Some((a, b)), Some((ra, rb)), why)
        }
        _ => (
            None,
            None,
            format!(
                "not a stopper (some play alternates forever), and sidling did not settle \
within {SIDLING_ROUNDS} rounds: no onside and offside (it is not stopper-sided, or needs more \
rounds)"
            ),
        ),
    })
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
        let name = match &self.ruleset {
            Some(r) => format!("{r} {}", self.value),
            None => self.value.clone(),
        };
        let _ = writeln!(out, "{name}: {kind}, {} positions", self.positions);
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
                    let how = |r: usize| {
                        if r == 0 {
                            "by deleting the edges that do not change it".to_string()
                        } else {
                            format!("in {r} rounds of sidling")
                        }
                    };
                    let _ = writeln!(
                        out,
                        "{on} & {off} (onside {}, offside {})",
                        how(ra),
                        how(rb)
                    );
                }
            }
            _ => {}
        }
        if let Some((l, r)) = &self.stops {
            let _ = writeln!(out, "stops: Left {l}, Right {r}");
        }
        if let Some(t) = &self.thermograph {
            let _ = writeln!(out, "thermograph {t}");
        }
        if let Some((parts, values)) = self.parts {
            let _ = writeln!(
                out,
                "valued in {parts} strongly connected parts; {values} distinct values among its positions"
            );
        }
        if let Some((h, r)) = &self.compared {
            let _ = writeln!(out, "{} {r} {h}", self.value);
        }
        if self.from_store {
            let _ = writeln!(
                out,
                "from the store (checked against the board's graph before it was believed)"
            );
        }
        if let Some(note) = &self.store_note {
            let _ = writeln!(out, "store: {note}");
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

    /// A stored board value is believed only when it checks against the
    /// board's graph: a forged form or forged sides are computed again.
    #[test]
    fn stored_values_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let st = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let limits = BoardLimits::default();
        let mut quiet = |_: &str, _: usize, _: Option<usize>| {};
        let fg = LoopyRules::FoxAndGeese;
        let board = ".F..|....|....|G.G.";
        let first = loopy_board(fg, board, &limits, Some(&st), &mut quiet).unwrap();
        assert_eq!(first.form.as_deref(), Some("over"));
        assert!(!first.from_store);
        let again = loopy_board(fg, board, &limits, Some(&st), &mut quiet).unwrap();
        assert!(again.from_store);
        assert_eq!(
            (again.form, again.stops),
            (first.form.clone(), first.stops.clone())
        );
        // Forgeries: another value, a non-stopper, garbage, another version.
        let key = format!("loopy/fox-and-geese/{board}");
        for forged in [
            serde_json::json!({"version": 1, "form": "1/1024"}),
            serde_json::json!({"version": 1, "form": "dud"}),
            serde_json::json!({"version": 1, "form": "{0|"}),
            serde_json::json!({"version": 2, "form": "over"}),
            serde_json::json!(["over"]),
        ] {
            st.put_census(&key, &forged).unwrap();
            let r = loopy_board(fg, board, &limits, Some(&st), &mut quiet).unwrap();
            assert!(!r.from_store, "{forged}");
            assert_eq!(r.form.as_deref(), Some("over"), "{forged}");
        }
        // The same value written otherwise is the value: believed, and
        // printed in simplest form.
        st.put_census(
            &key,
            &serde_json::json!({"version": 1, "form": "{0|{0|pass}}"}),
        )
        .unwrap();
        let r = loopy_board(fg, board, &limits, Some(&st), &mut quiet).unwrap();
        assert!(r.from_store);
        assert_eq!(r.form.as_deref(), Some("over"));
        // The recomputation replaced the forgery.
        let r = loopy_board(fg, board, &limits, Some(&st), &mut quiet).unwrap();
        assert!(r.from_store);
        // Sides of a non-stopper: T..F is * & *; forged sides are refused.
        let btf = LoopyRules::BackslidingToads;
        let r = loopy_board(btf, "T..F", &limits, Some(&st), &mut quiet).unwrap();
        assert_eq!(r.sides, Some(("*".into(), "*".into())));
        for sides in [["0", "0"], ["*", "0"], ["on", "*"], ["dud", "*"]] {
            st.put_census(
                "loopy/backsliding-toads/T..F",
                &serde_json::json!({"version": 1, "sides": sides}),
            )
            .unwrap();
            let r = loopy_board(btf, "T..F", &limits, Some(&st), &mut quiet).unwrap();
            assert!(!r.from_store, "{sides:?}");
            assert_eq!(r.sides, Some(("*".into(), "*".into())));
        }
        let r = loopy_board(btf, "T..F", &limits, Some(&st), &mut quiet).unwrap();
        assert!(r.from_store);
    }
}
