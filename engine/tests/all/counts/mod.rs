//! perft-style rows shared by `tests/perft.rs` and `tests/table.rs`: play
//! a fixed sequence of turns, checking before each the number of legal
//! placements and moves a table (made by the naive reference) gives.
#![allow(dead_code)]

use engine::{Drawn, Move, Placement, Pos, Rotation, State, Tile};

/// One turn: tile, x, y, rotation, meeple location ("" for none), then the
/// expected number of placements and of moves before the move is played
/// (0 and 0: the tile fits nowhere and is set aside).
pub type Row = (char, i8, i8, u8, &'static str, usize, usize);

/// Play `rows` from `state`, checking the counts before every move.
pub fn play_rows(state: &mut State, rows: &[Row]) {
    for (k, &(t, x, y, r, meeple, placements, moves)) in rows.iter().enumerate() {
        let turn = k + 1;
        let tile: Tile = t.to_string().parse().unwrap();
        if placements == 0 {
            assert_eq!(state.draw(tile), Ok(Drawn::SetAside), "turn {turn}");
            continue;
        }
        assert_eq!(state.draw(tile), Ok(Drawn::Placeable), "turn {turn}");
        assert_eq!(
            state.placement_count(),
            placements,
            "placements, turn {turn}"
        );
        let mut listed = 0;
        state.for_each_placement(|_| listed += 1);
        assert_eq!(listed, placements, "for_each_placement, turn {turn}");
        let mut n = 0;
        state.for_each_move(|_| n += 1);
        assert_eq!(n, moves, "moves, turn {turn} ({t})");
        let mut list = engine::MoveList::new();
        state.legal_moves(&mut list);
        assert_eq!(list.len(), moves, "legal_moves, turn {turn}");
        let rot = Rotation::new(r).unwrap();
        let meeple = (!meeple.is_empty())
            .then(|| state.meeple_segment(rot, meeple.parse().unwrap()).unwrap());
        let m = Move {
            placement: Placement {
                pos: Pos::new(x, y),
                rot,
                slot: 0,
            },
            meeple,
        };
        state
            .try_play(m)
            .unwrap_or_else(|e| panic!("turn {turn}: {e}"));
    }
}

/// Canonical names of the free segments of the drawn tile at a placement.
pub fn free_names(state: &State, p: Placement) -> Vec<String> {
    let tile = state.drawn_tile().unwrap();
    let free = state.free_segments(p);
    let mut out: Vec<String> = (0..8)
        .filter(|i| free & (1 << i) != 0)
        .map(|i| tile.oriented(p.rot).canonical[i].to_string())
        .collect();
    out.sort();
    out
}

/// The legal placements of the drawn tile, and the same as sorted
/// `(x, y, quarter turns)` triples: the naive reference's form.
pub fn placements(state: &State) -> (Vec<Placement>, Vec<(i32, i32, u8)>) {
    let mut fast = Vec::new();
    state.for_each_placement(|p| fast.push(p));
    let mut xyr: Vec<(i32, i32, u8)> = fast
        .iter()
        .map(|p| (p.pos.x.into(), p.pos.y.into(), p.rot.quarter_turns()))
        .collect();
    xyr.sort();
    (fast, xyr)
}
