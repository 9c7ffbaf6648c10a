//! `src/webhooks.rs` of the generated crate (feature `webhooks`): both ends of the
//! notifications the API sends. The receiver is a trait with one method per webhook and a
//! router that validates payloads; the sender delivers a payload with bounded retries and
//! reports the outcome.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::operations::{body_type, is_success};
use super::types::{doc_attrs, ident};
use super::{GeneratedFile, Part, rust_file_of_parts};
use crate::error::Result;
use crate::ir::{Api, MediaKind, StatusSpec, Webhook};

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
        // A delivery path is routed as the server's paths are: `/hooks/:id` (axum 0.7's
        // capture syntax, which 0.8 refuses with a panic when the router is built) becomes a
        // positional capture.
        let path = super::routes::route_text(&hook.operation.path);
        let method = format_ident!("{}", hook.operation.method.key());
        let handler = format_ident!("receive_{}", hook.operation.fn_name);
        routes.push(quote!(.route(#path, ::axum::routing::#method(#handler::<W>))));
        senders.push(sender_method(hook, &parts));
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
                pub fn receiver<W: Webhooks>(handler: W) -> ::axum::Router {
                    ::axum::Router::new()
                        #(#routes)*
                        .with_state(Arc::new(handler))
                }

                #(#handlers)*

                impl Sender {
                    #(#senders)*
                }
            }),
            Part::Printed(runtime_items),
        ],
    )
}

/// What each end needs to know about one webhook.
pub(crate) struct Parts {
    /// The payload's type; `None` for a notification without a body (a `GET` ping).
    payload: Option<TokenStream>,
    /// The payload goes as a form (`application/x-www-form-urlencoded`), not as JSON.
    form: bool,
    reply: Option<TokenStream>,
    success: u16,
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
        let reply = match success.and_then(|r| r.body) {
            Some(body) => Some(body_type(&body.ty)?),
            None => None,
        };
        Ok(Parts {
            payload,
            form,
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
    let payload = payload.as_ref().map(|ty| quote!(, payload: #ty));
    quote! {
        #docs
        fn #name(&self #payload) -> impl ::std::future::Future<Output = Result<#reply, HandlerError>> + Send;
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
    // A notification without a body is not read: a `GET` ping carries none.
    let (read, call) = match payload {
        Some(payload) => (
            quote! {
                let value = match read_payload(#hook_name, request.into_body()).await {
                    Ok(value) => value,
                    Err(rejection) => return rejection,
                };
                let payload: #payload = match crate::support::from_json_value(value) {
                    Ok(payload) => payload,
                    Err(err) => return invalid(vec![format!("payload: {err}")]),
                };
            },
            quote!(<W as Webhooks>::#name(&handler, payload)),
        ),
        None => (
            quote!(let _ = request;),
            quote!(<W as Webhooks>::#name(&handler)),
        ),
    };
    quote! {
        async fn #handler<W: Webhooks>(
            ::axum::extract::State(handler): ::axum::extract::State<Arc<W>>,
            request: ::axum::extract::Request,
        ) -> Response {
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
    let success = parts.success;
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
    let Some(payload) = payload else {
        return quote! {
            #docs
            pub async fn #name(&self, #address: &str) -> Delivery {
                let url = #url;
                self.deliver(#hook_name, ::http::Method::#method, url, Payload::None, #success).await
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
        pub async fn #name(&self, #address: &str, payload: &#payload) -> Delivery {
            let payload = match ::serde_json::to_value(payload) {
                Ok(payload) => payload,
                Err(err) => return Delivery::GaveUp { attempts: 0, reason: GaveUp::Invalid(err.to_string()) },
            };
            let url = #url;
            self.deliver(#hook_name, ::http::Method::#method, url, #encoding(payload), #success).await
        }
    }
}
