//! The outcome search's answer ([`OutcomeReport`]): who wins a board for
//! each first player, with a winning first move, counts and table figures.
//! The field names are those `partizan outcome --json` prints, so the site's
//! `/api/outcome` and the command line read alike.
//!
//! [`outcome_through_store`] is the one way every front end asks the
//! persistent store: a whole board solved before is answered from its
//! stored outcome (0 nodes, `from_store`), once the row has passed the
//! store's checksum and this module's checks against the rules (every
//! stored move is a move of the board; a win without a move only where the
//! rules allow one); anything else is searched and saved.
//!
//! A search of one first player only ([`SearchConfig::first`]) knows no
//! outcome class: its report says `outcome: null` and leaves the other
//! first player out, and it is never stored (a stored row is a whole
//! board's outcome, with no way to say that one side is missing); a
//! stored whole-board outcome still answers it.

use std::fmt::Write as _;
use std::time::Duration;

use partizan_games::{Board, Player, Ruleset};
use partizan_solve::outcome::Convention;
pub use partizan_solve::search::Resumed;
use partizan_solve::search::{
    solve, Control, First, FirstPlayer, Knowledge, SearchConfig, SearchCounts, SearchError,
    SearchReport, TableStats,
};
use partizan_store::{OutcomeRead, Store, StoredOutcome};
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

/// Both first players' answers (a first player left out of the search,
/// `--first`, is absent).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstPlayers {
    /// Left moving first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<FirstPlayerReport>,
    /// Right moving first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<FirstPlayerReport>,
}

/// A search its budget stopped before it decided: nothing is claimed
/// (`"decided": false`, `"outcome": null`). The command line prints it
/// under `--json` (exit code 3) and the site's `/api/outcome` answers it,
/// beside its budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Undecided {
    /// Always `false`.
    pub decided: bool,
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// Normal or misère play.
    pub convention: Convention,
    /// Always `null`: no outcome is claimed.
    pub outcome: Option<&'static str>,
    /// Which limit stopped it.
    pub reason: String,
    /// Nodes searched before it stopped.
    pub nodes: u64,
}

impl Undecided {
    /// `board` of `r`, stopped by `reason` after `nodes` nodes.
    pub fn new<R: Ruleset>(
        r: &R,
        board: &Board,
        convention: Convention,
        reason: impl Into<String>,
        nodes: u64,
    ) -> Undecided {
        Undecided {
            decided: false,
            ruleset: r.name(),
            board: r.format(board),
            convention,
            outcome: None,
            reason: reason.into(),
            nodes,
        }
    }

    /// The text form: one line saying that nothing is decided, and why.
    pub fn render_text(&self) -> String {
        format!("undecided: {}; nothing is claimed\n", self.reason)
    }
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
    /// The outcome class: L, R, N or P; `None` (`null`) when only one
    /// first player was searched.
    pub outcome: Option<&'static str>,
    /// Which first players were searched: both, left or right.
    pub first: First,
    /// Left wins moving first (`null`: not searched).
    pub left_first_wins: Option<bool>,
    /// Right wins moving first (`null`: not searched).
    pub right_first_wins: Option<bool>,
    /// Each first player's answer.
    pub first_players: FirstPlayers,
    /// Both first players' counts together.
    pub stats: SearchCounts,
    /// The transposition table after the search.
    pub table: TableStats,
    /// The configuration used.
    pub config: SearchConfig,
    /// The position's nimber (impartial rulesets under normal play, when
    /// asked: `partizan outcome --nimber`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nimber: Option<u32>,
    /// Wall time of the whole search, milliseconds.
    pub time_ms: f64,
    /// Answered from the persistent store (no search: every count is 0).
    pub from_store: bool,
    /// The search's answer was written to the persistent store.
    pub saved_to_store: bool,
    /// What the store did that the reader should know: a stored row found
    /// damaged or implausible (and searched again), a failed write.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What a resumed search took over from its checkpoint
    /// (`partizan outcome --checkpoint FILE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed: Option<Resumed>,
    /// Every first move judged, when asked (`partizan outcome --moves`;
    /// [`crate::moves::judge_first_moves`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_moves: Option<crate::moves::FirstMoves>,
}

fn first_player<R: Ruleset>(r: &R, root: &Board, fp: &FirstPlayer) -> FirstPlayerReport {
    FirstPlayerReport {
        wins: fp.wins,
        winning_move: fp.winning_move.as_ref().map(|after| WinningMove {
            cells: crate::moves::move_cells(root, after),
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
            outcome: rep.class(),
            first: rep.config.first,
            left_first_wins: rep.searched(Player::Left).then_some(rep.left.wins),
            right_first_wins: rep.searched(Player::Right).then_some(rep.right.wins),
            first_players: FirstPlayers {
                left: rep
                    .searched(Player::Left)
                    .then(|| first_player(r, board, &rep.left)),
                right: rep
                    .searched(Player::Right)
                    .then(|| first_player(r, board, &rep.right)),
            },
            stats: rep.total(),
            table: rep.table,
            config: rep.config,
            nimber: rep.nimber,
            time_ms: rep.elapsed.as_secs_f64() * 1e3,
            from_store: false,
            saved_to_store: false,
            warnings: Vec::new(),
            resumed: None,
            first_moves: None,
        }
    }

    /// The text form (`partizan outcome`): the class, each first player's
    /// answer with its winning move, and the table's figures.
    pub fn render_text(&self) -> String {
        let mut s = match self.outcome {
            Some(class) => format!("{class}\n"),
            None => {
                "outcome class unknown: only one first player was searched (--first)\n".to_string()
            }
        };
        if let Some(n) = self.nimber {
            let _ = writeln!(s, "nimber: {}", nimber_text(n));
        }
        for (name, fp) in [
            ("Left", &self.first_players.left),
            ("Right", &self.first_players.right),
        ] {
            let Some(fp) = fp else {
                let _ = writeln!(s, "{name} first: not searched");
                continue;
            };
            let how = if self.from_store {
                "from store".to_string()
            } else {
                format!(
                    "{} nodes, {:.2?}",
                    fp.nodes,
                    Duration::from_secs_f64(fp.time_ms / 1e3)
                )
            };
            let mv = match (fp.wins, &fp.winning_move) {
                (false, _) => String::new(),
                (true, Some(m)) => format!(
                    " with {}",
                    crate::moves::move_text(self.ruleset, &self.board, &m.cells, &m.board)
                ),
                (true, None) => " with (no move needed)".to_string(),
            };
            let _ = writeln!(
                s,
                "{name} first: {}{mv}  ({how})",
                if fp.wins { "wins" } else { "loses" }
            );
        }
        if let Some(fm) = &self.first_moves {
            s.push_str(&fm.render_text(self.ruleset, &self.board));
        }
        if let Some(res) = &self.resumed {
            let _ = writeln!(
                s,
                "checkpoint {}: resumed after {} run(s) and {} nodes with {} entries; {} nodes this run; {} entries saved",
                res.file,
                res.sessions,
                res.nodes_before,
                res.entries_loaded,
                res.nodes_now,
                res.entries_saved
            );
        }
        if !self.from_store {
            let t = &self.table;
            let _ = writeln!(
                s,
                "table: {} of {} entries, {} hits in {} probes; {:.2?}",
                t.filled,
                t.capacity,
                t.hits,
                t.probes,
                Duration::from_secs_f64(self.time_ms / 1e3)
            );
        }
        s
    }
}

impl OutcomeReport {
    /// The answer drawn for a paper, as SVG and as TikZ (one drawing): the
    /// title (the ruleset, the size and the outcome class), then one panel
    /// per first player searched — the board with that player's winning
    /// first move marked in their colour (every winning first move, when
    /// they were all judged: `--moves`) — each with its caption.
    /// `rules` is the report's ruleset.
    pub fn picture(
        &self,
        rules: partizan_games::Rules,
    ) -> Result<(String, String), crate::ReportError> {
        use crate::picture::{self, Mark};
        if partizan_games::graph_view::is_graph(rules) {
            return Err(crate::ReportError::Picture(format!(
                "{} positions are graphs, and an answer is drawn on a board (partizan draw {} draws the graph)",
                rules.name(),
                rules.name()
            )));
        }
        let base = picture::board_drawing(rules, &self.board)?;
        let index = |[r, c]: [usize; 2]| (r - 1) * base.width + (c - 1);
        let mut panels = Vec::new();
        for (name, left, fp) in [
            ("Left", true, &self.first_players.left),
            ("Right", false, &self.first_players.right),
        ] {
            let Some(fp) = fp else { continue };
            let mut d = base.clone();
            d.cell_px = 36.0;
            let judged = self.first_moves.as_ref().and_then(|m| {
                if left {
                    m.left.as_ref()
                } else {
                    m.right.as_ref()
                }
            });
            let caption = match (judged, fp.wins, &fp.winning_move) {
                (Some(moves), _, _) => {
                    let winning: Vec<_> = moves.iter().filter(|m| m.wins).collect();
                    for m in &winning {
                        d.marks.push(Mark {
                            cells: m.cells.iter().map(|&c| index(c)).collect(),
                            left,
                        });
                    }
                    format!(
                        "{name} first: {} of {} first moves win",
                        winning.len(),
                        moves.len()
                    )
                }
                (None, true, Some(m)) => {
                    d.marks.push(Mark {
                        cells: m.cells.iter().map(|&c| index(c)).collect(),
                        left,
                    });
                    format!("{name} first wins with {}", m.cells_text())
                }
                (None, true, None) => format!("{name} first wins"),
                (None, false, _) => format!("{name} first loses"),
            };
            panels.push((d, caption));
        }
        let class = match self.outcome {
            Some("L") => "L: Left wins",
            Some("R") => "R: Right wins",
            Some("N") => "N: the first player wins",
            Some(_) => "P: the second player wins",
            None => "one first player searched",
        };
        let title = format!(
            "{} {} x {}{}, {class}{}",
            self.ruleset,
            base.height,
            base.width,
            match self.convention {
                Convention::Normal => "",
                Convention::Misere => " (misère)",
            },
            self.nimber
                .map(|n| format!(" (nimber {})", nimber_text(n)))
                .unwrap_or_default()
        );
        const PAD: f64 = 10.0;
        const GAP: f64 = 24.0;
        let widths: Vec<f64> = panels
            .iter()
            .map(|(d, c)| d.size().0.max(c.chars().count() as f64 * 6.6))
            .collect();
        let board_h = panels.first().map_or(0.0, |(d, _)| d.size().1);
        let width =
            (PAD * 2.0 + widths.iter().sum::<f64>() + GAP * (widths.len().max(1) - 1) as f64)
                .max(PAD * 2.0 + title.chars().count() as f64 * 7.5);
        let height = PAD + 24.0 + board_h + 22.0 + PAD;
        let mut svg =
            picture::Svg::new(width, height).attr("font-family=\"Helvetica, Arial, sans-serif\"");
        svg.rect(0.0, 0.0, width, height, "#ffffff", "");
        svg.text(PAD, PAD + 14.0, &title, 14.0, "start", "");
        let mut x = PAD;
        for ((d, caption), w) in panels.iter().zip(&widths) {
            d.draw(&mut svg, x + (w - d.size().0) / 2.0, PAD + 24.0);
            svg.text(
                x + w / 2.0,
                PAD + 24.0 + board_h + 14.0,
                caption,
                11.0,
                "middle",
                "fill=\"#4c566a\"",
            );
            x += w + GAP;
        }
        Ok(svg.finish_both())
    }
}

impl WinningMove {
    /// The cells the move changes as `r1c2-r2c2` (1-based).
    pub fn cells_text(&self) -> String {
        crate::moves::cells_text(&self.cells)
    }
}

/// The default transposition table of an outcome search of a board of
/// `cells` cells, MB: small boards need little (16 MB up to 20 cells);
/// bigger ones may grow to a quarter of the available memory, within
/// `max_memory` (the command's budget in MB, less 64 MB for the rest). The
/// table starts at 1 MB and doubles as it fills, so a large default costs
/// nothing a search does not use: Domineering 8 x 8 ends in 16 MB, 9 x 9
/// wants gigabytes. The command line, the site's callers and Python all
/// take it from here.
pub fn default_table_mb(cells: u32, max_memory: Option<u64>) -> u64 {
    let by_machine = available_bytes().map_or(1024, |b| (b >> 20) / 4);
    let by_limit = max_memory.map_or(u64::MAX, |m| m.saturating_sub(64));
    // (a 30-cell Clobber 5 x 6 fills 16 MB in a minute: only boards that
    // cannot are capped)
    let by_board = if cells <= 20 { 16 } else { u64::MAX };
    by_board.min(by_machine).min(by_limit).max(8)
}

/// Available memory in bytes (Linux), if known.
fn available_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// How a front end uses the persistent store for outcomes.
#[derive(Clone, Copy, Debug, Default)]
pub struct OutcomeStore<'a> {
    /// The store, if any.
    pub store: Option<&'a Store>,
    /// Answer from a valid stored outcome (off when the caller needs the
    /// search itself, e.g. for a certificate).
    pub read: bool,
    /// Save a searched answer (off for a read-only store).
    pub write: bool,
}

impl<'a> OutcomeStore<'a> {
    /// No store: always search, save nothing.
    pub fn none() -> OutcomeStore<'static> {
        OutcomeStore::default()
    }

    /// Read `store`, and add to it unless it was opened read-only.
    pub fn of(store: &'a Store) -> OutcomeStore<'a> {
        OutcomeStore {
            store: Some(store),
            read: true,
            write: !store.is_read_only(),
        }
    }
}

/// What a look-up of a board's stored outcome found.
#[derive(Clone, Debug)]
pub enum StoredAnswer {
    /// A whole, plausible stored outcome, as a search's report with every
    /// count 0.
    Hit(Box<SearchReport>),
    /// Nothing stored.
    Miss,
    /// A row that is damaged, implausible or unreadable: never believed
    /// (the reason, for a warning).
    Rejected(String),
}

fn convention_name(c: Convention) -> &'static str {
    match c {
        Convention::Normal => "normal",
        Convention::Misere => "misere",
    }
}

/// The stored outcome of `board` under `config`'s convention, checked: the
/// store's checksum and key, then the rules — each stored move must be a
/// move of the board for its player; a first player stored as winning
/// with no move must have none to make in misère play, and one with no
/// move must be stored as winning exactly in misère play; and where the
/// store also holds the board after a stored winning move, the opponent
/// moving first there must be stored as losing. The store keeps outcomes,
/// not nimbers: a config asking for one ([`SearchConfig::nimber`]) is a
/// miss.
pub fn stored_outcome<R: Ruleset>(
    r: &R,
    board: &Board,
    config: &SearchConfig,
    store: &Store,
) -> StoredAnswer {
    if config.nimber {
        return StoredAnswer::Miss;
    }
    let text = r.format(board);
    let conv = convention_name(config.convention);
    let o = match store.get_outcome(r.name(), conv, &text) {
        Ok(OutcomeRead::Hit(o)) => o,
        // An imported outcome not yet searched again is no answer.
        Ok(OutcomeRead::Miss | OutcomeRead::Unverified(_)) => return StoredAnswer::Miss,
        Ok(OutcomeRead::Damaged(why)) => return StoredAnswer::Rejected(format!("store: {why}")),
        Err(e) => return StoredAnswer::Rejected(format!("store: cannot read: {e}")),
    };
    let implausible = |why: String| {
        StoredAnswer::Rejected(format!(
            "store: the stored outcome of {} {text} ({conv}) {why}",
            r.name()
        ))
    };
    let mut fps = Vec::with_capacity(2);
    for (player, wins, mv) in [
        (Player::Left, o.left_first_wins, &o.left_move),
        (Player::Right, o.right_first_wins, &o.right_move),
    ] {
        let mut moves = 0u32;
        r.options(board, player, |_| moves += 1);
        let winning_move = match mv {
            None if wins && (moves > 0 || config.convention == Convention::Normal) => {
                return implausible(format!("says {player:?} wins moving first with no move"));
            }
            None => None,
            Some(t) => {
                let after = r.parse(t).ok();
                let mut legal = false;
                if let Some(a) = after {
                    r.options(board, player, |x| legal |= x == a);
                }
                match after {
                    Some(a) if legal => Some(a),
                    _ => {
                        return implausible(format!(
                            "names a move for {player:?} that is not one of the board's"
                        ))
                    }
                }
            }
        };
        if moves == 0 && wins != (config.convention == Convention::Misere) {
            return implausible(format!(
                "says {player:?}, who has no move, {} moving first",
                if wins { "wins" } else { "loses" }
            ));
        }
        if let (Some(_), Some(t)) = (&winning_move, mv) {
            if let Ok(OutcomeRead::Hit(next)) = store.get_outcome(r.name(), conv, t) {
                let reply_wins = match player {
                    Player::Left => next.right_first_wins,
                    Player::Right => next.left_first_wins,
                };
                if reply_wins {
                    return implausible(format!(
                        "names a winning move for {player:?} after which the store says the opponent wins moving first"
                    ));
                }
            }
        }
        fps.push(FirstPlayer {
            player,
            wins,
            winning_move,
            counts: SearchCounts::default(),
            elapsed: Duration::ZERO,
        });
    }
    let (Some(mut right), Some(mut left)) = (fps.pop(), fps.pop()) else {
        return StoredAnswer::Miss;
    };
    // A question about one first player takes only that side.
    for fp in [&mut left, &mut right] {
        if !config.first.includes(fp.player) {
            *fp = FirstPlayer::unsearched(fp.player);
        }
    }
    StoredAnswer::Hit(Box::new(SearchReport::new(
        left,
        right,
        TableStats::default(),
        *config,
        Duration::ZERO,
    )))
}

/// Record a finished search's answer for `board` in `store` (replacing
/// what was stored for it). Only a search of both first players is a
/// board's outcome: a one-sided one is not stored (`Ok(false)`).
pub fn save_outcome<R: Ruleset>(
    r: &R,
    board: &Board,
    rep: &SearchReport,
    store: &Store,
) -> Result<bool, partizan_store::StoreError> {
    if rep.class().is_none() {
        return Ok(false);
    }
    store.put_outcome(&StoredOutcome {
        ruleset: r.name().to_string(),
        board: r.format(board),
        convention: convention_name(rep.config.convention).to_string(),
        left_first_wins: rep.left.wins,
        right_first_wins: rep.right.wins,
        left_move: rep.left.winning_move.as_ref().map(|b| r.format(b)),
        right_move: rep.right.winning_move.as_ref().map(|b| r.format(b)),
        nodes: rep.total().nodes,
        partizan_version: partizan_store::PARTIZAN_VERSION.to_string(),
        computed_at: partizan_store::record::unix_now(),
        provenance: partizan_store::Provenance::Computed,
    })?;
    Ok(true)
}

/// Who wins `board`: from the store when it holds a valid outcome for it
/// (see [`stored_outcome`]; the report says `from_store`, every count 0),
/// else by `search` (which the caller runs as it likes: budgets, progress,
/// checkpoints), whose answer is then saved when `store.write` is set. A
/// rejected row or a failed write is a warning in the report, never an
/// answer; the search's error is returned as it is.
pub fn outcome_through_store<R: Ruleset, E>(
    r: &R,
    board: &Board,
    config: &SearchConfig,
    store: OutcomeStore<'_>,
    search: impl FnOnce() -> Result<SearchReport, E>,
) -> Result<OutcomeReport, E> {
    let mut warnings = Vec::new();
    if let (Some(st), true) = (store.store, store.read) {
        match stored_outcome(r, board, config, st) {
            StoredAnswer::Hit(rep) => {
                let mut out = OutcomeReport::of(r, board, &rep);
                out.from_store = true;
                return Ok(out);
            }
            StoredAnswer::Miss => {}
            StoredAnswer::Rejected(why) => warnings.push(format!("{why}; searched again")),
        }
    }
    let rep = search()?;
    let mut out = OutcomeReport::of(r, board, &rep);
    if let (Some(st), true) = (store.store, store.write) {
        match save_outcome(r, board, &rep, st) {
            Ok(saved) => out.saved_to_store = saved,
            Err(e) => warnings.push(format!("store: the outcome was not recorded: {e}")),
        }
    }
    out.warnings = warnings;
    Ok(out)
}

/// A nimber in the usual notation: `0`, `*`, `*2`, ...
#[must_use]
pub fn nimber_text(n: u32) -> String {
    match n {
        0 => "0".to_string(),
        1 => "*".to_string(),
        n => format!("*{n}"),
    }
}

/// Why `r` under `convention` has no nimber to search for (`None`: it has;
/// [`SearchConfig::nimber`]): only impartial rulesets under normal play.
pub fn nimber_refusal<R: Ruleset>(r: &R, convention: Convention) -> Option<String> {
    if !r.impartial() {
        Some(format!(
            "{} is not impartial: its positions have no nimbers",
            r.name()
        ))
    } else if convention == Convention::Misere {
        Some("nimbers are of normal play, not misère".to_string())
    } else {
        None
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
    fn the_default_table_caps_only_boards_too_small_to_fill_it() {
        assert_eq!(default_table_mb(12, None), 16);
        assert_eq!(default_table_mb(20, Some(4096)), 16);
        // 5 x 6 Clobber may grow past 16 MB, within the budget less 64 MB
        // (and a quarter of the machine's available memory)
        let mb = default_table_mb(30, Some(1024));
        assert!(mb <= 960, "{mb}");
        if available_bytes().is_some_and(|b| b >= 4 << 30) {
            assert_eq!(mb, 960);
        }
        // never below 8 MB, whatever the budget
        assert_eq!(default_table_mb(64, Some(10)), 8);
    }

    #[test]
    fn field_names_are_the_command_lines() {
        let b = Domineering.parse("...|...").unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let rep = board_outcome(&Domineering, &b, &cfg, &Control::default()).unwrap();
        // {2|-1/2} is a first-player win.
        assert_eq!(rep.outcome, Some("N"));
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

    /// A hand-made Domineering row: (left, right) wins and moves.
    fn row(
        board: &str,
        conv: &str,
        wins: (bool, bool),
        moves: (Option<&str>, Option<&str>),
    ) -> StoredOutcome {
        StoredOutcome {
            ruleset: "domineering".into(),
            board: board.into(),
            convention: conv.into(),
            left_first_wins: wins.0,
            right_first_wins: wins.1,
            left_move: moves.0.map(str::to_string),
            right_move: moves.1.map(str::to_string),
            nodes: 0,
            partizan_version: "test".into(),
            computed_at: 0,
            provenance: partizan_store::Provenance::Computed,
        }
    }

    fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("s.sqlite")).unwrap();
        (dir, s)
    }

    fn through<R: Knowledge>(
        r: &R,
        board: &Board,
        conv: Convention,
        store: &Store,
    ) -> (OutcomeReport, bool) {
        through_first(r, board, conv, First::Both, store)
    }

    fn through_first<R: Knowledge>(
        r: &R,
        board: &Board,
        conv: Convention,
        first: First,
        store: &Store,
    ) -> (OutcomeReport, bool) {
        let mut cfg = SearchConfig::for_ruleset(r, conv);
        cfg.first = first;
        let mut searched = false;
        let out = outcome_through_store(r, board, &cfg, OutcomeStore::of(store), || {
            searched = true;
            solve(r, board, &cfg, &Control::default())
        })
        .unwrap();
        (out, searched)
    }

    #[test]
    fn a_second_ask_is_answered_from_the_store_without_a_search() {
        let (_d, st) = temp_store();
        let b = Domineering.parse("....|....|....").unwrap();
        let (first, searched) = through(&Domineering, &b, Convention::Normal, &st);
        assert!(searched && first.saved_to_store && !first.from_store);
        assert!(first.stats.nodes > 0);
        let (second, searched) = through(&Domineering, &b, Convention::Normal, &st);
        assert!(!searched, "the search ran again");
        assert!(second.from_store && second.warnings.is_empty());
        assert_eq!(second.stats.nodes, 0);
        assert_eq!(second.outcome, first.outcome);
        assert_eq!(
            second.first_players.left.as_ref().unwrap().winning_move,
            first.first_players.left.as_ref().unwrap().winning_move
        );
        assert!(second.render_text().contains("(from store)"));
        // A caller that must search (a certificate) does not read.
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let no_read = OutcomeStore {
            read: false,
            ..OutcomeStore::of(&st)
        };
        let out = outcome_through_store(&Domineering, &b, &cfg, no_read, || {
            solve(&Domineering, &b, &cfg, &Control::default())
        })
        .unwrap();
        assert!(!out.from_store && out.stats.nodes > 0);
    }

    /// Search and save each board that parses, in both conventions, then
    /// ask again: the second answer must come from the store and agree.
    /// How many were checked.
    fn read_back_as_saved<'a, R: Knowledge>(
        r: &R,
        texts: impl IntoIterator<Item = &'a str>,
        st: &Store,
    ) -> usize {
        let mut checked = 0;
        for text in texts {
            let Ok(b) = r.parse(text) else {
                continue;
            };
            for conv in [Convention::Normal, Convention::Misere] {
                let (first, _) = through(r, &b, conv, st);
                let (again, searched) = through(r, &b, conv, st);
                assert!(
                    !searched && again.from_store,
                    "{text} {conv:?}: {:?}",
                    again.warnings
                );
                assert_eq!(again.outcome, first.outcome, "{text}");
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn every_searched_answer_is_read_back_as_it_was_saved() {
        // The twin of the plausibility checks: on every small board of two
        // rulesets, in both conventions, what the search saved is believed
        // and says the same (no check rejects a true answer).
        let (_d, st) = temp_store();
        let mut boards = Vec::new();
        for (h, w) in [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3), (2, 4)] {
            let cells = h * w;
            for mask in 0u32..(1 << cells) {
                if mask.count_ones() > 2 || (cells > 6 && mask != 0) {
                    continue;
                }
                let rows: Vec<String> = (0..h)
                    .map(|r| {
                        (0..w)
                            .map(|c| {
                                if mask >> (r * w + c) & 1 == 1 {
                                    '#'
                                } else {
                                    '.'
                                }
                            })
                            .collect()
                    })
                    .collect();
                boards.push(rows.join("|"));
            }
        }
        let clobber = ["xo", "x.o", "xox", "xo|ox", "xox|oxo", "xoxo|oxox"];
        let checked = read_back_as_saved(&Domineering, boards.iter().map(String::as_str), &st)
            + read_back_as_saved(&partizan_games::Clobber, clobber, &st);
        assert!(checked > 60, "{checked}");
    }

    #[test]
    fn a_misere_win_with_no_move_is_plausible_only_without_moves() {
        let (_d, st) = temp_store();
        // One cell: nobody moves; in misère play both first players win.
        let b = Domineering.parse(".").unwrap();
        let (first, _) = through(&Domineering, &b, Convention::Misere, &st);
        assert_eq!(first.outcome, Some("N"));
        assert!(first.render_text().contains("wins with (no move needed)"));
        let (again, searched) = through(&Domineering, &b, Convention::Misere, &st);
        assert!(!searched && again.from_store);
        // The same claim for a board with moves is not believed.
        let two = Domineering.parse("..").unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Misere);
        st.put_outcome(&row("..", "misere", (true, true), (None, None)))
            .unwrap();
        match stored_outcome(&Domineering, &two, &cfg, &st) {
            StoredAnswer::Rejected(why) => assert!(why.contains("no move"), "{why}"),
            other => panic!("believed: {other:?}"),
        }
        // A player without a move stored as losing in misère play: no.
        st.put_outcome(&row(".", "misere", (false, true), (None, None)))
            .unwrap();
        let (fixed, searched) = through(&Domineering, &b, Convention::Misere, &st);
        assert!(searched && !fixed.from_store);
        assert_eq!(fixed.outcome, Some("N"));
        assert!(
            fixed.warnings[0].contains("has no move"),
            "{:?}",
            fixed.warnings
        );
    }

    #[test]
    fn a_winning_move_the_store_itself_contradicts_is_not_believed() {
        let (_d, st) = temp_store();
        // 1x3 Domineering: Right (horizontal) wins moving first, to "##."
        // or ".##"; Left has no move.
        let b = Domineering.parse("...").unwrap();
        let (first, _) = through(&Domineering, &b, Convention::Normal, &st);
        assert_eq!(first.outcome, Some("R"));
        let after = first
            .first_players
            .right
            .as_ref()
            .unwrap()
            .winning_move
            .clone()
            .unwrap()
            .board;
        // Claim that Left, moving first after Right's move, wins there.
        st.put_outcome(&row(&after, "normal", (true, false), (Some(&after), None)))
            .unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        match stored_outcome(&Domineering, &b, &cfg, &st) {
            StoredAnswer::Rejected(why) => assert!(why.contains("opponent wins"), "{why}"),
            other => panic!("believed: {other:?}"),
        }
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

    #[test]
    fn one_first_player_gives_no_class_and_is_never_stored() {
        let (_d, st) = temp_store();
        // 3 x 4 Domineering (3 rows, 4 columns).
        let b = Domineering.parse("....|....|....").unwrap();
        let (whole, _) = {
            let (_d2, other) = temp_store();
            through(&Domineering, &b, Convention::Normal, &other)
        };
        let class = whole.outcome.unwrap();
        for (first, p) in [(First::Left, Player::Left), (First::Right, Player::Right)] {
            let (one, searched) = through_first(&Domineering, &b, Convention::Normal, first, &st);
            assert!(searched && !one.saved_to_store && !one.from_store);
            assert_eq!(one.outcome, None);
            let (asked, other) = match p {
                Player::Left => (&one.first_players.left, &one.first_players.right),
                Player::Right => (&one.first_players.right, &one.first_players.left),
            };
            assert!(other.is_none());
            let wins = asked.as_ref().unwrap().wins;
            let whole_wins = match p {
                Player::Left => whole.left_first_wins,
                Player::Right => whole.right_first_wins,
            };
            assert_eq!(Some(wins), whole_wins);
            // Only the asked side was searched: fewer nodes than both.
            assert!(one.stats.nodes < whole.stats.nodes, "{first:?}");
            let v = serde_json::to_value(&one).unwrap();
            assert!(v["outcome"].is_null());
            assert_eq!(v["first"], if p == Player::Left { "left" } else { "right" });
            let skipped = if p == Player::Left { "right" } else { "left" };
            assert!(v["first_players"].get(skipped).is_none());
            assert!(v[format!("{skipped}_first_wins")].is_null());
            let text = one.render_text();
            assert!(text.starts_with("outcome class unknown"), "{text}");
            assert!(text.contains(" first: not searched"), "{text}");
            assert!(!text.starts_with(class), "{text}");
        }
        // Nothing was stored: a whole-board question searches.
        let (both, searched) = through(&Domineering, &b, Convention::Normal, &st);
        assert!(searched && both.saved_to_store);
        assert_eq!(both.outcome, Some(class));
        // A stored whole-board outcome answers a one-sided question, with
        // that side only.
        let (one, searched) =
            through_first(&Domineering, &b, Convention::Normal, First::Right, &st);
        assert!(!searched && one.from_store);
        assert_eq!(one.outcome, None);
        assert!(one.first_players.left.is_none());
        assert_eq!(one.right_first_wins, both.right_first_wins);
    }
}
