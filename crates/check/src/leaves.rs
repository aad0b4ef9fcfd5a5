//! The positions the checker decides without playing them out: the
//! values of small regions (by [`crate::values`]) and, for Domineering,
//! the count of safe moves against the most moves the opponent can make.
//! Each is written here from its definition, sharing nothing with the
//! search's own versions of the same ideas; the tests hold each against
//! plain minimax (`tests/leaves.rs`).

use partizan_games::{Bits, Board, Player, Ruleset};
use rustc_hash::FxHashMap;

use crate::values::{Id, Values};

/// The regions of `b`: the classes of `rules.cells(b)` joined by the
/// rules' footprints (every move the rules could ever offer below `b`
/// lies inside one footprint), by union-find over the footprints.
pub fn regions<R: Ruleset>(rules: &R, b: &Board) -> Vec<Bits> {
    let mut out = Vec::new();
    regions_into(rules, b, &mut out);
    out
}

/// [`regions`] into `out` (cleared first).
pub fn regions_into<R: Ruleset>(rules: &R, b: &Board, out: &mut Vec<Bits>) {
    out.clear();
    let cells = rules.cells(b);
    let mut parent = [0u8; 128];
    for (i, p) in parent.iter_mut().enumerate() {
        *p = i as u8;
    }
    fn find(p: &mut [u8; 128], mut x: u8) -> u8 {
        while p[x as usize] != x {
            let up = p[p[x as usize] as usize];
            p[x as usize] = up;
            x = up;
        }
        x
    }
    rules.footprints(b, |f| {
        let f = f & cells;
        if f == 0 {
            return;
        }
        let first = find(&mut parent, f.trailing_zeros() as u8);
        let mut rest = f & (f - 1);
        while rest != 0 {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let (a, b) = (find(&mut parent, first), find(&mut parent, c));
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    });
    // A region's root is its lowest cell: number the regions by it.
    let mut slot = [u8::MAX; 128];
    let mut rest = cells;
    while rest != 0 {
        let c = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let r = find(&mut parent, c) as usize;
        if slot[r] == u8::MAX {
            slot[r] = out.len() as u8;
            out.push(0);
        }
        out[slot[r] as usize] |= 1u128 << c;
    }
}

/// A board's layers as a map key (every board of one check is on one
/// rectangle).
pub(crate) type LayersKey = [u128; 3];

/// The values of region boards, by plain recursion over the rules'
/// options (no regions inside a region, no symmetry, no translation:
/// nothing but the definition), remembered by the board's layers.
#[derive(Default)]
pub struct RegionValues {
    memo: FxHashMap<LayersKey, Id>,
    /// Positions valued (each once).
    pub valued: u64,
}

impl RegionValues {
    /// The value of `b`, every one of whose positions is played out;
    /// `None` once more than `budget` new positions would be valued (each
    /// one valued takes one from it).
    pub fn value<R: Ruleset>(
        &mut self,
        rules: &R,
        values: &mut Values,
        b: &Board,
        budget: &mut u64,
    ) -> Option<Id> {
        if let Some(&v) = self.memo.get(&b.layers()) {
            return Some(v);
        }
        *budget = budget.checked_sub(1)?;
        let mut kids = [Vec::new(), Vec::new()];
        rules.options(b, Player::Left, |o| kids[0].push(o));
        rules.options(b, Player::Right, |o| kids[1].push(o));
        let mut ids = [Vec::new(), Vec::new()];
        for (side, boards) in kids.iter().enumerate() {
            for o in boards {
                ids[side].push(self.value(rules, values, o, budget)?);
            }
        }
        let [left, right] = ids;
        let v = values.make(left, right);
        self.valued += 1;
        self.memo.insert(b.layers(), v);
        Some(v)
    }
}

/// Whether the player to move wins a game of value `g`.
pub fn mover_wins(values: &mut Values, g: Id, mover: Player) -> bool {
    match mover {
        Player::Left => values.left_first_wins(g),
        Player::Right => values.right_first_wins(g),
    }
}

/// One player's moves on a Domineering board, as counted for
/// [`decide_by_counts`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Disjoint placements on cells the opponent can never cover.
    pub safe: i64,
    /// The most disjoint placements on the empty cells.
    pub max: i64,
    /// Disjoint protective areas (see [`domineering_counts`]), no two side
    /// by side across the player's lines.
    pub areas: i64,
    /// Empty cells this player could still cover (an empty neighbour
    /// along its lines).
    pub usable: i64,
}

/// The bit sets the counts work on: `u64` for rectangles of at most 64
/// cells, the whole `Bits` (`u128`) otherwise.
trait Word:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAndAssign
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    fn from_bits(x: Bits) -> Self;
    fn ones(self) -> u32;
    fn lowest(self) -> Self;
    fn without_lowest(self) -> Self;
    fn shl(self, n: u32) -> Self;
    fn shr(self, n: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            fn from_bits(x: Bits) -> Self {
                x as $t
            }
            fn ones(self) -> u32 {
                self.count_ones()
            }
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
        }
    };
}
word!(u64);
word!(u128);

/// A Domineering rectangle as one player sees it, for
/// [`domineering_counts_in`]: which cells have a next or previous cell
/// along the player's lines and across them, and the bit distances of
/// those steps. It depends on the rectangle alone, so a check makes it
/// once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    width: usize,
    height: usize,
    left: bool,
    narrow: Option<LinesOf<u64>>,
    wide: LinesOf<u128>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct LinesOf<W> {
    /// Cells with a next cell along / across the lines.
    has_along: W,
    has_across: W,
    /// Cells with a previous cell along / across the lines.
    has_along_back: W,
    has_across_back: W,
    along: u32,
    across: u32,
    /// The first column (Left's first line).
    first_col: W,
    width: usize,
    left: bool,
}

impl Lines {
    /// The lines of `p` on a `width` x `height` rectangle (both at least
    /// 1, at most 128 cells).
    pub fn new(width: usize, height: usize, p: Player) -> Lines {
        let (w, h) = (width, height);
        let full: Bits = if w * h >= 128 {
            Bits::MAX
        } else {
            (1 << (w * h)) - 1
        };
        let mut first_col: Bits = 0;
        for r in 0..h {
            first_col |= 1 << (r * w);
        }
        let last_col = first_col << (w - 1);
        let first_row: Bits = if w >= 128 { Bits::MAX } else { (1 << w) - 1 };
        let last_row = first_row << (w * (h - 1));
        // Left places vertically: along her lines is down a row (w bits),
        // across is one column (1 bit); Right the other way round.
        let (rows_next, rows_back) = (full & !last_row, full & !first_row);
        let (cols_next, cols_back) = (full & !last_col, full & !first_col);
        let left = p == Player::Left;
        let (along, across) = if left { (w as u32, 1) } else { (1, w as u32) };
        let pick = |a: Bits, b: Bits| if left { (a, b) } else { (b, a) };
        let (has_along, has_across) = pick(rows_next, cols_next);
        let (has_along_back, has_across_back) = pick(rows_back, cols_back);
        fn of<W: Word>(
            m: [Bits; 5],
            along: u32,
            across: u32,
            width: usize,
            left: bool,
        ) -> LinesOf<W> {
            LinesOf {
                has_along: W::from_bits(m[0]),
                has_across: W::from_bits(m[1]),
                has_along_back: W::from_bits(m[2]),
                has_across_back: W::from_bits(m[3]),
                first_col: W::from_bits(m[4]),
                along,
                across,
                width,
                left,
            }
        }
        let m = [
            has_along,
            has_across,
            has_along_back,
            has_across_back,
            first_col,
        ];
        Lines {
            width,
            height,
            left,
            narrow: (w * h <= 64).then(|| of(m, along, across, w, left)),
            wide: of(m, along, across, w, left),
        }
    }

    /// Whether these are the lines of `p` on `b`'s rectangle.
    pub fn fits(&self, b: &Board, p: Player) -> bool {
        (self.width, self.height, self.left) == (b.width(), b.height(), p == Player::Left)
    }
}

impl<W: Word> LinesOf<W> {
    /// The cells whose next cell along the lines is in `x`.
    fn next_in(&self, x: W) -> W {
        x.shr(self.along) & self.has_along
    }

    /// The cells whose previous cell along the lines is in `x`.
    fn back_in(&self, x: W) -> W {
        x.shl(self.along) & self.has_along_back
    }

    /// The cells whose next cell across the lines is in `x`.
    fn across_in(&self, x: W) -> W {
        x.shr(self.across) & self.has_across
    }

    /// The cells whose previous cell across the lines is in `x`.
    fn across_back_in(&self, x: W) -> W {
        x.shl(self.across) & self.has_across_back
    }

    /// Runs of `x` along the lines, each of `k` cells counted `k / 2`: the
    /// first two cells of every run paired off, again and again.
    fn pairs(&self, mut x: W) -> i64 {
        let mut n = 0;
        while x != W::ZERO {
            let starts = x & !self.back_in(x);
            let paired = starts & self.next_in(x);
            n += i64::from(paired.ones());
            x &= !(starts | paired.shl(self.along));
        }
        n
    }

    /// Take the area anchored at the single cell `a` unless one of its
    /// cells is taken or a cell beside it across the lines (one line back
    /// or two on) is; whether it was taken.
    fn take(&self, a: W, taken: &mut W) -> bool {
        let pair = a | a.shl(self.along);
        let cells = pair | pair.shl(self.across);
        if cells & *taken != W::ZERO {
            return false;
        }
        let back = if a & self.has_across_back != W::ZERO {
            pair.shr(self.across)
        } else {
            W::ZERO
        };
        let two_on = if a.shl(self.across) & self.has_across != W::ZERO {
            pair.shl(2 * self.across)
        } else {
            W::ZERO
        };
        if (back | two_on) & *taken != W::ZERO {
            return false;
        }
        *taken |= cells;
        true
    }

    /// The board's cells among `empty`.
    fn cells(&self, empty: W) -> W {
        empty & (self.has_along | self.has_along_back | self.has_across | self.has_across_back)
    }

    /// The counts (see [`domineering_counts_in`]).
    fn counts(&self, empty: W) -> Counts {
        let (max, usable) = self.most(empty);
        let (safe, areas) = self.sure(empty);
        Counts {
            safe,
            max,
            areas,
            usable,
        }
    }

    /// The most moves and the usable cells.
    fn most(&self, empty: W) -> (i64, i64) {
        let e = self.cells(empty);
        let usable = i64::from((e & (self.next_in(e) | self.back_in(e))).ones());
        (self.pairs(e), usable)
    }

    /// The safe moves and the protective areas.
    fn sure(&self, empty: W) -> (i64, i64) {
        let e = self.cells(empty);
        let reachable = self.across_in(e) | self.across_back_in(e);
        let safe = self.pairs(e & !reachable);
        // Protective areas: a 2 x 2 block of empty cells anchored at its
        // cell on the lower line and step, walled on one side across the
        // lines.
        let along_e = self.next_in(e);
        let four = e & along_e & self.across_in(e) & self.across_in(along_e);
        let mut areas = 0i64;
        if four != W::ZERO {
            let beyond_back = self.across_back_in(e);
            let wall_back = !(beyond_back | self.next_in(beyond_back));
            let beyond_next = self.across_in(self.across_in(e));
            let wall_next = !(beyond_next | self.next_in(beyond_next));
            let anchors = four & (wall_back | wall_next);
            // Packed greedily in the order of the lines, then the steps
            // (as the twin does).
            let mut taken = W::ZERO;
            let mut each = |mut rest: W| {
                while rest != W::ZERO {
                    let a = rest.lowest();
                    rest = rest.without_lowest();
                    areas += i64::from(self.take(a, &mut taken));
                }
            };
            if self.left {
                // Left's lines are the columns: column by column, down
                // each.
                for c in 0..self.width as u32 {
                    each(anchors & self.first_col.shl(c));
                }
            } else {
                // Right's lines are the rows: the bits' own order.
                each(anchors);
            }
        }
        (safe, areas)
    }
}

/// Domineering's counts for `p` (Left places vertically: her lines are
/// the columns) on bitboards, exactly as [`domineering_counts_plain`]
/// counts them cell by cell (see there for what they are and why they
/// hold).
pub fn domineering_counts(b: &Board, p: Player) -> Counts {
    if b.width() == 0 || b.height() == 0 {
        return domineering_counts_plain(b, p);
    }
    domineering_counts_in(&Lines::new(b.width(), b.height(), p), b.layer(0))
}

/// [`domineering_counts`] with the player's lines made already, for a
/// board whose empty cells are `empty`.
pub fn domineering_counts_in(l: &Lines, empty: Bits) -> Counts {
    match &l.narrow {
        Some(n) => n.counts(empty as u64),
        None => l.wide.counts(empty),
    }
}

/// The half of [`domineering_counts_in`] a player is sure of: its `safe`
/// moves and `areas` (the other fields 0).
pub fn domineering_sure_in(l: &Lines, empty: Bits) -> Counts {
    let (safe, areas) = match &l.narrow {
        Some(n) => n.sure(empty as u64),
        None => l.wide.sure(empty),
    };
    Counts {
        safe,
        areas,
        max: 0,
        usable: 0,
    }
}

/// The half of [`domineering_counts_in`] that bounds a player: its `max`
/// moves and `usable` cells (the other fields 0).
pub fn domineering_most_in(l: &Lines, empty: Bits) -> Counts {
    let (max, usable) = match &l.narrow {
        Some(n) => n.most(empty as u64),
        None => l.wide.most(empty),
    };
    Counts {
        safe: 0,
        areas: 0,
        max,
        usable,
    }
}

/// Domineering's counts for `p` (Left places vertically: her lines are
/// the columns), cell by cell: the definition [`domineering_counts`]
/// computes on bitboards, kept as its twin (the tests hold the two equal
/// on random boards). A cell is empty when it is in layer 0.
///
/// * **Safe moves.** The opponent covers a cell only together with an
///   empty neighbour across `p`'s lines; a cell with neither such
///   neighbour empty never can be covered (cells only fill), so two such
///   cells next to each other along a line are a move `p` keeps whatever
///   the opponent does. A run of `k` of them along a line holds `k / 2`.
/// * **Most moves.** Every move covers two empty cells next to each other
///   along a line, so no player makes more moves than a run of `k` empty
///   cells holds (`k / 2`), summed over the lines.
/// * **Protective areas.** Four empty cells on two neighbouring lines and
///   two neighbouring steps, with both cells beyond one of the lines
///   (across) filled or off the board: `p` playing on the other line (the
///   far one) leaves the near one's two cells with both neighbours across
///   filled, a safe move. So an area `p` plays in first gives `p` two
///   moves, and makes its four cells useless to the opponent; an area the
///   opponent plays in first (any of its cells covered) gives nothing.
///   One move of the opponent covers cells of one area at most, as no two
///   areas counted lie side by side across the lines.
pub fn domineering_counts_plain(b: &Board, p: Player) -> Counts {
    let (w, h) = (b.width(), b.height());
    let empty_rc = |r: usize, c: usize| b.layer(0) & (1u128 << (r * w + c)) != 0;
    // Lines along which `p` places, and the cell at (line, step).
    let (lines, steps) = match p {
        Player::Left => (w, h),
        Player::Right => (h, w),
    };
    let rc = |line: usize, step: usize| match p {
        Player::Left => (step, line),
        Player::Right => (line, step),
    };
    let empty = |line: usize, step: usize| {
        let (r, c) = rc(line, step);
        empty_rc(r, c)
    };
    // Filled or off the board, at a line index that may be out of range.
    let blocked = |line: isize, step: usize| {
        line < 0 || line as usize >= lines || !empty(line as usize, step)
    };
    // Can the opponent ever cover this cell? Only with an empty neighbour
    // across p's lines.
    let reachable = |line: usize, step: usize| {
        !blocked(line as isize - 1, step) || !blocked(line as isize + 1, step)
    };
    let (mut safe, mut max, mut usable) = (0i64, 0i64, 0i64);
    for line in 0..lines {
        let (mut run_empty, mut run_safe) = (0i64, 0i64);
        for step in 0..=steps {
            let e = step < steps && empty(line, step);
            if e && ((step > 0 && empty(line, step - 1))
                || (step + 1 < steps && empty(line, step + 1)))
            {
                usable += 1;
            }
            if e {
                run_empty += 1;
            } else {
                max += run_empty / 2;
                run_empty = 0;
            }
            if e && !reachable(line, step) {
                run_safe += 1;
            } else {
                safe += run_safe / 2;
                run_safe = 0;
            }
        }
    }
    // Protective areas, packed greedily, line by line.
    let mut taken = vec![false; lines * steps];
    let at = |line: usize, step: usize| line * steps + step;
    let mut areas = 0i64;
    for line in 0..lines.saturating_sub(1) {
        for step in 0..steps.saturating_sub(1) {
            let cells = [
                (line, step),
                (line, step + 1),
                (line + 1, step),
                (line + 1, step + 1),
            ];
            if cells.iter().any(|&(l, s)| !empty(l, s) || taken[at(l, s)]) {
                continue;
            }
            let l = line as isize;
            let walled = (blocked(l - 1, step) && blocked(l - 1, step + 1))
                || (blocked(l + 2, step) && blocked(l + 2, step + 1));
            if !walled {
                continue;
            }
            // No area side by side across the lines: one opponent's move
            // must not reach two.
            let beside = [line.checked_sub(1), Some(line + 2)]
                .into_iter()
                .flatten()
                .filter(|&x| x < lines)
                .any(|x| taken[at(x, step)] || taken[at(x, step + 1)]);
            if beside {
                continue;
            }
            for &(l, s) in &cells {
                taken[at(l, s)] = true;
            }
            areas += 1;
        }
    }
    Counts {
        safe,
        max,
        areas,
        usable,
    }
}

/// Whether the mover's fate is settled by counting moves on a board whose
/// tail `t` lies between the integers `lo <= t <= hi` (a positive integer
/// is that many free moves for Left, a negative one for Right).
///
/// The player moving first wins if the moves it is sure of outnumber the
/// moves the other can make at most; it loses if the other, moving second,
/// is sure of as many moves as it can make at most. A player is sure of
/// its safe moves and two moves for every protective area it gets to
/// first: half of them rounded up moving first, rounded down moving
/// second (the other spoils one a move, at best), each taken area also
/// four cells fewer that the other can use. A claim in Left's favour reads
/// the tail as `lo`, one in Right's as `hi`: a position at least as good
/// for a player as one that player wins is won too.
pub fn decide_by_counts(
    left: Counts,
    right: Counts,
    lo: i64,
    hi: i64,
    mover: Player,
) -> Option<bool> {
    let (m, o) = match mover {
        Player::Left => (left, right),
        Player::Right => (right, left),
    };
    if mover_sure_to_win(m, o, lo, hi, mover) {
        Some(true)
    } else if mover_sure_to_lose(m, o, lo, hi, mover) {
        Some(false)
    } else {
        None
    }
}

/// `sure` moving first or second, against `other`'s most, with `free`
/// moves for the one and `other_free` for the other: the moves the one is
/// sure of and the most the other makes. Reads `sure.safe`, `sure.areas`,
/// `other.max` and `other.usable` only.
fn beats(sure: Counts, first: bool, free: i64, other: Counts, other_free: i64) -> (i64, i64) {
    let taken = if first {
        (sure.areas + 1) / 2
    } else {
        sure.areas / 2
    };
    let mine = sure.safe + 2 * taken + free;
    let theirs = other.max.min((other.usable - 4 * taken).max(0) / 2) + other_free;
    (mine, theirs)
}

/// The free moves a tail read as `t` gives (the mover, the other player):
/// a positive tail is Left's, a negative one Right's.
fn free(mover: Player, t: i64) -> (i64, i64) {
    let (left, right) = (t.max(0), (-t).max(0));
    match mover {
        Player::Left => (left, right),
        Player::Right => (right, left),
    }
}

/// The first half of [`decide_by_counts`]: the mover (counts `m`) wins
/// moving first against the other (counts `o`). Reads `m.safe`, `m.areas`,
/// `o.max` and `o.usable` only.
pub fn mover_sure_to_win(m: Counts, o: Counts, lo: i64, hi: i64, mover: Player) -> bool {
    // The tail read the worst way for the mover.
    let t = match mover {
        Player::Left => lo,
        Player::Right => hi,
    };
    let (mover_free, other_free) = free(mover, t);
    let (mine, theirs) = beats(m, true, mover_free, o, other_free);
    mine > theirs
}

/// The second half of [`decide_by_counts`]: the other player (counts `o`),
/// moving second, is sure of as many moves as the mover (counts `m`) can
/// make. Reads `o.safe`, `o.areas`, `m.max` and `m.usable` only.
pub fn mover_sure_to_lose(m: Counts, o: Counts, lo: i64, hi: i64, mover: Player) -> bool {
    // The tail read the best way for the mover.
    let t = match mover {
        Player::Left => hi,
        Player::Right => lo,
    };
    let (mover_free, other_free) = free(mover, t);
    let (sure, most) = beats(o, false, other_free, m, mover_free);
    sure >= most
}

/// The greatest integer `lo <= t` and the least `hi >= t`, looked for
/// within `reach` of 0; `None` if either lies further out.
pub fn integer_bounds(values: &mut Values, t: Id, reach: i64) -> Option<(i64, i64)> {
    // Integers at most t are all those below some point, integers at
    // least t all those above another: walk from 0 to each point.
    let at_most = |m: i64, v: &mut Values| {
        let g = v.integer(m);
        v.le(g, t)
    };
    let mut lo = 0;
    if at_most(0, values) {
        while lo < reach && at_most(lo + 1, values) {
            lo += 1;
        }
    } else {
        loop {
            lo -= 1;
            if lo < -reach {
                return None;
            }
            if at_most(lo, values) {
                break;
            }
        }
    }
    let at_least = |m: i64, v: &mut Values| {
        let g = v.integer(m);
        v.le(t, g)
    };
    let mut hi = 0;
    if at_least(0, values) {
        while hi > -reach && at_least(hi - 1, values) {
            hi -= 1;
        }
    } else {
        loop {
            hi += 1;
            if hi > reach {
                return None;
            }
            if at_least(hi, values) {
                break;
            }
        }
    }
    Some((lo, hi))
}
