//! Certificates: the winning strategy of an outcome search written as a
//! compact proof, and an independent checker that replays it move by move.
//!
//! A certificate records, for every position of the proof where the
//! winner is to move, the move that wins (the position after a move on the
//! board, or the value after a move in the small regions' sum). The
//! checker plays every reply of the loser and the recorded move of the
//! winner until a position is decided by the rules alone (the player to
//! move has no move) or by the exact values of its regions (every region
//! at most `value-cells` cells: the outcome of their sum). It shares with
//! the search only the ruleset's move generation, the region finder and
//! the value solver — not the search, its table, its bounds, its move
//! order or its symmetry folding — so a bug there cannot pass the check.
//!
//! The text format, one record per line, fields separated by tabs:
//!
//! ```text
//! partizan-certificate 1
//! ruleset domineering
//! convention normal
//! value-cells 12
//! board ......|......
//! claim left wins
//! claim right loses
//! move L <board> <tail> board <board after the move>
//! move R <board> <tail> tail <tail after the move>
//! ```
//!
//! A position is its board (the big regions; small regions blanked) and
//! its tail (the sum of the small regions' values, CGSuite notation).
//!
//! A search of one first player (`--first left|right`) writes only that
//! player's claim line; such a certificate proves that player's answer and
//! no outcome class ([`Claims::class`] is `None`). At least one claim is
//! required.

use std::time::Instant;

use partizan_core::{Arena, GameId, Outcome};
use partizan_games::{Board, Player, Ruleset};
use rustc_hash::{FxHashMap, FxHashSet};
use thiserror::Error;

use super::{
    Engine, Knowledge, Node, SearchConfig, SearchError, SearchReport, Shared, Table, Zobrist,
};
use crate::outcome::{Convention, Outcomes};

/// What a certificate claims for each first player (`None`: no claim).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Claims {
    /// Left moving first wins (or loses).
    pub left_first: Option<bool>,
    /// Right moving first wins (or loses).
    pub right_first: Option<bool>,
}

impl Claims {
    /// The outcome class, only when both first players are claimed.
    pub fn class(&self) -> Option<&'static str> {
        match (self.left_first, self.right_first) {
            (Some(left_first), Some(right_first)) => Some(
                Outcomes {
                    left_first,
                    right_first,
                }
                .class(),
            ),
            _ => None,
        }
    }

    /// The claim for `p` moving first.
    pub fn of(&self, p: Player) -> Option<bool> {
        match p {
            Player::Left => self.left_first,
            Player::Right => self.right_first,
        }
    }
}
use crate::regions::{region_board, regions};
use crate::value::{Savings, SolveError, Solver};

/// The first line of every certificate.
pub const HEADER: &str = "partizan-certificate 1";

/// What the winner plays at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// A move on the board, to this board (before small regions are
    /// blanked).
    Board(String),
    /// A move in the small regions' sum, to this value.
    Tail(String),
}

/// One winning move of the proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Who moves.
    pub mover: Player,
    /// The position's board.
    pub board: String,
    /// The position's tail, in CGSuite notation.
    pub tail: String,
    /// The winning move.
    pub play: Play,
}

/// A proof of both first players' outcomes on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The ruleset's name.
    pub ruleset: String,
    /// The play convention.
    pub convention: Convention,
    /// Regions of at most this many cells are decided by their values.
    pub value_cells: u32,
    /// The root board.
    pub board: String,
    /// The claimed outcomes.
    pub claims: Claims,
    /// The winners' moves.
    pub records: Vec<Record>,
}

/// Why a certificate was not accepted.
#[derive(Debug, Error)]
pub enum CertError {
    /// A line could not be read.
    #[error("certificate line {line}: {msg}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The certificate is for another ruleset.
    #[error("certificate is for {found}, not {expected}")]
    Ruleset {
        /// The checker's ruleset.
        expected: String,
        /// The certificate's.
        found: String,
    },
    /// A board in the certificate does not parse.
    #[error("bad board '{board}' in the certificate: {msg}")]
    Board {
        /// The text.
        board: String,
        /// The parser's complaint.
        msg: String,
    },
    /// The proof does not hold.
    #[error("the proof fails: {0}")]
    Refuted(String),
    /// The check would visit more positions than allowed.
    #[error("the check stopped after {0} positions (the limit)")]
    Limit(u64),
    /// Valuing a region failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Adding values failed.
    #[error("value arithmetic failed: {0}")]
    Value(#[from] partizan_core::ValueError),
}

fn letter(p: Player) -> &'static str {
    match p {
        Player::Left => "L",
        Player::Right => "R",
    }
}

impl Certificate {
    /// The certificate as text (see the module comment).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        s.push_str(HEADER);
        s.push('\n');
        s.push_str(&format!("ruleset {}\n", self.ruleset));
        let conv = match self.convention {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        };
        s.push_str(&format!("convention {conv}\n"));
        s.push_str(&format!("value-cells {}\n", self.value_cells));
        s.push_str(&format!("board {}\n", self.board));
        let w = |b: bool| if b { "wins" } else { "loses" };
        for (who, c) in [
            ("left", self.claims.left_first),
            ("right", self.claims.right_first),
        ] {
            if let Some(c) = c {
                s.push_str(&format!("claim {who} {}\n", w(c)));
            }
        }
        for r in &self.records {
            let (kind, to) = match &r.play {
                Play::Board(b) => ("board", b),
                Play::Tail(t) => ("tail", t),
            };
            s.push_str(&format!(
                "move\t{}\t{}\t{}\t{kind}\t{to}\n",
                letter(r.mover),
                r.board,
                r.tail
            ));
        }
        s
    }

    /// Read a certificate written by [`Certificate::to_text`].
    pub fn parse(text: &str) -> Result<Certificate, CertError> {
        let mut lines = text.lines().enumerate();
        let mut next = |what: &str| -> Result<(usize, String), CertError> {
            match lines.next() {
                Some((i, l)) => Ok((i + 1, l.to_string())),
                None => Err(CertError::Parse {
                    line: 0,
                    msg: format!("ends before the {what} line"),
                }),
            }
        };
        let (n, h) = next("header")?;
        if h.trim() != HEADER {
            return Err(CertError::Parse {
                line: n,
                msg: format!("expected '{HEADER}'"),
            });
        }
        let field = |(n, l): (usize, String), key: &str| -> Result<(usize, String), CertError> {
            match l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')) {
                Some(v) => Ok((n, v.trim().to_string())),
                None => Err(CertError::Parse {
                    line: n,
                    msg: format!("expected '{key} ...'"),
                }),
            }
        };
        let (_, ruleset) = field(next("ruleset")?, "ruleset")?;
        let (n, conv) = field(next("convention")?, "convention")?;
        let convention = match conv.as_str() {
            "normal" => Convention::Normal,
            "misere" => Convention::Misere,
            _ => {
                return Err(CertError::Parse {
                    line: n,
                    msg: format!("unknown convention '{conv}'"),
                })
            }
        };
        let (n, vc) = field(next("value-cells")?, "value-cells")?;
        let value_cells = vc.parse().map_err(|_| CertError::Parse {
            line: n,
            msg: format!("bad value-cells '{vc}'"),
        })?;
        let (_, board) = field(next("board")?, "board")?;
        let claim = |(n, v): (usize, String), who: &str| -> Result<bool, CertError> {
            match v.strip_prefix(who).map(str::trim) {
                Some("wins") => Ok(true),
                Some("loses") => Ok(false),
                _ => Err(CertError::Parse {
                    line: n,
                    msg: format!("expected 'claim {who} wins|loses'"),
                }),
            }
        };
        // One or two claim lines, Left's first.
        let mut claims = Claims {
            left_first: None,
            right_first: None,
        };
        let mut records = Vec::new();
        let mut first_record = true;
        for (i, l) in lines {
            if l.trim().is_empty() {
                continue;
            }
            if let Some(rest) = l.strip_prefix("claim ") {
                let at = (i + 1, rest.trim().to_string());
                if !records.is_empty() || claims.right_first.is_some() {
                    return Err(CertError::Parse {
                        line: i + 1,
                        msg: "a claim after Right's claim or a move".to_string(),
                    });
                }
                if claims.left_first.is_none() && rest.starts_with("left") {
                    claims.left_first = Some(claim(at, "left")?);
                } else {
                    claims.right_first = Some(claim(at, "right")?);
                }
                continue;
            }
            if first_record {
                first_record = false;
                if claims.left_first.is_none() && claims.right_first.is_none() {
                    return Err(CertError::Parse {
                        line: i + 1,
                        msg: "expected 'claim left|right wins|loses'".to_string(),
                    });
                }
            }
            let f: Vec<&str> = l.split('\t').collect();
            let bad = |msg: &str| CertError::Parse {
                line: i + 1,
                msg: msg.to_string(),
            };
            if f.len() != 6 || f[0] != "move" {
                return Err(bad(
                    "expected 'move<TAB>L|R<TAB>board<TAB>tail<TAB>board|tail<TAB>to'",
                ));
            }
            let mover = match f[1] {
                "L" => Player::Left,
                "R" => Player::Right,
                _ => return Err(bad("the mover must be L or R")),
            };
            let play = match f[4] {
                "board" => Play::Board(f[5].to_string()),
                "tail" => Play::Tail(f[5].to_string()),
                _ => return Err(bad("the move kind must be board or tail")),
            };
            records.push(Record {
                mover,
                board: f[2].to_string(),
                tail: f[3].to_string(),
                play,
            });
        }
        if claims.left_first.is_none() && claims.right_first.is_none() {
            return Err(CertError::Parse {
                line: 0,
                msg: "ends before the claim line".to_string(),
            });
        }
        Ok(Certificate {
            ruleset,
            convention,
            value_cells,
            board,
            claims,
            records,
        })
    }
}

/// The proof being built.
struct Proof {
    seen: FxHashSet<(Board, GameId, bool)>,
    records: Vec<Record>,
}

impl<'s, 'r, R: Knowledge> Engine<'s, 'r, R> {
    /// Record a winning strategy for `winner` from `node` with `mover` to
    /// move (the search has decided that `winner` wins it).
    fn prove(
        &mut self,
        node: &Node,
        mover: Player,
        winner: Player,
        proof: &mut Proof,
    ) -> Result<(), SearchError> {
        if !proof
            .seen
            .insert((node.board, node.tail, mover == Player::Left))
        {
            return Ok(());
        }
        let cfg = self.sh.config;
        if self.depth > 0 && cfg.values_on() && node.nparts == 0 {
            return Ok(()); // decided by the tail's value
        }
        let mut opts = Vec::new();
        self.rules.options(&node.board, mover, |o| opts.push(o));
        let tails: Vec<GameId> = match mover {
            Player::Left => self.arena.left_options(node.tail).to_vec(),
            Player::Right => self.arena.right_options(node.tail).to_vec(),
        };
        let other = mover.opponent();
        if mover == winner {
            for o in &opts {
                let c = self.child(node, o)?;
                self.depth += 1;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    proof.records.push(Record {
                        mover,
                        board: self.rules.format(&node.board),
                        tail: self.arena.display(node.tail),
                        play: Play::Board(self.rules.format(o)),
                    });
                    self.depth += 1;
                    let r = self.prove(&c, other, winner, proof);
                    self.depth -= 1;
                    return r;
                }
            }
            for &t in &tails {
                let c = Node { tail: t, ..*node };
                self.depth += 1;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    proof.records.push(Record {
                        mover,
                        board: self.rules.format(&node.board),
                        tail: self.arena.display(node.tail),
                        play: Play::Tail(self.arena.display(t)),
                    });
                    self.depth += 1;
                    let r = self.prove(&c, other, winner, proof);
                    self.depth -= 1;
                    return r;
                }
            }
            // No move wins: only a misère player without a move wins so.
            if opts.is_empty() && tails.is_empty() && cfg.convention == Convention::Misere {
                return Ok(());
            }
            Err(SearchError::Inconsistent(format!(
                "no winning move found for {mover:?} at {}",
                self.rules.format(&node.board)
            )))
        } else {
            for o in &opts {
                let c = self.child(node, o)?;
                self.depth += 1;
                let r = self.prove(&c, other, winner, proof);
                self.depth -= 1;
                r?;
            }
            for &t in &tails {
                let c = Node { tail: t, ..*node };
                self.depth += 1;
                let r = self.prove(&c, other, winner, proof);
                self.depth -= 1;
                r?;
            }
            Ok(())
        }
    }
}

/// Solve `board` (one thread) and write the proof of each searched first
/// player's answer (both, unless `config.first` names one).
pub fn solve_with_certificate<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
) -> Result<(SearchReport, Certificate), SearchError> {
    let mut config = *config;
    config.threads = 1;
    let report = super::solve(rules, board, &config, control)?;
    // A second pass with a table of its own walks the proof; it re-derives
    // what the first pass's table has forgotten.
    let table = Table::with_bytes(config.table_bytes);
    let zob = Zobrist::new(rules, board, config.symmetry);
    let shared = Shared {
        table: &table,
        zob: &zob,
        config: &config,
        control,
        nodes: std::sync::atomic::AtomicU64::new(0),
        start: Instant::now(),
        last_report: std::sync::atomic::AtomicU64::new(0),
        saver: None,
    };
    let mut e = Engine::new(rules, &shared)?;
    let mut proof = Proof {
        seen: FxHashSet::default(),
        records: Vec::new(),
    };
    for (first, wins) in [
        (Player::Left, report.outcomes.left_first),
        (Player::Right, report.outcomes.right_first),
    ] {
        if !report.searched(first) {
            continue;
        }
        e.depth = 0;
        let root = e.root(board);
        let winner = if wins { first } else { first.opponent() };
        e.prove(&root, first, winner, &mut proof)?;
    }
    let cert = Certificate {
        ruleset: rules.name().to_string(),
        convention: config.convention,
        value_cells: if config.values_on() {
            config.value_cells
        } else {
            0
        },
        board: rules.format(board),
        claims: Claims {
            left_first: report.searched(Player::Left).then_some(report.left.wins),
            right_first: report.searched(Player::Right).then_some(report.right.wins),
        },
        records: proof.records,
    };
    Ok((report, cert))
}

/// What a successful check did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CheckReport {
    /// Distinct positions replayed.
    pub positions: u64,
    /// Positions decided by the values of their regions.
    pub by_value: u64,
    /// Positions decided because the player to move had no move.
    pub terminal: u64,
    /// Records of the certificate.
    pub records: u64,
}

/// The independent checker (see the module comment).
struct Checker<'r, R: Ruleset> {
    rules: &'r R,
    convention: Convention,
    value_cells: u32,
    moves: FxHashMap<(bool, String, String), Play>,
    values: Solver<'r, R>,
    arena: Arena,
    done: FxHashSet<(Board, GameId, bool)>,
    report: CheckReport,
    limit: u64,
}

impl<'r, R: Ruleset> Checker<'r, R> {
    /// The position after a move: small regions valued into the tail.
    fn normalise(&mut self, o: &Board, tail: GameId) -> Result<(Board, GameId), CertError> {
        if self.convention == Convention::Misere || self.value_cells == 0 {
            return Ok((*o, tail));
        }
        let mut keep = 0;
        let mut tail = tail;
        for m in regions(self.rules, o) {
            if m.count_ones() <= self.value_cells {
                let g = self.values.value(&mut self.arena, &region_board(o, m))?;
                tail = self.arena.sum(tail, g)?;
            } else {
                keep |= m;
            }
        }
        Ok((o.restrict(keep), tail))
    }

    /// Check that `winner` wins (`board`, `tail`) with `mover` to move.
    fn verify(
        &mut self,
        board: &Board,
        tail: GameId,
        mover: Player,
        winner: Player,
        root: bool,
    ) -> Result<(), CertError> {
        if !self.done.insert((*board, tail, mover == Player::Left)) {
            return Ok(());
        }
        self.report.positions += 1;
        if self.report.positions > self.limit {
            return Err(CertError::Limit(self.limit));
        }
        let normal = self.convention == Convention::Normal;
        if !root && normal && self.value_cells > 0 && self.rules.cells(board) == 0 {
            self.report.by_value += 1;
            let mover_wins = match self.arena.outcome(tail) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => mover == Player::Left,
                Outcome::R => mover == Player::Right,
            };
            if mover_wins != (mover == winner) {
                return Err(CertError::Refuted(format!(
                    "the regions' values {} do not give {winner:?} the win with {mover:?} to move",
                    self.arena.display(tail)
                )));
            }
            return Ok(());
        }
        let mut opts = Vec::new();
        self.rules.options(board, mover, |o| opts.push(o));
        let tails: Vec<GameId> = match mover {
            Player::Left => self.arena.left_options(tail).to_vec(),
            Player::Right => self.arena.right_options(tail).to_vec(),
        };
        let other = mover.opponent();
        if opts.is_empty() && tails.is_empty() {
            self.report.terminal += 1;
            let mover_wins = !normal;
            if mover_wins != (mover == winner) {
                return Err(CertError::Refuted(format!(
                    "{mover:?} cannot move at {} and so does not lose as claimed",
                    self.rules.format(board)
                )));
            }
            return Ok(());
        }
        if mover == winner {
            let key = (
                mover == Player::Left,
                self.rules.format(board),
                self.arena.display(tail),
            );
            let Some(play) = self.moves.get(&key).cloned() else {
                return Err(CertError::Refuted(format!(
                    "no move recorded for {mover:?} at {} + {}",
                    key.1, key.2
                )));
            };
            match play {
                Play::Board(text) => {
                    let after = self.rules.parse(&text).map_err(|e| CertError::Board {
                        board: text.clone(),
                        msg: e.to_string(),
                    })?;
                    if !opts.contains(&after) {
                        return Err(CertError::Refuted(format!(
                            "{text} is not a move of {mover:?} from {}",
                            key.1
                        )));
                    }
                    let (b, t) = self.normalise(&after, tail)?;
                    self.verify(&b, t, other, winner, false)
                }
                Play::Tail(v) => {
                    let Some(&t) = tails.iter().find(|&&t| self.arena.display(t) == v) else {
                        return Err(CertError::Refuted(format!(
                            "{v} is not an option of {mover:?} in {}",
                            key.2
                        )));
                    };
                    self.verify(board, t, other, winner, false)
                }
            }
        } else {
            for o in &opts {
                let (b, t) = self.normalise(o, tail)?;
                self.verify(&b, t, other, winner, false)?;
            }
            for &t in &tails {
                self.verify(board, t, other, winner, false)?;
            }
            Ok(())
        }
    }
}

/// Replay `cert` on `rules` move by move; accept it only if every line of
/// play ends as claimed. At most `limit` positions are replayed.
pub fn check<R: Ruleset>(
    rules: &R,
    cert: &Certificate,
    limit: u64,
) -> Result<CheckReport, CertError> {
    if cert.ruleset != rules.name() {
        return Err(CertError::Ruleset {
            expected: rules.name().to_string(),
            found: cert.ruleset.clone(),
        });
    }
    let board = rules.parse(&cert.board).map_err(|e| CertError::Board {
        board: cert.board.clone(),
        msg: e.to_string(),
    })?;
    let mut moves = FxHashMap::default();
    for r in &cert.records {
        moves.insert(
            (r.mover == Player::Left, r.board.clone(), r.tail.clone()),
            r.play.clone(),
        );
    }
    let mut c = Checker {
        rules,
        convention: cert.convention,
        value_cells: cert.value_cells,
        moves,
        values: Solver::new(rules, Savings::ALL)?,
        arena: Arena::new(),
        done: FxHashSet::default(),
        report: CheckReport {
            records: cert.records.len() as u64,
            ..CheckReport::default()
        },
        limit,
    };
    let zero = c.arena.zero();
    for first in [Player::Left, Player::Right] {
        let Some(wins) = cert.claims.of(first) else {
            continue;
        };
        let winner = if wins { first } else { first.opponent() };
        c.verify(&board, zero, first, winner, true)?;
    }
    Ok(c.report)
}
