//! The page of `carcassonne analyze` over real results folders: every
//! chart is there, well-formed, and draws its data.

use super::{page, Analysis};
use tournament::metrics;
use tournament::results::schema::{RunKind, Settings};
use tournament::run::config::{Folder, TournamentConfig};
use tournament::run::roster::AgentPlan;

/// A tournament of `agents` with `players` seats played into a fresh
/// folder.
fn played(name: &str, agents: &str, players: usize, games: u64) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("analysis-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = Settings {
        name: tournament::run::config::DEFAULT_NAME.to_string(),
        agents: tournament::run::agent_list::split_agents(&[agents.to_string()]),
        players,
        games_per_pairing: games,
        seed: 7,
        rules: engine::Rules::default(),
        records: false,
        shard: None,
        sprt: None,
        kind: RunKind::Tournament,
        secret_decks: false,
    };
    let plan = AgentPlan::parse(&settings.agents).unwrap();
    let config = TournamentConfig::new(settings, plan, Folder::New(dir.clone()), 1).unwrap();
    tournament::run::tournament::run(&config).unwrap();
    dir
}

/// The tables of `analyze` over `dirs`, as the command computes them.
fn analysis(dirs: &[std::path::PathBuf]) -> Analysis {
    let mut a = Analysis {
        folders: dirs.to_vec(),
        seed: 1,
        ..Analysis::default()
    };
    for group in &metrics::load(dirs).unwrap() {
        a.seats.extend(metrics::seats(group));
        a.decks.extend(metrics::decks(group, 1));
        a.lengths.push(metrics::length(group));
        a.agents.extend(metrics::agents(group));
    }
    a
}

/// Every `<figure>…</figure>` block of `html`: its SVG and its caption.
fn figures(html: &str) -> Vec<&str> {
    html.match_indices("<figure>")
        .map(|(start, _)| {
            let end = start + html[start..].find("</figure>").unwrap();
            &html[start..end]
        })
        .collect()
}

/// How many of `svg`'s elements are `tag` filled with `colour`.
fn filled(svg: &str, tag: &str, colour: &str) -> usize {
    svg.split('<')
        .filter(|e| e.starts_with(tag) && e.contains(&format!("fill=\"{colour}\"")))
        .count()
}

/// The colour of agent `i` as plotters writes it (`#1F77B4`).
fn colour(i: usize) -> String {
    let c = super::charts::agent_colour(i);
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn the_page_charts_seats_decks_length_and_categories_of_every_group() {
    let two = played("two", "random,greedy,random:meeple=0.5", 2, 8);
    let three = played("three", "random,greedy", 3, 6);
    let a = analysis(&[two.clone(), three.clone()]);
    let html = page(&a).unwrap();
    assert!(!html.contains("http"), "the page names an address");
    let figures = figures(&html);
    // Game length, then seats, decks and categories of each group.
    assert_eq!(figures.len(), 1 + 3 * 2, "{html}");
    for f in &figures {
        let svg = &f[f.find("<svg").unwrap()..f.find("</svg>").unwrap() + "</svg>".len()];
        roxmltree::Document::parse(svg).unwrap();
    }
    // The length chart: a dot per group.
    assert_eq!(figures[0].matches("<circle").count(), 2);
    for (g, players) in [(0, 2), (1, 3)] {
        let [seats, decks, categories] = [1, 2, 3].map(|k| figures[1 + 3 * g + k - 1]);
        // A bar per seat, at its share; the fair share's dashes.
        assert_eq!(filled(seats, "rect", &colour(0)), players, "{seats}");
        let shown = a.seats.iter().filter(|r| r.players == players);
        for r in shown {
            assert!(seats.contains(&format!("{:.3}", r.win_share)), "{seats}");
        }
        // A bar per measured share of the deck.
        let measured = a
            .decks
            .iter()
            .filter(|d| d.players == players && d.share.is_some())
            .count();
        assert!(measured > 0);
        assert_eq!(filled(decks, "rect", &colour(0)), measured, "{decks}");
        // A stacked bar per agent and category with points.
        let bars: usize = a
            .agents
            .iter()
            .filter(|r| r.players == players)
            .map(|r| {
                [r.road, r.city, r.monastery, r.farm, r.gifts]
                    .iter()
                    .filter(|&&x| x > 0.0)
                    .count()
            })
            .sum();
        let (r, gr, b) = super::charts::CATEGORIES[1].1;
        let city = format!("#{r:02X}{gr:02X}{b:02X}");
        assert!(filled(categories, "rect", &city) >= 2, "{categories}");
        assert!(bars >= 2 * 2);
    }
    let _ = std::fs::remove_dir_all(&two);
    let _ = std::fs::remove_dir_all(&three);
}
