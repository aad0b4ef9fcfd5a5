//! Hackenbush on graphs: edges standing on the ground, blue (Left may
//! cut), red (Right may cut) or green (either may). Cutting an edge removes
//! it, and every edge no longer connected to the ground falls with it.
//! Loops and parallel edges are allowed; strings and trees are the special
//! cases (the grid ruleset [`hackenbush`](crate::hackenbush) keeps strings
//! on rows).
//!
//! **Edge list** (what a person types): items separated by commas, each
//! `U-V:C` with `U`, `V` a vertex (`g` or `0` the ground, `1`, `2`, ...
//! the others) and `C` the colour, `b` (blue), `r` (red) or `g` (green);
//! `_` stands for an edge already cut (it keeps the later edges' numbers).
//! Every edge must be connected to the ground.
//!
//! **Board** (what is stored and printed; it reads back too): the graph's
//! incidence matrix, one row per edge and one column per vertex, the
//! ground first. An edge's row holds its colour letter (`L` blue, `R` red,
//! `G` green) at its two ends (one cell for a loop) and `.` elsewhere;
//! layer 0 holds the blue ends, layer 1 the red, layer 2 the green. At
//! most 128 cells: edges x (vertices + 1).
//!
//! ```text
//! g-1:b,1-2:r,2-g:g   a triangle on the ground    LL.|.RR|G.G
//! g-1:b,1-1:r         a blue stalk, a red loop    LL|.R
//! ```
//!
//! Regions are the components of the graph with the ground deleted (the
//! ground is shared: what stands on it in separate pieces is a sum).
//! Symmetries: the edge order reversed (rows mirrored) keeps the value,
//! and blue and red exchanged negates it. The graph's own automorphisms
//! (fixing the ground), which no [`Symmetry`] describes, are folded by
//! [`Ruleset::fold_isomorphic`]: a canonical labelling of the graph with
//! one node per edge ([`relabel`](crate::relabel)).

use crate::board::{Bits, Board, Player};
use crate::edgelist::{self, row_mask};
use crate::error::BoardError;
use crate::graph_view::{EdgeColour, GraphView, Moves, VertexState, ViewEdge, ViewVertex};
use crate::relabel::{fold_with_swap, ColouredGraph};
use crate::ruleset::{parse_glyphs, GlyphSpec, Ruleset, RulesetInfo};
use crate::transform::{Symmetry, Transform};

/// Hackenbush on a graph with a ground (see the module doc for the text).
#[derive(Copy, Clone, Debug, Default)]
pub struct HackenbushGraph;

const SYMMETRIES: [Symmetry; 4] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::Identity, true),
    Symmetry::new(Transform::FlipRows, true),
];

static INFO: RulesetInfo = RulesetInfo {
    name: "hackenbush-graph",
    aliases: &["hackenbush-graphs", "graph-hackenbush"],
    title: "Hackenbush (graphs)",
    summary: "A player cuts an edge of their colour (green: either's); every edge no longer connected to the ground falls. Type an edge list 'g-1:b,1-2:r,2-g:g'.",
    glyphs: &[
        GlyphSpec::layer('L', 0, "an end of a blue edge (Left's)"),
        GlyphSpec::layer('R', 1, "an end of a red edge (Right's)"),
        GlyphSpec::layer('G', 2, "an end of a green edge (either's)"),
        GlyphSpec::hole('.', "not an end of this row's edge"),
    ],
    edit_cycle: "LRG.",
    fillings: &['L', 'R', 'G'],
    example: "LL.|.RR|G.G",
    site_cells: 60,
};

const NAME: &str = "hackenbush-graph";

/// The columns (vertices) touched by row `r`, as a one-row mask.
#[inline]
fn row_cols(b: &Board, r: usize) -> Bits {
    let w = b.width();
    (b.cells() & row_mask(w, r)) >> (r * w)
}

/// The cells of every edge connected to the ground (column 0) through
/// edges of `b`.
#[must_use]
pub fn grounded(b: &Board) -> Bits {
    let (w, h) = (b.width(), b.height());
    let mut reached: Bits = 1;
    let mut kept: Bits = 0;
    loop {
        let mut grew = false;
        for r in 0..h {
            let m = row_mask(w, r);
            if kept & m != 0 {
                continue;
            }
            let cols = row_cols(b, r);
            if cols & reached != 0 {
                reached |= cols;
                kept |= b.cells() & m;
                grew = true;
            }
        }
        if !grew {
            return kept;
        }
    }
}

/// The layer (colour) of an edge row: the layer of its lowest cell.
#[inline]
fn row_layer(b: &Board, row: Bits) -> Option<usize> {
    let low = row & row.wrapping_neg();
    (0..3).find(|&k| b.layer(k) & low != 0)
}

/// Check a board read from text: each row one edge (one or two cells of
/// one colour, not a loop at the ground) and every edge grounded.
fn validate(b: &Board, at: impl Fn(usize) -> String) -> Result<(), BoardError> {
    let err = |r: usize, why: &str| BoardError::Graph {
        ruleset: NAME,
        why: why.to_string(),
        at: at(r),
    };
    for r in 0..b.height() {
        let row = b.cells() & row_mask(b.width(), r);
        let n = row.count_ones();
        if n > 2 {
            return Err(err(r, "an edge has at most two ends"));
        }
        if n == 0 {
            continue;
        }
        if (0..3).filter(|&k| b.layer(k) & row != 0).count() > 1 {
            return Err(err(r, "an edge has one colour"));
        }
        if n == 1 && row_cols(b, r) == 1 {
            return Err(err(r, "a loop at the ground"));
        }
    }
    let loose = b.cells() & !grounded(b);
    if loose != 0 {
        let r = loose.trailing_zeros() as usize / b.width().max(1);
        return Err(err(r, "an edge not connected to the ground"));
    }
    Ok(())
}

/// A vertex of an edge list: `g`/`G`/`0` the ground, else a number.
fn vertex(s: &str) -> Option<usize> {
    match s {
        "g" | "G" => Some(0),
        _ => s.parse::<usize>().ok().filter(|&v| v < crate::MAX_CELLS),
    }
}

/// Parse an edge list (see the module doc).
fn parse_edges(text: &str) -> Result<Board, BoardError> {
    let items = edgelist::items(text, NAME)?;
    let mut edges: Vec<Option<(usize, usize, usize)>> = Vec::with_capacity(items.len());
    for it in &items {
        if it.text == "_" {
            edges.push(None);
            continue;
        }
        let bad = || {
            it.error(
                NAME,
                "expected U-V:C (vertices g, 1, 2, ...; colour b, r or g) or _",
            )
        };
        let (ends, colour) = it.text.split_once(':').ok_or_else(bad)?;
        let (u, v) = ends.split_once('-').ok_or_else(bad)?;
        let (u, v) = (
            vertex(u.trim()).ok_or_else(bad)?,
            vertex(v.trim()).ok_or_else(bad)?,
        );
        let layer = match colour.trim() {
            "b" | "B" | "L" => 0,
            "r" | "R" => 1,
            "g" | "G" => 2,
            _ => return Err(it.error(NAME, "the colour is b (blue), r (red) or g (green)")),
        };
        edges.push(Some((u, v, layer)));
    }
    let width = 1 + edges
        .iter()
        .flatten()
        .map(|&(u, v, _)| u.max(v))
        .max()
        .unwrap_or(0);
    let height = edges.len();
    if width * height > crate::MAX_CELLS {
        return Err(BoardError::Graph {
            ruleset: NAME,
            why: format!(
                "{height} edges x {width} vertex columns = {} cells > 128",
                width * height
            ),
            at: "the whole list".into(),
        });
    }
    let mut layers = [0; 3];
    for (r, e) in edges.iter().enumerate() {
        if let Some((u, v, k)) = *e {
            layers[k] |= (1u128 << (r * width + u)) | (1u128 << (r * width + v));
        }
    }
    let b = Board::new(width, height, layers)?;
    validate(&b, |r| {
        let it = &items[r];
        format!("item {} ({:?}), column {}", it.number, it.text, it.col)
    })?;
    Ok(b)
}

/// The edge list of a board (the inverse of the parser on boards it
/// accepts): `U-V:C` per row, `_` for a cut edge.
#[must_use]
pub fn edge_list(b: &Board) -> String {
    let name = |c: usize| {
        if c == 0 {
            "g".to_string()
        } else {
            c.to_string()
        }
    };
    let mut items = Vec::with_capacity(b.height());
    for r in 0..b.height() {
        let row = b.cells() & row_mask(b.width(), r);
        let cols = row_cols(b, r);
        match row_layer(b, row) {
            None => items.push("_".to_string()),
            Some(k) => {
                let u = cols.trailing_zeros() as usize;
                let v = 127 - cols.leading_zeros() as usize;
                let c = ["b", "r", "g"][k];
                items.push(format!("{}-{}:{c}", name(u), name(v)));
            }
        }
    }
    items.join(",")
}

/// The graph of a board as a coloured graph: node 0 the ground (colour
/// 0), then each vertex column with an edge (colour 1), then one node per
/// edge row (colour 2 blue, 3 red, 4 green; `swap` exchanges blue and red)
/// joined to its ends. Loops and parallel edges stay apart this way.
fn coloured(b: &Board, swap: bool) -> Option<ColouredGraph> {
    let (w, h) = (b.width(), b.height());
    let used = (0..h).fold(0, |m, r| m | row_cols(b, r));
    let cols: Vec<usize> = (1..w).filter(|&c| used & (1 << c) != 0).collect();
    let mut node = vec![usize::MAX; w];
    node[0] = 0;
    for (i, &c) in cols.iter().enumerate() {
        node[c] = i + 1;
    }
    let mut colours = vec![0];
    colours.extend(cols.iter().map(|_| 1));
    let mut edges = Vec::new();
    for r in 0..h {
        let row = b.cells() & row_mask(w, r);
        let Some(k) = row_layer(b, row) else {
            continue;
        };
        let k = match (k, swap) {
            (0, true) => 1,
            (1, true) => 0,
            _ => k,
        };
        let e = colours.len();
        colours.push(2 + k as u8);
        let mut ends = row_cols(b, r);
        while ends != 0 {
            edges.push((e, node[ends.trailing_zeros() as usize]));
            ends &= ends - 1;
        }
    }
    ColouredGraph::new(colours, &edges)
}

/// The board of a coloured graph [`coloured`] built (relabelled): the
/// ground first, the other vertices and the edges in label order.
fn board_of(g: &ColouredGraph) -> Option<Board> {
    let ground = (0..g.len()).find(|&u| g.colour(u) == 0)?;
    let mut col = vec![usize::MAX; g.len()];
    col[ground] = 0;
    let mut w = 1;
    for u in (0..g.len()).filter(|&u| g.colour(u) == 1) {
        col[u] = w;
        w += 1;
    }
    let rows: Vec<usize> = (0..g.len()).filter(|&u| g.colour(u) >= 2).collect();
    let mut layers = [0; 3];
    for (r, &e) in rows.iter().enumerate() {
        let k = usize::from(g.colour(e) - 2);
        let mut ends = g.neighbours(e);
        while ends != 0 {
            layers[k] |= 1u128 << (r * w + col[ends.trailing_zeros() as usize]);
            ends &= ends - 1;
        }
    }
    Board::new(w, rows.len(), layers).ok()
}

/// The board after `p` cuts edge row `r`, if `p` may (the edge is theirs
/// or green): the edges no longer grounded fall.
fn cut(b: &Board, r: usize, p: Option<Player>) -> Option<Board> {
    let row = b.cells() & row_mask(b.width(), r);
    let k = row_layer(b, row)?;
    let may = match p {
        Some(Player::Left) => k == 0 || k == 2,
        Some(Player::Right) => k == 1 || k == 2,
        None => true,
    };
    if !may {
        return None;
    }
    let rest = b.restrict(!row);
    Some(rest.restrict(grounded(&rest)))
}

impl HackenbushGraph {
    /// The position as a graph to draw (see [`GraphView`]): the ground,
    /// each vertex with an edge, each edge with the cuts a click makes; in
    /// editing, a click recolours an edge blue -> red -> green -> cut.
    #[must_use]
    pub fn view(&self, b: &Board) -> GraphView {
        let (w, h) = (b.width(), b.height());
        let used = (0..h).fold(0, |m, r| m | row_cols(b, r));
        let mut index = vec![usize::MAX; w];
        let mut vertices = Vec::new();
        for c in (0..w).filter(|&c| c == 0 || used & (1 << c) != 0) {
            index[c] = vertices.len();
            vertices.push(ViewVertex {
                label: if c == 0 { "g".into() } else { c.to_string() },
                state: if c == 0 {
                    VertexState::Ground
                } else {
                    VertexState::Plain
                },
                slot: (c, w),
                moves: Moves::default(),
            });
        }
        let mut edges = Vec::new();
        for r in 0..h {
            let row = b.cells() & row_mask(w, r);
            let Some(k) = row_layer(b, row) else {
                continue;
            };
            let cols = row_cols(b, r);
            let u = cols.trailing_zeros() as usize;
            let v = 127 - cols.leading_zeros() as usize;
            let edit = if k == 2 {
                cut(b, r, None)
            } else {
                let mut layers = b.layers().map(|l| l & !row);
                layers[k + 1] |= row;
                Some(b.with_layers(layers))
            };
            edges.push(ViewEdge {
                ends: (index[u], index[v]),
                colour: [EdgeColour::Blue, EdgeColour::Red, EdgeColour::Green][k],
                moves: Moves {
                    left: cut(b, r, Some(Player::Left)),
                    right: cut(b, r, Some(Player::Right)),
                    edit,
                },
            });
        }
        GraphView {
            vertices,
            edges,
            grounded: true,
        }
    }
}

impl Ruleset for HackenbushGraph {
    fn info(&self) -> &'static RulesetInfo {
        &INFO
    }

    /// An edge list, or the incidence matrix [`format`](Self::format)
    /// prints (errors name the item, or the row and column).
    fn parse(&self, text: &str) -> Result<Board, BoardError> {
        if edgelist::is_edge_list(text) {
            return parse_edges(text);
        }
        let b = parse_glyphs(text, &INFO)?;
        validate(&b, |r| format!("row {}", r + 1))?;
        Ok(b)
    }

    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, mut f: F) {
        for r in 0..b.height() {
            if let Some(o) = cut(b, r, Some(p)) {
                f(o);
            }
        }
    }

    /// Each edge, and for each vertex off the ground the edges meeting
    /// there: a cut removes edges of its own component of the graph
    /// without the ground, which these join. Edges only go.
    fn footprints<F: FnMut(Bits)>(&self, b: &Board, mut f: F) {
        let (w, h) = (b.width(), b.height());
        let cells = b.cells();
        for r in 0..h {
            let row = cells & row_mask(w, r);
            if row != 0 {
                f(row);
            }
        }
        for v in 1..w {
            let mut star = 0;
            for r in 0..h {
                let row = cells & row_mask(w, r);
                if row & b.bit(r, v) != 0 {
                    star |= row;
                }
            }
            if star != 0 {
                f(star);
            }
        }
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
        s.apply_swapping(b, 0, 1)
    }

    /// The graph's automorphisms fixing the ground (and blue and red
    /// exchanged, which negates), by a canonical labelling; cut edges and
    /// bare vertices dropped.
    fn fold_isomorphic(&self, b: &Board) -> Option<(Board, bool)> {
        if b.cells() == 0 {
            return None;
        }
        let (g, negated) = fold_with_swap(&coloured(b, false)?, &coloured(b, true)?);
        Some((board_of(&g)?, negated))
    }

    /// Edges only go.
    fn only_falls_apart(&self) -> bool {
        true
    }

    fn impartial(&self) -> bool {
        false
    }

    /// Any cut may disconnect its component.
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        before.cells() != after.cells()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_lists_read_and_print() {
        let h = HackenbushGraph;
        let b = h.parse("g-1:b,1-2:r,2-g:g").unwrap();
        assert_eq!(h.format(&b), "LL.|.RR|G.G");
        assert_eq!(edge_list(&b), "g-1:b,1-2:r,g-2:g");
        assert_eq!(h.parse(&h.format(&b)), Ok(b));
        assert_eq!(
            h.parse("g-1:b, 1-1:r").map(|b| h.format(&b)),
            Ok("LL|.R".into())
        );
        for (text, want) in [
            ("g-1:b,2-3:r", "not connected to the ground"),
            ("g-g:b", "loop at the ground"),
            ("g-1:x", "colour"),
            ("g-1", "expected"),
            ("LLL", "at most two ends"),
            ("LR", "one colour"),
        ] {
            let e = h.parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let e = h.parse("g-1:b,2-3:r").unwrap_err().to_string();
        assert!(e.contains("item 2") && e.contains("column 7"), "{e}");
        let e = h.parse("LL..|..RR").unwrap_err().to_string();
        assert!(e.contains("row 2"), "{e}");
    }

    #[test]
    fn a_cut_drops_what_hangs_from_it() {
        let h = HackenbushGraph;
        // g-1 blue, 1-2 red, 2-3 blue: cutting the ground edge clears all.
        let b = h.parse("g-1:b,1-2:r,2-3:b").unwrap();
        let mut opts = Vec::new();
        h.options(&b, Player::Left, |o| opts.push(edge_list(&o)));
        assert_eq!(opts, vec!["_,_,_", "g-1:b,1-2:r,_"]);
        // A cycle holds: cutting one edge of a grounded triangle leaves two.
        let b = h.parse("g-1:g,1-2:g,2-g:g").unwrap();
        let mut n = Vec::new();
        h.options(&b, Player::Right, |o| n.push(o.cells().count_ones()));
        assert_eq!(n, vec![4, 4, 4]);
    }
}
