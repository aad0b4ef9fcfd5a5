//! Periodicity of a Grundy sequence, found on a computed prefix and proved.
//!
//! **The octal periodicity theorem** (Guy and Smith; Winning Ways ch. 4): for
//! a finite octal game whose last non-zero digit is at position `k`, if
//! `G(n + p) = G(n)` for all `n0 <= n < 2 n0 + p + k`, then `G(n + p) = G(n)`
//! for all `n >= n0`. The induction maps a split `a + b` of `N = n + p` to
//! `a + (b - p)` with `b >= n0 + p`, and a split of `n` to `a + (b + p)` with
//! `b >= n0`; the bound makes one part large enough either way.
//!
//! The same induction gives the other cases this module uses (stated as
//! bounds `B`: equality on `n0 <= n < B` proves periodicity from `n0`):
//!
//! ```text
//! no splitting move (subtraction-like games)   B = n0 + k
//! splits into at most 2 heaps (octal)          B = 2 n0 + p + k
//! splits into at most 3 heaps (hexadecimal)    B = 3 n0 + 2 p + k
//! ```
//!
//! (for the first, `G(n)` for `n > k` is the mex of the `k` values before it,
//! so a repeated window of `k` values repeats forever). The induction needs
//! `n0 >= 1` (a part `b - p` must not vanish); a period proved from `n0 = 1`
//! is extended down to 0 by checking `G(p) = G(0)` directly.
//!
//! A proved period is then made minimal (the least period of the tail
//! divides every period) and the pre-period as short as the values allow.

use serde::Serialize;

/// A proved periodicity: `G(n + period) = G(n)` for every `n >= preperiod`,
/// and neither can be smaller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// The least period of the tail.
    pub period: usize,
    /// The least `n0` from which the sequence is periodic (the last
    /// exception is `preperiod - 1`).
    pub preperiod: usize,
    /// The exceptional values (Winning Ways' sense, as in the OEIS): the
    /// `n < preperiod` whose `G(n)` differs from the periodic tail's value
    /// at the same residue, `G(n + j * period)` for large `j`.
    pub exceptions: Vec<usize>,
    /// How many values the proof needed (the theorem's bound plus one period).
    pub proof_length: usize,
}

impl Periodicity {
    /// `G(n)` from the values before the period ends.
    #[must_use]
    pub fn value(&self, prefix: &[u32], n: usize) -> u32 {
        if n < prefix.len() {
            prefix[n]
        } else {
            prefix[self.fold(n)]
        }
    }

    /// The index in `preperiod..preperiod + period` with the same value as `n`
    /// (`n` itself below the pre-period).
    #[must_use]
    pub fn fold(&self, n: usize) -> usize {
        if n < self.preperiod {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        }
    }
}

/// The theorem's bound `B` for pre-period `n0`, period `p`, last digit `k`
/// and at most `heaps` heaps left by a move.
#[must_use]
pub fn proof_bound(heaps: u8, n0: usize, p: usize, k: usize) -> usize {
    match heaps {
        0 | 1 => n0 + k,
        2 => 2 * n0 + p + k,
        _ => 3 * n0 + 2 * p + k,
    }
}

/// The largest `n1 >= 1` with `proof_bound(heaps, n1, p, k) + p <= len`.
fn max_start(heaps: u8, p: usize, k: usize, len: usize) -> Option<usize> {
    let top = match heaps {
        0 | 1 => len.checked_sub(k + p)?,
        2 => len.checked_sub(2 * p + k)? / 2,
        _ => len.checked_sub(3 * p + k)? / 3,
    };
    (top >= 1).then_some(top)
}

/// The last `n` with `g[n] != g[n + p]`, if any.
fn last_mismatch(g: &[u32], p: usize) -> Option<usize> {
    (0..g.len().saturating_sub(p))
        .rev()
        .find(|&n| g[n] != g[n + p])
}

/// Try to prove periodicity from the computed prefix `g` of a game whose
/// moves remove at most `k` tokens and leave at most `heaps` heaps.
/// Returns the minimal period and pre-period when the theorem applies.
#[must_use]
pub fn prove(g: &[u32], k: usize, heaps: u8) -> Option<Periodicity> {
    let len = g.len();
    for p in 1..=len / 2 {
        // The largest n1 whose bound still fits: a mismatch at or above it
        // rules p out, so the scan stops there (most p fail at once).
        let Some(top) = max_start(heaps, p, k, len) else {
            continue;
        };
        if (top..len - p).any(|n| g[n] != g[n + p]) {
            continue;
        }
        let n0 = last_mismatch(g, p).map_or(0, |n| n + 1);
        let n1 = n0.max(1);
        let bound = proof_bound(heaps, n1, p, k);
        debug_assert!(bound + p <= len);
        // Proved from n1; when n0 = 0, g[0] = g[p] was checked above.
        return Some(minimise(g, n0, p, bound + p));
    }
    None
}

/// The least period and pre-period, given a proved period `p` from `n0`.
fn minimise(g: &[u32], n0: usize, p: usize, proof_length: usize) -> Periodicity {
    let proved = Periodicity {
        period: p,
        preperiod: n0,
        exceptions: Vec::new(),
        proof_length,
    };
    let at = |n: usize| proved.value(g, n);
    let period = (1..=p)
        .filter(|&d| p.is_multiple_of(d))
        .find(|&d| (n0..n0 + p).all(|n| at(n + d) == at(n)))
        .unwrap_or(p);
    let mut pre = n0;
    while pre > 0 && at(pre - 1) == at(pre - 1 + period) {
        pre -= 1;
    }
    // Winning Ways' exceptional values: where the sequence differs from the
    // value its periodic tail has at the same residue.
    let exceptions = (0..pre)
        .filter(|&n| at(n) != at(n + (pre - n).div_ceil(period) * period))
        .collect();
    Periodicity {
        period,
        preperiod: pre,
        exceptions,
        proof_length,
    }
}

/// A period the computed values show but do not prove: the least `p` whose
/// last mismatch leaves at least three whole periods, and at least half the
/// computed values, in agreement.
#[must_use]
pub fn apparent(g: &[u32]) -> Option<(usize, usize)> {
    let len = g.len();
    (1..=len / 4).find_map(|p| {
        let n0 = last_mismatch(g, p).map_or(0, |n| n + 1);
        (len - n0 >= (3 * p).max(len / 2)).then_some((p, n0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_purely_periodic_subtraction_sequence() {
        // Subtraction {1, 2}: G(n) = n mod 3.
        let g: Vec<u32> = (0..20).map(|n| n % 3).collect();
        let p = prove(&g, 2, 1).unwrap();
        assert_eq!((p.period, p.preperiod), (3, 0));
        assert!(p.exceptions.is_empty());
        assert_eq!(p.value(&g, 1_000_000), 1);
    }

    #[test]
    fn too_short_a_prefix_proves_nothing() {
        let g: Vec<u32> = (0..5).map(|n| n % 3).collect();
        // 2 n0 + p + k with n0 = 1, p = 3, k = 2 is 7; plus a period: 10.
        assert_eq!(prove(&g, 2, 2), None);
        let g: Vec<u32> = (0..10).map(|n| n % 3).collect();
        assert!(prove(&g, 2, 2).is_some());
        let g: Vec<u32> = (0..9).map(|n| n % 3).collect();
        assert_eq!(prove(&g, 2, 2), None);
    }

    #[test]
    fn max_start_is_the_largest_fitting_start() {
        for heaps in 0..=3 {
            for p in 1..6 {
                for k in 0..4 {
                    for len in 0..60 {
                        let brute = (1..=len)
                            .rev()
                            .find(|&n1| proof_bound(heaps, n1, p, k) + p <= len);
                        assert_eq!(max_start(heaps, p, k, len), brute, "{heaps} {p} {k} {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn minimises_period_and_preperiod() {
        // 5 then 0 1 0 1 ...: period 2 from 1, exception at 0.
        let mut g = vec![5];
        g.extend((0..40).map(|n| n % 2));
        let p = prove(&g, 1, 1).unwrap();
        assert_eq!((p.period, p.preperiod), (2, 1));
        assert_eq!(p.exceptions, vec![0]);
    }
}
