//! The encoding as first written (encoding version 1, with the changes
//! of versions 2 and 3 since), straightforward
//! and allocating: the reference the fast encoder of the parent module
//! must equal exactly (tests only).

use super::{
    cell_of, centre, ActionInput, PositionInput, ACTION_FEATURES, BOARD_FEATURES, CELL_CHANNELS,
    GIFT_POINTS, GLOBAL_FEATURES, HALF, SEAT_BLOCK, WINDOW,
};
use engine::{
    segment_id, Action, FeatureKind, Gift, GiftOpen, Phase, Pos, SeatView, Tile, MAX_HAND,
    MAX_PLAYERS, NO_SEGMENT,
};
use rand::SeedableRng;

/// Encode the position of `view` (see the module doc).
pub fn encode_position(view: &SeatView<'_>) -> PositionInput {
    let mut board = vec![0.0f32; BOARD_FEATURES];
    let c = centre(view);
    let players = view.players();
    let me = view.seat();
    let rules = view.rules();
    let features = view.features();
    // Off-table and open cells of the window.
    for row in 0..WINDOW {
        for col in 0..WINDOW {
            let x = c.0 + col as i32 - HALF;
            let y = c.1 - (row as i32 - HALF);
            let at = &mut board[(row * WINDOW + col) * CELL_CHANNELS..][..CELL_CHANNELS];
            let on_grid = i8::try_from(x).is_ok() && i8::try_from(y).is_ok();
            if !on_grid {
                at[2] = 1.0;
                continue;
            }
            let pos = Pos::new(x as i8, y as i8);
            if rules.table.is_some() && !view.on_table(pos) {
                at[2] = 1.0;
            }
            if view.board().is_open(pos) {
                at[1] = 1.0;
            }
        }
    }
    let mine_or_others = |root| {
        let on = view.meeples_on(root);
        let mine = on[me] > 0;
        let others = (0..players).any(|s| s != me.index() && on[engine::Seat(s as u8)] > 0);
        (mine, others)
    };
    for (slot, placed) in view.board().tiles().iter().enumerate() {
        let (cell, inside) = cell_of(c, placed.pos);
        if !inside {
            continue;
        }
        let at = &mut board[cell as usize * CELL_CHANNELS..][..CELL_CHANNELS];
        at[0] = 1.0;
        let o = placed.tile.oriented(placed.rot);
        let def = placed.tile.def();
        for side in 0..4 {
            match o.edges[side] {
                engine::Edge::City => at[3 + side] = 1.0,
                engine::Edge::Road => at[7 + side] = 1.0,
                engine::Edge::Field => {}
            }
            let seg = o.edge_segment[side];
            if seg != NO_SEGMENT {
                let id = segment_id(slot, seg);
                let root = features.root(id);
                let (mine, others) = mine_or_others(root);
                at[13 + side] = mine as u8 as f32;
                at[17 + side] = others as u8 as f32;
                at[21 + side] = view.is_complete(id) as u8 as f32;
            }
        }
        if def.segments.iter().any(|s| s.shield) {
            at[12] = 1.0;
        }
        if o.monastery != NO_SEGMENT {
            at[11] = 1.0;
            let id = segment_id(slot, o.monastery);
            let (mine, others) = mine_or_others(features.root(id));
            at[25] = mine as u8 as f32;
            at[26] = others as u8 as f32;
            at[27] = placed.surrounded as f32 / 8.0;
        }
        for (i, s) in def.segments.iter().enumerate() {
            if s.kind == FeatureKind::Field {
                let (mine, others) = mine_or_others(features.root(segment_id(slot, i as u8)));
                at[28] = at[28].max(mine as u8 as f32);
                at[29] = at[29].max(others as u8 as f32);
            }
        }
    }
    for m in view.meeples() {
        let placed = view.board().placed(m.slot());
        let (cell, inside) = cell_of(c, placed.pos);
        if inside {
            let ch = if m.seat == me { 30 } else { 31 };
            board[cell as usize * CELL_CHANNELS + ch] = 1.0;
        }
    }

    let mut g = Vec::with_capacity(GLOBAL_FEATURES);
    for p in 2..=6 {
        g.push((players == p) as u8 as f32);
    }
    let b = |v: bool| v as u8 as f32;
    g.extend([
        b(rules.farmers),
        b(rules.gifts),
        rules.hand as f32 / 3.0,
        b(rules.hand_visible),
        b(rules.start_in_bag),
        b(rules.hole_bonus),
        b(rules.final_incomplete),
        b(rules.table.is_some()),
        b(rules.table_closes),
        b(rules.unplaceable == engine::Unplaceable::Return),
    ]);
    let phase = view.phase();
    g.extend([
        b(matches!(phase, Phase::Place(_))),
        b(matches!(phase, Phase::Choose(..))),
        b(matches!(phase, Phase::PlaceHand)),
        b(!matches!(
            phase,
            Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand
        )),
    ]);
    let mut to_place = [0.0f32; Tile::COUNT];
    let mut held = [0.0f32; Tile::COUNT];
    let own = view.own_tiles();
    for t in own.iter() {
        held[t.index()] += 1.0;
    }
    match phase {
        Phase::Place(t) => to_place[t.index()] += 1.0,
        Phase::Choose(a, b2) => {
            to_place[a.index()] += 1.0;
            to_place[b2.index()] += 1.0;
        }
        Phase::PlaceHand if view.to_play() == me => to_place = held,
        _ => {}
    }
    g.extend(to_place);
    g.extend(held);
    let end_now = view.end_now_scores();
    let total = |s: usize| view.score(engine::Seat(s as u8)).total() as f32;
    let end_total = |s: usize| end_now[engine::Seat(s as u8)].total() as f32;
    for k in 0..MAX_PLAYERS {
        if k >= players {
            g.extend([0.0; SEAT_BLOCK]);
            continue;
        }
        let s = (me.index() + k) % players;
        let seat = engine::Seat(s as u8);
        g.extend([
            1.0,
            total(s) / 100.0,
            end_total(s) / 100.0,
            (end_total(s) - total(s)) / 50.0,
            view.supply(seat) as f32 / 7.0,
            view.hand_size(seat) as f32 / 5.0,
            view.tiles_held(seat) as f32 / 3.0,
        ]);
    }
    let best_other = |f: &dyn Fn(usize) -> f32| {
        (0..players)
            .filter(|&s| s != me.index())
            .map(f)
            .fold(f32::MIN, f32::max)
    };
    g.push((total(me.index()) - best_other(&total)) / 50.0);
    g.push((end_total(me.index()) - best_other(&end_total)) / 50.0);
    let unseen = view.unseen_tiles();
    for t in Tile::ALL {
        g.push(unseen.count(t) as f32 / t.def().count as f32);
    }
    g.push(unseen.total() as f32 / 72.0);
    g.push(view.bag().total() as f32 / 72.0);
    let own_gifts = view.own_hand();
    let discard = view.gift_discard();
    for gift in Gift::ALL {
        g.push(own_gifts.count(gift) as f32 / 5.0);
    }
    for gift in Gift::ALL {
        g.push(discard.count(gift) as f32 / 5.0);
    }
    g.push(view.gift_deck_size() as f32 / 25.0);
    g.push(b(view.gift_opened()));
    g.push(b(view.may_open_gift()));
    g.push(view.turns() as f32 / 72.0);
    g.push(c.0 as f32 / 72.0);
    g.push(c.1 as f32 / 72.0);
    let x = crate::learn::features::extract(view);
    for (i, v) in x.iter().enumerate() {
        g.push(*v as f32 / super::FEATURE_SCALES[i]);
    }
    debug_assert_eq!(g.len(), GLOBAL_FEATURES);
    PositionInput { board, globals: g }
}

/// Encode `actions`, legal actions of the position of `view` whose seat is
/// to play, in order (see the module doc).
///
/// # Panics
/// When an action is illegal in the position (the end-now gains are
/// computed by playing it).
pub fn encode_actions(view: &SeatView<'_>, actions: &[Action]) -> Vec<ActionInput> {
    let c = centre(view);
    let me = view.seat().index();
    let players = view.players();
    // Gains do not depend on hidden information: any determinization
    // gives the same (a test checks it).
    let state = view.determinize(&mut rand_pcg::Pcg64Mcg::seed_from_u64(0));
    let mut end_now = state.end_now();
    let base = end_now.valued_scores();
    actions
        .iter()
        .map(|&action| {
            let mut f = vec![0.0f32; ACTION_FEATURES];
            let mut cell = (HALF as usize * WINDOW + HALF as usize) as u32;
            let mut set_cell = |pos: Pos, f: &mut [f32]| {
                let (k, inside) = cell_of(c, pos);
                cell = k;
                f[44] = ((pos.x as i32 - c.0) as f32 / HALF as f32).clamp(-3.0, 3.0);
                f[45] = ((pos.y as i32 - c.1) as f32 / HALF as f32).clamp(-3.0, 3.0);
                f[46] = (!inside) as u8 as f32;
            };
            match action {
                Action::Place(mv) => {
                    f[0] = 1.0;
                    let tile = view.placing_tile(mv.placement.slot);
                    let meeple_kind = match (tile, mv.meeple) {
                        (Some(t), Some(s)) => Some(t.def().segments[s as usize].kind),
                        _ => None,
                    };
                    let k = match meeple_kind {
                        None => 0,
                        Some(FeatureKind::Road) => 1,
                        Some(FeatureKind::City) => 2,
                        Some(FeatureKind::Monastery) => 3,
                        Some(FeatureKind::Field) => 4,
                    };
                    f[8 + k] = 1.0;
                    f[13 + mv.placement.rot.quarter_turns() as usize] = 1.0;
                    f[17 + (mv.placement.slot as usize).min(MAX_HAND - 1)] = 1.0;
                    if let Some(t) = tile {
                        f[20 + t.index()] = 1.0;
                    }
                    set_cell(mv.placement.pos, &mut f);
                }
                Action::Open(open) => {
                    f[1] = 1.0;
                    f[3 + open.gift().index()] = 1.0;
                    let at = match open {
                        GiftOpen::Synod { at }
                        | GiftOpen::RoadSweeper { at, .. }
                        | GiftOpen::CashOut { at, .. }
                        | GiftOpen::ChangePosition { at, .. } => Some(at),
                        _ => None,
                    };
                    if let Some(at) = at {
                        set_cell(at, &mut f);
                    }
                }
                Action::Keep(t) => {
                    f[2] = 1.0;
                    f[20 + t.index()] = 1.0;
                }
            }
            let after = end_now.after(action);
            // A gift card the move earns: the mover's 2 points for it.
            let gift = matches!(action, Action::Place(_)) && {
                let mut next = state.clone();
                next.play_action_unchecked(action);
                next.phase() == Phase::DrawGift
            };
            // The seat's end-now total after the move, with that card.
            let total_after = |s: usize| {
                let earned = if gift && s == me { GIFT_POINTS } else { 0.0 };
                after[engine::Seat(s as u8)].total() as f32 + earned
            };
            let gain = |s: usize| total_after(s) - base[engine::Seat(s as u8)].total() as f32;
            let others_gain = (0..players)
                .filter(|&s| s != me)
                .map(gain)
                .fold(f32::MIN, f32::max);
            let others_after = (0..players)
                .filter(|&s| s != me)
                .map(|s| after[engine::Seat(s as u8)].total() as f32)
                .fold(f32::MIN, f32::max);
            f[47] = gain(me) / 10.0;
            f[48] = others_gain / 10.0;
            f[49] = (total_after(me) - others_after) / 50.0;
            if let Action::Place(mv) = action {
                if mv.meeple.is_some() {
                    // The meeple comes back at once when its feature is
                    // complete: the supply does not fall.
                    let mut next = state.clone();
                    next.play_action_unchecked(action);
                    let seat = engine::Seat(me as u8);
                    f[50] = (next.supply(seat) >= state.supply(seat)) as u8 as f32;
                }
            }
            ActionInput { features: f, cell }
        })
        .collect()
}
