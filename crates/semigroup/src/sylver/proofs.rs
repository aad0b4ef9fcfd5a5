//! Depth-bounded proofs over survivors, in four variants.
//!
//! A position is *proved won within 1 move* if some survivor leaves the
//! opponent only struck replies; *within `d`* (odd) if some survivor leaves
//! every surviving reply a position proved within `d - 2`. The opponent's
//! struck replies are settled: they move into a position won for the other
//! side. The answers are monotone in `d`: a proof within 5 is a proof within
//! 7, and no proof within 7 means none within 5.
//!
//! * [`ProofKind::Fresh`] deepens over `d = 1, 3, 5, ...` with a new table at
//!   each depth (keyed on position and depth left), handling the opponent's
//!   turn inline.
//! * [`ProofKind::Kept`] keeps one table across depths; for each of the
//!   mover's positions it stores the shallowest depth it was proved at (with
//!   the move) and the deepest it was refuted at, and answers any question
//!   those settle without looking.
//! * [`ProofKind::TwoSided`] also keeps the opponent's positions: the
//!   shallowest depth at which every surviving reply was proved, and the
//!   deepest at which one was not.
//! * [`ProofKind::Told`] is handed the right depth, searches only at it, and
//!   memoises both players' positions keyed on position and depth left.
//!
//! All are charged one closure per move examined, like the finishing search.

use std::fmt;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use crate::semigroup::Semigroup;

use super::pairing::is_struck;
use super::{Order, SearchCounts};

/// Which proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProofKind {
    /// Deepening with a new table per depth.
    Fresh,
    /// Deepening with one table of the mover's positions kept across depths.
    Kept,
    /// Deepening with both players' positions kept across depths.
    TwoSided,
    /// Told the depth; one search at that depth, both sides memoised.
    Told,
    /// The exact remoteness of the position (winner hurries, loser delays),
    /// computed from an empty table: a proof that also says how long the
    /// win takes, priced like the others in closures.
    Remoteness,
}

impl ProofKind {
    /// All four, in the essay's order.
    pub const ALL: [ProofKind; 4] = [
        ProofKind::Fresh,
        ProofKind::Kept,
        ProofKind::TwoSided,
        ProofKind::Told,
    ];
}

impl fmt::Display for ProofKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProofKind::Fresh => "fresh",
            ProofKind::Kept => "kept",
            ProofKind::TwoSided => "two-sided",
            ProofKind::Told => "told",
            ProofKind::Remoteness => "remoteness",
        })
    }
}

/// A proof that a position is won: the depth (in moves) it was proved at,
/// the winning move, and what finding it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// Which proof found it.
    pub kind: ProofKind,
    /// The depth of the proof, in moves (odd).
    pub depth: u32,
    /// The move the proof starts with.
    pub winning_move: u32,
    /// Closures, distinct positions and evaluations, over all depths tried.
    pub counts: SearchCounts,
}

/// No depth recorded.
const NONE: u8 = u8::MAX;

/// What a kept table knows about one position.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    /// Shallowest depth at which the position was proved (`NONE` if never).
    proved: u8,
    /// The move that proved it (mover's side only).
    mv: u8,
    /// Deepest depth at which it was refuted, plus one (0 if never).
    refuted: u8,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            proved: NONE,
            mv: 0,
            refuted: 0,
        }
    }
}

impl Bounds {
    /// The settled answer at depth `d`, if the bounds settle it.
    #[inline]
    fn answer(&self, d: u8) -> Option<bool> {
        if self.proved != NONE && self.proved <= d {
            Some(true)
        } else if self.refuted > d {
            Some(false)
        } else {
            None
        }
    }

    #[inline]
    fn record(&mut self, d: u8, proved: bool, mv: u8) {
        if proved {
            if self.proved == NONE || d < self.proved {
                self.proved = d;
                self.mv = mv;
            }
        } else if d + 1 > self.refuted {
            self.refuted = d + 1;
        }
    }
}

/// The search state of one proof.
struct Prover {
    kind: ProofKind,
    order: Order,
    /// Depth-keyed tables (fresh: mover only; told: both).
    mover_at: FxHashMap<(u128, u8), u8>,
    opponent_at: FxHashMap<(u128, u8), bool>,
    /// Kept tables.
    mover_kept: FxHashMap<u128, Bounds>,
    opponent_kept: FxHashMap<u128, Bounds>,
    /// Every position evaluated, for the distinct-position count.
    seen: FxHashSet<u128>,
    closures: u64,
    evaluations: u64,
}

impl Prover {
    fn new(kind: ProofKind, order: Order) -> Prover {
        Prover {
            kind,
            order,
            mover_at: FxHashMap::default(),
            opponent_at: FxHashMap::default(),
            mover_kept: FxHashMap::default(),
            opponent_kept: FxHashMap::default(),
            seen: FxHashSet::default(),
            closures: 0,
            evaluations: 0,
        }
    }

    /// A survivor of `s` that proves it won within `d` moves (odd), or 0.
    fn mover(&mut self, s: Semigroup, d: u8) -> u8 {
        let key = s.gap_mask();
        match self.kind {
            // The prover never runs as the remoteness proof (see
            // `remoteness_proof`); grouped with the fresh table for totality.
            ProofKind::Fresh | ProofKind::Told | ProofKind::Remoteness => {
                if let Some(&mv) = self.mover_at.get(&(key, d)) {
                    return mv;
                }
            }
            ProofKind::Kept | ProofKind::TwoSided => {
                if let Some(b) = self.mover_kept.get(&key) {
                    match b.answer(d) {
                        Some(true) => return b.mv,
                        Some(false) => return 0,
                        None => {}
                    }
                }
            }
        }
        self.evaluations += 1;
        self.seen.insert(key);
        let mut found = 0u8;
        for x in self.order.moves(s) {
            self.closures += 1;
            let t = s.adjoin(x);
            if is_struck(t) {
                continue;
            }
            if self.opponent(t, d - 1) {
                found = x as u8;
                break;
            }
        }
        match self.kind {
            ProofKind::Fresh | ProofKind::Told | ProofKind::Remoteness => {
                self.mover_at.insert((key, d), found);
            }
            ProofKind::Kept | ProofKind::TwoSided => {
                self.mover_kept
                    .entry(key)
                    .or_default()
                    .record(d, found != 0, found);
            }
        }
        found
    }

    /// Whether every surviving reply in `t` (opponent to move) leads to a
    /// position proved within `e - 1` moves (`e` even; at 0, whether there
    /// is no surviving reply at all).
    fn opponent(&mut self, t: Semigroup, e: u8) -> bool {
        let key = t.gap_mask();
        match self.kind {
            ProofKind::Told => {
                if let Some(&r) = self.opponent_at.get(&(key, e)) {
                    return r;
                }
            }
            ProofKind::TwoSided => {
                if let Some(r) = self.opponent_kept.get(&key).and_then(|b| b.answer(e)) {
                    return r;
                }
            }
            ProofKind::Fresh | ProofKind::Kept | ProofKind::Remoteness => {}
        }
        self.evaluations += 1;
        self.seen.insert(key);
        let mut all = true;
        for y in self.order.moves(t) {
            self.closures += 1;
            let u = t.adjoin(y);
            if is_struck(u) {
                continue;
            }
            if e == 0 || self.mover(u, e - 1) == 0 {
                all = false;
                break;
            }
        }
        match self.kind {
            ProofKind::Told => {
                self.opponent_at.insert((key, e), all);
            }
            ProofKind::TwoSided => {
                self.opponent_kept.entry(key).or_default().record(e, all, 0);
            }
            ProofKind::Fresh | ProofKind::Kept | ProofKind::Remoteness => {}
        }
        all
    }

    fn counts(&self) -> SearchCounts {
        SearchCounts {
            closures: self.closures,
            positions: self.seen.len() as u64,
            evaluations: self.evaluations,
        }
    }
}

/// The deepest proof any position can need: every move adds a number, so a
/// game from a position of genus `g` lasts at most `g` moves.
fn max_depth(s: Semigroup) -> u8 {
    let g = s.genus() as u8;
    g | 1
}

/// Proves `s` won by deepening (`kind` one of fresh, kept, two-sided), or
/// `None` if no depth proves it (the position is lost).
///
/// # Panics
///
/// Panics if `kind` is [`ProofKind::Told`], which needs its depth (use
/// [`told_proof`]), or [`ProofKind::Remoteness`] (use [`remoteness_proof`]).
#[must_use]
pub fn deepening_proof(s: Semigroup, kind: ProofKind, order: Order) -> Option<Proof> {
    assert!(kind != ProofKind::Told, "the told proof needs its depth");
    assert!(
        kind != ProofKind::Remoteness,
        "the remoteness proof is remoteness_proof"
    );
    let mut p = Prover::new(kind, order);
    let mut d = 1u8;
    while d <= max_depth(s) {
        if kind == ProofKind::Fresh {
            p.mover_at.clear();
        }
        let mv = p.mover(s, d);
        if mv != 0 {
            return Some(Proof {
                kind,
                depth: u32::from(d),
                winning_move: u32::from(mv),
                counts: p.counts(),
            });
        }
        d += 2;
    }
    None
}

/// Proves `s` won searching only at `depth` moves, memoising both players'
/// positions at each depth left; `None` if there is no proof at that depth.
#[must_use]
pub fn told_proof(s: Semigroup, depth: u32, order: Order) -> Option<Proof> {
    let mut p = Prover::new(ProofKind::Told, order);
    let d = depth.min(255) as u8 | 1;
    let mv = p.mover(s, d);
    (mv != 0).then(|| Proof {
        kind: ProofKind::Told,
        depth: u32::from(d),
        winning_move: u32::from(mv),
        counts: p.counts(),
    })
}

/// Proves `s` won by computing its remoteness from an empty table; `None`
/// if the remoteness is even (the position is lost). The proof's depth is
/// the remoteness (the number of moves the win takes with the winner
/// hurrying and the loser delaying) and its move one that achieves it.
#[must_use]
pub fn remoteness_proof(s: Semigroup) -> Option<Proof> {
    let mut r = super::remoteness::Remoteness::new();
    let (depth, mv) = r.best_move(s);
    mv.map(|winning_move| Proof {
        kind: ProofKind::Remoteness,
        depth,
        winning_move,
        counts: r.counts(),
    })
}

/// One evaluation of a mover's position by the told proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProofStep {
    /// The position (serialised as its gaps).
    pub position: Semigroup,
    /// The depth left when it was asked (moves).
    pub depth: u32,
    /// The move that proved it won within `depth`, or `None` if refuted.
    pub proved_by: Option<u32>,
}

/// Every mover's position the told proof of `s` at `depth` evaluated, with
/// the depth left and the verdict, sorted by position then depth: where one
/// position is asked the same question at different depths.
#[must_use]
pub fn told_proof_steps(s: Semigroup, depth: u32, order: Order) -> Vec<ProofStep> {
    let mut p = Prover::new(ProofKind::Told, order);
    let d = depth.min(255) as u8 | 1;
    p.mover(s, d);
    let mut steps: Vec<ProofStep> = p
        .mover_at
        .iter()
        .map(|(&(key, d), &mv)| ProofStep {
            position: Semigroup::from_mask_trusted(key),
            depth: u32::from(d),
            proved_by: (mv != 0).then_some(u32::from(mv)),
        })
        .collect();
    steps.sort_by_key(|st| (st.position.gap_mask(), st.depth));
    steps
}
