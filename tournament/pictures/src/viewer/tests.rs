//! The viewer page: self-contained, one frame per turn, every seat.

use super::page;
use crate::render::history::History;

fn game(players: usize, gifts: bool) -> engine::Record {
    crate::test_games::test_record(&["random", "greedy"], players, gifts, 5)
}

#[test]
fn the_page_is_self_contained_with_every_turn_and_seat() {
    for (players, gifts) in [(2, false), (3, true), (6, false), (6, true)] {
        let record = game(players, gifts);
        let history = History::new(&record).unwrap();
        let html = page(&history).unwrap();
        assert!(!html.contains("http"), "the page names an address");
        assert!(!html.contains("src="), "the page loads something");
        let data_start = html.find("const GAME = ").unwrap() + "const GAME = ".len();
        let data_end = data_start + html[data_start..].find(";</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&html[data_start..data_end]).unwrap();
        assert_eq!(
            data["frames"].as_array().unwrap().len(),
            record.turns.len() + 1
        );
        assert_eq!(data["names"].as_array().unwrap().len(), players);
        assert_eq!(data["gifts"], gifts);
        let last = &data["frames"][record.turns.len()]["seats"];
        for (seat, total) in record
            .final_scores
            .as_ref()
            .unwrap()
            .scores
            .iter()
            .enumerate()
        {
            assert_eq!(
                last[seat]["total"], *total,
                "{players} players, seat {seat}"
            );
        }
        // Every placed tile is on the board once, tagged with its turn.
        let tiles = html.matches(r#"<g class="item""#).count();
        assert!(tiles >= history.tiles.len(), "{tiles} items");
        let slider = format!(r#"max="{}""#, record.turns.len());
        assert!(html.contains(&slider), "slider missing");
    }
}

/// An analysis of `record` as `analyze-game` writes it, by hand: each
/// turn's decision with the move played as the agent's only top move.
fn analysis_of(record: &engine::Record) -> serde_json::Value {
    let decisions: Vec<serde_json::Value> = record
        .turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.tile.is_some() && t.gift_open.is_none())
        .map(|(i, t)| {
            let m = serde_json::json!({
                "action": "x", "visits": 10, "share": 1.0, "prior": null, "value": 0.5,
                "lead": 1.5, "win": 0.6,
                "place": {"tile": t.tile.unwrap().to_string(), "x": t.x, "y": t.y, "rot": t.rot,
                          "meeple": t.meeple.map(|l| l.to_string())},
            });
            serde_json::json!({
                "decision": i, "turn": i + 1, "seat": t.player, "kind": "place", "legal": 2,
                "iterations": 10, "best": m, "top": [m], "played": m,
                "points_lost": 0.0, "win_lost": 0.0, "revalued": false, "verdict": "best",
            })
        })
        .collect();
    serde_json::json!({
        "format": "carcassonne-analysis/1", "agent": "mcts", "seed": 1, "mistake": 3.0,
        "blunder": 8.0, "players": record.players, "decisions": decisions,
    })
}

#[test]
fn an_analysis_adds_its_panel_and_candidates_and_one_of_another_game_is_refused() {
    let dir = std::env::temp_dir().join(format!("viewer-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for gifts in [false, true] {
        let record = game(2, gifts);
        let history = History::new(&record).unwrap();
        let json = analysis_of(&record);
        let path = dir.join("a.json");
        std::fs::write(&path, json.to_string()).unwrap();
        let analysis = super::Analysis::load(&path, &history).unwrap();
        let html = super::page_with(&history, Some(&analysis)).unwrap();
        let n = json["decisions"].as_array().unwrap().len();
        assert!(n > 60, "{n} decisions");
        assert_eq!(html.matches(r#"<g class="cand""#).count(), n);
        assert!(html.contains(r#"<div id="analysis">"#));
        assert!(html.contains("const ANALYSIS = "));
        assert!(!html.contains("http") && !html.contains("src="));
        // The plain page has none of it.
        let plain = page(&history).unwrap();
        assert!(!plain.contains("ANALYSIS") && !plain.contains("class=\"cand\""));
        // Another game's analysis (a move moved) is refused.
        let mut other = json.clone();
        other["decisions"][3]["played"]["place"]["x"] = serde_json::json!(40);
        std::fs::write(&path, other.to_string()).unwrap();
        let err = super::Analysis::load(&path, &history)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("not of this game"), "{err}");
    }
    std::fs::write(dir.join("b.json"), "{}").unwrap();
    let record = game(2, false);
    let err = super::Analysis::load(&dir.join("b.json"), &History::new(&record).unwrap())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not an analysis"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
