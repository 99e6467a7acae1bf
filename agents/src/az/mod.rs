//! AlphaZero-style search: PUCT over the seat's actions guided by an
//! [`Evaluator`] that gives every legal action a prior and every seat a
//! value, with tile and gift draws as sampled chance.
//!
//! - [`evaluator`]: the interface between the search and a model (the
//!   neural network of [`crate::neural`] once it lands, or [`Uniform`]).

pub mod evaluator;

pub use evaluator::{EvalRequest, Evaluation, Evaluator, Uniform};
