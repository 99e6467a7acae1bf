//! The scale-out recipes in results/README.md are the files the cluster
//! tests run (`scripts/slurm-test`, `scripts/indexed-job-test`): one
//! source, so the documented recipe cannot drift from the tested one.

use std::path::Path;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fenced code block of `text` that follows `marker`.
fn block_after(text: &str, marker: &str) -> String {
    let after = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker:?}"))..];
    let open = after.find("```").expect("a code block");
    let body = &after[open..];
    let start = body.find('\n').expect("a fence line") + 1;
    let end = body[start..].find("\n```").expect("a closing fence") + start + 1;
    body[start..end].to_string()
}

#[test]
fn the_documented_slurm_recipe_is_the_tested_file() {
    let readme = read("results/README.md");
    let file = read("scripts/cluster/shard-array.sbatch");
    assert_eq!(block_after(&readme, "### SLURM job array"), file);
    assert!(file.contains("--resume") && file.contains("#SBATCH --requeue"));
}

#[test]
fn the_documented_kubernetes_manifest_is_the_tested_file() {
    let readme = read("results/README.md");
    let file = read("scripts/cluster/indexed-job.yaml");
    assert_eq!(block_after(&readme, "### Kubernetes Indexed Job"), file);
    for needed in ["--resume", "restartPolicy: OnFailure", "backoffLimit:"] {
        assert!(file.contains(needed), "the manifest lacks {needed}");
    }
}
