//! Checking a store: every row's checksum must hold and every entry must
//! decode to a canonical value; a sample of values (and every imported,
//! unverified one) must equal what the solver computes from scratch today;
//! and the stored outcomes of whole boards (a sample, and every
//! unverified one) must be what the outcome search finds today, within
//! [`VerifyOptions::outcome_nodes`] nodes each. Verifying only reads;
//! [`promote_verified`] then marks the unverified values and outcomes
//! that were recomputed and found right (the one write).

use partizan_core::{Arena, GameId};
use partizan_games::{Board, Ruleset};
use partizan_solve::{Savings, Solver};
use serde::Serialize;

use crate::db::Store;
use crate::encoding::decode_value;
use crate::error::{Result, StoreError};
use crate::keys::{decode_board, to_hex};
use crate::outcomes::{outcome_key, search_outcome, OutcomeRead, Searched, StoredOutcome};
use crate::record::{Provenance, Record};
use crate::rules::{format_board, stored_rules};
use partizan_games::with_rules;

/// What to check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Recompute this many values, chosen at random over all rulesets;
    /// `None` recomputes every value.
    pub sample: Option<usize>,
    /// Seed of the sample's choice (the same seed picks the same sample).
    pub seed: u64,
    /// Nodes each stored outcome is searched with.
    pub outcome_nodes: u64,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            sample: None,
            seed: 1,
            outcome_nodes: 20_000_000,
        }
    }
}

/// A stored outcome the search finds otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeMismatch {
    /// The row's key.
    pub key: String,
    /// The class the row claims.
    pub stored: &'static str,
    /// The class the search finds.
    pub computed: &'static str,
}

/// A stored value that differs from the recomputed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The ruleset.
    pub ruleset: String,
    /// The region key, in hex.
    pub key: String,
    /// The region, in the ruleset's notation.
    pub board: String,
    /// The stored value.
    pub stored: String,
    /// The value computed now.
    pub computed: String,
}

/// An entry that does not decode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BadEntry {
    /// The ruleset.
    pub ruleset: String,
    /// The region key, in hex.
    pub key: String,
    /// What is wrong with it.
    pub detail: String,
}

/// The outcome of [`verify`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VerifyReport {
    /// Entries read.
    pub entries: u64,
    /// Values recomputed from scratch.
    pub recomputed: u64,
    /// Recomputed values that differ from the stored ones.
    pub mismatches: Vec<Mismatch>,
    /// Entries that do not decode.
    pub bad_entries: Vec<BadEntry>,
    /// Rulesets in the store that this build does not know (not checked).
    pub unknown_rulesets: Vec<String>,
    /// Unverified (imported) values recomputed; those found right are in
    /// `promotable`.
    pub unverified_checked: u64,
    /// Unverified rows recomputed and found right: (ruleset, key, record
    /// body), for [`promote_verified`].
    #[serde(skip)]
    pub promotable: Vec<(String, Vec<u8>, Vec<u8>)>,
    /// Stored outcomes of whole boards.
    pub outcomes: u64,
    /// Stored outcomes searched again.
    pub outcomes_searched: u64,
    /// Stored outcomes the search finds otherwise.
    pub outcome_mismatches: Vec<OutcomeMismatch>,
    /// Stored outcomes the search could not decide within its budget.
    pub outcomes_undecided: u64,
    /// Unverified (imported) outcomes searched and found right, as the
    /// search found them, for [`promote_verified`].
    #[serde(skip)]
    pub promotable_outcomes: Vec<StoredOutcome>,
}

impl VerifyReport {
    /// No mismatch and no undecodable entry.
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty()
            && self.bad_entries.is_empty()
            && self.outcome_mismatches.is_empty()
    }
}

/// A small deterministic generator for the sample (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        // n ≤ 2^64; modulo bias is irrelevant for sampling a store.
        self.next() % n
    }
}

/// An entry chosen for recomputation: (ruleset, key, value encoding,
/// record body if the row is unverified).
type Pick = (String, Vec<u8>, Vec<u8>, Option<Vec<u8>>);

/// Check every entry decodes and recompute a sample (or all) of the values.
pub fn verify(store: &Store, opts: &VerifyOptions) -> Result<VerifyReport> {
    verify_with_progress(store, opts, &mut |_, _| {})
}

/// [`verify`], calling `progress(done, total)` as it goes: first over the
/// rows read (`total` = rows in the store), then over the values recomputed.
pub fn verify_with_progress(
    store: &Store,
    opts: &VerifyOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<VerifyReport> {
    let mut report = VerifyReport::default();
    let total: u64 = store.region_counts()?.values().sum();
    let mut unverified: Vec<Pick> = Vec::new();
    let mut rng = Rng(opts.seed);
    let mut chosen: Vec<Pick> = Vec::new();
    let mut seen: u64 = 0;
    for ruleset in store.rulesets()? {
        let known = stored_rules(&ruleset).is_some();
        if !known {
            report.unknown_rulesets.push(ruleset);
            continue;
        }
        let mut arena = Arena::new();
        store.for_each_region(&ruleset, |key, rec| {
            report.entries += 1;
            if report.entries.is_multiple_of(4096) {
                arena = Arena::new();
                progress(report.entries, total);
            }
            let checked = decode_board(key).and_then(|_| {
                let body = rec.ok_or_else(|| StoreError::Checksum {
                    table: ruleset.clone(),
                    key: to_hex(key),
                })?;
                let r = Record::decode(body)?;
                decode_value(&mut arena, r.value)?;
                Ok((
                    r.value.to_vec(),
                    (!r.provenance.trusted()).then(|| body.to_vec()),
                ))
            });
            let enc = match checked {
                Ok((enc, Some(body))) => {
                    unverified.push((ruleset.clone(), key.to_vec(), enc, Some(body)));
                    return Ok(());
                }
                Ok((enc, None)) => enc,
                Err(e) => {
                    report.bad_entries.push(BadEntry {
                        ruleset: ruleset.clone(),
                        key: to_hex(key),
                        detail: e.to_string(),
                    });
                    return Ok(());
                }
            };
            // Reservoir sampling keeps a uniform sample of the entries seen.
            seen += 1;
            let pick = (ruleset.clone(), key.to_vec(), enc, None);
            match opts.sample {
                None => chosen.push(pick),
                Some(n) if chosen.len() < n => chosen.push(pick),
                Some(n) => {
                    let j = rng.below(seen);
                    if (j as usize) < n {
                        chosen[j as usize] = pick;
                    }
                }
            }
            Ok(())
        })?;
    }
    progress(report.entries, total);
    verify_outcomes(store, opts, &mut report)?;
    chosen.extend(unverified);
    chosen.sort();
    let todo = chosen.len() as u64;
    let mut start = 0;
    while start < chosen.len() {
        let ruleset = chosen[start].0.clone();
        let end = start + chosen[start..].partition_point(|p| p.0 == ruleset);
        let group = &chosen[start..end];
        if let Some(rules) = stored_rules(&ruleset) {
            with_rules!(rules, |r| recompute(r, group, &mut report, &mut |done| {
                progress(done, todo)
            }))?;
        }
        start = end;
    }
    Ok(report)
}

/// Mark the unverified values that `report` recomputed and found right as
/// verified (rows changed since are left alone). Needs a writable store;
/// returns how many were marked.
pub fn promote_verified(store: &Store, report: &VerifyReport) -> Result<u64> {
    let mut n = 0;
    for o in &report.promotable_outcomes {
        // Only over a row that is still the unverified one searched.
        if matches!(
            store.get_outcome(&o.ruleset, &o.convention, &o.board)?,
            OutcomeRead::Unverified(_)
        ) {
            store.put_outcome(o)?;
            n += 1;
        }
    }
    if report.promotable.is_empty() {
        return Ok(n);
    }
    Ok(n + store.mark_verified(&report.promotable)?)
}

/// Search the stored outcomes again: every unverified one and a sample
/// (or all) of the others.
fn verify_outcomes(store: &Store, opts: &VerifyOptions, report: &mut VerifyReport) -> Result<()> {
    let mut rng = Rng(opts.seed ^ 0x6f75_7463_6f6d_6573);
    let mut chosen: Vec<StoredOutcome> = Vec::new();
    let mut unverified: Vec<StoredOutcome> = Vec::new();
    let mut seen = 0u64;
    for (key, row) in store.outcome_rows()? {
        report.outcomes += 1;
        let Some(o) = row else {
            report.bad_entries.push(BadEntry {
                ruleset: "outcome".to_string(),
                key,
                detail: "fails its checksum or is not an outcome".to_string(),
            });
            continue;
        };
        if !o.provenance.trusted() {
            unverified.push(o);
            continue;
        }
        seen += 1;
        match opts.sample {
            None => chosen.push(o),
            Some(n) if chosen.len() < n => chosen.push(o),
            Some(n) => {
                let j = rng.below(seen);
                if (j as usize) < n {
                    chosen[j as usize] = o;
                }
            }
        }
    }
    for (o, was_unverified) in chosen
        .into_iter()
        .map(|o| (o, false))
        .chain(unverified.into_iter().map(|o| (o, true)))
    {
        report.outcomes_searched += 1;
        match search_outcome(&o, opts.outcome_nodes, Provenance::Verified)? {
            Searched::Undecided => report.outcomes_undecided += 1,
            Searched::Decided(found) if !found.same_winners(&o) => {
                report.outcome_mismatches.push(OutcomeMismatch {
                    key: outcome_key(&o.ruleset, &o.convention, &o.board),
                    stored: o.class(),
                    computed: found.class(),
                });
            }
            Searched::Decided(found) => {
                if was_unverified {
                    report.promotable_outcomes.push(found);
                }
            }
        }
    }
    Ok(())
}

/// Recompute a group of one ruleset's entries with a fresh solver (no store).
fn recompute<R: Ruleset>(
    rules: &R,
    group: &[Pick],
    report: &mut VerifyReport,
    progress: &mut dyn FnMut(u64),
) -> Result<()> {
    let mut arena = Arena::new();
    let mut solver =
        Solver::new(rules, Savings::ALL).map_err(|e| StoreError::Solve(e.to_string()))?;
    for (ruleset, key, enc, body) in group {
        let board: Board = decode_board(key)?;
        let stored: GameId = decode_value(&mut arena, enc)?;
        let computed = solver
            .value(&mut arena, &board)
            .map_err(|e| StoreError::Solve(e.to_string()))?;
        report.recomputed += 1;
        if report.recomputed.is_multiple_of(256) {
            progress(report.recomputed);
        }
        if let Some(body) = body {
            report.unverified_checked += 1;
            if stored == computed {
                report
                    .promotable
                    .push((ruleset.clone(), key.clone(), body.clone()));
            }
        }
        if stored != computed {
            report.mismatches.push(Mismatch {
                ruleset: ruleset.clone(),
                key: to_hex(key),
                board: format_board(ruleset, &board).unwrap_or_default(),
                stored: arena.display(stored),
                computed: arena.display(computed),
            });
        }
    }
    Ok(())
}
