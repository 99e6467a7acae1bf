//! The game state and the turn: draw (chance), place, meeple, score.
//!
//! The state is flat and `Clone` is a memcpy: no heap, no hidden order of
//! the tiles (the bag is counts per kind). Randomness is explicit: when
//! [`State::phase`] is [`Phase::Draw`] the caller picks a tile from
//! [`State::bag`] and applies it with [`State::apply_chance_outcome`] (or
//! lets [`State::apply_chance`] draw one with its own rng).
//!
//! The public mutators are four (`actions.rs`, `chance.rs`):
//! [`State::try_action`], [`State::play_action_unchecked`],
//! [`State::apply_chance_outcome`] and [`State::apply_chance`]; the steps
//! behind them (`draw`, `try_play`, `play_unchecked`, `receive_gift`, …)
//! are crate-private.

use crate::bag::Bag;
use crate::board::{Board, Touched, NO_SLOT};
use crate::features::{segment_id, Features, SegmentId};
use crate::geom::{Location, Pos, Rotation, Side};
use crate::gifts::GiftState;
use crate::hand::Hand;
use crate::moves::{IllegalMove, Move, Placement};
use crate::packed_rules::PackedRules;
use crate::rules::Rules;
use crate::seat::{PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT};
use crate::tiles::{segment_at, Edge, FeatureKind, Tile};
use crate::turn::Phase;

mod actions;
mod chance;
mod check;
mod end_now;
pub use end_now::{EndNow, FieldCache, MeepleFeature, PlaceEffects};
mod follow;
mod follow_hand;
mod gift_turn;
mod hand_turn;
mod movegen;
mod random_move;
pub use follow::{follow_turn, follow_turn_start, CardHolder, Hidden};
pub use follow_hand::follow_deal;
mod scoring;

#[cfg(test)]
mod effects_tests;
#[cfg(test)]
mod end_now_tests;

/// A meeple on the board.
///
/// Packed into 3 bytes (no padding byte after the seat): the state holds
/// 42 of them, and the bytes saved pay for the hands of RULES.md §8.
///
/// # Examples
/// ```
/// use engine::{segment_at, Chance, Location, Port, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// state.try_action(state.parse_action("U (1, 0) r1 NNE").unwrap()).unwrap(); // a farmer
/// let m = state.meeples()[0];
/// assert_eq!((m.seat, m.slot()), (Seat(0), 1));
/// let placed = state.board().placed(m.slot());
/// let nne = segment_at(placed.tile, placed.rot, Location::Field(Port::Nne));
/// assert_eq!(nne, Some(m.segment_index()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, packed)]
pub struct Meeple {
    /// Its owner.
    pub seat: Seat,
    /// The segment it stands (or lies) on.
    pub segment: SegmentId,
}

impl Meeple {
    /// The slot of the tile it is on.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Meeple, Seat};
    ///
    /// assert_eq!(Meeple { seat: Seat(1), segment: segment_id(4, 2) }.slot(), 4);
    /// ```
    pub fn slot(&self) -> usize {
        self.segment as usize / crate::tiles::MAX_SEGMENTS
    }

    /// The segment index on its tile.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Meeple, Seat};
    ///
    /// assert_eq!(Meeple { seat: Seat(1), segment: segment_id(4, 2) }.segment_index(), 2);
    /// ```
    pub fn segment_index(&self) -> u8 {
        (self.segment as usize % crate::tiles::MAX_SEGMENTS) as u8
    }
}

/// Most meeples on the board at once.
///
/// # Examples
/// ```
/// use engine::{MAX_MEEPLES, MAX_PLAYERS, MEEPLES_PER_SEAT};
///
/// assert_eq!(MAX_MEEPLES, MAX_PLAYERS * MEEPLES_PER_SEAT as usize);
/// ```
pub const MAX_MEEPLES: usize = MAX_PLAYERS * MEEPLES_PER_SEAT as usize;

/// A complete game position.
///
/// # Examples
/// ```
/// use engine::{Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// let copy = state.clone(); // a memcpy: search trees clone freely
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// assert_ne!(state, copy);
/// ```
#[derive(PartialEq, Eq, Hash)]
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
    /// Each seat's tiles in hand (RULES.md §8 `hand`; empty without).
    hands: PerSeat<Hand>,
    board: Board,
    features: Features,
}

impl Clone for State {
    #[inline]
    fn clone(&self) -> State {
        State {
            board: self.board.clone(),
            features: self.features.clone(),
            ..*self
        }
    }

    /// `source` copied into `self` (a search's determinization, every
    /// descent), leaving out the feature entries of the tile slots that
    /// neither position has filled: those hold `Features::new`'s numbers
    /// in every state (a slot's entries are first written when its tile
    /// is placed, `Features::init_tile`, and only placed tiles' segments
    /// are joined), so `self` equals `source` after, as with a whole copy.
    /// Mid-game this leaves out about a third of the state's bytes.
    #[inline]
    fn clone_from(&mut self, source: &State) {
        let tiles = self.board.len().max(source.board.len());
        let State {
            rules,
            players,
            to_play,
            phase,
            bag,
            turns,
            placements,
            scores,
            supply,
            pieces_used,
            meeple_len,
            meeples,
            gifts,
            hands,
            board,
            features,
        } = source;
        self.rules.clone_from(rules);
        self.players.clone_from(players);
        self.to_play.clone_from(to_play);
        self.phase.clone_from(phase);
        self.bag.clone_from(bag);
        self.turns.clone_from(turns);
        self.placements.clone_from(placements);
        self.scores.clone_from(scores);
        self.supply.clone_from(supply);
        self.pieces_used.clone_from(pieces_used);
        self.meeple_len.clone_from(meeple_len);
        self.meeples.clone_from(meeples);
        self.gifts.clone_from(gifts);
        self.hands.clone_from(hands);
        self.board.clone_from(board);
        self.features.clone_tiles_from(features, tiles);
    }
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
    /// meeples, `first` to play, a tile to be drawn. With `start_in_bag`
    /// the board is empty and the first draw is the start tile (RULES.md
    /// §8), placed at the origin in rotation 0.
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
    #[inline]
    pub fn new(rules: Rules, players: usize, first: Seat) -> State {
        assert!(crate::PLAYERS.contains(&players), "2 to 6 players");
        assert!(first.index() < players, "first seat out of range");
        if let Err(e) = rules.validate() {
            panic!("{e}");
        }
        let mut supply = PerSeat::splat(0);
        for s in 0..players {
            supply.0[s] = MEEPLES_PER_SEAT;
        }
        // Built from constants, with no call taking it by reference, so
        // it is built where the caller keeps it (placing the start tile on
        // an empty board here cost a second copy of the whole state). With
        // `start_in_bag` the start tile is the first chance outcome (see
        // [`State::draw`]) and a hand is dealt after it; otherwise it is D,
        // taken out of the bag, and the deal (if any) comes next.
        let start = !rules.start_in_bag;
        State {
            rules: PackedRules::pack(rules),
            players: players as u8,
            to_play: first,
            phase: if start && rules.hand > 0 {
                Phase::DrawHand
            } else {
                Phase::Draw
            },
            bag: if start {
                Bag::full()
            } else {
                Bag::every_tile()
            },
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
            hands: PerSeat::default(),
            board: if start { Board::START } else { Board::EMPTY },
            features: if start {
                Features::START
            } else {
                Features::new()
            },
        }
    }

    // ----- Observers -------------------------------------------------------

    /// The rules in force.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let rules = Rules { gifts: true, ..Rules::STANDARD };
    /// assert_eq!(State::new(rules, 2, Seat(0)).rules(), rules);
    /// ```
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules.unpack()
    }

    /// Number of seats.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// assert_eq!(State::new(Rules::default(), 5, Seat(0)).players(), 5);
    /// ```
    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The seat whose turn it is (during [`Phase::Draw`], the seat the
    /// tile is drawn for).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(1));
    /// assert_eq!(state.to_play(), Seat(1));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1").unwrap()).unwrap();
    /// assert_eq!(state.to_play(), Seat(0)); // the turn passed
    /// ```
    #[inline]
    pub fn to_play(&self) -> Seat {
        self.to_play
    }

    /// Whose decision it is.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Phase, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.phase(), Phase::Draw);
    /// state.apply_chance_outcome(Chance::Tile(Tile::V)).unwrap();
    /// assert_eq!(state.phase(), Phase::Place(Tile::V));
    /// ```
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The game is over.
    ///
    /// # Examples
    /// ```
    /// use engine::{random_playout, Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(!state.is_over());
    /// random_playout(&mut state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(3));
    /// assert!(state.is_over());
    /// ```
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The tiles left to draw.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::X)).unwrap(); // the only crossroads
    /// assert_eq!(state.bag().count(Tile::X), 0);
    /// assert_eq!(state.bag().total(), 70);
    /// ```
    #[inline]
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// Turns played (tiles placed after the start tile).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.turns(), 0);
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1").unwrap()).unwrap();
    /// assert_eq!(state.turns(), 1);
    /// ```
    #[inline]
    pub fn turns(&self) -> usize {
        self.turns as usize
    }

    /// A seat's score.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::E)).unwrap();
    /// // Close the start tile's city with a knight: 2 tiles × 2 points.
    /// state.try_action(state.parse_action("E (0, 1) r2 S").unwrap()).unwrap();
    /// assert_eq!(state.score(Seat(0)).city, 4);
    /// assert_eq!(state.score(Seat(1)).total(), 0);
    /// ```
    #[inline]
    pub fn score(&self, seat: Seat) -> Score {
        self.scores[seat]
    }

    /// Meeples in a seat's supply.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1 E").unwrap()).unwrap();
    /// assert_eq!((state.supply(Seat(0)), state.supply(Seat(1))), (6, 7));
    /// ```
    #[inline]
    pub fn supply(&self, seat: Seat) -> u8 {
        self.supply[seat]
    }

    /// The meeples on the board.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(state.meeples().is_empty());
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1 E").unwrap()).unwrap();
    /// assert_eq!(state.meeples().len(), 1);
    /// assert_eq!(state.meeples()[0].seat, Seat(0));
    /// ```
    #[inline]
    pub fn meeples(&self) -> &[Meeple] {
        &self.meeples[..self.meeple_len as usize]
    }

    /// The board.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().at(Pos::ORIGIN).map(|p| p.tile), Some(Tile::START));
    /// ```
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The feature union-find (read-only).
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let road = state.features().root(segment_id(0, 1));
    /// assert_eq!(state.features().open(road), 2);
    /// ```
    #[inline]
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The kind of feature that segment `id` belongs to.
    ///
    /// # Panics
    /// If `id` names no segment of a placed tile (it may also return the kind
    /// of a stale slot's segment; take ids from this state).
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, FeatureKind, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.segment_kind(segment_id(0, 0)), FeatureKind::City);
    /// assert_eq!(state.segment_kind(segment_id(0, 3)), FeatureKind::Field);
    /// ```
    #[inline]
    pub fn segment_kind(&self, id: SegmentId) -> FeatureKind {
        let p = self.board.placed(id as usize / crate::tiles::MAX_SEGMENTS);
        p.tile.def().segments[id as usize % crate::tiles::MAX_SEGMENTS].kind
    }

    /// The segment at `loc` of the tile at `pos`, if there is one.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Location, Pos, Rules, Seat, Side, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let road = state.segment_at(Pos::ORIGIN, Location::Edge(Side::W));
    /// assert_eq!(road, Some(segment_id(0, 1)));
    /// assert_eq!(state.segment_at(Pos::ORIGIN, Location::Edge(Side::S)), None); // a field edge
    /// assert_eq!(state.segment_at(Pos::new(0, 1), Location::Monastery), None); // no tile
    /// ```
    pub fn segment_at(&self, pos: Pos, loc: Location) -> Option<SegmentId> {
        let slot = self.board.slot_at(pos)?;
        let p = self.board.placed(slot);
        segment_at(p.tile, p.rot, loc).map(|s| segment_id(slot, s))
    }

    /// A feature (given by any of its segments) is complete: a closed road
    /// or city, or a monastery with all eight neighbours. Fields never are.
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let city = segment_id(0, 0);
    /// assert!(!state.is_complete(city));
    /// state.apply_chance_outcome(Chance::Tile(Tile::E)).unwrap();
    /// state.try_action(state.parse_action("E (0, 1) r2").unwrap()).unwrap();
    /// assert!(state.is_complete(city));
    /// assert!(!state.is_complete(segment_id(0, 2))); // fields never are
    /// ```
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
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let (city, field) = (segment_id(0, 0), segment_id(0, 2));
    /// assert_eq!((state.feature_value(city), state.feature_value(field)), (1, 0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::E)).unwrap();
    /// state.try_action(state.parse_action("E (0, 1) r2").unwrap()).unwrap();
    /// assert_eq!(state.feature_value(city), 4); // complete: 2 tiles × 2
    /// assert_eq!(state.feature_value(field), 3); // a farm touching one complete city
    /// ```
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
    ///
    /// # Examples
    /// ```
    /// use engine::{segment_id, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// state.try_action(state.parse_action("U (1, 0) r1 E").unwrap()).unwrap();
    /// let road = state.features().root(segment_id(0, 1));
    /// let on_road = state.meeples_on(road);
    /// assert_eq!((on_road[Seat(0)], on_road[Seat(1)]), (1, 0));
    /// ```
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
    pub(crate) fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Play a legal move: place the tile, put the meeple, score what the
    /// tile completed, pass the turn (or end the game when the bag is
    /// empty). The move must be legal (checked only by `debug_assert!`).
    ///
    /// The twin of [`State::try_play`] for search, which only plays moves it
    /// generated: a move that is not legal corrupts the state in release builds.
    ///
    /// # Panics
    /// Outside [`Phase::Place`]; with debug assertions, if `mv` is not legal.
    pub(crate) fn play_unchecked(&mut self, mv: Move) {
        debug_assert_eq!(self.check(mv), Ok(()));
        let (slot, touched) = self.put_placement(mv.placement);
        self.finish_move(slot, touched, mv.meeple);
    }

    /// The first half of a move: take the tile of `placement` (the drawn
    /// one, or the one in its hand slot), put it on the board and join its
    /// features. Returns its board slot and what it touched.
    #[inline]
    fn put_placement(&mut self, placement: Placement) -> (usize, Touched) {
        let tile = match self.phase {
            Phase::Place(tile) => tile,
            Phase::PlaceHand => self.hands[self.to_play]
                .remove(placement.slot)
                .expect("a tile in the slot"),
            _ => unreachable!("a placement outside the place phase"),
        };
        self.put_tile(tile, placement.rot, placement.pos)
    }

    /// The rest of a move after [`State::put_placement`] put its tile in
    /// `slot`: the meeple on segment `meeple` of it, scoring, and the end
    /// of the turn (or the gift it earned).
    #[inline(always)]
    fn finish_move(&mut self, slot: usize, touched: Touched, meeple: Option<u8>) {
        let gift_due = self.rules().gifts && self.extends_foreign_feature(slot);
        // (Without `hole_bonus` the bonus bit is never set: nothing to write.)
        if self.rules().hole_bonus {
            let hole = touched.sides.iter().all(|&n| n != NO_SLOT);
            self.rules.set_bonus_turn(hole);
        }

        if let Some(seg) = meeple {
            self.add_meeple(self.to_play, segment_id(slot, seg));
        }

        self.score_completed(slot, &touched);

        self.turns += 1;
        self.gifts.opened = false;
        if gift_due && self.gifts.can_give() {
            self.gifts.refill();
            self.phase = Phase::DrawGift;
        } else if self.rules.hand() > 0 {
            self.after_hand_placement();
        } else {
            self.end_turn();
        }
    }

    /// Pass the turn to the next seat (or to the same seat again after
    /// filling a hole with `hole_bonus`), or end the game when the bag is
    /// empty.
    #[inline(always)]
    fn end_turn(&mut self) {
        if self.rules.hand() > 0 {
            return self.end_hand_turn();
        }
        if !self.tile_draw_due() {
            self.finish();
        } else {
            self.phase = Phase::Draw;
            let bonus = self.rules.bonus_turn();
            self.rules.set_bonus_turn(false);
            if !bonus {
                let next = self.to_play.0 + 1;
                self.to_play = Seat(if next == self.players { 0 } else { next });
            }
        }
    }

    /// `pos` lies on the table (always, without a `table`).
    #[inline]
    pub fn on_table(&self, pos: Pos) -> bool {
        self.rules.bounds().contains(pos)
    }

    /// No tile can be drawn any more, which ends the game: the bag is
    /// empty, or with `unplaceable: return` holds only tiles that fit
    /// nowhere (RULES.md §8). A game ended early (`replay --end`) is over
    /// without this.
    pub fn tiles_exhausted(&self) -> bool {
        !self.tile_draw_due()
    }

    /// Whether another tile can be drawn (see [`State::tiles_exhausted`]).
    #[inline(always)]
    pub(super) fn tile_draw_due(&self) -> bool {
        if self.bag.is_empty() {
            return false;
        }
        !self.rules.returns_unplaceable() || self.bag.iter().any(|(t, _)| self.board.has_fit(t))
    }

    /// Put a tile on the board and join its segments to its neighbours'
    /// (and with `table_closes`, close its roads and cities facing the
    /// table's border).
    fn put_tile(&mut self, tile: Tile, rot: Rotation, pos: Pos) -> (usize, Touched) {
        let bounds = self.rules.bounds();
        let o = tile.oriented(rot);
        let piece_bit = if o.multi_piece {
            let bit = 1u16 << self.pieces_used;
            self.pieces_used += 1;
            bit
        } else {
            0
        };
        let slot = self.board.len();
        self.features.init_tile(slot, tile, piece_bit);
        let features = &mut self.features;
        // Joined as the board finds each edge neighbour, in side order.
        let (slot, touched) = self.board.place_joining(
            tile,
            rot,
            pos,
            bounds,
            #[inline(always)]
            |side, nslot, n| {
                join_side(features, o, slot, side, n.tile.oriented(n.rot), nslot);
            },
        );
        if bounds.closes {
            for side in Side::ALL {
                let s = side.index();
                if touched.sides[s] == NO_SLOT
                    && o.edges[s] != Edge::Field
                    && !bounds.contains(pos.step(side))
                {
                    self.features
                        .close_edge(segment_id(slot, o.edge_segment[s]));
                }
            }
        }
        (slot, touched)
    }
}

/// Join the segments of the tile in `slot` (oriented `o`) on `side` to
/// those of its neighbour there (in `nslot`, oriented `no`): the road or
/// city across the edge, then the fields across its two ports (a port
/// pair is skipped when it repeats the first, as a field usually holds
/// both ports of a side on both tiles).
#[inline(always)]
fn join_side(
    features: &mut Features,
    o: &crate::tiles::Oriented,
    slot: usize,
    side: Side,
    no: &crate::tiles::Oriented,
    nslot: usize,
) {
    let s = side.index();
    let opp = side.opposite().index();
    match o.edges[s] {
        // A city edge has no field port on either tile.
        Edge::City => {
            features.join_edge(
                segment_id(slot, o.edge_segment[s]),
                segment_id(nslot, no.edge_segment[opp]),
            );
        }
        Edge::Road => {
            features.join_edge(
                segment_id(slot, o.edge_segment[s]),
                segment_id(nslot, no.edge_segment[opp]),
            );
            join_fields(features, o, slot, side, no, nslot);
        }
        Edge::Field => join_fields(features, o, slot, side, no, nslot),
    }
}

/// The fields part of [`join_side`]: the two ports of `side` (the second
/// skipped when it joins the same pair of segments as the first).
#[inline(always)]
fn join_fields(
    features: &mut Features,
    o: &crate::tiles::Oriented,
    slot: usize,
    side: Side,
    no: &crate::tiles::Oriented,
    nslot: usize,
) {
    let [pa, pb] = side.ports();
    let a = (
        o.port_segment[pa.index()],
        no.port_segment[pa.facing().index()],
    );
    let b = (
        o.port_segment[pb.index()],
        no.port_segment[pb.facing().index()],
    );
    features.union(segment_id(slot, a.0), segment_id(nslot, a.1));
    if b != a {
        features.union(segment_id(slot, b.0), segment_id(nslot, b.1));
    }
}

#[cfg(test)]
mod new_tests {
    use super::*;
    use crate::rules::Table;

    /// `State::new` copies its start position from constants: it must be
    /// what placing the start tile on an empty board (and starting the
    /// deal) makes, under every variant that changes the set-up.
    #[test]
    fn new_is_the_start_tile_placed_on_an_empty_board() {
        let table = Some(Table {
            width: 3,
            height: 3,
        });
        let variants = [
            Rules::STANDARD,
            Rules {
                table,
                table_closes: true,
                ..Rules::STANDARD
            },
            Rules {
                hand: 2,
                ..Rules::STANDARD
            },
            Rules {
                start_in_bag: true,
                ..Rules::STANDARD
            },
            Rules {
                start_in_bag: true,
                hand: 3,
                ..Rules::STANDARD
            },
        ];
        for rules in variants {
            let state = State::new(rules, 3, Seat(1));
            let mut placed = state.clone();
            placed.board = Board::new();
            placed.features = Features::new();
            placed.bag = Bag::every_tile();
            placed.phase = Phase::Draw;
            if !rules.start_in_bag {
                placed.bag.take(Tile::START);
                placed.put_tile(Tile::START, Rotation::default(), Pos::ORIGIN);
                if rules.hand > 0 {
                    placed.start_deal();
                }
            }
            assert!(state == placed, "{rules:?}");
        }
    }
}

#[cfg(test)]
mod clone_tests {
    use super::*;
    use crate::playout::random_action;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// `clone_from` leaves out the feature entries of tile slots neither
    /// state has filled: they must be [`Features::new`]'s in every state
    /// of random games (gift cards, hands, returned and set-aside tiles,
    /// tables, the start tile in the bag), and `clone_from` between any
    /// two of a game's states, either way, must give a state equal to
    /// the source (the comparison reads every byte of the features).
    #[test]
    fn clone_from_equals_the_source_and_unfilled_slots_stay_blank() {
        for (rules, players, seed) in [
            ("", 2, 1u64),
            ("gifts=true", 3, 2),
            ("farmers=false", 6, 3),
            ("hand=2,unplaceable=return", 2, 4),
            ("hand=3,hand_visible=true", 4, 5),
            (
                "table=7x7,table_closes=true,unplaceable=return,hand=1",
                2,
                6,
            ),
            ("start_in_bag=true,gifts=true", 2, 7),
        ] {
            let rules: Rules = rules.parse().unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut state = State::new(rules, players, Seat(0));
            let mut states = vec![state.clone()];
            while !state.is_over() {
                if state.is_chance() {
                    state.apply_chance(&mut rng);
                } else {
                    let a = random_action(&state, &mut rng).expect("a decision");
                    state.play_action_unchecked(a);
                }
                states.push(state.clone());
            }
            assert!(state.board().len() > 20, "{rules}: a whole game");
            for s in &states {
                assert!(s.features.blank_from(s.board().len()), "{rules}");
            }
            assert!(!states[states.len() / 2].features.blank_from(1), "{rules}");
            let step = states.len() / 9;
            for a in states.iter().step_by(step) {
                for b in states.iter().step_by(step / 2 + 1) {
                    let mut copy = a.clone();
                    copy.clone_from(b);
                    assert!(copy == *b, "{rules}");
                    assert!(copy.clone() == *b, "{rules}");
                }
            }
        }
    }
}
