//! Properties every agent must have: legal moves only, reproducible
//! decisions, and decisions that depend only on what the seat may see.

use agents::game::{deck_rng, play_game};
use agents::history::History;
use agents::{from_spec, Agent, AgentRng, Context};
use engine::random_move;
use engine::{Action, ChanceOutcome, Gift, Phase, Record, RecordBuilder, Rules, Seat, State, Tile};
use rand::SeedableRng;
use testkit::placed;
use testkit::StateExt;

const FARMERS_OFF: Rules = Rules {
    farmers: false,
    gifts: false,
    ..Rules::STANDARD
};

const GIFTS: Rules = Rules {
    farmers: true,
    gifts: true,
    ..Rules::STANDARD
};

/// Play `games` games per table size (2–6 seats) and rules (farmers on and
/// off) with every seat played by `spec`; `play_game` checks every move
/// with `State::try_play` and records a forfeit on an illegal one.
fn only_legal_moves(spec: &str, games: u64) {
    for players in 2..=6 {
        for rules in [Rules::default(), FARMERS_OFF, GIFTS] {
            for g in 0..games {
                let mut agents: Vec<Box<dyn Agent>> =
                    (0..players).map(|_| from_spec(spec).unwrap()).collect();
                let seeds: Vec<u64> = (0..players as u64).map(|s| 1000 * g + s).collect();
                let deck_seed = 7919 * g
                    + players as u64
                    + 100 * rules.farmers as u64
                    + 1000 * rules.gifts as u64;
                let out = play_game(&mut agents, rules, deck_seed, &seeds);
                assert!(
                    out.forfeit.is_none(),
                    "{spec}, {players} seats, {rules:?}, deck {deck_seed}: {:?}",
                    out.forfeit
                );
                assert!(out.turns > 0);
            }
        }
    }
}

#[test]
fn random_plays_only_legal_moves() {
    // 15 table/rules combinations × 300 games.
    only_legal_moves("random", 300);
    only_legal_moves("random:meeple=0.3", 50);
}

#[test]
fn greedy_plays_only_legal_moves() {
    // 15 table/rules combinations × 100 games.
    only_legal_moves("greedy", 100);
}

// The search agents at tiny budgets (a move still expands the root and
// rolls out): 3 games per table size and rules, 45 per spec, plus a few
// games at other settings. `cargo test -p carcassonne-agents --test all
// -- --ignored` plays 1,500 per spec.

/// The search agents at tiny budgets.
const TINY: &[&str] = &[
    "mcts:iterations=2,depth=1",
    "ismcts:iterations=2,depth=1",
    "solver:tiles=1",
    "star25:depth=1,width=1",
    "az:iterations=4,batch=2",
];

#[test]
fn search_agents_play_only_legal_moves() {
    for spec in TINY {
        only_legal_moves(spec, 3);
    }
    only_legal_moves(
        "mcts:iterations=12,reward=win,rollout=random,depth=all,widen=0",
        1,
    );
    only_legal_moves("mcts:iterations=12,bias=1,pick=0,threads=2", 1);
    only_legal_moves("ismcts:iterations=12,rollout=random,widen=0", 1);
    only_legal_moves("mcts:iterations=8,solver_tiles=1", 1);
    only_legal_moves("mcts:iterations=30,widen=0.3,reuse=true", 1);
    only_legal_moves("star25:depth=2,width=1", 1);
    only_legal_moves("az:iterations=16,batch=4,threads=2", 1);
    only_legal_moves("az:iterations=12,noise=0.25,temp_moves=10", 1);
}

/// `az` (uniform priors, zero values) plays whole games the same way
/// again for the same seeds, at 2–6 seats and with The Gifts.
#[test]
fn az_games_repeat_for_their_seeds() {
    for (players, rules) in [(2, Rules::default()), (4, GIFTS), (6, FARMERS_OFF)] {
        let game = |agent_seed: u64| {
            let mut agents: Vec<Box<dyn Agent>> = (0..players)
                .map(|_| from_spec("az:iterations=10,batch=3").unwrap())
                .collect();
            let seeds: Vec<u64> = (0..players as u64).map(|s| agent_seed + s).collect();
            let out = play_game(&mut agents, rules, 77, &seeds);
            assert!(out.forfeit.is_none(), "{players} seats: {:?}", out.forfeit);
            out.record
        };
        let a = game(5);
        assert_eq!(a, game(5), "{players} seats, {rules:?}");
        assert_ne!(
            a,
            game(6),
            "{players} seats: other agent seeds, other moves"
        );
    }
}

/// The value model shipped in `models/` (README, "Strength of the
/// research agents"): it must fit this build's features — a change of the
/// features fails here until the model is fitted again — and drive
/// `greedy` and `mcts` at every table size and rules.
#[test]
fn the_shipped_value_model_loads_and_plays() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/value-2p.json");
    only_legal_moves(&format!("greedy:eval={path}"), 1);
    only_legal_moves(&format!("mcts:iterations=12,depth=1,eval={path}"), 1);
}

/// The shipped model says what it was fitted on (2 players, the standard
/// rules), so the agents using it warn under other games (its `fitted_on`
/// was added by hand, as this build writes it: the code that fitted the
/// model did not record one).
#[test]
fn the_shipped_value_model_says_what_it_was_fitted_on() {
    use agents::learn::{FittedOn, ValueModel};
    use engine::Rules;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/value-2p.json");
    let model = ValueModel::load(std::path::Path::new(path)).unwrap();
    let fitted = FittedOn {
        players: vec![2],
        rules: vec![Rules::default()],
    };
    assert_eq!(model.fitted_on, Some(fitted));
    // Written as this build writes it (the last field of the file).
    let written = serde_json::to_string_pretty(&model).unwrap();
    let tail = &written[written.find("  \"fitted_on\"").unwrap()..];
    assert!(std::fs::read_to_string(path)
        .unwrap()
        .ends_with(&format!("{tail}\n")));
    let gifts: Rules = "gifts=true".parse().unwrap();
    for spec in ["greedy:", "mcts:iterations=10,", "ismcts:iterations=10,"] {
        let agent = agents::Factory::new(&format!("{spec}eval={path}")).unwrap();
        assert_eq!(agent.unsuited_to(&Rules::default(), 2), None, "{spec}");
        let why = agent.unsuited_to(&gifts, 2).expect("unsuited to The Gifts");
        assert!(
            why.contains("not 2-player games under gifts=true"),
            "{spec}: {why}"
        );
        assert!(agent.unsuited_to(&Rules::default(), 3).is_some(), "{spec}");
    }
    let plain = agents::Factory::new("mcts:iterations=10").unwrap();
    assert_eq!(plain.unsuited_to(&gifts, 3), None);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn search_agents_play_only_legal_moves_over_thousands_of_games() {
    for spec in TINY {
        only_legal_moves(spec, 100);
    }
}

/// Variants of RULES.md §8, alone and together (small tables fill up, so
/// unplaceable tiles, returns and early ends come up).
const VARIANTS: [&str; 8] = [
    "table=5x5,table_closes=true",
    "hand=3,table=5x5,table_closes=true,unplaceable=return,start_in_bag=true",
    "hand=2,hand_visible=true,table=7x7,unplaceable=return,hole_bonus=true",
    "table=3x3,unplaceable=return",
    "start_in_bag=true,hole_bonus=true",
    "table=7x5,unplaceable=return,final_incomplete=false",
    "table=5x7,table_closes=true,unplaceable=return,start_in_bag=true,gifts=true",
    "table=9x9,table_closes=true,hole_bonus=true,gifts=true",
];

#[test]
fn every_agent_plays_every_variant_legally() {
    let specs = [
        "random",
        "greedy",
        "mcts:iterations=12",
        "mcts:iterations=8,solver_tiles=1",
        "ismcts:iterations=12",
        "solver:tiles=1",
        "star25:depth=2,width=1",
        "az:iterations=8,batch=4",
    ];
    for spec in specs {
        for (v, variant) in VARIANTS.iter().enumerate() {
            let rules: Rules = variant.parse().unwrap();
            for players in [2, 3] {
                let mut agents: Vec<Box<dyn Agent>> =
                    (0..players).map(|_| from_spec(spec).unwrap()).collect();
                let seeds: Vec<u64> = (0..players as u64).collect();
                let deck_seed = 31 * v as u64 + players as u64;
                let out = play_game(&mut agents, rules, deck_seed, &seeds);
                assert!(
                    out.forfeit.is_none(),
                    "{spec}, {players} seats, {variant}: {:?}",
                    out.forfeit
                );
                assert!(out.turns > 0);
                engine::replay(&out.record, false)
                    .unwrap_or_else(|e| panic!("{spec}, {variant}: {e}"));
            }
        }
    }
}

/// Positions in the place phase from a game of random play.
fn positions(players: usize, rules: Rules, seed: u64) -> Vec<State> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut out = Vec::new();
    loop {
        match state.phase() {
            Phase::Draw => {
                state.draw_random(&mut rng);
            }
            Phase::Place(_) => {
                if state.turns() % 9 == 0 {
                    out.push(state.clone());
                }
                let mv = random_move(&state, &mut rng).unwrap();
                state.play_unchecked(mv);
            }
            Phase::Over => return out,
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
}

const SPECS: &[&str] = &[
    "random",
    "greedy",
    "mcts:iterations=60",
    "mcts:iterations=60,reward=win,rollout=random,depth=all,widen=0",
    "mcts:iterations=30,threads=3,bias=1",
    "ismcts:iterations=60",
    "solver:tiles=1",
    "star25:depth=2,width=2",
    "az:iterations=60,batch=4",
    "az:iterations=30,threads=2",
];

fn decide(spec: &str, state: &State, seed: u64) -> Action {
    let mut agent = from_spec(spec).unwrap();
    let mut rng = AgentRng::seed_from_u64(seed);
    let view = state.view(state.to_play());
    agent.decide(Context::new(&view, &mut rng)).unwrap().action
}

#[test]
fn the_same_view_and_seed_give_the_same_move() {
    for spec in SPECS {
        for (players, seed) in [(2, 1), (4, 2)] {
            for state in positions(players, Rules::default(), seed) {
                let first = decide(spec, &state, 99);
                assert_eq!(first, decide(spec, &state, 99), "{spec}");
                // A copy of the position is the same position to the agent.
                let copy = state.clone();
                assert_eq!(first, decide(spec, &copy, 99), "{spec}");
                assert!(state.check_action(first).is_ok(), "{spec}: {first:?}");
            }
        }
    }
}

/// The contract of `Agent::decide`: a legal action, with the search's
/// statistics from the agents that search (root visits of legal actions,
/// summing to the iterations, the chosen action among them) and none
/// from the others; a caller's time limit leaves the move legal.
#[test]
fn search_agents_answer_with_their_statistics_and_the_others_without() {
    let searching = [
        "mcts:iterations=30",
        "ismcts:iterations=30",
        "az:iterations=30,batch=4",
    ];
    let plain = [
        "random",
        "greedy",
        "solver:tiles=1",
        "star25:depth=2,width=2",
    ];
    for state in positions(3, Rules::default(), 4) {
        let view = state.view(state.to_play());
        let forced = state.legal_actions().len() == 1;
        for spec in searching.iter().chain(&plain) {
            let mut agent = from_spec(spec).unwrap();
            let mut rng = AgentRng::seed_from_u64(7);
            let d = agent.decide(Context::new(&view, &mut rng)).unwrap();
            assert!(
                state.check_action(d.action).is_ok(),
                "{spec}: {:?}",
                d.action
            );
            match (searching.contains(spec) && !forced, &d.search) {
                (true, Some(s)) => {
                    assert_eq!(s.iterations, 30, "{spec}");
                    let visits: u32 = s.root_visits.iter().map(|&(_, v)| v).sum();
                    assert_eq!(visits, 30, "{spec}");
                    assert!(s
                        .root_visits
                        .iter()
                        .all(|&(a, _)| state.check_action(a).is_ok()));
                    assert!(s.root_visits.iter().any(|&(a, _)| a == d.action), "{spec}");
                    assert_eq!(d.root_visits(), Some(s.root_visits.as_slice()));
                }
                (false, None) => assert_eq!(d.root_visits(), None),
                (_, search) => panic!("{spec}: {search:?}"),
            }
            let cx = Context::new(&view, &mut rng).with_time_left(std::time::Duration::ZERO);
            let d = agent.decide(cx).unwrap();
            assert!(
                state.check_action(d.action).is_ok(),
                "{spec}: {:?}",
                d.action
            );
        }
    }
}

#[test]
fn greedy_takes_a_best_move_and_breaks_ties_at_random() {
    for state in positions(3, Rules::default(), 5) {
        let mut best = i32::MIN;
        state.for_each_move(|m| best = best.max(agents::greedy::move_value(&state, m)));
        let Action::Place(mv) = decide("greedy", &state, 3) else {
            panic!("no gifts in the base game");
        };
        assert_eq!(agents::greedy::move_value(&state, mv), best);
    }
    // At the opening many moves tie (no meeple, no points): different
    // seeds pick different ones.
    let mut state = State::new(Rules::default(), 2, Seat(0));
    state.draw(Tile::U).unwrap();
    let picks: std::collections::BTreeSet<Action> =
        (0..20).map(|s| decide("greedy", &state, s)).collect();
    assert!(picks.len() > 1, "{picks:?}");
}

/// The moves of one game up to and including turn `k`, where the tiles of
/// the first `k + 1` turns are `prefix` (set-aside tiles included) and the
/// later ones come from `deck_seed`. One agent plays every seat with one
/// generator seeded with `agent_seed`, told the game's history (so
/// `reuse=true` follows it).
fn moves_until(
    spec: &str,
    players: usize,
    prefix: &[Tile],
    deck_seed: u64,
    agent_seed: u64,
    turns: usize,
) -> (Vec<Action>, Vec<Tile>) {
    let mut agent = from_spec(spec).unwrap();
    let mut rng = AgentRng::seed_from_u64(agent_seed);
    let mut deck = deck_rng(deck_seed);
    let mut state = State::new(Rules::default(), players, Seat(0));
    let mut record = RecordBuilder::new(players, Rules::default());
    let mut drawn = Vec::new();
    let mut moves = Vec::new();
    while !state.is_over() && moves.len() < turns {
        match state.phase() {
            Phase::Draw => {
                let (tile, how) = if drawn.len() < prefix.len() {
                    let tile = prefix[drawn.len()];
                    (tile, state.draw(tile).unwrap())
                } else {
                    state.draw_random(&mut deck)
                };
                drawn.push(tile);
                record.chance(&state, ChanceOutcome::Tile(tile, how));
            }
            Phase::Place(_) => {
                let seat = state.to_play();
                let history = History::new(&record, seat);
                let view = state.view(seat);
                let cx = Context::new(&view, &mut rng).with_history(history);
                let mv = agent.decide(cx).unwrap().action;
                state.try_action(mv).unwrap();
                record.action(seat, &state, mv);
                moves.push(mv);
            }
            other => unreachable!("not in the base game: {other:?}"),
        }
    }
    (moves, drawn)
}

#[test]
fn decisions_do_not_depend_on_the_future_tile_order() {
    for spec in [
        "random",
        "greedy",
        "mcts:iterations=40",
        "mcts:iterations=300,widen=0.3,reuse=true",
        "ismcts:iterations=40",
        "solver:tiles=1",
        "star25:depth=2,width=2",
        "az:iterations=40",
    ] {
        for (players, k) in [(2, 6), (3, 11)] {
            // A game to turn k with deck seed 1: the tiles drawn so far
            // (any set aside included) ...
            let (moves, prefix) = moves_until(spec, players, &[], 1, 5, k + 1);
            // ... then two games with those tiles first and different
            // futures. The agent's moves up to and including turn k must
            // not change.
            let (a, tiles_a) = moves_until(spec, players, &prefix, 11, 5, k + 7);
            let (b, tiles_b) = moves_until(spec, players, &prefix, 22, 5, k + 7);
            assert_eq!(&a[..=k], &moves[..], "{spec}, {players} seats");
            assert_eq!(&b[..=k], &moves[..], "{spec}, {players} seats");
            assert_eq!(&tiles_a[..prefix.len()], &prefix[..]);
            assert_ne!(tiles_a, tiles_b, "the futures differ");
        }
    }
}

/// Seat 0 on the start tile's road; seat 1 extends it and receives `gift`;
/// seat 0 has drawn a V and is to play.
fn seat1_holds(gift: Gift) -> State {
    let mut record = Record::new(2, GIFTS);
    let mut t2 = placed(1, Tile::U, -1, 0, 1, None);
    t2.gift_received = Some(gift);
    record.turns = vec![placed(0, Tile::U, 1, 0, 1, Some("E")), t2];
    let mut state = engine::replay(&record, false).unwrap();
    state.draw(Tile::V).unwrap();
    state
}

#[test]
fn decisions_do_not_depend_on_other_seats_hidden_gifts() {
    let (a, b) = (seat1_holds(Gift::Synod), seat1_holds(Gift::Take2));
    assert_ne!(a, b);
    for spec in SPECS {
        for seed in 0..4 {
            assert_eq!(decide(spec, &a, seed), decide(spec, &b, seed), "{spec}");
        }
    }
}

#[test]
fn searches_with_gifts_only_play_legal_actions_at_a_real_budget() {
    // Below the root, determinizations deal other seats different cards:
    // a stored gift opening may be illegal in another iteration's sample.
    // At a few hundred iterations per move that happens in most games.
    for g in 0..4u64 {
        let players = 2 + (g % 2) as usize;
        let search = ["mcts:iterations=400", "ismcts:iterations=400"][(g / 2) as usize];
        let search = if g == 3 { "az:iterations=300" } else { search };
        let mut agents: Vec<Box<dyn Agent>> = (0..players)
            .map(|s| from_spec(if s == 0 { search } else { "greedy" }).unwrap())
            .collect();
        let seeds: Vec<u64> = (0..players as u64).map(|s| 31 * g + s).collect();
        let out = play_game(&mut agents, GIFTS, 500 + g, &seeds);
        assert!(out.forfeit.is_none(), "game {g}: {:?}", out.forfeit);
    }
}
