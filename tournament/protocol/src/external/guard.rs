//! The bot guard: a small process between the toolkit and each bot that
//! makes sure no process of the bot outlives the bot's game or the
//! toolkit, whatever it does (docs/PROTOCOL.md, "Processes").
//!
//! The toolkit runs its own binary as `carcassonne __bot-guard PARENT
//! CPU_S MEM_MB PROGRAM ARG…` (hidden, not a subcommand of the command
//! line). The guard
//!
//! - makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so
//!   every descendant of the bot that loses its parent, one that called
//!   `setsid` included, becomes the guard's child instead of init's;
//! - when it runs as root and is given a user id (sandboxed bots), drops
//!   to that unprivileged user and group, with no supplementary groups,
//!   before anything else: the bot's processes are then nobody's but
//!   their own;
//! - sets the bot's resource limits (`setrlimit`: CPU seconds, address
//!   space, processes), inherited by the bot and its descendants;
//! - starts the bot (its stdin, stdout and stderr are the guard's: the
//!   toolkit's pipes), and then watches, every [`WATCH`]:
//!   - the bot exited: it kills every descendant left and exits with the
//!     bot's status (a signal `S` as `128 + S`);
//!   - `SIGTERM` (the toolkit ends the bot), or its parent is no longer
//!     the toolkit (the toolkit died, even by `kill -9`): it kills every
//!     descendant and exits.
//!
//! Killing is `SIGKILL` to each child, then reaping; the children of a
//! killed process become the guard's and go the same way, until the
//! guard has no child at all. `PR_SET_PDEATHSIG` is not used: it fires
//! when the *thread* that started the process ends, and bots are started
//! on worker threads; the parent is polled instead.

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::prctl;
use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::{kill, SigSet, Signal};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{getpid, getppid, setgroups, setresgid, setresuid, Gid, Pid, Uid};
use std::ffi::OsString;
use std::io::Write;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The first argument that makes the binary a guard.
pub const ARG: &str = "__bot-guard";
/// How often the guard looks at the bot and its own parent.
pub const WATCH: Duration = Duration::from_millis(20);
/// The exit code of a guard that could not start the bot.
pub const CANNOT_START: u8 = 127;
/// How long the guard keeps killing before it gives up (a descendant
/// that cannot be killed: only a process in uninterruptible sleep).
const KILL_FOR: Duration = Duration::from_secs(5);

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Call first in `main`: run as the guard if the command line says so
/// (`Some(exit code)`), or else remember this binary as the guard of the
/// bots this process starts (`None`).
pub fn install() -> Option<ExitCode> {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == ARG) {
        return Some(match guard(&args[2..]) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "carcassonne bot guard: {e}");
                ExitCode::from(CANNOT_START)
            }
        });
    }
    if let Ok(exe) = std::env::current_exe() {
        let _ = PROGRAM.set(exe);
    }
    None
}

/// The guard's program, if [`install`] found it (the `carcassonne`
/// binary; a library user without it gets process groups only).
pub fn program() -> Option<&'static Path> {
    PROGRAM.get().map(PathBuf::as_path)
}

/// What the guard sets up before it starts the bot (`None`: nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// CPU seconds of the bot's life (`RLIMIT_CPU`).
    pub cpu_s: Option<u64>,
    /// Address space in MiB (`RLIMIT_AS`).
    pub mem_mb: Option<u64>,
    /// Processes (threads count) the bot may run at once, beyond those its
    /// user already runs (`RLIMIT_NPROC`, which counts every process of
    /// the user: the guard counts them when it starts the bot and adds
    /// this many).
    pub nproc: Option<u64>,
    /// The user and group id the bot runs as: the guard drops to it when
    /// it runs as root (it must: a root guard is refused without it when
    /// the bot is sandboxed, see [`super::sandbox`]).
    pub user: Option<u32>,
}

/// The guard's arguments after [`ARG`]: the toolkit's pid, the limits (0:
/// none; user `-`: unchanged) and then the bot's command line.
pub fn args(limits: &Limits) -> Vec<String> {
    let number = |n: Option<u64>| n.unwrap_or(0).to_string();
    vec![
        ARG.to_string(),
        std::process::id().to_string(),
        number(limits.cpu_s),
        number(limits.mem_mb),
        number(limits.nproc),
        limits.user.map_or("-".to_string(), |u| u.to_string()),
    ]
}

/// Why the guard could not start the bot (printed on its stderr, after
/// `carcassonne bot guard: `).
#[derive(Debug)]
enum GuardError {
    /// Argument N (from 1) is not a number.
    NotANumber(usize),
    /// No program after the numbers.
    NoProgram,
    /// A system call failed: what it was for, and why.
    System(&'static str, Errno),
}

impl std::fmt::Display for GuardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GuardError::NotANumber(n) => write!(f, "argument {n} must be a number"),
            GuardError::NoProgram => f.write_str("no program to start"),
            GuardError::System(what, e) => write!(f, "{what}: {e}"),
        }
    }
}

fn guard(args: &[OsString]) -> Result<u8, GuardError> {
    let number = |i: usize| -> Result<u64, GuardError> {
        args.get(i)
            .and_then(|a| a.to_str())
            .and_then(|a| a.parse().ok())
            .ok_or(GuardError::NotANumber(i + 1))
    };
    let parent = Pid::from_raw(number(0)? as i32);
    let (cpu_s, mem_mb, nproc) = (number(1)?, number(2)?, number(3)?);
    let user = match args.get(4).and_then(|a| a.to_str()) {
        Some("-") => None,
        Some(u) => Some(u.parse::<u32>().map_err(|_| GuardError::NotANumber(5))?),
        None => return Err(GuardError::NotANumber(5)),
    };
    let program = args.get(5).ok_or(GuardError::NoProgram)?;
    if let Some(user) = user {
        drop_to(user)?;
    }
    prctl::set_child_subreaper(true).map_err(errno("cannot become a subreaper"))?;
    // SIGTERM (and a stray SIGINT or SIGHUP) arrive on a descriptor the
    // loop polls. The standard library clears the mask in the bot.
    let mut mask = SigSet::empty();
    for s in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        mask.add(s);
    }
    mask.thread_block().map_err(errno("cannot block signals"))?;
    let signals = SignalFd::with_flags(&mask, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC)
        .map_err(errno("cannot watch signals"))?;
    if getppid() != parent {
        return Ok(1);
    }
    if cpu_s > 0 {
        // The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
        setrlimit(Resource::RLIMIT_CPU, cpu_s, cpu_s + 1).map_err(errno("cannot limit CPU"))?;
    }
    if mem_mb > 0 {
        let bytes = mem_mb.saturating_mul(1 << 20);
        setrlimit(Resource::RLIMIT_AS, bytes, bytes).map_err(errno("cannot limit memory"))?;
    }
    if nproc > 0 {
        // RLIMIT_NPROC counts all of the user's processes: allow the bot
        // `nproc` more than there are now (for a user of its own, the
        // guard itself and nothing else).
        let limit = processes_of(Uid::current()).saturating_add(nproc);
        setrlimit(Resource::RLIMIT_NPROC, limit, limit).map_err(errno("cannot limit processes"))?;
    }
    let bot = match Command::new(program).args(&args[6..]).spawn() {
        Ok(child) => Pid::from_raw(child.id() as i32),
        Err(e) => {
            let shown = Path::new(program).display();
            let _ = writeln!(std::io::stderr(), "cannot start {shown}: {e}");
            return Ok(CANNOT_START);
        }
    };
    loop {
        if let Ok(Some(_)) = signals.read_signal() {
            kill_all();
            return Ok(128 + Signal::SIGTERM as u8);
        }
        if getppid() != parent {
            kill_all();
            return Ok(1);
        }
        if let Some(code) = reap(bot) {
            kill_all();
            return Ok(code);
        }
        let mut fds = [PollFd::new(signals.as_fd(), PollFlags::POLLIN)];
        let wait = PollTimeout::try_from(WATCH.as_millis() as i32).unwrap_or(PollTimeout::MAX);
        let _ = poll(&mut fds, wait);
    }
}

/// Become `user` (user and group id alike), with no supplementary
/// groups and no way back; only root can, and only root needs to.
fn drop_to(user: u32) -> Result<(), GuardError> {
    if !Uid::effective().is_root() {
        return Ok(());
    }
    let (uid, gid) = (Uid::from_raw(user), Gid::from_raw(user));
    setgroups(&[]).map_err(errno("cannot drop supplementary groups"))?;
    setresgid(gid, gid, gid).map_err(errno("cannot change group"))?;
    setresuid(uid, uid, uid).map_err(errno("cannot change user"))?;
    if Uid::effective().is_root() || Uid::current().is_root() {
        return Err(GuardError::System("still root", Errno::EPERM));
    }
    Ok(())
}

/// How many processes (threads included, as `RLIMIT_NPROC` counts) the
/// real user `uid` runs now, from `/proc`.
fn processes_of(uid: Uid) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
        .filter(|status| status_uid(status) == Some(uid.as_raw()))
        .map(|status| status_threads(&status).unwrap_or(1))
        .sum()
}

/// The real user id in a `/proc/PID/status` text (`Uid:\tREAL\tEFFECTIVE…`).
fn status_uid(status: &str) -> Option<u32> {
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// The threads of a process in its `/proc/PID/status` text.
fn status_threads(status: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix("Threads:"))?;
    line.trim().parse().ok()
}

/// An error of `what` as one line.
fn errno(what: &'static str) -> impl Fn(Errno) -> GuardError {
    move |e| GuardError::System(what, e)
}

/// Reap every child that ended; the bot's exit code if it was one.
fn reap(bot: Pid) -> Option<u8> {
    loop {
        match waitpid(None::<Pid>, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::Exited(pid, code)) if pid == bot => return Some(code as u8),
            Ok(WaitStatus::Signaled(pid, s, _)) if pid == bot => {
                return Some(128u8.wrapping_add(s as u8))
            }
            Ok(WaitStatus::StillAlive) => return None,
            Ok(_) | Err(Errno::EINTR) => {}
            // No child at all: the bot is gone.
            Err(_) => return Some(1),
        }
    }
}

/// Kill every descendant: each child, then the children that their deaths
/// hand over, until there is none.
fn kill_all() {
    let me = getpid();
    let end = Instant::now() + KILL_FOR;
    while Instant::now() < end {
        for pid in children(me) {
            let _ = kill(pid, Signal::SIGKILL);
        }
        loop {
            match waitpid(None::<Pid>, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => break,
                Ok(_) | Err(Errno::EINTR) => {}
                Err(_) => return,
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The processes whose parent is `parent`, from `/proc`.
fn children(parent: Pid) -> Vec<Pid> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| stat_ppid(&stat))
                == Some(parent.as_raw())
        })
        .map(Pid::from_raw)
        .collect()
}

/// The parent pid in a `/proc/PID/stat` line (`PID (COMM) STATE PPID …`;
/// COMM may hold spaces and parentheses, so the last `)` ends it).
fn stat_ppid(stat: &str) -> Option<i32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_pid_is_read_past_a_command_name_with_parentheses() {
        assert_eq!(stat_ppid("12 (a) b) S 34 12 12 0"), Some(34));
        assert_eq!(stat_ppid("12 (sleep) Z 1 0"), Some(1));
        assert_eq!(stat_ppid("garbage"), None);
    }

    #[test]
    fn the_real_user_and_threads_are_read_from_a_status_text() {
        let status = "Name:\tpython3\nUid:\t1000\t0\t0\t0\nThreads:\t7\n";
        assert_eq!(status_uid(status), Some(1000));
        assert_eq!(status_threads(status), Some(7));
        assert_eq!(status_uid("Name:\tx\n"), None);
    }

    #[test]
    fn the_processes_of_our_own_user_include_this_one() {
        assert!(processes_of(Uid::current()) >= 1);
        assert_eq!(processes_of(Uid::from_raw(4_000_000_123)), 0);
    }

    #[test]
    fn the_arguments_carry_every_limit_and_the_user() {
        let limits = Limits {
            cpu_s: Some(5),
            mem_mb: None,
            nproc: Some(64),
            user: Some(1_600_000_001),
        };
        assert_eq!(&args(&limits)[2..], ["5", "0", "64", "1600000001"]);
        assert_eq!(args(&Limits::default())[5], "-");
    }
}
