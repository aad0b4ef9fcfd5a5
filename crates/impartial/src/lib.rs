//! Impartial games: Grundy values (nim-values) by the mex recurrence.
//!
//! * Heap games ([`HeapGame`]): Nim, octal and hexadecimal take-and-break
//!   games by their code ([`OctalCode`]: `0.07` Dawson's Kayles, `0.77`
//!   Kayles, `0.137`, `4.7`, ...) and subtraction games by their set
//!   ([`SubtractionSet`]), or all-but subtraction games ([`allbut`]). Their Grundy sequences ([`GrundySequence`]) are
//!   computed by a bitset engine ([`engine`]), and periodicity is proved by
//!   the octal periodicity theorem ([`period`]), after which every value is
//!   read from the period.
//! * Graph games ([`graph`]): Kayles and Node Kayles on graphs of up to 64
//!   vertices, split into connected components.
//! * A brute-force twin ([`brute`]) plays the heap games on multisets of
//!   heaps without the Sprague-Grundy theorem, to test the rest.
//!
//! The value of a sum of impartial games is the nim-sum (XOR) of the
//! values of its parts ([`nim_sum`]).

pub mod allbut;
pub mod brute;
pub mod code;
pub mod engine;
mod error;
pub mod graph;
mod options;
pub mod period;
pub mod sequence;
pub mod subtraction;

pub use allbut::AllBut;
pub use code::OctalCode;
pub use error::ImpartialError;
pub use graph::{Graph, GraphGame, GraphOption};
pub use period::Periodicity;
pub use sequence::{GrundyReport, GrundySequence, HeapGame, SearchOptions};
pub use subtraction::SubtractionSet;

/// The nim-sum of Grundy values: the value of the sum of the games.
#[must_use]
pub fn nim_sum(values: &[u32]) -> u32 {
    values.iter().fold(0, |a, &v| a ^ v)
}

/// Read a list of heap sizes such as `3,5,7` (commas and/or spaces).
pub fn parse_heaps(text: &str) -> Result<Vec<usize>, ImpartialError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<usize>().map_err(|_| ImpartialError::BadNumber {
                what: "heaps",
                found: p.into(),
            })
        })
        .collect()
}
