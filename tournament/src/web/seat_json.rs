//! What the page learns of a game: the JSON of the person's seat view.
//!
//! Everything here is read from [`engine::SeatView`] of the person's seat
//! (public information and the seat's own cards and tiles) and from the
//! session's public log; the state itself, the other seats' cards and
//! hidden hands, the bag's order and the deck seed are never written (the
//! seed only once the game is over, with the record).

use super::session::Session;
use engine::{
    Action, FeatureKind, GiftOpen, Move, Phase, Placement, Pos, Rotation, Seat, SeatView,
};
use pictures::render::board::{coordinates, Extent};
use pictures::render::meeple::meeple_svg;
use pictures::render::palette;
use pictures::render::tile::{location_point, tile_svg, SIZE};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The board as SVG with one empty cell of room on every side, and where
/// cell (0, 0)'s top-left corner is (the page draws its highlights there).
fn board(view: &SeatView<'_>, session: &Session) -> Value {
    let tiles = view.board().tiles();
    let extent = Extent::of(tiles.iter().flat_map(|p| {
        let (x, y) = (p.pos.x, p.pos.y);
        [
            Pos::new(x.saturating_sub(1), y.saturating_sub(1)),
            Pos::new(x.saturating_add(1), y.saturating_add(1)),
        ]
    }));
    let mut svg = String::new();
    for p in tiles {
        let (x, y) = extent.corner(p.pos);
        let _ = write!(
            svg,
            r#"<g transform="translate({x},{y})">{}</g>"#,
            tile_svg(p.tile, p.rot)
        );
    }
    for m in view.meeples() {
        let placed = view.board().placed(m.slot());
        let segment = m.segment_index() as usize;
        let oriented = placed.tile.oriented(placed.rot);
        let (x, y) = extent.corner(placed.pos);
        let (dx, dy) = location_point(oriented.canonical[segment]);
        let lying = placed.tile.def().segments[segment].kind == FeatureKind::Field;
        svg.push_str(&meeple_svg(m.seat.index(), x + dx, y + dy, lying));
    }
    if let Some(last) = session.last {
        let (x, y) = extent.corner(last.pos);
        let _ = write!(
            svg,
            r#"<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="6"/>"#,
            x + 3.0,
            y + 3.0,
            SIZE - 6.0,
            SIZE - 6.0,
            palette::HIGHLIGHT
        );
    }
    svg.push_str(&coordinates(&extent));
    let (ox, oy) = extent.corner(Pos::new(0, 0));
    json!({
        "svg": svg,
        "width": extent.width(),
        "height": extent.height(),
        "x0": ox,
        "y0": oy,
        "size": SIZE,
    })
}

/// A meeple location of a tile in a rotation: its name and where it is
/// drawn on the tile.
fn spot(tile: engine::Tile, rot: Rotation, segment: u8) -> Value {
    let loc = tile.oriented(rot).canonical[segment as usize];
    let (px, py) = location_point(loc);
    json!({ "loc": loc.to_string(), "px": px, "py": py })
}

/// A placement's move without a meeple and its moves with one.
type Spots = (Option<String>, Vec<Value>);

/// The person's choices now, grouped for the page: the tiles to place
/// (with their picture in each rotation), every legal placement with its
/// meeple locations, the gifts that may be opened, Take 2's choice.
fn choices(view: &SeatView<'_>) -> Value {
    let mut placements: BTreeMap<(u8, i8, i8, u8), Spots> = BTreeMap::new();
    let mut opens = Vec::new();
    let mut keep = Vec::new();
    let own = view.own_tiles();
    let distinct: Vec<u8> = if view.rules().hand > 0 {
        own.distinct_slots().map(|(slot, _)| slot).collect()
    } else {
        vec![0]
    };
    view.for_each_action(|a| match a {
        Action::Place(Move {
            placement: Placement { pos, rot, slot },
            meeple,
        }) => {
            if !distinct.contains(&slot) {
                return;
            }
            let entry = placements
                .entry((slot, pos.x, pos.y, rot.quarter_turns()))
                .or_default();
            let text = view.describe(a);
            match meeple {
                None => entry.0 = Some(text),
                Some(segment) => {
                    if let Some(tile) = view.placing_tile(slot) {
                        let mut s = spot(tile, rot, segment);
                        s["action"] = json!(text);
                        entry.1.push(s);
                    }
                }
            }
        }
        Action::Open(open) => {
            let at = match open {
                GiftOpen::Synod { at }
                | GiftOpen::RoadSweeper { at, .. }
                | GiftOpen::CashOut { at, .. }
                | GiftOpen::ChangePosition { at, .. } => Some([at.x, at.y]),
                GiftOpen::Take2 | GiftOpen::Wasted(_) => None,
            };
            opens.push(json!({
                "gift": open.gift().to_string(),
                "action": view.describe(a),
                "at": at,
            }));
        }
        Action::Keep(tile) => keep.push(json!({
            "tile": tile.to_string(),
            "action": view.describe(a),
            "svg": tile_svg(tile, Rotation::default()),
        })),
    });
    let tiles: Vec<Value> = distinct
        .iter()
        .filter_map(|&slot| {
            let tile = view.placing_tile(slot)?;
            let svgs: Vec<String> = Rotation::ALL.iter().map(|&r| tile_svg(tile, r)).collect();
            Some(json!({ "slot": slot, "tile": tile.to_string(), "svgs": svgs }))
        })
        .collect();
    let placements: Vec<Value> = placements
        .into_iter()
        .map(|((slot, x, y, rot), (none, meeples))| {
            json!({ "slot": slot, "x": x, "y": y, "rot": rot, "none": none, "meeples": meeples })
        })
        .collect();
    json!({ "tiles": tiles, "placements": placements, "opens": opens, "keep": keep })
}

/// The JSON the page gets: the person's seat view, the public log, and at
/// the end the record's file and the final scoring.
pub fn seat_json(session: &Session, id: &str) -> Value {
    let state = session.state();
    let view = state.view(session.person);
    let players = view.players();
    let rules = view.rules();
    let seats: Vec<Value> = (0..players)
        .map(|s| {
            let seat = Seat(s as u8);
            let score = view.score(seat);
            json!({
                "name": session.specs[s],
                "colour": palette::seat(s),
                "total": score.total(),
                "road": score.road, "city": score.city, "monastery": score.monastery,
                "farm": score.farm, "gifts": score.gifts,
                "meeples": view.supply(seat),
                "gift_cards": view.hand_size(seat),
                "tiles_held": view.tiles_held(seat),
                "hand": view.visible_tiles(seat)
                    .filter(|_| rules.hand > 0)
                    .map(|h| h.iter().map(|t| t.to_string()).collect::<Vec<_>>()),
            })
        })
        .collect();
    let own_gifts: Vec<Value> = view
        .own_hand()
        .kinds()
        .map(|g| json!({ "gift": g.to_string(), "count": view.own_hand().count(g) }))
        .collect();
    let phase = if session.is_over() {
        "over"
    } else if !session.persons_turn() {
        "wait"
    } else {
        match view.phase() {
            Phase::Choose(..) => "choose",
            _ => "place",
        }
    };
    let mut out = json!({
        "id": id,
        "seat": session.person.index(),
        "players": players,
        "rules": {
            "text": rules.to_string(),
            "gifts": rules.gifts,
            "hand": rules.hand,
            "hand_visible": rules.hand_visible,
            "farmers": rules.farmers,
        },
        "turn": view.turns(),
        "to_play": view.to_play().index(),
        "phase": phase,
        "tiles_left": view.bag().total(),
        "seats": seats,
        "own_gifts": own_gifts,
        "own_tiles": view.own_tiles().iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "board": board(&view, session),
        "last": session.last.map(|l| json!({ "x": l.pos.x, "y": l.pos.y, "seat": l.seat })),
        "log": session.log.iter().map(|l| json!({ "seat": l.seat, "text": l.text })).collect::<Vec<_>>(),
    });
    if phase == "place" || phase == "choose" {
        out["choices"] = choices(&view);
    }
    if let Some(hints) = session.hints() {
        // Hints are on: how many the person used, and the one shown for
        // the decision now (computed from the person's seat view only).
        out["hints"] = json!(hints[session.person.index()]);
        if let Some(hint) = session.shown_hint().filter(|_| session.persons_turn()) {
            out["hint"] = hint.clone();
        }
    }
    if session.is_over() {
        let before: Vec<Value> = session
            .before_last
            .iter()
            .map(|s| {
                json!({ "total": s.total(), "road": s.road, "city": s.city,
                        "monastery": s.monastery, "farm": s.farm, "gifts": s.gifts })
            })
            .collect();
        out["over"] = json!({
            "seed": session.seed,
            "before_last": before,
            "forfeit": session.forfeit,
            "saved": session.saved.as_ref().map(|p| p.display().to_string()),
        });
    }
    out
}
