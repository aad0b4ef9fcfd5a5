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
//! use are filled (each searcher adds its fills to the count [`FILL_BATCH`]
//! at a time, and when it adds its [`Tally`]), the prefix doubles and each
//! bucket's entries whose key now picks the new twin bucket move there (a
//! split, as in linear hashing: bucket `b` becomes `b` and `b + n`). A
//! search that needs 16 MB then touches 16 MB, not a scattering over 1 GB
//! (page faults and cache and TLB misses: Domineering 8 x 8 took 2.8 s in
//! a 1 GB table, 1.3 s in 16 MB).
//! A split runs while other threads read and write: a move writes the new
//! place before it clears the old, readers check key and data as always, so
//! what a concurrent reader can see is a miss, never a wrong entry; an
//! entry written into an old bucket during its split may be stranded there
//! (unreachable, later replaced), which costs work, not answers.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

use crossbeam_utils::CachePadded;
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

/// What the table knows about one (position, mover), as bounds on a
/// *handicap*: an integer `s` added to the position in the mover's favour
/// (the general engine keys a position with an integer tail `n` by its
/// board alone, with `s = n` for Left to move and `-n` for Right; every
/// other entry is asked at `s = 0`). A handicap only helps the mover (a
/// game no worse for the mover than one the mover wins is won), so one
/// search answers a whole half-line of handicaps: a win at `s` is a win at
/// every `s' >= s`, a loss at `s` a loss at every `s' <= s`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The mover wins at every handicap of at least this.
    pub win_from: Option<i8>,
    /// The mover loses at every handicap of at most this (below
    /// `win_from` when both are known).
    pub lose_upto: Option<i8>,
    /// log2 of the nodes the result cost, plus one.
    pub work: u8,
}

/// Bits of [`Entry::to_bits`].
pub const ENTRY_BITS: u32 = 26;

impl Entry {
    /// The mover's fate at handicap 0.
    pub fn decided(win: bool, work: u8) -> Entry {
        Entry::at(win, 0, work)
    }

    /// The mover's fate at handicap `s`.
    pub fn at(win: bool, s: i8, work: u8) -> Entry {
        Entry {
            win_from: win.then_some(s),
            lose_upto: (!win).then_some(s),
            work,
        }
    }

    /// Whether the mover wins at handicap `s`, if the entry tells.
    #[inline]
    pub fn answer(self, s: i8) -> Option<bool> {
        if self.win_from.is_some_and(|w| s >= w) {
            Some(true)
        } else if self.lose_upto.is_some_and(|l| s <= l) {
            Some(false)
        } else {
            None
        }
    }

    /// What `self` and a newer result `new` for the same key know together
    /// (`new` alone if they contradict each other, which only a false
    /// table hit could cause).
    pub fn merge(self, new: Entry) -> Entry {
        let either = |a: Option<i8>, b: Option<i8>, f: fn(i8, i8) -> i8| match (a, b) {
            (Some(a), Some(b)) => Some(f(a, b)),
            (a, b) => a.or(b),
        };
        let m = Entry {
            win_from: either(self.win_from, new.win_from, i8::min),
            lose_upto: either(self.lose_upto, new.lose_upto, i8::max),
            work: self.work.max(new.work),
        };
        if m.consistent() {
            m
        } else {
            new
        }
    }

    /// Are the bounds apart (every loss below every win)?
    fn consistent(self) -> bool {
        match (self.win_from, self.lose_upto) {
            (Some(w), Some(l)) => l < w,
            _ => true,
        }
    }

    /// The entry in [`ENTRY_BITS`] bits (the table's data word and the
    /// checkpoint's entries): bits 0..9 `win_from` (0 for none, else the
    /// bound + 129), 9..18 `lose_upto` alike, 18..26 `work`.
    pub fn to_bits(self) -> u32 {
        let code = |b: Option<i8>| b.map_or(0, |b| (i32::from(b) + 129) as u32);
        code(self.win_from) | (code(self.lose_upto) << 9) | (u32::from(self.work) << 18)
    }

    /// The entry of [`Entry::to_bits`]; `None` for bits no entry has (bits
    /// past [`ENTRY_BITS`], a bound code out of range, contradicting or no
    /// bounds).
    pub fn from_bits(d: u32) -> Option<Entry> {
        if d >> ENTRY_BITS != 0 {
            return None;
        }
        let bound = |c: u32| -> Result<Option<i8>, ()> {
            match c {
                0 => Ok(None),
                1..=256 => Ok(Some((c as i32 - 129) as i8)),
                _ => Err(()),
            }
        };
        let e = Entry {
            win_from: bound(d & 0x1ff).ok()?,
            lose_upto: bound((d >> 9) & 0x1ff).ok()?,
            work: (d >> 18) as u8,
        };
        (e.consistent() && (e.win_from.is_some() || e.lose_upto.is_some())).then_some(e)
    }

    fn pack(self) -> u64 {
        // bit 0: present; bits 1..27: the entry's bits (the key's check
        // takes bits 32..64 of the data word).
        1 | (u64::from(self.to_bits()) << 1)
    }

    /// The entry of a data word (`None` for a word no entry packs to).
    fn unpack(d: u64) -> Option<Entry> {
        if d & 1 == 0 {
            return None;
        }
        // Bits past the entry's are refused by `from_bits`.
        Entry::from_bits((d as u32) >> 1)
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
    /// Look-ups answered by a bound found at another handicap (what keying
    /// a board with an integer tail by the board alone adds; see
    /// [`Entry`]).
    pub handicap_hits: u64,
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
    /// Look-ups answered at another handicap than the bound's.
    pub handicap_hits: u64,
    /// Entries newly filled (added to the table's count every
    /// [`FILL_BATCH`], where it may grow).
    pub fills: u64,
}

/// Fills a searcher counts before adding them to the table's count: a
/// shared counter bumped at each fill is a cache line the threads take
/// from one another hundreds of thousands of times a second (Domineering
/// 8 x 8 on two threads fills 0.3 M entries in 0.45 s). The table may so
/// grow a few hundred entries late, out of tens of thousands.
const FILL_BATCH: u64 = 64;

/// The shared, bounded transposition table (see the module comment).
pub struct Table {
    words: Box<[AtomicU64]>,
    /// Buckets in use, less one (a power of two less one).
    buckets_mask: AtomicUsize,
    /// Buckets reserved, less one.
    max_mask: usize,
    /// Set while one thread splits buckets.
    growing: AtomicBool,
    /// The counts, which threads write, apart from what every probe reads
    /// (one cache line shared by both would move between the threads'
    /// cores at each count).
    counts: CachePadded<Counts>,
}

/// The table's shared counts (see [`TableStats`]).
#[derive(Default)]
struct Counts {
    filled: AtomicU64,
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    replaced: AtomicU64,
    handicap_hits: AtomicU64,
}

/// Ask the kernel to back `words` with huge pages where it can (Linux's
/// transparent huge pages in `madvise` mode, the common default, use them
/// only where asked). A probe lands anywhere in a table of gigabytes, so
/// with 4 KB pages nearly every probe also misses the processor's address
/// translation cache; with 2 MB pages far fewer do. Advice only: no entry
/// changes, and a kernel that declines leaves the table as it was.
fn advise_huge_pages(words: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let bytes = std::mem::size_of_val(words);
        if bytes < 4 << 20 {
            return;
        }
        let start = words.as_ptr() as usize;
        let aligned = start.next_multiple_of(PAGE);
        let len = (start + bytes - aligned) / PAGE * PAGE;
        // SAFETY: madvise with MADV_HUGEPAGE changes how the kernel backs
        // the pages of [aligned, aligned + len), which lies inside the
        // table's own allocation; their contents (zero or entries) are
        // kept, and a failure (an old kernel, huge pages off) is ignored.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = words;
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
        advise_huge_pages(&words);
        let n = words.len() / (WAYS * 2);
        let start = (START_BYTES / (WAYS * ENTRY_BYTES)).clamp(1, n);
        Table {
            words,
            buckets_mask: AtomicUsize::new(start - 1),
            max_mask: n - 1,
            growing: AtomicBool::new(false),
            counts: CachePadded::default(),
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
                return Entry::unpack(d);
            }
        }
        None
    }

    /// Ask the processor to bring `key`'s bucket into its cache, so that a
    /// [`Table::probe`] made after some other work finds it there (a
    /// bucket of a large table is seldom cached: the probe would wait
    /// for memory). A hint only: it changes no entry and no answer.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.words[self.base(key.hash)].as_ptr();
            // SAFETY: a prefetch reads nothing into the program and cannot
            // fault; `p` points into the table's words anyway.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    p.cast::<i8>().cast_const(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Whether the mover of `key` wins at handicap `s`, if the table
    /// tells ([`Table::probe`] and [`Entry::answer`]), counted in `t` (a hit
    /// is an answer).
    #[inline]
    pub fn answer_counted(&self, key: Key, s: i8, t: &mut Tally) -> Option<bool> {
        t.probes += 1;
        let e = self.probe(key)?;
        let w = e.answer(s)?;
        t.hits += 1;
        let bound = if w { e.win_from } else { e.lose_upto };
        t.handicap_hits += u64::from(bound != Some(s));
        Some(w)
    }

    /// Add a searcher's counts to the table's, and clear them.
    pub fn add(&self, t: &mut Tally) {
        self.add_fills(t);
        let c = &self.counts;
        c.probes.fetch_add(t.probes, Relaxed);
        c.hits.fetch_add(t.hits, Relaxed);
        c.stores.fetch_add(t.stores, Relaxed);
        c.replaced.fetch_add(t.replaced, Relaxed);
        c.handicap_hits.fetch_add(t.handicap_hits, Relaxed);
        *t = Tally::default();
    }

    /// Add a searcher's fills to the table's count, and grow the table
    /// when more than half the entries in use are filled.
    fn add_fills(&self, t: &mut Tally) {
        if t.fills == 0 {
            return;
        }
        let filled = self.counts.filled.fetch_add(t.fills, Relaxed) + t.fills;
        t.fills = 0;
        let mask = self.buckets_mask.load(Relaxed);
        if mask < self.max_mask && filled as usize > (mask + 1) * WAYS / 2 {
            self.grow();
        }
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
                // The same position: what both results know.
                let merged = Entry::unpack(old).map_or(e, |o| o.merge(e));
                let merged = merged.pack() | u64::from(key.check) << 32;
                self.write(base + 2 * i, key.hash, merged);
                return;
            }
            let w = Entry::unpack(old).map_or(0, |o| o.work);
            if i < WAYS - 1 && w < victim.1 {
                victim = (i, w, x, old);
            }
        }
        if let Some(i) = empty {
            self.write(base + 2 * i, key.hash, d);
            t.fills += 1;
            if t.fills >= FILL_BATCH {
                self.add_fills(t);
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
                if let Some(e) = Entry::unpack(d) {
                    f(key, e);
                }
            }
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> TableStats {
        TableStats {
            bytes: self.bytes() as u64,
            capacity: self.capacity() as u64,
            bytes_in_use: self.bytes_in_use() as u64,
            filled: self.counts.filled.load(Relaxed),
            probes: self.counts.probes.load(Relaxed),
            hits: self.counts.hits.load(Relaxed),
            stores: self.counts.stores.load(Relaxed),
            replaced: self.counts.replaced.load(Relaxed),
            handicap_hits: self.counts.handicap_hits.load(Relaxed),
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
            Entry::decided(true, 1),
            Entry::decided(false, 40),
            Entry::decided(true, 64),
        ] {
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        let t = Table::with_bytes(1 << 12);
        assert!(t.bytes() <= 1 << 12);
        assert_eq!(t.capacity(), 256);
        let mut tally = Tally::default();
        for k in 1..10_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            t.store(
                key.into(),
                Entry::decided(k % 2 == 0, (k % 7) as u8),
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
                assert_eq!(e.answer(0), Some(k % 2 == 0));
            }
        }
    }

    #[test]
    fn a_table_grows_from_a_small_prefix_and_keeps_what_it_moves() {
        // 64 MB: large enough to be advised to use huge pages, and every
        // probe below prefetched first (hints that change no answer).
        let t = Table::with_bytes(64 << 20);
        assert_eq!(t.bytes(), 64 << 20);
        assert_eq!(t.bytes_in_use(), START_BYTES);
        let mut tally = Tally::default();
        let n = 1_000_000u64;
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for k in 0..n {
            let e = Entry::decided(k % 3 == 0, 5);
            t.store(key(k).into(), e, &mut tally);
        }
        // A million entries want more than half of 2^21: 32 MB in use.
        assert_eq!(t.bytes_in_use(), 32 << 20);
        let mut found = 0;
        for k in 0..n {
            t.prefetch(key(k).into());
            if let Some(e) = t.probe(key(k).into()) {
                assert_eq!(e.answer(0), Some(k % 3 == 0));
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
        let e = |work| Entry::decided(work % 2 == 1, work);
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
        t.add(&mut tally);
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
        let e = |win| Entry::decided(win, 3);
        t.store(a, e(true), &mut tally);
        assert_eq!(t.probe(a), Some(e(true)));
        assert_eq!(t.probe(b), None);
        t.store(b, e(false), &mut tally);
        assert_eq!(t.probe(a), Some(e(true)));
        assert_eq!(t.probe(b), Some(e(false)));
        let mut seen = Vec::new();
        t.for_each(|k, e| seen.push((k, e.answer(0) == Some(true))));
        seen.sort();
        assert_eq!(seen, [(a, true), (b, false)]);
    }

    /// A win at a handicap answers every larger one, a loss every smaller
    /// one; two results for one key are merged; bits round-trip and junk
    /// bits are refused.
    #[test]
    fn handicap_bounds_answer_half_lines_and_merge() {
        let w = Entry::at(true, 2, 5);
        assert_eq!(w.answer(2), Some(true));
        assert_eq!(w.answer(100), Some(true));
        assert_eq!(w.answer(1), None);
        let l = Entry::at(false, -1, 7);
        assert_eq!(l.answer(-1), Some(false));
        assert_eq!(l.answer(-128), Some(false));
        assert_eq!(l.answer(0), None);
        let both = w.merge(l);
        assert_eq!(both.win_from, Some(2));
        assert_eq!(both.lose_upto, Some(-1));
        assert_eq!(both.work, 7);
        assert_eq!(both.answer(0), None);
        assert_eq!(both.answer(3), Some(true));
        assert_eq!(both.answer(-5), Some(false));
        // Tighter bounds win; a contradiction keeps the newer result.
        let tighter = both
            .merge(Entry::at(true, 1, 1))
            .merge(Entry::at(false, 0, 1));
        assert_eq!((tighter.win_from, tighter.lose_upto), (Some(1), Some(0)));
        assert_eq!(
            tighter.merge(Entry::at(false, 1, 1)),
            Entry::at(false, 1, 1)
        );
        for e in [
            w,
            l,
            both,
            Entry::at(true, -128, 255),
            Entry::at(false, 127, 0),
        ] {
            assert_eq!(Entry::from_bits(e.to_bits()), Some(e));
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::from_bits(0), None, "no bound");
        assert_eq!(
            Entry::from_bits(1 << ENTRY_BITS),
            None,
            "bits past the entry"
        );
        assert_eq!(Entry::from_bits(300), None, "a bound code out of range");
        // win from -1, lose up to 0: contradicting bounds.
        assert_eq!(Entry::from_bits(128 | (129 << 9)), None);
        // The table merges what it is told about one key.
        let t = Table::with_bytes(1 << 12);
        let mut tally = Tally::default();
        let k = Key::from(9u64);
        t.store(k, w, &mut tally);
        t.store(k, l, &mut tally);
        assert_eq!(t.probe(k), Some(both));
        t.add(&mut tally);
        assert_eq!(t.stats().filled, 1);
    }
}
