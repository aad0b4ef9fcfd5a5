//! Outcomes over a range of rectangles, the tables papers print
//! (`partizan outcome RULESET --rectangles 2-8x2-8`): which rectangles
//! ([`RectangleSpec`]), and the table of their answers ([`RectangleTable`]).
//! The front end searches each board as it searches one (store, budgets,
//! progress) and adds its report here; a board its limits stopped is a `?`
//! with the reason, never a guess.

use std::fmt::Write as _;
use std::str::FromStr;

use partizan_games::{Board, Ruleset, MAX_CELLS};
use partizan_solve::outcome::Convention;
use serde::Serialize;

use crate::outcome::{nimber_text, OutcomeReport};
use crate::picture;

/// The most boards one table may ask for.
pub const MAX_RECTANGLES: usize = 1024;

/// Which rectangles: rows `rows.0..=rows.1` by columns `cols.0..=cols.1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RectangleSpec {
    /// Fewest and most rows.
    pub rows: (usize, usize),
    /// Fewest and most columns.
    pub cols: (usize, usize),
}

impl RectangleSpec {
    /// Every rectangle of the range, row by row.
    pub fn boards(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.rows.0..=self.rows.1)
            .flat_map(move |r| (self.cols.0..=self.cols.1).map(move |c| (r, c)))
    }

    /// How many rectangles.
    pub fn len(&self) -> usize {
        (self.rows.1 - self.rows.0 + 1) * (self.cols.1 - self.cols.0 + 1)
    }

    /// Never: a range holds at least one rectangle.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// One side: `N` or `A-B`.
fn side(text: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| -> Result<usize, String> {
        let n: usize = t
            .trim()
            .parse()
            .map_err(|_| format!("'{}' is not a side length", t.trim()))?;
        if n == 0 {
            return Err("a side is at least 1".to_string());
        }
        if n > MAX_CELLS {
            return Err(format!(
                "a side of {n} is over {MAX_CELLS}, the most cells a board holds"
            ));
        }
        Ok(n)
    };
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(format!("{a}-{b} runs backwards"));
            }
            Ok((a, b))
        }
        None => {
            let n = number(text)?;
            Ok((n, n))
        }
    }
}

impl FromStr for RectangleSpec {
    type Err = String;

    /// `ROWSxCOLS`, each side `N` or `A-B` (`2-8x2-8`, `3x4-20`); one side
    /// alone (`2-8`) is both.
    fn from_str(text: &str) -> Result<RectangleSpec, String> {
        let text = text.trim();
        let (rows, cols) = match text.split_once(['x', 'X', '×']) {
            Some((r, c)) => (side(r)?, side(c)?),
            None => {
                let s = side(text)?;
                (s, s)
            }
        };
        let spec = RectangleSpec { rows, cols };
        let n = (rows.1 - rows.0 + 1).saturating_mul(cols.1 - cols.0 + 1);
        if n > MAX_RECTANGLES {
            return Err(format!(
                "{n} rectangles; at most {MAX_RECTANGLES} in one table"
            ));
        }
        Ok(spec)
    }
}

/// Every board of `spec` in `r`, row by row, each parsed before any is
/// searched: a ruleset without a standard rectangle, or a board too large
/// for it, is an error naming it now rather than after hours of search.
pub fn rectangle_boards<R: Ruleset>(
    r: &R,
    spec: &RectangleSpec,
) -> Result<Vec<(usize, usize, Board)>, String> {
    spec.boards()
        .map(|(rows, cols)| {
            let text = r.rectangle(rows, cols).ok_or_else(|| {
                if r.rectangle(2, 2).is_some() {
                    format!("{} has no {rows} x {cols} rectangle", r.name())
                } else {
                    format!(
                        "{} has no standard rectangle (search a board instead)",
                        r.name()
                    )
                }
            })?;
            let board = r
                .parse(&text)
                .map_err(|e| format!("the {rows} x {cols} board: {e}"))?;
            Ok((rows, cols, board))
        })
        .collect()
}

/// One rectangle's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RectangleCell {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The board searched.
    pub board: String,
    /// The outcome class (L, R, N, P); `null` when only one first player
    /// was searched or the search was stopped.
    pub outcome: Option<&'static str>,
    /// Left wins moving first (`null`: not searched or stopped).
    pub left_first_wins: Option<bool>,
    /// Right wins moving first (`null`: not searched or stopped).
    pub right_first_wins: Option<bool>,
    /// The nimber, when asked (`--nimber`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nimber: Option<u32>,
    /// Nodes searched (0 from the store or when stopped).
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: f64,
    /// Answered from the persistent store.
    pub from_store: bool,
    /// Why no answer: the limit that stopped the search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

impl RectangleCell {
    /// The cell of a finished search.
    pub fn of(rows: usize, cols: usize, rep: &OutcomeReport) -> RectangleCell {
        RectangleCell {
            rows,
            cols,
            board: rep.board.clone(),
            outcome: rep.outcome,
            left_first_wins: rep.left_first_wins,
            right_first_wins: rep.right_first_wins,
            nimber: rep.nimber,
            nodes: rep.stats.nodes,
            time_ms: rep.time_ms,
            from_store: rep.from_store,
            stopped: None,
        }
    }

    /// The cell of a search that a limit stopped (`why`).
    pub fn stopped(
        rows: usize,
        cols: usize,
        board: String,
        time_ms: f64,
        why: String,
    ) -> RectangleCell {
        RectangleCell {
            rows,
            cols,
            board,
            outcome: None,
            left_first_wins: None,
            right_first_wins: None,
            nimber: None,
            nodes: 0,
            time_ms,
            from_store: false,
            stopped: Some(why),
        }
    }

    /// What the grid shows: the nimber when there is one, else the class,
    /// else who wins moving first (`L1`/`R1`: wins, `L0`/`R0`: loses),
    /// else `?`.
    pub fn glyph(&self) -> String {
        if let Some(n) = self.nimber {
            return nimber_text(n);
        }
        if let Some(c) = self.outcome {
            return c.to_string();
        }
        match (self.left_first_wins, self.right_first_wins) {
            (Some(w), _) => format!("L{}", u8::from(w)),
            (_, Some(w)) => format!("R{}", u8::from(w)),
            _ => "?".to_string(),
        }
    }
}

/// Outcomes over a range of rectangles (`--json`: this type).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RectangleTable {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// Normal or misère play.
    pub convention: Convention,
    /// The range.
    pub spec: RectangleSpec,
    /// Each rectangle searched so far, row by row.
    pub cells: Vec<RectangleCell>,
}

impl RectangleTable {
    /// An empty table of `spec`.
    pub fn new(
        ruleset: &'static str,
        convention: Convention,
        spec: RectangleSpec,
    ) -> RectangleTable {
        RectangleTable {
            ruleset,
            convention,
            spec,
            cells: Vec::with_capacity(spec.len()),
        }
    }

    /// The cells a row at a time, each row's columns in order (what every
    /// rendering of the grid walks).
    pub fn grid_rows(&self) -> std::slice::Chunks<'_, RectangleCell> {
        self.cells.chunks(self.spec.cols.1 - self.spec.cols.0 + 1)
    }

    /// The boards a limit stopped.
    pub fn stopped(&self) -> impl Iterator<Item = &RectangleCell> {
        self.cells.iter().filter(|c| c.stopped.is_some())
    }

    /// Nodes over every board.
    pub fn nodes(&self) -> u64 {
        self.cells.iter().map(|c| c.nodes).sum()
    }

    /// Boards answered from the store.
    pub fn from_store(&self) -> usize {
        self.cells.iter().filter(|c| c.from_store).count()
    }

    /// The title every rendering puts above the grid.
    pub fn title(&self) -> String {
        let play = match self.convention {
            Convention::Normal => "normal play",
            Convention::Misere => "misère play",
        };
        format!("{} on rectangles, {play}", self.ruleset)
    }

    /// What the signs in the grid mean: only the kinds of answer it shows
    /// (the text form, the site's page and the picture all print this).
    pub fn legend(&self) -> Vec<&'static str> {
        let mut legend = vec!["rows down, columns across"];
        if self.cells.iter().any(|c| c.nimber.is_some()) {
            legend.push("0, *, *2, ... the nimber");
        }
        if self
            .cells
            .iter()
            .any(|c| c.nimber.is_none() && c.outcome.is_some())
        {
            legend.push("L Left wins, R Right wins, N the first player, P the second");
        }
        if self
            .cells
            .iter()
            .any(|c| c.outcome.is_none() && c.stopped.is_none())
        {
            legend.push("L1/L0 (R1/R0) Left (Right) moving first wins/loses");
        }
        if self.cells.iter().any(|c| c.stopped.is_some()) {
            legend.push("? stopped by a limit");
        }
        legend
    }

    /// The text form: a grid, rows down and columns across, then the
    /// boards that were stopped and the totals.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} ({})", self.title(), self.legend().join("; "));
        let w = self
            .cells
            .iter()
            .map(|c| c.glyph().chars().count())
            .chain([self.spec.cols.1.to_string().len()])
            .max()
            .unwrap_or(1);
        let lead = self.spec.rows.1.to_string().len();
        let _ = write!(s, "{:lead$}", "");
        for c in self.spec.cols.0..=self.spec.cols.1 {
            let _ = write!(s, " {c:>w$}");
        }
        s.push('\n');
        for row in self.grid_rows() {
            let _ = write!(s, "{:>lead$}", row[0].rows);
            for c in row {
                let _ = write!(s, " {:>w$}", c.glyph());
            }
            s.push('\n');
        }
        for c in self.stopped() {
            let _ = writeln!(
                s,
                "{} x {}: {}",
                c.rows,
                c.cols,
                c.stopped.as_deref().unwrap_or_default()
            );
        }
        let ms: f64 = self.cells.iter().map(|c| c.time_ms).sum();
        let stored = self.from_store();
        let _ = writeln!(
            s,
            "{} boards, {} nodes, {:.2} s{}",
            self.cells.len(),
            self.nodes(),
            ms / 1e3,
            if stored > 0 {
                format!(", {stored} from the store")
            } else {
                String::new()
            }
        );
        s
    }
}

/// The fill of a cell in the picture: Left's colour, Right's, the first
/// player's and the second player's (a nimber: 0 the second player's,
/// any other the first player's); one first player's answer in a pale
/// shade of the winner's colour; white for a stopped board.
fn fill(c: &RectangleCell) -> &'static str {
    const LEFT: &str = "#81a1c1";
    const RIGHT: &str = "#d08770";
    const FIRST: &str = "#ebcb8b";
    const SECOND: &str = "#d8dee9";
    if let Some(n) = c.nimber {
        return if n == 0 { SECOND } else { FIRST };
    }
    match c.outcome {
        Some("L") => LEFT,
        Some("R") => RIGHT,
        Some("N") => FIRST,
        Some(_) => SECOND,
        None => match (c.left_first_wins, c.right_first_wins) {
            (Some(true), _) | (_, Some(false)) => "#d5e1ee",
            (Some(false), _) | (_, Some(true)) => "#f3d9cd",
            _ => "#ffffff",
        },
    }
}

impl RectangleTable {
    /// The table drawn for a paper, as SVG and as TikZ (one drawing):
    /// a coloured grid, rows down and columns across, each cell its sign
    /// ([`RectangleCell::glyph`]) on its class's colour, the title above
    /// and the legend below.
    pub fn picture(&self) -> (String, String) {
        const CELL: f64 = 30.0;
        const PAD: f64 = 10.0;
        let cols = self.spec.cols.1 - self.spec.cols.0 + 1;
        let rows = self.grid_rows().len().max(1);
        let legend = self.legend();
        let glyph_width = self
            .cells
            .iter()
            .map(|c| c.glyph().chars().count())
            .max()
            .unwrap_or(1) as f64;
        let cell_w = CELL.max(glyph_width * 8.0 + 8.0);
        let (x0, y0) = (PAD + 28.0, PAD + 50.0);
        let title = self.title();
        let width = (x0 + cols as f64 * cell_w + PAD)
            .max(PAD * 2.0 + title.chars().count() as f64 * 7.5)
            .max(
                PAD * 2.0
                    + legend.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64 * 6.0,
            );
        let height = y0 + rows as f64 * CELL + 12.0 + legend.len() as f64 * 14.0 + PAD;
        let mut svg =
            picture::Svg::new(width, height).attr("font-family=\"Helvetica, Arial, sans-serif\"");
        svg.rect(0.0, 0.0, width, height, "#ffffff", "");
        svg.text(PAD, PAD + 14.0, &title, 14.0, "start", "");
        svg.text(
            x0 + cols as f64 * cell_w / 2.0,
            y0 - 22.0,
            "columns",
            10.0,
            "middle",
            "fill=\"#4c566a\"",
        );
        for (i, c) in (self.spec.cols.0..=self.spec.cols.1).enumerate() {
            let x = x0 + (i as f64 + 0.5) * cell_w;
            svg.text(x, y0 - 6.0, &c.to_string(), 11.0, "middle", "");
        }
        svg.text(
            PAD + 4.0,
            y0 + rows as f64 * CELL / 2.0,
            "rows",
            10.0,
            "middle",
            &format!(
                "fill=\"#4c566a\" transform=\"rotate(-90 {} {})\"",
                picture::num(PAD + 4.0),
                picture::num(y0 + rows as f64 * CELL / 2.0)
            ),
        );
        for (r, row) in self.grid_rows().enumerate() {
            let y = y0 + r as f64 * CELL;
            svg.text(
                x0 - 6.0,
                y + CELL / 2.0 + 4.0,
                &row[0].rows.to_string(),
                11.0,
                "end",
                "",
            );
            for (i, c) in row.iter().enumerate() {
                let x = x0 + i as f64 * cell_w;
                svg.rect(
                    x,
                    y,
                    cell_w,
                    CELL,
                    fill(c),
                    "stroke=\"#ffffff\" stroke-width=\"1.5\"",
                );
                svg.text(
                    x + cell_w / 2.0,
                    y + CELL / 2.0 + 4.5,
                    &c.glyph(),
                    12.0,
                    "middle",
                    "",
                );
            }
        }
        let mut y = y0 + rows as f64 * CELL + 12.0;
        for line in &legend {
            y += 14.0;
            svg.text(PAD, y - 3.0, line, 10.0, "start", "fill=\"#4c566a\"");
        }
        svg.finish_both()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_say_why() {
        let s: RectangleSpec = "2-4x3".parse().unwrap();
        assert_eq!((s.rows, s.cols, s.len()), ((2, 4), (3, 3), 3));
        assert_eq!(s.boards().collect::<Vec<_>>(), [(2, 3), (3, 3), (4, 3)]);
        let s: RectangleSpec = " 2-3 ".parse().unwrap();
        assert_eq!(
            s.boards().collect::<Vec<_>>(),
            [(2, 2), (2, 3), (3, 2), (3, 3)]
        );
        assert_eq!("5×6".parse::<RectangleSpec>().unwrap().len(), 1);
        for (bad, why) in [
            ("", "not a side"),
            ("0x3", "at least 1"),
            ("4-2x3", "backwards"),
            ("1-40x1-40", "at most 1024"),
            ("2-x3", "not a side"),
            ("axb", "not a side"),
            ("99999999999999999999999x2", "not a side"),
            // once parsed, then a board text of 200 GB was built for it
            ("99999999999x2", "over 128"),
            ("2x129", "over 128"),
            ("129", "over 128"),
        ] {
            let e = bad.parse::<RectangleSpec>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn the_grid_shows_each_answer_in_place() {
        let spec: RectangleSpec = "1-2x1-3".parse().unwrap();
        let mut t = RectangleTable::new("domineering", Convention::Normal, spec);
        let class = ["P", "R", "R", "L", "N", "N"];
        for ((r, c), k) in spec.boards().zip(class) {
            let mut cell = RectangleCell::stopped(r, c, String::new(), 1.0, String::new());
            cell.stopped = None;
            cell.outcome = Some(k);
            cell.nodes = 10;
            t.cells.push(cell);
        }
        t.cells[5] = RectangleCell::stopped(2, 3, "...|...".into(), 5.0, "time limit".into());
        let text = t.render_text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("N the first player") && lines[0].contains("? stopped"));
        assert!(!lines[0].contains("nimber") && !lines[0].contains("L1/L0"));
        assert_eq!(lines[1], "  1 2 3");
        assert_eq!(lines[2], "1 P R R");
        assert_eq!(lines[3], "2 L N ?");
        assert_eq!(lines[4], "2 x 3: time limit");
        assert!(lines[5].starts_with("6 boards, 50 nodes"), "{}", lines[5]);
        // A nimber shows as a nimber, one first player's answer as L1/L0.
        let mut t = RectangleTable::new("cram", Convention::Normal, "1x1-2".parse().unwrap());
        let mut cell = RectangleCell::stopped(1, 1, ".".into(), 1.0, String::new());
        cell.stopped = None;
        let (mut nim, mut left) = (cell.clone(), cell);
        nim.nimber = Some(2);
        left.left_first_wins = Some(false);
        t.cells = vec![nim, left];
        let text = t.render_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], "1 *2 L0");
        assert!(lines[0].contains("the nimber") && lines[0].contains("L1/L0"));
        assert!(!lines[0].contains("? stopped"));
    }

    #[test]
    fn the_picture_draws_every_cell_on_its_colour() {
        let spec: RectangleSpec = "1-2x1-3".parse().unwrap();
        let mut t = RectangleTable::new("domineering", Convention::Normal, spec);
        for ((r, c), k) in spec.boards().zip(["P", "R", "R", "L", "N", "N"]) {
            let mut cell = RectangleCell::stopped(r, c, String::new(), 1.0, String::new());
            cell.stopped = None;
            cell.outcome = Some(k);
            t.cells.push(cell);
        }
        t.cells[5] = RectangleCell::stopped(2, 3, "...|...".into(), 5.0, "time limit".into());
        let (svg, tikz) = t.picture();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        // The background and one rectangle per cell, on its class's colour.
        assert_eq!(svg.matches("<rect").count(), 1 + 6);
        for (class, colour, n) in [
            ("P", "#d8dee9", 1),
            ("R", "#d08770", 2),
            ("L", "#81a1c1", 1),
            ("N", "#ebcb8b", 1),
            ("?", "fill=\"#ffffff\" stroke", 1),
        ] {
            assert_eq!(svg.matches(colour).count(), n, "{class}");
            assert!(svg.contains(&format!(">{class}</text>")), "{class}");
        }
        assert!(svg.contains("domineering on rectangles, normal play"));
        for line in t.legend() {
            assert!(svg.contains(line), "{line}");
        }
        // The same drawing in TikZ: one path per rectangle, every sign.
        assert!(tikz.contains("\\begin{tikzpicture}"));
        assert_eq!(tikz.matches("rectangle (").count(), 1 + 1 + 6);
        assert_eq!(tikz.matches("{N}").count(), 1);
        // Nimbers: 0 on the second player's colour, others the first's.
        let mut t = RectangleTable::new("cram", Convention::Normal, "1x1-2".parse().unwrap());
        for n in [0, 3] {
            let mut cell =
                RectangleCell::stopped(1, 1 + n as usize, ".".into(), 1.0, String::new());
            cell.stopped = None;
            cell.nimber = Some(n);
            t.cells.push(cell);
        }
        let (svg, _) = t.picture();
        assert!(svg.contains("fill=\"#d8dee9\"") && svg.contains(">*3</text>"));
        assert!(svg.contains("fill=\"#ebcb8b\""));
    }
}
