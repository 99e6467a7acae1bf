//! A compact, allocation-free rules engine for Carcassonne: the base game
//! with farmers and the mini-expansion The Gifts, 2–6 players, as
//! specified in `RULES.md`.
//!
//! - [`tiles`]: the 24 tile kinds as constant data, rotations precomputed.
//! - [`geom`]: positions, sides, field ports, rotations, location names.
//! - [`board`]: the grid and the frontier of open cells.
//! - [`features`]: roads, cities, monasteries and fields as a union-find.
//! - [`state`]: the game state and the turn (chance draw, move, scoring).
//! - [`moves`]: moves, the move list and [`IllegalMove`].
//! - [`record`]: game records and their replay.
//! - [`playout`]: uniformly random moves and playouts.
//! - [`gifts`]: The Gifts: cards, counts, openings.
//! - [`view`]: what a seat may see, and determinization.
//! - [`action_index`]: the stable integer id of every action.
//!
//! ```
//! use engine::playout::random_action;
//! use engine::{Rules, Seat, State};
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

pub mod action_index;
pub mod board;
pub mod features;
pub mod geom;
pub mod gifts;
pub mod moves;
pub mod playout;
pub mod record;
pub mod rules;
pub mod seat;
pub mod state;
pub mod tiles;
pub mod view;

pub use action_index::{ACTION_SPACE, MAX_COORD};
pub use geom::{Location, Port, Pos, Rotation, Side};
pub use gifts::{Gift, GiftCards, GiftOpen};
pub use moves::{IllegalMove, Move, MoveList, Placement, MAX_MOVES};
pub use record::{
    replay, GiftOpenRecord, Record, RecordBuilder, ReplayError, ReplayReason, TurnRecord,
};
pub use rules::Rules;
pub use seat::{PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT};
pub use state::{Action, Bag, ChanceOutcome, Drawn, Meeple, Phase, State};
pub use tiles::{FeatureKind, Tile};
pub use view::SeatView;
