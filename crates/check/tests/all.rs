//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-check --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod format;
mod leaves;
mod packing;
mod parts;
mod values;
