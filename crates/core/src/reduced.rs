//! Reduced canonical form (Grossman and Siegel, "Reductions of partizan
//! games"; Siegel's *Combinatorial Game Theory*, ch. II.6): the simplest
//! game equal to `G` modulo infinitesimals, computed as CGSuite does, by
//! heating by `*` and then projecting every `x*` to `x`. The infinitesimal
//! part is what the reduction drops, `G - rcf(G)`.
//!
//! ```
//! use partizan_core::Arena;
//! let mut a = Arena::new();
//! let g = a.parse("{3||2*|1*}").unwrap();
//! let r = a.reduced(g).unwrap();
//! assert_eq!(a.display(r), "{3||2|1}");
//! let up = a.up();
//! assert_eq!(a.reduced(up).map(|r| a.display(r)), Ok("0".to_string()));
//! ```

use rustc_hash::FxHashMap;

use crate::error::ValueError;
use crate::game::{Arena, GameId};

impl Arena {
    /// Heating `∫^t a`: numbers stay, and otherwise
    /// `{∫^t a^L + t | ∫^t a^R - t}` (CGSuite's `Heat`; `t` any game).
    pub fn heat(&mut self, a: GameId, t: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(t)?;
        let mut memo = FxHashMap::default();
        self.heat_in(a, t, &mut memo)
    }

    fn heat_in(
        &mut self,
        a: GameId,
        t: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if self.is_number(a) {
            return Ok(a);
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let mut l = Vec::new();
        for x in self.left_options(a).to_vec() {
            let h = self.heat_in(x, t, memo)?;
            l.push(self.sum(h, t)?);
        }
        let mut r = Vec::new();
        for x in self.right_options(a).to_vec() {
            let h = self.heat_in(x, t, memo)?;
            r.push(self.sub(h, t)?);
        }
        let g = self.construct(&l, &r)?;
        memo.insert(a, g);
        Ok(g)
    }

    /// Overheating `∫^t_s a`: an integer `n` becomes `n . s` (Norton's
    /// product, `n` copies of `s`), and otherwise
    /// `{∫^t_s a^L + t | ∫^t_s a^R - t}` (CGSuite's `Overheat`).
    pub fn overheat(&mut self, a: GameId, s: GameId, t: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.check(s)?;
        self.check(t)?;
        let mut memo = FxHashMap::default();
        self.overheat_in(a, s, t, &mut memo)
    }

    fn overheat_in(
        &mut self,
        a: GameId,
        s: GameId,
        t: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if let Some(x) = self.as_number(a) {
            if x.is_integer() {
                return self.multiple(s, x.num());
            }
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let mut l = Vec::new();
        for x in self.left_options(a).to_vec() {
            let h = self.overheat_in(x, s, t, memo)?;
            l.push(self.sum(h, t)?);
        }
        let mut r = Vec::new();
        for x in self.right_options(a).to_vec() {
            let h = self.overheat_in(x, s, t, memo)?;
            r.push(self.sub(h, t)?);
        }
        let g = self.construct(&l, &r)?;
        memo.insert(a, g);
        Ok(g)
    }

    /// Star projection: every `x*` subposition becomes `x`, numbers stay.
    fn star_projection(
        &mut self,
        a: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if self.is_number(a) {
            return Ok(a);
        }
        if let Some(n) = self.as_nus(a) {
            if n.ups == 0 && n.nimber == 1 {
                return self.number(n.number);
            }
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let mut l = Vec::new();
        for x in self.left_options(a).to_vec() {
            l.push(self.star_projection(x, memo)?);
        }
        let mut r = Vec::new();
        for x in self.right_options(a).to_vec() {
            r.push(self.star_projection(x, memo)?);
        }
        let g = self.construct(&l, &r)?;
        memo.insert(a, g);
        Ok(g)
    }

    /// The reduced canonical form `rcf(a)`: equal to `a` modulo
    /// infinitesimals (`a - rcf(a)` is infinitesimal), the same for `a` and
    /// `a + ε` for every infinitesimal `ε`, and idempotent. A number-up-star
    /// `x + k.^ + *m` reduces to `x`.
    pub fn reduced(&mut self, a: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        if let Some(n) = self.as_nus(a) {
            return self.number(n.number);
        }
        let star = self.star();
        let h = self.heat(a, star)?;
        let mut memo = FxHashMap::default();
        self.star_projection(h, &mut memo)
    }

    /// The infinitesimal part `a - rcf(a)` (always infinitesimal).
    pub fn infinitesimal_part(&mut self, a: GameId) -> Result<GameId, ValueError> {
        let r = self.reduced(a)?;
        self.sub(a, r)
    }
}
