//! Marks of the positions near the root that threads are searching now,
//! shared by the general engine and Domineering's own search.

use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize,
    Ordering::{Acquire, Relaxed},
};

/// How deep below the root a node is marked while a thread searches it,
/// and its busy children put off (see [`Busy`]; a mark costs two atomic
/// writes a searched node, on cache lines the other threads read). Two
/// threads, nine Domineering searches of 0.8 to 7 s (8 x 8, 7 x 9 and
/// random 7 x 9 to 9 x 9 boards with holes): 88.4 M nodes in all with
/// marks to 16, 32 or 64 plies alike (108.2 M without marks; one thread
/// 84.0 M). Marks to 8 plies keep the trees as small (8 x 8 Left first
/// 2.24 M nodes at 8 and at 32; 4 plies 2.25 M, none 2.31 M) and take
/// 0.95x the time of marks to 32 on each of four boards (8 x 8, 7 x 9 and
/// two random boards with holes; best of three in turn, session 31).
pub(crate) const BUSY_DEPTH: usize = 8;

/// The positions near the root that some thread is searching now, one
/// mark a slot (a mark that finds its slot taken is not made). A thread
/// that is about to search a child another thread is searching puts it off
/// to the end of its node's moves (the ABDADA idea): meanwhile the other
/// thread's answer reaches the table, and the two threads search apart
/// rather than the same subtree twice. Only the order of the moves
/// changes, never what a node is found to be.
pub(crate) struct Busy {
    marks: Box<[AtomicU64]>,
}

impl Busy {
    /// Slots: room for the lines of [`BUSY_DEPTH`] nodes of hundreds of
    /// threads.
    const SLOTS: usize = 1 << 14;

    pub(crate) fn new() -> Busy {
        Busy {
            marks: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The mark of a position by its 128-bit hash `h`, with `salt` (the
    /// mover, where the hash leaves it out) mixed in; never 0, the empty
    /// slot.
    pub(crate) fn mark(h: u128, salt: u64) -> u64 {
        ((h as u64) ^ ((h >> 64) as u64) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.marks[(mark >> 32) as usize & (Self::SLOTS - 1)]
    }

    /// Mark a position as searched now: whether this thread made the mark
    /// (and must [`Busy::leave`] it).
    pub(crate) fn enter(&self, mark: u64) -> bool {
        self.slot(mark)
            .compare_exchange(0, mark, Relaxed, Relaxed)
            .is_ok()
    }

    pub(crate) fn leave(&self, mark: u64) {
        self.slot(mark).store(0, Relaxed);
    }

    pub(crate) fn busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Relaxed) == mark
    }
}

/// Of a first move's replies, each (finished, threads searching it now):
/// the unfinished one the fewest threads are searching, for a free thread
/// to help (`None`: all finished).
pub(crate) fn least_helped<'a>(
    replies: impl Iterator<Item = (&'a AtomicBool, &'a AtomicUsize)>,
) -> Option<usize> {
    replies
        .enumerate()
        .filter(|(_, (finished, _))| !finished.load(Acquire))
        .min_by_key(|(_, (_, searching))| searching.load(Relaxed))
        .map(|(k, _)| k)
}
