//! The brute-force twin: heap games played on whole positions (multisets of
//! heaps), valued by the mex over every option of the position itself.
//!
//! It uses neither the Sprague-Grundy theorem (no XOR of parts) nor any
//! fast path, so it checks both the engines and the theorem on small
//! positions. Exponential: keep heaps small (totals up to about 16).

use rustc_hash::FxHashMap;

use crate::code::OctalCode;

/// Memoised values of positions of one code.
#[derive(Debug)]
pub struct Brute {
    code: OctalCode,
    memo: FxHashMap<Vec<u16>, u32>,
}

impl Brute {
    /// A twin for `code`.
    #[must_use]
    pub fn new(code: &OctalCode) -> Self {
        Self {
            code: code.clone(),
            memo: FxHashMap::default(),
        }
    }

    /// The Grundy value of the position with these heaps (any order; empty
    /// heaps are ignored).
    pub fn value(&mut self, heaps: &[u16]) -> u32 {
        let mut key: Vec<u16> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        self.value_sorted(key)
    }

    fn value_sorted(&mut self, pos: Vec<u16>) -> u32 {
        if let Some(&v) = self.memo.get(&pos) {
            return v;
        }
        let mut seen: Vec<u32> = Vec::new();
        for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue; // the same move as on the equal heap before
            }
            let h = usize::from(pos[i]);
            let rest: Vec<u16> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
            let mut children: Vec<Vec<u16>> = Vec::new();
            self.code.heap_options(h, |parts| {
                children.push(parts.iter().map(|&p| p as u16).collect());
            });
            for parts in children {
                let mut child = rest.clone();
                child.extend(parts);
                child.sort_unstable();
                let v = self.value_sorted(child);
                seen.push(v);
            }
        }
        seen.sort_unstable();
        seen.dedup();
        let mex = seen
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u32)
            .map_or(seen.len() as u32, |(i, _)| i as u32);
        self.memo.insert(pos, mex);
        mex
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_and_a_sum() {
        let mut b = Brute::new(&OctalCode::parse("0.77").unwrap());
        let head: Vec<u32> = (0..10).map(|n| b.value(&[n])).collect();
        assert_eq!(head, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4]);
        // Two equal heaps cancel.
        assert_eq!(b.value(&[5, 5]), 0);
        assert_eq!(b.value(&[3, 4]), 3 ^ 1);
    }
}
