//! A game analysis as CSV: one row per decision (the columns are
//! documented in docs/analysis.md). The JSON is the serde form of
//! [`super::GameAnalysis`].

use super::GameAnalysis;

/// The CSV's columns, in order.
pub const CSV_COLUMNS: [&str; 19] = [
    "decision",
    "turn",
    "seat",
    "kind",
    "legal",
    "iterations",
    "played",
    "best",
    "played_visits",
    "best_visits",
    "played_lead",
    "best_lead",
    "played_win",
    "best_win",
    "points_lost",
    "win_lost",
    "revalued",
    "verdict",
    "agent",
];

/// The analysis as CSV text with a header line.
///
/// # Errors
/// Only if the CSV writer fails (it writes to memory).
pub fn csv_text(analysis: &GameAnalysis) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_COLUMNS)?;
    let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.3}"));
    for d in &analysis.decisions {
        let agent = analysis
            .seats
            .get(d.seat as usize)
            .and_then(|s| s.agent.clone())
            .unwrap_or_default();
        w.write_record([
            d.decision.to_string(),
            d.turn.to_string(),
            d.seat.to_string(),
            d.kind.to_string(),
            d.position.legal.to_string(),
            d.position.iterations.to_string(),
            d.played.action.clone(),
            d.position.best.action.clone(),
            d.played.visits.to_string(),
            d.position.best.visits.to_string(),
            num(d.played.lead),
            num(d.position.best.lead),
            num(d.played.win),
            num(d.position.best.win),
            num(d.points_lost),
            num(d.win_lost),
            d.revalued.to_string(),
            d.verdict.to_string(),
            agent,
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields"))
}
