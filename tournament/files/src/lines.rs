//! Line handling of the append-only files (`records.jsonl`,
//! `positions.csv`): a process killed mid-write leaves a partial last
//! line, which is never a game.

/// Split complete lines of a JSON Lines file (a partial last line is
/// dropped).
pub fn complete_lines(text: &str) -> Vec<String> {
    let end = text.rfind('\n').map_or(0, |i| i + 1);
    text[..end].lines().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::complete_lines;

    #[test]
    fn a_partial_last_line_is_dropped() {
        assert_eq!(complete_lines("a\nb\nc"), vec!["a", "b"]);
        assert_eq!(complete_lines("a\n"), vec!["a"]);
        assert!(complete_lines("partial").is_empty());
        assert!(complete_lines("").is_empty());
    }
}
