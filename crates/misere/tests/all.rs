//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-misere --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod canonical;
mod definition;
mod partizan;
mod quotient;
