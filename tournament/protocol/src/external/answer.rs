//! What a bot's lines mean to the toolkit: its `hello`, its `ready`, and
//! its answer to `decide` — an action by index into `legal`, by id or in
//! record notation, or a request for the history. The text is untrusted:
//! anything else is a fault whose one-line reason starts with the kind of
//! fault of docs/PROTOCOL.md (`bad line`, `illegal action`, `wrong seat`,
//! or, for `hello`, `protocol …`). The `protocol_answer` fuzz target
//! (docs/fuzzing.md) feeds these functions arbitrary lines.

use super::error::BotError;
pub use super::error::MAX_REASON;
use super::message::{Incoming, Legal, PROTOCOL};
use engine::{Action, SeatView};

/// A bot's answer to `decide`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// One of the legal actions.
    Action(Action),
    /// `{"type":"history"}`: send every turn, then wait for the action.
    History,
}

/// Read `line` as a protocol message.
fn incoming(line: &str) -> Result<Incoming, BotError> {
    serde_json::from_str(line).map_err(|e| BotError::BadLine(format!("{e}: {}", clip(line))))
}

/// `line` names a `request` other than `request`: it answers an earlier
/// question (docs/PROTOCOL.md, stale lines) and is skipped. A line that is
/// not JSON, or names no request, is not stale (the readers judge it).
pub fn is_stale(line: &str, request: u64) -> bool {
    #[derive(serde::Deserialize)]
    struct Echo {
        #[serde(default)]
        request: Option<serde_json::Value>,
    }
    match serde_json::from_str::<Echo>(line) {
        Ok(Echo {
            request: Some(value),
        }) => value.as_u64() != Some(request),
        _ => false,
    }
}

/// Check the bot's `hello`: the protocol spoken here.
///
/// # Errors
/// `bad line …` for a line that is not a `hello`, `protocol …` for
/// another protocol.
pub fn read_hello(line: &str) -> Result<(), BotError> {
    let hello = incoming(line)?;
    if hello.kind != "hello" {
        return Err(BotError::BadLine(format!(
            "expected hello, got {:?}",
            hello.kind
        )));
    }
    match hello.protocol {
        Some(p) if p == PROTOCOL => Ok(()),
        got => Err(BotError::Protocol {
            got,
            expected: PROTOCOL,
        }),
    }
}

/// Check the bot's answer to `new_game`.
///
/// # Errors
/// `bad line …` for anything but `{"type":"ready"}`.
pub fn read_ready(line: &str) -> Result<(), BotError> {
    match serde_json::from_str::<Incoming>(line) {
        Ok(m) if m.kind == "ready" => Ok(()),
        // Clipped too: found by the protocol_answer fuzz target (escaped
        // control characters made the 60-byte start of a line ~360 bytes).
        _ => Err(BotError::BadLine(format!(
            "expected ready, got {}",
            clip(line)
        ))),
    }
}

/// The bot's answer `line` to a `decide` for the seat of `view`, whose
/// legal actions are `legal`.
///
/// # Errors
/// The forfeit reason: `bad line`, `wrong seat` or `illegal action`.
pub fn read_answer(view: &SeatView<'_>, legal: &Legal, line: &str) -> Result<Answer, BotError> {
    let reply = incoming(line)?;
    match reply.kind.as_str() {
        "history" => Ok(Answer::History),
        "action" => {
            if let Some(seat) = reply.seat.filter(|&s| s != view.seat().0) {
                return Err(BotError::WrongSeat {
                    answered: seat,
                    to_play: view.seat().0,
                });
            }
            choose(view, legal, &reply).map(Answer::Action)
        }
        other => Err(BotError::BadLine(format!(
            "expected an action, got {other:?}"
        ))),
    }
}

/// The action a reply names: by index into `legal`, by id, or in record
/// notation (read by the engine, then looked up among the legal actions).
fn choose(view: &SeatView<'_>, legal: &Legal, reply: &Incoming) -> Result<Action, BotError> {
    // Every reason is clipped (BotError's Display): a long unreadable
    // action once made a forfeit reason of any length.
    match (reply.index, reply.id, &reply.action) {
        (Some(index), _, _) => legal
            .actions
            .get(index)
            .copied()
            .ok_or(BotError::IllegalIndex {
                index,
                count: legal.actions.len(),
            }),
        (None, Some(id), _) => legal
            .ids
            .iter()
            .position(|&l| l == id)
            .map(|i| legal.actions[i])
            .ok_or(BotError::IllegalId(id)),
        (None, None, Some(text)) => match view.parse_action(text) {
            Ok(action) if legal.actions.contains(&action) => Ok(action),
            Ok(_) => Err(BotError::NotLegal(text.clone())),
            Err(e) => Err(BotError::Unreadable(e.to_string())),
        },
        (None, None, None) => Err(BotError::BadLine(
            "an action needs \"index\", \"id\" or \"action\"".to_string(),
        )),
    }
}

/// The start of a long line, for a forfeit reason.
fn clip(line: &str) -> String {
    let mut end = line.len().min(60);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}", &line[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::message::legal_actions;
    use engine::{Rules, Seat, State, Tile};

    /// Seat 0 to place a U at the start.
    fn position() -> State {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state
            .apply_chance_outcome(engine::Chance::Tile(Tile::U))
            .unwrap();
        state
    }

    #[test]
    fn an_answer_names_a_legal_action_by_index_id_or_notation() {
        let state = position();
        let view = state.view(Seat(0));
        let legal = legal_actions(&view);
        let first = Answer::Action(legal.actions[0]);
        let by_index = r#"{"type":"action","index":0,"seat":0}"#;
        let by_id = format!(r#"{{"type":"action","id":{}}}"#, legal.ids[0]);
        let by_text = format!(r#"{{"type":"action","action":"{}"}}"#, legal.notation[0]);
        for line in [by_index.to_string(), by_id, by_text] {
            assert_eq!(
                read_answer(&view, &legal, &line).ok(),
                Some(first),
                "{line}"
            );
        }
        let history = read_answer(&view, &legal, r#"{"type":"history"}"#);
        assert_eq!(history.ok(), Some(Answer::History));
    }

    #[test]
    fn a_bad_answer_is_a_one_line_reason_of_its_kind() {
        let state = position();
        let view = state.view(Seat(0));
        let legal = legal_actions(&view);
        let long = format!(r#"{{"type":"action","action":"{}\n"}}"#, "x".repeat(5000));
        for (line, kind) in [
            ("bestmove e2e4", "bad line"),
            (r#"{"type":"move"}"#, "bad line"),
            (r#"{"type":"action"}"#, "bad line"),
            (r#"{"type":"action","index":9999}"#, "illegal action"),
            (r#"{"type":"action","action":"keep A"}"#, "illegal action"),
            (r#"{"type":"action","index":0,"seat":1}"#, "wrong seat"),
            (&long, "illegal action"),
        ] {
            let reason = read_answer(&view, &legal, line).unwrap_err().to_string();
            assert!(reason.starts_with(kind), "{line}: {reason}");
            assert!(
                !reason.contains('\n') && reason.len() <= MAX_REASON,
                "{reason}"
            );
        }
        assert!(
            read_hello(r#"{"type":"hello","protocol":"carcassonne-bot/0"}"#)
                .unwrap_err()
                .to_string()
                .starts_with("protocol")
        );
        assert!(read_ready("{}")
            .unwrap_err()
            .to_string()
            .starts_with("bad line"));
        let controls = read_ready(&"\u{f}".repeat(100)).unwrap_err().to_string();
        assert!(controls.len() <= MAX_REASON, "{controls}");
    }

    #[test]
    fn only_an_answer_naming_another_request_is_stale() {
        assert!(!is_stale(r#"{"type":"action","index":0}"#, 7));
        assert!(!is_stale(r#"{"type":"action","index":0,"request":7}"#, 7));
        assert!(is_stale(r#"{"type":"action","index":0,"request":6}"#, 7));
        assert!(is_stale(r#"{"type":"ready","request":"7"}"#, 7));
        assert!(!is_stale("not json", 7));
    }
}
