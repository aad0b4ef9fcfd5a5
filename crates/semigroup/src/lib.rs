//! Numerical semigroups, the tree of semigroups, and Sylver Coinage.
mod bits;
pub mod error;
pub mod semigroup;
pub mod tree;

pub use error::SemigroupError;
pub use semigroup::Semigroup;
pub use tree::{count_by_genus, for_each_semigroup};
