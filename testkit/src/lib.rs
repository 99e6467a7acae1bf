//! Test support shared by the engine's, the agents' and the tournament's
//! test suites (and the fuzz targets): building record turns tersely and
//! checking the invariants every position must keep.
//!
//! A dev-dependency only: nothing here is part of any crate's API.

use engine::{
    Action, Chance, ChanceOutcome, Drawn, Gift, IllegalMove, Location, Move, Seat, State, Tile,
    TurnRecord, MEEPLES_PER_SEAT,
};
use rand::Rng;

/// Terse steps for tests, each a thin wrapper around one of the four
/// mutators [`State`] has (`try_action`, `play_action_unchecked`,
/// `apply_chance_outcome`, `apply_chance`): a test that sets up a
/// position writes `state.draw(Tile::U)` rather than
/// `state.apply_chance_outcome(Chance::Tile(Tile::U))`.
pub trait StateExt {
    /// Draw `tile` ([`State::apply_chance_outcome`] of [`Chance::Tile`]).
    ///
    /// # Errors
    /// As [`State::apply_chance_outcome`].
    fn draw(&mut self, tile: Tile) -> Result<Drawn, IllegalMove>;

    /// Draw a tile at random ([`State::apply_chance`] in a tile draw).
    ///
    /// # Panics
    /// If no tile draw is due.
    fn draw_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> (Tile, Drawn);

    /// Receive `gift` ([`State::apply_chance_outcome`] of [`Chance::Gift`]).
    ///
    /// # Errors
    /// As [`State::apply_chance_outcome`].
    fn receive_gift(&mut self, gift: Gift) -> Result<(), IllegalMove>;

    /// Play `mv` after checking it ([`State::try_action`] of [`Action::Place`]).
    ///
    /// # Errors
    /// As [`State::try_action`].
    fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove>;

    /// Play a legal `mv` ([`State::play_action_unchecked`] of [`Action::Place`]).
    fn play_unchecked(&mut self, mv: Move);
}

impl StateExt for State {
    fn draw(&mut self, tile: Tile) -> Result<Drawn, IllegalMove> {
        match self.apply_chance_outcome(Chance::Tile(tile))? {
            ChanceOutcome::Tile(_, drawn) => Ok(drawn),
            ChanceOutcome::Gift(_) => unreachable!("a tile drawn"),
        }
    }

    fn draw_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> (Tile, Drawn) {
        match self.apply_chance(rng) {
            ChanceOutcome::Tile(tile, drawn) => (tile, drawn),
            ChanceOutcome::Gift(gift) => panic!("a gift card drawn ({gift}), not a tile"),
        }
    }

    fn receive_gift(&mut self, gift: Gift) -> Result<(), IllegalMove> {
        self.apply_chance_outcome(Chance::Gift(gift)).map(drop)
    }

    fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.try_action(Action::Place(mv))
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.play_action_unchecked(Action::Place(mv));
    }
}

/// One turn written as `"seat [discarded ...] tile x y rot [meeple]"`, e.g.
/// `"0 U 1 0 1 NNE"` or `"1 [C] V -1 0 2"`; `"1 [C]"` is a turn that only
/// discards (the stack ran out).
///
/// # Panics
/// If `spec` is not written that way (a test's own typo).
pub fn turn(spec: &str) -> TurnRecord {
    let mut words = spec.split_whitespace().peekable();
    let player = words
        .next()
        .expect("a seat")
        .parse()
        .expect("a seat number");
    let mut discarded = Vec::new();
    while let Some(w) = words.peek() {
        if !(w.starts_with('[') || w.ends_with(']')) {
            break;
        }
        let t = w.trim_start_matches('[').trim_end_matches(']');
        discarded.push(t.parse().expect("a tile letter"));
        words.next();
    }
    let mut rec = TurnRecord {
        player,
        discarded,
        ..TurnRecord::default()
    };
    if let Some(tile) = words.next() {
        let mut number = |what: &str| words.next().unwrap_or_else(|| panic!("{what} in {spec:?}"));
        rec.tile = Some(tile.parse().expect("a tile letter"));
        rec.x = Some(number("x").parse().expect("x"));
        rec.y = Some(number("y").parse().expect("y"));
        rec.rot = Some(number("rot").parse().expect("rot"));
        rec.meeple = words.next().map(|m| m.parse().expect("a location"));
    }
    assert!(words.next().is_none(), "trailing words in {spec:?}");
    rec
}

/// The turn of `player` placing `tile` at (`x`, `y`) in rotation `rot`,
/// with a meeple at `meeple` if given.
///
/// # Panics
/// If `meeple` is not a location name.
pub fn placed(player: u8, tile: Tile, x: i8, y: i8, rot: u8, meeple: Option<&str>) -> TurnRecord {
    TurnRecord {
        player,
        tile: Some(tile),
        x: Some(x),
        y: Some(y),
        rot: Some(rot),
        meeple: meeple.map(|m| m.parse::<Location>().expect("a location")),
        ..TurnRecord::default()
    }
}

/// Asserts what no position may lose or create: each seat's meeples
/// (supply plus board) are 7, and with The Gifts the 25 cards are in the
/// hands, the deck or the discard pile.
///
/// # Panics
/// If a meeple or a card was lost or created.
pub fn assert_conserved(state: &State) {
    for s in 0..state.players() {
        let seat = Seat(s as u8);
        let on_board = state.meeples().iter().filter(|m| m.seat == seat).count() as u8;
        assert_eq!(
            on_board + state.supply(seat),
            MEEPLES_PER_SEAT,
            "meeples of {seat}"
        );
    }
    if state.rules().gifts {
        let held: u32 = (0..state.players())
            .map(|s| state.hand_size(Seat(s as u8)) as u32)
            .sum();
        let cards = held + state.gift_deck_size() as u32 + state.gift_discard().total() as u32;
        assert_eq!(cards, 25, "gift cards conserved");
    }
}

/// `a` and `b` are the same position as far as the rules can tell: the
/// same seats, phase, bag, scores, supplies, meeples, board, features
/// (roots and their counters per segment) and gift cards. Unlike `==` it
/// ignores how the feature union-find's paths happen to be compressed,
/// which depends on the queries made on the way.
pub fn same_position(a: &State, b: &State) -> bool {
    let seats = 0..a.players().max(b.players());
    let per_seat = seats.clone().all(|s| {
        let seat = Seat(s as u8);
        a.score(seat) == b.score(seat)
            && a.supply(seat) == b.supply(seat)
            && a.view(seat).own_hand() == b.view(seat).own_hand()
            && a.view(seat).own_tiles() == b.view(seat).own_tiles()
    });
    let mut meeples_a = a.meeples().to_vec();
    let mut meeples_b = b.meeples().to_vec();
    meeples_a.sort_by_key(|m| (m.seat, m.segment));
    meeples_b.sort_by_key(|m| (m.seat, m.segment));
    let features = |s: &State| -> Vec<[u16; 5]> {
        let f = s.features();
        let segments = s.board().len() * engine::MAX_SEGMENTS;
        (0..segments as u16)
            .map(|id| {
                let r = f.root(id);
                [
                    r,
                    f.open(r).into(),
                    f.tiles(r).into(),
                    f.shields(r).into(),
                    f.meeples(r).into(),
                ]
            })
            .collect()
    };
    (a.rules(), a.players(), a.to_play(), a.phase(), a.turns())
        == (b.rules(), b.players(), b.to_play(), b.phase(), b.turns())
        && a.bag() == b.bag()
        && a.board() == b.board()
        && per_seat
        && meeples_a == meeples_b
        && (a.gift_deck(), a.gift_discard(), a.gift_opened())
            == (b.gift_deck(), b.gift_discard(), b.gift_opened())
        && features(a) == features(b)
}
