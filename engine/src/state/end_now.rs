//! The end-now scores (what every seat would have if the game ended now)
//! of a position, and of the position one placement would make, without
//! changing or copying the state.
//!
//! A placement changes only the features its tile joins and the
//! monasteries around it: the new tile's segments and the neighbouring
//! features they touch merge into a few *groups*. An [`Overlay`] holds
//! exactly that — the groups' counters as the union-find would have them
//! after `put_tile`, and the tiles whose surrounded count rises — and reads
//! everything else from the state.
//!
//! [`EndNow`] computes once per position what its placements share: each
//! meeple's feature (looked up once), the seats' meeples on it and its
//! value, and the distinct cities each field touches (walked once, then
//! kept), with the end-now scores these make. Scoring a placement starts
//! from those scores and changes only what the placement changes: the
//! held features its overlay joins give their points back and their
//! meeples to their group, which with the new meeple's is valued (what
//! the placement completes as `score_completed` would, the rest as in the
//! final scoring, RULES.md §4); the monasteries it surrounds further and,
//! when it completes a city, the farms are valued again. The overlay of
//! no placement is empty, so [`State::end_now_scores`] and
//! [`EndNow::after`] share one valuation.
//!
//! `Overlay::new` must join segments exactly as `State::put_tile` does;
//! the tests compare both ways over thousands of random positions.
//!
//! The same overlay tells what else a placement does ([`EndNow::effects`],
//! [`PlaceEffects`]): the points scored at once, the supply after, the
//! features completed and joined, the meeple's feature, whether the game
//! ends — what the per-action features read, without a copy.
//!
//! Four helpers with one job each: `overlay` (a placement's changes to the
//! features), `field_cache` (the cities each field touches, walked once and
//! kept, [`FieldCache`]), `valuation` (what a feature scores and who
//! wins it) and `effects` ([`PlaceEffects`]). This file holds [`EndNow`]
//! and the `State` methods built on it.

use super::{State, MAX_MEEPLES};
use crate::features::SegmentId;
use crate::moves::{Move, Placement};
use crate::playout::random_meeple;
use crate::sampling::{GenRange, Sampler};
use crate::seat::{PerSeat, Score, MAX_PLAYERS};
use crate::tiles::{meeple_segments, FeatureKind, Tile, MAX_SEGMENTS};
use crate::turn::{Action, Phase};
use rand::Rng;

mod effects;
mod field_cache;
mod overlay;
mod valuation;

pub use effects::{MeepleFeature, PlaceEffects};
pub use field_cache::FieldCache;
use field_cache::{FieldLists, Touches};
use overlay::{Key, Overlay, GROUP};
pub(super) use valuation::add_points;
use valuation::{
    add_gifts, completed_cities, give, points, signed_total, take, winners, wrapping_add,
};

/// A feature of the position holding meeples.
#[derive(Clone, Copy)]
struct Held {
    root: SegmentId,
    kind: FeatureKind,
    /// Meeples per seat.
    counts: [u8; MAX_PLAYERS],
    /// The seats with the most meeples on it (bit per seat).
    winners: u8,
    /// What it scores if the game ends now (0: nothing; [`UNVALUED`]:
    /// not valued yet).
    points: u16,
}

/// The points of a held feature not valued yet.
const UNVALUED: u16 = u16::MAX;

/// The end-now scores of one position ([`State::end_now_scores`]),
/// prepared to score many of its actions ([`EndNow::after`]).
///
/// What the placements of a position share is computed once: each
/// meeple's feature, its seats' meeples and its value, and for fields the
/// distinct cities they touch (kept as they are looked up, so a field is
/// walked once however many placements join it). Scoring a placement then
/// reads only what it changes: the features its tile joins, the
/// monasteries around it, and — when it completes a city — the fields
/// that city touches.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mut end_now = state.end_now();
/// assert_eq!(end_now.scores(), state.end_now_scores());
/// state.for_each_action(|a| {
///     assert_eq!(end_now.after(a), state.end_now_scores_after(a));
/// });
/// ```
pub struct EndNow<'s> {
    state: &'s State,
    /// The end-now scores of the position, once `valued`.
    scores: PerSeat<Score>,
    /// Every held feature is valued and `scores` is set.
    valued: bool,
    held: [Held; MAX_MEEPLES],
    held_len: usize,
    touches: FieldLists<'s>,
    /// The placement scored last, shared by its meeple choices.
    prepared: Prepared,
}

/// A placement of the position, prepared for its meeple choices: its
/// overlay and what it does to the end-now scores before a meeple goes
/// on the new tile.
struct Prepared {
    /// The placement (`None`: nothing prepared yet).
    placement: Option<Placement>,
    ov: Overlay,
    /// What the placement changes in the position's end-now scores
    /// before its groups are valued (parts counted modulo 2^16): the held
    /// features it joins taken back, the monasteries it surrounds further
    /// and (when it completes a city) the unjoined farms valued again.
    delta: PerSeat<Score>,
    /// Meeples per seat on each group (by root node, a segment of the new
    /// tile), and the groups holding any (bit per node).
    counts: [[u8; MAX_PLAYERS]; MAX_SEGMENTS],
    holding: u32,
    /// Each group's points once valued (`u16::MAX`: not yet).
    points: [u16; MAX_SEGMENTS],
}

impl<'s> EndNow<'s> {
    /// Nothing computed yet, the fields' lists kept in `touches`.
    #[inline]
    fn empty(state: &'s State, touches: FieldLists<'s>) -> EndNow<'s> {
        EndNow {
            state,
            scores: state.scores,
            valued: false,
            held: [Held {
                root: 0,
                kind: FeatureKind::Road,
                counts: [0; MAX_PLAYERS],
                winners: 0,
                points: 0,
            }; MAX_MEEPLES],
            held_len: 0,
            touches,
            prepared: Prepared {
                placement: None,
                ov: Overlay::NONE,
                delta: PerSeat::splat(Score::default()),
                counts: [[0; MAX_PLAYERS]; MAX_SEGMENTS],
                holding: 0,
                points: [u16::MAX; MAX_SEGMENTS],
            },
        }
    }

    /// The held features listed with their meeples, none valued yet.
    #[inline]
    fn lazy(state: &'s State, touches: FieldLists<'s>) -> EndNow<'s> {
        let mut e = EndNow::empty(state, touches);
        if state.phase == Phase::Over {
            e.valued = true;
            return e;
        }
        // Bit `root % 64` of each root listed: most meeples are the first
        // on their feature, found new without a look at the list.
        let mut bloom = 0u64;
        for m in state.meeples() {
            let root = state.features.root(m.segment);
            let bit = 1u64 << (root % 64);
            let listed = if bloom & bit == 0 {
                bloom |= bit;
                None
            } else {
                e.held[..e.held_len].iter().position(|h| h.root == root)
            };
            let k = match listed {
                Some(k) => k,
                None => {
                    let h = &mut e.held[e.held_len];
                    h.root = root;
                    h.kind = state.segment_kind(root);
                    h.points = UNVALUED;
                    e.held_len += 1;
                    e.held_len - 1
                }
            };
            e.held[k].counts[m.seat.index()] += 1;
        }
        for h in &mut e.held[..e.held_len] {
            h.winners = winners(&h.counts, state.players);
        }
        e
    }

    fn new(state: &'s State) -> EndNow<'s> {
        let mut e = EndNow::lazy(state, FieldLists::Own(Touches::EMPTY));
        e.value_all();
        e
    }

    /// Value every held feature and set the position's end-now scores.
    fn value_all(&mut self) {
        if self.valued {
            return;
        }
        let mut scores = self.state.scores;
        for k in 0..self.held_len {
            let points = self.held_points(k);
            let h = &self.held[k];
            give(&mut scores, h.kind, points, h.winners);
        }
        add_gifts(self.state, &mut scores);
        self.scores = scores;
        self.valued = true;
    }

    /// What held feature `k` scores if the game ends now (valued once).
    #[inline]
    fn held_points(&mut self, k: usize) -> u16 {
        let h = self.held[k];
        if h.points != UNVALUED {
            return h.points;
        }
        let points = points(
            &mut self.touches,
            self.state,
            &Overlay::NONE,
            h.root,
            h.kind,
        );
        self.held[k].points = points;
        points
    }

    /// The position.
    pub fn state(&self) -> &'s State {
        self.state
    }

    /// The end-now scores of the position ([`State::end_now_scores`]).
    pub fn scores(&self) -> PerSeat<Score> {
        if self.valued {
            self.scores
        } else {
            EndNow::new(self.state).scores
        }
    }

    /// The end-now scores of the position, as [`EndNow::scores`], valuing
    /// the held features not valued yet once (later calls read them).
    pub fn valued_scores(&mut self) -> PerSeat<Score> {
        self.value_all();
        self.scores
    }

    /// What the feature of segment `id` is worth
    /// ([`State::feature_value`]), a field's completed cities read from
    /// the lists kept here (a field is walked once, whatever asks).
    pub fn feature_value(&mut self, id: SegmentId) -> u32 {
        let state = self.state;
        let root = state.features.root(id);
        match state.segment_kind(root) {
            FeatureKind::Field => {
                3 * u32::from(completed_cities(
                    &mut self.touches,
                    state,
                    &Overlay::NONE,
                    root,
                ))
            }
            _ => state.feature_value(root),
        }
    }

    /// The end-now scores right after `action`
    /// ([`State::end_now_scores_after`]). `action` must be legal (checked
    /// only by `debug_assert!`).
    pub fn after(&mut self, action: Action) -> PerSeat<Score> {
        let state = self.state;
        debug_assert_eq!(state.check_action(action), Ok(()));
        self.value_all();
        let tile = match (action, state.phase) {
            (Action::Place(_), Phase::Place(tile)) => Some(tile),
            (Action::Place(mv), Phase::PlaceHand) => state.placing_tile(mv.placement.slot),
            _ => None,
        };
        match (action, tile) {
            (Action::Place(mv), Some(tile)) => {
                let delta = self.place_delta(tile, mv);
                let mut scores = self.scores;
                for (s, d) in scores.0.iter_mut().zip(&delta.0) {
                    *s = wrapping_add(*s, *d);
                }
                scores
            }
            _ => {
                let mut after = state.clone();
                after.play_action_unchecked(action);
                after.end_now_scores()
            }
        }
    }

    /// What `action` changes in each seat's end-now total: `after(action)`
    /// less `scores()`, seat by seat (seats past the table's are 0).
    /// A placement is scored without valuing the held features it leaves
    /// alone, so a position prepared by [`State::end_now_lazy`] walks no
    /// farm the placements compared do not reach.
    pub fn gain(&mut self, action: Action) -> [i32; MAX_PLAYERS] {
        let state = self.state;
        debug_assert_eq!(state.check_action(action), Ok(()));
        let mut out = [0; MAX_PLAYERS];
        // (A placement from a hand goes through `after`, off the hot path.)
        match (action, state.phase) {
            (Action::Place(mv), Phase::Place(tile)) => {
                let delta = self.place_delta(tile, mv);
                let players = state.players as usize;
                for (o, d) in out.iter_mut().zip(&delta.0).take(players) {
                    *o = signed_total(d);
                }
            }
            _ => {
                let after = self.after(action);
                let players = state.players as usize;
                for (o, (a, b)) in out
                    .iter_mut()
                    .zip(after.0.iter().zip(&self.scores.0))
                    .take(players)
                {
                    *o = a.total() as i32 - b.total() as i32;
                }
            }
        }
        out
    }

    /// A uniformly random legal move of the position: the move
    /// [`crate::random_move`] gives from the same draws of `rng`, with its
    /// placement prepared for [`EndNow::gain`] and [`EndNow::after`] (the
    /// segments free for its meeple are read from the placement's overlay
    /// instead of being worked out apart). `None` when the seat to play has
    /// no placement.
    ///
    /// # Examples
    /// ```
    /// use engine::{random_move, Action, Chance, Rules, Seat, State, Tile};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut end_now = state.end_now_lazy();
    /// let mv = end_now.random_move(&mut rand_pcg::Pcg64Mcg::seed_from_u64(3)).unwrap();
    /// assert_eq!(Some(mv), random_move(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(3)));
    /// assert_eq!(end_now.gain(Action::Place(mv)), state.end_now().gain(Action::Place(mv)));
    /// ```
    pub fn random_move<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Move> {
        let state = self.state;
        let n = state.placement_count();
        if n == 0 {
            return None;
        }
        let placement = state.nth_placement(GenRange::index(rng, n))?;
        let free = match state.phase {
            Phase::Place(tile) if state.supply[state.to_play] > 0 => {
                if self.prepared.placement != Some(placement) {
                    self.prepare(tile, placement);
                }
                let ov = &self.prepared.ov;
                let mut occupied = 0u8;
                for i in 0..tile.segment_count() {
                    let group = ov.parent[i] as usize;
                    occupied |= u8::from(ov.counters[group].meeples() > 0) << i;
                }
                meeple_segments(tile, state.rules().farmers) & !occupied
            }
            _ => state.free_segments(placement),
        };
        Some(Move {
            placement,
            meeple: random_meeple::<GenRange, R>(free, rng),
        })
    }

    /// What placing `mv` (of `tile`) changes in the end-now scores, parts
    /// counted modulo 2^16.
    fn place_delta(&mut self, tile: Tile, mv: Move) -> PerSeat<Score> {
        let state = self.state;
        if self.prepared.placement != Some(mv.placement) {
            self.prepare(tile, mv.placement);
        }
        let p = &mut self.prepared;
        let (mut holding, mut delta) = (p.holding, p.delta);
        // The new meeple's group (none: `MAX_SEGMENTS`).
        let mut meeple_node = MAX_SEGMENTS;
        if let Some(segment) = mv.meeple {
            meeple_node = p.ov.parent[segment as usize] as usize;
            holding |= 1 << meeple_node;
        }
        while holding != 0 {
            let node = holding.trailing_zeros() as usize;
            holding &= holding - 1;
            let kind = tile.def().segments[node].kind;
            if p.points[node] == u16::MAX {
                p.points[node] = points(&mut self.touches, state, &p.ov, GROUP | node as Key, kind);
            }
            if p.points[node] == 0 {
                continue;
            }
            let mut counts = p.counts[node];
            if node == meeple_node {
                counts[state.to_play.index()] += 1;
            }
            give(
                &mut delta,
                kind,
                p.points[node],
                winners(&counts, state.players),
            );
        }
        delta
    }

    /// Prepare `placement` of `tile` for its meeple choices: what the
    /// placement changes in the position's end-now scores — the held
    /// features it joins taken back (their meeples go to their group), the
    /// monasteries it surrounds further and, when it completes a city,
    /// the farms valued again.
    fn prepare(&mut self, tile: Tile, placement: Placement) {
        let state = self.state;
        let ov = Overlay::new(state, tile, placement.rot, placement.pos);
        let farms_change = state.rules().farmers && ov.completes_city();
        let mut delta = PerSeat::splat(Score::default());
        let mut counts = [[0u8; MAX_PLAYERS]; MAX_SEGMENTS];
        let mut holding = 0u32;
        for k in 0..self.held_len {
            let h = self.held[k];
            let key = ov.map_root(h.root);
            let changes = key & GROUP != 0
                || match h.kind {
                    FeatureKind::Monastery => ov.gains(key as usize / MAX_SEGMENTS),
                    FeatureKind::Field => farms_change,
                    FeatureKind::Road | FeatureKind::City => false,
                };
            if !changes {
                continue;
            }
            let before = self.held_points(k);
            take(&mut delta, h.kind, before, h.winners);
            if key & GROUP != 0 {
                let node = (key & !GROUP) as usize;
                for (c, &h) in counts[node].iter_mut().zip(&h.counts) {
                    *c += h;
                }
                holding |= 1 << node;
            } else {
                let points = points(&mut self.touches, state, &ov, key, h.kind);
                give(&mut delta, h.kind, points, h.winners);
            }
        }
        let p = &mut self.prepared;
        p.placement = Some(placement);
        p.ov = ov;
        p.delta = delta;
        p.counts = counts;
        p.holding = holding;
        p.points = [u16::MAX; MAX_SEGMENTS];
    }
}

impl State {
    /// What every seat would score if the game ended now: the points
    /// scored so far plus the final scoring (RULES.md §4) of every meeple
    /// still on the board and 2 per unopened gift (§5). The state is not
    /// changed (nor copied); each meeple's feature is looked up once. For a
    /// finished game these are the final scores.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// // A road tile east of the start, a meeple on its road (segment 0).
    /// let rot = Rotation::new(1).unwrap();
    /// let mv = Move::place(Pos::new(1, 0), rot).with_meeple(0);
    /// state.try_action(Action::Place(mv)).unwrap();
    /// let end_now = state.end_now_scores();
    /// assert_eq!(state.score(Seat(0)).total(), 0); // nothing scored yet
    /// assert_eq!(end_now[Seat(0)].road, 2); // the open road of 2 tiles
    /// ```
    pub fn end_now_scores(&self) -> PerSeat<Score> {
        EndNow::new(self).scores
    }

    /// The end-now scores ([`State::end_now_scores`]) right after `action`
    /// is played: the points it scores included, an opened gift no longer
    /// counting 2. `action` must be legal (checked only by `debug_assert!`).
    /// `self` is not changed; a placement is evaluated without copying the
    /// state (gift openings and Take 2's choice play on a copy). To score
    /// many actions of one position, [`State::end_now`] shares the work.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let rot = Rotation::new(1).unwrap();
    /// let mv = Move::place(Pos::new(1, 0), rot).with_meeple(0);
    /// let after = state.end_now_scores_after(Action::Place(mv));
    /// state.try_action(Action::Place(mv)).unwrap();
    /// assert_eq!(after, state.end_now_scores());
    /// ```
    pub fn end_now_scores_after(&self, action: Action) -> PerSeat<Score> {
        EndNow::new(self).after(action)
    }

    /// The end-now scores of this position prepared to score many of its
    /// actions ([`EndNow`]).
    pub fn end_now(&self) -> EndNow<'_> {
        EndNow::new(self)
    }

    /// The end-now scores of this position prepared to compare its
    /// actions by [`EndNow::gain`]: only the features holding meeples are
    /// listed, and each is valued when a placement first changes it (a
    /// farm is walked only then). [`EndNow::scores`] and
    /// [`EndNow::after`] still give the whole scores (valuing them all).
    #[inline]
    pub fn end_now_lazy(&self) -> EndNow<'_> {
        EndNow::lazy(self, FieldLists::Own(Touches::EMPTY))
    }

    /// [`State::end_now_lazy`] with the fields' touched cities kept in
    /// `cache` (see [`FieldCache`]: this position must follow from the
    /// cache's start and from the positions given since its last
    /// [`FieldCache::new_line`]).
    #[inline]
    pub fn end_now_lazy_in<'a>(&'a self, cache: &'a mut FieldCache) -> EndNow<'a> {
        EndNow::lazy(self, FieldLists::Shared(cache))
    }

    /// [`State::end_now_scores`] with the fields' touched cities kept in
    /// `cache` (as for [`State::end_now_lazy_in`]).
    pub fn end_now_scores_in(&self, cache: &mut FieldCache) -> PerSeat<Score> {
        let mut e = EndNow::lazy(self, FieldLists::Shared(cache));
        e.value_all();
        e.scores
    }

    /// Distinct completed cities touching the field with root `field`.
    pub(super) fn completed_cities_touching(&self, field: SegmentId) -> u32 {
        let mut lists = FieldLists::Own(Touches::EMPTY);
        completed_cities(&mut lists, self, &Overlay::NONE, field) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::field_cache::CACHED_FIELDS;
    use super::*;
    use crate::features::segment_id;
    use crate::playout::random_action;
    use crate::rules::Rules;
    use crate::seat::Seat;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// Distinct completed cities touching field `root`, from every
    /// segment of the board.
    fn naive_completed_cities(state: &State, root: SegmentId) -> u16 {
        let mut cities = Vec::new();
        for slot in 0..state.board.len() {
            let def = state.board.placed(slot).tile.def();
            for (i, seg) in def.segments.iter().enumerate() {
                if state.features.root(segment_id(slot, i as u8)) != root {
                    continue;
                }
                for c in 0..MAX_SEGMENTS as u8 {
                    let city = state.features.root(segment_id(slot, c));
                    if seg.touches & (1 << c) != 0
                        && state.features.open(city) == 0
                        && !cities.contains(&city)
                    {
                        cities.push(city);
                    }
                }
            }
        }
        cities.len() as u16
    }

    #[test]
    fn field_touches_kept_stay_right_when_the_room_runs_out() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut state = State::new(Rules::default(), 2, Seat(0));
        while !state.is_over() {
            let action = random_action(&state, &mut rng);
            match action {
                Some(a) => state.play_action_unchecked(a),
                None => {
                    state.apply_chance(&mut rng);
                }
            }
        }
        let mut fields = Vec::new();
        for slot in 0..state.board.len() {
            for (i, seg) in state
                .board
                .placed(slot)
                .tile
                .def()
                .segments
                .iter()
                .enumerate()
            {
                let root = state.features.root(segment_id(slot, i as u8));
                if seg.kind == FeatureKind::Field && !fields.contains(&root) {
                    fields.push(root);
                }
            }
        }
        assert!(fields.len() > CACHED_FIELDS, "{} fields", fields.len());
        let mut lists = FieldLists::Own(Touches::EMPTY);
        let mut completed = 0;
        // Twice round: the second finds some kept, some walked again.
        for &root in fields.iter().chain(&fields) {
            let expected = naive_completed_cities(&state, root);
            let found = completed_cities(&mut lists, &state, &Overlay::NONE, root);
            assert_eq!(found, expected);
            completed += expected;
        }
        assert!(completed > 0);
    }
}
