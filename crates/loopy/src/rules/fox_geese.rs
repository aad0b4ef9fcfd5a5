//! Fox and Geese (Winning Ways, ch. 20): Left's geese move one square
//! diagonally forward (up the board as written), Right's fox one square
//! diagonally in any direction, each only to an empty square; nothing is
//! captured. The geese can make only finitely many moves, the fox can
//! shuffle for ever, so a position is a stopper whose loops are the fox's
//! alone. Whoever cannot move loses: the geese win by trapping the fox.

use super::{grid, LoopyInfo, LoopyRuleset};
use crate::LoopyError;

/// The ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct FoxAndGeese;

/// A position: the geese as a bit per cell (row-major, row 0 the top row
/// as written), the fox's cell, and the board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FoxGeesePos {
    geese: u128,
    fox: u8,
    width: u8,
    height: u8,
}

static INFO: LoopyInfo = LoopyInfo {
    name: "fox-and-geese",
    aliases: &["foxandgeese", "fox-geese", "fox_and_geese", "fox and geese"],
    title: "Fox and Geese",
    rules: "Left's geese (G) move one square diagonally forward, up the board as written; \
Right's fox (F) moves one square diagonally in any direction; only to empty squares, and \
nothing is captured. Whoever cannot move loses, so the geese win by trapping the fox.",
    glyphs: "G goose (Left), F fox (Right), . empty; rows top to bottom, separated by '|'",
    examples: &[
        ("F...|....|....|G.G.", "a 4×4 board"),
        (
            "....F...|........|........|........|........|........|........|.G.G.G.G",
            "the 8×8 start: four geese on one edge, the fox on the far edge on their colour \
(2 + over, Winning Ways 2nd ed. ch. 20)",
        ),
    ],
};

const MAX_CELLS: usize = 128;

impl LoopyRuleset for FoxAndGeese {
    type Pos = FoxGeesePos;

    fn info(&self) -> &'static LoopyInfo {
        &INFO
    }

    fn parse(&self, text: &str) -> Result<FoxGeesePos, LoopyError> {
        let rows = grid(text, MAX_CELLS)?;
        let width = rows[0].len();
        if let Some(r) = rows.iter().position(|r| r.len() != width) {
            return Err(LoopyError::Board(format!(
                "row {} has {} cells, row 1 has {width}: every row must have the same width",
                r + 1,
                rows[r].len()
            )));
        }
        let mut geese = 0u128;
        let mut fox = None;
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let i = r * width + c;
                match ch {
                    '.' => {}
                    'G' | 'g' => geese |= 1 << i,
                    'F' | 'f' => {
                        if fox.is_some() {
                            return Err(LoopyError::Board(
                                "the board has more than one fox (F)".into(),
                            ));
                        }
                        fox = Some(i as u8);
                    }
                    other => {
                        return Err(LoopyError::Board(format!(
                            "unknown character '{other}' in row {} (G goose, F fox, . empty)",
                            r + 1
                        )))
                    }
                }
            }
        }
        let fox = fox.ok_or_else(|| LoopyError::Board("the board has no fox (F)".into()))?;
        Ok(FoxGeesePos {
            geese,
            fox,
            width: width as u8,
            height: rows.len() as u8,
        })
    }

    fn format(&self, p: &FoxGeesePos) -> String {
        let (w, h) = (p.width as usize, p.height as usize);
        let mut out = String::new();
        for r in 0..h {
            if r > 0 {
                out.push('|');
            }
            for c in 0..w {
                let i = r * w + c;
                out.push(if i == p.fox as usize {
                    'F'
                } else if p.geese >> i & 1 == 1 {
                    'G'
                } else {
                    '.'
                });
            }
        }
        out
    }

    fn options(&self, p: &FoxGeesePos, left: bool, f: &mut dyn FnMut(FoxGeesePos)) {
        let (w, h) = (p.width as i32, p.height as i32);
        let full = p.geese | 1 << p.fox;
        let step = |i: usize, dr: i32, dc: i32| -> Option<usize> {
            let (r, c) = ((i as i32) / w + dr, (i as i32) % w + dc);
            let j = (r * w + c) as usize;
            (r >= 0 && r < h && c >= 0 && c < w && full >> j & 1 == 0).then_some(j)
        };
        if left {
            let mut g = p.geese;
            while g != 0 {
                let i = g.trailing_zeros() as usize;
                g &= g - 1;
                for dc in [-1, 1] {
                    if let Some(j) = step(i, -1, dc) {
                        f(FoxGeesePos {
                            geese: p.geese & !(1 << i) | 1 << j,
                            ..*p
                        });
                    }
                }
            }
        } else {
            for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                if let Some(j) = step(p.fox as usize, dr, dc) {
                    f(FoxGeesePos { fox: j as u8, ..*p });
                }
            }
        }
    }
}
