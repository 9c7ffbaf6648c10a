//! `specgen diff`: what a spec change does to the traffic of deployed clients, servers and
//! notification receivers (`wire`), and to user code compiled against the crate specgen
//! generates ([`rust_api`]), with the semver bump that crate needs.
//!
//! ```no_run
//! let old = specgen::diff::source::load("main:spec/openapi.yaml")?;
//! let new = specgen::diff::source::load("spec/openapi.yaml")?;
//! let report = specgen::diff::diff(&old, &new, &specgen::Options::default())?;
//! print!("{}", specgen::diff::report::render(&report, &Default::default()));
//! # Ok::<(), specgen::Error>(())
//! ```

pub mod checks;
mod collect;
pub mod finding;
mod place;
pub mod report;
pub mod rust_api;
pub mod source;
mod wire;

pub use checks::{Level, Side};
pub use finding::{Bump, Finding, Group, Place, Report, Semver, Version, Which};

use crate::error::Result;
use crate::load::Document;
use crate::{Options, ir};
use checks::RustCheck;

/// Compares two documents: every wire change with its level and side, every change of the
/// generated crate's public API, and the semver verdict. The options are those the crate is
/// generated with (type overrides change Rust types).
pub fn diff(old: &Document, new: &Document, options: &Options) -> Result<Report> {
    crate::configure_threads();
    // The two IRs and the wire comparison are independent: run them side by side.
    let (wire, irs) = rayon::join(
        || {
            let mut out = collect::Collector::new(old, new);
            wire::compare(&mut out);
            out.finish()
        },
        || {
            rayon::join(
                || crate::build_ir(old, options),
                || crate::build_ir(new, options),
            )
        },
    );
    let (old_api, new_api) = (irs.0?, irs.1?);
    let (old_surface, new_surface) = rayon::join(
        || rust_api::Surface::of(&old_api),
        || rust_api::Surface::of(&new_api),
    );
    let mut findings = wire;
    findings.extend(rust_api::compare(&old_surface?, &new_surface?, old, new));
    let old_version = version(old, &old_api);
    let new_version = version(new, &new_api);
    let semver = verdict(
        &findings,
        &old_version.crate_version,
        &new_version.crate_version,
    );
    if !semver.sufficient {
        findings.push(version_finding(new, &semver, &old_version, &new_version));
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(Report {
        old: old_version,
        new: new_version,
        findings,
        semver,
    })
}

fn version(doc: &Document, api: &ir::Api) -> Version {
    Version {
        source: doc.source.clone(),
        title: api.title.clone(),
        version: api.version.clone(),
        crate_name: api.crate_name.clone(),
        crate_version: crate::semver_or_default(&api.version),
    }
}

/// The bump the Rust findings need, and the one the versions make.
fn verdict(findings: &[Finding], old: &str, new: &str) -> Semver {
    let needed = findings
        .iter()
        .filter_map(|f| f.semver)
        .max()
        .unwrap_or(Bump::Patch);
    let made = made_bump(old, new);
    Semver {
        needed,
        made,
        sufficient: needed == Bump::Patch || made.is_some_and(|made| made >= needed),
    }
}

/// What moving from version `old` to `new` is, by Cargo's rules (in `0.y.z`, `y` is the major
/// number; in `0.0.z`, every increase is one; a pre-release comes before its release, so
/// `1.0.0` → `2.0.0-beta.1` is a major increase); `None` when the version does not increase.
fn made_bump(old: &str, new: &str) -> Option<Bump> {
    let (old, new) = (
        semver::Version::parse(old).ok()?,
        semver::Version::parse(new).ok()?,
    );
    if new.cmp_precedence(&old) != std::cmp::Ordering::Greater {
        return None;
    }
    let (a, b) = (
        (old.major, old.minor, old.patch),
        (new.major, new.minor, new.patch),
    );
    // The release of a pre-release (`2.0.0-beta.1` → `2.0.0`) changes no number.
    if b <= a {
        return Some(Bump::Patch);
    }
    Some(match (a.0, b.0) {
        (x, y) if y > x => Bump::Major,
        (0, 0) if b.1 > a.1 || (a.1 == 0 && b.1 == 0) => Bump::Major,
        (0, 0) => Bump::Minor,
        _ if b.1 > a.1 => Bump::Minor,
        _ => Bump::Patch,
    })
}

fn version_finding(doc: &Document, semver: &Semver, old: &Version, new: &Version) -> Finding {
    let (id, level, _) = RustCheck::VersionBumpInsufficient.spec();
    let pointer = "#/info/version".to_string();
    let made = semver.made.map_or("no increase", Bump::as_str);
    Finding {
        id: id.to_string(),
        level,
        side: Some(Side::Rust),
        message: format!(
            "info.version {} → {} ({made}); the generated crate needs a {} bump",
            old.version,
            new.version,
            semver.needed.as_str()
        ),
        place: Place::in_document(doc, Which::New, pointer),
        group: Group::Api,
        uses: Vec::new(),
        absorbed: None,
        item: None,
        semver: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_moves_are_bumps() {
        assert_eq!(made_bump("1.2.3", "2.0.0"), Some(Bump::Major));
        assert_eq!(made_bump("1.2.3", "1.3.0"), Some(Bump::Minor));
        assert_eq!(made_bump("1.2.3", "1.2.4"), Some(Bump::Patch));
        assert_eq!(made_bump("0.2.3", "0.3.0"), Some(Bump::Major));
        assert_eq!(made_bump("0.2.3", "0.2.4"), Some(Bump::Minor));
        // Cargo takes no `0.0.z` for another.
        assert_eq!(made_bump("0.0.1", "0.0.2"), Some(Bump::Major));
        assert_eq!(made_bump("1.2.3", "1.2.3"), None);
        // A pre-release is before its release, after the version before it.
        assert_eq!(made_bump("1.0.0", "2.0.0-beta.1"), Some(Bump::Major));
        assert_eq!(made_bump("2.0.0-beta.1", "2.0.0"), Some(Bump::Patch));
        assert_eq!(made_bump("2.0.0", "2.0.0-beta.1"), None);
        assert_eq!(made_bump("2.0.0-beta.1", "2.0.0-beta.2"), Some(Bump::Patch));
    }
}
