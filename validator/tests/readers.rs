// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! The traffic readers: clean HAR and JSON Lines files read into the exact exchanges, every
//! kind of malformed input becomes the expected `Malformed` without losing the entries around
//! it, nothing overflows the stack, and HAR entries are streamed.

use std::cell::Cell;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::rc::Rc;

use serde_json::json;
use specval::exchange::{Body, Entry, Exchange, ExchangeKind, Malformed, Request, Response};
use specval::read::{self, Format};

fn input(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/readers")
        .join(name)
}

fn webhooks() -> Vec<(String, String)> {
    vec![("POST".to_owned(), "/v1/banking/transfers".to_owned())]
}

/// The entries of `bytes`, without the lines exchanges start on (see
/// every_entry_knows_the_line_it_starts_on).
fn read_bytes(source: &str, bytes: &[u8], format: Format) -> Vec<Entry> {
    read_with_lines(source, bytes, format)
        .into_iter()
        .map(|entry| {
            entry.map(|exchange| Exchange {
                line: None,
                ..exchange
            })
        })
        .collect()
}

fn read_with_lines(source: &str, bytes: &[u8], format: Format) -> Vec<Entry> {
    let mut entries = Vec::new();
    read::read(source, bytes, format, &webhooks(), &mut |entry| {
        entries.push(entry)
    })
    .expect("reading from memory cannot fail");
    entries
}

fn read_file(name: &str) -> Vec<Entry> {
    let bytes = std::fs::read(input(name)).unwrap();
    let format = read::detect(name, &bytes);
    read_bytes(name, &bytes, format)
}

fn strings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

fn text(text: &str) -> Option<Body> {
    Some(Body::Text(text.to_owned()))
}

fn exchange(index: usize, id: Option<&str>, source: &str, request: Request) -> Exchange {
    Exchange {
        index,
        line: None,
        id: id.map(str::to_owned),
        source: source.to_owned(),
        kind: Some(ExchangeKind::Operation),
        request,
        response: None,
        failure: None,
    }
}

fn request(method: &str, path: &str) -> Request {
    Request {
        method: method.to_owned(),
        path: path.to_owned(),
        ..Request::default()
    }
}

fn response(status: u16, headers: &[(&str, &str)], body: Option<Body>) -> Option<Response> {
    Some(Response {
        status,
        headers: strings(headers),
        body,
        mime_type: None,
    })
}

fn malformed(source: &str, index: usize, line: Option<usize>, message: &str) -> Entry {
    Err(Malformed {
        index,
        source: source.to_owned(),
        line,
        message: message.to_owned(),
    })
}

/// The five exchanges of `clean.har`; `clean.jsonl` records the same traffic with the
/// differences its format allows.
fn clean_exchanges(source: &str) -> Vec<Exchange> {
    let create = Exchange {
        request: Request {
            query: strings(&[("dryRun", "true")]),
            headers: strings(&[
                ("Content-Type", "application/json"),
                ("X-Idempotency-Key", "k-1"),
            ]),
            body: text(r#"{"entityId":"e-1"}"#),
            ..request("POST", "/v1/banking/accounts")
        },
        response: response(
            201,
            &[("content-type", "application/json; charset=utf-8")],
            text(r#"{"id":"a-1"}"#),
        ),
        ..exchange(0, Some("create-account"), source, Request::default())
    };
    let get = Exchange {
        request: Request {
            query: strings(&[("limit", "10"), ("name", "Jürgen M"), ("flag", "")]),
            ..request("GET", "/v1/banking/accounts/a%2F1")
        },
        response: response(200, &[], text("not json at all")),
        ..exchange(1, Some("42"), source, Request::default())
    };
    let notification = Exchange {
        kind: Some(ExchangeKind::Notification),
        request: Request {
            headers: strings(&[("Content-Type", "application/json")]),
            body: text(r#"{"transferId":"t-1"}"#),
            ..request("POST", "/v1/banking/transfers")
        },
        response: response(204, &[], None),
        ..exchange(2, None, source, Request::default())
    };
    let binary = Exchange {
        request: Request {
            query: strings(&[("name", "a b")]),
            ..request("GET", "/v1/banking/accounts")
        },
        response: response(
            200,
            &[("Content-Type", "application/octet-stream")],
            Some(Body::Binary(vec![0xDE, 0xAD, 0xBE, 0xEF])),
        ),
        ..exchange(3, Some("statement"), source, Request::default())
    };
    let aborted = Exchange {
        request: Request {
            body: text(r#"{"a":1}"#),
            ..request("PUT", "/v1/payments")
        },
        ..exchange(4, None, source, Request::default())
    };
    let mut exchanges = vec![create, get, notification, binary, aborted];
    // Every HAR entry has an absolute URL; JSON Lines records give a path alone in the second
    // and fourth.
    let hosts: [Option<&str>; 5] = if source.ends_with(".har") {
        [
            Some("api.example.com"),
            Some("localhost:8080"),
            Some("merchant.example.org"),
            Some("api.example.com"),
            Some("api.example.com"),
        ]
    } else {
        [
            Some("api.example.com"),
            None,
            Some("merchant.example.org"),
            None,
            Some("api.example.com"),
        ]
    };
    for (exchange, host) in exchanges.iter_mut().zip(hosts) {
        exchange.request.authority = host.map(str::to_owned);
    }
    exchanges
}

fn oks(entries: Vec<Entry>) -> Vec<Exchange> {
    entries
        .into_iter()
        .map(|entry| entry.expect("no malformed entries"))
        .collect()
}

/// The exchanges of `clean.har` with the media types its `postData` and `content` state.
fn clean_har_exchanges(source: &str) -> Vec<Exchange> {
    let json = Some("application/json".to_string());
    let mime_types = [
        (json.clone(), json.clone()),
        (None, json.clone()),
        (json.clone(), Some("x-unknown".into())),
        (None, Some("application/octet-stream".into())),
        (json.clone(), None),
    ];
    let mut exchanges = clean_exchanges(source);
    for (exchange, (request, response)) in exchanges.iter_mut().zip(mime_types) {
        exchange.request.mime_type = request;
        if let Some(answer) = exchange.response.as_mut() {
            answer.mime_type = response;
        }
    }
    exchanges
}

#[test]
fn clean_har_reads_into_the_exact_exchanges() {
    assert_eq!(
        oks(read_file("clean.har")),
        clean_har_exchanges("clean.har")
    );
}

#[test]
fn clean_jsonl_reads_into_the_exact_exchanges() {
    let mut expected = clean_exchanges("clean.jsonl");
    // `body` given as JSON stays JSON.
    expected[0].request.body = Some(Body::Json(json!({"entityId": "e-1"})));
    expected[0].response.as_mut().unwrap().body = Some(Body::Json(json!({"id": "a-1"})));
    // An explicit kind wins over the webhook paths; numbers and booleans in a query map.
    expected[4].kind = Some(ExchangeKind::Notification);
    expected[4].request.query = strings(&[("limit", "5"), ("all", "true")]);
    assert_eq!(oks(read_file("clean.jsonl")), expected);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    assert_eq!(
        oks(read_file("bom.jsonl")),
        vec![exchange(0, None, "bom.jsonl", request("GET", "/bom"))]
    );
    let mut har = b"\xEF\xBB\xBF".to_vec();
    har.extend(std::fs::read(input("clean.har")).unwrap());
    assert_eq!(read_bytes("bom.har", &har, Format::Har).len(), 5);
}

#[test]
fn read_path_detects_the_format_and_names_the_source() {
    for name in ["clean.har", "clean.jsonl"] {
        let path = input(name);
        let path = path.to_str().unwrap();
        let mut entries = Vec::new();
        let format =
            read::read_path(path, None, &webhooks(), &mut |entry| entries.push(entry)).unwrap();
        let expected = if name.ends_with("har") {
            Format::Har
        } else {
            Format::JsonLines
        };
        assert_eq!(format, expected);
        let exchanges = oks(entries);
        assert_eq!(exchanges.len(), 5);
        assert!(exchanges.iter().all(|exchange| exchange.source == path));
    }
    let missing = input("no-such-file.har");
    let err =
        read::read_path(missing.to_str().unwrap(), None, &webhooks(), &mut |_| {}).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
}

#[test]
fn detect_uses_the_extension_then_the_first_bytes() {
    let har = br#"{"log": {"entries": []}}"#;
    let record = br#"{"request": {"method": "GET", "path": "/"}}"#;
    assert_eq!(read::detect("a.har", record), Format::Har);
    assert_eq!(read::detect("A.HAR", b""), Format::Har);
    assert_eq!(read::detect("a.jsonl", har), Format::JsonLines);
    assert_eq!(read::detect("dir.har/a.ndjson", har), Format::JsonLines);
    assert_eq!(read::detect("-", har), Format::Har);
    assert_eq!(
        read::detect("traffic.json", b"\xEF\xBB\xBF \n{ \"log\" :{"),
        Format::Har
    );
    assert_eq!(read::detect("-", b"{\n  \"version\": 1,"), Format::Har);
    assert_eq!(read::detect("-", record), Format::JsonLines);
    assert_eq!(read::detect("-", b"{\"logs\": 1}"), Format::JsonLines);
    assert_eq!(read::detect("-", b""), Format::JsonLines);
    assert_eq!(read::detect("-", b"hello"), Format::JsonLines);
    // Records kept as one JSON document, as hand-written traffic often is.
    assert_eq!(read::detect("a.json", b" [\n {"), Format::JsonRecords);
    assert_eq!(
        read::detect("a.jsonl", b"\xEF\xBB\xBF["),
        Format::JsonRecords
    );
    assert_eq!(read::detect("a.har", b"["), Format::Har);
    let pretty = b"{\n  \"request\": {\n    \"method\": \"GET\"";
    assert_eq!(read::detect("-", pretty), Format::JsonRecords);
    assert_eq!(read::detect("a.jsonl", pretty), Format::JsonRecords);
    assert_eq!(
        read::detect("a.jsonl", b"{\n  \"version\": 1,"),
        Format::JsonRecords
    );
    // A pretty-printed HAR saved under a JSON Lines name is still a HAR.
    assert_eq!(
        read::detect("a.jsonl", b"{\n  \"log\": {\n    \"version\": \"1.2\","),
        Format::Har
    );
}

/// The same records as JSON Lines, as an array and pretty-printed one after another: the
/// same exchanges, each at the line it starts on; a record of the wrong shape is malformed
/// and the others are read.
#[test]
fn records_in_one_json_document_read_as_json_lines_do() {
    let records = [
        json!({"id": "a", "request": {"method": "get", "path": "/v1/banking/accounts/1"},
               "response": {"status": 200, "body": {"id": "acct_1"}}}),
        json!({"id": "b", "request": {"path": "/v1/x"}}),
        json!({"id": "c", "request": {"method": "POST", "path": "/v1/banking/transfers",
               "body": {"id": "xfer_1"}}}),
    ];
    let lines: String = records.iter().map(|r| format!("{r}\n")).collect();
    let expected = read_bytes("t", lines.as_bytes(), Format::JsonLines);
    assert_eq!(expected.len(), 3);
    assert!(expected[1].is_err(), "{:?}", expected[1]);
    let pretty = |record: &serde_json::Value| serde_json::to_string_pretty(record).unwrap();
    let array = format!(
        "[\n{}\n]\n",
        records.iter().map(pretty).collect::<Vec<_>>().join(",\n")
    );
    let sequence: String = records.iter().map(|r| pretty(r) + "\n").collect();
    for (what, text) in [("array", &array), ("sequence", &sequence)] {
        let lines_of = |entries: Vec<Entry>| -> Vec<Option<usize>> {
            entries
                .iter()
                .map(|entry| match entry {
                    Ok(exchange) => exchange.line,
                    Err(malformed) => malformed.line,
                })
                .collect()
        };
        let bytes = text.as_bytes();
        assert_eq!(read::detect("t.json", bytes), Format::JsonRecords, "{what}");
        let entries = read_with_lines("t", bytes, Format::JsonRecords);
        let starts: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| *line == "{")
            .map(|(at, _)| at + 1)
            .collect();
        assert_eq!(
            lines_of(entries),
            starts.into_iter().map(Some).collect::<Vec<_>>(),
            "{what}"
        );
        let entries = read_bytes("t", bytes, Format::JsonRecords);
        let without_lines = |entries: Vec<Entry>| -> Vec<Entry> {
            entries
                .into_iter()
                .map(|entry| {
                    entry.map_err(|malformed| Malformed {
                        line: None,
                        message: String::new(),
                        ..malformed
                    })
                })
                .collect()
        };
        assert_eq!(
            without_lines(entries),
            without_lines(expected.clone()),
            "{what}"
        );
    }
}

/// A record that is not JSON (a comma left out, as in hand-written traffic) is one malformed
/// entry, and the records after it are still read and checked, in an array or one after
/// another.
#[test]
fn a_record_that_is_not_json_breaks_itself_alone() {
    let good = |path: &str| {
        format!("{{\n  \"request\": {{\"method\": \"GET\", \"path\": \"{path}\"}}\n}}")
    };
    // The comma after `"GET"` is missing; a brace inside a string must not end it early.
    let broken = "{\n  \"request\": {\"method\": \"GET\" \"path\": \"/b}\"}\n}";
    let records = [good("/a"), broken.to_string(), good("/c"), good("/d")];
    for (what, text) in [
        ("sequence", records.join("\n")),
        ("array", format!("[{}]", records.join(",\n"))),
    ] {
        let entries = read_with_lines("t.json", text.as_bytes(), Format::JsonRecords);
        let paths: Vec<String> = entries
            .iter()
            .map(|entry| match entry {
                Ok(exchange) => exchange.request.path.clone(),
                Err(malformed) => format!("malformed at {:?}", malformed.line),
            })
            .collect();
        assert_eq!(
            paths,
            ["/a", "malformed at Some(5)", "/c", "/d"],
            "{what}: {entries:?}"
        );
        let indices: Vec<usize> = entries
            .iter()
            .map(|entry| match entry {
                Ok(exchange) => exchange.index,
                Err(malformed) => malformed.index,
            })
            .collect();
        assert_eq!(indices, [0, 1, 2, 3], "{what}");
    }
    // The comma between two records of an array left out: said, and the records after it
    // read.
    let text = format!("[{},\n{}\n{}]", good("/a"), good("/b"), good("/c"));
    let read_paths = |text: &str| -> (Vec<String>, String) {
        let entries = read_with_lines("t.json", text.as_bytes(), Format::JsonRecords);
        let paths = entries
            .iter()
            .map(|entry| match entry {
                Ok(exchange) => exchange.request.path.clone(),
                Err(malformed) => malformed.message.clone(),
            })
            .collect();
        (paths, format!("{entries:?}"))
    };
    let (paths, entries) = read_paths(&text);
    assert_eq!(
        paths,
        ["/a", "/b", "line 7: expected `,` between records", "/c"],
        "{entries}"
    );
    // A comma too many: said once, and the records after it read.
    let text = format!(
        "[{},,
, {},
{}]",
        good("/a"),
        good("/b"),
        good("/c")
    );
    let (paths, entries) = read_paths(&text);
    assert_eq!(
        paths,
        [
            "/a",
            "line 3: more than one `,` between records",
            "/b",
            "/c"
        ],
        "{entries:?}"
    );
}

/// A byte that is not UTF-8 (a Latin-1 `é`) breaks the record that holds it, in a string or
/// outside one, and no other: the records before and after it are read.
#[test]
fn a_byte_that_is_not_utf8_breaks_its_record_alone() {
    let record = |path: &str, note: &[u8]| {
        let mut record = format!(
            "{{\n  \"request\": {{\"method\": \"GET\", \"path\": \"{path}\"}},\n  \"note\": \""
        )
        .into_bytes();
        record.extend_from_slice(note);
        record.extend_from_slice(b"\"\n}");
        record
    };
    let mut outside = record("/c", b"");
    outside.splice(2..2, *b"\xE9");
    let records = [
        record("/a", b"ok"),
        record("/b", b"caf\xE9"),
        outside,
        record("/d", b"ok"),
    ];
    for (what, separator, open, close) in [
        ("sequence", &b"\n"[..], &b""[..], &b""[..]),
        ("array", b",\n", b"[", b"]"),
    ] {
        let mut text = open.to_vec();
        text.extend(records.join(separator));
        text.extend_from_slice(close);
        let entries = read_with_lines("t.json", &text, Format::JsonRecords);
        let seen: Vec<String> = entries
            .iter()
            .map(|entry| match entry {
                Ok(exchange) => format!("{:?} {}", exchange.line, exchange.request.path),
                Err(malformed) => format!("{:?} {}", malformed.line, malformed.message),
            })
            .collect();
        assert_eq!(
            seen,
            [
                "Some(1) /a",
                "Some(5) line 7: not valid UTF-8 (byte 0xE9)",
                "Some(9) line 10: not valid UTF-8 (byte 0xE9)",
                "Some(13) /d",
            ],
            "{what}"
        );
    }
}

/// A document that stops being JSON keeps the records before, and says where it broke.
#[test]
fn a_broken_document_of_records_keeps_what_came_before() {
    let text = "[\n  {\"request\": {\"method\": \"GET\", \"path\": \"/a\"}},\n  {\"request\": {\"method\": ";
    let entries = read_with_lines("t.json", text.as_bytes(), Format::JsonRecords);
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(entries[0].is_ok());
    let broken = entries[1].as_ref().unwrap_err();
    assert_eq!((broken.index, broken.line), (1, Some(3)));
    assert!(
        broken
            .message
            .starts_with("the input ends inside the record that starts here: EOF"),
        "{}",
        broken.message
    );
    // A record over several lines cut short is told by the line it starts on, not by the
    // place past the end serde_json gives (a line after the last, column 0).
    let cut = "[\n  {\n    \"request\": [[[\n";
    let cut = read_with_lines("t.json", cut.as_bytes(), Format::JsonRecords);
    let cut = cut[0].as_ref().unwrap_err();
    assert_eq!(cut.line, Some(2), "{cut:?}");
    assert!(!cut.message.contains("column 0"), "{}", cut.message);
    // A record broken before the end is told by its place.
    let bad = "[\n  {\"request\": x}\n]";
    let bad = read_with_lines("t.json", bad.as_bytes(), Format::JsonRecords);
    let bad = bad[0].as_ref().unwrap_err();
    assert!(bad.message.starts_with("line 2, column"), "{}", bad.message);
    let unclosed = read_with_lines(
        "t.json",
        b"[{\"request\": {\"method\": \"GET\", \"path\": \"/a\"}}",
        Format::JsonRecords,
    );
    assert!(
        unclosed[1]
            .as_ref()
            .unwrap_err()
            .message
            .contains("not closed"),
        "{unclosed:?}"
    );
    let trailing = read_with_lines("t.json", b"[]\n[]", Format::JsonRecords);
    assert!(
        trailing[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("text after the array"),
        "{trailing:?}"
    );
}

#[test]
fn har_entries_of_the_wrong_shape_are_malformed_and_the_rest_is_read() {
    let source = "shapes.har";
    let entries = read_file(source);
    let expected = vec![
        malformed(source, 0, Some(2), "entry 0: request is missing"),
        malformed(
            source,
            1,
            Some(3),
            "entry 1: request.url is a number, expected a string",
        ),
        malformed(
            source,
            2,
            Some(4),
            "entry 2 is a string, expected an object",
        ),
        malformed(
            source,
            3,
            Some(5),
            "entry 3: request.url is neither an absolute URL nor a path starting with /; \
             request.headers[0].value is an object, expected a string",
        ),
        malformed(
            source,
            4,
            Some(6),
            "entry 4: request.postData.text is not valid base64 (Invalid symbol 37, offset 0.); \
             response.content.encoding is a string of 4 bytes, masked: xxxx, expected \"base64\"",
        ),
        malformed(
            source,
            5,
            Some(7),
            "entry 5: request.method is empty; request.headers[0] has 3 items, expected 2; \
             response.status is 1000, expected an HTTP status code",
        ),
        Ok(Exchange {
            response: response(200, &[], None),
            ..exchange(
                6,
                None,
                source,
                Request {
                    authority: Some("h".into()),
                    ..request("GET", "/ok")
                },
            )
        }),
    ];
    assert_eq!(entries, expected);
}

/// Shapes people write by hand that mean one thing: a status as text (`"200"`, `"404 Not
/// Found"`) and headers as the lines of the wire (`"Name: value"`). Text that is neither is
/// still malformed, described without its contents.
#[test]
fn a_status_as_text_and_headers_as_lines_are_read_as_meant() {
    let source = "hand.jsonl";
    let lines = br#"{"request": {"method": "GET", "path": "/a", "headers": ["Accept: application/json", "X-Empty:"]}, "response": {"status": "404 Not Found", "headers": ["Content-Type: text/plain"]}}
{"request": {"method": "GET", "path": "/b"}, "response": {"status": " 200 "}}
{"request": {"method": "GET", "path": "/c", "headers": ["secret-token-abc"]}, "response": {"status": "OK"}}
"#;
    let entries = read_bytes(source, lines, Format::JsonLines);
    let mut first = request("GET", "/a");
    first.headers = strings(&[("Accept", "application/json"), ("X-Empty", "")]);
    let expected = vec![
        Ok(Exchange {
            response: response(404, &[("Content-Type", "text/plain")], None),
            ..exchange(0, None, source, first)
        }),
        Ok(Exchange {
            response: response(200, &[], None),
            ..exchange(1, None, source, request("GET", "/b"))
        }),
        malformed(
            source,
            2,
            Some(3),
            "line 3: request.headers[0] is a string of 16 bytes, masked: xxxxxxxxxxxxxxxx, not a \
             `Name: value` line, expected a name/value pair; response.status is a string of 2 \
             bytes, masked: xx, expected an HTTP status code",
        ),
    ];
    assert_eq!(entries, expected);
}

#[test]
fn every_entry_knows_the_line_it_starts_on() {
    let lines = |name: &str| -> Vec<Option<usize>> {
        let bytes = std::fs::read(input(name)).unwrap();
        read_with_lines(name, &bytes, read::detect(name, &bytes))
            .into_iter()
            .map(|entry| match entry {
                Ok(exchange) => exchange.line,
                Err(malformed) => malformed.line,
            })
            .collect()
    };
    assert_eq!(lines("clean.jsonl"), [1, 3, 4, 6, 7].map(Some));
    assert_eq!(lines("shapes.har"), [2, 3, 4, 5, 6, 7, 8].map(Some));
    assert_eq!(lines("clean.har"), CLEAN_HAR_LINES.map(Some));
}

/// The lines the entries of clean.har start on (`{` of each element of `log.entries`).
const CLEAN_HAR_LINES: [usize; 5] = [7, 39, 54, 67, 81];

#[test]
fn body_not_json_is_text_for_the_checker() {
    let har = oks(read_file("clean.har"));
    assert_eq!(
        har[1].response.as_ref().unwrap().body,
        text("not json at all")
    );
    let jsonl = read_file("malformed.jsonl");
    let first = jsonl[0].as_ref().unwrap();
    assert_eq!(first.response.as_ref().unwrap().body, text("{not json"));
}

#[test]
fn a_truncated_har_delivers_every_entry_before_the_cut() {
    let source = "truncated.har";
    let entries = read_file(source);
    let mut expected: Vec<Entry> = clean_har_exchanges(source)
        .into_iter()
        .take(3)
        .map(Ok)
        .collect();
    expected.push(malformed(
        source,
        3,
        Some(70),
        "stopped after 3 entries: EOF while parsing a value at line 70 column 26",
    ));
    assert_eq!(entries, expected);
}

/// One entry that is not JSON (a syntax error, a byte that is not UTF-8) is that entry's
/// finding, and the entries after it are read: as JSON Lines reads on past a broken line.
#[test]
fn a_har_entry_that_does_not_parse_is_told_and_the_entries_after_it_are_read() {
    let good = |n: u32| {
        format!(
            r#"{{"request": {{"method": "GET", "url": "https://api.example.com/v1/things/{n}", "headers": []}},
  "response": {{"status": 200, "headers": [], "content": {{"text": "{{}}"}}}}}}"#
        )
    };
    // A missing comma, with braces inside a string; then a Latin-1 `é`.
    let broken = r#"{"request": {"method": "GET", "url": "https://api.example.com/v1/}{" "oops": 1},
  "response": {"status": 200}}"#;
    let mut latin1 =
        br#"{"request": {"method": "GET", "url": "https://api.example.com/v1/caf"#.to_vec();
    latin1.push(0xE9);
    latin1.extend_from_slice(br#""}, "response": {"status": 200}}"#);
    let mut har = format!(
        "{{\"log\": {{\"version\": \"1.2\", \"entries\": [\n{},\n{broken},\n",
        good(0)
    )
    .into_bytes();
    har.extend_from_slice(&latin1);
    har.extend_from_slice(format!(",\n{}\n]}}}}\n", good(3)).as_bytes());
    let entries = read_bytes("broken.har", &har, Format::Har);
    assert_eq!(entries.len(), 4, "{entries:#?}");
    assert_eq!(entries[0].as_ref().unwrap().request.path, "/v1/things/0");
    let syntax = entries[1].as_ref().unwrap_err();
    assert_eq!((syntax.index, syntax.line), (1, Some(4)));
    assert!(
        syntax.message.starts_with("entry 1: expected `,` or `}`"),
        "{}",
        syntax.message
    );
    let latin1 = entries[2].as_ref().unwrap_err();
    assert_eq!((latin1.index, latin1.line), (2, Some(6)));
    assert_eq!(
        latin1.message,
        "entry 2: not valid UTF-8 (byte 0xE9); HAR files are UTF-8"
    );
    let last = entries[3].as_ref().unwrap();
    assert_eq!(
        (last.index, last.request.path.as_str()),
        (3, "/v1/things/3")
    );
    // A broken entry last, and one whose end cannot be found.
    let last_broken = format!("{{\"log\": {{\"entries\": [{}, {broken}]}}}}", good(0));
    let entries = read_bytes("last.har", last_broken.as_bytes(), Format::Har);
    assert_eq!(entries.len(), 2);
    assert!(entries[1].is_err());
    let unclosed = format!(
        "{{\"log\": {{\"entries\": [{}, {{\"request\": {{\"x\": 1, {}",
        good(0),
        good(1)
    );
    let entries = read_bytes("unclosed.har", unclosed.as_bytes(), Format::Har);
    let messages: Vec<&str> = entries
        .iter()
        .filter_map(|entry| entry.as_ref().err())
        .map(|malformed| malformed.message.as_str())
        .collect();
    assert_eq!(entries.len(), 3, "{entries:#?}");
    assert!(messages[0].starts_with("entry 1: "), "{messages:?}");
    assert_eq!(
        messages[1],
        "stopped after 2 entries: the end of entry 1 cannot be found"
    );
}

/// A byte that is not UTF-8 in an entry's last member: serde_json tells it only once it has
/// read on past the entry's end to the next one's `{`, and that entry is still read whole,
/// compact or pretty-printed, even when it is broken too.
#[test]
fn a_byte_that_is_not_utf8_at_an_entry_end_keeps_the_entries_after_it() {
    let entry = |n: u32, comment: &[u8]| {
        let mut entry = format!(
            r#"{{"request": {{"method": "GET", "url": "https://api.example.com/v1/things/{n}", "headers": []}},
  "response": {{"status": 200, "headers": [], "content": {{"text": "{{}}"}}}}, "comment": ""#
        )
        .into_bytes();
        entry.extend_from_slice(comment);
        entry.extend_from_slice(b"\"}");
        entry
    };
    for separator in [&b", "[..], b",\n      "] {
        let mut har = b"{\"log\": {\"entries\": [".to_vec();
        har.extend(entry(0, b"caf\xE9"));
        har.extend_from_slice(separator);
        har.extend(entry(1, b"na\xEFve"));
        har.extend_from_slice(separator);
        har.extend(entry(2, b"two"));
        har.extend_from_slice(b"]}}");
        let entries = read_bytes("late.har", &har, Format::Har);
        let seen: Vec<String> = entries
            .iter()
            .map(|entry| match entry {
                Ok(exchange) => format!("{} {}", exchange.index, exchange.request.path),
                Err(malformed) => format!("{} {}", malformed.index, malformed.message),
            })
            .collect();
        assert_eq!(
            seen,
            [
                "0 entry 0: not valid UTF-8 (byte 0xE9); HAR files are UTF-8",
                "1 entry 1: not valid UTF-8 (byte 0xEF); HAR files are UTF-8",
                "2 /v1/things/2",
            ],
            "{separator:?}"
        );
    }
}

#[test]
fn a_har_that_is_not_a_har_is_one_malformed_entry() {
    // An empty file has no entries, like an empty JSON Lines file: the run reports it.
    assert_eq!(read_file("empty.har"), vec![]);
    let cases = [
        (
            "not-json.har",
            1,
            "not a HAR file: expected value at line 1 column 1",
        ),
        (
            "entries-not-array.har",
            1,
            "not a HAR file: invalid type: map, expected log.entries to be an array at line 1 column 40",
        ),
        (
            "no-entries.har",
            1,
            "not a HAR file: log.entries is missing at line 1 column 26",
        ),
        (
            "trailing.har",
            1,
            "stopped after 0 entries: trailing characters at line 1 column 26",
        ),
    ];
    for (name, line, message) in cases {
        let bytes = std::fs::read(input(name)).unwrap();
        let entries = read_bytes(name, &bytes, Format::Har);
        assert_eq!(
            entries,
            vec![malformed(name, 0, Some(line), message)],
            "{name}"
        );
    }
    let entries = read_bytes("array", b"[1, 2]", Format::Har);
    assert_eq!(
        entries,
        vec![malformed(
            "array",
            0,
            Some(1),
            "not a HAR file: invalid type: sequence, expected a JSON object with a \"log\" member at line 1 column 2",
        )]
    );
}

#[test]
fn jsonl_malformed_lines_are_reported_and_the_next_line_is_read() {
    let source = "malformed.jsonl";
    let entries = read_file(source);
    let first = Exchange {
        response: response(200, &[], text("{not json")),
        ..exchange(
            0,
            Some("first"),
            source,
            request("GET", "/v1/banking/accounts"),
        )
    };
    let last = exchange(
        9,
        Some("last-good"),
        source,
        Request {
            authority: Some("h".into()),
            ..request("DELETE", "/v1/x")
        },
    );
    let expected = vec![
        Ok(first),
        malformed(source, 1, Some(2), "line 2, column 14: expected ident"),
        malformed(
            source,
            2,
            Some(3),
            "line 3: not valid UTF-8 (byte 0xE9 at column 62)",
        ),
        malformed(source, 3, Some(5), "line 5: request is missing"),
        malformed(
            source,
            4,
            Some(6),
            "line 6: the record is an array, expected an object",
        ),
        malformed(
            source,
            5,
            Some(7),
            "line 7: request.method is a number, expected a string; \
             request.url is neither an absolute URL nor a path starting with /; \
             request.headers.A is null; response.status is missing",
        ),
        malformed(
            source,
            6,
            Some(8),
            "line 8: request has both url and path, and they name different paths",
        ),
        malformed(
            source,
            7,
            Some(9),
            "line 9: kind is a string of 7 bytes, masked: xxxxxxx, expected \"operation\" or \"notification\"; \
             request has more than one of body, bodyText and bodyBase64",
        ),
        malformed(
            source,
            8,
            Some(10),
            "line 10: request.bodyBase64 is not valid base64 (Invalid symbol 33, offset 0.)",
        ),
        Ok(last),
        malformed(
            source,
            10,
            Some(12),
            "line 12: the record is cut off: the line ends at column 33 before its JSON does \
             (EOF while parsing a string)",
        ),
    ];
    assert_eq!(entries, expected);
}

/// A line cut off inside a string, with good lines after it, is told as cut off where it
/// ends, not as a control character at column 0 of the next line; the lines after it are
/// read.
#[test]
fn a_line_cut_off_is_told_as_cut_off() {
    let good = json!({"request": {"method": "GET", "url": "/v1/a"}}).to_string();
    let text = format!("{good}\n{}\r\n{good}\n", &good[..23]);
    let entries = read_bytes("cut.jsonl", text.as_bytes(), Format::JsonLines);
    assert_eq!(entries.len(), 3, "{entries:?}");
    assert!(entries[0].is_ok() && entries[2].is_ok(), "{entries:?}");
    let cut = entries[1].as_ref().unwrap_err();
    assert_eq!(cut.line, Some(2));
    assert_eq!(
        cut.message,
        "line 2: the record is cut off: the line ends at column 23 before its JSON does \
         (EOF while parsing a string)"
    );
}

/// A flat log line (`{"method", "url", "status"}` at the top level) is malformed, and the
/// finding says where its members belong, not only that `request` is missing.
#[test]
fn a_flat_record_is_told_where_its_members_belong() {
    let flat = json!({"method": "GET", "url": "/v1/banking/accounts/a", "status": 200});
    let entries = read_bytes("flat.jsonl", flat.to_string().as_bytes(), Format::JsonLines);
    let message = &entries[0].as_ref().unwrap_err().message;
    assert!(
        message.starts_with("line 1: request is missing: this record holds `method`"),
        "{message}"
    );
    assert!(message.contains(r#"{"request": {"method""#), "{message}");
    // A record without them is told only that its request is missing.
    let bare = json!({"response": {"status": 200}}).to_string();
    let entries = read_bytes("bare.jsonl", bare.as_bytes(), Format::JsonLines);
    assert_eq!(
        entries[0].as_ref().unwrap_err().message,
        "line 1: request is missing"
    );
}

#[test]
fn empty_and_non_json_jsonl() {
    assert_eq!(read_file("empty.jsonl"), vec![]);
    assert_eq!(
        read_file("not-json.jsonl"),
        vec![
            malformed(
                "not-json.jsonl",
                0,
                Some(1),
                "line 1, column 1: expected value"
            ),
            malformed(
                "not-json.jsonl",
                1,
                Some(2),
                "line 2, column 1: expected value"
            ),
        ]
    );
}

/// A URL's path, its query decoded, and its host and port (what `--host` compares), in both
/// formats.
#[test]
fn urls_split_into_path_decoded_query_and_host() {
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], Option<&'a str>);
    let cases: &[Case] = &[
        ("https://h", "/", &[], Some("h")),
        ("https://h?x=1#frag", "/", &[("x", "1")], Some("h")),
        (
            "http://user@API.Example.com:8080/a/b/?q=%20x+y&&=v&k=a=b",
            "/a/b/",
            &[("q", " x y"), ("", "v"), ("k", "a=b")],
            Some("api.example.com:8080"),
        ),
        ("/a%20b?bad=%zz%4", "/a%20b", &[("bad", "%zz%4")], None),
        (
            "/v1/banking/transfers#x",
            "/v1/banking/transfers",
            &[],
            None,
        ),
    ];
    for (url, path, query, authority) in cases {
        let line = json!({"request": {"method": "get", "url": url}}).to_string();
        let har = json!({"log": {"entries": [{"request": {"method": "get", "url": url,
            "headers": []}}]}})
        .to_string();
        for (name, text, format) in [
            ("urls.jsonl", line, Format::JsonLines),
            ("urls.har", har, Format::Har),
        ] {
            let entries = read_bytes(name, text.as_bytes(), format);
            let request = &entries[0].as_ref().unwrap().request;
            assert_eq!(
                (request.method.as_str(), request.path.as_str()),
                ("GET", *path),
                "{url} {name}"
            );
            assert_eq!(request.query, strings(query), "{url} {name}");
            assert_eq!(request.authority.as_deref(), *authority, "{url} {name}");
        }
    }
    // A notification is recognised by its path on any host; method and path must match, by
    // the contract's rule (`specval::contract::delivered_at`, the checks' too): a trailing `/`
    // makes another path, as it does for operations.
    let lines = [
        json!({"request": {"method": "post", "url": "https://anywhere:9/v1/banking/transfers"}}),
        json!({"request": {"method": "GET", "url": "https://h/v1/banking/transfers"}}),
        json!({"request": {"method": "POST", "url": "https://h/v1/banking/transfers/"}}),
        // After the receiver's own base path, on a segment boundary only.
        json!({"request": {"method": "POST", "url": "https://merchant/hooks/v1/banking/transfers"}}),
        json!({"request": {"method": "POST", "url": "https://merchant/hooksv1/banking/transfers"}}),
    ]
    .map(|line| line.to_string())
    .join("\n");
    let kinds: Vec<_> = read_bytes("kinds.jsonl", lines.as_bytes(), Format::JsonLines)
        .into_iter()
        .map(|entry| entry.unwrap().kind.unwrap())
        .collect();
    use ExchangeKind::{Notification, Operation};
    assert_eq!(
        kinds,
        [Notification, Operation, Operation, Notification, Operation]
    );
}

const DEPTH: usize = 100_000;

fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

/// Runs `test` on a thread with a small stack, so that a reader recursing once per nesting
/// level would overflow rather than pass by luck.
fn with_small_stack(test: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(test)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_nesting_in_a_jsonl_body_is_malformed_not_a_crash() {
    with_small_stack(|| {
        let good = r#"{"request": {"method": "GET", "path": "/a"}}"#;
        let deep = format!(
            r#"{{"request": {{"method": "POST", "path": "/a", "body": {}}}}}"#,
            nested(DEPTH)
        );
        let deep_unclosed = format!(
            r#"{{"request": {{"method": "POST", "path": "/a", "body": {}"#,
            "[".repeat(DEPTH)
        );
        let input = format!("{good}\n{deep}\n{deep_unclosed}\n{good}\n");
        let entries = read_bytes("deep.jsonl", input.as_bytes(), Format::JsonLines);
        assert_eq!(entries.len(), 4);
        assert!(entries[0].is_ok() && entries[3].is_ok());
        // Too deep, or (never closed) cut off: each the finding of its own line.
        for (entry, line, ending) in [
            (&entries[1], 2, "nesting too deep (more than 128 levels)"),
            (&entries[2], 3, "(EOF while parsing a list)"),
        ] {
            let err = entry.as_ref().unwrap_err();
            assert_eq!(err.line, Some(line));
            assert!(err.message.ends_with(ending), "{}", err.message);
        }
        // Just under the limit is fine, and is JSON.
        let ok = format!(
            r#"{{"request": {{"method": "POST", "path": "/a", "body": {}}}}}"#,
            nested(100)
        );
        let entries = read_bytes("ok.jsonl", ok.as_bytes(), Format::JsonLines);
        let exchange = entries[0].as_ref().unwrap();
        assert!(matches!(exchange.request.body, Some(Body::Json(_))));
    });
}

#[test]
fn deep_nesting_in_a_har_is_never_parsed_recursively() {
    with_small_stack(|| {
        let deep = nested(DEPTH);
        // In a text body: a string for the reader, the checker's to parse.
        let entry = format!(
            r#"{{"request": {{"method": "POST", "url": "https://h/a", "headers": [],
                "postData": {{"mimeType": "application/json", "text": "{deep}"}}}},
              "_extra": {deep}}}"#
        );
        // In fields the reader skips or reads: skipped without recursion.
        let odd = format!(
            r#"{{"request": {{"method": "GET", "url": "https://h/b", "headers": {deep}}}}}"#
        );
        let har = format!(r#"{{"log": {{"x": {deep}, "entries": [{entry}, {odd}]}}}}"#);
        let entries = read_bytes("deep.har", har.as_bytes(), Format::Har);
        assert_eq!(entries.len(), 2);
        let first = entries[0].as_ref().unwrap();
        assert_eq!(first.request.body, Some(Body::Text(deep.clone())));
        let second = entries[1].as_ref().unwrap_err();
        assert_eq!(
            second.message,
            "entry 1: request.headers[0][0] is an array, expected a string"
        );
        // Cut in the middle of deep nesting: one Malformed, no overflow.
        let cut = format!(
            r#"{{"log": {{"entries": [{entry}, {{"x": {}"#,
            "[".repeat(DEPTH)
        );
        let entries = read_bytes("cut.har", cut.as_bytes(), Format::Har);
        assert_eq!(entries.len(), 2);
        let err = entries[1].as_ref().unwrap_err();
        assert!(
            err.message
                .starts_with("stopped after 1 entries: EOF while parsing"),
            "{}",
            err.message
        );
    });
}

/// A reader that counts what has been read from it.
struct Counting<R> {
    inner: R,
    read: Rc<Cell<usize>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n);
        Ok(n)
    }
}

fn big_har(entries: usize) -> Vec<u8> {
    let entry = r#"{"startedDateTime": "2025-01-02T03:04:05Z", "time": 1,
        "request": {"method": "GET", "url": "https://api.example.com/v1/banking/accounts?limit=10",
          "httpVersion": "HTTP/1.1", "cookies": [], "headersSize": -1, "bodySize": 0,
          "headers": [{"name": "Accept", "value": "application/json"}], "queryString": []},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
          "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": 2,
          "headers": [{"name": "Content-Type", "value": "application/json"}],
          "content": {"size": 2, "mimeType": "application/json", "text": "{\"data\": []}"}},
        "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}"#;
    let mut har =
        br#"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": ["#
            .to_vec();
    for i in 0..entries {
        if i > 0 {
            har.push(b',');
        }
        har.extend_from_slice(entry.as_bytes());
    }
    har.extend_from_slice(b"]}}");
    har
}

#[test]
fn har_entries_are_streamed() {
    let har = big_har(10_000);
    let read = Rc::new(Cell::new(0));
    let reader = BufReader::new(Counting {
        inner: har.as_slice(),
        read: Rc::clone(&read),
    });
    let mut read_at_first = None;
    let mut count = 0;
    read::read("big.har", reader, Format::Har, &[], &mut |entry| {
        entry.unwrap();
        read_at_first.get_or_insert(read.get());
        count += 1;
    })
    .unwrap();
    assert_eq!(count, 10_000);
    let read_at_first = read_at_first.unwrap();
    assert!(
        read_at_first < har.len() / 10,
        "first entry after {read_at_first} of {} bytes",
        har.len()
    );
}

/// A reader that fails after `ok` bytes.
struct Failing<'a> {
    data: &'a [u8],
    ok: usize,
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ok == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.ok).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.ok -= n;
        Ok(n)
    }
}

#[test]
fn io_errors_fail_the_read_only_before_anything_was_read() {
    let har = std::fs::read(input("clean.har")).unwrap();
    let jsonl = std::fs::read(input("clean.jsonl")).unwrap();
    for (format, data) in [(Format::Har, &har), (Format::JsonLines, &jsonl)] {
        let reader = BufReader::new(Failing { data, ok: 0 });
        let err = read::read("x", reader, format, &[], &mut |_| {}).unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");

        let cut = data.len() / 2;
        let reader = BufReader::with_capacity(64, Failing { data, ok: cut });
        let mut entries = Vec::new();
        read::read("x", reader, format, &[], &mut |entry| entries.push(entry)).unwrap();
        let last = entries.pop().unwrap().unwrap_err();
        assert!(last.message.contains("disk on fire"), "{}", last.message);
        assert!(!entries.is_empty() && entries.iter().all(Result::is_ok));
    }
}

/// Throughput against a plain serde_json parse of the same bytes. Run with
/// `cargo test --release -p specval --test readers -- --ignored --nocapture throughput`.
#[test]
#[ignore = "a measurement; run in release"]
fn throughput() {
    use std::time::Instant;

    fn best(mut run: impl FnMut()) -> f64 {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                run();
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    }

    let har = big_har(50_000);
    let mut jsonl = Vec::new();
    let line = br#"{"id": "x", "request": {"method": "GET", "url": "https://api.example.com/v1/banking/accounts?limit=10", "headers": {"Accept": "application/json", "User-Agent": "t/1"}}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"data": [{"id": "a-1", "balance": {"value": "10.00", "currency": "EUR"}, "status": "active"}], "next": null}}}"#;
    for _ in 0..50_000 {
        jsonl.extend_from_slice(line);
        jsonl.push(b'\n');
    }
    let mb = |bytes: &[u8], secs: f64| bytes.len() as f64 / secs / 1e6;

    let value = best(|| {
        let _: serde_json::Value = serde_json::from_slice(&har).unwrap();
    });
    let value_reader = best(|| {
        let _: serde_json::Value = serde_json::from_reader(BufReader::new(har.as_slice())).unwrap();
    });
    let reader = best(|| {
        let mut n = 0;
        read::read("b", har.as_slice(), Format::Har, &webhooks(), &mut |e| {
            e.unwrap();
            n += 1;
        })
        .unwrap();
        assert_eq!(n, 50_000);
    });
    println!(
        "HAR {} MB: serde_json Value from_slice {:.0} MB/s, from_reader {:.0} MB/s; read {:.0} MB/s",
        har.len() / 1_000_000,
        mb(&har, value),
        mb(&har, value_reader),
        mb(&har, reader)
    );

    let value = best(|| {
        for line in jsonl.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let _: serde_json::Value = serde_json::from_slice(line).unwrap();
        }
    });
    let reader = best(|| {
        let mut n = 0;
        read::read(
            "b",
            jsonl.as_slice(),
            Format::JsonLines,
            &webhooks(),
            &mut |e| {
                e.unwrap();
                n += 1;
            },
        )
        .unwrap();
        assert_eq!(n, 50_000);
    });
    println!(
        "JSONL {} MB: serde_json Value per line {:.0} MB/s; read {:.0} MB/s",
        jsonl.len() / 1_000_000,
        mb(&jsonl, value),
        mb(&jsonl, reader)
    );
}

/// Reads with a small entry limit: the entries before the large one, and the error.
fn read_limited(bytes: &[u8], format: Format, max_entry: usize) -> (Vec<Entry>, io::Error) {
    let mut entries = Vec::new();
    let limits = read::Limits { max_entry };
    let err = read::read_limited("big", bytes, format, &webhooks(), limits, &mut |entry| {
        entries.push(entry)
    })
    .expect_err("an entry over the limit stops the read");
    (entries, err)
}

#[test]
fn an_entry_over_the_size_limit_stops_the_read_after_the_entries_before_it() {
    let big = "x".repeat(4096);
    let good = r#"{"request": {"method": "GET", "url": "/v1/a"}}"#;
    let jsonl = format!("{good}\n\n{{\"id\": \"{big}\"}}\n{good}\n");
    let (entries, err) = read_limited(jsonl.as_bytes(), Format::JsonLines, 1024);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].as_ref().expect("the first line").line, Some(1));
    let large = read::TooLarge::of(&err).expect("a TooLarge");
    assert_eq!((large.index, large.line, large.limit), (1, Some(3), 1024));
    assert!(
        err.to_string()
            .starts_with("line 3 is larger than the limit of 1024 bytes")
    );
    // Under the limit, the same line is read.
    assert_eq!(
        read_bytes("big", jsonl.as_bytes(), Format::JsonLines).len(),
        3
    );

    let har = format!(
        "{{\"log\": {{\"entries\": [\n  {good},\n  {{\"comment\": \"{big}\"}},\n  {good}\n]}}}}"
    );
    let (entries, err) = read_limited(har.as_bytes(), Format::Har, 1024);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].as_ref().expect("the first entry").line, Some(2));
    let large = read::TooLarge::of(&err).expect("a TooLarge");
    assert_eq!((large.index, large.line), (1, Some(3)));
    assert!(
        err.to_string()
            .starts_with("entry 1 (line 3) is larger than the limit")
    );
    assert_eq!(read_bytes("big", har.as_bytes(), Format::Har).len(), 3);

    // Outside the entries, and a string that never ends.
    let head = format!("{{\"log\": {{\"comment\": \"{big}\", \"entries\": []}}}}");
    let (entries, err) = read_limited(head.as_bytes(), Format::Har, 1024);
    assert_eq!(entries, vec![]);
    assert!(
        err.to_string()
            .starts_with("the HAR before log.entries is larger")
    );
    let endless = std::io::repeat(b'x');
    let mut prefix = b"{\"log\": {\"entries\": [{\"comment\": \"".to_vec();
    prefix.extend(std::iter::repeat_n(b'y', 10));
    let reader = BufReader::new(io::Cursor::new(prefix).chain(endless));
    let err = read::read_limited(
        "endless",
        reader,
        Format::Har,
        &webhooks(),
        read::Limits { max_entry: 1 << 20 },
        &mut |_| {},
    )
    .expect_err("stops");
    assert!(read::TooLarge::of(&err).is_some(), "{err}");
}

/// HAR 1.2 gives a posted form either as `postData.text` or as `postData.params`; browsers
/// and proxies write either. A form recorded as params is the form that was sent, not a
/// request without a body.
#[test]
fn a_har_form_given_as_params_is_the_form_sent() {
    let har = json!({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
        {"request": {"method": "POST", "url": "https://api.example.com/Messages.json",
            "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}],
            "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [
                {"name": "To", "value": "+1 555"}, {"name": "MediaUrl", "value": "a&b"},
                {"name": "MediaUrl", "value": "c"}]}},
         "response": {"status": 201, "headers": [], "content": {"size": 0, "mimeType": ""}}},
        {"request": {"method": "POST", "url": "https://api.example.com/Media.json",
            "headers": [], "postData": {"mimeType": "multipart/form-data; boundary=x",
            "params": [{"name": "file", "fileName": "cat.png", "contentType": "image/png"}]}},
         "response": {"status": 201, "headers": [], "content": {"size": 0, "mimeType": ""}}},
        {"request": {"method": "POST", "url": "https://api.example.com/empty",
            "headers": [], "postData": {"mimeType": "application/x-www-form-urlencoded", "params": []}},
         "response": {"status": 201, "headers": [], "content": {"size": 0, "mimeType": ""}}}
    ]}});
    let bodies: Vec<Option<Body>> = oks(read_bytes(
        "forms.har",
        har.to_string().as_bytes(),
        Format::Har,
    ))
    .into_iter()
    .map(|exchange| exchange.request.body)
    .collect();
    assert_eq!(
        bodies,
        vec![
            text("To=%2B1+555&MediaUrl=a%26b&MediaUrl=c"),
            // A multipart form's fields are its parts, split by the boundary it declares; the
            // file's content, not recorded, is empty.
            text(
                "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"cat.png\"\r\n\
                 Content-Type: image/png\r\n\r\n\r\n--x--\r\n"
            ),
            None
        ]
    );
}

/// A multipart form listed as `params`, under a Content-Type without a boundary: the parts
/// read back as the fields and values the recording lists.
#[test]
fn a_har_multipart_form_given_as_params_reads_as_its_parts() {
    let har = json!({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
        {"request": {"method": "POST", "url": "https://api.example.com/uploads",
            "headers": [{"name": "Content-Type", "value": "multipart/form-data"}],
            "postData": {"mimeType": "multipart/form-data", "params": [
                {"name": "attributes", "value": "{\"name\": \"Rex\"}", "contentType": "application/json"},
                {"name": "retries", "value": "2"},
                {"name": "file", "fileName": "a.txt", "value": "hello"}]}},
         "response": {"status": 201, "headers": [], "content": {"size": 0, "mimeType": ""}}}
    ]}});
    let exchanges = oks(read_bytes(
        "upload.har",
        har.to_string().as_bytes(),
        Format::Har,
    ));
    let Some(Body::Text(body)) = &exchanges[0].request.body else {
        panic!("a multipart body: {:?}", exchanges[0].request.body);
    };
    let parts = specval::multipart::parts(body.as_bytes(), None).expect("the parts read back");
    let read: Vec<(&str, &str, bool)> = parts
        .iter()
        .map(|part| (part.name.as_str(), part.text.as_str(), part.json))
        .collect();
    assert_eq!(
        read,
        vec![
            ("attributes", "{\"name\": \"Rex\"}", true),
            ("retries", "2", false),
            ("file", "hello", false)
        ]
    );
}

/// A hand-written JSON Lines record often gives a form or a text body as a `body` string. Read
/// as a JSON value it would be a JSON string, which no form is, and its fields would go
/// unchecked; where the message's Content-Type says it is not JSON, the string is the body's
/// text. Under a JSON Content-Type, or none, a string stays the JSON string it is.
#[test]
fn a_body_string_under_a_media_type_that_is_not_json_is_its_text() {
    let lines = [
        json!({"request": {"method": "POST", "path": "/Messages.json",
            "headers": {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"},
            "body": "To=%2B1&Attempt=2"},
            "response": {"status": 200, "headers": {"content-type": "text/plain"}, "body": "ok"}}),
        json!({"request": {"method": "POST", "path": "/echo",
            "headers": {"Content-Type": "application/json"}, "body": "To=x"},
            "response": {"status": 200, "headers": {"content-type": "application/problem+json"},
            "body": "plain"}}),
        json!({"request": {"method": "POST", "path": "/echo", "body": "To=x"},
            "response": {"status": 200, "headers": {"content-type": "text/plain"}, "body": ""}}),
    ];
    let text_of_lines: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let bodies: Vec<(Option<Body>, Option<Body>)> = oks(read_bytes(
        "hand.jsonl",
        text_of_lines.as_bytes(),
        Format::JsonLines,
    ))
    .into_iter()
    .map(|exchange| {
        (
            exchange.request.body,
            exchange.response.and_then(|response| response.body),
        )
    })
    .collect();
    assert_eq!(
        bodies,
        vec![
            (text("To=%2B1&Attempt=2"), text("ok")),
            (
                Some(Body::Json(json!("To=x"))),
                Some(Body::Json(json!("plain")))
            ),
            (Some(Body::Json(json!("To=x"))), None),
        ]
    );
}

/// A HAR saved without content (Firefox without "save response bodies", a sanitised export, a
/// hand-written file) leaves `text` out but still says how large the body was. That body was
/// sent and is not in the file: read as no body, a documented one would be reported missing.
/// Where no size says so, or the message cannot have a body, there is none.
#[test]
fn a_har_body_left_out_but_sized_is_unrecorded_not_absent() {
    let response = |status: u16, content: serde_json::Value, headers: serde_json::Value| json!({"status": status, "headers": headers, "content": content});
    let entry = |method: &str, response: serde_json::Value| {
        json!({"request": {"method": method, "url": "https://api.example.com/things/1",
                            "headers": []},
               "response": response})
    };
    let no_headers = json!([]);
    let length = json!([{"name": "Content-Length", "value": "120"}]);
    let entries = [
        // content.size, no text: the body existed.
        entry(
            "GET",
            response(
                200,
                json!({"size": 700, "mimeType": "application/json"}),
                no_headers.clone(),
            ),
        ),
        // An empty text with a size is the same.
        entry(
            "GET",
            response(200, json!({"size": 700, "text": ""}), no_headers.clone()),
        ),
        // No size in the content; the Content-Length says it.
        entry("GET", response(200, json!({"size": -1}), length.clone())),
        // Nothing says there was a body: none.
        entry(
            "GET",
            response(200, json!({"size": 0, "mimeType": ""}), no_headers.clone()),
        ),
        // A 204 and a HEAD answer have none, whatever the length says.
        entry("DELETE", response(204, json!({"size": 0}), length.clone())),
        entry("HEAD", response(200, json!({"size": 0}), length.clone())),
        // A recorded body stays what it is.
        entry(
            "GET",
            response(200, json!({"size": 2, "text": "{}"}), no_headers.clone()),
        ),
        // A request whose postData is left out, with its bodySize.
        json!({"request": {"method": "POST", "url": "https://api.example.com/things",
                            "headers": [], "bodySize": 42},
               "response": response(201, json!({"size": 0}), no_headers.clone())}),
        // Charles: a postData with neither text nor params, bodySize -1: a body was sent,
        // of a size nobody recorded.
        json!({"request": {"method": "POST", "url": "https://api.example.com/things",
                            "headers": [], "bodySize": -1,
                            "postData": {"mimeType": "application/json", "params": []}},
               "response": response(201, json!({"size": 0}), no_headers.clone())}),
        // The same postData with a bodySize of 0: no body.
        json!({"request": {"method": "POST", "url": "https://api.example.com/things",
                            "headers": [], "bodySize": 0,
                            "postData": {"mimeType": "application/json"}},
               "response": response(201, json!({"size": 0}), no_headers.clone())}),
        // Playwright's minimal mode: a postData (written only for a body that was sent) with
        // an empty text, of unknown size: unrecorded, not a missing body the client is
        // blamed for.
        json!({"request": {"method": "POST", "url": "https://api.example.com/things",
                            "headers": [], "bodySize": -1,
                            "postData": {"mimeType": "application/json", "text": ""}},
               "response": response(201, json!({"size": 0}), no_headers.clone())}),
        // Playwright: a content of size -1 (not known) without text, bodySize -1 too: a body
        // may have come, unrecorded, as a request's postData without text is; not "none",
        // which would blame the server for a missing body.
        json!({"request": {"method": "GET", "url": "https://api.example.com/things",
                            "headers": []},
               "response": {"status": 200, "headers": [], "bodySize": -1,
                            "content": {"size": -1, "mimeType": "application/json"}}}),
    ];
    let har = json!({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                             "entries": entries}});
    let exchanges = oks(read_bytes(
        "bare.har",
        har.to_string().as_bytes(),
        Format::Har,
    ));
    let bodies: Vec<Option<Body>> = exchanges
        .iter()
        .map(|e| e.response.as_ref().unwrap().body.clone())
        .collect();
    assert_eq!(
        bodies,
        vec![
            Some(Body::Unrecorded(700)),
            Some(Body::Unrecorded(700)),
            Some(Body::Unrecorded(120)),
            None,
            None,
            None,
            text("{}"),
            None,
            None,
            None,
            None,
            Some(Body::Unrecorded(0)),
        ]
    );
    assert_eq!(exchanges[7].request.body, Some(Body::Unrecorded(42)));
    assert_eq!(exchanges[8].request.body, Some(Body::Unrecorded(0)));
    assert_eq!(exchanges[9].request.body, None);
    assert_eq!(exchanges[10].request.body, Some(Body::Unrecorded(0)));
    assert_eq!(exchanges[0].request.body, None);
}

/// Headers and a query given as an object may give a name a list of values, as Node.js and
/// many loggers write a repeated header: the name is repeated, in order. Anything but
/// strings, numbers and flags in the list is still a malformed entry.
#[test]
fn a_list_of_values_in_object_headers_or_query_repeats_the_name() {
    let lines = [
        json!({"request": {"method": "GET", "path": "/things",
            "query": {"tag": ["a", "b"], "limit": 5},
            "headers": {"Accept": ["application/json", "text/plain"], "X-One": "1"}},
            "response": {"status": 200, "headers": {"Set-Cookie": ["a=1", "b=2"]}}}),
        json!({"request": {"method": "GET", "path": "/things",
            "headers": {"Accept": ["application/json", {"no": 1}]}}}),
    ];
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let entries = read_bytes("hand.jsonl", text.as_bytes(), Format::JsonLines);
    let Ok(read) = &entries[0] else {
        panic!("{:?}", entries[0]);
    };
    assert_eq!(
        read.request.query,
        strings(&[("tag", "a"), ("tag", "b"), ("limit", "5")])
    );
    assert_eq!(
        read.request.headers,
        strings(&[
            ("Accept", "application/json"),
            ("Accept", "text/plain"),
            ("X-One", "1")
        ])
    );
    assert_eq!(
        read.response.as_ref().unwrap().headers,
        strings(&[("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
    );
    assert_eq!(
        entries[1],
        malformed(
            "hand.jsonl",
            1,
            Some(2),
            "line 2: request.headers.Accept[1] is an object, expected a string"
        )
    );
}

/// Records written with other tools' names for the fields (`req`/`res`, `uri`, `statusCode`,
/// `status_code`, `body_text`), or with both a `url` and its `path`, read as the same exchange
/// as with the documented names.
#[test]
fn jsonl_takes_other_tools_names_for_its_fields() {
    let documented = json!({"request": {"method": "POST", "url": "https://h/v1/x",
                             "bodyText": "a=1"},
                            "response": {"status": 201, "bodyText": "ok"}});
    let others = [
        json!({"req": {"method": "POST", "uri": "https://h/v1/x", "body_text": "a=1"},
               "res": {"statusCode": 201, "body_text": "ok"}}),
        json!({"request": {"method": "POST", "url": "https://h/v1/x", "bodyText": "a=1"},
               "response": {"status_code": "201", "bodyText": "ok"}}),
        // Both a url and the path it names.
        json!({"request": {"method": "POST", "url": "https://h/v1/x", "path": "/v1/x",
                           "bodyText": "a=1"},
               "response": {"status": 201, "bodyText": "ok"}}),
    ];
    let read = |record: &serde_json::Value| {
        read_bytes("t", format!("{record}\n").as_bytes(), Format::JsonLines)
    };
    let expected = read(&documented);
    assert!(expected[0].is_ok(), "{expected:?}");
    for other in &others {
        assert_eq!(read(other), expected, "{other}");
    }
    // Other words for a record's kind.
    let kind_of = |kind: &str| {
        let record = json!({"kind": kind, "request": {"method": "POST", "path": "/hooks"}});
        match &read(&record)[0] {
            Ok(exchange) => exchange.kind,
            Err(malformed) => panic!("{kind}: {}", malformed.message),
        }
    };
    for kind in ["notification", "Webhook", "callback", "event"] {
        assert_eq!(kind_of(kind), Some(ExchangeKind::Notification), "{kind}");
    }
    for kind in ["operation", "request", "CALL"] {
        assert_eq!(kind_of(kind), Some(ExchangeKind::Operation), "{kind}");
    }
}

/// Loggers write an empty body as `"body": ""`: no body, as `null` is, not the JSON string
/// `""` (which made a bodiless POST `body-unexpected` and an empty 200 a `type` finding).
/// The JSON text `""` itself can still be written as `bodyText`.
#[test]
fn an_empty_string_body_in_json_lines_is_no_body() {
    let read = |body: serde_json::Value| {
        let record = json!({"request": {"method": "POST", "path": "/v1/x", "body": body},
                            "response": {"status": 200, "body": ""}});
        match &read_bytes("t", format!("{record}\n").as_bytes(), Format::JsonLines)[0] {
            Ok(exchange) => (
                exchange.request.body.clone(),
                exchange.response.as_ref().and_then(|r| r.body.clone()),
            ),
            Err(malformed) => panic!("{}", malformed.message),
        }
    };
    assert_eq!(read(json!("")), (None, None));
    assert_eq!(read(json!(null)), (None, None));
    assert_eq!(read(json!(" ")), (Some(Body::Json(json!(" "))), None));
    let record = json!({"request": {"method": "POST", "path": "/v1/x", "bodyText": "\"\""}});
    let entries = read_bytes("t", format!("{record}\n").as_bytes(), Format::JsonLines);
    assert_eq!(
        entries[0]
            .as_ref()
            .map(|exchange| exchange.request.body.clone())
            .ok(),
        Some(Some(Body::Text("\"\"".into())))
    );
}

/// A failed exchange: `specval proxy` records why there is no response (`error` in JSON Lines,
/// `_error` beside its `_kind` in a HAR), and the reader keeps it. A browser's `_error` (a
/// request the page cancelled) and another tool's `error` that is no string say nothing.
#[test]
fn a_recorded_failure_is_kept_and_a_browsers_cancellation_is_not() {
    let failure = |entries: Vec<Entry>| -> Vec<Option<String>> {
        entries
            .into_iter()
            .map(|entry| entry.expect("read").failure)
            .collect()
    };
    let jsonl = concat!(
        r#"{"kind": "operation", "request": {"method": "GET", "url": "/v1/a"}, "response": {"status": 0}, "error": "no response from http://127.0.0.1:9"}"#,
        "\n",
        r#"{"request": {"method": "GET", "url": "/v1/a"}, "error": {"code": 7}}"#,
        "\n",
        r#"{"request": {"method": "GET", "url": "/v1/a"}, "response": {"status": 200}, "error": "late"}"#,
        "\n",
    );
    assert_eq!(
        failure(read_bytes("a.jsonl", jsonl.as_bytes(), Format::JsonLines)),
        [
            Some("no response from http://127.0.0.1:9".to_owned()),
            None,
            None
        ]
    );
    let entry = |extra: &str| {
        format!(
            r#"{{"request": {{"method": "GET", "url": "http://h/v1/a", "headers": []}}, "response": {{"status": 0, "headers": [], "content": {{"size": 0}}}}{extra}}}"#
        )
    };
    let har = format!(
        r#"{{"log": {{"version": "1.2", "entries": [{}, {}]}}}}"#,
        entry(r#", "_kind": "operation", "_error": "no response from http://127.0.0.1:9""#),
        entry(r#", "_error": "net::ERR_ABORTED""#),
    );
    assert_eq!(
        failure(read_bytes("a.har", har.as_bytes(), Format::Har)),
        [Some("no response from http://127.0.0.1:9".to_owned()), None]
    );
}

/// Cookies an exporter lists only in a HAR's `cookies` arrays are the `Cookie` and
/// `Set-Cookie` headers they stand for, so a cookie credential is found (and kept out of
/// reports) as when the headers carry it; headers that do carry cookies stay as they are.
#[test]
fn cookies_listed_only_in_the_cookies_arrays_are_their_headers() {
    let har = |request_headers: &str, response_headers: &str| {
        format!(
            r#"{{"log": {{"entries": [{{
                "request": {{"method": "GET", "url": "https://api.example.com/v1/things",
                    "headers": [{request_headers}],
                    "cookies": [{{"name": "session", "value": "s1", "path": "/"}}, {{"name": "theme", "value": "dark"}}]}},
                "response": {{"status": 200, "headers": [{response_headers}],
                    "cookies": [{{"name": "session", "value": "s2", "httpOnly": true}}]}}}}]}}}}"#
        )
    };
    let headers_of = |text: String| {
        let exchange = oks(read_bytes("cookies.har", text.as_bytes(), Format::Har)).remove(0);
        (exchange.request.headers, exchange.response.unwrap().headers)
    };
    assert_eq!(
        headers_of(har("", "")),
        (
            strings(&[("Cookie", "session=s1; theme=dark")]),
            strings(&[("Set-Cookie", "session=s2")]),
        )
    );
    let recorded = r#"{"name": "Cookie", "value": "session=s1"}"#;
    let set = r#"{"name": "Set-Cookie", "value": "session=s2; HttpOnly"}"#;
    assert_eq!(
        headers_of(har(recorded, set)),
        (
            strings(&[("Cookie", "session=s1")]),
            strings(&[("Set-Cookie", "session=s2; HttpOnly")]),
        )
    );
}

/// Playwright's `recordHar` with `content: "attach"` keeps each body in a file beside the HAR,
/// named in `_file`: the body is read from it and checked like any other. A file that is not
/// there leaves the body unrecorded; a name that points elsewhere is never followed. A
/// request that got no answer is written with status `-1`: its request is still read, with
/// no response, as Chrome's status `0`.
#[test]
fn playwright_attached_bodies_and_unanswered_requests_are_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("aa11.json"), r#"{"id": "acc_1"}"#).unwrap();
    std::fs::write(dir.path().join("bb22.json"), r#"{"currency": "usd"}"#).unwrap();
    let post = |post_data: serde_json::Value, content: serde_json::Value, status: i64| {
        json!({"request": {"method": "POST", "url": "https://api.example.com/v1/banking/accounts",
                           "headers": [{"name": "Content-Type", "value": "application/json"}],
                           "bodySize": -1, "postData": post_data},
               "response": {"status": status, "headers": [], "bodySize": -1, "content": content}})
    };
    let attached = |name: &str| json!({"mimeType": "application/json", "text": "", "params": [], "_file": name});
    let entries = vec![
        post(
            attached("bb22.json"),
            json!({"size": 15, "mimeType": "application/json", "_file": "aa11.json"}),
            201,
        ),
        // Not beside the HAR: unrecorded, of the size the entry gives where it gives one.
        post(
            attached("gone.json"),
            json!({"size": 15, "mimeType": "application/json", "_file": "gone.json"}),
            201,
        ),
        // No answer (`_failureText` says why): the request alone.
        post(
            attached("bb22.json"),
            json!({"size": -1, "mimeType": "x-unknown"}),
            -1,
        ),
        // A path is never followed, whatever it names (`../aa11.json` is there).
        post(
            attached("../aa11.json"),
            json!({"size": -1, "mimeType": "x-unknown"}),
            -1,
        ),
    ];
    let har = json!({"log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.49"},
                             "entries": entries}});
    let source = dir.path().join("run.har");
    let entries = read_bytes(
        source.to_str().unwrap(),
        har.to_string().as_bytes(),
        Format::Har,
    );
    let read: Vec<&Exchange> = entries.iter().filter_map(|e| e.as_ref().ok()).collect();
    assert_eq!(read.len(), 4, "{entries:?}");
    assert_eq!(read[0].request.body, text(r#"{"currency": "usd"}"#));
    let response = read[0].response.as_ref().unwrap();
    assert_eq!(
        (response.status, &response.body),
        (201, &text(r#"{"id": "acc_1"}"#))
    );
    assert_eq!(read[1].request.body, Some(Body::Unrecorded(0)));
    assert_eq!(
        read[1].response.as_ref().unwrap().body,
        Some(Body::Unrecorded(15))
    );
    assert_eq!(read[2].request.body, text(r#"{"currency": "usd"}"#));
    assert_eq!(read[2].response, None);
    // A path is never followed: the body is unrecorded, and the rest of the exchange read.
    assert_eq!(read[3].request.body, Some(Body::Unrecorded(0)));
    assert_eq!(read[3].request.method, "POST");
}

/// A JSON Lines `body` that serde_json cannot hold as a value (a number beyond a double, a
/// surrogate escape without its pair) is kept as its JSON text, for the body check to judge as
/// it judges a HAR's: the record is read whole, its other members too, not lost as malformed.
#[test]
fn a_body_no_json_value_holds_is_kept_as_its_text() {
    let records = concat!(
        r#"{"id": "huge", "request": {"method": "GET", "url": "/v1/a"}, "response": {"status": 200, "body": {"n": 1E400}}}"#,
        "\n",
        r#"{"id": "lone", "request": {"method": "POST", "url": "/v1/a", "headers": {"Content-Type": "application/json"}, "body": ["x\ud800"]}}"#,
        "\n",
    );
    let entries = read_bytes("t.jsonl", records.as_bytes(), Format::JsonLines);
    let mut huge = exchange(0, Some("huge"), "t.jsonl", request("GET", "/v1/a"));
    huge.response = Some(Response {
        mime_type: Some("application/json".into()),
        ..response(200, &[], text(r#"{"n": 1E400}"#)).unwrap()
    });
    let mut lone = exchange(
        1,
        Some("lone"),
        "t.jsonl",
        Request {
            headers: strings(&[("Content-Type", "application/json")]),
            body: text(r#"["x\ud800"]"#),
            ..request("POST", "/v1/a")
        },
    );
    lone.response = None;
    assert_eq!(entries, vec![Ok(huge), Ok(lone)]);
}
