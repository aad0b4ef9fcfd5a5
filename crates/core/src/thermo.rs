//! Thermographs (Winning Ways, CGSuite): piecewise-linear walls over the
//! temperature range `t >= -1`, from which mean and temperature are read.
//!
//! A wall is a continuous function `x(t)`; for short games every slope is
//! `-1`, `0` or `1` (in value per unit of temperature), so all critical points
//! stay dyadic. Integers have a vertical mast from `t = -1`; every other form
//! gets its walls from the scaffolds of its options (left scaffold: the max of
//! the Left options' right walls, tilted by `-t`; right scaffold: the min of
//! the Right options' left walls, tilted by `+t`), cut off by a vertical mast
//! at the highest temperature where the left scaffold is still at or right of
//! the right scaffold.

use std::sync::Arc;

use crate::dyadic::Dyadic;
use crate::error::ValueError;
use crate::game::{Arena, GameId};

/// One linear piece of a [`Trajectory`]: `x(t) = value + slope * (t - start)`
/// for `start <= t` up to the next segment's start.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Lowest temperature of the piece.
    pub start: Dyadic,
    /// Value at `start`.
    pub value: Dyadic,
    /// Change of value per unit of temperature.
    pub slope: i32,
}

/// A continuous piecewise-linear function of temperature on `[-1, inf)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectory {
    segs: Vec<Segment>,
}

fn div_small(d: Dyadic, k: i32) -> Result<Dyadic, ValueError> {
    // d / k for k a (signed) power of two; other divisors never arise for
    // thermographs of short games
    let m = k.unsigned_abs();
    if m == 0 || !m.is_power_of_two() {
        return Err(ValueError::Overflow);
    }
    let q = d.checked_div_pow2(m.trailing_zeros())?;
    if k < 0 {
        q.checked_neg()
    } else {
        Ok(q)
    }
}

impl Trajectory {
    /// The constant trajectory `x(t) = v`.
    #[must_use]
    pub fn constant(v: Dyadic) -> Trajectory {
        Trajectory {
            segs: vec![Segment {
                start: Dyadic::MINUS_ONE,
                value: v,
                slope: 0,
            }],
        }
    }

    /// The pieces, lowest temperature first; the first starts at `-1`.
    #[must_use]
    pub fn segments(&self) -> &[Segment] {
        &self.segs
    }

    /// Temperatures (above `-1`) where the slope changes, ascending.
    #[must_use]
    pub fn critical_points(&self) -> Vec<Dyadic> {
        self.segs.iter().skip(1).map(|s| s.start).collect()
    }

    fn seg_at(&self, t: Dyadic) -> &Segment {
        let i = self.segs.partition_point(|s| s.start <= t);
        &self.segs[i.saturating_sub(1)]
    }

    /// Slope just above `t`.
    fn slope_above(&self, t: Dyadic) -> i32 {
        self.seg_at(t).slope
    }

    /// The value at temperature `t` (`t >= -1`).
    pub fn value_at(&self, t: Dyadic) -> Result<Dyadic, ValueError> {
        let s = self.seg_at(t);
        s.value.checked_add(
            t.checked_sub(s.start)?
                .checked_mul_int(i64::from(s.slope))?,
        )
    }

    /// `x(t) + s * t`.
    fn tilt(&self, s: i32) -> Result<Trajectory, ValueError> {
        let mut segs = Vec::with_capacity(self.segs.len());
        for g in &self.segs {
            segs.push(Segment {
                start: g.start,
                value: g
                    .value
                    .checked_add(g.start.checked_mul_int(i64::from(s))?)?,
                slope: g.slope + s,
            });
        }
        Ok(Trajectory { segs })
    }

    fn breakpoints(&self, o: &Trajectory) -> Vec<Dyadic> {
        let mut bp: Vec<Dyadic> = self
            .segs
            .iter()
            .chain(o.segs.iter())
            .map(|s| s.start)
            .collect();
        bp.sort_unstable();
        bp.dedup();
        bp
    }

    fn push_merge(segs: &mut Vec<Segment>, s: Segment) {
        if let Some(last) = segs.last() {
            if last.slope == s.slope {
                return;
            }
            if last.start == s.start {
                segs.pop();
                Self::push_merge(segs, s);
                return;
            }
        }
        segs.push(s);
    }

    /// Pointwise maximum (`max = true`) or minimum.
    fn extremum(&self, o: &Trajectory, max: bool) -> Result<Trajectory, ValueError> {
        let bp = self.breakpoints(o);
        let mut segs: Vec<Segment> = Vec::new();
        for (i, &s) in bp.iter().enumerate() {
            let end = bp.get(i + 1).copied();
            let (va, vb) = (self.value_at(s)?, o.value_at(s)?);
            let (sa, sb) = (self.slope_above(s), o.slope_above(s));
            let d = va.checked_sub(vb)?;
            let ds = sa - sb;
            let sign = if max { 1 } else { -1 };
            // the winner just above s
            let a_wins = if d.is_zero() {
                ds * sign >= 0
            } else {
                (d.is_positive()) == (sign > 0)
            };
            let (v, sl, other_sl) = if a_wins { (va, sa, sb) } else { (vb, sb, sa) };
            Self::push_merge(
                &mut segs,
                Segment {
                    start: s,
                    value: v,
                    slope: sl,
                },
            );
            // a strict crossing inside (s, end)
            if !d.is_zero() && ds != 0 && (d.is_positive() != (ds > 0)) {
                let tc = s.checked_add(div_small(d.checked_neg()?, ds)?)?;
                if end.is_none_or(|e| tc < e) {
                    let vc = self.value_at(tc)?;
                    Self::push_merge(
                        &mut segs,
                        Segment {
                            start: tc,
                            value: vc,
                            slope: other_sl,
                        },
                    );
                }
            }
        }
        Ok(Trajectory { segs })
    }

    /// The trajectory up to `t`, then vertical (constant) at its value there.
    fn cut_at(&self, t: Dyadic) -> Result<Trajectory, ValueError> {
        let m = self.value_at(t)?;
        let mut segs: Vec<Segment> = Vec::new();
        for s in &self.segs {
            if s.start < t {
                segs.push(*s);
            }
        }
        Self::push_merge(
            &mut segs,
            Segment {
                start: t,
                value: m,
                slope: 0,
            },
        );
        Ok(Trajectory { segs })
    }

    /// The wall as exact breakpoints `(t, x)`, lowest temperature first: the
    /// first at `t = -1`, then one at every critical temperature; the wall is
    /// linear between consecutive points and vertical above the last.
    #[must_use]
    pub fn points(&self) -> Vec<(Dyadic, Dyadic)> {
        self.segs.iter().map(|s| (s.start, s.value)).collect()
    }

    /// The wall in CGSuite's `Trajectory` form: the value at the top, the
    /// critical temperatures from the top down, and the slopes (value per
    /// unit of temperature) of the pieces from the top down.
    #[must_use]
    pub fn cgsuite_parts(&self) -> (Dyadic, Vec<Dyadic>, Vec<i32>) {
        let top = self.segs.last().map_or(Dyadic::ZERO, |s| s.value);
        let crit: Vec<Dyadic> = self.critical_points().into_iter().rev().collect();
        let slopes: Vec<i32> = self.segs.iter().rev().map(|s| s.slope).collect();
        (top, crit, slopes)
    }

    /// Highest critical temperature, or `-1` for a straight vertical line.
    fn top(&self) -> Dyadic {
        match self.segs.last() {
            Some(s) if self.segs.len() > 1 => s.start,
            _ => Dyadic::MINUS_ONE,
        }
    }
}

/// The thermograph of a short game: left and right walls, mast value and
/// temperature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// The left wall (the value Left achieves when moving first in the
    /// game taxed at temperature `t`).
    pub left: Trajectory,
    /// The right wall.
    pub right: Trajectory,
    /// The mast value (the mean).
    pub mast: Dyadic,
    /// The temperature: the highest critical point of either wall
    /// (`-1` for integers).
    pub temperature: Dyadic,
}

impl Thermograph {
    /// CGSuite's printed form, `Thermograph(x,[t..],[s..],x,[t..],[s..])`:
    /// for the left wall then the right, the mast value, the critical
    /// temperatures from the top down and the slopes from the top down.
    #[must_use]
    pub fn cgsuite(&self) -> String {
        let part = |w: &Trajectory| {
            let (top, crit, slopes) = w.cgsuite_parts();
            let crit: Vec<String> = crit.iter().map(ToString::to_string).collect();
            let slopes: Vec<String> = slopes.iter().map(ToString::to_string).collect();
            format!("{top},[{}],[{}]", crit.join(","), slopes.join(","))
        };
        format!("Thermograph({},{})", part(&self.left), part(&self.right))
    }

    fn mast_only(v: Dyadic) -> Thermograph {
        Thermograph {
            left: Trajectory::constant(v),
            right: Trajectory::constant(v),
            mast: v,
            temperature: Dyadic::MINUS_ONE,
        }
    }

    /// Thermographic intersection of a (non-increasing) left scaffold and a
    /// (non-decreasing) right scaffold.
    fn from_scaffolds(ls: &Trajectory, rs: &Trajectory) -> Result<Thermograph, ValueError> {
        let bp = ls.breakpoints(rs);
        let base = Dyadic::MINUS_ONE;
        let (l0, r0) = (ls.value_at(base)?, rs.value_at(base)?);
        if l0 < r0 {
            // a cave from the base: mast at 0 if 0 lies between, else the
            // scaffold nearer 0 (CGSuite); does not arise for short games
            let v = if l0.is_positive() {
                l0
            } else if r0.is_negative() {
                r0
            } else {
                Dyadic::ZERO
            };
            return Ok(Thermograph::mast_only(v));
        }
        let mut top: Option<Dyadic> = None;
        for (i, &s) in bp.iter().enumerate() {
            let end = bp.get(i + 1).copied();
            let d = ls.value_at(s)?.checked_sub(rs.value_at(s)?)?;
            let ds = ls.slope_above(s) - rs.slope_above(s);
            if d.is_negative() {
                break;
            }
            if ds < 0 {
                // d(t) = d + ds (t - s) reaches 0 at s + d / -ds
                let tc = s.checked_add(div_small(d, -ds)?)?;
                if end.is_none_or(|e| tc < e) {
                    top = Some(tc);
                    break;
                }
            } else if end.is_none() {
                // scaffolds never separate: not a short game's thermograph
                return Err(ValueError::Overflow);
            }
        }
        let t = match top {
            Some(t) => t,
            None => return Err(ValueError::Overflow),
        };
        let left = ls.cut_at(t)?;
        let right = rs.cut_at(t)?;
        let mast = left.value_at(t)?;
        let temperature = left.top().max(right.top());
        Ok(Thermograph {
            left,
            right,
            mast,
            temperature,
        })
    }
}

impl Arena {
    /// The thermograph of `a` (cached per form).
    pub fn thermograph(&mut self, a: GameId) -> Result<Arc<Thermograph>, ValueError> {
        self.check(a)?;
        self.thermo(a)
    }

    fn thermo(&mut self, a: GameId) -> Result<Arc<Thermograph>, ValueError> {
        if let Some(t) = self.thermo_cache.get(&a.0) {
            return Ok(Arc::clone(t));
        }
        let n = self.node(a).clone();
        let t = if n.is_number() && n.lstop.is_integer() {
            Thermograph::mast_only(n.lstop)
        } else {
            let (ll, rl) = (n.l_len as usize, n.r_len as usize);
            let mut ls: Option<Trajectory> = None;
            for i in 0..ll {
                let g = self.lopt(a, i);
                let w = self.thermo(g)?;
                ls = Some(match ls {
                    None => w.right.clone(),
                    Some(acc) => acc.extremum(&w.right, true)?,
                });
            }
            let mut rs: Option<Trajectory> = None;
            for i in 0..rl {
                let g = self.ropt(a, i);
                let w = self.thermo(g)?;
                rs = Some(match rs {
                    None => w.left.clone(),
                    Some(acc) => acc.extremum(&w.left, false)?,
                });
            }
            match (ls, rs) {
                (Some(ls), Some(rs)) => Thermograph::from_scaffolds(&ls.tilt(-1)?, &rs.tilt(1)?)?,
                // only integers lack options on a side in canonical form
                _ => Thermograph::mast_only(n.lstop),
            }
        };
        let t = Arc::new(t);
        self.thermo_cache.insert(a.0, Arc::clone(&t));
        Ok(t)
    }

    /// The mean value of `a`, or an error if it leaves the dyadic range.
    pub fn try_mean(&mut self, a: GameId) -> Result<Dyadic, ValueError> {
        self.check(a)?;
        let n = self.node(a);
        if n.nus {
            return Ok(n.lstop);
        }
        Ok(self.thermo(a)?.mast)
    }

    /// The temperature of `a`, or an error if it leaves the dyadic range.
    /// Numbers `m/2^k` have temperature `-1/2^k` (integers `-1`), other
    /// number-up-stars `0`, as CGSuite reports.
    pub fn try_temperature(&mut self, a: GameId) -> Result<Dyadic, ValueError> {
        self.check(a)?;
        let n = self.node(a);
        if n.nus {
            if n.ups == 0 && n.nim == 0 {
                return Dyadic::new(-1, n.lstop.exp());
            }
            return Ok(Dyadic::ZERO);
        }
        Ok(self.thermo(a)?.temperature)
    }

    /// The mean value of `a` (the mast of its thermograph).
    ///
    /// # Panics
    /// Only if the mean's denominator exceeds `2^62` (use [`Arena::try_mean`]
    /// on untrusted input).
    pub fn mean(&mut self, a: GameId) -> Dyadic {
        match self.try_mean(a) {
            Ok(m) => m,
            Err(e) => panic!("mean out of range: {e}"),
        }
    }

    /// The temperature of `a` (see [`Arena::try_temperature`]).
    ///
    /// # Panics
    /// Only if a critical temperature's denominator exceeds `2^62`.
    pub fn temperature(&mut self, a: GameId) -> Dyadic {
        match self.try_temperature(a) {
            Ok(t) => t,
            Err(e) => panic!("temperature out of range: {e}"),
        }
    }
}
