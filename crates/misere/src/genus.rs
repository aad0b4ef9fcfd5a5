//! Conway's genus symbol `g^{g0 g1 g2 ...}`.
//!
//! For an impartial game `G`, `g = G+(G)` is its normal-play nim value and
//! `g_n = G-(G + n·*2)` the misère nim value of `G` plus `n` heaps of two.
//! The sequence `g0 g1 ...` ends alternating between two values, so it is
//! written up to where it starts alternating (at least two digits, as in
//! Winning Ways: `0^120` for the empty game, `1^031` for `*`, `2^20`,
//! `4^146` for the Kayles heap of 5). The genus is an invariant of misère
//! equivalence (ONAG ch. 12), so it separates games that differ.

use std::fmt;

use serde::Serialize;

/// A genus: the normal nim value and the superscript, trimmed to the
/// shortest prefix (of at least two digits) after which it alternates.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Genus {
    /// `G+`: the normal-play nim value.
    pub plus: u32,
    /// `g0 g1 ... gk`: `g_n` for `n > k` alternates, `g_n = g_{n-2}`.
    pub sup: Vec<u32>,
}

impl Genus {
    /// A genus from a superscript sequence that alternates from its last two
    /// terms on; trailing terms that repeat the alternation are dropped.
    #[must_use]
    pub fn new(plus: u32, mut sup: Vec<u32>) -> Self {
        while sup.len() > 2 && sup[sup.len() - 1] == sup[sup.len() - 3] {
            sup.pop();
        }
        Self { plus, sup }
    }

    /// `g_n` for any `n` (the superscript continued by its alternation).
    #[must_use]
    pub fn term(&self, n: usize) -> u32 {
        let len = self.sup.len();
        if n < len {
            self.sup[n]
        } else if len == 1 {
            self.sup[0]
        } else {
            self.sup[len - 2 + ((n - len) & 1)]
        }
    }

    /// `G-`: the misère nim value, `g0`.
    #[must_use]
    pub fn minus(&self) -> u32 {
        self.sup[0]
    }

    /// The genus of a game from its options' genera by Conway's mex rule:
    /// `g0 = mex{g'0}` and `g_n = mex{g'_n, g_{n-1}, g_{n-1} xor 1}` (the
    /// options of `G + n·*2` are `G' + n·*2`, and `G + (n-1)·*2` with or
    /// without `*`, whose misère value is `g_{n-1} xor 1`); the empty game
    /// is `0^120`. Terms are computed until they alternate past the
    /// options' own superscripts. The crate's tests check the rule against
    /// `G-(G + n·*2)` computed directly.
    #[must_use]
    pub fn of_options<'a>(options: impl IntoIterator<Item = &'a Genus> + Clone) -> Self {
        let mut any = false;
        let mut longest = 1;
        let mut plus_seen = Vec::new();
        for g in options.clone() {
            any = true;
            longest = longest.max(g.sup.len());
            plus_seen.push(g.plus);
        }
        if !any {
            return Self::new(0, vec![1, 2, 0]);
        }
        let plus = mex(&mut plus_seen);
        let mut sup: Vec<u32> = Vec::with_capacity(longest + 3);
        let mut seen = Vec::new();
        // The options' terms alternate from index `longest` on, so once
        // g_n = g_{n-2} there, the recurrence repeats itself forever.
        for n in 0.. {
            seen.clear();
            seen.extend(options.clone().into_iter().map(|g| g.term(n)));
            if n > 0 {
                let prev = sup[n - 1];
                seen.push(prev);
                seen.push(prev ^ 1);
            }
            sup.push(mex(&mut seen));
            if n >= longest + 2 && sup[n] == sup[n - 2] {
                break;
            }
        }
        Self::new(plus, sup)
    }

    /// Whether this is the genus of a nim heap `*n`, which Winning Ways
    /// calls tame: `0^120`, `1^031`, and `n^{n, n xor 2}` for `n >= 2`.
    #[must_use]
    pub fn is_nim_genus(&self) -> bool {
        let n = self.plus;
        match n {
            0 => self.sup == [1, 2, 0],
            1 => self.sup == [0, 3, 1],
            _ => self.sup == [n, n ^ 2],
        }
    }
}

/// The least number not in `seen` (sorted and deduplicated in place).
pub(crate) fn mex(seen: &mut Vec<u32>) -> u32 {
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| v != i as u32)
        .map_or(seen.len() as u32, |(i, _)| i as u32)
}

impl fmt::Display for Genus {
    /// `4^146`; with a term of 10 or more, `6^(10,4)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}^", self.plus)?;
        if self.sup.iter().any(|&d| d >= 10) {
            let parts: Vec<String> = self.sup.iter().map(ToString::to_string).collect();
            write!(f, "({})", parts.join(","))
        } else {
            for d in &self.sup {
                write!(f, "{d}")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_heaps_have_the_winning_ways_symbols() {
        // *0 = {}, *1 = {*0}, *2 = {*0, *1}, ...
        let mut heaps: Vec<Genus> = Vec::new();
        for _ in 0..8 {
            let g = Genus::of_options(heaps.iter());
            heaps.push(g);
        }
        let shown: Vec<String> = heaps.iter().map(ToString::to_string).collect();
        // Winning Ways, ch. 13: the genus of *n.
        assert_eq!(
            shown,
            ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57", "6^64", "7^75"]
        );
        assert!(heaps.iter().all(Genus::is_nim_genus));
        assert_eq!(heaps[0].term(9), 2);
        assert_eq!(heaps[1].term(10), 1);
    }

    #[test]
    fn trimming_keeps_two_digits() {
        assert_eq!(Genus::new(2, vec![2, 0, 2, 0, 2]).sup, [2, 0]);
        assert_eq!(Genus::new(4, vec![1, 4, 6, 4, 6]).to_string(), "4^146");
        assert_eq!(Genus::new(6, vec![10, 4]).to_string(), "6^(10,4)");
    }
}
