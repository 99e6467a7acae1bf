//! Reading the files training and the models depend on — network
//! weights, example shards, value models, positions.csv — within a size
//! cap, and never from anything but a regular file.
//!
//! Every reader of such a file goes through here: [`read`] (the whole
//! file, when it is at most its [`Cap`]), [`open`] (a stream of a file of
//! at most its cap) and [`LineCapped`] (a stream whose lines are bounded,
//! for CSV read row by row). The size comes from the file's metadata,
//! checked *before* a byte is read, so a 2 GB sparse file is refused at
//! once; a FIFO, a socket, a device or a folder is refused before it is
//! opened (reading a FIFO would block for ever), and the file is opened
//! non-blocking and checked again once open, so a file swapped for a
//! FIFO in between cannot block either.
//!
//! Errors are [`std::io::Error`]s whose text does not repeat the path:
//! callers already print `PATH: error` (or their own form of it).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// How large a file of one kind may be, and what that kind is called in
/// the refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// The largest size read, in bytes.
    pub bytes: u64,
    /// The kind of file, as the refusal names it ("a network's weights").
    pub what: &'static str,
}

impl Cap {
    /// A network's weights file (`az:net=`, `train-net --init`, the
    /// Python `Network`): 512 MiB. The largest network `train-net` makes
    /// (`--hidden 4096`, with the board) is about 240 MB of `f32`.
    pub const NET: Cap = Cap {
        bytes: 512 << 20,
        what: "a network's weights",
    };
    /// A shard of training examples: 1 GiB. `selfplay` writes one shard
    /// per game, a few MB; a shard of tens of thousands of positions
    /// still fits.
    pub const SHARD: Cap = Cap {
        bytes: 1 << 30,
        what: "a shard of training examples",
    };
    /// A value model file (`eval=`, the JSON `carcassonne train`
    /// writes): 16 MiB (a model is a few KB).
    pub const MODEL: Cap = Cap {
        bytes: 16 << 20,
        what: "a value model",
    };
    /// A positions.csv (`carcassonne train`, resumed and merged
    /// self-play): 16 GiB; it is read row by row, each line at most
    /// [`LINE_CAP`].
    pub const POSITIONS: Cap = Cap {
        bytes: 16 << 30,
        what: "a positions.csv",
    };
}

/// The longest line of a file read line by line ([`LineCapped`]): 1 MiB.
/// A positions.csv row is about 1 KB.
pub const LINE_CAP: usize = 1 << 20;

/// `bytes` in the largest binary unit that keeps it at least 1.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The refusal of a file that is not a regular file.
fn not_regular(kind: std::fs::FileType) -> io::Error {
    let what = if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                "a FIFO"
            } else if kind.is_socket() {
                "a socket"
            } else if kind.is_block_device() || kind.is_char_device() {
                "a device"
            } else {
                "not a regular file"
            }
        }
        #[cfg(not(unix))]
        {
            "not a regular file"
        }
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}, not a regular file: refused without reading it"),
    )
}

/// The refusal of a file larger than its cap.
fn too_large(len: u64, cap: Cap) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} ({len} bytes), more than the {} cap of {} (agents::capped::Cap): refused without reading it",
            size(len),
            size(cap.bytes),
            cap.what
        ),
    )
}

/// Open `path` for reading when it is a regular file of at most `cap`
/// bytes; also its length.
///
/// # Errors
/// The file is missing or unreadable, is not a regular file (a FIFO, a
/// device, a socket, a folder), or is larger than the cap. Nothing is
/// read, and only a regular file is opened (non-blocking).
pub fn open(path: &Path, cap: Cap) -> io::Result<(File, u64)> {
    let before = std::fs::metadata(path)?;
    if !before.is_file() {
        return Err(not_regular(before.file_type()));
    }
    if before.len() > cap.bytes {
        return Err(too_large(before.len(), cap));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = options.open(path)?;
    // The file opened may not be the file looked at: check it again.
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    if meta.len() > cap.bytes {
        return Err(too_large(meta.len(), cap));
    }
    Ok((file, meta.len()))
}

/// The bytes of `path`, a regular file of at most `cap` bytes.
///
/// # Errors
/// As [`open`]; also when the file grows past the cap while read.
pub fn read(path: &Path, cap: Cap) -> io::Result<Vec<u8>> {
    let (file, len) = open(path, cap)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(cap.bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap.bytes {
        return Err(too_large(bytes.len() as u64, cap));
    }
    Ok(bytes)
}

/// The text of `path`, a regular UTF-8 file of at most `cap` bytes.
///
/// # Errors
/// As [`read`]; also when the file is not UTF-8.
pub fn read_to_string(path: &Path, cap: Cap) -> io::Result<String> {
    String::from_utf8(read(path, cap)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A reader that fails on a line longer than [`LINE_CAP`] (or its own
/// bound), so a file without line breaks is not buffered whole by a
/// line or CSV reader above it.
pub struct LineCapped<R> {
    inner: R,
    /// Bytes since the last line break.
    run: usize,
    cap: usize,
}

impl<R: Read> LineCapped<R> {
    /// `inner` with lines of at most [`LINE_CAP`] bytes.
    pub fn new(inner: R) -> LineCapped<R> {
        LineCapped::with_cap(inner, LINE_CAP)
    }

    /// `inner` with lines of at most `cap` bytes.
    pub fn with_cap(inner: R, cap: usize) -> LineCapped<R> {
        LineCapped { inner, run: 0, cap }
    }
}

impl<R: Read> Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.run = 0;
            } else {
                self.run += 1;
                if self.run > self.cap {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("a line longer than {}: refused", size(self.cap as u64)),
                    ));
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("capped-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    const SMALL: Cap = Cap {
        bytes: 10,
        what: "a test file",
    };

    #[test]
    fn a_file_within_its_cap_is_read_whole() {
        let path = temp("ten");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, SMALL).unwrap(), b"0123456789");
        assert_eq!(read_to_string(&path, SMALL).unwrap(), "0123456789");
    }

    #[test]
    fn a_file_over_its_cap_is_refused_by_its_size_alone() {
        let path = temp("sparse");
        let file = File::create(&path).unwrap();
        // Sparse: 2 GiB that are never read (nor written).
        file.set_len(2 << 30).unwrap();
        let e = read(&path, Cap::SHARD).unwrap_err().to_string();
        assert!(e.contains("2.0 GiB") && e.contains("1.0 GiB cap"), "{e}");
        let e = read(&path, SMALL).unwrap_err().to_string();
        assert!(e.contains("a test file"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_folder_or_fifo_is_refused_without_blocking() {
        let dir = temp("folder");
        std::fs::create_dir_all(&dir).unwrap();
        let e = read(&dir, SMALL).unwrap_err().to_string();
        assert!(e.contains("a folder, not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let fifo = temp("fifo");
            let _ = std::fs::remove_file(&fifo);
            nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
            let e = read(&fifo, SMALL).unwrap_err().to_string();
            assert!(e.contains("a FIFO, not a regular file"), "{e}");
            let e = read(Path::new("/dev/zero"), SMALL).unwrap_err().to_string();
            assert!(e.contains("a device"), "{e}");
        }
    }

    #[test]
    fn a_line_over_its_cap_is_refused() {
        let mut ok = String::new();
        LineCapped::with_cap(&b"abc\ndef\n"[..], 3)
            .read_to_string(&mut ok)
            .unwrap();
        assert_eq!(ok, "abc\ndef\n");
        let mut long = String::new();
        let e = LineCapped::with_cap(&b"abc\ndefg\n"[..], 3)
            .read_to_string(&mut long)
            .unwrap_err();
        assert!(e.to_string().contains("a line longer than 3 bytes"), "{e}");
    }
}
