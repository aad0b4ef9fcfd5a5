//! The bounded transposition table: a fixed number of 64-byte buckets of
//! four entries, shared between threads without locks.
//!
//! An entry is two words, `key ^ data` and `data`; a reader believes it only
//! if the two still xor to the key it looks for, so a torn write by another
//! thread reads as a miss, never as a wrong answer. Keys are 64-bit hashes:
//! two different positions with the same hash would share an entry (with a
//! table of `2^k` entries and `n` probes the chance is about `n 2^k / 2^64`).
//!
//! Replacement: a position already in its bucket is overwritten; otherwise
//! an empty entry is taken; otherwise the entry whose subtree took the
//! least work (log2 of its node count) gives way, so expensive results
//! survive and cheap ones are recomputed.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use serde::Serialize;
use zerocopy::FromZeros;

/// Entries per bucket.
const WAYS: usize = 4;
/// Bytes per entry (two words).
pub const ENTRY_BYTES: usize = 16;

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
        // bit 0: present; bit 1: win; bits 8..17: best + 1; bits 17..25: work.
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
    /// Bytes the table holds (fixed at creation).
    pub bytes: u64,
    /// Entries it can hold.
    pub capacity: u64,
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
    buckets_mask: usize,
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
        Table {
            words,
            buckets_mask: n - 1,
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

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.words.len() / 2
    }

    #[inline]
    fn base(&self, key: u64) -> usize {
        // The bucket from the high bits (the low ones pick nothing else).
        let b = ((key >> 32) as usize ^ key as usize) & self.buckets_mask;
        b * WAYS * 2
    }

    /// The entry of `key`, if present. Uncounted: a searcher counts its
    /// probes in a [`Tally`] and adds them with [`Table::add`] now and then
    /// (a shared counter bumped per probe costs more than the probe).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let base = self.base(key);
        for i in 0..WAYS {
            let x = self.words[base + 2 * i].load(Relaxed);
            let d = self.words[base + 2 * i + 1].load(Relaxed);
            if d != 0 && x ^ d == key {
                return Some(Entry::unpack(d));
            }
        }
        None
    }

    /// [`Table::probe`], counted in `t`.
    #[inline]
    pub fn probe_counted(&self, key: u64, t: &mut Tally) -> Option<Entry> {
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
    pub fn store(&self, key: u64, e: Entry, t: &mut Tally) {
        t.stores += 1;
        let base = self.base(key);
        let d = e.pack();
        let mut victim = 0;
        let mut victim_work = u8::MAX;
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
            if x ^ old == key {
                self.write(base + 2 * i, key, d);
                return;
            }
            let w = Entry::unpack(old).work;
            if w < victim_work {
                victim_work = w;
                victim = i;
            }
        }
        if let Some(i) = empty {
            self.filled.fetch_add(1, Relaxed);
            self.write(base + 2 * i, key, d);
        } else if victim_work <= e.work {
            t.replaced += 1;
            self.write(base + 2 * victim, key, d);
        } else {
            // Everything here cost more than this result: keep them.
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
    pub fn for_each(&self, mut f: impl FnMut(u64, Entry)) {
        for pair in self.words.chunks_exact(2) {
            let d = pair[1].load(Relaxed);
            if d != 0 {
                f(pair[0].load(Relaxed) ^ d, Entry::unpack(d));
            }
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> TableStats {
        TableStats {
            bytes: self.bytes() as u64,
            capacity: self.capacity() as u64,
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
            assert_eq!(t.probe(12345), None);
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
                key,
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
            if let Some(e) = t.probe(key) {
                assert_eq!(e.win, k % 2 == 0);
            }
        }
    }
}
