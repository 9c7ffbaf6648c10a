//! What a build script pulls in when it uses specgen as a library: the command line's
//! dependencies (clap) stay behind the `cli` feature, which the `specgen` binary requires.

use std::process::Command;

/// The packages `cargo tree` lists for specgen's normal dependencies with the given features.
fn dependency_tree(extra: &[&str]) -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "--manifest-path",
            manifest,
            "-p",
            "specgen",
        ])
        .args(["-e", "normal", "--prefix", "none", "--format", "{p}"])
        .args(extra)
        .output()
        .expect("running cargo tree");
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut packages: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

#[test]
fn the_library_builds_without_the_command_lines_dependencies() {
    let library = dependency_tree(&["--no-default-features"]);
    for cli_only in ["clap", "clap_builder", "anyhow"] {
        assert!(
            !library.iter().any(|p| p == cli_only),
            "specgen without default features depends on {cli_only}: {library:?}"
        );
    }
    // The binary's feature brings the parser back.
    let cli = dependency_tree(&[]);
    assert!(cli.iter().any(|p| p == "clap"), "{cli:?}");
}
