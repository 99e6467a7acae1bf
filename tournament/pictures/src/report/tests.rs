//! The report of small results folders written by real runs.

use super::REPORT_HTML;
use tournament::results::schema::{RunKind, Settings, SprtSettings};
use tournament::run::config::{Folder, TournamentConfig};
use tournament::run::roster::AgentPlan;

/// A tournament of `agents` (a comma-separated list) played into a fresh
/// folder, with its report written as the command writes it.
fn run(
    name: &str,
    agents: &str,
    players: usize,
    games: u64,
    sprt: Option<(f64, f64)>,
) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("report-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = Settings {
        name: tournament::run::config::DEFAULT_NAME.to_string(),
        agents: tournament::run::agent_list::split_agents(&[agents.to_string()]),
        players,
        games_per_pairing: games,
        seed: 4,
        rules: engine::Rules::default(),
        records: false,
        shard: None,
        sprt: sprt.map(|(elo0, elo1)| SprtSettings {
            elo0,
            elo1,
            alpha: tournament::run::config::SPRT_ALPHA,
            beta: tournament::run::config::SPRT_BETA,
        }),
        kind: RunKind::Tournament,
        secret_decks: false,
    };
    let plan = AgentPlan::parse(&settings.agents).unwrap();
    let config = TournamentConfig::new(settings, plan, Folder::New(dir.clone()), 1).unwrap();
    tournament::run::tournament::run(&config).unwrap();
    super::report(&dir, None).unwrap();
    dir
}

/// Every `<svg>…</svg>` block of `html`.
fn svgs(html: &str) -> Vec<&str> {
    html.match_indices("<svg")
        .map(|(start, _)| {
            let end = start + html[start..].find("</svg>").unwrap() + "</svg>".len();
            &html[start..end]
        })
        .collect()
}

#[test]
fn a_tournament_writes_a_report_holding_its_summary_values() {
    let dir = run("three", "random,greedy,random:meeple=0.3", 3, 6, None);
    let html = std::fs::read_to_string(dir.join(REPORT_HTML)).unwrap();
    assert!(!html.contains("http"), "the report names an address");
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(summary.as_bytes());
    let mut cells = 0;
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    for h in &header {
        let shown = format!("<th>{}</th>", super::xml_escape(&super::human_header(h)));
        assert!(html.contains(&shown), "header {h:?} missing");
        assert!(
            !html.contains(&format!("<th>{h}</th>")) || !h.contains('_'),
            "raw header {h}"
        );
    }
    for row in reader.records() {
        for (i, cell) in row.unwrap().iter().enumerate() {
            let cell = &super::display_cell(&header[i], cell);
            let shown = format!(">{}</td>", super::xml_escape(cell));
            assert!(html.contains(&shown), "summary value {cell:?} missing");
            cells += 1;
        }
    }
    assert_eq!(cells, 3 * 15);
    // Six charts, each well-formed XML; no SPRT without --sprt.
    let charts = svgs(&html);
    assert_eq!(
        charts.len(),
        6,
        "elo, heat map, scores, categories, seats, the deck's shares"
    );
    for svg in charts {
        roxmltree::Document::parse(svg).unwrap();
    }
    assert!(!html.contains("<h2>SPRT</h2>"));
    assert!(html.contains("seat 2"));
    // The analysis of the game: three seats with their share of the wins,
    // and the deck's shares (each deck is played under its rotations).
    assert!(html.contains("<h2>Seat advantage and the deck's share</h2>"));
    assert!(html.contains(">33.3%</td>"), "the fair share of 3 seats");
    assert!(
        html.contains("of a game's total points: <b>"),
        "a measured share"
    );
}

#[test]
fn an_sprt_run_reports_its_trace() {
    let dir = run("sprt", "greedy,random", 2, 40, Some((0.0, 150.0)));
    let html = std::fs::read_to_string(dir.join(REPORT_HTML)).unwrap();
    assert!(html.contains("<h2>SPRT</h2>"));
    assert_eq!(svgs(&html).len(), 7);
    // Rewriting it on demand gives the same page.
    let again = super::report(&dir, Some(dir.join("again.html"))).unwrap();
    assert_eq!(std::fs::read_to_string(again).unwrap(), html);
}

#[test]
fn a_folder_without_results_is_a_one_line_error() {
    let dir = std::env::temp_dir().join(format!("report-unit-{}-empty", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = super::report(&dir, None).unwrap_err().to_string();
    assert!(
        err.starts_with("cannot read ") && err.contains("run.json"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(!dir.join(REPORT_HTML).exists());
}

#[test]
fn a_corrupt_games_csv_is_named_with_its_line() {
    let dir = run("corrupt", "random,greedy", 2, 2, None);
    let games = dir.join(tournament::results::schema::GAMES_CSV);
    let mut text = std::fs::read_to_string(&games).unwrap();
    let lines = text.lines().count();
    text.push_str("not,a,games,row\n");
    std::fs::write(&games, text).unwrap();
    let out = dir.join("corrupt.html");
    let err = super::report(&dir, Some(out.clone()))
        .unwrap_err()
        .to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    let want = format!("games.csv:{}: ", lines + 1);
    assert!(err.contains(&want), "{err} (wanted {want})");
    assert!(!out.exists());
}

#[test]
fn axes_headers_and_rates_read_as_people_write_them() {
    assert_eq!(super::charts::tick(&-1200.0), "-1200");
    assert_eq!(super::charts::tick(&0.25), "0.25");
    assert_eq!(super::human_header("win_rate_ci_low"), "Win rate, 95% low");
    assert_eq!(
        super::human_header("mean_score_diff"),
        "Mean score difference"
    );
    assert_eq!(super::human_header("elo"), "Elo");
    assert_eq!(super::display_cell("win_rate", "0.523"), "52.3%");
    assert_eq!(super::display_cell("elo", "12.5"), "12.5");
}
