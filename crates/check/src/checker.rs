//! The replay: every reply of the loser, the winner's recorded move (or,
//! where none is recorded, the checker's own search for one), until the
//! rules or [`crate::leaves`] decide the line.

use std::ops::ControlFlow;

use partizan_core::{Arena, GameId};
use partizan_games::{Board, Domineering, Player, Ruleset};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::format::{CertError, CertReader, Certificate, Convention, Header, RecordRef};
use crate::leaves::{self, RegionValues};
use crate::values::{Id, Values};

/// What a successful check did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Distinct positions replayed (the checker's own searches included).
    pub positions: u64,
    /// Positions decided by the values of their regions.
    pub by_value: u64,
    /// Positions decided by counting moves (Domineering).
    pub by_bounds: u64,
    /// Positions decided because the player to move had no move.
    pub terminal: u64,
    /// Positions where the winner had no recorded move and the checker
    /// searched for one itself.
    pub searched: u64,
    /// Positions of small regions the checker valued.
    pub valued: u64,
    /// Records of the certificate.
    pub records: u64,
    /// Parts of a certificate made of parts (version 3), each replayed as
    /// a proof of its own.
    pub parts: u64,
}

impl std::ops::AddAssign for CheckReport {
    /// The work of two checks together.
    fn add_assign(&mut self, o: CheckReport) {
        self.positions += o.positions;
        self.by_value += o.by_value;
        self.by_bounds += o.by_bounds;
        self.terminal += o.terminal;
        self.searched += o.searched;
        self.valued += o.valued;
        self.records += o.records;
        self.parts += o.parts;
    }
}

/// Where a check is, for a progress display; the callback that hears it
/// answers whether to go on ([`ControlFlow::Break`] ends the check with
/// [`CertError::Stopped`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckProgress {
    /// This many records read.
    Reading(u64),
    /// This many positions replayed.
    Replaying(u64),
}

/// How often the checker reports where it is (and so asks whether to go
/// on).
const REPORT_EVERY: u64 = 1 << 12;

/// The largest integer a tail is compared with when counting moves, and
/// the largest birthday a recorded tail may have.
const TAIL_REACH: i64 = 256;

/// Positions of one proof, keyed compactly: every position is on the
/// root's rectangle (moves and blanked regions keep a board's size), so a
/// key is the board's layers, a tail's number and a byte of flags (the
/// checker's: Left to move, Left the claimed winner). A board with only
/// its first layer (Domineering, Cram) takes a 24-byte key, any other 56
/// (a whole `Board` with the rest took 80).
pub struct PosMap<V> {
    one: FxHashMap<OneLayer, V>,
    all: FxHashMap<AllLayers, V>,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct OneLayer {
    bits: [u64; 2],
    tail: u32,
    flags: u8,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct AllLayers {
    bits: [[u64; 2]; 3],
    tail: u32,
    flags: u8,
}

impl<V> Default for PosMap<V> {
    fn default() -> Self {
        PosMap {
            one: FxHashMap::default(),
            all: FxHashMap::default(),
        }
    }
}

fn words(x: u128) -> [u64; 2] {
    [x as u64, (x >> 64) as u64]
}

/// A set of positions of one proof (see [`PosMap`]).
pub type PosSet = PosMap<()>;

impl PosSet {
    /// Add a position: whether it was new.
    pub fn add(&mut self, b: &Board, tail: u32, flags: u8) -> bool {
        self.insert(b, tail, flags, ()).is_none()
    }
}

impl<V> PosMap<V> {
    /// Key `b` (the caller keeps every board on one rectangle), `tail`
    /// and `flags` to `v`; the value it had.
    pub fn insert(&mut self, b: &Board, tail: Id, flags: u8, v: V) -> Option<V> {
        match b.layers() {
            [l0, 0, 0] => self.one.insert(
                OneLayer {
                    bits: words(l0),
                    tail,
                    flags,
                },
                v,
            ),
            [l0, l1, l2] => self.all.insert(
                AllLayers {
                    bits: [words(l0), words(l1), words(l2)],
                    tail,
                    flags,
                },
                v,
            ),
        }
    }

    /// How many positions are keyed.
    pub fn len(&self) -> usize {
        self.one.len() + self.all.len()
    }

    /// Whether no position is keyed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value keyed to `b`, `tail` and `flags`.
    pub fn get(&self, b: &Board, tail: Id, flags: u8) -> Option<&V> {
        match b.layers() {
            [l0, 0, 0] => self.one.get(&OneLayer {
                bits: words(l0),
                tail,
                flags,
            }),
            [l0, l1, l2] => self.all.get(&AllLayers {
                bits: [words(l0), words(l1), words(l2)],
                tail,
                flags,
            }),
        }
    }
}

/// The flags of a key: who moves, and who is claimed to win.
fn flags(mover: Player, winner: Player) -> u8 {
    u8::from(mover == Player::Left) | (u8::from(winner == Player::Left) << 1)
}

/// The rules that decide a position without playing it out, with the
/// settings of one certificate (see the crate's documentation). The
/// prover asks them where a line may end; the checker decides by them.
pub struct Leaves<'r, R: Ruleset> {
    rules: &'r R,
    convention: Convention,
    value_cells: u32,
    whole: bool,
    /// Whether Domineering's move counts decide positions (always, for the
    /// checker; a prover told not to lean on move bounds turns them off).
    counts: bool,
    /// The checker's own values.
    pub values: Values,
    regions: RegionValues,
    /// Region positions the values may still take (the check's budget).
    budget: u64,
    parts: Vec<partizan_games::Bits>,
    /// Left's and Right's lines on the check's rectangle, for the counts.
    lines: Option<[leaves::Lines; 2]>,
}

/// Which rule decided a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The values of its regions.
    Values,
    /// Counting safe and possible moves (the counts of safe moves and
    /// protective areas, or the packing of vulnerable placements).
    Counts,
}

impl<'r, R: Ruleset> Leaves<'r, R> {
    /// These rules without the move counts: a prover that is not to lean
    /// on move bounds (`cutoffs none`) ends its lines only at values. The
    /// checker never asks for this.
    #[must_use]
    pub fn without_counts(mut self) -> Self {
        self.counts = false;
        self
    }

    /// The rules for a certificate's settings: regions of at most
    /// `value_cells` cells (capped by [`crate::MAX_VALUE_CELLS`]) are
    /// valued; `whole` positions keep them on the board, split ones blank
    /// them into the tail after each move.
    pub fn new(
        rules: &'r R,
        convention: Convention,
        value_cells: u32,
        whole: bool,
    ) -> Result<Self, CertError> {
        if value_cells > crate::MAX_VALUE_CELLS {
            return Err(CertError::Refused {
                line: 0,
                msg: format!(
                    "value-cells {value_cells} is more than the checker values itself (at most {})",
                    crate::MAX_VALUE_CELLS
                ),
            });
        }
        Ok(Leaves {
            rules,
            convention,
            value_cells,
            whole,
            counts: rules.name() == Domineering.name(),
            values: Values::new(),
            regions: RegionValues::default(),
            budget: u64::MAX,
            parts: Vec::new(),
            lines: None,
        })
    }

    /// Whether Domineering's move counts decide positions here.
    pub fn counts_on(&self) -> bool {
        self.counts && self.convention == Convention::Normal
    }

    /// Region positions valued so far.
    pub fn valued(&self) -> u64 {
        self.regions.valued
    }

    fn region_value(&mut self, b: &Board, mask: partizan_games::Bits) -> Result<Id, CertError> {
        self.regions
            .value(
                self.rules,
                &mut self.values,
                &b.restrict(mask),
                &mut self.budget,
            )
            .ok_or(CertError::Limit(0))
    }

    /// The position after a move to `o`: in split positions, every region
    /// of at most `value_cells` cells valued into the tail and blanked.
    pub fn normalise(&mut self, o: &Board, tail: Id) -> Result<(Board, Id), CertError> {
        if self.whole || self.convention == Convention::Misere || self.value_cells == 0 {
            return Ok((*o, tail));
        }
        let mut keep = 0;
        let mut tail = tail;
        let mut parts = std::mem::take(&mut self.parts);
        leaves::regions_into(self.rules, o, &mut parts);
        for &m in &parts {
            if m.count_ones() <= self.value_cells {
                let g = self.region_value(o, m);
                let g = match g {
                    Ok(g) => g,
                    Err(e) => {
                        self.parts = parts;
                        return Err(e);
                    }
                };
                tail = self.values.sum(tail, g);
            } else {
                keep |= m;
            }
        }
        self.parts = parts;
        Ok((o.restrict(keep), tail))
    }

    /// Whether `mover` wins (`board`, `tail`) by counting moves
    /// (Domineering under normal play, where the counts are on): safe
    /// moves and protective areas ([`leaves::decide_by_counts`]), then the
    /// packing of vulnerable placements ([`leaves::packing_holds`]); the
    /// cheap half of [`Leaves::leaf`].
    pub fn by_counts(&mut self, board: &Board, tail: Id, mover: Player) -> Option<bool> {
        if self.by_counts_half(board, tail, mover, true)? {
            return Some(true);
        }
        self.by_counts_half(board, tail, mover, false)?
            .then_some(false)
    }

    /// Whether the counts say `mover` loses (`board`, `tail`): the second
    /// half of [`Leaves::by_counts`] alone (where it holds, the first
    /// cannot: both are sound), for a prover looking for a move that ends
    /// the line.
    pub fn loses_by_counts(&mut self, board: &Board, tail: Id, mover: Player) -> bool {
        self.by_counts_half(board, tail, mover, false) == Some(true)
    }

    /// One half of [`leaves::decide_by_counts`]: whether the counts say
    /// `mover` wins (`win`) or loses (not `win`), each half counting only
    /// what it reads; `None` where the counts are off or the tail is no
    /// near integer.
    fn by_counts_half(
        &mut self,
        board: &Board,
        tail: Id,
        mover: Player,
        win: bool,
    ) -> Option<bool> {
        if !self.counts_on() {
            return None;
        }
        let lines = match self.lines {
            Some(l) if l[0].fits(board, Player::Left) => l,
            _ if board.width() == 0 || board.height() == 0 => return None,
            _ => {
                let (w, h) = (board.width(), board.height());
                let l = [
                    leaves::Lines::new(w, h, Player::Left),
                    leaves::Lines::new(w, h, Player::Right),
                ];
                self.lines = Some(l);
                l
            }
        };
        let (lo, hi) = if tail == self.values.zero() {
            (0, 0)
        } else {
            leaves::integer_bounds(&mut self.values, tail, TAIL_REACH)?
        };
        let (ml, ol) = match mover {
            Player::Left => (&lines[0], &lines[1]),
            Player::Right => (&lines[1], &lines[0]),
        };
        let e = board.layer(0);
        // The safe moves and protective areas first (on bitboards, cheap),
        // then the packing of vulnerable placements (on bitboards too).
        Some(if win {
            let o = leaves::domineering_most_in(ol, e);
            leaves::mover_sure_to_win(leaves::domineering_sure_in(ml, e), o, lo, hi, mover)
                || leaves::mover_sure_to_win_packed(
                    leaves::domineering_packing_in(ml, e),
                    o,
                    lo,
                    hi,
                    mover,
                )
        } else {
            let m = leaves::domineering_most_in(ml, e);
            leaves::mover_sure_to_lose(m, leaves::domineering_sure_in(ol, e), lo, hi, mover)
                || leaves::mover_sure_to_lose_packed(
                    m,
                    leaves::domineering_packing_in(ol, e),
                    lo,
                    hi,
                    mover,
                )
        })
    }

    /// Whether `mover` wins (`board`, `tail`) by a rule that needs no
    /// play (normal play only), and which rule.
    pub fn leaf(
        &mut self,
        board: &Board,
        tail: Id,
        mover: Player,
    ) -> Result<Option<(bool, Rule)>, CertError> {
        if self.convention != Convention::Normal {
            return Ok(None);
        }
        // Counting first: it is cheap, and where both rules decide they
        // agree (each is sound).
        if let Some(w) = self.by_counts(board, tail, mover) {
            return Ok(Some((w, Rule::Counts)));
        }
        let by_values = if self.rules.cells(board) == 0 {
            Some(tail)
        } else if self.whole && self.value_cells > 0 {
            let mut parts = std::mem::take(&mut self.parts);
            leaves::regions_into(self.rules, board, &mut parts);
            let mut sum = Some(tail);
            if parts.iter().all(|m| m.count_ones() <= self.value_cells) {
                for &m in &parts {
                    match self.region_value(board, m) {
                        Ok(g) => sum = sum.map(|t| self.values.sum(t, g)),
                        Err(e) => {
                            self.parts = parts;
                            return Err(e);
                        }
                    }
                }
            } else {
                sum = None;
            }
            self.parts = parts;
            sum
        } else {
            None
        };
        if let Some(g) = by_values {
            let w = leaves::mover_wins(&mut self.values, g, mover);
            return Ok(Some((w, Rule::Values)));
        }
        Ok(None)
    }
}

/// A recorded move: which of the mover's options it plays (their place in
/// the rules' order of options at the record's board, found when the
/// record is read), or the tail after it.
#[derive(Copy, Clone, Debug)]
enum Move {
    Board(u32),
    Tail(Id),
}

/// The certificate's records, keyed by (board, tail, mover). Tails are
/// read through `partizan_core`'s notation parser and rebuilt in the
/// checker's own values; that reading only finds the record a position
/// has, and a record only proposes a move the replay then plays from the
/// position it stands on, so a misreading can make a true proof fail but
/// never a false one pass.
struct Records {
    map: PosMap<Move>,
    texts: FxHashMap<Box<str>, Id>,
    arena: Arena,
    from_core: FxHashMap<GameId, Id>,
}

impl Records {
    fn new() -> Records {
        Records {
            map: PosMap::default(),
            texts: FxHashMap::default(),
            arena: Arena::new(),
            from_core: FxHashMap::default(),
        }
    }

    /// The checker's value of a tail's text.
    fn tail(&mut self, values: &mut Values, text: &str, line: usize) -> Result<Id, CertError> {
        if let Some(&id) = self.texts.get(text) {
            return Ok(id);
        }
        let bad = |msg: String| CertError::Parse { line, msg };
        let g = self
            .arena
            .parse(text)
            .map_err(|e| bad(format!("bad tail '{text}': {e}")))?;
        if i64::from(self.arena.birthday(g)) > TAIL_REACH {
            return Err(bad(format!(
                "the tail '{text}' is born after day {TAIL_REACH}, past what the checker values"
            )));
        }
        let id = self.convert(values, g);
        self.texts.insert(text.into(), id);
        Ok(id)
    }

    fn convert(&mut self, values: &mut Values, g: GameId) -> Id {
        if let Some(&id) = self.from_core.get(&g) {
            return id;
        }
        let left: Vec<GameId> = self.arena.left_options(g).to_vec();
        let right: Vec<GameId> = self.arena.right_options(g).to_vec();
        let left = left.into_iter().map(|x| self.convert(values, x)).collect();
        let right = right.into_iter().map(|x| self.convert(values, x)).collect();
        let id = values.make(left, right);
        self.from_core.insert(g, id);
        id
    }

    /// Read record `r` (line `line`) of the proof whose root is `root`:
    /// its board must be on the root's rectangle, and a move on the board
    /// one of the mover's moves there.
    fn insert<R: Ruleset>(
        &mut self,
        rules: &R,
        values: &mut Values,
        root: &Board,
        r: RecordRef<'_>,
        line: usize,
    ) -> Result<(), CertError> {
        let parse = |text: &str| {
            rules.parse(text).map_err(|e| CertError::Board {
                board: text.to_string(),
                msg: e.to_string(),
            })
        };
        let board = parse(r.board)?;
        if (board.width(), board.height()) != (root.width(), root.height()) {
            return Err(CertError::Board {
                board: r.board.to_string(),
                msg: format!(
                    "not on the certificate's {} x {} rectangle",
                    root.height(),
                    root.width()
                ),
            });
        }
        let tail = self.tail(values, r.tail, line)?;
        let play = if r.on_board {
            let after = parse(r.to)?;
            let (mut at, mut i) = (None, 0u32);
            rules.options(&board, r.mover, |o| {
                if at.is_none() && o == after {
                    at = Some(i);
                }
                i += 1;
            });
            let Some(i) = at else {
                return Err(CertError::Refuted(format!(
                    "{} is not a move of {:?} from {}",
                    r.to, r.mover, r.board
                )));
            };
            Move::Board(i)
        } else {
            Move::Tail(self.tail(values, r.to, line)?)
        };
        self.map
            .insert(&board, tail, u8::from(r.mover == Player::Left), play);
        Ok(())
    }
}

/// One position being played out.
struct Frame {
    board: Board,
    tail: Id,
    mover: Player,
    /// The positions after the moves to try (the winner's: the recorded
    /// one, or all in order; the loser's: all).
    kids: Vec<(Board, Id)>,
    next: usize,
    /// The claimed winner moves here: one kid won is enough.
    or: bool,
    /// A false answer here is the position's own (every move of the
    /// winner was tried), not only the recorded move's.
    exact: bool,
}

/// Where the proof first failed, for the message.
struct Failure {
    board: Board,
    tail: Id,
    mover: Player,
    why: &'static str,
}

enum Enter {
    Done(bool, bool),
    Open(Frame),
}

/// The most positions the checker keeps from its own searches (beyond
/// them the memory is cleared: they are found again if met again).
const SCRATCH: usize = 1 << 22;

/// What is known of positions: proven (`true`: the claimed winner wins)
/// or refuted (`false`: does not, whatever the records say), in one map
/// (one look-up a position); a proof outranks a refutation.
#[derive(Default)]
struct Known {
    map: PosMap<bool>,
}

impl Known {
    fn get(&self, b: &Board, tail: Id, key: u8) -> Option<bool> {
        if self.map.is_empty() {
            return None;
        }
        self.map.get(b, tail, key).copied()
    }

    fn prove(&mut self, b: &Board, tail: Id, key: u8) {
        self.map.insert(b, tail, key, true);
    }

    fn refute(&mut self, b: &Board, tail: Id, key: u8) {
        if self.map.get(b, tail, key).is_none() {
            self.map.insert(b, tail, key, false);
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// The independent checker (see the crate's documentation).
struct Checker<'r, 'p, R: Ruleset> {
    rules: &'r R,
    leaves: Leaves<'r, R>,
    records: Records,
    /// Positions of the proof itself (kept: the proof is a graph, each
    /// position checked once).
    known: Known,
    /// Positions of the checker's own searches (bounded, see
    /// [`SCRATCH`]).
    scratch: Known,
    /// The stack index of the frame where the checker's own search began.
    search_base: Option<usize>,
    report: CheckReport,
    limit: u64,
    failure: Option<Failure>,
    pool: Vec<Vec<(Board, Id)>>,
    opts: Vec<Board>,
    order: Vec<(i32, Board, Id)>,
    progress: &'p mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
}

impl<R: Ruleset> Checker<'_, '_, R> {
    fn fail(&mut self, board: &Board, tail: Id, mover: Player, why: &'static str) {
        self.failure = Some(Failure {
            board: *board,
            tail,
            mover,
            why,
        });
    }

    fn work(&self) -> u64 {
        self.report.positions + self.leaves.valued()
    }

    /// Step into (`board`, `tail`) with `mover` to move, `winner` claimed
    /// to win: decided at once, or a frame to play out.
    fn enter(
        &mut self,
        board: &Board,
        tail: Id,
        mover: Player,
        winner: Player,
    ) -> Result<Enter, CertError> {
        let key = flags(mover, winner);
        if let Some(r) = self
            .known
            .get(board, tail, key)
            .or_else(|| self.scratch.get(board, tail, key))
        {
            return Ok(Enter::Done(r, true));
        }
        self.report.positions += 1;
        if self.work() > self.limit {
            return Err(CertError::Limit(self.limit));
        }
        if self.report.positions.is_multiple_of(REPORT_EVERY)
            && (self.progress)(CheckProgress::Replaying(self.report.positions)).is_break()
        {
            return Err(CertError::Stopped);
        }
        let limited = |e: CertError| match e {
            CertError::Limit(_) => CertError::Limit(self.limit),
            e => e,
        };
        self.leaves.budget = self.limit.saturating_sub(self.work());
        if let Some((mover_wins, rule)) = self.leaves.leaf(board, tail, mover).map_err(limited)? {
            match rule {
                Rule::Values => self.report.by_value += 1,
                Rule::Counts => self.report.by_bounds += 1,
            }
            let r = mover_wins == (mover == winner);
            if !r {
                let why = match rule {
                    Rule::Values => "the regions' values decide it the other way",
                    Rule::Counts => "counting the moves decides it the other way",
                };
                self.fail(board, tail, mover, why);
            }
            return Ok(Enter::Done(r, true));
        }
        let mut kids = self.pool.pop().unwrap_or_default();
        kids.clear();
        let mut opts = std::mem::take(&mut self.opts);
        opts.clear();
        self.rules.options(board, mover, |o| opts.push(o));
        let on_board = opts.len();
        for o in &opts {
            match self.leaves.normalise(o, tail) {
                Ok(k) => kids.push(k),
                Err(e) => {
                    self.opts = opts;
                    return Err(limited(e));
                }
            }
        }
        self.opts = opts;
        let tails = match mover {
            Player::Left => self.leaves.values.left(tail),
            Player::Right => self.leaves.values.right(tail),
        };
        kids.extend(tails.iter().map(|&t| (*board, t)));
        if kids.is_empty() {
            self.report.terminal += 1;
            self.pool.push(kids);
            let mover_wins = self.leaves.convention == Convention::Misere;
            let r = mover_wins == (mover == winner);
            if !r {
                self.fail(board, tail, mover, "the player to move has no move");
            }
            return Ok(Enter::Done(r, true));
        }
        let frame = |kids, or, exact| Frame {
            board: *board,
            tail,
            mover,
            kids,
            next: 0,
            or,
            exact,
        };
        if mover != winner {
            return Ok(Enter::Open(frame(kids, false, true)));
        }
        let recorded = self
            .records
            .map
            .get(board, tail, u8::from(mover == Player::Left))
            .copied();
        let kid = match recorded {
            Some(Move::Board(i)) if (i as usize) < on_board => Some(kids[i as usize]),
            Some(Move::Board(_)) => None,
            Some(Move::Tail(t)) => kids[on_board..].iter().copied().find(|k| k.1 == t),
            None => {
                // No record: the checker looks for the winning move
                // itself, the likeliest first (the order is only a hint).
                self.report.searched += 1;
                let rules = self.rules;
                let mut order = std::mem::take(&mut self.order);
                order.clear();
                order.extend(
                    kids.iter()
                        .map(|&(b, t)| (-rules.safety_score(&b, mover), b, t)),
                );
                order.sort_unstable_by_key(|k| k.0);
                kids.clear();
                kids.extend(order.iter().map(|&(_, b, t)| (b, t)));
                self.order = order;
                return Ok(Enter::Open(frame(kids, true, true)));
            }
        };
        let Some(kid) = kid else {
            return Err(CertError::Refuted(format!(
                "the recorded move is not a move of {mover:?} at {}",
                self.rules.format(board)
            )));
        };
        kids.clear();
        kids.push(kid);
        Ok(Enter::Open(frame(kids, true, false)))
    }

    /// Check that `winner` wins the root `board` with `first` to move.
    fn prove(&mut self, board: &Board, first: Player, winner: Player) -> Result<(), CertError> {
        let zero = self.leaves.values.zero();
        let mut stack: Vec<Frame> = Vec::new();
        let mut last = None;
        let mut next = Some((*board, zero, first));
        loop {
            if let Some((b, t, m)) = next.take() {
                match self.enter(&b, t, m, winner)? {
                    Enter::Done(r, exact) => last = Some((r, exact)),
                    Enter::Open(f) => {
                        if f.or && f.exact && self.search_base.is_none() {
                            self.search_base = Some(stack.len());
                        }
                        stack.push(f);
                    }
                }
            }
            let Some(top) = stack.last_mut() else { break };
            let mut settled = None;
            if let Some((r, exact)) = last.take() {
                top.exact &= exact;
                if r == top.or {
                    settled = Some(r);
                }
            }
            if settled.is_none() {
                if top.next < top.kids.len() {
                    let (b, t) = top.kids[top.next];
                    top.next += 1;
                    next = Some((b, t, top.mover.opponent()));
                    continue;
                }
                // Every kid tried: the winner found no winning move, or
                // the loser none that escapes.
                settled = Some(!top.or);
                if top.or {
                    let (b, t, m) = (top.board, top.tail, top.mover);
                    self.fail(&b, t, m, "no move of the player to move wins");
                }
            }
            let r = settled.unwrap_or(false);
            let Some(f) = stack.pop() else { break };
            let depth = stack.len();
            let inside = self.search_base.is_some_and(|base| depth > base);
            if self.search_base == Some(depth) {
                self.search_base = None;
            }
            let known = if inside {
                if self.scratch.len() >= SCRATCH {
                    self.scratch = Known::default();
                }
                &mut self.scratch
            } else {
                &mut self.known
            };
            let key = flags(f.mover, winner);
            if r {
                known.prove(&f.board, f.tail, key);
            } else if f.exact {
                known.refute(&f.board, f.tail, key);
            }
            last = Some((r, f.exact));
            self.pool.push(f.kids);
        }
        match last {
            Some((true, _)) => Ok(()),
            _ => Err(CertError::Refuted(self.failure_text(board, first, winner))),
        }
    }

    fn failure_text(&self, root: &Board, first: Player, winner: Player) -> String {
        let claim = format!(
            "{winner:?} does not win {} with {first:?} moving first",
            self.rules.format(root)
        );
        match &self.failure {
            Some(f) => format!(
                "{claim}: at {}{} with {:?} to move, {}",
                self.rules.format(&f.board),
                if f.tail == self.leaves.values.zero() {
                    String::new()
                } else {
                    " plus a tail".to_string()
                },
                f.mover,
                f.why
            ),
            None => claim,
        }
    }
}

/// A position proved by a part of the certificate: its board (on the
/// root's rectangle), who moves, who wins.
type Proven = (Board, Player, Player);

/// Replay the certificate whose header is `header` and whose records
/// `records` hands over, with the line of each; accept it only if every
/// line of play ends as claimed. At most `limit` positions (replayed,
/// searched or valued) are visited; `progress` hears where the check is
/// now and then. The positions of `proven` (whole boards, no tail) are
/// known already: a line that reaches one with its winner ends there.
fn check_records<R: Ruleset>(
    rules: &R,
    header: &Header,
    records: impl FnOnce(
        &mut dyn FnMut(RecordRef<'_>, usize) -> Result<(), CertError>,
    ) -> Result<u64, CertError>,
    limit: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
    proven: &[Proven],
) -> Result<CheckReport, CertError> {
    if header.ruleset != rules.name() {
        return Err(CertError::Ruleset {
            expected: rules.name().to_string(),
            found: header.ruleset.clone(),
        });
    }
    if header.fine && rules.name() != Domineering.name() {
        return Err(CertError::Refuted(format!(
            "the finer bound is Domineering's, not {}'s",
            rules.name()
        )));
    }
    let board = rules.parse(&header.board).map_err(|e| CertError::Board {
        board: header.board.clone(),
        msg: e.to_string(),
    })?;
    let mut leaves = Leaves::new(rules, header.convention, header.value_cells, header.whole)?;
    let mut recs = Records::new();
    let mut read = 0u64;
    let count = records(&mut |r, line| {
        recs.insert(rules, &mut leaves.values, &board, r, line)?;
        read += 1;
        if read.is_multiple_of(REPORT_EVERY) && progress(CheckProgress::Reading(read)).is_break() {
            return Err(CertError::Stopped);
        }
        Ok(())
    })?;
    let zero = leaves.values.zero();
    let mut known = Known::default();
    for (b, mover, winner) in proven {
        known.prove(b, zero, flags(*mover, *winner));
    }
    let mut c = Checker {
        rules,
        leaves,
        records: recs,
        known,
        scratch: Known::default(),
        search_base: None,
        report: CheckReport {
            records: count,
            ..CheckReport::default()
        },
        limit,
        failure: None,
        pool: Vec::new(),
        opts: Vec::new(),
        order: Vec::new(),
        progress,
    };
    for first in [Player::Left, Player::Right] {
        let Some(wins) = header.claims.of(first) else {
            continue;
        };
        let winner = if wins { first } else { first.opponent() };
        c.prove(&board, first, winner)?;
    }
    c.report.valued = c.leaves.valued();
    Ok(c.report)
}

/// Replay `cert` on `rules` move by move; accept it only if every line of
/// play ends as claimed. At most `limit` positions are visited.
pub fn check<R: Ruleset>(
    rules: &R,
    cert: &Certificate,
    limit: u64,
) -> Result<CheckReport, CertError> {
    let records = |f: &mut dyn FnMut(RecordRef<'_>, usize) -> Result<(), CertError>| {
        for (i, r) in cert.records.iter().enumerate() {
            f(r.as_ref(), i + 1)?;
        }
        Ok(cert.records.len() as u64)
    };
    check_records(
        rules,
        &cert.header,
        records,
        limit,
        &mut |_| ControlFlow::Continue(()),
        &[],
    )
}

/// Replay the certificate `reader` is reading (its header already read),
/// one record line at a time (see [`check`]).
pub fn check_reader<R: Ruleset, B: std::io::BufRead>(
    rules: &R,
    mut reader: CertReader<B>,
    limit: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
) -> Result<CheckReport, CertError> {
    let header = reader.header().clone();
    if reader.version() == 3 {
        return check_parts(rules, reader, limit, progress);
    }
    check_records(
        rules,
        &header,
        |f| reader.read_records(f),
        limit,
        progress,
        &[],
    )
}

/// Replay a certificate made of parts (version 3): the top part's records
/// are held while each part is replayed as a proof of its own (its
/// records read and dropped in turn), then the top part is replayed with
/// every part's root known for the part's claim. The position limit is
/// the whole check's.
fn check_parts<R: Ruleset, B: std::io::BufRead>(
    rules: &R,
    mut reader: CertReader<B>,
    limit: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
) -> Result<CheckReport, CertError> {
    let header = reader.header().clone();
    let root = rules.parse(&header.board).map_err(|e| CertError::Board {
        board: header.board.clone(),
        msg: e.to_string(),
    })?;
    let mut top: Vec<(crate::format::Record, usize)> = Vec::new();
    reader.read_records(|r, line| {
        top.push((r.to_owned(), line));
        Ok(())
    })?;
    let mut total = CheckReport::default();
    let mut proven: Vec<Proven> = Vec::new();
    let over = |e: CertError| match e {
        CertError::Limit(_) => CertError::Limit(limit),
        e => e,
    };
    while let Some(part) = reader.next_part()? {
        let line = reader.line();
        let board = rules.parse(&part.board).map_err(|e| CertError::Board {
            board: part.board.clone(),
            msg: e.to_string(),
        })?;
        if (board.width(), board.height()) != (root.width(), root.height()) {
            return Err(CertError::Parse {
                line,
                msg: format!(
                    "a part not on the certificate's {} x {} rectangle",
                    root.height(),
                    root.width()
                ),
            });
        }
        let used = total.positions + total.valued;
        let rep = check_records(
            rules,
            &part.header(&header),
            |f| reader.read_records(f),
            limit.saturating_sub(used),
            progress,
            &[],
        )
        .map_err(over)?;
        total += rep;
        total.parts += 1;
        let winner = if part.mover_wins {
            part.mover
        } else {
            part.mover.opponent()
        };
        proven.push((board, part.mover, winner));
    }
    let used = total.positions + total.valued;
    let records = |f: &mut dyn FnMut(RecordRef<'_>, usize) -> Result<(), CertError>| {
        for (r, line) in &top {
            f(r.as_ref(), *line)?;
        }
        Ok(top.len() as u64)
    };
    let rep = check_records(
        rules,
        &header,
        records,
        limit.saturating_sub(used),
        progress,
        &proven,
    )
    .map_err(over)?;
    total += rep;
    Ok(total)
}
