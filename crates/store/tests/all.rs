//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-store --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod common;

mod concurrency;
mod fault_injection;
mod faults;
mod fuzz_import;
mod golden;
mod outcome_import;
mod roundtrip;
mod sealed_rows;
mod session;
