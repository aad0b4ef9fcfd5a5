//! Job-level proof-number search (Wu, Lin et al., as used to solve
//! Connect6 openings), for partizan's outcome search: a master keeps a
//! proof-number tree over the top plies of one first player's search; its
//! leaves are *jobs*, positions handed to workers that run the library's
//! α-β outcome search under a node budget. A job comes back decided or
//! unresolved; an unresolved one is expanded into its children; the
//! master always hands out the most-proving leaf.
//!
//! Nothing a worker says is believed unchecked ([`verify`]): a decided
//! job is accepted only with a certificate that the independent checker
//! (`partizan_check`) replays; a lie, garbage, a crash or silence costs
//! the master work (it searches the job itself, or hands it out again),
//! never its answer. Where a proof costs too much, [`Trust::Agreement`]
//! believes a decided job when two workers agree on it instead (the
//! report says how many of the answer's leaves rest on that).
//!
//! ```text
//!   master: tree of positions ── most-proving leaf ──▶ Job ──▶ Worker
//!      ▲                                                         │
//!      └── proved / disproved / expanded ◀── verify ◀── Reply ◀──┘
//! ```

pub mod bridge;
pub mod estimate;
pub mod job;
pub mod kept;
pub mod master;
pub mod persist;
pub mod tree;
pub mod verify;
pub mod whole;
pub mod wire;
pub mod worker;

pub use bridge::{Bridge, BridgeSlot};
pub use estimate::Estimate;
pub use job::{Answer, Job, Reply};
pub use kept::Kept;
pub use master::{
    search, search_from, Checkpoint, JobCounts, JobError, JobMove, JobProgress, JobReport,
    JobsConfig, KeepCertificate, LastEstimate, LieRecord, MasterControl, Trust, WorkerReport,
};
pub use tree::Tree;
pub use verify::{judge, judge_claim, LieKind, Verdict};
pub use whole::{write_whole, WholeReport};
pub use worker::{LocalWorker, Worker};
