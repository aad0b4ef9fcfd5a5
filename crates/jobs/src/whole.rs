//! The whole certificate of a job-level search: one proof of the root
//! that `partizan check` accepts on its own, made of the master's tree
//! and the checked certificates of the decided jobs below it ([`Kept`]).
//!
//! It is a certificate made of parts (`partizan-certificate 3`, see
//! `partizan_check`'s documentation): the top part is the tree's proof on
//! whole positions (where the claimed winner moves, a record of the
//! child the tree has decided for the winner; where the loser moves, every
//! child, which the checker replays by itself), and each decided leaf the
//! proof reaches is a part: that job's certificate, with the settings it
//! was written with. A job's proof is never merged into another's (their
//! positions may be split differently), so composing is writing the
//! tree's records and then each kept certificate in turn, a line at a
//! time.
//!
//! ```text
//! partizan-certificate 3                       the root, both claims
//! ...
//! move  L  <root>  0  board  <child>            the tree: the winner's moves
//! part  R  <child's child>  loses  value-cells 0  positions whole  cutoffs bounds
//! move  ...                                      that job's records
//! part  ...
//! ```

use std::collections::HashSet;
use std::io::Write;

use partizan_check::{CertReader, Claims, Convention, Header, Part, RecordRef};
use partizan_games::{Board, Player, Ruleset};
use serde::Serialize;

use crate::kept::Kept;
use crate::tree::{distinct_options, State, Tree};

/// What a whole certificate holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WholeReport {
    /// Records of the tree's part (the winner's moves in the tree).
    pub tree_records: u64,
    /// Parts: decided jobs' certificates.
    pub parts: u64,
    /// Records of the parts.
    pub part_records: u64,
}

/// A decided leaf the proof needs.
struct Leaf {
    board: Board,
    mover: Player,
    mover_wins: bool,
    /// Which search's certificates hold it.
    search: usize,
}

/// Write the whole certificate of `searches` (each a decided tree of the
/// same root, one per first player, and where its leaves' certificates
/// are kept) to `out`, a line at a time.
pub fn write_whole<R: Ruleset>(
    rules: &R,
    searches: &[(&Tree, &Kept)],
    out: &mut dyn Write,
) -> Result<WholeReport, String> {
    let Some((first_tree, _)) = searches.first() else {
        return Err("no search to write a certificate of".into());
    };
    let root = first_tree.nodes[0].board;
    let mut claims = Claims {
        left_first: None,
        right_first: None,
    };
    let mut records: Vec<(Board, Player, Board)> = Vec::new();
    let mut recorded: HashSet<(Board, Player)> = HashSet::new();
    let mut leaves: Vec<Leaf> = Vec::new();
    let mut parted: HashSet<(Board, Player)> = HashSet::new();
    for (s, (tree, _)) in searches.iter().enumerate() {
        if tree.nodes[0].board != root {
            return Err("the searches are of different boards".into());
        }
        let Some(first_wins) = tree.result() else {
            return Err("a search is not decided: no certificate".into());
        };
        match tree.first {
            Player::Left => claims.left_first = Some(first_wins),
            Player::Right => claims.right_first = Some(first_wins),
        }
        // The proof: the winner's one decided child, the loser's every one.
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &tree.nodes[n];
            let Some(fw) = tree.first_wins_at(n) else {
                return Err(format!(
                    "inconsistent tree: an undecided position in the proof ({})",
                    rules.format(&node.board)
                ));
            };
            let mover_wins = fw == (node.mover == tree.first);
            match node.state {
                State::Solved => {
                    let terminal = distinct_options(rules, &node.board, node.mover).is_empty();
                    if !terminal && parted.insert((node.board, node.mover)) {
                        leaves.push(Leaf {
                            board: node.board,
                            mover: node.mover,
                            mover_wins,
                            search: s,
                        });
                    }
                }
                State::Expanded if mover_wins => {
                    let Some(&c) = node
                        .children
                        .iter()
                        .find(|&&c| tree.first_wins_at(c as usize) == Some(fw))
                    else {
                        return Err("inconsistent tree: no decided winning child".into());
                    };
                    if recorded.insert((node.board, node.mover)) {
                        records.push((node.board, node.mover, tree.nodes[c as usize].board));
                    }
                    stack.push(c as usize);
                }
                State::Expanded => stack.extend(node.children.iter().map(|&c| c as usize)),
                State::Fresh | State::Pending => {
                    return Err("inconsistent tree: an open leaf in the proof".into())
                }
            }
        }
    }
    let header = Header {
        ruleset: rules.name().to_string(),
        convention: Convention::Normal,
        value_cells: 0,
        whole: true,
        bounds: true,
        fine: false,
        board: rules.format(&root),
        claims,
    };
    let io = |e: std::io::Error| format!("cannot write the certificate: {e}");
    header.write_with_parts(out).map_err(io)?;
    let mut rep = WholeReport::default();
    for (b, mover, to) in &records {
        RecordRef {
            mover: *mover,
            board: &rules.format(b),
            tail: "0",
            on_board: true,
            to: &rules.format(to),
        }
        .write(out)
        .map_err(io)?;
        rep.tree_records += 1;
    }
    for leaf in &leaves {
        let kept = searches[leaf.search].1;
        let what = || {
            format!(
                "the kept certificate of {} ({} to move) in {}",
                rules.format(&leaf.board),
                if leaf.mover == Player::Left {
                    "Left"
                } else {
                    "Right"
                },
                kept.dir().display()
            )
        };
        let Some(text) = kept.open_leaf(rules, &leaf.board, leaf.mover)? else {
            return Err(format!(
                "{} is missing: run again to search it again",
                what()
            ));
        };
        let mut reader = CertReader::new(text).map_err(|e| format!("{}: {e}", what()))?;
        let h = reader.header().clone();
        let same = reader.version() < 3
            && rules.parse(&h.board).is_ok_and(|b| b == leaf.board)
            && h.ruleset == rules.name()
            && h.convention == Convention::Normal
            && h.claims.of(leaf.mover) == Some(leaf.mover_wins)
            && h.claims.of(leaf.mover.opponent()).is_none();
        if !same {
            return Err(format!("{} is of another claim", what()));
        }
        Part::of(&h, leaf.mover, leaf.mover_wins)
            .write(out)
            .map_err(io)?;
        let mut failed = None;
        let n = reader
            .read_records(|r, _| {
                r.write(out).map_err(|e| {
                    failed = Some(io(e));
                    partizan_check::CertError::Stopped
                })
            })
            .map_err(|e| failed.take().unwrap_or_else(|| format!("{}: {e}", what())))?;
        rep.part_records += n;
        rep.parts += 1;
    }
    out.flush().map_err(io)?;
    Ok(rep)
}
