//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-cli --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod support;

mod atlas;
mod cli;
mod edges;
mod grundy;
mod hostile;
mod jobs;
mod layout;
mod long_work;
mod manners;
mod outcome;
mod store_faults;
mod toolkit;
