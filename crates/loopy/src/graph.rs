//! Game graphs: positions whose options may lead back to them.

use std::collections::VecDeque;

use partizan_core::{Arena, GameId};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::LoopyError;

/// The default limit on positions a graph (or a sum's graph) may have.
pub const DEFAULT_MAX_NODES: usize = 200_000;

/// A game graph with a root: node `i` has Left options `left(i)` and Right
/// options `right(i)`, which may lead back to `i` or to its ancestors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
    root: u32,
}

/// How a player to move fares under normal play with infinite play a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// The player to move wins.
    Win,
    /// The player to move loses.
    Loss,
    /// Neither can force a win: play goes on forever.
    Draw,
}

/// The outcome of a loopy game: how it ends with each player moving first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LoopyOutcome {
    /// Left moving first: Left's result.
    pub left_first: Play,
    /// Right moving first: Right's result.
    pub right_first: Play,
}

impl LoopyOutcome {
    /// `L`, `R`, `N`, `P` when neither start draws, `D` when both draw, and
    /// otherwise two letters, Left's start first: `W`/`L`/`D` for Left
    /// moving first, then for Right moving first (the mover's result),
    /// such as `D/L` (Left moving first draws, Right moving first loses).
    #[must_use]
    pub fn class(self) -> String {
        use Play::{Draw, Loss, Win};
        match (self.left_first, self.right_first) {
            (Win, Loss) => "L".into(),
            (Loss, Win) => "R".into(),
            (Win, Win) => "N".into(),
            (Loss, Loss) => "P".into(),
            (Draw, Draw) => "D".into(),
            (a, b) => format!("{}/{}", letter(a), letter(b)),
        }
    }

    /// In words.
    #[must_use]
    pub fn words(self) -> String {
        format!(
            "Left moving first {}, Right moving first {}",
            word(self.left_first),
            word(self.right_first)
        )
    }
}

fn letter(p: Play) -> &'static str {
    match p {
        Play::Win => "W",
        Play::Loss => "L",
        Play::Draw => "D",
    }
}

fn word(p: Play) -> &'static str {
    match p {
        Play::Win => "wins",
        Play::Loss => "loses",
        Play::Draw => "draws (play never ends)",
    }
}

impl Graph {
    /// A graph of one node with no options (`0`).
    #[must_use]
    pub fn zero() -> Self {
        Self {
            left: vec![Vec::new()],
            right: vec![Vec::new()],
            root: 0,
        }
    }

    /// Adds a node with no options yet; returns its index.
    pub fn add(&mut self) -> u32 {
        self.left.push(Vec::new());
        self.right.push(Vec::new());
        (self.left.len() - 1) as u32
    }

    /// Sets a node's options (each an existing node).
    pub fn set(&mut self, node: u32, left: Vec<u32>, right: Vec<u32>) {
        self.left[node as usize] = left;
        self.right[node as usize] = right;
    }

    /// Makes `node` the root.
    pub fn set_root(&mut self, node: u32) {
        self.root = node;
    }

    /// The root.
    #[must_use]
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Nodes held (reachable or not).
    #[must_use]
    pub fn len(&self) -> usize {
        self.left.len()
    }

    /// Whether the graph has no node.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    /// Left's options of a node.
    #[must_use]
    pub fn left(&self, n: u32) -> &[u32] {
        &self.left[n as usize]
    }

    /// Right's options of a node.
    #[must_use]
    pub fn right(&self, n: u32) -> &[u32] {
        &self.right[n as usize]
    }

    /// The graph with `other`'s nodes appended; returns the offset of
    /// `other`'s node 0.
    pub fn append(&mut self, other: &Graph) -> u32 {
        let off = self.len() as u32;
        for i in 0..other.len() {
            self.left
                .push(other.left[i].iter().map(|&x| x + off).collect());
            self.right
                .push(other.right[i].iter().map(|&x| x + off).collect());
        }
        off
    }

    /// The tree of a short game (its canonical form), as a graph.
    #[must_use]
    pub fn short(core: &Arena, g: GameId) -> Self {
        let mut out = Graph::default();
        let mut memo = FxHashMap::default();
        let root = out.add_short(core, g, &mut memo);
        out.root = root;
        out
    }

    /// Adds the short game `g`'s tree (shared subtrees once).
    pub fn add_short(&mut self, core: &Arena, g: GameId, memo: &mut FxHashMap<GameId, u32>) -> u32 {
        if let Some(&n) = memo.get(&g) {
            return n;
        }
        let l: Vec<u32> = core
            .left_options(g)
            .iter()
            .map(|&x| self.add_short(core, x, memo))
            .collect();
        let r: Vec<u32> = core
            .right_options(g)
            .iter()
            .map(|&x| self.add_short(core, x, memo))
            .collect();
        let n = self.add();
        self.set(n, l, r);
        memo.insert(g, n);
        n
    }

    /// The reversed edges of one player (`left` or Right): for each node,
    /// the nodes that player moves from to it.
    #[must_use]
    pub fn reversed(&self, left: bool) -> Vec<Vec<u32>> {
        let opts = if left { &self.left } else { &self.right };
        let mut back: Vec<Vec<u32>> = vec![Vec::new(); self.len()];
        for (x, o) in opts.iter().enumerate() {
            for &y in o {
                back[y as usize].push(x as u32);
            }
        }
        back
    }

    /// `-G`: Left and Right exchanged.
    #[must_use]
    pub fn neg(&self) -> Self {
        Self {
            left: self.right.clone(),
            right: self.left.clone(),
            root: self.root,
        }
    }

    /// The nodes reachable from the root, renumbered from 0 (the root).
    #[must_use]
    pub fn trimmed(&self) -> Self {
        self.restricted(&[self.root]).0
    }

    /// The disjunctive sum: a position of `G + H` is a pair of positions,
    /// a move is a move in either. At most `max_nodes` pairs.
    pub fn sum(&self, other: &Graph, max_nodes: usize) -> Result<Self, LoopyError> {
        let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut pairs = vec![(self.root, other.root)];
        index.insert((self.root, other.root), 0);
        let mut out = Graph::default();
        let mut i = 0;
        while i < pairs.len() {
            let (a, b) = pairs[i];
            let mut sides = [Vec::new(), Vec::new()];
            for (side, left) in sides.iter_mut().zip([true, false]) {
                let (oa, ob) = if left {
                    (self.left(a), other.left(b))
                } else {
                    (self.right(a), other.right(b))
                };
                let next = oa.iter().map(|&x| (x, b)).chain(ob.iter().map(|&y| (a, y)));
                for p in next {
                    let id = match index.get(&p) {
                        Some(&id) => id,
                        None => {
                            if pairs.len() >= max_nodes {
                                return Err(LoopyError::TooLarge { limit: max_nodes });
                            }
                            let id = pairs.len() as u32;
                            index.insert(p, id);
                            pairs.push(p);
                            id
                        }
                    };
                    side.push(id);
                }
            }
            let [l, r] = sides;
            out.left.push(l);
            out.right.push(r);
            i += 1;
        }
        Ok(out)
    }

    /// For every node and each player to move (0 Left, 1 Right), how the
    /// mover fares under normal play, infinite play a draw (retrograde
    /// analysis: a mover with no move loses; a move to a position lost by
    /// the opponent wins; every move to a position the opponent wins
    /// loses; what is never decided is a draw).
    #[must_use]
    pub fn plays(&self) -> Vec<[Play; 2]> {
        let n = self.len();
        // State s = 2 * node + mover; a move from (x, m) goes to (y, 1 - m).
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); 2 * n];
        let mut open = vec![0u32; 2 * n];
        for x in 0..n as u32 {
            for (m, opts) in [(0u32, self.left(x)), (1, self.right(x))] {
                open[(2 * x + m) as usize] = opts.len() as u32;
                for &y in opts {
                    preds[(2 * y + 1 - m) as usize].push(2 * x + m);
                }
            }
        }
        let mut result: Vec<Option<Play>> = vec![None; 2 * n];
        let mut queue = VecDeque::new();
        for s in 0..2 * n {
            if open[s] == 0 {
                result[s] = Some(Play::Loss);
                queue.push_back(s as u32);
            }
        }
        while let Some(s) = queue.pop_front() {
            let lost = result[s as usize] == Some(Play::Loss);
            for &p in &preds[s as usize] {
                let p = p as usize;
                if result[p].is_some() {
                    continue;
                }
                if lost {
                    result[p] = Some(Play::Win);
                    queue.push_back(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        result[p] = Some(Play::Loss);
                        queue.push_back(p as u32);
                    }
                }
            }
        }
        (0..n)
            .map(|x| {
                [
                    result[2 * x].unwrap_or(Play::Draw),
                    result[2 * x + 1].unwrap_or(Play::Draw),
                ]
            })
            .collect()
    }

    /// The outcome of the root.
    #[must_use]
    pub fn outcome(&self) -> LoopyOutcome {
        let p = self.plays()[self.root as usize];
        LoopyOutcome {
            left_first: p[0],
            right_first: p[1],
        }
    }

    /// Whether the game is a stopper: no play from any of its positions
    /// alternates forever (Siegel's definition: every subposition, either
    /// player to move, since in a sum a player may reach a position of
    /// this component with either player to move).
    #[must_use]
    pub fn is_stopper(&self) -> bool {
        self.is_stopper_from(&[self.root])
    }

    /// Whether every position reachable from `roots` is a stopper.
    #[must_use]
    pub fn is_stopper_from(&self, roots: &[u32]) -> bool {
        // 0 unseen, 1 on the stack, 2 done; state = 2 * node + mover.
        let mut color = vec![0u8; 2 * self.len()];
        for x in self.reachable(roots) {
            for start in [2 * x, 2 * x + 1] {
                if color[start as usize] != 0 {
                    continue;
                }
                let mut stack: Vec<(u32, usize)> = vec![(start, 0)];
                color[start as usize] = 1;
                while let Some(&mut (s, ref mut i)) = stack.last_mut() {
                    let (x, m) = (s / 2, s % 2);
                    let opts = if m == 0 { self.left(x) } else { self.right(x) };
                    if *i < opts.len() {
                        let t = 2 * opts[*i] + 1 - m;
                        *i += 1;
                        match color[t as usize] {
                            0 => {
                                color[t as usize] = 1;
                                stack.push((t, 0));
                            }
                            1 => return false,
                            _ => {}
                        }
                    } else {
                        color[s as usize] = 2;
                        stack.pop();
                    }
                }
            }
        }
        true
    }

    /// The nodes reachable from `roots` (the roots first, then in the
    /// order a breadth-first walk meets them).
    #[must_use]
    pub fn reachable(&self, roots: &[u32]) -> Vec<u32> {
        let mut seen = vec![false; self.len()];
        let mut order = Vec::new();
        for &r in roots {
            if !seen[r as usize] {
                seen[r as usize] = true;
                order.push(r);
            }
        }
        let mut i = 0;
        while i < order.len() {
            let n = order[i];
            for &x in self.left(n).iter().chain(self.right(n)) {
                if !seen[x as usize] {
                    seen[x as usize] = true;
                    order.push(x);
                }
            }
            i += 1;
        }
        order
    }

    /// The nodes reachable from `roots`, renumbered in the order of
    /// [`reachable`](Self::reachable) (options sorted, repeats dropped),
    /// with the roots' new numbers; the first root is the root.
    #[must_use]
    pub fn restricted(&self, roots: &[u32]) -> (Self, Vec<u32>) {
        let order = self.reachable(roots);
        let mut index = vec![u32::MAX; self.len()];
        for (i, &n) in order.iter().enumerate() {
            index[n as usize] = i as u32;
        }
        let mut out = Graph::default();
        for &n in &order {
            let side = |opts: &[u32]| {
                let mut v: Vec<u32> = opts.iter().map(|&x| index[x as usize]).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            out.left.push(side(self.left(n)));
            out.right.push(side(self.right(n)));
        }
        let new_roots: Vec<u32> = roots.iter().map(|&r| index[r as usize]).collect();
        out.root = new_roots.first().copied().unwrap_or(0);
        (out, new_roots)
    }

    /// Whether no cycle is reachable from `n` at all (the position is a
    /// short game), for every node.
    #[must_use]
    pub fn short_nodes(&self) -> Vec<bool> {
        let n = self.len();
        // Tarjan-free: a node is short when all its options are short and
        // it is on no cycle; iterate Kahn-style on reversed edges.
        let mut out_deg = vec![0u32; n];
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for x in 0..n as u32 {
            let mut opts: Vec<u32> = self.left(x).iter().chain(self.right(x)).copied().collect();
            opts.sort_unstable();
            opts.dedup();
            out_deg[x as usize] = opts.len() as u32;
            for y in opts {
                preds[y as usize].push(x);
            }
        }
        let mut short = vec![false; n];
        let mut queue: VecDeque<u32> = (0..n as u32)
            .filter(|&x| out_deg[x as usize] == 0)
            .collect();
        while let Some(x) = queue.pop_front() {
            short[x as usize] = true;
            for &p in &preds[x as usize] {
                out_deg[p as usize] -= 1;
                if out_deg[p as usize] == 0 {
                    queue.push_back(p);
                }
            }
        }
        short
    }

    /// `ge[a][b]`: whether `G_a >= G_b`, for every pair of nodes of a
    /// stopper graph (every node is then a stopper): Left survives
    /// `G_a - G_b` with Right moving first, one retrograde analysis over
    /// all pairs (Right wins only by leaving Left without a move).
    #[must_use]
    pub fn comparisons(&self) -> Vec<Vec<bool>> {
        let n = self.len();
        let le = le_table(self, self);
        (0..n)
            .map(|a| (0..n).map(|b| le[b * n + a]).collect())
            .collect()
    }
}

/// `le[x * |h| + y]`: whether `g_x <= h_y`, stoppers of two graphs: Left
/// survives `h_y - g_x` with Right moving first (Right wins only by leaving
/// Left without a move). One retrograde pass over the pair states, kept in
/// flat arrays; a state's predecessors are read from the graphs' reversed
/// edges, so no list is kept per state.
#[must_use]
pub fn le_table(g: &Graph, h: &Graph) -> Vec<bool> {
    let nh = h.len();
    let id = |x: usize, y: usize, m: usize| (x * nh + y) * 2 + m;
    let (gl, gr_) = (g.reversed(true), g.reversed(false));
    let (hl, hr) = (h.reversed(true), h.reversed(false));
    let states = g.len() * nh * 2;
    // Left to move in h - g: g's Right options and h's Left options; only
    // Left-to-move states need a count of open moves.
    let mut open = vec![0u32; states];
    let mut right_wins = vec![false; states];
    let mut queue = VecDeque::new();
    for x in 0..g.len() {
        for y in 0..nh {
            let s = id(x, y, 0);
            open[s] = (g.right[x].len() + h.left[y].len()) as u32;
            if open[s] == 0 {
                right_wins[s] = true;
                queue.push_back(s);
            }
        }
    }
    while let Some(t) = queue.pop_front() {
        let ((x, y), m) = (((t / 2) / nh, (t / 2) % nh), t % 2);
        if m == 0 {
            // Right to move before: g's Left moves, h's Right moves; one
            // move to a Right win is enough.
            let preds = gl[x]
                .iter()
                .map(|&x0| id(x0 as usize, y, 1))
                .chain(hr[y].iter().map(|&y0| id(x, y0 as usize, 1)));
            for p in preds {
                if !right_wins[p] {
                    right_wins[p] = true;
                    queue.push_back(p);
                }
            }
        } else {
            // Left to move before: a Right win once every move is one.
            let preds = gr_[x]
                .iter()
                .map(|&x0| id(x0 as usize, y, 0))
                .chain(hl[y].iter().map(|&y0| id(x, y0 as usize, 0)));
            for p in preds {
                if right_wins[p] {
                    continue;
                }
                open[p] -= 1;
                if open[p] == 0 {
                    right_wins[p] = true;
                    queue.push_back(p);
                }
            }
        }
    }
    (0..g.len() * nh)
        .map(|xy| !right_wins[xy * 2 + 1])
        .collect()
}
