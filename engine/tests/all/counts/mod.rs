//! perft-style counts kept as data (`perft.txt`, `table.txt` beside this
//! file), shared by `tests/perft.rs` and `tests/table.rs`: fixed sequences
//! of turns, each row giving the number of legal placements and moves
//! before its move, as the naive reference engine (`tests/naive`) counts
//! them — never the fast engine.
//!
//! The files are written by `generate.rs` from the naive reference;
//! regenerate them (only when the rules change on purpose) with
//! `cargo run -p carcassonne-engine --example regenerate-counts` (see
//! docs/engine-api.md). A test checks that they are what it would write.
//!
//! # Format
//! Lines starting with `#` are comments (kept by the generator); a
//! sequence starts with a line
//! `sequence players=2 farmers=on rule=0 tiles=UEV…` (optionally
//! `table=5x5 closes=on`), followed by one row per tile in draw order:
//! `tile x y rot meeple placements moves`, the meeple a location name or
//! `-`; a tile that fits nowhere is set aside: `C - - - - 0 0`.
#![allow(dead_code)]

mod generate;
pub use generate::regenerate;

use engine::{Drawn, Move, Placement, Pos, Rotation, Rules, Seat, State, Table, Tile};
use testkit::StateExt;

/// The perft sequences on unbounded tables.
pub const PERFT: &str = include_str!("perft.txt");
/// The perft sequences on bounded tables (RULES.md §8 `table`).
pub const TABLE: &str = include_str!("table.txt");

/// One turn: the tile, the move played (`None`: set aside) and the counts
/// before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The tile drawn.
    pub tile: Tile,
    /// Cell, rotation (quarter turns) and meeple location of the move;
    /// `None` when the tile fits nowhere.
    pub play: Option<(i8, i8, u8, Option<String>)>,
    /// Legal placements before the move.
    pub placements: usize,
    /// Legal moves before the move.
    pub moves: usize,
}

/// One fixed sequence and how its moves were chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// Seats.
    pub players: usize,
    /// Farmers on.
    pub farmers: bool,
    /// A bounded table: width, height, whether its border closes features.
    pub table: Option<(u8, u8, bool)>,
    /// The generator's rule for meeples (see `generate.rs`).
    pub rule: u32,
    /// The tiles in draw order.
    pub tiles: String,
    /// The rows, one per tile.
    pub rows: Vec<Row>,
}

impl Sequence {
    /// The rules the sequence is played under.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules {
            farmers: self.farmers,
            gifts: false,
            ..Rules::STANDARD
        };
        if let Some((width, height, closes)) = self.table {
            rules.table = Some(Table { width, height });
            rules.table_closes = closes;
        }
        rules.validate().unwrap();
        rules
    }

    /// The header line of the sequence in the file.
    pub fn header(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        let mut line = format!(
            "sequence players={} farmers={} rule={}",
            self.players,
            on(self.farmers),
            self.rule
        );
        if let Some((w, h, closes)) = self.table {
            line += &format!(" table={w}x{h} closes={}", on(closes));
        }
        line + &format!(" tiles={}", self.tiles)
    }
}

/// `row` as a line of the file.
pub fn format_row(row: &Row) -> String {
    match &row.play {
        Some((x, y, rot, meeple)) => format!(
            "{} {x} {y} {rot} {} {} {}",
            row.tile.letter(),
            meeple.as_deref().unwrap_or("-"),
            row.placements,
            row.moves
        ),
        None => format!(
            "{} - - - - {} {}",
            row.tile.letter(),
            row.placements,
            row.moves
        ),
    }
}

/// Parse a `sequence …` header (without rows).
///
/// # Panics
/// On a malformed line (the file's own error: the message names it).
pub fn parse_header(line: &str) -> Sequence {
    let mut seq = Sequence {
        players: 0,
        farmers: false,
        table: None,
        rule: 0,
        tiles: String::new(),
        rows: Vec::new(),
    };
    let mut closes = false;
    let flag = |v: &str| match v {
        "on" => true,
        "off" => false,
        _ => panic!("on or off, not {v:?} in {line:?}"),
    };
    for word in line.split_whitespace().skip(1) {
        let (key, value) = word.split_once('=').expect("key=value");
        match key {
            "players" => seq.players = value.parse().expect("players"),
            "farmers" => seq.farmers = flag(value),
            "rule" => seq.rule = value.parse().expect("rule"),
            "table" => {
                let (w, h) = value.split_once('x').expect("WxH");
                seq.table = Some((w.parse().expect("width"), h.parse().expect("height"), false));
            }
            "closes" => closes = flag(value),
            "tiles" => seq.tiles = value.to_string(),
            _ => panic!("unknown key {key:?} in {line:?}"),
        }
    }
    if let Some(table) = &mut seq.table {
        table.2 = closes;
    }
    seq
}

/// Parse a row line.
///
/// # Panics
/// On a malformed line.
pub fn parse_row(line: &str) -> Row {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w.len(), 7, "7 columns in {line:?}");
    let count = |s: &str| s.parse::<usize>().unwrap_or_else(|_| panic!("{line:?}"));
    let play = (w[1] != "-").then(|| {
        let meeple = (w[4] != "-").then(|| w[4].to_string());
        let n = |s: &str| s.parse::<i8>().unwrap_or_else(|_| panic!("{line:?}"));
        (n(w[1]), n(w[2]), n(w[3]) as u8, meeple)
    });
    Row {
        tile: w[0]
            .parse()
            .unwrap_or_else(|_| panic!("a tile in {line:?}")),
        play,
        placements: count(w[5]),
        moves: count(w[6]),
    }
}

/// The sequences of a counts file.
pub fn parse(text: &str) -> Vec<Sequence> {
    let mut out: Vec<Sequence> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("sequence ") {
            out.push(parse_header(line));
        } else {
            let seq = out.last_mut().expect("a sequence line before the rows");
            seq.rows.push(parse_row(line));
        }
    }
    out
}

/// Play the rows of `seq` from the start, checking the counts before
/// every move (and that the rows follow the sequence's tiles).
pub fn play_sequence(seq: &Sequence) {
    let letters: String = seq.rows.iter().map(|r| r.tile.letter()).collect();
    assert_eq!(letters, seq.tiles, "the rows follow their sequence");
    play_rows(
        &mut State::new(seq.rules(), seq.players, Seat(0)),
        &seq.rows,
    );
}

/// Play `rows` from `state`, checking the counts before every move.
pub fn play_rows(state: &mut State, rows: &[Row]) {
    for (k, row) in rows.iter().enumerate() {
        let turn = k + 1;
        let tile = row.tile;
        let Some((x, y, r, meeple)) = &row.play else {
            assert_eq!(row.placements, 0, "turn {turn}");
            assert_eq!(state.draw(tile), Ok(Drawn::SetAside), "turn {turn}");
            continue;
        };
        assert_eq!(state.draw(tile), Ok(Drawn::Placeable), "turn {turn}");
        assert_eq!(
            state.placement_count(),
            row.placements,
            "placements, turn {turn}"
        );
        let mut listed = 0;
        state.for_each_placement(|_| listed += 1);
        assert_eq!(listed, row.placements, "for_each_placement, turn {turn}");
        let mut n = 0;
        state.for_each_move(|_| n += 1);
        assert_eq!(n, row.moves, "moves, turn {turn} ({tile})");
        let mut list = engine::MoveList::new();
        state.legal_moves(&mut list);
        assert_eq!(list.len(), row.moves, "legal_moves, turn {turn}");
        let rot = Rotation::new(*r).unwrap();
        let meeple = meeple
            .as_ref()
            .map(|m| state.meeple_segment(rot, m.parse().unwrap()).unwrap());
        let m = Move {
            placement: Placement {
                pos: Pos::new(*x, *y),
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
