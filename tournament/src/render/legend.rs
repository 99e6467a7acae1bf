//! The legend beside the board: the turn, every seat's colour, agent and
//! score with its breakdown by category, meeples in supply, gift hands
//! (as counts: hands are hidden) and what the last turn did.

use super::history::History;
use super::meeple::meeple_svg;
use super::xml_escape;
use std::fmt::Write as _;

/// Width of the legend in SVG units.
pub const WIDTH: f64 = 600.0;
const LINE: f64 = 30.0;

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
    let seed = record
        .seed
        .map_or(String::new(), |s| format!("seed {s} · "));
    let _ = write!(
        out,
        r#"<text x="0" y="{y}">{seed}{} players · {}</text>"#,
        record.players,
        rules.join(" · ")
    );
    y += LINE * 1.5;
    for (seat, score) in frame.scores.iter().enumerate() {
        out.push_str(&meeple_svg(seat, 12.0, y - 8.0, false));
        let _ = write!(
            out,
            r#"<text x="32" y="{y}" font-weight="bold">{}</text><text x="{}" y="{y}" font-weight="bold" text-anchor="end" font-size="24">{}</text>"#,
            xml_escape(&history.seat_name(seat)),
            WIDTH - 10.0,
            score.total()
        );
        y += LINE * 0.9;
        let _ = write!(
            out,
            r#"<text x="32" y="{y}" font-size="17">road {} · city {} · monastery {} · farm {} · gifts {}</text>"#,
            score.road, score.city, score.monastery, score.farm, score.gifts
        );
        y += LINE * 0.8;
        let mut stock = format!("{} meeples in supply", frame.supply[seat]);
        if record.rules.gifts {
            let _ = write!(stock, " · {} gift cards in hand", frame.hands[seat]);
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
    out.push_str("</g>");
    (out, y + LINE * 0.5)
}
