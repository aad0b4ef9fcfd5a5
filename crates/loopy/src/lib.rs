//! partizan-loopy: games whose play can return to a position.
//!
//! * [`graph`]: game graphs ([`Graph`]), sums and negatives, outcomes under
//!   normal play with infinite play a draw ([`LoopyOutcome`]), stoppers
//!   (no play alternates forever).
//! * [`stopper`]: comparison of stoppers by survival, and their simplest
//!   forms (fusion, dominated and reversible options), each pass checked.
//! * [`parse`] and [`display`]: CGSuite's loopy notation (`pass`, labels
//!   `a{...}`, `on`, `off`, `over`, `under`, `upon`, `dud`, `tis`, `tisn`,
//!   short values in the normal-play notation).
//!
//! * [`sided`]: sides compared by their definition (a Büchi game), and
//!   sides found by deleting the edges that do not matter, checked.
//! * [`stops`]: Left and Right stops of stoppers (numbers, `on`, `off`).
//! * [`valuation`]: every position of a large stopper graph valued, one
//!   strongly connected part at a time, the values interned.
//! * [`rules`]: rulesets whose play can cycle (Fox and Geese, Backsliding
//!   Toads and Frogs), explored into graphs: the loopy registry.
//!
//! Short games stay with the normal-play engine: a loopy graph with no
//! cycle is handed to `partizan-core`, so its form is the canonical form.

pub mod display;
mod error;
pub mod graph;
pub mod parse;
pub mod rules;
pub mod sided;
pub mod sides;
pub mod stopper;
pub mod stops;
pub mod valuation;

pub use error::LoopyError;
pub use graph::{Graph, LoopyOutcome, Play, DEFAULT_MAX_NODES};
pub use rules::{LoopyRules, LoopyRuleset};
pub use stopper::Relation;
