//! The certificates of decided jobs, kept on disk beside the master's
//! tree (a folder of files, one a decided leaf), so that the whole
//! certificate of a run ([`crate::whole`]) can be written after the
//! master stops and resumes. Each file is the job's certificate as it was
//! checked, after a line with a MAC under the user's key over the
//! ruleset, the leaf (who moves, its board) and the text:
//!
//! ```text
//! partizan-kept-certificate 1 <64 hex digits>
//! partizan-certificate 2
//! ...
//! ```
//!
//! A file is written whole or not at all (a temporary sibling renamed into
//! place) and streamed back a line at a time, never held whole. On resume
//! a decided leaf whose file is missing, damaged, of another key, or
//! claims other than the tree is made fresh again ([`Kept::forget_unkept`]):
//! it is searched again, never believed without its certificate.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use partizan_check::CertReader;
use partizan_games::{Board, Player, Ruleset};
use partizan_seal::Key;

use crate::persist::{hex, unhex};
use crate::tree::{distinct_options, State, Tree};

/// The first word of a kept certificate's file.
const KEPT_HEADER: &str = "partizan-kept-certificate 1";

/// The MAC's domain.
const MAC_DOMAIN: &str = "partizan-kept-certificate 1";

/// The certificates of one search's decided leaves, in a folder.
#[derive(Clone, Debug)]
pub struct Kept {
    dir: PathBuf,
    key: Key,
}

fn letter(p: Player) -> &'static str {
    match p {
        Player::Left => "L",
        Player::Right => "R",
    }
}

impl Kept {
    /// The certificates kept in `dir` (made if missing), sealed with `key`.
    pub fn open(dir: &Path, key: &Key) -> Result<Kept, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
        Ok(Kept {
            dir: dir.to_path_buf(),
            key: key.clone(),
        })
    }

    /// The folder of the certificates kept beside the tree file `tree`
    /// (`tree.pjt` -> `tree.pjt.certs`): where the command line and
    /// Python both look, so either resumes the other's run.
    pub fn beside(tree: &Path) -> PathBuf {
        let mut name = tree.file_name().unwrap_or_default().to_os_string();
        name.push(".certs");
        tree.with_file_name(name)
    }

    /// A folder of a run's own for the certificates of `first`'s search
    /// when its tree is kept nowhere, in the system's temporary folder
    /// (named by the process, the time and the first player; the caller
    /// removes it when the run ends).
    pub fn temporary(first: Player) -> PathBuf {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let who = if first == Player::Left {
            "left"
        } else {
            "right"
        };
        std::env::temp_dir().join(format!(
            "partizan-job-certs-{}-{stamp}-{who}",
            std::process::id()
        ))
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of the leaf `board` (as `rules` format it) with `mover` to
    /// move: named by a keyed hash of the position.
    fn path<R: Ruleset>(&self, rules: &R, board: &Board, mover: Player) -> PathBuf {
        let name = self
            .key
            .mac("partizan-kept-name")
            .field(rules.name().as_bytes())
            .field(rules.format(board).as_bytes())
            .finish();
        self.dir
            .join(format!("{}-{}.cert", letter(mover), hex(&name[..16])))
    }

    fn mac<R: Ruleset>(&self, rules: &R, board: &Board, mover: Player) -> partizan_seal::Mac {
        let mut m = self.key.mac(MAC_DOMAIN);
        m.field(rules.name().as_bytes())
            .field(letter(mover).as_bytes())
            .field(rules.format(board).as_bytes());
        m
    }

    /// Keep `certificate`, the checked proof of the leaf `board` with
    /// `mover` to move.
    pub fn put<R: Ruleset>(
        &self,
        rules: &R,
        board: &Board,
        mover: Player,
        certificate: &str,
    ) -> Result<(), String> {
        let path = self.path(rules, board, mover);
        let mut mac = self.mac(rules, board, mover);
        mac.update(certificate.as_bytes())
            .field(&(certificate.len() as u64).to_le_bytes());
        let io =
            |e: std::io::Error| format!("cannot keep a certificate in {}: {e}", path.display());
        partizan_solve::files::write_through_temp(&path, io, |w| {
            writeln!(w, "{KEPT_HEADER} {}", hex(&mac.finish())).map_err(io)?;
            w.write_all(certificate.as_bytes()).map_err(io)
        })
    }

    /// The kept certificate of the leaf, read a line at a time after its
    /// seal line (its MAC not checked again: see [`Kept::verify`]);
    /// `None` when there is none.
    pub fn open_leaf<R: Ruleset>(
        &self,
        rules: &R,
        board: &Board,
        mover: Player,
    ) -> Result<Option<impl BufRead>, String> {
        let path = self.path(rules, board, mover);
        let f = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut r = BufReader::with_capacity(1 << 20, f);
        let mut first = Vec::new();
        r.by_ref()
            .take(256)
            .read_until(b'\n', &mut first)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some(r))
    }

    /// Whether the leaf's kept certificate is whole, sealed under this key
    /// for this leaf, and proves `mover_wins` for `mover` on `board`.
    pub fn verify<R: Ruleset>(
        &self,
        rules: &R,
        board: &Board,
        mover: Player,
        mover_wins: bool,
    ) -> bool {
        let path = self.path(rules, board, mover);
        let Ok(f) = std::fs::File::open(&path) else {
            return false;
        };
        let mut r = BufReader::with_capacity(1 << 20, f);
        let mut first = String::new();
        if r.by_ref().take(256).read_line(&mut first).is_err() {
            return false;
        }
        let Some(tag) = first
            .trim_end()
            .strip_prefix(KEPT_HEADER)
            .and_then(|t| t.strip_prefix(' '))
        else {
            return false;
        };
        let Some(tag) = unhex(tag) else { return false };
        let mut mac = self.mac(rules, board, mover);
        let mut len = 0u64;
        loop {
            let got = match r.fill_buf() {
                Ok([]) => break,
                Ok(b) => {
                    mac.update(b);
                    b.len()
                }
                Err(_) => return false,
            };
            len += got as u64;
            r.consume(got);
        }
        mac.field(&len.to_le_bytes());
        if !mac.verify(&tag) {
            return false;
        }
        // The seal holds: the claim must be the tree's.
        let Ok(Some(text)) = self.open_leaf(rules, board, mover) else {
            return false;
        };
        let Ok(reader) = CertReader::new(text) else {
            return false;
        };
        let h = reader.header();
        h.ruleset == rules.name()
            && rules.parse(&h.board).is_ok_and(|b| b == *board)
            && h.claims.of(mover) == Some(mover_wins)
            && h.claims.of(mover.opponent()).is_none()
    }

    /// Make fresh again every decided leaf of `tree` that has moves but no
    /// kept certificate that [`Kept::verify`] accepts for its claim; how
    /// many.
    pub fn forget_unkept<R: Ruleset>(&self, rules: &R, tree: &mut Tree) -> usize {
        let mut lost = Vec::new();
        for (k, n) in tree.nodes.iter().enumerate() {
            if n.state != State::Solved {
                continue;
            }
            let moves = distinct_options(rules, &n.board, n.mover).len();
            if moves == 0 {
                continue; // decided by the rules: no certificate
            }
            let Some(first_wins) = tree.first_wins_at(k) else {
                continue;
            };
            let mover_wins = first_wins == (n.mover == tree.first);
            if !self.verify(rules, &n.board, n.mover, mover_wins) {
                lost.push((k, moves));
            }
        }
        if !lost.is_empty() {
            tree.forget(&lost);
        }
        lost.len()
    }
}
