//! Impartial rulesets under normal play (Cram): the outcome from nimbers.
//!
//! By Sprague and Grundy every position of an impartial game under normal
//! play equals a nim heap, its nimber, and a sum's nimber is the XOR of its
//! parts'. A position is a sum of its regions, so the question "does the
//! first player lose?" is "is the XOR of the regions' nimbers 0?". The
//! general engine searches the sum as a whole, with the small regions'
//! values as a tail; this search never does: it learns nimbers region by
//! region, and keeps them in a memo keyed by the region's shape (cropped
//! and folded by the ruleset's symmetries), so a region met again anywhere,
//! in any sum, costs a look-up.
//!
//! Nimbers are not computed whole when a yes or no will do (the method of
//! Lemoine and Viennot, "Nimbers are inevitable", 2012). The one question
//! asked of a region `C` is "is nim(C) = n?", which is the outcome of
//! `C + *n`: it is a second-player win exactly when no option of `C` has
//! nimber `n` and nim(C) is no smaller value. An option is itself a sum;
//! of its regions all but one are valued (their nimbers, by the same
//! questions, mostly answered by the memo) and the last is asked the
//! question with the XOR of the others as its target. The answer "no" is
//! remembered as well as "yes" (a set of values the nimber is not), so a
//! region asked about several targets is searched once for each.
//!
//! The memo holds whole answers only (exact boards as keys, no hashing
//! collisions), so a hit is never wrong; when it is full it drops the
//! lighter half of its entries (the smallest regions, cheapest to search
//! again: [`make_room`]) and goes on learning, slower, never wrong. (A memo
//! that stopped adding when full made the search all but memoless: Cram
//! 5 x 7 in 1 MB took 27.5 M nodes and 110 s against 0.57 M and 2.5 s
//! with room; dropping, 1.9 M and 6.5 s.) Both first players
//! share one answer, so two threads share one question: each searches the
//! whole of it, the memo shared (in shards under locks), and near the root
//! a thread puts off the options the other is searching (`SHARE_DEPTH`);
//! the first to answer stops the other. Whatever a thread adds to the memo
//! is a whole answer, so the order the threads finish in never changes an
//! answer, only which winning move is found and how many nodes it took.
//!
//! A long run keeps a checkpoint ([`solve_resumable`]): the memo, entry by
//! entry, after the common header of [`super::checkpoint`]. Its entries
//! are exact regions, so reading one back is checked beyond the checksum:
//! each key must be the key this build makes of its region, and a sample
//! of the small regions is solved again from scratch and must agree.

use std::cmp::Reverse;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use partizan_games::{col_range_mask, each_bit, Bits, Board, Player, Ruleset, Transform};
use rustc_hash::FxHashMap;

use std::path::Path;
use std::time::Duration;

use super::budget::{Budget, Searcher};
use super::checkpoint::{self, CheckpointError, Entries, Fingerprint, Saver, State};
use super::table::{TableStats, Tally};
use super::{
    Control, FirstPlayer, Resumed, SearchConfig, SearchCounts, SearchError, SearchReport,
    CHECK_EVERY, LINE_PLIES,
};
use crate::outcome::Convention;
use crate::regions::small::{self, Folder};
use crate::regions::{canonical_key, push_regions};

impl Key {
    /// The stride-8 set of a small or tall key.
    fn word(&self) -> Option<Bits> {
        match *self {
            Key::Small(m) => Some(Bits::from(m)),
            Key::Tall(m) => Some(m),
            Key::Big(_) => None,
        }
    }
}

/// What the memo knows of one region.
#[derive(Copy, Clone, Debug)]
struct Entry {
    /// Its nimber, or [`UNKNOWN`].
    nim: u8,
    /// Bit `k`: its nimber is not `k` (for `k` < 32).
    not: u32,
}

const UNKNOWN: u8 = u8::MAX;

impl Entry {
    /// The nimber, when known.
    fn nimber(&self) -> Option<u32> {
        (self.nim != UNKNOWN).then_some(u32::from(self.nim))
    }

    /// Whether it answers "is the nimber `n`?".
    fn answers(&self, n: u32) -> Option<bool> {
        if let Some(v) = self.nimber() {
            Some(v == n)
        } else if n < 32 && self.not >> n & 1 == 1 {
            Some(false)
        } else {
            None
        }
    }
}

/// A region's memo key: its stride-8 word when its crop fits 8 x 8 and the
/// ruleset's symmetries act on layer 0 alone (folded by word operations);
/// for Cram, a stride-8 double word when it fits 8 wide and 16 high in
/// some orientation ([`tall`]); else its folded board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Small(u64),
    Tall(u128),
    Big(Board),
}

/// A region of a position: its cells and its memo key.
type Part = (u32, Key);

/// One depth's options: their regions, each option's start among them, and
/// the order they are searched in.
type Pool = (Vec<Part>, Vec<usize>, Vec<usize>);

/// Shards of the memo of a search on more than one thread, each behind a
/// lock of its own, so two threads seldom want the same one at once (one
/// thread keeps one shard: the whole budget in one place).
const SHARDS: usize = 64;

/// One shard's maps: exact keys of each kind.
#[derive(Default)]
struct Maps {
    small: FxHashMap<u64, Entry>,
    tall: FxHashMap<u128, Entry>,
    big: FxHashMap<Board, Entry>,
}

impl Maps {
    fn len(&self) -> usize {
        self.small.len() + self.tall.len() + self.big.len()
    }

    /// Bytes the three maps have allocated.
    fn used(&self) -> usize {
        self.small.capacity() * entry_bytes::<u64>()
            + self.tall.capacity() * entry_bytes::<u128>()
            + self.big.capacity() * entry_bytes::<Board>()
    }
}

/// The memo: exact keys, in shards that share a byte budget equally; past
/// its share a shard adds nothing new.
struct Memo {
    shards: Box<[Mutex<Maps>]>,
    bytes: usize,
    /// Entries dropped to make room ([`make_room`]).
    dropped: AtomicU64,
}

/// Bytes per entry of a map (key, entry, control byte), over the 7/8 of
/// its buckets it fills at most.
fn entry_bytes<K>() -> usize {
    (std::mem::size_of::<(K, Entry)>() + 1) * 8 / 7 + 1
}

/// A lock taken even when a thread panicked holding it: the maps hold
/// whole answers only, and a panic happens between changes, not in one.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Memo {
    fn new(bytes: usize, shards: usize) -> Memo {
        Memo {
            shards: (0..shards.max(1)).map(|_| Mutex::default()).collect(),
            bytes,
            dropped: AtomicU64::new(0),
        }
    }

    /// The shard of `k`: a hash of its own (not the maps'), so the keys of
    /// one shard spread over its maps' buckets as well as over all of them.
    fn shard(&self, k: &Key) -> MutexGuard<'_, Maps> {
        let h = match k {
            Key::Small(m) => *m,
            Key::Tall(m) => (*m as u64) ^ ((*m >> 64) as u64).rotate_left(29),
            Key::Big(b) => {
                let mut f = rustc_hash::FxHasher::default();
                b.hash(&mut f);
                f.finish()
            }
        };
        let mixed = (h ^ h >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (u128::from(mixed) * self.shards.len() as u128) >> 64;
        lock(&self.shards[i as usize])
    }

    fn get(&self, k: &Key) -> Option<Entry> {
        let s = self.shard(k);
        match k {
            Key::Small(m) => s.small.get(m),
            Key::Tall(m) => s.tall.get(m),
            Key::Big(b) => s.big.get(b),
        }
        .copied()
    }

    fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).len()).sum()
    }

    /// Bytes the shards have allocated.
    fn used(&self) -> usize {
        self.shards.iter().map(|s| lock(s).used()).sum()
    }

    /// Record that `k`'s nimber is `v`.
    fn set_nimber(&self, k: &Key, v: u8) {
        self.update(k, |e| e.nim = v);
    }

    /// Record that `k`'s nimber is not `n` (kept for `n` < 32).
    fn exclude(&self, k: &Key, n: u32) {
        if n < 32 {
            self.update(k, |e| e.not |= 1 << n);
        }
    }

    /// Change `k`'s entry, adding it when its shard has room.
    fn update(&self, k: &Key, f: impl FnOnce(&mut Entry)) {
        let mut guard = self.shard(k);
        let s = &mut *guard;
        let (used, bytes) = (s.used(), self.bytes / self.shards.len());
        let dropped = match k {
            Key::Small(m) => upsert(&mut s.small, *m, used, bytes, f),
            Key::Tall(m) => upsert(&mut s.tall, *m, used, bytes, f),
            Key::Big(b) => upsert(&mut s.big, *b, used, bytes, f),
        };
        if dropped > 0 {
            self.dropped.fetch_add(dropped, Relaxed);
        }
    }
}

/// Plies from the root within which two threads share the work: a thread
/// there puts off, until it has tried the others, an option whose largest
/// region another thread is searching (as ABDADA does), and marks the
/// regions it searches itself. Deeper, each thread searches alone, the
/// memo shared. Cram 5 x 9 on two threads (wall seconds; one thread 64):
/// 8 plies 40, 10 plies 40, 12 plies 40, 16 plies 37, every ply 49 (the
/// marks cost more than they save).
const SHARE_DEPTH: usize = 16;

/// What the threads of one search share: the memo, the node count, the
/// budget, which regions are being searched near the root, and the flag
/// that stops the others when one has the answer.
pub(crate) struct Shared<'a> {
    memo: Memo,
    control: &'a Control<'a>,
    nodes: AtomicU64,
    start: Instant,
    last_report: AtomicU64,
    max_nodes: Option<u64>,
    threads: usize,
    busy: Mutex<Vec<Key>>,
    found: AtomicBool,
}

impl<'a> Shared<'a> {
    /// For `threads` threads, with a memo of at most `bytes`.
    pub(crate) fn new(
        bytes: usize,
        threads: usize,
        control: &'a Control<'a>,
        max_nodes: Option<u64>,
    ) -> Shared<'a> {
        Shared {
            memo: Memo::new(bytes, if threads > 1 { SHARDS } else { 1 }),
            control,
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            last_report: AtomicU64::new(0),
            max_nodes,
            threads,
            busy: Mutex::default(),
            found: AtomicBool::new(false),
        }
    }

    /// Whether another thread is searching the largest region of `parts`.
    fn busy(&self, parts: &[Part]) -> bool {
        parts
            .first()
            .is_some_and(|(_, k)| lock(&self.busy).contains(k))
    }

    /// The memo's figures with the threads' counts, in the table's terms
    /// (its capacity: entries of the small kind that fit the budget).
    fn stats(&self, counts: &SearchCounts) -> TableStats {
        TableStats {
            bytes: self.memo.bytes as u64,
            capacity: (self.memo.bytes / entry_bytes::<u64>()) as u64,
            bytes_in_use: self.memo.used() as u64,
            filled: self.memo.len() as u64,
            probes: counts.nodes,
            hits: counts.table_hits,
            stores: counts.expanded,
            replaced: self.memo.dropped.load(Relaxed),
            handicap_hits: 0,
        }
    }
}

/// Change `k`'s entry in `map`, adding it when one more entry fits: without
/// growing the map, or by doubling it within `bytes` (the maps use `used`).
fn upsert<K: std::hash::Hash + Eq + Weight>(
    map: &mut FxHashMap<K, Entry>,
    k: K,
    used: usize,
    bytes: usize,
    f: impl FnOnce(&mut Entry),
) -> u64 {
    if let Some(e) = map.get_mut(&k) {
        f(e);
        return 0;
    }
    let room = |map: &FxHashMap<K, Entry>| {
        map.len() < map.capacity()
            || used + (map.capacity().max(3) + 1) * entry_bytes::<K>() <= bytes
    };
    let mut dropped = 0;
    if !room(map) {
        dropped = make_room(map);
    }
    if room(map) {
        f(map.entry(k).or_insert(Entry {
            nim: UNKNOWN,
            not: 0,
        }));
    }
    dropped
}

/// How much a region's entry is worth keeping: its cells (a larger region
/// costs more to search again); a region too big for a word, the most.
trait Weight {
    fn weight(&self) -> u32;
}

impl Weight for u64 {
    fn weight(&self) -> u32 {
        self.count_ones()
    }
}

impl Weight for u128 {
    fn weight(&self) -> u32 {
        self.count_ones()
    }
}

impl Weight for Board {
    fn weight(&self) -> u32 {
        HEAVY
    }
}

/// The weight of a region kept as a whole board (larger than any word's).
const HEAVY: u32 = 129;

/// A full map drops the lighter half of its entries (the smallest
/// regions, cheapest to search again), so the search keeps learning where
/// it is instead of searching without a memo once the budget is spent.
/// Dropping an entry loses work, never an answer. Returns how many were
/// dropped.
fn make_room<K: Weight>(map: &mut FxHashMap<K, Entry>) -> u64 {
    let mut by_weight = [0usize; HEAVY as usize + 1];
    for k in map.keys() {
        by_weight[k.weight() as usize] += 1;
    }
    // The lightest weight `t` at which half the entries are reached: all
    // lighter entries go, and of weight `t` as many as make up the half.
    let half = map.len().div_ceil(2);
    let (mut t, mut below) = (0, 0);
    while below + by_weight[t] < half {
        below += by_weight[t];
        t += 1;
    }
    let mut more = half - below;
    let before = map.len();
    map.retain(|k, _| match k.weight().cmp(&(t as u32)) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal if more > 0 => {
            more -= 1;
            false
        }
        _ => true,
    });
    (before - map.len()) as u64
}

/// One thread of the nimber search of one board.
pub(crate) struct Nimbers<'a, R: Ruleset> {
    rules: &'a R,
    symmetry: bool,
    /// The memo, the budget and the rest the threads share.
    sh: &'a Shared<'a>,
    /// Folds small regions (`None`: the ruleset's symmetries are not
    /// geometric on layer 0).
    folder: Option<Folder>,
    /// The ruleset is Cram: small regions are expanded in stride 8
    /// ([`cram_options`]) without building boards.
    cram8: bool,
    counts: SearchCounts,
    /// Options per depth, and their regions (cells, memo key) with each
    /// option's start, reused.
    options: Vec<Vec<Board>>,
    pools: Vec<Pool>,
    masks: Vec<Bits>,
    depth: usize,
    line: [(u16, u16); LINE_PLIES],
    unflushed: u64,
    /// The checkpoint, when the search keeps one.
    saver: Option<&'a Saver<'a>>,
}

impl<'a, R: Ruleset> Nimbers<'a, R> {
    /// A thread of the search that shares `sh`.
    pub(crate) fn new(
        rules: &'a R,
        sh: &'a Shared<'a>,
        symmetry: bool,
        cram8: bool,
    ) -> Nimbers<'a, R> {
        Nimbers {
            rules,
            symmetry,
            sh,
            folder: Folder::new(rules),
            cram8,
            counts: SearchCounts::default(),
            options: Vec::new(),
            pools: Vec::new(),
            masks: Vec::new(),
            depth: 0,
            line: [(0, 0); LINE_PLIES],
            unflushed: 0,
            saver: None,
        }
    }

    /// The memo key of a region.
    fn key(&self, b: &Board) -> Key {
        // Cropped once: in stride 8 when the frame is small already.
        let (small, big) = if b.width() <= small::SIDE && b.height() <= small::SIDE {
            (small::crop_key(b), None)
        } else {
            let c = b.crop();
            (small::key(&c), Some(c))
        };
        let tall = || {
            let c = big.as_ref().filter(|_| self.cram8)?;
            tall::from_board(c, self.symmetry).map(Key::Tall)
        };
        match (self.symmetry, &self.folder, small) {
            (true, Some(f), Some(m)) => Key::Small(f.canonical(m).0),
            (false, _, Some(m)) => Key::Small(m),
            (true, _, _) => {
                tall().unwrap_or_else(|| Key::Big(canonical_key(self.rules, &big.unwrap_or(*b)).0))
            }
            (false, _, None) => tall().unwrap_or_else(|| Key::Big(big.unwrap_or_else(|| b.crop()))),
        }
    }

    /// The memo key of a Cram region given as a stride-8 set.
    fn key8(&self, r: Bits) -> Key {
        let r = tall::crop(r);
        match u64::try_from(r) {
            Ok(r) => Key::Small(match &self.folder {
                Some(f) if self.symmetry => f.canonical(r).0,
                _ => r,
            }),
            Err(_) if self.symmetry => Key::Tall(tall::least(r)),
            Err(_) => Key::Tall(r),
        }
    }

    /// The board a key stands for.
    fn board(k: &Key) -> Board {
        match k {
            Key::Small(m) => small::board(*m),
            Key::Tall(m) => tall::board(*m),
            Key::Big(b) => *b,
        }
    }

    /// Append the regions of `b` as (cells, memo key) to `out`, largest
    /// first, equal ones cancelled in pairs (a region plus its copy is 0:
    /// the second player mirrors).
    fn parts_into(&mut self, b: &Board, out: &mut Vec<Part>) {
        let from = out.len();
        self.masks.clear();
        push_regions(self.rules, b, &mut self.masks);
        for i in 0..self.masks.len() {
            let m = self.masks[i];
            out.push((m.count_ones(), self.key(&b.restrict(m))));
        }
        settle(out, from);
    }

    /// Whether the regions `parts` have nimbers whose XOR is `n`, from the
    /// memo alone (`None`: it does not know).
    fn quick(&self, parts: &[Part], n: u32) -> Option<bool> {
        let mut x = n;
        let mut unknown = None;
        for (_, c) in parts {
            let e = self.entry(c);
            match e.as_ref().and_then(Entry::nimber) {
                Some(v) => x ^= v,
                None if unknown.is_none() => unknown = Some(e),
                None => return None,
            }
        }
        match unknown {
            None => Some(x == 0),
            Some(e) => e.and_then(|e| e.answers(x)).filter(|&a| !a),
        }
    }

    fn known(&self, c: &Key) -> Option<u32> {
        self.entry(c).as_ref().and_then(Entry::nimber)
    }

    /// What the memo knows of `c`.
    fn entry(&self, c: &Key) -> Option<Entry> {
        self.sh.memo.get(c)
    }

    /// Record that `c`'s nimber is `v`.
    fn found(&mut self, c: &Key, v: u8) {
        self.sh.memo.set_nimber(c, v);
    }

    /// Whether the regions `parts` have nimbers whose XOR is `n`.
    fn sum_is(&mut self, parts: &[Part], n: u32) -> Result<bool, SearchError> {
        // Ask the question of the largest region whose nimber is unknown;
        // value the others whole.
        let ask = parts.iter().position(|(_, c)| self.known(c).is_none());
        let mut x = n;
        for (i, (_, c)) in parts.iter().enumerate() {
            if Some(i) != ask {
                x ^= self.nimber(c)?;
            }
        }
        match ask {
            Some(i) => self.is(&parts[i].1, x),
            None => Ok(x == 0),
        }
    }

    /// The nimber of one region (a memo key).
    fn nimber(&mut self, c: &Key) -> Result<u32, SearchError> {
        if let Some(v) = self.known(c) {
            return Ok(v);
        }
        let mut k = 0;
        loop {
            if self.is(c, k)? {
                return Ok(k);
            }
            k += 1;
        }
    }

    /// Whether the region `c` (a memo key) has nimber `n`.
    fn is(&mut self, c: &Key, n: u32) -> Result<bool, SearchError> {
        self.counts.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.check()?;
        }
        if let Some(a) = self.entry(c).and_then(|e| e.answers(n)) {
            self.counts.table_hits += 1;
            return Ok(a);
        }
        self.counts.expanded += 1;
        // The second player wins by the mirror strategy: nimber 0 (Cram's
        // regions in stride 8 by word operations, its bigger ones not tried).
        let mirror = match (c.word(), self.cram8) {
            (Some(m), true) => mirrored8(m),
            (None, true) => false,
            (_, false) => self.mirrored(&Self::board(c)),
        };
        if mirror {
            self.counts.by_bounds += 1;
            self.found(c, 0);
            return Ok(n == 0);
        }
        // Every option's regions, each option's from its start.
        let d = self.depth;
        while self.pools.len() <= d {
            self.pools.push((Vec::new(), Vec::new(), Vec::new()));
        }
        let (mut pool, mut starts, mut order) = std::mem::take(&mut self.pools[d]);
        pool.clear();
        starts.clear();
        match (c, c.word(), self.cram8) {
            (_, Some(m), true) => {
                cram_options(&GRID8, m, &mut pool, &mut starts, |r| self.key8(r));
            }
            (Key::Big(b), _, true) => self.cram_wide_options(b, &mut pool, &mut starts),
            _ => self.options_of(&Self::board(c), d, &mut pool, &mut starts),
        }
        starts.push(pool.len());
        // A nimber is the least value no option has: at most their number.
        if n as usize >= starts.len() {
            self.pools[d] = (pool, starts, order);
            self.counts.by_bounds += 1;
            self.sh.memo.exclude(c, n);
            return Ok(false);
        }
        // An option with nimber `n`: then not. First the options the memo
        // answers, then the others by search.
        let k = starts.len() - 1;
        let of = |i: usize| starts[i]..starts[i + 1];
        let mut hit = Ok((0..k).any(|i| self.quick(&pool[of(i)], n) == Some(true)));
        if n == 0 && self.cram8 && matches!(hit, Ok(false)) {
            // A move to a position the mirror strategy wins (the mirror
            // reply, typically): nimber 0, with no search.
            let mirror = (0..k).find(|&i| match pool[of(i)] {
                [(_, k)] => k
                    .word()
                    .is_some_and(|m| self.sh.memo.get(&k).is_none() && mirrored8(m)),
                _ => false,
            });
            if let Some(i) = mirror {
                self.counts.by_bounds += 1;
                self.found(&pool[of(i)][0].1, 0);
                hit = Ok(true);
            }
        }
        if matches!(hit, Ok(false)) {
            // Options whose largest region is smallest first, then those
            // split the most, then those whose largest region has the
            // fewest places for a domino: the cheapest to answer, and a
            // cut found there saves the rest. Nodes against the natural
            // order: Cram 5 x 7 1.44 M -> 680 K, 3 x 13 705 K -> 213 K,
            // 3 x 15 (no ordering measured) -> 563 K.
            order.clear();
            order.extend(0..k);
            order.sort_by_key(|&i| {
                let parts = &pool[of(i)];
                let largest = parts.first();
                (
                    largest.map_or(0, |p| p.0),
                    Reverse(parts.len()),
                    largest.and_then(|p| p.1.word()).map_or(0, dominoes),
                )
            });
            // Near the root with two threads this region is marked as being
            // searched, and an option whose largest region another thread
            // is searching waits for the end — except the first searched
            // (the eldest brother: it cuts more often than not, so both
            // threads go into it and split the work further down).
            let share = self.sh.threads > 1 && d <= SHARE_DEPTH;
            if share {
                lock(&self.sh.busy).push(*c);
            }
            let mut later = Vec::new();
            let mut eldest = true;
            for &i in &order {
                let parts = &pool[of(i)];
                // The memo may know more now than in the first pass.
                match self.quick(parts, n) {
                    Some(true) => {
                        hit = Ok(true);
                        break;
                    }
                    Some(false) => continue,
                    None => {}
                }
                if share && !eldest && self.sh.busy(parts) {
                    later.push(i);
                    continue;
                }
                eldest = false;
                hit = self.descend(parts, n, (i, k));
                if !matches!(hit, Ok(false)) {
                    break;
                }
            }
            for &i in &later {
                if !matches!(hit, Ok(false)) {
                    break;
                }
                hit = self.option_is(&pool[of(i)], n, (i, k));
            }
            if share {
                let mut busy = lock(&self.sh.busy);
                if let Some(at) = busy.iter().position(|b| b == c) {
                    busy.swap_remove(at);
                }
            }
        }
        self.pools[d] = (pool, starts, order);
        if hit? {
            self.sh.memo.exclude(c, n);
            return Ok(false);
        }
        // No option has nimber `n`: it is the nimber unless a smaller one is.
        for m in 0..n {
            if self.is(c, m)? {
                return Ok(false);
            }
        }
        let Ok(v) = u8::try_from(n) else {
            return Err(SearchError::Inconsistent(format!(
                "a nimber of {n}, past what the memo holds"
            )));
        };
        self.found(c, v);
        Ok(true)
    }

    /// Whether the option whose regions are `parts` has nimber `n` (the
    /// memo first, which may know more than when the options were listed);
    /// `rank`: its rank among the options, for the progress line.
    fn option_is(
        &mut self,
        parts: &[Part],
        n: u32,
        rank: (usize, usize),
    ) -> Result<bool, SearchError> {
        if let Some(a) = self.quick(parts, n) {
            return Ok(a);
        }
        self.descend(parts, n, rank)
    }

    /// [`Nimbers::option_is`] by search.
    fn descend(
        &mut self,
        parts: &[Part],
        n: u32,
        rank: (usize, usize),
    ) -> Result<bool, SearchError> {
        if self.depth < LINE_PLIES {
            self.line[self.depth] = (rank.0 as u16, rank.1 as u16);
        }
        self.depth += 1;
        let r = self.sum_is(parts, n);
        self.depth -= 1;
        r
    }

    /// The regions of every option of `board` into `pool`, each option's
    /// start in `starts`.
    fn options_of(
        &mut self,
        board: &Board,
        d: usize,
        pool: &mut Vec<Part>,
        starts: &mut Vec<usize>,
    ) {
        while self.options.len() <= d {
            self.options.push(Vec::new());
        }
        let mut opts = std::mem::take(&mut self.options[d]);
        opts.clear();
        self.rules.options(board, Player::Left, |o| opts.push(o));
        for o in &opts {
            starts.push(pool.len());
            if self.rules.may_split(board, o) {
                self.parts_into(o, pool);
            } else {
                // Still one region (the ruleset's cheap test says so).
                let cells = self.rules.cells(o).count_ones();
                if cells > 0 {
                    pool.push((cells, self.key(o)));
                }
            }
        }
        self.options[d] = opts;
    }

    /// Cram's options of a region too big for stride 8, in its own
    /// stride ([`cram_options`]).
    fn cram_wide_options(&self, b: &Board, pool: &mut Vec<Part>, starts: &mut Vec<usize>) {
        let (w, h) = (b.width(), b.height());
        let grid = Grid {
            stride: w,
            first: col_range_mask(w, h, 0, 1),
            last: col_range_mask(w, h, w - 1, w),
        };
        cram_options(&grid, b.layer(0), pool, starts, |comp| {
            self.key(&b.with_layers([comp, 0, 0]))
        });
    }

    /// The mirror strategy on one region (rulesets whose footprints are
    /// whole moves): a region kept by a geometric involution under which
    /// no footprint meets its own image is a second-player win, so its
    /// nimber is 0 (the second player answers each move by its image; see
    /// the general engine's `mirror_state` for the argument).
    fn mirrored(&self, c: &Board) -> bool {
        if !self.rules.footprints_whole() {
            return false;
        }
        let (w, h) = (c.width(), c.height());
        'sym: for s in self.rules.symmetries().iter().skip(1) {
            if s.negates || self.rules.apply(c, *s) != *c {
                continue;
            }
            let Some(perm) = super::involution(self.rules, w, h, *s) else {
                continue 'sym;
            };
            let mut apart = true;
            self.rules.footprints(c, |f| {
                if apart {
                    let img = each_bit(f).fold(0u128, |acc, b| {
                        acc | 1u128 << perm[b.trailing_zeros() as usize]
                    });
                    apart = img & f == 0;
                }
            });
            if apart {
                return true;
            }
        }
        false
    }

    /// The budget's look: stop, node limit, progress.
    fn check(&mut self) -> Result<(), SearchError> {
        let sh = self.sh;
        // The memo's share of its byte budget, counted in small entries:
        // the bytes its maps have allocated (tall and board keys are
        // larger, and a map doubles ahead of its entries), so the percent
        // the progress line shows is the memory's, not the entries'.
        let fill = (
            (sh.memo.used() / entry_bytes::<u64>()) as u64,
            (sh.memo.bytes / entry_bytes::<u64>()) as u64,
        );
        Budget {
            control: sh.control,
            table: None,
            nodes: &sh.nodes,
            start: sh.start,
            last_report: &sh.last_report,
            max_nodes: sh.max_nodes,
        }
        .check(Searcher {
            unflushed: &mut self.unflushed,
            tally: &mut Tally::default(),
            found: (sh.threads > 1).then_some(&sh.found),
            first: Player::Left,
            line: &self.line[..self.depth.min(LINE_PLIES)],
            fill,
        })?;
        if let Some(s) = self.saver {
            s.save_if_due(&sh.memo, sh.nodes.load(Relaxed))?;
        }
        Ok(())
    }

    /// The nimber of the whole board `b` (every region valued whole).
    pub(crate) fn board_nimber(&mut self, b: &Board) -> Result<u32, SearchError> {
        let mut parts = Vec::new();
        self.parts_into(b, &mut parts);
        let mut x = 0;
        for (_, c) in &parts {
            x ^= self.nimber(c)?;
        }
        Ok(x)
    }

    /// Whether the player to move at `b` wins, and a winning move (the
    /// board after it) when they do.
    pub(crate) fn outcome(&mut self, b: &Board) -> Result<(bool, Option<Board>), SearchError> {
        let mut parts = Vec::new();
        self.parts_into(b, &mut parts);
        self.depth = 1;
        let p = self.sum_is(&parts, 0);
        self.depth = 0;
        if p? {
            return Ok((false, None));
        }
        // The search above found a move to a position of nimber 0; the
        // memo knows it now, so look there first.
        let mut opts = Vec::new();
        self.rules.options(b, Player::Left, |o| opts.push(o));
        let mut of = Vec::with_capacity(opts.len());
        for o in &opts {
            parts.clear();
            self.parts_into(o, &mut parts);
            of.push(parts.clone());
        }
        if let Some(i) = (0..opts.len()).find(|&i| self.quick(&of[i], 0) == Some(true)) {
            return Ok((true, Some(opts[i])));
        }
        for (o, parts) in opts.iter().zip(&of) {
            self.depth = 1;
            let p = self.sum_is(parts, 0);
            self.depth = 0;
            if p? {
                return Ok((true, Some(*o)));
            }
        }
        Err(SearchError::Inconsistent(
            "a first-player win with no move to a second-player win".to_string(),
        ))
    }
}

/// The outcome of `board` for an impartial ruleset under normal play
/// (`None` otherwise: the general engine runs).
pub fn solve<R: Ruleset + 'static>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
) -> Option<Result<SearchReport, SearchError>> {
    if !rules.impartial() || config.convention != Convention::Normal {
        return None;
    }
    Some(run(rules, board, config, control, None).map(|(rep, _)| rep))
}

/// [`solve`] keeping a checkpoint of the memo at `file`, written every
/// `every` and when the search ends or stops; a run resumes from it with
/// every region answered before (see [`super::solve_resumable`]).
pub fn solve_resumable<R: Ruleset + 'static>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    file: &Path,
    every: Duration,
) -> Option<Result<(SearchReport, Resumed), SearchError>> {
    if !rules.impartial() || config.convention != Convention::Normal {
        return None;
    }
    Some(
        run(rules, board, config, control, Some((file, every)))
            .map(|(rep, res)| (rep, res.unwrap_or_default())),
    )
}

/// What identifies a nimber search for its checkpoint: the memo's keys
/// depend on the ruleset and the symmetry folding; the board's regions are
/// the memo's entries, so the board names the run.
pub fn fingerprint<R: Ruleset>(rules: &R, board: &Board, config: &SearchConfig) -> Fingerprint {
    Fingerprint {
        engine: ENGINE.to_string(),
        ruleset: rules.name().to_string(),
        board: rules.format(board),
        convention: Convention::Normal,
        value_cells: 0,
        symmetry: config.symmetry,
    }
}

/// The engine's name in a checkpoint, with the version of its entries'
/// layout and keys: bump it when either changes.
const ENGINE: &str = "nimbers-1";

fn run<R: Ruleset + 'static>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    resume: Option<(&Path, Duration)>,
) -> Result<(SearchReport, Option<Resumed>), SearchError> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let sh = Shared::new(config.table_bytes, threads, control, config.max_nodes);
    let cram = is_cram(rules);
    let mut resumed = None;
    let saver = match resume {
        None => None,
        Some((path, every)) => {
            let expected = fingerprint(rules, board, config);
            let (state, loaded) = read_memo(path, &expected, rules, &sh.memo, config.symmetry)?
                .unwrap_or((State::fresh(expected), 0));
            for d in [&state.left, &state.right].into_iter().flatten() {
                if let Some(m) = &d.winning_move {
                    if !super::is_option(rules, board, m) {
                        return Err(CheckpointError::Corrupt {
                            path: path.to_path_buf(),
                            why: "a winning move that is no move of the board".to_string(),
                        }
                        .into());
                    }
                }
            }
            resumed = Some(Resumed::of(path, &state, loaded));
            Some(Saver::new(path, every, state))
        }
    };
    // A checkpoint that has the answer gives it (the nimber, when asked, is
    // not kept: the search finds it on the memo the checkpoint filled).
    let decided = saver
        .as_ref()
        .and_then(|s| s.state().left.or(s.state().right))
        .filter(|_| !config.nimber);
    // Each thread searches the whole question, the memo shared; near the
    // root they take different options (SHARE_DEPTH), and the first to
    // answer stops the others.
    let search = || {
        let mut s = Nimbers::new(rules, &sh, config.symmetry, cram);
        s.saver = saver.as_ref();
        let answer = s.outcome(board).and_then(|(wins, winning_move)| {
            // The whole nimber on the same memo (0 for a second-player win).
            let nimber = match (config.nimber, wins) {
                (false, _) => None,
                (true, false) => Some(0),
                (true, true) => Some(s.board_nimber(board)?),
            };
            Ok((wins, winning_move, nimber))
        });
        sh.found.store(true, Relaxed);
        (answer, s.counts)
    };
    let ends = if let Some(d) = &decided {
        vec![(Ok((d.wins, d.winning_move, None)), d.counts)]
    } else if threads == 1 {
        vec![search()]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(search)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    let mut total = SearchCounts::default();
    let mut answer = Err(SearchError::Sibling);
    for (a, c) in ends {
        total.add(&c);
        if answer.is_err() && !matches!(a, Err(SearchError::Sibling)) {
            answer = a;
        }
    }
    if let (Some(s), Some(r)) = (&saver, &mut resumed) {
        if let Ok((wins, winning_move, _)) = &answer {
            // One answer for both first players.
            for player in [Player::Left, Player::Right] {
                s.decided(&FirstPlayer {
                    player,
                    wins: *wins,
                    winning_move: *winning_move,
                    counts: total,
                    elapsed: Duration::ZERO,
                });
            }
        }
        r.nodes_now = sh.nodes.load(Relaxed);
        // Stopped or finished: the checkpoint as of now (a failed write
        // of it outranks the stop).
        r.entries_saved = s.save(&sh.memo, r.nodes_now)?;
    }
    let (wins, winning_move, nimber) = answer?;
    let elapsed = start.elapsed();
    // One search answers both first players: its counts go to the first
    // searched, the other took no search of its own.
    let mut counts = Some(total);
    let mut side = |p: Player| {
        if !config.first.includes(p) {
            return FirstPlayer::unsearched(p);
        }
        FirstPlayer {
            player: p,
            wins,
            winning_move,
            counts: counts.take().unwrap_or_default(),
            elapsed,
        }
    };
    let left = side(Player::Left);
    let right = side(Player::Right);
    let mut cfg = *config;
    cfg.threads = threads;
    let mut rep = SearchReport::new(left, right, sh.stats(&total), cfg, elapsed);
    rep.nimber = nimber;
    Ok((rep, resumed))
}

/// Kinds of key in a checkpoint's entries.
const SMALL: u8 = 0;
const TALL: u8 = 1;
const BIG: u8 = 2;

/// The memo's entries in a checkpoint: kind u8, then the key (small: u64;
/// tall: u128; big: width u8, height u8, 3 layers u128), then the nimber u8
/// (255: unknown) and the set of values it is not, u32 (little-endian).
impl Entries for Memo {
    fn write_entries(
        &self,
        put: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<u64> {
        let mut count = 0u64;
        let mut buf = Vec::with_capacity(64);
        for shard in self.shards.iter() {
            // One shard at a time: the other thread goes on meanwhile, and
            // each entry is a whole answer whenever it is read.
            let maps = lock(shard);
            let mut one = |key: &dyn Fn(&mut Vec<u8>), e: &Entry| {
                buf.clear();
                key(&mut buf);
                buf.push(e.nim);
                buf.extend_from_slice(&e.not.to_le_bytes());
                count += 1;
                put(&buf)
            };
            for (m, e) in &maps.small {
                one(&|b| encode_key(b, &Key::Small(*m)), e)?;
            }
            for (m, e) in &maps.tall {
                one(&|b| encode_key(b, &Key::Tall(*m)), e)?;
            }
            for (m, e) in &maps.big {
                one(&|b| encode_key(b, &Key::Big(*m)), e)?;
            }
        }
        Ok(count)
    }
}

fn encode_key(b: &mut Vec<u8>, k: &Key) {
    match k {
        Key::Small(m) => {
            b.push(SMALL);
            b.extend_from_slice(&m.to_le_bytes());
        }
        Key::Tall(m) => {
            b.push(TALL);
            b.extend_from_slice(&m.to_le_bytes());
        }
        Key::Big(board) => {
            b.extend_from_slice(&[BIG, board.width() as u8, board.height() as u8]);
            for l in 0..3 {
                b.extend_from_slice(&board.layer(l).to_le_bytes());
            }
        }
    }
}

/// Entries of at most this many cells are solved again from scratch when
/// a checkpoint is read, up to [`SPOT_CHECKS`] of them, against what the
/// checkpoint says of them.
const SPOT_CELLS: u32 = 20;
const SPOT_CHECKS: usize = 64;

/// Read the checkpoint at `path` for `expected` into `memo`: its state and
/// its number of entries, or `None` when there is no file. Beyond the
/// checksum, every key must be this build's key of the region it stands
/// for and every entry self-consistent, and a sample of the small regions
/// is solved again from scratch and must agree: a file that fails is
/// refused as damaged, never believed.
fn read_memo<R: Ruleset + 'static>(
    path: &Path,
    expected: &Fingerprint,
    rules: &R,
    memo: &Memo,
    symmetry: bool,
) -> Result<Option<(State, u64)>, SearchError> {
    let control = Control::default();
    let keys = Shared::new(0, 1, &control, None);
    let keyer = Nimbers::new(rules, &keys, symmetry, is_cram(rules));
    let mut spot = Vec::new();
    let read = checkpoint::read_entries(path, expected, &mut |input, body| {
        let mut used = 0u64;
        let mut count = 0u64;
        while used < body {
            let kind = input.u8()?;
            let (k, len) = match kind {
                SMALL => (Key::Small(input.u64()?), 8),
                TALL => (Key::Tall(u128::from_le_bytes(input.bytes()?)), 16),
                BIG => {
                    let (w, h) = (input.u8()?, input.u8()?);
                    let mut layers = [0; 3];
                    for l in &mut layers {
                        *l = u128::from_le_bytes(input.bytes()?);
                    }
                    let b = Board::new(usize::from(w), usize::from(h), layers)
                        .map_err(|e| format!("a region that is no board: {e}"))?;
                    (Key::Big(b), 50)
                }
                k => return Err(format!("key kind {k}")),
            };
            let e = Entry {
                nim: input.u8()?,
                not: input.u32()?,
            };
            used += 1 + len + 5;
            count += 1;
            let region = Nimbers::<R>::board(&k);
            if keyer.key(&region) != k {
                return Err(format!(
                    "{} is not this build's key of its region",
                    rules.format(&region)
                ));
            }
            if let Some(v) = e.nimber() {
                if v < 32 && e.not >> v & 1 == 1 {
                    return Err(format!(
                        "{} has nimber {v} and not {v}",
                        rules.format(&region)
                    ));
                }
            }
            if spot.len() < SPOT_CHECKS && rules.cells(&region).count_ones() <= SPOT_CELLS {
                spot.push((k, e));
            }
            memo.update(&k, |m| *m = e);
        }
        if used != body {
            return Err("the entries end inside an entry".to_string());
        }
        Ok(count)
    })?;
    for (k, e) in spot {
        // On a memo of its own, so nothing read is used.
        let fresh = Shared::new(4 << 20, 1, &control, Some(1 << 20));
        let v = match Nimbers::new(rules, &fresh, symmetry, is_cram(rules)).nimber(&k) {
            Ok(v) => v,
            Err(SearchError::Budget(_)) => continue,
            Err(e) => return Err(e),
        };
        let says_not = v < 32 && e.not >> v & 1 == 1;
        if e.nimber().is_some_and(|n| n != v) || says_not {
            return Err(CheckpointError::Corrupt {
                path: path.to_path_buf(),
                why: format!(
                    "it says {} of {}, whose nimber is {v}",
                    match e.nimber() {
                        Some(n) => format!("nimber {n}"),
                        None => format!("not nimber {v}"),
                    },
                    rules.format(&Nimbers::<R>::board(&k))
                ),
            }
            .into());
        }
    }
    Ok(read)
}

/// Whether the ruleset is Cram (whose small regions take [`cram_options`] in stride 8).
fn is_cram<R: Ruleset + 'static>(rules: &R) -> bool {
    let me: &dyn std::any::Any = rules;
    me.is::<partizan_games::Cram>()
}

/// The nimber of `board` under an impartial ruleset (normal play), by the
/// same search, with a memo of at most `bytes`; `fast`: Cram's small
/// regions in stride 8 (else the ruleset's own moves and regions
/// throughout, the twin).
pub fn nimber<R: Ruleset + 'static>(
    rules: &R,
    board: &Board,
    bytes: usize,
    fast: bool,
    control: &Control<'_>,
) -> Result<u32, SearchError> {
    if !rules.impartial() {
        return Err(SearchError::Inconsistent(format!(
            "{} is not impartial: its positions have no nimbers",
            rules.name()
        )));
    }
    let sh = Shared::new(bytes, 1, control, None);
    Nimbers::new(rules, &sh, true, fast && is_cram(rules)).board_nimber(board)
}

/// Order the regions `parts[from..]` largest first, equal ones side by
/// side, and cancel equal ones in pairs (a region plus its copy is 0: the
/// second player mirrors).
fn settle(parts: &mut Vec<Part>, from: usize) {
    let p = &mut parts[from..];
    p.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut kept = 0;
    for i in 0..p.len() {
        if kept > 0 && p[kept - 1] == p[i] {
            kept -= 1;
        } else {
            p[kept] = p[i];
            kept += 1;
        }
    }
    parts.truncate(from + kept);
}

/// The mirror strategy on a Cram region in stride 8 (cropped, up to 16
/// rows): kept by an involution of its rectangle under which no domino
/// meets its own image (holds a cell the involution fixes, or is swapped
/// with itself), so the second player wins by answering each move with its
/// image ([`Nimbers::mirrored`] for any ruleset, by its symmetries).
fn mirrored8(m: u128) -> bool {
    let (w, h) = tall::dims(m);
    let [horizontal, vertical] = domino_starts(m);
    for t in [
        Transform::FlipRows,
        Transform::FlipCols,
        Transform::Rot180,
        Transform::Transpose,
        Transform::AntiTranspose,
    ] {
        let square = matches!(t, Transform::Transpose | Transform::AntiTranspose);
        if (square && w != h) || tall::transform(m, w, h, t) != m {
            continue;
        }
        let image = |i: u32| {
            let (r, c) = (i as usize / 8, i as usize % 8);
            let (r, c) = match t {
                Transform::FlipRows => (h - 1 - r, c),
                Transform::FlipCols => (r, w - 1 - c),
                Transform::Rot180 => (h - 1 - r, w - 1 - c),
                Transform::Transpose => (c, r),
                _ => (w - 1 - c, h - 1 - r),
            };
            (r * 8 + c) as u32
        };
        let meets = |a: u32, b: u32| image(a) == a || image(b) == b || image(a) == b;
        let mut apart = true;
        for (firsts, step) in [(horizontal, 1), (vertical, 8)] {
            let mut at = firsts;
            while apart && at != 0 {
                let a = at.trailing_zeros();
                at &= at - 1;
                apart = !meets(a, a + step);
            }
        }
        if apart {
            return true;
        }
    }
    false
}

/// The first cells of the horizontal and of the vertical dominoes that fit
/// a stride-8 set.
fn domino_starts(m: Bits) -> [Bits; 2] {
    [m & (m >> 1) & !COL7, m & (m >> 8)]
}

/// The places for a domino in a stride-8 set (a region's mobility).
fn dominoes(m: Bits) -> u32 {
    domino_starts(m).iter().map(|s| s.count_ones()).sum()
}

/// Column 0 and column 7 of a stride-8 set of 16 rows.
const COL0: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
const COL7: u128 = COL0 << 7;

/// A rectangle's row stride and its first and last columns.
struct Grid {
    stride: usize,
    first: Bits,
    last: Bits,
}

impl Grid {
    /// The cells whose neighbour on the left, on the right, above and
    /// below is in `x` (in that order; cells outside the grid's columns
    /// never count).
    fn with_neighbour(&self, x: Bits) -> [Bits; 4] {
        let w = self.stride;
        [
            (x << 1) & !self.first,
            (x >> 1) & !self.last,
            x << w,
            x >> w,
        ]
    }

    /// The cells next to some cell of `x`.
    fn beside(&self, x: Bits) -> Bits {
        self.with_neighbour(x).iter().fold(0, |acc, n| acc | n)
    }
}

/// Stride 8 (small regions, in [`Key::Small`]'s layout).
const GRID8: Grid = Grid {
    stride: 8,
    first: COL0,
    last: COL7,
};

/// Cram's options of the region `m` (in `grid`'s stride), as
/// [`Nimbers::options_of`] gives them: each option's regions (cells and
/// `key`; regions where no domino fits are left out, as their nimber is 0,
/// and equal ones cancelled in pairs) after its start in `starts`. The
/// general path is its twin (`fast_and_general_nimbers_are_the_canonical_forms`).
fn cram_options(
    grid: &Grid,
    m: Bits,
    pool: &mut Vec<Part>,
    starts: &mut Vec<usize>,
    key: impl Fn(Bits) -> Key,
) {
    let (w, last) = (grid.stride, grid.last);
    let horizontal = m & (m >> 1) & !last & !twins(grid, m);
    let vertical = m & (m >> w);
    for (firsts, step) in [(horizontal, 1), (vertical, w)] {
        let mut at = firsts;
        while at != 0 {
            let t = at & at.wrapping_neg();
            at ^= t;
            starts.push(pool.len());
            let from = pool.len();
            let mut rest = reduced(grid, m & !(t | t << step));
            while rest != 0 {
                let mut comp = rest & rest.wrapping_neg();
                loop {
                    let grown = comp | (grid.beside(comp) & rest);
                    if grown == comp {
                        break;
                    }
                    comp = grown;
                }
                rest &= !comp;
                if comp & ((comp >> 1) & !last | comp >> w) != 0 {
                    pool.push((comp.count_ones(), key(comp)));
                }
            }
            settle(pool, from);
        }
    }
}

/// The first cells of horizontal dominoes in `m` (in `grid`'s stride)
/// whose option equals the option of an upright domino, so they need no
/// search (Beling's solver `igs` leaves them out too). In a 2 x 2 block of
/// free cells whose top-left cell has no free cell left of it or above it
/// and whose bottom-right cell none right of it or below it, the top
/// domino leaves the bottom-right cell a dead end on the bottom-left one,
/// and the right-hand upright domino leaves the top-left cell a dead end
/// on the same cell, with the rest of the board the same: one position up
/// to the dead end's place, so one nimber; likewise the bottom domino and
/// the left-hand upright one. The same with the diagonal mirrored. Twins:
/// the search's proptests against the canonical forms.
fn twins(grid: &Grid, m: Bits) -> Bits {
    let w = grid.stride;
    let [has_left, has_right, has_above, has_below] = grid.with_neighbour(m);
    // Free cells open one way and shut the other, along a row or a column.
    let open_right = m & has_right & !has_left;
    let open_left = m & has_left & !has_right;
    let open_below = has_below & !has_above;
    let open_above = has_above & !has_below;
    // The bottom-left cell of each such block: its top-left shut left and
    // above and bottom-right shut right and below, or (mirrored) its
    // top-right shut right and above and bottom-left shut left and below.
    let shut_main = ((open_right & open_below) << w) & ((open_left & open_above) >> 1);
    let shut_anti = ((open_left & open_below) << (w - 1)) & open_right & open_above;
    let bottom = shut_main | shut_anti;
    bottom | bottom >> w
}

/// A Cram position with the same nimber and no more cells (Beling's
/// reduction, as his solver `igs` makes it): of the dead ends (cells with
/// one neighbour) that share their neighbour, one stays — a domino on any
/// of them leaves the same position, the others dead — and a cell that is
/// neither a dead end nor next to one goes when every neighbour it has is
/// next to a dead end (an isolated cell among them). The brute-force twin
/// is `reduction_keeps_the_nimber`; the search's twins see it through every
/// option.
fn reduced(grid: &Grid, p: Bits) -> Bits {
    let w = grid.stride;
    // Cells of `p` whose neighbour that way is in `p`.
    let [left, right, up, down] = grid.with_neighbour(p).map(|n| p & n);
    let odd = left ^ right ^ up ^ down;
    let pairs = (left & (right | up | down)) | (right & (up | down)) | (up & down);
    let ends = odd & !pairs;
    // The neighbours of the dead ends, one direction after another (ends
    // above their neighbour, then left of it, below it, right of it): an
    // end whose neighbour was met already goes.
    let mut hubs = (ends & down) << w;
    let at = (ends & right) << 1;
    let mut out = p & !((hubs & at) >> 1);
    hubs |= at;
    let at = (ends & up) >> w;
    out &= !((hubs & at) << w);
    hubs |= at;
    let at = (ends & left) >> 1;
    out &= !((hubs & at) << 1);
    hubs |= at;
    let rest = p & !(ends | hubs);
    out & !(rest & !grid.beside(rest))
}

/// Cram regions up to 8 cells wide and 16 high in stride 8, as one
/// [`Bits`] word (row `r`, column `c` at bit `8r + c`): the layout of
/// [`small`] with twice the rows, so regions such as 5 x 9 or 3 x 13 are
/// keyed, folded and expanded by word operations rather than as boards.
/// A tall region (more than 8 rows) is keyed upright: its four images that
/// keep it upright are the candidates, the least is the key (the
/// transposed images are wider than 8, and a region wider than high is
/// transposed first).
mod tall {
    use partizan_games::{Bits, Board};

    use crate::regions::small;

    /// Largest height of a tall set.
    pub(super) const ROWS: usize = 16;

    /// The union of the rows (the occupied columns).
    fn columns(m: Bits) -> Bits {
        let f = m | (m >> 64);
        let f = f | (f >> 32);
        let f = f | (f >> 16);
        (f | (f >> 8)) & 0xff
    }

    /// Width and height of the bounding box of a cropped set.
    pub(super) fn dims(m: Bits) -> (usize, usize) {
        if m == 0 {
            return (0, 0);
        }
        let w = 128 - columns(m).leading_zeros() as usize;
        let h = (128 - m.leading_zeros() as usize).div_ceil(8);
        (w, h)
    }

    /// Shift a set to the top-left corner.
    pub(super) fn crop(m: Bits) -> Bits {
        if m == 0 {
            return 0;
        }
        let top = m.trailing_zeros() & !7;
        let left = columns(m).trailing_zeros();
        m >> (top + left)
    }

    fn flip_rows(m: Bits, h: usize) -> Bits {
        m.swap_bytes() >> (8 * (ROWS - h))
    }

    fn flip_cols(m: Bits, w: usize) -> Bits {
        m.reverse_bits().swap_bytes() >> (8 - w)
    }

    /// The image of a cropped `w` x `h` set under `t` (a transposing `t`
    /// only when the set is square, hence small).
    pub(super) fn transform(m: Bits, w: usize, h: usize, t: partizan_games::Transform) -> Bits {
        let (fr, fc, tr) = t.parts();
        if tr {
            debug_assert!(w == h && h <= small::SIDE);
            return Bits::from(small::transform(m as u64, w, h, t));
        }
        let m = if fc { flip_cols(m, w) } else { m };
        if fr {
            flip_rows(m, h)
        } else {
            m
        }
    }

    /// The least of the four upright images of a cropped set.
    pub(super) fn least(m: Bits) -> Bits {
        let (w, h) = dims(m);
        let c = flip_cols(m, w);
        m.min(flip_rows(m, h)).min(c).min(flip_rows(c, h))
    }

    /// The tall key of a cropped layer-0 board more than 8 cells wide or
    /// high, when it fits (upright, or transposed when `fold`); folded
    /// when `fold`.
    pub(super) fn from_board(c: &Board, fold: bool) -> Option<Bits> {
        if c.layer(1) != 0 || c.layer(2) != 0 {
            return None;
        }
        let (w, h, l) = (c.width(), c.height(), c.layer(0));
        let m = if w <= small::SIDE && h <= ROWS {
            let row: Bits = (1 << w) - 1;
            (0..h).fold(0, |m, r| m | ((l >> (r * w)) & row) << (8 * r))
        } else if fold && h <= small::SIDE && w <= ROWS {
            let mut m = 0;
            let mut at = l;
            while at != 0 {
                let i = at.trailing_zeros() as usize;
                at &= at - 1;
                m |= 1 << ((i % w) * 8 + i / w);
            }
            m
        } else {
            return None;
        };
        Some(if fold { least(m) } else { m })
    }

    /// The board a tall set stands for.
    pub(super) fn board(m: Bits) -> Board {
        let (w, h) = dims(m);
        if w == 0 {
            return Board::EMPTY;
        }
        let l = (0..h).fold(0, |l, r| l | ((m >> (8 * r)) & 0xff) << (r * w));
        Board::new(w, h, [l, 0, 0]).expect("a tall key fits its box")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::Cram;

    /// Cram's nimber of a stride-8 set by the definition (every domino,
    /// the least value no option has), memoised: the reduction's twin.
    fn brute(p: u64, memo: &mut FxHashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&p) {
            return v;
        }
        let [h, v] = domino_starts(Bits::from(p));
        let mut seen = 0u64;
        for (firsts, step) in [(h as u64, 1), (v as u64, 8)] {
            let mut at = firsts;
            while at != 0 {
                let t = at & at.wrapping_neg();
                at ^= t;
                seen |= 1 << brute(p & !(t | t << step), memo);
            }
        }
        let v = (!seen).trailing_zeros();
        memo.insert(p, v);
        v
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Beling's reduction keeps the nimber of sets of up to 5 x 6
        /// cells (dense and sparse ones) and removes only cells of the set.
        #[test]
        fn reduction_keeps_the_nimber(bits: u64, holes: u64, w in 1usize..=6, h in 1usize..=5) {
            let mut p = 0u64;
            for r in 0..h {
                for c in 0..w {
                    let i = r * w + c;
                    if bits >> i & 1 == 1 || (holes >> i & 1 == 1 && i % 3 == 0) {
                        p |= 1 << (8 * r + c);
                    }
                }
            }
            let q = u64::try_from(reduced(&GRID8, Bits::from(p))).unwrap();
            proptest::prop_assert_eq!(q & !p, 0);
            let mut memo = FxHashMap::default();
            proptest::prop_assert_eq!(brute(p, &mut memo), brute(q, &mut memo), "{:#x} -> {:#x}", p, q);
        }
    }

    /// The reduction on shapes whose answer is known: three dead ends on
    /// one cell (a T of four) keep one; a path of five (ends, hubs and the
    /// middle cell that touches hubs only) loses its middle; a 2 x 2
    /// square stays whole.
    #[test]
    fn reduction_on_known_shapes() {
        let r = |p: u64| u64::try_from(reduced(&GRID8, Bits::from(p))).unwrap();
        assert_eq!(r(0b111 | 0b010 << 8), 0b011);
        assert_eq!(r(0b11111), 0b11011);
        assert_eq!(r(0b11 | 0b11 << 8), 0b11 | 0b11 << 8);
        assert_eq!(r(0), 0);
        assert_eq!(r(0b101), 0, "isolated cells go");
    }

    /// The layout of the memo's checkpoint entries, pinned: if this
    /// fails, the layout changed; bump [`ENGINE`].
    #[test]
    fn the_entry_layout_is_pinned() {
        let mut b = Vec::new();
        encode_key(&mut b, &Key::Small(0x0302));
        assert_eq!(b, [0, 2, 3, 0, 0, 0, 0, 0, 0]);
        b.clear();
        encode_key(&mut b, &Key::Tall(1 << 64 | 7));
        let mut want = vec![1, 7, 0, 0, 0, 0, 0, 0, 0, 1];
        want.extend([0; 7]);
        assert_eq!(b, want);
        b.clear();
        let board = Board::new(2, 1, [0b11, 0, 0]).unwrap();
        encode_key(&mut b, &Key::Big(board));
        assert_eq!(b.len(), 51);
        assert_eq!(b[..4], [2, 2, 1, 0b11]);
        assert!(b[4..].iter().all(|&x| x == 0));
        assert_eq!(ENGINE, "nimbers-1");
    }

    /// A checkpoint at `path` holding `entries` (whole and checksummed),
    /// read back for Cram.
    fn read_back(
        path: &Path,
        entries: &[(Key, Entry)],
    ) -> Result<Option<(State, u64)>, SearchError> {
        let control = Control::default();
        let memo = Memo::new(1 << 20, 1);
        for (k, e) in entries {
            memo.update(k, |m| *m = *e);
        }
        let mut cfg = SearchConfig::for_ruleset(&Cram, Convention::Normal);
        cfg.symmetry = true;
        let b = Cram.parse("..|..").unwrap();
        let fp = fingerprint(&Cram, &b, &cfg);
        checkpoint::write_entries(path, &State::fresh(fp.clone()), &memo).unwrap();
        let sh = Shared::new(1 << 20, 1, &control, None);
        read_memo(path, &fp, &Cram, &sh.memo, true)
    }

    fn refused(r: Result<Option<(State, u64)>, SearchError>, why: &str) {
        match r {
            Err(SearchError::Checkpoint(e @ CheckpointError::Corrupt { .. })) => {
                assert!(e.to_string().contains(why), "{e}");
            }
            other => panic!("believed: {other:?}"),
        }
    }

    #[test]
    fn entries_that_lie_are_refused_though_the_checksum_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.ckpt");
        let control = Control::default();
        let sh = Shared::new(0, 1, &control, None);
        let keyer = Nimbers::new(&Cram, &sh, true, true);
        // A domino's place has nimber 1; a 2 x 2 square 0 (the mirror).
        let domino = keyer.key(&Cram.parse("..").unwrap());
        let square = keyer.key(&Cram.parse("..|..").unwrap());
        let honest = [
            (domino, Entry { nim: 1, not: 1 }),
            (square, Entry { nim: 0, not: 2 }),
        ];
        let (_, n) = read_back(&path, &honest).unwrap().unwrap();
        assert_eq!(n, 2);
        // A wrong nimber, and a wrong "not".
        refused(
            read_back(&path, &[honest[1], (domino, Entry { nim: 0, not: 0 })]),
            "whose nimber is 1",
        );
        refused(
            read_back(
                &path,
                &[(
                    square,
                    Entry {
                        nim: UNKNOWN,
                        not: 1,
                    },
                )],
            ),
            "whose nimber is 0",
        );
        // An entry at odds with itself.
        refused(
            read_back(&path, &[(domino, Entry { nim: 1, not: 2 })]),
            "has nimber 1 and not 1",
        );
        // A key this build would never make: an L tromino not folded.
        let ls = [0b11 | 1 << 8, 0b11 | 1 << 9, 1 | 3 << 8, 2 | 3 << 8];
        let unfolded = ls
            .into_iter()
            .map(Key::Small)
            .find(|k| keyer.key(&Nimbers::<Cram>::board(k)) != *k)
            .expect("an L tromino has more than one image");
        refused(
            read_back(&path, &[(unfolded, Entry { nim: 1, not: 0 })]),
            "not this build's key",
        );
    }
}
