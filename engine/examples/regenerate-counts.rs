//! Rewrite the perft-style counts files of the engine's tests
//! (`engine/tests/all/counts/{perft,table}.txt`) from the naive reference
//! engine, keeping their comments and sequence lines: run it only when the
//! rules change on purpose, then review the diff (and the hand-verified
//! turns in the comments).
//!
//! `cargo run -p carcassonne-engine --example regenerate-counts` writes the
//! files; with `-- --check` it writes nothing and exits with status 1 if a
//! file differs from what it would write.

#[path = "../tests/all/counts/mod.rs"]
mod counts;
#[path = "../tests/all/naive/mod.rs"]
mod naive;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("regenerate-counts: unknown argument {other:?} (only --check)");
            return ExitCode::from(2);
        }
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/all/counts");
    let mut differ = false;
    for name in ["perft.txt", "table.txt"] {
        let path = dir.join(name);
        let old = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("regenerate-counts: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let new = counts::regenerate(&old);
        if new == old {
            println!("{}: unchanged", path.display());
            continue;
        }
        differ = true;
        if check {
            println!("{}: differs from the reference", path.display());
        } else if let Err(e) = write_whole(&path, &new) {
            eprintln!("regenerate-counts: {}: {e}", path.display());
            return ExitCode::from(2);
        } else {
            println!("{}: rewritten", path.display());
        }
    }
    if check && differ {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Write `text` to `path` through a temporary file renamed over it, so an
/// interrupted run leaves the old file whole.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("txt.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
