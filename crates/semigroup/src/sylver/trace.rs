//! The told proof's trace: every mover's position it evaluated, at which
//! depths, and with what verdict — where one position is asked the same
//! question at more than one depth (essay 002's {1,2,3,4,7,8}).

use std::fmt::Write as _;

use serde::Serialize;

use crate::error::SemigroupError;
use crate::semigroup::Semigroup;

use super::proofs::{deepening_proof, told_proof_steps, ProofKind, ProofStep};
use super::Order;

/// One position of the trace with every depth it was asked at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TracedPosition {
    /// The position (serialised as its gaps).
    pub position: Semigroup,
    /// Each (depth left, move that proved it or `None` if refuted).
    pub asked: Vec<(u32, Option<u32>)>,
}

/// The told proof of one position, traced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceReport {
    /// The position traced.
    pub root: Semigroup,
    /// The depth the proof was told (the deepening proofs' depth unless given).
    pub depth: u32,
    /// The move order.
    pub order: Order,
    /// Whether the told proof proved the root at that depth.
    pub proved: bool,
    /// Evaluations of mover's positions (one per (position, depth)).
    pub evaluations: u64,
    /// Distinct mover's positions evaluated.
    pub positions: u64,
    /// Every mover's position, by gap mask, with its depths.
    pub trace: Vec<TracedPosition>,
    /// The positions asked at more than one depth.
    pub asked_repeatedly: Vec<TracedPosition>,
}

/// Trace the told proof of `s` at `depth` (default: the depth the deepening
/// proofs find; a lost position has none and is an error).
pub fn trace(
    s: Semigroup,
    depth: Option<u32>,
    order: Order,
) -> Result<TraceReport, SemigroupError> {
    let depth = match depth {
        Some(d) => d | 1,
        None => deepening_proof(s, ProofKind::Fresh, order)
            .map(|p| p.depth)
            .ok_or_else(|| SemigroupError::Lost {
                position: s.gaps_string(),
            })?,
    };
    let steps: Vec<ProofStep> = told_proof_steps(s, depth, order);
    let mut trace: Vec<TracedPosition> = Vec::new();
    for st in &steps {
        match trace.last_mut() {
            Some(t) if t.position == st.position => t.asked.push((st.depth, st.proved_by)),
            _ => trace.push(TracedPosition {
                position: st.position,
                asked: vec![(st.depth, st.proved_by)],
            }),
        }
    }
    let proved = steps
        .iter()
        .any(|st| st.position == s && st.depth == depth && st.proved_by.is_some());
    let asked_repeatedly = trace
        .iter()
        .filter(|t| t.asked.len() > 1)
        .cloned()
        .collect();
    Ok(TraceReport {
        root: s,
        depth,
        order,
        proved,
        evaluations: steps.len() as u64,
        positions: trace.len() as u64,
        trace,
        asked_repeatedly,
    })
}

impl TraceReport {
    /// The report as text: the summary, then each position asked at more
    /// than one depth, then the whole trace.
    #[must_use]
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let verdict =
            |v: Option<u32>| v.map_or("refuted".to_string(), |m| format!("proved by {m}"));
        let _ = writeln!(
            out,
            "told proof of gaps {{{}}} at depth {} ({} order): {}; {} evaluations of {} positions",
            self.root.gaps_string(),
            self.depth,
            self.order,
            if self.proved { "proved" } else { "not proved" },
            self.evaluations,
            self.positions
        );
        let _ = writeln!(
            out,
            "asked at more than one depth: {}",
            self.asked_repeatedly.len()
        );
        for t in &self.asked_repeatedly {
            let asked: Vec<String> = t
                .asked
                .iter()
                .map(|&(d, v)| format!("depth {d}: {}", verdict(v)))
                .collect();
            let _ = writeln!(
                out,
                "  {{{}}}  {}",
                t.position.gaps_string(),
                asked.join("; ")
            );
        }
        let _ = writeln!(out, "every evaluation (position, depth left, verdict):");
        for t in &self.trace {
            for &(d, v) in &t.asked {
                let _ = writeln!(
                    out,
                    "  {{{}}}  {d}  {}",
                    t.position.gaps_string(),
                    verdict(v)
                );
            }
        }
        out
    }
}
