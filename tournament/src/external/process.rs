//! One bot process: started in a process group of its own, fed lines on
//! stdin, read line by line from stdout (with a size limit and a
//! deadline), its stderr copied to a log file up to a cap per game, and
//! killed with its whole group so that no child of it outlives it.
//!
//! Its stdout is read on the caller's thread, waiting with `poll` (no
//! thread hop on the way of an answer); a thread copies its stderr.

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest line a bot may write, without its `\n`.
pub const MAX_LINE: usize = 1 << 20;
/// Most bytes a bot may write to stderr in one game.
pub const MAX_STDERR: u64 = 1 << 20;
/// How often a bot that is thinking is checked for having exited.
pub const EXIT_POLL: Duration = Duration::from_millis(20);
/// The least time a bot has to answer `hello` and `new_game` (it may be
/// loading), whatever its move limit.
pub const MIN_START_MS: u64 = 10_000;
/// How long a bot has to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_secs(1);

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working folder (default: ours).
    pub dir: Option<PathBuf>,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Read from stdout, not yet returned as lines.
    pending: Vec<u8>,
    /// One read's buffer.
    chunk: Box<[u8]>,
    /// How much of `pending` is known to hold no `\n`.
    scanned: usize,
    /// Stdout reached its end.
    eof: bool,
    /// Bytes written to stderr this game.
    stderr_bytes: Arc<AtomicU64>,
    /// The group was killed and the bot reaped.
    reaped: bool,
}

impl BotProcess {
    /// Start `command`, its stderr going to `log` (created) or nowhere.
    pub fn spawn(command: &BotCommand, log: Option<&Path>) -> Result<BotProcess, String> {
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command.program.display()))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let sink: Box<dyn Write + Send> = match log {
            Some(path) => Box::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
            ),
            None => Box::new(std::io::sink()),
        };
        let stderr_bytes = Arc::new(AtomicU64::new(0));
        let bytes = stderr_bytes.clone();
        std::thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || copy_stderr(stderr, sink, bytes))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(BotProcess {
            stdin: child.stdin.take(),
            child,
            stdout,
            pending: Vec::new(),
            chunk: vec![0; 1 << 16].into_boxed_slice(),
            scanned: 0,
            eof: false,
            stderr_bytes,
            reaped: false,
        })
    }

    /// Start counting stderr for a new game.
    pub fn new_game(&mut self) {
        self.stderr_bytes.store(0, Ordering::Relaxed);
    }

    /// Write one line (a `\n` is added).
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("exited: stdin closed")?;
        let result = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        result.map_err(|e| format!("exited: cannot write to it ({e})"))
    }

    /// The next line, if it comes before `deadline`; otherwise the fault.
    /// While waiting, the bot is checked every [`EXIT_POLL`]: a bot that
    /// exited is caught even when a child of it still holds its stdout.
    pub fn receive(&mut self, deadline: Instant, limit_ms: u64) -> Result<String, String> {
        loop {
            if self.stderr_bytes.load(Ordering::Relaxed) > MAX_STDERR {
                return Err(format!("stderr flood: over {MAX_STDERR} bytes"));
            }
            if let Some(line) = self.take_line()? {
                return Ok(line);
            }
            if self.eof {
                return Err(match self.child.try_wait().ok().flatten() {
                    Some(s) => format!("exited: {s}"),
                    None => "exited: closed its stdout".to_string(),
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("timeout: no answer within {limit_ms} ms"));
            }
            let wait_ms = left.min(EXIT_POLL).as_micros().div_ceil(1000) as u16;
            let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::from(wait_ms)) {
                Ok(0) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        return Err(format!("exited: {status}"));
                    }
                }
                // Readable (or hung up): this read does not block.
                Ok(_) => match self.stdout.read(&mut self.chunk) {
                    Ok(0) => self.eof = true,
                    Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(format!("exited: cannot read its stdout ({e})")),
                },
                Err(Errno::EINTR) => {}
                Err(e) => return Err(format!("exited: cannot wait for its stdout ({e})")),
            }
        }
    }

    /// A complete line of `pending` (a last unterminated one at the end of
    /// stdout too), or the fault of a line over [`MAX_LINE`].
    fn take_line(&mut self) -> Result<Option<String>, String> {
        let newline = self.pending[self.scanned..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| self.scanned + i);
        let end = match newline {
            Some(i) => i,
            None if self.eof && !self.pending.is_empty() => self.pending.len(),
            None => {
                self.scanned = self.pending.len();
                return if self.pending.len() > MAX_LINE {
                    Err(format!("line too long: over {MAX_LINE} bytes"))
                } else {
                    Ok(None)
                };
            }
        };
        if end > MAX_LINE {
            return Err(format!("line too long: over {MAX_LINE} bytes"));
        }
        let line = String::from_utf8_lossy(&self.pending[..end]).into_owned();
        self.pending.drain(..(end + 1).min(self.pending.len()));
        self.scanned = 0;
        Ok(Some(line))
    }

    /// Ask the bot to quit, give it [`QUIT_GRACE`], then kill its group.
    pub fn quit(mut self) {
        let _ = self.send(r#"{"type":"quit"}"#);
        self.stdin = None;
        let end = Instant::now() + QUIT_GRACE;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
    }

    /// Kill the process group and reap the bot (once; the group is killed
    /// even when the bot itself has exited, for what it left behind).
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        // The group is the bot's pid (process_group(0)); it outlives the
        // bot as long as a member is left, so this reaches grandchildren.
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// The bot's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Copy stderr to `sink` up to [`MAX_STDERR`] bytes a game, counting in
/// `bytes` (a flood is the reader's to report); past that, keep draining
/// so the bot never blocks.
fn copy_stderr(mut stderr: impl Read, mut sink: Box<dyn Write + Send>, bytes: Arc<AtomicU64>) {
    let mut buf = vec![0u8; 1 << 14];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let before = bytes.fetch_add(n as u64, Ordering::Relaxed);
        let room = MAX_STDERR.saturating_sub(before).min(n as u64) as usize;
        if room > 0 {
            let _ = sink.write_all(&buf[..room]);
        }
        if room < n {
            let _ = sink.flush();
        }
    }
    let _ = sink.flush();
}
