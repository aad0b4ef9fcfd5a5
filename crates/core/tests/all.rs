//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-core --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod deep_values;
mod domineering;
mod fuzz_notation;
mod properties;
mod toolkit;
