//! `carcassonne ratings`: one ladder over several real tournaments, its
//! files, `--update`, and the refusals.

use crate::common::{fails, json, ok, read, scratch, tournament};
use std::path::Path;

fn small(dir: &Path, agents: &str, seed: &str, extra: &[&str]) {
    let mut args = vec![
        "--agents",
        agents,
        "--games",
        "10",
        "--seed",
        seed,
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    tournament(dir, &args);
}

/// ratings.csv as (agent, rating) in its order.
fn ratings(dir: &Path) -> Vec<(String, String)> {
    let text = read(&dir.join("ratings.csv"));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("agent,rating,low,high,games,score,opponents")
    );
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect()
}

#[test]
fn ratings_pool_two_tournaments_into_one_ladder_and_update_it() {
    let root = scratch("ratings");
    let (t1, t2, t3) = (root.join("t1"), root.join("t2"), root.join("t3"));
    small(&t1, "random,greedy", "3", &[]);
    small(&t2, "greedy,mcts:iterations=20", "4", &[]);
    let ladder = root.join("ladder");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let printed = ok(&[
        "ratings",
        &s(&t1),
        &s(&t2),
        "--bootstrap",
        "50",
        "--out",
        &s(&ladder),
    ]);
    assert!(
        printed.contains("rank") && printed.contains("mcts:iterations=20"),
        "{printed}"
    );
    let rows = ratings(&ladder);
    assert_eq!(rows.len(), 3);
    let rating = |name: &str| -> f64 {
        rows.iter()
            .find(|(a, _)| a == name)
            .unwrap()
            .1
            .parse()
            .unwrap()
    };
    // The default anchor: the first folder's first agent at 0.
    assert_eq!(rating("random"), 0.0);
    assert!(rating("greedy") > rating("random") + 100.0, "{rows:?}");
    assert!(read(&ladder.join("headtohead.csv"))
        .starts_with("agent,opponent,games,wins,draws,losses,score\n"));
    let html = read(&ladder.join("ratings.html"));
    assert_eq!(html.matches("<svg").count(), 2);
    assert!(html.contains("mcts:iterations=20"));
    let info = json(&ladder.join("ladder.json"));
    assert_eq!(info["folders"].as_array().unwrap().len(), 2);
    assert_eq!(info["anchor"]["agent"], "random");
    assert_eq!(info["bootstrap"], 50);

    // The same fit again prints the same ladder (seeded bootstrap).
    let again = ok(&["ratings", &s(&t1), &s(&t2), "--bootstrap", "50"]);
    assert_eq!(
        printed.lines().take(4).collect::<Vec<_>>(),
        again.lines().take(4).collect::<Vec<_>>()
    );

    // Update with a third folder; one already in is refused.
    small(&t3, "random,greedy", "5", &[]);
    ok(&["ratings", "--update", &s(&ladder), &s(&t3)]);
    let info = json(&ladder.join("ladder.json"));
    assert_eq!(info["folders"].as_array().unwrap().len(), 3);
    assert_eq!(info["bootstrap"], 50);
    let before = read(&ladder.join("ratings.csv"));
    let e = fails(&["ratings", "--update", &s(&ladder), &s(&t3)]);
    assert!(e.contains("already in the ladder"), "{e}");

    // Other player counts are refused naming both folders; nothing changes.
    let three = root.join("three");
    small(&three, "random,greedy", "6", &["--players", "3"]);
    let e = fails(&["ratings", "--update", &s(&ladder), &s(&three)]);
    assert!(
        e.contains("t1") && e.contains("three") && e.contains("3-player"),
        "{e}"
    );
    assert_eq!(read(&ladder.join("ratings.csv")), before);
    let e = fails(&["ratings", &s(&t1), &s(&root)]);
    assert!(e.contains("not a results folder"), "{e}");

    // Agents without a chain of games to the anchor are unconnected.
    let apart = root.join("apart");
    small(&apart, "random:meeple=0.2,random:meeple=0.8", "7", &[]);
    let printed = ok(&["ratings", &s(&t1), &s(&apart), "--bootstrap", "0"]);
    assert_eq!(printed.matches("unconnected").count(), 2, "{printed}");
    std::fs::remove_dir_all(root).unwrap();
}
