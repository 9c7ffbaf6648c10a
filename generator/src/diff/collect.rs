//! The wire checks' findings as they are made: one finding per check, place and message, with
//! every operation or webhook that reaches it (a component schema is compared once, however
//! many messages use it).

use std::collections::{BTreeMap, BTreeSet};

use super::checks::{Facet, Flow, Level, Side, Structural, schema_id, schema_level};
use super::finding::{Finding, Place, Which};
use super::place;
use crate::load::Document;

/// What identifies a finding: check, document, pointer and message.
pub(crate) type Key = (String, Which, String, String);

/// The findings so far.
pub(crate) struct Collector<'d> {
    pub old: &'d Document,
    pub new: &'d Document,
    findings: BTreeMap<Key, Draft>,
    /// Every finding made or reached, in order; a schema comparison remembers the stretch it
    /// produced so that a later use of the same schemas can be added to those findings.
    log: Vec<Key>,
}

struct Draft {
    level: Level,
    side: Option<Side>,
    uses: BTreeSet<String>,
    absorbed: Option<&'static str>,
}

impl<'d> Collector<'d> {
    pub fn new(old: &'d Document, new: &'d Document) -> Self {
        Collector {
            old,
            new,
            findings: BTreeMap::new(),
            log: Vec::new(),
        }
    }

    /// The document of a side.
    pub fn doc(&self, which: Which) -> &'d Document {
        match which {
            Which::Old => self.old,
            Which::New => self.new,
        }
    }

    /// A structural finding.
    pub fn structural(
        &mut self,
        check: Structural,
        which: Which,
        pointer: &str,
        message: String,
        use_: &str,
    ) {
        let (id, side, level, _, _) = check.spec();
        self.add(
            id.to_string(),
            level,
            side,
            which,
            pointer,
            message,
            use_,
            None,
        );
    }

    /// A schema finding; the message is prefixed with the place.
    pub fn schema(
        &mut self,
        flow: Flow,
        facet: Facet,
        which: Which,
        pointer: &str,
        what: String,
        use_: &str,
    ) {
        let (side, level) = schema_level(flow, facet);
        let message = format!("{}: {what}", place::describe(self.doc(which), pointer));
        let absorbed = absorbed(flow, facet);
        self.add(
            schema_id(flow, facet),
            level,
            side,
            which,
            pointer,
            message,
            use_,
            absorbed,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        id: String,
        level: Level,
        side: Option<Side>,
        which: Which,
        pointer: &str,
        message: String,
        use_: &str,
        absorbed: Option<&'static str>,
    ) {
        let key = (id, which, pointer.to_string(), message);
        let draft = self.findings.entry(key.clone()).or_insert_with(|| Draft {
            level,
            side,
            uses: BTreeSet::new(),
            absorbed,
        });
        if !use_.is_empty() {
            draft.uses.insert(use_.to_string());
        }
        self.log.push(key);
    }

    /// Where the log stands, to remember what a comparison produced.
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// The findings made or reached since `mark`.
    pub fn since(&self, mark: usize) -> Vec<Key> {
        let mut keys = self.log[mark..].to_vec();
        keys.sort();
        keys.dedup();
        keys
    }

    /// Adds a use to findings made earlier (a schema compared again from another message).
    pub fn reach(&mut self, keys: &[Key], use_: &str) {
        for key in keys {
            if let Some(draft) = self.findings.get_mut(key) {
                draft.uses.insert(use_.to_string());
            }
            self.log.push(key.clone());
        }
    }

    /// The findings, with their places' lines and columns.
    pub fn finish(self) -> Vec<Finding> {
        self.findings
            .into_iter()
            .map(|((id, which, pointer, message), draft)| {
                let doc = match which {
                    Which::Old => self.old,
                    Which::New => self.new,
                };
                Finding {
                    id,
                    level: draft.level,
                    side: draft.side,
                    message,
                    group: place::group(&pointer),
                    place: Place::in_document(doc, which, pointer),
                    uses: draft.uses.into_iter().collect(),
                    absorbed: draft.absorbed.map(str::to_string),
                    item: None,
                    semver: None,
                }
            })
            .collect()
    }
}

/// How the generated crate copes with a change at run time, where its lenient models do: a
/// client built on the old crate keeps working against the new server.
fn absorbed(flow: Flow, facet: Facet) -> Option<&'static str> {
    match (flow, facet) {
        (Flow::Response, Facet::EnumValueAdded | Facet::EnumRemoved) => {
            Some("generated clients keep an unknown value in the enum's `Unknown` variant")
        }
        (
            Flow::Response,
            Facet::PropertyAddedToClosedSchema | Facet::AdditionalPropertiesOpened,
        ) => Some(
            "generated clients keep undeclared members in the struct's `additional_properties`",
        ),
        (Flow::Response, Facet::AlternativeAdded) => Some(
            "generated clients keep an unknown alternative whole in the union's catch-all variant",
        ),
        (Flow::Response, Facet::Relaxed(_) | Facet::PatternRemoved | Facet::PatternChanged) => {
            Some("generated clients do not check responses against constraints")
        }
        _ => None,
    }
}
