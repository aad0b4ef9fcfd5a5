//! The certificate's text format: a header, one or two claims, then one
//! record per line (see the crate's documentation), read one line at a
//! time with every line bounded ([`MAX_LINE`] bytes).

use std::io::{BufRead, Write};

use partizan_games::Player;
use serde::Serialize;
use thiserror::Error;

/// The play convention a certificate is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// The player who cannot move loses.
    Normal,
    /// The player who cannot move wins.
    Misere,
}

/// The longest line a certificate may have, in bytes (a record's board
/// and tail texts; far more than a 128-cell board and any tail a search
/// writes). A longer line is an error, read no further.
pub const MAX_LINE: usize = 1 << 20;

/// The most cells a certificate may leave to the values of regions
/// (`value-cells`): the checker values such regions itself, with its own
/// small engine ([`crate::values`]), so a header asking for more is
/// refused rather than believed or worked on without end.
pub const MAX_VALUE_CELLS: u32 = 16;

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
            (Some(true), Some(true)) => Some("N"),
            (Some(false), Some(false)) => Some("P"),
            (Some(true), Some(false)) => Some("L"),
            (Some(false), Some(true)) => Some("R"),
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
/// The first line of a certificate made of parts (version 3, written by
/// the job-level search): the header and the records of the top part, then
/// each part, a [`Part`] line and its records (see [`Part`]).
pub const HEADER_V3: &str = "partizan-certificate 3";

/// One part of a version 3 certificate: a proof of its own, rooted at
/// `board` with `mover` to move and claiming `mover_wins`, replayed with
/// the settings of its own line (the certificate's ruleset and convention)
/// before the top part; the top part's lines end where they reach a part's
/// root with the part's claim. Its line:
///
/// ```text
/// part<TAB>L|R<TAB>board<TAB>wins|loses<TAB>value-cells N<TAB>positions whole|split<TAB>cutoffs none|bounds|bounds fine
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Who moves at the part's root.
    pub mover: Player,
    /// The part's root board (on the certificate's rectangle).
    pub board: String,
    /// The claim: the mover wins (or loses).
    pub mover_wins: bool,
    /// The part's `value-cells`.
    pub value_cells: u32,
    /// The part's `positions` (whole or split).
    pub whole: bool,
    /// The part's `cutoffs` include the move bounds.
    pub bounds: bool,
    /// The part's `cutoffs` include Domineering's finer bound.
    pub fine: bool,
}

impl Part {
    /// The part with the settings, board and claim of a job's certificate
    /// `h` for `mover` (its one claim).
    pub fn of(h: &Header, mover: Player, mover_wins: bool) -> Part {
        Part {
            mover,
            board: h.board.clone(),
            mover_wins,
            value_cells: h.value_cells,
            whole: h.whole,
            bounds: h.bounds,
            fine: h.fine,
        }
    }

    /// The header the part is replayed under: `top`'s ruleset and
    /// convention, the part's settings, board and claim.
    pub fn header(&self, top: &Header) -> Header {
        let claim = Some(self.mover_wins);
        Header {
            ruleset: top.ruleset.clone(),
            convention: top.convention,
            value_cells: self.value_cells,
            whole: self.whole,
            bounds: self.bounds,
            fine: self.fine,
            board: self.board.clone(),
            claims: Claims {
                left_first: if self.mover == Player::Left {
                    claim
                } else {
                    None
                },
                right_first: if self.mover == Player::Right {
                    claim
                } else {
                    None
                },
            },
        }
    }

    /// Write the part's line.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "part\t{}\t{}\t{}\tvalue-cells {}\tpositions {}\tcutoffs {}",
            letter(self.mover),
            self.board,
            if self.mover_wins { "wins" } else { "loses" },
            self.value_cells,
            if self.whole { "whole" } else { "split" },
            cutoffs_text(self.bounds, self.fine)
        )
    }
}

fn cutoffs_text(bounds: bool, fine: bool) -> &'static str {
    match (bounds, fine) {
        (true, true) => "bounds fine",
        (true, false) => "bounds",
        _ => "none",
    }
}

/// Read `cutoffs`' value: (bounds, fine); `bounds fine` only with whole
/// positions.
fn parse_cutoffs(c: &str, whole: bool, line: usize) -> Result<(bool, bool), CertError> {
    match c {
        "bounds fine" if whole => Ok((true, true)),
        "bounds" => Ok((true, false)),
        "none" => Ok((false, false)),
        _ => Err(CertError::Parse {
            line,
            msg: format!(
                "unknown cutoffs '{c}' (none, bounds, or bounds fine with whole positions)"
            ),
        }),
    }
}

/// Read `positions`' value: whether whole.
fn parse_positions(p: &str, line: usize) -> Result<bool, CertError> {
    match p {
        "whole" => Ok(true),
        "split" => Ok(false),
        _ => Err(CertError::Parse {
            line,
            msg: format!("unknown positions '{p}' (whole or split)"),
        }),
    }
}

/// Read `value-cells`' value, refusing more than [`MAX_VALUE_CELLS`].
fn parse_value_cells(vc: &str, line: usize) -> Result<u32, CertError> {
    let value_cells: u32 = vc.parse().map_err(|_| CertError::Parse {
        line,
        msg: format!("bad value-cells '{vc}'"),
    })?;
    if value_cells > MAX_VALUE_CELLS {
        return Err(CertError::Refused {
            line,
            msg: format!(
                "value-cells {value_cells} is more than the checker values itself \
                 (at most {MAX_VALUE_CELLS} cells a region)"
            ),
        });
    }
    Ok(value_cells)
}

/// `L` or `R`.
fn parse_mover(m: &str) -> Option<Player> {
    match m {
        "L" => Some(Player::Left),
        "R" => Some(Player::Right),
        _ => None,
    }
}

/// One `part` line (see [`Part`]).
fn parse_part(line: usize, l: &str) -> Result<Part, CertError> {
    let bad = |msg: &str| CertError::Parse {
        line,
        msg: msg.to_string(),
    };
    let f: Vec<&str> = l.split('\t').collect();
    let ["part", mover, board, claim, vc, positions, cutoffs] = f[..] else {
        return Err(bad(
            "expected 'part<TAB>L|R<TAB>board<TAB>wins|loses<TAB>value-cells N<TAB>positions P<TAB>cutoffs C'",
        ));
    };
    let Some(mover) = parse_mover(mover) else {
        return Err(bad("a part's mover must be L or R"));
    };
    let mover_wins = match claim {
        "wins" => true,
        "loses" => false,
        _ => return Err(bad("a part's claim must be wins or loses")),
    };
    let field = |key: &str, v: &'_ str| -> Result<String, CertError> {
        v.strip_prefix(key)
            .and_then(|r| r.strip_prefix(' '))
            .map(|r| r.trim().to_string())
            .ok_or_else(|| bad(&format!("expected '{key} ...' in a part line")))
    };
    let value_cells = parse_value_cells(&field("value-cells", vc)?, line)?;
    let whole = parse_positions(&field("positions", positions)?, line)?;
    let (bounds, fine) = parse_cutoffs(&field("cutoffs", cutoffs)?, whole, line)?;
    Ok(Part {
        mover,
        board: board.to_string(),
        mover_wins,
        value_cells,
        whole,
        bounds,
        fine,
    })
}

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
    /// The header of a whole-position proof under normal play that ends
    /// its lines by the move bounds alone (`value-cells 0`), as the
    /// Domineering prover writes them: `ruleset`'s `board`, `claims`.
    pub fn whole_by_bounds(ruleset: &str, board: String, claims: Claims) -> Header {
        Header {
            ruleset: ruleset.to_string(),
            convention: Convention::Normal,
            value_cells: 0,
            whole: true,
            bounds: true,
            fine: false,
            board,
            claims,
        }
    }

    /// Write the header's lines.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        self.write_as(out, HEADER)
    }

    /// Write the header's lines as the top of a certificate made of parts
    /// ([`HEADER_V3`]; the parts follow the top part's records).
    pub fn write_with_parts(&self, out: &mut dyn Write) -> std::io::Result<()> {
        self.write_as(out, HEADER_V3)
    }

    fn write_as(&self, out: &mut dyn Write, first: &str) -> std::io::Result<()> {
        writeln!(out, "{first}")?;
        writeln!(out, "ruleset {}", self.ruleset)?;
        let conv = match self.convention {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        };
        writeln!(out, "convention {conv}")?;
        writeln!(out, "value-cells {}", self.value_cells)?;
        let positions = if self.whole { "whole" } else { "split" };
        writeln!(out, "positions {positions}")?;
        writeln!(out, "cutoffs {}", cutoffs_text(self.bounds, self.fine))?;
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
    /// The header asks for more than the checker does.
    #[error("certificate line {line}: {msg}")]
    Refused {
        /// 1-based line number.
        line: usize,
        /// What is asked, and the checker's limit.
        msg: String,
    },
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
        reader.read_records(|r, _| {
            records.push(r.to_owned());
            Ok(())
        })?;
        if reader.next_part()?.is_some() {
            return Err(CertError::Parse {
                line: reader.line,
                msg: "a certificate made of parts is checked as it is read, not held in memory"
                    .to_string(),
            });
        }
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
    /// The buffer holds a line not yet handled: the first record, read
    /// while looking for claims, or the `part` line that ended a part's
    /// records.
    pending: bool,
    header: Header,
    /// The format's version (1, 2 or 3).
    version: u32,
}

impl<B: BufRead> CertReader<B> {
    /// Read the header and the claims.
    pub fn new(mut input: B) -> Result<CertReader<B>, CertError> {
        let mut buf = String::new();
        let mut line = 0;
        let mut next = |what: &str, buf: &mut String| -> Result<usize, CertError> {
            if read_line(&mut input, buf, line + 1)? {
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
        let version = match buf.trim() {
            HEADER => 2,
            HEADER_V1 => 1,
            HEADER_V3 => 3,
            _ => {
                return Err(CertError::Parse {
                    line: n,
                    msg: format!("expected '{HEADER}' (or version 1 or 3)"),
                })
            }
        };
        let v1 = version == 1;
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
        let value_cells = parse_value_cells(&vc, n)?;
        let (whole, bounds, fine) = if v1 {
            (false, false, false)
        } else {
            let (n, p) = field("positions", &mut buf)?;
            let whole = parse_positions(&p, n)?;
            let (n, c) = field("cutoffs", &mut buf)?;
            let (bounds, fine) = parse_cutoffs(&c, whole, n)?;
            (whole, bounds, fine)
        };
        let (n, board) = field("board", &mut buf)?;
        let mut reader = CertReader {
            input,
            buf,
            line: n,
            pending: false,
            version,
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

    /// The format's version: 1, 2, or 3 (a certificate made of parts).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The line last read (1-based).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The next part's line, after the records of the top part or of the
    /// part before ([`CertReader::read_records`] stops at it); `None` at
    /// the end. Only a version 3 certificate has parts.
    pub fn next_part(&mut self) -> Result<Option<Part>, CertError> {
        loop {
            if !self.pending {
                if !read_line(&mut self.input, &mut self.buf, self.line + 1)? {
                    return Ok(None);
                }
                self.line += 1;
            }
            self.pending = false;
            if self.buf.trim().is_empty() {
                continue;
            }
            if self.version != 3 {
                return Err(CertError::Parse {
                    line: self.line,
                    msg: "a part in a certificate of version 1 or 2".to_string(),
                });
            }
            return parse_part(self.line, &self.buf).map(Some);
        }
    }

    /// One or two claim lines, Left's first; stops at the first record.
    fn read_claims(&mut self) -> Result<(), CertError> {
        let claims = &mut self.header.claims;
        while read_line(&mut self.input, &mut self.buf, self.line + 1)? {
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

    /// Hand every record, in order, to `f` with its line number; the
    /// number of records. In a version 3 certificate the records end at a
    /// `part` line ([`CertReader::next_part`] reads it).
    pub fn read_records(
        &mut self,
        mut f: impl FnMut(RecordRef<'_>, usize) -> Result<(), CertError>,
    ) -> Result<u64, CertError> {
        let mut count = 0;
        loop {
            if !self.pending {
                if !read_line(&mut self.input, &mut self.buf, self.line + 1)? {
                    return Ok(count);
                }
                self.line += 1;
            }
            self.pending = false;
            if self.buf.trim().is_empty() {
                continue;
            }
            if self.version == 3 && self.buf.starts_with("part\t") {
                self.pending = true;
                return Ok(count);
            }
            f(parse_record(self.line, &self.buf)?, self.line)?;
            count += 1;
        }
    }
}

/// Read one line into `buf` without its line break; false at the end.
/// A line of more than [`MAX_LINE`] bytes, or one that is not UTF-8, is
/// an error, and no more of it is read.
fn read_line(input: &mut impl BufRead, buf: &mut String, line: usize) -> Result<bool, CertError> {
    buf.clear();
    let mut bytes = Vec::new();
    let n = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(false);
    }
    if n > MAX_LINE {
        return Err(CertError::Parse {
            line,
            msg: format!("a line longer than {MAX_LINE} bytes"),
        });
    }
    *buf = String::from_utf8(bytes).map_err(|_| CertError::Parse {
        line,
        msg: "a line that is not UTF-8 text".to_string(),
    })?;
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
    let Some(mover) = parse_mover(mover) else {
        return Err(bad("the mover must be L or R"));
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
