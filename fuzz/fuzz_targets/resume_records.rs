//! Fuzz target: what `--resume` (and `merge`) accept of a results folder
//! (`tournament::run::tournament::load_games`): the games of games.csv checked
//! against the plan of run.json, and records.jsonl cross-checked against
//! them (deck seed, seats, agents, and the scores its replay gives). Once
//! per process a small run is played (6 games of random agents, records
//! on) for its run.json; each input is the folder's games.csv, a NUL
//! byte, and its records.jsonl.
//!
//! A refusal is one line. What is accepted is consistent: as many games
//! as records, each game's rows the plan's next game with its seats,
//! agents and deck seed, and each record the first complete lines of
//! records.jsonl, of that deck, replaying to the scores of its rows.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use tournament::run::config::{Folder, TournamentConfig};
use tournament::run::roster::AgentPlan;
use tournament::run::schedule::Schedule;
use tournament::results::schema::{RunInfo, Settings};

/// The run whose folder the inputs replace the files of.
struct Run {
    dir: PathBuf,
    info: RunInfo,
    schedule: Schedule,
    labels: Vec<String>,
}

fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("resume-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // The settings `carcassonne tournament --agents random,random:meeple=0.3
        // --games 6 --seed 5 --records` writes into run.json.
        let settings: Settings = serde_json::from_value(serde_json::json!({
            "name": "random-vs-random:meeple=0.3",
            "agents": ["random", "random:meeple=0.3"],
            "players": 2,
            "games_per_pairing": 6,
            "seed": 5,
            "rules": {},
            "records": true,
            "shard": null,
            "sprt": null,
        }))
        .expect("valid settings");
        let plan = AgentPlan::parse(&settings.agents).expect("built-in agents");
        let config = TournamentConfig::new(settings, plan, Folder::New(dir.clone()), 1)
            .expect("valid settings");
        tournament::run::tournament::run(&config).expect("the run plays");
        let info = tournament::results::output::read_run_info(&dir).expect("its run.json");
        let (schedule, labels) = tournament::run::tournament::schedule_of(&info.settings);
        Run {
            dir,
            info,
            schedule,
            labels,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let run = run();
    let (games, records) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    std::fs::write(run.dir.join("games.csv"), games).expect("write games.csv");
    std::fs::write(run.dir.join("records.jsonl"), records).expect("write records.jsonl");
    let loaded =
        tournament::run::tournament::load_games(&run.dir, &run.info, &run.schedule, &run.labels);
    let (rows, lines) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            let e = e.to_string();
            assert!(!e.contains('\n') && !e.contains('\r'), "one line: {e}");
            return;
        }
    };
    let p = run.info.settings.players;
    assert_eq!(rows.len(), lines.len() * p, "a record per game");
    let records = std::str::from_utf8(records).expect("records accepted are UTF-8");
    let mut expected = run.schedule.indices();
    for (g, (game, line)) in rows.chunks(p).zip(&lines).enumerate() {
        assert_eq!(
            records.lines().nth(g),
            Some(line.as_str()),
            "record {g} is line {g}"
        );
        let spec = run.schedule.game(expected.next().expect("within the plan"));
        let record: engine::Record = serde_json::from_str(line).expect("a record");
        assert_eq!(record.seed, Some(spec.deck_seed), "its deck");
        let state = engine::replay(&record, false).expect("a record accepted replays");
        for (s, row) in game.iter().enumerate() {
            assert_eq!(row.game, spec.index, "the plan's game");
            assert_eq!(row.seat, s, "its seats in order");
            assert_eq!(row.deck_seed, spec.deck_seed, "its deck seed");
            assert_eq!(row.agent, run.labels[spec.seats[s]], "its agent");
            assert_eq!(record.agents[s], row.agent, "the record's agent");
            let score = state.score(engine::Seat(s as u8)).total();
            assert_eq!(score, row.score, "the record's score");
        }
    }
});
