//! The network's input: a position as one seat sees it ([`SeatView`]) and
//! each of its legal actions, as numbers. Versioned ([`ENCODING_VERSION`]);
//! docs/neural.md lists every column. Nothing here reads what the seat may
//! not see: other seats' hands of gift cards or (hidden) tiles, the tile
//! order or the gift deck's order.
//!
//! - The **board** is a [`WINDOW`]×[`WINDOW`] window of cells centred on
//!   the middle of the placed tiles' bounding box, [`CELL_CHANNELS`]
//!   numbers per cell ([`CELL_COLUMNS`]), row-major from the north-west
//!   corner (row 0 is the window's northernmost row, y largest).
//! - The **globals** are [`GLOBAL_FEATURES`] numbers ([`GLOBAL_COLUMNS`]):
//!   seat count, rules, phase, tiles to place, seat-relative scores,
//!   supplies, bag counts, gift cards, and the position features of the
//!   linear value models ([`crate::learn::features`]), each divided by
//!   its scale ([`FEATURE_SCALES`]).
//! - Each **action** is [`ACTION_FEATURES`] numbers ([`ACTION_COLUMNS`])
//!   and the window cell it acts on (a placement's cell, a gift's target
//!   tile; the centre for a tile kept), which the network uses to look up
//!   a board-dependent embedding of that cell.
//!
//! Seats are seat-relative: block `k` is the seat `k` places after the
//! viewer (the viewer is block 0), so the same network serves every seat
//! and 2–6 players.
//!
//! The end-now gains of an action do not depend on hidden information
//! (other seats' cards count 2 points each whatever they are), so they are
//! read on the view's own position ([`SeatView::end_now`]; up to encoding
//! version 3's first release on a determinization drawn from a fixed
//! seed, with the same numbers).

#[cfg(doc)]
use crate::learn::features::FEATURES;
use crate::learn::features::{extract_in, extract_with, FeatureVector, FEATURE_COUNT};
use engine::{
    segment_id, FeatureKind, Gift, PerSeat, Phase, Pos, Score, SeatEndNow, SeatView, Tile,
    MAX_PLAYERS, NO_SEGMENT,
};

/// The version of the encoding (the columns and their meaning). A weights
/// file of another version is refused.
pub const ENCODING_VERSION: u32 = 3;

/// The points of a gift card held unopened at the end (RULES.md §4): what
/// a move that earns a card adds to the mover's end-now total.
const GIFT_POINTS: f32 = 2.0;

/// The board window's side, in cells.
pub const WINDOW: usize = 15;

/// Half the window's side: cells from the centre to an edge.
const HALF: i32 = (WINDOW / 2) as i32;

/// Cells of the board window.
pub const CELLS: usize = WINDOW * WINDOW;

/// The names of a cell's numbers, in order.
pub const CELL_COLUMNS: [&str; 32] = [
    "tile",
    "open",
    "off_table",
    "city_n",
    "city_e",
    "city_s",
    "city_w",
    "road_n",
    "road_e",
    "road_s",
    "road_w",
    "monastery",
    "shield",
    "mine_n",
    "mine_e",
    "mine_s",
    "mine_w",
    "others_n",
    "others_e",
    "others_s",
    "others_w",
    "complete_n",
    "complete_e",
    "complete_s",
    "complete_w",
    "monastery_mine",
    "monastery_others",
    "monastery_surrounded",
    "field_mine",
    "field_others",
    "meeple_here_mine",
    "meeple_here_others",
];

/// Numbers per cell.
pub const CELL_CHANNELS: usize = CELL_COLUMNS.len();

/// Numbers of the board window.
pub const BOARD_FEATURES: usize = CELLS * CELL_CHANNELS;

/// Numbers per seat-relative seat block of the globals.
pub(crate) const SEAT_BLOCK: usize = 7;

/// Where in the globals the seat blocks start (after the players' one-hot,
/// the rules, the phase, the tiles to place and the tiles held); a block's
/// first number is 1 when its seat is in the game.
pub(crate) const FIRST_SEAT_BLOCK: usize = 5 + 10 + 4 + 24 + 24;

/// The names of the global numbers, in order (seat blocks written out
/// for block 0; blocks 1–5 repeat them for the seats after the viewer).
pub const GLOBAL_COLUMNS: [&str; 20] = [
    "players_2..6 (5, one-hot)",
    "rules (10: farmers, gifts, hand/3, hand_visible, start_in_bag, hole_bonus, final_incomplete, table, table_closes, unplaceable_return)",
    "phase (4, one-hot: place, choose, place_hand, other)",
    "to_place (24: count of each tile kind to place or choose from)",
    "held (24: own tiles in hand per kind)",
    "seat k=0..5 (6 x 7: present, score/100, end_now/100, (end_now-score)/50, supply/7, gift_cards/5, tiles_held/3)",
    "lead/50 (score less the best other seat's)",
    "end_now_lead/50",
    "unseen (24: unseen tiles per kind / copies of the kind)",
    "unseen_total/72",
    "bag_total/72",
    "own_gifts (5: cards per kind / 5)",
    "discard (5: discarded cards per kind / 5)",
    "gift_deck/25",
    "gift_opened",
    "may_open_gift",
    "turns/72",
    "window_cx/72 (the window centre's x)",
    "window_cy/72",
    "features (40: learn::features::FEATURES of the viewer, each / its FEATURE_SCALES entry)",
];

/// What each of the position features ([`FEATURES`], in that order) is
/// divided by in the globals: round figures near each one's spread over
/// 2-player games (tiles and points of one game), so that the inputs are
/// of order 1.
pub const FEATURE_SCALES: [f32; FEATURE_COUNT] = [
    72.0, // tiles_left
    100.0, 100.0, 100.0, 100.0, // score_me, score_rival, end_now_me, end_now_rival
    10.0,  // lead_x_left
    7.0, 7.0, 7.0, 7.0, // supply_me, supply_rival, their x_left
    3.0, 10.0, 3.0, 10.0, // roads_me, road_value_me, roads_rival, road_value_rival
    3.0, 20.0, 3.0, 20.0, // cities
    3.0, 10.0, 3.0, 10.0, // monasteries
    3.0, 20.0, 3.0, 20.0, // farms
    2.0, 2.0, 2.0, 2.0, // road chance and dead, me and rival
    2.0, 2.0, 2.0, 2.0, // city
    2.0, 2.0, 2.0, 2.0, // monastery
    5.0, 5.0, // gifts_me, gifts_rival
];

/// Numbers of the globals before the position features (all of
/// version 1's globals).
/// The globals before the position features (columns `0..BASE_GLOBALS`):
/// what a network without the hand-made features reads.
pub const BASE_GLOBALS: usize =
    FIRST_SEAT_BLOCK + MAX_PLAYERS * SEAT_BLOCK + 2 + 24 + 2 + 5 + 5 + 3 + 1 + 2;

/// Numbers of the globals.
pub const GLOBAL_FEATURES: usize = BASE_GLOBALS + FEATURE_COUNT;

/// The names of an action's numbers, in order.
pub const ACTION_COLUMNS: [&str; 13] = [
    "kind (3, one-hot: place, open_gift, keep_tile)",
    "gift (5, one-hot: the card opened)",
    "meeple (5, one-hot: none, road, city, monastery, field)",
    "rotation (4, one-hot)",
    "slot (3, one-hot: hand slot of the tile placed)",
    "tile (24, one-hot: the tile placed or kept)",
    "dx/7 (the cell's column from the window centre)",
    "dy/7",
    "outside (1 when the cell lies outside the window)",
    "gain_self/10 (change of the seat's end-now total, 2 more for a gift card the move earns)",
    "gain_others/10 (largest change of another seat's)",
    "lead_after/50 (end-now total right after, with an earned gift card, less the best other seat's)",
    "meeple_complete (1 when the meeple's feature is complete at once)",
];

/// Numbers per action.
pub const ACTION_FEATURES: usize = 3 + 5 + 5 + 4 + 3 + 24 + 3 + 3 + 1;

/// An action's first numbers that are one-hot (kind, gift, meeple,
/// rotation, slot, tile: each 0 or 1); the encoder also gives which of
/// them are 1 as a set (bit `j`: column `j`), which the forward pass
/// reads instead of scanning them.
pub const ONE_HOT_FEATURES: usize = 3 + 5 + 5 + 4 + 3 + 24;

/// A position's numbers: the board window and the globals.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionInput {
    /// [`BOARD_FEATURES`] numbers (cell-major: cell, then channel).
    pub board: Vec<f32>,
    /// [`GLOBAL_FEATURES`] numbers.
    pub globals: Vec<f32>,
}

/// One action's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionInput {
    /// [`ACTION_FEATURES`] numbers.
    pub features: Vec<f32>,
    /// The window cell it acts on (`0..CELLS`; clamped into the window).
    pub cell: u32,
}

/// The window's centre: the middle of the placed tiles' bounding box.
fn centre(view: &SeatView<'_>) -> (i32, i32) {
    let tiles = view.board().tiles();
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for p in tiles {
        let (x, y) = (p.pos.x as i32, p.pos.y as i32);
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if tiles.is_empty() {
        return (0, 0);
    }
    ((x0 + x1).div_euclid(2), (y0 + y1).div_euclid(2))
}

/// The window cell of `pos` for a window centred on `c`, and whether it
/// lies inside (outside cells are clamped to the border).
fn cell_of(c: (i32, i32), pos: Pos) -> (u32, bool) {
    let dx = pos.x as i32 - c.0;
    let dy = pos.y as i32 - c.1;
    let inside = dx.abs() <= HALF && dy.abs() <= HALF;
    let col = (dx.clamp(-HALF, HALF) + HALF) as usize;
    let row = (HALF - dy.clamp(-HALF, HALF)) as usize;
    ((row * WINDOW + col) as u32, inside)
}

/// Encode the position of `view` (see the module doc).
pub fn encode_position(view: &SeatView<'_>) -> PositionInput {
    let mut out = PositionInput {
        board: Vec::new(),
        globals: Vec::new(),
    };
    encode_position_into(view, &mut out);
    out
}

/// [`encode_position`] into `out`, its buffers reused (no allocation
/// once they have their sizes).
pub fn encode_position_into(view: &SeatView<'_>, out: &mut PositionInput) {
    encode_position_with_into(view, &view.end_now_scores(), out);
}

/// [`encode_position_into`] given the position's end-now scores
/// ([`SeatView::end_now_scores`]; [`ActionEncoder::encode_into`] returns
/// them), so that they are computed once.
pub fn encode_position_with_into(
    view: &SeatView<'_>,
    end_now: &PerSeat<Score>,
    out: &mut PositionInput,
) {
    let c = centre(view);
    board_into(view, c, &mut out.board);
    globals_into(
        view,
        c,
        end_now,
        Some(&extract_with(view, end_now)),
        &mut out.globals,
    );
}

/// The globals of [`encode_position`] into `g` (cleared first): all a
/// network without the board reads.
pub fn encode_globals_into(view: &SeatView<'_>, g: &mut Vec<f32>) {
    encode_globals_with_into(view, &view.end_now_scores(), g);
}

/// [`encode_globals_into`] given the position's end-now scores
/// ([`SeatView::end_now_scores`]; [`ActionEncoder::encode_into`] returns
/// them), so that they are computed once.
pub fn encode_globals_with_into(view: &SeatView<'_>, end_now: &PerSeat<Score>, g: &mut Vec<f32>) {
    globals_into(
        view,
        centre(view),
        end_now,
        Some(&extract_with(view, end_now)),
        g,
    );
}

/// The parts of a position's input a network reads
/// ([`crate::neural::NetConfig`]'s `board` and `features`): what
/// [`encode_read_in`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reads {
    /// The board window ([`PositionInput::board`]).
    pub board: bool,
    /// The 40 position features at the end of the globals.
    pub features: bool,
}

/// [`encode_position_into`] for a network that reads `reads`, the
/// end-now scores and the position features' values read from `end_now`
/// (the view's [`SeatView::end_now`], shared with
/// [`ActionEncoder::encode_in`]: computed once for both). What the network
/// does not read is not computed: without the board, `out.board` is left
/// as it is; without the features, their columns of the globals are 0
/// (the globals keep their length, [`GLOBAL_FEATURES`]).
pub fn encode_read_in(
    view: &SeatView<'_>,
    end_now: &mut SeatEndNow<'_>,
    reads: Reads,
    out: &mut PositionInput,
) {
    let c = centre(view);
    if reads.board {
        board_into(view, c, &mut out.board);
    }
    let scores = end_now.scores();
    let x = reads.features.then(|| extract_in(view, end_now));
    globals_into(view, c, &scores, x.as_ref(), &mut out.globals);
}

/// The board window into `board` (cleared first), centred on `c`.
fn board_into(view: &SeatView<'_>, c: (i32, i32), board: &mut Vec<f32>) {
    board.clear();
    board.resize(BOARD_FEATURES, 0.0);
    let players = view.players();
    let me = view.seat();
    let rules = view.rules();
    let features = view.features();
    // Off-table and open cells of the window.
    for row in 0..WINDOW {
        for col in 0..WINDOW {
            let x = c.0 + col as i32 - HALF;
            let y = c.1 - (row as i32 - HALF);
            let at = &mut board[(row * WINDOW + col) * CELL_CHANNELS..][..CELL_CHANNELS];
            let on_grid = i8::try_from(x).is_ok() && i8::try_from(y).is_ok();
            if !on_grid {
                at[2] = 1.0;
                continue;
            }
            let pos = Pos::new(x as i8, y as i8);
            if rules.table.is_some() && !view.on_table(pos) {
                at[2] = 1.0;
            }
            if view.board().is_open(pos) {
                at[1] = 1.0;
            }
        }
    }
    let mine_or_others = |root| {
        let on = view.meeples_on(root);
        let mine = on[me] > 0;
        let others = (0..players).any(|s| s != me.index() && on[engine::Seat(s as u8)] > 0);
        (mine, others)
    };
    for (slot, placed) in view.board().tiles().iter().enumerate() {
        let (cell, inside) = cell_of(c, placed.pos);
        if !inside {
            continue;
        }
        let at = &mut board[cell as usize * CELL_CHANNELS..][..CELL_CHANNELS];
        at[0] = 1.0;
        let o = placed.tile.oriented(placed.rot);
        let def = placed.tile.def();
        for side in 0..4 {
            match o.edges[side] {
                engine::Edge::City => at[3 + side] = 1.0,
                engine::Edge::Road => at[7 + side] = 1.0,
                engine::Edge::Field => {}
            }
            let seg = o.edge_segment[side];
            if seg != NO_SEGMENT {
                let id = segment_id(slot, seg);
                let root = features.root(id);
                let (mine, others) = mine_or_others(root);
                at[13 + side] = mine as u8 as f32;
                at[17 + side] = others as u8 as f32;
                at[21 + side] = view.is_complete(id) as u8 as f32;
            }
        }
        if def.segments.iter().any(|s| s.shield) {
            at[12] = 1.0;
        }
        if o.monastery != NO_SEGMENT {
            at[11] = 1.0;
            let id = segment_id(slot, o.monastery);
            let (mine, others) = mine_or_others(features.root(id));
            at[25] = mine as u8 as f32;
            at[26] = others as u8 as f32;
            at[27] = placed.surrounded as f32 / 8.0;
        }
        for (i, s) in def.segments.iter().enumerate() {
            if s.kind == FeatureKind::Field {
                let (mine, others) = mine_or_others(features.root(segment_id(slot, i as u8)));
                at[28] = at[28].max(mine as u8 as f32);
                at[29] = at[29].max(others as u8 as f32);
            }
        }
    }
    for m in view.meeples() {
        let placed = view.board().placed(m.slot());
        let (cell, inside) = cell_of(c, placed.pos);
        if inside {
            let ch = if m.seat == me { 30 } else { 31 };
            board[cell as usize * CELL_CHANNELS + ch] = 1.0;
        }
    }
}

/// Where the rules' numbers ([`rules_globals`]) start in the globals.
pub(crate) const FIRST_RULES_GLOBAL: usize = 5;

/// The ten numbers of the globals that encode `rules`.
pub(crate) fn rules_globals(rules: &engine::Rules) -> [f32; 10] {
    let b = |v: bool| v as u8 as f32;
    [
        b(rules.farmers),
        b(rules.gifts),
        rules.hand as f32 / 3.0,
        b(rules.hand_visible),
        b(rules.start_in_bag),
        b(rules.hole_bonus),
        b(rules.final_incomplete),
        b(rules.table.is_some()),
        b(rules.table_closes),
        b(rules.unplaceable == engine::Unplaceable::Return),
    ]
}

/// The globals into `g` (cleared first), the window centred on `c`,
/// `end_now` the position's end-now scores and `x` its position features
/// (0 when `None`: a network that does not read them).
fn globals_into(
    view: &SeatView<'_>,
    c: (i32, i32),
    end_now: &PerSeat<Score>,
    x: Option<&FeatureVector>,
    g: &mut Vec<f32>,
) {
    let players = view.players();
    let me = view.seat();
    let rules = view.rules();
    g.clear();
    for p in 2..=6 {
        g.push((players == p) as u8 as f32);
    }
    let b = |v: bool| v as u8 as f32;
    g.extend(rules_globals(&rules));
    let phase = view.phase();
    g.extend([
        b(matches!(phase, Phase::Place(_))),
        b(matches!(phase, Phase::Choose(..))),
        b(matches!(phase, Phase::PlaceHand)),
        b(!matches!(
            phase,
            Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand
        )),
    ]);
    let mut to_place = [0.0f32; Tile::COUNT];
    let mut held = [0.0f32; Tile::COUNT];
    let own = view.own_tiles();
    for t in own.iter() {
        held[t.index()] += 1.0;
    }
    match phase {
        Phase::Place(t) => to_place[t.index()] += 1.0,
        Phase::Choose(a, b2) => {
            to_place[a.index()] += 1.0;
            to_place[b2.index()] += 1.0;
        }
        Phase::PlaceHand if view.to_play() == me => to_place = held,
        _ => {}
    }
    g.extend(to_place);
    g.extend(held);
    let total = |s: usize| view.score(engine::Seat(s as u8)).total() as f32;
    let end_total = |s: usize| end_now[engine::Seat(s as u8)].total() as f32;
    for k in 0..MAX_PLAYERS {
        if k >= players {
            g.extend([0.0; SEAT_BLOCK]);
            continue;
        }
        let s = (me.index() + k) % players;
        let seat = engine::Seat(s as u8);
        g.extend([
            1.0,
            total(s) / 100.0,
            end_total(s) / 100.0,
            (end_total(s) - total(s)) / 50.0,
            view.supply(seat) as f32 / 7.0,
            view.hand_size(seat) as f32 / 5.0,
            view.tiles_held(seat) as f32 / 3.0,
        ]);
    }
    let best_other = |f: &dyn Fn(usize) -> f32| {
        (0..players)
            .filter(|&s| s != me.index())
            .map(f)
            .fold(f32::MIN, f32::max)
    };
    g.push((total(me.index()) - best_other(&total)) / 50.0);
    g.push((end_total(me.index()) - best_other(&end_total)) / 50.0);
    let unseen = view.unseen_tiles();
    for t in Tile::ALL {
        g.push(unseen.count(t) as f32 / t.def().count as f32);
    }
    g.push(unseen.total() as f32 / 72.0);
    g.push(view.bag().total() as f32 / 72.0);
    let own_gifts = view.own_hand();
    let discard = view.gift_discard();
    for gift in Gift::ALL {
        g.push(own_gifts.count(gift) as f32 / 5.0);
    }
    for gift in Gift::ALL {
        g.push(discard.count(gift) as f32 / 5.0);
    }
    g.push(view.gift_deck_size() as f32 / 25.0);
    g.push(b(view.gift_opened()));
    g.push(b(view.may_open_gift()));
    g.push(view.turns() as f32 / 72.0);
    g.push(c.0 as f32 / 72.0);
    g.push(c.1 as f32 / 72.0);
    match x {
        Some(x) => g.extend(x.iter().zip(FEATURE_SCALES).map(|(&x, s)| x as f32 / s)),
        None => g.extend([0.0; FEATURE_COUNT]),
    }
    debug_assert_eq!(g.len(), GLOBAL_FEATURES);
}

mod actions;
pub use actions::{encode_actions, ActionEncoder};

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::features::extract;
    use crate::test_support::{random_decisions, random_play_until};
    use engine::{Action, Rules, Seat, State};
    use rand::SeedableRng;
    use testkit::StateExt;

    fn gifts_midgame(players: usize, seed: u64) -> State {
        let rules: Rules = "gifts=true".parse().unwrap();
        random_play_until(players, rules, seed, |s| s.turns() > 20)
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// The fast encoder gives the reference encoder's numbers bit for bit
    /// (encoding version 1 must not move: data sets and networks depend
    /// on it), on every few decisions of whole random games under many
    /// rules and seat counts, the last decision of each game included.
    #[test]
    fn the_encoding_equals_the_reference_bit_for_bit() {
        let mut encoder = ActionEncoder::default();
        let mut position = encode_position(&State::new(Rules::default(), 2, Seat(0)).view(Seat(0)));
        let (mut features, mut cells) = (Vec::new(), Vec::new());
        let mut count = 0;
        let mut back = [0; 5];
        for (rules, players, seed) in [
            ("", 2, 1u64),
            ("", 2, 2),
            ("gifts=true", 2, 3),
            ("gifts=true", 3, 4),
            ("gifts=true,farmers=false", 5, 5),
            ("farmers=false", 4, 6),
            ("hand=2", 3, 7),
            ("hand=3,hand_visible=true", 2, 8),
            ("table=7x7,unplaceable=return,hand=1", 2, 9),
            (
                "hole_bonus=true,final_incomplete=true,start_in_bag=true",
                6,
                10,
            ),
        ] {
            let rules: Rules = rules.parse().unwrap();
            for state in random_decisions(players, rules, seed, 2) {
                let view = state.view(state.to_play());
                let actions = state.legal_actions();
                let want_p = reference::encode_position(&view);
                let want_a = reference::encode_actions(&view, &actions);
                // Into buffers that held another position.
                encode_position_into(&view, &mut position);
                assert_eq!(bits(&position.board), bits(&want_p.board), "{rules} board");
                assert_eq!(
                    bits(&position.globals),
                    bits(&want_p.globals),
                    "{rules} globals"
                );
                features.clear();
                cells.clear();
                encoder.encode_into(&view, &actions, &mut features, &mut cells);
                let want_f: Vec<f32> = want_a.iter().flat_map(|a| a.features.clone()).collect();
                let want_c: Vec<u32> = want_a.iter().map(|a| a.cell).collect();
                assert_eq!(bits(&features), bits(&want_f), "{rules} actions");
                assert_eq!(cells, want_c, "{rules} cells");
                // With one end-now preparation shared (the evaluator's way).
                let mut end_now = view.end_now();
                features.clear();
                cells.clear();
                let mut one_hot = vec![u64::MAX];
                encoder.encode_in(
                    &view,
                    &mut end_now,
                    &actions,
                    &mut features,
                    &mut cells,
                    &mut one_hot,
                );
                let all = Reads {
                    board: true,
                    features: true,
                };
                encode_read_in(&view, &mut end_now, all, &mut position);
                assert_eq!(bits(&features), bits(&want_f), "{rules} actions, shared");
                // The one-hot sets: which of each action's one-hot
                // columns are 1, appended; the others are 0.
                assert_eq!(one_hot.len(), actions.len() + 1, "{rules} one-hot sets");
                for (f, &set) in want_f.chunks_exact(ACTION_FEATURES).zip(&one_hot[1..]) {
                    for (j, &x) in f[..ONE_HOT_FEATURES].iter().enumerate() {
                        let want = if set >> j & 1 == 1 { 1.0 } else { 0.0 };
                        assert_eq!(
                            x.to_bits(),
                            f32::to_bits(want),
                            "{rules} one-hot column {j}"
                        );
                    }
                    assert_eq!(set >> ONE_HOT_FEATURES, 0, "{rules} one-hot sets");
                }
                assert_eq!(cells, want_c, "{rules} cells, shared");
                assert_eq!(
                    bits(&position.board),
                    bits(&want_p.board),
                    "{rules} board, shared"
                );
                assert_eq!(
                    bits(&position.globals),
                    bits(&want_p.globals),
                    "{rules} globals, shared"
                );
                // What a network reads, alone: the board untouched when it
                // is not read, the features' columns 0 when they are not.
                for board in [false, true] {
                    for with_features in [false, true] {
                        let reads = Reads {
                            board,
                            features: with_features,
                        };
                        let mut got = PositionInput {
                            board: vec![7.0],
                            globals: Vec::new(),
                        };
                        encode_read_in(&view, &mut view.end_now(), reads, &mut got);
                        let want_board = if board { &want_p.board[..] } else { &[7.0] };
                        assert_eq!(bits(&got.board), bits(want_board), "{rules} {reads:?}");
                        let mut want_g = want_p.globals.clone();
                        if !with_features {
                            want_g[BASE_GLOBALS..].fill(0.0);
                        }
                        assert_eq!(bits(&got.globals), bits(&want_g), "{rules} {reads:?}");
                    }
                }
                for f in features.chunks_exact(ACTION_FEATURES) {
                    // Meeple kind (road, city, monastery, field) of the
                    // actions whose meeple comes back at once.
                    for k in 1..5 {
                        if f[8 + k] == 1.0 && f[50] == 1.0 {
                            back[k] += 1;
                        }
                    }
                }
                assert_eq!(encode_actions(&view, &actions), want_a);
                count += 1;
            }
        }
        assert!(count > 300, "{count} positions");
        // Every way a meeple comes back was met: its own road or city
        // completed, and (a meeple on a field) another of the seat's.
        assert!(back[1] > 0 && back[2] > 0 && back[4] > 0, "{back:?}");
    }

    /// A placement that earns a gift card counts the card's 2 points in
    /// the mover's gain and lead (encoding version 3); met in the
    /// decisions of a random game of The Gifts.
    #[test]
    fn a_move_that_earns_a_gift_card_counts_its_points() {
        let rules: Rules = "gifts=true".parse().unwrap();
        let (mut earning, mut not) = (0, 0);
        for state in random_decisions(2, rules, 11, 1) {
            let me = state.to_play();
            let actions = state.legal_actions();
            let mut end_now = state.end_now();
            let base = end_now.valued_scores()[me].total() as f32;
            let inputs = encode_actions(&state.view(me), &actions);
            for (&action, input) in actions.iter().zip(inputs) {
                let plain = end_now.after(action)[me].total() as f32 - base;
                let mut next = state.clone();
                next.play_action_unchecked(action);
                let earns = next.phase() == Phase::DrawGift;
                let extra = input.features[47] * 10.0 - plain;
                let want = if earns { 2.0 } else { 0.0 };
                assert!((extra - want).abs() < 1e-4, "{action:?}: {extra} more");
                *(if earns { &mut earning } else { &mut not }) += 1;
            }
        }
        assert!(earning > 0 && not > 0, "{earning} earning, {not} not");
    }

    #[test]
    fn sizes_match_the_column_lists() {
        let state = gifts_midgame(3, 4);
        let view = state.view(state.to_play());
        let p = encode_position(&view);
        assert_eq!(p.board.len(), BOARD_FEATURES);
        assert_eq!(p.globals.len(), GLOBAL_FEATURES);
        let actions = state.legal_actions();
        for a in encode_actions(&view, &actions) {
            assert_eq!(a.features.len(), ACTION_FEATURES);
            assert!((a.cell as usize) < CELLS);
            assert!(a.features.iter().all(|v| v.is_finite()));
        }
        assert!(p.board.iter().chain(&p.globals).all(|v| v.is_finite()));
    }

    /// The globals end with the position features of the linear value
    /// models, in their order, each divided by its scale.
    #[test]
    fn the_globals_end_with_the_scaled_position_features() {
        let state = gifts_midgame(2, 7);
        let view = state.view(state.to_play());
        let globals = encode_position(&view).globals;
        let tail = &globals[GLOBAL_FEATURES - FEATURE_COUNT..];
        let x = extract(&view);
        for (i, (&got, &want)) in tail.iter().zip(&x).enumerate() {
            assert_eq!(got, want as f32 / FEATURE_SCALES[i], "feature {i}");
        }
        assert!(tail.iter().filter(|&&v| v != 0.0).count() > 10);
    }

    /// Two complete states that differ only in what the seat to play
    /// cannot see (other seats' cards and hidden tiles, the order of the
    /// gift deck) give the same input.
    #[test]
    fn hidden_information_cannot_change_the_encoding() {
        for (rules, players, seed) in [
            ("gifts=true", 2, 1u64),
            ("gifts=true", 4, 2),
            ("hand=2", 3, 3),
        ] {
            let rules: Rules = rules.parse().unwrap();
            // A position where the next seat holds a gift card (or, with
            // a hand, hidden tiles).
            let state = random_play_until(players, rules, seed, |s| {
                let next = Seat(((s.to_play().index() + 1) % players) as u8);
                s.turns() > 8 && (rules.hand > 0 || s.view(next).own_hand().total() > 0)
            });
            let me = state.to_play();
            let view = state.view(me);
            let actions = view.state_actions();
            let want = (encode_position(&view), encode_actions(&view, &actions));
            let other = Seat(((me.index() + 1) % players) as u8);
            let mut differed = false;
            for k in 0..8 {
                let det = view.determinize(&mut rand_pcg::Pcg64Mcg::seed_from_u64(100 + k));
                let (theirs, mine) = (det.view(other), state.view(other));
                differed |=
                    theirs.own_hand() != mine.own_hand() || theirs.own_tiles() != mine.own_tiles();
                let v = det.view(me);
                assert_eq!(v.state_actions(), actions);
                let got = (encode_position(&v), encode_actions(&v, &actions));
                assert!(
                    got == want,
                    "{rules} {players}p: determinization {k} changes the input"
                );
            }
            assert!(
                differed,
                "{rules} {players}p: the hidden information never differed"
            );
        }
    }

    trait Actions {
        fn state_actions(&self) -> Vec<Action>;
    }

    impl Actions for SeatView<'_> {
        fn state_actions(&self) -> Vec<Action> {
            let mut out = Vec::new();
            self.for_each_action(|a| out.push(a));
            out
        }
    }

    #[test]
    fn the_input_is_seat_relative() {
        let state = gifts_midgame(3, 9);
        let me = state.to_play();
        let g = encode_position(&state.view(me)).globals;
        // Block 0 is the viewer: its score and supply.
        let block0 = 5 + 10 + 4 + 24 + 24;
        assert_eq!(g[block0], 1.0);
        assert_eq!(g[block0 + 1], state.score(me).total() as f32 / 100.0);
        let next = Seat(((me.index() + 1) % 3) as u8);
        assert_eq!(
            g[block0 + SEAT_BLOCK + 1],
            state.score(next).total() as f32 / 100.0
        );
        assert_eq!(g[block0 + 4], state.supply(me) as f32 / 7.0);
        // Seats 4–6 are absent.
        assert!(g[block0 + 3 * SEAT_BLOCK..block0 + 6 * SEAT_BLOCK]
            .iter()
            .all(|&v| v == 0.0));
    }

    #[test]
    fn the_start_tile_sits_in_the_middle_of_the_window() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::U).unwrap();
        let p = encode_position(&state.view(Seat(0)));
        let centre = (HALF as usize * WINDOW + HALF as usize) * CELL_CHANNELS;
        assert_eq!(p.board[centre], 1.0, "tile");
        assert_eq!(p.board[centre + 3], 1.0, "the start tile's city is north");
        let tiles: f32 = (0..CELLS).map(|c| p.board[c * CELL_CHANNELS]).sum();
        assert_eq!(tiles, 1.0);
        let open: f32 = (0..CELLS).map(|c| p.board[c * CELL_CHANNELS + 1]).sum();
        assert_eq!(open, 4.0);
    }
}
