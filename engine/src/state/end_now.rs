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

use super::{State, MAX_MEEPLES};
use crate::board::NO_SLOT;
use crate::features::{segment_id, Counters, SegmentId, MAX_SEGMENT_IDS};
use crate::geom::{Pos, Rotation, Side};
use crate::moves::{Move, Placement};
use crate::playout::random_meeple;
use crate::sampling::{GenRange, Sampler};
use crate::seat::{PerSeat, Score, MAX_PLAYERS};
use crate::tiles::{meeple_segments, Edge, FeatureKind, Tile, MAX_SEGMENTS, NO_SEGMENT};
use crate::turn::{Action, Phase};
use rand::Rng;

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
    /// The new tile.
    tile: Tile,
    /// Union-find over the new tile's segments (nodes `0..MAX_SEGMENTS`)
    /// and the neighbouring roots they join (`MAX_SEGMENTS..`), flattened
    /// once built: every node in use points at its group's root, which is
    /// always a segment of the new tile.
    parent: [u8; NODES],
    counters: [Counters; NODES],
    /// The state's roots joined, node `MAX_SEGMENTS + k` for `roots[k]`.
    roots: [SegmentId; MAX_JOINED],
    joined: usize,
    /// Bit `root % 64` of each root joined: most features of the state
    /// are found unjoined without a look at `roots`.
    bloom: u64,
    /// Slots of the placed tiles among the eight cells around the new
    /// tile: each gains one surrounding tile.
    around: [u8; 8],
    around_len: usize,
}

impl Overlay {
    /// No placement: every feature as the state has it.
    const NONE: Overlay = Overlay {
        tile: Tile::START,
        parent: [0; NODES],
        counters: [Counters::one(0, false, 0); NODES],
        roots: [0; MAX_JOINED],
        joined: 0,
        bloom: 0,
        around: [0; 8],
        around_len: 0,
    };

    /// The changes of putting `tile` at `pos` turned by `rot` (a legal
    /// placement in `state`).
    fn new(state: &State, tile: Tile, rot: Rotation, pos: Pos) -> Overlay {
        let mut ov = Overlay {
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
                ov.counters[root].close(2);
            }
            // The two ports of a side often join the same two fields:
            // join them once.
            let mut last = (NO_SEGMENT, 0);
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                let theirs = no.port_segment[port.facing().index()];
                if mine != NO_SEGMENT && (mine, theirs) != last {
                    ov.join(state, mine, segment_id(nslot, theirs));
                    last = (mine, theirs);
                }
            }
        }
        // Flatten the nodes in use (the new tile's segments, the joined
        // roots): every one then points at its group's root.
        for node in (0..tile.segment_count()).chain(MAX_SEGMENTS..MAX_SEGMENTS + ov.joined) {
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
                self.bloom |= 1 << (root % 64);
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

    /// The feature, after the placement, of the state's feature `root`.
    #[inline]
    fn map_root(&self, root: SegmentId) -> Key {
        if self.bloom & (1 << (root % 64)) == 0 {
            return root;
        }
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

    /// Surrounding tiles of the tile whose monastery is `key`.
    fn surrounded(&self, state: &State, key: Key) -> u8 {
        if key & GROUP != 0 {
            return self.around_len as u8;
        }
        let slot = key as usize / MAX_SEGMENTS;
        state.board.placed(slot).surrounded + self.gains(slot) as u8
    }

    /// The tile in `slot` gains a surrounding tile.
    fn gains(&self, slot: usize) -> bool {
        self.around[..self.around_len].contains(&(slot as u8))
    }

    /// The placement completes a city (which then touches fields it did
    /// not touch as a completed city before).
    fn completes_city(&self) -> bool {
        (0..self.joined).any(|k| {
            let node = self.parent[MAX_SEGMENTS + k] as usize;
            self.counters[node].open() == 0
                && self.tile.def().segments[node].kind == FeatureKind::City
        })
    }

    /// The feature `key` (of `kind`) is complete: a closed road or city, a
    /// surrounded monastery.
    fn is_complete(&self, state: &State, key: Key, kind: FeatureKind) -> bool {
        match kind {
            FeatureKind::Road | FeatureKind::City => self.counters(state, key).open() == 0,
            FeatureKind::Monastery => self.surrounded(state, key) == 8,
            FeatureKind::Field => false,
        }
    }

    /// Points of road, city or monastery `key`: as scored on completion if
    /// it is complete, else as in the final scoring.
    fn value(&self, state: &State, key: Key, kind: FeatureKind) -> u16 {
        let c = self.counters(state, key);
        match kind {
            FeatureKind::Road => c.tiles() as u16,
            FeatureKind::City => {
                let base = c.tiles() as u16 + c.shields() as u16;
                if c.open() == 0 {
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
}

/// Add `points` of feature `kind` to `score`.
#[inline]
pub(super) fn add_points(score: &mut Score, kind: FeatureKind, points: u16) {
    *part(score, kind) += points;
}

/// City segments in the whole game: a bound on the distinct cities one
/// field can touch.
const GAME_CITY_SEGMENTS: usize = game_segments(FeatureKind::City, false);
/// Fields whose touched cities an [`EndNow`] keeps at once.
const CACHED_FIELDS: usize = 32;
/// Touched-city roots it keeps over all those fields.
const CACHED_TOUCHES: usize = 256;
const _: () = assert!(GAME_CITY_SEGMENTS <= CACHED_TOUCHES);
/// Field segments in the whole game: a bound on its fields.
const GAME_FIELD_SEGMENTS: usize = game_segments(FeatureKind::Field, false);
/// Cities touched by field segments in the whole game, plus room for one
/// more field's list: what a [`FieldCache`] lists for a whole board.
const GAME_FIELD_TOUCHES: usize = game_segments(FeatureKind::Field, true) + GAME_CITY_SEGMENTS;
const _: () = assert!(GAME_FIELD_SEGMENTS < u8::MAX as usize);

/// Segments of `kind` (or with `touches`, the city segments they touch)
/// over every tile of the game.
const fn game_segments(kind: FeatureKind, touches: bool) -> usize {
    let mut n = 0;
    let mut t = 0;
    while t < Tile::ALL.len() {
        let def = Tile::ALL[t].def();
        let mut i = 0;
        while i < def.segments.len() {
            let seg = &def.segments[i];
            if seg.kind as u8 == kind as u8 {
                let per = if touches {
                    seg.touches.count_ones() as usize
                } else {
                    1
                };
                n += def.count as usize * per;
            }
            i += 1;
        }
        t += 1;
    }
    n
}

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
/// use engine::{Action, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.draw(Tile::U).unwrap();
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

/// The distinct cities fields touch, as they are looked up: a field's
/// segments are walked once, however many placements join it. Room for
/// `F` fields and `R` cities listed in all.
struct Touches<const F: usize = CACHED_FIELDS, const R: usize = CACHED_TOUCHES> {
    /// Fields whose touched cities are listed.
    fields: [Listed; F],
    fields_len: usize,
    /// The cities' roots when they were listed (a city joined since may
    /// appear under more than one; the root of any is the city's).
    roots: [SegmentId; R],
    roots_len: usize,
}

/// A field whose touched cities are listed: its root and segments when it
/// was walked (a field with that root and that many segments in a later
/// position of the same line of play is the same field) and the range of
/// `Touches::roots` holding them.
#[derive(Clone, Copy)]
struct Listed {
    root: SegmentId,
    segments: u8,
    start: u16,
    len: u16,
}

/// Where an [`EndNow`] keeps the fields' touched cities: its own lists, or
/// a [`FieldCache`] shared with other positions of one line of play.
// Boxing the own lists would allocate once per position.
#[allow(clippy::large_enum_variant)]
enum FieldLists<'s> {
    Own(Touches),
    Shared(&'s mut FieldCache),
}

impl FieldLists<'_> {
    /// The cities field `root` touches in `state` (some perhaps more than
    /// once, under an old root): walked once, then kept.
    #[inline]
    fn touches(&mut self, state: &State, root: SegmentId) -> &[SegmentId] {
        match self {
            FieldLists::Own(t) => {
                let segments = state.features.counters(root).tiles();
                let range = match t.find(root, segments) {
                    Some(range) => range,
                    None => t.walk(state, root),
                };
                &t.roots[range]
            }
            FieldLists::Shared(cache) => cache.touches(state, root),
        }
    }
}

/// The cities each field touches, kept across the positions of a search
/// so that a field is walked once for them all rather than once per
/// position ([`State::end_now_lazy_in`], [`State::end_now_scores_in`]).
///
/// A list stays right in every position that follows from the one it was
/// walked in (features only grow: the field with the same root and as
/// many segments is the same field, and the cities it touches are found
/// from the roots listed). So the cache is started from the search's
/// position ([`FieldCache::start`]), which lists all its fields for the
/// whole search; a field a line of play grows is listed until
/// [`FieldCache::new_line`], which a search calls before it plays another
/// line from the start. Every position given with the cache must follow
/// from the start's position (the same board, tiles added), and from the
/// positions given since the last `new_line`.
///
/// # Examples
/// ```
/// use engine::{FieldCache, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.draw(Tile::U).unwrap();
/// let mut cache = FieldCache::new();
/// cache.start(&state);
/// assert_eq!(state.end_now_scores_in(&mut cache), state.end_now_scores());
/// ```
pub struct FieldCache {
    /// Each field of the start's position by root: its list's index in
    /// `base` plus one (0: not a field's root there).
    index: [u8; MAX_SEGMENT_IDS],
    base: Touches<GAME_FIELD_SEGMENTS, GAME_FIELD_TOUCHES>,
    /// Fields grown since, in the current line.
    line: Touches,
}

impl Default for FieldCache {
    fn default() -> FieldCache {
        FieldCache::new()
    }
}

impl FieldCache {
    /// An empty cache, as if started from an empty board: each list is
    /// kept until the next [`FieldCache::new_line`].
    pub fn new() -> FieldCache {
        FieldCache {
            index: [0; MAX_SEGMENT_IDS],
            base: Touches::EMPTY,
            line: Touches::EMPTY,
        }
    }

    /// Forget everything and start from `state`: every field of it is
    /// walked now and its list kept until the next `start`.
    pub fn start(&mut self, state: &State) {
        self.index = [0; MAX_SEGMENT_IDS];
        self.base.clear();
        self.line.clear();
        for slot in 0..state.board.len() {
            let segments = state.board.placed(slot).tile.def().segments;
            for (i, seg) in segments.iter().enumerate() {
                let id = segment_id(slot, i as u8);
                if seg.kind == FeatureKind::Field && state.features.root(id) == id {
                    self.base.walk(state, id);
                    self.index[id as usize] = self.base.fields_len as u8;
                }
            }
        }
    }

    /// Forget the lists of fields grown since the start: the next
    /// position given follows from the start's, not necessarily from the
    /// last one.
    pub fn new_line(&mut self) {
        self.line.clear();
    }

    fn touches(&mut self, state: &State, root: SegmentId) -> &[SegmentId] {
        let segments = state.features.counters(root).tiles();
        let k = self.index[root as usize] as usize;
        if k > 0 && self.base.fields[k - 1].segments == segments {
            let f = self.base.fields[k - 1];
            return &self.base.roots[f.start as usize..f.start as usize + f.len as usize];
        }
        let range = match self.line.find(root, segments) {
            Some(range) => range,
            None => self.line.walk(state, root),
        };
        &self.line.roots[range]
    }
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

    /// The end-now scores right after `action`
    /// ([`State::end_now_scores_after`]). `action` must be legal (checked
    /// only by `debug_assert!`).
    pub fn after(&mut self, action: Action) -> PerSeat<Score> {
        let state = self.state;
        debug_assert_eq!(state.check_action(action), Ok(()));
        self.value_all();
        match (action, state.phase) {
            (Action::Place(mv), Phase::Place(tile)) => {
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
    /// use engine::{random_move, Action, Rules, Seat, State, Tile};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
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

/// `a + d`, part by part, modulo 2^16.
#[inline]
fn wrapping_add(a: Score, d: Score) -> Score {
    Score {
        road: a.road.wrapping_add(d.road),
        city: a.city.wrapping_add(d.city),
        monastery: a.monastery.wrapping_add(d.monastery),
        farm: a.farm.wrapping_add(d.farm),
        gifts: a.gifts.wrapping_add(d.gifts),
    }
}

/// The total of a change counted modulo 2^16 part by part (each part's
/// change is below 2^15 either way).
#[inline]
fn signed_total(d: &Score) -> i32 {
    [d.road, d.city, d.monastery, d.farm, d.gifts]
        .iter()
        .map(|&p| p as i16 as i32)
        .sum()
}

/// What feature `key` (of `kind`, holding meeples) scores if the game
/// ends right after the placement `ov`: what it completes as in play,
/// the rest as in the final scoring.
fn points(
    touches: &mut FieldLists<'_>,
    state: &State,
    ov: &Overlay,
    key: Key,
    kind: FeatureKind,
) -> u16 {
    let rules = state.rules();
    match kind {
        FeatureKind::Field if !rules.farmers => 0,
        FeatureKind::Field => 3 * completed_cities(touches, state, ov, key),
        // With `final_incomplete: false` the unfinished rest scores
        // nothing (RULES.md §8). (Features holding meeples are never
        // complete but through the placement.)
        _ if !rules.final_incomplete && !ov.is_complete(state, key, kind) => 0,
        _ => ov.value(state, key, kind),
    }
}

/// Distinct completed cities touching field `key` after the placement
/// `ov`.
fn completed_cities(fields: &mut FieldLists<'_>, state: &State, ov: &Overlay, key: Key) -> u16 {
    let complete = |city: Key| ov.counters(state, city).open() == 0;
    // Completed groups (bits by node) and state roots seen, counted as
    // they are first seen (no popcount on plain x86-64).
    let mut groups = 0u32;
    let mut roots = [0u64; MAX_SEGMENT_IDS.div_ceil(64)];
    let mut count = 0u16;
    let mut mark = |city: Key| {
        if !complete(city) {
        } else if city & GROUP != 0 {
            let bit = 1 << (city & !GROUP);
            count += (groups & bit == 0) as u16;
            groups |= bit;
        } else {
            let (word, bit) = (&mut roots[city as usize / 64], 1 << (city % 64));
            count += (*word & bit == 0) as u16;
            *word |= bit;
        }
    };
    if key & GROUP == 0 {
        for &city in fields.touches(state, key) {
            mark(ov.map_root(state.features.root(city)));
        }
    } else {
        let node = (key & !GROUP) as u8;
        let segments = ov.tile.def().segments;
        for (i, seg) in segments.iter().enumerate() {
            if ov.parent[i] != node {
                continue;
            }
            let mut touches = seg.touches;
            while touches != 0 {
                let c = touches.trailing_zeros() as usize;
                touches &= touches - 1;
                mark(GROUP | ov.parent[c] as Key);
            }
        }
        for k in 0..ov.joined {
            if ov.parent[MAX_SEGMENTS + k] == node {
                for &city in fields.touches(state, ov.roots[k]) {
                    mark(ov.map_root(state.features.root(city)));
                }
            }
        }
    }
    count
}

impl<const F: usize, const R: usize> Touches<F, R> {
    const EMPTY: Touches<F, R> = Touches {
        fields: [Listed {
            root: 0,
            segments: 0,
            start: 0,
            len: 0,
        }; F],
        fields_len: 0,
        roots: [0; R],
        roots_len: 0,
    };

    fn clear(&mut self) {
        self.fields_len = 0;
        self.roots_len = 0;
    }

    /// The range of `roots` listing the cities field `root` of `segments`
    /// segments touches, if it is listed.
    #[inline]
    fn find(&self, root: SegmentId, segments: u8) -> Option<std::ops::Range<usize>> {
        self.fields[..self.fields_len]
            .iter()
            .find(|f| f.root == root && f.segments == segments)
            .map(|f| f.start as usize..f.start as usize + f.len as usize)
    }

    /// Make room for a field's list (forgetting all when there is none).
    fn room(&mut self) {
        if self.fields_len == F || R - self.roots_len < GAME_CITY_SEGMENTS {
            self.clear();
        }
    }

    /// Walk field `root` and list the distinct roots of the cities it
    /// touches: their range of `roots`.
    fn walk(&mut self, state: &State, root: SegmentId) -> std::ops::Range<usize> {
        self.room();
        let start = self.roots_len;
        let mut seen = [0u64; MAX_SEGMENT_IDS.div_ceil(64)];
        let (touches, len) = (&mut self.roots, &mut self.roots_len);
        state.features.for_each_member(root, |id| {
            let slot = id as usize / MAX_SEGMENTS;
            let tile = state.board.placed(slot).tile;
            let mut bits = tile.def().segments[id as usize % MAX_SEGMENTS].touches;
            while bits != 0 {
                let c = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let city = state.features.root(segment_id(slot, c));
                let (w, b) = (city as usize / 64, city % 64);
                if seen[w] & (1 << b) == 0 {
                    seen[w] |= 1 << b;
                    touches[*len] = city;
                    *len += 1;
                }
            }
        });
        self.fields[self.fields_len] = Listed {
            root,
            segments: state.features.counters(root).tiles(),
            start: start as u16,
            len: (self.roots_len - start) as u16,
        };
        self.fields_len += 1;
        start..self.roots_len
    }
}

/// The seats (bit per seat) with the most meeples by `counts`.
#[inline]
fn winners(counts: &[u8; MAX_PLAYERS], players: u8) -> u8 {
    let most = *counts.iter().max().expect("six seats");
    let mut mask = 0;
    for (s, &c) in counts.iter().enumerate().take(players as usize) {
        if c == most {
            mask |= 1 << s;
        }
    }
    mask
}

/// The part of `score` that feature `kind` scores in.
#[inline]
fn part(score: &mut Score, kind: FeatureKind) -> &mut u16 {
    match kind {
        FeatureKind::Road => &mut score.road,
        FeatureKind::City => &mut score.city,
        FeatureKind::Monastery => &mut score.monastery,
        FeatureKind::Field => &mut score.farm,
    }
}

/// Give `points` of feature `kind` to each seat of `winners`.
#[inline]
fn give(scores: &mut PerSeat<Score>, kind: FeatureKind, points: u16, mut winners: u8) {
    if points == 0 {
        return;
    }
    while winners != 0 {
        let s = winners.trailing_zeros() as usize;
        winners &= winners - 1;
        let p = part(&mut scores.0[s], kind);
        *p = p.wrapping_add(points);
    }
}

/// Take back what [`give`] gave.
#[inline]
fn take(scores: &mut PerSeat<Score>, kind: FeatureKind, points: u16, mut winners: u8) {
    if points == 0 {
        return;
    }
    while winners != 0 {
        let s = winners.trailing_zeros() as usize;
        winners &= winners - 1;
        let p = part(&mut scores.0[s], kind);
        *p = p.wrapping_sub(points);
    }
}

/// Two points per unopened gift (RULES.md §5).
fn add_gifts(state: &State, scores: &mut PerSeat<Score>) {
    for s in 0..state.players as usize {
        scores.0[s].gifts += 2 * state.gifts.hands[s].total() as u16;
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
    use super::*;
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
