//! The tree of numerical semigroups, walked depth first.
//!
//! Every numerical semigroup `S` other than the naturals has exactly one
//! parent, `S ∪ {F(S)}`; so the children of `S` are `S \ {x}` for the minimal
//! generators `x` larger than the Frobenius number, and the semigroups of
//! genus `g` are the nodes at depth `g`.
//!
//! # Representation: bit-sliced decomposition numbers
//!
//! Following Fromentin and Hivert, a node carries its *decomposition
//! numbers*: `d[y]` is the number of unordered pairs `{a, y - a}` of elements
//! adding up to `y` (with `0 + y` counted). Gaps have `d = 0`, minimal
//! generators `d = 1`, and removing a generator `x` lowers `d[y]` by one
//! exactly where `y - x` is an element. Instead of a byte per number (and
//! SIMD byte lanes), the counters are *bit-sliced*: plane `j` holds bit `j`
//! of every `d[y]` for `y < 128`, so
//!
//! * a child is `planes - ((S << x) as a 0/1 vector)`: one 128-bit shift and
//!   a borrow chain of one XOR and one AND-NOT per plane;
//! * the minimal generators are `plane0 & !plane1 & !(planes 2..)`, masked to
//!   the window `[c, c + m)`, so the children are the set bits of one word.
//!
//! Six planes suffice: walking from `<2,3>`, every `d[y]` with `y < 128` is
//! at most 63. Only numbers below `2G` matter to a walk to genus `G`
//! (a child of a genus-`g` node has Frobenius number at most `2g + 1`), so a
//! 128-bit plane serves every genus up to 64.
//!
//! # The last levels: light nodes and a closed form
//!
//! Let `S` be non-ordinary with multiplicity `m`, and `x` one of its `k`
//! generators in the window. The child `S \ {x}` keeps every generator of
//! `S` above `x` and gains exactly one more, `x + m`, when `d[x + m] = 2`
//! (every other decomposition lost is of a number `x + s` with `0 < s < m`,
//! a gap). So a node two levels above the target has `k` children and
//! `k(k-1)/2 + |(gens << m) & eq2|` grandchildren: the last two levels are
//! never built.
//!
//! A node `r` levels above the target only needs to know which numbers have
//! exactly `2..=r` decompositions (a larger count cannot fall to 1 in time),
//! so the last eight levels of non-ordinary nodes are walked in a *light*
//! one-hot form: masks `eq2..eq8`, the generators and the set. A light child
//! is a handful of ANDs and ORs with the shift `S << x`
//! (`eq_j' = eq_j & !(S << x) | eq_{j+1} & (S << x)`). Every number a light
//! descendant reads lies between the light root's conductor and `2G`, so for
//! `G <= 59` the light walk runs on `u64` words re-based at that conductor.
//! More than 98% of the nodes are light or never built; ordinary
//! semigroups (where removing `m` changes the multiplicity) are expanded
//! normally.
//!
//! The heavy part recurses (depth at most 64, no allocation). In parallel
//! ([`count_by_genus_on`]) the threads share work on demand: nodes at least
//! [`SPLIT_DEPTH`] levels above the target sit on an explicit stack, and
//! when a thread runs dry the next busy thread to reach such a node hands
//! it the remaining children of its oldest unfinished node. (The earlier
//! fixed split, rayon tasks for every node more than 18 levels up, left one
//! thread with nearly all the work at genus 42.)

use crate::error::SemigroupError;
use crate::semigroup::{Semigroup, MAX_GENUS};

/// Number of bit planes of the decomposition counters (values up to 63).
const PLANES: usize = 6;

/// The largest genus [`count_by_genus`] accepts.
pub const MAX_TREE_GENUS: u32 = MAX_GENUS;

/// The published numbers of numerical semigroups by genus (OEIS A007323),
/// genus 0 to 45, used by tests and benchmarks (41 to 45 as in Fromentin
/// and Hivert's table, `src/Sizes` of github.com/hivert/NumericMonoid).
pub const A007323: [u64; 46] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396, 62194, 103246, 170963, 282828, 467224, 770832, 1270267, 2091030, 3437839, 5646773,
    9266788, 15195070, 24896206, 40761087, 66687201, 109032500, 178158289, 290939807, 474851445,
    774614284, 1262992840, 2058356522, 3353191846, 5460401576, 8888486816,
];

/// A node of the walk: decomposition numbers, bit-sliced, plus the set.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Plane `j` holds bit `j` of `d[y]` at bit `y`.
    planes: [u128; PLANES],
    /// Bit `y` set when `y` is an element (`y < 128`).
    members: u128,
    /// `F + 1`.
    conductor: u32,
    /// The least positive element.
    multiplicity: u32,
}

impl Node {
    /// The node of a semigroup, with its decomposition numbers computed
    /// directly (used only at the start of a walk).
    fn new(s: Semigroup) -> Node {
        let members = !s.gap_mask();
        let mut planes = [0u128; PLANES];
        for y in 0..128u32 {
            if members & (1u128 << y) == 0 {
                continue;
            }
            let d = (0..=y / 2)
                .filter(|&a| members & (1u128 << a) != 0 && members & (1u128 << (y - a)) != 0)
                .count() as u32;
            let d = d.min((1 << PLANES) - 1);
            for (j, plane) in planes.iter_mut().enumerate() {
                if d >> j & 1 == 1 {
                    *plane |= 1u128 << y;
                }
            }
        }
        Node {
            planes,
            members,
            conductor: s.conductor().max(1),
            multiplicity: s.multiplicity(),
        }
    }

    #[inline(always)]
    fn high(&self) -> u128 {
        let mut hi = 0;
        for p in &self.planes[2..] {
            hi |= *p;
        }
        hi
    }

    /// The minimal generators in the window `[c, c + m)`.
    #[inline(always)]
    fn generators(&self, hi: u128) -> u128 {
        let eq1 = self.planes[0] & !self.planes[1] & !hi;
        eq1 & window(self.conductor, self.multiplicity)
    }

    #[inline(always)]
    fn is_ordinary(&self) -> bool {
        self.conductor == self.multiplicity
    }

    /// The child `S \ {x}` for a generator `x > F`.
    #[inline(always)]
    fn remove(&self, x: u32) -> Node {
        let mut borrow = self.members << x;
        let mut planes = self.planes;
        for p in &mut planes {
            let old = *p;
            *p = old ^ borrow;
            borrow &= !old;
        }
        Node {
            planes,
            members: self.members & !(1u128 << x),
            conductor: x + 1,
            multiplicity: if x == self.multiplicity {
                x + 1
            } else {
                self.multiplicity
            },
        }
    }

    /// The semigroup of the node.
    #[inline]
    fn semigroup(&self) -> Semigroup {
        let below = if self.conductor >= 128 {
            u128::MAX
        } else {
            (1u128 << self.conductor) - 1
        };
        Semigroup::from_mask_trusted(!self.members & below & !1)
    }
}

/// The bits `[start, start + len)` of a 128-bit word.
#[inline(always)]
fn window(start: u32, len: u32) -> u128 {
    if start >= 128 {
        return 0;
    }
    let ones = if len >= 128 {
        u128::MAX
    } else {
        (1u128 << len) - 1
    };
    ones << start
}

/// Per-genus counts, indexed by genus.
type Counts = [u64; MAX_TREE_GENUS as usize + 1];

/// Non-ordinary nodes at most `LIGHT + 1` levels above the target are
/// walked in the light one-hot form instead of the bit-sliced one.
const LIGHT: u32 = 7;

/// A depth-first counting walk to a fixed genus.
struct Counter {
    target: u32,
    counts: Counts,
}

impl Counter {
    fn new(target: u32) -> Counter {
        Counter {
            target,
            counts: [0; MAX_TREE_GENUS as usize + 1],
        }
    }

    /// Counts `node` (of genus `genus`) and its descendants up to the target.
    fn walk(&mut self, node: &Node, genus: u32) {
        self.counts[genus as usize] += 1;
        let rem = self.target - genus;
        if rem == 0 {
            return;
        }
        let hi = node.high();
        let gens = node.generators(hi);
        if rem == 1 {
            self.counts[self.target as usize] += u64::from(gens.count_ones());
            return;
        }
        if rem <= LIGHT + 1 && !node.is_ordinary() {
            let g = genus as usize + 1;
            let out = &mut self.counts[g..g + rem as usize];
            let base = node.conductor;
            if 2 * self.target <= base + u64::BITS {
                Light::<u64>::of(node, gens, base).levels(rem, base, out);
            } else {
                Light::<u128>::of(node, gens, 0).levels(rem, 0, out);
            }
            return;
        }
        let mut rest = gens;
        while rest != 0 {
            let x = rest.trailing_zeros();
            rest &= rest - 1;
            let child = node.remove(x);
            self.walk(&child, genus + 1);
        }
    }
}

/// The machine word a light node is kept in: `u64` when the numbers that
/// still matter fit a 64-bit window, `u128` otherwise.
trait Word:
    Copy
    + PartialEq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// The low bits of a 128-bit word shifted right by `base`.
    fn window_of(v: u128, base: u32) -> Self;
    fn ones(self) -> u32;
    fn trailing(self) -> u32;
    fn lowest(self) -> Self;
    /// `self << n`, or zero when `n` is past the end.
    fn shl(self, n: u32) -> Self;
    /// Bit `n`, or zero when `n` is past the end.
    fn bit(n: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn window_of(v: u128, base: u32) -> Self {
                (v >> base) as $t
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn trailing(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn bit(n: u32) -> Self {
                (1 as $t).checked_shl(n).unwrap_or(0)
            }
        }
    };
}
word!(u64);
word!(u128);

/// A non-ordinary node in one-hot form: `eq[j]` marks the numbers with
/// exactly `j + 2` decompositions. A node `r` levels above the target only
/// needs counts up to `r` (larger ones cannot fall to 1 in time), and its
/// generators, which for a child `S \ {x}` are the generators above `x`
/// plus `x + m` when `d[x + m] = 2`.
///
/// Positions are relative to a `base` no larger than the conductor of the
/// node the light walk started from: every number a descendant reads is at
/// least that conductor and below `2G`, so when `2G - base <= 64` the whole
/// light walk runs on `u64` words. `members` keeps the elements themselves
/// (not re-based): they are the shifts `S + x`.
#[derive(Clone, Copy)]
struct Light<W: Word> {
    eq: [W; LIGHT as usize],
    gens: W,
    k: u64,
    members: W,
    m: u32,
}

impl<W: Word> Light<W> {
    #[inline(always)]
    fn of(node: &Node, gens: u128, base: u32) -> Light<W> {
        let [p0, p1, p2, p3, p4, p5] = node.planes;
        let low = !(p4 | p5);
        let (n0, n1, n2, n3) = (!p0, !p1, !p2, !p3);
        // eq[j] marks d = j + 2, for d = 2..=8.
        let eq = [
            n0 & p1 & n2 & n3 & low,
            p0 & p1 & n2 & n3 & low,
            n0 & n1 & p2 & n3 & low,
            p0 & n1 & p2 & n3 & low,
            n0 & p1 & p2 & n3 & low,
            p0 & p1 & p2 & n3 & low,
            n0 & n1 & n2 & p3 & low,
        ];
        Light {
            eq: eq.map(|e| W::window_of(e, base)),
            gens: W::window_of(gens, base),
            k: u64::from(gens.count_ones()),
            members: W::window_of(node.members, 0),
            m: node.multiplicity,
        }
    }

    /// Calls `f` on every child, in light form with the first `DEPTH`
    /// one-hot masks (deeper counts are not needed any more).
    #[inline(always)]
    fn for_each_child<const DEPTH: usize>(&self, base: u32, mut f: impl FnMut(&Light<W>)) {
        let mut rest = self.gens;
        let mut above = self.k;
        while rest != W::ZERO {
            let x = rest.trailing();
            rest = rest ^ rest.lowest();
            above -= 1;
            // S + x, in the window's positions.
            let shifted = self.members.shl(x);
            let new = self.eq[0] & W::bit(x + self.m);
            let mut eq = [W::ZERO; LIGHT as usize];
            for (j, e) in eq.iter_mut().enumerate().take(DEPTH) {
                *e = (self.eq[j] & !shifted) | (self.eq[j + 1] & shifted);
            }
            let child = Light {
                eq,
                gens: rest | new,
                k: above + u64::from(new != W::ZERO),
                members: self.members & !W::bit(x + base),
                m: self.m,
            };
            f(&child);
        }
    }

    /// Children and grandchildren.
    #[inline(always)]
    fn two(&self) -> [u64; 2] {
        let k = self.k;
        let new = (self.gens.shl(self.m) & self.eq[0]).ones();
        [k, k * k.saturating_sub(1) / 2 + u64::from(new)]
    }

    /// Counts of the next three levels.
    #[inline(always)]
    fn three(&self, base: u32) -> [u64; 3] {
        let mut out = [self.k, 0, 0];
        self.for_each_child::<1>(base, |c| {
            let [a, b] = c.two();
            out[1] += a;
            out[2] += b;
        });
        out
    }

    /// Counts of the next four levels.
    #[inline(always)]
    fn four(&self, base: u32) -> [u64; 4] {
        let mut out = [self.k, 0, 0, 0];
        self.for_each_child::<2>(base, |c| {
            let r = c.three(base);
            for (o, v) in out[1..].iter_mut().zip(r) {
                *o += v;
            }
        });
        out
    }

    /// Counts of the next five levels.
    #[inline(never)]
    fn five(&self, base: u32) -> [u64; 5] {
        let mut out = [self.k, 0, 0, 0, 0];
        self.for_each_child::<3>(base, |c| {
            let r = c.four(base);
            for (o, v) in out[1..].iter_mut().zip(r) {
                *o += v;
            }
        });
        out
    }

    /// Counts of the next six levels.
    #[inline(never)]
    fn six(&self, base: u32) -> [u64; 6] {
        let mut out = [self.k, 0, 0, 0, 0, 0];
        self.for_each_child::<4>(base, |c| {
            let r = c.five(base);
            for (o, v) in out[1..].iter_mut().zip(r) {
                *o += v;
            }
        });
        out
    }

    /// Counts of the next seven levels.
    #[inline(never)]
    fn seven(&self, base: u32) -> [u64; 7] {
        let mut out = [self.k, 0, 0, 0, 0, 0, 0];
        self.for_each_child::<5>(base, |c| {
            let r = c.six(base);
            for (o, v) in out[1..].iter_mut().zip(r) {
                *o += v;
            }
        });
        out
    }

    /// Counts of the next eight levels.
    #[inline(never)]
    fn eight(&self, base: u32) -> [u64; 8] {
        let mut out = [self.k, 0, 0, 0, 0, 0, 0, 0];
        self.for_each_child::<6>(base, |c| {
            let r = c.seven(base);
            for (o, v) in out[1..].iter_mut().zip(r) {
                *o += v;
            }
        });
        out
    }

    /// Counts of the next `rem` levels (`2 <= rem <= LIGHT + 1`).
    #[inline(always)]
    fn levels(&self, rem: u32, base: u32, out: &mut [u64]) {
        let mut add = |r: &[u64]| {
            for (o, v) in out.iter_mut().zip(r) {
                *o += v;
            }
        };
        match rem {
            2 => add(&self.two()),
            3 => add(&self.three(base)),
            4 => add(&self.four(base)),
            5 => add(&self.five(base)),
            6 => add(&self.six(base)),
            7 => add(&self.seven(base)),
            _ => add(&self.eight(base)),
        }
    }
}

/// How many levels above the target a node must be for its remaining
/// children to be handed to an idle thread. Below that, subtrees are walked
/// recursively without looking at the other threads (such a subtree takes
/// at most a few milliseconds at genus 42).
pub const SPLIT_DEPTH: u32 = 10;

/// Kept for compatibility: the old fixed split depth of the rayon walk.
/// The walk now shares work on demand (see [`count_by_genus_on`]).
pub const SEQUENTIAL_DEPTH: u32 = SPLIT_DEPTH;

/// What one thread of a parallel count did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ThreadWork {
    /// Semigroups this thread counted (built, light or in closed form).
    pub semigroups: u64,
    /// Pieces of work it took from the shared queue.
    pub jobs: u64,
    /// Pieces of work it handed to an idle thread.
    pub donated: u64,
    /// CPU seconds the thread used (user + system), from
    /// `/proc/thread-self/stat` at 100 ticks a second; `None` where that
    /// file cannot be read.
    pub cpu_seconds: Option<f64>,
    /// Wall seconds the thread spent waiting for work (the measure of
    /// balance that does not depend on how loaded the machine is).
    pub waiting_seconds: f64,
}

/// The result of [`count_by_genus_on`]: the counts and each thread's share.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TreeCount {
    /// Semigroups of each genus `0..=max_genus`.
    pub counts: Vec<u64>,
    /// One entry per thread, in thread order.
    pub threads: Vec<ThreadWork>,
}

/// A piece of work: the children `rest` of an already counted node.
struct Job {
    node: Node,
    genus: u32,
    rest: u128,
}

/// The queue of a work-sharing walk, under its mutex.
struct Queue {
    jobs: Vec<Job>,
    waiting: usize,
    done: bool,
}

/// What the threads of a work-sharing walk share.
struct Shared {
    queue: std::sync::Mutex<Queue>,
    wake: std::sync::Condvar,
    /// Waiting threads minus queued jobs (at least 0), kept up to date
    /// under the lock and read without it by busy threads.
    hungry: std::sync::atomic::AtomicUsize,
    threads: usize,
}

impl Shared {
    fn update_hungry(&self, q: &Queue) {
        self.hungry.store(
            q.waiting.saturating_sub(q.jobs.len()),
            std::sync::atomic::Ordering::Relaxed,
        );
    }

    /// The next job, or `None` when every thread is waiting and the queue
    /// is empty (the walk is over).
    fn take(&self, waited: &mut f64) -> Option<Job> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(job) = q.jobs.pop() {
                self.update_hungry(&q);
                return Some(job);
            }
            if q.done {
                return None;
            }
            if q.waiting + 1 == self.threads {
                q.done = true;
                self.wake.notify_all();
                return None;
            }
            q.waiting += 1;
            self.update_hungry(&q);
            let t0 = std::time::Instant::now();
            q = self.wake.wait(q).unwrap_or_else(|e| e.into_inner());
            *waited += t0.elapsed().as_secs_f64();
            q.waiting -= 1;
            self.update_hungry(&q);
        }
    }

    fn give(&self, job: Job) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.jobs.push(job);
        self.update_hungry(&q);
        self.wake.notify_one();
    }
}

/// A frame of the explicit stack of the shared walk.
struct Frame {
    node: Node,
    genus: u32,
    rest: u128,
}

/// CPU seconds of the calling thread so far, from `/proc/thread-self/stat`.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace();
    // After the command name: state is field 3, utime 14, stime 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

impl Counter {
    /// Walks the children `rest` of `node` (already counted), keeping the
    /// nodes at least [`SPLIT_DEPTH`] levels above the target on an
    /// explicit stack, and handing the remaining children of the oldest
    /// frame to the queue whenever a thread is waiting.
    fn shared_walk(
        &mut self,
        job: Job,
        stack: &mut Vec<Frame>,
        shared: &Shared,
        work: &mut ThreadWork,
    ) {
        stack.clear();
        stack.push(Frame {
            node: job.node,
            genus: job.genus,
            rest: job.rest,
        });
        while let Some(top) = stack.last_mut() {
            if top.rest == 0 {
                stack.pop();
                continue;
            }
            let x = top.rest.trailing_zeros();
            top.rest &= top.rest - 1;
            let child = top.node.remove(x);
            let genus = top.genus + 1;
            if self.target - genus < SPLIT_DEPTH {
                self.walk(&child, genus);
                continue;
            }
            self.counts[genus as usize] += 1;
            if shared.hungry.load(std::sync::atomic::Ordering::Relaxed) > 0 {
                if let Some(old) = stack.iter_mut().find(|f| f.rest != 0) {
                    let rest = std::mem::take(&mut old.rest);
                    shared.give(Job {
                        node: old.node,
                        genus: old.genus,
                        rest,
                    });
                    work.donated += 1;
                }
            }
            let rest = child.generators(child.high());
            stack.push(Frame {
                node: child,
                genus,
                rest,
            });
        }
    }
}

/// One thread of the shared walk: takes jobs until the walk is over.
fn worker(shared: &Shared, target: u32) -> (Counts, ThreadWork) {
    let start = thread_cpu_seconds();
    let mut counter = Counter::new(target);
    let mut stack = Vec::with_capacity(MAX_TREE_GENUS as usize + 1);
    let mut work = ThreadWork::default();
    let mut waited = 0.0;
    while let Some(job) = shared.take(&mut waited) {
        work.jobs += 1;
        counter.shared_walk(job, &mut stack, shared, &mut work);
    }
    work.semigroups = counter.counts.iter().sum();
    work.waiting_seconds = waited;
    work.cpu_seconds = match (start, thread_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    (counter.counts, work)
}

/// The number of numerical semigroups of each genus `0..=max_genus`, on
/// `threads` threads (at least one) sharing work on demand: a thread that
/// runs dry waits, and the next busy thread to reach a node at least
/// [`SPLIT_DEPTH`] levels above the target hands it the remaining children
/// of its *oldest* unfinished node, the largest piece of work it holds.
/// So no thread is left with nearly all the work, whatever the shape of
/// the tree. Also reports what each thread did.
///
/// Fails with [`SemigroupError::GenusTooLarge`] beyond genus 64.
pub fn count_by_genus_on(max_genus: u32, threads: usize) -> Result<TreeCount, SemigroupError> {
    if max_genus > MAX_TREE_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_TREE_GENUS,
        });
    }
    let threads = threads.max(1);
    if max_genus <= 1 {
        return Ok(TreeCount {
            counts: vec![1; max_genus as usize + 1],
            threads: vec![ThreadWork::default(); threads],
        });
    }
    let root = Node::new(Semigroup::ONLY_GAP_ONE);
    let shared = Shared {
        queue: std::sync::Mutex::new(Queue {
            jobs: vec![Job {
                rest: root.generators(root.high()),
                node: root,
                genus: 1,
            }],
            waiting: 0,
            done: false,
        }),
        wake: std::sync::Condvar::new(),
        hungry: std::sync::atomic::AtomicUsize::new(0),
        threads,
    };
    let results: Vec<(Counts, ThreadWork)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| worker(&shared, max_genus)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut counts = vec![0u64; max_genus as usize + 1];
    counts[0] = 1;
    counts[1] = 1;
    let mut per_thread = Vec::with_capacity(threads);
    for (c, w) in results {
        for (o, v) in counts.iter_mut().zip(c.iter()).skip(1) {
            *o += v;
        }
        per_thread.push(w);
    }
    Ok(TreeCount {
        counts,
        threads: per_thread,
    })
}

/// The number of numerical semigroups of each genus `0..=max_genus`
/// (index = genus), by walking the tree depth first; with `parallel`, on
/// as many threads as rayon's pool has (`RAYON_NUM_THREADS`, else the
/// cores), sharing work on demand as [`count_by_genus_on`] does.
///
/// Fails with [`SemigroupError::GenusTooLarge`] beyond genus 64 (the
/// 128-bit planes hold the numbers below `2 * 64`).
pub fn count_by_genus(max_genus: u32, parallel: bool) -> Result<Vec<u64>, SemigroupError> {
    if max_genus > MAX_TREE_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_TREE_GENUS,
        });
    }
    if max_genus == 0 {
        return Ok(vec![1]);
    }
    let root = Node::new(Semigroup::ONLY_GAP_ONE);
    let counts = if parallel {
        let threads = rayon::current_num_threads();
        return Ok(count_by_genus_on(max_genus, threads)?.counts);
    } else {
        let mut c = Counter::new(max_genus);
        c.walk(&root, 1);
        c.counts
    };
    let mut out = vec![1u64];
    out.extend_from_slice(&counts[1..=max_genus as usize]);
    Ok(out)
}

/// Calls `visit` on every numerical semigroup of genus `1..=max_genus`, in
/// depth-first order (children by increasing removed generator).
///
/// Fails with [`SemigroupError::GenusTooLarge`] beyond genus 64.
pub fn for_each_semigroup(
    max_genus: u32,
    mut visit: impl FnMut(Semigroup),
) -> Result<(), SemigroupError> {
    if max_genus > MAX_TREE_GENUS {
        return Err(SemigroupError::GenusTooLarge {
            requested: max_genus,
            max: MAX_TREE_GENUS,
        });
    }
    if max_genus == 0 {
        return Ok(());
    }
    fn go(node: &Node, genus: u32, target: u32, visit: &mut dyn FnMut(Semigroup)) {
        visit(node.semigroup());
        if genus == target {
            return;
        }
        let mut gens = node.generators(node.high());
        while gens != 0 {
            let x = gens.trailing_zeros();
            gens &= gens - 1;
            go(&node.remove(x), genus + 1, target, visit);
        }
    }
    go(
        &Node::new(Semigroup::ONLY_GAP_ONE),
        1,
        max_genus,
        &mut visit,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts() {
        let c = count_by_genus(20, false).unwrap();
        assert_eq!(c, A007323[..=20].to_vec());
        let p = count_by_genus(20, true).unwrap();
        assert_eq!(p, c);
        for threads in [1, 2, 3, 5] {
            for g in [0, 1, 2, 13, 14, 20, 24] {
                let t = count_by_genus_on(g, threads).unwrap();
                assert_eq!(
                    t.counts,
                    A007323[..=g as usize],
                    "genus {g}, {threads} threads"
                );
                assert_eq!(t.threads.len(), threads);
                if g >= 2 {
                    let shared: u64 = t.threads.iter().map(|w| w.semigroups).sum();
                    // Genus 0 and 1 are counted before the threads start.
                    assert_eq!(shared + 2, t.counts.iter().sum::<u64>());
                }
            }
        }
        assert!(count_by_genus_on(65, 2).is_err());
        assert_eq!(count_by_genus(0, false).unwrap(), vec![1]);
        assert_eq!(count_by_genus(1, false).unwrap(), vec![1, 1]);
        assert_eq!(count_by_genus(2, false).unwrap(), vec![1, 1, 2]);
        assert_eq!(count_by_genus(3, false).unwrap(), vec![1, 1, 2, 4]);
        assert!(count_by_genus(65, false).is_err());
    }

    #[test]
    fn walk_matches_simple_tree() {
        // The node walk against Semigroup::children.
        let mut fast = Vec::new();
        for_each_semigroup(12, |s| fast.push(s)).unwrap();
        let mut slow = Vec::new();
        fn go(s: Semigroup, g: u32, out: &mut Vec<Semigroup>) {
            out.push(s);
            if g < 12 {
                for c in s.children() {
                    go(c, g + 1, out);
                }
            }
        }
        go(Semigroup::ONLY_GAP_ONE, 1, &mut slow);
        assert_eq!(fast, slow);
        let mut by_genus = [0u64; 13];
        for s in &fast {
            by_genus[s.genus() as usize] += 1;
        }
        assert_eq!(by_genus[1..], A007323[1..=12]);
    }
}
