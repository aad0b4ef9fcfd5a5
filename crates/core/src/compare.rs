//! Comparison of canonical forms: `<=` with caching and fast paths, and the
//! comparisons against a not-yet-interned option-list form used while
//! canonicalising.

use crate::game::{Arena, GameId, Node, Outcome};

/// `a <= b` for two number-up-stars `x + k.^ + *m` (CGSuite's rule).
#[inline]
fn nus_leq(a: &Node, b: &Node) -> bool {
    match a.lstop.cmp(&b.lstop) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => {
            let (ka, kb) = (i64::from(a.ups), i64::from(b.ups));
            if ka < kb - 1 {
                true
            } else if ka < kb {
                (a.nim ^ b.nim) != 1
            } else {
                // equal ups with different nimbers are confused; higher ups never <=
                ka == kb && a.nim == b.nim
            }
        }
    }
}

impl Arena {
    /// `a <= b`: Right, moving first in `b - a`, has no winning move.
    pub fn leq(&mut self, a: GameId, b: GameId) -> bool {
        if a == b {
            return true;
        }
        let (na, nb) = (self.node(a), self.node(b));
        if na.nus && nb.nus {
            return nus_leq(na, nb);
        }
        // stops: G <= H forces LS(G) <= LS(H) and RS(G) <= RS(H);
        // RS(H) > LS(G) forces H - G > 0; LS(H) < RS(G) forces H - G < 0.
        if na.lstop > nb.lstop || na.rstop > nb.rstop || nb.lstop < na.rstop {
            return false;
        }
        if nb.rstop > na.lstop {
            return true;
        }
        let (a_num, b_num) = (na.is_number(), nb.is_number());
        let (al, br) = (na.l_len as usize, nb.r_len as usize);
        if let Some(r) = self.leq_cache.get(a.0, b.0) {
            return r;
        }
        let mut res = true;
        // number avoidance: only the non-number side's options matter
        if !a_num {
            for i in 0..al {
                let al_i = self.lopt(a, i);
                if self.leq(b, al_i) {
                    res = false;
                    break;
                }
            }
        }
        if res && !b_num {
            for i in 0..br {
                let br_i = self.ropt(b, i);
                if self.leq(br_i, a) {
                    res = false;
                    break;
                }
            }
        }
        self.leq_cache.insert(a.0, b.0, res);
        res
    }

    /// `a >= b`.
    pub fn geq(&mut self, a: GameId, b: GameId) -> bool {
        self.leq(b, a)
    }

    /// `a < b`.
    pub fn lt(&mut self, a: GameId, b: GameId) -> bool {
        a != b && self.leq(a, b)
    }

    /// `a > b`.
    pub fn gt(&mut self, a: GameId, b: GameId) -> bool {
        a != b && self.leq(b, a)
    }

    /// `a` and `b` are incomparable (confused, fuzzy: `a || b`).
    pub fn confused(&mut self, a: GameId, b: GameId) -> bool {
        !self.leq(a, b) && !self.leq(b, a)
    }

    /// Outcome class of `a`: `L` if `a > 0`, `R` if `a < 0`, `P` if `a = 0`,
    /// `N` if `a` is confused with `0`.
    pub fn outcome(&mut self, a: GameId) -> Outcome {
        let z = self.zero();
        if a == z {
            return Outcome::P;
        }
        match (self.leq(z, a), self.leq(a, z)) {
            (true, _) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::N,
        }
    }

    /// Starts a fresh memo for comparisons against one option-list form.
    pub(crate) fn form_begin(&mut self) {
        // Entries hold `(stamp << 1) | answer` in 32 bits; when the stamps
        // run out, forget everything and start again at 1.
        if self.form_stamp >= u32::MAX >> 1 {
            self.form_memo.iter_mut().for_each(|e| *e = 0);
            self.form_stamp = 0;
        }
        self.form_stamp += 1;
        let need = 2 * self.nodes.len();
        if self.form_memo.len() < need {
            self.form_memo.resize(need.max(64), 0);
        }
    }

    #[inline]
    fn form_get(&self, slot: usize) -> Option<bool> {
        let e = self.form_memo[slot];
        (e >> 1 == self.form_stamp).then_some(e & 1 == 1)
    }

    #[inline]
    fn form_set(&mut self, slot: usize, v: bool) {
        self.form_memo[slot] = (self.form_stamp << 1) | u32::from(v);
    }

    /// `x <= G` where `G = {l | r}` is an option-list form (not interned).
    /// Valid until the value of `G` changes; see [`Arena::form_begin`].
    pub(crate) fn id_leq_form(&mut self, x: GameId, l: &[GameId], r: &[GameId]) -> bool {
        let slot = 2 * x.0 as usize;
        if let Some(v) = self.form_get(slot) {
            return v;
        }
        // x <= G iff no G^R <= x and no x^L >= G
        let mut res = true;
        for &gr in r {
            if self.leq(gr, x) {
                res = false;
                break;
            }
        }
        if res {
            for i in 0..self.node(x).l_len as usize {
                let xl = self.lopt(x, i);
                if self.form_leq_id(l, r, xl) {
                    res = false;
                    break;
                }
            }
        }
        self.form_set(slot, res);
        res
    }

    /// `G <= y` where `G = {l | r}` is an option-list form (not interned).
    pub(crate) fn form_leq_id(&mut self, l: &[GameId], r: &[GameId], y: GameId) -> bool {
        let slot = 2 * y.0 as usize + 1;
        if let Some(v) = self.form_get(slot) {
            return v;
        }
        // G <= y iff no G^L >= y and no y^R <= G
        let mut res = true;
        for &gl in l {
            if self.leq(y, gl) {
                res = false;
                break;
            }
        }
        if res {
            for i in 0..self.node(y).r_len as usize {
                let yr = self.ropt(y, i);
                if self.id_leq_form(yr, l, r) {
                    res = false;
                    break;
                }
            }
        }
        self.form_set(slot, res);
        res
    }
}

/// How two games compare: `<`, `>`, `=` or confused (`||`, also written
/// fuzzy).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `G < H`.
    Less,
    /// `G = H`.
    Equal,
    /// `G > H`.
    Greater,
    /// `G || H`: neither `G <= H` nor `H <= G`.
    Confused,
}

impl Comparison {
    /// The symbol: `<`, `=`, `>` or `||`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Less => "<",
            Comparison::Equal => "=",
            Comparison::Greater => ">",
            Comparison::Confused => "||",
        }
    }
}

impl std::fmt::Display for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Arena {
    /// How `a` compares with `b`.
    ///
    /// ```
    /// use partizan_core::{Arena, Comparison};
    /// let mut a = Arena::new();
    /// let (up, star) = (a.up(), a.star());
    /// assert_eq!(a.compare(up, star), Comparison::Confused);
    /// let z = a.zero();
    /// assert_eq!(a.compare(up, z).to_string(), ">");
    /// ```
    pub fn compare(&mut self, a: GameId, b: GameId) -> Comparison {
        match (self.leq(a, b), self.leq(b, a)) {
            (true, true) => Comparison::Equal,
            (true, false) => Comparison::Less,
            (false, true) => Comparison::Greater,
            (false, false) => Comparison::Confused,
        }
    }
}
