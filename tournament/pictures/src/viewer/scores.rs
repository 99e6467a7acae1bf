//! The viewer's chart of every seat's score after each turn (plotters'
//! SVG backend), with a cursor line the page's script moves to the
//! current turn.

use crate::render::history::History;
use crate::render::palette;
use files::error::{Error, Result};
use plotters::prelude::*;

const WIDTH: u32 = 460;
const HEIGHT: u32 = 240;

fn err<E: std::fmt::Display>(e: E) -> Error {
    Error::Internal(format!("score chart: {e}"))
}

/// The chart as inline SVG (no namespace URL: the page must not name any
/// address). The cursor is `<line id="cursor">`, with the pixel x of turn
/// 0 and of the last turn in its `data-x0` and `data-x1`.
///
/// # Errors
/// plotters fails to draw ([`Error::Internal`]).
pub fn chart(history: &History) -> Result<String> {
    let turns = history.turns().max(1);
    let top = history
        .frames
        .iter()
        .flat_map(|f| f.scores.iter().map(|s| s.total()))
        .max()
        .unwrap_or(0)
        .max(10);
    let mut svg = String::new();
    let (x0, x1, y0, y1) = {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(36)
            .build_cartesian_2d(0..turns, 0..top + top / 10)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("turn")
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        for seat in 0..history.record.players {
            let [r, g, b] = palette::rgb(palette::seat(seat));
            let points = history
                .frames
                .iter()
                .enumerate()
                .map(|(n, f)| (n, f.scores[seat].total()));
            chart
                .draw_series(LineSeries::new(points, RGBColor(r, g, b).stroke_width(2)))
                .map_err(err)?;
        }
        let (x0, y0) = chart.backend_coord(&(0, 0));
        let (x1, y1) = chart.backend_coord(&(turns, top + top / 10));
        root.present().map_err(err)?;
        (x0, x1, y0, y1)
    };
    let svg = svg.replace(r#" xmlns="http://www.w3.org/2000/svg""#, "");
    let cursor = format!(
        r##"<line id="cursor" x1="{x1}" y1="{y0}" x2="{x1}" y2="{y1}" data-x0="{x0}" data-x1="{x1}" stroke="{}" stroke-width="2"/></svg>"##,
        palette::HIGHLIGHT
    );
    Ok(svg.replacen("</svg>", &cursor, 1))
}
