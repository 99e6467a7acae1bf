//! For tests: records of real games to draw.

use engine::{Record, Rules};

/// The record of a game between built-in `agents` in turn (seat `s` plays
/// `agents[s % agents.len()]`), farmers on, dealt from `seed` with the
/// agent seeds `carcassonne play --seed` gives.
pub(crate) fn test_record(agents: &[&str], players: usize, gifts: bool, seed: u64) -> Record {
    let mut seats: Vec<Box<dyn agents::Agent>> = (0..players)
        .map(|s| agents::from_spec(agents[s % agents.len()]).expect("a built-in agent"))
        .collect();
    let seeds: Vec<u64> = (0..players)
        .map(|s| tournament::run::schedule::agent_seed(seed, 0, s))
        .collect();
    let rules = Rules {
        gifts,
        ..Rules::STANDARD
    };
    agents::game::play_game(&mut seats, rules, seed, &seeds).record
}
