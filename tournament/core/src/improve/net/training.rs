//! A generation's network: generation 0 made (random or bootstrapped),
//! and what a training tells of a network kept in its file's metadata.

use super::settings::NetSettings;
use super::{net_path, META, TAG};
use crate::improve::Hooks;
use crate::learning::train_net::fit;
use crate::seeds::mix;
use agents::neural::train::Metrics;
use agents::neural::NetEvaluator;
use files::error::{Error, Result};
use std::path::Path;

/// Write the network `net` of generation `k`, with what the run knows of
/// it in its metadata.
pub(super) fn save(net: &mut NetEvaluator, path: &Path, facts: &[(&str, String)]) -> Result<()> {
    for (k, v) in facts {
        net.provenance.extra.insert(format!("{META}{k}"), v.clone());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    net.save(path).map_err(|e| Error::Folder(e.to_string()))
}

/// The facts of a training to keep in the network's metadata.
pub(super) fn training_facts(
    examples: usize,
    fitted: &crate::learning::train_net::Fitted,
) -> Vec<(&'static str, String)> {
    let mut facts = vec![
        ("examples", examples.to_string()),
        ("train_examples", fitted.positions.to_string()),
    ];
    let mut metric = |prefix: &'static str, m: Option<&Metrics>| {
        if let Some(m) = m {
            let names: [(&'static str, f64); 3] = match prefix {
                "train" => [
                    ("policy_loss", m.policy_loss),
                    ("value_loss", m.value_loss),
                    ("top1", m.top1),
                ],
                _ => [
                    ("heldout_policy_loss", m.policy_loss),
                    ("heldout_value_loss", m.value_loss),
                    ("heldout_top1", m.top1),
                ],
            };
            facts.extend(names.iter().map(|(k, v)| (*k, v.to_string())));
        }
    };
    metric("train", fitted.report.train.last());
    metric("held", fitted.report.held_out.last());
    facts
}

/// A number the run kept in a network's metadata.
pub(super) fn fact(net: &NetEvaluator, key: &str) -> Option<f64> {
    net.provenance
        .extra
        .get(&format!("{META}{key}"))
        .and_then(|v| v.parse().ok())
}

/// Examples (positions) in the self-play folder `dir`.
pub(super) fn count_examples(dir: &Path) -> Result<usize> {
    let mut positions = 0;
    crate::learning::train_net::for_each_shard(&[dir.to_path_buf()], |_, shard, _| {
        positions += shard.len();
        Ok(())
    })?;
    Ok(positions)
}

/// Generation 0's network: random weights or the `init` network, or
/// either trained on the bootstrap data (its size told to `hooks`).
pub(super) fn initial(settings: &NetSettings, dir: &Path, hooks: &dyn Hooks) -> Result<()> {
    let seed = mix(settings.seed, TAG, &[0]);
    let path = net_path(dir, 0);
    if let (Some(init), true) = (&settings.init, settings.bootstrap.is_empty()) {
        let mut net = NetEvaluator::load(init).map_err(|e| Error::Folder(e.to_string()))?;
        net.provenance
            .extra
            .insert("init".into(), init.display().to_string());
        return save(&mut net, &path, &[("examples", "0".to_string())]);
    }
    if settings.bootstrap.is_empty() {
        let config = settings.train_config(&[], None, seed);
        let mut net = NetEvaluator::new(config.net, seed);
        net.provenance.seed = seed;
        net.provenance.revision = crate::results::meta::code_revision();
        return save(&mut net, &path, &[("examples", "0".to_string())]);
    }
    let mut log = Vec::new();
    let config = settings.train_config(&settings.bootstrap, settings.init.clone(), seed);
    let mut fitted = fit(&config, &mut log)?;
    hooks.warn(&format!(
        "generation 0: trained on {} bootstrap examples",
        fitted.positions
    ));
    let facts = training_facts(fitted.positions, &fitted);
    save(&mut fitted.net, &path, &facts)
}
