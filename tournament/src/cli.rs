//! Command-line arguments (clap) of the `carcassonne` binary.
//!
//! Only the shape of the command line lives here; checking the values
//! (agent specs, counts, folders) is [`tournament::run::config`]'s job, so every bad
//! input gets the same one-line error.

use clap::{Args as ClapArgs, Parser, Subcommand};
use engine::Rules;
use std::path::PathBuf;
use tournament::results::schema::SprtSettings;
use tournament::run::schedule::{Shard, ShardError};

/// The research toolkit for Carcassonne AI.
#[derive(Debug, Parser)]
#[command(name = "carcassonne", version, about, after_help = default_tournament_help())]
pub struct Args {
    /// What to do; without one, run the default tournament
    /// (see `carcassonne tournament --help` and results/README.md).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a round robin between agents and write a results folder.
    Tournament(TournamentArgs),
    /// Play one game move by move to the terminal and write its record.
    Play(PlayArgs),
    /// Self-play games of one agent, written as training data
    /// (positions.csv, records.jsonl; see results/README.md).
    Selfplay(SelfplayArgs),
    /// Fit a value model to the positions of self-play folders.
    Train(TrainArgs),
    /// Self-play, train and promote by SPRT, generation after generation.
    Improve(ImproveArgs),
    /// Train the `az` network on self-play examples (docs/neural.md).
    #[command(name = "train-net")]
    TrainNet(TrainNetArgs),

    /// Rate every agent of any number of results folders on one Elo
    /// ladder (see results/README.md, "Ratings").
    Ratings(crate::ratings::RatingsArgs),

    /// Combine the folders of `--shard` runs into the results of one run.
    Merge {
        /// The shard folders (all shards of one tournament, any order).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The folder to write (must not exist, or be empty).
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure engine and tournament speed (random games).
    Bench {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Games per timed round of the engine benchmark.
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// Timed rounds (the median is reported).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Games per timed tournament (random vs random, 1 and 2 threads).
        #[arg(long, default_value_t = 20_000)]
        tournament_games: u64,
        /// Games through the bot protocol (`serve random` against itself,
        /// the Python random bot against `random`); 0 skips them.
        #[arg(long, default_value_t = 200)]
        ext_games: u64,
        /// Rule variants for the random games, as `KEY=VALUE,…` (RULES.md §8).
        #[arg(long, value_name = "KEY=VALUE,...", value_parser = parse_rules)]
        rules: Option<Rules>,
    },
    /// Draw the board of a game record after a turn, as SVG or PNG.
    Render {
        /// A record file (`play`'s output, or records.jsonl with --game).
        record: PathBuf,
        /// The board after this many turns (default: the end).
        #[arg(long)]
        turn: Option<usize>,
        /// Which game of a JSON Lines file, numbered from 0 as the `game`
        /// column of games.csv (default: 0).
        #[arg(long)]
        game: Option<usize>,
        /// The picture: FILE.svg or FILE.png (default: RECORD with .svg).
        #[arg(long)]
        out: Option<PathBuf>,
        /// PNG pixels per tile (default 75).
        #[arg(long, value_name = "PIXELS")]
        tile_pixels: Option<u32>,
    },
    /// Write a game record as one self-contained HTML page that steps
    /// through the game turn by turn.
    View {
        /// A record file (`play`'s output, or records.jsonl with --game).
        record: PathBuf,
        /// Which game of a JSON Lines file, numbered from 0 as the `game`
        /// column of games.csv (default: 0).
        #[arg(long)]
        game: Option<usize>,
        /// The page, FILE.html (default: RECORD with .html).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write the HTML report of a results folder (tables and charts).
    Report {
        /// The results folder (run.json, summary.csv, pairwise.csv, games.csv).
        dir: PathBuf,
        /// The page (default: DIR/report.html).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run an agent (random, greedy, mcts:…) as a carcassonne-bot/1 bot
    /// on stdin/stdout (docs/PROTOCOL.md).
    Serve {
        /// The agent's spec.
        spec: String,
    },
    /// Play against the agents in a browser (a local server), or watch a
    /// tournament folder live with --watch.
    Web(crate::web::WebArgs),
    /// What an agent thinks of every decision of a recorded game: its
    /// top moves, the value of the move played and a verdict on it, as
    /// JSON (and CSV).
    AnalyzeGame(crate::analyze::AnalyzeArgs),
    /// Check game records and print their scores as JSON.
    Replay {
        /// A record file: one JSON object, or JSON Lines.
        file: PathBuf,
        /// Score a position as if the game ended after its last turn.
        #[arg(long)]
        end: bool,
    },
}

/// The options of a run of games that `tournament` and `selfplay` share
/// (flattened into both; `selfplay` rewords some of their help).
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct GameOptions {
    /// Games per pairing, rounded up to a whole number of seat rotations
    /// (default: 150).
    #[arg(long)]
    pub games: Option<u64>,
    /// Seats per game, 2–6 (default: 2).
    #[arg(long, value_parser = parse_players)]
    pub players: Option<u64>,
    /// Master seed: every deck and agent seed derives from it (default: 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores). Does not change the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Results folder (default: results/TIME-NAME/, TIME the UTC start).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The rules: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Continue the interrupted run in this folder (only --threads may be
    /// given with it; everything else comes from its run.json).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Play only shard K of N: the games whose index % N == K − 1
    /// (K is 1-based, as SLURM and Kubernetes-friendly arrays use).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Deal decks from a key drawn from the operating system instead of
    /// from --seed (competitions with untrusted bots): kept in
    /// DIR/.deck-key while the run lasts, written to run.json when it ends.
    #[arg(long)]
    pub secret_decks: bool,
    /// Test hook: stop after writing this many games, as if killed.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
    /// Test hook: built-in agents get the seeds external bots are sent
    /// (so `ext:cmd=carcassonne serve X` plays the games of `X`).
    #[arg(long, hide = true)]
    pub keyed_agent_seeds: bool,
}

/// Options of `carcassonne tournament`.
#[derive(Debug, Clone, Default, ClapArgs)]
// The help lists --resume and --shard after --records and --name.
#[command(
    mut_arg("resume", |a| a.display_order(20)),
    mut_arg("shard", |a| a.display_order(21)),
    mut_arg("sprt", |a| a.display_order(22))
)]
pub struct TournamentArgs {
    /// Agent specs, comma-separated; a comma followed by `key=value`
    /// (an `=` before any `:`) continues the previous spec's parameters:
    /// `random,mcts:iterations=500,c=0.7` is two agents. May be repeated.
    #[arg(long, value_name = "SPECS", help = agents_help(), long_help = agents_long_help())]
    pub agents: Vec<String>,
    /// Games, seats, seed, threads, folder, rules, resume and shard.
    #[command(flatten)]
    pub game: GameOptions,
    /// Also write every game's record to records.jsonl.
    #[arg(long)]
    pub records: bool,
    /// Name used in the default folder name (letters, digits, `-_.`;
    /// default: tournament).
    #[arg(long)]
    pub name: Option<String>,
    /// Stop a 2-agent match once the SPRT of H0: elo ≤ elo0 against
    /// H1: elo ≥ elo1 decides (α = β = 0.05); --games is then the maximum.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_sprt)]
    pub sprt: Option<SprtSettings>,
    /// Set by `carcassonne selfplay` (not an option of `tournament`).
    #[arg(skip)]
    pub selfplay: bool,
}

/// Options of `carcassonne selfplay`: the tournament's game options, with
/// help in self-play's words (and --shard listed before --resume).
#[derive(Debug, Clone, Default, ClapArgs)]
#[command(
    mut_arg("games", |a| a.help("Games to play, rounded up to a multiple of --players (default: 150)")),
    mut_arg("threads", |a| a.help("Worker threads (default: all cores). Does not change the data")),
    mut_arg("out", |a| a.help("Data folder (default: results/TIME-selfplay/)")),
    mut_arg("rules", |a| a.help("Rule variants of RULES.md §8 as `KEY=VALUE,…`")),
    mut_arg("shard", |a| a.help(
        "Play only shard K of N (games with index % N == K − 1); \
         combine the shards with `carcassonne merge`"
    )),
    mut_arg("resume", |a| a
        .help("Continue the interrupted run in this folder (only --threads may be given with it)")
        .display_order(20)),
)]
pub struct SelfplayArgs {
    /// The agent spec that plays every seat (e.g. `mcts:iterations=200`).
    #[arg(long, value_name = "SPEC", required_unless_present = "resume")]
    pub agent: Option<String>,
    /// Games, seats, seed, threads, folder, rules, shard and resume.
    #[command(flatten)]
    pub game: GameOptions,
}

impl SelfplayArgs {
    /// The tournament these options describe: the agent alone, with
    /// records, flagged as self-play.
    pub fn tournament_args(&self) -> TournamentArgs {
        if self.game.resume.is_some() {
            return TournamentArgs {
                game: GameOptions {
                    threads: self.game.threads,
                    resume: self.game.resume.clone(),
                    stop_after: self.game.stop_after,
                    keyed_agent_seeds: self.game.keyed_agent_seeds,
                    ..GameOptions::default()
                },
                ..TournamentArgs::default()
            };
        }
        TournamentArgs {
            agents: self.agent.iter().cloned().collect(),
            game: self.game.clone(),
            records: true,
            name: Some("selfplay".to_string()),
            sprt: None,
            selfplay: true,
        }
    }
}

/// Options of `carcassonne train-net`.
#[derive(Debug, Clone, ClapArgs)]
pub struct TrainNetArgs {
    /// Example shards (.safetensors) or folders of them (a self-play
    /// folder: its examples/).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write (must not exist).
    #[arg(long, value_name = "NET.safetensors")]
    pub out: PathBuf,
    /// Start from these weights (default: random weights from --seed).
    #[arg(long, value_name = "NET.safetensors")]
    pub init: Option<PathBuf>,
    /// Seed of the initial weights, the held-out split and the batches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// AdamW learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// AdamW weight decay.
    #[arg(long, default_value_t = 1e-4)]
    pub weight_decay: f64,
    /// Share of the games held out, 0 to 0.9.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Policy-surprise weighting, 0 to 1 (0: off): each position weighs
    /// `(1 − s) + s · KL / mean KL`, KL of its policy target from the
    /// starting network's prior; the mean weight is 1.
    #[arg(long, default_value_t = 0.0)]
    pub surprise: f64,
    /// Width of the trunk.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// A network whose trunk reads only the globals (the position
    /// features among them), not the board window: cheaper to evaluate.
    #[arg(long)]
    pub no_board: bool,
}

/// Options of `carcassonne train`.
#[derive(Debug, Clone, ClapArgs)]
pub struct TrainArgs {
    /// Self-play folders (each with positions.csv).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The model file to write (must not exist).
    #[arg(long, value_name = "MODEL.json")]
    pub out: PathBuf,
    /// Seed of the held-out split (by game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of the games held out, 0 to 0.9.
    #[arg(long, default_value_t = 0.2)]
    pub holdout: f64,
    /// Ridge penalty on the standardised weights (> 0).
    #[arg(long, default_value_t = 0.01)]
    pub lambda: f64,
}

/// Options of `carcassonne improve`.
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct ImproveArgs {
    /// The generation-0 agent, `greedy` or `mcts…` (its `eval=` is set
    /// to each promoted model); with --net, the `az` spec of self-play
    /// and matches without `net=` (default: az:iterations=400).
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
    /// Generations to run after generation 0 (default: 3).
    #[arg(long)]
    pub generations: Option<u64>,
    /// Self-play games per generation (default: 100; with --net 800).
    #[arg(long)]
    pub games_per_gen: Option<u64>,
    /// Most games of each promotion match (SPRT 0,30 stops it earlier;
    /// default: 200; with --net 600).
    #[arg(long)]
    pub match_games: Option<u64>,
    /// Generations of data the model is trained on (the latest ones;
    /// default: 2; with --net 4).
    #[arg(long)]
    pub window: Option<u64>,
    /// Seats per self-play game, 2–6 (matches are 2-player; default: 2).
    #[arg(long, value_parser = parse_players)]
    pub players: Option<u64>,
    /// Master seed (default: 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The folder of the run; an existing one is continued.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The rules of every game: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Train the `az` network instead of the linear value model
    /// (docs/neural.md): self-play with `az:…,net=BEST`, training,
    /// SPRT-gated promotion.
    #[arg(long, help_heading = "The az network (--net)")]
    pub net: bool,
    /// Continue the `improve --net` run in this folder (only --threads
    /// and --generations may be given with it).
    #[arg(long, value_name = "DIR", help_heading = "The az network (--net)")]
    pub resume: Option<PathBuf>,
    /// Train generation 0 on these folders of self-play examples (e.g.
    /// `selfplay --agent mcts:…`, or merged shards) instead of starting
    /// from random weights.
    #[arg(long, value_name = "DIR", num_args = 1.., help_heading = "The az network (--net)")]
    pub bootstrap: Vec<PathBuf>,
    /// Trunk width of the network (default: 64).
    #[arg(long, help_heading = "The az network (--net)")]
    pub hidden: Option<usize>,
    /// Networks whose trunk reads only the globals, not the board window
    /// (the default).
    #[arg(
        long,
        help_heading = "The az network (--net)",
        conflicts_with = "board"
    )]
    pub no_board: bool,
    /// Networks that read the board window too (slower to evaluate; not
    /// measured to learn faster yet).
    #[arg(long, help_heading = "The az network (--net)")]
    pub board: bool,
    /// Training passes per generation (default: 2).
    #[arg(long, help_heading = "The az network (--net)")]
    pub epochs: Option<usize>,
    /// Positions per training step (default: 64).
    #[arg(long, help_heading = "The az network (--net)")]
    pub batch: Option<usize>,
    /// AdamW learning rate (default: 0.001).
    #[arg(long, help_heading = "The az network (--net)")]
    pub lr: Option<f64>,
    /// Share of the games held out of training, 0 to 0.9 (default: 0.1).
    #[arg(long, help_heading = "The az network (--net)")]
    pub holdout: Option<f64>,
    /// Policy-surprise weighting of the examples, 0 to 1 (default: 0,
    /// off): see `train-net --surprise`; the prior is the network the
    /// generation trains from.
    #[arg(long, help_heading = "The az network (--net)")]
    pub surprise: Option<f64>,
    /// Weight of the root Dirichlet noise in self-play (default: 0.25).
    #[arg(long, help_heading = "The az network (--net)")]
    pub noise: Option<f64>,
    /// Turns of each self-play game played at temperature 1 (default: 10).
    #[arg(long, help_heading = "The az network (--net)")]
    pub temp_moves: Option<u32>,
    /// The promotion test: H0 elo <= ELO0 against H1 elo >= ELO1
    /// (default: 0,30).
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        allow_hyphen_values = true,
        help_heading = "The az network (--net)"
    )]
    pub sprt: Option<String>,
    /// The fixed anchors every generation plays (paired decks, the same
    /// for every generation): the run's progress is its score against
    /// them (default: greedy, and with 2 players and the standard rules
    /// mcts:depth=0,eval=models/value-2p.json and
    /// az:…,net=models/net-2p-zero.safetensors where those files are
    /// found; `none` for no gauntlet).
    #[arg(long, value_name = "SPECS", help_heading = "The az network (--net)")]
    pub anchors: Option<String>,
    /// Games of each generation against each anchor (default: 100).
    #[arg(long, value_name = "N", help_heading = "The az network (--net)")]
    pub gauntlet_games: Option<u64>,
    /// Keep every generation's example shards (default: remove those no
    /// later training window needs, about 1.3 MB a game).
    #[arg(long, help_heading = "The az network (--net)")]
    pub keep_shards: bool,
    /// Print the `carcassonne selfplay` command of the next generation
    /// (to play as `--shard K/N` runs and `merge` into its folder) and
    /// run nothing.
    #[arg(long, help_heading = "The az network (--net)")]
    pub selfplay_command: bool,
    /// Test hook: stop a self-play or match after this many games, as if
    /// killed.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// Options of `carcassonne play`.
#[derive(Debug, Clone, ClapArgs)]
pub struct PlayArgs {
    /// Agent specs in seat order (same splitting rule as `tournament`);
    /// with fewer agents than players they repeat cyclically.
    #[arg(long, value_name = "SPECS", default_value = "random,random")]
    pub agents: Vec<String>,
    /// Seed of the game (the deck seed; agent seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seats, 2–6 (default: the number of agents).
    #[arg(long, value_parser = parse_players)]
    pub players: Option<u64>,
    /// The rules: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Where to write the record (default: results/play-SEED.json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write one SVG picture of the board per turn into this folder
    /// (`carcassonne view` shows the whole game in one page).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

/// The rules options of every command that plays games (flattened into
/// `tournament`, `selfplay`, `play`, `improve` and `web`).
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct RulesArgs {
    /// Play with the mini-expansion The Gifts.
    #[arg(long)]
    pub gifts: bool,
    /// Play without farmers.
    #[arg(long)]
    pub no_farmers: bool,
    /// Rule variants of RULES.md §8 as `KEY=VALUE,…` (e.g.
    /// `final_incomplete=false,hole_bonus=true`); `--gifts` and
    /// `--no-farmers` apply on top.
    #[arg(long = "rules", id = "rules", value_name = "KEY=VALUE,...", value_parser = parse_rules)]
    pub variants: Option<Rules>,
}

impl RulesArgs {
    /// The rules these options give: `--rules`, then `--gifts` and
    /// `--no-farmers` on top ([`combine_rules`]).
    ///
    /// # Errors
    /// The one-line reason the combination is refused.
    pub fn rules(&self) -> files::error::Result<Rules> {
        combine_rules(self.variants, self.gifts, self.no_farmers)
    }

    /// Whether any of them was given.
    pub fn any(&self) -> bool {
        self.gifts || self.no_farmers || self.variants.is_some()
    }
}

/// A value of an option that does not parse; clap prints it after the
/// option's name.
#[derive(Debug, PartialEq)]
pub enum ArgError {
    /// `--rules`: the engine's reason.
    Rules(engine::RulesError),
    /// `--players`: not a number.
    NotANumber(std::num::ParseIntError),
    /// `--players`: a number of seats the game does not have.
    Players(u64),
    /// `--shard`: not `K/N`.
    Shard(ShardError),
    /// `--sprt`: not `ELO0,ELO1` with ELO0 < ELO1.
    Sprt,
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Rules(e) => write!(f, "{e}"),
            ArgError::NotANumber(e) => write!(f, "{e}"),
            ArgError::Players(p) => write!(f, "players must be 2 to 6, not {p}"),
            ArgError::Shard(e) => write!(f, "{e}"),
            ArgError::Sprt => f.write_str("expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,10"),
        }
    }
}

impl std::error::Error for ArgError {}

/// Parse `--rules KEY=VALUE,…` (validated: unknown keys and values,
/// impossible combinations and unimplemented variants are refused).
pub fn parse_rules(s: &str) -> Result<Rules, ArgError> {
    s.parse::<Rules>().map_err(ArgError::Rules)
}

/// Parse `--players`: 2 to 6 seats.
pub fn parse_players(s: &str) -> Result<u64, ArgError> {
    match s.trim().parse::<u64>() {
        Ok(p @ 2..=6) => Ok(p),
        Ok(p) => Err(ArgError::Players(p)),
        Err(e) => Err(ArgError::NotANumber(e)),
    }
}

/// Parse `--shard K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, ArgError> {
    s.parse().map_err(ArgError::Shard)
}

/// Parse `--sprt ELO0,ELO1` (α = β = 0.05).
pub fn parse_sprt(text: &str) -> Result<SprtSettings, ArgError> {
    let (a, b) = text.split_once(',').ok_or(ArgError::Sprt)?;
    let elo0: f64 = a.trim().parse().map_err(|_| ArgError::Sprt)?;
    let elo1: f64 = b.trim().parse().map_err(|_| ArgError::Sprt)?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(ArgError::Sprt);
    }
    Ok(SprtSettings {
        elo0,
        elo1,
        alpha: tournament::run::config::SPRT_ALPHA,
        beta: tournament::run::config::SPRT_BETA,
    })
}

/// The rules of a command: `--rules`, then `--gifts` and `--no-farmers`
/// on top, validated again (`--gifts` may conflict with `hand`).
///
/// # Errors
/// The one-line reason the combination is refused.
pub fn combine_rules(
    rules: Option<Rules>,
    gifts: bool,
    no_farmers: bool,
) -> files::error::Result<Rules> {
    let mut rules = rules.unwrap_or_default();
    rules.gifts |= gifts;
    rules.farmers &= !no_farmers;
    rules
        .validate()
        .map_err(|e| files::error::Error::Invalid(format!("--rules: {e}")))?;
    Ok(rules)
}

/// The top-level help's last lines: what runs without a subcommand.
fn default_tournament_help() -> String {
    format!(
        "Without a subcommand, runs the default tournament: {}, {} games per \
         pairing, seed {}, into results/TIME-tournament/ \
         (`carcassonne tournament --help` for its options).",
        tournament::run::config::DEFAULT_AGENTS.join(", "),
        tournament::run::config::DEFAULT_GAMES,
        tournament::run::config::DEFAULT_SEED,
    )
}

/// The long help (`--help`) of `--agents`: the short one, then every
/// agent with its parameters' defaults, from their declarations.
fn agents_long_help() -> String {
    let mut help = agents_help();
    help.push_str(
        "\n\nAgents and the defaults of their parameters (docs/agents.md has their \
         values; a bad value's error names its range):",
    );
    for kind in agents::spec::AGENTS {
        help.push_str(&format!("\n  {}", kind.name));
        if !kind.params.is_empty() {
            help.push_str(&format!(": {}", agents::params::defaults(kind.params)));
        }
    }
    help
}

/// The help of `--agents`, with the agents this build knows.
fn agents_help() -> String {
    let names: Vec<&str> = agents::spec::AGENTS.iter().map(|k| k.name).collect();
    format!(
        "Agent specs, comma-separated: {}, or ext:cmd=PROGRAM for a protocol bot \
         (parameters as in `mcts:iterations=500,c=0.7`: a comma followed by \
         `key=value` continues the previous spec). May be repeated. Default: {}",
        names.join(", "),
        tournament::run::config::DEFAULT_AGENTS.join(","),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error clap prints for `args`: its first line.
    fn error(args: &[&str]) -> String {
        let e = Args::try_parse_from([&["carcassonne"], args].concat()).unwrap_err();
        e.to_string().lines().next().unwrap_or_default().to_string()
    }

    #[test]
    fn players_shard_and_sprt_are_checked_by_clap_naming_the_flag() {
        for (args, needle) in [
            (
                &["tournament", "--players", "7"][..],
                "'--players <PLAYERS>': players must be 2 to 6, not 7",
            ),
            (&["play", "--players", "1"], "'--players <PLAYERS>'"),
            (&["improve", "--players", "9"], "'--players <PLAYERS>'"),
            (
                &["tournament", "--shard", "3/2"],
                "'--shard <K/N>': expected K/N with 1 <= K <= N",
            ),
            (&["selfplay", "--shard", "x"], "'--shard <K/N>'"),
            (
                &["tournament", "--sprt", "5,0"],
                "'--sprt <ELO0,ELO1>': expected ELO0,ELO1 with ELO0 < ELO1",
            ),
            (&["tournament", "--sprt", "10"], "'--sprt <ELO0,ELO1>'"),
        ] {
            let e = error(args);
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }

    #[test]
    fn every_command_that_plays_games_takes_the_rules_options() {
        let rules = [
            "--gifts",
            "--no-farmers",
            "--rules",
            "final_incomplete=false",
        ];
        for command in [
            &["tournament"][..],
            &["selfplay", "--agent", "random"],
            &["play"],
            &["improve"],
            &["web"],
        ] {
            let args = Args::try_parse_from([&["carcassonne"], command, &rules].concat())
                .unwrap_or_else(|e| panic!("{command:?}: {e}"));
            let options = match args.command {
                Some(Command::Tournament(t)) => t.game.rules,
                Some(Command::Selfplay(s)) => s.game.rules,
                Some(Command::Play(p)) => p.rules,
                Some(Command::Improve(i)) => i.rules,
                Some(Command::Web(w)) => w.rules,
                _ => unreachable!(),
            };
            let r = options.rules().unwrap();
            assert!(r.gifts && !r.farmers && !r.final_incomplete, "{command:?}");
        }
    }

    #[test]
    fn parsed_values_are_the_settings() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { index: 2, count: 3 }));
        let s = parse_sprt("-5, 5").unwrap();
        assert_eq!((s.elo0, s.elo1), (-5.0, 5.0));
        assert_eq!(parse_players("6"), Ok(6));
    }
}
