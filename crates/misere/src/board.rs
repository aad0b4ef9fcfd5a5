//! Misère canonical forms of positions of impartial board rulesets from
//! the games registry (Cram, and any ruleset whose `impartial()` is true):
//! a board's form is built from its options' forms, memoised by board.

use rustc_hash::FxHashMap;

use partizan_games::{Board, Player, Ruleset};

use crate::{GameId, MisereArena, MisereError};

/// Canonical forms of one impartial ruleset's boards, with a limit on the
/// boards valued.
#[derive(Debug)]
pub struct BoardForms<'r, R: Ruleset> {
    rules: &'r R,
    memo: FxHashMap<Board, GameId>,
    max_positions: usize,
}

impl<'r, R: Ruleset> BoardForms<'r, R> {
    /// Forms of `rules`' boards; a partizan ruleset is refused.
    pub fn new(rules: &'r R, max_positions: usize) -> Result<Self, MisereError> {
        if !rules.impartial() {
            return Err(MisereError::Unsupported(format!(
                "{} is not impartial: impartial misère canonical forms need the same moves for both players",
                rules.name()
            )));
        }
        Ok(Self {
            rules,
            memo: FxHashMap::default(),
            max_positions,
        })
    }

    /// Boards valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The misère canonical form of `board`.
    pub fn form(&mut self, arena: &mut MisereArena, board: &Board) -> Result<GameId, MisereError> {
        if let Some(&g) = self.memo.get(board) {
            return Ok(g);
        }
        if self.memo.len() >= self.max_positions {
            return Err(MisereError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        let mut children = Vec::new();
        self.rules
            .options(board, Player::Left, |c| children.push(c));
        let mut options = Vec::with_capacity(children.len());
        for c in &children {
            options.push(self.form(arena, c)?);
        }
        let g = arena.game(&options)?;
        self.memo.insert(*board, g);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use partizan_games::{Cram, Domineering};
    use partizan_impartial::HeapGame;

    use super::*;
    use crate::heap::HeapForms;

    #[test]
    fn cram_strips_are_dawsons_kayles() {
        // A domino on a 1 x n strip takes two adjacent cells and may split
        // the rest: Dawson's Kayles, 0.07.
        let mut arena = MisereArena::new();
        let dk = HeapForms::compute(&mut arena, &HeapGame::parse("0.07").unwrap(), 14).unwrap();
        let mut forms = BoardForms::new(&Cram, 1_000_000).unwrap();
        for n in 1..=14 {
            let board = Cram.parse(&".".repeat(n)).unwrap();
            assert_eq!(
                Some(forms.form(&mut arena, &board).unwrap()),
                dk.form(n),
                "1 x {n}"
            );
        }
    }

    #[test]
    fn partizan_rulesets_are_refused() {
        assert!(matches!(
            BoardForms::new(&Domineering, 10),
            Err(MisereError::Unsupported(_))
        ));
    }
}
