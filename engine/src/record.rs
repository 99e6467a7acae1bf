//! Game records (docs/RECORD-FORMAT.md) and their replay through the same code
//! that plays games.
//!
//! A record lists, per turn, the seat, the tiles set aside as unplaceable,
//! the placed tile with its cell and rotation, and the meeple's location.
//! [`replay`] applies every step with the checked engine calls and stops at
//! the first illegal one, naming the 1-based turn. With the `serde`
//! feature the types read and write the JSON format:
//!
//! ```json
//! { "format": "carcassonne-record/1", "players": 2,
//!   "rules": { "farmers": true, "gifts": false },
//!   "turns": [ { "player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1, "meeple": "NNE" },
//!              { "player": 1, "discarded": ["C"], "tile": "V", "x": -1, "y": 0, "rot": 2 } ],
//!   "final": { "scores": [6, 4] } }
//! ```
//!
//! `final.scores` holds the seats' totals (a list of numbers; objects with a
//! `total` field are accepted too).

mod builder;
mod format;
mod hand_replay;
mod replay;

pub use builder::RecordBuilder;
pub use format::{FinalRecord, GiftOpenRecord, Record, TurnRecord, FORMAT};
pub use replay::{apply_turn, apply_turn_start, initial_state, replay, ReplayError, ReplayReason};
