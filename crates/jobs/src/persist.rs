//! The master's tree on disk, so that a run resumes after the master
//! stops (a limit, a crash, Ctrl-C): every node with its position, who
//! moves, and how it stands: fresh (a job out when it was written is
//! fresh again: a worker killed mid-job loses only that job), expanded,
//! or decided by a finished job.
//!
//! ```text
//! partizan-jobs-tree 1
//! ruleset domineering
//! first L
//! nodes 3
//! -   L   E   ..|..       (parent, mover, state, board; tab-separated)
//! 0   R   X   |#.|#.      (X: the mover loses; W: wins; F: fresh;
//!                          x, w: the same, believed on two workers' agreement)
//! ...
//! crc32 0a1b2c3d          (over every line above)
//! mac 64 hex digits       (keyed, under the user's key, same lines)
//! ```
//!
//! A file is believed only if its CRC-32 (damage) and its MAC (an edit,
//! another user's key) both hold, and then its shape is checked against
//! the rules as well: the root is the board asked about, every child is
//! a move of its parent, an expanded node has exactly its parent's
//! distinct moves as children (a tree missing a refutation could prove a
//! false claim), and a position without moves is decided against its
//! mover. The decided leaves (finished jobs, whose certificates were
//! checked when they came in, or that two workers agreed on) are believed
//! on the MAC alone: they cost as much to check again as to compute. A
//! leaf decided by agreement stays marked as such (lower case), so a
//! resumed run still reports what its answer rests on.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use partizan_games::{Board, Player, Ruleset};
use partizan_seal::Key;
use thiserror::Error;

use crate::tree::{Node, State, Tree};

/// The first line of a tree file of this format.
pub const TREE_HEADER: &str = "partizan-jobs-tree 1";

/// The MAC's domain: a MAC made for another kind of file never verifies
/// this one.
const MAC_DOMAIN: &str = "partizan-jobs-tree 1";

/// The most nodes a file may hold (a bigger count is refused before
/// anything is allocated for it).
pub const MAX_NODES: usize = 1 << 26;

/// Why a tree file was not believed.
#[derive(Debug, Error)]
pub enum TreeFileError {
    /// The file could not be read or written.
    #[error("tree file {path}: {msg}")]
    Io {
        /// The file.
        path: String,
        /// The system's complaint.
        msg: String,
    },
    /// A line does not read.
    #[error("tree file line {line}: {msg}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The checksum or the MAC does not hold.
    #[error("tree file is damaged or not this user's: {0}")]
    Seal(String),
    /// The file is of another search (ruleset, board, first player).
    #[error("tree file is of another search: {0}")]
    Other(String),
    /// The tree's shape contradicts the rules.
    #[error("tree file node {node}: {msg}")]
    Shape {
        /// The node's number.
        node: usize,
        /// What is wrong.
        msg: String,
    },
}

fn letter(p: Player) -> char {
    match p {
        Player::Left => 'L',
        Player::Right => 'R',
    }
}

/// Bytes as lower-case hex digits.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Hex digits as bytes (`None`: not an even count of hex digits).
pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() & 1 == 1 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// The file's text for `tree` of `rules`, sealed with `key`.
pub fn encode<R: Ruleset>(rules: &R, tree: &Tree, key: &Key) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "{TREE_HEADER}");
    let _ = writeln!(body, "ruleset {}", rules.name());
    let _ = writeln!(body, "first {}", letter(tree.first));
    let _ = writeln!(body, "nodes {}", tree.nodes.len());
    for n in &tree.nodes {
        let parent = n.parent.map_or("-".to_string(), |p| p.to_string());
        let state = match n.state {
            State::Fresh | State::Pending => 'F',
            State::Expanded => 'E',
            State::Solved => {
                let first_wins = n.pn == 0;
                match (first_wins == (n.mover == tree.first), n.agreed) {
                    (true, false) => 'W',
                    (false, false) => 'X',
                    (true, true) => 'w',
                    (false, true) => 'x',
                }
            }
        };
        let _ = writeln!(
            body,
            "{parent}\t{}\t{state}\t{}",
            letter(n.mover),
            rules.format(&n.board)
        );
    }
    let crc = crc32fast::hash(body.as_bytes());
    let mac = key.mac(MAC_DOMAIN).field(body.as_bytes()).finish();
    let _ = writeln!(body, "crc32 {crc:08x}");
    let _ = writeln!(body, "mac {}", hex(&mac));
    body
}

/// Read a file written by [`encode`] for the search of `board` with
/// `first` to move, checking its seal and its shape (see the module
/// comment).
pub fn decode<R: Ruleset>(
    rules: &R,
    text: &str,
    key: &Key,
    board: &Board,
    first: Player,
) -> Result<Tree, TreeFileError> {
    // The seal first: nothing of an unsealed file is read further.
    let cut = text
        .rfind("crc32 ")
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .ok_or_else(|| TreeFileError::Seal("no checksum line".into()))?;
    let (body, tail) = text.split_at(cut);
    let mut tail_lines = tail.lines();
    let crc = tail_lines
        .next()
        .and_then(|l| l.strip_prefix("crc32 "))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or_else(|| TreeFileError::Seal("a bad checksum line".into()))?;
    if crc != crc32fast::hash(body.as_bytes()) {
        return Err(TreeFileError::Seal("the checksum does not match".into()));
    }
    let mac = tail_lines
        .next()
        .and_then(|l| l.strip_prefix("mac "))
        .and_then(unhex)
        .ok_or_else(|| TreeFileError::Seal("a bad MAC line".into()))?;
    if tail_lines.next().is_some() {
        return Err(TreeFileError::Seal("lines after the MAC".into()));
    }
    if !key.mac(MAC_DOMAIN).field(body.as_bytes()).verify(&mac) {
        return Err(TreeFileError::Seal(
            "the MAC does not match (edited, or written under another key)".into(),
        ));
    }
    let mut lines = body.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut field = |name: &str| -> Result<(usize, String), TreeFileError> {
        let (i, l) = lines.next().ok_or_else(|| TreeFileError::Parse {
            line: 0,
            msg: format!("the file ends before '{name}'"),
        })?;
        Ok((i, l.to_string()))
    };
    let (_, h) = field("header")?;
    if h != TREE_HEADER {
        return Err(TreeFileError::Parse {
            line: 1,
            msg: format!("not a {TREE_HEADER} file"),
        });
    }
    let (_, r) = field("ruleset")?;
    if r.strip_prefix("ruleset ") != Some(rules.name()) {
        return Err(TreeFileError::Other(format!("{r}, not {}", rules.name())));
    }
    let (_, f) = field("first")?;
    if f.strip_prefix("first ") != Some(&letter(first).to_string()) {
        return Err(TreeFileError::Other(format!("{f}, not {}", letter(first))));
    }
    let (i, c) = field("nodes")?;
    let count: usize = c
        .strip_prefix("nodes ")
        .and_then(|n| n.parse().ok())
        .filter(|&n| (1..=MAX_NODES).contains(&n))
        .ok_or_else(|| TreeFileError::Parse {
            line: i,
            msg: format!("a node count of 1 to {MAX_NODES}"),
        })?;
    let mut nodes: Vec<Node> = Vec::with_capacity(count.min(1 << 16));
    let mut decided: Vec<Option<bool>> = Vec::with_capacity(count.min(1 << 16));
    for k in 0..count {
        let (line, l) = field("a node")?;
        let bad = |msg: &str| TreeFileError::Parse {
            line,
            msg: msg.to_string(),
        };
        let parts: Vec<&str> = l.split('\t').collect();
        let [parent, mover, state, b] = parts[..] else {
            return Err(bad("a node is parent, mover, state and board"));
        };
        let parent = match parent {
            "-" if k == 0 => None,
            p => Some(
                p.parse::<u32>()
                    .ok()
                    .filter(|&p| (p as usize) < k)
                    .ok_or_else(|| bad("a parent is an earlier node"))?,
            ),
        };
        let mover = match mover {
            "L" => Player::Left,
            "R" => Player::Right,
            _ => return Err(bad("a mover is L or R")),
        };
        let (state, won, agreed) = match state {
            "F" => (State::Fresh, None, false),
            "E" => (State::Expanded, None, false),
            "W" => (State::Solved, Some(true), false),
            "X" => (State::Solved, Some(false), false),
            "w" => (State::Solved, Some(true), true),
            "x" => (State::Solved, Some(false), true),
            _ => return Err(bad("a state is F, E, W, X, w or x")),
        };
        let board = rules
            .parse(b)
            .map_err(|e| bad(&format!("bad board: {e}")))?;
        let depth = parent.map_or(0, |p| nodes[p as usize].depth + 1);
        nodes.push(Node {
            board,
            mover,
            parent,
            children: Vec::new(),
            pn: 1,
            dn: 1,
            state,
            avail: false,
            depth,
            agreed,
        });
        decided.push(won);
        if let Some(p) = parent {
            nodes[p as usize].children.push(k as u32);
        }
    }
    if lines.next().is_some() {
        return Err(TreeFileError::Parse {
            line: count + 5,
            msg: "more nodes than counted".into(),
        });
    }
    // The shape, against the rules.
    if nodes[0].board != *board || nodes[0].mover != first {
        return Err(TreeFileError::Other(
            "its root is another board or first player".into(),
        ));
    }
    // each node's number of distinct moves (a fresh leaf's numbers)
    let mut fresh: Vec<usize> = Vec::with_capacity(nodes.len());
    for (k, n) in nodes.iter().enumerate() {
        let shape = |msg: String| TreeFileError::Shape { node: k, msg };
        if let Some(p) = n.parent {
            if nodes[p as usize].state != State::Expanded {
                return Err(shape("its parent is not expanded".into()));
            }
            if n.mover != nodes[p as usize].mover.opponent() {
                return Err(shape("the players do not alternate".into()));
            }
        }
        let moves = crate::tree::distinct_options(rules, &n.board, n.mover);
        if moves.is_empty() && decided[k] != Some(false) {
            return Err(shape("a mover without a move must lose".into()));
        }
        fresh.push(moves.len());
        if n.state == State::Expanded {
            let kids: Vec<Board> = n
                .children
                .iter()
                .map(|&c| nodes[c as usize].board)
                .collect();
            let same = kids.len() == moves.len() && moves.iter().all(|m| kids.contains(m));
            if !same {
                return Err(shape(
                    "its children are not exactly the distinct moves".into(),
                ));
            }
        }
    }
    let mut tree = Tree { first, nodes };
    for k in (0..tree.nodes.len()).rev() {
        if tree.nodes[k].state == State::Fresh && k > 0 {
            let (pn, dn) = tree.fresh_numbers(tree.nodes[k].mover, fresh[k]);
            (tree.nodes[k].pn, tree.nodes[k].dn) = (pn, dn);
        }
        if let Some(won) = decided[k] {
            let first_wins = (tree.nodes[k].mover == first) == won;
            let n = &mut tree.nodes[k];
            (n.pn, n.dn) = if first_wins {
                (0, u64::MAX)
            } else {
                (u64::MAX, 0)
            };
        }
        tree.recompute_one(k);
    }
    Ok(tree)
}

/// Write `tree` to `path` whole (a temporary sibling renamed into place).
pub fn save<R: Ruleset>(
    path: &Path,
    rules: &R,
    tree: &Tree,
    key: &Key,
) -> Result<(), TreeFileError> {
    let text = encode(rules, tree, key);
    let io = |e: std::io::Error| TreeFileError::Io {
        path: path.display().to_string(),
        msg: e.to_string(),
    };
    partizan_solve::files::write_through_temp(path, io, |w| {
        w.write_all(text.as_bytes()).map_err(io)
    })
}

/// The tree in `path` (see [`decode`]); `None` when there is no file.
pub fn load<R: Ruleset>(
    path: &Path,
    rules: &R,
    key: &Key,
    board: &Board,
    first: Player,
) -> Result<Option<Tree>, TreeFileError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(TreeFileError::Io {
                path: path.display().to_string(),
                msg: e.to_string(),
            })
        }
    };
    // A node line is at most ~400 bytes (a 128-cell board and numbers).
    if meta.len() > (MAX_NODES as u64) * 400 {
        return Err(TreeFileError::Io {
            path: path.display().to_string(),
            msg: "too large for a tree file".into(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|e| TreeFileError::Io {
        path: path.display().to_string(),
        msg: e.to_string(),
    })?;
    decode(rules, &text, key, board, first).map(Some)
}

/// The tree to search `board` with `first` to move: the one saved in
/// `path` when there is one (refused, with the reason, when it does not
/// hold), else a fresh one; and whether it was read back.
pub fn start_or_resume<R: Ruleset>(
    path: &Path,
    rules: &R,
    key: &Key,
    board: &Board,
    first: Player,
) -> Result<(Tree, bool), TreeFileError> {
    Ok(match load(path, rules, key, board, first)? {
        Some(t) => (t, true),
        None => (Tree::new(*board, first), false),
    })
}
