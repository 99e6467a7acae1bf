//! The report's charts, drawn with plotters' SVG backend: the pairwise
//! win-rate heat map, Elo with error bars, score distributions, points by
//! category, win rate by seat and the SPRT trace; and for
//! `carcassonne analyze`'s page ([`crate::analysis`]) shares with their
//! intervals and game length.
//!
//! Each chart is inline SVG without the namespace URL (the report must not
//! name any address).

use super::data::{Pairing, SeatResult};
use files::error::{Error, Result};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
use tournament::stats::wilson_interval;

const WIDTH: u32 = 760;
const LABELS: u32 = 190;
const FONT: &str = "sans-serif";

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn err<E: std::fmt::Display>(e: E) -> Error {
    Error::Internal(format!("chart: {e}"))
}

/// A colour per agent (colour-blind-safe Tableau 10).
pub fn agent_colour(i: usize) -> RGBColor {
    const C: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    let (r, g, b) = C[i % C.len()];
    RGBColor(r, g, b)
}

fn inline(svg: String) -> String {
    svg.replace(r#" xmlns="http://www.w3.org/2000/svg""#, "")
}

fn text_style(size: u32, h: HPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(h, VPos::Center))
}

fn short(name: &str) -> String {
    if name.chars().count() > 24 {
        format!("{}…", name.chars().take(23).collect::<String>())
    } else {
        name.to_string()
    }
}

/// An axis label: whole numbers without decimals (`-1200`, not
/// `-1200.0`), others as short as they print.
pub(crate) fn tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let text = format!("{v:.3}");
        text.trim_end_matches('0').to_string()
    }
}

/// A chart with one row per name (top to bottom) over `x`, its names on
/// the left; `draw` adds the series (row `i` is at y = `n − 1 − i`);
/// with `legend`, the labelled series get a legend.
fn rows_chart(
    names: &[String],
    x: Range<f64>,
    x_desc: &str,
    legend: bool,
    draw: impl FnOnce(&mut Chart, &Area) -> Result<()>,
) -> Result<String> {
    let n = names.len().max(1);
    let height = 70 + 44 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .margin_left(LABELS)
            .x_label_area_size(36)
            .build_cartesian_2d(x, -0.6..(n as f64 - 0.4))
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_label_formatter(&tick)
            .x_desc(x_desc)
            .label_style((FONT, 13))
            .draw()
            .map_err(err)?;
        for (i, name) in names.iter().enumerate() {
            let (_, y) = chart.backend_coord(&(chart.x_range().start, (n - 1 - i) as f64));
            root.draw(&Text::new(
                short(name),
                (LABELS as i32 - 8, y),
                text_style(14, HPos::Right),
            ))
            .map_err(err)?;
        }
        draw(&mut chart, &root)?;
        if legend {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font((FONT, 13))
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(inline(svg))
}

fn row_y(n: usize, i: usize) -> f64 {
    (n - 1 - i) as f64
}

/// A range around `values` with a little room on both sides.
fn padded(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.08).max(1.0);
    (lo - pad)..(hi + pad)
}

/// Elo of each agent as a point with its 95% interval.
pub fn elo(names: &[String], elo: &[(f64, f64, f64)]) -> Result<String> {
    let range = padded(elo.iter().flat_map(|&(e, lo, hi)| [e, lo, hi]));
    let n = names.len();
    rows_chart(names, range, "Elo (95% interval)", false, |chart, _| {
        for (i, &(e, lo, hi)) in elo.iter().enumerate() {
            let y = row_y(n, i);
            let colour = agent_colour(i);
            let bar = [(lo, y), (hi, y)];
            chart
                .draw_series([
                    PathElement::new(bar.to_vec(), colour.stroke_width(3)),
                    PathElement::new(vec![(lo, y - 0.15), (lo, y + 0.15)], colour.stroke_width(2)),
                    PathElement::new(vec![(hi, y - 0.15), (hi, y + 0.15)], colour.stroke_width(2)),
                ])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((e, y), 6, colour.filled())])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    format!("{e:.0}"),
                    (e, y + 0.32),
                    text_style(13, HPos::Center),
                )])
                .map_err(err)?;
        }
        Ok(())
    })
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Each agent's scores as a box plot: the box spans the quartiles, the
/// line inside is the median, whiskers reach the 5th and 95th
/// percentiles, the dot is the mean.
pub fn scores(names: &[String], seats: &[SeatResult]) -> Result<String> {
    let per_agent: Vec<Vec<f64>> = names
        .iter()
        .map(|name| {
            let mut v: Vec<f64> = seats
                .iter()
                .filter(|s| &s.agent == name)
                .map(|s| s.score)
                .collect();
            v.sort_by(f64::total_cmp);
            v
        })
        .collect();
    let range = padded(seats.iter().map(|s| s.score).chain([0.0]));
    let n = names.len();
    rows_chart(
        names,
        range,
        "score per game (box: quartiles, whiskers: 5–95%, dot: mean)",
        false,
        |chart, _| {
            for (i, v) in per_agent.iter().enumerate() {
                if v.is_empty() {
                    continue;
                }
                let y = row_y(n, i);
                let colour = agent_colour(i);
                let [p5, q1, med, q3, p95] = [0.05, 0.25, 0.5, 0.75, 0.95].map(|q| quantile(v, q));
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                chart
                    .draw_series([
                        PathElement::new(vec![(p5, y), (q1, y)], BLACK.stroke_width(1)),
                        PathElement::new(vec![(q3, y), (p95, y)], BLACK.stroke_width(1)),
                    ])
                    .map_err(err)?;
                chart
                    .draw_series([Rectangle::new(
                        [(q1, y - 0.28), (q3, y + 0.28)],
                        colour.mix(0.5).filled(),
                    )])
                    .map_err(err)?;
                chart
                    .draw_series([Rectangle::new(
                        [(q1, y - 0.28), (q3, y + 0.28)],
                        BLACK.stroke_width(1),
                    )])
                    .map_err(err)?;
                chart
                    .draw_series([PathElement::new(
                        vec![(med, y - 0.28), (med, y + 0.28)],
                        BLACK.stroke_width(3),
                    )])
                    .map_err(err)?;
                chart
                    .draw_series([
                        Circle::new((mean, y), 4, WHITE.filled()),
                        Circle::new((mean, y), 4, BLACK.stroke_width(1)),
                    ])
                    .map_err(err)?;
            }
            Ok(())
        },
    )
}

/// The categories of points, their games.csv names and colours.
pub const CATEGORIES: [(&str, (u8, u8, u8)); 5] = [
    ("road", (110, 90, 64)),
    ("city", (201, 143, 75)),
    ("monastery", (181, 72, 58)),
    ("farm", (141, 193, 83)),
    ("gifts", (154, 48, 208)),
];

/// Mean points per game of each agent by category, as stacked bars.
pub fn categories(names: &[String], seats: &[SeatResult]) -> Result<String> {
    let means: Vec<[f64; 5]> = names
        .iter()
        .map(|name| {
            let rows: Vec<&SeatResult> = seats.iter().filter(|s| &s.agent == name).collect();
            let k = rows.len().max(1) as f64;
            let sum = |f: fn(&SeatResult) -> f64| rows.iter().map(|r| f(r)).sum::<f64>() / k;
            [
                sum(|r| r.road),
                sum(|r| r.city),
                sum(|r| r.monastery),
                sum(|r| r.farm),
                sum(|r| r.gifts),
            ]
        })
        .collect();
    category_bars(names, &means)
}

/// Mean points per game of each agent (`names`) by category, in the
/// order of [`CATEGORIES`], as stacked bars.
pub fn category_bars(names: &[String], means: &[[f64; 5]]) -> Result<String> {
    let top = means
        .iter()
        .map(|m| m.iter().sum::<f64>())
        .fold(1.0, f64::max);
    let n = names.len();
    rows_chart(
        names,
        0.0..top * 1.4,
        "mean points per game",
        true,
        |chart, _| {
            for (c, (label, (r, g, b))) in CATEGORIES.iter().enumerate() {
                let colour = RGBColor(*r, *g, *b);
                let bars = means.iter().enumerate().map(|(i, m)| {
                    let start: f64 = m[..c].iter().sum();
                    let y = row_y(n, i);
                    Rectangle::new([(start, y - 0.3), (start + m[c], y + 0.3)], colour.filled())
                });
                chart
                    .draw_series(bars)
                    .map_err(err)?
                    .label(*label)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                    });
            }
            Ok(())
        },
    )
}

/// Win rate `(wins + draws / 2) / games` by seat over all agents, with
/// Wilson 95% intervals; the dashed line is the rate of a fair seat.
pub fn seats(seats: &[SeatResult], players: usize) -> Result<String> {
    let names: Vec<String> = (0..players).map(|s| format!("seat {s}")).collect();
    let rates: Vec<Share> = (0..players)
        .map(|s| {
            let rows: Vec<&SeatResult> = seats.iter().filter(|r| r.seat == s).collect();
            let n = rows.len() as f64;
            let won: f64 = rows
                .iter()
                .map(|r| match r.result.as_str() {
                    "win" => 1.0,
                    "draw" => 0.5,
                    _ => 0.0,
                })
                .sum();
            let (lo, hi) = wilson_interval(won, n, 1.96);
            Some((if n > 0.0 { won / n } else { 0.0 }, lo, hi))
        })
        .collect();
    let fair = 1.0 / players.max(1) as f64;
    share_bars(
        &names,
        &rates,
        Some(fair),
        "win rate (95% Wilson interval); dashed: 1 / players",
    )
}

/// A share (0 to 1) with its interval, `(share, low, high)`; `None`
/// when it was not measured.
pub type Share = Option<(f64, f64, f64)>;

/// Shares (0 to 1) as bars with their intervals, one row per name;
/// `None` draws no bar (not measured); `fair` draws a dashed line.
pub fn share_bars(
    names: &[String],
    shares: &[Share],
    fair: Option<f64>,
    x_desc: &str,
) -> Result<String> {
    let rows = names.len();
    rows_chart(names, 0.0..1.0, x_desc, false, |chart, _| {
        for (i, (rate, lo, hi)) in shares
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((i, (*s)?)))
        {
            let y = row_y(rows, i);
            chart
                .draw_series([Rectangle::new(
                    [(0.0, y - 0.3), (rate, y + 0.3)],
                    agent_colour(0).mix(0.6).filled(),
                )])
                .map_err(err)?;
            chart
                .draw_series([PathElement::new(
                    vec![(lo, y), (hi, y)],
                    BLACK.stroke_width(2),
                )])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    format!("{rate:.3}"),
                    (hi + 0.01, y),
                    text_style(13, HPos::Left),
                )])
                .map_err(err)?;
        }
        if let Some(fair) = fair {
            let dashes = (0..rows * 6).map(|k| {
                let y0 = -0.6 + k as f64 * 0.2;
                PathElement::new(vec![(fair, y0), (fair, y0 + 0.1)], BLACK.stroke_width(1))
            });
            chart.draw_series(dashes).map_err(err)?;
        }
        Ok(())
    })
}

/// Game length by group (`names`): the mean number of turns as a dot,
/// ± one standard deviation as a thick bar, fewest to most as a thin line.
pub fn length(names: &[String], turns: &[(f64, f64, f64, f64)]) -> Result<String> {
    let range = padded(turns.iter().flat_map(|&(_, _, lo, hi)| [lo, hi]));
    let n = names.len();
    rows_chart(
        names,
        range,
        "turns per game (dot: mean, bar: ± 1 sd, line: fewest to most)",
        false,
        |chart, _| {
            for (i, &(mean, sd, lo, hi)) in turns.iter().enumerate() {
                let y = row_y(n, i);
                let colour = agent_colour(i);
                chart
                    .draw_series([
                        PathElement::new(vec![(lo, y), (hi, y)], BLACK.stroke_width(1)),
                        PathElement::new(
                            vec![(mean - sd, y), (mean + sd, y)],
                            colour.stroke_width(6),
                        ),
                    ])
                    .map_err(err)?;
                chart
                    .draw_series([Circle::new((mean, y), 6, colour.filled())])
                    .map_err(err)?;
                chart
                    .draw_series([Text::new(
                        format!("{mean:.1}"),
                        (mean, y + 0.32),
                        text_style(13, HPos::Center),
                    )])
                    .map_err(err)?;
            }
            Ok(())
        },
    )
}

/// The pairwise win-rate matrix as a heat map: row agent against column
/// agent, blue when the row agent wins more, red when it loses more, with
/// the rate and its 95% interval in each cell.
pub fn heat_map(names: &[String], pairings: &[Pairing]) -> Result<String> {
    let n = names.len();
    let (cell_w, cell_h, top) = (130_i32, 56_i32, 40_i32);
    let width = LABELS as i32 + cell_w * n as i32 + 20;
    let height = top + cell_h * n as i32 + 30;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width as u32, height as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        for (i, name) in names.iter().enumerate() {
            let y = top + cell_h * i as i32 + cell_h / 2;
            root.draw(&Text::new(
                short(name),
                (LABELS as i32 - 8, y),
                text_style(14, HPos::Right),
            ))
            .map_err(err)?;
            let x = LABELS as i32 + cell_w * i as i32 + cell_w / 2;
            root.draw(&Text::new(
                short(name),
                (x, top / 2),
                text_style(12, HPos::Center),
            ))
            .map_err(err)?;
        }
        for (i, row) in names.iter().enumerate() {
            for (j, col) in names.iter().enumerate() {
                let x0 = LABELS as i32 + cell_w * j as i32;
                let y0 = top + cell_h * i as i32;
                let cell = pairings
                    .iter()
                    .find(|p| &p.agent == row && &p.opponent == col);
                let (fill, lines) = match cell {
                    Some(p) if p.games > 0 => (
                        heat(p.win_rate),
                        vec![
                            format!("{:.3}", p.win_rate),
                            format!("[{:.2}, {:.2}]", p.win_rate_ci_low, p.win_rate_ci_high),
                        ],
                    ),
                    _ => (RGBColor(235, 235, 235), vec!["—".to_string()]),
                };
                root.draw(&Rectangle::new(
                    [(x0, y0), (x0 + cell_w, y0 + cell_h)],
                    fill.filled(),
                ))
                .map_err(err)?;
                root.draw(&Rectangle::new(
                    [(x0, y0), (x0 + cell_w, y0 + cell_h)],
                    WHITE.stroke_width(2),
                ))
                .map_err(err)?;
                let k = lines.len() as i32;
                for (l, text) in lines.iter().enumerate() {
                    let y = y0 + cell_h / 2 + (2 * l as i32 - (k - 1)) * 9;
                    root.draw(&Text::new(
                        text.clone(),
                        (x0 + cell_w / 2, y),
                        text_style(if l == 0 { 15 } else { 12 }, HPos::Center),
                    ))
                    .map_err(err)?;
                }
            }
        }
        root.draw(&Text::new(
            "row agent's win rate against the column agent [95% Wilson interval]",
            (LABELS as i32, height - 14),
            text_style(12, HPos::Left),
        ))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(inline(svg))
}

/// Red (0) through white (0.5) to blue (1).
fn heat(rate: f64) -> RGBColor {
    let t = ((rate - 0.5) * 2.0).clamp(-1.0, 1.0);
    let mix = |a: f64, b: f64, t: f64| (a + (b - a) * t).round() as u8;
    if t >= 0.0 {
        RGBColor(
            mix(255.0, 70.0, t),
            mix(255.0, 130.0, t),
            mix(255.0, 220.0, t),
        )
    } else {
        RGBColor(
            mix(255.0, 230.0, -t),
            mix(255.0, 90.0, -t),
            mix(255.0, 80.0, -t),
        )
    }
}

/// The SPRT's log-likelihood ratio after each game with its bounds.
pub fn sprt(trace: &[(u64, f64)], bounds: (f64, f64)) -> Result<String> {
    let last = trace.last().map_or(1, |t| t.0).max(1) as f64;
    let y = padded(trace.iter().map(|t| t.1).chain([bounds.0, bounds.1]));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..last, y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .x_desc("games")
            .y_desc("LLR")
            .label_style((FONT, 13))
            .draw()
            .map_err(err)?;
        for bound in [bounds.0, bounds.1] {
            chart
                .draw_series([PathElement::new(
                    vec![(0.0, bound), (last, bound)],
                    RED.stroke_width(2),
                )])
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(
                trace.iter().map(|&(g, llr)| (g as f64, llr)),
                agent_colour(0).stroke_width(2),
            ))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(inline(svg))
}

/// A generation's mark at `x`: its 95% interval `[low, value, high]` as
/// a bar and its value as a circle, filled if it was promoted.
fn draw_mark(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x: f64,
    [low, value, high]: [f64; 3],
    promoted: bool,
    colour: RGBColor,
) -> Result<()> {
    chart
        .draw_series([PathElement::new(
            vec![(x, low), (x, high)],
            colour.stroke_width(2),
        )])
        .map_err(err)?;
    let fill = if promoted {
        colour.filled()
    } else {
        WHITE.filled()
    };
    chart
        .draw_series([
            Circle::new((x, value), 5, fill),
            Circle::new((x, value), 5, colour.stroke_width(2)),
        ])
        .map_err(err)?;
    Ok(())
}

/// One generation of an `improve --net` run on the joint ladder: its
/// network's rating against the fixed anchors and the CPU spent so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingPoint {
    /// CPU-hours of the run up to and including this generation.
    pub cpu_hours: f64,
    /// The rating (Elo, the first anchor at its given value).
    pub rating: f64,
    /// 95% interval, low end.
    pub low: f64,
    /// High end.
    pub high: f64,
    /// Promoted to best network.
    pub promoted: bool,
}

/// Each generation's rating on the joint ladder against the CPU-hours
/// spent to reach it, with 95% error bars (promoted filled), joined in
/// order: the curve of compute turned into strength.
///
/// # Errors
/// The chart cannot be drawn.
pub fn ratings_by_cpu(points: &[RatingPoint]) -> Result<String> {
    let last = points.iter().map(|p| p.cpu_hours).fold(0.0, f64::max);
    let right = if last > 0.0 { last * 1.05 } else { 1.0 };
    let y = padded(points.iter().flat_map(|p| [p.low, p.high]).chain([0.0]));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 260)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.02 * right..right, y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .x_desc("CPU-hours")
            .y_desc("rating (Elo)")
            .label_style((FONT, 13))
            .draw()
            .map_err(err)?;
        let colour = agent_colour(0);
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.cpu_hours, p.rating)),
                agent_colour(7).stroke_width(1),
            ))
            .map_err(err)?;
        for p in points {
            let y = [p.low, p.rating, p.high];
            draw_mark(&mut chart, p.cpu_hours, y, p.promoted, colour)?;
        }
        root.present().map_err(err)?;
    }
    Ok(inline(svg))
}

/// One generation of `improve --net` for [`generations`]: its number,
/// its Elo against generation 0 with the 95% interval, and whether it
/// was promoted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenerationPoint {
    /// The generation.
    pub generation: u64,
    /// Elo against generation 0.
    pub elo: f64,
    /// 95% interval, low end.
    pub low: f64,
    /// High end.
    pub high: f64,
    /// Promoted to best network.
    pub promoted: bool,
}

/// Elo against generation 0 by generation, with 95% error bars: the
/// promoted generations filled, the others hollow, the best network's
/// Elo as a line.
pub fn generations(points: &[GenerationPoint]) -> Result<String> {
    let last = points.last().map_or(1, |p| p.generation).max(1) as f64;
    let y = padded(points.iter().flat_map(|p| [p.low, p.high]).chain([0.0]));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 260)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5..last + 0.5, y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels((last as usize + 2).min(20))
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .x_desc("generation")
            .y_desc("Elo vs generation 0")
            .label_style((FONT, 13))
            .draw()
            .map_err(err)?;
        let colour = agent_colour(0);
        // The best network's Elo after each generation.
        let mut best = 0.0;
        let steps: Vec<(f64, f64)> = points
            .iter()
            .map(|p| {
                if p.promoted {
                    best = p.elo;
                }
                (p.generation as f64, best)
            })
            .collect();
        chart
            .draw_series(LineSeries::new(steps, agent_colour(7).stroke_width(1)))
            .map_err(err)?;
        for p in points {
            let x = p.generation as f64;
            draw_mark(&mut chart, x, [p.low, p.elo, p.high], p.promoted, colour)?;
        }
        root.present().map_err(err)?;
    }
    Ok(inline(svg))
}

/// One parameter of a tuning run (`carcassonne tune`) for [`tuning`].
#[derive(Clone, Debug, PartialEq)]
pub struct ParamTrace {
    /// The parameter's name.
    pub name: String,
    /// The range it was tuned in.
    pub lo: f64,
    /// See `lo`.
    pub hi: f64,
    /// θ at the start of each iteration, then after the last.
    pub theta: Vec<f64>,
    /// The values `θ+` played, per iteration.
    pub plus: Vec<f64>,
    /// The values `θ−` played, per iteration.
    pub minus: Vec<f64>,
}

/// Each parameter's trace over a tuning run, one panel per parameter:
/// θ as a line, the values `θ+` and `θ−` played as small dots, the range
/// as the panel's height. A standalone SVG document (with its
/// namespace), unlike the report's inline charts.
///
/// # Errors
/// The chart cannot be drawn.
pub fn tuning(params: &[ParamTrace]) -> Result<String> {
    const PANEL: u32 = 240;
    let height = PANEL * params.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let panels = root.split_evenly((params.len().max(1), 1));
        for (p, area) in params.iter().zip(&panels) {
            let last = (p.theta.len().max(2) - 1) as f64;
            let pad = (p.hi - p.lo) * 0.04;
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .caption(&p.name, (FONT, 15))
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d(0.0..last, (p.lo - pad)..(p.hi + pad))
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_labels((last as usize + 1).min(10))
                .x_label_formatter(&tick)
                .y_label_formatter(&tick)
                .x_desc("iteration")
                .y_desc(p.name.as_str())
                .label_style((FONT, 13))
                .draw()
                .map_err(err)?;
            let sides = [
                (&p.plus, agent_colour(2), "θ+"),
                (&p.minus, agent_colour(3), "θ−"),
            ];
            for (values, colour, label) in sides {
                chart
                    .draw_series(
                        values
                            .iter()
                            .enumerate()
                            .map(|(k, &v)| Circle::new((k as f64, v), 2, colour.mix(0.5).filled())),
                    )
                    .map_err(err)?
                    .label(label)
                    .legend(move |(x, y)| Circle::new((x + 8, y), 3, colour.filled()));
            }
            chart
                .draw_series(LineSeries::new(
                    p.theta.iter().enumerate().map(|(k, &v)| (k as f64, v)),
                    agent_colour(0).stroke_width(2),
                ))
                .map_err(err)?
                .label("θ")
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], agent_colour(0).stroke_width(2))
                });
            // Upper left: the end of the trace matters most.
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK.mix(0.3))
                .label_font((FONT, 12))
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
