//! Training examples of the `az` network from self-play
//! (`carcassonne selfplay --agent az:…`): every decision the agent
//! searched — its position, the search's visit shares over the legal
//! actions (or the policy the search gives as its target:
//! `az:root=gumbel`'s improved policy) — and, once the game is over, its
//! outcome for every seat. The fast searches of playout cap randomisation
//! (`az:cap_full=`) are not recorded.
//!
//! Each game's examples go to `examples/game-NNNNNNN.safetensors.gz` in
//! the run folder (gzip-compressed safetensors, about 65 KB a game instead
//! of 1.8 MB; docs/neural.md has the arrays), written before the game's
//! row of games.csv, so a resumed run has exactly the examples of the
//! games it lists. Decisions without a search (a forced move, or an agent
//! that does not search) are not recorded. Every legal action is
//! recorded: those the search did not try (`mcts` widens progressively)
//! with no visits.

use agents::neural::data::{Dataset, GameRecorder};
use agents::{Decision, Observer};
use engine::{Action, SeatView};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use super::shards::{is_shard_name, shard_game, shard_path, EXAMPLES_DIR, SHARD_EXTENSION};

/// One game's recorder, shared by its seats.
pub type Shared = Arc<Mutex<GameRecorder>>;

/// Records each searched decision of the agent it observes (wrap the
/// agent in an [`agents::Observed`] with it).
pub struct ExampleRecorder {
    log: Shared,
}

impl ExampleRecorder {
    /// Record into `log`.
    pub fn new(log: Shared) -> ExampleRecorder {
        ExampleRecorder { log }
    }
}

impl Observer for ExampleRecorder {
    fn decided(&mut self, view: &SeatView<'_>, decision: &Decision) {
        let Some(search) = &decision.search else {
            return;
        };
        // The fast searches of playout cap randomisation are played, not
        // learned from.
        if search.root_visits.is_empty() || !search.full {
            return;
        }
        let visits = &search.root_visits;
        let mut actions: Vec<Action> = visits.iter().map(|(a, _)| *a).collect();
        // The search's own policy target (`az:root=gumbel`'s improved
        // policy) if it gives one, else the visit counts.
        let mut counts: Vec<f32> = match &search.policy {
            Some(policy) if policy.len() == visits.len() => policy.clone(),
            _ => visits.iter().map(|(_, n)| *n as f32).collect(),
        };
        // A search that widens progressively (`mcts`) reports only the
        // actions it expanded: the legal actions it never tried are
        // recorded with no visits, so the policy learns to avoid them too.
        view.for_each_action(|a| {
            if !actions.contains(&a) {
                actions.push(a);
                counts.push(0.0);
            }
        });
        self.log.lock().unwrap_or_else(|e| e.into_inner()).record(
            view,
            &actions,
            &counts,
            search.root_value,
        );
    }
}

/// The examples of a finished game: its recorder's positions with the
/// final scores (absolute seat order), as game `game`.
pub fn finish(log: &Shared, scores: &[engine::Score], game: u64) -> Dataset {
    let recorder = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
    let mut data = Dataset::default();
    recorder.finish(scores, game as u32, &mut data);
    data
}

/// Why a game's examples were not written (one line naming the file or
/// folder).
#[derive(Debug)]
pub enum WriteError {
    /// The examples folder could not be created.
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The shard could not be written (the file and why).
    Shard(agents::neural::FileError),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Folder { path, source } => write!(f, "{}: {source}", path.display()),
            WriteError::Shard(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Write game `game`'s examples into run folder `dir`, with `metadata`.
///
/// # Errors
/// One line naming the file when it cannot be written.
pub fn write(
    dir: &Path,
    game: u64,
    data: &Dataset,
    metadata: HashMap<String, String>,
) -> Result<(), WriteError> {
    let folder = dir.join(EXAMPLES_DIR);
    std::fs::create_dir_all(&folder).map_err(|source| WriteError::Folder {
        path: folder.clone(),
        source,
    })?;
    data.write(&shard_path(dir, game), metadata)
        .map_err(WriteError::Shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::SearchStats;
    use engine::{Rules, Seat, State};

    /// A decision of the first move with `stats`-like search statistics.
    fn decision(
        actions: &[Action],
        policy: Option<Vec<f32>>,
        full: bool,
        root_value: Option<f64>,
    ) -> Decision {
        Decision::searched(
            actions[0],
            SearchStats {
                root_visits: actions.iter().map(|&a| (a, 1)).collect(),
                iterations: actions.len() as u32,
                value: 0.0,
                policy,
                full,
                root_value,
                root_values: Vec::new(),
            },
        )
    }

    #[test]
    fn shard_names_old_and_new() {
        let path = shard_path(Path::new("run"), 12);
        assert_eq!(path, Path::new("run/examples/game-0000012.safetensors.gz"));
        assert_eq!(shard_game("game-0000012.safetensors.gz"), Some(12));
        assert_eq!(shard_game("game-0000012.safetensors"), Some(12));
        assert_eq!(shard_game("game-x.safetensors.gz"), None);
        assert_eq!(shard_game("net.safetensors"), None);
        assert!(is_shard_name("game-0000012.safetensors.gz") && is_shard_name("a.safetensors"));
        assert!(!is_shard_name("game-0000012.safetensors.gz.tmp") && !is_shard_name("a.gz"));
    }

    #[test]
    fn only_full_searches_become_examples_with_their_values_and_a_given_policy_is_the_target() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(1);
        while state.is_chance() {
            state.apply_chance(&mut rng);
        }
        let actions = state.legal_actions();
        assert!(actions.len() > 2);
        let view = state.view(Seat(0));
        let log: Shared = Arc::default();
        let mut recorder = ExampleRecorder::new(Arc::clone(&log));
        // A fast search of playout cap randomisation: nothing.
        recorder.decided(&view, &decision(&actions, None, false, Some(0.9)));
        assert_eq!(log.lock().unwrap().len(), 0);
        // Full searches: one example each.
        recorder.decided(&view, &decision(&actions, None, true, Some(0.4)));
        let mut policy = vec![0.0; actions.len()];
        policy[1] = 0.75;
        policy[2] = 0.25;
        recorder.decided(&view, &decision(&actions, Some(policy.clone()), true, None));
        assert_eq!(log.lock().unwrap().len(), 2);
        let scores = [10, 5].map(|city| engine::Score {
            city,
            ..engine::Score::default()
        });
        let data = finish(&log, &scores, 0);
        assert_eq!(data.len(), 2);
        let (lo, hi) = data.action_range(0);
        let uniform = 1.0 / actions.len() as f32;
        assert!(data.visits[lo..hi]
            .iter()
            .all(|&v| (v - uniform).abs() < 1e-6));
        let (lo, hi) = data.action_range(1);
        assert_eq!(&data.visits[lo..hi], &policy[..]);
        // The search's value of each, where it gave one.
        assert_eq!(data.targets[0].search_value, Some(0.4));
        assert_eq!(data.targets[1].search_value, None);
    }
}
