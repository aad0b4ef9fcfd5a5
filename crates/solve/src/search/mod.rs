//! The large-board outcome solver: who wins, for each first player, by a
//! depth-first win/loss search (alpha-beta with the null window that a
//! win/loss question is) over a bounded, lock-free transposition table.
//!
//! What makes it reach boards the value solver cannot:
//!
//! * **Regions at every node.** A position is its *big* regions (more than
//!   [`SearchConfig::value_cells`] cells) searched by play, plus the exact
//!   canonical value of all the small ones added up (the *tail*, from a
//!   [`Solver`] underneath). A position with no big region left is answered
//!   by the tail's outcome. Under misère play values do not add, so nothing
//!   is ever summed.
//! * **Knowledge cutoffs** ([`Ruleset::move_bounds`](partizan_games::Ruleset::move_bounds)): when the mover's
//!   safe moves (plus the tail's integer part) outnumber every move the
//!   opponent could ever make, the mover wins; when the opponent's safe
//!   moves match every move the mover could make, the mover loses.
//! * **Move ordering**: with [`MoveOrdering::Safety`] (the default), moves
//!   that leave the opponent the fewest moves and the mover the most safe
//!   ones first. (A table entry is a final answer, so its stored move has
//!   nothing left to order.)
//! * **Integer tails as handicaps** ([`SearchConfig::handicap`]): a
//!   position whose tail is an integer is keyed by its board alone, the
//!   integer (signed toward the mover) a handicap; an entry keeps the least
//!   handicap at which the mover is known to win and the greatest at which
//!   the mover is known to lose, so one search answers the board with every
//!   tail at least as good for the mover ([`table::Entry`]).
//! * **Incremental hashing**: a position's key is updated from its parent's
//!   by the cells a move (and the removal of small regions) changed, under
//!   every symmetry of the ruleset that keeps the rectangle, so a position
//!   and its mirror images share one table entry.
//! * **Every core**: the two first players searched at once, sharing the
//!   table, or one after the other; either way a first player with more
//!   than one thread shares its root among them, the replies to its first
//!   moves dealt out one at a time ([`thread_plan`], [`Parallel`]).

pub(crate) mod budget;
mod busy;
pub mod certificate;
pub mod checkpoint;
mod dealt;
pub mod domineering;
pub mod impartial;
pub mod knowledge;
pub mod table;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use partizan_core::{Arena, GameId, Outcome, ValueError};
use partizan_games::{each_bit, Bits, Board, Player};
use rustc_hash::FxHashMap;
use serde::Serialize;
use thiserror::Error;

pub use knowledge::{Knowledge, MoveBounds};
pub use table::{Key, Table, TableStats};

use busy::{Busy, BUSY_DEPTH};

use crate::outcome::{Convention, Outcomes};
use crate::regions::{region_board, regions};
use crate::value::{Savings, SolveError, Solver};

/// How the children of a node are ordered before they are searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveOrdering {
    /// The order the ruleset generates them in.
    Natural,
    /// Most (own moves left - opponent's moves left) first.
    Mobility,
    /// Fewest opponent's moves left, plus own safe moves minus the
    /// opponent's safe moves, first (the best of the three measured on
    /// Domineering: see the bench `outcome`).
    Safety,
    /// Moves that refuted other positions first (a history count per
    /// mover and changed cells, weighted by the stones or cells left),
    /// ties broken as [`Safety`](MoveOrdering::Safety).
    History,
}

impl std::str::FromStr for MoveOrdering {
    type Err = SearchError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "natural" => Ok(MoveOrdering::Natural),
            "mobility" => Ok(MoveOrdering::Mobility),
            "safety" => Ok(MoveOrdering::Safety),
            "history" => Ok(MoveOrdering::History),
            other => Err(SearchError::UnknownOrdering(other.to_string())),
        }
    }
}

/// The most threads a search takes.
pub const MAX_THREADS: usize = 1024;

/// How the threads of a search share it, for `threads` threads and the
/// way chosen: the threads each first player gets (both at once with
/// [`Parallel::FirstPlayers`]: half each, Left the odd one; one after the
/// other with [`Parallel::RootSplit`]: all of them). A first player with
/// more than one thread shares its root among them.
#[must_use]
pub fn thread_plan(threads: usize, parallel: Parallel) -> (usize, usize, bool) {
    match parallel {
        Parallel::FirstPlayers if threads >= 2 => (threads.div_ceil(2), threads / 2, true),
        _ => (threads, threads, false),
    }
}

/// Both first players' searches on `config.threads` threads, dealt by
/// [`thread_plan`]: `one(first, search)` runs one first player's search
/// (or reads it from a checkpoint), `search(first, n)` searches it on `n`
/// threads, and `single` searches both on one thread, one after the other.
pub(crate) fn first_players<O, S>(
    config: &SearchConfig,
    one: &O,
    search: &S,
    single: impl FnOnce() -> Result<(FirstPlayer, FirstPlayer), SearchError>,
) -> Result<(FirstPlayer, FirstPlayer), SearchError>
where
    O: Fn(
            Player,
            &dyn Fn() -> Result<FirstPlayer, SearchError>,
        ) -> Result<FirstPlayer, SearchError>
        + Sync,
    S: Fn(Player, usize) -> Result<FirstPlayer, SearchError> + Sync,
{
    let (lt, rt, together) = thread_plan(config.threads, config.effective_parallel());
    if together {
        std::thread::scope(|s| {
            let l = s.spawn(|| one(Player::Left, &|| search(Player::Left, lt)));
            let r = one(Player::Right, &|| search(Player::Right, rt));
            let l = l.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            Ok((l?, r?))
        })
    } else if config.threads >= 2 {
        let l = one(Player::Left, &|| search(Player::Left, lt))?;
        Ok((l, one(Player::Right, &|| search(Player::Right, rt))?))
    } else {
        single()
    }
}

/// How two threads share a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parallel {
    /// One thread per first player, at the same time.
    FirstPlayers,
    /// One first player after the other, every thread on its root: the
    /// replies to each first move dealt out to the threads one at a time
    /// (the general engine: module `dealt`; Domineering's own search without a
    /// checkpoint: [`domineering`]); the first winning move found stops
    /// them all.
    RootSplit,
}

impl std::str::FromStr for Parallel {
    type Err = SearchError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "first-players" => Ok(Parallel::FirstPlayers),
            "root-split" => Ok(Parallel::RootSplit),
            other => Err(SearchError::UnknownParallel(other.to_string())),
        }
    }
}

/// Which first players a search decides. Researchers often ask only one
/// ("Domineering with Vertical to move"): searching one side is about half
/// the work, but then the outcome class is unknown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum First {
    /// Both first players (the outcome class is known).
    #[default]
    Both,
    /// Left moving first only.
    Left,
    /// Right moving first only.
    Right,
}

impl First {
    /// Whether `p` moving first is searched.
    pub fn includes(self, p: Player) -> bool {
        match self {
            First::Both => true,
            First::Left => p == Player::Left,
            First::Right => p == Player::Right,
        }
    }
}

impl std::str::FromStr for First {
    type Err = SearchError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "both" => Ok(First::Both),
            "left" => Ok(First::Left),
            "right" => Ok(First::Right),
            other => Err(SearchError::UnknownFirst(other.to_string())),
        }
    }
}

impl From<partizan_games::TwoThreads> for Parallel {
    fn from(t: partizan_games::TwoThreads) -> Parallel {
        match t {
            partizan_games::TwoThreads::RootSplit => Parallel::RootSplit,
            partizan_games::TwoThreads::FirstPlayers => Parallel::FirstPlayers,
        }
    }
}

/// What a search may use and how much of the machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchConfig {
    /// Normal or misère play.
    pub convention: Convention,
    /// Regions of at most this many cells are answered by their exact
    /// values (normal play only; 0: never).
    pub value_cells: u32,
    /// Bytes of the transposition table.
    pub table_bytes: usize,
    /// Move ordering.
    pub ordering: MoveOrdering,
    /// Use the rules' knowledge to cut off lines (normal play only): the
    /// ruleset's move bounds and, where its footprints describe moves whole,
    /// the mirror strategy. Both count under [`SearchCounts::by_bounds`].
    pub bounds: bool,
    /// Threads: 1 or 2.
    pub threads: usize,
    /// How two threads share the work.
    pub parallel: Parallel,
    /// Stop (with [`SearchError::Budget`]) after this many nodes.
    pub max_nodes: Option<u64>,
    /// Give a position and its images under the ruleset's symmetries one
    /// table entry.
    pub symmetry: bool,
    /// Take the ruleset's own search when it has one
    /// ([`Knowledge::fast_solve`]; Domineering's is [`domineering`]).
    pub fast: bool,
    /// Which first players to search (the other's answer in the report is
    /// a placeholder: see [`SearchReport::searched`]).
    pub first: First,
    /// Key a position whose tail is an integer by its board alone, the
    /// integer a handicap in the entry ([`table::Entry`]), so that one
    /// search answers the same board with every larger tail for the mover
    /// (the general engine; normal play).
    pub handicap: bool,
    /// Also find the whole position's nimber ([`SearchReport::nimber`]):
    /// impartial rulesets under normal play, by their nimber search
    /// ([`impartial`]); the outcome alone asks only whether it is 0.
    pub nimber: bool,
}

impl SearchConfig {
    /// The defaults for `convention`: small regions up to 12 cells valued,
    /// a 64 MB table, safety ordering, bounds and symmetry on, one thread.
    pub fn new(convention: Convention) -> SearchConfig {
        SearchConfig {
            convention,
            value_cells: if convention == Convention::Normal {
                12
            } else {
                0
            },
            table_bytes: 64 << 20,
            ordering: MoveOrdering::Safety,
            bounds: true,
            threads: 1,
            parallel: Parallel::RootSplit,
            max_nodes: None,
            symmetry: true,
            fast: true,
            first: First::Both,
            handicap: true,
            nimber: false,
        }
    }

    /// The defaults for `convention` with the ruleset's own value-cells
    /// threshold ([`Ruleset::default_value_cells`](partizan_games::Ruleset::default_value_cells))
    /// and two-thread mode ([`Ruleset::default_parallel`](partizan_games::Ruleset::default_parallel)).
    pub fn for_ruleset<R: Knowledge>(rules: &R, convention: Convention) -> SearchConfig {
        let mut c = SearchConfig::new(convention);
        if convention == Convention::Normal {
            c.value_cells = rules.default_value_cells();
        }
        c.parallel = rules.default_parallel().into();
        c
    }

    /// How two threads share the work: [`SearchConfig::parallel`], except
    /// that with one first player there is nothing for first-players to
    /// split, so the root is split instead.
    pub fn effective_parallel(&self) -> Parallel {
        if self.first == First::Both {
            self.parallel
        } else {
            Parallel::RootSplit
        }
    }

    fn values_on(&self) -> bool {
        self.convention == Convention::Normal && self.value_cells > 0
    }
}

/// Errors of an outcome search.
#[derive(Debug, Error)]
pub enum SearchError {
    /// Valuing a small region failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Adding region values failed (a dyadic overflow).
    #[error("value arithmetic failed: {0}")]
    Value(#[from] ValueError),
    /// The caller's stop flag was raised.
    #[error("search stopped after {nodes} nodes")]
    Stopped {
        /// Nodes searched before the stop.
        nodes: u64,
    },
    /// The node budget ran out.
    #[error("node budget of {0} nodes exhausted")]
    Budget(u64),
    /// An unknown parallel-mode name.
    #[error("unknown parallel mode '{0}' (expected first-players or root-split)")]
    UnknownParallel(String),
    /// An unknown first-player name.
    #[error("unknown first player '{0}' (expected left, right or both)")]
    UnknownFirst(String),
    /// An unknown move-ordering name.
    #[error("unknown move ordering '{0}' (expected natural, mobility, safety or history)")]
    UnknownOrdering(String),
    /// The search contradicted itself (a bug; reported, never hidden).
    #[error("inconsistent search: {0}")]
    Inconsistent(String),
    /// Another thread of a split root found the win first (internal: never
    /// returned by [`solve`]).
    #[error("another thread found the win")]
    Sibling,
    /// No thread, or more than the search takes.
    #[error("threads must be between 1 and 1024, not {0}")]
    Threads(usize),
    /// The certificate could not be written.
    #[error("cannot write the certificate: {0}")]
    Write(String),
    /// A checkpoint could not be written, or was refused.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
}

/// A snapshot of a running search, handed to the progress callback.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Nodes searched so far (both threads).
    pub nodes: u64,
    /// Nodes per second since the start.
    pub nodes_per_sec: f64,
    /// Entries in use / capacity of the table.
    pub table_filled: u64,
    /// Capacity of the table.
    pub table_capacity: u64,
    /// Time since the start.
    pub elapsed_ms: u64,
    /// Whether the reporting thread searches Left moving first.
    pub left_first: bool,
    /// The current line's first plies: (rank of the move tried, options).
    pub line: Vec<(u16, u16)>,
}

/// The caller's handles on a running search: a stop flag and a progress
/// callback, called about every `interval`.
pub struct Control<'a> {
    /// Raise to stop the search (it returns [`SearchError::Stopped`]).
    pub stop: Option<&'a AtomicBool>,
    /// Called with a snapshot about every `interval`.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// How often to call `progress`.
    pub interval: Duration,
}

impl Default for Control<'_> {
    fn default() -> Self {
        Control {
            stop: None,
            progress: None,
            interval: Duration::from_millis(500),
        }
    }
}

/// Counts of one first player's search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchCounts {
    /// Nodes visited (including table hits and cutoffs).
    pub nodes: u64,
    /// Nodes answered by the table.
    pub table_hits: u64,
    /// Nodes answered by the outcome of a sum of exact region values.
    pub by_value: u64,
    /// Nodes answered by the rules' knowledge: the move bounds, or the
    /// mirror strategy.
    pub by_bounds: u64,
    /// Nodes whose children were generated and searched.
    pub expanded: u64,
    /// Small regions valued exactly (look-ups in the value solver).
    pub regions_valued: u64,
}

impl SearchCounts {
    pub(crate) fn add(&mut self, o: &SearchCounts) {
        self.nodes += o.nodes;
        self.table_hits += o.table_hits;
        self.by_value += o.by_value;
        self.by_bounds += o.by_bounds;
        self.expanded += o.expanded;
        self.regions_valued += o.regions_valued;
    }
}

/// One first player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstPlayer {
    /// The player moving first.
    pub player: Player,
    /// Whether they win.
    pub wins: bool,
    /// A winning first move (the position after it), when they win.
    pub winning_move: Option<Board>,
    /// What the search did.
    pub counts: SearchCounts,
    /// Wall time of this first player's search.
    pub elapsed: Duration,
}

impl FirstPlayer {
    /// The placeholder of a first player the search left out
    /// ([`SearchConfig::first`]): no answer, 0 nodes.
    pub fn unsearched(player: Player) -> FirstPlayer {
        FirstPlayer {
            player,
            wins: false,
            winning_move: None,
            counts: SearchCounts::default(),
            elapsed: Duration::ZERO,
        }
    }
}

/// The answer of [`solve`].
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// Who wins moving first: both sides only when both were searched
    /// (read it through [`SearchReport::outcomes`], which says so).
    pub(crate) outcomes: Outcomes,
    /// Left moving first.
    pub left: FirstPlayer,
    /// Right moving first.
    pub right: FirstPlayer,
    /// The table after both searches.
    pub table: TableStats,
    /// The configuration used.
    pub config: SearchConfig,
    /// Wall time of the whole search.
    pub elapsed: Duration,
    /// The position's nimber, when [`SearchConfig::nimber`] asked for it
    /// and the nimber search ran.
    pub nimber: Option<u32>,
}

impl SearchReport {
    /// The report of both first players' searches over one table.
    pub fn new(
        left: FirstPlayer,
        right: FirstPlayer,
        table: TableStats,
        config: SearchConfig,
        elapsed: Duration,
    ) -> SearchReport {
        SearchReport {
            outcomes: Outcomes {
                left_first: left.wins,
                right_first: right.wins,
            },
            left,
            right,
            table,
            config,
            elapsed,
            nimber: None,
        }
    }

    /// Whether `p` moving first was searched (`config.first`): the other
    /// side's [`FirstPlayer`] is a placeholder (loses, 0 nodes), and
    /// [`SearchReport::outcomes`] and [`SearchReport::class`] are `None`.
    pub fn searched(&self, p: Player) -> bool {
        self.config.first.includes(p)
    }

    /// Who wins moving first, known only when both first players were
    /// searched (with [`SearchConfig::first`] one side, the other side's
    /// answer is a placeholder, so none is given).
    pub fn outcomes(&self) -> Option<Outcomes> {
        (self.config.first == First::Both).then_some(self.outcomes)
    }

    /// The outcome class (L, R, N, P), known only when both first players
    /// were searched.
    pub fn class(&self) -> Option<&'static str> {
        (self.config.first == First::Both).then(|| self.outcomes.class())
    }

    /// Counts of both first players together.
    pub fn total(&self) -> SearchCounts {
        let mut t = self.left.counts;
        t.add(&self.right.counts);
        t
    }
}

/// The cells a move from `before` to `after` changes, as `[row, column]`,
/// 1-based, top row first (how reports and the job-level search name a
/// move).
pub fn move_cells(before: &Board, after: &Board) -> Vec<[usize; 2]> {
    changed_cells(before, after)
        .into_iter()
        .map(|(row, col)| [row + 1, col + 1])
        .collect()
}

/// Cells `[row, column]` (1-based) as `r1c2-r2c2`.
pub fn cells_text(cells: &[[usize; 2]]) -> String {
    cells
        .iter()
        .map(|[r, c]| format!("r{r}c{c}"))
        .collect::<Vec<_>>()
        .join("-")
}

/// The cells a move changed: every cell whose contents differ between
/// `before` and `after`, as (row, column) pairs, top row first.
pub fn changed_cells(before: &Board, after: &Board) -> Vec<(usize, usize)> {
    let mut d: Bits = 0;
    for k in 0..3 {
        d |= before.layer(k) ^ after.layer(k);
    }
    let w = before.width().max(1);
    each_bit(d)
        .map(|b| {
            let i = b.trailing_zeros() as usize;
            (i / w, i % w)
        })
        .collect()
}

/// Who wins `board` moving first, for each player, with a winning first
/// move for each player who has one.
pub fn solve<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
) -> Result<SearchReport, SearchError> {
    if !(1..=MAX_THREADS).contains(&config.threads) {
        return Err(SearchError::Threads(config.threads));
    }
    if config.fast {
        if let Some(r) = rules.fast_solve(board, config, control) {
            return r;
        }
    }
    Ok(general(rules, board, config, control, None)?.0)
}

/// What a resumed search took over from its checkpoint.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Resumed {
    /// The checkpoint file.
    pub file: String,
    /// Earlier runs that wrote the checkpoint (0: a fresh start).
    pub sessions: u32,
    /// Nodes those runs searched.
    pub nodes_before: u64,
    /// Table entries loaded from the checkpoint.
    pub entries_loaded: u64,
    /// First players already decided in the checkpoint: Left, Right.
    pub decided_before: [bool; 2],
    /// First moves of each undecided first player (Left, Right) already
    /// refuted in the checkpoint (kept by Domineering's own search).
    pub first_moves_before: [u32; 2],
    /// Nodes this run searched.
    pub nodes_now: u64,
    /// Table entries in the checkpoint written at the end of this run.
    pub entries_saved: u64,
}

/// [`solve`] with a checkpoint at `file`: the search starts from what the
/// checkpoint holds (if the file exists: refused when it is damaged or for
/// another search), writes it every `every` and when the search ends or
/// stops, so a stopped or killed run resumes without losing its solved
/// subtrees. A ruleset's own search keeps its own checkpoint in the same
/// format ([`Knowledge::fast_solve_resumable`]; Domineering's keeps its
/// table and the root's solved first moves, the nimber search of impartial
/// rulesets its memo), else the general engine runs.
pub fn solve_resumable<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    file: &std::path::Path,
    every: Duration,
) -> Result<(SearchReport, Resumed), SearchError> {
    if !(1..=MAX_THREADS).contains(&config.threads) {
        return Err(SearchError::Threads(config.threads));
    }
    if config.fast {
        if let Some(r) = rules.fast_solve_resumable(board, config, control, file, every) {
            return r;
        }
    }
    let (rep, resumed) = general(rules, board, config, control, Some((file, every)))?;
    Ok((rep, resumed.unwrap_or_default()))
}

impl Resumed {
    /// What a run starting from `state` (read from `path`, `loaded`
    /// entries) takes over.
    pub(crate) fn of(path: &std::path::Path, state: &checkpoint::State, loaded: u64) -> Resumed {
        Resumed {
            file: path.display().to_string(),
            sessions: state.sessions,
            nodes_before: state.nodes,
            entries_loaded: loaded,
            decided_before: [state.left.is_some(), state.right.is_some()],
            first_moves_before: [state.solved[0].len() as u32, state.solved[1].len() as u32],
            nodes_now: 0,
            entries_saved: 0,
        }
    }
}

/// What identifies a general-engine search for its checkpoint.
pub fn fingerprint<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
) -> checkpoint::Fingerprint {
    checkpoint::Fingerprint {
        engine: "general".to_string(),
        ruleset: rules.name().to_string(),
        board: rules.format(board),
        convention: config.convention,
        value_cells: if config.values_on() {
            config.value_cells
        } else {
            0
        },
        symmetry: config.symmetry,
    }
}

/// The general engine, with a checkpoint when `resume` names one.
fn general<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &Control<'_>,
    resume: Option<(&std::path::Path, Duration)>,
) -> Result<(SearchReport, Option<Resumed>), SearchError> {
    let start = Instant::now();
    let table = Table::with_bytes(config.table_bytes);
    let mut resumed = None;
    let saver = match resume {
        None => None,
        Some((path, every)) => {
            let expected = fingerprint(rules, board, config);
            let (state, loaded) = checkpoint::read(path, &expected, &table)?
                .unwrap_or((checkpoint::State::fresh(expected), 0));
            for d in [&state.left, &state.right].into_iter().flatten() {
                if let Some(m) = &d.winning_move {
                    if !is_option(rules, board, m) {
                        return Err(checkpoint::CheckpointError::Corrupt {
                            path: path.to_path_buf(),
                            why: "a winning move that is no move of the board".to_string(),
                        }
                        .into());
                    }
                }
            }
            resumed = Some(Resumed::of(path, &state, loaded));
            Some(checkpoint::Saver::new(path, every, state))
        }
    };
    let zob = Zobrist::new(rules, board, config.symmetry);
    let shared = Shared {
        table: &table,
        zob: &zob,
        config,
        control,
        nodes: AtomicU64::new(0),
        start,
        last_report: AtomicU64::new(0),
        saver: saver.as_ref(),
        busy: (config.threads > 1).then(Busy::new),
    };
    // One first player: left out, from the checkpoint, or searched (and
    // recorded in the checkpoint).
    let one = |first: Player, search: &dyn Fn() -> Result<FirstPlayer, SearchError>| {
        checkpoint::one_first_player(config, saver.as_ref(), &table, &shared.nodes, first, search)
    };
    // One first player on `n` threads: its root's moves split among them.
    let search = |first: Player, n: usize| -> Result<FirstPlayer, SearchError> {
        if n >= 2 {
            solve_split(rules, &shared, board, first, n)
        } else {
            Engine::new(rules, &shared)?.solve_root(board, first)
        }
    };
    let result = first_players(config, &one, &search, || {
        Engine::new(rules, &shared).and_then(|e| {
            let e = std::cell::RefCell::new(e);
            let l = one(Player::Left, &|| {
                e.borrow_mut().solve_root(board, Player::Left)
            })?;
            let r = one(Player::Right, &|| {
                e.borrow_mut().solve_root(board, Player::Right)
            })?;
            Ok((l, r))
        })
    });
    if let (Some(s), Some(r)) = (&saver, &mut resumed) {
        r.nodes_now = shared.nodes.load(Relaxed);
        // Stopped or finished: the checkpoint as of now (a failed write
        // of it outranks the stop).
        r.entries_saved = s.save(&table, r.nodes_now)?;
    }
    let (left, right) = result?;
    Ok((
        SearchReport::new(left, right, table.stats(), *config, start.elapsed()),
        resumed,
    ))
}

/// Is `after` one of the options of `board` for either player?
pub(crate) fn is_option<R: Knowledge>(rules: &R, board: &Board, after: &Board) -> bool {
    let mut found = false;
    for p in [Player::Left, Player::Right] {
        rules.options(board, p, |o| found |= o == *after);
    }
    found
}

/// One first player's search with the root shared among `n` threads
/// ([`dealt`]).
fn solve_split<R: Knowledge>(
    rules: &R,
    shared: &Shared<'_>,
    board: &Board,
    first: Player,
    n: usize,
) -> Result<FirstPlayer, SearchError> {
    let mut any = false;
    rules.options(board, first, |_| any = true);
    if !any {
        // No first move: nothing to share (and no move to name for a
        // win under misère play).
        return Engine::new(rules, shared)?.solve_root(board, first);
    }
    let start = Instant::now();
    let deal = dealt::Deal::default();
    let one = |share: usize| -> Result<SearchCounts, SearchError> {
        let mut e = Engine::new(rules, shared)?;
        let r = e.root_dealt(board, first, &deal, share);
        r.map(|()| e.counts)
    };
    let mut counts = SearchCounts::default();
    for r in on_threads(n, one) {
        counts.add(&r?);
    }
    let winning_move = deal.winning_move();
    Ok(FirstPlayer {
        player: first,
        wins: winning_move.is_some(),
        winning_move,
        counts,
        elapsed: start.elapsed(),
    })
}

/// `one(k)` for k from 0 to n-1, each on a thread of its own (0 on this
/// one), in the order of k; a thread's panic goes on here.
fn on_threads<T: Send>(n: usize, one: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let one = &one;
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..n).map(|k| s.spawn(move || one(k))).collect();
        let mut out = vec![one(0)];
        for h in handles {
            out.push(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        out
    })
}

/// Runs `half(share, found)` for shares 0 to n-1 of the root's moves, one on
/// each of `n` threads, and joins them into one first player's answer: a
/// win if any share found one. `half` gives its search's result and its
/// counts; a share stopped because a sibling won
/// ([`SearchError::Sibling`]) still counts what it searched. Domineering's
/// own search splits its root through here.
pub(crate) fn split_root<F>(first: Player, n: usize, half: F) -> Result<FirstPlayer, SearchError>
where
    F: Fn(
            usize,
            &AtomicBool,
        ) -> Result<(Result<FirstPlayer, SearchError>, SearchCounts), SearchError>
        + Sync,
{
    let start = Instant::now();
    let found = AtomicBool::new(false);
    let one = |share: usize| -> Result<FirstPlayer, SearchError> {
        match half(share, &found)? {
            (Err(SearchError::Sibling), counts) => Ok(FirstPlayer {
                player: first,
                wins: false,
                winning_move: None,
                counts,
                elapsed: Duration::ZERO,
            }),
            (r, _) => r,
        }
    };
    let mut counts = SearchCounts::default();
    let mut winner: Option<FirstPlayer> = None;
    for r in on_threads(n, one) {
        let fp = r?;
        counts.add(&fp.counts);
        if fp.wins && winner.is_none() {
            winner = Some(fp);
        }
    }
    Ok(FirstPlayer {
        player: first,
        wins: winner.is_some(),
        winning_move: winner.and_then(|w| w.winning_move),
        counts,
        elapsed: start.elapsed(),
    })
}

/// Random keys for incremental hashing: one per (layer, cell), one for the
/// mover; and the same keys permuted by each of the ruleset's symmetries
/// that keeps the board's rectangle, so that a position and its images get
/// one table entry (the least of their keys).
struct Zobrist {
    /// Per usable symmetry (identity first): the key of (layer, cell)
    /// after the symmetry is applied, and whether it swaps the players.
    syms: Vec<([[u128; 128]; 3], bool)>,
    right_to_move: u128,
    /// The mirror strategy's symmetries ([`Engine::mirror_state`]).
    mirrors: Vec<Mirror>,
}

/// A symmetry of the rules that the mirror strategy may use: an involution
/// of the rectangle that swaps the players (for an impartial ruleset: any
/// geometric involution).
struct Mirror {
    sym: partizan_games::Symmetry,
    /// Its index in [`Zobrist::syms`], when hashed (a position it keeps
    /// has the same key under it as under the identity).
    hashed: Option<usize>,
    /// The image of each cell.
    perm: [u8; 128],
}

impl Mirror {
    /// The image of a set of cells.
    fn image(&self, f: Bits) -> Bits {
        each_bit(f).fold(0, |acc, c| {
            acc | 1u128 << self.perm[c.trailing_zeros() as usize]
        })
    }
}

/// The cell permutation of `sym` on a `w` x `h` rectangle, if it maps the
/// rectangle's cells to its cells and is an involution (what the mirror
/// strategy needs of a symmetry).
pub(crate) fn involution<R: partizan_games::Ruleset>(
    rules: &R,
    w: usize,
    h: usize,
    sym: partizan_games::Symmetry,
) -> Option<[u8; 128]> {
    let n = w * h;
    let mut perm = [0u8; 128];
    for (i, p) in perm.iter_mut().enumerate().take(n) {
        let one = Board::new(w, h, [1u128 << i, 0, 0]).ok()?;
        let img = rules.apply(&one, sym);
        let all = img.layer(0) | img.layer(1) | img.layer(2);
        if img.width() != w || img.height() != h || all.count_ones() != 1 {
            return None;
        }
        *p = all.trailing_zeros() as u8;
    }
    (0..n)
        .all(|i| perm[perm[i] as usize] as usize == i)
        .then_some(perm)
}

/// Most symmetries a search keys by: the eight of the square and the same
/// eight swapping the players.
const MAX_SYMS: usize = 16;

/// SplitMix64: a fixed, well-mixed stream of keys.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A 96-bit table key's random number (in a u128): the low 64 bits from
/// stream `s`, the check bits above them from stream `check` (both engines'
/// keys, so the low halves stay the keys of before the check bits).
pub(crate) fn wide_key(s: &mut u64, check: &mut u64) -> u128 {
    u128::from(splitmix(s)) | u128::from(splitmix(check)) << 64
}

/// A tail's 64-bit hash widened to a 96-bit key part: the check bits a
/// fixed mix of the hash (tails are few; their hashes collide only by a
/// 64-bit accident). The zero tail stays zero.
fn widen(h: u64) -> u128 {
    if h == 0 {
        return 0;
    }
    let mut m = h ^ 0x7A11_C4EC;
    u128::from(h) | u128::from(splitmix(&mut m)) << 64
}

impl Zobrist {
    /// Keys for positions on `board`'s rectangle; with `symmetry`, also
    /// for every symmetry of the ruleset that maps the rectangle onto
    /// itself and moves single cells to single cells.
    fn new<R: Knowledge>(rules: &R, board: &Board, symmetry: bool) -> Zobrist {
        // The low 64 bits of each key from one stream (the keys before the
        // check bits came in), the check bits above them from another.
        let mut s = 0x005E_ED0F_0D0E_u64;
        let mut s2 = 0xC4EC_CB17_5EED_u64;
        let mut wide = |s: &mut u64| wide_key(s, &mut s2);
        let mut base = [[0; 128]; 3];
        for layer in &mut base {
            for k in layer.iter_mut() {
                *k = wide(&mut s);
            }
        }
        let mut syms = vec![(base, false)];
        let (w, h) = (board.width(), board.height());
        let n = w * h;
        if symmetry && n > 0 {
            // Every symmetry that keeps the rectangle, up to MAX_SYMS (the
            // player-swapping ones too: a non-square board keeps four of
            // each kind, a square one eight).
            'sym: for sym in rules.symmetries().iter().skip(1) {
                if syms.len() == MAX_SYMS {
                    break;
                }
                let mut keys = [[0; 128]; 3];
                for (k, layer) in keys.iter_mut().enumerate() {
                    for (i, key) in layer.iter_mut().enumerate().take(n) {
                        let mut layers = [0; 3];
                        layers[k] = 1u128 << i;
                        let Ok(one) = Board::new(w, h, layers) else {
                            continue 'sym;
                        };
                        let img = rules.apply(&one, *sym);
                        if img.width() != w || img.height() != h {
                            continue 'sym;
                        }
                        let hits: Vec<(usize, Bits)> = (0..3)
                            .map(|j| (j, img.layer(j)))
                            .filter(|&(_, l)| l != 0)
                            .collect();
                        match hits.as_slice() {
                            [(j, l)] if l.count_ones() == 1 => {
                                *key = base[*j][l.trailing_zeros() as usize];
                            }
                            _ => continue 'sym,
                        }
                    }
                }
                syms.push((keys, sym.negates));
            }
        }
        let mirrors = if symmetry {
            Zobrist::mirrors(rules, board, &syms)
        } else {
            Vec::new()
        };
        Zobrist {
            syms,
            right_to_move: wide(&mut s),
            mirrors,
        }
    }

    /// The symmetries the mirror strategy may use on `board`'s rectangle
    /// (none unless the ruleset's footprints are whole moves): involutions
    /// that keep the rectangle and map cells to cells, negating for a
    /// partizan ruleset, not negating for an impartial one.
    fn mirrors<R: Knowledge>(
        rules: &R,
        board: &Board,
        syms: &[([[u128; 128]; 3], bool)],
    ) -> Vec<Mirror> {
        let (w, h) = (board.width(), board.height());
        let n = w * h;
        if !rules.footprints_whole() || n == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        'sym: for sym in rules.symmetries().iter().skip(1) {
            if sym.negates == rules.impartial() {
                continue;
            }
            let Some(perm) = involution(rules, w, h, *sym) else {
                continue 'sym;
            };
            // The hashed image under the same symmetry, if there is one.
            let hashed = (1..syms.len()).find(|&j| {
                syms[j].1 == sym.negates
                    && (0..n).all(|i| syms[j].0[0][i] == syms[0].0[0][perm[i] as usize])
            });
            out.push(Mirror {
                sym: *sym,
                hashed,
                perm,
            });
        }
        out
    }

    /// The keys of a whole board under every symmetry.
    fn board(&self, b: &Board) -> [u128; MAX_SYMS] {
        let mut h = [0; MAX_SYMS];
        self.update(&mut h, &Board::EMPTY, b);
        h
    }

    /// Update the keys from `a` to `b` (same rectangle): one xor per
    /// symmetry per cell whose contents changed.
    #[inline]
    fn update(&self, h: &mut [u128; MAX_SYMS], a: &Board, b: &Board) {
        for k in 0..3 {
            let mut d = a.layer(k) ^ b.layer(k);
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                for (hs, (keys, _)) in h.iter_mut().zip(&self.syms) {
                    *hs ^= keys[k][i];
                }
                d &= d - 1;
            }
        }
    }
}

/// What the threads of one search share.
struct Shared<'a> {
    table: &'a Table,
    zob: &'a Zobrist,
    config: &'a SearchConfig,
    control: &'a Control<'a>,
    nodes: AtomicU64,
    start: Instant,
    /// Milliseconds since the start of the last progress report.
    last_report: AtomicU64,
    /// The checkpoint, when the search keeps one.
    saver: Option<&'a checkpoint::Saver<'a>>,
    /// The positions threads are searching now (more than one thread
    /// only: see [`Busy`]).
    busy: Option<Busy>,
}

/// Big regions per node before the rest are merged into one part.
const MAX_PARTS: usize = 8;
/// Nodes between looks at the stop flag, the budget and the clock.
pub(crate) const CHECK_EVERY: u64 = 1 << 12;
/// Plies of the current line kept for progress reports.
pub(crate) const LINE_PLIES: usize = 8;

/// A search node: the big regions' board, its hash, the big regions, and
/// the sum of the small regions' values.
#[derive(Copy, Clone, Debug)]
struct Node {
    board: Board,
    hash: [u128; MAX_SYMS],
    parts: [Bits; MAX_PARTS],
    nparts: usize,
    tail: GameId,
}

/// One thread's search.
struct Engine<'s, 'r, R: Knowledge> {
    rules: &'r R,
    sh: &'s Shared<'s>,
    values: Solver<'r, R>,
    arena: Arena,
    tail_hashes: FxHashMap<GameId, u64>,
    counts: SearchCounts,
    /// Options per depth, reused: (position, score, generation index).
    scratch: Vec<Vec<(Board, i32)>>,
    depth: usize,
    line: [(u16, u16); LINE_PLIES],
    first: Player,
    unflushed: u64,
    /// Table counts not yet added to the table's.
    tally: table::Tally,
    /// The winning move found at the root.
    root_best: Option<Board>,
    /// Raised when the reply this thread was dealt at a shared root is
    /// needed no more ([`dealt`]): its search stops with
    /// [`SearchError::Sibling`].
    abandon: Option<&'s AtomicBool>,
    /// History counts ([`MoveOrdering::History`]): per mover, per hashed
    /// set of changed cells.
    history: Vec<u32>,
    /// The ruleset is impartial: both players have the same options (and
    /// the tail is a nimber), so the mover is left out of the table key
    /// and the second first player's search is answered from the first's.
    impartial: bool,
    /// The mirror (index in [`Zobrist::mirrors`]) that keeps the parent's
    /// board, handed to the child being searched: its options that the
    /// mirror keeps (the mirror reply) are tried first.
    parent_mirror: Option<usize>,
}

/// Slots per mover of the history counts.
const HISTORY_SLOTS: usize = 1 << 12;

/// The history slot of the move `a -> b` for `mover`: a hash of the cells
/// each layer changed (the same move on another board shares it).
#[inline]
fn history_slot(a: &Board, b: &Board, mover: Player) -> usize {
    let mut x = 0u64;
    for k in 0..3 {
        let d = a.layer(k) ^ b.layer(k);
        x = (x ^ (d as u64) ^ ((d >> 64) as u64).rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    let slot = (x >> 52) as usize;
    match mover {
        Player::Left => slot,
        Player::Right => HISTORY_SLOTS + slot,
    }
}

impl<'s, 'r, R: Knowledge> Engine<'s, 'r, R> {
    fn new(rules: &'r R, sh: &'s Shared<'s>) -> Result<Self, SearchError> {
        Ok(Engine {
            rules,
            sh,
            values: Solver::new(rules, Savings::ALL)?,
            arena: Arena::new(),
            tail_hashes: FxHashMap::default(),
            counts: SearchCounts::default(),
            scratch: Vec::new(),
            depth: 0,
            line: [(0, 0); LINE_PLIES],
            first: Player::Left,
            unflushed: 0,
            tally: table::Tally::default(),
            root_best: None,
            abandon: None,
            history: vec![0; 2 * HISTORY_SLOTS],
            impartial: rules.impartial(),
            parent_mirror: None,
        })
    }

    /// Search `board` with `first` to move, returning the answer and a
    /// winning move.
    fn solve_root(&mut self, board: &Board, first: Player) -> Result<FirstPlayer, SearchError> {
        let start = Instant::now();
        let before = self.counts;
        self.first = first;
        self.root_best = None;
        self.depth = 0;
        let root = self.root(board);
        let wins = self.wins(&root, first);
        self.flush();
        let wins = wins?;
        let mut counts = self.counts;
        counts.nodes -= before.nodes;
        counts.table_hits -= before.table_hits;
        counts.by_value -= before.by_value;
        counts.by_bounds -= before.by_bounds;
        counts.expanded -= before.expanded;
        counts.regions_valued -= before.regions_valued;
        Ok(FirstPlayer {
            player: first,
            wins,
            winning_move: if wins { self.root_best } else { None },
            counts,
            elapsed: start.elapsed(),
        })
    }

    /// Add this thread's node and table counts to the shared ones.
    fn flush(&mut self) {
        self.sh.table.add(&mut self.tally);
        self.sh
            .nodes
            .fetch_add(std::mem::take(&mut self.unflushed), Relaxed);
    }

    /// Credit `mover`'s move `board -> o`, which won, in the history
    /// counts ([`MoveOrdering::History`]), the more the more cells are left.
    fn credit(&mut self, board: &Board, o: &Board, mover: Player) {
        let left = self.rules.cells(board).count_ones();
        let h = &mut self.history[history_slot(board, o, mover)];
        *h = h.saturating_add(left * left);
    }

    /// The root node: every region a part (small ones are valued as soon
    /// as a move is made, so that a first move can be named on the board).
    fn root(&mut self, board: &Board) -> Node {
        let mut parts = [0; MAX_PARTS];
        let mut nparts = 0;
        if self.sh.config.values_on() {
            for m in regions(self.rules, board) {
                push_part(&mut parts, &mut nparts, m);
            }
        }
        Node {
            board: *board,
            hash: self.sh.zob.board(board),
            parts,
            nparts,
            tail: self.arena.zero(),
        }
    }

    /// The node after option `o` of `node`: the changed region re-split if
    /// the move may have split it, and every part of at most `value_cells`
    /// cells replaced by its value in the tail.
    fn child(&mut self, node: &Node, o: &Board) -> Result<Node, SearchError> {
        let cfg = self.sh.config;
        if !cfg.values_on() {
            let mut hash = node.hash;
            self.sh.zob.update(&mut hash, &node.board, o);
            return Ok(Node {
                board: *o,
                hash,
                parts: node.parts,
                nparts: 0,
                tail: node.tail,
            });
        }
        let mut changed: Bits = 0;
        for k in 0..3 {
            changed |= node.board.layer(k) ^ o.layer(k);
        }
        let cells = self.rules.cells(o);
        let mut parts = [0; MAX_PARTS];
        let mut nparts = 0;
        let mut tail = node.tail;
        let mut removed: Bits = 0;
        let split = self.rules.may_split(&node.board, o);
        for &p in &node.parts[..node.nparts] {
            let q = p & cells;
            if p & changed != 0 && split {
                for s in regions(self.rules, &o.restrict(q)) {
                    if s.count_ones() <= cfg.value_cells {
                        tail = self.add_value(o, s, tail)?;
                        removed |= s;
                    } else {
                        push_part(&mut parts, &mut nparts, s);
                    }
                }
            } else if q == 0 {
            } else if q.count_ones() <= cfg.value_cells {
                tail = self.add_value(o, q, tail)?;
                removed |= q;
            } else {
                push_part(&mut parts, &mut nparts, q);
            }
        }
        let board = if removed == 0 {
            *o
        } else {
            o.restrict(o.full() & !removed)
        };
        let mut hash = node.hash;
        self.sh.zob.update(&mut hash, &node.board, &board);
        Ok(Node {
            board,
            hash,
            parts,
            nparts,
            tail,
        })
    }

    fn add_value(&mut self, o: &Board, mask: Bits, tail: GameId) -> Result<GameId, SearchError> {
        self.counts.regions_valued += 1;
        let g = self.values.value(&mut self.arena, &region_board(o, mask))?;
        Ok(self.arena.sum(tail, g)?)
    }

    /// The table key of (`node`, `mover`) and the handicap to ask it at:
    /// the least key over the images of the position under the usable
    /// symmetries (an image under a player-swapping symmetry has the
    /// negated tail and the other mover). In an impartial ruleset the mover
    /// is no part of the key: the position is the same game whoever moves.
    /// The check bits come from the same image's keys (see [`table::Key`]).
    ///
    /// With [`SearchConfig::handicap`], an integer tail `n` (|n| <= 100) is
    /// left out of the key and becomes the handicap `n` for Left to move,
    /// `-n` for Right: the same in every image (negating the tail swaps the
    /// mover too), and a win of the mover at one handicap is a win at every
    /// larger one. Any other tail is hashed into the key, at handicap 0.
    fn key(&mut self, node: &Node, mover: Player) -> (Key, i8) {
        let zob = self.sh.zob;
        let handicap = if self.sh.config.handicap {
            self.arena
                .as_number(node.tail)
                .filter(|x| x.exp() == 0 && x.num().abs() <= HANDICAP_MAX)
                .map(|x| x.num() as i8)
        } else {
            None
        };
        // A handicap leaves the tail (and its negation) out of the key.
        let (plain, mut negated) = match handicap {
            Some(_) => (0, Some(0)),
            None => (widen(self.tail_hash(node.tail)), None),
        };
        let mut best = (u64::MAX, u32::MAX);
        for (i, &(_, negates)) in zob.syms.iter().enumerate() {
            let (t, m) = if negates {
                let t = match negated {
                    Some(t) => t,
                    None => {
                        let n = self.arena.neg(node.tail);
                        let t = widen(self.tail_hash(n));
                        negated = Some(t);
                        t
                    }
                };
                (t, mover.opponent())
            } else {
                (plain, mover)
            };
            let k = node.hash[i]
                ^ t
                ^ if m == Player::Right && !self.impartial {
                    zob.right_to_move
                } else {
                    0
                };
            best = best.min((k as u64, (k >> 64) as u32));
        }
        let s = match (handicap, mover) {
            (None, _) => 0,
            (Some(n), Player::Left) => n,
            (Some(n), Player::Right) => -n,
        };
        (
            Key {
                hash: best.0,
                check: best.1,
            },
            s,
        )
    }

    /// A hash of a canonical form that does not depend on the arena (so
    /// threads with arenas of their own can share the table).
    fn tail_hash(&mut self, g: GameId) -> u64 {
        if g == self.arena.zero() {
            return 0;
        }
        if let Some(&h) = self.tail_hashes.get(&g) {
            return h;
        }
        let mut s = if let Some(x) = self.arena.as_number(g) {
            (x.num() as u64) ^ (u64::from(x.exp()) << 58) ^ 0x1234_5678
        } else {
            let mut h = 0xABCD_EF01_u64;
            let left = self.arena.left_options(g).to_vec();
            let right = self.arena.right_options(g).to_vec();
            let mut acc = Vec::with_capacity(left.len() + right.len());
            for o in left {
                acc.push(self.tail_hash(o));
            }
            acc.sort_unstable();
            for v in acc.drain(..) {
                h = splitmix(&mut (h ^ v));
            }
            h = splitmix(&mut (h ^ 0x7777));
            for o in right {
                acc.push(self.tail_hash(o));
            }
            acc.sort_unstable();
            for v in acc {
                h = splitmix(&mut (h ^ v));
            }
            h
        };
        let h = splitmix(&mut s) | 1;
        self.tail_hashes.insert(g, h);
        h
    }

    /// Does the ruleset's move-bound knowledge decide the node? Normal
    /// play and bounds for both players needed.
    fn bounds_cutoff(&mut self, node: &Node, mover: Player) -> Option<bool> {
        let left = self.rules.move_bounds(&node.board, Player::Left)?;
        let right = self.rules.move_bounds(&node.board, Player::Right)?;
        let (lo, hi) = tail_bounds(&mut self.arena, node.tail);
        decide_by_bounds(left, right, lo, hi, mover)
    }

    /// The mirror strategy (normal play; [`Ruleset::footprints_whole`](partizan_games::Ruleset::footprints_whole)
    /// rulesets): the mover loses when the tail is 0 and the board is kept
    /// by an involution `s` of the rules that swaps the players (any
    /// geometric one when the ruleset is impartial) and no footprint meets
    /// its image. The opponent answers each move `m` by `s(m)`: it was
    /// the opponent's option (the position is its own image), `m` left its
    /// cells alone (their footprints are disjoint, and a move needs only
    /// its footprint's cells), and the position after both is again its own
    /// image; footprints only cover moves that could ever come, so the
    /// condition holds below too, and the mover runs out of moves first.
    ///
    /// Returns (a mirror that keeps the board with every footprint apart
    /// from its image, a mirror that keeps it).
    fn mirror_state(&self, node: &Node) -> (Option<usize>, Option<usize>) {
        let zob = self.sh.zob;
        let mut kept = None;
        for (i, m) in zob.mirrors.iter().enumerate() {
            if !self.keeps(node, i) {
                continue;
            }
            kept = kept.or(Some(i));
            if self.apart(&node.board, m) {
                return (Some(i), kept);
            }
        }
        (None, kept)
    }

    /// Is every footprint of `b` apart from its image under `m`?
    fn apart(&self, b: &Board, m: &Mirror) -> bool {
        let mut apart = true;
        self.rules.footprints(b, |f| {
            if apart {
                apart = m.image(f) & f == 0;
            }
        });
        apart
    }

    /// Does mirror `i` keep `node`'s board? (The hash first when it has
    /// one, the colour counts when it swaps colours, then exactly.)
    fn keeps(&self, node: &Node, i: usize) -> bool {
        let m = &self.sh.zob.mirrors[i];
        let b = &node.board;
        match m.hashed {
            Some(j) if node.hash[j] != node.hash[0] => return false,
            None if m.sym.negates && b.layer(0).count_ones() != b.layer(1).count_ones() => {
                return false
            }
            _ => {}
        }
        self.rules.apply(b, m.sym) == *b
    }

    /// Look at the stop flag, the budget and the clock ([`budget`]).
    fn check(&mut self) -> Result<(), SearchError> {
        let sh = self.sh;
        budget::Budget {
            control: sh.control,
            table: Some(sh.table),
            nodes: &sh.nodes,
            start: sh.start,
            last_report: &sh.last_report,
            max_nodes: sh.config.max_nodes,
        }
        .check(budget::Searcher {
            unflushed: &mut self.unflushed,
            tally: &mut self.tally,
            found: self.abandon,
            first: self.first,
            line: &self.line[..self.depth.min(LINE_PLIES)],
            fill: (0, 0),
        })?;
        if let Some(s) = sh.saver {
            s.save_if_due(sh.table, sh.nodes.load(Relaxed))?;
        }
        Ok(())
    }

    /// What `node` (`mover` to move) is before its moves are tried:
    /// decided by its small regions' values, the move bounds, the mirror
    /// strategy or the table (none of them at the root, which must name a
    /// move), or open.
    fn settle(&mut self, node: &Node, mover: Player, root: bool) -> Settled {
        let cfg = self.sh.config;
        let normal = cfg.convention == Convention::Normal;
        if normal && !root && cfg.values_on() && node.nparts == 0 {
            self.counts.by_value += 1;
            return Settled::Decided(match self.arena.outcome(node.tail) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => mover == Player::Left,
                Outcome::R => mover == Player::Right,
            });
        }
        if normal && cfg.bounds && !root {
            if let Some(w) = self.bounds_cutoff(node, mover) {
                self.counts.by_bounds += 1;
                return Settled::Decided(w);
            }
        }
        let (apart, kept) = if normal && cfg.bounds {
            self.mirror_state(node)
        } else {
            (None, None)
        };
        if !root && apart.is_some() && node.tail == self.arena.zero() {
            self.counts.by_bounds += 1;
            return Settled::Decided(false);
        }
        let (key, handicap) = self.key(node, mover);
        // An entry is a final win or loss (at the handicaps it covers), so
        // a hit answers the node.
        if !root {
            if let Some(win) = self.sh.table.answer_counted(key, handicap, &mut self.tally) {
                self.counts.table_hits += 1;
                return Settled::Decided(win);
            }
        }
        Settled::Open(Open {
            key,
            handicap,
            kept,
            mirror: apart.or(kept),
        })
    }

    /// `node`'s board options for `mover` into `opts`, in the order they
    /// are tried: by the configured ordering, then the mirror reply first
    /// (after a parent that mirror `parent_mirror` keeps) or, on a board
    /// a mirror keeps (`kept`), a move after which a mirror keeps the board
    /// with every footprint apart (the mirror strategy's opening).
    fn order(
        &self,
        node: &Node,
        mover: Player,
        parent_mirror: Option<usize>,
        kept: Option<usize>,
        opts: &mut Vec<(Board, i32)>,
    ) {
        let other = mover.opponent();
        opts.clear();
        let ordering = self.sh.config.ordering;
        let rules = self.rules;
        rules.options(&node.board, mover, |o| {
            opts.push((o, 0));
        });
        if ordering == MoveOrdering::Safety {
            for (o, score) in opts.iter_mut() {
                *score = rules.safety_score(o, mover);
            }
            opts.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        if ordering == MoveOrdering::History {
            let hist = &self.history;
            for (o, score) in opts.iter_mut() {
                let h = hist[history_slot(&node.board, o, mover)].min(1 << 20) as i32;
                *score = h * 1024 + rules.safety_score(o, mover).clamp(-511, 511);
            }
            opts.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        if ordering == MoveOrdering::Mobility {
            for (o, score) in opts.iter_mut() {
                *score = rules.mobility(o, mover) as i32 - rules.mobility(o, other) as i32;
            }
            opts.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        let mirrors = &self.sh.zob.mirrors;
        let first = if let Some(i) = parent_mirror {
            let sym = mirrors[i].sym;
            opts.iter().position(|(o, _)| rules.apply(o, sym) == *o)
        } else if kept.is_some() {
            opts.iter().position(|(o, _)| {
                mirrors
                    .iter()
                    .any(|m| rules.apply(o, m.sym) == *o && self.apart(o, m))
            })
        } else {
            None
        };
        if let Some(pos) = first {
            opts[..=pos].rotate_right(1);
        }
    }

    /// The busy mark of a position by its table key ([`Busy`]).
    fn mark(key: Key) -> u64 {
        Busy::mark(u128::from(key.hash) | (u128::from(key.check) << 64), 0)
    }

    /// Does `mover` win `node` moving first?
    fn wins(&mut self, node: &Node, mover: Player) -> Result<bool, SearchError> {
        self.counts.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.check()?;
        }
        let cfg = self.sh.config;
        let root = self.depth == 0;
        let parent_mirror = self.parent_mirror.take();
        let Open {
            key,
            handicap,
            kept,
            mirror: here_mirror,
        } = match self.settle(node, mover, root) {
            Settled::Decided(w) => return Ok(w),
            Settled::Open(o) => o,
        };
        self.counts.expanded += 1;
        let before = self.counts.nodes;
        let other = mover.opponent();
        let ordering = cfg.ordering;
        // Options into this depth's scratch list, ordered.
        while self.scratch.len() <= self.depth {
            self.scratch.push(Vec::new());
        }
        let mut opts = std::mem::take(&mut self.scratch[self.depth]);
        self.order(node, mover, parent_mirror, kept, &mut opts);
        let tail_opts: Vec<GameId> = match mover {
            Player::Left => self.arena.left_options(node.tail).to_vec(),
            Player::Right => self.arena.right_options(node.tail).to_vec(),
        };
        // With the root dealt out among threads, a node near the root is
        // marked while searched here, and a child (not the eldest) another
        // thread is searching is put off: pushed again after the node's
        // moves, with its rank as its score, and searched then whatever
        // its mark.
        let busy = (self.depth <= BUSY_DEPTH && !root)
            .then_some(self.sh.busy.as_ref())
            .flatten();
        let marked = busy
            .map(|b| (b, Self::mark(key)))
            .filter(|(b, mark)| b.enter(*mark));
        let defer = busy.filter(|_| self.depth < BUSY_DEPTH);
        let mut win = false;
        let result: Result<(), SearchError> = (|| {
            if opts.is_empty() && tail_opts.is_empty() {
                win = cfg.convention == Convention::Misere;
                return Ok(());
            }
            let n = (opts.len() + tail_opts.len()).min(u16::MAX as usize) as u16;
            let listed = opts.len();
            let mut i = 0;
            while i < opts.len() {
                let (o, score) = opts[i];
                let rank = if i < listed { i } else { score as usize };
                i += 1;
                if self.depth < LINE_PLIES {
                    self.line[self.depth] = (rank as u16 + 1, n);
                }
                let c = self.child(node, &o)?;
                if let Some(b) = defer {
                    if 1 < i && i <= listed && b.busy(Self::mark(self.key(&c, other).0)) {
                        opts.push((o, rank as i32));
                        continue;
                    }
                }
                self.depth += 1;
                self.parent_mirror = here_mirror;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    win = true;
                    if ordering == MoveOrdering::History {
                        self.credit(&node.board, &o, mover);
                    }
                    if root {
                        self.root_best = Some(o);
                    }
                    return Ok(());
                }
            }
            for &t in &tail_opts {
                let c = Node { tail: t, ..*node };
                self.depth += 1;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    win = true;
                    return Ok(());
                }
            }
            Ok(())
        })();
        if let Some((b, mark)) = marked {
            b.leave(mark);
        }
        self.scratch[self.depth] = opts;
        result?;
        let spent = self.counts.nodes - before;
        let work = (64 - spent.leading_zeros()) as u8;
        self.sh
            .table
            .store(key, table::Entry::at(win, handicap, work), &mut self.tally);
        Ok(win)
    }
}

/// What a node is before its moves are tried ([`Engine::settle`]).
enum Settled {
    /// Decided without a move tried: whether the mover wins.
    Decided(bool),
    /// To be searched.
    Open(Open),
}

/// An open node's table key and handicap, the mirror that keeps its board
/// (`kept`), and the mirror its children try the mirror reply of (one that
/// keeps the board with every footprint apart, else `kept`).
#[derive(Copy, Clone, Debug)]
struct Open {
    key: Key,
    handicap: i8,
    kept: Option<usize>,
    mirror: Option<usize>,
}

/// The largest integer tail keyed as a handicap ([`SearchConfig::handicap`]):
/// within an entry's `i8` bounds either way.
const HANDICAP_MAX: i64 = 100;

/// Append a part, merging into the last slot when full (a union of regions
/// is still closed under play; it is only split later than it could be).
#[inline]
fn push_part(parts: &mut [Bits; MAX_PARTS], n: &mut usize, m: Bits) {
    if *n < MAX_PARTS {
        parts[*n] = m;
        *n += 1;
    } else {
        parts[MAX_PARTS - 1] |= m;
    }
}

/// Integers `lo <= g <= hi` around a value: its floor and ceiling when it
/// is a number; otherwise the largest integer below its right stop and the
/// least above its left stop (a game whose right stop exceeds a number `x`
/// is greater than `x`, and one whose left stop is below `x` is less).
pub fn tail_bounds(arena: &mut Arena, g: GameId) -> (i64, i64) {
    if let Some(x) = arena.as_number(g) {
        return (x.floor(), x.ceil());
    }
    let rs = arena.right_stop(g);
    let ls = arena.left_stop(g);
    (rs.ceil() - 1, ls.floor() + 1)
}

/// The move-bound cutoff: with Left's and Right's bounds on the searched
/// board and a number tail `t` with `lo <= t <= hi` (integers), is the
/// mover's fate certain?
///
/// Left moving first wins if her safe moves, plus `lo` free moves when
/// `lo > 0`, number more than every move Right can make (plus `-lo` when
/// `lo < 0`): she moves only safely and Right runs out first. Left moving
/// first loses if Right's safe moves (plus `-hi` when `hi < 0`) are at
/// least every move Left can make (plus `hi` when `hi > 0`). Right is the
/// mirror. The tail is replaced by `lo` for claims in Left's favour and by
/// `hi` for claims in Right's, which only makes the claims harder (a
/// position no worse for Left than one Left wins is one Left wins).
pub fn decide_by_bounds(
    left: MoveBounds,
    right: MoveBounds,
    lo: i64,
    hi: i64,
    mover: Player,
) -> Option<bool> {
    let l = |n: i64, b: MoveBounds| -> (i64, i64) {
        // Left's (safe, max) with an integer tail n.
        (i64::from(b.safe) + n.max(0), i64::from(b.max) + n.max(0))
    };
    let r = |n: i64, b: MoveBounds| -> (i64, i64) {
        (
            i64::from(b.safe) + (-n).max(0),
            i64::from(b.max) + (-n).max(0),
        )
    };
    match mover {
        Player::Left => {
            let (ls, _) = l(lo, left);
            let (_, rm) = r(lo, right);
            if ls > rm {
                return Some(true);
            }
            let (rs, _) = r(hi, right);
            let (_, lm) = l(hi, left);
            if rs >= lm {
                return Some(false);
            }
            None
        }
        Player::Right => {
            let (rs, _) = r(hi, right);
            let (_, lm) = l(hi, left);
            if rs > lm {
                return Some(true);
            }
            let (ls, _) = l(lo, left);
            let (_, rm) = r(lo, right);
            if ls >= rm {
                return Some(false);
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Clobber, Ruleset};

    /// `let $shared`: what the threads of a Clobber search of `$b` with
    /// `$config` share (its table and hashing made alongside).
    macro_rules! clobber_shared {
        ($shared:ident, $b:expr, $config:expr) => {
            let config = $config;
            let table = Table::with_bytes(config.table_bytes);
            let zob = Zobrist::new(&Clobber, $b, config.symmetry);
            let control = Control::default();
            let $shared = Shared {
                table: &table,
                zob: &zob,
                config: &config,
                control: &control,
                nodes: AtomicU64::new(0),
                start: Instant::now(),
                last_report: AtomicU64::new(0),
                saver: None,
                busy: None,
            };
        };
    }

    /// `let mut $e`: an engine of Clobber searching `$b` with `$config`
    /// (its table, hashing and shared state made alongside).
    macro_rules! clobber_engine {
        ($e:ident, $b:expr, $config:expr) => {
            clobber_shared!(shared, $b, $config);
            let mut $e = Engine::new(&Clobber, &shared).unwrap();
        };
    }

    /// The root shared among threads ([`dealt`]), on one thread, tries the
    /// first moves and their replies in the order the node search does, so
    /// it searches the same tree: the same answer, winning move and node
    /// count, under every ordering, with and without small regions' values
    /// (symmetry off, so that no two replies are one position and none is
    /// left out as a repeat).
    #[test]
    fn a_dealt_root_on_one_thread_searches_the_sequential_tree() {
        let mut searched = 0;
        for text in [
            "xoxox|oxoxo|xo.ox",
            "xxoo.|oxox.|xoxoo",
            "xoxo|oxox|xoxo|ox.x",
        ] {
            let b = Clobber.parse(text).unwrap();
            for ordering in [
                MoveOrdering::Natural,
                MoveOrdering::Mobility,
                MoveOrdering::Safety,
                MoveOrdering::History,
            ] {
                for value_cells in [0, 8] {
                    for first in [Player::Left, Player::Right] {
                        let mut config = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
                        config.symmetry = false;
                        config.ordering = ordering;
                        config.value_cells = value_cells;
                        config.table_bytes = 1 << 22;
                        let seq = {
                            clobber_engine!(e, &b, config);
                            e.solve_root(&b, first).unwrap()
                        };
                        let dealt = {
                            clobber_shared!(shared, &b, config);
                            solve_split(&Clobber, &shared, &b, first, 1).unwrap()
                        };
                        let what = format!("{text} {first:?} {ordering:?} {value_cells}");
                        assert_eq!(dealt.wins, seq.wins, "{what}");
                        assert_eq!(dealt.winning_move, seq.winning_move, "{what}");
                        assert_eq!(dealt.counts.nodes, seq.counts.nodes, "{what}");
                        searched += seq.counts.nodes;
                    }
                }
            }
        }
        assert!(searched > 10_000, "the boards were searched, not settled");
    }

    /// With handicap keys, a board with integer tail `n` has the key of
    /// the board alone, asked at `n` for Left and `-n` for Right (also
    /// under the colour-swapping symmetries, which negate the tail and
    /// swap the mover); without them the tail is hashed in. A tail that
    /// is not an integer is hashed in either way, at handicap 0.
    #[test]
    fn integer_tails_are_handicaps_of_one_key() {
        let b = Clobber.parse("xoxo|oxox|xo..").unwrap();
        for handicap in [true, false] {
            let mut config = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
            config.table_bytes = 1 << 12;
            config.handicap = handicap;
            clobber_engine!(e, &b, config);
            let root = e.root(&b);
            let (k0, s0) = e.key(&root, Player::Left);
            assert_eq!(s0, 0);
            for n in [-3i64, 1, 2, 100] {
                let node = Node {
                    tail: e.arena.integer(n).unwrap(),
                    ..root
                };
                let (kl, sl) = e.key(&node, Player::Left);
                let (kr, sr) = e.key(&node, Player::Right);
                if handicap {
                    assert_eq!((kl, sl), (k0, n as i8));
                    assert_eq!((kr, sr), (e.key(&root, Player::Right).0, -n as i8));
                } else {
                    assert_ne!(kl, k0);
                    assert_eq!((sl, sr), (0, 0));
                }
            }
            // Past the bounds an entry holds, and off the integers: hashed.
            let far = Node {
                tail: e.arena.integer(101).unwrap(),
                ..root
            };
            let (kf, sf) = e.key(&far, Player::Left);
            assert_ne!(kf, k0);
            assert_eq!(sf, 0);
            let half = e
                .arena
                .number(partizan_core::Dyadic::new(1, 1).unwrap())
                .unwrap();
            let node = Node { tail: half, ..root };
            let (kh, sh) = e.key(&node, Player::Left);
            assert_ne!(kh, k0);
            assert_eq!(sh, 0);
        }
    }

    /// Checkpoints hold these keys: if this test fails, the hashing
    /// changed, and [`checkpoint::FORMAT`] must be bumped with the new
    /// pinned values.
    #[test]
    fn position_keys_are_pinned_for_checkpoints() {
        let b = Clobber.parse("xoxo|oxox|xo..").unwrap();
        let mut config = SearchConfig::for_ruleset(&Clobber, Convention::Normal);
        config.table_bytes = 1 << 12;
        clobber_engine!(e, &b, config);
        let root = e.root(&b);
        let mut keys = vec![e.key(&root, Player::Left).0, e.key(&root, Player::Right).0];
        let mut opts = Vec::new();
        Clobber.options(&b, Player::Left, |o| opts.push(o));
        for o in &opts[..3] {
            let c = e.child(&root, o).unwrap();
            keys.push(e.key(&c, Player::Right).0);
        }
        // Format 3: the fourth (a child whose least key is now an image
        // under a player-swapping symmetry) changed; the others are the
        // hashes of format 2, from the same random numbers.
        let hashes: Vec<u64> = keys.iter().map(|k| k.hash).collect();
        assert_eq!(
            hashes,
            [
                271484170235418796,
                5453346150059311068,
                2897692213505325922,
                470775940835425053,
                4336650857290250273
            ]
        );
        let checks: Vec<u32> = keys.iter().map(|k| k.check).collect();
        assert_eq!(
            checks,
            [885057936, 2073244067, 2491913327, 674030996, 2478283269]
        );
    }
}
