//! `carcassonne web`: play against the agents in a browser, or watch a
//! tournament folder live (`--watch`).
//!
//! - [`server`]: the HTTP server (hyper on a single-threaded tokio
//!   runtime) and its limits: head, body, time, connections, work.
//! - [`pool`]: the fixed pool of worker threads that answer requests.
//! - [`guard`]: who may ask (Host, Origin, the server's secret token).
//! - [`routes`]: the requests it answers, as a function tests call
//!   in-process.
//! - [`session`]: one game of a person against agents, step by step.
//! - [`hints`]: `--hints`: the analysing agent's top moves for the
//!   person, and the person's moves analysed after the game.
//! - [`seat_json`]: what the page learns: the person's seat view as JSON.
//! - [`assets`]: the page, its style and script (embedded).
//! - [`watch`]: a tournament folder's progress, table and Elo, live.

pub mod assets;
pub mod guard;
pub mod hints;
pub mod pool;
pub mod routes;
pub mod seat_json;
pub mod server;
pub mod session;
pub mod watch;

use engine::Rules;
use files::error::{Error, Result};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
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
    /// default: a random 64-bit seed from the system for each game).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Port (0: any free port).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Address to listen on (only this machine by default; any other
    /// address lets other machines play, and is warned about).
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
    /// Offer hints: a Hint button on the person's turn shows this agent's
    /// top three moves for the person's seat (from what that seat may
    /// see), counted in the saved record; after the game the person's
    /// moves are analysed by it. Without a spec: mcts:iterations=20000.
    #[arg(long, value_name = "SPEC", num_args = 0..=1, default_missing_value = hints::DEFAULT_AGENT)]
    pub hints: Option<String>,
    /// Seconds without a request after which a tab's game ends.
    #[arg(long, default_value_t = 600, hide = true)]
    pub idle: u64,
}

/// The checked settings of the server.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The agents for the seats other than the person's, parsed once.
    pub agents: session::WebAgents,
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
    /// The analysing agent of `--hints` (`None`: no hints).
    pub hints: Option<agents::Factory>,
}

impl WebConfig {
    /// Check `args`.
    ///
    /// # Errors
    /// A spec that builds no agent, a seat count out of 2–6, rules that
    /// cannot go together, a watched folder that is not one.
    pub fn from_args(args: &WebArgs) -> Result<WebConfig> {
        let agents = session::WebAgents::parse(split_agents(&args.agents))?;
        let players = args.players.unwrap_or(agents.specs().len() as u64 + 1);
        if !engine::is_player_count(players) {
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
        let hints = match &args.hints {
            Some(spec) => Some(
                agents::Factory::new(spec)
                    .map_err(|e| Error::Invalid(format!("--hints {spec}: {e}")))?,
            ),
            None => None,
        };
        Ok(WebConfig {
            hints,
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
    let server = server::Server::bind(routes::App::new(config)?, &args.host, args.port)?;
    let addr = server.addr();
    let url = page_url(addr);
    if let Some(warning) = exposure_warning(addr) {
        eprintln!("{warning}");
    }
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

/// The address to open for a server bound to `addr`: its own, or over
/// loopback when it listens on every interface (IPv6 in brackets).
pub fn page_url(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}:{}/", guard::url_host(ip), addr.port())
}

/// The warning for a server that other machines can reach (`None` on
/// loopback).
pub fn exposure_warning(addr: SocketAddr) -> Option<String> {
    let ip = addr.ip();
    if ip.is_loopback() || ip.to_canonical().is_loopback() {
        return None;
    }
    let reach = if ip.is_unspecified() {
        "every network interface of this machine: anyone on a network it is on".to_string()
    } else {
        format!("{ip}: anyone who can reach that address")
    };
    Some(format!(
        "carcassonne web: warning: listening on {reach} can open the page, start games and the \
         --agents' bot processes (other machines use this machine's address and port {})",
        addr.port()
    ))
}

#[cfg(test)]
mod tests;
