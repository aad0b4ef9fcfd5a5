//! Files written whole or not at all (checkpoints, certificates, exports,
//! reports): through a temporary sibling, renamed over the target when
//! complete.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Write the file at `path` whole or not at all: `body` writes into a
/// hidden sibling ([`temp_sibling`]), which is flushed, synced and renamed
/// over `path` when `body` succeeds, and removed when anything fails, so a
/// reader never sees half a file, the old file survives a failed or killed
/// write, and a failed write leaves nothing behind. `io` turns the file
/// system's errors into the caller's.
pub fn write_through_temp<T, E>(
    path: &Path,
    io: impl Fn(std::io::Error) -> E,
    body: impl FnOnce(&mut BufWriter<File>) -> Result<T, E>,
) -> Result<T, E> {
    let tmp = temp_sibling(path);
    let file = File::create(&tmp).map_err(&io)?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let done = body(&mut w).and_then(|t| {
        let file = w.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(&io)?;
        std::fs::rename(&tmp, path).map_err(&io)?;
        Ok(t)
    });
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

/// The temporary sibling a write of `path` goes through: `.NAME.partial-PID`
/// in the same folder (hidden; the process id keeps two writers of one
/// file apart; the same folder keeps the rename on one file system).
#[must_use]
pub fn temp_sibling(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    dir.join(format!(".{name}.partial-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_whole_write_replaces_the_file_and_a_failed_one_leaves_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let io = |e: std::io::Error| e.to_string();
        write_through_temp(&path, io, |w| w.write_all(b"one").map_err(io)).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        let e = write_through_temp(&path, io, |w| {
            w.write_all(b"half").map_err(io)?;
            Err::<(), _>("stopped".to_string())
        });
        assert_eq!(e.unwrap_err(), "stopped");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        // Nothing but the file itself is left in the folder.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("f.txt")]);
        // A folder that does not exist is the caller's error, not a panic.
        let missing = dir.path().join("no/such/f.txt");
        assert!(write_through_temp(&missing, io, |_| Ok(())).is_err());
        assert_eq!(temp_sibling(Path::new("x")).parent(), Some(Path::new(".")));
    }
}
