//! partizan-semigroup
