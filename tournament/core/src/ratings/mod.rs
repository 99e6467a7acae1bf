//! `carcassonne ratings`: one rating ladder over every game of any
//! number of results folders (tournaments, SPRT runs, merged shards,
//! `improve` matches), as Ordo and BayesElo rate engines over every game
//! ever played.
//!
//! - [`pool`]: the folders' games as one pool of pairwise comparisons,
//!   grouped by deck; folders that may not be pooled are refused.
//! - [`fit`](mod@fit): the Bradley–Terry fit on the Elo scale, anchored,
//!   with intervals from a bootstrap over deck groups, and the
//!   head-to-head results.
//! - [`output`]: the ladder folder's files (`ratings.csv`,
//!   `headtohead.csv`, `ladder.json`).
//!
//! A caller that rates runs as they come (the `improve` loop) calls
//! [`load_games`] then [`fit()`]:
//!
//! ```no_run
//! # fn main() -> files::error::Result<()> {
//! use tournament::ratings::{fit, load_games};
//! let pool = load_games(&["results/a".into(), "results/b".into()], false)?;
//! let ladder = fit(&pool, Some(("greedy", 0.0)), 200, 1)?;
//! print!("{}", ladder.table());
//! # Ok(()) }
//! ```

pub mod fit;
pub mod output;
pub mod pool;

pub use fit::{fit, Anchor, HeadToHead, Ladder, Rating, DEFAULT_BOOTSTRAP};
pub use pool::{load_games, Pool};

#[cfg(test)]
mod tests;
