//! The messages of `carcassonne-bot/1` (docs/PROTOCOL.md) as Rust types.
//!
//! Actions travel in the engine's record notation (`U (1, 0) r1 NNE`,
//! `open synod (0, 1)`, `keep V`) and as the engine's stable integer ids;
//! turns in the record's [`TurnRecord`] shape, with `"hidden"` in place of
//! what the seat may not see (another seat's gift card; with hidden hands
//! of tiles, the tiles another seat holds and draws). A bot's answer is
//! matched against the list of legal actions.

use agents::history::SeenTurn;
use engine::{
    Action, Gift, GiftCards, Hidden, Phase, Rules, Score, Seat, SeatView, Tile, TurnRecord,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The protocol version spoken here.
pub const PROTOCOL: &str = "carcassonne-bot/1";

/// What an external bot is told in place of another seat's gift card or
/// hidden tile.
pub const HIDDEN: &str = "hidden";

/// Tiles as a seat is told them: each tile's letter, or [`HIDDEN`].
pub fn seen_tiles(tiles: impl IntoIterator<Item = Option<Tile>>) -> Vec<String> {
    tiles
        .into_iter()
        .map(|t| t.map_or_else(|| HIDDEN.to_string(), |t| t.to_string()))
        .collect()
}

/// Why a value sent to `serve` is not the tiles, deal or turn it should be.
#[derive(Debug)]
#[non_exhaustive]
pub enum MessageError {
    /// Not a list of tiles.
    NotTiles(serde_json::Value),
    /// A tile's letter the engine cannot read (its reason).
    Tile(String),
    /// Not a tile's letter.
    NotALetter(serde_json::Value),
    /// A deal that is not a list per seat.
    NotADeal(serde_json::Value),
    /// A seat's list of the deal is wrong.
    Deal(Box<MessageError>),
    /// A turn whose `drawn` mixes tiles and `hidden`.
    MixedDrawn,
    /// A value that is not a turn.
    Turn(serde_json::Error),
}

impl std::fmt::Display for MessageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageError::NotTiles(value) => write!(f, "a list of tiles, not {value}"),
            MessageError::Tile(why) => f.write_str(why),
            MessageError::NotALetter(value) => write!(f, "a tile letter, not {value}"),
            MessageError::NotADeal(value) => write!(f, "deal: a list per seat, not {value}"),
            MessageError::Deal(e) => write!(f, "deal: {e}"),
            MessageError::MixedDrawn => f.write_str("a turn: `drawn` mixes tiles and \"hidden\""),
            MessageError::Turn(e) => write!(f, "a turn: {e}"),
        }
    }
}

impl std::error::Error for MessageError {}

/// A list of tiles as sent: letters, or [`HIDDEN`] for a tile not seen.
///
/// # Errors
/// A value that is not a list of tile letters and `"hidden"`.
pub fn parse_seen_tiles(value: &serde_json::Value) -> Result<Vec<Option<Tile>>, MessageError> {
    let list = value
        .as_array()
        .ok_or_else(|| MessageError::NotTiles(value.clone()))?;
    list.iter()
        .map(|t| match t.as_str() {
            Some(HIDDEN) => Ok(None),
            Some(letter) => letter
                .parse::<Tile>()
                .map(Some)
                .map_err(|e| MessageError::Tile(e.to_string())),
            None => Err(MessageError::NotALetter(t.clone())),
        })
        .collect()
}

/// The set-up deal as sent: one list of tiles per seat.
///
/// # Errors
/// A value that is not a list of such lists.
pub fn parse_deal(value: &serde_json::Value) -> Result<Vec<Vec<Option<Tile>>>, MessageError> {
    let seats = value
        .as_array()
        .ok_or_else(|| MessageError::NotADeal(value.clone()))?;
    seats
        .iter()
        .map(|s| parse_seen_tiles(s).map_err(|e| MessageError::Deal(Box::new(e))))
        .collect()
}

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

/// A turn as sent: the record turn, with `"gift_received":"hidden"` for a
/// card another seat received and `"drawn":["hidden", …]` for the tiles
/// another seat drew into a hidden hand.
#[derive(Debug, Serialize)]
pub struct TurnOut<'a> {
    #[serde(flatten)]
    turn: &'a TurnRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    gift_received: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    drawn: Vec<&'static str>,
}

impl<'a> From<&'a SeenTurn> for TurnOut<'a> {
    fn from(seen: &'a SeenTurn) -> TurnOut<'a> {
        TurnOut {
            turn: &seen.turn,
            gift_received: seen.hidden.gift.then_some(HIDDEN),
            drawn: vec![HIDDEN; seen.hidden.draws],
        }
    }
}

/// A turn as received: the record turn and what it hides.
///
/// # Errors
/// A value that is not a turn (naming the field).
pub fn parse_turn(value: serde_json::Value) -> Result<SeenTurn, MessageError> {
    let mut value = value;
    let mut hidden = Hidden::default();
    if let Some(turn) = value.as_object_mut() {
        if turn.get("gift_received").and_then(|g| g.as_str()) == Some(HIDDEN) {
            turn.remove("gift_received");
            hidden.gift = true;
        }
        let drawn = turn.get("drawn").and_then(|d| d.as_array());
        let hidden_draws = drawn.map_or(0, |d| d.iter().filter(|t| *t == HIDDEN).count());
        if hidden_draws > 0 {
            if drawn.map(Vec::len) != Some(hidden_draws) {
                return Err(MessageError::MixedDrawn);
            }
            turn.remove("drawn");
            hidden.draws = hidden_draws;
        }
    }
    let turn: TurnRecord = serde_json::from_value(value).map_err(MessageError::Turn)?;
    Ok(SeenTurn { turn, hidden })
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

/// How the game was set up, beyond `new_game`: what the chance of the
/// set-up drew, sent once per game (with the first `decide`, or with
/// `game_over` if there was none).
#[derive(Debug, Default, Serialize)]
pub struct Setup {
    /// With `start_in_bag` (RULES.md §8): the start tile drawn from the
    /// bag, at the origin in rotation 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Tile>,
    /// With a hand of tiles: the set-up deal, one list per seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal: Option<Vec<Vec<String>>>,
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
    /// `place`, `place_hand` or `choose`.
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
    /// The tiles the seat has not seen, by letter: those left in the bag,
    /// and with hidden hands those in the other seats' hands.
    pub bag: BTreeMap<String, u8>,
    /// Tiles left in the bag.
    pub bag_size: u8,
    /// The set-up (start tile, deal) in the first message of a game that
    /// carries turns.
    #[serde(flatten)]
    pub setup: Setup,
    /// With a hand of tiles: each seat's hand in slot order, `"hidden"`
    /// for a tile the seat may not see.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile_hands: Option<Vec<Vec<String>>>,
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
    /// turn it has not been sent (and the `setup`, if it has not been sent).
    pub fn new(
        view: &SeatView<'_>,
        turns: &'a [SeenTurn],
        current: Option<&'a SeenTurn>,
        setup: Setup,
        time_left_ms: u64,
        legal: &'a Legal,
    ) -> Decide<'a> {
        let seats = (0..view.players()).map(|s| Seat(s as u8));
        let (phase, tile, choose) = match view.phase() {
            Phase::Choose(a, b) => ("choose", None, Some([a, b])),
            Phase::PlaceHand => ("place_hand", None, None),
            _ => ("place", view.drawn_tile(), None),
        };
        let tile_hands = (view.rules().hand > 0).then(|| {
            let hand = |s: Seat| match view.visible_tiles(s) {
                Some(hand) => seen_tiles(hand.iter().map(Some)),
                None => seen_tiles(vec![None; view.tiles_held(s)]),
            };
            seats.clone().map(hand).collect()
        });
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
                .unseen_tiles()
                .iter()
                .filter(|&(_, n)| n > 0)
                .map(|(t, n)| (t.to_string(), n))
                .collect(),
            bag_size: view.bag().total(),
            setup,
            tile_hands,
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
    /// The set-up if the bot has not been sent it.
    #[serde(flatten)]
    pub setup: Setup,
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
    /// The `request` of the question it answers (optional).
    #[serde(default)]
    pub request: Option<u64>,
}

/// [`line()`] with the question's number, `"request":N`, after the type
/// (docs/PROTOCOL.md: a bot may echo it in its answer).
pub fn request_line<T: Serialize>(kind: &str, request: u64, body: &T) -> String {
    let body = serde_json::to_string(body).expect("messages serialize");
    let rest = body.strip_prefix('{').expect("messages are objects");
    let comma = if rest == "}" { "" } else { "," };
    format!("{{\"type\":\"{kind}\",\"request\":{request}{comma}{rest}")
}

/// Wrap `body` (an object) with its `"type"`, as one line.
pub fn line<T: Serialize>(kind: &str, body: &T) -> String {
    let body = serde_json::to_string(body).expect("messages serialize");
    let rest = body.strip_prefix('{').expect("messages are objects");
    let comma = if rest == "}" { "" } else { "," };
    format!("{{\"type\":\"{kind}\"{comma}{rest}")
}
