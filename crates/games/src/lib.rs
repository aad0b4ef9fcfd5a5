//! partizan-games: combinatorial games on grids of up to 128 cells.
//!
//! A position is a [`Board`]: a rectangle and three bit layers whose meaning
//! belongs to the ruleset. A [`Ruleset`] streams options to a callback,
//! declares the footprint relation regions are built from, and names the
//! symmetries positions are folded by.
//!
//! ```
//! use partizan_games::{Domineering, Player, Ruleset};
//! let b = Domineering.parse("..|..").unwrap();
//! let mut n = 0;
//! Domineering.options(&b, Player::Left, |_| n += 1);
//! assert_eq!(n, 2);
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

#![warn(missing_docs)]

pub mod amazons;
pub mod board;
pub mod clobber;
pub mod col;
pub mod cram;
pub mod domineering;
mod dominoes;
pub mod error;
pub mod fission;
pub mod hackenbush;
pub mod konane;
pub mod nogo;
pub mod registry;
pub mod ruleset;
mod runs;
pub mod snort;
mod tinted;
pub mod toads;
pub mod toppling;
pub mod transform;

pub use amazons::Amazons;
pub use board::{each_bit, flood, Bits, Board, Player, MAX_CELLS};
pub use clobber::Clobber;
pub use col::Col;
pub use cram::Cram;
pub use domineering::Domineering;
pub use error::BoardError;
pub use fission::Fission;
pub use hackenbush::HackenbushStrings;
pub use konane::Konane;
pub use nogo::NoGo;
pub use registry::{Rules, UnknownRuleset, Visit};
pub use ruleset::{
    common_glyph, derived_related, format_glyphs, format_grid, parse_glyphs, parse_grid, Glyph,
    GlyphSpec, Ruleset, RulesetInfo,
};
pub use snort::Snort;
pub use toads::ToadsAndFrogs;
pub use toppling::TopplingDominoes;
pub use transform::{Symmetry, Transform};
