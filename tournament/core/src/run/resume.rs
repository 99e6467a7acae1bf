//! What `--resume` and `merge` keep of a results folder: the complete
//! games of games.csv that match the run's plan, in order, each with its
//! record (when kept) checked against the game — deck seed, agents and
//! the scores its replay gives. Anything else is refused in one line.

use crate::results::output::read_games;
use crate::results::schema::{GameRow, RunInfo, Settings, GAMES_CSV, RECORDS_JSONL};
use crate::results::summary::games;
use crate::run::schedule::Schedule;
use files::error::{Error, Result};
use files::lines::complete_lines;
use std::path::Path;

/// Read the games of `dir` that match the plan of its run.json `info`:
/// complete games only, in order. Returns their rows and (with records)
/// their record lines, each record checked against its game's rows: the
/// deck seed, the seats' agents and the scores its replay gives.
///
/// # Errors
/// A row or record that does not parse or belongs to another game, or
/// (with records) fewer records than games: records.jsonl is written
/// before games.csv, so a shorter one has lost games, and replaying them
/// silently would change the run.
pub fn load_games(
    dir: &Path,
    info: &RunInfo,
    schedule: &Schedule,
    labels: &[String],
) -> Result<(Vec<GameRow>, Vec<String>)> {
    let settings = &info.settings;
    let path = dir.join(GAMES_CSV);
    let rows = read_games(dir)?;
    let mismatch = |what: String| {
        Error::Folder(format!(
            "{} does not match its run.json ({what})",
            path.display()
        ))
    };
    let p = settings.players;
    let mut kept = 0;
    let mut expected = schedule.indices();
    for game in games(&rows) {
        let index = expected
            .next()
            .ok_or_else(|| mismatch(format!("game {} beyond the plan", game[0].game)))?;
        if game[0].game != index {
            return Err(mismatch(format!(
                "game {} where {index} was expected",
                game[0].game
            )));
        }
        if game.len() > p {
            return Err(mismatch(format!("game {index} has {} rows", game.len())));
        }
        let spec = schedule.game(index);
        for (s, row) in game.iter().enumerate() {
            if row.seat != s
                || row.agent != labels[spec.seats[s]]
                || row.deck_seed != spec.deck_seed
            {
                return Err(mismatch(format!("game {index} seat {s}")));
            }
        }
        if game.len() < p {
            break; // interrupted while writing this game
        }
        kept += 1;
    }
    let mut records = Vec::new();
    if settings.records {
        let path = dir.join(RECORDS_JSONL);
        let cannot_resume = |what: String| {
            Error::Folder(format!(
                "{what}; the run cannot be resumed or merged (restore the file, or move the \
                 folder aside and start again)"
            ))
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && kept == 0 => String::new(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(cannot_resume(format!(
                    "{} is missing, but games.csv holds {kept} games",
                    path.display()
                )))
            }
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        records = complete_lines(&text);
        if records.len() < kept {
            return Err(cannot_resume(format!(
                "{} holds {} complete records, but games.csv holds {kept} games",
                path.display(),
                records.len()
            )));
        }
        records.truncate(kept);
        let game_rows: Vec<&[GameRow]> = games(&rows).take(kept).collect();
        for (i, line) in records.iter().enumerate() {
            let index = game_rows[i][0].game;
            check_record_line(line, &schedule.game(index), settings, game_rows[i])
                .map_err(|what| cannot_resume(format!("{}:{}: {what}", path.display(), i + 1)))?;
        }
    }
    let rows = rows.into_iter().take(kept * p).collect();
    Ok((rows, records))
}

/// Why a line of records.jsonl is not the record of its game (one line;
/// the caller puts the file and line before it).
#[derive(Debug)]
enum RecordMismatch {
    /// The line is not a record.
    NotARecord(serde_json::Error),
    /// Another deck seed or seat count than game `game`'s.
    OtherDeal {
        game: u64,
        seed: Option<u64>,
        players: usize,
    },
    /// Other agents than game `game`'s.
    OtherAgents {
        game: u64,
        found: Vec<String>,
        expected: Vec<String>,
    },
    /// The record does not replay.
    NoReplay { game: u64, why: engine::ReplayError },
    /// Its replay gives `seat` another score than games.csv.
    OtherScore {
        game: u64,
        seat: usize,
        replayed: u32,
        csv: u32,
    },
}

impl std::fmt::Display for RecordMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordMismatch::NotARecord(e) => write!(f, "not a game record ({e})"),
            RecordMismatch::OtherDeal {
                game,
                seed,
                players,
            } => write!(
                f,
                "the record of another game than game {game} (deck seed {seed:?}, {players} players)"
            ),
            RecordMismatch::OtherAgents {
                game,
                found,
                expected,
            } => write!(
                f,
                "the record of another game than game {game} (agents {found:?}, not {expected:?})"
            ),
            RecordMismatch::NoReplay { game, why } => {
                write!(f, "the record of game {game} does not replay ({why})")
            }
            RecordMismatch::OtherScore {
                game,
                seat,
                replayed,
                csv,
            } => write!(
                f,
                "the record of game {game} gives seat {seat} {replayed} points, games.csv {csv}"
            ),
        }
    }
}

/// Check that a line of records.jsonl is the record of game `spec`, whose
/// rows of games.csv are `rows`: its deck seed, seat count and agents, and
/// the scores its replay gives.
fn check_record_line(
    line: &str,
    spec: &crate::run::schedule::GameSpec,
    settings: &Settings,
    rows: &[GameRow],
) -> std::result::Result<(), RecordMismatch> {
    let record: engine::Record = serde_json::from_str(line).map_err(RecordMismatch::NotARecord)?;
    let agents: Vec<&str> = spec
        .seats
        .iter()
        // A record names an inline bot by its label=, as games.csv does.
        .map(|&a| {
            let spec = settings.agents[a].as_str();
            protocol::external::spec::label(spec).unwrap_or(spec)
        })
        .collect();
    if record.seed != Some(spec.deck_seed) || record.players != settings.players {
        return Err(RecordMismatch::OtherDeal {
            game: spec.index,
            seed: record.seed,
            players: record.players,
        });
    }
    if record
        .agents
        .iter()
        .map(String::as_str)
        .ne(agents.iter().copied())
    {
        return Err(RecordMismatch::OtherAgents {
            game: spec.index,
            found: record.agents,
            expected: agents.iter().map(|a| a.to_string()).collect(),
        });
    }
    let state = engine::replay(&record, false).map_err(|why| RecordMismatch::NoReplay {
        game: spec.index,
        why,
    })?;
    for row in rows {
        let replayed = state.score(engine::Seat(row.seat as u8)).total();
        if replayed != row.score {
            return Err(RecordMismatch::OtherScore {
                game: spec.index,
                seat: row.seat,
                replayed,
                csv: row.score,
            });
        }
    }
    Ok(())
}
