//! Issue 28: every agent parameter is declared once (`agents::spec::params`),
//! and what the docs say about it is checked against that declaration:
//! the tables of `docs/agents.md` are generated from it, and every
//! default the prose of `docs/agents.md` and `docs/guide.md` names is the
//! real one.
//!
//! After changing a parameter, regenerate the tables with
//! `UPDATE_DOCS=1 cargo test -p carcassonne-agents --test all docs`.

use agents::registry::{kind, parameters_markdown, AGENTS};
use agents::spec::params::Param;
use std::path::PathBuf;

const BEGIN: &str =
    "<!-- parameters: generated from the declarations, see agents/tests/all/docs.rs -->\n";
const END: &str = "<!-- parameters: end -->";

fn doc(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../docs")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(doc(name)).unwrap_or_else(|e| panic!("docs/{name}: {e}"))
}

#[test]
fn the_parameter_tables_of_the_docs_are_the_declarations() {
    let text = read("agents.md");
    let start = text
        .find(BEGIN)
        .expect("docs/agents.md has the generated section")
        + BEGIN.len();
    let end = start + text[start..].find(END).expect("the generated section ends");
    let generated = parameters_markdown();
    if text[start..end].trim() != generated.trim() {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            let new = format!("{}\n{}\n{}", &text[..start], generated.trim(), &text[end..]);
            std::fs::write(doc("agents.md"), new).unwrap();
        } else {
            panic!(
                "docs/agents.md: the parameter tables differ from the declarations; \
                 regenerate them with UPDATE_DOCS=1 cargo test -p carcassonne-agents --test all docs"
            );
        }
    }
}

/// The parameter `key` of any agent whose default is `value`, if any.
fn is_default(key: &str, value: &str) -> bool {
    AGENTS
        .iter()
        .flat_map(|k| k.params)
        .any(|p: &Param| p.name == key && p.default == value)
}

/// Every "`key=…` … default X" or "`key` (default X" of `text` (X up to a comma, semicolon,
/// bracket or space, backticks dropped), with the line it is on.
fn stated_defaults(text: &str) -> Vec<(usize, String, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("default ") {
            let before = &rest[..at];
            let after = &rest[at + "default ".len()..];
            rest = after;
            // The parameter: the last `key=` quoted before it.
            let Some(open) = before
                .rfind('`')
                .and_then(|close| before[..close].rfind('`'))
            else {
                continue;
            };
            let quoted = before[open + 1..].trim_end_matches(|c| c != '`');
            let quoted = quoted.trim_end_matches('`');
            let key = quoted.split_once('=').map_or(quoted, |(k, _)| k);
            let known = AGENTS.iter().flat_map(|k| k.params).any(|p| p.name == key);
            if !known {
                continue;
            }
            let value: String = after
                .trim_start_matches('`')
                .chars()
                .take_while(|c| !",;) `".contains(*c))
                .collect();
            found.push((n + 1, key.to_string(), value));
        }
    }
    found
}

#[test]
fn every_default_the_docs_state_is_the_declared_one() {
    let mut checked = 0;
    for name in ["agents.md", "guide.md"] {
        for (line, key, value) in stated_defaults(&read(name)) {
            assert!(
                is_default(&key, &value),
                "docs/{name}:{line}: says {key} defaults to {value}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} stated defaults found");
}

/// The agent table of `docs/guide.md` shows each agent's main parameters
/// with their defaults: `` `mcts` (`iterations=3000,c=0.7,…`) ``.
#[test]
fn the_guide_shows_each_agent_with_its_defaults() {
    let guide = read("guide.md");
    let mut checked = 0;
    for line in guide.lines() {
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        let Some((name, rest)) = row.split_once('`') else {
            continue;
        };
        let Some(kind) = kind(name) else { continue };
        let Some(shown) = rest.strip_prefix(" (").and_then(|r| r.split_once(')')) else {
            continue;
        };
        for pair in shown.0.split([',', '`']) {
            let Some((key, value)) = pair.trim().split_once('=') else {
                continue;
            };
            let Some(p) = kind.params.iter().find(|p| p.name == key) else {
                panic!("docs/guide.md: {name} has no parameter {key}");
            };
            if value.parse::<f64>().is_ok() {
                assert_eq!(value, p.default, "docs/guide.md: {name} {key}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "{checked} defaults found in the guide");
}
