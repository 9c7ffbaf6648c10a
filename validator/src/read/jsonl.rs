//! JSON Lines reader: one exchange per line.
//!
//! Each line is one JSON object:
//!
//! ```json
//! {"id": "optional string", "kind": "operation" | "notification" (optional),
//!  "request": {"method": "POST", "url": "https://host/v1/banking/accounts?x=1" OR "path": "/v1/banking/accounts", "query": {"k": "v"} or [["k","v"]] (optional), "headers": {"Name": "value"} or [["Name","value"]] or [{"name":..,"value":..}], "body": <any JSON value> | "bodyText": "raw text" | "bodyBase64": "..."},
//!  "response": {"status": 201, "headers": {...}, "body": <JSON> | "bodyText": "..." | "bodyBase64": "..."} (optional)}
//! ```
//!
//! - A record must fit on one line. Blank lines are skipped (they still count for line
//!   numbers). Unknown fields are ignored.
//! - A line longer than [`Limits::max_entry`] (64 MiB by default) ends reading with a
//!   `TooLarge`: what comes after a line of unknown end cannot be trusted to
//!   ever come (`/dev/zero`), and the line is never held whole.
//! - `id`: a string (a number is taken as its text).
//! - `kind`: says whether the exchange is a call of the API or a notification it sent;
//!   without it, a record whose method and path match a webhook path is a notification.
//! - `request.method` is required (it is uppercased). Exactly one of `url` (an absolute URL,
//!   or a path) and `path` is required; either may carry a `?query`.
//! - `query`: the query parameters, already decoded. Without it, the query string of
//!   `url`/`path` is percent-decoded (`+` is a space).
//! - Header and query values are strings; a number or boolean is taken as its text.
//! - At most one of `body`, `bodyText`, `bodyBase64`. `body` is the body as a JSON value
//!   (kept as parsed, not re-read; `null` is no body); `bodyText` is the body as raw text (the
//!   checker parses it when the content type is JSON); `bodyBase64` is decoded, and is text
//!   when the bytes are UTF-8. An empty `bodyText`/`bodyBase64` is no body.
//! - `response` is optional; when given, `status` is required. Status `0` means no response.
//!
//! A line that cannot be read becomes a [`Malformed`](crate::exchange::Malformed) with its
//! 1-based line number, and reading goes on with the next line:
//! `line 7: request.method is missing`, `line 3, column 18: expected value`,
//! `line 5: not valid UTF-8 (byte 0xFF at column 12)`, `line 9, column 131: nesting too deep
//! (more than 128 levels)`. Indexes count records (not blank lines), malformed ones
//! included. An I/O error after the first line ends the file with one `Malformed`.

use std::io::{self, BufRead};

use serde::Deserialize;

use super::{
    BOM, Context, Field, Id, Limits, Pairs, Shape, Status, TooLarge, bare_message, object_shape,
    parse_query, split_target, text_body,
};
use crate::exchange::{Body, Entry, Exchange, ExchangeKind, Request, Response};

/// Reads a JSON Lines file; see the [module documentation](self) and [`super::read`].
pub fn read(
    source_name: &str,
    reader: impl BufRead,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    let sizes = ChunkSizes {
        lines: 1024,
        bytes: 1 << 20,
    };
    split(source_name, reader, limits, sizes, &mut |item| match item {
        Split::Lines(chunk) => {
            for at in &chunk.lines {
                sink(record(chunk.line(at), at.index, at.line, &context));
            }
        }
        Split::Entry(entry) => sink(*entry),
    })
}

/// Whole lines of a JSON Lines file in one buffer, not parsed yet, so that parsing can happen
/// elsewhere (in parallel) and no line costs an allocation of its own.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    /// The lines, one after another, each with its line break.
    pub(crate) bytes: Vec<u8>,
    /// The non-blank ones.
    pub(crate) lines: Vec<LineAt>,
}

/// Where a non-blank line is in its [`Chunk`], and which it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineAt {
    start: usize,
    end: usize,
    /// Its index among the records of the file (blank lines do not count).
    pub(crate) index: usize,
    /// Its 1-based line number.
    pub(crate) line: usize,
}

impl Chunk {
    /// The bytes of a line of this chunk (a byte order mark at the start of the file left out).
    pub(crate) fn line(&self, at: &LineAt) -> &[u8] {
        &self.bytes[at.start..at.end]
    }
}

/// How large a [`Chunk`] gets before [`split`] hands it over: whichever comes first (a line
/// is never cut, so one long line makes a chunk of its own, up to [`Limits::max_entry`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChunkSizes {
    /// Non-blank lines.
    pub(crate) lines: usize,
    /// Bytes.
    pub(crate) bytes: usize,
}

/// What [`split`] yields: lines to parse, or an entry already decided (a read error, last).
pub(crate) enum Split {
    Lines(Chunk),
    Entry(Box<Entry>),
}

/// Splits a JSON Lines file into chunks of whole lines, without parsing them: the line breaks
/// are found with `memchr` in what the reader has buffered and copied in bulk, so the thread
/// that reads does little per line. A line longer than `limits.max_entry` ends the file with a
/// [`TooLarge`] (after the lines before it have been handed over), and is never held whole.
pub(crate) fn split(
    source_name: &str,
    mut reader: impl BufRead,
    limits: Limits,
    sizes: ChunkSizes,
    sink: &mut dyn FnMut(Split),
) -> io::Result<()> {
    let context = Context {
        source: source_name,
        webhook_paths: &[],
    };
    let mut splitter = Splitter {
        chunk: Chunk::default(),
        partial: 0,
        line: 0,
        index: 0,
        sizes,
    };
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) if splitter.line == 0 && splitter.partial_len() == 0 => return Err(err),
            Err(err) => {
                let message = format!("line {}: read error, stopped: {err}", splitter.line + 1);
                let entry = context.malformed(splitter.index, Some(splitter.line + 1), message);
                splitter.finish(false, sink);
                sink(Split::Entry(Box::new(entry)));
                return Ok(());
            }
        };
        if available.is_empty() {
            splitter.finish(true, sink);
            return Ok(());
        }
        let mut taken = 0;
        for at in memchr::memchr_iter(b'\n', available) {
            let piece = &available[taken..=at];
            if splitter.partial_len() + piece.len() > limits.max_entry {
                return Err(splitter.too_large(limits, sink));
            }
            splitter.chunk.bytes.extend_from_slice(piece);
            taken = at + 1;
            splitter.end_line(sink);
        }
        let rest = &available[taken..];
        if splitter.partial_len() + rest.len() > limits.max_entry {
            return Err(splitter.too_large(limits, sink));
        }
        splitter.chunk.bytes.extend_from_slice(rest);
        let consumed = available.len();
        reader.consume(consumed);
    }
}

/// The state of [`split`].
struct Splitter {
    chunk: Chunk,
    /// Where the line being read starts in `chunk.bytes`.
    partial: usize,
    /// Lines ended so far (blank ones included).
    line: usize,
    /// Non-blank lines so far.
    index: usize,
    sizes: ChunkSizes,
}

impl Splitter {
    /// Bytes of the line being read so far.
    fn partial_len(&self) -> usize {
        self.chunk.bytes.len() - self.partial
    }

    /// The line being read ends at the end of `chunk.bytes`; hands the chunk over when full.
    fn end_line(&mut self, sink: &mut dyn FnMut(Split)) {
        self.line += 1;
        let mut start = self.partial;
        let end = self.chunk.bytes.len();
        self.partial = end;
        if self.line == 1 && self.chunk.bytes[start..end].starts_with(BOM) {
            start += BOM.len();
        }
        if self.chunk.bytes[start..end]
            .iter()
            .all(u8::is_ascii_whitespace)
        {
            return;
        }
        self.chunk.lines.push(LineAt {
            start,
            end,
            index: self.index,
            line: self.line,
        });
        self.index += 1;
        if self.chunk.lines.len() >= self.sizes.lines || end >= self.sizes.bytes {
            self.hand_over(sink);
        }
    }

    /// Hands the complete lines over (the chunk holds no partial line when called).
    fn hand_over(&mut self, sink: &mut dyn FnMut(Split)) {
        // About the size of the last one: a long line does not make every chunk after it large.
        let next = Chunk {
            bytes: Vec::with_capacity(self.chunk.bytes.len().min(self.sizes.bytes) + (64 << 10)),
            lines: Vec::with_capacity(self.chunk.lines.len().min(self.sizes.lines)),
        };
        let chunk = std::mem::replace(&mut self.chunk, next);
        self.partial = 0;
        if !chunk.lines.is_empty() {
            sink(Split::Lines(chunk));
        }
    }

    /// The input ended (`complete`: a last line without a line break is a line), or
    /// stopped (what was read of the line being read is dropped).
    fn finish(&mut self, complete: bool, sink: &mut dyn FnMut(Split)) {
        if complete && self.partial_len() > 0 {
            self.end_line(sink);
        }
        self.chunk.bytes.truncate(self.partial);
        self.hand_over(sink);
    }

    /// A line over the limit: the lines before it are handed over; its error.
    fn too_large(&mut self, limits: Limits, sink: &mut dyn FnMut(Split)) -> io::Error {
        self.finish(false, sink);
        TooLarge {
            index: self.index,
            line: Some(self.line + 1),
            limit: limits.max_entry,
            place: format!("line {}", self.line + 1),
        }
        .into_io()
    }
}

/// Parses a line of a [`Chunk`].
pub(crate) fn parse(
    source_name: &str,
    webhook_paths: &[(String, String)],
    chunk: &Chunk,
    at: &LineAt,
) -> Entry {
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    record(chunk.line(at), at.index, at.line, &context)
}

/// One non-blank line.
fn record(bytes: &[u8], index: usize, line: usize, context: &Context<'_>) -> Entry {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let at = err.valid_up_to();
            let message = format!(
                "line {line}: not valid UTF-8 (byte 0x{:02X} at column {})",
                bytes[at],
                at + 1
            );
            return context.malformed(index, Some(line), message);
        }
    };
    let raw = match serde_json::from_str::<Field<RawRecord>>(text) {
        Ok(raw) => raw,
        Err(err) => {
            let message = format!(
                "line {line}, column {}: {}",
                err.column(),
                bare_message(&err)
            );
            return context.malformed(index, Some(line), message);
        }
    };
    let mut problems = Vec::new();
    let exchange = raw
        .required("the record", &mut problems)
        .and_then(|raw| exchange(raw, index, context, &mut problems));
    match exchange {
        Some(exchange) if problems.is_empty() => Ok(Exchange {
            line: Some(line),
            ..exchange
        }),
        _ => context.malformed(
            index,
            Some(line),
            format!("line {line}: {}", problems.join("; ")),
        ),
    }
}

#[derive(Deserialize)]
struct RawRecord {
    #[serde(default)]
    id: Field<Id>,
    #[serde(default)]
    kind: Field<Kind>,
    #[serde(default)]
    request: Field<RawRequest>,
    #[serde(default)]
    response: Field<RawResponse>,
}

#[derive(Deserialize)]
struct RawRequest {
    #[serde(default)]
    method: Field<String>,
    #[serde(default)]
    url: Field<String>,
    #[serde(default)]
    path: Field<String>,
    #[serde(default)]
    query: Field<Pairs>,
    #[serde(default)]
    headers: Field<Pairs>,
    #[serde(default)]
    body: Field<serde_json::Value>,
    #[serde(default, rename = "bodyText")]
    body_text: Field<String>,
    #[serde(default, rename = "bodyBase64")]
    body_base64: Field<String>,
}

#[derive(Deserialize)]
struct RawResponse {
    #[serde(default)]
    status: Field<Status>,
    #[serde(default)]
    headers: Field<Pairs>,
    #[serde(default)]
    body: Field<serde_json::Value>,
    #[serde(default, rename = "bodyText")]
    body_text: Field<String>,
    #[serde(default, rename = "bodyBase64")]
    body_base64: Field<String>,
}

object_shape!(RawRecord, RawRequest, RawResponse);

/// `"operation"` or `"notification"`.
pub(super) struct Kind(pub(super) ExchangeKind);

impl Shape for Kind {
    const EXPECTED: &'static str = "\"operation\" or \"notification\"";

    fn from_str(value: &str) -> Result<Self, String> {
        if value.eq_ignore_ascii_case("operation") {
            Ok(Kind(ExchangeKind::Operation))
        } else if value.eq_ignore_ascii_case("notification") {
            Ok(Kind(ExchangeKind::Notification))
        } else {
            Err(super::wrong(&super::describe_string(value), Self::EXPECTED))
        }
    }
}

fn exchange(
    raw: RawRecord,
    index: usize,
    context: &Context<'_>,
    problems: &mut Vec<String>,
) -> Option<Exchange> {
    let id = raw.id.optional("id", problems).map(|Id(id)| id);
    let kind = raw.kind.optional("kind", problems).map(|Kind(kind)| kind);
    let request = raw
        .request
        .required("request", problems)
        .and_then(|request| self::request(request, problems));
    let response = raw
        .response
        .optional("response", problems)
        .and_then(|response| self::response(response, problems));
    let request = request?;
    let kind = kind.unwrap_or_else(|| context.kind(&request.method, &request.path));
    Some(Exchange {
        index,
        line: None,
        id,
        source: context.source.to_owned(),
        kind: Some(kind),
        request,
        response,
    })
}

fn request(raw: RawRequest, problems: &mut Vec<String>) -> Option<Request> {
    let method = raw
        .method
        .required("request.method", problems)
        .and_then(|method| super::method(method, "request.method", problems));
    let target = match (raw.url.is_present(), raw.path.is_present()) {
        (true, true) => {
            problems.push("request has both url and path, expected one of them".into());
            None
        }
        (false, true) => target(raw.path, "request.path", problems),
        _ => target(raw.url, "request.url", problems),
    };
    let query = raw.query.optional("request.query", problems);
    let headers = raw.headers.optional("request.headers", problems);
    let body = body(
        raw.body,
        raw.body_text,
        raw.body_base64,
        &REQUEST_BODY,
        problems,
    );
    let (path, raw_query) = target?;
    let query = match query {
        Some(Pairs(pairs)) => pairs,
        None => raw_query
            .map(|query| parse_query(&query))
            .unwrap_or_default(),
    };
    Some(Request {
        method: method?,
        path,
        query,
        headers: headers.map(|Pairs(pairs)| pairs).unwrap_or_default(),
        body,
        mime_type: None,
    })
}

/// The path and raw query of `url` or `path`.
fn target(
    field: Field<String>,
    name: &str,
    problems: &mut Vec<String>,
) -> Option<(String, Option<String>)> {
    let target = match field {
        Field::Missing => {
            problems.push("request.url (or request.path) is missing".into());
            return None;
        }
        field => field.required(name, problems)?,
    };
    match split_target(&target) {
        Ok((path, query)) => Some((path, query.map(str::to_owned))),
        Err(what) => {
            problems.push(format!("{name}{what}"));
            None
        }
    }
}

fn response(raw: RawResponse, problems: &mut Vec<String>) -> Option<Response> {
    let status = raw.status.required("response.status", problems);
    let headers = raw.headers.optional("response.headers", problems);
    let body = body(
        raw.body,
        raw.body_text,
        raw.body_base64,
        &RESPONSE_BODY,
        problems,
    );
    match status? {
        Status(0) => None,
        Status(status) => Some(Response {
            status,
            headers: headers.map(|Pairs(pairs)| pairs).unwrap_or_default(),
            body,
            mime_type: None,
        }),
    }
}

/// Field names of a message's body, for messages.
struct BodyNames {
    message: &'static str,
    json: &'static str,
    text: &'static str,
    base64: &'static str,
}

const REQUEST_BODY: BodyNames = BodyNames {
    message: "request",
    json: "request.body",
    text: "request.bodyText",
    base64: "request.bodyBase64",
};

const RESPONSE_BODY: BodyNames = BodyNames {
    message: "response",
    json: "response.body",
    text: "response.bodyText",
    base64: "response.bodyBase64",
};

fn body(
    json: Field<serde_json::Value>,
    text: Field<String>,
    base64: Field<String>,
    names: &BodyNames,
    problems: &mut Vec<String>,
) -> Option<Body> {
    let given = [json.is_present(), text.is_present(), base64.is_present()];
    if given.iter().filter(|&&given| given).count() > 1 {
        problems.push(format!(
            "{} has more than one of body, bodyText and bodyBase64",
            names.message
        ));
        return None;
    }
    if let Some(value) = json.optional(names.json, problems) {
        return Some(Body::Json(value));
    }
    if let Some(text) = text.optional(names.text, problems) {
        return text_body(text, false, names.text, problems);
    }
    let encoded = base64.optional(names.base64, problems)?;
    text_body(encoded, true, names.base64, problems)
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    /// `(index, line number, bytes)` of each line read.
    type Lines = Vec<(usize, usize, Vec<u8>)>;

    /// What a plain reading of the file gives: each line (up to and including `\n`, the last
    /// one without), the byte order mark left out of the first, blank lines skipped; then the
    /// line over the limit, if any. `(index, line, bytes)`.
    fn expected(input: &[u8], limit: usize) -> (Lines, Option<usize>) {
        let mut lines = Vec::new();
        let (mut index, mut number) = (0, 0);
        let mut rest = input;
        while !rest.is_empty() {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |at| at + 1);
            let (line, after) = rest.split_at(end);
            rest = after;
            if line.len() > limit {
                return (lines, Some(number + 1));
            }
            number += 1;
            let line = match line.strip_prefix(BOM) {
                Some(stripped) if number == 1 => stripped,
                _ => line,
            };
            if !line.iter().all(u8::is_ascii_whitespace) {
                lines.push((index, number, line.to_vec()));
                index += 1;
            }
        }
        (lines, None)
    }

    fn split_all(
        input: &[u8],
        limit: usize,
        sizes: ChunkSizes,
        buffer: usize,
    ) -> (Lines, Option<usize>, usize) {
        let mut lines = Vec::new();
        let mut chunks = 0;
        let reader = BufReader::with_capacity(buffer, input);
        let limits = Limits { max_entry: limit };
        let result = split("t.jsonl", reader, limits, sizes, &mut |item| match item {
            Split::Lines(chunk) => {
                chunks += 1;
                assert!(!chunk.lines.is_empty(), "an empty chunk was handed over");
                for at in &chunk.lines {
                    lines.push((at.index, at.line, chunk.line(at).to_vec()));
                }
            }
            Split::Entry(entry) => panic!("unexpected entry {entry:?}"),
        });
        let too_large = result.err().map(|err| {
            let large = TooLarge::of(&err).expect("a TooLarge");
            large.line.expect("a line")
        });
        (lines, too_large, chunks)
    }

    #[test]
    fn chunks_hold_the_lines_a_plain_reading_finds_whatever_their_size() {
        let inputs: [&[u8]; 7] = [
            b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n",
            b"\xEF\xBB\xBF{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}",
            b"\n\n\n{\"a\":1}\n\t\n{\"bb\":22}\n\n",
            b"{\"a\":1}\n{\"long\":\"0123456789012345678901234567890123456789\"}\n{\"c\":3}\n",
            b"",
            b"   ",
            b"x\ny\n\xEF\xBB\xBFz",
        ];
        let sizes = [(1, 1 << 20), (2, 1 << 20), (1024, 1), (1024, 20), (3, 40)];
        for input in inputs {
            for limit in [1 << 20, 60, 12, 9, 1] {
                let (want, want_large) = expected(input, limit);
                for (lines, bytes) in sizes {
                    for buffer in [1, 2, 7, 1 << 16] {
                        let sizes = ChunkSizes { lines, bytes };
                        let (got, large, chunks) = split_all(input, limit, sizes, buffer);
                        let case = format!(
                            "{:?}, limit {limit}, {lines} lines or {bytes} bytes, buffer {buffer}",
                            String::from_utf8_lossy(input)
                        );
                        assert_eq!(got, want, "{case}");
                        assert_eq!(large, want_large, "{case}");
                        if lines == 1 {
                            assert_eq!(chunks, want.len(), "one line a chunk: {case}");
                        }
                    }
                }
            }
        }
    }
}
