//! The network's speed side by side with the searches it competes with,
//! in one process and interleaved: every round measures every item once,
//! in the same order, and the median over the rounds is printed, so a
//! change of the machine's load falls on all of them alike.
//!
//! ```text
//! cargo build --release -p carcassonne-agents --example net_speed
//! ./target/release/examples/net_speed NET.safetensors --positions 64 --rounds 5
//! ```
//!
//! Items (positions are decisions of random 2-player games, standard
//! rules, deck seeds 1, 2, ..., every 7th decision with a choice):
//!
//! - `encode`: the encoding of one position and its legal actions, by
//!   [`encode_position_into`] and [`ActionEncoder`] with their buffers
//!   kept, as the `az` search encodes (positions per second);
//! - `candle forward bB`, `fast forward bB`: the network alone on batches
//!   of `B` positions already encoded, by candle's forward pass and by
//!   `agents::neural::fast` (positions per second);
//! - `evaluate bB`: [`NetEvaluator`]'s whole evaluation (encoding, fast
//!   forward, softmax) of batches of `B` positions (positions per second);
//! - `az:net=NET,batch=B`, `mcts:…` and any further agent specs given:
//!   searches of `--iterations` iterations on the first `--searches`
//!   positions (iterations per second, counted from the root visits).
//!
//! Arguments: the network file, then `--positions N` (64), `--rounds R`
//! (5), `--iterations I` (200), `--searches S` (8), `--eval MODEL` (the
//! linear model of the `mcts` rows, `models/value-2p.json`), `--no-candle`
//! (leave candle's forward out), and any further agent specs.

mod common;

use agents::az::{EvalRequest, Evaluator};
use agents::neural::encode::{
    encode_actions, encode_position, encode_position_into, ActionEncoder, ActionInput,
    PositionInput,
};
use agents::neural::fast::{forward, forward_candle};
use agents::neural::NetEvaluator;
use agents::{from_spec, AgentRng, Context};
use common::{option, positions};
use engine::{Action, Rules, State};
use rand::SeedableRng;
use std::path::Path;
use std::time::Instant;

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// One encoded batch: positions, actions, offsets.
type Encoded = (Vec<PositionInput>, Vec<ActionInput>, Vec<usize>);

fn encode(states: &[State], legal: &[Vec<Action>]) -> Encoded {
    let mut e: Encoded = (Vec::new(), Vec::new(), vec![0]);
    for (s, a) in states.iter().zip(legal) {
        let view = s.view(s.to_play());
        e.0.push(encode_position(&view));
        e.1.extend(encode_actions(&view, a));
        e.2.push(e.1.len());
    }
    e
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = option(&mut args, "--positions").unwrap_or(64);
    let rounds: usize = option(&mut args, "--rounds").unwrap_or(5);
    let iterations: u32 = option(&mut args, "--iterations").unwrap_or(200);
    let searches: usize = option(&mut args, "--searches").unwrap_or(8);
    let eval: String =
        option(&mut args, "--eval").unwrap_or_else(|| "models/value-2p.json".to_string());
    let candle = match args.iter().position(|a| a == "--no-candle") {
        Some(i) => {
            args.remove(i);
            false
        }
        None => true,
    };
    let net_path = args.first().expect("the network file").clone();
    let net = NetEvaluator::load(Path::new(&net_path)).unwrap_or_else(|e| panic!("{e}"));
    let states = positions(count, 2, Rules::default());
    let legal: Vec<Vec<Action>> = states.iter().map(State::legal_actions).collect();
    let mean_actions = legal.iter().map(Vec::len).sum::<usize>() as f64 / count as f64;
    let batches = [1usize, 8, 32];
    let encoded: Vec<Vec<Encoded>> = batches
        .iter()
        .map(|&b| {
            states
                .chunks(b)
                .zip(legal.chunks(b))
                .map(|(s, a)| encode(s, a))
                .collect()
        })
        .collect();
    let mut specs = vec![
        format!("az:net={net_path},iterations={iterations},batch=1"),
        format!("az:net={net_path},iterations={iterations},batch=8"),
        format!("az:net={net_path},iterations={iterations},batch=32"),
        format!("mcts:depth=0,eval={eval},iterations={iterations}"),
        format!("mcts:iterations={iterations}"),
    ];
    specs.extend(args[1..].iter().cloned());
    let mut names: Vec<String> = vec!["encode".into()];
    if candle {
        names.extend(batches.map(|b| format!("candle forward b{b}")));
    }
    names.extend(batches.map(|b| format!("fast forward b{b}")));
    names.extend(batches.map(|b| format!("evaluate b{b}")));
    names.extend(specs.iter().cloned());
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut position = encode_position(&states[0].view(states[0].to_play()));
    let mut encoder = ActionEncoder::default();
    let (mut features, mut cells) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let mut k = 0;
        let mut record = |rate: f64| {
            samples[k].push(rate);
            k += 1;
        };
        let t = Instant::now();
        for (s, a) in states.iter().zip(&legal) {
            let view = s.view(s.to_play());
            encode_position_into(&view, &mut position);
            features.clear();
            cells.clear();
            encoder.encode_into(&view, a, &mut features, &mut cells);
            std::hint::black_box((&position, &features, &cells));
        }
        record(count as f64 / t.elapsed().as_secs_f64());
        if candle {
            for chunks in &encoded {
                let t = Instant::now();
                for (p, a, o) in chunks {
                    std::hint::black_box(forward_candle(&net.net, p, a, o).expect("candle"));
                }
                record(count as f64 / t.elapsed().as_secs_f64());
            }
        }
        for chunks in &encoded {
            let t = Instant::now();
            for (p, a, o) in chunks {
                std::hint::black_box(forward(&net.net, p, a, o).expect("fast"));
            }
            record(count as f64 / t.elapsed().as_secs_f64());
        }
        for b in batches {
            let t = Instant::now();
            for (s, a) in states.chunks(b).zip(legal.chunks(b)) {
                let requests: Vec<EvalRequest<'_>> = s
                    .iter()
                    .zip(a)
                    .map(|(s, a)| EvalRequest {
                        view: s.view(s.to_play()),
                        actions: a,
                    })
                    .collect();
                std::hint::black_box(net.evaluate(&requests));
            }
            record(count as f64 / t.elapsed().as_secs_f64());
        }
        for spec in &specs {
            let mut agent = from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let mut done = 0u64;
            let t = Instant::now();
            for (i, state) in states.iter().take(searches).enumerate() {
                let mut rng = AgentRng::seed_from_u64(i as u64);
                let view = state.view(state.to_play());
                let decision = agent.decide(Context::new(&view, &mut rng)).expect("a move");
                let visits = decision.root_visits().expect("root visits");
                done += visits.iter().map(|v| u64::from(v.1)).sum::<u64>();
            }
            record(done as f64 / t.elapsed().as_secs_f64());
        }
    }
    println!(
        "network {net_path} ({:?}); {count} positions, {mean_actions:.1} legal actions on average; median of {rounds} interleaved rounds",
        net.net.config
    );
    println!("{:<64} {:>12} {:>12}", "item", "median/s", "range");
    for (name, s) in names.iter().zip(&mut samples) {
        let (lo, hi) = (
            s.iter().copied().fold(f64::MAX, f64::min),
            s.iter().copied().fold(f64::MIN, f64::max),
        );
        let unit = if is_search(name) { "iter" } else { "pos" };
        println!(
            "{:<64} {:>12.0} {:>5.0}–{:<6.0} {unit}/s",
            name,
            median(s),
            lo,
            hi
        );
    }
}

/// Whether the item is a search (its rate counts iterations).
fn is_search(name: &str) -> bool {
    name.contains(':')
}
