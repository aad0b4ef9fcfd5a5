//! Onsides and offsides by sidling (see [`crate::sided`] for sides that
//! the rounds only approach in the limit).
//!
//! A game whose play can alternate forever is not a stopper, but it may be
//! *stopper-sided*: equal to `onside & offside`, where the onside counts
//! infinite play as Left's win and the offside as Right's. Conway's
//! sidling (ONAG ch. 16; Siegel VI.4) approaches them from outside: every
//! position starts at `on` (for the onside) or `off`, and each round gives
//! every position `{its Left options' last values | its Right options'}`,
//! each reduced to its simplest form. When a round changes no position's
//! value the values are a fixpoint and the root's is the side. A round
//! limit that passes first is reported as such (no side is guessed): a
//! side that rounds only approach in the limit is not found this way.

use crate::graph::Graph;
use crate::parse::named;
use crate::stopper::{compare, simplest};
use crate::{LoopyError, Relation};

/// Which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Infinite play counts for Left: sidle down from `on`.
    On,
    /// Infinite play counts for Right: sidle up from `off`.
    Off,
}

/// The side of `g` as a stopper in simplest form, with the rounds it took,
/// or `None` when `max_rounds` rounds did not settle.
pub fn side(
    g: &Graph,
    which: Side,
    max_rounds: usize,
    max_nodes: usize,
) -> Result<Option<(Graph, usize)>, LoopyError> {
    let g = g.trimmed();
    let start = named(if which == Side::On { "on" } else { "off" }).expect("named");
    // Positions that are stoppers start at their own value (a stopper is
    // its own onside and offside), the rest at on (off): still a point the
    // rounds only lower (raise) toward the side, and one that settles where
    // a stopper part would only be approached in the limit.
    let mut values: Vec<Graph> = Vec::with_capacity(g.len());
    for x in 0..g.len() as u32 {
        let mut sub = g.clone();
        sub.set_root(x);
        let sub = sub.trimmed();
        values.push(if sub.is_stopper() {
            simplest(&sub, max_nodes)?
        } else {
            start.clone()
        });
    }
    for round in 1..=max_rounds {
        let mut next = Vec::with_capacity(g.len());
        for x in 0..g.len() as u32 {
            let mut h = Graph::default();
            let root = h.add();
            let mut l = Vec::new();
            for &y in g.left(x) {
                let v = &values[y as usize];
                l.push(h.append(v) + v.root());
            }
            let mut r = Vec::new();
            for &y in g.right(x) {
                let v = &values[y as usize];
                r.push(h.append(v) + v.root());
            }
            h.set(root, l, r);
            h.set_root(root);
            if h.len() > max_nodes {
                return Err(LoopyError::TooLarge { limit: max_nodes });
            }
            next.push(simplest(&h, max_nodes)?);
        }
        let mut settled = true;
        for (a, b) in values.iter().zip(&next) {
            if compare(a, b, max_nodes)? != Relation::Equal {
                settled = false;
                break;
            }
        }
        values = next;
        if settled {
            return Ok(Some((values.swap_remove(g.root() as usize), round)));
        }
    }
    Ok(None)
}
