//! The arena of interned canonical forms.
//!
//! Every canonical form is stored once: its left and right options live in one
//! shared pool of ids (a `(start, len)` span per node, no `Vec` per node), and
//! an intern index maps the sorted option lists to the node. Per-node metadata
//! (stops, birthday, and the number-up-star decomposition `x + k.^ + *m` when
//! the form has one) is computed once at intern time, so numbers, nimbers and
//! ups get fast paths everywhere.

use std::fmt;
use std::hash::Hasher;

use rustc_hash::{FxHashMap, FxHasher};

use crate::dyadic::Dyadic;
use crate::error::ValueError;

/// Largest integer magnitude whose canonical form the arena will build
/// (the integer `n` is a chain of `|n|` forms).
pub const MAX_INTEGER: i64 = 1 << 20;
/// Largest nimber the arena builds from untrusted input (parsing, decoding);
/// `*n` has `n` options on each side, so it costs `O(n^2)` memory.
pub const MAX_NIMBER: u32 = 1024;
/// Largest up multiple `|k|` of a form `x + k.^ + *m` the arena will build
/// (the form is a chain of `|k|` forms, walked recursively by thermographs
/// and printing order, so it is kept well inside the stack).
pub const MAX_UP: i64 = 4096;
/// Deepest nesting of compound forms accepted from untrusted input
/// (parsing, decoding); comparisons and sums recurse this deep.
pub const MAX_DEPTH: usize = 2048;

const NONE: u32 = u32::MAX;

/// The comparison cache grows up to `2^this` two-entry sets of 16 bytes
/// (256 KiB): small enough to stay in a core's own cache. It is lossy, and
/// a larger one answered more comparisons but ran slower (Domineering 5 x 6
/// and 6 x 6), its look-ups missing the processor's caches.
const LEQ_CACHE_SETS_LOG: u32 = 14;

/// The id of one canonical form in an [`Arena`]; equal ids mean equal values.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GameId(pub(crate) u32);

impl GameId {
    /// The raw index of this form in its arena (creation order; not stable
    /// across arenas).
    #[must_use]
    pub fn index(self) -> u32 {
        self.0
    }
}

/// Outcome class of a game under normal play.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// Left wins whoever starts (G > 0).
    L,
    /// Right wins whoever starts (G < 0).
    R,
    /// The first player wins (G fuzzy with 0).
    N,
    /// The second player wins (G = 0).
    P,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

/// The decomposition of a number-up-star form `x + k.^ + *m`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Nus {
    /// The number part `x`.
    pub number: Dyadic,
    /// The up multiple `k` (negative for downs).
    pub ups: i32,
    /// The nimber part `m`.
    pub nimber: u32,
}

/// One interned canonical form.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) l_start: u32,
    pub(crate) l_len: u32,
    pub(crate) r_start: u32,
    pub(crate) r_len: u32,
    /// Left stop (the number itself for number-up-stars).
    pub(crate) lstop: Dyadic,
    /// Right stop.
    pub(crate) rstop: Dyadic,
    pub(crate) birthday: u32,
    /// Up multiple when `nus`.
    pub(crate) ups: i32,
    /// Nimber part when `nus`.
    pub(crate) nim: u32,
    /// Whether the form is a number-up-star `lstop + ups.^ + *nim`.
    pub(crate) nus: bool,
}

impl Node {
    #[inline]
    pub(crate) fn is_number(&self) -> bool {
        self.nus && self.ups == 0 && self.nim == 0
    }
}

/// Interning store of canonical forms with cached operations.
///
/// Single-threaded (operations take `&mut self` to fill caches) but `Send`, so
/// an arena can move to another thread or sit behind a mutex. Ids from one
/// arena mean nothing in another; methods that return plain values (not
/// `Result`) panic when handed an id that is not from this arena.
pub struct Arena {
    pub(crate) nodes: Vec<Node>,
    pub(crate) pool: Vec<GameId>,
    /// hash of (left, right) option lists -> first node with that hash
    index: crate::cache::WordMap,
    /// next node with the same hash
    chain: Vec<u32>,
    pub(crate) nus_index: FxHashMap<(Dyadic, i32, u32), GameId>,
    pub(crate) neg_cache: Vec<u32>,
    pub(crate) leq_cache: crate::cache::PairCache,
    pub(crate) sum_cache: crate::cache::WordMap,
    /// per-construct memo for comparisons against a not-yet-interned form:
    /// entry `2*id + dir` holds `(stamp << 1) | answer`
    pub(crate) form_memo: Vec<u32>,
    pub(crate) form_stamp: u32,
    pub(crate) thermo_cache: FxHashMap<u32, std::sync::Arc<crate::thermo::Thermograph>>,
    pub(crate) order_cache: FxHashMap<u64, std::cmp::Ordering>,
    pub(crate) print_order_cache: FxHashMap<u64, std::cmp::Ordering>,
    /// `^<1>, ^<2>, ...` as built so far (`unit_games[k - 1]` is `^<k>`)
    pub(crate) unit_games: Vec<GameId>,
    /// per form: its uptimal expansion (CGSuite's), if it has one
    pub(crate) expansion_memo: FxHashMap<GameId, Option<crate::notation::UptimalExpansion>>,
    /// per form: its orthodox form ([`Arena::orthodox_form`])
    pub(crate) orthodox_memo: FxHashMap<GameId, GameId>,
}

impl Default for Arena {
    fn default() -> Arena {
        Arena::new()
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena")
            .field("forms", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

pub(crate) fn hash_options(l: &[GameId], r: &[GameId]) -> u64 {
    let mut h = FxHasher::default();
    h.write_usize(l.len());
    for g in l {
        h.write_u32(g.0);
    }
    h.write_usize(r.len());
    for g in r {
        h.write_u32(g.0);
    }
    h.finish()
}

impl Arena {
    /// A fresh arena holding only `0 = { | }` (id index 0).
    #[must_use]
    pub fn new() -> Arena {
        let mut a = Arena {
            nodes: Vec::new(),
            pool: Vec::new(),
            index: crate::cache::WordMap::default(),
            chain: Vec::new(),
            nus_index: FxHashMap::default(),
            neg_cache: Vec::new(),
            leq_cache: crate::cache::PairCache::new(LEQ_CACHE_SETS_LOG),
            sum_cache: crate::cache::WordMap::default(),
            form_memo: Vec::new(),
            form_stamp: 0,
            thermo_cache: FxHashMap::default(),
            order_cache: FxHashMap::default(),
            print_order_cache: FxHashMap::default(),
            unit_games: Vec::new(),
            expansion_memo: FxHashMap::default(),
            orthodox_memo: FxHashMap::default(),
        };
        let z = a.intern(&[], &[]);
        debug_assert_eq!(z, GameId(0));
        a
    }

    /// The form with the given [`GameId::index`] in this arena, if there is
    /// one (the inverse of `index`, for tables that store bare indices).
    #[must_use]
    #[inline]
    pub fn id_at(&self, index: u32) -> Option<GameId> {
        ((index as usize) < self.nodes.len()).then_some(GameId(index))
    }

    /// Number of distinct canonical forms interned so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: an arena holds at least `0`.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The game `0 = { | }`.
    #[must_use]
    pub fn zero(&self) -> GameId {
        GameId(0)
    }

    /// `* = {0|0}`.
    pub fn star(&mut self) -> GameId {
        self.nimber(1)
    }

    /// `^ = {0|*}`.
    pub fn up(&mut self) -> GameId {
        self.nus_infallible(Dyadic::ZERO, 1, 0)
    }

    /// `v = {*|0}`.
    pub fn down(&mut self) -> GameId {
        self.nus_infallible(Dyadic::ZERO, -1, 0)
    }

    /// The integer `n` (at most [`MAX_INTEGER`] in magnitude).
    pub fn integer(&mut self, n: i64) -> Result<GameId, ValueError> {
        self.number(Dyadic::from_int(n))
    }

    /// The number `x` in canonical form: `{x-1|}` for positive integers,
    /// `{x - 2^-k | x + 2^-k}` for `x = m/2^k`.
    pub fn number(&mut self, x: Dyadic) -> Result<GameId, ValueError> {
        if let Some(&id) = self.nus_index.get(&(x, 0, 0)) {
            return Ok(id);
        }
        let fl = x.floor();
        if !(-MAX_INTEGER..MAX_INTEGER).contains(&fl) {
            return Err(ValueError::TooLarge(x.to_string()));
        }
        if x.is_integer() {
            let n = x.num();
            let step: i64 = if n > 0 { 1 } else { -1 };
            // walk back to the nearest integer already interned (0 always is)
            let mut k = n;
            while !self.nus_index.contains_key(&(Dyadic::from_int(k), 0, 0)) {
                k -= step;
            }
            let mut prev = self.nus_index[&(Dyadic::from_int(k), 0, 0)];
            while k != n {
                k += step;
                prev = if step > 0 {
                    self.intern(&[prev], &[])
                } else {
                    self.intern(&[], &[prev])
                };
            }
            return Ok(prev);
        }
        let eps = Dyadic::new(1, x.exp())?;
        let lo = self.number(x.checked_sub(eps)?)?;
        let hi = self.number(x.checked_add(eps)?)?;
        Ok(self.intern(&[lo], &[hi]))
    }

    /// The nimber `*n` (`{*0,...,*(n-1) | *0,...,*(n-1)}`). The form has `n`
    /// options on each side, so keep `n` small (see [`MAX_NIMBER`]).
    pub fn nimber(&mut self, n: u32) -> GameId {
        self.nus_infallible(Dyadic::ZERO, 0, n)
    }

    fn nus_infallible(&mut self, x: Dyadic, ups: i32, nim: u32) -> GameId {
        match self.nus(x, ups, nim) {
            Ok(g) => g,
            // x = 0 and small |ups| cannot fail
            Err(e) => panic!("internal error building 0 + {ups}.^ + *{nim}: {e}"),
        }
    }

    /// The number-up-star `x + k.^ + *m` in canonical form.
    pub fn nus(&mut self, x: Dyadic, ups: i32, nim: u32) -> Result<GameId, ValueError> {
        if let Some(&id) = self.nus_index.get(&(x, ups, nim)) {
            return Ok(id);
        }
        if i64::from(ups).abs() > MAX_UP {
            return Err(ValueError::TooLarge(format!("{ups} ups")));
        }
        let num = self.number(x)?;
        if ups == 0 {
            // x + *nim = {x, x*, ..., x*(nim-1) | same}
            let mut opts: Vec<GameId> = Vec::with_capacity(nim as usize);
            opts.push(num);
            let mut last = num;
            for j in 1..=nim {
                last = match self.nus_index.get(&(x, 0, j)) {
                    Some(&g) => g,
                    None => self.mk(&opts, &opts),
                };
                if j < nim {
                    opts.push(last);
                }
            }
            return Ok(last);
        }
        let mag = ups.unsigned_abs();
        let sign = ups.signum();
        // level i (|k| = i) has nimber nim ^ ((mag - i) & 1)
        let nim_at = |i: u32| nim ^ ((mag - i) & 1);
        let mut prev = self.nus(x, 0, nim_at(0))?;
        for i in 1..=mag {
            let c = nim_at(i);
            let k = sign * i as i32;
            if let Some(&g) = self.nus_index.get(&(x, k, c)) {
                prev = g;
                continue;
            }
            prev = if i == 1 && c == 1 {
                let xs = self.nus(x, 0, 1)?;
                if sign > 0 {
                    self.mk(&[num, xs], &[num])
                } else {
                    self.mk(&[num], &[num, xs])
                }
            } else if sign > 0 {
                self.mk(&[num], &[prev])
            } else {
                self.mk(&[prev], &[num])
            };
        }
        Ok(prev)
    }

    /// Checks that `g` names a form of this arena.
    pub(crate) fn check(&self, g: GameId) -> Result<(), ValueError> {
        if (g.0 as usize) < self.nodes.len() {
            Ok(())
        } else {
            Err(ValueError::InvalidId(g.0))
        }
    }

    #[inline]
    pub(crate) fn node(&self, g: GameId) -> &Node {
        &self.nodes[g.0 as usize]
    }

    /// Left options of the canonical form of `a` (sorted by id).
    #[must_use]
    pub fn left_options(&self, a: GameId) -> &[GameId] {
        let n = self.node(a);
        &self.pool[n.l_start as usize..(n.l_start + n.l_len) as usize]
    }

    /// Right options of the canonical form of `a` (sorted by id).
    #[must_use]
    pub fn right_options(&self, a: GameId) -> &[GameId] {
        let n = self.node(a);
        &self.pool[n.r_start as usize..(n.r_start + n.r_len) as usize]
    }

    #[inline]
    pub(crate) fn lopt(&self, a: GameId, i: usize) -> GameId {
        self.pool[self.node(a).l_start as usize + i]
    }

    #[inline]
    pub(crate) fn ropt(&self, a: GameId, i: usize) -> GameId {
        self.pool[self.node(a).r_start as usize + i]
    }

    /// The value of `a` if it is a number.
    #[must_use]
    pub fn as_number(&self, a: GameId) -> Option<Dyadic> {
        let n = self.node(a);
        n.is_number().then_some(n.lstop)
    }

    /// Whether `a` is a number.
    #[must_use]
    pub fn is_number(&self, a: GameId) -> bool {
        self.node(a).is_number()
    }

    /// `n` if `a` is the nimber `*n` (`0` counts as `*0`).
    #[must_use]
    pub fn as_nimber(&self, a: GameId) -> Option<u32> {
        let n = self.node(a);
        (n.nus && n.ups == 0 && n.lstop.is_zero()).then_some(n.nim)
    }

    /// The decomposition `x + k.^ + *m` if `a` is a number-up-star.
    #[must_use]
    pub fn as_nus(&self, a: GameId) -> Option<Nus> {
        let n = self.node(a);
        n.nus.then_some(Nus {
            number: n.lstop,
            ups: n.ups,
            nimber: n.nim,
        })
    }

    /// Birthday of `a` (the height of its canonical game tree).
    #[must_use]
    pub fn birthday(&self, a: GameId) -> u32 {
        self.node(a).birthday
    }

    /// Left stop of `a` (computed at intern time).
    pub fn left_stop(&self, a: GameId) -> Dyadic {
        self.node(a).lstop
    }

    /// Right stop of `a` (computed at intern time).
    pub fn right_stop(&self, a: GameId) -> Dyadic {
        self.node(a).rstop
    }

    /// Looks up a canonical form by its sorted option lists.
    pub(crate) fn lookup(&self, l: &[GameId], r: &[GameId], h: u64) -> Option<GameId> {
        let mut at = self.index.get(h)?;
        while at != NONE {
            let n = &self.nodes[at as usize];
            if n.l_len as usize == l.len()
                && n.r_len as usize == r.len()
                && &self.pool[n.l_start as usize..(n.l_start + n.l_len) as usize] == l
                && &self.pool[n.r_start as usize..(n.r_start + n.r_len) as usize] == r
            {
                return Some(GameId(at));
            }
            at = self.chain[at as usize];
        }
        None
    }

    /// Interns a canonical form given by canonical option lists in any order
    /// (duplicates removed here).
    pub(crate) fn mk(&mut self, l: &[GameId], r: &[GameId]) -> GameId {
        let mut l: smallvec::SmallVec<[GameId; 8]> = l.into();
        let mut r: smallvec::SmallVec<[GameId; 8]> = r.into();
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        self.intern(&l, &r)
    }

    /// Interns a canonical form given by sorted, duplicate-free canonical
    /// option lists. The caller guarantees canonicity.
    pub(crate) fn intern(&mut self, l: &[GameId], r: &[GameId]) -> GameId {
        debug_assert!(l.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(r.windows(2).all(|w| w[0] < w[1]));
        let h = hash_options(l, r);
        if let Some(g) = self.lookup(l, r, h) {
            return g;
        }
        let id = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i != NONE)
            .expect("arena exceeded u32::MAX canonical forms");
        let nus = self.recognise_nus(l, r);
        let mut birthday = 0;
        for &g in l.iter().chain(r) {
            birthday = birthday.max(self.node(g).birthday + 1);
        }
        let (lstop, rstop) = match nus {
            Some((x, _, _)) => (x, x),
            None => {
                let ls = l.iter().map(|&g| self.node(g).rstop).max();
                let rs = r.iter().map(|&g| self.node(g).lstop).min();
                // a canonical non-number-up-star has options on both sides
                (ls.unwrap_or(Dyadic::ZERO), rs.unwrap_or(Dyadic::ZERO))
            }
        };
        let l_start = self.pool.len() as u32;
        self.pool.extend_from_slice(l);
        let r_start = self.pool.len() as u32;
        self.pool.extend_from_slice(r);
        let (ups, nim) = nus.map_or((0, 0), |(_, k, m)| (k, m));
        self.nodes.push(Node {
            l_start,
            l_len: l.len() as u32,
            r_start,
            r_len: r.len() as u32,
            lstop,
            rstop,
            birthday,
            ups,
            nim,
            nus: nus.is_some(),
        });
        let head = self.index.replace(h, id).unwrap_or(NONE);
        self.chain.push(head);
        self.neg_cache.push(NONE);
        let g = GameId(id);
        if let Some(k) = nus {
            self.nus_index.insert(k, g);
        }
        g
    }

    /// Recognises a canonical form as `x + k.^ + *m` from its options alone
    /// (CGSuite's rules; valid because the options are canonical).
    fn recognise_nus(&self, l: &[GameId], r: &[GameId]) -> Option<(Dyadic, i32, u32)> {
        let num = |g: GameId| {
            let n = self.node(g);
            n.is_number().then_some(n.lstop)
        };
        let nus = |g: GameId| {
            let n = self.node(g);
            n.nus.then_some((n.lstop, n.ups, n.nim))
        };
        match (l.len(), r.len()) {
            (0, 0) => return Some((Dyadic::ZERO, 0, 0)),
            (0, 1) => {
                let x = num(r[0])?;
                return Some((x.checked_sub(Dyadic::ONE).ok()?, 0, 0));
            }
            (1, 0) => {
                let x = num(l[0])?;
                return Some((x.checked_add(Dyadic::ONE).ok()?, 0, 0));
            }
            _ => {}
        }
        if l.len() == 1 && r.len() == 1 {
            let (a, b) = (l[0], r[0]);
            if let (Some(x), Some(y)) = (num(a), num(b)) {
                if x < y {
                    return Some((x.checked_mid(y).ok()?, 0, 0));
                }
            }
            // {x | x + k.^ + *m} with k >= 0, non-number: x + (k+1).^ + *(m^1)
            if let (Some(x), Some((y, k, m))) = (num(a), nus(b)) {
                if x == y && k >= 0 && (k, m) != (0, 0) {
                    return Some((x, k + 1, m ^ 1));
                }
            }
            if let (Some((y, k, m)), Some(x)) = (nus(a), num(b)) {
                if x == y && k <= 0 && (k, m) != (0, 0) {
                    return Some((x, k - 1, m ^ 1));
                }
            }
        }
        // {x, x* | x} = x^*  and  {x | x, x*} = xv*
        let is_star_of = |g: GameId, x: Dyadic| nus(g) == Some((x, 0, 1));
        if l.len() == 2 && r.len() == 1 {
            if let Some(x) = num(r[0]) {
                if l.contains(&r[0]) && l.iter().any(|&g| is_star_of(g, x)) {
                    return Some((x, 1, 1));
                }
            }
        }
        if l.len() == 1 && r.len() == 2 {
            if let Some(x) = num(l[0]) {
                if r.contains(&l[0]) && r.iter().any(|&g| is_star_of(g, x)) {
                    return Some((x, -1, 1));
                }
            }
        }
        // {x, x*, ..., x*(n-1) | same} = x + *n: the options are distinct, so
        // n distinct nimber parts below n are exactly 0..n
        if !l.is_empty() && l == r {
            let n = l.len() as u32;
            let (x, _, _) = nus(l[0])?;
            for &g in l {
                let (y, k, m) = nus(g)?;
                if y != x || k != 0 || m >= n {
                    return None;
                }
            }
            return Some((x, 0, n));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dyadic {
        s.parse().unwrap()
    }

    #[test]
    fn arena_is_send() {
        fn is_send<T: Send>() {}
        is_send::<Arena>();
        is_send::<GameId>();
    }

    #[test]
    fn known_values() {
        let mut a = Arena::new();
        let z = a.zero();
        let one = a.construct(&[z], &[]).unwrap();
        assert_eq!(one, a.integer(1).unwrap());
        assert_eq!(a.as_number(one), Some(Dyadic::ONE));
        let half = a.construct(&[z], &[one]).unwrap();
        assert_eq!(a.as_number(half), Some(Dyadic::HALF));
        assert_eq!(a.construct(&[], &[]).unwrap(), z);
        let star = a.construct(&[z], &[z]).unwrap();
        assert_eq!(star, a.star());
        assert_eq!(a.as_nimber(star), Some(1));
        let s2 = a.construct(&[z, star], &[z, star]).unwrap();
        assert_eq!(a.as_nimber(s2), Some(2));
        assert_eq!(s2, a.nimber(2));
        let up = a.construct(&[z], &[star]).unwrap();
        assert_eq!(up, a.up());
        assert_eq!(a.display(up), "^");
        let upup = a.sum(up, up).unwrap();
        let upupstar = a.sum(upup, star).unwrap();
        assert_eq!(a.display(upupstar), "^^*");
        // *2 + *3 = *1
        let s3 = a.nimber(3);
        assert_eq!(a.sum(s2, s3).unwrap(), star);
        // 1/2 + 1/2 = 1
        assert_eq!(a.sum(half, half).unwrap(), one);
        // {1|-1} = ±1
        let m1 = a.integer(-1).unwrap();
        let pm1 = a.construct(&[one], &[m1]).unwrap();
        assert_eq!(a.display(pm1), "±1");
        assert_eq!(a.outcome(pm1), Outcome::N);
        assert_eq!(a.outcome(one), Outcome::L);
        assert_eq!(a.outcome(m1), Outcome::R);
        assert_eq!(a.outcome(z), Outcome::P);
        assert_eq!(a.outcome(star), Outcome::N);
        assert_eq!(a.outcome(up), Outcome::L);
        // ±1 + ±1 = 0
        assert_eq!(a.sum(pm1, pm1).unwrap(), z);
        // dominated and reversible options disappear: {0,-1|} = 1, {*|*} = 0
        assert_eq!(a.construct(&[z, m1], &[]).unwrap(), one);
        assert_eq!(a.construct(&[star], &[star]).unwrap(), z);
        // {^|v}... ^ + v = 0
        let down = a.neg(up);
        assert_eq!(a.sum(up, down).unwrap(), z);
        assert!(a.confused(star, z));
        assert!(a.lt(z, up));
        assert!(a.gt(one, up));
        assert!(a.confused(up, star));
        let upstar = a.sum(up, star).unwrap();
        assert!(a.confused(upstar, z));
        assert_eq!(a.birthday(z), 0);
        assert_eq!(a.birthday(star), 1);
        assert_eq!(a.birthday(up), 2);
        assert_eq!(a.birthday(pm1), 2);
        assert_eq!(a.sum_all(&[up, up, star, down]).unwrap(), upstar);
        assert_eq!(a.sum_all(&[]).unwrap(), z);
        assert_eq!(a.id_at(upstar.index()), Some(upstar));
        assert_eq!(a.id_at(a.len() as u32), None);
    }

    #[test]
    fn form_memo_stamps_wrap_safely() {
        // Canonicalise the same forms in a fresh arena and in one whose
        // per-construct stamps are about to run out.
        let texts = [
            "{1|{0|-1}}",
            "{^,*|v*}",
            "{2|-1/2}",
            "{{1|0},*|{0|-1}}",
            "{3|{2|0}}",
        ];
        let mut fresh = Arena::new();
        let mut old = Arena::new();
        // Entries left by an earlier stamp claim "true" everywhere.
        old.form_stamp = (u32::MAX >> 1) - 2;
        old.form_memo = vec![((old.form_stamp - 1) << 1) | 1; 64];
        for t in texts {
            let a = fresh.parse(t).unwrap();
            let b = old.parse(t).unwrap();
            assert_eq!(fresh.display(a), old.display(b), "{t}");
        }
        // the stamps wrapped (printing may construct a few forms of its own)
        assert!(old.form_stamp < 1000, "{}", old.form_stamp);
    }

    #[test]
    fn stops_and_temperatures() {
        let mut a = Arena::new();
        let g = a.parse("{1|-1}").unwrap();
        assert_eq!(a.left_stop(g), d("1"));
        assert_eq!(a.right_stop(g), d("-1"));
        assert_eq!(a.temperature(g), d("1"));
        assert_eq!(a.mean(g), d("0"));
        let g = a.parse("{2|-1/2}").unwrap();
        assert_eq!(a.left_stop(g), d("2"));
        assert_eq!(a.right_stop(g), d("-1/2"));
        assert_eq!(a.temperature(g), d("5/4"));
        assert_eq!(a.mean(g), d("3/4"));
        let up = a.up();
        assert_eq!(a.left_stop(up), d("0"));
        assert_eq!(a.right_stop(up), d("0"));
        assert_eq!(a.temperature(up), d("0"));
        assert_eq!(a.try_temperature(up), Ok(d("0")));
        let th = a.thermograph(up).unwrap();
        assert_eq!(th.temperature, d("0"));
        let x = a.parse("3/2").unwrap();
        assert_eq!(a.temperature(x), d("-1/2"));
        assert_eq!(a.thermograph(x).unwrap().temperature, d("-1/2"));
        let x = a.parse("5/8").unwrap();
        assert_eq!(a.temperature(x), d("-1/8"));
        assert_eq!(a.thermograph(x).unwrap().temperature, d("-1/8"));
        assert_eq!(a.mean(x), d("5/8"));
        let x = a.integer(7).unwrap();
        assert_eq!(a.temperature(x), d("-1"));
        let s = a.star();
        assert_eq!(a.temperature(s), d("0"));
        assert_eq!(a.thermograph(s).unwrap().temperature, d("0"));
        // {3|{2|0}}: left stop 3, right stop 2... hot game with a tepid tail
        let g = a.parse("{3|{2|0}}").unwrap();
        assert_eq!(a.left_stop(g), d("3"));
        assert_eq!(a.right_stop(g), d("2"));
        assert_eq!(a.mean(g), d("2"));
        assert_eq!(a.temperature(g), d("1"));
        // {4|2||0}... = {{4|2}|0}: mean 1 3/4? LS 2, RS 0
        let g = a.parse("{4|2||0}").unwrap();
        assert_eq!(a.left_stop(g), d("2"));
        assert_eq!(a.right_stop(g), d("0"));
        assert_eq!(a.mean(g), d("3/2"));
        assert_eq!(a.temperature(g), d("3/2"));
        let th = a.thermograph(g).unwrap();
        assert_eq!(th.left.value_at(d("0")).unwrap(), d("2"));
        assert_eq!(th.right.value_at(d("0")).unwrap(), d("0"));
        assert_eq!(th.left.value_at(d("1")).unwrap(), d("2"));
        assert_eq!(th.left.value_at(d("5/4")).unwrap(), d("7/4"));
        assert_eq!(th.left.value_at(d("9")).unwrap(), d("3/2"));
        assert_eq!(th.right.value_at(d("1")).unwrap(), d("1"));
        assert_eq!(th.right.value_at(d("-1")).unwrap(), d("-1"));
        assert_eq!(th.left.critical_points(), vec![d("1"), d("3/2")]);
    }

    #[test]
    fn number_construction() {
        let mut a = Arena::new();
        for (s, bday) in [
            ("3", 3),
            ("-2", 2),
            ("1/2", 2),
            ("3/4", 3),
            ("-5/8", 4),
            ("5/2", 4),
        ] {
            let x = a.number(d(s)).unwrap();
            assert_eq!(a.as_number(x), Some(d(s)));
            assert_eq!(a.birthday(x), bday, "{s}");
            assert_eq!(a.display(x), s);
        }
        assert!(matches!(
            a.integer(MAX_INTEGER + 5),
            Err(ValueError::TooLarge(_))
        ));
        let big = a.integer(1000).unwrap();
        let nb = a.integer(-1000).unwrap();
        assert_eq!(a.neg(big), nb);
        assert_eq!(a.sum(big, nb).unwrap(), a.zero());
        // options out of this arena are rejected
        assert_eq!(
            a.construct(&[GameId(999_999)], &[]),
            Err(ValueError::InvalidId(999_999))
        );
    }

    #[test]
    fn nus_forms_match_general_construction() {
        // x + k.^ + *m built by the NUS chain equals the sum built through
        // general canonicalisation
        let mut a = Arena::new();
        let up = a.up();
        for x in ["0", "1", "-1/2", "3/4"] {
            let xv = a.number(d(x)).unwrap();
            for k in -4i32..=4 {
                for m in 0..5u32 {
                    let fast = a.nus(d(x), k, m).unwrap();
                    // general: build by constructing sums step by step
                    let mut g = xv;
                    let step = if k >= 0 { up } else { a.neg(up) };
                    for _ in 0..k.unsigned_abs() {
                        g = a.sum(g, step).unwrap();
                    }
                    let nm = a.nimber(m);
                    g = a.sum(g, nm).unwrap();
                    assert_eq!(fast, g, "{x} {k} {m}");
                    assert_eq!(
                        a.as_nus(fast),
                        Some(Nus {
                            number: d(x),
                            ups: k,
                            nimber: m
                        })
                    );
                }
            }
        }
    }
}
