//! Value reports: what a canonical value is worth ([`ValueSummary`]), the
//! value of a board with what the solver did ([`BoardValue`]), and the sum
//! of values written in notation ([`GameValue`]).

use std::fmt::Write as _;

use partizan_core::{Arena, Dyadic, GameId, ValueError};
use partizan_games::{with_rules, Board, BoardError, Player, Rules, Ruleset};
use partizan_solve::{RegionTable, Savings, SolveError, Solver, Stats};
use partizan_store::Store;
use serde::Serialize;
use thiserror::Error;

/// Why a report could not be made. Each message is one line.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The board text does not parse for the ruleset.
    #[error("bad {ruleset} board: {source}")]
    Board {
        /// The ruleset's name.
        ruleset: &'static str,
        /// What is wrong with the text.
        source: BoardError,
    },
    /// One of a table's boards does not parse for the ruleset.
    #[error("bad {ruleset} board '{text}': {source}")]
    TableBoard {
        /// The ruleset's name.
        ruleset: &'static str,
        /// The board's text (at most 200 characters of it).
        text: String,
        /// What is wrong with it.
        source: BoardError,
    },
    /// A position-graph count failed its identity.
    #[error(transparent)]
    Graph(#[from] partizan_solve::graph::GraphError),
    /// Value notation that does not parse, in the `index`-th argument.
    #[error("bad value notation in argument {index} '{text}': {message}")]
    Notation {
        /// 1-based argument number.
        index: usize,
        /// The argument (at most 200 characters of it).
        text: String,
        /// What is wrong with it.
        message: String,
    },
    /// The solver failed or was stopped.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Value arithmetic failed.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The persistent table failed.
    #[error("store: {0}")]
    Store(String),
    /// A picture that cannot be drawn (the reason says why).
    #[error("cannot draw: {0}")]
    Picture(String),
}

/// What a value is worth, in the subject's standard terms. Numbers print
/// in CGSuite notation (`3/2`, `-1/4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueSummary {
    /// The canonical form in CGSuite notation (empty for a form of more
    /// than [`MAX_VALUE_TEXT`] characters: see `size`).
    pub value: String,
    /// Outcome class: `L`, `R`, `N` (first player wins) or `P` (second).
    pub outcome: String,
    /// Left's stop: where play ends when Left moves first and both play well.
    pub left_stop: String,
    /// Right's stop.
    pub right_stop: String,
    /// The mean value (the mast's position in the thermograph).
    pub mean: String,
    /// The temperature (where the thermograph's walls meet the mast).
    pub temperature: String,
    /// Whether the value is a number.
    pub is_number: bool,
    /// How big the canonical form is.
    pub size: Size,
}

/// How big a canonical form is: what a reader is told instead of the form
/// when it is too long to print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Left's options in the canonical form.
    pub left_options: usize,
    /// Right's options.
    pub right_options: usize,
    /// Distinct subpositions of the canonical form, itself included.
    pub subpositions: usize,
    /// Birthday: the height of the canonical game tree.
    pub birthday: u32,
    /// Characters of the CGSuite notation.
    pub characters: usize,
}

/// Forms longer than this many characters are summarised in text output
/// unless the full form is asked for.
pub const PRINT_LIMIT: usize = 2000;

/// Forms longer than this many characters (64 MiB) are never printed, even
/// when asked for in full: [`ValueSummary::value`] is then empty and the
/// size says how long the form is.
pub const MAX_VALUE_TEXT: usize = 1 << 26;

impl ValueSummary {
    /// The summary of `g`.
    pub fn of(arena: &mut Arena, g: GameId) -> ValueSummary {
        // Mean and temperature can need a denominator beyond the dyadic
        // range on extreme forms: say so rather than fail.
        let shown = |r: Result<Dyadic, ValueError>| match r {
            Ok(x) => x.to_string(),
            Err(e) => format!("unrepresentable ({e})"),
        };
        let sz = arena.size_summary(g);
        ValueSummary {
            size: Size {
                left_options: sz.left_options,
                right_options: sz.right_options,
                subpositions: sz.subpositions,
                birthday: sz.birthday,
                characters: sz.printed_len,
            },
            // a form past the cap is described, never built: 30 switches
            // summed print 2 GB from 29 characters of input
            value: if sz.printed_len <= MAX_VALUE_TEXT {
                arena.display(g)
            } else {
                String::new()
            },
            outcome: arena.outcome(g).to_string(),
            left_stop: arena.left_stop(g).to_string(),
            right_stop: arena.right_stop(g).to_string(),
            mean: shown(arena.try_mean(g)),
            temperature: shown(arena.try_temperature(g)),
            is_number: arena.is_number(g),
        }
    }

    /// The form itself when it has at most `limit` characters; otherwise a
    /// line saying how big it is (with the facts that stay readable).
    pub fn shown(&self, limit: Option<usize>) -> String {
        let (how, hint) = if self.size.characters > MAX_VALUE_TEXT {
            (
                format!(", too long to print (at most {MAX_VALUE_TEXT})"),
                "",
            )
        } else if limit.is_some_and(|n| self.size.characters > n) {
            (String::new(), "; print it with --full or --out FILE")
        } else {
            return self.value.clone();
        };
        format!(
            "(a canonical form of {} characters{how}: {} Left and {} Right options, birthday {}, {} subpositions; {}{hint})",
            self.size.characters,
            self.size.left_options,
            self.size.right_options,
            self.size.birthday,
            self.size.subpositions,
            self.facts_line()
        )
    }

    /// One line: outcome, stops, mean and temperature.
    pub fn facts_line(&self) -> String {
        format!(
            "outcome {}  stops {} / {}  mean {}  temperature {}",
            self.outcome, self.left_stop, self.right_stop, self.mean, self.temperature
        )
    }
}

/// What the persistent table did for one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoreUse {
    /// Regions answered from the table.
    pub hits: u64,
    /// Region values the run saved in it (new to the file): what the
    /// solver handed over, less what the store already held and what did
    /// not fit under its size limit.
    pub added: u64,
    /// Region values not saved because the store is at its size limit.
    pub not_saved: u64,
    /// Rows found damaged (checksum or encoding) and treated as misses:
    /// recomputed, never believed.
    pub checksum_failures: u64,
    /// Imported rows not yet verified, treated as misses.
    pub unverified: u64,
    /// Lookups the engine could not complete, treated as misses.
    pub read_errors: u64,
    /// The first problem the table met, once (for a warning line).
    pub warning: Option<String>,
}

/// The value of a board, with the counts of the search that found it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardValue {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// The value and its facts.
    #[serde(flatten)]
    pub value: ValueSummary,
    /// What the solver did.
    pub stats: Stats,
    /// The savings in force.
    pub savings: Savings,
    /// What the persistent table did, or `None` when the run had none.
    pub store: Option<StoreUse>,
}

impl BoardValue {
    /// The text form: the value (summarised past `limit` characters); with
    /// `stats`, the facts and the counts.
    pub fn render_text(&self, stats: bool, limit: Option<usize>) -> String {
        let mut s = format!("{}\n", self.value.shown(limit));
        if stats {
            let t = &self.stats;
            let _ = writeln!(s, "{}", self.value.facts_line());
            let _ = writeln!(
                s,
                "nodes {}  distinct {}  hits {}  passes {}  splits {}  regions {}",
                t.nodes, t.distinct, t.hits, t.passes, t.splits, t.regions
            );
            if let Some(u) = &self.store {
                let _ = write!(s, "store hits {}  added {}", u.hits, u.added);
                if u.not_saved > 0 {
                    let _ = write!(s, "  not saved {} (size limit)", u.not_saved);
                }
                s.push('\n');
            }
        }
        s
    }
}

/// How to value a board: which savings, which table, when to stop.
pub struct Options<'a> {
    /// The solver's savings.
    pub savings: Savings,
    /// The persistent table to read through and add to.
    pub store: Option<&'a Store>,
    /// Asked before each region search; `true` stops the run with
    /// [`SolveError::Stopped`] (a time budget, a cancel flag).
    pub stop: Option<&'a (dyn Fn() -> bool + 'a)>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            savings: Savings::ALL,
            store: None,
            stop: None,
        }
    }
}

/// Parse `text` as a board of `rules` and value it.
pub fn board_value(
    rules: Rules,
    text: &str,
    opts: &Options<'_>,
) -> Result<BoardValue, ReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| ReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        board_value_in(r, &board, opts)
    })
}

/// Value a parsed board of ruleset `r`.
pub fn board_value_in<R: Ruleset>(
    r: &R,
    board: &Board,
    opts: &Options<'_>,
) -> Result<BoardValue, ReportError> {
    let mut session = opts.store.map(|s| {
        let mut session = s.session();
        session.set_label(format!("value {} {}", r.name(), r.format(board)));
        session
    });
    let mut arena = Arena::new();
    let (g, stats) = {
        let mut solver = Solver::new(r, opts.savings)?;
        if let Some(s) = session.as_mut() {
            solver = solver.with_table(s as &mut dyn RegionTable);
        }
        if let Some(stop) = opts.stop {
            solver = solver.with_stop(stop);
        }
        let g = solver.value(&mut arena, board)?;
        (g, solver.stats())
    };
    let store = match session {
        Some(s) => {
            let warning = s.warning().map(str::to_string);
            let done = s.finish().map_err(|e| ReportError::Store(e.to_string()))?;
            Some(StoreUse {
                hits: stats.store_hits,
                added: done.written,
                not_saved: done.not_saved,
                checksum_failures: done.checksum_failures,
                unverified: done.unverified,
                read_errors: done.read_errors,
                warning,
            })
        }
        None => None,
    };
    Ok(BoardValue {
        ruleset: r.name(),
        board: r.format(board),
        value: ValueSummary::of(&mut arena, g),
        stats,
        savings: opts.savings,
        store,
    })
}

/// The sum of values written in CGSuite notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameValue {
    /// The values as given.
    pub terms: Vec<String>,
    /// Their sum and its facts.
    #[serde(flatten)]
    pub value: ValueSummary,
}

impl GameValue {
    /// The text form: the canonical form of the sum (summarised past
    /// `limit` characters).
    pub fn render_text(&self, limit: Option<usize>) -> String {
        format!("{}\n", self.value.shown(limit))
    }
}

/// The value of one term of a sum: CGSuite notation (`{1|0} + ^`), or a
/// position of a registered ruleset written `RULESET:BOARD`
/// (`clobber:xo.ox`); a term may itself be a sum of such pieces joined by
/// ` + ` (spaces around the plus), mixing boards and notation:
/// `clobber:xo.ox + domineering:..|.. + 3/2 + *`.
pub fn term_value(arena: &mut Arena, text: &str, index: usize) -> Result<GameId, ReportError> {
    let pieces: Vec<&str> = text.split(" + ").map(str::trim).collect();
    fn board_of(piece: &str) -> Option<(Rules, &str)> {
        let (name, board) = piece.split_once(':')?;
        Rules::from_name(name).ok().map(|r| (r, board))
    }
    if !pieces.iter().any(|p| board_of(p).is_some()) {
        return arena.parse(text).map_err(|e| ReportError::Notation {
            index,
            text: text.chars().take(200).collect(),
            message: e.to_string(),
        });
    }
    let mut total = arena.zero();
    for piece in pieces {
        let g = match board_of(piece) {
            Some((rules, board)) => with_rules!(rules, |r| {
                let b = r.parse(board).map_err(|source| ReportError::Board {
                    ruleset: r.name(),
                    source,
                })?;
                Solver::new(r, Savings::ALL)?.value(arena, &b)?
            }),
            None => arena.parse(piece).map_err(|e| ReportError::Notation {
                index,
                text: piece.chars().take(200).collect(),
                message: e.to_string(),
            })?,
        };
        total = arena.sum(total, g)?;
    }
    Ok(total)
}

/// Value each of `terms` (see [`term_value`]: notation, or boards of any
/// registered rulesets) and add them up: a disjunctive sum across rulesets.
pub fn game_value<S: AsRef<str>>(terms: &[S]) -> Result<GameValue, ReportError> {
    let mut arena = Arena::new();
    let mut total = arena.zero();
    for (i, text) in terms.iter().enumerate() {
        let g = term_value(&mut arena, text.as_ref(), i + 1)?;
        total = arena.sum(total, g)?;
    }
    Ok(GameValue {
        terms: terms.iter().map(|t| t.as_ref().to_string()).collect(),
        value: ValueSummary::of(&mut arena, total),
    })
}

/// One option of a board: the board after the move, its value, and the
/// move's incentive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardOption {
    /// The board after the move, in the ruleset's notation.
    pub board: String,
    /// How many of the player's moves lead to this board.
    pub moves: usize,
    /// Its value (CGSuite notation).
    pub value: String,
    /// The incentive of the move: `GL - G` for Left, `G - GR` for Right (a
    /// player prefers larger incentives; a dominated move has a smaller one).
    pub incentive: String,
    /// Whether the option's value is one of the canonical form's options
    /// for this player (a move a canonical strategy may use).
    pub canonical: bool,
    /// The cells the move changes (`row * width + column`), ascending.
    pub cells: Vec<usize>,
    /// Another option of the same player is strictly better for them.
    pub dominated: bool,
    /// Reversible: some reply from it (in its canonical form) is at least
    /// as good for the opponent as the position itself.
    pub reversible: bool,
    /// No other option of the same player has a strictly larger incentive.
    pub best: bool,
    /// Its incentive is at least every other option's of the same player.
    pub dominant: bool,
    /// Orthodox at the position's own temperature `t` (Berlekamp's
    /// orthodox play): its wall, taxed at `t`, reaches the position's
    /// scaffold there (`RW(GL)(t) - t` largest for Left, `LW(GR)(t) + t`
    /// smallest for Right), so the move gives nothing away when the
    /// ambient temperature is `t`. Never set when the position is a number.
    pub orthodox: bool,
}

/// The options of a board for both players, valued.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionsReport {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board in the ruleset's notation.
    pub board: String,
    /// Columns of the board (cells are numbered `row * width + column`).
    pub width: usize,
    /// The board's value and its facts.
    pub value: ValueSummary,
    /// Left's options, in move-generation order, each distinct board once.
    pub left: Vec<BoardOption>,
    /// Right's options.
    pub right: Vec<BoardOption>,
    /// What the solver did.
    pub stats: Stats,
}

impl OptionsReport {
    /// The text form: the value, then each player's options.
    pub fn render_text(&self, limit: Option<usize>) -> String {
        let mut s = format!("{}  {}\n", self.board, self.value.shown(limit));
        for (who, list) in [("Left", &self.left), ("Right", &self.right)] {
            let _ = writeln!(s, "{who}: {} options", list.len());
            for o in list {
                let _ = writeln!(
                    s,
                    "  {:<24} {:<20} incentive {}{}{}",
                    o.board,
                    o.value,
                    o.incentive,
                    if o.moves > 1 {
                        format!("  ({} moves)", o.moves)
                    } else {
                        String::new()
                    },
                    if o.canonical { "  canonical" } else { "" }
                );
            }
        }
        s
    }
}

/// Parse `text` as a board of `rules` and list both players' options with
/// their values and incentives (one solver, so options share its memo).
pub fn board_options(
    rules: Rules,
    text: &str,
    opts: &Options<'_>,
) -> Result<OptionsReport, ReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| ReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        board_options_in(r, &board, opts, None)
    })
}

/// [`board_options`] of a parsed board, its values read through `table`
/// when given (else through a session of `opts.store`, if any).
pub fn board_options_in<R: Ruleset>(
    r: &R,
    board: &Board,
    opts: &Options<'_>,
    table: Option<&mut dyn RegionTable>,
) -> Result<OptionsReport, ReportError> {
    let mut session = match table {
        Some(_) => None,
        None => opts.store.map(|s| s.session()),
    };
    let table = match (table, session.as_mut()) {
        (Some(t), _) => Some(t),
        (None, Some(s)) => Some(s as &mut dyn RegionTable),
        (None, None) => None,
    };
    let mut arena = Arena::new();
    let (g, left, right, stats) = {
        let mut solver = Solver::new(r, opts.savings)?;
        if let Some(t) = table {
            solver = solver.with_table(t);
        }
        if let Some(stop) = opts.stop {
            solver = solver.with_stop(stop);
        }
        let g = solver.value(&mut arena, board)?;
        let left = player_options(r, &mut solver, &mut arena, board, g, Player::Left)?;
        let right = player_options(r, &mut solver, &mut arena, board, g, Player::Right)?;
        (g, left, right, solver.stats())
    };
    if let Some(s) = session {
        s.finish().map_err(|e| ReportError::Store(e.to_string()))?;
    }
    Ok(OptionsReport {
        ruleset: r.name(),
        board: r.format(board),
        width: board.width(),
        value: ValueSummary::of(&mut arena, g),
        left,
        right,
        stats,
    })
}

/// One player's options of `board` (whose value is `g`), valued by
/// `solver`: each distinct board once, in move-generation order, with its
/// incentive and whether it is dominated, reversible, best or dominant.
pub fn player_options<R: Ruleset>(
    r: &R,
    solver: &mut Solver<'_, R>,
    arena: &mut Arena,
    board: &Board,
    g: GameId,
    player: Player,
) -> Result<Vec<BoardOption>, ReportError> {
    let mut children: Vec<(Board, usize)> = Vec::new();
    r.options(board, player, |o| {
        match children.iter_mut().find(|(b, _)| *b == o) {
            Some((_, n)) => *n += 1,
            None => children.push((o, 1)),
        }
    });
    let canon: Vec<GameId> = match player {
        Player::Left => arena.left_options(g).to_vec(),
        Player::Right => arena.right_options(g).to_vec(),
    };
    let mut ids = Vec::with_capacity(children.len());
    let mut incs = Vec::with_capacity(children.len());
    for (child, _) in &children {
        let v = solver.value(arena, child)?;
        let inc = match player {
            Player::Left => arena.sub(v, g)?,
            Player::Right => arena.sub(g, v)?,
        };
        ids.push(v);
        incs.push(inc);
    }
    let orthodox = orthodox_flags(arena, g, &ids, player)?;
    let width = board.width().max(1);
    let mut list = Vec::with_capacity(children.len());
    for (i, (child, moves)) in children.iter().enumerate() {
        let x = ids[i];
        let dominated = ids.iter().any(|&y| match player {
            Player::Left => arena.lt(x, y),
            Player::Right => arena.gt(x, y),
        });
        let reversible = match player {
            Player::Left => {
                let replies = arena.right_options(x).to_vec();
                replies.into_iter().any(|y| arena.leq(y, g))
            }
            Player::Right => {
                let replies = arena.left_options(x).to_vec();
                replies.into_iter().any(|y| arena.geq(y, g))
            }
        };
        let best = !incs.iter().any(|&j| arena.gt(j, incs[i]));
        let dominant = incs.iter().all(|&j| arena.geq(incs[i], j));
        list.push(BoardOption {
            board: r.format(child),
            moves: *moves,
            value: arena.display(x),
            incentive: arena.display(incs[i]),
            canonical: canon.contains(&x),
            cells: partizan_solve::search::changed_cells(board, child)
                .into_iter()
                .map(|(row, col)| row * width + col)
                .collect(),
            dominated,
            reversible,
            best,
            dominant,
            orthodox: orthodox[i],
        });
    }
    Ok(list)
}

/// Which of `ids`, one player's option values of `g` (canonical or not),
/// are orthodox at `g`'s temperature: the criterion of
/// [`Arena::orthodox`], applied to every option a board offers rather than
/// only the canonical form's.
fn orthodox_flags(
    arena: &mut Arena,
    g: GameId,
    ids: &[GameId],
    player: Player,
) -> Result<Vec<bool>, ReportError> {
    if arena.is_number(g) || ids.is_empty() {
        return Ok(vec![false; ids.len()]);
    }
    let t = arena.try_temperature(g)?;
    let mut taxed = Vec::with_capacity(ids.len());
    for &x in ids {
        let th = arena.thermograph(x)?;
        taxed.push(match player {
            Player::Left => th.right.value_at(t)?.checked_sub(t)?,
            Player::Right => th.left.value_at(t)?.checked_add(t)?,
        });
    }
    let best = match player {
        Player::Left => taxed.iter().max(),
        Player::Right => taxed.iter().min(),
    }
    .copied();
    Ok(taxed.iter().map(|&v| Some(v) == best).collect())
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_form_too_long_to_print_is_described_not_built() {
        // 29 characters a term: 30 switches summed print 2,147,717,197
        // characters, and building that text (and every subposition's) took
        // 21 GB and 79 s
        let terms: Vec<String> = (1..=30).map(|k| format!("{{{k}|-{k}}}")).collect();
        let started = std::time::Instant::now();
        let v = game_value(&terms).unwrap();
        assert_eq!(v.value.size.characters, 2_147_717_197);
        assert!(v.value.value.is_empty());
        for limit in [None, Some(PRINT_LIMIT)] {
            let t = v.render_text(limit);
            assert!(t.contains("too long to print"), "{t}");
            assert!(t.contains("outcome N"), "{t}");
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        // under the cap nothing changes
        let small = game_value(&["{1|-1}", "{2|-2}"]).unwrap();
        assert_eq!(small.value.value, "±{3|1}");
    }

    use super::*;

    #[test]
    fn board_report_fields() {
        let r = board_value(Rules::Domineering, "...|...", &Options::default()).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        for k in [
            "value",
            "outcome",
            "left_stop",
            "right_stop",
            "mean",
            "temperature",
            "is_number",
            "ruleset",
            "board",
            "stats",
            "savings",
            "store",
        ] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        assert_eq!(v["value"], "{2|-1/2}");
        assert_eq!(v["mean"], "3/4");
        assert_eq!(v["temperature"], "5/4");
        assert!(v["store"].is_null());
        assert_eq!(v["board"], "...|...");
        assert_eq!(r.render_text(false, Some(PRINT_LIMIT)), "{2|-1/2}\n");
        assert!(r
            .render_text(true, None)
            .contains("outcome N  stops 2 / -1/2"));
        assert_eq!(v["size"]["left_options"], 1);
        assert_eq!(v["size"]["birthday"], 3);
        assert_eq!(v["size"]["characters"], 8);
        // Past the limit the form is summarised, never cut.
        let short = r.render_text(false, Some(4));
        assert!(
            short.starts_with("(a canonical form of 8 characters"),
            "{short}"
        );
        assert!(short.contains("temperature 5/4"));
    }

    #[test]
    fn a_stop_stops_and_a_bad_board_is_named() {
        let stop = || true;
        let opts = Options {
            stop: Some(&stop),
            ..Options::default()
        };
        let e = board_value(Rules::Domineering, "....|....|....", &opts).unwrap_err();
        assert!(matches!(e, ReportError::Solve(SolveError::Stopped)));
        let e = board_value(Rules::Domineering, "..|.", &Options::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad domineering board: ragged rows: row 2 has 1 cells, expected 2"
        );
    }

    #[test]
    fn options_of_a_board() {
        // 2 x 3 Domineering = {2|-1/2}: Left's best move leaves 2.
        let o = board_options(Rules::Domineering, "...|...", &Options::default()).unwrap();
        assert_eq!(o.value.value, "{2|-1/2}");
        assert_eq!(o.left.len(), 3);
        assert_eq!(o.left.iter().map(|x| x.moves).sum::<usize>(), 3);
        assert!(o.left.iter().any(|x| x.value == "2" && x.canonical));
        assert!(o.right.iter().any(|x| x.value == "-1/2" && x.canonical));
        // Incentives: 2 - {2|-1/2} for Left's canonical move.
        let best = o.left.iter().find(|x| x.canonical).unwrap();
        let want = game_value(&["2", "-{2|-1/2}"]).unwrap();
        assert_eq!(best.incentive, want.value.value);
        // Every option's value is the value of its board.
        for x in o.left.iter().chain(&o.right) {
            let v = board_value(Rules::Domineering, &x.board, &Options::default()).unwrap();
            assert_eq!(v.value.value, x.value);
        }
        assert!(o.render_text(None).contains("Left: 3 options"));
    }

    #[test]
    fn sums_across_rulesets() {
        // Each board's value, added to plain values, is the sum's value.
        let mixed = game_value(&["clobber:xo.ox + domineering:..|.. + 3/2 + *"]).unwrap();
        let parts = ["clobber:xo.ox", "domineering:..|..", "3/2", "*"];
        let mut arena = Arena::new();
        let mut want = arena.zero();
        for p in parts {
            let g = match p.split_once(':') {
                Some((n, b)) => {
                    let v =
                        board_value(Rules::from_name(n).unwrap(), b, &Options::default()).unwrap();
                    arena.parse(&v.value.value).unwrap()
                }
                None => arena.parse(p).unwrap(),
            };
            want = arena.sum(want, g).unwrap();
        }
        assert_eq!(mixed.value.value, arena.display(want));
        // The same as separate terms.
        assert_eq!(game_value(&parts).unwrap().value, mixed.value);
        // Domineering 2x2 is ±1: adding it to -(±1) gives 0.
        assert_eq!(
            game_value(&["domineering:..|.. + -{1|-1}"])
                .unwrap()
                .value
                .value,
            "0"
        );
        let e = game_value(&["clobber:xq"]).unwrap_err();
        assert!(e.to_string().starts_with("bad clobber board"), "{e}");
    }

    #[test]
    fn game_sums_and_names_bad_terms() {
        let g = game_value(&["^", "*"]).unwrap();
        assert_eq!(g.value.value, "^*");
        assert_eq!(g.render_text(None), "^*\n");
        let e = game_value(&["1", "{1|"]).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("bad value notation in argument 2 '{1|'"));
    }

    #[test]
    fn orthodox_options_agree_with_the_engine() {
        let boards = [
            (Rules::Domineering, "...|..."),
            (Rules::Domineering, "....|.#..|...."),
            (Rules::Domineering, "..|.."),
            (Rules::Clobber, "xoxo|oxx."),
            (Rules::Amazons, "L...|R..."),
            (Rules::Konane, "xo.x|.ox."),
        ];
        let mut hot = 0;
        for (rules, text) in boards {
            let rep = board_options(rules, text, &Options::default()).unwrap();
            let mut a = Arena::new();
            let g = a.parse(&rep.value.value).unwrap();
            if a.is_number(g) {
                assert!(rep.left.iter().chain(&rep.right).all(|o| !o.orthodox));
                continue;
            }
            hot += usize::from(a.temperature(g) > Dyadic::ZERO);
            let t = a.temperature(g);
            let o = a.orthodox(g, t).unwrap();
            for (list, want) in [(&rep.left, &o.left), (&rep.right, &o.right)] {
                // someone always has an orthodox move where there is a move
                assert_eq!(list.is_empty(), !list.iter().any(|x| x.orthodox), "{text}");
                for x in list.iter().filter(|x| x.canonical) {
                    let v = a.parse(&x.value).unwrap();
                    assert_eq!(x.orthodox, want.contains(&v), "{text}: {}", x.board);
                }
                // a dominated option is never orthodox alone: what dominates it is too
                for x in list.iter().filter(|x| x.orthodox && x.dominated) {
                    let v = a.parse(&x.value).unwrap();
                    assert!(list
                        .iter()
                        .any(|y| y.orthodox && !y.dominated && a.parse(&y.value).unwrap() != v));
                }
            }
        }
        assert!(hot >= 3, "only {hot} hot boards");
    }
}
