//! The game state and the turn: draw (chance), place, meeple, score.
//!
//! The state is flat and `Clone` is a memcpy: no heap, no hidden order of
//! the tiles (the bag is counts per kind). Randomness is explicit: when
//! [`State::phase`] is [`Phase::Draw`] the caller picks a tile from
//! [`State::bag`] (or lets [`State::draw_random`] do it with its own rng)
//! and hands it to [`State::draw`].

use crate::bag::Bag;
use crate::board::{Board, Touched, NO_SLOT};
use crate::features::{segment_id, Features, SegmentId};
use crate::geom::{Location, Pos, Rotation, Side};
use crate::gifts::GiftState;
use crate::moves::{IllegalMove, Move, Placement};
use crate::packed_rules::PackedRules;
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT};
use crate::tiles::{segment_at, Edge, FeatureKind, Tile, NO_SEGMENT};
use crate::turn::Phase;

mod actions;
mod chance;
mod check;
mod gift_turn;
mod movegen;
mod scoring;

#[cfg(test)]
mod end_now_tests;

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

/// A complete game position.
///
/// # Examples
/// ```
/// use engine::{Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let copy = state.clone(); // a memcpy: search trees clone freely
/// state.draw(Tile::U).unwrap();
/// assert_ne!(state, copy);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    rules: PackedRules,
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
    /// If `players` is not 2–6, `first` is not a seat, or
    /// [`Rules::validate`] refuses `rules`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Phase, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 4, Seat(2));
    /// assert_eq!((state.players(), state.to_play()), (4, Seat(2)));
    /// assert_eq!(state.phase(), Phase::Draw);
    /// assert_eq!(state.bag().total(), 71);
    /// ```
    pub fn new(rules: Rules, players: usize, first: Seat) -> State {
        assert!((2..=MAX_PLAYERS).contains(&players), "2 to 6 players");
        assert!(first.index() < players, "first seat out of range");
        if let Err(e) = rules.validate() {
            panic!("{e}");
        }
        let mut supply = PerSeat::splat(0);
        for s in 0..players {
            supply.0[s] = MEEPLES_PER_SEAT;
        }
        let mut state = State {
            rules: PackedRules::pack(rules),
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
        self.rules.unpack()
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

    // ----- Playing ---------------------------------------------------------

    /// Play `mv` after checking it.
    ///
    /// # Errors
    /// The [`IllegalMove`] [`State::check`] finds; the state is then unchanged.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
    /// use engine::{Move, Pos, Rotation};
    /// let bad = Move::place(Pos::new(5, 5), Rotation::default());
    /// assert!(state.try_play(bad).is_err());
    /// let good = Move::place(Pos::new(1, 0), Rotation::new(1).unwrap());
    /// state.try_play(good).unwrap();
    /// assert_eq!(state.turns(), 1);
    /// ```
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
        let gift_due = self.rules().gifts && self.extends_foreign_feature(slot);
        let hole = touched.sides.iter().all(|&n| n != NO_SLOT);
        self.rules.set_bonus_turn(self.rules().hole_bonus && hole);

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

    /// Pass the turn to the next seat (or to the same seat again after
    /// filling a hole with `hole_bonus`), or end the game when the bag is
    /// empty.
    fn end_turn(&mut self) {
        if self.bag.is_empty() {
            self.finish();
        } else {
            self.phase = Phase::Draw;
            let bonus = self.rules.bonus_turn();
            self.rules.set_bonus_turn(false);
            if !bonus {
                self.to_play = Seat((self.to_play.0 + 1) % self.players);
            }
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
