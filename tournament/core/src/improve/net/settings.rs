//! The settings of an `improve --net` run (`improve-net.json`): read
//! from the options of a new run, or from the folder of a run to
//! continue, and the tournaments and trainings they make.

use super::{gen_dir, net_path, FORMAT, GAUNTLET, SETTINGS_FILE, TAG};
use crate::improve::linear::ImproveOptions;
use crate::improve::steps::{rewrite_params, step_settings};
use crate::learning::train_net::TrainNetConfig;
use crate::results::output::write_atomic;
use crate::results::schema::Settings;
use crate::run::lock::FolderLock;
use crate::seeds::mix;
use crate::RunKind;
use agents::neural::train::TrainConfig;
use agents::neural::NetConfig;
use engine::Rules;
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The options of an `improve --net` run: those it shares with the
/// linear loop (`base`; its `out` names a new run's folder) and the
/// network's. `None` for a default. A run to continue is named by
/// `resume`, and then only `base.generations` and `base.threads` are
/// read (the command line refuses the others: they come from the run's
/// settings file). The error messages name the command line's options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetOptions {
    /// What the linear loop takes too (`agent`: the `az` spec without
    /// `net=`; by default the agent, games a generation and window of
    /// the game's [`Recipe`]; 600 games a match).
    pub base: ImproveOptions,
    /// Continue the run in this folder.
    pub resume: Option<PathBuf>,
    /// Train generation 0 on these folders of self-play examples.
    pub bootstrap: Vec<PathBuf>,
    /// Generation 0 starts from these weights (their sizes and inputs
    /// are the run's; `hidden`, `board` and `features` must be left at
    /// their defaults).
    pub init: Option<PathBuf>,
    /// Trunk width (default [`DEFAULT_HIDDEN`]).
    pub hidden: Option<usize>,
    /// Networks that read the board window.
    pub board: bool,
    /// Networks that read the 40 hand-made position features.
    pub features: bool,
    /// Networks with the auxiliary categories head (final points by
    /// category per seat), trained beside the value.
    pub categories: bool,
    /// Training passes per generation (default: the [`Recipe`]'s).
    pub epochs: Option<usize>,
    /// Positions per training step (default: the trainer's).
    pub batch: Option<usize>,
    /// AdamW learning rate (default: the trainer's).
    pub lr: Option<f64>,
    /// Share of games held out of training, 0 to 0.9.
    pub holdout: Option<f64>,
    /// Policy-surprise weighting, 0 to 1.
    pub surprise: Option<f64>,
    /// Weight of the search's value in the value target, 0 to 1
    /// (default: the [`Recipe`]'s).
    pub search_value: Option<f64>,
    /// Root Dirichlet noise weight in self-play, 0 to 1 (default 0.25).
    pub noise: Option<f64>,
    /// Turns of a self-play game at temperature 1 (default 10).
    pub temp_moves: Option<u32>,
    /// The promotion test `ELO0,ELO1` (default `0,30`).
    pub sprt: Option<String>,
    /// A promotion match gates each candidate (AlphaGo Zero's way).
    /// Without it (the default) each generation's network self-plays the
    /// next, and the gauntlet, which the run then needs, measures it.
    pub gate: bool,
    /// The gauntlet's anchors, comma-separated specs, or `none`
    /// (default: [`default_anchors`]).
    pub anchors: Option<String>,
    /// Games of each generation against each anchor (default 100).
    pub gauntlet_games: Option<u64>,
    /// The run's own generation that later generations play in their
    /// gauntlet: `Some(None)` for none (default: generation 1).
    pub anchor_generation: Option<Option<u64>>,
    /// Keep every generation's example shards.
    pub keep_shards: bool,
    /// Run nothing: write the next generation's self-play command.
    pub selfplay_command: bool,
    /// Test hook: stop a self-play or match after this many games, as if
    /// killed.
    pub stop_after: Option<u64>,
}

/// The settings of a run (`improve-net.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetSettings {
    /// [`FORMAT`].
    pub format: String,
    /// The `az` spec of self-play and matches, without `net=` (and
    /// without `noise=`/`temp_moves=`, which self-play adds).
    pub agent: String,
    /// Generations after generation 0.
    pub generations: u64,
    /// Self-play games per generation.
    pub games_per_gen: u64,
    /// Most games of a promotion match.
    pub match_games: u64,
    /// Generations of data a network is trained on (the latest ones).
    pub window: u64,
    /// Seats per game (self-play and matches).
    pub players: u64,
    /// Master seed.
    pub seed: u64,
    /// The rules.
    pub rules: Rules,
    /// Root Dirichlet noise weight in self-play.
    pub noise: f64,
    /// Turns played at temperature 1 in self-play.
    pub temp_moves: u32,
    /// Trunk width of generation 0.
    pub hidden: usize,
    /// Whether the networks read the board window (`--no-board`: the
    /// globals only). Runs written before the option read it.
    #[serde(default = "reads_the_board")]
    pub board: bool,
    /// Whether the networks read the 40 hand-made position features
    /// (`--no-features`: the raw inputs only). Runs written before the
    /// option read them.
    #[serde(default = "reads_the_features")]
    pub features: bool,
    /// Whether the networks have the auxiliary categories head
    /// (`--categories`). Runs written before the option had none.
    #[serde(default)]
    pub categories: bool,
    /// Training passes per generation.
    pub epochs: usize,
    /// Positions per training step.
    pub batch: usize,
    /// AdamW learning rate.
    pub lr: f64,
    /// AdamW weight decay.
    pub weight_decay: f64,
    /// Share of games held out of training.
    pub holdout: f64,
    /// Policy-surprise weighting (0: off; runs made before it have 0).
    #[serde(default)]
    pub surprise: f64,
    /// The weight of the search's value in the value target (0: the
    /// outcome alone; runs made before it have 0).
    #[serde(default)]
    pub search_value: f64,
    /// The promotion test, `ELO0,ELO1`.
    pub sprt: String,
    /// Whether a candidate must pass the promotion test to self-play the
    /// next generation (`--no-gate`: every candidate does, and no match
    /// is played). Runs made before the option were gated.
    #[serde(default = "gated")]
    pub gate: bool,
    /// Generation 0's training data (empty: random weights, or `init`).
    pub bootstrap: Vec<PathBuf>,
    /// Generation 0's starting weights (absolute path; none: random
    /// weights from the seed). Runs made before the option have none.
    #[serde(default)]
    pub init: Option<PathBuf>,
    /// The fixed anchors of the gauntlet (empty: none; runs made before
    /// the gauntlet have none).
    #[serde(default)]
    pub anchors: Vec<String>,
    /// Games of each generation against each anchor.
    #[serde(default)]
    pub gauntlet_games: u64,
    /// The run's own generation every later generation plays in its
    /// gauntlet besides the fixed anchors (the low end of the ladder:
    /// generations that lose every game to the fixed anchors are still
    /// told apart). Runs made before the option have none.
    #[serde(default)]
    pub anchor_generation: Option<u64>,
    /// Remove example shards that no later training window needs.
    #[serde(default)]
    pub prune_shards: bool,
    /// Whether the run's agent specs name its networks relative to the
    /// run folder (`net=gen-K/net.safetensors`), the folder being the
    /// run's working directory while it runs, so that a run can be moved
    /// and resumed where it now is. Runs made before the option name
    /// them by absolute paths and cannot be moved.
    #[serde(default)]
    pub movable: bool,
}

/// The gauntlet's anchors when `--anchors` is not given: `greedy`, and
/// for 2 players under the standard rules the value-model search and the
/// shipped from-scratch network where they are found (from the current
/// folder; named by absolute paths), at the run's own search budget and
/// searched as the run's matches search (without the playout cap or a
/// Gumbel root's draws); for other seat counts or rules, where those
/// were not made for, plain `mcts` ([`OTHER_RULES_ANCHOR`]: the agent the
/// networks for 3 players and The Gifts are measured against).
pub fn default_anchors(agent: &str, players: u64, rules: &Rules) -> Vec<String> {
    let mut anchors = vec!["greedy".to_string()];
    if players == 2 && *rules == Rules::default() {
        if let Ok(value) = Path::new("models/value-2p.json").canonicalize() {
            anchors.push(format!("mcts:depth=0,eval={}", value.display()));
        }
        if let Ok(zero) = Path::new("models/net-2p-zero.safetensors").canonicalize() {
            anchors.push(with_params(
                &without_self_play_params(agent),
                &[("net", zero.display().to_string())],
            ));
        }
    } else {
        anchors.push(OTHER_RULES_ANCHOR.to_string());
    }
    anchors
}

/// The plain `mcts` anchor of runs for other seat counts or rules than
/// the 2-player standard game: 300 iterations, not the default 3,000,
/// whose greedy rollouts cost ten times the CPU a game (5.3 against 0.5
/// CPU-seconds for the same 3-player games against `greedy`), which
/// would make the gauntlet most of a generation's cost.
pub const OTHER_RULES_ANCHOR: &str = "mcts:iterations=300";

/// The trunk width of a new run's networks (every recipe's: 64 wide, no
/// board).
pub const DEFAULT_HIDDEN: usize = 64;

/// What a new run does unless told otherwise: the best recipe measured
/// for its game ([`Recipe::for_game`]). Every recipe is ungated (the
/// gauntlet measures the run), 64 wide without the board, 10
/// temperature turns, root noise 0.25.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// The `az` spec of self-play and matches (`--agent`).
    pub agent: &'static str,
    /// Self-play games a generation.
    pub games_per_gen: u64,
    /// Generations of data a network is trained on.
    pub window: u64,
    /// Training passes a generation.
    pub epochs: usize,
    /// The search's value's weight in the value target.
    pub search_value: f64,
}

impl Recipe {
    /// 2 players under the standard rules: the recipe of
    /// `models/az-2p.safetensors` (experiments/az-2p), whose generation
    /// 10 beats `models/net-2p-zero.safetensors` (run B's recipe: 800
    /// games, window 4, 2 epochs, the outcome alone) at equal time.
    /// About 0.2 CPU-hours a generation with the gauntlet.
    pub const TWO_PLAYERS: Recipe = Recipe {
        agent: "az:iterations=400",
        games_per_gen: 1600,
        window: 8,
        epochs: 1,
        search_value: 0.5,
    };

    /// Other seat counts and rules: the Gumbel + playout-cap recipe of
    /// `models/az-3p.safetensors` and `models/az-gifts.safetensors`
    /// (experiments/az-3p-zero, az-gifts-zero), the only one measured
    /// there. About 0.02–0.04 CPU-hours a generation with the gauntlet.
    pub const GUMBEL_CAP: Recipe = Recipe {
        agent: "az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16",
        games_per_gen: 800,
        window: 4,
        epochs: 2,
        search_value: 0.0,
    };

    /// The recipe of a run of `players` seats under `rules`.
    pub fn for_game(players: u64, rules: &Rules) -> Recipe {
        if players == 2 && *rules == Rules::default() {
            Recipe::TWO_PLAYERS
        } else {
            Recipe::GUMBEL_CAP
        }
    }
}

/// Networks of runs made before `board` was kept read the board.
fn reads_the_board() -> bool {
    true
}

/// What a run written before `--no-gate` existed did.
fn gated() -> bool {
    true
}

/// What a run written before `--no-features` existed did.
fn reads_the_features() -> bool {
    true
}

/// `spec` without what only self-play uses: playout cap randomisation
/// (`cap_full=`, `cap_fast=`: matches and the gauntlet play every move
/// with the full search) and a Gumbel root's draws (`gumbel_noise=`, the
/// exploration self-play needs; matches play without it, the stronger
/// search: experiments/gumbel-root).
fn without_self_play_params(spec: &str) -> String {
    let gumbel = agents::spec::Spec::parse(spec)
        .is_ok_and(|s| s.params.iter().any(|(k, v)| *k == "root" && *v == "gumbel"));
    let kept = rewrite_params(spec, |k, v| {
        (!matches!(k, "cap_full" | "cap_fast" | "gumbel_noise")).then(|| v.to_string())
    });
    if gumbel {
        with_params(&kept, &[("gumbel_noise", "0".to_string())])
    } else {
        kept
    }
}

/// `base` with the parameters `extra` added (`az` → `az:k=v,…`).
fn with_params(base: &str, extra: &[(&str, String)]) -> String {
    let extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let sep = if base.contains(':') { ',' } else { ':' };
    format!("{base}{sep}{}", extra.join(","))
}

/// `spec` with the files of its `net=` and `eval=` parameters named by
/// absolute paths (the run works in its own folder).
fn with_absolute_files(spec: &str) -> Result<String> {
    let mut failed = None;
    let rewritten = rewrite_params(spec, |k, v| match k {
        "net" | "eval" => match std::path::absolute(v) {
            Ok(path) => Some(path.display().to_string()),
            Err(e) => {
                failed = Some(Error::io("resolve", Path::new(v), e));
                Some(v.to_string())
            }
        },
        _ => Some(v.to_string()),
    });
    failed.map_or(Ok(rewritten), Err)
}

/// Parse `ELO0,ELO1` kept as text (`--sprt`, stored with the run).
fn parse_sprt(text: &str) -> Result<crate::results::schema::SprtSettings> {
    crate::run::config::parse_sprt(text).map_err(|e| invalid(format!("--sprt {text:?}: {e}")))
}

pub(super) fn invalid(text: String) -> Error {
    Error::Invalid(text)
}

impl NetSettings {
    /// The settings of a new run (`out`) or of the run to continue
    /// (`resume`), with the folder and its lock, held for the run.
    ///
    /// # Errors
    /// A bad or missing option, a folder that is not new (or, with
    /// `--resume`, not an `improve --net` run), one in use.
    pub fn from_options(args: &NetOptions) -> Result<(NetSettings, PathBuf, FolderLock)> {
        if let Some(dir) = &args.resume {
            return NetSettings::resume(dir, args.base.generations);
        }
        let out = args.base.out.clone().ok_or_else(|| {
            invalid("improve --net: give --out DIR (a new run) or --resume DIR".to_string())
        })?;
        if out.join(SETTINGS_FILE).exists() {
            return Err(invalid(format!(
                "--out {}: holds an improve --net run; continue it with --resume {}",
                out.display(),
                out.display()
            )));
        }
        // Networks are named by absolute paths: the run continues from
        // any folder, however `--resume` spells it.
        let out = std::path::absolute(&out).map_err(|e| Error::io("resolve", &out, e))?;
        let text = out.display().to_string();
        if text.contains([',', '=', ':']) {
            return Err(invalid(format!(
                "--out {text}: networks are named in agent specs, so the folder's path may not contain `,`, `=` or `:`"
            )));
        }
        let settings = NetSettings::new(args)?;
        crate::run::config::check_new_folder(&out, "--out")?;
        let (out, lock) = crate::run::tournament::claim_folder(&out, false)?;
        let out = out
            .canonicalize()
            .map_err(|e| Error::io("resolve", &out, e))?;
        let mut json =
            serde_json::to_string_pretty(&settings).map_err(|e| Error::Internal(e.to_string()))?;
        json.push('\n');
        write_atomic(&out.join(SETTINGS_FILE), json.as_bytes())?;
        Ok((settings, out, lock))
    }

    /// The settings of a new run, checked.
    fn new(args: &NetOptions) -> Result<NetSettings> {
        let base = &args.base;
        let players = base.players.unwrap_or(2);
        if !engine::is_player_count(players) {
            return Err(invalid(format!("--players must be 2 to 6, not {players}")));
        }
        let rules = crate::run::config::combine_rules(base.rules, base.gifts, base.no_farmers)?;
        let recipe = Recipe::for_game(players, &rules);
        let agent = base
            .agent
            .clone()
            .unwrap_or_else(|| recipe.agent.to_string());
        let spec = agents::spec::Spec::parse(&agent)
            .map_err(|e| invalid(format!("--agent {agent}: {e}")))?;
        if spec.name != "az" {
            return Err(invalid(format!(
                "--agent {agent}: improve --net trains the az network; give an az spec (e.g. az:iterations=200)"
            )));
        }
        if let Some((k, _)) = spec
            .params
            .iter()
            .find(|(k, _)| ["net", "noise", "temp_moves", "time_ms", "game_ms"].contains(k))
        {
            return Err(invalid(format!(
                "--agent {agent}: improve --net sets {k}= itself (networks per generation, --noise, --temp-moves; budgets in iterations so runs reproduce)"
            )));
        }
        let d = TrainConfig::default();
        let leads = spec.params.iter().any(|(k, _)| *k == "lead");
        // A search with lead= has no values on the outcome's scale: the
        // recipe's weight is not blamed on it (such an agent is refused
        // below anyway, as it needs net=; the explicit --search-value
        // check names the reason).
        let search_value = match args.search_value {
            Some(w) => w,
            None if leads => 0.0,
            None => recipe.search_value,
        };
        if !(0.0..=1.0).contains(&search_value) {
            return Err(invalid(format!(
                "--search-value must be in 0..1, not {search_value}"
            )));
        }
        if search_value > 0.0 && leads {
            return Err(invalid(format!(
                "--search-value with --agent {agent}: a search with lead= blends the lead into its values, which are then not on the outcome's scale"
            )));
        }
        agents::from_spec(&agent).map_err(|e| invalid(format!("--agent: {e}")))?;
        let positive = |v: Option<u64>, default: u64, name: &str| match v.unwrap_or(default) {
            0 => Err(invalid(format!("--{name} must be at least 1"))),
            n => Ok(n),
        };
        let noise = args.noise.unwrap_or(0.25);
        if !(0.0..=1.0).contains(&noise) {
            return Err(invalid(format!("--noise must be in 0..1, not {noise}")));
        }
        let sprt = args.sprt.clone().unwrap_or_else(|| "0,30".to_string());
        parse_sprt(&sprt)?;
        let mut settings = NetSettings {
            format: FORMAT.to_string(),
            agent,
            generations: positive(base.generations, 3, "generations")?,
            games_per_gen: positive(base.games_per_gen, recipe.games_per_gen, "games-per-gen")?,
            match_games: positive(base.match_games, 600, "match-games")?,
            window: positive(base.window, recipe.window, "window")?,
            players,
            seed: base.seed.unwrap_or(1),
            rules,
            noise,
            temp_moves: args.temp_moves.unwrap_or(10),
            hidden: args.hidden.unwrap_or(DEFAULT_HIDDEN),
            board: args.board,
            features: args.features,
            categories: args.categories,
            epochs: args.epochs.unwrap_or(recipe.epochs),
            batch: args.batch.unwrap_or(d.batch),
            lr: args.lr.unwrap_or(d.lr),
            weight_decay: d.weight_decay,
            holdout: args.holdout.unwrap_or(d.held_out),
            surprise: args.surprise.unwrap_or(d.surprise),
            search_value,
            sprt,
            gate: args.gate,
            // The run works in its own folder: files are kept by
            // absolute paths.
            bootstrap: args
                .bootstrap
                .iter()
                .map(|p| std::path::absolute(p).map_err(|e| Error::io("resolve", p, e)))
                .collect::<Result<_>>()?,
            init: args
                .init
                .as_ref()
                .map(|p| std::path::absolute(p).map_err(|e| Error::io("resolve", p, e)))
                .transpose()?,
            anchors: Vec::new(),
            gauntlet_games: args.gauntlet_games.unwrap_or(100),
            anchor_generation: args.anchor_generation.unwrap_or(Some(1)),
            prune_shards: !args.keep_shards,
            movable: true,
        };
        settings.anchors = match args.anchors.as_deref() {
            None => default_anchors(&settings.agent, players, &rules),
            Some("none") => Vec::new(),
            Some(text) => crate::run::agent_list::split_agents(&[text.to_string()]),
        };
        for anchor in &mut settings.anchors {
            crate::run::roster::check_spec(anchor)
                .map_err(|e| invalid(format!("--anchors: {e}")))?;
            *anchor = with_absolute_files(anchor)?;
        }
        if settings.gauntlet_games == 0 {
            settings.anchors.clear();
        }
        if settings.anchors.is_empty() {
            // No gauntlet: nothing to play the run's own generation in.
            settings.anchor_generation = None;
        }
        if !settings.gate && settings.anchors.is_empty() {
            return Err(invalid(
                "a run without --gate (no promotion matches) is measured by its gauntlet alone; give --anchors (not none) and --gauntlet-games of at least 1, or --gate".to_string(),
            ));
        }
        if let Some(init) = settings.init.clone() {
            settings.take_sizes_of(&init, args)?;
        }
        crate::learning::train_net::check(&settings.train_config(&[], None, 0))?;
        if !settings.bootstrap.is_empty() {
            crate::learning::train_net::shard_files(&settings.bootstrap)
                .map_err(|e| invalid(format!("--bootstrap: {e}")))?;
        }
        Ok(settings)
    }

    /// The run in `dir`, its generations raised to `generations`.
    fn resume(dir: &Path, generations: Option<u64>) -> Result<(NetSettings, PathBuf, FolderLock)> {
        let file = dir.join(SETTINGS_FILE);
        if !file.is_file() {
            return Err(Error::Folder(format!(
                "--resume {}: not an improve --net run (no {SETTINGS_FILE})",
                dir.display()
            )));
        }
        let lock = FolderLock::acquire(dir)?;
        let text = std::fs::read_to_string(&file).map_err(|e| Error::io("read", &file, e))?;
        let mut settings: NetSettings = serde_json::from_str(&text)
            .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
        if settings.format != FORMAT {
            return Err(Error::Folder(format!(
                "{}: format {:?}, expected {FORMAT:?}",
                file.display(),
                settings.format
            )));
        }
        if let Some(g) = generations {
            if g == 0 {
                return Err(invalid("--generations must be at least 1".to_string()));
            }
            settings.generations = g;
        }
        let dir = dir
            .canonicalize()
            .map_err(|e| Error::io("resolve", dir, e))?;
        Ok((settings, dir, lock))
    }

    /// The sizes and inputs of the network `init` (`--init`), which the
    /// run's networks keep; `args` may not ask for any.
    fn take_sizes_of(&mut self, init: &Path, args: &NetOptions) -> Result<()> {
        let asked = [
            ("--hidden", args.hidden.is_some()),
            ("--board", args.board),
            ("--no-features", !args.features),
            ("--categories", args.categories),
        ];
        if let Some((flag, _)) = asked.iter().find(|(_, given)| *given) {
            return Err(invalid(format!(
                "{flag} cannot be given with --init: the run's networks have the sizes and inputs of {}",
                init.display()
            )));
        }
        let net = agents::neural::NetEvaluator::load(init)
            .map_err(|e| invalid(format!("--init: {e}")))?;
        self.hidden = net.net.config.hidden;
        self.board = net.net.config.board;
        self.features = net.net.config.features;
        self.categories = net.net.config.categories;
        Ok(())
    }

    /// What `fit` needs to train on `data` from `init` with seed `seed`.
    pub fn train_config(
        &self,
        data: &[PathBuf],
        init: Option<PathBuf>,
        seed: u64,
    ) -> TrainNetConfig {
        TrainNetConfig {
            data: data.to_vec(),
            out: PathBuf::new(),
            init,
            net: NetConfig {
                hidden: self.hidden,
                board: self.board,
                features: self.features,
                categories: self.categories,
                ..NetConfig::default()
            },
            train: TrainConfig {
                epochs: self.epochs,
                batch: self.batch,
                lr: self.lr,
                weight_decay: self.weight_decay,
                held_out: self.holdout,
                seed,
                surprise: self.surprise,
                search_value: self.search_value,
            },
        }
    }

    /// Generation `k`'s network as the run's agent specs name it:
    /// relative to the run folder `dir` in a movable run (its working
    /// directory), else by its absolute path.
    pub fn spec_net(&self, dir: &Path, k: u64) -> PathBuf {
        if self.movable {
            net_path(Path::new(""), k)
        } else {
            net_path(dir, k)
        }
    }

    /// The self-play spec with the network `net`.
    fn selfplay_agent(&self, net: &Path) -> String {
        with_params(
            &self.agent,
            &[
                ("net", net.display().to_string()),
                ("noise", self.noise.to_string()),
                ("temp_moves", self.temp_moves.to_string()),
            ],
        )
    }

    /// The match spec with the network `net`.
    pub fn match_agent(&self, net: &Path) -> String {
        with_params(
            &without_self_play_params(&self.agent),
            &[("net", net.display().to_string())],
        )
    }

    /// The self-play tournament of generation `k` with the best network
    /// `best`.
    pub fn selfplay_args(&self, k: u64, best: &Path) -> Settings {
        Settings {
            records: true,
            kind: RunKind::Selfplay,
            ..step_settings(
                "selfplay",
                vec![self.selfplay_agent(best)],
                self.players,
                self.games_per_gen,
                mix(self.seed, TAG, &[k]),
                self.rules,
            )
        }
    }

    /// The promotion match of generation `k`.
    ///
    /// # Errors
    /// The settings' `sprt` does not parse.
    pub fn match_args(&self, candidate: &Path, best: &Path, k: u64) -> Result<Settings> {
        Ok(Settings {
            sprt: Some(parse_sprt(&self.sprt)?),
            ..step_settings(
                "match",
                vec![self.match_agent(candidate), self.match_agent(best)],
                self.players,
                self.match_games,
                // Other decks than the self-play data's.
                mix(self.seed, TAG, &[k, 1]),
                self.rules,
            )
        })
    }

    /// What generation `k` plays in its gauntlet: each fixed anchor (by
    /// its index), then — for the generations after it — the run's own
    /// generation [`NetSettings::anchor_generation`] (index: the fixed
    /// anchors' count), searched as the run's matches search.
    pub fn gauntlet_opponents(&self, dir: &Path, k: u64) -> Vec<(usize, String)> {
        let mut opponents: Vec<(usize, String)> =
            self.anchors.iter().cloned().enumerate().collect();
        if let Some(g) = self.anchor_generation.filter(|&g| g < k) {
            opponents.push((self.anchors.len(), self.match_agent(&self.spec_net(dir, g))));
        }
        opponents
    }

    /// The gauntlet match of the network `net` against `anchor`, the
    /// opponent of index `i`: the same decks for every generation (the
    /// seed does not depend on it).
    pub fn gauntlet_args(&self, net: &Path, anchor: &str, i: usize) -> Settings {
        step_settings(
            "gauntlet",
            vec![self.match_agent(net), anchor.to_string()],
            self.players,
            self.gauntlet_games,
            mix(self.seed, TAG, &[GAUNTLET, i as u64]),
            self.rules,
        )
    }

    /// The generations whose example shards no training after
    /// generation `k` reads (the next window starts at `k + 2 − window`).
    pub fn shards_done_with(&self, k: u64) -> std::ops::Range<u64> {
        1..(k + 2).saturating_sub(self.window).max(1)
    }

    /// The data generation `k` trains on: the self-play of the last
    /// `window` generations, the bootstrap folders standing for
    /// generation 0.
    pub fn window_data(&self, dir: &Path, k: u64) -> Vec<PathBuf> {
        let first = (k + 1).saturating_sub(self.window);
        let mut data = Vec::new();
        if first == 0 {
            data.extend(self.bootstrap.iter().cloned());
        }
        data.extend((first.max(1)..=k).map(|j| gen_dir(dir, j).join("selfplay")));
        data
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn other_seat_counts_and_rules_are_measured_against_plain_mcts() {
        use super::{default_anchors, OTHER_RULES_ANCHOR};
        use engine::Rules;
        let gifts = Rules {
            gifts: true,
            ..Rules::default()
        };
        for (players, rules) in [(3, Rules::default()), (4, Rules::default()), (2, gifts)] {
            assert_eq!(
                default_anchors("az:iterations=8", players, &rules),
                ["greedy", OTHER_RULES_ANCHOR],
                "{players} players, {rules:?}"
            );
        }
    }

    #[test]
    fn matches_play_without_the_playout_cap_or_gumbel_draws() {
        use super::without_self_play_params as strip;
        assert_eq!(
            strip("az:iterations=8,cap_full=0.25,cap_fast=4"),
            "az:iterations=8"
        );
        assert_eq!(strip("az:cap_full=0.25"), "az");
        assert_eq!(strip("az"), "az");
        assert_eq!(
            strip("az:root=gumbel,iterations=8"),
            "az:root=gumbel,iterations=8,gumbel_noise=0"
        );
        assert_eq!(
            strip("az:root=gumbel,gumbel_noise=0.5,cap_full=0.25"),
            "az:root=gumbel,gumbel_noise=0"
        );
        assert_eq!(strip("az:root=puct,gumbel_noise=0.5"), "az:root=puct");
    }

    /// A new run without options takes its game's recipe: the az-2p
    /// recipe for 2 players and the standard rules, the Gumbel + cap
    /// recipe otherwise; ungated; what is given overrides it.
    #[test]
    fn a_new_run_takes_the_recipe_measured_for_its_game() {
        use super::{NetOptions, NetSettings, Recipe};
        let settings = |players: u64, gifts: bool, agent: Option<&str>, window: Option<u64>| {
            let mut options = NetOptions {
                anchors: Some("greedy".to_string()),
                features: true,
                ..NetOptions::default()
            };
            options.base.players = Some(players);
            options.base.gifts = gifts;
            options.base.agent = agent.map(str::to_string);
            options.base.window = window;
            NetSettings::new(&options).unwrap()
        };
        let recipe_of = |s: &NetSettings| Recipe {
            agent: Recipe::for_game(s.players, &s.rules).agent,
            games_per_gen: s.games_per_gen,
            window: s.window,
            epochs: s.epochs,
            search_value: s.search_value,
        };
        let two = settings(2, false, None, None);
        assert_eq!(two.agent, "az:iterations=400");
        assert_eq!(recipe_of(&two), Recipe::TWO_PLAYERS);
        assert!(!two.gate);
        for s in [
            settings(3, false, None, None),
            settings(2, true, None, None),
        ] {
            assert_eq!(s.agent, Recipe::GUMBEL_CAP.agent);
            assert_eq!(recipe_of(&s), Recipe::GUMBEL_CAP);
            assert!(!s.gate);
        }
        let given = settings(2, false, Some("az:iterations=8"), Some(2));
        assert_eq!((given.agent.as_str(), given.window), ("az:iterations=8", 2));
        assert_eq!(given.games_per_gen, 1600);
    }
}
