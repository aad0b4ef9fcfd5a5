//! Files written whole or not at all (checkpoints, certificates, exports,
//! reports): through a temporary sibling, renamed over the target when
//! complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Write the file at `path` whole or not at all: `body` writes into a
/// hidden sibling ([`temp_sibling`]), which is flushed, synced and renamed
/// over `path` when `body` succeeds, and removed when anything fails, so a
/// reader never sees half a file, the old file survives a failed or killed
/// write, and a failed write leaves nothing behind. `io` turns the file
/// system's errors into the caller's.
///
/// A symbolic link is followed (the file it names is replaced, not the
/// link). Something at `path` that is not a regular file — a pipe, a
/// terminal, a device such as `/dev/stdout` — cannot be replaced: it is
/// written to directly, and what it does with a failed write is the
/// reader's to see.
pub fn write_through_temp<T, E>(
    path: &Path,
    io: impl Fn(std::io::Error) -> E,
    body: impl FnOnce(&mut BufWriter<File>) -> Result<T, E>,
) -> Result<T, E> {
    let resolved;
    let path = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            )))
        }
        Ok(m) if !m.is_file() => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(&io)?;
            let mut w = BufWriter::with_capacity(1 << 20, file);
            let t = body(&mut w)?;
            w.flush().map_err(&io)?;
            return Ok(t);
        }
        Ok(_) if path.is_symlink() => {
            resolved = std::fs::canonicalize(path).map_err(&io)?;
            resolved.as_path()
        }
        _ => path,
    };
    remove_stale_siblings(path);
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

/// Remove what writers of `path` killed before they could clean up (a
/// SIGKILL, a power cut) left behind: the siblings `.NAME.partial-PID` of
/// [`temp_sibling`] whose process is no longer alive. A live writer's file,
/// this process's own, and any file whose writer cannot be told alive or
/// dead (a system without `/proc`) are left alone. Best effort: a sibling
/// that cannot be removed stays, and the write goes on.
///
/// Liveness is this machine's: a writer on another machine sharing the
/// folder, whose process id is not alive here, would lose its temporary
/// file, and its rename then fails with an error (never a half file).
pub fn remove_stale_siblings(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Some(name) = path.file_name() else {
        return;
    };
    let prefix = format!(".{}.partial-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_alive(pid) == Some(false) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` is alive on this machine (`/proc`: a zombie, dead
/// but not yet reaped, counts as dead); `None` where it cannot be told.
fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return None;
    }
    match std::fs::read_to_string(proc.join(pid.to_string()).join("stat")) {
        // the state is the first field after the command name's ')'
        Ok(stat) => Some(
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next())
                .is_none_or(|state| !matches!(state, 'Z' | 'X' | 'x')),
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_a_device_written_to_directly() {
        let dir = tempfile::tempdir().unwrap();
        let io = |e: std::io::Error| e.to_string();
        // A link to a file: the file is replaced, the link stays a link.
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_through_temp(&link, io, |w| w.write_all(b"new").map_err(io)).unwrap();
        assert!(link.is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // A device is written to, not replaced: /dev/null swallows it, and
        // /dev/full's refusal is the caller's error (never a success).
        let null = Path::new("/dev/null");
        write_through_temp(null, io, |w| w.write_all(b"x").map_err(io)).unwrap();
        assert!(!null.is_file());
        let full = Path::new("/dev/full");
        if full.exists() {
            let e = write_through_temp(full, io, |w| w.write_all(b"x").map_err(io));
            assert!(e.is_err());
            assert!(!full.is_file());
        }
        // A directory is refused, and nothing is made beside it.
        let e = write_through_temp(dir.path(), io, |_| Ok(())).unwrap_err();
        assert!(e.contains("directory"), "{e}");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["link.txt", "real.txt"]);
    }

    /// Not a test by itself: the writer that
    /// `a_killed_writers_leftover_is_removed_by_the_next_write` kills. It
    /// writes into the temporary sibling of the path it is given and waits
    /// to be killed.
    #[test]
    #[ignore = "the child half of a_killed_writers_leftover_is_removed_by_the_next_write"]
    fn a_writer_that_waits_to_be_killed() {
        let path = PathBuf::from(std::env::var_os("PARTIZAN_TEST_KILLED_WRITER").unwrap());
        let io = |e: std::io::Error| e.to_string();
        let _: Result<(), String> = write_through_temp(&path, io, |w| {
            w.write_all(b"half a file").map_err(io)?;
            w.flush().map_err(io)?;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        });
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_writers_leftover_is_removed_by_the_next_write() {
        use std::time::{Duration, Instant};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proof.txt");
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "files::tests::a_writer_that_waits_to_be_killed",
                "--ignored",
            ])
            .env("PARTIZAN_TEST_KILLED_WRITER", &path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let leftover = dir
            .path()
            .join(format!(".proof.txt.partial-{}", child.id()));
        let started = Instant::now();
        while std::fs::metadata(&leftover).map_or(true, |m| m.len() == 0) {
            assert!(started.elapsed() < Duration::from_secs(60), "no writer");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap(); // SIGKILL: no handler runs
        child.wait().unwrap();
        assert!(leftover.exists(), "the kill leaves the temporary file");
        // a live writer's file (pid 1 is always alive) is left alone, and
        // so are names that only look alike
        let live = dir.path().join(".proof.txt.partial-1");
        let other = dir.path().join(".proof.txt.partial-x1");
        let another = dir.path().join(".other.txt.partial-999999999");
        for f in [&live, &other, &another] {
            std::fs::write(f, "x").unwrap();
        }
        let io = |e: std::io::Error| e.to_string();
        write_through_temp(&path, io, |w| w.write_all(b"whole").map_err(io)).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "whole");
        assert!(!leftover.exists(), "the dead writer's file is removed");
        assert!(live.exists() && other.exists() && another.exists());
        assert_eq!(process_alive(std::process::id()), Some(true));
        assert_eq!(process_alive(child.id()), Some(false));
    }
}
