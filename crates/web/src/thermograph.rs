//! Thermograph pictures for the site: the walls of
//! [`partizan_core::Thermograph`] as data and drawn as SVG and TikZ, by
//! [`partizan_report::picture`] (shared with the command line's
//! `--format svg|tikz`).

use partizan_core::thermo::Thermograph;

pub use partizan_report::picture::{to_f64, ThermographData, WallPoint};

/// The thermograph drawn `w` pixels wide: (SVG element, TikZ picture).
/// `id` becomes the SVG's id; `title` is written above the axes.
pub fn render(th: &Thermograph, id: &str, title: &str, w: f64) -> (String, String) {
    partizan_report::picture::thermograph(th, id, title, w)
}
