//! A key of the user's and the keyed MAC made with it: what partizan
//! writes for itself to read back later (the store's rows, checkpoints)
//! carries a MAC, so that a file edited by hand, or brought from a
//! machine or user with another key, is not believed as if partizan had
//! written it, even when whoever edited it recomputed every checksum.
//!
//! The key is 32 random bytes in a file of its own (mode 0600 where the
//! system has modes), made the first time it is asked for and read after
//! that; a cluster that shares files shares the key file. The MAC is
//! BLAKE3 in its keyed mode, over a domain name and the fields of what is
//! sealed, each prefixed with its length, so no field can be shifted into
//! another and a MAC made for one kind of thing never verifies another.
//!
//! A key the system cannot keep (no place to write it) is made for the
//! process alone ([`Key::ephemeral`]): what it seals is not believed by a
//! later process, which then recomputes it.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use thiserror::Error;

/// The environment variable naming the user's key file.
pub const KEY_ENV: &str = "PARTIZAN_KEY";

/// The key file's name in the user's data directory.
pub const KEY_FILE_NAME: &str = "key";

/// The user's key, as this process found it.
#[derive(Debug)]
pub struct UserKey {
    /// The key.
    pub key: Key,
    /// Its file; `None` when the key is this process's alone.
    pub path: Option<PathBuf>,
    /// Why the key is this process's alone, when it is.
    pub note: Option<String>,
}

impl UserKey {
    /// Whether the key is kept in a file, so that what this process seals
    /// is believed by later ones.
    #[must_use]
    pub fn is_kept(&self) -> bool {
        self.path.is_some()
    }

    /// The key in words, for a message: its file, or why this process has
    /// a key of its own and what to do about it.
    #[must_use]
    pub fn describe(&self) -> String {
        match &self.path {
            Some(p) => format!("your key file is {}", p.display()),
            None => format!(
                "this process has no key file ({}), so nothing it seals is believed by a later one; set {KEY_ENV} to a file partizan can write",
                self.note.as_deref().unwrap_or("none could be made")
            ),
        }
    }
}

/// The user's key: the file `$PARTIZAN_KEY` names, else `key` in the
/// user's data directory (beside the default store), made there the first
/// time. Where neither can be had, a key for this process alone (what it
/// seals is then recomputed by later processes, never believed).
pub fn user_key() -> &'static UserKey {
    static KEY: OnceLock<UserKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let ephemeral = |note: String| UserKey {
            // A process without random bytes cannot seal anything: its
            // MACs are made with a fixed key no file shares, which a
            // later process's key never verifies.
            key: Key::ephemeral().unwrap_or(Key([0x5a; KEY_LEN])),
            path: None,
            note: Some(note),
        };
        let Some(path) = user_key_path_with(&|k| std::env::var_os(k)) else {
            return ephemeral("no data directory for a key file".to_string());
        };
        match Key::load_or_create(&path) {
            Ok(key) => UserKey {
                key,
                path: Some(path),
                note: None,
            },
            Err(e) => ephemeral(e.to_string()),
        }
    })
}

/// Where the user's key lives, with the environment supplied by the
/// caller: `$PARTIZAN_KEY`, else `partizan/key` in the data directory.
pub fn user_key_path_with(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    if let Some(p) = env(KEY_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    data_dir(env).map(|d| d.join("partizan").join(KEY_FILE_NAME))
}

/// The per-user data directory: XDG on Linux and other Unixes,
/// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows.
pub fn data_dir(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let absolute = |v: OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    if cfg!(windows) {
        return env("APPDATA").and_then(absolute);
    }
    if cfg!(target_os = "macos") {
        return env("HOME")
            .and_then(absolute)
            .map(|h| h.join("Library").join("Application Support"));
    }
    // The XDG base directory spec: a relative XDG_DATA_HOME is ignored.
    if let Some(p) = env("XDG_DATA_HOME").and_then(absolute) {
        return Some(p);
    }
    env("HOME")
        .and_then(absolute)
        .map(|h| h.join(".local").join("share"))
}

/// Bytes of a key.
pub const KEY_LEN: usize = 32;

/// Bytes of a full MAC.
pub const MAC_LEN: usize = 32;

/// Why a key could not be had.
#[derive(Debug, Error)]
pub enum SealError {
    /// The key file exists but is not a key.
    #[error("key file {} is not a partizan key ({why})", path.display())]
    NotAKey {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The key file could not be read or made.
    #[error("key file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The system gave no random bytes.
    #[error("no random bytes for a key: {0}")]
    Random(String),
}

/// A MAC key.
#[derive(Clone)]
pub struct Key([u8; KEY_LEN]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

/// The first line of a key file.
const KEY_HEADER: &str = "partizan-key 1";

impl Key {
    /// A key from its bytes (tests, and keys kept elsewhere).
    pub const fn from_bytes(bytes: [u8; KEY_LEN]) -> Key {
        Key(bytes)
    }

    /// A fresh random key, kept nowhere.
    pub fn ephemeral() -> Result<Key, SealError> {
        let mut k = [0u8; KEY_LEN];
        getrandom::fill(&mut k).map_err(|e| SealError::Random(e.to_string()))?;
        Ok(Key(k))
    }

    /// The key in `path`, made there first if there is none. Two
    /// processes making it at once agree on one (the file appears whole,
    /// by a hard link that never replaces one already there).
    pub fn load_or_create(path: &Path) -> Result<Key, SealError> {
        match Key::load(path) {
            Ok(k) => return Ok(k),
            Err(SealError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let io = |source| SealError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let key = Key::ephemeral()?;
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = sibling(
            path,
            &format!(".{}.new-{}-{n}", file_name(path), std::process::id()),
        );
        let written = (|| {
            let mut f = private_file(&tmp)?;
            writeln!(f, "{KEY_HEADER}")?;
            writeln!(f, "{}", hex(&key.0))?;
            f.sync_all()
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(io(e));
        }
        let linked = fs::hard_link(&tmp, path);
        let _ = fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(key),
            // Someone else made it first: theirs is the key.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Key::load(path),
            Err(e) => Err(io(e)),
        }
    }

    /// The key in `path`.
    pub fn load(path: &Path) -> Result<Key, SealError> {
        let text = fs::read(path).map_err(|source| SealError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let bad = |why: &str| SealError::NotAKey {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let text = std::str::from_utf8(&text).map_err(|_| bad("not text"))?;
        let mut lines = text.lines();
        if lines.next() != Some(KEY_HEADER) {
            return Err(bad("no 'partizan-key 1' line"));
        }
        let hexed = lines.next().ok_or_else(|| bad("no key line"))?.trim();
        let bytes = unhex(hexed).ok_or_else(|| bad("the key is not 64 hex digits"))?;
        Ok(Key(bytes))
    }

    /// A MAC of kind `domain` under this key: feed it fields, then finish.
    pub fn mac(&self, domain: &str) -> Mac {
        let mut m = Mac(blake3::Hasher::new_keyed(&self.0));
        m.field(domain.as_bytes());
        m
    }
}

/// A MAC being computed.
#[derive(Clone)]
pub struct Mac(blake3::Hasher);

impl Mac {
    /// Feed one field (its length first).
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// Feed raw bytes (a stream whose length is fed at the end).
    pub fn update(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(bytes);
        self
    }

    /// The MAC.
    pub fn finish(&self) -> [u8; MAC_LEN] {
        *self.0.finalize().as_bytes()
    }

    /// Whether `tag` (a whole MAC, or the first bytes of one, at least
    /// 16) is this MAC's, compared in constant time.
    pub fn verify(&self, tag: &[u8]) -> bool {
        let full = self.finish();
        if tag.len() < 16 || tag.len() > MAC_LEN {
            return false;
        }
        tag.iter().zip(&full).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "key".to_string())
}

fn sibling(path: &Path, name: &str) -> PathBuf {
    match path.parent() {
        Some(d) => d.join(name),
        None => PathBuf::from(name),
    }
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<[u8; KEY_LEN]> {
    if s.len() != 2 * KEY_LEN || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; KEY_LEN];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub").join("k.key");
        let a = Key::load_or_create(&p).unwrap();
        let b = Key::load_or_create(&p).unwrap();
        let tag = a.mac("test").field(b"x").finish();
        assert!(b.mac("test").field(b"x").verify(&tag));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&p).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Another key, another domain, another field: no.
        let c = Key::ephemeral().unwrap();
        assert!(!c.mac("test").field(b"x").verify(&tag));
        assert!(!a.mac("other").field(b"x").verify(&tag));
        assert!(!a.mac("test").field(b"y").verify(&tag));
        // Fields cannot be shifted into one another.
        let ab = a.mac("t").field(b"ab").field(b"").finish();
        assert!(!a.mac("t").field(b"a").field(b"b").verify(&ab));
        // A prefix of at least 16 bytes verifies; shorter does not.
        assert!(a.mac("test").field(b"x").verify(&tag[..16]));
        assert!(!a.mac("test").field(b"x").verify(&tag[..8]));
    }

    #[test]
    fn a_file_that_is_not_a_key_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k");
        for text in ["", "partizan-key 1\n", "partizan-key 1\nzz\n", "hello\n"] {
            fs::write(&p, text).unwrap();
            assert!(matches!(
                Key::load_or_create(&p),
                Err(SealError::NotAKey { .. })
            ));
        }
    }

    #[test]
    fn racing_makers_agree_on_one_key() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k");
        let keys: Vec<Key> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|_| s.spawn(|| Key::load_or_create(&p).unwrap()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let tag = keys[0].mac("d").finish();
        assert!(keys.iter().all(|k| k.mac("d").verify(&tag)));
    }

    #[test]
    fn a_key_of_the_process_alone_says_why_and_what_to_do() {
        let kept = UserKey {
            key: Key::from_bytes([1; KEY_LEN]),
            path: Some(PathBuf::from("/k/key")),
            note: None,
        };
        assert!(kept.is_kept());
        assert!(kept.describe().contains("/k/key"), "{}", kept.describe());
        let alone = UserKey {
            key: Key::from_bytes([1; KEY_LEN]),
            path: None,
            note: Some("no data directory for a key file".to_string()),
        };
        assert!(!alone.is_kept());
        let words = alone.describe();
        assert!(words.contains("no data directory"), "{words}");
        assert!(words.contains(KEY_ENV), "{words}");
    }
}
