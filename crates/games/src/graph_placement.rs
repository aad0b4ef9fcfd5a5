//! Snort and Col on graphs: a player colours an uncoloured vertex; in
//! Snort not one next to the opponent's colour, in Col not one next to
//! their own. As on grids ([`tinted`](crate::tinted)) a position keeps
//! only its live vertices, each remembering who may still colour it, and
//! the edges between live vertices.
//!
//! **Edge list** (what a person types): items separated by commas: `U-V`
//! an edge, `V` a vertex (needed only for one without edges), `V:s` a
//! vertex in state `s`: `.` open (the default), `l` only Left may colour
//! it, `r` only Right, `#` nobody, `L` coloured by Left, `R` coloured by
//! Right (a coloured vertex is gone and tints its neighbours by the rule,
//! as on grids). Vertices are `1` to `n` (`n` at most 11) and each must
//! be named.
//!
//! **Board** (what is stored and printed; it reads back too): the upper
//! triangle of the adjacency matrix, `n` x `n`: the diagonal cell of
//! vertex `i` is `.`, `l`, `r` (layers 0, 1, 2) or `#` (gone), the cell in
//! row `i`, column `j > i` is `e` (layer 0) for an edge and `#` for none,
//! and every cell below the diagonal is `#`.
//!
//! ```text
//! 1-2,2-3            a path of three     .e#|#.e|##.
//! 1-2,2-3,3-1        a triangle          .ee|#.e|##.
//! 1:L,1-2,2-3        Snort: 2 is Left's  ###|#le|##.
//! ```
//!
//! Regions are the connected components of the live graph. Symmetries:
//! the vertices numbered backwards (the anti-diagonal mirror of the
//! matrix) keeps the value, and the tints `l` and `r` exchanged negates
//! it. The graph's own automorphisms, which no [`Symmetry`] (one of the
//! rectangle's eight transforms) describes, are folded by
//! [`Ruleset::fold_isomorphic`](crate::Ruleset::fold_isomorphic): a
//! canonical labelling of the live graph with its tints
//! ([`relabel`](crate::relabel)), so isomorphic positions share one memo
//! entry.

use crate::board::{each_bit, Bits, Board, Player};
use crate::edgelist;
use crate::error::BoardError;
use crate::graph_view::{EdgeColour, GraphView, Moves, VertexState, ViewEdge, ViewVertex};
use crate::relabel::{fold_with_swap, ColouredGraph};
use crate::ruleset::{parse_grid, Glyph, GlyphSpec, RulesetInfo};
use crate::tinted::{forbid, forbidden, Forbids};
use crate::transform::{Symmetry, Transform};

/// The most vertices a graph board holds (`n * n <= 128`).
pub const MAX_VERTICES: usize = 11;

/// Snort on a graph (see the module doc for the text).
#[derive(Copy, Clone, Debug, Default)]
pub struct SnortGraph;

/// Col on a graph (see the module doc for the text).
#[derive(Copy, Clone, Debug, Default)]
pub struct ColGraph;

pub(crate) const SYMMETRIES: [Symmetry; 4] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::AntiTranspose, false),
    Symmetry::new(Transform::Identity, true),
    Symmetry::new(Transform::AntiTranspose, true),
];

const GLYPHS: &[GlyphSpec] = &[
    GlyphSpec::layer('.', 0, "a vertex either player may colour (diagonal)"),
    GlyphSpec::layer('l', 1, "a vertex only Left may colour (diagonal)"),
    GlyphSpec::layer('r', 2, "a vertex only Right may colour (diagonal)"),
    GlyphSpec::layer(
        'e',
        0,
        "an edge between two live vertices (above the diagonal)",
    ),
    GlyphSpec::hole('#', "a vertex gone, or no edge"),
];

pub(crate) static SNORT_INFO: RulesetInfo = RulesetInfo {
    name: "snort-graph",
    aliases: &["graph-snort"],
    title: "Snort (graphs)",
    summary: "A player colours a vertex not next to an opponent's vertex. Type an edge list '1-2,2-3,3-1'.",
    glyphs: GLYPHS,
    edit_cycle: ".lr#",
    fillings: &['.', 'l', 'r'],
    example: ".e#e|#.e#|##.e|###.",
    site_cells: 64,
};

pub(crate) static COL_INFO: RulesetInfo = RulesetInfo {
    name: "col-graph",
    aliases: &["graph-col"],
    title: "Col (graphs)",
    summary: "A player colours a vertex not next to a vertex of their own colour. Type an edge list '1-2,2-3,3-1'.",
    glyphs: GLYPHS,
    edit_cycle: ".lr#",
    fillings: &['.', 'l', 'r'],
    example: ".e#e|#.e#|##.e|###.",
    site_cells: 64,
};

/// Vertices the board can hold: the diagonal's length.
#[inline]
fn order(b: &Board) -> usize {
    b.width().min(b.height())
}

/// The diagonal cell of vertex `i`.
#[inline]
fn vertex_bit(b: &Board, i: usize) -> Bits {
    b.bit(i, i)
}

/// The cell of the edge `{i, j}` (above the diagonal).
#[inline]
fn edge_bit(b: &Board, i: usize, j: usize) -> Bits {
    b.bit(i.min(j), i.max(j))
}

/// The diagonal cells of the live neighbours of vertex `v`.
fn neighbours(b: &Board, v: usize) -> Bits {
    let cells = b.cells();
    (0..order(b))
        .filter(|&u| u != v && cells & edge_bit(b, u, v) != 0 && cells & vertex_bit(b, u) != 0)
        .fold(0, |m, u| m | vertex_bit(b, u))
}

/// Remove every edge one of whose ends is gone.
fn drop_dead_edges(b: &Board) -> Board {
    let n = order(b);
    let cells = b.cells();
    let mut dead = 0;
    for i in 0..n {
        for j in i + 1..n {
            let e = edge_bit(b, i, j);
            if cells & e != 0 && (cells & vertex_bit(b, i) == 0 || cells & vertex_bit(b, j) == 0) {
                dead |= e;
            }
        }
    }
    b.restrict(!dead)
}

/// Stream the boards after each colouring by `p` under `rule`.
#[inline]
fn options<F: FnMut(Board)>(rule: Forbids, b: &Board, p: Player, mut f: F) {
    for v in 0..order(b) {
        if let Some(o) = colour(rule, b, v, p) {
            f(o);
        }
    }
}

/// The board after `p` colours vertex `v` under `rule`, if `p` may.
#[inline]
fn colour(rule: Forbids, b: &Board, v: usize, p: Player) -> Option<Board> {
    let own = match p {
        Player::Left => b.layer(1),
        Player::Right => b.layer(2),
    };
    let c = vertex_bit(b, v);
    if (b.layer(0) | own) & c == 0 {
        return None;
    }
    let near = neighbours(b, v);
    let layers = forbid(b.layers().map(|l| l & !c), near, forbidden(rule, p));
    Some(drop_dead_edges(&b.with_layers(layers)))
}

/// The position as a graph to draw, with what a click on each vertex or
/// edge does: colour the vertex (Left's or Right's move); in editing, cycle
/// a vertex `.` `l` `r` gone, and delete an edge.
pub(crate) fn view(rule: Forbids, b: &Board) -> GraphView {
    let n = order(b);
    let cells = b.cells();
    let mut vertices = Vec::new();
    let mut index = vec![usize::MAX; n];
    for (v, slot) in index.iter_mut().enumerate() {
        let c = vertex_bit(b, v);
        let Some(k) = (0..3).find(|&k| b.layer(k) & c != 0) else {
            continue;
        };
        let state = [
            VertexState::Open,
            VertexState::LeftOnly,
            VertexState::RightOnly,
        ][k];
        // Editing cycles . -> l -> r -> gone.
        let edit = if k == 2 {
            drop_dead_edges(&b.restrict(!c))
        } else {
            let mut layers = b.layers().map(|l| l & !c);
            layers[k + 1] |= c;
            b.with_layers(layers)
        };
        *slot = vertices.len();
        vertices.push(ViewVertex {
            label: (v + 1).to_string(),
            state,
            slot: (v, n),
            moves: Moves {
                left: colour(rule, b, v, Player::Left),
                right: colour(rule, b, v, Player::Right),
                edit: Some(edit),
            },
        });
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let e = edge_bit(b, i, j);
            if cells & e != 0 && index[i] != usize::MAX && index[j] != usize::MAX {
                edges.push(ViewEdge {
                    ends: (index[i], index[j]),
                    colour: EdgeColour::Plain,
                    moves: Moves {
                        left: None,
                        right: None,
                        edit: Some(b.restrict(!e)),
                    },
                });
            }
        }
    }
    GraphView {
        vertices,
        edges,
        grounded: false,
    }
}

/// Every cell alone, and each edge with its two ends: a colouring writes
/// its vertex, the tints of its neighbours and the edges it removes, all
/// joined through the edges at the vertex. Cells only go.
fn footprints<F: FnMut(Bits)>(b: &Board, mut f: F) {
    let cells = b.cells();
    each_bit(cells).for_each(&mut f);
    let n = order(b);
    for i in 0..n {
        for j in i + 1..n {
            let e = edge_bit(b, i, j);
            if cells & e != 0 {
                f(e | (cells & (vertex_bit(b, i) | vertex_bit(b, j))));
            }
        }
    }
}

/// The live graph of a board as a coloured graph (colour 0 open, 1
/// Left's, 2 Right's; `swap` exchanges 1 and 2), its vertices the live
/// ones in order.
fn coloured(b: &Board, live: &[usize], swap: bool) -> Option<ColouredGraph> {
    let cells = b.cells();
    let colours = live
        .iter()
        .map(|&v| {
            let k = (0..3).find(|&k| b.layer(k) & vertex_bit(b, v) != 0);
            match (k, swap) {
                (Some(1), false) | (Some(2), true) => 1,
                (Some(2), false) | (Some(1), true) => 2,
                _ => 0,
            }
        })
        .collect();
    let mut edges = Vec::new();
    for (i, &u) in live.iter().enumerate() {
        for (j, &v) in live.iter().enumerate().skip(i + 1) {
            if cells & edge_bit(b, u, v) != 0 {
                edges.push((i, j));
            }
        }
    }
    ColouredGraph::new(colours, &edges)
}

/// The board of a coloured graph: vertex `i` on the diagonal in the layer
/// of its colour, its edges above.
fn board_of(g: &ColouredGraph) -> Option<Board> {
    let n = g.len();
    let mut layers = [0; 3];
    for i in 0..n {
        layers[usize::from(g.colour(i))] |= 1u128 << (i * n + i);
        for j in i + 1..n {
            if g.neighbours(i) & (1 << j) != 0 {
                layers[0] |= 1u128 << (i * n + j);
            }
        }
    }
    Board::new(n, n, layers).ok()
}

/// The fold by the live graph's automorphisms (and the tints exchanged,
/// which negates): the canonical board of the position's class, its dead
/// vertices dropped.
pub(crate) fn fold(b: &Board) -> Option<(Board, bool)> {
    let live: Vec<usize> = (0..order(b))
        .filter(|&v| b.cells() & vertex_bit(b, v) != 0)
        .collect();
    if live.is_empty() {
        return None;
    }
    let (g, negated) = fold_with_swap(&coloured(b, &live, false)?, &coloured(b, &live, true)?);
    Some((board_of(&g)?, negated))
}

/// A vertex's state in an edge list.
fn state(s: &str) -> Option<char> {
    match s {
        "." | "l" | "r" | "#" | "L" | "R" => s.chars().next(),
        _ => None,
    }
}

/// A vertex label `1..=11`, as an index.
fn label(s: &str) -> Option<usize> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|&v| (1..=MAX_VERTICES).contains(&v))
        .map(|v| v - 1)
}

/// Parse an edge list under `rule` (see the module doc).
fn parse_edges(text: &str, name: &'static str, rule: Forbids) -> Result<Board, BoardError> {
    let items = edgelist::items(text, name)?;
    let mut states: Vec<Option<char>> = vec![None; MAX_VERTICES];
    let mut edges = Vec::new();
    let mut n = 0;
    for it in &items {
        let bad = || {
            it.error(
                name,
                "expected U-V, V or V:s (vertices 1 to 11; s one of . l r # L R)",
            )
        };
        if let Some((u, v)) = it.text.split_once('-') {
            let (u, v) = (label(u).ok_or_else(bad)?, label(v).ok_or_else(bad)?);
            if u == v {
                return Err(it.error(name, "a loop (a vertex next to itself)"));
            }
            for x in [u, v] {
                states[x].get_or_insert('.');
            }
            n = n.max(u + 1).max(v + 1);
            edges.push((u, v));
        } else {
            let (v, s) = match it.text.split_once(':') {
                Some((v, s)) => (label(v).ok_or_else(bad)?, state(s.trim()).ok_or_else(bad)?),
                None => (label(it.text).ok_or_else(bad)?, '.'),
            };
            match states[v] {
                Some(old) if old != s && old != '.' && s != '.' => {
                    return Err(it.error(name, format!("vertex {} is already {old:?}", v + 1)));
                }
                Some(old) if s == '.' => states[v] = Some(old),
                _ => states[v] = Some(s),
            }
            n = n.max(v + 1);
        }
    }
    if let Some(missing) = (0..n).find(|&v| states[v].is_none()) {
        return Err(BoardError::Graph {
            ruleset: name,
            why: format!(
                "vertex {} is never named (write {} for a vertex without edges)",
                missing + 1,
                missing + 1
            ),
            at: "the whole list".into(),
        });
    }
    let mut layers = [0; 3];
    let cell = |i: usize, j: usize| 1u128 << (i * n + j);
    for (v, s) in states.iter().enumerate().take(n) {
        match s {
            Some('.') => layers[0] |= cell(v, v),
            Some('l') => layers[1] |= cell(v, v),
            Some('r') => layers[2] |= cell(v, v),
            _ => {}
        }
    }
    for &(u, v) in &edges {
        layers[0] |= cell(u.min(v), u.max(v));
    }
    let b = Board::new(n, n, layers)?;
    // Coloured vertices tint their neighbours (in either order: the tints
    // of the two colours commute).
    let mut layers = b.layers();
    for (colour, p) in [('L', Player::Left), ('R', Player::Right)] {
        let near = (0..n)
            .filter(|&v| states[v] == Some(colour))
            .fold(0, |m, v| {
                m | (0..n)
                    .filter(|&u| u != v && b.cells() & edge_bit(&b, u, v) != 0)
                    .fold(0, |m, u| m | vertex_bit(&b, u))
            });
        layers = forbid(layers, near, forbidden(rule, p));
    }
    Ok(drop_dead_edges(&b.with_layers(layers)))
}

/// Parse the matrix [`format`] prints, with row and column errors.
fn parse_matrix(text: &str, name: &'static str) -> Result<Board, BoardError> {
    let b = parse_grid(text, name, |ch| match ch {
        '.' | 'e' => Glyph::Layer(0),
        'l' => Glyph::Layer(1),
        'r' => Glyph::Layer(2),
        '#' => Glyph::Hole,
        'x' | 'o' => Glyph::Foreign("stones"),
        _ => Glyph::Unknown,
    })?;
    // Where the edge letters are, to check they sit above the diagonal.
    let e = parse_grid(text, name, |ch| {
        if ch == 'e' {
            Glyph::Layer(0)
        } else {
            Glyph::Hole
        }
    })?
    .layer(0);
    let (w, h) = (b.width(), b.height());
    let err = |r: usize, c: usize, why: &str| BoardError::Graph {
        ruleset: name,
        why: why.into(),
        at: format!("row {}, column {}", r + 1, c + 1),
    };
    if w != h {
        return Err(err(h - 1, w - 1, "the matrix must be square"));
    }
    for r in 0..h {
        for c in 0..w {
            let bit = b.bit(r, c);
            if r == c && e & bit != 0 {
                return Err(err(r, c, "an edge on the diagonal (vertices are . l r #)"));
            }
            if r < c && b.cells() & bit != 0 && e & bit == 0 {
                return Err(err(r, c, "above the diagonal only e (edge) or # (none)"));
            }
            if r > c && b.cells() & bit != 0 {
                return Err(err(r, c, "below the diagonal only #"));
            }
        }
    }
    Ok(drop_dead_edges(&b))
}

/// Print the matrix: vertices on the diagonal, `e` for edges above it.
fn format(b: &Board) -> String {
    let (w, h) = (b.width(), b.height());
    let mut s = String::with_capacity((w + 1) * h);
    for r in 0..h {
        if r > 0 {
            s.push('|');
        }
        for c in 0..w {
            let bit = b.bit(r, c);
            let k = (0..3).find(|&k| b.layer(k) & bit != 0);
            s.push(match (k, r == c) {
                (None, _) => '#',
                (Some(k), true) => ['.', 'l', 'r'][k],
                (Some(_), false) => 'e',
            });
        }
    }
    s
}

/// The edge list of a board (reads back to the same board): the state of
/// every vertex that is not open or has no edge, then the edges.
#[must_use]
pub fn edge_list(b: &Board) -> String {
    let n = order(b);
    let cells = b.cells();
    let mut items = Vec::new();
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if cells & edge_bit(b, i, j) != 0 {
                edges.push(format!("{}-{}", i + 1, j + 1));
            }
        }
    }
    for v in 0..n {
        let c = vertex_bit(b, v);
        let has_edge = (0..n).any(|u| u != v && cells & edge_bit(b, u, v) != 0);
        let s = (0..3).find(|&k| b.layer(k) & c != 0);
        match s {
            Some(0) if has_edge => {}
            Some(0) => items.push(format!("{}", v + 1)),
            Some(k) => items.push(format!("{}:{}", v + 1, ['.', 'l', 'r'][k])),
            None => items.push(format!("{}:#", v + 1)),
        }
    }
    items.extend(edges);
    items.join(",")
}

/// The [`Ruleset`](crate::Ruleset) of a placement game on a graph.
macro_rules! graph_placement_ruleset {
    ($ty:ty, $rule:expr, $info:expr) => {
        impl crate::ruleset::Ruleset for $ty {
            fn info(&self) -> &'static RulesetInfo {
                &$info
            }

            /// An edge list, or the matrix [`format`](Self::format) prints.
            fn parse(&self, text: &str) -> Result<Board, BoardError> {
                if edgelist::is_edge_list(text) {
                    parse_edges(text, $info.name, $rule)
                } else {
                    parse_matrix(text, $info.name)
                }
            }

            fn format(&self, b: &Board) -> String {
                format(b)
            }

            #[inline]
            fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
                options($rule, b, p, f);
            }

            fn footprints<F: FnMut(Bits)>(&self, b: &Board, f: F) {
                footprints(b, f);
            }

            #[inline]
            fn cells(&self, b: &Board) -> Bits {
                b.cells()
            }

            fn symmetries(&self) -> &'static [Symmetry] {
                &SYMMETRIES
            }

            #[inline]
            fn apply(&self, b: &Board, s: Symmetry) -> Board {
                s.apply_swapping(b, 1, 2)
            }

            /// The graph's automorphisms, by a canonical labelling.
            fn fold_isomorphic(&self, b: &Board) -> Option<(Board, bool)> {
                fold(b)
            }

            /// Vertices and edges only go.
            fn only_falls_apart(&self) -> bool {
                true
            }

            fn impartial(&self) -> bool {
                false
            }

            /// Any colouring may cut its component.
            fn may_split(&self, before: &Board, after: &Board) -> bool {
                before.cells() != after.cells()
            }
        }
    };
}

graph_placement_ruleset!(SnortGraph, Forbids::Opponent, SNORT_INFO);
graph_placement_ruleset!(ColGraph, Forbids::Own, COL_INFO);

impl SnortGraph {
    /// The position as a graph to draw (see [`GraphView`]).
    #[must_use]
    pub fn view(&self, b: &Board) -> GraphView {
        view(Forbids::Opponent, b)
    }
}

impl ColGraph {
    /// The position as a graph to draw (see [`GraphView`]).
    #[must_use]
    pub fn view(&self, b: &Board) -> GraphView {
        view(Forbids::Own, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;

    #[test]
    fn edge_lists_read_and_print() {
        let s = SnortGraph;
        let b = s.parse("1-2,2-3").unwrap();
        assert_eq!(s.format(&b), ".e#|#.e|##.");
        assert_eq!(s.parse(&s.format(&b)), Ok(b));
        assert_eq!(edge_list(&b), "1-2,2-3");
        assert_eq!(s.parse(&edge_list(&b)), Ok(b));
        let t = s.parse("1:L,1-2,2-3").unwrap();
        assert_eq!(s.format(&t), "###|#le|##.");
        assert_eq!(edge_list(&t), "1:#,2:l,2-3");
        assert_eq!(s.parse(&edge_list(&t)), Ok(t));
        assert_eq!(
            ColGraph.format(&ColGraph.parse("1:L,1-2,2-3").unwrap()),
            "###|#re|##."
        );
        for (text, want) in [
            ("1-3", "vertex 2 is never named"),
            ("1-1", "loop"),
            ("1-12", "expected"),
            ("1:l,1:r", "already"),
            ("e", "diagonal"),
            (".#|e.", "below the diagonal"),
            (".l|#.", "above the diagonal"),
            (".e", "square"),
        ] {
            let e = s.parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let e = s.parse("1-2, 2-x").unwrap_err().to_string();
        assert!(e.contains("item 2") && e.contains("column 6"), "{e}");
    }

    #[test]
    fn a_colouring_tints_its_neighbours() {
        let b = SnortGraph.parse("1-2,1-3,1-4").unwrap();
        let mut opts = Vec::new();
        SnortGraph.options(&b, Player::Left, |o| opts.push(edge_list(&o)));
        // Colouring the centre leaves three leaves for Left alone; a leaf
        // leaves the centre Left's with two edges.
        assert_eq!(
            opts,
            vec![
                "1:#,2:l,3:l,4:l",
                "1:l,2:#,1-3,1-4",
                "1:l,3:#,1-2,1-4",
                "1:l,4:#,1-2,1-3"
            ]
        );
    }
}
