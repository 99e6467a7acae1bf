//! Writing the counts files from the naive reference engine
//! (`tests/naive`): for each sequence, the reference lists the legal
//! placements of each tile (sorted), the generator plays the placement
//! `(7k + 3) mod n` at the `k`-th placed turn (0-based) and puts a meeple
//! on a free location, whenever the seat has a meeple and a free location,
//! by the sequence's rule:
//! - rule 0: location `k mod len` when `k mod 3 != 1`,
//! - rule 1: location `(k / 2) mod len` when `k` is even,
//! - rule 2: always, a field first (seats run out of meeples).
//!
//! A tile with no placement is set aside.

use super::{format_row, parse_header, Row, Sequence};
use crate::naive::NaiveGame;

/// The rows of `seq` as the naive reference counts them.
pub fn rows(seq: &Sequence) -> Vec<Row> {
    let mut g = NaiveGame::new(seq.players, seq.farmers);
    if let Some((w, h, closes)) = seq.table {
        g = g.on_table(w.into(), h.into(), closes);
    }
    let mut rows = Vec::new();
    let mut k = 0;
    for tile in seq.tiles.chars() {
        let seat = k % seq.players;
        let places = g.legal_placements(tile);
        let row = |play, placements, moves| Row {
            tile: tile.to_string().parse().expect("a tile letter"),
            play,
            placements,
            moves,
        };
        if places.is_empty() {
            rows.push(row(None, 0, 0));
            continue;
        }
        let mut moves = 0;
        for &(x, y, r) in &places {
            moves += 1;
            if g.supply(seat) > 0 {
                moves += g.free_locations(tile, x, y, r).len();
            }
        }
        let (x, y, r) = places[(k * 7 + 3) % places.len()];
        let free = g.free_locations(tile, x, y, r);
        let meeple = if free.is_empty() || g.supply(seat) == 0 {
            None
        } else {
            match seq.rule {
                0 => (k % 3 != 1).then(|| free[k % free.len()].clone()),
                1 => (k % 2 == 0).then(|| free[(k / 2) % free.len()].clone()),
                2 => Some(
                    free.iter()
                        .find(|l| l.len() == 3)
                        .unwrap_or(&free[0])
                        .clone(),
                ),
                other => panic!("no meeple rule {other}"),
            }
        };
        g.place(seat, tile, x, y, r, meeple.as_deref())
            .unwrap_or_else(|e| panic!("the reference refused its own move: {e}"));
        let narrow = |v: i32| i8::try_from(v).expect("a coordinate");
        rows.push(row(
            Some((narrow(x), narrow(y), r, meeple)),
            places.len(),
            moves,
        ));
        k += 1;
    }
    rows
}

/// `text` (a counts file) with the rows of every sequence written anew
/// from the reference; comments and `sequence` lines are kept as they are.
pub fn regenerate(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("sequence ") {
            out += line;
            out.push('\n');
            for row in rows(&parse_header(trimmed)) {
                out += &format_row(&row);
                out.push('\n');
            }
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            out += line;
            out.push('\n');
        }
    }
    out
}
