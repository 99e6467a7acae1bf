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
    Tournament(crate::commands::tournament::TournamentArgs),
    /// Play one game move by move to the terminal and write its record.
    Play(crate::commands::play::PlayArgs),
    /// Self-play games of one agent, written as training data
    /// (positions.csv, records.jsonl; see results/README.md).
    Selfplay(crate::commands::selfplay::SelfplayArgs),
    /// Fit a value model to the positions of self-play folders.
    Train(crate::commands::train::TrainArgs),
    /// Self-play, train and promote by SPRT, generation after generation.
    #[command(after_help = crate::commands::improve::COSTS)]
    Improve(crate::commands::improve::ImproveArgs),
    /// Train the `az` network on self-play examples (docs/neural.md).
    #[command(name = "train-net")]
    TrainNet(crate::commands::train_net::TrainNetArgs),

    /// Tune an agent's numeric parameters by SPSA with games, then check
    /// the tuned spec against the start by SPRT (docs/tune.md).
    Tune(crate::commands::tune::TuneArgs),

    /// Rate every agent of any number of results folders on one Elo
    /// ladder (see results/README.md, "Ratings").
    Ratings(crate::ratings::RatingsArgs),

    /// Combine the folders of `--shard` runs into the results of one run.
    Merge(crate::commands::merge::MergeArgs),
    /// Measure engine and tournament speed (random games).
    Bench(crate::commands::bench::BenchArgs),
    /// Draw the board of a game record after a turn, as SVG or PNG.
    Render(crate::commands::render::RenderArgs),
    /// Write a game record as one self-contained HTML page that steps
    /// through the game turn by turn.
    View(crate::commands::view::ViewArgs),
    /// Write the HTML report of a results folder (tables and charts).
    Report(crate::commands::report::ReportArgs),
    /// Run an agent (random, greedy, mcts:…) as a carcassonne-bot/1 bot
    /// on stdin/stdout (docs/PROTOCOL.md).
    Serve(crate::commands::serve::ServeArgs),
    /// Play against the agents in a browser (a local server), or watch a
    /// tournament folder live with --watch.
    Web(crate::web::WebArgs),
    /// What an agent thinks of every decision of a recorded game: its
    /// top moves, the value of the move played and a verdict on it, as
    /// JSON (and CSV).
    AnalyzeGame(crate::commands::analyze::AnalyzeArgs),
    /// What the games of results folders say about the game: each seat's
    /// advantage, the deck's share of the points and margins, game
    /// length, points by category per agent.
    Analyze(crate::commands::analyze_runs::AnalyzeRunsArgs),
    /// Check game records and print their scores as JSON.
    Replay(crate::commands::replay::ReplayArgs),
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

/// The rules options of every command that plays games (flattened into
/// `tournament`, `selfplay`, `play`, `improve`, `web` and `tune`).
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
            ArgError::Sprt => write!(f, "{}", tournament::run::config::SprtTextError),
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
        Ok(p) if engine::is_player_count(p) => Ok(p),
        Ok(p) => Err(ArgError::Players(p)),
        Err(e) => Err(ArgError::NotANumber(e)),
    }
}

/// Parse `--shard K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, ArgError> {
    s.parse().map_err(ArgError::Shard)
}

/// Parse `--sprt ELO0,ELO1` (α = β = 0.05;
/// [`tournament::run::config::parse_sprt`]).
pub fn parse_sprt(text: &str) -> Result<SprtSettings, ArgError> {
    tournament::run::config::parse_sprt(text).map_err(|_| ArgError::Sprt)
}

/// The rules of a command: `--rules`, then `--gifts` and `--no-farmers`
/// on top, validated again (`--gifts` may conflict with `hand`).
pub use tournament::run::config::combine_rules;

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
pub fn agents_long_help() -> String {
    let mut help = agents_help();
    help.push_str(
        "\n\nAgents and the defaults of their parameters (docs/agents.md has their \
         values; a bad value's error names its range):",
    );
    for kind in agents::registry::AGENTS {
        help.push_str(&format!("\n  {}", kind.name));
        if !kind.params.is_empty() {
            help.push_str(&format!(
                ": {}",
                agents::spec::params::defaults(kind.params)
            ));
        }
    }
    help
}

/// The help of `--agents`, with the agents this build knows.
pub fn agents_help() -> String {
    let names: Vec<&str> = agents::registry::AGENTS.iter().map(|k| k.name).collect();
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
            &["tune", "mcts", "--param", "c=0..1"],
        ] {
            let args = Args::try_parse_from([&["carcassonne"], command, &rules].concat())
                .unwrap_or_else(|e| panic!("{command:?}: {e}"));
            let options = match args.command {
                Some(Command::Tournament(t)) => t.game.rules,
                Some(Command::Selfplay(s)) => s.game.rules,
                Some(Command::Play(p)) => p.rules,
                Some(Command::Improve(i)) => i.rules,
                Some(Command::Web(w)) => w.rules,
                Some(Command::Tune(t)) => t.rules,
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
