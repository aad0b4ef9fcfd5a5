//! Seals: the mark that this user's partizan wrote a level or summary file.
//!
//! A level's checksum catches damage, not a forger: whoever edits a value
//! can compute FNV-1a again. So beside every file the store writes, `NAME`
//! gets `NAME.seal` (80 bytes):
//!
//! ```text
//! magic   "PZASEAL1"
//! length  u64      of NAME
//! hash    32 bytes BLAKE3 of NAME
//! mac     32 bytes keyed BLAKE3 under the user's key (partizan_seal) over
//!                  NAME's file name, its length and its hash
//! ```
//!
//! A level or summary is believed only when its seal verifies under the
//! user's key and the bytes read are the ones it names; otherwise the read
//! is refused in one line naming the file and saying how to adopt it
//! (`partizan atlas seal`: the checks of a read, every value's facts and
//! negative derived again, a sample valued again by the board engine, the
//! summary and index written again from the level, then sealed). The
//! levels themselves are untouched: two machines' builds of a level are
//! still the same bytes, and only the seals differ.
//!
//! The seal is written before the file is renamed into place, so a build
//! killed between the two leaves a seal without its file (ignored), never a
//! new file without its seal.

use std::path::{Path, PathBuf};

use partizan_seal::Key;

use crate::atlas::AtlasError;

const MAGIC: &[u8; 8] = b"PZASEAL1";
const DOMAIN: &str = "partizan atlas file seal 1";
const LEN: usize = 8 + 8 + 32 + 32;

/// What a seal says of its file: the length and the BLAKE3 hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sealed {
    pub(crate) len: u64,
    pub(crate) hash: [u8; 32],
}

/// The seal file of `path`: `path` with `.seal` appended.
pub(crate) fn seal_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".seal");
    PathBuf::from(s)
}

fn name_of(path: &Path) -> Vec<u8> {
    path.file_name()
        .map(|n| n.as_encoded_bytes().to_vec())
        .unwrap_or_default()
}

fn mac(key: &Key, path: &Path, s: &Sealed) -> partizan_seal::Mac {
    let mut m = key.mac(DOMAIN);
    m.field(&name_of(path))
        .field(&s.len.to_le_bytes())
        .field(&s.hash);
    m
}

/// Write the seal of `path` (whose bytes are `s`), to a temporary name
/// renamed into place.
pub(crate) fn write_seal(key: &Key, path: &Path, s: &Sealed) -> Result<(), AtlasError> {
    use std::io::Write;
    let mut out = Vec::with_capacity(LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&s.len.to_le_bytes());
    out.extend_from_slice(&s.hash);
    out.extend_from_slice(&mac(key, path, s).finish());
    let seal = seal_path(path);
    let tmp = seal.with_extension(format!("seal-tmp{}", std::process::id()));
    let io = |p: &Path, e| super::io_err(p, e);
    let mut f = std::fs::File::create(&tmp).map_err(|e| io(&tmp, e))?;
    f.write_all(&out).map_err(|e| io(&tmp, e))?;
    f.sync_all().map_err(|e| io(&tmp, e))?;
    drop(f);
    std::fs::rename(&tmp, &seal).map_err(|e| io(&seal, e))
}

/// The seal of bytes in memory.
pub(crate) fn seal_of(bytes: &[u8]) -> Sealed {
    Sealed {
        len: bytes.len() as u64,
        hash: *blake3::hash(bytes).as_bytes(),
    }
}

/// The seal of the file at `path` as it is on disk (read through).
pub(crate) fn seal_of_file(path: &Path) -> Result<Sealed, AtlasError> {
    let f = std::fs::File::open(path).map_err(|e| super::io_err(path, e))?;
    let mut h = blake3::Hasher::new();
    let len = std::io::copy(&mut std::io::BufReader::with_capacity(1 << 20, f), &mut h)
        .map_err(|e| super::io_err(path, e))?;
    Ok(Sealed {
        len,
        hash: *h.finalize().as_bytes(),
    })
}

fn unsealed(path: &Path, why: &str) -> AtlasError {
    let user = partizan_seal::user_key();
    let advice = if user.is_kept() {
        "`partizan atlas seal` checks it and seals it with your key, or build it again".to_string()
    } else {
        // `atlas seal` would refuse: first the key file.
        format!(
            "{}; then `partizan atlas seal` checks it and seals it",
            user.describe()
        )
    };
    AtlasError::Unsealed {
        path: path.display().to_string(),
        why: why.to_string(),
        advice,
    }
}

/// What the seal of `path` says, once its MAC verifies under `key`: an
/// [`AtlasError::Unsealed`] when there is no seal, it is damaged, or it
/// was made with another key (another user's or machine's, or forged).
pub(crate) fn read_seal(key: &Key, path: &Path) -> Result<Sealed, AtlasError> {
    let seal = seal_path(path);
    let b = match std::fs::read(&seal) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(unsealed(
                path,
                "it has no seal (written by another machine, another user, a partizan from before seals, or by hand)",
            ))
        }
        Err(e) => return Err(super::io_err(&seal, e)),
    };
    if b.len() != LEN || &b[..8] != MAGIC {
        return Err(unsealed(path, "its seal is damaged"));
    }
    let mut hash = [0u8; 32];
    hash.copy_from_slice(&b[16..48]);
    let s = Sealed {
        len: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
        hash,
    };
    if !mac(key, path, &s).verify(&b[48..]) {
        // A keyless process's words are the advice (`unsealed`).
        let whose = key_words(key).map_or_else(String::new, |w| format!("; {w}"));
        return Err(unsealed(
            path,
            &format!("its seal was not made with your key (another user's or machine's, or forged){whose}"),
        ));
    }
    Ok(s)
}

/// The user's key, where `key` is it (`None` for a key a caller supplied,
/// as tests give a store).
fn users(key: &Key) -> Option<&'static partizan_seal::UserKey> {
    let user = partizan_seal::user_key();
    std::ptr::eq(key, &user.key).then_some(user)
}

/// `key` in words when it is the user's kept key (where its file is).
fn key_words(key: &Key) -> Option<String> {
    users(key)
        .filter(|user| user.is_kept())
        .map(partizan_seal::UserKey::describe)
}

/// Refuses to seal with `key` when it is a key of this process alone: no
/// later process would believe what it sealed.
pub(crate) fn can_seal_with(key: &Key) -> Result<(), AtlasError> {
    match users(key) {
        Some(user) if !user.is_kept() => Err(AtlasError::NoKey(user.describe())),
        _ => Ok(()),
    }
}

/// `path`'s bytes, whose seal is `got`, are the ones its seal `want` names.
pub(crate) fn check(path: &Path, want: &Sealed, got: &Sealed) -> Result<(), AtlasError> {
    if want == got {
        Ok(())
    } else {
        Err(unsealed(
            path,
            "it is not the file its seal names (changed since it was sealed)",
        ))
    }
}

/// A reader that hashes every byte it passes on (a file streamed front to
/// back is hashed as it is read, in the reader's large chunks).
pub(crate) struct Hashing<R> {
    pub(crate) inner: R,
    pub(crate) hasher: blake3::Hasher,
    pub(crate) len: u64,
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
}

impl<R> Hashing<R> {
    pub(crate) fn new(inner: R) -> Hashing<R> {
        Hashing {
            inner,
            hasher: blake3::Hasher::new(),
            len: 0,
        }
    }

    /// The seal of what has passed.
    pub(crate) fn sealed(&self) -> Sealed {
        Sealed {
            len: self.len,
            hash: *self.hasher.finalize().as_bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_verifies_only_its_file_under_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::from_bytes([3; 32]);
        let other = Key::from_bytes([4; 32]);
        let p = dir.path().join("level-05.pzal");
        let q = dir.path().join("level-06.pzal");
        let s = seal_of(b"some level bytes");
        write_seal(&key, &p, &s).unwrap();
        assert_eq!(read_seal(&key, &p).unwrap(), s);
        assert!(check(&p, &s, &seal_of(b"some level bytes")).is_ok());
        let changed = check(&p, &s, &seal_of(b"some level bytez")).unwrap_err();
        assert!(changed.to_string().contains("changed since"), "{changed}");
        // another key
        let err = read_seal(&other, &p).unwrap_err();
        assert!(err.to_string().contains("not made with your key"), "{err}");
        // the seal of one file moved to another's name
        std::fs::copy(seal_path(&p), seal_path(&q)).unwrap();
        assert!(read_seal(&key, &q).is_err());
        // no seal; a damaged seal
        let none = read_seal(&key, &dir.path().join("level-07.pzal")).unwrap_err();
        assert!(none.to_string().contains("has no seal"), "{none}");
        let mut b = std::fs::read(seal_path(&p)).unwrap();
        b[20] ^= 1;
        std::fs::write(seal_path(&p), &b).unwrap();
        assert!(read_seal(&key, &p).is_err());
        b.pop();
        std::fs::write(seal_path(&p), &b).unwrap();
        let short = read_seal(&key, &p).unwrap_err();
        assert!(short.to_string().contains("damaged"), "{short}");
    }

    #[test]
    fn a_hashing_reader_seals_what_it_reads() {
        use std::io::Read;
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7) as u8).collect();
        let mut r = std::io::BufReader::with_capacity(4096, Hashing::new(&bytes[..]));
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(r.get_ref().sealed(), seal_of(&bytes));
    }
}
