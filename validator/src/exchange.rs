//! One recorded exchange, whatever file it came from: what the traffic readers produce and
//! the checks consume.

use std::borrow::Cow;

use serde_json::Value;

/// A media type without its parameters, in lower case (`application/json`), and whether
/// one is JSON's: the contract's rules, which the generated servers share.
pub use specgen::manifest::{essence as media_type, is_json};

/// Whether an exchange is a call of the API or a notification the API sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExchangeKind {
    /// A request to the API and its response.
    Operation,
    /// A notification delivered to a receiver, and the receiver's reply.
    Notification,
}

/// A body as recorded.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// Parsed JSON (JSON Lines records can carry the body as a JSON value directly).
    Json(Value),
    /// Text as recorded (a HAR `text`, or a JSON Lines body given as a string); parsed when
    /// the content type says JSON.
    Text(String),
    /// Bytes that are not text (base64 in a HAR).
    Binary(Vec<u8>),
    /// A body of this many bytes was sent, and the recording does not hold it: a HAR saved
    /// without content (`content.size` or `Content-Length` says there was one, `text` is
    /// missing). Its presence and media type can be judged; what it held cannot.
    Unrecorded(u64),
}

/// The request half.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Request {
    /// Uppercase method.
    pub method: String,
    /// The path as sent, without query string, percent-encoded as on the wire
    /// (`/v1/banking/accounts/6f1a…`).
    pub path: String,
    /// Query parameters, decoded, in order.
    pub query: Vec<(String, String)>,
    /// Headers in order; names as recorded (compare case-insensitively).
    pub headers: Vec<(String, String)>,
    /// The body, when one was sent.
    pub body: Option<Body>,
    /// The body's media type as the recording states it apart from the headers (HAR's
    /// `postData.mimeType`): what [`Request::content_type`] falls back on.
    pub mime_type: Option<String>,
    /// The host (and port) of the absolute URL the recording gives, lower case
    /// (`api.example.com:8443`); `None` when it gives a path alone.
    pub authority: Option<String>,
    /// The user information of that URL (`user:password`, percent-decoded), which a client
    /// sends as Basic credentials: a secret, hidden wherever a report would repeat it.
    pub userinfo: Option<String>,
}

/// The response half.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Headers in order.
    pub headers: Vec<(String, String)>,
    /// The body, when one was received.
    pub body: Option<Body>,
    /// The body's media type as the recording states it apart from the headers (HAR's
    /// `content.mimeType`): what [`Response::content_type`] falls back on.
    pub mime_type: Option<String>,
}

/// One exchange read from traffic.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// Position in the input, from 0, counting malformed entries too.
    pub index: usize,
    /// The line of the input the entry starts on (from 1), when the reader knows it.
    pub line: Option<usize>,
    /// The input's own id for it, when it has one (a JSON Lines `id`, a HAR entry comment).
    pub id: Option<String>,
    /// The file it came from.
    pub source: String,
    /// Operation or notification. Readers decide: a JSON Lines record may say so; otherwise
    /// a `POST` to a webhook's fixed path is a notification.
    pub kind: Option<ExchangeKind>,
    /// The request.
    pub request: Request,
    /// The response, when the traffic has one.
    pub response: Option<Response>,
    /// Why there is no response, when the recording says the exchange failed (`specval
    /// proxy` could not reach the upstream: a JSON Lines `error`, the `_error` of a HAR
    /// entry it wrote). A failed exchange is a finding, as it was live.
    pub failure: Option<String>,
}

/// An entry that could not be read as an exchange; the run reports it and goes on.
#[derive(Debug, Clone, PartialEq)]
pub struct Malformed {
    /// Position in the input.
    pub index: usize,
    /// The file.
    pub source: String,
    /// The line of the entry (JSON Lines, HAR), or of the error that ended the file.
    pub line: Option<usize>,
    /// What is wrong with it.
    pub message: String,
}

/// What a reader yields for each entry.
pub type Entry = Result<Exchange, Malformed>;

impl Request {
    /// A header's value, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The media type of the body, lowercased, without parameters: from the Content-Type
    /// header, else from the recording's [`Request::mime_type`].
    pub fn content_type(&self) -> Option<String> {
        content_type(&self.headers, self.mime_type.as_deref())
    }
}

impl Response {
    /// A header's value, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The media type of the body, lowercased, without parameters: from the Content-Type
    /// header, else from the recording's [`Response::mime_type`].
    pub fn content_type(&self) -> Option<String> {
        content_type(&self.headers, self.mime_type.as_deref())
    }
}

/// Whether an answer with this status has no body whatever its headers say: `1xx`, `204`,
/// `205` and `304` (RFC 9110, 15.2, 15.3.5, 15.3.6 and 15.4.5).
pub fn status_has_no_body(status: u16) -> bool {
    matches!(status, 100..=199 | 204 | 205 | 304)
}

/// Content-Type is one value (RFC 9110, 8.3): a message that sends two different ones on two
/// lines is read as a recipient that joins them reads it (5.3), `a, b`, which no documented
/// media type is, whichever line comes first. The same value twice is one.
fn content_type(headers: &[(String, String)], mime_type: Option<&str>) -> Option<String> {
    let mut lines = header_lines(headers, "content-type");
    let sent = match lines.next() {
        Some(first) => {
            let mut joined = Cow::Borrowed(first);
            for line in lines {
                if media_type(line) != media_type(first) {
                    joined = Cow::Owned(format!("{joined}, {line}"));
                }
            }
            Some(joined)
        }
        None => mime_type.map(Cow::Borrowed),
    };
    sent.map(|sent| media_type(&sent))
        .filter(|media| !media.is_empty())
}

/// Every line of a header among `headers`, by case-insensitive name, in order: a list sent on
/// several lines is one list (RFC 9110, 5.3). Each value without the white space around it.
pub(crate) fn header_lines<'a>(
    headers: &'a [(String, String)],
    name: &'a str,
) -> impl Iterator<Item = &'a str> {
    headers
        .iter()
        .filter(move |(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| field_value(value))
}

/// A header's value among `headers`, by case-insensitive name, without the white space around
/// it.
pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| field_value(value))
}

/// A header's value as HTTP gives it to the server: the spaces and tabs around it are no part
/// of it (RFC 9110, 5.5). A recording written by hand, or a tool's, may keep them
/// (`"x-idempotency-key": " 6f1a…"`), where a server would never see them.
fn field_value(recorded: &str) -> &str {
    recorded.trim_matches([' ', '\t'])
}

/// Whether a body sent as `sent` is of the documented media type `documented` (both without
/// parameters, lower case): the same type, or within a documented range (`*/*`, `image/*`).
/// Two JSON types are not one: `application/problem+json` where only `application/json` is
/// documented is another media type (a client that dispatches on the type misses it).
pub fn media_fits(documented: &str, sent: &str) -> bool {
    match documented.strip_suffix("/*") {
        Some("*") => true,
        Some(kind) => sent.split('/').next() == Some(kind),
        None => documented == sent,
    }
}
