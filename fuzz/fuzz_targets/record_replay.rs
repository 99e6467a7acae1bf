//! Fuzz target: parse arbitrary bytes as a JSON game record and replay it.
//! Parsing or replay may refuse the input, but never panic; a record that
//! replays writes back to JSON that reads and replays to the same state.

#![no_main]

use engine::{replay, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = serde_json::from_str::<Record>(text) else {
        return;
    };
    for end in [false, true] {
        let Ok(state) = replay(&record, end) else {
            continue;
        };
        let json = serde_json::to_string(&record).expect("a record serializes");
        let again: Record = serde_json::from_str(&json).expect("a written record reads back");
        let state2 = replay(&again, end).expect("a written record replays");
        assert_eq!(state, state2, "replay after a JSON round trip differs");
        testkit::assert_conserved(&state);
    }
});
