//! Search machinery shared by every ruleset: region finding from the rules'
//! own move relation, symmetry folding, the position-graph and recursion-tree
//! counters, the soundness checker, and the value solver with its three
//! measured savings (memoisation, decomposition, identification).
//!
//! ```
//! use partizan_core::Arena;
//! use partizan_games::{Domineering, Ruleset};
//! use partizan_solve::{Savings, Solver};
//!
//! // Left places vertical dominoes: a 2 x 3 board is {2|-1/2}.
//! let board = Domineering.parse("...|...").unwrap();
//! let mut arena = Arena::new();
//! let mut solver = Solver::new(&Domineering, Savings::ALL).unwrap();
//! let g = solver.value(&mut arena, &board).unwrap();
//! assert_eq!(arena.display(g), "{2|-1/2}");
//! assert!(solver.stats().nodes > 0);
//!
//! // The three savings are switchable; the value does not change.
//! let mut plain = Solver::new(&Domineering, Savings::NONE).unwrap();
//! assert_eq!(plain.value(&mut arena, &board).unwrap(), g);
//! ```

pub mod files;
pub mod graph;
pub mod outcome;
pub mod parts;
pub mod regions;
pub mod search;
pub mod soundness;
pub mod study;
pub mod value;

pub use value::{Decompose, RegionTable, Savings, SolveError, Solver, Stats};
