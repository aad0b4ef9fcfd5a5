//! partizan-census: catalogues of regions, packing readings, and the tables
//! the essays report.
//!
//! Data flows catalogue -> values -> readings -> report: [`Catalogue`] lists
//! every region up to `n` cells once per symmetry class; [`values`] computes
//! their game values bottom-up by size; [`readings`] computes the packing
//! counts, each two independent ways; [`Census`] runs the whole and asserts
//! the invariants; [`report`] holds the tables and renders them as text,
//! JSON and CSV; [`boards`] adds regions into boards.
//!
//! [`analyses`] answers the essays' open questions over a finished census
//! (the magnitude rule on hot regions, shading toward nought, long even
//! runs, the seventy, regions with holes, Cram's packing parity).
//!
//! [`atlas`] is the census pushed past 15 cells: every Domineering region
//! up to 21 cells (shapes on 128-bit masks), values interned and computed
//! on every core with one arena per worker, each finished size kept in a
//! checksummed file ([`atlas_store::DirStore`]) so a build resumes after a
//! kill and queries ([`atlas::Atlas::query`]) read it back; the report
//! gives value kinds by size, the hottest regions, the largest nimber and
//! first occurrences.
//!
//! ```text
//!   census(8): 1,042 Domineering shapes, 315 worth numbers,
//!              count exact on 141, interval contains the value on 209
//! ```

#![warn(missing_docs)]

pub mod analyses;
pub mod atlas;
pub mod atlas_index;
pub mod atlas_store;
pub mod boards;
pub mod catalogue;
pub mod census;
pub mod empty_regions;
mod encoding_index;
pub mod readings;
pub mod report;
pub mod rng;
pub mod shape;
pub mod values;

pub use analyses::{CramAnalyses, DomineeringAnalyses};
pub use atlas::{
    classify, Atlas, AtlasConfig, AtlasError, AtlasReport, AtlasStore, BuildStep, Level, NoStore,
    Query, QueryAnswer, ValueKind,
};
pub use atlas_store::DirStore;
pub use boards::{board_census, BoardConfig, BoardReport, BoardTally, MAX_BOARD_REGIONS};
pub use catalogue::{count_fixed, Catalogue, FREE_POLYOMINOES};
pub use census::{
    build_catalogue, check_max_cells, Census, CensusError, CramCensus, CramRecord, Invariant,
    ShapeRecord, MAX_CENSUS_CELLS,
};
pub use readings::{read, Packings, Reading};
pub use report::{write_atomic, write_csv, CensusReport, CramReport, Tally};
pub use shape::{Group, Shape, ShapeError, Sym};
pub use values::{CramValues, DomineeringValues, ShapeValues, ValueStats};
