//! What crosses the boundary between the master and a worker: a [`Job`]
//! (a position, who moves, a node budget) and a [`Reply`] (a claim about
//! it). Both are plain text and numbers, so a transport other than
//! threads (a process, a Dask worker) can carry them as they are; nothing
//! in a reply is believed until [`crate::verify`] has checked it.

use std::time::Duration;

use partizan_games::Player;
use serde::Serialize;

/// One position for a worker to search: does `mover`, moving first on
/// `board`, win under normal play?
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Job {
    /// The master's number for the job; a reply names it.
    pub id: u64,
    /// The ruleset's registry name.
    pub ruleset: String,
    /// The board, as the ruleset formats it.
    pub board: String,
    /// Who moves first.
    #[serde(serialize_with = "player_letter")]
    pub mover: Player,
    /// Stop the search after this many nodes and answer
    /// [`Answer::Unresolved`] (the search looks at its budget every few
    /// thousand nodes, so a search smaller than that always finishes).
    pub max_nodes: u64,
    /// Bytes of the job's transposition table.
    pub table_bytes: usize,
    /// Send a decided answer with its certificate (`false`: the master
    /// believes a decided job only when another worker, sent it too,
    /// agrees — [`crate::Trust::Agreement`] — and wants no proof).
    #[serde(skip_serializing_if = "is_true")]
    pub certify: bool,
}

fn is_true(b: &bool) -> bool {
    *b
}

fn player_letter<S: serde::Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match p {
        Player::Left => "L",
        Player::Right => "R",
    })
}

/// What a worker says about a job: a claim, checked by the master.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The mover wins (`true`) or loses, with the certificate (text, as
    /// `partizan outcome --certificate` writes it) that is to prove it
    /// (empty for a job sent without `certify`).
    Decided {
        /// Whether the mover wins.
        mover_wins: bool,
        /// The proof, as text; the master replays it with the checker.
        certificate: String,
    },
    /// The budget ran out before the search decided the position.
    Unresolved,
    /// The worker could not search the job (a bad board, an error of its
    /// own); the master hands the job out again.
    Failed(String),
}

/// A worker's reply to one job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The job answered (must be the job that was sent).
    pub job: u64,
    /// The claim.
    pub answer: Answer,
    /// Nodes the worker says it searched (reported, never relied on).
    pub nodes: u64,
    /// The worker's wall time for the job.
    pub elapsed: Duration,
}
