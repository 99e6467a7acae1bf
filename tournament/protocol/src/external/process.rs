//! One bot process: started under a [`guard`](super::guard) (which kills
//! every descendant of the bot when the bot ends or the toolkit dies),
//! optionally in a [`sandbox`](super::sandbox), in a process group of its
//! own; fed lines on stdin and read line by line from stdout, both with a
//! deadline (a bot that stops reading cannot block the toolkit: its stdin
//! does not block), its stderr copied to a log file up to a cap per game.
//!
//! Its stdout is read on the caller's thread, waiting with `poll` (no
//! thread hop on the way of an answer); a thread copies its stderr.

use super::error::BotError;
use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use std::io::{ErrorKind, Read, Write};
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
/// How long the guard has to kill the bot's processes after `SIGTERM`
/// before its own process group is killed.
pub const KILL_GRACE: Duration = Duration::from_secs(2);

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
    /// Run it in the sandbox ([`super::sandbox`]).
    pub sandbox: bool,
    /// Its CPU time limit in seconds (`RLIMIT_CPU`, for the process's
    /// life: a persistent bot's whole run).
    pub cpu_s: Option<u64>,
    /// Its address-space limit in MiB (`RLIMIT_AS`).
    pub mem_mb: Option<u64>,
    /// How many processes (threads count) it may run at once
    /// (`RLIMIT_NPROC`, beyond those of its user: [`super::guard::Limits`]).
    pub nproc: Option<u64>,
}

impl BotCommand {
    /// A command running `program` with `args`, no limits.
    pub fn new(program: PathBuf, args: Vec<String>) -> BotCommand {
        BotCommand {
            program,
            args,
            dir: None,
            env: Vec::new(),
            sandbox: false,
            cpu_s: None,
            mem_mb: None,
            nproc: None,
        }
    }
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// What was read from stdout, cut into lines.
    lines: BotLines,
    /// One read's buffer.
    chunk: Box<[u8]>,
    /// Bytes written to stderr this game.
    stderr_bytes: Arc<AtomicU64>,
    /// The group was killed and the bot reaped.
    reaped: bool,
    /// `child` is the bot's guard, not the bot.
    guarded: bool,
    /// Questions asked (the `request` numbers sent).
    requests: u64,
}

impl BotProcess {
    /// Start `command`, its stderr going to `log` (created) or nowhere.
    pub fn spawn(command: &BotCommand, log: Option<&Path>) -> Result<BotProcess, BotError> {
        let (program, args, user) = if command.sandbox {
            let wrapped = super::sandbox::wrap(command).map_err(BotError::Prepare)?;
            (wrapped.program, wrapped.args, wrapped.user)
        } else {
            (
                command.program.clone(),
                command.args.iter().map(Into::into).collect(),
                None,
            )
        };
        let guard = super::guard::program();
        let limits = super::guard::Limits {
            cpu_s: command.cpu_s,
            mem_mb: command.mem_mb,
            nproc: command.nproc,
            user,
        };
        let limited = limits != super::guard::Limits::default() || command.sandbox;
        let mut cmd = match guard {
            Some(guard) => {
                let mut cmd = Command::new(guard);
                cmd.args(super::guard::args(&limits)).arg(&program);
                cmd
            }
            None if limited => {
                return Err(BotError::NeedsGuard {
                    program: command.program.clone(),
                })
            }
            None => Command::new(&program),
        };
        cmd.args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if command.sandbox {
            // bwrap sets the bot's environment; its own pid 1 in the
            // sandbox keeps the one it was started with, which the bot
            // can read (/proc/1/environ): that must not be ours.
            cmd.env_clear();
        } else {
            cmd.envs(command.env.iter().map(|(k, v)| (k, v)));
        }
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|error| BotError::Spawn {
            program: command.program.clone(),
            error,
        })?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        // Writes never block: a bot that stops reading is a timeout.
        fcntl(stdin.as_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).map_err(|error| {
            BotError::Pipe {
                program: program.clone(),
                error,
            }
        })?;
        let stderr = child.stderr.take().expect("piped stderr");
        let sink: Box<dyn Write + Send> = match log {
            Some(path) => Box::new(std::fs::File::create(path).map_err(|error| BotError::Log {
                path: path.to_path_buf(),
                error,
            })?),
            None => Box::new(std::io::sink()),
        };
        let stderr_bytes = Arc::new(AtomicU64::new(0));
        let bytes = stderr_bytes.clone();
        std::thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || copy_stderr(stderr, sink, bytes))
            .map_err(BotError::Thread)?;
        Ok(BotProcess {
            stdin: Some(stdin),
            child,
            stdout,
            lines: BotLines::new(MAX_LINE),
            chunk: vec![0; 1 << 16].into_boxed_slice(),
            stderr_bytes,
            reaped: false,
            guarded: guard.is_some(),
            requests: 0,
        })
    }

    /// Start counting stderr for a new game.
    pub fn new_game(&mut self) {
        self.stderr_bytes.store(0, Ordering::Relaxed);
    }

    /// The number of a new question (`request` of docs/PROTOCOL.md).
    pub fn next_request(&mut self) -> u64 {
        self.requests += 1;
        self.requests
    }

    /// Write one line (a `\n` is added) before `deadline` (`limit_ms` is
    /// for the fault's reason): a bot that does not read its stdin in
    /// time times out, however long the line.
    pub fn send(&mut self, line: &str, deadline: Instant, limit_ms: u64) -> Result<(), BotError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let mut done = 0;
        while done < bytes.len() {
            let stdin = self.stdin.as_mut().ok_or(BotError::StdinGone)?;
            match stdin.write(&bytes[done..]) {
                Ok(0) => return Err(BotError::StdinClosed),
                Ok(n) => done += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(BotError::InputTimeout { limit_ms });
                    }
                    if let Ok(Some(status)) = self.child.try_wait() {
                        return Err(BotError::Exited(status));
                    }
                    let wait_ms = left.min(EXIT_POLL).as_micros().div_ceil(1000) as u16;
                    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLOUT)];
                    match poll(&mut fds, PollTimeout::from(wait_ms)) {
                        Ok(_) | Err(Errno::EINTR) => {}
                        Err(error) => {
                            return Err(BotError::Wait {
                                pipe: "stdin",
                                error,
                            })
                        }
                    }
                }
                Err(e) => return Err(BotError::Write(e)),
            }
        }
        Ok(())
    }

    /// Drop the complete lines the bot wrote that wait unread: written
    /// before the question about to be sent, none of them answers it
    /// (docs/PROTOCOL.md, stale lines). Returns how many were dropped.
    pub fn discard_stale(&mut self) -> usize {
        // What is there now, at most 16 reads (a flood is read later, with
        // a deadline).
        for _ in 0..16 {
            let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::ZERO) {
                Ok(n) if n > 0 => match self.stdout.read(&mut self.chunk) {
                    Ok(0) => {
                        self.lines.end();
                        break;
                    }
                    Ok(n) => self.lines.push(&self.chunk[..n]),
                    Err(_) => break,
                },
                _ => break,
            }
        }
        self.lines.discard_complete()
    }

    /// The next line, if it comes before `deadline`; otherwise the fault.
    /// While waiting, the bot is checked every [`EXIT_POLL`]: a bot that
    /// exited is caught even when a child of it still holds its stdout.
    pub fn receive(&mut self, deadline: Instant, limit_ms: u64) -> Result<String, BotError> {
        loop {
            if self.stderr_bytes.load(Ordering::Relaxed) > MAX_STDERR {
                return Err(BotError::StderrFlood { limit: MAX_STDERR });
            }
            if let Some(line) = self.lines.take_line()? {
                return Ok(line);
            }
            if self.lines.ended() {
                return Err(match self.child.try_wait().ok().flatten() {
                    Some(s) => BotError::Exited(s),
                    None => BotError::StdoutClosed,
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(BotError::Timeout { limit_ms });
            }
            let wait_ms = left.min(EXIT_POLL).as_micros().div_ceil(1000) as u16;
            let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::from(wait_ms)) {
                Ok(0) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        return Err(BotError::Exited(status));
                    }
                }
                // Readable (or hung up): this read does not block.
                Ok(_) => match self.stdout.read(&mut self.chunk) {
                    Ok(0) => self.lines.end(),
                    Ok(n) => self.lines.push(&self.chunk[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(BotError::Read(e)),
                },
                Err(Errno::EINTR) => {}
                Err(error) => {
                    return Err(BotError::Wait {
                        pipe: "stdout",
                        error,
                    })
                }
            }
        }
    }

    /// Ask the bot to quit, give it [`QUIT_GRACE`], then kill its group.
    pub fn quit(mut self) {
        let grace = QUIT_GRACE.as_millis() as u64;
        if self
            .send(r#"{"type":"quit"}"#, Instant::now() + QUIT_GRACE, grace)
            .is_err()
        {
            self.kill();
            return;
        }
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

    /// Kill the bot with every process it started, and reap it (once).
    ///
    /// Under a guard: `SIGTERM` to the guard, which kills the bot's whole
    /// tree (`setsid` descendants included) and exits; if it has not
    /// within [`KILL_GRACE`], and always without a guard, `SIGKILL` to
    /// the process group (the group outlives the bot as long as a member
    /// is left, so this reaches grandchildren that stayed in it).
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        let pid = Pid::from_raw(self.child.id() as i32);
        if self.guarded {
            if let Ok(Some(_)) = self.child.try_wait() {
                // The guard left nothing behind.
                self.reaped = true;
                return;
            }
            let _ = kill(pid, Signal::SIGTERM);
            let end = Instant::now() + KILL_GRACE;
            while Instant::now() < end {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.reaped = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // The group is the child's pid (process_group(0)).
        let _ = killpg(pid, Signal::SIGKILL);
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

/// A bot's stdout cut into lines: the bytes read are pushed in as they
/// come, complete lines are taken out one at a time (a last unterminated
/// one too, once stdout ended). A line over the bound is a fault as soon
/// as that many bytes are there without a `\n`: it is never buffered
/// whole. Kept apart from the process so that the `bot_lines` fuzz target
/// (docs/fuzzing.md) can feed it arbitrary bytes in arbitrary pieces.
#[derive(Debug)]
pub struct BotLines {
    /// Read, not yet returned as lines.
    pending: Vec<u8>,
    /// How much of `pending` is known to hold no `\n`.
    scanned: usize,
    /// Stdout reached its end.
    eof: bool,
    /// The longest line, without its `\n`.
    max_line: usize,
}

impl BotLines {
    /// No bytes yet; lines of at most `max_line` bytes.
    pub fn new(max_line: usize) -> BotLines {
        BotLines {
            pending: Vec::new(),
            scanned: 0,
            eof: false,
            max_line,
        }
    }

    /// Bytes read from stdout.
    pub fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// Stdout reached its end.
    pub fn end(&mut self) {
        self.eof = true;
    }

    /// Stdout reached its end ([`BotLines::end`]).
    pub fn ended(&self) -> bool {
        self.eof
    }

    /// The bytes held: a line not complete yet (or lines not taken).
    pub fn held(&self) -> usize {
        self.pending.len()
    }

    /// Drop the complete lines held (written before the question about
    /// to be sent, none of them answers it); how many were dropped.
    pub fn discard_complete(&mut self) -> usize {
        let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') else {
            return 0;
        };
        let dropped = self.pending[..=last]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.pending.drain(..=last);
        self.scanned = 0;
        dropped
    }

    /// A complete line of `pending` (a last unterminated one at the end of
    /// stdout too), or the fault of a line over `max_line`.
    ///
    /// # Errors
    /// `line too long …` or `bad line: not UTF-8 …`.
    pub fn take_line(&mut self) -> Result<Option<String>, BotError> {
        let newline = self.pending[self.scanned..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| self.scanned + i);
        let end = match newline {
            Some(i) => i,
            None if self.eof && !self.pending.is_empty() => self.pending.len(),
            None => {
                self.scanned = self.pending.len();
                return if self.pending.len() > self.max_line {
                    Err(BotError::LineTooLong { max: self.max_line })
                } else {
                    Ok(None)
                };
            }
        };
        if end > self.max_line {
            return Err(BotError::LineTooLong { max: self.max_line });
        }
        let line = String::from_utf8(self.pending[..end].to_vec());
        self.pending.drain(..(end + 1).min(self.pending.len()));
        self.scanned = 0;
        match line {
            Ok(line) => Ok(Some(line)),
            Err(e) => Err(BotError::NotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            }),
        }
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
