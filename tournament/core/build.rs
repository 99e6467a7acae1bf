//! Records the commit the crate is built from as `CARCASSONNE_BUILD_REVISION`
//! (read by `results::meta::code_revision`), and asks to run again when the
//! checkout's `HEAD` or its branch moves.

#[path = "src/results/git_head.rs"]
mod git_head;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/results/git_head.rs");
    let manifest = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    if let Some((hash, files)) = git_head::commit_above(&manifest) {
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        println!("cargo:rustc-env=CARCASSONNE_BUILD_REVISION={hash}");
    }
}
