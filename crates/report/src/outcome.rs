//! The outcome search's answer ([`OutcomeReport`]): who wins a board for
//! each first player, with a winning first move, counts and table figures.
//! The field names are those `partizan outcome --json` prints, so the site's
//! `/api/outcome` and the command line read alike.

use partizan_games::{Board, Ruleset};
use partizan_solve::outcome::Convention;
pub use partizan_solve::search::Resumed;
use partizan_solve::search::{
    changed_cells, solve, Control, FirstPlayer, Knowledge, SearchConfig, SearchCounts, SearchError,
    SearchReport, TableStats,
};
use serde::Serialize;

/// A winning first move: the cells it changes (1-based row, column) and
/// the board after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinningMove {
    /// The cells the move changes, as `[row, column]`, 1-based, top row first.
    pub cells: Vec<[usize; 2]>,
    /// The board after the move.
    pub board: String,
}

/// One first player's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstPlayerReport {
    /// Whether the player moving first wins.
    pub wins: bool,
    /// A winning first move, when they win.
    #[serde(rename = "move")]
    pub winning_move: Option<WinningMove>,
    /// Nodes searched for this first player.
    pub nodes: u64,
    /// What the search did.
    pub counts: SearchCounts,
    /// Wall time, milliseconds.
    pub time_ms: f64,
}

/// Both first players' answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstPlayers {
    /// Left moving first.
    pub left: FirstPlayerReport,
    /// Right moving first.
    pub right: FirstPlayerReport,
}

/// Who wins a board, by the outcome search (`partizan outcome --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeReport {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// Normal or misère play.
    pub convention: Convention,
    /// The outcome class: L, R, N or P.
    pub outcome: &'static str,
    /// Left wins moving first.
    pub left_first_wins: bool,
    /// Right wins moving first.
    pub right_first_wins: bool,
    /// Each first player's answer.
    pub first_players: FirstPlayers,
    /// Both first players' counts together.
    pub stats: SearchCounts,
    /// The transposition table after the search.
    pub table: TableStats,
    /// The configuration used.
    pub config: SearchConfig,
    /// Wall time of the whole search, milliseconds.
    pub time_ms: f64,
    /// Answered from the persistent store (no search: every count is 0).
    pub from_store: bool,
    /// What a resumed search took over from its checkpoint
    /// (`partizan outcome --checkpoint FILE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed: Option<Resumed>,
}

fn first_player<R: Ruleset>(r: &R, root: &Board, fp: &FirstPlayer) -> FirstPlayerReport {
    FirstPlayerReport {
        wins: fp.wins,
        winning_move: fp.winning_move.as_ref().map(|after| WinningMove {
            cells: changed_cells(root, after)
                .into_iter()
                .map(|(row, col)| [row + 1, col + 1])
                .collect(),
            board: r.format(after),
        }),
        nodes: fp.counts.nodes,
        counts: fp.counts,
        time_ms: fp.elapsed.as_secs_f64() * 1e3,
    }
}

impl OutcomeReport {
    /// The report of a finished search of `board`.
    pub fn of<R: Ruleset>(r: &R, board: &Board, rep: &SearchReport) -> OutcomeReport {
        OutcomeReport {
            ruleset: r.name(),
            board: r.format(board),
            convention: rep.config.convention,
            outcome: rep.outcomes.class(),
            left_first_wins: rep.outcomes.left_first,
            right_first_wins: rep.outcomes.right_first,
            first_players: FirstPlayers {
                left: first_player(r, board, &rep.left),
                right: first_player(r, board, &rep.right),
            },
            stats: rep.total(),
            table: rep.table,
            config: rep.config,
            time_ms: rep.elapsed.as_secs_f64() * 1e3,
            from_store: false,
            resumed: None,
        }
    }
}

/// Search who wins `board` under `config` and `control` (a stop flag, a
/// node budget in `config.max_nodes`): the report, or the search's error
/// (a stopped or over-budget search is an error, never a guess).
pub fn board_outcome<R: Knowledge>(
    r: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
) -> Result<OutcomeReport, SearchError> {
    let rep = solve(r, board, config, control)?;
    Ok(OutcomeReport::of(r, board, &rep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::Domineering;

    #[test]
    fn field_names_are_the_command_lines() {
        let b = Domineering.parse("...|...").unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let rep = board_outcome(&Domineering, &b, &cfg, &Control::default()).unwrap();
        // {2|-1/2} is a first-player win.
        assert_eq!(rep.outcome, "N");
        let v = serde_json::to_value(&rep).unwrap();
        for k in [
            "convention",
            "outcome",
            "left_first_wins",
            "right_first_wins",
            "first_players",
            "stats",
            "table",
            "config",
            "time_ms",
        ] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        let left = &v["first_players"]["left"];
        assert_eq!(left["wins"], true);
        assert_eq!(left["move"]["cells"].as_array().unwrap().len(), 2);
        assert!(left["nodes"].as_u64().is_some());
    }

    #[test]
    fn a_node_budget_is_an_error_not_a_guess() {
        // The budget is looked at every 4,096 nodes: 8x8 needs millions.
        let b = Domineering
            .parse("........|........|........|........|........|........|........|........")
            .unwrap();
        let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        cfg.max_nodes = Some(50);
        cfg.table_bytes = 1 << 20;
        let e = board_outcome(&Domineering, &b, &cfg, &Control::default()).unwrap_err();
        assert!(matches!(e, SearchError::Budget(50)), "{e}");
    }
}
