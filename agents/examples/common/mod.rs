//! What the speed examples share: the positions they measure on and
//! their command-line options.

use agents::AgentRng;
use engine::{random_action, Rules, Seat, State};
use rand::SeedableRng;

/// `n` decisions of random games of `players` seats under `rules` with
/// more than one legal action: every 7th decision of each game (the
/// fourth, the eleventh, ...), deck and moves from seeds 1, 2, ...
pub fn positions(n: usize, players: usize, rules: Rules) -> Vec<State> {
    let mut out = Vec::new();
    let mut seed = 1;
    while out.len() < n {
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut state = State::new(rules, players, Seat(0));
        let mut decision = 0;
        while !state.is_over() && out.len() < n {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            if decision % 7 == 3 && state.legal_actions().len() > 1 {
                out.push(state.clone());
            }
            decision += 1;
            let a = random_action(&state, &mut rng).expect("a decision");
            state.play_action_unchecked(a);
        }
        seed += 1;
    }
    out
}

/// Take `--name VALUE` out of `args`, parsed.
///
/// # Panics
/// When the value is missing or does not parse.
pub fn option<T: std::str::FromStr>(args: &mut Vec<String>, name: &str) -> Option<T> {
    let i = args.iter().position(|a| a == name)?;
    let value = args
        .get(i + 1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name}: a value"));
    args.drain(i..=i + 1);
    Some(value)
}
