//! `carcassonne analyze DIR…`: what the games of results folders say about
//! the game itself — each seat's advantage, the deck's share of the
//! points and of the margins, game length, points by category — printed,
//! and with `--out` written as CSV files and a page of charts
//! (`analyze.html`). The work is [`tournament::metrics`]'s and
//! [`pictures::analysis`]'s; this module only wires the command line.

use clap::Args as ClapArgs;
use files::error::Result;
use files::stdio::Stdout;
use pictures::analysis::{Analysis, ANALYZE_HTML};
use std::path::PathBuf;
use tournament::metrics::{self, AgentRow, DeckRow, LengthRow, SeatRow};

/// The options of `carcassonne analyze`.
#[derive(Debug, Clone, ClapArgs)]
pub struct AnalyzeRunsArgs {
    /// Results folders (tournaments, self-play runs, SPRT runs, merged
    /// shards); grouped by player count and rules, never pooled across
    /// them.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Write seats.csv, decks.csv, length.csv, agents.csv and
    /// analyze.html (their charts) here (a new or empty folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The seed of the decks' bootstrap (default 1).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// Run `carcassonne analyze`.
///
/// # Errors
/// As [`metrics::load`] says, a chart that cannot be drawn, or a folder
/// that cannot be written; one line each.
pub fn run(args: &AnalyzeRunsArgs, out: &mut Stdout) -> Result<()> {
    if let Some(dir) = &args.out {
        tournament::run::config::check_new_folder(dir, "--out")?;
    }
    let groups = metrics::load(&args.dirs)?;
    let (mut seats, mut decks, mut lengths, mut agents) = (vec![], vec![], vec![], vec![]);
    for group in &groups {
        seats.extend(metrics::seats(group));
        decks.extend(metrics::decks(group, args.seed));
        lengths.push(metrics::length(group));
        agents.extend(metrics::agents(group));
    }
    out.print(&text(&seats, &decks, &lengths, &agents))?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| files::error::Error::io("create", dir, e))?;
        metrics::write_csv(dir, "seats.csv", &seats)?;
        metrics::write_csv(dir, "decks.csv", &decks)?;
        metrics::write_csv(dir, "length.csv", &lengths)?;
        metrics::write_csv(dir, "agents.csv", &agents)?;
        let analysis = Analysis {
            seats,
            decks,
            lengths,
            agents,
            folders: args.dirs.clone(),
            seed: args.seed,
        };
        let html = pictures::analysis::page(&analysis)?;
        files::atomic::write_atomic(&dir.join(ANALYZE_HTML), html.as_bytes())?;
        out.print(&format!("wrote {}\n", dir.display()))?;
    }
    Ok(())
}

/// The tables as printed.
fn text(
    seats: &[SeatRow],
    decks: &[DeckRow],
    lengths: &[LengthRow],
    agents: &[AgentRow],
) -> String {
    let mut s = String::new();
    for length in lengths {
        let (players, rules) = (length.players, &length.rules);
        s.push_str(&format!(
            "{players} players, {rules} rules: {} games ({} left out: a seat forfeited), {:.1} turns (sd {:.1}, {}–{})\n",
            length.games, length.forfeited, length.turns_mean, length.turns_sd, length.turns_min, length.turns_max
        ));
        s.push_str(
            "  seat  win share  [95% interval]    fair   mean score  margin over the table\n",
        );
        for r in seats
            .iter()
            .filter(|r| r.players == players && r.rules == *rules)
        {
            s.push_str(&format!(
                "  {:>4}  {:>8.1}%  [{:>5.1}, {:>5.1}]   {:>5.1}%  {:>10.1}  {:>+8.2} ± {:.2}\n",
                r.seat,
                100.0 * r.win_share,
                100.0 * r.win_share_low,
                100.0 * r.win_share_high,
                100.0 * r.fair_share,
                r.mean_score,
                r.mean_margin,
                r.mean_margin_se
            ));
        }
        for r in decks
            .iter()
            .filter(|r| r.players == players && r.rules == *rules)
        {
            let share = match (r.share, r.share_low, r.share_high) {
                (Some(x), Some(lo), Some(hi)) => {
                    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * x, 100.0 * lo, 100.0 * hi)
                }
                (Some(x), _, _) => format!("{:.1}%", 100.0 * x),
                _ => "not measurable (no deck played twice)".to_string(),
            };
            let what = r.what();
            s.push_str(&format!(
                "  the deck's share of the variance of {what}: {share} ({} groups, {} values)\n",
                r.groups, r.values
            ));
        }
        s.push_str(
            "  agent: seats, mean points (road city monastery farm gifts), meeples placed\n",
        );
        for r in agents
            .iter()
            .filter(|r| r.players == players && r.rules == *rules)
        {
            s.push_str(&format!(
                "  {}: {}, {:.1} ({:.1} {:.1} {:.1} {:.1} {:.1}), {:.1}\n",
                r.agent,
                r.seats,
                r.score,
                r.road,
                r.city,
                r.monastery,
                r.farm,
                r.gifts,
                r.meeples_placed
            ));
        }
    }
    s
}
