//! The steps both improvement loops are made of: a self-play or match
//! tournament that is run, continued after a kill or reused when it is
//! finished, and the Elo a promotion match gives, chained back to
//! generation 0.

use crate::cli::{GameOptions, TournamentArgs};
use files::error::{Error, Result};
use std::path::Path;
use tournament::results::output::read_run_info;
use tournament::results::schema::{RunInfo, RunStatus, SprtResult};
use tournament::stats::{elo_from_score, elo_interval, SprtModel, Z95};

/// What the messages of a step tell the user to do.
pub struct Hints {
    /// How to continue an interrupted run (`continue with …`).
    pub interrupted: String,
    /// What to do about a folder that holds another run (`remove it…`).
    pub other_run: String,
}

/// Whether `info` (a folder's run.json) is the run `args` would start:
/// the same agents, seats, games, seed, rules and kind, unsharded.
fn same_run(info: &RunInfo, args: &TournamentArgs) -> bool {
    let s = &info.settings;
    s.agents == args.agents
        && Some(s.players as u64) == args.game.players
        && Some(s.games_per_pairing) == args.game.games
        && Some(s.seed) == args.game.seed
        && args.game.rules.rules().ok() == Some(s.rules)
        && s.selfplay == args.selfplay
        && s.shard.is_none()
}

/// The run.json of the finished run `args` in `dir`, if it is there.
pub fn finished(dir: &Path, args: &TournamentArgs) -> Option<RunInfo> {
    if !dir.join(tournament::results::schema::RUN_JSON).exists() {
        return None;
    }
    read_run_info(dir).ok().filter(|i| {
        same_run(i, args) && !matches!(i.status, RunStatus::Running | RunStatus::Interrupted)
    })
}

/// Run, continue or reuse the tournament of `args` in `dir`: a finished
/// folder (or a merged one) is reused when it is the same run, one left
/// by a kill is resumed, and `stop_after` stops this process after that
/// many games (tests).
///
/// # Errors
/// The folder holds another run, the tournament fails, or it was
/// interrupted (the message says how to continue: `hints`).
pub fn tournament_step(
    dir: &Path,
    args: TournamentArgs,
    stop_after: Option<u64>,
    hints: &Hints,
) -> Result<RunInfo> {
    let exists = dir.join(tournament::results::schema::RUN_JSON).exists();
    if exists {
        let info = read_run_info(dir)?;
        if !same_run(&info, &args) {
            return Err(Error::Folder(format!(
                "{} holds a run of other settings than this step needs (agents {}); {}",
                dir.display(),
                args.agents.join(" "),
                hints.other_run
            )));
        }
        if info.status != RunStatus::Running && info.status != RunStatus::Interrupted {
            return Ok(info);
        }
    }
    let threads = args.game.threads;
    let args = if exists {
        TournamentArgs {
            game: GameOptions {
                resume: Some(dir.to_path_buf()),
                threads,
                stop_after,
                ..GameOptions::default()
            },
            ..TournamentArgs::default()
        }
    } else {
        let mut args = args;
        args.game.out = Some(dir.to_path_buf());
        args.game.stop_after = stop_after;
        args
    };
    let info = crate::run_report::run(&crate::config_args::tournament_config(&args)?)?.info;
    if info.status == RunStatus::Running || info.status == RunStatus::Interrupted {
        return Err(Error::Invalid(format!(
            "interrupted in {}; {}",
            dir.display(),
            hints.interrupted
        )));
    }
    Ok(info)
}

/// Round to 4 decimals (losses, scores); −0 is written 0.
pub fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4 + 0.0
}

/// Round to 1 decimal (Elo); −0 is written 0.
pub fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// What a promotion match says of its first agent (the candidate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchElo {
    /// Score per game (wins + draws / 2).
    pub score: f64,
    /// Elo against the second agent.
    pub elo: f64,
    /// Low end of its 95% interval.
    pub low: f64,
    /// High end.
    pub high: f64,
}

impl MatchElo {
    /// The candidate's Elo in the match of `sprt`, with its 95% interval
    /// (pentanomial for 2 players, trinomial otherwise).
    pub fn of(sprt: &SprtResult) -> MatchElo {
        let clamp = |s: f64| s.clamp(0.001, 0.999);
        match sprt.model {
            SprtModel::Pentanomial => {
                let (score, low, high) = sprt.pentanomial.interval();
                MatchElo {
                    score,
                    elo: elo_from_score(clamp(score)),
                    low: elo_from_score(clamp(low)),
                    high: elo_from_score(clamp(high)),
                }
            }
            SprtModel::Trinomial => {
                let (w, d, l) = (sprt.wins as f64, sprt.draws as f64, sprt.losses as f64);
                let score = (w + d / 2.0) / (w + d + l).max(1.0);
                let (_, low, high) = elo_interval(w, d, l);
                let bound = |e: f64| e.clamp(elo_from_score(0.001), elo_from_score(0.999));
                MatchElo {
                    score,
                    elo: elo_from_score(clamp(score)),
                    low: bound(low),
                    high: bound(high),
                }
            }
        }
    }

    /// The standard error of the Elo, from its interval.
    pub fn se(&self) -> f64 {
        (self.high - self.low) / (2.0 * Z95)
    }
}

/// An Elo against generation 0, chained through the promotion matches:
/// the best agent's Elo plus a match's, their standard errors added in
/// quadrature.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Chain {
    /// Elo against generation 0.
    pub elo: f64,
    /// Its standard error.
    pub se: f64,
}

impl Chain {
    /// The Elo of a candidate that scored `m` against the agent at `self`.
    pub fn then(self, m: &MatchElo) -> Chain {
        Chain {
            elo: self.elo + m.elo,
            se: (self.se * self.se + m.se() * m.se()).sqrt(),
        }
    }

    /// The low end of its 95% interval.
    pub fn low(&self) -> f64 {
        self.elo - Z95 * self.se
    }

    /// The high end of its 95% interval.
    pub fn high(&self) -> f64 {
        self.elo + Z95 * self.se
    }
}
