//! Misère canonical forms of positions of impartial board rulesets from
//! the games registry (Cram, and any ruleset whose `impartial()` is true):
//! a board's form is built from its options' forms, memoised by board.

use rustc_hash::FxHashMap;

use partizan_games::{Board, Player, Ruleset};

use crate::partizan::{FormId, PartizanArena};
use crate::{GameId, MisereArena, MisereError};

/// Canonical forms of one impartial ruleset's boards, with a limit on the
/// boards valued.
#[derive(Debug)]
pub struct BoardForms<'r, R: Ruleset> {
    rules: &'r R,
    memo: Memo<GameId>,
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
            memo: Memo::new(max_positions),
        })
    }

    /// Boards valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.forms.len()
    }

    /// The misère canonical form of `board`.
    pub fn form(&mut self, arena: &mut MisereArena, board: &Board) -> Result<GameId, MisereError> {
        if let Some(g) = self.memo.known(board)? {
            return Ok(g);
        }
        let mut children = Vec::new();
        self.rules
            .options(board, Player::Left, |c| children.push(c));
        let mut options = Vec::with_capacity(children.len());
        for c in &children {
            options.push(self.form(arena, c)?);
        }
        let g = arena.game(&options)?;
        self.memo.forms.insert(*board, g);
        Ok(g)
    }
}

/// Forms found so far, by board, with a limit on how many.
#[derive(Debug)]
struct Memo<V> {
    forms: FxHashMap<Board, V>,
    max_positions: usize,
}

impl<V: Copy> Memo<V> {
    fn new(max_positions: usize) -> Self {
        Self {
            forms: FxHashMap::default(),
            max_positions,
        }
    }

    /// The board's form if known; an error if no new board may be valued.
    fn known(&self, board: &Board) -> Result<Option<V>, MisereError> {
        if let Some(&g) = self.forms.get(board) {
            return Ok(Some(g));
        }
        if self.forms.len() >= self.max_positions {
            return Err(MisereError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        Ok(None)
    }
}

/// Partizan misère canonical forms of any ruleset's boards (Left's and
/// Right's moves as the ruleset gives them), in the universe of a
/// [`PartizanArena`], memoised by board, with a limit on the boards valued.
/// A board is taken whole: under misère play its regions' forms add up
/// ([`PartizanArena::sum`]), but nothing here relies on it.
#[derive(Debug)]
pub struct PartizanBoardForms<'r, R: Ruleset> {
    rules: &'r R,
    memo: Memo<FormId>,
}

impl<'r, R: Ruleset> PartizanBoardForms<'r, R> {
    /// Forms of `rules`' boards.
    #[must_use]
    pub fn new(rules: &'r R, max_positions: usize) -> Self {
        Self {
            rules,
            memo: Memo::new(max_positions),
        }
    }

    /// Boards valued so far.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.memo.forms.len()
    }

    /// The misère canonical form of `board` in `arena`'s universe (an error
    /// where the board is outside it, as a non-dicot among dicots).
    pub fn form(
        &mut self,
        arena: &mut PartizanArena,
        board: &Board,
    ) -> Result<FormId, MisereError> {
        if let Some(g) = self.memo.known(board)? {
            return Ok(g);
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (side, player) in sides.iter_mut().zip([Player::Left, Player::Right]) {
            let mut children = Vec::new();
            self.rules.options(board, player, |c| children.push(c));
            for c in &children {
                side.push(self.form(arena, c)?);
            }
        }
        let g = arena.game(&sides[0], &sides[1])?;
        self.memo.forms.insert(*board, g);
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
