//! Checking `tournament` (and `selfplay`) arguments into a
//! [`TournamentConfig`]: the command line's half of
//! [`tournament::run::config`](mod@tournament::run::config), which checks what every
//! caller shares.
//!
//! Everything is validated here, before any file or folder is created, so
//! bad input gives one line on stderr and leaves nothing behind.

use crate::commands::tournament::TournamentArgs;
use files::error::{Error, Result};
use std::path::Path;
use tournament::results::schema::Settings;
use tournament::run::agent_list::split_agents;
use tournament::run::config::{
    check_new_folder, default_folder, plan_agents, Folder, TournamentConfig, DEFAULT_AGENTS,
    DEFAULT_GAMES, DEFAULT_NAME, DEFAULT_SEED,
};

/// Validate `args`. Without `--agents`, the agents of
/// [`DEFAULT_AGENTS`] that this build knows are used.
pub fn tournament_config(args: &TournamentArgs) -> Result<TournamentConfig> {
    let threads = tournament::run::config::worker_threads(args.game.threads)
        .map_err(|why| Error::Invalid(format!("--threads {why}")))?;
    // No sandboxed bot is ever given the results folder (checked when
    // its spec is, below, and again when it starts).
    let results = [args.game.resume.as_deref(), args.game.out.as_deref()];
    for dir in results.into_iter().flatten() {
        protocol::external::sandbox::protect(dir);
    }
    if args.game.out.is_none() && args.game.resume.is_none() {
        protocol::external::sandbox::protect(
            tournament::run::config::DEFAULT_RESULTS_ROOT.as_ref(),
        );
    }
    if let Some(dir) = &args.game.resume {
        return resume_config(args, dir, threads);
    }
    let agents = if args.agents.is_empty() {
        default_agents()
    } else {
        split_agents(&args.agents)
    };
    let plan = plan_agents(&agents, args.kind, args.kind.agents_option(), &|_| false)?;
    let players = match args.game.players {
        None => 2,
        Some(p) if engine::is_player_count(p) => p as usize,
        Some(p) => return Err(Error::Invalid(format!("--players must be 2 to 6, not {p}"))),
    };
    let games = match args.game.games {
        None => DEFAULT_GAMES,
        Some(0) => return Err(Error::Invalid("--games must be at least 1".to_string())),
        Some(g) => g,
    };
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| DEFAULT_NAME.to_string());
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        || name.starts_with('.')
    {
        return Err(Error::Invalid(format!(
            "--name {name:?}: use letters, digits, '-', '_' and '.' only"
        )));
    }
    let shard = args.game.shard;
    let sprt = args.sprt;
    if sprt.is_some() {
        if agents.len() != 2 {
            return Err(Error::Invalid(format!(
                "--sprt compares exactly 2 agents, not {}",
                agents.len()
            )));
        }
        if shard.is_some() {
            return Err(Error::Invalid(
                "--sprt cannot be combined with --shard".to_string(),
            ));
        }
    }
    if args.game.secret_decks && shard.is_some() {
        return Err(Error::Invalid(
            "--secret-decks cannot be combined with --shard (each shard would draw its own key, so shards would not share decks)".to_string(),
        ));
    }
    let settings = Settings {
        name,
        agents,
        players,
        games_per_pairing: games,
        seed: args.game.seed.unwrap_or(DEFAULT_SEED),
        rules: args.game.rules.rules()?,
        records: args.records,
        shard,
        sprt,
        kind: args.kind,
        secret_decks: args.game.secret_decks,
    };
    settings.validate()?;
    let folder = match &args.game.out {
        Some(out) => {
            check_new_folder(out, "--out")?;
            Folder::New(out.clone())
        }
        None => Folder::Default(default_folder(&settings)),
    };
    Ok(with_test_hooks(
        TournamentConfig::new(settings, plan, folder, threads)?,
        args,
    ))
}

/// [`DEFAULT_AGENTS`] without those this build does not know.
fn default_agents() -> Vec<String> {
    DEFAULT_AGENTS
        .iter()
        .filter(|spec| match tournament::run::roster::check_spec(spec) {
            Ok(_) => true,
            Err(e) => {
                files::stdio::warn(&format!(
                    "carcassonne: default tournament skips {spec:?}: {e}"
                ));
                false
            }
        })
        .map(|s| s.to_string())
        .collect()
}

fn resume_config(args: &TournamentArgs, dir: &Path, threads: usize) -> Result<TournamentConfig> {
    let others = !args.agents.is_empty()
        || args.game.games.is_some()
        || args.game.players.is_some()
        || args.game.seed.is_some()
        || args.game.out.is_some()
        || args.game.rules.any()
        || args.records
        || args.name.is_some()
        || args.game.shard.is_some()
        || args.game.secret_decks
        || args.sprt.is_some();
    if others {
        return Err(Error::Invalid(
            "--resume takes every setting from the folder's run.json; only --threads may be added"
                .to_string(),
        ));
    }
    Ok(with_test_hooks(
        TournamentConfig::resume(dir, threads)?,
        args,
    ))
}

/// `config` with the test hooks of `args` (`--stop-after`,
/// `--keyed-agent-seeds`).
fn with_test_hooks(config: TournamentConfig, args: &TournamentArgs) -> TournamentConfig {
    TournamentConfig {
        stop_after: args.game.stop_after,
        keyed_agent_seeds: args.game.keyed_agent_seeds,
        ..config
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::GameOptions;
    use std::path::PathBuf;

    fn args(agents: &str) -> TournamentArgs {
        TournamentArgs {
            agents: vec![agents.to_string()],
            game: GameOptions {
                out: Some(PathBuf::from("/nonexistent-dir-for-tests/x")),
                ..GameOptions::default()
            },
            ..TournamentArgs::default()
        }
    }

    /// `args` with its game options changed by `change`.
    fn with(mut args: TournamentArgs, change: impl FnOnce(&mut GameOptions)) -> TournamentArgs {
        change(&mut args.game);
        args
    }

    #[test]
    fn bad_inputs_are_rejected_with_one_line() {
        let cases = [
            (args("random"), "at least 2 agents"),
            (args("random,nobody"), "unknown agent"),
            (args("random,random:speed=1"), "meeple"),
            (
                with(args("random,random"), |g| g.players = Some(1)),
                "--players",
            ),
            (
                with(args("random,random"), |g| g.games = Some(0)),
                "--games",
            ),
        ];
        for (a, needle) in cases {
            let e = tournament_config(&a).unwrap_err().to_string();
            assert!(e.contains(needle), "{e:?} should mention {needle:?}");
            assert!(!e.contains('\n'), "{e:?}");
        }
    }

    #[test]
    fn a_valid_tournament_is_accepted() {
        let c = tournament_config(&TournamentArgs {
            sprt: Some(crate::cli::parse_sprt("-5,5").unwrap()),
            ..args("random,random:meeple=0.3")
        })
        .unwrap();
        assert_eq!(c.settings.agents, vec!["random", "random:meeple=0.3"]);
        assert_eq!(c.settings.sprt.unwrap().elo0, -5.0);
    }
}
