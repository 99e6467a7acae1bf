//! `carcassonne tune`: SPSA tuning of an agent's numeric parameters
//! ([`tournament::tune`]), its trace as a chart, and at the end an SPRT
//! of the tuned spec against the starting one (docs/tune.md).

use crate::cli::{parse_sprt, RulesArgs};
use clap::Args as ClapArgs;
use files::error::{Error, Result};
use files::stdio::{warn, Stdout};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tournament::improve::steps::{step_settings, tournament_step, Hints, MatchElo, StepOptions};
use tournament::results::schema::SprtSettings;
use tournament::tune::gains::Gains;
use tournament::tune::space::ParamRange;
use tournament::tune::trace::Row;
use tournament::tune::{
    read_info, TuneConfig, TuneFolder, TuneReport, TuneSettings, TuneStatus, TuneWatch,
};

/// Iterations when `--iterations` is not given.
pub const DEFAULT_ITERATIONS: u64 = 100;
/// Games per side per iteration when `--games` is not given (two pairs).
pub const DEFAULT_GAMES: u64 = 4;
/// The final SPRT's hypotheses when `--sprt` is not given.
pub const DEFAULT_SPRT: (f64, f64) = (0.0, 10.0);
/// Most games of the final SPRT when `--sprt-games` is not given.
pub const DEFAULT_SPRT_GAMES: u64 = 1000;
/// The folder of the final SPRT inside the tuning folder.
pub const SPRT_FOLDER: &str = "sprt";
/// The chart of the trace.
pub const TUNING_SVG: &str = "tuning.svg";

/// Options of `carcassonne tune`.
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct TuneArgs {
    /// The agent spec to tune, e.g. `mcts:iterations=500`; its other
    /// parameters stay as given, a tuned one starts at the spec's value
    /// (else its default, else the middle of its range).
    #[arg(value_name = "SPEC")]
    pub spec: Option<String>,
    /// A parameter to tune and its range, e.g. `c=0.2..2` (repeat for
    /// more). Inside the range the agent declares; integers are played
    /// rounded; choices are refused.
    #[arg(long = "param", value_name = "NAME=LO..HI", value_parser = parse_param)]
    pub params: Vec<ParamRange>,
    /// Play θ+ and θ− each against this agent on the same decks, instead
    /// of against each other (the default, as fishtest).
    #[arg(long, value_name = "SPEC")]
    pub against: Option<String>,
    /// SPSA iterations (default: 100).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Games per side per iteration, rounded up to pairs on one deck with
    /// the seats swapped (default: 4).
    #[arg(long)]
    pub games: Option<u64>,
    /// Master seed: every perturbation, deck and agent seed derives from
    /// it (default: 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores). Does not change the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The folder of the run (default: results/TIME-tune/); must not
    /// exist or be empty.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the tuning run in this folder (only --threads may be
    /// given with it).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// The rules of every game: --gifts, --no-farmers, --rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Step size numerator a of a_k = a / (A + k + 1)^alpha, in units of
    /// each parameter's range (default: 0.2·c·(A + 1)^alpha, so a first
    /// iteration won in every game moves θ by a tenth of the range).
    #[arg(long, help_heading = "SPSA gains")]
    pub a: Option<f64>,
    /// Stability constant A (default: 10% of the iterations).
    #[arg(long, help_heading = "SPSA gains")]
    pub big_a: Option<f64>,
    /// Step size decay alpha (default: 0.602).
    #[arg(long, help_heading = "SPSA gains")]
    pub alpha: Option<f64>,
    /// Perturbation c of c_k = c / (k + 1)^gamma, a share of each
    /// parameter's range (default: 0.1).
    #[arg(long, help_heading = "SPSA gains")]
    pub c: Option<f64>,
    /// Perturbation decay gamma (default: 0.101).
    #[arg(long, help_heading = "SPSA gains")]
    pub gamma: Option<f64>,
    /// The final check: SPRT of the tuned spec against the starting spec,
    /// H0 elo ≤ ELO0 against H1 elo ≥ ELO1 (default: 0,10).
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_sprt, help_heading = "The final SPRT")]
    pub sprt: Option<SprtSettings>,
    /// Most games of the final SPRT (default: 1000).
    #[arg(long, help_heading = "The final SPRT")]
    pub sprt_games: Option<u64>,
    /// No final SPRT.
    #[arg(long, conflicts_with_all = ["sprt", "sprt_games"], help_heading = "The final SPRT")]
    pub no_sprt: bool,
    /// Test hook: stop after writing this many iterations, as if killed.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// Parse `--param NAME=LO..HI`.
pub fn parse_param(text: &str) -> std::result::Result<ParamRange, String> {
    text.parse()
}

/// The settings of `args` (a new run).
fn settings(args: &TuneArgs) -> Result<TuneSettings> {
    let spec = args
        .spec
        .clone()
        .ok_or_else(|| Error::Invalid("give the SPEC to tune (or --resume DIR)".to_string()))?;
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
    let mut gains = Gains::new(iterations, None, args.big_a, args.c);
    if let Some(alpha) = args.alpha {
        gains.alpha = alpha;
    }
    if let Some(gamma) = args.gamma {
        gains.gamma = gamma;
    }
    gains.a = args
        .a
        .unwrap_or_else(|| Gains::default_a(gains.c, gains.big_a, gains.alpha));
    let sprt = (!args.no_sprt).then(|| {
        args.sprt.unwrap_or(SprtSettings {
            elo0: DEFAULT_SPRT.0,
            elo1: DEFAULT_SPRT.1,
            alpha: tournament::run::config::SPRT_ALPHA,
            beta: tournament::run::config::SPRT_BETA,
        })
    });
    Ok(TuneSettings {
        spec: spec.trim().to_string(),
        params: args.params.clone(),
        against: args.against.clone(),
        iterations,
        games: args.games.unwrap_or(DEFAULT_GAMES),
        seed: args.seed.unwrap_or(tournament::run::config::DEFAULT_SEED),
        rules: args.rules.rules()?,
        gains,
        sprt,
        sprt_games: args.sprt_games.unwrap_or(DEFAULT_SPRT_GAMES),
    })
}

/// Check `args` into a run.
fn config(args: &TuneArgs) -> Result<TuneConfig> {
    let threads = tournament::run::config::worker_threads(args.threads)
        .map_err(|why| Error::Invalid(format!("--threads {why}")))?;
    // No sandboxed bot (`--against ext:sandbox=true,…`) is ever given the
    // folder, checked when its spec is, as `tournament` does.
    for dir in [args.resume.as_deref(), args.out.as_deref()]
        .into_iter()
        .flatten()
    {
        protocol::external::sandbox::protect(dir);
    }
    if args.out.is_none() && args.resume.is_none() {
        protocol::external::sandbox::protect(
            tournament::run::config::DEFAULT_RESULTS_ROOT.as_ref(),
        );
    }
    let mut config = match &args.resume {
        Some(dir) => {
            let others = args.spec.is_some()
                || !args.params.is_empty()
                || args.against.is_some()
                || args.iterations.is_some()
                || args.games.is_some()
                || args.seed.is_some()
                || args.out.is_some()
                || args.rules.any()
                || args.a.is_some()
                || args.big_a.is_some()
                || args.alpha.is_some()
                || args.c.is_some()
                || args.gamma.is_some()
                || args.sprt.is_some()
                || args.sprt_games.is_some()
                || args.no_sprt;
            if others {
                return Err(Error::Invalid(
                    "--resume takes every setting from the folder's tune.json; only --threads may be added"
                        .to_string(),
                ));
            }
            let info = read_info(dir)?;
            TuneConfig::new(info.settings, TuneFolder::Resume(dir.clone()), threads)
                .map_err(|e| Error::Folder(format!("{}: tune.json: {e}", dir.display())))?
        }
        None => {
            let settings = settings(args)?;
            let dir = match &args.out {
                Some(out) => out.clone(),
                None => Path::new(tournament::run::config::DEFAULT_RESULTS_ROOT).join(format!(
                    "{}-tune",
                    tournament::results::meta::compact(std::time::SystemTime::now())
                )),
            };
            TuneConfig::new(settings, TuneFolder::New(dir), threads)?
        }
    };
    config.stop_after = args.stop_after;
    Ok(config)
}

/// A line on stderr at most every 10 s, and after the last iteration.
struct Progress {
    started: Instant,
    last: std::cell::Cell<Instant>,
    names: Vec<String>,
}

impl TuneWatch for Progress {
    fn iteration(&self, row: &Row, total: u64) {
        let done = row.iteration + 1;
        if self.last.get().elapsed() < Duration::from_secs(10) && done < total {
            return;
        }
        self.last.set(Instant::now());
        let theta: Vec<String> = self
            .names
            .iter()
            .zip(&row.theta)
            .map(|(n, t)| format!("{n}={t:.4}"))
            .collect();
        warn(&format!(
            "carcassonne: tune iteration {done}/{total} after {:.0} s: played about θ {}, result {:+.3}",
            self.started.elapsed().as_secs_f64(),
            theta.join(" "),
            row.result
        ));
    }
}

/// Tune, draw the trace, then run the final SPRT.
pub fn run(args: &TuneArgs, out: &mut Stdout) -> Result<ExitCode> {
    let config = config(args)?;
    let last = config.settings.iterations - 1;
    for d in &config.space.dims {
        // θ+ and θ− are 2·c_k·(HI − LO) apart; below 1 they may round to
        // the same integer.
        let apart = 2.0 * config.settings.gains.c_k(last) * (d.hi - d.lo);
        if d.integer && apart < 1.0 {
            warn(&format!(
                "carcassonne: note: {} is an integer and θ+, θ− are only {apart:.2} apart by the last iteration: they may round to the same value (widen the range or raise --c)",
                d.name
            ));
        }
    }
    if config.settings.games_played() != config.settings.games {
        warn(&format!(
            "carcassonne: note: --games {} rounded up to {} per side (whole pairs)",
            config.settings.games,
            config.settings.games_played()
        ));
    }
    tournament::run::interrupt::install()?;
    let progress = Progress {
        started: Instant::now(),
        last: std::cell::Cell::new(Instant::now()),
        names: config.space.dims.iter().map(|d| d.name.clone()).collect(),
    };
    let report = tournament::tune::run(&config, tournament::run::interrupt::flag(), &progress)?;
    if report.hook_stopped {
        return Ok(ExitCode::SUCCESS);
    }
    write_chart(&config, &report)?;
    out.print(&summary(&config, &report))?;
    if report.info.status == TuneStatus::Interrupted {
        out.print(&format!(
            "continue it with: {} tune --resume {}\n",
            tournament::results::meta::program(),
            report.dir.display()
        ))?;
        return Ok(ExitCode::from(tournament::run::interrupt::EXIT_CODE));
    }
    final_sprt(&config, &report, out)?;
    Ok(ExitCode::SUCCESS)
}

/// `tuning.svg`: each parameter's θ and the values played.
fn write_chart(config: &TuneConfig, report: &TuneReport) -> Result<()> {
    let traces: Vec<pictures::report::charts::ParamTrace> = config
        .space
        .dims
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut theta: Vec<f64> = report.rows.iter().map(|r| r.theta[i]).collect();
            theta.extend(report.info.tuned_theta.as_ref().map(|t| t[i]));
            pictures::report::charts::ParamTrace {
                name: d.name.clone(),
                lo: d.lo,
                hi: d.hi,
                theta,
                plus: report.rows.iter().map(|r| r.plus[i]).collect(),
                minus: report.rows.iter().map(|r| r.minus[i]).collect(),
            }
        })
        .collect();
    let svg = pictures::report::charts::tuning(&traces)?;
    files::atomic::write_atomic(&report.dir.join(TUNING_SVG), svg.as_bytes())
}

/// What the run found, in lines.
fn summary(config: &TuneConfig, report: &TuneReport) -> String {
    let info = &report.info;
    let mut text = format!(
        "{} of {} iterations ({} games per side each), status {}; results in {}\n",
        info.iterations_done,
        config.settings.iterations,
        config.settings.games_played(),
        match info.status {
            TuneStatus::Running => "running",
            TuneStatus::Interrupted => "interrupted",
            TuneStatus::Finished => "finished",
        },
        report.dir.display()
    );
    if let Some(theta) = &info.tuned_theta {
        for (d, t) in config.space.dims.iter().zip(theta) {
            text.push_str(&format!(
                "  {}: {} -> {} (range {}..{})\n",
                d.name,
                tournament::tune::space::write_value(d.start),
                round6(*t),
                d.lo,
                d.hi
            ));
        }
    }
    text.push_str(&format!("start spec: {}\n", info.start_spec));
    if let Some(tuned) = &info.tuned_spec {
        text.push_str(&format!("tuned spec: {tuned}\n"));
    }
    text
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The SPRT of the tuned spec against the starting one, in `DIR/sprt`
/// (a tournament folder: resumed after a kill, reused once finished).
fn final_sprt(config: &TuneConfig, report: &TuneReport, out: &mut Stdout) -> Result<()> {
    let settings = &config.settings;
    let (Some(sprt), Some(tuned)) = (settings.sprt, report.info.tuned_spec.as_ref()) else {
        return Ok(());
    };
    let start = &report.info.start_spec;
    if tuned == start {
        out.print("no SPRT: the tuned spec is the starting spec\n")?;
        return Ok(());
    }
    let dir = report.dir.join(SPRT_FOLDER);
    let step = tournament::Settings {
        sprt: Some(sprt),
        ..step_settings(
            tournament::run::config::DEFAULT_NAME,
            vec![tuned.clone(), start.clone()],
            2,
            settings.sprt_games,
            // Decks of their own, not the tuning's.
            tournament::seeds::mix(settings.seed, 0x5350_5254, &[]),
            settings.rules,
        )
    };
    let options = StepOptions {
        threads: Some(config.threads),
        stop_after: None,
    };
    let program = tournament::results::meta::program();
    let hints = Hints {
        interrupted: format!(
            "continue with: {program} tune --resume {}",
            report.dir.display()
        ),
        other_run: format!("remove {} to play the check again", dir.display()),
    };
    let info = tournament_step(&dir, step, options, &hints, &crate::improve::Cli)?;
    let Some(result) = info.sprt else {
        return Err(Error::Internal("the final match has no SPRT".to_string()));
    };
    let elo = MatchElo::of(&result);
    out.print(&format!(
        "SPRT {},{} of the tuned spec against the start: {} after {} games (LLR {:.3}, bounds [{:.3}, {:.3}], W/D/L {}/{}/{}), Elo {:+.1} [{:+.1}, {:+.1}]; in {}\n",
        sprt.elo0,
        sprt.elo1,
        result.decision,
        result.games,
        result.llr,
        result.lower,
        result.upper,
        result.wins,
        result.draws,
        result.losses,
        // + 0.0: a −0.0 prints as +0.0.
        elo.elo + 0.0,
        elo.low + 0.0,
        elo.high + 0.0,
        dir.display()
    ))
}
