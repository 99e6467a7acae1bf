//! One bot process: started in a process group of its own, fed lines on
//! stdin, read line by line from stdout (with a size limit and a
//! deadline), its stderr copied to a log file up to a cap per game, and
//! killed with its whole group so that no child of it outlives it.
//!
//! Two threads per process read its stdout and stderr and report to one
//! channel, so waiting for an answer is one `recv_timeout`.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
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

/// What the reader threads report.
enum Event {
    Line(String),
    TooLong,
    Closed,
    StderrFlood,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Bytes written to stderr this game.
    stderr_bytes: Arc<AtomicU64>,
    /// A flood was already reported this game.
    flood_reported: Arc<AtomicBool>,
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
        let (tx, events) = mpsc::channel();
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
        let flood_reported = Arc::new(AtomicBool::new(false));
        let out_tx = tx.clone();
        std::thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || read_lines(stdout, out_tx))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let (bytes, flood) = (stderr_bytes.clone(), flood_reported.clone());
        std::thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || copy_stderr(stderr, sink, bytes, flood, tx))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(BotProcess {
            stdin: child.stdin.take(),
            child,
            events,
            stderr_bytes,
            flood_reported,
            reaped: false,
        })
    }

    /// Start counting stderr for a new game.
    pub fn new_game(&mut self) {
        self.stderr_bytes.store(0, Ordering::Relaxed);
        self.flood_reported.store(false, Ordering::Relaxed);
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
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left.min(EXIT_POLL)) {
                Ok(Event::Line(line)) => return Ok(line),
                Ok(Event::TooLong) => return Err(format!("line too long: over {MAX_LINE} bytes")),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(match self.child.try_wait().ok().flatten() {
                        Some(s) => format!("exited: {s}"),
                        None => "exited: closed its stdout".to_string(),
                    })
                }
                Ok(Event::StderrFlood) => {
                    return Err(format!("stderr flood: over {MAX_STDERR} bytes"))
                }
                Err(RecvTimeoutError::Timeout) if left <= EXIT_POLL => {
                    return Err(format!("timeout: no answer within {limit_ms} ms"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        return Err(format!("exited: {status}"));
                    }
                }
            }
        }
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

/// Read `\n`-ended lines (a final unterminated one too) until EOF or a
/// line over [`MAX_LINE`].
fn read_lines(stdout: impl Read, tx: Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => buf,
        };
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() > MAX_LINE {
            let _ = tx.send(Event::TooLong);
            return;
        }
        line.extend_from_slice(chunk);
        let used = end.unwrap_or(buf.len());
        reader.consume(used);
        if end.is_some() {
            let text = String::from_utf8_lossy(&line).into_owned();
            line.clear();
            if tx.send(Event::Line(text)).is_err() {
                return;
            }
        }
    }
    if !line.is_empty() {
        let _ = tx.send(Event::Line(String::from_utf8_lossy(&line).into_owned()));
    }
    let _ = tx.send(Event::Closed);
}

/// Copy stderr to `sink` up to [`MAX_STDERR`] bytes a game; past that,
/// report a flood once a game and keep draining so the bot never blocks.
fn copy_stderr(
    mut stderr: impl Read,
    mut sink: Box<dyn Write + Send>,
    bytes: Arc<AtomicU64>,
    flood: Arc<AtomicBool>,
    tx: Sender<Event>,
) {
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
        if room < n && !flood.swap(true, Ordering::Relaxed) {
            let _ = sink.flush();
            let _ = tx.send(Event::StderrFlood);
        }
    }
    let _ = sink.flush();
}
