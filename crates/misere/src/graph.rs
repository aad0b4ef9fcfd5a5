//! Misère canonical forms of Kayles and Node Kayles positions on graphs: a
//! position is the set of vertices left; its form is the sum of its
//! connected components' forms (sums of canonical forms are canonical
//! forms of sums, so splitting is exact under misère play too).

use rustc_hash::FxHashMap;

use partizan_impartial::{Graph, GraphGame};

use crate::{GameId, MisereArena, MisereError};

/// Canonical forms of positions of one game on one graph, memoised by
/// connected component, with a limit on components valued.
#[derive(Debug)]
pub struct GraphForms<'g> {
    game: GraphGame,
    graph: &'g Graph,
    memo: FxHashMap<u64, GameId>,
    max_positions: usize,
}

impl<'g> GraphForms<'g> {
    /// A solver that gives up past `max_positions` connected positions.
    #[must_use]
    pub fn new(game: GraphGame, graph: &'g Graph, max_positions: usize) -> Self {
        Self {
            game,
            graph,
            memo: FxHashMap::default(),
            max_positions,
        }
    }

    /// Connected positions valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The form of the whole graph.
    pub fn whole(&mut self, arena: &mut MisereArena) -> Result<GameId, MisereError> {
        let all = self.graph.all();
        self.form(arena, all)
    }

    /// The form of the position where the vertices of `mask` remain.
    pub fn form(&mut self, arena: &mut MisereArena, mask: u64) -> Result<GameId, MisereError> {
        let mut parts = Vec::new();
        for c in self.graph.components(mask) {
            parts.push(self.connected(arena, c)?);
        }
        arena.sum_all(&parts)
    }

    fn connected(&mut self, arena: &mut MisereArena, comp: u64) -> Result<GameId, MisereError> {
        if let Some(&g) = self.memo.get(&comp) {
            return Ok(g);
        }
        if self.memo.len() >= self.max_positions {
            return Err(MisereError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        let mut children = Vec::new();
        self.game.options(self.graph, comp, |m| children.push(m));
        let mut options = Vec::with_capacity(children.len());
        for m in children {
            options.push(self.form(arena, m)?);
        }
        let g = arena.game(&options)?;
        self.memo.insert(comp, g);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use partizan_impartial::HeapGame;

    use super::*;
    use crate::heap::HeapForms;

    #[test]
    fn paths_are_heaps() {
        // Kayles on a path of n vertices is the heap game 0.77; Node Kayles
        // on it is Dawson's Chess, 0.137: same game trees, same forms.
        let mut arena = MisereArena::new();
        let kayles = HeapForms::compute(&mut arena, &HeapGame::parse("0.77").unwrap(), 12).unwrap();
        let chess = HeapForms::compute(&mut arena, &HeapGame::parse("0.137").unwrap(), 12).unwrap();
        for n in 1..=12 {
            let path = Graph::path(n).unwrap();
            let k = GraphForms::new(GraphGame::Kayles, &path, 100_000)
                .whole(&mut arena)
                .unwrap();
            assert_eq!(Some(k), kayles.form(n), "kayles path {n}");
            let c = GraphForms::new(GraphGame::NodeKayles, &path, 100_000)
                .whole(&mut arena)
                .unwrap();
            assert_eq!(Some(c), chess.form(n), "node kayles path {n}");
        }
    }

    #[test]
    fn the_budget_is_an_error() {
        let mut arena = MisereArena::new();
        let g = Graph::grid(4, 4).unwrap();
        let r = GraphForms::new(GraphGame::NodeKayles, &g, 5).whole(&mut arena);
        assert!(matches!(r, Err(MisereError::TooManyPositions { limit: 5 })));
    }
}
