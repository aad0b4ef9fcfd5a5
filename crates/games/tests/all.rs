//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-games --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod common;

mod amazons;
mod fuzz_boards;
mod graph_fold;
mod graph_view;
mod new_rulesets;
mod props;
mod published_graphs;
mod rulesets;
mod twins;
