//! `carcassonne improve`: self-play, train and promote by SPRT,
//! generation after generation — the value model's loop, or with `--net`
//! the network's ([`crate::improve`]).

use crate::cli::{parse_players, RulesArgs};
use crate::improve;
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

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
    /// Networks that do not read the 40 hand-made position features: they
    /// learn from the raw inputs only (with --board, the board window
    /// and the raw counts).
    #[arg(long, help_heading = "The az network (--net)")]
    pub no_features: bool,
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

/// Run the loop and print its generations.
pub fn run(i: ImproveArgs, out: &mut Stdout) -> Result<()> {
    tournament::run::interrupt::install()?;
    if i.net {
        let mut text = Vec::new();
        let rows = improve::net::improve_net(&i, &mut text)?;
        if i.selfplay_command {
            out.print(&String::from_utf8_lossy(&text))
        } else {
            out.print(&improve::net::table(&rows))
        }
    } else {
        improve::net::refuse_net_options(&i)?;
        let rows = improve::linear::improve(&i)?;
        out.print(&improve::linear::table(&rows))
    }
}
