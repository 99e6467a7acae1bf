//! `carcassonne play`: one game between agents, printed move by move, and
//! its record written to a file.
//!
//! The game is played by [`agents::game::play_game`] exactly as in a
//! tournament (deck seed = `--seed`, agent seed of seat `s` =
//! [`crate::schedule::agent_seed`]`(seed, 0, s)`), then its record is
//! replayed turn by turn to print the tile, placement, meeple and scores.

use crate::agent_list::split_agents;
use crate::cli::PlayArgs;
use crate::schedule::agent_seed;
use engine::apply_turn;
use engine::{Record, Rules, Seat, State};
use std::fmt::Write as _;
use std::path::PathBuf;

/// A validated `play` command.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Agent spec per seat.
    pub seats: Vec<String>,
    /// Deck seed.
    pub seed: u64,
    /// Rules options.
    pub rules: Rules,
    /// Where the record goes.
    pub out: PathBuf,
}

impl PlayConfig {
    /// Check `args`: every spec builds an agent, 2–6 seats.
    pub fn from_args(args: &PlayArgs) -> Result<PlayConfig, String> {
        let specs = split_agents(&args.agents);
        for spec in &specs {
            agents::from_spec(spec).map_err(|e| format!("--agents: {e}"))?;
        }
        if specs.is_empty() {
            return Err("--agents: give at least one agent".to_string());
        }
        let players = args.players.unwrap_or(specs.len() as u64);
        if !(2..=6).contains(&players) {
            return Err(format!("--players must be 2 to 6, not {players}"));
        }
        let seats = (0..players as usize)
            .map(|s| specs[s % specs.len()].clone())
            .collect();
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("results/play-{}.json", args.seed)));
        Ok(PlayConfig {
            seats,
            seed: args.seed,
            rules: Rules {
                farmers: !args.no_farmers,
                gifts: args.gifts,
            },
            out,
        })
    }
}

/// Play the game, print it, write its record; returns the printed text.
pub fn play(config: &PlayConfig) -> Result<String, String> {
    let mut seats: Vec<Box<dyn agents::Agent>> = config
        .seats
        .iter()
        .map(|s| agents::from_spec(s).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let seeds: Vec<u64> = (0..seats.len())
        .map(|s| agent_seed(config.seed, 0, s))
        .collect();
    let outcome = agents::game::play_game(&mut seats, config.rules, config.seed, &seeds);
    let mut text = describe(&outcome.record)?;
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
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut json = serde_json::to_string(&outcome.record).map_err(|e| e.to_string())?;
    json.push('\n');
    std::fs::write(&config.out, json)
        .map_err(|e| format!("cannot write {}: {e}", config.out.display()))?;
    let _ = writeln!(text, "record written to {}", config.out.display());
    Ok(text)
}

/// One line per turn: seat, agent, set-aside tiles, tile, cell, rotation,
/// meeple, gifts opened and received, and every seat's score after the
/// turn.
pub fn describe(record: &Record) -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
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
    let first = record.turns.first().map_or(0, |t| t.player);
    let mut state = State::new(record.rules, record.players, Seat(first));
    for (i, turn) in record.turns.iter().enumerate() {
        apply_turn(&mut state, turn).map_err(|reason| {
            engine::ReplayError {
                turn: i + 1,
                reason,
            }
            .to_string()
        })?;
        let mut line = format!("{:>3}  seat {}", i + 1, turn.player);
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
            let _ = write!(line, "  opened {}", g);
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
        let _ = writeln!(out, "{line:<44} scores {}{end}", scores.join(" "));
    }
    Ok(out)
}
