//! The bounded transposition table: a fixed number of 64-byte buckets of
//! four entries, shared between threads without locks.
//!
//! An entry is two words, `key ^ data` and `data`; a reader believes it only
//! if the two still xor to the key it looks for, so a torn write by another
//! thread reads as a miss, never as a wrong answer. A [`Key`] is 96 bits of
//! hash: 64 that pick the bucket and name the entry, and a 32-bit check from
//! independent random numbers, kept in the data word's top half and
//! compared on every probe. Two different positions share an entry only if
//! all 96 bits agree: with `n` probes into a table of `2^k` entries the
//! chance of one false hit in a whole search is about `n 2^k / 2^96`
//! (`n 2^k / 2^64` with 64 bits alone, which for Domineering 10 x 10, some
//! 10^10 probes into 2^28 entries, would be one run in seven).
//!
//! Replacement: a position already in its bucket is overwritten; otherwise
//! an empty entry is taken; otherwise (a full bucket) two tiers, like
//! Breuker's TwoBig1: the first three entries keep the most expensive
//! results (work: log2 of the subtree's node count), the last is always
//! replaced. A new result that cost at least as much as the cheapest of
//! the first three takes its place and pushes it down to the last entry;
//! a cheaper one takes the last entry. So expensive results survive and
//! the newest cheap one is kept too. Measured on Domineering with the
//! table deliberately small (one thread): 7 x 10 in 2 MB, 55.3 M nodes
//! (26.7 s) before, 38.1 M (18.6 s) after; 6 x 12 in 16 MB, 96.3 M
//! (44.5 s) before, 73.9 M (32.8 s) after; under the old rule a result
//! cheaper than all four entries was dropped.
//!
//! Growth: the table's whole size is reserved at creation (zeroed lazily
//! by the allocator, so untouched pages cost nothing), but only a prefix
//! of [`START_BYTES`] is used at first. When more than half the entries in
//! use are filled, the prefix doubles and each bucket's entries whose key
//! now picks the new twin bucket move there (a split, as in linear hashing:
//! bucket `b` becomes `b` and `b + n`). A search that needs 16 MB then
//! touches 16 MB, not a scattering over 1 GB (page faults and cache and TLB
//! misses: Domineering 8 x 8 took 2.8 s in a 1 GB table, 1.3 s in 16 MB).
//! A split runs while other threads read and write: a move writes the new
//! place before it clears the old, readers check key and data as always, so
//! what a concurrent reader can see is a miss, never a wrong entry; an
//! entry written into an old bucket during its split may be stranded there
//! (unreachable, later replaced), which costs work, not answers.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

use serde::Serialize;
use zerocopy::FromZeros;

/// Entries per bucket.
const WAYS: usize = 4;
/// Bytes per entry (two words).
pub const ENTRY_BYTES: usize = 16;
/// Bytes of the prefix a table uses at first (see the module comment).
pub const START_BYTES: usize = 1 << 20;

/// A position's (and mover's) name in the table: `hash` picks the bucket
/// and names the entry, `check` (from random numbers independent of the
/// hash's) must agree too.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub hash: u64,
    pub check: u32,
}

impl Key {
    /// The key whose 96 bits are the low 96 of `x` (hash low, check above).
    #[inline]
    pub fn from_bits(x: u128) -> Key {
        Key {
            hash: x as u64,
            check: (x >> 64) as u32,
        }
    }
}

#[cfg(test)]
impl From<u64> for Key {
    /// A test key: the check a fixed mix of the hash.
    fn from(hash: u64) -> Key {
        Key {
            hash,
            check: (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32,
        }
    }
}

/// What the table knows about one (position, mover).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Whether the mover wins.
    pub win: bool,
    /// Index (in generation order) of the winning option, if known.
    pub best: Option<u8>,
    /// log2 of the nodes the result cost, plus one.
    pub work: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        // bit 0: present; bit 1: win; bits 8..17: best + 1; bits 17..25: work
        // (the key's check takes bits 32..64 of the data word).
        1 | (u64::from(self.win) << 1)
            | (u64::from(self.best.map_or(0, |b| u16::from(b) + 1)) << 8)
            | (u64::from(self.work) << 17)
    }

    fn unpack(d: u64) -> Entry {
        let best = ((d >> 8) & 0x1ff) as u16;
        Entry {
            win: d & 2 != 0,
            best: if best == 0 {
                None
            } else {
                Some((best - 1) as u8)
            },
            work: ((d >> 17) & 0xff) as u8,
        }
    }
}

/// Counts of a table's use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableStats {
    /// Bytes the table may grow to (fixed at creation).
    pub bytes: u64,
    /// Entries it can hold at most.
    pub capacity: u64,
    /// Bytes of the prefix in use (it grows; see the module comment).
    pub bytes_in_use: u64,
    /// Entries in use.
    pub filled: u64,
    /// Look-ups.
    pub probes: u64,
    /// Look-ups that found their position.
    pub hits: u64,
    /// Results written.
    pub stores: u64,
    /// Results that pushed another position out.
    pub replaced: u64,
}

/// One searcher's uncommitted table counts (see [`Table::add`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Look-ups.
    pub probes: u64,
    /// Look-ups that found their position.
    pub hits: u64,
    /// Results written.
    pub stores: u64,
    /// Results that pushed another position out.
    pub replaced: u64,
}

/// The shared, bounded transposition table (see the module comment).
pub struct Table {
    words: Box<[AtomicU64]>,
    /// Buckets in use, less one (a power of two less one).
    buckets_mask: AtomicUsize,
    /// Buckets reserved, less one.
    max_mask: usize,
    /// Set while one thread splits buckets.
    growing: AtomicBool,
    filled: AtomicU64,
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    replaced: AtomicU64,
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two of
    /// buckets; at least one bucket).
    pub fn with_bytes(bytes: usize) -> Table {
        let bucket = WAYS * ENTRY_BYTES;
        let mut n = 1usize;
        while n
            .checked_mul(2 * bucket)
            .is_some_and(|b| b <= bytes && b <= isize::MAX as usize)
        {
            n *= 2;
        }
        // Zeroed by the allocator (calloc: fresh pages read as zero and
        // are only touched when first written), not entry by entry, so a
        // large table costs nothing before the search starts.
        let words = loop {
            match <[AtomicU64]>::new_box_zeroed_with_elems(n * WAYS * 2) {
                Ok(w) => break w,
                // Halve until the allocator agrees (at least one bucket).
                Err(_) if n > 1 => n /= 2,
                Err(_) => break (0..WAYS * 2).map(|_| AtomicU64::new(0)).collect(),
            }
        };
        let n = words.len() / (WAYS * 2);
        let start = (START_BYTES / (WAYS * ENTRY_BYTES)).clamp(1, n);
        Table {
            words,
            buckets_mask: AtomicUsize::new(start - 1),
            max_mask: n - 1,
            growing: AtomicBool::new(false),
            filled: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            stores: AtomicU64::new(0),
            replaced: AtomicU64::new(0),
        }
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Entries the table can hold (at most: it grows to that).
    pub fn capacity(&self) -> usize {
        self.words.len() / 2
    }

    /// Bytes of the prefix in use.
    pub fn bytes_in_use(&self) -> usize {
        (self.buckets_mask.load(Relaxed) + 1) * WAYS * ENTRY_BYTES
    }

    /// The bucket of `key` among `mask + 1` (from the high bits mixed with
    /// the low: the low ones pick nothing else).
    #[inline]
    fn bucket(key: u64, mask: usize) -> usize {
        ((key >> 32) as usize ^ key as usize) & mask
    }

    #[inline]
    fn base(&self, key: u64) -> usize {
        Self::bucket(key, self.buckets_mask.load(Relaxed)) * WAYS * 2
    }

    /// Double the buckets in use (if nobody else is, and there is room):
    /// split each old bucket `b` into `b` and `b + n`.
    #[cold]
    fn grow(&self) {
        if self
            .growing
            .compare_exchange(false, true, Relaxed, Relaxed)
            .is_err()
        {
            return;
        }
        let mask = self.buckets_mask.load(Relaxed);
        if mask < self.max_mask {
            let n = mask + 1;
            let new_mask = 2 * n - 1;
            for b in 0..n {
                let mut next = 0;
                for i in 0..WAYS {
                    let at = (b * WAYS + i) * 2;
                    let x = self.words[at].load(Relaxed);
                    let d = self.words[at + 1].load(Relaxed);
                    if d == 0 || Self::bucket(x ^ d, new_mask) == b {
                        continue;
                    }
                    // The twin bucket is new: nobody else writes there yet,
                    // and it takes at most the WAYS entries of this one.
                    let to = ((b + n) * WAYS + next) * 2;
                    next += 1;
                    self.words[to].store(x, Relaxed);
                    self.words[to + 1].store(d, Relaxed);
                    self.words[at + 1].store(0, Relaxed);
                    self.words[at].store(0, Relaxed);
                }
            }
            self.buckets_mask.store(new_mask, Relaxed);
        }
        self.growing.store(false, Relaxed);
    }

    /// The entry of `key`, if present. Uncounted: a searcher counts its
    /// probes in a [`Tally`] and adds them with [`Table::add`] now and then
    /// (a shared counter bumped per probe costs more than the probe).
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        let base = self.base(key.hash);
        for i in 0..WAYS {
            let x = self.words[base + 2 * i].load(Relaxed);
            let d = self.words[base + 2 * i + 1].load(Relaxed);
            if d != 0 && x ^ d == key.hash && (d >> 32) as u32 == key.check {
                return Some(Entry::unpack(d));
            }
        }
        None
    }

    /// [`Table::probe`], counted in `t`.
    #[inline]
    pub fn probe_counted(&self, key: Key, t: &mut Tally) -> Option<Entry> {
        t.probes += 1;
        let e = self.probe(key);
        t.hits += u64::from(e.is_some());
        e
    }

    /// Add a searcher's counts to the table's, and clear them.
    pub fn add(&self, t: &mut Tally) {
        self.probes.fetch_add(t.probes, Relaxed);
        self.hits.fetch_add(t.hits, Relaxed);
        self.stores.fetch_add(t.stores, Relaxed);
        self.replaced.fetch_add(t.replaced, Relaxed);
        *t = Tally::default();
    }

    /// Record `e` for `key` (see the module comment for what gives way),
    /// counted in `t`.
    #[inline]
    pub fn store(&self, key: Key, e: Entry, t: &mut Tally) {
        t.stores += 1;
        let base = self.base(key.hash);
        let d = e.pack() | u64::from(key.check) << 32;
        // The cheapest of the first WAYS - 1 entries: (index, work, words).
        let mut victim = (0, u8::MAX, 0, 0);
        let mut empty = None;
        for i in 0..WAYS {
            let x = self.words[base + 2 * i].load(Relaxed);
            let old = self.words[base + 2 * i + 1].load(Relaxed);
            if old == 0 {
                if empty.is_none() {
                    empty = Some(i);
                }
                continue;
            }
            if x ^ old == key.hash && (old >> 32) as u32 == key.check {
                self.write(base + 2 * i, key.hash, d);
                return;
            }
            let w = Entry::unpack(old).work;
            if i < WAYS - 1 && w < victim.1 {
                victim = (i, w, x, old);
            }
        }
        if let Some(i) = empty {
            let filled = self.filled.fetch_add(1, Relaxed) + 1;
            self.write(base + 2 * i, key.hash, d);
            let mask = self.buckets_mask.load(Relaxed);
            // More than half the entries in use filled: double them.
            if mask < self.max_mask && filled as usize > (mask + 1) * WAYS / 2 {
                self.grow();
            }
        } else {
            // Full (see the module comment): the cheapest of the first
            // WAYS - 1 entries gives way to a result that cost at least as
            // much and moves to the last entry, which is always replaced;
            // a cheaper result takes the last entry itself.
            t.replaced += 1;
            let last = base + 2 * (WAYS - 1);
            let (i, work, x, old) = victim;
            if work <= e.work {
                self.words[last].store(x, Relaxed);
                self.words[last + 1].store(old, Relaxed);
                self.write(base + 2 * i, key.hash, d);
            } else {
                self.write(last, key.hash, d);
            }
        }
    }

    #[inline]
    fn write(&self, at: usize, key: u64, d: u64) {
        self.words[at].store(key ^ d, Relaxed);
        self.words[at + 1].store(d, Relaxed);
    }

    /// Every entry that reads whole, as (key, entry): what a checkpoint
    /// saves. Safe while other threads write: a torn entry reads as a key
    /// no position is likely to have (the module comment's odds).
    pub fn for_each(&self, mut f: impl FnMut(Key, Entry)) {
        let used = (self.buckets_mask.load(Relaxed) + 1) * WAYS * 2;
        for pair in self.words[..used].chunks_exact(2) {
            let d = pair[1].load(Relaxed);
            if d != 0 {
                let key = Key {
                    hash: pair[0].load(Relaxed) ^ d,
                    check: (d >> 32) as u32,
                };
                f(key, Entry::unpack(d));
            }
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> TableStats {
        TableStats {
            bytes: self.bytes() as u64,
            capacity: self.capacity() as u64,
            bytes_in_use: self.bytes_in_use() as u64,
            filled: self.filled.load(Relaxed),
            probes: self.probes.load(Relaxed),
            hits: self.hits.load(Relaxed),
            stores: self.stores.load(Relaxed),
            replaced: self.replaced.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_larger_than_the_machine_is_cut_to_what_the_allocator_gives() {
        // Zeroed lazily: nothing is touched, whatever the size granted.
        for bytes in [usize::MAX, 1 << 50] {
            let t = Table::with_bytes(bytes);
            assert!(t.capacity() >= WAYS && t.bytes() <= bytes);
            assert_eq!(t.probe(Key::from(12345u64)), None);
        }
    }

    #[test]
    fn entries_round_trip_and_the_table_stays_bounded() {
        for e in [
            Entry {
                win: true,
                best: Some(0),
                work: 1,
            },
            Entry {
                win: false,
                best: None,
                work: 40,
            },
            Entry {
                win: true,
                best: Some(255),
                work: 64,
            },
        ] {
            assert_eq!(Entry::unpack(e.pack()), e);
        }
        let t = Table::with_bytes(1 << 12);
        assert!(t.bytes() <= 1 << 12);
        assert_eq!(t.capacity(), 256);
        let mut tally = Tally::default();
        for k in 1..10_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            t.store(
                key.into(),
                Entry {
                    win: k % 2 == 0,
                    best: None,
                    work: (k % 7) as u8,
                },
                &mut tally,
            );
        }
        assert_eq!(tally.stores, 9_999);
        t.add(&mut tally);
        assert_eq!(tally, Tally::default());
        let s = t.stats();
        assert_eq!(s.stores, 9_999);
        assert!(s.filled <= s.capacity);
        assert_eq!(s.filled, 256);
        // The last key written with the most work is still there or was
        // refused for cheaper work; any hit must carry the right answer.
        for k in 1..10_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            if let Some(e) = t.probe(key.into()) {
                assert_eq!(e.win, k % 2 == 0);
            }
        }
    }

    #[test]
    fn a_table_grows_from_a_small_prefix_and_keeps_what_it_moves() {
        let t = Table::with_bytes(64 << 20);
        assert_eq!(t.bytes(), 64 << 20);
        assert_eq!(t.bytes_in_use(), START_BYTES);
        let mut tally = Tally::default();
        let n = 1_000_000u64;
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for k in 0..n {
            let e = Entry {
                win: k % 3 == 0,
                best: None,
                work: 5,
            };
            t.store(key(k).into(), e, &mut tally);
        }
        // A million entries want more than half of 2^21: 32 MB in use.
        assert_eq!(t.bytes_in_use(), 32 << 20);
        let mut found = 0;
        for k in 0..n {
            if let Some(e) = t.probe(key(k).into()) {
                assert_eq!(e.win, k % 3 == 0);
                found += 1;
            }
        }
        // At most half full before each split, few buckets overflowed (a
        // Poisson load of mean 2 in 4 ways pushes out under 4% of the
        // entries, at each of the six doublings; 92% found when written).
        assert!(found > n * 90 / 100, "{found} of {n} found");
        let mut seen = 0;
        t.for_each(|k, e| {
            assert_eq!(e.work, 5);
            seen += u64::from(k.hash != 0);
        });
        assert_eq!(seen, found);
    }

    #[test]
    fn a_full_bucket_keeps_the_expensive_results_and_the_newest_cheap_one() {
        let t = Table::with_bytes(WAYS * ENTRY_BYTES);
        assert_eq!(t.capacity(), WAYS);
        let mut tally = Tally::default();
        let e = |work| Entry {
            win: work % 2 == 1,
            best: None,
            work,
        };
        for k in 1..=4u64 {
            t.store(k.into(), e(10 + k as u8), &mut tally);
        }
        // Cheaper than everything: it still gets in (the last entry), and
        // the next cheap one replaces it, not the expensive ones.
        t.store(Key::from(100u64), e(1), &mut tally);
        assert_eq!(t.probe(Key::from(100u64)), Some(e(1)));
        t.store(Key::from(101u64), e(2), &mut tally);
        assert_eq!(t.probe(Key::from(101u64)), Some(e(2)));
        assert_eq!(t.probe(Key::from(100u64)), None);
        for k in 1..=3u64 {
            assert_eq!(t.probe(k.into()), Some(e(10 + k as u8)), "{k}");
        }
        // Dearer than the cheapest of the first three (key 1, work 11):
        // it takes that place and pushes key 1 down to the last entry.
        t.store(Key::from(200u64), e(30), &mut tally);
        assert_eq!(t.probe(Key::from(200u64)), Some(e(30)));
        assert_eq!(t.probe(Key::from(1u64)), Some(e(11)));
        assert_eq!(t.probe(Key::from(101u64)), None);
        assert_eq!(t.stats().filled, 4);
    }

    /// A hash that agrees but a check that does not is another position:
    /// a miss, and stored beside it, not over it.
    #[test]
    fn the_check_bits_tell_apart_positions_whose_hashes_agree() {
        let t = Table::with_bytes(1 << 12);
        let mut tally = Tally::default();
        let a = Key { hash: 77, check: 1 };
        let b = Key { hash: 77, check: 2 };
        let e = |win| Entry {
            win,
            best: None,
            work: 3,
        };
        t.store(a, e(true), &mut tally);
        assert_eq!(t.probe(a), Some(e(true)));
        assert_eq!(t.probe(b), None);
        t.store(b, e(false), &mut tally);
        assert_eq!(t.probe(a), Some(e(true)));
        assert_eq!(t.probe(b), Some(e(false)));
        let mut seen = Vec::new();
        t.for_each(|k, e| seen.push((k, e.win)));
        seen.sort();
        assert_eq!(seen, [(a, true), (b, false)]);
    }
}
