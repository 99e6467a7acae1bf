//! One Bradley–Terry fit over a [`Pool`], anchored, with intervals from
//! a bootstrap over deck groups.
//!
//! The ratings are [`crate::stats::fit_elo_totals`]' maximum-likelihood fit of
//! every comparison (draws as half points, its one-virtual-draw prior
//! included), shifted so that the anchor has its given rating.
//!
//! **Why a bootstrap over decks.** A game of `p` players gives
//! `p(p − 1)/2` comparisons that share its tiles and its agents' moves,
//! and the games of one deck (its seat rotation) share their tiles: these
//! are not independent coin flips, so an interval from the Fisher
//! information of the comparisons (what `summary.csv`'s Elo interval
//! uses) would be too narrow. Each bootstrap resample draws as many deck
//! groups as the pool holds, with replacement, refits, and keeps each
//! rating minus the anchor's; the interval is the 2.5th and 97.5th
//! percentiles of those (the anchor's own interval is its given value).
//! Resampling whole groups keeps every dependence inside a group. The
//! resamples draw from [`rand_pcg::Pcg64`] seeded with the given seed, so
//! an interval is the same for a seed on every machine.
//!
//! **Connectivity.** An agent with no chain of comparisons to the anchor
//! has no rating relative to it (the prior alone would hold it near the
//! field's mean, a number that means nothing): it is reported without a
//! rating or interval.

use super::pool::Pool;
use crate::stats::{fit_elo_points, PairTotals};
use files::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

/// The bootstrap resamples by default.
pub const DEFAULT_BOOTSTRAP: usize = 200;

/// The most bootstrap resamples accepted.
pub const MAX_BOOTSTRAP: usize = 100_000;

/// The agent whose rating is fixed, and its rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// Its label.
    pub agent: String,
    /// Its rating (Elo).
    pub elo: f64,
}

/// One agent of a [`Ladder`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Its label.
    pub agent: String,
    /// Elo relative to the anchor; `None` when no chain of games links it
    /// to the anchor.
    pub rating: Option<f64>,
    /// The 2.5th percentile of the bootstrap; `None` without a rating,
    /// without resamples or with fewer than 2 deck groups.
    pub low: Option<f64>,
    /// The 97.5th percentile of the bootstrap.
    pub high: Option<f64>,
    /// Games it took part in.
    pub games: u64,
    /// Points per comparison: (wins + draws / 2) / comparisons, over
    /// every pair of seats it shared with another agent.
    pub score: f64,
    /// Distinct agents it met.
    pub opponents: usize,
}

/// The results of one ordered pair of agents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// The agent.
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// Comparisons between them (for 2 players: games).
    pub games: u64,
    /// Comparisons the agent won.
    pub wins: u64,
    /// Comparisons drawn.
    pub draws: u64,
    /// Comparisons the agent lost.
    pub losses: u64,
    /// (wins + draws / 2) / games.
    pub score: f64,
}

/// The ratings of a pool's agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// The anchor used.
    pub anchor: Anchor,
    /// Bootstrap resamples.
    pub bootstrap: usize,
    /// The bootstrap's seed.
    pub seed: u64,
    /// Deck groups in the pool.
    pub decks: usize,
    /// Every agent, in the pool's order.
    pub ratings: Vec<Rating>,
    /// Every ordered pair that met, in the pool's order.
    pub head_to_head: Vec<HeadToHead>,
}

impl Ladder {
    /// The ratings best first; agents without a rating last, in the
    /// pool's order.
    pub fn ranked(&self) -> Vec<&Rating> {
        let mut ranked: Vec<&Rating> = self.ratings.iter().collect();
        ranked.sort_by(|x, y| match (x.rating, y.rating) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        ranked
    }

    /// The rating of `agent`.
    pub fn get(&self, agent: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.agent == agent)
    }

    /// The printed table: rank, agent, rating, interval, games, score,
    /// opponents.
    pub fn table(&self) -> String {
        let ranked = self.ranked();
        let width = ranked
            .iter()
            .map(|r| r.agent.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>7}  {:>17}  {:>7}  {:>6}  {:>9}\n",
            "rank", "agent", "rating", "95% interval", "games", "score", "opponents"
        );
        for (i, r) in ranked.iter().enumerate() {
            let (rank, rating) = match r.rating {
                Some(x) => ((i + 1).to_string(), format!("{x:.1}")),
                None => ("-".to_string(), "unconnected".to_string()),
            };
            let interval = match (r.low, r.high) {
                (Some(lo), Some(hi)) => format!("[{lo:.1}, {hi:.1}]"),
                _ => "-".to_string(),
            };
            out.push_str(&format!(
                "{rank:>4}  {:<width$}  {rating:>7}  {interval:>17}  {:>7}  {:>5.1}%  {:>9}\n",
                r.agent,
                r.games,
                100.0 * r.score,
                r.opponents
            ));
        }
        out.push_str(&format!(
            "anchor {} = {}; 95% intervals from {} bootstrap resamples of {} deck groups (seed {})\n",
            self.anchor.agent, self.anchor.elo, self.bootstrap, self.decks, self.seed
        ));
        out
    }
}

/// The agents linked to `from` by a chain of comparisons.
fn connected(pool: &Pool, totals: &PairTotals, from: usize) -> Vec<bool> {
    let k = pool.agents.len();
    let mut seen = vec![false; k];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for (j, seen_j) in seen.iter_mut().enumerate() {
            if !*seen_j && totals.games(i, j) > 0.0 {
                *seen_j = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// The `q`-quantile of sorted `values` (linear between order
/// statistics).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let t = position - below as f64;
    sorted[below] + t * (sorted[above] - sorted[below])
}

/// One pair's results in one deck group: (a, b, games, a's points).
type DeckPair = (usize, usize, f64, f64);

/// Each deck group's comparisons summed per pair, and where each group
/// starts.
fn deck_totals(pool: &Pool) -> (Vec<DeckPair>, Vec<usize>) {
    let mut sums = Vec::new();
    let mut starts = vec![0];
    for d in 0..pool.decks() {
        let start = sums.len();
        for c in pool.deck(d) {
            let (a, b, s) = if c.a < c.b {
                (c.a as usize, c.b as usize, c.score_a)
            } else {
                (c.b as usize, c.a as usize, 1.0 - c.score_a)
            };
            match sums[start..]
                .iter_mut()
                .find(|(x, y, _, _): &&mut DeckPair| *x == a && *y == b)
            {
                Some(entry) => {
                    entry.2 += 1.0;
                    entry.3 += s;
                }
                None => sums.push((a, b, 1.0, s)),
            }
        }
        starts.push(sums.len());
    }
    (sums, starts)
}

/// Rate every agent of `pool`: Bradley–Terry on the Elo scale, `anchor`
/// (an agent's label and its rating; default the pool's first agent at
/// 0) fixed, and 95% intervals from `bootstrap` resamples of deck groups
/// drawn with `seed` (see the module documentation).
///
/// # Errors
/// The pool has no comparisons, the anchor is not one of its agents, or
/// `bootstrap` is above [`MAX_BOOTSTRAP`].
pub fn fit(
    pool: &Pool,
    anchor: Option<(&str, f64)>,
    bootstrap: usize,
    seed: u64,
) -> Result<Ladder> {
    let k = pool.agents.len();
    if pool.comparisons.is_empty() || k < 2 {
        return Err(Error::Invalid(
            "nothing to rate: the folders hold no game between two different agents".to_string(),
        ));
    }
    if bootstrap > MAX_BOOTSTRAP {
        return Err(Error::Invalid(format!(
            "--bootstrap must be at most {MAX_BOOTSTRAP}, not {bootstrap}"
        )));
    }
    let (anchor_label, anchor_elo) = anchor.unwrap_or((pool.agents[0].as_str(), 0.0));
    if !anchor_elo.is_finite() {
        return Err(Error::Invalid(format!(
            "--anchor {anchor_label}={anchor_elo}: the rating must be a finite number"
        )));
    }
    let a0 = pool.agent(anchor_label).ok_or_else(|| {
        Error::Invalid(format!(
            "--anchor {anchor_label}: no such agent in the folders (agents: {})",
            pool.agents.join(" ")
        ))
    })?;

    let mut totals = PairTotals::new(k);
    for c in &pool.comparisons {
        totals.add(c.a as usize, c.b as usize, 1.0, c.score_a);
    }
    let linked = connected(pool, &totals, a0);
    let points = fit_elo_points(&totals);
    let relative = |p: &[f64], i: usize| p[i] - p[a0] + anchor_elo;

    // The bootstrap: each resample's ratings relative to the anchor.
    let decks = pool.decks();
    let resamples = if decks >= 2 { bootstrap } else { 0 };
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); k];
    if resamples > 0 {
        let (sums, starts) = deck_totals(pool);
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut sample = PairTotals::new(k);
        for _ in 0..resamples {
            sample.clear();
            for _ in 0..decks {
                let d = rng.gen_range(0..decks);
                for &(a, b, n, s) in &sums[starts[d]..starts[d + 1]] {
                    sample.add(a, b, n, s);
                }
            }
            let p = fit_elo_points(&sample);
            for (i, d) in draws.iter_mut().enumerate() {
                d.push(relative(&p, i));
            }
        }
    }

    let mut ratings = Vec::with_capacity(k);
    let mut head_to_head = Vec::new();
    for i in 0..k {
        let (mut n, mut points_i, mut opponents) = (0.0, 0.0, 0);
        for j in 0..k {
            let games = totals.games(i, j);
            if j == i || games == 0.0 {
                continue;
            }
            n += games;
            points_i += totals.score(i, j);
            opponents += 1;
        }
        let rating = linked[i].then(|| relative(&points, i));
        let (low, high) = if !linked[i] || resamples == 0 {
            (None, None)
        } else if i == a0 {
            (Some(anchor_elo), Some(anchor_elo))
        } else {
            let mut sorted = std::mem::take(&mut draws[i]);
            sorted.sort_by(f64::total_cmp);
            (
                Some(quantile(&sorted, 0.025)),
                Some(quantile(&sorted, 0.975)),
            )
        };
        ratings.push(Rating {
            agent: pool.agents[i].clone(),
            rating,
            low,
            high,
            games: pool.seats[i],
            score: if n > 0.0 { points_i / n } else { 0.0 },
            opponents,
        });
    }
    let mut wdl = vec![(0u64, 0u64, 0u64); k * k];
    for c in &pool.comparisons {
        let (a, b) = (c.a as usize, c.b as usize);
        let (w, d, l) = if c.score_a > 0.75 {
            (1, 0, 0)
        } else if c.score_a > 0.25 {
            (0, 1, 0)
        } else {
            (0, 0, 1)
        };
        let ab = &mut wdl[a * k + b];
        (ab.0, ab.1, ab.2) = (ab.0 + w, ab.1 + d, ab.2 + l);
        let ba = &mut wdl[b * k + a];
        (ba.0, ba.1, ba.2) = (ba.0 + l, ba.1 + d, ba.2 + w);
    }
    for a in 0..k {
        for b in 0..k {
            let (wins, draws, losses) = wdl[a * k + b];
            let games = wins + draws + losses;
            if a == b || games == 0 {
                continue;
            }
            head_to_head.push(HeadToHead {
                agent: pool.agents[a].clone(),
                opponent: pool.agents[b].clone(),
                games,
                wins,
                draws,
                losses,
                score: (wins as f64 + draws as f64 / 2.0) / games as f64,
            });
        }
    }
    Ok(Ladder {
        anchor: Anchor {
            agent: anchor_label.to_string(),
            elo: anchor_elo,
        },
        bootstrap,
        seed,
        decks,
        ratings,
        head_to_head,
    })
}
