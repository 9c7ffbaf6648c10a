//! What a diff finds, and the report that holds it.

use serde::Serialize;

use super::checks::{Level, Side};
use crate::load::Document;

/// Which of the two documents a place is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    /// The old document (for what was removed).
    Old,
    /// The new document.
    New,
}

/// Where a finding is: a JSON pointer in one of the documents, with its line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Place {
    /// The document.
    pub document: Which,
    /// JSON pointer, in URI-fragment form (`#/paths/~1pets/get`).
    pub pointer: String,
    /// The file the place was written in, when a `$ref` brought it from another file than
    /// the document's own; `line` and `column` are in that file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line in that document's text (or in `file`), when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
}

impl Place {
    /// The place at `pointer` of `doc` (the `document` side), with the file, line and column
    /// it was written at.
    pub(crate) fn in_document(doc: &Document, document: Which, pointer: String) -> Place {
        let location = doc.location(&pointer);
        Place {
            document,
            file: doc
                .written_file(&pointer)
                .map(|file| file.display().to_string()),
            line: location.map(|(line, _)| line),
            column: location.map(|(_, column)| column),
            pointer,
        }
    }
}

/// What a finding belongs to, for the changelog's grouping.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "lowercase")]
pub enum Group {
    /// The API as a whole: servers, security schemes, the crate's modules and version.
    Api,
    /// An operation, as `METHOD /path`.
    Operation(String),
    /// A webhook, by name.
    Webhook(String),
    /// A component schema, by name.
    Component(String),
}

impl Group {
    /// A heading for the group.
    pub fn title(&self) -> String {
        match self {
            Group::Api => "API".to_string(),
            Group::Operation(label) => format!("`{label}`"),
            Group::Webhook(name) => format!("webhook `{name}`"),
            Group::Component(name) => format!("component `{name}`"),
        }
    }
}

/// A semver bump.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bump {
    /// Nothing public changed.
    Patch,
    /// Only additions.
    Minor,
    /// Something user code may rely on changed or went.
    Major,
}

impl Bump {
    /// The bump's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Check id (see [`super::checks::catalogue`]).
    pub id: String,
    /// Its level.
    pub level: Level,
    /// The side it can break; `None` when it breaks nothing.
    pub side: Option<Side>,
    /// What changed, in one sentence.
    pub message: String,
    /// Where.
    pub place: Place,
    /// What it belongs to.
    pub group: Group,
    /// The operations and webhooks whose messages it touches (`GET /pets`, `webhook newPet`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    /// How the generated crate copes with it at run time, when it does (lenient models).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absorbed: Option<String>,
    /// For Rust API findings: the public item, e.g. `models::Pet::name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// For Rust API findings: the bump it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semver: Option<Bump>,
}

impl Finding {
    /// The order of reports: side, most serious first, then id, place and message.
    pub fn sort_key(&self) -> impl Ord + '_ {
        (
            self.side.map_or(3, |side| side as u8),
            std::cmp::Reverse(self.level),
            &self.id,
            &self.place,
            &self.message,
        )
    }
}

/// One of the two documents compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Version {
    /// Where it came from: a file, or `REV:PATH`.
    pub source: String,
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// The generated crate's package name.
    pub crate_name: String,
    /// The generated crate's version (from `info.version`, as Cargo wants it).
    pub crate_version: String,
}

/// The semver verdict on the generated crate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Semver {
    /// The bump the crate needs.
    pub needed: Bump,
    /// The bump `info.version` makes (old to new crate version), when it increases.
    pub made: Option<Bump>,
    /// Whether the made bump covers the needed one.
    pub sufficient: bool,
}

/// Everything `specgen diff` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The old document.
    pub old: Version,
    /// The new document.
    pub new: Version,
    /// Every finding, sorted (see [`Finding::sort_key`]).
    pub findings: Vec<Finding>,
    /// The semver verdict on the generated crate.
    pub semver: Semver,
}

impl Report {
    /// The findings of these sides (and those of no side), in order.
    pub fn findings_on<'a>(&'a self, sides: &'a [Side]) -> impl Iterator<Item = &'a Finding> {
        self.findings
            .iter()
            .filter(move |f| f.side.is_none_or(|side| sides.contains(&side)))
    }

    /// How many findings of each level (error, warning, info) these sides have.
    pub fn counts(&self, sides: &[Side]) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for finding in self.findings_on(sides) {
            match finding.level {
                Level::Error => counts.0 += 1,
                Level::Warning => counts.1 += 1,
                Level::Info => counts.2 += 1,
            }
        }
        counts
    }

    /// Whether anything on these sides is at `level` or above (the exit code's question).
    pub fn fails(&self, level: Level, sides: &[Side]) -> bool {
        self.findings_on(sides)
            .any(|f| f.level >= level && f.side.is_some())
    }
}
