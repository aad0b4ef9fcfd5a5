//! The census of irreducible positions, the outcomes of all positions, and
//! the report on a single position.
//!
//! [`census`] runs every irreducible position with 2 to `G` gaps through the
//! finishing search and the four proofs, each starting from an empty table,
//! and reports per genus, per band of genera and overall. Every proof's move
//! is checked against the finishing search's verdict; a census whose check
//! fails refuses to report and names the check and the position.

use std::fmt::{self, Write as _};

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::SemigroupError;
use crate::semigroup::{Semigroup, MAX_GENUS};
use crate::tree::for_each_semigroup;

use super::finish::FinishingSearch;
use super::pairing::is_struck;
use super::proofs::{deepening_proof, remoteness_proof, told_proof, Proof, ProofKind};
use super::remoteness::Remoteness;
use super::{Order, SearchCounts};

/// What the census measured on one irreducible position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionRecord {
    /// The position (serialised as its gaps).
    pub position: Semigroup,
    /// Its number of gaps.
    pub genus: u32,
    /// The finishing search's first winning move.
    pub finishing_move: u32,
    /// The finishing search's counts.
    pub finishing: SearchCounts,
    /// The fresh proof.
    pub fresh: Proof,
    /// The kept proof.
    pub kept: Proof,
    /// The two-sided kept proof.
    pub two_sided: Proof,
    /// The told proof.
    pub told: Proof,
    /// The remoteness proof (its depth is the position's remoteness), when
    /// the census was asked for it ([`census_with`]).
    pub remoteness: Option<Proof>,
}

impl PositionRecord {
    /// The proof of the given kind.
    #[must_use]
    pub fn proof(&self, kind: ProofKind) -> &Proof {
        match kind {
            ProofKind::Fresh => &self.fresh,
            ProofKind::Kept => &self.kept,
            ProofKind::TwoSided => &self.two_sided,
            ProofKind::Told => &self.told,
            // Without the remoteness proof, the fresh proof stands in (the
            // summaries only ask for it when every record has one).
            ProofKind::Remoteness => self.remoteness.as_ref().unwrap_or(&self.fresh),
        }
    }

    /// The depth (in moves) at which the position is proved.
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.fresh.depth
    }

    /// A proof's closures over the finishing search's.
    #[must_use]
    pub fn ratio(&self, kind: ProofKind) -> f64 {
        self.proof(kind).counts.closures as f64 / self.finishing.closures.max(1) as f64
    }
}

/// One proof's figures over a group of positions.
#[derive(Clone, Debug, Serialize)]
pub struct ProofSummary {
    /// Which proof.
    pub kind: ProofKind,
    /// Median closures.
    pub median_closures: f64,
    /// Median over positions of (proof closures / finishing closures).
    pub median_ratio: f64,
    /// Positions on which the proof costs fewer closures than the finishing
    /// search.
    pub cheaper_than_finishing: u64,
}

/// The census figures over a group of positions (one genus, a band of
/// genera, or all).
#[derive(Clone, Debug, Serialize)]
pub struct CensusSummary {
    /// `"16"`, `"13-16"` or `"all"`.
    pub label: String,
    /// Fewest gaps in the group.
    pub min_gaps: u32,
    /// Most gaps in the group.
    pub max_gaps: u32,
    /// Number of irreducible positions.
    pub positions: u64,
    /// The finishing search's median closures.
    pub finishing_median_closures: f64,
    /// The fresh proof.
    pub fresh: ProofSummary,
    /// The kept proof.
    pub kept: ProofSummary,
    /// The two-sided kept proof.
    pub two_sided: ProofSummary,
    /// The told proof.
    pub told: ProofSummary,
    /// The remoteness proof, when the census was asked for it.
    pub remoteness: Option<ProofSummary>,
    /// Positions proved within three moves.
    pub proved_within_three: u64,
    /// Their share of the group.
    pub share_within_three: f64,
    /// Median proof depth (moves).
    pub median_depth: f64,
    /// Deepest proof (moves).
    pub deepest: u32,
    /// Median over positions of (told proof's distinct positions / finishing
    /// search's distinct positions).
    pub told_visited_ratio: f64,
    /// Median over positions of the told proof's evaluations per distinct
    /// position.
    pub told_evaluations_per_position: f64,
    /// Positions on which the kept proof costs fewer closures than the fresh.
    pub kept_cheaper_than_fresh: u64,
    /// Median over positions of (kept closures / fresh closures).
    pub kept_fresh_ratio: f64,
}

/// The census report.
#[derive(Clone, Debug, Serialize)]
pub struct CensusReport {
    /// The largest number of gaps included.
    pub max_gaps: u32,
    /// The move order used by every search.
    pub order: Order,
    /// One summary per number of gaps, 2 to `max_gaps`.
    pub by_genus: Vec<CensusSummary>,
    /// Summaries over the bands 2-12, 13-16, 17-18, 19-20, then four at a
    /// time.
    pub bands: Vec<CensusSummary>,
    /// The summary over every position.
    pub totals: CensusSummary,
    /// The positions on which the told proof is cheaper than the finishing
    /// search.
    pub told_cheaper: Vec<PositionRecord>,
    /// Every position's record, by genus then gap mask.
    pub positions: Vec<PositionRecord>,
}

/// The irreducible positions with 2 to `max_gaps` gaps, by genus then gap
/// mask.
pub fn irreducible_positions(max_gaps: u32) -> Result<Vec<Semigroup>, SemigroupError> {
    let mut roots = Vec::new();
    for_each_semigroup(max_gaps, |s| {
        if s.genus() >= 2 && s.is_irreducible() {
            roots.push(s);
        }
    })?;
    roots.sort_by_key(|s| (s.genus(), s.gap_mask()));
    Ok(roots)
}

fn invariant(what: &str, s: Semigroup) -> SemigroupError {
    SemigroupError::InvariantFailed {
        invariant: what.to_string(),
        position: s.gaps_string(),
    }
}

/// Runs one irreducible position through the finishing search and the four
/// proofs, each from an empty table, checking every returned move against
/// the finishing search's verdict.
pub fn measure(s: Semigroup, order: Order) -> Result<PositionRecord, SemigroupError> {
    measure_with(s, order, false)
}

/// [`measure`], with the remoteness proof too when `remoteness` (an exact
/// solve of the position from an empty table: dearer than the others).
pub fn measure_with(
    s: Semigroup,
    order: Order,
    remoteness: bool,
) -> Result<PositionRecord, SemigroupError> {
    if !s.is_irreducible() || s.genus() < 2 {
        return Err(invariant(
            "census positions are irreducible with 2 or more gaps",
            s,
        ));
    }
    let mut finishing = FinishingSearch::new(order);
    let finishing_move = finishing
        .winning_move(s)
        .ok_or_else(|| invariant("irreducible positions are won (pairing test)", s))?;
    let counts = finishing.counts();
    let fresh = deepening_proof(s, ProofKind::Fresh, order)
        .ok_or_else(|| invariant("the fresh proof proves every won position", s))?;
    let kept = deepening_proof(s, ProofKind::Kept, order)
        .ok_or_else(|| invariant("the kept proof proves every won position", s))?;
    let two_sided = deepening_proof(s, ProofKind::TwoSided, order)
        .ok_or_else(|| invariant("the two-sided proof proves every won position", s))?;
    let told = told_proof(s, fresh.depth, order)
        .ok_or_else(|| invariant("the told proof proves at the deepening depth", s))?;
    let remoteness = if remoteness {
        let r =
            remoteness_proof(s).ok_or_else(|| invariant("a won position has odd remoteness", s))?;
        if r.depth < fresh.depth {
            return Err(invariant(
                "no win is quicker than the shallowest proof (remoteness >= proof depth)",
                s,
            ));
        }
        Some(r)
    } else {
        None
    };
    if kept.depth != fresh.depth || two_sided.depth != fresh.depth {
        return Err(invariant("every deepening proof finds the same depth", s));
    }
    // The verdicts below come from a separate, uncharged search.
    let mut check = FinishingSearch::new(Order::Increasing);
    for p in [&fresh, &kept, &two_sided, &told]
        .into_iter()
        .chain(remoteness.as_ref())
    {
        let t = s.adjoin(p.winning_move);
        if t == s || is_struck(t) || check.wins(t) {
            return Err(invariant(
                &format!("the {} proof's move {} wins", p.kind, p.winning_move),
                s,
            ));
        }
    }
    if check.wins(s.adjoin(finishing_move)) {
        return Err(invariant("the finishing search's move wins", s));
    }
    Ok(PositionRecord {
        position: s,
        genus: s.genus(),
        finishing_move,
        finishing: counts,
        fresh,
        kept,
        two_sided,
        told,
        remoteness,
    })
}

/// The median of `values` (the mean of the middle two for an even count;
/// 0 for none).
#[must_use]
pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn summarise(label: String, records: &[&PositionRecord]) -> CensusSummary {
    let med = |f: &dyn Fn(&PositionRecord) -> f64| median(records.iter().map(|r| f(r)).collect());
    let proof = |kind: ProofKind| ProofSummary {
        kind,
        median_closures: med(&|r| r.proof(kind).counts.closures as f64),
        median_ratio: med(&|r| r.ratio(kind)),
        cheaper_than_finishing: records
            .iter()
            .filter(|r| r.proof(kind).counts.closures < r.finishing.closures)
            .count() as u64,
    };
    let n = records.len() as u64;
    let within_three = records.iter().filter(|r| r.depth() <= 3).count() as u64;
    CensusSummary {
        label,
        min_gaps: records.iter().map(|r| r.genus).min().unwrap_or(0),
        max_gaps: records.iter().map(|r| r.genus).max().unwrap_or(0),
        positions: n,
        finishing_median_closures: med(&|r| r.finishing.closures as f64),
        fresh: proof(ProofKind::Fresh),
        kept: proof(ProofKind::Kept),
        two_sided: proof(ProofKind::TwoSided),
        told: proof(ProofKind::Told),
        remoteness: records
            .iter()
            .all(|r| r.remoteness.is_some())
            .then(|| proof(ProofKind::Remoteness))
            .filter(|_| n > 0),
        proved_within_three: within_three,
        share_within_three: if n == 0 {
            0.0
        } else {
            within_three as f64 / n as f64
        },
        median_depth: med(&|r| f64::from(r.depth())),
        deepest: records.iter().map(|r| r.depth()).max().unwrap_or(0),
        told_visited_ratio: med(&|r| {
            r.told.counts.positions as f64 / r.finishing.positions.max(1) as f64
        }),
        told_evaluations_per_position: med(&|r| r.told.counts.evaluations_per_position()),
        kept_cheaper_than_fresh: records
            .iter()
            .filter(|r| r.kept.counts.closures < r.fresh.counts.closures)
            .count() as u64,
        kept_fresh_ratio: med(&|r| {
            r.kept.counts.closures as f64 / r.fresh.counts.closures.max(1) as f64
        }),
    }
}

/// The bands of genera the census groups by: 2-12, 13-16, 17-18, 19-20,
/// then four at a time.
fn bands(max_gaps: u32) -> Vec<(u32, u32)> {
    let mut out = vec![(2, 12), (13, 16), (17, 18), (19, 20)];
    let mut lo = 21;
    while lo <= max_gaps {
        out.push((lo, lo + 3));
        lo += 4;
    }
    out.into_iter()
        .filter(|&(lo, _)| lo <= max_gaps)
        .map(|(lo, hi)| (lo, hi.min(max_gaps)))
        .collect()
}

/// Runs the census of every irreducible position with 2 to `max_gaps` gaps,
/// all searches trying moves in `order`. Positions are spread over rayon's
/// thread pool; the figures do not depend on the number of threads.
///
/// Fails beyond genus 64, or (refusing to report) if a check fails.
pub fn census(max_gaps: u32, order: Order) -> Result<CensusReport, SemigroupError> {
    census_with(max_gaps, order, false)
}

/// [`census`], with the remoteness proof priced beside the four when
/// `remoteness`.
pub fn census_with(
    max_gaps: u32,
    order: Order,
    remoteness: bool,
) -> Result<CensusReport, SemigroupError> {
    let never = || false;
    Ok(census_until(max_gaps, order, remoteness, &never)?
        .unwrap_or_else(|| unreachable!("a census never asked to stop finishes")))
}

/// [`census_with`], asking `stop` (from any thread) before every position:
/// `Ok(None)` once it has answered `true` (Ctrl-C in a front end).
pub fn census_until(
    max_gaps: u32,
    order: Order,
    remoteness: bool,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<CensusReport>, SemigroupError> {
    if max_gaps > MAX_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_gaps,
            max: MAX_GENUS,
        });
    }
    let roots = irreducible_positions(max_gaps)?;
    let positions = roots
        .par_iter()
        .map(|&s| {
            if stop() {
                Ok(None)
            } else {
                measure_with(s, order, remoteness).map(Some)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some(positions) = positions.into_iter().collect::<Option<Vec<_>>>() else {
        return Ok(None);
    };
    let by_genus = (2..=max_gaps)
        .map(|g| {
            let group: Vec<&PositionRecord> = positions.iter().filter(|r| r.genus == g).collect();
            summarise(g.to_string(), &group)
        })
        .collect();
    let bands = bands(max_gaps)
        .into_iter()
        .map(|(lo, hi)| {
            let group: Vec<&PositionRecord> = positions
                .iter()
                .filter(|r| (lo..=hi).contains(&r.genus))
                .collect();
            let label = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            };
            summarise(label, &group)
        })
        .collect();
    let all: Vec<&PositionRecord> = positions.iter().collect();
    let totals = summarise("all".to_string(), &all);
    let told_cheaper = positions
        .iter()
        .filter(|r| r.told.counts.closures < r.finishing.closures)
        .cloned()
        .collect();
    Ok(Some(CensusReport {
        max_gaps,
        order,
        by_genus,
        bands,
        totals,
        told_cheaper,
        positions,
    }))
}

impl CensusReport {
    /// The report as a plain-text table.
    #[must_use]
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Sylver Coinage census: irreducible positions with 2 to {} gaps, moves in {} order",
            self.max_gaps, self.order
        );
        let _ = writeln!(
            out,
            "closures: one per move examined; x = median over positions of (proof / finishing); \
             remote = the exact remoteness from an empty table; \
             beats = positions where the proof costs fewer closures"
        );
        let _ = writeln!(out);
        let header = format!(
            "{:>6} {:>5} {:>8} | {:>6} {:>6} {:>6} {:>6} {:>7} | {:>15} | {:>6} {:>9} | {:>5} {:>6} | {:>10} {:>8}",
            "gaps",
            "pos",
            "finish",
            "freshx",
            "keptx",
            "2sidex",
            "toldx",
            "remotex",
            "beats f/k/2/t",
            "<=3mv",
            "depth m/x",
            "visit",
            "eval/p",
            "kept<fresh",
            "kept/fr",
        );
        let _ = writeln!(out, "{header}");
        let _ = writeln!(out, "{}", "-".repeat(header.len()));
        let row = |s: &CensusSummary| {
            format!(
                "{:>6} {:>5} {:>8.1} | {:>6.2} {:>6.2} {:>6.2} {:>6.2} {:>7} | {:>15} | {:>5.1}% {:>9} | {:>5.2} {:>6.2} | {:>10} {:>8.2}",
                s.label,
                s.positions,
                s.finishing_median_closures,
                s.fresh.median_ratio,
                s.kept.median_ratio,
                s.two_sided.median_ratio,
                s.told.median_ratio,
                s.remoteness.as_ref().map_or("-".to_string(), |r| format!("{:.2}", r.median_ratio)),
                format!(
                    "{}/{}/{}/{}",
                    s.fresh.cheaper_than_finishing,
                    s.kept.cheaper_than_finishing,
                    s.two_sided.cheaper_than_finishing,
                    s.told.cheaper_than_finishing
                ),
                100.0 * s.share_within_three,
                format!("{}/{}", s.median_depth, s.deepest),
                s.told_visited_ratio,
                s.told_evaluations_per_position,
                s.kept_cheaper_than_fresh,
                s.kept_fresh_ratio,
            )
        };
        for s in &self.by_genus {
            let _ = writeln!(out, "{}", row(s));
        }
        let _ = writeln!(out, "{}", "-".repeat(header.len()));
        for s in &self.bands {
            let _ = writeln!(out, "{}", row(s));
        }
        let _ = writeln!(out, "{}", "-".repeat(header.len()));
        let _ = writeln!(out, "{}", row(&self.totals));
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "positions where the told proof is cheaper than the finishing search: {}",
            self.told_cheaper.len()
        );
        for r in &self.told_cheaper {
            let _ = writeln!(
                out,
                "  gaps {{{}}}: move {} at depth {}, told {} vs finishing {} closures",
                r.position.gaps_string(),
                r.told.winning_move,
                r.told.depth,
                r.told.counts.closures,
                r.finishing.closures
            );
        }
        out
    }
}

impl fmt::Display for CensusReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_table())
    }
}

/// The outcomes of the positions of one genus.
#[derive(Clone, Debug, Serialize)]
pub struct GenusOutcomes {
    /// The genus (number of gaps).
    pub genus: u32,
    /// Semigroups of this genus.
    pub positions: u64,
    /// Positions won for the player to move (N-positions).
    pub won: u64,
    /// Positions lost for the player to move (P-positions).
    pub lost: u64,
    /// Irreducible positions among them (all won except `<2,3>`).
    pub irreducible: u64,
    /// Up to eight lost positions, as gap lists, smallest masks first.
    pub lost_examples: Vec<String>,
}

/// The outcome of every semigroup position of genus 1 to `max_genus`.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomesReport {
    /// The largest genus included.
    pub max_genus: u32,
    /// One entry per genus.
    pub by_genus: Vec<GenusOutcomes>,
    /// All positions.
    pub positions: u64,
    /// All won positions.
    pub won: u64,
    /// All lost positions.
    pub lost: u64,
    /// The finishing search's counts over the whole run (one shared table).
    pub counts: SearchCounts,
}

/// Classifies every semigroup position of genus 1 to `max_genus` as won or
/// lost for the player to move, with one finishing search (increasing
/// order) sharing its table across positions. Checks the pairing test on
/// every irreducible position on the way.
pub fn outcomes(max_genus: u32) -> Result<OutcomesReport, SemigroupError> {
    if max_genus > MAX_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_GENUS,
        });
    }
    let mut search = FinishingSearch::new(Order::Increasing);
    let mut by_genus: Vec<GenusOutcomes> = (1..=max_genus)
        .map(|genus| GenusOutcomes {
            genus,
            positions: 0,
            won: 0,
            lost: 0,
            irreducible: 0,
            lost_examples: Vec::new(),
        })
        .collect();
    let mut lost_positions: Vec<Vec<Semigroup>> = vec![Vec::new(); max_genus as usize + 1];
    let mut failure = None;
    for_each_semigroup(max_genus, |s| {
        let g = s.genus() as usize;
        let entry = &mut by_genus[g - 1];
        entry.positions += 1;
        let won = search.wins(s);
        if s.is_irreducible() {
            entry.irreducible += 1;
            if won == (s == Semigroup::ONLY_GAP_ONE) && failure.is_none() {
                failure = Some(s);
            }
        }
        if won {
            entry.won += 1;
        } else {
            entry.lost += 1;
            lost_positions[g].push(s);
        }
    })?;
    if let Some(s) = failure {
        return Err(invariant(
            "irreducible positions other than <2,3> are won",
            s,
        ));
    }
    for entry in &mut by_genus {
        let list = &mut lost_positions[entry.genus as usize];
        list.sort_by_key(|s| s.gap_mask());
        entry.lost_examples = list.iter().take(8).map(|s| s.gaps_string()).collect();
    }
    let positions = by_genus.iter().map(|e| e.positions).sum();
    let won = by_genus.iter().map(|e| e.won).sum();
    let lost = by_genus.iter().map(|e| e.lost).sum();
    Ok(OutcomesReport {
        max_genus,
        by_genus,
        positions,
        won,
        lost,
        counts: search.counts(),
    })
}

impl OutcomesReport {
    /// The report as a plain-text table.
    #[must_use]
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Sylver Coinage outcomes of every semigroup position of genus 1 to {} \
             (won/lost for the player to move)",
            self.max_genus
        );
        let _ = writeln!(
            out,
            "{:>5} {:>10} {:>10} {:>8} {:>11}  lost examples (gaps)",
            "genus", "positions", "won", "lost", "irreducible"
        );
        for e in &self.by_genus {
            let _ = writeln!(
                out,
                "{:>5} {:>10} {:>10} {:>8} {:>11}  {}",
                e.genus,
                e.positions,
                e.won,
                e.lost,
                e.irreducible,
                e.lost_examples
                    .iter()
                    .map(|g| format!("{{{g}}}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        let _ = writeln!(
            out,
            "{:>5} {:>10} {:>10} {:>8}",
            "all", self.positions, self.won, self.lost
        );
        let _ = writeln!(
            out,
            "finishing search: {} closures, {} positions",
            self.counts.closures, self.counts.positions
        );
        out
    }
}

impl fmt::Display for OutcomesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_table())
    }
}

/// Won or lost, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player to move wins (an N-position).
    Win,
    /// The player to move loses (a P-position).
    Loss,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win for the player to move",
            Outcome::Loss => "loss for the player to move",
        })
    }
}

/// Everything known about one position.
#[derive(Clone, Debug, Serialize)]
pub struct PlayReport {
    /// The position (serialised as its gaps).
    pub position: Semigroup,
    /// Its minimal generators.
    pub generators: Vec<u32>,
    /// Its number of gaps.
    pub genus: u32,
    /// Its largest gap.
    pub frobenius: Option<u32>,
    /// Whether its gaps pair off around the largest.
    pub irreducible: bool,
    /// Won or lost for the player to move.
    pub outcome: Outcome,
    /// The first winning move in increasing order (what the finishing search
    /// plays), if won.
    pub winning_move: Option<u32>,
    /// Every winning move, increasing.
    pub winning_moves: Vec<u32>,
    /// A winning move that wins fastest (the smallest such), if won.
    pub fastest_move: Option<u32>,
    /// Moves left with perfect play (the winner hurrying, the loser
    /// delaying), not counting the loser's final 1.
    pub remoteness: u32,
    /// Moves the pairing test does not strike.
    pub survivors: Vec<u32>,
    /// Moves the pairing test strikes.
    pub struck: Vec<u32>,
    /// The finishing search's counts for the verdict.
    pub finishing: SearchCounts,
}

/// The outcome, winning move(s) and remoteness of one position.
///
/// Fails with [`SemigroupError::GameOver`] on the naturals (1 already
/// named). The cost grows quickly with the genus: the remoteness needs every
/// line, not only the first winning one.
pub fn play(s: &Semigroup) -> Result<PlayReport, SemigroupError> {
    Ok(play_until(s, None)?
        .unwrap_or_else(|| unreachable!("a search never asked to stop finishes")))
}

/// [`play`], abandoned with `Ok(None)` once `stop` is raised (Ctrl-C in a
/// front end; the flag is watched inside the searches).
pub fn play_until(
    s: &Semigroup,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Option<PlayReport>, SemigroupError> {
    let s = *s;
    if s.genus() == 0 {
        return Err(SemigroupError::GameOver);
    }
    let mut search = FinishingSearch::new(Order::Increasing);
    let mut r = Remoteness::new();
    if let Some(flag) = stop {
        search = search.with_stop(Arc::clone(&flag));
        r = r.with_stop(flag);
    }
    let winning_move = search.winning_move(s);
    let finishing = search.counts();
    let (survivors, struck): (Vec<u32>, Vec<u32>) = Order::Increasing
        .moves(s)
        .partition(|&x| !is_struck(s.adjoin(x)));
    let winning_moves = survivors
        .iter()
        .copied()
        .filter(|&x| !search.wins(s.adjoin(x)))
        .collect();
    let (remoteness, fastest_move) = r.best_move(s);
    if search.stopped() || r.stopped() {
        return Ok(None);
    }
    let outcome = if winning_move.is_some() {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    Ok(Some(PlayReport {
        position: s,
        generators: s.minimal_generators(),
        genus: s.genus(),
        frobenius: s.frobenius(),
        irreducible: s.is_irreducible(),
        outcome,
        winning_move,
        winning_moves,
        fastest_move,
        remoteness,
        survivors,
        struck,
        finishing,
    }))
}

impl PlayReport {
    /// The report as plain text.
    #[must_use]
    pub fn to_table(&self) -> String {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let mut out = String::new();
        let _ = writeln!(out, "position     {}", self.position);
        let _ = writeln!(out, "gaps         {{{}}}", self.position.gaps_string());
        let _ = writeln!(
            out,
            "genus        {}   Frobenius {}   {}",
            self.genus,
            self.frobenius.map_or("-".to_string(), |f| f.to_string()),
            if self.irreducible {
                "irreducible"
            } else {
                "not irreducible"
            }
        );
        let _ = writeln!(out, "outcome      {}", self.outcome);
        if let Some(m) = self.winning_move {
            let _ = writeln!(out, "winning move {m} (first in increasing order)");
            let _ = writeln!(out, "all winning  {}", list(&self.winning_moves));
        }
        if let Some(m) = self.fastest_move {
            let _ = writeln!(out, "fastest win  {m}");
        }
        let _ = writeln!(out, "remoteness   {}", self.remoteness);
        let _ = writeln!(out, "survivors    {}", list(&self.survivors));
        let _ = writeln!(out, "struck       {}", list(&self.struck));
        let _ = writeln!(
            out,
            "finishing search: {} closures, {} positions",
            self.finishing.closures, self.finishing.positions
        );
        out
    }
}

impl fmt::Display for PlayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_table())
    }
}
