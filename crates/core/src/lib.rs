//! partizan-core: exact values of short partizan games.
//!
//! Every distinct canonical form is interned once in an [`Arena`] and named by a
//! small [`GameId`]; equality of values is equality of ids. Numbers are exact
//! [`Dyadic`] rationals. Values print and parse in CGSuite notation.
//!
//! ```
//! use partizan_core::{Arena, Outcome};
//!
//! let mut a = Arena::new();
//! let z = a.zero();
//! let star = a.construct(&[z], &[z]).unwrap(); // {0|0}
//! let up = a.construct(&[z], &[star]).unwrap(); // {0|*}
//! let g = a.sum(up, star).unwrap();
//! assert_eq!(a.display(g), "^*");
//! assert_eq!(a.outcome(g), Outcome::N);
//!
//! let h = a.parse("{2|-1/2}").unwrap();
//! assert_eq!(a.mean(h).to_string(), "3/4");
//! assert_eq!(a.temperature(h).to_string(), "5/4");
//! let bytes = a.encode(h);
//! assert_eq!(a.decode(&bytes), Ok(h));
//! ```

#![warn(missing_docs)]

pub mod atomic;
mod cache;
mod canonical;
mod compare;
pub mod dyadic;
pub mod error;
pub mod game;
pub mod notation;
pub mod reduced;
pub mod serial;
pub mod size;
mod sum;
pub mod temperature_ops;
pub mod thermo;

pub use atomic::TwoAhead;
pub use cache::WordMap;
pub use compare::Comparison;
pub use dyadic::Dyadic;
pub use error::{DecodeError, OpError, ParseError, ValueError};
pub use game::{Arena, GameId, Nus, Outcome};
pub use size::SizeSummary;
pub use temperature_ops::{Incentives, Orthodox};
