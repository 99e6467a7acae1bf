//! The end-now scores (what every seat would have if the game ended now)
//! of a position, and of the position one placement would make, without
//! changing or copying the state.
//!
//! A placement changes only the features its tile joins and the
//! monasteries around it: the new tile's segments and the neighbouring
//! features they touch merge into a few *groups*. An [`Overlay`] holds
//! exactly that — the groups' counters as the union-find would have them
//! after `put_tile`, and the tiles whose surrounded count rises — and reads
//! everything else from the state. Scoring then looks each meeple's feature
//! up once, awards what the placement completes (as `score_completed`
//! would) and adds the final scoring (RULES.md §4) of the rest. The overlay
//! of no placement is empty, so [`State::end_now_scores`] and
//! [`State::end_now_scores_after`] share one routine.
//!
//! `Overlay::new` must join segments exactly as `State::put_tile` does;
//! the tests compare both ways over thousands of random positions.

use super::{State, MAX_MEEPLES};
use crate::board::NO_SLOT;
use crate::features::{segment_id, Counters, SegmentId, MAX_SEGMENT_IDS};
use crate::geom::{Pos, Rotation, Side};
use crate::seat::{PerSeat, Score, Seat, MAX_PLAYERS};
use crate::tiles::{Edge, FeatureKind, Tile, MAX_SEGMENTS, NO_SEGMENT};
use crate::turn::{Action, Phase};

/// A feature as the overlay sees it: a union-find root of the state, or
/// `GROUP | node` for a group the placement makes.
type Key = u16;
/// Marks a group key (segment ids stay below `MAX_TILES * MAX_SEGMENTS`).
const GROUP: Key = 0x8000;

/// Most neighbouring features one tile joins: one per edge and per port.
const MAX_JOINED: usize = 12;
/// Overlay union-find nodes: the new tile's segments, then joined roots.
const NODES: usize = MAX_SEGMENTS + MAX_JOINED;

/// A placement's changes to the features, over a state it leaves alone.
struct Overlay {
    /// The new tile's slot (`usize::MAX` for no placement).
    slot: usize,
    /// The new tile.
    tile: Tile,
    /// Union-find over the new tile's segments (nodes `0..MAX_SEGMENTS`)
    /// and the neighbouring roots they join (`MAX_SEGMENTS..`), flattened
    /// once built: every node points at its group's root, which is always
    /// a segment of the new tile.
    parent: [u8; NODES],
    counters: [Counters; NODES],
    /// The state's roots joined, node `MAX_SEGMENTS + k` for `roots[k]`.
    roots: [SegmentId; MAX_JOINED],
    joined: usize,
    /// Slots of the placed tiles among the eight cells around the new
    /// tile: each gains one surrounding tile.
    around: [u8; 8],
    around_len: usize,
}

impl Overlay {
    /// No placement: every feature as the state has it.
    const NONE: Overlay = Overlay {
        slot: usize::MAX,
        tile: Tile::START,
        parent: [0; NODES],
        counters: [Counters::one(0, false, 0); NODES],
        roots: [0; MAX_JOINED],
        joined: 0,
        around: [0; 8],
        around_len: 0,
    };

    /// The changes of putting `tile` at `pos` turned by `rot` (a legal
    /// placement in `state`).
    fn new(state: &State, tile: Tile, rot: Rotation, pos: Pos) -> Overlay {
        let mut ov = Overlay {
            slot: state.board.len(),
            tile,
            ..Overlay::NONE
        };
        let o = tile.oriented(rot);
        let piece_bit = if o.multi_piece {
            1u16 << state.pieces_used
        } else {
            0
        };
        for (i, seg) in tile.def().segments.iter().enumerate() {
            ov.parent[i] = i as u8;
            ov.counters[i] = match seg.kind {
                FeatureKind::Road | FeatureKind::City => {
                    Counters::one(seg.open, seg.shield, piece_bit)
                }
                _ => Counters::one(0, false, 0),
            };
        }
        let around = state.board.around_slots(pos);
        for side in Side::ALL {
            let nslot = around[2 * side.index()];
            if nslot == NO_SLOT {
                continue;
            }
            let nslot = nslot as usize;
            let n = state.board.placed(nslot);
            let no = n.tile.oriented(n.rot);
            let (s, opp) = (side.index(), side.opposite().index());
            if matches!(o.edges[s], Edge::Road | Edge::City) {
                let theirs = segment_id(nslot, no.edge_segment[opp]);
                let root = ov.join(state, o.edge_segment[s], theirs);
                ov.counters[root].open -= 2;
            }
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                if mine != NO_SEGMENT {
                    let theirs = segment_id(nslot, no.port_segment[port.facing().index()]);
                    ov.join(state, mine, theirs);
                }
            }
        }
        for node in 0..NODES {
            ov.parent[node] = ov.find(node) as u8;
        }
        for s in around {
            if s != NO_SLOT {
                ov.around[ov.around_len] = s;
                ov.around_len += 1;
            }
        }
        ov
    }

    fn find(&self, mut node: usize) -> usize {
        while self.parent[node] as usize != node {
            node = self.parent[node] as usize;
        }
        node
    }

    /// Join new segment `mine` with the feature of the state's segment
    /// `theirs`; returns the group's root node.
    fn join(&mut self, state: &State, mine: u8, theirs: SegmentId) -> usize {
        let root = state.features.root(theirs);
        let k = match self.roots[..self.joined].iter().position(|&r| r == root) {
            Some(k) => k,
            None => {
                let k = self.joined;
                self.roots[k] = root;
                self.parent[MAX_SEGMENTS + k] = (MAX_SEGMENTS + k) as u8;
                self.counters[MAX_SEGMENTS + k] = state.features.counters(root);
                self.joined += 1;
                k
            }
        };
        let (a, b) = (self.find(mine as usize), self.find(MAX_SEGMENTS + k));
        if a != b {
            // `a` holds a new segment: group roots stay new segments.
            self.parent[b] = a as u8;
            self.counters[a] = self.counters[a].joined(self.counters[b]);
        }
        a
    }

    /// The feature of segment `id` (of a placed tile or of the new one).
    #[inline]
    fn key(&self, state: &State, id: SegmentId) -> Key {
        if id as usize / MAX_SEGMENTS == self.slot {
            return GROUP | self.parent[id as usize % MAX_SEGMENTS] as Key;
        }
        let root = state.features.root(id);
        match self.roots[..self.joined].iter().position(|&r| r == root) {
            Some(k) => GROUP | self.parent[MAX_SEGMENTS + k] as Key,
            None => root,
        }
    }

    fn counters(&self, state: &State, key: Key) -> Counters {
        if key & GROUP != 0 {
            self.counters[(key & !GROUP) as usize]
        } else {
            state.features.counters(key)
        }
    }

    fn kind(&self, state: &State, key: Key) -> FeatureKind {
        if key & GROUP != 0 {
            self.tile.def().segments[(key & !GROUP) as usize].kind
        } else {
            state.segment_kind(key)
        }
    }

    /// The tile in `slot`, the new one included.
    fn tile_in(&self, state: &State, slot: usize) -> Tile {
        if slot == self.slot {
            self.tile
        } else {
            state.board.placed(slot).tile
        }
    }

    /// Surrounding tiles of the tile whose monastery is `key`.
    fn surrounded(&self, state: &State, key: Key) -> u8 {
        if key & GROUP != 0 {
            return self.around_len as u8;
        }
        let slot = key as usize / MAX_SEGMENTS;
        let gained = self.around[..self.around_len].contains(&(slot as u8));
        state.board.placed(slot).surrounded + gained as u8
    }

    /// The feature `key` (of `kind`) is complete: a closed road or city, a
    /// surrounded monastery.
    fn is_complete(&self, state: &State, key: Key, kind: FeatureKind) -> bool {
        match kind {
            FeatureKind::Road | FeatureKind::City => self.counters(state, key).open == 0,
            FeatureKind::Monastery => self.surrounded(state, key) == 8,
            FeatureKind::Field => false,
        }
    }

    /// Points of road, city or monastery `key`: as scored on completion if
    /// it is complete, else as in the final scoring.
    fn value(&self, state: &State, key: Key, kind: FeatureKind) -> u16 {
        let c = self.counters(state, key);
        match kind {
            FeatureKind::Road => c.tiles as u16,
            FeatureKind::City => {
                let base = c.tiles as u16 + c.shields as u16;
                if c.open == 0 {
                    2 * base
                } else {
                    base
                }
            }
            FeatureKind::Monastery => match self.surrounded(state, key) {
                8 => 9,
                s => 1 + s as u16,
            },
            FeatureKind::Field => unreachable!("fields are valued by their cities"),
        }
    }

    /// Calls `f` for every segment of feature `key` (the new tile's
    /// included).
    fn for_each_member(&self, state: &State, key: Key, mut f: impl FnMut(SegmentId)) {
        if key & GROUP == 0 {
            return state.features.for_each_member(key, f);
        }
        let node = (key & !GROUP) as u8;
        for i in 0..self.tile.segment_count() {
            if self.parent[i] == node {
                f(segment_id(self.slot, i as u8));
            }
        }
        for k in 0..self.joined {
            if self.parent[MAX_SEGMENTS + k] == node {
                state.features.for_each_member(self.roots[k], &mut f);
            }
        }
    }

    /// Distinct completed cities bordering field `field`: only the
    /// field's own segments are visited (through the union-find's member
    /// lists), each bordering city marked once in a bitset of keys.
    fn completed_cities(&self, state: &State, field: Key) -> u16 {
        // State roots below MAX_SEGMENT_IDS, then the overlay's nodes.
        let mut seen = [0u64; (MAX_SEGMENT_IDS + NODES).div_ceil(64)];
        self.for_each_member(state, field, |id| {
            let slot = id as usize / MAX_SEGMENTS;
            let segment = &self.tile_in(state, slot).def().segments[id as usize % MAX_SEGMENTS];
            let mut touches = segment.touches;
            while touches != 0 {
                let c = touches.trailing_zeros() as u8;
                touches &= touches - 1;
                let city = self.key(state, segment_id(slot, c));
                if self.counters(state, city).open == 0 {
                    let bit = if city & GROUP != 0 {
                        MAX_SEGMENT_IDS + (city & !GROUP) as usize
                    } else {
                        city as usize
                    };
                    seen[bit / 64] |= 1 << (bit % 64);
                }
            }
        });
        seen.iter().map(|w| w.count_ones() as u16).sum()
    }
}

/// Add `points` of feature `kind` to `score`.
#[inline]
pub(super) fn add_points(score: &mut Score, kind: FeatureKind, points: u16) {
    match kind {
        FeatureKind::Road => score.road += points,
        FeatureKind::City => score.city += points,
        FeatureKind::Monastery => score.monastery += points,
        FeatureKind::Field => score.farm += points,
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
    /// use engine::{Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
    /// // A road tile east of the start, a meeple on its road (segment 0).
    /// let rot = Rotation::new(1).unwrap();
    /// state.try_play(Move::place(Pos::new(1, 0), rot).with_meeple(0)).unwrap();
    /// let end_now = state.end_now_scores();
    /// assert_eq!(state.score(Seat(0)).total(), 0); // nothing scored yet
    /// assert_eq!(end_now[Seat(0)].road, 2); // the open road of 2 tiles
    /// ```
    pub fn end_now_scores(&self) -> PerSeat<Score> {
        if self.phase == Phase::Over {
            return self.scores;
        }
        self.end_now_with(&Overlay::NONE, None)
    }

    /// The end-now scores ([`State::end_now_scores`]) right after `action`
    /// is played: the points it scores included, an opened gift no longer
    /// counting 2. `action` must be legal (checked only by `debug_assert!`).
    /// `self` is not changed; a placement is evaluated without copying the
    /// state (gift openings and Take 2's choice play on a copy).
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
    /// let rot = Rotation::new(1).unwrap();
    /// let mv = Move::place(Pos::new(1, 0), rot).with_meeple(0);
    /// let after = state.end_now_scores_after(Action::Place(mv));
    /// state.try_play(mv).unwrap();
    /// assert_eq!(after, state.end_now_scores());
    /// ```
    pub fn end_now_scores_after(&self, action: Action) -> PerSeat<Score> {
        debug_assert_eq!(self.check_action(action), Ok(()));
        match (action, self.phase) {
            (Action::Place(mv), Phase::Place(tile)) => {
                let p = mv.placement;
                let ov = Overlay::new(self, tile, p.rot, p.pos);
                let meeple = mv.meeple.map(|s| (self.to_play, segment_id(ov.slot, s)));
                self.end_now_with(&ov, meeple)
            }
            _ => {
                let mut after = self.clone();
                after.play_action_unchecked(action);
                after.end_now_scores()
            }
        }
    }

    /// The end-now scores with the placement `ov` (and its `meeple`, a
    /// seat and segment) made: what it completes scored as in play, the
    /// rest as in the final scoring.
    fn end_now_with(&self, ov: &Overlay, meeple: Option<(Seat, SegmentId)>) -> PerSeat<Score> {
        let mut scores = self.scores;
        // The distinct features holding meeples, with each seat's meeples.
        let mut keys = [0 as Key; MAX_MEEPLES + 1];
        let mut counts = [[0u8; MAX_PLAYERS]; MAX_MEEPLES + 1];
        let mut n = 0;
        let placed = self.meeples().iter().map(|m| (m.seat, m.segment));
        for (seat, segment) in placed.chain(meeple) {
            let key = ov.key(self, segment);
            let k = match keys[..n].iter().position(|&r| r == key) {
                Some(k) => k,
                None => {
                    keys[n] = key;
                    n += 1;
                    n - 1
                }
            };
            counts[k][seat.index()] += 1;
        }
        let rules = self.rules();
        let mut kinds = [FeatureKind::Road; MAX_MEEPLES + 1];
        for (kind, &key) in kinds.iter_mut().zip(&keys[..n]) {
            *kind = ov.kind(self, key);
        }
        for ((&key, &kind), counts) in keys[..n].iter().zip(&kinds).zip(&counts) {
            let points = match kind {
                FeatureKind::Field if !rules.farmers => continue,
                FeatureKind::Field => 3 * ov.completed_cities(self, key),
                // What the placement completes scores in play; with
                // `final_incomplete: false` the unfinished rest scores
                // nothing (RULES.md §8). (Features holding meeples are
                // never complete but through the placement.)
                _ if !rules.final_incomplete && !ov.is_complete(self, key, kind) => continue,
                _ => ov.value(self, key, kind),
            };
            let most = *counts.iter().max().expect("six seats");
            for (s, &c) in counts.iter().enumerate().take(self.players as usize) {
                if c == most {
                    add_points(&mut scores.0[s], kind, points);
                }
            }
        }
        for s in 0..self.players as usize {
            scores.0[s].gifts += 2 * self.gifts.hands[s].total() as u16;
        }
        scores
    }

    /// Distinct completed cities touching the field with root `field`.
    pub(super) fn completed_cities_touching(&self, field: SegmentId) -> u32 {
        Overlay::NONE.completed_cities(self, field) as u32
    }
}
