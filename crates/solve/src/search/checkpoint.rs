//! Checkpoints of a long outcome search: the transposition table's proven
//! entries and the root's state (which first players are already decided,
//! with their winning moves), written now and then and when the search
//! stops, so that a run stopped by a budget, a stop flag or a kill resumes
//! without losing its solved subtrees ([`super::solve_resumable`]).
//!
//! The file is versioned and checksummed, and names what it is for:
//!
//! ```text
//! magic "PZCHKPT\n" | format u32 | header | entries | count u64 | crc32 u32
//!   | mac [32]
//! header:  engine, ruleset, board (length-prefixed UTF-8), convention u8,
//!          value cells u32, symmetry u8, sessions u32, nodes before u64,
//!          Left first, Right first (each: 0 open + refuted first moves,
//!          1 loses, 2 wins + winning move + counts)
//! move:    0 none | 1 + width u8 + height u8 + 3 layers u128 (the board
//!          after the move)
//! refuted: count u32 + that many moves with a board (first moves after
//!          which the opponent wins: a resumed search skips them)
//! entry:   key hash u64, the entry's bits (`Entry::to_bits`: win-from
//!          and lose-up-to handicap codes, work) as u32,
//!          key check u32
//! ```
//!
//! That is the entry of the alpha-beta engines ("general", "domineering").
//! The nimber search of impartial rulesets (engine "nimbers") keeps exact
//! regions rather than hashes, so its entries have a layout of their own
//! after the same header ([`super::impartial`] writes and reads them): a
//! checkpoint names its engine, and one engine's file is refused by
//! another as foreign.
//!
//! (little-endian throughout; the CRC-32 covers every byte before it, the
//! MAC every byte before it too, under the user's key:
//! [`partizan_seal::user_key`]). A file is believed only whole and only
//! as written by partizan for this user: the checksum and the MAC are
//! verified over the whole file before anything is read from it, so a
//! file edited by hand (its CRC recomputed or not) or made with another
//! key is refused ([`CheckpointError::Unsealed`]: the decided first
//! players and table bounds it holds are claims nothing else checks); and
//! a checkpoint for another board, ruleset, convention or engine is
//! refused ([`CheckpointError::Foreign`]). Writes go to a hidden temporary sibling
//! and are renamed over `FILE`, so a kill while writing leaves the previous checkpoint.
//!
//! The entries' keys are the engine's position hashes, so a change to the
//! hashing must bump [`FORMAT`] (golden tests pin keys of both engines:
//! the general one in `search::tests`, Domineering's in
//! `search::domineering::tests`). Format 1 had no refuted first moves,
//! formats 1 and 2 no check bits in their keys, format 3 one win/loss bit
//! per entry where format 4 has handicap bounds ([`Entry`]), format 4 no
//! MAC: none of them is read (a format-3 table keyed integer tails apart
//! from the board; a format-4 file cannot be told from a forged one).

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use partizan_games::{Board, Player};
use thiserror::Error;

use super::table::{Entry, Key, Table, Tally};
use super::{FirstPlayer, SearchCounts};
use crate::outcome::Convention;

/// The format's version: bump it whenever the layout or the engine's
/// position hashing changes.
pub const FORMAT: u32 = 5;

/// The MAC's domain: a checkpoint's MAC verifies nothing else.
const MAC_DOMAIN: &str = "partizan checkpoint v5";

const MAGIC: &[u8; 8] = b"PZCHKPT\n";
/// Bytes per entry in the file.
const ENTRY_LEN: u64 = 16;
/// Bytes after the entries: the count, the checksum and the MAC.
const TRAILER_LEN: u64 = 12 + MAC_LEN;
/// Bytes of the MAC.
const MAC_LEN: u64 = partizan_seal::MAC_LEN as u64;

/// Why a checkpoint was not written or not believed.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is damaged or not a checkpoint (never believed).
    #[error("checkpoint {} is damaged or not a checkpoint: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What failed.
        why: String,
    },
    /// The file was written by an older build in a format this one does not
    /// read.
    #[error(
        "checkpoint {} has format {found}, older than this build's {FORMAT} (its table keys and \
         entries mean other things): resume with the build that wrote it, or start afresh",
        path.display()
    )]
    Outdated {
        /// The file.
        path: PathBuf,
        /// Its format.
        found: u32,
    },
    /// The file is whole but was not written by partizan with this user's
    /// key: edited, or from another machine or user (never believed).
    #[error(
        "checkpoint {} was not written with this user's key ({key}): not believed (remove it to \
         start afresh, or set PARTIZAN_KEY to the key file of the machine that wrote it)",
        path.display()
    )]
    Unsealed {
        /// The file.
        path: PathBuf,
        /// The key file used, as text.
        key: String,
    },
    /// The file is a checkpoint of another search.
    #[error("checkpoint {} is for {found}, not {expected}", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it is for.
        found: String,
        /// What this search is.
        expected: String,
    },
}

/// What a checkpoint is for: it is refused for any other search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The engine and its hashing ("general").
    pub engine: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// The board in the ruleset's notation.
    pub board: String,
    /// Normal or misère play.
    pub convention: Convention,
    /// [`SearchConfig::value_cells`](super::SearchConfig::value_cells).
    pub value_cells: u32,
    /// [`SearchConfig::symmetry`](super::SearchConfig::symmetry).
    pub symmetry: bool,
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} ({}, {} engine, value cells {}, symmetry {})",
            self.ruleset,
            self.board,
            match self.convention {
                Convention::Normal => "normal play",
                Convention::Misere => "misère play",
            },
            self.engine,
            self.value_cells,
            if self.symmetry { "on" } else { "off" }
        )
    }
}

/// A first player already decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// Whether they win.
    pub wins: bool,
    /// A winning first move (the position after it), when they win.
    pub winning_move: Option<Board>,
    /// What the search that decided it did.
    pub counts: SearchCounts,
}

impl Decided {
    pub(crate) fn of(fp: &FirstPlayer) -> Decided {
        Decided {
            wins: fp.wins,
            winning_move: fp.winning_move,
            counts: fp.counts,
        }
    }
}

/// The root's state in a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// What the checkpoint is for.
    pub fingerprint: Fingerprint,
    /// Runs that have written this checkpoint.
    pub sessions: u32,
    /// Nodes searched by all those runs together.
    pub nodes: u64,
    /// Left moving first, if decided.
    pub left: Option<Decided>,
    /// Right moving first, if decided.
    pub right: Option<Decided>,
    /// First moves (the board after each) of Left and of Right, moving
    /// first and not yet decided, already refuted: the opponent wins after
    /// them.
    pub solved: [Vec<Board>; 2],
}

impl State {
    /// The state of a search not started yet.
    pub fn fresh(fingerprint: Fingerprint) -> State {
        State {
            fingerprint,
            sessions: 0,
            nodes: 0,
            left: None,
            right: None,
            solved: [Vec::new(), Vec::new()],
        }
    }

    /// The decided answer for `p`, if any.
    pub fn decided(&self, p: Player) -> Option<&Decided> {
        match p {
            Player::Left => self.left.as_ref(),
            Player::Right => self.right.as_ref(),
        }
    }
}

/// A writer that keeps the CRC-32 and the MAC of what went through it.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
    mac: partizan_seal::Mac,
}

impl<W: Write> Crc<W> {
    fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.crc.update(b);
        self.mac.update(b);
        self.inner.write_all(b)
    }
    fn str(&mut self, s: &str) -> std::io::Result<()> {
        self.put(&(s.len() as u32).to_le_bytes())?;
        self.put(s.as_bytes())
    }
    fn board(&mut self, b: Option<&Board>) -> std::io::Result<()> {
        match b {
            None => self.put(&[0]),
            Some(b) => {
                self.put(&[1, b.width() as u8, b.height() as u8])?;
                for k in 0..3 {
                    self.put(&b.layer(k).to_le_bytes())?;
                }
                Ok(())
            }
        }
    }
}

/// What a checkpoint keeps of a search's memory: an engine's table or
/// memo, written entry by entry.
pub(crate) trait Entries {
    /// Write every entry through `put`; the number written.
    fn write_entries(
        &self,
        put: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<u64>;
}

impl Entries for Table {
    fn write_entries(
        &self,
        put: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<u64> {
        let mut count = 0u64;
        let mut err = None;
        self.for_each(|key, e| {
            if err.is_none() {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&key.hash.to_le_bytes());
                b[8..12].copy_from_slice(&e.to_bits().to_le_bytes());
                b[12..].copy_from_slice(&key.check.to_le_bytes());
                match put(&b) {
                    Ok(()) => count += 1,
                    Err(e) => err = Some(e),
                }
            }
        });
        err.map_or(Ok(count), Err)
    }
}

/// Write `state` and every entry of `table` to `path` (through a
/// temporary sibling renamed when complete:
/// [`write_through_temp`](crate::files::write_through_temp)). Returns the
/// number of entries written.
pub fn write(path: &Path, state: &State, table: &Table) -> Result<u64, CheckpointError> {
    write_entries(path, state, table)
}

/// [`write`] for any engine's entries.
pub(crate) fn write_entries(
    path: &Path,
    state: &State,
    entries: &dyn Entries,
) -> Result<u64, CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    crate::files::write_through_temp(path, io, |out| write_to(out, state, entries).map_err(io))
}

/// The checkpoint's bytes, into `out`.
fn write_to(out: &mut impl Write, state: &State, entries: &dyn Entries) -> std::io::Result<u64> {
    let mut w = Crc {
        inner: out,
        crc: crc32fast::Hasher::new(),
        mac: partizan_seal::user_key().key.mac(MAC_DOMAIN),
    };
    {
        w.put(MAGIC)?;
        w.put(&FORMAT.to_le_bytes())?;
        let f = &state.fingerprint;
        w.str(&f.engine)?;
        w.str(&f.ruleset)?;
        w.str(&f.board)?;
        w.put(&[u8::from(f.convention == Convention::Misere)])?;
        w.put(&f.value_cells.to_le_bytes())?;
        w.put(&[u8::from(f.symmetry)])?;
        w.put(&state.sessions.to_le_bytes())?;
        w.put(&state.nodes.to_le_bytes())?;
        for (d, solved) in [&state.left, &state.right].into_iter().zip(&state.solved) {
            match d {
                None => {
                    w.put(&[0])?;
                    w.put(&(solved.len() as u32).to_le_bytes())?;
                    for b in solved {
                        w.board(Some(b))?;
                    }
                }
                Some(d) => {
                    w.put(&[1 + u8::from(d.wins)])?;
                    w.board(d.winning_move.as_ref())?;
                    let c = &d.counts;
                    for n in [
                        c.nodes,
                        c.table_hits,
                        c.by_value,
                        c.by_bounds,
                        c.expanded,
                        c.regions_valued,
                    ] {
                        w.put(&n.to_le_bytes())?;
                    }
                }
            }
        }
        let count = entries.write_entries(&mut |b| w.put(b))?;
        w.put(&count.to_le_bytes())?;
        let crc = w.crc.clone().finalize();
        w.put(&crc.to_le_bytes())?;
        let mac = w.mac.finish();
        w.inner.write_all(&mac)?;
        Ok(count)
    }
}

/// A reader that fails with a "damaged" error at the end of the file.
pub(crate) struct Input {
    inner: BufReader<File>,
}

impl Input {
    pub(crate) fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut b = [0u8; N];
        self.inner
            .read_exact(&mut b)
            .map_err(|e| format!("cut short ({e})"))?;
        Ok(b)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.bytes::<1>()?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }
    fn str(&mut self, used: &mut u64) -> Result<String, String> {
        let n = self.u32()?;
        if n > 1 << 16 {
            return Err(format!("a name of {n} bytes"));
        }
        let mut b = vec![0; n as usize];
        self.inner
            .read_exact(&mut b)
            .map_err(|e| format!("cut short ({e})"))?;
        *used += 4 + u64::from(n);
        String::from_utf8(b).map_err(|_| "a name that is not UTF-8".to_string())
    }
    /// A move's board, if the flag says there is one.
    pub(crate) fn board(&mut self, used: &mut u64) -> Result<Option<Board>, String> {
        *used += 1;
        match self.u8()? {
            0 => Ok(None),
            1 => {
                let (w, h) = (self.u8()?, self.u8()?);
                let mut layers = [0; 3];
                for l in &mut layers {
                    *l = u128::from_le_bytes(self.bytes()?);
                }
                *used += 2 + 48;
                Board::new(usize::from(w), usize::from(h), layers)
                    .map(Some)
                    .map_err(|e| format!("a move that is no board: {e}"))
            }
            m => Err(format!("move flag {m}")),
        }
    }
}

/// Read the checkpoint at `path` for the search `expected` and put its
/// entries into `table`: its state and the number of entries, or `None`
/// when there is no file. The whole file's checksum is verified before
/// anything in it is used; a damaged file or one for another search is an
/// error, never believed.
pub fn read(
    path: &Path,
    expected: &Fingerprint,
    table: &Table,
) -> Result<Option<(State, u64)>, CheckpointError> {
    read_entries(path, expected, &mut |input, body| {
        if body % ENTRY_LEN != 0 {
            return Err(format!("{body} bytes of entries"));
        }
        let count = body / ENTRY_LEN;
        let mut tally = Tally::default();
        for _ in 0..count {
            let hash = input.u64()?;
            let d = input.u32()?;
            let check = input.u32()?;
            let e = Entry::from_bits(d).ok_or_else(|| format!("entry data {d:#x}"))?;
            table.store(Key { hash, check }, e, &mut tally);
        }
        table.add(&mut tally);
        Ok(count)
    })
}

/// [`read`] for any engine's entries: `entries` reads the `body` bytes of
/// them from the input (after the header, the checksum verified) and says
/// how many there were, or why they are not believed.
pub(crate) fn read_entries(
    path: &Path,
    expected: &Fingerprint,
    entries: &mut dyn FnMut(&mut Input, u64) -> Result<u64, String>,
) -> Result<Option<(State, u64)>, CheckpointError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(CheckpointError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let corrupt = |why: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        why,
    };
    let io = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let len = file.metadata().map_err(io)?.len();
    if len < MAGIC.len() as u64 + 4 + 4 {
        return Err(corrupt(format!("{len} bytes")));
    }
    // Pass 1: the checksum and the MAC over everything before them.
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut head = [0u8; 12];
    r.read_exact(&mut head).map_err(io)?;
    let format = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    if &head[..8] == MAGIC && (1..FORMAT).contains(&format) {
        return Err(CheckpointError::Outdated {
            path: path.to_path_buf(),
            found: format,
        });
    }
    if len < TRAILER_LEN + 12 {
        return Err(corrupt(format!("{len} bytes")));
    }
    let user = partizan_seal::user_key();
    let mut crc = crc32fast::Hasher::new();
    let mut mac = user.key.mac(MAC_DOMAIN);
    crc.update(&head);
    mac.update(&head);
    let mut left = len - 12 - 4 - MAC_LEN;
    let mut buf = vec![0u8; 1 << 20];
    while left > 0 {
        let n = left.min(buf.len() as u64) as usize;
        r.read_exact(&mut buf[..n]).map_err(io)?;
        crc.update(&buf[..n]);
        mac.update(&buf[..n]);
        left -= n as u64;
    }
    let mut tail = [0u8; 4];
    r.read_exact(&mut tail).map_err(io)?;
    if crc.finalize() != u32::from_le_bytes(tail) {
        return Err(corrupt("checksum mismatch".to_string()));
    }
    mac.update(&tail);
    let mut tag = [0u8; partizan_seal::MAC_LEN];
    r.read_exact(&mut tag).map_err(io)?;
    if !mac.verify(&tag) {
        return Err(CheckpointError::Unsealed {
            path: path.to_path_buf(),
            key: user.describe(),
        });
    }
    // Pass 2: parse.
    let file = File::open(path).map_err(io)?;
    let mut input = Input {
        inner: BufReader::with_capacity(1 << 20, file),
    };
    let state = read_header(&mut input, expected, path).map_err(|e| match e {
        HeaderError::Bad(why) => corrupt(why),
        HeaderError::Foreign(f) => f,
    })?;
    let (state, used) = state;
    let body = len
        .checked_sub(used + TRAILER_LEN)
        .ok_or_else(|| corrupt("no room for entries".to_string()))?;
    let count = entries(&mut input, body).map_err(corrupt)?;
    if input.u64().map_err(corrupt)? != count {
        return Err(corrupt("entry count mismatch".to_string()));
    }
    Ok(Some((state, count)))
}

enum HeaderError {
    Bad(String),
    Foreign(CheckpointError),
}

impl From<String> for HeaderError {
    fn from(s: String) -> Self {
        HeaderError::Bad(s)
    }
}

/// The header, and how many bytes it took.
fn read_header(
    r: &mut Input,
    expected: &Fingerprint,
    path: &Path,
) -> Result<(State, u64), HeaderError> {
    let magic = r.bytes::<8>()?;
    if &magic != MAGIC {
        return Err(HeaderError::Bad("not a checkpoint file".to_string()));
    }
    let format = r.u32()?;
    if (1..FORMAT).contains(&format) {
        return Err(HeaderError::Foreign(CheckpointError::Outdated {
            path: path.to_path_buf(),
            found: format,
        }));
    }
    if format != FORMAT {
        return Err(HeaderError::Bad(format!(
            "format {format}, this build reads {FORMAT}"
        )));
    }
    let mut used = 12u64;
    let engine = r.str(&mut used)?;
    let ruleset = r.str(&mut used)?;
    let board = r.str(&mut used)?;
    let convention = match r.u8()? {
        0 => Convention::Normal,
        1 => Convention::Misere,
        c => return Err(HeaderError::Bad(format!("convention {c}"))),
    };
    let value_cells = r.u32()?;
    let symmetry = match r.u8()? {
        0 => false,
        1 => true,
        s => return Err(HeaderError::Bad(format!("symmetry flag {s}"))),
    };
    used += 1 + 4 + 1;
    let fingerprint = Fingerprint {
        engine,
        ruleset,
        board,
        convention,
        value_cells,
        symmetry,
    };
    if &fingerprint != expected {
        return Err(HeaderError::Foreign(CheckpointError::Foreign {
            path: path.to_path_buf(),
            found: fingerprint.to_string(),
            expected: expected.to_string(),
        }));
    }
    let sessions = r.u32()?;
    let nodes = r.u64()?;
    used += 12;
    let mut decided = [None, None];
    let mut solved = [Vec::new(), Vec::new()];
    for (d, refuted) in decided.iter_mut().zip(&mut solved) {
        used += 1;
        *d = match r.u8()? {
            0 => {
                let n = r.u32()?;
                used += 4;
                if n > 1 << 16 {
                    return Err(HeaderError::Bad(format!("{n} refuted first moves")));
                }
                for _ in 0..n {
                    match r.board(&mut used)? {
                        Some(b) => refuted.push(b),
                        None => {
                            return Err(HeaderError::Bad(
                                "a refuted move without a board".to_string(),
                            ))
                        }
                    }
                }
                None
            }
            s @ (1 | 2) => {
                let winning_move = r.board(&mut used)?;
                let mut c = [0u64; 6];
                for n in &mut c {
                    *n = r.u64()?;
                }
                used += 48;
                let wins = s == 2;
                if wins != winning_move.is_some() {
                    return Err(HeaderError::Bad(
                        "a win without a move or a move without a win".to_string(),
                    ));
                }
                Some(Decided {
                    wins,
                    winning_move,
                    counts: SearchCounts {
                        nodes: c[0],
                        table_hits: c[1],
                        by_value: c[2],
                        by_bounds: c[3],
                        expanded: c[4],
                        regions_valued: c[5],
                    },
                })
            }
            s => return Err(HeaderError::Bad(format!("first-player state {s}"))),
        };
    }
    let [left, right] = decided;
    Ok((
        State {
            fingerprint,
            sessions,
            nodes,
            left,
            right,
            solved,
        },
        used,
    ))
}

/// A running search's checkpoint: the state so far, written every
/// `every` and when asked.
pub(crate) struct Saver<'a> {
    path: &'a Path,
    every: Duration,
    /// The state as of the start of this run (nodes: of earlier runs).
    state: Mutex<State>,
    last: Mutex<Instant>,
    /// Held while the file is written: two threads finishing at once must
    /// not write the temporary file together (one's rename then finds no file, or
    /// the file holds both writes interleaved).
    writing: Mutex<()>,
}

impl<'a> Saver<'a> {
    pub(crate) fn new(path: &'a Path, every: Duration, state: State) -> Saver<'a> {
        Saver {
            path,
            every,
            state: Mutex::new(state),
            last: Mutex::new(Instant::now()),
            writing: Mutex::new(()),
        }
    }

    /// The state as of the start (with the first players decided since).
    pub(crate) fn state(&self) -> State {
        self.state
            .lock()
            .map(|s| s.clone())
            .unwrap_or_else(|p| p.into_inner().clone())
    }

    /// Record a first player's answer.
    pub(crate) fn decided(&self, fp: &FirstPlayer) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let d = Some(Decided::of(fp));
        match fp.player {
            Player::Left => s.left = d,
            Player::Right => s.right = d,
        }
        s.solved[usize::from(fp.player == Player::Right)].clear();
    }

    /// Record that `after`, a first move of `first`, loses: the opponent
    /// wins moving next.
    pub(crate) fn refuted(&self, first: Player, after: Board) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.solved[usize::from(first == Player::Right)].push(after);
    }

    /// Write the checkpoint now, with `nodes` searched by this run.
    pub(crate) fn save(&self, table: &dyn Entries, nodes: u64) -> Result<u64, CheckpointError> {
        let _writing = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        let mut s = self.state();
        s.nodes += nodes;
        s.sessions += 1;
        let n = write_entries(self.path, &s, table)?;
        if let Ok(mut t) = self.last.lock() {
            *t = Instant::now();
        }
        Ok(n)
    }

    /// Write the checkpoint if `every` has passed since the last write and
    /// no other thread is writing it.
    pub(crate) fn save_if_due(
        &self,
        table: &dyn Entries,
        nodes: u64,
    ) -> Result<(), CheckpointError> {
        let due = match self.last.try_lock() {
            Ok(mut t) if t.elapsed() >= self.every => {
                // Claim this write before it starts: the other thread goes on.
                *t = Instant::now() + Duration::from_secs(3600);
                true
            }
            _ => false,
        };
        if due {
            self.save(table, nodes)?;
        }
        Ok(())
    }
}

/// One first player of a search, as both engines do it: left out when
/// `config.first` does not include it, taken from the checkpoint when that
/// decided it, else searched by `search` and recorded in the checkpoint
/// (written at once, with `nodes` searched by this run so far).
pub(crate) fn one_first_player(
    config: &super::SearchConfig,
    saver: Option<&Saver<'_>>,
    table: &Table,
    nodes: &std::sync::atomic::AtomicU64,
    first: Player,
    search: &dyn Fn() -> Result<FirstPlayer, super::SearchError>,
) -> Result<FirstPlayer, super::SearchError> {
    if !config.first.includes(first) {
        return Ok(FirstPlayer::unsearched(first));
    }
    if let Some(d) = saver.and_then(|s| s.state().decided(first).cloned()) {
        return Ok(FirstPlayer {
            player: first,
            wins: d.wins,
            winning_move: d.winning_move,
            counts: d.counts,
            elapsed: Duration::ZERO,
        });
    }
    let fp = search()?;
    if let Some(s) = saver {
        s.decided(&fp);
        s.save(table, nodes.load(std::sync::atomic::Ordering::Relaxed))?;
    }
    Ok(fp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_encode_and_decode() {
        for win in [false, true] {
            for s in [-128, -1, 0, 5, 127] {
                for work in [0, 1, 64, 255] {
                    let e = Entry::at(win, s, work);
                    assert_eq!(Entry::from_bits(e.to_bits()), Some(e));
                    // The other bound just past this one, where there is room.
                    let other = if win {
                        s.checked_sub(1)
                    } else {
                        s.checked_add(1)
                    };
                    if let Some(t) = other {
                        let both = e.merge(Entry::at(!win, t, 0));
                        assert_ne!(both, e);
                        assert_eq!(Entry::from_bits(both.to_bits()), Some(both));
                    }
                }
            }
        }
        assert_eq!(Entry::from_bits(1 << 26), None);
    }

    /// The layout of format 5, pinned: a checkpoint with a decided and an
    /// open first player (one refuted first move) and one table entry is
    /// these bytes, then the MAC under the user's key. If this fails, the
    /// layout changed: bump [`FORMAT`].
    #[test]
    fn the_layout_is_pinned() {
        let b = |e: u128| Board::new(3, 2, [e, 0, 0]).unwrap();
        let state = State {
            fingerprint: Fingerprint {
                engine: "domineering".into(),
                ruleset: "domineering".into(),
                board: "...|...".into(),
                convention: Convention::Normal,
                value_cells: 0,
                symmetry: true,
            },
            sessions: 2,
            nodes: 12345,
            left: Some(Decided {
                wins: true,
                winning_move: Some(b(0b110_110)),
                counts: SearchCounts {
                    nodes: 7,
                    ..SearchCounts::default()
                },
            }),
            right: None,
            solved: [Vec::new(), vec![b(0b111_100)]],
        };
        let table = Table::with_bytes(1 << 12);
        let mut t = Tally::default();
        let e = Entry::decided(true, 9);
        let key = Key {
            hash: 0xDEAD_BEEF,
            check: 0xC0FF_EE00,
        };
        table.store(key, e, &mut t);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        assert_eq!(write(&path, &state, &table).unwrap(), 1);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..12], b"PZCHKPT\n\x05\0\0\0");
        assert_eq!(bytes.len(), 255 + 32);
        // The stored checksum pins the bytes before it; the MAC is the
        // user key's over them and the checksum.
        let n = bytes.len() - 32;
        assert_eq!(u32::from_le_bytes(bytes[n - 4..n].try_into().unwrap()), CRC);
        let mac = partizan_seal::user_key().key.mac(MAC_DOMAIN);
        assert!(mac.clone().update(&bytes[..n]).verify(&bytes[n..]));
        let back = Table::with_bytes(1 << 12);
        let (read_back, n) = read(&path, &state.fingerprint, &back).unwrap().unwrap();
        assert_eq!((read_back, n), (state.clone(), 1));
        assert_eq!(back.probe(key), Some(e));
        // The check bits came back: the same hash with another check is
        // another position.
        assert_eq!(back.probe(Key { check: 1, ..key }), None);

        // A file of an older format (no check bits in its keys) is refused
        // by name, whatever else it holds.
        for old in [1u32, 2, 3, 4] {
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[8..12].copy_from_slice(&old.to_le_bytes());
            let n = bytes.len() - 32;
            let crc = crc32fast::hash(&bytes[..n - 4]);
            bytes[n - 4..n].copy_from_slice(&crc.to_le_bytes());
            let stale = dir.path().join("old.ckpt");
            std::fs::write(&stale, &bytes).unwrap();
            let err = read(&stale, &state.fingerprint, &Table::with_bytes(1 << 12)).unwrap_err();
            assert!(
                matches!(err, CheckpointError::Outdated { found, .. } if found == old),
                "{err}"
            );
            assert!(err.to_string().contains("older than this build"), "{err}");
        }
    }

    /// The stored checksum of the pinned file.
    const CRC: u32 = 2_750_982_976;

    /// Issue 38: a checkpoint rewritten with its decided first player
    /// flipped and its CRC recomputed was believed. Now such a file, and
    /// one sealed with another key, is refused by name; the file as
    /// written is read back.
    #[test]
    fn a_forged_checkpoint_is_refused() {
        let state = State {
            fingerprint: Fingerprint {
                engine: "general".into(),
                ruleset: "domineering".into(),
                board: "..|..".into(),
                convention: Convention::Normal,
                value_cells: 0,
                symmetry: true,
            },
            sessions: 1,
            nodes: 3,
            left: Some(Decided {
                wins: true,
                winning_move: Some(Board::new(2, 2, [0b1010, 0, 0]).unwrap()),
                counts: SearchCounts::default(),
            }),
            right: None,
            solved: [Vec::new(), Vec::new()],
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        write(&path, &state, &Table::with_bytes(1 << 12)).unwrap();
        let fresh = || Table::with_bytes(1 << 12);
        assert!(read(&path, &state.fingerprint, &fresh()).unwrap().is_some());
        let bytes = std::fs::read(&path).unwrap();
        // The byte that says Left wins (2), after the header's strings and
        // numbers, made to say she loses (1) and her move dropped (0).
        let f = &state.fingerprint;
        let at = 12 + 3 * 4 + f.engine.len() + f.ruleset.len() + f.board.len() + 1 + 4 + 1 + 4 + 8;
        assert_eq!(bytes[at..at + 2], [2, 1]);
        let mut forged = bytes[..at].to_vec();
        forged.extend_from_slice(&[1, 0]);
        forged.extend_from_slice(&bytes[at + 2 + 2 + 48..]);
        let n = forged.len() - 32;
        let crc = crc32fast::hash(&forged[..n - 4]);
        forged[n - 4..n].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, &forged).unwrap();
        let e = read(&path, &state.fingerprint, &fresh()).unwrap_err();
        assert!(matches!(e, CheckpointError::Unsealed { .. }), "{e}");
        assert!(
            e.to_string().contains("not written with this user's key"),
            "{e}"
        );
        // The same bytes with a MAC of another key: refused too.
        let other = partizan_seal::Key::from_bytes([7; 32]);
        let mut mac = other.mac(MAC_DOMAIN);
        let m = bytes.len() - 32;
        mac.update(&bytes[..m]);
        let mut foreign = bytes[..m].to_vec();
        foreign.extend_from_slice(&mac.finish());
        std::fs::write(&path, &foreign).unwrap();
        let e = read(&path, &state.fingerprint, &fresh()).unwrap_err();
        assert!(matches!(e, CheckpointError::Unsealed { .. }), "{e}");
    }

    /// Fuzzing the reader beneath the MAC (a fixed-seed corpus, a second
    /// or so): a checkpoint's bytes mutated (flips, cuts, insertions,
    /// hostile lengths), then given a right CRC and MAC as if partizan had
    /// written them, must read back as a state or an error, never a panic
    /// or an allocation the file's size does not bound.
    #[test]
    fn resealed_mutations_never_panic() {
        let b = |e: u128| Board::new(3, 2, [e, 0, 0]).unwrap();
        let mut state = State::fresh(Fingerprint {
            engine: "domineering".into(),
            ruleset: "domineering".into(),
            board: "...|...".into(),
            convention: Convention::Normal,
            value_cells: 12,
            symmetry: true,
        });
        state.left = Some(Decided {
            wins: true,
            winning_move: Some(b(0b110_110)),
            counts: SearchCounts::default(),
        });
        state.solved[1] = vec![b(0b111_100), b(0b011_011)];
        let table = Table::with_bytes(1 << 12);
        let mut t = Tally::default();
        for i in 0..20u64 {
            table.store(
                Key {
                    hash: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    check: i as u32,
                },
                Entry::decided(i % 2 == 0, 3),
                &mut t,
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.ckpt");
        write(&path, &state, &table).unwrap();
        let good = std::fs::read(&path).unwrap();
        let body_len = good.len() - 36;
        let mut rng = fastrand::Rng::with_seed(38);
        let (mut read_ok, mut refused) = (0, 0);
        for _ in 0..2000 {
            let mut body = good[..body_len].to_vec();
            for _ in 0..rng.usize(1..4) {
                match rng.u8(..4) {
                    0 => {
                        let i = rng.usize(..body.len());
                        body[i] ^= rng.u8(1..);
                    }
                    1 => body.truncate(rng.usize(..body.len())),
                    2 => {
                        let i = rng.usize(..=body.len());
                        let extra: Vec<u8> = (0..rng.usize(1..40)).map(|_| rng.u8(..)).collect();
                        body.splice(i..i, extra);
                    }
                    _ => {
                        // A hostile length or count: all ones.
                        let i = rng.usize(..body.len().saturating_sub(4).max(1));
                        let end = (i + 4).min(body.len());
                        body[i..end].fill(0xff);
                    }
                }
                if body.is_empty() {
                    body.push(0);
                }
            }
            let crc = crc32fast::hash(&body);
            body.extend_from_slice(&crc.to_le_bytes());
            let mac = partizan_seal::user_key().key.mac(MAC_DOMAIN);
            let tag = mac.clone().update(&body).finish();
            body.extend_from_slice(&tag);
            std::fs::write(&path, &body).unwrap();
            match read(&path, &state.fingerprint, &Table::with_bytes(1 << 12)) {
                Ok(_) => read_ok += 1,
                Err(_) => refused += 1,
            }
        }
        assert!(refused > 1000, "{read_ok} read, {refused} refused");
    }
}
