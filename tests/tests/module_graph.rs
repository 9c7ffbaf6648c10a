//! No two source files of a crate import each other (other than a module and its own
//! submodules): an import circle between siblings is two jobs that cannot be read, changed or
//! moved apart. Paths are read from `crate::`, `super::` and `self::` uses in code (comments
//! and doc links are not imports) and resolved to the file that declares the module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The file of the longest module path prefix of `parts` that exists under `root`.
fn module_file(root: &Path, parts: &[&str]) -> Option<PathBuf> {
    let mut found = None;
    for end in 1..=parts.len() {
        let base = parts[..end]
            .iter()
            .fold(root.to_path_buf(), |p, s| p.join(s));
        for candidate in [base.with_extension("rs"), base.join("mod.rs")] {
            if candidate.is_file() {
                found = Some(candidate);
            }
        }
    }
    found
}

/// The module path of a file (`check/body.rs` → `["check", "body"]`; `lib.rs` → `[]`).
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every file each file of the crate under `root` uses.
fn imports(root: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut graph = BTreeMap::new();
    for file in &files {
        let own = module_path(root, file);
        let code: String = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut used = BTreeSet::new();
        for head in ["crate::", "super::", "self::"] {
            for (at, _) in code.match_indices(head) {
                let before = code[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let rest: String = code[at..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let mut segments: Vec<&str> = rest.split("::").filter(|s| !s.is_empty()).collect();
                let mut base: Vec<String> = match segments.first().copied() {
                    Some("crate") => Vec::new(),
                    Some("self") => own.clone(),
                    _ => own[..own.len().saturating_sub(1)].to_vec(),
                };
                segments.remove(0);
                while segments.first() == Some(&"super") {
                    base.pop();
                    segments.remove(0);
                }
                let parts: Vec<&str> = base.iter().map(String::as_str).chain(segments).collect();
                if let Some(target) = module_file(root, &parts)
                    && &target != file
                {
                    used.insert(target);
                }
            }
        }
        graph.insert(file.clone(), used);
    }
    graph
}

#[test]
fn no_two_sibling_files_import_each_other() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut circles = Vec::new();
    let mut files = 0;
    for crate_src in ["generator/src", "validator/src", "sandbox/src", "tests/src"] {
        let root = workspace.join(crate_src);
        let graph = imports(&root);
        files += graph.len();
        for (a, used) in &graph {
            for b in used {
                if a < b && graph.get(b).is_some_and(|back| back.contains(a)) {
                    let (ma, mb) = (module_path(&root, a), module_path(&root, b));
                    let nested = mb.starts_with(&ma) || ma.starts_with(&mb);
                    if !nested {
                        circles.push(format!(
                            "{crate_src}: {} <-> {}",
                            a.strip_prefix(&root).unwrap().display(),
                            b.strip_prefix(&root).unwrap().display()
                        ));
                    }
                }
            }
        }
    }
    assert!(files > 100, "only {files} files read");
    assert!(
        circles.is_empty(),
        "files that import each other: {circles:#?}"
    );
}

/// The reader finds a circle when there is one: two files of a scratch crate that use each
/// other, beside one that only uses them.
#[test]
fn a_circle_between_two_files_is_found() {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::B;\n// use crate::lib;\n").unwrap();
    std::fs::write(dir.join("a/inner.rs"), "use super::super::b::B;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct B;\nuse super::a::A;\n").unwrap();
    let graph = imports(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let a = &graph[&dir.join("a.rs")];
    let b = &graph[&dir.join("b.rs")];
    assert!(a.contains(&dir.join("b.rs")) && b.contains(&dir.join("a.rs")));
    assert_eq!(
        graph[&dir.join("a/inner.rs")],
        BTreeSet::from([dir.join("b.rs")])
    );
}
