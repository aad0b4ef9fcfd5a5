//! The integration tests of this crate, one module a file, linked into
//! one test binary (`cargo test -p partizan-solve --test all MODULE::`):
//! one link and one copy of the generic code instead of one a file.

mod common;

mod amazons_knowledge;
mod certificate_forgeries;
mod certificate_fuzz;
mod check_packing;
mod domineering_knowledge;
mod graph;
mod impartial_checkpoint;
mod impartial_nimbers;
mod outcome_certificate;
mod outcome_checkpoint;
mod outcome_domineering;
mod outcome_fast_path;
mod outcome_first;
mod outcome_handicap;
mod outcome_levers;
mod outcome_probe;
mod outcome_rulesets;
mod outcome_search;
mod published;
mod values;
