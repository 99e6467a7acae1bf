//! `carcassonne merge`: the folders of `--shard` runs combined into the
//! results of one run, with its report.

use crate::run_report;
use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `carcassonne merge`.
#[derive(Debug, Clone, ClapArgs)]
pub struct MergeArgs {
    /// The shard folders (all shards of one tournament, any order).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The folder to write (must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
}

/// Merge the shards and print the run's summary.
pub fn run(args: &MergeArgs, out: &mut Stdout) -> Result<ExitCode> {
    let merged = tournament::run::merge::merge(&args.dirs, &args.out)?;
    let report = run_report::with_report(merged)?;
    out.print(&report.text())?;
    Ok(super::forfeit_code(&report))
}
