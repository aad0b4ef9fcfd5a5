//! All-but subtraction games: a move takes any positive number of tokens
//! from one heap except the numbers in a finite excluded set. With nothing
//! excluded this is Nim.
//!
//! Values grow without bound, so instead of a period these games show an
//! *arithmetic* period: `G(n + p) = G(n) + s` from some `n0` on, with a
//! saltus `s`. It is reported as seen in the computed values, not proved.

use std::fmt;

use crate::subtraction::MAX_SUBTRACTION;
use crate::ImpartialError;

/// The excluded set of an all-but subtraction game (sorted, may be empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AllBut {
    excluded: Vec<usize>,
}

/// Work units of one excluded number looked at while computing a value
/// (a count decremented and restored: about two nanoseconds).
pub const ALLBUT_WEIGHT: u64 = 2;

/// An arithmetic period seen in computed values: `G(n + period) =
/// G(n) + saltus` for `from <= n` throughout the computed range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArithmeticPeriod {
    /// The period `p`.
    pub period: usize,
    /// The saltus `s`.
    pub saltus: u32,
    /// Where it starts.
    pub from: usize,
}

impl AllBut {
    /// Read the excluded set: `1,2,5`, `{1, 2, 5}` or empty (Nim).
    pub fn parse(text: &str) -> Result<Self, ImpartialError> {
        let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
        let mut excluded = Vec::new();
        for part in inner
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            let s: u64 = part.parse().map_err(|_| ImpartialError::BadNumber {
                what: "excluded set",
                found: part.into(),
            })?;
            if s == 0 {
                return Err(ImpartialError::ZeroInSubtractionSet);
            }
            if s > MAX_SUBTRACTION {
                return Err(ImpartialError::SubtractionTooLarge {
                    found: s,
                    max: MAX_SUBTRACTION,
                });
            }
            excluded.push(s as usize);
        }
        excluded.sort_unstable();
        excluded.dedup();
        Ok(Self { excluded })
    }

    /// The excluded numbers, increasing.
    #[must_use]
    pub fn excluded(&self) -> &[usize] {
        &self.excluded
    }

    /// `G(0..len)`: `G(n)` is the mex of `G(m)` over `m < n` with `n - m`
    /// not excluded. Counts of each value among all earlier heaps, less the
    /// excluded ones, give each value in `O(|excluded|)`.
    #[must_use]
    pub fn values(&self, len: usize) -> Vec<u32> {
        self.values_within(len, u64::MAX).0
    }

    /// Work units of one value: [`ALLBUT_WEIGHT`] per excluded number, and
    /// one.
    #[must_use]
    pub fn work_per_value(&self) -> u64 {
        ALLBUT_WEIGHT * self.excluded.len() as u64 + 1
    }

    /// [`Self::values`] under a work budget (units of about a nanosecond,
    /// as [`crate::SearchOptions::max_work`]: [`ALLBUT_WEIGHT`] per
    /// excluded number looked at, one per value): the values computed
    /// before the budget ran out, and whether all `len` were.
    #[must_use]
    pub fn values_within(&self, len: usize, max_work: u64) -> (Vec<u32>, bool) {
        let per_value = self.work_per_value();
        let mut work = 0u64;
        // grown as values come, never reserved up front: `len` is a request
        let mut g: Vec<u32> = Vec::new();
        let mut count: Vec<u32> = Vec::new();
        let mut global_mex = 0usize; // least value no earlier heap has
        let mut removed: Vec<u32> = Vec::with_capacity(self.excluded.len());
        for n in 0..len {
            if work > max_work {
                return (g, false);
            }
            work += per_value;
            removed.clear();
            for &f in &self.excluded {
                if f <= n {
                    let v = g[n - f];
                    count[v as usize] -= 1;
                    removed.push(v);
                }
            }
            let mut mex = global_mex as u32;
            for &v in &removed {
                if count[v as usize] == 0 && v < mex {
                    mex = v;
                }
            }
            for &v in &removed {
                count[v as usize] += 1;
            }
            g.push(mex);
            if count.len() <= mex as usize {
                count.resize(mex as usize + 1, 0);
            }
            count[mex as usize] += 1;
            while global_mex < count.len() && count[global_mex] > 0 {
                global_mex += 1;
            }
        }
        (g, true)
    }

    /// The least arithmetic period the values show over at least three
    /// periods and half the computed range.
    #[must_use]
    pub fn apparent_period(g: &[u32]) -> Option<ArithmeticPeriod> {
        let len = g.len();
        (1..=len / 4).find_map(|p| {
            let last = len - 1;
            let saltus = g[last].checked_sub(g[last - p])?;
            let from = (0..len - p)
                .rev()
                .find(|&n| g[n + p] != g[n].wrapping_add(saltus))
                .map_or(0, |n| n + 1);
            (len - from >= (3 * p).max(len / 2)).then_some(ArithmeticPeriod {
                period: p,
                saltus,
                from,
            })
        })
    }
}

impl fmt::Display for AllBut {
    /// `allbut:{1,2,5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "allbut:{{")?;
        for (i, s) in self.excluded.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::naive_values;
    use crate::OctalCode;

    #[test]
    fn nothing_excluded_is_nim() {
        let a = AllBut::parse("").unwrap();
        let g = a.values(50);
        assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n));
        let p = AllBut::apparent_period(&g).unwrap();
        assert_eq!((p.period, p.saltus, p.from), (1, 1, 0));
    }

    /// Up to heap H the all-but game is the finite subtraction game with
    /// every j <= H not excluded: the plain recurrence is its twin.
    #[test]
    fn equals_the_truncated_subtraction_game() {
        for text in ["1", "2", "1,2", "2,3,7", "1,3,4,9", "5"] {
            let a = AllBut::parse(text).unwrap();
            let h = 300;
            let set: Vec<usize> = (1..=h).filter(|j| !a.excluded().contains(j)).collect();
            let twin = naive_values(&OctalCode::subtraction(&set), h + 1);
            assert_eq!(a.values(h + 1), twin, "allbut {text}");
        }
    }

    #[test]
    fn excluding_one_shows_period_2_saltus_1() {
        // Excluding 1: G = 0 0 1 1 2 2 ... (pairs), i.e. G(n + 2) = G(n) + 1.
        let g = AllBut::parse("1").unwrap().values(100);
        assert_eq!(&g[..6], &[0, 0, 1, 1, 2, 2]);
        let p = AllBut::apparent_period(&g).unwrap();
        assert_eq!((p.period, p.saltus), (2, 1));
    }

    #[test]
    fn bad_sets() {
        assert_eq!(
            AllBut::parse("0"),
            Err(ImpartialError::ZeroInSubtractionSet)
        );
        assert!(matches!(
            AllBut::parse("a"),
            Err(ImpartialError::BadNumber { .. })
        ));
        assert_eq!(AllBut::parse("{3, 1}").unwrap().to_string(), "allbut:{1,3}");
    }
}
