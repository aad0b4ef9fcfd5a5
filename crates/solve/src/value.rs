//! The value solver: the canonical value of a position under normal play,
//! with each of the three savings switchable so its effect can be measured.
//!
//! * memoisation: a table from (folded) region to value;
//! * decomposition: a position is split into the components of its ruleset's
//!   move relation and its value is the sum of theirs;
//! * identification: a region is looked up under every symmetry of its
//!   ruleset, a player-swapping symmetry giving the negated value.
//!
//! Every run counts what it did (see [`Stats`]); the counts are part of the
//! API because the essays' figures are counts.
//!
//! How it is fast (every shortcut below is tested against the plain way):
//!
//! * a region of at most 8 x 8 cells with only layer 0 (every Domineering
//!   and Cram region up to 8 x 8) is keyed by one `u64` in stride 8, folded
//!   over the symmetries by word operations ([`small::Folder`]), and kept
//!   in an open-addressing table of 12-byte slots; recently folded regions
//!   are remembered by their raw key (an alias cache), so most folds are
//!   one look-up;
//! * decomposition passes start in the middle of a region and stop once
//!   it has taken every cell (fewer calls of the ruleset's relation);
//! * a node's options are first all split and folded and their regions
//!   looked up back to back (the cache misses overlap), then valued in
//!   order (`search_batched`): the same work and counts as one by one;
//! * the option values, passes and pending regions of the searches in
//!   progress live on stacks the solver reuses, so a search allocates
//!   nothing.

use partizan_core::{Arena, GameId, ValueError, WordMap};
use partizan_games::{Bits, Board, Player, Ruleset};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use thiserror::Error;

use crate::regions::{
    canonical_key, push_regions_unordered, region_board, regions_with_cost, small,
};

/// When the solver splits a position into independent regions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decompose {
    /// Never: every position is searched whole.
    Off,
    /// At every node of the search (correct for every ruleset).
    EveryNode,
    /// Once at the root; the partition is trusted below. Only sound for
    /// rulesets whose boards only ever fall apart.
    RootOnly,
    /// After a move the ruleset's cheap local test says could have split.
    Conditional,
}

impl std::str::FromStr for Decompose {
    type Err = SolveError;
    fn from_str(s: &str) -> Result<Self, SolveError> {
        match s {
            "off" | "none" => Ok(Decompose::Off),
            "every" | "every-node" => Ok(Decompose::EveryNode),
            "root" | "root-only" => Ok(Decompose::RootOnly),
            "conditional" => Ok(Decompose::Conditional),
            other => Err(SolveError::UnknownMode(other.to_string())),
        }
    }
}

/// Which savings a run uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Savings {
    /// Keep a table of region values.
    pub memo: bool,
    /// When to split into regions.
    pub decompose: Decompose,
    /// Fold regions over the ruleset's symmetries before the table lookup.
    pub symmetry: bool,
}

impl Savings {
    /// All three savings, decomposing at every node.
    pub const ALL: Savings = Savings {
        memo: true,
        decompose: Decompose::EveryNode,
        symmetry: true,
    };
    /// None of them: the brute-force twin.
    pub const NONE: Savings = Savings {
        memo: false,
        decompose: Decompose::Off,
        symmetry: false,
    };
}

impl Default for Savings {
    fn default() -> Self {
        Savings::ALL
    }
}

/// What a run did. Counts accumulate over the life of a [`Solver`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Region evaluations requested (nodes of the recursion actually run,
    /// counting each table hit as a node that stopped at once).
    pub nodes: u64,
    /// Distinct regions whose value was computed by search.
    pub distinct: u64,
    /// Table hits.
    pub hits: u64,
    /// Decomposition passes run.
    pub passes: u64,
    /// Passes that found more than one region.
    pub splits: u64,
    /// Regions found by all passes together.
    pub regions: u64,
    /// Squares visited by the passes.
    pub squares_visited: u64,
    /// Regions answered by the persistent store.
    pub store_hits: u64,
    /// Region values the run handed to the persistent store.
    pub store_added: u64,
}

/// Passes and splits met at one depth of the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DepthCount {
    /// Decomposition passes run at this depth.
    pub passes: u64,
    /// Of those, passes that found more than one region.
    pub splits: u64,
}

/// Where and how positions fell apart during a search (collected only when
/// asked for with [`Solver::with_detail`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SplitDetail {
    /// Passes and splits by depth below the root (the root is depth 0).
    pub by_depth: BTreeMap<u32, DepthCount>,
    /// Number of regions a splitting pass found -> how many passes.
    pub parts: BTreeMap<usize, u64>,
    /// Cells in a region found by a splitting pass -> how many regions.
    pub region_sizes: BTreeMap<u32, u64>,
}

/// Errors of the value solver.
#[derive(Debug, Error)]
pub enum SolveError {
    /// Arithmetic on values failed (a dyadic overflow).
    #[error("value arithmetic failed: {0}")]
    Value(#[from] ValueError),
    /// Root-only decomposition was asked of a ruleset whose regions can merge.
    #[error("decomposing once at the root is unsound for {0}: its boards do not only fall apart (use every-node or conditional)")]
    RootOnlyUnsound(&'static str),
    /// An unknown decomposition mode name.
    #[error("unknown decomposition mode '{0}' (expected off, every, root or conditional)")]
    UnknownMode(String),
    /// A region store failed.
    #[error("store: {0}")]
    Store(String),
    /// Two computations that must agree did not (a bug, reported rather
    /// than answered).
    #[error("inconsistent results: {0}")]
    Inconsistent(String),
    /// The caller's stop check said to stop (a budget spent, a cancel).
    #[error("stopped before the value was found")]
    Stopped,
}

/// A persistent table of region values that a solver reads through before
/// searching and writes new values to.
pub trait RegionTable {
    /// The stored value of a folded region key, if any.
    fn get(
        &mut self,
        arena: &mut Arena,
        ruleset: &str,
        key: &Board,
    ) -> Result<Option<GameId>, SolveError>;
    /// Record a freshly computed value of a folded region key.
    fn put(
        &mut self,
        arena: &Arena,
        ruleset: &str,
        key: &Board,
        value: GameId,
    ) -> Result<(), SolveError>;
}

/// The alias cache of small folds has `2^this` slots (24 bytes each).
const ALIAS_LOG: u32 = 12;

/// A memo key: a small board (at most 8 x 8, layer 0 only) is its cropped
/// stride-8 set (see [`small`]); any other board is itself.
#[derive(Copy, Clone, Debug)]
enum Key {
    Small(u64),
    Big(Board),
}

impl Key {
    /// The key of a cropped board.
    #[inline]
    fn of(c: Board) -> Key {
        match small::key(&c) {
            Some(m) => Key::Small(m),
            None => Key::Big(c),
        }
    }

    fn board(self) -> Board {
        match self {
            Key::Small(m) => small::board(m),
            Key::Big(b) => b,
        }
    }
}

/// A region's memo key waiting in [`Solver::search_batched`]: a small key,
/// or the index of a big one on the solver's side stack.
#[derive(Copy, Clone, Debug)]
enum PendKey {
    Small(u64),
    Big(usize),
}

/// A region of an option waiting for its value: its key, whether the fold
/// negates, and what the first look-up found.
#[derive(Copy, Clone, Debug)]
struct Pend {
    key: PendKey,
    negated: bool,
    hit: Option<GameId>,
}

/// The value solver for one ruleset.
pub struct Solver<'r, R: Ruleset> {
    rules: &'r R,
    savings: Savings,
    /// Values of small regions by stride-8 key.
    memo: WordMap,
    /// Values of the other regions.
    memo_big: FxHashMap<Board, GameId>,
    /// Folds small boards by word operations, when the ruleset's
    /// symmetries act on layer-0 boards geometrically.
    folder: Option<small::Folder>,
    /// The folds of recently seen small regions, by raw key: (raw key,
    /// folded key, negates), direct-mapped (see [`ALIAS_LOG`]).
    alias: Vec<(u64, u64, bool)>,
    /// Option values of the searches in progress, as a stack.
    opts: Vec<GameId>,
    /// Regions of the passes in progress, as a stack.
    parts: Vec<Bits>,
    /// Regions of the options of the batched searches in progress, as a
    /// stack; with the number of regions of each option, and the big keys.
    pend: Vec<Pend>,
    pend_n: Vec<usize>,
    pend_big: Vec<Board>,
    /// Whether to search in two phases (see `search_batched`); off only to
    /// test it against the one-phase search.
    batch: bool,
    stats: Stats,
    table: Option<&'r mut dyn RegionTable>,
    /// Asked before each region search: `true` stops the solver with
    /// [`SolveError::Stopped`].
    stop: Option<&'r (dyn Fn() -> bool + 'r)>,
    detail: Option<SplitDetail>,
    depth: u32,
}

impl<'r, R: Ruleset> Solver<'r, R> {
    /// A solver with the given savings. Fails if root-only decomposition is
    /// asked of a ruleset whose boards can merge.
    pub fn new(rules: &'r R, savings: Savings) -> Result<Self, SolveError> {
        if savings.decompose == Decompose::RootOnly && !rules.only_falls_apart() {
            return Err(SolveError::RootOnlyUnsound(rules.name()));
        }
        let folder = small::Folder::new(rules);
        // Every slot starts as the fold of the empty board (raw key 0).
        let alias = match &folder {
            Some(f) => {
                let (k, negated) = f.canonical(0);
                vec![(0, k, negated); 1 << ALIAS_LOG]
            }
            None => Vec::new(),
        };
        Ok(Solver {
            rules,
            savings,
            memo: WordMap::with_log(10),
            memo_big: FxHashMap::default(),
            folder,
            alias,
            opts: Vec::new(),
            parts: Vec::new(),
            pend: Vec::new(),
            pend_n: Vec::new(),
            pend_big: Vec::new(),
            batch: true,
            stats: Stats::default(),
            table: None,
            stop: None,
            detail: None,
            depth: 0,
        })
    }

    /// Read through (and write to) a persistent region table.
    pub fn with_table(mut self, table: &'r mut dyn RegionTable) -> Self {
        self.table = Some(table);
        self
    }

    /// Ask `stop` before every region search (a budget, a cancel flag):
    /// once it answers `true` the solver returns [`SolveError::Stopped`].
    /// Nothing half-computed is written to the tables.
    pub fn with_stop(mut self, stop: &'r (dyn Fn() -> bool + 'r)) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Also record where positions fall apart (see [`SplitDetail`]).
    pub fn with_detail(mut self) -> Self {
        self.detail = Some(SplitDetail::default());
        self
    }

    /// The split detail collected so far, if asked for.
    pub fn detail(&self) -> Option<&SplitDetail> {
        self.detail.as_ref()
    }

    /// The counts so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The savings in force.
    pub fn savings(&self) -> Savings {
        self.savings
    }

    /// Number of entries in the memo table.
    pub fn table_len(&self) -> usize {
        self.memo.len() + self.memo_big.len()
    }

    /// The canonical value of a whole position.
    pub fn value(&mut self, arena: &mut Arena, board: &Board) -> Result<GameId, SolveError> {
        match self.savings.decompose {
            Decompose::Off => self.region_value(arena, board, false),
            Decompose::EveryNode | Decompose::Conditional => self.split_value(arena, board, false),
            Decompose::RootOnly => self.split_value(arena, board, true),
        }
    }

    /// The values of the regions of a position, with each region's cells.
    pub fn region_values(
        &mut self,
        arena: &mut Arena,
        board: &Board,
    ) -> Result<Vec<(Bits, GameId)>, SolveError> {
        let (parts, _) = regions_with_cost(self.rules, board);
        let mut out = Vec::with_capacity(parts.len());
        for mask in parts {
            let sub = region_board(board, mask);
            let inner = self.savings.decompose != Decompose::RootOnly;
            let v = if inner {
                self.split_value(arena, &sub, false)?
            } else {
                self.region_value(arena, &sub, true)?
            };
            out.push((mask, v));
        }
        Ok(out)
    }

    /// Split `board` into regions and add their values. With `frozen`, the
    /// regions are searched without further splitting (root-only mode).
    fn split_value(
        &mut self,
        arena: &mut Arena,
        board: &Board,
        frozen: bool,
    ) -> Result<GameId, SolveError> {
        // The parts go on the solver's stack (searches below push theirs
        // above and take them off again).
        let base = self.parts.len();
        let cost = push_regions_unordered(self.rules, board, &mut self.parts);
        let n = self.parts.len() - base;
        self.count_pass(base, cost);
        if n == 1 {
            self.parts.truncate(base);
            return self.region_value(arena, board, frozen);
        }
        let mut total = arena.zero();
        for i in base..base + n {
            let mask = self.parts[i];
            let v = match self.region_value(arena, &board.restrict(mask), frozen) {
                Ok(v) => v,
                Err(e) => {
                    self.parts.truncate(base);
                    return Err(e);
                }
            };
            total = match arena.sum(total, v) {
                Ok(t) => t,
                Err(e) => {
                    self.parts.truncate(base);
                    return Err(e.into());
                }
            };
        }
        self.parts.truncate(base);
        Ok(total)
    }

    /// Count a decomposition pass whose regions are `self.parts[base..]`.
    fn count_pass(&mut self, base: usize, cost: u64) {
        let n = self.parts.len() - base;
        self.stats.passes += 1;
        self.stats.squares_visited += cost;
        self.stats.regions += n as u64;
        if n > 1 {
            self.stats.splits += 1;
        }
        if let Some(d) = self.detail.as_mut() {
            let at = d.by_depth.entry(self.depth).or_default();
            at.passes += 1;
            if n > 1 {
                at.splits += 1;
                *d.parts.entry(n).or_default() += 1;
                for m in &self.parts[base..] {
                    *d.region_sizes.entry(m.count_ones()).or_default() += 1;
                }
            }
        }
    }

    /// The memo key of a region (any frame: it is cropped here), folded
    /// over the symmetries when that saving is on, and whether the folding
    /// symmetry negates.
    #[inline]
    fn fold(&mut self, region: &Board) -> (Key, bool) {
        if let Some(m) = small::crop_key(region) {
            if !self.savings.symmetry {
                return (Key::Small(m), false);
            }
            if let Some(f) = &self.folder {
                let i = (m.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ALIAS_LOG)) as usize;
                let (raw, k, negated) = self.alias[i];
                if raw == m {
                    return (Key::Small(k), negated);
                }
                let (k, negated) = f.canonical(m);
                self.alias[i] = (m, k, negated);
                return (Key::Small(k), negated);
            }
            let (k, negated) = canonical_key(self.rules, &small::board(m));
            return (Key::of(k), negated);
        }
        let c = region.crop();
        if !self.savings.symmetry {
            return (Key::of(c), false);
        }
        let (k, negated) = canonical_key(self.rules, &c);
        (Key::of(k), negated)
    }

    #[inline]
    fn memo_get(&self, arena: &Arena, key: &Key) -> Option<GameId> {
        match key {
            Key::Small(m) => self.memo.get(*m).map(|i| {
                arena
                    .id_at(i)
                    .expect("a memo entry is a form of this arena")
            }),
            Key::Big(b) => self.memo_big.get(b).copied(),
        }
    }

    #[inline]
    fn memo_put(&mut self, key: Key, v: GameId) {
        match key {
            Key::Small(m) => self.memo.insert(m, v.index()),
            Key::Big(b) => {
                self.memo_big.insert(b, v);
            }
        }
    }

    /// The value of one region (cropped here), through the tables.
    fn region_value(
        &mut self,
        arena: &mut Arena,
        region: &Board,
        frozen: bool,
    ) -> Result<GameId, SolveError> {
        let (key, negated) = self.fold(region);
        self.keyed_value(arena, key, negated, frozen)
    }

    /// The value of the region with memo key `key` (negated when the fold
    /// that found the key negates), through the tables.
    fn keyed_value(
        &mut self,
        arena: &mut Arena,
        key: Key,
        negated: bool,
        frozen: bool,
    ) -> Result<GameId, SolveError> {
        self.stats.nodes += 1;
        if self.savings.memo {
            if let Some(v) = self.memo_get(arena, &key) {
                self.stats.hits += 1;
                return Ok(if negated { arena.neg(v) } else { v });
            }
        }
        let board = key.board();
        if self.savings.memo {
            if let Some(table) = self.table.as_deref_mut() {
                if let Some(v) = table.get(arena, self.rules.name(), &board)? {
                    self.stats.store_hits += 1;
                    self.memo_put(key, v);
                    return Ok(if negated { arena.neg(v) } else { v });
                }
            }
        }
        if let Some(stop) = self.stop {
            if stop() {
                return Err(SolveError::Stopped);
            }
        }
        let v = self.search(arena, &board, frozen)?;
        self.stats.distinct += 1;
        if self.savings.memo {
            self.memo_put(key, v);
            if let Some(table) = self.table.as_deref_mut() {
                table.put(arena, self.rules.name(), &board, v)?;
                self.stats.store_added += 1;
            }
        }
        Ok(if negated { arena.neg(v) } else { v })
    }

    /// Expand every option of both players and build the canonical form.
    /// Option values go on the solver's stack (each search truncates what
    /// its options pushed before it pushes its own value), so a search
    /// allocates nothing.
    fn search(
        &mut self,
        arena: &mut Arena,
        board: &Board,
        frozen: bool,
    ) -> Result<GameId, SolveError> {
        if self.batch
            && !frozen
            && self.savings.memo
            && self.savings.decompose == Decompose::EveryNode
        {
            return self.search_batched(arena, board);
        }
        let rules = self.rules;
        self.depth += 1;
        let base = self.opts.len();
        let mut split = base;
        let mut err: Option<SolveError> = None;
        for player in Player::BOTH {
            if player == Player::Right {
                split = self.opts.len();
            }
            let start = self.opts.len();
            rules.options(board, player, |opt: Board| {
                if err.is_some() {
                    return;
                }
                match self.option_value(arena, board, &opt, frozen) {
                    Ok(v) => {
                        if !self.opts[start..].contains(&v) {
                            self.opts.push(v)
                        }
                    }
                    Err(e) => err = Some(e),
                }
            });
        }
        self.depth -= 1;
        if let Some(e) = err {
            self.opts.truncate(base);
            return Err(e);
        }
        let g = arena.construct(&self.opts[base..split], &self.opts[split..]);
        self.opts.truncate(base);
        Ok(g?)
    }

    /// [`search`](Self::search) decomposing at every node with the memo
    /// on, in two phases. First every option is split into regions and
    /// each region folded and looked up in the memo; then, option by
    /// option in the same order, the values are taken (a region the first
    /// look-up missed is looked up again, then searched) and added.
    ///
    /// The work and the counts are those of the one-phase search: the
    /// first look-ups only read, and the memo only grows, so a region is
    /// found or searched exactly when it would have been. What changes is
    /// that the first look-ups of a node's regions follow one another with
    /// nothing waiting on them, so their cache misses overlap.
    fn search_batched(&mut self, arena: &mut Arena, board: &Board) -> Result<GameId, SolveError> {
        let rules = self.rules;
        self.depth += 1;
        let (pbase, nbase, bbase) = (self.pend.len(), self.pend_n.len(), self.pend_big.len());
        let mut lefts = 0;
        for player in Player::BOTH {
            rules.options(board, player, |opt: Board| {
                let base = self.parts.len();
                let cost = push_regions_unordered(rules, &opt, &mut self.parts);
                self.count_pass(base, cost);
                let n = self.parts.len() - base;
                for i in base..base + n {
                    let (key, negated) = if n == 1 {
                        self.fold(&opt)
                    } else {
                        self.fold(&opt.restrict(self.parts[i]))
                    };
                    let key = match key {
                        Key::Small(m) => PendKey::Small(m),
                        Key::Big(b) => {
                            self.pend_big.push(b);
                            PendKey::Big(self.pend_big.len() - 1)
                        }
                    };
                    self.pend.push(Pend {
                        key,
                        negated,
                        hit: None,
                    });
                }
                self.parts.truncate(base);
                self.pend_n.push(n);
            });
            if player == Player::Left {
                lefts = self.pend_n.len() - nbase;
            }
        }
        // The first look-ups, back to back: nothing waits on one to issue
        // the next, so their misses overlap.
        for j in pbase..self.pend.len() {
            let hit = match self.pend[j].key {
                PendKey::Small(m) => self.memo.get(m),
                PendKey::Big(i) => self.memo_big.get(&self.pend_big[i]).map(|g| g.index()),
            };
            self.pend[j].hit = hit.map(|i| {
                arena
                    .id_at(i)
                    .expect("a memo entry is a form of this arena")
            });
        }
        let obase = self.opts.len();
        let res = self.take_pending(arena, pbase, nbase, lefts);
        self.pend.truncate(pbase);
        self.pend_n.truncate(nbase);
        self.pend_big.truncate(bbase);
        self.depth -= 1;
        let res = res
            .and_then(|split| Ok(arena.construct(&self.opts[obase..split], &self.opts[split..])?));
        self.opts.truncate(obase);
        res
    }

    /// The second phase of [`search_batched`](Self::search_batched): the
    /// value of every pending option, pushed on the option stack (Left's
    /// first `lefts`, then Right's, each list without repeats). Returns
    /// where Right's begin.
    fn take_pending(
        &mut self,
        arena: &mut Arena,
        pbase: usize,
        nbase: usize,
        lefts: usize,
    ) -> Result<usize, SolveError> {
        let mut at = pbase;
        let mut start = self.opts.len();
        let mut split = self.opts.len();
        for o in 0..self.pend_n.len() - nbase {
            if o == lefts {
                split = self.opts.len();
                start = split;
            }
            let n = self.pend_n[nbase + o];
            let mut total = arena.zero();
            for j in at..at + n {
                let Pend { key, negated, hit } = self.pend[j];
                let v = match hit {
                    Some(v) => {
                        self.stats.nodes += 1;
                        self.stats.hits += 1;
                        if negated {
                            arena.neg(v)
                        } else {
                            v
                        }
                    }
                    None => {
                        let key = match key {
                            PendKey::Small(m) => Key::Small(m),
                            PendKey::Big(i) => Key::Big(self.pend_big[i]),
                        };
                        self.keyed_value(arena, key, negated, false)?
                    }
                };
                total = if n == 1 { v } else { arena.sum(total, v)? };
            }
            at += n;
            if !self.opts[start..].contains(&total) {
                self.opts.push(total);
            }
        }
        if lefts == self.pend_n.len() - nbase {
            split = self.opts.len();
        }
        Ok(split)
    }

    fn option_value(
        &mut self,
        arena: &mut Arena,
        before: &Board,
        after: &Board,
        frozen: bool,
    ) -> Result<GameId, SolveError> {
        if frozen {
            return self.region_value(arena, after, true);
        }
        match self.savings.decompose {
            Decompose::Off | Decompose::RootOnly => self.region_value(arena, after, frozen),
            Decompose::EveryNode => self.split_value(arena, after, false),
            Decompose::Conditional => {
                if self.rules.may_split(before, after) {
                    self.split_value(arena, after, false)
                } else {
                    self.region_value(arena, after, false)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane};

    #[test]
    fn a_stop_check_stops_the_solver_and_a_quiet_one_does_not() {
        let b = Domineering.parse("....|....|....").unwrap();
        let asked = std::cell::Cell::new(0u64);
        let stop_after_ten = || {
            asked.set(asked.get() + 1);
            asked.get() > 10
        };
        let mut s = Solver::new(&Domineering, Savings::ALL)
            .unwrap()
            .with_stop(&stop_after_ten);
        let mut a = Arena::new();
        assert!(matches!(s.value(&mut a, &b), Err(SolveError::Stopped)));
        assert_eq!(asked.get(), 11);
        let never = || false;
        let mut s = Solver::new(&Domineering, Savings::ALL)
            .unwrap()
            .with_stop(&never);
        let g = s.value(&mut a, &b).unwrap();
        let mut plain = Solver::new(&Domineering, Savings::ALL).unwrap();
        assert_eq!(plain.value(&mut a, &b).unwrap(), g);
    }

    #[test]
    fn small_memo_is_a_map() {
        let mut m = WordMap::with_log(2);
        let mut want = std::collections::HashMap::new();
        let mut x: u64 = 7;
        for i in 0..40_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = match i % 4 {
                0 => x % 512,
                1 => (x % 512) << 55,
                2 => !0 - x % 64,
                _ => x,
            };
            m.insert(k, i);
            want.insert(k, i);
            let probe = x.rotate_left(9) % 512;
            assert_eq!(m.get(probe), want.get(&probe).copied());
        }
        assert_eq!(m.len(), want.len());
        for (&k, &v) in &want {
            assert_eq!(m.get(k), Some(v));
        }
    }

    /// The fold through the alias cache is the board fold, whatever the
    /// cache holds (many boards share a slot; every one comes back).
    #[test]
    fn aliased_fold_is_the_board_fold() {
        use crate::regions::canonical_key_all;
        fn check<R: Ruleset>(r: &R) {
            let mut s = Solver::new(r, Savings::ALL).unwrap();
            let mut x: u64 = 0x2545_f491_4f6c_dd1d;
            let mut boards = Vec::new();
            for i in 0..6000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let (w, h) = (1 + (x % 8) as usize, 1 + ((x >> 3) % 8) as usize);
                let l = Bits::from(x >> 6) & partizan_games::board::rect_mask(w, h);
                let b = Board::new(w, h, [l, 0, 0]).unwrap();
                boards.push(b);
                // Revisit earlier boards too, so some look-ups hit.
                let b = if i % 3 == 0 {
                    boards[(x % boards.len() as u64) as usize]
                } else {
                    b
                };
                let (key, negated) = s.fold(&b);
                let (want, want_neg) = canonical_key_all(r, &b);
                assert_eq!((key.board(), negated), (want, want_neg), "{}", r.format(&b));
            }
        }
        check(&Domineering);
        check(&Cram);
    }

    /// The two-phase search against the one-phase one: the same values
    /// and the same counts, split detail included.
    fn batched_twin<R: Ruleset>(r: &R, texts: &[&str]) {
        for &text in texts {
            let b = r.parse(text).unwrap();
            for symmetry in [true, false] {
                let savings = Savings {
                    symmetry,
                    ..Savings::ALL
                };
                let mut arena = Arena::new();
                let mut two = Solver::new(r, savings).unwrap().with_detail();
                let mut one = Solver::new(r, savings).unwrap().with_detail();
                one.batch = false;
                let a = two.value(&mut arena, &b).unwrap();
                let z = one.value(&mut arena, &b).unwrap();
                assert_eq!(a, z, "{} {text}", r.name());
                assert_eq!(two.stats(), one.stats(), "{} {text}", r.name());
                assert_eq!(two.detail(), one.detail(), "{} {text}", r.name());
                assert_eq!(two.table_len(), one.table_len());
                let parts_a = two.region_values(&mut arena, &b).unwrap();
                let parts_z = one.region_values(&mut arena, &b).unwrap();
                assert_eq!(parts_a, parts_z);
                assert_eq!(two.stats(), one.stats(), "{} {text}", r.name());
            }
        }
    }

    #[test]
    fn batched_search_is_the_plain_search() {
        batched_twin(
            &Domineering,
            &[
                "....|....|....",
                "..#..|.....|#...#|.....",
                "....|.##.|....|....",
            ],
        );
        batched_twin(&Cram, &["....|....|....", ".#..|....|..#."]);
        batched_twin(&Clobber, &["xox|oxo|x.o", "xo.x|oxox"]);
        batched_twin(&Konane, &["xo.o|.x.x|o.ox"]);
        batched_twin(&Amazons, &["L..|.#.|..R"]);
        // Boards too big for the small keys go the other way.
        batched_twin(&Domineering, &["..........|.........."]);
    }
}
