//! `src/server.rs` of the generated crate (feature `server`): the API as a trait, one method
//! per operation with typed inputs and a per-operation response enum, and an axum router that
//! checks every request against the contract before the trait is called.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::operations::{ParamShape, body_type, param_shape, param_type, status_code};
use super::runtime::location_word;
use super::types::{doc_attrs, ident};
use super::{GeneratedFile, Part, rust_file_of_parts};
use crate::error::Result;
use crate::ir::error_envelope::{ErrorEnvelope, Messages};
use crate::ir::{
    Api, MediaKind, Operation, ParamLocation, Response, ResponseBody, SecurityKind, StatusSpec,
};
use crate::manifest::ListForm;

/// The server file; `crate_ident` is the library name used in the doc example, which rustdoc
/// compiles when `doc_test` (a crate of its own) and only shows otherwise (code included in
/// another crate, which may not have what the example uses, or not at its root).
pub fn emit(api: &Api, crate_ident: &str, doc_test: bool) -> Result<GeneratedFile> {
    let mut items = Vec::new();
    let mut methods = Vec::new();
    let mut handlers = Vec::new();
    let base = api.base_path();
    for op in &api.operations {
        let gate = super::tag_features::operation(api, op);
        items.push(super::tag_features::gate(params_struct(api, op), &gate)?);
        items.push(super::tag_features::gate(response_enum(op)?, &gate)?);
        let method = trait_method(op)?;
        methods.push(quote!(#gate #method));
        handlers.push(super::tag_features::gate(handler(api, op, &base)?, &gate)?);
    }
    let (build_router, dispatchers) = super::routes::router(api, &base)?;
    let spanning = super::routes::spanning(api, &base)?;
    let fallbacks = match &spanning {
        Some(_) => quote! {
            .fallback(fallback_::<A>)
            .method_not_allowed_fallback(method_fallback_::<A>)
        },
        None => quote! {
            .fallback(not_found)
            .method_not_allowed_fallback(method_not_allowed)
        },
    };
    let example = doc_example(api, crate_ident, doc_test)?;
    let credentials_fn = credentials_fn(api);
    let error_response = error_response(api);
    // The rest is the same for every API: `generator/runtime/server.rs` (with `path.rs`).
    let super::splice::Fragment {
        uses: runtime_uses,
        items: runtime_items,
    } = super::splice::fragment("server.rs");
    let rejections = match api.error_envelope() {
        ErrorEnvelope::Documented { .. }
        | ErrorEnvelope::Nested { .. }
        | ErrorEnvelope::WithProblemMembers { .. } => {
            "Every rejection uses the API's documented error body."
        }
        ErrorEnvelope::ProblemDetails => {
            "The API documents no error body the server can fill, so rejections are RFC 9457 \
             problem details (`application/problem+json`)."
        }
    };
    rust_file_of_parts(
        "src/server.rs",
        vec![
            Part::Tokens(quote! {
                //! The server side: implement [`Api`] and serve [`router`].
                //!
                //! Before a method of [`Api`] runs, the router has checked the request against the
                //! contract (`schemas/`): credentials (else 401), parameters, headers and the body
                //! (else 400 listing every violation).
                #![doc = #rejections]
                // A response is built once and moved into the reply; boxing would not pay.
                #![allow(clippy::large_enum_variant, clippy::result_large_err)]
                // Methods are named after operations (`from_template`, `into_folder`), not after
                // Rust's conventions for `from_` and `into_`.
                #![allow(clippy::wrong_self_convention)]

                use ::std::sync::Arc;

                use crate::credentials::Credentials;
                #runtime_uses

                #(#items)*

                /// The API, one method per operation. Implementations return the operation's
                /// response enum; the router turns it into the documented status and body.
                ///
                #example
                pub trait Api: Send + Sync + 'static {
                    #(#methods)*
                }

                /// Every operation under its path (with the servers' base path), with the default
                /// [`ServerConfig`].
                pub fn router<A: Api>(api: A) -> ::axum::Router {
                    router_with(api, ServerConfig::default())
                }

                /// Every operation under its path (with the servers' base path).
                pub fn router_with<A: Api>(api: A, config: ServerConfig) -> ::axum::Router {
                    let shared = Arc::new(Shared { api, config });
                    #build_router
                        #fallbacks
                        .with_state(shared)
                }

                #(#handlers)*

                #(#dispatchers)*

                #spanning

                #credentials_fn

                #error_response
            }),
            Part::Printed(runtime_items),
        ],
    )
}

pub(crate) fn params_struct(api: &Api, op: &Operation) -> TokenStream {
    let name = format_ident!("{}Params", op.type_prefix);
    let text = format!("Inputs of `{}` other than its body.", op.id);
    let mut fields = Vec::new();
    if !op.security.is_empty() {
        fields.push(quote! {
            /// The caller's credentials, already checked to be present.
            pub credentials: Credentials,
        });
    }
    for param in &op.parameters {
        let field = ident(&param.rust_name);
        let ty = param_type(api, param);
        let docs = doc_attrs(Some(&format!(
            "{} {} `{}`.{}",
            if param.required {
                "Required"
            } else {
                "Optional"
            },
            location_word(param.location),
            param.name,
            param
                .docs
                .as_deref()
                .map(|d| format!("\n\n{d}"))
                .unwrap_or_default()
        )));
        if param.required {
            fields.push(quote! { #docs pub #field: #ty, });
        } else {
            fields.push(quote! { #docs pub #field: Option<#ty>, });
        }
    }
    // `limit_or_default()` for an optional parameter whose schema has a default, as a model's
    // field has: the handler gets what was sent, and the default the document gives when not.
    let accessors: Vec<TokenStream> = op
        .parameters
        .iter()
        .filter(|param| matches!(param_shape(api, param), ParamShape::One(_)))
        .filter_map(|param| {
            let field = crate::ir::Field {
                rust_name: param.rust_name.clone(),
                wire_name: param.name.clone(),
                ty: param.ty.clone(),
                required: param.required,
                nullable: false,
                docs: None,
                default: param.schema.get("default").cloned(),
                boxed: false,
            };
            super::models::default_accessor_in(api, &field, &quote!(crate::models::))
        })
        .collect();
    let accessors = (!accessors.is_empty()).then(|| {
        quote! {
            impl #name {
                #(#accessors)*
            }
        }
    });
    quote! {
        #[doc = #text]
        #[derive(Debug, Clone)]
        pub struct #name {
            #(#fields)*
        }

        #accessors
    }
}

/// The type a handler answers a response body with, and how the answer is made of the
/// status (an expression) and `body`: JSON of the schema's type; the text of a text body and
/// the bytes of any other, each with its documented media type.
fn answer_body(
    response: &ResponseBody,
) -> Result<(TokenStream, impl Fn(TokenStream) -> TokenStream)> {
    let kind = response.kind;
    let media = response.answered_as().to_string();
    let ty = match kind {
        MediaKind::Json => body_type(&response.ty)?,
        MediaKind::Text | MediaKind::Form => quote!(String),
        MediaKind::Binary => quote!(::axum::body::Bytes),
    };
    // JSON goes in the JSON media type documented for it (`application/vnd.api+json`); a
    // range or a type that is not JSON's (springdoc's `*/*`) as `application/json`.
    let json_media = Some(response.content_type.as_str())
        .filter(|media| *media != "application/json" && !media.contains('*'))
        .filter(|media| crate::manifest::is_json(&crate::manifest::essence(media)))
        // What `HeaderValue::from_static` takes: visible ASCII and spaces.
        .filter(|media| {
            media
                .bytes()
                .all(|byte| byte == b' ' || byte.is_ascii_graphic())
        })
        .map(str::to_string);
    let answer = move |status: TokenStream| match (kind, &json_media) {
        (MediaKind::Json, None) => quote!(json_response(#status, &body)),
        (MediaKind::Json, Some(media)) => quote!(json_response_as(
            #status,
            ::http::HeaderValue::from_static(#media),
            &body
        )),
        _ => quote!(raw_response(#status, #media, body)),
    };
    Ok((ty, answer))
}

pub(crate) fn response_enum(op: &Operation) -> Result<TokenStream> {
    let name = format_ident!("{}Response", op.type_prefix);
    let text = format!("Every documented response of `{}`.", op.id);
    let mut variants = Vec::new();
    let mut arms = Vec::new();
    let mut header_types = Vec::new();
    for response in &op.responses {
        let variant = ident(&response.variant);
        let docs = doc_attrs(Some(&format!(
            "`{}`{}",
            response.status.key(),
            response
                .docs
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        )));
        let body = response.body.as_ref().map(|b| answer_body(b)).transpose()?;
        let (mut fields, mut bindings, answer) = match (response.status, body) {
            (StatusSpec::Code(code), Some((body, answer))) => {
                (vec![body], vec![quote!(body)], answer(status_code(code)))
            }
            (StatusSpec::Code(code), None) => {
                let status = status_code(code);
                (vec![], vec![], quote!(#status.into_response()))
            }
            (_, Some((body, answer))) => (
                vec![quote!(::http::StatusCode), body],
                vec![quote!(status), quote!(body)],
                answer(quote!(status)),
            ),
            (_, None) => (
                vec![quote!(::http::StatusCode)],
                vec![quote!(status)],
                quote!(status.into_response()),
            ),
        };
        // A response that documents headers carries them last, as its headers struct, set
        // on the answer its status and body make.
        let answer = match headers_struct(op, response, &mut header_types) {
            Some(ty) => {
                fields.push(ty);
                bindings.push(quote!(headers));
                quote!(headers.applied_to(#answer))
            }
            None => answer,
        };
        let (fields, bindings) = if fields.is_empty() {
            (quote!(), quote!())
        } else {
            (quote!((#(#fields),*)), quote!((#(#bindings),*)))
        };
        variants.push(quote! { #docs #variant #fields, });
        arms.push(quote! { #name::#variant #bindings => #answer, });
    }
    if super::operations::documents_no_success(op) {
        let docs = doc_attrs(Some(
            "A success the document does not show (it documents errors alone): its status \
             (a 2xx), without a body.",
        ));
        variants.push(quote! { #docs UndocumentedSuccess(::http::StatusCode), });
        arms.push(quote! { #name::UndocumentedSuccess(status) => status.into_response(), });
    }
    Ok(quote! {
        #[doc = #text]
        #[derive(Debug, Clone)]
        pub enum #name {
            #(#variants)*
        }

        #(#header_types)*

        impl ::axum::response::IntoResponse for #name {
            fn into_response(self) -> Response {
                match self {
                    #(#arms)*
                }
            }
        }
    })
}

/// The struct of the headers `response` documents, pushed to `items` with how it is set on
/// an answer; its name, or `None` when the response documents none a handler may set.
fn headers_struct(
    op: &Operation,
    response: &Response,
    items: &mut Vec<TokenStream>,
) -> Option<TokenStream> {
    let super::operations::HeadersStruct {
        name,
        headers,
        fields,
    } = super::operations::headers_struct(response)?;
    // Each header set on what the one before made: `with_header(with_header(response, …), …)`.
    let set = headers.iter().fold(quote!(response), |response, header| {
        let field = ident(&header.field);
        let wire = header.name.to_ascii_lowercase();
        let value = if header.required {
            quote!(Some(&self.#field))
        } else {
            quote!(self.#field.as_deref())
        };
        quote!(with_header(#response, #wire, #value))
    });
    // Required headers have no default: a handler names each one.
    let default = headers
        .iter()
        .all(|header| !header.required)
        .then(|| quote!(Default,));
    let docs = doc_attrs(Some(&format!(
        "The headers response `{}` of `{}` documents, as the text each goes as. A value HTTP \
         cannot carry (a line break) makes the answer a 500.",
        response.status.key(),
        op.id
    )));
    items.push(quote! {
        #docs
        #[derive(Debug, Clone, #default PartialEq, Eq)]
        pub struct #name {
            #(#fields)*
        }

        impl #name {
            fn applied_to(self, response: Response) -> Response {
                #set
            }
        }
    });
    Some(quote!(#name))
}

pub(crate) fn trait_method(op: &Operation) -> Result<TokenStream> {
    let name = ident(&op.fn_name);
    let params = format_ident!("{}Params", op.type_prefix);
    let response = format_ident!("{}Response", op.type_prefix);
    let mut text = format!("`{} {}`", op.method.as_http(), op.path);
    if let Some(docs) = &op.docs {
        text.push_str("\n\n");
        text.push_str(docs);
    }
    let docs = doc_attrs(Some(&text));
    let body = match &op.request_body {
        Some(body) => {
            let ty = request_body_type(body)?;
            if body.required {
                quote!(, body: #ty)
            } else {
                quote!(, body: Option<#ty>)
            }
        }
        None => quote!(),
    };
    Ok(quote! {
        #docs
        fn #name(&self, params: #params #body) -> impl ::std::future::Future<Output = #response> + Send;
    })
}

fn request_body_type(body: &crate::ir::RequestBody) -> Result<TokenStream> {
    if is_json(&body.content_type) {
        body_type(&body.ty)
    } else {
        Ok(quote!(::axum::body::Bytes))
    }
}

fn is_json(content_type: &str) -> bool {
    crate::manifest::is_json(&crate::manifest::essence(content_type))
}

fn handler(api: &Api, op: &Operation, base: &str) -> Result<TokenStream> {
    let handler_name = format_ident!("handle_{}", op.fn_name);
    let method = ident(&op.fn_name);
    let id = op.id.as_str();
    let template = format!("{base}{}", op.matching_template());
    let params_type = format_ident!("{}Params", op.type_prefix);
    let requirements = op.security.iter().map(|requirement| {
        let pairs = requirement.iter().filter_map(|key| {
            let field = api.credentials.iter().find(|f| &f.scheme.key == key)?;
            let location = location_tokens(field.location);
            let name = wire_name(field);
            // OAuth 2 and OpenID Connect tokens are taken in any scheme, as specval does.
            let scheme = match &field.scheme.kind {
                SecurityKind::Basic => quote!(Some("basic")),
                SecurityKind::Http(word) => {
                    let word = word.to_ascii_lowercase();
                    quote!(Some(#word))
                }
                SecurityKind::Bearer => quote!(Some("bearer")),
                _ => quote!(None),
            };
            Some(quote!((#location, #name, #scheme)))
        });
        quote!(&[#(#pairs),*])
    });
    let mut bindings = Vec::new();
    let mut names = Vec::new();
    for param in &op.parameters {
        let field = ident(&param.rust_name);
        let location = location_tokens(param.location);
        let name = &param.name;
        let read = match (param_shape(api, param), param.required) {
            (ParamShape::One(ty), true) => quote!(required::<#ty>(#location, #name)),
            (ParamShape::One(ty), false) => quote!(optional::<#ty>(#location, #name)),
            (ParamShape::Object(ty), true) => quote!(required_object::<#ty>(#name)),
            (ParamShape::Object(ty), false) => quote!(optional_object::<#ty>(#name)),
            (ParamShape::ObjectOrScalar(ty), true) => quote!(required_union::<#ty>(#name)),
            (ParamShape::ObjectOrScalar(ty), false) => quote!(optional_union::<#ty>(#name)),
            (ParamShape::Json(ty), true) => quote!(required_json::<#ty>(#location, #name)),
            (ParamShape::Json(ty), false) => quote!(optional_json::<#ty>(#location, #name)),
            (ParamShape::List(item), required) => {
                let form = list_form_tokens(param.list_form());
                if required {
                    quote!(required_list::<#item>(#location, #name, #form))
                } else {
                    quote!(optional_list::<#item>(#location, #name, #form))
                }
            }
        };
        bindings.push(quote!(let #field = incoming_.#read;));
        names.push(field);
    }
    // The schemes the operation names: a token in `Authorization` is handed to those alone
    // (it does not say which scheme issued it).
    let mut schemes: Vec<&str> = op.security.iter().flatten().map(String::as_str).collect();
    schemes.sort_unstable();
    schemes.dedup();
    let credentials = (!op.security.is_empty())
        .then(|| quote!(credentials: credentials(&incoming_, &[#(#schemes),*]),));
    let (body_binding, body_arg) = match &op.request_body {
        Some(body) => {
            let ty = request_body_type(body)?;
            let read = match (is_json(&body.content_type), body.required) {
                (true, true) => quote!(incoming_.json_body::<#ty>()),
                (true, false) => quote!(incoming_.optional_json_body::<#ty>()),
                (false, true) => quote!(incoming_.raw_body()),
                (false, false) => quote!(incoming_.optional_raw_body()),
            };
            (Some(quote!(let body_ = #read;)), Some(quote!(, body_)))
        }
        None => (None, None),
    };
    let body_pattern = body_arg.as_ref().map(|_| quote!(Some(body_),));
    let body_value = body_arg.as_ref().map(|_| quote!(body_,));
    // Nothing typed to read (no parameters, no body): nothing can fail after validation.
    let unpack = (!names.is_empty() || body_arg.is_some()).then(|| {
        quote! {
            let (#(Some(#names),)* #body_pattern) = (#(#names,)* #body_value) else {
                return incoming_.reject();
            };
        }
    });
    Ok(quote! {
        async fn #handler_name<A: Api>(
            // Locals end in `_`, which no parameter name does: each parameter is bound under
            // its own name below.
            ::axum::extract::State(shared_): ::axum::extract::State<Arc<Shared<A>>>,
            request_: ::axum::extract::Request,
        ) -> Response {
            let mut incoming_ = match Incoming::read(#id, #template, request_, &[#(#requirements),*], shared_.config.body_limit).await {
                Ok(incoming) => incoming,
                Err(rejection) => return rejection,
            };
            if let Err(rejection) = incoming_.validate() {
                return rejection;
            }
            #(#bindings)*
            #body_binding
            #unpack
            let params_ = #params_type {
                #credentials
                #(#names,)*
            };
            // Called through the trait: a method named `into` or `clone` would otherwise be
            // the blanket trait's.
            <A as Api>::#method(&shared_.api, params_ #body_arg).await.into_response()
        }
    })
}

/// A list's form as the runtime's `ListForm`, named in full: most servers have no list
/// parameter, and an import of it would be unused.
fn list_form_tokens(form: ListForm) -> TokenStream {
    match form {
        ListForm::Repeated => quote!(crate::validation::ListForm::Repeated),
        ListForm::Delimited(delimiter) => {
            quote!(crate::validation::ListForm::Delimited(#delimiter))
        }
    }
}

fn location_tokens(location: ParamLocation) -> TokenStream {
    match location {
        ParamLocation::Path => quote!(Location::Path),
        ParamLocation::Query => quote!(Location::Query),
        ParamLocation::Header => quote!(Location::Header),
        ParamLocation::Cookie => quote!(Location::Cookie),
    }
}

/// The name a credential is looked up by: a header's in lowercase (header names are not
/// case-sensitive, and `http` keeps them lowercase), a query parameter's or a cookie's as the
/// spec writes it (`?apiKey=`, `JSESSIONID`: their names are case-sensitive).
fn wire_name(field: &crate::ir::Credential) -> String {
    match field.location {
        ParamLocation::Header => field.name.to_ascii_lowercase(),
        _ => field.name.clone(),
    }
}

/// Reads the credentials a request presented into [`Credentials`].
fn credentials_fn(api: &Api) -> TokenStream {
    let inits = api.credentials.iter().map(|field| {
        let name = ident(&field.scheme.rust_name);
        let location = location_tokens(field.location);
        let wire = wire_name(field);
        let key = field.scheme.key.as_str();
        let read = if matches!(field.scheme.kind, crate::ir::SecurityKind::Other(_))
            && field.scheme.kind.is_bearer_token()
        {
            // An OAuth 2 or OpenID Connect token is accepted in any scheme, as specval accepts
            // it; the handler gets what was presented, not `None` beside a passed check.
            quote!(
                incoming
                    .bearer_token()
                    .or_else(|| incoming.token_in_any_scheme())
                    .filter(|_| schemes.contains(&#key))
                    .map(crate::credentials::Secret::from)
            )
        } else if field.scheme.kind.is_bearer_token() {
            quote!(
                incoming
                    .bearer_token()
                    .filter(|_| schemes.contains(&#key))
                    .map(crate::credentials::Secret::from)
            )
        } else if let crate::ir::SecurityKind::Http(word) = &field.scheme.kind {
            quote!(
                incoming
                    .authorization(#word)
                    .filter(|_| schemes.contains(&#key))
                    .map(crate::credentials::Secret::from)
            )
        } else if field.scheme.kind == crate::ir::SecurityKind::Basic {
            quote!(incoming.basic_auth().filter(|_| schemes.contains(&#key)).map(|(username, password)| {
                crate::credentials::BasicAuth::new(username, password)
            }))
        } else {
            quote!(incoming.value(#location, #wire).map(crate::credentials::Secret::from))
        };
        if field.required {
            quote!(#name: #read.unwrap_or_default(),)
        } else {
            quote!(#name: #read,)
        }
    });
    quote! {
        /// The credentials the request presented; `Authorization`'s only to the `schemes` the
        /// operation names.
        #[allow(dead_code, unused_variables)]
        fn credentials(incoming: &Incoming, schemes: &[&str]) -> Credentials {
            Credentials { #(#inits)* }
        }
    }
}

/// A rustdoc example implementing the whole trait, printed by prettyplease so it reads like
/// hand-written code. It is compiled (not run) by `cargo test --doc --features server`.
fn doc_example(api: &Api, crate_ident: &str, doc_test: bool) -> Result<TokenStream> {
    let krate = ident(crate_ident);
    let mut methods = Vec::new();
    for op in &api.operations {
        let name = ident(&op.fn_name);
        let params = format_ident!("{}Params", op.type_prefix);
        let response = format_ident!("{}Response", op.type_prefix);
        let body = match &op.request_body {
            Some(body) => {
                let ty = if is_json(&body.content_type) {
                    // Written as another crate would: a doc test is compiled as one.
                    super::types::rust_type_at(
                        &body.ty,
                        &quote!(#krate::models::),
                        &quote!(#krate::support::),
                    )?
                } else {
                    quote!(axum::body::Bytes)
                };
                if body.required {
                    quote!(, _body: #ty)
                } else {
                    quote!(, _body: Option<#ty>)
                }
            }
            None => quote!(),
        };
        let message = format!("{}: look it up, store it, answer", op.fn_name);
        methods.push(quote! {
            async fn #name(&self, _params: #params #body) -> #response {
                todo!(#message)
            }
        });
    }
    let example: syn::File = syn::parse2(quote! {
        use #krate::server::*;

        struct MyService;

        impl Api for MyService {
            #(#methods)*
        }

        async fn serve() -> std::io::Result<()> {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
            axum::serve(listener, router(MyService)).await
        }
    })
    .map_err(|err| crate::error::Error::Emit {
        file: "src/server.rs".into(),
        message: format!("doc example does not parse: {err}"),
    })?;
    let text = prettyplease::unparse(&example);
    let fence = if doc_test { " ```no_run" } else { " ```ignore" };
    let mut lines = vec![fence.to_string()];
    lines.extend(text.lines().map(|line| {
        if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        }
    }));
    lines.push(" ```".to_string());
    Ok(quote!(#(#[doc = #lines])*))
}

/// `error_response`, which words every rejection: as the API documents its errors, else as
/// RFC 9457 problem details. The body is built by the one rule of the manifest's
/// `ErrorEnvelope` (`envelope_response`, in `generator/runtime/server.rs`), which specval's
/// tower layer follows too; the envelope is written here, with docs that say its members.
fn error_response(api: &Api) -> TokenStream {
    let envelope = api.error_envelope();
    let docs = match &envelope {
        ErrorEnvelope::ProblemDetails => vec![
            "The error body of a rejected request: RFC 9457 problem details, the API documenting"
                .to_string(),
            "no error body the server can fill. The code and each message are extension members"
                .to_string(),
            "(`code`, `errors`).".to_string(),
        ],
        documented => vec![
            "The error body of a rejected request, as the API documents its errors:".to_string(),
            format!("{}.", envelope_members(documented)),
        ],
    };
    let envelope = envelope_tokens(&envelope);
    quote! {
        #(#[doc = #docs])*
        pub fn error_response(status: ::http::StatusCode, code: &str, messages: Vec<String>) -> Response {
            envelope_response(&#envelope, status, code, &messages)
        }
    }
}

/// The members a documented envelope fills, for the docs: `` `code`, `message` ``.
fn envelope_members(envelope: &ErrorEnvelope) -> String {
    match envelope {
        ErrorEnvelope::ProblemDetails => "problem details".to_string(),
        ErrorEnvelope::Nested { member, inner } => {
            format!("`{member}` (an object: {})", envelope_members(inner))
        }
        ErrorEnvelope::WithProblemMembers { members, inner } => {
            let problem: Vec<String> = members.iter().map(|m| format!("`{m}`")).collect();
            format!("{}, {}", problem.join(", "), envelope_members(inner))
        }
        ErrorEnvelope::Documented {
            code,
            messages,
            status,
        } => {
            let mut described = Vec::new();
            match (code, messages) {
                (Some(code), Some(Messages::AfterCode)) => {
                    described.push(format!("`{code}` (the code, then the reasons)"));
                }
                (Some(code), _) => described.push(format!("`{code}`")),
                (None, _) => {}
            }
            if let Some(messages) = messages {
                described.extend(messages_described(messages));
            }
            if let Some(status) = status {
                described.push(format!("`{status}`"));
            }
            described.join(", ")
        }
    }
}

/// The expression that builds `envelope` in the generated crate.
/// Where the messages go, for [`envelope_members`].
fn messages_described(messages: &Messages) -> Vec<String> {
    match messages {
        Messages::List(wire) | Messages::Text(wire) => vec![format!("`{wire}`")],
        Messages::Items {
            list,
            text,
            code: Some(member),
        } => vec![format!(
            "`{list}` (an object per reason: `{member}`, `{text}`)"
        )],
        Messages::Items {
            list,
            text,
            code: None,
        } => vec![format!("`{list}` (an object per reason: `{text}`)")],
        Messages::Both { text, list } => {
            let mut described = vec![format!("`{text}` (the reasons joined)")];
            described.extend(messages_described(list));
            described
        }
        Messages::AfterCode => Vec::new(),
    }
}

/// A [`Messages`] as the tokens that build it.
fn messages_tokens(messages: &Messages) -> TokenStream {
    let manifest = quote!(crate::validation::manifest);
    match messages {
        Messages::List(wire) => quote!(#manifest::Messages::List(#wire.to_string())),
        Messages::Text(wire) => quote!(#manifest::Messages::Text(#wire.to_string())),
        Messages::AfterCode => quote!(#manifest::Messages::AfterCode),
        Messages::Items { list, text, code } => {
            let code = match code {
                Some(member) => quote!(Some(#member.to_string())),
                None => quote!(None),
            };
            quote!(#manifest::Messages::Items {
                list: #list.to_string(),
                text: #text.to_string(),
                code: #code,
            })
        }
        Messages::Both { text, list } => {
            let list = messages_tokens(list);
            quote!(#manifest::Messages::Both {
                text: #text.to_string(),
                list: Box::new(#list),
            })
        }
    }
}

fn envelope_tokens(envelope: &ErrorEnvelope) -> TokenStream {
    let member_of = |member: &Option<String>| match member {
        Some(member) => quote!(Some(#member.to_string())),
        None => quote!(None),
    };
    let manifest = quote!(crate::validation::manifest);
    match envelope {
        ErrorEnvelope::ProblemDetails => quote!(#manifest::ErrorEnvelope::ProblemDetails),
        ErrorEnvelope::Nested { member, inner } => {
            let inner = envelope_tokens(inner);
            quote!(#manifest::ErrorEnvelope::Nested {
                member: #member.to_string(),
                inner: Box::new(#inner),
            })
        }
        ErrorEnvelope::WithProblemMembers { members, inner } => {
            let inner = envelope_tokens(inner);
            quote!(#manifest::ErrorEnvelope::WithProblemMembers {
                members: vec![#(#members.to_string()),*],
                inner: Box::new(#inner),
            })
        }
        ErrorEnvelope::Documented {
            code,
            messages,
            status,
        } => {
            let messages = match messages {
                None => quote!(None),
                Some(messages) => {
                    let messages = messages_tokens(messages);
                    quote!(Some(#messages))
                }
            };
            let (code, status) = (member_of(code), member_of(status));
            quote!(#manifest::ErrorEnvelope::Documented {
                code: #code,
                messages: #messages,
                status: #status,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    /// The rustdoc example implements the trait as another crate would, since a doc test is
    /// compiled as one: a body of a support type (contribly's `format: byte` upload) is named
    /// by the crate's path. `super::support::Base64` failed the crate's doc tests.
    #[test]
    fn the_doc_example_names_support_types_by_the_crates_path() {
        let spec = r#"
openapi: 3.0.3
info: {title: Byte body, version: "1"}
paths:
  /media:
    post:
      operationId: postMedia
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: string, format: byte}
      responses:
        '200': {description: ok}
"#;
        let doc = crate::load::load_str(spec, "test.yaml").expect("the document loads");
        let api = crate::build_ir(&doc, &crate::Options::default()).expect("it builds");
        let example = super::doc_example(&api, "byte_body", true)
            .expect("the example prints")
            .to_string();
        assert!(
            example.contains("_body: byte_body::support::Base64"),
            "{example}"
        );
        assert!(!example.contains("super::"), "{example}");
    }
}
