//! Finding the parts: what one pass of region finding costs and what it
//! saves, board by board, and how often positions met in play fall apart.
//!
//! A row of the table is one board: the squares the pass visits (all of the
//! rectangle, and the free ones), the regions it finds, the whole board's
//! position graph against the sum and the product of the regions' graphs,
//! and the positions saved — the whole table less the regions' tables —
//! per square visited. The product identity is checked on every row.
//!
//! The distributional rung plays random games (seeded, so runs repeat) and
//! records, depth by depth, how many positions met fall into more than one
//! region, the sizes of the parts, and what a per-node pass costs the value
//! solver in time against none.

use std::collections::BTreeMap;
use std::time::Instant;

use partizan_core::Arena;
use partizan_games::{Board, Player, Ruleset};
use serde::Serialize;

use crate::graph::{region_report, GraphError};
use crate::regions::regions_with_cost;
use crate::value::{Decompose, Savings, SolveError, Solver};

/// One board of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartsRow {
    /// The board in its ruleset's notation.
    pub board: String,
    /// Squares of the rectangle (what a pass over the board visits).
    pub squares: u64,
    /// Squares that belong to the position (free squares).
    pub free_squares: u64,
    /// Squares the region pass actually visited.
    pub pass_visited: u64,
    /// Regions found.
    pub regions: usize,
    /// Positions of the whole board's graph.
    pub whole: u64,
    /// Sum of the regions' position counts (solving them one by one).
    pub sum: u64,
    /// Product of the regions' counts; equal to `whole` (checked).
    pub product: u64,
    /// Positions saved: `whole - sum` (negative when the pass finds one
    /// region: nothing saved, and nothing lost but the pass).
    pub saved: i64,
    /// `saved / squares`: positions saved per square the pass prices.
    pub saved_per_square: f64,
}

/// Measure one board.
pub fn parts_row<R: Ruleset>(r: &R, b: &Board) -> Result<PartsRow, GraphError> {
    let rep = region_report(r, b)?;
    let (_, visited) = regions_with_cost(r, b);
    let sum: u64 = rep.regions.iter().map(|g| g.positions).sum();
    let squares = (b.width() * b.height()) as u64;
    // One region: the sum is the whole, nothing saved.
    let saved = rep.positions as i64 - sum as i64;
    Ok(PartsRow {
        board: r.format(b),
        squares,
        free_squares: u64::from(r.cells(b).count_ones()),
        pass_visited: visited,
        regions: rep.regions.len(),
        whole: rep.positions,
        sum,
        product: rep.product,
        saved,
        saved_per_square: saved as f64 / squares as f64,
    })
}

/// The same board one row down: its last row removed (`None` for a board
/// of one row).
pub fn one_row_down(text: &str) -> Option<String> {
    let rows: Vec<&str> = text
        .split(['|', '\n'])
        .filter(|r| !r.trim().is_empty())
        .collect();
    (rows.len() > 1).then(|| rows[..rows.len() - 1].join("|"))
}

/// A wall moved across a fixed board: for each column in turn, the board
/// with every cell of that column blocked (`#`), then for each row in turn
/// the board with that row blocked. The board's own holes stay.
pub fn wall_positions(text: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = text
        .split(['|', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.chars().collect())
        .collect();
    let h = rows.len();
    let w = rows.first().map_or(0, Vec::len);
    let join = |g: &[Vec<char>]| {
        g.iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("|")
    };
    let mut out = Vec::new();
    for c in 0..w {
        let mut g = rows.clone();
        for row in g.iter_mut() {
            if let Some(x) = row.get_mut(c) {
                *x = '#';
            }
        }
        out.push(join(&g));
    }
    for r in 0..h {
        let mut g = rows.clone();
        g[r].iter_mut().for_each(|x| *x = '#');
        out.push(join(&g));
    }
    out
}

/// Positions met at one depth of the playouts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DepthRow {
    /// Positions met at this depth (one per playout that got this far).
    pub positions: u64,
    /// Of them, how many fall into more than one region.
    pub decomposed: u64,
    /// Regions found, summed over the positions (mean = regions / positions).
    pub regions: u64,
}

/// How often positions met in random play decompose, and what a per-node
/// pass costs the solver.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Playouts {
    /// The ruleset.
    pub ruleset: &'static str,
    /// The starting board.
    pub board: String,
    /// Playouts made.
    pub playouts: u64,
    /// The seed (runs repeat).
    pub seed: u64,
    /// By depth (moves made so far).
    pub by_depth: BTreeMap<u32, DepthRow>,
    /// Sizes (cells) of the parts of decomposed positions -> how many parts.
    pub part_sizes: BTreeMap<u32, u64>,
    /// Share of all positions met that decompose.
    pub decomposed_share: f64,
    /// Seconds to value the board with a pass at every node.
    pub every_node_seconds: f64,
    /// Seconds to value it with no pass at all.
    pub no_pass_seconds: f64,
    /// `every_node_seconds / no_pass_seconds`: under 1, the pass pays.
    pub time_ratio: f64,
    /// The value both runs found (CGSuite notation; equal, checked).
    pub value: String,
}

/// Play `n` random games from `b` (Left first, then alternately; a game
/// ends when the mover has no move), recording decomposition by depth; then
/// value `b` with and without a per-node pass and time both.
pub fn playouts<R: Ruleset>(r: &R, b: &Board, n: u64, seed: u64) -> Result<Playouts, SolveError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut by_depth: BTreeMap<u32, DepthRow> = BTreeMap::new();
    let mut part_sizes: BTreeMap<u32, u64> = BTreeMap::new();
    let mut opts = Vec::new();
    for _ in 0..n {
        let mut pos = *b;
        let mut mover = Player::Left;
        let mut depth = 0u32;
        loop {
            let (parts, _) = regions_with_cost(r, &pos);
            let row = by_depth.entry(depth).or_default();
            row.positions += 1;
            row.regions += parts.len() as u64;
            if parts.len() > 1 {
                row.decomposed += 1;
                for p in &parts {
                    *part_sizes.entry(p.count_ones()).or_default() += 1;
                }
            }
            opts.clear();
            r.options(&pos, mover, |o| opts.push(o));
            if opts.is_empty() {
                break;
            }
            pos = opts[rng.usize(..opts.len())];
            mover = mover.opponent();
            depth += 1;
        }
    }
    let time = |decompose| -> Result<(f64, String), SolveError> {
        let t = Instant::now();
        let mut arena = Arena::new();
        let savings = Savings {
            decompose,
            ..Savings::ALL
        };
        let g = Solver::new(r, savings)?.value(&mut arena, b)?;
        Ok((t.elapsed().as_secs_f64(), arena.display(g)))
    };
    let (every, v1) = time(Decompose::EveryNode)?;
    let (off, v2) = time(Decompose::Off)?;
    if v1 != v2 {
        return Err(SolveError::Inconsistent(format!(
            "every-node decomposition gives {v1}, none gives {v2}"
        )));
    }
    let met: u64 = by_depth.values().map(|d| d.positions).sum();
    let split: u64 = by_depth.values().map(|d| d.decomposed).sum();
    Ok(Playouts {
        ruleset: r.name(),
        board: r.format(b),
        playouts: n,
        seed,
        by_depth,
        part_sizes,
        decomposed_share: split as f64 / met.max(1) as f64,
        every_node_seconds: every,
        no_pass_seconds: off,
        time_ratio: every / off.max(1e-9),
        value: v1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Amazons, Domineering};

    #[test]
    fn the_essays_boards() {
        let d = Domineering;
        let full = parts_row(&d, &d.parse(".....|.....|.....|.....").unwrap()).unwrap();
        assert_eq!((full.whole, full.regions, full.saved), (58_830, 1, 0));
        assert_eq!(full.squares, 20);
        let stair = parts_row(&d, &d.parse(".#...|..#..|..#..|..#..").unwrap()).unwrap();
        assert_eq!(stair.whole, 2_187);
        assert_eq!(stair.product, 2_187);
        assert_eq!(stair.sum, 27 + 81);
        assert_eq!(stair.saved, 2_187 - 108);
        assert_eq!(stair.free_squares, 16);
    }

    #[test]
    fn rows_down_and_walls() {
        assert_eq!(one_row_down("...|..#|..."), Some("...|..#".to_string()));
        assert_eq!(one_row_down("..."), None);
        let walls = wall_positions("...|...");
        assert_eq!(
            walls,
            ["#..|#..", ".#.|.#.", "..#|..#", "###|...", "...|###"]
        );
    }

    #[test]
    fn playouts_repeat_and_count_every_position() {
        let d = Domineering;
        let b = d.parse("....|....|....").unwrap();
        let a = playouts(&d, &b, 50, 7).unwrap();
        let again = playouts(&d, &b, 50, 7).unwrap();
        assert_eq!(a.by_depth, again.by_depth);
        assert_eq!(a.by_depth[&0].positions, 50);
        assert_eq!(a.by_depth[&0].decomposed, 0);
        // Each decomposed position's parts cover at least two regions.
        let split: u64 = a.by_depth.values().map(|r| r.decomposed).sum();
        let parts: u64 = a.part_sizes.values().sum();
        assert!(parts >= 2 * split);
        assert!(split > 0, "3x4 Domineering falls apart in play");
        let am = Amazons;
        let b = am.parse("L...|....|...R").unwrap();
        let p = playouts(&am, &b, 5, 1).unwrap();
        assert_eq!(p.by_depth[&0].positions, 5);
    }
}
