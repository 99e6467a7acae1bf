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
//!   [`State::legal_actions`] (or [`State::for_each_action`] without
//!   allocating), [`State::check_action`] (an [`IllegalMove`] says why
//!   not) and [`State::try_action`]; in text ([`State::describe`],
//!   [`State::parse_action`]) and as integers ([`Action::to_index`] below
//!   [`ACTION_SPACE`]).
//! - **Chance**: [`State::chance_outcomes`] lists the draws ([`Chance`])
//!   with their probabilities; [`State::apply_chance`] draws one at random
//!   and returns the [`ChanceOutcome`]; [`State::apply_chance_outcome`]
//!   applies a given one.
//! - **Values**: [`State::score`] by category, [`State::returns`] at the
//!   end, and [`State::end_now_scores`] (what every seat would have if the
//!   game ended now) with [`State::end_now_scores_after`] an action.
//! - **Hidden information**: [`SeatView`] is what one seat may see, and
//!   [`SeatView::determinize`] samples a full state consistent with it.
//! - **Records**: [`Record`] (the `docs/RECORD-FORMAT.md` format), [`replay`] and
//!   [`RecordBuilder`].
//! - **Playouts**: [`random_move`], [`random_action`], [`random_playout`], and
//!   [`play_random_move`] (a random move found and played in one pass).
//! - **Tile geometry** (read-only, enough to draw a tile): [`Tile`] with
//!   its [`TileDef`] ([`Edge`]s and [`SegmentDef`]s) and, per [`Rotation`],
//!   its [`Oriented`] layout; [`Side`], [`Port`], [`Location`], [`Pos`].
//!
//! # Changing a state: four calls
//!
//! A [`State`] changes only through four methods (the model is OpenSpiel's
//! one `ApplyAction` and cozy-chess's `try_play`/`play_unchecked`);
//! everything else on it only reads:
//!
//! | call | for | when it is wrong |
//! |---|---|---|
//! | [`State::try_action`] | a seat's [`Action`], checked first | `Err(IllegalMove)`, nothing changes |
//! | [`State::play_action_unchecked`] | a seat's [`Action`] a search generated | checked by `debug_assert!` only |
//! | [`State::apply_chance_outcome`] | a given tile or gift card ([`Chance`]) | `Err(IllegalMove)`, nothing changes |
//! | [`State::apply_chance`] | whatever chance event is due, drawn with an rng | panics outside chance |
//!
//! A move is `Action::Place(mv)`; there is no separate move, draw or gift
//! mutator. Helpers built on these are free functions: [`random_playout`],
//! [`play_random_move`], and for records [`replay`], [`apply_turn`] and
//! [`follow_turn`]. Tests of the workspace write the steps tersely with the
//! `testkit` crate's `StateExt` (`draw`, `try_play`, …), which wraps the
//! same four calls.
//!
//! # A game, with chance as explicit events
//!
//! Whose decision it is — a seat's or chance's (a tile or gift card is
//! drawn) — is [`State::phase`]. The driver resolves chance with its own
//! generator (or lists [`State::chance_outcomes`] with their probabilities
//! and applies one with [`State::apply_chance_outcome`]); a seat picks one
//! of [`State::legal_actions`]:
//!
//! ```
//! use engine::{Phase, Rules, Seat, State};
//! use rand::{Rng, SeedableRng};
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
//! let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 3, Seat(0));
//! while !state.is_over() {
//!     if state.is_chance() {
//!         state.apply_chance(&mut rng); // a tile, or a gift card after Phase::DrawGift
//!     } else {
//!         let actions = state.legal_actions();
//!         let action = actions[rng.gen_range(0..actions.len())];
//!         println!("{}: {}", state.to_play(), state.describe(action)); // e.g. "U (1, 0) r1 E"
//!         state.try_action(action).unwrap(); // a refused action would change nothing
//!     }
//! }
//! assert_eq!(state.phase(), Phase::Over);
//! let returns = state.returns().unwrap(); // winners share 1
//! assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! ```
//!
//! # What a seat may see, and search over it
//!
//! An agent gets a [`SeatView`]: the public position and its own gift
//! cards, never other hands or the deck. [`SeatView::determinize`] deals
//! the unseen cards at random into a full [`State`] to search on; actions
//! found there are legal in the real game.
//!
//! ```
//! use engine::{random_playout, Chance, Rules, Seat, State, Tile};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2);
//! let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
//! state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
//! let view = state.view(Seat(0));
//! let mut best = None;
//! view.for_each_action(|action| {
//!     // Value each action by one random playout of a sampled world.
//!     let mut world = view.determinize(&mut rng);
//!     world.try_action(action).unwrap();
//!     random_playout(&mut world, &mut rng);
//!     let value = world.returns().unwrap()[0];
//!     if best.is_none_or(|(v, _)| value > v) {
//!         best = Some((value, action));
//!     }
//! });
//! let (_, action) = best.unwrap();
//! state.try_action(action).unwrap();
//! ```
//!
//! # Records, text and integers
//!
//! A [`RecordBuilder`] writes the [`Record`] of a game as it is played (JSON
//! with the `serde` feature, format in `docs/RECORD-FORMAT.md`); [`replay`] checks
//! one and returns the position it reaches. Actions also have a text form
//! ([`State::describe`], [`State::parse_action`]) and a stable integer id
//! ([`Action::to_index`], [`ACTION_SPACE`]) for protocols and learning code.
//!
//! ```
//! use engine::{random_action, replay, Action, RecordBuilder, Rules, Seat, State};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
//! let rules = Rules::default();
//! let mut state = State::new(rules, 2, Seat(0));
//! let mut builder = RecordBuilder::new(2, rules);
//! while !state.is_over() {
//!     if state.is_chance() {
//!         let outcome = state.apply_chance(&mut rng);
//!         builder.chance(&state, outcome);
//!     } else {
//!         let seat = state.to_play();
//!         let action = random_action(&state, &mut rng).unwrap();
//!         assert_eq!(state.parse_action(&state.describe(action)), Ok(action));
//!         assert_eq!(Action::from_index(action.to_index().unwrap()), Some(action));
//!         state.try_action(action).unwrap();
//!         builder.action(seat, &state, action);
//!     }
//! }
//! let record = builder.finish(&state);
//! assert_eq!(replay(&record, true), Ok(state)); // `true`: also check the final scores
//! ```

#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

mod action_index;
mod bag;
mod board;
mod features;
mod geom;
mod gifts;
mod hand;
mod moves;
mod notation;
mod packed_rules;
mod playout;
mod record;
mod rules;
mod sampling;
mod seat;
mod state;
mod tiles;
mod turn;
mod view;

pub use action_index::{
    ACTION_SPACE, CASH_OUT_BASE, CHANGE_POSITION_BASE, HAND_ACTION_SPACE, MAX_COORD, PLACE_BASE,
    PLACE_SPAN, ROAD_SWEEPER_BASE, SYNOD_BASE,
};
pub use bag::Bag;
pub use board::{Board, Placed};
pub use features::{segment_id, Features, SegmentId, MAX_SEGMENT_IDS, MAX_TILES};
pub use geom::{Location, ParseLocationError, Port, Pos, Rotation, Side};
pub use gifts::{Gift, GiftCards, GiftOpen, ParseGiftError};
pub use hand::{Hand, MAX_HAND};
pub use moves::{IllegalMove, Move, MoveList, Placement, MAX_MOVES};
pub use notation::ParseActionError;
pub use playout::{
    play_random_move, random_action, random_gift_open, random_move, random_playout,
    MAX_GIFT_OPENINGS,
};
pub use record::{
    apply_turn, apply_turn_start, initial_state, replay, FinalRecord, GiftOpenRecord, Record,
    RecordBuilder, ReplayError, ReplayReason, TurnRecord, FORMAT,
};
pub use rules::{Rules, RulesError, Table, Unplaceable};
pub use seat::{
    is_player_count, PerSeat, Score, Seat, MAX_PLAYERS, MEEPLES_PER_SEAT, MIN_PLAYERS, PLAYERS,
};
pub use state::{
    follow_deal, follow_turn, follow_turn_start, CardHolder, EndNow, FieldCache, Hidden, Meeple,
    MeepleFeature, PlaceEffects, State, MAX_MEEPLES,
};
pub use tiles::{
    fitting_rotations, segment_at, Demand, Edge, FeatureKind, Oriented, ParseTileError, SegmentDef,
    Tile, TileDef, MAX_SEGMENTS, NO_SEGMENT,
};
pub use turn::{Action, Chance, ChanceOutcome, Drawn, Phase};
pub use view::{SeatEffects, SeatEndNow, SeatView};
