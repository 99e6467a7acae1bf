//! The game state and the turn: draw (chance), place, meeple, score.
//!
//! The state is flat and `Clone` is a memcpy: no heap, no hidden order of
//! the tiles (the bag is counts per kind). Randomness is explicit: when
//! [`State::phase`] is [`Phase::Draw`] the caller picks a tile from
//! [`State::bag`] (or lets [`State::draw_random`] do it with its own rng)
//! and hands it to [`State::draw`].

use crate::board::{Board, Touched, NO_SLOT};
use crate::features::{segment_id, Features, SegmentId};
use crate::geom::{Location, Pos, Rotation, Side};
use crate::gifts::{Gift, GiftOpen, GiftState};
use crate::moves::{IllegalMove, Move, MoveList, Placement};
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT};
use crate::tiles::{segment_at, Edge, FeatureKind, Tile, NO_SEGMENT};

mod follow;
mod gift_turn;
pub use follow::{follow_turn, CardHolder};
mod scoring;
use rand::Rng;

/// Whose decision it is: a seat's ([`Phase::Place`], [`Phase::Choose`]),
/// chance's ([`Phase::Draw`], [`Phase::DrawSecond`], [`Phase::DrawGift`]),
/// or nobody's ([`Phase::Over`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chance: a tile must be drawn from the bag for the seat to play.
    Draw,
    /// The seat to play must place the drawn `tile` (and may first open a
    /// gift).
    Place(Tile),
    /// Chance (Take 2): a second tile must be drawn; the first is held.
    DrawSecond(Tile),
    /// Take 2: the seat keeps one of the two tiles; the other goes back.
    Choose(Tile, Tile),
    /// Chance (The Gifts): the seat that just placed receives a gift card.
    DrawGift,
    /// The game is over and final scoring is done.
    Over,
}

/// A seat's decision: place the tile, open a gift, or (after Take 2) keep
/// one of two tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Place the drawn tile, with an optional meeple.
    Place(Move),
    /// Open a gift before placing.
    Open(GiftOpen),
    /// Keep this tile of the two drawn with Take 2.
    Keep(Tile),
}

/// What a chance step produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceOutcome {
    /// A tile was drawn (and perhaps set aside).
    Tile(Tile, Drawn),
    /// A gift card was received by the seat to play.
    Gift(Gift),
}

/// The tiles left to draw, as counts per kind (never an order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bag {
    counts: [u8; Tile::COUNT],
    total: u8,
}

impl Bag {
    /// The 71 tiles left after the start tile.
    pub fn full() -> Bag {
        let mut counts = [0; Tile::COUNT];
        for t in Tile::ALL {
            counts[t.index()] = t.def().count;
        }
        counts[Tile::START.index()] -= 1;
        Bag { counts, total: 71 }
    }

    /// Copies of `tile` left.
    #[inline]
    pub fn count(&self, tile: Tile) -> u8 {
        self.counts[tile.index()]
    }

    /// Tiles left in all.
    #[inline]
    pub fn total(&self) -> u8 {
        self.total
    }

    /// No tile left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The kinds left with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Tile, u8)> + '_ {
        Tile::ALL
            .into_iter()
            .filter(|t| self.counts[t.index()] > 0)
            .map(|t| (t, self.counts[t.index()]))
    }

    /// The `k`-th tile (0-based) if the tiles were laid out by kind.
    #[inline]
    pub fn nth(&self, mut k: u8) -> Tile {
        for (i, &c) in self.counts.iter().enumerate() {
            if k < c {
                return Tile::from_index(i);
            }
            k -= c;
        }
        unreachable!("index past the end of the bag")
    }

    fn put_back(&mut self, tile: Tile) {
        self.counts[tile.index()] += 1;
        self.total += 1;
    }

    fn take(&mut self, tile: Tile) -> bool {
        let c = &mut self.counts[tile.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        self.total -= 1;
        true
    }
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meeple {
    /// Its owner.
    pub seat: Seat,
    /// The segment it stands (or lies) on.
    pub segment: SegmentId,
}

impl Meeple {
    /// The slot of the tile it is on.
    pub fn slot(&self) -> usize {
        self.segment as usize / crate::tiles::MAX_SEGMENTS
    }

    /// The segment index on its tile.
    pub fn segment_index(&self) -> u8 {
        (self.segment as usize % crate::tiles::MAX_SEGMENTS) as u8
    }
}

/// Most meeples on the board at once.
pub const MAX_MEEPLES: usize = MAX_PLAYERS * MEEPLES_PER_SEAT as usize;

/// What happened to a drawn tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// It can be placed: the seat must now place it.
    Placeable,
    /// It has no legal placement and was set aside; draw again (or the
    /// game is over if the bag is empty).
    SetAside,
}

/// A complete game position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    rules: Rules,
    players: u8,
    to_play: Seat,
    phase: Phase,
    bag: Bag,
    turns: u8,
    /// Legal placements of the drawn tile (counted when it is drawn).
    placements: u16,
    scores: PerSeat<Score>,
    supply: PerSeat<u8>,
    pieces_used: u8,
    meeple_len: u8,
    meeples: [Meeple; MAX_MEEPLES],
    gifts: GiftState,
    board: Board,
    features: Features,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("players", &self.players)
            .field("to_play", &self.to_play)
            .field("phase", &self.phase)
            .field("turns", &self.turns)
            .field("tiles", &self.board.len())
            .field("bag", &self.bag.total())
            .field("scores", &&self.scores.0[..self.players as usize])
            .finish_non_exhaustive()
    }
}

impl State {
    /// A new game: the start tile at the origin, every seat with 7
    /// meeples, `first` to play, a tile to be drawn.
    ///
    /// # Panics
    /// If `players` is not 2–6 or `first` is not a seat.
    pub fn new(rules: Rules, players: usize, first: Seat) -> State {
        assert!((2..=MAX_PLAYERS).contains(&players), "2 to 6 players");
        assert!(first.index() < players, "first seat out of range");
        let mut supply = PerSeat::splat(0);
        for s in 0..players {
            supply.0[s] = MEEPLES_PER_SEAT;
        }
        let mut state = State {
            rules,
            players: players as u8,
            to_play: first,
            phase: Phase::Draw,
            bag: Bag::full(),
            turns: 0,
            placements: 0,
            scores: PerSeat::default(),
            supply,
            pieces_used: 0,
            meeple_len: 0,
            meeples: [Meeple {
                seat: Seat(0),
                segment: 0,
            }; MAX_MEEPLES],
            gifts: GiftState::new(),
            board: Board::new(),
            features: Features::new(),
        };
        state.put_tile(Tile::START, Rotation::default(), Pos::ORIGIN);
        state
    }

    // ----- Observers -------------------------------------------------------

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of seats.
    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The seat whose turn it is (during [`Phase::Draw`], the seat the
    /// tile is drawn for).
    #[inline]
    pub fn to_play(&self) -> Seat {
        self.to_play
    }

    /// Whose decision it is.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The tiles left to draw.
    #[inline]
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// Turns played (tiles placed after the start tile).
    #[inline]
    pub fn turns(&self) -> usize {
        self.turns as usize
    }

    /// A seat's score.
    #[inline]
    pub fn score(&self, seat: Seat) -> Score {
        self.scores[seat]
    }

    /// Meeples in a seat's supply.
    #[inline]
    pub fn supply(&self, seat: Seat) -> u8 {
        self.supply[seat]
    }

    /// The meeples on the board.
    #[inline]
    pub fn meeples(&self) -> &[Meeple] {
        &self.meeples[..self.meeple_len as usize]
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The feature union-find (read-only).
    #[inline]
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The chance outcomes of a draw: each kind left with its probability.
    pub fn chance_outcomes(&self) -> impl Iterator<Item = (Tile, f64)> + '_ {
        let total = self.bag.total() as f64;
        self.bag.iter().map(move |(t, c)| (t, c as f64 / total))
    }

    /// The kind of feature that segment `id` belongs to.
    #[inline]
    pub fn segment_kind(&self, id: SegmentId) -> FeatureKind {
        let p = self.board.placed(id as usize / crate::tiles::MAX_SEGMENTS);
        p.tile.def().segments[id as usize % crate::tiles::MAX_SEGMENTS].kind
    }

    /// The segment at `loc` of the tile at `pos`, if there is one.
    pub fn segment_at(&self, pos: Pos, loc: Location) -> Option<SegmentId> {
        let slot = self.board.slot_at(pos)?;
        let p = self.board.placed(slot);
        segment_at(p.tile, p.rot, loc).map(|s| segment_id(slot, s))
    }

    /// A feature (given by any of its segments) is complete: a closed road
    /// or city, or a monastery with all eight neighbours. Fields never are.
    pub fn is_complete(&self, id: SegmentId) -> bool {
        match self.segment_kind(id) {
            FeatureKind::Road | FeatureKind::City => {
                self.features.open(self.features.root(id)) == 0
            }
            FeatureKind::Monastery => {
                self.board
                    .placed(id as usize / crate::tiles::MAX_SEGMENTS)
                    .surrounded
                    == 8
            }
            FeatureKind::Field => false,
        }
    }

    /// Points the feature of segment `id` is worth now: as scored on
    /// completion if it is complete, else as in final scoring (farms: 3
    /// per completed city touching it, whether or not farmers are on).
    pub fn feature_value(&self, id: SegmentId) -> u32 {
        let root = self.features.root(id);
        match self.segment_kind(id) {
            FeatureKind::Road => self.features.tiles(root) as u32,
            FeatureKind::City => {
                let base = self.features.tiles(root) as u32 + self.features.shields(root) as u32;
                if self.features.open(root) == 0 {
                    2 * base
                } else {
                    base
                }
            }
            FeatureKind::Monastery => {
                let p = self.board.placed(id as usize / crate::tiles::MAX_SEGMENTS);
                if p.surrounded == 8 {
                    9
                } else {
                    1 + p.surrounded as u32
                }
            }
            FeatureKind::Field => 3 * self.completed_cities_touching(root),
        }
    }

    /// Meeples of each seat on the feature with root `root`.
    pub fn meeples_on(&self, root: SegmentId) -> PerSeat<u8> {
        let mut counts = PerSeat::splat(0u8);
        if self.features.meeples(root) == 0 {
            return counts;
        }
        for m in self.meeples() {
            if self.features.root(m.segment) == root {
                counts[m.seat] += 1;
            }
        }
        counts
    }

    // ----- Chance ----------------------------------------------------------

    /// `tile` has a legal placement on the current board.
    #[inline]
    pub fn is_placeable(&self, tile: Tile) -> bool {
        self.board.has_fit(tile)
    }

    /// Draw `tile` from the bag for the seat to play. An unplaceable tile
    /// is set aside (and the game ends if the bag is then empty).
    ///
    /// After Take 2 ([`Phase::DrawSecond`]) this draws the second tile: a
    /// placeable one leads to [`Phase::Choose`]; when the bag runs out
    /// first, the seat places the tile it holds.
    pub fn draw(&mut self, tile: Tile) -> Result<Drawn, IllegalMove> {
        let first = match self.phase {
            Phase::Draw => None,
            Phase::DrawSecond(first) => Some(first),
            Phase::Over => return Err(IllegalMove::GameOver),
            _ => return Err(IllegalMove::TileAlreadyDrawn),
        };
        if !self.bag.take(tile) {
            return Err(IllegalMove::NotInBag(tile));
        }
        let placements = self.board.fit_count(tile);
        if placements > 0 {
            self.phase = match first {
                None => {
                    self.placements = placements as u16;
                    Phase::Place(tile)
                }
                Some(first) => Phase::Choose(first, tile),
            };
            Ok(Drawn::Placeable)
        } else {
            if self.bag.is_empty() {
                match first {
                    None => self.finish(),
                    Some(first) => self.phase = Phase::Place(first),
                }
            }
            Ok(Drawn::SetAside)
        }
    }

    /// Resolve whatever chance event is due (a tile or a gift card) with
    /// `rng`, every outcome weighted by its count.
    ///
    /// # Panics
    /// If the phase is not a chance phase.
    pub fn apply_chance<R: Rng + ?Sized>(&mut self, rng: &mut R) -> ChanceOutcome {
        match self.phase {
            Phase::Draw | Phase::DrawSecond(_) => {
                let (tile, drawn) = self.draw_random(rng);
                ChanceOutcome::Tile(tile, drawn)
            }
            Phase::DrawGift => ChanceOutcome::Gift(self.receive_random_gift(rng)),
            other => panic!("apply_chance in {other:?}"),
        }
    }

    /// In [`Phase::DrawGift`]: the seat receives a card drawn at random
    /// from the deck (each card equally likely), as [`State::receive_gift`].
    pub fn receive_random_gift<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Gift {
        let deck = self.gifts.deck;
        let gift = deck.nth(rng.gen_range(0..deck.total()));
        self.receive_gift(gift)
            .expect("a gift draw is due and the card is in the deck");
        gift
    }

    /// The phase is a chance event.
    #[inline]
    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift
        )
    }

    /// Draw a tile at random (each tile left equally likely), as
    /// [`State::draw`]. Returns the tile and what happened to it.
    pub fn draw_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> (Tile, Drawn) {
        let k = rng.gen_range(0..self.bag.total());
        let tile = self.bag.nth(k);
        let drawn = self.draw(tile).expect("drawing during the draw phase");
        (tile, drawn)
    }

    // ----- Legal moves -----------------------------------------------------

    /// The drawn tile, if the phase is [`Phase::Place`].
    #[inline]
    pub fn drawn_tile(&self) -> Option<Tile> {
        match self.phase {
            Phase::Place(t) => Some(t),
            _ => None,
        }
    }

    /// Calls `f` for every legal placement of the drawn tile (nothing
    /// outside [`Phase::Place`]). Symmetric rotations are listed
    /// separately: this enumerates (cell, rotation) pairs.
    #[inline]
    pub fn for_each_placement(&self, mut f: impl FnMut(Placement)) {
        if let Some(tile) = self.drawn_tile() {
            self.board.for_each_fit(tile, |pos, mut mask| {
                while mask != 0 {
                    let r = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    f(Placement {
                        pos,
                        rot: Rotation::new(r).expect("rotation bit"),
                    });
                }
            });
        }
    }

    /// Number of legal placements of the drawn tile.
    #[inline]
    pub fn placement_count(&self) -> usize {
        match self.phase {
            Phase::Place(_) => self.placements as usize,
            _ => 0,
        }
    }

    /// The `k`-th legal placement in [`State::for_each_placement`] order.
    #[inline]
    pub fn nth_placement(&self, k: usize) -> Option<Placement> {
        let (pos, rot) = self.board.nth_fit(self.drawn_tile()?, k)?;
        Some(Placement { pos, rot })
    }

    /// The segments (bit `i` = segment `i`) of the drawn tile on which the
    /// seat to play may put a meeple if it makes `placement`: features that
    /// would hold no meeple after placing, fields only with farmers, and
    /// nothing when the seat's supply is empty. `placement` must be legal.
    pub fn free_segments(&self, placement: Placement) -> u8 {
        let Some(tile) = self.drawn_tile() else {
            return 0;
        };
        if self.supply[self.to_play] == 0 {
            return 0;
        }
        let o = tile.oriented(placement.rot);
        let mut free: u8 = (1u16 << tile.segment_count()) as u8;
        free = free.wrapping_sub(1);
        if !self.rules.farmers {
            for (i, seg) in tile.def().segments.iter().enumerate() {
                if seg.kind == FeatureKind::Field {
                    free &= !(1 << i);
                }
            }
        }
        // Neighbouring features the new segments would join, as (root,
        // new segment) pairs. Two segments of the new tile touching one
        // neighbouring feature become one feature, so occupancy spreads
        // through shared roots (fields can join this way; roads and cities
        // of one tile never share a neighbour's feature without touching
        // it directly).
        let mut pairs = [(0 as SegmentId, 0u8); 12];
        let mut n = 0;
        let mut occupied = 0u8;
        let mut touch = |root: SegmentId, mine: u8, meeples: u8| {
            if meeples > 0 {
                occupied |= 1 << mine;
            }
            pairs[n] = (root, 1 << mine);
            n += 1;
        };
        for side in Side::ALL {
            let Some(slot) = self.board.slot_at(placement.pos.step(side)) else {
                continue;
            };
            let nb = self.board.placed(slot);
            let no = nb.tile.oriented(nb.rot);
            let s = side.index();
            if o.edge_segment[s] != NO_SEGMENT {
                let theirs = segment_id(slot, no.edge_segment[side.opposite().index()]);
                let root = self.features.root(theirs);
                touch(root, o.edge_segment[s], self.features.meeples(root));
            }
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                if mine != NO_SEGMENT {
                    let theirs = segment_id(slot, no.port_segment[port.facing().index()]);
                    let root = self.features.root(theirs);
                    touch(root, mine, self.features.meeples(root));
                }
            }
        }
        // Spread occupancy to every new segment sharing a neighbouring
        // feature with an occupied one (nothing to do when none is).
        while occupied != 0 {
            let before = occupied;
            for &(root, mask) in &pairs[..n] {
                if mask & occupied != 0 {
                    for &(other, m) in &pairs[..n] {
                        if other == root {
                            occupied |= m;
                        }
                    }
                }
            }
            if occupied == before {
                break;
            }
        }
        free & !occupied
    }

    /// Calls `f` for every legal move: each placement without a meeple and
    /// with a meeple on each free segment.
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        self.for_each_placement(|p| {
            let m = Move {
                placement: p,
                meeple: None,
            };
            f(m);
            let mut free = self.free_segments(p);
            while free != 0 {
                let s = free.trailing_zeros() as u8;
                free &= free - 1;
                f(m.with_meeple(s));
            }
        });
    }

    /// Fill `list` with every legal move (cleared first).
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_move(|m| list.push(m));
    }

    /// Why `placement` of the drawn tile is illegal, if it is.
    pub fn check_placement(&self, placement: Placement) -> Result<Tile, IllegalMove> {
        let tile = match self.phase {
            Phase::Place(t) => t,
            Phase::Draw => return Err(IllegalMove::NoTileDrawn),
            Phase::Over => return Err(IllegalMove::GameOver),
            other => return Err(IllegalMove::WrongPhase(other)),
        };
        let pos = placement.pos;
        if self.board.slot_at(pos).is_some() {
            return Err(IllegalMove::Occupied(pos));
        }
        if !self.board.is_open(pos) {
            return Err(IllegalMove::NoNeighbour(pos));
        }
        let edges = tile.oriented(placement.rot).edges;
        for side in Side::ALL {
            if let Some(n) = self.board.at(pos.step(side)) {
                let theirs = n.tile.oriented(n.rot).edges[side.opposite().index()];
                if theirs != edges[side.index()] {
                    return Err(IllegalMove::EdgeMismatch(pos, side));
                }
            }
        }
        Ok(tile)
    }

    /// Why `mv` is illegal, if it is.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let tile = self.check_placement(mv.placement)?;
        if let Some(seg) = mv.meeple {
            if seg as usize >= tile.segment_count() {
                return Err(IllegalMove::BadSegment(tile, seg));
            }
            let loc = tile.oriented(mv.placement.rot).canonical[seg as usize];
            if self.supply[self.to_play] == 0 {
                return Err(IllegalMove::NoMeepleLeft);
            }
            if !self.rules.farmers && tile.def().segments[seg as usize].kind == FeatureKind::Field {
                return Err(IllegalMove::FarmersOff);
            }
            if self.free_segments(mv.placement) & (1 << seg) == 0 {
                return Err(IllegalMove::FeatureOccupied(loc));
            }
        }
        Ok(())
    }

    /// Resolve a meeple location on the drawn tile in rotation `rot`.
    pub fn meeple_segment(&self, rot: Rotation, loc: Location) -> Result<u8, IllegalMove> {
        let tile = self.drawn_tile().ok_or(IllegalMove::NoTileDrawn)?;
        segment_at(tile, rot, loc).ok_or(IllegalMove::NoSuchSegment(tile, loc))
    }

    // ----- Playing ---------------------------------------------------------

    /// Play `mv` after checking it.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Play a legal move: place the tile, put the meeple, score what the
    /// tile completed, pass the turn (or end the game when the bag is
    /// empty). The move must be legal (checked only by `debug_assert!`).
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert_eq!(self.check(mv), Ok(()));
        let Phase::Place(tile) = self.phase else {
            unreachable!("play_unchecked outside the place phase");
        };
        let Placement { pos, rot } = mv.placement;
        let (slot, touched) = self.put_tile(tile, rot, pos);
        let gift_due = self.rules.gifts && self.extends_foreign_feature(slot);

        if let Some(seg) = mv.meeple {
            self.add_meeple(self.to_play, segment_id(slot, seg));
        }

        self.score_completed(slot, &touched);

        self.turns += 1;
        self.gifts.opened = false;
        if gift_due && self.gifts.can_give() {
            self.gifts.refill();
            self.phase = Phase::DrawGift;
        } else {
            self.end_turn();
        }
    }

    /// Pass the turn to the next seat, or end the game when the bag is
    /// empty.
    fn end_turn(&mut self) {
        if self.bag.is_empty() {
            self.finish();
        } else {
            self.phase = Phase::Draw;
            self.to_play = Seat((self.to_play.0 + 1) % self.players);
        }
    }

    /// Put a tile on the board and join its segments to its neighbours'.
    fn put_tile(&mut self, tile: Tile, rot: Rotation, pos: Pos) -> (usize, Touched) {
        let (slot, touched) = self.board.place(tile, rot, pos);
        let o = tile.oriented(rot);
        let piece_bit = if o.multi_piece {
            let bit = 1u16 << self.pieces_used;
            self.pieces_used += 1;
            bit
        } else {
            0
        };
        for (i, seg) in tile.def().segments.iter().enumerate() {
            let id = segment_id(slot, i as u8);
            match seg.kind {
                FeatureKind::Road | FeatureKind::City => {
                    self.features.init(id, seg.open, seg.shield, piece_bit)
                }
                _ => self.features.init(id, 0, false, 0),
            }
        }
        for side in Side::ALL {
            let nslot = touched.sides[side.index()];
            if nslot == NO_SLOT {
                continue;
            }
            let nslot = nslot as usize;
            let n = *self.board.placed(nslot);
            let no = n.tile.oriented(n.rot);
            let s = side.index();
            let opp = side.opposite().index();
            match o.edges[s] {
                Edge::Road | Edge::City => {
                    self.features.join_edge(
                        segment_id(slot, o.edge_segment[s]),
                        segment_id(nslot, no.edge_segment[opp]),
                    );
                }
                Edge::Field => {}
            }
            for port in side.ports() {
                let mine = o.port_segment[port.index()];
                if mine != NO_SEGMENT {
                    self.features.union(
                        segment_id(slot, mine),
                        segment_id(nslot, no.port_segment[port.facing().index()]),
                    );
                }
            }
        }
        (slot, touched)
    }
}
