// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! A fuzz harness over specval's readers (HAR, JSON Lines), the checks and the four report
//! formats, as proptest properties (cargo-fuzz needs a nightly toolchain; this runs on
//! stable, as part of `cargo test`).
//!
//! Two kinds of input:
//!
//! - **mutated**: a file of the test corpus (`tests/traffic/`, `validator/tests/readers/`)
//!   with a few mutations: bytes flipped, JSON tokens and odd bytes inserted, ranges cut,
//!   repeated or the file truncated;
//! - **built**: traffic made from scratch (operations, unknown paths, notifications at
//!   merchant base paths, odd statuses and bodies), written as HAR or JSON Lines, then shaken
//!   (encoded twice, fields of the wrong type, a garbage line, cut off), with the credential
//!   headers of every request holding values that must never reach a report.
//!
//! The properties, for every input, read with a small entry limit (so that `too-large` is
//! reached too), strict, with and without `--show-values`:
//!
//! 1. nothing panics;
//! 2. no credential value of the input appears in any format (built inputs);
//! 3. the exit code is consistent: 2 exactly when an input could not be read to the end, else
//!    1 exactly when there is a finding; the report counts every exchange once; and a run
//!    spooled to disk (what `specval check` does) writes byte for byte what the in-memory
//!    report writes, in every format.
//!
//! `cargo test -p specval --test fuzz` runs a few dozen cases of each from a fixed seed. A
//! longer run (see the README): `SPECVAL_FUZZ_CASES=20000 SPECVAL_FUZZ_SEED=$RANDOM cargo test
//! --release -p specval --test fuzz -- --nocapture`; it prints how many inputs it tried. A
//! failure prints the input proptest shrank it to.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{Value, json};
use specval::Contract;
use specval::check::CheckOptions;
use specval::read::Limits;
use specval::report::records::{Records as _, Spool};
use specval::report::{self, Format, RunReport};
use specval::run::{RunOptions, run, run_into};

/// Credential values planted in the inputs.
const PUBLIC: &str = "pk_fuzz_NEVER_ECHO_7f3a";
const SECRET: &str = "sk_fuzz_NEVER_ECHO_91c2";

const FORMATS: [Format; 4] = [Format::Text, Format::Json, Format::Junit, Format::Sarif];

fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| Contract::embedded().expect("embedded contract"))
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// A runner with a fixed seed (`SPECVAL_FUZZ_SEED`) and `SPECVAL_FUZZ_CASES` cases.
fn runner(default_cases: u64) -> TestRunner {
    let config = Config {
        cases: env_number("SPECVAL_FUZZ_CASES", default_cases) as u32,
        rng_seed: RngSeed::Fixed(env_number("SPECVAL_FUZZ_SEED", 0x5eed_5eed)),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    };
    TestRunner::new(config)
}

/// The seed files: every traffic file of the tests, with the corpus's fake credentials
/// replaced by the planted ones.
fn seeds() -> &'static [(String, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dirs = [
            manifest.join("../tests/traffic"),
            manifest.join("../tests/traffic/corpus"),
            manifest.join("tests/readers"),
        ];
        let mut seeds = Vec::new();
        for dir in dirs {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("a corpus directory")
                .map(|entry| entry.expect("entry").path())
                .filter(|path| {
                    path.extension()
                        .is_some_and(|ext| ext == "har" || ext == "jsonl")
                })
                .collect();
            paths.sort();
            for path in paths {
                let bytes = std::fs::read(&path).expect("a corpus file");
                let bytes = replace(&bytes, b"pk_test_fake", PUBLIC.as_bytes());
                let bytes = replace(&bytes, b"sk_test_fake", SECRET.as_bytes());
                let name = path.file_name().expect("name").to_string_lossy();
                seeds.push((name.into_owned(), bytes));
            }
        }
        assert!(seeds.len() > 15, "only {} seed files", seeds.len());
        seeds
    })
}

fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        if rest.starts_with(from) {
            out.extend_from_slice(to);
            rest = &rest[from.len()..];
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The pipeline and its properties
// ---------------------------------------------------------------------------------------------

/// Inputs tried, over every property.
static TRIED: AtomicU64 = AtomicU64::new(0);

/// Runs the input as `specval check` would, in memory and spooled, strict, with and
/// without `--show-values`, and checks properties 1 and 3; returns every report written.
fn pipeline(name: &str, bytes: &[u8]) -> Result<Vec<Vec<u8>>, TestCaseError> {
    let tried = TRIED.fetch_add(1, Ordering::Relaxed) + 1;
    if tried.is_multiple_of(1000) {
        // A long run shows that it moves (with --nocapture).
        println!("fuzz: {tried} inputs tried");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write the input");
    let inputs = [path.to_string_lossy().into_owned()];
    let mut outputs = Vec::new();
    for show_values in [false, true] {
        let options = RunOptions {
            check: CheckOptions {
                strict: true,
                show_values,
            },
            keep_outcomes: true,
            progress: false,
            allow_empty: false,
            // Small, so that some inputs pass it.
            limits: Limits {
                max_entry: 16 << 10,
            },
        };
        let report = run(contract(), &inputs, options).expect("an in-memory run cannot fail");
        consistent(&report)?;
        let code = report::exit_code(&report, &report);
        for format in FORMATS {
            let mut written = Vec::new();
            report::write(&report, format, &mut written).expect("writing to memory");
            if format == Format::Json {
                let parsed: Value = serde_json::from_slice(&written).expect("the JSON report");
                prop_assert_eq!(
                    parsed["findings"].as_array().map(Vec::len),
                    Some(report.findings.len())
                );
            }
            // What `specval check` does: spool, then stream.
            let mut spool = Spool::new(format == Format::Junit).expect("spool");
            let spooled = run_into(contract(), &inputs, options, &mut spool).expect("spooled run");
            spool.finish().expect("spool");
            let mut streamed = Vec::new();
            report::write_records(&spooled, &spool, format, &mut streamed).expect("streaming");
            prop_assert_eq!(report::exit_code(&spooled, &spool), code, "{:?}", format);
            prop_assert!(
                streamed == written,
                "{:?}: the spooled report differs from the in-memory one",
                format
            );
            outputs.push(written);
        }
    }
    Ok(outputs)
}

/// Property 3 on one report.
fn consistent(report: &RunReport) -> Result<(), TestCaseError> {
    let code = report::exit_code(report, report);
    let expected = if !report.unreadable.is_empty() {
        2
    } else if report.findings.is_empty() {
        0
    } else {
        1
    };
    prop_assert_eq!(code, expected);
    let counted: u64 = report.per_operation.values().map(|s| s.exchanges).sum();
    prop_assert_eq!(counted, report.exchanges, "every exchange counted once");
    let errors: u64 = report.per_operation.values().map(|s| s.errors).sum();
    prop_assert_eq!(errors as usize, report.tally().errors as usize);
    prop_assert!(report.outcomes.len() as u64 <= report.exchanges);
    Ok(())
}

/// Property 2.
fn no_credentials(outputs: &[Vec<u8>]) -> Result<(), TestCaseError> {
    for output in outputs {
        for secret in [PUBLIC, SECRET] {
            let found = output
                .windows(secret.len())
                .any(|window| window == secret.as_bytes());
            prop_assert!(
                !found,
                "{} in a report:\n{}",
                secret,
                String::from_utf8_lossy(output)
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Mutated corpus files
// ---------------------------------------------------------------------------------------------

/// Bytes worth inserting: JSON's structure, escapes, odd numbers, invalid UTF-8, a BOM.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\\",
    b"\\u",
    b"\\ud800",
    b"\n",
    b"\r\n",
    b"null",
    b"true",
    b"1e999",
    b"-0",
    b"18446744073709551616",
    b"\xEF\xBB\xBF",
    b"\xFF",
    b"\xC3",
    b"\0",
    b"{\"log\":",
    b"\"entries\":[",
    b"[[[[[[[[",
    b"{\"a\":{\"a\":{\"a\":",
];

#[derive(Debug, Clone)]
enum Mutation {
    Flip(f64, u8),
    Insert(f64, Vec<u8>),
    Token(f64, usize),
    Cut(f64, f64),
    Repeat(f64, f64, usize),
    Truncate(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        (at.clone(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip(at, byte)),
        (at.clone(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Insert(at, bytes)),
        (at.clone(), 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Token(at, token)),
        (at.clone(), 0.0..0.05f64).prop_map(|(at, len)| Mutation::Cut(at, len)),
        (at.clone(), 0.0..0.02f64, 1..50usize)
            .prop_map(|(at, len, times)| Mutation::Repeat(at, len, times)),
        at.prop_map(Mutation::Truncate),
    ]
}

fn apply(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    let place = |bytes: &Vec<u8>, at: f64| ((bytes.len() as f64) * at) as usize;
    for mutation in mutations {
        match mutation {
            Mutation::Flip(at, byte) => {
                let at = place(&bytes, *at);
                if let Some(b) = bytes.get_mut(at) {
                    *b ^= byte | 1;
                }
            }
            Mutation::Insert(at, inserted) => {
                let at = place(&bytes, *at);
                bytes.splice(at..at, inserted.iter().copied());
            }
            Mutation::Token(at, token) => {
                let at = place(&bytes, *at);
                bytes.splice(at..at, TOKENS[*token].iter().copied());
            }
            Mutation::Cut(at, len) => {
                let from = place(&bytes, *at);
                let to = (from + place(&bytes, *len)).min(bytes.len());
                bytes.drain(from..to);
            }
            Mutation::Repeat(at, len, times) => {
                let from = place(&bytes, *at);
                let to = (from + place(&bytes, *len)).min(bytes.len());
                let piece = bytes[from..to].to_vec();
                for _ in 0..*times {
                    bytes.splice(to..to, piece.iter().copied());
                }
            }
            Mutation::Truncate(at) => {
                let at = place(&bytes, *at);
                bytes.truncate(at);
            }
        }
    }
    bytes
}

#[test]
fn mutated_corpus_files_never_panic_and_classify_consistently() {
    let seeds = seeds();
    let strategy = (
        0..seeds.len(),
        prop::collection::vec(mutation(), 1..6),
        any::<bool>(),
    );
    runner(24)
        .run(&strategy, |(seed, mutations, rename)| {
            let (name, bytes) = &seeds[seed];
            let bytes = apply(bytes.clone(), &mutations);
            // Without its extension the format is detected from the content.
            let name = if rename { "traffic" } else { name.as_str() };
            pipeline(name, &bytes).map(|_| ())
        })
        .unwrap();
    report_tried("mutated");
}

// ---------------------------------------------------------------------------------------------
// Built traffic
// ---------------------------------------------------------------------------------------------

const ACCOUNT: &str = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";

fn path() -> impl Strategy<Value = String> {
    let id = prop_oneof![Just(ACCOUNT.to_string()), "[a-z0-9%-]{0,12}"];
    let prefix = prop_oneof![
        Just(String::new()),
        Just("/gateway".to_string()),
        "/[a-z]{1,6}".prop_map(|s| s.to_string()),
    ];
    let relative = prop_oneof![
        Just("/v1/banking/accounts".to_string()),
        id.clone()
            .prop_map(|id| format!("/v1/banking/accounts/{id}")),
        (id.clone(), id)
            .prop_map(|(a, t)| format!("/v1/banking/accounts/{a}/transfers/{t}/cancel")),
        Just("/v1/banking/entities".to_string()),
        Just("/v1/payments?merchant_order_id=o-1".to_string()),
        Just("/v1/banking/transfers".to_string()),
        "/[a-z/]{0,20}".prop_map(|s| s.to_string()),
    ];
    (prefix, relative).prop_map(|(prefix, relative)| format!("{prefix}{relative}"))
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[ -~]{0,12}".prop_map(Value::from),
        Just(json!("INCOMING")),
        Just(json!(ACCOUNT)),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("id".to_string()),
                    Just("account_id".to_string()),
                    Just("direction".to_string()),
                    Just("received".to_string()),
                    "[a-z_]{1,8}",
                ],
                inner,
                0..5
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

#[derive(Debug, Clone)]
struct Built {
    method: &'static str,
    path: String,
    credentials: u8,
    content_type: Option<&'static str>,
    body: Option<Value>,
    status: u16,
    reply: Option<Value>,
}

fn exchange() -> impl Strategy<Value = Built> {
    (
        prop::sample::select(vec!["GET", "POST", "PATCH", "DELETE", "put", ""]),
        path(),
        0..4u8,
        prop::sample::select(vec![None, Some("application/json"), Some("text/plain")]),
        prop::option::of(json_value()),
        prop::sample::select(vec![
            0u16, 200, 201, 204, 400, 401, 404, 409, 418, 500, 503, 999,
        ]),
        prop::option::of(json_value()),
    )
        .prop_map(
            |(method, path, credentials, content_type, body, status, reply)| Built {
                method,
                path,
                credentials,
                content_type,
                body,
                status,
                reply,
            },
        )
}

/// The request headers: both credentials, one, or none.
fn headers(built: &Built) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if built.credentials & 1 == 0 {
        headers.push(("public-api-key".to_string(), PUBLIC.to_string()));
    }
    if built.credentials & 2 == 0 {
        headers.push(("Private-Secret-Key".to_string(), SECRET.to_string()));
    }
    if let Some(content_type) = built.content_type {
        headers.push(("content-type".to_string(), content_type.to_string()));
    }
    headers
}

fn har(exchanges: &[Built]) -> Value {
    let entries: Vec<Value> = exchanges
        .iter()
        .map(|built| {
            let headers: Vec<Value> = headers(built)
                .into_iter()
                .map(|(name, value)| json!({"name": name, "value": value}))
                .collect();
            let mut request = json!({
                "method": built.method,
                "url": format!("https://host.example{}", built.path),
                "headers": headers,
            });
            if let Some(body) = &built.body {
                request["postData"] =
                    json!({"mimeType": "application/json", "text": body.to_string()});
            }
            let mut response = json!({"status": built.status, "headers": []});
            if let Some(reply) = &built.reply {
                response["content"] =
                    json!({"mimeType": "application/json", "text": reply.to_string()});
            }
            json!({"request": request, "response": response})
        })
        .collect();
    json!({"log": {"version": "1.2", "entries": entries}})
}

fn jsonl(exchanges: &[Built]) -> String {
    exchanges
        .iter()
        .map(|built| {
            let headers: Vec<Value> = headers(built)
                .into_iter()
                .map(|(name, value)| json!([name, value]))
                .collect();
            let mut request =
                json!({"method": built.method, "url": built.path, "headers": headers});
            if let Some(body) = &built.body {
                request["body"] = body.clone();
            }
            let mut record = json!({"request": request, "response": {"status": built.status}});
            if let Some(reply) = &built.reply {
                record["response"]["bodyText"] = reply.to_string().into();
            }
            format!("{record}\n")
        })
        .collect()
}

/// How built traffic is shaken before it is read.
#[derive(Debug, Clone)]
enum Shake {
    None,
    /// The HAR's top level, `log` or `log.entries` encoded as a JSON string.
    EncodedTwice(u8),
    /// A field of the first entry or record of the wrong type.
    WrongType(&'static str, Value),
    /// A line of garbage after the first line.
    Garbage(Vec<u8>),
    /// Cut off at a fraction of its length.
    CutOff(f64),
}

fn shake() -> impl Strategy<Value = Shake> {
    prop_oneof![
        Just(Shake::None),
        (0..3u8).prop_map(Shake::EncodedTwice),
        (
            prop::sample::select(vec![
                "request", "response", "headers", "url", "method", "status", "kind", "id"
            ]),
            prop_oneof![
                Just(json!(7)),
                Just(json!("text")),
                Just(json!([1])),
                Just(json!({"x": PUBLIC.len()}))
            ]
        )
            .prop_map(|(field, value)| Shake::WrongType(field, value)),
        prop::collection::vec(any::<u8>(), 0..40).prop_map(Shake::Garbage),
        (0.0..1.0f64).prop_map(Shake::CutOff),
    ]
}

fn shaken(exchanges: &[Built], as_har: bool, shake: &Shake) -> Vec<u8> {
    let wrong = |record: &mut Value, field: &str, value: &Value| {
        let target = match field {
            "headers" | "url" | "method" => &mut record["request"],
            "status" => &mut record["response"],
            _ => record,
        };
        target[field] = value.clone();
    };
    let mut bytes = if as_har {
        let mut har = har(exchanges);
        match shake {
            Shake::EncodedTwice(0) => har = Value::String(har.to_string()),
            Shake::EncodedTwice(1) => har["log"] = Value::String(har["log"].to_string()),
            Shake::EncodedTwice(_) => {
                har["log"]["entries"] = Value::String(har["log"]["entries"].to_string())
            }
            Shake::WrongType(field, value) => {
                if let Some(first) = har["log"]["entries"].get_mut(0) {
                    wrong(first, field, value);
                }
            }
            _ => {}
        }
        serde_json::to_vec_pretty(&har).expect("JSON")
    } else {
        let mut text = jsonl(exchanges);
        if let Shake::WrongType(field, value) = shake
            && let Some(first) = text.lines().next()
        {
            let mut record: Value = serde_json::from_str(first).expect("a record");
            wrong(&mut record, field, value);
            text = format!("{record}\n{}", &text[first.len() + 1..]);
        }
        text.into_bytes()
    };
    match shake {
        Shake::Garbage(garbage) => {
            let at = bytes
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |at| at + 1);
            bytes.splice(at..at, garbage.iter().copied().chain([b'\n']));
        }
        Shake::CutOff(at) => bytes.truncate((bytes.len() as f64 * at) as usize),
        _ => {}
    }
    bytes
}

#[test]
fn built_traffic_never_echoes_a_credential_and_classifies_consistently() {
    let strategy = (
        prop::collection::vec(exchange(), 0..6),
        any::<bool>(),
        shake(),
    );
    runner(24)
        .run(&strategy, |(exchanges, as_har, shake)| {
            let bytes = shaken(&exchanges, as_har, &shake);
            let name = if as_har { "built.har" } else { "built.jsonl" };
            let outputs = pipeline(name, &bytes)?;
            no_credentials(&outputs)
        })
        .unwrap();
    report_tried("built");
}

/// With `--nocapture`, how many inputs a run tried.
fn report_tried(what: &str) {
    println!(
        "fuzz ({what}): {} inputs tried so far (seed {:#x})",
        TRIED.load(Ordering::Relaxed),
        env_number("SPECVAL_FUZZ_SEED", 0x5eed_5eed)
    );
}
