//! partizan-games: combinatorial games on grids of up to 128 cells.
//!
//! A position is a [`Board`]: a rectangle and three bit layers whose meaning
//! belongs to the ruleset. A [`Ruleset`] streams options to a callback,
//! declares the footprint relation regions are built from, and names the
//! symmetries positions are folded by. The [`registry`] names every
//! ruleset; front ends dispatch through [`with_rules!`].
//!
//! ```
//! use partizan_games::{Domineering, Player, Ruleset};
//! let b = Domineering.parse("..|..").unwrap();
//! let mut n = 0;
//! Domineering.options(&b, Player::Left, |_| n += 1);
//! assert_eq!(n, 2);
//! ```
//!
//! # Writing a ruleset
//!
//! A ruleset is a zero-sized type implementing [`Ruleset`]. Here is a whole
//! one: *Dots*, where either player fills one empty cell (an impartial game
//! whose value is the nimber of the parity of the empty cells). Parsing and
//! printing come from its glyph table; its footprints are single cells, so
//! every cell is its own region. To make it a registered ruleset, put it in
//! a file of this crate and add one line to the list in [`registry`].
//!
//! ```
//! use partizan_games::{
//!     each_bit, Bits, Board, GlyphSpec, Player, Ruleset, RulesetInfo, Symmetry,
//! };
//! use partizan_games::transform::GEOMETRIC;
//!
//! struct Dots;
//!
//! static INFO: RulesetInfo = RulesetInfo {
//!     name: "dots",
//!     aliases: &[],
//!     title: "Dots",
//!     summary: "Either player fills one empty cell.",
//!     glyphs: &[
//!         GlyphSpec::layer('.', 0, "an empty cell"),
//!         GlyphSpec::hole('#', "a filled cell"),
//!     ],
//!     edit_cycle: ".#",
//!     fillings: &['.'],
//!     example: "..#|...",
//!     site_cells: 20,
//! };
//!
//! impl Ruleset for Dots {
//!     fn info(&self) -> &'static RulesetInfo {
//!         &INFO
//!     }
//!     fn options<F: FnMut(Board)>(&self, b: &Board, _p: Player, mut f: F) {
//!         let e = b.layer(0);
//!         for bit in each_bit(e) {
//!             f(b.with_layers([e & !bit, 0, 0]));
//!         }
//!     }
//!     fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
//!         each_bit(b.layer(0)).for_each(|bit| f(bit));
//!     }
//!     fn cells(&self, b: &Board) -> Bits {
//!         b.layer(0)
//!     }
//!     fn symmetries(&self) -> &'static [Symmetry] {
//!         &GEOMETRIC
//!     }
//!     fn apply(&self, b: &Board, s: Symmetry) -> Board {
//!         b.transform(s.transform)
//!     }
//!     fn only_falls_apart(&self) -> bool {
//!         true
//!     }
//!     fn impartial(&self) -> bool {
//!         true
//!     }
//!     fn may_split(&self, _before: &Board, _after: &Board) -> bool {
//!         false
//!     }
//! }
//!
//! let b = Dots.parse("..#|...").unwrap();
//! assert_eq!(Dots.format(&b), "..#|...");
//! let mut n = 0;
//! Dots.options(&b, Player::Right, |_| n += 1);
//! assert_eq!(n, 5);
//! ```
//!
//! # Board text, per ruleset
//!
//! Every board is rows of characters separated by `|` or newlines; rows
//! must be equally long (at most 128 cells), and errors name the row and
//! column. Printing and parsing round-trip (`parse(format(b)) == b`).
//! Each ruleset's glyph table ([`RulesetInfo::glyphs`], listed by
//! `partizan rulesets`) is the reference; in short:
//!
//! | ruleset | characters | notes |
//! |---|---|---|
//! | [`domineering`], [`cram`] | `.` empty, `#` blocked | Left places vertical dominoes |
//! | [`clobber`], [`konane`] | `x` Left, `o` Right, `.` empty | |
//! | [`amazons`] | `L`, `R` queens, `.` empty, `#` burnt | |
//! | [`toads`] | `T` toad (Left, east), `F` frog (Right, west), `.` empty, `#` wall | each row a strip |
//! | [`snort`], [`col`] | `.` open, `l` Left only, `r` Right only, `#` dead; `L`, `R` coloured cells on input | tinted: colours become holes that tint their neighbours |
//! | [`toppling`] | `L` blue, `R` red, `G` green, `.` gap | each run of dominoes in a row a game |
//! | [`hackenbush`] | `L` blue, `R` red, `G` green edge, `.` none | each run a string grounded at its west end |
//! | [`fission`] | `x` stone, `.` empty, `#` blocked | Left splits vertically |
//! | [`nogo`] | `x` Left, `o` Right, `.` empty, `#` off the board | no captures, no suicide |
//! | [`elephants`] | `X` elephant (Left, east), `O` rhino (Right, west), `.` empty, `#` wall | each row a strip; steps only |
//! | [`hackenbush_graph`] | edge list `g-1:b,1-2:r,2-g:g` (`g` ground; colours `b`, `r`, `g`; `_` a cut edge); printed as the incidence matrix, `L`/`R`/`G` at an edge's ends, `.` elsewhere | one row per edge, the ground the first column |
//! | [`graph_placement`] (`snort-graph`, `col-graph`) | edge list `1-2,2-3,3:l` (states `.` `l` `r` `#`, coloured `L` `R`); printed as the upper adjacency matrix, vertices `.` `l` `r` `#` on the diagonal, `e` an edge above it | at most 11 vertices |

#![warn(missing_docs)]

pub mod amazons;
pub mod board;
pub mod clobber;
pub mod col;
pub mod cram;
pub mod domineering;
mod dominoes;
mod edgelist;
pub mod elephants;
pub mod error;
pub mod fission;
pub mod graph_placement;
pub mod graph_view;
pub mod hackenbush;
pub mod hackenbush_graph;
pub mod konane;
pub mod nogo;
pub mod registry;
pub mod relabel;
pub mod ruleset;
mod runs;
pub mod snort;
mod tinted;
pub mod toads;
pub mod toppling;
pub mod transform;

pub use amazons::Amazons;
pub use board::{col_range_mask, each_bit, flood, Bits, Board, Player, MAX_CELLS};
pub use clobber::Clobber;
pub use col::Col;
pub use cram::Cram;
pub use domineering::Domineering;
pub use elephants::Elephants;
pub use error::BoardError;
pub use fission::Fission;
pub use graph_placement::{ColGraph, SnortGraph};
pub use hackenbush::HackenbushStrings;
pub use hackenbush_graph::HackenbushGraph;
pub use konane::Konane;
pub use nogo::NoGo;
pub use registry::{Rules, UnknownRuleset, Visit};
pub use ruleset::{
    common_glyph, derived_related, format_glyphs, format_grid, parse_glyphs, parse_grid, Glyph,
    GlyphSpec, MoveBounds, Ruleset, RulesetInfo, TwoThreads,
};
pub use snort::Snort;
pub use toads::ToadsAndFrogs;
pub use toppling::TopplingDominoes;
pub use transform::{Symmetry, Transform};
