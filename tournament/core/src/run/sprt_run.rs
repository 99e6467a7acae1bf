//! The SPRT of a running A/B match (`--sprt`): counts the first agent's
//! results in game order and decides after every whole seat rotation, so
//! the stopping point does not depend on the thread count.
//!
//! In 2-player games each seat rotation is a pair of games on one deck
//! with the seats swapped, and the test counts pairs (the pentanomial
//! model, [`crate::stats::sprt`]); otherwise it would count single games
//! (trinomial).

use crate::results::schema::{GameRow, LlrPoint, SprtResult, SprtSettings};
use crate::results::summary::comparisons;
use crate::run::schedule::Schedule;
use crate::stats::{sprt_bounds, sprt_decide, Pentanomial, SprtDecision, SprtModel, Trinomial};

/// Points kept in the LLR trace of run.json (about; the stride is fixed
/// from the planned games so it does not depend on when the run stops).
const TRACE_POINTS: u64 = 200;

/// The state of the test over a run.
pub struct SprtRun {
    settings: SprtSettings,
    labels: Vec<String>,
    model: SprtModel,
    decision: SprtDecision,
    llr: f64,
    games: u64,
    trinomial: Trinomial,
    pentanomial: Pentanomial,
    /// Half-points of the first agent in the current seat rotation.
    unit_points: usize,
    /// Observations (pairs or games) tested so far.
    observations: u64,
    trace: Vec<LlrPoint>,
    trace_every: u64,
}

impl SprtRun {
    /// A test with `settings` of the run of `schedule` between `labels`
    /// (agent 0 is tested against agent 1).
    pub fn new(settings: SprtSettings, schedule: &Schedule, labels: &[String]) -> SprtRun {
        let model = if schedule.players == 2 {
            SprtModel::Pentanomial
        } else {
            SprtModel::Trinomial
        };
        let observations = match model {
            SprtModel::Pentanomial => schedule.planned_games() / 2,
            SprtModel::Trinomial => schedule.planned_games(),
        };
        SprtRun {
            settings,
            labels: labels.to_vec(),
            model,
            decision: SprtDecision::Continue,
            llr: 0.0,
            games: 0,
            trinomial: Trinomial::default(),
            pentanomial: Pentanomial::default(),
            unit_points: 0,
            observations: 0,
            trace: Vec::new(),
            trace_every: observations.div_ceil(TRACE_POINTS).max(1),
        }
    }

    /// Whether the test has decided.
    pub fn decided(&self) -> bool {
        self.decision != SprtDecision::Continue
    }

    /// Count the game with `rows` (the next game of the run, in order);
    /// true when the test has decided.
    pub fn after_game(&mut self, schedule: &Schedule, rows: &[GameRow]) -> bool {
        if self.decided() {
            return true;
        }
        let mut half_points = 0;
        for c in comparisons(&self.labels, rows) {
            let first = match (c.a, c.b) {
                (0, 1) => c.score_a,
                (1, 0) => 1.0 - c.score_a,
                _ => continue,
            };
            let points = (2.0 * first).round() as usize;
            half_points += points;
            match points {
                0 => self.trinomial.losses += 1,
                1 => self.trinomial.draws += 1,
                _ => self.trinomial.wins += 1,
            }
        }
        self.games += 1;
        self.unit_points += half_points;
        let (elo0, elo1) = (self.settings.elo0, self.settings.elo1);
        match self.model {
            SprtModel::Trinomial => self.llr = self.trinomial.llr(elo0, elo1),
            SprtModel::Pentanomial if schedule.ends_unit(rows[0].game) => {
                self.pentanomial.add_pair(self.unit_points.min(4));
                self.llr = self.pentanomial.llr(elo0, elo1);
            }
            SprtModel::Pentanomial => return false,
        }
        self.unit_points = 0;
        self.observations += 1;
        if self.observations % self.trace_every == 0 {
            self.push_trace();
        }
        self.decision = sprt_decide(self.llr, self.bounds());
        self.decided()
    }

    fn bounds(&self) -> (f64, f64) {
        sprt_bounds(self.settings.alpha, self.settings.beta)
    }

    fn push_trace(&mut self) {
        if self.trace.last().map(|p| p.games) != Some(self.games) {
            self.trace.push(LlrPoint {
                games: self.games,
                llr: round6(self.llr),
            });
        }
    }

    /// The outcome for run.json (the trace ends at the last test).
    pub fn result(&mut self) -> SprtResult {
        if self.observations > 0 {
            self.push_trace();
        }
        let (lower, upper) = self.bounds();
        SprtResult {
            decision: self.decision,
            model: self.model,
            llr: round6(self.llr),
            lower,
            upper,
            games: self.games,
            wins: self.trinomial.wins,
            draws: self.trinomial.draws,
            losses: self.trinomial.losses,
            pentanomial: self.pentanomial,
            trace: self.trace.clone(),
            trace_every: self.trace_every,
        }
    }
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}
