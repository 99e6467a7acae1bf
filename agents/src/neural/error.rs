//! The neural stack's errors besides a network file's
//! ([`super::NetError`]): a file of arrays that cannot be read or written
//! ([`FileError`]), an example training cannot trust ([`ExampleError`]),
//! a forward pass given inputs or weights of the wrong sizes
//! ([`InputError`]), and a training run that cannot go on
//! ([`TrainError`]). Each prints as one line.

use std::fmt;

/// Why a file of arrays — a network's weights or a shard of examples —
/// cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The operating system refused (the file is missing, unreadable,
    /// not a regular file, too large, or the folder unwritable).
    Io {
        /// The file.
        path: String,
        /// Why, as the system says it.
        why: String,
    },
    /// The bytes are not what they should be: not safetensors, an array
    /// missing or of another type or shape, metadata of another kind or
    /// encoding version, or an example training cannot trust.
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

impl FileError {
    /// An I/O failure on `path`.
    pub fn io(path: &impl fmt::Display, why: impl fmt::Display) -> FileError {
        FileError::Io {
            path: path.to_string(),
            why: why.to_string(),
        }
    }

    /// Bytes of `path` that are not what they should be.
    pub fn format(path: &impl fmt::Display, why: impl fmt::Display) -> FileError {
        FileError::Format {
            path: path.to_string(),
            why: why.to_string(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, why } | FileError::Format { path, why } => {
                write!(f, "{path}: {why}")
            }
        }
    }
}

impl std::error::Error for FileError {}

/// An example of a data set that training cannot trust
/// ([`super::data::Dataset::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleError {
    /// The example, when one is at fault (else the set's layout is).
    pub example: Option<usize>,
    /// What is wrong: the field and its value.
    pub what: String,
}

impl fmt::Display for ExampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.example {
            Some(i) => write!(f, "example {i}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

impl std::error::Error for ExampleError {}

/// Inputs or weights of the wrong sizes for a forward pass: a caller's
/// mistake, named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Why training cannot go on.
#[derive(Debug)]
pub enum TrainError {
    /// No position to train on (every game held out, or no data).
    NoTrainingData,
    /// The network has the auxiliary `categories` head but an example
    /// has no category targets (a shard written before they were kept).
    NoCategories {
        /// The first such example.
        example: usize,
    },
    /// Training towards the search's values (`search_value` above 0) but
    /// an example has none (a shard of `mcts` games, or written before
    /// they were kept).
    NoSearchValue {
        /// The first such example.
        example: usize,
    },
    /// The network reads the board window but the examples were loaded
    /// without it ([`super::compact::CompactExamples::new`]).
    NoBoard,
    /// The positions or their actions are of the wrong sizes.
    Input(InputError),
    /// The tensor library failed (shapes that do not fit).
    Tensor(candle_core::Error),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::NoTrainingData => {
                f.write_str("no training positions (every game is held out, or no data)")
            }
            TrainError::NoCategories { example } => write!(
                f,
                "example {example} has no category targets (its shard was written before they were kept): train a network without the categories head, or on newer shards"
            ),
            TrainError::NoSearchValue { example } => write!(
                f,
                "example {example} has no search value (its search gave none, as `mcts`'s, or its shard was written before they were kept): train without --search-value, or on newer `az` shards"
            ),
            TrainError::NoBoard => f.write_str(
                "the network reads the board window, but its examples were loaded without it",
            ),
            TrainError::Input(e) => write!(f, "{e}"),
            TrainError::Tensor(e) => f.write_str(&super::net::one_line(e)),
        }
    }
}

impl std::error::Error for TrainError {}

impl From<candle_core::Error> for TrainError {
    fn from(e: candle_core::Error) -> TrainError {
        TrainError::Tensor(e)
    }
}

impl From<InputError> for TrainError {
    fn from(e: InputError) -> TrainError {
        TrainError::Input(e)
    }
}
