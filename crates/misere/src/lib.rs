//! partizan-misere: misère play.
//!
//! * [`canon`]: impartial games under misère play in their canonical forms
//!   (Conway's simplification, interned in a [`MisereArena`]), sums, misère
//!   outcomes, and the genus symbol ([`Genus`]).
//! * [`heap`]: the canonical forms and genera of heap games (octal codes,
//!   subtraction sets, Nim) heap by heap; [`graph`]: Kayles and Node Kayles
//!   positions on graphs; [`board`]: impartial rulesets of the games
//!   registry (Cram).
//! * [`quotient`]: misère quotients of heap games, heap by heap (the
//!   monoid, its P-portion, the map from heaps to elements, periodicity),
//!   and sums' outcomes read from them.
//! * [`partizan`]: partizan games under misère play, canonical in the
//!   universe of all games or of dicots ([`partizan::PartizanArena`]), with
//!   [`board::PartizanBoardForms`] for any ruleset's boards.
//! * [`brute`]: brute-force misère search on explicit positions, the twin
//!   every fast path here is tested against.
//!
//! Misère play: the player who makes the last move loses, so a position
//! with no move is a win for the player to move (an N-position).

pub mod board;
pub mod brute;
pub mod canon;
mod error;
pub mod genus;
pub mod graph;
pub mod heap;
pub mod partizan;
pub mod quotient;

pub use canon::{GameId, MisereArena, Outcome};
pub use error::MisereError;
pub use genus::Genus;
