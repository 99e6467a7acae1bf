//! Hints for the person (`carcassonne web --hints`): the analysing
//! agent's top three moves for the person's seat, and after the game the
//! person's moves analysed.
//!
//! A hint is [`tournament::analysis::analyze_position`] of the person's
//! [`SeatView`] alone (never the state: the other seats' cards and hidden
//! tiles, the bag's order and the deck seed are not in it), by a fresh
//! agent with the generator `analyze-game --seed 1` gives that decision,
//! so a hint lists the moves the analysis of the finished game lists
//! first. A hint is computed once per decision (asking again shows the
//! same one, counted once) and at most [`MAX_HINTING`] at once over the
//! whole server.
//!
//! After the game, [`PostGame`] runs [`tournament::analysis::analyze_seat`]
//! of the person's seat on the server's one analysis thread (a queue of
//! [`super::routes::MAX_GAMES`] games; the page polls for it), and saves
//! it beside the record as `web-SEED-N.analysis.json`, which `carcassonne
//! view RECORD --analysis FILE` shows.

use agents::{AgentError, Factory};
use engine::{Location, Record, Seat, SeatView};
use pictures::render::meeple::meeple_svg;
use pictures::render::palette;
use pictures::render::tile::{location_point, tile_svg};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tournament::analysis::{
    analyze_position, analyze_seat, decision_rng, DecisionAnalysis, GameAnalysis, MoveStats,
    PositionAnalysis, Settings,
};

/// The agent `--hints` uses when given no spec: a hint in about 0.3 s
/// on one core of the debug build (0.06 s with 5,000 iterations, whose
/// visit shares hardly separate the moves).
pub const DEFAULT_AGENT: &str = "mcts:iterations=20000";
/// Moves a hint shows.
pub const HINT_MOVES: usize = 3;
/// Hints computed at once over the whole server (more are refused with
/// 503: the page may ask again).
pub const MAX_HINTING: usize = 2;
/// Moves listed after the game as those that cost most.
pub const COSTLIEST: usize = 5;

/// What the analysing agent thinks of the position of `view` (the
/// person's seat to play), decision `decision` of the game.
///
/// # Errors
/// The agent gave up.
pub fn hint(
    view: &SeatView<'_>,
    factory: &Factory,
    decision: usize,
) -> Result<PositionAnalysis, AgentError> {
    let mut agent = factory.build();
    let mut rng = decision_rng(Settings::default().seed, decision);
    analyze_position(agent.as_mut(), view, &mut rng, HINT_MOVES, None)
}

/// One move of a hint or an analysis for the page: its action and
/// numbers, and for a placement the tile in its rotation and the meeple
/// (drawn at the cell by the page).
fn move_json(m: &MoveStats, seat: usize, rank: usize) -> Value {
    let place = m.place.map(|p| {
        let meeple = p.meeple.map(|loc| {
            let (px, py) = location_point(loc);
            json!({
                "loc": loc.to_string(),
                "svg": meeple_svg(seat, px, py, matches!(loc, Location::Field(_))),
            })
        });
        let rot = engine::Rotation::new(p.rot).unwrap_or_default();
        json!({
            "tile": p.tile.to_string(), "x": p.x, "y": p.y, "rot": p.rot,
            "svg": tile_svg(p.tile, rot), "meeple": meeple,
        })
    });
    json!({
        "rank": rank,
        "action": m.action,
        "visits": m.visits,
        "share": m.share,
        "value": m.value,
        "lead": m.lead,
        "win": m.win,
        "scores": m.scores,
        "place": place,
    })
}

/// A hint as the page gets it.
pub fn hint_json(hint: &PositionAnalysis, decision: usize, agent: &str) -> Value {
    let seat = usize::from(hint.seat);
    json!({
        "decision": decision,
        "agent": agent,
        "legal": hint.legal,
        "iterations": hint.iterations,
        "colour": palette::seat(seat),
        "moves": hint.top.iter().enumerate()
            .map(|(i, m)| move_json(m, seat, i + 1)).collect::<Vec<_>>(),
    })
}

/// The analysis of the person's moves after a game.
#[derive(Clone, Debug)]
pub enum PostGame {
    /// Waiting for the analysis thread.
    Queued,
    /// Being analysed.
    Running,
    /// Done: the page's JSON.
    Done(Value),
    /// The game cannot be analysed (a record with hands of tiles, …).
    Failed(String),
}

/// Shared between the session and the analysis thread.
pub type PostGameSlot = Arc<Mutex<PostGame>>;

/// The job of the analysis thread: `seat`'s decisions of `record`, into
/// `slot`, saved beside the record at `saved` (`.analysis.json`).
pub fn post_game_job(
    record: Record,
    seat: Seat,
    factory: Factory,
    saved: Option<PathBuf>,
    slot: PostGameSlot,
) -> impl FnOnce() + Send + 'static {
    move || {
        let set = |p: PostGame| *slot.lock().unwrap_or_else(|e| e.into_inner()) = p;
        set(PostGame::Running);
        let done = match analyze_seat(&record, seat, &factory, &Settings::default()) {
            Ok(analysis) => {
                let file = saved.and_then(|path| save_analysis(&path, &analysis));
                PostGame::Done(post_game_json(&analysis, seat, file))
            }
            Err(e) => PostGame::Failed(e.to_string()),
        };
        set(done);
    }
}

/// `analysis` written as `NAME.analysis.json` beside the record `NAME.json`
/// (`None` when it cannot be: the page then names no file).
fn save_analysis(record: &std::path::Path, analysis: &GameAnalysis) -> Option<PathBuf> {
    let path = record.with_extension("analysis.json");
    let mut text = serde_json::to_string_pretty(analysis).ok()?;
    text.push('\n');
    files::atomic::write_atomic(&path, text.as_bytes()).ok()?;
    Some(path)
}

/// The page's JSON of the person's moves analysed: the summary, and the
/// moves that cost most (most points lost first), each with the better
/// moves.
pub fn post_game_json(analysis: &GameAnalysis, seat: Seat, file: Option<PathBuf>) -> Value {
    let mut costly: Vec<&DecisionAnalysis> = analysis
        .decisions
        .iter()
        .filter(|d| d.points_lost.is_some_and(|p| p > 0.0))
        .collect();
    costly.sort_by(|a, b| {
        b.points_lost
            .unwrap_or(0.0)
            .total_cmp(&a.points_lost.unwrap_or(0.0))
            .then(a.decision.cmp(&b.decision))
    });
    let s = seat.index();
    let summary = &analysis.seats[s];
    json!({
        "agent": analysis.agent,
        "seat": s,
        "decisions": summary.decisions,
        "choices": summary.choices,
        "best": summary.best,
        "mistakes": summary.mistakes,
        "blunders": summary.blunders,
        "points_lost": summary.points_lost,
        "file": file.map(|p| p.display().to_string()),
        "costliest": costly.iter().take(COSTLIEST).map(|d| json!({
            "decision": d.decision,
            "turn": d.turn,
            "verdict": d.verdict.to_string(),
            "points_lost": d.points_lost,
            "played": move_json(&d.played, s, 0),
            "best": move_json(&d.position.best, s, 1),
        })).collect::<Vec<_>>(),
    })
}

/// The post-game state as the page gets it.
pub fn post_game_status(p: &PostGame) -> Value {
    match p {
        PostGame::Queued => json!({ "status": "queued" }),
        PostGame::Running => json!({ "status": "running" }),
        PostGame::Done(v) => json!({ "status": "done", "analysis": v }),
        PostGame::Failed(e) => json!({ "status": "failed", "error": e }),
    }
}
