//! `carcassonne replay`: check game records and print their scores as
//! JSON, one line each; every bad record reported.

use clap::Args as ClapArgs;
use files::error::{Error, Result};
use files::stdio::{warn, Stdout};
use std::path::PathBuf;

/// Options of `carcassonne replay`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ReplayArgs {
    /// A record file: one JSON object, or JSON Lines.
    pub file: PathBuf,
    /// Score a position as if the game ended after its last turn.
    #[arg(long)]
    pub end: bool,
}

/// Replay every record; an error counting the bad ones if any.
pub fn run(args: &ReplayArgs, out: &mut Stdout) -> Result<()> {
    let mut failed = 0;
    let results = tournament::results::replay::replay_file(&args.file, args.end);
    let total = results.len();
    for result in results {
        if out.closed() {
            // The reader has gone (`| head`): nothing more to say.
            return Ok(());
        }
        match result {
            Ok(r) => {
                let json = serde_json::to_string(&r).map_err(|e| Error::Internal(e.to_string()))?;
                out.print(&format!("{json}\n"))?;
            }
            Err(e) => {
                warn(&format!("carcassonne: {e}"));
                failed += 1;
            }
        }
    }
    if failed > 0 {
        return Err(Error::Replay { failed, total });
    }
    Ok(())
}
