//! A policy and value network for the `az` search, trained on its
//! self-play (docs/neural.md).
//!
//! - [`encode`]: a seat's view and its legal actions as numbers (the
//!   versioned encoding).
//! - [`net`]: the network (candle, CPU): a trunk, a value per seat and a
//!   score per legal action.
//! - [`evaluator`]: [`NetEvaluator`], the network as an
//!   [`crate::evaluator::Evaluator`], and its safetensors weights file.
//! - [`fast`]: the forward pass for inference, in plain Rust on candle's
//!   weights (sparse first layer; measured in experiments/az-bootstrap).
//! - [`data`]: training examples (position, visit shares, outcome) and
//!   their safetensors shards.
//! - [`compact`]: examples held compactly for training, and
//!   [`compact::Examples`], what training reads of them.
//! - [`train`]: AdamW on policy cross-entropy and value losses, held-out
//!   split by game.
//! - [`tensors`]: reading and writing safetensors files.
//! - [`error`]: the errors of files of arrays, examples, forward passes
//!   and training ([`NetError`] is a network file's).

pub mod compact;
pub mod data;
pub mod encode;
pub mod error;
pub mod evaluator;
pub mod fast;
pub mod net;
pub mod tensors;
pub mod train;

pub use encode::ENCODING_VERSION;
pub use error::{ExampleError, FileError, InputError, TrainError};
pub use evaluator::{check_network, Arrays, LeadBlend, NetError, NetEvaluator, Provenance};
pub use net::{Net, NetConfig, CATEGORIES, CATEGORY_SCALE};
