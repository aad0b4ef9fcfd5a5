//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-semigroup --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod census;
mod closure;
mod stop;
mod sylver;
mod tree;
