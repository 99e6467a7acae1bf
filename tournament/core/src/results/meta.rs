//! What a results folder records about the run itself: UTC timestamps
//! (formatted here, without a date library), the code revision and the
//! crate versions; and how a printed hint names this program.

use super::git_head;
use std::time::{SystemTime, UNIX_EPOCH};

/// Split seconds since the Unix epoch into (year, month, day, hour,
/// minute, second), UTC (proleptic Gregorian; Hinnant's `civil_from_days`).
pub fn utc_parts(unix_seconds: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (unix_seconds / 86_400) as i64;
    let rem = unix_seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

fn unix_seconds(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// RFC 3339 UTC, e.g. `2025-03-01T14:05:09Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(unix_seconds(t));
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// A timestamp for folder names, e.g. `20250301T140509Z`.
pub fn compact(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(unix_seconds(t));
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// The commit this binary was built from: the source tree's `HEAD` when
/// the build script ran (a new commit rebuilds it), so a binary keeps
/// naming its own code however the tree moves on afterwards. A build
/// outside a git checkout (a source archive) falls back to the checkout
/// around the current directory at run time, and `"unknown"` without one.
pub fn code_revision() -> String {
    if let Some(built) = option_env!("CARCASSONNE_BUILD_REVISION") {
        return built.to_string();
    }
    std::env::current_dir()
        .ok()
        .and_then(|cwd| git_head::commit_above(&cwd))
        .map_or_else(|| "unknown".to_string(), |(hash, _)| hash)
}

/// Versions of the workspace crates (they share the workspace version).
pub fn versions() -> std::collections::BTreeMap<String, String> {
    let v = env!("CARGO_PKG_VERSION").to_string();
    ["carcassonne", "carcassonne-agents", "carcassonne-engine"]
        .iter()
        .map(|name| (name.to_string(), v.clone()))
        .collect()
}

/// How a printed hint names this program, so the command it suggests
/// works when pasted: `carcassonne` when that name on `PATH` is this
/// program (e.g. after `cargo install --path tournament`), else the
/// program's path, relative to the working directory when it lies under
/// it (`target/release/carcassonne`). A library caller that is not the
/// `carcassonne` binary (the Python package) gets `carcassonne`.
pub fn program() -> String {
    const NAME: &str = "carcassonne";
    let Ok(exe) = std::env::current_exe() else {
        return NAME.to_string();
    };
    if exe.file_stem().and_then(|s| s.to_str()) != Some(NAME) {
        return NAME.to_string();
    }
    let same = |p: &std::path::Path| p.canonicalize().is_ok_and(|p| p == exe);
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| same(&dir.join(NAME))));
    if on_path {
        return NAME.to_string();
    }
    std::env::current_dir()
        .ok()
        .and_then(|cwd| exe.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| exe.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_match_known_instants() {
        assert_eq!(utc_parts(0), (1970, 1, 1, 0, 0, 0));
        // 2000-02-29T12:34:56Z
        assert_eq!(utc_parts(951_827_696), (2000, 2, 29, 12, 34, 56));
        // 2024-12-31T23:59:59Z
        assert_eq!(utc_parts(1_735_689_599), (2024, 12, 31, 23, 59, 59));
        let t = UNIX_EPOCH + std::time::Duration::from_secs(951_827_696);
        assert_eq!(rfc3339(t), "2000-02-29T12:34:56Z");
        assert_eq!(compact(t), "20000229T123456Z");
    }
}
