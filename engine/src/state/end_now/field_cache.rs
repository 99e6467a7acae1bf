//! The distinct cities each field touches, walked once and kept: per
//! position (`Touches`, in an `EndNow`) or across the positions of a
//! search ([`FieldCache`]).

use super::super::State;
use crate::features::{segment_id, SegmentId, MAX_SEGMENT_IDS};
use crate::tiles::{FeatureKind, Tile, MAX_SEGMENTS};

/// City segments in the whole game: a bound on the distinct cities one
/// field can touch.
pub(super) const GAME_CITY_SEGMENTS: usize = game_segments(FeatureKind::City, false);
/// Fields whose touched cities an [`EndNow`] keeps at once.
pub(super) const CACHED_FIELDS: usize = 32;
/// Touched-city roots it keeps over all those fields.
pub(super) const CACHED_TOUCHES: usize = 256;
const _: () = assert!(GAME_CITY_SEGMENTS <= CACHED_TOUCHES);
/// Field segments in the whole game: a bound on its fields.
pub(super) const GAME_FIELD_SEGMENTS: usize = game_segments(FeatureKind::Field, false);
/// Cities touched by field segments in the whole game, plus room for one
/// more field's list: what a [`FieldCache`] lists for a whole board.
pub(super) const GAME_FIELD_TOUCHES: usize =
    game_segments(FeatureKind::Field, true) + GAME_CITY_SEGMENTS;
const _: () = assert!(GAME_FIELD_SEGMENTS < u8::MAX as usize);

/// Segments of `kind` (or with `touches`, the city segments they touch)
/// over every tile of the game.
pub(super) const fn game_segments(kind: FeatureKind, touches: bool) -> usize {
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

/// The distinct cities fields touch, as they are looked up: a field's
/// segments are walked once, however many placements join it. Room for
/// `F` fields and `R` cities listed in all.
pub(super) struct Touches<const F: usize = CACHED_FIELDS, const R: usize = CACHED_TOUCHES> {
    /// Fields whose touched cities are listed.
    pub(super) fields: [Listed; F],
    pub(super) fields_len: usize,
    /// The cities' roots when they were listed (a city joined since may
    /// appear under more than one; the root of any is the city's).
    pub(super) roots: [SegmentId; R],
    pub(super) roots_len: usize,
}

/// A field whose touched cities are listed: its root and segments when it
/// was walked (a field with that root and that many segments in a later
/// position of the same line of play is the same field) and the range of
/// `Touches::roots` holding them.
#[derive(Clone, Copy)]
pub(super) struct Listed {
    pub(super) root: SegmentId,
    pub(super) segments: u8,
    pub(super) start: u16,
    pub(super) len: u16,
}

/// Where an [`EndNow`] keeps the fields' touched cities: its own lists, or
/// a [`FieldCache`] shared with other positions of one line of play.
// Boxing the own lists would allocate once per position.
#[allow(clippy::large_enum_variant)]
pub(super) enum FieldLists<'s> {
    Own(Touches),
    Shared(&'s mut FieldCache),
}

impl FieldLists<'_> {
    /// The cities field `root` touches in `state` (some perhaps more than
    /// once, under an old root): walked once, then kept.
    #[inline]
    pub(super) fn touches(&mut self, state: &State, root: SegmentId) -> &[SegmentId] {
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
/// use engine::{Chance, FieldCache, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mut cache = FieldCache::new();
/// cache.start(&state);
/// assert_eq!(state.end_now_scores_in(&mut cache), state.end_now_scores());
/// ```
pub struct FieldCache {
    /// Each field of the start's position by root: its list's index in
    /// `base` plus one (0: not a field's root there).
    pub(super) index: [u8; MAX_SEGMENT_IDS],
    pub(super) base: Touches<GAME_FIELD_SEGMENTS, GAME_FIELD_TOUCHES>,
    /// Fields grown since, in the current line.
    pub(super) line: Touches,
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

    pub(super) fn touches(&mut self, state: &State, root: SegmentId) -> &[SegmentId] {
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

impl<const F: usize, const R: usize> Touches<F, R> {
    pub(super) const EMPTY: Touches<F, R> = Touches {
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

    pub(super) fn clear(&mut self) {
        self.fields_len = 0;
        self.roots_len = 0;
    }

    /// The range of `roots` listing the cities field `root` of `segments`
    /// segments touches, if it is listed.
    #[inline]
    pub(super) fn find(&self, root: SegmentId, segments: u8) -> Option<std::ops::Range<usize>> {
        self.fields[..self.fields_len]
            .iter()
            .find(|f| f.root == root && f.segments == segments)
            .map(|f| f.start as usize..f.start as usize + f.len as usize)
    }

    /// Make room for a field's list (forgetting all when there is none).
    pub(super) fn room(&mut self) {
        if self.fields_len == F || R - self.roots_len < GAME_CITY_SEGMENTS {
            self.clear();
        }
    }

    /// Walk field `root` and list the distinct roots of the cities it
    /// touches: their range of `roots`.
    pub(super) fn walk(&mut self, state: &State, root: SegmentId) -> std::ops::Range<usize> {
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
