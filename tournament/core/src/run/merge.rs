//! `carcassonne merge`: combine the folders of a sharded run into the
//! folder one unsharded run would have written.
//!
//! The shards must be all `N` shards of the same settings and code
//! revision, each finished; each shard's records are checked against its
//! games.csv, and the new folder is locked ([`crate::run::lock`]) while written.
//! Game `g` comes from shard `g % N + 1`, so walking the game indices in
//! order and taking the next game of the right shard rebuilds `games.csv`
//! (and `records.jsonl`, and a self-play run's `positions.csv`) in game order; the summaries are then computed
//! from those rows exactly as a single run computes them. The training
//! examples of self-play (`examples/`, one file per game) are copied; a
//! file name found in two shards (a clash) is refused before anything is
//! written.

use crate::learning::shards::EXAMPLES_DIR;
use crate::results::output::{write_run_info, write_summaries, GamesWriter};
use crate::results::schema::{GameRow, RunInfo, RunStatus};
use crate::results::summary::{games, summarize};
use crate::run::config::check_new_folder;
use crate::run::tournament::{load_games, new_run_info, schedule_of, RunReport};
use files::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One shard folder, read.
struct ShardFolder {
    dir: PathBuf,
    info: RunInfo,
    rows: Vec<GameRow>,
    records: Vec<String>,
    /// positions.csv lines (self-play).
    positions: Vec<String>,
}

/// The example shards (`examples/game-NNNNNNN.safetensors.gz`, self-play
/// of a searching agent) of every shard folder, by file name.
///
/// # Errors
/// The same file name in two shard folders (a clash: the merged folder
/// would lose one), or a game that another shard plays.
fn example_files(shards: &[ShardFolder], count: u64) -> Result<BTreeMap<String, PathBuf>> {
    let mut files: BTreeMap<String, PathBuf> = BTreeMap::new();
    for s in shards {
        let dir = s.dir.join(EXAMPLES_DIR);
        if !dir.is_dir() {
            continue;
        }
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::io("read", &dir, e))?;
        for entry in entries {
            let path = entry.map_err(|e| Error::io("read", &dir, e))?.path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .map(str::to_string)
            else {
                continue;
            };
            if !crate::learning::shards::is_shard_name(&name) {
                continue;
            }
            let index = s.info.settings.shard.map_or(1, |x| x.index);
            let game = crate::learning::shards::shard_game(&name);
            if let Some(g) = game.filter(|g| g % count + 1 != index) {
                return Err(Error::Folder(format!(
                    "{}: game {g} belongs to shard {}/{count}, not to this shard {index}/{count}",
                    path.display(),
                    g % count + 1
                )));
            }
            if let Some(other) = files.insert(name.clone(), path.clone()) {
                return Err(Error::Folder(format!(
                    "examples clash: {name} is in both {} and {}",
                    other.display(),
                    path.display()
                )));
            }
        }
    }
    Ok(files)
}

/// Copy the example shards `files` into `out/examples/` (each through a
/// temporary file and a rename).
fn copy_examples(files: &BTreeMap<String, PathBuf>, out: &Path) -> Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    let dir = out.join(EXAMPLES_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, e))?;
    for (name, from) in files {
        let to = dir.join(name);
        let tmp = to.with_extension("tmp");
        std::fs::copy(from, &tmp).map_err(|e| Error::io("copy", from, e))?;
        std::fs::rename(&tmp, &to).map_err(|e| Error::io("write", &to, e))?;
    }
    Ok(())
}

/// Merge the shard folders `dirs` into the new folder `out`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<RunReport> {
    check_new_folder(out, "--out")?;
    let mut shards: Vec<ShardFolder> = Vec::new();
    for dir in dirs {
        let info = crate::results::output::read_run_info(dir)?;
        info.settings
            .validate()
            .map_err(|e| Error::Folder(format!("{}: run.json: {e}", dir.display())))?;
        let Some(shard) = info.settings.shard else {
            return Err(Error::Folder(format!(
                "{} is not a shard (no --shard in its run.json)",
                dir.display()
            )));
        };
        let (schedule, labels) = schedule_of(&info.settings);
        let (rows, records) = load_games(dir, &info, &schedule, &labels)?;
        let positions = if info.settings.kind.is_selfplay() {
            crate::learning::positions::load(dir, &rows)?
        } else {
            Vec::new()
        };
        let finished = rows.len() as u64 / info.settings.players as u64;
        if finished != schedule.planned_games() {
            return Err(Error::Folder(format!(
                "{}: shard {}/{} has {finished} of its {} games (resume it first)",
                dir.display(),
                shard.index,
                shard.count,
                schedule.planned_games()
            )));
        }
        shards.push(ShardFolder {
            dir: dir.clone(),
            info,
            rows,
            records,
            positions,
        });
    }
    let first = &shards[0];
    let mut settings = first.info.settings.clone();
    settings.shard = None;
    let count = first.info.settings.shard.map_or(1, |s| s.count);
    if let Some(other) = shards
        .iter()
        .find(|s| s.info.code_revision != first.info.code_revision)
    {
        return Err(Error::Folder(format!(
            "{} was played by code revision {} and {} by {}: shards of different code \
             may play different games; rerun them with one build",
            first.dir.display(),
            first.info.code_revision,
            other.dir.display(),
            other.info.code_revision
        )));
    }
    // Shard index → folder; a map, so that a run.json claiming a huge
    // shard count allocates nothing.
    let mut by_index: std::collections::BTreeMap<u64, usize> = Default::default();
    for (i, s) in shards.iter().enumerate() {
        let mut other = s.info.settings.clone();
        let shard = other.shard.take().expect("checked above");
        if other != settings || shard.count != count {
            return Err(Error::Folder(format!(
                "{} is a shard of a different tournament than {}",
                s.dir.display(),
                first.dir.display()
            )));
        }
        if let Some(j) = by_index.insert(shard.index, i) {
            return Err(Error::Folder(format!(
                "shard {}/{count} given twice ({} and {})",
                shard.index,
                shards[j].dir.display(),
                s.dir.display()
            )));
        }
    }
    if let Some(k) = (1..=count).find(|k| !by_index.contains_key(k)) {
        return Err(Error::Folder(format!("shard {k}/{count} is missing")));
    }

    let examples = example_files(&shards, count)?;
    let (schedule, labels) = schedule_of(&settings);
    let p = settings.players;
    let mut per_shard: Vec<_> = by_index
        .values()
        .map(|&i| {
            let s = &shards[i];
            (
                games(&s.rows).collect::<Vec<_>>().into_iter(),
                s.records.iter(),
                s.positions.iter().peekable(),
            )
        })
        .collect();
    let (_, _lock) = crate::run::tournament::claim_folder(out, false)?;
    let mut writer = GamesWriter::create(out, settings.records)?;
    if settings.kind.is_selfplay() {
        writer = writer.with_positions(out, None)?;
    }
    let mut rows = Vec::with_capacity(schedule.total_games() as usize * p);
    for g in schedule.indices() {
        let (games, records, positions) = &mut per_shard[(g % count) as usize];
        let game = games.next().expect("shards are complete");
        debug_assert_eq!(game[0].game, g);
        let mut lines = String::new();
        while let Some(line) =
            positions.next_if(|l| crate::learning::positions::game_of(l) == Some(g))
        {
            lines.push_str(line);
            lines.push('\n');
        }
        writer.append_positions(&lines)?;
        writer.append(game, records.next().map(String::as_str))?;
        rows.extend_from_slice(game);
    }
    drop(writer);
    copy_examples(&examples, out)?;
    let (summary, pairwise) = summarize(&labels, &rows);
    write_summaries(out, &summary, &pairwise)?;

    let mut info = new_run_info(&settings, shards.iter().map(|s| s.info.threads).sum());
    info.status = RunStatus::Finished;
    info.games_finished = schedule.total_games();
    info.code_revision = first.info.code_revision.clone();
    info.versions = first.info.versions.clone();
    info.start_time = shards
        .iter()
        .map(|s| s.info.start_time.clone())
        .min()
        .unwrap_or_default();
    info.end_time = shards.iter().filter_map(|s| s.info.end_time.clone()).max();
    info.resumed_at = vec![];
    info.elapsed_s = None;
    info.merged_from = shards.iter().map(|s| s.dir.display().to_string()).collect();
    write_run_info(out, &info)?;
    Ok(RunReport {
        dir: out.to_path_buf(),
        info,
        summary,
        forfeits: crate::results::summary::forfeits_of(&labels, &rows),
        report: None,
    })
}
