//! The legend beside the board: the turn, every seat's colour, agent and
//! score with its breakdown by category, meeples in supply, gift hands
//! (as counts: hands are hidden), what the last turn did, and a key to
//! the magenta outline, shields and lying farmers.

use super::history::History;
use super::meeple::meeple_svg;
use super::palette;
use super::xml_escape;
use std::fmt::Write as _;

/// Width of the legend in SVG units.
pub const WIDTH: f64 = 600.0;
const LINE: f64 = 30.0;
/// Characters of 20-unit text that fit the legend's width.
const CHARS: usize = 48;

/// `parts` joined by " · " into lines of at most `width` characters (a
/// part longer than a line is cut into pieces).
fn wrap(parts: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in parts {
        let pieces: Vec<String> = part
            .chars()
            .collect::<Vec<_>>()
            .chunks(width)
            .map(|c| c.iter().collect())
            .collect();
        for piece in pieces {
            let len = line.chars().count();
            if len == 0 {
                line = piece;
            } else if len + 3 + piece.chars().count() <= width {
                line.push_str(" · ");
                line.push_str(&piece);
            } else {
                lines.push(std::mem::replace(&mut line, piece));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `n thing` or `n things`.
fn count(n: impl Into<u64>, thing: &str) -> String {
    match n.into() {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

/// The legend for frame `n`, drawn from (0, 0); returns it and its height.
pub fn legend(history: &History, n: usize) -> (String, f64) {
    let frame = &history.frames[n];
    let record = &history.record;
    let mut out = String::from(
        r##"<g font-family="DejaVu Sans, Arial, sans-serif" font-size="20" fill="#222">"##,
    );
    let mut y = LINE;
    let title = if frame.over {
        format!("Turn {n} of {} — final scores", history.turns())
    } else {
        format!("Turn {n} of {}", history.turns())
    };
    let _ = write!(
        out,
        r#"<text x="0" y="{y}" font-size="26" font-weight="bold">{title}</text>"#
    );
    y += LINE;
    let mut rules = vec![if record.rules.farmers {
        "farmers"
    } else {
        "no farmers"
    }];
    if record.rules.gifts {
        rules.push("The Gifts");
    }
    let mut subtitle = Vec::new();
    if let Some(seed) = record.seed {
        subtitle.push(format!("seed {seed}"));
    }
    subtitle.push(format!("{} players", record.players));
    subtitle.extend(rules.iter().map(|r| r.to_string()));
    for line in wrap(&subtitle, CHARS) {
        let _ = write!(out, r#"<text x="0" y="{y}">{}</text>"#, xml_escape(&line));
        y += LINE;
    }
    y += LINE * 0.5;
    for (seat, score) in frame.scores.iter().enumerate() {
        out.push_str(&meeple_svg(seat, 12.0, y - 8.0, false));
        let _ = write!(
            out,
            r#"<text x="{}" y="{y}" font-weight="bold" text-anchor="end" font-size="24">{}</text>"#,
            WIDTH - 10.0,
            score.total()
        );
        // A long agent spec goes on as many lines as it needs, left of
        // the total.
        for line in wrap(&[history.seat_name(seat)], CHARS - 10) {
            let _ = write!(
                out,
                r#"<text x="32" y="{y}" font-weight="bold">{}</text>"#,
                xml_escape(&line)
            );
            y += LINE * 0.9;
        }
        let _ = write!(
            out,
            r#"<text x="32" y="{y}" font-size="17">road {} · city {} · monastery {} · farm {} · gifts {}</text>"#,
            score.road, score.city, score.monastery, score.farm, score.gifts
        );
        y += LINE * 0.8;
        let mut stock = format!("{} in supply", count(frame.supply[seat], "meeple"));
        if record.rules.gifts {
            let _ = write!(
                stock,
                " · {} in hand",
                count(frame.hands[seat], "gift card")
            );
        }
        let _ = write!(
            out,
            r##"<text x="32" y="{y}" font-size="17" fill="#555">{stock}</text>"##
        );
        y += LINE * 1.3;
    }
    if n > 0 {
        let seat = record.turns[n - 1].player;
        let _ = write!(
            out,
            r#"<text x="0" y="{y}" font-weight="bold">Turn {n}: seat {seat}</text>"#
        );
        y += LINE;
        for part in history.describe_turn(n) {
            let _ = write!(
                out,
                r#"<text x="16" y="{y}" font-size="18">{}</text>"#,
                xml_escape(&part)
            );
            y += LINE * 0.85;
        }
    }
    y += LINE * 0.5;
    // The key: what the marks on the board mean.
    let _ = write!(
        out,
        r##"<rect x="2" y="{}" width="20" height="20" fill="none" stroke="{}" stroke-width="4"/><text x="32" y="{y}" font-size="17" fill="#555">the last tile placed (and its meeple, circled)</text>"##,
        y - 17.0,
        palette::HIGHLIGHT
    );
    y += LINE * 0.9;
    let _ = write!(
        out,
        r##"<path transform="translate(12,{})" d="M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z" fill="{}" stroke="white" stroke-width="1.5"/><text x="32" y="{y}" font-size="17" fill="#555">a shield: 2 more points for its city (1 at the end)</text>"##,
        y - 6.0,
        palette::SHIELD
    );
    y += LINE * 0.9;
    out.push_str(&meeple_svg(0, 12.0, y - 6.0, true).replace(palette::seat(0), "#888888"));
    let _ = write!(
        out,
        r##"<text x="32" y="{y}" font-size="17" fill="#555">a lying meeple: a farmer on a field</text>"##
    );
    out.push_str("</g>");
    (out, y + LINE * 0.5)
}
