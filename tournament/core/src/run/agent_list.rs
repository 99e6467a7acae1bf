//! Splitting `--agents` lists into agent specs, and naming the agents.
//!
//! Spec strings have commas of their own (`mcts:iterations=500,c=0.7`), so a
//! list is not split at every comma. The rule: split at commas, then glue a
//! piece back onto the previous spec when it is a parameter, i.e. it holds an
//! `=` and no `:` before that `=`. So
//! `random,greedy,mcts:iterations=500,c=0.7,random:meeple=0.3` is four
//! agents: `random`, `greedy`, `mcts:iterations=500,c=0.7` and
//! `random:meeple=0.3`. `--agents` may also be repeated; each value is split
//! the same way and the lists are concatenated.
//!
//! An agent listed twice gets a label with a suffix (`random`, `random#2`)
//! so its results stay apart in the output.

/// Split `--agents` values into specs (see the module documentation).
/// Surrounding spaces are trimmed; empty pieces are dropped.
pub fn split_agents<S: AsRef<str>>(values: &[S]) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for value in values {
        let mut current: Option<String> = None;
        for piece in value.as_ref().split(',') {
            let piece = piece.trim();
            if piece.is_empty() {
                continue;
            }
            let is_parameter = match (piece.find('='), piece.find(':')) {
                (Some(eq), Some(colon)) => eq < colon,
                (Some(_), None) => true,
                (None, _) => false,
            };
            match (&mut current, is_parameter) {
                (Some(spec), true) => {
                    spec.push(',');
                    spec.push_str(piece);
                }
                _ => {
                    if let Some(done) = current.take() {
                        specs.push(done);
                    }
                    current = Some(piece.to_string());
                }
            }
        }
        specs.extend(current);
    }
    specs
}

/// A label per agent: its spec, or an inline bot's `label=NAME`
/// (`ext:label=deep,cmd=…` is `deep`), with `#2`, `#3`, … on repeats.
pub fn labels(specs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(specs.len());
    for spec in specs {
        let base = protocol::external::spec::label(spec).unwrap_or(spec);
        let mut label = base.to_string();
        let mut n = 1;
        while out.contains(&label) {
            n += 1;
            label = format!("{base}#{n}");
        }
        out.push(label);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_after_commas_stay_with_their_spec() {
        assert_eq!(
            split_agents(&["random,greedy,mcts:iterations=500,c=0.7,random:meeple=0.3"]),
            vec![
                "random",
                "greedy",
                "mcts:iterations=500,c=0.7",
                "random:meeple=0.3"
            ]
        );
        assert_eq!(
            split_agents(&["mcts:iterations=500, c=0.7 , greedy", "random"]),
            vec!["mcts:iterations=500,c=0.7", "greedy", "random"]
        );
        assert_eq!(split_agents(&["a,,b,"]), vec!["a", "b"]);
        // A parameter with nothing before it is a spec of its own (and an
        // unknown agent later).
        assert_eq!(split_agents(&["c=1,random"]), vec!["c=1", "random"]);
    }

    #[test]
    fn repeated_agents_get_numbered_labels() {
        let specs: Vec<String> = ["random", "greedy", "random"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(labels(&specs), vec!["random", "greedy", "random#2"]);
        let specs: Vec<String> = [
            "ext:label=deep,cmd=bot --depth 9",
            "ext:label=deep,move_ms=5,cmd=bot",
            "deep",
            "random",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(labels(&specs), vec!["deep", "deep#2", "deep#3", "random"]);
    }

    #[test]
    fn two_inline_bots_in_one_list_split_at_the_agent_that_follows_cmd() {
        // docs/PROTOCOL.md, "Running a bot": after cmd= a comma stays in
        // the command only when key=value follows it (no ':' before '=').
        let list = "ext:label=a,cmd=python3 a.py --depth=2,c=0.7,ext:label=b,cmd=./b,greedy";
        assert_eq!(
            split_agents(&[list]),
            vec![
                "ext:label=a,cmd=python3 a.py --depth=2,c=0.7",
                "ext:label=b,cmd=./b",
                "greedy"
            ]
        );
        // An argument after a comma that is not key=value starts an agent.
        assert_eq!(
            split_agents(&["ext:cmd=sh -c exit,0"]),
            vec!["ext:cmd=sh -c exit", "0"]
        );
    }
}
