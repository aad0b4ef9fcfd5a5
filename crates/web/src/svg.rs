//! SVG drawing for the site: the element builder and boards come from
//! [`partizan_report::picture`] (shared with the command line's
//! `--format svg|tikz`); line and bar plots (linear or log scale) and a
//! number line for Sylver Coinage are drawn here with the same builder.
//! Everything is a `String`; nothing here knows about HTTP or about how
//! the numbers were computed.

pub use partizan_report::picture::{
    num, region_colour, runs, tex_escape, BoardDrawing, Cell, Run, Svg, HOLE_COLOUR, REGION_COLOURS,
};

/// One named series of (x, y) points.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// Stroke colour.
    pub colour: String,
    /// Points in data coordinates, x ascending.
    pub points: Vec<(f64, f64)>,
}

/// A line plot with markers, axes, ticks and a legend.
#[derive(Debug, Clone)]
pub struct LinePlot {
    /// Title above the plot.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The series.
    pub series: Vec<Series>,
    /// Logarithmic y axis (base 10); non-positive values are skipped.
    pub log_y: bool,
    /// Fixed y range, else from the data.
    pub y_range: Option<(f64, f64)>,
    /// Format y tick labels as percentages of 1.
    pub y_percent: bool,
}

fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

fn tick_label(v: f64, percent: bool) -> String {
    if percent {
        return format!("{}%", num(v * 100.0));
    }
    let a = v.abs();
    if a >= 1e6 {
        let e = a.log10().floor() as i32;
        let m = v / 10f64.powi(e);
        if (m - m.round()).abs() < 1e-9 {
            format!("{}e{e}", m.round())
        } else {
            format!("{m:.1}e{e}")
        }
    } else {
        num(v)
    }
}

impl LinePlot {
    /// The `<svg>` element, `w` by `h` pixels.
    pub fn render(&self, w: f64, h: f64) -> String {
        self.render_both(w, h).0
    }

    /// The `<svg>` element and its TikZ twin.
    pub fn render_both(&self, w: f64, h: f64) -> (String, String) {
        let (ml, mr, mt, mb) = (64.0, 16.0, 30.0, 44.0);
        let per_row = if self.series.iter().any(|s| s.name.chars().count() > 14) {
            2
        } else {
            3
        };
        let legend_h = 18.0 * self.series.len().div_ceil(per_row) as f64;
        let ph = h - mt - mb - legend_h;
        let pw = w - ml - mr;
        let mut svg = Svg::new(w, h).attr("class=\"plot\"");
        svg.text(ml, 18.0, &self.title, 14.0, "start", "font-weight=\"600\"");
        let pts: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|p| !self.log_y || p.1 > 0.0)
            .collect();
        if pts.is_empty() {
            svg.text(w / 2.0, h / 2.0, "no data", 13.0, "middle", "fill=\"#888\"");
            return svg.finish_both();
        }
        let xmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let xmax = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let ty = |y: f64| if self.log_y { y.log10() } else { y };
        let (ymin, ymax) = match self.y_range {
            Some(r) => (ty(r.0.max(if self.log_y { 1e-300 } else { r.0 })), ty(r.1)),
            None => {
                let lo = pts.iter().map(|p| ty(p.1)).fold(f64::INFINITY, f64::min);
                let hi = pts
                    .iter()
                    .map(|p| ty(p.1))
                    .fold(f64::NEG_INFINITY, f64::max);
                if self.log_y {
                    (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
                } else {
                    (
                        lo.min(0.0),
                        if hi > lo.min(0.0) {
                            hi
                        } else {
                            lo.min(0.0) + 1.0
                        },
                    )
                }
            }
        };
        let xspan = if xmax > xmin { xmax - xmin } else { 1.0 };
        let yspan = if ymax > ymin { ymax - ymin } else { 1.0 };
        let sx = |x: f64| ml + (x - xmin) / xspan * pw;
        let sy = |y: f64| mt + ph - (ty(y) - ymin) / yspan * ph;
        let sy_t = |t: f64| mt + ph - (t - ymin) / yspan * ph;
        // grid and y ticks
        if self.log_y {
            let mut e = ymin.floor();
            let step = ((ymax - ymin) / 6.0).ceil().max(1.0);
            while e <= ymax + 1e-9 {
                let y = sy_t(e);
                svg.line((ml, y), (ml + pw, y), "#e3e7ee", 1.0, "");
                svg.text(
                    ml - 6.0,
                    y + 4.0,
                    &tick_label(10f64.powf(e), false),
                    11.0,
                    "end",
                    "fill=\"#445\"",
                );
                e += step;
            }
        } else {
            let step = nice_step(yspan, 5);
            let mut t = (ymin / step).ceil() * step;
            while t <= ymax + 1e-9 {
                let y = sy_t(t);
                svg.line((ml, y), (ml + pw, y), "#e3e7ee", 1.0, "");
                svg.text(
                    ml - 6.0,
                    y + 4.0,
                    &tick_label(t, self.y_percent),
                    11.0,
                    "end",
                    "fill=\"#445\"",
                );
                t += step;
            }
        }
        // x ticks at data x values when few, else nice steps
        let mut xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let xticks: Vec<f64> = if xs.len() <= 16 {
            xs
        } else {
            let step = nice_step(xspan, 8).max(1.0);
            let mut v = Vec::new();
            let mut t = (xmin / step).ceil() * step;
            while t <= xmax + 1e-9 {
                v.push(t);
                t += step;
            }
            v
        };
        for t in xticks {
            let x = sx(t);
            svg.line((x, mt + ph), (x, mt + ph + 4.0), "#445", 1.0, "");
            svg.text(x, mt + ph + 16.0, &num(t), 11.0, "middle", "fill=\"#445\"");
        }
        svg.line((ml, mt + ph), (ml + pw, mt + ph), "#445", 1.0, "");
        svg.line((ml, mt), (ml, mt + ph), "#445", 1.0, "");
        svg.text(
            ml + pw / 2.0,
            mt + ph + 32.0,
            &self.x_label,
            12.0,
            "middle",
            "fill=\"#223\"",
        );
        svg.text(
            14.0,
            mt + ph / 2.0,
            &self.y_label,
            12.0,
            "middle",
            &format!(
                "fill=\"#223\" transform=\"rotate(-90 14 {})\"",
                num(mt + ph / 2.0)
            ),
        );
        for s in &self.series {
            let p: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|p| !self.log_y || p.1 > 0.0)
                .map(|&(x, y)| (sx(x), sy(y)))
                .collect();
            svg.polyline(&p, &s.colour, 2.0, "");
            for (x, y) in &p {
                svg.circle(*x, *y, 3.0, &s.colour, "");
            }
        }
        for (i, s) in self.series.iter().enumerate() {
            let lx = ml + (i % per_row) as f64 * (pw / per_row as f64);
            let ly = h - legend_h + 4.0 + (i / per_row) as f64 * 18.0;
            svg.rect(lx, ly, 12.0, 12.0, &s.colour, "");
            svg.text(
                lx + 17.0,
                ly + 10.5,
                &s.name,
                12.0,
                "start",
                "fill=\"#223\"",
            );
        }
        svg.finish_both()
    }
}

/// A bar chart over labelled categories.
#[derive(Debug, Clone)]
pub struct BarPlot {
    /// Title above the plot.
    pub title: String,
    /// Label under the categories.
    pub x_label: String,
    /// (category label, count) in display order.
    pub bars: Vec<(String, f64)>,
    /// Bar colour.
    pub colour: String,
}

impl BarPlot {
    /// The `<svg>` element, `w` by `h` pixels.
    pub fn render(&self, w: f64, h: f64) -> String {
        self.render_both(w, h).0
    }

    /// The `<svg>` element and its TikZ twin. Category labels never
    /// overlap: when they do not fit side by side they are tilted, and
    /// when even tilted ones would touch only every k-th is written.
    pub fn render_both(&self, w: f64, h: f64) -> (String, String) {
        let (ml, mr, mt) = (52.0, 12.0, 44.0);
        let pw = w - ml - mr;
        let n = self.bars.len().max(1) as f64;
        let bw = pw / n;
        let labels: Vec<&str> = self.bars.iter().map(|b| b.0.as_str()).collect();
        let layout = label_layout(&labels, bw);
        let drop = if layout.tilted {
            (layout.widest * std::f64::consts::FRAC_1_SQRT_2 + 8.0).min(h * 0.3)
        } else {
            12.0
        };
        let mb = 32.0 + drop;
        let ph = h - mt - mb;
        let mut svg = Svg::new(w, h).attr("class=\"plot\"");
        svg.text(ml, 18.0, &self.title, 14.0, "start", "font-weight=\"600\"");
        let max = self.bars.iter().map(|b| b.1).fold(0.0, f64::max);
        let top = if max > 0.0 { max } else { 1.0 };
        let step = nice_step(top, 4);
        let mut t = 0.0;
        while t <= top + 1e-9 {
            let y = mt + ph - t / top * ph;
            svg.line((ml, y), (ml + pw, y), "#e3e7ee", 1.0, "");
            svg.text(ml - 6.0, y + 4.0, &num(t), 11.0, "end", "fill=\"#445\"");
            t += step;
        }
        // Value labels above the bars obey the same spacing.
        let value_every = label_layout(
            &self
                .bars
                .iter()
                .map(|b| num(b.1))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            bw,
        );
        for (i, (label, v)) in self.bars.iter().enumerate() {
            let bh = v / top * ph;
            let x = ml + i as f64 * bw;
            svg.rect(x + bw * 0.15, mt + ph - bh, bw * 0.7, bh, &self.colour, "");
            if !value_every.tilted && i % value_every.every == 0 {
                svg.text(
                    x + bw / 2.0,
                    mt + ph - bh - 4.0,
                    &num(*v),
                    11.0,
                    "middle",
                    "fill=\"#223\"",
                );
            }
            if i % layout.every != 0 {
                continue;
            }
            let cx = x + bw / 2.0;
            let cy = mt + ph + 14.0;
            if layout.tilted {
                svg.text(
                    cx,
                    cy,
                    label,
                    11.0,
                    "end",
                    &format!(
                        "fill=\"#445\" class=\"xlabel\" transform=\"rotate(-45 {} {})\"",
                        num(cx),
                        num(cy)
                    ),
                );
            } else {
                svg.text(
                    cx,
                    cy + 2.0,
                    label,
                    11.0,
                    "middle",
                    "fill=\"#445\" class=\"xlabel\"",
                );
            }
        }
        svg.line((ml, mt + ph), (ml + pw, mt + ph), "#445", 1.0, "");
        svg.text(
            ml + pw / 2.0,
            h - 8.0,
            &self.x_label,
            12.0,
            "middle",
            "fill=\"#223\"",
        );
        svg.finish_both()
    }
}

/// How category labels are laid out under bars `bw` pixels wide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelLayout {
    /// Tilted by 45 degrees.
    pub tilted: bool,
    /// Only every `every`-th label is written.
    pub every: usize,
    /// Estimated width of the widest label, in pixels.
    pub widest: f64,
}

/// Estimated width of an 11-pixel label (a generous 6.6 px per character).
pub fn label_width(s: &str) -> f64 {
    6.6 * s.chars().count() as f64
}

/// Lay out labels under bars `bw` wide so that none overlaps another:
/// side by side if the widest fits its bar with a 4-pixel gap, else tilted
/// by 45 degrees, where neighbours need about 16 pixels between their
/// anchors; and where even that is too much, every k-th.
pub fn label_layout(labels: &[&str], bw: f64) -> LabelLayout {
    let widest = labels.iter().map(|l| label_width(l)).fold(0.0, f64::max);
    if widest + 4.0 <= bw {
        return LabelLayout {
            tilted: false,
            every: 1,
            widest,
        };
    }
    let need = 16.0;
    let every = if bw >= need {
        1
    } else {
        (need / bw.max(0.1)).ceil() as usize
    };
    LabelLayout {
        tilted: true,
        every,
        widest,
    }
}

/// How a number is marked on the Sylver Coinage number line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Not a gap: already a sum of named numbers.
    Taken,
    /// A gap that cannot be named usefully (1 loses), drawn plain.
    Plain,
    /// A move the pairing test strikes.
    Struck,
    /// A move the test does not strike.
    Survivor,
    /// A winning move.
    Winning,
}

/// The numbers `1..=max` on a line, each marked; wraps into rows of 30.
pub fn number_line(max: u32, mark: impl Fn(u32) -> Mark) -> String {
    let per_row = 30u32;
    let rows = max.div_ceil(per_row).max(1);
    let step = 30.0;
    let (ml, mt) = (18.0, 16.0);
    let row_h = 58.0;
    let w = ml * 2.0 + step * (per_row.min(max.max(1)) - 1) as f64 + 10.0;
    let h = mt + row_h * rows as f64 + 6.0;
    let mut svg = Svg::new(w.max(200.0), h).attr("class=\"numberline\"");
    for row in 0..rows {
        let y = mt + 14.0 + row as f64 * row_h;
        let first = row * per_row + 1;
        let last = ((row + 1) * per_row).min(max);
        if last < first {
            continue;
        }
        svg.line(
            (ml, y),
            (ml + step * (last - first) as f64, y),
            "#9aa6b8",
            1.5,
            "",
        );
        for n in first..=last {
            let x = ml + step * (n - first) as f64;
            let m = mark(n);
            let extra = format!("data-n=\"{n}\" class=\"mark {m:?}\"");
            match m {
                Mark::Taken => svg.circle(x, y, 2.5, "#b8c0cc", &extra),
                Mark::Plain => svg.circle(
                    x,
                    y,
                    7.0,
                    "#ffffff",
                    &format!("stroke=\"#445\" stroke-width=\"1.5\" {extra}"),
                ),
                Mark::Survivor => svg.circle(x, y, 8.0, "#2563eb", &extra),
                Mark::Winning => {
                    svg.circle(x, y, 10.0, "#16a34a", &extra);
                    svg.circle(x, y, 4.0, "#ffffff", "");
                }
                Mark::Struck => {
                    svg.circle(
                        x,
                        y,
                        7.0,
                        "#ffffff",
                        &format!("stroke=\"#9aa6b8\" stroke-width=\"1.5\" {extra}"),
                    );
                    svg.line((x - 6.0, y - 6.0), (x + 6.0, y + 6.0), "#a4161a", 2.0, "");
                    svg.line((x - 6.0, y + 6.0), (x + 6.0, y - 6.0), "#a4161a", 2.0, "");
                }
            }
            let colour = if m == Mark::Taken {
                "#9aa6b8"
            } else {
                "#1d2430"
            };
            svg.text(
                x,
                y + 26.0,
                &n.to_string(),
                11.0,
                "middle",
                &format!("fill=\"{colour}\""),
            );
        }
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_labels_never_overlap() {
        // The census's error histogram: many fractional labels.
        let labels: Vec<String> = (-24..=24).map(|k| format!("{}/8", k)).collect();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        for w in [300.0, 500.0, 800.0, 1400.0] {
            let bw = (w - 64.0) / refs.len() as f64;
            let l = label_layout(&refs, bw);
            let gap = l.every as f64 * bw;
            if l.tilted {
                assert!(gap >= 16.0, "{w}: tilted labels {gap} px apart");
            } else {
                assert!(gap >= l.widest + 4.0, "{w}: labels {gap} px apart");
            }
        }
        let few = label_layout(&["0", "1", "2"], 100.0);
        assert!(!few.tilted && few.every == 1);
        let plot = BarPlot {
            title: "errors".into(),
            x_label: "error".into(),
            bars: labels.iter().map(|l| (l.clone(), 3.0)).collect(),
            colour: "#000".into(),
        };
        let svg = plot.render(500.0, 330.0);
        assert!(svg.contains("rotate(-45"));
        assert!(svg.matches("class=\"xlabel\"").count() < labels.len());
    }

    #[test]
    fn log_plot_skips_non_positive_and_renders() {
        let p = LinePlot {
            title: "t".into(),
            x_label: "g".into(),
            y_label: "n".into(),
            series: vec![Series {
                name: "s".into(),
                colour: "#000".into(),
                points: vec![(0.0, 1.0), (1.0, 0.0), (2.0, 2.0), (3.0, 1000.0)],
            }],
            log_y: true,
            y_range: None,
            y_percent: false,
        };
        let s = p.render(400.0, 260.0);
        assert_eq!(s.matches("<circle").count(), 3);
        assert!(s.contains(">1000<"));
    }

    #[test]
    fn empty_plot_says_so() {
        let p = BarPlot {
            title: "t".into(),
            x_label: "x".into(),
            bars: vec![],
            colour: "#000".into(),
        };
        assert!(p.render(200.0, 100.0).contains("<svg"));
        let l = LinePlot {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![],
            log_y: false,
            y_range: None,
            y_percent: false,
        };
        assert!(l.render(200.0, 100.0).contains("no data"));
    }

    #[test]
    fn number_line_marks_each_number() {
        let s = number_line(7, |n| match n {
            1 => Mark::Plain,
            2 | 4 => Mark::Taken,
            3 => Mark::Winning,
            5 => Mark::Struck,
            _ => Mark::Survivor,
        });
        for n in 1..=7 {
            assert!(s.contains(&format!("data-n=\"{n}\"")));
        }
        assert!(s.contains("Winning") && s.contains("Struck"));
    }
}
