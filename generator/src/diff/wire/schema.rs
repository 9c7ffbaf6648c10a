//! Two versions of a schema, compared facet by facet (see [`crate::diff::checks::Facet`]).
//! Each pair of schemas (by pointer, per flow) is compared once; a later message that uses
//! the same pair only adds itself to the findings the first comparison made.

use std::collections::HashMap;

use serde_json::Value;

use super::shape::{Located, Shape, deref};
use crate::diff::checks::{Bound, Facet, Flow};
use crate::diff::collect::{Collector, Key};
use crate::diff::finding::Which;

/// Pairs of schemas already compared (`None` while the comparison is under way: a cycle).
pub(crate) type Memo = HashMap<(String, String, Flow), Option<Vec<Key>>>;

/// One message's schemas being compared.
pub(crate) struct Walk<'c, 'd> {
    pub out: &'c mut Collector<'d>,
    pub memo: &'c mut Memo,
    pub flow: Flow,
    /// The operation or webhook whose message this is.
    pub use_: &'c str,
}

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

    fn report(&mut self, facet: Facet, which: Which, pointer: &str, what: String) {
        self.out
            .schema(self.flow, facet, which, pointer, what, self.use_);
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

    /// Types and formats; false when they changed beyond comparison (nothing below is compared).
    fn types(&mut self, old: &Shape<'d>, new: &Shape<'d>) -> bool {
        let at = keyword_at(new, "type");
        let facet = match (&old.types, &new.types) {
            (None, None) => None,
            (Some(_), None) => Some(Facet::TypeWidened),
            (None, Some(_)) => Some(Facet::TypeNarrowed),
            (Some(a), Some(b)) => match (covers(b, a), covers(a, b)) {
                (true, true) => None,
                (true, false) => Some(Facet::TypeWidened),
                (false, true) => Some(Facet::TypeNarrowed),
                (false, false) => Some(Facet::TypeChanged),
            },
        };
        if let Some(facet) = facet {
            let what = format!(
                "type {} → {}",
                type_text(old.types.as_ref()),
                type_text(new.types.as_ref())
            );
            self.report(facet, Which::New, &at, what);
            return facet != Facet::TypeChanged;
        }
        self.format(old, new);
        true
    }

    fn format(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let old_format = old.format.as_ref().and_then(|f| f.value.as_str());
        let new_format = new.format.as_ref().and_then(|f| f.value.as_str());
        if old_format == new_format {
            return;
        }
        let single = new
            .types
            .as_ref()
            .filter(|types| types.len() == 1)
            .and_then(|types| types.iter().next().copied());
        // Integers and numbers: int32 < int64 (the default), float < double (the default).
        let width = |format: Option<&str>| match (single, format) {
            (Some("integer"), None | Some("int64")) => Some(64),
            (Some("integer"), Some("int32")) => Some(32),
            (Some("number"), None | Some("double")) => Some(64),
            (Some("number"), Some("float")) => Some(32),
            _ => None,
        };
        let facet = match (width(old_format), width(new_format)) {
            (Some(a), Some(b)) if a == b => return,
            (Some(a), Some(b)) if b > a => Facet::TypeWidened,
            (Some(_), Some(_)) => Facet::TypeNarrowed,
            _ => match (old_format, new_format) {
                (None, Some(_)) => Facet::TypeNarrowed,
                (Some(_), None) => Facet::TypeWidened,
                _ => Facet::TypeChanged,
            },
        };
        let what = format!(
            "format {} → {}",
            old_format.unwrap_or("(none)"),
            new_format.unwrap_or("(none)")
        );
        let at = new
            .format
            .as_ref()
            .map_or_else(|| new.at.clone(), |f| f.at.clone());
        self.report(facet, Which::New, &at, what);
    }

    fn enums(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        match (&old.enumeration, &new.enumeration) {
            (Some((_, old_values)), Some((_, new_values))) => {
                for value in new_values {
                    if !old_values.iter().any(|o| o.value == value.value) {
                        let what = format!("enum value {} added", value_text(value.value));
                        self.report(Facet::EnumValueAdded, Which::New, &value.at, what);
                    }
                }
                for value in old_values {
                    if !new_values.iter().any(|n| n.value == value.value) {
                        let what = format!("enum value {} removed", value_text(value.value));
                        self.report(Facet::EnumValueRemoved, Which::Old, &value.at, what);
                    }
                }
            }
            (None, Some((at, values))) => {
                let what = format!("values restricted to {}", values_text(values));
                self.report(Facet::BecameEnum, Which::New, at, what);
            }
            (Some((_, values)), None) => {
                let (at, what) = match &new.extensible {
                    Some((at, _)) => (at.clone(), "enum made extensible (x-extensible-enum)"),
                    None => (new.at.clone(), "enum restriction dropped"),
                };
                let what = format!("{what}: was {}", values_text(values));
                self.report(Facet::EnumRemoved, Which::New, &at, what);
            }
            (None, None) => {}
        }
        if let (Some((_, old_values)), Some((_, new_values))) = (&old.extensible, &new.extensible) {
            for value in new_values {
                if !old_values.iter().any(|o| o.value == value.value) {
                    let what = format!("x-extensible-enum value {} added", value_text(value.value));
                    self.report(Facet::ExtensibleEnumValueAdded, Which::New, &value.at, what);
                }
            }
            for value in old_values {
                if !new_values.iter().any(|n| n.value == value.value) {
                    let what = format!(
                        "x-extensible-enum value {} removed",
                        value_text(value.value)
                    );
                    self.report(
                        Facet::ExtensibleEnumValueRemoved,
                        Which::Old,
                        &value.at,
                        what,
                    );
                }
            }
        }
    }

    fn bounds(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        for (bound, upper) in [
            (Bound::MaxLength, true),
            (Bound::MinLength, false),
            (Bound::MaxItems, true),
            (Bound::MinItems, false),
            (Bound::MaxProperties, true),
            (Bound::MinProperties, false),
        ] {
            let key = bound.keyword();
            let a = old.keywords.get(key);
            let b = new.keywords.get(key);
            let bound_of = |located: Option<&Located>| {
                located.and_then(|l| l.value.as_f64()).map(|v| (v, false))
            };
            self.bound(bound, upper, (bound_of(a), a), (bound_of(b), b));
        }
        for (bound, upper, exclusive) in [
            (Bound::Maximum, true, "exclusiveMaximum"),
            (Bound::Minimum, false, "exclusiveMinimum"),
        ] {
            let (a, a_at) = limit(old, bound.keyword(), exclusive, upper);
            let (b, b_at) = limit(new, bound.keyword(), exclusive, upper);
            self.bound(bound, upper, (a, a_at), (b, b_at));
        }
        self.multiple_of(old, new);
        let unique = |shape: &Shape| {
            shape
                .keywords
                .get("uniqueItems")
                .and_then(|l| l.value.as_bool())
                .unwrap_or(false)
        };
        match (unique(old), unique(new)) {
            (false, true) => {
                let at = keyword_at(new, "uniqueItems");
                let what = "uniqueItems set".to_string();
                self.report(Facet::Tightened(Bound::UniqueItems), Which::New, &at, what);
            }
            (true, false) => {
                let at = keyword_at(old, "uniqueItems");
                let what = "uniqueItems dropped".to_string();
                self.report(Facet::Relaxed(Bound::UniqueItems), Which::Old, &at, what);
            }
            _ => {}
        }
    }

    /// One bound: `(value, exclusive)` on each side, with where it is written.
    fn bound(
        &mut self,
        bound: Bound,
        upper: bool,
        old: (Option<(f64, bool)>, Option<&Located>),
        new: (Option<(f64, bool)>, Option<&Located>),
    ) {
        let name = bound.keyword();
        let shown = |(v, exclusive): (f64, bool)| {
            if exclusive {
                format!("{} (exclusive)", number_text(v))
            } else {
                number_text(v)
            }
        };
        let (facet, which, at, what) = match (old.0, new.0) {
            (None, None) => return,
            (None, Some(b)) => (
                Facet::Tightened(bound),
                Which::New,
                new.1,
                format!("{name} set to {}", shown(b)),
            ),
            (Some(a), None) => (
                Facet::Relaxed(bound),
                Which::Old,
                old.1,
                format!("{name} {} dropped", shown(a)),
            ),
            (Some(a), Some(b)) => {
                if a == b {
                    return;
                }
                // Stricter: a lower upper bound (or the same one made exclusive), a higher lower
                // bound.
                let stricter = if a.0 == b.0 {
                    b.1 && !a.1
                } else if upper {
                    b.0 < a.0
                } else {
                    b.0 > a.0
                };
                let facet = if stricter {
                    Facet::Tightened(bound)
                } else {
                    Facet::Relaxed(bound)
                };
                (
                    facet,
                    Which::New,
                    new.1,
                    format!("{name} {} → {}", shown(a), shown(b)),
                )
            }
        };
        let at = at.map(|l| l.at.clone()).unwrap_or_default();
        self.report(facet, which, &at, what);
    }

    fn multiple_of(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let get = |shape: &Shape<'d>| shape.keywords.get("multipleOf").cloned();
        let (a, b) = (get(old), get(new));
        let value = |l: &Located| l.value.as_f64().filter(|v| *v > 0.0);
        let (facet, which, at, what) = match (&a, &b) {
            (None, Some(b)) => (
                Facet::Tightened(Bound::MultipleOf),
                Which::New,
                b.at.clone(),
                format!("multipleOf set to {}", b.value),
            ),
            (Some(a), None) => (
                Facet::Relaxed(Bound::MultipleOf),
                Which::Old,
                a.at.clone(),
                format!("multipleOf {} dropped", a.value),
            ),
            (Some(a_at), Some(b_at)) => {
                let (Some(a), Some(b)) = (value(a_at), value(b_at)) else {
                    return;
                };
                if a == b {
                    return;
                }
                // Every multiple of b is one of a when b is a multiple of a: looser otherwise.
                let looser = (a / b).fract() == 0.0;
                let facet = if looser {
                    Facet::Relaxed(Bound::MultipleOf)
                } else {
                    Facet::Tightened(Bound::MultipleOf)
                };
                (
                    facet,
                    Which::New,
                    b_at.at.clone(),
                    format!("multipleOf {} → {}", a_at.value, b_at.value),
                )
            }
            (None, None) => return,
        };
        self.report(facet, which, &at, what);
    }

    fn pattern_and_default(&mut self, old: &Shape<'d>, new: &Shape<'d>) {
        let pattern = |shape: &Shape<'d>| shape.keywords.get("pattern").cloned();
        match (pattern(old), pattern(new)) {
            (None, Some(b)) => {
                let what = format!("pattern {} set", b.value);
                self.report(Facet::PatternAdded, Which::New, &b.at, what);
            }
            (Some(a), None) => {
                let what = format!("pattern {} dropped", a.value);
                self.report(Facet::PatternRemoved, Which::Old, &a.at, what);
            }
            (Some(a), Some(b)) if a.value != b.value => {
                let what = format!("pattern {} → {}", a.value, b.value);
                self.report(Facet::PatternChanged, Which::New, &b.at, what);
            }
            _ => {}
        }
        let default = |shape: &Shape<'d>| shape.keywords.get("default").cloned();
        let (which, at, what) = match (default(old), default(new)) {
            (None, Some(b)) => (Which::New, b.at, format!("default {} set", b.value)),
            (Some(a), None) => (Which::Old, a.at, format!("default {} dropped", a.value)),
            (Some(a), Some(b)) if a.value != b.value => (
                Which::New,
                b.at,
                format!("default {} → {}", a.value, b.value),
            ),
            _ => return,
        };
        self.report(Facet::DefaultChanged, which, &at, what);
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

/// Whether the types `a` admit every value of the types `b` (`number` admits `integer`).
fn covers(a: &std::collections::BTreeSet<&str>, b: &std::collections::BTreeSet<&str>) -> bool {
    b.iter()
        .all(|t| a.contains(t) || (*t == "integer" && a.contains("number")))
}

/// The pointer of a keyword of the schema, or of the schema when it lacks it.
fn keyword_at(shape: &Shape, keyword: &str) -> String {
    match shape.value.and_then(|v| v.get(keyword)) {
        Some(_) => crate::load::join(&shape.at, keyword),
        None => shape.at.clone(),
    }
}

/// An upper (or lower) limit from `maximum` and `exclusiveMaximum`: the stricter of both.
fn limit<'a, 'd>(
    shape: &'a Shape<'d>,
    inclusive: &str,
    exclusive: &str,
    upper: bool,
) -> (Option<(f64, bool)>, Option<&'a Located<'d>>) {
    let inclusive = shape.keywords.get(inclusive);
    let exclusive = shape.keywords.get(exclusive);
    let a = inclusive.and_then(|l| l.value.as_f64()).map(|v| (v, false));
    let b = exclusive.and_then(|l| l.value.as_f64()).map(|v| (v, true));
    match (a, b) {
        (Some(a), Some(b)) => {
            let b_stricter = if upper { b.0 <= a.0 } else { b.0 >= a.0 };
            if b_stricter {
                (Some(b), exclusive)
            } else {
                (Some(a), inclusive)
            }
        }
        (Some(a), None) => (Some(a), inclusive),
        (None, Some(b)) => (Some(b), exclusive),
        (None, None) => (None, None),
    }
}

fn number_text(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

fn type_text(types: Option<&std::collections::BTreeSet<&str>>) -> String {
    match types {
        None => "any".to_string(),
        Some(types) if types.is_empty() => "none".to_string(),
        Some(types) => types.iter().copied().collect::<Vec<_>>().join("|"),
    }
}

/// A JSON value in a message: strings in backticks, the rest as JSON.
pub(crate) fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => format!("`{text}`"),
        other => format!("`{other}`"),
    }
}

fn values_text(values: &[Located]) -> String {
    let shown: Vec<String> = values.iter().map(|l| value_text(l.value)).collect();
    format!("[{}]", shown.join(", "))
}

/// An alternative by the component it names, or its pointer.
fn alternative_text(target: &str) -> String {
    match target.strip_prefix("#/components/schemas/") {
        Some(name) if !name.contains('/') => format!("`{name}`"),
        _ => format!("at {target}"),
    }
}
