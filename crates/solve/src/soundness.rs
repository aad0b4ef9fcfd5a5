//! The soundness checker: does a declared partition really split a position
//! into independent regions?
//!
//! A partition is sound at a position when every move of either player
//! changes cells of one part only, and the moves available inside each part
//! are exactly those the part offers on its own (cells outside it turned to
//! holes). The checker walks the subtree below a position, within a node
//! budget, and reports the first move that breaks this at any depth where
//! the partition is in force. For rulesets whose boards only fall apart the
//! root partition stays in force below (restricted to the cells left);
//! otherwise it is re-taken at every node.
//!
//! A wrong partition produces no error of its own: the regions' values add
//! up to a number, and the number is wrong. This is the check that turns the
//! independence claim into something a program can be held to.

use partizan_games::{Bits, Board, Player, Ruleset};
use rustc_hash::FxHashSet;
use thiserror::Error;

use crate::regions::regions;

/// What went wrong with a move (or with the partition itself).
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum ViolationKind {
    /// The move changes cells of two parts.
    CrossesRegions {
        /// The first part it touches.
        first: Bits,
        /// The second part it touches.
        second: Bits,
    },
    /// The move changes cells of one part only but is not offered by that
    /// part on its own: it reads cells outside it.
    ReadsOutside {
        /// The part.
        region: Bits,
    },
    /// The part on its own offers a move the whole position does not: a
    /// cell outside it blocks the move.
    BlockedOutside {
        /// The part.
        region: Bits,
    },
    /// The move changes a cell that lies in no part.
    OutsidePartition {
        /// The cells changed outside every part.
        cells: Bits,
    },
    /// The partition is not a partition of the position's cells (parts
    /// overlap, or miss or exceed the cells).
    NotAPartition,
}

/// The first move found that a partition in force could not account for
/// (returned boxed: it carries both boards and their text).
#[derive(Clone, Debug, Eq, PartialEq, Error)]
#[error("partition unsound at depth {depth}: {player:?} moves {before} -> {after}: {kind:?}")]
pub struct SoundnessViolation {
    /// Moves from the root to the offending position.
    pub depth: u32,
    /// The position the move is made from.
    pub position: Board,
    /// The position it was formatted as.
    pub before: String,
    /// The player moving.
    pub player: Player,
    /// The resulting position (equal to `position` for `NotAPartition`).
    pub option: Board,
    /// The result, formatted.
    pub after: String,
    /// The partition in force at `position`.
    pub parts: Vec<Bits>,
    /// What is wrong.
    pub kind: ViolationKind,
}

/// What a clean check walked.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct SoundnessReport {
    /// Distinct positions checked.
    pub nodes: u64,
    /// Moves checked (with multiplicity, both players).
    pub moves: u64,
    /// Whether the whole subtree was walked within the budget.
    pub complete: bool,
}

/// Check the partition `parts` declared valid at `root`, and the partitions
/// in force below it, over at most `budget` distinct positions.
///
/// Below the root the partition in force is the root's restricted to the
/// cells left when [`Ruleset::only_falls_apart`] holds, and the ruleset's
/// own [`regions`] re-taken at each node otherwise.
pub fn check<R: Ruleset>(
    r: &R,
    root: &Board,
    parts: &[Bits],
    budget: u64,
) -> Result<SoundnessReport, Box<SoundnessViolation>> {
    let root_parts = parts.to_vec();
    let root_board = *root;
    let falls_apart = r.only_falls_apart();
    walk(r, root, budget, |b: &Board| {
        if *b == root_board {
            root_parts.clone()
        } else if falls_apart {
            root_parts
                .iter()
                .map(|m| m & r.cells(b))
                .filter(|&m| m != 0)
                .collect()
        } else {
            regions(r, b)
        }
    })
}

/// Check a partition re-taken at every node by `partition` (for instance a
/// candidate region finder), over at most `budget` distinct positions.
pub fn check_with<R: Ruleset, P: FnMut(&Board) -> Vec<Bits>>(
    r: &R,
    root: &Board,
    budget: u64,
    partition: P,
) -> Result<SoundnessReport, Box<SoundnessViolation>> {
    walk(r, root, budget, partition)
}

fn walk<R: Ruleset, P: FnMut(&Board) -> Vec<Bits>>(
    r: &R,
    root: &Board,
    budget: u64,
    mut partition: P,
) -> Result<SoundnessReport, Box<SoundnessViolation>> {
    let mut seen: FxHashSet<Board> = FxHashSet::default();
    let mut stack: Vec<(Board, u32)> = vec![(*root, 0)];
    seen.insert(*root);
    let mut report = SoundnessReport {
        nodes: 0,
        moves: 0,
        complete: true,
    };
    while let Some((b, depth)) = stack.pop() {
        if report.nodes >= budget {
            report.complete = false;
            break;
        }
        report.nodes += 1;
        let parts = partition(&b);
        report.moves += check_node(r, &b, &parts, depth)?;
        for p in Player::BOTH {
            r.options(&b, p, |o| {
                if seen.insert(o) {
                    stack.push((o, depth + 1));
                }
            });
        }
    }
    Ok(report)
}

/// Cells whose state differs between two boards of one rectangle.
fn changed(a: &Board, b: &Board) -> Bits {
    (0..3).fold(0, |acc, k| acc | (a.layer(k) ^ b.layer(k)))
}

/// `b` with the part `mask` replaced by the same part of `inner`.
fn lift(b: &Board, inner: &Board, mask: Bits) -> Option<Board> {
    let mut layers = [0; 3];
    for (k, l) in layers.iter_mut().enumerate() {
        *l = (b.layer(k) & !mask) | (inner.layer(k) & mask);
    }
    if inner.cells() & !mask != 0 {
        return None;
    }
    Board::new(b.width(), b.height(), layers).ok()
}

fn check_node<R: Ruleset>(
    r: &R,
    b: &Board,
    parts: &[Bits],
    depth: u32,
) -> Result<u64, Box<SoundnessViolation>> {
    let violation = |player: Player, option: Board, kind: ViolationKind| {
        Box::new(SoundnessViolation {
            depth,
            position: *b,
            before: r.format(b),
            player,
            option,
            after: r.format(&option),
            parts: parts.to_vec(),
            kind,
        })
    };
    let mut union: Bits = 0;
    for &m in parts {
        if m & union != 0 {
            return Err(violation(Player::Left, *b, ViolationKind::NotAPartition));
        }
        union |= m;
    }
    if union != r.cells(b) {
        return Err(violation(Player::Left, *b, ViolationKind::NotAPartition));
    }
    let mut moves = 0;
    for p in Player::BOTH {
        let mut whole = Vec::new();
        r.options(b, p, |o| whole.push(o));
        moves += whole.len() as u64;
        whole.sort_unstable();
        // Each part's own options, put back into the whole board.
        let mut own: Vec<Vec<Board>> = Vec::with_capacity(parts.len());
        for &m in parts {
            let mut v = Vec::new();
            let mut bad = None;
            r.options(&b.restrict(m), p, |o| match lift(b, &o, m) {
                Some(l) => v.push(l),
                None => bad = Some(o),
            });
            if let Some(o) = bad {
                return Err(violation(
                    p,
                    o,
                    ViolationKind::OutsidePartition {
                        cells: o.cells() & !m,
                    },
                ));
            }
            v.sort_unstable();
            own.push(v);
        }
        for o in &whole {
            let diff = changed(b, o);
            if diff & !union != 0 {
                return Err(violation(
                    p,
                    *o,
                    ViolationKind::OutsidePartition {
                        cells: diff & !union,
                    },
                ));
            }
            let mut touched = parts.iter().enumerate().filter(|(_, &m)| m & diff != 0);
            let first = touched.next();
            if let Some((_, &second)) = touched.next() {
                let first = first.map_or(0, |(_, &m)| m);
                return Err(violation(
                    p,
                    *o,
                    ViolationKind::CrossesRegions { first, second },
                ));
            }
            if let Some((k, &m)) = first {
                if own[k].binary_search(o).is_err() {
                    return Err(violation(p, *o, ViolationKind::ReadsOutside { region: m }));
                }
            }
        }
        for (k, v) in own.iter().enumerate() {
            for o in v {
                if whole.binary_search(o).is_err() {
                    return Err(violation(
                        p,
                        *o,
                        ViolationKind::BlockedOutside { region: parts[k] },
                    ));
                }
            }
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane};

    /// The Domineering-style pass ported naively to Konane: flood fill over
    /// the EMPTY cells by four-adjacency; each stone joins the first such
    /// region next to it (a stone next to none is a region of its own).
    fn empty_fill(b: &Board) -> Vec<Bits> {
        let e = b.layer(2);
        let mut left = e;
        let mut out: Vec<Bits> = Vec::new();
        while left != 0 {
            let seed = left & left.wrapping_neg();
            let comp = partizan_games::flood(seed, e, |s| b.neighbours4(s));
            left &= !comp;
            out.push(comp);
        }
        let mut stones = b.layer(0) | b.layer(1);
        let mut lonely = Vec::new();
        while stones != 0 {
            let s = stones & stones.wrapping_neg();
            stones &= stones - 1;
            let near = b.neighbours4(s);
            match out.iter_mut().find(|m| **m & e & near != 0) {
                Some(m) => *m |= s,
                None => lonely.push(s),
            }
        }
        out.extend(lonely);
        out
    }

    #[test]
    fn konane_empty_fill_is_unsound() {
        let k = Konane;
        // .xo.     The empty cells are the first and last columns: two
        // .ox.     regions by a fill over emptiness (each stone joining the
        // .xo.     empty column beside it), one by the rules' hops.
        let b = k.parse(".xo.|.ox.|.xo.").unwrap();
        let naive = empty_fill(&b);
        assert_eq!(naive.len(), 2);
        assert_eq!(naive[0], 0x333);
        assert_eq!(regions(&k, &b), vec![0xfff]);
        let err = check(&k, &b, &naive, 1_000).unwrap_err();
        assert_eq!(err.depth, 0);
        assert!(
            matches!(err.kind, ViolationKind::CrossesRegions { .. }),
            "{err}"
        );
        // Per node, too.
        assert!(check_with(&k, &b, 1_000, empty_fill).is_err());
        // The rule-derived partition passes, over the whole subtree.
        let ok = check(&k, &b, &regions(&k, &b), 100_000).unwrap();
        assert!(ok.complete);
    }

    #[test]
    fn konane_multiple_jump_reads_the_gap() {
        // xo.o.  A single empty cell does not separate: the double jump
        // lands beyond the second gap.
        let k = Konane;
        let b = k.parse("xo.o.").unwrap();
        let naive = vec![0b00111, 0b11000];
        let err = check(&k, &b, &naive, 1_000).unwrap_err();
        assert!(
            matches!(err.kind, ViolationKind::CrossesRegions { .. }),
            "{err}"
        );
        assert_eq!(err.after, "....x");
    }

    #[test]
    fn amazons_reads_through_a_queen_free_line() {
        // An arrow shot through a cell of another part is a read: split
        // "L..." into "L." and ".." and the move L->1, arrow 3 crosses.
        let a = Amazons;
        let b = a.parse("L...").unwrap();
        let err = check(&a, &b, &[0b0011, 0b1100], 1_000).unwrap_err();
        assert!(matches!(
            err.kind,
            ViolationKind::CrossesRegions { .. } | ViolationKind::ReadsOutside { .. }
        ));
    }

    #[test]
    fn not_a_partition() {
        let d = Domineering;
        let b = d.parse("...").unwrap();
        let err = check(&d, &b, &[0b011], 10).unwrap_err();
        assert_eq!(err.kind, ViolationKind::NotAPartition);
        let err = check(&d, &b, &[0b011, 0b110], 10).unwrap_err();
        assert_eq!(err.kind, ViolationKind::NotAPartition);
    }

    #[test]
    fn domineering_cut_through_a_domino() {
        let d = Domineering;
        let b = d.parse("..|..").unwrap();
        // Split by rows: Left's vertical dominoes cross.
        let err = check(&d, &b, &[0b0011, 0b1100], 100).unwrap_err();
        assert_eq!(err.player, Player::Left);
    }

    /// A small deterministic generator (xorshift) for random positions.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_board(rng: &mut Rng, kinds: usize, w: usize, h: usize, holes: u64) -> Board {
        let mut layers = [0; 3];
        for i in 0..w * h {
            if rng.below(100) < holes {
                continue;
            }
            layers[rng.below(kinds as u64) as usize] |= 1u128 << i;
        }
        Board::new(w, h, layers).unwrap()
    }

    fn random_positions_sound<R: Ruleset>(r: &R, kinds: usize, seed: u64, budget: u64) {
        let mut rng = Rng(seed);
        for _ in 0..12 {
            let w = 2 + rng.below(4) as usize;
            let h = 2 + rng.below(3) as usize;
            let b = random_board(&mut rng, kinds, w, h, 30);
            let parts = regions(r, &b);
            if let Err(e) = check(r, &b, &parts, budget) {
                panic!("{}: {e}", r.name());
            }
            // Re-taking the ruleset's partition at every node agrees.
            if let Err(e) = check_with(r, &b, budget / 4, |x| regions(r, x)) {
                panic!("{}: {e}", r.name());
            }
        }
    }

    #[test]
    fn random_positions_are_sound() {
        random_positions_sound(&Domineering, 1, 0x9e37_79b9_7f4a_7c15, 4_000);
        random_positions_sound(&Cram, 1, 0x2545_f491_4f6c_dd1d, 4_000);
        random_positions_sound(&Clobber, 2, 0x1234_5678_9abc_def1, 4_000);
        random_positions_sound(&Konane, 3, 0x0fed_cba9_8765_4321, 4_000);
        random_positions_sound(&Amazons, 3, 0x5555_aaaa_3333_cccc, 1_000);
    }

    /// Boards that only fall apart: every descendant's regions refine the
    /// root's.
    fn falls_apart<R: Ruleset>(r: &R, text: &str) {
        assert!(r.only_falls_apart());
        let b = r.parse(text).unwrap();
        let root = regions(r, &b);
        let mut seen = FxHashSet::default();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if seen.len() > 3_000 {
                break;
            }
            for part in regions(r, &x) {
                assert!(
                    root.iter().any(|m| part & !m == 0),
                    "{} below {}",
                    r.format(&x),
                    r.format(&b)
                );
            }
            for p in Player::BOTH {
                r.options(&x, p, |o| {
                    if seen.insert(o) {
                        stack.push(o);
                    }
                });
            }
        }
    }

    #[test]
    fn only_falls_apart_holds() {
        falls_apart(&Domineering, "..#..|..#..|.....");
        falls_apart(&Clobber, "xox.o|oxox.|.o.xx");
        falls_apart(&Konane, "xo.#x|.x.o.|o.#x.");
        falls_apart(&Amazons, "L.#..|..#.R|.#...");
    }
}
