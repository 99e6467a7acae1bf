//! `carcassonne serve SPEC`: one of our agents as a `carcassonne-bot/1`
//! bot (docs/PROTOCOL.md) on stdin/stdout.
//!
//! The bot follows each game in its own engine: it replays the turns it
//! is sent, then the turn in progress, and asks the agent for a decision
//! on that position's [`SeatView`](engine::SeatView), with the agent's
//! generator seeded by `new_game`'s seed — so it plays exactly as the
//! agent plays in-process. It answers with an index into `legal`.

use crate::error::{Error, Result};
use crate::external::message::{parse_deal, parse_turn, PROTOCOL};
use agents::{Agent, AgentRng};
use engine::{follow_deal, follow_turn, follow_turn_start, Phase, Seat, State};
use rand::SeedableRng;
use serde::Deserialize;
use std::io::{BufRead, Write};

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
    let agent = agents::from_spec(spec).map_err(|e| Error::Invalid(e.to_string()))?;
    serve_agent(spec, agent, input, output).map_err(Error::Invalid)
}

fn serve_agent(
    spec: &str,
    mut agent: Box<dyn Agent>,
    input: impl BufRead,
    mut output: impl Write,
) -> std::result::Result<(), String> {
    let mut game: Option<Game> = None;
    let mut say = |line: String| -> std::result::Result<(), String> {
        writeln!(output, "{line}")
            .and_then(|()| output.flush())
            .map_err(|e| format!("cannot write: {e}"))
    };
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |e: String| format!("line {}: {e}", n + 1);
        let msg: ToBot = serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
        match msg.kind.as_str() {
            "hello" => say(format!(
                r#"{{"type":"hello","protocol":"{PROTOCOL}","name":{},"author":"carcassonne toolkit","options":{{}}}}"#,
                serde_json::to_string(spec).expect("a string serializes")
            ))?,
            "new_game" => {
                if !(2..=engine::MAX_PLAYERS).contains(&msg.players)
                    || msg.first as usize >= msg.players
                {
                    return Err(bad(format!(
                        "new_game: players must be 2 to 6 and first a seat, not {} and {}",
                        msg.players, msg.first
                    )));
                }
                msg.rules
                    .validate()
                    .map_err(|e| bad(format!("new_game: {e}")))?;
                agent.reset();
                game = Some(Game {
                    state: State::new(msg.rules, msg.players, Seat(msg.first)),
                    rng: AgentRng::seed_from_u64(msg.seed),
                });
                say(r#"{"type":"ready"}"#.to_string())?;
            }
            "decide" => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| bad("decide before new_game".into()))?;
                let index = decide(agent.as_mut(), g, msg).map_err(bad)?;
                say(format!(r#"{{"type":"action","index":{index}}}"#))?;
            }
            "game_over" => game = None,
            "quit" => return Ok(()),
            other => return Err(bad(format!("unknown message type {other:?}"))),
        }
    }
    Ok(())
}

/// Follow the game to the decision of `d` and ask the agent.
fn decide(agent: &mut dyn Agent, g: &mut Game, d: ToBot) -> std::result::Result<usize, String> {
    let viewer = Seat(d.seat);
    if viewer.index() >= g.state.players() {
        return Err(format!("seat {} is not a seat of this game", d.seat));
    }
    if let Some(start) = &d.start {
        if !(g.state.rules().start_in_bag && g.state.board().is_empty()) {
            return Err("start: no start tile is to be drawn here".to_string());
        }
        let tile: engine::Tile = start.parse().map_err(|e| format!("start: {e}"))?;
        g.state.draw(tile).map_err(|e| format!("start: {e:?}"))?;
    } else if g.state.rules().start_in_bag && g.state.board().is_empty() {
        return Err("a game with start_in_bag begins with its start tile".to_string());
    }
    if let Some(deal) = &d.deal {
        follow_deal(&mut g.state, viewer, &parse_deal(deal)?)
            .map_err(|e| format!("the deal: {e:?}"))?;
    } else if g.state.phase() == Phase::DrawHand && g.state.turns() == 0 {
        return Err("a game with a hand of tiles begins with its deal".to_string());
    }
    let mut turns = d
        .turns
        .into_iter()
        .map(parse_turn)
        .collect::<std::result::Result<Vec<_>, _>>()?;
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
        follow_turn(&mut g.state, viewer, &seen.turn, seen.hidden)
            .map_err(|e| format!("turn {turn}: {e:?}"))?;
    }
    let mut position = g.state.clone();
    if let Some(value) = d.current {
        let seen = parse_turn(value)?;
        follow_turn_start(&mut position, viewer, &seen.turn)
            .map_err(|e| format!("the current turn: {e:?}"))?;
    }
    let view = position.view(Seat(d.seat));
    if position.to_play() != Seat(d.seat) {
        return Err(format!("seat {} is not to play", d.seat));
    }
    // Found by the protocol_serve fuzz target: a decide whose turns leave
    // a draw due (no `current`) made the agent find no action and panic.
    if position.is_chance() || position.is_over() {
        return Err(format!(
            "seat {} has no decision to make here (phase {:?})",
            d.seat,
            position.phase()
        ));
    }
    let action = agent.select(&view, &mut g.rng);
    let mut index = None;
    let mut i = 0;
    view.for_each_action(|a| {
        if a == action && index.is_none() {
            index = Some(i);
        }
        i += 1;
    });
    index.ok_or_else(|| "the agent chose an action that is not legal".to_string())
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
}
