//! The proxy's recording: every exchange, credentials redacted, as HAR 1.2 or JSON Lines —
//! the two formats `specval check` reads.
//!
//! The file is valid after every exchange, so that a proxy stopped any way at all (even
//! killed) leaves a file `specval check` reads whole: a JSON Lines line is written at once; a
//! HAR file always ends with the closing `]}}` of its entries, and the next entry is written
//! over that ending, which is then written again. Each exchange reaches the file in one
//! `write` (nothing is held in a user-space buffer), so Ctrl-C loses nothing already answered.
//!
//! **Redaction**: the value of every credential the contract's security schemes declare
//! (`public-api-key` and `private-secret-key` here; [`Contract::names_credential`]) is
//! replaced by [`REDACTED`] in a header, a query parameter or a cookie of that name, whichever
//! place its scheme gives it (a key sent in the query by mistake is still a key), and in a
//! cookie the response sets; so are `Authorization` and `Proxy-Authorization` headers, which
//! carry credentials whatever a spec says (their scheme word kept: `Bearer REDACTED`, and a
//! `Basic` pair as `REDACTED:REDACTED`, so that a check of the recording judges the scheme as
//! the live check did). Wherever else the exchange repeats one of those
//! values (a path, another header, a body; percent-encoded too) it is replaced as well, even
//! though that may change what the recording's check says of that part. An empty value stays
//! empty, so that the recording's findings (`credentials` present or not) are the live ones.
//!
//! What a recording holds per exchange: the request as the client sent it (the path and
//! query it asked for, not the upstream's), the response as the client received it (without
//! hop-by-hop headers), and whether it is a call of the API or a notification (JSON Lines
//! `kind`, HAR `_kind`: both readers take it, so a notification delivered at a path other than
//! the documented one is judged as the same notification when the recording is checked). A
//! request the upstream never answered is recorded with response status `0` (no
//! response), as both readers understand it, and the reason in `_error`.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use base64::Engine;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};

use crate::contract::Contract;
use crate::exchange::{Body, Exchange, ExchangeKind};

/// What a credential's value is replaced by in a recording: the word a report puts in its
/// place too.
pub use crate::secrets::REDACTED;

/// The recording's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RecordFormat {
    /// HAR 1.2: one JSON document with an entry per exchange.
    Har,
    /// JSON Lines: one exchange per line, in the layout `specval check` reads.
    Jsonl,
}

impl RecordFormat {
    /// The format a file name asks for: `.har`, or `.jsonl` / `.ndjson`.
    pub fn from_path(path: &Path) -> Option<RecordFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "har" => Some(RecordFormat::Har),
            "jsonl" | "ndjson" => Some(RecordFormat::Jsonl),
            _ => None,
        }
    }
}

/// When an exchange happened, for the recording.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// When the request arrived.
    pub started: chrono::DateTime<chrono::Utc>,
    /// Milliseconds until the response was read whole.
    pub millis: f64,
}

/// Writes exchanges to a file as they complete.
#[derive(Debug)]
pub struct Recorder {
    file: File,
    format: RecordFormat,
    /// HAR: where the closing `]}}` starts, which the next entry overwrites.
    end: u64,
    entries: u64,
}

/// What follows the last HAR entry.
const HAR_END: &[u8] = b"\n]}}\n";

impl Recorder {
    /// Creates (or truncates) the file; a HAR file starts out as a valid HAR with no entries.
    pub fn create(path: &Path, format: RecordFormat) -> io::Result<Recorder> {
        let mut file = File::create(path)?;
        let mut end = 0;
        if format == RecordFormat::Har {
            let head = format!(
                r#"{{"log": {{"version": "1.2", "creator": {{"name": "specval proxy", "version": "{}"}}, "entries": ["#,
                env!("CARGO_PKG_VERSION")
            );
            file.write_all(head.as_bytes())?;
            end = head.len() as u64;
            file.write_all(HAR_END)?;
        }
        Ok(Recorder {
            file,
            format,
            end,
            entries: 0,
        })
    }

    /// Entries written.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Writes one exchange, which the caller has [`redact`]ed; `error` says why there is no
    /// response when there is none.
    pub fn write(
        &mut self,
        exchange: &Exchange,
        timing: Timing,
        error: Option<&str>,
    ) -> io::Result<()> {
        match self.format {
            RecordFormat::Jsonl => {
                let mut line = serde_json::to_vec(&jsonl_record(exchange, timing, error))
                    .map_err(io::Error::other)?;
                line.push(b'\n');
                self.file.write_all(&line)?;
            }
            RecordFormat::Har => {
                let mut bytes = Vec::new();
                if self.entries > 0 {
                    bytes.push(b',');
                }
                bytes.push(b'\n');
                serde_json::to_writer(&mut bytes, &har_entry(exchange, timing, error))
                    .map_err(io::Error::other)?;
                let end = self.end + bytes.len() as u64;
                bytes.extend_from_slice(HAR_END);
                // Longer than the ending it replaces, so no byte of that ending survives.
                self.file.seek(SeekFrom::Start(self.end))?;
                self.file.write_all(&bytes)?;
                self.end = end;
            }
        }
        self.entries += 1;
        Ok(())
    }
}

/// A copy of `exchange` with every credential value replaced by [`REDACTED`] (see the
/// [module documentation](self)).
pub fn redact(contract: &Contract, exchange: &Exchange) -> Exchange {
    // Borrowed from the exchange as sent; only the copy changes.
    let secrets = crate::secrets::credential_values(contract, exchange);
    let mut copy = exchange.clone();
    let request = &mut copy.request;
    for (name, value) in &mut request.headers {
        if value.is_empty() {
            continue;
        }
        if name.eq_ignore_ascii_case("authorization")
            || name.eq_ignore_ascii_case("proxy-authorization")
        {
            *value = redact_authorization(value, contract.http_scheme_words());
        } else if crate::secrets::is_credential_name(contract, name) {
            *value = REDACTED.to_string();
        } else if name.eq_ignore_ascii_case("cookie") {
            *value = redact_cookies(contract, value);
        }
    }
    for (name, value) in &mut request.query {
        if !value.is_empty() && crate::secrets::is_credential_name(contract, name) {
            *value = REDACTED.to_string();
        }
    }
    if let Some(response) = &mut copy.response {
        for (name, value) in &mut response.headers {
            if value.is_empty() {
                continue;
            }
            if name.eq_ignore_ascii_case("set-cookie") {
                if let Some(secret) = crate::secrets::set_cookie_credential(contract, value) {
                    *value = value.replacen(secret, REDACTED, 1);
                }
            } else if crate::secrets::is_credential_name(contract, name) {
                *value = REDACTED.to_string();
            }
        }
    }
    if !secrets.is_empty() {
        scrub_repeats(&mut copy, &secrets);
    }
    copy
}

/// `Authorization` with its credential redacted and its scheme kept, so that a check of the
/// recording judges the scheme as the live check did (`Bearer REDACTED`); a `Basic` one as
/// the pair `REDACTED:REDACTED`, so that it still presents a user and a password. `declared`
/// are the contract's `http` scheme words (a custom `HMAC-SHA256`, kept too). A scheme's word
/// alone (`Bearer`, no token) carries nothing and stays.
fn redact_authorization(value: &str, declared: &[String]) -> String {
    /// `REDACTED:REDACTED` in base64.
    const BASIC_REDACTED: &str = "UkVEQUNURUQ6UkVEQUNURUQ=";
    if specgen::manifest::is_scheme_word(value, declared) {
        return value.to_string();
    }
    // Only a word that reads as a scheme name is kept: a key sent as `<key> <more>` is not.
    let scheme = value
        .trim()
        .split_once(' ')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| {
            specgen::manifest::is_scheme_word(scheme, declared)
                || (scheme.len() <= 16 && scheme.chars().all(|c| c.is_ascii_alphabetic()))
        });
    match scheme {
        Some(scheme) if scheme.eq_ignore_ascii_case("basic") => {
            format!("{scheme} {BASIC_REDACTED}")
        }
        Some(scheme) => format!("{scheme} {REDACTED}"),
        None => REDACTED.to_string(),
    }
}

/// Whatever else of the exchange repeats one of its credential values (a path, a query
/// parameter, a header or a body that quotes the key) with the value replaced.
fn scrub_repeats(exchange: &mut Exchange, secrets: &[impl AsRef<str>]) {
    use crate::secrets::scrub_owned;
    let request = &mut exchange.request;
    scrub_owned(&mut request.path, secrets);
    for (name, value) in request.query.iter_mut().chain(&mut request.headers) {
        scrub_owned(name, secrets);
        scrub_owned(value, secrets);
    }
    scrub_body(request.body.as_mut(), secrets);
    if let Some(response) = &mut exchange.response {
        for (name, value) in &mut response.headers {
            scrub_owned(name, secrets);
            scrub_owned(value, secrets);
        }
        scrub_body(response.body.as_mut(), secrets);
    }
    if let Some(id) = &mut exchange.id {
        scrub_owned(id, secrets);
    }
}

fn scrub_body(body: Option<&mut Body>, secrets: &[impl AsRef<str>]) {
    match body {
        Some(Body::Json(value)) => scrub_json(value, secrets),
        Some(Body::Text(text)) => crate::secrets::scrub_owned(text, secrets),
        Some(Body::Binary(bytes)) => crate::secrets::scrub_bytes(bytes, secrets),
        Some(Body::Unrecorded(_)) | None => {}
    }
}

fn scrub_json(value: &mut Value, secrets: &[impl AsRef<str>]) {
    match value {
        Value::String(text) => crate::secrets::scrub_owned(text, secrets),
        Value::Array(items) => items.iter_mut().for_each(|item| scrub_json(item, secrets)),
        Value::Object(members) => {
            if members.keys().any(|name| {
                secrets
                    .iter()
                    .any(|secret| crate::secrets::quotes(name, secret.as_ref()))
            }) {
                *members = std::mem::take(members)
                    .into_iter()
                    .map(|(name, value)| {
                        (crate::secrets::scrub(&name, secrets).into_owned(), value)
                    })
                    .collect();
            }
            members
                .values_mut()
                .for_each(|member| scrub_json(member, secrets));
        }
        _ => {}
    }
}

/// A `Cookie` header with the values of credential cookies replaced.
fn redact_cookies(contract: &Contract, header: &str) -> String {
    header
        .split(';')
        .map(|pair| match pair.split_once('=') {
            Some((name, value))
                if !value.trim().is_empty()
                    && crate::secrets::is_credential_name(contract, name.trim()) =>
            {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// The characters a query name or value keeps as they are in a URL (RFC 3986 unreserved).
const QUERY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn query_string(query: &[(String, String)]) -> String {
    query
        .iter()
        .map(|(name, value)| {
            format!(
                "{}={}",
                utf8_percent_encode(name, QUERY),
                utf8_percent_encode(value, QUERY)
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn header_value(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.clone())
}

/// A body as text when it is UTF-8, else as base64: `(text, base64?)`.
fn body_text(body: &Option<Body>) -> Option<(String, bool)> {
    match body.as_ref()? {
        Body::Json(value) => Some((value.to_string(), false)),
        // The proxy records what passed through it, so it never holds such a body.
        Body::Unrecorded(_) => None,
        Body::Text(text) => Some((text.clone(), false)),
        Body::Binary(bytes) => Some(match std::str::from_utf8(bytes) {
            Ok(text) => (text.to_string(), false),
            Err(_) => (
                base64::engine::general_purpose::STANDARD.encode(bytes),
                true,
            ),
        }),
    }
}

fn body_len(body: &Option<Body>) -> usize {
    match body {
        None | Some(Body::Unrecorded(_)) => 0,
        Some(Body::Binary(bytes)) => bytes.len(),
        Some(Body::Text(text)) => text.len(),
        Some(Body::Json(value)) => value.to_string().len(),
    }
}

fn kind_name(exchange: &Exchange) -> &'static str {
    match exchange.kind {
        Some(ExchangeKind::Notification) => "notification",
        _ => "operation",
    }
}

fn pairs(headers: &[(String, String)]) -> Value {
    Value::Array(
        headers
            .iter()
            .map(|(name, value)| json!([name, value]))
            .collect(),
    )
}

/// One JSON Lines record (the layout of [`crate::read::jsonl`]).
fn jsonl_record(exchange: &Exchange, timing: Timing, error: Option<&str>) -> Value {
    let mut request = json!({
        "method": exchange.request.method,
        "path": exchange.request.path,
        "query": pairs(&exchange.request.query),
        "headers": pairs(&exchange.request.headers),
    });
    put_body(&mut request, &exchange.request.body);
    let mut record = json!({
        "kind": kind_name(exchange),
        "startedDateTime": timing.started.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "time": timing.millis,
        "request": request,
    });
    match &exchange.response {
        Some(response) => {
            let mut out = json!({
                "status": response.status,
                "headers": pairs(&response.headers),
            });
            put_body(&mut out, &response.body);
            record["response"] = out;
        }
        None => {
            record["response"] = json!({"status": 0});
            if let Some(error) = error {
                record["error"] = json!(error);
            }
        }
    }
    record
}

fn put_body(message: &mut Value, body: &Option<Body>) {
    match body_text(body) {
        Some((text, false)) => message["bodyText"] = json!(text),
        Some((base64, true)) => message["bodyBase64"] = json!(base64),
        None => {}
    }
}

fn name_values(pairs: &[(String, String)]) -> Value {
    Value::Array(
        pairs
            .iter()
            .map(|(name, value)| json!({"name": name, "value": value}))
            .collect(),
    )
}

/// One HAR 1.2 entry.
fn har_entry(exchange: &Exchange, timing: Timing, error: Option<&str>) -> Value {
    let request = &exchange.request;
    let host = request
        .authority
        .clone()
        .or_else(|| header_value(&request.headers, "host"))
        .unwrap_or_else(|| "localhost".into());
    let mut url = format!("http://{host}{}", request.path);
    if !request.query.is_empty() {
        url.push('?');
        url.push_str(&query_string(&request.query));
    }
    let mut har_request = json!({
        "method": request.method,
        "url": url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": name_values(&request.headers),
        "queryString": name_values(&request.query),
        "headersSize": -1,
        "bodySize": body_len(&request.body),
    });
    if let Some((text, base64)) = body_text(&request.body) {
        let mut post = json!({
            "mimeType": header_value(&request.headers, "content-type").unwrap_or_default(),
            "text": text,
        });
        if base64 {
            post["encoding"] = json!("base64");
        }
        har_request["postData"] = post;
    }
    let har_response = match &exchange.response {
        Some(response) => {
            let mut content = json!({
                "size": body_len(&response.body),
                "mimeType": header_value(&response.headers, "content-type").unwrap_or_default(),
            });
            if let Some((text, base64)) = body_text(&response.body) {
                content["text"] = json!(text);
                if base64 {
                    content["encoding"] = json!("base64");
                }
            }
            json!({
                "status": response.status,
                "statusText": http::StatusCode::from_u16(response.status)
                    .ok()
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or(""),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": name_values(&response.headers),
                "content": content,
                "redirectURL": header_value(&response.headers, "location").unwrap_or_default(),
                "headersSize": -1,
                "bodySize": body_len(&response.body),
            })
        }
        None => json!({
            "status": 0,
            "statusText": "",
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": [],
            "content": {"size": 0, "mimeType": ""},
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": -1,
        }),
    };
    let mut entry = json!({
        "startedDateTime": timing.started.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "time": timing.millis,
        "request": har_request,
        "response": har_response,
        "cache": {},
        "timings": {"send": 0, "wait": timing.millis, "receive": 0},
        "_kind": kind_name(exchange),
    });
    if let Some(error) = error {
        entry["_error"] = json!(error);
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::{Request, Response};

    fn exchange() -> Exchange {
        Exchange {
            index: 0,
            line: None,
            id: None,
            source: "proxy".into(),
            kind: None,
            request: Request {
                authority: None,
                userinfo: None,
                method: "GET".into(),
                path: "/items".into(),
                query: vec![
                    ("key".into(), "q-secret".into()),
                    ("page".into(), "2".into()),
                ],
                headers: vec![
                    ("Host".into(), "127.0.0.1:4010".into()),
                    ("X-Key".into(), "h-secret".into()),
                    ("Cookie".into(), "session=c-secret; theme=dark".into()),
                    ("Authorization".into(), "Bearer b-secret".into()),
                    ("public-api-key".into(), String::new()),
                ],
                body: Some(Body::Binary(b"\xff\x00binary".to_vec())),
                mime_type: None,
            },
            response: Some(Response {
                status: 200,
                headers: vec![("content-type".into(), "application/json".into())],
                body: Some(Body::Binary(br#"{"ok": true}"#.to_vec())),
                mime_type: None,
            }),
            failure: None,
        }
    }

    /// A contract whose schemes put a key in a header, a query parameter and a cookie.
    fn contract() -> Contract {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("spec.yaml");
        std::fs::write(
            &spec,
            r#"openapi: 3.1.0
info: {title: Fixture, version: 1.0.0}
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200': {description: ok}
security:
  - header: []
    query: []
    cookie: []
components:
  securitySchemes:
    header: {type: apiKey, in: header, name: X-Key}
    query: {type: apiKey, in: query, name: key}
    cookie: {type: apiKey, in: cookie, name: session}
"#,
        )
        .unwrap();
        Contract::from_spec(&spec).unwrap()
    }

    #[test]
    fn every_credential_is_redacted_wherever_its_scheme_puts_it() {
        let contract = contract();
        let redacted = redact(&contract, &exchange());
        let text = format!("{redacted:?}");
        for secret in ["q-secret", "h-secret", "c-secret", "b-secret"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(redacted.request.query[0].1, REDACTED);
        assert_eq!(redacted.request.query[1].1, "2");
        assert_eq!(
            redacted.request.headers[2].1,
            "session=REDACTED; theme=dark"
        );
        // An empty value stays empty: the recording must judge "missing" as live did.
        assert_eq!(redacted.request.headers[4].1, "");
        // `Authorization` keeps its scheme, so its check judges the scheme as live did.
        assert_eq!(redacted.request.headers[3].1, "Bearer REDACTED");
    }

    #[test]
    fn authorization_keeps_its_scheme_and_a_basic_pair_still_reads_as_one() {
        assert_eq!(
            redact_authorization("Bearer abc.def", &[]),
            "Bearer REDACTED"
        );
        assert_eq!(redact_authorization("token ghp_1", &[]), "token REDACTED");
        let basic = redact_authorization("Basic dXNlcjpwYXNz", &[]);
        assert_eq!(basic, "Basic UkVEQUNURUQ6UkVEQUNURUQ=");
        assert!(specgen::manifest::presents_credential(
            &basic,
            Some("basic")
        ));
        // No scheme word, or a word no scheme name reads as (the key itself): all redacted.
        assert_eq!(redact_authorization("sk_live_abc", &[]), REDACTED);
        assert_eq!(redact_authorization("sk_live_abc more", &[]), REDACTED);
        // A scheme the document declares keeps its word; a word alone carries nothing.
        assert_eq!(
            redact_authorization("HMAC-SHA256 c2lnbmF0dXJl", &["HMAC-SHA256".into()]),
            "HMAC-SHA256 REDACTED"
        );
        assert_eq!(
            redact_authorization("DPoP e30.e30.sig", &[]),
            "DPoP REDACTED"
        );
        assert_eq!(redact_authorization("Bearer", &[]), "Bearer");
    }

    /// `Authorization: Bearer` without a token is no credential: the word stays wherever the
    /// exchange holds it (a path's `/optional-bearer`), so a re-check finds the same path.
    #[test]
    fn a_scheme_word_sent_alone_is_not_masked_elsewhere() {
        let contract = contract();
        let mut sent = exchange();
        sent.request.path = "/api/optional-bearer".into();
        sent.request.headers = vec![("Authorization".into(), "Bearer".into())];
        let redacted = redact(&contract, &sent);
        assert_eq!(redacted.request.path, "/api/optional-bearer");
        assert_eq!(redacted.request.headers[0].1, "Bearer");
    }

    #[test]
    fn a_credential_is_redacted_in_any_place_and_wherever_the_exchange_repeats_it() {
        let contract = contract();
        let mut sent = exchange();
        // The header key sent in the query and in a cookie as well, its scheme's name in
        // another case; the query key as a header; the key repeated in the path (encoded),
        // another header and the bodies; the upstream setting the session cookie.
        sent.request.path = "/items/h%2Dsecret/q-secret".into();
        sent.request.query = vec![("x-key".into(), "h-secret".into())];
        sent.request.headers = vec![
            ("X-Key".into(), "h-secret".into()),
            ("Key".into(), "q-secret".into()),
            ("Cookie".into(), "X-KEY=h-secret; theme=dark".into()),
            ("X-Echo".into(), "was h-secret".into()),
        ];
        sent.request.body = Some(Body::Json(json!({"note": ["h-secret"], "h-secret": 1})));
        let response = sent.response.as_mut().unwrap();
        response.headers = vec![(
            "Set-Cookie".into(),
            "session=c-secret-new; Path=/; HttpOnly".into(),
        )];
        response.body = Some(Body::Binary(b"{\"echo\": \"q-secret\"}".to_vec()));
        let redacted = redact(&contract, &sent);
        let text = format!("{redacted:?}");
        for secret in ["h-secret", "h%2Dsecret", "q-secret", "c-secret-new"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(redacted.request.path, "/items/REDACTED/REDACTED");
        assert_eq!(redacted.request.query[0].1, REDACTED);
        assert_eq!(redacted.request.headers[1].1, REDACTED);
        assert_eq!(redacted.request.headers[2].1, "X-KEY=REDACTED; theme=dark");
        assert_eq!(redacted.request.headers[3].1, "was REDACTED");
        assert_eq!(
            redacted.response.as_ref().unwrap().headers[0].1,
            "session=REDACTED; Path=/; HttpOnly"
        );
        assert_eq!(
            redacted.request.body,
            Some(Body::Json(json!({"note": ["REDACTED"], "REDACTED": 1})))
        );
        assert_eq!(
            redacted.response.unwrap().body,
            Some(Body::Binary(b"{\"echo\": \"REDACTED\"}".to_vec()))
        );
    }

    #[test]
    fn a_har_recording_is_complete_after_every_entry() {
        let contract = contract();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("traffic.har");
        let mut recorder = Recorder::create(&path, RecordFormat::Har).unwrap();
        let timing = Timing {
            started: chrono::Utc::now(),
            millis: 1.5,
        };
        for entries in 1..=3 {
            recorder
                .write(&redact(&contract, &exchange()), timing, None)
                .unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let har: Value = serde_json::from_str(&text).unwrap();
            let written = har["log"]["entries"].as_array().unwrap();
            assert_eq!(written.len(), entries);
            assert_eq!(
                written[0]["request"]["url"],
                "http://127.0.0.1:4010/items?key=REDACTED&page=2"
            );
            assert_eq!(written[0]["request"]["postData"]["encoding"], "base64");
            assert_eq!(written[0]["response"]["content"]["text"], r#"{"ok": true}"#);
        }
        let mut none = exchange();
        none.response = None;
        recorder
            .write(&none, timing, Some("connection refused"))
            .unwrap();
        let mut read = Vec::new();
        crate::read::read_path(
            &path.to_string_lossy(),
            None,
            &contract.webhook_paths(),
            &mut |e| read.push(e),
        )
        .unwrap();
        assert_eq!(read.len(), 4);
        assert!(read[3].as_ref().unwrap().response.is_none());
        assert_eq!(
            read[0].as_ref().unwrap().kind,
            Some(ExchangeKind::Operation)
        );
    }

    #[test]
    fn a_notification_stays_one_wherever_it_was_delivered() {
        let timing = Timing {
            started: chrono::Utc::now(),
            millis: 1.0,
        };
        let mut notification = exchange();
        notification.kind = Some(ExchangeKind::Notification);
        notification.request.method = "POST".into();
        notification.request.path = "/hooks/elsewhere".into();
        for format in [RecordFormat::Har, RecordFormat::Jsonl] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("traffic");
            let mut recorder = Recorder::create(&path, format).unwrap();
            recorder.write(&notification, timing, None).unwrap();
            let mut read = Vec::new();
            let format = match format {
                RecordFormat::Har => crate::read::Format::Har,
                RecordFormat::Jsonl => crate::read::Format::JsonLines,
            };
            crate::read::read_path(&path.to_string_lossy(), Some(format), &[], &mut |e| {
                read.push(e)
            })
            .unwrap();
            let read = read[0].as_ref().unwrap();
            assert_eq!(read.kind, Some(ExchangeKind::Notification), "{format:?}");
        }
    }
}
