//! The positions the checker decides without playing them out: the
//! values of small regions (by [`crate::values`]) and, for Domineering,
//! the count of safe moves against the most moves the opponent can make,
//! and the finer packing of vulnerable placements
//! ([`domineering_packing`], [`packing_holds`]).
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

    /// Runs of `x` along the lines paired off from their starts, again
    /// and again (as [`LinesOf::pairs`] counts them): the pairs' first
    /// cells.
    fn pair_firsts(&self, mut x: W) -> W {
        let mut firsts = W::ZERO;
        while x != W::ZERO {
            let starts = x & !self.back_in(x);
            let paired = starts & self.next_in(x);
            firsts |= paired;
            x &= !(starts | paired.shl(self.along));
        }
        firsts
    }

    /// A pair's two cells, from their first.
    fn pair_cells(&self, firsts: W) -> W {
        firsts | firsts.shl(self.along)
    }

    /// The packing (see [`domineering_packing_plain`]).
    fn packing(&self, empty: W) -> Packing {
        let mut pk = Packing::default();
        let e = self.cells(empty);
        let reach = e & (self.across_in(e) | self.across_back_in(e));
        let safe = self.pair_firsts(e & !reach);
        pk.safe = i64::from(safe.ones());
        // Areas (all of whose cells are in reach, none safe), packed as
        // [`LinesOf::sure`] packs them, keeping their anchors.
        let along_e = self.next_in(e);
        let four = e & along_e & self.across_in(e) & self.across_in(along_e);
        let (mut area, mut anchors) = (W::ZERO, W::ZERO);
        if four != W::ZERO {
            let beyond_back = self.across_back_in(e);
            let wall_back = !(beyond_back | self.next_in(beyond_back));
            let beyond_next = self.across_in(self.across_in(e));
            let wall_next = !(beyond_next | self.next_in(beyond_next));
            let cand = four & (wall_back | wall_next);
            let mut each = |mut rest: W| {
                while rest != W::ZERO {
                    let a = rest.lowest();
                    rest = rest.without_lowest();
                    if self.take(a, &mut area) {
                        anchors |= a;
                    }
                }
            };
            if self.left {
                for c in 0..self.width as u32 {
                    each(cand & self.first_col.shl(c));
                }
            } else {
                each(cand);
            }
        }
        pk.areas = i64::from(anchors.ones());
        // Vulnerable placements on the cells left, by their cells in reach.
        let firsts = self.pair_firsts(e & !self.pair_cells(safe) & !area);
        let reach_next = self.next_in(reach);
        let two = firsts & reach & reach_next;
        let one = firsts & ((reach & !reach_next) | (!reach & reach_next));
        pk.vuln_two = i64::from(two.ones());
        pk.vuln_one = i64::from(one.ones());
        pk.safe += i64::from((firsts & !two & !one).ones());
        let (two_cells, one_cells) = (self.pair_cells(two), self.pair_cells(one));
        // Shared: two cells next to each other across the lines in
        // different groups of the classes counted (two cells of an area
        // so placed are of that area: no area lies beside another).
        let same_area = area & self.across_in(area);
        for (c, n) in pk.shared.iter_mut().enumerate() {
            let x = match c {
                0 => area,
                1 => area | two_cells,
                _ => area | two_cells | one_cells,
            };
            let low = x & self.across_in(x) & !same_area;
            let hit = low | low.shl(self.across);
            let hit_pair = hit | self.next_in(hit);
            let hit_area = hit_pair | self.across_in(hit_pair);
            *n = i64::from((anchors & hit_area).ones());
            if c >= 1 {
                *n += i64::from((two & hit_pair).ones());
            }
            if c >= 2 {
                *n += i64::from((one & hit_pair).ones());
            }
        }
        // Waste: runs of empty cells across the lines, walked from their
        // starts a line at a time, the flags kept at the run's last cell.
        let groups = area | two_cells | one_cells;
        let on = self.across_in(e);
        let mut cur = e & !self.across_back_in(e);
        let (mut odd, mut two_on, mut three_on, mut grouped) =
            (cur, W::ZERO, W::ZERO, cur & groups);
        while cur != W::ZERO {
            let ends = cur & !on;
            pk.waste += i64::from((ends & odd & three_on & !grouped).ones());
            let go = cur & on;
            let step = |x: W| (go & x).shl(self.across);
            cur = go.shl(self.across);
            three_on = step(two_on);
            two_on = cur;
            grouped = step(grouped) | (cur & groups);
            odd = step(!odd);
        }
        pk
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

/// One player's placements on a Domineering board, packed for
/// [`packing_holds`] (see [`domineering_packing`] for what each is).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Packing {
    /// Safe placements: both cells out of the opponent's reach.
    pub safe: i64,
    /// Walled 2 x 2 areas: two moves for the player who plays in one
    /// first, four cells the opponent could otherwise cover.
    pub areas: i64,
    /// Vulnerable placements with both cells in the opponent's reach.
    pub vuln_two: i64,
    /// Vulnerable placements with one cell in the opponent's reach.
    pub vuln_one: i64,
    /// Groups (areas and vulnerable placements) that one move of the
    /// opponent could spoil together with another group: `shared[0]`
    /// with another area, `shared[1]` with another area or placement of
    /// two cells in reach, `shared[2]` with any other group (the groups
    /// of those classes only).
    pub shared: [i64; 3],
    /// Cells in the opponent's reach that it can never cover: one in each
    /// run of an odd number of empty cells along its lines where the
    /// player never plays.
    pub waste: i64,
}

/// The player's placements that [`packing_holds`] counts on, cell by cell:
/// the definition [`domineering_packing`] computes a line at a time, kept
/// as its twin (the tests hold the two equal on random boards of every
/// shape). Left places vertically: her lines are the columns; a cell is
/// empty when it is in layer 0. Disjoint groups of empty cells, packed
/// greedily line by line:
///
/// * **Safe placements**: two empty cells next to each other along a
///   line, neither with an empty neighbour across the lines (the
///   opponent covers a cell only with such a neighbour, and cells only
///   fill: these stay the player's).
/// * **Areas**: four empty cells on two neighbouring lines and steps, both
///   cells beyond one of the lines (across) filled or off the board.
///   Playing on the other (far) line leaves the near line walled on both
///   sides across: a second, safe, move.
/// * **Vulnerable placements**: two empty cells next to each other along
///   a line, left over by the above; the opponent may spoil one by
///   covering one of its cells.
///
/// The opponent spoils an area or a vulnerable placement only by covering
/// one of its cells, and one move covers two cells next to each other
/// across the player's lines: at most two groups. `shared[i]` counts the
/// groups of the first `i + 1` classes (areas, placements with two cells
/// in reach, with one) that some pair of empty cells across the lines
/// joins to another group of those classes. `waste` counts the runs of an odd number (at least 3)
/// of empty cells across the lines with no cell in a group: the player
/// plays only in its groups and safe placements, so the opponent's moves
/// there (two cells next to each other in the run) leave a cell of each.
pub fn domineering_packing_plain(b: &Board, p: Player) -> Packing {
    let (w, h) = (b.width(), b.height());
    let (lines, steps) = match p {
        Player::Left => (w, h),
        Player::Right => (h, w),
    };
    let empty = |line: usize, step: usize| {
        let (r, c) = match p {
            Player::Left => (step, line),
            Player::Right => (line, step),
        };
        b.layer(0) & (1u128 << (r * w + c)) != 0
    };
    let blocked = |line: isize, step: usize| {
        line < 0 || line as usize >= lines || !empty(line as usize, step)
    };
    // In the opponent's reach: empty with an empty neighbour across.
    let reach = |line: usize, step: usize| {
        empty(line, step)
            && (!blocked(line as isize - 1, step) || !blocked(line as isize + 1, step))
    };
    const FREE: u16 = u16::MAX;
    const SAFE: u16 = u16::MAX - 1;
    let at = |line: usize, step: usize| line * steps + step;
    let mut group = [FREE; 128];
    let mut pk = Packing::default();
    // Safe placements: runs of out-of-reach empty cells, paired off.
    for line in 0..lines {
        let mut step = 0;
        while step + 1 < steps {
            let pair = |s: usize| empty(line, s) && !reach(line, s);
            if pair(step) && pair(step + 1) {
                group[at(line, step)] = SAFE;
                group[at(line, step + 1)] = SAFE;
                pk.safe += 1;
                step += 2;
            } else {
                step += 1;
            }
        }
    }
    // Areas, then vulnerable placements, each a group of its own, with
    // its class (0 an area, 1 or 2 a placement with two or one cells in
    // reach, 3 none: a safe placement after all).
    let mut groups = 0u16;
    let mut class = [3u8; 128];
    for line in 0..lines.saturating_sub(1) {
        for step in 0..steps.saturating_sub(1) {
            let cells = [
                (line, step),
                (line, step + 1),
                (line + 1, step),
                (line + 1, step + 1),
            ];
            if cells
                .iter()
                .any(|&(l, s)| !empty(l, s) || group[at(l, s)] != FREE)
            {
                continue;
            }
            let l = line as isize;
            let walled = (blocked(l - 1, step) && blocked(l - 1, step + 1))
                || (blocked(l + 2, step) && blocked(l + 2, step + 1));
            let beside = [line.checked_sub(1), Some(line + 2)]
                .into_iter()
                .flatten()
                .filter(|&x| x < lines)
                .any(|x| group[at(x, step)] < groups || group[at(x, step + 1)] < groups);
            if walled && !beside {
                for &(l, s) in &cells {
                    group[at(l, s)] = groups;
                }
                class[usize::from(groups)] = 0;
                groups += 1;
                pk.areas += 1;
            }
        }
    }
    for line in 0..lines {
        let mut step = 0;
        while step + 1 < steps {
            let free = |s: usize| empty(line, s) && group[at(line, s)] == FREE;
            if free(step) && free(step + 1) {
                group[at(line, step)] = groups;
                group[at(line, step + 1)] = groups;
                let c = match u8::from(reach(line, step)) + u8::from(reach(line, step + 1)) {
                    2 => {
                        pk.vuln_two += 1;
                        1
                    }
                    1 => {
                        pk.vuln_one += 1;
                        2
                    }
                    // Out of reach (not left by the safe pairing, but so
                    // counted if it were).
                    _ => {
                        pk.safe += 1;
                        3
                    }
                };
                class[usize::from(groups)] = c;
                groups += 1;
                step += 2;
            } else {
                step += 1;
            }
        }
    }
    // Groups one move of the opponent reaches together with another: the
    // first classes that hold both.
    let mut level = [3u8; 128];
    for line in 0..lines.saturating_sub(1) {
        for step in 0..steps {
            if !(empty(line, step) && empty(line + 1, step)) {
                continue;
            }
            let (g, k) = (group[at(line, step)], group[at(line + 1, step)]);
            if g < groups && k < groups && g != k {
                let (g, k) = (usize::from(g), usize::from(k));
                let both = class[g].max(class[k]);
                level[g] = level[g].min(both);
                level[k] = level[k].min(both);
            }
        }
    }
    for (i, n) in pk.shared.iter_mut().enumerate() {
        *n = level[..usize::from(groups)]
            .iter()
            .filter(|&&l| usize::from(l) <= i)
            .count() as i64;
    }
    // Runs of empty cells across the lines (the other's lines) of odd
    // length, at least 3, with no cell in a group: the player never plays
    // there, so the other covers at most all but one of their cells.
    for step in 0..steps {
        let (mut run, mut grouped) = (0, false);
        for line in 0..=lines {
            if line < lines && empty(line, step) {
                run += 1;
                grouped |= group[at(line, step)] < groups;
            } else {
                pk.waste += i64::from(run >= 3 && run % 2 == 1 && !grouped);
                (run, grouped) = (0, false);
            }
        }
    }
    pk
}

/// Whether the player with placements `p` and `free_p` free moves (a
/// tail's), moving first (or `second`), can never be the first left
/// without a move against the other, who can make at most `other.max`
/// moves on the board, each covering two of its `other.usable` cells,
/// and has `free_o` free moves. Reads `other.max` and `other.usable`
/// only.
///
/// The player plays, while there is one, an unspoiled group (all its
/// cells empty) of the first class that has one: areas (their far
/// line), then vulnerable placements of two cells in the other's reach,
/// then of one; then the near lines of its areas, its safe placements
/// and its free moves, none of which the other can take. Say it is left
/// without a move after `k` moves of its own, when the other has made
/// `k` moves (`k + 1` moving second), `b` of them on the board. Every
/// group was then played or spoiled. Take the first `i` classes, of `n`
/// groups: once none of them was left unspoiled the player had played
/// `n - s` of them, one a move, and the `s` spoiled were spoiled by the
/// other's moves before its next turn, at most `n - s` (`n - s + 1`
/// moving second) and at most `b`; `m` moves spoil at most
/// `m + min(m, shared[i - 1] / 2)` of them (a move spoils two only if
/// both are shared, each spoiled once). That bounds `s`, for each `i`. Every
/// group not spoiled the player played out, so `k` is at least its safe
/// and free moves, two for each area and one for each vulnerable
/// placement left unspoiled; and the other's `2 b` cells and those
/// groups' cells in its reach (four an area, two or one a placement) are
/// different cells of its `usable` ones, and different from the `waste`
/// it never covers. Spoiling as many of the first
/// class as the bounds allow, then of the first two, then of all three,
/// takes the most from both counts at once (each class weighs at least
/// as much as the next in each). If no `b` up to `other.max` passes
/// both, the player is never left without a move.
pub fn packing_holds(p: Packing, free_p: i64, other: Counts, free_o: i64, second: bool) -> bool {
    let classes = [p.areas, p.vuln_two, p.vuln_one];
    // A quick no: the `b` whose cells fit whatever is spoiled, if the
    // other's moves then cover every move the player could make (the loop
    // below finds it too).
    let (most_moves, most_cells) = (
        p.safe + free_p + 2 * p.areas + p.vuln_two + p.vuln_one,
        4 * p.areas + 2 * p.vuln_two + p.vuln_one,
    );
    let fits = other
        .max
        .min((other.usable - most_cells - p.waste).div_euclid(2));
    if fits >= 0 && fits + free_o - i64::from(second) >= most_moves {
        return false;
    }

    // Only a `b` whose `k` reaches the safe and free moves, and whose
    // cells leave room for the waste, can pass (the groups' moves and
    // cells are at least 0).
    let first = (p.safe + free_p + i64::from(second) - free_o).max(0);
    for b in first..=other.max {
        if 2 * b + p.waste > other.usable {
            break;
        }
        let k = b + free_o - i64::from(second);
        // The most of the first `i` classes spoiled, class by class.
        let (mut n, mut before) = (0, 0);
        let mut left = [0i64; 3];
        for (i, &c) in classes.iter().enumerate() {
            n += c;
            // `s` may be spoiled if `s` is at most what the moves before
            // the player's turn spoil, which holds for every smaller `s`
            // too (fewer spoiled, more moves before): the most such `s`,
            // by halving [0, n] (0 always may).
            let may = |s: i64| {
                let m = b.min(n - s + i64::from(second));
                s <= m + m.min(p.shared[i] / 2)
            };
            let (mut most, mut above) = (0, n + 1);
            while above - most > 1 {
                let mid = (most + above) / 2;
                if may(mid) {
                    most = mid;
                } else {
                    above = mid;
                }
            }
            let upto = most.min(before + c).max(before);
            left[i] = c - (upto - before);
            before = upto;
        }
        let [areas, two, one] = left;
        let moves = p.safe + free_p + 2 * areas + two + one;
        let cells = 4 * areas + 2 * two + one;
        if k >= moves && 2 * b + cells + p.waste <= other.usable {
            return false;
        }
    }
    true
}

/// [`mover_sure_to_win`] by the packing: the mover (placements `m`) moving
/// first is never left without a move against the other (counts `o`,
/// of which `o.max` and `o.usable` are read).
pub fn mover_sure_to_win_packed(m: Packing, o: Counts, lo: i64, hi: i64, mover: Player) -> bool {
    let t = match mover {
        Player::Left => lo,
        Player::Right => hi,
    };
    let (mover_free, other_free) = free(mover, t);
    packing_holds(m, mover_free, o, other_free, false)
}

/// [`mover_sure_to_lose`] by the packing: the other player (placements
/// `o`) moving second is never left without a move against the mover
/// (counts `m`, of which `m.max` and `m.usable` are read).
pub fn mover_sure_to_lose_packed(m: Counts, o: Packing, lo: i64, hi: i64, mover: Player) -> bool {
    let t = match mover {
        Player::Left => hi,
        Player::Right => lo,
    };
    let (mover_free, other_free) = free(mover, t);
    packing_holds(o, other_free, m, mover_free, true)
}

/// [`decide_by_counts`] by the packing alone: whether the mover wins
/// (`Some(true)`), loses (`Some(false)`), or the packing does not say.
pub fn decide_by_packing(b: &Board, lo: i64, hi: i64, mover: Player) -> Option<bool> {
    let other = mover.opponent();
    let (m, o) = (domineering_counts(b, mover), domineering_counts(b, other));
    if mover_sure_to_win_packed(domineering_packing(b, mover), o, lo, hi, mover) {
        Some(true)
    } else if mover_sure_to_lose_packed(m, domineering_packing(b, other), lo, hi, mover) {
        Some(false)
    } else {
        None
    }
}

/// [`domineering_packing_plain`] on bitboards (see there for what the
/// counts are), for `p` (Left places vertically: her lines are the
/// columns).
pub fn domineering_packing(b: &Board, p: Player) -> Packing {
    if b.width() == 0 || b.height() == 0 {
        return domineering_packing_plain(b, p);
    }
    domineering_packing_in(&Lines::new(b.width(), b.height(), p), b.layer(0))
}

/// [`domineering_packing`] with the player's lines made already, for a
/// board whose empty cells are `empty`.
pub fn domineering_packing_in(l: &Lines, empty: Bits) -> Packing {
    match &l.narrow {
        Some(n) => n.packing(empty as u64),
        None => l.wide.packing(empty),
    }
}
