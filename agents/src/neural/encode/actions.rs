//! The actions' part of the encoding: each legal action's
//! [`ACTION_FEATURES`] numbers and the window cell it acts on (see the
//! parent module's doc and docs/neural.md), with the working states kept
//! between positions so that nothing is allocated once warm.

use super::{cell_of, centre, ActionInput, ACTION_FEATURES, GIFT_POINTS, HALF, WINDOW};
use engine::{
    segment_id, Action, FeatureKind, GiftOpen, Move, Phase, Placement, Pos, SeatView, State,
    MAX_HAND,
};
use rand::SeedableRng;

/// Encode `actions`, legal actions of the position of `view` whose seat is
/// to play, in order (see the module doc).
///
/// # Panics
/// When an action is illegal in the position (the end-now gains are
/// computed by playing it).
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

/// [`encode_actions`] with its working states kept between calls, and its
/// output appended to flat buffers: nothing allocated once the buffers
/// have their sizes.
#[derive(Default)]
pub struct ActionEncoder {
    /// The determinization the gains are computed on (boxed: taken out
    /// and put back on every call).
    state: Option<Box<State>>,
    /// The position after the placement `placed` without a meeple.
    next: Option<State>,
    /// The placement `next` was played from this position (`None`:
    /// none yet; reset for each position).
    placed: Option<Placement>,
    /// Whether that placement brings one of the seat's meeples back.
    others_back: bool,
    /// Whether that placement earns the seat a gift card (The Gifts).
    earns_gift: bool,
    /// A copy to play an action on exactly.
    exact: Option<State>,
}

impl ActionEncoder {
    /// Append the [`ACTION_FEATURES`] numbers of each of `actions` to
    /// `features` and its window cell to `cells`, as [`encode_actions`]
    /// gives them.
    ///
    /// # Panics
    /// As [`encode_actions`].
    pub fn encode_into(
        &mut self,
        view: &SeatView<'_>,
        actions: &[Action],
        features: &mut Vec<f32>,
        cells: &mut Vec<u32>,
    ) {
        let c = centre(view);
        let me = view.seat().index();
        let players = view.players();
        // Gains do not depend on hidden information: any determinization
        // gives the same (a test checks it).
        let mut kept = self.state.take();
        let state = match &mut kept {
            Some(state) => {
                view.determinize_into(&mut seed0(), state);
                state
            }
            None => kept.insert(Box::new(view.determinize(&mut seed0()))),
        };
        let state = &**state;
        self.placed = None;
        let mut end_now = state.end_now();
        let base = end_now.valued_scores();
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
            let mut meeple_kind = None;
            match action {
                Action::Place(mv) => {
                    f[0] = 1.0;
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
                    f[8 + k] = 1.0;
                    f[13 + mv.placement.rot.quarter_turns() as usize] = 1.0;
                    f[17 + (mv.placement.slot as usize).min(MAX_HAND - 1)] = 1.0;
                    if let Some(t) = tile {
                        f[20 + t.index()] = 1.0;
                    }
                    set_cell(mv.placement.pos, f);
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
                        set_cell(at, f);
                    }
                }
                Action::Keep(t) => {
                    f[2] = 1.0;
                    f[20 + t.index()] = 1.0;
                }
            }
            let after = end_now.after(action);
            // A gift card the move earns: the mover's 2 points for it.
            let gift = match action {
                Action::Place(mv) if state.rules().gifts => {
                    self.play_bare(state, mv.placement);
                    self.earns_gift
                }
                _ => false,
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
            if let (Action::Place(mv), Some(kind)) = (action, meeple_kind) {
                let seat = engine::Seat(me as u8);
                f[50] = self.meeple_comes_back(state, seat, mv, kind) as u8 as f32;
            }
            cells.push(cell);
        }
        self.state = kept;
    }

    /// Play `placement` without a meeple on a copy of `state` (`next`),
    /// unless it is the one played last, and note what does not depend on
    /// the meeple: which of the seat's meeples come back (the features
    /// the tile joins and completes are the same), and whether the move
    /// earns a gift card (a meeple can only go on a feature nobody holds,
    /// which the card's condition does not look at).
    fn play_bare(&mut self, state: &State, placement: Placement) {
        if self.placed == Some(placement) {
            return;
        }
        let bare = Move {
            placement,
            meeple: None,
        };
        let next = self.next.get_or_insert_with(|| state.clone());
        next.clone_from(state);
        next.play_action_unchecked(Action::Place(bare));
        let seat = state.to_play();
        self.placed = Some(placement);
        self.others_back = next.supply(seat) > state.supply(seat);
        self.earns_gift = next.phase() == Phase::DrawGift;
    }

    /// Whether the seat to play's supply of meeples does not fall when it
    /// plays `mv`, a placement with a meeple on a segment of `kind`: the
    /// meeple (or another of the seat's) comes back at once because the
    /// placement completes its feature. (The first encoder played each
    /// such action on a copy of the state and compared the supplies; this
    /// plays each placement once, without the meeple, for all its meeple
    /// choices.)
    fn meeple_comes_back(
        &mut self,
        state: &State,
        seat: engine::Seat,
        mv: Move,
        kind: FeatureKind,
    ) -> bool {
        let exact = |scratch: &mut Option<State>| {
            let next = scratch.get_or_insert_with(|| state.clone());
            next.clone_from(state);
            next.play_action_unchecked(Action::Place(mv));
            next.supply(seat) >= state.supply(seat)
        };
        match kind {
            // Fields are never complete during the game.
            FeatureKind::Field => {}
            // A monastery that its own tile completes: rare, played out.
            FeatureKind::Monastery => return exact(&mut self.exact),
            FeatureKind::Road | FeatureKind::City => {}
        }
        self.play_bare(state, mv.placement);
        if self.others_back {
            // Back: one or more of its meeples; the new one is one less.
            return true;
        }
        match kind {
            FeatureKind::Field | FeatureKind::Monastery => false,
            FeatureKind::Road | FeatureKind::City => {
                // The new meeple comes back when its feature is complete.
                let next = self.next.as_ref().expect("played above");
                let slot = state.board().tiles().len();
                debug_assert_eq!(next.board().placed(slot).pos, mv.placement.pos);
                let segment = mv.meeple.expect("a meeple");
                next.is_complete(segment_id(slot, segment))
            }
        }
    }
}

/// The generator of the determinization the gains are computed on.
fn seed0() -> rand_pcg::Pcg64Mcg {
    rand_pcg::Pcg64Mcg::seed_from_u64(0)
}
