//! The games of many results folders as one pool of pairwise
//! comparisons, each tagged with its deck group, for [`super::fit()`].
//!
//! Every folder is read through its run.json and games.csv (the readers
//! of [`crate::results::output`]) and checked against the first one:
//! folders of other rules, player counts or code revisions are refused
//! with one line naming both folders and the difference, never pooled
//! silently. A game of 3 to 6 players becomes one comparison per pair of
//! its seats held by different agents ([`crate::results::summary::comparisons`]: the
//! better-ranked seat wins it, equal ranks draw), so its comparisons are
//! not independent observations; [`super::fit()`]'s bootstrap resamples
//! whole deck groups for that reason.

use crate::results::output::{for_each_game, read_run_info};
use crate::results::schema::{GameRow, RunKind, RunStatus, GAMES_CSV, RUN_JSON};
use crate::results::summary::comparisons;
use engine::Rules;
use files::error::{Error, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One folder of a [`Pool`], as its run.json describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolFolder {
    /// The folder, canonical (absolute, symlinks resolved).
    pub dir: PathBuf,
    /// Seats per game.
    pub players: usize,
    /// The rules its games were played under.
    pub rules: Rules,
    /// run.json's `code_revision`.
    pub code_revision: String,
    /// A tournament or a self-play folder (one agent: it adds no
    /// comparisons).
    pub kind: RunKind,
    /// Complete games read from its games.csv.
    pub games: u64,
}

/// One comparison of two seats of a game (agents are indices into
/// [`Pool::agents`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The first seat's agent.
    pub a: u32,
    /// The second seat's agent.
    pub b: u32,
    /// 1, 0.5 or 0 for `a`.
    pub score_a: f64,
}

/// The comparisons of every game of some results folders, grouped by
/// deck: a group is every game of one folder on one `deck_seed` (a seat
/// rotation, and in a tournament of several pairings every pairing's
/// games on that tile order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pool {
    /// The folders, in the order given.
    pub folders: Vec<PoolFolder>,
    /// Agent labels as in games.csv (the spec, or `label=`), in order of
    /// first appearance: the first folder's agents in its plan's order
    /// first.
    pub agents: Vec<String>,
    /// Games each agent took part in (seats it held).
    pub seats: Vec<u64>,
    /// All comparisons, deck group after deck group.
    pub comparisons: Vec<Comparison>,
    /// `comparisons[deck_starts[d]..deck_starts[d + 1]]` is deck group
    /// `d`; one more entry than there are groups.
    pub deck_starts: Vec<usize>,
    /// What the caller should tell the user (a self-play folder, an
    /// unfinished run), one line each.
    pub warnings: Vec<String>,
}

impl Pool {
    /// Deck groups (the units the bootstrap resamples).
    pub fn decks(&self) -> usize {
        self.deck_starts.len().saturating_sub(1)
    }

    /// The comparisons of deck group `d`.
    pub fn deck(&self, d: usize) -> &[Comparison] {
        &self.comparisons[self.deck_starts[d]..self.deck_starts[d + 1]]
    }

    /// The index of agent `label`.
    pub fn agent(&self, label: &str) -> Option<usize> {
        self.agents.iter().position(|a| a == label)
    }

    /// The index of agent `label`, added if new.
    fn agent_index(&mut self, label: &str) -> u32 {
        match self.agent(label) {
            Some(i) => i as u32,
            None => {
                self.agents.push(label.to_string());
                self.seats.push(0);
                (self.agents.len() - 1) as u32
            }
        }
    }

    /// Count `game`'s seats and tag its comparisons with the deck group
    /// of `deck` (a folder and a deck seed), numbering new groups in
    /// order; `index` maps the folder's `labels` to agents.
    fn add_game(
        &mut self,
        game: &[GameRow],
        labels: &[String],
        index: &[u32],
        deck: (usize, u64),
        groups: &mut HashMap<(usize, u64), u32>,
        tagged: &mut Vec<(u32, Comparison)>,
    ) {
        for row in game {
            let i = labels
                .iter()
                .position(|l| *l == row.agent)
                .expect("checked");
            self.seats[index[i] as usize] += 1;
        }
        let next = groups.len() as u32;
        let group = *groups.entry(deck).or_insert(next);
        for c in comparisons(labels, game) {
            tagged.push((
                group,
                Comparison {
                    a: index[c.a],
                    b: index[c.b],
                    score_a: c.score_a,
                },
            ));
        }
    }
}

/// A folder's rules as one short phrase (`standard rules`, or the
/// `KEY=VALUE,…` that differ).
fn rules_text(rules: &Rules) -> String {
    let text = rules.to_string();
    if text.is_empty() {
        "standard rules".to_string()
    } else {
        format!("rules {text}")
    }
}

/// Why `dir` cannot be pooled, if it is not a results folder.
fn not_results(dir: &Path) -> Option<Error> {
    let what = if !dir.is_dir() {
        "no such folder"
    } else if dir.join("improve-net.json").exists() {
        "an improve --net run: give its gen-*/match and gen-*/gauntlet/anchor-* folders; \
         its generations.csv already holds this ladder's rating of every generation"
    } else if dir.join("improve.json").exists() {
        "an improve run: give its gen-*/match folders"
    } else if !dir.join(RUN_JSON).is_file() {
        "no run.json"
    } else if !dir.join(GAMES_CSV).is_file() {
        "no games.csv"
    } else {
        return None;
    };
    Some(Error::Folder(format!(
        "{} is not a results folder ({what})",
        dir.display()
    )))
}

/// The refusal to pool `b` with `a`, if they differ in player count,
/// rules or (unless `allow_revisions`) code revision.
fn mismatch(a: &PoolFolder, b: &PoolFolder, allow_revisions: bool) -> Option<Error> {
    let (x, y) = (a.dir.display(), b.dir.display());
    let why = if a.players != b.players {
        format!(
            "{x} has {}-player games and {y} {}-player games",
            a.players, b.players
        )
    } else if a.rules != b.rules {
        format!(
            "{x} was played under {} and {y} under {}",
            rules_text(&a.rules),
            rules_text(&b.rules)
        )
    } else if a.code_revision != b.code_revision && !allow_revisions {
        format!(
            "{x} was played by code revision {} and {y} by code revision {} \
             (--allow-revisions pools them deliberately)",
            a.code_revision, b.code_revision
        )
    } else {
        return None;
    };
    Some(Error::Folder(format!("cannot pool: {why}")))
}

/// Read the games of the results folders `dirs` into one [`Pool`].
///
/// Accepts tournaments, SPRT runs, shards and merged folders, `improve`
/// match folders and self-play folders (these add no comparisons: a
/// warning says so). A run still going or interrupted contributes its
/// complete games (a warning says so).
///
/// # Errors
/// One line each: a folder that is not a results folder or is given
/// twice, a games.csv that does not parse or names an agent its run.json
/// does not plan, or two folders of different rules, player counts or
/// (unless `allow_revisions`) code revisions.
pub fn load_games(dirs: &[PathBuf], allow_revisions: bool) -> Result<Pool> {
    let mut pool = Pool::default();
    // (folder, deck_seed) → deck group, and each comparison's group.
    let mut groups: HashMap<(usize, u64), u32> = HashMap::new();
    let mut tagged: Vec<(u32, Comparison)> = Vec::new();
    for dir in dirs {
        if let Some(e) = not_results(dir) {
            return Err(e);
        }
        let canonical = dir.canonicalize().map_err(|e| Error::io("read", dir, e))?;
        if let Some(same) = pool.folders.iter().find(|f| f.dir == canonical) {
            return Err(Error::Invalid(format!(
                "{} is given twice (as {})",
                dir.display(),
                same.dir.display()
            )));
        }
        let info = read_run_info(dir)?;
        let path = dir.join(GAMES_CSV);
        let settings = &info.settings;
        let labels = &info.plan.agents;
        let players = settings.players;
        let mut folder = PoolFolder {
            dir: canonical,
            players,
            rules: settings.rules,
            code_revision: info.code_revision.clone(),
            kind: settings.kind,
            games: 0,
        };
        if let Some(first) = pool.folders.first() {
            if let Some(e) = mismatch(first, &folder, allow_revisions) {
                return Err(e);
            }
        }
        let f = pool.folders.len();
        let compares = !settings.kind.is_selfplay() && labels.len() >= 2;
        // Each label's agent in the pool (a self-play folder adds none).
        let index: Vec<u32> = if compares {
            labels.iter().map(|label| pool.agent_index(label)).collect()
        } else {
            Vec::new()
        };
        // The games stream by (bounded memory); a game shorter than its
        // seats is left out if it is the last (being written, or cut by a
        // kill), refused otherwise.
        let mut short: Option<(u64, usize, usize)> = None;
        for_each_game(dir, |game, line| {
            if let Some((g, len, at)) = short {
                return Err(short_game(&path, g, len, players, at));
            }
            if let Some((k, row)) = game
                .iter()
                .enumerate()
                .find(|(_, r)| !labels.contains(&r.agent))
            {
                return Err(Error::content(
                    &path,
                    Some(line + k),
                    format!("agent {:?} is not in run.json's plan", row.agent),
                ));
            }
            if game.len() > players {
                return Err(short_game(&path, game[0].game, game.len(), players, line));
            }
            if game.len() < players {
                short = Some((game[0].game, game.len(), line));
                return Ok(());
            }
            folder.games += 1;
            if compares {
                pool.add_game(
                    game,
                    labels,
                    &index,
                    (f, game[0].deck_seed),
                    &mut groups,
                    &mut tagged,
                );
            }
            Ok(())
        })?;
        if matches!(info.status, RunStatus::Running | RunStatus::Interrupted) {
            pool.warnings.push(format!(
                "{} is not finished (status {}): its {} complete games are used",
                dir.display(),
                info.status,
                folder.games
            ));
        }
        if !compares {
            pool.warnings.push(format!(
                "{} is self-play (one agent): it adds no comparisons",
                dir.display()
            ));
        }
        pool.folders.push(folder);
    }
    // Deck group after deck group (stable: game order within a group).
    tagged.sort_by_key(|&(group, _)| group);
    pool.deck_starts.push(0);
    for (i, &(group, c)) in tagged.iter().enumerate() {
        if i > 0 && tagged[i - 1].0 != group {
            pool.deck_starts.push(i);
        }
        pool.comparisons.push(c);
    }
    if tagged.is_empty() {
        pool.deck_starts.clear();
    } else {
        pool.deck_starts.push(tagged.len());
    }
    Ok(pool)
}

/// The one-line error of a game with `len` rows in a game of `players`
/// seats, at `line`.
fn short_game(path: &Path, game: u64, len: usize, players: usize, line: usize) -> Error {
    Error::content(
        path,
        Some(line),
        format!("game {game} has {len} rows, not {players}"),
    )
}
