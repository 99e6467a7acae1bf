//! The one error type of the command line's crates (protocol, run core,
//! pictures): every failure of the command line is one of these, printed
//! as one line.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong, with what and where.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Bad input: an option, a setting or an agent spec (the message says
    /// which, and why).
    Invalid(String),
    /// A file or folder could not be created, opened, read or written.
    Io {
        /// What was being done: "create", "open", "read", "write".
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A results folder or file is not what it should be (not a
    /// tournament, corrupt, or not matching its run.json).
    Folder(String),
    /// A file was read but does not hold what it should: a record that is
    /// not JSON or does not replay, a CSV without its columns.
    Content {
        /// The file.
        path: PathBuf,
        /// The 1-based line, when the fault is on one.
        line: Option<usize>,
        /// What is wrong.
        what: String,
    },
    /// Records that failed to replay (each reported on its own line).
    Replay {
        /// Records that failed.
        failed: usize,
        /// Records in the file.
        total: usize,
    },
    /// Something that cannot fail in practice did (serializing our own
    /// types, starting threads, printing).
    Internal(String),
}

impl Error {
    /// An I/O failure of `action` on `path`.
    pub fn io(action: &'static str, path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    /// The content of `path` (at 1-based `line`, if known) is bad: `what`.
    pub fn content(path: &Path, line: Option<usize>, what: impl fmt::Display) -> Error {
        Error::Content {
            path: path.to_path_buf(),
            line,
            what: what.to_string(),
        }
    }
}

impl fmt::Display for Error {
    /// One line: control characters in what the message quotes (a file
    /// name, a key or value of a malformed record or protocol message, as
    /// serde quotes them) are written escaped, `\n` as `\\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Error::Invalid(what) | Error::Folder(what) => what.clone(),
            Error::Io {
                action,
                path,
                source,
            } => format!("cannot {action} {}: {source}", path.display()),
            Error::Content {
                path,
                line: Some(line),
                what,
            } => format!("{}:{line}: {what}", path.display()),
            Error::Content {
                path,
                line: None,
                what,
            } => format!("{}: {what}", path.display()),
            Error::Replay { failed, total } => format!("{failed} of {total} records failed"),
            Error::Internal(what) => format!("internal error: {what}"),
        };
        write_one_line(f, &text)
    }
}

/// Write `text` with its control characters escaped (a line break as
/// `\\n`): a message stays one line whatever input it quotes.
pub fn write_one_line(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for c in text.chars() {
        if c.is_control() {
            write!(f, "{}", c.escape_default())?;
        } else {
            write!(f, "{c}")?;
        }
    }
    Ok(())
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_is_one_line() {
        let errors = [
            Error::Invalid("--games must be at least 1".to_string()),
            Error::io(
                "write",
                Path::new("x/games.csv"),
                std::io::Error::other("disk full"),
            ),
            Error::Folder("x is not a tournament folder".to_string()),
            Error::content(Path::new("r.jsonl"), Some(3), "bad record: EOF"),
            Error::content(Path::new("x/games.csv"), None, "missing field `seat`"),
            Error::Replay {
                failed: 2,
                total: 4,
            },
            Error::Internal("oops".to_string()),
        ];
        let texts: Vec<String> = errors.iter().map(Error::to_string).collect();
        assert_eq!(texts[1], "cannot write x/games.csv: disk full");
        assert_eq!(texts[3], "r.jsonl:3: bad record: EOF");
        assert_eq!(texts[4], "x/games.csv: missing field `seat`");
        assert_eq!(texts[5], "2 of 4 records failed");
        assert!(texts.iter().all(|t| !t.contains('\n') && !t.is_empty()));
    }

    #[test]
    fn an_error_quoting_line_breaks_stays_one_line() {
        // serde quotes an unknown key as it was sent: a record or protocol
        // message whose key holds an escaped line break made two lines.
        let e = Error::content(
            Path::new("bad\nname.json"),
            Some(1),
            "bad record: unknown field `far\nmers`\r",
        );
        assert_eq!(
            e.to_string(),
            "bad\\nname.json:1: bad record: unknown field `far\\nmers`\\r"
        );
        assert_eq!(
            Error::Invalid("a\tb\u{1b}".into()).to_string(),
            "a\\tb\\u{1b}"
        );
    }
}
