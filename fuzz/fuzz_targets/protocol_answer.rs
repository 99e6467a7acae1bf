//! Fuzz target: the toolkit side of the protocol. The first two bytes
//! pick a position (rules, seats, and how many steps of random play lead
//! to a decision); the rest is a line a bot writes, read as its `hello`,
//! its `ready` and its answer to `decide`. A refusal is a one-line forfeit
//! reason of a documented kind; an accepted answer is a legal action.
//! The question it answers is request number `steps`: a line naming
//! another request is stale (skipped, docs/PROTOCOL.md), and an answer
//! taken names this request or none.

#![no_main]

use engine::{random_action, Rules, Seat, State};
use libfuzzer_sys::fuzz_target;
use protocol::external::answer::{
    is_stale, read_answer, read_hello, read_ready, Answer, MAX_REASON,
};
use protocol::external::message::legal_actions;
use rand::SeedableRng;

/// The `request` a line names, as sent (`null` is none).
#[derive(serde::Deserialize)]
struct Named {
    #[serde(default)]
    request: Option<serde_json::Value>,
}

const RULES: [&str; 4] = ["", "gifts=true", "hand=2", "hand=3,hand_visible=true"];

/// A decision after about `steps` steps of random play.
fn position(pick: u8, steps: u8) -> State {
    let rules: Rules = RULES[pick as usize % RULES.len()]
        .parse()
        .expect("valid rules");
    let players = 2 + (pick as usize / RULES.len()) % 3;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(u64::from(pick) << 8 | u64::from(steps));
    let mut state = State::new(rules, players, Seat(0));
    let mut decisions = 0;
    loop {
        if state.is_chance() {
            state.apply_chance(&mut rng);
        } else if decisions == steps || state.is_over() {
            return state;
        } else {
            let action = random_action(&state, &mut rng).expect("a decision has an action");
            state.try_action(action).expect("a listed action is legal");
            decisions += 1;
        }
    }
}

fn check_reason(reason: &str, kinds: &[&str]) {
    assert!(!reason.contains('\n'), "one line: {reason:?}");
    assert!(reason.len() <= MAX_REASON + 80, "short: {reason:?}");
    assert!(
        kinds.iter().any(|k| reason.starts_with(k)),
        "a documented fault: {reason:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let [pick, steps, rest @ ..] = data else {
        return;
    };
    // The toolkit refuses a line that is not UTF-8 before these readers
    // (external::process); lossy keeps the fuzzer's other inputs useful.
    let line = String::from_utf8_lossy(rest);
    // The question being answered is request `steps`: a line naming
    // another request is stale (skipped), one naming it or none is read.
    let request = u64::from(*steps);
    let stale = is_stale(&line, request);
    let named = serde_json::from_str::<Named>(&line).map(|n| n.request);
    if let Ok(Some(named)) = &named {
        assert_eq!(stale, named.as_u64() != Some(request), "stale: {line:?}");
    }
    if stale {
        assert!(
            matches!(named, Ok(Some(_))),
            "stale without a request: {line:?}"
        );
        return;
    }
    if let Err(reason) = read_hello(&line) {
        check_reason(&reason.to_string(), &["bad line", "protocol"]);
    }
    if let Err(reason) = read_ready(&line) {
        check_reason(&reason.to_string(), &["bad line"]);
    }
    let state = position(*pick, *steps);
    if state.is_over() {
        return;
    }
    let view = state.view(state.to_play());
    let legal = legal_actions(&view);
    let answer = read_answer(&view, &legal, &line);
    if answer.is_ok() {
        // An answer taken names this request or none.
        let named = serde_json::from_str::<Named>(&line).expect("an answer taken is JSON");
        assert!(
            named.request.is_none() || named.request.and_then(|r| r.as_u64()) == Some(request),
            "an answer to another request taken: {line:?}"
        );
    }
    match answer {
        Ok(Answer::Action(action)) => {
            assert!(legal.actions.contains(&action), "a legal action");
            let mut after = state.clone();
            after
                .try_action(action)
                .expect("an accepted answer is legal");
        }
        Ok(Answer::History) => {}
        Err(reason) => check_reason(
            &reason.to_string(),
            &["bad line", "illegal action", "wrong seat"],
        ),
    }
});
