//! Property tests over the loader and the whole generation: documents mutated from the
//! fixtures, the corpus and the spec, as text (YAML that no longer parses, or parses into
//! something else) and as structure (keys, values and subtrees replaced, deleted, inserted or
//! copied elsewhere, then written as JSON). Whatever the document, specgen must not panic: it
//! generates, or it refuses with an error that names where, the JSON pointer with its line
//! and column, or the line and column of text that does not parse.
//!
//! A short run with a fixed seed is part of `cargo test`. A longer one:
//!
//! ```sh
//! SPECGEN_FUZZ_CASES=20000 cargo test -p specgen --test fuzz -- --nocapture
//! ```
//!
//! (`SPECGEN_FUZZ_SEED=N` for other inputs than the fixed seed's.) A failure is shrunk to the
//! smallest mutation list that still fails, and printed with the document it made.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Map, Value};
use specgen::{Error, Options};

/// Inputs a default `cargo test` tries, per property.
const SHORT_RUN: u32 = 40;

/// A document to mutate: its name and text.
struct Seed {
    name: String,
    text: String,
}

fn seeds() -> Vec<Seed> {
    let mut seeds = vec![Seed {
        name: "spec/openapi.yaml".into(),
        text: std::fs::read_to_string(common::spec_path()).unwrap(),
    }];
    for fixture in common::FIXTURES {
        // A document of several files needs its files; loaded from text it is only refused.
        if fixture.file.contains('/') {
            continue;
        }
        seeds.push(Seed {
            name: fixture.file.into(),
            text: std::fs::read_to_string(fixture.path()).unwrap(),
        });
    }
    for (file, _) in common::CORPUS {
        seeds.push(Seed {
            name: format!("corpus/{file}"),
            text: std::fs::read_to_string(common::corpus_dir().join(file)).unwrap(),
        });
    }
    seeds
}

/// The runner: a fixed seed (or `SPECGEN_FUZZ_SEED`), `SPECGEN_FUZZ_CASES` cases (else
/// [`SHORT_RUN`]), nothing persisted, failures shrunk.
fn runner() -> TestRunner {
    let cases = std::env::var("SPECGEN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(SHORT_RUN);
    let seed: u64 = std::env::var("SPECGEN_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(13);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Loads and generates `text`; `Ok` when it generates (`true`) or is refused as it should be
/// (`false`).
fn check(text: &str, source_name: &str) -> Result<bool, TestCaseError> {
    let outcome = specgen::load::load_str(text, source_name)
        .and_then(|doc| specgen::generate_crate(&doc, &Options::default()));
    match outcome {
        Ok(_) => Ok(true),
        Err(err) => check_error(&err).map(|()| false),
    }
}

/// A refusal must say where: the pointer and its position, or the position of bad text.
fn check_error(err: &Error) -> Result<(), TestCaseError> {
    let located = match err {
        Error::Parse { line, column, .. } => line.is_some() && column.is_some(),
        Error::Spec {
            pointer, location, ..
        }
        | Error::Unsupported {
            pointer, location, ..
        } => pointer.starts_with('#') && location.is_some(),
        // The document alone made an emitter fail (a specgen bug), or an error that has no
        // place in a document.
        Error::Emit { .. }
        | Error::Collision { .. }
        | Error::Option { .. }
        | Error::Io { .. }
        | Error::Write { .. } => false,
    };
    if located {
        Ok(())
    } else {
        Err(TestCaseError::fail(format!(
            "an error without its place in the document: {err}"
        )))
    }
}

/// How many inputs a property tried (shrinking included) and how many of them generated a
/// crate, for the long run's report.
#[derive(Default)]
struct Counts {
    tried: AtomicUsize,
    generated: AtomicUsize,
}

impl Counts {
    fn count(&self, generated: bool) {
        self.tried.fetch_add(1, Ordering::Relaxed);
        self.generated
            .fetch_add(usize::from(generated), Ordering::Relaxed);
    }

    fn report(&self, property: &str) {
        if std::env::var_os("SPECGEN_FUZZ_CASES").is_some() {
            eprintln!(
                "{property}: {} inputs tried, {} of them generated a crate",
                self.tried.load(Ordering::Relaxed),
                self.generated.load(Ordering::Relaxed)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Text mutations

/// Pieces of YAML syntax (and things a parser might choke on) to insert.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    ":",
    ": ",
    "- ",
    "\n",
    "  ",
    "# c",
    "&a ",
    "*a",
    "!t ",
    "|\n",
    ">-\n",
    "'",
    "\"",
    ",",
    "? ",
    "<<: ",
    "0x1F",
    "1e400",
    "~",
    "null",
    "\t",
    "%",
    "---\n",
    "...\n",
    "\u{feff}",
    "\\u0000",
    "$ref: '#/x'",
    "type: strin",
    "pattern: '[a-'",
    "- [[[[[[[[",
];

#[derive(Debug, Clone)]
enum TextEdit {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Duplicate { at: usize, len: usize },
    SwapLines { a: usize, b: usize },
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| TextEdit::Delete { at, len }),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| TextEdit::Insert { at, token }),
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| TextEdit::Duplicate { at, len }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| TextEdit::SwapLines { a, b }),
    ]
}

/// The char boundary at or before `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply_text_edit(text: &mut String, edit: &TextEdit) {
    match *edit {
        TextEdit::Delete { at, len } => {
            let start = boundary(text, at);
            let end = boundary(text, start + len.min(text.len() - start));
            text.replace_range(start..end, "");
        }
        TextEdit::Insert { at, token } => {
            let at = boundary(text, at);
            text.insert_str(at, TOKENS[token]);
        }
        TextEdit::Duplicate { at, len } => {
            let start = boundary(text, at);
            let end = boundary(text, start + len.min(text.len() - start));
            let piece = text[start..end].to_string();
            text.insert_str(end, &piece);
        }
        TextEdit::SwapLines { a, b } => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            let (a, b) = (a % lines.len(), b % lines.len());
            lines.swap(a, b);
            *text = lines.join("\n");
        }
    }
}

#[test]
fn text_mutations_generate_or_are_refused_with_a_position() {
    let seeds = seeds();
    let counts = Counts::default();
    let strategy = (0..seeds.len(), prop::collection::vec(text_edit(), 1..6));
    let result = runner().run(&strategy, |(seed, edits)| {
        let mut text = seeds[seed].text.clone();
        for edit in &edits {
            apply_text_edit(&mut text, edit);
        }
        let name = format!("{}.yaml", seeds[seed].name);
        let ok = check(&text, &name).map_err(|err| {
            TestCaseError::fail(format!("{err}\n--- {name} after {edits:?}:\n{text}"))
        })?;
        counts.count(ok);
        Ok(())
    });
    counts.report("text mutations");
    if let Err(err) = result {
        panic!("{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Structural mutations

/// Keys of OpenAPI and JSON Schema, to insert.
const KEYS: &[&str] = &[
    "$ref",
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "discriminator",
    "propertyName",
    "mapping",
    "nullable",
    "format",
    "pattern",
    "minLength",
    "maximum",
    "exclusiveMinimum",
    "additionalProperties",
    "patternProperties",
    "prefixItems",
    "example",
    "examples",
    "default",
    "x-rust-type",
    "x-extensible-enum",
    "x-crate-name",
    "x-delivery-path",
    "operationId",
    "parameters",
    "in",
    "name",
    "schema",
    "requestBody",
    "responses",
    "content",
    "application/json",
    "200",
    "4XX",
    "default",
    "security",
    "securitySchemes",
    "webhooks",
    "components",
    "schemas",
    "paths",
    "/a/{id}",
    "get",
    "post",
    "servers",
    "url",
    "description",
    "title",
    "$defs",
    "readOnly",
    "headers",
    "callbacks",
    "openapi",
    "info",
    "version",
    "value",
    "A",
    "a b",
    "",
];

/// Strings a document might hold where it matters.
const STRINGS: &[&str] = &[
    "#/components/schemas/A",
    "#/components/schemas",
    "#/components/schemas/Account",
    "#/components/schemas/Thing/properties/id",
    "#",
    "#/paths",
    "#/paths/~1a~1{id}/get",
    "#/components/parameters/P",
    "#/components/responses/R",
    "#/definitions/A",
    "other.yaml#/X",
    "http://example.com/x.yaml#/A",
    "#foo",
    "#/components/schemas/%zz",
    "[a-",
    "^[a-z]+$",
    "string",
    "object",
    "array",
    "integer",
    "number",
    "boolean",
    "null",
    "strin",
    "date-time",
    "date",
    "uuid",
    "byte",
    "double",
    "int64",
    "3.0.3",
    "3.1.0",
    "2.0",
    "header",
    "query",
    "path",
    "cookie",
    "apiKey",
    "http",
    "bearer",
    "a b",
    "",
    "fn",
    "Vec<",
    "u8",
    "::std::string::String",
    "ünï",
    "~1",
    "/",
    "{id}",
    "my crate!",
    "1abc",
    "application/json",
    "text/plain",
    "200",
    "default",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..300).prop_map(Value::from),
        prop_oneof![Just(-1.5f64), Just(0.1), Just(1e300), Just(-0.0)].prop_map(Value::from),
        (0..STRINGS.len()).prop_map(|i| Value::String(STRINGS[i].into())),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((0..KEYS.len(), inner), 0..4).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (KEYS[key].to_string(), value))
                        .collect(),
                )
            }),
        ]
    })
}

#[derive(Debug, Clone)]
enum Edit {
    /// The node at this index (pre-order) becomes the value.
    Replace { at: usize, with: Value },
    /// The node at this index is removed from its parent.
    Delete { at: usize },
    /// The object at (or the nearest object above) this index gets the key, with the value.
    Insert { at: usize, key: usize, with: Value },
    /// The node at `to` becomes a copy of the node at `from` (a schema where a parameter
    /// was, a path item inside a schema, …).
    Copy { from: usize, to: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), json_value()).prop_map(|(at, with)| Edit::Replace { at, with }),
        any::<usize>().prop_map(|at| Edit::Delete { at }),
        (any::<usize>(), 0..KEYS.len(), json_value()).prop_map(|(at, key, with)| Edit::Insert {
            at,
            key,
            with
        }),
        (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Edit::Copy { from, to }),
    ]
}

/// Every node's path, in pre-order (the root first).
fn paths(value: &Value) -> Vec<Vec<String>> {
    fn walk(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    path.push(key.clone());
                    walk(inner, path, out);
                    path.pop();
                }
            }
            Value::Array(items) => {
                for (index, inner) in items.iter().enumerate() {
                    path.push(index.to_string());
                    walk(inner, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

fn node_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |node, segment| match node {
        Value::Object(map) => map.get_mut(segment),
        Value::Array(items) => items.get_mut(segment.parse::<usize>().ok()?),
        _ => None,
    })
}

fn apply_edit(doc: &mut Value, edit: &Edit) {
    let all = paths(doc);
    let pick = |at: usize| all[at % all.len()].clone();
    match edit {
        Edit::Replace { at, with } => {
            if let Some(node) = node_mut(doc, &pick(*at)) {
                *node = with.clone();
            }
        }
        Edit::Delete { at } => {
            let path = pick(*at);
            if let Some((last, parent)) = path.split_last() {
                match node_mut(doc, parent) {
                    Some(Value::Object(map)) => {
                        map.shift_remove(last);
                    }
                    Some(Value::Array(items)) => {
                        if let Ok(index) = last.parse::<usize>()
                            && index < items.len()
                        {
                            items.remove(index);
                        }
                    }
                    _ => {}
                }
            }
        }
        Edit::Insert { at, key, with } => {
            let mut path = pick(*at);
            loop {
                if let Some(Value::Object(map)) = node_mut(doc, &path) {
                    map.insert(KEYS[*key].to_string(), with.clone());
                    break;
                }
                if path.pop().is_none() {
                    break;
                }
            }
        }
        Edit::Copy { from, to } => {
            let source = node_mut(doc, &pick(*from)).map(|node| node.clone());
            if let (Some(source), Some(node)) = (source, node_mut(doc, &pick(*to))) {
                *node = source;
            }
        }
    }
}

/// A YAML document as JSON, mapping keys as JSON spells them (`200` → `"200"`).
fn yaml_to_json(value: serde_norway::Value) -> Value {
    match value {
        serde_norway::Value::Null => Value::Null,
        serde_norway::Value::Bool(b) => Value::Bool(b),
        serde_norway::Value::Number(n) => {
            serde_json::from_str(&n.to_string()).unwrap_or(Value::Null)
        }
        serde_norway::Value::String(s) => Value::String(s),
        serde_norway::Value::Sequence(items) => {
            Value::Array(items.into_iter().map(yaml_to_json).collect())
        }
        serde_norway::Value::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| {
                    let key = match yaml_to_json(key) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, yaml_to_json(value))
                })
                .collect::<Map<_, _>>(),
        ),
        serde_norway::Value::Tagged(tagged) => yaml_to_json(tagged.value),
    }
}

#[test]
fn structural_mutations_generate_or_are_refused_with_a_pointer_and_position() {
    let documents: Vec<(String, Value)> = seeds()
        .into_iter()
        .map(|seed| {
            let yaml: serde_norway::Value = serde_norway::from_str(&seed.text).unwrap();
            (seed.name, yaml_to_json(yaml))
        })
        .collect();
    let counts = Counts::default();
    let strategy = (0..documents.len(), prop::collection::vec(edit(), 1..8));
    let result = runner().run(&strategy, |(seed, edits)| {
        let (name, document) = &documents[seed];
        let mut document = document.clone();
        for edit in &edits {
            apply_edit(&mut document, edit);
        }
        let text = serde_json::to_string_pretty(&document).unwrap();
        let name = format!("{name}.json");
        let ok = check(&text, &name).map_err(|err| {
            TestCaseError::fail(format!("{err}\n--- {name} after {edits:?}:\n{text}"))
        })?;
        counts.count(ok);
        Ok(())
    });
    counts.report("structural mutations");
    if let Err(err) = result {
        panic!("{err}");
    }
}
