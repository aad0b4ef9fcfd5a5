//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-web --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod support;

mod browser;
mod front_door;
mod fuzz_queries;
mod handlers;
mod load;
mod outcome_store;
mod researcher;
mod site;
mod slow;
