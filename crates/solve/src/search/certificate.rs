//! Certificates: the winning strategy of an outcome search written as a
//! compact proof, and an independent checker that replays it move by move.
//!
//! A certificate records, for every position of the proof where the
//! winner is to move, the move that wins. The checker plays every reply of
//! the loser and the recorded move of the winner until a position is
//! decided by a rule the certificate's header names:
//!
//! * the player to move has no move (always);
//! * the exact values of its regions (`value-cells N`: regions of at most
//!   N cells, valued by the value solver);
//! * `cutoffs bounds`: the rules' move bounds settle it — the mover's
//!   safe moves, plus an integer tail's free moves, outnumber every move
//!   the opponent can make, or the opponent's safe moves match every move
//!   the mover can make ([`Ruleset::move_bounds`], [`decide_by_bounds`]);
//! * `cutoffs bounds fine` (Domineering, whole positions): its finer bound
//!   too, from protective areas and vulnerable placements
//!   ([`Pos::fine_cut_for`]).
//!
//! Each rule has brute-force twin tests of its own; a proof trusts the
//! rules its header names as it trusts the move generation, and nothing
//! else of the search: not its table, its move order, its symmetry folding
//! or which moves it skipped, so a bug there cannot pass the check. A
//! record only proposes a move: the checker plays it only if it is one of
//! the mover's moves where the checker stands.
//!
//! Positions come in two kinds (`positions`):
//!
//! * `split`: a position is its board (the big regions; small regions
//!   blanked) and its tail (the sum of the small regions' values, CGSuite
//!   notation), decided by values once no big region is left. The general
//!   engine writes these, for every ruleset; the loser's moves in the tail
//!   are the tail's canonical options.
//! * `whole`: the board keeps every region (the tail is 0), decided by
//!   values once every region is small. Domineering writes these: the
//!   winner's moves are chosen by its fast path (an oracle asked about
//!   whole boards) and the proof stops where the fast path's own cutoffs
//!   would, so it is about as large as that search. Domineering 7 x 7
//!   both first players: 25,347 lines (3.2 MB) written in 0.7 s and
//!   checked in 0.3 s, where split positions took 569,032 records and
//!   (before the order below) 17,996,823 records in 583 s; 8 x 8:
//!   1,790,156 lines (285 MB) in 56 s at 0.9 GB, checked in 27 s at
//!   0.7 GB (both were 2.3 GB with whole `Board`s as keys).
//!
//! Where the winner has a choice, the prover takes a move that ends the
//! line at once, and otherwise the first winning move in the search's
//! own order (the opponent's fewest moves and the mover's most safe ones
//! first): the proof follows the lines the search found short.
//!
//! The text format, one record per line, fields separated by tabs:
//!
//! ```text
//! partizan-certificate 2
//! ruleset domineering
//! convention normal
//! value-cells 12
//! positions whole
//! cutoffs bounds fine
//! board ......|......
//! claim left wins
//! claim right loses
//! move L <board> <tail> board <board after the move>
//! move R <board> <tail> tail <tail after the move>
//! ```
//!
//! Version 1 (no `positions` or `cutoffs` line: split, none) is still
//! read.
//!
//! A search of one first player (`--first left|right`) writes only that
//! player's claim line; such a certificate proves that player's answer and
//! no outcome class ([`Claims::class`] is `None`). At least one claim is
//! required.
//!
//! Both sides stream: the prover writes each record as it finds it
//! ([`write_certificate`]) and the checker reads the records one line at a
//! time ([`CertReader`]) into a map keyed by the parsed board's layers and
//! an interned tail, each recorded move kept as its place among the
//! mover's options (checked to be one as it is read), so neither side
//! holds the text, a string or a whole board per record.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use partizan_core::{Arena, GameId, Outcome};
use partizan_games::{Board, Domineering, Player, Ruleset};
use rustc_hash::FxHashMap;
use thiserror::Error;

use super::domineering::{Oracle, Pos};
use super::{
    decide_by_bounds, tail_bounds, Engine, Knowledge, Node, SearchConfig, SearchError,
    SearchReport, Shared, Table, Zobrist,
};
use crate::outcome::{Convention, Outcomes};
use crate::regions::{region_board, regions};
use crate::value::{Savings, SolveError, Solver};

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

/// The first line of every certificate this build writes.
pub const HEADER: &str = "partizan-certificate 2";
/// The first line of a version 1 certificate (no `cutoffs` line), still
/// read.
pub const HEADER_V1: &str = "partizan-certificate 1";

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

/// A record as read from one line, borrowing the line's text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordRef<'a> {
    /// Who moves.
    pub mover: Player,
    /// The position's board.
    pub board: &'a str,
    /// The position's tail.
    pub tail: &'a str,
    /// True: a move on the board to `to`; false: a move in the tail.
    pub on_board: bool,
    /// The board or tail after the move.
    pub to: &'a str,
}

impl RecordRef<'_> {
    /// An owned copy.
    pub fn to_owned(&self) -> Record {
        Record {
            mover: self.mover,
            board: self.board.to_string(),
            tail: self.tail.to_string(),
            play: if self.on_board {
                Play::Board(self.to.to_string())
            } else {
                Play::Tail(self.to.to_string())
            },
        }
    }

    /// Write the record's line.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let kind = if self.on_board { "board" } else { "tail" };
        writeln!(
            out,
            "move\t{}\t{}\t{}\t{kind}\t{}",
            letter(self.mover),
            self.board,
            self.tail,
            self.to
        )
    }
}

impl Record {
    /// The record, borrowed.
    pub fn as_ref(&self) -> RecordRef<'_> {
        let (on_board, to) = match &self.play {
            Play::Board(b) => (true, b.as_str()),
            Play::Tail(t) => (false, t.as_str()),
        };
        RecordRef {
            mover: self.mover,
            board: &self.board,
            tail: &self.tail,
            on_board,
            to,
        }
    }
}

/// Everything of a certificate before its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The ruleset's name.
    pub ruleset: String,
    /// The play convention.
    pub convention: Convention,
    /// Regions of at most this many cells are decided by their values.
    pub value_cells: u32,
    /// Small regions stay on the board (`positions whole`): a position
    /// is decided by values only when all its regions are small. Otherwise
    /// (`positions split`) they are blanked into the tail.
    pub whole: bool,
    /// Positions the rules' move bounds settle are decided by them.
    pub bounds: bool,
    /// Domineering positions its finer bound settles are decided by it
    /// (`cutoffs bounds fine`; whole positions only).
    pub fine: bool,
    /// The root board.
    pub board: String,
    /// The claimed outcomes.
    pub claims: Claims,
}

impl Header {
    /// Write the header's lines.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{HEADER}")?;
        writeln!(out, "ruleset {}", self.ruleset)?;
        let conv = match self.convention {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        };
        writeln!(out, "convention {conv}")?;
        writeln!(out, "value-cells {}", self.value_cells)?;
        let positions = if self.whole { "whole" } else { "split" };
        writeln!(out, "positions {positions}")?;
        let cutoffs = match (self.bounds, self.fine) {
            (true, true) => "bounds fine",
            (true, false) => "bounds",
            _ => "none",
        };
        writeln!(out, "cutoffs {cutoffs}")?;
        writeln!(out, "board {}", self.board)?;
        let w = |b: bool| if b { "wins" } else { "loses" };
        for (who, c) in [
            ("left", self.claims.left_first),
            ("right", self.claims.right_first),
        ] {
            if let Some(c) = c {
                writeln!(out, "claim {who} {}", w(c))?;
            }
        }
        Ok(())
    }
}

/// A proof of both first players' outcomes on one board, in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The ruleset, convention, root board and claims.
    pub header: Header,
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
    /// The certificate could not be read at all.
    #[error("cannot read the certificate: {0}")]
    Io(#[from] std::io::Error),
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
    /// The progress callback asked the check to stop.
    #[error("the check was stopped before it finished")]
    Stopped,
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
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = self.header.write(&mut out);
        for r in &self.records {
            let _ = r.as_ref().write(&mut out);
        }
        String::from_utf8(out).unwrap_or_default()
    }

    /// Read a certificate written by [`Certificate::to_text`].
    pub fn parse(text: &str) -> Result<Certificate, CertError> {
        let mut reader = CertReader::new(text.as_bytes())?;
        let mut records = Vec::new();
        reader.read_records(|r| {
            records.push(r.to_owned());
            Ok(())
        })?;
        Ok(Certificate {
            header: reader.header,
            records,
        })
    }
}

/// Reads a certificate one line at a time: the header when made, then
/// each record through [`CertReader::read_records`].
pub struct CertReader<B: BufRead> {
    input: B,
    /// The current line (without its line break) and its 1-based number.
    buf: String,
    line: usize,
    /// The buffer holds the first record, read while looking for claims.
    pending: bool,
    header: Header,
}

impl<B: BufRead> CertReader<B> {
    /// Read the header and the claims.
    pub fn new(mut input: B) -> Result<CertReader<B>, CertError> {
        let mut buf = String::new();
        let mut line = 0;
        let mut next = |what: &str, buf: &mut String| -> Result<usize, CertError> {
            if read_line(&mut input, buf)? {
                line += 1;
                Ok(line)
            } else {
                Err(CertError::Parse {
                    line: 0,
                    msg: format!("ends before the {what} line"),
                })
            }
        };
        let n = next("header", &mut buf)?;
        let v1 = match buf.trim() {
            HEADER => false,
            HEADER_V1 => true,
            _ => {
                return Err(CertError::Parse {
                    line: n,
                    msg: format!("expected '{HEADER}' (or version 1)"),
                })
            }
        };
        let mut field = |key: &str, buf: &mut String| -> Result<(usize, String), CertError> {
            let n = next(key, buf)?;
            match buf.strip_prefix(key).and_then(|r| r.strip_prefix(' ')) {
                Some(v) => Ok((n, v.trim().to_string())),
                None => Err(CertError::Parse {
                    line: n,
                    msg: format!("expected '{key} ...'"),
                }),
            }
        };
        let (_, ruleset) = field("ruleset", &mut buf)?;
        let (n, conv) = field("convention", &mut buf)?;
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
        let (n, vc) = field("value-cells", &mut buf)?;
        let value_cells = vc.parse().map_err(|_| CertError::Parse {
            line: n,
            msg: format!("bad value-cells '{vc}'"),
        })?;
        let (whole, bounds, fine) = if v1 {
            (false, false, false)
        } else {
            let (n, p) = field("positions", &mut buf)?;
            let whole = match p.as_str() {
                "whole" => true,
                "split" => false,
                _ => {
                    return Err(CertError::Parse {
                        line: n,
                        msg: format!("unknown positions '{p}' (whole or split)"),
                    })
                }
            };
            let (n, c) = field("cutoffs", &mut buf)?;
            let (bounds, fine) = match c.as_str() {
                "bounds fine" if whole => (true, true),
                "bounds" => (true, false),
                "none" => (false, false),
                _ => {
                    return Err(CertError::Parse {
                        line: n,
                        msg: format!(
                        "unknown cutoffs '{c}' (none, bounds, or bounds fine with whole positions)"
                    ),
                    })
                }
            };
            (whole, bounds, fine)
        };
        let (n, board) = field("board", &mut buf)?;
        let mut reader = CertReader {
            input,
            buf,
            line: n,
            pending: false,
            header: Header {
                ruleset,
                convention,
                value_cells,
                whole,
                bounds,
                fine,
                board,
                claims: Claims {
                    left_first: None,
                    right_first: None,
                },
            },
        };
        reader.read_claims()?;
        Ok(reader)
    }

    /// The header and claims.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// One or two claim lines, Left's first; stops at the first record.
    fn read_claims(&mut self) -> Result<(), CertError> {
        let claims = &mut self.header.claims;
        while read_line(&mut self.input, &mut self.buf)? {
            self.line += 1;
            if self.buf.trim().is_empty() {
                continue;
            }
            let Some(rest) = self.buf.strip_prefix("claim ") else {
                self.pending = true;
                break;
            };
            let rest = rest.trim();
            let n = self.line;
            let claim = |who: &str| -> Result<bool, CertError> {
                match rest.strip_prefix(who).map(str::trim) {
                    Some("wins") => Ok(true),
                    Some("loses") => Ok(false),
                    _ => Err(CertError::Parse {
                        line: n,
                        msg: format!("expected 'claim {who} wins|loses'"),
                    }),
                }
            };
            if claims.right_first.is_some() {
                return Err(CertError::Parse {
                    line: n,
                    msg: "a claim after Right's claim".to_string(),
                });
            }
            if claims.left_first.is_none() && rest.starts_with("left") {
                claims.left_first = Some(claim("left")?);
            } else {
                claims.right_first = Some(claim("right")?);
            }
        }
        if claims.left_first.is_none() && claims.right_first.is_none() {
            return Err(CertError::Parse {
                line: if self.pending { self.line } else { 0 },
                msg: "expected 'claim left|right wins|loses'".to_string(),
            });
        }
        Ok(())
    }

    /// Hand every record, in order, to `f`; the number of records.
    pub fn read_records(
        &mut self,
        mut f: impl FnMut(RecordRef<'_>) -> Result<(), CertError>,
    ) -> Result<u64, CertError> {
        let mut count = 0;
        loop {
            if !self.pending {
                if !read_line(&mut self.input, &mut self.buf)? {
                    return Ok(count);
                }
                self.line += 1;
            }
            self.pending = false;
            if self.buf.trim().is_empty() {
                continue;
            }
            f(parse_record(self.line, &self.buf)?)?;
            count += 1;
        }
    }
}

/// Read one line into `buf` without its line break; false at the end.
fn read_line(input: &mut impl BufRead, buf: &mut String) -> Result<bool, CertError> {
    buf.clear();
    if input.read_line(buf)? == 0 {
        return Ok(false);
    }
    while buf.ends_with(['\n', '\r']) {
        buf.pop();
    }
    Ok(true)
}

/// One `move` line.
fn parse_record(line: usize, l: &str) -> Result<RecordRef<'_>, CertError> {
    let bad = |msg: &str| CertError::Parse {
        line,
        msg: msg.to_string(),
    };
    if l.starts_with("claim ") {
        return Err(bad("a claim after a move"));
    }
    let mut f = l.split('\t');
    let mut field = || f.next();
    let (Some("move"), Some(mover), Some(board), Some(tail), Some(kind), Some(to), None) = (
        field(),
        field(),
        field(),
        field(),
        field(),
        field(),
        field(),
    ) else {
        return Err(bad(
            "expected 'move<TAB>L|R<TAB>board<TAB>tail<TAB>board|tail<TAB>to'",
        ));
    };
    let mover = match mover {
        "L" => Player::Left,
        "R" => Player::Right,
        _ => return Err(bad("the mover must be L or R")),
    };
    let on_board = match kind {
        "board" => true,
        "tail" => false,
        _ => return Err(bad("the move kind must be board or tail")),
    };
    Ok(RecordRef {
        mover,
        board,
        tail,
        on_board,
        to,
    })
}

/// The proof being written.
struct Proof<'w> {
    seen: PosSet,
    out: &'w mut dyn Write,
    records: u64,
    /// The certificate declares `cutoffs bounds`.
    bounds: bool,
}

impl Proof<'_> {
    fn emit(&mut self, r: RecordRef<'_>) -> Result<(), SearchError> {
        self.records += 1;
        r.write(self.out)
            .map_err(|e| SearchError::Write(e.to_string()))
    }
}

impl<'s, 'r, R: Knowledge> Engine<'s, 'r, R> {
    /// Whether `mover` wins `node` as the checker decides it without a
    /// record (below the root): by the tail's value when no big region is
    /// left, by the move bounds when the certificate declares them, or
    /// because the mover has no move; `None`: the checker plays on.
    fn settled(&mut self, node: &Node, mover: Player, bounds: bool) -> Option<bool> {
        let cfg = self.sh.config;
        if cfg.values_on() && node.nparts == 0 {
            return Some(match self.arena.outcome(node.tail) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => mover == Player::Left,
                Outcome::R => mover == Player::Right,
            });
        }
        let normal = cfg.convention == Convention::Normal;
        if bounds && normal {
            if let Some(w) = self.bounds_cutoff(node, mover) {
                return Some(w);
            }
        }
        let tail_moves = match mover {
            Player::Left => self.arena.left_options(node.tail).len(),
            Player::Right => self.arena.right_options(node.tail).len(),
        };
        let stuck = tail_moves == 0 && self.rules.options_while(&node.board, mover, |_| false);
        stuck.then_some(!normal)
    }

    /// Record a winning strategy for `winner` from `node` with `mover` to
    /// move (the search has decided that `winner` wins it).
    fn prove(
        &mut self,
        node: &Node,
        mover: Player,
        winner: Player,
        proof: &mut Proof<'_>,
    ) -> Result<(), SearchError> {
        if !proof
            .seen
            .add(&node.board, node.tail.index(), mover == Player::Left)
        {
            return Ok(());
        }
        if self.depth > 0 && self.settled(node, mover, proof.bounds).is_some() {
            return Ok(()); // the checker decides it without a record
        }
        let cfg = self.sh.config;
        let mut opts = Vec::new();
        self.rules.options(&node.board, mover, |o| opts.push(o));
        let tails: Vec<GameId> = match mover {
            Player::Left => self.arena.left_options(node.tail).to_vec(),
            Player::Right => self.arena.right_options(node.tail).to_vec(),
        };
        let other = mover.opponent();
        let rules = self.rules;
        if mover == winner {
            // The search's order: the lines it found short.
            opts.sort_by_cached_key(|o| std::cmp::Reverse(rules.safety_score(o, mover)));
            let mut children = Vec::with_capacity(opts.len() + tails.len());
            for (i, o) in opts.iter().enumerate() {
                children.push((self.child(node, o)?, Some(i)));
            }
            for &t in &tails {
                children.push((Node { tail: t, ..*node }, None));
            }
            // A move that ends the line at once first.
            self.depth += 1;
            let at_once = children
                .iter()
                .position(|(c, _)| self.settled(c, other, proof.bounds) == Some(false));
            self.depth -= 1;
            if let Some(i) = at_once {
                children[..=i].rotate_right(1);
            }
            for (c, on_board) in children {
                self.depth += 1;
                let w = self.wins(&c, other);
                self.depth -= 1;
                if !w? {
                    let to = match on_board {
                        Some(i) => self.rules.format(&opts[i]),
                        None => self.arena.display(c.tail),
                    };
                    proof.emit(RecordRef {
                        mover,
                        board: &self.rules.format(&node.board),
                        tail: &self.arena.display(node.tail),
                        on_board: on_board.is_some(),
                        to: &to,
                    })?;
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

/// Solve `board` (one thread) and write the certificate of each searched
/// first player's answer (both, unless `config.first` names one) to `out`,
/// a record at a time; the search's report and the number of records.
///
/// Where the ruleset has an oracle (Domineering under normal play) the
/// proof keeps whole positions and leans on what the fast path leans on
/// (the move bounds, the finer bound, values of boards whose regions are
/// all small), so it is about as large as the fast path's search;
/// otherwise the general engine walks split positions.
pub fn write_certificate<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    out: &mut dyn Write,
) -> Result<(SearchReport, u64), SearchError> {
    write_certificate_as(rules, board, config, control, out, Positions::Best)
}

/// Which positions a certificate keeps (see [`Header::whole`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Whole positions where the ruleset has an oracle (Domineering under
    /// normal play), split ones elsewhere.
    Best,
    /// Split positions, by the general engine, whatever the ruleset: a
    /// proof that leans on no fast path and no finer bound.
    Split,
}

/// [`write_certificate`] keeping `positions`.
pub fn write_certificate_as<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    out: &mut dyn Write,
    positions: Positions,
) -> Result<(SearchReport, u64), SearchError> {
    let mut config = *config;
    config.threads = 1;
    let report = super::solve(rules, board, &config, control)?;
    let normal = config.convention == Convention::Normal;
    let mut header = Header {
        ruleset: rules.name().to_string(),
        convention: config.convention,
        value_cells: if config.values_on() {
            config.value_cells
        } else {
            0
        },
        whole: false,
        bounds: config.bounds && normal,
        fine: false,
        board: rules.format(board),
        claims: Claims {
            left_first: report.searched(Player::Left).then_some(report.left.wins),
            right_first: report.searched(Player::Right).then_some(report.right.wins),
        },
    };
    let firsts: Vec<(Player, Player)> = [
        (Player::Left, report.outcomes.left_first),
        (Player::Right, report.outcomes.right_first),
    ]
    .into_iter()
    .filter(|&(first, _)| report.searched(first))
    .map(|(first, wins)| (first, if wins { first } else { first.opponent() }))
    .collect();
    let records = rules.with_oracle(board, &config, control, |ask| match ask {
        Some(ask) if normal && positions == Positions::Best => {
            header.whole = true;
            header.fine = header.bounds;
            prove_whole(rules, board, &header, &firsts, ask, out)
        }
        _ => prove_split(rules, board, &config, control, &header, &firsts, out),
    })?;
    Ok((report, records))
}

fn write_err(e: std::io::Error) -> SearchError {
    SearchError::Write(e.to_string())
}

/// The general engine's proof on split positions.
fn prove_split<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    header: &Header,
    firsts: &[(Player, Player)],
    out: &mut dyn Write,
) -> Result<u64, SearchError> {
    header.write(out).map_err(write_err)?;
    // A second pass with a table of its own walks the proof; it re-derives
    // what the first pass's table has forgotten.
    let table = Table::with_bytes(config.table_bytes);
    let zob = Zobrist::new(rules, board, config.symmetry);
    let shared = Shared {
        table: &table,
        zob: &zob,
        config,
        control,
        nodes: std::sync::atomic::AtomicU64::new(0),
        start: Instant::now(),
        last_report: std::sync::atomic::AtomicU64::new(0),
        saver: None,
    };
    let mut e = Engine::new(rules, &shared)?;
    let mut proof = Proof {
        seen: PosSet::default(),
        out,
        records: 0,
        bounds: header.bounds,
    };
    for &(first, winner) in firsts {
        e.depth = 0;
        let root = e.root(board);
        e.prove(&root, first, winner, &mut proof)?;
    }
    proof.out.flush().map_err(write_err)?;
    Ok(proof.records)
}

/// The proof on whole positions: the oracle picks the winner's moves, the
/// checker's own rules ([`Checker::leaf`]) say where a line ends.
fn prove_whole<R: Ruleset>(
    rules: &R,
    board: &Board,
    header: &Header,
    firsts: &[(Player, Player)],
    ask: &mut Oracle<'_>,
    out: &mut dyn Write,
) -> Result<u64, SearchError> {
    header.write(out).map_err(write_err)?;
    let bad = |e: CertError| SearchError::Inconsistent(e.to_string());
    let mut progress = |_: CheckProgress| ControlFlow::Continue(());
    let mut leaves = Checker {
        rules,
        convention: header.convention,
        value_cells: header.value_cells,
        whole: true,
        bounds: header.bounds,
        fine: header.fine,
        moves: Moves::default(),
        tail_ids: FxHashMap::default(),
        values: Solver::new(rules, Savings::ALL).map_err(|e| bad(e.into()))?,
        arena: Arena::new(),
        done: PosSet::default(),
        report: CheckReport::default(),
        limit: u64::MAX,
        progress: &mut progress,
    };
    let zero = leaves.arena.zero();
    let mut w = Whole {
        rules,
        leaves: &mut leaves,
        zero,
        ask,
        seen: PosSet::default(),
        out,
        records: 0,
    };
    for &(first, winner) in firsts {
        w.prove(board, first, winner, true)?;
    }
    w.out.flush().map_err(write_err)?;
    Ok(w.records)
}

/// The state of [`prove_whole`].
struct Whole<'a, 'c, 'r, 'p, 'o, 'd, R: Ruleset> {
    rules: &'a R,
    leaves: &'c mut Checker<'r, 'p, R>,
    zero: GameId,
    ask: &'o mut Oracle<'d>,
    seen: PosSet,
    out: &'a mut dyn Write,
    records: u64,
}

impl<R: Ruleset> Whole<'_, '_, '_, '_, '_, '_, R> {
    fn leaf(&mut self, b: &Board, mover: Player) -> Result<Option<bool>, SearchError> {
        self.leaves
            .leaf(b, self.zero, mover, false)
            .map(|l| l.map(|(w, _)| w))
            .map_err(|e| SearchError::Inconsistent(e.to_string()))
    }

    /// Record `winner`'s strategy from `board` with `mover` to move.
    fn prove(
        &mut self,
        board: &Board,
        mover: Player,
        winner: Player,
        root: bool,
    ) -> Result<(), SearchError> {
        if !self.seen.add(board, 0, mover == Player::Left) {
            return Ok(());
        }
        if !root && self.leaf(board, mover)?.is_some() {
            return Ok(());
        }
        let rules = self.rules;
        let mut opts = Vec::new();
        rules.options(board, mover, |o| opts.push(o));
        let other = mover.opponent();
        if mover != winner {
            for o in &opts {
                self.prove(o, other, winner, false)?;
            }
            return Ok(());
        }
        opts.sort_by_cached_key(|o| std::cmp::Reverse(rules.safety_score(o, mover)));
        let mut chosen = None;
        for (i, o) in opts.iter().enumerate() {
            if self.leaf(o, other)? == Some(false) {
                chosen = Some(i);
                break;
            }
        }
        if chosen.is_none() {
            for (i, o) in opts.iter().enumerate() {
                if !(self.ask)(o, other)? {
                    chosen = Some(i);
                    break;
                }
            }
        }
        let Some(i) = chosen else {
            return Err(SearchError::Inconsistent(format!(
                "no winning move found for {mover:?} at {}",
                rules.format(board)
            )));
        };
        self.records += 1;
        RecordRef {
            mover,
            board: &rules.format(board),
            tail: "0",
            on_board: true,
            to: &rules.format(&opts[i]),
        }
        .write(self.out)
        .map_err(write_err)?;
        self.prove(&opts[i], other, winner, false)
    }
}

/// Solve `board` (one thread) and return the certificate in memory (see
/// [`write_certificate`]).
pub fn solve_with_certificate<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
) -> Result<(SearchReport, Certificate), SearchError> {
    solve_with_certificate_as(rules, board, config, control, Positions::Best)
}

/// [`solve_with_certificate`] keeping `positions`.
pub fn solve_with_certificate_as<R: Knowledge>(
    rules: &R,
    board: &Board,
    config: &SearchConfig,
    control: &super::Control<'_>,
    positions: Positions,
) -> Result<(SearchReport, Certificate), SearchError> {
    let mut text = Vec::new();
    let (report, _) = write_certificate_as(rules, board, config, control, &mut text, positions)?;
    let cert = std::str::from_utf8(&text)
        .map_err(|e| SearchError::Inconsistent(e.to_string()))
        .and_then(|t| {
            Certificate::parse(t).map_err(|e| SearchError::Inconsistent(e.to_string()))
        })?;
    Ok((report, cert))
}

/// What a successful check did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CheckReport {
    /// Distinct positions replayed.
    pub positions: u64,
    /// Positions decided by the values of their regions.
    pub by_value: u64,
    /// Positions decided by the rules' move bounds (`cutoffs bounds`).
    pub by_bounds: u64,
    /// Positions decided because the player to move had no move.
    pub terminal: u64,
    /// Records of the certificate.
    pub records: u64,
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

/// Positions of one proof, keyed compactly. Every position of a proof is
/// on its root's rectangle (moves and blanked regions keep a board's
/// size), so a key is the board's layers without the size, a tail's
/// number and the mover: 24 bytes for a board with only its first layer
/// (Domineering, Cram), 56 for any other, where a `Board` with a tail and
/// the mover took 80. The checker's and the prover's memory is mostly
/// these keys (8 x 8 Domineering: 8.2 M positions replayed, 1.8 M
/// records).
struct PosMap<V> {
    one: FxHashMap<OneLayer, V>,
    all: FxHashMap<AllLayers, V>,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct OneLayer {
    bits: [u64; 2],
    tail: u32,
    left: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct AllLayers {
    bits: [[u64; 2]; 3],
    tail: u32,
    left: bool,
}

/// A layer as two words (no 16-byte alignment to pad the keys to).
fn words(x: u128) -> [u64; 2] {
    [x as u64, (x >> 64) as u64]
}

impl<V> Default for PosMap<V> {
    fn default() -> Self {
        PosMap {
            one: FxHashMap::default(),
            all: FxHashMap::default(),
        }
    }
}

/// A position's key in one of [`PosMap`]'s two maps.
enum PosKey {
    One(OneLayer),
    All(AllLayers),
}

impl PosKey {
    fn of(board: &Board, tail: u32, left: bool) -> PosKey {
        match board.layers() {
            [l0, 0, 0] => PosKey::One(OneLayer {
                bits: words(l0),
                tail,
                left,
            }),
            [l0, l1, l2] => PosKey::All(AllLayers {
                bits: [words(l0), words(l1), words(l2)],
                tail,
                left,
            }),
        }
    }
}

impl<V> PosMap<V> {
    /// Key `board` (its layers: the caller keeps every board on one
    /// rectangle), `tail` and the mover `left` to `v`; the value it had.
    fn insert(&mut self, board: &Board, tail: u32, left: bool, v: V) -> Option<V> {
        match PosKey::of(board, tail, left) {
            PosKey::One(k) => self.one.insert(k, v),
            PosKey::All(k) => self.all.insert(k, v),
        }
    }

    /// The value keyed to `board`, `tail` and `left`.
    fn get(&self, board: &Board, tail: u32, left: bool) -> Option<&V> {
        match PosKey::of(board, tail, left) {
            PosKey::One(k) => self.one.get(&k),
            PosKey::All(k) => self.all.get(&k),
        }
    }

    /// Add `board`, `tail`, `left` to a set: whether it was new.
    fn add(&mut self, board: &Board, tail: u32, left: bool) -> bool
    where
        V: Default,
    {
        self.insert(board, tail, left, V::default()).is_none()
    }
}

/// A set of positions of one proof (see [`PosMap`]).
type PosSet = PosMap<()>;

/// A recorded move, parsed: which of the mover's options it plays (their
/// place in the ruleset's order of options at the record's board, found
/// when the record is read), or the tail after it (an interned tail
/// text).
#[derive(Copy, Clone, Debug)]
enum Move {
    Board(u32),
    Tail(u32),
}

/// The certificate's records, keyed by (board, interned tail text, Left
/// to move). Tail texts are few; boards are parsed once, when read, and a
/// recorded move on the board is kept as its place among the mover's
/// options.
#[derive(Default)]
struct Moves {
    texts: FxHashMap<Box<str>, u32>,
    map: PosMap<Move>,
}

impl Moves {
    fn text_id(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.texts.get(s) {
            return id;
        }
        let id = self.texts.len() as u32;
        self.texts.insert(s.into(), id);
        id
    }

    /// Read record `r` of the proof whose root is `root`: its board must
    /// be on the root's rectangle and a move on the board one of the
    /// mover's moves there.
    fn insert<R: Ruleset>(
        &mut self,
        rules: &R,
        root: &Board,
        r: RecordRef<'_>,
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
        let tail = self.text_id(r.tail);
        let play = if r.on_board {
            let after = parse(r.to)?;
            // The order the checker's `verify` generates them in.
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
            Move::Tail(self.text_id(r.to))
        };
        self.map.insert(&board, tail, r.mover == Player::Left, play);
        Ok(())
    }
}

/// The independent checker (see the module comment).
struct Checker<'r, 'p, R: Ruleset> {
    rules: &'r R,
    convention: Convention,
    value_cells: u32,
    whole: bool,
    bounds: bool,
    fine: bool,
    moves: Moves,
    /// The interned text of each tail met (`None`: no record has it).
    tail_ids: FxHashMap<GameId, Option<u32>>,
    values: Solver<'r, R>,
    arena: Arena,
    done: PosSet,
    report: CheckReport,
    limit: u64,
    progress: &'p mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
}

impl<R: Ruleset> Checker<'_, '_, R> {
    /// The position after a move: small regions valued into the tail.
    fn normalise(&mut self, o: &Board, tail: GameId) -> Result<(Board, GameId), CertError> {
        if self.whole || self.convention == Convention::Misere || self.value_cells == 0 {
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

    /// The interned text of `tail`, if any record names it.
    fn tail_id(&mut self, tail: GameId) -> Option<u32> {
        if let Some(&id) = self.tail_ids.get(&tail) {
            return id;
        }
        let id = self
            .moves
            .texts
            .get(self.arena.display(tail).as_str())
            .copied();
        self.tail_ids.insert(tail, id);
        id
    }

    /// Whether `mover` wins (`board`, `tail`) by a rule that needs no
    /// record (below the root, normal play): the regions' values when
    /// none is left to play out (split positions: no region left; whole
    /// positions: every region small), the move bounds and the finer
    /// bound when declared; with the rule's name. Counted in the report.
    fn leaf(
        &mut self,
        board: &Board,
        tail: GameId,
        mover: Player,
        root: bool,
    ) -> Result<Option<(bool, &'static str)>, CertError> {
        if self.convention != Convention::Normal {
            return Ok(None);
        }
        let by_values = if root || self.value_cells == 0 {
            None
        } else if !self.whole {
            (self.rules.cells(board) == 0).then_some(tail)
        } else {
            let mut sum = Some(tail);
            for m in regions(self.rules, board) {
                if m.count_ones() > self.value_cells {
                    sum = None;
                    break;
                }
                let g = self
                    .values
                    .value(&mut self.arena, &region_board(board, m))?;
                sum = sum.map(|t| self.arena.sum(t, g)).transpose()?;
            }
            sum
        };
        if let Some(sum) = by_values {
            self.report.by_value += 1;
            let mover_wins = match self.arena.outcome(sum) {
                Outcome::N => true,
                Outcome::P => false,
                Outcome::L => mover == Player::Left,
                Outcome::R => mover == Player::Right,
            };
            return Ok(Some((mover_wins, "the regions' values")));
        }
        if self.bounds {
            let bounds = (
                self.rules.move_bounds(board, Player::Left),
                self.rules.move_bounds(board, Player::Right),
            );
            if let (Some(left), Some(right)) = bounds {
                let (lo, hi) = tail_bounds(&mut self.arena, tail);
                if let Some(w) = decide_by_bounds(left, right, lo, hi, mover) {
                    self.report.by_bounds += 1;
                    return Ok(Some((w, "the move bounds")));
                }
            }
        }
        if self.fine && tail == self.arena.zero() {
            if let Some(w) = Pos::new(board).and_then(|p| p.fine_cut_for(mover)) {
                self.report.by_bounds += 1;
                return Ok(Some((w, "Domineering's finer bound")));
            }
        }
        Ok(None)
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
        if !self.done.add(board, tail.index(), mover == Player::Left) {
            return Ok(());
        }
        self.report.positions += 1;
        if self.report.positions > self.limit {
            return Err(CertError::Limit(self.limit));
        }
        if self.report.positions.is_multiple_of(REPORT_EVERY)
            && (self.progress)(CheckProgress::Replaying(self.report.positions)).is_break()
        {
            return Err(CertError::Stopped);
        }
        let normal = self.convention == Convention::Normal;
        if let Some((mover_wins, why)) = self.leaf(board, tail, mover, root)? {
            if mover_wins != (mover == winner) {
                return Err(CertError::Refuted(format!(
                    "{why} at {} + {} do not give {winner:?} the win with {mover:?} to move",
                    self.rules.format(board),
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
            let play = self
                .tail_id(tail)
                .and_then(|t| self.moves.map.get(board, t, mover == Player::Left))
                .copied();
            let Some(play) = play else {
                return Err(CertError::Refuted(format!(
                    "no move recorded for {mover:?} at {} + {}",
                    self.rules.format(board),
                    self.arena.display(tail)
                )));
            };
            match play {
                Move::Board(i) => {
                    // Read as one of the options at this very board.
                    let Some(after) = opts.get(i as usize) else {
                        return Err(CertError::Refuted(format!(
                            "the recorded move is not a move of {mover:?} from {}",
                            self.rules.format(board)
                        )));
                    };
                    let (b, t) = self.normalise(after, tail)?;
                    self.verify(&b, t, other, winner, false)
                }
                Move::Tail(v) => {
                    let mut found = None;
                    for &t in &tails {
                        if self.tail_id(t) == Some(v) {
                            found = Some(t);
                            break;
                        }
                    }
                    let Some(t) = found else {
                        return Err(CertError::Refuted(format!(
                            "the recorded tail move is not an option of {mover:?} in {}",
                            self.arena.display(tail)
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

/// Replay the certificate whose header is `header` and whose records
/// `records` hands over (see [`CertReader::read_records`]); accept it only
/// if every line of play ends as claimed. At most `limit` positions are
/// replayed; `progress` hears where the check is now and then.
fn check_records<R: Ruleset>(
    rules: &R,
    header: &Header,
    records: impl FnOnce(
        &mut dyn FnMut(RecordRef<'_>) -> Result<(), CertError>,
    ) -> Result<u64, CertError>,
    limit: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
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
    let mut moves = Moves::default();
    let mut read = 0u64;
    let count = records(&mut |r| {
        moves.insert(rules, &board, r)?;
        read += 1;
        if read.is_multiple_of(REPORT_EVERY) && progress(CheckProgress::Reading(read)).is_break() {
            return Err(CertError::Stopped);
        }
        Ok(())
    })?;
    let mut c = Checker {
        rules,
        convention: header.convention,
        value_cells: header.value_cells,
        whole: header.whole,
        bounds: header.bounds,
        fine: header.fine,
        moves,
        tail_ids: FxHashMap::default(),
        values: Solver::new(rules, Savings::ALL)?,
        arena: Arena::new(),
        done: PosSet::default(),
        report: CheckReport {
            records: count,
            ..CheckReport::default()
        },
        limit,
        progress,
    };
    let zero = c.arena.zero();
    for first in [Player::Left, Player::Right] {
        let Some(wins) = header.claims.of(first) else {
            continue;
        };
        let winner = if wins { first } else { first.opponent() };
        c.verify(&board, zero, first, winner, true)?;
    }
    Ok(c.report)
}

/// Replay `cert` on `rules` move by move; accept it only if every line of
/// play ends as claimed. At most `limit` positions are replayed.
pub fn check<R: Ruleset>(
    rules: &R,
    cert: &Certificate,
    limit: u64,
) -> Result<CheckReport, CertError> {
    let records = |f: &mut dyn FnMut(RecordRef<'_>) -> Result<(), CertError>| {
        for r in &cert.records {
            f(r.as_ref())?;
        }
        Ok(cert.records.len() as u64)
    };
    check_records(rules, &cert.header, records, limit, &mut |_| {
        ControlFlow::Continue(())
    })
}

/// Replay the certificate `reader` is reading (its header already read),
/// one record line at a time (see [`check`]).
pub fn check_reader<R: Ruleset, B: BufRead>(
    rules: &R,
    mut reader: CertReader<B>,
    limit: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
) -> Result<CheckReport, CertError> {
    let header = reader.header.clone();
    check_records(rules, &header, |f| reader.read_records(f), limit, progress)
}
