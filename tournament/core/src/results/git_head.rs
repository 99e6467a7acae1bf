//! The commit a git checkout's `HEAD` names, read from its `.git` without
//! running git, and the files that answer depends on. Shared by the build
//! script (which records the commit a binary is built from) and
//! [`super::meta::code_revision`] (the fallback for builds outside a
//! checkout).

use std::path::{Path, PathBuf};

/// The commit `HEAD` of the git directory (or `gitdir:` file of a
/// worktree) `dot_git` names, with the files read to find it (`HEAD`, the
/// branch's loose ref or `packed-refs`): a change of any of them may
/// change the answer. `None` when `dot_git` is no git directory or its
/// `HEAD` names no commit.
pub fn head_commit(dot_git: &Path) -> Option<(String, Vec<PathBuf>)> {
    let git_dir = if dot_git.is_file() {
        let text = std::fs::read_to_string(dot_git).ok()?;
        let target = text.trim().strip_prefix("gitdir:")?.trim();
        dot_git.parent()?.join(target)
    } else if dot_git.is_dir() {
        dot_git.to_path_buf()
    } else {
        return None;
    };
    let head_file = git_dir.join("HEAD");
    let head = std::fs::read_to_string(&head_file).ok()?;
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref:") else {
        return is_hash(head).then(|| (head.to_string(), vec![head_file]));
    };
    let reference = reference.trim();
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|_| git_dir.clone());
    for dir in [&git_dir, &common] {
        let loose = dir.join(reference);
        if let Ok(hash) = std::fs::read_to_string(&loose) {
            let hash = hash.trim();
            if is_hash(hash) {
                return Some((hash.to_string(), vec![head_file, loose]));
            }
        }
        let packed_file = dir.join("packed-refs");
        if let Ok(packed) = std::fs::read_to_string(&packed_file) {
            for line in packed.lines() {
                if let Some((hash, name)) = line.split_once(' ') {
                    if name.trim() == reference && is_hash(hash) {
                        // A commit on the branch writes a loose ref into
                        // this folder, so it is watched too.
                        let refs = loose.parent().map(Path::to_path_buf);
                        let files = [Some(head_file), Some(packed_file), refs];
                        return Some((hash.to_string(), files.into_iter().flatten().collect()));
                    }
                }
            }
        }
    }
    None
}

/// The commit of the nearest checkout at or above `start`.
pub fn commit_above(start: &Path) -> Option<(String, Vec<PathBuf>)> {
    start
        .ancestors()
        .find_map(|dir| head_commit(&dir.join(".git")))
}

fn is_hash(s: &str) -> bool {
    s.len() >= 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "0123456789abcdef0123456789abcdef01234567";
    const B: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("git-head-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git/refs/heads")).unwrap();
        dir
    }

    #[test]
    fn a_branch_is_read_from_its_loose_ref_then_from_packed_refs() {
        let dir = scratch("branch");
        let git = dir.join(".git");
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(
            git.join("packed-refs"),
            format!("# pack-refs\n{B} refs/heads/main\n"),
        )
        .unwrap();
        let (hash, files) = commit_above(&dir.join("sub/folder")).unwrap();
        assert_eq!(hash, B);
        assert!(
            files.contains(&git.join("packed-refs")) && files.contains(&git.join("refs/heads"))
        );
        std::fs::write(git.join("refs/heads/main"), format!("{A}\n")).unwrap();
        let (hash, files) = head_commit(&git).unwrap();
        assert_eq!(hash, A);
        assert_eq!(files, vec![git.join("HEAD"), git.join("refs/heads/main")]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_detached_head_and_a_worktree_are_read_and_anything_else_is_none() {
        let dir = scratch("detached");
        let git = dir.join(".git");
        std::fs::write(git.join("HEAD"), format!("{A}\n")).unwrap();
        assert_eq!(head_commit(&git).unwrap().0, A);
        // A worktree: `.git` is a file naming its git directory, whose
        // branches live in the common directory.
        let wt = git.join("worktrees/wt");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join("HEAD"), "ref: refs/heads/side\n").unwrap();
        std::fs::write(wt.join("commondir"), "../..\n").unwrap();
        std::fs::write(git.join("refs/heads/side"), format!("{B}\n")).unwrap();
        let tree = dir.join("wt");
        std::fs::create_dir_all(&tree).unwrap();
        std::fs::write(tree.join(".git"), format!("gitdir: {}\n", wt.display())).unwrap();
        assert_eq!(head_commit(&tree.join(".git")).unwrap().0, B);
        std::fs::write(git.join("HEAD"), "not a commit\n").unwrap();
        assert_eq!(head_commit(&git), None);
        assert_eq!(head_commit(&dir.join("nothing")), None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
