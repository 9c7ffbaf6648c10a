// Over 600 lines on purpose: about 290 of them are its unit tests (`mod tests`), left out of the output.
// The static half of `src/server.rs` in every generated crate with a server: the request
// reading, checking and rejection every handler shares, and the router's configuration.
// specgen (`emit::server`) splices these items into the module after the generated half (the
// `Api` trait, the router, a handler per operation, and `error_response`, which words a
// rejection as the API documents its errors), and its `use` items among the module's own. It
// is a fragment of that module, not a module of its own: it names the generated half's items
// unqualified, and is compiled and unit-tested as itself by being `include!`d into a stand-in
// for the module (`generator/tests/runtime/server.rs`).

// The trait is in scope for its method only: an operation named `into` has a response type
// `IntoResponse` of its own.
use ::axum::response::{IntoResponse as _, Response};

use crate::validation::{ListForm, Location};

/// Everything [`router_with`] can be told.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes; larger ones are rejected with 400.
    pub body_limit: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            body_limit: 1024 * 1024,
        }
    }
}

struct Shared<A> {
    api: A,
    config: ServerConfig,
}

/// A JSON answer, as `axum::Json` gives it (`Content-Type: application/json`; 500 with
/// the error as text if the body cannot be serialised), but serialised into a `Vec`:
/// `axum::Json` writes through a `BytesMut` writer, which costs about twice as much for
/// bodies of a few hundred bytes. The `Vec` starts at 1 KiB, which most answers fit
/// without growing (`to_vec` starts at 128 bytes and doubles).
// Unused where no handler answers JSON of its own and rejections are `envelope_response`'s.
#[allow(dead_code)]
fn json_response<T: ::serde::Serialize>(status: ::http::StatusCode, body: &T) -> Response {
    json_response_as(
        status,
        ::http::HeaderValue::from_static("application/json"),
        body,
    )
}

/// A rejection worded as `envelope` says the API words its errors (its documented error body,
/// or RFC 9457 problem details): the one rule, `ErrorEnvelope::body`, that specval's tower
/// layer answers by too. The generated `error_response` calls it with the API's envelope.
fn envelope_response(
    envelope: &crate::validation::manifest::ErrorEnvelope,
    status: ::http::StatusCode,
    code: &str,
    messages: &[String],
) -> Response {
    let title = status.canonical_reason().unwrap_or("Error");
    let (body, media) = envelope.body(status.as_u16(), title, code, messages);
    json_response_as(status, ::http::HeaderValue::from_static(media), &body)
}

/// [`json_response`] in the JSON media type the spec documents for it
/// (`application/vnd.api+json`, `application/problem+json`), which clients of such APIs
/// check.
fn json_response_as<T: ::serde::Serialize>(
    status: ::http::StatusCode,
    media: ::http::HeaderValue,
    body: &T,
) -> Response {
    let mut bytes = Vec::with_capacity(1024);
    match ::serde_json::to_writer(&mut bytes, body) {
        Ok(()) => (status, [(::http::header::CONTENT_TYPE, media)], bytes).into_response(),
        Err(err) => (
            ::http::StatusCode::INTERNAL_SERVER_ERROR,
            [(
                ::http::header::CONTENT_TYPE,
                ::http::HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            err.to_string(),
        )
            .into_response(),
    }
}

/// An answer whose body is text or bytes, as the media type the spec documents for it.
#[allow(dead_code)]
fn raw_response(
    status: ::http::StatusCode,
    media_type: &'static str,
    body: impl Into<::axum::body::Body>,
) -> Response {
    // A media type no header can hold (a spec's typo) is not worth a panic.
    let content_type = ::http::HeaderValue::from_str(media_type)
        .unwrap_or(::http::HeaderValue::from_static("application/octet-stream"));
    (
        status,
        [(::http::header::CONTENT_TYPE, content_type)],
        body.into(),
    )
        .into_response()
}

/// `response` with the documented header `name` (lower case) set to the handler's `value`,
/// when it gave one. A value HTTP cannot carry (a line break, a control character) makes the
/// answer a 500: the answer cannot go as the handler wrote it, and sending it without the
/// header would hide the fault.
#[allow(dead_code)]
fn with_header(mut response: Response, name: &'static str, value: Option<&str>) -> Response {
    let Some(value) = value else {
        return response;
    };
    match ::http::HeaderValue::from_str(value) {
        Ok(value) => {
            response
                .headers_mut()
                .insert(::http::HeaderName::from_static(name), value);
            response
        }
        Err(_) => error_response(
            ::http::StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            vec![format!(
                "the answer's `{name}` header holds a character HTTP cannot carry"
            )],
        ),
    }
}

/// A `text/*` body against its schema, as specval reads one: the string it is (`maxLength`,
/// `pattern`, `enum` judge the words), or the number or boolean it reads as where the schema
/// wants one (`type: integer` under `text/plain`).
fn text_body_errors(rules: &crate::validation::OperationRules, body: &[u8]) -> Vec<String> {
    let Ok(text) = std::str::from_utf8(body) else {
        return vec!["request body: text that is not UTF-8".to_string()];
    };
    // Judged as a string unless the schema refuses strings; then as the number or boolean
    // the words make, if they make one (`0` against `{type: integer, minimum: 1}` breaks the
    // minimum, not the type).
    let as_text = ::serde_json::Value::String(text.to_owned());
    let errors = rules.check_body(&as_text);
    if errors.is_empty() || !rules.body_refuses_type(&as_text) {
        return errors;
    }
    match ::serde_json::from_str::<::serde_json::Value>(text.trim()) {
        Ok(scalar @ (::serde_json::Value::Number(_) | ::serde_json::Value::Bool(_))) => {
            rules.check_body(&scalar)
        }
        _ => errors,
    }
}

fn validation_error(messages: Vec<String>) -> Response {
    error_response(
        ::http::StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
        messages,
    )
}

async fn not_found(uri: ::http::Uri) -> Response {
    error_response(
        ::http::StatusCode::NOT_FOUND,
        "NOT_FOUND",
        vec![format!("no operation at {}", uri.path())],
    )
}

/// Whether a request has what its operation's template asks of it (`/search?type=user`,
/// `/#X-Amz-Target=Glue.GetJob`; see [`path::asks`]): how a dispatcher tells apart operations
/// on one path.
#[allow(dead_code)]
fn asked(asks: &[(&str, Option<&str>)], request: &::axum::extract::Request) -> bool {
    let query: Vec<(String, String)> = request
        .uri()
        .query()
        .and_then(|query| ::serde_urlencoded::from_str(query).ok())
        .unwrap_or_default();
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string)
    };
    path::asks_met(asks, &query, &header)
}

/// Whether the request's path parameters, as `template` reads them, keep the schemas of
/// `operation`'s: how a dispatcher tells apart operations of one method whose paths differ
/// only in their parameters' names (Xero's `/Contacts/{ContactID}`, a UUID, beside
/// `/Contacts/{ContactNumber}`), as specval tries each.
#[allow(dead_code)]
fn path_fits(operation: &str, template: &'static str, request: &::axum::extract::Request) -> bool {
    let Some(params) = path::params(template, request.uri().path()) else {
        return false;
    };
    let Some(rules) = crate::validation::rules().operation(operation) else {
        return true;
    };
    rules
        .check_path_parameters(|location, name| match location {
            Location::Path => params
                .iter()
                .filter(|(key, _)| *key == name)
                .filter_map(|(_, value)| value.as_deref())
                .collect(),
            _ => Vec::new(),
        })
        .is_empty()
}

async fn method_not_allowed(method: ::http::Method, uri: ::http::Uri) -> Response {
    error_response(
        ::http::StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        vec![format!("{method} is not an operation of {}", uri.path())],
    )
}

/// The text of a credential in the headers (query and cookie credentials included).
fn credential<'h>(
    headers: &'h ::http::HeaderMap,
    query: Option<&'h str>,
    location: Location,
    name: &str,
) -> Option<std::borrow::Cow<'h, str>> {
    match location {
        Location::Header => headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(std::borrow::Cow::Borrowed),
        Location::Query => ::serde_urlencoded::from_str::<Vec<(String, String)>>(query?)
            .ok()?
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| std::borrow::Cow::Owned(v)),
        Location::Cookie => cookies(headers)
            .find(|(k, _)| *k == name)
            .map(|(_, v)| cookie_text(v)),
        Location::Path => None,
    }
}

/// The `name=value` pairs of a request's `Cookie` lines, as sent.
fn cookies(headers: &::http::HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
}

/// A cookie's value, percent-decoded as OpenAPI's `form` style writes it (a `;` inside a
/// value travels as `%3B`); kept as sent when it does not decode to UTF-8.
fn cookie_text(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains('%') {
        return std::borrow::Cow::Borrowed(value);
    }
    match ::percent_encoding::percent_decode_str(value).decode_utf8() {
        Ok(decoded) => decoded,
        Err(_) => std::borrow::Cow::Borrowed(value),
    }
}

/// One credential a security requirement asks for: where it travels, its name, and for an
/// HTTP `basic` or `bearer` scheme the scheme word its `Authorization` value starts with.
type Needed = (Location, &'static str, Option<&'static str>);

/// 401 unless one of the security requirements is met (every credential it names
/// present, not empty, and in its scheme). An empty list means the operation is open.
fn authenticate(
    headers: &::http::HeaderMap,
    query: Option<&str>,
    requirements: &[&[Needed]],
) -> Result<(), Response> {
    if requirements.is_empty() {
        return Ok(());
    }
    // The document's scheme words: alone, a value of one carries no token.
    let declared = crate::validation::rules().http_scheme_words();
    let met = requirements.iter().any(|requirement| {
        requirement.iter().all(|(location, name, scheme)| {
            credential(headers, query, *location, name).is_some_and(|v| {
                crate::validation::manifest::presents_credential_beside(&v, *scheme, declared)
            })
        })
    });
    if met {
        return Ok(());
    }
    // Each said once: two OAuth schemes required together (Google's) both want one
    // `Authorization`, and requirements that differ by their scopes alone want the same.
    let mut wanted: Vec<String> = Vec::new();
    for requirement in requirements {
        let mut names: Vec<String> = Vec::new();
        for (location, name, scheme) in requirement.iter() {
            let named = match (location, scheme) {
                (_, Some(scheme)) => format!("{name} ({scheme})"),
                (Location::Query, None) => format!("{name} (query parameter)"),
                (Location::Cookie, None) => format!("{name} (cookie)"),
                _ => name.to_string(),
            };
            if !names.contains(&named) {
                names.push(named);
            }
        }
        let names = names.join(" and ");
        if !wanted.contains(&names) {
            wanted.push(names);
        }
    }
    // Headers, as the interface's document words it, where every credential is one.
    let in_headers = requirements
        .iter()
        .flat_map(|r| r.iter())
        .all(|(location, _, _)| *location == Location::Header);
    let missing = if in_headers {
        "authentication headers missing"
    } else {
        "credentials missing"
    };
    let mut refused = error_response(
        ::http::StatusCode::UNAUTHORIZED,
        "NOT_AUTHENTICATED",
        vec![format!("{missing}: send {}", wanted.join(", or "))],
    );
    // RFC 9110 §11.6.1: a 401 says how to authenticate, one challenge per scheme that
    // travels in `Authorization` (an API key elsewhere has no challenge of its own).
    let mut challenges: Vec<String> = Vec::new();
    for (location, name, scheme) in requirements.iter().flat_map(|r| r.iter()) {
        if *location != Location::Header || !name.eq_ignore_ascii_case("authorization") {
            continue;
        }
        let challenge = match scheme {
            Some(word) if word.eq_ignore_ascii_case("basic") => "Basic realm=\"api\"".to_string(),
            Some(word) if word.eq_ignore_ascii_case("bearer") => "Bearer".to_string(),
            Some(word) => word.to_string(),
            // OAuth 2 and OpenID Connect: a bearer token (RFC 6750).
            None => "Bearer".to_string(),
        };
        if !challenges.contains(&challenge) {
            challenges.push(challenge);
        }
    }
    if let Ok(value) = ::http::HeaderValue::from_str(&challenges.join(", "))
        && !challenges.is_empty()
    {
        refused
            .headers_mut()
            .insert(::http::header::WWW_AUTHENTICATE, value);
    }
    Err(refused)
}

/// A request being checked: its parts, its body, and the violations found so far.
struct Incoming {
    operation: &'static str,
    // Matched against the operation's own template (see `path`), decoded.
    path: Vec<(&'static str, String)>,
    /// The other ways the path splits into its parameters, where a segment holds several
    /// (`{name}.{ext}` on `a.b.json`); see [`Incoming::validate`].
    other_splits: Vec<Vec<(&'static str, String)>>,
    query: Vec<(String, String)>,
    /// The cookies, percent-decoded (see [`cookie_text`]).
    cookies: Vec<(String, String)>,
    headers: ::http::HeaderMap,
    body: ::axum::body::Bytes,
    json: Option<::serde_json::Value>,
    messages: Vec<String>,
}

// Which helpers a handler needs depends on the operation's inputs.
#[allow(dead_code)]
impl Incoming {
    /// Reads a request. Credentials are checked first, from the headers alone, so a
    /// request without them is answered 401 whatever else is wrong with it.
    async fn read(
        operation: &'static str,
        template: &'static str,
        request: ::axum::extract::Request,
        requirements: &[&[Needed]],
        limit: usize,
    ) -> Result<Incoming, Response> {
        let (parts, body) = request.into_parts();
        // The route matched by position; a segment mixing text and a parameter
        // (`{name}:cancel`) is checked here.
        let Some(decoded) = path::params(template, parts.uri.path()) else {
            return Err(not_found(parts.uri).await);
        };
        authenticate(&parts.headers, parts.uri.query(), requirements)?;
        let other_splits = if path::ambiguous(template) {
            path::params_all(template, parts.uri.path())
                .into_iter()
                .skip(1)
                .filter_map(|way| {
                    way.into_iter()
                        .map(|(name, value)| value.map(|value| (name, value)))
                        .collect::<Option<Vec<_>>>()
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut path = Vec::with_capacity(decoded.len());
        for (name, value) in decoded {
            match value {
                Some(value) => path.push((name, value)),
                None => {
                    return Err(validation_error(vec![format!(
                        "path parameter {name}: not UTF-8 once percent-decoded"
                    )]));
                }
            }
        }
        let mut query = match parts.uri.query() {
            Some(query) => match ::serde_urlencoded::from_str::<Vec<(String, String)>>(query) {
                Ok(pairs) => pairs,
                Err(err) => return Err(validation_error(vec![format!("query string: {err}")])),
            },
            None => Vec::new(),
        };
        // A list sent with brackets (`ids[]=1&ids[]=2`) is that list parameter's.
        if let Some(rules) = crate::validation::rules().operation(operation) {
            for (key, _) in &mut query {
                if let Some(name) = rules.bracketed_list(key) {
                    *key = name.to_string();
                }
            }
        }
        let body = match ::axum::body::to_bytes(body, limit).await {
            Ok(body) => body,
            Err(_) => {
                return Err(validation_error(vec![format!(
                    "request body: larger than {limit} bytes, or cut short"
                )]));
            }
        };
        let cookies = cookies(&parts.headers)
            .map(|(name, value)| (name.to_string(), cookie_text(value).into_owned()))
            .collect();
        Ok(Incoming {
            operation,
            path,
            other_splits,
            query,
            cookies,
            headers: parts.headers,
            body,
            json: None,
            messages: Vec::new(),
        })
    }

    /// The text of a parameter (the first, when it came more than once), header names
    /// compared case-insensitively.
    fn value(&self, location: Location, name: &str) -> Option<&str> {
        self.texts(location, name).into_iter().next()
    }

    /// Every text a parameter came with, in order: each query pair and cookie of that name,
    /// each line of a header. A list parameter is read from all of them.
    fn texts(&self, location: Location, name: &str) -> Vec<&str> {
        match location {
            Location::Path => self
                .path
                .iter()
                .filter(|(k, _)| *k == name)
                .map(|(_, v)| v.as_str())
                .collect(),
            Location::Query => self
                .query
                .iter()
                .filter(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
                .collect(),
            // UTF-8 beyond visible ASCII (`Zoë`) is text too; only bytes that are no text
            // at all are not read.
            Location::Header => self
                .headers
                .get_all(name)
                .iter()
                .filter_map(|v| std::str::from_utf8(v.as_bytes()).ok())
                .collect(),
            Location::Cookie => self
                .cookies
                .iter()
                .filter(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
                .collect(),
        }
    }

    /// The credentials of the first `Authorization` line under `scheme`: a client may send
    /// one line per scheme it holds credentials for.
    #[allow(dead_code)]
    fn authorization(&self, scheme: &str) -> Option<&str> {
        self.texts(Location::Header, "authorization")
            .into_iter()
            .find_map(|value| authorization_of(value, scheme))
    }

    /// The token of `Authorization: Bearer <token>` (the scheme's name in any case, as RFC
    /// 9110 has it).
    #[allow(dead_code)]
    fn bearer_token(&self) -> Option<&str> {
        self.authorization("bearer")
    }

    /// The token of the first `Authorization` line in whatever scheme it names (`token abc`,
    /// `Digest abc`: `abc`), or the whole value when it names none: what an OAuth 2 or
    /// OpenID Connect requirement, which takes a token in any scheme, hands the handler.
    #[allow(dead_code)]
    fn token_in_any_scheme(&self) -> Option<&str> {
        let value = self
            .texts(Location::Header, "authorization")
            .into_iter()
            .next()?
            .trim();
        let token = match value.split_once(' ') {
            Some((_, rest)) => rest.trim(),
            // A scheme's word alone (`DPoP`) is no token.
            None if crate::validation::manifest::is_scheme_word(
                value,
                crate::validation::rules().http_scheme_words(),
            ) =>
            {
                ""
            }
            None => value,
        };
        (!token.is_empty()).then_some(token)
    }

    /// The user name and password of `Authorization: Basic <base64 of user:password>` (RFC
    /// 7617); `None` when the header is not that, so the credential counts as absent.
    #[allow(dead_code)]
    fn basic_auth(&self) -> Option<(String, String)> {
        use ::base64::Engine as _;
        let encoded = self.authorization("basic")?;
        // Padding optional, as the credential check reads it: `dXNlcjpwdw` is `user:pw`.
        let engine = ::base64::engine::GeneralPurpose::new(
            &::base64::alphabet::STANDARD,
            ::base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(::base64::engine::DecodePaddingMode::Indifferent),
        );
        let decoded = engine.decode(encoded.trim()).ok()?;
        let text = String::from_utf8(decoded).ok()?;
        let (username, password) = text.split_once(':')?;
        Some((username.to_string(), password.to_string()))
    }

    /// Checks parameters, headers and the body against the contract; 400 listing every
    /// violation.
    fn validate(&mut self) -> Result<(), Response> {
        let Some(rules) = crate::validation::rules().operation(self.operation) else {
            return Ok(());
        };
        // `?verbose=` where the spec allows an empty value reads as absent: the schema judges
        // values, and the handler's optional parameter is `None`; unless its schema says what
        // it stands for (S3's `?acl`, whose one value is `true`).
        for (name, text) in self.query.iter_mut() {
            if !text.is_empty() {
                continue;
            }
            let reading = rules.parameters.iter().find_map(|rule| {
                (rule.allow_empty && rule.location == Location::Query && rule.name == *name)
                    .then_some(rule.empty_reads_as.as_ref())
                    .flatten()
            });
            if let Some(value) = reading {
                text.clone_from(value);
            }
        }
        self.query.retain(|(name, text)| {
            !text.is_empty()
                || !rules.parameters.iter().any(|rule| {
                    rule.allow_empty && rule.location == Location::Query && rule.name == *name
                })
        });
        // A segment of several parameters split at the first place the text between them is
        // (`a` and `b.json` from `{name}.{ext}`) may break their schemas where another split
        // keeps them (`a.b` and `json`, `ext` an enum): the first split that does is read, as
        // the request its own client made.
        if !self.other_splits.is_empty()
            && !rules
                .check_path_parameters(|location, name| self.texts(location, name))
                .is_empty()
        {
            let splits = std::mem::take(&mut self.other_splits);
            let fitting = splits.into_iter().find(|way| {
                rules
                    .check_path_parameters(|_, name| {
                        way.iter()
                            .filter(|(key, _)| *key == name)
                            .map(|(_, value)| value.as_str())
                            .collect()
                    })
                    .is_empty()
            });
            if let Some(way) = fitting {
                self.path = way;
            }
        }
        let mut messages =
            rules.check_parameters(|location, name| self.texts(location, name), &self.query);
        // Zero bytes with the documented Content-Type are a body all the same: an empty
        // upload, an empty text (which its schema judges: `minLength: 1`), a form of no
        // fields (`{}`, as the generated client sends an empty object).
        let has_body = !self.body.is_empty() || self.empty_but_typed(rules);
        // A body to an operation that takes none ("No body."): refused, as specval calls it
        // a violation (`body-unexpected`), rather than passed to a handler that ignores it.
        if rules.body.is_none() && self.body.iter().any(|byte| !byte.is_ascii_whitespace()) {
            messages.push(format!(
                "request body: {} takes none, but one was sent",
                self.operation
            ));
        }
        if rules.body.is_some() && has_body {
            let content_type = self
                .headers
                .get(::http::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok());
            // What a refusal says was sent: a value that is not text is not an absent one.
            let sent_type = match (
                content_type,
                self.headers.contains_key(::http::header::CONTENT_TYPE),
            ) {
                (Some(text), _) => text,
                (None, true) => "a value that is not ASCII text",
                (None, false) => "absent",
            };
            let essence = content_type.map(crate::validation::essence);
            let json_type = essence
                .as_deref()
                .is_some_and(crate::validation::manifest::is_json);
            let documented = rules.body_media.as_deref().unwrap_or("application/json");
            let sent_as_documented = essence
                .as_deref()
                .is_some_and(|sent| crate::validation::media_fits(documented, sent));
            if rules.form.is_some() {
                // A form: its fields become the JSON object the schema checks and the handler
                // reads.
                match rules.read_form(&self.body) {
                    Some(value) if sent_as_documented => {
                        messages.extend(rules.check_body(&value));
                        self.json = Some(value);
                    }
                    _ => messages.push(format!(
                        "Content-Type must be {documented}, not {}",
                        sent_type
                    )),
                }
            } else if !crate::validation::is_json_media(documented) || rules.body_any_bytes {
                // Multipart, binary, text: the media type is checked (a text's schema and a
                // multipart body's parts too), the bytes passed on.
                let sent_as_another = essence
                    .as_deref()
                    .is_some_and(|s| rules.body_alternative(s));
                // A form or parts in a media type with a schema of its own (an upload as bytes
                // or as parts with the file): checked by that schema.
                let other_fields =
                    essence
                        .as_deref()
                        .filter(|_| sent_as_another)
                        .and_then(|sent| {
                            rules.check_other_fields(
                                &self.body,
                                sent,
                                content_type.unwrap_or_default(),
                            )
                        });
                if !sent_as_documented && !sent_as_another {
                    messages.push(format!(
                        "Content-Type must be {documented}, not {}",
                        sent_type
                    ));
                } else if let Some(broken) = other_fields {
                    messages.extend(broken);
                } else if sent_as_documented
                    && crate::validation::manifest::is_judged_text(documented)
                {
                    messages.extend(text_body_errors(rules, &self.body));
                } else if sent_as_documented
                    && let Some(read) =
                        rules.read_multipart(&self.body, content_type.unwrap_or_default())
                {
                    // Multipart: its parts are checked as the fields of the body's schema;
                    // the handler still gets the bytes.
                    match read {
                        Ok(value) => messages.extend(rules.check_body(&value)),
                        Err(why) => {
                            messages.push(format!("request body is not multipart/form-data: {why}"))
                        }
                    }
                }
            } else if !json_type {
                // A form documented beside JSON (or parts, documented with the JSON's schema)
                // is read into the object JSON would carry; another documented media type
                // cannot become the handler's typed body.
                let sent = essence.as_deref().filter(|s| rules.body_alternative(s));
                let read = sent.and_then(|sent| {
                    rules.read_alternative_form(&self.body, sent, content_type.unwrap_or_default())
                });
                match read {
                    Some(Ok(value)) => {
                        messages.extend(rules.check_body(&value));
                        self.json = Some(value);
                    }
                    Some(Err(why)) => {
                        messages.push(format!("request body is not multipart/form-data: {why}"))
                    }
                    None => match sent {
                        Some(sent) => messages.push(format!(
                            "Content-Type {sent} is documented, but this server reads the body as {documented}"
                        )),
                        None => messages.push(format!(
                            "Content-Type must be application/json, not {}",
                            sent_type
                        )),
                    },
                }
            } else {
                match ::serde_json::from_slice::<::serde_json::Value>(&self.body) {
                    Ok(value) => {
                        messages.extend(rules.check_body(&value));
                        self.json = Some(value);
                    }
                    Err(err) => messages.push(format!("request body is not JSON: {err}")),
                }
            }
        } else if rules.body_required() {
            messages.push("request body is required".to_string());
        }
        if messages.is_empty() {
            Ok(())
        } else {
            Err(validation_error(messages))
        }
    }

    /// A parameter parsed into `T`: `None` when absent, the message when unparsable.
    fn typed<T>(&self, location: Location, name: &str) -> Option<Result<T, String>>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let text = self.value(location, name)?;
        Some(
            text.parse::<T>()
                .map_err(|err| format!("{location:?} {name}: {err}")),
        )
    }

    /// A list parameter's items, each parsed into `T`: `None` when the parameter is absent,
    /// the message of the first item that does not parse.
    fn typed_list<T>(
        &self,
        location: Location,
        name: &str,
        form: ListForm,
    ) -> Option<Result<Vec<T>, String>>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let texts = self.texts(location, name);
        if texts.is_empty() {
            return None;
        }
        // As the contract's check read them; by their form alone should it not know them.
        let items = crate::validation::rules()
            .operation(self.operation)
            .and_then(|rules| rules.list_items(location, name, &texts))
            .unwrap_or_else(|| {
                form.read(&texts, |items| items.iter().all(|i| i.parse::<T>().is_ok()))
            });
        Some(
            items
                .into_iter()
                .map(|item| {
                    item.parse::<T>()
                        .map_err(|err| format!("{location:?} {name}: `{item}`: {err}"))
                })
                .collect(),
        )
    }

    /// An object query parameter read into `T` from its members, as its style sends them
    /// (`filter[name]=rex`, `name=rex`, `filter=name,rex`): `None` when it is absent, the
    /// message when its members do not make a `T`.
    fn typed_object<T: ::serde::de::DeserializeOwned>(
        &self,
        name: &str,
    ) -> Option<Result<T, String>> {
        let rules = crate::validation::rules().operation(self.operation)?;
        let value = rules.query_object(name, &self.query)?;
        Some(::serde_json::from_value(value).map_err(|err| format!("Query {name}: {err}")))
    }

    /// A required object query parameter, typed; `None` (with a message) when absent or
    /// unreadable.
    fn required_object<T: ::serde::de::DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        let typed = self.typed_object(name);
        self.take_required(typed, Location::Query, name)
    }

    /// An optional object query parameter, typed: `Some(None)` when absent, `None` when
    /// unreadable.
    fn optional_object<T: ::serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
    ) -> Option<Option<T>> {
        let typed = self.typed_object(name);
        self.take_optional(typed)
    }

    /// The value of a query parameter that is a union of an object and a scalar: the object
    /// when its members came (`created[gte]=1`), else the scalar under its name
    /// (`created=5`), read into the union, which chooses the alternative by the value.
    fn typed_union<T: ::serde::de::DeserializeOwned>(
        &self,
        name: &str,
    ) -> Option<Result<T, String>> {
        let rules = crate::validation::rules().operation(self.operation)?;
        let value = rules.query_value(name, &self.query)?;
        Some(::serde_json::from_value(value).map_err(|err| format!("Query {name}: {err}")))
    }

    /// A required union query parameter ([`Self::typed_union`]); `None` (with a message)
    /// when absent or unreadable.
    fn required_union<T: ::serde::de::DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        let typed = self.typed_union(name);
        self.take_required(typed, Location::Query, name)
    }

    /// An optional union query parameter ([`Self::typed_union`]): `Some(None)` when absent,
    /// `None` when unreadable.
    fn optional_union<T: ::serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
    ) -> Option<Option<T>> {
        let typed = self.typed_union(name);
        self.take_optional(typed)
    }

    /// A required list parameter, typed; `None` (with a message) when absent or unparsable.
    fn required_list<T>(&mut self, location: Location, name: &str, form: ListForm) -> Option<Vec<T>>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let typed = self.typed_list(location, name, form);
        self.take_required(typed, location, name)
    }

    /// An optional list parameter, typed: `Some(None)` when absent, `None` when unparsable.
    fn optional_list<T>(
        &mut self,
        location: Location,
        name: &str,
        form: ListForm,
    ) -> Option<Option<Vec<T>>>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let typed = self.typed_list(location, name, form);
        self.take_optional(typed)
    }

    /// A required parameter, typed; `None` (with a message) when absent or unparsable.
    fn required<T>(&mut self, location: Location, name: &str) -> Option<T>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let typed = self.typed(location, name);
        self.take_required(typed, location, name)
    }

    /// An optional parameter, typed: `Some(None)` when absent, `None` when unparsable.
    fn optional<T>(&mut self, location: Location, name: &str) -> Option<Option<T>>
    where
        T: ::std::str::FromStr,
        T::Err: ::std::fmt::Display,
    {
        let typed = self.typed(location, name);
        self.take_optional(typed)
    }

    /// A parameter written as a JSON text (`content: {application/json: …}`), read into `T`:
    /// `None` when absent, the message when its text does not deserialize.
    fn typed_json<T: ::serde::de::DeserializeOwned>(
        &self,
        location: Location,
        name: &str,
    ) -> Option<Result<T, String>> {
        let text = self.value(location, name)?;
        // Text that is not JSON is the string it is, as the contract reads it
        // (`ValueKind::Json`): Stream documents its path values as JSON and its clients send
        // `messaging`, not `"messaging"`. The type still decides whether a string will do.
        let value = ::serde_json::from_str::<::serde_json::Value>(text)
            .unwrap_or_else(|_| ::serde_json::Value::String(text.to_string()));
        Some(
            ::serde_json::from_value(value)
                .map_err(|err| format!("{location:?} {name}: `{text}`: {err}")),
        )
    }

    /// A required JSON-text parameter, typed; `None` (with a message) when absent or
    /// unreadable.
    fn required_json<T: ::serde::de::DeserializeOwned>(
        &mut self,
        location: Location,
        name: &str,
    ) -> Option<T> {
        let typed = self.typed_json(location, name);
        self.take_required(typed, location, name)
    }

    /// An optional JSON-text parameter, typed: `Some(None)` when absent, `None` when
    /// unreadable.
    fn optional_json<T: ::serde::de::DeserializeOwned>(
        &mut self,
        location: Location,
        name: &str,
    ) -> Option<Option<T>> {
        let typed = self.typed_json(location, name);
        self.take_optional(typed)
    }

    /// A required parameter's value once read: the message kept when it is absent or
    /// does not parse.
    fn take_required<T>(
        &mut self,
        typed: Option<Result<T, String>>,
        location: Location,
        name: &str,
    ) -> Option<T> {
        match typed {
            Some(Ok(value)) => Some(value),
            Some(Err(message)) => {
                self.messages.push(message);
                None
            }
            None => {
                self.messages
                    .push(format!("{location:?} {name} is required"));
                None
            }
        }
    }

    /// An optional parameter's value once read: `Some(None)` when absent, `None` (the
    /// message kept) when it does not parse.
    fn take_optional<T>(&mut self, typed: Option<Result<T, String>>) -> Option<Option<T>> {
        match typed {
            Some(Ok(value)) => Some(Some(value)),
            Some(Err(message)) => {
                self.messages.push(message);
                None
            }
            None => Some(None),
        }
    }

    #[allow(dead_code)]
    fn json_body<T: ::serde::de::DeserializeOwned>(&mut self) -> Option<T> {
        match self.optional_json_body::<T>() {
            Some(Some(body)) => Some(body),
            Some(None) => {
                self.messages.push("request body is required".to_string());
                None
            }
            None => None,
        }
    }

    #[allow(dead_code)]
    fn optional_json_body<T: ::serde::de::DeserializeOwned>(&mut self) -> Option<Option<T>> {
        let value = match self.json.take() {
            Some(value) => value,
            None if self.body.is_empty() => return Some(None),
            None => match ::serde_json::from_slice(&self.body) {
                Ok(value) => value,
                Err(err) => {
                    self.messages
                        .push(format!("request body is not JSON: {err}"));
                    return None;
                }
            },
        };
        match crate::support::from_json_value(value) {
            Ok(body) => Some(Some(body)),
            Err(err) => {
                self.messages.push(format!("request body: {err}"));
                None
            }
        }
    }

    /// Zero bytes sent with a Content-Type to an operation whose body is not JSON or parts:
    /// an empty upload (an empty file, `RawBody::new(&[])`), an empty text or a form of no
    /// fields, a body, not none.
    fn empty_but_typed(&self, rules: &crate::validation::OperationRules) -> bool {
        let documented = rules.body_media.as_deref().unwrap_or("application/json");
        self.body.is_empty()
            && self.headers.contains_key(::http::header::CONTENT_TYPE)
            && (!crate::validation::is_json_media(documented) || rules.body_any_bytes)
            && documented != "multipart/form-data"
    }

    #[allow(dead_code)]
    fn raw_body(&mut self) -> Option<::axum::body::Bytes> {
        if self.body.is_empty() && !self.headers.contains_key(::http::header::CONTENT_TYPE) {
            self.messages.push("request body is required".to_string());
            return None;
        }
        Some(self.body.clone())
    }

    #[allow(dead_code)]
    fn optional_raw_body(&mut self) -> Option<Option<::axum::body::Bytes>> {
        let sent = !self.body.is_empty() || self.headers.contains_key(::http::header::CONTENT_TYPE);
        Some(sent.then(|| self.body.clone()))
    }

    fn reject(&mut self) -> Response {
        validation_error(std::mem::take(&mut self.messages))
    }
}

#[path = "path.rs"]
pub mod path;

/// The credentials of an `Authorization` header value under `scheme` (compared in any case),
/// without the scheme's name: `Bearer abc` under `bearer` is `abc`.
#[allow(dead_code)]
fn authorization_of<'v>(value: &'v str, scheme: &str) -> Option<&'v str> {
    let (name, credentials) = value.trim_start().split_once(' ')?;
    name.eq_ignore_ascii_case(scheme)
        .then(|| credentials.trim_start())
        .filter(|credentials| !credentials.is_empty())
}

// In the stand-in server of `generator/tests/runtime/server.rs` (rejections as problem
// details), against the stand-in contract (`createThing` is `POST /things/{id}`).
#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    const KEY: &[&[Needed]] = &[&[(Location::Header, "x-key", None)]];

    const LIMIT: usize = 64;

    fn request(uri: &str, headers: &[(&str, &str)], body: &str) -> ::axum::extract::Request {
        let mut request = ::http::Request::builder().method("POST").uri(uri);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request
            .body(::axum::body::Body::from(body.to_string()))
            .unwrap()
    }

    /// A JSON request to `uri` with the credential.
    fn json_request(uri: &str, body: &str) -> ::axum::extract::Request {
        request(
            uri,
            &[("x-key", "secret"), ("content-type", "application/json")],
            body,
        )
    }

    async fn read(request: ::axum::extract::Request) -> Result<Incoming, Response> {
        Incoming::read("createThing", "/things/{id}", request, KEY, LIMIT).await
    }

    /// A text body is judged as its words, or as the number they make where the schema
    /// refuses strings: `0` against `{type: integer, minimum: 1}` breaks the minimum, and
    /// `many`, which makes no number, the type.
    #[test]
    fn a_text_body_is_judged_as_the_number_its_words_make_where_strings_are_refused() {
        let rules = crate::validation::rules()
            .operation("setAttempts")
            .expect("setAttempts");
        assert_eq!(text_body_errors(rules, b"3"), Vec::<String>::new());
        let broken = text_body_errors(rules, b"0");
        assert!(
            broken.len() == 1 && broken[0].contains("minimum of 1"),
            "{broken:?}"
        );
        let words = text_body_errors(rules, b"many");
        assert!(
            words.len() == 1 && words[0].contains("not of type \"integer\""),
            "{words:?}"
        );
    }

    #[tokio::test]
    async fn bearer_and_basic_credentials_are_read_from_authorization() {
        let with = |value: &str| {
            request(
                "/things/1",
                &[("x-key", "secret"), ("authorization", value)],
                "",
            )
        };
        // `user:pa:ss`: the password is everything after the first colon (RFC 7617).
        let basic = read(with("Basic dXNlcjpwYTpzcw==")).await.unwrap();
        let pair = (String::from("user"), String::from("pa:ss"));
        assert_eq!(basic.basic_auth(), Some(pair.clone()));
        assert_eq!(basic.bearer_token(), None);
        // The scheme's name in any case.
        let basic = read(with("basic dXNlcjpwYTpzcw==")).await.unwrap();
        assert_eq!(basic.basic_auth(), Some(pair));
        let bearer = read(with("bearer tok.en")).await.unwrap();
        assert_eq!(bearer.bearer_token(), Some("tok.en"));
        assert_eq!(bearer.basic_auth(), None);
        // The token in whatever scheme, for OAuth 2's any-scheme acceptance.
        assert_eq!(bearer.token_in_any_scheme(), Some("tok.en"));
        let other = read(with("token gh_1 ")).await.unwrap();
        assert_eq!(other.bearer_token(), None);
        assert_eq!(other.token_in_any_scheme(), Some("gh_1"));
        let bare = read(with("garbage")).await.unwrap();
        assert_eq!(bare.token_in_any_scheme(), Some("garbage"));
        // A scheme's word alone is no token.
        let word = read(with("DPoP")).await.unwrap();
        assert_eq!(word.token_in_any_scheme(), None);
        // Base64 without its padding, as the credential check reads it.
        let unpadded = read(with("Basic dXNlcjpwYTpzcw")).await.unwrap();
        assert_eq!(
            unpadded.basic_auth(),
            Some((String::from("user"), String::from("pa:ss")))
        );
        // Not base64, no colon, no credentials: no credential at all.
        for broken in ["Basic !!!", "Basic dXNlcg==", "Basic ", "Bearer "] {
            let incoming = read(with(broken)).await.unwrap();
            assert_eq!(incoming.basic_auth(), None, "{broken}");
            assert_eq!(incoming.bearer_token(), None, "{broken}");
        }
    }

    /// Status, `Content-Type` and JSON body of a response.
    async fn answer(response: Response) -> (u16, String, Value) {
        let status = response.status().as_u16();
        let content_type = response.headers()[::http::header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        let body = ::axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, content_type, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn a_documented_header_is_set_as_given_and_one_http_cannot_carry_is_a_500() {
        let ok = || raw_response(::http::StatusCode::CREATED, "text/plain", "made");
        let set = with_header(ok(), "location", Some("/things/7"));
        assert_eq!(set.status(), ::http::StatusCode::CREATED);
        assert_eq!(set.headers()["location"], "/things/7");
        let unset = with_header(ok(), "location", None);
        assert!(unset.headers().get("location").is_none());
        let broken = with_header(ok(), "location", Some("/things/7\r\nSet-Cookie: a=1"));
        let (status, _, messages) = rejection(broken).await;
        assert_eq!(status, 500);
        assert!(messages[0].contains("`location`"), "{messages:?}");
    }

    /// The status, code and messages of a rejection.
    async fn rejection(response: Response) -> (u16, String, Vec<String>) {
        let (status, _, body) = answer(response).await;
        let messages = body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        (status, body["code"].as_str().unwrap().to_string(), messages)
    }

    /// The messages of a request rejected as invalid.
    async fn invalid(request: ::axum::extract::Request) -> Vec<String> {
        let rejected = match read(request).await {
            Ok(mut incoming) => incoming.validate().unwrap_err(),
            Err(rejected) => rejected,
        };
        let (status, code, messages) = rejection(rejected).await;
        assert_eq!(
            (status, code.as_str()),
            (400, "VALIDATION_ERROR"),
            "{messages:?}"
        );
        messages
    }

    #[tokio::test]
    async fn a_json_answer_has_its_status_type_and_body() {
        let response = json_response(::http::StatusCode::CREATED, &json!({"name": "lamp"}));
        assert_eq!(
            answer(response).await,
            (201, "application/json".into(), json!({"name": "lamp"}))
        );
    }

    #[tokio::test]
    async fn a_valid_request_is_read_typed() {
        let request = request(
            "/things/7?limit=3",
            &[
                ("x-key", "secret"),
                ("X-Trace", "ab"),
                ("content-type", "application/json; charset=utf-8"),
            ],
            r#"{"name": "lamp"}"#,
        );
        let mut incoming = read(request).await.unwrap();
        assert!(incoming.validate().is_ok());
        assert_eq!(incoming.required::<u32>(Location::Path, "id"), Some(7));
        assert_eq!(
            incoming.optional::<u8>(Location::Query, "limit"),
            Some(Some(3))
        );
        // Header names are case-insensitive.
        assert_eq!(
            incoming.optional::<String>(Location::Header, "x-trace"),
            Some(Some("ab".to_string()))
        );
        assert_eq!(incoming.optional::<u8>(Location::Query, "page"), Some(None));
        assert_eq!(incoming.json_body::<Value>(), Some(json!({"name": "lamp"})));
        assert!(incoming.messages.is_empty(), "{:?}", incoming.messages);
    }

    #[tokio::test]
    async fn credentials_are_checked_before_anything_else() {
        // Nothing is right with it, but what it lacks first is the credential.
        for headers in [&[][..], &[("x-key", " ")]] {
            let rejected = read(request("/things/zero?limit=x", headers, "{")).await;
            assert_eq!(
                rejection(rejected.err().unwrap()).await,
                (
                    401,
                    "NOT_AUTHENTICATED".into(),
                    vec!["authentication headers missing: send x-key".to_string()]
                )
            );
        }
        // Any one requirement will do; each needs all it names.
        let either: &[&[Needed]] = &[
            &[
                (Location::Header, "x-id", None),
                (Location::Header, "x-secret", None),
            ],
            &[(Location::Query, "key", None)],
        ];
        let headers = ::http::HeaderMap::new();
        let response = authenticate(&headers, Some("other=1"), either).unwrap_err();
        assert_eq!(
            rejection(response).await.2,
            ["credentials missing: send x-id and x-secret, or key (query parameter)"]
        );
        assert!(authenticate(&headers, Some("other=1&key=k"), either).is_ok());
        assert!(authenticate(&headers, None, &[]).is_ok());
        // Google's two OAuth schemes, required together and listed twice, want one
        // `Authorization`, said once.
        let oauth: &[Needed] = &[
            (Location::Header, "authorization", None),
            (Location::Header, "authorization", None),
        ];
        let response = authenticate(&headers, None, &[oauth, oauth]).unwrap_err();
        assert_eq!(
            rejection(response).await.2,
            ["authentication headers missing: send authorization"]
        );
        // An HTTP scheme's credential is an `Authorization` value in that scheme.
        let basic: &[&[Needed]] = &[&[(Location::Header, "authorization", Some("basic"))]];
        let with = |value: &str| {
            let mut headers = ::http::HeaderMap::new();
            headers.insert(::http::header::AUTHORIZATION, value.parse().unwrap());
            authenticate(&headers, None, basic).is_ok()
        };
        assert!(with("Basic dXNlcjpwdw=="));
        assert!(with("basic dXNlcjpwdw=="));
        assert!(!with("Bearer eyJhbGciOi.e30.sig"));
        assert!(!with("Basic "));
        // A Basic token must be the base64 of `user:password` (RFC 7617): one that is not
        // base64, or holds no `:`, presents no credential (the handler would get none).
        assert!(!with("Basic !!!notbase64"));
        assert!(!with("Basic dXNlcg=="));
        assert!(with("Basic dXNlcjo"));
        let response = authenticate(&::http::HeaderMap::new(), None, basic).unwrap_err();
        assert_eq!(
            rejection(response).await.2,
            ["authentication headers missing: send authorization (basic)"]
        );
    }

    #[test]
    fn a_credential_is_read_where_its_scheme_puts_it() {
        let mut headers = ::http::HeaderMap::new();
        headers.insert("x-key", "h".parse().unwrap());
        headers.insert(
            ::http::header::COOKIE,
            "theme=dark; session=c".parse().unwrap(),
        );
        let read = |location, name| {
            credential(&headers, Some("a=1&token=q%20r"), location, name).map(|v| v.into_owned())
        };
        assert_eq!(read(Location::Header, "x-key").as_deref(), Some("h"));
        assert_eq!(read(Location::Query, "token").as_deref(), Some("q r"));
        assert_eq!(read(Location::Cookie, "session").as_deref(), Some("c"));
        assert_eq!(read(Location::Cookie, "x-key"), None);
        assert_eq!(read(Location::Path, "x-key"), None);
    }

    #[tokio::test]
    async fn every_violation_is_listed_at_once() {
        let messages = invalid(json_request("/things/0?limit=11", "{}")).await;
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].starts_with("path parameter id: "),
            "{messages:?}"
        );
        assert!(
            messages[1].starts_with("query parameter limit: "),
            "{messages:?}"
        );
        assert!(messages[2].starts_with("(root): "), "{messages:?}");
    }

    #[tokio::test]
    async fn the_body_must_be_there_json_and_within_the_limit() {
        let cases = [
            (
                request("/things/1", &[("x-key", "k")], ""),
                "request body is required",
            ),
            (
                request(
                    "/things/1",
                    &[("x-key", "k"), ("content-type", "text/plain")],
                    "{}",
                ),
                "Content-Type must be application/json, not text/plain",
            ),
            (
                request("/things/1", &[("x-key", "k")], "{}"),
                "Content-Type must be application/json, not absent",
            ),
            (
                json_request("/things/1", "{name"),
                "request body is not JSON: ",
            ),
            (
                json_request("/things/1", &" ".repeat(LIMIT + 1)),
                "request body: larger than 64 bytes, or cut short",
            ),
        ];
        for (request, expected) in cases {
            let messages = invalid(request).await;
            assert_eq!(messages.len(), 1, "{messages:?}");
            assert!(messages[0].starts_with(expected), "{messages:?}");
        }
        // `+json` media types are JSON too.
        let request = request(
            "/things/1",
            &[
                ("x-key", "k"),
                ("content-type", "application/merge-patch+json"),
            ],
            r#"{"name": "lamp"}"#,
        );
        assert!(read(request).await.unwrap().validate().is_ok());
    }

    #[tokio::test]
    async fn a_path_outside_the_template_is_not_found() {
        let rejected = read(json_request("/things/1/parts", "{}"))
            .await
            .err()
            .unwrap();
        assert_eq!(
            rejection(rejected).await,
            (
                404,
                "NOT_FOUND".into(),
                vec!["no operation at /things/1/parts".to_string()]
            )
        );
        let response =
            method_not_allowed(::http::Method::DELETE, "/things/1".parse().unwrap()).await;
        assert_eq!(
            rejection(response).await,
            (
                405,
                "METHOD_NOT_ALLOWED".into(),
                vec!["DELETE is not an operation of /things/1".to_string()]
            )
        );
    }

    #[tokio::test]
    async fn what_does_not_parse_into_its_type_is_collected_and_rejected() {
        let mut incoming = read(json_request("/things/300?limit=x", "[1]"))
            .await
            .unwrap();
        assert_eq!(incoming.required::<u8>(Location::Path, "id"), None);
        assert_eq!(incoming.optional::<u8>(Location::Query, "limit"), None);
        assert_eq!(incoming.required::<u8>(Location::Header, "x-count"), None);
        assert_eq!(
            incoming.json_body::<::std::collections::HashMap<String, u8>>(),
            None
        );
        let messages = rejection(incoming.reject()).await.2;
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].starts_with("Path id: "), "{messages:?}");
        assert!(messages[1].starts_with("Query limit: "), "{messages:?}");
        assert_eq!(messages[2], "Header x-count is required");
        assert!(messages[3].starts_with("request body: "), "{messages:?}");
    }

    #[tokio::test]
    async fn raw_bodies_and_bearer_tokens() {
        let request = request(
            "/things/1",
            &[("authorization", "Bearer t0k"), ("x-key", "k")],
            "bytes",
        );
        let mut incoming = read(request).await.unwrap();
        assert_eq!(incoming.bearer_token(), Some("t0k"));
        assert_eq!(incoming.raw_body().as_deref(), Some(&b"bytes"[..]));
        assert_eq!(
            incoming.optional_raw_body(),
            Some(Some(::axum::body::Bytes::from_static(b"bytes")))
        );
        let mut empty = read(request_without_body()).await.unwrap();
        assert_eq!(empty.optional_raw_body(), Some(None));
        assert_eq!(empty.raw_body(), None);
        assert_eq!(empty.optional_json_body::<Value>(), Some(None));
        assert_eq!(empty.messages, ["request body is required"]);
    }

    #[tokio::test]
    async fn a_list_is_read_in_its_form_from_every_text_it_came_with() {
        let incoming = |uri: &str, headers: &[(&str, &str)]| {
            let mut all = vec![("x-key", "k")];
            all.extend_from_slice(headers);
            read(request(uri, &all, ""))
        };
        let mut exploded = incoming("/things/1?tags=1&tags=2&name=a,b&sort=a|b&none=", &[])
            .await
            .unwrap();
        // `?tags=1&tags=2`: every pair an item.
        assert_eq!(
            exploded.optional_list::<i64>(Location::Query, "tags", ListForm::Repeated),
            Some(Some(vec![1, 2]))
        );
        // A lone text of a repeated list stays one item when it reads as one.
        assert_eq!(
            exploded.optional_list::<String>(Location::Query, "name", ListForm::Repeated),
            Some(Some(vec!["a,b".to_string()]))
        );
        assert_eq!(
            exploded.optional_list::<String>(Location::Query, "sort", ListForm::Delimited('|')),
            Some(Some(vec!["a".to_string(), "b".to_string()]))
        );
        // `?none=` in a delimited form is the empty list; absent is `None`.
        assert_eq!(
            exploded.optional_list::<i64>(Location::Query, "none", ListForm::Delimited(',')),
            Some(Some(vec![]))
        );
        assert_eq!(
            exploded.optional_list::<i64>(Location::Query, "absent", ListForm::Repeated),
            Some(None)
        );
        assert!(exploded.messages.is_empty(), "{:?}", exploded.messages);
        assert_eq!(
            exploded.required_list::<i64>(Location::Query, "absent", ListForm::Repeated),
            None
        );
        assert_eq!(exploded.messages, ["Query absent is required"]);

        // `?tags=1,2` where the spec says `?tags=1&tags=2`: integers hold no comma.
        let mut joined = incoming("/things/1?tags=1,2", &[]).await.unwrap();
        assert_eq!(
            joined.required_list::<i64>(Location::Query, "tags", ListForm::Repeated),
            Some(vec![1, 2])
        );

        // A header's list over two lines is one list.
        let mut header = incoming("/things/1", &[("x-ids", "1, 2"), ("x-ids", "3")])
            .await
            .unwrap();
        assert_eq!(
            header.required_list::<i64>(Location::Header, "x-ids", ListForm::Delimited(',')),
            Some(vec![1, 2, 3])
        );

        // An item that does not parse is named, and the list is not read.
        let mut bad = incoming("/things/1?tags=1&tags=x", &[]).await.unwrap();
        assert_eq!(
            bad.optional_list::<i64>(Location::Query, "tags", ListForm::Repeated),
            None
        );
        assert_eq!(bad.messages.len(), 1, "{:?}", bad.messages);
        assert!(
            bad.messages[0].starts_with("Query tags: `x`: "),
            "{:?}",
            bad.messages
        );
    }

    fn request_without_body() -> ::axum::extract::Request {
        request("/things/1", &[("x-key", "k")], "")
    }

    #[tokio::test]
    async fn a_rejection_is_problem_details_with_the_code_and_messages() {
        let response = error_response(
            ::http::StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
            vec!["a".into(), "b".into()],
        );
        assert_eq!(response.status(), 400);
        assert_eq!(
            response.headers()[::http::header::CONTENT_TYPE],
            "application/problem+json"
        );
        let body = ::axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let body: ::serde_json::Value = ::serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body,
            ::serde_json::json!({
                "type": "about:blank",
                "title": "Bad Request",
                "status": 400,
                "detail": "a; b",
                "code": "VALIDATION_ERROR",
                "errors": ["a", "b"],
            })
        );
    }
}
