//! Measuring one SPSA iteration with games: `θ+` against `θ−` (the
//! default, as fishtest does), or each of them against a fixed opponent
//! (`--against`), on paired decks with the seats swapped.
//!
//! The games are those of a tournament's run core: a [`Schedule`] of
//! 2-player games whose pairings are `[θ+, θ−]` (direct) or
//! `[θ+, opponent], [θ−, opponent]` (against), so in the second case both
//! meet the opponent on the same decks; the [`Runner`] plays them on
//! `threads` threads and hands them back in game order, so the result
//! does not depend on the thread count.
//!
//! **The result** estimates `F(θ+) − F(θ−)` on the scale of a score
//! difference per game, with draws counting ½:
//!
//! - direct: `(S+ − S−) / N`, `S±` the points of `θ±` in the `N` games
//!   they played each other (so `W − L` of `θ+`, over `N`), in `−1..1`;
//! - against: `2·(S+ − S−) / N`, `S±` the points of `θ±` in the `N`
//!   games each played against the opponent, in `−2..2` (twice the
//!   difference of their scores: the same scale as the direct result
//!   near an even match, where a score of `½ + ε` against the other is
//!   `2ε` of `W − L` per game).

use crate::results::schema::{GameRow, Outcome};
use crate::run::roster::AgentPlan;
use crate::run::runner::{Flow, Runner};
use crate::run::schedule::Schedule;
use engine::Rules;
use files::error::{Error, Result};
use protocol::secret::Secret;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The labels of the games' rows: θ+, θ− and the opponent.
const LABELS: [&str; 3] = ["plus", "minus", "against"];

/// What one iteration's games gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Games each of `θ±` played (direct: the games between them).
    pub games: u64,
    /// The points of `θ+` (win 1, draw ½).
    pub plus_score: f64,
    /// The points of `θ−`.
    pub minus_score: f64,
    /// The estimate of `F(θ+) − F(θ−)` (module documentation).
    pub result: f64,
}

/// The games of one iteration, ready to play.
pub struct Iteration<'a> {
    /// The spec of `θ+`.
    pub plus: &'a str,
    /// The spec of `θ−`.
    pub minus: &'a str,
    /// The fixed opponent, if any.
    pub against: Option<&'a str>,
    /// Games per side, even (pairs of games on one deck).
    pub games: u64,
    /// The iteration's seed: its decks and agent seeds derive from it.
    pub seed: u64,
    /// The rules.
    pub rules: Rules,
    /// Where external bots (`--against ext:…`) write their stderr
    /// (`bot-N.log`); `None`: nowhere.
    pub bot_logs: Option<&'a Path>,
}

impl Iteration<'_> {
    /// The schedule of the iteration's games.
    pub fn schedule(&self) -> Schedule {
        let pairings = match self.against {
            None => vec![vec![0, 1]],
            Some(_) => vec![vec![0, 2], vec![1, 2]],
        };
        Schedule {
            players: 2,
            seed: self.seed,
            pairings,
            decks: self.games.div_ceil(2),
            shard: None,
            deck_per_game: false,
            deck_key: None,
        }
    }

    /// Play the games on `threads` threads; `None` when `cancel` stopped
    /// them before all were played (the iteration then counts for
    /// nothing).
    ///
    /// # Errors
    /// A spec that builds no agent, or the pool cannot start.
    pub fn play(&self, threads: usize, cancel: &AtomicBool) -> Result<Option<Measured>> {
        let mut specs = vec![self.plus.to_string(), self.minus.to_string()];
        specs.extend(self.against.map(str::to_string));
        let plan = AgentPlan::parse(&specs).map_err(|e| Error::Invalid(e.to_string()))?;
        let roster = plan.roster(
            self.bot_logs.map(Path::to_path_buf),
            Secret::bot_key(self.seed),
        );
        let labels: Vec<String> = LABELS[..specs.len()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let schedule = self.schedule();
        let runner = Runner {
            schedule: &schedule,
            roster: &roster,
            labels: &labels,
            rules: self.rules,
            records: false,
            positions: false,
            make_agent: None,
            cancel,
            keyed_agent_seeds: None,
        };
        let mut points = [0.0f64; 2];
        let mut played = 0u64;
        let outcome = runner.run(schedule.planned(), threads, |finished| {
            add_points(&finished.rows, &mut points);
            played += 1;
            Ok(Flow::Continue)
        });
        roster.shutdown();
        outcome?;
        if played < schedule.planned_games() {
            return Ok(None);
        }
        Ok(Some(self.measured(points)))
    }

    /// The result of `points` (of `θ+` and `θ−`) over the iteration.
    pub fn measured(&self, [plus, minus]: [f64; 2]) -> Measured {
        let games = self.schedule().games_per_pairing();
        let scale = if self.against.is_some() { 2.0 } else { 1.0 };
        Measured {
            games,
            plus_score: plus,
            minus_score: minus,
            result: scale * (plus - minus) / games as f64,
        }
    }
}

/// Add the points of `θ+` and `θ−` in a game's rows.
fn add_points(rows: &[GameRow], points: &mut [f64; 2]) {
    for row in rows {
        let side = match row.agent.as_str() {
            "plus" => 0,
            "minus" => 1,
            _ => continue,
        };
        points[side] += match row.result {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(against: Option<&str>) -> Iteration<'_> {
        Iteration {
            plus: "greedy",
            minus: "random",
            against,
            games: 3,
            seed: 5,
            rules: Rules::default(),
            bot_logs: None,
        }
    }

    #[test]
    fn both_sides_meet_the_opponent_on_the_same_decks_with_seats_swapped() {
        let s = iteration(Some("random")).schedule();
        assert_eq!(s.total_games(), 8);
        let games: Vec<_> = (0..8).map(|g| s.game(g)).collect();
        // Games 0-1: θ+ and the opponent on deck 0, seats swapped; 2-3:
        // θ− and the opponent on the same deck.
        assert_eq!(games[0].seats, vec![0, 2]);
        assert_eq!(games[1].seats, vec![2, 0]);
        assert_eq!(games[2].seats, vec![1, 2]);
        assert_eq!(games[3].seats, vec![2, 1]);
        assert!(games[..4].iter().all(|g| g.deck_seed == games[0].deck_seed));
        assert_ne!(games[4].deck_seed, games[0].deck_seed);
        let direct = iteration(None).schedule();
        assert_eq!(direct.total_games(), 4);
        assert_eq!(direct.game(1).seats, vec![1, 0]);
    }

    #[test]
    fn a_better_plus_gives_a_positive_result_on_the_same_scale_both_ways() {
        static NOT_CANCELLED: AtomicBool = AtomicBool::new(false);
        let direct = iteration(None).play(1, &NOT_CANCELLED).unwrap().unwrap();
        assert_eq!(direct.games, 4);
        assert_eq!(direct.plus_score + direct.minus_score, 4.0);
        assert!(direct.result > 0.5, "{direct:?}");
        let against = iteration(Some("random"))
            .play(2, &NOT_CANCELLED)
            .unwrap()
            .unwrap();
        assert_eq!(against.games, 4);
        assert!(against.result > 0.5, "{against:?}");
        let m = iteration(Some("random")).measured([3.0, 2.0]);
        assert_eq!(m.result, 0.5);
        let m = iteration(None).measured([3.0, 1.0]);
        assert_eq!(m.result, 0.5);
    }
}
