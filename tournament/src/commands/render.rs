//! `carcassonne render`: the board of a recorded game after a turn, as
//! SVG or PNG ([`pictures::render`]).

use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne render`.
#[derive(Debug, Clone, ClapArgs)]
pub struct RenderArgs {
    /// A record file (`play`'s output, or records.jsonl with --game).
    pub record: PathBuf,
    /// The board after this many turns (default: the end).
    #[arg(long)]
    pub turn: Option<usize>,
    /// Which game of a JSON Lines file, numbered from 0 as the `game`
    /// column of games.csv (default: 0).
    #[arg(long)]
    pub game: Option<usize>,
    /// The picture: FILE.svg or FILE.png (default: RECORD with .svg).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// PNG pixels per tile (default 75).
    #[arg(long, value_name = "PIXELS")]
    pub tile_pixels: Option<u32>,
}

/// Draw the picture and say where it went.
pub fn run(args: RenderArgs, out: &mut Stdout) -> Result<()> {
    let written = pictures::render::render(
        &args.record,
        args.game,
        args.turn,
        args.out,
        args.tile_pixels,
    )?;
    out.print(&format!("wrote {}\n", written.display()))
}
