//! HAR 1.2 reader.
//!
//! The file is streamed: the top-level object is walked key by key down to `log.entries`,
//! and each element of that array is deserialized on its own, turned into an [`Exchange`]
//! and handed to the sink before the next one is read. Everything else (`creator`, `pages`,
//! `timings`, ...) is skipped without being built.
//!
//! What is taken from an entry:
//!
//! | field | from |
//! |---|---|
//! | `id` | the entry's `comment` when not empty, else `_id` (string or number) |
//! | `request.method` | `request.method`, uppercased |
//! | `request.path` | the path of `request.url`, as written (percent-encoded, no query) |
//! | `request.query` | the query of `request.url`, decoded; `request.queryString` only when the URL has no query (exporters disagree on whether `queryString` values are decoded, the URL is what was sent) |
//! | `request.headers` | `request.headers` (`[{"name", "value"}]`); and `request.cookies` as one `Cookie` header when the headers have none (some exporters list cookies only there) |
//! | `request.body` | `request.postData.text` (`postData.encoding: "base64"` is decoded); without a `text`, `postData.params` (HAR 1.2 lists a form's fields there instead) as the form it lists |
//! | `request.mime_type`, `response.mime_type` | `postData.mimeType`, `content.mimeType`: the body's media type when the headers have no Content-Type |
//! | `response` | none when `response` is absent or its `status` is `0` (or `-1`, Playwright's mark of a request that got no answer) |
//! | `response.status`, `headers` | `response.status`, `response.headers`; and `response.cookies` as `Set-Cookie` headers when the headers have none |
//! | `response.body` | `response.content.text` (decoded when `content.encoding` is `base64`) |
//! | an attached body | without a `text`, the file beside the HAR that `_file` (or `_sha1`) names, as Playwright's `content: "attach"` keeps bodies; a bare file name only, never a path |
//! | an unrecorded body | [`Body::Unrecorded`] when `text` (or `params`) is left out or empty while `content.size`, `Content-Length` or `bodySize` is above 0, or a request's `postData` has neither `text` nor `params` (Charles writes such a `postData` with `bodySize: -1`; size 0: unknown), or a response's `content` of size `-1` (not known: Playwright, Charles) holds no text, and no size is 0; never for a `1xx`, `204`, `205`, `304` or `HEAD` answer |
//! | `kind` | `_kind` (`"operation"` or `"notification"`, as `specval proxy` records it) when present, else notification when method and path match a webhook path |
//! | `failure` | `_error` (a string) of an entry without a response that has `_kind`: `specval proxy`'s record of an exchange the upstream did not answer |
//!
//! An entry of the wrong shape (no `request`, a `url` that is not a string, bad base64, ...)
//! becomes a [`Malformed`](crate::exchange::Malformed) naming the field
//! (`entry 3: request.url is missing`) and the next entry is read. An entry that is not JSON
//! (a syntax error, a byte that is not UTF-8) becomes a `Malformed` too (`entry 2: expected
//! ...`, with its line), and reading goes on after its closing brace, found by counting braces
//! outside strings from where the entry began. A cut-off file, an I/O error, or an entry
//! whose end cannot be found ends the file with one `Malformed` (`stopped after 41 entries:
//! EOF while parsing ...`, with the line of the error), after all the entries before it have
//! been delivered. A file that is not a HAR at all (not JSON, no `log.entries` array) gives
//! one `Malformed` starting `not a HAR file:`. An empty file (nothing but whitespace) has no
//! entries, like an empty JSON Lines file.

use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, BufReader};
use std::rc::Rc;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::attachments::{Attachments, Unread};
use super::nesting::Nesting;
use super::{
    Context, Field, Id, Limits, Pairs, Status, Target, TooLarge, object_shape, parse_query,
    skip_bom, split_target, text_body,
};
use crate::exchange::{Body, Entry, Exchange, Request, Response};
use crate::multipart;

/// Reads a HAR file; see the [module documentation](self) and [`super::read`].
pub fn read(
    source_name: &str,
    mut reader: impl BufRead,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    skip_bom(&mut reader)?;
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    let meter = Rc::new(Meter {
        limit: limits.max_entry as u64,
        ..Meter::default()
    });
    let attachments = Attachments::beside(source_name, limits.max_entry);
    let mut state = State {
        context: &context,
        attachments: &attachments,
        sink,
        entries: 0,
        phase: Phase::Start,
        meter: Rc::clone(&meter),
    };
    // serde_json reads byte by byte; a BufReader makes that cheap whatever `reader` is.
    let mut inner = BufReader::with_capacity(1 << 16, reader);
    let mut deserializer = serde_json::Deserializer::from_reader(Metered {
        inner: &mut inner,
        meter: Rc::clone(&meter),
        replay: Vec::new(),
    });
    let mut result = Top(&mut state)
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end());
    drop(deserializer);
    // An entry that does not read: told, skipped to its closing brace, and the entries after
    // it read as the rest of the array (`[` put back in front of them).
    let mut resumed = false;
    while let Err(err) = &result {
        if state.phase != Phase::Entries || meter.over.get() || err.is_io() || err.is_eof() {
            break;
        }
        let line = meter.entry_line.get();
        let seen = meter.tee.take();
        let message = match std::str::from_utf8(&seen) {
            Err(bad) => format!(
                "entry {}: not valid UTF-8 (byte 0x{:02X}); HAR files are UTF-8",
                state.entries,
                seen[bad.valid_up_to()]
            ),
            // A resumed reading counts lines from its own start: its place is the entry's.
            Ok(_) if resumed => format!("entry {}: {}", state.entries, without_place(err)),
            Ok(_) => format!("entry {}: {err}", state.entries),
        };
        (state.sink)(context.malformed(state.entries, Some(line), message));
        state.entries += 1;
        let mut rest = Metered {
            inner: &mut inner,
            meter: Rc::clone(&meter),
            replay: Vec::new(),
        };
        meter.begin(false);
        rest.replay = match skip_entry(&seen, &mut rest)? {
            Some(After::Entry(unread)) => unread,
            // The entries end here; what follows them is not read.
            Some(After::End) => return Ok(()),
            None => {
                let message = format!(
                    "stopped after {} entries: the end of entry {} cannot be found",
                    state.entries,
                    state.entries - 1
                );
                (state.sink)(context.malformed(state.entries, Some(meter.line()), message));
                return Ok(());
            }
        };
        let mut deserializer =
            serde_json::Deserializer::from_reader(io::Read::chain(&b"["[..], rest));
        result = Entries(&mut state).deserialize(&mut deserializer);
        resumed = true;
    }
    let Err(err) = result else {
        return Ok(());
    };
    if meter.over.get() {
        let (place, line) = match state.phase {
            Phase::Entries => {
                let line = meter.entry_line.get();
                (format!("entry {} (line {line})", state.entries), Some(line))
            }
            Phase::Start | Phase::Log => ("the HAR before log.entries".to_owned(), None),
            Phase::After => ("the HAR after log.entries".to_owned(), None),
        };
        return Err(TooLarge {
            index: state.entries,
            line,
            limit: limits.max_entry,
            place,
        }
        .into_io());
    }
    if err.is_io() && state.phase == Phase::Start {
        return Err(err.into());
    }
    if state.phase == Phase::Start && err.is_eof() {
        // Nothing but whitespace: no entries, as with an empty JSON Lines file (the run
        // decides what an input without exchanges means).
        return Ok(());
    }
    let message = match state.phase {
        Phase::Start | Phase::Log => format!("not a HAR file: {err}"),
        Phase::Entries | Phase::After if resumed => {
            format!(
                "stopped after {} entries: {}",
                state.entries,
                without_place(&err)
            )
        }
        Phase::Entries | Phase::After => {
            format!("stopped after {} entries: {err}", state.entries)
        }
    };
    let line = if resumed {
        Some(meter.line())
    } else {
        (err.line() > 0).then(|| err.line())
    };
    let entry = context.malformed(state.entries, line, message);
    (state.sink)(entry);
    Ok(())
}

/// serde_json's message without its `at line L column C`, which counts from where a reading
/// began.
fn without_place(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rsplit_once(" at line ") {
        Some((message, _)) => message.to_string(),
        None => text,
    }
}

/// Skips the rest of an entry that does not parse: `seen` is what was read of it (from its
/// `{`, or from the end of the entry before), `rest` the file after. Braces are counted
/// outside strings until the entry's own closes. `seen` may run past that brace (serde_json
/// reports a string that is not UTF-8 only after it has read on to the next entry's `{`), so
/// what it holds after the comma is handed back to be read first. `None` when no end is found.
fn skip_entry(seen: &[u8], rest: &mut impl io::Read) -> io::Result<Option<After>> {
    let mut nesting = Nesting::default();
    let mut started = false;
    let mut closed = false;
    let mut bytes = seen
        .iter()
        .copied()
        .map(Ok)
        .chain(io::Read::bytes(rest))
        .enumerate();
    for (_, byte) in &mut bytes {
        let byte = byte?;
        if !started {
            match byte {
                b'{' => started = true,
                b' ' | b'\t' | b'\r' | b'\n' | b',' => continue,
                _ => return Ok(None),
            }
        }
        if nesting.closes(byte) {
            closed = true;
            break;
        }
    }
    if !closed {
        return Ok(None);
    }
    for (at, byte) in bytes {
        match byte? {
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b',' => {
                let unread = seen.get(at + 1..).unwrap_or_default().to_vec();
                return Ok(Some(After::Entry(unread)));
            }
            b']' => return Ok(Some(After::End)),
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// Where reading goes on after an entry that does not parse.
#[derive(Debug, PartialEq)]
enum After {
    /// Another entry follows: the bytes after the comma already read, then the rest.
    Entry(Vec<u8>),
    /// The array of entries ends there.
    End,
}

/// The error for a string where the walk expects an object or array: serde's own would quote
/// the whole string (see [`super::describe_string`]).
fn string_instead<E: de::Error>(v: &str, expected: &dyn de::Expected) -> E {
    E::invalid_type(de::Unexpected::Other(&super::describe_string(v)), expected)
}

/// What the walk has read so far: lines, for the line each entry starts on, and bytes since
/// the current entry (or the part outside the entries) began, for [`Limits::max_entry`].
#[derive(Debug, Default)]
struct Meter {
    /// Line breaks read.
    newlines: Cell<usize>,
    /// Bytes read.
    bytes: Cell<u64>,
    /// `bytes` when the current entry began.
    mark: Cell<u64>,
    /// The line the current entry begins on.
    entry_line: Cell<usize>,
    limit: u64,
    /// The limit was passed (serde_json's error does not hand back the reader's).
    over: Cell<bool>,
    /// The bytes of the current entry read so far, from its `{`: where an entry that does
    /// not parse is skipped from.
    tee: std::cell::RefCell<Vec<u8>>,
}

impl Meter {
    /// The line of the last byte read (serde_json has read the first byte of a value when
    /// it hands it to a visitor).
    fn line(&self) -> usize {
        self.newlines.get() + 1
    }

    /// An entry (or the part after the entries) begins: its bytes count from here. With
    /// `opened`, serde_json has just read the entry's first byte, which [`Meter::tee`] keeps.
    fn begin(&self, opened: bool) {
        self.mark.set(self.bytes.get().saturating_sub(1));
        self.entry_line.set(self.line());
        let mut tee = self.tee.borrow_mut();
        let first = tee.last().copied().filter(|_| opened);
        tee.clear();
        tee.extend(first);
    }
}

/// The reader under serde_json, counting for the [`Meter`].
struct Metered<'r, R> {
    inner: &'r mut R,
    meter: Rc<Meter>,
    /// Bytes read and counted once already, to be read again first: what a broken entry's
    /// skip found past its end (see [`skip_entry`]). They go to the tee alone.
    replay: Vec<u8>,
}

impl<R: io::Read> io::Read for Metered<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.replay.is_empty() {
            let read = buf.len().min(self.replay.len());
            buf[..read].copy_from_slice(&self.replay[..read]);
            self.replay.drain(..read);
            self.meter.tee.borrow_mut().extend_from_slice(&buf[..read]);
            return Ok(read);
        }
        let read = self.inner.read(buf)?;
        let meter = &self.meter;
        meter.tee.borrow_mut().extend_from_slice(&buf[..read]);
        let newlines = buf[..read].iter().filter(|&&b| b == b'\n').count();
        meter.newlines.set(meter.newlines.get() + newlines);
        let bytes = meter.bytes.get() + read as u64;
        meter.bytes.set(bytes);
        if bytes - meter.mark.get() > meter.limit {
            meter.over.set(true);
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "an entry over the size limit",
            ));
        }
        Ok(read)
    }
}

/// How far the walk got, for the message of an error that stops it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the top-level object.
    Start,
    /// Inside the top-level object, before `log.entries`.
    Log,
    /// Inside `log.entries`.
    Entries,
    /// After `log.entries`.
    After,
}

struct State<'a> {
    context: &'a Context<'a>,
    /// Where bodies kept beside the HAR are (Playwright's `content: "attach"`).
    attachments: &'a Attachments,
    sink: &'a mut dyn FnMut(Entry),
    /// Entries read so far (good and malformed).
    entries: usize,
    phase: Phase,
    meter: Rc<Meter>,
}

/// The top-level object.
struct Top<'s, 'a>(&'s mut State<'a>);

impl<'de> DeserializeSeed<'de> for Top<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object with a \"log\" member")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        Err(string_instead(v, &self))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.phase = Phase::Log;
        let mut seen_log = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "log" {
                map.next_value_seed(Log(&mut *self.0))?;
                seen_log = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if !seen_log {
            return Err(de::Error::custom("there is no \"log\" member"));
        }
        Ok(())
    }
}

/// `log`.
struct Log<'s, 'a>(&'s mut State<'a>);

impl<'de> DeserializeSeed<'de> for Log<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Log<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"log\" to be an object")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        Err(string_instead(v, &self))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen_entries = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "entries" {
                map.next_value_seed(Entries(&mut *self.0))?;
                seen_entries = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if !seen_entries {
            return Err(de::Error::custom("log.entries is missing"));
        }
        Ok(())
    }
}

/// `log.entries`.
struct Entries<'s, 'a>(&'s mut State<'a>);

impl<'de> DeserializeSeed<'de> for Entries<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("log.entries to be an array")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        Err(string_instead(v, &self))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let state = self.0;
        state.phase = Phase::Entries;
        state.meter.begin(false);
        while let Some((line, raw)) = seq.next_element_seed(EntrySeed(&state.meter))? {
            let entry = convert(raw, state.entries, line, state.context, state.attachments);
            state.entries += 1;
            (state.sink)(entry);
            state.meter.begin(false);
        }
        state.phase = Phase::After;
        Ok(())
    }
}

/// One element of `log.entries`, with the line it starts on.
struct EntrySeed<'m>(&'m Meter);

impl<'de> DeserializeSeed<'de> for EntrySeed<'_> {
    type Value = (usize, Field<RawEntry>);

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.0.begin(true);
        let line = self.0.line();
        Field::deserialize(deserializer).map(|raw| (line, raw))
    }
}

#[derive(Deserialize)]
struct RawEntry {
    #[serde(default)]
    request: Field<RawRequest>,
    #[serde(default)]
    response: Field<RawResponse>,
    #[serde(default)]
    comment: Field<String>,
    #[serde(default, rename = "_id")]
    id: Field<Id>,
    #[serde(default, rename = "_kind")]
    kind: Field<super::jsonl::Kind>,
    /// Why the exchange failed; read only where `_kind` says `specval proxy` wrote the entry
    /// (a browser's `_error`, `net::ERR_ABORTED`, is a request the page itself cancelled).
    #[serde(default, rename = "_error")]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct RawRequest {
    #[serde(default)]
    method: Field<String>,
    #[serde(default)]
    url: Field<String>,
    #[serde(default)]
    headers: Field<Pairs>,
    /// `[{"name", "value", ...}]`: the cookies sent, which an exporter may list here alone.
    #[serde(default)]
    cookies: Field<Pairs>,
    #[serde(default, rename = "queryString")]
    query_string: Field<Pairs>,
    #[serde(default, rename = "postData")]
    post_data: Field<RawContent>,
    /// The body's size in bytes (`-1` when unknown): a body sent, whatever `postData` holds.
    #[serde(default, rename = "bodySize")]
    body_size: Field<serde_json::Value>,
}

#[derive(Deserialize)]
struct RawResponse {
    #[serde(default)]
    status: Field<Status>,
    #[serde(default)]
    headers: Field<Pairs>,
    /// The cookies set, which an exporter may list here alone.
    #[serde(default)]
    cookies: Field<Pairs>,
    #[serde(default)]
    content: Field<RawContent>,
    /// Bytes of body received (`-1` when unknown; `0` for one read from the cache).
    #[serde(default, rename = "bodySize")]
    body_size: Field<serde_json::Value>,
}

/// `postData` or `content`.
#[derive(Deserialize)]
struct RawContent {
    #[serde(default)]
    text: Field<String>,
    #[serde(default)]
    encoding: Field<String>,
    #[serde(default, rename = "mimeType")]
    mime_type: Field<String>,
    /// `postData.params`: a posted form's fields, which HAR 1.2 may give instead of `text`.
    #[serde(default)]
    params: Field<serde_json::Value>,
    /// `content.size`: the body's length in bytes, also when `text` is left out.
    #[serde(default)]
    size: Field<serde_json::Value>,
    /// The file beside the HAR that holds the body (Playwright's `content: "attach"`).
    #[serde(default, rename = "_file", alias = "_sha1")]
    file: Field<String>,
}

object_shape!(RawEntry, RawRequest, RawResponse, RawContent);

fn convert(
    raw: Field<RawEntry>,
    index: usize,
    line: usize,
    context: &Context<'_>,
    attachments: &Attachments,
) -> Entry {
    let mut problems = Vec::new();
    let exchange = raw
        .required("entry", &mut problems)
        .and_then(|raw| exchange(raw, index, line, context, attachments, &mut problems));
    match exchange {
        Some(exchange) if problems.is_empty() => Ok(exchange),
        _ => {
            let mut message = problems.join("; ");
            // "entry is a string, ..." reads better as "entry 3 is a string, ...".
            message = match message.strip_prefix("entry") {
                Some(rest) => format!("entry {index}{rest}"),
                None => format!("entry {index}: {message}"),
            };
            context.malformed(index, Some(line), message)
        }
    }
}

fn exchange(
    raw: RawEntry,
    index: usize,
    line: usize,
    context: &Context<'_>,
    attachments: &Attachments,
    problems: &mut Vec<String>,
) -> Option<Exchange> {
    let id = match raw.comment.optional("comment", problems) {
        Some(comment) if !comment.is_empty() => Some(comment),
        _ => raw.id.optional("_id", problems).map(|Id(id)| id),
    };
    let kind = raw
        .kind
        .optional("_kind", problems)
        .map(|super::jsonl::Kind(kind)| kind);
    let failure = match raw.error {
        Some(serde_json::Value::String(reason)) if kind.is_some() => Some(reason),
        _ => None,
    };
    let request = raw
        .request
        .required("request", problems)
        .and_then(|request| self::request(request, attachments, problems));
    let response = match raw.response.optional("response", problems) {
        Some(response) => self::response(response, attachments, problems),
        None => None,
    };
    let request = request?;
    // A HEAD answer gives the length of the body a GET would get, and has none itself.
    let response = response.map(|mut response| {
        if request.method == "HEAD" && matches!(response.body, Some(Body::Unrecorded(_))) {
            response.body = None;
        }
        response
    });
    Some(Exchange {
        index,
        line: Some(line),
        id,
        source: context.source.to_owned(),
        kind: Some(kind.unwrap_or_else(|| context.kind(&request.method, &request.path))),
        request,
        failure: failure.filter(|_| response.is_none()),
        response,
    })
}

fn request(
    raw: RawRequest,
    attachments: &Attachments,
    problems: &mut Vec<String>,
) -> Option<Request> {
    let method = raw
        .method
        .required("request.method", problems)
        .and_then(|method| super::method(method, "request.method", problems));
    let target = match raw.url.required("request.url", problems) {
        Some(url) => match split_target(&url) {
            Ok(target) => Some(target),
            Err(what) => {
                problems.push(format!("request.url{what}"));
                None
            }
        },
        None => None,
    };
    let query_string = raw.query_string.optional("request.queryString", problems);
    let headers = raw.headers.optional("request.headers", problems);
    let content_type = headers
        .as_ref()
        .and_then(|Pairs(pairs)| crate::exchange::header(pairs, "content-type"));
    let post_data = raw.post_data.optional("request.postData", problems);
    // `-1`: HAR's "not known". Playwright's minimal mode writes it with an empty `text`
    // (and `params: []`) for a body it did not keep.
    let size_unknown = matches!(&raw.body_size, Field::Ok(size) if size.as_i64() == Some(-1));
    let holds_nothing = post_data
        .as_ref()
        .is_some_and(|content| content.holds_nothing(content_type, size_unknown));
    let (body, mime_type) = post_data
        .map(|content| self::body(content, &POST_DATA, content_type, attachments, problems))
        .unwrap_or_default();
    let sizes = [length_of(headers.as_ref()), size_of(raw.body_size)];
    // A `postData` without `text` or `params` (Charles writes one, `bodySize: -1`) says a body
    // was sent and not kept, of a size the entry does not know (0 stands for unknown), unless
    // a size of 0 says there was none.
    let said_empty = sizes.iter().flatten().any(|size| *size == 0);
    let body = body
        .or_else(|| unrecorded(sizes))
        .or_else(|| (holds_nothing && !said_empty).then_some(Body::Unrecorded(0)));
    let Target {
        path,
        query,
        authority,
        userinfo,
    } = target?;
    let query = match query {
        Some(query) => parse_query(&query),
        None => query_string.map(|Pairs(pairs)| pairs).unwrap_or_default(),
    };
    let mut headers = headers.map(|Pairs(pairs)| pairs).unwrap_or_default();
    let cookies = cookies_of(raw.cookies);
    if !cookies.is_empty() && crate::exchange::header(&headers, "cookie").is_none() {
        let pairs: Vec<String> = cookies
            .into_iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        headers.push(("Cookie".to_string(), pairs.join("; ")));
    }
    let userinfo = super::http::authorize_userinfo(&mut headers, userinfo.as_deref());
    Some(Request {
        method: method?,
        path,
        query,
        body: crate::content_coding::decoded(body, &headers),
        headers,
        mime_type,
        authority,
        userinfo,
    })
}

fn response(
    raw: RawResponse,
    attachments: &Attachments,
    problems: &mut Vec<String>,
) -> Option<Response> {
    let status = raw.status.required("response.status", problems);
    let headers = raw.headers.optional("response.headers", problems);
    let mut content = raw.content.optional("response.content", problems);
    let size_field = content
        .as_mut()
        .map(|content| std::mem::take(&mut content.size));
    // `-1`: HAR's "not known" (Playwright, Charles), not "no body".
    let size_unknown = matches!(&size_field, Some(Field::Ok(size)) if size.as_i64() == Some(-1));
    let size = size_field.and_then(size_of);
    let (body, mime_type) = content
        .map(|content| self::body(content, &CONTENT, None, attachments, problems))
        .unwrap_or_default();
    let bodiless =
        matches!(status, Some(Status(status)) if crate::exchange::status_has_no_body(status));
    let sizes = [size, length_of(headers.as_ref()), size_of(raw.body_size)];
    let said_empty = sizes.iter().flatten().any(|size| *size == 0);
    // A content of unknown size that holds no text may have held a body that was not kept:
    // unrecorded (a warning), as a request's `postData` without text is, not a missing body
    // the server is blamed for.
    let body = body
        .or_else(|| unrecorded(sizes).filter(|_| !bodiless))
        .or_else(|| (size_unknown && !said_empty && !bodiless).then_some(Body::Unrecorded(0)));
    match status? {
        Status(0) => None,
        Status(status) => {
            let mut headers = headers.map(|Pairs(pairs)| pairs).unwrap_or_default();
            if crate::exchange::header(&headers, "set-cookie").is_none() {
                headers.extend(
                    cookies_of(raw.cookies)
                        .into_iter()
                        .map(|(name, value)| ("Set-Cookie".to_string(), format!("{name}={value}"))),
                );
            }
            Some(Response {
                status,
                body: crate::content_coding::decoded(body, &headers),
                headers,
                mime_type,
            })
        }
    }
}

/// The `(name, value)` pairs of a `cookies` array; one of another shape is passed over, as
/// the array was before it was read (the headers are what the exchange is judged on).
fn cookies_of(cookies: Field<Pairs>) -> Vec<(String, String)> {
    cookies
        .optional("cookies", &mut Vec::new())
        .map(|Pairs(pairs)| pairs)
        .unwrap_or_default()
}

/// A body the entry says was sent and does not hold (a HAR saved without content): the first
/// size known of it, when one is above 0.
fn unrecorded<const N: usize>(sizes: [Option<u64>; N]) -> Option<Body> {
    sizes
        .into_iter()
        .flatten()
        .find(|size| *size > 0)
        .map(Body::Unrecorded)
}

/// A HAR size (`content.size`, `bodySize`): a count of bytes, or `-1` for none known. A value
/// of another kind says nothing, and is no reason to refuse the entry.
fn size_of(size: Field<serde_json::Value>) -> Option<u64> {
    match size {
        Field::Ok(size) => size.as_u64(),
        _ => None,
    }
}

impl RawContent {
    /// Neither a `text` nor a form's `params`: the body was left out of the recording. An
    /// empty `params` list of a form (`application/x-www-form-urlencoded`, `multipart/*`) is
    /// an empty form, not a body left out. An empty `text` is one left out too where the
    /// entry gives the body's size as unknown (`size_unknown`) or names a file that holds it.
    fn holds_nothing(&self, content_type: Option<&str>, size_unknown: bool) -> bool {
        let form = [content_type, self.mime_type.as_ok()]
            .into_iter()
            .flatten()
            .next()
            .map(crate::exchange::media_type)
            .is_some_and(|media| {
                media == "application/x-www-form-urlencoded" || media.starts_with("multipart/")
            });
        let no_text = match &self.text {
            Field::Missing | Field::Null => true,
            Field::Ok(text) => text.is_empty() && (size_unknown || self.file.is_present()),
            Field::Wrong(_) => false,
        };
        no_text
            && match &self.params {
                Field::Ok(serde_json::Value::Array(params)) => params.is_empty() && !form,
                Field::Missing | Field::Null => true,
                _ => false,
            }
    }
}

/// The `Content-Length` a message's headers give.
fn length_of(headers: Option<&Pairs>) -> Option<u64> {
    let Pairs(pairs) = headers?;
    crate::exchange::header(pairs, "content-length")?
        .trim()
        .parse()
        .ok()
}

/// Field names of `postData` / `content`, for messages.
struct ContentNames {
    encoding: &'static str,
    params: &'static str,
    text: &'static str,
    mime_type: &'static str,
    file: &'static str,
}

const POST_DATA: ContentNames = ContentNames {
    encoding: "request.postData.encoding",
    params: "request.postData.params",
    text: "request.postData.text",
    mime_type: "request.postData.mimeType",
    file: "request.postData._file",
};

const CONTENT: ContentNames = ContentNames {
    encoding: "response.content.encoding",
    params: "response.content.params",
    text: "response.content.text",
    mime_type: "response.content.mimeType",
    file: "response.content._file",
};

/// The body of `postData` / `content`, and its `mimeType` when not empty. `content_type` is
/// the message's Content-Type header, which says what its `params` were sent as.
fn body(
    raw: RawContent,
    names: &ContentNames,
    content_type: Option<&str>,
    attachments: &Attachments,
    problems: &mut Vec<String>,
) -> (Option<Body>, Option<String>) {
    let mime_type = raw
        .mime_type
        .optional(names.mime_type, problems)
        .filter(|mime| !mime.trim().is_empty());
    let body = text(raw.text, raw.encoding, names, problems);
    let params = raw.params.optional(names.params, problems);
    let media_types = [content_type, mime_type.as_deref()];
    let body = body.or_else(|| form_of(params?, media_types));
    if body.is_some() {
        return (body, mime_type);
    }
    // Kept in a file beside the HAR: read from it. One that cannot be read, or a name that
    // points elsewhere (never followed), leaves the body unrecorded, as the entry's sizes say:
    // the rest of the exchange is still checked.
    let file = raw.file.optional(names.file, problems);
    let body = match file.map(|name| attachments.body(&name)) {
        Some(Ok(body)) => body,
        Some(Err(Unread::TooLarge(size))) => Some(Body::Unrecorded(size)),
        Some(Err(Unread::Missing | Unread::NotAName)) | None => None,
    };
    (body, mime_type)
}

/// A form's fields as HAR lists them (`[{"name", "value", "fileName", "contentType"}]`), as the
/// body that was sent: the form's text, or, when the message's media type (its Content-Type
/// header, else `mimeType`) is `multipart/*`, the parts, split by the boundary it declares; a
/// file's content is its `value` (often left out: an empty file).
fn form_of(params: serde_json::Value, media_types: [Option<&str>; 2]) -> Option<Body> {
    let serde_json::Value::Array(params) = params else {
        return None;
    };
    let fields = params.iter().filter_map(|param| {
        let text = |key: &str| param.get(key).and_then(serde_json::Value::as_str);
        Some((
            text("name")?,
            text("value"),
            text("fileName"),
            text("contentType"),
        ))
    });
    let sent_as = media_types.into_iter().flatten().next();
    if sent_as.is_some_and(|media| crate::exchange::media_type(media).starts_with("multipart/")) {
        let boundary = multipart::declared_boundary(media_types)
            .unwrap_or(multipart::RECORDED_FIELDS_BOUNDARY);
        let parts = fields.map(|(name, value, file_name, content_type)| {
            (name, value.unwrap_or(""), file_name, content_type)
        });
        let body = multipart::body_of(parts, boundary);
        return (!params.is_empty()).then_some(Body::Text(body));
    }
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (name, value, file_name, _) in fields {
        form.append_pair(name, value.or(file_name).unwrap_or(""));
    }
    let form = form.finish();
    (!form.is_empty()).then_some(Body::Text(form))
}

fn text(
    text: Field<String>,
    encoding: Field<String>,
    names: &ContentNames,
    problems: &mut Vec<String>,
) -> Option<Body> {
    let base64 = match encoding.optional(names.encoding, problems) {
        None => false,
        Some(encoding) if encoding.is_empty() => false,
        Some(encoding) if encoding.eq_ignore_ascii_case("base64") => true,
        Some(encoding) => {
            problems.push(format!(
                "{} is {}, expected \"base64\"",
                names.encoding,
                super::describe_string(&encoding)
            ));
            return None;
        }
    };
    let text = text.optional(names.text, problems)?;
    text_body(text, base64, names.text, problems)
}
