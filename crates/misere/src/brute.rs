//! Brute-force misère search: the twins.
//!
//! Positions are played as they stand, sums as multisets of parts, with
//! no canonical form, no quotient and no theorem about sums: a position
//! with no move is won by the player to move, any other is won when some
//! move leads to a lost one. Exponential; for tests and benchmarks.

use rustc_hash::FxHashMap;

use partizan_impartial::HeapGame;

use crate::{MisereError, Outcome};

/// Explicit game trees (no reduction at all): node `i` has the options
/// `options(i)`. Sums of nodes are searched as multisets.
#[derive(Debug, Default, Clone)]
pub struct Forest {
    children: Vec<Vec<u32>>,
}

impl Forest {
    /// An empty forest.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a node with these options (earlier nodes); returns its index.
    pub fn add(&mut self, options: Vec<u32>) -> u32 {
        self.children.push(options);
        (self.children.len() - 1) as u32
    }

    /// The options of a node.
    #[must_use]
    pub fn options(&self, node: u32) -> &[u32] {
        &self.children[node as usize]
    }

    /// Nodes held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// Whether no node is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// The nim heap `*n` as a new tree (`*n` has the options `*0..*(n-1)`).
    pub fn nim(&mut self, n: u32) -> u32 {
        let mut heaps = Vec::new();
        for _ in 0..=n {
            let h = self.add(heaps.clone());
            heaps.push(h);
        }
        heaps[n as usize]
    }

    /// `G-` of the sum of these nodes: 1 when no move is left, else the
    /// mex of the options' values (0 exactly for misère P-positions).
    pub fn misere_nim_value(&self, parts: &[u32], memo: &mut FxHashMap<Vec<u32>, u32>) -> u32 {
        let mut key: Vec<u32> = parts
            .iter()
            .copied()
            .filter(|&p| !self.children[p as usize].is_empty())
            .collect();
        key.sort_unstable();
        self.value_of(key, memo)
    }

    fn value_of(&self, key: Vec<u32>, memo: &mut FxHashMap<Vec<u32>, u32>) -> u32 {
        if key.is_empty() {
            return 1;
        }
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for &c in &self.children[key[i] as usize] {
                let mut next: Vec<u32> = key[..i].iter().chain(&key[i + 1..]).copied().collect();
                if !self.children[c as usize].is_empty() {
                    next.push(c);
                    next.sort_unstable();
                }
                seen.push(self.value_of(next, memo));
            }
        }
        let v = crate::genus::mex(&mut seen);
        memo.insert(key, v);
        v
    }

    /// The misère outcome of the sum of these nodes.
    pub fn outcome(&self, parts: &[u32], memo: &mut FxHashMap<Vec<u32>, u32>) -> Outcome {
        if self.misere_nim_value(parts, memo) == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }
}

/// Misère outcomes of sums of heaps of one heap game, searched on the
/// multiset of heaps itself (memoised), with a limit on positions.
#[derive(Debug)]
pub struct HeapSearch {
    game: HeapGame,
    /// `moves[n]`: the options of one heap of `n`, as the heaps left.
    moves: Vec<Vec<Vec<u16>>>,
    memo: FxHashMap<Box<[u16]>, bool>,
    max_positions: usize,
}

impl HeapSearch {
    /// A search for `game` that gives up past `max_positions` memoised
    /// positions.
    #[must_use]
    pub fn new(game: &HeapGame, max_positions: usize) -> Self {
        Self {
            game: game.clone(),
            moves: Vec::new(),
            memo: FxHashMap::default(),
            max_positions,
        }
    }

    /// Positions memoised so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn moves_of(&mut self, n: usize) {
        while self.moves.len() <= n {
            let h = self.moves.len();
            let mut list = Vec::new();
            self.game.heap_options(h, |parts| {
                list.push(parts.iter().map(|&p| p as u16).collect::<Vec<u16>>());
            });
            self.moves.push(list);
        }
    }

    /// The misère outcome of the sum of these heaps (0s are ignored).
    pub fn outcome(&mut self, heaps: &[usize]) -> Result<Outcome, MisereError> {
        if heaps.iter().any(|&h| h > usize::from(u16::MAX)) {
            return Err(MisereError::HeapOutOfRange {
                heap: heaps.iter().copied().max().unwrap_or(0),
                max: usize::from(u16::MAX),
            });
        }
        let mut key: Vec<u16> = heaps
            .iter()
            .filter(|&&h| h > 0)
            .map(|&h| h as u16)
            .collect();
        key.sort_unstable();
        let p = self.is_p(key)?;
        Ok(if p { Outcome::P } else { Outcome::N })
    }

    fn is_p(&mut self, key: Vec<u16>) -> Result<bool, MisereError> {
        if let Some(&p) = self.memo.get(key.as_slice()) {
            return Ok(p);
        }
        if self.memo.len() >= self.max_positions {
            return Err(MisereError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        if let Some(&top) = key.last() {
            self.moves_of(usize::from(top));
        }
        let mut any_move = false;
        let mut p = true;
        'search: for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            let h = usize::from(key[i]);
            for m in 0..self.moves[h].len() {
                any_move = true;
                let mut next: Vec<u16> = key[..i].iter().chain(&key[i + 1..]).copied().collect();
                next.extend_from_slice(&self.moves[h][m]);
                next.sort_unstable();
                if self.is_p(next)? {
                    p = false;
                    break 'search;
                }
            }
        }
        // No move at all: the player to move has won (misère).
        let p = p && any_move;
        self.memo.insert(key.into_boxed_slice(), p);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bouton's misère Nim: with every heap at most 1, P iff the number of
    /// heaps is odd; otherwise P iff the nim-sum is 0.
    fn misere_nim_rule(heaps: &[usize]) -> Outcome {
        let live: Vec<usize> = heaps.iter().copied().filter(|&h| h > 0).collect();
        let p = if live.iter().all(|&h| h <= 1) {
            live.len() % 2 == 1
        } else {
            live.iter().fold(0, |a, &h| a ^ h) == 0
        };
        if p {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    #[test]
    fn heap_search_plays_misere_nim() {
        let mut s = HeapSearch::new(&HeapGame::Nim, 1_000_000);
        for a in 0..6 {
            for b in 0..=a {
                for c in 0..=b {
                    let h = [a, b, c];
                    assert_eq!(s.outcome(&h).unwrap(), misere_nim_rule(&h), "{h:?}");
                }
            }
        }
    }

    #[test]
    fn forest_values_misere_nim() {
        let mut f = Forest::new();
        let heaps: Vec<u32> = (0..5).map(|n| f.nim(n)).collect();
        let mut memo = FxHashMap::default();
        // G-(*n) is 1, 0, 2, 3, 4.
        let single: Vec<u32> = heaps
            .iter()
            .map(|&h| f.misere_nim_value(&[h], &mut memo))
            .collect();
        assert_eq!(single, [1, 0, 2, 3, 4]);
        assert_eq!(f.outcome(&[heaps[2], heaps[2]], &mut memo), Outcome::P);
        assert_eq!(f.outcome(&[heaps[1], heaps[1]], &mut memo), Outcome::N);
    }

    #[test]
    fn the_limit_is_an_error() {
        let mut s = HeapSearch::new(&HeapGame::parse("0.77").unwrap(), 10);
        assert!(matches!(
            s.outcome(&[20, 20]),
            Err(MisereError::TooManyPositions { limit: 10 })
        ));
    }
}
