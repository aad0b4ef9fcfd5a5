//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-census --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod analyses;
mod atlas;
mod atlas_index;
mod cram_stop;
mod figures;
mod fuzz_atlas;
mod merge;
mod oeis;
mod props;
mod shard_task;
mod streamed_report;
mod twins;
