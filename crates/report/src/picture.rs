//! Pictures a paper can use: boards and thermographs drawn as SVG and as
//! TikZ, by one small element builder ([`Svg`]) that writes both at once.
//! The command line (`--format svg|tikz`) and the site draw through these
//! same functions, so a picture looks the same in a browser and in a paper.
//! Everything is a `String`; nothing here knows about HTTP or the terminal.
//!
//! Thermographs are drawn in the usual orientation — temperature up,
//! values increasing to the *left* (Left's side), as in Winning Ways and
//! CGSuite. The walls are exact (dyadic) trajectories; only the drawing is
//! in floating point.
//!
//! ```
//! use partizan_core::Arena;
//! use partizan_report::picture;
//!
//! let mut a = Arena::new();
//! let g = a.parse("{3|-1}").unwrap();
//! let th = a.thermograph(g).unwrap();
//! let (svg, tikz) = picture::thermograph(&th, "th", "{3|-1}", 400.0);
//! assert!(svg.starts_with("<svg") && tikz.contains("\\begin{tikzpicture}"));
//! ```

use std::fmt::Write as _;

use partizan_core::thermo::{Thermograph, Trajectory};
use partizan_core::Dyadic;
use partizan_games::graph_view::GraphView;
use partizan_games::{with_rules, Rules};
use serde::Serialize;

use crate::ReportError;

/// Text safe inside XML (SVG) text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Which picture language to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A standalone SVG document.
    Svg,
    /// A TikZ picture (`\\usepackage{tikz}`).
    Tikz,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "svg" => Ok(Format::Svg),
            "tikz" | "tex" => Ok(Format::Tikz),
            _ => Err(format!("unknown picture format '{s}' (svg or tikz)")),
        }
    }
}

/// One of the pair `(svg, tikz)` a renderer returns.
pub fn pick((svg, tikz): (String, String), format: Format) -> String {
    match format {
        Format::Svg => {
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{svg}\n")
        }
        Format::Tikz => tikz,
    }
}

/// The margin around a drawn board, in pixels.
const BOARD_PAD: f64 = 6.0;

/// The drawing of a board given as text in `rules` (parsed and checked by
/// the ruleset, so a bad board is an error, not a picture of nothing).
pub fn board_drawing(rules: Rules, text: &str) -> Result<BoardDrawing, ReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| ReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        let text = r.format(&board);
        let cells: Vec<Cell> = text
            .chars()
            .filter(|&c| c != '|')
            .map(Cell::from_char)
            .collect();
        Ok(BoardDrawing::new(board.width(), board.height(), cells))
    })
}

/// Fill colours for regions, in order; light enough for stones and labels on
/// top, distinct from each other and from the hole colour.
pub const REGION_COLOURS: &[&str] = &[
    "#8ecae6", "#ffb703", "#a7c957", "#f4978e", "#cdb4db", "#90e0ef", "#f9dc5c", "#b5838d",
    "#80ed99", "#ffcfd2", "#bde0fe", "#e9c46a", "#98c1d9", "#f6bd60", "#c1fba4", "#e5989b",
];

/// The colour of region `i` (cycling after [`REGION_COLOURS`] runs out).
pub fn region_colour(i: usize) -> &'static str {
    REGION_COLOURS[i % REGION_COLOURS.len()]
}

/// The fill of a hole (a cell that is not part of the position).
pub const HOLE_COLOUR: &str = "#3b4252";

/// An SVG document under construction.
#[derive(Debug, Clone)]
pub struct Svg {
    width: f64,
    height: f64,
    attrs: String,
    body: String,
    tikz: String,
}

/// A TikZ colour for an SVG colour (`#rrggbb`, `none`, a few names).
fn tikz_colour(c: &str) -> Option<String> {
    let c = c.trim();
    if let Some(hex) = c.strip_prefix('#') {
        let v = u32::from_str_radix(hex, 16).ok()?;
        let (r, g, b) = match hex.len() {
            6 => (v >> 16 & 255, v >> 8 & 255, v & 255),
            3 => ((v >> 8 & 15) * 17, (v >> 4 & 15) * 17, (v & 15) * 17),
            _ => return None,
        };
        return Some(format!("{{rgb,255:red,{r};green,{g};blue,{b}}}"));
    }
    match c {
        "none" | "" => None,
        "black" | "white" | "red" | "blue" => Some(c.to_string()),
        _ => Some("black".to_string()),
    }
}

/// Text safe inside a TikZ node: TeX's special characters escaped.
pub fn tex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '#' | '$' | '%' | '&' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            '|' => out.push_str("\\textbar{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '−' => out.push('-'),
            c => out.push(c),
        }
    }
    out
}

/// The value of attribute `name` in an attribute string, if present.
fn attr_value<'a>(extra: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let i = extra.find(&key)? + key.len();
    let rest = &extra[i..];
    rest.find('"').map(|j| &rest[..j])
}

/// A coordinate as SVG and TikZ write it: at most two decimals, no
/// trailing zeros.
pub fn num(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

impl Svg {
    /// A blank drawing of the given size in user units (pixels).
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            attrs: String::new(),
            body: String::new(),
            tikz: String::new(),
        }
    }

    /// Add raw attributes to the `<svg>` element (e.g. `id="board"`).
    pub fn attr(mut self, attrs: &str) -> Svg {
        self.attrs.push(' ');
        self.attrs.push_str(attrs);
        self
    }

    /// A rectangle; `extra` is appended verbatim as attributes.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, extra: &str) {
        let mut style = Vec::new();
        if let Some(f) = tikz_colour(fill) {
            style.push(format!("fill={f}"));
        }
        if let Some(c) = attr_value(extra, "stroke").and_then(tikz_colour) {
            style.push(format!("draw={c}"));
        }
        let _ = writeln!(
            self.tikz,
            "\\path[{}] ({},{}) rectangle ({},{});",
            style.join(","),
            num(x),
            num(y),
            num(x + w),
            num(y + h)
        );
        let _ = write!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" {extra}/>",
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A straight line from `a` to `b`.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, width: f64, extra: &str) {
        let dash = if extra.contains("stroke-dasharray") {
            ",dashed"
        } else {
            ""
        };
        if let Some(c) = tikz_colour(stroke) {
            let _ = writeln!(
                self.tikz,
                "\\draw[draw={c},line width={}pt{dash}] ({},{}) -- ({},{});",
                num(width * 0.75),
                num(a.0),
                num(a.1),
                num(b.0),
                num(b.1)
            );
        }
        let _ = write!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\" {extra}/>",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1),
            num(width)
        );
    }

    /// A circle.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, extra: &str) {
        let mut style = Vec::new();
        if let Some(f) = tikz_colour(fill) {
            style.push(format!("fill={f}"));
        }
        if let Some(c) = attr_value(extra, "stroke").and_then(tikz_colour) {
            style.push(format!("draw={c}"));
        }
        let _ = writeln!(
            self.tikz,
            "\\path[{}] ({},{}) circle[radius={}];",
            style.join(","),
            num(cx),
            num(cy),
            num(r)
        );
        let _ = write!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" {extra}/>",
            num(cx),
            num(cy),
            num(r)
        );
    }

    /// Text (escaped), anchored `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, s: &str, size: f64, anchor: &str, extra: &str) {
        // SVG anchors the baseline; TikZ's base anchors match it.
        let a = match anchor {
            "middle" => "base",
            "end" => "base east",
            _ => "base west",
        };
        let rotate = if extra.contains("rotate(-90") {
            ",rotate=90"
        } else if extra.contains("rotate(-45") {
            ",rotate=45"
        } else {
            ""
        };
        let colour = attr_value(extra, "fill")
            .and_then(tikz_colour)
            .map(|c| format!(",text={c}"))
            .unwrap_or_default();
        let _ = writeln!(
            self.tikz,
            "\\node[anchor={a},inner sep=0pt,font=\\fontsize{{{}}}{{{}}}\\selectfont{colour}{rotate}] at ({},{}) {{{}}};",
            num(size * 0.75),
            num(size * 0.9),
            num(x),
            num(y),
            tex_escape(s)
        );
        let _ = write!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" {extra}>{}</text>",
            num(x),
            num(y),
            num(size),
            escape(s)
        );
    }

    /// An open polyline through the points.
    pub fn polyline(&mut self, pts: &[(f64, f64)], stroke: &str, width: f64, extra: &str) {
        if let (Some(c), true) = (tikz_colour(stroke), pts.len() >= 2) {
            let path: Vec<String> = pts
                .iter()
                .map(|(x, y)| format!("({},{})", num(*x), num(*y)))
                .collect();
            let dash = if extra.contains("stroke-dasharray") {
                ",dashed"
            } else {
                ""
            };
            let _ = writeln!(
                self.tikz,
                "\\draw[draw={c},line width={}pt{dash}] {};",
                num(width * 0.75),
                path.join(" -- ")
            );
        }
        let mut p = String::new();
        for (x, y) in pts {
            let _ = write!(p, "{},{} ", num(*x), num(*y));
        }
        let _ = write!(
            self.body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" {extra}/>",
            p.trim_end(),
            num(width)
        );
    }

    /// A comment in both forms (`<!-- -->` and `%` lines), for facts a
    /// reader of the file wants exactly, such as a wall's breakpoints.
    pub fn comment(&mut self, s: &str) {
        for line in s.lines() {
            let _ = writeln!(self.tikz, "% {line}");
        }
        let _ = write!(self.body, "<!-- {} -->", escape(s).replace("--", "- -"));
    }

    /// Raw markup (already valid SVG); it has no TikZ twin.
    pub fn raw(&mut self, s: &str) {
        self.body.push_str(s);
    }

    /// The same drawing as a TikZ picture: one unit per SVG pixel (a
    /// pixel is 0.75 pt), y pointing down as in the SVG, so the picture
    /// has the SVG's proportions. `\\usepackage{tikz}` is all it needs.
    pub fn tikz(&self) -> String {
        format!(
            "% drawn by partizan; needs \\usepackage{{tikz}}\n\\begin{{tikzpicture}}[x=0.75pt,y=-0.75pt]\n\\useasboundingbox (0,0) rectangle ({},{});\n{}\\end{{tikzpicture}}\n",
            num(self.width),
            num(self.height),
            self.tikz
        )
    }

    /// Both forms: the `<svg>` element and the TikZ picture.
    pub fn finish_both(self) -> (String, String) {
        let t = self.tikz();
        (self.finish(), t)
    }

    /// The finished `<svg>` element.
    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"{}>{}</svg>",
            self.attrs,
            self.body,
            w = num(self.width),
            h = num(self.height)
        )
    }
}

/// What occupies a cell of a drawn board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Not part of the position (blocked).
    Hole,
    /// An empty cell of the position.
    Empty,
    /// A Left stone (`x`).
    LeftStone,
    /// A Right stone (`o`).
    RightStone,
    /// A Left queen (`L`).
    LeftQueen,
    /// A Right queen (`R`).
    RightQueen,
}

impl Cell {
    /// The cell a board-text character stands for (`#`, `.`, `x`, `o`, `L`, `R`).
    pub fn from_char(c: char) -> Cell {
        match c {
            '#' => Cell::Hole,
            'x' | 'X' => Cell::LeftStone,
            'o' | 'O' => Cell::RightStone,
            'L' => Cell::LeftQueen,
            'R' => Cell::RightQueen,
            _ => Cell::Empty,
        }
    }
}

/// A maximal line of cells of one region taken along a row or a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Along a row (true) or down a column (false).
    pub horizontal: bool,
    /// Row of the first cell.
    pub row: usize,
    /// Column of the first cell.
    pub col: usize,
    /// Number of cells.
    pub len: usize,
}

impl Run {
    /// Odd runs waste a cell: they are what the packing count counts.
    pub fn odd(&self) -> bool {
        self.len % 2 == 1
    }
}

/// The maximal runs of a set of cells (`cells[row * width + col]`), both
/// directions, isolated cells included as runs of length one each way.
pub fn runs(width: usize, height: usize, cells: &[bool]) -> Vec<Run> {
    let mut out = Vec::new();
    let at = |r: usize, c: usize| cells.get(r * width + c).copied().unwrap_or(false);
    // Rows first, then columns: a line's cells are (line, i) or (i, line).
    for horizontal in [true, false] {
        let (lines, length) = if horizontal {
            (height, width)
        } else {
            (width, height)
        };
        let cell = |line: usize, i: usize| if horizontal { (line, i) } else { (i, line) };
        let filled = |line: usize, i: usize| {
            let (r, c) = cell(line, i);
            at(r, c)
        };
        for line in 0..lines {
            let mut i = 0;
            while i < length {
                let start = i;
                while i < length && filled(line, i) {
                    i += 1;
                }
                if i > start {
                    let (row, col) = cell(line, start);
                    out.push(Run {
                        horizontal,
                        row,
                        col,
                        len: i - start,
                    });
                } else {
                    i += 1;
                }
            }
        }
    }
    out
}

/// A board to draw: cells row by row, each cell's region (index into the
/// region list) and optional run overlays.
#[derive(Debug, Clone)]
pub struct BoardDrawing {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` cells, row by row.
    pub cells: Vec<Cell>,
    /// The region of each cell, if it belongs to one.
    pub region: Vec<Option<usize>>,
    /// Runs to draw over the board (odd ones marked).
    pub runs: Vec<Run>,
    /// Give each cell `data-cell="i"` and a pointer cursor for click editing.
    pub clickable: bool,
    /// Side of one cell in pixels.
    pub cell_px: f64,
    /// Moves to mark on the board (drawn last).
    pub marks: Vec<Mark>,
}

/// A move marked on a drawn board: a dot on each cell it changes, in its
/// player's colour (Left's blue, Right's red), and a bar through them when
/// they lie side by side (a domino, a stone's step).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The cells, as indices row by row.
    pub cells: Vec<usize>,
    /// Left's move (else Right's).
    pub left: bool,
}

impl BoardDrawing {
    /// A drawing with no regions, no runs, 48-pixel cells.
    pub fn new(width: usize, height: usize, cells: Vec<Cell>) -> BoardDrawing {
        let n = cells.len();
        BoardDrawing {
            width,
            height,
            cells,
            region: vec![None; n],
            runs: Vec::new(),
            clickable: false,
            cell_px: 48.0,
            marks: Vec::new(),
        }
    }

    /// The drawing's size with its margin: (width, height).
    pub fn size(&self) -> (f64, f64) {
        (
            self.width as f64 * self.cell_px + 2.0 * BOARD_PAD,
            self.height as f64 * self.cell_px + 2.0 * BOARD_PAD,
        )
    }

    /// The `<svg>` element.
    pub fn render(&self, id: &str) -> String {
        self.render_both(id).0
    }

    /// The `<svg>` element and the same drawing in TikZ.
    pub fn render_both(&self, id: &str) -> (String, String) {
        let (w, h) = self.size();
        let mut svg = Svg::new(w, h).attr(&format!(
            "id=\"{}\" class=\"board\" data-width=\"{}\" data-height=\"{}\"",
            escape(id),
            self.width,
            self.height
        ));
        self.draw(&mut svg, 0.0, 0.0);
        svg.finish_both()
    }

    /// Draw the board into `svg`, its margin's top-left corner at
    /// (`ox`, `oy`) (the drawing takes [`BoardDrawing::size`]).
    pub fn draw(&self, svg: &mut Svg, ox: f64, oy: f64) {
        let s = self.cell_px;
        let (px, py) = (ox + BOARD_PAD, oy + BOARD_PAD);
        let centre = |i: usize| {
            let (r, c) = (i / self.width.max(1), i % self.width.max(1));
            (px + c as f64 * s + s / 2.0, py + r as f64 * s + s / 2.0)
        };
        let mut labelled = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.width.max(1), i % self.width.max(1));
            let x = px + c as f64 * s;
            let y = py + r as f64 * s;
            let region = self.region.get(i).copied().flatten();
            let fill = match (cell, region) {
                (Cell::Hole, _) => HOLE_COLOUR,
                (_, Some(k)) => region_colour(k),
                (_, None) => "#f2f2f2",
            };
            let mut extra = format!(
                "stroke=\"#5c6675\" stroke-width=\"1\" data-cell=\"{i}\" data-region=\"{}\"",
                region.map(|k| k.to_string()).unwrap_or_default()
            );
            if self.clickable {
                extra.push_str(" style=\"cursor:pointer\" class=\"cell\"");
            }
            svg.rect(x, y, s, s, fill, &extra);
            let (cx, cy) = (x + s / 2.0, y + s / 2.0);
            let nohit = "pointer-events=\"none\"";
            match cell {
                Cell::LeftStone => svg.circle(cx, cy, s * 0.32, "#1d2430", nohit),
                Cell::RightStone => svg.circle(
                    cx,
                    cy,
                    s * 0.32,
                    "#ffffff",
                    "stroke=\"#1d2430\" stroke-width=\"2\" pointer-events=\"none\"",
                ),
                Cell::LeftQueen | Cell::RightQueen => {
                    let (fill, label) = if *cell == Cell::LeftQueen {
                        ("#1d4ed8", "L")
                    } else {
                        ("#b91c1c", "R")
                    };
                    svg.circle(cx, cy, s * 0.34, fill, nohit);
                    svg.text(
                        cx,
                        cy + s * 0.14,
                        label,
                        s * 0.4,
                        "middle",
                        "fill=\"#fff\" font-weight=\"700\" pointer-events=\"none\"",
                    );
                }
                Cell::Hole | Cell::Empty => {}
            }
            if let Some(k) = region {
                if !labelled.contains(&k) {
                    labelled.push(k);
                    svg.text(
                        x + 3.0,
                        y + 11.0,
                        &(k + 1).to_string(),
                        10.0,
                        "start",
                        "fill=\"#1d2430\" pointer-events=\"none\"",
                    );
                }
            }
        }
        for run in &self.runs {
            let (stroke, width, dash) = if run.odd() {
                ("#c1121f", 3.0, "")
            } else {
                ("#334155", 1.6, "stroke-dasharray=\"5 3\"")
            };
            let extra = format!(
                "stroke-linecap=\"round\" pointer-events=\"none\" class=\"run {}\" {dash}",
                if run.odd() { "odd" } else { "even" }
            );
            let off = s * 0.16;
            if run.len == 1 {
                let (x, y) = if run.horizontal {
                    (
                        px + run.col as f64 * s + s / 2.0,
                        py + run.row as f64 * s + s / 2.0 - off,
                    )
                } else {
                    (
                        px + run.col as f64 * s + s / 2.0 - off,
                        py + run.row as f64 * s + s / 2.0,
                    )
                };
                svg.circle(x, y, 2.6, stroke, &extra);
            } else if run.horizontal {
                let y = py + run.row as f64 * s + s / 2.0 - off;
                let x1 = px + run.col as f64 * s + s * 0.22;
                let x2 = px + (run.col + run.len) as f64 * s - s * 0.22;
                svg.line((x1, y), (x2, y), stroke, width, &extra);
            } else {
                let x = px + run.col as f64 * s + s / 2.0 - off;
                let y1 = py + run.row as f64 * s + s * 0.22;
                let y2 = py + (run.row + run.len) as f64 * s - s * 0.22;
                svg.line((x, y1), (x, y2), stroke, width, &extra);
            }
        }
        for m in &self.marks {
            let colour = if m.left { "#1d4ed8" } else { "#b91c1c" };
            let pts: Vec<(f64, f64)> = m.cells.iter().map(|&i| centre(i)).collect();
            // A bar only through cells side by side (a domino, a stone's
            // step); cells apart (a queen's move and its arrow) get dots.
            let w = self.width.max(1);
            let side_by_side = m.cells.windows(2).all(|p| {
                let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
                (b - a == 1 && b % w != 0) || b - a == w
            });
            if pts.len() >= 2 && side_by_side {
                svg.polyline(
                    &pts,
                    colour,
                    s * 0.22,
                    "stroke-linecap=\"round\" stroke-linejoin=\"round\" pointer-events=\"none\" class=\"mark\"",
                );
            }
            for (x, y) in pts {
                svg.circle(
                    x,
                    y,
                    s * 0.16,
                    colour,
                    "pointer-events=\"none\" class=\"mark\"",
                );
            }
        }
    }
}

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
pub fn thermograph(th: &Thermograph, id: &str, title: &str, w: f64) -> (String, String) {
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
    let mut svg = Svg::new(w, h).attr(&format!("id=\"{}\" class=\"thermograph\"", escape(id)));
    let exact = |c: &[(Dyadic, Dyadic)]| -> String {
        let v: Vec<String> = c.iter().map(|(t, x)| format!("({t}, {x})")).collect();
        v.join(" ")
    };
    svg.comment(&format!(
        "thermograph of {title}: mean {}, temperature {}\nleft wall (temperature, value): {}\nright wall (temperature, value): {}",
        th.mast,
        th.temperature,
        exact(&left),
        exact(&right)
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

    /// The SVG parses as XML, with an `<svg>` root.
    fn well_formed(svg: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc
    }

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
        let (svg, tikz) = thermograph(&th, "th", "{3|-1}", 400.0);
        assert!(svg.starts_with("<svg") && svg.contains("class=\"mast\""));
        assert!(tikz.contains("\\begin{tikzpicture}") && tikz.contains("mean 1"));
    }

    #[test]
    fn thermograph_svg_is_xml_and_tikz_has_the_breakpoints() {
        let mut a = Arena::new();
        // {{2|0}|-1}: left wall 2 - t up to t = 1... the walls meet at the
        // mast 0 at temperature 1 (cgt-tools' thermograph test)
        for text in ["{3|-1}", "{{2|0}|-1}", "{2|-1/2}", "2", "*", "{3||2*|1*}"] {
            let g = a.parse(text).unwrap();
            let th = a.thermograph(g).unwrap();
            let (svg, tikz) = thermograph(&th, "t", text, 420.0);
            let doc = well_formed(&svg);
            let walls = doc
                .descendants()
                .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("wall")))
                .count();
            assert_eq!(walls, 2, "{text}");
            let file = pick((svg.clone(), tikz.clone()), Format::Svg);
            assert!(file.starts_with("<?xml"));
            well_formed(&file);
            // every exact breakpoint of both walls is written in the TikZ
            let top = picture_top(&th);
            for w in [&th.left, &th.right] {
                for (t, x) in corners(w, top) {
                    assert!(tikz.contains(&format!("({t}, {x})")), "{text}: ({t}, {x})");
                    assert!(svg.contains(&escape(&format!("({t}, {x})"))), "{text}");
                }
            }
            assert!(tikz.contains(&format!("temperature {}", th.temperature)));
        }
    }

    #[test]
    fn an_integer_is_a_mast_only() {
        let mut a = Arena::new();
        let g = a.parse("2").unwrap();
        let th = a.thermograph(g).unwrap();
        let d = ThermographData::of(&th);
        assert_eq!(d.temperature, "-1");
        assert!(d.left_wall.iter().all(|p| p.x == "2"));
        let (svg, _) = thermograph(&th, "th", "2", 300.0);
        assert!(!svg.contains("class=\"temperature\""));
        assert!(!svg.contains(">temperature -1<"));
    }

    #[test]
    fn runs_of_an_l_shape() {
        // ###
        // #..
        let cells = [true, true, true, true, false, false];
        let rs = runs(3, 2, &cells);
        let h: Vec<usize> = rs.iter().filter(|r| r.horizontal).map(|r| r.len).collect();
        let v: Vec<usize> = rs.iter().filter(|r| !r.horizontal).map(|r| r.len).collect();
        assert_eq!(h, vec![3, 1]);
        assert_eq!(v, vec![2, 1, 1]);
        let at = |horizontal: bool| -> Vec<(usize, usize)> {
            rs.iter()
                .filter(|r| r.horizontal == horizontal)
                .map(|r| (r.row, r.col))
                .collect()
        };
        assert_eq!(at(true), vec![(0, 0), (1, 0)]);
        assert_eq!(at(false), vec![(0, 0), (0, 1), (0, 2)]);
        assert_eq!(rs.iter().filter(|r| r.odd()).count(), 4);
    }

    #[test]
    fn moves_are_marked_by_a_bar_only_through_cells_side_by_side() {
        let mut d = BoardDrawing::new(3, 3, vec![Cell::Empty; 9]);
        let bars = |d: &BoardDrawing| d.render("b").matches("<polyline").count();
        let dots = |d: &BoardDrawing| d.render("b").matches("<circle").count();
        // A vertical and a horizontal domino: a bar and two dots each.
        d.marks = vec![
            Mark {
                cells: vec![1, 4],
                left: true,
            },
            Mark {
                cells: vec![6, 7],
                left: false,
            },
        ];
        well_formed(&d.render("b"));
        assert_eq!((bars(&d), dots(&d)), (2, 4));
        assert!(d.render("b").contains("#1d4ed8") && d.render("b").contains("#b91c1c"));
        // Cells apart (a queen's move and its arrow), or a row's end and
        // the next row's start: dots only.
        d.marks = vec![
            Mark {
                cells: vec![0, 2, 8],
                left: true,
            },
            Mark {
                cells: vec![2, 3],
                left: false,
            },
        ];
        assert_eq!((bars(&d), dots(&d)), (0, 5));
    }

    #[test]
    fn board_drawing_marks_cells_regions_and_odd_runs() {
        let mut d = BoardDrawing::new(2, 1, vec![Cell::Empty, Cell::Hole]);
        d.region = vec![Some(0), None];
        d.clickable = true;
        d.runs = runs(2, 1, &[true, false]);
        let s = d.render("b");
        well_formed(&s);
        assert!(s.contains("data-cell=\"0\""));
        assert!(s.contains(region_colour(0)));
        assert!(s.contains(HOLE_COLOUR));
        assert!(s.contains("run odd"));
    }

    #[test]
    fn boards_of_every_ruleset_draw_as_xml_and_tikz() {
        for rules in Rules::ALL {
            let example = rules.info().example;
            let d = board_drawing(*rules, example).unwrap();
            let (svg, tikz) = d.render_both("board");
            let doc = well_formed(&svg);
            let cells = doc
                .descendants()
                .filter(|n| n.attribute("data-cell").is_some())
                .count();
            assert_eq!(cells, d.width * d.height, "{}", rules.name());
            assert_eq!(
                tikz.matches("rectangle").count(),
                d.width * d.height + 1,
                "{}: a square per cell and the bounding box",
                rules.name()
            );
        }
        let d = board_drawing(Rules::Clobber, "xo|ox").unwrap();
        assert_eq!(
            d.cells,
            vec![
                Cell::LeftStone,
                Cell::RightStone,
                Cell::RightStone,
                Cell::LeftStone
            ]
        );
        let d = board_drawing(Rules::Domineering, "..|.#").unwrap();
        assert_eq!(
            d.cells,
            vec![Cell::Empty, Cell::Empty, Cell::Empty, Cell::Hole]
        );
        let d = board_drawing(Rules::Amazons, "L.|#R").unwrap();
        assert_eq!(
            d.cells,
            vec![Cell::LeftQueen, Cell::Empty, Cell::Hole, Cell::RightQueen]
        );
        assert!(board_drawing(Rules::Clobber, "xq").is_err());
    }

    #[test]
    fn formats_parse() {
        assert_eq!("svg".parse::<Format>(), Ok(Format::Svg));
        assert_eq!("TikZ".parse::<Format>(), Ok(Format::Tikz));
        assert!("png".parse::<Format>().is_err());
    }
}

/// The picture of a position of a graph ruleset (`None` for a grid
/// ruleset): its graph drawn, not the matrix it is stored as. Vertices
/// sit on a circle by their number (Snort, Col), or above Hackenbush's
/// ground by their distance from it; each vertex and edge carries the
/// boards a click leads to (`data-left`, `data-right`: the moves there;
/// `data-edit`: the next state), which the site's explorer plays.
pub fn graph_picture(
    rules: Rules,
    text: &str,
    id: &str,
) -> Result<Option<(String, String)>, ReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| ReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        Ok(partizan_games::graph_view::graph_view(rules, &board)
            .map(|view| draw_graph(&view, id, |b| r.format(b))))
    })
}

/// The picture of a board: its graph for a graph ruleset, else the board
/// ([`board_drawing`]); what `partizan draw` prints.
pub fn position_picture(
    rules: Rules,
    text: &str,
    id: &str,
) -> Result<(String, String), ReportError> {
    match graph_picture(rules, text, id)? {
        Some(p) => Ok(p),
        None => Ok(board_drawing(rules, text)?.render_both(id)),
    }
}

/// Where each vertex of a graph view is drawn, in a `w` x `h` picture.
fn graph_layout(view: &GraphView) -> (Vec<(f64, f64)>, f64, f64) {
    use std::f64::consts::PI;
    let n = view.vertices.len();
    if !view.grounded {
        let slots = view.vertices.first().map_or(1, |v| v.slot.1).max(1);
        let radius = (24.0 * slots as f64 / PI).max(40.0);
        let side = 2.0 * radius + 60.0;
        let c = side / 2.0;
        let pos = view
            .vertices
            .iter()
            .map(|v| {
                let a = -PI / 2.0 + 2.0 * PI * v.slot.0 as f64 / slots as f64;
                (c + radius * a.cos(), c + radius * a.sin())
            })
            .collect();
        return (pos, side, side);
    }
    // Hackenbush: levels by distance from the ground (vertex 0).
    let mut level = vec![usize::MAX; n];
    if n > 0 {
        level[0] = 0;
    }
    let mut grew = true;
    while grew {
        grew = false;
        for e in &view.edges {
            let (a, b) = e.ends;
            for (x, y) in [(a, b), (b, a)] {
                if level[x] != usize::MAX && level[x] + 1 < level[y] {
                    level[y] = level[x] + 1;
                    grew = true;
                }
            }
        }
    }
    let top = level
        .iter()
        .copied()
        .filter(|&l| l != usize::MAX)
        .max()
        .unwrap_or(0);
    let widest = (1..=top.max(1))
        .map(|l| level.iter().filter(|&&x| x == l).count())
        .max()
        .unwrap_or(1)
        .max(1);
    let (w, step) = ((widest as f64 * 70.0).max(160.0) + 40.0, 64.0);
    let h = (top as f64 + 1.0) * step + 40.0;
    let ground_y = h - 24.0;
    let mut pos = vec![(w / 2.0, ground_y); n];
    for l in 1..=top {
        let at: Vec<usize> = (0..n).filter(|&i| level[i] == l).collect();
        for (k, &i) in at.iter().enumerate() {
            let x = 20.0 + (w - 40.0) * (k as f64 + 0.5) / at.len() as f64;
            pos[i] = (x, ground_y - l as f64 * step);
        }
    }
    (pos, w, h)
}

/// The data attributes of a click target: the boards it leads to.
fn click_attrs(
    m: &partizan_games::graph_view::Moves,
    format: &dyn Fn(&partizan_games::Board) -> String,
) -> String {
    let mut s = String::new();
    for (name, b) in [("left", &m.left), ("right", &m.right), ("edit", &m.edit)] {
        if let Some(b) = b {
            let _ = write!(s, " data-{name}=\"{}\"", escape(&format(b)));
        }
    }
    if !s.is_empty() {
        s.push_str(" style=\"cursor:pointer\"");
    }
    s
}

/// Draw a graph view (see [`graph_picture`]).
fn draw_graph(
    view: &GraphView,
    id: &str,
    format: impl Fn(&partizan_games::Board) -> String,
) -> (String, String) {
    use partizan_games::graph_view::{EdgeColour, VertexState};
    let (pos, w, h) = graph_layout(view);
    let mut svg = Svg::new(w, h).attr(&format!(
        "id=\"{}\" class=\"board graph\" data-vertices=\"{}\" data-edges=\"{}\"",
        escape(id),
        view.vertices.len(),
        view.edges.len()
    ));
    let format: &dyn Fn(&partizan_games::Board) -> String = &format;
    if view.grounded {
        svg.line(
            (8.0, h - 24.0),
            (w - 8.0, h - 24.0),
            "#5c4033",
            4.0,
            "class=\"ground\"",
        );
    }
    // Parallel edges bend apart; ground edges stand under their other end.
    let mut seen: Vec<((usize, usize), usize)> = Vec::new();
    for (k, e) in view.edges.iter().enumerate() {
        let stroke = match e.colour {
            EdgeColour::Plain => "#5c6675",
            EdgeColour::Blue => "#2563eb",
            EdgeColour::Red => "#dc2626",
            EdgeColour::Green => "#16a34a",
        };
        let key = (e.ends.0.min(e.ends.1), e.ends.0.max(e.ends.1));
        let nth = match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                seen.push((key, 0));
                0
            }
        };
        let extra = format!(
            "class=\"graph-edge\" data-edge=\"{k}\" stroke-linecap=\"round\"{}",
            click_attrs(&e.moves, format)
        );
        let (a, b) = (pos[e.ends.0], pos[e.ends.1]);
        if e.ends.0 == e.ends.1 {
            let r = 12.0 + 6.0 * nth as f64;
            let extra = format!("stroke=\"{stroke}\" stroke-width=\"4\" {extra}");
            svg.circle(a.0, a.1 - r, r, "none", &extra);
            continue;
        }
        let (a, b) = if view.grounded && (e.ends.0 == 0 || e.ends.1 == 0) {
            let top = if e.ends.0 == 0 { b } else { a };
            let shift = 14.0 * nth as f64;
            ((top.0 + shift, h - 24.0), top)
        } else {
            (a, b)
        };
        if nth == 0 || (view.grounded && (e.ends.0 == 0 || e.ends.1 == 0)) {
            svg.line(a, b, stroke, 4.0, &extra);
        } else {
            // Bend the k-th parallel edge sideways at its middle.
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let off = 12.0 * nth.div_ceil(2) as f64 * if nth % 2 == 1 { 1.0 } else { -1.0 };
            let mid = (
                (a.0 + b.0) / 2.0 - dy / len * off,
                (a.1 + b.1) / 2.0 + dx / len * off,
            );
            svg.polyline(&[a, mid, b], stroke, 4.0, &extra);
        }
    }
    for (i, v) in view.vertices.iter().enumerate() {
        let (x, y) = pos[i];
        let (fill, ink) = match v.state {
            VertexState::Open => ("#ffffff", "#1d2430"),
            VertexState::LeftOnly => ("#2563eb", "#ffffff"),
            VertexState::RightOnly => ("#dc2626", "#ffffff"),
            VertexState::Plain => ("#1d2430", "#ffffff"),
            VertexState::Ground => continue,
        };
        let r = if v.state == VertexState::Plain {
            5.0
        } else {
            14.0
        };
        let extra = format!(
            "stroke=\"#1d2430\" stroke-width=\"2\" class=\"graph-vertex\" data-vertex=\"{}\"{}",
            escape(&v.label),
            click_attrs(&v.moves, format)
        );
        svg.circle(x, y, r, fill, &extra);
        if v.state != VertexState::Plain {
            svg.text(
                x,
                y + 5.0,
                &v.label,
                13.0,
                "middle",
                &format!("fill=\"{ink}\" pointer-events=\"none\""),
            );
        }
    }
    svg.finish_both()
}

#[cfg(test)]
mod graph_tests {
    use super::*;

    #[test]
    fn graph_rulesets_draw_their_graphs() {
        let snort: Rules = "snort-graph".parse().unwrap();
        let (svg, tikz) = graph_picture(snort, "1-2,2-3,3-1,3:l", "g")
            .unwrap()
            .unwrap();
        assert_eq!(svg.matches("class=\"graph-vertex\"").count(), 3);
        assert_eq!(svg.matches("class=\"graph-edge\"").count(), 3);
        // Vertex 3 is Left's only: a Left move there, no Right move.
        let v3 = svg.split("data-vertex=\"3\"").nth(1).unwrap();
        let v3 = &v3[..v3.find("/>").unwrap()];
        assert!(
            v3.contains("data-left=") && !v3.contains("data-right="),
            "{v3}"
        );
        assert!(tikz.contains("circle[radius="));
        let hb: Rules = "hackenbush-graph".parse().unwrap();
        let (svg, _) = graph_picture(hb, "g-1:b,1-2:r,2-g:g,1-1:r", "h")
            .unwrap()
            .unwrap();
        assert!(svg.contains("class=\"ground\""));
        assert_eq!(svg.matches("class=\"graph-edge\"").count(), 4);
        // Grid rulesets are drawn as boards.
        let dom: Rules = "domineering".parse().unwrap();
        assert!(graph_picture(dom, "..|..", "d").unwrap().is_none());
        let (svg, _) = position_picture(dom, "..|..", "d").unwrap();
        assert!(svg.contains("data-cell=\"3\""));
        assert!(graph_picture(snort, "1-x", "g").is_err());
    }
}
