//! `sandbox=true` bots: run under bubblewrap (`bwrap`, Debian's
//! `bubblewrap` package), the unprivileged sandbox of Flatpak.
//!
//! Why bubblewrap: it is a small, widely used and maintained tool made
//! for exactly this (new user, PID, network, IPC, UTS and cgroup
//! namespaces, a root file system built from read-only binds), it needs
//! no `unsafe` code here (Landlock and seccomp would need a pre-exec hook
//! in the child, which `unsafe_code = "forbid"` rules out), and its
//! `--unshare-pid` also puts every process of the bot in a namespace that
//! dies with it. The guard ([`super::guard`]) adds the rlimits.
//!
//! Who the bot is: never root, and without capabilities (`--cap-drop
//! ALL`). Run by an ordinary user, bubblewrap maps that user into the
//! sandbox. Run as root (as CI runs), root outside would still own the
//! bot's processes — its files, its process count (the kernel does not
//! limit root's) — so the guard first drops to an unprivileged user id
//! of the bot's own ([`bot_user`], no account uses it), and bubblewrap
//! runs as that user: every path the bot is given must then be one that
//! every user may read, or the bot is refused with the path named.
//! `/proc/sys` is read-only, and the bot may run [`DEFAULT_NPROC`]
//! processes (threads count) unless the spec says `nproc=`.
//!
//! What the bot sees: `/usr` (and the `/bin`, `/lib…` links to it) and a
//! few files of `/etc` the dynamic loader and Python read, read-only; a
//! private `/tmp`, `/dev` and `/proc` (its own processes only); its own
//! files read-only: the bots-file `dir`, the program and every argument
//! that names an existing file or folder; an environment of `PATH`,
//! `HOME=/tmp`, `LANG` and the bots file's `env`, nothing else. No
//! network (a loopback of its own), not the results folder, not the
//! toolkit's command line or environment, not other bots' files (unless
//! they lie in a folder it is given). A path the bot is given is never
//! `/`, a system folder (`/etc`, `/proc`, `/home`, …, or anything in
//! `/etc`, `/proc`, `/sys`, `/dev`, `/boot`, `/run`, `/root`), a results
//! folder of this process ([`protect`]: the folders it writes), a parent
//! of one, or anything in one: such a bot is refused with the path named.

use super::process::BotCommand;
use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The bubblewrap program looked for on the `PATH`.
pub const BWRAP: &str = "bwrap";

/// Processes (threads included) a sandboxed bot may run at once when the
/// spec gives no `nproc=`.
pub const DEFAULT_NPROC: u64 = 256;

/// The first of the user ids a root toolkit runs sandboxed bots as: a
/// range of [`BOT_USERS`] ids far above the ones accounts use (Debian
/// gives accounts ids below 60,000 and subordinate ids from 100,000 in
/// steps of 65,536; this is beyond 25,000 of those steps).
pub const FIRST_BOT_USER: u32 = 1_700_000_000;
/// How many user ids [`FIRST_BOT_USER`] starts.
pub const BOT_USERS: u32 = 100_000_000;

/// Folders a bot is never given: the first [`SYSTEM_TREES`] with
/// everything in them, the others (`/` among them) themselves.
const SYSTEM: [&str; 17] = [
    "/etc", "/proc", "/sys", "/dev", "/boot", "/run", "/root", "/", "/bin", "/home", "/lib",
    "/lib64", "/opt", "/sbin", "/srv", "/tmp", "/var",
];
/// How many of [`SYSTEM`] are refused with everything in them.
const SYSTEM_TREES: usize = 7;

/// Files of `/etc` a bot may need (the dynamic loader's cache, time zone,
/// Debian's alternatives links), bound when they exist.
const ETC: [&str; 5] = [
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
];

/// Why a bot cannot run in the sandbox (one line).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum SandboxError {
    /// No bwrap on the `PATH`.
    NoBwrap,
    /// bwrap could not be run (the reason: kept as text, as the answer of
    /// [`available`] is kept for the whole process and shared).
    CannotRun {
        /// The bwrap found.
        bwrap: PathBuf,
        /// Why.
        error: String,
    },
    /// bwrap ran but could not build a sandbox.
    NoNamespaces {
        /// How it exited.
        status: std::process::ExitStatus,
        /// The first line of its stderr.
        why: String,
    },
    /// The bot has no folder and ours cannot be read.
    NoCurrentFolder(std::sync::Arc<std::io::Error>),
    /// The bot's program is not found.
    NotFound(PathBuf),
    /// A path the bot would be given that it must never see.
    Forbidden {
        /// The path.
        path: PathBuf,
        /// What it is (`a system folder`, `the results folder …`).
        what: String,
    },
    /// Run as root, the bot runs as an unprivileged user who cannot read
    /// this path.
    Unreadable(PathBuf),
}

impl std::fmt::Display for SandboxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SandboxError::NoBwrap => f.write_str(
                "bubblewrap (bwrap) is not on the PATH (Debian: apt-get install bubblewrap)",
            ),
            SandboxError::CannotRun { bwrap, error } => {
                write!(f, "cannot run {}: {error}", bwrap.display())
            }
            SandboxError::NoNamespaces { status, why } => {
                write!(f, "bwrap cannot create namespaces here ({status}): {why}")
            }
            SandboxError::NoCurrentFolder(e) => write!(f, "no current folder: {e}"),
            SandboxError::NotFound(program) => {
                write!(f, "cannot start {}: not found", program.display())
            }
            SandboxError::Forbidden { path, what } => write!(
                f,
                "the bot would be given {} ({what}); give it only its own files",
                path.display()
            ),
            SandboxError::Unreadable(path) => write!(
                f,
                "run as root, the bot runs as an unprivileged user, who cannot read {}: \
                 put the bot's files where every user may read them",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SandboxError {}

/// The bwrap program, once it has shown that it can build a sandbox here
/// (found and tried once per process), or why not, in one line.
pub fn available() -> Result<&'static Path, SandboxError> {
    static FOUND: OnceLock<Result<PathBuf, SandboxError>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let bwrap = find_on_path(BWRAP).ok_or(SandboxError::NoBwrap)?;
            let mut probe = Command::new(&bwrap);
            probe
                .args(["--unshare-all", "--die-with-parent", "--cap-drop", "ALL"])
                .args(["--ro-bind", "/", "/"])
                .arg("true")
                .stdin(Stdio::null());
            // As the bots will run: as root, under a user of their own.
            if let Some(user) = bot_user() {
                probe.uid(user).gid(user);
            }
            let out = probe.output().map_err(|e| SandboxError::CannotRun {
                bwrap: bwrap.clone(),
                error: e.to_string(),
            })?;
            if out.status.success() {
                Ok(bwrap)
            } else {
                let why = String::from_utf8_lossy(&out.stderr);
                Err(SandboxError::NoNamespaces {
                    status: out.status,
                    why: why.lines().next().unwrap_or("no message").to_string(),
                })
            }
        })
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// A sandboxed bot's command line: bwrap and its arguments, and the user
/// the guard must drop to first (as root).
#[derive(Clone, Debug)]
pub struct Wrapped {
    /// The bwrap program.
    pub program: PathBuf,
    /// Its arguments, the bot's command line last.
    pub args: Vec<OsString>,
    /// The unprivileged user (and group) id to run bwrap as, when the
    /// toolkit runs as root.
    pub user: Option<u32>,
}

/// Never give a bot `dir` (canonical where it exists), its parents or
/// anything in it: called for every results folder this process writes
/// (the run's folder lock does).
pub fn protect(dir: &Path) {
    let dir = dir
        .canonicalize()
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    let mut protected = PROTECTED.lock().unwrap_or_else(|e| e.into_inner());
    if !protected.contains(&dir) {
        protected.push(dir);
    }
}

static PROTECTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The user id a sandboxed bot runs as when the toolkit runs as root (a
/// new one for each bot, from [`FIRST_BOT_USER`]); `None` otherwise.
pub fn bot_user() -> Option<u32> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    if !nix::unistd::Uid::effective().is_root() {
        return None;
    }
    // Different toolkit processes start at different places.
    let start = std::process::id().wrapping_mul(7919);
    let n = start.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
    Some(FIRST_BOT_USER + n % BOT_USERS)
}

/// Refuse to give a bot `path` (canonical): `/`, system folders, results
/// folders of this process, their parents and what is in them.
pub fn check_bind(path: &Path) -> Result<(), SandboxError> {
    let forbidden = |what: String| {
        Err(SandboxError::Forbidden {
            path: path.to_path_buf(),
            what,
        })
    };
    for (i, system) in SYSTEM.iter().enumerate() {
        let system = Path::new(system);
        if path == system || (i < SYSTEM_TREES && path.starts_with(system)) {
            return forbidden(format!("the system folder {}", system.display()));
        }
    }
    let protected = PROTECTED.lock().unwrap_or_else(|e| e.into_inner());
    for dir in protected.iter() {
        if dir.starts_with(path) || path.starts_with(dir) {
            return forbidden(format!("results folder {}", dir.display()));
        }
    }
    Ok(())
}

/// Every user may reach `path` (search each folder above it) and read it
/// (and list it, a folder).
fn everyone_can_read(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode());
    let above_ok = path
        .ancestors()
        .skip(1)
        .all(|p| mode(p).is_ok_and(|m| m & 0o001 != 0));
    let own = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => 0o005,
        Ok(_) => 0o004,
        Err(_) => return false,
    };
    above_ok && mode(path).is_ok_and(|m| m & own == own)
}

/// The program and arguments that run `command` in the sandbox.
///
/// # Errors
/// bwrap unusable here, a bot program that cannot be found, a path the bot
/// must not be given, or (as root) one its user cannot read.
pub fn wrap(command: &BotCommand) -> Result<Wrapped, SandboxError> {
    let bwrap = available()?;
    let user = bot_user();
    let outside = match &command.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|e| SandboxError::NoCurrentFolder(std::sync::Arc::new(e)))?,
    };
    let outside = outside.canonicalize().unwrap_or(outside);
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |args: &[&std::ffi::OsStr]| a.extend(args.iter().map(|s| s.to_os_string()));
    push(&[
        "--unshare-all".as_ref(),
        "--die-with-parent".as_ref(),
        "--new-session".as_ref(),
        "--cap-drop".as_ref(),
        "ALL".as_ref(),
        "--clearenv".as_ref(),
        "--setenv".as_ref(),
        "PATH".as_ref(),
        PATH.as_ref(),
        "--setenv".as_ref(),
        "HOME".as_ref(),
        "/tmp".as_ref(),
        "--setenv".as_ref(),
        "LANG".as_ref(),
        "C.UTF-8".as_ref(),
    ]);
    for (k, v) in &command.env {
        push(&["--setenv".as_ref(), k.as_ref(), v.as_ref()]);
    }
    push(&["--ro-bind".as_ref(), "/usr".as_ref(), "/usr".as_ref()]);
    for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        let path = Path::new(top);
        if let Ok(target) = std::fs::read_link(path) {
            push(&["--symlink".as_ref(), target.as_os_str(), top.as_ref()]);
        } else if path.is_dir() {
            push(&["--ro-bind".as_ref(), top.as_ref(), top.as_ref()]);
        }
    }
    for etc in ETC {
        push(&["--ro-bind-try".as_ref(), etc.as_ref(), etc.as_ref()]);
    }
    // Debian's Python reads /etc/python3.X.
    if let Ok(entries) = std::fs::read_dir("/etc") {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("python") {
                let p = e.path();
                push(&["--ro-bind".as_ref(), p.as_os_str(), p.as_os_str()]);
            }
        }
    }
    push(&[
        "--proc".as_ref(),
        "/proc".as_ref(),
        "--ro-bind".as_ref(),
        "/proc/sys".as_ref(),
        "/proc/sys".as_ref(),
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--tmpfs".as_ref(),
        "/tmp".as_ref(),
    ]);
    // The bot's own files, read-only, at the same paths as outside.
    let mut own: Vec<PathBuf> = Vec::new();
    if command.dir.is_some() {
        own.push(outside.clone());
    }
    let mut program = resolve_program(command, &outside)?;
    if !program.starts_with("/usr") {
        // Bound (and run) where it really is: a link's target may be
        // outside everything bound.
        program = program.canonicalize().unwrap_or(program);
        own.push(program.clone());
    }
    for arg in &command.args {
        let path = outside.join(arg);
        if path.exists() {
            own.push(path.canonicalize().unwrap_or(path));
        }
    }
    for path in &own {
        check_bind(path)?;
        if user.is_some() && !everyone_can_read(path) {
            return Err(SandboxError::Unreadable(path.clone()));
        }
    }
    // The folder the bot starts in exists (empty unless bound).
    push(&["--dir".as_ref(), outside.as_os_str()]);
    for path in &own {
        push(&["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()]);
    }
    push(&[
        "--chdir".as_ref(),
        outside.as_os_str(),
        "--".as_ref(),
        program.as_os_str(),
    ]);
    a.extend(command.args.iter().map(OsString::from));
    Ok(Wrapped {
        program: bwrap.to_path_buf(),
        args: a,
        user,
    })
}

/// The sandbox's `PATH`.
const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The bot's program as an absolute path: from the bot's folder when it
/// names a path; a bare name from the sandbox's [`PATH`] (the system's
/// programs, e.g. `python3`, not a user's shims of them), else from ours.
fn resolve_program(command: &BotCommand, folder: &Path) -> Result<PathBuf, SandboxError> {
    let program = &command.program;
    let found = if program.components().count() > 1 {
        Some(folder.join(program))
    } else {
        std::env::split_paths(PATH)
            .map(|d| d.join(program))
            .find(|p| super::spec::is_executable(p))
            .or_else(|| find_on_path(&program.to_string_lossy()))
    };
    found
        .filter(|p| p.is_file())
        .ok_or_else(|| SandboxError::NotFound(program.clone()))
}

/// The first executable `name` on the `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join(name))
        .find(|p| super::spec::is_executable(p))
}
