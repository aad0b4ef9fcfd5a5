//! The [`Ruleset`] trait: what a game on a grid must say about itself so
//! that generic machinery (regions, symmetry folding, counting, solving)
//! can work on it without knowing the game.

use crate::board::{Bits, Board, Player};
use crate::error::BoardError;
use crate::transform::Symmetry;

/// A game played on a [`Board`].
///
/// Options stream to a callback, so generating them allocates nothing.
/// The ruleset also owns the *footprint relation* that regions are built
/// from: two cells are related when some move the rules could ever offer
/// (from this position or any position below it) reads or writes both.
pub trait Ruleset: Send + Sync {
    /// What the ruleset says about itself: name, aliases, board glyphs,
    /// an example board. Front ends read everything they show from here.
    fn info(&self) -> &'static RulesetInfo;

    /// Short lower-case name, e.g. `"domineering"`.
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// Parse a board from rows separated by `|` or newlines. The default
    /// reads the glyph table of [`info`](Self::info) with [`parse_glyphs`].
    fn parse(&self, text: &str) -> Result<Board, BoardError> {
        parse_glyphs(text, self.info())
    }

    /// Print a board as rows joined by `|`; `parse(format(b)) == b`. The
    /// default prints the first glyph of each layer of the glyph table.
    fn format(&self, b: &Board) -> String {
        format_glyphs(b, self.info())
    }

    /// Call `f` once per option of player `p` (with multiplicity: two moves
    /// reaching the same position are two calls).
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F);

    /// Call `f` on player `p`'s options until it returns `false`; returns
    /// whether every option was seen (`false`: `f` stopped early). The
    /// default runs [`options`](Self::options) and skips the calls after a
    /// stop; rulesets override it to stop generating too (a search that has
    /// found a winning move wants no more).
    fn options_while<F: FnMut(Board) -> bool>(&self, b: &Board, p: Player, mut f: F) -> bool {
        let mut going = true;
        self.options(b, p, |o| {
            if going {
                going = f(o);
            }
        });
        going
    }

    /// Call `f` with the footprint (cells read or written) of every move the
    /// rules could ever offer from `b` or any position below it. A sound
    /// over-approximation: a footprint may also be reported in overlapping
    /// pieces, as long as the pieces of each real move are joined through
    /// shared cells (the regions built from them are then the same).
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F);

    /// Cells joined to `set` by some footprint: the union of the footprints
    /// that meet `set`. The default derives it from [`footprints`]
    /// (Self::footprints); rulesets may override it with a fast path that
    /// must return the same set.
    fn related(&self, b: &Board, set: Bits) -> Bits {
        derived_related(self, b, set)
    }

    /// The cells that belong to the position (the ones regions partition).
    fn cells(&self, b: &Board) -> Bits;

    /// The symmetries positions are folded by; the identity comes first.
    fn symmetries(&self) -> &'static [Symmetry];

    /// Apply a symmetry: the geometric transform, plus the ruleset's own
    /// colour swap when `negates` (Domineering needs none: its transposes
    /// swap the players by geometry alone).
    fn apply(&self, b: &Board, s: Symmetry) -> Board;

    /// Fold a cropped board by a symmetry group the rectangle's transforms
    /// cannot describe (a graph ruleset's vertex relabellings): the board
    /// of this ruleset that every position isomorphic to `b` folds to, its
    /// value `b`'s (negated when the flag is set). `None`, the default,
    /// leaves folding to [`symmetries`](Self::symmetries) alone.
    fn fold_isomorphic(&self, _b: &Board) -> Option<(Board, bool)> {
        None
    }

    /// Whether boards only ever fall apart: a partition into regions valid
    /// at a position stays valid at every position below it.
    fn only_falls_apart(&self) -> bool;

    /// Whether both players always have the same options.
    fn impartial(&self) -> bool;

    /// Cheap, conservative test: could the move `before -> after` have split
    /// a region? `false` promises the regions of `after` are those of
    /// `before` restricted to `after`'s cells.
    fn may_split(&self, before: &Board, after: &Board) -> bool;

    /// The `rows` x `cols` board that tables of this ruleset study, as
    /// board text: an empty grid for the placement games, the
    /// checkerboard for Clobber, Kōnane's opening, Amazons' queens in
    /// opposite corners; `None` (the default) where the ruleset
    /// has no one such board (`partizan outcome --rectangles`).
    fn rectangle(&self, _rows: usize, _cols: usize) -> Option<String> {
        None
    }

    // What an outcome search may use (the solver's `search` module): each
    // method has a conservative default, so a ruleset without special
    // knowledge searches correctly, only slower.

    /// The number of options `p` has in `b` (an outcome search orders its
    /// moves by it). The default counts [`options`](Self::options).
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let mut n = 0;
        self.options(b, p, |_| n += 1);
        n
    }

    /// Bounds on the moves `p` can make in `b` (see [`MoveBounds`]), or
    /// `None` when the ruleset knows none. Used under normal play only;
    /// an outcome search cuts off lines by them, so they must be true.
    fn move_bounds(&self, _b: &Board, _p: Player) -> Option<MoveBounds> {
        None
    }

    /// Whether [`footprints`](Self::footprints) reports each move's whole
    /// footprint as one piece, and a move's legality depends only on the
    /// cells of its footprint. An outcome search then uses the mirror
    /// strategy (a position that a player-swapping involution of the rules
    /// keeps, with no footprint meeting its own image, is a second-player
    /// win). `false` (the default) never claims it.
    fn footprints_whole(&self) -> bool {
        false
    }

    /// How many cells a region may have for an outcome search to value it
    /// exactly rather than search it (measured per ruleset: large enough
    /// to cut the search, small enough that valuing costs less than
    /// searching).
    fn default_value_cells(&self) -> u32 {
        12
    }

    /// How an outcome search on two threads shares the work unless told
    /// otherwise (measured per ruleset with `cargo bench -p
    /// partizan-solve --bench outcome -- threads`): the default splits the
    /// root's moves between the threads.
    fn default_parallel(&self) -> TwoThreads {
        TwoThreads::RootSplit
    }

    /// How good `b` (just reached by a move of `mover`) looks for `mover`,
    /// for an outcome search's "safety" move ordering: fewer opponent's
    /// moves, more own safe moves and fewer of the opponent's. Only the
    /// order of moves depends on it, never an answer.
    fn safety_score(&self, b: &Board, mover: Player) -> i32 {
        let other = mover.opponent();
        let mut score = -(self.mobility(b, other) as i32);
        if let (Some(x), Some(y)) = (self.move_bounds(b, mover), self.move_bounds(b, other)) {
            score += x.safe as i32 - y.safe as i32;
        }
        score
    }
}

/// How two threads share an outcome search ([`Ruleset::default_parallel`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TwoThreads {
    /// One first player after the other, each thread taking every other
    /// first move.
    RootSplit,
    /// One thread per first player, at the same time.
    FirstPlayers,
}

/// Bounds on the number of moves one player can make in a position
/// ([`Ruleset::move_bounds`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// Moves the player can make whatever both players do, if the player
    /// plays only these moves: pairwise disjoint and out of the opponent's
    /// reach ("safe" moves).
    pub safe: u32,
    /// At most this many moves can the player make under any play.
    pub max: u32,
}

/// The move bounds of a capturing game whose stones are layer 0 (Left's)
/// and layer 1 (Right's): every move takes at least one of the opponent's
/// stones, so `p` makes at most as many moves as the opponent has stones.
pub(crate) fn capture_bounds(b: &Board, p: Player) -> MoveBounds {
    let theirs = match p {
        Player::Left => b.layer(1),
        Player::Right => b.layer(0),
    };
    MoveBounds {
        safe: 0,
        max: theirs.count_ones(),
    }
}

/// The related set derived from [`Ruleset::footprints`]: the union of every
/// footprint that meets `set`. The reference the fast paths are tested
/// against.
pub fn derived_related<R: Ruleset + ?Sized>(r: &R, b: &Board, set: Bits) -> Bits {
    let mut out = 0;
    r.footprints(b, |fp| {
        if fp & set != 0 {
            out |= fp;
        }
    });
    out
}

/// What a character of a board's text stands for, as a parser callback
/// sees it (see [`parse_grid`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Glyph {
    /// A cell in the given layer (0, 1 or 2).
    Layer(usize),
    /// A hole (cell in no layer).
    Hole,
    /// A piece letter of another ruleset; the string says what it is.
    Foreign(&'static str),
    /// Not a board character at all.
    Unknown,
}

/// One character of a ruleset's board text, as its glyph table lists it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct GlyphSpec {
    /// The character.
    pub ch: char,
    /// The layer it puts the cell in, or `None` for a hole.
    pub layer: Option<usize>,
    /// What it means, in a few words ("a Left stone").
    pub meaning: &'static str,
}

impl GlyphSpec {
    /// A character that puts its cell in `layer`.
    pub const fn layer(ch: char, layer: usize, meaning: &'static str) -> GlyphSpec {
        GlyphSpec {
            ch,
            layer: Some(layer),
            meaning,
        }
    }

    /// A character that leaves its cell in no layer (a hole).
    pub const fn hole(ch: char, meaning: &'static str) -> GlyphSpec {
        GlyphSpec {
            ch,
            layer: None,
            meaning,
        }
    }
}

/// What a ruleset says about itself, for the registry and every front end.
#[derive(Debug)]
pub struct RulesetInfo {
    /// Short lower-case ASCII name, the one front ends and the store use.
    pub name: &'static str,
    /// Other spellings accepted on input (compared case-insensitively).
    pub aliases: &'static [&'static str],
    /// The name as a person writes it ("Kōnane").
    pub title: &'static str,
    /// One sentence on the rules.
    pub summary: &'static str,
    /// The board characters. For each layer the first glyph listed is the
    /// one [`format_glyphs`] prints, and likewise the first hole.
    pub glyphs: &'static [GlyphSpec],
    /// The characters an editor cycles a cell through, in order.
    pub edit_cycle: &'static str,
    /// The characters a cell of a region may hold, used to enumerate every
    /// filling of a shape (e.g. `x`, `o` for Clobber; `.` for Domineering).
    pub fillings: &'static [char],
    /// A board to start from when none is given.
    pub example: &'static str,
    /// The largest board (cells, holes included) the site values on a
    /// request: a size cap that keeps an interactive answer interactive.
    pub site_cells: usize,
}

impl RulesetInfo {
    /// The glyph a cell in `layer` prints as, if the ruleset has one.
    pub fn layer_glyph(&self, layer: usize) -> Option<char> {
        self.glyphs
            .iter()
            .find(|g| g.layer == Some(layer))
            .map(|g| g.ch)
    }

    /// The glyph a hole prints as.
    pub fn hole_glyph(&self) -> char {
        self.glyphs
            .iter()
            .find(|g| g.layer.is_none())
            .map_or('#', |g| g.ch)
    }

    /// What `ch` means on this ruleset's boards.
    pub fn glyph(&self, ch: char) -> Glyph {
        match self.glyphs.iter().find(|g| g.ch == ch) {
            Some(GlyphSpec { layer: Some(k), .. }) => Glyph::Layer(*k),
            Some(GlyphSpec { layer: None, .. }) => Glyph::Hole,
            None => common_glyph(ch),
        }
    }
}

/// The glyph of a character that a ruleset's own table does not list:
/// another ruleset's piece letter, or nothing at all.
pub fn common_glyph(ch: char) -> Glyph {
    match ch {
        'x' | 'o' => Glyph::Foreign("stones"),
        'L' | 'R' => Glyph::Foreign("queens"),
        _ => Glyph::Unknown,
    }
}

/// Parse board text with a ruleset's glyph table: the default
/// [`Ruleset::parse`].
///
/// ```
/// use partizan_games::{parse_glyphs, Clobber, Ruleset};
/// let b = parse_glyphs("xo.|.ox", Clobber.info()).unwrap();
/// assert_eq!(b.layer(0).count_ones(), 2);
/// ```
pub fn parse_glyphs(text: &str, info: &RulesetInfo) -> Result<Board, BoardError> {
    parse_grid(text, info.name, |ch| info.glyph(ch))
}

/// Print a board with a ruleset's glyph table: the default
/// [`Ruleset::format`].
pub fn format_glyphs(b: &Board, info: &RulesetInfo) -> String {
    let g = |k| info.layer_glyph(k).unwrap_or('?');
    format_grid(b, [g(0), g(1), g(2)], info.hole_glyph())
}

/// Parse rows separated by `|` or newlines into a board, with `glyph`
/// saying what each character means (errors name `ruleset`). Leading and
/// trailing blank lines and surrounding whitespace of each row are ignored.
/// Rows must all be as long as the first; at most 128 cells.
pub fn parse_grid<G: Fn(char) -> Glyph>(
    text: &str,
    ruleset: &'static str,
    glyph: G,
) -> Result<Board, BoardError> {
    let rows: Vec<&str> = text.split(['|', '\n']).map(str::trim).collect();
    let first = rows.iter().position(|r| !r.is_empty());
    let last = rows.iter().rposition(|r| !r.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(BoardError::Empty);
    };
    let rows = &rows[first..=last];
    let width = rows[0].chars().count();
    let height = rows.len();
    for (r, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            return Err(BoardError::Ragged {
                row: r + 1,
                len,
                expected: width,
            });
        }
    }
    let cells = width * height;
    if cells > crate::board::MAX_CELLS {
        return Err(BoardError::TooManyCells {
            width,
            height,
            cells,
        });
    }
    let mut layers = [0; 3];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match glyph(ch) {
                Glyph::Layer(k) => layers[k] |= 1u128 << (r * width + c),
                Glyph::Hole => {}
                Glyph::Foreign(what) => {
                    return Err(BoardError::PieceNotAllowed {
                        ruleset,
                        what,
                        ch,
                        row: r + 1,
                        col: c + 1,
                    })
                }
                Glyph::Unknown => {
                    return Err(BoardError::UnknownChar {
                        ch,
                        row: r + 1,
                        col: c + 1,
                    })
                }
            }
        }
    }
    Board::new(width, height, layers)
}

/// Print a board row by row, `glyphs[k]` for a cell in layer `k` and `hole`
/// for a cell in none; rows joined by `|`.
pub fn format_grid(b: &Board, glyphs: [char; 3], hole: char) -> String {
    let w = b.width();
    let mut s = String::with_capacity((w + 1) * b.height());
    for r in 0..b.height() {
        if r > 0 {
            s.push('|');
        }
        for c in 0..w {
            let bit = b.bit(r, c);
            let ch = (0..3)
                .find(|&k| b.layer(k) & bit != 0)
                .map_or(hole, |k| glyphs[k]);
            s.push(ch);
        }
    }
    s
}

/// The text of an empty `rows` x `cols` grid (`.` cells, rows joined by
/// `|`), the [`Ruleset::rectangle`] of the placement games.
pub fn empty_rectangle(rows: usize, cols: usize) -> String {
    vec![".".repeat(cols); rows].join("|")
}

/// The text of a `rows` x `cols` checkerboard of `first` and `second`,
/// `first` in the top-left corner.
pub fn checkerboard(rows: usize, cols: usize, first: char, second: char) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if (r + c) % 2 == 0 { first } else { second })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}
