//! Kayles and Node Kayles on graphs of up to 64 vertices.
//!
//! * **Kayles**: a move deletes one vertex, or the two ends of one edge. On
//!   a path of `n` vertices this is Kayles, the octal game 0.77.
//! * **Node Kayles**: a move deletes one vertex together with its
//!   neighbours. On a path of `n` vertices this is Dawson's Chess, 0.137,
//!   whose values are Dawson's Kayles' (0.07) shifted by one:
//!   `G_path(n) = G_0.07(n + 1)`.
//!
//! The last player to move wins. A position is a set of remaining vertices
//! (a `u64` mask); it splits into connected components, whose values are
//! memoised and XORed.
//!
//! # Text format
//!
//! ```text
//! 5: 0-1 1-2 2-3 3-4      5 vertices (0..4) and four edges
//! 4: 0-1, 1-2; 2-0        edges separated by spaces, commas or semicolons
//! 3                       three vertices, no edges
//! path:5  cycle:6  complete:4  star:3 (a centre and 3 leaves)  grid:2x3
//! ```
//!
//! At most 64 vertices; an edge naming a missing vertex, a loop `2-2` or a
//! malformed edge is an error naming it. Repeated edges are allowed.

use std::fmt;

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::engine::SmallSet;
use crate::ImpartialError;

/// Most vertices a graph may have.
pub const MAX_VERTICES: usize = 64;

/// A simple undirected graph on vertices `0..n`, as adjacency bitmasks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Graph {
    adj: Vec<u64>,
}

impl Graph {
    /// A graph with `n` vertices and no edges.
    pub fn empty(n: usize) -> Result<Self, ImpartialError> {
        Self::fits(n)?;
        Ok(Self { adj: vec![0; n] })
    }

    /// `n` vertices are at most [`MAX_VERTICES`]: checked before a family's
    /// edge list is built, so `path:99999999999` is an error, not a
    /// terabyte allocation.
    fn fits(n: usize) -> Result<(), ImpartialError> {
        if n > MAX_VERTICES {
            return Err(ImpartialError::TooManyVertices {
                found: n,
                max: MAX_VERTICES,
            });
        }
        Ok(())
    }

    /// A graph from an edge list (vertices `0..n`).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Self, ImpartialError> {
        let mut g = Self::empty(n)?;
        for &(a, b) in edges {
            g.add_edge(a, b, &format!("{a}-{b}"))?;
        }
        Ok(g)
    }

    fn add_edge(&mut self, a: usize, b: usize, text: &str) -> Result<(), ImpartialError> {
        let n = self.adj.len();
        for v in [a, b] {
            if v >= n {
                return Err(ImpartialError::VertexOutOfRange {
                    edge: text.into(),
                    vertex: v,
                    vertices: n,
                });
            }
        }
        if a == b {
            return Err(ImpartialError::Loop { edge: text.into() });
        }
        self.adj[a] |= 1 << b;
        self.adj[b] |= 1 << a;
        Ok(())
    }

    /// The path on `n` vertices.
    pub fn path(n: usize) -> Result<Self, ImpartialError> {
        Self::fits(n)?;
        let edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
        Self::from_edges(n, &edges)
    }

    /// The cycle on `n` vertices (`n >= 3`; smaller `n` give a path).
    pub fn cycle(n: usize) -> Result<Self, ImpartialError> {
        let mut g = Self::path(n)?;
        if n >= 3 {
            g.add_edge(n - 1, 0, "cycle")?;
        }
        Ok(g)
    }

    /// The complete graph on `n` vertices.
    pub fn complete(n: usize) -> Result<Self, ImpartialError> {
        Self::fits(n)?;
        let edges: Vec<_> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        Self::from_edges(n, &edges)
    }

    /// The star: centre 0 and leaves `1..=leaves`.
    pub fn star(leaves: usize) -> Result<Self, ImpartialError> {
        let n = leaves.saturating_add(1);
        Self::fits(n)?;
        let edges: Vec<_> = (1..=leaves).map(|l| (0, l)).collect();
        Self::from_edges(n, &edges)
    }

    /// The `rows x cols` grid graph (vertex `r * cols + c`).
    pub fn grid(rows: usize, cols: usize) -> Result<Self, ImpartialError> {
        Self::fits(rows.saturating_mul(cols))?;
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                if c + 1 < cols {
                    edges.push((v, v + 1));
                }
                if r + 1 < rows {
                    edges.push((v, v + cols));
                }
            }
        }
        Self::from_edges(rows.saturating_mul(cols), &edges)
    }

    /// Read the text format of the module documentation.
    pub fn parse(text: &str) -> Result<Self, ImpartialError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ImpartialError::Empty { what: "graph" });
        }
        let number = |s: &str, what: &'static str| -> Result<usize, ImpartialError> {
            s.trim()
                .parse::<usize>()
                .map_err(|_| ImpartialError::BadNumber {
                    what,
                    found: s.trim().into(),
                })
        };
        if let Some((family, arg)) = t.split_once(':') {
            let family = family.trim().to_ascii_lowercase();
            let size = |arg: &str| number(arg, "graph size");
            match family.as_str() {
                "path" => return Self::path(size(arg)?),
                "cycle" => return Self::cycle(size(arg)?),
                "complete" => return Self::complete(size(arg)?),
                "star" => return Self::star(size(arg)?),
                "grid" => {
                    let Some((r, c)) = arg
                        .to_ascii_lowercase()
                        .split_once('x')
                        .map(|(r, c)| (r.to_string(), c.to_string()))
                    else {
                        return Err(ImpartialError::GraphSyntax {
                            message: format!("grid size {arg:?} should look like 3x4"),
                        });
                    };
                    let (r, c) = (size(&r)?, size(&c)?);
                    if r.saturating_mul(c) > MAX_VERTICES {
                        return Err(ImpartialError::TooManyVertices {
                            found: r.saturating_mul(c),
                            max: MAX_VERTICES,
                        });
                    }
                    return Self::grid(r, c);
                }
                _ => {}
            }
        }
        let (count, edges) = match t.split_once(':') {
            Some((count, edges)) => (count, edges),
            None => (t, ""),
        };
        let mut g = Self::empty(number(count, "vertex count")?)?;
        for e in edges
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|e| !e.is_empty())
        {
            let Some((a, b)) = e.split_once('-') else {
                return Err(ImpartialError::GraphSyntax {
                    message: format!("edge {e:?} should look like 0-1"),
                });
            };
            let (a, b) = (number(a, "vertex")?, number(b, "vertex")?);
            g.add_edge(a, b, e)?;
        }
        Ok(g)
    }

    /// Number of vertices.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.adj.len()
    }

    /// The edges `(a, b)` with `a < b`, in order.
    #[must_use]
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (a, &m) in self.adj.iter().enumerate() {
            for b in bits(m) {
                if a < b {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The mask of every vertex.
    #[must_use]
    pub fn all(&self) -> u64 {
        if self.adj.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.adj.len()) - 1
        }
    }

    /// The connected components of the subgraph induced by `mask`.
    #[must_use]
    pub fn components(&self, mask: u64) -> Vec<u64> {
        let mut left = mask;
        let mut out = Vec::new();
        while left != 0 {
            let mut comp = left & left.wrapping_neg();
            let mut frontier = comp;
            while frontier != 0 {
                let mut next = 0;
                for v in bits(frontier) {
                    next |= self.adj[v];
                }
                next &= mask & !comp;
                comp |= next;
                frontier = next;
            }
            out.push(comp);
            left &= !comp;
        }
        out
    }
}

impl fmt::Display for Graph {
    /// The edge-list form `n: a-b c-d`, which parses back to the same graph.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.vertices())?;
        for (a, b) in self.edges() {
            write!(f, " {a}-{b}")?;
        }
        Ok(())
    }
}

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(b)
    })
}

/// Which game is played on the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GraphGame {
    /// Delete a vertex, or both ends of an edge.
    Kayles,
    /// Delete a vertex and its neighbours.
    NodeKayles,
}

impl GraphGame {
    /// `kayles` or `node-kayles` (also `nodekayles`, `node_kayles`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "kayles" | "kayles-graph" | "graph-kayles" => Some(Self::Kayles),
            "node-kayles" | "nodekayles" => Some(Self::NodeKayles),
            _ => None,
        }
    }

    /// The name `from_name` reads.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Kayles => "kayles",
            Self::NodeKayles => "node-kayles",
        }
    }

    /// Call `f` with every option of the position `mask` (the vertices
    /// left after the move).
    pub fn options(self, g: &Graph, mask: u64, mut f: impl FnMut(u64)) {
        for v in bits(mask) {
            match self {
                Self::NodeKayles => f(mask & !(g.adj[v] | 1 << v)),
                Self::Kayles => {
                    f(mask & !(1 << v));
                    for u in bits(g.adj[v] & mask) {
                        if u > v {
                            f(mask & !(1 << v | 1 << u));
                        }
                    }
                }
            }
        }
    }
}

/// The value of a graph position, with what the solver did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphValue {
    /// The game.
    pub game: GraphGame,
    /// The Grundy value of the whole graph.
    pub value: u32,
    /// The components of the graph: `(vertices, value)`.
    pub components: Vec<(Vec<usize>, u32)>,
    /// Distinct connected positions valued (memo entries).
    pub positions: usize,
    /// Every move from the whole graph: the vertices it deletes and the
    /// value of what is left (a move to value 0 wins).
    pub options: Vec<GraphOption>,
}

impl GraphValue {
    /// Who wins, in words: `P: the second player wins` (value 0) or `N:
    /// the first player wins`.
    #[must_use]
    pub fn outcome_words(&self) -> &'static str {
        if self.value == 0 {
            "P: the second player wins"
        } else {
            "N: the first player wins"
        }
    }

    /// Each component as `{0,1,2}: value`.
    #[must_use]
    pub fn component_lines(&self) -> Vec<String> {
        self.components
            .iter()
            .map(|(vs, g)| {
                let vs: Vec<String> = vs.iter().map(ToString::to_string).collect();
                format!("{{{}}}: {g}", vs.join(","))
            })
            .collect()
    }
}

/// One move of a graph game and the value it leads to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphOption {
    /// The vertices the move deletes, in order.
    pub removes: Vec<usize>,
    /// The Grundy value of the position after it.
    pub value: u32,
}

/// Grundy values of positions of one game on one graph, memoised by
/// connected component.
#[derive(Debug)]
pub struct GraphSolver<'g> {
    graph: &'g Graph,
    game: GraphGame,
    memo: FxHashMap<u64, u32>,
    max_positions: usize,
    /// Options looked at so far (a dense graph has thousands per position).
    work: u64,
    exhausted: bool,
}

/// Options a budget of `n` positions also allows per position: a position
/// budget alone let a dense graph (`complete:64`, 2,016 Kayles options per
/// position) run for minutes inside it.
pub const OPTIONS_PER_POSITION: u64 = 64;

/// The budget of a graph solve ran out: more distinct connected positions
/// than allowed (graph games are exponential in the worst case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("graph game needs more than {max_positions} positions, or {} options looked at (a larger budget might finish it)", (*max_positions as u64).saturating_mul(OPTIONS_PER_POSITION))]
pub struct PositionBudgetExceeded {
    /// The budget.
    pub max_positions: usize,
}

impl<'g> GraphSolver<'g> {
    /// A solver with an empty memo.
    #[must_use]
    pub fn new(game: GraphGame, graph: &'g Graph) -> Self {
        Self {
            graph,
            game,
            memo: FxHashMap::default(),
            max_positions: usize::MAX,
            work: 0,
            exhausted: false,
        }
    }

    /// A solver that gives up once `max_positions` connected positions are
    /// memoised (see [`Self::solve_within`]).
    #[must_use]
    pub fn with_budget(game: GraphGame, graph: &'g Graph, max_positions: usize) -> Self {
        Self {
            max_positions,
            ..Self::new(game, graph)
        }
    }

    /// The value of the position where the vertices of `mask` remain: the
    /// XOR of its components' values.
    pub fn value(&mut self, mask: u64) -> u32 {
        self.graph
            .components(mask)
            .into_iter()
            .fold(0, |acc, c| acc ^ self.connected(c))
    }

    fn connected(&mut self, comp: u64) -> u32 {
        if let Some(&v) = self.memo.get(&comp) {
            return v;
        }
        let max_work = (self.max_positions as u64).saturating_mul(OPTIONS_PER_POSITION);
        if self.exhausted || self.memo.len() >= self.max_positions || self.work > max_work {
            // Out of budget: unwind quickly; the answer will be refused.
            self.exhausted = true;
            return 0;
        }
        let mut children = Vec::new();
        self.game.options(self.graph, comp, |c| children.push(c));
        self.work += children.len() as u64;
        let mut seen = SmallSet::default();
        for c in children {
            seen.insert(self.value(c));
        }
        let v = seen.mex();
        self.memo.insert(comp, v);
        v
    }

    /// Distinct connected positions valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The value of the whole graph with its components, or an error when
    /// the position budget ran out (the solver's memo is then unreliable:
    /// drop it).
    pub fn solve_within(&mut self) -> Result<GraphValue, PositionBudgetExceeded> {
        let v = self.solve();
        if self.exhausted {
            Err(PositionBudgetExceeded {
                max_positions: self.max_positions,
            })
        } else {
            Ok(v)
        }
    }

    /// The value of the whole graph with its components (no budget unless
    /// built [`Self::with_budget`]; then use [`Self::solve_within`]).
    pub fn solve(&mut self) -> GraphValue {
        let all = self.graph.all();
        let components = self
            .graph
            .components(all)
            .into_iter()
            .map(|c| (bits(c).collect(), self.connected(c)))
            .collect::<Vec<(Vec<usize>, u32)>>();
        let value = components.iter().fold(0, |a, c| a ^ c.1);
        // The options' components were all valued on the way to the
        // root's value: these lookups add no position.
        let mut after = Vec::new();
        self.game.options(self.graph, all, |m| after.push(m));
        let options = after
            .into_iter()
            .map(|m| GraphOption {
                removes: bits(all & !m).collect(),
                value: self.value(m),
            })
            .collect();
        GraphValue {
            game: self.game,
            value,
            components,
            positions: self.positions(),
            options,
        }
    }
}

/// The brute-force twin: the value of the whole position by the mex over
/// its options, memoised on whole positions, without splitting into
/// components (so without the Sprague-Grundy theorem).
#[must_use]
pub fn brute_value(game: GraphGame, graph: &Graph) -> u32 {
    fn go(game: GraphGame, g: &Graph, mask: u64, memo: &mut FxHashMap<u64, u32>) -> u32 {
        if let Some(&v) = memo.get(&mask) {
            return v;
        }
        let mut children = Vec::new();
        game.options(g, mask, |c| children.push(c));
        let mut seen = SmallSet::default();
        for c in children {
            seen.insert(go(game, g, c, memo));
        }
        let v = seen.mex();
        memo.insert(mask, v);
        v
    }
    go(game, graph, graph.all(), &mut FxHashMap::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_families_and_edge_lists() {
        let g = Graph::parse("5: 0-1 1-2, 2-3;3-4").unwrap();
        assert_eq!(g, Graph::path(5).unwrap());
        assert_eq!(g.to_string(), "5: 0-1 1-2 2-3 3-4");
        assert_eq!(Graph::parse(&g.to_string()).unwrap(), g);
        assert_eq!(Graph::parse("3").unwrap().edges(), vec![]);
        assert_eq!(Graph::parse("cycle:4").unwrap().edges().len(), 4);
        assert_eq!(Graph::parse("complete:4").unwrap().edges().len(), 6);
        assert_eq!(Graph::parse("star:3").unwrap().vertices(), 4);
        assert_eq!(Graph::parse("grid:2x3").unwrap().edges().len(), 7);
        assert_eq!(Graph::parse("path:64").unwrap().all(), u64::MAX);
    }

    #[test]
    fn huge_families_are_refused_before_their_edges_are_built() {
        // each of these once asked for terabytes (an abort, not an error)
        let max = usize::MAX.to_string();
        for text in [
            "path:99999999999".to_string(),
            "cycle:99999999999".to_string(),
            "complete:99999999999".to_string(),
            format!("star:{max}"),
            format!("grid:{max}x{max}"),
            "path:65".to_string(),
            "star:64".to_string(),
        ] {
            assert!(
                matches!(
                    Graph::parse(&text),
                    Err(ImpartialError::TooManyVertices {
                        max: MAX_VERTICES,
                        ..
                    })
                ),
                "{text}"
            );
        }
        assert!(Graph::star(63).is_ok());
        assert!(Graph::grid(usize::MAX, 2).is_err());
    }

    #[test]
    fn bad_graph_text_is_named() {
        assert!(matches!(
            Graph::parse("3: 0-3"),
            Err(ImpartialError::VertexOutOfRange { vertex: 3, .. })
        ));
        assert!(matches!(
            Graph::parse("3: 1-1"),
            Err(ImpartialError::Loop { .. })
        ));
        assert!(matches!(
            Graph::parse("3: 0-1 12"),
            Err(ImpartialError::GraphSyntax { .. })
        ));
        assert!(matches!(
            Graph::parse("65"),
            Err(ImpartialError::TooManyVertices { found: 65, .. })
        ));
        assert!(matches!(
            Graph::parse("grid:9x9"),
            Err(ImpartialError::TooManyVertices { found: 81, .. })
        ));
        assert!(matches!(
            Graph::parse("x: 0-1"),
            Err(ImpartialError::BadNumber { .. })
        ));
        assert!(matches!(
            Graph::parse("  "),
            Err(ImpartialError::Empty { .. })
        ));
    }

    #[test]
    fn components_split_the_graph() {
        let g = Graph::parse("6: 0-1 2-3 3-4").unwrap();
        assert_eq!(g.components(g.all()), vec![0b11, 0b11100, 0b100000]);
    }

    #[test]
    fn the_position_budget_refuses_instead_of_guessing() {
        let g = Graph::grid(4, 4).unwrap();
        let full = GraphSolver::new(GraphGame::NodeKayles, &g).solve();
        assert!(full.positions > 50);
        let mut small = GraphSolver::with_budget(GraphGame::NodeKayles, &g, 50);
        assert_eq!(
            small.solve_within(),
            Err(PositionBudgetExceeded { max_positions: 50 })
        );
        let mut enough = GraphSolver::with_budget(GraphGame::NodeKayles, &g, full.positions);
        assert_eq!(enough.solve_within().unwrap().value, full.value);
    }

    #[test]
    fn a_dense_graph_runs_out_of_options_not_of_time() {
        // 2,016 Kayles options at the root, thousands at each position
        // below it: a position budget alone let complete:64 run for
        // minutes inside the CLI's default of 2,000,000 positions. With
        // 100 positions the option budget is 6,400: four positions deep
        let g = Graph::complete(64).unwrap();
        let mut s = GraphSolver::with_budget(GraphGame::Kayles, &g, 100);
        assert_eq!(
            s.solve_within(),
            Err(PositionBudgetExceeded { max_positions: 100 })
        );
        assert!(s.work <= 100 * OPTIONS_PER_POSITION + 2100, "{}", s.work);
        assert!(s.positions() < 10, "{} positions", s.positions());
    }

    #[test]
    fn small_values() {
        // Node Kayles on a triangle: any move empties it.
        let k3 = Graph::complete(3).unwrap();
        assert_eq!(
            GraphSolver::new(GraphGame::NodeKayles, &k3).solve().value,
            1
        );
        // Kayles on a triangle: remove one vertex (leaving an edge, value 2)
        // or an edge (leaving a vertex, value 1): mex {1, 2} = 0.
        assert_eq!(GraphSolver::new(GraphGame::Kayles, &k3).solve().value, 0);
        assert_eq!(brute_value(GraphGame::Kayles, &k3), 0);
    }

    #[test]
    fn the_options_are_listed_with_their_values() {
        // Kayles on a path of three: take an end (an edge left, 2), the
        // middle (two vertices, 1 ^ 1 = 0), an end edge (a vertex, 1).
        let p3 = Graph::path(3).unwrap();
        let v = GraphSolver::new(GraphGame::Kayles, &p3).solve();
        let got: Vec<(Vec<usize>, u32)> = v
            .options
            .iter()
            .map(|o| (o.removes.clone(), o.value))
            .collect();
        assert_eq!(
            got,
            vec![
                (vec![0], 2),
                (vec![0, 1], 1),
                (vec![1], 0),
                (vec![1, 2], 1),
                (vec![2], 2)
            ]
        );
        // The value is the mex of the options', and each option's value is
        // the brute-force value of what it leaves.
        let g = Graph::parse("6: 0-1 1-2 2-0 2-3 4-5").unwrap();
        for game in [GraphGame::Kayles, GraphGame::NodeKayles] {
            let v = GraphSolver::new(game, &g).solve();
            let mut seen = SmallSet::default();
            for o in &v.options {
                seen.insert(o.value);
                let keep: Vec<usize> = (0..6).filter(|x| !o.removes.contains(x)).collect();
                let idx = |x: usize| keep.iter().position(|&k| k == x);
                let edges: Vec<(usize, usize)> = g
                    .edges()
                    .into_iter()
                    .filter_map(|(a, b)| Some((idx(a)?, idx(b)?)))
                    .collect();
                let rest = Graph::from_edges(keep.len(), &edges).unwrap();
                assert_eq!(o.value, brute_value(game, &rest), "{game:?} {o:?}");
            }
            assert_eq!(seen.mex(), v.value);
        }
    }
}
