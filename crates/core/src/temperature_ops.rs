//! Temperature theory beyond the thermograph: cooling `G_t`, heating by a
//! number, freezing, incentives and orthodox options (Winning Ways ch. 6,
//! Siegel's *Combinatorial Game Theory* ch. II.5; conventions as CGSuite's
//! `Cool`, `Freeze`, `Incentives`).
//!
//! ```
//! use partizan_core::{Arena, Dyadic};
//! let mut a = Arena::new();
//! let g = a.parse("{2|-1/2}").unwrap(); // Domineering's 2 x 3 board
//! let cooled = a.cool(g, Dyadic::ONE).unwrap();
//! assert_eq!(a.display(cooled), "{1|1/2}");
//! let frozen = a.freeze(g).unwrap();
//! assert_eq!(a.display(frozen), "3/4*");
//! ```

use rustc_hash::FxHashMap;

use crate::dyadic::Dyadic;
use crate::error::{OpError, ValueError};
use crate::game::{Arena, GameId};

/// The incentives of a game: `G^L - G` for each Left option and `G - G^R`
/// for each Right option, dominated (smaller) ones removed on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incentives {
    /// Left's incentives, `G^L - G`.
    pub left: Vec<GameId>,
    /// Right's incentives, `G - G^R`.
    pub right: Vec<GameId>,
}

/// The options that are orthodox at a temperature `t`: those whose walls
/// reach the game's scaffold there (Left's: the largest `RW(G^L)(t) - t`,
/// Right's: the smallest `LW(G^R)(t) + t`), so playing them loses nothing
/// in the game taxed at `t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orthodox {
    /// The temperature asked about.
    pub temperature: Dyadic,
    /// Left's orthodox options.
    pub left: Vec<GameId>,
    /// Right's orthodox options.
    pub right: Vec<GameId>,
}

impl Arena {
    /// `gs` without duplicates and without any game below another.
    pub(crate) fn maximal(&mut self, mut gs: Vec<GameId>) -> Vec<GameId> {
        gs.sort_unstable();
        gs.dedup();
        let mut keep = Vec::with_capacity(gs.len());
        for (i, &g) in gs.iter().enumerate() {
            let mut dominated = false;
            for (j, &h) in gs.iter().enumerate() {
                if i != j && self.leq(g, h) {
                    dominated = true;
                    break;
                }
            }
            if !dominated {
                keep.push(g);
            }
        }
        keep
    }

    /// The incentives of `a` (see [`Incentives`]).
    pub fn incentives(&mut self, a: GameId) -> Result<Incentives, ValueError> {
        self.check(a)?;
        let mut left = Vec::new();
        for x in self.left_options(a).to_vec() {
            left.push(self.sub(x, a)?);
        }
        let mut right = Vec::new();
        for x in self.right_options(a).to_vec() {
            right.push(self.sub(a, x)?);
        }
        let left = self.maximal(left);
        let right = self.maximal(right);
        Ok(Incentives { left, right })
    }

    /// `a` cooled by `t`, `a_t` (CGSuite's `Cool`): integers stay; a game
    /// whose temperature is below `t` becomes its mean; otherwise
    /// `{(a^L)_t - t | (a^R)_t + t}`. Defined for `t > -1` only.
    pub fn cool(&mut self, a: GameId, t: Dyadic) -> Result<GameId, OpError> {
        self.check(a)?;
        if t <= Dyadic::MINUS_ONE {
            return Err(OpError::CoolingTemperature(t.to_string()));
        }
        let tg = self.number(t)?;
        let mut memo = FxHashMap::default();
        Ok(self.cool_in(a, t, tg, &mut memo)?)
    }

    fn cool_in(
        &mut self,
        a: GameId,
        t: Dyadic,
        tg: GameId,
        memo: &mut FxHashMap<GameId, GameId>,
    ) -> Result<GameId, ValueError> {
        if self.as_number(a).is_some_and(Dyadic::is_integer) {
            return Ok(a);
        }
        if let Some(&g) = memo.get(&a) {
            return Ok(g);
        }
        let g = if self.try_temperature(a)? < t {
            let m = self.try_mean(a)?;
            self.number(m)?
        } else {
            let mut l = Vec::new();
            for x in self.left_options(a).to_vec() {
                let c = self.cool_in(x, t, tg, memo)?;
                l.push(self.sub(c, tg)?);
            }
            let mut r = Vec::new();
            for x in self.right_options(a).to_vec() {
                let c = self.cool_in(x, t, tg, memo)?;
                r.push(self.sum(c, tg)?);
            }
            self.construct(&l, &r)?
        };
        memo.insert(a, g);
        Ok(g)
    }

    /// Heating by a number `t` (see [`Arena::heat`] for heating by any game).
    pub fn heat_by(&mut self, a: GameId, t: Dyadic) -> Result<GameId, ValueError> {
        let tg = self.number(t)?;
        self.heat(a, tg)
    }

    /// `a` frozen: cooled by its own temperature, which leaves a number plus
    /// an infinitesimal (numbers are their own freeze).
    pub fn freeze(&mut self, a: GameId) -> Result<GameId, OpError> {
        self.check(a)?;
        if self.is_number(a) {
            return Ok(a);
        }
        let t = self.try_temperature(a)?;
        self.cool(a, t)
    }

    /// An orthodox form of `a`: each option replaced by its own orthodox
    /// form, then each player's options cut to a minimal set that keeps the
    /// thermograph (Berlekamp's orthodox play: a move that is never the
    /// best at any temperature is dropped). The result has the same
    /// thermograph, hence the same mean, temperature and stops, as `a`, and
    /// dropping any one of its options changes the thermograph; it is
    /// usually not equal to `a` (orthodox play gives up infinitesimals).
    /// Options are tried for removal in the engine's order, so the form is
    /// one of possibly several (CGSuite's sketch says the same: orthodox
    /// forms are not unique). Numbers are their own orthodox forms.
    pub fn orthodox_form(&mut self, a: GameId) -> Result<GameId, ValueError> {
        self.check(a)?;
        self.orthodox_form_of(a)
    }

    fn orthodox_form_of(&mut self, a: GameId) -> Result<GameId, ValueError> {
        if self.is_number(a) {
            return Ok(a);
        }
        if let Some(&o) = self.orthodox_memo.get(&a) {
            return Ok(o);
        }
        let mut left = Vec::new();
        for x in self.left_options(a).to_vec() {
            left.push(self.orthodox_form_of(x)?);
        }
        let mut right = Vec::new();
        for x in self.right_options(a).to_vec() {
            right.push(self.orthodox_form_of(x)?);
        }
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        // the options' orthodox forms have the options' thermographs, so
        // this game has the thermograph of `a`
        let want = self.thermograph(a)?;
        for side in [true, false] {
            let mut i = 0;
            loop {
                let opts = if side { &left } else { &right };
                if i >= opts.len() {
                    break;
                }
                let mut fewer = opts.clone();
                fewer.remove(i);
                let g = if side {
                    self.construct(&fewer, &right)?
                } else {
                    self.construct(&left, &fewer)?
                };
                if *self.thermograph(g)? == *want {
                    if side {
                        left = fewer;
                    } else {
                        right = fewer;
                    }
                } else {
                    i += 1;
                }
            }
        }
        let o = self.construct(&left, &right)?;
        debug_assert!(*self.thermograph(o)? == *want);
        self.orthodox_memo.insert(a, o);
        Ok(o)
    }

    /// The options of `a` that are orthodox at temperature `t >= -1` (see
    /// [`Orthodox`]). Numbers have no orthodox options (nobody should move
    /// in a number).
    pub fn orthodox(&mut self, a: GameId, t: Dyadic) -> Result<Orthodox, ValueError> {
        self.check(a)?;
        let mut out = Orthodox {
            temperature: t,
            left: Vec::new(),
            right: Vec::new(),
        };
        if self.is_number(a) || t < Dyadic::MINUS_ONE {
            return Ok(out);
        }
        let mut best: Option<Dyadic> = None;
        let mut vals = Vec::new();
        for x in self.left_options(a).to_vec() {
            let v = self.thermograph(x)?.right.value_at(t)?.checked_sub(t)?;
            best = Some(best.map_or(v, |b| b.max(v)));
            vals.push((x, v));
        }
        out.left = vals
            .iter()
            .filter(|(_, v)| Some(*v) == best)
            .map(|(x, _)| *x)
            .collect();
        let mut best: Option<Dyadic> = None;
        let mut vals = Vec::new();
        for x in self.right_options(a).to_vec() {
            let v = self.thermograph(x)?.left.value_at(t)?.checked_add(t)?;
            best = Some(best.map_or(v, |b| b.min(v)));
            vals.push((x, v));
        }
        out.right = vals
            .iter()
            .filter(|(_, v)| Some(*v) == best)
            .map(|(x, _)| *x)
            .collect();
        Ok(out)
    }
}
