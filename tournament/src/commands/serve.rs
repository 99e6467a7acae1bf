//! `carcassonne serve`: an agent as a carcassonne-bot/1 bot on stdin and
//! stdout ([`protocol::serve`]).

use clap::Args as ClapArgs;
use files::error::Result;

/// Options of `carcassonne serve`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ServeArgs {
    /// The agent's spec.
    pub spec: String,
}

/// Serve until the other side ends the session.
pub fn run(args: &ServeArgs) -> Result<()> {
    let stdin = std::io::stdin().lock();
    protocol::serve::serve(&args.spec, stdin, std::io::stdout().lock())?;
    Ok(())
}
