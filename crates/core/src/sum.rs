//! Disjunctive sum and negation, cached by id, with number-up-star and
//! number-translation fast paths.

use smallvec::SmallVec;

use crate::error::ValueError;
use crate::game::{Arena, GameId};

impl Arena {
    /// `-a`: the roles of Left and Right swapped. Cached per form.
    pub fn neg(&mut self, a: GameId) -> GameId {
        let c = self.neg_cache[a.0 as usize];
        if c != u32::MAX {
            return GameId(c);
        }
        let n = self.node(a).clone();
        let res = if n.nus {
            let (x, k, m) = (n.lstop, n.ups, n.nim);
            match x.checked_neg() {
                Ok(nx) => self.nus(nx, -k, m).ok(),
                Err(_) => None,
            }
        } else {
            None
        };
        let res = match res {
            Some(g) => g,
            None => {
                let (ll, rl) = (n.l_len as usize, n.r_len as usize);
                let mut nl: SmallVec<[GameId; 8]> = SmallVec::with_capacity(rl);
                let mut nr: SmallVec<[GameId; 8]> = SmallVec::with_capacity(ll);
                for i in 0..rl {
                    let g = self.ropt(a, i);
                    nl.push(self.neg(g));
                }
                for i in 0..ll {
                    let g = self.lopt(a, i);
                    nr.push(self.neg(g));
                }
                nl.sort_unstable();
                nr.sort_unstable();
                // the negative of a canonical form is canonical
                self.intern(&nl, &nr)
            }
        };
        self.neg_cache[a.0 as usize] = res.0;
        self.neg_cache[res.0 as usize] = a.0;
        res
    }

    /// `a + b`, the disjunctive sum. Cached by the unordered pair.
    pub fn sum(&mut self, a: GameId, b: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(b)?;
        self.sum_inner(a, b)
    }

    fn sum_inner(&mut self, a: GameId, b: GameId) -> Result<GameId, ValueError> {
        if a.0 == 0 {
            return Ok(b);
        }
        if b.0 == 0 {
            return Ok(a);
        }
        let (na, nb) = (self.node(a), self.node(b));
        if na.nus && nb.nus {
            let x = na.lstop.checked_add(nb.lstop)?;
            let k = na
                .ups
                .checked_add(nb.ups)
                .ok_or_else(|| ValueError::TooLarge("up multiple".into()))?;
            let m = na.nim ^ nb.nim;
            return self.nus(x, k, m);
        }
        let (a_num, b_num) = (na.is_number(), nb.is_number());
        let (p, q) = if a <= b { (a, b) } else { (b, a) };
        let key = (u64::from(p.0) << 32) | u64::from(q.0);
        if let Some(s) = self.sum_cache.get(key) {
            return Ok(GameId(s));
        }
        let mut l: SmallVec<[GameId; 16]> = SmallVec::new();
        let mut r: SmallVec<[GameId; 16]> = SmallVec::new();
        // number translation: never move in a number component
        if !a_num {
            for i in 0..self.node(a).l_len as usize {
                let g = self.lopt(a, i);
                l.push(self.sum_inner(g, b)?);
            }
            for i in 0..self.node(a).r_len as usize {
                let g = self.ropt(a, i);
                r.push(self.sum_inner(g, b)?);
            }
        }
        if !b_num {
            for i in 0..self.node(b).l_len as usize {
                let g = self.lopt(b, i);
                l.push(self.sum_inner(a, g)?);
            }
            for i in 0..self.node(b).r_len as usize {
                let g = self.ropt(b, i);
                r.push(self.sum_inner(a, g)?);
            }
        }
        let s = self.construct(&l, &r)?;
        self.sum_cache.insert(key, s.0);
        Ok(s)
    }

    /// Sum of all `gs` (`0` when empty).
    pub fn sum_all(&mut self, gs: &[GameId]) -> Result<GameId, ValueError> {
        let mut acc = self.zero();
        for &g in gs {
            acc = self.sum(acc, g)?;
        }
        Ok(acc)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: GameId, b: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(b)?;
        let nb = self.neg(b);
        self.sum_inner(a, nb)
    }
}
