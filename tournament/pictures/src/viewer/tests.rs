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
