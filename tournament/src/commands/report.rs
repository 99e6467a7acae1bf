//! `carcassonne report`: the HTML report of a results folder, or of an
//! `improve --net` run.

use crate::improve;
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;

/// Options of `carcassonne report`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ReportArgs {
    /// The results folder (run.json, summary.csv, pairwise.csv, games.csv).
    pub dir: PathBuf,
    /// The page (default: DIR/report.html).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Write the report and say where it went.
pub fn run(args: ReportArgs, out: &mut Stdout) -> Result<()> {
    let written = if tournament::improve::net::is_run(&args.dir) {
        improve::report(&args.dir, args.out)?
    } else {
        pictures::report::report(&args.dir, args.out)?
    };
    out.print(&format!("wrote {}\n", written.display()))
}
