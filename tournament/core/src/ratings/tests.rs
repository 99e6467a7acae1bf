//! Tests of the ladder: exact values on tiny pools, the folder checks.

use super::pool::Comparison;
use super::*;
use crate::results::output::{csv_bytes, write_run_info};
use crate::results::schema::{GameRow, RunKind, RunStatus, Settings};
use crate::results::summary::rank_seats;
use crate::stats::elo_from_score;
use crate::stats::test_support::assert_close;
use engine::Rules;
use std::path::{Path, PathBuf};

/// A pool of agents `agents` from `decks`, each a list of
/// (a, b, score_a) comparisons.
fn pool_of(agents: &[&str], decks: &[Vec<(u32, u32, f64)>]) -> Pool {
    let mut pool = Pool {
        agents: agents.iter().map(|a| a.to_string()).collect(),
        seats: vec![0; agents.len()],
        ..Pool::default()
    };
    pool.deck_starts.push(0);
    for deck in decks {
        for &(a, b, score_a) in deck {
            pool.comparisons.push(Comparison { a, b, score_a });
            pool.seats[a as usize] += 1;
            pool.seats[b as usize] += 1;
        }
        pool.deck_starts.push(pool.comparisons.len());
    }
    pool
}

/// `wins` of A over B out of `games`, as decks of two games (a game
/// pair) in a fixed interleaved order.
fn two_agents(games: usize, wins: usize) -> Pool {
    let results: Vec<f64> = (0..games)
        .map(|g| if (g * wins) % games < wins { 1.0 } else { 0.0 })
        .collect();
    assert_eq!(results.iter().sum::<f64>() as usize, wins);
    let decks: Vec<Vec<(u32, u32, f64)>> = results
        .chunks(2)
        .map(|pair| pair.iter().map(|&s| (0, 1, s)).collect())
        .collect();
    pool_of(&["a", "b"], &decks)
}

#[test]
fn two_agents_with_known_scores_give_the_known_elo_difference() {
    // 6400 of 10,000: elo_from_score(0.64) = 99.95 (the prior's pull is
    // below 0.05 Elo at this size).
    let ladder = fit(&two_agents(10_000, 6400), None, 0, 1).unwrap();
    assert_eq!(ladder.anchor.agent, "a");
    let a = ladder.get("a").unwrap();
    let b = ladder.get("b").unwrap();
    assert_eq!(a.rating, Some(0.0));
    assert_close(b.rating.unwrap(), -elo_from_score(0.64), 0.05);
    assert_close(a.score, 0.64, 1e-12);
    assert_close(b.score, 0.36, 1e-12);
    assert_eq!((a.games, a.opponents), (10_000, 1));
    // No resamples: no interval.
    assert_eq!((b.low, b.high), (None, None));
    let h = &ladder.head_to_head;
    assert_eq!(h.len(), 2);
    assert_eq!((h[0].wins, h[0].draws, h[0].losses), (6400, 0, 3600));
    assert_eq!((h[1].agent.as_str(), h[1].wins), ("b", 3600));
}

#[test]
fn draws_count_half() {
    // 50 wins, 100 draws, 50 losses: a score of exactly 0.5, 0 Elo.
    let mut deck = Vec::new();
    for g in 0..200 {
        deck.push((0, 1, [1.0, 0.5, 0.5, 0.0][g % 4]));
    }
    let decks: Vec<_> = deck.chunks(2).map(<[_]>::to_vec).collect();
    let ladder = fit(&pool_of(&["a", "b"], &decks), None, 0, 1).unwrap();
    assert_close(ladder.get("b").unwrap().rating.unwrap(), 0.0, 1e-9);
    assert_eq!(ladder.head_to_head[0].draws, 100);
}

#[test]
fn the_anchor_shifts_every_rating_and_interval() {
    let decks: Vec<Vec<(u32, u32, f64)>> = (0..60)
        .map(|d| {
            vec![
                (0, 1, if d % 3 == 0 { 0.0 } else { 1.0 }),
                (1, 2, if d % 4 == 0 { 0.5 } else { 1.0 }),
                (0, 2, if d % 5 == 0 { 0.0 } else { 1.0 }),
            ]
        })
        .collect();
    let pool = pool_of(&["a", "b", "c"], &decks);
    let base = fit(&pool, None, 50, 9).unwrap();
    let shifted = fit(&pool, Some(("a", 1500.0)), 50, 9).unwrap();
    for (x, y) in base.ratings.iter().zip(&shifted.ratings) {
        assert_close(y.rating.unwrap() - x.rating.unwrap(), 1500.0, 1e-6);
        assert_close(y.low.unwrap() - x.low.unwrap(), 1500.0, 1e-6);
        assert_close(y.high.unwrap() - x.high.unwrap(), 1500.0, 1e-6);
    }
    // Anchoring another agent at 0 subtracts its rating from everyone's.
    let by_b = fit(&pool, Some(("b", 0.0)), 0, 9).unwrap();
    let rb = base.get("b").unwrap().rating.unwrap();
    assert!(rb.abs() > 50.0, "{rb}");
    for (x, y) in base.ratings.iter().zip(&by_b.ratings) {
        assert_close(y.rating.unwrap(), x.rating.unwrap() - rb, 1e-6);
    }
    assert_eq!(by_b.ranked()[0].agent, "a");
    let e = fit(&pool, Some(("z", 0.0)), 0, 9).unwrap_err().to_string();
    assert!(e.contains("--anchor z") && e.contains("a b c"), "{e}");
}

#[test]
fn the_bootstrap_is_reproducible_and_its_interval_holds_the_estimate() {
    let pool = two_agents(400, 260);
    let one = fit(&pool, None, 200, 7).unwrap();
    let again = fit(&pool, None, 200, 7).unwrap();
    let other = fit(&pool, None, 200, 8).unwrap();
    assert_eq!(one, again);
    let b = one.get("b").unwrap();
    let (r, lo, hi) = (b.rating.unwrap(), b.low.unwrap(), b.high.unwrap());
    assert!(lo < r && r < hi, "{lo} {r} {hi}");
    assert_ne!(Some(lo), other.get("b").unwrap().low);
    // About the binomial interval: 0.65 ± 1.96·sqrt(.65·.35/400) is
    // 0.603..0.697, −149..−60 Elo around −108.
    assert!(
        (-175.0..-135.0).contains(&lo) && (-85.0..-45.0).contains(&hi),
        "{lo} {hi}"
    );
    // The anchor's interval is its rating.
    let a = one.get("a").unwrap();
    assert_eq!((a.low, a.high), (Some(0.0), Some(0.0)));
}

#[test]
fn the_bootstrap_over_decks_widens_intervals_when_the_deck_decides() {
    // Every deck's two games go to the same agent: 100 independent
    // outcomes, not 200. Resampling decks sees that; 200 independent
    // games would give an interval about √2 narrower.
    let decks: Vec<Vec<(u32, u32, f64)>> = (0..100)
        .map(|d| {
            let s = if d % 10 < 6 { 1.0 } else { 0.0 };
            vec![(0, 1, s), (0, 1, s)]
        })
        .collect();
    let paired = fit(&pool_of(&["a", "b"], &decks), None, 400, 3).unwrap();
    let split: Vec<Vec<(u32, u32, f64)>> = decks.concat().chunks(1).map(<[_]>::to_vec).collect();
    let single = fit(&pool_of(&["a", "b"], &split), None, 400, 3).unwrap();
    let width = |l: &Ladder| {
        let b = l.get("b").unwrap();
        b.high.unwrap() - b.low.unwrap()
    };
    assert_close(
        paired.get("b").unwrap().rating.unwrap(),
        single.get("b").unwrap().rating.unwrap(),
        1e-9,
    );
    let ratio = width(&paired) / width(&single);
    assert!((1.25..1.6).contains(&ratio), "{ratio}");
}

#[test]
fn an_agent_without_a_chain_to_the_anchor_is_unconnected() {
    let decks: Vec<Vec<(u32, u32, f64)>> = (0..20)
        .map(|d| vec![(0, 1, (d % 2) as f64), (2, 3, 1.0)])
        .collect();
    let ladder = fit(&pool_of(&["a", "b", "c", "d"], &decks), None, 30, 1).unwrap();
    for name in ["c", "d"] {
        let r = ladder.get(name).unwrap();
        assert_eq!((r.rating, r.low, r.high), (None, None, None), "{name}");
        assert_eq!(r.games, 20);
    }
    assert!(ladder.get("b").unwrap().low.is_some());
    let ranked: Vec<&str> = ladder.ranked().iter().map(|r| r.agent.as_str()).collect();
    assert_eq!(&ranked[2..], ["c", "d"]);
    assert!(ladder.table().contains("unconnected"));
}

#[test]
fn nothing_to_rate_and_too_many_resamples_are_refused() {
    let empty = pool_of(&["a"], &[]);
    assert!(fit(&empty, None, 0, 1).is_err());
    let e = fit(&two_agents(10, 5), None, MAX + 1, 1).unwrap_err();
    assert!(e.to_string().contains("--bootstrap"), "{e}");
}

const MAX: usize = fit::MAX_BOOTSTRAP;

// --- Folders ---------------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ratings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn settings(agents: &[&str], players: usize) -> Settings {
    Settings {
        name: "t".to_string(),
        agents: agents.iter().map(|a| a.to_string()).collect(),
        players,
        games_per_pairing: 2,
        seed: 1,
        rules: Rules::default(),
        records: false,
        shard: None,
        sprt: None,
        kind: RunKind::Tournament,
        secret_decks: false,
    }
}

/// A results folder `dir` with `games`: (deck_seed, [(agent, score)]
/// per seat).
fn folder(dir: &Path, settings: &Settings, revision: &str, games: &[(u64, Vec<(&str, u32)>)]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut info = crate::run::tournament::new_run_info(settings, 1);
    info.status = RunStatus::Finished;
    info.code_revision = revision.to_string();
    write_run_info(dir, &info).unwrap();
    let mut rows = Vec::new();
    for (g, (deck, seats)) in games.iter().enumerate() {
        let scores: Vec<u32> = seats.iter().map(|s| s.1).collect();
        for (seat, ((agent, score), (rank, result))) in
            seats.iter().zip(rank_seats(&scores, None)).enumerate()
        {
            rows.push(GameRow {
                game: g as u64,
                deck_seed: *deck,
                seat,
                agent: agent.to_string(),
                score: *score,
                road: 0,
                city: 0,
                monastery: 0,
                farm: 0,
                gifts: 0,
                rank,
                result,
                turns: 72,
                meeples_placed: 0,
                think_ms: 0.0,
                decisions: None,
                forfeit: String::new(),
            });
        }
    }
    std::fs::write(dir.join("games.csv"), csv_bytes(&rows).unwrap()).unwrap();
}

#[test]
fn a_three_player_game_is_three_pairs() {
    let root = scratch("three");
    let dir = root.join("t");
    // a 30 points, b and c 20: a beats both, b and c draw.
    folder(
        &dir,
        &settings(&["a", "b", "c"], 3),
        "r1",
        &[(5, vec![("a", 30), ("b", 20), ("c", 20)])],
    );
    let pool = load_games(&[dir], false).unwrap();
    assert_eq!(pool.agents, ["a", "b", "c"]);
    assert_eq!(pool.seats, [1, 1, 1]);
    let pairs: Vec<(u32, u32, f64)> = pool
        .comparisons
        .iter()
        .map(|c| (c.a, c.b, c.score_a))
        .collect();
    assert_eq!(pairs, [(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]);
    assert_eq!(pool.decks(), 1);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn folders_pool_by_label_and_group_by_folder_and_deck() {
    let root = scratch("pool");
    let (x, y) = (root.join("x"), root.join("y"));
    let s = settings(&["a", "b"], 2);
    folder(
        &x,
        &s,
        "r1",
        &[
            (1, vec![("a", 10), ("b", 5)]),
            (1, vec![("b", 10), ("a", 10)]),
            (2, vec![("a", 10), ("b", 5)]),
            (2, vec![("b", 1), ("a", 10)]),
        ],
    );
    folder(
        &y,
        &settings(&["c", "b"], 2),
        "r1",
        &[
            (1, vec![("c", 10), ("b", 5)]),
            (1, vec![("b", 10), ("c", 10)]),
        ],
    );
    // A torn last game is left out.
    let mut text = std::fs::read_to_string(y.join("games.csv")).unwrap();
    text.push_str("2,9,0,c,3,0,0,0,0,0,1,win,72,0,0,,\n");
    std::fs::write(y.join("games.csv"), text).unwrap();
    let pool = load_games(&[x.clone(), y.clone()], false).unwrap();
    assert_eq!(pool.agents, ["a", "b", "c"]);
    assert_eq!(pool.seats, [4, 6, 2]);
    // Decks: x/1, x/2, y/1 (the same seed in another folder is another group).
    assert_eq!(pool.deck_starts, [0, 2, 4, 6]);
    assert_eq!(pool.folders[1].games, 2);
    let ladder = fit(&pool, None, 20, 1).unwrap();
    assert_eq!(ladder.get("b").unwrap().opponents, 2);
    assert_eq!(ladder.get("c").unwrap().opponents, 1);
    // Given twice (by another spelling).
    let again = root.join(".").join("x");
    let e = load_games(&[x.clone(), again], false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("given twice"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn folders_of_other_rules_players_or_revisions_are_refused_naming_both() {
    let root = scratch("refuse");
    let game2 = vec![(1, vec![("a", 10), ("b", 5)])];
    let base = root.join("base");
    folder(&base, &settings(&["a", "b"], 2), "r1", &game2);
    let three = root.join("three");
    folder(
        &three,
        &settings(&["a", "b"], 3),
        "r1",
        &[(1, vec![("a", 10), ("b", 5), ("b", 4)])],
    );
    let mut no_farmers = settings(&["a", "b"], 2);
    no_farmers.rules.farmers = false;
    let rules = root.join("rules");
    folder(&rules, &no_farmers, "r1", &game2);
    let revision = root.join("revision");
    folder(&revision, &settings(&["a", "b"], 2), "r2", &game2);
    for (other, what) in [
        (&three, "3-player"),
        (&rules, "farmers=false"),
        (&revision, "code revision r2"),
    ] {
        let e = load_games(&[base.clone(), other.clone()], false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&base.canonicalize().unwrap().display().to_string())
                && e.contains(&other.canonicalize().unwrap().display().to_string())
                && e.contains(what)
                && !e.contains('\n'),
            "{e}"
        );
    }
    // Deliberately pooled revisions.
    let pool = load_games(&[base.clone(), revision.clone()], true).unwrap();
    assert_eq!(pool.decks(), 2);
    assert!(load_games(&[base.clone(), three.clone()], true).is_err());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn self_play_adds_nothing_and_a_non_results_folder_is_refused() {
    let root = scratch("selfplay");
    let mut s = settings(&["a"], 2);
    s.kind = RunKind::Selfplay;
    let selfplay = root.join("sp");
    folder(&selfplay, &s, "r1", &[(1, vec![("a", 10), ("a", 5)])]);
    let base = root.join("base");
    folder(
        &base,
        &settings(&["a", "b"], 2),
        "r1",
        &[(1, vec![("a", 10), ("b", 5)])],
    );
    let pool = load_games(&[base.clone(), selfplay.clone()], false).unwrap();
    assert_eq!(pool.agents, ["a", "b"]);
    assert_eq!(pool.comparisons.len(), 1);
    assert_eq!(pool.warnings.len(), 1);
    assert!(
        pool.warnings[0].contains("self-play"),
        "{:?}",
        pool.warnings
    );
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = load_games(&[base.clone(), empty.clone()], false)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&empty.display().to_string()) && e.contains("not a results folder"),
        "{e}"
    );
    std::fs::remove_file(base.join("games.csv")).unwrap();
    let e = load_games(std::slice::from_ref(&base), false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no games.csv"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn games_simulated_with_known_elo_differences_are_recovered_within_the_intervals() {
    use crate::stats::score_from_elo;
    use rand::{Rng, SeedableRng};
    // Four agents 0, 50, 100, 150 Elo; every deck a game pair of one
    // pairing, pairings in turn; a draw band of 4% around the expectation.
    let truth = [0.0, 50.0, 100.0, 150.0];
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let decks: Vec<Vec<(u32, u32, f64)>> = (0..3000)
        .map(|d| {
            let (a, b) = pairs[d % pairs.len()];
            let p = score_from_elo(truth[a] - truth[b]);
            (0..2)
                .map(|_| {
                    let u: f64 = rng.r#gen();
                    let s = if u < p - 0.02 {
                        1.0
                    } else if u < p + 0.02 {
                        0.5
                    } else {
                        0.0
                    };
                    (a as u32, b as u32, s)
                })
                .collect()
        })
        .collect();
    let ladder = fit(&pool_of(&["a", "b", "c", "d"], &decks), None, 200, 2).unwrap();
    for (r, t) in ladder.ratings.iter().zip(truth) {
        let (lo, hi) = (r.low.unwrap(), r.high.unwrap());
        assert!(lo <= t && t <= hi, "{}: {t} not in [{lo}, {hi}]", r.agent);
        assert!(hi - lo < 60.0, "{}: [{lo}, {hi}]", r.agent);
    }
}
