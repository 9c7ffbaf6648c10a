//! The README's Layout table names every file of the directories that show the architecture
//! (each emitter, each report format, each traffic reader, each runtime piece), so the map a
//! newcomer reads first cannot fall behind the tree.

use std::path::Path;

#[test]
fn the_readme_layout_names_every_file_of_the_architecture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let layout = readme
        .split("\n## Layout\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a Layout section");
    let mut missing = Vec::new();
    for dir in [
        "generator/src/emit",
        "generator/src/emit/splice",
        "generator/src/ir",
        "generator/src/ir/build",
        "generator/src/load",
        "generator/runtime",
        "generator/src",
        "generator/src/diff",
        "generator/src/diff/checks",
        "generator/src/diff/wire",
        "generator/src/diff/wire/schema",
        "generator/src/diff/wire/operation",
        "generator/src/diff/rust_api",
        "generator/src/diff/rust_api/surface",
        "generator/src/diff/report",
        "validator/src/read",
        "validator/src/read/jsonl",
        "validator/src/contract",
        "validator/src/check",
        "validator/src/report",
        "validator/src/coverage",
        "validator/src/proxy",
        "validator/src",
    ] {
        let mut files: Vec<String> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|err| panic!("{dir}: {err}"))
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".rs") && name != "tests.rs")
            .collect();
        files.sort();
        for file in files {
            let named =
                layout.contains(&format!("`{file}`")) || layout.contains(&format!("/{file}`"));
            if !named {
                missing.push(format!("{dir}/{file}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README.md's Layout table does not name: {missing:?}"
    );
}
