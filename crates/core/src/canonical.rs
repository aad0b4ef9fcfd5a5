//! Canonicalisation: the canonical form of `{left | right}` (after CGSuite's
//! `CanonicalShortGameOps`): duplicates removed, the all-nimber (mex) and
//! all-number (simplicity) shortcuts, dominated options removed, reversible
//! options bypassed until none remain.

use smallvec::SmallVec;

use crate::dyadic::Dyadic;
use crate::error::ValueError;
use crate::game::{Arena, GameId};

type Opts = SmallVec<[GameId; 8]>;

impl Arena {
    /// Canonical form of `{left | right}`; the options are canonical ids of
    /// this arena already (in any order, duplicates allowed).
    pub fn construct(&mut self, left: &[GameId], right: &[GameId]) -> Result<GameId, ValueError> {
        for &g in left.iter().chain(right) {
            self.check(g)?;
        }
        let mut l: Opts = left.into();
        let mut r: Opts = right.into();
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();

        // all options nimbers: {mex-set | mex-set} = *mex when the mexes agree
        if let (Some(ml), Some(mr)) = (self.nimber_mex(&l), self.nimber_mex(&r)) {
            if ml == mr {
                return Ok(self.nimber(ml));
            }
        }
        // all options numbers with every left option below every right one
        if let (Some(lmax), Some(rmin)) = (self.numbers_max(&l), self.numbers_min(&r)) {
            let ok = match (lmax, rmin) {
                (Some(a), Some(b)) => a < b,
                _ => true,
            };
            if ok {
                let x = Dyadic::simplest_between(lmax, rmin)?;
                return self.number(x);
            }
        }

        // (No cache of option lists -> result: distinct searched positions
        // seldom share option lists, and such a cache cost more in memory
        // and misses than the canonicalisations it saved.)
        self.remove_dominated(&mut l, true);
        self.remove_dominated(&mut r, false);
        self.form_begin();
        let mut changed = self.bypass_left(&mut l, &r);
        changed |= self.bypass_right(&l, &mut r);
        if changed {
            self.remove_dominated(&mut l, true);
            self.remove_dominated(&mut r, false);
        }
        l.sort_unstable();
        r.sort_unstable();
        Ok(self.intern(&l, &r))
    }

    /// `Some(mex)` if every option is a nimber.
    fn nimber_mex(&self, opts: &[GameId]) -> Option<u32> {
        let mut seen: SmallVec<[bool; 16]> = SmallVec::new();
        for &g in opts {
            let n = self.as_nimber(g)? as usize;
            if n < opts.len() {
                if seen.len() <= n {
                    seen.resize(n + 1, false);
                }
                seen[n] = true;
            }
        }
        Some(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32)
    }

    /// `Some(max)` if every option is a number (`Some(None)` when empty).
    fn numbers_max(&self, opts: &[GameId]) -> Option<Option<Dyadic>> {
        let mut m: Option<Dyadic> = None;
        for &g in opts {
            let x = self.as_number(g)?;
            m = Some(m.map_or(x, |y| y.max(x)));
        }
        Some(m)
    }

    /// `Some(min)` if every option is a number (`Some(None)` when empty).
    fn numbers_min(&self, opts: &[GameId]) -> Option<Option<Dyadic>> {
        let mut m: Option<Dyadic> = None;
        for &g in opts {
            let x = self.as_number(g)?;
            m = Some(m.map_or(x, |y| y.min(x)));
        }
        Some(m)
    }

    /// Removes dominated options: for Left the smaller ones, for Right the
    /// larger. Candidates are swept strongest-first (by stops) against the
    /// set of options kept so far, so the cost is `O(n * kept)` comparisons
    /// rather than `O(n^2)`.
    fn remove_dominated(&mut self, opts: &mut Opts, left: bool) {
        if opts.len() < 2 {
            return;
        }
        // strongest first: for Left by descending stops, for Right ascending
        // (each option's stops read once, then sorted as plain keys)
        let mut keyed: SmallVec<[(Dyadic, Dyadic, GameId); 8]> = opts
            .iter()
            .map(|&g| {
                let n = self.node(g);
                (n.lstop, n.rstop, g)
            })
            .collect();
        if left {
            keyed.sort_unstable_by(|x, y| y.cmp(x));
        } else {
            keyed.sort_unstable();
        }
        let mut kept: Opts = SmallVec::new();
        for &(_, _, c) in keyed.iter() {
            let mut dominated = false;
            let mut i = 0;
            while i < kept.len() {
                let k = kept[i];
                let (lo, hi) = if left { (c, k) } else { (k, c) };
                if self.leq(lo, hi) {
                    dominated = true;
                    break;
                }
                if self.leq(hi, lo) {
                    kept.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if !dominated {
                kept.push(c);
            }
        }
        *opts = kept;
    }

    /// Bypasses reversible Left options: `A` reverses through `A^R <= G`,
    /// and is replaced by the left options of `A^R`.
    fn bypass_left(&mut self, l: &mut Opts, r: &[GameId]) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < l.len() {
            let a = l[i];
            let mut rev = None;
            for j in 0..self.node(a).r_len as usize {
                let ar = self.ropt(a, j);
                if self.id_leq_form(ar, l, r) {
                    rev = Some(ar);
                    break;
                }
            }
            match rev {
                Some(ar) => {
                    changed = true;
                    l.swap_remove(i);
                    for k in 0..self.node(ar).l_len as usize {
                        let arl = self.lopt(ar, k);
                        if !l.contains(&arl) {
                            l.push(arl);
                        }
                    }
                }
                None => i += 1,
            }
        }
        changed
    }

    /// Bypasses reversible Right options: `B` reverses through `B^L >= G`,
    /// and is replaced by the right options of `B^L`.
    fn bypass_right(&mut self, l: &[GameId], r: &mut Opts) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < r.len() {
            let b = r[i];
            let mut rev = None;
            for j in 0..self.node(b).l_len as usize {
                let bl = self.lopt(b, j);
                if self.form_leq_id(l, r, bl) {
                    rev = Some(bl);
                    break;
                }
            }
            match rev {
                Some(bl) => {
                    changed = true;
                    r.swap_remove(i);
                    for k in 0..self.node(bl).r_len as usize {
                        let blr = self.ropt(bl, k);
                        if !r.contains(&blr) {
                            r.push(blr);
                        }
                    }
                }
                None => i += 1,
            }
        }
        changed
    }
}
