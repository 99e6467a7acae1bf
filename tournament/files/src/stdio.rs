//! Standard output and error that never panic.
//!
//! `print!` panics when stdout is a closed pipe (`carcassonne replay
//! big.jsonl | head -1`), and so does `eprintln!` on a closed stderr.
//! Resetting SIGPIPE to its default action would not do for this
//! process: it writes to its bots' pipes too (a bot that exits would kill
//! the run) and a run killed half-way through its last files loses them.
//! So a closed pipe is an ordinary write error here: [`Stdout`] notes it
//! and drops the rest of the output (the command goes on and finishes
//! its files, then exits 0, as `head` expects of a writer), and [`warn`]
//! ignores errors of stderr.

use crate::error::{Error, Result};
use std::io::{ErrorKind, Write};
use std::path::Path;

/// The process's stdout, quiet once its reader is gone.
#[derive(Debug)]
pub struct Stdout {
    inner: std::io::Stdout,
    closed: bool,
}

impl Default for Stdout {
    fn default() -> Stdout {
        Stdout::new()
    }
}

impl Stdout {
    /// Standard output.
    pub fn new() -> Stdout {
        Stdout {
            inner: std::io::stdout(),
            closed: false,
        }
    }

    /// Whether the reader has gone (a write met a closed pipe).
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Write `text` and flush it.
    ///
    /// # Errors
    /// A write error other than a closed pipe (e.g. a full disk under
    /// `> file`).
    pub fn print(&mut self, text: &str) -> Result<()> {
        self.write_all(text.as_bytes())
            .and_then(|()| self.flush())
            .map_err(|e| Error::io("write", Path::new("standard output"), e))
    }

    /// Map a closed pipe to "written", and remember it.
    fn quiet<T>(&mut self, result: std::io::Result<T>, done: T) -> std::io::Result<T> {
        match result {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        self.quiet(result, buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.quiet(result, ())
    }
}

/// Write one line to stderr, ignoring errors (a closed stderr must not
/// stop a run).
pub fn warn(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}
