//! Schemas the document gets wrong in a way JSON Schema cannot compile: `type: {…}` (a schema
//! written where a type name belongs), Swagger 2.0's `required: true` on a property, a type
//! name misspelt. Real specs have them, and one such keyword would make the whole contract
//! fail to load in the validator and the generated server. Each offending keyword is left out
//! of the contract, with a warning naming where it is; the schema keeps everything else. An
//! empty `enum`, valid but admitting nothing, is warned about and kept.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use rayon::prelude::*;
use serde_json::Value;

use super::state::{Builder, child};
use crate::ir::{Api, TypeKind};

/// How many passes repair makes; each removes every keyword the meta-schema rejects, and a
/// removal can only reveal errors below it, so a handful always suffices.
const PASSES: usize = 8;

/// Removes from `schema` the keywords that make it invalid against the JSON Schema 2020-12
/// meta-schema. Returns the JSON pointer (relative to `schema`) and the reason of each removal.
pub(super) fn repair(schema: &mut Value) -> Vec<(String, String)> {
    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
        // Not a schema at all (`Name: "object"`): nothing of it can be kept.
        let message = format!(
            "a schema must be an object or a boolean, not {schema}; the contract accepts any value here"
        );
        *schema = Value::Bool(true);
        return vec![(String::new(), message)];
    }
    let mut removed = repair_keywords(schema);
    let mut path = Vec::new();
    repair_patterns(schema, &mut path, &mut removed);
    empty_enums(schema, &mut path, &mut removed);
    removed
}

/// Notes each `enum: []` below `schema`: valid JSON Schema, which admits no value at all,
/// and almost always a mistake of the document (JSON Schema says the array SHOULD have an
/// element). Kept as written.
fn empty_enums(schema: &Value, path: &mut Vec<String>, found: &mut Vec<(String, String)>) {
    match schema {
        Value::Object(map) => {
            if matches!(map.get("enum"), Some(Value::Array(values)) if values.is_empty()) {
                path.push("enum".to_string());
                found.push((
                    pointer(path),
                    "an empty enum admits no value: every instance here is refused".to_string(),
                ));
                path.pop();
            }
            for (key, value) in map {
                // Instances, not schemas: an example may hold a member named `enum`.
                if matches!(
                    key.as_str(),
                    "example" | "examples" | "default" | "const" | "enum"
                ) {
                    continue;
                }
                path.push(key.clone());
                empty_enums(value, path, found);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(index.to_string());
                empty_enums(item, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The meta-schema part of [`repair`].
fn repair_keywords(schema: &mut Value) -> Vec<(String, String)> {
    let validator = jsonschema::draft202012::meta::validator();
    let mut removed = Vec::new();
    for _ in 0..PASSES {
        if validator.is_valid(schema) {
            break;
        }
        let mut offending: Vec<(Vec<String>, String)> = validator
            .iter_errors(schema)
            .map(|error| {
                let path = error
                    .instance_path()
                    .as_str()
                    .split('/')
                    .skip(1)
                    .map(crate::load::unescape_segment)
                    .collect::<Vec<_>>();
                (path, error.to_string())
            })
            .collect();
        offending.sort();
        offending.dedup_by(|a, b| a.0 == b.0);
        let mut progress = false;
        for (path, message) in offending {
            let keyword = keyword_path(schema, &path);
            if keyword.is_empty() {
                continue;
            }
            let (last, parent) = keyword.split_last().expect("not empty");
            if let Some(Value::Object(map)) = resolve_mut(schema, parent)
                && let Some(value) = map.remove(last)
            {
                progress = true;
                // The meta-schema's words for a misspelt type ("not valid under any of the
                // schemas listed in the 'anyOf' keyword") do not say what is wrong.
                let message = match (last.as_str(), &value) {
                    ("type", Value::String(word)) => format!(
                        "type \"{word}\" is not a JSON Schema type (array, boolean, integer, \
                         null, number, object or string)"
                    ),
                    _ => message,
                };
                removed.push((
                    crate::load::encode_pointer(&keyword).replacen('#', "", 1),
                    format!("{message}; `{last}` is left out of the contract"),
                ));
            }
        }
        if !progress {
            break;
        }
    }
    removed
}

impl Builder<'_> {
    /// Repairs every schema of the contract (see the module), warning at the place in the
    /// document each removed keyword comes from. The schemas are repaired side by side
    /// (rayon); their places are listed first, in document order, so the warnings keep it.
    pub(super) fn repair_contract(&mut self, api: &mut Api) {
        let mut schemas: Vec<(String, &mut Value)> = Vec::new();
        for (name, schema) in &mut api.schemas {
            schemas.push((child("#/components/schemas", name), schema));
        }
        let operations = api
            .operations
            .iter_mut()
            .chain(api.webhooks.iter_mut().map(|hook| &mut hook.operation));
        for op in operations {
            for param in &mut op.parameters {
                let place = parameter_schema(self.doc, &op.pointer, &param.name)
                    .unwrap_or_else(|| format!("{} (parameter {})", op.pointer, param.name));
                schemas.push((place, &mut param.schema));
            }
            if let Some(body) = &mut op.request_body {
                let place = media_schema(&child(&op.pointer, "requestBody"), &body.content_type);
                schemas.push((place, &mut body.schema));
            }
            for response in &mut op.responses {
                if let Some(body) = &mut response.body {
                    let at = child(&child(&op.pointer, "responses"), &response.status.key());
                    schemas.push((media_schema(&at, &body.content_type), &mut body.schema));
                }
            }
        }
        for def in &mut api.types {
            if let TypeKind::Union(union) = &mut def.kind {
                for variant in &mut union.variants {
                    schemas.push((def.origin.clone(), &mut variant.schema));
                }
            }
        }
        for example in &mut api.schema_examples {
            // The schema holding the example: its pointer without `/example` or `/examples/N`.
            let pointer = &example.example.pointer;
            let place = match pointer.rsplit_once("/examples/") {
                Some((schema, _)) => schema,
                None => pointer.trim_end_matches("/example"),
            };
            schemas.push((place.to_string(), &mut example.schema));
        }
        let removals: Vec<(String, Vec<(String, String)>)> = schemas
            .into_par_iter()
            .map(|(place, schema)| {
                let removed = repair(schema);
                (place, removed)
            })
            .collect();
        for (place, removed) in removals {
            for (pointer, message) in removed {
                self.warn(&format!("{place}{pointer}"), message);
            }
        }
    }
}

/// The pointer of the schema of parameter `name` of the operation at `operation`: in the
/// operation's own `parameters` or, failing that, in its path item's (each entry followed
/// through its `$ref`s), so that a warning about it has a line and column.
fn parameter_schema(doc: &crate::load::Document, operation: &str, name: &str) -> Option<String> {
    let path_item = operation.rsplit_once('/').map(|(item, _)| item)?;
    [operation, path_item].into_iter().find_map(|owner| {
        let list = child(owner, "parameters");
        let entries = doc.pointer(&list)?.as_array()?;
        entries.iter().enumerate().find_map(|(index, entry)| {
            let (parameter, at) = doc.deref(entry, &child(&list, &index.to_string())).ok()?;
            (parameter.get("name")?.as_str()? == name && parameter.get("schema").is_some())
                .then(|| child(&at, "schema"))
        })
    })
}

/// Keywords whose value is a schema, and whose value maps names to schemas.
const SUBSCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
const SUBSCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
const SUBSCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Fixes every `pattern` (and `patternProperties` name) that is not an ECMA-262 regular
/// expression the validator can compile: `\A` and `\Z`/`\z` (other engines' anchors, common in
/// specs written from Python or Ruby) become `^` and `$`; a pattern that still does not
/// compile is removed. Each change is reported like a removal.
fn repair_patterns(schema: &mut Value, path: &mut Vec<String>, found: &mut Vec<(String, String)>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(pattern)) = map.get("pattern").cloned() {
        path.push("pattern".into());
        match fixed_pattern(&pattern) {
            Fix::Keep => {}
            Fix::Rewrite(fixed) => {
                found.push((
                    pointer(path),
                    format!(
                        "pattern {pattern:?} uses anchors ECMA-262 lacks; the contract checks it as {fixed:?}"
                    ),
                ));
                map.insert("pattern".into(), Value::String(fixed));
            }
            Fix::Length {
                pattern: line,
                min,
                max,
            } => {
                let mut rules: Vec<String> = Vec::new();
                if min > 0 {
                    rules.push(format!("minLength {min}"));
                }
                rules.extend(max.map(|max| format!("maxLength {max}")));
                rules.extend(line.as_ref().map(|line| format!("pattern {line:?}")));
                let checked = if rules.is_empty() {
                    "leaves it out, as it matches any text".to_string()
                } else {
                    format!("checks it as {}", rules.join(" and "))
                };
                found.push((
                    pointer(path),
                    format!(
                        "pattern {pattern:?} counts characters beyond what the validator's regex \
                         engine compiles; the contract {checked}"
                    ),
                ));
                match line {
                    Some(line) => map.insert("pattern".into(), Value::String(line)),
                    None => map.remove("pattern"),
                };
                tighten(map, "minLength", min, u64::max);
                if let Some(max) = max {
                    tighten(map, "maxLength", max, u64::min);
                }
            }
            Fix::Fewer(fewer) => {
                found.push((
                    pointer(path),
                    format!(
                        "pattern {pattern:?} repeats beyond what the validator's regex engine \
                         compiles; a pattern searches the text, so the contract checks the \
                         same rule as {fewer:?}"
                    ),
                ));
                map.insert("pattern".into(), Value::String(fewer));
            }
            Fix::Drop => {
                found.push((
                    pointer(path),
                    format!(
                        "pattern {pattern:?} is not an ECMA-262 regular expression the validator \
                         compiles; it is left out of the contract"
                    ),
                ));
                map.remove("pattern");
            }
        }
        path.pop();
    }
    if let Some(Value::Object(by_pattern)) = map.get_mut("patternProperties") {
        let names: Vec<String> = by_pattern.keys().cloned().collect();
        for name in names {
            let fix = fixed_pattern(&name);
            if matches!(fix, Fix::Keep) {
                continue;
            }
            path.extend(["patternProperties".to_string(), name.clone()]);
            found.push((
                pointer(path),
                format!("pattern {name:?} is not an ECMA-262 regular expression"),
            ));
            path.truncate(path.len() - 2);
            let schema = by_pattern.remove(&name).unwrap_or(Value::Bool(true));
            if let Fix::Rewrite(fixed) | Fix::Fewer(fixed) = fix {
                by_pattern.insert(fixed, schema);
            }
        }
    }
    for (key, value) in map.iter_mut() {
        path.push(key.clone());
        if SUBSCHEMA.contains(&key.as_str()) {
            repair_patterns(value, path, found);
        } else if SUBSCHEMA_MAPS.contains(&key.as_str()) {
            if let Value::Object(entries) = value {
                for (name, entry) in entries.iter_mut() {
                    path.push(name.clone());
                    repair_patterns(entry, path, found);
                    path.pop();
                }
            }
        } else if SUBSCHEMA_LISTS.contains(&key.as_str())
            && let Value::Array(items) = value
        {
            for (index, item) in items.iter_mut().enumerate() {
                path.push(index.to_string());
                repair_patterns(item, path, found);
                path.pop();
            }
        }
        path.pop();
    }
}

enum Fix {
    Keep,
    Rewrite(String),
    /// A pattern that only counts characters (`^.{0,262144}$`, too large for the regex
    /// engine to compile): the same rule as lengths, and for `.` a pattern of one line.
    Length {
        pattern: Option<String>,
        min: u64,
        max: Option<u64>,
    },
    /// A pattern too large to compile whose open end's counted repetition can be narrowed
    /// to its least count without changing what it accepts (see
    /// [`searched_with_fewer_repeats`]).
    Fewer(String),
    Drop,
}

/// What `.` matches in ECMA-262: any character but a line terminator.
const NOT_A_LINE_END: &str = "[^\\n\\r\\u2028\\u2029]";

/// `^X{m,n}$`, `^X{m,}$` or `^X{n}$` where X is `.` (one line) or `[\s\S]`-like (any
/// character): the lengths and the pattern left, if any. Without `$`, a match may stop
/// early (patterns search), so only the first `m` characters are bound.
fn counted_any(pattern: &str) -> Option<(Option<String>, u64, Option<u64>)> {
    let body = pattern.strip_prefix('^')?;
    let (body, to_the_end) = match body.strip_suffix('$') {
        Some(body) => (body, true),
        None => (body, false),
    };
    let (dot, count) = if let Some(count) = body.strip_prefix('.') {
        (true, count)
    } else {
        let any = ["[\\s\\S]", "[\\S\\s]", "[\\d\\D]", "[\\w\\W]"];
        let count = any.iter().find_map(|x| body.strip_prefix(x))?;
        (false, count)
    };
    let inner = count.strip_prefix('{')?.strip_suffix('}')?;
    let number = |text: &str| text.trim().parse::<u64>().ok();
    let (min, max) = match inner.split_once(',') {
        None => {
            let n = number(inner)?;
            (n, Some(n))
        }
        Some((min, "")) => (number(min)?, None),
        Some((min, max)) => {
            let (min, max) = (number(min)?, number(max)?);
            (min <= max).then_some((min, Some(max)))?
        }
    };
    if to_the_end {
        let pattern = dot.then(|| format!("^{NOT_A_LINE_END}*$"));
        return Some((pattern, min, max));
    }
    // Only a start too long to compile is worth rewriting; `^.{0,n}` matches any text.
    if min > 1000 {
        return None;
    }
    let pattern = (dot && min > 0).then(|| format!("^{NOT_A_LINE_END}{{{min}}}"));
    Some((pattern, min, None))
}

/// Sets `keyword` to `value`, or keeps the stricter of it and what the schema already says.
fn tighten(
    map: &mut serde_json::Map<String, Value>,
    keyword: &str,
    value: u64,
    stricter: fn(u64, u64) -> u64,
) {
    if keyword == "minLength" && value == 0 {
        return;
    }
    let value = match map.get(keyword).and_then(Value::as_u64) {
        Some(written) => stricter(written, value),
        None => value,
    };
    map.insert(keyword.into(), Value::from(value));
}

fn fixed_pattern(pattern: &str) -> Fix {
    if compiles(pattern) {
        return Fix::Keep;
    }
    if let Some((pattern, min, max)) = counted_any(pattern) {
        return Fix::Length { pattern, min, max };
    }
    let rewritten = pattern
        .replace("\\A", "^")
        .replace("\\Z", "$")
        .replace("\\z", "$");
    if rewritten != pattern && compiles(&rewritten) {
        return Fix::Rewrite(rewritten);
    }
    match searched_with_fewer_repeats(pattern) {
        Some(fewer) if compiles(&fewer) => Fix::Fewer(fewer),
        _ => Fix::Drop,
    }
}

/// A pattern searches: it holds when some part of the text matches it. So a counted
/// repetition at an end left open (`X{m,n}` with no `$` after it, or before it with no `^`)
/// holds exactly when `X{m}` does (AWS's `[^\p{C}]{1,2048}` is "one character that is not a
/// control character"), and `X{m}` is far smaller for the regex engine to compile. `None` when
/// neither end is such a repetition or nothing would change.
fn searched_with_fewer_repeats(pattern: &str) -> Option<String> {
    // A closed end (`$`, `^`) is no counted repetition, so neither is found there.
    let mut fewer = pattern.to_string();
    if let Some((start, inner_start)) = trailing_count(&fewer)
        && let Some(least) = least_of(&fewer[inner_start..fewer.len() - 1])
    {
        fewer.replace_range(start.., &format!("{{{least}}}"));
    }
    if let Some((atom_end, count_end)) = leading_count(&fewer)
        && let Some(least) = least_of(&fewer[atom_end + 1..count_end - 1])
    {
        fewer.replace_range(atom_end..count_end, &format!("{{{least}}}"));
    }
    (fewer != pattern).then_some(fewer)
}

/// The least count of a quantifier's inside (`1,2048` → 1, `3,` → 3, `5` → 5), when it is a
/// range worth narrowing.
fn least_of(inner: &str) -> Option<u64> {
    let (least, most) = inner.split_once(',')?;
    let least: u64 = least.trim().parse().ok()?;
    let most = most.trim();
    (most.is_empty() || most.parse::<u64>().is_ok_and(|most| most >= least)).then_some(least)
}

/// Where the counted quantifier ending `pattern` starts (its `{`), and where its inside
/// starts, when the quantifier follows an atom (a class, an escape, `.`, a group or a
/// character).
fn trailing_count(pattern: &str) -> Option<(usize, usize)> {
    let open = pattern.strip_suffix('}')?.rfind('{')?;
    let inside = &pattern[open + 1..pattern.len() - 1];
    if open == 0 || !inside.chars().all(|c| c.is_ascii_digit() || c == ',') {
        return None;
    }
    // `\{…}` would be a literal brace, not a quantifier.
    let before = &pattern[..open];
    let escapes = before.chars().rev().take_while(|c| *c == '\\').count();
    (escapes % 2 == 0).then_some((open, open + 1))
}

/// The end of the atom a pattern starts with and the end of the counted quantifier after
/// it, when it starts with one: `[…]{m,n}`, `\p{…}{m,n}`, `\d{m,n}`, `.{m,n}`, `(…){m,n}`.
fn leading_count(pattern: &str) -> Option<(usize, usize)> {
    let atom_end = atom_length(pattern)?;
    let rest = &pattern[atom_end..];
    let inside = rest.strip_prefix('{')?;
    let close = inside.find('}')?;
    if !inside[..close]
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',')
    {
        return None;
    }
    Some((atom_end, atom_end + close + 2))
}

/// The length in bytes of the atom at the start of `pattern`.
fn atom_length(pattern: &str) -> Option<usize> {
    let mut chars = pattern.char_indices().peekable();
    let (_, first) = chars.next()?;
    match first {
        '[' => {
            let mut escaped = false;
            for (index, c) in chars {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    ']' => return Some(index + 1),
                    _ => {}
                }
            }
            None
        }
        '(' => {
            let (mut depth, mut escaped, mut in_class) = (1usize, false, false);
            for (index, c) in chars {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '[' => in_class = true,
                    ']' => in_class = false,
                    '(' if !in_class => depth += 1,
                    ')' if !in_class => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
            }
            None
        }
        '\\' => {
            let (index, c) = chars.next()?;
            if matches!(c, 'p' | 'P') && pattern[index + 1..].starts_with('{') {
                let close = pattern[index..].find('}')?;
                Some(index + close + 1)
            } else {
                Some(index + c.len_utf8())
            }
        }
        '^' | '$' | '|' | ')' | '{' | '*' | '+' | '?' => None,
        other => Some(other.len_utf8()),
    }
}

/// Whether the validator (the `jsonschema` crate, as the contract's readers use it, formats
/// asserted) compiles `pattern`: the meta-schema's `format: regex` wants ECMA-262, which is
/// stricter than the regex engine itself (it refuses `\A`).
///
/// Each verdict is kept for the process: specs repeat their patterns (Seldon's 13 KB spec has
/// `^.{1,2097152}` 30 times), and compiling a large counted repetition takes the regex engine
/// about 50 ms each time.
fn compiles(pattern: &str) -> bool {
    static VERDICTS: LazyLock<Mutex<HashMap<String, bool>>> = LazyLock::new(Default::default);
    let known = VERDICTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(pattern)
        .copied();
    if let Some(verdict) = known {
        return verdict;
    }
    let schema = serde_json::json!({ "pattern": pattern });
    let verdict = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema)
        .is_ok();
    VERDICTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(pattern.to_string(), verdict);
    verdict
}

fn pointer(path: &[String]) -> String {
    crate::load::encode_pointer(path).replacen('#', "", 1)
}

/// The pointer of the schema of a request or response body with this media type.
fn media_schema(owner: &str, content_type: &str) -> String {
    child(&child(&child(owner, "content"), content_type), "schema")
}

/// The path of the keyword holding the value at `path`: the path itself when its last step is
/// a key of an object, else (an array entry) the array's key.
fn keyword_path(schema: &Value, path: &[String]) -> Vec<String> {
    let mut keyword = path.to_vec();
    while let Some((_, parent)) = keyword.split_last() {
        if matches!(resolve(schema, parent), Some(Value::Object(_))) {
            return keyword;
        }
        keyword.pop();
    }
    keyword
}

fn resolve<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, step| match node {
        Value::Object(map) => map.get(step),
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        _ => None,
    })
}

fn resolve_mut<'v>(value: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, step| match node {
        Value::Object(map) => map.get_mut(step),
        Value::Array(items) => items.get_mut(step.parse::<usize>().ok()?),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_value_that_is_not_a_schema_becomes_true() {
        let mut schema = serde_json::json!("object");
        let removed = super::repair(&mut schema);
        assert_eq!(schema, serde_json::json!(true));
        assert_eq!(removed.len(), 1);
        assert!(removed[0].1.contains("not \"object\""), "{removed:?}");
    }

    use super::repair;
    use serde_json::json;

    #[test]
    fn keywords_the_meta_schema_rejects_are_removed_and_named() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "kind": {"type": {"enum": ["a"], "type": "string"}, "description": "kept"},
                "name": {"type": "string", "required": true},
                "size": {"type": "integer", "minimum": 0}
            }
        });
        let removed = repair(&mut schema);
        let pointers: Vec<&str> = removed.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            ["/properties/kind/type", "/properties/name/required"]
        );
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "kind": {"description": "kept"},
                    "name": {"type": "string"},
                    "size": {"type": "integer", "minimum": 0}
                }
            })
        );
    }

    #[test]
    fn a_bad_array_entry_removes_its_keyword() {
        let mut schema = json!({"required": ["a", 3], "type": "object"});
        let removed = repair(&mut schema);
        assert_eq!(removed.len(), 1);
        assert_eq!(schema, json!({"type": "object"}));
    }

    #[test]
    fn patterns_of_other_engines_are_rewritten_or_removed() {
        let mut schema = json!({
            "properties": {
                "host": {"type": "string", "pattern": "\\A[a-z]+\\Z"},
                "bad": {"type": "string", "pattern": "[unclosed"},
                "good": {"type": "string", "pattern": "^(?<!x)y$"},
                "pattern": {"type": "string"}
            },
            "patternProperties": {"^x-[a-z]+\\Z": {"type": "string"}}
        });
        let removed = repair(&mut schema);
        let pointers: Vec<&str> = removed.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/patternProperties/^x-[a-z]+\\Z",
                "/properties/host/pattern",
                "/properties/bad/pattern",
            ]
        );
        assert_eq!(schema["properties"]["host"]["pattern"], "^[a-z]+$");
        assert!(schema["properties"]["bad"].get("pattern").is_none());
        assert_eq!(schema["properties"]["good"]["pattern"], "^(?<!x)y$");
        assert!(schema["patternProperties"].get("^x-[a-z]+$").is_some());
    }

    #[test]
    fn a_pattern_that_only_counts_characters_becomes_lengths() {
        // Adyen's Terminal API and Seldon count up to hundreds of thousands of characters,
        // more than the regex engine compiles; the rule itself survives as lengths.
        let mut schema = json!({
            "properties": {
                "line": {"type": "string", "pattern": "^.{0,262144}$"},
                "text": {"type": "string", "pattern": "^[\\s\\S]{1,2097152}$", "maxLength": 10},
                "code": {"type": "string", "pattern": "^.{300000}$"},
                "short": {"type": "string", "pattern": "^.{0,20}$"}
            }
        });
        let removed = repair(&mut schema);
        let pointers: Vec<&str> = removed.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/properties/line/pattern",
                "/properties/text/pattern",
                "/properties/code/pattern"
            ]
        );
        assert!(
            removed[0]
                .1
                .contains("checks it as maxLength 262144 and pattern"),
            "{removed:?}"
        );
        let line = &schema["properties"]["line"];
        assert_eq!(line["maxLength"], 262_144);
        assert!(line.get("minLength").is_none());
        // The rewritten pattern keeps `.`'s meaning: one line, any length.
        let validator = jsonschema::validator_for(line).expect("compiles");
        assert!(validator.is_valid(&json!("a b\tc")));
        assert!(!validator.is_valid(&json!("a\nb")));
        assert!(!validator.is_valid(&json!("a\u{2028}b")));
        let text = &schema["properties"]["text"];
        assert_eq!(
            text,
            &json!({"type": "string", "minLength": 1, "maxLength": 10})
        );
        let code = &schema["properties"]["code"];
        assert_eq!(
            (&code["minLength"], &code["maxLength"]),
            (&json!(300_000), &json!(300_000))
        );
        assert_eq!(schema["properties"]["short"]["pattern"], "^.{0,20}$");
        // Without `$` only the start is bound: Seldon's `^.{1,2097152}` is one character
        // that ends no line, and at least one character.
        let mut start = json!({"type": "string", "pattern": "^.{1,2097152}"});
        assert_eq!(repair(&mut start).len(), 1);
        assert_eq!(start["minLength"], 1);
        assert!(start.get("maxLength").is_none());
        let validator = jsonschema::validator_for(&start).expect("compiles");
        assert!(validator.is_valid(&json!("a\nb")));
        assert!(!validator.is_valid(&json!("\nb")));
        for unlike in [
            "^.{2000,3000000}",
            ".{0,262144}$",
            "^a.{0,262144}$",
            "^.{9,3}$",
            "^.*$",
        ] {
            assert_eq!(super::counted_any(unlike), None, "{unlike}");
        }
    }

    #[test]
    fn a_search_needs_only_the_least_count_of_a_repetition_at_an_open_end() {
        // AWS's Smithy-made specs: too many repeats of a Unicode class for the regex engine.
        let mut schema = json!({
            "properties": {
                "text": {"type": "string", "pattern": "[^\\p{C}]{1,20000}"},
                "tail": {"type": "string", "pattern": "^id-[\\p{L}\\p{N}]{3,50000}"},
                "head": {"type": "string", "pattern": "\\p{L}{2,}-x$"},
                "group": {"type": "string", "pattern": "([\\p{L}]\\p{N}){1,30000}"}
            },
            "patternProperties": {"[^\\p{C}]{1,20000}": {"type": "string"}}
        });
        let found = repair(&mut schema);
        assert_eq!(found.len(), 4, "{found:?}");
        let properties = &schema["properties"];
        assert_eq!(properties["text"]["pattern"], "[^\\p{C}]{1}");
        assert_eq!(properties["tail"]["pattern"], "^id-[\\p{L}\\p{N}]{3}");
        assert_eq!(properties["group"]["pattern"], "([\\p{L}]\\p{N}){1}");
        // `{2,}` compiles as it is; nothing to narrow.
        assert_eq!(properties["head"]["pattern"], "\\p{L}{2,}-x$");
        assert!(schema["patternProperties"].get("[^\\p{C}]{1}").is_some());
        assert!(
            found[1].1.contains("the contract checks the same rule as"),
            "{found:?}"
        );
        // The same texts pass and fail as the written pattern would have them.
        let text = jsonschema::validator_for(&properties["text"]).expect("compiles");
        assert!(text.is_valid(&json!("\u{7}a")));
        assert!(!text.is_valid(&json!("\u{7}\u{8}")));
        assert!(!text.is_valid(&json!("")));
        let tail = jsonschema::validator_for(&properties["tail"]).expect("compiles");
        assert!(tail.is_valid(&json!("id-abc-and more")));
        assert!(!tail.is_valid(&json!("id-ab")));
        assert!(!tail.is_valid(&json!("x id-abc")));
        // Only an open end is narrowed: `^…{1,n}$` counts the whole text (and is not a
        // character count `counted_any` knows), while `…{1,n}$` only needs its last one.
        let mut closed = json!({"type": "string", "pattern": "^[^\\p{C}]{1,20000}$"});
        repair(&mut closed);
        assert!(closed.get("pattern").is_none(), "{closed}");
        let mut open_start = json!({"type": "string", "pattern": "[^\\p{C}]{1,20000}$"});
        repair(&mut open_start);
        assert_eq!(open_start["pattern"], "[^\\p{C}]{1}$");
    }

    #[test]
    fn an_empty_enum_is_named_and_kept() {
        let mut schema = json!({"properties": {"e": {"type": "string", "enum": []}},
                                "examples": [{"enum": []}]});
        let before = schema.clone();
        assert_eq!(
            repair(&mut schema),
            [(
                "/properties/e/enum".to_string(),
                "an empty enum admits no value: every instance here is refused".to_string()
            )]
        );
        assert_eq!(schema, before);
    }

    #[test]
    fn a_valid_schema_is_left_alone() {
        let mut schema = json!({"type": ["string", "null"], "pattern": "^a"});
        assert!(repair(&mut schema).is_empty());
        assert_eq!(schema, json!({"type": ["string", "null"], "pattern": "^a"}));
    }
}
