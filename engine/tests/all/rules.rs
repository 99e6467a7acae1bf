//! Hand-written positions for every rule of RULES.md §1–4 (and the odd
//! cases around them), with the scores worked out by hand in comments.
//!
//! Positions are written as game records and replayed through
//! `engine::replay`; the same turns are mirrored into the naive reference
//! engine (`tests/naive`), which must agree with the hand-computed scores
//! too. Illegal moves are checked for their exact `IllegalMove` variant and
//! for leaving the state untouched.
//!
//! Board conventions (RULES.md §7): x east, y north, rotation `r` turns the
//! tile `r` quarter turns clockwise, so the edge shown on side `s` is the
//! canonical edge `(s - r) mod 4`. The start tile D lies at (0, 0): city N,
//! road W–E, a field north of the road (WNW ENE, touching the city) and one
//! south of it (ESE SSE SSW WSW).
//!
//! Rotated edges used below (N E S W):
//! - A r1: F F F R (road W)          A r3: F R F F (road E)
//! - E r1: F C F F   E r2: F F C F   E r3: F F F C
//! - F r1: C F C F (city N–S, shield)
//! - N r0: C F F C   N r1: C C F F   N r2: F C C F   N r3: F F C C
//! - U r0: R F R F   U r1: F R F R (road W–E)
//! - V r0: F F R R   V r1: R F F R   V r2: R R F F   V r3: F R R F
//! - T r3: C R C C (road E, ending at the city)
//! - L r0: C R R R   L r3: R R R C

use crate::naive;

use engine::apply_turn;
use engine::{
    replay, Drawn, IllegalMove, Location, Move, PerSeat, Phase, Placement, Port, Pos, Record,
    ReplayReason, Rotation, Rules, Score, Seat, Side, State, Tile, TurnRecord,
};
use naive::NaiveGame;
use rand::{Rng, RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use testkit::turn;
use testkit::StateExt;

// ----- Helpers ---------------------------------------------------------------

fn record(players: usize, farmers: bool, turns: &[&str]) -> Record {
    let mut r = Record::new(
        players,
        Rules {
            farmers,
            gifts: false,
            ..Rules::STANDARD
        },
    );
    r.turns = turns.iter().map(|t| turn(t)).collect();
    r
}

/// Every seat's score as `[road, city, monastery, farm]`.
/// `[road, city, monastery, farm]` of the first `players` seats.
fn parts(scores: &PerSeat<Score>, players: usize) -> Vec<[u32; 4]> {
    scores.0[..players]
        .iter()
        .map(|sc| {
            [
                sc.road.into(),
                sc.city.into(),
                sc.monastery.into(),
                sc.farm.into(),
            ]
        })
        .collect()
}

fn scores(state: &State) -> Vec<[u32; 4]> {
    (0..state.players())
        .map(|s| {
            let sc = state.score(Seat(s as u8));
            [
                sc.road.into(),
                sc.city.into(),
                sc.monastery.into(),
                sc.farm.into(),
            ]
        })
        .collect()
}

/// Invariants after every turn: no completed road, city or monastery holds
/// a meeple, and every seat has its 7 meeples on the board or in supply.
fn check_invariants(state: &State) {
    for m in state.meeples() {
        assert!(
            !state.is_complete(m.segment),
            "a meeple of {} is left on a completed feature",
            m.seat
        );
    }
    for s in 0..state.players() {
        let seat = Seat(s as u8);
        let on_board = state.meeples().iter().filter(|m| m.seat == seat).count();
        assert_eq!(on_board + state.supply(seat) as usize, 7, "{seat}");
    }
}

/// Play `turns` turn by turn through the engine and the naive reference,
/// checking after every turn that they agree (scores, supplies) and that
/// the invariants hold; with `end`, score the position as if the game
/// ended. The result equals `replay(&record, end)`.
fn run(players: usize, farmers: bool, turns: &[&str], end: bool) -> State {
    let rec = record(players, farmers, turns);
    let mut state = State::new(rec.rules, players, Seat(rec.turns[0].player));
    let mut naive = NaiveGame::new(players, farmers);
    for (i, t) in rec.turns.iter().enumerate() {
        for &d in &t.discarded {
            assert!(
                naive.legal_placements(d.letter()).is_empty(),
                "turn {}: naive can place discarded {d}",
                i + 1
            );
        }
        apply_turn(&mut state, t).unwrap_or_else(|e| panic!("turn {}: {e:?}", i + 1));
        naive
            .place_turn(t)
            .unwrap_or_else(|e| panic!("turn {}: naive refuses: {e}", i + 1));
        check_invariants(&state);
        if !state.is_over() {
            assert_eq!(scores(&state), naive.scores(), "turn {}", i + 1);
        }
        assert_eq!(
            parts(&state.end_now_scores(), players),
            naive.final_scores(),
            "turn {}: end-now scores",
            i + 1
        );
        for s in 0..players {
            assert_eq!(state.supply(Seat(s as u8)) as u32, naive.supply(s));
        }
    }
    if end {
        let end_now = state.end_now_scores();
        state = replay(&rec, true).unwrap_or_else(|e| panic!("{e}"));
        assert!(state.is_over());
        assert_eq!(scores(&state), parts(&end_now, players), "replay --end");
    }
    if state.is_over() {
        assert_eq!(scores(&state), naive.final_scores(), "final scores");
    }
    let replayed = replay(&rec, end).unwrap_or_else(|e| panic!("{e}"));
    assert!(replayed == state, "replay gives another state");
    state
}

fn rot(r: u8) -> Rotation {
    Rotation::new(r).unwrap()
}

/// A move of the drawn tile; the meeple by location name.
fn mv(state: &State, x: i8, y: i8, r: u8, meeple: Option<&str>) -> Result<Move, IllegalMove> {
    let meeple = match meeple {
        Some(l) => Some(state.meeple_segment(rot(r), l.parse().unwrap())?),
        None => None,
    };
    Ok(Move {
        placement: Placement {
            pos: Pos::new(x, y),
            rot: rot(r),
            slot: 0,
        },
        meeple,
    })
}

/// Draw `tile` (it must be placeable) and play it.
fn play(state: &mut State, tile: Tile, x: i8, y: i8, r: u8, meeple: Option<&str>) {
    assert_eq!(state.draw(tile), Ok(Drawn::Placeable), "{tile}");
    let m = mv(state, x, y, r, meeple).unwrap();
    state.try_play(m).unwrap();
}

/// `try_play(m)` must fail with `why` and leave the state exactly as it was.
fn refused(state: &mut State, m: Move, why: IllegalMove) {
    let before = state.clone();
    assert_eq!(state.check(m), Err(why));
    assert_eq!(state.try_play(m), Err(why));
    assert!(*state == before, "a refused move changed the state");
}

/// Names of the segments the seat to play may put a meeple on.
fn free_names(state: &State, x: i8, y: i8, r: u8) -> Vec<String> {
    let tile = state.drawn_tile().unwrap();
    let free = state.free_segments(Placement {
        pos: Pos::new(x, y),
        rot: rot(r),
        slot: 0,
    });
    let mut out: Vec<String> = (0..8)
        .filter(|i| free & (1 << i) != 0)
        .map(|i| tile.oriented(rot(r)).canonical[i].to_string())
        .collect();
    out.sort();
    out
}

fn replay_err(players: usize, turns: &[&str]) -> (usize, ReplayReason) {
    let e = replay(&record(players, true, turns), false).unwrap_err();
    (e.turn, e.reason)
}

// ----- §1 Components, §2 set-up and turn order -----------------------------

#[test]
fn setup_gives_seven_meeples_each_and_71_tiles_with_the_start_tile_placed() {
    // RULES.md §6 counts typed again; the bag holds them minus the start D.
    let counts = "A2 B4 C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1";
    for players in 2..=6 {
        let state = State::new(Rules::default(), players, Seat(0));
        assert_eq!(state.players(), players);
        for s in 0..6 {
            let want = if s < players { 7 } else { 0 };
            assert_eq!(state.supply(Seat(s as u8)), want, "seat {s}");
        }
        assert!(state.meeples().is_empty());
        assert_eq!(state.bag().total(), 71);
        for w in counts.split_whitespace() {
            let tile: Tile = w[..1].parse().unwrap();
            let n: u8 = w[1..].parse().unwrap();
            let n = if tile == Tile::D { n - 1 } else { n };
            assert_eq!(state.bag().count(tile), n, "{tile}");
        }
        assert_eq!(state.phase(), Phase::Draw);
        assert_eq!(state.turns(), 0);
        let tiles = state.board().tiles();
        assert_eq!(tiles.len(), 1);
        assert_eq!(
            (tiles[0].tile, tiles[0].rot, tiles[0].pos),
            (Tile::D, rot(0), Pos::ORIGIN)
        );
        assert_eq!(scores(&state), vec![[0; 4]; players]);
    }
}

#[test]
fn start_tile_shows_city_north_road_west_east_field_south() {
    use engine::FeatureKind::*;
    let state = State::new(Rules::default(), 2, Seat(0));
    let kind = |loc: &str| {
        let id = state.segment_at(Pos::ORIGIN, loc.parse().unwrap()).unwrap();
        state.segment_kind(id)
    };
    assert_eq!(kind("N"), City);
    assert_eq!(kind("E"), Road);
    assert_eq!(kind("W"), Road);
    assert_eq!(kind("WNW"), Field);
    assert_eq!(kind("SSE"), Field);
    assert_eq!(state.segment_at(Pos::ORIGIN, "S".parse().unwrap()), None);
    assert_eq!(state.segment_at(Pos::ORIGIN, "C".parse().unwrap()), None);
    // W and E are one road; the two fields are separate.
    let seg = |loc: &str| state.segment_at(Pos::ORIGIN, loc.parse().unwrap()).unwrap();
    let f = state.features();
    assert_eq!(f.root(seg("W")), f.root(seg("E")));
    assert_eq!(f.root(seg("WNW")), f.root(seg("ENE")));
    assert_ne!(f.root(seg("WNW")), f.root(seg("WSW")));
}

#[test]
fn seats_play_in_order_from_the_first_seat() {
    // First seat 1 of 3: turns go 1, 2, 0, 1.
    let mut state = State::new(Rules::default(), 3, Seat(1));
    assert_eq!(state.to_play(), Seat(1));
    play(&mut state, Tile::U, 1, 0, 1, None);
    assert_eq!(state.to_play(), Seat(2));
    play(&mut state, Tile::U, 2, 0, 1, None);
    assert_eq!(state.to_play(), Seat(0));
    play(&mut state, Tile::U, -1, 0, 1, None);
    assert_eq!(state.to_play(), Seat(1));
    // A record starts with the seat of its first turn.
    let st = run(3, true, &["2 U 1 0 1", "0 U 2 0 1", "1 U 3 0 1"], false);
    assert_eq!(st.to_play(), Seat(2));
    assert_eq!(
        replay_err(3, &["2 U 1 0 1", "1 U 2 0 1"]),
        (
            2,
            ReplayReason::WrongPlayer {
                found: 1,
                expected: 0
            }
        )
    );
}

#[test]
fn every_rotation_is_a_separate_placement() {
    // B fits below the start tile in all four rotations and nowhere else:
    // (0, 1) needs a city, (±1, 0) a road.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::B).unwrap();
    assert_eq!(state.placement_count(), 4);
    let mut all = Vec::new();
    state.for_each_placement(|p| all.push((p.pos, p.rot)));
    all.sort();
    let want: Vec<_> = (0..4).map(|r| (Pos::new(0, -1), rot(r))).collect();
    assert_eq!(all, want);
}

// ----- §2 step 1: placing a tile ------------------------------------------

#[test]
fn edge_mismatch_is_refused_on_the_mismatched_side() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::E).unwrap();
    // E r0 above the start: its S edge is field against D's city.
    let m = mv(&state, 0, 1, 0, None).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::EdgeMismatch(Pos::new(0, 1), Side::S),
    );
    // E r2 at (1, 0): its W edge is field against D's road.
    let m = mv(&state, 1, 0, 2, None).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::EdgeMismatch(Pos::new(1, 0), Side::W),
    );
    state.try_play(mv(&state, 0, 1, 2, None).unwrap()).unwrap();
    // Now (1, 1) has two neighbours: U(1, 0) shows field north, E(0, 1)
    // shows field east. Every shared edge must match, not just one.
    play(&mut state, Tile::U, 1, 0, 1, None);
    state.draw(Tile::E).unwrap();
    // E r3 has city W (against E's field) but field S (matching U).
    let m = mv(&state, 1, 1, 3, None).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::EdgeMismatch(Pos::new(1, 1), Side::W),
    );
    // E r1 matches both.
    state.try_play(mv(&state, 1, 1, 1, None).unwrap()).unwrap();
    state.draw(Tile::U).unwrap();
    // U r0 at (1, 2): its S road faces E r1's field.
    let m = mv(&state, 1, 2, 0, None).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::EdgeMismatch(Pos::new(1, 2), Side::S),
    );
}

#[test]
fn corner_contact_and_far_cells_have_no_neighbour() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::B).unwrap();
    for (x, y) in [(1, 1), (-1, -1), (1, -1), (-1, 1), (5, 5), (0, 2)] {
        let m = mv(&state, x, y, 0, None).unwrap();
        refused(&mut state, m, IllegalMove::NoNeighbour(Pos::new(x, y)));
    }
}

#[test]
fn occupied_cell_is_refused() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::B).unwrap();
    let m = mv(&state, 0, 0, 0, None).unwrap();
    refused(&mut state, m, IllegalMove::Occupied(Pos::ORIGIN));
    state.try_play(mv(&state, 0, -1, 0, None).unwrap()).unwrap();
    state.draw(Tile::B).unwrap();
    let m = mv(&state, 0, -1, 2, None).unwrap();
    refused(&mut state, m, IllegalMove::Occupied(Pos::new(0, -1)));
}

#[test]
fn far_cell_aliasing_an_open_cell_is_refused() {
    // The board folds far cells onto near ones (`x + 75 y` modulo 2,813
    // cells): (-74, 1) and (39, 37) share the open (1, 0)'s grid cell,
    // (75, 0) the open (0, 1)'s, (-75, 1) and (38, 37) the start tile's. A
    // placement there must still be refused: it touches no tile. So must
    // the far corners of the coordinate range.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::U).unwrap();
    let folded = [(-74, 1), (39, 37), (75, 0), (-75, 1), (38, 37)];
    let corners = [(-127, 0), (1, -128), (-128, 1), (127, 0), (0, 127)];
    for (x, y) in folded.into_iter().chain(corners) {
        for r in 0..4 {
            let m = mv(&state, x, y, r, None).unwrap();
            refused(&mut state, m, IllegalMove::NoNeighbour(Pos::new(x, y)));
        }
    }
}

#[test]
fn unplaceable_tile_is_set_aside_and_the_same_seat_draws_again() {
    // The worked example of docs/RECORD-FORMAT.md: after U r1 (1, 0) and E r2
    // (0, 1) no open cell has only city edges around it, so C cannot go
    // anywhere.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    play(&mut state, Tile::U, 1, 0, 1, Some("NNE"));
    play(&mut state, Tile::E, 0, 1, 2, Some("S"));
    assert!(!state.is_placeable(Tile::C));
    assert_eq!(state.to_play(), Seat(0));
    assert_eq!(state.draw(Tile::C), Ok(Drawn::SetAside));
    // Removed from the game, not reshuffled; still seat 0, still drawing.
    assert_eq!(state.bag().count(Tile::C), 0);
    assert_eq!(state.bag().total(), 71 - 3);
    assert_eq!(state.phase(), Phase::Draw);
    assert_eq!(state.to_play(), Seat(0));
    assert_eq!(state.turns(), 2);
    play(&mut state, Tile::V, -1, 0, 2, Some("E"));
    assert_eq!(state.to_play(), Seat(1));
    assert_eq!(state.draw(Tile::C), Err(IllegalMove::NotInBag(Tile::C)));
    // The same game as a record.
    let st = run(
        2,
        true,
        &["0 U 1 0 1 NNE", "1 E 0 1 2 S", "0 [C] V -1 0 2 E"],
        false,
    );
    assert!(st == state);
}

#[test]
fn record_discarding_a_placeable_tile_is_a_false_discard() {
    // U fits next to the start tile: listing it as set aside is a lie.
    assert_eq!(
        replay_err(2, &["0 [U] V -1 0 2"]),
        (1, ReplayReason::Illegal(IllegalMove::FalseDiscard(Tile::U)))
    );
    assert_eq!(
        replay_err(2, &["0 U 1 0 1 NNE", "1 E 0 1 2 S", "0 [C] [V] V -1 0 2"]),
        (3, ReplayReason::Illegal(IllegalMove::FalseDiscard(Tile::V)))
    );
}

#[test]
fn record_placing_an_unplaceable_tile_is_refused() {
    assert_eq!(
        replay_err(2, &["0 U 1 0 1 NNE", "1 E 0 1 2 S", "0 C 0 2 0"]),
        (3, ReplayReason::Illegal(IllegalMove::Unplaceable(Tile::C)))
    );
    // A turn with no tile while tiles remain is refused too.
    assert_eq!(
        replay_err(2, &["0 U 1 0 1 NNE", "1 E 0 1 2 S", "0 [C]"]),
        (3, ReplayReason::MissingTile)
    );
}

#[test]
fn tile_not_left_in_the_bag_is_refused() {
    // C exists once: the second C is not in the stack.
    assert_eq!(
        replay_err(2, &["0 C 0 1 0", "1 C 0 2 0"]),
        (2, ReplayReason::Illegal(IllegalMove::NotInBag(Tile::C)))
    );
    // Four D, one of them the start tile: a fourth D drawn is refused.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    play(&mut state, Tile::D, 1, 0, 0, None);
    play(&mut state, Tile::D, 2, 0, 0, None);
    play(&mut state, Tile::D, 3, 0, 0, None);
    let before = state.clone();
    assert_eq!(state.draw(Tile::D), Err(IllegalMove::NotInBag(Tile::D)));
    assert!(state == before);
}

#[test]
fn playing_before_drawing_and_drawing_twice_are_refused() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    let m = Move::place(Pos::new(1, 0), rot(1));
    refused(&mut state, m, IllegalMove::NoTileDrawn);
    assert_eq!(
        state.meeple_segment(rot(0), Location::Monastery),
        Err(IllegalMove::NoTileDrawn)
    );
    state.draw(Tile::U).unwrap();
    let before = state.clone();
    assert_eq!(state.draw(Tile::U), Err(IllegalMove::TileAlreadyDrawn));
    assert!(state == before);
}

// ----- §2 step 2: placing a meeple ---------------------------------------

#[test]
fn feature_holding_a_meeple_reached_through_another_tile_is_occupied() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    // Seat 0 on the road through the start tile, from the east.
    play(&mut state, Tile::U, 1, 0, 1, Some("E"));
    // Seat 1 west of the start: same road. Refused under either name; the
    // error names the canonical location (E for U r1's road).
    state.draw(Tile::U).unwrap();
    assert_eq!(free_names(&state, -1, 0, 1), vec!["ESE", "NNW"]);
    for name in ["E", "W"] {
        let m = mv(&state, -1, 0, 1, Some(name)).unwrap();
        refused(
            &mut state,
            m,
            IllegalMove::FeatureOccupied(Location::Edge(Side::E)),
        );
    }
    // In rotation 3 the road's canonical name is still E.
    let m = mv(&state, -1, 0, 3, Some("W")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Edge(Side::E)),
    );
    // The fields are free.
    state
        .try_play(mv(&state, -1, 0, 1, Some("NNE")).unwrap())
        .unwrap();
    // Seat 0's own meeple blocks seat 0 as well; the north field (seat 1's
    // farmer, through the start tile) blocks it too.
    state.draw(Tile::U).unwrap();
    assert_eq!(free_names(&state, 2, 0, 1), vec!["ESE"]);
    let m = mv(&state, 2, 0, 1, Some("W")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Edge(Side::E)),
    );
    let m = mv(&state, 2, 0, 1, Some("WNW")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Field(Port::Nnw)),
    );
}

#[test]
fn city_holding_a_knight_is_occupied() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    // N r2 above the start: city E–S joins D's city; knight of seat 0.
    play(&mut state, Tile::N, 0, 1, 2, Some("E"));
    state.draw(Tile::E).unwrap();
    // E r3 at (1, 1): city W continues it (and closes it).
    let m = mv(&state, 1, 1, 3, Some("W")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Edge(Side::W)),
    );
}

#[test]
fn farmer_cannot_join_an_occupied_field_through_a_field_of_the_same_tile() {
    // Engine bug guard: a field of the placed tile that touches only free
    // fields can still end up in an occupied field, when another field of
    // the same tile touches the occupied one and both touch one free field.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    // A r3 west of the start: its one field goes around the end of its road
    // and joins D's north and south fields (F2, free).
    play(&mut state, Tile::A, -1, 0, 3, None);
    // E r2 closes D's city; seat 1 lies in E's field (F1), north of the city.
    play(&mut state, Tile::E, 0, 1, 2, Some("NNW"));
    // B at (1, 1): its field joins F1 (through E's east side).
    play(&mut state, Tile::B, 1, 1, 0, None);
    // U r1 at (1, 0): its north field touches B (F1, occupied) and D's
    // north field (F2); its south field touches only D's south field (F2).
    // After placing, both fields are one with F1: neither is free.
    state.draw(Tile::U).unwrap();
    assert_eq!(free_names(&state, 1, 0, 1), vec!["E"]);
    let m = mv(&state, 1, 0, 1, Some("ESE")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Field(Port::Ese)),
    );
    let m = mv(&state, 1, 0, 1, Some("NNW")).unwrap();
    refused(
        &mut state,
        m,
        IllegalMove::FeatureOccupied(Location::Field(Port::Nnw)),
    );
}

#[test]
fn no_meeple_left_after_seven() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    // Seat 0: six monks in a row below the start tile (none can be
    // surrounded: nothing is ever placed below row -1) and a highwayman
    // east of the start. Seat 1 builds a column north without meeples.
    let seat0 = [
        (Tile::B, 0, -1, 0, "C"),
        (Tile::B, 1, -1, 0, "C"),
        (Tile::B, -1, -1, 0, "C"),
        (Tile::B, 2, -1, 0, "C"),
        (Tile::A, 3, -1, 0, "C"),
        (Tile::A, -2, -1, 0, "C"),
        (Tile::U, 1, 0, 1, "E"),
    ];
    let seat1 = [
        (Tile::E, 0, 1, 2),
        (Tile::V, 0, 2, 1),
        (Tile::U, 0, 3, 0),
        (Tile::U, 0, 4, 0),
        (Tile::U, 0, 5, 0),
        (Tile::U, 0, 6, 0),
        (Tile::U, 0, 7, 0),
    ];
    for (i, &(t, x, y, r, m)) in seat0.iter().enumerate() {
        play(&mut state, t, x, y, r, Some(m));
        assert_eq!(state.supply(Seat(0)), 6 - i as u8);
        let (t, x, y, r) = seat1[i];
        play(&mut state, t, x, y, r, None);
    }
    assert_eq!(state.supply(Seat(0)), 0);
    assert_eq!(state.meeples().len(), 7);
    // An 8th meeple, on V r2 (-1, 0)'s big field, which no farmer holds:
    // no meeple left.
    state.draw(Tile::V).unwrap();
    assert_eq!(free_names(&state, -1, 0, 2), Vec::<String>::new());
    let m = mv(&state, -1, 0, 2, Some("NNW")).unwrap();
    refused(&mut state, m, IllegalMove::NoMeepleLeft);
    let mut n = 0;
    state.for_each_move(|m| {
        assert_eq!(m.meeple, None);
        n += 1;
    });
    assert_eq!(n, state.placement_count());
    state.try_play(mv(&state, -1, 0, 2, None).unwrap()).unwrap();
}

#[test]
fn location_not_on_the_tile_is_refused() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::U).unwrap();
    // U has no monastery; in rotation 1 its N edge is field, not a road.
    assert_eq!(
        state.meeple_segment(rot(1), Location::Monastery),
        Err(IllegalMove::NoSuchSegment(Tile::U, Location::Monastery))
    );
    assert_eq!(
        state.meeple_segment(rot(1), Location::Edge(Side::N)),
        Err(IllegalMove::NoSuchSegment(Tile::U, Location::Edge(Side::N)))
    );
    // In rotation 0 N is its road.
    assert_eq!(state.meeple_segment(rot(0), Location::Edge(Side::N)), Ok(0));
    // A segment index past the tile's segments (U has 3).
    let m = Move::place(Pos::new(1, 0), rot(1)).with_meeple(3);
    refused(&mut state, m, IllegalMove::BadSegment(Tile::U, 3));
    // Through a record.
    assert_eq!(
        replay_err(2, &["0 U 1 0 1 C"]),
        (
            1,
            ReplayReason::Illegal(IllegalMove::NoSuchSegment(Tile::U, Location::Monastery))
        )
    );
    assert_eq!(
        replay_err(2, &["0 U 1 0 1", "1 U -1 0 1 S"]),
        (
            2,
            ReplayReason::Illegal(IllegalMove::NoSuchSegment(Tile::U, Location::Edge(Side::S)))
        )
    );
}

#[test]
fn any_name_of_a_segment_is_accepted_and_recorded_canonically() {
    // U r1 at (1, 0): road W–E (canonical E); north field WNW NNW NNE ENE
    // (canonical NNW); south field ESE SSE SSW WSW (canonical ESE).
    let cases = [
        ("E", "E"),
        ("W", "E"),
        ("WNW", "NNW"),
        ("NNW", "NNW"),
        ("NNE", "NNW"),
        ("ENE", "NNW"),
        ("ESE", "ESE"),
        ("SSE", "ESE"),
        ("SSW", "ESE"),
        ("WSW", "ESE"),
    ];
    for (name, canonical) in cases {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state.draw(Tile::U).unwrap();
        let m = mv(&state, 1, 0, 1, Some(name)).unwrap();
        state.try_play(m).unwrap();
        let r = TurnRecord::new(Seat(0), vec![], Tile::U, m);
        assert_eq!(r.meeple.unwrap().to_string(), canonical, "{name}");
        assert_eq!(state.meeples().len(), 1);
    }
}

#[test]
fn farmers_off_takes_no_field_meeples_and_scores_no_farms() {
    let rules = Rules {
        farmers: false,
        gifts: false,
        ..Rules::STANDARD
    };
    let mut state = State::new(rules, 2, Seat(0));
    state.draw(Tile::U).unwrap();
    assert_eq!(free_names(&state, 1, 0, 1), vec!["E"]);
    let m = mv(&state, 1, 0, 1, Some("NNE")).unwrap();
    refused(&mut state, m, IllegalMove::FarmersOff);
    let mut moves = 0;
    state.for_each_move(|_| moves += 1);
    // 6 placements (U at (±1, 0) and (0, -1), rotations 1 and 3), each
    // with no meeple or a highwayman.
    assert_eq!(moves, 12);
    let rec = record(2, false, &["0 U 1 0 1 NNE"]);
    assert_eq!(
        replay(&rec, false).unwrap_err().reason,
        ReplayReason::Illegal(IllegalMove::FarmersOff)
    );
    // The farm position of `field_scores_three_per_completed_city...`
    // without farmers: a highwayman instead; nothing scores as farm.
    let st = run(
        2,
        false,
        &["0 U 1 0 1 E", "1 E 0 1 2", "0 E 1 1 1", "1 E 2 1 3"],
        true,
    );
    // Road D + U, open at both ends: 2.
    assert_eq!(scores(&st), vec![[2, 0, 0, 0], [0; 4]]);
}

// ----- §2 step 3 and §3: scoring during the game --------------------------

#[test]
fn road_closed_by_a_city_and_a_village_scores_one_per_tile() {
    // L r0 at (1, 0): its W road joins D's and ends at L's village; seat 0
    // puts a highwayman on it. T r3 at (-1, 0): its E road ends at T's city.
    // Road T, D, L is closed: 3 tiles = 3 for seat 0, who gets the meeple
    // back at once.
    let st = run(2, true, &["0 L 1 0 0 W"], false);
    assert_eq!(st.supply(Seat(0)), 6);
    let st = run(2, true, &["0 L 1 0 0 W", "1 T -1 0 3"], false);
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0; 4]]);
    assert_eq!(st.supply(Seat(0)), 7);
    assert!(st.meeples().is_empty());
    let road = st.segment_at(Pos::ORIGIN, "E".parse().unwrap()).unwrap();
    assert!(st.is_complete(road));
    // Nothing more at the end: T's city is open but holds no knight.
    let st = run(2, true, &["0 L 1 0 0 W", "1 T -1 0 3"], true);
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0; 4]]);
}

#[test]
fn road_ending_at_a_monastery_is_closed() {
    // L r0 (1, 0) with highwayman W (seat 0); A r3 (-1, 0): road E ends at
    // the monastery; seat 1 puts a monk on it. Road A, D, L: 3 for seat 0.
    // At the end the monk scores 1 + 1 neighbour (the start tile) = 2.
    let turns = ["0 L 1 0 0 W", "1 A -1 0 3 C"];
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0; 4]]);
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0, 0, 2, 0]]);
}

#[test]
fn road_loop_scores_one_per_tile() {
    // Four curves in a 2×2 square below the start tile close a loop:
    // V r3 (0,-1) road E–S, V r0 (1,-1) road W–S, V r1 (1,-2) road N–W,
    // V r2 (0,-2) road N–E. 4 tiles = 4 for seat 0.
    let turns = ["0 V 0 -1 3 E", "1 V 1 -1 0", "0 V 1 -2 1", "1 V 0 -2 2"];
    let st = run(2, true, &turns[..3], true);
    // Open after three: 3 tiles at the end.
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0; 4]]);
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[4, 0, 0, 0], [0; 4]]);
    assert!(st.meeples().is_empty());
}

#[test]
fn road_leaving_and_reentering_one_village_counts_that_tile_once() {
    // X r0 at (1, 0), seat 0 on its E road. V r0 (2, 0) road W–S, V r1
    // (2,-1) road N–W, V r2 (1,-1) road N–E bring the road back into X's
    // S side. The road X, V, V, V is closed at both ends by X's village:
    // 4 distinct tiles = 4 (5 if X counted twice).
    let turns = ["0 X 1 0 0 E", "1 V 2 0 0", "0 V 2 -1 1", "1 V 1 -1 2"];
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[4, 0, 0, 0], [0; 4]]);
    assert_eq!(st.supply(Seat(0)), 7);
}

#[test]
fn tile_closing_a_road_through_two_of_its_segments_scores_it_once() {
    // B (0,-1) anchors V r2 (1,-1) road N–E, where seat 1 puts a
    // highwayman; V r1 (2,-1) road N–W, V r0 (2, 0) road W–S. Then L r0 at
    // (1, 0) closes the road with two of its own roads (E and S): L, V, V,
    // V = 4 tiles, scored once: 4 for seat 1 (not 8, not 5). L's W road
    // joins D's road, open to the west.
    let turns = [
        "0 B 0 -1 0",
        "1 V 1 -1 2 N",
        "0 V 2 -1 1",
        "1 V 2 0 0",
        "0 L 1 0 0",
    ];
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[0; 4], [4, 0, 0, 0]]);
    assert_eq!(st.supply(Seat(1)), 7);
}

#[test]
fn closed_city_scores_two_per_tile_and_two_per_shield() {
    // F r1 (0, 1): city N–S with a shield, joins D's city; seat 0 knight.
    // E r2 (0, 2): city S closes it. 3 tiles + 1 shield: 2·3 + 2·1 = 8.
    let st = run(2, true, &["0 F 0 1 1 N", "1 E 0 2 2"], false);
    assert_eq!(scores(&st), vec![[0, 8, 0, 0], [0; 4]]);
    assert_eq!(st.supply(Seat(0)), 7);
    // Without a shield: N r2 (0, 1) city E–S with seat 0's knight, E r3
    // (1, 1) city W: 3 tiles = 6.
    let st = run(2, true, &["0 N 0 1 2 S", "1 E 1 1 3"], false);
    assert_eq!(scores(&st), vec![[0, 6, 0, 0], [0; 4]]);
}

#[test]
fn city_closed_through_two_segments_of_one_tile_counts_it_once() {
    // I r0 at (0,-1): cities E and S (separate segments); seat 0 knight on
    // E. N r3 (1,-1) city S–W, N r0 (1,-2) city N–W, N r1 (0,-2) city N–E
    // bring the city around into I's S side. Closed: I, N, N, N = 4 tiles,
    // no shield: 8 (10 if I counted twice).
    let turns = ["0 I 0 -1 0 E", "1 N 1 -1 3", "0 N 1 -2 0", "1 N 0 -2 1"];
    let st = run(2, true, &turns[..3], true);
    // Open after three tiles: 3 at the end.
    assert_eq!(scores(&st), vec![[0, 3, 0, 0], [0; 4]]);
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[0, 8, 0, 0], [0; 4]]);
    assert!(st.meeples().is_empty());
}

#[test]
fn one_tile_completes_a_road_and_a_city() {
    // V r1 (1, 0): road W–N, seat 0 highwayman. N r2 (0, 1): city S–E,
    // seat 1 knight. X (-1, 0): village ends the road west. L r3 (1, 1):
    // city W closes the city (D, N, L: 6 for seat 1); road S ends the road
    // at L's village (X, D, V, L: 4 for seat 0).
    let turns = ["0 V 1 0 1 W", "1 N 0 1 2 S", "0 X -1 0 0", "1 L 1 1 3"];
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[4, 0, 0, 0], [0, 6, 0, 0]]);
    assert_eq!((st.supply(Seat(0)), st.supply(Seat(1))), (7, 7));
}

#[test]
fn meeple_on_the_feature_its_own_tile_completes_scores_at_once_and_returns() {
    // E r2 (0, 1) with a knight on S closes D's city at once: 2 tiles = 4.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    play(&mut state, Tile::E, 0, 1, 2, Some("S"));
    assert_eq!(scores(&state), vec![[0, 4, 0, 0], [0; 4]]);
    assert_eq!(state.supply(Seat(0)), 7);
    assert!(state.meeples().is_empty());
    // It is now seat 1's turn: the knight is not placed again.
    assert_eq!(state.to_play(), Seat(1));
    let st = run(2, true, &["0 E 0 1 2 S"], true);
    assert_eq!(scores(&st), vec![[0, 4, 0, 0], [0; 4]]);
}

#[test]
fn shared_road_both_seats_score_full() {
    // Seat 0 on the road through the start tile (U r1 at (1, 0)); seat 1 on
    // a separate road one row lower (U r1 at (0,-1)). V r0 (2, 0) and V r1
    // (2,-1) turn the first road down, U r1 (1,-1) joins the two: one road
    // with one meeple each. Then A r3 at (-1, 0) and (-1,-1) end both west
    // ends at monasteries: A, D, U, V, V, U, U, A = 8 tiles, 8 each.
    let turns = [
        "0 U 1 0 1 E",
        "1 U 0 -1 1 E",
        "0 V 2 0 0",
        "1 V 2 -1 1",
        "0 U 1 -1 1",
        "1 A -1 0 3",
        "0 A -1 -1 3",
    ];
    // Ended after two turns: D, U = 2 for seat 0; U (0,-1) = 1 for seat 1.
    let st = run(2, true, &turns[..2], true);
    assert_eq!(scores(&st), vec![[2, 0, 0, 0], [1, 0, 0, 0]]);
    // Joined but open: D, U, V, V, U, U = 6 tiles each at the end.
    let st = run(2, true, &turns[..5], true);
    assert_eq!(scores(&st), vec![[6, 0, 0, 0], [6, 0, 0, 0]]);
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[8, 0, 0, 0], [8, 0, 0, 0]]);
    assert_eq!((st.supply(Seat(0)), st.supply(Seat(1))), (7, 7));
}

#[test]
fn taken_over_road_two_against_one_scores_only_the_majority() {
    // As the shared road, plus a third road of seat 0 north-west: E r2
    // (0, 1) makes room, V r0 (-1, 1) road S–W gets seat 0's second
    // highwayman, V r2 (-1, 0) road N–E joins it to the start tile's road.
    // Seat 0 has 2 meeples, seat 1 has 1.
    let turns = [
        "0 U 1 0 1 E",
        "1 U 0 -1 1 E",
        "0 E 0 1 2",
        "1 V 2 0 0",
        "0 V -1 1 0 S",
        "1 V 2 -1 1",
        "0 U 1 -1 1",
        "1 V -1 0 2",
        "0 A -2 1 3",
        "1 A -1 -1 3",
    ];
    // Open after 8 turns: (-1,1), (-1,0), D, (1,0), (2,0), (2,-1), (1,-1),
    // (0,-1) = 8 tiles, all to seat 0.
    let st = run(2, true, &turns[..8], true);
    assert_eq!(scores(&st), vec![[8, 0, 0, 0], [0; 4]]);
    // Closed by the two A's: 10 tiles, all to seat 0; every meeple returns.
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[10, 0, 0, 0], [0; 4]]);
    assert!(st.meeples().is_empty());
}

#[test]
fn three_way_tie_all_score_full() {
    // Four seats; seats 0, 1, 2 each own one of three roads that are joined
    // into one (the layout of the taken-over road); seat 3 has none.
    // 10 tiles each for seats 0, 1, 2; 0 for seat 3.
    let turns = [
        "0 U 1 0 1 E",
        "1 U 0 -1 1 E",
        "2 E 0 1 2",
        "3 V 2 0 0",
        "0 V 2 -1 1",
        "1 U 1 -1 1",
        "2 V -1 1 0 S",
        "3 V -1 0 2",
        "0 A -2 1 3",
        "1 A -1 -1 3",
    ];
    let st = run(4, true, &turns, false);
    assert_eq!(
        scores(&st),
        vec![[10, 0, 0, 0], [10, 0, 0, 0], [10, 0, 0, 0], [0; 4]]
    );
}

/// The ring of eight tiles around (0,-2), field edges facing the hole:
/// B (0,-1), V r1 (-1,-1), V r2 (1,-1), A r1 (-1,-2), A r3 (1,-2),
/// V r0 (-1,-3), B (0,-3), V r3 (1,-3).
#[test]
fn monastery_completed_by_a_later_tile_scores_nine() {
    // Seat 0 monk on B (0,-1), seat 1 monk on B (0,-2) in the middle of the
    // ring; the last ring tile surrounds (0,-2): 9 for seat 1 at once.
    let turns = [
        "0 B 0 -1 0 C",
        "1 B 0 -2 0 C",
        "0 V -1 -1 1",
        "1 V 1 -1 2",
        "0 A -1 -2 1",
        "1 A 1 -2 3",
        "0 V -1 -3 0",
        "1 B 0 -3 0",
        "0 V 1 -3 3",
    ];
    // One short: 1 + 7 neighbours = 8 at the end for seat 1; seat 0's monk
    // at (0,-1) has D and (-1,-1), (1,-1), (-1,-2), (0,-2), (1,-2) = 6
    // neighbours: 7.
    let st = run(2, true, &turns[..8], true);
    assert_eq!(scores(&st), vec![[0, 0, 7, 0], [0, 0, 8, 0]]);
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[0; 4], [0, 0, 9, 0]]);
    assert_eq!(st.supply(Seat(1)), 7);
    let mono = st.segment_at(Pos::new(0, -2), Location::Monastery).unwrap();
    assert!(st.is_complete(mono));
    // At the end only seat 0's monk scores: 7 (its cells (-1, 0) and
    // (1, 0) stay empty).
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[0, 0, 7, 0], [0, 0, 9, 0]]);
}

#[test]
fn monastery_completed_by_its_own_placement_scores_nine_at_once() {
    // The ring first, then B with a monk into the hole: 9 for seat 0 at once,
    // the monk comes straight back. Seat 0's first monk (0,-1) stays.
    let turns = [
        "0 B 0 -1 0 C",
        "1 V -1 -1 1",
        "0 V 1 -1 2",
        "1 A -1 -2 1",
        "0 A 1 -2 3",
        "1 V -1 -3 0",
        "0 B 0 -3 0",
        "1 V 1 -3 3",
        "0 B 0 -2 0 C",
    ];
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[0, 0, 9, 0], [0; 4]]);
    assert_eq!(st.supply(Seat(0)), 6);
    // End: + 1 + 6 for the monk at (0,-1).
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[0, 0, 16, 0], [0; 4]]);
}

// ----- §4 final scoring -----------------------------------------------------

#[test]
fn incomplete_city_scores_one_per_tile_and_shield_at_the_end() {
    // F r1 (0, 1) city N–S with a shield joins D's city, seat 0 knight:
    // open to the north. 2 tiles + 1 shield = 3.
    let st = run(2, true, &["0 F 0 1 1 N"], true);
    assert_eq!(scores(&st), vec![[0, 3, 0, 0], [0; 4]]);
    // M r2 (0, 1): city S–E with a shield, open east: 2 + 1 = 3 for seat 1.
    let st = run(2, true, &["1 M 0 1 2 E"], true);
    assert_eq!(scores(&st), vec![[0; 4], [0, 3, 0, 0]]);
}

#[test]
fn incomplete_road_scores_one_per_tile_at_the_end() {
    // U r1 (1, 0) and U r1 (2, 0) extend the start road: D, U, U = 3.
    let st = run(2, true, &["0 U 1 0 1 E", "1 U 2 0 1"], true);
    assert_eq!(scores(&st), vec![[3, 0, 0, 0], [0; 4]]);
}

#[test]
fn incomplete_monastery_scores_one_plus_neighbours() {
    // B (0,-1) with a monk: neighbours D only: 2. Add U r1 (1, 0) (a
    // diagonal neighbour) and B (1,-1): 4.
    let st = run(2, true, &["0 B 0 -1 0 C"], true);
    assert_eq!(scores(&st), vec![[0, 0, 2, 0], [0; 4]]);
    let st = run(2, true, &["0 B 0 -1 0 C", "1 U 1 0 1", "0 B 1 -1 0"], true);
    assert_eq!(scores(&st), vec![[0, 0, 4, 0], [0; 4]]);
}

#[test]
fn fields_joined_around_a_road_ending_at_a_monastery() {
    // A r3 (-1, 0): its road E ends at the monastery, so its one field runs
    // around the road end and joins D's north and south fields; seat 0's
    // farmer lies in it. E r2 (0, 1) closes D's city (2 tiles, no knight);
    // seat 1's farmer lies in E's field north of that city.
    let turns = ["0 A -1 0 3 NNW", "1 E 0 1 2 NNW"];
    let mut state = replay(&record(2, true, &turns), false).unwrap();
    // U r1 (1, 0): both its fields join seat 0's field; only the road is
    // free.
    state.draw(Tile::U).unwrap();
    assert_eq!(free_names(&state, 1, 0, 1), vec!["E"]);
    for (name, canonical) in [("SSW", Port::Ese), ("NNE", Port::Nnw)] {
        let m = mv(&state, 1, 0, 1, Some(name)).unwrap();
        refused(
            &mut state,
            m,
            IllegalMove::FeatureOccupied(Location::Field(canonical)),
        );
    }
    // At the end: seat 0's field touches the closed city D–E (through D's
    // north field): 3; its road A, D, U is open: 3. Seat 1's field touches
    // the same city from the north: 3 — a city scores for each field.
    let st = run(
        2,
        true,
        &["0 A -1 0 3 NNW", "1 E 0 1 2 NNW", "0 U 1 0 1 E"],
        true,
    );
    assert_eq!(scores(&st), vec![[3, 0, 0, 3], [0, 0, 0, 3]]);
}

#[test]
fn field_scores_three_per_completed_city_and_nothing_for_an_open_one() {
    // Seat 0's farmer in U r1 (1, 0)'s north field, which joins D's north
    // field (touching D's city).
    // After 1 turn: D's city is open: the farmer scores 0.
    let st = run(2, true, &["0 U 1 0 1 NNE"], true);
    assert_eq!(scores(&st), vec![[0; 4]; 2]);
    // E r2 (0, 1) closes city 1 (D, E). E r1 (1, 1): city E (city 2, open);
    // its field joins U's north field (through U's N side) and E (0, 1)'s
    // field (through its W side), which touches city 1 again.
    let turns = ["0 U 1 0 1 NNE", "1 E 0 1 2", "0 E 1 1 1", "1 E 2 1 3"];
    // City 1 closed, city 2 open: 3.
    let st = run(2, true, &turns[..3], true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 3], [0; 4]]);
    // E r3 (2, 1) closes city 2: two distinct completed cities, city 1
    // touched through two segments but counted once: 6.
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 6], [0; 4]]);
    // Fields are never scored during the game.
    let st = run(2, true, &turns, false);
    assert_eq!(scores(&st), vec![[0; 4]; 2]);
}

#[test]
fn farm_tie_shares_the_points() {
    // Seat 0 in D's north field (through U r1 (1, 0)), seat 1 in D's south
    // field (through B (0,-1)). E r2 (0, 1) closes D's city. A r3 (-1, 0)
    // joins the two fields around its road end: 1 farmer each, both score
    // the closed city: 3 each.
    let turns = ["0 U 1 0 1 NNW", "1 B 0 -1 0 NNW", "0 E 0 1 2", "1 A -1 0 3"];
    // Before the join only the north field touches the city: 3 and 0.
    let st = run(2, true, &turns[..3], true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 3], [0; 4]]);
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 3], [0, 0, 0, 3]]);
}

#[test]
fn farm_majority_takes_the_points() {
    // As the tie, but seat 0 also lies in E (0, 1)'s field, north of the
    // city; B (-1, 1) joins that field to A's, so the whole field holds
    // 2 farmers of seat 0 and 1 of seat 1: 3 for seat 0, 0 for seat 1.
    let turns = [
        "0 U 1 0 1 NNW",
        "1 B 0 -1 0 NNW",
        "0 E 0 1 2 NNW",
        "1 A -1 0 3",
        "0 B -1 1 0",
    ];
    // Before B (-1, 1): two fields each touching the closed city. Seat 0
    // scores both (3 + 3, tied in the south one), seat 1 the south one: 3.
    let st = run(2, true, &turns[..4], true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 6], [0, 0, 0, 3]]);
    let st = run(2, true, &turns, true);
    assert_eq!(scores(&st), vec![[0, 0, 0, 3], [0; 4]]);
}

// ----- End of the game ------------------------------------------------------

/// Play a whole game with seeded random draws and random moves that put
/// meeples only on roads, cities and monasteries, mirrored into the naive
/// engine. Returns the engine state, the record and the naive game.
fn full_game(seed: u64, players: usize) -> (State, Record, NaiveGame) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(Rules::default(), players, Seat(0));
    let mut naive = NaiveGame::new(players, true);
    let mut rec = Record::new(players, Rules::default());
    let mut discarded = Vec::new();
    let mut drawn = 0;
    loop {
        match state.phase() {
            Phase::Draw => {
                assert_eq!(drawn + state.bag().total() as usize, 71);
                let seat = state.to_play();
                let (tile, d) = state.draw_random(&mut rng);
                drawn += 1;
                if d == Drawn::SetAside {
                    discarded.push(tile);
                    if state.is_over() {
                        rec.turns.push(TurnRecord::discards_only(
                            seat,
                            std::mem::take(&mut discarded),
                        ));
                    }
                }
            }
            Phase::Place(tile) => {
                let seat = state.to_play();
                let mut moves = Vec::new();
                state.for_each_move(|m| {
                    let ok = match m.meeple {
                        None => true,
                        Some(s) => {
                            tile.def().segments[s as usize].kind != engine::FeatureKind::Field
                        }
                    };
                    if ok {
                        moves.push(m);
                    }
                });
                let m = moves[rng.gen_range(0..moves.len())];
                let r = TurnRecord::new(seat, std::mem::take(&mut discarded), tile, m);
                naive.place_turn(&r).unwrap();
                rec.turns.push(r);
                let last = state.bag().is_empty();
                state.try_play(m).unwrap();
                assert_eq!(state.is_over(), last, "over right after the last tile");
            }
            Phase::Over => break,
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
    assert_eq!(drawn, 71);
    (state, rec, naive)
}

#[test]
fn game_ends_after_the_71st_tile_and_final_scoring_runs_once() {
    for seed in 0..20 {
        let players = 2 + seed as usize % 5;
        let (state, rec, naive) = full_game(seed, players);
        assert!(state.is_over());
        assert!(state.bag().is_empty());
        let placed = state.board().len() - 1;
        assert_eq!(state.turns(), placed);
        let set_aside: usize = rec.turns.iter().map(|t| t.discarded.len()).sum();
        assert_eq!(placed + set_aside, 71);
        // Scored exactly once: as the reference's final scores.
        assert_eq!(scores(&state), naive.final_scores(), "seed {seed}");
        // The end-now scores of a finished game are its final scores.
        assert!(again_scores_equal(&state));
        let mut again = state.clone();
        // Nothing can be drawn or played any more.
        assert_eq!(again.draw(Tile::U), Err(IllegalMove::GameOver));
        let m = Move::place(Pos::new(0, 1), rot(0));
        refused(&mut again, m, IllegalMove::GameOver);
        // The record replays to the same state, with or without `end`.
        let r1 = replay(&rec, false).unwrap();
        let r2 = replay(&rec, true).unwrap();
        assert!(r1 == state && r2 == state, "seed {seed}");
        // A turn after the end is refused.
        let mut longer = rec.clone();
        longer
            .turns
            .push(turn(&format!("{} U 50 50 0", state.to_play().0)));
        let e = replay(&longer, false).unwrap_err();
        assert_eq!(e.turn, longer.turns.len());
    }
}

/// Open cells where C (city on all four sides) would fit.
fn cells_taking_c(state: &State) -> usize {
    state
        .board()
        .frontier()
        .filter(|&(_, demand)| engine::fitting_rotations(Tile::C, demand) != 0)
        .count()
}

#[test]
fn stack_running_out_while_discarding_ends_the_game() {
    // C is kept for the last draw, and every placement is chosen to leave
    // as few open cells taking C as possible (ties broken by the seeded
    // rng; meeples now and then on roads, cities and monasteries). With
    // these seeds (2, 3 and 4 players) no cell takes C at the end: the last
    // tile is set aside, the stack is empty, and the game ends with the
    // final scoring.
    for seed in 3..6u64 {
        let players = 2 + seed as usize % 3;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(Rules::default(), players, Seat(0));
        let mut naive = NaiveGame::new(players, true);
        let mut rec = Record::new(players, Rules::default());
        let mut discarded = Vec::new();
        while !state.is_over() {
            match state.phase() {
                Phase::Draw => {
                    let seat = state.to_play();
                    let tile = loop {
                        let t = state.bag().nth(rng.gen_range(0..state.bag().total()));
                        if t != Tile::C || state.bag().total() == 1 {
                            break t;
                        }
                    };
                    if state.draw(tile).unwrap() == Drawn::SetAside {
                        assert!(naive.legal_placements(tile.letter()).is_empty());
                        discarded.push(tile);
                        if state.is_over() {
                            rec.turns.push(TurnRecord::discards_only(
                                seat,
                                std::mem::take(&mut discarded),
                            ));
                        }
                    }
                }
                Phase::Place(tile) => {
                    let seat = state.to_play();
                    // In sorted order, so the game does not depend on the
                    // engine's enumeration order.
                    let mut placements = Vec::new();
                    state.for_each_placement(|p| placements.push(p));
                    placements.sort();
                    let mut best = (usize::MAX, 0u32, None);
                    for p in placements {
                        let mut after = state.clone();
                        after.play_unchecked(Move {
                            placement: p,
                            meeple: None,
                        });
                        let key = (cells_taking_c(&after), rng.next_u32());
                        if key < (best.0, best.1) {
                            best = (key.0, key.1, Some(p));
                        }
                    }
                    let placement = best.2.unwrap();
                    let free = state.free_segments(placement);
                    let meeple = (0..8u8).find(|&i| {
                        free & (1 << i) != 0
                            && tile.def().segments[i as usize].kind != engine::FeatureKind::Field
                    });
                    let meeple = meeple.filter(|_| rng.gen_bool(0.5));
                    let m = Move { placement, meeple };
                    let r = TurnRecord::new(seat, std::mem::take(&mut discarded), tile, m);
                    naive.place_turn(&r).unwrap();
                    rec.turns.push(r);
                    state.try_play(m).unwrap();
                }
                Phase::Over => unreachable!(),
                other => unreachable!("not in the base game: {other:?}"),
            }
        }
        // The last turn only discards C; 70 tiles were placed.
        let last = rec.turns.last().unwrap();
        assert_eq!(last.tile, None, "seed {seed}");
        assert_eq!(last.discarded, vec![Tile::C], "seed {seed}");
        assert_eq!(state.turns(), 70);
        assert!(state.bag().is_empty());
        // Final scoring ran, once.
        assert_eq!(scores(&state), naive.final_scores(), "seed {seed}");
        let replayed = replay(&rec, false).unwrap();
        assert!(replayed == state, "seed {seed}");
        // Without its last turn the record is a position, not a finished game.
        let mut short = rec.clone();
        short.turns.pop();
        assert!(!replay(&short, false).unwrap().is_over());
        // Placing a tile after that last discard is refused.
        let mut longer = rec.clone();
        longer.turns.last_mut().unwrap().tile = Some(Tile::C);
        assert_eq!(
            replay(&longer, false).unwrap_err().reason,
            ReplayReason::AfterEnd
        );
    }
}

/// The end-now scores of `state` are its scores.
fn again_scores_equal(state: &State) -> bool {
    parts(&state.end_now_scores(), state.players()) == scores(state)
}

#[test]
fn ending_a_position_scores_it_once() {
    // The taken-over road position: replay --end scores it as end-now
    // says, and scoring the ended game again changes nothing.
    let rec = record(
        2,
        true,
        &[
            "0 U 1 0 1 E",
            "1 U 0 -1 1 E",
            "0 E 0 1 2",
            "1 V 2 0 0",
            "0 V -1 1 0 S",
        ],
    );
    let open = replay(&rec, false).unwrap();
    let state = replay(&rec, true).unwrap();
    assert_eq!(
        parts(&open.end_now_scores(), 2),
        scores(&state),
        "end-now = ended"
    );
    assert!(again_scores_equal(&state));
    assert_eq!(state.phase(), Phase::Over);
    // Seat 0: road (-1,1) alone = 1; road D, U, V = 3. Seat 1: road U = 1.
    assert_eq!(scores(&state), vec![[4, 0, 0, 0], [1, 0, 0, 0]]);
}

// ----- Records ----------------------------------------------------------------

#[test]
fn replay_error_names_the_one_based_turn() {
    // Turn 3 puts U r0 at (2, 0): its W edge is field against U's road.
    let e = replay(
        &record(2, true, &["0 U 1 0 1", "1 E 0 1 2", "0 U 2 0 0"]),
        false,
    )
    .unwrap_err();
    assert_eq!(e.turn, 3);
    assert_eq!(
        e.reason,
        ReplayReason::Illegal(IllegalMove::EdgeMismatch(Pos::new(2, 0), Side::W))
    );
    let text = e.to_string();
    assert!(text.starts_with("turn 3: "), "{text}");
    assert_eq!(
        text,
        "turn 3: the W edge at (2, 0) does not match its neighbour"
    );
    let e = replay(&record(2, true, &["0 U 1 0 1", "0 U 2 0 1"]), false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 2: player 0 played but it is player 1's turn"
    );
}

#[test]
fn record_with_a_bad_header_is_refused() {
    for players in [0, 1, 7] {
        let e = replay(&record(players, true, &["0 U 1 0 1"]), false).unwrap_err();
        assert_eq!(e.turn, 0);
        assert!(matches!(e.reason, ReplayReason::BadHeader(_)), "{players}");
    }
    let e = replay(&record(2, true, &["2 U 1 0 1"]), false).unwrap_err();
    assert_eq!(e.turn, 1);
    let mut rec = record(2, true, &["0 U 1 0 1"]);
    rec.turns[0].rot = Some(4);
    assert!(matches!(
        replay(&rec, false).unwrap_err().reason,
        ReplayReason::BadTurn(_)
    ));
}

/// A straight line of 39 tiles east of the start tile opens (40, 0), which
/// shares its grid byte with (-35, 1) on the engine's folded grid (they
/// differ by (75, -1), `x + 75 y ≡ 0` modulo its 2,813 cells): a tile at
/// (-35, 1) touches nothing and must be refused, by play and by replay.
#[test]
fn a_far_cell_that_folds_onto_an_open_cell_is_not_open() {
    let mut state = State::new(Rules::default(), 2, Seat(0));
    let mut record = Record::new(2, Rules::default());
    for x in 1..=39 {
        let pos = Pos::new(x, 0);
        let (tile, rot) = Tile::ALL
            .into_iter()
            .filter(|&t| state.bag().count(t) > 0)
            .find_map(|t| {
                let mask = state.board().fitting_rotations_at(t, pos);
                (mask != 0).then(|| (t, Rotation::new(mask.trailing_zeros() as u8).unwrap()))
            })
            .expect("some tile continues the line");
        let seat = state.to_play();
        assert_eq!(state.draw(tile), Ok(Drawn::Placeable));
        let mv = Move::place(pos, rot);
        state.try_play(mv).unwrap();
        record
            .turns
            .push(TurnRecord::new(seat, Vec::new(), tile, mv));
    }
    assert!(state.board().is_open(Pos::new(40, 0)));
    let far = Pos::new(-35, 1);
    assert!(!state.board().is_open(far));
    assert!(state.board().at(Pos::new(-35, 0)).is_none());
    let tile = Tile::ALL
        .into_iter()
        .find(|&t| state.bag().count(t) > 0 && state.is_placeable(t))
        .unwrap();
    let seat = state.to_play();
    state.draw(tile).unwrap();
    let before = state.clone();
    for rot in Rotation::ALL {
        assert_eq!(
            state.try_play(Move::place(far, rot)),
            Err(IllegalMove::NoNeighbour(far))
        );
    }
    assert_eq!(state, before);
    record.turns.push(TurnRecord::new(
        seat,
        Vec::new(),
        tile,
        Move::place(far, Rotation::default()),
    ));
    let err = replay(&record, false).unwrap_err().to_string();
    assert!(
        err.starts_with("turn 40:") && err.contains("no neighbouring tile"),
        "{err}"
    );
}
