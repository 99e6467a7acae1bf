//! Pictures of games and runs, for the command line (`carcassonne render`,
//! `view`, `report`, the report written after a run, the web app's board):
//!
//! - [`render`]: a game's board after any turn as SVG or PNG;
//! - [`viewer`]: a game as one HTML page to step through;
//! - [`report`](mod@report): a results folder as an HTML report with
//!   charts;
//! - [`ladder`]: a rating ladder (`carcassonne ratings`) as an HTML page;
//! - [`analysis`]: the tables of `carcassonne analyze` as an HTML page
//!   with charts.
//!
//! Pictures read records and results files; nothing in the run core
//! ([`tournament`]) draws one, so the Python package and the fuzz targets
//! build without resvg or plotters.

pub mod analysis;
pub mod ladder;
pub mod render;
pub mod report;
pub mod viewer;

#[cfg(test)]
mod test_games;
