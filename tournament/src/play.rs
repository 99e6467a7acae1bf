//! `carcassonne play`: one game between agents, printed move by move, and
//! its record written to a file.
//!
//! The game is played by [`agents::game::play_game_watched`] exactly as in
//! a tournament (deck seed = `--seed`, agent seed of seat `s` =
//! [`tournament::run::schedule::agent_seed`]`(seed, 0, s)`); each turn is printed as
//! soon as it is complete (its record replayed through the engine for the
//! scores). `--out` and `--svg` are checked before the game starts and
//! never overwritten.

use crate::commands::play::PlayArgs;
use engine::apply_turn;
use engine::{Record, Rules, Seat, State};
use files::error::{Error, Result};
use protocol::secret::Secret;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use tournament::run::agent_list::split_agents;
use tournament::run::roster::AgentPlan;
use tournament::run::schedule::agent_seed;

/// A validated `play` command.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Agent spec per seat.
    pub seats: Vec<String>,
    /// The seats' agents, parsed once.
    pub agents: AgentPlan,
    /// Deck seed.
    pub seed: u64,
    /// Rules options.
    pub rules: Rules,
    /// Where the record goes.
    pub out: PathBuf,
    /// A folder for one picture of the board per turn (`--svg`).
    pub svg: Option<PathBuf>,
}

impl PlayConfig {
    /// Check `args`: every spec builds an agent, 2–6 seats.
    pub fn from_args(args: &PlayArgs) -> Result<PlayConfig> {
        let specs = split_agents(&args.agents);
        if specs.is_empty() {
            return Err(Error::Invalid(
                "--agents: give at least one agent".to_string(),
            ));
        }
        let players = args.players.unwrap_or(specs.len() as u64);
        if !engine::is_player_count(players) {
            return Err(Error::Invalid(format!(
                "--players must be 2 to 6, not {players}"
            )));
        }
        let seats: Vec<String> = (0..players as usize)
            .map(|s| specs[s % specs.len()].clone())
            .collect();
        let agents =
            AgentPlan::parse(&seats).map_err(|e| Error::Invalid(format!("--agents: {e}")))?;
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("results/play-{}.json", args.seed)));
        check_new_file(&out)?;
        if let Some(svg) = &args.svg {
            // Before the game: a file there, or pictures of another game,
            // would be found only after it.
            tournament::run::config::check_new_folder(svg, "--svg")?;
        }
        Ok(PlayConfig {
            seats,
            agents,
            seed: args.seed,
            rules: args.rules.rules()?,
            out,
            svg: args.svg.clone(),
        })
    }
}

/// `--out` must not exist (a record is never overwritten) and its folder
/// must be a folder or creatable.
fn check_new_file(path: &Path) -> Result<()> {
    // A link counts, dangling or not: the record is never written
    // through one.
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let what = if meta.file_type().is_symlink() {
            "already exists as a link"
        } else {
            "already exists"
        };
        return Err(Error::Invalid(format!(
            "--out {}: {what} (give another --out or remove it)",
            path.display()
        )));
    }
    if let Some(existing) = path.ancestors().skip(1).find(|a| a.exists()) {
        if !existing.is_dir() {
            return Err(Error::Invalid(format!(
                "--out {}: cannot create, {} is not a folder",
                path.display(),
                existing.display()
            )));
        }
        let writable = nix::unistd::access(existing, nix::unistd::AccessFlags::W_OK);
        if let Err(e) = writable {
            return Err(Error::Invalid(format!(
                "--out {}: cannot write in {}: {}",
                path.display(),
                existing.display(),
                e.desc()
            )));
        }
    }
    Ok(())
}

/// Play the game of `config`, calling `watch` as
/// [`agents::game::play_game_watched`] does. External bots write their
/// stderr next to the record (`bots/`) and are quit when it ends.
fn play_game(
    config: &PlayConfig,
    watch: &mut dyn FnMut(&Record),
) -> Result<agents::game::GameOutcome> {
    let logs = config
        .out
        .parent()
        .unwrap_or(Path::new("."))
        .join(tournament::run::roster::BOT_LOGS);
    // Bots are sent keyed seeds: an agent seed would give away --seed,
    // the deck seed of the game (protocol::secret).
    let roster = config
        .agents
        .roster(Some(logs), Secret::bot_key(config.seed));
    let mut seats: Vec<Box<dyn agents::Agent>> =
        (0..config.seats.len()).map(|s| roster.build(s)).collect();
    let seeds: Vec<u64> = (0..seats.len())
        .map(|s| agent_seed(config.seed, 0, s))
        .collect();
    let outcome =
        agents::game::play_game_watched(&mut seats, config.rules, config.seed, &seeds, watch);
    drop(seats);
    roster.shutdown();
    Ok(outcome)
}

/// Play the game, printing each turn to `out` as it completes, then the
/// final scores; write its record to the config's `out` file (and with
/// `--svg` one picture per turn).
pub fn play(config: &PlayConfig, out: &mut dyn std::io::Write) -> Result<()> {
    let mut printer = TurnPrinter::default();
    let mut failure = Ok(());
    let outcome = play_game(config, &mut |record| {
        if failure.is_ok() {
            // A turn is complete once the next one has begun (a gift
            // received after placing is recorded with the turn).
            failure = printer.print(record, false, out);
        }
    })?;
    failure?;
    printer.print(&outcome.record, true, out)?;
    let mut text = String::new();
    if let Some(f) = &outcome.forfeit {
        let _ = writeln!(text, "{} forfeits: {}", f.seat, f.reason);
    }
    let _ = writeln!(text, "final scores:");
    for (s, sc) in outcome.scores.iter().enumerate() {
        let _ = writeln!(
            text,
            "  seat {s} {:<24} {:>4}  (road {}, city {}, monastery {}, farm {}, gifts {})",
            config.seats[s],
            sc.total(),
            sc.road,
            sc.city,
            sc.monastery,
            sc.farm,
            sc.gifts
        );
    }
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    }
    let mut json =
        serde_json::to_string(&outcome.record).map_err(|e| Error::Internal(e.to_string()))?;
    json.push('\n');
    let cannot = |e: std::io::Error| Error::io("write", &config.out, e);
    // create_new: a file that appeared while the game was played is kept.
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&config.out)
        .and_then(|mut f| f.write_all(json.as_bytes()))
        .map_err(cannot)?;
    let _ = writeln!(text, "record written to {}", config.out.display());
    if let Some(dir) = &config.svg {
        let pictures = write_pictures(&outcome.record, dir)?;
        let _ = writeln!(text, "{pictures} pictures written to {}", dir.display());
    }
    let _ = writeln!(
        text,
        "step through it: {} view {}",
        tournament::results::meta::program(),
        config.out.display()
    );
    write_out(out, &text)
}

/// One SVG picture of the board per turn, `turn-000.svg` (the start
/// tile) to the last turn, in `dir`; returns how many.
fn write_pictures(record: &Record, dir: &Path) -> Result<usize> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let history = pictures::render::history::History::new(record)
        .map_err(|e| Error::Internal(format!("the game just played does not replay: {e}")))?;
    for n in 0..history.frames.len() {
        let svg = pictures::render::picture(&history, n);
        tournament::results::output::write_atomic(
            &dir.join(format!("turn-{n:03}.svg")),
            svg.as_bytes(),
        )?;
    }
    Ok(history.frames.len())
}

fn write_out(out: &mut dyn std::io::Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::Internal(format!("cannot print: {e}")))
}

/// Prints a record's turns one line each as they complete: seat,
/// set-aside tiles, tile, cell, rotation, meeple, gifts opened and
/// received, and every seat's score after the turn (the record replayed
/// through the engine).
#[derive(Default)]
struct TurnPrinter {
    state: Option<State>,
    printed: usize,
}

impl TurnPrinter {
    /// Print the turns of `record` not printed yet; the last one only when
    /// `finished` (until then it may still change).
    fn print(
        &mut self,
        record: &Record,
        finished: bool,
        out: &mut dyn std::io::Write,
    ) -> Result<()> {
        let complete = if finished {
            record.turns.len()
        } else {
            record.turns.len().saturating_sub(1)
        };
        let mut text = String::new();
        if self.state.is_none() && (complete > 0 || finished) {
            let _ = writeln!(
                text,
                "seed {}: {}",
                record.seed.map_or("?".to_string(), |s| s.to_string()),
                record
                    .agents
                    .iter()
                    .enumerate()
                    .map(|(s, a)| format!("seat {s} {a}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            self.state =
                Some(engine::initial_state(record).map_err(|e| Error::Internal(e.to_string()))?);
        }
        let Some(state) = self.state.as_mut() else {
            return Ok(());
        };
        while self.printed < complete {
            let turn = &record.turns[self.printed];
            self.printed += 1;
            apply_turn(state, turn).map_err(|reason| {
                Error::Internal(
                    engine::ReplayError {
                        turn: self.printed,
                        reason,
                    }
                    .to_string(),
                )
            })?;
            let _ = writeln!(text, "{}", turn_line(self.printed, turn, state));
        }
        write_out(out, &text)
    }
}

/// The line of turn `number` (1-based), `state` being after it.
fn turn_line(number: usize, turn: &engine::TurnRecord, state: &State) -> String {
    let mut line = format!("{number:>3}  seat {}", turn.player);
    if !turn.discarded.is_empty() {
        let tiles: Vec<String> = turn.discarded.iter().map(|t| t.to_string()).collect();
        let _ = write!(line, "  set aside {}", tiles.join(" "));
    }
    if let (Some(tile), Some(x), Some(y), Some(rot)) = (turn.tile, turn.x, turn.y, turn.rot) {
        let _ = write!(line, "  {tile} ({x}, {y}) r{rot}");
        match turn.meeple {
            Some(loc) => {
                let _ = write!(line, " meeple {loc}");
            }
            None => line.push_str("         "),
        }
    }
    if let Some(g) = &turn.gift_open {
        let _ = write!(line, "  opened {g}");
    }
    if let Some(g) = turn.gift_received {
        let _ = write!(line, "  received {g}");
    }
    let scores: Vec<String> = (0..state.players())
        .map(|s| state.score(Seat(s as u8)).total().to_string())
        .collect();
    let end = if state.is_over() {
        "  (after final scoring)"
    } else {
        ""
    };
    format!("{line:<44} scores {}{end}", scores.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects what is written, one entry per flush.
    #[derive(Default)]
    struct Flushes {
        pending: Vec<u8>,
        flushed: Vec<String>,
    }

    impl std::io::Write for Flushes {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.pending.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            let text = String::from_utf8(std::mem::take(&mut self.pending)).unwrap();
            if !text.is_empty() {
                self.flushed.push(text);
            }
            Ok(())
        }
    }

    /// Issue 8: every line arrived when the game ended. Now each turn is
    /// flushed on its own while the game goes on.
    #[test]
    fn turns_are_printed_as_they_are_played() {
        let dir = std::env::temp_dir().join(format!("play-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let seats = vec!["random".to_string(), "random".to_string()];
        let config = PlayConfig {
            agents: AgentPlan::parse(&seats).unwrap(),
            seats,
            seed: 3,
            rules: Rules::default(),
            out: dir.join("game.json"),
            svg: None,
        };
        let mut sink = Flushes::default();
        play(&config, &mut sink).unwrap();
        let turn_flushes = sink
            .flushed
            .iter()
            .filter(|f| f.contains("seat") && f.contains("scores"))
            .count();
        assert!(turn_flushes > 60, "{turn_flushes} flushes");
        assert!(sink.flushed.last().unwrap().contains("record written"));
        // A second game never overwrites the record.
        let before = std::fs::read_to_string(&config.out).unwrap();
        let err = PlayConfig::from_args(&crate::commands::play::PlayArgs {
            agents: vec!["random".to_string()],
            seed: 4,
            players: Some(2),
            rules: crate::cli::RulesArgs::default(),
            out: Some(config.out.clone()),
            svg: None,
        })
        .unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(std::fs::read_to_string(&config.out).unwrap(), before);
    }
}
