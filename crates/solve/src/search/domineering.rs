//! Domineering's own outcome search: the fast path [`super::solve`] takes
//! for Domineering under normal play (the general engine stays its
//! brute-force twin: `tests/outcome_fast_path.rs`).
//!
//! What it does that the general engine cannot afford per node:
//!
//! * **Two bit views.** Each player's view of the board has one `u32` per
//!   line along which that player places (Right: the rows; Left: the
//!   columns), with occupied sentinels around it, so a move is three xors
//!   and every count below is a few word operations per line.
//! * **Safe moves and real moves**, kept per line incrementally: a
//!   player's *safe* moves are disjoint placements on cells the opponent
//!   can never cover (both perpendicular neighbours filled), their *real*
//!   moves the most disjoint placements on the empty cells of each line
//!   (more than anyone can ever make there). The mover wins when their
//!   safe moves outnumber the opponent's real ones, and loses when the
//!   opponent's safe moves match their real ones (Bullock's Obsequi; the
//!   bounds of [`super::knowledge`] for Domineering, at a fraction of the
//!   cost).
//! * **A finer bound** ([`Eval`]): the mover's guaranteed moves counted
//!   from *protective* areas (an empty 2 x 2 walled in on one side across
//!   the mover's lines: the mover's domino on the far line leaves a safe
//!   move on the near one) and *vulnerable* placements (which the opponent can
//!   take away, at most two per move), against the cells the opponent
//!   could ever fill with what remains.
//! * **Safe moves are never searched** while another move exists (a safe
//!   move can always wait: Bullock 2002; checked against the plain search
//!   by the twin tests).
//! * **Move ordering** by how a move changes both players' real and safe
//!   moves, then by a fixed preference by place, ties in generation order
//!   (Obsequi's order: the same tree on every toolchain and in every
//!   thread; a history count of refuting moves and the mover's new safe
//!   moves counted twice made no tree smaller over 68 searches, and 8 x 8
//!   Left first 1.30x larger: see the README).
//! * **Exact values of small components**: a position whose components
//!   (of orthogonally connected empty cells) all have at most
//!   [`Rules::value_cells`] cells is answered by the outcome of the sum of
//!   their canonical values, from the value solver, memoised by shape
//!   (`SmallValues`; 8 x 8 Left first: 2,036,657 -> 2,013,806 nodes at
//!   12 cells; 16 cells 1,978,253 nodes and more time).
//! * **Symmetric hashing**: one incrementally updated key per symmetry of
//!   the rectangle (four; eight on a square, where a transpose swaps the
//!   players), the least of them the table key.
//! * **Threads share the replies**: on several threads a first player's
//!   first moves are tried in turn by all of them, the replies to each
//!   dealt out one at a time ([`Engine::root_dealt`]), free threads
//!   helping with the last ones; the threads mark the positions near the
//!   root they are searching and put off a child another thread has
//!   marked ([`Busy`], the ABDADA idea), so that two replies that share
//!   positions are not searched into them twice at once. A checkpointed
//!   search deals its first moves instead.

use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize,
    Ordering::{AcqRel, Acquire, Relaxed},
};
use std::time::Instant;

use partizan_core::{Arena, GameId, Outcome};
use partizan_games::{Board, Domineering, Player, Ruleset, MAX_CELLS};
use rustc_hash::FxHashMap;

use super::busy::{least_helped, Busy, BUSY_DEPTH};
use super::checkpoint;
use super::table::{self, Entry, Key, Table};
use super::{
    Control, FirstPlayer, Resumed, SearchConfig, SearchCounts, SearchError, SearchReport,
    CHECK_EVERY, LINE_PLIES,
};
use crate::outcome::Convention;
use crate::value::{Savings, Solver};

/// Longest side the bit views hold (a line and its two sentinels in 32
/// bits).
pub const MAX_SIDE: usize = 30;
/// Lines per view, sentinel lines included.
const LINES: usize = MAX_SIDE + 2;

/// The horizontal player's view (Right): lines are board rows.
const HZ: usize = 0;
/// The vertical player's view (Left): lines are board columns.
const VT: usize = 1;

fn view_of(p: Player) -> usize {
    match p {
        Player::Left => VT,
        Player::Right => HZ,
    }
}

/// Which of the fast path's rules are on (all, by default; the twin tests
/// turn them on one at a time).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Cut by safe against real moves.
    pub simple_bound: bool,
    /// Cut by the protective/vulnerable evaluation ([`Eval`]).
    pub fine_bound: bool,
    /// Leave safe moves out of the search while other moves exist.
    pub skip_safe: bool,
    /// Order moves (otherwise: generation order).
    pub ordering: bool,
    /// Share table entries between symmetric positions.
    pub symmetry: bool,
    /// Run the copy of the search compiled for the processor's popcount
    /// and bit-manipulation instructions when it has them (checked at run
    /// time; the same search, node for node, as the portable copy).
    pub hardware: bool,
    /// Answer a position whose components (of orthogonally connected
    /// empty cells) all have at most this many cells by the outcome of
    /// the sum of their exact values (0: never; see `SmallValues`).
    pub value_cells: u32,
}

impl Rules {
    /// Everything on.
    pub const ALL: Rules = Rules {
        simple_bound: true,
        fine_bound: true,
        skip_safe: true,
        ordering: true,
        symmetry: true,
        hardware: true,
        value_cells: DEFAULT_VALUE_CELLS,
    };
    /// Nothing but the table: the plain search.
    pub const NONE: Rules = Rules {
        simple_bound: false,
        fine_bound: false,
        skip_safe: false,
        ordering: false,
        symmetry: false,
        hardware: false,
        value_cells: 0,
    };
}

/// The components [`Rules::ALL`] values exactly: at most this many cells.
pub const DEFAULT_VALUE_CELLS: u32 = 12;

/// The most disjoint dominoes on a line whose possible placements (the
/// lower cell of each) are the bits of `starts`: each run of `k` starts
/// (a run of `k + 1` cells) holds `ceil(k / 2)`, the starts at an even
/// distance from their run's first. Branch-free: adding the run starts
/// that sit on even bits clears exactly the runs that begin there.
#[inline]
pub fn pack(starts: u32) -> u32 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let x = u64::from(starts);
    let first = x & !(x << 1);
    let even_runs = x & !(x + (first & EVEN));
    let odd_runs = x & !even_runs;
    ((even_runs & EVEN) | (odd_runs & !EVEN)).count_ones()
}

/// [`pack`] the slow way, greedily from the low end (its twin).
#[cfg(test)]
fn pack_greedy(starts: u32) -> u32 {
    let mut x = starts;
    let mut n = 0;
    while x != 0 {
        let t = x & x.wrapping_neg();
        x &= !(t | (t << 1));
        n += 1;
    }
    n
}

/// The bits [`pack`] counts, for two lines at once: `starts` holds one
/// line's starts in its low 32 bits and another's in its high 32 (a line's
/// starts never reach bit 31, so no carry crosses the halves).
#[inline]
fn pack_bits2(starts: u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let x = starts;
    let first = x & !(x << 1);
    let even_runs = x & !(x + (first & EVEN));
    let odd_runs = x & !even_runs;
    (even_runs & EVEN) | (odd_runs & !EVEN)
}

/// The bits set in each half of `x` (low, high). With a popcount
/// instruction (`HW`: the search's copy compiled for it, see
/// [`Engine::wins`]; or a build for a machine that has one), two of them;
/// without (the x86-64 baseline), one software count serves both halves:
/// the bytes' counts summed once give the low half's total in byte 3 and
/// the whole's in byte 7.
#[inline(always)]
fn count_halves<const HW: bool>(x: u64) -> (u32, u32) {
    if HW || cfg!(any(target_feature = "popcnt", not(target_arch = "x86_64"))) {
        ((x as u32).count_ones(), ((x >> 32) as u32).count_ones())
    } else {
        let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
        let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
        let x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        let s = x.wrapping_mul(0x0101_0101_0101_0101);
        let low = ((s >> 24) & 0xff) as u32;
        (low, (s >> 56) as u32 - low)
    }
}

/// (real, safe) placements of a line `line` between lines `above` and
/// `below`.
#[inline(always)]
fn line_counts<const HW: bool>(above: u32, line: u32, below: u32) -> (u8, u8) {
    let st = !(line | (line >> 1));
    let g = above & below;
    let safe = st & g & (g >> 1);
    let (r, s) = count_halves::<HW>(pack_bits2(u64::from(st) | (u64::from(safe) << 32)));
    (r as u8, s as u8)
}

/// Placements (lower cells) on line `l` of view `b`.
#[inline]
fn starts(b: &[u32; LINES], l: usize) -> u32 {
    !(b[l] | (b[l] >> 1))
}

/// Cells of line `l` the other player can never cover.
#[inline]
fn guarded(b: &[u32; LINES], l: usize) -> u32 {
    b[l - 1] & b[l + 1]
}

/// Safe placements on line `l`: both cells guarded.
#[inline]
fn safe_starts(b: &[u32; LINES], l: usize) -> u32 {
    let g = guarded(b, l);
    starts(b, l) & g & (g >> 1)
}

/// The runs of set bits of `e` (a row's cells) that hold a bit of
/// `seed`, without a loop: the carry of `e + t` runs up each run from its
/// lowest seed, then a parallel-prefix fill runs down to each run's first
/// bit (steps of 1, 2, 4, 8 and 16 bits). `e`'s top bit must be clear, as
/// a row's is (its wall).
#[inline(always)]
fn row_runs(e: u32, seed: u32) -> u32 {
    let t = seed & e;
    let mut g = (e & !e.wrapping_add(t)) | t;
    let mut p = e;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g | (p & (g >> 16))
}

/// A step of [`Pos::small_components`]: row `r`'s runs (of `rest`) that
/// the component `comp` touches on the rows beside it, added to it and to
/// its `size`; whether there were any.
#[inline(always)]
fn grow_row(rest: &[u32; LINES], r: usize, comp: &mut [u32; LINES], size: &mut u32) -> bool {
    let e = rest[r];
    let seed = (comp[r - 1] | comp[r + 1]) & e & !comp[r];
    if seed == 0 {
        return false;
    }
    let x = row_runs(e, seed) & !comp[r];
    *size += x.count_ones();
    comp[r] |= x;
    true
}

/// A position: both views and the per-line counts.
#[derive(Clone, Debug)]
pub struct Pos {
    b: [[u32; LINES]; 2],
    /// Lines of each view.
    n: [usize; 2],
    real: [[u8; LINES]; 2],
    safe: [[u8; LINES]; 2],
    real_t: [i32; 2],
    safe_t: [i32; 2],
    empty: i32,
    hash: [u128; 8],
}

impl Pos {
    /// The position of a Domineering board, if both sides fit.
    pub fn new(board: &Board) -> Option<Pos> {
        let (w, h) = (board.width(), board.height());
        if w > MAX_SIDE || h > MAX_SIDE {
            return None;
        }
        let mut b = [[!0u32; LINES]; 2];
        for r in 0..h {
            for c in 0..w {
                if board.layer(0) & board.bit(r, c) != 0 {
                    b[HZ][r + 1] &= !(1 << (c + 1));
                    b[VT][c + 1] &= !(1 << (r + 1));
                }
            }
        }
        let mut p = Pos {
            b,
            n: [h, w],
            real: [[0; LINES]; 2],
            safe: [[0; LINES]; 2],
            real_t: [0; 2],
            safe_t: [0; 2],
            empty: board.layer(0).count_ones() as i32,
            hash: [0; 8],
        };
        for v in 0..2 {
            for l in 1..=p.n[v] {
                p.refresh::<false>(v, l);
            }
        }
        Some(p)
    }

    #[inline(always)]
    fn refresh<const HW: bool>(&mut self, v: usize, l: usize) {
        if l == 0 || l > self.n[v] {
            return;
        }
        let b = &self.b[v];
        let (r, s) = line_counts::<HW>(b[l - 1], b[l], b[l + 1]);
        self.real_t[v] += i32::from(r) - i32::from(self.real[v][l]);
        self.safe_t[v] += i32::from(s) - i32::from(self.safe[v][l]);
        self.real[v][l] = r;
        self.safe[v][l] = s;
    }

    /// Place (or lift) view `v`'s domino on line `l`, bits `j` and `j+1`.
    #[inline(always)]
    fn toggle<const HW: bool>(&mut self, v: usize, l: usize, j: usize) {
        let o = 1 - v;
        self.b[v][l] ^= 3 << j;
        self.b[o][j] ^= 1 << l;
        self.b[o][j + 1] ^= 1 << l;
        self.empty += if self.b[v][l] & (1 << j) != 0 { -2 } else { 2 };
        self.refresh::<HW>(v, l - 1);
        self.refresh::<HW>(v, l);
        self.refresh::<HW>(v, l + 1);
        self.refresh::<HW>(o, j - 1);
        self.refresh::<HW>(o, j);
        self.refresh::<HW>(o, j + 1);
        self.refresh::<HW>(o, j + 2);
    }

    /// How view `v`'s domino on line `l`, bits `j`, `j+1` changes (the
    /// mover's real + safe moves) - (the opponent's real + safe moves),
    /// computed on copies of the lines it touches.
    #[inline(always)]
    fn score<const HW: bool>(&self, v: usize, l: usize, j: usize) -> i32 {
        let o = 1 - v;
        let (b, c) = (&self.b[v], &self.b[o]);
        let (n, m) = (self.n[v], self.n[o]);
        let nl = b[l] | (3 << j);
        let (r, s) = line_counts::<HW>(b[l - 1], nl, b[l + 1]);
        let mut mine = i32::from(r) - i32::from(self.real[v][l]);
        let mut safe = i32::from(s) - i32::from(self.safe[v][l]);
        if l > 1 {
            let (_, s) = line_counts::<HW>(b[l - 2], b[l - 1], nl);
            safe += i32::from(s) - i32::from(self.safe[v][l - 1]);
        }
        if l < n {
            let (_, s) = line_counts::<HW>(nl, b[l + 1], b[l + 2]);
            safe += i32::from(s) - i32::from(self.safe[v][l + 1]);
        }
        mine += safe;
        let bit = 1 << l;
        let (nj, nk) = (c[j] | bit, c[j + 1] | bit);
        let (r0, _) = line_counts::<HW>(c[j - 1], nj, nk);
        let (r1, _) = line_counts::<HW>(nj, nk, c[j + 2]);
        let mut theirs = i32::from(r0) + i32::from(r1)
            - i32::from(self.real[o][j])
            - i32::from(self.real[o][j + 1]);
        if j > 1 {
            let (_, s) = line_counts::<HW>(c[j - 2], c[j - 1], nj);
            theirs += i32::from(s) - i32::from(self.safe[o][j - 1]);
        }
        if j + 2 <= m {
            let (_, s) = line_counts::<HW>(nk, c[j + 2], c[j + 3]);
            theirs += i32::from(s) - i32::from(self.safe[o][j + 2]);
        }
        mine - theirs
    }

    /// Does `mover`, moving next, win (`Some(true)`) or lose by the safe
    /// against real moves rule? (`None`: undecided.)
    pub fn simple_cut_for(&self, mover: Player) -> Option<bool> {
        self.simple_cut(view_of(mover))
    }

    /// The same by the finer evaluation ([`Eval`]).
    pub fn fine_cut_for(&self, mover: Player) -> Option<bool> {
        self.fine_cut(view_of(mover))
    }

    /// The same by the exact values of the components, when every one
    /// has at most `cells` cells (a fresh value solver each call: for the
    /// twin tests).
    pub fn value_cut_for(&self, mover: Player, cells: u32) -> Result<Option<bool>, SearchError> {
        let cells = cells.min(MAX_VALUE_CELLS);
        let mut keys = Vec::new();
        if !self.small_components(cells, &mut keys) {
            return Ok(None);
        }
        SmallValues::new(cells)?
            .decide(&keys, view_of(mover), &mut SearchCounts::default())
            .map(Some)
    }

    /// Is `v`'s fate with `v` to move decided by safe against real moves?
    #[inline(always)]
    fn simple_cut(&self, v: usize) -> Option<bool> {
        let o = 1 - v;
        if self.safe_t[v] > self.real_t[o] {
            Some(true)
        } else if self.safe_t[o] >= self.real_t[v] {
            Some(false)
        } else {
            None
        }
    }

    /// The components of the empty cells (orthogonally connected: the
    /// cells a domino could join), each of at least two cells, as shape
    /// keys (`shape_key`) into `out`; `false` (and `out` partial) as
    /// soon as one has more than `max` cells. Lone cells are left out:
    /// their value is 0.
    #[inline(always)]
    pub fn small_components(&self, max: u32, out: &mut Vec<u128>) -> bool {
        out.clear();
        let (mut rest, mut left) = self.joinable();
        let h = self.n[HZ];
        let mut r0 = 1;
        while left > 0 {
            while rest[r0] == 0 {
                r0 += 1;
            }
            let mut comp = [0u32; LINES];
            let e = rest[r0];
            let x = row_runs(e, e & e.wrapping_neg());
            comp[r0] = x;
            let (mut lo, mut hi) = (r0, r0);
            let mut size = x.count_ones();
            if size > max {
                return false;
            }
            // Sweeps down and up the rows, each taking the runs of its row
            // that the rows beside it touch and going on as far as the
            // component has grown; out as soon as it is too big.
            loop {
                let mut grown = false;
                let mut r = hi + 1;
                while r <= h {
                    if !grow_row(&rest, r, &mut comp, &mut size) {
                        break;
                    }
                    if size > max {
                        return false;
                    }
                    grown = true;
                    hi = r;
                    r += 1;
                }
                for r in (lo..=hi).rev() {
                    if grow_row(&rest, r, &mut comp, &mut size) {
                        if size > max {
                            return false;
                        }
                        grown = true;
                    }
                }
                let mut r = lo - 1;
                while r >= 1 {
                    if !grow_row(&rest, r, &mut comp, &mut size) {
                        break;
                    }
                    if size > max {
                        return false;
                    }
                    grown = true;
                    lo = r;
                    r -= 1;
                }
                for r in lo..=hi {
                    if grow_row(&rest, r, &mut comp, &mut size) {
                        if size > max {
                            return false;
                        }
                        grown = true;
                    }
                }
                if !grown {
                    break;
                }
            }
            let mut cols = 0;
            for r in lo..=hi {
                rest[r] &= !comp[r];
                cols |= comp[r];
            }
            left -= size;
            out.push(shape_key(&comp[lo..=hi], cols));
        }
        true
    }

    /// The empty cells with an empty neighbour, by row (the cells of
    /// components of two cells or more), and how many.
    #[inline(always)]
    fn joinable(&self) -> ([u32; LINES], u32) {
        let h = self.n[HZ];
        let inner = ((1u32 << self.n[VT]) - 1) << 1;
        let mut all = [0u32; LINES];
        for (a, &row) in all.iter_mut().zip(&self.b[HZ]).take(h + 1).skip(1) {
            *a = !row & inner;
        }
        let mut rest = [0u32; LINES];
        let mut left = 0;
        for r in 1..=h {
            let e = all[r];
            rest[r] = e & ((e << 1) | (e >> 1) | all[r - 1] | all[r + 1]);
            left += rest[r].count_ones();
        }
        (rest, left)
    }

    /// The board this position is, on `like`'s rectangle.
    fn board(&self, like: &Board) -> Board {
        let mut e = 0;
        for r in 0..like.height() {
            for c in 0..like.width() {
                if self.b[HZ][r + 1] & (1 << (c + 1)) == 0 {
                    e |= like.bit(r, c);
                }
            }
        }
        like.with_layers([e, 0, 0])
    }
}

/// A shape's key: its rows (`rows`, bits of the columns `cols` span),
/// translated to the origin and packed row after row with the shape's
/// width as stride (the layer-0 bits of its cropped [`Board`]), below its
/// width (bits 112..120) and height (bits 120..128). A shape of up to 20
/// connected cells spans at most 21 rows and columns together, so at most
/// 110 bits.
fn shape_key(rows: &[u32], cols: u32) -> u128 {
    let c0 = cols.trailing_zeros();
    let w = 32 - cols.leading_zeros() - c0;
    let mut k = 0u128;
    for (i, &r) in rows.iter().enumerate() {
        k |= u128::from(r >> c0) << (i as u32 * w);
    }
    k | (u128::from(w) << 112) | ((rows.len() as u128) << 120)
}

/// The board of a [`shape_key`].
fn shape_board(key: u128) -> Board {
    let w = ((key >> 112) & 0xff) as usize;
    let h = (key >> 120) as usize;
    Board::new(w, h, [key & ((1u128 << 112) - 1), 0, 0])
        .expect("a shape key holds a board of at most 112 cells")
}

/// The largest [`Rules::value_cells`] the shape keys hold.
pub const MAX_VALUE_CELLS: u32 = 20;

/// Exact values of small components, for one thread: the value solver, its
/// arena, and the value of each shape seen (by [`shape_key`]; the solver
/// folds the symmetries itself). Cleared whole when the arena and the
/// memos together grow past [`SmallValues::MAX_FORMS`], so its memory
/// stays bounded.
struct SmallValues {
    solver: Solver<'static, Domineering>,
    arena: Arena,
    memo: FxHashMap<u128, GameId>,
    cells: u32,
}

/// The ruleset the value solver of [`SmallValues`] plays.
static DOMINEERING: Domineering = Domineering;

impl SmallValues {
    /// Forms interned and shapes memoised (here and in the solver) at
    /// which everything is started afresh.
    const MAX_FORMS: usize = 1 << 19;

    fn new(cells: u32) -> Result<SmallValues, SearchError> {
        Ok(SmallValues {
            solver: Solver::new(&DOMINEERING, Savings::ALL)?,
            arena: Arena::new(),
            memo: FxHashMap::default(),
            cells,
        })
    }

    /// Does view `v`, to move, win the sum of the components `keys`
    /// (each small: see [`Pos::small_components`])? Also counts the
    /// components valued.
    fn decide(
        &mut self,
        keys: &[u128],
        v: usize,
        counts: &mut SearchCounts,
    ) -> Result<bool, SearchError> {
        if self.arena.len() + self.memo.len() + self.solver.table_len() > Self::MAX_FORMS {
            *self = SmallValues::new(self.cells)?;
        }
        let mut total = self.arena.zero();
        for &k in keys {
            counts.regions_valued += 1;
            let g = match self.memo.get(&k) {
                Some(&g) => g,
                None => {
                    let g = self.solver.value(&mut self.arena, &shape_board(k))?;
                    self.memo.insert(k, g);
                    g
                }
            };
            total = self.arena.sum(total, g)?;
        }
        let left = v == VT;
        Ok(match self.arena.outcome(total) {
            Outcome::N => true,
            Outcome::P => false,
            Outcome::L => left,
            Outcome::R => !left,
        })
    }
}

/// [`Pos::small_components`] compiled for popcount (see
/// [`Engine::by_values`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn components_hw(p: &Pos, max: u32, out: &mut Vec<u128>) -> bool {
    p.small_components(max, out)
}

/// [`Pos::small_components`] in a call of its own.
#[inline(never)]
fn components_portable(p: &Pos, max: u32, out: &mut Vec<u128>) -> bool {
    p.small_components(max, out)
}

/// The finer evaluation for the player of view `v` (see the module
/// comment): a lower bound on the moves that player can make against any
/// defence, and an upper bound on the moves the opponent can make in reply,
/// when `v` moves next (`to_move`) or has just moved.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    /// Moves the player is sure of.
    pub moves: i32,
    /// Moves the opponent can make at most.
    pub opp_moves: i32,
}

/// The counts the finer evaluation is made of: areas packed greedily,
/// line by line, on the player's own view.
#[derive(Copy, Clone, Debug, Default)]
struct Areas {
    /// Disjoint protective areas (2 x 2, walled on both sides across).
    prot: i32,
    /// Vulnerable placements that one opponent's move can take with
    /// another (type 2), and those it cannot (type 1), with how many of
    /// each hold a cell the opponent can never use.
    vuln2: i32,
    vuln2_p: i32,
    vuln1: i32,
    vuln1_p: i32,
    /// Cells left out of the packing that the opponent cannot use.
    unused: i32,
    /// Safe placements with a spare cell beside them that only the player
    /// could use, by how many ways the opponent could still reach it.
    opt: [i32; 3],
}

/// Greedy packing of protective areas: an empty 2 x 2 on lines `l`, `l+1`
/// whose two cells across on one side (line `l-1` or line `l+2`) are
/// filled, away from areas already placed (a domino on the far line leaves
/// the walled line a safe move).
#[inline(always)]
fn pack_prot(b: &[u32; LINES], n: usize, used: &mut [u32; LINES]) -> i32 {
    let mut p = 0;
    for l in 1..n {
        let busy = used[l - 1] | used[l] | used[l + 1] | used[l + 2] | b[l] | b[l + 1];
        let busy = busy | (busy >> 1);
        let walls = (b[l - 1] & (b[l - 1] >> 1)) | (b[l + 2] & (b[l + 2] >> 1));
        let mut at = walls & !busy;
        while at != 0 {
            let t = at & at.wrapping_neg();
            at &= !(t | (t << 1));
            used[l] |= t | (t << 1);
            used[l + 1] |= t | (t << 1);
            p += 1;
        }
    }
    p
}

/// One step of [`pack_vuln`]'s greedy scan of a line (the cells the
/// protective areas left, left to right) at cell `i` of a chunk, which is
/// a gap (`free` clear), a cell the opponent cannot reach (`guard`) or
/// one it can. The states: 0 nothing pending; 1 a lone unreachable cell;
/// 2 a reachable cell (the start); 3 the start and an odd run of
/// unreachable cells (the start pairs with the first); 4 the same, even
/// (the run pairs off by itself: safe moves, counted as such). `start` is
/// the start's place in the chunk, [`CHUNK`] while it is before the chunk.
/// The events go into `out` (see [`VULN`]).
const fn vuln_step(
    state: u64,
    start: &mut u64,
    i: u64,
    free: u64,
    guard: u64,
    out: &mut u64,
) -> u64 {
    let bit = 1 << i;
    if free & bit == 0 {
        match state {
            1 => *out |= bit << VULN_LONE,
            3 => *out |= vuln_pair_at(*start),
            _ => {}
        }
        0
    } else if guard & bit != 0 {
        match state {
            0 => 1,
            1 => 0,
            2 | 4 => 3,
            _ => 4,
        }
    } else {
        match state {
            1 => {
                *out |= bit << VULN_PART;
                0
            }
            2 => {
                *out |= bit << VULN_PLAIN;
                0
            }
            3 => {
                *out |= vuln_pair_at(*start);
                *start = i;
                2
            }
            _ => {
                *start = i;
                2
            }
        }
    }
}

/// The cells of a chunk of [`VULN`], and their mask.
const CHUNK: u64 = 5;
const CELLS: u64 = (1 << CHUNK) - 1;
/// The fields of a [`VULN`] entry after its state (bits 0-2).
const VULN_PLAIN: u64 = 3;
const VULN_PART: u64 = VULN_PLAIN + CHUNK;
const VULN_BEFORE: u64 = VULN_PART + CHUNK + 1;
const VULN_LONE: u64 = VULN_BEFORE + 1;
const VULN_START: u64 = VULN_LONE + CHUNK;
const VULN_KEPT: u64 = VULN_START + CHUNK;

/// The event of a pair from the start at `start` (see [`vuln_step`]):
/// its second cell, or the flag of a start before the chunk.
const fn vuln_pair_at(start: u64) -> u64 {
    if start == CHUNK {
        1 << VULN_BEFORE
    } else {
        1 << (VULN_PART + 1 + start)
    }
}

/// [`pack_vuln`]'s scan of [`CHUNK`] cells at a time: entry `state << 2
/// CHUNK | free << CHUNK | guard` (the chunk's free cells and, of those,
/// the unreachable) holds the state after the chunk (bits 0-2); from
/// [`VULN_PLAIN`] the pairs of two reachable cells and from [`VULN_PART`]
/// the pairs with an unreachable cell, each by its second cell's place in
/// the chunk (the first may be the cell before it; a pair's second cell
/// may be the cell after it); at [`VULN_BEFORE`], whether the start
/// before the chunk pairs with the cell after it; from [`VULN_LONE`] the
/// gaps that close on a lone unreachable cell; from [`VULN_START`] the
/// start, if it is in the chunk, one-hot, else the bit [`VULN_KEPT`] (it
/// stays where it was).
static VULN: [u64; 5 << (2 * CHUNK)] = {
    let mut t = [0u64; 5 << (2 * CHUNK)];
    let mut k = 0;
    while k < t.len() {
        let (state0, free, guard) = (
            (k >> (2 * CHUNK)) as u64,
            (k >> CHUNK) as u64 & CELLS,
            k as u64 & CELLS,
        );
        let mut state = state0;
        let mut start = CHUNK;
        let mut out = 0;
        let mut i = 0;
        while i < CHUNK {
            state = vuln_step(state, &mut start, i, free, guard, &mut out);
            i += 1;
        }
        let at = if start == CHUNK {
            1 << VULN_KEPT
        } else {
            1 << (VULN_START + start)
        };
        t[k] = state | out | at;
        k += 1;
    }
    t
};

/// Greedy packing of vulnerable placements (and the unused cells) on the
/// cells the protective areas left, line by line, left to right: a
/// reachable cell pairs with the next if reachable; with the next if not,
/// when an odd run of unreachable cells follows it (the rest of the run
/// pairs off as safe moves); a lone unreachable cell pairs with a
/// reachable one after it, or is left unused. The scan runs [`CHUNK`]
/// cells a step through [`VULN`] (its cell-by-cell twin is a test's).
#[inline(always)]
fn pack_vuln(b: &[u32; LINES], n: usize, used: &mut [u32; LINES], a: &mut Areas) {
    let (mut v2, mut v1, mut v2p, mut v1p, mut u) = (0, 0, 0, 0, 0);
    for l in 1..=n {
        // Cells of line `l` beside which, on line `l+1`, the opponent
        // could place across (so one of their moves can spoil two of
        // ours): an empty cell of the next line with an empty neighbour.
        let next = b[l + 1];
        let shared = used[l - 1] | !(next | (next << 1)) | !(next | (next >> 1));
        let free = u64::from(!(b[l] | used[l]));
        let guard = u64::from(b[l - 1] & b[l + 1]) & free;
        let (mut state, mut start) = (0u64, 0u64);
        let (mut plain, mut part, mut lone) = (0u64, 0u64, 0u64);
        // Chunks as far as the gap after the last free cell (at most the
        // wall beyond the line, a filled bit), which closes a run still
        // open.
        let end = 64 - free.leading_zeros();
        let mut base = 1;
        while base <= end {
            let i =
                state << (2 * CHUNK) | (free >> base & CELLS) << CHUNK | (guard >> base & CELLS);
            let e = VULN[i as usize];
            plain |= (e >> VULN_PLAIN & CELLS) << base;
            part |= (e >> VULN_PART & (CELLS << 1 | 1)) << base
                | (start << 1) & (e >> VULN_BEFORE & 1).wrapping_neg();
            lone |= (e >> VULN_LONE & CELLS) << base;
            start = start & (e >> VULN_KEPT & 1).wrapping_neg() | (e >> VULN_START & CELLS) << base;
            state = e & 7;
            base += CHUNK as u32;
        }
        let (plain, part, lone) = (plain as u32, part as u32, (lone >> 1) as u32);
        used[l] |= plain | plain >> 1 | part | part >> 1 | lone;
        let by_second = shared | shared << 1;
        let (p2, q2) = (
            (plain & by_second).count_ones(),
            (part & by_second).count_ones(),
        );
        v2 += p2 as i32;
        v1 += (plain.count_ones() - p2) as i32;
        v2p += q2 as i32;
        v1p += (part.count_ones() - q2) as i32;
        u += lone.count_ones() as i32;
    }
    a.vuln2 = v2 + v2p;
    a.vuln2_p = v2p;
    a.vuln1 = v1 + v1p;
    a.vuln1_p = v1p;
    a.unused = u;
}

/// Safe placements with a spare guarded cell beside them (the player may
/// use it or not; the opponent never), by how many ways (0, 1 or 2) the
/// spare cell's line neighbours across could still be reached.
#[inline(always)]
fn pack_opt(b: &[u32; LINES], n: usize, used: &mut [u32; LINES], a: &mut Areas) {
    let mut s = [0i32; 3];
    for l in 1..=n {
        let g = b[l - 1] & b[l + 1];
        let mut cur = b[l] | used[l];
        let mut mask = !(cur | (cur >> 1)) & g & (g >> 1);
        while mask != 0 {
            let t = mask & mask.wrapping_neg();
            mask &= !(t | (t << 1));
            cur |= t | (t << 1);
            let spare = if (cur | used[l - 1] | used[l + 1]) & (t >> 1) == 0 {
                t >> 1
            } else if (mask | cur | used[l - 1] | used[l + 1]) & (t << 2) == 0 {
                t << 2
            } else {
                continue;
            };
            cur |= spare;
            used[l] |= spare;
            // Up: the cell across above is empty and the one beyond it
            // filled; down likewise.
            // (Line 0 and line n + 1 are filled sentinels, so the lines
            // two away are only read when inside the array.)
            let up = b[l - 1] & spare == 0 && b[l - 2] & spare != 0;
            let down = b[l + 1] & spare == 0 && b[l + 2] & spare != 0;
            s[usize::from(up) + usize::from(down)] += 1;
        }
    }
    a.opt = [s[0], s[1], s[2]];
}

impl Pos {
    #[inline(always)]
    fn areas(&self, v: usize) -> Areas {
        let b = &self.b[v];
        let n = self.n[v];
        let mut used = [0u32; LINES];
        let mut a = Areas {
            prot: pack_prot(b, n, &mut used),
            ..Areas::default()
        };
        pack_vuln(b, n, &mut used, &mut a);
        pack_opt(b, n, &mut used, &mut a);
        a
    }

    /// The finer bound for view `v`'s player (see [`Eval`]).
    #[inline(always)]
    fn eval(&self, v: usize, to_move: bool) -> Option<Eval> {
        let mut a = self.areas(v);
        let mut safe = self.safe_t[v];
        if to_move {
            // The best first move: take a lone area, else break parity.
            if a.prot % 2 == 1 {
                a.prot -= 1;
                safe += 2;
            } else if a.vuln2 % 3 != 0 {
                a.vuln2 -= 1;
                safe += 1;
                if a.vuln2_p > a.vuln2 {
                    a.vuln2_p -= 1;
                }
            } else if a.vuln1 % 2 != 0 {
                a.vuln1 -= 1;
                safe += 1;
                if a.vuln1_p > a.vuln1 {
                    a.vuln1_p -= 1;
                }
            } else if a.opt[2] % 2 != 0 {
                a.opt[2] -= 1;
                a.unused += 3;
            } else if a.opt[1] % 2 != 0 {
                a.opt[1] -= 1;
                a.unused += 2;
            } else if a.opt[0] % 2 != 0 {
                a.opt[0] -= 1;
                a.unused += 1;
            } else if a.vuln2 > 0 {
                a.vuln2 -= 1;
                safe += 1;
                if a.vuln2_p > a.vuln2 {
                    a.vuln2_p -= 1;
                }
            } else if a.vuln1 > 0 {
                a.vuln1 -= 1;
                safe += 1;
                if a.vuln1_p > a.vuln1 {
                    a.vuln1_p -= 1;
                }
            } else if a.prot > 0 {
                a.prot -= 1;
                safe += 2;
            } else {
                return None;
            }
        }
        if a.prot % 2 == 1 {
            a.prot -= 1;
            a.vuln2 += 2;
        }
        let mut moves = a.prot + a.vuln2 / 3 + a.vuln1 / 2 + safe;
        let mut even = false;
        if a.vuln2 % 3 != 0 && a.vuln1 % 2 != 0 {
            moves += 1;
            a.unused -= 1;
            even = true;
        } else if a.vuln2 % 3 == 0 && a.vuln1 % 2 == 0 {
            even = true;
        }
        if even {
            if a.opt[2] % 2 == 1 {
                a.opt[2] -= 1;
                a.opt[1] += 1;
            }
            if a.opt[1] % 2 == 1 {
                a.opt[1] -= 1;
                a.opt[0] += 1;
            }
        } else if a.opt[2] % 2 == 1 {
            a.unused += 3;
            if a.opt[1] % 2 == 1 {
                a.opt[1] -= 1;
                a.opt[0] += 1;
            }
        } else if a.opt[1] % 2 == 1 {
            a.unused += 2;
        } else if a.opt[0] % 2 == 1 {
            a.unused += 1;
        }
        a.unused += a.vuln2_p - (a.vuln2 / 3 - (a.vuln2 - a.vuln2_p) / 3);
        a.unused += a.vuln1_p - (a.vuln1 / 2 - (a.vuln1 - a.vuln1_p) / 2);
        a.unused += (a.opt[2] / 2) * 3 + (a.opt[1] / 2) * 2 + a.opt[0] / 2;
        // The opponent fills two of the cells left each move, and can
        // never make more moves than their real ones.
        let opp_moves = ((self.empty - 2 * moves - a.unused) / 2).min(self.real_t[1 - v]);
        Some(Eval { moves, opp_moves })
    }

    /// Is the fate of `v` (to move) decided by the finer bounds? The mover
    /// wins if the moves it is sure of exceed the opponent's; loses if the
    /// opponent (having just moved, so to speak: moving second) is sure of
    /// as many moves as the mover can make.
    fn fine_cut(&self, v: usize) -> Option<bool> {
        if self.fine_win(v) {
            Some(true)
        } else if self.fine_loss(v) {
            Some(false)
        } else {
            None
        }
    }

    /// The first half of [`Pos::fine_cut`]: `v`, to move, is sure to win.
    #[inline(always)]
    fn fine_win(&self, v: usize) -> bool {
        self.eval(v, true).is_some_and(|e| e.moves > e.opp_moves)
    }

    /// The second half of [`Pos::fine_cut`]: `v`, to move, is sure to lose.
    #[inline(always)]
    fn fine_loss(&self, v: usize) -> bool {
        self.eval(1 - v, false)
            .is_some_and(|e| e.moves >= e.opp_moves)
    }
}

/// Random keys per symmetry and cell.
struct Keys {
    /// Per symmetry: key of each board cell (`row * width + col`) after
    /// the symmetry; and whether it swaps the players.
    syms: Vec<(Vec<u128>, bool)>,
    width: usize,
    left_to_move: u128,
}

impl Keys {
    fn new(w: usize, h: usize, symmetry: bool) -> Keys {
        // The low 64 bits of each key from one stream (the keys before the
        // check bits came in), the check bits above them from another.
        let mut s = 0x0D0E_5EED_u64;
        let mut s2 = 0xC4EC_D0E5_u64;
        let mut wide = |s: &mut u64| super::wide_key(s, &mut s2);
        let n = w * h;
        let base: Vec<u128> = (0..n).map(|_| wide(&mut s)).collect();
        let mut syms = Vec::new();
        for k in 0..8usize {
            let (flip_r, flip_c, transpose) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
            if k > 0 && !symmetry {
                break;
            }
            if transpose && w != h {
                continue;
            }
            let mut keys = vec![0; n];
            for r in 0..h {
                for c in 0..w {
                    let (mut rr, mut cc) = (r, c);
                    if flip_r {
                        rr = h - 1 - rr;
                    }
                    if flip_c {
                        cc = w - 1 - cc;
                    }
                    if transpose {
                        std::mem::swap(&mut rr, &mut cc);
                    }
                    keys[r * w + c] = base[rr * w + cc];
                }
            }
            syms.push((keys, transpose));
        }
        Keys {
            syms,
            width: w,
            left_to_move: wide(&mut s),
        }
    }

    /// Flip cell (`r`, `c`) in every symmetry's key.
    #[inline]
    fn flip(&self, h: &mut [u128; 8], r: usize, c: usize) {
        let i = r * self.width + c;
        for (x, (k, _)) in h.iter_mut().zip(&self.syms) {
            *x ^= k[i];
        }
    }

    /// Keys of a whole position.
    fn of(&self, p: &Pos) -> [u128; 8] {
        let mut h = [0; 8];
        for r in 0..p.n[HZ] {
            for c in 0..p.n[VT] {
                if p.b[HZ][r + 1] & (1 << (c + 1)) != 0 {
                    self.flip(&mut h, r, c);
                }
            }
        }
        h
    }

    /// The table key of `p` with view `v` to move.
    #[inline]
    fn key(&self, p: &Pos, v: usize) -> Key {
        // The least of the symmetries' keys by (low 64 bits, the 32 above
        // them), as one 128-bit comparison without a branch: those 96 bits
        // moved to the top in that order (the low 32 bits left clear).
        let mut best = u128::MAX;
        for (x, (_, swaps)) in p.hash.iter().zip(&self.syms) {
            let left = (v == VT) != *swaps;
            let k = x ^ if left { self.left_to_move } else { 0 };
            best = best.min(k << 64 | (k >> 64 & u128::from(u32::MAX)) << 32);
        }
        Key {
            hash: (best >> 64) as u64,
            check: (best >> 32) as u32,
        }
    }
}

/// A fixed preference among the placements of a view with `n` lines of
/// `m` cells, for move ordering: lines an even distance from the edge
/// first (a domino on the second line leaves the edge line a safe move),
/// and pairs aligned with the ends of the line; nearer the edges first.
fn place_values(n: usize, m: usize) -> [[u8; LINES]; LINES] {
    let mut t = [[0u8; LINES]; LINES];
    for (l, row) in t.iter_mut().enumerate().take(n + 1).skip(1) {
        for (j, cell) in row.iter_mut().enumerate().take(m).skip(1) {
            let d = l.min(n + 1 - l);
            let k = j.min(m - j);
            let tier = match (d % 2 == 0, k % 2 == 1, d >= 3) {
                (true, true, _) => 4,
                (true, false, _) => 3,
                (false, true, true) => 2,
                (false, false, true) => 1,
                _ => 0,
            };
            // Within a tier, nearer the edge first, then nearer the end.
            let near = 49usize.saturating_sub(8 * d.min(5) + k.min(7));
            *cell = (tier * 50 + near) as u8;
        }
    }
    t
}

/// What the threads share.
struct Shared<'a> {
    place: [[[u8; LINES]; LINES]; 2],
    /// Run the copy of the search compiled for popcount and BMI.
    hw: bool,
    table: &'a Table,
    keys: &'a Keys,
    rules: Rules,
    control: &'a Control<'a>,
    max_nodes: Option<u64>,
    nodes: AtomicU64,
    start: Instant,
    last_report: AtomicU64,
    /// The checkpoint, when the search keeps one.
    saver: Option<&'a checkpoint::Saver<'a>>,
    /// The positions threads are searching now (a dealt root's threads
    /// only: see [`Busy`]).
    busy: Option<Busy>,
}

impl<'a> Shared<'a> {
    /// What a search of `pos` under `rules` shares (started now, keeping
    /// no checkpoint).
    fn new(
        pos: &Pos,
        table: &'a Table,
        keys: &'a Keys,
        rules: Rules,
        control: &'a Control<'a>,
        config: &SearchConfig,
    ) -> Shared<'a> {
        Shared {
            hw: rules.hardware && hardware_search(),
            place: [
                place_values(pos.n[HZ], pos.n[VT]),
                place_values(pos.n[VT], pos.n[HZ]),
            ],
            table,
            keys,
            rules,
            control,
            max_nodes: config.max_nodes,
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            last_report: AtomicU64::new(0),
            saver: None,
            busy: None,
        }
    }
}

/// What the threads of [`Engine::root_dealt`] share: per first move (in
/// the root's order), the next reply to hand out, the replies refuted so
/// far and whether one refuted the first move; and whether a thread
/// stopped with an error (a budget, a stop), so that none waits for it.
struct Deal {
    slots: Vec<Slot>,
    failed: AtomicBool,
}

#[derive(Default)]
struct Slot {
    next: AtomicUsize,
    done: AtomicUsize,
    refuted: AtomicBool,
    /// Each reply's state (made by the first thread to list them: every
    /// thread lists them alike).
    replies: std::sync::OnceLock<Box<[Reply]>>,
}

/// A reply to a first move, dealt out by [`Engine::root_dealt`].
#[derive(Default)]
struct Reply {
    /// Found to lose for the replier (counted in [`Slot::done`] once,
    /// whichever thread found it).
    finished: AtomicBool,
    /// The threads searching it now.
    searching: AtomicUsize,
}

impl Slot {
    /// The reply a free thread should search: the next one nobody has
    /// taken, else (all taken) the unfinished one the fewest threads are
    /// searching, to help them (`None`: all finished).
    fn reply_to_search(&self, replies: &[Reply]) -> Option<usize> {
        let k = self.next.fetch_add(1, Relaxed);
        if k < replies.len() {
            return Some(k);
        }
        least_helped(replies.iter().map(|r| (&r.finished, &r.searching)))
    }
}

impl Deal {
    fn new(moves: usize) -> Deal {
        Deal {
            slots: (0..moves).map(|_| Slot::default()).collect(),
            failed: AtomicBool::new(false),
        }
    }

    /// `e`, after telling the other threads not to wait.
    fn fail(&self, e: SearchError) -> SearchError {
        self.failed.store(true, Relaxed);
        e
    }
}

/// How many of a node's moves [`put_next`] picks one at a time (the best
/// of the rest, a pass over them each) before it sorts the rest: most
/// nodes that stop early stop at their first or second move.
const PICKED: usize = 2;

/// Order `ms` (scored by [`Engine::score_moves`], all scores distinct)
/// best first as far as its move `i`, given that it is so ordered as far
/// as `i - 1`: the order of a sort of the whole, paid for only as far as
/// a node's search goes.
#[inline(always)]
fn put_next(ms: &mut [Mv], i: usize) {
    if i < PICKED {
        let mut best = i;
        for k in i + 1..ms.len() {
            if ms[k].score > ms[best].score {
                best = k;
            }
        }
        ms.swap(i, best);
    } else if i == PICKED {
        ms[i..].sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
    }
}

/// What [`Engine::settle`] found.
enum Settled {
    /// The mover wins (`true`) or loses.
    Decided(bool),
    /// To be searched; the node's table key.
    Open(Key),
}

/// A move: view line and lower bit.
#[derive(Copy, Clone, Debug)]
struct Mv {
    l: u8,
    j: u8,
    score: i32,
}

struct Engine<'s> {
    sh: &'s Shared<'s>,
    counts: SearchCounts,
    unflushed: u64,
    /// Table counts not yet added to the table's.
    tally: table::Tally,
    scratch: Vec<Vec<Mv>>,
    /// A fixed preference by place (see [`place_values`]).
    place: Box<[[[u8; LINES]; LINES]; 2]>,
    depth: usize,
    line: [(u16, u16); LINE_PLIES],
    first: Player,
    root_best: Option<(u8, u8)>,
    split: Option<(usize, usize, &'s AtomicBool)>,
    /// Raised when the first move whose replies this thread is dealt is
    /// refuted by another thread (see [`Engine::root_dealt`]).
    abandon: Option<&'s AtomicBool>,
    /// Exact values of small components (made at the first node that
    /// asks, when [`Rules::value_cells`] is on).
    values: Option<Box<SmallValues>>,
    /// The components of the node [`Engine::by_values`] asks about.
    components: Vec<u128>,
    /// By a node's empty cells: how often [`Engine::by_values`] looked for
    /// the components, how often it found every one small, and the nodes it
    /// passed over.
    valued: Box<[(u32, u32, u32); MAX_CELLS + 1]>,
}

/// See [`Engine::by_values`].
const VALUE_TRIES: u32 = 64;
const VALUE_ODDS: u32 = 8;
/// The asks at which [`Engine::valued`]'s counts are halved (times
/// [`VALUE_ODDS`], still a `u32`).
const VALUE_AGE: u32 = 1 << 28;

impl<'s> Engine<'s> {
    fn new(sh: &'s Shared<'s>) -> Engine<'s> {
        Engine {
            sh,
            counts: SearchCounts::default(),
            unflushed: 0,
            tally: table::Tally::default(),
            scratch: Vec::new(),
            place: Box::new(sh.place),
            depth: 0,
            line: [(0, 0); LINE_PLIES],
            first: Player::Left,
            root_best: None,
            split: None,
            abandon: None,
            values: None,
            components: Vec::new(),
            valued: Box::new([(0, 0, 0); MAX_CELLS + 1]),
        }
    }

    /// Does view `v`, to move, win `p` by the exact values of its
    /// components, all small (`None`: some component is not, or the
    /// question was not worth asking)? Most nodes have a big one, found in
    /// [`components_hw`] where the search runs compiled for popcount (a
    /// call of its own: inlined, its arrays would more than double the
    /// search's stack frame).
    ///
    /// Asked where it pays: a success saves a few nodes (about three on
    /// 8 x 8) and a miss costs about a third of one, so where nodes with
    /// as many empty cells have had all their components small less than
    /// one time in [`VALUE_ODDS`] (after [`VALUE_TRIES`] tries), only one
    /// in [`VALUE_ODDS`] is asked (to go on measuring). The counts are
    /// this engine's own, so one thread's search is the same on every run.
    #[inline(always)]
    fn by_values<const HW: bool>(
        &mut self,
        p: &Pos,
        v: usize,
    ) -> Result<Option<bool>, SearchError> {
        let at = &mut self.valued[p.empty.clamp(0, MAX_CELLS as i32) as usize];
        if at.0 >= VALUE_TRIES && at.1 * VALUE_ODDS < at.0 {
            at.2 = at.2.wrapping_add(1);
            if !at.2.is_multiple_of(VALUE_ODDS) {
                return Ok(None);
            }
        }
        let cells = self.sh.rules.value_cells;
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        // SAFETY: the search's copies for `HW` (`wins_hw` and
        // `root_dealt::<true>`) run only where `Shared::hw` is set, which
        // `hardware_search()` sets only where it found popcount.
        let small = if HW {
            unsafe { components_hw(p, cells, &mut self.components) }
        } else {
            components_portable(p, cells, &mut self.components)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let small = components_portable(p, cells, &mut self.components);
        at.0 += 1;
        if at.0 >= VALUE_AGE {
            // Halved, so that the counts never overflow in a search of many
            // billions of nodes (and recent nodes weigh more).
            at.0 /= 2;
            at.1 /= 2;
        }
        if !small {
            return Ok(None);
        }
        at.1 += 1;
        self.value_components(v).map(Some)
    }

    /// Does view `v`, to move, win the sum of [`Engine::components`]? (A
    /// call of its own, for the search's stack frame, as above.)
    #[inline(never)]
    fn value_components(&mut self, v: usize) -> Result<bool, SearchError> {
        let values = match &mut self.values {
            Some(x) => x,
            None => self
                .values
                .insert(Box::new(SmallValues::new(self.sh.rules.value_cells)?)),
        };
        values.decide(&self.components, v, &mut self.counts)
    }

    fn check(&mut self) -> Result<(), SearchError> {
        let sh = self.sh;
        super::budget::Budget {
            control: sh.control,
            table: Some(sh.table),
            nodes: &sh.nodes,
            start: sh.start,
            last_report: &sh.last_report,
            max_nodes: sh.max_nodes,
        }
        .check(super::budget::Searcher {
            unflushed: &mut self.unflushed,
            tally: &mut self.tally,
            found: self.split.map(|(_, _, f)| f).or(self.abandon),
            first: self.first,
            line: &self.line[..self.depth.min(LINE_PLIES)],
            fill: (0, 0),
        })?;
        if let Some(s) = sh.saver {
            s.save_if_due(sh.table, sh.nodes.load(Relaxed))?;
        }
        Ok(())
    }

    #[inline(always)]
    fn play<const HW: bool>(&self, p: &mut Pos, v: usize, m: Mv) {
        let (l, j) = (usize::from(m.l), usize::from(m.j));
        p.toggle::<HW>(v, l, j);
        let keys = self.sh.keys;
        let mut h = p.hash;
        if v == HZ {
            keys.flip(&mut h, l - 1, j - 1);
            keys.flip(&mut h, l - 1, j);
        } else {
            keys.flip(&mut h, j - 1, l - 1);
            keys.flip(&mut h, j, l - 1);
        }
        p.hash = h;
    }

    /// The moves of view `v` into `out`, safe ones only if nothing else.
    #[inline(always)]
    fn moves(&self, p: &Pos, v: usize, out: &mut Vec<Mv>) {
        out.clear();
        let skip = self.sh.rules.skip_safe;
        for l in 1..=p.n[v] {
            let mut m = starts(&p.b[v], l);
            if skip {
                m &= !safe_starts(&p.b[v], l);
            }
            while m != 0 {
                let j = m.trailing_zeros();
                m &= m - 1;
                out.push(Mv {
                    l: l as u8,
                    j: j as u8,
                    score: 0,
                });
            }
        }
        if out.is_empty() && skip {
            for l in 1..=p.n[v] {
                let mut m = safe_starts(&p.b[v], l);
                while m != 0 {
                    let j = m.trailing_zeros();
                    m &= m - 1;
                    out.push(Mv {
                        l: l as u8,
                        j: j as u8,
                        score: 0,
                    });
                }
            }
        }
    }

    /// Does view `v` win `p`, moving next? The search runs in one of two
    /// copies of [`Engine::wins_body`]: one compiled for popcount and the
    /// BMI instructions (x86-64 processors that have them, detected at run
    /// time: the baseline build has neither, and a software popcount costs
    /// about ten instructions a line), the other portable.
    fn wins(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        if self.sh.hw {
            self.child::<true>(p, v)
        } else {
            self.child::<false>(p, v)
        }
    }

    /// The `HW` copy of the search at `p`.
    #[inline(always)]
    fn child<const HW: bool>(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        #[cfg(target_arch = "x86_64")]
        if HW {
            return self.wins_hw_dispatch(p, v);
        }
        self.wins_portable(p, v)
    }

    /// The portable copy.
    #[inline(never)]
    fn wins_portable(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        self.wins_body::<false>(p, v)
    }

    /// The call into the copy compiled for popcount and BMI.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    #[inline(always)]
    fn wins_hw_dispatch(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        // SAFETY: `Shared::hw` is true only where `hardware_search()` found
        // every feature `wins_hw` is compiled for (this is the only path to
        // it: `child::<true>` is reached from `wins` when `hw` is set, and
        // from `wins_hw` itself).
        unsafe { self.wins_hw(p, v) }
    }

    /// The copy compiled for popcount and BMI.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn wins_hw(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        self.wins_body::<true>(p, v)
    }

    /// Sort `ms` best first: moves with a cell the opponent cannot reach
    /// last (they waste a cell only the mover could use), then by how the
    /// move changes both players' real and safe moves and the cell's place
    /// value, ties in generation order: every score differs in its low
    /// bits, so the sort's own order of equal keys (which may change with
    /// the toolchain) never shows (one formula for every node, the
    /// checkpointed root included).
    #[inline(always)]
    fn order<const HW: bool>(&self, p: &Pos, v: usize, ms: &mut [Mv]) {
        self.score_moves::<HW>(p, v, ms);
        ms.sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
    }

    /// The scores of [`Engine::order`], best highest, the moves left where
    /// they are: a node's search brings the best of the rest to the front
    /// for its first [`PICKED`] moves and sorts the rest only if it gets
    /// that far ([`put_next`]), the same order as a sort's.
    #[inline(always)]
    fn score_moves<const HW: bool>(&self, p: &Pos, v: usize, ms: &mut [Mv]) {
        const LAST: i32 = (1 << 12) - 1;
        for (i, m) in ms.iter_mut().enumerate() {
            let (l, j) = (usize::from(m.l), usize::from(m.j));
            let s = p.score::<HW>(v, l, j);
            let earlier = LAST - i32::try_from(i).map_or(LAST, |i| i.min(LAST));
            let stage = if guarded(&p.b[v], l) >> m.j & 3 == 0 {
                1 << 28
            } else {
                0
            };
            let place = i32::from(self.place[v][l][j]);
            m.score = stage + (s << 22) + (place << 12) + earlier;
        }
    }

    /// What a node's own checks say before any of its moves is searched
    /// (the root asks none of them): the bounds, the table and the values
    /// of small components; else its table key, for the search.
    #[inline(always)]
    fn settle<const HW: bool>(&mut self, p: &Pos, v: usize) -> Result<Settled, SearchError> {
        let rules = self.sh.rules;
        if rules.simple_bound {
            if let Some(w) = p.simple_cut(v) {
                self.counts.by_bounds += 1;
                return Ok(Settled::Decided(w));
            }
        }
        // The key now and its bucket fetched while the finer bound is
        // computed, so that the probe after it seldom waits for memory
        // (the key is wasted at the nodes the bound decides; measured, the
        // prefetch more than pays for it: see the README).
        let key = self.sh.keys.key(p, v);
        self.sh.table.prefetch(key);
        // The mover's half of the finer bound decides most of the nodes it
        // decides at all (1.70 M of 1.85 M on 8 x 8); the table answers
        // most of the rest (0.40 M of 0.98 M), so it comes before the
        // opponent's half.
        if rules.fine_bound && p.fine_win(v) {
            self.counts.by_bounds += 1;
            return Ok(Settled::Decided(true));
        }
        if let Some(win) = self.sh.table.answer_counted(key, 0, &mut self.tally) {
            self.counts.table_hits += 1;
            return Ok(Settled::Decided(win));
        }
        if rules.fine_bound && p.fine_loss(v) {
            self.counts.by_bounds += 1;
            return Ok(Settled::Decided(false));
        }
        if rules.value_cells > 0 {
            if let Some(w) = self.by_values::<HW>(p, v)? {
                self.counts.by_value += 1;
                return Ok(Settled::Decided(w));
            }
        }
        Ok(Settled::Open(key))
    }

    /// The search at one node (see [`Engine::wins`]).
    #[inline(always)]
    fn wins_body<const HW: bool>(&mut self, p: &mut Pos, v: usize) -> Result<bool, SearchError> {
        self.counts.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.check()?;
        }
        let rules = self.sh.rules;
        let root = self.depth == 0;
        let o = 1 - v;
        let key = if root {
            self.sh.keys.key(p, v)
        } else {
            match self.settle::<HW>(p, v)? {
                Settled::Decided(w) => return Ok(w),
                Settled::Open(key) => key,
            }
        };
        self.counts.expanded += 1;
        let before = self.counts.nodes;
        while self.scratch.len() <= self.depth {
            self.scratch.push(Vec::new());
        }
        let mut ms = std::mem::take(&mut self.scratch[self.depth]);
        self.moves(p, v, &mut ms);
        if rules.ordering {
            self.score_moves::<HW>(p, v, &mut ms);
        }
        let n = ms.len().min(u16::MAX as usize) as u16;
        let mut win = false;
        let mut result = Ok(());
        // With threads dealt the root's replies, a node near the root is
        // marked while searched here, and a child another thread is
        // searching is put off: pushed again after the node's moves, with
        // its rank in its score, and searched then whatever its mark.
        let busy = (self.depth <= BUSY_DEPTH && !root)
            .then_some(self.sh.busy.as_ref())
            .flatten();
        let marked = busy
            .map(|b| (b, Busy::mark(p.hash[0], v as u64)))
            .filter(|(b, mark)| b.enter(*mark));
        let defer = busy.filter(|_| self.depth < BUSY_DEPTH);
        let listed = ms.len();
        let mut i = 0;
        while i < ms.len() {
            if rules.ordering && i < listed {
                put_next(&mut ms[..listed], i);
            }
            let m = ms[i];
            let rank = if i < listed { i } else { m.score as usize };
            i += 1;
            if let (true, Some((share, shares, found))) = (root, self.split) {
                if rank % shares != share {
                    continue;
                }
                if found.load(Relaxed) {
                    result = Err(SearchError::Sibling);
                    break;
                }
            }
            if self.depth < LINE_PLIES {
                self.line[self.depth] = (rank as u16 + 1, n);
            }
            let mut c = p.clone();
            self.play::<HW>(&mut c, v, m);
            if let Some(b) = defer {
                if 1 < i && i <= listed && b.busy(Busy::mark(c.hash[0], o as u64)) {
                    ms.push(Mv {
                        score: rank as i32,
                        ..m
                    });
                    continue;
                }
            }
            self.depth += 1;
            let w = self.child::<HW>(&mut c, o);
            self.depth -= 1;
            match w {
                Err(e) => {
                    result = Err(e);
                    break;
                }
                Ok(false) => {
                    win = true;
                    if root {
                        self.root_best = Some((m.l, m.j));
                        if let Some((_, _, found)) = self.split {
                            found.store(true, Relaxed);
                        }
                    }
                    break;
                }
                Ok(true) => {}
            }
        }
        if let Some((b, mark)) = marked {
            b.leave(mark);
        }
        self.scratch[self.depth] = ms;
        result?;
        let spent = self.counts.nodes - before;
        let work = (64 - spent.leading_zeros()) as u8;
        if !(root && self.split.is_some()) {
            self.sh
                .table
                .store(key, Entry::decided(win, work), &mut self.tally);
        }
        Ok(win)
    }

    fn solve_root(
        &mut self,
        board: &Board,
        pos: &Pos,
        first: Player,
        deal: Option<(&'s Deal, usize)>,
    ) -> Result<FirstPlayer, SearchError> {
        let start = Instant::now();
        let before = self.counts;
        self.first = first;
        self.root_best = None;
        self.depth = 0;
        let mut p = pos.clone();
        let v = view_of(first);
        let wins = match (self.sh.saver, deal) {
            (None, None) => self.wins(&mut p, v),
            (None, Some((deal, share))) if self.sh.hw => {
                self.root_dealt::<true>(&p, v, deal, share)
            }
            (None, Some((deal, share))) => self.root_dealt::<false>(&p, v, deal, share),
            (Some(saver), _) => self.root_kept(board, &p, v, saver),
        };
        self.sh.table.add(&mut self.tally);
        self.sh.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
        let wins = wins?;
        let mut counts = self.counts;
        counts.nodes -= before.nodes;
        counts.table_hits -= before.table_hits;
        counts.by_bounds -= before.by_bounds;
        counts.expanded -= before.expanded;
        counts.by_value -= before.by_value;
        counts.regions_valued -= before.regions_valued;
        let winning_move = match (wins, self.root_best) {
            (true, Some((l, j))) => {
                let mut q = pos.clone();
                q.toggle::<false>(v, usize::from(l), usize::from(j));
                Some(q.board(board))
            }
            _ => None,
        };
        Ok(FirstPlayer {
            player: first,
            wins,
            winning_move,
            counts,
            elapsed: start.elapsed(),
        })
    }

    /// The root of a first player's search on several threads (this one
    /// is `share`): the first moves are tried in the root's order by all
    /// the threads together, the opponent's replies to each handed out
    /// in order to whichever thread is free (once all are handed out, a
    /// free thread joins the search of an unfinished one, where the marks
    /// of [`Busy`] keep it off the other threads' lines), until a reply
    /// refutes it (the threads drop it and go on to the next) or every
    /// reply is refuted (it wins). Where the first player wins, nearly all
    /// the work is under one first move, all of whose replies must be
    /// searched, so the threads share that work rather than each searching
    /// a first move of its own that may not be needed. Counts the root and
    /// the first moves' positions once (in share 0).
    fn root_dealt<const HW: bool>(
        &mut self,
        p: &Pos,
        v: usize,
        deal: &'s Deal,
        share: usize,
    ) -> Result<bool, SearchError> {
        let o = 1 - v;
        let counted = share == 0;
        if counted {
            self.counts.nodes += 1;
            self.counts.expanded += 1;
            self.unflushed += 1;
        }
        let mut ms = Vec::new();
        self.moves(p, v, &mut ms);
        if self.sh.rules.ordering {
            self.order::<HW>(p, v, &mut ms);
        }
        let n = ms.len().min(u16::MAX as usize) as u16;
        let mut replies = Vec::new();
        for (i, &m) in ms.iter().enumerate() {
            let Some(slot) = deal.slots.get(i) else {
                break;
            };
            self.line[0] = (i as u16 + 1, n);
            self.depth = 1;
            let mut c = p.clone();
            self.play::<HW>(&mut c, v, m);
            let kept = self.counts;
            let settled = self.settle::<HW>(&c, o);
            if counted {
                self.counts.nodes += 1;
                self.unflushed += 1;
            } else {
                self.counts = kept;
            }
            let key = match settled {
                Ok(Settled::Decided(true)) => {
                    slot.refuted.store(true, Relaxed);
                    continue;
                }
                Ok(Settled::Decided(false)) => {
                    self.depth = 0;
                    self.root_best = Some((m.l, m.j));
                    return Ok(true);
                }
                Ok(Settled::Open(key)) => key,
                Err(e) => return Err(deal.fail(e)),
            };
            if counted {
                self.counts.expanded += 1;
            }
            self.moves(&c, o, &mut replies);
            if self.sh.rules.ordering {
                self.order::<HW>(&c, o, &mut replies);
            }
            let rn = replies.len().min(u16::MAX as usize) as u16;
            let state = slot
                .replies
                .get_or_init(|| replies.iter().map(|_| Reply::default()).collect());
            let before = self.counts.nodes;
            self.abandon = Some(&slot.refuted);
            let mut failed = None;
            while !slot.refuted.load(Relaxed) && !deal.failed.load(Relaxed) {
                let Some(k) = slot.reply_to_search(state) else {
                    break;
                };
                let (Some(&r), Some(reply)) = (replies.get(k), state.get(k)) else {
                    break;
                };
                self.line[1] = (k as u16 + 1, rn);
                let mut g = c.clone();
                self.play::<HW>(&mut g, o, r);
                self.depth = 2;
                reply.searching.fetch_add(1, Relaxed);
                let w = self.child::<HW>(&mut g, v);
                reply.searching.fetch_sub(1, Relaxed);
                self.depth = 1;
                match w {
                    Ok(true) => {
                        if !reply.finished.swap(true, AcqRel) {
                            slot.done.fetch_add(1, AcqRel);
                        }
                    }
                    Ok(false) => slot.refuted.store(true, Relaxed),
                    Err(SearchError::Sibling) => {}
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            self.abandon = None;
            if let Some(e) = failed {
                return Err(deal.fail(e));
            }
            // Every reply is finished: wait for the last count.
            while !slot.refuted.load(Relaxed) && slot.done.load(Acquire) < replies.len() {
                if deal.failed.load(Relaxed) {
                    return Err(SearchError::Sibling);
                }
                std::thread::yield_now();
            }
            if !slot.refuted.load(Relaxed) {
                let spent = self.counts.nodes - before;
                let work = (64 - spent.leading_zeros()) as u8;
                self.sh
                    .table
                    .store(key, Entry::decided(false, work), &mut self.tally);
                self.depth = 0;
                self.root_best = Some((m.l, m.j));
                return Ok(true);
            }
        }
        self.depth = 0;
        Ok(false)
    }

    /// The root of a search that keeps a checkpoint: each first move is
    /// searched in turn (its share of them, when the root is split) and,
    /// once refuted, recorded in the checkpoint, so a resumed run skips
    /// the first moves an earlier run refuted. Otherwise as the node search
    /// at the root: the same order, counts and table entry, so a
    /// run that keeps a checkpoint searches what one without does.
    fn root_kept(
        &mut self,
        board: &Board,
        p: &Pos,
        v: usize,
        saver: &checkpoint::Saver<'_>,
    ) -> Result<bool, SearchError> {
        let first = self.first;
        let refuted = saver.state().solved[usize::from(first == Player::Right)].clone();
        self.counts.nodes += 1;
        self.unflushed += 1;
        let key = self.sh.keys.key(p, v);
        self.counts.expanded += 1;
        let before = self.counts.nodes;
        let mut ms = Vec::new();
        self.moves(p, v, &mut ms);
        if self.sh.rules.ordering {
            self.order::<false>(p, v, &mut ms);
        }
        let n = ms.len().min(u16::MAX as usize) as u16;
        let mut win = false;
        for (rank, &m) in ms.iter().enumerate() {
            // Shares by rank in the full order (the same in both threads),
            // so that a move refuted by the other thread meanwhile cannot
            // shift them.
            if let Some((share, shares, found)) = self.split {
                if rank % shares != share {
                    continue;
                }
                if found.load(Relaxed) {
                    return Err(SearchError::Sibling);
                }
            }
            let mut c = p.clone();
            self.play::<false>(&mut c, v, m);
            let after = c.board(board);
            if refuted.contains(&after) {
                continue;
            }
            self.line[0] = (rank as u16 + 1, n);
            self.depth = 1;
            let w = self.wins(&mut c, 1 - v);
            self.depth = 0;
            if !w? {
                win = true;
                self.root_best = Some((m.l, m.j));
                if let Some((_, _, found)) = self.split {
                    found.store(true, Relaxed);
                }
                break;
            }
            saver.refuted(first, after);
        }
        if self.split.is_none() {
            let spent = self.counts.nodes - before;
            let work = (64 - spent.leading_zeros()) as u8;
            let e = Entry::decided(win, work);
            self.sh.table.store(key, e, &mut self.tally);
        }
        Ok(win)
    }
}

/// The fast path's rules for `config`: everything on, less what the
/// configuration turns off.
fn rules_for(config: &SearchConfig) -> Rules {
    let mut rules = Rules::ALL;
    rules.symmetry = config.symmetry;
    rules.ordering = config.ordering != super::MoveOrdering::Natural;
    rules.value_cells = config.value_cells.min(MAX_VALUE_CELLS);
    if !config.bounds {
        rules.simple_bound = false;
        rules.fine_bound = false;
    }
    rules
}

/// The fast path of [`super::solve`] for Domineering: `None` when it does
/// not apply (misère play, or a side longer than [`MAX_SIDE`]).
pub fn solve(
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
) -> Option<Result<SearchReport, SearchError>> {
    solve_with(board, config, control, rules_for(config))
}

/// [`solve`] with a choice of rules (for the twin tests and the bench).
pub fn solve_with(
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    rules: Rules,
) -> Option<Result<SearchReport, SearchError>> {
    run(board, config, control, rules, None).map(|r| r.map(|(rep, _)| rep))
}

/// [`solve`] keeping a checkpoint at `file` (the format of
/// [`checkpoint`]; see [`super::solve_resumable`]): the table's proven
/// entries, which first players are decided, and each undecided first
/// player's refuted first moves, written every `every` and when the
/// search stops. A resumed run skips the refuted first moves and finds
/// the saved entries in its table; what it loses is the search inside
/// the first move that was open when the run stopped, beyond the entries
/// the table kept.
pub fn solve_resumable(
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    file: &std::path::Path,
    every: std::time::Duration,
) -> Option<Result<(SearchReport, Resumed), SearchError>> {
    run(
        board,
        config,
        control,
        rules_for(config),
        Some((file, every)),
    )
    .map(|r| r.map(|(rep, res)| (rep, res.unwrap_or_default())))
}

/// What identifies a search of this engine for its checkpoint (its table
/// keys depend on the rectangle and on the symmetry folding only).
pub fn fingerprint(board: &Board, symmetry: bool) -> checkpoint::Fingerprint {
    checkpoint::Fingerprint {
        engine: "domineering".to_string(),
        ruleset: Domineering.name().to_string(),
        board: Domineering.format(board),
        convention: Convention::Normal,
        value_cells: 0,
        symmetry,
    }
}

/// The search, with a checkpoint when `resume` names one.
fn run(
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    rules: Rules,
    resume: Option<(&std::path::Path, std::time::Duration)>,
) -> Option<Result<(SearchReport, Option<Resumed>), SearchError>> {
    if config.convention != Convention::Normal {
        return None;
    }
    let mut pos = Pos::new(board)?;
    if !(1..=super::MAX_THREADS).contains(&config.threads) {
        return Some(Err(SearchError::Threads(config.threads)));
    }
    let start = Instant::now();
    let table = Table::with_bytes(config.table_bytes);
    let mut resumed = None;
    let saver = match resume {
        None => None,
        Some((path, every)) => match open_checkpoint(board, rules, &table, path) {
            Ok(state) => {
                resumed = Some(Resumed::of(path, &state.0, state.1));
                Some(checkpoint::Saver::new(path, every, state.0))
            }
            Err(e) => return Some(Err(e)),
        },
    };
    let keys = Keys::new(board.width(), board.height(), rules.symmetry);
    pos.hash = keys.of(&pos);
    let mut sh = Shared::new(&pos, &table, &keys, rules, control, config);
    sh.start = start;
    sh.saver = saver.as_ref();
    if config.threads >= 2 && saver.is_none() {
        sh.busy = Some(Busy::new());
    }
    // One first player: left out, from the checkpoint, or searched (and
    // recorded in the checkpoint).
    let one = |first: Player, search: &dyn Fn() -> Result<FirstPlayer, SearchError>| {
        checkpoint::one_first_player(config, saver.as_ref(), &table, &sh.nodes, first, search)
    };
    // One first player on `n` threads: its root's moves split among them.
    let search = |first: Player, n: usize| -> Result<FirstPlayer, SearchError> {
        if n >= 2 {
            split(&sh, board, &pos, first, n)
        } else {
            Engine::new(&sh).solve_root(board, &pos, first, None)
        }
    };
    let result = super::first_players(config, &one, &search, || {
        let e = std::cell::RefCell::new(Engine::new(&sh));
        let l = one(Player::Left, &|| {
            e.borrow_mut().solve_root(board, &pos, Player::Left, None)
        })?;
        let r = one(Player::Right, &|| {
            e.borrow_mut().solve_root(board, &pos, Player::Right, None)
        })?;
        Ok((l, r))
    });
    if let (Some(s), Some(r)) = (&saver, &mut resumed) {
        r.nodes_now = sh.nodes.load(Relaxed);
        // Stopped or finished: the checkpoint as of now (a failed write
        // of it outranks the stop).
        match s.save(&table, r.nodes_now) {
            Ok(n) => r.entries_saved = n,
            Err(e) => return Some(Err(e.into())),
        }
    }
    Some(result.map(|(left, right)| {
        (
            SearchReport::new(left, right, table.stats(), *config, start.elapsed()),
            resumed,
        )
    }))
}

/// Asks "does this player, moving first, win this board?" of the fast
/// path ([`with_oracle`]).
pub type Oracle<'a> = dyn FnMut(&Board, Player) -> Result<bool, SearchError> + 'a;

/// Solve `board` on one thread, then run `f` with the search's report and
/// the fast path as an oracle for boards of `board`'s rectangle, on the
/// same engine and table (the certificate prover's choice of winning
/// moves: what the search found stays in the table for it); `f(None)`
/// where [`solve`] does not apply.
pub fn with_oracle<T>(
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    f: impl FnOnce(Option<(SearchReport, &mut Oracle<'_>)>) -> Result<T, SearchError>,
) -> Result<T, SearchError> {
    let mut pos = match Pos::new(board) {
        Some(p) if config.convention == Convention::Normal => p,
        _ => return f(None),
    };
    let start = Instant::now();
    let rules = rules_for(config);
    let table = Table::with_bytes(config.table_bytes);
    let keys = Keys::new(board.width(), board.height(), rules.symmetry);
    pos.hash = keys.of(&pos);
    let sh = Shared::new(&pos, &table, &keys, rules, control, config);
    let e = std::cell::RefCell::new(Engine::new(&sh));
    let one = |first: Player| {
        checkpoint::one_first_player(config, None, &table, &sh.nodes, first, &|| {
            e.borrow_mut().solve_root(board, &pos, first, None)
        })
    };
    let left = one(Player::Left)?;
    let right = one(Player::Right)?;
    let report = SearchReport::new(left, right, table.stats(), *config, start.elapsed());
    let mut e = e.into_inner();
    let (w, h) = (board.width(), board.height());
    let mut ask = |b: &Board, mover: Player| -> Result<bool, SearchError> {
        if (b.width(), b.height()) != (w, h) {
            return Err(SearchError::Inconsistent(format!(
                "the oracle was asked of a {}x{} board, not {w}x{h}",
                b.width(),
                b.height()
            )));
        }
        let Some(mut p) = Pos::new(b) else {
            return Err(SearchError::Inconsistent(
                "the oracle cannot hold the board".to_string(),
            ));
        };
        p.hash = keys.of(&p);
        // Below the root: the table answers, no root move is kept.
        e.first = mover;
        e.depth = 1;
        let r = e.wins(&mut p, view_of(mover));
        e.depth = 0;
        r
    };
    f(Some((report, &mut ask)))
}

/// The checkpoint at `path` read into `table` (a fresh state when there is
/// none), refused when its moves are not moves of `board`.
fn open_checkpoint(
    board: &Board,
    rules: Rules,
    table: &Table,
    path: &std::path::Path,
) -> Result<(checkpoint::State, u64), SearchError> {
    let expected = fingerprint(board, rules.symmetry);
    let (state, loaded) = checkpoint::read(path, &expected, table)?
        .unwrap_or((checkpoint::State::fresh(expected), 0));
    let moves = [&state.left, &state.right]
        .into_iter()
        .flatten()
        .filter_map(|d| d.winning_move.as_ref())
        .chain(state.solved.iter().flatten());
    for m in moves {
        if !super::is_option(&Domineering, board, m) {
            return Err(checkpoint::CheckpointError::Corrupt {
                path: path.to_path_buf(),
                why: "a first move that is no move of the board".to_string(),
            }
            .into());
        }
    }
    Ok((state, loaded))
}

/// Whether this processor has what the hardware copy of the search is
/// compiled for (see `Engine::wins`).
pub fn hardware_search() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One first player with the root's moves shared among `n` threads.
fn split(
    sh: &Shared<'_>,
    board: &Board,
    pos: &Pos,
    first: Player,
    n: usize,
) -> Result<FirstPlayer, SearchError> {
    if sh.saver.is_some() {
        // A checkpointed root keeps its refuted first moves: each thread
        // searches its share of them.
        return super::split_root(first, n, |share, found| {
            let mut e = Engine::new(sh);
            e.split = Some((share, n, found));
            Ok((e.solve_root(board, pos, first, None), e.counts))
        });
    }
    let mut ms = Vec::new();
    Engine::new(sh).moves(pos, view_of(first), &mut ms);
    let deal = Deal::new(ms.len());
    super::split_root(first, n, |share, _| {
        let mut e = Engine::new(sh);
        Ok((
            e.solve_root(board, pos, first, Some((&deal, share))),
            e.counts,
        ))
    })
}

/// [`Pos::small_components`] as the search had it before [`row_runs`]
/// (its twin, from the same cells, [`Pos::joinable`]): each row filled a
/// cell a step, the size checked after each sweep.
#[cfg(test)]
fn small_components_scan(p: &Pos, max: u32, out: &mut Vec<u128>) -> bool {
    out.clear();
    let h = p.n[HZ];
    let (mut rest, mut left) = p.joinable();
    let mut r0 = 1;
    while left > 0 {
        while rest[r0] == 0 {
            r0 += 1;
        }
        let mut comp = [0u32; LINES];
        let e = rest[r0];
        let mut x = e & e.wrapping_neg();
        loop {
            let y = (x | (x << 1)) & e;
            if y == x {
                break;
            }
            x = y;
        }
        comp[r0] = x;
        let (mut lo, mut hi) = (r0, r0);
        let mut size = x.count_ones();
        loop {
            // One sweep down and up the rows the component may reach,
            // each row filled along itp.
            let mut grown = 0;
            let top = (hi + 1).min(h);
            for r in (lo.max(2) - 1..=top).chain((lo.max(2) - 1..=top).rev()) {
                let e = rest[r];
                let mut x = (comp[r] | comp[r - 1] | comp[r + 1]) & e;
                if x == comp[r] {
                    continue;
                }
                loop {
                    let y = (x | (x << 1) | (x >> 1)) & e;
                    if y == x {
                        break;
                    }
                    x = y;
                }
                grown += (x ^ comp[r]).count_ones();
                comp[r] = x;
                lo = lo.min(r);
                hi = hi.max(r);
            }
            size += grown;
            if size > max {
                return false;
            }
            if grown == 0 {
                break;
            }
        }
        let mut cols = 0;
        for r in lo..=hi {
            rest[r] &= !comp[r];
            cols |= comp[r];
        }
        left -= size;
        out.push(shape_key(&comp[lo..=hi], cols));
    }
    true
}

/// [`pack_vuln`] cell by cell, as the search had it before the table of
/// [`VULN`] (its twin): greedy packing of vulnerable placements (and the
/// unused cells) on the cells the protective areas left, line by line,
/// left to right.
#[cfg(test)]
fn pack_vuln_scan(b: &[u32; LINES], n: usize, used: &mut [u32; LINES], a: &mut Areas) {
    let (mut v2, mut v2p, mut v1, mut v1p, mut u) = (0, 0, 0, 0, 0);
    for l in 1..=n {
        // Cells of line `l` beside which, on line `l+1`, the opponent
        // could place across (so one of their moves can spoil two of
        // ours): an empty cell of the next line with an empty neighbour.
        let next = b[l + 1];
        let shared = used[l - 1] | !(next | (next << 1)) | !(next | (next >> 1));
        let free = !(b[l] | used[l]);
        let guard = b[l - 1] & b[l + 1];
        let mut state = 0u8;
        let mut start = 0u32;
        let mut prev = 0u32;
        let mut cur = free;
        // Close the run at `prev` (the cell before a gap or the end).
        let close =
            |state: u8, start: u32, prev: u32, used: &mut u32, counts: &mut (i32, i32, i32)| {
                // counts: (v_p when type 2, v_p when type 1, unused)
                match state {
                    1 => {
                        counts.2 += 1;
                        *used |= prev;
                    }
                    3 => {
                        *used |= start | (start << 1);
                        if (start | (start << 1)) & shared != 0 {
                            counts.0 += 1;
                        } else {
                            counts.1 += 1;
                        }
                    }
                    _ => {}
                }
            };
        while cur != 0 {
            let t = cur & cur.wrapping_neg();
            cur ^= t;
            if (t >> 1) & prev == 0 {
                let mut c = (0, 0, 0);
                close(state, start, prev, &mut used[l], &mut c);
                v2p += c.0;
                v1p += c.1;
                u += c.2;
                state = 0;
            }
            prev = t;
            if t & guard != 0 {
                // An empty cell the opponent cannot reach.
                state = match state {
                    0 => 1,
                    1 => 0, // a safe pair (already counted as safe)
                    2 => 3,
                    3 => 4, // the start's partner plus a safe pair
                    _ => 3,
                };
            } else {
                match state {
                    0 => {
                        state = 2;
                        start = t;
                    }
                    1 => {
                        state = 0;
                        let m = t | (t >> 1);
                        used[l] |= m;
                        if m & shared != 0 {
                            v2p += 1;
                        } else {
                            v1p += 1;
                        }
                    }
                    2 => {
                        state = 0;
                        let m = start | (start << 1);
                        used[l] |= m;
                        if m & shared != 0 {
                            v2 += 1;
                        } else {
                            v1 += 1;
                        }
                    }
                    3 => {
                        state = 2;
                        let m = start | (start << 1);
                        used[l] |= m;
                        if m & shared != 0 {
                            v2p += 1;
                        } else {
                            v1p += 1;
                        }
                        start = t;
                    }
                    _ => {
                        state = 2;
                        start = t;
                    }
                }
            }
        }
        let mut c = (0, 0, 0);
        close(state, start, prev, &mut used[l], &mut c);
        v2p += c.0;
        v1p += c.1;
        u += c.2;
    }
    a.vuln2 = v2 + v2p;
    a.vuln2_p = v2p;
    a.vuln1 = v1 + v1p;
    a.vuln1_p = v1p;
    a.unused = u;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves put in place one at a time by [`put_next`] come in the order
    /// of a sort of the whole, however many of them a node searches.
    #[test]
    fn moves_put_next_come_in_sorted_order() {
        let mut x = 0x2545_F491u32;
        for len in 0..40usize {
            let mut ms: Vec<Mv> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    // Distinct scores, as Engine::score_moves makes them.
                    let score = ((x % 64) as i32 - 32) * 64 + i as i32;
                    Mv {
                        l: 1,
                        j: i as u8,
                        score,
                    }
                })
                .collect();
            let mut want = ms.clone();
            want.sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
            for i in 0..ms.len() {
                put_next(&mut ms, i);
                assert_eq!(ms[i].score, want[i].score, "move {i} of {len}");
            }
        }
    }

    /// A free thread takes the next reply nobody has taken, and once all
    /// are taken helps the unfinished one the fewest threads are searching.
    #[test]
    fn free_threads_take_new_replies_then_help_the_last() {
        let slot = Slot::default();
        let replies: Vec<Reply> = (0..3).map(|_| Reply::default()).collect();
        let start = |k: usize| replies[k].searching.fetch_add(1, Relaxed);
        let stop = |k: usize, done: bool| {
            replies[k].searching.fetch_sub(1, Relaxed);
            replies[k].finished.store(done, Relaxed);
        };
        for k in 0..3 {
            assert_eq!(slot.reply_to_search(&replies), Some(k));
            start(k);
        }
        stop(0, true);
        // All taken: the first of the unfinished ones (1 and 2, one
        // thread each), then the one with fewer threads.
        assert_eq!(slot.reply_to_search(&replies), Some(1));
        start(1);
        assert_eq!(slot.reply_to_search(&replies), Some(2));
        start(2);
        stop(2, true);
        stop(2, true);
        assert_eq!(slot.reply_to_search(&replies), Some(1), "2 is finished");
        stop(1, true);
        stop(1, true);
        assert_eq!(slot.reply_to_search(&replies), None, "all finished");
    }

    /// A position's mark is never the empty slot's, tells the movers
    /// apart, and is busy exactly while entered; a second entry of a
    /// taken slot is refused.
    #[test]
    fn busy_marks_follow_entries() {
        let busy = Busy::new();
        let b = Domineering.parse("....|....|....").unwrap();
        let mut p = Pos::new(&b).unwrap();
        p.hash = Keys::new(b.width(), b.height(), true).of(&p);
        let (h, v) = (
            Busy::mark(p.hash[0], HZ as u64),
            Busy::mark(p.hash[0], VT as u64),
        );
        assert_ne!(h, v);
        assert!(h != 0 && v != 0);
        assert!(!busy.busy(h));
        assert!(busy.enter(h));
        assert!(busy.busy(h));
        assert!(!busy.enter(h), "entered twice");
        busy.leave(h);
        assert!(!busy.busy(h));
        assert!(busy.enter(h));
    }

    /// The table-driven [`pack_vuln`] packs as its cell-by-cell twin:
    /// random views of every size (random filled cells, the protective
    /// areas packed first as in the search), all its counts and cells.
    #[test]
    fn vulnerable_packing_by_table_matches_the_scan() {
        let mut rng = fastrand::Rng::with_seed(0x5EED_0042);
        for round in 0..40_000 {
            let n = 1 + round % MAX_SIDE;
            let m = 1 + rng.usize(..MAX_SIDE);
            let mut b = [!0u32; LINES];
            let fill = rng.u32(1..8);
            for line in b.iter_mut().take(n + 1).skip(1) {
                for c in 1..=m {
                    if rng.u32(..8) >= fill {
                        *line &= !(1 << c);
                    }
                }
            }
            let mut used = [0u32; LINES];
            let prot = pack_prot(&b, n, &mut used);
            let mut twin_used = used;
            let (mut a, mut twin) = (Areas::default(), Areas::default());
            pack_vuln(&b, n, &mut used, &mut a);
            pack_vuln_scan(&b, n, &mut twin_used, &mut twin);
            let key = |a: &Areas| (a.vuln2, a.vuln2_p, a.vuln1, a.vuln1_p, a.unused);
            assert_eq!(key(&a), key(&twin), "{n} lines {prot} areas {b:x?}");
            assert_eq!(used, twin_used, "{n} lines {b:x?}");
        }
    }

    /// Also: two lines packed at once ([`pack_bits2`], [`count_halves`])
    /// match one at a time.
    #[test]
    fn branch_free_packing_matches_the_greedy_twin() {
        let mut x = 0x9E37_79B9u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let starts = x & (x >> 3) & 0x7FFF_FFFF;
            assert_eq!(pack(starts), pack_greedy(starts), "{starts:#b}");
            assert_eq!(pack(x & 0x7FFF_FFFF), pack_greedy(x & 0x7FFF_FFFF));
            let (a, b) = (x & 0x7FFF_FFFF, starts);
            let bits = pack_bits2(u64::from(a) | (u64::from(b) << 32));
            assert_eq!(
                count_halves::<false>(bits),
                (pack(a), pack(b)),
                "{a:#b} {b:#b}"
            );
            assert_eq!(
                count_halves::<true>(bits),
                (pack(a), pack(b)),
                "{a:#b} {b:#b}"
            );
        }
    }

    /// The move order is a function of the position alone: every score
    /// differs, best first, and moves of equal merit keep the order they
    /// were generated in (so neither the sort's handling of equal keys
    /// nor anything searched before can change a tree).
    #[test]
    fn moves_are_ordered_by_merit_then_generation() {
        let config = SearchConfig::new(Convention::Normal);
        let control = Control::default();
        let table = Table::with_bytes(1 << 20);
        let mut x = 0x2545_F491u32;
        let mut ties = 0;
        for round in 0..200 {
            let (w, h) = (5 + round % 5, 4 + round % 6);
            let mut rows = Vec::new();
            for _ in 0..h {
                let row: String = (0..w)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        if x.is_multiple_of(5) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect();
                rows.push(row);
            }
            let board = Domineering.parse(&rows.join("|")).unwrap();
            let mut pos = Pos::new(&board).unwrap();
            let keys = Keys::new(board.width(), board.height(), true);
            pos.hash = keys.of(&pos);
            let sh = Shared::new(&pos, &table, &keys, Rules::ALL, &control, &config);
            let engine = Engine::new(&sh);
            for v in [HZ, VT] {
                let mut generated = Vec::new();
                engine.moves(&pos, v, &mut generated);
                let mut ordered = generated.clone();
                engine.order::<false>(&pos, v, &mut ordered);
                let mut hw = generated.clone();
                engine.order::<true>(&pos, v, &mut hw);
                let at = |m: &Mv| {
                    generated
                        .iter()
                        .position(|g| (g.l, g.j) == (m.l, m.j))
                        .unwrap()
                };
                for pair in ordered.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    assert!(a.score > b.score, "{rows:?}: equal or unsorted scores");
                    if a.score >> 12 == b.score >> 12 {
                        ties += 1;
                        assert!(at(&a) < at(&b), "{rows:?}: a tie out of generation order");
                    }
                }
                let cells = |ms: &[Mv]| ms.iter().map(|m| (m.l, m.j)).collect::<Vec<_>>();
                assert_eq!(
                    cells(&ordered),
                    cells(&hw),
                    "{rows:?}: the two copies differ"
                );
            }
        }
        assert!(ties > 100, "only {ties} ties: the test saw too few");
    }

    #[test]
    fn packing_counts_runs() {
        // Starts 0b111 (4 cells): 2; 0b1 (2 cells): 1; 0b11 (3 cells): 1.
        assert_eq!(pack(0b111), 2);
        assert_eq!(pack(0b1), 1);
        assert_eq!(pack(0b11), 1);
        assert_eq!(pack(0b1101), 2);
    }

    /// [`row_runs`] against a fill a cell at a time, and the components
    /// it finds against [`small_components_scan`] on random boards, with
    /// every bound on the size.
    #[test]
    fn components_by_runs_match_the_fill_by_cells() {
        let mut rng = fastrand::Rng::with_seed(0xC0_4D5);
        for _ in 0..200_000 {
            let e = rng.u32(..) & !(1 << 31);
            let seed = rng.u32(..) & rng.u32(..) & rng.u32(..);
            let mut x = seed & e;
            loop {
                let y = (x | (x << 1) | (x >> 1)) & e;
                if y == x {
                    break;
                }
                x = y;
            }
            assert_eq!(row_runs(e, seed), x, "{e:x} {seed:x}");
        }
        let (mut found, mut refused) = (0, 0);
        for round in 0..20_000 {
            // Boards hold at most 128 cells.
            let h = 1 + round % MAX_SIDE;
            let (h, w) = (h, 1 + rng.usize(..(128 / h).min(MAX_SIDE)));
            let (h, w) = if round % 3 == 0 {
                (1 + h % 8, 1 + w % 8)
            } else {
                (h, w)
            };
            let fill = rng.u32(..8);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if rng.u32(..8) < fill { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let board = Domineering.parse(&rows.join("|")).unwrap();
            let p = Pos::new(&board).unwrap();
            let max = rng.u32(..40);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let (fast, slow) = (
                p.small_components(max, &mut a),
                small_components_scan(&p, max, &mut b),
            );
            assert_eq!(fast, slow, "{} max {max}", rows.join("|"));
            if fast {
                assert_eq!(a, b, "{} max {max}", rows.join("|"));
                found += a.len();
            } else {
                refused += 1;
            }
        }
        assert!(found > 20_000 && refused > 5_000, "{found} {refused}");
    }

    #[test]
    fn components_are_found_and_keyed_by_shape() {
        let b = Domineering.parse("..#...|..#...|######|.#.#..").unwrap();
        let p = Pos::new(&b).unwrap();
        let mut keys = Vec::new();
        assert!(p.small_components(6, &mut keys));
        let mut shapes: Vec<String> = keys
            .iter()
            .map(|&k| Domineering.format(&shape_board(k)))
            .collect();
        shapes.sort();
        let mut want = ["..", "..|..", "...|..."];
        want.sort();
        assert_eq!(shapes, want);
        assert!(!p.small_components(5, &mut keys));
        // A snake's cells are all found, and the same shape elsewhere has
        // the same key.
        let s = Domineering.parse("...#|##.#|....|.###").unwrap();
        let t = Domineering.parse("#####|#...#|###.#|#....|#.###").unwrap();
        let (mut a, mut c) = (Vec::new(), Vec::new());
        assert!(Pos::new(&s).unwrap().small_components(9, &mut a));
        assert!(!Pos::new(&s).unwrap().small_components(8, &mut c));
        assert!(Pos::new(&t).unwrap().small_components(9, &mut c));
        assert_eq!(a, c);
        assert_eq!(a.len(), 1);
    }

    /// Checkpoints hold these keys: if this test fails, the hashing
    /// changed, and [`checkpoint::FORMAT`] must be bumped with the new
    /// pinned values.
    #[test]
    fn position_keys_are_pinned_for_checkpoints() {
        let mut keys = Vec::new();
        for (text, symmetry) in [
            ("....|....|...#", true),
            ("#...|....|....|.#..", true),
            ("....|....|...#", false),
        ] {
            let b = Domineering.parse(text).unwrap();
            let k = Keys::new(b.width(), b.height(), symmetry);
            let mut p = Pos::new(&b).unwrap();
            p.hash = k.of(&p);
            keys.push(k.key(&p, VT));
            keys.push(k.key(&p, HZ));
        }
        // The hashes are those of the keys before check bits came in.
        let hashes: Vec<u64> = keys.iter().map(|k: &Key| k.hash).collect();
        assert_eq!(
            hashes,
            [
                3639680211079962682,
                487895135986043249,
                4236288285245459649,
                889635411567992916,
                10691344559581632712,
                487895135986043249
            ]
        );
        let checks: Vec<u32> = keys.iter().map(|k| k.check).collect();
        assert_eq!(
            checks,
            [1885242158, 334828388, 783990230, 2098754527, 3425290304, 334828388]
        );
    }
}
