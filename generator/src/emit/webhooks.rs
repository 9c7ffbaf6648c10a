//! `src/webhooks.rs` of the generated crate (feature `webhooks`): both ends of the
//! notifications the API sends. The receiver is a trait with one method per webhook and a
//! router that validates payloads; the sender delivers a payload with bounded retries and
//! reports the outcome.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::operations::{body_type, is_success};
use super::types::{doc_attrs, ident};
use super::{GeneratedFile, rust_file};
use crate::error::Result;
use crate::ir::{Api, StatusSpec, Webhook};

/// The webhooks file.
pub fn emit(api: &Api) -> Result<GeneratedFile> {
    let mut methods = Vec::new();
    let mut handlers = Vec::new();
    let mut routes = Vec::new();
    let mut senders = Vec::new();
    for hook in &api.webhooks {
        let parts = Parts::of(hook)?;
        methods.push(receiver_method(hook, &parts));
        handlers.push(receiver_handler(hook, &parts));
        let path = &hook.operation.path;
        let method = format_ident!("{}", hook.operation.method.key());
        let handler = format_ident!("receive_{}", hook.operation.fn_name);
        routes.push(quote!(.route(#path, ::axum::routing::#method(#handler::<W>))));
        senders.push(sender_method(hook, &parts));
    }
    rust_file(
        "src/webhooks.rs",
        quote! {
            //! Notifications the API sends: [`Webhooks`] and [`receiver`] for the side that
            //! receives them, [`Sender`] for the side that delivers them.

            use ::std::sync::Arc;
            use ::std::time::Duration;

            use ::axum::response::{IntoResponse, Response};

            /// A receiver's handler failed; the receiver answers 500 so that the sender retries.
            #[derive(Debug, Clone, PartialEq, Eq)]
            pub struct HandlerError(pub String);

            impl ::std::fmt::Display for HandlerError {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str(&self.0)
                }
            }

            impl ::std::error::Error for HandlerError {}

            /// The receiving side: one method per notification. A returned reply is answered
            /// with the documented success status; an error with 500.
            pub trait Webhooks: Send + Sync + 'static {
                #(#methods)*
            }

            /// Largest payload the receiver accepts, in bytes.
            pub const RECEIVER_BODY_LIMIT: usize = 1024 * 1024;

            /// The receiving endpoints, at the paths the spec fixes for each notification. An
            /// invalid payload is answered 400 with `messages`; nothing reaches the handler.
            pub fn receiver<W: Webhooks>(handler: W) -> ::axum::Router {
                ::axum::Router::new()
                    #(#routes)*
                    .with_state(Arc::new(handler))
            }

            fn invalid(messages: Vec<String>) -> Response {
                (::http::StatusCode::BAD_REQUEST, ::axum::Json(::serde_json::json!({ "messages": messages }))).into_response()
            }

            async fn read_payload(hook: &str, body: ::axum::body::Body) -> Result<::serde_json::Value, Response> {
                let bytes = ::axum::body::to_bytes(body, RECEIVER_BODY_LIMIT)
                    .await
                    .map_err(|_| invalid(vec![format!("payload larger than {RECEIVER_BODY_LIMIT} bytes, or cut short")]))?;
                let value: ::serde_json::Value = ::serde_json::from_slice(&bytes)
                    .map_err(|err| invalid(vec![format!("payload is not JSON: {err}")]))?;
                if let Some(rules) = crate::validation::rules().webhook(hook) {
                    let messages = rules.check_body(&value);
                    if !messages.is_empty() {
                        return Err(invalid(messages));
                    }
                }
                Ok(value)
            }

            #(#handlers)*

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
                    Sender { http: ::reqwest::Client::new(), policy, own_client: true }
                }

                /// A sender using the caller's HTTP client (the policy's time-out still applies
                /// to each attempt; whether it speaks HTTPS depends on how it was built).
                pub fn with_client(http: ::reqwest::Client, policy: DeliveryPolicy) -> Sender {
                    Sender { http, policy, own_client: false }
                }

                /// Delivers one payload to `{base_url}{path}` and judges the reply.
                async fn deliver(&self, hook: &str, url: String, payload: ::serde_json::Value, success: u16) -> Delivery {
                    let retry = crate::retry::RetryPolicy {
                        max_attempts: self.policy.max_attempts.max(1),
                        base_delay: self.policy.base_delay,
                        max_delay: self.policy.max_delay,
                    };
                    if self.own_client
                        && let Some(reason) = crate::retry::unsupported_scheme(&url)
                    {
                        return Delivery::GaveUp { attempts: 0, reason: GaveUp::Invalid(reason) };
                    }
                    let body = match ::serde_json::to_vec(&payload) {
                        Ok(body) => body,
                        Err(err) => return Delivery::GaveUp { attempts: 0, reason: GaveUp::Invalid(err.to_string()) },
                    };
                    let mut attempts = 0;
                    loop {
                        attempts += 1;
                        let sent = self
                            .http
                            .post(&url)
                            .header(::http::header::CONTENT_TYPE, "application/json")
                            .timeout(self.policy.timeout)
                            .body(body.clone())
                            .send()
                            .await;
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
                                        return Delivery::GaveUp { attempts, reason: GaveUp::Rejected { status, body: text } };
                                    }
                                    Ok(text) => {
                                        return match acknowledged(hook, status, success, &text) {
                                            Ok(()) => Delivery::Delivered { attempts },
                                            Err(reason) => Delivery::GaveUp { attempts, reason: GaveUp::NotAcknowledged { status, body: text, reason } },
                                        };
                                    }
                                }
                            }
                            Err(err) if err.is_builder() => {
                                return Delivery::GaveUp { attempts, reason: GaveUp::Invalid(err.to_string()) };
                            }
                            Err(err) if err.is_timeout() => (format!("timed out after {:?}", self.policy.timeout), None),
                            Err(err) => (format!("could not connect or send: {err}"), None),
                        };
                        if attempts >= retry.max_attempts {
                            return Delivery::GaveUp { attempts, reason: GaveUp::Exhausted { last: failure } };
                        }
                        match retry.delay_after(attempts, asked) {
                            Some(wait) => ::tokio::time::sleep(wait).await,
                            None => {
                                let last = format!(
                                    "{failure} and asked (Retry-After) to wait {:?}, longer than the policy's max_delay of {:?}",
                                    asked.unwrap_or_default(),
                                    retry.max_delay,
                                );
                                return Delivery::GaveUp { attempts, reason: GaveUp::Exhausted { last } };
                            }
                        }
                    }
                }

                #(#senders)*
            }

            /// A reply acknowledges a notification when it has the documented success status
            /// and its body matches the documented reply schema.
            fn acknowledged(hook: &str, status: u16, success: u16, text: &str) -> Result<(), String> {
                if status != success {
                    return Err(format!("expected status {success}"));
                }
                let Some(rules) = crate::validation::rules().webhook(hook) else {
                    return Ok(());
                };
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
        },
    )
}

/// What each end needs to know about one webhook.
pub(crate) struct Parts {
    payload: TokenStream,
    reply: Option<TokenStream>,
    success: u16,
}

impl Parts {
    pub(crate) fn of(hook: &Webhook) -> Result<Parts> {
        let op = &hook.operation;
        let payload = match &op.request_body {
            Some(body) => body_type(&body.ty)?,
            None => quote!(::serde_json::Value),
        };
        let success = op
            .responses
            .iter()
            .filter(|r| is_success(r))
            .min_by_key(|r| r.status)
            .cloned();
        let success_code = match success.as_ref().map(|r| r.status) {
            Some(StatusSpec::Code(code)) => code,
            _ => 200,
        };
        let reply = match success.and_then(|r| r.body) {
            Some(body) => Some(body_type(&body.ty)?),
            None => None,
        };
        Ok(Parts {
            payload,
            reply,
            success: success_code,
        })
    }
}

pub(crate) fn receiver_method(hook: &Webhook, parts: &Parts) -> TokenStream {
    let name = ident(&hook.operation.fn_name);
    let payload = &parts.payload;
    let reply = parts.reply.clone().unwrap_or_else(|| quote!(()));
    let mut text = format!(
        "Notification `{}`, received as `{} {}`.",
        hook.name,
        hook.operation.method.as_http(),
        hook.operation.path
    );
    if let Some(docs) = &hook.operation.docs {
        text.push_str("\n\n");
        text.push_str(docs);
    }
    let docs = doc_attrs(Some(&text));
    quote! {
        #docs
        fn #name(&self, payload: #payload) -> impl ::std::future::Future<Output = Result<#reply, HandlerError>> + Send;
    }
}

fn receiver_handler(hook: &Webhook, parts: &Parts) -> TokenStream {
    let name = ident(&hook.operation.fn_name);
    let handler = format_ident!("receive_{}", hook.operation.fn_name);
    let hook_name = hook.name.as_str();
    let payload = &parts.payload;
    let success = parts.success;
    let success_status = super::operations::status_code(success);
    let reply = match parts.reply {
        Some(_) => quote!((status, ::axum::Json(reply)).into_response()),
        None => quote!({
            let () = reply;
            status.into_response()
        }),
    };
    quote! {
        async fn #handler<W: Webhooks>(
            ::axum::extract::State(handler): ::axum::extract::State<Arc<W>>,
            request: ::axum::extract::Request,
        ) -> Response {
            let value = match read_payload(#hook_name, request.into_body()).await {
                Ok(value) => value,
                Err(rejection) => return rejection,
            };
            let payload: #payload = match ::serde_json::from_value(value) {
                Ok(payload) => payload,
                Err(err) => return invalid(vec![format!("payload: {err}")]),
            };
            match handler.#name(payload).await {
                Ok(reply) => {
                    let status = #success_status;
                    #reply
                }
                Err(err) => (
                    ::http::StatusCode::INTERNAL_SERVER_ERROR,
                    ::axum::Json(::serde_json::json!({ "messages": [err.0] })),
                )
                    .into_response(),
            }
        }
    }
}

pub(crate) fn sender_method(hook: &Webhook, parts: &Parts) -> TokenStream {
    let name = ident(&hook.operation.fn_name);
    let hook_name = hook.name.as_str();
    let payload = &parts.payload;
    let path = hook.operation.path.as_str();
    let success = parts.success;
    let text = format!(
        "Delivers notification `{}` to `{{base_url}}{path}`: `base_url` is the receiver's own \
         base address, without a trailing slash.",
        hook.name
    );
    let docs = doc_attrs(Some(&text));
    quote! {
        #docs
        pub async fn #name(&self, base_url: &str, payload: &#payload) -> Delivery {
            let payload = match ::serde_json::to_value(payload) {
                Ok(payload) => payload,
                Err(err) => return Delivery::GaveUp { attempts: 0, reason: GaveUp::Invalid(err.to_string()) },
            };
            let url = format!("{}{}", base_url.trim_end_matches('/'), #path);
            self.deliver(#hook_name, url, payload, #success).await
        }
    }
}
