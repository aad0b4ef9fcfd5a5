//! Search machinery shared by every ruleset: region finding from the rules'
//! own move relation, symmetry folding, the position-graph and recursion-tree
//! counters, the soundness checker, and the value solver with its three
//! measured savings (memoisation, decomposition, identification).

pub mod graph;
pub mod outcome;
pub mod regions;
pub mod search;
pub mod soundness;
pub mod study;
pub mod value;

pub use value::{Decompose, RegionTable, Savings, SolveError, Solver, Stats};
