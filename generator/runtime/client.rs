// The static half of `src/client.rs` in every generated crate with a client: the error, the
// builder, and sending with retries. specgen (`emit::client`) splices these items into the
// module before the generated half (`ErrorBody`, the API's error body, which this half names
// unqualified, and a second `impl Client` with `with_credentials` and a method per
// operation), and its `use` items among the module's own. It is a fragment of that module,
// not a module of its own, compiled and unit-tested as itself by being `include!`d into a
// stand-in for the module (`generator/tests/runtime/client.rs`).

use ::std::time::Duration;

use crate::credentials::Credentials;
use crate::retry::RetryPolicy;

/// Why a call did not return a success.
#[derive(Debug)]
pub enum ClientError {
    /// The API answered with an error status and its error body: a status the operation
    /// documents with that body, or a 4xx or 5xx it does not document whose body reads as
    /// the API's error body (APIs document few of their errors; `status` says which).
    Api {
        /// The HTTP status.
        status: ::http::StatusCode,
        /// The error body.
        body: ErrorBody,
    },
    /// The API answered with an error status the spec documents for the operation with a
    /// body of its own, not [`ErrorBody`] (a `422` validation error beside the usual error
    /// body, a text message, a `404` documented without a body): a JSON body as JSON, a
    /// text body as a JSON string, an empty one as `null`. A body documented with a schema
    /// has been read as its type.
    ApiOther {
        /// The HTTP status.
        status: ::http::StatusCode,
        /// The body as received, as JSON.
        body: ::serde_json::Value,
    },
    /// The API answered with a status the spec does not document for the operation (a
    /// success, or an error without the API's error body), or with a body that does not
    /// match the type documented for its status.
    UnexpectedResponse {
        /// The HTTP status.
        status: ::http::StatusCode,
        /// The body as received.
        body: String,
        /// What did not match.
        reason: String,
    },
    /// The request could not be sent or its answer not received (connection,
    /// time-out), after the retries allowed.
    Transport(::reqwest::Error),
    /// The request could not be built (for example an invalid base URL).
    InvalidRequest(String),
}

impl ::std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match self {
            ClientError::Api { status, body } => write!(f, "the API answered {status}: {body:?}"),
            ClientError::ApiOther { status, body } => {
                write!(f, "the API answered {status}: {body}")
            }
            ClientError::UnexpectedResponse { status, reason, .. } => {
                write!(f, "unexpected response {status}: {reason}")
            }
            ClientError::Transport(err) => write!(f, "transport error: {err}"),
            ClientError::InvalidRequest(reason) => write!(f, "invalid request: {reason}"),
        }
    }
}

impl ::std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn ::std::error::Error + 'static)> {
        match self {
            ClientError::Transport(err) => Some(err),
            _ => None,
        }
    }
}

/// A client of the API.
#[derive(Debug, Clone)]
pub struct Client {
    base_url: String,
    credentials: Credentials,
    http: ::reqwest::Client,
    retry: RetryPolicy,
    observer: Option<Observer>,
}

/// What [`ClientBuilder::observe`] is given.
type ObserveFn = dyn Fn(&::http::Request<Vec<u8>>, &::http::Response<Vec<u8>>) + Send + Sync;

/// The observer of a [`Client`]'s exchanges (a closure has no `Debug`).
#[derive(Clone)]
struct Observer(::std::sync::Arc<ObserveFn>);

impl ::std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        f.write_str("Observer")
    }
}

/// Options of a [`Client`].
#[derive(Debug)]
pub struct ClientBuilder {
    base_url: String,
    credentials: Credentials,
    timeout: Option<Duration>,
    connect_timeout: Option<Duration>,
    retry: RetryPolicy,
    http: Option<::reqwest::Client>,
    observer: Option<Observer>,
}

impl ClientBuilder {
    /// Time-out of each attempt, from sending to the end of the answer (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Time-out of establishing a connection (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How to retry transport failures, time-outs, 429 and 5xx answers (a
    /// `Retry-After` on a 429 or a 503 is honoured up to the policy's `max_delay`).
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Use the caller's own reqwest client (its time-outs and redirect policy then
    /// apply; the builder's are ignored, and whether it speaks HTTPS depends on how it
    /// was built). The client the builder makes follows redirects unless the API
    /// documents one, which is then the operation's answer.
    pub fn http_client(mut self, http: ::reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// Calls `observer` with every exchange the client makes: each attempt's request
    /// as sent and its answer once read in full (an attempt that fails in transport
    /// has no answer and is not observed). Meant for tests that check the service's
    /// answers against the contract, such as `specval::client::ClientCheck`. The
    /// request carries the credentials: an observer must not log them.
    pub fn observe(
        mut self,
        observer: impl Fn(&::http::Request<Vec<u8>>, &::http::Response<Vec<u8>>) + Send + Sync + 'static,
    ) -> Self {
        self.observer = Some(Observer(::std::sync::Arc::new(observer)));
        self
    }

    /// The client.
    ///
    /// # Errors
    ///
    /// [`ClientError::InvalidRequest`] when the base URL is `https://` and this
    /// crate's `rustls` feature is off (unless the caller gave its own reqwest
    /// client); [`ClientError::Transport`] when reqwest cannot set up a client.
    pub fn build(self) -> Result<Client, ClientError> {
        // `127.0.0.1:8080` without its scheme would build, and every call fail with reqwest's
        // bare "builder error": said here, once, naming the URL.
        match ::reqwest::Url::parse(self.base_url.trim()) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => {}
            Ok(url) => {
                return Err(ClientError::InvalidRequest(format!(
                    "the base URL {:?} is not an http:// or https:// URL with a host ({} URL)",
                    self.base_url,
                    url.scheme()
                )));
            }
            Err(err) => {
                return Err(ClientError::InvalidRequest(format!(
                    "the base URL {:?} is not a URL: {err} (write it with its scheme: \
                     http://127.0.0.1:8080)",
                    self.base_url
                )));
            }
        }
        let http = match self.http {
            Some(http) => http,
            None => {
                if let Some(reason) = crate::retry::unsupported_scheme(&self.base_url) {
                    return Err(ClientError::InvalidRequest(reason));
                }
                let builder = ::reqwest::Client::builder()
                    .timeout(self.timeout.unwrap_or(Duration::from_secs(30)))
                    .connect_timeout(self.connect_timeout.unwrap_or(Duration::from_secs(10)));
                let builder = if FOLLOWS_REDIRECTS {
                    builder
                } else {
                    builder.redirect(::reqwest::redirect::Policy::none())
                };
                builder.build().map_err(ClientError::Transport)?
            }
        };
        Ok(Client {
            base_url: self.base_url.trim_end_matches('/').to_string(),
            credentials: self.credentials,
            http,
            retry: self.retry,
            observer: self.observer,
        })
    }
}

/// Characters escaped in a path segment: all but RFC 3986's unreserved ones.
#[allow(dead_code)]
const PATH_SEGMENT: &::percent_encoding::AsciiSet = &::percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Characters a cookie value cannot carry as they are (RFC 6265, 4.1.1: controls, white space,
/// `"`, `,`, `;`, `\`), and `%` itself, so that percent-decoding gives the value back.
#[allow(dead_code)]
const COOKIE_VALUE: &::percent_encoding::AsciiSet = &::percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

/// A cookie parameter's or credential's value as it travels: percent-encoded where a cookie
/// could not carry it (OpenAPI's `form` style), so that a `;` in one value cannot end it and
/// set another cookie.
#[allow(dead_code)]
fn cookie_value(text: &str) -> String {
    ::percent_encoding::utf8_percent_encode(text, COOKIE_VALUE).to_string()
}

/// Refuses (`InvalidRequest`, naming the header) a header parameter's value HTTP cannot
/// carry: a line break or another control character. Text beyond ASCII (`Zoë`) goes as its
/// UTF-8 bytes, as RFC 9110's obs-text.
#[allow(dead_code)]
fn header_value(name: &str, text: &str) -> Result<(), ClientError> {
    match ::http::HeaderValue::from_bytes(text.as_bytes()) {
        Ok(_) => Ok(()),
        Err(_) => Err(ClientError::InvalidRequest(format!(
            "header {name}: its value holds a line break or another control character"
        ))),
    }
}

/// A path parameter's value that is a whole segment, percent-encoded; `.` and `..` are refused
/// (`InvalidRequest`): a URL reads them, encoded or not, as a dot segment, which would send
/// the request to another path (`/users/..` is `/`). So is an empty value: `/files/{id}` with
/// an empty `id` is `/files/`, where another operation may be (`deleteAllFiles`).
#[allow(dead_code)]
fn path_segment(text: &str) -> Result<String, ClientError> {
    if matches!(text, "." | "..") {
        return Err(ClientError::InvalidRequest(format!(
            "the path parameter value {text:?} would be read as a dot segment"
        )));
    }
    if text.is_empty() {
        return Err(ClientError::InvalidRequest(
            "a path parameter value is empty: the request would go to another path".to_string(),
        ));
    }
    Ok(::percent_encoding::utf8_percent_encode(text, PATH_SEGMENT).to_string())
}

/// Characters escaped in a path parameter written as it is (`x-ms-skip-url-encoding`,
/// `allowReserved`): all but the unreserved ones, `/`, `:`, `@` and the sub-delimiters, which
/// a path carries as they are (RFC 3986, 3.3). `?` and `#` would end the path, `%` would be
/// read as an escape.
#[allow(dead_code)]
const PATH_RESERVED: &::percent_encoding::AsciiSet = &PATH_SEGMENT
    .remove(b'/')
    .remove(b':')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// A path parameter's value the document says is written as it is, `/` included (Azure's
/// `{scope}`: `subscriptions/1/resourceGroups/g`), filling as many segments as it has;
/// escaped only where a path cannot carry a character. A `.` or `..` segment in it is refused
/// (`InvalidRequest`): a URL reads it as a dot segment, which would send the request to
/// another path.
#[allow(dead_code)]
fn path_reserved(text: &str) -> Result<String, ClientError> {
    if text.split('/').any(|segment| matches!(segment, "." | "..")) {
        return Err(ClientError::InvalidRequest(format!(
            "the path parameter value {text:?} holds a dot segment"
        )));
    }
    Ok(::percent_encoding::utf8_percent_encode(text, PATH_RESERVED).to_string())
}

/// A path parameter's value that shares its segment with text (`{id}.json`), percent-encoded;
/// an empty one is refused (`InvalidRequest`): `/files/.json` holds no value, which the server
/// could only answer 404.
#[allow(dead_code)]
fn path_part(text: &str) -> Result<String, ClientError> {
    if text.is_empty() {
        return Err(ClientError::InvalidRequest(
            "a path parameter value is empty: its segment would hold only the text beside it"
                .to_string(),
        ));
    }
    Ok(::percent_encoding::utf8_percent_encode(text, PATH_SEGMENT).to_string())
}

/// A request body the client sends as it is: text, or bytes (a file, an image, a multipart
/// body), as the media type the operation documents unless told another.
///
/// A multipart body needs its boundary in its media type:
/// `RawBody::with_content_type(&bytes, "multipart/form-data; boundary=XYZ")`.
#[derive(Debug, Clone, Copy)]
pub struct RawBody<'a> {
    bytes: &'a [u8],
    content_type: Option<&'a str>,
}

impl<'a> RawBody<'a> {
    /// These bytes, sent as the media type the operation documents.
    pub fn new(bytes: &'a [u8]) -> Self {
        RawBody {
            bytes,
            content_type: None,
        }
    }

    /// These bytes, sent as `content_type`: a multipart body's own, with its boundary, or
    /// another of the media types an operation takes.
    pub fn with_content_type(bytes: &'a [u8], content_type: &'a str) -> Self {
        RawBody {
            bytes,
            content_type: Some(content_type),
        }
    }

    /// Puts the body on a request, as `documented` unless it says otherwise.
    #[allow(dead_code)]
    fn send(
        self,
        request: ::reqwest::RequestBuilder,
        documented: &str,
    ) -> ::reqwest::RequestBuilder {
        request
            .header(
                ::http::header::CONTENT_TYPE,
                self.content_type.unwrap_or(documented),
            )
            .body(self.bytes.to_vec())
    }
}

impl<'a> From<&'a [u8]> for RawBody<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        RawBody::new(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for RawBody<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        RawBody::new(bytes)
    }
}

impl<'a> From<&'a str> for RawBody<'a> {
    fn from(text: &'a str) -> Self {
        RawBody::new(text.as_bytes())
    }
}

impl<'a> From<&'a String> for RawBody<'a> {
    fn from(text: &'a String) -> Self {
        RawBody::new(text.as_bytes())
    }
}

/// The text of a list parameter sent in one value: its items with `delimiter` between
/// them (`1,2`; `a|b` in `pipeDelimited`).
#[allow(dead_code)]
fn joined<T: ::std::fmt::Display>(items: &[T], delimiter: &str) -> String {
    let mut text = String::new();
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            text.push_str(delimiter);
        }
        text.push_str(&item.to_string());
    }
    text
}

/// The query pairs of an object parameter sent as a `deepObject`: each member under the
/// parameter's name (`filter[name]=rex`, a list's items each under it: `filter[tag]=a`).
#[allow(dead_code)]
fn deep_object_pairs<T: ::serde::Serialize + ?Sized>(
    name: &str,
    object: &T,
) -> Vec<(String, String)> {
    form_pairs(object)
        .into_iter()
        .map(|(key, text)| {
            let key = match key.split_once('[') {
                Some((member, deeper)) => format!("{name}[{member}][{deeper}"),
                None => format!("{name}[{key}]"),
            };
            (key, text)
        })
        .collect()
}

/// The text of a union parameter's value when it is a scalar (Stripe's `created=5`), as a
/// query carries it; `None` when it is an object, whose members travel as their style says.
#[allow(dead_code)]
fn scalar_text<T: ::serde::Serialize + ?Sized>(value: &T) -> Option<String> {
    match ::serde_json::to_value(value).ok()? {
        ::serde_json::Value::Object(_) => None,
        ::serde_json::Value::String(text) => Some(text),
        other => Some(other.to_string()),
    }
}

/// The text of an object parameter sent as a `form` without `explode`: its members' names
/// and values in turn, `name,rex,age,3`.
#[allow(dead_code)]
fn joined_object<T: ::serde::Serialize + ?Sized>(object: &T) -> String {
    let mut parts = Vec::new();
    for (key, text) in form_pairs(object) {
        parts.push(key);
        parts.push(text);
    }
    parts.join(",")
}

/// A body as the fields of a form (`application/x-www-form-urlencoded`), the way the
/// generated servers and specval read one back: a list as its key repeated
/// (`MediaUrl=a&MediaUrl=b`, OpenAPI's default for a form), an object's members and a list's
/// objects in brackets (`metadata[order]=7`, `items[0][price]=p`), `null` left out.
#[allow(dead_code)]
fn form_pairs<T: ::serde::Serialize + ?Sized>(body: &T) -> Vec<(String, String)> {
    json_form_pairs(body, &[])
}

/// [`form_pairs`], but the fields named in `json` (those the form's `encoding` gives a JSON
/// `contentType`) go as one pair holding their value's JSON text (`meta={"k":"v"}`).
#[allow(dead_code)]
fn json_form_pairs<T: ::serde::Serialize + ?Sized>(
    body: &T,
    json: &[&str],
) -> Vec<(String, String)> {
    fn add(key: String, value: &::serde_json::Value, top: bool, pairs: &mut Vec<(String, String)>) {
        use ::serde_json::Value;
        match value {
            Value::Null => {}
            Value::String(text) => pairs.push((key, text.clone())),
            Value::Bool(_) | Value::Number(_) => pairs.push((key, value.to_string())),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let scalar = !matches!(item, Value::Array(_) | Value::Object(_));
                    let key = if top && scalar {
                        key.clone()
                    } else {
                        format!("{key}[{index}]")
                    };
                    add(key, item, false, pairs);
                }
            }
            Value::Object(members) => {
                for (name, member) in members {
                    add(format!("{key}[{name}]"), member, false, pairs);
                }
            }
        }
    }
    let mut pairs = Vec::new();
    // A body that is not an object (which a form cannot carry) sends no fields.
    if let Ok(::serde_json::Value::Object(fields)) = ::serde_json::to_value(body) {
        for (name, value) in &fields {
            if json.contains(&name.as_str()) {
                if !value.is_null() {
                    pairs.push((name.clone(), value.to_string()));
                }
            } else {
                add(name.clone(), value, true, &mut pairs);
            }
        }
    }
    pairs
}

/// `pairs` with the items of each listed field joined into one value by its delimiter, where
/// the form's `encoding` says so (`roles=a,b` rather than `roles=a&roles=b`; Swagger 2.0's
/// `csv`, its default, for a form list).
#[allow(dead_code)]
fn delimited_form_pairs(
    pairs: Vec<(String, String)>,
    fields: &[(&str, &str)],
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let delimiter = fields
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, d)| *d);
        match delimiter.and_then(|d| Some((d, out.iter_mut().find(|(seen, _)| *seen == key)?))) {
            Some((delimiter, (_, joined))) => {
                joined.push_str(delimiter);
                joined.push_str(&value);
            }
            None => out.push((key, value)),
        }
    }
    out
}

/// A request as an observer sees it: what reqwest will send, body included (a
/// streamed body, which this client never makes, would be seen empty).
fn observed_request(request: &::reqwest::Request) -> Option<::http::Request<Vec<u8>>> {
    let body = request
        .body()
        .and_then(|body| body.as_bytes())
        .unwrap_or_default();
    let mut sent = ::http::Request::builder()
        .method(request.method().clone())
        .uri(request.url().as_str())
        .version(request.version())
        .body(body.to_vec())
        .ok()?;
    *sent.headers_mut() = request.headers().clone();
    Some(sent)
}

/// A success body with the headers its response documents (`Location`, rate limits,
/// `Link`), for a response that documents both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithHeaders<B, H> {
    /// The body, as the response documents it.
    pub body: B,
    /// The headers the response documents.
    pub headers: H,
}

/// A body read in full, with its status and headers.
struct Answer {
    status: ::http::StatusCode,
    headers: ::http::HeaderMap,
    body: Vec<u8>,
    /// The wait its `Retry-After` asked for (on a 429 or a 503).
    retry_after: Option<Duration>,
}

impl Answer {
    /// A header of the answer as text, its lines joined by `, ` as RFC 9110 §5.3 combines
    /// them (bytes that are not UTF-8 replaced); `None` when it has none.
    #[allow(dead_code)]
    fn header(&self, name: &str) -> Option<String> {
        let mut lines = self.headers.get_all(name).iter();
        let first = lines.next()?;
        let mut text = String::from_utf8_lossy(first.as_bytes()).into_owned();
        for line in lines {
            text.push_str(", ");
            text.push_str(&String::from_utf8_lossy(line.as_bytes()));
        }
        Some(text)
    }

    /// A header the response must carry, as [`Answer::header`] reads it.
    #[allow(dead_code)]
    fn required_header(&self, name: &str) -> Result<String, ClientError> {
        self.header(name)
            .ok_or_else(|| ClientError::UnexpectedResponse {
                status: self.status,
                body: String::from_utf8_lossy(&self.body).into_owned(),
                reason: format!("the response lacks its required header `{name}`"),
            })
    }

    #[allow(dead_code)]
    fn decode<T: ::serde::de::DeserializeOwned>(&self) -> Result<T, ClientError> {
        let bytes = self.json_bytes();
        let empty = bytes.iter().all(u8::is_ascii_whitespace);
        let refused = |reason: String| ClientError::UnexpectedResponse {
            status: self.status,
            body: String::from_utf8_lossy(&self.body).into_owned(),
            reason,
        };
        let empty_refused =
            || refused("the body is empty, and the documented type needs a value".to_string());
        if !empty {
            return crate::support::from_json_slice(bytes).map_err(|err| {
                refused(format!(
                    "the body does not match the documented type: {err}"
                ))
            });
        }
        // An empty body reads as `null`, for a type that takes it (an optional body), but not
        // into a union's catch-all, which takes anything: that is no value of it either.
        let kept_before = crate::support::union::kept_as_json();
        let read = crate::support::from_json_slice(b"null").map_err(|_| empty_refused())?;
        if crate::support::union::kept_as_json() != kept_before {
            return Err(empty_refused());
        }
        Ok(read)
    }

    /// The body to read as JSON: without the UTF-8 byte order mark some servers (.NET, IIS)
    /// put before it, which RFC 8259 §8.1 lets a reader ignore.
    fn json_bytes(&self) -> &[u8] {
        self.body
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(&self.body)
    }

    /// A text body (`text/*`, XML), which must be UTF-8.
    #[allow(dead_code)]
    fn text(self) -> Result<String, ClientError> {
        String::from_utf8(self.body).map_err(|err| ClientError::UnexpectedResponse {
            status: self.status,
            body: String::from_utf8_lossy(err.as_bytes()).into_owned(),
            reason: format!("the text body is not UTF-8: {}", err.utf8_error()),
        })
    }

    /// The bytes of a body that is neither JSON nor text (a file, an image), as they came.
    #[allow(dead_code)]
    fn bytes(self) -> Result<Vec<u8>, ClientError> {
        Ok(self.body)
    }

    /// An error status documented with a body of type `T` other than [`ErrorBody`]: the body
    /// as JSON once it reads as a `T`.
    #[allow(dead_code)]
    fn other_error<T: ::serde::de::DeserializeOwned>(&self) -> ClientError {
        let body = self.body_as_json();
        match crate::support::from_json_value::<T>(body.clone()) {
            Ok(_) => ClientError::ApiOther {
                status: self.status,
                body,
            },
            Err(err) => ClientError::UnexpectedResponse {
                status: self.status,
                body: String::from_utf8_lossy(&self.body).into_owned(),
                reason: format!("the error body does not match the documented type: {err}"),
            },
        }
    }

    /// An error status documented with a body in a media type other than JSON (text, a
    /// file): the body as a JSON string, `null` when it is empty.
    #[allow(dead_code)]
    fn text_error(&self) -> ClientError {
        ClientError::ApiOther {
            status: self.status,
            body: self.body_as_text(),
        }
    }

    /// An error status documented without a body: the error body when the API sent one
    /// anyway (many document a `401` bare and answer it with their usual error body), else
    /// the body as JSON.
    #[allow(dead_code)]
    fn undescribed_error(&self) -> ClientError {
        match ::serde_json::from_slice::<ErrorBody>(self.json_bytes()) {
            Ok(body) => ClientError::Api {
                status: self.status,
                body,
            },
            Err(_) => ClientError::ApiOther {
                status: self.status,
                body: self.body_as_json(),
            },
        }
    }

    /// The body as JSON: parsed when it is JSON, else as [`Answer::body_as_text`].
    fn body_as_json(&self) -> ::serde_json::Value {
        ::serde_json::from_slice(self.json_bytes()).unwrap_or_else(|_| self.body_as_text())
    }

    /// The body as a JSON string (an invalid UTF-8 sequence replaced), `null` when empty.
    fn body_as_text(&self) -> ::serde_json::Value {
        if self.body.is_empty() {
            ::serde_json::Value::Null
        } else {
            ::serde_json::Value::String(String::from_utf8_lossy(&self.body).into_owned())
        }
    }

    /// Unused where every operation answers any other status with a `default` of no body
    /// (Azure NetApp's errors).
    #[allow(dead_code)]
    fn error(&self, documented: bool) -> ClientError {
        // An answer the operation does not document that is no error (an undocumented `201`)
        // is not the API's error, whatever its body reads as.
        let is_error = self.status.is_client_error() || self.status.is_server_error();
        if !documented && !is_error {
            return ClientError::UnexpectedResponse {
                status: self.status,
                body: String::from_utf8_lossy(&self.body).into_owned(),
                reason: "status not documented for this operation".to_string(),
            };
        }
        match ::serde_json::from_slice::<ErrorBody>(self.json_bytes()) {
            Ok(body) => ClientError::Api {
                status: self.status,
                body,
            },
            Err(err) => ClientError::UnexpectedResponse {
                status: self.status,
                body: String::from_utf8_lossy(&self.body).into_owned(),
                reason: if documented {
                    format!("the error body does not match: {err}")
                } else {
                    "status not documented for this operation".to_string()
                },
            },
        }
    }
}

impl Client {
    /// A client of the API at `base_url` (the server URL, base path included, e.g.
    /// `https://host/v1`), with default time-outs and retries.
    pub fn new(
        base_url: impl Into<String>,
        credentials: Credentials,
    ) -> Result<Client, ClientError> {
        Client::builder(base_url, credentials).build()
    }

    /// Where an operation served elsewhere than the API (its own `servers`: Box's uploads on
    /// `https://upload.box.com/api/2.0`) is called: at its own server when the client is
    /// pointed at the API's documented one, else at the client's base URL, since a sandbox,
    /// a mock or a test server serves every operation at its one address.
    #[allow(dead_code)]
    fn base_for<'a>(&'a self, documented: &str, own: &'a str) -> &'a str {
        if self.base_url.trim_end_matches('/') == documented.trim_end_matches('/') {
            own.trim_end_matches('/')
        } else {
            &self.base_url
        }
    }

    /// A builder for time-outs, retries and a caller's own reqwest client.
    pub fn builder(base_url: impl Into<String>, credentials: Credentials) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            credentials,
            timeout: None,
            connect_timeout: None,
            retry: RetryPolicy::default(),
            http: None,
            observer: None,
        }
    }

    /// Sends a request, retrying when `retryable` and the failure is a transport
    /// error, a time-out, a 429 or a 5xx answer. A 429 or 503 that asks
    /// (`Retry-After`) for a longer wait than the policy's `max_delay` is
    /// returned at once. `requirements` are the operation's security requirements, any one
    /// enough, each the schemes it names (none: no credential, as for `security: []`): they
    /// say which credentials are sent.
    async fn send(
        &self,
        retryable: bool,
        requirements: &[&[&str]],
        build: impl Fn(&::reqwest::Client) -> ::reqwest::RequestBuilder,
    ) -> Result<Answer, ClientError> {
        let attempts = if retryable {
            self.retry.max_attempts.max(1)
        } else {
            1
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let request = match self
                .with_credentials(build(&self.http), requirements)
                .build()
            {
                Ok(mut request) => {
                    one_cookie_header(request.headers_mut());
                    request
                }
                // Nothing was sent: a bad base URL or header value, not a transport failure.
                Err(err) => return Err(ClientError::InvalidRequest(err.to_string())),
            };
            let sent = self
                .observer
                .as_ref()
                .and_then(|_| observed_request(&request));
            let outcome = match self.http.execute(request).await {
                Ok(mut response) => {
                    let status = response.status();
                    let retry_after =
                        crate::retry::retry_after(status.as_u16(), response.headers());
                    let version = response.version();
                    // Taken, not copied: reading the body needs none of them.
                    let headers = std::mem::take(response.headers_mut());
                    match response.bytes().await {
                        Ok(body) => {
                            if let (Some(observer), Some(sent)) = (&self.observer, &sent) {
                                let mut answer = ::http::Response::new(body.to_vec());
                                *answer.status_mut() = status;
                                *answer.version_mut() = version;
                                *answer.headers_mut() = headers.clone();
                                (observer.0)(sent, &answer);
                            }
                            Ok(Answer {
                                status,
                                headers,
                                body: body.to_vec(),
                                retry_after,
                            })
                        }
                        Err(err) => Err(err),
                    }
                }
                Err(err) => Err(err),
            };
            if let Err(err) = &outcome
                && err.is_builder()
            {
                // Nothing was sent: a bad base URL or header value, not a transport failure.
                return Err(ClientError::InvalidRequest(err.to_string()));
            }
            let retry = match &outcome {
                Ok(answer) => {
                    answer.status.is_server_error()
                        || answer.status == ::http::StatusCode::TOO_MANY_REQUESTS
                }
                Err(err) => {
                    err.is_timeout() || err.is_connect() || err.is_request() || err.is_body()
                }
            };
            if !retry || attempt >= attempts {
                return outcome.map_err(ClientError::Transport);
            }
            let asked = outcome.as_ref().ok().and_then(|answer| answer.retry_after);
            match self.retry.delay_after(attempt, asked) {
                Some(wait) => ::tokio::time::sleep(wait).await,
                // The server will not take it within the wait the policy allows.
                None => return outcome.map_err(ClientError::Transport),
            }
        }
    }
}

/// Joins the `Cookie` lines of a request into one, as RFC 6265 (5.4) asks of a client: each
/// cookie parameter and cookie credential is added on its own, and a server may read only
/// the first line.
fn one_cookie_header(headers: &mut ::http::HeaderMap) {
    let mut lines = headers.get_all(::http::header::COOKIE).iter();
    if lines.nth(1).is_none() {
        return;
    }
    let joined: Vec<&[u8]> = headers
        .get_all(::http::header::COOKIE)
        .iter()
        .map(::http::HeaderValue::as_bytes)
        .collect();
    if let Ok(value) = ::http::HeaderValue::from_bytes(&joined.join(&b"; "[..])) {
        headers.insert(::http::header::COOKIE, value);
    }
}

// In the stand-in client of `generator/tests/runtime/client.rs`: `ErrorBody` is
// `{"code": …}`, and `credentials.api_key` goes in `x-key`.
#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use serde_json::json;

    use super::*;
    use crate::loopback::{Loopback, Reply};

    fn credentials() -> Credentials {
        Credentials {
            api_key: Some("secret".into()),
        }
    }

    /// A client of `url` retrying up to three times, quickly.
    fn client(url: &str) -> Client {
        Client::builder(url, credentials())
            .retry(RetryPolicy {
                max_attempts: 3,
                base_delay: Duration::from_millis(1),
                max_delay: Duration::from_millis(500),
            })
            .build()
            .unwrap()
    }

    #[test]
    fn a_form_body_is_sent_as_the_servers_read_it() {
        let body = json!({
            "To": "+15558675310",
            "Attempt": 2,
            "ProvideFeedback": true,
            "MediaUrl": ["a", "b"],
            "metadata": {"order": 7},
            "items": [{"price": "p1"}],
            "Gone": null
        });
        assert_eq!(
            sorted(&form_pairs(&body)),
            [
                ("Attempt", "2"),
                ("MediaUrl", "a"),
                ("MediaUrl", "b"),
                ("ProvideFeedback", "true"),
                ("To", "+15558675310"),
                ("items[0][price]", "p1"),
                ("metadata[order]", "7"),
            ]
        );
        assert!(form_pairs(&json!([1, 2])).is_empty());
    }

    /// Pairs by field name: fields in any order (serde_json may keep the body's), a list's
    /// items in its order.
    fn sorted(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
        let mut pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        pairs.sort_by_key(|(key, _)| *key);
        pairs
    }

    #[test]
    fn a_form_list_goes_as_one_delimited_value_where_its_encoding_says() {
        let body = json!({"user": "bob", "roles": ["a", "b c"], "tags": ["x", "y"], "ids": [1, 2]});
        let pairs = delimited_form_pairs(form_pairs(&body), &[("roles", ","), ("ids", "|")]);
        assert_eq!(
            sorted(&pairs),
            [
                ("ids", "1|2"),
                ("roles", "a,b c"),
                ("tags", "x"),
                ("tags", "y"),
                ("user", "bob"),
            ]
        );
    }

    #[test]
    fn a_form_field_with_a_json_content_type_goes_as_its_json_text() {
        let body = json!({"user": "bob", "meta": {"k": "v", "n": 2}, "tags": ["x"], "gone": null});
        let pairs = json_form_pairs(&body, &["meta", "tags", "gone"]);
        assert_eq!(
            sorted(&pairs),
            [
                ("meta", r#"{"k":"v","n":2}"#),
                ("tags", r#"["x"]"#),
                ("user", "bob"),
            ]
        );
    }

    fn answer(status: u16, body: &str) -> Answer {
        Answer {
            status: ::http::StatusCode::from_u16(status).unwrap(),
            headers: ::http::HeaderMap::new(),
            body: body.as_bytes().to_vec(),
            retry_after: None,
        }
    }

    #[test]
    fn a_header_is_read_as_text_with_its_lines_joined() {
        let mut with = answer(201, "");
        with.headers
            .append("link", "<a>; rel=next".parse().unwrap());
        with.headers
            .append("link", "<b>; rel=last".parse().unwrap());
        with.headers.append(
            "x-name",
            ::http::HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap(),
        );
        assert_eq!(
            with.header("Link").as_deref(),
            Some("<a>; rel=next, <b>; rel=last")
        );
        assert_eq!(with.header("x-name").as_deref(), Some("café"));
        assert_eq!(with.header("location"), None);
        assert_eq!(
            with.required_header("link").unwrap(),
            "<a>; rel=next, <b>; rel=last"
        );
        match with.required_header("Location") {
            Err(ClientError::UnexpectedResponse { status, reason, .. }) => {
                assert_eq!(status, 201);
                assert!(reason.contains("`Location`"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn cookies_travel_in_one_header() {
        let mut headers = ::http::HeaderMap::new();
        one_cookie_header(&mut headers);
        assert!(headers.is_empty());
        headers.append(::http::header::COOKIE, "a=1".parse().unwrap());
        one_cookie_header(&mut headers);
        assert_eq!(headers.get_all(::http::header::COOKIE).iter().count(), 1);
        headers.append(::http::header::COOKIE, "b=2".parse().unwrap());
        headers.append(::http::header::COOKIE, "SID=s".parse().unwrap());
        one_cookie_header(&mut headers);
        let lines: Vec<_> = headers.get_all(::http::header::COOKIE).iter().collect();
        assert_eq!(lines, ["a=1; b=2; SID=s"]);
    }

    #[test]
    fn a_base_url_without_its_scheme_is_refused_when_the_client_is_built() {
        for base in [
            "127.0.0.1:8080",
            "api.example.com/v1",
            "ftp://files.example.com",
            "",
        ] {
            match Client::new(base, credentials()) {
                Err(ClientError::InvalidRequest(reason)) => {
                    assert!(reason.contains("base URL"), "{base}: {reason}")
                }
                other => panic!("{base}: {other:?}"),
            }
        }
        assert!(Client::new("http://127.0.0.1:8080/v1", credentials()).is_ok());
    }

    #[test]
    fn https_without_rustls_is_refused_unless_the_caller_brings_a_client() {
        match Client::new("https://api.example.com/v1", credentials()) {
            Err(ClientError::InvalidRequest(reason)) => {
                assert!(reason.contains("rustls"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        let client = Client::builder("https://api.example.com/v1/", credentials())
            .http_client(::reqwest::Client::new())
            .build()
            .unwrap();
        assert_eq!(client.base_url, "https://api.example.com/v1");
    }

    #[test]
    fn an_answer_decodes_into_the_documented_type_or_says_why_not() {
        let decoded: Result<Option<u8>, _> = answer(204, "").decode();
        assert_eq!(decoded.unwrap(), None, "an empty body reads as null");
        assert_eq!(answer(200, "[1]").decode::<Vec<u8>>().unwrap(), [1]);
        match answer(200, r#"{"a": 1}"#).decode::<Vec<u8>>() {
            Err(ClientError::UnexpectedResponse {
                status,
                body,
                reason,
            }) => {
                assert_eq!((status.as_u16(), body.as_str()), (200, r#"{"a": 1}"#));
                assert!(
                    reason.starts_with("the body does not match the documented type"),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
        // A byte order mark before the JSON (.NET, IIS) is read past, in a success body and
        // an error body alike.
        assert_eq!(answer(200, "\u{FEFF}[2]").decode::<Vec<u8>>().unwrap(), [2]);
        assert_eq!(answer(500, "\u{FEFF}[2]").body_as_json(), json!([2]));
        /// A union no alternative of which takes the value: kept whole, as JSON.
        #[derive(Debug, ::serde::Serialize)]
        struct Kept(::serde_json::Value);
        impl<'de> ::serde::Deserialize<'de> for Kept {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = ::serde_json::Value::deserialize(d)?;
                let none = |_: usize, _: &::serde_json::Value| None;
                Ok(crate::support::union::choose("Kept", value, [], none, Kept))
            }
        }
        // An empty body (or white space) is no value, not even of a union, whose catch-all
        // had taken it as `null`.
        assert!(answer(200, "null").decode::<Kept>().is_ok());
        for body in ["", " \n"] {
            let refused = [
                answer(200, body).decode::<Vec<u8>>().unwrap_err(),
                answer(202, body).decode::<Kept>().unwrap_err(),
            ];
            for refusal in refused {
                match refusal {
                    ClientError::UnexpectedResponse { reason, .. } => assert_eq!(
                        reason,
                        "the body is empty, and the documented type needs a value"
                    ),
                    other => panic!("{other:?}"),
                }
            }
        }
    }

    #[test]
    fn an_error_answer_carries_the_error_body_when_it_has_one() {
        match answer(404, r#"{"code": "NOT_FOUND"}"#).error(true) {
            ClientError::Api { status, body } => {
                assert_eq!((status.as_u16(), body.code.as_str()), (404, "NOT_FOUND"));
            }
            other => panic!("{other:?}"),
        }
        for (documented, expected) in [
            (true, "the error body does not match: "),
            (false, "status not documented for this operation"),
        ] {
            match answer(418, "teapot").error(documented) {
                ClientError::UnexpectedResponse { reason, body, .. } => {
                    assert!(reason.starts_with(expected), "{reason}");
                    assert_eq!(body, "teapot");
                }
                other => panic!("{other:?}"),
            }
        }
        // An undocumented success is unexpected, though its body reads as the error body.
        assert!(matches!(
            answer(201, r#"{"code": "CREATED"}"#).error(false),
            ClientError::UnexpectedResponse { .. }
        ));
        // An undocumented error status with the API's error body is the API's error.
        assert!(matches!(
            answer(429, r#"{"code": "SLOW_DOWN"}"#).error(false),
            ClientError::Api { .. }
        ));
        let shown = answer(500, r#"{"code": "DOWN"}"#).error(true).to_string();
        assert_eq!(
            shown,
            r#"the API answered 500 Internal Server Error: Problem { code: "DOWN" }"#
        );
    }

    #[test]
    fn an_error_documented_with_a_body_of_its_own_is_that_body_not_unexpected() {
        #[derive(Debug, ::serde::Deserialize)]
        #[allow(dead_code)]
        struct Invalid {
            errors: Vec<String>,
        }
        // A 422 documented as `Invalid`, beside an API whose error body is `{"code": …}`.
        let invalid = r#"{"errors": ["name is required"]}"#;
        match answer(422, invalid).other_error::<Invalid>() {
            ClientError::ApiOther { status, body } => {
                assert_eq!(status.as_u16(), 422);
                assert_eq!(body, json!({"errors": ["name is required"]}));
            }
            other => panic!("{other:?}"),
        }
        // The usual error body under that status is not what it documents.
        match answer(422, r#"{"code": "BAD"}"#).other_error::<Invalid>() {
            ClientError::UnexpectedResponse { reason, body, .. } => {
                assert!(reason.starts_with("the error body does not match the documented type"));
                assert_eq!(body, r#"{"code": "BAD"}"#);
            }
            other => panic!("{other:?}"),
        }
        // A text body documented as text (digits too), and an empty one.
        for (text, expected) in [
            ("Not here", json!("Not here")),
            ("404", json!("404")),
            ("", json!(null)),
        ] {
            match answer(404, text).text_error() {
                ClientError::ApiOther { body, .. } => assert_eq!(body, expected),
                other => panic!("{other:?}"),
            }
        }
        // Documented without a body: the usual error body when the API sends one anyway.
        match answer(401, r#"{"code": "NO_KEY"}"#).undescribed_error() {
            ClientError::Api { body, .. } => assert_eq!(body.code, "NO_KEY"),
            other => panic!("{other:?}"),
        }
        for (text, expected) in [("", json!(null)), (r#"{"x": 1}"#, json!({"x": 1}))] {
            match answer(401, text).undescribed_error() {
                ClientError::ApiOther { body, .. } => assert_eq!(body, expected),
                other => panic!("{other:?}"),
            }
        }
        let shown = answer(422, invalid).other_error::<Invalid>().to_string();
        assert_eq!(
            shown,
            r#"the API answered 422 Unprocessable Entity: {"errors":["name is required"]}"#
        );
    }

    #[test]
    fn an_observer_sees_the_request_as_sent() {
        let request = ::reqwest::Client::new()
            .post("http://127.0.0.1:9/things?x=1")
            .header("x-key", "k")
            .json(&json!({"name": "lamp"}))
            .build()
            .unwrap();
        let seen = observed_request(&request).unwrap();
        assert_eq!(seen.method(), ::http::Method::POST);
        assert_eq!(seen.uri(), "http://127.0.0.1:9/things?x=1");
        assert_eq!(seen.headers()["x-key"], "k");
        assert_eq!(seen.body(), br#"{"name":"lamp"}"#);
    }

    /// An operation served elsewhere (Box's uploads) is called there when the client is
    /// pointed at the API's documented server, and at the client's base URL otherwise.
    #[test]
    fn an_operation_served_elsewhere_is_called_there_only_from_the_documented_server() {
        // (http: this build has no TLS, and nothing is sent.)
        let api = "http://api.box.test/2.0";
        let upload = "http://upload.box.test/api/2.0";
        for (base, expected) in [
            ("http://api.box.test/2.0", upload),
            ("http://api.box.test/2.0/", upload),
            ("http://127.0.0.1:9/2.0", "http://127.0.0.1:9/2.0"),
        ] {
            let client = Client::new(base, credentials()).unwrap();
            assert_eq!(client.base_for(api, upload), expected, "{base}");
        }
    }

    /// The client asks for gzip and reads a compressed answer, as a server may send one.
    #[tokio::test]
    async fn a_gzip_answer_is_read_as_its_json() {
        // `{"code":"zipped"}`, gzipped.
        const ZIPPED: [u8; 37] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 74, 206, 79, 73, 85, 178, 82, 170, 202, 44,
            40, 72, 77, 81, 170, 5, 0, 145, 2, 183, 105, 17, 0, 0, 0,
        ];
        let server = Loopback::start(vec![
            Reply::status(200)
                .header("content-type", "application/json")
                .header("content-encoding", "gzip")
                .bytes(&ZIPPED),
        ])
        .await;
        let client = Client::new(&server.url, credentials()).unwrap();
        let url = format!("{}/things", server.url);
        let answer = client
            .send(false, &[], |http| http.get(&url))
            .await
            .unwrap();
        assert_eq!(answer.decode::<Problem>().unwrap().code, "zipped");
        let received = server.received();
        assert!(
            received[0].headers["accept-encoding"]
                .to_str()
                .unwrap()
                .contains("gzip"),
            "{:?}",
            received[0].headers
        );
    }

    #[tokio::test]
    async fn a_retryable_call_is_retried_on_5xx_and_429_and_observed() {
        let server = Loopback::start(vec![
            Reply::status(503),
            Reply::status(429).header("retry-after", "0"),
            Reply::status(200).json(json!([7])),
        ])
        .await;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let client = Client::builder(&server.url, credentials())
            .retry(RetryPolicy {
                max_attempts: 3,
                base_delay: Duration::from_millis(1),
                max_delay: Duration::from_millis(500),
            })
            .observe(move |request, response| {
                log.lock()
                    .unwrap()
                    .push((request.uri().to_string(), response.status().as_u16()));
            })
            .build()
            .unwrap();
        let url = format!("{}/things", server.url);
        let answer = client.send(true, &[], |http| http.get(&url)).await.unwrap();
        assert_eq!(
            (answer.status.as_u16(), answer.body.as_slice()),
            (200, &b"[7]"[..])
        );
        let received = server.received();
        assert_eq!(received.len(), 3);
        assert!(
            received.iter().all(|r| r.headers["x-key"] == "secret"),
            "credentials on each attempt"
        );
        let statuses: Vec<u16> = seen
            .lock()
            .unwrap()
            .iter()
            .map(|(_, status)| *status)
            .collect();
        assert_eq!(statuses, [503, 429, 200]);
    }

    #[tokio::test]
    async fn a_call_that_is_not_retryable_is_made_once() {
        let server = Loopback::start(vec![Reply::status(503), Reply::status(200)]).await;
        let url = format!("{}/things", server.url);
        let answer = client(&server.url)
            .send(false, &[], |http| http.post(&url))
            .await
            .unwrap();
        assert_eq!(answer.status.as_u16(), 503);
        assert_eq!(server.received().len(), 1);
    }

    #[tokio::test]
    async fn only_transient_failures_are_retried_and_only_so_often() {
        // 4xx but 429: the answer stands.
        let server = Loopback::start(vec![Reply::status(409), Reply::status(200)]).await;
        let url = format!("{}/things", server.url);
        let answer = client(&server.url)
            .send(true, &[], |http| http.get(&url))
            .await
            .unwrap();
        assert_eq!((answer.status.as_u16(), server.received().len()), (409, 1));
        // Always 500: the third answer stands.
        let server = Loopback::start(vec![Reply::status(500)]).await;
        let url = format!("{}/things", server.url);
        let answer = client(&server.url)
            .send(true, &[], |http| http.get(&url))
            .await
            .unwrap();
        assert_eq!((answer.status.as_u16(), server.received().len()), (500, 3));
    }

    #[tokio::test]
    async fn a_retry_after_longer_than_max_delay_is_answered_at_once() {
        let server = Loopback::start(vec![
            Reply::status(503).header("retry-after", "60"),
            Reply::status(200),
        ])
        .await;
        let url = format!("{}/things", server.url);
        let answer = client(&server.url)
            .send(true, &[], |http| http.get(&url))
            .await
            .unwrap();
        assert_eq!(answer.status.as_u16(), 503);
        assert_eq!(answer.retry_after, Some(Duration::from_secs(60)));
        assert_eq!(server.received().len(), 1);
    }

    #[tokio::test]
    async fn transport_and_request_errors_are_told_apart() {
        // Nothing listens on a port just released.
        let listener = ::std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/things", listener.local_addr().unwrap());
        drop(listener);
        match client("http://unused")
            .send(true, &[], |http| http.get(&url))
            .await
        {
            Err(ClientError::Transport(err)) => assert!(err.is_connect(), "{err}"),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("answered"),
        }
        match client("http://unused")
            .send(true, &[], |http| http.get("not a url"))
            .await
        {
            Err(ClientError::InvalidRequest(_)) => {}
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("answered"),
        }
    }
}
