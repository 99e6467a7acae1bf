//! Fuzz target: the bot side of the protocol. The first byte sets the
//! longest line (16 MiB for a 0, else that many bytes times 4, so the
//! bound is reached with short inputs); the rest are the lines
//! `carcassonne serve random` reads on stdin (hello, new_game, decide with
//! its deal, turns, turn in progress and `legal` list, game_over, quit).
//! It may refuse them, but with a one-line error and never a panic;
//! whatever it wrote before is one answer per message it took, in order:
//! `hello`, `ready`, and for a `decide` an index into the `legal` list it
//! was sent, echoing the message's `request`. A line is refused as too
//! long exactly when it is longer than the bound.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The fields of a message checked here, typed as `serve` reads them (a
/// line `serve` took parses as this too; `Value` would refuse numbers
/// such as 1e400 that an ignored field may hold).
#[derive(serde::Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    request: Option<u64>,
    #[serde(default)]
    legal: Option<Vec<String>>,
}

/// The lines of `input` as `serve` counts them: cut at `\n`, a `\r`
/// before it dropped, a last line without `\n` kept.
fn lines(input: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.is_empty() || input.ends_with(b"\n") {
        lines.pop();
    }
    let ends = input.iter().filter(|&&b| b == b'\n').count();
    for (i, line) in lines.iter_mut().enumerate() {
        if i < ends {
            if let Some(cut) = line.strip_suffix(b"\r") {
                *line = cut;
            }
        }
    }
    lines
}

fuzz_target!(|data: &[u8]| {
    let [bound, input @ ..] = data else {
        return;
    };
    let max_line = match *bound {
        0 => protocol::serve::MAX_LINE,
        b => usize::from(b) * 4,
    };
    let mut out = Vec::new();
    let result = protocol::serve::serve_bounded("random", input, &mut out, max_line);
    let lines = lines(input);
    // The lines taken: all of them up to `quit`, or those before the one
    // named by the error.
    let (taken, refused) = match &result {
        Ok(()) => (lines.len(), None),
        Err(e) => {
            let e = e.to_string();
            assert!(!e.contains('\n'), "a one-line error: {e}");
            let n: usize = e
                .strip_prefix("line ")
                .and_then(|r| r.split(':').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("the error names its line: {e}"));
            assert!(
                n >= 1 && n <= lines.len(),
                "line {n} of {}: {e}",
                lines.len()
            );
            (n - 1, Some((n - 1, e)))
        }
    };
    if let Some((n, e)) = &refused {
        let too_long = e.contains("line too long");
        assert_eq!(
            too_long,
            lines[*n].len() > max_line,
            "a line of {} bytes, the bound {max_line}: {e}",
            lines[*n].len()
        );
    }
    let out = String::from_utf8(out).expect("serve writes UTF-8");
    let mut answers = out.lines();
    for line in &lines[..taken] {
        assert!(line.len() <= max_line, "a line over the bound was taken");
        let Ok(msg) = serde_json::from_slice::<Msg>(line) else {
            // Only a blank line is skipped.
            assert!(
                std::str::from_utf8(line).is_ok_and(|l| l.trim().is_empty()),
                "serve took a line that is not a message"
            );
            continue;
        };
        let kind = msg.kind.as_str();
        if kind == "quit" {
            break;
        }
        if !matches!(kind, "hello" | "new_game" | "decide") {
            continue;
        }
        let answer = answers.next().expect("one answer per question");
        let answer: Value = serde_json::from_str(answer).expect("serve writes JSON");
        let expected = match kind {
            "hello" => "hello",
            "new_game" => "ready",
            _ => "action",
        };
        assert_eq!(answer["type"], expected, "the answer to a {kind}");
        if kind != "hello" {
            // `request` is echoed as sent (or left out).
            assert_eq!(
                answer["request"].as_u64(),
                msg.request,
                "the request echoed"
            );
        }
        if kind == "decide" {
            let index = answer["index"].as_u64().expect("an index") as usize;
            if let Some(legal) = &msg.legal {
                assert!(
                    index < legal.len(),
                    "index {index} of {} legal",
                    legal.len()
                );
            }
        }
    }
    assert!(answers.next().is_none(), "no answer without a question");
});
