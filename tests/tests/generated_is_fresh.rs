//! generated/ is specgen's output for spec/openapi.yaml, byte for byte: a change to the spec
//! or to specgen that is not followed by `cargo run -p specgen -- generate` fails here.

use integration_tests::{spec_path, workspace_root};
use specgen::output::{Drift, compare};

#[test]
fn generated_crate_matches_the_spec() {
    let doc = specgen::load::load_file(&spec_path()).expect("spec/openapi.yaml loads");
    let files =
        specgen::generate_crate(&doc, &specgen::Options::default()).expect("spec generates");
    let drift = compare(&workspace_root().join("generated"), &files);
    let report: Vec<String> = drift
        .iter()
        .map(|item| match item {
            Drift::Missing(path) => format!("missing: {}", path.display()),
            Drift::Extra(path) => format!("not generated: {}", path.display()),
            Drift::Changed(path, diff) => format!("changed: {}\n{diff}", path.display()),
        })
        .collect();
    assert!(
        drift.is_empty(),
        "generated/ is stale; run `cargo run -p specgen -- generate`:\n{}",
        report.join("\n")
    );
}
