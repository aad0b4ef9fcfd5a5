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

/// One player's moves on a Domineering board: `safe` of them no move of
/// the opponent can take away, and at most `max` in all.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Disjoint placements on cells the opponent can never cover.
    pub safe: i64,
    /// The most disjoint placements on the empty cells.
    pub max: i64,
}

/// Domineering's counts for `p` (Left places vertically), cell by cell.
/// A cell is empty when it is in layer 0. A vertical placement's cells
/// can be covered by Right only through an empty west or east neighbour;
/// a cell with neither never can be (cells only fill), so two such cells
/// one above the other are a move Left keeps whatever Right does. Along
/// each column, a run of `k` such cells holds `k / 2` disjoint ones; a
/// run of `k` empty cells holds `k / 2` of any kind, and no player ever
/// makes more moves than disjoint placements fit in the empty cells. Right
/// the same across.
pub fn domineering_counts(b: &Board, p: Player) -> Counts {
    let (w, h) = (b.width(), b.height());
    let empty = |r: usize, c: usize| b.layer(0) & (1u128 << (r * w + c)) != 0;
    // Lines along which `p` places, and the cell at (line, step).
    let (lines, steps) = match p {
        Player::Left => (w, h),
        Player::Right => (h, w),
    };
    let at = |line: usize, step: usize| match p {
        Player::Left => (step, line),
        Player::Right => (line, step),
    };
    // Can the opponent ever cover (r, c)? Only through an empty neighbour
    // across p's lines.
    let reachable = |r: usize, c: usize| match p {
        Player::Left => (c > 0 && empty(r, c - 1)) || (c + 1 < w && empty(r, c + 1)),
        Player::Right => (r > 0 && empty(r - 1, c)) || (r + 1 < h && empty(r + 1, c)),
    };
    let (mut safe, mut max) = (0i64, 0i64);
    for line in 0..lines {
        let (mut run_empty, mut run_safe) = (0i64, 0i64);
        for step in 0..=steps {
            let cell = (step < steps).then(|| at(line, step));
            let e = cell.is_some_and(|(r, c)| empty(r, c));
            if e {
                run_empty += 1;
            } else {
                max += run_empty / 2;
                run_empty = 0;
            }
            if e && cell.is_some_and(|(r, c)| !reachable(r, c)) {
                run_safe += 1;
            } else {
                safe += run_safe / 2;
                run_safe = 0;
            }
        }
    }
    Counts { safe, max }
}

/// Whether the mover's fate is settled by counting moves on a board whose
/// tail `t` lies between the integers `lo <= t <= hi`: Left moving first
/// wins if her safe moves, plus `lo` free moves when `lo > 0`, outnumber
/// every move Right can make, plus `-lo` when `lo < 0` (she never runs out
/// first); she loses if Right's safe moves (and `-hi` free ones) are at
/// least every move she can make (and `hi`). A claim in Left's favour
/// reads the tail as `lo`, one in Right's as `hi`: a position at least as
/// good for a player as one that player wins is won too. Right the same.
pub fn decide_by_counts(
    left: Counts,
    right: Counts,
    lo: i64,
    hi: i64,
    mover: Player,
) -> Option<bool> {
    // Left's sure and most moves, and Right's, with the tail read as n.
    let left_sure = |n: i64| left.safe + n.max(0);
    let left_most = |n: i64| left.max + n.max(0);
    let right_sure = |n: i64| right.safe + (-n).max(0);
    let right_most = |n: i64| right.max + (-n).max(0);
    let left_wins_first = left_sure(lo) > right_most(lo);
    let left_loses_first = right_sure(hi) >= left_most(hi);
    let right_wins_first = right_sure(hi) > left_most(hi);
    let right_loses_first = left_sure(lo) >= right_most(lo);
    match mover {
        Player::Left if left_wins_first => Some(true),
        Player::Left if left_loses_first => Some(false),
        Player::Right if right_wins_first => Some(true),
        Player::Right if right_loses_first => Some(false),
        _ => None,
    }
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
