//! Thermograph pictures: the walls of [`partizan_core::Thermograph`] drawn
//! as SVG (and TikZ) in the usual orientation — temperature up, values
//! increasing to the *left* (Left's side), as in Winning Ways and CGSuite.
//! The walls are exact (dyadic) trajectories; only the drawing is in
//! floating point.

use partizan_core::thermo::{Thermograph, Trajectory};
use partizan_core::Dyadic;
use serde::Serialize;

use crate::svg::Svg;

/// A dyadic as a float, for drawing only.
pub fn to_f64(d: Dyadic) -> f64 {
    d.num() as f64 / 2f64.powi(d.exp() as i32)
}

/// One wall as exact corner points `(temperature, value)`, from `t = -1` up
/// to `top`, in notation (`"3/2"`), for the JSON API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WallPoint {
    /// Temperature.
    pub t: String,
    /// Value of the wall there.
    pub x: String,
}

/// A thermograph as data: the mast (mean), the temperature and both walls'
/// corners.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThermographData {
    /// The mast's value (the mean).
    pub mast: String,
    /// The temperature (`-1` for an integer).
    pub temperature: String,
    /// Corners of the left wall, lowest temperature first.
    pub left_wall: Vec<WallPoint>,
    /// Corners of the right wall.
    pub right_wall: Vec<WallPoint>,
}

fn corners(w: &Trajectory, top: Dyadic) -> Vec<(Dyadic, Dyadic)> {
    let mut out = Vec::new();
    for s in w.segments() {
        if s.start <= top {
            if let Ok(x) = w.value_at(s.start) {
                out.push((s.start, x));
            }
        }
    }
    if let Ok(x) = w.value_at(top) {
        if out.last().is_none_or(|p| p.0 < top) {
            out.push((top, x));
        }
    }
    out
}

/// The temperature the picture reaches: a unit above the thermograph's own
/// temperature (at least 1), so the mast shows.
fn picture_top(th: &Thermograph) -> Dyadic {
    let t = th.temperature.max(Dyadic::ZERO);
    t.checked_add(Dyadic::ONE).unwrap_or(t)
}

impl ThermographData {
    /// The data of a thermograph, walls up to a unit above its temperature.
    pub fn of(th: &Thermograph) -> ThermographData {
        let top = picture_top(th);
        let pts = |w: &Trajectory| {
            corners(w, top)
                .into_iter()
                .map(|(t, x)| WallPoint {
                    t: t.to_string(),
                    x: x.to_string(),
                })
                .collect()
        };
        ThermographData {
            mast: th.mast.to_string(),
            temperature: th.temperature.to_string(),
            left_wall: pts(&th.left),
            right_wall: pts(&th.right),
        }
    }
}

/// The thermograph drawn `w` pixels wide: (SVG element, TikZ picture).
/// `id` becomes the SVG's id; `title` is written above the axes.
pub fn render(th: &Thermograph, id: &str, title: &str, w: f64) -> (String, String) {
    let top = picture_top(th);
    let left = corners(&th.left, top);
    let right = corners(&th.right, top);
    let xs: Vec<f64> = left.iter().chain(&right).map(|p| to_f64(p.1)).collect();
    let mut lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let mut hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        lo = -1.0;
        hi = 1.0;
    }
    let span = (hi - lo).max(1.0);
    lo -= span * 0.15;
    hi += span * 0.15;
    let tmax = to_f64(top);
    let (ml, mr, mt, mb) = (36.0, 16.0, 30.0, 40.0);
    let pw = w - ml - mr;
    // Keep one unit of temperature and of value the same length when the
    // picture is not too tall.
    let unit = pw / (hi - lo);
    let ph = ((tmax + 1.0) * unit).clamp(90.0, 320.0);
    let h = mt + ph + mb;
    // Values grow to the left.
    let sx = |x: f64| ml + (hi - x) / (hi - lo) * pw;
    let sy = |t: f64| mt + ph - (t + 1.0) / (tmax + 1.0) * ph;
    let mut svg = Svg::new(w, h).attr(&format!(
        "id=\"{}\" class=\"thermograph\"",
        crate::html::escape(id)
    ));
    svg.text(ml, 18.0, title, 13.0, "start", "font-weight=\"600\"");
    // Axes: temperature 0 and -1, and the value ticks at integers.
    svg.line((ml, sy(0.0)), (ml + pw, sy(0.0)), "#9aa6b8", 1.0, "");
    svg.line((ml, sy(-1.0)), (ml + pw, sy(-1.0)), "#445", 1.0, "");
    svg.text(ml - 4.0, sy(0.0) + 4.0, "0", 10.0, "end", "fill=\"#445\"");
    svg.text(ml - 4.0, sy(-1.0) + 4.0, "−1", 10.0, "end", "fill=\"#445\"");
    svg.text(ml - 4.0, sy(tmax) + 10.0, "t", 11.0, "end", "fill=\"#445\"");
    let step = if hi - lo > 24.0 {
        ((hi - lo) / 12.0).ceil()
    } else {
        1.0
    };
    let mut k = (lo / step).ceil() * step;
    // Integer ticks, thinned so labels (about 8 px per character) never touch.
    let per = pw / ((hi - lo) / step);
    let every = ((22.0 / per).ceil() as i64).max(1);
    let mut n = 0i64;
    while k <= hi {
        let x = sx(k);
        svg.line((x, sy(-1.0)), (x, sy(-1.0) + 4.0), "#445", 1.0, "");
        if n % every == 0 {
            svg.text(
                x,
                sy(-1.0) + 16.0,
                &format!("{}", k as i64),
                10.0,
                "middle",
                "fill=\"#445\"",
            );
        }
        n += 1;
        k += step;
    }
    svg.text(
        ml + pw / 2.0,
        h - 6.0,
        "value (Left's side on the left) · temperature up",
        10.0,
        "middle",
        "fill=\"#6b7687\"",
    );
    let pts = |c: &[(Dyadic, Dyadic)]| -> Vec<(f64, f64)> {
        c.iter()
            .map(|&(t, x)| (sx(to_f64(x)), sy(to_f64(t))))
            .collect()
    };
    svg.polyline(&pts(&left), "#1d4ed8", 2.2, "class=\"wall left\"");
    svg.polyline(&pts(&right), "#b91c1c", 2.2, "class=\"wall right\"");
    let m = to_f64(th.mast);
    let t0 = to_f64(th.temperature).max(-1.0);
    svg.line(
        (sx(m), sy(t0)),
        (sx(m), sy(tmax)),
        "#1d2430",
        2.4,
        "class=\"mast\"",
    );
    svg.text(
        sx(m) + 4.0,
        sy(tmax) + 12.0,
        &format!("mean {}", th.mast),
        10.0,
        "start",
        "fill=\"#1d2430\"",
    );
    if th.temperature > Dyadic::MINUS_ONE {
        svg.line(
            (ml, sy(t0)),
            (ml + pw, sy(t0)),
            "#6b7687",
            0.8,
            "stroke-dasharray=\"3 3\"",
        );
        svg.text(
            ml + pw,
            sy(t0) - 4.0,
            &format!("temperature {}", th.temperature),
            10.0,
            "end",
            "fill=\"#445\"",
        );
    }
    svg.finish_both()
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_core::Arena;

    #[test]
    fn a_switch_has_a_mast_at_its_mean() {
        let mut a = Arena::new();
        let g = a.parse("{3|-1}").unwrap();
        let th = a.thermograph(g).unwrap();
        let d = ThermographData::of(&th);
        assert_eq!(d.mast, "1");
        assert_eq!(d.temperature, "2");
        // At temperature 0 the walls are at the stops (3 and -1); they
        // start a unit lower, at t = -1, one unit further out.
        assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), Dyadic::from_int(3));
        assert_eq!(
            th.right.value_at(Dyadic::ZERO).unwrap(),
            Dyadic::from_int(-1)
        );
        assert_eq!(
            (d.left_wall[0].t.as_str(), d.left_wall[0].x.as_str()),
            ("-1", "4")
        );
        assert_eq!(d.right_wall[0].x, "-2");
        // Both reach the mast at the temperature and stay there.
        let last = d.left_wall.last().unwrap();
        assert_eq!((last.t.as_str(), last.x.as_str()), ("3", "1"));
        let (svg, tikz) = render(&th, "th", "{3|-1}", 400.0);
        assert!(svg.starts_with("<svg") && svg.contains("class=\"mast\""));
        assert!(tikz.contains("\\begin{tikzpicture}") && tikz.contains("mean 1"));
    }

    #[test]
    fn an_integer_is_a_mast_only() {
        let mut a = Arena::new();
        let g = a.parse("2").unwrap();
        let th = a.thermograph(g).unwrap();
        let d = ThermographData::of(&th);
        assert_eq!(d.temperature, "-1");
        assert!(d.left_wall.iter().all(|p| p.x == "2"));
        let (svg, _) = render(&th, "th", "2", 300.0);
        assert!(!svg.contains("temperature -1"));
    }
}
