//! Stops of stoppers.
//!
//! In a stopper no play alternates forever, so alternating play from any
//! position, either player first, reaches in finitely many moves a
//! position equal to a number, or a player with no move. The Left stop
//! is the number reached when Left moves first and both play to make it
//! large (Left) or small (Right); the Right stop with Right first. A
//! player left without a move at a position that is not a number stands
//! at `on` (Right stuck: Left may move for ever) or `off` (Left stuck), so
//! `on` has both stops `on` and `over` has both stops 0. Stops are read
//! from a stopper's simplest form, where a position equal to a number is
//! that number's short form.

use partizan_core::{Arena, Dyadic};
use rustc_hash::FxHashMap;

use crate::graph::Graph;
use crate::stopper::short_value;
use crate::LoopyError;

/// A stop: a number, or `on` / `off` where play can go on for ever on the
/// side of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stop {
    /// Below every number.
    Off,
    /// A number.
    Number(Dyadic),
    /// Above every number.
    On,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Off => f.write_str("off"),
            Stop::On => f.write_str("on"),
            Stop::Number(x) => write!(f, "{x}"),
        }
    }
}

/// The Left and Right stops of a stopper in simplest form.
pub fn stops(g: &Graph, core: &mut Arena) -> Result<(Stop, Stop), LoopyError> {
    if !g.is_stopper() {
        return Err(LoopyError::NotStopper("the game".into(), "stops"));
    }
    let short = g.short_nodes();
    let mut shorts = FxHashMap::default();
    let mut numbers: FxHashMap<u32, Dyadic> = FxHashMap::default();
    for x in g.reachable(&[g.root()]) {
        if short[x as usize] {
            let v = short_value(g, x, core, &mut shorts)?;
            if let Some(d) = core.as_number(v) {
                numbers.insert(x, d);
            }
        }
    }
    // State 2x + mover (0 Left); alternating play is acyclic in a stopper,
    // so a depth-first walk finishes every state after its successors.
    let mut memo: FxHashMap<u32, Stop> = FxHashMap::default();
    let root_states = [2 * g.root(), 2 * g.root() + 1];
    for &s0 in &root_states {
        let mut stack = vec![(s0, false)];
        while let Some((s, expanded)) = stack.pop() {
            if memo.contains_key(&s) {
                continue;
            }
            let (x, m) = (s / 2, s % 2);
            if let Some(&d) = numbers.get(&x) {
                memo.insert(s, Stop::Number(d));
                continue;
            }
            let opts = if m == 0 { g.left(x) } else { g.right(x) };
            let next = |y: u32| 2 * y + 1 - m;
            if expanded {
                let vals = opts.iter().map(|&y| memo[&next(y)]);
                let v = if m == 0 {
                    vals.max().unwrap_or(Stop::Off)
                } else {
                    vals.min().unwrap_or(Stop::On)
                };
                memo.insert(s, v);
            } else {
                stack.push((s, true));
                for &y in opts {
                    if !memo.contains_key(&next(y)) {
                        stack.push((next(y), false));
                    }
                }
            }
        }
    }
    Ok((memo[&root_states[0]], memo[&root_states[1]]))
}
