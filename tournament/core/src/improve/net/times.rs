//! The CPU and wall-clock time of each step of a generation, kept in
//! its folder (`time.json`) so a resumed run reports the time of steps
//! done before the kill.

use super::TIME_FILE;
use crate::results::output::write_atomic;
use files::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// The process's CPU seconds (user and system, all threads).
fn cpu_seconds() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 * 1e-6;
    getrusage(UsageWho::RUSAGE_SELF)
        .map(|u| secs(u.user_time()) + secs(u.system_time()))
        .unwrap_or(0.0)
}

/// The step times of a generation folder: step → `[cpu_s, wall_s]`.
type Times = BTreeMap<String, [f64; 2]>;

pub(super) fn read_times(gen_folder: &Path) -> Times {
    std::fs::read_to_string(gen_folder.join(TIME_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Run `step` of the generation in `gen`, and keep its time there
/// unless a time of it is kept already (a step found finished).
pub(super) fn timed<T>(
    gen_folder: &Path,
    step: &str,
    run: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let value = run()?;
    let mut times = read_times(gen_folder);
    if !times.contains_key(step) {
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        times.insert(
            step.to_string(),
            [
                round(cpu_seconds() - cpu),
                round(wall.elapsed().as_secs_f64()),
            ],
        );
        std::fs::create_dir_all(gen_folder).map_err(|e| Error::io("create", gen_folder, e))?;
        let json = serde_json::to_string(&times).map_err(|e| Error::Internal(e.to_string()))?;
        write_atomic(&gen_folder.join(TIME_FILE), json.as_bytes())?;
    }
    Ok(value)
}
