//! partizan-core: exact values of short partizan games.
//!
//! Every distinct canonical form is interned once in an [`Arena`] and named by a
//! small [`GameId`]; equality of values is equality of ids. Numbers are exact
//! [`Dyadic`] rationals. Values print and parse in CGSuite notation.

mod canonical;
mod compare;
pub mod dyadic;
pub mod error;
pub mod game;
pub mod notation;
pub mod serial;
mod sum;
pub mod thermo;

pub use dyadic::Dyadic;
pub use error::{DecodeError, ParseError, ValueError};
pub use game::{Arena, GameId, Nus, Outcome};
