//! A bounded, lossy cache of comparison results keyed by an ordered pair of
//! ids: two-way set-associative, one `u64` per entry (the pair and the
//! answer packed together), so a lookup touches one cache line.
//!
//! Being a cache, it may forget: a miss only means the answer is computed
//! again. It grows by doubling with use up to a fixed size.

/// An empty slot: no valid entry has all of its pair bits set (ids below
/// [`PairCache::MAX_ID`] only).
const EMPTY: u64 = u64::MAX;

/// Lossy map `(a, b) -> bool`.
pub(crate) struct PairCache {
    /// `2 * sets` slots; set `i` is slots `2i` (most recent) and `2i + 1`.
    slots: Vec<u64>,
    /// `64 - log2(sets)`: the hash's top bits pick the set.
    shift: u32,
    /// Entries written since the last growth.
    written: usize,
    /// Largest number of sets.
    max_sets: usize,
}

impl PairCache {
    /// Ids at or above this are never cached (their pairs would not pack).
    pub(crate) const MAX_ID: u32 = (1 << 31) - 1;
    const MIN_SETS_LOG: u32 = 10;

    /// An empty cache that grows up to `1 << max_sets_log` sets.
    pub(crate) fn new(max_sets_log: u32) -> PairCache {
        let log = Self::MIN_SETS_LOG.min(max_sets_log);
        PairCache {
            slots: vec![EMPTY; 2 << log],
            shift: 64 - log,
            written: 0,
            max_sets: 1 << max_sets_log,
        }
    }

    #[inline]
    fn tag(a: u32, b: u32) -> Option<u64> {
        (a < Self::MAX_ID).then(|| (u64::from(a) << 33) | (u64::from(b) << 1))
    }

    #[inline]
    fn set(&self, tag: u64) -> usize {
        2 * ((tag | 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The cached answer for `(a, b)`, if remembered.
    #[inline]
    pub(crate) fn get(&self, a: u32, b: u32) -> Option<bool> {
        let t = Self::tag(a, b)?;
        let i = self.set(t);
        let (x, y) = (self.slots[i], self.slots[i + 1]);
        if x & !1 == t {
            Some(x & 1 == 1)
        } else if y & !1 == t {
            Some(y & 1 == 1)
        } else {
            None
        }
    }

    /// Remember `(a, b) -> v`, evicting the older entry of its set.
    #[inline]
    pub(crate) fn insert(&mut self, a: u32, b: u32, v: bool) {
        let Some(t) = Self::tag(a, b) else {
            return;
        };
        let e = t | u64::from(v);
        let i = self.set(t);
        if self.slots[i] & !1 == t {
            self.slots[i] = e;
            return;
        }
        self.slots[i + 1] = self.slots[i];
        self.slots[i] = e;
        self.written += 1;
        let sets = self.slots.len() / 2;
        if self.written > sets && sets < self.max_sets {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let bigger = vec![EMPTY; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        self.written = 0;
        // Older entries first, so the most recent of a set stays first.
        for pair in old.chunks_exact(2) {
            for &e in pair.iter().rev() {
                if e != EMPTY {
                    let i = self.set(e & !1);
                    self.slots[i + 1] = self.slots[i];
                    self.slots[i] = e;
                    self.written += 1;
                }
            }
        }
    }

    /// Bytes held.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}

/// An exact map `u64 -> u32` by open addressing with linear probing. A
/// slot holds key and value together (12 bytes), so a lookup usually
/// touches a single cache line. Values must be below `u32::MAX` (the
/// empty mark). Public because the solver's memo of small regions is the
/// same structure.
pub struct WordMap {
    /// Key low half, key high half, value (`u32::MAX` when empty).
    slots: Vec<[u32; 3]>,
    /// `64 - log2(slots.len())`.
    shift: u32,
    len: usize,
}

impl Default for WordMap {
    fn default() -> WordMap {
        WordMap::with_log(6)
    }
}

impl WordMap {
    const VACANT: [u32; 3] = [0, 0, u32::MAX];

    /// An empty map with `2^log` slots to start with (it grows as needed).
    pub fn with_log(log: u32) -> WordMap {
        WordMap {
            slots: vec![Self::VACANT; 1 << log],
            shift: 64 - log,
            len: 0,
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        ((key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of `key`, if present.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        let (lo, hi) = (key as u32, (key >> 32) as u32);
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s[2] == u32::MAX {
                return None;
            }
            if s[0] == lo && s[1] == hi {
                return Some(s[2]);
            }
            i = (i + 1) & mask;
        }
    }

    /// Set `key` to `v` (`v < u32::MAX`).
    #[inline]
    pub fn insert(&mut self, key: u64, v: u32) {
        self.replace(key, v);
    }

    /// Set `key` to `v` (`v < u32::MAX`), returning the value it had.
    #[inline]
    pub fn replace(&mut self, key: u64, v: u32) -> Option<u32> {
        assert!(v != u32::MAX, "WordMap values are below u32::MAX");
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let (lo, hi) = (key as u32, (key >> 32) as u32);
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = &mut self.slots[i];
            if s[2] == u32::MAX {
                *s = [lo, hi, v];
                self.len += 1;
                return None;
            }
            if s[0] == lo && s[1] == hi {
                return Some(std::mem::replace(&mut s[2], v));
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let log = 64 - self.shift + 1;
        let old = std::mem::replace(self, WordMap::with_log(log));
        for s in old.slots {
            if s[2] != u32::MAX {
                self.insert(u64::from(s[0]) | (u64::from(s[1]) << 32), s[2]);
            }
        }
    }

    /// Bytes held.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * 12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_and_forgets_safely() {
        let mut c = PairCache::new(4);
        assert_eq!(c.get(1, 2), None);
        c.insert(1, 2, true);
        c.insert(2, 1, false);
        assert_eq!(c.get(1, 2), Some(true));
        assert_eq!(c.get(2, 1), Some(false));
        c.insert(1, 2, false);
        assert_eq!(c.get(1, 2), Some(false));
        // Ids too large are never cached.
        c.insert(PairCache::MAX_ID, 0, true);
        assert_eq!(c.get(PairCache::MAX_ID, 0), None);
        c.insert(0, u32::MAX, true);
        assert_eq!(c.get(0, u32::MAX), Some(true));
        // Whatever it forgets, what it answers is what was last written.
        let mut want = std::collections::HashMap::new();
        let mut x: u64 = 12345;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = ((x % 5000) as u32, ((x >> 20) % 5000) as u32);
            let v = x >> 40 & 1 == 1;
            c.insert(a, b, v);
            want.insert((a, b), v);
            let (p, q) = (((x >> 13) % 5000) as u32, ((x >> 33) % 5000) as u32);
            if let Some(got) = c.get(p, q) {
                assert_eq!(Some(&got), want.get(&(p, q)));
            }
        }
        assert!(c.bytes() <= 16 * 16);
    }

    #[test]
    fn word_map_is_a_map() {
        let mut m = WordMap::default();
        let mut want = std::collections::HashMap::new();
        let mut x: u64 = 99;
        for i in 0..50_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Keys differing in high bits only, in low bits only, and zero.
            let k = match i % 3 {
                0 => x % 1000,
                1 => (x % 1000) << 50,
                _ => x,
            };
            assert_eq!(m.replace(k, i), want.insert(k, i));
            let probe = x.rotate_left(7) % 1000;
            assert_eq!(m.get(probe), want.get(&probe).copied());
        }
        assert_eq!(m.len(), want.len());
        for (&k, &v) in &want {
            assert_eq!(m.get(k), Some(v));
        }
        assert!(m.bytes() >= 12 * want.len());
    }
}
