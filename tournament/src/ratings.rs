//! `carcassonne ratings`: one rating ladder over the games of any number
//! of results folders, printed, and with `--out` written as a ladder
//! folder (`ratings.csv`, `headtohead.csv`, `ratings.html`,
//! `ladder.json`) that `--update` refits with more folders. The work is
//! [`tournament::ratings`]'s; this module only wires the command line.

use clap::Args as ClapArgs;
use files::error::{Error, Result};
use files::stdio::{warn, Stdout};
use std::path::{Path, PathBuf};
use tournament::ratings::output::{read_ladder_info, write_ladder, LadderInfo, LADDER_FORMAT};
use tournament::ratings::{fit, load_games, Anchor, Ladder, DEFAULT_BOOTSTRAP};
use tournament::run::lock::FolderLock;

/// The options of `carcassonne ratings`.
#[derive(Debug, Clone, ClapArgs)]
pub struct RatingsArgs {
    /// Results folders (tournaments, SPRT runs, merged shards, improve
    /// matches); with --update, the folders to add.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The agent whose rating is fixed, as LABEL=ELO (split at the last
    /// `=`: `mcts:iterations=500=1200`). Default: the first agent of the
    /// first folder at 0.
    #[arg(long, value_name = "SPEC=ELO", value_parser = parse_anchor)]
    pub anchor: Option<Anchor>,
    /// Bootstrap resamples of deck groups for the 95% intervals
    /// (default 200; 0: no intervals).
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// The bootstrap's seed (default 1).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Write the ladder folder (new, or empty).
    #[arg(long, value_name = "LADDER_DIR")]
    pub out: Option<PathBuf>,
    /// Add the folders to the ladder folder LADDER_DIR and refit it with
    /// its stored anchor, seed and bootstrap.
    #[arg(long, value_name = "LADDER_DIR", conflicts_with_all = ["anchor", "bootstrap", "seed", "out"])]
    pub update: Option<PathBuf>,
    /// Pool folders played by different code revisions.
    #[arg(long)]
    pub allow_revisions: bool,
}

/// Parse `--anchor LABEL=ELO`, split at the last `=`.
pub fn parse_anchor(text: &str) -> std::result::Result<Anchor, String> {
    let (agent, elo) = text
        .rsplit_once('=')
        .filter(|(agent, _)| !agent.is_empty())
        .ok_or("expected SPEC=ELO, e.g. greedy=0")?;
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .ok_or_else(|| format!("{elo:?} is not a rating (expected SPEC=ELO, e.g. greedy=0)"))?;
    Ok(Anchor {
        agent: agent.to_string(),
        elo,
    })
}

/// Run `carcassonne ratings`.
///
/// # Errors
/// As [`load_games`], [`fit()`] and the ladder folder's writes say, one
/// line each; nothing is written then.
pub fn ratings(args: &RatingsArgs, out: &mut Stdout) -> Result<()> {
    match &args.update {
        Some(ladder_dir) => update(ladder_dir, args, out),
        None => new_ladder(args, out),
    }
}

/// Fit `folders` and print the ladder (warnings on stderr).
fn fit_folders(
    folders: &[PathBuf],
    anchor: Option<&Anchor>,
    bootstrap: usize,
    seed: u64,
    allow_revisions: bool,
    out: &mut Stdout,
) -> Result<(Ladder, Vec<PathBuf>)> {
    let pool = load_games(folders, allow_revisions)?;
    for w in &pool.warnings {
        warn(&format!("carcassonne: {w}"));
    }
    let ladder = fit(
        &pool,
        anchor.map(|a| (a.agent.as_str(), a.elo)),
        bootstrap,
        seed,
    )?;
    out.print(&ladder.table())?;
    Ok((ladder, pool.folders.into_iter().map(|f| f.dir).collect()))
}

/// The ladder.json of `ladder`.
fn info(ladder: &Ladder, folders: Vec<PathBuf>, allow_revisions: bool) -> LadderInfo {
    LadderInfo {
        format: LADDER_FORMAT.to_string(),
        folders,
        anchor: ladder.anchor.clone(),
        bootstrap: ladder.bootstrap,
        seed: ladder.seed,
        allow_revisions,
        agents: ladder.ratings.len(),
        decks: ladder.decks,
        fitted_at: tournament::results::meta::rfc3339(std::time::SystemTime::now()),
    }
}

/// Write the ladder folder (the caller holds its lock).
fn write(lock: &FolderLock, info: &LadderInfo, ladder: &Ladder, out: &mut Stdout) -> Result<()> {
    let html = pictures::ladder::page(ladder, info)?;
    write_ladder(lock, info, ladder, Some(&html))?;
    out.print(&format!("wrote {}\n", lock.dir().display()))
}

fn new_ladder(args: &RatingsArgs, out: &mut Stdout) -> Result<()> {
    if let Some(dir) = &args.out {
        if dir.join(tournament::ratings::output::LADDER_JSON).exists() {
            return Err(Error::Invalid(format!(
                "--out {0}: a ladder already; add folders to it with --update {0} DIR…",
                dir.display()
            )));
        }
        tournament::run::config::check_new_folder(dir, "--out")?;
    }
    let (ladder, folders) = fit_folders(
        &args.dirs,
        args.anchor.as_ref(),
        args.bootstrap.unwrap_or(DEFAULT_BOOTSTRAP),
        args.seed.unwrap_or(1),
        args.allow_revisions,
        out,
    )?;
    if let Some(dir) = &args.out {
        let (_, lock) = tournament::run::tournament::claim_folder(dir, false)?;
        write(
            &lock,
            &info(&ladder, folders, args.allow_revisions),
            &ladder,
            out,
        )?;
    }
    Ok(())
}

fn update(dir: &Path, args: &RatingsArgs, out: &mut Stdout) -> Result<()> {
    read_ladder_info(dir)?;
    let lock = FolderLock::acquire(dir)?;
    let stored = read_ladder_info(dir)?;
    let mut folders = stored.folders.clone();
    for new in &args.dirs {
        let canonical = new.canonicalize().map_err(|e| Error::io("read", new, e))?;
        if folders.contains(&canonical) {
            return Err(Error::Invalid(format!(
                "{} is already in the ladder {}",
                new.display(),
                dir.display()
            )));
        }
        folders.push(canonical);
    }
    let allow_revisions = stored.allow_revisions || args.allow_revisions;
    let (ladder, folders) = fit_folders(
        &folders,
        Some(&stored.anchor),
        stored.bootstrap,
        stored.seed,
        allow_revisions,
        out,
    )?;
    write(
        &lock,
        &info(&ladder, folders, allow_revisions),
        &ladder,
        out,
    )
}
