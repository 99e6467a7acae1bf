//! `carcassonne improve --net`: generations of the `az` network, each
//! self-played, trained and promoted only by an SPRT match.
//!
//! A run folder `DIR` holds `improve-net.json` (its settings), one folder
//! per generation and `generations.csv` (a row per finished generation,
//! results/README.md and docs/neural.md name the columns), with
//! `report.html` drawing its Elo against generation 0.
//!
//! - `gen-0/net.safetensors`: random weights (seeded), or a network
//!   trained on `--bootstrap` folders of self-play examples (any agent
//!   whose search reports root visits: `az`, `mcts`).
//! - Generation `k` (1, 2, …), with `best` the latest promoted network:
//!   1. `gen-k/selfplay/`: `--games-per-gen` games of `az:…,net=best` with
//!      root noise and early temperature (the self-play code of
//!      `carcassonne selfplay`; seed `mix(seed, "IMPN", [k])`). A folder
//!      already there is used if it holds a finished self-play run of
//!      exactly these settings: `merge` of `--shard K/N` runs
//!      (`--selfplay-command` prints the command) scales this step out.
//!   2. `gen-k/net.safetensors`: `best` trained further on the examples
//!      of the last `--window` generations (generation 0's data are the
//!      bootstrap folders), seeded, with `train-net`'s code.
//!   3. `gen-k/match/`: the candidate against `best`, paired decks and
//!      seat rotation, stopped by the SPRT (`--sprt`, default 0,30) or
//!      after `--match-games`. The candidate is promoted only if the test
//!      accepts H1.
//!
//! Every step writes its output atomically (a network file is renamed
//! into place; a tournament folder resumes game by game), and a run is
//! continued by `--resume DIR`: finished steps are read back, not redone,
//! so `generations.csv` is the one an uninterrupted run writes (but for
//! the time columns). The folder is locked ([`tournament::run::lock`]) while the
//! run lasts.

use crate::cli::{GameOptions, ImproveArgs, TournamentArgs};
use agents::neural::train::{Metrics, TrainConfig};
use agents::neural::{NetConfig, NetEvaluator};
use engine::Rules;
use files::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tournament::learning::train_net::{fit, TrainNetConfig};
use tournament::results::output::{csv_bytes, read_run_info, write_atomic};
use tournament::results::schema::{RunInfo, RunStatus, SprtResult};
use tournament::run::lock::FolderLock;
use tournament::run::schedule::mix;
use tournament::stats::{elo_from_score, elo_interval, SprtDecision, SprtModel, Z95};

/// Domain tag of the generation seeds ("IMPN").
const TAG: u64 = 0x494D_504E;
/// The settings file of a run.
pub const SETTINGS_FILE: &str = "improve-net.json";
/// The format tag in it.
pub const FORMAT: &str = "carcassonne-improve-net/1";
/// One row per finished generation.
pub const GENERATIONS_CSV: &str = "generations.csv";
/// A generation's network.
pub const NET_FILE: &str = "net.safetensors";
/// A generation's step times.
const TIME_FILE: &str = "time.json";
/// Prefix of the metadata keys this module keeps in a network file.
const META: &str = "improve.";

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
    /// The promotion test, `ELO0,ELO1`.
    pub sprt: String,
    /// Generation 0's training data (empty: random weights).
    pub bootstrap: Vec<PathBuf>,
}

/// One row of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetGenerationRow {
    /// 0 for the initial network.
    pub generation: u64,
    /// Self-play games of this generation (0 for generation 0).
    pub games: u64,
    /// Examples (searched positions) those games gave (generation 0: the
    /// bootstrap data's).
    pub examples: u64,
    /// Examples of the window the network was trained on.
    pub train_examples: u64,
    /// Policy cross-entropy on the training positions after the last
    /// epoch (empty without training).
    pub policy_loss: Option<f64>,
    /// Value loss on them.
    pub value_loss: Option<f64>,
    /// Policy cross-entropy on the held-out games.
    pub heldout_policy_loss: Option<f64>,
    /// Value loss on them.
    pub heldout_value_loss: Option<f64>,
    /// Top-1 agreement with the search on them.
    pub heldout_top1: Option<f64>,
    /// Games of the promotion match.
    pub match_games: u64,
    /// The candidate's score in it (wins + draws / 2, per game).
    pub score: Option<f64>,
    /// `H0`, `H1` or `none` (empty for generation 0).
    pub sprt: String,
    /// The SPRT's log-likelihood ratio at the end.
    pub llr: Option<f64>,
    /// Elo of the candidate against the best network.
    pub elo: Option<f64>,
    /// Its 95% interval, low end.
    pub elo_low: Option<f64>,
    /// High end.
    pub elo_high: Option<f64>,
    /// Elo of the candidate against generation 0, chained through the
    /// promotion matches (standard errors added in quadrature).
    pub elo_vs_gen0: f64,
    /// Its 95% interval, low end.
    pub elo_vs_gen0_low: f64,
    /// High end.
    pub elo_vs_gen0_high: f64,
    /// The candidate became the best network.
    pub promoted: bool,
    /// The best network's generation after this one.
    pub best: u64,
    /// CPU seconds of this process spent on the generation's steps
    /// (all threads; a step's part lost to a kill is not counted).
    pub cpu_s: f64,
    /// Wall-clock seconds of the same.
    pub wall_s: f64,
}

/// `DIR/gen-K`.
pub fn gen_dir(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("gen-{k}"))
}

/// `DIR/gen-K/net.safetensors`.
pub fn net_path(dir: &Path, k: u64) -> PathBuf {
    gen_dir(dir, k).join(NET_FILE)
}

/// `base` with the parameters `extra` added (`az` → `az:k=v,…`).
fn with_params(base: &str, extra: &[(&str, String)]) -> String {
    let extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let sep = if base.contains(':') { ',' } else { ':' };
    format!("{base}{sep}{}", extra.join(","))
}

fn invalid(text: String) -> Error {
    Error::Invalid(text)
}

/// The options that only `--net` takes, with whether each was given.
fn net_only(args: &ImproveArgs) -> [(&'static str, bool); 12] {
    [
        ("--bootstrap", !args.bootstrap.is_empty()),
        ("--resume", args.resume.is_some()),
        ("--hidden", args.hidden.is_some()),
        ("--epochs", args.epochs.is_some()),
        ("--batch", args.batch.is_some()),
        ("--lr", args.lr.is_some()),
        ("--holdout", args.holdout.is_some()),
        ("--noise", args.noise.is_some()),
        ("--temp-moves", args.temp_moves.is_some()),
        ("--sprt", args.sprt.is_some()),
        ("--rules", args.rules.variants.is_some()),
        ("--selfplay-command", args.selfplay_command),
    ]
}

/// Refuse the options of `--net` in a run of the linear `improve`.
///
/// # Errors
/// The first such option given.
pub fn refuse_net_options(args: &ImproveArgs) -> Result<()> {
    match net_only(args).iter().find(|(_, given)| *given) {
        Some((name, _)) => Err(invalid(format!(
            "{name} is an option of `improve --net` (the az network); give --net"
        ))),
        None => Ok(()),
    }
}

impl NetSettings {
    /// The settings of a new run (`--out`) or of the run to continue
    /// (`--resume`), with the folder and its lock, held for the run.
    ///
    /// # Errors
    /// A bad or missing option, a folder that is not new (or, with
    /// `--resume`, not an `improve --net` run), one in use.
    pub fn from_args(args: &ImproveArgs) -> Result<(NetSettings, PathBuf, FolderLock)> {
        if let Some(dir) = &args.resume {
            return NetSettings::resume(dir, args);
        }
        let out = args.out.clone().ok_or_else(|| {
            invalid("improve --net: give --out DIR (a new run) or --resume DIR".to_string())
        })?;
        if out.join(SETTINGS_FILE).exists() {
            return Err(invalid(format!(
                "--out {}: holds an improve --net run; continue it with --resume {}",
                out.display(),
                out.display()
            )));
        }
        let text = out.display().to_string();
        if text.contains([',', '=', ':']) {
            return Err(invalid(format!(
                "--out {text}: networks are named in agent specs, so the folder's path may not contain `,`, `=` or `:`"
            )));
        }
        let settings = NetSettings::new(args)?;
        tournament::run::config::check_new_folder(&out, "--out")?;
        let (out, lock) = tournament::run::tournament::claim_folder(&out, false)?;
        let mut json =
            serde_json::to_string_pretty(&settings).map_err(|e| Error::Internal(e.to_string()))?;
        json.push('\n');
        write_atomic(&out.join(SETTINGS_FILE), json.as_bytes())?;
        Ok((settings, out, lock))
    }

    /// The settings of a new run, checked.
    fn new(args: &ImproveArgs) -> Result<NetSettings> {
        let agent = args
            .agent
            .clone()
            .unwrap_or_else(|| "az:iterations=200".to_string());
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
        agents::from_spec(&agent).map_err(|e| invalid(format!("--agent: {e}")))?;
        let positive = |v: Option<u64>, default: u64, name: &str| match v.unwrap_or(default) {
            0 => Err(invalid(format!("--{name} must be at least 1"))),
            n => Ok(n),
        };
        let players = args.players.unwrap_or(2);
        if !(2..=6).contains(&players) {
            return Err(invalid(format!("--players must be 2 to 6, not {players}")));
        }
        let noise = args.noise.unwrap_or(0.25);
        if !(0.0..=1.0).contains(&noise) {
            return Err(invalid(format!("--noise must be in 0..1, not {noise}")));
        }
        let sprt = args.sprt.clone().unwrap_or_else(|| "0,30".to_string());
        crate::config_args::parse_sprt(&sprt)?;
        let rules = args.rules.rules()?;
        let d = TrainConfig::default();
        let settings = NetSettings {
            format: FORMAT.to_string(),
            agent,
            generations: positive(args.generations, 3, "generations")?,
            games_per_gen: positive(args.games_per_gen, 100, "games-per-gen")?,
            match_games: positive(args.match_games, 200, "match-games")?,
            window: positive(args.window, 2, "window")?,
            players,
            seed: args.seed.unwrap_or(1),
            rules,
            noise,
            temp_moves: args.temp_moves.unwrap_or(30),
            hidden: args.hidden.unwrap_or(NetConfig::default().hidden),
            epochs: args.epochs.unwrap_or(2),
            batch: args.batch.unwrap_or(d.batch),
            lr: args.lr.unwrap_or(d.lr),
            weight_decay: d.weight_decay,
            holdout: args.holdout.unwrap_or(d.held_out),
            sprt,
            bootstrap: args.bootstrap.clone(),
        };
        tournament::learning::train_net::check(&settings.train_config(&[], None, 0))?;
        if !settings.bootstrap.is_empty() {
            tournament::learning::train_net::shard_files(&settings.bootstrap)
                .map_err(|e| invalid(format!("--bootstrap: {e}")))?;
        }
        Ok(settings)
    }

    /// The run in `dir`, its generations raised to `--generations`.
    fn resume(dir: &Path, args: &ImproveArgs) -> Result<(NetSettings, PathBuf, FolderLock)> {
        let given = [
            ("--out", args.out.is_some()),
            ("--agent", args.agent.is_some()),
            ("--games-per-gen", args.games_per_gen.is_some()),
            ("--match-games", args.match_games.is_some()),
            ("--window", args.window.is_some()),
            ("--players", args.players.is_some()),
            ("--seed", args.seed.is_some()),
            ("--gifts", args.rules.gifts),
            ("--no-farmers", args.rules.no_farmers),
        ];
        let others = net_only(args);
        let allowed = ["--resume", "--selfplay-command"];
        if let Some((name, _)) = given
            .iter()
            .chain(others.iter().filter(|(n, _)| !allowed.contains(n)))
            .find(|(_, g)| *g)
        {
            return Err(invalid(format!(
                "{name} cannot be given with --resume (only --threads and --generations may: the rest comes from {})",
                dir.join(SETTINGS_FILE).display()
            )));
        }
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
        if let Some(g) = args.generations {
            if g == 0 {
                return Err(invalid("--generations must be at least 1".to_string()));
            }
            settings.generations = g;
        }
        Ok((settings, dir.to_path_buf(), lock))
    }

    /// What `fit` needs to train on `data` from `init` with seed `seed`.
    fn train_config(&self, data: &[PathBuf], init: Option<PathBuf>, seed: u64) -> TrainNetConfig {
        TrainNetConfig {
            data: data.to_vec(),
            out: PathBuf::new(),
            init,
            net: NetConfig {
                hidden: self.hidden,
                ..NetConfig::default()
            },
            train: TrainConfig {
                epochs: self.epochs,
                batch: self.batch,
                lr: self.lr,
                weight_decay: self.weight_decay,
                held_out: self.holdout,
                seed,
            },
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
    fn match_agent(&self, net: &Path) -> String {
        with_params(&self.agent, &[("net", net.display().to_string())])
    }

    /// The self-play tournament of generation `k` with the best network
    /// `best`.
    fn selfplay_args(&self, k: u64, best: &Path, threads: Option<usize>) -> TournamentArgs {
        TournamentArgs {
            agents: vec![self.selfplay_agent(best)],
            game: GameOptions {
                games: Some(self.games_per_gen),
                players: Some(self.players),
                seed: Some(mix(self.seed, TAG, &[k])),
                threads,
                rules: crate::cli::RulesArgs {
                    variants: Some(self.rules),
                    ..Default::default()
                },
                ..GameOptions::default()
            },
            records: true,
            name: Some("selfplay".to_string()),
            selfplay: true,
            ..TournamentArgs::default()
        }
    }

    /// The promotion match of generation `k`.
    fn match_args(
        &self,
        candidate: &Path,
        best: &Path,
        k: u64,
        threads: Option<usize>,
    ) -> Result<TournamentArgs> {
        Ok(TournamentArgs {
            agents: vec![self.match_agent(candidate), self.match_agent(best)],
            game: GameOptions {
                games: Some(self.match_games),
                players: Some(self.players),
                // Other decks than the self-play data's.
                seed: Some(mix(self.seed, TAG, &[k, 1])),
                threads,
                rules: crate::cli::RulesArgs {
                    variants: Some(self.rules),
                    ..Default::default()
                },
                ..GameOptions::default()
            },
            sprt: Some(crate::config_args::parse_sprt(&self.sprt)?),
            name: Some("match".to_string()),
            ..TournamentArgs::default()
        })
    }

    /// The data generation `k` trains on: the self-play of the last
    /// `window` generations, the bootstrap folders standing for
    /// generation 0.
    fn window_data(&self, dir: &Path, k: u64) -> Vec<PathBuf> {
        let first = (k + 1).saturating_sub(self.window);
        let mut data = Vec::new();
        if first == 0 {
            data.extend(self.bootstrap.iter().cloned());
        }
        data.extend((first.max(1)..=k).map(|j| gen_dir(dir, j).join("selfplay")));
        data
    }
}

/// The process's CPU seconds (user and system, all threads).
fn cpu_seconds() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 * 1e-6;
    getrusage(UsageWho::RUSAGE_SELF)
        .map(|u| secs(u.user_time()) + secs(u.system_time()))
        .unwrap_or(0.0)
}

/// The step times of a generation folder: step → `[cpu_s, wall_s]`.
type Times = BTreeMap<String, [f64; 2]>;

fn read_times(gen_folder: &Path) -> Times {
    std::fs::read_to_string(gen_folder.join(TIME_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Run `step` of the generation in `gen`, and keep its time there
/// unless a time of it is kept already (a step found finished).
fn timed<T>(gen_folder: &Path, step: &str, run: impl FnOnce() -> Result<T>) -> Result<T> {
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let value = run()?;
    let mut times = read_times(gen_folder);
    if !times.contains_key(step) {
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        times.insert(
            step.to_string(),
            [
                round(cpu_seconds() - cpu),
                round(wall.elapsed().as_secs_f64()),
            ],
        );
        std::fs::create_dir_all(gen_folder).map_err(|e| Error::io("create", gen_folder, e))?;
        let json = serde_json::to_string(&times).map_err(|e| Error::Internal(e.to_string()))?;
        write_atomic(&gen_folder.join(TIME_FILE), json.as_bytes())?;
    }
    Ok(value)
}

/// Whether `info` (a folder's run.json) is the run `args` would start:
/// the same agents, seats, games, seed, rules and kind, unsharded.
fn same_run(info: &RunInfo, args: &TournamentArgs) -> bool {
    let s = &info.settings;
    s.agents == args.agents
        && Some(s.players as u64) == args.game.players
        && Some(s.games_per_pairing) == args.game.games
        && Some(s.seed) == args.game.seed
        && Some(s.rules) == args.game.rules.variants
        && s.selfplay == args.selfplay
        && s.shard.is_none()
}

/// The run.json of the finished run `args` in `dir`, if it is there.
fn finished(dir: &Path, args: &TournamentArgs) -> Option<RunInfo> {
    if !dir.join(tournament::results::schema::RUN_JSON).exists() {
        return None;
    }
    read_run_info(dir).ok().filter(|i| {
        same_run(i, args) && !matches!(i.status, RunStatus::Running | RunStatus::Interrupted)
    })
}

/// Run, continue or reuse the tournament of `args` in `dir`. A finished
/// folder (or a merged one) is reused when it is the same run.
fn tournament_step(
    dir: &Path,
    args: TournamentArgs,
    resume: &Path,
    stop_after: Option<u64>,
) -> Result<RunInfo> {
    let exists = dir.join(tournament::results::schema::RUN_JSON).exists();
    if exists {
        let info = read_run_info(dir)?;
        if !same_run(&info, &args) {
            return Err(Error::Folder(format!(
                "{} holds a run of other settings than this step needs (agents {}); \
                 remove it, or make it with `carcassonne improve --net --resume {} --selfplay-command`",
                dir.display(),
                args.agents.join(" "),
                resume.display()
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
            "interrupted in {}; continue with `carcassonne improve --net --resume {}`",
            dir.display(),
            resume.display()
        )));
    }
    Ok(info)
}

/// Write the network `net` of generation `k`, with what the run knows of
/// it in its metadata.
fn save(net: &mut NetEvaluator, path: &Path, facts: &[(&str, String)]) -> Result<()> {
    for (k, v) in facts {
        net.provenance.extra.insert(format!("{META}{k}"), v.clone());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    net.save(path).map_err(|e| Error::Folder(e.to_string()))
}

/// The facts of a training to keep in the network's metadata.
fn training_facts(
    examples: usize,
    fitted: &tournament::learning::train_net::Fitted,
) -> Vec<(&'static str, String)> {
    let mut facts = vec![
        ("examples", examples.to_string()),
        ("train_examples", fitted.positions.to_string()),
    ];
    let mut metric = |prefix: &'static str, m: Option<&Metrics>| {
        if let Some(m) = m {
            let names: [(&'static str, f64); 3] = match prefix {
                "train" => [
                    ("policy_loss", m.policy_loss),
                    ("value_loss", m.value_loss),
                    ("top1", m.top1),
                ],
                _ => [
                    ("heldout_policy_loss", m.policy_loss),
                    ("heldout_value_loss", m.value_loss),
                    ("heldout_top1", m.top1),
                ],
            };
            facts.extend(names.iter().map(|(k, v)| (*k, v.to_string())));
        }
    };
    metric("train", fitted.report.train.last());
    metric("held", fitted.report.held_out.last());
    facts
}

/// A number the run kept in a network's metadata.
fn fact(net: &NetEvaluator, key: &str) -> Option<f64> {
    net.provenance
        .extra
        .get(&format!("{META}{key}"))
        .and_then(|v| v.parse().ok())
}

/// Round to 4 decimals (losses, scores); −0 is written 0.
fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4 + 0.0
}

/// Round to 1 decimal (Elo); −0 is written 0.
fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// Elo of a match's first agent with its 95% interval.
fn match_elo(sprt: &SprtResult) -> (f64, f64, f64, f64) {
    let clamp = |s: f64| s.clamp(0.001, 0.999);
    match sprt.model {
        SprtModel::Pentanomial => {
            let (score, low, high) = sprt.pentanomial.interval();
            (
                score,
                elo_from_score(clamp(score)),
                elo_from_score(clamp(low)),
                elo_from_score(clamp(high)),
            )
        }
        SprtModel::Trinomial => {
            let (w, d, l) = (sprt.wins as f64, sprt.draws as f64, sprt.losses as f64);
            let score = (w + d / 2.0) / (w + d + l).max(1.0);
            let (_, low, high) = elo_interval(w, d, l);
            let bound = |e: f64| e.clamp(elo_from_score(0.001), elo_from_score(0.999));
            (score, elo_from_score(clamp(score)), bound(low), bound(high))
        }
    }
}

/// Examples (positions) in the self-play folder `dir`.
fn count_examples(dir: &Path) -> Result<usize> {
    Ok(tournament::learning::train_net::load(&[dir.to_path_buf()])?
        .0
        .len())
}

/// Generation 0's network: random weights, or trained on the bootstrap
/// data.
fn initial(settings: &NetSettings, dir: &Path) -> Result<()> {
    let seed = mix(settings.seed, TAG, &[0]);
    let path = net_path(dir, 0);
    if settings.bootstrap.is_empty() {
        let config = settings.train_config(&[], None, seed);
        let mut net = NetEvaluator::new(config.net, seed);
        net.provenance.seed = seed;
        net.provenance.revision = tournament::results::meta::code_revision();
        return save(&mut net, &path, &[("examples", "0".to_string())]);
    }
    let mut log = Vec::new();
    let config = settings.train_config(&settings.bootstrap, None, seed);
    let mut fitted = fit(&config, &mut log)?;
    files::stdio::warn(&format!(
        "generation 0: trained on {} bootstrap examples",
        fitted.positions
    ));
    let facts = training_facts(fitted.positions, &fitted);
    save(&mut fitted.net, &path, &facts)
}

/// What a run does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Run every step that is not finished.
    Run,
    /// Run nothing: print the self-play command of the next generation.
    Plan,
}

/// Run (or continue) the generations of `args`, writing
/// `generations.csv` (and `report.html`) after each; with
/// `--selfplay-command`, print the next generation's self-play command
/// to `out` instead and run nothing.
///
/// # Errors
/// Bad options, a failed or interrupted step (its message).
pub fn improve_net(
    args: &ImproveArgs,
    out: &mut dyn std::io::Write,
) -> Result<Vec<NetGenerationRow>> {
    let (settings, dir, _lock) = NetSettings::from_args(args)?;
    let mode = if args.selfplay_command {
        Mode::Plan
    } else {
        Mode::Run
    };
    let threads = args.threads;
    let stop_after = args.stop_after;
    let step_time = |k: u64| {
        read_times(&gen_dir(&dir, k))
            .values()
            .fold([0.0, 0.0], |a, t| [a[0] + t[0], a[1] + t[1]])
            .map(|x| (x * 1000.0).round() / 1000.0)
    };
    let plan_error = |k: u64, what: &str| {
        invalid(format!(
            "generation {k}'s {what} is not finished: run `carcassonne improve --net --resume {} --generations {k}` first",
            dir.display()
        ))
    };

    // Generation 0 (made in either mode: planning a new run's first
    // self-play needs it).
    if !net_path(&dir, 0).exists() {
        timed(&gen_dir(&dir, 0), "init", || initial(&settings, &dir))?;
    }
    let net0 = NetEvaluator::load(&net_path(&dir, 0)).map_err(|e| Error::Folder(e.to_string()))?;
    let [cpu, wall] = step_time(0);
    let mut rows = vec![NetGenerationRow {
        generation: 0,
        games: 0,
        examples: fact(&net0, "examples").unwrap_or(0.0) as u64,
        train_examples: fact(&net0, "train_examples").unwrap_or(0.0) as u64,
        policy_loss: fact(&net0, "policy_loss").map(r4),
        value_loss: fact(&net0, "value_loss").map(r4),
        heldout_policy_loss: fact(&net0, "heldout_policy_loss").map(r4),
        heldout_value_loss: fact(&net0, "heldout_value_loss").map(r4),
        heldout_top1: fact(&net0, "heldout_top1").map(r4),
        match_games: 0,
        score: None,
        sprt: String::new(),
        llr: None,
        elo: None,
        elo_low: None,
        elo_high: None,
        elo_vs_gen0: 0.0,
        elo_vs_gen0_low: 0.0,
        elo_vs_gen0_high: 0.0,
        promoted: true,
        best: 0,
        cpu_s: cpu,
        wall_s: wall,
    }];
    drop(net0);
    if mode == Mode::Run {
        write_generations(&dir, &rows)?;
    }
    let mut best = 0u64;
    // The best network's Elo against generation 0 and its standard error.
    let (mut best_elo, mut best_se) = (0.0f64, 0.0f64);
    for k in 1..=settings.generations {
        if tournament::run::interrupt::requested() {
            return Err(invalid(format!(
                "interrupted; continue with `carcassonne improve --net --resume {}`",
                dir.display()
            )));
        }
        let gen_folder = gen_dir(&dir, k);
        let best_net = net_path(&dir, best);
        let candidate = net_path(&dir, k);
        let selfplay = gen_folder.join("selfplay");
        let selfplay_args = settings.selfplay_args(k, &best_net, threads);
        if mode == Mode::Plan {
            if finished(&selfplay, &selfplay_args).is_none() {
                print_selfplay_command(out, &settings, &selfplay_args, &selfplay, k)?;
                return Ok(rows);
            }
            if !candidate.exists() {
                return Err(plan_error(k, "training"));
            }
        }
        if mode == Mode::Run {
            timed(&gen_folder, "selfplay", || {
                tournament_step(&selfplay, selfplay_args, &dir, stop_after)
            })?;
        }
        if !candidate.exists() {
            if mode == Mode::Plan {
                return Err(plan_error(k, "training"));
            }
            timed(&gen_folder, "train", || {
                let data = settings.window_data(&dir, k);
                let examples = count_examples(&selfplay)?;
                let config = settings.train_config(
                    &data,
                    Some(best_net.clone()),
                    mix(settings.seed, TAG, &[k, 2]),
                );
                let mut log = Vec::new();
                let mut fitted = fit(&config, &mut log)?;
                files::stdio::warn(&format!(
                    "generation {k}: trained on {} examples of generations {}..={k}",
                    fitted.positions,
                    (k + 1).saturating_sub(settings.window)
                ));
                let facts = training_facts(examples, &fitted);
                save(&mut fitted.net, &candidate, &facts)
            })?;
        }
        let trained = NetEvaluator::load(&candidate).map_err(|e| Error::Folder(e.to_string()))?;
        let match_dir = gen_folder.join("match");
        let match_args = settings.match_args(&candidate, &best_net, k, threads)?;
        let info = match mode {
            Mode::Plan => {
                finished(&match_dir, &match_args).ok_or_else(|| plan_error(k, "match"))?
            }
            Mode::Run => timed(&gen_folder, "match", || {
                tournament_step(&match_dir, match_args, &dir, stop_after)
            })?,
        };
        let sprt = info
            .sprt
            .ok_or_else(|| Error::Folder(format!("{}: no SPRT result", match_dir.display())))?;
        let games = read_run_info(&selfplay)?.games_finished;
        let (score, elo, low, high) = match_elo(&sprt);
        let se = (high - low) / (2.0 * Z95);
        let vs_gen0 = best_elo + elo;
        let se0 = (best_se * best_se + se * se).sqrt();
        let promoted = sprt.decision == SprtDecision::AcceptH1;
        if promoted {
            best = k;
            (best_elo, best_se) = (vs_gen0, se0);
        }
        let [cpu, wall] = step_time(k);
        rows.push(NetGenerationRow {
            generation: k,
            games,
            examples: fact(&trained, "examples").unwrap_or(0.0) as u64,
            train_examples: fact(&trained, "train_examples").unwrap_or(0.0) as u64,
            policy_loss: fact(&trained, "policy_loss").map(r4),
            value_loss: fact(&trained, "value_loss").map(r4),
            heldout_policy_loss: fact(&trained, "heldout_policy_loss").map(r4),
            heldout_value_loss: fact(&trained, "heldout_value_loss").map(r4),
            heldout_top1: fact(&trained, "heldout_top1").map(r4),
            match_games: sprt.games,
            score: Some(r4(score)),
            sprt: sprt.decision.to_string(),
            llr: Some(r4(sprt.llr)),
            elo: Some(r1(elo)),
            elo_low: Some(r1(low)),
            elo_high: Some(r1(high)),
            elo_vs_gen0: r1(vs_gen0),
            elo_vs_gen0_low: r1(vs_gen0 - Z95 * se0),
            elo_vs_gen0_high: r1(vs_gen0 + Z95 * se0),
            promoted,
            best,
            cpu_s: cpu,
            wall_s: wall,
        });
        if mode == Mode::Run {
            write_generations(&dir, &rows)?;
        }
    }
    if mode == Mode::Plan {
        return Err(invalid(format!(
            "all {} generations are finished; raise --generations to plan the next",
            settings.generations
        )));
    }
    Ok(rows)
}

/// Print the `carcassonne selfplay` command of generation `k` (to be
/// sharded with `--shard K/N`, merged into `into`).
fn print_selfplay_command(
    out: &mut dyn std::io::Write,
    settings: &NetSettings,
    args: &TournamentArgs,
    into: &Path,
    k: u64,
) -> Result<()> {
    let rules = settings.rules.to_string();
    let rules = if rules.is_empty() || settings.rules == Rules::default() {
        String::new()
    } else {
        format!(" --rules {rules}")
    };
    let text = format!(
        "# generation {k}: play the shards (add --shard K/N --out SHARD_DIR), then\n\
         # carcassonne merge SHARD_DIR... --out {}\n\
         {} selfplay --agent {} --games {} --players {} --seed {}{rules}\n",
        into.display(),
        tournament::results::meta::program(),
        args.agents[0],
        settings.games_per_gen,
        settings.players,
        args.game.seed.unwrap_or_default(),
    );
    out.write_all(text.as_bytes())
        .map_err(|e| Error::Internal(e.to_string()))
}

/// Write `generations.csv` and the run's report.
fn write_generations(dir: &Path, rows: &[NetGenerationRow]) -> Result<()> {
    write_atomic(&dir.join(GENERATIONS_CSV), &csv_bytes(rows)?)?;
    write_atomic(&dir.join(REPORT_HTML), report_page(dir, rows)?.as_bytes())
}

/// Whether `dir` holds an `improve --net` run.
pub fn is_run(dir: &Path) -> bool {
    dir.join(SETTINGS_FILE).is_file()
}

/// `carcassonne report DIR` of an `improve --net` run: its page, from
/// `generations.csv`, to `out` (default `DIR/report.html`; written into
/// the folder under its lock).
///
/// # Errors
/// generations.csv cannot be read, the folder is in use, or the page
/// cannot be written.
pub fn report(dir: &Path, out: Option<PathBuf>) -> Result<PathBuf> {
    let _lock = match &out {
        None => Some(FolderLock::acquire(dir)?),
        Some(_) => None,
    };
    let file = dir.join(GENERATIONS_CSV);
    let mut reader = csv::Reader::from_path(&file)
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
    let rows = reader
        .deserialize()
        .collect::<std::result::Result<Vec<NetGenerationRow>, _>>()
        .map_err(|e| Error::Folder(format!("{}: {e}", file.display())))?;
    let out = out.unwrap_or_else(|| dir.join(REPORT_HTML));
    tournament::results::output::check_replaceable(&out)?;
    write_atomic(&out, report_page(dir, &rows)?.as_bytes())?;
    Ok(out)
}

/// The report's file name in a run folder.
pub const REPORT_HTML: &str = "report.html";

/// The report of a run: Elo against generation 0 by generation, and
/// `generations.csv` as a table.
///
/// # Errors
/// The chart cannot be drawn.
pub fn report_page(dir: &Path, rows: &[NetGenerationRow]) -> Result<String> {
    use pictures::render::xml_escape;
    use pictures::report::charts::{generations, GenerationPoint};
    let points: Vec<GenerationPoint> = rows
        .iter()
        .map(|r| GenerationPoint {
            generation: r.generation,
            elo: r.elo_vs_gen0,
            low: r.elo_vs_gen0_low,
            high: r.elo_vs_gen0_high,
            promoted: r.promoted,
        })
        .collect();
    let csv = String::from_utf8(csv_bytes(rows)?).map_err(|e| Error::Internal(e.to_string()))?;
    let mut table = String::from("<table>");
    for (i, line) in csv.lines().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        table.push_str("<tr>");
        for cell in line.split(',') {
            table.push_str(&format!("<{tag}>{}</{tag}>", xml_escape(cell)));
        }
        table.push_str("</tr>");
    }
    table.push_str("</table>");
    let settings = std::fs::read_to_string(dir.join(SETTINGS_FILE)).unwrap_or_default();
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>improve --net</title>\
         <style>body {{ font-family: sans-serif; margin: 1.5em auto; max-width: 1000px; }} \
         table {{ border-collapse: collapse; font-size: 0.8em; }} th, td {{ padding: 0.2em 0.4em; border-bottom: 1px solid #ddd; }} \
         svg {{ max-width: 100%; height: auto; }} pre {{ font-size: 0.8em; background: #f7f7f7; padding: 0.5em; }}</style></head>\n\
         <body><h1>improve --net: {}</h1>\
         <h2>Elo against generation 0</h2><figure>{}<figcaption>Each candidate's Elo against generation 0 with its 95% interval, \
         chained through the promotion matches (filled: promoted; the grey line is the best network). \
         Matches are against the best network of their time, so the chain adds their uncertainties.</figcaption></figure>\
         <h2>Generations</h2>{table}<p>Columns: docs/neural.md.</p><h2>Settings</h2><pre>{}</pre></body></html>\n",
        xml_escape(&dir.display().to_string()),
        generations(&points)?,
        xml_escape(&settings),
    ))
}

/// `generations.csv` as a table for the terminal.
pub fn table(rows: &[NetGenerationRow]) -> String {
    let opt = |x: Option<f64>, d: usize| x.map_or("-".to_string(), |x| format!("{x:.d$}"));
    let mut s = format!(
        "{:>3} {:>6} {:>8} {:>7} {:>7} {:>6} {:>6} {:>5} {:>7} {:>22} {:>8} {:>4} {:>8}\n",
        "gen",
        "games",
        "examples",
        "policy",
        "value",
        "match",
        "score",
        "sprt",
        "llr",
        "elo/gen0 [95%]",
        "promoted",
        "best",
        "cpu_s"
    );
    for r in rows {
        s.push_str(&format!(
            "{:>3} {:>6} {:>8} {:>7} {:>7} {:>6} {:>6} {:>5} {:>7} {:>7.1} [{:>5.1}, {:>5.1}] {:>8} {:>4} {:>8.1}\n",
            r.generation,
            r.games,
            r.examples,
            opt(r.heldout_policy_loss.or(r.policy_loss), 3),
            opt(r.heldout_value_loss.or(r.value_loss), 3),
            r.match_games,
            opt(r.score, 3),
            if r.sprt.is_empty() { "-" } else { &r.sprt },
            opt(r.llr, 2),
            r.elo_vs_gen0,
            r.elo_vs_gen0_low,
            r.elo_vs_gen0_high,
            r.promoted,
            r.best,
            r.cpu_s
        ));
    }
    s
}
