//! Numeric observations for learning, computed from one seat's view only,
//! and the legal-action mask. The package README documents every plane
//! and index; `PLANES` here is the same list.
//!
//! The `bag` vector holds the tiles the seat has not seen
//! ([`SeatView::unseen_tiles`]): with hidden hands (RULES.md §8 `hand`
//! without `hand_visible`) the other seats' hands are counted with the
//! bag, never apart from it; otherwise it is the bag itself. The
//! `tiles_left` entry is the bag's size, which every seat knows.

use crate::encoding::ActionSpace;
use engine::{FeatureKind, Gift, Phase, Seat, SeatView, State, Tile, MAX_PLAYERS};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};

/// The board planes, in order (names as in the package README).
pub const PLANES: [&str; 28] = [
    "tile",
    "open",
    "edge_n_city",
    "edge_n_road",
    "edge_n_field",
    "edge_e_city",
    "edge_e_road",
    "edge_e_field",
    "edge_s_city",
    "edge_s_road",
    "edge_s_field",
    "edge_w_city",
    "edge_w_road",
    "edge_w_field",
    "monastery",
    "shield",
    "meeple_seat_0",
    "meeple_seat_1",
    "meeple_seat_2",
    "meeple_seat_3",
    "meeple_seat_4",
    "meeple_seat_5",
    "meeple_on_road",
    "meeple_on_city",
    "meeple_on_monastery",
    "meeple_on_field",
    "last_placed",
    "fits",
];

const EDGES: usize = 2;
const MONASTERY: usize = 14;
const SHIELD: usize = 15;
const MEEPLE_SEAT: usize = 16;
const MEEPLE_KIND: usize = 22;
const LAST: usize = 26;
const FITS: usize = 27;

/// The `state` vector's entries, in order.
pub const STATE_ENTRIES: [&str; 8] = [
    "players",
    "turns",
    "seat_to_play",
    "is_to_play",
    "phase_choose",
    "tiles_left",
    "gift_deck_size",
    "gift_opened",
];

/// The observation's arrays, in order (as in [`Observation::to_numpy`]).
pub const OBSERVATION_KEYS: [&str; 8] = [
    "board",
    "tile",
    "scores",
    "supplies",
    "bag",
    "gifts",
    "gift_counts",
    "state",
];

/// One seat's observation, flat.
pub struct Observation {
    width: usize,
    board: Vec<f32>,
    tile: [f32; Tile::COUNT],
    scores: [f32; MAX_PLAYERS],
    supplies: [f32; MAX_PLAYERS],
    bag: [f32; Tile::COUNT],
    gifts: [f32; Gift::COUNT],
    gift_counts: [f32; MAX_PLAYERS],
    state: [f32; STATE_ENTRIES.len()],
}

impl Observation {
    /// What `seat` observes of `state` (only its view is read), the board
    /// in the window of radius `radius`. Seats are numbered relative to
    /// the observer: 0 is `seat`, 1 the next to play after it, and so on.
    pub fn of(state: &State, seat: Seat, radius: u32) -> Observation {
        let view = state.view(seat);
        let space = ActionSpace::new(radius);
        let width = space.width() as usize;
        let cells = width * width;
        let players = view.players();
        let relative = |s: Seat| (s.index() + players - seat.index()) % players;
        let mut board = vec![0.0f32; PLANES.len() * cells];
        let mut set = |plane: usize, cell: u32| board[plane * cells + cell as usize] = 1.0;
        let tiles = view.board().tiles();
        for (i, placed) in tiles.iter().enumerate() {
            let Some(cell) = space.cell(placed.pos) else {
                continue;
            };
            set(0, cell);
            let oriented = placed.tile.oriented(placed.rot);
            for (side, edge) in oriented.edges.iter().enumerate() {
                set(EDGES + side * 3 + (*edge as usize - 1), cell);
            }
            let segments = placed.tile.def().segments;
            if segments.iter().any(|s| s.kind == FeatureKind::Monastery) {
                set(MONASTERY, cell);
            }
            if segments.iter().any(|s| s.shield) {
                set(SHIELD, cell);
            }
            if i + 1 == tiles.len() {
                set(LAST, cell);
            }
        }
        for (pos, _) in view.board().frontier() {
            if let Some(cell) = space.cell(pos) {
                set(1, cell);
            }
        }
        view.for_each_placement(|p| {
            if let Some(cell) = space.cell(p.pos) {
                set(FITS, cell);
            }
        });
        for m in view.meeples() {
            let pos = view.board().placed(m.slot()).pos;
            let Some(cell) = space.cell(pos) else {
                continue;
            };
            set(MEEPLE_SEAT + relative(m.seat), cell);
            let kind = match view.segment_kind(m.segment) {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Monastery => 2,
                FeatureKind::Field => 3,
            };
            set(MEEPLE_KIND + kind, cell);
        }

        let mut tile = [0.0; Tile::COUNT];
        match view.phase() {
            Phase::Place(t) => tile[t.index()] = 1.0,
            Phase::Choose(a, b) => {
                tile[a.index()] = 1.0;
                tile[b.index()] = 1.0;
            }
            _ => {}
        }
        let mut scores = [0.0; MAX_PLAYERS];
        let mut supplies = [0.0; MAX_PLAYERS];
        let mut gift_counts = [0.0; MAX_PLAYERS];
        for s in 0..players {
            let s = Seat(s as u8);
            scores[relative(s)] = view.score(s).total() as f32;
            supplies[relative(s)] = view.supply(s) as f32;
            gift_counts[relative(s)] = view.hand_size(s) as f32;
        }
        let mut bag = [0.0; Tile::COUNT];
        for (t, c) in view.unseen_tiles().iter() {
            bag[t.index()] = c as f32;
        }
        let hand = view.own_hand();
        let gifts = Gift::ALL.map(|g| hand.count(g) as f32);
        let to_play = view.to_play() == seat && !state.is_chance() && !view.is_over();
        let state_vec = [
            players as f32,
            view.turns() as f32,
            relative(view.to_play()) as f32,
            to_play as u8 as f32,
            matches!(view.phase(), Phase::Choose(..)) as u8 as f32,
            view.bag().total() as f32,
            view.gift_deck_size() as f32,
            view.gift_opened() as u8 as f32,
        ];
        Observation {
            width,
            board,
            tile,
            scores,
            supplies,
            bag,
            gifts,
            gift_counts,
            state: state_vec,
        }
    }

    /// The observation's arrays, flat, in the order of [`OBSERVATION_KEYS`].
    pub fn parts(&self) -> [&[f32]; 8] {
        [
            &self.board,
            &self.tile,
            &self.scores,
            &self.supplies,
            &self.bag,
            &self.gifts,
            &self.gift_counts,
            &self.state,
        ]
    }

    /// The observation as a dict of float32 numpy arrays.
    pub fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let np = py.import("numpy")?;
        let d = PyDict::new(py);
        let w = self.width;
        d.set_item(
            "board",
            float_array(&np, &self.board)?.call_method1("reshape", ((PLANES.len(), w, w),))?,
        )?;
        d.set_item("tile", float_array(&np, &self.tile)?)?;
        d.set_item("scores", float_array(&np, &self.scores)?)?;
        d.set_item("supplies", float_array(&np, &self.supplies)?)?;
        d.set_item("bag", float_array(&np, &self.bag)?)?;
        d.set_item("gifts", float_array(&np, &self.gifts)?)?;
        d.set_item("gift_counts", float_array(&np, &self.gift_counts)?)?;
        d.set_item("state", float_array(&np, &self.state)?)?;
        Ok(d)
    }
}

/// A writable float32 numpy array of `values`.
fn float_array<'py>(np: &Bound<'py, PyModule>, values: &[f32]) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let buffer = PyByteArray::new(np.py(), &bytes);
    np.call_method1("frombuffer", (buffer, "float32"))
}

/// The legal actions of the seat to play as an int8 numpy mask over the
/// action space of window radius `radius`.
pub fn mask_numpy<'py>(py: Python<'py>, state: &State, radius: u32) -> PyResult<Bound<'py, PyAny>> {
    let space = ActionSpace::new(radius);
    let mut mask = vec![0u8; space.len() as usize];
    let view: SeatView<'_> = state.view(state.to_play());
    view.for_each_action(|a| {
        if let Some(i) = space.encode(a) {
            mask[i as usize] = 1;
        }
    });
    let np = py.import("numpy")?;
    np.call_method1("frombuffer", (PyByteArray::new(py, &mask), "int8"))
}

/// The per-action features of the legal actions of `state`
/// ([`agents::action_features`]) as a float32 numpy array of shape
/// (actions, columns).
pub fn action_features_numpy<'py>(py: Python<'py>, state: &State) -> PyResult<Bound<'py, PyAny>> {
    use agents::action_features::{for_each_row, COLUMN_COUNT};
    let mut values = Vec::new();
    for_each_row(state, |_, row| values.extend_from_slice(row));
    let np = py.import("numpy")?;
    let rows = values.len() / COLUMN_COUNT;
    float_array(&np, &values)?.call_method1("reshape", ((rows, COLUMN_COUNT),))
}
