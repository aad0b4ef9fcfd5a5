//! Every first move of a board judged (`partizan outcome --moves`,
//! `Board.outcome_report(moves=True)`): which of a player's first moves win,
//! each by an outcome search of the position after it with the opponent
//! to move. A move whose position folds to the same representative as one
//! judged before (`solve::regions::canonical_key`, the value solver's own
//! fold: cropped, then an image under a symmetry of the rules — a
//! reflection of a Domineering board; a transpose, which swaps the
//! players, so that on a square Right's moves are Left's) takes that
//! move's answer without a search.

use partizan_games::{Board, Player};
use partizan_solve::regions::canonical_key;
use partizan_solve::search::{solve, Control, First, Knowledge, SearchConfig, SearchError};
use serde::Serialize;
use std::collections::HashMap;

/// One first move and whether it wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JudgedMove {
    /// The cells the move changes, as `[row, column]`, 1-based.
    pub cells: Vec<[usize; 2]>,
    /// The board after the move.
    pub board: String,
    /// Whether the move wins (the opponent, moving next, loses).
    pub wins: bool,
    /// Nodes the search of the position after the move took (0 when the
    /// answer is a mirror image's).
    pub nodes: u64,
    /// The move whose position folds to the same as this one's (a mirror
    /// image of it), when its answer was taken from there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mirror_of: Option<MirrorOf>,
}

/// Where a judged move's answer came from: the first player whose list
/// holds that move, and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MirrorOf {
    /// `"left"` or `"right"`.
    pub player: &'static str,
    /// The index in that player's list.
    pub index: usize,
}

/// Each searched first player's moves, in the rules' move order (a first
/// player left out of the search, `--first`, is absent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FirstMoves {
    /// Left's first moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<JudgedMove>>,
    /// Right's first moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<Vec<JudgedMove>>,
}

impl FirstMoves {
    /// The text form: per player, how many moves win, and which (see
    /// [`move_text`]; `ruleset` and `board` are the position's).
    pub fn render_text(&self, ruleset: &str, board: &str) -> String {
        let mut s = String::new();
        for (name, moves) in [("Left", &self.left), ("Right", &self.right)] {
            let Some(moves) = moves else { continue };
            let winning: Vec<String> = moves
                .iter()
                .filter(|m| m.wins)
                .map(|m| move_text(ruleset, board, &m.cells, &m.board))
                .collect();
            s.push_str(&format!(
                "{name}'s first moves: {} of {} win{}{}\n",
                winning.len(),
                moves.len(),
                if winning.is_empty() { "" } else { ": " },
                winning.join(" ")
            ));
        }
        s
    }
}

/// A move from `before` to `after` as a reader names it: on a grid the
/// cells it changes (`r1c2-r2c2`); on a graph (Hackenbush, Snort, Col on
/// graphs, whose cells are those of an internal grid) the vertex or edge
/// played (`vertex 2`, `edge 1-3`, by the labels of the edge list), or,
/// failing that, the position it leads to.
pub fn move_text(ruleset: &str, before: &str, cells: &[[usize; 2]], after: &str) -> String {
    use partizan_games::graph_view::{graph_view, is_graph};
    let Some(rules) = partizan_games::Rules::from_name(ruleset)
        .ok()
        .filter(|&r| is_graph(r))
    else {
        return cells_text(cells);
    };
    let parsed = partizan_games::with_rules!(rules, |r| (r.parse(before), r.parse(after)));
    let (Ok(before), Ok(after_board)) = parsed else {
        return format!("to {after}");
    };
    let Some(view) = graph_view(rules, &before) else {
        return format!("to {after}");
    };
    let leads = |m: &partizan_games::graph_view::Moves| {
        m.left == Some(after_board) || m.right == Some(after_board)
    };
    if let Some(v) = view.vertices.iter().find(|v| leads(&v.moves)) {
        return format!("vertex {}", v.label);
    }
    if let Some(e) = view.edges.iter().find(|e| leads(&e.moves)) {
        let (a, b) = e.ends;
        return format!("edge {}-{}", view.vertices[a].label, view.vertices[b].label);
    }
    format!("to {after}")
}

/// Judge every first move of `board` for each first player `config.first`
/// names: one outcome search per position after a move (the opponent
/// moving first there), under `config` (its table size, budget and
/// convention; one first player, no nimber) and `control` (a stop flag
/// stops the whole judgement with the search's error). `judging` hears,
/// before each search, whose move it is for and which (1-based, of how
/// many).
pub fn judge_first_moves<R: Knowledge>(
    r: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    judging: &mut dyn FnMut(Player, usize, usize),
) -> Result<FirstMoves, SearchError> {
    let mut out = FirstMoves::default();
    // Each position judged, folded, with the player to move there (the
    // other one when the fold negates): whether they win, and where it
    // was judged.
    let mut seen: HashMap<(Board, bool), (bool, MirrorOf)> = HashMap::new();
    for p in [Player::Left, Player::Right] {
        if !config.first.includes(p) {
            continue;
        }
        let opp = p.opponent();
        let mut cfg = *config;
        cfg.first = match opp {
            Player::Left => First::Left,
            Player::Right => First::Right,
        };
        cfg.nimber = false;
        let mut children = Vec::new();
        r.options(board, p, |b| children.push(b));
        let mut judged: Vec<JudgedMove> = Vec::with_capacity(children.len());
        let name = match p {
            Player::Left => "left",
            Player::Right => "right",
        };
        for child in &children {
            let (folded, negates) = canonical_key(r, child);
            let key = (folded, (opp == Player::Left) != negates);
            let (wins, nodes, mirror_of) = match seen.get(&key) {
                Some(&(opp_wins, from)) => (!opp_wins, 0, Some(from)),
                None => {
                    judging(p, judged.len() + 1, children.len());
                    let rep = solve(r, child, &cfg, control)?;
                    let fp = match opp {
                        Player::Left => &rep.left,
                        Player::Right => &rep.right,
                    };
                    let here = MirrorOf {
                        player: name,
                        index: judged.len(),
                    };
                    seen.insert(key, (fp.wins, here));
                    (!fp.wins, fp.counts.nodes, None)
                }
            };
            judged.push(JudgedMove {
                cells: move_cells(board, child),
                board: r.format(child),
                wins,
                nodes,
                mirror_of,
            });
        }
        match p {
            Player::Left => out.left = Some(judged),
            Player::Right => out.right = Some(judged),
        }
    }
    Ok(out)
}

pub use partizan_solve::search::{cells_text, move_cells};

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Clobber, Domineering, Ruleset};
    use partizan_solve::outcome::{wins_plain, Convention};

    /// Brute force: a move wins when the plain search says the opponent,
    /// moving next, loses.
    fn twin<R: Knowledge>(r: &R, text: &str, conv: Convention) {
        let b = r.parse(text).unwrap();
        let cfg = SearchConfig::for_ruleset(r, conv);
        let fm = judge_first_moves(r, &b, &cfg, &Control::default(), &mut |_, _, _| {}).unwrap();
        let mut memo = Default::default();
        for (p, moves) in [(Player::Left, &fm.left), (Player::Right, &fm.right)] {
            let moves = moves.as_ref().unwrap();
            let mut children = Vec::new();
            r.options(&b, p, |c| children.push(c));
            assert_eq!(moves.len(), children.len(), "{text}");
            for (m, c) in moves.iter().zip(&children) {
                let plain = !wins_plain(r, conv, c, p.opponent(), &mut memo);
                assert_eq!(m.wins, plain, "{} {text} {p:?} {}", r.name(), m.board);
                assert_eq!(m.board, r.format(c));
                if let Some(from) = m.mirror_of {
                    let list = if from.player == "left" {
                        &fm.left
                    } else {
                        &fm.right
                    };
                    let source = &list.as_ref().unwrap()[from.index];
                    assert!(source.mirror_of.is_none() && source.wins == m.wins);
                    assert_eq!(m.nodes, 0);
                }
            }
            // A first player wins exactly when some first move wins.
            let rep = solve(r, &b, &cfg, &Control::default()).unwrap();
            let wins = match p {
                Player::Left => rep.left.wins,
                Player::Right => rep.right.wins,
            };
            assert_eq!(moves.iter().any(|m| m.wins), wins, "{text} {p:?}");
        }
    }

    #[test]
    fn every_first_move_is_judged_as_brute_force_judges_it() {
        for conv in [Convention::Normal, Convention::Misere] {
            for text in [
                "....|....|....",
                "...|...|...",
                ".....|.....",
                "..#.|....|.#..|....",
            ] {
                twin(&Domineering, text, conv);
            }
            for text in ["xox|oxo|xox", "xoxo|oxox", "xo.x|oxox"] {
                twin(&Clobber, text, conv);
            }
        }
    }

    #[test]
    fn mirror_images_are_answered_once_and_rendered() {
        // 4 x 4 Domineering: Left's 12 moves.
        let b = Domineering.parse("....|....|....|....").unwrap();
        let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        cfg.first = First::Left;
        let mut heard = Vec::new();
        let fm = judge_first_moves(
            &Domineering,
            &b,
            &cfg,
            &Control::default(),
            &mut |p, k, n| heard.push((p, k, n)),
        )
        .unwrap();
        assert!(fm.right.is_none());
        let left = fm.left.unwrap();
        assert_eq!(left.len(), 12);
        // Under the reflections that keep the players (rows, columns, the
        // half turn), a vertical domino falls in one of four classes: on
        // the middle two rows or not, in a middle column or not.
        let searched = left.iter().filter(|m| m.mirror_of.is_none()).count();
        assert_eq!(searched, 4);
        // Told before each search: whose move, which, of how many.
        assert_eq!(heard.len(), 4);
        assert!(heard
            .iter()
            .all(|&(p, k, n)| p == Player::Left && (1..=12).contains(&k) && n == 12));
        assert_eq!(heard[0].1, 1);
        // Both players: on the square, Right's moves are Left's transposed
        // (a transpose swaps the players), so none is searched again.
        cfg.first = First::Both;
        let fm = judge_first_moves(
            &Domineering,
            &b,
            &cfg,
            &Control::default(),
            &mut |_, _, _| {},
        )
        .unwrap();
        let right = fm.right.unwrap();
        assert!(right
            .iter()
            .all(|m| m.mirror_of.is_some_and(|f| f.player == "left")));
        assert_eq!(
            right.iter().filter(|m| m.wins).count(),
            fm.left.unwrap().iter().filter(|m| m.wins).count()
        );
        let text = FirstMoves {
            left: Some(left.clone()),
            right: None,
        }
        .render_text("domineering", "");
        let wins = left.iter().filter(|m| m.wins).count();
        assert!(
            text.starts_with(&format!("Left's first moves: {wins} of 12 win")),
            "{text}"
        );
    }
}
