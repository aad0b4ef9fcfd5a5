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
