//! Shared by the jobs crate's test binaries.

// Each test binary that says `mod common;` uses its own share of these.
#![allow(dead_code)]

use partizan_jobs::JobsConfig;
use partizan_seal::Key;

/// Budgets of one node, so that the tree really grows (a search looks at
/// its budget every 4096 nodes: a budget of 1 leaves unresolved every job
/// that needs more than that), a small table, and answers applied in
/// order so that a run repeats itself; each test sets the rest.
pub fn tiny_budgets() -> JobsConfig {
    JobsConfig {
        job_nodes: 1,
        local_nodes: 1,
        table_bytes: 1 << 20,
        deterministic: true,
        ..JobsConfig::default()
    }
}

/// The key the tests seal tree files with.
pub fn key() -> Key {
    Key::from_bytes([7; 32])
}
