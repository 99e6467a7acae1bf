//! What a seat knows beyond its [`SeatView`](engine::SeatView): how the
//! game began and the turns played so far, as records — with the gift
//! cards other seats received hidden, and with hidden hands of tiles
//! (RULES.md §8) the tiles other seats hold and draw. Agents that keep
//! their own copy of the game (external bots) follow it from these.

use engine::{Hidden, RecordBuilder, Rules, Score, Seat, Tile, TurnRecord};

/// The start of a game, as one seat learns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// The rules in force.
    pub rules: Rules,
    /// Number of seats.
    pub players: usize,
    /// The agent's seat.
    pub seat: Seat,
    /// The seat that plays the first turn.
    pub first: Seat,
    /// The seed of the agent's generator for this game.
    pub seed: u64,
}

/// How a game ended, as every seat learns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd<'a> {
    /// Each seat's score (after final scoring, or when a forfeit stopped
    /// the game).
    pub scores: &'a [Score],
    /// The forfeit that stopped the game, if one did.
    pub forfeit: Option<&'a crate::game::Forfeit>,
}

/// A turn as one seat may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenTurn {
    /// The turn, without what is hidden: another seat's `gift_received`,
    /// and with hidden hands its `drawn`.
    pub turn: TurnRecord,
    /// What the turn does not show (for [`engine::follow_turn`]).
    pub hidden: Hidden,
}

/// The turns of a game so far, seen by one seat.
#[derive(Clone, Copy)]
pub struct History<'a> {
    record: &'a RecordBuilder,
    viewer: Seat,
}

impl std::fmt::Debug for History<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("viewer", &self.viewer)
            .field("turns", &self.len())
            .finish_non_exhaustive()
    }
}

impl<'a> History<'a> {
    /// The history of the game `record` is building, seen by `viewer`.
    pub fn new(record: &'a RecordBuilder, viewer: Seat) -> History<'a> {
        History { record, viewer }
    }

    /// The seat that sees it.
    pub fn viewer(&self) -> Seat {
        self.viewer
    }

    /// Number of completed turns.
    pub fn len(&self) -> usize {
        self.record.turns().len()
    }

    /// No turn is complete yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Completed turn `i` (0-based).
    pub fn turn(&self, i: usize) -> Option<SeenTurn> {
        self.record.turns().get(i).map(|t| self.seen(t.clone()))
    }

    /// The turn in progress (see [`RecordBuilder::current_turn`]).
    pub fn current(&self) -> Option<SeenTurn> {
        self.record.current_turn().map(|t| self.seen(t))
    }

    /// With `start_in_bag` (RULES.md §8): the start tile drawn from the
    /// bag (public: it lies face up at the origin).
    pub fn start(&self) -> Option<Tile> {
        self.record.start()
    }

    /// With a hand of tiles (RULES.md §8): the tiles each seat drew at
    /// set-up, in seat order, `None` for a tile the viewer does not see
    /// (another seat's, unless `hand_visible`). Empty without a hand.
    pub fn deal(&self) -> Vec<Vec<Option<Tile>>> {
        let deal = self.record.deal();
        (0..deal.len())
            .map(|s| {
                let seen = self.sees_hand(s as u8);
                deal[s].iter().map(|&t| seen.then_some(t)).collect()
            })
            .collect()
    }

    /// Whether the viewer sees the tiles `seat` holds and draws.
    fn sees_hand(&self, seat: u8) -> bool {
        seat == self.viewer.0 || self.record.rules().hand_visible
    }

    fn seen(&self, mut turn: TurnRecord) -> SeenTurn {
        let gift = turn.player != self.viewer.0 && turn.gift_received.is_some();
        if gift {
            turn.gift_received = None;
        }
        let draws = match self.sees_hand(turn.player) {
            true => 0,
            false => std::mem::take(&mut turn.drawn).len(),
        };
        SeenTurn {
            turn,
            hidden: Hidden {
                gift,
                draws,
                held: None,
            },
        }
    }
}
