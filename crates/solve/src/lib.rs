//! partizan-solve
