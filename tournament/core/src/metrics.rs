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

use crate::results::output::{for_each_game, read_run_info};
use crate::results::schema::{GameRow, Outcome};
use crate::stats::{mean_se, wilson_interval, Z95};
use engine::Rules;
use files::error::{Error, Result};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Resamples of the decks' bootstrap.
pub const BOOTSTRAP: usize = 200;

/// The complete games of one player count and rules.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Seats per game.
    pub players: usize,
    /// The rules (`standard` or the `KEY=VALUE,…` that differ).
    pub rules: String,
    /// The folders it was read from.
    pub folders: Vec<PathBuf>,
    /// Each game's rows, seat by seat; no forfeits.
    pub games: Vec<Vec<GameRow>>,
    /// Games left out because a seat forfeited.
    pub forfeited: u64,
}

/// Read the complete games of `dirs`, grouped by player count and rules
/// (in order of first appearance).
///
/// # Errors
/// One line: a folder without run.json or games.csv, a games.csv that
/// does not parse, or a folder given twice.
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
                groups.push(Group {
                    players,
                    rules,
                    ..Group::default()
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[at];
        group.folders.push(dir.clone());
        for_each_game(dir, |game, _| {
            if game.len() == players {
                if game.iter().any(|r| !r.forfeit.is_empty()) {
                    group.forfeited += 1;
                } else {
                    group.games.push(game.to_vec());
                }
            }
            Ok(())
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
    let mut wins = vec![0.0; n];
    let mut scores = vec![Vec::new(); n];
    let mut margins = vec![Vec::new(); n];
    for game in &group.games {
        let tied = game.iter().filter(|r| r.result == Outcome::Draw).count();
        let total: u32 = game.iter().map(|r| r.score).sum();
        for row in game {
            let s = row.seat;
            wins[s] += match row.result {
                Outcome::Win => 1.0,
                Outcome::Draw => 1.0 / tied as f64,
                Outcome::Loss => 0.0,
            };
            let others = f64::from(total - row.score) / (n - 1) as f64;
            scores[s].push(f64::from(row.score));
            margins[s].push(f64::from(row.score) - others);
        }
    }
    let games = group.games.len() as f64;
    (0..n)
        .map(|s| {
            let (low, high) = wilson_interval(wins[s], games, Z95);
            let margin = mean_se(&margins[s]);
            SeatRow {
                players: n,
                rules: group.rules.clone(),
                seat: s,
                games: group.games.len() as u64,
                win_share: if games > 0.0 { wins[s] / games } else { 0.0 },
                win_share_low: low,
                win_share_high: high,
                fair_share: 1.0 / n as f64,
                mean_score: mean_se(&scores[s]).mean,
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
    // (agents, deck) → values.
    let mut totals: BTreeMap<(String, u64), Vec<f64>> = BTreeMap::new();
    let mut margins: BTreeMap<(String, u64), Vec<f64>> = BTreeMap::new();
    // (seating: the agents in seat order, agents, deck, first seat's margin).
    let mut first_seat: Vec<(String, String, u64, f64)> = Vec::new();
    for game in &group.games {
        let deck = game[0].deck_seed;
        let mut table: Vec<&str> = game.iter().map(|r| r.agent.as_str()).collect();
        table.sort_unstable();
        let total: u32 = game.iter().map(|r| r.score).sum();
        let table = table.join("\n");
        if let Some(first) = game.iter().find(|r| r.seat == 0) {
            let others = f64::from(total - first.score) / (game.len() - 1) as f64;
            let mut seating: Vec<&GameRow> = game.iter().collect();
            seating.sort_by_key(|r| r.seat);
            let seating: Vec<&str> = seating.iter().map(|r| r.agent.as_str()).collect();
            first_seat.push((
                seating.join("\n"),
                table.clone(),
                deck,
                f64::from(first.score) - others,
            ));
        }
        totals
            .entry((table, deck))
            .or_default()
            .push(f64::from(total));
        for (i, x) in game.iter().enumerate() {
            for y in &game[i + 1..] {
                if x.agent == y.agent {
                    continue;
                }
                let (a, b) = if x.agent < y.agent { (x, y) } else { (y, x) };
                let margin = f64::from(a.score) - f64::from(b.score);
                let pair = format!("{}\n{}", a.agent, b.agent);
                margins.entry((pair, deck)).or_default().push(margin);
            }
        }
    }
    let row = |measure: &str, groups: Vec<Vec<f64>>, salt: u64| {
        let values = groups.iter().map(Vec::len).sum::<usize>() as u64;
        let (share, low, high) = if groups.len() >= 2 {
            let (low, high) = bootstrap(&groups, seed ^ salt);
            (between_share(&groups), low, high)
        } else {
            (None, None, None)
        };
        DeckRow {
            players: group.players,
            rules: group.rules.clone(),
            measure: measure.to_string(),
            groups: groups.len() as u64,
            values,
            share,
            share_low: low,
            share_high: high,
        }
    };
    vec![
        row("total", centred_by_agents(totals), 1),
        row("margin", centred_by_agents(margins), 2),
        row("first_seat", centred_by_seating(first_seat), 3),
    ]
}

/// The groups of `values` (keyed by agents and deck) played at least
/// twice, each value less the mean of its agents' values over every deck.
fn centred_by_agents(values: BTreeMap<(String, u64), Vec<f64>>) -> Vec<Vec<f64>> {
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for ((agents, _), v) in &values {
        let s = sums.entry(agents.as_str()).or_default();
        s.0 += v.iter().sum::<f64>();
        s.1 += v.len() as f64;
    }
    let means: BTreeMap<String, f64> = sums
        .into_iter()
        .map(|(agents, (sum, n))| (agents.to_string(), sum / n))
        .collect();
    values
        .into_iter()
        .filter(|(_, v)| v.len() >= 2)
        .map(|((agents, _), v)| {
            let mean = means[&agents];
            v.into_iter().map(|x| x - mean).collect()
        })
        .collect()
}

/// The first seat's margins grouped by agents and deck, each less the
/// mean of its seating (the agents in seat order) over every deck: who
/// sits first is not counted as the deck's, a deck that favours whoever
/// sits first is. Groups played at least twice.
fn centred_by_seating(values: Vec<(String, String, u64, f64)>) -> Vec<Vec<f64>> {
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for (seating, _, _, v) in &values {
        let s = sums.entry(seating.as_str()).or_default();
        s.0 += v;
        s.1 += 1.0;
    }
    let mut groups: BTreeMap<(&str, u64), Vec<f64>> = BTreeMap::new();
    for (seating, agents, deck, v) in &values {
        let (sum, n) = sums[seating.as_str()];
        groups
            .entry((agents.as_str(), *deck))
            .or_default()
            .push(v - sum / n);
    }
    groups.into_values().filter(|g| g.len() >= 2).collect()
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
fn bootstrap(groups: &[Vec<f64>], seed: u64) -> (Option<f64>, Option<f64>) {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    // One sample buffer of borrowed groups: no copy of a group's values.
    let mut sample: Vec<&[f64]> = Vec::with_capacity(groups.len());
    let mut shares: Vec<f64> = (0..BOOTSTRAP)
        .filter_map(|_| {
            sample.clear();
            sample.extend(
                (0..groups.len()).map(|_| groups[rng.gen_range(0..groups.len())].as_slice()),
            );
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
    let turns: Vec<f64> = group.games.iter().map(|g| g[0].turns as f64).collect();
    let m = mean_se(&turns);
    LengthRow {
        players: group.players,
        rules: group.rules.clone(),
        games: group.games.len() as u64,
        forfeited: group.forfeited,
        turns_mean: m.mean,
        turns_sd: m.se * (m.n as f64).sqrt(),
        turns_min: group.games.iter().map(|g| g[0].turns).min().unwrap_or(0),
        turns_max: group.games.iter().map(|g| g[0].turns).max().unwrap_or(0),
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
    let mut order: Vec<String> = Vec::new();
    let mut sums: BTreeMap<String, [f64; 8]> = BTreeMap::new();
    for row in group.games.iter().flatten() {
        if !order.contains(&row.agent) {
            order.push(row.agent.clone());
        }
        let s = sums.entry(row.agent.clone()).or_default();
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
        for (sum, v) in s.iter_mut().zip(values) {
            *sum += v;
        }
    }
    order
        .into_iter()
        .map(|agent| {
            let s = sums[&agent];
            let mean = |k: usize| s[k] / s[0];
            AgentRow {
                players: group.players,
                rules: group.rules.clone(),
                seats: s[0] as u64,
                score: mean(1),
                road: mean(2),
                city: mean(3),
                monastery: mean(4),
                farm: mean(5),
                gifts: mean(6),
                meeples_placed: mean(7),
                agent,
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
        let games = games
            .into_iter()
            .enumerate()
            .map(|(g, seats)| {
                let mut rows: Vec<GameRow> = seats
                    .iter()
                    .map(|&(seat, agent, score)| {
                        row(g as u64, deck_of(g as u64), seat, agent, score)
                    })
                    .collect();
                let scores: Vec<u32> = rows.iter().map(|r| r.score).collect();
                for (r, (rank, result)) in rows.iter_mut().zip(summary::rank_seats(&scores, None)) {
                    r.rank = rank;
                    r.result = result;
                }
                rows
            })
            .collect();
        Group {
            players: 2,
            rules: "standard".into(),
            games,
            ..Group::default()
        }
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
