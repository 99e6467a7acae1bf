//! The analysis panel of the viewer (`carcassonne view RECORD --analysis
//! FILE`): what `carcassonne analyze-game` wrote, drawn on the board — at
//! each turn the analysing agent's top placements as ghost tiles with
//! their visit share and lead, its evaluation as a bar, and a chart of
//! the evaluation over the game with the costliest moves marked.
//!
//! The analysis is read as JSON (`carcassonne-analysis/1`,
//! docs/analysis.md) and checked against the record: a decision's turn
//! must be one of the game's and its seat the one that played it.

use crate::render::board::Extent;
use crate::render::history::History;
use crate::render::meeple::meeple_svg;
use crate::render::tile::{location_point, tile_svg, SIZE};
use crate::render::xml_escape;
use engine::{Location, Pos, Rotation, Tile};
use files::error::{Error, Result};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// The format `analyze-game` writes.
const FORMAT: &str = "carcassonne-analysis/1";
/// The panel's script.
pub const SCRIPT: &str = include_str!("analysis.js");

/// One candidate placement to draw.
struct Candidate {
    decision: usize,
    index: usize,
    seat: usize,
    tile: Tile,
    pos: Pos,
    rot: Rotation,
    meeple: Option<Location>,
    label: String,
}

/// An analysis file read and checked against the game of `history`.
pub struct Analysis {
    json: Value,
    candidates: Vec<Candidate>,
}

impl Analysis {
    /// Read `path` and check it against `history`'s record.
    ///
    /// # Errors
    /// The file cannot be read, is not an analysis, or is not of this
    /// game (a decision's turn or seat differs from the record's).
    pub fn load(path: &Path, history: &History) -> Result<Analysis> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
        let bad = |what: String| Error::content(path, None, what);
        let json: Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("not an analysis: {e}")))?;
        if json["format"] != FORMAT {
            return Err(bad(format!(
                "not an analysis (no \"format\": \"{FORMAT}\")"
            )));
        }
        let decisions = json["decisions"]
            .as_array()
            .ok_or_else(|| bad("no \"decisions\"".to_string()))?;
        let turns = &history.record.turns;
        let mut candidates = Vec::new();
        for (i, d) in decisions.iter().enumerate() {
            let turn = d["turn"].as_u64().unwrap_or(0) as usize;
            let seat = d["seat"].as_u64().unwrap_or(u64::MAX);
            let place = &d["played"]["place"];
            let same_place = |t: &engine::TurnRecord| {
                place.is_null()
                    || (place["tile"].as_str() == t.tile.map(|t| t.to_string()).as_deref()
                        && place["x"].as_i64() == t.x.map(i64::from)
                        && place["y"].as_i64() == t.y.map(i64::from))
            };
            match turns.get(turn.wrapping_sub(1)) {
                Some(t) if u64::from(t.player) == seat && same_place(t) => {}
                _ => {
                    return Err(bad(format!(
                        "decision {i} (turn {turn}, seat {seat}) is not of this game: analyse this record"
                    )))
                }
            }
            for (k, m) in d["top"].as_array().into_iter().flatten().enumerate() {
                if let Some(c) = candidate(i, k, seat as usize, m) {
                    candidates.push(c);
                }
            }
        }
        Ok(Analysis { json, candidates })
    }

    /// The cells of every candidate (the board must hold them).
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.candidates.iter().map(|c| c.pos)
    }

    /// The candidates as SVG, each a hidden group the script shows.
    pub fn svg(&self, extent: &Extent) -> String {
        let mut out = String::new();
        let kinds: BTreeSet<(Tile, u8)> = self
            .candidates
            .iter()
            .map(|c| (c.tile, c.rot.quarter_turns()))
            .collect();
        out.push_str("<defs>");
        for (tile, rot) in kinds {
            let _ = write!(
                out,
                r#"<g id="cand-{tile}{rot}">{}</g>"#,
                tile_svg(tile, Rotation::new(rot).expect("a rotation"))
            );
        }
        out.push_str("</defs>");
        for c in &self.candidates {
            let (x, y) = extent.corner(c.pos);
            let meeple = c.meeple.map_or(String::new(), |loc| {
                // The location is in board orientation, as the tile drawn.
                let (mx, my) = location_point(loc);
                meeple_svg(c.seat, mx, my, matches!(loc, Location::Field(_)))
            });
            let _ = write!(
                out,
                r##"<g class="cand" data-d="{d}" data-i="{i}" transform="translate({x},{y})" style="display:none"><use href="#cand-{t}{r}" opacity="0.55"/>{meeple}<rect class="cand-box" width="{SIZE}" height="{SIZE}" fill="none" stroke-width="5"/><text x="50" y="58" text-anchor="middle" font-size="22" font-weight="bold">{label}</text></g>"##,
                d = c.decision,
                i = c.index,
                t = c.tile,
                r = c.rot.quarter_turns(),
                label = xml_escape(&c.label),
            );
        }
        out
    }

    /// What the script needs: per decision its turn, seat, verdict and
    /// moves.
    pub fn data(&self) -> Value {
        let pick = |m: &Value| {
            json!({
                "action": m["action"], "visits": m["visits"], "share": m["share"],
                "prior": m["prior"], "value": m["value"], "lead": m["lead"], "win": m["win"],
            })
        };
        let decisions: Vec<Value> = self.json["decisions"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                json!({
                    "turn": d["turn"], "seat": d["seat"], "kind": d["kind"],
                    "legal": d["legal"], "verdict": d["verdict"],
                    "points_lost": d["points_lost"], "win_lost": d["win_lost"],
                    "played": pick(&d["played"]), "best": pick(&d["best"]),
                    "top": d["top"].as_array().into_iter().flatten().map(pick).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "agent": self.json["agent"],
            "players": self.json["players"],
            "mistake": self.json["mistake"],
            "blunder": self.json["blunder"],
            "decisions": decisions,
        })
    }
}

/// The candidate placement of move `m` (`index` of decision `decision`,
/// seat `seat`), if it is one.
fn candidate(decision: usize, index: usize, seat: usize, m: &Value) -> Option<Candidate> {
    let p = m.get("place")?;
    let tile: Tile = p["tile"].as_str()?.parse().ok()?;
    let pos = Pos::new(p["x"].as_i64()? as i8, p["y"].as_i64()? as i8);
    let rot = Rotation::new(p["rot"].as_u64()? as u8)?;
    let meeple = match p["meeple"].as_str() {
        Some(loc) => Some(loc.parse().ok()?),
        None => None,
    };
    let share = m["share"].as_f64().unwrap_or(0.0);
    let label = match m["lead"].as_f64() {
        Some(lead) => format!("{:.0}% {lead:+.1}", 100.0 * share),
        None => format!("{:.0}%", 100.0 * share),
    };
    Some(Candidate {
        decision,
        index,
        seat,
        tile,
        pos,
        rot,
        meeple,
        label,
    })
}
