//! `carcassonne analyze DIR…`: seat advantage, the deck's share, length
//! and points by category over real results folders, grouped by player
//! count, their page of charts, and its refusals.

use crate::common::{fails, ok, read, scratch, tournament};
use std::path::Path;

#[test]
fn analyze_groups_folders_by_player_count_and_writes_its_tables() {
    let root = scratch("analyze-runs");
    let (two, three) = (root.join("two"), root.join("three"));
    let small = |dir: &Path, players: &str| {
        tournament(
            dir,
            &[
                "--agents",
                "random,greedy",
                "--games",
                "12",
                "--players",
                players,
                "--seed",
                "5",
                "--threads",
                "1",
            ],
        )
    };
    small(&two, "2");
    small(&three, "3");
    let out = root.join("tables");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let printed = ok(&["analyze", &s(&two), &s(&three), "--out", &s(&out)]);
    assert!(
        printed.contains("2 players, standard rules: 12 games"),
        "{printed}"
    );
    assert!(printed.contains("3 players, standard rules"), "{printed}");
    let seats = read(&out.join("seats.csv"));
    let mut lines = seats.lines();
    assert_eq!(
        lines.next(),
        Some("players,rules,seat,games,win_share,win_share_low,win_share_high,fair_share,mean_score,mean_margin,mean_margin_se")
    );
    // One row per seat: 2 + 3; the shares of a group sum to 1.
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 5);
    let share = |players: &str| -> f64 {
        rows.iter()
            .filter(|r| r[0] == players)
            .map(|r| r[4].parse::<f64>().unwrap())
            .sum()
    };
    assert!((share("2") - 1.0).abs() < 1e-9 && (share("3") - 1.0).abs() < 1e-9);
    let decks = read(&out.join("decks.csv"));
    // Three measures (total, margin, first_seat) per player count.
    assert_eq!(decks.lines().count(), 1 + 2 * 3, "{decks}");
    assert!(read(&out.join("agents.csv")).contains("greedy"));
    assert!(read(&out.join("length.csv")).starts_with("players,rules,games,forfeited,"));
    // The page of charts: game length, then seats, decks and points by
    // category of each player count.
    let html = read(&out.join("analyze.html"));
    assert_eq!(html.matches("<svg").count(), 1 + 3 * 2, "{html}");
    assert!(html.contains("<h2>3 players, standard rules</h2>"));
    // The same folders, the same tables (the bootstrap is seeded).
    let again = root.join("again");
    ok(&["analyze", &s(&two), &s(&three), "--out", &s(&again)]);
    assert_eq!(decks, read(&again.join("decks.csv")));
    // Refusals: one line each, nothing written.
    let e = fails(&["analyze", &s(&root.join("nothing"))]);
    assert!(e.contains("nothing"), "{e}");
    let e = fails(&["analyze", &s(&two), "--out", &s(&out)]);
    assert!(e.contains("--out"), "{e}");
    let e = fails(&["analyze", &s(&two), &s(&two)]);
    assert!(e.contains("given twice"), "{e}");
}
