//! `src/client.rs` of the generated crate (feature `client`): a reqwest client with one async
//! method per operation, credentials on every call, generated idempotency keys, and bounded
//! retries where they are safe.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::operations::{
    ParamShape, body_type, error_body_type, is_success, param_shape, path_format,
};
use super::types::{doc_attrs, ident};
use super::{GeneratedFile, Part, rust_file_of_parts};
use crate::error::Result;
use crate::ir::{
    Api, MediaKind, Method, Operation, ParamLocation, Parameter, Response, ResponseBody, Scalar,
    StatusSpec, TypeKind, TypeRef,
};
use crate::manifest::{ListForm, ObjectStyle};

/// The client file.
pub fn emit(api: &Api) -> Result<GeneratedFile> {
    let error_body = match error_body_type(api) {
        Some(ty) => body_type(&ty)?,
        None => quote!(::serde_json::Value),
    };
    let mut items = Vec::new();
    let mut methods = Vec::new();
    for op in &api.operations {
        let gate = super::tag_features::operation(api, op);
        let successes = success(op)?;
        for item in successes.item.into_iter().chain(successes.header_types) {
            items.push(super::tag_features::gate(item, &gate)?);
        }
        let method = method(api, op, &successes.ty, successes.arms)?;
        methods.push(quote!(#gate #method));
    }
    let apply_credentials = apply_credentials(api);
    let follows_redirects = !documents_a_redirect(api);
    // The rest is the same for every API: `generator/runtime/client.rs`.
    let super::splice::Fragment {
        uses: runtime_uses,
        items: runtime_items,
    } = super::splice::fragment("client.rs");
    rust_file_of_parts(
        "src/client.rs",
        vec![
            Part::Tokens(quote! {
                //! The client side: [`Client`], one async method per operation.
                //!
                //! Success returns the typed body; a documented error status returns
                //! [`ClientError::Api`] with the status and the error body, or
                //! [`ClientError::ApiOther`] where it documents a body of its own; transport
                //! failures are [`ClientError::Transport`]. Credentials go with every call whose
                //! operation names their scheme, and never into `Debug` output.
                #![allow(clippy::large_enum_variant, clippy::result_large_err)]
                // Methods are named after operations (`from_template`, `into_folder`), not after
                // Rust's conventions for `from_` and `into_`.
                #![allow(clippy::wrong_self_convention)]
                // A status the spec lists (`200`) is matched before the range that holds it
                // (`2XX`), as OpenAPI says the specific one wins.
                #![allow(clippy::match_overlapping_arm)]

                #runtime_uses

                /// The error body of the API's documented error responses.
                pub type ErrorBody = #error_body;

                /// Whether the client [`ClientBuilder::build`] makes follows redirects: not
                /// when the API documents one, which is then the operation's answer.
                const FOLLOWS_REDIRECTS: bool = #follows_redirects;
            }),
            Part::Printed(runtime_items),
            Part::Tokens(quote! {
                #(#items)*

                impl Client {
                    #apply_credentials

                    #(#methods)*
                }
            }),
        ],
    )
}

/// Whether an operation documents a status reqwest would follow (301, 302, 303, 307, 308, or
/// `3XX`): followed, the caller would get the target's answer (a download's bytes from
/// elsewhere, a login page) instead of the documented redirect and its `Location`.
fn documents_a_redirect(api: &Api) -> bool {
    api.operations
        .iter()
        .flat_map(|op| &op.responses)
        .any(|response| match response.status {
            StatusSpec::Code(code) => matches!(code, 301 | 302 | 303 | 307 | 308),
            StatusSpec::Range(class) => class == 3,
            StatusSpec::Default => false,
        })
}

/// Puts the credentials on a request.
fn apply_credentials(api: &Api) -> TokenStream {
    // Credentials that travel in `Authorization` (Basic, bearer tokens, an API key of that
    // name) share one header, of which a server reads one. The one sent belongs to a
    // requirement the client meets whole (OpenAPI: any one requirement satisfied is enough),
    // the first such in the spec's order; failing that, the first the client holds that the
    // operation accepts. So a client holding Basic and a bearer token, for an operation that
    // takes `[{bearer}, {basic, key}]` without the key, sends the token. The others each go in
    // their own place, to an operation that accepts them only: a key the operation does not
    // name is not sent (Petstore's `api_key` to `addPet`, which takes OAuth alone).
    let (authorization, others): (Vec<_>, Vec<_>) = api.credentials.iter().partition(|field| {
        field.location == ParamLocation::Header && field.name.eq_ignore_ascii_case("authorization")
    });
    // With one such scheme there is nothing to choose: it is sent where accepted.
    let choose = authorization.len() > 1;
    let mut chain = quote!();
    // Built from the last: the schemes of requirements met whole come first, then the
    // accepted ones.
    let passes: &[bool] = if choose { &[false, true] } else { &[false] };
    for &whole in passes {
        for field in authorization.iter().rev() {
            let name = ident(&field.scheme.rust_name);
            let key = field.scheme.key.as_str();
            let apply = credential_apply(field);
            let test = if whole {
                quote!(met(#key))
            } else {
                quote!(accepts(#key))
            };
            let read = if field.required {
                quote!(let secret = &self.credentials.#name;)
            } else {
                quote!()
            };
            let condition = if field.required {
                test
            } else {
                quote!(#test && let Some(secret) = &self.credentials.#name)
            };
            chain = if chain.is_empty() {
                quote!(if #condition {
                    #read
                    request = #apply;
                })
            } else {
                quote!(if #condition {
                    #read
                    request = #apply;
                } else #chain)
            };
        }
    }
    let accepts = quote! {
        let accepts = |key: &str| requirements.iter().any(|requirement| requirement.contains(&key));
    };
    let requirements = quote!(requirements);
    let met = if !choose {
        quote!()
    } else {
        // The credentials the client holds: those it always has, and the optional ones set.
        let always: Vec<&str> = api
            .credentials
            .iter()
            .filter(|field| field.required)
            .map(|field| field.scheme.key.as_str())
            .collect();
        let mut held: Vec<TokenStream> = Vec::new();
        if !always.is_empty() {
            held.push(quote!(matches!(key, #(#always)|*)));
        }
        for field in api.credentials.iter().filter(|field| !field.required) {
            let name = ident(&field.scheme.rust_name);
            let key = field.scheme.key.as_str();
            held.push(quote!((key == #key && self.credentials.#name.is_some())));
        }
        quote! {
            let holds = |key: &str| #(#held)||*;
            let met = |key: &str| {
                requirements
                    .iter()
                    .any(|requirement| requirement.contains(&key) && requirement.iter().all(|key| holds(key)))
            };
        }
    };
    let steps = others.into_iter().map(|field| {
        let name = ident(&field.scheme.rust_name);
        let key = field.scheme.key.as_str();
        let apply = credential_apply(field);
        if field.required {
            quote! {
                if accepts(#key) {
                    let secret = &self.credentials.#name;
                    request = #apply;
                }
            }
        } else {
            quote! {
                if accepts(#key) && let Some(secret) = &self.credentials.#name {
                    request = #apply;
                }
            }
        }
    });
    let steps: Vec<TokenStream> = steps.chain((!chain.is_empty()).then_some(chain)).collect();
    if steps.is_empty() {
        // The document declares no credential: `Credentials` has no field to send.
        return quote! {
            fn with_credentials(&self, request: ::reqwest::RequestBuilder, _requirements: &[&[&str]]) -> ::reqwest::RequestBuilder {
                let Credentials {} = &self.credentials;
                request
            }
        };
    }
    quote! {
        fn with_credentials(&self, mut request: ::reqwest::RequestBuilder, #requirements: &[&[&str]]) -> ::reqwest::RequestBuilder {
            #accepts
            #met
            #(#steps)*
            request
        }
    }
}

/// The expression that puts one credential (`secret`) on `request`.
fn credential_apply(field: &crate::ir::Credential) -> TokenStream {
    let wire = &field.name;
    match (&field.scheme.kind, field.location) {
        (kind, _) if kind.is_bearer_token() => quote!(request.bearer_auth(secret.expose())),
        (crate::ir::SecurityKind::Basic, _) => {
            quote!(request.basic_auth(&secret.username, Some(secret.password.expose())))
        }
        (crate::ir::SecurityKind::Http(word), _) => quote!(request.header(
            ::http::header::AUTHORIZATION,
            format!("{} {}", #word, secret.expose())
        )),
        (_, ParamLocation::Query) => quote!(request.query(&[(#wire, secret.expose())])),
        (_, ParamLocation::Cookie) => quote!(request.header(
            ::http::header::COOKIE,
            format!("{}={}", #wire, cookie_value(secret.expose()))
        )),
        _ => quote!(request.header(#wire, secret.expose())),
    }
}

/// What the client makes of an operation's successes.
pub(crate) struct Successes {
    /// The type a call returns on success.
    pub(crate) ty: TokenStream,
    /// The enum of its successes, when it has several.
    pub(crate) item: Option<TokenStream>,
    /// The structs of the headers its successes document.
    pub(crate) header_types: Vec<TokenStream>,
    /// The `match` arms that read each success.
    pub(crate) arms: Vec<TokenStream>,
}

/// The success type of an operation: its one success body, or an enum of its successes; a
/// success that documents headers comes with them.
pub(crate) fn success(op: &Operation) -> Result<Successes> {
    // Exact codes before classes, so that no arm is unreachable.
    let mut successes: Vec<_> = op.responses.iter().filter(|r| is_success(r)).collect();
    successes.sort_by_key(|r| r.status);
    let mut arms = Vec::new();
    let mut header_types = Vec::new();
    // An operation whose only answers are `default` (Swagger Petstore's `createUser`, 580
    // operations of the APIs.guru directory) succeeds by it: `default` covers every status
    // the operation does not list, 2XX included.
    if successes.is_empty()
        && let Some(default) = op
            .responses
            .iter()
            .find(|r| r.status == StatusSpec::Default)
    {
        let (ty, read) = success_read(op, default, &mut header_types)?;
        arms.push(quote!(200..=299 => #read,));
        let ty = ty.unwrap_or_else(|| quote!(()));
        return Ok(Successes {
            ty,
            item: None,
            header_types,
            arms,
        });
    }
    if super::operations::documents_no_success(op) {
        arms.push(quote!(200..=299 => Ok(()),));
    }
    if successes.len() <= 1 {
        let mut ty = quote!(());
        for response in &successes {
            let pattern = status_pattern(response.status);
            let (read_ty, read) = success_read(op, response, &mut header_types)?;
            ty = read_ty.unwrap_or(ty);
            arms.push(quote!(#pattern => #read,));
        }
        return Ok(Successes {
            ty,
            item: None,
            header_types,
            arms,
        });
    }
    let name = format_ident!("{}Success", op.type_prefix);
    let text = format!("The successful answers of `{}`.", op.id);
    let mut variants = Vec::new();
    for response in &successes {
        let variant = ident(&response.variant);
        let docs = doc_attrs(Some(&format!("`{}`", response.status.key())));
        let pattern = status_pattern(response.status);
        let (ty, read) = success_read(op, response, &mut header_types)?;
        match (ty, response.status) {
            (Some(ty), StatusSpec::Code(_)) => {
                variants.push(quote!(#docs #variant(#ty),));
                arms.push(quote!(#pattern => #read.map(#name::#variant),));
            }
            (Some(ty), _) => {
                variants.push(quote!(#docs #variant(::http::StatusCode, #ty),));
                arms.push(quote!(#pattern => {
                    let status_ = answer_.status;
                    #read.map(|body| #name::#variant(status_, body))
                }));
            }
            (None, StatusSpec::Code(_)) => {
                variants.push(quote!(#docs #variant,));
                arms.push(quote!(#pattern => Ok(#name::#variant),));
            }
            (None, _) => {
                variants.push(quote!(#docs #variant(::http::StatusCode),));
                arms.push(quote!(#pattern => Ok(#name::#variant(answer_.status)),));
            }
        }
    }
    let item = quote! {
        #[doc = #text]
        #[derive(Debug, Clone)]
        pub enum #name {
            #(#variants)*
        }
    };
    Ok(Successes {
        ty: quote!(#name),
        item: Some(item),
        header_types,
        arms,
    })
}

/// What a success `response` is handed over as (`None`: nothing, for a response with neither
/// body nor documented headers) and the expression that reads it from `answer_`: its body,
/// its headers struct, or both in a [`WithHeaders`]. The headers struct is pushed to `items`.
fn success_read(
    op: &Operation,
    response: &Response,
    items: &mut Vec<TokenStream>,
) -> Result<(Option<TokenStream>, TokenStream)> {
    let body = match &response.body {
        Some(body) => Some((success_body_type(body)?, read_body(body))),
        None => None,
    };
    let headers = headers_struct(op, response, items);
    Ok(match (body, headers) {
        (Some((ty, read)), None) => (Some(ty), read),
        (None, None) => (None, quote!(Ok(()))),
        (None, Some(headers)) => (Some(headers.clone()), quote!(#headers::read(&answer_))),
        // The headers first: reading a text or bytes body takes the answer.
        (Some((ty, read)), Some(headers)) => (
            Some(quote!(WithHeaders<#ty, #headers>)),
            quote!(#headers::read(&answer_).and_then(|headers| {
                #read.map(|body| WithHeaders { body, headers })
            })),
        ),
    })
}

/// The struct of the headers a success `response` documents, pushed to `items` with how
/// it is read; its name, or `None` when it documents none.
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
    let reads = headers.iter().map(|header| {
        let field = ident(&header.field);
        let wire = header.name.as_str();
        if header.required {
            quote!(#field: answer.required_header(#wire)?,)
        } else {
            quote!(#field: answer.header(#wire),)
        }
    });
    let docs = doc_attrs(Some(&format!(
        "The headers response `{}` of `{}` documents, as received: each as text, its lines \
         joined by `, `. A response without one it must carry is \
         [`ClientError::UnexpectedResponse`].",
        response.status.key(),
        op.id
    )));
    items.push(quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #name {
            #(#fields)*
        }

        impl #name {
            fn read(answer: &Answer) -> Result<#name, ClientError> {
                Ok(#name { #(#reads)* })
            }
        }
    });
    Some(quote!(#name))
}

/// The type a success body is handed over as: its schema's type when it is JSON, the text of
/// a text body, the bytes of any other.
fn success_body_type(body: &ResponseBody) -> Result<TokenStream> {
    Ok(match body.kind {
        MediaKind::Json => body_type(&body.ty)?,
        MediaKind::Text | MediaKind::Form => quote!(String),
        MediaKind::Binary => quote!(Vec<u8>),
    })
}

/// Reads the answer to a documented error `response` into its `ClientError`: `Api` with the
/// API's error body where the response documents that type (or where the API has no named
/// one, which makes the error body any JSON); `ApiOther` where it documents a body of a type
/// of its own, or of no media type the client reads as JSON; and where it documents none, or
/// any JSON, `Api` when the body reads as the error body and `ApiOther` otherwise.
fn read_error(api: &Api, error_body: Option<&TypeRef>, response: &Response) -> Result<TokenStream> {
    Ok(match &response.body {
        Some(body) if body.kind == MediaKind::Json => {
            if error_body.is_none_or(|error_body| *error_body == body.ty) {
                quote!(answer_.error(true))
            } else if matches!(api.resolve(&body.ty), TypeRef::Any | TypeRef::Object) {
                quote!(answer_.undescribed_error())
            } else {
                let ty = body_type(&body.ty)?;
                quote!(answer_.other_error::<#ty>())
            }
        }
        Some(_) => quote!(answer_.text_error()),
        None => quote!(answer_.undescribed_error()),
    })
}

/// Reads a success body from `answer_` as [`success_body_type`] says.
fn read_body(body: &ResponseBody) -> TokenStream {
    match body.kind {
        MediaKind::Json => quote!(answer_.decode()),
        MediaKind::Text | MediaKind::Form => quote!(answer_.text()),
        MediaKind::Binary => quote!(answer_.bytes()),
    }
}

fn status_pattern(status: StatusSpec) -> TokenStream {
    match status {
        StatusSpec::Code(code) => {
            let code = proc_macro2::Literal::u16_unsuffixed(code);
            quote!(#code)
        }
        StatusSpec::Range(class) => {
            let low = proc_macro2::Literal::u16_unsuffixed(u16::from(class) * 100);
            let high = proc_macro2::Literal::u16_unsuffixed(u16::from(class) * 100 + 99);
            quote!(#low..=#high)
        }
        StatusSpec::Default => quote!(_),
    }
}

pub(crate) fn method(
    api: &Api,
    op: &Operation,
    success_type: &TokenStream,
    arms: Vec<TokenStream>,
) -> Result<TokenStream> {
    let name = ident(&op.fn_name);
    // The idempotency-key header, and the key the client makes when the caller gives none
    // (only where the header's type can hold a fresh UUID).
    let idempotency = op.idempotency_header();
    let key = idempotency.and_then(|param| automatic_key(api, &param.ty).map(|kind| (param, kind)));
    let mut args = Vec::new();
    let mut steps = Vec::new();
    let mut arg_docs = Vec::new();
    // Header values checked before anything is built, so that one HTTP cannot carry is
    // refused naming its header, not with reqwest's bare "builder error".
    let mut header_checks = Vec::new();
    // Path parameters, in template order; one argument for a variable the template repeats
    // (`/same/{id}/again/{id}`).
    let (format, path_params) = path_format(op);
    let mut path_values = Vec::new();
    for (index, param) in path_params.iter().enumerate() {
        let field = ident(&param.rust_name);
        // An object travels in the query alone: a path parameter is never one. `text` is the
        // value's text, borrowed: text itself (a `str` argument) or its rendering.
        let (ty, text) = match param_shape(api, param) {
            ParamShape::One(ty) => {
                let ty = borrowed_as(ty);
                let text = if is_str(&ty) {
                    quote!(#field)
                } else {
                    quote!(&#field.to_string())
                };
                (ty, text)
            }
            ParamShape::Object(ty) | ParamShape::ObjectOrScalar(ty) => {
                (ty, quote!(&#field.to_string()))
            }
            ParamShape::Json(ty) => (
                ty,
                quote!(&::serde_json::to_string(#field).unwrap_or_default()),
            ),
            ParamShape::List(item) => {
                let joined = joined(&field, ',');
                (quote!([#item]), quote!(&#joined))
            }
        };
        if !path_params[..index].iter().any(|p| p.name == param.name) {
            args.push(quote!(#field: &#ty));
        }
        // A value that is a whole segment may not be `.` or `..`: no encoding keeps a URL
        // from reading it as a dot segment, which sends the request elsewhere. Neither may be
        // empty, nor one beside text in its segment (`/files/.json`).
        let whole_segment = crate::path::wire(&op.path)
            .split('/')
            .any(|segment| segment == format!("{{{}}}", param.name));
        path_values.push(if whole_segment && param.allow_reserved {
            quote!(path_reserved(#text)?)
        } else if whole_segment {
            quote!(path_segment(#text)?)
        } else {
            quote!(path_part(#text)?)
        });
    }
    for param in op
        .parameters
        .iter()
        .filter(|p| p.location != ParamLocation::Path)
    {
        let field = ident(&param.rust_name);
        let shape = param_shape(api, param);
        let ty = match &shape {
            ParamShape::One(ty)
            | ParamShape::Object(ty)
            | ParamShape::Json(ty)
            | ParamShape::ObjectOrScalar(ty) => ty.clone(),
            ParamShape::List(item) => quote!([#item]),
        };
        let wire = &param.name;
        if let Some((_, kind)) = key.filter(|(key, _)| key.name == param.name) {
            args.push(quote!(#field: Option<#ty>));
            let made = match kind {
                AutomaticKey::Uuid => "a new UUID v4",
                AutomaticKey::Text => "the text of a new UUID v4",
            };
            arg_docs.push(format!(
                "`{field}`: sent as `{wire}`; {made} when `None`, the same on every retry."
            ));
            continue;
        }
        let one = |value: TokenStream| match param.location {
            ParamLocation::Query => quote!(request_ = request_.query(&[(#wire, #value)]);),
            ParamLocation::Header => quote!(request_ = request_.header(#wire, #value);),
            ParamLocation::Cookie => {
                quote!({
                    let text_: String = #value;
                    request_ = request_.header(
                        ::http::header::COOKIE,
                        format!("{}={}", #wire, cookie_value(&text_)),
                    );
                })
            }
            ParamLocation::Path => quote!(),
        };
        let object_pairs = || match param.object_style() {
            Some(ObjectStyle::Deep) => quote! {
                for (key_, text_) in deep_object_pairs(#wire, value_) {
                    request_ = request_.query(&[(key_, text_)]);
                }
            },
            Some(ObjectStyle::Joined) => one(quote!(joined_object(value_))),
            _ => quote! {
                for (key_, text_) in form_pairs(value_) {
                    request_ = request_.query(&[(key_, text_)]);
                }
            },
        };
        let send = match (&shape, param.list_form()) {
            (ParamShape::One(_), _) => one(quote!(value_.to_string())),
            (ParamShape::Json(_), _) => {
                one(quote!(::serde_json::to_string(value_).unwrap_or_default()))
            }
            // `?id=1&id=2`: the name once per item.
            (ParamShape::List(_), ListForm::Repeated) => {
                let each = one(quote!(item_.to_string()));
                quote!(for item_ in value_ { #each })
            }
            (ParamShape::List(_), ListForm::Delimited(delimiter)) => {
                one(joined(&format_ident!("value_"), delimiter))
            }
            // Its members as its style says: their own keys, or under its name.
            (ParamShape::Object(_), _) => object_pairs(),
            // An object as an object parameter's members; a scalar under the name.
            (ParamShape::ObjectOrScalar(_), _) => {
                let object = object_pairs();
                let scalar = one(quote!(text_));
                quote! {
                    match scalar_text(value_) {
                        Some(text_) => { #scalar }
                        None => { #object }
                    }
                }
            }
        };
        // Only text can hold a line break: a number, a UUID or a date cannot.
        let header_text = match (&shape, param.location) {
            // Text is borrowed as `str` already.
            (ParamShape::One(_), ParamLocation::Header) if holds_text(&param.ty) => {
                Some(quote!(value_))
            }
            (ParamShape::List(_), ParamLocation::Header) if holds_text(&param.ty) => {
                let joined = joined(&format_ident!("value_"), ',');
                Some(quote!(&#joined))
            }
            _ => None,
        };
        let check = header_text.map(|text| quote!(header_value(#wire, #text)?;));
        let ty = match shape {
            ParamShape::One(_) => borrowed_as(ty),
            _ => ty,
        };
        if param.required {
            args.push(quote!(#field: &#ty));
            steps.push(quote!({ let value_ = #field; #send }));
            header_checks.extend(check.map(|check| quote!({ let value_ = #field; #check })));
        } else {
            args.push(quote!(#field: Option<&#ty>));
            steps.push(quote!(if let Some(value_) = #field { #send }));
            header_checks
                .extend(check.map(|check| quote!(if let Some(value_) = #field { #check })));
        }
    }
    // Ask for the media types this client reads back. A server that negotiates (XML or JSON
    // for one resource, as Java and .NET frameworks do) answers reqwest's default `*/*` with
    // its own first choice, which the client could not decode. An `Accept` parameter the spec
    // declares is the caller's to send instead.
    let declares_accept = op.parameters.iter().any(|param| {
        param.location == ParamLocation::Header && param.name.eq_ignore_ascii_case("accept")
    });
    if let Some(accept) = op
        .declared_accept
        .clone()
        .or_else(|| accept_value(op))
        .filter(|_| !declares_accept)
    {
        steps.insert(
            0,
            quote!(request_ = request_.header(::reqwest::header::ACCEPT, #accept);),
        );
    }
    let key_setup = key.map(|(key, kind)| {
        let field = ident(&key.rust_name);
        let wire = &key.name;
        match kind {
            AutomaticKey::Uuid => {
                steps.push(quote!(request_ = request_.header(#wire, #field.to_string());));
                quote!(let #field = #field.unwrap_or_else(::uuid::Uuid::new_v4);)
            }
            AutomaticKey::Text => {
                steps.push(quote!(request_ = request_.header(#wire, #field.as_str());));
                quote!(let #field = #field.unwrap_or_else(|| ::uuid::Uuid::new_v4().to_string());)
            }
        }
    });
    let body_step = match &op.request_body {
        Some(body) => {
            // A form goes as its fields, the way the servers read it back; text and bytes
            // (a file, a multipart body) as they are; anything else as JSON.
            let (ty, send) = match body.kind {
                kind @ (MediaKind::Json | MediaKind::Form) => {
                    let ty = body_type(&body.ty)?;
                    let send = if kind == MediaKind::Form {
                        // The form's `encoding`: fields sent as JSON text, lists as one
                        // delimited value.
                        let json = &body.json_fields;
                        let pairs = if json.is_empty() {
                            quote!(form_pairs(body))
                        } else {
                            quote!(json_form_pairs(body, &[#(#json),*]))
                        };
                        let pairs = if body.delimited_fields.is_empty() {
                            pairs
                        } else {
                            let fields = body.delimited_fields.iter().map(|(name, delimiter)| {
                                let delimiter = delimiter.to_string();
                                quote!((#name, #delimiter))
                            });
                            quote!(delimited_form_pairs(#pairs, &[#(#fields),*]))
                        };
                        quote!(request_ = request_.form(&#pairs);)
                    } else if let Some(media) = json_media_other_than_plain(&body.content_type) {
                        // `application/merge-patch+json` is not `application/json`: a server
                        // that dispatches on the media type (Kubernetes' PATCH) refuses the
                        // plain one. `json` keeps a Content-Type already set.
                        quote! {
                            request_ = request_
                                .header(::reqwest::header::CONTENT_TYPE, #media)
                                .json(body);
                        }
                    } else {
                        quote!(request_ = request_.json(body);)
                    };
                    (quote!(&#ty), send)
                }
                MediaKind::Text | MediaKind::Binary => {
                    let documented = body.sent_as();
                    (
                        quote!(RawBody<'_>),
                        quote!(request_ = body.send(request_, #documented);),
                    )
                }
            };
            if body.required {
                args.push(quote!(body: #ty));
                send
            } else {
                args.push(quote!(body: Option<#ty>));
                quote!(if let Some(body) = body {
                    #send
                })
            }
        }
        None => quote!(),
    };
    // A retry may repeat the effect: only safe methods, or a request carrying an idempotency key.
    let safe_method = matches!(
        op.method,
        Method::Get | Method::Head | Method::Options | Method::Put | Method::Delete | Method::Trace
    );
    // A key the caller must give (no automatic one) makes the request retryable when it is
    // there: always when the header is required, else when the caller gave it.
    let retryable = match idempotency {
        _ if safe_method || key.is_some() => Retryable::Always,
        Some(header) if header.required => Retryable::Always,
        Some(header) => Retryable::With(header),
        None => Retryable::Never,
    };
    // An operation served elsewhere than the API (its own absolute `servers`) is called there
    // when the client is pointed at the API's documented server.
    let elsewhere = api
        .servers
        .first()
        .and_then(crate::ir::Server::absolute_url)
        .zip(op.servers.first().and_then(crate::ir::Server::absolute_url))
        .filter(|(documented, own)| documented != own);
    let base = match elsewhere {
        Some((documented, own)) => quote!(self.base_for(#documented, #own)),
        None => quote!(self.base_url),
    };
    // The security requirements the operation accepts, any one enough: none where the
    // document says so (`security: []`, a login); every credential of the API, each alone,
    // where it names none, as a document that forgot to would have it, but one the operation
    // takes as a parameter of its own (Trello's `key` and `token` on its 24 operations without
    // security): the caller gives that value, and the credential beside it would send the key
    // twice (`?key=ARG&key=SECRET`), and the secret where none is asked for.
    let requirements: Vec<Vec<&str>> = if op.security.is_empty() && !op.anonymous {
        api.credentials
            .iter()
            .filter(|credential| {
                !op.parameters.iter().any(|param| {
                    param.location == credential.location
                        && match param.location {
                            ParamLocation::Header => {
                                param.name.eq_ignore_ascii_case(&credential.name)
                            }
                            _ => param.name == credential.name,
                        }
                })
            })
            .map(|credential| vec![credential.scheme.key.as_str()])
            .collect()
    } else {
        op.security
            .iter()
            .filter(|requirement| !requirement.is_empty())
            .map(|requirement| requirement.iter().map(String::as_str).collect())
            .collect()
    };
    let requirements = requirements
        .iter()
        .map(|requirement| quote!(&[#(#requirement),*]));
    let http_method = format_ident!("{}", op.method.as_http());
    let mut text = format!("`{} {}`", op.method.as_http(), op.path);
    if let Some(docs) = &op.docs {
        text.push_str("\n\n");
        text.push_str(docs);
    }
    for line in &arg_docs {
        text.push_str("\n\n");
        text.push_str(line);
    }
    let retried = "Retried on transport errors, time-outs, 429 and 5xx answers";
    text.push_str(&match retryable {
        Retryable::Always => format!("\n\n{retried}."),
        Retryable::With(header) => format!(
            "\n\n{retried} when `{}` is given; otherwise not retried: repeating it could \
             repeat its effect.",
            header.rust_name
        ),
        Retryable::Never => "\n\nNot retried: repeating it could repeat its effect.".into(),
    });
    let docs = doc_attrs(Some(&text));
    let mut errors: Vec<_> = op
        .responses
        .iter()
        .filter(|r| !is_success(r) && r.status != StatusSpec::Default)
        .collect();
    errors.sort_by_key(|r| r.status);
    let error_body = error_body_type(api);
    let mut error_arms = Vec::new();
    for response in errors {
        let pattern = status_pattern(response.status);
        let read = read_error(api, error_body.as_ref(), response)?;
        error_arms.push(quote!(#pattern => Err(#read),));
    }
    let otherwise = match op
        .responses
        .iter()
        .find(|r| r.status == StatusSpec::Default)
    {
        Some(default) => read_error(api, error_body.as_ref(), default)?,
        None => quote!(answer_.error(false)),
    };
    let arms: Vec<TokenStream> = arms.into_iter().chain(error_arms).collect();
    let judge = if arms.is_empty() {
        quote!(Err(#otherwise))
    } else {
        quote! {
            match answer_.status.as_u16() {
                #(#arms)*
                _ => Err(#otherwise),
            }
        }
    };
    let retryable = match retryable {
        Retryable::Always => quote!(true),
        Retryable::With(header) => {
            let field = ident(&header.rust_name);
            quote!(#field.is_some())
        }
        Retryable::Never => quote!(false),
    };
    // One argument per parameter reads best for the few most operations have; an operation
    // with many (one real API has 22) still gets them all, in the spec's order.
    let many = (args.len() >= 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let start = quote!(http_.request(::reqwest::Method::#http_method, &url_));
    let build_request = if steps.is_empty() && body_step.is_empty() {
        start
    } else {
        quote!({
            let mut request_ = #start;
            #(#steps)*
            #body_step
            request_
        })
    };
    Ok(quote! {
        #docs
        #many
        pub async fn #name(&self, #(#args),*) -> Result<#success_type, ClientError> {
            #key_setup
            // Locals end in `_`, which no parameter name does: a parameter may be called
            // `url` or `request`.
            let url_ = format!(concat!("{}", #format), #base #(, #path_values)*);
            #(#header_checks)*
            let answer_ = self
                .send(#retryable, &[#(#requirements),*], |http_| #build_request)
                .await?;
            #judge
        }
    })
}

/// The `Accept` header for an operation: the media type the client reads each documented
/// body in, once each, in the order of the responses (`application/json`, or
/// `application/json, application/problem+json;q=0.9` where errors have their own); every type
/// documented for a body handed over as text or bytes (`image/png, image/jpeg`). A type only
/// error responses (and `default`) use comes with a lower weight, so that a server choosing
/// among the types a success documents (va.gov's `application/geo+json` and
/// `application/json`, each with its own schema) answers in the one the client reads the
/// success in. `None` when no response has a body. A media type that could not be a header's
/// text (a comma, a control or non-ASCII character) is left out rather than fail every call.
fn accept_value(op: &Operation) -> Option<String> {
    let mut success: Vec<&str> = Vec::new();
    let mut others: Vec<&str> = Vec::new();
    for response in &op.responses {
        let Some(body) = &response.body else {
            continue;
        };
        let succeeds = match response.status {
            StatusSpec::Code(code) => code < 400,
            StatusSpec::Range(class) => class < 4,
            StatusSpec::Default => false,
        };
        // Text and bytes are handed over as they come, in any of the types documented;
        // a typed body is read in its one type.
        let also = match body.kind {
            MediaKind::Text | MediaKind::Binary => body.other_content_types.as_slice(),
            MediaKind::Json | MediaKind::Form => &[],
        };
        for media in std::iter::once(&body.content_type).chain(also) {
            let media = media.trim();
            let printable = !media.is_empty()
                && media
                    .bytes()
                    .all(|b| (b' '..=b'~').contains(&b) && b != b',');
            let list = if succeeds { &mut success } else { &mut others };
            if printable && !list.contains(&media) {
                list.push(media);
            }
        }
    }
    others.retain(|media| !success.contains(media));
    let weighed: Vec<String> = if success.is_empty() {
        others.iter().map(|media| media.to_string()).collect()
    } else {
        let lower = others.iter().map(|media| format!("{media};q=0.9"));
        success
            .iter()
            .map(|media| media.to_string())
            .chain(lower)
            .collect()
    };
    (!weighed.is_empty()).then(|| weighed.join(", "))
}

/// The type a parameter of type `ty` is borrowed as: text as `str`, so that a caller passes
/// a literal or a `String` alike (`Some("abc")`, where `Option<&String>` would ask for
/// `Some(&"abc".to_string())`); any other type as itself.
fn borrowed_as(ty: TokenStream) -> TokenStream {
    let text: TokenStream = quote!(String);
    if ty.to_string() == text.to_string() {
        quote!(str)
    } else {
        ty
    }
}

/// Whether `ty` is `str`, as [`borrowed_as`] gives it.
fn is_str(ty: &TokenStream) -> bool {
    let text: TokenStream = quote!(str);
    ty.to_string() == text.to_string()
}

/// The text of the list `items` (a slice) with `delimiter` between its items: `1,2`.
fn joined(items: &proc_macro2::Ident, delimiter: char) -> TokenStream {
    let delimiter = delimiter.to_string();
    quote!(joined(#items, #delimiter))
}

/// The idempotency key the client makes when the caller gives none, by the header's type.
#[derive(Debug, Clone, Copy)]
enum AutomaticKey {
    /// A `Uuid`: a new UUID v4.
    Uuid,
    /// A `String`: the text of a new UUID v4.
    Text,
}

/// The automatic key a header of type `ty` can hold: a UUID or a plain string (through
/// nullability, newtypes and aliases, as [`param_shape`] resolves them); any other type gets
/// none, and the header is an ordinary parameter the caller fills.
fn automatic_key(api: &Api, ty: &TypeRef) -> Option<AutomaticKey> {
    match ty {
        TypeRef::Scalar(Scalar::Uuid) => Some(AutomaticKey::Uuid),
        TypeRef::Scalar(Scalar::String) => Some(AutomaticKey::Text),
        TypeRef::Nullable(inner) => automatic_key(api, inner),
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Newtype(inner) | TypeKind::Alias(inner)) => automatic_key(api, inner),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a call may be retried.
enum Retryable<'a> {
    /// A safe method, or a request that always carries an idempotency key.
    Always,
    /// Only when the caller gave this optional idempotency-key header.
    With(&'a Parameter),
    /// Never: repeating it could repeat its effect.
    Never,
}

/// Whether a parameter's type is free text (a string, or a list of strings), which may hold
/// what a header cannot carry.
fn holds_text(ty: &crate::ir::TypeRef) -> bool {
    use crate::ir::{Scalar, TypeRef};
    match ty {
        TypeRef::Scalar(Scalar::String) => true,
        TypeRef::Nullable(inner) | TypeRef::Array(inner) => holds_text(inner),
        _ => false,
    }
}

/// The documented JSON media type of a request body, when it is one other than plain
/// `application/json` (a `+json` type, `application/json` with parameters) that can be sent
/// as it is (not a range such as `application/*`).
fn json_media_other_than_plain(documented: &str) -> Option<&str> {
    let plain = documented.eq_ignore_ascii_case("application/json");
    (!plain && !documented.contains('*')).then_some(documented)
}

#[cfg(test)]
mod tests {
    /// The client file generated for a document.
    fn client_of(document: &str) -> String {
        let doc = crate::load::load_str(document, "spec.yaml").expect("the document loads");
        let files = crate::generate(&doc, &crate::Options::default())
            .expect("it generates")
            .files;
        files
            .into_iter()
            .find(|file| file.path.ends_with("src/client.rs"))
            .expect("a client")
            .contents
    }

    /// An operation that names no security in a document that names none at the top is sent
    /// every credential the client holds, as a document that forgot to name one would want,
    /// except one it takes as a parameter of its own (Trello's `key`): the caller's value
    /// goes, not it and the credential beside it.
    #[test]
    fn a_credential_the_operation_takes_as_a_parameter_is_not_sent_beside_it() {
        let client = client_of(
            "openapi: 3.0.0\ninfo: {title: t, version: '1'}\n\
             components:\n  securitySchemes:\n    api_key: {type: apiKey, in: query, name: key}\n    \
             bearer: {type: http, scheme: bearer}\n\
             paths:\n  /open:\n    get:\n      operationId: getOpen\n      \
             parameters: [{name: key, in: query, required: true, schema: {type: string}}]\n      \
             responses: {'204': {description: ok}}\n  \
             /plain:\n    get:\n      operationId: getPlain\n      responses: {'204': {description: ok}}\n  \
             /secured:\n    get:\n      operationId: getSecured\n      \
             security: [{api_key: []}, {bearer: []}]\n      responses: {'204': {description: ok}}\n",
        );
        let compact: String = client.split_whitespace().collect();
        let requirements_of = |function: &str| {
            let at = compact
                .find(&format!("pubasyncfn{function}("))
                .expect(function);
            let send = at + compact[at..].find(".send(").expect("a send");
            let end = send + compact[send..].find("],|").expect("requirements");
            compact[send..=end].to_string()
        };
        assert_eq!(requirements_of("get_open"), r#".send(true,&[&["bearer"]]"#);
        assert_eq!(
            requirements_of("get_plain"),
            r#".send(true,&[&["api_key"],&["bearer"]]"#
        );
    }

    /// An operation with servers of its own (Box's uploads) is called at them when the client
    /// is pointed at the API's documented server; the others at the client's base URL.
    #[test]
    fn an_operation_served_elsewhere_is_called_through_base_for() {
        let client = client_of(
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n\
             servers: [{url: 'https://api.example.com/{version}', variables: {version: {default: '2.0'}}}]\n\
             paths:\n  /files/content:\n    servers: [{url: 'https://upload.example.com/api/2.0'}]\n    \
             post:\n      operationId: upload\n      responses: {'204': {description: ok}}\n  \
             /files:\n    get:\n      operationId: listFiles\n      responses: {'204': {description: ok}}\n",
        );
        // As printed, a call may span lines: compare without white space.
        let compact: String = client.split_whitespace().collect();
        assert!(
            compact.contains(
                r#"self.base_for("https://api.example.com/2.0","https://upload.example.com/api/2.0")"#
            ),
            "{client}"
        );
        assert_eq!(compact.matches("self.base_for(\"").count(), 1);
    }
}
