//! The master's proof-number tree over the top plies of one first
//! player's search. A node is a position and who moves; the first
//! player's nodes are OR nodes (one winning child proves them), the
//! opponent's AND nodes. *Proved* means the first player wins.
//!
//! Leaves are jobs: a fresh leaf waits to be handed out, a pending one is
//! out with a worker. A job that comes back decided solves its leaf; one
//! that comes back unresolved is expanded into its children. Proof and
//! disproof numbers follow the usual rules (OR: least child pn, sum of
//! child dn; AND: the other way round), every unsolved leaf counting
//! 1 and 1.
//!
//! With several jobs out at once, the most-proving node is sought only
//! among the subtrees that still hold a fresh leaf (`avail`): the numbers
//! themselves stay the exact ones of the tree, and a pending leaf only
//! steers the choice elsewhere until its answer comes.

use partizan_games::{Board, Player, Ruleset};

/// The distinct positions `mover` can move to from `board`, in the
/// rules' order (a tree's children; their count is a leaf's mobility).
pub fn distinct_options<R: Ruleset>(rules: &R, board: &Board, mover: Player) -> Vec<Board> {
    let mut out: Vec<Board> = Vec::new();
    rules.options(board, mover, |o| {
        if !out.contains(&o) {
            out.push(o);
        }
    });
    out
}

/// Infinity for proof and disproof numbers.
pub const INF: u64 = u64::MAX;

/// Where a node stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// A leaf not yet handed out.
    Fresh,
    /// A leaf out with a worker.
    Pending,
    /// An inner node (its children are in the tree).
    Expanded,
    /// A leaf whose outcome is known.
    Solved,
}

/// One position of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position.
    pub board: Board,
    /// Who moves.
    pub mover: Player,
    /// The parent (`None`: the root).
    pub parent: Option<u32>,
    /// The children, in the rules' order (empty unless expanded).
    pub children: Vec<u32>,
    /// The proof number (0: the first player wins here).
    pub pn: u64,
    /// The disproof number (0: the first player loses here).
    pub dn: u64,
    /// Leaf or inner node, and the leaf's progress.
    pub state: State,
    /// The subtree holds a fresh leaf of an unsolved line.
    pub avail: bool,
    /// Plies from the root.
    pub depth: u32,
    /// A solved leaf believed on the agreement of two workers (or a
    /// worker and the master's search), not on a checked certificate
    /// ([`crate::Trust::Agreement`]).
    pub agreed: bool,
}

impl Node {
    /// Whether the node's outcome is known.
    pub fn solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The tree of one first player's search.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The player moving first at the root.
    pub first: Player,
    /// Every node; the root is node 0.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// The tree of `board` with `first` to move: one fresh leaf.
    pub fn new(board: Board, first: Player) -> Tree {
        Tree {
            first,
            nodes: vec![Node {
                board,
                mover: first,
                parent: None,
                children: Vec::new(),
                pn: 1,
                dn: 1,
                state: State::Fresh,
                avail: true,
                agreed: false,
                depth: 0,
            }],
        }
    }

    /// Whether the first player wins (`None`: not known yet).
    pub fn result(&self) -> Option<bool> {
        self.first_wins_at(0)
    }

    fn is_or(&self, n: usize) -> bool {
        self.nodes[n].mover == self.first
    }

    /// The most-proving fresh leaf (`None`: none is free, every open line
    /// waits on a job that is out).
    pub fn select(&self) -> Option<usize> {
        let mut n = 0;
        if !self.nodes[0].avail {
            return None;
        }
        loop {
            let node = &self.nodes[n];
            match node.state {
                State::Fresh => return Some(n),
                State::Expanded => {
                    let or = self.is_or(n);
                    let key = |c: &u32| {
                        let c = &self.nodes[*c as usize];
                        if or {
                            c.pn
                        } else {
                            c.dn
                        }
                    };
                    n = *node
                        .children
                        .iter()
                        .filter(|c| self.nodes[**c as usize].avail)
                        .min_by_key(|c| key(c))? as usize;
                }
                State::Pending | State::Solved => return None,
            }
        }
    }

    /// The most-proving line from the root, by the numbers alone (pending
    /// leaves included): what a progress display shows.
    pub fn most_proving_line(&self) -> Vec<usize> {
        let mut line = vec![0];
        let mut n = 0;
        while self.nodes[n].state == State::Expanded && !self.nodes[n].solved() {
            let or = self.is_or(n);
            let next = self.nodes[n]
                .children
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| !self.nodes[c].solved())
                .min_by_key(|&c| {
                    if or {
                        self.nodes[c].pn
                    } else {
                        self.nodes[c].dn
                    }
                });
            let Some(c) = next else { break };
            line.push(c);
            n = c;
        }
        line
    }

    /// Whether `n`'s outcome still matters: no node on its line from the
    /// root (itself included) is solved.
    pub fn relevant(&self, n: usize) -> bool {
        let mut at = Some(n);
        while let Some(i) = at {
            if self.nodes[i].solved() {
                return false;
            }
            at = self.nodes[i].parent.map(|p| p as usize);
        }
        true
    }

    /// Mark leaf `n` out with a worker (`true`) or free again.
    pub fn set_pending(&mut self, n: usize, pending: bool) {
        self.nodes[n].state = if pending {
            State::Pending
        } else {
            State::Fresh
        };
        self.update(n);
    }

    /// Leaf `n` is decided: its mover wins or loses.
    pub fn resolve(&mut self, n: usize, mover_wins: bool) {
        let node = &mut self.nodes[n];
        node.agreed = false;
        let first_wins = (node.mover == self.first) == mover_wins;
        (node.pn, node.dn) = if first_wins { (0, INF) } else { (INF, 0) };
        node.state = State::Solved;
        self.update(n);
    }

    /// Of the leaves a proof of the root's outcome needs, the fewest that
    /// were believed on agreement rather than a checked certificate or the
    /// master's own search (`None`: the root is open). 0: the answer rests
    /// on certificates alone.
    pub fn agreed_in_proof(&self) -> Option<u64> {
        self.nodes[0].solved().then(|| self.agreed_needed()[0])
    }

    /// The board after a first move the tree proves winning for the first
    /// player: of the root's proved children, the first (in the rules'
    /// order) whose proof rests on the fewest leaves believed on
    /// agreement. `None` when the first player does not win (or not yet),
    /// or when the root was decided as one job, with no child in the tree.
    pub fn winning_move(&self) -> Option<&Board> {
        if self.result() != Some(true) {
            return None;
        }
        let need = self.agreed_needed();
        self.nodes[0]
            .children
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.nodes[c].pn == 0)
            .min_by_key(|&c| (need[c], c))
            .map(|c| &self.nodes[c].board)
    }

    /// For every node, of the leaves a proof of its (solved) outcome
    /// needs, the fewest believed on agreement (0 for open nodes).
    fn agreed_needed(&self) -> Vec<u64> {
        // Children come after their parents: one pass from the end.
        let mut need = vec![0u64; self.nodes.len()];
        for k in (0..self.nodes.len()).rev() {
            let n = &self.nodes[k];
            need[k] = match n.state {
                State::Solved => u64::from(n.agreed),
                State::Expanded if n.solved() => {
                    let first_wins = n.pn == 0;
                    let winner_moves = (n.mover == self.first) == first_wins;
                    let wins = |c: &u32| {
                        let c = &self.nodes[*c as usize];
                        if first_wins {
                            c.pn == 0
                        } else {
                            c.dn == 0
                        }
                    };
                    let kids = n.children.iter().filter(|c| wins(c));
                    if winner_moves {
                        kids.map(|&c| need[c as usize]).min().unwrap_or(0)
                    } else {
                        kids.map(|&c| need[c as usize]).sum()
                    }
                }
                _ => 0,
            };
        }
        need
    }

    /// Expand leaf `n` into `children` (distinct positions, the opponent
    /// to move; `false` beside a child: the opponent has no move there, so
    /// under normal play it is decided at once). `children` must not be
    /// empty (a leaf without moves is resolved instead).
    pub fn expand(&mut self, n: usize, children: Vec<(Board, usize)>) {
        let mover = self.nodes[n].mover.opponent();
        let depth = self.nodes[n].depth + 1;
        let first = self.first;
        let mut ids = Vec::with_capacity(children.len());
        for (board, moves) in children {
            let id = self.nodes.len();
            let (pn, dn, state) = if moves > 0 {
                let (pn, dn) = self.fresh_numbers(mover, moves);
                (pn, dn, State::Fresh)
            } else if mover == first {
                (INF, 0, State::Solved)
            } else {
                (0, INF, State::Solved)
            };
            self.nodes.push(Node {
                board,
                mover,
                parent: Some(n as u32),
                children: Vec::new(),
                pn,
                dn,
                state,
                avail: state == State::Fresh,
                depth,
                agreed: false,
            });
            ids.push(id as u32);
        }
        self.nodes[n].children = ids;
        self.nodes[n].state = State::Expanded;
        self.update(n);
    }

    /// The numbers of a fresh leaf where `mover` has `moves` distinct
    /// moves (mobility): one winning move proves a node of the player
    /// who has it, all of them must fail to disprove it, so the player to
    /// move's side starts at 1 and the other at the number of moves.
    pub fn fresh_numbers(&self, mover: Player, moves: usize) -> (u64, u64) {
        let m = moves.max(1) as u64;
        if mover == self.first {
            (1, m)
        } else {
            (m, 1)
        }
    }

    /// Make the decided leaves `leaves` fresh again, each with its number
    /// of distinct moves (its numbers start from its mobility), and
    /// recompute every node: a leaf whose proof is lost is searched again.
    pub fn forget(&mut self, leaves: &[(usize, usize)]) {
        for &(n, moves) in leaves {
            let (pn, dn) = self.fresh_numbers(self.nodes[n].mover, moves);
            let node = &mut self.nodes[n];
            (node.pn, node.dn, node.state) = (pn, dn, State::Fresh);
        }
        // children come after their parents
        for i in (0..self.nodes.len()).rev() {
            self.recompute_one(i);
        }
    }

    /// Whether the first player wins at node `n` (`None`: not decided).
    pub fn first_wins_at(&self, n: usize) -> Option<bool> {
        let node = &self.nodes[n];
        if node.pn == 0 {
            Some(true)
        } else if node.dn == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Recompute the numbers of `n` (when inner) and of every ancestor.
    fn update(&mut self, n: usize) {
        let mut at = Some(n);
        while let Some(i) = at {
            self.recompute_one(i);
            at = self.nodes[i].parent.map(|p| p as usize);
        }
    }

    /// Recompute `i`'s numbers and `avail` from its children (inner) or
    /// its state (leaf).
    pub(crate) fn recompute_one(&mut self, i: usize) {
        let node = &self.nodes[i];
        match node.state {
            State::Fresh => {
                self.nodes[i].avail = true;
            }
            State::Pending | State::Solved => {
                self.nodes[i].avail = false;
            }
            State::Expanded => {
                let (mut min_pn, mut min_dn, mut sum_pn, mut sum_dn) = (INF, INF, 0u64, 0u64);
                let mut avail = false;
                for &c in &node.children {
                    let c = &self.nodes[c as usize];
                    min_pn = min_pn.min(c.pn);
                    min_dn = min_dn.min(c.dn);
                    sum_pn = sum_pn.saturating_add(c.pn);
                    sum_dn = sum_dn.saturating_add(c.dn);
                    avail |= c.avail;
                }
                let (pn, dn) = if self.is_or(i) {
                    (min_pn, sum_dn)
                } else {
                    (sum_pn, min_dn)
                };
                let node = &mut self.nodes[i];
                node.pn = pn;
                node.dn = dn;
                node.avail = avail && !node.solved();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Domineering, Ruleset};

    fn b(t: &str) -> Board {
        Domineering.parse(t).unwrap()
    }

    #[test]
    fn or_and_numbers_and_selection() {
        // Left first at the root (OR); its children are Right's (AND).
        let mut t = Tree::new(b("...|..."), Player::Left);
        assert_eq!(t.select(), Some(0));
        t.set_pending(0, true);
        assert_eq!(t.select(), None, "the only leaf is out");
        t.expand(
            0,
            vec![(b("#..|#.."), 1), (b(".#.|.#."), 1), (b("..#|..#"), 0)],
        );
        // The third child: Right cannot move, Left (first) wins there.
        assert_eq!(t.result(), Some(true));
        assert!(!t.nodes[0].avail);
        assert!(!t.relevant(1), "a solved root makes every leaf stale");
        assert_eq!(t.winning_move(), Some(&b("..#|..#")));
    }

    #[test]
    fn the_winning_move_is_a_proved_child_resting_on_the_fewest_agreements() {
        let mut t = Tree::new(b("...|..."), Player::Left);
        assert_eq!(t.winning_move(), None, "open");
        t.set_pending(0, true);
        t.expand(0, vec![(b("#..|#.."), 1), (b(".#.|.#."), 1)]);
        t.resolve(1, false); // Right, to move, loses there: proved
        t.nodes[1].agreed = true;
        assert_eq!(t.winning_move(), Some(&b("#..|#..")));
        t.resolve(2, false);
        assert_eq!(
            t.winning_move(),
            Some(&b(".#.|.#.")),
            "a child proved by a certificate before one believed on agreement"
        );
        // The first player losing names no move.
        let mut lost = Tree::new(b("...|..."), Player::Left);
        lost.set_pending(0, true);
        lost.expand(0, vec![(b("#..|#.."), 1)]);
        lost.resolve(1, true);
        assert_eq!(lost.result(), Some(false));
        assert_eq!(lost.winning_move(), None);
        // A root decided as one job has no move in the tree.
        let mut one = Tree::new(b("...|..."), Player::Left);
        one.resolve(0, true);
        assert_eq!((one.result(), one.winning_move()), (Some(true), None));
    }

    #[test]
    fn pending_leaves_steer_the_choice_and_numbers_sum() {
        let mut t = Tree::new(b("...|..."), Player::Right);
        t.set_pending(0, true);
        t.expand(0, vec![(b("#..|#.."), 1), (b(".#.|.#."), 1)]);
        // Root is Right's: OR for the first player Right. Children AND.
        assert_eq!((t.nodes[0].pn, t.nodes[0].dn), (1, 2));
        assert_eq!(t.select(), Some(1));
        t.set_pending(1, true);
        assert_eq!(t.select(), Some(2), "the pending leaf is skipped");
        t.set_pending(2, true);
        assert_eq!(t.select(), None);
        // Left (mover at 1) wins at 1: Right (first) loses that child.
        t.resolve(1, true);
        assert_eq!((t.nodes[0].pn, t.nodes[0].dn), (1, 1));
        assert_eq!(t.result(), None);
        t.resolve(2, false);
        assert_eq!(t.result(), Some(true));
        assert_eq!(t.most_proving_line(), vec![0]);
    }

    #[test]
    fn fresh_leaves_start_from_their_mobility() {
        // Left first: Right's children are AND nodes, each needing every
        // one of Right's moves refuted.
        let mut t = Tree::new(b("....|....|...."), Player::Left);
        t.set_pending(0, true);
        t.expand(0, vec![(b("#...|#...|...."), 3), (b(".#..|.#..|...."), 5)]);
        assert_eq!((t.nodes[1].pn, t.nodes[1].dn), (3, 1));
        assert_eq!((t.nodes[2].pn, t.nodes[2].dn), (5, 1));
        // OR root: the least proof number, the disproofs summed
        assert_eq!((t.nodes[0].pn, t.nodes[0].dn), (3, 2));
        assert_eq!(t.select(), Some(1), "the child with fewer replies first");
        assert_eq!(t.fresh_numbers(Player::Left, 4), (1, 4));
    }
}
