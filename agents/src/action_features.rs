//! Per-action features: one row of numbers per legal action of the
//! current decision, for learners that score actions rather than
//! positions (a policy over the legal actions, an afterstate value).
//!
//! [`for_each_row`] walks the legal actions of a position in the order of
//! [`State::for_each_action`] (the order of [`State::legal_actions`]) and
//! gives each with its row of [`COLUMN_COUNT`] numbers, named by
//! [`COLUMNS`]. Everything is seen from the seat to play (the *mover*);
//! "others" are the other seats. Everything about a placement comes from
//! the engine without playing it: one [`State::end_now`] shared by all
//! the actions of the position, and for each placement move
//! [`EndNow::effects`](engine::EndNow::effects) — the placement's overlay
//! of the feature union-find (the groups its tile's segments make with
//! the features they join, their counters and meeples per seat), which
//! the meeple choices of one placement share, gives the points scored at
//! once, the supply after, the completions, the feature sizes, the
//! meeple's feature and the end-now scores after it; no copy of the
//! position is made and nothing is allocated. A gift opening or Take 2's
//! choice (a few per decision at most) is played on a copy. The columns
//! are bit for bit those of `reference::for_each_row`, which plays each
//! placement on a copy (the way they were computed before; the tests
//! hold the two equal over random positions of every rule variant). The
//! encoding is versioned ([`VERSION`]): a change of a column's meaning or
//! of the order is a new version.
//!
//! | column | name | value |
//! |---|---|---|
//! | 0 | `place` | 1 for a tile placement |
//! | 1 | `open_gift` | 1 for opening a gift card (The Gifts) |
//! | 2 | `keep_tile` | 1 for keeping a tile (Take 2's choice) |
//! | 3 | `meeple` | 1 if the placement puts a meeple on the new tile |
//! | 4–7 | `meeple_road`, `meeple_city`, `meeple_monastery`, `meeple_field` | 1 for the kind of feature the meeple goes on |
//! | 8 | `points_self` | points the mover scores at once (its total's change) |
//! | 9 | `points_others` | the most points another seat scores at once |
//! | 10 | `gain_self` | change of the mover's end-now total ([`EndNow::after`](engine::EndNow::after) less the position's) |
//! | 11 | `gain_others` | the largest change of another seat's end-now total |
//! | 12 | `lead_after` | the mover's end-now total right after, less the best other seat's (the `greedy` agent's value) |
//! | 13 | `meeple_feature_tiles` | tiles of the meeple's feature right after (monastery: tiles of its 3×3 square) |
//! | 14 | `meeple_feature_value` | points the meeple's feature is worth right after ([`State::feature_value`]) |
//! | 15 | `meeple_feature_complete` | 1 if the meeple's feature is complete (scored at once, the meeple back) |
//! | 16 | `completed` | roads, cities and monasteries the placement completes (with meeples or not) |
//! | 17 | `city_tiles` | tiles of the largest city the new tile is part of (0: none) |
//! | 18 | `road_tiles` | tiles of the longest road the new tile is part of (0: none) |
//! | 19 | `neighbours` | tiles on the four cells next to the new tile's (1–4) |
//! | 20 | `supply_after` | the mover's meeples in supply right after |
//! | 21 | `x` | the new tile's column (the start tile is at 0) |
//! | 22 | `y` | its row (north is +1) |
//! | 23 | `rotation` | its rotation, 0–3 quarter turns clockwise |
//! | 24 | `hand_slot` | the hand slot of the tile placed (0 without a hand) |
//!
//! Columns 3–7, 13–19 and 21–24 are 0 for a gift opening or a tile kept; points
//! and end-now columns are those of the action itself (a gift opening
//! before its placement). Feature sizes count tiles, values count points
//! (a completed city doubles, as scored).

use engine::{Action, FeatureKind, PerSeat, PlaceEffects, Score, Seat, State};

/// The version of the encoding: 1.
pub const VERSION: u32 = 1;

/// The columns' names, in order (see the module doc).
pub const COLUMNS: [&str; 25] = [
    "place",
    "open_gift",
    "keep_tile",
    "meeple",
    "meeple_road",
    "meeple_city",
    "meeple_monastery",
    "meeple_field",
    "points_self",
    "points_others",
    "gain_self",
    "gain_others",
    "lead_after",
    "meeple_feature_tiles",
    "meeple_feature_value",
    "meeple_feature_complete",
    "completed",
    "city_tiles",
    "road_tiles",
    "neighbours",
    "supply_after",
    "x",
    "y",
    "rotation",
    "hand_slot",
];

/// Numbers per action.
pub const COLUMN_COUNT: usize = COLUMNS.len();

/// One action's features.
pub type Row = [f32; COLUMN_COUNT];

/// Column indices, by name.
pub mod col {
    #![allow(missing_docs)]
    pub const PLACE: usize = 0;
    pub const OPEN_GIFT: usize = 1;
    pub const KEEP_TILE: usize = 2;
    pub const MEEPLE: usize = 3;
    pub const MEEPLE_ROAD: usize = 4;
    pub const POINTS_SELF: usize = 8;
    pub const POINTS_OTHERS: usize = 9;
    pub const GAIN_SELF: usize = 10;
    pub const GAIN_OTHERS: usize = 11;
    pub const LEAD_AFTER: usize = 12;
    pub const MEEPLE_FEATURE_TILES: usize = 13;
    pub const MEEPLE_FEATURE_VALUE: usize = 14;
    pub const MEEPLE_FEATURE_COMPLETE: usize = 15;
    pub const COMPLETED: usize = 16;
    pub const CITY_TILES: usize = 17;
    pub const ROAD_TILES: usize = 18;
    pub const NEIGHBOURS: usize = 19;
    pub const SUPPLY_AFTER: usize = 20;
    pub const X: usize = 21;
    pub const Y: usize = 22;
    pub const ROTATION: usize = 23;
    pub const HAND_SLOT: usize = 24;
}

/// Calls `f` with every legal action of `state` (in the order of
/// [`State::for_each_action`]) and its features. Nothing is called at a
/// chance event or at the end.
///
/// # Examples
/// ```
/// use agents::action_features::{for_each_row, col};
/// use engine::{Action, Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mut rows = 0;
/// for_each_row(&state, |action, row| {
///     rows += 1;
///     assert!(matches!(action, Action::Place(_)) && row[col::PLACE] == 1.0);
/// });
/// assert_eq!(rows, state.legal_actions().len());
/// ```
pub fn for_each_row(state: &State, mut f: impl FnMut(Action, &Row)) {
    if state.is_over() || state.is_chance() {
        return;
    }
    let me = state.to_play();
    let players = state.players();
    let mut end_now = state.end_now();
    let now = end_now.valued_scores();
    state.for_each_action(|action| {
        let (mut row, after) = match action {
            Action::Place(mv) => {
                let effects = end_now.effects(mv);
                (place_row(mv, &effects, me), effects.end_now)
            }
            Action::Open(_) | Action::Keep(_) => {
                // A gift opening or Take 2's choice (a few per decision):
                // played on a copy.
                (gift_row(state, action, me), end_now.after(action))
            }
        };
        end_now_columns(&now, &after, me, players, &mut row);
        f(action, &row);
    });
}

/// The row of placement `mv` from what it does ([`EndNow::effects`](engine::EndNow::effects); end-now
/// columns left 0).
fn place_row(mv: engine::Move, e: &PlaceEffects, me: Seat) -> Row {
    let mut row = [0.0; COLUMN_COUNT];
    row[col::PLACE] = 1.0;
    let mut others = 0;
    for (s, &p) in e.points.iter().enumerate() {
        if s != me.index() {
            others = others.max(p);
        }
    }
    row[col::POINTS_SELF] = e.points[me.index()] as f32;
    row[col::POINTS_OTHERS] = others as f32;
    row[col::SUPPLY_AFTER] = f32::from(e.supply_after);
    if let Some(m) = e.meeple {
        row[col::MEEPLE] = 1.0;
        row[col::MEEPLE_ROAD + kind_offset(m.kind)] = 1.0;
        row[col::MEEPLE_FEATURE_TILES] = f32::from(m.tiles);
        row[col::MEEPLE_FEATURE_VALUE] = m.value as f32;
        row[col::MEEPLE_FEATURE_COMPLETE] = f32::from(u8::from(m.complete));
    }
    row[col::COMPLETED] = f32::from(e.completed);
    row[col::CITY_TILES] = f32::from(e.city_tiles);
    row[col::ROAD_TILES] = f32::from(e.road_tiles);
    row[col::NEIGHBOURS] = f32::from(e.neighbours);
    let placement = mv.placement;
    row[col::X] = f32::from(placement.pos.x);
    row[col::Y] = f32::from(placement.pos.y);
    row[col::ROTATION] = f32::from(placement.rot.quarter_turns());
    row[col::HAND_SLOT] = f32::from(placement.slot);
    row
}

/// Columns 4–7: the offset of a meeple's feature kind from `meeple_road`.
fn kind_offset(kind: FeatureKind) -> usize {
    match kind {
        FeatureKind::Road => 0,
        FeatureKind::City => 1,
        FeatureKind::Monastery => 2,
        FeatureKind::Field => 3,
    }
}

/// The end-now columns: `after` (the end-now scores right after the
/// action) against `now` (the position's).
fn end_now_columns(
    now: &PerSeat<Score>,
    after: &PerSeat<Score>,
    me: Seat,
    players: usize,
    row: &mut Row,
) {
    let gain = |s: usize| {
        let seat = Seat(s as u8);
        i64::from(after[seat].total()) - i64::from(now[seat].total())
    };
    let (mut gain_others, mut best_other) = (i64::MIN, u32::MIN);
    for s in (0..players).filter(|&s| s != me.0 as usize) {
        gain_others = gain_others.max(gain(s));
        best_other = best_other.max(after[Seat(s as u8)].total());
    }
    row[col::GAIN_SELF] = gain(me.0 as usize) as f32;
    row[col::GAIN_OTHERS] = gain_others as f32;
    row[col::LEAD_AFTER] = after[me].total() as f32 - best_other as f32;
}

/// Every legal action of `state` with its features ([`for_each_row`]).
pub fn rows(state: &State) -> Vec<(Action, Row)> {
    let mut out = Vec::new();
    for_each_row(state, |a, r| out.push((a, *r)));
    out
}

/// The immediate points columns: what `next` adds to `state`'s totals.
fn points_columns(state: &State, next: &State, row: &mut Row) {
    let me = state.to_play();
    let mut others = 0i64;
    for s in 0..state.players() {
        let seat = Seat(s as u8);
        let d = i64::from(next.score(seat).total()) - i64::from(state.score(seat).total());
        if seat == me {
            row[col::POINTS_SELF] = d as f32;
        } else {
            others = others.max(d);
        }
    }
    row[col::POINTS_OTHERS] = others as f32;
}

/// The row of a gift opening or Take 2's choice (`action`, by the seat
/// `me`), played on a copy of the position.
fn gift_row(state: &State, action: Action, me: Seat) -> Row {
    let mut row = [0.0; COLUMN_COUNT];
    let mut next = state.clone();
    next.play_action_unchecked(action);
    points_columns(state, &next, &mut row);
    row[col::SUPPLY_AFTER] = f32::from(next.supply(me));
    row[if matches!(action, Action::Open(_)) {
        col::OPEN_GIFT
    } else {
        col::KEEP_TILE
    }] = 1.0;
    row
}

/// The columns computed by playing each placement on a copy of the
/// position (the way they were computed before [`EndNow::effects`](engine::EndNow::effects)): the
/// oracle the tests hold [`for_each_row`] to, and the baseline its
/// benchmark compares with. Not for use elsewhere: it copies the state
/// once per placement.
#[doc(hidden)]
pub mod reference {
    use super::{col, gift_row, points_columns, Row, COLUMN_COUNT};
    use engine::{segment_id, Action, FeatureKind, Location, Pos, Seat, Side, State};

    /// What a placement (without its meeple) does, shared by its meeple
    /// choices: the position right after it and its columns.
    struct Placed {
        after: State,
        /// The new tile's board slot in `after`.
        slot: usize,
        row: Row,
    }

    /// [`super::for_each_row`], each placement (without its meeple) played
    /// on a copy of the position, its meeple choices read from that copy.
    pub fn for_each_row(state: &State, mut f: impl FnMut(Action, &Row)) {
        if state.is_over() || state.is_chance() {
            return;
        }
        let me = state.to_play();
        let players = state.players();
        let mut end_now = state.end_now();
        let now = end_now.valued_scores();
        let mut placed: Option<Placed> = None;
        let mut key = None;
        state.for_each_action(|action| {
            let after = end_now.after(action);
            let gain = |s: usize| {
                let seat = Seat(s as u8);
                i64::from(after[seat].total()) - i64::from(now[seat].total())
            };
            let mut row = match action {
                Action::Place(mv) => {
                    if key != Some(mv.placement) {
                        key = Some(mv.placement);
                        placed = Some(place(state, mv.placement));
                    }
                    let p = placed.as_ref().expect("prepared above");
                    let mut row = p.row;
                    if let Some(segment) = mv.meeple {
                        meeple_columns(&p.after, p.slot, segment, &mut row);
                        if p.after.is_over() {
                            // The last placement: final scoring counts the
                            // meeple too, so play it (once per game).
                            let mut next = state.clone();
                            next.play_action_unchecked(action);
                            points_columns(state, &next, &mut row);
                            row[col::SUPPLY_AFTER] = f32::from(next.supply(me));
                        }
                    }
                    row
                }
                Action::Open(_) | Action::Keep(_) => gift_row(state, action, me),
            };
            let (mut gain_others, mut best_other) = (i64::MIN, u32::MIN);
            for s in (0..players).filter(|&s| s != me.0 as usize) {
                gain_others = gain_others.max(gain(s));
                best_other = best_other.max(after[Seat(s as u8)].total());
            }
            row[col::GAIN_SELF] = gain(me.0 as usize) as f32;
            row[col::GAIN_OTHERS] = gain_others as f32;
            row[col::LEAD_AFTER] = after[me].total() as f32 - best_other as f32;
            f(action, &row);
        });
    }

    /// The columns of `placement` without a meeple (end-now columns left 0).
    fn place(state: &State, placement: engine::Placement) -> Placed {
        let me = state.to_play();
        let mut after = state.clone();
        after.play_action_unchecked(Action::Place(engine::Move {
            placement,
            meeple: None,
        }));
        let slot = after
            .board()
            .slot_at(placement.pos)
            .expect("the placed tile is on the board");
        let mut row = [0.0; COLUMN_COUNT];
        row[col::PLACE] = 1.0;
        points_columns(state, &after, &mut row);
        row[col::SUPPLY_AFTER] = f32::from(after.supply(me));
        row[col::X] = f32::from(placement.pos.x);
        row[col::Y] = f32::from(placement.pos.y);
        row[col::ROTATION] = f32::from(placement.rot.quarter_turns());
        row[col::HAND_SLOT] = f32::from(placement.slot);

        let p = after.board().placed(slot);
        let features = after.features();
        let (mut roots, mut n) = ([0; engine::MAX_SEGMENTS], 0);
        let (mut completed, mut city, mut road) = (0, 0, 0);
        for i in 0..p.tile.segment_count() as u8 {
            let id = segment_id(slot, i);
            let root = features.root(id);
            if roots[..n].contains(&root) {
                continue;
            }
            roots[n] = root;
            n += 1;
            match after.segment_kind(id) {
                FeatureKind::City => city = city.max(features.tiles(root)),
                FeatureKind::Road => road = road.max(features.tiles(root)),
                _ => {}
            }
            if matches!(
                after.segment_kind(id),
                FeatureKind::City | FeatureKind::Road
            ) && after.is_complete(id)
            {
                completed += 1;
            }
        }
        // Monasteries on the 3×3 square the new tile completes (each had
        // seven neighbours before; the new tile's own only if surrounded).
        let pos = placement.pos;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let at = Pos::new(pos.x + dx, pos.y + dy);
                if let Some(id) = after.segment_at(at, Location::Monastery) {
                    if after.is_complete(id) {
                        completed += 1;
                    }
                }
            }
        }
        let neighbours = Side::ALL
            .iter()
            .filter(|s| after.board().at(pos.step(**s)).is_some())
            .count();
        row[col::COMPLETED] = completed as f32;
        row[col::CITY_TILES] = f32::from(city);
        row[col::ROAD_TILES] = f32::from(road);
        row[col::NEIGHBOURS] = neighbours as f32;
        Placed { after, slot, row }
    }

    /// The meeple columns of a meeple on `segment` of the tile at `slot` of
    /// `after` (the placement played without it), and what the meeple changes
    /// in the points and supply columns.
    fn meeple_columns(after: &State, slot: usize, segment: u8, row: &mut Row) {
        let id = segment_id(slot, segment);
        let kind = after.segment_kind(id);
        let features = after.features();
        let root = features.root(id);
        let complete = after.is_complete(id);
        let value = after.feature_value(id);
        let tiles = match kind {
            FeatureKind::Monastery => 1 + u32::from(after.board().placed(slot).surrounded.min(8)),
            _ => u32::from(features.tiles(root)),
        };
        row[col::MEEPLE] = 1.0;
        row[col::MEEPLE_ROAD
            + match kind {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Monastery => 2,
                FeatureKind::Field => 3,
            }] = 1.0;
        row[col::MEEPLE_FEATURE_TILES] = tiles as f32;
        row[col::MEEPLE_FEATURE_VALUE] = value as f32;
        row[col::MEEPLE_FEATURE_COMPLETE] = f32::from(u8::from(complete));
        if complete {
            // The meeple's feature is scored at once, by the mover alone (a
            // meeple goes only on a feature nobody holds), and it comes back.
            row[col::POINTS_SELF] += value as f32;
        } else {
            row[col::SUPPLY_AFTER] -= 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentRng;
    use engine::{random_action, segment_id, Location, Pos, Rules, Side};
    use rand::{Rng, SeedableRng};

    /// Every column of every legal action against the position the action
    /// makes (clone and apply), over random games of the base game, The
    /// Gifts, hands of tiles and house rules.
    #[test]
    fn columns_match_clone_and_apply() {
        let variants = [
            "",
            "gifts=true",
            "hand=3,hand_visible=true",
            "farmers=false,hole_bonus=true,final_incomplete=false",
        ];
        let mut checked = 0;
        for (v, text) in variants.iter().enumerate() {
            let rules: Rules = text.parse().unwrap();
            for game in 0..6u64 {
                let players = 2 + (game as usize % 3);
                let mut rng = AgentRng::seed_from_u64(game * 31 + v as u64);
                let mut state = State::new(rules, players, Seat(0));
                while !state.is_over() {
                    if state.is_chance() {
                        state.apply_chance(&mut rng);
                        continue;
                    }
                    let rows = rows(&state);
                    let legal = state.legal_actions();
                    assert_eq!(rows.len(), legal.len());
                    for ((action, row), expected) in rows.iter().zip(&legal) {
                        assert_eq!(action, expected);
                        check(&state, *action, row);
                        checked += 1;
                    }
                    let a = random_action(&state, &mut rng).expect("a decision");
                    state.play_action_unchecked(a);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Every row, bit for bit, against the reference that plays each
    /// placement on a copy (`reference::for_each_row`): random positions
    /// of the base game, The Gifts (Take 2's choice among them), hands
    /// and every house rule of RULES.md §8, 2 to 6 players.
    #[test]
    fn rows_equal_the_reference_by_copy() {
        let variants = [
            "",
            "farmers=false",
            "gifts=true",
            "gifts=true,unplaceable=return,hole_bonus=true,farmers=false",
            "start_in_bag=true,final_incomplete=false",
            "hole_bonus=true",
            "unplaceable=return",
            "hand=1",
            "hand=3,hand_visible=true",
            "hand=2,unplaceable=return,hole_bonus=true,final_incomplete=false",
            "table=9x9",
            "table=5x5,table_closes=true",
            "table=7x5,table_closes=true,unplaceable=return,gifts=true",
            "table=5x3,hand=2,table_closes=true,start_in_bag=true",
        ];
        let (mut positions, mut rows_seen) = (0, 0);
        let (mut opens, mut keeps, mut meeples_complete) = (0, 0, 0);
        for (v, text) in variants.iter().enumerate() {
            let rules: Rules = text.parse().expect(text);
            for game in 0..3u64 {
                let mut rng = AgentRng::seed_from_u64(500 + game * 97 + v as u64);
                let players = rng.gen_range(2..=6);
                let mut state = State::new(rules, players, Seat(0));
                while !state.is_over() {
                    if state.is_chance() {
                        state.apply_chance(&mut rng);
                        continue;
                    }
                    let mut expected = Vec::new();
                    reference::for_each_row(&state, |a, r| expected.push((a, *r)));
                    let got = rows(&state);
                    assert_eq!(got.len(), expected.len());
                    for ((a, r), (ea, er)) in got.iter().zip(&expected) {
                        assert_eq!(a, ea);
                        // Bit for bit (`==` on floats would let -0.0 pass for 0.0).
                        let bits = |r: &Row| r.map(f32::to_bits);
                        assert_eq!(
                            bits(r),
                            bits(er),
                            "{text}, {a:?} in {state:?}:\n{r:?}\n{er:?}"
                        );
                        opens += usize::from(matches!(a, Action::Open(_)));
                        keeps += usize::from(matches!(a, Action::Keep(_)));
                        meeples_complete += usize::from(r[col::MEEPLE_FEATURE_COMPLETE] == 1.0);
                        rows_seen += 1;
                    }
                    positions += 1;
                    let a = random_action(&state, &mut rng).expect("a decision");
                    state.play_action_unchecked(a);
                }
            }
        }
        assert!(positions > 2_000, "{positions}");
        assert!(rows_seen > 50_000, "{rows_seen}");
        assert!(opens > 0 && keeps > 0 && meeples_complete > 100);
    }

    /// The columns about the meeple, 0 without one.
    const MEEPLE_COLUMNS: [usize; 8] = [3, 4, 5, 6, 7, 13, 14, 15];

    fn check(state: &State, action: Action, row: &Row) {
        let me = state.to_play();
        let mut next = state.clone();
        next.play_action_unchecked(action);
        let total = |s: &State, seat: Seat| f64::from(s.score(seat).total());
        let (before_now, after_now) = (state.end_now_scores(), next.end_now_scores());
        let others = (0..state.players() as u8).map(Seat).filter(|&s| s != me);
        let points_others = others
            .clone()
            .map(|s| total(&next, s) - total(state, s))
            .fold(0.0, f64::max);
        let gain_others = others
            .clone()
            .map(|s| f64::from(after_now[s].total()) - f64::from(before_now[s].total()))
            .fold(f64::MIN, f64::max);
        let best_other = others
            .map(|s| f64::from(after_now[s].total()))
            .fold(0.0, f64::max);
        let expect = |c: usize, v: f64| {
            assert_eq!(
                f64::from(row[c]),
                v,
                "{} of {action:?} in {state:?}",
                COLUMNS[c]
            )
        };
        expect(col::POINTS_SELF, total(&next, me) - total(state, me));
        expect(col::POINTS_OTHERS, points_others);
        expect(
            col::GAIN_SELF,
            f64::from(after_now[me].total()) - f64::from(before_now[me].total()),
        );
        expect(col::GAIN_OTHERS, gain_others);
        expect(
            col::LEAD_AFTER,
            f64::from(after_now[me].total()) - best_other,
        );
        expect(col::SUPPLY_AFTER, f64::from(next.supply(me)));
        let kinds = [col::PLACE, col::OPEN_GIFT, col::KEEP_TILE];
        let kind = match action {
            Action::Place(_) => 0,
            Action::Open(_) => 1,
            Action::Keep(_) => 2,
        };
        for (i, c) in kinds.into_iter().enumerate() {
            expect(c, f64::from(u8::from(i == kind)));
        }
        let Action::Place(mv) = action else {
            for c in MEEPLE_COLUMNS {
                expect(c, 0.0);
            }
            return;
        };
        let pos = mv.placement.pos;
        expect(col::X, f64::from(pos.x));
        expect(col::Y, f64::from(pos.y));
        expect(col::ROTATION, f64::from(mv.placement.rot.quarter_turns()));
        expect(col::HAND_SLOT, f64::from(mv.placement.slot));
        let slot = next.board().slot_at(pos).unwrap();
        let neighbours = Side::ALL
            .iter()
            .filter(|s| next.board().at(pos.step(**s)).is_some())
            .count();
        expect(col::NEIGHBOURS, neighbours as f64);
        // Completed features: the roads and cities of the new tile, and
        // monasteries around it, complete after and not before.
        let tile = next.board().placed(slot).tile;
        let mut completed = std::collections::BTreeSet::new();
        let (mut city, mut road) = (0, 0);
        for i in 0..tile.segment_count() as u8 {
            let id = segment_id(slot, i);
            let root = next.features().root(id);
            match next.segment_kind(id) {
                FeatureKind::City => city = city.max(next.features().tiles(root)),
                FeatureKind::Road => road = road.max(next.features().tiles(root)),
                _ => continue,
            }
            if next.is_complete(id) {
                completed.insert(root);
            }
        }
        let mut monasteries = 0;
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            let at = Pos::new(pos.x + dx, pos.y + dy);
            if let Some(id) = next.segment_at(at, Location::Monastery) {
                let before = state.segment_at(at, Location::Monastery);
                if next.is_complete(id) && !before.is_some_and(|b| state.is_complete(b)) {
                    monasteries += 1;
                }
            }
        }
        expect(col::COMPLETED, (completed.len() + monasteries) as f64);
        expect(col::CITY_TILES, f64::from(city));
        expect(col::ROAD_TILES, f64::from(road));
        match mv.meeple {
            None => {
                for c in MEEPLE_COLUMNS {
                    expect(c, 0.0);
                }
            }
            Some(segment) => {
                let id = segment_id(slot, segment);
                expect(col::MEEPLE, 1.0);
                let k = next.segment_kind(id) as usize;
                for i in 0..4 {
                    expect(col::MEEPLE_ROAD + i, f64::from(u8::from(i == k)));
                }
                expect(
                    col::MEEPLE_FEATURE_COMPLETE,
                    f64::from(u8::from(next.is_complete(id))),
                );
                expect(col::MEEPLE_FEATURE_VALUE, f64::from(next.feature_value(id)));
            }
        }
    }
}
