//! The network's improvement loop (`carcassonne improve --net`):
//! generations of the `az` network, each self-played, trained and
//! promoted only by an SPRT match (or, with `--no-gate`, promoted
//! without one).
//!
//! A run folder `DIR` holds `improve-net.json` (its settings), one folder
//! per generation and `generations.csv` (a row per finished generation,
//! results/README.md and docs/neural.md name the columns); the command
//! line adds `report.html`, its Elo against generation 0
//! ([`crate::improve::Hooks::generations_written`]).
//!
//! - `gen-0/net.safetensors`: random weights (seeded) or the `--init`
//!   network, either trained on `--bootstrap` folders of self-play
//!   examples if given (any agent whose search reports root visits:
//!   `az`, `mcts`).
//! - Generation `k` (1, 2, …), with `best` the latest promoted network:
//!   1. `gen-k/selfplay/`: `--games-per-gen` games of `az:…,net=best` with
//!      root noise and early temperature (the self-play code of
//!      `carcassonne selfplay`; seed `mix(seed, "IMPN", [k])`). A folder
//!      already there is used if it holds a finished self-play run of
//!      exactly these settings: `merge` of `--shard K/N` runs
//!      (`--selfplay-command` prints the command) scales this step out.
//!   2. `gen-k/net.safetensors`: `best` trained further on the examples
//!      of the last `--window` generations (generation 0's data are the
//!      bootstrap folders), seeded, with `train-net`'s code.
//!   3. `gen-k/match/`: the candidate against `best`, paired decks and
//!      seat rotation, stopped by the SPRT (`--sprt`, default 0,30) or
//!      after `--match-games`. The candidate is promoted only if the test
//!      accepts H1. Without the gate ([`NetSettings::gate`] false) no
//!      match is played and every candidate is promoted.
//!   4. `gen-k/gauntlet/anchor-I/`: the candidate, promoted or not,
//!      against each fixed anchor (`--anchors`) and, after generation
//!      `--anchor-generation`, that generation of the run,
//!      `--gauntlet-games` on the same decks for every generation
//!      ([`gauntlet`]; generation 0 plays it too): `gauntlet.csv` holds
//!      the direct scores.
//!   5. With shard pruning (the default; `--keep-shards` keeps them),
//!      the example shards of generations no later window reads are
//!      removed (`gen-j/selfplay/examples/`; the games stay).
//!
//! Every step writes its output atomically (a network file is renamed
//! into place; a tournament folder resumes game by game), and a run is
//! continued by `--resume DIR`: finished steps are read back, not redone,
//! so `generations.csv` is the one an uninterrupted run writes (but for
//! the time columns). The folder is locked ([`crate::run::lock`]) while the
//! run lasts. The run works in its folder, and its agent specs name its
//! networks relative to it (`net=gen-K/net.safetensors`;
//! [`NetSettings::movable`]): a run moved elsewhere, or resumed from any
//! working directory, continues where it is.

pub mod gauntlet;
mod report;
mod settings;
mod times;
mod training;

pub use report::{is_run, read_generations, NetGenerationRow, REPORT_HTML};
pub use settings::{
    default_anchors, NetOptions, NetSettings, Recipe, DEFAULT_HIDDEN, OTHER_RULES_ANCHOR,
};

use super::steps::{finished, r1, r4, tournament_step, Chain, Hints, MatchElo, StepOptions};
use super::Hooks;
use crate::learning::train_net::fit;
use crate::results::output::read_run_info;
use crate::results::schema::Settings;
use crate::seeds::mix;
use crate::stats::SprtDecision;
use agents::neural::NetEvaluator;
use engine::Rules;
use files::error::{Error, Result};
use report::write_generations;
use settings::invalid;
use std::path::{Path, PathBuf};
use times::{read_times, timed};
use training::{count_examples, fact, initial, save, training_facts};

/// Domain tag of the generation seeds ("IMPN").
const TAG: u64 = 0x494D_504E;
/// Domain tag of the gauntlet's decks ("GAUN"), under [`TAG`].
const GAUNTLET: u64 = 0x4741_554E;
/// The settings file of a run.
pub const SETTINGS_FILE: &str = "improve-net.json";
/// The format tag in it.
pub const FORMAT: &str = "carcassonne-improve-net/1";
/// One row per finished generation.
pub const GENERATIONS_CSV: &str = "generations.csv";
/// A generation's network.
pub const NET_FILE: &str = "net.safetensors";
/// A generation's step times.
pub const TIME_FILE: &str = "time.json";
/// Prefix of the metadata keys this module keeps in a network file.
const META: &str = "improve.";

/// `DIR/gen-K`.
pub fn gen_dir(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("gen-{k}"))
}

/// `DIR/gen-K/net.safetensors`.
pub fn net_path(dir: &Path, k: u64) -> PathBuf {
    gen_dir(dir, k).join(NET_FILE)
}

/// What a run does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Run every step that is not finished.
    Run,
    /// Run nothing: print the self-play command of the next generation.
    Plan,
}

/// Run (or continue) the generations of `args`, writing
/// `generations.csv` after each (and telling `hooks`, which play the
/// tournaments); with `selfplay_command`, write the next generation's
/// self-play command to `out` instead and run nothing.
///
/// A movable run ([`NetSettings::movable`], every new one) makes its
/// folder the process's working directory for the rest of the process.
///
/// # Errors
/// Bad options, a failed or interrupted step (its message).
pub fn improve_net(
    args: &NetOptions,
    hooks: &dyn Hooks,
    out: &mut dyn std::io::Write,
) -> Result<Vec<NetGenerationRow>> {
    let (settings, dir, _lock) = NetSettings::from_options(args)?;
    if settings.movable {
        // The specs name the run's networks relative to its folder.
        std::env::set_current_dir(&dir).map_err(|e| Error::io("enter", &dir, e))?;
    }
    let mode = if args.selfplay_command {
        Mode::Plan
    } else {
        Mode::Run
    };
    let steps = StepOptions {
        threads: args.base.threads,
        stop_after: args.stop_after,
    };
    let step_time = |k: u64| {
        read_times(&gen_dir(&dir, k))
            .values()
            .fold([0.0, 0.0], |a, t| [a[0] + t[0], a[1] + t[1]])
            .map(|x| (x * 1000.0).round() / 1000.0)
    };
    let plan_error = |k: u64, what: &str| {
        invalid(format!(
            "generation {k}'s {what} is not finished: run `carcassonne improve --net --resume {} --generations {k}` first",
            dir.display()
        ))
    };

    // Generation 0 (made in either mode: planning a new run's first
    // self-play needs it).
    if !net_path(&dir, 0).exists() {
        timed(&gen_dir(&dir, 0), "init", || {
            initial(&settings, &dir, hooks)
        })?;
    }
    let net0 = NetEvaluator::load(&net_path(&dir, 0)).map_err(|e| Error::Folder(e.to_string()))?;
    let [cpu, wall] = step_time(0);
    let mut rows = vec![NetGenerationRow {
        generation: 0,
        games: 0,
        examples: fact(&net0, "examples").unwrap_or(0.0) as u64,
        train_examples: fact(&net0, "train_examples").unwrap_or(0.0) as u64,
        policy_loss: fact(&net0, "policy_loss").map(r4),
        value_loss: fact(&net0, "value_loss").map(r4),
        heldout_policy_loss: fact(&net0, "heldout_policy_loss").map(r4),
        heldout_value_loss: fact(&net0, "heldout_value_loss").map(r4),
        heldout_top1: fact(&net0, "heldout_top1").map(r4),
        match_games: 0,
        score: None,
        sprt: String::new(),
        llr: None,
        elo: None,
        elo_low: None,
        elo_high: None,
        elo_vs_gen0: Some(0.0),
        elo_vs_gen0_low: Some(0.0),
        elo_vs_gen0_high: Some(0.0),
        rating: None,
        rating_low: None,
        rating_high: None,
        promoted: true,
        best: 0,
        cpu_s: cpu,
        wall_s: wall,
    }];
    drop(net0);
    let hints = Hints {
        interrupted: format!(
            "continue with `carcassonne improve --net --resume {}`",
            dir.display()
        ),
        other_run: format!(
            "remove it, or make it with `carcassonne improve --net --resume {} --selfplay-command`",
            dir.display()
        ),
    };
    let mut gauntlet_rows = Vec::new();
    if mode == Mode::Run {
        gauntlet_rows.extend(timed(&gen_dir(&dir, 0), "gauntlet", || {
            gauntlet::play(&settings, &dir, 0, steps, &hints, hooks)
        })?);
        // Generation 0's time includes its gauntlet, as a resumed run
        // reads it back.
        [rows[0].cpu_s, rows[0].wall_s] = step_time(0);
        rate(&settings, &dir, 0, &mut rows)?;
        write_generations(&dir, &rows, hooks)?;
        gauntlet::write(&dir, &gauntlet_rows)?;
    }
    let mut best = 0u64;
    // The best network's Elo against generation 0 and its standard error.
    let mut best_chain = Chain::default();
    for k in 1..=settings.generations {
        if crate::run::interrupt::requested() {
            return Err(invalid(format!(
                "interrupted; continue with `carcassonne improve --net --resume {}`",
                dir.display()
            )));
        }
        let gen_folder = gen_dir(&dir, k);
        let best_net = net_path(&dir, best);
        let candidate = net_path(&dir, k);
        let selfplay = gen_folder.join("selfplay");
        let selfplay_args = settings.selfplay_args(k, &settings.spec_net(&dir, best));
        if mode == Mode::Plan {
            if finished(&selfplay, &selfplay_args).is_none() {
                // The shards are played from anywhere: the network by
                // its absolute path.
                let printed = settings.selfplay_args(k, &best_net);
                print_selfplay_command(out, &settings, &printed, &selfplay, k)?;
                return Ok(rows);
            }
            if !candidate.exists() {
                return Err(plan_error(k, "training"));
            }
        }
        if mode == Mode::Run {
            timed(&gen_folder, "selfplay", || {
                tournament_step(&selfplay, selfplay_args, steps, &hints, hooks)
            })?;
        }
        if !candidate.exists() {
            if mode == Mode::Plan {
                return Err(plan_error(k, "training"));
            }
            timed(&gen_folder, "train", || {
                let data = settings.window_data(&dir, k);
                let examples = count_examples(&selfplay)?;
                let config = settings.train_config(
                    &data,
                    Some(best_net.clone()),
                    mix(settings.seed, TAG, &[k, 2]),
                );
                let mut log = Vec::new();
                let mut fitted = fit(&config, &mut log)?;
                hooks.warn(&format!(
                    "generation {k}: trained on {} examples of generations {}..={k}",
                    fitted.positions,
                    (k + 1).saturating_sub(settings.window)
                ));
                let facts = training_facts(examples, &fitted);
                save(&mut fitted.net, &candidate, &facts)
            })?;
        }
        if mode == Mode::Run && settings.prune_shards {
            for j in settings.shards_done_with(k) {
                prune_shards(&gen_dir(&dir, j).join("selfplay"))?;
            }
        }
        let trained = NetEvaluator::load(&candidate).map_err(|e| Error::Folder(e.to_string()))?;
        let games = read_run_info(&selfplay)?.games_finished;
        let gate = if settings.gate {
            let match_dir = gen_folder.join("match");
            let match_args = settings.match_args(
                &settings.spec_net(&dir, k),
                &settings.spec_net(&dir, best),
                k,
            )?;
            let info = match mode {
                Mode::Plan => {
                    finished(&match_dir, &match_args).ok_or_else(|| plan_error(k, "match"))?
                }
                Mode::Run => timed(&gen_folder, "match", || {
                    tournament_step(&match_dir, match_args, steps, &hints, hooks)
                })?,
            };
            let sprt = info
                .sprt
                .ok_or_else(|| Error::Folder(format!("{}: no SPRT result", match_dir.display())))?;
            Some((MatchElo::of(&sprt), sprt))
        } else {
            None
        };
        // Ungated, every candidate is promoted and no Elo is chained.
        let promoted = gate
            .as_ref()
            .is_none_or(|(_, sprt)| sprt.decision == SprtDecision::AcceptH1);
        let chain = gate.as_ref().map(|(m, _)| best_chain.then(m));
        if promoted {
            best = k;
            if let Some(chain) = chain {
                best_chain = chain;
            }
        }
        if mode == Mode::Run {
            gauntlet_rows.extend(timed(&gen_folder, "gauntlet", || {
                gauntlet::play(&settings, &dir, k, steps, &hints, hooks)
            })?);
        }
        let [cpu, wall] = step_time(k);
        rows.push(NetGenerationRow {
            generation: k,
            games,
            examples: fact(&trained, "examples").unwrap_or(0.0) as u64,
            train_examples: fact(&trained, "train_examples").unwrap_or(0.0) as u64,
            policy_loss: fact(&trained, "policy_loss").map(r4),
            value_loss: fact(&trained, "value_loss").map(r4),
            heldout_policy_loss: fact(&trained, "heldout_policy_loss").map(r4),
            heldout_value_loss: fact(&trained, "heldout_value_loss").map(r4),
            heldout_top1: fact(&trained, "heldout_top1").map(r4),
            match_games: gate.as_ref().map_or(0, |(_, sprt)| sprt.games),
            score: gate.as_ref().map(|(m, _)| r4(m.score)),
            sprt: gate.as_ref().map_or_else(
                || "ungated".to_string(),
                |(_, sprt)| sprt.decision.to_string(),
            ),
            llr: gate.as_ref().map(|(_, sprt)| r4(sprt.llr)),
            elo: gate.as_ref().map(|(m, _)| r1(m.elo)),
            elo_low: gate.as_ref().map(|(m, _)| r1(m.low)),
            elo_high: gate.as_ref().map(|(m, _)| r1(m.high)),
            elo_vs_gen0: chain.map(|c| r1(c.elo)),
            elo_vs_gen0_low: chain.map(|c| r1(c.low())),
            elo_vs_gen0_high: chain.map(|c| r1(c.high())),
            rating: None,
            rating_low: None,
            rating_high: None,
            promoted,
            best,
            cpu_s: cpu,
            wall_s: wall,
        });
        if mode == Mode::Run {
            rate(&settings, &dir, k, &mut rows)?;
            write_generations(&dir, &rows, hooks)?;
            gauntlet::write(&dir, &gauntlet_rows)?;
        }
    }
    if mode == Mode::Plan {
        return Err(invalid(format!(
            "all {} generations are finished; raise --generations to plan the next",
            settings.generations
        )));
    }
    Ok(rows)
}

/// Put every generation of `rows` (up to `k`) on the joint ladder of the
/// games played so far ([`gauntlet::joint_ladder`]).
fn rate(settings: &NetSettings, dir: &Path, k: u64, rows: &mut [NetGenerationRow]) -> Result<()> {
    let Some(ladder) = gauntlet::joint_ladder(settings, dir, k)? else {
        return Ok(());
    };
    for row in rows {
        let rated = ladder.get(&settings.match_agent(&settings.spec_net(dir, row.generation)));
        row.rating = rated.and_then(|r| r.rating).map(r1);
        row.rating_low = rated.and_then(|r| r.low).map(r1);
        row.rating_high = rated.and_then(|r| r.high).map(r1);
    }
    Ok(())
}

/// Remove the example shards of a self-play folder (its games, records
/// and run.json stay, so the step still reads as finished), leaving a
/// note saying why.
fn prune_shards(selfplay: &Path) -> Result<()> {
    let examples = selfplay.join(crate::learning::examples::EXAMPLES_DIR);
    if !examples.is_dir() {
        return Ok(());
    }
    std::fs::remove_dir_all(&examples).map_err(|e| Error::io("remove", &examples, e))?;
    let note = selfplay.join(PRUNED_NOTE);
    crate::results::output::write_atomic(
        &note,
        b"The example shards of this generation were removed: no later training window reads them (improve --net without --keep-shards).\n",
    )
}

/// The note left where example shards were pruned.
pub const PRUNED_NOTE: &str = "examples-pruned.txt";

/// Print the `carcassonne selfplay` command of generation `k` (to be
/// sharded with `--shard K/N`, merged into `into`).
fn print_selfplay_command(
    out: &mut dyn std::io::Write,
    settings: &NetSettings,
    step: &Settings,
    into: &Path,
    k: u64,
) -> Result<()> {
    let rules = settings.rules.to_string();
    let rules = if rules.is_empty() || settings.rules == Rules::default() {
        String::new()
    } else {
        format!(" --rules {rules}")
    };
    let text = format!(
        "# generation {k}: play the shards (add --shard K/N --out SHARD_DIR), then\n\
         # carcassonne merge SHARD_DIR... --out {}\n\
         {} selfplay --agent {} --games {} --players {} --seed {}{rules}\n",
        into.display(),
        crate::results::meta::program(),
        step.agents[0],
        settings.games_per_gen,
        settings.players,
        step.seed,
    );
    out.write_all(text.as_bytes())
        .map_err(|e| Error::Internal(e.to_string()))
}
