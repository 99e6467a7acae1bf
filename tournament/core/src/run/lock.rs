//! One writer per results folder: an OS file lock on `DIR/.lock`, held
//! for the life of the run (tournament, self-play, resume, merge, report
//! into the folder, improve).
//!
//! The lock is `flock(2)` through [`nix::fcntl::Flock`] (nix is already a
//! dependency; its safe wrapper unlocks on drop). The kernel drops the
//! lock when its holder exits, however it exits (kill -9 included), so a
//! lock left by a dead process never blocks; the file itself stays (it
//! is never removed: removing it would let a third process lock a new
//! file while a second still holds the old one). The holder writes its
//! pid into the file (in one write, and a refused writer waits a moment
//! for it), only for the message a second writer gets:
//! `DIR is in use by another carcassonne process (pid N)`. On Linux NFS
//! clients `flock` is carried out as a POSIX lock on the server, so
//! shards on a shared volume are covered too. A locked folder is also one
//! that no sandboxed bot is ever given ([`protocol::external::sandbox::protect`]).

use files::error::{Error, Result};
use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg, OFlag};
use std::fs::File;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The lock file's name inside a results folder.
pub const LOCK_FILE: &str = ".lock";

/// The lock of one folder; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct FolderLock {
    _file: Flock<File>,
    dir: PathBuf,
}

impl FolderLock {
    /// Lock the existing folder `dir`, or say which process holds it.
    ///
    /// # Errors
    /// Another process holds the lock (the message names its pid), or the
    /// lock file cannot be created (a symlink or other non-file there is
    /// refused, never followed).
    pub fn acquire(dir: &Path) -> Result<FolderLock> {
        let path = dir.join(LOCK_FILE);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC).bits())
            .open(&path)
            .map_err(|e| Error::io("create", &path, e))?;
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(false);
        if !regular {
            return Err(Error::Folder(format!(
                "{} is not a regular file; remove it",
                path.display()
            )));
        }
        let file = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(file) => file,
            Err((file, Errno::EWOULDBLOCK)) => {
                let pid =
                    holder_pid(&file).map_or("pid unknown".to_string(), |p| format!("pid {p}"));
                return Err(Error::Folder(format!(
                    "{} is in use by another carcassonne process ({pid}); \
                     wait for it to end or stop it",
                    dir.display()
                )));
            }
            Err((_, errno)) => {
                return Err(Error::io("lock", &path, std::io::Error::from(errno)));
            }
        };
        // One write of a fixed width at the start, then the length: a
        // reader never sees the file empty or half-written once this is
        // done (and waits for it, until then: [`holder_pid`]).
        let pid = format!("{:>10}\n", std::process::id());
        file.write_all_at(pid.as_bytes(), 0)
            .and_then(|()| file.set_len(pid.len() as u64))
            .map_err(|e| Error::io("write", &path, e))?;
        protocol::external::sandbox::protect(dir);
        Ok(FolderLock {
            _file: file,
            dir: dir.to_path_buf(),
        })
    }

    /// The folder locked.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// How long a refused writer waits for the holder to write its pid (it
/// may have taken the lock a moment ago).
const PID_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The pid the holder of `file`'s lock wrote, waiting up to [`PID_WAIT`]
/// for a holder that has only just taken it.
fn holder_pid(file: &File) -> Option<u32> {
    let end = std::time::Instant::now() + PID_WAIT;
    loop {
        let mut buf = [0u8; 32];
        let n = file.read_at(&mut buf, 0).unwrap_or(0);
        let text = std::str::from_utf8(&buf[..n]).unwrap_or("");
        if text.ends_with('\n') {
            if let Ok(pid) = text.trim().parse::<u32>() {
                return Some(pid);
            }
        }
        if std::time::Instant::now() >= end {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Whether `dir` holds nothing but (perhaps) its lock file.
///
/// # Errors
/// It cannot be listed.
pub fn is_empty_but_lock(dir: &Path) -> std::io::Result<bool> {
    for entry in std::fs::read_dir(dir)? {
        if entry?.file_name() != LOCK_FILE {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Lock the folder `dir` that a run is about to fill: it must be empty
/// but for a stale lock file once the lock is held (another writer may
/// have filled it between the command's checks and now).
///
/// # Errors
/// Held by another process, or no longer empty.
pub fn lock_new_folder(dir: &Path, what: &str) -> Result<FolderLock> {
    let lock = FolderLock::acquire(dir)?;
    let empty = is_empty_but_lock(dir).map_err(|e| Error::io("read", dir, e))?;
    if !empty {
        return Err(Error::Invalid(format!(
            "{what} {}: already exists and is not an empty folder",
            dir.display()
        )));
    }
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_lock_is_refused_with_the_holders_pid_and_freed_on_drop() {
        let dir = scratch("twice");
        let lock = FolderLock::acquire(&dir).unwrap();
        let e = FolderLock::acquire(&dir).unwrap_err().to_string();
        assert!(
            e.contains(&format!("pid {}", std::process::id())) && e.contains("in use"),
            "{e}"
        );
        assert!(!e.contains('\n'));
        drop(lock);
        let again = FolderLock::acquire(&dir).unwrap();
        assert_eq!(again.dir(), dir);
        assert!(is_empty_but_lock(&dir).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stale_lock_file_never_blocks_and_a_symlink_is_not_followed() {
        let dir = scratch("stale");
        std::fs::write(dir.join(LOCK_FILE), "999999999\n").unwrap();
        drop(FolderLock::acquire(&dir).unwrap());
        let text = std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
        assert!(text.ends_with('\n'));
        std::fs::remove_file(dir.join(LOCK_FILE)).unwrap();
        let target = dir.join("target");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, dir.join(LOCK_FILE)).unwrap();
        assert!(FolderLock::acquire(&dir).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
