//! The essays' open questions about the packing readings, each one table
//! computed from a finished census (`partizan census ... --analyses`).
//!
//! Domineering ([`domineering`]):
//!
//! * the *magnitude rule on the hot regions*: sorted by what the count
//!   says (0, 1, 2, more), how often it lies between the two stops;
//! * *shading toward nought*: the count moved a fixed amount toward 0
//!   (uniformly, and with one amount per magnitude) and the exact hits each
//!   repair is worth;
//! * the *long even runs*: the correlation of the error with the share of
//!   cells in even runs of at least 4 (or 6) cells;
//! * *the seventy*: integer values whose count is another integer, and how
//!   many of them the interval catches;
//! * a *second catalogue*: regions with holes apart from simply connected
//!   ones, each with the census's readings.
//!
//! Cram ([`cram`]): the impartial analogue of the packing reading. Every
//! play of Cram ends on a maximal packing of dominoes, so the game lasts
//! between the smallest maximal packing and the largest packing; when the
//! two coincide the length is fixed and its parity decides who wins. The
//! reading is the parity of the largest (or smallest maximal) packing
//! against the nim-value's outcome.
//!
//! ```text
//!   ...   3x3 minus a corner with the centre a hole: seven cells
//!   .#.   around one hole, the smallest region that is not simply
//!   ..    connected
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use partizan_core::Dyadic;
use rayon::prelude::*;
use serde::Serialize;

use crate::census::{Census, CensusError, CramCensus, Invariant, ShapeRecord};
use crate::readings::{all_edges, max_matching, min_maximal_matching};
use crate::report::{magnitude, CensusReport, ErrorDistribution, HitRate, Tally};
use crate::shape::Shape;

/// Whether a region is not simply connected: some cell of its box outside
/// the region cannot reach the box's border through other such cells.
#[must_use]
pub fn has_hole(shape: &Shape) -> bool {
    let (w, h) = (shape.width() + 2, shape.height() + 2);
    let inside = |r: usize, c: usize| {
        r >= 1
            && c >= 1
            && r <= shape.height()
            && c <= shape.width()
            && shape.contains(r - 1, c - 1)
    };
    let mut seen = vec![false; w * h];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((r, c)) = stack.pop() {
        let mut visit = |r: usize, c: usize| {
            if !seen[r * w + c] && !inside(r, c) {
                seen[r * w + c] = true;
                stack.push((r, c));
            }
        };
        if r > 0 {
            visit(r - 1, c);
        }
        if r + 1 < h {
            visit(r + 1, c);
        }
        if c > 0 {
            visit(r, c - 1);
        }
        if c + 1 < w {
            visit(r, c + 1);
        }
    }
    (0..h).any(|r| (0..w).any(|c| !inside(r, c) && !seen[r * w + c]))
}

/// For each cell of a shape (row-major), the lengths of the horizontal and
/// the vertical run through it.
#[must_use]
pub fn cell_runs(shape: &Shape) -> Vec<(u32, u32)> {
    let (w, h) = (shape.width(), shape.height());
    let run = |r: usize, c: usize, dr: usize, dc: usize| -> u32 {
        // walk back to the run's start, then forward to its end
        let (mut r0, mut c0) = (r, c);
        while r0 >= dr && c0 >= dc && shape.contains(r0 - dr, c0 - dc) {
            r0 -= dr;
            c0 -= dc;
        }
        let mut len = 0;
        let (mut r1, mut c1) = (r0, c0);
        while r1 < h && c1 < w && shape.contains(r1, c1) {
            len += 1;
            r1 += dr;
            c1 += dc;
        }
        len
    };
    let mut out = Vec::with_capacity(shape.len());
    for r in 0..h {
        for c in 0..w {
            if shape.contains(r, c) {
                out.push((run(r, c, 0, 1), run(r, c, 1, 0)));
            }
        }
    }
    out
}

fn to_f64(d: Dyadic) -> f64 {
    d.num() as f64 / (1u64 << d.exp()) as f64
}

/// Pearson's correlation; `None` with fewer than two points or no spread.
fn pearson(xy: &[(f64, f64)]) -> Option<f64> {
    let n = xy.len() as f64;
    if xy.len() < 2 {
        return None;
    }
    let (mx, my) = xy
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in xy {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// How often the count lies between the stops, among the non-number
/// regions whose count has one magnitude.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HotRate {
    /// Non-number regions with this count magnitude.
    pub shapes: u64,
    /// Of those, `RS <= count <= LS`.
    pub count_between_stops: u64,
    /// Of those, the interval meets `[RS, LS]`.
    pub interval_meets_stops: u64,
}

/// Exact hits and mean absolute error of the count shaded by one amount.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShadeRow {
    /// The amount every non-zero count is moved toward 0 (never past it).
    pub shade: String,
    /// Number-valued regions the shaded count equals.
    pub exact: u64,
    /// Mean of `|shaded count - value|`.
    pub mean_abs_error: f64,
}

/// The shading of one magnitude class on its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MagnitudeShade {
    /// `"1"`, `"2"` or `"more"`.
    pub magnitude: String,
    /// Number-valued regions in the class.
    pub shapes: u64,
    /// Every candidate amount on this class.
    pub rows: Vec<ShadeRow>,
    /// The amount with the most exact hits (the smallest on a tie).
    pub best_shade: String,
    /// Its exact hits.
    pub best_exact: u64,
}

/// "Take the count and shade it toward nought": the repair and its worth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shading {
    /// Number-valued regions.
    pub shapes: u64,
    /// Exact hits of the count as it is.
    pub unshaded_exact: u64,
    /// One amount for every count: each candidate (0 to 1 in quarters).
    pub uniform: Vec<ShadeRow>,
    /// The best uniform amount.
    pub best_uniform: String,
    /// Its exact hits.
    pub best_uniform_exact: u64,
    /// One amount per magnitude, each chosen on the same data it is scored
    /// on (an in-sample fit, so an upper bound on what the rule is worth).
    pub by_magnitude: Vec<MagnitudeShade>,
    /// Exact hits with the best amount per magnitude (count-0 hits included).
    pub by_magnitude_exact: u64,
}

/// Share of a region's cells in long even runs, grouped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShareBin {
    /// The range of the share, e.g. `"0"`, `"(0, 1/2]"`, `"(1/2, 1]"`.
    pub share: String,
    /// Regions in the bin.
    pub shapes: u64,
    /// Of those, exact.
    pub exact: u64,
    /// Mean `|count - value|`.
    pub mean_abs_error: f64,
    /// Mean exaggeration `sign(count) (count - value)` over non-zero counts.
    pub mean_exaggeration: Option<f64>,
}

/// The error against the share of cells in long even runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunCorrelation {
    /// Even runs of at least this many cells count as long.
    pub min_len: u32,
    /// `"either"`: a cell counts when its row run or its column run is long
    /// and even; `"favoured"`: only the run of the player the count
    /// favours (columns when the count is positive, rows when negative;
    /// regions with count 0 left out).
    pub direction: &'static str,
    /// Number-valued regions in this population.
    pub shapes: u64,
    /// Correlation of the share with `|count - value|`.
    pub r_abs_error: Option<f64>,
    /// Regions with a non-zero count.
    pub nonzero: u64,
    /// Correlation of the share with the exaggeration
    /// `sign(count) (count - value)` (positive: further from 0 than the
    /// value), over non-zero counts.
    pub r_exaggeration: Option<f64>,
    /// Correlation of `|count|` with the exaggeration (the correlate the
    /// essay did test).
    pub r_exaggeration_magnitude: Option<f64>,
    /// Correlation of the share with `|count|`.
    pub r_share_magnitude: Option<f64>,
    /// Partial correlation of the share with the exaggeration, `|count|`
    /// held fixed: what the long runs say beyond the magnitude.
    pub partial: Option<f64>,
    /// The population by share.
    pub bins: Vec<ShareBin>,
}

/// Integer values whose count is a different integer.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Seventy {
    /// Regions worth an integer other than their count.
    pub shapes: u64,
    /// `count - value` over them.
    pub discrepancy: ErrorDistribution,
    /// Of them, the interval contains the value.
    pub caught: u64,
    /// Missed with a point interval (nobody can waste a move).
    pub missed_point: u64,
    /// Missed by an interval of some width that extends on the other side.
    pub missed_other_side: u64,
    /// Per size: (regions, caught).
    pub by_size: BTreeMap<usize, (u64, u64)>,
}

/// Exact and contained among number-valued regions with and without a
/// point interval.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PointSplit {
    /// Number-valued regions whose interval is a point.
    pub point: HitRate,
    /// Number-valued regions whose interval is wider.
    pub wide: HitRate,
}

/// The census readings over one class of regions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassReadings {
    /// Regions in the class per size.
    pub by_size: BTreeMap<usize, u64>,
    /// The census tally over the class.
    pub totals: Tally,
    /// Number-valued regions by what the count says.
    pub by_count: BTreeMap<String, HitRate>,
    /// Point and wide intervals.
    pub points: PointSplit,
}

/// The Domineering analyses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DomineeringAnalyses {
    /// Always `"domineering"`.
    pub ruleset: &'static str,
    /// Largest region size.
    pub max_cells: usize,
    /// Non-number regions by what the count says.
    pub hot_by_count: BTreeMap<String, HotRate>,
    /// The same at the largest size.
    pub hot_by_count_largest: BTreeMap<String, HotRate>,
    /// Number-valued regions whose count is 0 at the largest size.
    pub count_zero_largest: HitRate,
    /// Shading the count toward nought.
    pub shading: Shading,
    /// Error against long even runs (thresholds 4 and 6, both directions).
    pub long_even_runs: Vec<RunCorrelation>,
    /// The seventy.
    pub seventy: Seventy,
    /// Exact among point and wide intervals.
    pub points: PointSplit,
    /// Simply connected regions.
    pub simply_connected: ClassReadings,
    /// Regions with holes.
    pub with_holes: ClassReadings,
}

fn point_split<'a>(records: impl Iterator<Item = &'a ShapeRecord>) -> PointSplit {
    let mut p = PointSplit::default();
    for r in records.filter(|r| r.number.is_some()) {
        let h = if r.reading.is_point() {
            &mut p.point
        } else {
            &mut p.wide
        };
        h.shapes += 1;
        h.exact += u64::from(r.exact());
        h.contained += u64::from(r.contained());
    }
    p
}

fn class_readings(max_cells: usize, records: &[ShapeRecord]) -> Result<ClassReadings, CensusError> {
    let t = CensusReport::tally(max_cells, records)?;
    let mut by_size = BTreeMap::new();
    for r in records {
        *by_size.entry(r.cells()).or_insert(0) += 1;
    }
    Ok(ClassReadings {
        by_size,
        totals: t.totals,
        by_count: t.by_count,
        points: point_split(records.iter()),
    })
}

/// The count moved `quarters / 4` toward 0, never past it.
fn shaded(count: i64, quarters: i64) -> Result<Dyadic, CensusError> {
    let q = (4 * count.abs() - quarters).max(0) * count.signum();
    Ok(Dyadic::new(q, 2)?)
}

fn shade_row(numbers: &[(i64, Dyadic)], quarters: i64) -> Result<ShadeRow, CensusError> {
    let mut exact = 0;
    let mut abs = 0.0;
    for &(c, v) in numbers {
        let s = shaded(c, quarters)?;
        exact += u64::from(s == v);
        abs += to_f64(s.checked_sub(v)?).abs();
    }
    Ok(ShadeRow {
        shade: Dyadic::new(quarters, 2)?.to_string(),
        exact,
        mean_abs_error: if numbers.is_empty() {
            0.0
        } else {
            abs / numbers.len() as f64
        },
    })
}

/// The first row with the most exact hits.
fn best(rows: &[ShadeRow]) -> (String, u64) {
    let mut b = (String::from("0"), 0);
    for (i, r) in rows.iter().enumerate() {
        if i == 0 || r.exact > b.1 {
            b = (r.shade.clone(), r.exact);
        }
    }
    b
}

fn shading(records: &[ShapeRecord]) -> Result<Shading, CensusError> {
    let numbers: Vec<(i64, Dyadic)> = records
        .iter()
        .filter_map(|r| r.number.map(|v| (r.reading.count, v)))
        .collect();
    let uniform = (0..=4)
        .map(|q| shade_row(&numbers, q))
        .collect::<Result<Vec<_>, _>>()?;
    let (best_uniform, best_uniform_exact) = best(&uniform);
    let zero_exact = numbers
        .iter()
        .filter(|&&(c, v)| c == 0 && v == Dyadic::ZERO)
        .count() as u64;
    let mut by_magnitude = Vec::new();
    let mut total = zero_exact;
    for m in ["1", "2", "more"] {
        let class: Vec<(i64, Dyadic)> = numbers
            .iter()
            .copied()
            .filter(|&(c, _)| magnitude(c) == m)
            .collect();
        let rows = (0..=4)
            .map(|q| shade_row(&class, q))
            .collect::<Result<Vec<_>, _>>()?;
        let (best_shade, best_exact) = best(&rows);
        total += best_exact;
        by_magnitude.push(MagnitudeShade {
            magnitude: m.to_string(),
            shapes: class.len() as u64,
            rows,
            best_shade,
            best_exact,
        });
    }
    Ok(Shading {
        shapes: numbers.len() as u64,
        unshaded_exact: uniform[0].exact,
        uniform,
        best_uniform,
        best_uniform_exact,
        by_magnitude,
        by_magnitude_exact: total,
    })
}

/// One number-valued region's figures for the run analysis.
struct RunPoint {
    share: f64,
    abs_error: f64,
    /// `Some(exaggeration)` when the count is not 0.
    exaggeration: Option<f64>,
    magnitude: f64,
    exact: bool,
}

fn long_share(r: &ShapeRecord, min_len: u32, direction: &str) -> Option<f64> {
    let long = |l: u32| l >= min_len && l.is_multiple_of(2);
    let runs = cell_runs(&r.shape);
    let c = r.reading.count;
    let hit = |&(h, v): &(u32, u32)| match direction {
        "either" => long(h) || long(v),
        _ if c > 0 => long(v),
        _ => long(h),
    };
    if direction == "favoured" && c == 0 {
        return None;
    }
    Some(runs.iter().filter(|x| hit(x)).count() as f64 / runs.len() as f64)
}

fn run_correlation(
    records: &[ShapeRecord],
    min_len: u32,
    direction: &'static str,
) -> Result<RunCorrelation, CensusError> {
    let mut pts = Vec::new();
    for r in records {
        let (Some(v), Some(share)) = (r.number, long_share(r, min_len, direction)) else {
            continue;
        };
        let c = r.reading.count;
        let e = to_f64(Dyadic::from_int(c).checked_sub(v)?);
        pts.push(RunPoint {
            share,
            abs_error: e.abs(),
            exaggeration: (c != 0).then(|| c.signum() as f64 * e),
            magnitude: c.unsigned_abs() as f64,
            exact: r.exact(),
        });
    }
    let xy = |f: &dyn Fn(&RunPoint) -> Option<(f64, f64)>| -> Vec<(f64, f64)> {
        pts.iter().filter_map(f).collect()
    };
    let r_abs_error = pearson(&xy(&|p| Some((p.share, p.abs_error))));
    let se = pearson(&xy(&|p| p.exaggeration.map(|e| (p.share, e))));
    let me = pearson(&xy(&|p| p.exaggeration.map(|e| (p.magnitude, e))));
    let sm = pearson(&xy(&|p| p.exaggeration.map(|_| (p.share, p.magnitude))));
    let partial = match (se, me, sm) {
        (Some(se), Some(me), Some(sm)) if me.abs() < 1.0 && sm.abs() < 1.0 => {
            Some((se - me * sm) / ((1.0 - me * me) * (1.0 - sm * sm)).sqrt())
        }
        _ => None,
    };
    let mut bins = Vec::new();
    for (label, lo, hi) in [
        ("0", -1.0, 0.0),
        ("(0, 1/2]", 0.0, 0.5),
        ("(1/2, 1]", 0.5, 1.0),
    ] {
        let inb: Vec<&RunPoint> = pts
            .iter()
            .filter(|p| p.share > lo && p.share <= hi)
            .collect();
        let n = inb.len();
        let ex: Vec<f64> = inb.iter().filter_map(|p| p.exaggeration).collect();
        bins.push(ShareBin {
            share: label.to_string(),
            shapes: n as u64,
            exact: inb.iter().filter(|p| p.exact).count() as u64,
            mean_abs_error: if n == 0 {
                0.0
            } else {
                inb.iter().map(|p| p.abs_error).sum::<f64>() / n as f64
            },
            mean_exaggeration: (!ex.is_empty()).then(|| ex.iter().sum::<f64>() / ex.len() as f64),
        });
    }
    Ok(RunCorrelation {
        min_len,
        direction,
        shapes: pts.len() as u64,
        r_abs_error,
        nonzero: pts.iter().filter(|p| p.exaggeration.is_some()).count() as u64,
        r_exaggeration: se,
        r_exaggeration_magnitude: me,
        r_share_magnitude: sm,
        partial,
        bins,
    })
}

fn seventy(records: &[ShapeRecord]) -> Result<Seventy, CensusError> {
    let mut s = Seventy::default();
    for r in records {
        let Some(v) = r.number else { continue };
        if !v.is_integer() || r.exact() {
            continue;
        }
        s.shapes += 1;
        let e = Dyadic::from_int(r.reading.count).checked_sub(v)?;
        *s.discrepancy.0.entry(e).or_insert(0) += 1;
        let size = s.by_size.entry(r.cells()).or_insert((0, 0));
        size.0 += 1;
        if r.contained() {
            s.caught += 1;
            size.1 += 1;
        } else if r.reading.is_point() {
            s.missed_point += 1;
        } else {
            s.missed_other_side += 1;
        }
    }
    Ok(s)
}

/// Every Domineering analysis over a finished census.
pub fn domineering(census: &Census) -> Result<DomineeringAnalyses, CensusError> {
    let records = &census.records;
    let max_cells = census.max_cells;
    let mut hot_by_count: BTreeMap<String, HotRate> = BTreeMap::new();
    let mut hot_by_count_largest: BTreeMap<String, HotRate> = BTreeMap::new();
    let mut count_zero_largest = HitRate::default();
    for r in records {
        if r.number.is_some() {
            if r.cells() == max_cells && r.reading.count == 0 {
                count_zero_largest.shapes += 1;
                count_zero_largest.exact += u64::from(r.exact());
                count_zero_largest.contained += u64::from(r.contained());
            }
            continue;
        }
        let key = magnitude(r.reading.count).to_string();
        for (map, on) in [
            (&mut hot_by_count, true),
            (&mut hot_by_count_largest, r.cells() == max_cells),
        ] {
            if on {
                let h = map.entry(key.clone()).or_default();
                h.shapes += 1;
                h.count_between_stops += u64::from(r.count_between_stops());
                h.interval_meets_stops += u64::from(r.interval_meets_stops());
            }
        }
    }
    let mut long_even_runs = Vec::new();
    for min_len in [4, 6] {
        for direction in ["either", "favoured"] {
            long_even_runs.push(run_correlation(records, min_len, direction)?);
        }
    }
    let (holed, simple): (Vec<ShapeRecord>, Vec<ShapeRecord>) =
        records.iter().cloned().partition(|r| has_hole(&r.shape));
    Ok(DomineeringAnalyses {
        ruleset: "domineering",
        max_cells,
        hot_by_count,
        hot_by_count_largest,
        count_zero_largest,
        shading: shading(records)?,
        long_even_runs,
        seventy: seventy(records)?,
        points: point_split(records.iter()),
        simply_connected: class_readings(max_cells, &simple)?,
        with_holes: class_readings(max_cells, &holed)?,
    })
}

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// One line of a text table: each cell right-aligned to its width.
fn table_line(s: &mut String, widths: &[usize], cells: &[&dyn std::fmt::Display]) {
    let parts: Vec<String> = widths
        .iter()
        .zip(cells)
        .map(|(w, c)| format!("{:>w$}", c.to_string()))
        .collect();
    let _ = writeln!(s, "{}", parts.join(" "));
}

/// The analyses as pretty-printed JSON.
fn pretty<T: Serialize>(x: &T) -> Result<String, CensusError> {
    Ok(serde_json::to_string_pretty(x)?)
}

fn corr(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_string(), |x| format!("{x:+.2}"))
}

impl DomineeringAnalyses {
    /// The analyses as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, CensusError> {
        pretty(self)
    }

    /// The analyses as text tables.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let n = self.max_cells;
        let _ = writeln!(
            s,
            "Analyses (Domineering regions of up to {n} cells)\n\nThe magnitude rule on the regions not worth numbers: count between the stops"
        );
        let _ = writeln!(
            s,
            "{:>10} {:>7} {:>8} {:>8} {:>6} | at {n} cells: {:>6} {:>8} {:>6}",
            "count says", "shapes", "between", "between%", "meets", "shapes", "between", "meets"
        );
        for (k, h) in &self.hot_by_count {
            let l = self
                .hot_by_count_largest
                .get(k)
                .cloned()
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "{:>10} {:>7} {:>8} {:>7.0}% {:>6} | {:>17} {:>8} {:>6}",
                k,
                h.shapes,
                h.count_between_stops,
                pct(h.count_between_stops, h.shapes),
                h.interval_meets_stops,
                l.shapes,
                l.count_between_stops,
                l.interval_meets_stops
            );
        }
        let z = &self.count_zero_largest;
        let _ = writeln!(
            s,
            "Count 0 on {} number-valued regions of {n} cells: exact on {}, wrong on {}",
            z.shapes,
            z.exact,
            z.shapes - z.exact
        );

        let sh = &self.shading;
        let _ = writeln!(
            s,
            "\nShading the count toward nought ({} number-valued regions, {} exact unshaded)",
            sh.shapes, sh.unshaded_exact
        );
        let _ = write!(s, "{:>16}", "shade");
        for r in &sh.uniform {
            let _ = write!(s, " {:>6}", r.shade);
        }
        let _ = writeln!(s);
        let _ = write!(s, "{:>16}", "uniform: exact");
        for r in &sh.uniform {
            let _ = write!(s, " {:>6}", r.exact);
        }
        let _ = writeln!(s);
        let _ = write!(s, "{:>16}", "mean |error|");
        for r in &sh.uniform {
            let _ = write!(s, " {:>6.3}", r.mean_abs_error);
        }
        let _ = writeln!(s);
        for m in &sh.by_magnitude {
            let _ = write!(s, "{:>16}", format!("count {} ({})", m.magnitude, m.shapes));
            for r in &m.rows {
                let _ = write!(s, " {:>6}", r.exact);
            }
            let _ = writeln!(s, "   best {}", m.best_shade);
        }
        let _ = writeln!(
            s,
            "Best uniform shade {}: {} exact ({:+}); best shade per magnitude (fitted on these same regions): {} exact ({:+})",
            sh.best_uniform,
            sh.best_uniform_exact,
            sh.best_uniform_exact as i64 - sh.unshaded_exact as i64,
            sh.by_magnitude_exact,
            sh.by_magnitude_exact as i64 - sh.unshaded_exact as i64
        );

        let _ = writeln!(
            s,
            "\nThe error against the share of cells in long even runs (Pearson r; exaggeration = sign(count)(count - value))"
        );
        let _ = writeln!(
            s,
            "{:>7} {:>9} {:>6} {:>11} {:>7} {:>13} {:>12} {:>11} {:>9}",
            "min len",
            "runs",
            "shapes",
            "r(|error|)",
            "count≠0",
            "r(exaggerate)",
            "r(|count|,ex)",
            "r(share,|c|)",
            "partial"
        );
        for c in &self.long_even_runs {
            let _ = writeln!(
                s,
                "{:>7} {:>9} {:>6} {:>11} {:>7} {:>13} {:>12} {:>11} {:>9}",
                c.min_len,
                c.direction,
                c.shapes,
                corr(c.r_abs_error),
                c.nonzero,
                corr(c.r_exaggeration),
                corr(c.r_exaggeration_magnitude),
                corr(c.r_share_magnitude),
                corr(c.partial)
            );
        }
        if let Some(c) = self.long_even_runs.first() {
            let _ = writeln!(
                s,
                "By share (even runs of {}+, either direction): share, shapes, exact, mean |error|, mean exaggeration",
                c.min_len
            );
            for b in &c.bins {
                let _ = writeln!(
                    s,
                    "{:>10} {:>6} {:>6} {:>7.3} {:>8}",
                    b.share,
                    b.shapes,
                    b.exact,
                    b.mean_abs_error,
                    b.mean_exaggeration
                        .map_or_else(|| "-".to_string(), |x| format!("{x:+.3}"))
                );
            }
        }

        let sv = &self.seventy;
        let disc: Vec<String> = sv
            .discrepancy
            .0
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        let _ = writeln!(
            s,
            "\nThe seventy: {} regions worth an integer other than their count (count - value: {})",
            sv.shapes,
            disc.join(", ")
        );
        let _ = writeln!(
            s,
            "The interval catches {} ({:.0}%); missed {} with a point interval, {} by an interval wide on the other side",
            sv.caught,
            pct(sv.caught, sv.shapes),
            sv.missed_point,
            sv.missed_other_side
        );
        let by: Vec<String> = sv
            .by_size
            .iter()
            .map(|(k, (a, b))| format!("{k} cells {b}/{a}"))
            .collect();
        let _ = writeln!(s, "Caught by size: {}", by.join(", "));

        let _ = writeln!(
            s,
            "\nPoint intervals: count exact on {} of {} ({:.0}%); wider intervals: exact on {} of {} ({:.0}%), contained {} ({:.0}%)",
            self.points.point.exact,
            self.points.point.shapes,
            pct(self.points.point.exact, self.points.point.shapes),
            self.points.wide.exact,
            self.points.wide.shapes,
            pct(self.points.wide.exact, self.points.wide.shapes),
            self.points.wide.contained,
            pct(self.points.wide.contained, self.points.wide.shapes)
        );

        let _ = writeln!(
            s,
            "\nSecond catalogue: regions with holes apart from simply connected ones"
        );
        const HOLES: [usize; 9] = [17, 7, 7, 6, 9, 6, 6, 8, 12];
        table_line(
            &mut s,
            &HOLES,
            &[
                &"",
                &"shapes",
                &"numbers",
                &"exact",
                &"contained",
                &"points",
                &"hot",
                &"between",
                &"point exact",
            ],
        );
        for (label, c) in [
            ("simply connected", &self.simply_connected),
            ("with holes", &self.with_holes),
        ] {
            let t = &c.totals;
            table_line(
                &mut s,
                &HOLES,
                &[
                    &label,
                    &t.shapes,
                    &t.numbers,
                    &t.exact,
                    &t.contained,
                    &t.points,
                    &t.hot,
                    &t.count_between_stops,
                    &format!("{}/{}", c.points.point.exact, c.points.point.shapes),
                ],
            );
        }
        let sizes: Vec<String> = self
            .with_holes
            .by_size
            .iter()
            .map(|(k, v)| format!("{k} cells: {v}"))
            .collect();
        let _ = writeln!(
            s,
            "Regions with holes by size: {}",
            if sizes.is_empty() {
                "none".to_string()
            } else {
                sizes.join(", ")
            }
        );
        s
    }
}

/// The packing reading over a class of Cram regions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CramPackingTally {
    /// Regions.
    pub shapes: u64,
    /// Of those, nim-value 0 (the player to move loses).
    pub p_positions: u64,
    /// Largest packing = smallest maximal packing: the game length is fixed.
    pub points: u64,
    /// The largest packing's parity gives the outcome (odd: the first
    /// player wins).
    pub max_parity_right: u64,
    /// The smallest maximal packing's parity gives the outcome.
    pub min_parity_right: u64,
    /// Regions whose packings differ.
    pub wide: u64,
    /// Of those, the largest packing's parity is right.
    pub wide_max_parity_right: u64,
    /// Of those, the smallest maximal packing's parity is right.
    pub wide_min_parity_right: u64,
    /// Sum of `largest - smallest maximal` over the regions.
    pub width_total: u64,
}

impl CramPackingTally {
    fn add(&mut self, max: u32, min: u32, nim: u32) {
        let n = nim != 0;
        let max_right = (max % 2 == 1) == n;
        let min_right = (min % 2 == 1) == n;
        self.shapes += 1;
        self.p_positions += u64::from(!n);
        self.max_parity_right += u64::from(max_right);
        self.min_parity_right += u64::from(min_right);
        self.width_total += u64::from(max - min);
        if max == min {
            self.points += 1;
        } else {
            self.wide += 1;
            self.wide_max_parity_right += u64::from(max_right);
            self.wide_min_parity_right += u64::from(min_right);
        }
    }
}

/// The Cram analyses: packing parity against the nim-value's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CramAnalyses {
    /// Always `"cram"`.
    pub ruleset: &'static str,
    /// Largest region size.
    pub max_cells: usize,
    /// Over every region.
    pub totals: CramPackingTally,
    /// Per size.
    pub by_size: BTreeMap<usize, CramPackingTally>,
    /// Simply connected regions.
    pub simply_connected: CramPackingTally,
    /// Regions with holes.
    pub with_holes: CramPackingTally,
}

/// The Cram analyses over a finished census; refuses (an invariant error
/// naming the region) if a region with a fixed game length has the other
/// outcome than that length's parity.
pub fn cram(census: &CramCensus) -> Result<CramAnalyses, CensusError> {
    let packings: Vec<(u32, u32, bool)> = census
        .records
        .par_iter()
        .map(|r| {
            let e = all_edges(&r.shape);
            (
                max_matching(&e),
                min_maximal_matching(&e),
                has_hole(&r.shape),
            )
        })
        .collect();
    let mut a = CramAnalyses {
        ruleset: "cram",
        max_cells: census.max_cells,
        totals: CramPackingTally::default(),
        by_size: BTreeMap::new(),
        simply_connected: CramPackingTally::default(),
        with_holes: CramPackingTally::default(),
    };
    for (r, &(max, min, holed)) in census.records.iter().zip(&packings) {
        if max == min && (max % 2 == 1) != (r.nim != 0) {
            return Err(CensusError::Invariant {
                invariant: Invariant::PointDecidesCram,
                shape: r.shape.to_text(),
                detail: format!(
                    "every play lasts {max} moves but the nim-value is {}",
                    r.nim
                ),
            });
        }
        a.totals.add(max, min, r.nim);
        a.by_size
            .entry(r.shape.len())
            .or_default()
            .add(max, min, r.nim);
        if holed {
            a.with_holes.add(max, min, r.nim);
        } else {
            a.simply_connected.add(max, min, r.nim);
        }
    }
    Ok(a)
}

impl CramAnalyses {
    /// The analyses as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, CensusError> {
        pretty(self)
    }

    /// The analyses as text tables.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Analyses (Cram regions of up to {} cells): the parity of a packing against the outcome",
            self.max_cells
        );
        let _ = writeln!(
            s,
            "(odd predicts a first-player win, nim-value not 0; a point is a region whose largest and smallest maximal packings coincide)\n"
        );
        const CRAM: [usize; 9] = [17, 7, 6, 6, 10, 10, 6, 15, 15];
        table_line(
            &mut s,
            &CRAM,
            &[
                &"cells",
                &"shapes",
                &"P",
                &"points",
                &"max right",
                &"min right",
                &"wide",
                &"wide max right",
                &"wide min right",
            ],
        );
        let row = |s: &mut String, label: &str, t: &CramPackingTally| {
            table_line(
                s,
                &CRAM,
                &[
                    &label,
                    &t.shapes,
                    &t.p_positions,
                    &t.points,
                    &t.max_parity_right,
                    &t.min_parity_right,
                    &t.wide,
                    &t.wide_max_parity_right,
                    &t.wide_min_parity_right,
                ],
            );
        };
        for (k, t) in &self.by_size {
            row(&mut s, &k.to_string(), t);
        }
        row(&mut s, "all", &self.totals);
        row(&mut s, "simply connected", &self.simply_connected);
        row(&mut s, "with holes", &self.with_holes);
        let t = &self.totals;
        let _ = writeln!(
            s,
            "\nThe largest packing's parity gives the outcome on {} of {} ({:.0}%): all {} points (a theorem, asserted) and {} of {} wider ({:.0}%)",
            t.max_parity_right,
            t.shapes,
            pct(t.max_parity_right, t.shapes),
            t.points,
            t.wide_max_parity_right,
            t.wide,
            pct(t.wide_max_parity_right, t.wide)
        );
        s
    }
}
