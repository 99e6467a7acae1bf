//! Fuzz target: the bot side of the protocol. Arbitrary bytes are the
//! lines `carcassonne serve random` reads on stdin (hello, new_game,
//! decide with its deal, turns and turn in progress, game_over, quit). It
//! may refuse them, but with a one-line error and never a panic, and
//! whatever it wrote before is protocol lines: JSON objects with a type.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let result = protocol::serve::serve("random", data, &mut out);
    if let Err(e) = result {
        let e = e.to_string();
        assert!(!e.contains('\n'), "a one-line error: {e}");
    }
    let out = String::from_utf8(out).expect("serve writes UTF-8");
    for line in out.lines() {
        let msg: serde_json::Value = serde_json::from_str(line).expect("serve writes JSON");
        assert!(msg["type"].is_string(), "a message has a type: {line}");
    }
});
