//! Trial structures for a misère quotient and the check that makes one
//! exact (what Plambeck and Siegel call a pretension and its verification).
//!
//! A trial is a finite commutative monoid `M` (a base table times free
//! cyclic components), a map `phi` from heaps to `M` and a marking of the
//! elements words reach as P or N: each element is marked by its lightest
//! word (fewest tokens), from that word's options, whose elements are
//! lighter and so marked before it. Positions are words (multisets of
//! heaps). Under misère play a word is a P-position exactly when it has a
//! move and no option is a P-position, and the trial is *consistent* when
//! every word's mark says so of it; then, by induction on words, a word is
//! a P-position iff `phi(word)` is marked P. [`walk`] decides consistency
//! with two finite checks (a P-check over elements and heaps, an N-check
//! over the states `(phi(word), images of the word's options)` pruned by
//! inclusion), and returns the lightest word it found wrong otherwise.
//!
//! A consistent trial is reduced to the quotient by merging elements no
//! product tells apart (Moore's partition refinement under the heaps'
//! images); that is the misère quotient of the heaps, since the trial
//! identifies only words no sum distinguishes and the reduction separates
//! every pair some sum distinguishes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::Table;
use crate::MisereError;

/// An element of a trial: the base element and the free components'
/// exponents, packed in mixed radix.
pub(crate) type Elem = u64;

/// A candidate structure: `base × C(i_1, p_1) × ...`, where `C(i, p)` is
/// the cyclic monoid `g^0, ..., g^(i+p-1)` with `g^(i+p) = g^i`.
#[derive(Debug, Clone)]
pub(crate) struct Trial {
    pub base: Table,
    /// `(index, period)` of each free component.
    pub cycles: Vec<(u32, u32)>,
    /// The image of every heap `0..=n`.
    pub phi: Vec<Elem>,
}

impl Trial {
    /// The element with base part `b` and the exponent vector `ks`.
    pub fn pack(&self, b: u32, ks: &[u32]) -> Elem {
        let mut e = 0u64;
        for (k, &(i, p)) in ks.iter().zip(&self.cycles).rev() {
            e = e * u64::from(i + p) + u64::from(*k);
        }
        e * self.base.len() as u64 + u64::from(b)
    }

    pub fn mul(&self, a: Elem, b: Elem) -> Elem {
        let n = self.base.len() as u64;
        let base = u64::from(self.base.mul((a % n) as u32, (b % n) as u32));
        if self.cycles.is_empty() {
            return base;
        }
        let (mut ra, mut rb) = (a / n, b / n);
        let mut out = 0u64;
        let mut scale = n;
        for &(i, p) in &self.cycles {
            let r = u64::from(i + p);
            let s = ra % r + rb % r;
            let (i, p) = (u64::from(i), u64::from(p));
            let k = if s < i + p { s } else { i + (s - i) % p };
            out += k * scale;
            scale *= r;
            ra /= r;
            rb /= r;
        }
        out + base
    }

    /// The image of a word (exponents per heap).
    pub fn image(&self, word: &[u32]) -> Elem {
        let mut x = 0;
        for (h, &e) in word.iter().enumerate() {
            for _ in 0..e {
                x = self.mul(x, self.phi[h]);
            }
        }
        x
    }
}

/// The heaps a walk adds: weight (tokens) and options (heaps left).
#[derive(Debug, Clone)]
pub(crate) struct HeapMoves {
    pub heap: usize,
    pub options: Vec<Vec<usize>>,
}

/// The order words are checked in: fewer tokens first, then more heaps
/// first, so that every option of a word (a move removes tokens, or splits
/// a heap without removing any, `4.7`'s leading digit) comes before it.
/// Packed as `tokens << 24 | (2^24 - 1 - heaps)`.
pub(crate) type Key = u64;

const COUNT_BITS: u32 = 24;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;

/// The key of a word one heap of `h` tokens longer.
fn step(key: Key, h: usize) -> Key {
    key + ((h as u64) << COUNT_BITS) - 1
}

/// The key of the empty word.
const EMPTY: Key = COUNT_MASK;

/// Tokens of a word with this key.
pub(crate) fn tokens(key: Key) -> usize {
    (key >> COUNT_BITS) as usize
}

/// A word the trial gets wrong, with every lighter word right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// Exponents per heap.
    pub word: Vec<u32>,
    /// Its key (tokens, then heaps; see [`Key`]).
    pub weight: Key,
    /// The word's real outcome (the trial marked its element the other way).
    pub should_be_p: bool,
}

/// What a check found.
#[derive(Debug)]
pub(crate) struct Walk {
    /// Every element some word reaches, with its mark.
    pub marks: FxHashMap<Elem, bool>,
    /// A word the trial gets wrong (the lightest one the check met).
    pub failure: Option<Failure>,
    /// States the N-check walked.
    pub states: usize,
}

/// One reached element: a least word's key, and its last step.
struct Reached {
    elem: Elem,
    weight: Key,
    parent: Elem,
    heap: usize,
}

/// The elements words reach, each with a lightest word (Dijkstra over
/// elements), in order of weight.
fn lightest_words(trial: &Trial, moving: &[Moving], work: &mut u64) -> Vec<Reached> {
    let mut best: FxHashMap<Elem, (Key, Elem, usize)> = FxHashMap::default();
    let mut done: FxHashMap<Elem, ()> = FxHashMap::default();
    let mut order = Vec::new();
    let mut queue: BinaryHeap<Reverse<(Key, Elem)>> = BinaryHeap::new();
    best.insert(0, (EMPTY, 0, 0));
    queue.push(Reverse((EMPTY, 0)));
    while let Some(Reverse((d, x))) = queue.pop() {
        if done.contains_key(&x) || best[&x].0 != d {
            continue;
        }
        done.insert(x, ());
        let (_, parent, heap) = best[&x];
        order.push(Reached {
            elem: x,
            weight: d,
            parent,
            heap,
        });
        for m in moving {
            *work += 1;
            let y = trial.mul(x, m.image);
            let dy = step(d, m.heap);
            if best.get(&y).is_none_or(|b| dy < b.0) {
                best.insert(y, (dy, x, m.heap));
                queue.push(Reverse((dy, y)));
            }
        }
    }
    order
}

/// A heap that has moves: its image and its options' images.
struct Moving {
    heap: usize,
    image: Elem,
    options: Vec<Elem>,
}

/// Check a trial: mark its elements (from `known`, else each by its
/// lightest word's options), then look for a word it gets wrong.
///
/// * **P-check.** A word marked P must have no option marked P. Its
///   options move in one of its heaps `h`, so this is: for every reached
///   `x` and heap `h` with `x a_h` marked P, no `x t` (`t` in `T_h`) is
///   marked P. Finite.
/// * **N-check.** A word marked N with a move must have an option marked
///   P: the walk over states `(x, T)`, where a state whose `T` contains
///   the `T` of a state already walked with the same `x` is skipped (all
///   its extensions have more options than the other's, so they have a P
///   option whenever those do; MisereSolver prunes the same way).
///
/// Words without moves are the identity, marked N by the empty word.
pub(crate) fn walk(
    trial: &Trial,
    heaps: &[HeapMoves],
    known: &FxHashMap<Elem, bool>,
    stop_early: bool,
    max_states: usize,
    work: &mut u64,
) -> Result<Walk, MisereError> {
    let n = trial.phi.len();
    let moving: Vec<Moving> = heaps
        .iter()
        .filter(|h| !h.options.is_empty())
        .map(|h| {
            let mut t: Vec<Elem> = h
                .options
                .iter()
                .map(|parts| parts.iter().fold(0, |x, &p| trial.mul(x, trial.phi[p])))
                .collect();
            t.sort_unstable();
            t.dedup();
            Moving {
                heap: h.heap,
                image: trial.phi[h.heap],
                options: t,
            }
        })
        .collect();
    let order = lightest_words(trial, &moving, work);
    let parent: FxHashMap<Elem, (Elem, usize)> =
        order.iter().map(|r| (r.elem, (r.parent, r.heap))).collect();
    let word_of = |mut x: Elem| -> Vec<u32> {
        let mut word = vec![0u32; n];
        while x != 0 {
            let (p, h) = parent[&x];
            word[h] += 1;
            x = p;
        }
        word
    };
    // Marks: known, else by the lightest word's options (whose elements
    // are lighter, so already marked).
    let mut marks: FxHashMap<Elem, bool> = FxHashMap::default();
    for r in &order {
        if let Some(&p) = known.get(&r.elem) {
            marks.insert(r.elem, p);
            continue;
        }
        let word = word_of(r.elem);
        let mut has_option = false;
        let mut p_option = false;
        for m in &moving {
            if word[m.heap] == 0 {
                continue;
            }
            let mut rest = word.clone();
            rest[m.heap] -= 1;
            let y = trial.image(&rest);
            for &t in &m.options {
                *work += 1;
                has_option = true;
                if marks.get(&trial.mul(y, t)) == Some(&true) {
                    p_option = true;
                }
            }
        }
        marks.insert(r.elem, has_option && !p_option);
    }
    let mut failure: Option<Failure> = None;
    let note = |f: Failure, failure: &mut Option<Failure>| {
        if failure
            .as_ref()
            .is_none_or(|g| (f.weight, &f.word) < (g.weight, &g.word))
        {
            *failure = Some(f);
        }
    };
    // P-check.
    for r in &order {
        for m in &moving {
            *work += 1 + m.options.len() as u64;
            if marks[&trial.mul(r.elem, m.image)]
                && m.options.iter().any(|&t| marks[&trial.mul(r.elem, t)])
            {
                let mut word = word_of(r.elem);
                word[m.heap] += 1;
                note(
                    Failure {
                        word,
                        weight: step(r.weight, m.heap),
                        should_be_p: false,
                    },
                    &mut failure,
                );
            }
        }
    }
    if stop_early && failure.is_some() {
        return Ok(Walk {
            marks,
            failure,
            states: 0,
        });
    }
    // N-check: states (x, T) by weight, pruned by inclusion of T: a state
    // is dropped when one with the same x, no more options and no more
    // weight is known (so the lightest failing word is still found).
    type Step = Option<(usize, usize)>;
    type Known = Vec<(Box<[Elem]>, Key)>;
    let mut minimal: FxHashMap<Elem, Known> = FxHashMap::default();
    let mut states: Vec<(Elem, Box<[Elem]>, Step)> = vec![(0, Box::new([]), None)];
    let mut queue: BinaryHeap<Reverse<(Key, usize)>> = BinaryHeap::new();
    queue.push(Reverse((EMPTY, 0)));
    minimal.insert(0, vec![(Box::new([]), EMPTY)]);
    let mut next: Vec<Elem> = Vec::new();
    while let Some(Reverse((dist, s))) = queue.pop() {
        let x = states[s].0;
        let opts = states[s].1.clone();
        if !minimal[&x].iter().any(|(m, d)| *m == opts && *d == dist) {
            continue; // dropped since for a lighter state with fewer options
        }
        if !marks[&x] && !opts.is_empty() && opts.iter().all(|t| !marks[t]) {
            let mut word = vec![0u32; n];
            let mut at = s;
            while let Some((p, h)) = states[at].2 {
                word[h] += 1;
                at = p;
            }
            note(
                Failure {
                    word,
                    weight: dist,
                    should_be_p: true,
                },
                &mut failure,
            );
            if stop_early {
                break;
            }
        }
        for m in &moving {
            *work += 1 + opts.len() as u64 + m.options.len() as u64;
            let y = trial.mul(x, m.image);
            next.clear();
            next.extend(opts.iter().map(|&t| trial.mul(t, m.image)));
            next.extend(m.options.iter().map(|&t| trial.mul(x, t)));
            next.sort_unstable();
            next.dedup();
            let d = step(dist, m.heap);
            // (The empty set subsumes only itself: a word with no move is
            // no witness for one with moves.)
            let covers = |have: &[Elem], more: &[Elem]| {
                (!have.is_empty() || more.is_empty()) && is_subset(have, more)
            };
            let list = minimal.entry(y).or_default();
            if list
                .iter()
                .any(|(have, hd)| *hd <= d && covers(have, &next))
            {
                continue;
            }
            list.retain(|(have, hd)| !(d <= *hd && covers(&next, have)));
            let boxed: Box<[Elem]> = next.clone().into_boxed_slice();
            list.push((boxed.clone(), d));
            if states.len() >= max_states {
                return Err(MisereError::TooManyPositions { limit: max_states });
            }
            states.push((y, boxed, Some((s, m.heap))));
            queue.push(Reverse((d, states.len() - 1)));
        }
    }
    Ok(Walk {
        marks,
        failure,
        states: states.len(),
    })
}

/// Whether sorted `a` is a subset of sorted `b`.
fn is_subset(a: &[Elem], b: &[Elem]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// The reduced quotient of a fully walked trial: its marked elements
/// merged by Moore's refinement, as a table whose element 0 is the
/// identity, the P-portion and every heap's image.
pub(crate) fn reduce(trial: &Trial, marks: &FxHashMap<Elem, bool>) -> (Table, Vec<bool>, Vec<u32>) {
    let mut elems: Vec<Elem> = marks.keys().copied().collect();
    elems.sort_unstable();
    let pos: FxHashMap<Elem, usize> = elems.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let mut gens: Vec<Elem> = trial.phi.clone();
    gens.sort_unstable();
    gens.dedup();
    // succ[i][g]: the index of elems[i] * gens[g] (the marked set is closed
    // under every heap: each state was extended by each heap).
    let succ: Vec<Vec<usize>> = elems
        .iter()
        .map(|&e| gens.iter().map(|&g| pos[&trial.mul(e, g)]).collect())
        .collect();
    let mut class: Vec<u32> = elems.iter().map(|e| u32::from(marks[e])).collect();
    let mut count = 0;
    loop {
        let mut sig_ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(elems.len());
        for i in 0..elems.len() {
            let mut sig = Vec::with_capacity(gens.len() + 1);
            sig.push(class[i]);
            sig.extend(succ[i].iter().map(|&j| class[j]));
            let len = sig_ids.len() as u32;
            next.push(*sig_ids.entry(sig).or_insert(len));
        }
        let classes = sig_ids.len();
        class = next;
        if classes == count {
            break;
        }
        count = classes;
    }
    // Number the classes so that the identity's is 0, then in order of
    // first appearance.
    let mut renumber: FxHashMap<u32, u32> = FxHashMap::default();
    renumber.insert(class[pos[&0]], 0);
    let mut reps: Vec<Elem> = vec![0];
    for (i, &c) in class.iter().enumerate() {
        if let std::collections::hash_map::Entry::Vacant(v) = renumber.entry(c) {
            v.insert(reps.len() as u32);
            reps.push(elems[i]);
        }
    }
    let of = |e: Elem| renumber[&class[pos[&e]]];
    let q = reps.len();
    let mut mul = vec![0u32; q * q];
    for a in 0..q {
        for b in a..q {
            let c = of(trial.mul(reps[a], reps[b]));
            mul[a * q + b] = c;
            mul[b * q + a] = c;
        }
    }
    let p: Vec<bool> = reps.iter().map(|e| marks[e]).collect();
    let phi: Vec<u32> = trial.phi.iter().map(|&e| of(e)).collect();
    (Table::from_products(q, mul), p, phi)
}
