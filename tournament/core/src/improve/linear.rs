//! The value model's improvement loop (`carcassonne improve`):
//! generations of self-play, training and SPRT-gated promotion.
//!
//! Generation 0 is the given agent. Generation `k` (1, 2, …):
//!
//! 1. `gen-k/selfplay/`: `--games-per-gen` self-play games of the current
//!    best agent (seed `mix(seed, "IMPR", [k])`);
//! 2. `gen-k/model.json`: a model trained on the self-play folders of the
//!    last `--window` generations (held-out split seeded by the same seed);
//! 3. `gen-k/match/`: the candidate (the base agent with `eval=` that
//!    model) against the current best, 2 players, paired decks, stopped by
//!    the SPRT of H0: Elo ≤ 0 against H1: Elo ≥ 30 (at most
//!    `--match-games` games);
//! 4. the candidate is promoted only if the test accepts H1.
//!
//! `generations.csv` gets a row per generation (see `results/README.md`).
//! The Elo against generation 0 is chained through the promotion
//! matches: the best agent's Elo plus the match's, their standard errors
//! added in quadrature. Every step writes a folder or file of its own and
//! a finished one is reused, so running the same command again continues
//! an interrupted run (and a larger `--generations` extends a finished
//! one).

use super::steps::{r1, r4, step_settings, tournament_step, Chain, Hints, MatchElo, StepOptions};
use super::Hooks;
use crate::learning::train::{train, TrainConfig};
use crate::results::output::{csv_bytes, read_run_info, write_atomic};
use crate::results::schema::Settings;
use crate::run::config::combine_rules;
use crate::run::lock::FolderLock;
use crate::seeds::mix;
use crate::stats::SprtDecision;
use crate::RunKind;
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Domain tag of the generation seeds ("IMPR").
const IMPROVE_TAG: u64 = 0x494D_5052;
/// The SPRT hypotheses of a promotion match.
const SPRT: &str = "0,30";

/// The options of a run (`carcassonne improve` without `--net`): `None`
/// for a default, and for a run to continue (`out` holds one) only
/// `generations` and `threads` may differ from what it keeps. The error
/// messages name the command line's options (`--games-per-gen`, …).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImproveOptions {
    /// The generation-0 agent, an agent that takes `eval=` (required for
    /// a new run).
    pub agent: Option<String>,
    /// Generations after generation 0 (default 3; a larger number
    /// extends a finished run).
    pub generations: Option<u64>,
    /// Self-play games per generation (default 100).
    pub games_per_gen: Option<u64>,
    /// Most games of a promotion match (default 200).
    pub match_games: Option<u64>,
    /// Generations of data a model is trained on (default 2).
    pub window: Option<u64>,
    /// Seats per self-play game, 2–6 (default 2).
    pub players: Option<u64>,
    /// Master seed (default 1).
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// The run folder (required); an existing run is continued.
    pub out: Option<PathBuf>,
    /// The Gifts.
    pub gifts: bool,
    /// No farmers.
    pub no_farmers: bool,
    /// Rule variants (RULES.md §8), The Gifts and no farmers on top.
    pub rules: Option<engine::Rules>,
}

/// The settings of an improve run (`improve.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImproveSettings {
    /// The generation-0 agent spec.
    pub agent: String,
    /// Generations after generation 0.
    pub generations: u64,
    /// Self-play games per generation.
    pub games_per_gen: u64,
    /// Most games of a promotion match.
    pub match_games: u64,
    /// Generations of data a model is trained on.
    pub window: u64,
    /// Seats per self-play game.
    pub players: u64,
    /// Master seed.
    pub seed: u64,
    /// The Gifts.
    pub gifts: bool,
    /// No farmers.
    pub no_farmers: bool,
    /// The rule variants of `--rules` (RULES.md §8), absent from the
    /// improve.json of runs without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<engine::Rules>,
}

/// One row of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationRow {
    /// 0 for the given agent.
    pub generation: u64,
    /// The agent spec of this generation's candidate.
    pub agent: String,
    /// Positions the model was trained on (0 for generation 0).
    pub data_positions: u64,
    /// Held-out RMSE of the final lead (all phases).
    pub heldout_rmse: f64,
    /// Held-out winner accuracy (all phases).
    pub heldout_winner_accuracy: f64,
    /// Games of the promotion match.
    pub match_games: u64,
    /// The candidate's score in it (wins + draws / 2 per game).
    pub match_score: f64,
    /// `H0`, `H1` or `none`.
    pub sprt: String,
    /// Elo of the candidate against the current best.
    pub elo_vs_best: f64,
    /// Elo of the candidate against generation 0 (chained), with its 95%
    /// interval.
    pub elo_vs_gen0: f64,
    /// Lower end.
    pub elo_vs_gen0_low: f64,
    /// Upper end.
    pub elo_vs_gen0_high: f64,
    /// The candidate became the best agent.
    pub promoted: bool,
}

impl ImproveSettings {
    /// The settings of `args`, or of the run in `out` when it exists
    /// (its generations raised to `generations` if given), with the
    /// folder's lock ([`crate::run::lock`]), held for the run's life.
    ///
    /// # Errors
    /// Missing or bad options, an agent that takes no value model, a
    /// folder that is neither an improve run nor empty, or one another
    /// process is using.
    pub fn from_options(args: &ImproveOptions) -> Result<(ImproveSettings, PathBuf, FolderLock)> {
        let out = args
            .out
            .clone()
            .ok_or_else(|| Error::Invalid("--out is required".to_string()))?;
        let file = out.join("improve.json");
        if file.exists() {
            let lock = FolderLock::acquire(&out)?;
            let text = std::fs::read_to_string(&file).map_err(|e| Error::io("read", &file, e))?;
            let mut settings: ImproveSettings = serde_json::from_str(&text)
                .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
            let differs = |given: Option<u64>, kept: u64| given.is_some_and(|g| g != kept);
            if args.agent.as_ref().is_some_and(|a| *a != settings.agent)
                || differs(args.games_per_gen, settings.games_per_gen)
                || differs(args.match_games, settings.match_games)
                || differs(args.window, settings.window)
                || differs(args.players, settings.players)
                || differs(args.seed, settings.seed)
                || args.gifts != settings.gifts
                || args.no_farmers != settings.no_farmers
                || args.rules != settings.rules
            {
                return Err(Error::Invalid(format!(
                    "{} holds a run with other settings ({}); only --generations (to extend it) \
                     and --threads may change",
                    out.display(),
                    file.display()
                )));
            }
            if let Some(g) = args.generations {
                settings.generations = settings.generations.max(g);
            }
            return Ok((settings, out, lock));
        }
        let agent = args
            .agent
            .clone()
            .ok_or_else(|| Error::Invalid("--agent is required for a new run".to_string()))?;
        agents::from_spec(&agent).map_err(|e| Error::Invalid(format!("--agent: {e}")))?;
        let name = agents::spec::Spec::parse(&agent)
            .map_err(|e| Error::Invalid(format!("--agent: {e}")))?
            .name;
        let takes_model = agents::registry::AGENTS
            .iter()
            .any(|k| k.name == name && k.params.iter().any(|p| p.name == "eval"));
        if !takes_model {
            return Err(Error::Invalid(format!(
                "--agent {agent}: {name} cannot use a value model (no eval= parameter); \
                 give greedy, mcts or ismcts"
            )));
        }
        let positive = |v: Option<u64>, default: u64, name: &str| match v.unwrap_or(default) {
            0 => Err(Error::Invalid(format!("--{name} must be at least 1"))),
            n => Ok(n),
        };
        let settings = ImproveSettings {
            agent,
            generations: positive(args.generations, 3, "generations")?,
            games_per_gen: positive(args.games_per_gen, 100, "games-per-gen")?,
            match_games: positive(args.match_games, 200, "match-games")?,
            window: positive(args.window, 2, "window")?,
            players: args.players.unwrap_or(2),
            seed: args.seed.unwrap_or(1),
            gifts: args.gifts,
            no_farmers: args.no_farmers,
            rules: args.rules,
        };
        // The combination is checked once, before anything is written.
        settings.game_rules()?;
        if !engine::is_player_count(settings.players) {
            return Err(Error::Invalid(format!(
                "--players must be 2 to 6, not {}",
                settings.players
            )));
        }
        // A new run: the folder must be new or empty (a tournament folder
        // is not an improve run).
        crate::run::config::check_new_folder(&out, "--out")?;
        let (out, lock) = crate::run::tournament::claim_folder(&out, false)?;
        let mut text =
            serde_json::to_string_pretty(&settings).map_err(|e| Error::Internal(e.to_string()))?;
        text.push('\n');
        write_atomic(&file, text.as_bytes())?;
        Ok((settings, out, lock))
    }

    /// The rules of every game of the run.
    fn game_rules(&self) -> Result<engine::Rules> {
        combine_rules(self.rules, self.gifts, self.no_farmers)
    }

    /// The base agent with `eval=model` (in place of its own `eval=`, if
    /// it has one).
    fn with_model(&self, model: &Path) -> String {
        let parsed = agents::spec::Spec::parse(&self.agent).ok();
        if let Some(spec) = parsed.filter(|s| s.params.iter().any(|(k, _)| *k == "eval")) {
            let mut params: Vec<String> = spec
                .params
                .iter()
                .filter(|(k, _)| *k != "eval")
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            params.push(format!("eval={}", model.display()));
            return format!("{}:{}", spec.name, params.join(","));
        }
        let sep = if self.agent.contains(':') { ',' } else { ':' };
        format!("{}{sep}eval={}", self.agent, model.display())
    }
}

/// Run the generations of `args`, writing `generations.csv` after each,
/// the tournaments played and the trainings told by `hooks`.
///
/// # Errors
/// Bad options, or a failed step (its message).
pub fn improve(args: &ImproveOptions, hooks: &dyn Hooks) -> Result<Vec<GenerationRow>> {
    let (settings, out, _lock) = ImproveSettings::from_options(args)?;
    let steps = StepOptions {
        threads: args.threads,
        stop_after: None,
    };
    let mut best = settings.agent.clone();
    // The best agent's Elo against generation 0.
    let mut best_chain = Chain::default();
    let hints = Hints {
        interrupted: "run the same command again to continue".to_string(),
        other_run: "remove it, or give another --out".to_string(),
    };
    let mut rows = vec![GenerationRow {
        generation: 0,
        agent: best.clone(),
        data_positions: 0,
        heldout_rmse: 0.0,
        heldout_winner_accuracy: 0.0,
        match_games: 0,
        match_score: 0.0,
        sprt: String::new(),
        elo_vs_best: 0.0,
        elo_vs_gen0: 0.0,
        elo_vs_gen0_low: 0.0,
        elo_vs_gen0_high: 0.0,
        promoted: true,
    }];
    for k in 1..=settings.generations {
        let r#gen = out.join(format!("gen-{k}"));
        let seed = mix(settings.seed, IMPROVE_TAG, &[k]);
        let selfplay = Settings {
            records: true,
            kind: RunKind::Selfplay,
            ..step_settings(
                "selfplay",
                vec![best.clone()],
                settings.players,
                settings.games_per_gen,
                seed,
                settings.game_rules()?,
            )
        };
        tournament_step(&r#gen.join("selfplay"), selfplay, steps, &hints, hooks)?;
        let model = r#gen.join("model.json");
        let data: Vec<PathBuf> = (k.saturating_sub(settings.window - 1).max(1)..=k)
            .map(|g| out.join(format!("gen-{g}")).join("selfplay"))
            .collect();
        if !model.exists() {
            let report = train(&TrainConfig {
                dirs: data,
                out: model.clone(),
                seed,
                holdout: 0.2,
                lambda: 0.01,
            })?;
            hooks.warn(&format!(
                "generation {k}: model fitted on {} positions",
                report.train_positions
            ));
        }
        let fitted =
            agents::learn::ValueModel::load(&model).map_err(|e| Error::Folder(e.to_string()))?;
        let provenance = &fitted.provenance;
        let all = &provenance["heldout"][3];
        let candidate = settings.with_model(&model);
        let match_dir = r#gen.join("match");
        let promotion = Settings {
            sprt: Some(
                crate::run::config::parse_sprt(SPRT).map_err(|e| Error::Internal(e.to_string()))?,
            ),
            ..step_settings(
                "match",
                vec![candidate.clone(), best.clone()],
                2,
                settings.match_games,
                // Other decks than the self-play data's.
                mix(settings.seed, IMPROVE_TAG, &[k, 1]),
                settings.game_rules()?,
            )
        };
        tournament_step(&match_dir, promotion, steps, &hints, hooks)?;
        let sprt = read_run_info(&match_dir)?
            .sprt
            .ok_or_else(|| Error::Folder(format!("{}: no SPRT result", match_dir.display())))?;
        let m = MatchElo::of(&sprt);
        let chain = best_chain.then(&m);
        let promoted = sprt.decision == SprtDecision::AcceptH1;
        rows.push(GenerationRow {
            generation: k,
            agent: candidate.clone(),
            data_positions: provenance["train_positions"].as_u64().unwrap_or(0),
            heldout_rmse: all["rmse"].as_f64().unwrap_or(f64::NAN),
            heldout_winner_accuracy: all["winner_accuracy"].as_f64().unwrap_or(f64::NAN),
            match_games: sprt.games,
            match_score: r4(m.score),
            sprt: sprt.decision.to_string(),
            elo_vs_best: r1(m.elo),
            elo_vs_gen0: r1(chain.elo),
            elo_vs_gen0_low: r1(chain.low()),
            elo_vs_gen0_high: r1(chain.high()),
            promoted,
        });
        if promoted {
            best = candidate;
            best_chain = chain;
        }
        write_atomic(&out.join("generations.csv"), &csv_bytes(&rows)?)?;
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hooks that count what the loop tells them.
    #[derive(Default)]
    struct Counted {
        runs: std::cell::Cell<u32>,
        warnings: std::cell::Cell<u32>,
    }

    impl Hooks for Counted {
        fn run(&self, config: &crate::TournamentConfig) -> Result<crate::RunReport> {
            self.runs.set(self.runs.get() + 1);
            crate::run::tournament::run_with(
                config,
                None,
                &std::sync::atomic::AtomicBool::new(false),
            )
        }

        fn warn(&self, _text: &str) {
            self.warnings.set(self.warnings.get() + 1);
        }
    }

    #[test]
    fn the_loop_runs_without_the_command_line_and_reuses_its_finished_steps() {
        let dir = std::env::temp_dir().join(format!("improve-linear-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let options = ImproveOptions {
            agent: Some("greedy".to_string()),
            generations: Some(1),
            games_per_gen: Some(4),
            match_games: Some(4),
            seed: Some(3),
            threads: Some(1),
            out: Some(dir.join("run")),
            ..ImproveOptions::default()
        };
        let hooks = Counted::default();
        let rows = improve(&options, &hooks).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((hooks.runs.get(), hooks.warnings.get()), (2, 1));
        assert!(dir.join("run/generations.csv").is_file());
        // Again: every step is found finished, nothing is played.
        let again = improve(&options, &hooks).unwrap();
        assert_eq!(again, rows);
        assert_eq!(hooks.runs.get(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
