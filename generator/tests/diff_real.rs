//! `specgen diff` on pairs of real consecutive versions: each corpus spec of `shared/corpus/real`
//! against a next version made from it by hand (`tests/diff/real/<file>.patch`, whose header
//! says what changed), with the reports snapshotted. One pair is also rendered in every format.

mod common;

use specgen::diff::report::{Format, RenderOptions, render};
use specgen::diff::{self, Report};

/// The corpus files with a hand-made next version.
const PAIRS: [&str; 4] = [
    "box-openapi.json",
    "twilio_api_v2010.yaml",
    "twilio_messaging_v1.yaml",
    "twilio_verify_v2.yaml",
];

/// The report between a corpus file and its next version.
fn report(file: &str) -> Report {
    let text = std::fs::read_to_string(common::real_corpus_dir().join(file)).expect("corpus file");
    let patch_path = common::package_dir()
        .join("tests/diff/real")
        .join(format!("{file}.patch"));
    let patch = std::fs::read_to_string(patch_path).expect("patch");
    let next = common::apply_patch(&text, &patch).unwrap_or_else(|e| panic!("{file}: {e}"));
    let old = specgen::load::load_str(&text, &format!("corpus/real/{file}")).expect("old");
    let new = specgen::load::load_str(&next, &format!("next/{file}")).expect("new");
    diff::diff(&old, &new, &Default::default()).expect("diff")
}

fn options(format: Format, changelog: bool) -> RenderOptions {
    RenderOptions {
        format,
        changelog,
        ..RenderOptions::default()
    }
}

#[test]
fn real_pairs_report_as_snapshotted() {
    for file in PAIRS {
        let report = report(file);
        let stem = file.trim_end_matches(".yaml").trim_end_matches(".json");
        insta::assert_snapshot!(
            format!("real-{stem}"),
            render(&report, &options(Format::Text, false))
        );
        insta::assert_snapshot!(
            format!("real-{stem}-changelog"),
            render(&report, &options(Format::Markdown, true))
        );
    }
}

#[test]
fn a_real_pair_in_every_format() {
    let report = report("twilio_verify_v2.yaml");
    for (name, format) in [
        ("markdown", Format::Markdown),
        ("json", Format::Json),
        ("junit", Format::Junit),
        ("sarif", Format::Sarif),
    ] {
        insta::assert_snapshot!(
            format!("format-{name}"),
            render(&report, &options(format, false))
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&render(&report, &options(Format::Json, false))).expect("JSON");
    assert_eq!(json["semver"]["needed"], "major");
    let sarif: serde_json::Value =
        serde_json::from_str(&render(&report, &options(Format::Sarif, false))).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), report.findings.len());
    assert!(
        results
            .iter()
            .all(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].is_u64())
    );
}

#[test]
fn the_report_does_not_depend_on_the_run() {
    let first = render(
        &report("twilio_messaging_v1.yaml"),
        &options(Format::Json, false),
    );
    let second = render(
        &report("twilio_messaging_v1.yaml"),
        &options(Format::Json, false),
    );
    assert_eq!(first, second);
}
