//! Grundy values of one heap, `G(0), G(1), ...`, by the mex recurrence.
//!
//! Two engines compute the same numbers. [`naive_values`] is the plain
//! recurrence (every split `a + b` looked at), kept as the twin of the fast
//! one. [`FastEngine`] answers "does some split `a + b = m` have
//! `G(a) ^ G(b) = x`?" word-parallel: for every value `v` it keeps a bitset
//! of the heap sizes having it, and a reversed copy, so the question is an
//! AND of `pos[v]` with `rev[v ^ x]` shifted by `m`, 64 splits per word, and
//! stops at the first hit. The mex itself is taken over a `u64` bitset.

use crate::code::{OctalCode, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO, TAKE_ALL};

/// The moves of a code sorted by kind: removal amounts `j` whose digit has
/// each bit.
#[derive(Debug, Clone)]
pub(crate) struct Moves {
    pub take_all: Vec<usize>,
    pub leave_one: Vec<usize>,
    pub leave_two: Vec<usize>,
    pub leave_three: Vec<usize>,
}

impl Moves {
    pub(crate) fn of(code: &OctalCode) -> Self {
        let pick = |bit: u8| {
            code.digits()
                .iter()
                .enumerate()
                .filter(|(_, &d)| d & bit != 0)
                .map(|(j, _)| j)
                .collect::<Vec<_>>()
        };
        Self {
            take_all: pick(TAKE_ALL),
            leave_one: pick(LEAVE_ONE),
            leave_two: pick(LEAVE_TWO),
            leave_three: pick(LEAVE_THREE),
        }
    }
}

/// A growable bitset over small numbers (Grundy values), for the mex.
#[derive(Debug, Clone, Default)]
pub(crate) struct SmallSet {
    words: Vec<u64>,
}

impl SmallSet {
    #[inline]
    pub(crate) fn insert(&mut self, x: u32) {
        let w = (x / 64) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (x % 64);
    }
    #[inline]
    pub(crate) fn contains(&self, x: u32) -> bool {
        self.words
            .get((x / 64) as usize)
            .is_some_and(|w| w >> (x % 64) & 1 != 0)
    }
    /// The least number not in the set.
    #[inline]
    pub(crate) fn mex(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return i as u32 * 64 + (!w).trailing_zeros();
            }
        }
        self.words.len() as u32 * 64
    }
    pub(crate) fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(i as u32 * 64 + b)
            })
        })
    }
}

/// For each `m`, the set of `G(a) ^ G(b)` over splits `a + b = m`,
/// `a, b >= 1`: what leaving two heaps of total `m` can reach. Needed by
/// the three-heap moves of hexadecimal codes.
#[derive(Debug, Default)]
struct PairSets {
    sets: Vec<SmallSet>,
}

impl PairSets {
    /// Add the set for `m = g.len()` (uses `g[1..m]`).
    fn push(&mut self, g: &[u32]) {
        let m = g.len();
        let mut s = SmallSet::default();
        for a in 1..=m / 2 {
            if m - a >= 1 {
                s.insert(g[a] ^ g[m - a]);
            }
        }
        self.sets.push(s);
    }
    /// Mark in `seen` every `G(a) ^ G(b) ^ G(c)` with `a + b + c = m`;
    /// returns the number of values marked (the work).
    fn mark_three(&self, g: &[u32], m: usize, seen: &mut SmallSet) -> u64 {
        let mut work = 0;
        for (a, &ga) in g.iter().enumerate().take(m.saturating_sub(1)).skip(1) {
            for x in self.sets[m - a].iter() {
                seen.insert(x ^ ga);
                work += 1;
            }
        }
        work
    }
}

/// Up to this many distinct values the fast engine asks the bitsets about
/// each mex candidate; beyond it (a candidate costs one scan per value) it
/// looks at every split once instead.
pub const BITSET_MAX_VALUES: usize = 16;

/// Work units of one split looked at by itself (a bitset word is one unit;
/// measured: a word about 0.6 ns, a split about 5 ns, a three-heap
/// combination about 8 ns, so a unit is roughly a nanosecond).
pub const SPLIT_WEIGHT: u64 = 6;
/// Work units of one three-heap combination looked at.
pub const THREE_HEAP_WEIGHT: u64 = 10;

/// `G(0..len)` of a code by the plain mex recurrence: every option of every
/// heap is looked at (`O(len^2)` for splitting games, more for hexadecimal
/// ones). The reference the fast engine is tested against.
#[must_use]
pub fn naive_values(code: &OctalCode, len: usize) -> Vec<u32> {
    let moves = Moves::of(code);
    let mut g: Vec<u32> = Vec::with_capacity(len);
    let mut pairs = PairSets::default();
    let mut seen = SmallSet::default();
    for n in 0..len {
        if !moves.leave_three.is_empty() {
            pairs.push(&g);
        }
        seen.clear();
        for &j in &moves.take_all {
            if n == j {
                seen.insert(0);
            }
        }
        for &j in &moves.leave_one {
            if n > j {
                seen.insert(g[n - j]);
            }
        }
        for &j in &moves.leave_two {
            if n >= j + 2 {
                let m = n - j;
                for a in 1..=m / 2 {
                    seen.insert(g[a] ^ g[m - a]);
                }
            }
        }
        for &j in &moves.leave_three {
            if n >= j + 3 {
                pairs.mark_three(&g, n - j, &mut seen);
            }
        }
        g.push(seen.mex());
    }
    g
}

/// The fast engine: the recurrence with bitsets over previous values.
///
/// Heap sizes are indexed in `pos[v]` (bit `i` set when `G(i) = v`) and in
/// `rev[v]` (bit `cap - 1 - i`), so for a split total `m` the bits of
/// `rev[u]` shifted right by `cap - 1 - m` line up `m - a` with `a`. The
/// capacity doubles (and `rev` is rebuilt) as the sequence grows, so memory
/// follows what was computed, not what was asked for.
#[derive(Debug)]
pub struct FastEngine {
    moves: Moves,
    g: Vec<u32>,
    cap: usize,
    pos: Vec<Vec<u64>>,
    rev: Vec<Vec<u64>>,
    pairs: Option<PairSets>,
    seen: SmallSet,
    /// Words ANDed while looking for splits, plus splits looked at one by
    /// one (a measured cost, and what budgets count).
    words_scanned: u64,
    /// Most distinct values for which the bitset path is used.
    bitset_limit: usize,
    /// Scratch: the value pairs `(v, v ^ x)` of one question.
    pair_buf: Vec<(u32, u32)>,
}

impl FastEngine {
    /// An engine for `code` with nothing computed yet.
    #[must_use]
    pub fn new(code: &OctalCode) -> Self {
        Self::with_bitset_limit(code, BITSET_MAX_VALUES)
    }

    /// An engine using the bitset path while at most `limit` distinct values
    /// have appeared (0: never; `usize::MAX`: always). For tests and
    /// measurements; [`Self::new`] uses [`BITSET_MAX_VALUES`].
    #[must_use]
    pub fn with_bitset_limit(code: &OctalCode, limit: usize) -> Self {
        let moves = Moves::of(code);
        let pairs = (!moves.leave_three.is_empty()).then(PairSets::default);
        Self {
            moves,
            g: Vec::new(),
            cap: 0,
            pos: Vec::new(),
            rev: Vec::new(),
            pairs,
            seen: SmallSet::default(),
            words_scanned: 0,
            bitset_limit: limit,
            pair_buf: Vec::new(),
        }
    }

    /// The values computed so far, `G(0..len)`.
    #[must_use]
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    /// The work done so far, in units of about a nanosecond: words of the
    /// heap-size bitsets ANDed (1 each), splits looked at one by one
    /// ([`SPLIT_WEIGHT`]) and three-heap combinations ([`THREE_HEAP_WEIGHT`]).
    #[must_use]
    pub fn words_scanned(&self) -> u64 {
        self.words_scanned
    }

    /// Compute values until `len` of them are known.
    pub fn extend_to(&mut self, len: usize) {
        self.extend_within(len, u64::MAX);
    }

    /// Compute values until `len` of them are known or the work counter
    /// ([`Self::words_scanned`]) passes `max_work`; says whether `len` was reached.
    pub fn extend_within(&mut self, len: usize, max_work: u64) -> bool {
        while self.g.len() < len {
            if self.words_scanned > max_work {
                return false;
            }
            if self.g.len() >= self.cap {
                self.grow((self.cap * 2).max(1024).max(self.g.len() + 1));
            }
            let n = self.g.len();
            if let Some(p) = self.pairs.as_mut() {
                p.push(&self.g);
            }
            let v = self.next_value(n);
            self.record(n, v);
        }
        true
    }

    fn words(cap: usize) -> usize {
        cap.div_ceil(64) + 1
    }

    fn grow(&mut self, cap: usize) {
        self.cap = cap;
        let words = Self::words(cap);
        for p in &mut self.pos {
            p.resize(words, 0);
        }
        for r in &mut self.rev {
            *r = vec![0; words];
        }
        for (i, &v) in self.g.iter().enumerate() {
            let r = cap - 1 - i;
            self.rev[v as usize][r / 64] |= 1 << (r % 64);
        }
    }

    fn record(&mut self, n: usize, v: u32) {
        let words = Self::words(self.cap);
        while self.pos.len() <= v as usize {
            self.pos.push(vec![0; words]);
            self.rev.push(vec![0; words]);
        }
        self.pos[v as usize][n / 64] |= 1 << (n % 64);
        let r = self.cap - 1 - n;
        self.rev[v as usize][r / 64] |= 1 << (r % 64);
        self.g.push(v);
    }

    fn next_value(&mut self, n: usize) -> u32 {
        self.seen.clear();
        for &j in &self.moves.take_all {
            if n == j {
                self.seen.insert(0);
            }
        }
        for &j in &self.moves.leave_one {
            if n > j {
                self.seen.insert(self.g[n - j]);
            }
        }
        if let Some(p) = &self.pairs {
            for &j in &self.moves.leave_three {
                if n >= j + 3 {
                    self.words_scanned +=
                        THREE_HEAP_WEIGHT * p.mark_three(&self.g, n - j, &mut self.seen);
                }
            }
        }
        if self.pos.len() > self.bitset_limit {
            // Many values: asking about each candidate costs more than
            // looking at every split once.
            for &j in &self.moves.leave_two {
                if n >= j + 2 {
                    let m = n - j;
                    for a in 1..=m / 2 {
                        self.seen.insert(self.g[a] ^ self.g[m - a]);
                    }
                    self.words_scanned += SPLIT_WEIGHT * (m / 2) as u64;
                }
            }
            return self.seen.mex();
        }
        // Candidates in increasing order; the first one no option reaches is
        // the mex. Two-heap options are asked about only for candidates the
        // cheap options missed, and each question stops at its first hit.
        let mut x = 0u32;
        loop {
            if !self.seen.contains(x) && !self.split_reaches(n, x) {
                return x;
            }
            x += 1;
        }
    }

    /// Whether some two-heap option of a heap of `n` has value `x`.
    fn split_reaches(&mut self, n: usize, x: u32) -> bool {
        for k in 0..self.moves.leave_two.len() {
            let j = self.moves.leave_two[k];
            if n >= j + 2 && self.pair_with_xor(n - j, x) {
                return true;
            }
        }
        false
    }

    /// Whether `G(a) ^ G(m - a) = x` for some `1 <= a <= m / 2`.
    ///
    /// Word by word over `a`, and within a word over every value pair
    /// `(v, v ^ x)`, so the smallest `a` that works is found after looking
    /// at a few words for each pair, whichever pair it belongs to.
    fn pair_with_xor(&mut self, m: usize, x: u32) -> bool {
        let nvals = self.pos.len() as u32;
        self.pair_buf.clear();
        for v in 0..nvals {
            if v ^ x < nvals {
                self.pair_buf.push((v, v ^ x));
            }
        }
        let half = m / 2;
        // Bit a of rev[u] >> shift is bit (cap - 1 - m + a) of rev[u]: set
        // exactly when G(m - a) = u.
        let shift = self.cap - 1 - m;
        let (ws, bs) = (shift / 64, (shift % 64) as u32);
        let last_word = half / 64;
        let pairs = self.pair_buf.len() as u64;
        for w in 0..=last_word {
            let mut keep = u64::MAX;
            if w == 0 {
                keep &= !1; // a >= 1
            }
            if w == last_word {
                let bits = (half % 64) as u32 + 1;
                if bits < 64 {
                    keep &= (1u64 << bits) - 1;
                }
            }
            for (i, &(v, u)) in self.pair_buf.iter().enumerate() {
                let r = &self.rev[u as usize];
                let lo = r[ws + w] >> bs;
                let hi = if bs == 0 {
                    0
                } else {
                    r.get(ws + w + 1).map_or(0, |&h| h << (64 - bs))
                };
                if self.pos[v as usize][w] & (lo | hi) & keep != 0 {
                    self.words_scanned += w as u64 * pairs + i as u64 + 1;
                    return true;
                }
            }
        }
        self.words_scanned += (last_word as u64 + 1) * pairs;
        false
    }
}

/// `G(0..len)` of a code by the fast engine.
#[must_use]
pub fn fast_values(code: &OctalCode, len: usize) -> Vec<u32> {
    let mut e = FastEngine::new(code);
    e.extend_to(len);
    e.g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(s: &str) -> OctalCode {
        OctalCode::parse(s).unwrap()
    }

    #[test]
    fn kayles_head_by_both_engines() {
        // Winning Ways: Kayles 0 1 2 3 1 4 3 2 1 4 2 6 ...
        let head = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6];
        assert_eq!(naive_values(&code("0.77"), 12), head);
        assert_eq!(fast_values(&code("0.77"), 12), head);
    }

    #[test]
    fn fast_equals_naive_across_a_capacity_doubling() {
        for c in [
            "0.07", "0.6", "4.7", "0.137", "0.4", "0.8", "0.f", "8.1", "0.56",
        ] {
            let c = code(c);
            assert_eq!(fast_values(&c, 1500), naive_values(&c, 1500), "{c}");
        }
    }

    #[test]
    fn both_split_paths_equal_naive() {
        for c in ["0.77", "0.6", "0.56", "4.7", "0.8"] {
            let c = code(c);
            let naive = naive_values(&c, 1200);
            for limit in [0, 4, usize::MAX] {
                let mut e = FastEngine::with_bitset_limit(&c, limit);
                e.extend_to(1200);
                assert_eq!(e.values(), &naive[..], "{c} limit {limit}");
            }
        }
    }

    #[test]
    fn small_set_mex() {
        let mut s = SmallSet::default();
        assert_eq!(s.mex(), 0);
        for x in 0..64 {
            s.insert(x);
        }
        assert_eq!(s.mex(), 64);
        s.insert(65);
        assert_eq!(s.mex(), 64);
        assert_eq!(s.iter().count(), 65);
        s.clear();
        assert_eq!(s.mex(), 0);
    }
}
