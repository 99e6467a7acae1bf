//! From the rows of `games.csv` to `summary.csv`, `pairwise.csv`, the
//! progress leader and the table printed at the end.
//!
//! Everything here reads only the rows (never timing), so the summaries
//! can be recomputed from `games.csv` and are identical for a run, its
//! resumption and its merged shards.
//!
//! - A seat's result is a win when it alone has the best score, a draw
//!   when it shares the best score, otherwise a loss; a forfeiting seat
//!   loses and is ranked last, the others are ranked by score (ties share
//!   a rank: 1, 1, 3).
//! - Pairwise, every two seats of a game held by different agents are one
//!   comparison: the better-ranked seat wins it, equal ranks draw.
//! - Win rates count a draw as half a win (Wilson 95% intervals); Elo is
//!   the Bradley–Terry fit of all comparisons ([`stats::fit_elo`]).

use crate::results::schema::{GameRow, Outcome, PairwiseRow, SummaryRow};
use crate::stats::{self, bounded_mean_interval, fit_elo, mean_se, wilson_interval, Z95};
use std::fmt::Write as _;

/// Rank and result of every seat, from the totals and the forfeiting seat.
pub fn rank_seats(scores: &[u32], forfeit: Option<usize>) -> Vec<(usize, Outcome)> {
    let n = scores.len();
    let alive = |j: usize| Some(j) != forfeit;
    let ranks: Vec<usize> = (0..n)
        .map(|i| {
            if !alive(i) {
                n
            } else {
                1 + (0..n)
                    .filter(|&j| alive(j) && scores[j] > scores[i])
                    .count()
            }
        })
        .collect();
    let firsts = ranks.iter().filter(|&&r| r == 1).count();
    ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let outcome = if !alive(i) || r != 1 {
                Outcome::Loss
            } else if firsts == 1 {
                Outcome::Win
            } else {
                Outcome::Draw
            };
            (r, outcome)
        })
        .collect()
}

/// One comparison of two seats of a game (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Agent index of the first seat.
    pub a: usize,
    /// Agent index of the second seat.
    pub b: usize,
    /// 1, 0.5 or 0 for the first seat.
    pub score_a: f64,
    /// First seat's score minus the second's.
    pub diff: f64,
}

/// The comparisons of one game's rows (seats `i < j` with different agents).
pub fn comparisons(labels: &[String], game: &[GameRow]) -> Vec<Comparison> {
    let index = |row: &GameRow| agent_index(labels, &row.agent);
    let mut out = Vec::new();
    for (i, x) in game.iter().enumerate() {
        for y in &game[i + 1..] {
            let (a, b) = (index(x), index(y));
            if a == b {
                continue;
            }
            let score_a = match x.rank.cmp(&y.rank) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            out.push(Comparison {
                a,
                b,
                score_a,
                diff: f64::from(x.score) - f64::from(y.score),
            });
        }
    }
    out
}

/// The index of `label` in `labels` (rows are checked against the plan
/// when read, so a miss is a bug).
fn agent_index(labels: &[String], label: &str) -> usize {
    labels
        .iter()
        .position(|l| l == label)
        .unwrap_or_else(|| panic!("agent {label:?} is not in the tournament"))
}

/// Split rows into games (consecutive rows with the same game index).
pub fn games(rows: &[GameRow]) -> impl Iterator<Item = &[GameRow]> {
    rows.chunk_by(|x, y| x.game == y.game)
}

/// Wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Wdl {
    /// All of them.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    fn add_outcome(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    fn add_score(&mut self, s: f64) {
        if s > 0.75 {
            self.wins += 1;
        } else if s > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
}

/// Running counts while games arrive: the leader for the progress bar.
#[derive(Clone, Debug)]
pub struct Tally {
    labels: Vec<String>,
    per_agent: Vec<Wdl>,
    /// Games added.
    pub games: u64,
}

impl Tally {
    /// Nothing counted yet.
    pub fn new(labels: &[String]) -> Tally {
        Tally {
            labels: labels.to_vec(),
            per_agent: vec![Wdl::default(); labels.len()],
            games: 0,
        }
    }

    /// Count one game.
    pub fn add_game(&mut self, game: &[GameRow]) {
        for row in game {
            let i = agent_index(&self.labels, &row.agent);
            self.per_agent[i].add_outcome(row.result);
        }
        self.games += 1;
    }

    /// The agent with the best win rate so far, with that rate.
    pub fn leader(&self) -> Option<(&str, f64)> {
        self.per_agent
            .iter()
            .enumerate()
            .filter(|(_, w)| w.games() > 0)
            .map(|(i, w)| (i, w.points() / w.games() as f64))
            .fold(None, |best: Option<(usize, f64)>, (i, r)| match best {
                Some((_, b)) if b >= r => best,
                _ => Some((i, r)),
            })
            .map(|(i, r)| (self.labels[i].as_str(), r))
    }
}

/// Round to `digits` decimals (keeps the CSV files readable).
fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    let r = (x * f).round() / f;
    if r == 0.0 {
        0.0 // no "-0"
    } else {
        r
    }
}

/// `summary.csv` and `pairwise.csv` rows from all rows of `games.csv`.
pub fn summarize(labels: &[String], rows: &[GameRow]) -> (Vec<SummaryRow>, Vec<PairwiseRow>) {
    let k = labels.len();
    let mut wdl = vec![Wdl::default(); k];
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut pair_wdl = vec![Wdl::default(); k * k];
    let mut pair_diffs: Vec<Vec<f64>> = vec![Vec::new(); k * k];
    let mut fit_games = Vec::new();
    let mut decks = DeckScores::new(k);
    let mut forfeits = vec![0u64; k];
    // Think time and decisions of the rows that count decisions.
    let mut timed = vec![(0.0f64, 0u64); k];
    for game in games(rows) {
        decks.start_game(game);
        for row in game {
            let i = agent_index(labels, &row.agent);
            wdl[i].add_outcome(row.result);
            scores[i].push(f64::from(row.score));
            forfeits[i] += u64::from(!row.forfeit.is_empty());
            if let Some(d) = row.decisions {
                timed[i].0 += row.think_ms;
                timed[i].1 += u64::from(d);
            }
        }
        for c in comparisons(labels, game) {
            pair_wdl[c.a * k + c.b].add_score(c.score_a);
            pair_wdl[c.b * k + c.a].add_score(1.0 - c.score_a);
            pair_diffs[c.a * k + c.b].push(c.diff);
            pair_diffs[c.b * k + c.a].push(-c.diff);
            decks.add(&c);
            fit_games.push(stats::Game {
                a: c.a,
                b: c.b,
                score_a: c.score_a,
            });
        }
    }
    let pair_decks = decks.finish();
    let elo = fit_elo(k, &fit_games);
    let rate = |w: &Wdl| {
        let n = w.games() as f64;
        let (lo, hi) = wilson_interval(w.points(), n, Z95);
        let r = if n > 0.0 { w.points() / n } else { 0.0 };
        (round(r, 4), round(lo, 4), round(hi, 4))
    };
    let summary = (0..k)
        .map(|i| {
            let (win_rate, lo, hi) = rate(&wdl[i]);
            let s = mean_se(&scores[i]);
            SummaryRow {
                agent: labels[i].clone(),
                games: wdl[i].games(),
                wins: wdl[i].wins,
                draws: wdl[i].draws,
                losses: wdl[i].losses,
                win_rate,
                win_rate_ci_low: lo,
                win_rate_ci_high: hi,
                mean_score: round(s.mean, 3),
                mean_score_se: round(s.se, 3),
                elo: round(elo[i].elo, 1),
                elo_ci_low: round(elo[i].ci_low, 1),
                elo_ci_high: round(elo[i].ci_high, 1),
                forfeits: forfeits[i],
                ms_per_decision: (timed[i].1 > 0).then(|| round(timed[i].0 / timed[i].1 as f64, 3)),
            }
        })
        .collect();
    let mut pairwise = Vec::new();
    for a in 0..k {
        for b in 0..k {
            let w = &pair_wdl[a * k + b];
            if a == b || w.games() == 0 {
                continue;
            }
            let (win_rate, lo, hi) = rate(w);
            let d = mean_se(&pair_diffs[a * k + b]);
            let (paired_low, paired_high) = paired_interval(&pair_decks[a * k + b]);
            pairwise.push(PairwiseRow {
                agent: labels[a].clone(),
                opponent: labels[b].clone(),
                games: w.games(),
                wins: w.wins,
                draws: w.draws,
                losses: w.losses,
                win_rate,
                win_rate_ci_low: lo,
                win_rate_ci_high: hi,
                paired_ci_low: round(paired_low, 4),
                paired_ci_high: round(paired_high, 4),
                mean_score_diff: round(d.mean, 3),
                mean_score_diff_se: round(d.se, 3),
            });
        }
    }
    (summary, pairwise)
}

/// Per ordered pair of agents, the mean comparison score of each deck
/// (the games of one seat-rotation unit: for 2 players a pair of games
/// with the seats swapped).
struct DeckScores {
    k: usize,
    unit: Option<u64>,
    /// Score sum and comparisons of the current unit, per ordered pair.
    current: Vec<(f64, u32)>,
    /// Finished units' mean scores, per ordered pair.
    means: Vec<Vec<f64>>,
}

impl DeckScores {
    fn new(k: usize) -> DeckScores {
        DeckScores {
            k,
            unit: None,
            current: vec![(0.0, 0); k * k],
            means: vec![Vec::new(); k * k],
        }
    }

    /// Open the unit of `game` (closing the previous one if it differs).
    fn start_game(&mut self, game: &[GameRow]) {
        let unit = game[0].game / game.len() as u64;
        if self.unit != Some(unit) {
            self.close_unit();
            self.unit = Some(unit);
        }
    }

    fn add(&mut self, c: &Comparison) {
        let k = self.k;
        for (i, score) in [(c.a * k + c.b, c.score_a), (c.b * k + c.a, 1.0 - c.score_a)] {
            self.current[i].0 += score;
            self.current[i].1 += 1;
        }
    }

    fn close_unit(&mut self) {
        for (i, (sum, n)) in self.current.iter_mut().enumerate() {
            if *n > 0 {
                self.means[i].push(*sum / f64::from(*n));
            }
            (*sum, *n) = (0.0, 0);
        }
    }

    fn finish(mut self) -> Vec<Vec<f64>> {
        self.close_unit();
        self.means
    }
}

/// The 95% interval of a win rate from its per-deck mean scores
/// ([`stats::bounded_mean_interval`]: the pentanomial interval for 2
/// players, [`stats::pentanomial_interval`]); `(0, 1)` with fewer than 2
/// decks.
fn paired_interval(deck_means: &[f64]) -> (f64, f64) {
    let (_, low, high) = bounded_mean_interval(deck_means.iter().map(|&m| (m, 1.0)));
    (low, high)
}

/// The kind of a forfeit: its reason up to the first `:` (`timeout`,
/// `exited`, `panicked`, … as docs/PROTOCOL.md's table names them).
pub fn forfeit_kind(reason: &str) -> &str {
    reason.split(':').next().unwrap_or(reason).trim()
}

/// The forfeits of one agent, by kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentForfeits {
    /// Agent label.
    pub agent: String,
    /// Seats it played.
    pub seats: u64,
    /// Seats it forfeited.
    pub forfeits: u64,
    /// Per kind ([`forfeit_kind`]), most frequent first: the kind, how
    /// often, and its first reason in full.
    pub reasons: Vec<(String, u64, String)>,
}

/// The agents of `seats` (agent label, forfeit reason or empty) that
/// forfeited at least once, in the order of `labels`.
pub fn forfeits<'a>(
    labels: &[String],
    seats: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<AgentForfeits> {
    let mut out: Vec<AgentForfeits> = labels
        .iter()
        .map(|agent| AgentForfeits {
            agent: agent.clone(),
            seats: 0,
            forfeits: 0,
            reasons: Vec::new(),
        })
        .collect();
    for (agent, reason) in seats {
        let Some(a) = out.iter_mut().find(|a| a.agent == agent) else {
            continue;
        };
        a.seats += 1;
        if reason.is_empty() {
            continue;
        }
        a.forfeits += 1;
        let kind = forfeit_kind(reason);
        match a.reasons.iter_mut().find(|r| r.0 == kind) {
            Some(r) => r.1 += 1,
            None => a.reasons.push((kind.to_string(), 1, reason.to_string())),
        }
    }
    out.retain(|a| a.forfeits > 0);
    for a in &mut out {
        a.reasons.sort_by_key(|r| std::cmp::Reverse(r.1)); // stable: first seen first
    }
    out
}

/// [`forfeits`] of the rows of games.csv.
pub fn forfeits_of(labels: &[String], rows: &[GameRow]) -> Vec<AgentForfeits> {
    forfeits(
        labels,
        rows.iter().map(|r| (r.agent.as_str(), r.forfeit.as_str())),
    )
}

/// `text` cut to at most `max` characters (with `…`).
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// One line naming the agents that forfeited every seat they played, if
/// any: such a run measured nothing of them.
pub fn all_forfeited(forfeits: &[AgentForfeits]) -> Option<String> {
    let all: Vec<String> = forfeits
        .iter()
        .filter(|a| a.forfeits == a.seats)
        .map(|a| {
            let kinds: Vec<&str> = a.reasons.iter().map(|r| r.0.as_str()).collect();
            format!("{} ({})", a.agent, kinds.join(", "))
        })
        .collect();
    (!all.is_empty()).then(|| {
        format!(
            "every game of {} was forfeited; see the forfeit column of games.csv and the bots' logs",
            all.join(" and ")
        )
    })
}

/// Lines saying who forfeited how often and why (nothing without
/// forfeits), e.g.
/// `forfeits: ext:cmd=bot 6 of 6 seats: timeout ×4 (timeout: no answer within 200 ms), exited ×2 (exited: exit status: 3)`.
pub fn forfeit_lines(forfeits: &[AgentForfeits]) -> String {
    let mut out = String::new();
    for a in forfeits {
        let reasons: Vec<String> = a
            .reasons
            .iter()
            .map(|(kind, n, example)| format!("{kind} ×{n} ({})", clip(example, 120)))
            .collect();
        let _ = writeln!(
            out,
            "forfeits: {} {} of {} seats: {}",
            a.agent,
            a.forfeits,
            a.seats,
            reasons.join(", ")
        );
    }
    out
}

/// The table printed at the end of a run, best Elo first.
pub fn table(summary: &[SummaryRow]) -> String {
    let mut rows: Vec<&SummaryRow> = summary.iter().collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let width = rows.iter().map(|r| r.agent.len()).max().unwrap_or(5).max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>6}  {:>5} {:>5} {:>5}  {:>19}  {:>13}  {:>20}",
        "agent", "games", "win", "draw", "loss", "win rate (95% CI)", "mean score", "Elo (95% CI)"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>5} {:>5} {:>5}  {:>5.1}% [{:>4.1}, {:>4.1}]  {:>6.1} ± {:<4.1}  {:>6.0} [{:>5.0}, {:>5.0}]",
            r.agent,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.win_rate,
            100.0 * r.win_rate_ci_low,
            100.0 * r.win_rate_ci_high,
            r.mean_score,
            r.mean_score_se,
            r.elo,
            r.elo_ci_low,
            r.elo_ci_high
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_forfeits_lose() {
        use Outcome::*;
        assert_eq!(rank_seats(&[10, 20], None), vec![(2, Loss), (1, Win)]);
        assert_eq!(rank_seats(&[20, 20], None), vec![(1, Draw), (1, Draw)]);
        assert_eq!(
            rank_seats(&[5, 9, 9], None),
            vec![(3, Loss), (1, Draw), (1, Draw)]
        );
        assert_eq!(
            rank_seats(&[30, 9, 9], Some(0)),
            vec![(3, Loss), (1, Draw), (1, Draw)]
        );
        assert_eq!(rank_seats(&[30, 9], Some(0)), vec![(2, Loss), (1, Win)]);
    }

    fn row(
        game: u64,
        seat: usize,
        agent: &str,
        score: u32,
        rank: usize,
        result: Outcome,
    ) -> GameRow {
        GameRow {
            game,
            deck_seed: 0,
            seat,
            agent: agent.to_string(),
            score,
            road: 0,
            city: 0,
            monastery: 0,
            farm: 0,
            gifts: 0,
            rank,
            result,
            turns: 0,
            meeples_placed: 0,
            think_ms: 0.0,
            decisions: None,
            forfeit: String::new(),
        }
    }

    #[test]
    fn summaries_count_draws_as_half() {
        use Outcome::*;
        let labels = vec!["a".to_string(), "b".to_string()];
        let rows = vec![
            row(0, 0, "a", 10, 1, Win),
            row(0, 1, "b", 5, 2, Loss),
            row(1, 0, "b", 7, 1, Draw),
            row(1, 1, "a", 7, 1, Draw),
        ];
        let (summary, pairwise) = summarize(&labels, &rows);
        assert_eq!(summary[0].wins, 1);
        assert_eq!(summary[0].draws, 1);
        assert_eq!(summary[0].win_rate, 0.75);
        assert_eq!(summary[1].win_rate, 0.25);
        assert!(summary[0].elo > 0.0 && summary[0].elo == -summary[1].elo);
        assert_eq!(pairwise.len(), 2);
        assert_eq!(pairwise[0].mean_score_diff, 2.5);
        assert_eq!(pairwise[1].mean_score_diff, -2.5);
        let mut t = Tally::new(&labels);
        for g in games(&rows) {
            t.add_game(g);
        }
        assert_eq!(t.leader(), Some(("a", 0.75)));
    }

    #[test]
    fn forfeits_are_counted_per_agent_and_kind() {
        let labels = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let seats = [
            ("a", "timeout: no answer within 50 ms"),
            ("b", ""),
            ("a", "exited: exit status: 3"),
            ("b", ""),
            ("a", "timeout: no answer within 9 ms"),
            ("c", "panicked: oops"),
            ("c", "panicked: again"),
        ];
        let f = forfeits(&labels, seats);
        assert_eq!(f.len(), 2, "b never forfeited");
        assert_eq!(
            (f[0].agent.as_str(), f[0].seats, f[0].forfeits),
            ("a", 3, 3)
        );
        assert_eq!(
            f[0].reasons,
            vec![
                (
                    "timeout".to_string(),
                    2,
                    "timeout: no answer within 50 ms".to_string()
                ),
                (
                    "exited".to_string(),
                    1,
                    "exited: exit status: 3".to_string()
                ),
            ]
        );
        let text = forfeit_lines(&f);
        assert_eq!(text.lines().count(), 2);
        assert!(
            text.starts_with(
                "forfeits: a 3 of 3 seats: timeout ×2 (timeout: no answer within 50 ms), exited ×1"
            ),
            "{text}"
        );
        let all = all_forfeited(&f).unwrap();
        assert!(
            all.contains("a (timeout, exited)") && all.contains("c (panicked)"),
            "{all}"
        );
        assert!(!all.contains('\n'));
        assert_eq!(
            all_forfeited(&forfeits(&labels, [("a", ""), ("a", "x")])),
            None
        );
    }

    #[test]
    fn ms_per_decision_is_think_time_over_decisions_of_the_rows_that_have_them() {
        use Outcome::*;
        let labels = vec!["a".to_string(), "b".to_string()];
        let mut rows = vec![
            row(0, 0, "a", 10, 1, Win),
            row(0, 1, "b", 5, 2, Loss),
            row(1, 0, "b", 7, 1, Win),
            row(1, 1, "a", 6, 2, Loss),
        ];
        rows[0].think_ms = 30.0;
        rows[0].decisions = Some(10);
        rows[3].think_ms = 6.0;
        rows[3].decisions = Some(2);
        rows[1].think_ms = 99.0; // an older row without decisions
        rows[2].forfeit = "timeout: x".to_string();
        let (summary, _) = summarize(&labels, &rows);
        assert_eq!(summary[0].ms_per_decision, Some(3.0));
        assert_eq!(summary[1].ms_per_decision, None);
        assert_eq!((summary[0].forfeits, summary[1].forfeits), (0, 1));
    }
}
