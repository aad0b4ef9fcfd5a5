//! Amazons: a move slides one of the mover's queens like a chess queen
//! through empty cells, then fires an arrow, again like a queen, from where
//! it landed (the vacated cell counts as empty); the arrow's cell burns.
//!
//! Text format: `L` a Left queen, `R` a Right queen, `.` an empty cell,
//! `#` a burnt cell or hole; rows separated by `|` or newlines. Layers:
//! 0 = `L`, 1 = `R`, 2 = empty. A board with no queen at all is a legal
//! position in which nobody can move (value 0).
//!
//! ```text
//! L...      2 rows x 4 columns: 2,784 positions can follow.
//! R...
//! ```

use std::cell::Cell;

use crate::board::{each_bit, flood, Bits, Board, Player, Step};
use crate::ruleset::{GlyphSpec, MoveBounds, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, GEOMETRIC_AND_COLOUR_SWAP};

/// Amazons. Eight geometric symmetries keep the value; the same eight with
/// `L` and `R` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Amazons;

impl Amazons {
    /// Non-burnt cells some queen could ever reach or shoot at: the
    /// king-move components of the non-burnt cells that hold a queen.
    /// Queens move, so a queen never separates regions.
    #[inline]
    fn live(b: &Board) -> Bits {
        let queens = b.layer(0) | b.layer(1);
        if queens == 0 {
            return 0;
        }
        flood(queens, b.cells(), |s| b.neighbours8(s))
    }

    /// `p`'s queens.
    #[inline]
    fn queens(b: &Board, p: Player) -> Bits {
        match p {
            Player::Left => b.layer(0),
            Player::Right => b.layer(1),
        }
    }

    /// Bounds on the moves `p` can make in `b` ([`Ruleset::move_bounds`]),
    /// with at most `budget` path-search steps per queen.
    ///
    /// Split the non-burnt cells (queens and empty cells) into king-move
    /// components ("regions"). Every queen slide and arrow flight is a
    /// chain of king steps over non-burnt cells, so a queen never leaves its
    /// region, an arrow burns a cell of the shooter's region, and regions
    /// only ever split (cells only burn).
    ///
    /// * `max`: the empty cells of the regions that hold a queen of `p`'s.
    ///   Call that set S. A move of `p`'s leaves the count of S's cells in
    ///   its region unchanged by the slide (the landing cell fills, the
    ///   vacated one empties) and lowers it by one with the arrow, which
    ///   lands in the same region; an opponent's move never raises it; a
    ///   region that splits keeps in S only the parts with `p`'s queens. So
    ///   |S| never grows, falls by one at each of `p`'s moves and never goes
    ///   below 0: `p` makes at most |S| moves, whatever anyone plays.
    /// * `safe`: in a region with no opposing queen the opponent can never
    ///   move, shoot or land (its queens are in other regions), so what `p`
    ///   can do there is out of the opponent's reach. For each of `p`'s
    ///   queens there, in turn, a simple path of king steps over empty
    ///   cells not used by an earlier queen's path (a depth-first search,
    ///   widest-first; cut off after `budget` steps, which only shortens
    ///   the path): `p` walks the queen one step along it and shoots the
    ///   arrow back at the cell just vacated (adjacent, and empty now).
    ///   Every step is a legal move whatever else has happened: the next
    ///   path cell is still empty (only this queen's own arrows burn cells
    ///   of its path, and only ones behind it; other queens stay on their
    ///   own disjoint paths). The moves of different queens and regions
    ///   are disjoint, so `p` can make all of them: their number is `safe`.
    pub fn bounds(b: &Board, p: Player, budget: u32) -> MoveBounds {
        let side = Amazons::sides(b)[p as usize];
        let mut safe = 0;
        let mut free = side.own & b.layer(2);
        for q in each_bit(side.own & Amazons::queens(b, p)) {
            let mut path = Path {
                b,
                steps: budget,
                best: 0,
                best_len: 0,
                bound: flood(b.neighbours8(q) & free, free, |s| b.neighbours8(s)).count_ones(),
            };
            path.search(q, free, 0, 0);
            safe += path.best_len;
            free &= !path.best;
        }
        MoveBounds {
            safe,
            max: side.reach.count_ones(),
        }
    }

    /// Each player's [`Side`], Left's first, from one pass over the
    /// regions (king-move components of the non-burnt cells) that hold a
    /// queen.
    pub fn sides(b: &Board) -> [Side; 2] {
        let (l, r, e) = (b.layer(0), b.layer(1), b.layer(2));
        let cells = b.cells();
        let mut out = [Side::default(); 2];
        let mut todo = l | r;
        while todo != 0 {
            let seed = todo & todo.wrapping_neg();
            let region = flood(seed, cells, |s| b.neighbours8(s));
            todo &= !region;
            let (has_l, has_r) = (region & l != 0, region & r != 0);
            for (k, has, other) in [(0, has_l, has_r), (1, has_r, has_l)] {
                if has {
                    out[k].reach |= region & e;
                    if !other {
                        out[k].own |= region;
                    }
                }
            }
        }
        out
    }

    /// The eight king steps of `b`'s rectangle ([`Board::directions`]),
    /// cached per thread for the last rectangle seen: every position of a
    /// search shares it, and making the steps costs more than counting a
    /// queen's moves.
    #[inline]
    fn directions(b: &Board) -> [Step; 8] {
        thread_local! {
            static LAST: Cell<(usize, usize, Option<[Step; 8]>)> = const { Cell::new((0, 0, None)) };
        }
        LAST.with(|last| {
            let (w, h, dirs) = last.get();
            match dirs {
                Some(d) if (w, h) == (b.width(), b.height()) => d,
                _ => {
                    let d = b.directions();
                    last.set((b.width(), b.height(), Some(d)));
                    d
                }
            }
        })
    }
}

/// What the regions of a position hold for one player ([`Amazons::sides`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// The empty cells of the regions holding one of the player's queens.
    pub reach: Bits,
    /// The cells (queens and empty) of the regions holding only the
    /// player's queens: the player's territory.
    pub own: Bits,
}

/// Path-search steps per queen for the cutoff's safe moves.
const PATH_BUDGET: u32 = 64;

/// A bounded depth-first search for a long simple king path over free
/// cells ([`Amazons::bounds`]).
struct Path<'b> {
    b: &'b Board,
    /// Steps left.
    steps: u32,
    /// The longest path found (its cells, the start excluded) and length.
    best: Bits,
    best_len: u32,
    /// No path can be longer: the free cells reachable from the start.
    bound: u32,
}

impl Path<'_> {
    /// Extend the path `used` (length `len`) ending at `at` over `free`.
    /// Returns whether to stop (the budget is spent or the path is as long
    /// as it can be).
    fn search(&mut self, at: Bits, free: Bits, used: Bits, len: u32) -> bool {
        if len > self.best_len {
            self.best_len = len;
            self.best = used;
            if len == self.bound {
                return true;
            }
        }
        if self.steps == 0 {
            return true;
        }
        self.steps -= 1;
        let next = self.b.neighbours8(at) & free;
        // Fewest onward exits first (Warnsdorff's rule): dead ends are
        // taken before they are cut off.
        let mut order: [(u32, Bits); 8] = [(0, 0); 8];
        let mut k = 0;
        for c in each_bit(next) {
            order[k] = ((self.b.neighbours8(c) & free & !c).count_ones(), c);
            k += 1;
        }
        order[..k].sort_unstable_by_key(|&(d, _)| d);
        for &(_, c) in &order[..k] {
            if self.search(c, free & !c, used | c, len + 1) {
                return true;
            }
        }
        false
    }
}

static INFO: RulesetInfo = RulesetInfo {
    name: "amazons",
    aliases: &[],
    title: "Amazons",
    summary: "A queen slides like a chess queen, then shoots an arrow like a queen; the arrow's cell burns.",
    glyphs: &[
        GlyphSpec::layer('L', 0, "a Left queen"),
        GlyphSpec::layer('R', 1, "a Right queen"),
        GlyphSpec::layer('.', 2, "an empty cell"),
        GlyphSpec::hole('#', "a burnt cell"),
    ],
    edit_cycle: ".#LR",
    fillings: &['L', 'R', '.'],
    example: "L...|.#..|...R",
    site_cells: 12,
};

impl Ruleset for Amazons {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    /// One queen each in opposite corners, Left's top left and Right's
    /// bottom right (`L....|.....|.....|.....|....R` for 5 x 5); none for
    /// 1 x 1, which has no room for two.
    fn rectangle(&self, rows: usize, cols: usize) -> Option<String> {
        if rows * cols < 2 {
            return None;
        }
        let mut text: Vec<char> = crate::ruleset::empty_rectangle(rows, cols)
            .chars()
            .collect();
        text[0] = 'L';
        let last = text.len() - 1;
        text[last] = 'R';
        Some(text.into_iter().collect())
    }

    #[inline]
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        let (mine, theirs) = match p {
            Player::Left => (0, 1),
            Player::Right => (1, 0),
        };
        let m = b.layer(mine);
        let t = b.layer(theirs);
        let e = b.layer(2);
        let dirs = Amazons::directions(b);
        for from in each_bit(m) {
            for step in dirs {
                let mut to = step.apply(from);
                while to & e != 0 {
                    // The queen stands on `to`; `from` is empty now.
                    let open = (e | from) & !to;
                    let queens = (m & !from) | to;
                    for shot in dirs {
                        let mut arrow = shot.apply(to);
                        while arrow & open != 0 {
                            let mut layers = [0; 3];
                            layers[mine] = queens;
                            layers[theirs] = t;
                            layers[2] = open & !arrow;
                            f(b.with_layers(layers));
                            arrow = shot.apply(arrow);
                        }
                    }
                    to = step.apply(to);
                }
            }
        }
    }

    /// Every king-move pair of live cells (queen slides and arrow flights
    /// are chains of such steps, joined at the landing cell). Burnt cells
    /// never recover, so no other step can ever be taken.
    #[inline]
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
        let live = Amazons::live(b);
        let dirs = b.directions();
        // East, south, south-east, south-west: each pair once.
        for k in 0..4 {
            let (step, back) = (dirs[k], dirs[k + 4]);
            for bit in each_bit(live & back.apply(live)) {
                f(bit | step.apply(bit));
            }
        }
    }

    #[inline]
    fn related(&self, b: &Board, set: Bits) -> Bits {
        let live = Amazons::live(b);
        let s = set & live;
        (b.neighbours8(s) & live) | (s & b.neighbours8(live))
    }

    #[inline]
    fn cells(&self, b: &Board) -> Bits {
        b.cells()
    }

    fn symmetries(&self) -> &'static [Symmetry] {
        &GEOMETRIC_AND_COLOUR_SWAP
    }

    #[inline]
    fn apply(&self, b: &Board, s: Symmetry) -> Board {
        s.apply_swapping(b, 0, 1)
    }

    /// Cells only burn; queens stay inside their component.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Only the arrow's cell can complete a wall (king-move connectivity).
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        let burnt = before.cells() & !after.cells();
        after.may_disconnect(burnt, after.cells(), true)
    }

    /// Valuing 12-cell Amazons regions stalls the 5 x 5 search.
    fn default_value_cells(&self) -> u32 {
        6
    }

    /// The options counted without making them, bit-parallel: for each of
    /// `p`'s queens, the cells it can slide to (rays over the empty cells),
    /// then for all of them at once, per direction, how many arrow flights
    /// of each length there are (rays over the empty cells and the vacated
    /// one: an arrow from the landing cell never passes back over it).
    /// Each (queen, landing cell, arrow cell) is one option, as generated.
    #[inline]
    fn mobility(&self, b: &Board, p: Player) -> u32 {
        let e = b.layer(2);
        let dirs = Amazons::directions(b);
        let mut n = 0;
        for from in each_bit(Amazons::queens(b, p)) {
            let open = e | from;
            let mut land = 0;
            for step in dirs {
                let mut ray = step.apply(from) & e;
                while ray != 0 {
                    land |= ray;
                    ray = step.apply(ray) & e;
                }
            }
            for step in dirs {
                let mut ray = step.apply(land) & open;
                while ray != 0 {
                    n += ray.count_ones();
                    ray = step.apply(ray) & open;
                }
            }
        }
        n
    }

    /// Region-aware bounds (see [`Amazons::bounds`]): `max` counts the
    /// empty cells of the regions holding one of `p`'s queens, `safe` the
    /// moves along disjoint king paths in regions holding only `p`'s.
    fn move_bounds(&self, b: &Board, p: Player) -> Option<MoveBounds> {
        Some(Amazons::bounds(b, p, PATH_BUDGET))
    }

    /// As the default (fewer opponent's moves, more own safe moves, fewer
    /// of the opponent's), from the bit-parallel mobility and, for the safe
    /// moves, each player's territory (empty cells of regions holding only
    /// that player's queens) from one pass over the regions: only the order
    /// of moves depends on it.
    fn safety_score(&self, b: &Board, mover: Player) -> i32 {
        let other = mover.opponent();
        let sides = Amazons::sides(b);
        let e = b.layer(2);
        let territory = |p: Player| (sides[p as usize].own & e).count_ones() as i32;
        territory(mover) - territory(other) - self.mobility(b, other) as i32
    }
}
