//! Graph rulesets' positions as graphs to draw: the vertices with their
//! states, the edges with their colours, and for each the board a click
//! leads to (Left's move, Right's move, an edit). The pictures
//! (`partizan_report::picture::graph_picture`) and the site's explorer
//! draw these instead of the board matrix the position is stored as.

use crate::board::Board;
use crate::registry::Rules;
use crate::Ruleset;

/// What a vertex is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VertexState {
    /// Either player may colour it (Snort, Col).
    Open,
    /// Only Left may colour it.
    LeftOnly,
    /// Only Right may colour it.
    RightOnly,
    /// Hackenbush's ground.
    Ground,
    /// A vertex no one moves on (Hackenbush).
    Plain,
}

/// What colour an edge is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeColour {
    /// An edge no one moves on (Snort, Col).
    Plain,
    /// Left's (Hackenbush).
    Blue,
    /// Right's.
    Red,
    /// Either's.
    Green,
}

/// The boards a click on a vertex or an edge leads to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// Left's move there, if Left has one.
    pub left: Option<Board>,
    /// Right's move there.
    pub right: Option<Board>,
    /// The board after editing it (the next state of the vertex or edge).
    pub edit: Option<Board>,
}

/// A vertex to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewVertex {
    /// Its label (the number it has in the edge list; `g` the ground).
    pub label: String,
    /// Its state.
    pub state: VertexState,
    /// Its place among all the vertices the board can hold, `(i, n)`: a
    /// layout by slot keeps a vertex where it was as others go.
    pub slot: (usize, usize),
    /// What a click does.
    pub moves: Moves,
}

/// An edge to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewEdge {
    /// Its ends, indices into [`GraphView::vertices`] (equal for a loop).
    pub ends: (usize, usize),
    /// Its colour.
    pub colour: EdgeColour,
    /// What a click does.
    pub moves: Moves,
}

/// A graph position to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphView {
    /// The vertices still in play.
    pub vertices: Vec<ViewVertex>,
    /// The edges between them (parallel edges and loops allowed).
    pub edges: Vec<ViewEdge>,
    /// Whether the first vertex is a ground the rest stands on (drawn at
    /// the bottom, the others above it by distance).
    pub grounded: bool,
}

/// Whether `rules` is a graph ruleset (its positions have a [`GraphView`]).
#[must_use]
pub fn is_graph(rules: Rules) -> bool {
    matches!(
        rules,
        Rules::SnortGraph | Rules::ColGraph | Rules::HackenbushGraph
    )
}

/// The graph of a board of a graph ruleset (`None` for the grid rulesets).
#[must_use]
pub fn graph_view(rules: Rules, b: &Board) -> Option<GraphView> {
    if !is_graph(rules) {
        return None;
    }
    match rules {
        Rules::SnortGraph => Some(crate::SnortGraph.view(b)),
        Rules::ColGraph => Some(crate::ColGraph.view(b)),
        Rules::HackenbushGraph => Some(crate::HackenbushGraph.view(b)),
        _ => None,
    }
}

/// Whether every click's board is an option of the mover (Left's and
/// Right's moves) or a board of the ruleset that prints and reads back (an
/// edit): the check the tests run on every view.
#[must_use]
pub fn moves_are_options<R: Ruleset>(r: &R, b: &Board, view: &GraphView) -> bool {
    let mut left = Vec::new();
    let mut right = Vec::new();
    r.options(b, crate::Player::Left, |o| left.push(o));
    r.options(b, crate::Player::Right, |o| right.push(o));
    let all = view
        .vertices
        .iter()
        .map(|v| &v.moves)
        .chain(view.edges.iter().map(|e| &e.moves));
    let mut n = (0, 0);
    for m in all {
        if m.left.as_ref().is_some_and(|o| !left.contains(o))
            || m.right.as_ref().is_some_and(|o| !right.contains(o))
        {
            return false;
        }
        n.0 += usize::from(m.left.is_some());
        n.1 += usize::from(m.right.is_some());
        if let Some(e) = &m.edit {
            if r.parse(&r.format(e)).as_ref() != Ok(e) {
                return false;
            }
        }
    }
    // Every move is one click: as many clicks as options, per player.
    n == (left.len(), right.len())
}
