//! The generated crate's shared runtime: credentials (`src/credentials.rs`), the contract's
//! request and payload rules compiled once (`src/validation.rs`, for the server and the
//! webhook receiver), and retry with backoff and `Retry-After` plus the HTTPS check
//! (`src/retry.rs`, for the client and the webhook sender). Only `credentials.rs` depends on
//! the IR: it has one field per security scheme.

use proc_macro2::TokenStream;
use quote::quote;

use super::types::{doc_attrs, ident};
use super::{GeneratedFile, rust_file};
use crate::error::Result;
use crate::ir::{Api, ParamLocation, SecurityKind, SecurityScheme};

/// A credential the generated code sends and checks: a scheme it knows how to carry.
pub(crate) struct CredentialField<'a> {
    /// The scheme.
    pub scheme: &'a SecurityScheme,
    /// Where the value travels and under which name (`Authorization` for bearer tokens).
    pub location: ParamLocation,
    /// Header, query parameter or cookie name.
    pub name: String,
    /// Whether every secured operation asks for it, so the field is not an `Option`.
    pub required: bool,
}

/// The credentials of the API, in scheme order.
pub(crate) fn credential_fields(api: &Api) -> Vec<CredentialField<'_>> {
    let secured: Vec<&Vec<Vec<String>>> = api
        .operations
        .iter()
        .map(|op| &op.security)
        .filter(|security| !security.is_empty())
        .collect();
    api.security_schemes
        .iter()
        .filter_map(|scheme| {
            let (location, name) = match &scheme.kind {
                SecurityKind::ApiKey { name, location } => (*location, name.clone()),
                SecurityKind::Bearer => (ParamLocation::Header, "authorization".to_string()),
                SecurityKind::Basic | SecurityKind::Other(_) => return None,
            };
            let used = secured
                .iter()
                .any(|security| security.iter().any(|req| req.contains(&scheme.key)));
            if !used {
                return None;
            }
            let required = secured
                .iter()
                .all(|security| security.iter().all(|req| req.contains(&scheme.key)));
            Some(CredentialField {
                scheme,
                location,
                name,
                required,
            })
        })
        .collect()
}

/// `src/credentials.rs`.
pub fn credentials(api: &Api) -> Result<GeneratedFile> {
    let fields = credential_fields(api);
    let mut declarations = Vec::new();
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for field in &fields {
        let name = ident(&field.scheme.rust_name);
        let where_ = match (&field.scheme.kind, field.location) {
            (SecurityKind::Bearer, _) => "the `Authorization: Bearer` header".to_string(),
            (_, location) => format!("the `{}` {}", field.name, location_word(location)),
        };
        let mut text = field.scheme.docs.clone().unwrap_or_default();
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&format!(
            "Sent in {where_} (security scheme `{}`).",
            field.scheme.key
        ));
        let docs = doc_attrs(Some(&text));
        if field.required {
            declarations.push(quote! { #docs pub #name: Secret, });
            params.push(quote!(#name: impl Into<Secret>));
            inits.push(quote!(#name: #name.into()));
        } else {
            declarations.push(quote! { #docs pub #name: Option<Secret>, });
            inits.push(quote!(#name: None));
        }
    }
    rust_file(
        "src/credentials.rs",
        quote! {
            //! Credentials the API's security schemes ask for. Their values are never printed:
            //! `Debug` shows `[redacted]`.

            /// A secret value; `Debug` and `Display` never show it.
            #[derive(Clone, Default, PartialEq, Eq)]
            pub struct Secret(String);

            impl Secret {
                /// Wraps a secret value.
                pub fn new(value: impl Into<String>) -> Secret {
                    Secret(value.into())
                }

                /// The value, for sending it; never log it.
                pub fn expose(&self) -> &str {
                    &self.0
                }
            }

            impl ::std::fmt::Debug for Secret {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str("[redacted]")
                }
            }

            impl ::std::fmt::Display for Secret {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str("[redacted]")
                }
            }

            impl From<&str> for Secret {
                fn from(value: &str) -> Secret {
                    Secret(value.to_string())
                }
            }

            impl From<String> for Secret {
                fn from(value: String) -> Secret {
                    Secret(value)
                }
            }

            /// The credentials a caller presents.
            #[derive(Debug, Clone, Default, PartialEq, Eq)]
            pub struct Credentials {
                #(#declarations)*
            }

            impl Credentials {
                /// Credentials with every required value.
                pub fn new(#(#params),*) -> Credentials {
                    Credentials { #(#inits),* }
                }
            }
        },
    )
}

fn location_word(location: ParamLocation) -> &'static str {
    match location {
        ParamLocation::Header => "header",
        ParamLocation::Query => "query parameter",
        ParamLocation::Cookie => "cookie",
        ParamLocation::Path => "path parameter",
    }
}

/// `src/retry.rs`.
pub fn retry() -> Result<GeneratedFile> {
    rust_file(
        "src/retry.rs",
        quote! {
            //! What the client and the webhook sender share: bounded retries with exponential
            //! backoff and jitter, the waits a server asks for with `Retry-After`, and the
            //! check that an `https://` URL can be reached at all.

            use ::std::time::{Duration, SystemTime};

            /// How often and how patiently to retry.
            ///
            /// An answer 429 (Too Many Requests) or 503 (Service Unavailable) with a
            /// `Retry-After` header is retried no sooner than the server asked, nor sooner
            /// than the backoff; when the server asks for more than `max_delay`, it is not
            /// retried at all and its answer is returned at once (see
            /// [`delay_after`](RetryPolicy::delay_after)).
            #[derive(Debug, Clone, PartialEq, Eq)]
            pub struct RetryPolicy {
                /// Attempts in all, the first included; 1 means no retry.
                pub max_attempts: u32,
                /// Delay before the first retry, doubled for each further one.
                pub base_delay: Duration,
                /// The longest delay between two attempts, also the longest `Retry-After`
                /// waited for.
                pub max_delay: Duration,
            }

            impl Default for RetryPolicy {
                fn default() -> Self {
                    RetryPolicy {
                        max_attempts: 3,
                        base_delay: Duration::from_millis(100),
                        max_delay: Duration::from_secs(5),
                    }
                }
            }

            impl RetryPolicy {
                /// A single attempt, no retry.
                pub fn none() -> Self {
                    RetryPolicy { max_attempts: 1, ..RetryPolicy::default() }
                }

                /// The delay before retry number `retry` (1 for the first retry): exponential,
                /// capped, with jitter so that many clients do not retry in step.
                pub fn delay(&self, retry: u32) -> Duration {
                    let exponent = retry.saturating_sub(1).min(20);
                    let ceiling = self
                        .base_delay
                        .saturating_mul(1u32 << exponent)
                        .min(self.max_delay);
                    let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
                    // Between half the ceiling and the ceiling: spread out, never zero.
                    let half = millis / 2;
                    Duration::from_millis(half + ::fastrand::u64(0..=millis - half))
                }

                /// The delay before retry number `retry` after an answer whose `Retry-After`
                /// asked for `asked` ([`retry_after`]): the longer of `asked` and
                /// [`delay`](Self::delay). `None` when `asked` is longer than `max_delay`:
                /// the server will not take the request within the wait the policy allows,
                /// so retrying sooner would only be refused again, and its answer stands.
                pub fn delay_after(&self, retry: u32, asked: Option<Duration>) -> Option<Duration> {
                    match asked {
                        Some(asked) if asked > self.max_delay => None,
                        Some(asked) => Some(asked.max(self.delay(retry))),
                        None => Some(self.delay(retry)),
                    }
                }
            }

            /// The wait an answer's `Retry-After` header asks for, on a 429 or a 503 (the
            /// statuses RFC 6585 and RFC 9110 give it to); `None` on any other status,
            /// without the header, or when its value is neither form
            /// ([`parse_retry_after`]).
            pub fn retry_after(status: u16, headers: &::http::HeaderMap) -> Option<Duration> {
                if status != 429 && status != 503 {
                    return None;
                }
                let value = headers.get(::http::header::RETRY_AFTER)?.to_str().ok()?;
                parse_retry_after(value, SystemTime::now())
            }

            /// A `Retry-After` value read at `now`: delay-seconds (`120`) or an HTTP-date
            /// (`Sun, 06 Nov 1994 08:49:37 GMT`, or one of the two obsolete forms RFC 9110
            /// still asks recipients to read); a date already past is a wait of zero.
            /// `None` when the value is neither.
            pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
                let value = value.trim();
                if !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit()) {
                    // More digits than a u64 holds is still longer than any policy waits.
                    return Some(value.parse().map(Duration::from_secs).unwrap_or(Duration::MAX));
                }
                let date = ::httpdate::parse_http_date(value).ok()?;
                Some(date.duration_since(now).unwrap_or(Duration::ZERO))
            }

            /// Why an HTTP client built by this crate cannot reach `url`: HTTPS needs the
            /// crate's `rustls` feature. Without it, reqwest would speak plain HTTP to the
            /// TLS port and fail with an opaque "error sending request".
            pub(crate) fn unsupported_scheme(url: &str) -> Option<String> {
                let https = url
                    .trim_start()
                    .get(..8)
                    .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"));
                (https && !cfg!(feature = "rustls")).then(|| {
                    format!(
                        "an https:// URL needs the `rustls` feature of the {name} crate, which \
                         this build does not enable: add it to the features of {name} in \
                         Cargo.toml",
                        name = env!("CARGO_PKG_NAME"),
                    )
                })
            }
        },
    )
}

/// `src/validation.rs`.
pub fn validation() -> Result<GeneratedFile> {
    rust_file("src/validation.rs", validation_tokens())
}

fn validation_tokens() -> TokenStream {
    let manifest =
        super::support::runtime_module("manifest", include_str!("../../runtime/manifest.rs"));
    quote! {
        //! The contract's rules, compiled once from the embedded `schemas/`: what the server
        //! and the webhook receiver check before any handler runs. The same files are what
        //! `specval` checks recorded traffic against.

        use ::std::collections::HashMap;
        use ::std::sync::OnceLock;

        use ::jsonschema::Validator;
        use ::serde_json::Value;

        pub use self::manifest::{Location, ValueKind};

        #manifest

        /// A parameter's rule.
        pub struct ParameterRule {
            /// Its name.
            pub name: String,
            /// Where it travels.
            pub location: Location,
            /// Whether it must be present.
            pub required: bool,
            schema: Validator,
            kind: ValueKind,
        }

        /// The rules of one operation or webhook.
        pub struct OperationRules {
            /// Parameters, in the manifest's order.
            pub parameters: Vec<ParameterRule>,
            /// The request body's schema and whether the body is required.
            pub body: Option<(bool, Validator)>,
            /// Schemas of documented response bodies, by status key (`200`, `2XX`, `default`).
            pub responses: HashMap<String, Validator>,
        }

        /// Every operation's and webhook's rules.
        pub struct Rules {
            operations: HashMap<String, OperationRules>,
            webhooks: HashMap<String, OperationRules>,
        }

        /// The compiled contract, built on first use.
        pub fn rules() -> &'static Rules {
            static RULES: OnceLock<Rules> = OnceLock::new();
            RULES.get_or_init(|| match Rules::compile() {
                Ok(rules) => rules,
                // The contract is generated and tested with the crate: failing here means
                // the crate was edited by hand.
                Err(message) => panic!("the embedded contract does not compile: {message}"),
            })
        }

        impl Rules {
            fn compile() -> Result<Rules, String> {
                let manifest = manifest::Manifest::parse(crate::contract::manifest())
                    .map_err(|err| format!("manifest.json: {err}"))?;
                let mut rules = Rules { operations: HashMap::new(), webhooks: HashMap::new() };
                for entry in &manifest.operations {
                    rules.operations.insert(entry.key().to_string(), OperationRules::compile(entry)?);
                }
                for entry in &manifest.webhooks {
                    rules.webhooks.insert(entry.key().to_string(), OperationRules::compile(entry)?);
                }
                Ok(rules)
            }

            /// The rules of an operation, by operationId.
            pub fn operation(&self, operation_id: &str) -> Option<&OperationRules> {
                self.operations.get(operation_id)
            }

            /// The rules of a webhook, by its name under `webhooks`.
            pub fn webhook(&self, name: &str) -> Option<&OperationRules> {
                self.webhooks.get(name)
            }
        }

        fn compile_schema(schema: &Value) -> Result<Validator, String> {
            ::jsonschema::options()
                .with_draft(::jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .build(schema)
                .map_err(|err| err.to_string())
        }

        fn schema_file(path: &str) -> Result<Validator, String> {
            let text = crate::contract::file(path).ok_or_else(|| format!("{path} is not embedded"))?;
            let schema: Value = ::serde_json::from_str(text).map_err(|err| format!("{path}: {err}"))?;
            compile_schema(&schema).map_err(|err| format!("{path}: {err}"))
        }

        impl OperationRules {
            fn compile(entry: &manifest::Operation) -> Result<OperationRules, String> {
                let mut parameters = Vec::new();
                for param in &entry.parameters {
                    parameters.push(ParameterRule {
                        name: param.name.clone(),
                        location: param.location,
                        required: param.required,
                        schema: compile_schema(&param.schema)?,
                        kind: param.kind(),
                    });
                }
                let body = match &entry.request_body {
                    Some(body) => Some((body.required, schema_file(&body.schema)?)),
                    None => None,
                };
                let mut responses = HashMap::new();
                for (status, response) in &entry.responses {
                    if let Some(path) = &response.schema {
                        responses.insert(status.clone(), schema_file(path)?);
                    }
                }
                Ok(OperationRules { parameters, body, responses })
            }

            /// Every rule the parameters break; `value` looks a parameter up by location and
            /// name (header names case-insensitively).
            pub fn check_parameters<'a>(&self, value: impl Fn(Location, &str) -> Option<&'a str>) -> Vec<String> {
                let mut messages = Vec::new();
                for rule in &self.parameters {
                    let place = match rule.location {
                        Location::Path => "path parameter",
                        Location::Query => "query parameter",
                        Location::Header => "header",
                        Location::Cookie => "cookie",
                    };
                    match value(rule.location, &rule.name) {
                        None if rule.required => messages.push(format!("{place} {} is required", rule.name)),
                        None => {}
                        Some(text) => {
                            let Some(instance) = rule.kind.value(text) else {
                                messages.push(format!("{place} {}: `{text}` is not a valid {:?}", rule.name, rule.kind));
                                continue;
                            };
                            // `is_valid` stops at the first failure and builds no error:
                            // the common case, a valid value, costs the least.
                            if !rule.schema.is_valid(&instance) {
                                for error in rule.schema.iter_errors(&instance) {
                                    messages.push(format!("{place} {}: {error}", rule.name));
                                }
                            }
                        }
                    }
                }
                messages
            }

            /// Every rule a JSON request body breaks, each as `pointer: message`.
            pub fn check_body(&self, body: &Value) -> Vec<String> {
                match &self.body {
                    Some((_, validator)) => describe(validator, body),
                    None => Vec::new(),
                }
            }

            /// Whether the operation requires a request body.
            pub fn body_required(&self) -> bool {
                self.body.as_ref().is_some_and(|(required, _)| *required)
            }

            /// Every rule a response body breaks against the schema documented for `status`
            /// (an exact code first, then its class such as `2XX`, then `default`); `None`
            /// when no body schema is documented for it.
            pub fn check_response(&self, status: u16, body: &Value) -> Option<Vec<String>> {
                let validator = self
                    .responses
                    .get(&status.to_string())
                    .or_else(|| self.responses.get(&format!("{}XX", status / 100)))
                    .or_else(|| self.responses.get("default"))?;
                Some(describe(validator, body))
            }
        }

        /// Validation errors as `pointer: message`, the pointer `(root)` for the whole value.
        pub fn describe(validator: &Validator, instance: &Value) -> Vec<String> {
            // Collecting errors costs about twice a yes-or-no check; most values are valid.
            if validator.is_valid(instance) {
                return Vec::new();
            }
            validator
                .iter_errors(instance)
                .map(|error| {
                    let pointer = error.instance_path().to_string();
                    let pointer = if pointer.is_empty() { "(root)".to_string() } else { pointer };
                    format!("{pointer}: {error}")
                })
                .collect()
        }
    }
}
