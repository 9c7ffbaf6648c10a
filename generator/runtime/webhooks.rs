// The static half of `src/webhooks.rs` in every generated crate with webhooks: reading and
// checking a payload on the receiving side, delivering one with retries on the sending side.
// specgen (`emit::webhooks`) splices these items into the module after the generated half
// (the `Webhooks` trait, `receiver`, a handler per notification and a second `impl Sender`
// with a method per notification, which calls `deliver`), and its `use` items among the
// module's own. It is a fragment of that module, not a module of its own, compiled and
// unit-tested as itself by being `include!`d into a stand-in for the module
// (`generator/tests/runtime/webhooks.rs`).

use ::std::time::Duration;

use ::axum::response::{IntoResponse as _, Response};

/// A receiver's handler failed; the receiver answers 500 so that the sender retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerError(pub String);

impl ::std::fmt::Display for HandlerError {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ::std::error::Error for HandlerError {}

/// Largest payload the receiver accepts, in bytes.
pub const RECEIVER_BODY_LIMIT: usize = 1024 * 1024;

// Used by `read_payload` and `refused_body`, one of which a crate's notifications may leave
// unused (every one carries a payload, or none does).
#[allow(dead_code)]
fn invalid(messages: Vec<String>) -> Response {
    (
        ::http::StatusCode::BAD_REQUEST,
        ::axum::Json(::serde_json::json!({ "messages": messages })),
    )
        .into_response()
}

/// The documented header parameters of a notification (a signature, an event name), checked
/// by the contract before anything else is read: the 400 that says what is wrong, if any.
#[allow(dead_code)]
fn rejected_headers(hook: &str, headers: &::http::HeaderMap) -> Option<Response> {
    let messages = header_messages(hook, headers)?;
    (!messages.is_empty()).then(|| invalid(messages))
}

/// The rules a notification's documented header parameters break; `None` for a notification
/// the contract does not know.
#[allow(dead_code)]
fn header_messages(hook: &str, headers: &::http::HeaderMap) -> Option<Vec<String>> {
    let rules = crate::validation::rules().webhook(hook)?;
    Some(rules.check_headers(|name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|value| std::str::from_utf8(value.as_bytes()).ok())
            .collect()
    }))
}

/// A delivery's body, read up to [`RECEIVER_BODY_LIMIT`]; the 400 when it is longer or cut
/// short.
#[allow(dead_code)]
async fn payload_bytes(body: ::axum::body::Body) -> Result<::axum::body::Bytes, Response> {
    ::axum::body::to_bytes(body, RECEIVER_BODY_LIMIT)
        .await
        .map_err(|_| {
            invalid(vec![format!(
                "payload larger than {RECEIVER_BODY_LIMIT} bytes, or cut short"
            )])
        })
}

/// Which of `hooks`, notifications delivered at one path with one method (several event
/// types at one receiver URL), a request is, told as specval tells it: of those that
/// declare one of the payload's members at least, if any does, the one declaring most of
/// them (a notification that requires nothing keeps every payload, but a broken event is
/// its own event's, whose checks then refuse it); then one whose rules, headers included,
/// the request keeps (else one it breaks only by what the receiver lets pass, a new enum
/// value or an undeclared member: [`crate::validation::OperationRules::check_payload`]);
/// then the one whose name the payload gives as a member's value (Adyen's created and
/// updated events share a schema, and `type` says which); then the first. The request
/// comes back with its body read, for that notification's handler to read again.
#[allow(dead_code)]
async fn delivered_as(
    hooks: &[&str],
    request: ::axum::extract::Request,
) -> Result<(usize, ::axum::extract::Request), Response> {
    use ::std::cmp::Reverse;
    let (parts, body) = request.into_parts();
    let bytes = payload_bytes(body).await?;
    // How well each notification fits the payload, best last; headers it breaks (a missing
    // signature) break its rules as a body would.
    let fit = |hook: &str| -> Option<(bool, Reverse<usize>, bool, bool, bool)> {
        let rules = crate::validation::rules().webhook(hook)?;
        let headers_kept = header_messages(hook, &parts.headers)?.is_empty();
        let value = rules
            .read_form(&bytes)
            .or_else(|| ::serde_json::from_slice(&bytes).ok());
        let Some(value) = value else {
            let kept = headers_kept && bytes.iter().all(u8::is_ascii_whitespace);
            return Some((false, Reverse(0), kept, kept, false));
        };
        let members = value.as_object().map_or(0, |members| members.len());
        let undeclared = rules.undeclared_members(&value);
        let strictly = headers_kept && rules.check_body(&value).is_empty();
        let leniently = strictly || (headers_kept && rules.check_payload(&value).is_empty());
        let named = value
            .as_object()
            .is_some_and(|members| members.values().any(|member| member.as_str() == Some(hook)));
        Some((
            undeclared < members,
            Reverse(undeclared),
            strictly,
            leniently,
            named,
        ))
    };
    // The best fit, the first of equals; with none, the first, whose checks say what is wrong.
    let chosen = hooks
        .iter()
        .enumerate()
        .filter_map(|(at, hook)| fit(hook).map(|fit| (fit, Reverse(at))))
        .max()
        .map_or(0, |(_, Reverse(at))| at);
    let body = ::axum::body::Body::from(bytes);
    Ok((chosen, ::axum::extract::Request::from_parts(parts, body)))
}

/// For a notification that carries no payload (PeerTube's search callbacks): the 400 for a
/// body sent all the same, as the generated server refuses one where an operation takes none.
#[allow(dead_code)]
async fn refused_body(body: ::axum::body::Body) -> Option<Response> {
    match ::axum::body::to_bytes(body, RECEIVER_BODY_LIMIT).await {
        Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => None,
        _ => Some(invalid(vec![
            "this notification carries no payload, but one was sent".to_string(),
        ])),
    }
}

/// The text of a header, its first line, when it came as text.
#[allow(dead_code)]
fn header_text(headers: &::http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|value| std::str::from_utf8(value.as_bytes()).ok())
        .map(str::to_string)
}

/// Reads and checks a notification's payload sent as `content_type`: the 400 that says what
/// is wrong, if anything, where "wrong" leaves out what the models read all the same (a new
/// enum value, an undeclared member; see `check_payload`). A payload in another media type than its webhook documents (JSON
/// sent as `text/plain`, or with no Content-Type) is refused as the generated server refuses
/// such a request body, and as specval calls it a violation.
#[allow(dead_code)]
async fn read_payload(
    hook: &str,
    content_type: Option<&str>,
    body: ::axum::body::Body,
) -> Result<::serde_json::Value, Response> {
    let bytes = payload_bytes(body).await?;
    let rules = crate::validation::rules().webhook(hook);
    let documented = rules
        .and_then(|rules| rules.body_media.as_deref())
        .unwrap_or("application/json");
    let sent = content_type.map(crate::validation::essence);
    let fits = sent.as_deref().is_some_and(|sent| {
        crate::validation::media_fits(documented, sent)
            || (crate::validation::manifest::is_json(documented)
                && crate::validation::manifest::is_json(sent))
            || rules.is_some_and(|rules| rules.body_alternative(sent))
    });
    if !fits {
        return Err(invalid(vec![format!(
            "Content-Type must be {documented}, not {}",
            content_type.unwrap_or("absent")
        )]));
    }
    // A notification documented as a form (Twilio's status callbacks) is read into the
    // object its schema describes.
    let value = match rules.and_then(|rules| rules.read_form(&bytes)) {
        Some(value) => value,
        None => ::serde_json::from_slice(&bytes)
            .map_err(|err| invalid(vec![format!("payload is not JSON: {err}")]))?,
    };
    if let Some(rules) = rules {
        let messages = rules.check_payload(&value);
        if !messages.is_empty() {
            return Err(invalid(messages));
        }
    }
    Ok(value)
}

/// How a [`Sender`] delivers. The interface leaves retry counts, intervals and the
/// time-out open, so they are the caller's choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// Delay before the first retry, doubled for each further one (with jitter).
    pub base_delay: Duration,
    /// The longest delay between two attempts, also the longest `Retry-After`
    /// waited for: a receiver asking for more is not tried again.
    pub max_delay: Duration,
    /// Time-out of each attempt.
    pub timeout: Duration,
}

impl Default for DeliveryPolicy {
    fn default() -> Self {
        DeliveryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            timeout: Duration::from_secs(10),
        }
    }
}

/// Why a delivery was given up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GaveUp {
    /// The receiver answered 4xx (but 429): retrying would not help.
    Rejected {
        /// The status.
        status: u16,
        /// The body as received.
        body: String,
    },
    /// The receiver answered, but not with the documented acknowledgement.
    NotAcknowledged {
        /// The status.
        status: u16,
        /// The body as received.
        body: String,
        /// What was missing.
        reason: String,
    },
    /// Every attempt failed with a 5xx or a 429, a time-out or a connection
    /// error; or the receiver asked (`Retry-After`, on a 429 or a 503) for a
    /// longer wait than the policy's `max_delay`, so the rest were not made.
    Exhausted {
        /// What the last attempt got.
        last: String,
    },
    /// The payload or the URL could not be used.
    Invalid(String),
}

/// The outcome of a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Acknowledged after this many attempts.
    Delivered {
        /// Attempts made, the successful one included.
        attempts: u32,
    },
    /// Not delivered.
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// Why it stopped.
        reason: GaveUp,
    },
}

impl Delivery {
    /// Whether the receiver acknowledged the notification.
    pub fn is_delivered(&self) -> bool {
        matches!(self, Delivery::Delivered { .. })
    }
}

/// The delivering side: sends notifications with only `Content-Type:
/// application/json`, retrying 5xx and 429 answers, time-outs and connection
/// errors with exponential backoff, and stopping on any other 4xx. A 429 or 503
/// with `Retry-After` is retried no sooner than it asks, nor sooner than the
/// backoff; one asking for more than the policy's `max_delay` ends the delivery
/// ([`GaveUp::Exhausted`]).
#[derive(Debug, Clone)]
pub struct Sender {
    http: ::reqwest::Client,
    policy: DeliveryPolicy,
    /// Whether `http` is the sender's own, so that this crate's features decide
    /// whether it speaks HTTPS.
    own_client: bool,
}

impl Sender {
    /// A sender with its own HTTP client. It reaches `https://` receivers only
    /// with this crate's `rustls` feature; without it, a delivery to one is given
    /// up at once as [`GaveUp::Invalid`], naming the feature.
    pub fn new(policy: DeliveryPolicy) -> Sender {
        // A redirect is the receiver's answer, not a place to deliver to again: following a
        // 307 delivered the payload to another URL, and a 302 turned it into a GET.
        // Nor does it ask for a compressed reply: a notification carries its Content-Type
        // alone (`no_gzip` holds whatever features another crate gives reqwest).
        let http = ::reqwest::Client::builder()
            .redirect(::reqwest::redirect::Policy::none())
            .no_gzip()
            .build()
            .unwrap_or_default();
        Sender {
            http,
            policy,
            own_client: true,
        }
    }

    /// A sender using the caller's HTTP client (the policy's time-out still applies
    /// to each attempt; whether it speaks HTTPS depends on how it was built).
    pub fn with_client(http: ::reqwest::Client, policy: DeliveryPolicy) -> Sender {
        Sender {
            http,
            policy,
            own_client: false,
        }
    }

    /// Delivers one payload to `{base_url}{path}` with the documented method, in the
    /// documented media type, and judges the reply.
    async fn deliver(
        &self,
        hook: &str,
        method: ::http::Method,
        url: String,
        (payload, headers): (Payload, Vec<(&'static str, String)>),
        acknowledging: &[(u16, u16)],
    ) -> Delivery {
        let retry = crate::retry::RetryPolicy {
            max_attempts: self.policy.max_attempts.max(1),
            base_delay: self.policy.base_delay,
            max_delay: self.policy.max_delay,
        };
        if self.own_client
            && let Some(reason) = crate::retry::unsupported_scheme(&url)
        {
            return Delivery::GaveUp {
                attempts: 0,
                reason: GaveUp::Invalid(reason),
            };
        }
        let body = match payload.encoded() {
            Ok(body) => body,
            Err(reason) => {
                return Delivery::GaveUp {
                    attempts: 0,
                    reason: GaveUp::Invalid(reason),
                };
            }
        };
        let mut attempts = 0;
        loop {
            attempts += 1;
            let mut request = self
                .http
                .request(method.clone(), &url)
                .timeout(self.policy.timeout);
            if let Some((media, bytes)) = &body {
                request = request
                    .header(::http::header::CONTENT_TYPE, *media)
                    .body(bytes.clone());
            }
            for (name, value) in &headers {
                request = request.header(*name, value.as_str());
            }
            let sent = request.send().await;
            // What went wrong, and the wait a 429 or 503 asked for.
            let (failure, asked) = match sent {
                Ok(response) => {
                    let status = response.status().as_u16();
                    let asked = crate::retry::retry_after(status, response.headers());
                    match response.text().await {
                        Err(err) => (format!("reading the reply: {err}"), None),
                        Ok(_) if status == 429 || (500..600).contains(&status) => {
                            (format!("answered {status}"), asked)
                        }
                        Ok(text) if (400..500).contains(&status) => {
                            return Delivery::GaveUp {
                                attempts,
                                reason: GaveUp::Rejected { status, body: text },
                            };
                        }
                        Ok(text) => {
                            return match acknowledged(hook, status, acknowledging, &text) {
                                Ok(()) => Delivery::Delivered { attempts },
                                Err(reason) => Delivery::GaveUp {
                                    attempts,
                                    reason: GaveUp::NotAcknowledged {
                                        status,
                                        body: text,
                                        reason,
                                    },
                                },
                            };
                        }
                    }
                }
                Err(err) if err.is_builder() => {
                    return Delivery::GaveUp {
                        attempts,
                        reason: GaveUp::Invalid(err.to_string()),
                    };
                }
                Err(err) if err.is_timeout() => {
                    (format!("timed out after {:?}", self.policy.timeout), None)
                }
                Err(err) => (format!("could not connect or send: {err}"), None),
            };
            if attempts >= retry.max_attempts {
                return Delivery::GaveUp {
                    attempts,
                    reason: GaveUp::Exhausted { last: failure },
                };
            }
            match retry.delay_after(attempts, asked) {
                Some(wait) => ::tokio::time::sleep(wait).await,
                None => {
                    let last = format!(
                        "{failure} and asked (Retry-After) to wait {:?}, longer than the policy's max_delay of {:?}",
                        asked.unwrap_or_default(),
                        retry.max_delay,
                    );
                    return Delivery::GaveUp {
                        attempts,
                        reason: GaveUp::Exhausted { last },
                    };
                }
            }
        }
    }
}

/// What a notification carries, as its webhook documents it.
#[allow(dead_code)]
enum Payload {
    /// JSON (`application/json`).
    Json(::serde_json::Value),
    /// A form (`application/x-www-form-urlencoded`): each member a field, a list its
    /// field repeated, an object or a number its JSON text.
    Form(::serde_json::Value),
    /// No body (a `GET` ping).
    None,
}

impl Payload {
    /// The media type and bytes to send, if any.
    fn encoded(&self) -> Result<Option<(&'static str, Vec<u8>)>, String> {
        match self {
            Payload::Json(value) => ::serde_json::to_vec(value)
                .map(|bytes| Some(("application/json", bytes)))
                .map_err(|err| err.to_string()),
            Payload::Form(value) => {
                let mut pairs: Vec<(&str, String)> = Vec::new();
                for (name, member) in value.as_object().into_iter().flatten() {
                    let items = match member {
                        ::serde_json::Value::Array(items) => items.iter().collect(),
                        other => vec![other],
                    };
                    for item in items {
                        match item {
                            ::serde_json::Value::Null => {}
                            ::serde_json::Value::String(text) => pairs.push((name, text.clone())),
                            other => pairs.push((name, other.to_string())),
                        }
                    }
                }
                ::serde_urlencoded::to_string(&pairs)
                    .map(|text| Some((crate::validation::form::MEDIA_TYPE, text.into_bytes())))
                    .map_err(|err| err.to_string())
            }
            Payload::None => Ok(None),
        }
    }
}

/// A reply acknowledges a notification when it has a documented success status (one of
/// `acknowledging`, each a range of codes: `(202, 202)`, `(200, 299)` for `2XX`) and its body
/// matches that status's documented reply schema.
fn acknowledged(
    hook: &str,
    status: u16,
    acknowledging: &[(u16, u16)],
    text: &str,
) -> Result<(), String> {
    if !acknowledging
        .iter()
        .any(|(low, high)| (*low..=*high).contains(&status))
    {
        let expected: Vec<String> = acknowledging
            .iter()
            .map(|(low, high)| match (low, high) {
                (low, high) if low == high => low.to_string(),
                (low, _) => format!("{}XX", low / 100),
            })
            .collect();
        return Err(format!("expected status {}", expected.join(" or ")));
    }
    let Some(rules) = crate::validation::rules().webhook(hook) else {
        return Ok(());
    };
    // A reply documented without `content` acknowledges whatever it holds (`OK`, a page).
    if !rules.documents_response_body(status) {
        return Ok(());
    }
    let body: ::serde_json::Value = if text.trim().is_empty() {
        ::serde_json::Value::Null
    } else {
        ::serde_json::from_str(text).map_err(|err| format!("reply is not JSON: {err}"))?
    };
    match rules.check_response(status, &body) {
        Some(messages) if !messages.is_empty() => Err(messages.join("; ")),
        _ => Ok(()),
    }
}

// Against the stand-in contract of `generator/tests/runtime/contract.rs`: `thingCreated`
// posts a `Thing` (`name`, a non-empty string) and expects 200 with `{"ok": true}`.
#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::loopback::{Loopback, Reply};

    fn policy() -> DeliveryPolicy {
        DeliveryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(500),
            timeout: Duration::from_secs(5),
        }
    }

    async fn deliver(script: Vec<Reply>, policy: DeliveryPolicy) -> (Delivery, usize) {
        let (delivery, received) = deliver_received(script, policy).await;
        (delivery, received.len())
    }

    /// A `thingCreated` delivery, and what the receiver was sent.
    async fn deliver_received(
        script: Vec<Reply>,
        policy: DeliveryPolicy,
    ) -> (Delivery, Vec<crate::loopback::Received>) {
        let server = Loopback::start(script).await;
        let delivery = Sender::new(policy)
            .deliver(
                "thingCreated",
                ::http::Method::POST,
                format!("{}/hooks/thing", server.url),
                (Payload::Json(json!({"name": "lamp"})), Vec::new()),
                &[(200, 200)],
            )
            .await;
        (delivery, server.received())
    }

    /// The status and `messages` of a receiver's answer.
    async fn answer(response: Response) -> (u16, ::serde_json::Value) {
        let status = response.status().as_u16();
        let body = ::axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (
            status,
            ::serde_json::from_slice::<::serde_json::Value>(&body).unwrap()["messages"].clone(),
        )
    }

    #[tokio::test]
    async fn a_payload_is_read_and_checked_before_the_handler() {
        let read = |body: &str| {
            read_payload(
                "thingCreated",
                Some("application/json; charset=utf-8"),
                ::axum::body::Body::from(body.to_string()),
            )
        };
        assert_eq!(
            read(r#"{"name": "lamp"}"#).await.unwrap(),
            json!({"name": "lamp"})
        );
        let (status, messages) = answer(read(r#"{"name": ""}"#).await.unwrap_err()).await;
        assert_eq!(status, 400);
        assert!(
            messages[0].as_str().unwrap().starts_with("/name: "),
            "{messages}"
        );
        let (_, messages) = answer(read("{name").await.unwrap_err()).await;
        assert!(
            messages[0]
                .as_str()
                .unwrap()
                .starts_with("payload is not JSON: "),
            "{messages}"
        );
        let (_, messages) = answer(
            read(&" ".repeat(RECEIVER_BODY_LIMIT + 1))
                .await
                .unwrap_err(),
        )
        .await;
        assert_eq!(
            messages,
            json!(["payload larger than 1048576 bytes, or cut short"])
        );
        // A notification the contract does not know is only read.
        let unknown = read_payload(
            "other",
            Some("application/json"),
            ::axum::body::Body::from("[]"),
        )
        .await
        .unwrap();
        assert_eq!(unknown, json!([]));
    }

    /// A receiver reads what the models read: a new value of a list, or a member the schema
    /// does not declare, reaches the handler, as the client takes them in a response; a
    /// union's tag it does not name, or a broken rule beside the new value, is still 400.
    #[tokio::test]
    async fn a_new_enum_value_or_member_reaches_the_handler_and_other_breaks_do_not() {
        let read = |body: ::serde_json::Value| {
            read_payload(
                "thingCreated",
                Some("application/json"),
                ::axum::body::Body::from(body.to_string()),
            )
        };
        for newer in [
            json!({"name": "lamp", "colour": "blue"}),
            json!({"name": "lamp", "size": {"w": 1, "h": 2}}),
            json!({"name": "lamp", "shape": {"kind": "square", "side": 2, "fill": "hatched"}}),
        ] {
            assert_eq!(read(newer.clone()).await.unwrap(), newer);
        }
        for (broken, pointer) in [
            (json!({"name": "", "colour": "blue"}), "/name: "),
            (json!({"name": "lamp", "colour": 3}), "/colour: "),
            (json!({"name": "lamp", "size": {"w": "1"}}), "/size/w: "),
            (
                json!({"name": "lamp", "shape": {"kind": "hexagon", "side": 2}}),
                "/shape: ",
            ),
            (
                json!({"name": "lamp", "shape": {"kind": "square", "fill": "hatched"}}),
                "/shape: ",
            ),
        ] {
            let (status, messages) = answer(read(broken.clone()).await.unwrap_err()).await;
            assert_eq!(status, 400, "{broken}");
            assert_eq!(
                messages.as_array().unwrap().len(),
                1,
                "{broken}: {messages}"
            );
            assert!(
                messages[0].as_str().unwrap().starts_with(pointer),
                "{broken}: {messages}"
            );
        }
    }

    /// A payload in another media type than its webhook documents never reaches the handler:
    /// JSON sent as text, or with no Content-Type. Any JSON type is JSON.
    #[tokio::test]
    async fn a_payload_in_another_media_type_is_refused() {
        let sent = |content_type: Option<&'static str>| {
            read_payload(
                "thingCreated",
                content_type,
                ::axum::body::Body::from(r#"{"name": "lamp"}"#),
            )
        };
        for refused in [
            Some("text/plain"),
            None,
            Some("application/x-www-form-urlencoded"),
        ] {
            let (status, messages) = answer(sent(refused).await.unwrap_err()).await;
            assert_eq!(status, 400, "{refused:?}");
            assert_eq!(
                messages,
                json!([format!(
                    "Content-Type must be application/json, not {}",
                    refused.unwrap_or("absent")
                )]),
            );
        }
        for taken in [
            Some("application/json"),
            Some("application/vnd.things+json"),
        ] {
            assert_eq!(
                sent(taken).await.unwrap(),
                json!({"name": "lamp"}),
                "{taken:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_body_to_a_notification_without_payload_is_refused() {
        assert!(refused_body(::axum::body::Body::empty()).await.is_none());
        assert!(
            refused_body(::axum::body::Body::from(" \n"))
                .await
                .is_none()
        );
        let (status, _) = answer(refused_body(::axum::body::Body::from("{}")).await.unwrap()).await;
        assert_eq!(status, 400);
    }

    #[test]
    fn a_reply_acknowledges_with_the_documented_status_and_body() {
        const OK: &[(u16, u16)] = &[(200, 200)];
        assert_eq!(
            acknowledged("thingCreated", 200, OK, r#"{"ok": true}"#),
            Ok(())
        );
        assert_eq!(
            acknowledged("thingCreated", 202, OK, r#"{"ok": true}"#),
            Err("expected status 200".to_string())
        );
        // Any documented success acknowledges (a `202` queued beside the `200`), each by its
        // own reply schema; a range by any of its codes.
        assert_eq!(
            acknowledged("thingCreated", 201, &[(200, 200), (202, 202)], ""),
            Err("expected status 200 or 202".to_string())
        );
        assert_eq!(
            acknowledged("thingCreated", 204, &[(200, 200), (204, 204)], ""),
            Ok(())
        );
        assert_eq!(acknowledged("other", 299, &[(200, 299)], ""), Ok(()));
        // An empty reply is null, which the reply schema refuses.
        assert!(acknowledged("thingCreated", 200, OK, "").is_err());
        assert!(acknowledged("thingCreated", 200, OK, r#"{"ok": false}"#).is_err());
        let err = acknowledged("thingCreated", 200, OK, "ok").unwrap_err();
        assert!(err.starts_with("reply is not JSON: "), "{err}");
        // A notification the contract does not know: the status is enough.
        assert_eq!(acknowledged("other", 200, OK, "ok"), Ok(()));
        // A documented status whose reply has no `content`: any body acknowledges.
        assert_eq!(
            acknowledged("thingCreated", 204, &[(204, 204)], "OK"),
            Ok(())
        );
    }

    #[tokio::test]
    async fn a_delivery_is_retried_until_acknowledged() {
        let (delivery, received) = deliver(
            vec![
                Reply::status(500),
                Reply::status(429).header("retry-after", "0"),
                Reply::status(200).json(json!({"ok": true})),
            ],
            policy(),
        )
        .await;
        assert_eq!(delivery, Delivery::Delivered { attempts: 3 });
        assert!(delivery.is_delivered());
        assert_eq!(received, 3);
    }

    /// A notification carries its Content-Type and no request for a compressed reply,
    /// though the crate's reqwest can read gzip for the client.
    #[tokio::test]
    async fn a_delivery_asks_for_no_compressed_reply() {
        let (delivery, received) =
            deliver_received(vec![Reply::status(200).json(json!({"ok": true}))], policy()).await;
        assert_eq!(delivery, Delivery::Delivered { attempts: 1 });
        let headers = &received[0].headers;
        assert!(headers.get("accept-encoding").is_none(), "{headers:?}");
        assert_eq!(headers["content-type"], "application/json");
    }

    #[tokio::test]
    async fn a_delivery_stops_on_a_4xx_or_a_reply_that_does_not_acknowledge() {
        let (delivery, received) =
            deliver(vec![Reply::status(410), Reply::status(200)], policy()).await;
        assert_eq!(
            delivery,
            Delivery::GaveUp {
                attempts: 1,
                reason: GaveUp::Rejected {
                    status: 410,
                    body: String::new()
                }
            }
        );
        assert!(!delivery.is_delivered());
        assert_eq!(received, 1);
        let (delivery, _) = deliver(
            vec![Reply::status(200).json(json!({"ok": false}))],
            policy(),
        )
        .await;
        match delivery {
            Delivery::GaveUp {
                attempts: 1,
                reason: GaveUp::NotAcknowledged { status: 200, .. },
            } => {}
            other => panic!("{other:?}"),
        }
    }

    /// A redirect is the receiver's answer: the payload is not delivered again elsewhere (a
    /// 307) nor turned into a GET (a 302), and the sender reports the 3xx it got.
    #[tokio::test]
    async fn a_redirect_is_the_receivers_answer_not_followed() {
        for status in [302, 307] {
            let server = Loopback::start(vec![Reply::status(200).json(json!({"ok": true}))]).await;
            let elsewhere = format!("{}/hooks/elsewhere", server.url);
            let (delivery, received) = deliver(
                vec![Reply::status(status).header("location", elsewhere.clone())],
                policy(),
            )
            .await;
            assert!(
                matches!(
                    &delivery,
                    Delivery::GaveUp {
                        attempts: 1,
                        reason: GaveUp::NotAcknowledged { status: got, .. },
                    } if *got == status
                ),
                "{status}: {delivery:?}"
            );
            assert_eq!(received, 1, "{status}");
            assert!(server.received().is_empty(), "{status}: followed");
        }
    }

    #[tokio::test]
    async fn a_delivery_gives_up_after_max_attempts_or_a_long_retry_after() {
        let (delivery, received) = deliver(vec![Reply::status(502)], policy()).await;
        assert_eq!(
            delivery,
            Delivery::GaveUp {
                attempts: 3,
                reason: GaveUp::Exhausted {
                    last: "answered 502".into()
                }
            }
        );
        assert_eq!(received, 3);
        let (delivery, received) = deliver(
            vec![
                Reply::status(503).header("retry-after", "60"),
                Reply::status(200),
            ],
            policy(),
        )
        .await;
        match delivery {
            Delivery::GaveUp {
                attempts: 1,
                reason: GaveUp::Exhausted { last },
            } => {
                assert!(
                    last.starts_with("answered 503 and asked (Retry-After) to wait 60s"),
                    "{last}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(received, 1);
    }

    #[tokio::test]
    async fn each_attempt_has_the_policy_time_out() {
        let policy = DeliveryPolicy {
            max_attempts: 2,
            timeout: Duration::from_millis(50),
            ..policy()
        };
        let (delivery, received) = deliver(
            vec![Reply::status(200).after(Duration::from_secs(2))],
            policy,
        )
        .await;
        assert_eq!(
            delivery,
            Delivery::GaveUp {
                attempts: 2,
                reason: GaveUp::Exhausted {
                    last: "timed out after 50ms".into()
                }
            }
        );
        assert_eq!(received, 2);
    }

    #[tokio::test]
    async fn https_needs_the_rustls_feature_unless_the_caller_brings_a_client() {
        let delivery = Sender::new(policy())
            .deliver(
                "thingCreated",
                ::http::Method::POST,
                "https://hooks.example.com/thing".into(),
                (Payload::Json(json!({})), Vec::new()),
                &[(200, 200)],
            )
            .await;
        match delivery {
            Delivery::GaveUp {
                attempts: 0,
                reason: GaveUp::Invalid(reason),
            } => {
                assert!(reason.contains("rustls"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(DeliveryPolicy::default().max_attempts, 5);
    }

    /// A form goes as its fields (a list its field repeated, a number its text, a null no
    /// field); no payload, no body.
    #[test]
    fn a_payload_is_encoded_as_its_webhook_documents() {
        let form =
            Payload::Form(json!({"To": "+1 555", "Tags": ["a", "b&c"], "Count": 2, "No": null}));
        let (media, bytes) = form.encoded().unwrap().unwrap();
        assert_eq!(media, "application/x-www-form-urlencoded");
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "To=%2B1+555&Tags=a&Tags=b%26c&Count=2"
        );
        let (media, bytes) = Payload::Json(json!({"a": 1})).encoded().unwrap().unwrap();
        assert_eq!(
            (media, bytes.as_slice()),
            ("application/json", &br#"{"a":1}"#[..])
        );
        assert_eq!(Payload::None.encoded().unwrap(), None);
    }
}
