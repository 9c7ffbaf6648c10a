//! Two versions of a schema, compared facet by facet (see [`crate::diff::checks::Facet`]).
//! Each pair of schemas (by pointer, per flow) is compared once; a later message that uses
//! the same pair only adds itself to the findings the first comparison made.
//!
//! This file walks the two schemas (properties, items, alternatives); [`walk`] holds the
//! state of a walk, [`types`] and [`bounds`] compare one schema's own keywords.

mod bounds;
mod types;
mod walk;

use serde_json::Value;

use super::shape::{Located, Shape, deref};
use crate::diff::checks::{Facet, Flow};
use crate::diff::finding::Which;
use walk::keyword_at;

pub(crate) use walk::{Memo, Walk};

impl<'d> Walk<'_, 'd> {
    /// Compares the schema `old` (at its pointer in the old document) with `new`.
    pub fn compare(&mut self, old: (&'d Value, &str), new: (&'d Value, &str)) {
        let (old_value, old_at) = deref(self.out.old, old.0, old.1);
        let (new_value, new_at) = deref(self.out.new, new.0, new.1);
        let key = (old_at, new_at, self.flow);
        match self.memo.get(&key) {
            Some(Some(keys)) => {
                let keys = keys.clone();
                self.out.reach(&keys, self.use_);
                return;
            }
            Some(None) => return,
            None => {}
        }
        if old_value == new_value && !contains_ref(old_value) {
            self.memo.insert(key, Some(Vec::new()));
            return;
        }
        self.memo.insert(key.clone(), None);
        let mark = self.out.mark();
        let old_shape = Shape::of(self.out.old, old_value, &key.0);
        let new_shape = Shape::of(self.out.new, new_value, &key.1);
        self.shapes(&old_shape, &new_shape);
        let keys = self.out.since(mark);
        self.memo.insert(key, Some(keys));
    }
    fn shapes(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        match (old.nullable, new.nullable) {
            (false, true) => self.report(
                Facet::BecameNullable,
                Which::New,
                &new.at,
                "null is now allowed".into(),
            ),
            (true, false) => self.report(
                Facet::BecameNotNullable,
                Which::New,
                &new.at,
                "null is no longer allowed".into(),
            ),
            _ => {}
        }
        // A plain schema against a union: only the alternatives compare.
        if old.alternatives.is_empty() != new.alternatives.is_empty() {
            self.alternatives(old, new);
            return;
        }
        if !self.types(old, new) {
            return;
        }
        self.enums(old, new);
        self.bounds(old, new);
        self.pattern_and_default(old, new);
        if old.may_be_object() && new.may_be_object() {
            self.properties(old, new);
        }
        if let (Some(old_items), Some(new_items)) = (&old.items, &new.items) {
            self.compare(
                (old_items.value, &old_items.at),
                (new_items.value, &new_items.at),
            );
        }
        self.alternatives(old, new);
        self.discriminator(old, new);
    }
    fn properties(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        for (name, new_property) in &new.properties {
            let old_property = old.properties.iter().find(|(own, _)| own == name);
            if self.skipped(Which::New, new_property) {
                continue;
            }
            let required = new.required.contains(name);
            match old_property {
                Some((_, old_property)) => {
                    match (old.required.contains(name), required) {
                        (false, true) => self.report(
                            Facet::PropertyBecameRequired,
                            Which::New,
                            &new_property.at,
                            "became required".into(),
                        ),
                        (true, false) => self.report(
                            Facet::PropertyBecameOptional,
                            Which::New,
                            &new_property.at,
                            "became optional".into(),
                        ),
                        _ => {}
                    }
                    self.compare(
                        (old_property.value, &old_property.at),
                        (new_property.value, &new_property.at),
                    );
                }
                None => {
                    if old.closed {
                        self.report(
                            Facet::PropertyAddedToClosedSchema,
                            Which::New,
                            &new_property.at,
                            "added where the object was closed".into(),
                        );
                    }
                    if required {
                        self.report(
                            Facet::RequiredPropertyAdded,
                            Which::New,
                            &new_property.at,
                            "new required property".into(),
                        );
                    } else if !old.closed {
                        self.report(
                            Facet::OptionalPropertyAdded,
                            Which::New,
                            &new_property.at,
                            "new optional property".into(),
                        );
                    }
                }
            }
        }
        for (name, old_property) in &old.properties {
            if new.properties.iter().any(|(own, _)| own == name)
                || self.skipped(Which::Old, old_property)
            {
                continue;
            }
            let facet = if old.required.contains(name) {
                Facet::RequiredPropertyRemoved
            } else {
                Facet::OptionalPropertyRemoved
            };
            self.report(facet, Which::Old, &old_property.at, "removed".into());
            if new.closed {
                self.report(
                    Facet::PropertyRemovedFromClosedSchema,
                    Which::Old,
                    &old_property.at,
                    "removed, and the object is closed".into(),
                );
            }
        }
        match (old.closed, new.closed) {
            (true, false) => {
                let at = keyword_at(new, "additionalProperties");
                let what = "undeclared properties are now allowed".to_string();
                self.report(Facet::AdditionalPropertiesOpened, Which::New, &at, what);
            }
            (false, true) => {
                let at = keyword_at(new, "additionalProperties");
                let what = "undeclared properties are no longer allowed".to_string();
                self.report(Facet::AdditionalPropertiesClosed, Which::New, &at, what);
            }
            _ => {}
        }
        if let (Some(a), Some(b)) = (&old.additional, &new.additional) {
            self.compare((a.value, &a.at), (b.value, &b.at));
        }
    }

    /// Properties a message of this flow never carries: read-only ones in requests, write-only
    /// ones in responses.
    fn skipped(&self, which: Which, property: &Located<'d>) -> bool {
        let keyword = match self.flow {
            Flow::Request => "readOnly",
            Flow::Response => "writeOnly",
            Flow::WebhookPayload | Flow::WebhookReply => return false,
        };
        let (value, _) = deref(self.out.doc(which), property.value, &property.at);
        value.get(keyword).and_then(Value::as_bool) == Some(true)
    }

    fn alternatives(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        if old.alternatives.is_empty() && new.alternatives.is_empty() {
            return;
        }
        // A plain schema that became one alternative of a union (or the reverse) is compared
        // with that alternative; the others are added (removed).
        let mut old_list: Vec<(&'d Value, String, String)> = old
            .alternatives
            .iter()
            .map(|alt| {
                (
                    alt.value,
                    alt.at.clone(),
                    self.target(Which::Old, alt.value, &alt.at),
                )
            })
            .collect();
        let mut new_list: Vec<(&'d Value, String, String)> = new
            .alternatives
            .iter()
            .map(|alt| {
                (
                    alt.value,
                    alt.at.clone(),
                    self.target(Which::New, alt.value, &alt.at),
                )
            })
            .collect();
        let old_plain = old_list.is_empty();
        let new_plain = new_list.is_empty();
        if old_plain {
            old_list.push((
                old.value.unwrap_or(&Value::Null),
                old.at.clone(),
                old.at.clone(),
            ));
        }
        if new_plain {
            new_list.push((
                new.value.unwrap_or(&Value::Null),
                new.at.clone(),
                new.at.clone(),
            ));
        }
        let mut matched_new = vec![false; new_list.len()];
        let mut pairs = Vec::new();
        let mut unmatched_old = Vec::new();
        for (index, (_, _, target)) in old_list.iter().enumerate() {
            match new_list
                .iter()
                .enumerate()
                .find(|(j, (_, _, t))| !matched_new[*j] && t == target)
            {
                Some((j, _)) => {
                    matched_new[j] = true;
                    pairs.push((index, j));
                }
                None => unmatched_old.push(index),
            }
        }
        // Inline alternatives (no shared target) pair up in order, unless one side is plain.
        if !old_plain && !new_plain {
            let free_new: Vec<usize> = (0..new_list.len()).filter(|j| !matched_new[*j]).collect();
            let mut free_new = free_new.into_iter();
            unmatched_old.retain(|&index| match free_new.next() {
                Some(j) if !is_reference(old_list[index].0) && !is_reference(new_list[j].0) => {
                    matched_new[j] = true;
                    pairs.push((index, j));
                    false
                }
                _ => true,
            });
        }
        if (old_plain || new_plain) && pairs.is_empty() {
            let what = if old_plain {
                "became a union of other schemas"
            } else {
                "is no longer a union, and none of its alternatives remains"
            };
            self.report(Facet::TypeChanged, Which::New, &new.at, what.into());
            return;
        }
        for (j, taken) in matched_new.iter().enumerate() {
            if !taken {
                let what = format!("alternative {} added", alternative_text(&new_list[j].2));
                self.report(Facet::AlternativeAdded, Which::New, &new_list[j].1, what);
            }
        }
        for index in unmatched_old {
            let what = format!(
                "alternative {} removed",
                alternative_text(&old_list[index].2)
            );
            self.report(
                Facet::AlternativeRemoved,
                Which::Old,
                &old_list[index].1,
                what,
            );
        }
        for (index, j) in pairs {
            if old_plain || new_plain {
                // The plain side is the schema being compared: compare its own facets with the
                // alternative's only if it was reached through a reference (else it is the
                // same node and already compared above).
                if old_list[index].2 == old.at && new_list[j].2 == new.at {
                    continue;
                }
            }
            let (old_value, old_at, _) = &old_list[index];
            let (new_value, new_at, _) = &new_list[j];
            let (old_value, new_value) = (*old_value, *new_value);
            let (old_at, new_at) = (old_at.clone(), new_at.clone());
            self.compare((old_value, &old_at), (new_value, &new_at));
        }
    }

    /// The pointer a schema resolves to.
    fn target(&self, which: Which, value: &'d Value, at: &str) -> String {
        deref(self.out.doc(which), value, at).1
    }

    fn discriminator(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let (Some(a), Some(b)) = (&old.discriminator, &new.discriminator) else {
            return;
        };
        fn name<'v>(l: &Located<'v>) -> Option<&'v str> {
            l.value.get("propertyName").and_then(Value::as_str)
        }
        if name(a) != name(b) {
            let what = format!(
                "discriminator property {} → {}",
                name(a).unwrap_or("?"),
                name(b).unwrap_or("?")
            );
            self.report(Facet::DiscriminatorChanged, Which::New, &b.at, what);
            return;
        }
        let mapping = |l: &Located<'d>| l.value.get("mapping").and_then(Value::as_object);
        if let (Some(old_map), Some(new_map)) = (mapping(a), mapping(b)) {
            for (tag, target) in new_map {
                if let Some(old_target) = old_map.get(tag).filter(|t| *t != target) {
                    let what =
                        format!("discriminator value `{tag}` maps to {target}, was {old_target}");
                    self.report(Facet::DiscriminatorChanged, Which::New, &b.at, what);
                }
            }
            // A tag the mapping no longer names (removed, or renamed `cat` → `kitty`): a value
            // tagged so fits no alternative now.
            for (tag, old_target) in old_map {
                if !new_map.contains_key(tag) {
                    let what = format!(
                        "discriminator value `{tag}` (mapped to {old_target}) is no longer mapped"
                    );
                    self.report(Facet::DiscriminatorChanged, Which::Old, &a.at, what);
                }
            }
        }
    }
}

/// Whether a value holds a `$ref` anywhere.
fn contains_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(contains_ref),
        Value::Array(items) => items.iter().any(contains_ref),
        _ => false,
    }
}

fn is_reference(value: &Value) -> bool {
    value.get("$ref").is_some()
}

/// An alternative by the component it names, or its pointer.
fn alternative_text(target: &str) -> String {
    match target.strip_prefix("#/components/schemas/") {
        Some(name) if !name.contains('/') => format!("`{name}`"),
        _ => format!("at {target}"),
    }
}
