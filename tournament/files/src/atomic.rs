//! Writing a whole file atomically: through a temporary file and a
//! rename, so a reader (or a run killed mid-write) never sees half of it.
//! Only a regular file is ever replaced: a symlink, FIFO, device or
//! folder at the path is refused, never followed.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` through a temporary file and a rename.
///
/// # Errors
/// `path` exists and is not a regular file (a symlink, FIFO, device or
/// folder is never replaced), or the write fails (nothing is left then).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_via(&path.with_extension("tmp"), path, bytes)
}

/// Refuse to replace anything at `path` but a regular file.
///
/// # Errors
/// What is there, in one line.
pub fn check_replaceable(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => {
            let t = m.file_type();
            let what = if t.is_symlink() {
                "a symbolic link"
            } else if t.is_dir() {
                "a folder"
            } else {
                use std::os::unix::fs::FileTypeExt;
                if t.is_fifo() {
                    "a FIFO"
                } else if t.is_block_device() || t.is_char_device() {
                    "a device"
                } else {
                    "not a regular file"
                }
            };
            Err(Error::Invalid(format!(
                "{} is {what}; only a regular file is ever replaced",
                path.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Write `bytes` to `tmp`, then rename it to `path` (nothing is left
/// behind on failure). `tmp` is created anew (whatever was there is
/// removed first, a symlink never followed).
pub fn write_atomic_via(tmp: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    check_replaceable(path)?;
    let _ = std::fs::remove_file(tmp);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(tmp);
            Error::io("write", path, e)
        })
}
