//! `carcassonne view`: a recorded game as one self-contained HTML page
//! ([`pictures::viewer`]).

use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne view`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ViewArgs {
    /// A record file (`play`'s output, or records.jsonl with --game).
    pub record: PathBuf,
    /// Which game of a JSON Lines file, numbered from 0 as the `game`
    /// column of games.csv (default: 0).
    #[arg(long)]
    pub game: Option<usize>,
    /// The page, FILE.html (default: RECORD with .html).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Add the analysis panel of this game's `analyze-game` JSON: the
    /// agent's top moves on the board, its evaluation and where the
    /// moves cost most (docs/analysis.md).
    #[arg(long, value_name = "FILE")]
    pub analysis: Option<PathBuf>,
}

/// Write the page and say where it went.
pub fn run(args: ViewArgs, out: &mut Stdout) -> Result<()> {
    let written =
        pictures::viewer::view_with(&args.record, args.game, args.out, args.analysis.as_deref())?;
    out.print(&format!("wrote {}\n", written.display()))
}
