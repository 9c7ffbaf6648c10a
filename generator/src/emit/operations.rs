//! What the server, client and webhook emitters share about operations: parameter types,
//! statuses, and the body type of errors.

use proc_macro2::TokenStream;
use quote::quote;

use super::types::{rust_type, scalar_type};
use crate::error::Result;
use crate::ir::{
    Api, Operation, ParamLocation, Parameter, Response, ResponseHeader, Scalar, StatusSpec,
    TypeKind, TypeRef,
};

/// The path the models are reached by from the server, client and webhook modules.
pub(crate) fn models_path() -> TokenStream {
    quote!(crate::models::)
}

/// The Rust type of a parameter: scalars and string enums are typed (they parse from text),
/// a list of them is a `Vec` of them (its items travel as [`Parameter::list_form`] says), a
/// query parameter whose schema is an object with named members (or a map of such values,
/// where its style tells its members from other keys) is its struct or map (its members
/// travel as [`Parameter::object_style`] says), and a union of such an object and a scalar
/// its union type; anything else is passed as the text it arrived as.
pub(crate) fn param_type(api: &Api, param: &Parameter) -> TokenStream {
    match param_shape(api, param) {
        ParamShape::One(ty)
        | ParamShape::Object(ty)
        | ParamShape::Json(ty)
        | ParamShape::ObjectOrScalar(ty) => ty,
        ParamShape::List(item) => quote!(Vec<#item>),
    }
}

/// A parameter's Rust type, told apart by how it is read and sent.
pub(crate) enum ParamShape {
    /// One value of this type (a scalar, a string enum, or text).
    One(TokenStream),
    /// A list of values of this type.
    List(TokenStream),
    /// An object of this type, its members in the query.
    Object(TokenStream),
    /// A union of this type, of an object whose members travel in the query and a scalar
    /// under the parameter's name (Stripe's `created`: `created[gte]=1&created[lt]=2`, or
    /// `created=5`).
    ObjectOrScalar(TokenStream),
    /// A value of this type written as a JSON text (`content: {application/json: …}`):
    /// `?filter={"name":"rex"}`.
    Json(TokenStream),
}

/// The shape of a parameter: see [`param_type`].
pub(crate) fn param_shape(api: &Api, param: &Parameter) -> ParamShape {
    if param.is_json_text()
        && let Ok(ty) = body_type(&param.ty)
    {
        return ParamShape::Json(ty);
    }
    // `items` without `type: array` (PeerTube's `uuids`): a list all the same, each item its
    // text, rather than one value that would keep the first alone.
    if matches!(param.ty, TypeRef::Any)
        && param.schema.get("items").is_some()
        && param.schema.get("type").is_none()
    {
        return ParamShape::List(quote!(String));
    }
    let readable = param.object_style().is_some_and(|style| style.readable());
    match struct_type(api, &param.ty) {
        Some(ty) if readable => ParamShape::Object(ty),
        _ => match union_type(api, &param.ty) {
            Some(ty) if readable => ParamShape::ObjectOrScalar(ty),
            _ => type_shape(api, &param.ty),
        },
    }
}

/// The union a type names (through nullability and aliases), unless one of its alternatives
/// is a list (those travel as lists of text: [`type_shape`]).
fn union_type(api: &Api, ty: &TypeRef) -> Option<TokenStream> {
    match ty {
        TypeRef::Nullable(inner) => union_type(api, inner),
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Union(union))
                if !union
                    .variants
                    .iter()
                    .any(|variant| is_list(api, &variant.ty)) =>
            {
                let name = super::types::ident(name);
                Some(quote!(crate::models::#name))
            }
            Some(TypeKind::Alias(inner)) => union_type(api, inner),
            _ => None,
        },
        _ => None,
    }
}

/// The shape of a parameter of type `ty`, as one value or a list.
fn type_shape(api: &Api, ty: &TypeRef) -> ParamShape {
    match ty {
        TypeRef::Nullable(inner) => type_shape(api, inner),
        // Items no text reads as one type (a union of an integer and a string, 3.1's
        // `type: [integer, string]`) are each their text: every value the list came with,
        // checked against the items' schema by the contract, not the first alone.
        TypeRef::Array(item) => ParamShape::List(item_type(api, item).unwrap_or(quote!(String))),
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Newtype(inner)) | Some(TypeKind::Alias(inner)) => type_shape(api, inner),
            // One value or a list of them (PeerTube's `oneOf: [integer, {type: array, items:
            // integer}]`): a list of texts, one item when one value came, as the contract
            // reads it; one `String` would keep the first of `?c=1&c=2` and refuse `?c=1,2`.
            Some(TypeKind::Union(union))
                if union
                    .variants
                    .iter()
                    .any(|variant| is_list(api, &variant.ty)) =>
            {
                ParamShape::List(quote!(String))
            }
            _ => ParamShape::One(item_type(api, ty).unwrap_or_else(|| quote!(String))),
        },
        _ => ParamShape::One(item_type(api, ty).unwrap_or_else(|| quote!(String))),
    }
}

/// Whether a type is a list, through nullability and aliases.
fn is_list(api: &Api, ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Array(_) => true,
        TypeRef::Nullable(inner) => is_list(api, inner),
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Newtype(inner)) | Some(TypeKind::Alias(inner)) => is_list(api, inner),
            _ => false,
        },
        _ => false,
    }
}

/// The struct a type names (through nullability and aliases), or a map of values read from
/// text (`additionalProperties: {type: string}`), as a path from the server, client and
/// webhook modules.
fn struct_type(api: &Api, ty: &TypeRef) -> Option<TokenStream> {
    match ty {
        TypeRef::Nullable(inner) => struct_type(api, inner),
        // A free-form object (`{type: object}`, a JSON:API or Ransack filter): its members as
        // they came, text, or objects of text where their names nest (`filter[a][b]`).
        TypeRef::Object | TypeRef::Map(_) if free_form(ty) => {
            Some(quote!(::std::collections::BTreeMap<String, ::serde_json::Value>))
        }
        TypeRef::Map(value) => {
            let value = item_type(api, value)?;
            Some(quote!(::std::collections::BTreeMap<String, #value>))
        }
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Struct(_)) => {
                let name = super::types::ident(name);
                Some(quote!(crate::models::#name))
            }
            Some(TypeKind::Alias(inner)) => struct_type(api, inner),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a type is an object whose members the schema leaves free (no properties, any
/// values).
fn free_form(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Object => true,
        TypeRef::Map(value) => matches!(**value, TypeRef::Any | TypeRef::Object),
        _ => false,
    }
}

/// The type of one value read from text: a scalar or a string enum; `None` for anything
/// else (an object, a list, a union), which a parameter passes as text.
fn item_type(api: &Api, ty: &TypeRef) -> Option<TokenStream> {
    match ty {
        TypeRef::Scalar(Scalar::Base64) => Some(quote!(String)),
        TypeRef::Scalar(scalar) => Some(scalar_type(*scalar)),
        TypeRef::Nullable(inner) => item_type(api, inner),
        TypeRef::Named(name) => match api.type_named(name).map(|def| &def.kind) {
            Some(TypeKind::Enum(_)) => {
                let name = super::types::ident(name);
                Some(quote!(crate::models::#name))
            }
            Some(TypeKind::Newtype(inner)) | Some(TypeKind::Alias(inner)) => item_type(api, inner),
            _ => None,
        },
        _ => None,
    }
}

/// The Rust type of a JSON body.
pub(crate) fn body_type(ty: &TypeRef) -> Result<TokenStream> {
    rust_type(ty, &models_path())
}

/// A status code as an `http::StatusCode` expression: its named constant when it has a
/// common one (`StatusCode::CREATED`), else built from the number.
pub(crate) fn status_code(code: u16) -> TokenStream {
    match status_name(code) {
        Some(name) => {
            let name = quote::format_ident!("{name}");
            quote!(::http::StatusCode::#name)
        }
        None => {
            quote!(::http::StatusCode::from_u16(#code).unwrap_or(::http::StatusCode::INTERNAL_SERVER_ERROR))
        }
    }
}

/// The `http::StatusCode` constant of a status APIs commonly document.
fn status_name(code: u16) -> Option<&'static str> {
    Some(match code {
        200 => "OK",
        201 => "CREATED",
        202 => "ACCEPTED",
        203 => "NON_AUTHORITATIVE_INFORMATION",
        204 => "NO_CONTENT",
        205 => "RESET_CONTENT",
        206 => "PARTIAL_CONTENT",
        207 => "MULTI_STATUS",
        300 => "MULTIPLE_CHOICES",
        301 => "MOVED_PERMANENTLY",
        302 => "FOUND",
        303 => "SEE_OTHER",
        304 => "NOT_MODIFIED",
        307 => "TEMPORARY_REDIRECT",
        308 => "PERMANENT_REDIRECT",
        400 => "BAD_REQUEST",
        401 => "UNAUTHORIZED",
        402 => "PAYMENT_REQUIRED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        405 => "METHOD_NOT_ALLOWED",
        406 => "NOT_ACCEPTABLE",
        408 => "REQUEST_TIMEOUT",
        409 => "CONFLICT",
        410 => "GONE",
        411 => "LENGTH_REQUIRED",
        412 => "PRECONDITION_FAILED",
        413 => "PAYLOAD_TOO_LARGE",
        414 => "URI_TOO_LONG",
        415 => "UNSUPPORTED_MEDIA_TYPE",
        416 => "RANGE_NOT_SATISFIABLE",
        417 => "EXPECTATION_FAILED",
        422 => "UNPROCESSABLE_ENTITY",
        423 => "LOCKED",
        424 => "FAILED_DEPENDENCY",
        428 => "PRECONDITION_REQUIRED",
        429 => "TOO_MANY_REQUESTS",
        431 => "REQUEST_HEADER_FIELDS_TOO_LARGE",
        451 => "UNAVAILABLE_FOR_LEGAL_REASONS",
        500 => "INTERNAL_SERVER_ERROR",
        501 => "NOT_IMPLEMENTED",
        502 => "BAD_GATEWAY",
        503 => "SERVICE_UNAVAILABLE",
        504 => "GATEWAY_TIMEOUT",
        505 => "HTTP_VERSION_NOT_SUPPORTED",
        _ => return None,
    })
}

/// Whether a response covers success statuses: 2XX, and 3XX (an answer, not a failure).
/// What the server's and the client's struct of a response's headers share: its name, the
/// headers it holds, and its fields.
pub(crate) struct HeadersStruct<'r> {
    pub(crate) name: proc_macro2::Ident,
    pub(crate) headers: Vec<&'r ResponseHeader>,
    pub(crate) fields: Vec<TokenStream>,
}

/// The struct of the headers `response` documents that a handler sets and a client reads;
/// `None` when it documents none.
pub(crate) fn headers_struct(response: &Response) -> Option<HeadersStruct<'_>> {
    let headers: Vec<&ResponseHeader> = response.settable_headers().collect();
    if headers.is_empty() || response.headers_type.is_empty() {
        return None;
    }
    Some(HeadersStruct {
        name: quote::format_ident!("{}", response.headers_type),
        fields: header_fields(&headers),
        headers,
    })
}

/// The fields of a response's headers struct: each header as the text it goes as, `Option`
/// unless the response must carry it.
fn header_fields(headers: &[&ResponseHeader]) -> Vec<TokenStream> {
    headers
        .iter()
        .map(|header| {
            let field = super::types::ident(&header.field);
            let mut text = format!("Header `{}`.", header.name);
            if let Some(docs) = &header.docs {
                text.push_str("\n\n");
                text.push_str(docs.trim());
            }
            let docs = super::types::doc_attrs(Some(&text));
            if header.required {
                quote!(#docs pub #field: String,)
            } else {
                quote!(#docs pub #field: Option<String>,)
            }
        })
        .collect()
}

pub(crate) fn is_success(response: &Response) -> bool {
    // A documented redirect or `304 Not Modified` is an answer the caller asked for (a
    // conditional GET, Redo's 302-only admin links), not a failure with an error body.
    match response.status {
        StatusSpec::Code(code) => (200..400).contains(&code),
        StatusSpec::Range(class) => class == 2 || class == 3,
        StatusSpec::Default => false,
    }
}

/// Whether `op` documents no success at all: only errors, and no `default` (CallFire's
/// deletions document their 4xx and `500`, and say nothing of the `204` they answer; 250
/// operations of the APIs.guru directory). Such an operation succeeds by any 2xx, without a
/// body: the client returns `()`, and the server's response enum has a variant for it.
pub(crate) fn documents_no_success(op: &Operation) -> bool {
    !op.responses
        .iter()
        .any(|response| is_success(response) || response.status == StatusSpec::Default)
}

/// The body type most error responses share (the API's error body), if any.
pub(crate) fn error_body_type(api: &Api) -> Option<TypeRef> {
    crate::ir::error_envelope::error_body(api)
}

/// A path template as a `format!` string and the parameter identifiers it takes, in order:
/// `/accounts/{account_id}` → `"/accounts/{}"`, `[account_id]`.
pub(crate) fn path_format(op: &Operation) -> (String, Vec<&crate::ir::Parameter>) {
    let mut format = String::new();
    let mut params = Vec::new();
    // A template's appendix is no part of the path (see `crate::path::asks`); the fixed pairs
    // of its query that no parameter stands for are sent as they are written.
    let mut rest = crate::path::wire(&op.path);
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        format.push_str(&rest[..open].replace('{', "{{").replace('}', "}}"));
        let name = &rest[open + 1..open + close];
        match op
            .parameters
            .iter()
            .find(|p| p.location == ParamLocation::Path && p.name == name)
        {
            Some(param) => {
                format.push_str("{}");
                params.push(param);
            }
            None => format.push_str(&format!("{{{{{name}}}}}")),
        }
        rest = &rest[open + close + 1..];
    }
    format.push_str(&rest.replace('{', "{{").replace('}', "}}"));
    let declared = |name: &str| {
        op.parameters
            .iter()
            .any(|p| p.location == ParamLocation::Query && p.name == name)
    };
    let before_fragment = op.path.split('#').next().unwrap_or_default();
    let fixed: Vec<&str> = before_fragment
        .split_once('?')
        .map(|(_, query)| query)
        .into_iter()
        .flat_map(|query| query.split('&'))
        .filter(|item| {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            !name.is_empty() && !value.contains('{') && !declared(name)
        })
        .collect();
    if !fixed.is_empty() {
        format.push('?');
        format.push_str(&fixed.join("&").replace('{', "{{").replace('}', "}}"));
    }
    (format, params)
}
