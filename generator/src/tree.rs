//! The files of a generated crate's directory as they stand on disk: what writing the crate
//! (`output.rs`), its fingerprint (`fingerprint.rs`) and `specgen check` list and leave alone.

use std::fs;
use std::path::{Path, PathBuf};

/// What cargo itself writes into a crate built on its own (`target/`, `Cargo.lock`), which
/// regenerating leaves alone.
pub(crate) fn is_cargo_own(path: &Path) -> bool {
    path.starts_with("target") || path == Path::new("Cargo.lock")
}

/// Every file under `dir`, relative to `root`, sorted; cargo's `target/` is not entered.
pub(crate) fn list_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path
                .strip_prefix(root)
                .is_ok_and(|p| p.starts_with("target"))
            {
                continue;
            }
            list_files(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            out.push(relative.to_path_buf());
        }
    }
}
