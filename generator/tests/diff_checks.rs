//! One old/new pair per check of `specgen diff` (`tests/diff/checks/<check-id>/`), each
//! asserting the exact findings the pair gives: the header of its `new.yaml` lists them as
//! `# expect: LEVEL SIDE CHECK-ID DOCUMENT#POINTER` (side `-` for changes that break nothing),
//! wire and Rust API findings alike. Every check of the catalogue has its pair, and every pair
//! finds the check it is named after.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use specgen::diff::{self, Finding, Which};

fn checks_dir() -> PathBuf {
    common::package_dir().join("tests/diff/checks")
}

fn pairs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(checks_dir())
        .expect("tests/diff/checks")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A finding as the fixtures write it.
fn line(finding: &Finding) -> String {
    format!(
        "{} {} {} {}{}",
        finding.level.as_str(),
        finding.side.map_or("-", |side| side.as_str()),
        finding.id,
        match finding.place.document {
            Which::Old => "old",
            Which::New => "new",
        },
        finding.place.pointer
    )
}

fn expected(new: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(new)
        .expect("new.yaml")
        .lines()
        .filter_map(|line| line.strip_prefix("# expect: "))
        .map(str::to_string)
        .collect()
}

fn actual(dir: &Path) -> Result<BTreeSet<String>, String> {
    let load = |name: &str| diff::source::load(&dir.join(name).display().to_string());
    let old = load("old.yaml").map_err(|e| e.to_string())?;
    let new = load("new.yaml").map_err(|e| e.to_string())?;
    let report = diff::diff(&old, &new, &Default::default()).map_err(|e| e.to_string())?;
    Ok(report.findings.iter().map(line).collect())
}

#[test]
fn every_check_has_a_pair() {
    let ids: BTreeSet<String> = diff::checks::catalogue()
        .iter()
        .map(|check| check.id.clone())
        .collect();
    let pairs: BTreeSet<String> = pairs().into_iter().collect();
    let missing: Vec<&String> = ids.difference(&pairs).collect();
    let unknown: Vec<&String> = pairs.difference(&ids).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "checks without a pair: {missing:?}\npairs named after no check: {unknown:?}"
    );
}

#[test]
fn every_pair_gives_exactly_its_findings() {
    let mut wrong = Vec::new();
    for name in pairs() {
        let dir = checks_dir().join(&name);
        let expected = expected(&dir.join("new.yaml"));
        if !expected
            .iter()
            .any(|line| line.split(' ').nth(2) == Some(name.as_str()))
        {
            wrong.push(format!(
                "{name}: its expectations do not name the check itself"
            ));
        }
        match actual(&dir) {
            Err(error) => wrong.push(format!("{name}: {error}")),
            Ok(actual) if actual != expected => {
                let missing: Vec<&String> = expected.difference(&actual).collect();
                let extra: Vec<&String> = actual.difference(&expected).collect();
                wrong.push(format!(
                    "{name}:\n    missing: {missing:#?}\n    unexpected: {extra:#?}"
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} pairs differ:\n{}",
        wrong.len(),
        pairs().len(),
        wrong.join("\n")
    );
}
