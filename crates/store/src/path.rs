//! Where the store lives: `--store PATH`, then `PARTIZAN_STORE`, then the
//! user's data directory (`$XDG_DATA_HOME/partizan/store.redb`, or
//! `~/.local/share/partizan/store.redb`); `--no-store` runs without one.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::error::{Result, StoreError};
use crate::{Store, StoreOptions};

/// The environment variable that names the store file.
pub const STORE_ENV: &str = "PARTIZAN_STORE";

/// The store file's name inside the data directory.
pub const STORE_FILE_NAME: &str = "store.redb";

/// The store path: the flag if given, else `PARTIZAN_STORE` if set and
/// non-empty, else the default under the user's data directory.
pub fn resolve_store_path(flag: Option<PathBuf>) -> Result<PathBuf> {
    resolve_with(flag, &|k| std::env::var_os(k))
}

/// [`resolve_store_path`] with the environment supplied by the caller (for tests).
pub fn resolve_with(
    flag: Option<PathBuf>,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Result<PathBuf> {
    if let Some(p) = flag {
        return Ok(p);
    }
    if let Some(p) = env(STORE_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    default_store_path_with(env)
}

/// The default store file under the user's data directory.
pub fn default_store_path() -> Result<PathBuf> {
    default_store_path_with(&|k| std::env::var_os(k))
}

fn default_store_path_with(env: &dyn Fn(&str) -> Option<OsString>) -> Result<PathBuf> {
    data_dir(env)
        .map(|d| d.join("partizan").join(STORE_FILE_NAME))
        .ok_or(StoreError::NoLocation)
}

/// The per-user data directory (the key's too: [`partizan_seal::data_dir`]).
fn data_dir(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    partizan_seal::data_dir(env)
}

/// Which store a command runs with, as chosen on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreChoice {
    /// `--no-store`: run without a store.
    Disabled,
    /// The store at this path (from `--store PATH`), or, with `None`, from
    /// `PARTIZAN_STORE` or the default location.
    Enabled(Option<PathBuf>),
}

impl StoreChoice {
    /// The choice the flags `--store PATH` and `--no-store` make.
    pub fn from_flags(store: Option<PathBuf>, no_store: bool) -> StoreChoice {
        if no_store {
            StoreChoice::Disabled
        } else {
            StoreChoice::Enabled(store)
        }
    }

    /// The store file this choice names, or `None` for `--no-store`.
    pub fn path(&self) -> Result<Option<PathBuf>> {
        match self {
            StoreChoice::Disabled => Ok(None),
            StoreChoice::Enabled(flag) => resolve_store_path(flag.clone()).map(Some),
        }
    }

    /// For commands that can run without a store (e.g. `value`): like
    /// [`StoreChoice::open`], except that a store kept busy by another
    /// process, or a damaged one, is skipped rather than an error (the
    /// answer is computed without it, so it is still right); the skipped
    /// error comes back second so the caller can warn about it.
    pub fn open_unless_busy(&self) -> Result<(Option<Store>, Option<StoreError>)> {
        match self.open() {
            Ok(s) => Ok((s, None)),
            Err(e @ (StoreError::InUse { .. } | StoreError::Corrupt { .. })) => Ok((None, Some(e))),
            Err(e) => Err(e),
        }
    }

    /// Open (or create) the chosen store; `None` for `--no-store`.
    pub fn open(&self) -> Result<Option<Store>> {
        self.open_with(&StoreOptions::default())
    }

    /// Open the chosen store with explicit options; `None` for `--no-store`.
    /// Missing folders are created only for the default location: a
    /// mistyped `--store /nonexistent/dir/s.redb` is an error, not a new tree.
    pub fn open_with(&self, opts: &StoreOptions) -> Result<Option<Store>> {
        let StoreChoice::Enabled(flag) = self else {
            return Ok(None);
        };
        let chosen = flag.is_some() || std::env::var_os(STORE_ENV).is_some_and(|v| !v.is_empty());
        let p = resolve_store_path(flag.clone())?;
        let opts = StoreOptions {
            create_dirs: opts.create_dirs && !chosen,
            ..opts.clone()
        };
        Store::open_with(&p, &opts).map(Some)
    }

    /// Open the chosen store for reading only (nothing is written to the
    /// file; a missing store is [`StoreError::Missing`]); `None` for `--no-store`.
    pub fn open_read_only(&self) -> Result<Option<Store>> {
        self.open_with(&StoreOptions::read_only())
    }
}

/// Is this path usable as a ruleset table name component?
pub(crate) fn valid_ruleset(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        move |k| {
            pairs
                .iter()
                .find(|(a, _)| a == k)
                .map(|(_, b)| OsString::from(b))
        }
    }

    #[test]
    fn flag_beats_env_beats_default() {
        let env = env_of(&[("PARTIZAN_STORE", "/e/s.redb"), ("HOME", "/home/u")]);
        assert_eq!(
            resolve_with(Some("/f.redb".into()), &env).unwrap(),
            PathBuf::from("/f.redb")
        );
        assert_eq!(
            resolve_with(None, &env).unwrap(),
            PathBuf::from("/e/s.redb")
        );
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn xdg_then_home() {
        let env = env_of(&[("XDG_DATA_HOME", "/x"), ("HOME", "/home/u")]);
        assert_eq!(
            resolve_with(None, &env).unwrap(),
            PathBuf::from("/x/partizan/store.redb")
        );
        let env = env_of(&[("XDG_DATA_HOME", "rel"), ("HOME", "/home/u")]);
        assert_eq!(
            resolve_with(None, &env).unwrap(),
            PathBuf::from("/home/u/.local/share/partizan/store.redb")
        );
        let env = env_of(&[("PARTIZAN_STORE", ""), ("HOME", "/home/u")]);
        assert_eq!(
            resolve_with(None, &env).unwrap(),
            PathBuf::from("/home/u/.local/share/partizan/store.redb")
        );
        let env = env_of(&[]);
        assert!(matches!(
            resolve_with(None, &env),
            Err(StoreError::NoLocation)
        ));
    }

    #[test]
    fn choice_from_flags() {
        assert_eq!(StoreChoice::from_flags(None, true), StoreChoice::Disabled);
        assert_eq!(StoreChoice::Disabled.path().unwrap(), None);
        let c = StoreChoice::from_flags(Some("/a".into()), false);
        assert_eq!(c.path().unwrap(), Some(PathBuf::from("/a")));
    }

    #[test]
    fn ruleset_names() {
        assert!(valid_ruleset("domineering"));
        assert!(valid_ruleset("cram-2"));
        assert!(!valid_ruleset(""));
        assert!(!valid_ruleset("Dom"));
        assert!(!valid_ruleset("a/b"));
    }
}
