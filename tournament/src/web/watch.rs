//! `carcassonne web --watch DIR`: a tournament folder, live.
//!
//! The page polls `/watch/status` every two seconds; the server reads the
//! folder's `run.json` and `games.csv` afresh and recomputes the table,
//! the pairwise results and Elo from the games written so far (the same
//! [`tournament::results::summary::summarize`] that writes `summary.csv` at the end).
//! `/watch/game/N` shows record N of `records.jsonl` in the replay viewer.
//! Only those two files and `records.jsonl` of the folder given on the
//! command line are read; a request names a number, never a file.

use super::assets;
use super::routes::Reply;
use files::error::Result;
use serde_json::{json, Value};
use std::path::Path;

const WATCH_PAGE: &str = include_str!("watch.html");
const WATCH_SCRIPT: &str = include_str!("watch.js");

/// The watch page (carrying the server's `token`).
pub fn page(token: &str) -> Reply {
    let html = WATCH_PAGE
        .replace(
            "/*STYLE*/",
            &format!("{}\n{}", assets::STYLE, assets::WEB_STYLE),
        )
        .replace("/*SCRIPT*/", WATCH_SCRIPT);
    Reply::text("text/html; charset=utf-8", assets::with_token(&html, token))
}

/// `/watch/…` requests.
pub fn handle(dir: &Path, rest: &[&str]) -> Reply {
    match rest {
        ["status"] => match status(dir) {
            Ok(v) => Reply::text("application/json", v.to_string()),
            Err(e) => Reply::error(500, e),
        },
        ["game", n] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => game(dir, n),
            _ => Reply::error(400, format!("game {n:?}: give a game number from 1")),
        },
        _ => Reply::error(404, "no such page"),
    }
}

/// Progress, table and pairwise results of the folder now.
///
/// # Errors
/// run.json cannot be read.
pub fn status(dir: &Path) -> Result<Value> {
    let info = tournament::results::output::read_run_info(dir)?;
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap_or_default();
    let rows = tournament::results::output::parse_games(&text).unwrap_or_default();
    let labels = info.plan.agents.clone();
    let (summary, pairwise) = tournament::results::summary::summarize(&labels, &rows);
    let games = tournament::results::summary::games(&rows).count();
    let records = std::fs::read_to_string(dir.join("records.jsonl"))
        .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count())
        .unwrap_or(0);
    Ok(json!({
        "name": info.settings.name,
        "status": format!("{:?}", info.status).to_lowercase(),
        "planned": info.plan.games_planned,
        "games": games,
        "records": records,
        "players": info.settings.players,
        "rules": info.settings.rules.to_string(),
        "summary": summary,
        "pairwise": pairwise,
    }))
}

fn game(dir: &Path, n: usize) -> Reply {
    let path = dir.join("records.jsonl");
    let history = match pictures::render::load_history(&path, Some(n)) {
        Ok(h) => h,
        Err(e) => return Reply::error(404, e),
    };
    match pictures::viewer::page(&history) {
        Ok(page) => Reply::text("text/html; charset=utf-8", page),
        Err(e) => Reply::error(500, e),
    }
}
