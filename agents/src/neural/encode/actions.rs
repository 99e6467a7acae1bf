//! The actions' part of the encoding: each legal action's
//! [`ACTION_FEATURES`] numbers and the window cell it acts on (see the
//! parent module's doc and docs/neural.md), into buffers kept between
//! positions so that nothing is allocated once warm.

use super::{
    cell_of, centre, ActionInput, ACTION_FEATURES, GIFT_POINTS, HALF, ONE_HOT_FEATURES, WINDOW,
};
use engine::{Action, FeatureKind, GiftOpen, PerSeat, Pos, Score, SeatEndNow, SeatView, MAX_HAND};

/// Encode `actions`, legal actions of the position of `view` whose seat is
/// to play, in order (see the module doc).
///
/// # Panics
/// When an action is illegal in the position (a gift opening or Take 2's
/// choice is played on a copy; a placement outside the place phase has
/// no effects to read), or the view's seat is not to play.
pub fn encode_actions(view: &SeatView<'_>, actions: &[Action]) -> Vec<ActionInput> {
    let mut features = Vec::with_capacity(actions.len() * ACTION_FEATURES);
    let mut cells = Vec::with_capacity(actions.len());
    ActionEncoder::default().encode_into(view, actions, &mut features, &mut cells);
    features
        .chunks_exact(ACTION_FEATURES)
        .zip(cells)
        .map(|(f, cell)| ActionInput {
            features: f.to_vec(),
            cell,
        })
        .collect()
}

/// [`encode_actions`] appending to flat buffers: nothing allocated once
/// the buffers have their sizes. (It keeps no state: the gains are read
/// on the view's own position through [`SeatView::end_now`].)
#[derive(Default)]
pub struct ActionEncoder {
    /// The one-hot sets of [`ActionEncoder::encode_into`], which does not
    /// give them out.
    one_hot: Vec<u64>,
}

/// Set one-hot column `j` of an action's features `f` to 1, and bit `j`
/// of its set.
fn hot(f: &mut [f32], set: &mut u64, j: usize) {
    debug_assert!(j < ONE_HOT_FEATURES);
    f[j] = 1.0;
    *set |= 1 << j;
}

impl ActionEncoder {
    /// Append the [`ACTION_FEATURES`] numbers of each of `actions` to
    /// `features` and its window cell to `cells`, as [`encode_actions`]
    /// gives them; return the position's end-now scores
    /// ([`SeatView::end_now_scores`], computed on the way), which
    /// [`super::encode_globals_with_into`] takes.
    ///
    /// # Panics
    /// As [`encode_actions`].
    pub fn encode_into(
        &mut self,
        view: &SeatView<'_>,
        actions: &[Action],
        features: &mut Vec<f32>,
        cells: &mut Vec<u32>,
    ) -> PerSeat<Score> {
        // Gains do not depend on hidden information (a test checks it on
        // determinizations): they are read on the view's position.
        let mut end_now = view.end_now();
        let mut one_hot = std::mem::take(&mut self.one_hot);
        one_hot.clear();
        self.encode_in(view, &mut end_now, actions, features, cells, &mut one_hot);
        self.one_hot = one_hot;
        end_now.scores()
    }

    /// [`ActionEncoder::encode_into`] reading the end-now scores and the
    /// actions' effects from `end_now`, the view's [`SeatView::end_now`]
    /// (which [`super::encode_read_in`] then reads the position's from,
    /// computed once), and appending to
    /// `one_hot` each action's one-hot set: bit `j` set when column `j`
    /// (below [`ONE_HOT_FEATURES`]) is 1, the others of those columns
    /// being 0 ([`super::super::fast::forward_into`] reads it).
    ///
    /// # Panics
    /// As [`encode_actions`].
    pub fn encode_in(
        &mut self,
        view: &SeatView<'_>,
        end_now: &mut SeatEndNow<'_>,
        actions: &[Action],
        features: &mut Vec<f32>,
        cells: &mut Vec<u32>,
        one_hot: &mut Vec<u64>,
    ) {
        let c = centre(view);
        let me = view.seat().index();
        let players = view.players();
        let base = end_now.scores();
        for &action in actions {
            let start = features.len();
            features.resize(start + ACTION_FEATURES, 0.0);
            let f = &mut features[start..];
            let mut cell = (HALF as usize * WINDOW + HALF as usize) as u32;
            let mut set_cell = |pos: Pos, f: &mut [f32]| {
                let (k, inside) = cell_of(c, pos);
                cell = k;
                f[44] = ((pos.x as i32 - c.0) as f32 / HALF as f32).clamp(-3.0, 3.0);
                f[45] = ((pos.y as i32 - c.1) as f32 / HALF as f32).clamp(-3.0, 3.0);
                f[46] = (!inside) as u8 as f32;
            };
            let mut set = 0u64;
            let mut meeple_kind = None;
            // What a placement does, read without playing it (the
            // end-now scores after it, its gift card, its supply).
            let mut effects = None;
            match action {
                Action::Place(mv) => {
                    effects = Some(end_now.effects(mv));
                    hot(f, &mut set, 0);
                    let tile = view.placing_tile(mv.placement.slot);
                    meeple_kind = match (tile, mv.meeple) {
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
                    hot(f, &mut set, 8 + k);
                    hot(f, &mut set, 13 + mv.placement.rot.quarter_turns() as usize);
                    hot(
                        f,
                        &mut set,
                        17 + (mv.placement.slot as usize).min(MAX_HAND - 1),
                    );
                    if let Some(t) = tile {
                        hot(f, &mut set, 20 + t.index());
                    }
                    set_cell(mv.placement.pos, f);
                }
                Action::Open(open) => {
                    hot(f, &mut set, 1);
                    hot(f, &mut set, 3 + open.gift().index());
                    let at = match open {
                        GiftOpen::Synod { at }
                        | GiftOpen::RoadSweeper { at, .. }
                        | GiftOpen::CashOut { at, .. }
                        | GiftOpen::ChangePosition { at, .. } => Some(at),
                        _ => None,
                    };
                    if let Some(at) = at {
                        set_cell(at, f);
                    }
                }
                Action::Keep(t) => {
                    hot(f, &mut set, 2);
                    hot(f, &mut set, 20 + t.index());
                }
            }
            let after = match &effects {
                Some(e) => e.end_now,
                None => end_now.after(action),
            };
            // A gift card the move earns: the mover's 2 points for it.
            let gift = effects.is_some_and(|e| e.earns_gift);
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
            if let (Some(e), Some(_)) = (effects, meeple_kind) {
                // The meeple (or another of the seat's) comes back at
                // once: the supply does not fall.
                let seat = engine::Seat(me as u8);
                f[50] = (e.supply_after >= view.supply(seat)) as u8 as f32;
            }
            cells.push(cell);
            one_hot.push(set);
        }
    }
}
