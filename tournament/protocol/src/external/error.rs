//! [`BotError`]: why a bot process failed — it could not be started, it
//! broke the protocol, ran out of time or exited. Its text (`Display`) is
//! the forfeit reason written to games.csv and stderr: one line whose
//! first words are the kind of fault of docs/PROTOCOL.md (`bad line`,
//! `illegal action`, `wrong seat`, `protocol`, `timeout`, `exited`,
//! `line too long`, `stderr flood`, `handshake`, or `cannot …` for a bot
//! that could not be started). A reason made of the bot's own text is
//! clipped to [`MAX_REASON`] bytes.

use std::fmt;
use std::path::PathBuf;
use std::process::ExitStatus;

/// The longest forfeit reason, in bytes.
pub const MAX_REASON: usize = 200;

/// A fault of a bot, or a failure to run it.
#[derive(Debug)]
#[non_exhaustive]
pub enum BotError {
    /// The bot cannot run in the sandbox.
    Prepare(super::sandbox::SandboxError),
    /// Limits or the sandbox asked for, but no guard to apply them.
    NeedsGuard {
        /// The bot's program.
        program: PathBuf,
    },
    /// The program could not be started.
    Spawn {
        /// The bot's program.
        program: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Its stdin could not be made non-blocking.
    Pipe {
        /// The program started (the guard's, the sandbox's or the bot's).
        program: PathBuf,
        /// Why.
        error: nix::errno::Errno,
    },
    /// A file or folder for its stderr log could not be created.
    Log {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The thread copying its stderr could not be started.
    Thread(std::io::Error),
    /// No process to ask (it failed earlier).
    NoProcess,
    /// Its stdin was closed by the toolkit already.
    StdinGone,
    /// A write to its stdin wrote nothing.
    StdinClosed,
    /// Writing to its stdin failed.
    Write(std::io::Error),
    /// Reading its stdout failed.
    Read(std::io::Error),
    /// Waiting for one of its pipes failed.
    Wait {
        /// `stdin` or `stdout`.
        pipe: &'static str,
        /// Why.
        error: nix::errno::Errno,
    },
    /// The process exited.
    Exited(ExitStatus),
    /// It closed its stdout (and had not exited yet).
    StdoutClosed,
    /// It did not read its input before the deadline (its stdin is full).
    InputTimeout {
        /// The time it had, in ms.
        limit_ms: u64,
    },
    /// No answer before the deadline.
    Timeout {
        /// The time it had, in ms.
        limit_ms: u64,
    },
    /// It wrote more than the stderr cap of a game.
    StderrFlood {
        /// The cap, in bytes.
        limit: u64,
    },
    /// A line longer than the longest allowed.
    LineTooLong {
        /// The longest line allowed, in bytes.
        max: usize,
    },
    /// A line that is not UTF-8.
    NotUtf8 {
        /// Where the first invalid byte is.
        offset: usize,
    },
    /// A line that is not the message expected: what is wrong with it
    /// (`bad line: …`).
    BadLine(String),
    /// A `hello` for another protocol than ours.
    Protocol {
        /// The protocol it named, if any.
        got: Option<String>,
        /// Ours.
        expected: &'static str,
    },
    /// An answer for another seat than the one to play.
    WrongSeat {
        /// The seat it answered for.
        answered: u8,
        /// The seat to play.
        to_play: u8,
    },
    /// An index past the legal actions.
    IllegalIndex {
        /// The index.
        index: usize,
        /// How many legal actions there are.
        count: usize,
    },
    /// An id that names no legal action.
    IllegalId(u32),
    /// An action in notation that is readable but not legal.
    NotLegal(String),
    /// An action in notation the engine cannot read (the engine's reason).
    Unreadable(String),
    /// A fault during `hello`.
    Handshake(Box<BotError>),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Prepare(reason) => write!(f, "{reason}"),
            BotError::NeedsGuard { program } => write!(
                f,
                "cannot start {}: limits and the sandbox need the carcassonne binary",
                program.display()
            ),
            BotError::Spawn { program, error } => {
                write!(f, "cannot start {}: {error}", program.display())
            }
            BotError::Pipe { program, error } => {
                write!(
                    f,
                    "cannot set up the pipe of {}: {error}",
                    program.display()
                )
            }
            BotError::Log { path, error } => write!(f, "cannot create {}: {error}", path.display()),
            BotError::Thread(error) => write!(f, "cannot start a reader thread: {error}"),
            BotError::NoProcess => f.write_str("exited: no process"),
            BotError::StdinGone => f.write_str("exited: stdin closed"),
            BotError::StdinClosed => f.write_str("exited: its stdin is closed"),
            BotError::Write(error) => write!(f, "exited: cannot write to it ({error})"),
            BotError::Read(error) => write!(f, "exited: cannot read its stdout ({error})"),
            BotError::Wait { pipe, error } => {
                write!(f, "exited: cannot wait for its {pipe} ({error})")
            }
            BotError::Exited(status) => write!(f, "exited: {status}"),
            BotError::StdoutClosed => f.write_str("exited: closed its stdout"),
            BotError::InputTimeout { limit_ms } => write!(
                f,
                "timeout: it read no input within {limit_ms} ms (its stdin is full)"
            ),
            BotError::Timeout { limit_ms } => {
                write!(f, "timeout: no answer within {limit_ms} ms")
            }
            BotError::StderrFlood { limit } => write!(f, "stderr flood: over {limit} bytes"),
            BotError::LineTooLong { max } => write!(f, "line too long: over {max} bytes"),
            BotError::NotUtf8 { offset } => {
                write!(f, "bad line: not UTF-8 (invalid byte at offset {offset})")
            }
            BotError::BadLine(what) => clipped(f, format_args!("bad line: {what}")),
            BotError::Protocol { got, expected } => {
                clipped(f, format_args!("protocol {got:?}, expected {expected:?}"))
            }
            BotError::WrongSeat { answered, to_play } => write!(
                f,
                "wrong seat: answered for seat {answered}, but seat {to_play} is to play"
            ),
            BotError::IllegalIndex { index, count } => clipped(
                f,
                format_args!("illegal action: index {index}, but there are {count} legal actions"),
            ),
            BotError::IllegalId(id) => {
                clipped(f, format_args!("illegal action: id {id} is not legal"))
            }
            BotError::NotLegal(text) => {
                clipped(f, format_args!("illegal action: {text:?} is not legal"))
            }
            BotError::Unreadable(reason) => clipped(f, format_args!("illegal action: {reason}")),
            BotError::Handshake(inner) => write!(f, "handshake: {inner}"),
        }
    }
}

impl std::error::Error for BotError {}

/// Write `reason` as one line of at most [`MAX_REASON`] bytes.
fn clipped(f: &mut fmt::Formatter<'_>, reason: fmt::Arguments<'_>) -> fmt::Result {
    f.write_str(&clip_reason(&reason.to_string()))
}

/// A forfeit reason of one line of at most [`MAX_REASON`] bytes.
pub(crate) fn clip_reason(reason: &str) -> String {
    let mut end = reason.len().min(MAX_REASON);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    reason[..end].replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_of_the_bots_text_is_one_short_line() {
        let long = BotError::NotLegal(format!("{}\n", "x".repeat(5000)));
        let text = long.to_string();
        assert!(text.starts_with("illegal action: \"xxx"), "{text}");
        assert!(text.len() <= MAX_REASON && !text.contains('\n'), "{text}");
        let bad = BotError::BadLine("a\nb".into()).to_string();
        assert_eq!(bad, "bad line: a b");
    }

    #[test]
    fn a_handshake_fault_names_its_cause() {
        let inner = BotError::Protocol {
            got: None,
            expected: "carcassonne-bot/1",
        };
        assert_eq!(
            BotError::Handshake(Box::new(inner)).to_string(),
            "handshake: protocol None, expected \"carcassonne-bot/1\""
        );
        assert_eq!(
            BotError::Timeout { limit_ms: 50 }.to_string(),
            "timeout: no answer within 50 ms"
        );
    }
}
