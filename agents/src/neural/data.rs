//! Training examples: positions a search played, the search's visit
//! distribution over their legal actions, and how the game ended — in
//! safetensors shards numpy reads directly (docs/neural.md lists the
//! arrays).
//!
//! A [`GameRecorder`] collects one game's positions as they are played and
//! turns them into examples once the final scores are known; a
//! [`Dataset`] holds examples column by column (the board as bytes, one
//! eighth per unit) and reads and writes shards.

use super::encode::{
    encode_actions, encode_position, ActionInput, PositionInput, ACTION_FEATURES, BOARD_FEATURES,
    ENCODING_VERSION, GLOBAL_FEATURES,
};
use super::encode::{FIRST_SEAT_BLOCK, SEAT_BLOCK};
use super::error::{ExampleError, FileError};
use super::net::CATEGORIES;
use super::tensors::{Array, File};
use crate::capped::Cap;
use engine::{Action, Score, SeatView, MAX_PLAYERS};
use std::collections::HashMap;
use std::path::Path;

pub use crate::evaluator::{outcome_array, outcome_value, outcome_values};

/// One game's positions, waiting for its end.
#[derive(Default)]
pub struct GameRecorder {
    pending: Vec<Pending>,
}

struct Pending {
    seat: usize,
    players: usize,
    turn: u32,
    position: PositionInput,
    actions: Vec<ActionInput>,
    visits: Vec<f32>,
    search_value: Option<f32>,
}

impl GameRecorder {
    /// An empty recorder.
    pub fn new() -> GameRecorder {
        GameRecorder::default()
    }

    /// Record the position of `view` (its seat to play), its legal
    /// `actions`, the search's `visits` per action (any non-negative
    /// weights; normalised here) and the search's value of the position
    /// for the seat to play, if it has one on the outcome's scale
    /// ([`crate::SearchStats::root_value`]; clamped to `[-1, 1]`). A
    /// position with one action teaches nothing about the policy but
    /// still the value: it is kept.
    ///
    /// # Panics
    /// When `visits` and `actions` differ in length.
    pub fn record(
        &mut self,
        view: &SeatView<'_>,
        actions: &[Action],
        visits: &[f32],
        search_value: Option<f64>,
    ) {
        assert_eq!(actions.len(), visits.len(), "one visit count per action");
        let sum: f32 = visits.iter().sum();
        let visits = if sum > 0.0 {
            visits.iter().map(|v| v / sum).collect()
        } else {
            vec![1.0 / actions.len().max(1) as f32; actions.len()]
        };
        self.pending.push(Pending {
            seat: view.seat().index(),
            players: view.players(),
            turn: view.turns() as u32,
            position: encode_position(view),
            actions: encode_actions(view, actions),
            visits,
            search_value: search_value.map(|v| v.clamp(-1.0, 1.0) as f32),
        });
    }

    /// Positions recorded so far.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Nothing recorded.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// The game is over with these final scores (absolute seat order):
    /// add its positions to `data` as game number `game`.
    pub fn finish(self, final_scores: &[Score], game: u32, data: &mut Dataset) {
        let totals: Vec<u32> = final_scores.iter().map(Score::total).collect();
        let values = outcome_values(&totals);
        for p in self.pending {
            let mut outcome = [0.0f32; MAX_PLAYERS];
            let mut scores = [0.0f32; MAX_PLAYERS];
            let mut categories = [0.0f32; CATEGORY_TARGETS];
            for k in 0..p.players {
                let s = (p.seat + k) % p.players;
                outcome[k] = values[s];
                scores[k] = totals[s] as f32;
                categories[k * CATEGORIES..][..CATEGORIES]
                    .copy_from_slice(&category_points(&final_scores[s]));
            }
            data.push(
                &p.position,
                &p.actions,
                &p.visits,
                Targets {
                    outcome,
                    scores,
                    categories: Some(categories),
                    search_value: p.search_value,
                    game,
                    turn: p.turn,
                    players: p.players as u32,
                },
            );
        }
    }
}

/// The category targets of a position: [`CATEGORIES`] numbers per
/// seat-relative seat.
pub const CATEGORY_TARGETS: usize = MAX_PLAYERS * CATEGORIES;

/// A seat's points by category, in the order of [`CATEGORIES`].
fn category_points(score: &Score) -> [f32; CATEGORIES] {
    [
        score.road,
        score.city,
        score.monastery,
        score.farm,
        score.gifts,
    ]
    .map(f32::from)
}

/// What an example is trained towards, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// The value target per seat-relative seat ([`outcome_value`]; 0 past
    /// the seat count).
    pub outcome: [f32; MAX_PLAYERS],
    /// The final totals per seat-relative seat.
    pub scores: [f32; MAX_PLAYERS],
    /// The final points by category per seat-relative seat
    /// ([`CATEGORIES`] each; 0 past the seat count): the auxiliary
    /// head's target. `None` in shards written before they were kept.
    pub categories: Option<[f32; CATEGORY_TARGETS]>,
    /// The search's value of the position for the seat to play (the
    /// first seat-relative seat), on the outcome's scale `[-1, 1]`: a
    /// second value target, less noisy than the outcome
    /// (`TrainConfig::search_value`). `None` when the search gave none
    /// (`mcts`) and in shards written before it was kept.
    pub search_value: Option<f32>,
    /// The game it comes from (held-out splits are by game).
    pub game: u32,
    /// Turns played before the position.
    pub turn: u32,
    /// Seats of the game.
    pub players: u32,
}

/// Examples, column by column (the arrays of a shard; see
/// docs/neural.md).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Board windows, [`BOARD_FEATURES`] bytes per position: each number
    /// times 8.
    pub board: Vec<u8>,
    /// Globals, [`GLOBAL_FEATURES`] per position.
    pub globals: Vec<f32>,
    /// Action features, [`ACTION_FEATURES`] per action.
    pub actions: Vec<f32>,
    /// The window cell of each action.
    pub cells: Vec<u32>,
    /// Position `i`'s actions are `offsets[i]..offsets[i + 1]` (one more
    /// entry than positions, starting at 0).
    pub offsets: Vec<u32>,
    /// The search's visit share of each action (summing to 1 per position).
    pub visits: Vec<f32>,
    /// Per position: targets and origin.
    pub targets: Vec<Targets>,
}

impl Dataset {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// No positions.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Add one example.
    pub fn push(
        &mut self,
        position: &PositionInput,
        actions: &[ActionInput],
        visits: &[f32],
        targets: Targets,
    ) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.board.extend(
            position
                .board
                .iter()
                .map(|v| (v * 8.0).round().clamp(0.0, 255.0) as u8),
        );
        self.globals.extend_from_slice(&position.globals);
        for a in actions {
            self.actions.extend_from_slice(&a.features);
            self.cells.push(a.cell);
        }
        self.visits.extend_from_slice(visits);
        self.offsets.push(self.cells.len() as u32);
        self.targets.push(targets);
    }

    /// Append all of `other`'s examples.
    pub fn extend(&mut self, other: &Dataset) {
        for i in 0..other.len() {
            let (lo, hi) = other.action_range(i);
            if self.offsets.is_empty() {
                self.offsets.push(0);
            }
            self.board
                .extend_from_slice(&other.board[i * BOARD_FEATURES..][..BOARD_FEATURES]);
            self.globals
                .extend_from_slice(&other.globals[i * GLOBAL_FEATURES..][..GLOBAL_FEATURES]);
            self.actions
                .extend_from_slice(&other.actions[lo * ACTION_FEATURES..hi * ACTION_FEATURES]);
            self.cells.extend_from_slice(&other.cells[lo..hi]);
            self.visits.extend_from_slice(&other.visits[lo..hi]);
            self.offsets.push(self.cells.len() as u32);
            self.targets.push(other.targets[i]);
        }
    }

    /// The actions of position `i`, as a range of action rows.
    pub fn action_range(&self, i: usize) -> (usize, usize) {
        (self.offsets[i] as usize, self.offsets[i + 1] as usize)
    }

    /// Write a shard to `path` with `metadata` (the encoding version is
    /// added).
    ///
    /// # Errors
    /// One line naming the file when it cannot be written.
    pub fn write(
        &self,
        path: &Path,
        mut metadata: HashMap<String, String>,
    ) -> Result<(), FileError> {
        let n = self.len();
        let m = self.cells.len();
        let offsets = if self.offsets.is_empty() {
            vec![0]
        } else {
            self.offsets.clone()
        };
        let col = |f: fn(&Targets) -> &[f32; MAX_PLAYERS]| -> Vec<f32> {
            self.targets.iter().flat_map(|t| *f(t)).collect()
        };
        let mut arrays = vec![
            Array::u8("board", vec![n, BOARD_FEATURES], self.board.clone()),
            Array::f32("globals", vec![n, GLOBAL_FEATURES], &self.globals),
            Array::f32("actions", vec![m, ACTION_FEATURES], &self.actions),
            Array::u32("action_cell", vec![m], &self.cells),
            Array::u32("action_offset", vec![n + 1], &offsets),
            Array::f32("visits", vec![m], &self.visits),
            Array::f32("outcome", vec![n, MAX_PLAYERS], &col(|t| &t.outcome)),
            Array::f32("score", vec![n, MAX_PLAYERS], &col(|t| &t.scores)),
            Array::u32(
                "game",
                vec![n],
                &self.targets.iter().map(|t| t.game).collect::<Vec<_>>(),
            ),
            Array::u32(
                "turn",
                vec![n],
                &self.targets.iter().map(|t| t.turn).collect::<Vec<_>>(),
            ),
            Array::u32(
                "players",
                vec![n],
                &self.targets.iter().map(|t| t.players).collect::<Vec<_>>(),
            ),
        ];
        // The category targets when every example has them (a shard
        // merged with older ones has none).
        let categories: Option<Vec<f32>> = self
            .targets
            .iter()
            .map(|t| t.categories)
            .collect::<Option<Vec<_>>>()
            .map(|rows| rows.concat());
        if let Some(values) = categories {
            arrays.push(Array::f32("categories", vec![n, CATEGORY_TARGETS], &values));
        }
        // Likewise the search's values.
        let search_values: Option<Vec<f32>> = self.targets.iter().map(|t| t.search_value).collect();
        if let Some(values) = search_values {
            arrays.push(Array::f32("search_value", vec![n], &values));
        }
        metadata.insert("format".into(), "carcassonne-examples".into());
        metadata.insert("encoding_version".into(), ENCODING_VERSION.to_string());
        super::tensors::write(path, &arrays, metadata)
    }

    /// Read a shard written by [`Dataset::write`], and its metadata.
    ///
    /// # Errors
    /// One line naming the file: unreadable, larger than
    /// [`Cap::SHARD`] or not a regular file, not a shard, of another
    /// encoding version, with arrays of inconsistent sizes, or with an
    /// example [`Dataset::check`] refuses (the line names the field and
    /// the example).
    pub fn read(path: &Path) -> Result<(Dataset, HashMap<String, String>), FileError> {
        Dataset::read_with_digest(path).map(|(data, meta, _)| (data, meta))
    }

    /// [`Dataset::read`], and a digest of the file's bytes (equal files,
    /// equal digests: how `train-net` refuses a shard given twice under
    /// two names).
    ///
    /// # Errors
    /// As [`Dataset::read`].
    pub fn read_with_digest(
        path: &Path,
    ) -> Result<(Dataset, HashMap<String, String>, u64), FileError> {
        let file = File::read(path, Cap::SHARD)?;
        let meta = file.metadata();
        let name = path.display();
        if meta.get("format").map(String::as_str) != Some("carcassonne-examples") {
            return Err(FileError::format(&name, "not a file of training examples"));
        }
        let version = meta.get("encoding_version").cloned().unwrap_or_default();
        if version != ENCODING_VERSION.to_string() {
            return Err(FileError::format(
                &name,
                format!("examples of encoding version {version}, this build reads version {ENCODING_VERSION}"
            )));
        }
        let (board_shape, board) = file.u8("board")?;
        let (globals_shape, globals) = file.f32("globals")?;
        let (actions_shape, actions) = file.f32("actions")?;
        let (cells_shape, cells) = file.u32("action_cell")?;
        let (offsets_shape, offsets) = file.u32("action_offset")?;
        let (visits_shape, visits) = file.f32("visits")?;
        let (outcome_shape, outcome) = file.f32("outcome")?;
        let (scores_shape, scores) = file.f32("score")?;
        let (game_shape, game) = file.u32("game")?;
        let (turn_shape, turn) = file.u32("turn")?;
        let (players_shape, players) = file.u32("players")?;
        // The arrays older shards do not have.
        let has = |array: &str| file.names().iter().any(|a| a == array);
        let categories = has("categories")
            .then(|| file.f32("categories"))
            .transpose()?;
        let search_values = has("search_value")
            .then(|| file.f32("search_value"))
            .transpose()?;
        let n = game.len();
        let m = cells.len();
        // Every array's shape, as the examples and actions counts say.
        for (field, shape, want) in [
            ("board", &board_shape, vec![n, BOARD_FEATURES]),
            ("globals", &globals_shape, vec![n, GLOBAL_FEATURES]),
            ("actions", &actions_shape, vec![m, ACTION_FEATURES]),
            ("action_cell", &cells_shape, vec![m]),
            ("action_offset", &offsets_shape, vec![n + 1]),
            ("visits", &visits_shape, vec![m]),
            ("outcome", &outcome_shape, vec![n, MAX_PLAYERS]),
            ("score", &scores_shape, vec![n, MAX_PLAYERS]),
            ("game", &game_shape, vec![n]),
            ("turn", &turn_shape, vec![n]),
            ("players", &players_shape, vec![n]),
        ] {
            if *shape != want {
                return Err(FileError::format(
                    &name,
                    format!("`{field}` is {shape:?}; {n} examples of {m} actions make it {want:?}"),
                ));
            }
        }
        for (field, array, want) in [
            ("categories", &categories, vec![n, CATEGORY_TARGETS]),
            ("search_value", &search_values, vec![n]),
        ] {
            if let Some((shape, _)) = array {
                if *shape != want {
                    return Err(FileError::format(
                        &name,
                        format!("`{field}` is {shape:?}; {n} examples make it {want:?}"),
                    ));
                }
            }
        }
        if offsets.first() != Some(&0) || offsets.last() != Some(&(m as u32)) {
            return Err(FileError::format(
                &name,
                format!(
                    "`action_offset` runs from {:?} to {:?}, not from 0 to the {m} actions",
                    offsets.first(),
                    offsets.last()
                ),
            ));
        }
        if let Some(i) = offsets.windows(2).position(|w| w[0] > w[1]) {
            return Err(FileError::format(
                &name,
                format!(
                    "example {i}: `action_offset` goes back from {} to {}",
                    offsets[i],
                    offsets[i + 1]
                ),
            ));
        }
        if let Some(k) = cells
            .iter()
            .position(|&c| c as usize >= super::encode::CELLS)
        {
            return Err(FileError::format(
                &name,
                format!(
                    "action {k}: `action_cell` is {}, outside the {} cells of the window",
                    cells[k],
                    super::encode::CELLS
                ),
            ));
        }
        let mut targets = Vec::with_capacity(n);
        targets.extend((0..n).map(|i| {
            let mut o = [0.0; MAX_PLAYERS];
            let mut s = [0.0; MAX_PLAYERS];
            o.copy_from_slice(&outcome[i * MAX_PLAYERS..][..MAX_PLAYERS]);
            s.copy_from_slice(&scores[i * MAX_PLAYERS..][..MAX_PLAYERS]);
            Targets {
                outcome: o,
                scores: s,
                categories: categories.as_ref().map(|(_, values)| {
                    let mut c = [0.0; CATEGORY_TARGETS];
                    c.copy_from_slice(&values[i * CATEGORY_TARGETS..][..CATEGORY_TARGETS]);
                    c
                }),
                search_value: search_values.as_ref().map(|(_, values)| values[i]),
                game: game[i],
                turn: turn[i],
                players: players[i],
            }
        }));
        let data = Dataset {
            board,
            globals,
            actions,
            cells,
            offsets,
            visits,
            targets,
        };
        data.check().map_err(|e| FileError::format(&name, e))?;
        if let Some(p) = meta.get("players") {
            if let Some(i) = data
                .targets
                .iter()
                .position(|t| t.players.to_string() != *p)
            {
                return Err(FileError::format(
                    &name,
                    format!(
                        "example {i}: `players` is {}, its metadata says players {p}",
                        data.targets[i].players
                    ),
                ));
            }
        }
        if let Some(text) = meta.get("rules") {
            let rules: engine::Rules = text.parse().map_err(|e| {
                FileError::format(&name, format!("rules `{text}` in its metadata: {e}"))
            })?;
            let want = super::encode::rules_globals(&rules);
            let at = super::encode::FIRST_RULES_GLOBAL;
            for i in 0..data.len() {
                let got = &data.globals[i * GLOBAL_FEATURES + at..][..want.len()];
                if let Some(k) = (0..want.len()).find(|&k| got[k] != want[k]) {
                    return Err(FileError::format(
                        &name,
                        format!("example {i}: `globals` column {} is {:?}, its metadata's rules `{text}` make it {:?}",
                        at + k,
                        got[k],
                        want[k]
                    )));
                }
            }
        }
        let digest = file.digest();
        Ok((data, meta, digest))
    }

    /// Check every example for values training cannot trust: numbers that
    /// are not finite or out of the encoding's range, negative visits or
    /// visits that do not sum to 1, seat counts outside 2 to
    /// [`MAX_PLAYERS`], targets or scores for seats not in the game,
    /// scores beyond [`MAX_SCORE`], category points that are not whole
    /// or do not add up to the seat's score, search values outside
    /// `[-1, 1]`, and globals that contradict the seat count.
    ///
    /// # Errors
    /// The first problem: the example and the field (the caller adds the
    /// file).
    pub fn check(&self) -> Result<(), ExampleError> {
        let n = self.len();
        if self.offsets.len() != n + 1 && !(n == 0 && self.offsets.len() <= 1) {
            return Err(ExampleError {
                example: None,
                what: format!(
                    "`action_offset` has {} entries for {n} examples",
                    self.offsets.len()
                ),
            });
        }
        for i in 0..n {
            let bad = |field: &str, what: String| {
                Err(ExampleError {
                    example: Some(i),
                    what: format!("`{field}` {what}"),
                })
            };
            let t = &self.targets[i];
            let players = t.players as usize;
            if !engine::PLAYERS.contains(&players) {
                return bad("players", format!("is {players}, not 2 to {MAX_PLAYERS}"));
            }
            if t.turn > MAX_TURN {
                return bad("turn", format!("is {}, more than {MAX_TURN}", t.turn));
            }
            let board = &self.board[i * BOARD_FEATURES..][..BOARD_FEATURES];
            if let Some(k) = board.iter().position(|&b| b > 8) {
                return bad(
                    "board",
                    format!(
                        "holds {} at {k}; the encoding's numbers are 0 or 1 (0 or 8 here)",
                        board[k]
                    ),
                );
            }
            let globals = &self.globals[i * GLOBAL_FEATURES..][..GLOBAL_FEATURES];
            if let Some(k) = globals.iter().position(|v| !plausible(*v)) {
                return bad("globals", format!("holds {:?} at column {k}", globals[k]));
            }
            for p in engine::PLAYERS {
                let want = if p == players { 1.0 } else { 0.0 };
                if globals[p - 2] != want {
                    return bad(
                        "globals",
                        format!(
                            "column {} (players {p}) is {:?}, but `players` is {players}",
                            p - 2,
                            globals[p - 2]
                        ),
                    );
                }
            }
            for k in 0..MAX_PLAYERS {
                let present = globals[FIRST_SEAT_BLOCK + k * SEAT_BLOCK];
                if present != if k < players { 1.0 } else { 0.0 } {
                    return bad(
                        "globals",
                        format!(
                            "seat block {k} says present {present:?}, but `players` is {players}"
                        ),
                    );
                }
            }
            for k in 0..MAX_PLAYERS {
                let (o, s) = (t.outcome[k], t.scores[k]);
                if !(-1.0..=1.0).contains(&o) {
                    return bad("outcome", format!("is {o:?} for seat {k}, not in -1..1"));
                }
                if !(s.is_finite() && (0.0..=MAX_SCORE).contains(&s) && s == s.trunc()) {
                    return bad(
                        "score",
                        format!("is {s:?} for seat {k}, not a whole number of 0 to {MAX_SCORE}"),
                    );
                }
                if k >= players && (o != 0.0 || s != 0.0) {
                    return bad(
                        "score",
                        format!(
                            "is {s:?} (outcome {o:?}) for seat {k}, a seat not in a game of {players}"
                        ),
                    );
                }
            }
            if let Some(v) = t.search_value {
                if !(-1.0..=1.0).contains(&v) {
                    return bad("search_value", format!("is {v:?}, not in -1..1"));
                }
            }
            if let Some(categories) = &t.categories {
                for (k, points) in categories.chunks_exact(CATEGORIES).enumerate() {
                    let total: f32 = points.iter().sum();
                    if let Some(&p) = points
                        .iter()
                        .find(|p| !(p.is_finite() && **p >= 0.0 && **p == p.trunc()))
                    {
                        return bad(
                            "categories",
                            format!("holds {p:?} for seat {k}, not a whole number of points"),
                        );
                    }
                    if total != t.scores[k] {
                        return bad(
                            "categories",
                            format!(
                                "sum to {total:?} for seat {k}, but its `score` is {:?}",
                                t.scores[k]
                            ),
                        );
                    }
                }
            }
            let (lo, hi) = self.action_range(i);
            let actions = &self.actions[lo * ACTION_FEATURES..hi * ACTION_FEATURES];
            if let Some(k) = actions.iter().position(|v| !plausible(*v)) {
                return bad(
                    "actions",
                    format!(
                        "holds {:?} (action {}, column {})",
                        actions[k],
                        k / ACTION_FEATURES,
                        k % ACTION_FEATURES
                    ),
                );
            }
            let visits = &self.visits[lo..hi];
            if let Some(k) = visits.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
                return bad("visits", format!("holds {:?} (action {k})", visits[k]));
            }
            let sum: f32 = visits.iter().sum();
            if hi > lo && (sum - 1.0).abs() > 1e-3 {
                return bad("visits", format!("sum to {sum:?}, not 1"));
            }
        }
        Ok(())
    }
}

/// The largest final score an example may hold: no game reaches it.
pub const MAX_SCORE: f32 = 10_000.0;

/// The largest turn an example may hold: no game lasts so long.
pub const MAX_TURN: u32 = 10_000;

/// The largest magnitude of an encoded number: the encoding's are of
/// order 1 (scores / 100, counts / their range).
pub const MAX_FEATURE: f32 = 1e6;

/// A finite number of at most [`MAX_FEATURE`] in magnitude.
fn plausible(v: f32) -> bool {
    v.is_finite() && v.abs() <= MAX_FEATURE
}

/// Tiny data sets for the tests.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::{Rules, Seat, State};
    use rand::{Rng, SeedableRng};

    /// `games` random games of `players` seats, every decision recorded
    /// with its "visits" all on one random action (at most `per_game`
    /// positions a game).
    pub(crate) fn random_examples(
        games: u32,
        players: usize,
        per_game: usize,
        seed: u64,
    ) -> Dataset {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut data = Dataset::default();
        let rules: Rules = "gifts=true".parse().unwrap();
        for game in 0..games {
            let mut state = State::new(rules, players, Seat(0));
            let mut rec = GameRecorder::new();
            while !state.is_over() {
                if state.is_chance() {
                    state.apply_chance(&mut rng);
                    continue;
                }
                let actions = state.legal_actions();
                let pick = rng.gen_range(0..actions.len());
                if rec.len() < per_game {
                    let mut visits = vec![0.0; actions.len()];
                    visits[pick] = 1.0;
                    // A made-up search value, without drawing from `rng`.
                    let search_value = (rec.len() % 5) as f64 / 2.0 - 1.0;
                    rec.record(
                        &state.view(state.to_play()),
                        &actions,
                        &visits,
                        Some(search_value),
                    );
                }
                state.play_action_unchecked(actions[pick]);
            }
            let scores: Vec<Score> = (0..players).map(|s| state.score(Seat(s as u8))).collect();
            rec.finish(&scores, game, &mut data);
        }
        data
    }

    #[test]
    fn a_shard_reads_back_as_written() {
        let data = random_examples(2, 3, 5, 1);
        assert_eq!(data.len(), 10);
        let dir = std::env::temp_dir().join(format!("neural-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.safetensors");
        let mut meta = HashMap::new();
        meta.insert("rules".into(), "gifts=true".into());
        data.write(&path, meta).unwrap();
        let (back, meta) = Dataset::read(&path).unwrap();
        assert_eq!(back, data);
        assert_eq!(meta["rules"], "gifts=true");
        assert_eq!(meta["encoding_version"], ENCODING_VERSION.to_string());
        let mut twice = data.clone();
        twice.extend(&data);
        assert_eq!(twice.len(), 20);
        assert_eq!(twice.action_range(10).0, data.cells.len());
    }

    /// The bits of every number of `data`, array by array (f32 by its bit
    /// pattern, so -0.0 and 0.0 or two NaNs differ).
    fn bits(data: &Dataset) -> Vec<Vec<u32>> {
        let f = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        let t = &data.targets;
        vec![
            data.board.iter().map(|&b| u32::from(b)).collect(),
            f(&data.globals),
            f(&data.actions),
            data.cells.clone(),
            data.offsets.clone(),
            f(&data.visits),
            t.iter().flat_map(|t| t.outcome.map(f32::to_bits)).collect(),
            t.iter().flat_map(|t| t.scores.map(f32::to_bits)).collect(),
            t.iter()
                .flat_map(|t| t.categories.expect("kept").map(f32::to_bits))
                .collect(),
            t.iter()
                .map(|t| t.search_value.expect("kept").to_bits())
                .collect(),
            t.iter().flat_map(|t| [t.game, t.turn, t.players]).collect(),
        ]
    }

    /// Issue 47: shards are gzip-compressed (`.safetensors.gz`, a tenth of
    /// the size and less), every number read back with the bits written;
    /// a shard written before (plain `.safetensors`) reads the same, with
    /// the same digest (the same shard under two names is one shard).
    #[test]
    fn a_compressed_shard_reads_back_bit_for_bit_and_old_shards_still_load() {
        let data = random_examples(2, 2, 40, 7);
        let dir = std::env::temp_dir().join(format!("neural-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (gz, plain) = (dir.join("g.safetensors.gz"), dir.join("g.safetensors"));
        let mut meta = HashMap::new();
        meta.insert("players".into(), "2".into());
        data.write(&gz, meta.clone()).unwrap();
        data.write(&plain, meta).unwrap();
        let (gz_bytes, plain_bytes) = (std::fs::read(&gz).unwrap(), std::fs::read(&plain).unwrap());
        assert!(gz_bytes.starts_with(&[0x1f, 0x8b]), "not gzip");
        assert!(!plain_bytes.starts_with(&[0x1f, 0x8b]));
        assert!(
            gz_bytes.len() * 8 < plain_bytes.len(),
            "{} bytes zipped, {} plain",
            gz_bytes.len(),
            plain_bytes.len()
        );
        let (a, _, da) = Dataset::read_with_digest(&gz).unwrap();
        let (b, _, db) = Dataset::read_with_digest(&plain).unwrap();
        assert_eq!(bits(&a), bits(&data));
        assert_eq!(bits(&b), bits(&data));
        assert_eq!(da, db);
        // The same data, the same bytes (no time or name in the header).
        data.write(&dir.join("again.safetensors.gz"), {
            let mut m = HashMap::new();
            m.insert("players".into(), "2".into());
            m
        })
        .unwrap();
        assert_eq!(
            std::fs::read(dir.join("again.safetensors.gz")).unwrap(),
            gz_bytes
        );
        // A damaged stream is refused in one line naming the file.
        let cut = dir.join("cut.safetensors.gz");
        std::fs::write(&cut, &gz_bytes[..gz_bytes.len() / 2]).unwrap();
        let e = Dataset::read(&cut).unwrap_err().to_string();
        assert!(e.contains("cut.safetensors.gz") && !e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A change made to examples.
    type Edit = Box<dyn Fn(&mut Dataset)>;

    /// Every example array is checked on reading: a value training cannot
    /// trust is refused in one line naming the file, the example and the
    /// field (a shard of 7 players made `train-net` panic; NaN visits,
    /// features or scores trained a network of NaN weights).
    #[test]
    fn a_shard_of_untrustworthy_examples_is_refused_naming_the_field() {
        let dir = std::env::temp_dir().join(format!("neural-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = random_examples(2, 2, 4, 9);
        let path = dir.join("shard.safetensors");
        let refused = |edit: &dyn Fn(&mut Dataset), meta: &[(&str, &str)]| -> String {
            let mut data = good.clone();
            edit(&mut data);
            let meta = meta
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            data.write(&path, meta).unwrap();
            let e = Dataset::read(&path)
                .expect_err("a bad shard was read")
                .to_string();
            assert!(e.starts_with(&path.display().to_string()), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
            e
        };
        let last = good.len() - 1;
        let cases: Vec<(&str, Edit)> = vec![
            (
                "example 0: `visits` holds NaN",
                Box::new(|d| d.visits[0] = f32::NAN),
            ),
            (
                "`visits` holds inf",
                Box::new(|d| d.visits[1] = f32::INFINITY),
            ),
            (
                "example 0: `visits` holds -1",
                Box::new(|d| d.visits[0] = -1.0),
            ),
            ("`visits` sum to", Box::new(|d| d.visits[0] += 0.5)),
            (
                "`globals` holds NaN",
                Box::new(|d| d.globals[170] = f32::NAN),
            ),
            (
                "`globals` holds 10000000",
                Box::new(|d| d.globals[170] = 1e7),
            ),
            (
                "`actions` holds -inf",
                Box::new(|d| d.actions[3] = f32::NEG_INFINITY),
            ),
            (
                "`score` is NaN",
                Box::new(|d| d.targets[0].scores[0] = f32::NAN),
            ),
            (
                "`score` is 1e30",
                Box::new(|d| d.targets[0].scores[1] = 1e30),
            ),
            ("`score` is -5", Box::new(|d| d.targets[0].scores[1] = -5.0)),
            (
                "a seat not in a game of 2",
                Box::new(|d| d.targets[0].scores[2] = 5.0),
            ),
            (
                "`outcome` is NaN",
                Box::new(|d| d.targets[0].outcome[0] = f32::NAN),
            ),
            (
                "example 0: `players` is 7, not 2 to 6",
                Box::new(|d| d.targets[0].players = 7),
            ),
            (
                "`players` is 0, not 2 to 6",
                Box::new(|d| d.targets[0].players = 0),
            ),
            ("`turn` is", Box::new(|d| d.targets[0].turn = u32::MAX)),
            ("`board` holds 200", Box::new(|d| d.board[5] = 200)),
            (
                "`categories` holds NaN for seat 0",
                Box::new(|d| d.targets[0].categories.as_mut().unwrap()[1] = f32::NAN),
            ),
            (
                "`categories` holds -1.0 for seat 1",
                Box::new(|d| d.targets[0].categories.as_mut().unwrap()[CATEGORIES] = -1.0),
            ),
            (
                "`categories` sum to",
                Box::new(|d| d.targets[0].categories.as_mut().unwrap()[3] += 2.0),
            ),
            (
                "`search_value` is 1.5, not in -1..1",
                Box::new(|d| d.targets[0].search_value = Some(1.5)),
            ),
            (
                "`search_value` is NaN",
                Box::new(|d| d.targets[0].search_value = Some(f32::NAN)),
            ),
            (
                "example 7: `globals` column 1 (players 3) is 1.0, but `players` is 2",
                Box::new(move |d| d.globals[last * GLOBAL_FEATURES + 1] = 1.0),
            ),
            (
                "seat block 3 says present 1.0",
                Box::new(|d| d.globals[FIRST_SEAT_BLOCK + 3 * SEAT_BLOCK] = 1.0),
            ),
        ];
        for (want, edit) in &cases {
            let e = refused(edit.as_ref(), &[]);
            assert!(e.contains(want), "wanted {want:?}: {e}");
        }
        let e = refused(&|_| {}, &[("players", "3")]);
        assert!(e.contains("its metadata says players 3"), "{e}");
        // The examples are of gifts=true games.
        let e = refused(&|_| {}, &[("rules", "farmers=false")]);
        assert!(e.contains("its metadata's rules `farmers=false`"), "{e}");
        let e = refused(&|_| {}, &[("rules", "no-such-rule=1")]);
        assert!(e.contains("rules `no-such-rule=1` in its metadata"), "{e}");
        // An array whose shape contradicts the counts (the same bytes).
        good.write(&path, HashMap::new()).unwrap();
        let file = File::read(&path, Cap::SHARD).unwrap();
        let arrays: Vec<Array> = file
            .names()
            .iter()
            .map(|name| match name.as_str() {
                "board" => {
                    let (shape, data) = file.u8(name).unwrap();
                    Array::u8(name, vec![shape[1], shape[0]], data)
                }
                "action_cell" | "action_offset" | "game" | "turn" | "players" => {
                    let (shape, data) = file.u32(name).unwrap();
                    Array::u32(name, shape, &data)
                }
                _ => {
                    let (shape, data) = file.f32(name).unwrap();
                    Array::f32(name, shape, &data)
                }
            })
            .collect();
        super::super::tensors::write(&path, &arrays, file.metadata()).unwrap();
        let e = Dataset::read(&path).err().unwrap().to_string();
        assert!(e.contains("`board` is [7200, 8]"), "{e}");
        // The untouched data reads.
        let meta = [("players", "2"), ("rules", "gifts=true")];
        good.write(
            &path,
            meta.map(|(k, v)| (k.to_string(), v.to_string())).into(),
        )
        .unwrap();
        assert_eq!(Dataset::read(&path).unwrap().0, good);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Each example keeps the final points by category of every seat,
    /// seat-relative as the scores, summing to them; a shard written
    /// before they were kept (no `categories` array) reads with none,
    /// and a merge with such a shard writes none rather than zeros.
    #[test]
    fn category_targets_are_seat_relative_and_optional() {
        let data = random_examples(1, 3, 6, 4);
        for t in &data.targets {
            let c = t.categories.expect("a recorder keeps them");
            for k in 0..MAX_PLAYERS {
                let points = &c[k * CATEGORIES..][..CATEGORIES];
                assert_eq!(points.iter().sum::<f32>(), t.scores[k], "{c:?}");
            }
        }
        // Seat-relative: every example's blocks are a rotation of the
        // first's (the seat to play first), and the seats to play differ.
        let block =
            |c: &[f32; CATEGORY_TARGETS], k: usize| c[k * CATEGORIES..][..CATEGORIES].to_vec();
        let first = data.targets[0].categories.unwrap();
        assert!(first.iter().any(|&p| p > 0.0), "{first:?}");
        let rotations: Vec<usize> = data
            .targets
            .iter()
            .map(|t| {
                let c = t.categories.unwrap();
                (0..3)
                    .find(|&r| (0..3).all(|k| block(&c, k) == block(&first, (k + r) % 3)))
                    .expect("a rotation of the first example's")
            })
            .collect();
        assert!(rotations.iter().any(|&r| r != 0), "{rotations:?}");
        let dir = std::env::temp_dir().join(format!("neural-cat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (new, old) = (dir.join("new.safetensors"), dir.join("old.safetensors"));
        data.write(&new, HashMap::new()).unwrap();
        let mut before = data.clone();
        for t in &mut before.targets {
            t.categories = None;
        }
        before.write(&old, HashMap::new()).unwrap();
        let file = File::read(&old, Cap::SHARD).unwrap();
        assert!(!file.names().iter().any(|n| n == "categories"));
        assert_eq!(Dataset::read(&new).unwrap().0, data);
        assert_eq!(Dataset::read(&old).unwrap().0, before);
        let mut merged = data.clone();
        merged.extend(&before);
        merged.write(&old, HashMap::new()).unwrap();
        let back = Dataset::read(&old).unwrap().0;
        assert!(back.targets.iter().all(|t| t.categories.is_none()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The search's value is kept per example, clamped to the outcome's
    /// scale; a shard without it (older, or of `mcts` games) reads with
    /// none, and a merge with one writes none.
    #[test]
    fn search_values_are_kept_clamped_and_optional() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        state.apply_chance(&mut rng);
        let actions = state.legal_actions();
        let visits = vec![1.0; actions.len()];
        let mut rec = GameRecorder::new();
        for v in [Some(0.25), Some(-3.0), Some(2.0), None] {
            rec.record(&state.view(state.to_play()), &actions, &visits, v);
        }
        let mut data = Dataset::default();
        rec.finish(&[Score::default(), Score::default()], 0, &mut data);
        let kept: Vec<Option<f32>> = data.targets.iter().map(|t| t.search_value).collect();
        assert_eq!(kept, [Some(0.25), Some(-1.0), Some(1.0), None]);
        let dir = std::env::temp_dir().join(format!("neural-sv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.safetensors");
        // One example without: no array, every example reads with none.
        data.write(&path, HashMap::new()).unwrap();
        let file = File::read(&path, Cap::SHARD).unwrap();
        assert!(!file.names().iter().any(|n| n == "search_value"));
        let back = Dataset::read(&path).unwrap().0;
        assert!(back.targets.iter().all(|t| t.search_value.is_none()));
        // All with: the array, read back as written.
        data.targets[3].search_value = Some(-0.5);
        data.write(&path, HashMap::new()).unwrap();
        assert_eq!(Dataset::read(&path).unwrap().0, data);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_same_seed_gives_the_same_examples() {
        assert_eq!(random_examples(1, 2, 8, 5), random_examples(1, 2, 8, 5));
        assert_ne!(random_examples(1, 2, 8, 5), random_examples(1, 2, 8, 6));
    }

    #[test]
    fn outcomes_are_seat_relative() {
        let data = random_examples(1, 3, 6, 2);
        let values = |t: &Targets| t.outcome;
        // The seat to play alternates, and each example's block 0 is it:
        // the three rotations of one outcome appear.
        let first = values(&data.targets[0]);
        assert!(first[..3]
            .iter()
            .all(|v| [-1.0, -0.5, 0.0, 0.5, 1.0].contains(v)));
        assert!(first[3..].iter().all(|&v| v == 0.0));
        for t in &data.targets {
            // a rotation of the first: the same values, summing to 0
            let mut sorted = values(t);
            sorted.sort_by(f32::total_cmp);
            let mut first_sorted = first;
            first_sorted.sort_by(f32::total_cmp);
            assert_eq!(sorted, first_sorted);
            assert_eq!(values(t).iter().sum::<f32>(), 0.0);
            let totals: Vec<u32> = t.scores[..3].iter().map(|&s| s as u32).collect();
            assert_eq!(&values(t)[..3], &outcome_values(&totals)[..]);
        }
    }
}
