//! Backsliding Toads and Frogs (Winning Ways; Albert and Nowakowski,
//! *Games of No Chance 3*): Toads and Frogs in which a piece may also
//! retreat one square into an empty square. Left's toads move right one
//! square or jump one frog into the empty square beyond, and may slide
//! back left one square; Right's frogs the mirror image. Backward jumps
//! are not allowed. Both players can retreat, so play can go on for ever.

use super::{grid, LoopyInfo, LoopyRuleset};
use crate::LoopyError;

/// The ruleset.
#[derive(Clone, Copy, Debug, Default)]
pub struct BackslidingToads;

/// A position: toads and frogs as a bit per cell (strips one after
/// another), the last cell of each strip, and the number of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToadsPos {
    toads: u64,
    frogs: u64,
    ends: u64,
    cells: u8,
}

static INFO: LoopyInfo = LoopyInfo {
    name: "backsliding-toads",
    aliases: &[
        "backsliding-toads-and-frogs",
        "backslidingtoadsandfrogs",
        "backsliding toads and frogs",
        "btf",
    ],
    title: "Backsliding Toads and Frogs",
    rules: "Left's toads (T) move one square right into an empty square or jump one frog \
into the empty square beyond; Right's frogs (F) move or jump left. Either may also slide back \
one square into an empty square (never jump back). Whoever cannot move loses; play can go on \
for ever, a draw.",
    glyphs: "T toad (Left), F frog (Right), . empty; strips separated by '|' are added",
    examples: &[
        ("TT..FF", "two toads and two frogs, two squares apart"),
        ("T.F", "one of each"),
        ("T..F|TF.", "a sum of two strips"),
    ],
};

const MAX_CELLS: usize = 64;

impl LoopyRuleset for BackslidingToads {
    type Pos = ToadsPos;

    fn info(&self) -> &'static LoopyInfo {
        &INFO
    }

    fn parse(&self, text: &str) -> Result<ToadsPos, LoopyError> {
        let rows = grid(text, MAX_CELLS)?;
        let (mut toads, mut frogs, mut ends, mut i) = (0u64, 0u64, 0u64, 0usize);
        for (r, row) in rows.iter().enumerate() {
            if row.is_empty() {
                return Err(LoopyError::Board(format!("strip {} is empty", r + 1)));
            }
            for &ch in row {
                match ch {
                    '.' | '□' => {}
                    'T' | 't' => toads |= 1 << i,
                    'F' | 'f' => frogs |= 1 << i,
                    other => {
                        return Err(LoopyError::Board(format!(
                            "unknown character '{other}' in strip {} (T toad, F frog, . empty)",
                            r + 1
                        )))
                    }
                }
                i += 1;
            }
            ends |= 1 << (i - 1);
        }
        Ok(ToadsPos {
            toads,
            frogs,
            ends,
            cells: i as u8,
        })
    }

    fn format(&self, p: &ToadsPos) -> String {
        let mut out = String::new();
        for i in 0..p.cells as usize {
            out.push(if p.toads >> i & 1 == 1 {
                'T'
            } else if p.frogs >> i & 1 == 1 {
                'F'
            } else {
                '.'
            });
            if p.ends >> i & 1 == 1 && i + 1 < p.cells as usize {
                out.push('|');
            }
        }
        out
    }

    fn options(&self, p: &ToadsPos, left: bool, f: &mut dyn FnMut(ToadsPos)) {
        let n = p.cells as usize;
        let empty = |i: usize| (p.toads | p.frogs) >> i & 1 == 0;
        // Whether i and i + 1 are in one strip.
        let joined = |i: usize| i + 1 < n && p.ends >> i & 1 == 0;
        let (mine, theirs) = if left {
            (p.toads, p.frogs)
        } else {
            (p.frogs, p.toads)
        };
        let mut m = mine;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            // Forward: right for toads, left for frogs.
            let ahead = |k: usize| -> Option<usize> {
                if left {
                    (0..k).try_fold(i, |j, _| joined(j).then_some(j + 1))
                } else {
                    (0..k).try_fold(i, |j, _| (j > 0 && joined(j - 1)).then(|| j - 1))
                }
            };
            let behind = if left {
                (i > 0 && joined(i - 1)).then(|| i - 1)
            } else {
                joined(i).then_some(i + 1)
            };
            let mut go = |to: usize| {
                let moved = mine & !(1 << i) | 1 << to;
                f(if left {
                    ToadsPos { toads: moved, ..*p }
                } else {
                    ToadsPos { frogs: moved, ..*p }
                });
            };
            match ahead(1) {
                Some(j) if empty(j) => go(j),
                Some(j) if theirs >> j & 1 == 1 => {
                    if let Some(k) = ahead(2).filter(|&k| empty(k)) {
                        go(k);
                    }
                }
                _ => {}
            }
            if let Some(j) = behind.filter(|&j| empty(j)) {
                go(j);
            }
        }
    }
}
