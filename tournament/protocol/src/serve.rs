//! `carcassonne serve SPEC`: one of our agents as a `carcassonne-bot/1`
//! bot (docs/PROTOCOL.md) on stdin/stdout.
//!
//! The bot follows each game in its own engine: it replays the turns it
//! is sent, then the turn in progress, and asks the agent for a decision
//! on that position's [`SeatView`](engine::SeatView), with the agent's
//! generator seeded by `new_game`'s seed — so it plays exactly as the
//! agent plays in-process. It answers with an index into the `legal`
//! list it is sent (the agent's action looked up there: an action not in
//! the list is an error, not a guess), echoing the `request` number.
//!
//! Lines are read with a bound: a line over [`MAX_LINE`] bytes is refused
//! after reading at most that much (it is never buffered whole).

use crate::external::message::{parse_deal, parse_turn, MessageError, PROTOCOL};
use agents::{Agent, AgentRng, Context};
use engine::{follow_deal, follow_turn, follow_turn_start, Phase, Seat, State};
use files::error::{Error, Result};
use rand::SeedableRng;
use serde::Deserialize;
use std::io::{BufRead, Read, Write};

/// The longest line `serve` reads, without its `\n` (a `decide` is a few
/// hundred KiB at most).
pub const MAX_LINE: usize = 16 << 20;

/// The fields the bot reads, of every message (each line is parsed once).
#[derive(Deserialize)]
struct ToBot {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    rules: engine::Rules,
    #[serde(default)]
    players: usize,
    #[serde(default)]
    first: u8,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    seat: u8,
    #[serde(default)]
    turns: Vec<serde_json::Value>,
    #[serde(default)]
    current: Option<serde_json::Value>,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    deal: Option<serde_json::Value>,
    #[serde(default)]
    tile_hands: Option<Vec<Vec<serde_json::Value>>>,
    #[serde(default)]
    legal: Option<Vec<String>>,
    #[serde(default)]
    request: Option<u64>,
}

/// A game being followed.
struct Game {
    state: State,
    rng: AgentRng,
}

/// Serve `spec` on `input`/`output` until `quit` or the end of input.
///
/// # Errors
/// A spec that builds no agent, a message out of order or not following
/// the protocol (naming its line), or failing input or output.
pub fn serve(spec: &str, input: impl BufRead, output: impl Write) -> Result<()> {
    serve_bounded(spec, input, output, MAX_LINE)
}

/// [`serve`] with lines of at most `max_line` bytes instead of
/// [`MAX_LINE`] (the `protocol_serve` fuzz target reaches the bound with
/// short inputs).
///
/// # Errors
/// As [`serve`].
pub fn serve_bounded(
    spec: &str,
    input: impl BufRead,
    output: impl Write,
    max_line: usize,
) -> Result<()> {
    let agent = agents::from_spec(spec).map_err(|e| Error::Invalid(e.to_string()))?;
    serve_agent(spec, agent, input, output, max_line).map_err(|e| Error::Invalid(e.to_string()))
}

/// Why serving stopped: output failed, or a line of input was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// An answer could not be written.
    Write(std::io::Error),
    /// A line of input was refused.
    Line {
        /// Its number, from 1.
        number: usize,
        /// Why.
        problem: LineProblem,
    },
}

/// What is wrong with a line sent to `serve`.
#[derive(Debug)]
#[non_exhaustive]
pub enum LineProblem {
    /// It could not be read.
    Read(std::io::Error),
    /// It is longer than the longest allowed.
    TooLong {
        /// The longest line allowed, in bytes.
        max: usize,
    },
    /// It is not UTF-8.
    NotUtf8 {
        /// Where the first invalid byte is.
        offset: usize,
    },
    /// It is not a message.
    Json(serde_json::Error),
    /// `new_game` with a player count or first seat out of range.
    Players {
        /// The players sent.
        players: usize,
        /// The first seat sent.
        first: u8,
    },
    /// `new_game` with rules that do not hold together.
    Rules(engine::RulesError),
    /// `decide` before any `new_game`.
    DecideFirst,
    /// A message type not in the protocol.
    UnknownType(String),
    /// A `decide` that cannot be followed or answered.
    Decide(DecideProblem),
}

/// Why a `decide` cannot be followed or answered. The engine's refusals
/// are kept as their `Debug` text, which is what the reason shows.
#[derive(Debug)]
#[non_exhaustive]
pub enum DecideProblem {
    /// A seat the game does not have.
    NotASeat(u8),
    /// A start tile, but none is to be drawn.
    NoStartDue,
    /// A start tile that is not a tile.
    BadStart(String),
    /// A start tile the engine refused.
    StartRefused(String),
    /// No start tile in a game with `start_in_bag`.
    StartMissing,
    /// A deal that is not a list of lists of tiles.
    Deal(MessageError),
    /// A deal the engine refused.
    DealRefused(String),
    /// No deal in a game with a hand of tiles.
    DealMissing,
    /// A turn that is not a turn.
    Turn(MessageError),
    /// A turn the engine refused.
    TurnRefused {
        /// The turn's number.
        turn: usize,
        /// Why.
        why: String,
    },
    /// A current turn the engine refused.
    CurrentRefused(String),
    /// The seat is not to play.
    NotToPlay(u8),
    /// No decision to make: a draw is due or the game is over.
    NoDecision {
        /// The seat.
        seat: u8,
        /// Why (the game is over, or a draw is due).
        phase: String,
    },
    /// The agent failed.
    GaveUp(agents::AgentError),
    /// The agent's action is not in the legal list sent.
    NotInLegal(String),
    /// The agent's action is not legal.
    AgentIllegal,
}

impl std::fmt::Display for DecideProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecideProblem::NotASeat(seat) => write!(f, "seat {seat} is not a seat of this game"),
            DecideProblem::NoStartDue => f.write_str("start: no start tile is to be drawn here"),
            DecideProblem::BadStart(why) | DecideProblem::StartRefused(why) => {
                write!(f, "start: {why}")
            }
            DecideProblem::StartMissing => {
                f.write_str("a game with start_in_bag begins with its start tile")
            }
            DecideProblem::Deal(why) => write!(f, "{why}"),
            DecideProblem::DealRefused(why) => write!(f, "the deal: {why}"),
            DecideProblem::DealMissing => {
                f.write_str("a game with a hand of tiles begins with its deal")
            }
            DecideProblem::Turn(why) => write!(f, "{why}"),
            DecideProblem::TurnRefused { turn, why } => write!(f, "turn {turn}: {why}"),
            DecideProblem::CurrentRefused(why) => write!(f, "the current turn: {why}"),
            DecideProblem::NotToPlay(seat) => write!(f, "seat {seat} is not to play"),
            DecideProblem::NoDecision { seat, phase } => {
                write!(f, "seat {seat} has no decision to make here ({phase})")
            }
            DecideProblem::GaveUp(e) => write!(f, "the agent gave up: {e}"),
            DecideProblem::NotInLegal(text) => {
                write!(
                    f,
                    "the agent's action {text:?} is not in the legal list sent"
                )
            }
            DecideProblem::AgentIllegal => {
                f.write_str("the agent chose an action that is not legal")
            }
        }
    }
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Write(e) => write!(f, "cannot write: {e}"),
            ServeError::Line { number, problem } => write!(f, "line {number}: {problem}"),
        }
    }
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineProblem::Read(e) => write!(f, "cannot read: {e}"),
            LineProblem::TooLong { max } => write!(f, "line too long: over {max} bytes"),
            LineProblem::NotUtf8 { offset } => {
                write!(f, "not UTF-8 (invalid byte at {offset})")
            }
            LineProblem::Json(e) => write!(f, "{e}"),
            LineProblem::Players { players, first } => write!(
                f,
                "new_game: players must be 2 to 6 and first a seat, not {players} and {first}"
            ),
            LineProblem::Rules(e) => write!(f, "new_game: {e}"),
            LineProblem::DecideFirst => f.write_str("decide before new_game"),
            LineProblem::UnknownType(t) => write!(f, "unknown message type {t:?}"),
            LineProblem::Decide(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ServeError {}

fn serve_agent(
    spec: &str,
    mut agent: Box<dyn Agent>,
    mut input: impl BufRead,
    mut output: impl Write,
    max_line: usize,
) -> std::result::Result<(), ServeError> {
    let mut game: Option<Game> = None;
    let mut say = |line: String| -> std::result::Result<(), ServeError> {
        writeln!(output, "{line}")
            .and_then(|()| output.flush())
            .map_err(ServeError::Write)
    };
    let mut buf = Vec::new();
    for n in 0.. {
        let bad = |problem: LineProblem| ServeError::Line {
            number: n + 1,
            problem,
        };
        if !read_line(&mut input, &mut buf, max_line).map_err(bad)? {
            break;
        }
        let line = std::str::from_utf8(&buf).map_err(|e| {
            bad(LineProblem::NotUtf8 {
                offset: e.valid_up_to(),
            })
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let msg: ToBot = serde_json::from_str(line).map_err(|e| bad(LineProblem::Json(e)))?;
        let echo = msg
            .request
            .map_or(String::new(), |r| format!(r#","request":{r}"#));
        match msg.kind.as_str() {
            "hello" => say(format!(
                r#"{{"type":"hello","protocol":"{PROTOCOL}","name":{},"author":"carcassonne toolkit","options":{{}}}}"#,
                serde_json::to_string(spec).expect("a string serializes")
            ))?,
            "new_game" => {
                if !(2..=engine::MAX_PLAYERS).contains(&msg.players)
                    || msg.first as usize >= msg.players
                {
                    return Err(bad(LineProblem::Players {
                        players: msg.players,
                        first: msg.first,
                    }));
                }
                msg.rules
                    .validate()
                    .map_err(|e| bad(LineProblem::Rules(e)))?;
                agent.reset();
                game = Some(Game {
                    state: State::new(msg.rules, msg.players, Seat(msg.first)),
                    rng: AgentRng::seed_from_u64(msg.seed),
                });
                say(format!(r#"{{"type":"ready"{echo}}}"#))?;
            }
            "decide" => {
                let g = game.as_mut().ok_or_else(|| bad(LineProblem::DecideFirst))?;
                let index =
                    decide(agent.as_mut(), g, msg).map_err(|why| bad(LineProblem::Decide(why)))?;
                say(format!(r#"{{"type":"action","index":{index}{echo}}}"#))?;
            }
            "game_over" => game = None,
            "quit" => return Ok(()),
            other => return Err(bad(LineProblem::UnknownType(other.to_string()))),
        }
    }
    Ok(())
}

/// Read one line into `buf` (without its `\n` or `\r\n`), reading at
/// most `max_line` + 2 bytes; `false` at the end of input.
fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max_line: usize,
) -> std::result::Result<bool, LineProblem> {
    buf.clear();
    let n = input
        .by_ref()
        .take(max_line as u64 + 2)
        .read_until(b'\n', buf)
        .map_err(LineProblem::Read)?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    if buf.len() > max_line {
        return Err(LineProblem::TooLong { max: max_line });
    }
    Ok(true)
}

/// Follow the game to the decision of `d` and ask the agent.
fn decide(
    agent: &mut dyn Agent,
    g: &mut Game,
    d: ToBot,
) -> std::result::Result<usize, DecideProblem> {
    let viewer = Seat(d.seat);
    if viewer.index() >= g.state.players() {
        return Err(DecideProblem::NotASeat(d.seat));
    }
    if let Some(start) = &d.start {
        if !(g.state.rules().start_in_bag && g.state.board().is_empty()) {
            return Err(DecideProblem::NoStartDue);
        }
        let tile: engine::Tile =
            start
                .parse()
                .map_err(|e: <engine::Tile as std::str::FromStr>::Err| {
                    DecideProblem::BadStart(e.to_string())
                })?;
        g.state
            .apply_chance_outcome(engine::Chance::Tile(tile))
            .map_err(|e| DecideProblem::StartRefused(e.to_string()))?;
    } else if g.state.rules().start_in_bag && g.state.board().is_empty() {
        return Err(DecideProblem::StartMissing);
    }
    if let Some(deal) = &d.deal {
        follow_deal(
            &mut g.state,
            viewer,
            &parse_deal(deal).map_err(DecideProblem::Deal)?,
        )
        .map_err(|e| DecideProblem::DealRefused(e.to_string()))?;
    } else if g.state.phase() == Phase::DrawHand && g.state.turns() == 0 {
        return Err(DecideProblem::DealMissing);
    }
    let mut turns = d
        .turns
        .into_iter()
        .map(parse_turn)
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(DecideProblem::Turn)?;
    // Another seat's hand size now is its size after that seat's last
    // turn here: it settles how many tiles that turn set aside from the
    // hand (engine::Hidden::held).
    if let Some(hands) = &d.tile_hands {
        for (seat, hand) in hands
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != viewer.index())
        {
            let last = turns
                .iter_mut()
                .rev()
                .find(|s| s.turn.player as usize == seat);
            if let Some(seen) = last {
                seen.hidden.held = Some(hand.len());
            }
        }
    }
    for seen in turns {
        let turn = g.state.turns() + 1;
        follow_turn(&mut g.state, viewer, &seen.turn, seen.hidden).map_err(|e| {
            DecideProblem::TurnRefused {
                turn,
                why: e.to_string(),
            }
        })?;
    }
    let mut position = g.state.clone();
    if let Some(value) = d.current {
        let seen = parse_turn(value).map_err(DecideProblem::Turn)?;
        follow_turn_start(&mut position, viewer, &seen.turn)
            .map_err(|e| DecideProblem::CurrentRefused(e.to_string()))?;
    }
    let view = position.view(Seat(d.seat));
    if position.to_play() != Seat(d.seat) {
        return Err(DecideProblem::NotToPlay(d.seat));
    }
    // Found by the protocol_serve fuzz target: a decide whose turns leave
    // a draw due (no `current`) made the agent find no action and panic.
    if position.is_chance() || position.is_over() {
        return Err(DecideProblem::NoDecision {
            seat: d.seat,
            phase: if position.is_over() {
                "the game is over"
            } else {
                "a tile must be drawn first"
            }
            .to_string(),
        });
    }
    let action = agent
        .decide(Context::new(&view, &mut g.rng))
        .map_err(DecideProblem::GaveUp)?
        .action;
    match &d.legal {
        // The toolkit's list is the one the index points into.
        Some(legal) => {
            let text = view.describe(action);
            legal
                .iter()
                .position(|l| *l == text)
                .or_else(|| {
                    legal
                        .iter()
                        .position(|l| view.parse_action(l).is_ok_and(|a| a == action))
                })
                .ok_or(DecideProblem::NotInLegal(text))
        }
        None => {
            let mut index = None;
            let mut i = 0;
            view.for_each_action(|a| {
                if a == action && index.is_none() {
                    index = Some(i);
                }
                i += 1;
            });
            index.ok_or(DecideProblem::AgentIllegal)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_lines(input: &str) -> (std::result::Result<(), String>, String) {
        let mut out = Vec::new();
        let result = serve("random", input.as_bytes(), &mut out).map_err(|e| e.to_string());
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn serve_answers_hello_and_new_game_and_stops_at_quit() {
        let (result, out) = serve_lines(concat!(
            "{\"type\":\"hello\",\"protocol\":\"carcassonne-bot/1\"}\n",
            "{\"type\":\"new_game\",\"rules\":{\"farmers\":true,\"gifts\":false},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n",
            "{\"type\":\"quit\"}\n",
            "{\"type\":\"nonsense\"}\n"
        ));
        assert_eq!(result, Ok(()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(lines[0].contains("\"protocol\":\"carcassonne-bot/1\""));
        assert_eq!(lines[1], "{\"type\":\"ready\"}");
    }

    #[test]
    fn serve_refuses_messages_out_of_order_naming_the_line() {
        let (result, _) = serve_lines("{\"type\":\"decide\",\"seat\":0,\"turns\":[]}\n");
        assert!(result
            .unwrap_err()
            .contains("line 1: decide before new_game"));
        let (result, _) = serve_lines("\n{\"type\":\"move\"}\n");
        assert!(result.unwrap_err().contains("line 2: unknown message type"));
        let (result, _) = serve_lines("not json\n");
        assert!(result.unwrap_err().starts_with("line 1:"));
    }

    #[test]
    fn a_refusal_quoting_a_key_with_a_line_break_stays_one_line() {
        // Found by the protocol_serve fuzz target: serde quotes an unknown
        // field as sent, so an escaped line break in a rules key made the
        // error two lines (the error's Display now escapes it).
        let (result, _) = serve_lines(concat!(
            "{\"type\":\"new_game\",\"rules\":{\"h\\nd\":2},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n"
        ));
        let e = result.unwrap_err();
        assert!(e.starts_with("line 1: unknown field `h\\nd`"), "{e}");
        assert!(!e.contains('\n') && !e.contains('\r'), "{e}");
    }

    #[test]
    fn serve_refuses_a_decide_where_a_tile_is_still_to_be_drawn() {
        let (result, _) = serve_lines(concat!(
            "{\"type\":\"new_game\",\"rules\":{},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n",
            "{\"type\":\"decide\",\"seat\":0,\"turns\":[]}\n"
        ));
        let e = result.unwrap_err();
        assert!(e.contains("line 2: seat 0 has no decision"), "{e}");
    }

    #[test]
    fn serve_takes_a_hidden_hand_size_from_tile_hands() {
        // With unplaceable=return a turn does not show how many tiles set
        // aside came from the hand; the hand sizes in `tile_hands` settle
        // it (engine::Hidden::held), so a size no split gives is refused.
        let decide = |held: &str| {
            format!(
                concat!(
                    "{{\"type\":\"new_game\",\"rules\":{{\"hand\":2,\"unplaceable\":\"return\"}},",
                    "\"players\":2,\"seat\":1,\"first\":0,\"seed\":1}}\n",
                    "{{\"type\":\"decide\",\"seat\":1,\"deal\":[[\"hidden\",\"hidden\"],[\"U\",\"V\"]],",
                    "\"turns\":[{{\"player\":0,\"drawn\":[\"hidden\"],\"tile\":\"U\",\"x\":1,\"y\":0,\"rot\":1}}],",
                    "\"tile_hands\":[[{}],[\"U\",\"V\"]]}}\n"
                ),
                held
            )
        };
        let (result, out) = serve_lines(&decide("\"hidden\",\"hidden\""));
        assert!(result.is_ok(), "{result:?}");
        assert!(out.contains("\"type\":\"action\""), "{out}");
        let (result, _) = serve_lines(&decide("\"hidden\",\"hidden\",\"hidden\""));
        let e = result.unwrap_err();
        assert!(e.contains("line 2: turn 1:"), "{e}");
    }

    #[test]
    fn a_turn_by_the_wrong_seat_is_refused_in_words_not_debug_text() {
        let (result, _) = serve_lines(concat!(
            "{\"type\":\"new_game\",\"rules\":{},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n",
            "{\"type\":\"decide\",\"seat\":0,",
            "\"turns\":[{\"player\":1,\"tile\":\"U\",\"x\":1,\"y\":0,\"rot\":1}]}\n"
        ));
        let e = result.unwrap_err();
        assert!(
            e.contains("line 2: turn 1: player 1 played but it is player 0's turn"),
            "{e}"
        );
        assert!(!e.contains('{') && !e.contains("WrongPlayer"), "{e}");
    }

    #[test]
    fn serve_refuses_a_decide_for_a_seat_the_game_does_not_have() {
        // It indexed the deal by the seat and panicked.
        let (result, _) = serve_lines(concat!(
            "{\"type\":\"new_game\",\"rules\":{\"hand\":1},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n",
            "{\"type\":\"decide\",\"seat\":5,\"deal\":[[\"U\"],[\"V\"]],\"turns\":[]}\n"
        ));
        let e = result.unwrap_err();
        assert!(e.contains("line 2: seat 5 is not a seat"), "{e}");
    }

    #[test]
    fn serve_places_the_start_tile_sent_and_refuses_it_missing_or_twice() {
        // Issue 11: `serve` exited on every start_in_bag game.
        let new_game = concat!(
            "{\"type\":\"new_game\",\"rules\":{\"start_in_bag\":true},",
            "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}\n"
        );
        let current = "\"current\":{\"player\":0,\"tile\":\"U\"}";
        let decide = |start: &str| {
            format!("{{\"type\":\"decide\",\"seat\":0,{start}\"turns\":[],{current}}}\n")
        };
        let (result, out) = serve_lines(&format!("{new_game}{}", decide("\"start\":\"V\",")));
        assert!(result.is_ok(), "{result:?}");
        assert!(out.contains("\"type\":\"action\""), "{out}");
        let (result, _) = serve_lines(&format!("{new_game}{}", decide("")));
        let e = result.unwrap_err();
        assert!(e.contains("line 2: a game with start_in_bag begins"), "{e}");
        let twice = decide("\"start\":\"V\",");
        let (result, _) = serve_lines(&format!("{new_game}{twice}{twice}"));
        let e = result.unwrap_err();
        assert!(e.contains("line 3: start: no start tile"), "{e}");
    }

    /// The record notation of every legal action of seat 0 placing a U
    /// after the start tile, in the engine's order.
    fn legal_of_a_u() -> Vec<String> {
        let mut state = State::new(engine::Rules::default(), 2, Seat(0));
        state
            .apply_chance_outcome(engine::Chance::Tile(engine::Tile::U))
            .unwrap();
        let view = state.view(Seat(0));
        let mut legal = Vec::new();
        view.for_each_action(|a| legal.push(view.describe(a)));
        legal
    }

    /// The index `serve greedy` answers to a U to place, sent `legal`.
    fn greedy_index(legal: Option<&[String]>) -> std::result::Result<usize, String> {
        let legal = legal.map_or(String::new(), |l| {
            format!(",\"legal\":{}", serde_json::to_string(l).unwrap())
        });
        let input = format!(
            concat!(
                "{{\"type\":\"new_game\",\"request\":1,\"rules\":{{}},",
                "\"players\":2,\"seat\":0,\"first\":0,\"seed\":1}}\n",
                "{{\"type\":\"decide\",\"request\":2,\"seat\":0,\"turns\":[],",
                "\"current\":{{\"player\":0,\"tile\":\"U\"}}{}}}\n"
            ),
            legal
        );
        let mut out = Vec::new();
        serve("greedy", input.as_bytes(), &mut out).map_err(|e| e.to_string())?;
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], r#"{"type":"ready","request":1}"#, "{out}");
        let answer: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(answer["request"], 2, "the request is echoed: {out}");
        Ok(answer["index"].as_u64().unwrap() as usize)
    }

    #[test]
    fn serve_answers_an_index_into_the_legal_list_it_is_sent() {
        // Issue 27: serve answered an index into its own order of the
        // actions, whatever `legal` said.
        let legal = legal_of_a_u();
        let own = greedy_index(None).unwrap();
        assert_eq!(greedy_index(Some(&legal)), Ok(own));
        let mut rotated = legal.clone();
        rotated.rotate_left(1);
        let expected = (own + legal.len() - 1) % legal.len();
        assert_eq!(greedy_index(Some(&rotated)), Ok(expected));
        assert_eq!(rotated[expected], legal[own]);
        let e = greedy_index(Some(&["keep A".to_string()])).unwrap_err();
        assert!(e.contains("line 2: the agent's action"), "{e}");
        assert!(e.contains("not in the legal list sent"), "{e}");
    }

    /// Endless `x`s, with no line break; it fails the test if more than
    /// `limit` bytes are read.
    struct Endless {
        given: usize,
        limit: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.given += buf.len();
            assert!(self.given <= self.limit, "serve read {} bytes", self.given);
            buf.fill(b'x');
            Ok(buf.len())
        }
    }

    #[test]
    fn serve_refuses_a_line_over_its_limit_without_buffering_it() {
        // Issue 27: a 1 GB line was buffered whole (982 MB).
        let input = std::io::BufReader::new(Endless {
            given: 0,
            limit: MAX_LINE + (1 << 20),
        });
        let mut out = Vec::new();
        let e = serve("random", input, &mut out).unwrap_err().to_string();
        assert!(e.contains("line 1: line too long"), "{e}");
        let mut bad = b"{\"type\":\"hello\",\"x\":\"".to_vec();
        bad.extend_from_slice(b"\xff\"}\n");
        let e = serve("random", &bad[..], &mut out).unwrap_err().to_string();
        assert!(e.contains("line 1: not UTF-8"), "{e}");
    }
}
