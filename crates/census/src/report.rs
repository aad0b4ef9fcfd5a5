//! The census tables: tallies, JSON, text and CSV.
//!
//! Terms follow the essays. A shape is *number-valued* when its value is a
//! number, otherwise *hot* (the essays' word for the 727; a few of those,
//! like `*` or `^`, are infinitesimal rather than hot in the strict sense).
//! *Exact*: the point count equals the value. *Contained*: the value lies in
//! the interval. *Error*: count minus value. A wrong non-zero count
//! *exaggerates* when it is further from 0 than the value and *understates*
//! when it is nearer. A *miss above* is a value above the interval's top, a
//! *miss below* one under its bottom.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use partizan_core::Dyadic;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::census::{CensusError, CramRecord, ShapeRecord};
use crate::shape::Shape;
use crate::values::ValueStats;

/// Counts over a set of shapes (all, or one size).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Shapes.
    pub shapes: u64,
    /// Shapes worth numbers.
    pub numbers: u64,
    /// Number-valued shapes whose count equals the value.
    pub exact: u64,
    /// Number-valued shapes whose interval contains the value.
    pub contained: u64,
    /// Shapes whose interval is a single point.
    pub points: u64,
    /// Shapes not worth numbers.
    pub hot: u64,
    /// Non-number shapes whose two stops coincide (a number plus an
    /// infinitesimal, such as `*` or `^`): counted in `hot` as the essays
    /// do, though not hot in the strict sense.
    pub stops_equal: u64,
    /// Non-number shapes with `RS <= count <= LS`.
    pub count_between_stops: u64,
    /// Non-number shapes whose interval meets `[RS, LS]`.
    pub interval_meets_stops: u64,
    /// Strips: one row or one column.
    pub strips: u64,
    /// Strips read exactly.
    pub strips_exact: u64,
    /// Number values above the interval.
    pub misses_above: u64,
    /// Number values below the interval.
    pub misses_below: u64,
    /// Number values that are not integers.
    pub fractions: u64,
    /// Fractional values inside the interval.
    pub fractions_contained: u64,
    /// Number-valued shapes whose count is 0.
    pub count_zero: u64,
    /// Of those, exact.
    pub count_zero_exact: u64,
    /// Inexact non-zero counts further from 0 than the value.
    pub exaggerations: u64,
    /// Inexact non-zero counts nearer to 0 than the value.
    pub understatements: u64,
    /// Inexact non-zero counts as far from 0 as the value, other side.
    pub opposite_sign: u64,
    /// Sum of interval widths over every shape.
    pub width_total: u64,
    /// Mean interval width over every shape (the essay's "0.56 of a move").
    pub mean_width: f64,
    /// Sum of interval widths over number-valued shapes.
    pub width_total_numbers: u64,
    /// Mean interval width over number-valued shapes.
    pub mean_width_numbers: f64,
}

/// Hits among number-valued shapes whose count has a given magnitude.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HitRate {
    /// Number-valued shapes with this count magnitude.
    pub shapes: u64,
    /// Of those, exact.
    pub exact: u64,
    /// Of those, contained.
    pub contained: u64,
}

/// A distribution of dyadic errors, kept in numeric order; serialised as a
/// JSON object `{"-1": n, "-1/2": n, ...}` in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorDistribution(pub BTreeMap<Dyadic, u64>);

impl Serialize for ErrorDistribution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(&k.to_string(), v)?;
        }
        m.end()
    }
}

/// The Domineering census tables.
#[derive(Clone, Debug, Serialize)]
pub struct CensusReport {
    /// The ruleset: always `"domineering"`.
    pub ruleset: &'static str,
    /// Largest region size.
    pub max_cells: usize,
    /// Over every shape.
    pub totals: Tally,
    /// Per number of cells.
    pub by_size: BTreeMap<usize, Tally>,
    /// `count - value` over number-valued shapes.
    pub errors: ErrorDistribution,
    /// Per count magnitude (`"0"`, `"1"`, `"2"`, `"more"`).
    pub by_count: BTreeMap<String, HitRate>,
    /// The same at the largest size only.
    pub by_count_largest: BTreeMap<String, HitRate>,
}

/// The magnitude class of a count.
pub(crate) fn magnitude(count: i64) -> &'static str {
    match count.unsigned_abs() {
        0 => "0",
        1 => "1",
        2 => "2",
        _ => "more",
    }
}

impl Tally {
    fn add(&mut self, r: &ShapeRecord) -> Result<(), CensusError> {
        self.shapes += 1;
        self.width_total += r.reading.width() as u64;
        if r.reading.is_point() {
            self.points += 1;
        }
        let strip = r.shape.is_strip();
        if strip {
            self.strips += 1;
        }
        let count = r.reading.count;
        match r.number {
            Some(v) => {
                self.numbers += 1;
                let exact = r.exact();
                let contained = r.contained();
                self.exact += u64::from(exact);
                self.contained += u64::from(contained);
                self.width_total_numbers += r.reading.width() as u64;
                if strip && exact {
                    self.strips_exact += 1;
                }
                if v > Dyadic::from_int(r.reading.high) {
                    self.misses_above += 1;
                }
                if v < Dyadic::from_int(r.reading.low) {
                    self.misses_below += 1;
                }
                if !v.is_integer() {
                    self.fractions += 1;
                    self.fractions_contained += u64::from(contained);
                }
                if count == 0 {
                    self.count_zero += 1;
                    self.count_zero_exact += u64::from(exact);
                } else if !exact {
                    let c = Dyadic::from_int(count.abs());
                    let a = if v < Dyadic::ZERO {
                        v.checked_neg()?
                    } else {
                        v
                    };
                    match c.cmp(&a) {
                        std::cmp::Ordering::Greater => self.exaggerations += 1,
                        std::cmp::Ordering::Less => self.understatements += 1,
                        std::cmp::Ordering::Equal => self.opposite_sign += 1,
                    }
                }
            }
            None => {
                self.hot += 1;
                self.stops_equal += u64::from(r.left_stop == r.right_stop);
                self.count_between_stops += u64::from(r.count_between_stops());
                self.interval_meets_stops += u64::from(r.interval_meets_stops());
            }
        }
        Ok(())
    }

    fn finish(&mut self) {
        self.mean_width = if self.shapes == 0 {
            0.0
        } else {
            self.width_total as f64 / self.shapes as f64
        };
        self.mean_width_numbers = if self.numbers == 0 {
            0.0
        } else {
            self.width_total_numbers as f64 / self.numbers as f64
        };
    }
}

impl CensusReport {
    /// Tally the records of a census (no invariants checked here).
    pub fn tally(max_cells: usize, records: &[ShapeRecord]) -> Result<CensusReport, CensusError> {
        let mut totals = Tally::default();
        let mut by_size: BTreeMap<usize, Tally> = BTreeMap::new();
        let mut errors = BTreeMap::new();
        let mut by_count: BTreeMap<String, HitRate> = BTreeMap::new();
        let mut by_count_largest: BTreeMap<String, HitRate> = BTreeMap::new();
        for r in records {
            totals.add(r)?;
            by_size.entry(r.cells()).or_default().add(r)?;
            if let Some(e) = r.error()? {
                *errors.entry(e).or_insert(0) += 1;
                let key = magnitude(r.reading.count).to_string();
                for (map, on) in [
                    (&mut by_count, true),
                    (&mut by_count_largest, r.cells() == max_cells),
                ] {
                    if on {
                        let h = map.entry(key.clone()).or_default();
                        h.shapes += 1;
                        h.exact += u64::from(r.exact());
                        h.contained += u64::from(r.contained());
                    }
                }
            }
        }
        totals.finish();
        by_size.values_mut().for_each(Tally::finish);
        Ok(CensusReport {
            ruleset: "domineering",
            max_cells,
            totals,
            by_size,
            errors: ErrorDistribution(errors),
            by_count,
            by_count_largest,
        })
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, CensusError> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    /// The tables as text, laid out like the essays'.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let t = &self.totals;
        let _ = writeln!(
            s,
            "Domineering regions of up to {} cells: {} shapes, {} worth numbers, {} not",
            self.max_cells, t.shapes, t.numbers, t.hot
        );
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{:>5} {:>7} {:>7} {:>6} {:>9} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}",
            "cells",
            "shapes",
            "numbers",
            "exact",
            "contained",
            "points",
            "hot",
            "between",
            "meets",
            "strips",
            "s.exact"
        );
        let row = |s: &mut String, label: &str, t: &Tally| {
            let _ = writeln!(
                s,
                "{:>5} {:>7} {:>7} {:>6} {:>9} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6}",
                label,
                t.shapes,
                t.numbers,
                t.exact,
                t.contained,
                t.points,
                t.hot,
                t.count_between_stops,
                t.interval_meets_stops,
                t.strips,
                t.strips_exact
            );
        };
        for (k, t) in &self.by_size {
            row(&mut s, &k.to_string(), t);
        }
        row(&mut s, "all", t);
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "On the {} number-valued shapes: count exact on {} ({:.0}%), interval contains the value on {} ({:.0}%), mean width {:.2} (over all shapes {:.2})",
            t.numbers,
            t.exact,
            pct(t.exact, t.numbers),
            t.contained,
            pct(t.contained, t.numbers),
            t.mean_width_numbers,
            t.mean_width
        );
        let _ = writeln!(
            s,
            "Outside the interval: {} above, {} below; fractions {} of which {} inside",
            t.misses_above, t.misses_below, t.fractions, t.fractions_contained
        );
        let _ = writeln!(
            s,
            "On the {} others ({} with equal stops): count between the stops on {}, interval meets the stops on {}",
            t.hot, t.stops_equal, t.count_between_stops, t.interval_meets_stops
        );
        let _ = writeln!(s);
        let _ = writeln!(s, "Error (count - value)   shapes");
        for (e, n) in &self.errors.0 {
            let _ = writeln!(s, "{:>21} {:>8}", e.to_string(), n);
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "Count 0 on {} number-valued shapes, exact on {}; of {} non-zero inexact counts {} exaggerate, {} understate, {} the opposite sign",
            t.count_zero,
            t.count_zero_exact,
            t.exaggerations + t.understatements + t.opposite_sign,
            t.exaggerations,
            t.understatements,
            t.opposite_sign
        );
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{:>10} {:>7} {:>6} {:>7} {:>9} | at {} cells: {:>6} {:>6} {:>9}",
            "count says",
            "shapes",
            "exact",
            "exact%",
            "contained",
            self.max_cells,
            "shapes",
            "exact",
            "contained"
        );
        for (k, h) in &self.by_count {
            let l = self.by_count_largest.get(k).cloned().unwrap_or_default();
            let _ = writeln!(
                s,
                "{:>10} {:>7} {:>6} {:>6.0}% {:>9} | {:>16} {:>6} {:>9}",
                k,
                h.shapes,
                h.exact,
                pct(h.exact, h.shapes),
                h.contained,
                l.shapes,
                l.exact,
                l.contained
            );
        }
        s
    }

    /// One CSV row per shape: header then rows (see [`write_csv`]).
    pub fn csv_rows(records: &[ShapeRecord]) -> String {
        let mut s = String::from(
            "cells,shape,value,number,left_stop,right_stop,opt_v,opt_h,pess_v,pess_h,count,low,high,exact,contained,strip\n",
        );
        for r in records {
            let p = r.reading.packings;
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.cells(),
                r.shape.to_text(),
                csv_field(&r.value_text),
                r.number.is_some(),
                r.left_stop,
                r.right_stop,
                p.opt_v,
                p.opt_h,
                p.pess_v,
                p.pess_h,
                r.reading.count,
                r.reading.low,
                r.reading.high,
                r.exact(),
                r.contained(),
                r.shape.is_strip()
            );
        }
        s
    }
}

/// Quote a CSV field when it holds a comma, quote or newline (CGSuite
/// notation uses commas between options).
fn csv_field(x: &str) -> String {
    if x.contains([',', '"', '\n']) {
        format!("\"{}\"", x.replace('"', "\"\""))
    } else {
        x.to_string()
    }
}

/// Write `contents` to `path` atomically (a temporary sibling, flushed and
/// synced, then renamed over `path`).
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), CensusError> {
    let io = |source| CensusError::Io {
        path: path.display().to_string(),
        source,
    };
    partizan_solve::files::write_through_temp(path, io, |w| {
        w.write_all(contents.as_bytes()).map_err(io)
    })
}

/// Write the per-shape CSV of a Domineering census to `path` atomically.
pub fn write_csv(path: &Path, records: &[ShapeRecord]) -> Result<(), CensusError> {
    write_atomic(path, &CensusReport::csv_rows(records))
}

/// Serialise a shape as its board text.
pub(crate) fn ser_shape<S: Serializer>(shape: &Shape, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&shape.to_text())
}

/// Nim-value counts over a set of Cram shapes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CramTally {
    /// Shapes.
    pub shapes: u64,
    /// Shapes of nim-value 0 (second player wins).
    pub zero: u64,
    /// Nim-value -> shapes.
    pub nim_values: BTreeMap<u32, u64>,
}

/// The Cram census tables.
#[derive(Clone, Debug, Serialize)]
pub struct CramReport {
    /// The ruleset: always `"cram"`.
    pub ruleset: &'static str,
    /// Largest region size.
    pub max_cells: usize,
    /// Over every shape.
    pub totals: CramTally,
    /// Per number of cells.
    pub by_size: BTreeMap<usize, CramTally>,
    /// What the evaluator did.
    pub stats: ValueStats,
}

impl CramReport {
    /// Tally nim-values.
    #[must_use]
    pub fn tally(max_cells: usize, records: &[CramRecord], stats: ValueStats) -> CramReport {
        let mut totals = CramTally::default();
        let mut by_size: BTreeMap<usize, CramTally> = BTreeMap::new();
        for r in records {
            for t in [&mut totals, by_size.entry(r.shape.len()).or_default()] {
                t.shapes += 1;
                t.zero += u64::from(r.nim == 0);
                *t.nim_values.entry(r.nim).or_insert(0) += 1;
            }
        }
        CramReport {
            ruleset: "cram",
            max_cells,
            totals,
            by_size,
            stats,
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, CensusError> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    /// The tables as text: shapes and nim-value distribution per size.
    #[must_use]
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let top = self.totals.nim_values.keys().max().copied().unwrap_or(0);
        let _ = writeln!(
            s,
            "Cram regions of up to {} cells: {} shapes (all eight symmetries)",
            self.max_cells, self.totals.shapes
        );
        let _ = writeln!(s);
        let _ = write!(s, "{:>5} {:>8}", "cells", "shapes");
        for n in 0..=top {
            let _ = write!(s, " {:>7}", format!("*{n}").replace("*0", "0"));
        }
        let _ = writeln!(s);
        let row = |s: &mut String, label: &str, t: &CramTally| {
            let _ = write!(s, "{:>5} {:>8}", label, t.shapes);
            for n in 0..=top {
                let _ = write!(s, " {:>7}", t.nim_values.get(&n).copied().unwrap_or(0));
            }
            let _ = writeln!(s);
        };
        for (k, t) in &self.by_size {
            row(&mut s, &k.to_string(), t);
        }
        row(&mut s, "all", &self.totals);
        s
    }

    /// One CSV row per shape: cells, shape, nim-value in CGSuite notation.
    #[must_use]
    pub fn csv_rows(records: &[CramRecord]) -> String {
        let mut s = String::from("cells,shape,value\n");
        for r in records {
            let v = match r.nim {
                0 => "0".to_string(),
                1 => "*".to_string(),
                n => format!("*{n}"),
            };
            let _ = writeln!(s, "{},{},{}", r.shape.len(), r.shape.to_text(), v);
        }
        s
    }
}
