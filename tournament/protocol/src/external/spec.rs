//! `ext:` agent specs and the bots file (docs/PROTOCOL.md).
//!
//! `ext:cmd=PROGRAM ARG…` (split at spaces; `cmd=` takes the rest of the
//! spec, commas included), `ext:name=BOT` from `bots.json` in the current
//! folder, or `ext:name=BOT,bots=FILE`; with `move_ms=`, `game_ms=`,
//! `persist=`, `sandbox=`, `cpu_s=`, `mem_mb=`, `nproc=` before `cmd=` or overriding
//! the bots file. The program must exist and be executable: a spec that
//! names no runnable program is refused before the run starts.

use super::process::BotCommand;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The prefix of external agent specs.
pub const PREFIX: &str = "ext:";
/// The move limit when none is given.
pub const DEFAULT_MOVE_MS: u64 = 5000;
/// A sandboxed bot's CPU limit (seconds of its process's life) when none
/// is given.
pub const SANDBOX_CPU_S: u64 = 3600;
/// A sandboxed bot's memory (address-space) limit in MiB when none is
/// given.
pub const SANDBOX_MEM_MB: u64 = 4096;
/// The bots file read when `bots=` is not given.
pub const DEFAULT_BOTS_FILE: &str = "bots.json";

/// An external bot: how to start it and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotDef {
    /// The spec it came from (the key of its process pool).
    pub spec: String,
    /// How to start it.
    pub command: BotCommand,
    /// The limit per decision.
    pub move_ms: u64,
    /// The limit per game.
    pub game_ms: Option<u64>,
    /// One process serves many games.
    pub persist: bool,
    /// `label=NAME`: what results call it (instead of the whole spec).
    pub label: Option<String>,
}

/// One entry of the bots file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotEntry {
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    dir: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    move_ms: Option<u64>,
    #[serde(default)]
    game_ms: Option<u64>,
    #[serde(default)]
    persist: Option<bool>,
    #[serde(default)]
    sandbox: Option<bool>,
    #[serde(default)]
    cpu_s: Option<u64>,
    #[serde(default)]
    mem_mb: Option<u64>,
    #[serde(default)]
    nproc: Option<u64>,
}

/// Why an `ext:` spec names no runnable bot: one line, `agent "SPEC"`
/// and what is wrong with it.
#[derive(Debug)]
pub struct SpecError {
    /// The spec (trimmed).
    pub spec: String,
    /// What is wrong with it.
    pub problem: SpecProblem,
}

/// What is wrong with an `ext:` spec.
#[derive(Debug)]
#[non_exhaustive]
pub enum SpecProblem {
    /// It does not start with `ext:`.
    NotExternal,
    /// A parameter without `=`.
    NotKeyValue(String),
    /// A parameter given twice.
    Twice(String),
    /// A limit that is not a positive number.
    NotPositive {
        /// The parameter.
        key: String,
        /// Its unit.
        unit: &'static str,
    },
    /// A flag that is not `true` or `false`.
    NotFlag(String),
    /// An empty label, or one with `#` or a control character.
    BadLabel,
    /// A parameter that does not exist.
    UnknownParameter(String),
    /// Both `cmd=` and `name=`.
    CmdAndName,
    /// Neither `cmd=` nor `name=`.
    NoCommand,
    /// `cmd=` with nothing after it.
    EmptyCmd,
    /// `sandbox=true`, but no sandbox here.
    Sandbox(super::sandbox::SandboxError),
    /// The bots file could not be read.
    ReadBotsFile {
        /// The file.
        file: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The bots file is not a bots file.
    BotsFile {
        /// The file.
        file: PathBuf,
        /// Why.
        error: serde_json::Error,
    },
    /// No such bot in the bots file.
    UnknownBot {
        /// The name asked for.
        name: String,
        /// The file.
        file: PathBuf,
        /// The names it has, joined by `, `.
        known: String,
    },
    /// The bot's entry has an empty command.
    EmptyCommand {
        /// The bot.
        name: String,
        /// The file.
        file: PathBuf,
    },
    /// No such program.
    NotFound(String),
    /// A bots-file limit of 0.
    ZeroLimit {
        /// The bot.
        name: String,
        /// The file.
        file: PathBuf,
        /// The field.
        key: &'static str,
    },
    /// The bot's `dir` is not a folder.
    NoDir {
        /// The bot.
        name: String,
        /// The file.
        file: PathBuf,
        /// The folder given.
        dir: PathBuf,
    },
    /// The program is not executable.
    NotExecutable {
        /// The program as given.
        program: String,
        /// The file found.
        file: PathBuf,
    },
}

impl SpecError {
    fn new(spec: &str, problem: SpecProblem) -> SpecError {
        SpecError {
            spec: spec.to_string(),
            problem,
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "agent {:?}", self.spec)?;
        match &self.problem {
            SpecProblem::NotExternal => f.write_str(" is not an ext: spec"),
            SpecProblem::NotKeyValue(part) => {
                write!(f, ": parameter {part:?} is not key=value")
            }
            SpecProblem::Twice(k) => write!(f, ": parameter {k:?} is given twice"),
            SpecProblem::NotPositive { key, unit } => {
                write!(f, ": {key} must be a positive number of {unit}")
            }
            SpecProblem::NotFlag(k) => write!(f, ": {k} must be true or false"),
            SpecProblem::BadLabel => f.write_str(
                ": label must be a non-empty name without '#' or control characters",
            ),
            SpecProblem::UnknownParameter(k) => write!(
                f,
                " has no parameter {k:?} (valid: cmd, name, bots, label, move_ms, game_ms, persist, sandbox, cpu_s, mem_mb, nproc)"
            ),
            SpecProblem::CmdAndName => f.write_str(": give cmd= or name=, not both"),
            SpecProblem::NoCommand => f.write_str(": give cmd=COMMAND or name=BOT"),
            SpecProblem::EmptyCmd => f.write_str(": cmd= is empty"),
            SpecProblem::Sandbox(why) => write!(f, ": sandbox=true: {why}"),
            SpecProblem::ReadBotsFile { file, error } => {
                write!(f, ": cannot read bots file {}: {error}", file.display())
            }
            SpecProblem::BotsFile { file, error } => {
                write!(f, ": bots file {}: {error}", file.display())
            }
            SpecProblem::UnknownBot { name, file, known } => write!(
                f,
                ": no bot {name:?} in {} (known: {known})",
                file.display()
            ),
            SpecProblem::EmptyCommand { name, file } => write!(
                f,
                ": bot {name:?} in {} has an empty command",
                file.display()
            ),
            SpecProblem::ZeroLimit { name, file, key } => write!(
                f,
                ": bot {name:?} in {}: {key} must be a positive number (or left out)",
                file.display()
            ),
            SpecProblem::NoDir { name, file, dir } => write!(
                f,
                ": bot {name:?} in {}: dir {} is not a folder",
                file.display(),
                dir.display()
            ),
            SpecProblem::NotFound(program) => write!(f, ": command {program:?} not found"),
            SpecProblem::NotExecutable { program, file } => write!(
                f,
                ": command {program:?} is not executable ({})",
                file.display()
            ),
        }
    }
}

impl std::error::Error for SpecError {}

/// `spec` is an external agent's.
pub fn is_external(spec: &str) -> bool {
    spec.trim().starts_with(PREFIX)
}

/// The parameters before `cmd=` and the command after it (the rest of
/// the spec, commas included).
fn split_cmd(body: &str) -> (&str, Option<&str>) {
    match body.find("cmd=") {
        Some(i) => (
            body[..i].trim_end_matches([',', ' ']),
            Some(body[i + 4..].trim()),
        ),
        None => (body, None),
    }
}

/// The `label=NAME` of an `ext:` spec, if it has one (unchecked: [`parse`]
/// checks it). Results name the agent by it.
pub fn label(spec: &str) -> Option<&str> {
    let body = spec.trim().strip_prefix(PREFIX)?;
    split_cmd(body)
        .0
        .split(',')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| k.trim() == "label")
        .map(|(_, v)| v.trim())
}

/// Parse an `ext:` spec, reading the bots file if it names one, and check
/// that the program exists. Errors are one line.
pub fn parse(spec: &str) -> Result<BotDef, SpecError> {
    let spec = spec.trim();
    let fault = |problem| SpecError::new(spec, problem);
    let body = spec
        .strip_prefix(PREFIX)
        .ok_or_else(|| fault(SpecProblem::NotExternal))?;
    let (params, cmd) = split_cmd(body);
    let mut label = None;
    let mut name = None;
    let mut bots = None;
    let mut move_ms = None;
    let mut game_ms = None;
    let mut persist = None;
    let mut sandbox = None;
    let mut cpu_s = None;
    let mut mem_mb = None;
    let mut nproc = None;
    let mut seen = Vec::new();
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| fault(SpecProblem::NotKeyValue(part.to_string())))?;
        let (k, v) = (k.trim(), v.trim());
        if seen.contains(&k) {
            return Err(fault(SpecProblem::Twice(k.to_string())));
        }
        seen.push(k);
        let unit = match k {
            "cpu_s" => "s",
            "mem_mb" => "MiB",
            "nproc" => "processes",
            _ => "ms",
        };
        let number = || {
            v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                fault(SpecProblem::NotPositive {
                    key: k.to_string(),
                    unit,
                })
            })
        };
        let flag = || {
            v.parse::<bool>()
                .map_err(|_| fault(SpecProblem::NotFlag(k.to_string())))
        };
        match k {
            "name" => name = Some(v.to_string()),
            "label" => {
                if v.is_empty() || v.chars().any(|c| c.is_control() || c == '#') {
                    return Err(fault(SpecProblem::BadLabel));
                }
                label = Some(v.to_string());
            }
            "bots" => bots = Some(PathBuf::from(v)),
            "move_ms" => move_ms = Some(number()?),
            "game_ms" => game_ms = Some(number()?),
            "persist" => persist = Some(flag()?),
            "sandbox" => sandbox = Some(flag()?),
            "cpu_s" => cpu_s = Some(number()?),
            "mem_mb" => mem_mb = Some(number()?),
            "nproc" => nproc = Some(number()?),
            _ => return Err(fault(SpecProblem::UnknownParameter(k.to_string()))),
        }
    }
    let mut def = match (cmd, name) {
        (Some(_), Some(_)) => return Err(fault(SpecProblem::CmdAndName)),
        (None, None) => return Err(fault(SpecProblem::NoCommand)),
        (Some(cmd), None) => {
            let mut words = cmd.split_whitespace().map(str::to_string);
            let program = words.next().ok_or_else(|| fault(SpecProblem::EmptyCmd))?;
            BotDef {
                spec: spec.to_string(),
                command: BotCommand::new(PathBuf::from(program), words.collect()),
                move_ms: DEFAULT_MOVE_MS,
                game_ms: None,
                persist: true,
                label: None,
            }
        }
        (None, Some(name)) => from_bots_file(spec, &name, bots.as_deref())?,
    };
    def.move_ms = move_ms.unwrap_or(def.move_ms);
    def.game_ms = game_ms.or(def.game_ms);
    def.persist = persist.unwrap_or(def.persist);
    def.label = label;
    let command = &mut def.command;
    command.sandbox = sandbox.unwrap_or(command.sandbox);
    command.cpu_s = cpu_s.or(command.cpu_s);
    command.mem_mb = mem_mb.or(command.mem_mb);
    command.nproc = nproc.or(command.nproc);
    if command.sandbox {
        command.cpu_s = command.cpu_s.or(Some(SANDBOX_CPU_S));
        command.mem_mb = command.mem_mb.or(Some(SANDBOX_MEM_MB));
        command.nproc = command.nproc.or(Some(super::sandbox::DEFAULT_NPROC));
        super::sandbox::available().map_err(|e| fault(SpecProblem::Sandbox(e)))?;
    }
    check_program(spec, &def.command)?;
    if def.command.sandbox {
        // The paths it would be given, checked now rather than at its
        // first game (a results folder is checked again then).
        super::sandbox::wrap(&def.command).map_err(|e| fault(SpecProblem::Sandbox(e)))?;
    }
    Ok(def)
}

fn from_bots_file(spec: &str, name: &str, file: Option<&Path>) -> Result<BotDef, SpecError> {
    let fault = |problem| SpecError::new(spec, problem);
    let file = file.unwrap_or(Path::new(DEFAULT_BOTS_FILE));
    let text = std::fs::read_to_string(file).map_err(|error| {
        fault(SpecProblem::ReadBotsFile {
            file: file.to_path_buf(),
            error,
        })
    })?;
    let mut bots: BTreeMap<String, BotEntry> = serde_json::from_str(&text).map_err(|error| {
        fault(SpecProblem::BotsFile {
            file: file.to_path_buf(),
            error,
        })
    })?;
    let known = bots.keys().cloned().collect::<Vec<_>>().join(", ");
    let entry = bots.remove(name).ok_or_else(|| {
        fault(SpecProblem::UnknownBot {
            name: name.to_string(),
            file: file.to_path_buf(),
            known,
        })
    })?;
    if entry.command.trim().is_empty() {
        return Err(fault(SpecProblem::EmptyCommand {
            name: name.to_string(),
            file: file.to_path_buf(),
        }));
    }
    let limits = [
        ("move_ms", entry.move_ms),
        ("game_ms", entry.game_ms),
        ("cpu_s", entry.cpu_s),
        ("mem_mb", entry.mem_mb),
        ("nproc", entry.nproc),
    ];
    if let Some((key, _)) = limits.iter().find(|(_, v)| *v == Some(0)) {
        return Err(fault(SpecProblem::ZeroLimit {
            name: name.to_string(),
            file: file.to_path_buf(),
            key,
        }));
    }
    if let Some(dir) = entry.dir.as_ref().filter(|d| !d.is_dir()) {
        return Err(fault(SpecProblem::NoDir {
            name: name.to_string(),
            file: file.to_path_buf(),
            dir: dir.clone(),
        }));
    }
    Ok(BotDef {
        spec: spec.to_string(),
        command: BotCommand {
            program: PathBuf::from(entry.command),
            args: entry.args,
            dir: entry.dir,
            env: entry.env.into_iter().collect(),
            sandbox: entry.sandbox.unwrap_or(false),
            cpu_s: entry.cpu_s,
            mem_mb: entry.mem_mb,
            nproc: entry.nproc,
        },
        move_ms: entry.move_ms.unwrap_or(DEFAULT_MOVE_MS),
        game_ms: entry.game_ms,
        persist: entry.persist.unwrap_or(true),
        label: None,
    })
}

/// The program is an executable file (a path with a `/`, from the bot's
/// folder) or one on the `PATH`: checked once, before any game.
fn check_program(spec: &str, command: &BotCommand) -> Result<(), SpecError> {
    let program = &command.program;
    let shown = program.display().to_string();
    let candidates: Vec<PathBuf> = if program.components().count() > 1 {
        vec![match (&command.dir, program.is_relative()) {
            (Some(dir), true) => dir.join(program),
            _ => program.clone(),
        }]
    } else {
        std::env::var_os("PATH")
            .map(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(program))
                    .collect()
            })
            .unwrap_or_default()
    };
    let files: Vec<&PathBuf> = candidates.iter().filter(|p| p.is_file()).collect();
    if files.is_empty() {
        return Err(SpecError::new(spec, SpecProblem::NotFound(shown)));
    }
    if files.iter().any(|p| is_executable(p)) {
        Ok(())
    } else {
        Err(SpecError::new(
            spec,
            SpecProblem::NotExecutable {
                program: shown,
                file: files[0].clone(),
            },
        ))
    }
}

/// `path` has an execute permission bit.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmd_takes_the_rest_of_the_spec_and_limits_come_before_it() {
        let d = parse("ext:move_ms=200,persist=false,cmd=sh -c exit,0").unwrap();
        assert_eq!(d.command.program, PathBuf::from("sh"));
        assert_eq!(d.command.args, vec!["-c", "exit,0"]);
        assert_eq!((d.move_ms, d.game_ms, d.persist), (200, None, false));
        let d = parse("ext:cmd=sh").unwrap();
        assert_eq!((d.move_ms, d.persist), (DEFAULT_MOVE_MS, true));
        assert_eq!((d.command.cpu_s, d.command.mem_mb), (None, None));
        let d = parse("ext:cpu_s=9,mem_mb=64,cmd=sh").unwrap();
        assert_eq!((d.command.cpu_s, d.command.mem_mb), (Some(9), Some(64)));
        assert!(!d.command.sandbox);
    }

    #[test]
    fn a_label_names_an_inline_bot() {
        let spec = "ext:label=deep,move_ms=9,cmd=sh -c exit,0";
        assert_eq!(label(spec), Some("deep"));
        assert_eq!(parse(spec).unwrap().label.as_deref(), Some("deep"));
        // Only before cmd=: after it, it is the command's.
        assert_eq!(label("ext:cmd=sh label=x"), None);
        assert_eq!(label("random"), None);
        for bad in ["ext:label=,cmd=sh", "ext:label=a#2,cmd=sh"] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains("label must be"), "{bad}");
        }
    }

    #[test]
    fn bad_ext_specs_are_one_line_errors() {
        for (spec, needle) in [
            ("ext:", "cmd=COMMAND or name=BOT"),
            ("ext:cmd=", "empty"),
            ("ext:cmd=no-such-program-xyz", "not found"),
            ("ext:cmd=./no/such/file", "not found"),
            ("ext:speed=3,cmd=sh", "valid: cmd"),
            ("ext:move_ms=0,cmd=sh", "positive"),
            ("ext:move_ms=5,move_ms=6,cmd=sh", "given twice"),
            ("ext:mem_mb=x,cmd=sh", "positive number of MiB"),
            ("ext:sandbox=yes,cmd=sh", "true or false"),
            (
                "ext:name=x,bots=/nonexistent/bots.json",
                "cannot read bots file",
            ),
        ] {
            let e = parse(spec).unwrap_err().to_string();
            assert!(e.contains(needle), "{spec}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn bots_file_entries_resolve_with_overrides() {
        let dir = std::env::temp_dir().join(format!("bots-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bots.json");
        std::fs::write(
            &file,
            r#"{"a": {"command": "sh", "args": ["x.sh"], "env": {"K": "V"}, "move_ms": 7, "persist": false},
                "empty": {"command": " "}}"#,
        )
        .unwrap();
        let spec = format!("ext:name=a,bots={},game_ms=9", file.display());
        let d = parse(&spec).unwrap();
        assert_eq!(d.command.args, vec!["x.sh"]);
        assert_eq!(d.command.env, vec![("K".to_string(), "V".to_string())]);
        assert_eq!((d.move_ms, d.game_ms, d.persist), (7, Some(9), false));
        let e = parse(&format!("ext:name=b,bots={}", file.display()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("known: a, empty"), "{e}");
        let e = parse(&format!("ext:name=empty,bots={}", file.display()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("empty command"), "{e}");
        // The bots file is no program: it has no execute bit.
        let e = parse(&format!("ext:cmd={}", file.display()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not executable"), "{e}");
        std::fs::write(&file, "{\"a\": {\"cmd\": \"sh\"}}").unwrap();
        let e = parse(&spec).unwrap_err().to_string();
        assert!(e.contains("unknown field"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
