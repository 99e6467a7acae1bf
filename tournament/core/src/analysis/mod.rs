//! What an agent thinks of a position or of a whole recorded game
//! (`carcassonne analyze-game`, Python's `agent.analyze(view)`).
//!
//! - [`analyze_position`]: one search of a seat's view; the agent's
//!   choice and its top moves with their visits, priors and values.
//! - [`analyze_decision`]: the same for a decision already made, with the
//!   move played valued too (by a second search of the played and the
//!   best move alone when the first search hardly looked at it) and a
//!   [`Verdict`] on it.
//! - [`analyze_record`]: every decision of a record ([`decisions`]), each
//!   from its own seat's view, in parallel, reproducible for a seed;
//!   [`analyze_seat`] the decisions of one seat alone, on one thread,
//!   with the same numbers (`carcassonne web --hints` after a game).
//!
//! Hidden information stays hidden: the agent is given only the deciding
//! seat's [`SeatView`] (other seats' gift cards and the order of the bag
//! are not in it; search agents determinize it themselves).
//!
//! Values are the agent's. With `mcts` and `ismcts`, `lead` is the mean
//! lead in points of the seat to play over the best other seat where the
//! search valued the positions after the move (by default after 4
//! rollout turns by the end-now scores; the final margin with
//! `depth=all`; the model's predicted final lead with `eval=`), and `win`
//! the share of those valuations in which it led. `az` gives its priors
//! and its own value (−1..1), no lead. Agents that do not search
//! (`random`, `greedy`) give only their choice.

mod decisions;
mod output;
#[cfg(test)]
mod tests;

pub use decisions::{decisions, RecordedDecision};
pub use output::{csv_text, CSV_COLUMNS};

use agents::{Agent, AgentError, AgentRng, Context, Factory};
use engine::{Action, Location, Move, Record, Rules, Seat, SeatView, State};
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;

/// The format name of [`GameAnalysis`]'s JSON.
pub const FORMAT: &str = "carcassonne-analysis/1";

/// How to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// How many of the agent's top moves to list per decision.
    pub top: usize,
    /// The seed of the agent's generators (one per decision, derived
    /// from it and the decision's index).
    pub seed: u64,
    /// Points lost at or above which a move is a mistake.
    pub mistake: f64,
    /// Points lost at or above which a move is a blunder.
    pub blunder: f64,
    /// A played move the search visited fewer times than this share of
    /// its iterations is valued again by a search of it and the best
    /// move alone.
    pub min_share: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            top: 5,
            seed: 1,
            mistake: MISTAKE_POINTS,
            blunder: BLUNDER_POINTS,
            min_share: 0.05,
        }
    }
}

/// Points lost at or above which a move is a mistake, by default.
pub const MISTAKE_POINTS: f64 = 3.0;
/// Points lost at or above which a move is a blunder, by default.
pub const BLUNDER_POINTS: f64 = 8.0;

/// One move as the agent saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveStats {
    /// The action, in record notation (`U (1, 0) r1 NNE`, `open synod
    /// (0, 1)`, `keep V`).
    pub action: String,
    /// A placement's cell, rotation and meeple location (for pictures);
    /// `None` for a gift opening or a Take 2 choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<PlaceFields>,
    /// Visits at the root of the search (0: not searched).
    pub visits: u32,
    /// Its share of the root's visits.
    pub share: f64,
    /// The search's prior for it (`az`).
    pub prior: Option<f32>,
    /// Its mean value on the agent's own scale.
    pub value: Option<f64>,
    /// The mean lead in points of the seat to play (see the module).
    pub lead: Option<f64>,
    /// The share of valuations in which the seat to play led.
    pub win: Option<f64>,
    /// Each seat's mean end-now score where the search valued the
    /// positions after the move (seat order): the expected final scores
    /// as the search sees them (`mcts`, `ismcts`).
    pub scores: Option<Vec<f64>>,
    /// The action itself.
    #[serde(skip)]
    pub raw: Action,
}

/// Where a placement goes, as a record writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlaceFields {
    /// The tile.
    pub tile: engine::Tile,
    /// The cell.
    pub x: i8,
    /// The cell.
    pub y: i8,
    /// Quarter turns clockwise.
    pub rot: u8,
    /// Where the meeple goes, if one does.
    pub meeple: Option<Location>,
}

/// One search of a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionAnalysis {
    /// The seat to play (0-based).
    pub seat: u8,
    /// Its legal actions.
    pub legal: usize,
    /// The search's iterations (0 without a search).
    pub iterations: u32,
    /// The agent's choice.
    pub best: MoveStats,
    /// The most visited actions, best first (the agent's choice first),
    /// at most [`Settings::top`].
    pub top: Vec<MoveStats>,
    /// Every action the search looked at, best first (not written out).
    #[serde(skip)]
    pub searched: Vec<MoveStats>,
}

/// What the agent thinks of a move played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The only legal action.
    Forced,
    /// The agent's own choice.
    Best,
    /// Less than [`Settings::mistake`] points lost.
    Good,
    /// At least [`Settings::mistake`] points lost.
    Mistake,
    /// At least [`Settings::blunder`] points lost.
    Blunder,
    /// Another move than the agent's, which its values cannot rate (an
    /// agent that gives no lead).
    Unrated,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Forced => "forced",
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
            Verdict::Unrated => "unrated",
        })
    }
}

/// One decision of a game, analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionAnalysis {
    /// Its index among the game's decisions, from 0.
    pub decision: usize,
    /// The record's turn, from 1.
    pub turn: usize,
    /// The seat that decided.
    pub seat: u8,
    /// `place`, `open` (a gift) or `keep` (Take 2).
    pub kind: &'static str,
    /// The search of the position.
    #[serde(flatten)]
    pub position: PositionAnalysis,
    /// The move played, with its values.
    pub played: MoveStats,
    /// Points the played move loses against the agent's choice (its
    /// lead less the played move's, never below 0), if the agent gives
    /// leads.
    pub points_lost: Option<f64>,
    /// Win share the played move loses against the agent's choice (may
    /// be below 0 by chance), if the agent gives it.
    pub win_lost: Option<f64>,
    /// The played move was valued again by a search of it and the best
    /// move alone (the first search hardly visited it); `points_lost`
    /// and `win_lost` come from that search.
    pub revalued: bool,
    /// The verdict on the played move.
    pub verdict: Verdict,
}

/// Per seat: how its moves were judged.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: u8,
    /// The agent that played it, from the record.
    pub agent: Option<String>,
    /// Decisions made.
    pub decisions: usize,
    /// Decisions with more than one legal action.
    pub choices: usize,
    /// The agent's own choice played.
    pub best: usize,
    /// Mistakes (blunders not counted).
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Points lost over the game.
    pub points_lost: f64,
}

/// A whole game analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// [`FORMAT`].
    pub format: &'static str,
    /// The analysing agent's spec.
    pub agent: String,
    /// The seed.
    pub seed: u64,
    /// The thresholds of the verdicts in points.
    pub mistake: f64,
    /// The thresholds of the verdicts in points.
    pub blunder: f64,
    /// Seats.
    pub players: usize,
    /// The rules.
    pub rules: Rules,
    /// Per seat.
    pub seats: Vec<SeatSummary>,
    /// Every decision, in order.
    pub decisions: Vec<DecisionAnalysis>,
}

/// Why a game cannot be analysed.
#[derive(Debug)]
pub enum AnalysisError {
    /// The record does not replay (or is of a kind not analysed).
    Record(engine::ReplayError),
    /// The agent gave up a decision.
    Agent {
        /// The decision's index.
        decision: usize,
        /// Why.
        error: AgentError,
    },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Record(e) => write!(f, "the record does not replay: {e}"),
            AnalysisError::Agent { decision, error } => {
                write!(
                    f,
                    "the agent gave up decision {decision} of the game: {error}"
                )
            }
        }
    }
}

impl std::error::Error for AnalysisError {}

/// The statistics of `action` at `state` from a search's root (visits,
/// share of `total` visits, values), or bare if it was not searched.
fn move_stats(
    state: &State,
    action: Action,
    search: Option<&agents::SearchStats>,
    total: u32,
) -> MoveStats {
    let found = search.and_then(|s| s.root().find(|r| r.0 == action));
    let (visits, value) = match found {
        Some((_, v, value)) => (v, value.copied()),
        None => (0, None),
    };
    MoveStats {
        action: state.describe(action),
        place: place_fields(state, action),
        visits,
        share: if total > 0 {
            f64::from(visits) / f64::from(total)
        } else {
            0.0
        },
        prior: value.and_then(|v| v.prior),
        value: value.filter(|_| visits > 0).map(|v| v.value),
        lead: value.and_then(|v| v.lead),
        win: value.and_then(|v| v.win),
        scores: value
            .and_then(|v| v.scores)
            .map(|s| s[..state.players()].to_vec()),
        raw: action,
    }
}

/// A placement's fields as a record writes them.
fn place_fields(state: &State, action: Action) -> Option<PlaceFields> {
    let Action::Place(Move { placement, meeple }) = action else {
        return None;
    };
    let tile = state.placing_tile(placement.slot)?;
    let turn = engine::TurnRecord::new(
        state.to_play(),
        Vec::new(),
        tile,
        Move { placement, meeple },
    );
    Some(PlaceFields {
        tile,
        x: turn.x?,
        y: turn.y?,
        rot: turn.rot?,
        meeple: turn.meeple,
    })
}

/// What `agent` thinks of the position of `view` (its seat to play), at
/// most `top` moves listed; with `only`, its search of those actions
/// alone.
///
/// # Errors
/// The agent gave up.
pub fn analyze_position(
    agent: &mut dyn Agent,
    view: &SeatView<'_>,
    rng: &mut AgentRng,
    top: usize,
    only: Option<&[Action]>,
) -> Result<PositionAnalysis, AgentError> {
    let mut legal = 0;
    view.for_each_action(|_| legal += 1);
    let cx = Context::new(view, rng);
    let cx = match only {
        Some(actions) => cx.with_only(actions),
        None => cx,
    };
    let decision = agent.decide(cx)?;
    // The view's position, only for naming actions: a determinization's
    // board and drawn tile are the view's own.
    let named = view.determinize(&mut AgentRng::seed_from_u64(0));
    let search = decision.search.as_ref();
    let total: u32 = search.map_or(0, |s| s.root_visits.iter().map(|r| r.1).sum());
    let best = move_stats(&named, decision.action, search, total);
    let mut searched: Vec<MoveStats> = search
        .map(|s| {
            s.root_visits
                .iter()
                .map(|&(a, _)| move_stats(&named, a, search, total))
                .collect()
        })
        .unwrap_or_default();
    // Best first: the agent's choice, then by visits, then by value.
    searched.sort_by(|a, b| {
        (b.raw == decision.action)
            .cmp(&(a.raw == decision.action))
            .then(b.visits.cmp(&a.visits))
            .then(
                b.value
                    .unwrap_or(f64::NEG_INFINITY)
                    .total_cmp(&a.value.unwrap_or(f64::NEG_INFINITY)),
            )
    });
    if searched.is_empty() {
        searched.push(best.clone());
    }
    Ok(PositionAnalysis {
        seat: view.seat().0,
        legal,
        iterations: search.map_or(0, |s| s.iterations),
        best,
        top: searched.iter().take(top.max(1)).cloned().collect(),
        searched,
    })
}

/// What `agent` thinks of `played` at the position of `view` (the
/// decision's index and turn left 0 for the caller).
///
/// # Errors
/// The agent gave up.
pub fn analyze_decision(
    agent: &mut dyn Agent,
    view: &SeatView<'_>,
    played: Action,
    rng: &mut AgentRng,
    settings: &Settings,
) -> Result<DecisionAnalysis, AgentError> {
    let position = analyze_position(agent, view, rng, settings.top, None)?;
    let judged = |position: PositionAnalysis,
                  played: MoveStats,
                  points_lost: Option<f64>,
                  win_lost: Option<f64>,
                  revalued: bool,
                  verdict: Verdict| DecisionAnalysis {
        decision: 0,
        turn: 0,
        seat: view.seat().0,
        kind: match played.raw {
            Action::Place(_) => "place",
            Action::Open(_) => "open",
            Action::Keep(_) => "keep",
        },
        position,
        played,
        points_lost,
        win_lost,
        revalued,
        verdict,
    };
    let stats_of =
        |p: &PositionAnalysis, a: Action| p.searched.iter().find(|m| m.raw == a).cloned();
    let named = view.determinize(&mut AgentRng::seed_from_u64(0));
    let mut played_stats =
        stats_of(&position, played).unwrap_or_else(|| move_stats(&named, played, None, 0));
    if position.legal <= 1 {
        return Ok(judged(
            position,
            played_stats,
            None,
            None,
            false,
            Verdict::Forced,
        ));
    }
    let best = position.best.clone();
    if played == best.raw {
        return Ok(judged(
            position,
            played_stats,
            Some(0.0),
            Some(0.0),
            false,
            Verdict::Best,
        ));
    }
    let min_visits = (settings.min_share * f64::from(position.iterations)).ceil() as u32;
    let (mut best_pair, mut revalued) = (best.clone(), false);
    if position.iterations > 0 && played_stats.visits < min_visits.max(1) {
        // Valued again in a search of the two alone.
        let pair = analyze_position(agent, view, rng, 2, Some(&[best.raw, played]))?;
        if let (Some(b), Some(p)) = (stats_of(&pair, best.raw), stats_of(&pair, played)) {
            best_pair = b;
            played_stats = MoveStats {
                visits: played_stats.visits,
                share: played_stats.share,
                ..p
            };
            revalued = true;
        }
    }
    let points_lost = match (best_pair.lead, played_stats.lead) {
        (Some(b), Some(p)) => Some((b - p).max(0.0)),
        _ => None,
    };
    let win_lost = match (best_pair.win, played_stats.win) {
        (Some(b), Some(p)) => Some(b - p),
        _ => None,
    };
    let verdict = match points_lost {
        None => Verdict::Unrated,
        Some(l) if l >= settings.blunder => Verdict::Blunder,
        Some(l) if l >= settings.mistake => Verdict::Mistake,
        Some(_) => Verdict::Good,
    };
    Ok(judged(
        position,
        played_stats,
        points_lost,
        win_lost,
        revalued,
        verdict,
    ))
}

/// The generator of decision `i` of an analysis seeded with `seed`.
pub fn decision_rng(seed: u64, i: usize) -> AgentRng {
    // SplitMix64 of the pair: neighbouring decisions get unrelated seeds.
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    AgentRng::seed_from_u64(z ^ (z >> 31))
}

/// Every decision of `record` analysed by agents of `factory` (a fresh
/// agent per decision, so the result does not depend on the order or the
/// threads), on the rayon pool.
///
/// # Errors
/// The record does not replay, or the agent gave up a decision.
pub fn analyze_record(
    record: &Record,
    factory: &Factory,
    settings: &Settings,
) -> Result<GameAnalysis, AnalysisError> {
    let list = decisions(record).map_err(AnalysisError::Record)?;
    let analysed: Vec<Result<DecisionAnalysis, AnalysisError>> = list
        .par_iter()
        .enumerate()
        .map(|(i, d)| analyze_recorded(i, d, factory, settings))
        .collect();
    let decisions = analysed.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(game_analysis(record, factory, settings, decisions))
}

/// The decisions of one seat of `record` analysed as [`analyze_record`]
/// analyses them (the same numbers for the same seed), one after another
/// on the calling thread: a server's background job that keeps to one
/// core. The other seats' decisions are left out of the result.
///
/// # Errors
/// The record does not replay, or the agent gave up a decision.
pub fn analyze_seat(
    record: &Record,
    seat: Seat,
    factory: &Factory,
    settings: &Settings,
) -> Result<GameAnalysis, AnalysisError> {
    let list = decisions(record).map_err(AnalysisError::Record)?;
    let decisions = list
        .iter()
        .enumerate()
        .filter(|(_, d)| d.state.to_play() == seat)
        .map(|(i, d)| analyze_recorded(i, d, factory, settings))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(game_analysis(record, factory, settings, decisions))
}

/// Decision `i` of a record analysed by a fresh agent of `factory` with
/// the generator [`decision_rng`] gives it, from its seat's view only.
fn analyze_recorded(
    i: usize,
    d: &RecordedDecision,
    factory: &Factory,
    settings: &Settings,
) -> Result<DecisionAnalysis, AnalysisError> {
    let seat = d.state.to_play();
    let view = d.state.view(seat);
    let mut agent = factory.build();
    let mut rng = decision_rng(settings.seed, i);
    let analysed = analyze_decision(agent.as_mut(), &view, d.action, &mut rng, settings)
        .map_err(|error| AnalysisError::Agent { decision: i, error })?;
    Ok(DecisionAnalysis {
        decision: i,
        turn: d.turn,
        ..analysed
    })
}

/// The analysis of `record` made of `decisions`, with its seats' summaries.
fn game_analysis(
    record: &Record,
    factory: &Factory,
    settings: &Settings,
    decisions: Vec<DecisionAnalysis>,
) -> GameAnalysis {
    let seats = (0..record.players)
        .map(|s| summary(s as u8, record.agents.get(s).cloned(), &decisions))
        .collect();
    GameAnalysis {
        format: FORMAT,
        agent: factory.spec().to_string(),
        seed: settings.seed,
        mistake: settings.mistake,
        blunder: settings.blunder,
        players: record.players,
        rules: record.rules,
        seats,
        decisions,
    }
}

/// How `seat`'s decisions were judged.
fn summary(seat: u8, agent: Option<String>, decisions: &[DecisionAnalysis]) -> SeatSummary {
    let mut s = SeatSummary {
        seat,
        agent,
        ..SeatSummary::default()
    };
    for d in decisions.iter().filter(|d| d.seat == seat) {
        s.decisions += 1;
        s.choices += usize::from(d.verdict != Verdict::Forced);
        s.best += usize::from(d.verdict == Verdict::Best);
        s.mistakes += usize::from(d.verdict == Verdict::Mistake);
        s.blunders += usize::from(d.verdict == Verdict::Blunder);
        s.points_lost += d.points_lost.unwrap_or(0.0);
    }
    s
}

impl GameAnalysis {
    /// A few lines for a terminal: per seat its decisions, mistakes,
    /// blunders and points lost.
    pub fn text(&self) -> String {
        let mut out = format!(
            "analysed {} decisions with {} (mistake >= {} points, blunder >= {})\n",
            self.decisions.len(),
            self.agent,
            self.mistake,
            self.blunder
        );
        for s in &self.seats {
            out.push_str(&format!(
                "seat {} {:<24} {:>3} choices, {:>3} as the agent would, {:>2} mistakes, {:>2} blunders, {:>6.1} points lost\n",
                s.seat,
                s.agent.as_deref().unwrap_or("?"),
                s.choices,
                s.best,
                s.mistakes,
                s.blunders,
                s.points_lost
            ));
        }
        out
    }
}
