//! Every agent plays the `hand` variant (RULES.md §8) legally: hands of
//! 1–3 tiles, visible and hidden, 2–6 seats; choosing the tile is part of
//! the action. Each game's record replays to its scores.

use agents::game::play_game;
use agents::{from_spec, Agent, AgentRng, Context};
use engine::{replay, Phase, Rules, Seat, State, Tile};
use rand::SeedableRng;
use testkit::StateExt;

/// The six hand variants: 1–3 tiles, hidden and visible.
fn hand_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for hand in 1..=3 {
        for hand_visible in [false, true] {
            out.push(Rules {
                hand,
                hand_visible,
                ..Rules::STANDARD
            });
        }
    }
    out
}

/// Play `games` games per table size and hand variant with every seat
/// played by `spec`: no forfeit, and the record replays to the scores.
fn only_legal_moves_with_hands(spec: &str, games: u64, seats: &[usize]) {
    for &players in seats {
        for (r, rules) in hand_rules().into_iter().enumerate() {
            for g in 0..games {
                let mut agents: Vec<Box<dyn Agent>> =
                    (0..players).map(|_| from_spec(spec).unwrap()).collect();
                let seeds: Vec<u64> = (0..players as u64).map(|s| 1000 * g + s).collect();
                let deck_seed = 7919 * g + 31 * players as u64 + r as u64;
                let out = play_game(&mut agents, rules, deck_seed, &seeds);
                let ctx = format!("{spec}, {players} seats, {rules}, deck {deck_seed}");
                assert!(out.forfeit.is_none(), "{ctx}: {:?}", out.forfeit);
                let state = replay(&out.record, false).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert!(state.is_over(), "{ctx}");
                for (s, score) in out.scores.iter().enumerate() {
                    assert_eq!(state.score(Seat(s as u8)), *score, "{ctx}");
                }
            }
        }
    }
}

#[test]
fn random_plays_hands_legally() {
    only_legal_moves_with_hands("random", 20, &[2, 3, 4, 5, 6]);
    only_legal_moves_with_hands("random:meeple=0.3", 3, &[2, 4]);
}

#[test]
fn greedy_plays_hands_legally() {
    only_legal_moves_with_hands("greedy", 5, &[2, 3, 4, 5, 6]);
}

#[test]
fn mcts_plays_hands_legally() {
    // Enough iterations to revisit deep nodes built on other
    // determinizations of the hidden hands.
    only_legal_moves_with_hands("mcts:iterations=60", 1, &[2, 5]);
    only_legal_moves_with_hands(
        "mcts:iterations=8,rollout=random,depth=all,widen=0",
        1,
        &[3],
    );
}

#[test]
fn ismcts_plays_hands_legally() {
    only_legal_moves_with_hands("ismcts:iterations=60", 1, &[2, 4]);
}

#[test]
fn az_plays_hands_legally() {
    // Enough iterations to come back to nodes whose legal actions differ
    // between determinizations of the hidden hands.
    only_legal_moves_with_hands("az:iterations=60,batch=4", 1, &[2, 5]);
}

#[test]
fn solver_plays_hands_legally() {
    only_legal_moves_with_hands("solver:tiles=1", 1, &[2, 3]);
}

#[test]
fn star25_plays_hands_legally() {
    only_legal_moves_with_hands("star25:depth=2,width=1", 1, &[2]);
}

/// A hidden hand=3 game of two seats under `rules` (`hand=3` added;
/// with `start_in_bag` the start tile D is drawn first) dealt seat 0
/// [D, U, V] and seat 1 `seat1`; seat 0 is to play.
fn seat1_holds(rules: &str, seat1: [Tile; 3]) -> State {
    let mut rules: Rules = rules.parse().unwrap();
    rules.hand = 3;
    let mut state = State::new(rules, 2, Seat(0));
    if rules.start_in_bag {
        state.draw(Tile::D).unwrap();
    }
    for t in [Tile::D, Tile::U, Tile::V].into_iter().chain(seat1) {
        state.draw(t).unwrap();
    }
    assert_eq!(state.phase(), Phase::PlaceHand);
    state
}

/// The variants that change what a hidden hand or the bag may hold.
const HIDDEN_HAND_RULES: [&str; 4] = [
    "hand=3",
    "hand=3,unplaceable=return",
    "hand=3,table=5x5,table_closes=true,unplaceable=return",
    "hand=3,start_in_bag=true",
];

#[test]
fn decisions_do_not_depend_on_another_seats_hidden_hand() {
    for rules in HIDDEN_HAND_RULES {
        let a = seat1_holds(rules, [Tile::E, Tile::K, Tile::L]);
        let b = seat1_holds(rules, [Tile::B, Tile::J, Tile::W]);
        assert_ne!(a, b);
        for spec in [
            "random",
            "greedy",
            "mcts:iterations=40",
            "mcts:iterations=40,rollout=random,depth=all,widen=0",
            "ismcts:iterations=40",
            "star25:depth=2,width=2",
            "az:iterations=40,batch=4",
        ] {
            for seed in 0..3 {
                let decide = |state: &State| {
                    let mut agent = from_spec(spec).unwrap();
                    let mut rng = AgentRng::seed_from_u64(seed);
                    let view = state.view(Seat(0));
                    agent.decide(Context::new(&view, &mut rng)).unwrap().action
                };
                assert_eq!(decide(&a), decide(&b), "{rules}: {spec}, seed {seed}");
            }
        }
    }
}
