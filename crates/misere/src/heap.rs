//! Misère canonical forms and genera of heap games, heap by heap: heap `n`
//! is the game whose options are the sums of heaps its moves leave.

use partizan_impartial::HeapGame;

use crate::{GameId, Genus, MisereArena, MisereError};

/// The canonical forms of the heaps `0..=up_to` of one heap game.
#[derive(Debug, Clone)]
pub struct HeapForms {
    game: HeapGame,
    forms: Vec<GameId>,
}

impl HeapForms {
    /// Heaps `0..=up_to`, in `arena` (whose size limit is the budget).
    pub fn compute(
        arena: &mut MisereArena,
        game: &HeapGame,
        up_to: usize,
    ) -> Result<Self, MisereError> {
        let mut forms: Vec<GameId> = Vec::with_capacity(up_to + 1);
        for n in 0..=up_to {
            let mut moves: Vec<Vec<usize>> = Vec::new();
            game.heap_options(n, |parts| moves.push(parts.to_vec()));
            let mut options = Vec::with_capacity(moves.len());
            for parts in moves {
                let forms_of: Vec<GameId> = parts.iter().map(|&h| forms[h]).collect();
                options.push(arena.sum_all(&forms_of)?);
            }
            forms.push(arena.game(&options)?);
        }
        Ok(Self {
            game: game.clone(),
            forms,
        })
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The canonical form of heap `n`.
    #[must_use]
    pub fn form(&self, n: usize) -> Option<GameId> {
        self.forms.get(n).copied()
    }

    /// Every heap's form, `0..=up_to`.
    #[must_use]
    pub fn forms(&self) -> &[GameId] {
        &self.forms
    }

    /// The genus of every heap.
    pub fn genera(&self, arena: &mut MisereArena) -> Vec<Genus> {
        self.forms.iter().map(|&g| arena.genus(g)).collect()
    }
}
