//! Atomic weight (Berlekamp, Conway and Guy's atomic weight calculus, as in
//! Siegel's *Combinatorial Game Theory*, ch. II.7), with CGSuite's
//! conventions: the weight is defined for infinitesimals only; every
//! all-small game is atomic; an infinitesimal that is not all-small is atomic
//! when it lies within `^* + ☆:-1` (a remote star's kite) of its naive weight
//! times up. Also Norton multiplication, ordinal sums, the remote star, and
//! the "two-ahead" consequences of a weight.
//!
//! ```
//! use partizan_core::Arena;
//! let mut a = Arena::new();
//! let g = a.parse("^^*").unwrap();
//! let w = a.atomic_weight(g).unwrap();
//! assert_eq!(a.display(w), "2");
//! // a weight that is not a number (CGSuite's own test value)
//! let g = a.parse("{^3|vv}").unwrap();
//! let w = a.atomic_weight(g).unwrap();
//! assert_eq!(a.display(w), "{1|0}");
//! // not infinitesimal: an error, not a guess
//! let two = a.integer(2).unwrap();
//! assert!(a.atomic_weight(two).is_err());
//! let star = a.star();
//! assert_eq!(a.atomic_weight(star).map(|w| a.display(w)), Ok("0".to_string()));
//! ```

use rustc_hash::FxHashMap;

use crate::dyadic::Dyadic;
use crate::error::{OpError, ValueError};
use crate::game::{Arena, GameId, Outcome};

/// What an atomic weight says about who wins (the two-ahead rule: an
/// all-small game whose weight is at least 2 is positive; at least 1, Left
/// wins moving first; and the mirror images for Right).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TwoAhead {
    /// `aw(G) >= 2`, so `G > 0`.
    pub left_wins: bool,
    /// `aw(G) >= 1`, so `G |> 0` (Left wins moving first).
    pub left_wins_first: bool,
    /// `aw(G) <= -2`, so `G < 0`.
    pub right_wins: bool,
    /// `aw(G) <= -1`, so `G <| 0` (Right wins moving first).
    pub right_wins_first: bool,
}

impl TwoAhead {
    /// The outcome class the rule decides, when it decides one.
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        if self.left_wins {
            Some(Outcome::L)
        } else if self.right_wins {
            Some(Outcome::R)
        } else {
            None
        }
    }
}

/// Longest form an error message quotes in full.
const QUOTE_LIMIT: usize = 120;

impl Arena {
    /// The notation of `a` if it is short, else a note of its length (for
    /// error messages, which must stay one line).
    pub fn display_short(&mut self, a: GameId) -> String {
        let n = self.display_len(a);
        if n <= QUOTE_LIMIT {
            self.display(a)
        } else {
            format!("a form of {n} characters")
        }
    }

    /// Whether `a` is infinitesimal: both stops are zero (for short games,
    /// the same as lying strictly between every `-x` and `x` for numbers
    /// `x > 0`).
    #[must_use]
    pub fn is_infinitesimal(&self, a: GameId) -> bool {
        let n = self.node(a);
        n.lstop.is_zero() && n.rstop.is_zero()
    }

    /// Whether `a` is all-small: every subposition with an option for one
    /// player has options for both (equivalently, no subposition of the
    /// canonical form is a non-zero number).
    #[must_use]
    pub fn is_all_small(&self, a: GameId) -> bool {
        let mut memo = FxHashMap::default();
        self.all_small_in(a, &mut memo)
    }

    fn all_small_in(&self, a: GameId, memo: &mut FxHashMap<GameId, bool>) -> bool {
        let n = self.node(a);
        if n.nus {
            return n.lstop.is_zero();
        }
        if let Some(&v) = memo.get(&a) {
            return v;
        }
        let v = self
            .left_options(a)
            .iter()
            .chain(self.right_options(a))
            .all(|&g| self.all_small_in(g, memo));
        memo.insert(a, v);
        v
    }

    /// The remote star of `a` as CGSuite picks it: one more than the largest
    /// nimber among the subpositions of `a` (at least 1).
    #[must_use]
    pub fn far_star(&self, a: GameId) -> u32 {
        let mut memo = FxHashMap::default();
        self.far_star_in(a, &mut memo)
    }

    fn far_star_in(&self, a: GameId, memo: &mut FxHashMap<GameId, u32>) -> u32 {
        if let Some(n) = self.as_nimber(a) {
            return n + 1;
        }
        if self.node(a).is_number() {
            // every subposition of a number is a number, and the only
            // nimber among them is 0; the walk would go as deep as the
            // integer is large (Tiny(200000) overflowed the stack)
            return 1;
        }
        if let Some(&v) = memo.get(&a) {
            return v;
        }
        let mut v = 1;
        for &g in self.left_options(a).iter().chain(self.right_options(a)) {
            v = v.max(self.far_star_in(g, memo));
        }
        memo.insert(a, v);
        v
    }

    /// The ordinal sum `a : b = {a^L, a:b^L | a^R, a:b^R}`: `b` played on top
    /// of `a`, any move in `a` discarding `b`.
    pub fn ordinal_sum(&mut self, a: GameId, b: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(b)?;
        let mut memo = FxHashMap::default();
        self.ordinal_sum_in(a, b, &mut memo)
    }

    fn ordinal_sum_in(
        &mut self,
        a: GameId,
        b: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if b == self.zero() {
            return Ok(a);
        }
        if let Some(&g) = memo.get(&b) {
            return Ok(g);
        }
        let mut l = self.left_options(a).to_vec();
        let mut r = self.right_options(a).to_vec();
        for bl in self.left_options(b).to_vec() {
            l.push(self.ordinal_sum_in(a, bl, memo)?);
        }
        for br in self.right_options(b).to_vec() {
            r.push(self.ordinal_sum_in(a, br, memo)?);
        }
        let g = self.construct(&l, &r)?;
        memo.insert(b, g);
        Ok(g)
    }

    /// Left and right incentives of `a` pooled, dominated ones removed
    /// (`a^L - a` and `a - a^R`; CGSuite's `Incentives`).
    pub fn all_incentives(&mut self, a: GameId) -> Result<Vec<GameId>, ValueError> {
        let inc = self.incentives(a)?;
        let mut all = inc.left;
        all.extend(inc.right);
        Ok(self.maximal(all))
    }

    /// Norton multiplication `a . u` (Siegel, ch. II.7): `a` copies of `u`
    /// for an integer `a`, and otherwise
    /// `{a^L.u + u + Δ | a^R.u - (u + Δ)}` over the incentives `Δ` of `u`.
    pub fn norton_product(&mut self, a: GameId, u: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(u)?;
        let mut plus: Vec<GameId> = Vec::new();
        for d in self.all_incentives(u)? {
            plus.push(self.sum(u, d)?);
        }
        let mut memo = FxHashMap::default();
        self.norton_in(a, u, &plus, &mut memo)
    }

    fn norton_in(
        &mut self,
        a: GameId,
        u: GameId,
        plus: &[GameId],
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if let Some(x) = self.as_number(a) {
            if x.is_integer() {
                return self.multiple(u, x.num());
            }
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let mut l = Vec::new();
        let mut r = Vec::new();
        for al in self.left_options(a).to_vec() {
            let p = self.norton_in(al, u, plus, memo)?;
            for &d in plus {
                l.push(self.sum(p, d)?);
            }
        }
        for ar in self.right_options(a).to_vec() {
            let p = self.norton_in(ar, u, plus, memo)?;
            for &d in plus {
                r.push(self.sub(p, d)?);
            }
        }
        let g = self.construct(&l, &r)?;
        memo.insert(a, g);
        Ok(g)
    }

    /// `n . u`, `n` copies of `u` (negated for negative `n`), by doubling.
    pub fn multiple(&mut self, u: GameId, n: i64) -> Result<GameId, ValueError> {
        self.check(u)?;
        let mut base = if n < 0 { self.neg(u) } else { u };
        let mut k = n.unsigned_abs();
        let mut acc = self.zero();
        while k > 0 {
            if k & 1 == 1 {
                acc = self.sum(acc, base)?;
            }
            k >>= 1;
            if k > 0 {
                base = self.sum(base, base)?;
            }
        }
        Ok(acc)
    }

    /// The naive atomic weight: `{aw(a^L) - 2 | aw(a^R) + 2}`, with the
    /// exceptional integer case settled by comparing `a` with its remote star.
    fn naive_aw(
        &mut self,
        a: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if let Some(n) = self.as_nus(a) {
            return self.integer(i64::from(n.ups));
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let two = self.integer(2)?;
        let mut l = Vec::new();
        for al in self.left_options(a).to_vec() {
            let w = self.naive_aw(al, memo)?;
            l.push(self.sub(w, two)?);
        }
        let mut r = Vec::new();
        for ar in self.right_options(a).to_vec() {
            let w = self.naive_aw(ar, memo)?;
            r.push(self.sum(w, two)?);
        }
        let g0 = self.construct(&l, &r)?;
        let mut res = g0;
        if self.as_number(g0).is_some_and(Dyadic::is_integer) {
            let fs = self.far_star(a);
            let fs = self.nimber(fs);
            let (below, above) = (self.leq(a, fs), self.leq(fs, a));
            if below && !above {
                // a < remote star: the least integer n with n |> every
                // a^L's weight - 2
                res = if l.is_empty() {
                    self.zero()
                } else {
                    let mut best: Option<i64> = None;
                    for &x in &l {
                        let mut n = self.node(x).rstop.ceil();
                        let ng = self.integer(n)?;
                        if self.leq(ng, x) {
                            n += 1;
                        }
                        best = Some(best.map_or(n, |b| b.max(n)));
                    }
                    self.integer(best.unwrap_or(0))?
                };
            } else if above && !below {
                // a > remote star: the greatest integer n with n <| every
                // a^R's weight + 2
                res = if r.is_empty() {
                    self.zero()
                } else {
                    let mut best: Option<i64> = None;
                    for &x in &r {
                        let mut n = self.node(x).lstop.floor();
                        let ng = self.integer(n)?;
                        if self.leq(x, ng) {
                            n -= 1;
                        }
                        best = Some(best.map_or(n, |b| b.min(n)));
                    }
                    self.integer(best.unwrap_or(0))?
                };
            }
        }
        memo.insert(a, res);
        Ok(res)
    }

    /// The atomic weight of `a` (CGSuite's `AtomicWeight`): for nimbers 0,
    /// for `k.^ + *m` the integer `k`, and otherwise the atomic weight
    /// calculus. An error names why it is undefined: `a` is not
    /// infinitesimal, or is infinitesimal but not atomic.
    pub fn atomic_weight(&mut self, a: GameId) -> Result<GameId, OpError> {
        self.check(a)?;
        if !self.is_infinitesimal(a) {
            let (l, r) = (self.node(a).lstop, self.node(a).rstop);
            return Err(OpError::NotInfinitesimal(
                self.display_short(a),
                l.to_string(),
                r.to_string(),
            ));
        }
        let mut memo = FxHashMap::default();
        let w = self.naive_aw(a, &mut memo)?;
        if self.is_all_small(a) || self.within_kite_of(a, w)? {
            Ok(w)
        } else {
            Err(OpError::NotAtomic(self.display_short(a)))
        }
    }

    /// Whether `a` is atomic (its atomic weight is defined).
    pub fn is_atomic(&mut self, a: GameId) -> Result<bool, ValueError> {
        match self.atomic_weight(a) {
            Ok(_) => Ok(true),
            Err(OpError::Value(e)) => Err(e),
            Err(_) => Ok(false),
        }
    }

    /// CGSuite's atomicity test for an infinitesimal that is not all-small:
    /// `-(^* + ☆:-1) <= a - w.^ <= ^* + ☆:-1`, with `☆` the least power of
    /// two at or above the remote star (and at least 2).
    fn within_kite_of(&mut self, a: GameId, w: GameId) -> Result<bool, ValueError> {
        let up = self.up();
        let wu = self.norton_product(w, up)?;
        let diff = self.sub(a, wu)?;
        let fs = self.far_star(a);
        let mut p: u32 = 2;
        while p < fs {
            p = p.checked_mul(2).ok_or(ValueError::Overflow)?;
        }
        let star_p = self.nimber(p);
        let m1 = self.integer(-1)?;
        let kite = self.ordinal_sum(star_p, m1)?;
        let star = self.star();
        let up_star = self.sum(up, star)?;
        let eps = self.sum(up_star, kite)?;
        let neps = self.neg(eps);
        Ok(self.leq(diff, eps) && self.leq(neps, diff))
    }

    /// The two-ahead consequences of the atomic weight of `a`: whether the
    /// weight is at least `2`, at least `1`, at most `-1`, at most `-2`.
    pub fn two_ahead(&mut self, a: GameId) -> Result<TwoAhead, OpError> {
        let w = self.atomic_weight(a)?;
        let mut at = |k: i64, geq: bool| -> Result<bool, OpError> {
            let n = self.integer(k)?;
            Ok(if geq { self.leq(n, w) } else { self.leq(w, n) })
        };
        Ok(TwoAhead {
            left_wins: at(2, true)?,
            left_wins_first: at(1, true)?,
            right_wins: at(-2, false)?,
            right_wins_first: at(-1, false)?,
        })
    }
}
