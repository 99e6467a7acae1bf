//! Tests of the web server, in-process through [`App::handle`] (the
//! same function the HTTP threads call) and once over a loopback socket.

use super::routes::App;
use super::WebConfig;
use engine::{Rules, Seat};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

const SEED: u64 = 987_654_321;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carcassonne-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn app(name: &str, agents: &[&str], players: usize, rules: Rules) -> App {
    App::new(WebConfig {
        agents: super::session::WebAgents::parse(agents.iter().map(|s| s.to_string()).collect())
            .unwrap(),
        players,
        rules,
        seed: Some(SEED),
        out: temp_dir(name),
        watch: None,
        idle: Duration::from_secs(600),
        hints: None,
    })
    .unwrap()
}

fn call(app: &App, method: &str, url: &str, body: &str) -> (u16, Value) {
    let reply = app.handle(method, url, body.as_bytes());
    let value = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
    (reply.status, value)
}

fn ok(app: &App, method: &str, url: &str, body: &str) -> Value {
    let (status, value) = call(app, method, url, body);
    assert_eq!(status, 200, "{method} {url} {body}: {value}");
    value
}

/// Let the agents play until the person is to move or the game is over.
fn until_person(app: &App, mut view: Value) -> Value {
    while view["phase"] == "wait" {
        let id = view["id"].as_str().unwrap().to_string();
        view = ok(app, "POST", &format!("/api/game/{id}/step"), "");
    }
    view
}

#[test]
fn malformed_and_illegal_moves_are_refused_and_change_nothing() {
    let app = app("refused", &["random"], 2, Rules::default());
    let view = until_person(&app, ok(&app, "POST", "/api/new", ""));
    assert_eq!(view["phase"], "place");
    let id = view["id"].as_str().unwrap().to_string();
    let url = format!("/api/game/{id}/move");
    let before = ok(&app, "GET", &format!("/api/game/{id}"), "");
    let bad = [
        ("not json", "malformed JSON"),
        ("[1, 2]", "JSON object"),
        (r#"{"move": "x"}"#, "action"),
        (r#"{"action": 12}"#, "action"),
        (r#"{"action": "nonsense"}"#, "nonsense"),
        (r#"{"action": "D (40, 40) r0"}"#, "(40, 40)"),
        (r#"{"action": "open synod (0, 0)"}"#, "open"),
    ];
    for (body, says) in bad {
        let (status, value) = call(&app, "POST", &url, body);
        assert_eq!(status, 400, "{body}: {value}");
        let error = value["error"].as_str().unwrap();
        assert!(error.contains(says), "{body}: {error}");
        assert_eq!(
            ok(&app, "GET", &format!("/api/game/{id}"), ""),
            before,
            "{body} changed the game"
        );
    }
    // A tile of another kind than the drawn one.
    let drawn = view["choices"]["tiles"][0]["tile"].as_str().unwrap();
    let other = if drawn == "V" { "U" } else { "V" };
    let (status, _) = call(
        &app,
        "POST",
        &url,
        &json!({ "action": format!("{other} (0, 1) r0") }).to_string(),
    );
    assert_eq!(status, 400);
    // A legal move, then a move out of turn.
    let legal = view["choices"]["placements"][0]["none"]
        .as_str()
        .unwrap()
        .to_string();
    let after = ok(&app, "POST", &url, &json!({ "action": legal }).to_string());
    assert_eq!(after["phase"], "wait");
    let (status, value) = call(&app, "POST", &url, &json!({ "action": legal }).to_string());
    assert_eq!(
        (status, value["error"].as_str().unwrap()),
        (400, "it is not your turn")
    );
    // No record before the end; unknown games, paths and methods.
    assert_eq!(
        call(&app, "GET", &format!("/api/game/{id}/record"), "").0,
        409
    );
    for (method, path) in [
        ("GET", "/api/game/0123/record"),
        ("GET", "/api/game/..%2F..%2Fetc%2Fpasswd/record"),
        ("GET", "/api/game/../../etc/passwd"),
        ("POST", "/api/game/nothing/step"),
        ("GET", "/etc/passwd"),
        ("DELETE", "/api/new"),
    ] {
        let (status, value) = call(&app, method, path, "");
        assert!(
            matches!(status, 404 | 405),
            "{method} {path}: {status} {value}"
        );
    }
    assert_eq!(
        call(&app, "POST", "/api/new", r#"{"mode": "again"}"#).0,
        400
    );
    assert_eq!(call(&app, "POST", "/api/new", r#"{"mode": "same"}"#).0, 400);
    // Closing ends the game.
    ok(&app, "POST", &format!("/api/game/{id}/close"), "");
    assert_eq!(call(&app, "GET", &format!("/api/game/{id}"), "").0, 404);
    assert_eq!(app.open_games(), 0);
}

/// The parts of a view that hold the person's own cards and tiles and the
/// public log of openings, taken out: what is left must not name a gift.
fn without_own(view: &Value) -> Value {
    let mut v = view.clone();
    v["own_gifts"] = Value::Null;
    if v.get("choices").is_some() {
        v["choices"]["opens"] = Value::Null;
    }
    if let Some(log) = v["log"].as_array_mut() {
        log.retain(|l| {
            let text = l["text"].as_str().unwrap();
            !(text.starts_with("open ")
                || (l["seat"] == view["seat"] && text.starts_with("received the gift")))
        });
    }
    v
}

/// Play a whole game choosing the first choice offered (sometimes opening
/// a gift), checking every response for what the person may not see.
fn play_checking(app: &App, players: usize) -> Value {
    let mut view = ok(app, "POST", "/api/new", "");
    let id = view["id"].as_str().unwrap().to_string();
    let mut responses = 0;
    let mut opened = 0;
    loop {
        responses += 1;
        check_hidden(app, &id, &view);
        match view["phase"].as_str().unwrap() {
            "over" => break,
            "wait" => view = ok(app, "POST", &format!("/api/game/{id}/step"), ""),
            "choose" => {
                let action = view["choices"]["keep"][0]["action"]
                    .as_str()
                    .unwrap()
                    .to_string();
                view = ok(
                    app,
                    "POST",
                    &format!("/api/game/{id}/move"),
                    &json!({ "action": action }).to_string(),
                );
            }
            _ => {
                let choices = &view["choices"];
                let opens = choices["opens"].as_array().unwrap();
                let action = if !opens.is_empty() {
                    opened += 1;
                    opens[0]["action"].clone()
                } else {
                    let placements = choices["placements"].as_array().unwrap();
                    let p = &placements[responses * 7 % placements.len()];
                    match p["meeples"].as_array().unwrap().first() {
                        Some(m) if responses % 5 == 0 => m["action"].clone(),
                        _ => p["none"].clone(),
                    }
                };
                view = ok(
                    app,
                    "POST",
                    &format!("/api/game/{id}/move"),
                    &json!({ "action": action }).to_string(),
                );
            }
        }
    }
    assert_eq!(view["seats"].as_array().unwrap().len(), players);
    if view["rules"]["gifts"] == true {
        assert!(opened > 0, "the person opened no gift");
    }
    // The record: saved under the results folder by the server's name, and
    // it replays to the scores shown.
    let saved = PathBuf::from(view["over"]["saved"].as_str().unwrap());
    assert!(saved.starts_with(&app.config.out), "{}", saved.display());
    let record = pictures::render::load_record(&saved, None).unwrap();
    let state = engine::replay(&record, false).unwrap();
    for s in 0..players {
        assert_eq!(
            view["seats"][s]["total"],
            state.score(Seat(s as u8)).total(),
            "seat {s}"
        );
    }
    assert_eq!(view["over"]["seed"], SEED);
    let download = app.handle("GET", &format!("/api/game/{id}/record"), b"");
    assert_eq!(download.status, 200);
    assert_eq!(download.body, std::fs::read(&saved).unwrap());
    view
}

/// What the person may not see is absent from `view`.
fn check_hidden(app: &App, id: &str, view: &Value) {
    let text = view.to_string();
    let over = view["phase"] == "over";
    if !over {
        assert!(!text.contains(&SEED.to_string()), "the deck seed is sent");
    }
    for key in ["state", "bag", "deck", "seed", "gift_deck"] {
        if !over || key != "seed" {
            assert!(
                !text.contains(&format!("\"{key}\"")),
                "a field {key:?} is sent"
            );
        }
    }
    let person = view["seat"].as_u64().unwrap() as usize;
    let rules = &view["rules"];
    let game = app.session_for_tests(id).unwrap();
    let session = game.lock().unwrap();
    let state = session.state();
    let mine = state.view(Seat(person as u8));
    // Own cards and tiles are the person's.
    let own: Vec<String> = mine.own_tiles().iter().map(|t| t.to_string()).collect();
    assert_eq!(view["own_tiles"], json!(own));
    let cards: u64 = view["own_gifts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .sum();
    assert_eq!(cards, u64::from(mine.own_hand().total()));
    if rules["gifts"] == true {
        let rest = without_own(view).to_string();
        for gift in engine::Gift::ALL {
            assert!(
                !rest.contains(&gift.to_string()),
                "{gift} named outside the person's own cards: {rest}"
            );
        }
    }
    for s in 0..state.players() {
        let theirs = state.view(Seat(s as u8));
        let seat = &view["seats"][s];
        assert_eq!(seat["gift_cards"], u64::from(theirs.own_hand().total()));
        if s == person || rules["hand_visible"] == true || rules["hand"] == 0 {
            continue;
        }
        assert!(seat["hand"].is_null(), "seat {s}'s hidden hand is sent");
        assert_eq!(seat["tiles_held"], theirs.own_tiles().len());
    }
    if let Some(choices) = view.get("choices") {
        for t in choices["tiles"].as_array().unwrap() {
            let tile = t["tile"].as_str().unwrap();
            let drawn = matches!(state.phase(), engine::Phase::Place(d) if d.to_string() == tile);
            assert!(
                own.iter().any(|o| o == tile) || drawn,
                "tile {tile} is not the person's"
            );
        }
    }
    // The board shows the placed tiles only.
    let svg = view["board"]["svg"].as_str().unwrap();
    assert_eq!(svg.matches("<g transform=").count(), state.board().len());
}

#[test]
fn games_with_the_gifts_never_show_other_seats_cards() {
    for players in [2, 3] {
        let rules = Rules {
            gifts: true,
            ..Rules::STANDARD
        };
        let app = app(
            &format!("gifts{players}"),
            &["random", "greedy"],
            players,
            rules,
        );
        play_checking(&app, players);
    }
}

#[test]
fn games_with_hidden_hands_never_show_other_seats_tiles() {
    for (text, players) in [
        ("hand=2", 2),
        ("hand=3", 3),
        ("hand=1,hand_visible=true", 2),
    ] {
        let rules: Rules = text.parse().unwrap();
        let app = app(&format!("hand{players}"), &["random"], players, rules);
        let end = play_checking(&app, players);
        assert_eq!(end["rules"]["hand"], rules.hand, "{text}");
    }
}

#[test]
fn same_deck_again_and_swap_seats() {
    let app = app("again", &["random"], 3, Rules::default());
    let first = ok(&app, "POST", "/api/new", "");
    let id = first["id"].as_str().unwrap();
    let same = ok(
        &app,
        "POST",
        "/api/new",
        &json!({ "mode": "same", "after": id }).to_string(),
    );
    assert_eq!(app.open_games(), 1, "the game it follows is closed");
    assert_eq!(same["seat"], first["seat"]);
    assert_eq!(same["board"], first["board"]);
    let id = same["id"].as_str().unwrap();
    let swapped = ok(
        &app,
        "POST",
        "/api/new",
        &json!({ "mode": "swap", "after": id }).to_string(),
    );
    assert_eq!(swapped["seat"], 1);
    let id = swapped["id"].as_str().unwrap();
    let fresh = ok(
        &app,
        "POST",
        "/api/new",
        &json!({ "mode": "new", "after": id }).to_string(),
    );
    assert_eq!(fresh["seat"], 1, "a new deck keeps the person's seat");
}

#[test]
fn idle_games_end() {
    let mut app = app("idle", &["random"], 2, Rules::default());
    app.config.idle = Duration::from_millis(1);
    ok(&app, "POST", "/api/new", "");
    std::thread::sleep(Duration::from_millis(20));
    app.end_idle();
    assert_eq!(app.open_games(), 0);
}

#[test]
fn the_page_is_served_over_a_loopback_socket_and_names_no_address() {
    use std::io::{Read as _, Write as _};
    let server = super::server::Server::bind(
        app("socket", &["random"], 2, Rules::default()),
        "127.0.0.1",
        0,
    )
    .unwrap();
    let addr = server.addr();
    let server = std::sync::Arc::new(server);
    let running = server.clone();
    let thread = std::thread::spawn(move || running.run());
    let get = |request: &str| {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    };
    let host = format!("Host: 127.0.0.1:{}\r\n", addr.port());
    let page = get(&format!("GET / HTTP/1.0\r\n{host}\r\n"));
    assert!(
        page.starts_with("HTTP/1.1 200") || page.starts_with("HTTP/1.0 200"),
        "{page}"
    );
    let body = &page[page.find("\r\n\r\n").unwrap()..];
    assert!(!body.contains("src="), "the page loads something");
    assert!(
        !body.contains("//cdn") && !body.contains("https:"),
        "the page names an address"
    );
    assert!(
        body.contains(&format!("content=\"{}\"", server.token())),
        "the page does not carry the token"
    );
    let bad = get(&format!(
        "POST /api/new HTTP/1.0\r\n{host}X-Carcassonne-Token: {}\r\nContent-Length: 5\r\n\r\n{{oops",
        server.token()
    ));
    assert!(
        bad.contains(" 400 ") && bad.contains("malformed JSON"),
        "{bad}"
    );
    server.stop();
    thread.join().unwrap();
}

#[test]
fn watch_shows_a_tournament_folder_as_it_grows() {
    use crate::cli::GameOptions;
    use crate::commands::tournament::TournamentArgs;
    let dir = temp_dir("watch");
    let args = TournamentArgs {
        agents: vec!["random,greedy".to_string()],
        game: GameOptions {
            games: Some(4),
            players: Some(2),
            seed: Some(4),
            threads: Some(1),
            out: Some(dir.clone()),
            ..GameOptions::default()
        },
        records: true,
        ..TournamentArgs::default()
    };
    tournament::run::tournament::run(&crate::config_args::tournament_config(&args).unwrap())
        .unwrap();
    let mut config = app("watch-app", &["random"], 2, Rules::default())
        .config
        .clone();
    config.watch = Some(dir.clone());
    let app = App::new(config).unwrap();
    let page = app.handle("GET", "/", b"");
    assert_eq!(page.status, 200);
    let page = String::from_utf8(page.body).unwrap();
    assert!(page.contains("/watch/status"));
    assert!(page.contains(&format!("content=\"{}\"", app.token())));
    let status = ok(&app, "GET", "/watch/status", "");
    assert_eq!(
        (status["games"].as_u64(), status["planned"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(status["records"], 4);
    // The table is the one summary.csv holds at the end.
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(summary.as_bytes());
    let written: Vec<tournament::results::schema::SummaryRow> =
        rows.deserialize().map(Result::unwrap).collect();
    assert_eq!(status["summary"], serde_json::to_value(&written).unwrap());
    // Half the games written: the page follows.
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let half: Vec<&str> = games.lines().take(1 + 2 * 2).collect();
    std::fs::write(dir.join("games.csv"), half.join("\n") + "\n").unwrap();
    assert_eq!(ok(&app, "GET", "/watch/status", "")["games"], 2);
    // The rest appended in pieces, one ending mid-row: whole rows count.
    let rest: Vec<&str> = games.lines().skip(1 + 2 * 2).collect();
    let cut = rest[0].len() + rest[1].len() + 2 + 5;
    let rest = rest.join("\n") + "\n";
    let append = |text: &str| {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("games.csv"))
            .unwrap();
        file.write_all(text.as_bytes()).unwrap();
    };
    append(&rest[..cut]);
    assert_eq!(ok(&app, "GET", "/watch/status", "")["games"], 3);
    append(&rest[cut..]);
    let status = ok(&app, "GET", "/watch/status", "");
    assert_eq!(status["games"], 4);
    assert_eq!(status["summary"], serde_json::to_value(&written).unwrap());
    // A bad row is named, and the table comes back when it is mended.
    append("not,a,row\n");
    let (code, e) = call(&app, "GET", "/watch/status", "");
    assert_eq!(code, 500);
    assert!(e["error"].as_str().unwrap().contains("games.csv"), "{e}");
    std::fs::write(dir.join("games.csv"), &games).unwrap();
    assert_eq!(ok(&app, "GET", "/watch/status", "")["games"], 4);
    // Many records (blank lines among them), a replaced file: each game
    // opens as the viewer shows that record of the file.
    let records = std::fs::read_to_string(dir.join("records.jsonl")).unwrap();
    let lines: Vec<&str> = records.lines().collect();
    let mut many = String::new();
    for i in 0..600 {
        many += lines[i % lines.len()];
        many += if i % 97 == 0 { "\n\n" } else { "\n" };
    }
    std::fs::write(dir.join("records.new"), &many).unwrap();
    std::fs::rename(dir.join("records.new"), dir.join("records.jsonl")).unwrap();
    assert_eq!(ok(&app, "GET", "/watch/status", "")["records"], 600);
    let first = super::watch::FIRST_GAME;
    for index in [0, 255, 256, 257, 514, 599] {
        let page = app.handle("GET", &format!("/watch/game/{}", index + first), b"");
        assert_eq!(page.status, 200, "{index}");
        let history =
            pictures::render::load_history(&dir.join("records.jsonl"), Some(index)).unwrap();
        let expected = pictures::viewer::page(&history).unwrap();
        assert!(
            page.body == expected.as_bytes(),
            "game {index} is another record"
        );
    }
    let past = app.handle("GET", &format!("/watch/game/{}", 600 + first), b"");
    assert_eq!(past.status, 404);
    std::fs::write(dir.join("records.jsonl"), &records).unwrap();
    assert_eq!(ok(&app, "GET", "/watch/status", "")["records"], 4);
    std::fs::write(dir.join("games.csv"), half.join("\n") + "\n").unwrap();
    assert_eq!(ok(&app, "GET", "/watch/status", "")["games"], 2);
    // Finished games open in the viewer, by number only (from 0, as in
    // games.csv).
    let viewer = app.handle("GET", "/watch/game/1", b"");
    assert_eq!(viewer.status, 200);
    assert!(String::from_utf8(viewer.body)
        .unwrap()
        .contains("const GAME = "));
    for path in [
        "/watch/game/-1",
        "/watch/game/9",
        "/watch/game/4",
        "/watch/game/..%2Frun.json",
        "/watch/run.json",
    ] {
        let status = app.handle("GET", path, b"").status;
        assert!(matches!(status, 400 | 404), "{path}: {status}");
    }
    // Without --watch there is nothing to watch.
    let plain = super::tests::app("watch-none", &["random"], 2, Rules::default());
    assert_eq!(plain.handle("GET", "/watch/status", b"").status, 404);
}

#[test]
fn bad_options_are_one_line_errors() {
    use super::WebArgs;
    let base = WebArgs {
        agents: vec!["random".to_string()],
        port: 0,
        host: "127.0.0.1".to_string(),
        out: temp_dir("options"),
        idle: 600,
        ..WebArgs::default()
    };
    let cases = [
        (
            WebArgs {
                agents: vec!["nobody".to_string()],
                ..base.clone()
            },
            "--agents",
        ),
        (
            WebArgs {
                players: Some(7),
                ..base.clone()
            },
            "--players",
        ),
        (
            WebArgs {
                players: Some(1),
                ..base.clone()
            },
            "--players",
        ),
        (
            WebArgs {
                rules: crate::cli::RulesArgs {
                    gifts: true,
                    variants: Some("hand=2".parse().unwrap()),
                    ..Default::default()
                },
                ..base.clone()
            },
            "--rules",
        ),
        (
            WebArgs {
                watch: Some(PathBuf::from("/no/such/folder")),
                ..base.clone()
            },
            "--watch",
        ),
        (
            WebArgs {
                out: PathBuf::from("/dev/null"),
                ..base.clone()
            },
            "--out",
        ),
    ];
    for (args, says) in cases {
        let e = WebConfig::from_args(&args).unwrap_err().to_string();
        assert!(e.starts_with(says) && !e.contains('\n'), "{e}");
    }
    let config = WebConfig::from_args(&base).unwrap();
    assert_eq!((config.players, config.agents.specs().len()), (2, 1));
    let taken =
        super::server::Server::bind(App::new(config.clone()).unwrap(), "127.0.0.1", 0).unwrap();
    let port = taken.addr().port();
    let e = super::server::Server::bind(App::new(config).unwrap(), "127.0.0.1", port)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("cannot listen"), "{e}");
}

/// Tests against a live server on 127.0.0.1: hostile requests, many
/// connections, Host, Origin and the token.
mod live;

#[test]
fn the_printed_url_is_usable_and_other_interfaces_are_warned_about() {
    use super::{exposure_warning, page_url};
    let at = |text: &str| text.parse::<std::net::SocketAddr>().unwrap();
    for (addr, url) in [
        ("127.0.0.1:8000", "http://127.0.0.1:8000/"),
        ("[::1]:8000", "http://[::1]:8000/"),
        ("0.0.0.0:8000", "http://127.0.0.1:8000/"),
        ("[::]:8000", "http://[::1]:8000/"),
        ("192.168.1.5:80", "http://192.168.1.5:80/"),
        ("[fe80::1]:8000", "http://[fe80::1]:8000/"),
    ] {
        assert_eq!(page_url(at(addr)), url, "{addr}");
    }
    for quiet in ["127.0.0.1:8000", "127.0.0.2:8000", "[::1]:8000"] {
        assert_eq!(exposure_warning(at(quiet)), None, "{quiet}");
    }
    for (loud, says) in [
        ("0.0.0.0:8000", "every network interface"),
        ("[::]:8000", "every network interface"),
        ("192.168.1.5:8000", "192.168.1.5"),
    ] {
        let w = exposure_warning(at(loud)).unwrap();
        assert!(
            w.contains("warning") && w.contains(says) && !w.contains('\n'),
            "{w}"
        );
    }
}

#[test]
fn decks_without_a_seed_take_64_random_bits() {
    let mut app = app("seeds", &["random"], 2, Rules::default());
    app.config.seed = None;
    // A seed of 32 bits or fewer comes once in 2^32 draws; twenty games
    // all under 2^32 would mean 32-bit seeds.
    let mut wide = false;
    for _ in 0..20 {
        let view = ok(&app, "POST", "/api/new", "");
        let id = view["id"].as_str().unwrap().to_string();
        let game = app.session_for_tests(&id).unwrap();
        wide |= game.lock().unwrap().seed > u64::from(u32::MAX);
        ok(&app, "POST", &format!("/api/game/{id}/close"), "");
    }
    assert!(wide, "every seed fits in 32 bits");
}

/// An app of `app` with `--hints SPEC`.
fn app_with_hints(name: &str, agents: &[&str], rules: Rules, spec: &str) -> App {
    let plain = app(name, agents, 2, rules);
    App::new(WebConfig {
        hints: Some(agents::Factory::new(spec).unwrap()),
        ..plain.config.clone()
    })
    .unwrap()
}

#[test]
fn hints_are_counted_in_the_saved_record_which_still_replays() {
    let app = app_with_hints("hints", &["random"], Rules::default(), "mcts:iterations=30");
    let mut view = ok(&app, "POST", "/api/new", "");
    let id = view["id"].as_str().unwrap().to_string();
    let (mut asked, mut turns) = (0u32, 0);
    // The hint shown for each decision it was asked at.
    let mut shown: Vec<(u64, Value)> = Vec::new();
    while view["phase"] != "over" {
        if view["phase"] == "wait" {
            // Not the person's turn: no hint.
            assert_eq!(
                call(&app, "POST", &format!("/api/game/{id}/hint"), "").0,
                400
            );
            view = ok(&app, "POST", &format!("/api/game/{id}/step"), "");
            continue;
        }
        turns += 1;
        if turns % 3 == 1 {
            let hint = ok(&app, "POST", &format!("/api/game/{id}/hint"), "");
            // Asked again: the same hint, counted once.
            assert_eq!(ok(&app, "POST", &format!("/api/game/{id}/hint"), ""), hint);
            asked += 1;
            let moves = hint["moves"].as_array().unwrap();
            assert!(!moves.is_empty() && moves.len() <= 3, "{hint}");
            // Every move is legal now.
            let game = app.session_for_tests(&id).unwrap();
            let session = game.lock().unwrap();
            for m in moves {
                let action = session.state().parse_action(m["action"].as_str().unwrap());
                assert_eq!(session.state().check_action(action.unwrap()), Ok(()), "{m}");
                assert_eq!(m["place"].is_null(), view["phase"] == "choose");
            }
            drop(session);
            let again = ok(&app, "GET", &format!("/api/game/{id}"), "");
            assert_eq!((&again["hints"], &again["hint"]), (&json!(asked), &hint));
            shown.push((hint["decision"].as_u64().unwrap(), hint));
        }
        let placements = view["choices"]["placements"].as_array().unwrap();
        let action = placements[turns % placements.len()]["none"].clone();
        view = ok(
            &app,
            "POST",
            &format!("/api/game/{id}/move"),
            &json!({ "action": action }).to_string(),
        );
        assert!(view.get("hint").is_none(), "a hint outlives its decision");
    }
    assert!(asked >= 5, "{asked}");
    assert_eq!(view["hints"], asked);
    let saved = PathBuf::from(view["over"]["saved"].as_str().unwrap());
    let text = std::fs::read_to_string(&saved).unwrap();
    let raw: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(raw["hints"], json!([asked, 0]));
    let record = pictures::render::load_record(&saved, None).unwrap();
    assert_eq!(record.hints, vec![asked, 0]);
    let state = engine::replay(&record, true).unwrap();
    for s in 0..2 {
        assert_eq!(
            view["seats"][s]["total"],
            state.score(Seat(s as u8)).total()
        );
    }
    // After the game: the person's moves analysed in the background,
    // their top moves those the hints showed.
    let url = format!("/api/game/{id}/analysis");
    let analysis = loop {
        let status = ok(&app, "GET", &url, "");
        match status["status"].as_str().unwrap() {
            "done" => break status["analysis"].clone(),
            "queued" | "running" => std::thread::sleep(Duration::from_millis(50)),
            other => panic!("{other}: {status}"),
        }
    };
    assert_eq!(analysis["seat"], 0);
    assert!(analysis["choices"].as_u64().unwrap() > 0);
    let file = PathBuf::from(analysis["file"].as_str().unwrap());
    let full: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let decisions = full["decisions"].as_array().unwrap();
    assert!(decisions.iter().all(|d| d["seat"] == 0));
    for (decision, hint) in &shown {
        let d = decisions
            .iter()
            .find(|d| d["decision"] == *decision)
            .unwrap();
        let top: Vec<&Value> = d["top"].as_array().unwrap().iter().take(3).collect();
        let hinted: Vec<&Value> = hint["moves"].as_array().unwrap().iter().collect();
        assert_eq!(top.len(), hinted.len());
        for (t, h) in top.iter().zip(hinted) {
            assert_eq!((&t["action"], &t["visits"]), (&h["action"], &h["visits"]));
        }
    }
    let lost: Vec<f64> = analysis["costliest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["points_lost"].as_f64().unwrap())
        .collect();
    assert!(lost.windows(2).all(|w| w[0] >= w[1]), "{lost:?}");
}

#[test]
fn without_hints_there_is_no_hint_and_no_count_in_the_record() {
    let app = app("nohints", &["random"], 2, Rules::default());
    let view = until_person(&app, ok(&app, "POST", "/api/new", ""));
    let id = view["id"].as_str().unwrap().to_string();
    assert!(view.get("hints").is_none());
    assert_eq!(
        call(&app, "POST", &format!("/api/game/{id}/hint"), "").0,
        404
    );
    assert_eq!(
        call(&app, "GET", &format!("/api/game/{id}/analysis"), "").0,
        404
    );
    let record = engine::Record::new(2, Rules::default());
    let json = serde_json::to_string(&record).unwrap();
    assert!(!json.contains("hints"), "{json}");
}

#[test]
fn a_hint_ignores_what_the_persons_seat_cannot_see() {
    // The person's turns of a game with The Gifts where the other seat
    // holds cards: a position that differs only in those cards gives the
    // same hint, number for number.
    let rules = Rules {
        gifts: true,
        ..Rules::STANDARD
    };
    let app = app_with_hints("hinthidden", &["greedy"], rules, "mcts:iterations=60");
    let factory = app.config.hints.clone().unwrap();
    let mut view = until_person(&app, ok(&app, "POST", "/api/new", ""));
    let id = view["id"].as_str().unwrap().to_string();
    let mut compared = 0;
    let mut rng = <agents::AgentRng as rand::SeedableRng>::seed_from_u64(5);
    while view["phase"] != "over" && compared < 3 {
        if view["phase"] == "wait" {
            view = ok(&app, "POST", &format!("/api/game/{id}/step"), "");
            continue;
        }
        {
            let game = app.session_for_tests(&id).unwrap();
            let session = game.lock().unwrap();
            let state = session.state();
            let (me, other) = (Seat(0), Seat(1));
            let mine = state.view(me);
            let twin = (0..50)
                .map(|_| mine.determinize(&mut rng))
                .find(|t| t.view(other).own_hand() != state.view(other).own_hand());
            if let Some(twin) = twin {
                assert_eq!(twin.view(me).own_hand(), mine.own_hand());
                let d = session.decision();
                let a = super::hints::hint(&mine, &factory, d).unwrap();
                let b = super::hints::hint(&twin.view(me), &factory, d).unwrap();
                assert_eq!(a, b);
                assert!(a.iterations > 0);
                assert_eq!(
                    super::hints::hint_json(&a, d, "x"),
                    super::hints::hint_json(&b, d, "x")
                );
                compared += 1;
            }
        }
        // Meeples out, so the other seat may complete features they are
        // on and receive cards.
        let turn = view["turn"].as_u64().unwrap() as usize;
        let action = if view["phase"] == "choose" {
            view["choices"]["keep"][0]["action"].clone()
        } else {
            let placements = view["choices"]["placements"].as_array().unwrap();
            let p = &placements[turn * 7 % placements.len()];
            match p["meeples"].as_array().unwrap().first() {
                Some(m) => m["action"].clone(),
                None => p["none"].clone(),
            }
        };
        view = ok(
            &app,
            "POST",
            &format!("/api/game/{id}/move"),
            &json!({ "action": action }).to_string(),
        );
    }
    assert_eq!(compared, 3, "turns where the other seat holds a card");
}

/// The web app plays the game `play_game` plays (one driver): a session
/// whose person moves as `random` would, with that seat's agent seed,
/// gives the record of `play_game` with `random` in that seat — the same
/// draws, moves and scores — in the base game and with The Gifts.
#[test]
fn a_web_game_is_the_game_play_game_plays() {
    use agents::{AgentRng, Context};
    use rand::SeedableRng;
    use tournament::run::schedule::agent_seed;
    for (rules, seed) in [("", 7u64), ("gifts=true", 8)] {
        let rules: Rules = rules.parse().unwrap();
        let dir = temp_dir(&format!("driver-{seed}"));
        let cast = super::session::WebAgents::parse(vec!["greedy".to_string()]).unwrap();
        let mut session =
            super::session::Session::new(&cast, 2, rules, seed, 1, &dir, false).unwrap();
        let mut person = agents::from_spec("random").unwrap();
        let mut rng = AgentRng::seed_from_u64(agent_seed(seed, 0, 1));
        while !session.is_over() {
            if session.persons_turn() {
                let view = session.state().view(Seat(1));
                let action = person.decide(Context::new(&view, &mut rng)).unwrap().action;
                let text = session.state().describe(action);
                session.person_moves(&text).unwrap();
            } else {
                assert!(session.step().unwrap());
            }
        }
        let mut web = session.finished.clone().unwrap();
        let mut seats = vec![
            agents::from_spec("greedy").unwrap(),
            agents::from_spec("random").unwrap(),
        ];
        let seeds = [agent_seed(seed, 0, 0), agent_seed(seed, 0, 1)];
        let played = agents::game::play_game(&mut seats, rules, seed, &seeds).record;
        assert_eq!(web.agents, ["greedy", super::session::PERSON]);
        web.agents = played.agents.clone();
        assert_eq!(web, played, "seed {seed}");
    }
}
