//! Stoppers: comparison and simplest forms.
//!
//! `G >= H` for stoppers exactly when Left, moving second, survives
//! `G - H` (Right wins only by leaving Left without a move; play that
//! never ends is survival): Siegel, *Combinatorial Game Theory*, ch. VI.
//! Every stopper has a unique simplest form, reached by fusing equal
//! positions, deleting dominated options and bypassing reversible ones
//! (Conway, ONAG ch. 16; Siegel VI.3). Here every pass is checked before it
//! is kept: the new graph must be a stopper equal to the old one (the
//! survival comparison of the two roots, both ways), or the pass is
//! refused and the form is left as the last checked graph.

use partizan_core::Arena;

use crate::graph::{le_table, Graph};
use crate::LoopyError;

/// `g >= h`, both stoppers.
pub fn ge(g: &Graph, h: &Graph, max_nodes: usize) -> Result<bool, LoopyError> {
    let (g, h) = bounded(g, h, max_nodes)?;
    Ok(stopper_le(&h, &g))
}

/// `g <= h` for stoppers of any sizes: Left survives `h - g` with Right
/// moving first (infinite play is survival). One retrograde pass over the
/// pairs of their positions ([`le_table`]): linear in `g` for a small `h`.
#[must_use]
pub fn stopper_le(g: &Graph, h: &Graph) -> bool {
    le_table(g, h)[g.root() as usize * h.len() + h.root() as usize]
}

/// Both graphs trimmed, their positions together at most `max_nodes`.
fn bounded(g: &Graph, h: &Graph, max_nodes: usize) -> Result<(Graph, Graph), LoopyError> {
    let (g, h) = (g.trimmed(), h.trimmed());
    if g.len() + h.len() > max_nodes {
        return Err(LoopyError::TooLarge { limit: max_nodes });
    }
    Ok((g, h))
}

/// How two stoppers compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// `G > H`.
    Greater,
    /// `G < H`.
    Less,
    /// `G = H`.
    Equal,
    /// Neither `G >= H` nor `G <= H`.
    Confused,
}

/// The relation of two stoppers.
pub fn compare(g: &Graph, h: &Graph, max_nodes: usize) -> Result<Relation, LoopyError> {
    let (g, h) = bounded(g, h, max_nodes)?;
    Ok(match (stopper_le(&h, &g), stopper_le(&g, &h)) {
        (true, true) => Relation::Equal,
        (true, false) => Relation::Greater,
        (false, true) => Relation::Less,
        (false, false) => Relation::Confused,
    })
}

/// The simplest form of a stopper. `max_nodes` bounds the graph (its
/// comparison table is quadratic in it).
pub fn simplest(g: &Graph, max_nodes: usize) -> Result<Graph, LoopyError> {
    let (h, roots) = simplest_many(g, &[g.root()], max_nodes)?;
    let mut h = h;
    h.set_root(roots[0]);
    Ok(h.trimmed())
}

/// The simplest forms of several positions of one stopper graph at once:
/// a graph in which every position reachable from the new roots is in
/// simplest form, and each root's position in it. The result is checked
/// before it is returned: a stopper, every new root equal to its old one
/// (the survival comparison both ways), or an error.
pub fn simplest_many(
    g: &Graph,
    roots: &[u32],
    max_nodes: usize,
) -> Result<(Graph, Vec<u32>), LoopyError> {
    let (start, start_roots) = g.restricted(roots);
    if start.len() > max_nodes {
        return Err(LoopyError::TooLarge { limit: max_nodes });
    }
    // Dominated and reversible options first, until there are none; then
    // fusion of equal positions (safe only once the options are simplified:
    // `over + over` has Left options equal to itself, and fusing them first
    // would make `dud`).
    let (mut cur, mut cur_roots) = (start.clone(), start_roots.clone());
    for _ in 0..10_000 {
        let (mut next, mut next_roots) = pass(&cur, &cur_roots, false);
        if next == cur && next_roots == cur_roots {
            (next, next_roots) = pass(&cur, &cur_roots, true);
            if next == cur && next_roots == cur_roots {
                break;
            }
        }
        (cur, cur_roots) = (next, next_roots);
    }
    // Each root equal to its old self: `<=` both ways, read from the two
    // tables of pairs (old position, new position) and back.
    let kept = cur.is_stopper_from(&cur_roots) && {
        let (down, up) = (le_table(&start, &cur), le_table(&cur, &start));
        let (ns, nc) = (start.len(), cur.len());
        start_roots.iter().zip(&cur_roots).all(|(&a, &b)| {
            let (a, b) = (a as usize, b as usize);
            down[a * nc + b] && up[b * ns + a]
        })
    };
    if !kept {
        return Err(LoopyError::Value(
            "a simplification did not keep the value (a bug: please report the game)".into(),
        ));
    }
    Ok((cur, cur_roots))
}

/// One pass: with `fuse`, equal nodes become one; at every node dominated
/// options are deleted and reversible ones bypassed, all read from one
/// comparison table. Returns the positions reachable from the roots.
fn pass(g: &Graph, roots: &[u32], fuse: bool) -> (Graph, Vec<u32>) {
    let n = g.len();
    let ge = g.comparisons();
    let mut rep: Vec<u32> = (0..n as u32).collect();
    for a in (0..n).filter(|_| fuse) {
        for b in 0..a {
            if rep[b] == b as u32 && ge[a][b] && ge[b][a] {
                rep[a] = b as u32;
                break;
            }
        }
    }
    let mut out = Graph::default();
    for _ in 0..n {
        out.add();
    }
    for x in 0..n {
        if rep[x] != x as u32 {
            continue;
        }
        let side = |left: bool| -> Vec<u32> {
            let opts = if left {
                g.left(x as u32)
            } else {
                g.right(x as u32)
            };
            let mut v: Vec<u32> = opts.iter().map(|&y| rep[y as usize]).collect();
            v.sort_unstable();
            v.dedup();
            // Reversible: a Left option y with some y^R <= x is replaced by
            // y^R's Left options (Right's symmetrically).
            let mut out = Vec::new();
            for &y in &v {
                let answers = if left { g.right(y) } else { g.left(y) };
                let through = answers.iter().map(|&z| rep[z as usize]).find(|&z| {
                    if left {
                        ge[x][z as usize]
                    } else {
                        ge[z as usize][x]
                    }
                });
                match through {
                    Some(z) if z != x as u32 => {
                        let more = if left { g.left(z) } else { g.right(z) };
                        out.extend(more.iter().map(|&w| rep[w as usize]));
                    }
                    _ => out.push(y),
                }
            }
            out.sort_unstable();
            out.dedup();
            // Dominated: Left drops y when another option is better, or
            // equal and earlier (one of equal options stays).
            let better = |z: u32, y: u32| -> bool {
                let (zy, yz) = (ge[z as usize][y as usize], ge[y as usize][z as usize]);
                let (over, under) = if left { (zy, yz) } else { (yz, zy) };
                z != y && over && (!under || z < y)
            };
            let keep: Vec<u32> = out
                .iter()
                .copied()
                .filter(|&y| !out.iter().any(|&z| better(z, y)))
                .collect();
            keep
        };
        let (l, r) = (side(true), side(false));
        out.set(x as u32, l, r);
    }
    let roots: Vec<u32> = roots.iter().map(|&r| rep[r as usize]).collect();
    out.restricted(&roots)
}

/// Whether the stopper is short (no cycle reachable): then its simplest
/// form is the normal-play canonical form, built by `core`.
pub fn as_short(g: &Graph, core: &mut Arena) -> Result<Option<partizan_core::GameId>, LoopyError> {
    let short = g.short_nodes();
    if !short[g.root() as usize] {
        return Ok(None);
    }
    let mut memo = rustc_hash::FxHashMap::default();
    short_value(g, g.root(), core, &mut memo).map(Some)
}

/// The canonical form of a short node.
pub(crate) fn short_value(
    g: &Graph,
    x: u32,
    core: &mut Arena,
    memo: &mut rustc_hash::FxHashMap<u32, partizan_core::GameId>,
) -> Result<partizan_core::GameId, LoopyError> {
    if let Some(&v) = memo.get(&x) {
        return Ok(v);
    }
    let mut l = Vec::new();
    for &y in g.left(x) {
        l.push(short_value(g, y, core, memo)?);
    }
    let mut r = Vec::new();
    for &y in g.right(x) {
        r.push(short_value(g, y, core, memo)?);
    }
    let v = core
        .construct(&l, &r)
        .map_err(|e| LoopyError::Value(e.to_string()))?;
    memo.insert(x, v);
    Ok(v)
}
