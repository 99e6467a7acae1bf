//! A compact, allocation-free rules engine for Carcassonne: the base game
//! with farmers and the mini-expansion The Gifts, 2–6 players, as
//! specified in `RULES.md`.
//!
//! Everything a user needs is exported from the crate root; the modules
//! behind it are private.
//!
//! - **The game**: [`State`] (a complete position; `Clone` is a memcpy)
//!   under [`Rules`], with [`Seat`]s, [`Score`]s, the [`Bag`] and the
//!   [`Meeple`]s on the [`Board`]. [`State::phase`] says whose decision it
//!   is ([`Phase`]).
//! - **Decisions**: a seat's [`Action`] — a [`Move`] (a [`Placement`] and
//!   an optional meeple), a gift opening ([`GiftOpen`]) or a Take 2 choice;
//!   [`State::for_each_action`], [`State::check_action`] (an
//!   [`IllegalMove`] says why not) and [`State::try_action`].
//! - **Chance**: [`State::apply_chance`] draws a tile or a gift card and
//!   returns the [`ChanceOutcome`]; [`State::draw`] and
//!   [`State::receive_gift`] apply a given outcome.
//! - **Hidden information**: [`SeatView`] is what one seat may see, and
//!   [`SeatView::determinize`] samples a full state consistent with it.
//! - **Records**: [`Record`] (the `GAME-RECORD.md` format), [`replay`] and
//!   [`RecordBuilder`].
//! - **Playouts**: [`random_move`], [`random_action`], [`random_playout`].
//! - **Tile geometry** (read-only, enough to draw a tile): [`Tile`] with
//!   its [`TileDef`] ([`Edge`]s and [`SegmentDef`]s) and, per [`Rotation`],
//!   its [`Oriented`] layout; [`Side`], [`Port`], [`Location`], [`Pos`].
//!
//! ```
//! use engine::{random_action, Rules, Seat, State};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
//! let mut state = State::new(Rules::default(), 2, Seat(0));
//! while !state.is_over() {
//!     if state.is_chance() {
//!         state.apply_chance(&mut rng); // a tile (or gift card) is drawn
//!     } else {
//!         let action = random_action(&state, &mut rng).unwrap();
//!         state.try_action(action).unwrap();
//!     }
//! }
//! assert!(state.bag().is_empty());
//! println!("{} to {}", state.score(Seat(0)).total(), state.score(Seat(1)).total());
//! ```

mod action_index;
mod bag;
mod board;
mod features;
mod geom;
mod gifts;
mod moves;
mod notation;
mod packed_rules;
mod playout;
mod record;
mod rules;
mod seat;
mod state;
mod tiles;
mod turn;
mod view;

pub use action_index::{
    ACTION_SPACE, CASH_OUT_BASE, CHANGE_POSITION_BASE, MAX_COORD, PLACE_BASE, PLACE_SPAN,
    ROAD_SWEEPER_BASE, SYNOD_BASE,
};
pub use bag::Bag;
pub use board::{Board, Placed};
pub use features::{segment_id, Features, SegmentId, MAX_SEGMENT_IDS, MAX_TILES};
pub use geom::{Location, ParseLocationError, Port, Pos, Rotation, Side};
pub use gifts::{Gift, GiftCards, GiftOpen, ParseGiftError};
pub use moves::{IllegalMove, Move, MoveList, Placement, MAX_MOVES};
pub use notation::ParseActionError;
pub use playout::{
    random_action, random_gift_open, random_move, random_playout, MAX_GIFT_OPENINGS,
};
pub use record::{
    apply_turn, replay, FinalRecord, GiftOpenRecord, Record, RecordBuilder, ReplayError,
    ReplayReason, TurnRecord, FORMAT,
};
pub use rules::{Rules, RulesError, Table, Unplaceable};
pub use seat::{PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT};
pub use state::{Meeple, State, MAX_MEEPLES};
pub use tiles::{
    fitting_rotations, segment_at, Demand, Edge, FeatureKind, Oriented, ParseTileError, SegmentDef,
    Tile, TileDef, MAX_SEGMENTS, NO_SEGMENT,
};
pub use turn::{Action, Chance, ChanceOutcome, Drawn, Phase};
pub use view::SeatView;
