//! The names of the training examples' files in a run folder
//! (`examples/game-NNNNNNN.safetensors.gz`): what merging and resuming
//! need to know of them without reading them, so they need no neural
//! network code (the core's feature `neural`; [`super::examples`] writes
//! them).

use std::path::{Path, PathBuf};

/// The folder of the examples in a run folder.
pub const EXAMPLES_DIR: &str = "examples";

/// How a shard's file name ends: gzip-compressed safetensors.
pub const SHARD_EXTENSION: &str = "safetensors.gz";

/// The game number of a shard's file name (`game-NNNNNNN.safetensors.gz`,
/// or `.safetensors` as shards were written before issue 47), or `None`
/// when it is not a shard's name.
pub fn shard_game(name: &str) -> Option<u64> {
    name.strip_prefix("game-")
        .and_then(|n| {
            n.strip_suffix(".safetensors.gz")
                .or_else(|| n.strip_suffix(".safetensors"))
        })
        .and_then(|n| n.parse::<u64>().ok())
}

/// Whether a file name is an example shard's, by its ending
/// (`.safetensors.gz`, or `.safetensors` uncompressed).
pub fn is_shard_name(name: &str) -> bool {
    name.ends_with(".safetensors.gz") || name.ends_with(".safetensors")
}

/// The shard file of game `game` in run folder `dir`.
pub fn shard_path(dir: &Path, game: u64) -> PathBuf {
    dir.join(EXAMPLES_DIR)
        .join(format!("game-{game:07}.{SHARD_EXTENSION}"))
}
