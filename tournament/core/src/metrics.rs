//! What the games of results folders say about the game itself
//! (`carcassonne analyze`): the advantage of each seat by player count,
//! how much of the points and of the margins between agents the deck
//! decides, how long games last, and where each agent's points come from.
//!
//! Folders are grouped by player count and rules (never pooled across
//! them); within a group every complete game counts, whatever the agents
//! and the code revision. Games in which a seat forfeited are left out
//! (their scores stopped early). Every interval is 95%.
//!
//! - **Seats** ([`SeatRow`]): seat `s`'s share of the wins (first place
//!   shared among the tied seats), with its Wilson interval over games;
//!   its mean score and mean margin over the table (its score minus the
//!   mean of the other seats) with its standard error. In tournaments
//!   and self-play every agent plays every seat equally often on every
//!   deck, so the seat's effect is not mixed with an agent's.
//! - **Decks** ([`DeckRow`]): the share of the variance that lies between
//!   decks (the one-way random-effects estimate of the intraclass
//!   correlation, ANOVA with unequal group sizes) of three measures: a
//!   game's total points (how much the tiles set the score), and the
//!   margin between two agents of a game (how much the tiles, rather
//!   than seats and play, decide who is ahead: each pair of agents in a
//!   game is one value), and the first seat's margin over the others
//!   (how much of the first seat's edge the tiles set). The agents are
//!   held fixed: each value is
//!   measured from the mean of its agents (the game's set of agents, or
//!   the pair) over every deck, and a group is one deck with one set or
//!   pair of agents, so an agent's strength is not counted as the deck's.
//!   Only groups played at least twice count (self-play draws a new deck
//!   for every game: nothing to measure); the interval is the 2.5% and
//!   97.5% quantiles of 200 resamples of whole groups (seeded:
//!   reproducible).
//! - **Length** ([`LengthRow`]) and **points by category** per agent
//!   ([`AgentRow`]).
//!
//! Memory: games stream by ([`for_each_game`]) and a [`Group`] keeps
//! running sums (wins by seat, points by category per agent) and, of
//! each game, only what the deck measures and the standard errors need
//! — its deck, its seating (an interned id), its length and its seats'
//! scores: 16 + 4 × players bytes a game instead of its rows (≈ 0.7 GB
//! a million games before). The deck measures group values by deck, so
//! something per deck must stay; the seat margins' and the length's
//! standard errors are summed in two passes over the kept scores, in
//! game order, so every number is the same to the last bit as from the
//! rows.

use crate::results::output::{for_each_game, read_run_info};
use crate::results::schema::{GameRow, Outcome};
use crate::stats::{mean_se_of, wilson_interval, Z95};
use engine::Rules;
use files::error::{Error, Result};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Resamples of the decks' bootstrap.
pub const BOOTSTRAP: usize = 200;

/// The complete games of one player count and rules, in the compact form
/// the measures need (see the module's "Memory").
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Seats per game.
    pub players: usize,
    /// The rules (`standard` or the `KEY=VALUE,…` that differ).
    pub rules: String,
    /// The folders it was read from.
    pub folders: Vec<PathBuf>,
    /// Games left out because a seat forfeited.
    pub forfeited: u64,
    /// Agent labels, in order of first appearance.
    agents: Vec<String>,
    /// Their ids: indices into `agents`.
    agent_ids: HashMap<String, u32>,
    /// Seatings (agent ids in seat order), in order of first appearance.
    seatings: Vec<Vec<u32>>,
    /// Their ids: indices into `seatings`.
    seating_ids: HashMap<Vec<u32>, u32>,
    /// Each game's deck seed.
    deck: Vec<u64>,
    /// Each game's seating.
    seating: Vec<u32>,
    /// Each game's turns (its first row's).
    turns: Vec<u32>,
    /// Each game's scores in seat order, `players` a game.
    scores: Vec<u32>,
    /// Each seat's share of the wins, summed game by game.
    wins: Vec<f64>,
    /// Per agent id: seats, score, road, city, monastery, farm, gifts and
    /// meeples placed, summed seat by seat.
    sums: Vec<[f64; 8]>,
}

impl Group {
    /// No games yet of `players` seats under `rules`.
    pub fn new(players: usize, rules: &str) -> Group {
        Group {
            players,
            rules: rules.to_string(),
            wins: vec![0.0; players],
            ..Group::default()
        }
    }

    /// Complete games (no forfeits).
    pub fn games(&self) -> u64 {
        self.deck.len() as u64
    }

    /// Add the rows of one game. A game with fewer or more rows than
    /// seats (the partial last game of an interrupted run) is skipped, a
    /// game in which a seat forfeited is counted in `forfeited`.
    ///
    /// # Errors
    /// Its rows are not one for each seat `0..players`.
    pub fn add(&mut self, game: &[GameRow]) -> std::result::Result<(), String> {
        let n = self.players;
        if game.len() != n {
            return Ok(());
        }
        if game.iter().any(|r| !r.forfeit.is_empty()) {
            self.forfeited += 1;
            return Ok(());
        }
        let mut seated = vec![None; n];
        for row in game {
            match seated.get_mut(row.seat) {
                Some(slot @ None) => *slot = Some(row),
                _ => {
                    return Err(format!(
                        "game {}: its rows are not one for each seat 0..{n}",
                        row.game
                    ))
                }
            }
        }
        let turns = u32::try_from(game[0].turns)
            .map_err(|_| format!("game {}: {} turns", game[0].game, game[0].turns))?;
        let tied = game.iter().filter(|r| r.result == Outcome::Draw).count();
        for row in game {
            self.wins[row.seat] += match row.result {
                Outcome::Win => 1.0,
                Outcome::Draw => 1.0 / tied as f64,
                Outcome::Loss => 0.0,
            };
            let id = self.agent_id(&row.agent);
            let values = [
                1.0,
                f64::from(row.score),
                f64::from(row.road),
                f64::from(row.city),
                f64::from(row.monastery),
                f64::from(row.farm),
                f64::from(row.gifts),
                f64::from(row.meeples_placed),
            ];
            for (sum, v) in self.sums[id as usize].iter_mut().zip(values) {
                *sum += v;
            }
        }
        let seating: Vec<u32> = seated
            .iter()
            .flatten()
            .map(|r| self.agent_ids[&r.agent])
            .collect();
        let next = self.seatings.len() as u32;
        let id = *self.seating_ids.entry(seating).or_insert_with_key(|s| {
            self.seatings.push(s.clone());
            next
        });
        self.seating.push(id);
        self.deck.push(game[0].deck_seed);
        self.turns.push(turns);
        self.scores.extend(seated.iter().flatten().map(|r| r.score));
        Ok(())
    }

    /// The id of the agent `label`, new if it is not known yet.
    fn agent_id(&mut self, label: &str) -> u32 {
        if let Some(&id) = self.agent_ids.get(label) {
            return id;
        }
        let id = self.agents.len() as u32;
        self.agents.push(label.to_string());
        self.agent_ids.insert(label.to_string(), id);
        self.sums.push([0.0; 8]);
        id
    }

    /// Each game's scores in seat order.
    fn game_scores(&self) -> std::slice::ChunksExact<'_, u32> {
        self.scores.chunks_exact(self.players.max(1))
    }
}

/// Read the complete games of `dirs`, grouped by player count and rules
/// (in order of first appearance).
///
/// # Errors
/// One line: a folder without run.json or games.csv, a games.csv that
/// does not parse or whose game is not one row per seat, or a folder
/// given twice.
pub fn load(dirs: &[PathBuf]) -> Result<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let canonical = dir.canonicalize().map_err(|e| Error::io("read", dir, e))?;
        if seen.contains(&canonical) {
            return Err(Error::Invalid(format!("{} is given twice", dir.display())));
        }
        seen.push(canonical);
        let info = read_run_info(dir)?;
        let players = info.settings.players;
        let rules = rules_text(&info.settings.rules);
        let at = match groups
            .iter()
            .position(|g| g.players == players && g.rules == rules)
        {
            Some(at) => at,
            None => {
                groups.push(Group::new(players, &rules));
                groups.len() - 1
            }
        };
        let group = &mut groups[at];
        group.folders.push(dir.clone());
        for_each_game(dir, |game, line| {
            group.add(game).map_err(|e| {
                Error::Folder(format!("{}: games.csv line {line}: {e}", dir.display()))
            })
        })?;
    }
    Ok(groups)
}

/// `standard`, or the rules that differ from them.
fn rules_text(rules: &Rules) -> String {
    let text = rules.to_string();
    if text.is_empty() {
        "standard".to_string()
    } else {
        text
    }
}

/// One seat of one group (`seats.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatRow {
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub rules: String,
    /// The seat (0 plays first).
    pub seat: usize,
    /// Games.
    pub games: u64,
    /// Its share of the wins (a shared first place split).
    pub win_share: f64,
    /// Wilson interval of the share, low end.
    pub win_share_low: f64,
    /// High end.
    pub win_share_high: f64,
    /// The share with no seat advantage: 1 / players.
    pub fair_share: f64,
    /// Mean score.
    pub mean_score: f64,
    /// Mean of its score minus the mean of the other seats' scores.
    pub mean_margin: f64,
    /// Standard error of `mean_margin`.
    pub mean_margin_se: f64,
}

/// The seats of `group`.
pub fn seats(group: &Group) -> Vec<SeatRow> {
    let n = group.players;
    let games = group.games() as f64;
    (0..n)
        .map(|s| {
            let (low, high) = wilson_interval(group.wins[s], games, Z95);
            let scores = group.game_scores().map(|g| f64::from(g[s]));
            let margins = group.game_scores().map(|g| {
                let total: u32 = g.iter().sum();
                let others = f64::from(total - g[s]) / (n - 1) as f64;
                f64::from(g[s]) - others
            });
            let margin = mean_se_of(margins);
            SeatRow {
                players: n,
                rules: group.rules.clone(),
                seat: s,
                games: group.games(),
                win_share: if games > 0.0 {
                    group.wins[s] / games
                } else {
                    0.0
                },
                win_share_low: low,
                win_share_high: high,
                fair_share: 1.0 / n as f64,
                mean_score: mean_se_of(scores).mean,
                mean_margin: margin.mean,
                mean_margin_se: margin.se,
            }
        })
        .collect()
}

/// The deck's share of one measure's variance (`decks.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeckRow {
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub rules: String,
    /// `total` (a game's points), `margin` (between two agents of a
    /// game) or `first_seat` (the first seat's score less the mean of the
    /// others': how much of the first seat's edge the deck sets).
    pub measure: String,
    /// Groups played at least twice (decks, or deck and agent pair).
    pub groups: u64,
    /// Values in them.
    pub values: u64,
    /// The share of the variance between groups (0 to 1); empty when
    /// fewer than 2 groups were played twice.
    pub share: Option<f64>,
    /// Bootstrap interval, low end.
    pub share_low: Option<f64>,
    /// High end.
    pub share_high: Option<f64>,
}

impl DeckRow {
    /// What the measure is, in words (`a game's total points`).
    pub fn what(&self) -> &'static str {
        match self.measure.as_str() {
            "total" => "a game's total points",
            "margin" => "the margin between two agents",
            _ => "the first seat's margin over the others",
        }
    }
}

/// The deck's share of the variance of a game's total points, of the
/// margins between agents and of the first seat's margin over the others
/// in `group`; the bootstrap draws from `seed`.
///
/// The agents are held fixed: a game's total (or first-seat margin) is
/// compared only with games of the same agents (its set of agents), a
/// margin only with margins of the same two agents, each measured from
/// that set's or pair's mean over all decks (a first-seat margin from
/// its seating's: the agents in seat order) — so an agent's strength,
/// or which agent sits first, is not counted as the deck's. The groups
/// are then one deck and one set (or pair) of agents. Within a group
/// the seatings differ (seat rotation): a deck that favours whoever sits
/// first shows in `first_seat`, not in `margin`, whose sign it flips
/// with the seats.
pub fn decks(group: &Group, seed: u64) -> Vec<DeckRow> {
    let n = group.players;
    let label = |id: &u32| group.agents[*id as usize].as_str();
    // Per seating: its set of agents (their labels sorted) and its pairs
    // of seats of different agents (the earlier label first: the margin
    // is its score less the other's) with the pair's labels.
    let mut tables: Vec<String> = Vec::new();
    let mut pairs: Vec<Vec<(usize, usize, String)>> = Vec::new();
    for seating in &group.seatings {
        let mut table: Vec<&str> = seating.iter().map(label).collect();
        table.sort_unstable();
        tables.push(table.join("\n"));
        let mut of_seating = Vec::new();
        for (i, x) in seating.iter().enumerate() {
            for (j, y) in seating.iter().enumerate().skip(i + 1) {
                let (x, y) = (label(x), label(y));
                if x == y {
                    continue;
                }
                of_seating.push(if x < y {
                    (i, j, format!("{x}\n{y}"))
                } else {
                    (j, i, format!("{y}\n{x}"))
                });
            }
        }
        pairs.push(of_seating);
    }
    let table_key = ranks(&tables);
    let pair_keys: Vec<Vec<u32>> = {
        let all: Vec<String> = pairs.iter().flatten().map(|p| p.2.clone()).collect();
        let mut keys = ranks(&all).into_iter();
        pairs
            .iter()
            .map(|p| keys.by_ref().take(p.len()).collect())
            .collect()
    };
    let games = || {
        group
            .deck
            .iter()
            .zip(&group.seating)
            .zip(group.game_scores())
            .map(|((&deck, &seating), scores)| (deck, seating as usize, scores))
    };

    // Each measure's values are dropped once its row is made.
    let row = |measure: &str, groups: Groups, salt: u64| {
        let groups_len = groups.ends.len();
        let slices = groups.slices();
        let (share, low, high) = if groups_len >= 2 {
            let (low, high) = bootstrap(&slices, seed ^ salt);
            (between_share(&slices), low, high)
        } else {
            (None, None, None)
        };
        DeckRow {
            players: group.players,
            rules: group.rules.clone(),
            measure: measure.to_string(),
            groups: groups_len as u64,
            values: groups.values.len() as u64,
            share,
            share_low: low,
            share_high: high,
        }
    };
    let totals = grouped(
        games()
            .map(|(deck, seating, scores)| Value {
                key: table_key[seating],
                deck,
                value: f64::from(scores.iter().sum::<u32>()),
            })
            .collect(),
    );
    let total = row("total", centred_by_key(tables.len(), totals), 1);

    let margins = grouped(
        games()
            .flat_map(|(deck, seating, scores)| {
                pairs[seating]
                    .iter()
                    .zip(&pair_keys[seating])
                    .map(move |(&(a, b, _), &key)| Value {
                        key,
                        deck,
                        value: f64::from(scores[a]) - f64::from(scores[b]),
                    })
            })
            .collect(),
    );
    let margin = row(
        "margin",
        centred_by_key(pair_keys.iter().flatten().count(), margins),
        2,
    );

    // The first seat's margin over the others, less its seating's mean.
    let first = |scores: &[u32]| {
        let total: u32 = scores.iter().sum();
        let others = f64::from(total - scores[0]) / (n - 1) as f64;
        f64::from(scores[0]) - others
    };
    let mut by_seating = vec![(0.0, 0.0); group.seatings.len()];
    for (_, seating, scores) in games() {
        let s: &mut (f64, f64) = &mut by_seating[seating];
        s.0 += first(scores);
        s.1 += 1.0;
    }
    let (values, runs) = grouped(
        games()
            .map(|(deck, seating, scores)| {
                let (sum, count) = by_seating[seating];
                Value {
                    key: table_key[seating],
                    deck,
                    value: first(scores) - sum / count,
                }
            })
            .collect(),
    );
    let mut first_seat = Groups::default();
    for (_, run) in runs.into_iter().filter(|(_, r)| r.len() >= 2) {
        first_seat.values.extend_from_slice(&values[run]);
        first_seat.ends.push(first_seat.values.len());
    }

    vec![total, margin, row("first_seat", first_seat, 3)]
}

/// Each of `keys`' rank among its distinct values in sorted order: equal
/// keys get equal ranks, and ranks sort as the keys do.
fn ranks(keys: &[String]) -> Vec<u32> {
    let mut sorted: Vec<&str> = keys.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted.dedup();
    keys.iter()
        .map(|k| sorted.binary_search(&k.as_str()).unwrap_or(0) as u32)
        .collect()
}

/// One value of a deck measure: its key (the set or pair of agents, as a
/// rank) and its deck.
struct Value {
    key: u32,
    deck: u64,
    value: f64,
}

/// `values` sorted by key and deck (game order kept within), with the
/// range of each `(key, deck)` group.
fn grouped(mut values: Vec<Value>) -> (Vec<f64>, Vec<(u32, Range<usize>)>) {
    values.sort_by_key(|v| (v.key, v.deck));
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=values.len() {
        if i == values.len()
            || (values[i].key, values[i].deck) != (values[start].key, values[start].deck)
        {
            runs.push((values[start].key, start..i));
            start = i;
        }
    }
    (values.into_iter().map(|v| v.value).collect(), runs)
}

/// Groups of values, one flat list and where each group ends.
#[derive(Default)]
struct Groups {
    values: Vec<f64>,
    ends: Vec<usize>,
}

impl Groups {
    fn slices(&self) -> Vec<&[f64]> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let slice = &self.values[start..end];
                start = end;
                slice
            })
            .collect()
    }
}

/// The `(key, deck)` groups of `values` (as [`grouped`] gives them; `keys`
/// distinct keys) played at least twice, each value less the mean of its
/// key's values over every deck.
fn centred_by_key(keys: usize, (values, runs): (Vec<f64>, Vec<(u32, Range<usize>)>)) -> Groups {
    let mut sums = vec![(0.0, 0.0); keys];
    for (key, run) in &runs {
        let s: &mut (f64, f64) = &mut sums[*key as usize];
        s.0 += values[run.clone()].iter().sum::<f64>();
        s.1 += run.len() as f64;
    }
    let mut out = Groups::default();
    for (key, run) in runs.into_iter().filter(|(_, r)| r.len() >= 2) {
        let (sum, count) = sums[key as usize];
        let mean = sum / count;
        out.values.extend(values[run].iter().map(|x| x - mean));
        out.ends.push(out.values.len());
    }
    out
}

/// The share of the variance that lies between `groups`: the one-way
/// random-effects ANOVA estimate `σ²_b / (σ²_b + σ²_w)` with
/// `σ²_b = max(0, (MSB − MSW) / n₀)`, `n₀ = (N − Σnᵢ²/N) / (k − 1)`.
/// `None` with fewer than 2 groups, or no variance at all.
pub fn between_share<G: AsRef<[f64]>>(groups: &[G]) -> Option<f64> {
    let k = groups.len();
    let n: usize = groups.iter().map(|g| g.as_ref().len()).sum();
    if k < 2 || n <= k {
        return None;
    }
    let (kf, nf) = (k as f64, n as f64);
    let grand = groups.iter().flat_map(|g| g.as_ref()).sum::<f64>() / nf;
    let mut between = 0.0;
    let mut within = 0.0;
    for g in groups {
        let g = g.as_ref();
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        between += g.len() as f64 * (mean - grand) * (mean - grand);
        within += g.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>();
    }
    let msb = between / (kf - 1.0);
    let msw = within / (nf - kf);
    let n0 = (nf
        - groups
            .iter()
            .map(|g| (g.as_ref().len() * g.as_ref().len()) as f64)
            .sum::<f64>()
            / nf)
        / (kf - 1.0);
    let sigma_b = ((msb - msw) / n0).max(0.0);
    let total = sigma_b + msw;
    (total > 0.0).then(|| sigma_b / total)
}

/// The 2.5% and 97.5% quantiles of [`between_share`] over [`BOOTSTRAP`]
/// resamples of whole groups.
fn bootstrap(groups: &[&[f64]], seed: u64) -> (Option<f64>, Option<f64>) {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    // One sample buffer of borrowed groups: no copy of a group's values.
    let mut sample: Vec<&[f64]> = Vec::with_capacity(groups.len());
    let mut shares: Vec<f64> = (0..BOOTSTRAP)
        .filter_map(|_| {
            sample.clear();
            sample.extend((0..groups.len()).map(|_| groups[rng.gen_range(0..groups.len())]));
            between_share(&sample)
        })
        .collect();
    if shares.is_empty() {
        return (None, None);
    }
    shares.sort_by(f64::total_cmp);
    let at = |q: f64| shares[((q * (shares.len() - 1) as f64).round()) as usize];
    (Some(at(0.025)), Some(at(0.975)))
}

/// How long the games of one group last (`length.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthRow {
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub rules: String,
    /// Games.
    pub games: u64,
    /// Games left out: a seat forfeited.
    pub forfeited: u64,
    /// Mean turns per game (all seats).
    pub turns_mean: f64,
    /// Their standard deviation.
    pub turns_sd: f64,
    /// Fewest.
    pub turns_min: usize,
    /// Most.
    pub turns_max: usize,
}

/// The length of the games of `group`.
pub fn length(group: &Group) -> LengthRow {
    let m = mean_se_of(group.turns.iter().map(|&t| f64::from(t)));
    LengthRow {
        players: group.players,
        rules: group.rules.clone(),
        games: group.games(),
        forfeited: group.forfeited,
        turns_mean: m.mean,
        turns_sd: m.se * (m.n as f64).sqrt(),
        turns_min: group.turns.iter().min().map_or(0, |&t| t as usize),
        turns_max: group.turns.iter().max().map_or(0, |&t| t as usize),
    }
}

/// Where one agent's points come from in one group (`agents.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRow {
    /// Seats per game.
    pub players: usize,
    /// The rules.
    pub rules: String,
    /// The agent's label.
    pub agent: String,
    /// Seats it played.
    pub seats: u64,
    /// Mean points.
    pub score: f64,
    /// Mean points from roads.
    pub road: f64,
    /// From cities.
    pub city: f64,
    /// From monasteries.
    pub monastery: f64,
    /// From farms.
    pub farm: f64,
    /// From gift cards.
    pub gifts: f64,
    /// Mean meeples placed.
    pub meeples_placed: f64,
}

/// The agents of `group`, in order of first appearance.
pub fn agents(group: &Group) -> Vec<AgentRow> {
    group
        .agents
        .iter()
        .zip(&group.sums)
        .map(|(agent, s)| {
            let mean = |k: usize| s[k] / s[0];
            AgentRow {
                players: group.players,
                rules: group.rules.clone(),
                agent: agent.clone(),
                seats: s[0] as u64,
                score: mean(1),
                road: mean(2),
                city: mean(3),
                monastery: mean(4),
                farm: mean(5),
                gifts: mean(6),
                meeples_placed: mean(7),
            }
        })
        .collect()
}

/// Write `rows` as the CSV file `name` in `dir`, atomically.
///
/// # Errors
/// The file cannot be written.
pub fn write_csv<T: Serialize>(dir: &Path, name: &str, rows: &[T]) -> Result<()> {
    let bytes = crate::results::output::csv_bytes(rows)?;
    crate::results::output::write_atomic(&dir.join(name), &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::summary;
    use crate::stats::mean_se;
    use crate::stats::test_support::assert_close;

    fn row(game: u64, deck: u64, seat: usize, agent: &str, score: u32) -> GameRow {
        GameRow {
            game,
            deck_seed: deck,
            seat,
            agent: agent.to_string(),
            score,
            road: 0,
            city: score as u16,
            monastery: 0,
            farm: 0,
            gifts: 0,
            rank: 0,
            result: Outcome::Loss,
            turns: 71,
            meeples_placed: 5,
            think_ms: 0.0,
            decisions: None,
            forfeit: String::new(),
        }
    }

    /// `games` two-seat games whose results follow `rank_seats`.
    fn group(games: Vec<[(usize, &str, u32); 2]>, deck_of: impl Fn(u64) -> u64) -> Group {
        let mut group = Group::new(2, "standard");
        for (g, seats) in games.into_iter().enumerate() {
            group
                .add(&ranked(g as u64, deck_of(g as u64), &seats))
                .unwrap();
        }
        group
    }

    /// The rows of game `g` on `deck`, `seats` as (seat, agent, score) in
    /// row order, ranked by score.
    fn ranked(g: u64, deck: u64, seats: &[(usize, &str, u32)]) -> Vec<GameRow> {
        let mut rows: Vec<GameRow> = seats
            .iter()
            .map(|&(seat, agent, score)| row(g, deck, seat, agent, score))
            .collect();
        let scores: Vec<u32> = rows.iter().map(|r| r.score).collect();
        for (r, (rank, result)) in rows.iter_mut().zip(summary::rank_seats(&scores, None)) {
            r.rank = rank;
            r.result = result;
        }
        rows
    }

    /// Four-seat games of three agents (one twice at the table), ties and
    /// a forfeit among them: the compact group gives, to the last bit,
    /// what the two-pass formulas give over the rows themselves.
    #[test]
    fn the_compact_group_gives_what_the_rows_give() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut group = Group::new(4, "standard");
        let mut games: Vec<Vec<GameRow>> = Vec::new();
        for g in 0..500u64 {
            let agents = ["a", "b", "c", "a"];
            let seats: Vec<(usize, &str, u32)> = (0..4)
                .map(|s| (s, agents[(s + g as usize) % 4], rng.gen_range(10..14)))
                .collect();
            let mut rows = ranked(g, g / 4, &seats);
            for r in &mut rows {
                r.turns = 70 + rng.gen_range(0..3);
            }
            if g == 7 {
                rows[2].forfeit = "timeout".into();
            }
            group.add(&rows).unwrap();
            if g != 7 {
                games.push(rows);
            }
        }
        assert_eq!((group.games(), group.forfeited), (499, 1));
        let rows = seats(&group);
        for (s, r) in rows.iter().enumerate() {
            let scores: Vec<f64> = games.iter().map(|g| f64::from(g[s].score)).collect();
            let margins: Vec<f64> = games
                .iter()
                .map(|g| {
                    let total: u32 = g.iter().map(|r| r.score).sum();
                    f64::from(g[s].score) - f64::from(total - g[s].score) / 3.0
                })
                .collect();
            let m = mean_se(&margins);
            assert_eq!(r.mean_score.to_bits(), mean_se(&scores).mean.to_bits());
            assert_eq!(
                (r.mean_margin.to_bits(), r.mean_margin_se.to_bits()),
                (m.mean.to_bits(), m.se.to_bits())
            );
        }
        let wins: f64 = rows.iter().map(|r| r.win_share).sum();
        assert_close(wins, 1.0, 1e-12);
        let turns: Vec<f64> = games.iter().map(|g| g[0].turns as f64).collect();
        let m = mean_se(&turns);
        let length = length(&group);
        assert_eq!(length.turns_mean.to_bits(), m.mean.to_bits());
        assert_eq!(
            length.turns_sd.to_bits(),
            (m.se * (m.n as f64).sqrt()).to_bits()
        );
        assert_eq!((length.turns_min, length.turns_max), (70, 72));
        let agents = agents(&group);
        let names: Vec<&str> = agents.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        for r in &agents {
            let of: Vec<f64> = games
                .iter()
                .flatten()
                .filter(|x| x.agent == r.agent)
                .map(|x| f64::from(x.score))
                .collect();
            assert_eq!(r.seats, of.len() as u64);
            assert_eq!(r.score, of.iter().sum::<f64>() / of.len() as f64);
        }
    }

    /// A game whose rows are not one per seat is refused, naming it.
    #[test]
    fn a_game_without_one_row_per_seat_is_refused() {
        let mut group = Group::new(2, "standard");
        let e = group
            .add(&ranked(3, 1, &[(0, "a", 5), (0, "b", 6)]))
            .unwrap_err();
        assert!(e.contains("game 3"), "{e}");
        // A partial game (fewer rows than seats) is skipped.
        group.add(&ranked(4, 1, &[(0, "a", 5)])).unwrap();
        assert_eq!(group.games(), 0);
    }

    /// Games in which the first seat wins 70% of the time: the seat's
    /// share is found, with an interval that holds it and leaves ½ out.
    #[test]
    fn a_planted_first_seat_advantage_is_found() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let games: Vec<[(usize, &str, u32); 2]> = (0..2000)
            .map(|_| {
                let first_wins = rng.gen_bool(0.7);
                let (a, b) = if first_wins { (80, 60) } else { (60, 80) };
                [(0, "x", a), (1, "x", b)]
            })
            .collect();
        let rows = seats(&group(games, |g| g));
        let first = &rows[0];
        assert!(
            first.win_share_low < 0.7 && 0.7 < first.win_share_high,
            "{first:?}"
        );
        assert!(first.win_share_low > 0.5);
        assert_close(rows[0].win_share + rows[1].win_share, 1.0, 1e-12);
        assert!(rows[1].mean_margin < 0.0 && rows[0].mean_margin > 0.0);
    }

    /// A tie splits the win between the tied seats.
    #[test]
    fn a_shared_first_place_splits_the_win() {
        let rows = seats(&group(vec![[(0, "a", 50), (1, "b", 50)]], |g| g));
        assert_eq!((rows[0].win_share, rows[1].win_share), (0.5, 0.5));
    }

    /// The ANOVA estimate by hand: groups {1, 3} and {5, 7} (means 2 and
    /// 6, grand mean 4): MSB = (2·4 + 2·4)/1 = 16, MSW = (1+1+1+1)/2 = 2,
    /// n₀ = (4 − 8/4)/1 = 2, σ²_b = (16 − 2)/2 = 7, share 7/(7 + 2).
    #[test]
    fn the_between_share_by_hand() {
        let share = between_share(&[vec![1.0, 3.0], vec![5.0, 7.0]]).unwrap();
        assert_close(share, 7.0 / 9.0, 1e-12);
        // Groups that differ less than their values: no deck effect.
        assert_eq!(between_share(&[vec![1.0, 9.0], vec![2.0, 8.0]]), Some(0.0));
        assert_eq!(between_share(&[vec![1.0, 3.0]]), None);
    }

    /// Two pairings on the same decks, one 30 points apart and one even,
    /// decks that change nothing: the gap between the pairings is the
    /// agents', not the deck's.
    #[test]
    fn an_agents_strength_is_not_counted_as_the_decks() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let games: Vec<[(usize, &str, u32); 2]> = (0..800)
            .map(|g| {
                let seat = (g % 2) as usize;
                let strong = if g % 4 < 2 { "strong" } else { "even" };
                let gap = if strong == "strong" { 30 } else { 0 };
                let a = 40 + gap + rng.gen_range(0..20);
                let b = 40 + rng.gen_range(0..20);
                [(seat, strong, a), (1 - seat, "weak", b)]
            })
            .collect();
        let rows = decks(&group(games, |g| g / 4), 1);
        let margin = &rows[1];
        assert_eq!((margin.measure.as_str(), margin.groups), ("margin", 400));
        assert!(margin.share.unwrap() < 0.2, "{margin:?}");
    }

    /// 400 games on 200 decks (two each, seats swapped): each deck sets
    /// both games' points up to a little noise.
    fn deck_games() -> Vec<[(usize, &'static str, u32); 2]> {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
        (0..400)
            .map(|g| {
                let deck_level = 40 + 5 * (g as u32 / 2 % 20);
                let noise = rng.gen_range(0..3);
                let seat = (g % 2) as usize;
                [(seat, "a", deck_level + noise), (1 - seat, "b", deck_level)]
            })
            .collect()
    }

    /// Decks that favour the first seat (by a different number of points
    /// each), one agent far stronger: the deck sets the first seat's
    /// margin (the stronger agent's seat is not counted as the deck's),
    /// and none of the margin between the agents.
    #[test]
    fn decks_that_favour_the_first_seat_are_found() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
        let games: Vec<[(usize, &str, u32); 2]> = (0..400)
            .map(|g| {
                let edge = 2 * (g as u32 / 2 % 15);
                let seat = (g % 2) as usize;
                // `a` is 30 points stronger: who sits first is not the deck.
                let (a, b) = (80 + rng.gen_range(0..3), 50 + rng.gen_range(0..3));
                let (a, b) = if seat == 0 {
                    (a + edge, b)
                } else {
                    (a, b + edge)
                };
                [(seat, "a", a), (1 - seat, "b", b)]
            })
            .collect();
        let rows = decks(&group(games, |g| g / 2), 1);
        let [margin, first] = [&rows[1], &rows[2]];
        assert_eq!((first.measure.as_str(), first.groups), ("first_seat", 200));
        assert!(first.share.unwrap() > 0.8, "{first:?}");
        assert!(margin.share.unwrap() < 0.1, "{margin:?}");
    }

    /// Decks that set the total show a large deck share of it; self-play's
    /// one game per deck shows none to measure; a seed gives its interval.
    #[test]
    fn decks_that_set_the_score_are_found() {
        let paired = decks(&group(deck_games(), |g| g / 2), 1);
        let total = &paired[0];
        assert_eq!((total.measure.as_str(), total.groups), ("total", 200));
        assert!(total.share.unwrap() > 0.9, "{total:?}");
        assert!(total.share_low.unwrap() <= total.share.unwrap());
        assert!(total.share.unwrap() <= total.share_high.unwrap());
        let single = decks(&group(deck_games(), |g| g), 1);
        assert_eq!((single[0].groups, single[0].share), (0, None));
        assert_eq!(paired, decks(&group(deck_games(), |g| g / 2), 1));
    }
}
