//! Fuzz target: how the toolkit cuts a bot's stdout into lines and skips
//! stale ones (`external::process::BotLines`, `answer::is_stale`), the way
//! `ExtAgent` asks: before each question the complete lines waiting are
//! dropped and the request number grows; then lines are taken until one
//! is not stale. Input: a byte for the longest line (1 to 256 bytes), a
//! byte counting the steps that follow, the steps, then the bot's stdout.
//! A step pushes the next 1 to 64 bytes of stdout (its end once all is
//! pushed), asks a question, or takes a line.
//!
//! Checked against a plain model of the bytes pushed: each line taken is
//! the next line of stdout, never over the bound; a line is refused as
//! too long exactly when it is over the bound (and as soon as more than
//! that many bytes are held without a `\n`), as not UTF-8 exactly when it is not;
//! the lines dropped before a question are exactly the complete ones; an
//! answer taken names the current request or none.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::external::answer::{is_stale, read_ready};
use protocol::external::process::BotLines;

/// The `request` a line names, as sent (`null` is none).
#[derive(serde::Deserialize)]
struct Named {
    #[serde(default)]
    request: Option<serde_json::Value>,
}

/// The model: every byte pushed, and how many of them were taken or
/// dropped as lines.
struct Model {
    pushed: Vec<u8>,
    done: usize,
}

impl Model {
    /// The bytes held, not yet taken or dropped.
    fn held(&self) -> &[u8] {
        &self.pushed[self.done..]
    }

    /// The next line held (up to its `\n`, or all that is held).
    fn next_line(&self) -> &[u8] {
        let held = self.held();
        held.split(|&b| b == b'\n').next().unwrap_or(held)
    }
}

fuzz_target!(|data: &[u8]| {
    let [bound, count, rest @ ..] = data else {
        return;
    };
    let max_line = usize::from(*bound) + 1;
    let steps = usize::from(*count).min(rest.len());
    let (steps, mut stdout) = rest.split_at(steps);
    let mut lines = BotLines::new(max_line);
    let mut model = Model {
        pushed: Vec::new(),
        done: 0,
    };
    let mut request = 0u64;
    // After the steps, the rest of stdout comes and lines are taken
    // until the bot's end.
    let tail = std::iter::repeat_n(0xfc_u8, stdout.len().div_ceil(64) + 1)
        .flat_map(|push| [push, 3])
        .chain(std::iter::repeat_n(3, 1 + stdout.len()));
    for step in steps.iter().copied().chain(tail) {
        match step % 4 {
            0 | 1 => {
                if stdout.is_empty() {
                    lines.end();
                } else {
                    let n = (usize::from(step >> 2) + 1).min(stdout.len());
                    lines.push(&stdout[..n]);
                    model.pushed.extend_from_slice(&stdout[..n]);
                    stdout = &stdout[n..];
                }
            }
            2 => {
                let complete = model.held().iter().filter(|&&b| b == b'\n').count();
                assert_eq!(lines.discard_complete(), complete, "the lines dropped");
                if complete > 0 {
                    let last = model.held().iter().rposition(|&b| b == b'\n').unwrap();
                    model.done += last + 1;
                }
                request += 1;
            }
            _ => {
                let next = model.next_line().to_vec();
                let complete = model.held().contains(&b'\n');
                match lines.take_line() {
                    Ok(Some(line)) => {
                        assert!(complete || lines.ended(), "a line taken before its end");
                        assert_eq!(line.as_bytes(), &next[..], "the next line");
                        assert!(line.len() <= max_line, "a line over the bound");
                        model.done += next.len() + usize::from(complete);
                        if !is_stale(&line, request) && read_ready(&line).is_ok() {
                            let named: Named = serde_json::from_str(&line).expect("JSON");
                            assert!(
                                named.request.is_none()
                                    || named.request.and_then(|r| r.as_u64()) == Some(request),
                                "an answer to another request taken: {line:?}"
                            );
                        }
                    }
                    Ok(None) => {
                        assert!(!complete, "a complete line not taken");
                        assert!(next.len() <= max_line, "over the bound, no fault");
                        assert!(next.is_empty() || !lines.ended(), "the last line lost");
                        if lines.ended() {
                            // The bot exited: nothing more is read.
                            break;
                        }
                    }
                    Err(e) => {
                        // The forfeit reason, as games.csv gets it.
                        let e = e.to_string();
                        assert!(!e.contains('\n'), "one line: {e}");
                        if e.starts_with("line too long") {
                            assert!(next.len() > max_line, "{e}: {} bytes", next.len());
                        } else {
                            assert!(e.starts_with("bad line: not UTF-8"), "{e}");
                            assert!(next.len() <= max_line);
                            assert!(std::str::from_utf8(&next).is_err(), "{e}");
                        }
                        // A fault ends the bot.
                        return;
                    }
                }
            }
        }
        assert_eq!(lines.held(), model.held().len(), "the bytes held");
    }
});
