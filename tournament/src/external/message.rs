//! The messages of `carcassonne-bot/1` (docs/PROTOCOL.md) as Rust types.
//!
//! Actions travel in the engine's record notation (`U (1, 0) r1 NNE`,
//! `open synod (0, 1)`, `keep V`) and as the engine's stable integer ids;
//! turns in the record's [`TurnRecord`] shape. A bot's answer is matched
//! against the list of legal actions.

use agents::history::SeenTurn;
use engine::{Action, Gift, GiftCards, Phase, Rules, Score, Seat, SeatView, Tile, TurnRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The protocol version spoken here.
pub const PROTOCOL: &str = "carcassonne-bot/1";

/// What an external bot is told in place of another seat's gift card.
pub const HIDDEN: &str = "hidden";

/// Every legal action of the seat of `view`, in the engine's order, with
/// its record notation (the engine's [`State::describe`]) and its stable
/// integer id ([`Action::to_index`]).
///
/// [`State::describe`]: engine::State::describe
pub fn legal_actions(view: &SeatView<'_>) -> Legal {
    let mut legal = Legal::default();
    view.for_each_action(|a| {
        legal.notation.push(view.describe(a));
        legal
            .ids
            .push(a.to_index().expect("a legal action has an id"));
        legal.actions.push(a);
    });
    legal
}

/// The legal actions of a decision, three ways.
#[derive(Clone, Debug, Default)]
pub struct Legal {
    /// The actions.
    pub actions: Vec<Action>,
    /// Each in record notation (`decide`'s `legal`).
    pub notation: Vec<String>,
    /// Each as its id in `0..ACTION_SPACE` (`decide`'s `legal_ids`).
    pub ids: Vec<u32>,
}

/// A turn as sent: the record turn, and `"gift_received":"hidden"` for a
/// card another seat received.
#[derive(Debug, Serialize)]
pub struct TurnOut<'a> {
    #[serde(flatten)]
    turn: &'a TurnRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    gift_received: Option<&'static str>,
}

impl<'a> From<&'a SeenTurn> for TurnOut<'a> {
    fn from(seen: &'a SeenTurn) -> TurnOut<'a> {
        TurnOut {
            turn: &seen.turn,
            gift_received: seen.gift_hidden.then_some(HIDDEN),
        }
    }
}

/// A turn as received: the record turn and whether its gift is hidden.
pub fn parse_turn(value: serde_json::Value) -> Result<SeenTurn, String> {
    let mut value = value;
    let hidden = value.get("gift_received").and_then(|g| g.as_str()) == Some(HIDDEN);
    if hidden {
        value.as_object_mut().map(|o| o.remove("gift_received"));
    }
    let turn: TurnRecord = serde_json::from_value(value).map_err(|e| format!("a turn: {e}"))?;
    Ok(SeenTurn {
        turn,
        gift_hidden: hidden,
    })
}

/// A seat's score with its total.
#[derive(Debug, Serialize)]
pub struct ScoreOut {
    /// The sum.
    pub total: u32,
    #[serde(flatten)]
    parts: Score,
}

impl From<Score> for ScoreOut {
    fn from(parts: Score) -> ScoreOut {
        ScoreOut {
            total: parts.total(),
            parts,
        }
    }
}

/// `new_game`.
#[derive(Debug, Serialize, Deserialize)]
pub struct NewGame {
    /// The rules.
    pub rules: Rules,
    /// Seats.
    pub players: usize,
    /// The bot's seat.
    pub seat: u8,
    /// The seat of the first turn.
    pub first: u8,
    /// The seed the bot may use.
    pub seed: u64,
    /// The move limit.
    pub move_ms: Option<u64>,
    /// The game limit.
    pub game_ms: Option<u64>,
}

/// `decide`, as written.
#[derive(Debug, Serialize)]
pub struct Decide<'a> {
    /// The seat to decide.
    pub seat: u8,
    /// New completed turns.
    pub turns: Vec<TurnOut<'a>>,
    /// The turn in progress.
    pub current: Option<TurnOut<'a>>,
    /// `place` or `choose`.
    pub phase: &'static str,
    /// The tile to place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<Tile>,
    /// The two tiles of Take 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choose: Option<[Tile; 2]>,
    /// Scores per seat.
    pub scores: Vec<ScoreOut>,
    /// Meeples in each seat's supply.
    pub supply: Vec<u8>,
    /// Tiles left, by letter.
    pub bag: BTreeMap<String, u8>,
    /// Tiles left.
    pub bag_size: u8,
    /// The seat's own gift cards.
    pub hand: BTreeMap<String, u8>,
    /// Cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// The open discard pile.
    pub gift_discard: BTreeMap<String, u8>,
    /// Cards left in the gift deck.
    pub gift_deck_size: u8,
    /// Left of this move's limit.
    pub time_left_ms: u64,
    /// Every legal action, in record notation.
    pub legal: &'a [String],
    /// The id of each legal action (`0..ACTION_SPACE`).
    pub legal_ids: &'a [u32],
}

impl<'a> Decide<'a> {
    /// What the seat of `view` may know, with the `turns` and `current`
    /// turn it has not been sent.
    pub fn new(
        view: &SeatView<'_>,
        turns: &'a [SeenTurn],
        current: Option<&'a SeenTurn>,
        time_left_ms: u64,
        legal: &'a Legal,
    ) -> Decide<'a> {
        let seats = (0..view.players()).map(|s| Seat(s as u8));
        let (phase, tile, choose) = match view.phase() {
            Phase::Choose(a, b) => ("choose", None, Some([a, b])),
            _ => ("place", view.drawn_tile(), None),
        };
        Decide {
            seat: view.seat().0,
            turns: turns.iter().map(TurnOut::from).collect(),
            current: current.map(TurnOut::from),
            phase,
            tile,
            choose,
            scores: seats.clone().map(|s| view.score(s).into()).collect(),
            supply: seats.clone().map(|s| view.supply(s)).collect(),
            bag: view
                .bag()
                .iter()
                .filter(|&(_, n)| n > 0)
                .map(|(t, n)| (t.to_string(), n))
                .collect(),
            bag_size: view.bag().total(),
            hand: cards(&view.own_hand()),
            hand_sizes: seats.map(|s| view.hand_size(s)).collect(),
            gift_discard: cards(&view.gift_discard()),
            gift_deck_size: view.gift_deck_size(),
            time_left_ms,
            legal: &legal.notation,
            legal_ids: &legal.ids,
        }
    }
}

/// Gift cards as card → count.
fn cards(of: &GiftCards) -> BTreeMap<String, u8> {
    Gift::ALL
        .iter()
        .filter(|&&g| of.count(g) > 0)
        .map(|&g| (g.to_string(), of.count(g)))
        .collect()
}

/// `game_over`.
#[derive(Debug, Serialize)]
pub struct GameOver<'a> {
    /// Turns the bot has not been sent.
    pub turns: Vec<TurnOut<'a>>,
    /// Scores per seat.
    pub scores: Vec<ScoreOut>,
    /// The forfeit that stopped the game.
    pub forfeit: Option<ForfeitOut<'a>>,
}

/// A forfeit as sent.
#[derive(Debug, Serialize)]
pub struct ForfeitOut<'a> {
    /// The seat.
    pub seat: u8,
    /// Why.
    pub reason: &'a str,
}

/// Any message, as read: the fields of every message type, all optional.
#[derive(Debug, Default, Deserialize)]
pub struct Incoming {
    /// The message type.
    #[serde(rename = "type")]
    pub kind: String,
    /// `hello`: the protocol version.
    #[serde(default)]
    pub protocol: Option<String>,
    /// `hello`: the bot's name.
    #[serde(default)]
    pub name: Option<String>,
    /// `action`: an index into `legal`.
    #[serde(default)]
    pub index: Option<usize>,
    /// `action`: the action in record notation.
    #[serde(default)]
    pub action: Option<String>,
    /// `action`: the action's id (`0..ACTION_SPACE`).
    #[serde(default)]
    pub id: Option<u32>,
    /// `action`: the seat it answers for.
    #[serde(default)]
    pub seat: Option<u8>,
}

/// Wrap `body` (an object) with its `"type"`, as one line.
pub fn line<T: Serialize>(kind: &str, body: &T) -> String {
    let body = serde_json::to_string(body).expect("messages serialize");
    let rest = body.strip_prefix('{').expect("messages are objects");
    let comma = if rest == "}" { "" } else { "," };
    format!("{{\"type\":\"{kind}\"{comma}{rest}")
}
