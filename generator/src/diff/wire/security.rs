//! Security requirements of an operation, and the schemes they use.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::operation::Op;
use crate::diff::checks::Structural;
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use crate::load::{Document, join};

/// One alternative of a security requirement: scheme → scopes.
type Requirement = BTreeMap<String, BTreeSet<String>>;

/// The requirements in force for an operation (its own, else the document's) and where they
/// are written.
fn effective(doc: &Document, op: &Op) -> (Vec<Requirement>, String) {
    let (list, at) = match op.value.get("security") {
        Some(list) => (Some(list), join(&op.at, "security")),
        None => (doc.root.get("security"), "#/security".to_string()),
    };
    let requirements = list
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_object)
                .map(|requirement| {
                    requirement
                        .iter()
                        .map(|(scheme, scopes)| {
                            let scopes = scopes
                                .as_array()
                                .map(|s| {
                                    s.iter()
                                        .filter_map(Value::as_str)
                                        .map(str::to_string)
                                        .collect()
                                })
                                .unwrap_or_default();
                            (scheme.clone(), scopes)
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default();
    let at = if doc.pointer(&at).is_some() {
        at
    } else {
        op.at.clone()
    };
    (requirements, at)
}

/// Whether anyone may call (no requirement, or an empty alternative).
fn anonymous(requirements: &[Requirement]) -> bool {
    requirements.is_empty() || requirements.iter().any(BTreeMap::is_empty)
}

/// Whether a client that meets `had` also meets `needs` (the schemes and scopes it asks for
/// are among those it has).
fn satisfies(had: &Requirement, needs: &Requirement) -> bool {
    needs
        .iter()
        .all(|(scheme, scopes)| had.get(scheme).is_some_and(|have| scopes.is_subset(have)))
}

fn text(requirement: &Requirement) -> String {
    let parts: Vec<String> = requirement
        .iter()
        .map(|(scheme, scopes)| {
            if scopes.is_empty() {
                scheme.clone()
            } else {
                let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
                format!("{scheme} ({})", scopes.join(", "))
            }
        })
        .collect();
    format!("[{}]", parts.join(" + "))
}

/// Compares the requirements of two versions of an operation, and the schemes they use.
pub(crate) fn compare(out: &mut Collector, old: &Op, new: &Op, use_: &str) {
    let (old_list, _) = effective(out.old, old);
    let (new_list, at) = effective(out.new, new);
    match (anonymous(&old_list), anonymous(&new_list)) {
        (true, false) => out.structural(
            Structural::SecurityAdded,
            Which::New,
            &at,
            format!("{use_}: now requires {}", alternatives(&new_list)),
            use_,
        ),
        (false, true) => out.structural(
            Structural::SecurityRemoved,
            Which::New,
            &at,
            format!("{use_}: no longer requires credentials"),
            use_,
        ),
        (false, false) => requirements(out, &old_list, &new_list, &at, use_),
        (true, true) => {}
    }
    schemes(out, &old_list, &new_list, use_);
}

fn alternatives(list: &[Requirement]) -> String {
    list.iter().map(text).collect::<Vec<_>>().join(" or ")
}

fn requirements(
    out: &mut Collector,
    old: &[Requirement],
    new: &[Requirement],
    at: &str,
    use_: &str,
) {
    for had in old {
        if new.iter().any(|needs| satisfies(had, needs)) {
            continue;
        }
        let same_schemes = new
            .iter()
            .find(|needs| needs.keys().all(|scheme| had.contains_key(scheme)));
        match same_schemes {
            Some(needs) => out.structural(
                Structural::SecurityScopeAdded,
                Which::New,
                at,
                format!("{use_}: {} now needs {}", text(had), text(needs)),
                use_,
            ),
            None => out.structural(
                Structural::SecurityRequirementRemoved,
                Which::New,
                at,
                format!(
                    "{use_}: {} is no longer accepted; now {}",
                    text(had),
                    alternatives(new)
                ),
                use_,
            ),
        }
    }
    for needs in new {
        if old.contains(needs) {
            continue;
        }
        // The same schemes with other scopes: fewer is reported here, more (or others) above.
        let same_schemes: Vec<&Requirement> = old
            .iter()
            .filter(|had| had.keys().eq(needs.keys()))
            .collect();
        match same_schemes.iter().find(|had| satisfies(had, needs)) {
            Some(had) => out.structural(
                Structural::SecurityScopeRemoved,
                Which::New,
                at,
                format!("{use_}: {} now needs only {}", text(had), text(needs)),
                use_,
            ),
            None if same_schemes.is_empty() => out.structural(
                Structural::SecurityRequirementAdded,
                Which::New,
                at,
                format!("{use_}: {} is now accepted", text(needs)),
                use_,
            ),
            None => {}
        }
    }
}

/// The fields of a security scheme that decide how a credential travels.
fn scheme_shape(doc: &Document, name: &str) -> Option<(String, Vec<(String, String)>)> {
    let at = join("#/components/securitySchemes", name);
    let value = doc.pointer(&at)?;
    let (value, at) = doc.deref(value, &at).ok()?;
    let fields = ["type", "in", "name", "scheme"]
        .iter()
        .filter_map(|key| {
            let text = value.get(*key)?.as_str()?;
            let text = if *key == "scheme" {
                text.to_ascii_lowercase()
            } else {
                text.to_string()
            };
            Some((key.to_string(), text))
        })
        .collect();
    Some((at, fields))
}

fn schemes(out: &mut Collector, old: &[Requirement], new: &[Requirement], use_: &str) {
    let used = |list: &[Requirement]| -> BTreeSet<String> {
        list.iter().flat_map(|r| r.keys().cloned()).collect()
    };
    let (old_used, new_used) = (used(old), used(new));
    for name in old_used.intersection(&new_used) {
        let (Some((_, before)), Some((at, after))) =
            (scheme_shape(out.old, name), scheme_shape(out.new, name))
        else {
            continue;
        };
        if before != after {
            let show = |fields: &[(String, String)]| {
                fields
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.structural(
                Structural::SecuritySchemeChanged,
                Which::New,
                &at,
                format!(
                    "security scheme {name}: {} → {}",
                    show(&before),
                    show(&after)
                ),
                use_,
            );
        }
    }
}
