//! Strength of one agent against another on paired decks.
//!
//! ```text
//! cargo run --release -p carcassonne-agents --example strength -- \
//!     --a mcts --b greedy --games 200 --seed 1 [--threads 2] [--no-farmers] [--gifts]
//! ```
//!
//! Games come in pairs: the same deck seed with the seats swapped, so the
//! luck of the draw cancels. Two seats. Prints A's wins, draws and losses,
//! its score (wins + draws/2) with a Wilson 95% interval, the mean score
//! difference A − B ± its standard error, and each agent's mean time per
//! move. Games run on `--threads` threads (default: all cores); a game's
//! result does not depend on the thread that plays it.

use agents::from_spec;
use agents::game::play_game;
use engine::Rules;
use std::process::exit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

struct Args {
    a: String,
    b: String,
    games: usize,
    seed: u64,
    threads: usize,
    rules: Rules,
}

fn usage() -> ! {
    eprintln!(
        "usage: strength --a SPEC --b SPEC [--games N] [--seed S] [--threads T] [--no-farmers] [--gifts]"
    );
    exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        a: String::new(),
        b: String::new(),
        games: 200,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        rules: Rules::default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--no-farmers" {
            args.rules.farmers = false;
            continue;
        }
        if flag == "--gifts" {
            args.rules.gifts = true;
            continue;
        }
        let Some(value) = it.next() else { usage() };
        let number = |v: &str| v.parse::<u64>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--a" => args.a = value,
            "--b" => args.b = value,
            "--games" => args.games = number(&value) as usize,
            "--seed" => args.seed = number(&value),
            "--threads" => args.threads = (number(&value) as usize).max(1),
            _ => usage(),
        }
    }
    if args.a.is_empty() || args.b.is_empty() || args.games == 0 {
        usage();
    }
    for spec in [&args.a, &args.b] {
        if let Err(e) = from_spec(spec) {
            eprintln!("error: {e}");
            exit(2);
        }
    }
    args
}

/// One game's result from A's side.
#[derive(Clone, Copy, Default)]
struct GameResult {
    diff: f64,
    a_ms: f64,
    a_moves: u32,
    b_ms: f64,
    b_moves: u32,
}

fn play(args: &Args, game: usize) -> GameResult {
    let pair = (game / 2) as u64;
    let swapped = game % 2 == 1;
    let deck_seed = args.seed.wrapping_mul(1_000_003).wrapping_add(pair);
    let (first, second) = if swapped {
        (&args.b, &args.a)
    } else {
        (&args.a, &args.b)
    };
    let mut agents = vec![from_spec(first).unwrap(), from_spec(second).unwrap()];
    let agent_seeds = [
        deck_seed ^ (2 * game as u64 + 1) << 32,
        deck_seed ^ (2 * game as u64 + 2) << 32,
    ];
    let out = play_game(&mut agents, args.rules, deck_seed, &agent_seeds);
    if let Some(f) = &out.forfeit {
        eprintln!("game {game}: {} forfeited: {}", f.seat, f.reason);
        exit(1);
    }
    let (a, b) = if swapped { (1, 0) } else { (0, 1) };
    let moves = |seat: usize| {
        out.record
            .turns
            .iter()
            .filter(|t| t.player as usize == seat && t.tile.is_some())
            .count() as u32
    };
    GameResult {
        diff: out.scores[a].total() as f64 - out.scores[b].total() as f64,
        a_ms: out.think_time[a].as_secs_f64() * 1e3,
        a_moves: moves(a),
        b_ms: out.think_time[b].as_secs_f64() * 1e3,
        b_moves: moves(b),
    }
}

/// The Wilson score interval at 95% for `p` observed over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (centre - half, centre + half)
}

fn main() {
    let args = parse_args();
    let games = args.games + args.games % 2;
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![GameResult::default(); games]);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let r = play(&args, g);
                results.lock().unwrap()[g] = r;
            });
        }
    });
    let results = results.into_inner().unwrap();
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    for r in &results {
        match r.diff.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => w += 1,
            Some(std::cmp::Ordering::Equal) => d += 1,
            _ => l += 1,
        }
    }
    let n = games as f64;
    let p = (w as f64 + 0.5 * d as f64) / n;
    let (lo, hi) = wilson(p, n);
    let mean = results.iter().map(|r| r.diff).sum::<f64>() / n;
    let var = results.iter().map(|r| (r.diff - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let ms = |ms: f64, moves: u32| ms / moves.max(1) as f64;
    let a_ms = ms(
        results.iter().map(|r| r.a_ms).sum(),
        results.iter().map(|r| r.a_moves).sum(),
    );
    let b_ms = ms(
        results.iter().map(|r| r.b_ms).sum(),
        results.iter().map(|r| r.b_moves).sum(),
    );
    println!("A = {}", args.a);
    println!("B = {}", args.b);
    println!(
        "games {games} ({} pairs, seed {}, farmers {}, {} threads, {:.1} s)",
        games / 2,
        args.seed,
        if args.rules.farmers { "on" } else { "off" },
        args.threads,
        start.elapsed().as_secs_f64()
    );
    println!("A wins {w}, draws {d}, losses {l}");
    println!(
        "A score rate {:.1}% (Wilson 95%: {:.1}%–{:.1}%)",
        100.0 * p,
        100.0 * lo,
        100.0 * hi
    );
    println!(
        "mean score diff A − B: {:+.2} ± {:.2} (se)",
        mean,
        (var / n).sqrt()
    );
    println!("ms per move: A {a_ms:.2}, B {b_ms:.2}");
}
