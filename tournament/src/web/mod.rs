//! `carcassonne web`: play against the agents in a browser, or watch a
//! tournament folder live (`--watch`).
//!
//! - [`server`]: the HTTP server (tiny_http, a thread per request).
//! - [`routes`]: the requests it answers, as a function tests call
//!   in-process.
//! - [`session`]: one game of a person against agents, step by step.
//! - [`seat_json`]: what the page learns: the person's seat view as JSON.
//! - [`assets`]: the page, its style and script (embedded).
//! - [`watch`]: a tournament folder's progress, table and Elo, live.

pub mod assets;
pub mod routes;
pub mod seat_json;
pub mod server;
pub mod session;
pub mod watch;

use engine::Rules;
use files::error::{Error, Result};
use std::path::PathBuf;
use std::time::Duration;
use tournament::run::agent_list::split_agents;

/// The options of `carcassonne web`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct WebArgs {
    /// The agents the person plays against, in seat order after the
    /// person's seat (same splitting rule as `tournament`; they repeat to
    /// fill the seats).
    #[arg(long, value_name = "SPECS", default_value = "random")]
    pub agents: Vec<String>,
    /// Seats, 2–6, the person's included (default: the agents + 1).
    #[arg(long, value_parser = crate::cli::parse_players)]
    pub players: Option<u64>,
    /// The rules: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: crate::cli::RulesArgs,
    /// Deck seed of the first game (the next games count up from it;
    /// default: a random one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Port (0: any free port).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Address to listen on (only this machine by default).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
    /// Folder of the games' records.
    #[arg(long, default_value = "results/web")]
    pub out: PathBuf,
    /// Show this tournament folder live instead of playing.
    #[arg(long, value_name = "DIR")]
    pub watch: Option<PathBuf>,
    /// Seconds without a request after which a tab's game ends.
    #[arg(long, default_value_t = 600, hide = true)]
    pub idle: u64,
}

/// The checked settings of the server.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Agent specs for the seats other than the person's.
    pub agents: Vec<String>,
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub rules: Rules,
    /// Seed of the first game.
    pub seed: Option<u64>,
    /// Where records are saved.
    pub out: PathBuf,
    /// A tournament folder to watch.
    pub watch: Option<PathBuf>,
    /// How long a quiet tab's game is kept.
    pub idle: Duration,
}

impl WebConfig {
    /// Check `args`.
    ///
    /// # Errors
    /// A spec that builds no agent, a seat count out of 2–6, rules that
    /// cannot go together, a watched folder that is not one.
    pub fn from_args(args: &WebArgs) -> Result<WebConfig> {
        let agents = split_agents(&args.agents);
        if agents.is_empty() {
            return Err(Error::Invalid(
                "--agents: give at least one agent".to_string(),
            ));
        }
        for spec in &agents {
            tournament::run::roster::check_spec(spec)
                .map_err(|e| Error::Invalid(format!("--agents: {e}")))?;
        }
        let players = args.players.unwrap_or(agents.len() as u64 + 1);
        if !(2..=6).contains(&players) {
            return Err(Error::Invalid(format!(
                "--players must be 2 to 6, not {players}"
            )));
        }
        let rules = args.rules.rules()?;
        if let Some(dir) = &args.watch {
            if !dir.is_dir() {
                return Err(Error::Invalid(format!(
                    "--watch {}: not a folder",
                    dir.display()
                )));
            }
        }
        if args.out.exists() && !args.out.is_dir() {
            return Err(Error::Invalid(format!(
                "--out {}: not a folder",
                args.out.display()
            )));
        }
        Ok(WebConfig {
            agents,
            players: players as usize,
            rules,
            seed: args.seed,
            out: args.out.clone(),
            watch: args.watch.clone(),
            idle: Duration::from_secs(args.idle.max(1)),
        })
    }
}

/// `carcassonne web`: serve until killed.
///
/// # Errors
/// Bad options, or an address that cannot be bound.
pub fn web(args: &WebArgs) -> Result<()> {
    let config = WebConfig::from_args(args)?;
    let server = server::Server::bind(routes::App::new(config), &args.host, args.port)?;
    let addr = server.addr();
    let host = if addr.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        addr.ip().to_string()
    };
    let url = format!("http://{host}:{}/", addr.port());
    // Never a panic on a closed stdout (`carcassonne web | head -1`): the
    // server goes on.
    let _ = files::stdio::Stdout::new().print(&format!(
        "carcassonne web: open {url} (Ctrl-C stops the server)\n"
    ));
    if args.open {
        // The system's own opener; a failure leaves the URL printed above.
        let _ = std::process::Command::new("xdg-open")
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
    server.run();
    Ok(())
}

#[cfg(test)]
mod tests;
