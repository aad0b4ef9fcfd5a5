//! Sides compared by their definition, and sides found by deleting the
//! edges that do not matter.
//!
//! Sidling ([`crate::sides`]) finds a side only when its rounds settle; a
//! side such as `over`'s relatives, which the rounds approach only in the
//! limit, is never reached that way. Here a side is found on the game's
//! own graph instead: an edge that lies on a cycle of alternating play is
//! deleted when the graph without it has the same side, judged by the
//! comparison of sides below, until no play alternates forever; the stopper
//! left is reduced to its simplest form. The answer is then checked
//! against the game by the same comparison, both ways, so what is returned
//! is the side by the definition, or nothing.
//!
//! The comparison (Conway, ONAG ch. 16; Siegel VI.4): `G ≤ H` on the
//! onside when Left, Right moving first in `H − G`, survives, where a play
//! that never ends counts for Left exactly when it is infinite in the `H`
//! component; on the offside, exactly when it is infinite in the `G`
//! component. So `on = dud⁺` and `off = dud⁻`, and for stoppers both agree
//! with survival. Left's winning states are a Büchi game's: a greatest
//! fixpoint of least fixpoints, each a retrograde count.

use crate::graph::Graph;
use crate::sides::Side;
use crate::stopper::simplest;
use crate::LoopyError;

/// `g ≤ h` on the side `which` (any games, stoppers or not).
#[must_use]
pub fn side_le(g: &Graph, h: &Graph, which: Side) -> bool {
    side_table(g, h, which).le(g.root(), h.root())
}

/// For every pair of positions `a` of `g` and `b` of `h`, whether
/// `g_a ≤ h_b` on one side.
pub struct SideTable {
    nh: usize,
    left_survives: Vec<bool>,
}

impl SideTable {
    /// `g_a ≤ h_b`.
    #[must_use]
    pub fn le(&self, a: u32, b: u32) -> bool {
        self.left_survives[(a as usize * self.nh + b as usize) * 2 + 1]
    }
}

/// Every pair compared on the side `which`: Left's surviving states of
/// `h_b − g_a`, Right to move, by a Büchi game.
#[must_use]
pub fn side_table(g: &Graph, h: &Graph, which: Side) -> SideTable {
    let (ng, nh) = (g.len(), h.len());
    let id = |x: usize, y: usize, m: usize| (x * nh + y) * 2 + m;
    let states = ng * nh * 2;
    let (gl, gr_) = (g.reversed(true), g.reversed(false));
    let (hl, hr) = (h.reversed(true), h.reversed(false));
    // A move (target, whether it counts toward infinite play for Left).
    let counts_g = which == Side::Off;
    let moves = |s: usize, out: &mut Vec<(usize, bool)>| {
        out.clear();
        let (xy, m) = (s / 2, s % 2);
        let (x, y) = (xy / nh, xy % nh);
        // Left in H − G: G's Right options, H's Left options; Right: G's
        // Left options, H's Right options.
        let (gm, hm) = if m == 0 {
            (g.right(x as u32), h.left(y as u32))
        } else {
            (g.left(x as u32), h.right(y as u32))
        };
        out.extend(gm.iter().map(|&x2| (id(x2 as usize, y, 1 - m), counts_g)));
        out.extend(hm.iter().map(|&y2| (id(x, y2 as usize, 1 - m), !counts_g)));
    };
    // The moves into a state, by the reversed edges of g and h.
    let preds = |t: usize, out: &mut Vec<(usize, bool)>| {
        out.clear();
        let (xy, m) = (t / 2, t % 2);
        let (x, y) = (xy / nh, xy % nh);
        // The mover before was the other player, 1 - m.
        let (gp, hp) = if m == 1 {
            (&gr_[x], &hl[y])
        } else {
            (&gl[x], &hr[y])
        };
        out.extend(gp.iter().map(|&x0| (id(x0 as usize, y, 1 - m), counts_g)));
        out.extend(hp.iter().map(|&y0| (id(x, y0 as usize, 1 - m), !counts_g)));
    };
    let mut buf = Vec::new();
    let mut pbuf = Vec::new();
    let mut z = vec![true; states];
    let mut y = vec![false; states];
    let mut pending = vec![0u32; states];
    let mut queue = Vec::new();
    loop {
        // y: states of z from which Left forces, inside z, Right stuck or
        // a counting move into z.
        y.iter_mut().for_each(|v| *v = false);
        for s in 0..states {
            if !z[s] {
                continue;
            }
            moves(s, &mut buf);
            if s % 2 == 1 {
                // Right to move: every move must stay in z, and the ones
                // that do not count must reach y.
                if buf.iter().any(|&(t, _)| !z[t]) {
                    pending[s] = u32::MAX;
                    continue;
                }
                pending[s] = buf.iter().filter(|&&(_, c)| !c).count() as u32;
                if pending[s] == 0 {
                    y[s] = true;
                    queue.push(s);
                }
            } else if buf.iter().any(|&(t, c)| c && z[t]) {
                y[s] = true;
                queue.push(s);
            }
        }
        while let Some(t) = queue.pop() {
            preds(t, &mut pbuf);
            for &(p, c) in &pbuf {
                if c || !z[p] || y[p] {
                    continue;
                }
                if p % 2 == 0 {
                    y[p] = true;
                    queue.push(p);
                } else if pending[p] != u32::MAX {
                    pending[p] -= 1;
                    if pending[p] == 0 {
                        y[p] = true;
                        queue.push(p);
                    }
                }
            }
        }
        if y == z {
            break;
        }
        std::mem::swap(&mut z, &mut y);
    }
    SideTable {
        nh,
        left_survives: z,
    }
}

/// Whether `g` and `h` have the same side `which`.
#[must_use]
pub fn side_eq(g: &Graph, h: &Graph, which: Side) -> bool {
    side_le(g, h, which) && side_le(h, g, which)
}

/// The side `which` of `g` as a stopper in simplest form, found by
/// deleting edges that do not change it until no play alternates forever
/// and then checked against `g` by [`side_le`] both ways; `None` when the
/// deletions leave a play that alternates forever (the side may still
/// exist: CGSuite also unravels cycles, which is not done here).
pub fn side_by_deletion(
    g: &Graph,
    which: Side,
    max_nodes: usize,
) -> Result<Option<Graph>, LoopyError> {
    let g = g.trimmed();
    if g.len() > max_nodes {
        return Err(LoopyError::TooLarge { limit: max_nodes });
    }
    let mut cur = g.clone();
    // Try the edges on alternating cycles; the player that infinite play
    // favours keeps its edges longest (the other's are tried first).
    let mut changed = true;
    while changed && !cur.is_stopper() {
        changed = false;
        let order = if which == Side::On {
            [false, true]
        } else {
            [true, false]
        };
        for left in order {
            for x in 0..cur.len() as u32 {
                let mut i = 0;
                loop {
                    let opts = if left { cur.left(x) } else { cur.right(x) };
                    if i >= opts.len() {
                        break;
                    }
                    if !on_alternating_cycle(&cur, x, left, opts[i]) {
                        i += 1;
                        continue;
                    }
                    let mut next = cur.clone();
                    let (mut l, mut r) = (cur.left(x).to_vec(), cur.right(x).to_vec());
                    if left {
                        l.remove(i);
                    } else {
                        r.remove(i);
                    }
                    next.set(x, l, r);
                    // Node numbers stay (nothing is trimmed until the end),
                    // so the scan goes on where it was. Deleting a Left
                    // edge can only lower the game and a Right edge only
                    // raise it, so one direction decides.
                    let kept = if left {
                        side_le(&cur, &next, which)
                    } else {
                        side_le(&next, &cur, which)
                    };
                    if kept {
                        cur = next;
                        changed = true;
                    } else {
                        i += 1;
                    }
                }
            }
        }
    }
    let cur = cur.trimmed();
    if !cur.is_stopper() {
        return Ok(None);
    }
    let s = simplest(&cur, max_nodes)?;
    if !side_eq(&s, &g, which) {
        return Err(LoopyError::Value(
            "a side found by deleting edges did not check (a bug: please report the game)".into(),
        ));
    }
    Ok(Some(s))
}

/// Whether the move from `x` to `y` (Left's when `left`) lies on a cycle
/// of alternating play: from `y` with the other player to move, play can
/// return to `x` with the same player to move.
fn on_alternating_cycle(g: &Graph, x: u32, left: bool, y: u32) -> bool {
    let n = g.len();
    let target = 2 * x as usize + usize::from(!left);
    let start = 2 * y as usize + usize::from(left);
    let mut seen = vec![false; 2 * n];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(s) = stack.pop() {
        if s == target {
            return true;
        }
        let (v, m) = ((s / 2) as u32, s % 2);
        let opts = if m == 0 { g.left(v) } else { g.right(v) };
        for &w in opts {
            let t = 2 * w as usize + 1 - m;
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    false
}
