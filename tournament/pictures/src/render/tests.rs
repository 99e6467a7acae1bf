//! Pixel tests: every tile kind in every rotation rendered to PNG pixels,
//! sampled where the engine's tables say a road, city, field, monastery
//! or meeple must be.

use super::history::History;
use super::meeple::meeple_svg;
use super::palette;
use super::png::rasterise;
use super::tile::{edge_middle, inset, location_point, port_point, tile_svg, SIZE};
use engine::{Edge, NO_SEGMENT};
use engine::{Port, Rotation, Side, Tile};

fn single(tile: Tile, rot: Rotation, extra: &str) -> resvg::tiny_skia::Pixmap {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}">{}{extra}</svg>"#,
        tile_svg(tile, rot)
    );
    rasterise(&svg, 1.0).unwrap()
}

fn assert_colour(
    pixmap: &resvg::tiny_skia::Pixmap,
    at: (f64, f64),
    want: &str,
    what: &dyn Fn() -> String,
) {
    let p = pixmap.pixel(at.0 as u32, at.1 as u32).unwrap();
    let got = [p.red(), p.green(), p.blue()];
    let want_rgb = palette::rgb(want);
    let close = got
        .iter()
        .zip(want_rgb)
        .all(|(&g, w)| (g as i32 - w as i32).abs() <= 3);
    assert!(
        close,
        "{}: pixel at {at:?} is {got:?}, expected {want} {want_rgb:?}",
        what()
    );
}

#[test]
fn every_tile_in_every_rotation_shows_its_edges_fields_and_monastery() {
    for tile in Tile::ALL {
        for rot in Rotation::ALL {
            let pixmap = single(tile, rot, "");
            let o = tile.oriented(rot);
            for side in Side::ALL {
                let want = match o.edges[side.index()] {
                    Edge::Road => palette::ROAD,
                    Edge::City => palette::CITY,
                    Edge::Field => palette::FIELD,
                };
                let at = inset(side, edge_middle(side), 4.0);
                assert_colour(&pixmap, at, want, &|| {
                    format!("{tile} rot {rot} edge {side}")
                });
            }
            for port in Port::ALL {
                if o.port_segment[port.index()] != NO_SEGMENT {
                    assert_colour(&pixmap, port_point(port), palette::FIELD, &|| {
                        format!("{tile} rot {rot} field {port}")
                    });
                }
            }
            if o.monastery != NO_SEGMENT {
                assert_colour(&pixmap, (50.0, 50.0), palette::MONASTERY, &|| {
                    format!("{tile} rot {rot} monastery")
                });
            }
        }
    }
}

#[test]
fn a_meeple_shows_in_its_seat_colour_on_every_location_of_every_tile() {
    for tile in Tile::ALL {
        for rot in Rotation::ALL {
            let o = tile.oriented(rot);
            for segment in 0..tile.segment_count() {
                let location = o.canonical[segment];
                let seat = segment % palette::SEATS.len();
                let (x, y) = location_point(location);
                let pixmap = single(tile, rot, &meeple_svg(seat, x, y, false));
                assert_colour(&pixmap, (x, y), palette::seat(seat), &|| {
                    format!("{tile} rot {rot} meeple on {location}")
                });
            }
        }
    }
}

#[test]
fn the_board_puts_each_tile_in_its_cell_north_up() {
    // U (a straight road N–S) placed east of the start tile, turned a
    // quarter: its road runs W–E and meets the start tile's road.
    let record: engine::Record = serde_json::from_str(
        r#"{"players": 2, "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1, "meeple": "W"}]}"#,
    )
    .unwrap();
    let history = History::new(&record).unwrap();
    let svg = super::picture(&history, 1);
    let pixmap = rasterise(&svg, 1.0).unwrap();
    let (x0, y0) = (super::board::MARGIN, super::board::MARGIN);
    // Start tile D at (0, 0): city north, road W–E.
    assert_colour(&pixmap, (x0 + 50.0, y0 + 4.0), palette::CITY, &|| {
        "start tile north".into()
    });
    assert_colour(&pixmap, (x0 + 50.0, y0 + 96.0), palette::FIELD, &|| {
        "start tile south".into()
    });
    // The U tile east of it: a road across it, field at its north.
    assert_colour(
        &pixmap,
        (x0 + SIZE + 30.0, y0 + 50.0),
        palette::ROAD,
        &|| "U east".into(),
    );
    assert_colour(
        &pixmap,
        (x0 + SIZE + 50.0, y0 + 10.0),
        palette::FIELD,
        &|| "U north".into(),
    );
    // Its meeple on the road, where the record put it (W, while the
    // road's canonical name is E), in seat 0's colour.
    let (mx, my) = location_point(engine::Location::Edge(Side::W));
    assert_colour(
        &pixmap,
        (x0 + SIZE + mx, y0 + my),
        palette::seat(0),
        &|| "meeple".into(),
    );
}

#[test]
fn pictures_parse_as_xml() {
    let record: engine::Record = serde_json::from_str(
        r#"{"players": 3, "agents": ["a<b", "c&d", "e"], "turns": [{"player": 0, "tile": "U", "x": 1, "y": 0, "rot": 1, "meeple": "W"}]}"#,
    )
    .unwrap();
    let history = History::new(&record).unwrap();
    for n in 0..=1 {
        let svg = super::picture(&history, n);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: String = doc
            .descendants()
            .filter_map(|node| node.text())
            .collect::<Vec<_>>()
            .join("|");
        assert!(texts.contains("a<b") && texts.contains("c&d"), "{texts}");
    }
}

#[test]
fn png_pictures_show_their_text() {
    // The legend's title is dark text on white; without a usable font
    // (fonts-dejavu-core, which .ci/run installs) it would be blank.
    let record: engine::Record = serde_json::from_str(r#"{"players": 2, "turns": []}"#).unwrap();
    let history = History::new(&record).unwrap();
    let svg = super::picture(&history, 0);
    let pixmap = rasterise(&svg, 1.0).unwrap();
    let x0 = super::board::Extent::of(std::iter::once(engine::Pos::ORIGIN)).width() + 10.0;
    let dark = (x0 as u32..x0 as u32 + 200)
        .flat_map(|x| (25..50).map(move |y| (x, y)))
        .filter(|&(x, y)| pixmap.pixel(x, y).is_some_and(|p| p.red() < 100))
        .count();
    assert!(
        dark > 50,
        "the title has {dark} dark pixels: no font rendered (install fonts-dejavu-core)"
    );
}

#[test]
fn every_frame_shows_exactly_the_meeples_on_the_board_and_one_highlight() {
    for (players, gifts) in [(2, false), (4, true)] {
        let record = crate::test_games::test_record(&["greedy", "random"], players, gifts, 11);
        let history = History::new(&record).unwrap();
        for (n, frame) in history.frames.iter().enumerate() {
            let svg = super::picture(&history, n);
            // The legend draws one meeple per seat and a farmer in its key.
            let figures = svg.matches(super::meeple::FIGURE).count();
            assert_eq!(figures, frame.meeples.len() + players + 1, "frame {n}");
            let outlines = svg.matches(palette::HIGHLIGHT).count();
            let placed = usize::from(history.placed_by(n).is_some());
            // The turn's meeple is ringed while it stands (a feature it
            // completed at once has already sent it back).
            let ringed = history
                .placed_by(n)
                .is_some_and(|slot| frame.meeples.iter().any(|m| m.slot == slot));
            // The key shows the outline once more.
            assert_eq!(outlines, placed + usize::from(ringed) + 1, "frame {n}");
        }
    }
}

#[test]
fn the_legend_fits_its_width_and_explains_the_marks() {
    let mut record = crate::test_games::test_record(&["greedy", "random"], 2, true, 11);
    record.seed = Some(u64::MAX);
    record.agents[0] =
        "mcts:iterations=2000,c=0.7,eval=models/a-long-model-name.json,rollout=greedy".to_string();
    let history = History::new(&record).unwrap();
    let (legend, _) = super::legend::legend(&history, history.turns());
    let doc = roxmltree::Document::parse(&legend).unwrap();
    for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let chars = text.text().unwrap_or("").chars().count();
        let size: f64 = text
            .attribute("font-size")
            .map_or(20.0, |s| s.parse().unwrap());
        let x: f64 = text.attribute("x").unwrap().parse().unwrap();
        // DejaVu Sans averages under 0.62 em a character.
        if text.attribute("text-anchor") != Some("end") {
            assert!(
                x + chars as f64 * size * 0.62 <= super::legend::WIDTH,
                "{:?} is clipped",
                text.text()
            );
        }
    }
    for words in ["the last tile placed", "a shield", "a farmer"] {
        assert!(legend.contains(words), "the key lacks {words:?}");
    }
    assert!(!legend.contains(" 1 meeples") && !legend.contains(">1 meeples"));
    assert!(
        !palette::SEATS.contains(&palette::SHIELD),
        "shields share a seat's colour"
    );
}
