//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-impartial --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod graph_oeis;
mod oeis;
mod twins;
