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
//!
//! The toolkit of the subject works on the same ids: comparison
//! ([`Arena::compare`]), atomic weight ([`atomic`]), reduced canonical form
//! ([`reduced`]), thermographs with exact walls ([`thermo`]), cooling,
//! heating, overheating, freezing, incentives and orthodox options
//! ([`temperature_ops`]), sizes without printing ([`size`]), and CGSuite or
//! LaTeX notation ([`notation`]).
//!
//! ```
//! use partizan_core::{Arena, Comparison, Dyadic};
//!
//! let mut a = Arena::new();
//! let g = a.parse("{1|0} + ^ - *2").unwrap();
//! assert_eq!(a.display(g), "{1^*2|^*2}");
//! let (up, star) = (a.up(), a.star());
//! assert_eq!(a.compare(up, star), Comparison::Confused);
//! let w = a.parse("^^*").unwrap();
//! let aw = a.atomic_weight(w).unwrap();
//! assert_eq!(a.display(aw), "2");
//! let h = a.parse("{3||2*|1*}").unwrap();
//! let r = a.reduced(h).unwrap();
//! assert_eq!(a.display(r), "{3||2|1}");
//! let frozen = a.freeze(h).unwrap();
//! assert_eq!(a.mean(frozen), a.mean(h));
//! let th = a.thermograph(h).unwrap();
//! assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), a.left_stop(h));
//! assert_eq!(a.display_latex(r), r"\{3 \,\|\, 2 \mid 1\}");
//! assert_eq!(a.size_summary(h).printed_len, a.display(h).len());
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
pub mod toolkit;

pub use atomic::TwoAhead;
pub use cache::WordMap;
pub use compare::Comparison;
pub use dyadic::Dyadic;
pub use error::{DecodeError, OpError, ParseError, ValueError};
pub use game::{Arena, GameId, Nus, Outcome};
pub use notation::Literal;
pub use size::SizeSummary;
pub use temperature_ops::{Incentives, Orthodox};
pub use toolkit::Toolkit;
