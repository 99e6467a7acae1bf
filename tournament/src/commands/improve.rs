//! `carcassonne improve`: self-play, train and promote by SPRT,
//! generation after generation — the value model's loop, or with `--net`
//! the network's ([`tournament::improve`]; what the command line adds to
//! them: [`crate::improve`]).

use crate::cli::{parse_players, RulesArgs};
use crate::improve;
use clap::Args as ClapArgs;
use files::error::{Error, Result};
use files::stdio::Stdout;
use std::path::PathBuf;
use tournament::improve::linear::ImproveOptions;
use tournament::improve::net::{NetOptions, SETTINGS_FILE};

/// The default recipes of `improve --net` and what a run costs, as
/// measured (the end of `--help`).
pub const COSTS: &str =
    "With --net and without options a run follows the best recipe measured for its game \
(docs/neural.md), ungated, measured by its gauntlet: 2 players under the standard rules, \
--agent az:iterations=400 --games-per-gen 1600 --window 8 --epochs 1 --search-value 0.5 (the \
recipe of models/az-2p.safetensors: 10 generations, 2.0 CPU-hours with the gauntlets, 1.6 \
without; about 0.2 CPU-hours a generation, more as the window fills); other seat counts and \
rules, --agent az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16 --games-per-gen 800 \
--window 4 --epochs 2 (the recipe of models/az-3p and az-gifts: 0.23 CPU-hours for 10 \
generations of 3 players, 0.29 for 14 of The Gifts). CPU-seconds of all threads, measured on \
the project's 2-core machine. After pruning a generation keeps about 50 MB (800 games) or 85 MB \
(1600), most of it positions.csv; the window's generations keep their example shards too (about \
230 MB each at 1600 games): a 50-generation run of the 2-player recipe fits in about 6 GB.";

/// `--anchor-generation`: a generation, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnchorGeneration(pub Option<u64>);

fn parse_anchor_generation(text: &str) -> std::result::Result<AnchorGeneration, String> {
    if text == "none" {
        return Ok(AnchorGeneration(None));
    }
    text.parse()
        .map(|k| AnchorGeneration(Some(k)))
        .map_err(|_| format!("a generation (0, 1, …) or none, not {text:?}"))
}

/// Options of `carcassonne improve`.
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct ImproveArgs {
    /// The generation-0 agent, `greedy` or `mcts…` (its `eval=` is set
    /// to each promoted model); with --net, the `az` spec of self-play
    /// and matches without `net=` (default: the game's recipe, below).
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
    /// Generations to run after generation 0 (default: 3).
    #[arg(long)]
    pub generations: Option<u64>,
    /// Self-play games per generation (default: 100; with --net the
    /// recipe's, 1600 or 800).
    #[arg(long)]
    pub games_per_gen: Option<u64>,
    /// Most games of each promotion match (SPRT 0,30 stops it earlier;
    /// default: 200; with --net 600).
    #[arg(long)]
    pub match_games: Option<u64>,
    /// Generations of data the model is trained on (the latest ones;
    /// default: 2; with --net the recipe's, 8 or 4).
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
    /// (docs/neural.md): self-play with `az:…,net=LATEST`, training,
    /// the gauntlet (with --gate, SPRT-gated promotion).
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
    /// Start generation 0 from these weights (e.g. a shipped network or
    /// another run's best: the run goes on from there; with --bootstrap,
    /// trained further on those folders). The network's sizes and inputs
    /// are the file's (--hidden, --board, --no-features refused).
    #[arg(
        long,
        value_name = "NET.safetensors",
        help_heading = "The az network (--net)"
    )]
    pub init: Option<PathBuf>,
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
    /// Networks that do not read the 40 hand-made position features: they
    /// learn from the raw inputs only (with --board, the board window
    /// and the raw counts).
    #[arg(long, help_heading = "The az network (--net)")]
    pub no_features: bool,
    /// Networks with an auxiliary head trained to predict each seat's
    /// final points by category (roads, cities, monasteries, farms,
    /// gifts) beside the value: more to learn from each game. Play
    /// never reads it.
    #[arg(long, help_heading = "The az network (--net)")]
    pub categories: bool,
    /// Training passes per generation (default: the recipe's, 1 or 2).
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
    /// Weight of the search's value in the value target, 0 to 1
    /// (default: the recipe's, 0.5 for 2 players and the standard rules,
    /// else 0, the game's outcome alone): see `train-net --search-value`.
    #[arg(long, help_heading = "The az network (--net)")]
    pub search_value: Option<f64>,
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
    /// A promotion match gates each candidate: only one that passes the
    /// SPRT self-plays the next generation (AlphaGo Zero's way; no
    /// recipe measured so far is gated).
    #[arg(
        long,
        help_heading = "The az network (--net)",
        conflicts_with = "no_gate"
    )]
    pub gate: bool,
    /// No promotion match (the default): every generation's network
    /// self-plays the next generation (AlphaZero's way); the run's
    /// progress is read off the gauntlet, which it needs.
    #[arg(long, help_heading = "The az network (--net)")]
    pub no_gate: bool,
    /// The fixed anchors every generation plays (paired decks, the same
    /// for every generation): the run's progress is its score against
    /// them (default: greedy, and with 2 players and the standard rules
    /// mcts:depth=0,eval=models/value-2p.json and
    /// az:…,net=models/net-2p-zero.safetensors where those files are
    /// found, otherwise mcts:iterations=300; `none` for no gauntlet).
    #[arg(long, value_name = "SPECS", help_heading = "The az network (--net)")]
    pub anchors: Option<String>,
    /// Games of each generation against each anchor (default: 100).
    #[arg(long, value_name = "N", help_heading = "The az network (--net)")]
    pub gauntlet_games: Option<u64>,
    /// The run's own generation that every later generation also plays in
    /// its gauntlet, or `none` (default: 1): the low end of the ladder,
    /// where early networks lose every game to the fixed anchors.
    #[arg(long, value_name = "K", value_parser = parse_anchor_generation, help_heading = "The az network (--net)")]
    pub anchor_generation: Option<AnchorGeneration>,
    /// Keep every generation's example shards (default: remove those no
    /// later training window needs; compressed shards take about 30–65 KB
    /// a game).
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

/// Run the loop and print its generations.
pub fn run(i: ImproveArgs, out: &mut Stdout) -> Result<()> {
    tournament::run::interrupt::install()?;
    if i.net {
        let options = net_options(&i)?;
        let mut text = Vec::new();
        let rows = tournament::improve::net::improve_net(&options, &improve::Cli, &mut text)?;
        if i.selfplay_command {
            out.print(&String::from_utf8_lossy(&text))
        } else {
            out.print(&improve::net_table(&rows))
        }
    } else {
        refuse_net_options(&i)?;
        let rows = tournament::improve::linear::improve(&base_options(&i), &improve::Cli)?;
        out.print(&improve::linear_table(&rows))
    }
}

/// The options both loops take.
fn base_options(args: &ImproveArgs) -> ImproveOptions {
    ImproveOptions {
        agent: args.agent.clone(),
        generations: args.generations,
        games_per_gen: args.games_per_gen,
        match_games: args.match_games,
        window: args.window,
        players: args.players,
        seed: args.seed,
        threads: args.threads,
        out: args.out.clone(),
        gifts: args.rules.gifts,
        no_farmers: args.rules.no_farmers,
        rules: args.rules.variants,
    }
}

/// The options of `improve --net`, with the options given that
/// `--resume` refuses (the rest comes from the run's settings file).
///
/// # Errors
/// An option given with `--resume` other than `--threads`,
/// `--generations` and `--selfplay-command`.
fn net_options(args: &ImproveArgs) -> Result<NetOptions> {
    if let (Some(init), true) = (&args.init, args.no_board) {
        return Err(Error::Invalid(format!(
            "--no-board cannot be given with --init: the run's networks have the sizes and inputs of {}",
            init.display()
        )));
    }
    if let Some(dir) = &args.resume {
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
            return Err(Error::Invalid(format!(
                "{name} cannot be given with --resume (only --threads and --generations may: the rest comes from {})",
                dir.join(SETTINGS_FILE).display()
            )));
        }
    }
    Ok(NetOptions {
        base: base_options(args),
        resume: args.resume.clone(),
        bootstrap: args.bootstrap.clone(),
        init: args.init.clone(),
        hidden: args.hidden,
        board: args.board,
        features: !args.no_features,
        categories: args.categories,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        holdout: args.holdout,
        surprise: args.surprise,
        search_value: args.search_value,
        noise: args.noise,
        temp_moves: args.temp_moves,
        sprt: args.sprt.clone(),
        gate: args.gate,
        anchors: args.anchors.clone(),
        gauntlet_games: args.gauntlet_games,
        anchor_generation: args.anchor_generation.map(|g| g.0),
        keep_shards: args.keep_shards,
        selfplay_command: args.selfplay_command,
        stop_after: args.stop_after,
    })
}

/// The options that only `--net` takes, with whether each was given.
fn net_only(args: &ImproveArgs) -> [(&'static str, bool); 25] {
    [
        ("--anchors", args.anchors.is_some()),
        ("--gauntlet-games", args.gauntlet_games.is_some()),
        ("--anchor-generation", args.anchor_generation.is_some()),
        ("--keep-shards", args.keep_shards),
        ("--no-board", args.no_board),
        ("--board", args.board),
        ("--no-features", args.no_features),
        ("--categories", args.categories),
        ("--bootstrap", !args.bootstrap.is_empty()),
        ("--init", args.init.is_some()),
        ("--resume", args.resume.is_some()),
        ("--hidden", args.hidden.is_some()),
        ("--epochs", args.epochs.is_some()),
        ("--batch", args.batch.is_some()),
        ("--lr", args.lr.is_some()),
        ("--holdout", args.holdout.is_some()),
        ("--surprise", args.surprise.is_some()),
        ("--search-value", args.search_value.is_some()),
        ("--noise", args.noise.is_some()),
        ("--temp-moves", args.temp_moves.is_some()),
        ("--sprt", args.sprt.is_some()),
        ("--gate", args.gate),
        ("--no-gate", args.no_gate),
        ("--rules", args.rules.variants.is_some()),
        ("--selfplay-command", args.selfplay_command),
    ]
}

/// Refuse the options of `--net` in a run of the linear `improve`.
///
/// # Errors
/// The first such option given.
fn refuse_net_options(args: &ImproveArgs) -> Result<()> {
    match net_only(args).iter().find(|(_, given)| *given) {
        Some((name, _)) => Err(Error::Invalid(format!(
            "{name} is an option of `improve --net` (the az network); give --net"
        ))),
        None => Ok(()),
    }
}
