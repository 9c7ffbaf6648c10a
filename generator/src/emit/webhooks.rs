//! `src/webhooks.rs` of the generated crate (feature `webhooks`): both ends of the
//! notifications the API sends. The receiver is a trait with one method per webhook and a
//! router that validates payloads; the sender delivers a payload with bounded retries and
//! reports the outcome.

use indexmap::IndexMap;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::operations::{body_type, is_success};
use super::types::{doc_attrs, ident};
use super::{GeneratedFile, Part, rust_file_of_parts};
use crate::error::Result;
use crate::ir::{Api, MediaKind, Method, ParamLocation, StatusSpec, Webhook};

/// The webhooks file.
pub fn emit(api: &Api) -> Result<GeneratedFile> {
    let mut methods = Vec::new();
    let mut handlers = Vec::new();
    let mut senders = Vec::new();
    let mut header_types = Vec::new();
    for hook in &api.webhooks {
        let parts = Parts::of(hook)?;
        header_types.extend(headers_type(hook, &parts));
        methods.push(receiver_method(hook, &parts));
        handlers.push(receiver_handler(hook, &parts));
        senders.push(sender_method(hook, &parts));
    }
    let registered_doc = api
        .webhooks
        .iter()
        .any(delivered_to_registered_url)
        .then(|| {
            quote! {
                ///
                /// The notifications the spec gives no delivery path are each taken at `/{name}`
                /// and, all together, at `/`, each told there by the payload it keeps: a vendor
                /// delivers them all to the one URL it registered, under which you nest this
                /// router (`Router::new().nest("/hooks", receiver(handler))`).
            }
        });
    let mut routes = Vec::new();
    for (index, ((path, method), hooks)) in receiver_routes(api).iter().enumerate() {
        let method = format_ident!("{}", method.key());
        let target = match hooks.as_slice() {
            [hook] => format_ident!("receive_{}", hook.operation.fn_name),
            several => {
                let name = format_ident!("receive_at_{index}");
                let names = several.iter().map(|hook| hook.name.as_str());
                let last = several.len() - 1;
                let arms = several.iter().enumerate().map(|(at, hook)| {
                    let handler = format_ident!("receive_{}", hook.operation.fn_name);
                    let pattern = if at == last { quote!(_) } else { quote!(#at) };
                    quote!(#pattern => #handler::<W>(state, request).await,)
                });
                handlers.push(quote! {
                    /// The notifications delivered at one path with one method, each told by
                    /// the headers and payload it keeps.
                    async fn #name<W: Webhooks>(
                        state: ::axum::extract::State<Arc<W>>,
                        request: ::axum::extract::Request,
                    ) -> Response {
                        let (chosen, request) = match delivered_as(&[#(#names),*], request).await {
                            Ok(found) => found,
                            Err(rejection) => return rejection,
                        };
                        match chosen {
                            #(#arms)*
                        }
                    }
                });
                name
            }
        };
        routes.push(quote!(.route(#path, ::axum::routing::#method(#target::<W>))));
    }
    // The rest is the same for every API: `generator/runtime/webhooks.rs`.
    let super::splice::Fragment {
        uses: runtime_uses,
        items: runtime_items,
    } = super::splice::fragment("webhooks.rs");
    rust_file_of_parts(
        "src/webhooks.rs",
        vec![
            Part::Tokens(quote! {
                //! Notifications the API sends: [`Webhooks`] and [`receiver`] for the side that
                //! receives them, [`Sender`] for the side that delivers them.
                // Methods are named after notifications (`into_folder`), not after Rust's
                // conventions for `from_` and `into_`.
                #![allow(clippy::wrong_self_convention)]

                use ::std::sync::Arc;

                #runtime_uses

                /// The receiving side: one method per notification. A returned reply is answered
                /// with the documented success status; an error with 500.
                pub trait Webhooks: Send + Sync + 'static {
                    #(#methods)*
                }

                /// The receiving endpoints, at the paths the spec fixes for each notification. An
                /// invalid payload is answered 400 with `messages`; nothing reaches the handler.
                /// What the models read all the same is let through, as the client takes it in a
                /// response: a value a list of values does not name, a member the schema does not
                /// declare (specval reports both).
                #registered_doc
                pub fn receiver<W: Webhooks>(handler: W) -> ::axum::Router {
                    ::axum::Router::new()
                        #(#routes)*
                        .with_state(Arc::new(handler))
                }

                #(#header_types)*

                #(#handlers)*

                impl Sender {
                    #(#senders)*
                }
            }),
            Part::Printed(runtime_items),
        ],
    )
}

/// The receiver's routes: the notifications at each path and method, in document order.
/// Several there (event types delivered to one URL) share one handler that tells them apart,
/// since axum panics at a route given twice. A delivery path is routed as the server's paths
/// are: `/hooks/:id` (axum 0.7's capture syntax, which 0.8 refuses with a panic when the
/// router is built) becomes a positional capture.
///
/// The webhooks the document gives no path (3.1 `webhooks` without `x-delivery-path`) are
/// also taken together at `/`, where no documented path is: a vendor delivers all of them to
/// the one URL a merchant registers (Adyen, Listen Notes), which the merchant nests the
/// receiver under, so each is told by its payload there, as specval tells them.
pub(crate) fn receiver_routes(api: &Api) -> IndexMap<(String, Method), Vec<&Webhook>> {
    let mut at_route: IndexMap<(String, Method), Vec<&Webhook>> = IndexMap::new();
    for hook in &api.webhooks {
        let path = super::routes::route_text(&hook.operation.path);
        at_route
            .entry((path, hook.operation.method))
            .or_default()
            .push(hook);
    }
    let mut registered: IndexMap<(String, Method), Vec<&Webhook>> = IndexMap::new();
    for hook in api
        .webhooks
        .iter()
        .filter(|hook| delivered_to_registered_url(hook))
    {
        let key = ("/".to_string(), hook.operation.method);
        if !at_route.contains_key(&key) {
            registered.entry(key).or_default().push(hook);
        }
    }
    at_route.extend(registered);
    at_route
}

/// Whether a webhook goes to the URL a receiver registered, which the document does not
/// give: a 3.1 `webhooks` entry without `x-delivery-path` (a callback goes where its
/// request said).
fn delivered_to_registered_url(hook: &Webhook) -> bool {
    !hook.path_documented && !hook.callback
}

/// What each end needs to know about one webhook.
pub(crate) struct Parts {
    /// The payload's type; `None` for a notification without a body (a `GET` ping).
    payload: Option<TokenStream>,
    /// The payload goes as a form (`application/x-www-form-urlencoded`), not as JSON.
    form: bool,
    reply: Option<TokenStream>,
    success: u16,
    /// The statuses that acknowledge a delivery, each a range (`(202, 202)`; `2XX` is
    /// `(200, 299)`): every documented 2xx, else the success status.
    acknowledging: Vec<(u16, u16)>,
    /// The notification's documented header parameters (GitHub's `X-Hub-Signature-256`),
    /// and the type that holds them.
    headers: Vec<Header>,
    headers_type: proc_macro2::Ident,
}

/// One header parameter of a notification.
struct Header {
    wire: String,
    field: proc_macro2::Ident,
    required: bool,
    docs: Option<String>,
}

impl Parts {
    pub(crate) fn of(hook: &Webhook) -> Result<Parts> {
        let op = &hook.operation;
        let payload = match &op.request_body {
            Some(body) => Some(body_type(&body.ty)?),
            None => None,
        };
        let form = op
            .request_body
            .as_ref()
            .is_some_and(|body| body.kind == MediaKind::Form);
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
        // Every documented 2xx acknowledges a delivery (a `202` queued beside the `200`).
        let mut acknowledging: Vec<(u16, u16)> = op
            .responses
            .iter()
            .filter_map(|r| match r.status {
                StatusSpec::Code(code @ 200..=299) => Some((code, code)),
                StatusSpec::Range(2) => Some((200, 299)),
                _ => None,
            })
            .collect();
        if acknowledging.is_empty() {
            acknowledging.push((success_code, success_code));
        }
        let reply = match success.and_then(|r| r.body) {
            Some(body) => Some(body_type(&body.ty)?),
            None => None,
        };
        let headers = op
            .parameters
            .iter()
            .filter(|param| param.location == ParamLocation::Header)
            .map(|param| Header {
                wire: param.name.clone(),
                field: ident(&param.rust_name),
                required: param.required,
                docs: param.docs.clone(),
            })
            .collect();
        Ok(Parts {
            payload,
            form,
            reply,
            success: success_code,
            acknowledging,
            headers,
            headers_type: format_ident!("{}Headers", op.type_prefix),
        })
    }
}

/// The struct of a notification's header parameters, as text; none for a notification that
/// documents none.
fn headers_type(hook: &Webhook, parts: &Parts) -> Option<TokenStream> {
    if parts.headers.is_empty() {
        return None;
    }
    let name = &parts.headers_type;
    let fields = parts.headers.iter().map(|header| {
        let field = &header.field;
        let mut text = format!("Header `{}`.", header.wire);
        if let Some(docs) = &header.docs {
            text.push_str("\n\n");
            text.push_str(docs);
        }
        let docs = doc_attrs(Some(&text));
        if header.required {
            quote!(#docs pub #field: String,)
        } else {
            quote!(#docs pub #field: Option<String>,)
        }
    });
    let docs = doc_attrs(Some(&format!(
        "The header parameters of notification `{}`, as sent: the sender writes them, the \
         receiver checks them against the contract and hands them over (a signature to verify).",
        hook.name
    )));
    Some(quote! {
        #docs
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct #name {
            #(#fields)*
        }
    })
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
    let payload = payload.as_ref().map(|ty| quote!(, payload: #ty));
    let headers_type = &parts.headers_type;
    let headers = (!parts.headers.is_empty()).then(|| quote!(, headers: #headers_type));
    quote! {
        #docs
        fn #name(&self #payload #headers) -> impl ::std::future::Future<Output = Result<#reply, HandlerError>> + Send;
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
    // The documented headers first, checked by the contract, then held for the handler.
    let (check, headers_arg) = if parts.headers.is_empty() {
        (quote!(), quote!())
    } else {
        let headers_type = &parts.headers_type;
        let fields = parts.headers.iter().map(|header| {
            let field = &header.field;
            let wire = header.wire.as_str();
            if header.required {
                quote!(#field: header_text(request.headers(), #wire).unwrap_or_default(),)
            } else {
                quote!(#field: header_text(request.headers(), #wire),)
            }
        });
        (
            quote! {
                if let Some(rejection) = rejected_headers(#hook_name, request.headers()) {
                    return rejection;
                }
                let headers = #headers_type { #(#fields)* };
            },
            quote!(, headers),
        )
    };
    // A notification without a body is not read: a `GET` ping carries none.
    let (read, call) = match payload {
        Some(payload) => (
            quote! {
                let content_type = header_text(request.headers(), "content-type");
                let value = match read_payload(#hook_name, content_type.as_deref(), request.into_body()).await {
                    Ok(value) => value,
                    Err(rejection) => return rejection,
                };
                let payload: #payload = match crate::support::from_json_value(value) {
                    Ok(payload) => payload,
                    Err(err) => return invalid(vec![format!("payload: {err}")]),
                };
            },
            quote!(<W as Webhooks>::#name(&handler, payload #headers_arg)),
        ),
        None => (
            quote! {
                if let Some(rejection) = refused_body(request.into_body()).await {
                    return rejection;
                }
            },
            quote!(<W as Webhooks>::#name(&handler #headers_arg)),
        ),
    };
    quote! {
        async fn #handler<W: Webhooks>(
            ::axum::extract::State(handler): ::axum::extract::State<Arc<W>>,
            request: ::axum::extract::Request,
        ) -> Response {
            #check
            #read
            match #call.await {
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
    let acknowledging = parts
        .acknowledging
        .iter()
        .map(|(low, high)| quote!((#low, #high)));
    let acknowledging = quote!(&[#(#acknowledging),*]);
    let text = if hook.callback {
        format!(
            "Delivers callback `{}` to `url`, the URL the subscriber gave (the value of the \
             callback's runtime expression), exactly as given. The generated receiver takes it \
             at `{{its base address}}{path}`.",
            hook.name
        )
    } else {
        format!(
            "Delivers notification `{}` to `{{base_url}}{path}`: `base_url` is the receiver's \
             own base address, without a trailing slash.",
            hook.name
        )
    };
    let docs = doc_attrs(Some(&text));
    // A callback goes to the URL its subscriber gave; a webhook to its path under the
    // receiver's base address.
    let (address, url) = if hook.callback {
        (format_ident!("url"), quote!(url.to_string()))
    } else {
        let address = format_ident!("base_url");
        (
            address.clone(),
            quote!(format!("{}{}", #address.trim_end_matches('/'), #path)),
        )
    };
    let method = format_ident!("{}", hook.operation.method.as_http());
    // The documented headers, written as given (an optional one when given).
    let (headers_param, headers) = if parts.headers.is_empty() {
        (quote!(), quote!(Vec::new()))
    } else {
        let headers_type = &parts.headers_type;
        // The required ones in the list as it is made (clippy's `vec_init_then_push`), the
        // optional ones pushed when given.
        let required = parts.headers.iter().filter(|h| h.required).map(|header| {
            let field = &header.field;
            let wire = header.wire.as_str();
            quote!((#wire, headers.#field.clone()))
        });
        let optional: Vec<TokenStream> = parts
            .headers
            .iter()
            .filter(|h| !h.required)
            .map(|header| {
                let field = &header.field;
                let wire = header.wire.as_str();
                quote!(if let Some(value) = &headers.#field { sent.push((#wire, value.clone())); })
            })
            .collect();
        let list = if optional.is_empty() {
            quote!(vec![#(#required),*])
        } else {
            quote!({
                let mut sent: Vec<(&'static str, String)> = vec![#(#required),*];
                #(#optional)*
                sent
            })
        };
        (quote!(, headers: &#headers_type), list)
    };
    let Some(payload) = payload else {
        return quote! {
            #docs
            pub async fn #name(&self, #address: &str #headers_param) -> Delivery {
                let url = #url;
                self.deliver(#hook_name, ::http::Method::#method, url, (Payload::None, #headers), #acknowledging).await
            }
        };
    };
    let encoding = if parts.form {
        quote!(Payload::Form)
    } else {
        quote!(Payload::Json)
    };
    quote! {
        #docs
        pub async fn #name(&self, #address: &str, payload: &#payload #headers_param) -> Delivery {
            let payload = match ::serde_json::to_value(payload) {
                Ok(payload) => payload,
                Err(err) => return Delivery::GaveUp { attempts: 0, reason: GaveUp::Invalid(err.to_string()) },
            };
            let url = #url;
            self.deliver(#hook_name, ::http::Method::#method, url, (#encoding(payload), #headers), #acknowledging).await
        }
    }
}
