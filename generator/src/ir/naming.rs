//! The naming pass: every Rust identifier in the IR is chosen here, at once, after the whole
//! document has been read. Names are Rust-safe (keywords, leading digits, symbols), inline
//! types are named from their context, and collisions are resolved deterministically — a
//! synthesized name gets a numeric suffix in document order — or, between names the spec
//! author chose, reported as an error. Nothing is merged silently.

use std::collections::{HashMap, HashSet};

use heck::{ToSnakeCase, ToUpperCamelCase};
use indexmap::IndexMap;

use super::*;
use crate::error::{Error, Result};

/// A type that will be declared, before it has a name: what the builder found, and where
/// its name is to come from.
pub(crate) struct Slot {
    pub hint: NameHint,
    pub def: TypeDef,
}

/// Where a type's name comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NameHint {
    /// A component schema: the author's name, which must not collide.
    Component(String),
    /// An inline schema under another named type (its property, variant or value).
    Child {
        /// Pointer of the parent type's schema.
        parent: String,
        /// What the schema is to the parent (property name, `Item`, ...).
        suffix: String,
    },
    /// Words to join, e.g. an operation id and `Request`.
    Words(Vec<String>),
    /// Another hint with a suffix (array items, map values).
    Suffixed(Box<NameHint>, String),
}

impl NameHint {
    /// The hint of a schema under the type at `parent`.
    pub(crate) fn child_of(parent: &str, suffix: &str) -> NameHint {
        NameHint::Child {
            parent: parent.to_string(),
            suffix: suffix.to_string(),
        }
    }

    /// This hint followed by a word.
    pub(crate) fn suffixed(&self, suffix: &str) -> NameHint {
        NameHint::Suffixed(Box::new(self.clone()), suffix.to_string())
    }
}

/// Segments of a pointer that say where something is, not what it is.
const STRUCTURAL: &[&str] = &[
    "#",
    "components",
    "schemas",
    "responses",
    "requestBodies",
    "parameters",
    "headers",
    "content",
    "schema",
    "properties",
    "items",
    "paths",
    "webhooks",
    "allOf",
    "anyOf",
    "oneOf",
    "additionalProperties",
    "$defs",
];

/// A hint for a schema reached through a `$ref` that is not a component schema: the
/// meaningful segments of its pointer (`#/components/responses/Gone/content/…/schema` → `Gone`).
pub(crate) fn hint_from_pointer(pointer: &str) -> NameHint {
    let words: Vec<String> = pointer
        .split('/')
        .map(crate::load::unescape_segment)
        .filter(|s| !STRUCTURAL.contains(&s.as_str()) && !s.contains('/'))
        .collect();
    let start = words.len().saturating_sub(2);
    NameHint::Words(words[start..].to_vec())
}

/// A word for a response status: the reason phrase for known codes.
pub(crate) fn status_word(status: StatusSpec) -> String {
    match status {
        StatusSpec::Code(code) => match reason_phrase(code) {
            Some(reason) => reason.to_upper_camel_case(),
            None => format!("Status{code}"),
        },
        StatusSpec::Range(class) => match class {
            1 => "Informational".into(),
            2 => "Success".into(),
            3 => "Redirection".into(),
            4 => "ClientError".into(),
            _ => "ServerError".into(),
        },
        StatusSpec::Default => "Default".into(),
    }
}

fn reason_phrase(code: u16) -> Option<&'static str> {
    Some(match code {
        100 => "Continue",
        101 => "Switching Protocols",
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "Non Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => return None,
    })
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Names the generated code uses unqualified; a type may not take them.
const RESERVED_TYPES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "Self",
    "From",
    "Into",
    "Default",
    "Clone",
    "Copy",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Debug",
    "Send",
    "Sync",
    "Sized",
    "ToString",
    "ToOwned",
    "Iterator",
    "AsRef",
    "Drop",
    "Fn",
];

/// Splits on anything that is not an ASCII letter or digit, so heck sees clean words.
fn words_only(raw: &str) -> String {
    // Transliterate first so that `größe` reads `grosse`, not `gr_e`.
    deunicode::deunicode(raw)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}

/// A PascalCase type or variant name; `fallback` when nothing usable remains.
pub(crate) fn pascal(raw: &str, fallback: &str) -> String {
    let mut name = words_only(raw).to_upper_camel_case();
    if name.is_empty() {
        name = fallback.to_string();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("{fallback}{name}");
    }
    if name == "Self" {
        name.push_str("Value");
    }
    name
}

/// An enum variant's name: its value in PascalCase, with the signs that would be lost spelt
/// out (GitHub's reactions `+1` and `-1` are `Plus1` and `Minus1`, not `Value1` and a
/// numbered `Value12`) and the empty string `Empty`.
fn enum_variant_name(wire: &str) -> String {
    if wire.is_empty() {
        return "Empty".into();
    }
    pascal(&signs_spelt(wire), "Value")
}

/// A name with a leading sign that a Rust name would lose spelt out: `+1` is `plus 1`, `-1`
/// `minus 1`, `+` and `-` alone `plus` and `minus`.
fn signs_spelt(wire: &str) -> std::borrow::Cow<'_, str> {
    match wire.as_bytes() {
        [b'+', next, ..] if next.is_ascii_alphanumeric() => format!("plus {}", &wire[1..]).into(),
        [b'-', next, ..] if next.is_ascii_digit() => format!("minus {}", &wire[1..]).into(),
        // A sign alone (a sort order's `+` and `-`).
        b"+" => "plus".into(),
        b"-" => "minus".into(),
        _ => wire.into(),
    }
}

/// A parameter name that ends in a comparison with it spelt out, as Twilio's own libraries
/// name them: `DateSent<` is `DateSent before` and `DateSent>` `DateSent after` (they were
/// `date_sent_2` and `date_sent_3`, which did not say which bound was which).
fn bounds_spelt(wire: &str) -> std::borrow::Cow<'_, str> {
    let bare = wire.trim_end_matches('=');
    match (bare.strip_suffix('<'), bare.strip_suffix('>')) {
        (Some(name), _) if !name.is_empty() => format!("{name} before").into(),
        (_, Some(name)) if !name.is_empty() => format!("{name} after").into(),
        _ => wire.into(),
    }
}

/// A snake_case field, function or parameter name.
pub(crate) fn snake(raw: &str, fallback: &str) -> String {
    let mut name = words_only(raw).to_snake_case();
    if name.is_empty() {
        name = fallback.to_string();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("{fallback}_{name}");
    }
    // Keywords cannot be identifiers; clippy's `disallowed_names` (placeholder names) would
    // flag a binding of a parameter a real API calls `foo`.
    if KEYWORDS.contains(&name.as_str()) || PLACEHOLDERS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// Whether `raw` is already the snake_case name [`snake`] makes of it (a keyword's `_` aside).
fn is_snake_as_written(raw: &str) -> bool {
    words_only(raw).to_snake_case() == raw
}

/// Names clippy's `disallowed_names` lint rejects for bindings by default.
const PLACEHOLDERS: &[&str] = &["foo", "baz", "quux"];

/// Hands out names unique within one scope: the first taker keeps a name, later ones get
/// `2`, `3`, … (with `sep` before the number).
struct Scope {
    taken: HashSet<String>,
    sep: &'static str,
}

impl Scope {
    fn new(sep: &'static str) -> Scope {
        Scope {
            taken: HashSet::new(),
            sep,
        }
    }

    fn claim(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        // `type_` numbers as `type_2`, not `type__2`, which rustc would flag.
        let stem = base.trim_end_matches('_').to_string();
        (2..)
            .map(|n| format!("{stem}{}{n}", self.sep))
            .find(|candidate| self.taken.insert(candidate.clone()))
            .unwrap_or(base)
    }
}

/// Assigns every name in the IR and moves the declared types into `api.types`, sorted.
///
/// `redirects` maps pointers that name no slot of their own to the pointer whose type stands
/// for them (a component that is only a nullable or one-part wrapper around an inline schema
/// is that schema's type). Returns what was renamed to resolve a clash, as (pointer, message).
pub(crate) fn assign(
    api: &mut Api,
    slots: IndexMap<String, Slot>,
    redirects: &HashMap<String, String>,
) -> Result<Vec<(String, String)>> {
    let bases = base_names(&slots);
    let mut renamed = Vec::new();

    // Author-chosen names first. Where two components make the same Rust name
    // (`country_code`, `CountryCode`), the one written exactly as the Rust name keeps it,
    // then the first in document order; the others are numbered, whatever order the
    // document lists them in.
    let mut types = Scope::new("");
    let mut by_pointer: HashMap<String, String> = HashMap::new();
    let mut groups: IndexMap<&String, Vec<(bool, &String)>> = IndexMap::new();
    for (pointer, slot) in &slots {
        if let NameHint::Component(raw) = &slot.hint {
            let base = &bases[pointer];
            groups.entry(base).or_default().push((raw != base, pointer));
        }
    }
    for (base, members) in &mut groups {
        // Stable: among equally exact names, document order decides.
        members.sort_by_key(|(inexact, _)| *inexact);
        types.taken.insert((*base).clone());
        by_pointer.insert(members[0].1.clone(), (*base).clone());
    }
    for (base, members) in &groups {
        for (_, pointer) in &members[1..] {
            let name = types.claim((*base).clone());
            renamed.push((
                (*pointer).clone(),
                format!(
                    "`{base}` is taken by {}; this component is generated as `{name}`",
                    members[0].1
                ),
            ));
            by_pointer.insert((*pointer).clone(), name);
        }
    }
    for (pointer, slot) in &slots {
        if !matches!(slot.hint, NameHint::Component(_)) {
            let name = types.claim(bases[pointer].clone());
            by_pointer.insert(pointer.clone(), name);
        }
    }
    for (from, to) in redirects {
        if let Some(name) = by_pointer.get(to).cloned() {
            by_pointer.insert(from.clone(), name);
        }
    }

    let mut declared = Vec::with_capacity(slots.len());
    for (pointer, slot) in slots {
        let mut def = slot.def;
        def.name = by_pointer[&pointer].clone();
        rename_kind(&def.name, &mut def.kind, &by_pointer)?;
        declared.push(def);
    }
    declared.sort_by(|a, b| a.name.cmp(&b.name));
    api.types = declared;

    // Operation ids were made unique as Rust names by the builder; a webhook may still share
    // a name with an operation, and is numbered then.
    let mut functions = Scope::new("_");
    // Operations are methods of the generated `Client`, and webhooks of the `Sender`, beside
    // those types' own (XTRF's operation `send` made every call ambiguous).
    functions
        .taken
        .extend(OWN_METHODS.iter().map(|name| name.to_string()));
    for op in api
        .operations
        .iter_mut()
        .chain(api.webhooks.iter_mut().map(|hook| &mut hook.operation))
    {
        let base = snake(&op.id, "operation");
        let fn_name = functions.claim(base.clone());
        if fn_name != base {
            renamed.push((
                op.pointer.clone(),
                format!(
                    "`{base}` is taken by another operation or by a method of the client or \
                     the sender; this one is generated as `{fn_name}`"
                ),
            ));
        }
        op.type_prefix = pascal(&fn_name, "Operation");
        op.fn_name = fn_name;
        rename_operation(op, &by_pointer)?;
    }
    name_header_types(&mut api.operations);

    for example in &mut api.schema_examples {
        rename_ref(&mut example.ty, &by_pointer)?;
    }

    let mut credentials = Scope::new("_");
    for scheme in &mut api.security_schemes {
        // `OAuth2Security` reads `oauth2_security`, not `o_auth2_security`. Only for the
        // kinds first carried by this version (OAuth 2, OpenID Connect, Basic): an API key
        // or a bearer scheme keeps the field name its users already write.
        let key = match scheme.kind {
            SecurityKind::Basic | SecurityKind::Http(_) | SecurityKind::Other(_) => scheme
                .key
                .replace("OAuth", "Oauth")
                .replace("oAuth", "oauth"),
            SecurityKind::ApiKey { .. } | SecurityKind::Bearer => scheme.key.clone(),
        };
        scheme.rust_name = credentials.claim(snake(&key, "credential"));
    }
    Ok(renamed)
}

fn base_names(slots: &IndexMap<String, Slot>) -> HashMap<String, String> {
    fn base(
        pointer: &str,
        slots: &IndexMap<String, Slot>,
        memo: &mut HashMap<String, String>,
        depth: usize,
    ) -> String {
        if let Some(done) = memo.get(pointer) {
            return done.clone();
        }
        let name = match slots.get(pointer) {
            Some(slot) => from_hint(&slot.hint, slots, memo, depth),
            None => from_hint(&hint_from_pointer(pointer), slots, memo, depth),
        };
        memo.insert(pointer.to_string(), name.clone());
        name
    }
    fn from_hint(
        hint: &NameHint,
        slots: &IndexMap<String, Slot>,
        memo: &mut HashMap<String, String>,
        depth: usize,
    ) -> String {
        let raw = match hint {
            NameHint::Component(name) => {
                let name = pascal(name, "Type");
                return if RESERVED_TYPES.contains(&name.as_str()) {
                    format!("{name}Model")
                } else {
                    name
                };
            }
            NameHint::Child { parent, suffix } if depth < 32 => {
                format!("{} {suffix}", base(parent, slots, memo, depth + 1))
            }
            NameHint::Child { suffix, .. } => suffix.clone(),
            NameHint::Words(words) => words.join(" "),
            NameHint::Suffixed(inner, suffix) => {
                format!("{} {suffix}", from_hint(inner, slots, memo, depth + 1))
            }
        };
        let name = pascal(&raw, "Type");
        if RESERVED_TYPES.contains(&name.as_str()) {
            format!("{name}Type")
        } else {
            name
        }
    }
    let mut memo = HashMap::new();
    for pointer in slots.keys() {
        base(pointer, slots, &mut memo, 0);
    }
    memo
}

fn rename_ref(ty: &mut TypeRef, names: &HashMap<String, String>) -> Result<()> {
    match ty {
        TypeRef::Pointer(pointer) => {
            let name = names
                .get(pointer.as_str())
                .ok_or_else(|| Error::Unsupported {
                    pointer: pointer.clone(),
                    location: None,
                    construct: "$ref".into(),
                    message: "this schema refers to itself outside components/schemas; move it \
                          under components/schemas to give it a name"
                        .into(),
                })?;
            *ty = TypeRef::Named(name.clone());
        }
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
            rename_ref(inner, names)?
        }
        TypeRef::Named(_)
        | TypeRef::Scalar(_)
        | TypeRef::Object
        | TypeRef::Any
        | TypeRef::Custom(_) => {}
    }
    Ok(())
}

fn rename_kind(owner: &str, kind: &mut TypeKind, names: &HashMap<String, String>) -> Result<()> {
    match kind {
        TypeKind::Struct(def) => {
            let mut scope = Scope::new("_");
            // A member spelt as its Rust name (`type`, `a_b`) keeps it; one that only reads
            // so (`@type`, `a.b`) is numbered, whatever the order the document lists them in:
            // numbering `type` would hand its name, and a user's `.type_`, to `@type`.
            for exact in [true, false] {
                for field in &mut def.fields {
                    if is_snake_as_written(&field.wire_name) == exact {
                        // GitHub's reaction counts `+1` and `-1` are `plus_1` and `minus_1`,
                        // as the enum's variants are `Plus1` and `Minus1`.
                        field.rust_name =
                            scope.claim(snake(&signs_spelt(&field.wire_name), "field"));
                    }
                }
            }
            for field in &mut def.fields {
                rename_ref(&mut field.ty, names)?;
            }
            def.additional_name = scope.claim("additional_properties".into());
            if let Additional::Typed(ty) = &mut def.additional {
                rename_ref(ty, names)?;
            }
        }
        TypeKind::Enum(def) => {
            let mut scope = Scope::new("");
            for variant in &mut def.variants {
                variant.rust_name = scope.claim(enum_variant_name(&variant.wire));
            }
            def.catch_all = scope.claim("Unknown".into());
        }
        TypeKind::Union(def) => {
            let mut scope = Scope::new("");
            for variant in &mut def.variants {
                rename_ref(&mut variant.ty, names)?;
                // A variant the builder named (a subtype that holds its base's struct) keeps
                // that name; the others are named after what they hold.
                let full = match variant.rust_name.is_empty() {
                    true => variant_name(&variant.ty),
                    false => pascal(&variant.rust_name, "Variant"),
                };
                let short = full
                    .strip_prefix(owner)
                    .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                    .map(str::to_string)
                    .unwrap_or(full);
                variant.rust_name = scope.claim(short);
            }
            def.catch_all = scope.claim("Unknown".into());
        }
        TypeKind::Newtype(ty) | TypeKind::Alias(ty) => rename_ref(ty, names)?,
    }
    Ok(())
}

/// A union variant is named after what it holds.
fn variant_name(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(name) => name.clone(),
        TypeRef::Pointer(_) => unreachable!("a variant's type is named before its variant"),
        TypeRef::Scalar(scalar) => format!("{scalar:?}"),
        TypeRef::Array(inner) => format!("{}List", variant_name(inner)),
        TypeRef::Map(inner) => format!("{}Map", variant_name(inner)),
        TypeRef::Nullable(inner) => variant_name(inner),
        TypeRef::Object => "Object".into(),
        TypeRef::Any => "Value".into(),
        TypeRef::Custom(path) => pascal(path.rsplit("::").next().unwrap_or(path), "Custom"),
    }
}

/// Methods the generated `Client` and webhook `Sender` have of their own (runtime files
/// `client.rs` and `webhooks.rs`), which no operation's method may share.
const OWN_METHODS: [&str; 5] = ["new", "builder", "send", "with_client", "deliver"];

fn rename_operation(op: &mut Operation, names: &HashMap<String, String>) -> Result<()> {
    let mut params = Scope::new("_");
    // The request body travels beside the parameters, as `body`.
    if op.request_body.is_some() {
        params.taken.insert("body".into());
    }
    // A secured operation's inputs hold the caller's `credentials` beside its parameters, and
    // the generated handler reads them with its `credentials` function (Flat.io's path
    // parameter `credentials` took both names).
    if !op.security.is_empty() {
        params.taken.insert("credentials".into());
    }
    for param in &mut op.parameters {
        param.rust_name = params.claim(snake(&bounds_spelt(&param.name), "param"));
        rename_ref(&mut param.ty, names)?;
    }
    if let Some(body) = &mut op.request_body {
        rename_ref(&mut body.ty, names)?;
    }
    let mut variants = Scope::new("");
    for response in &mut op.responses {
        response.variant = variants.claim(status_word(response.status));
        if let Some(body) = &mut response.body {
            rename_ref(&mut body.ty, names)?;
        }
        let mut fields = Scope::new("_");
        for header in &mut response.headers {
            header.field = fields.claim(snake(&header.name, "header"));
        }
    }
    Ok(())
}

/// Names each response's headers struct, `{operation}{variant}Headers`, unique beside the
/// other types the server and client modules declare per operation (`…Params`,
/// `…Response`, `…Success`).
fn name_header_types(operations: &mut [Operation]) {
    let mut scope = Scope::new("");
    for op in operations.iter() {
        for suffix in ["Params", "Response", "Success"] {
            scope.taken.insert(format!("{}{suffix}", op.type_prefix));
        }
    }
    for op in operations {
        for response in &mut op.responses {
            if response.settable_headers().next().is_some() {
                response.headers_type =
                    scope.claim(format!("{}{}Headers", op.type_prefix, response.variant));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_rust_safe() {
        assert_eq!(snake("type", "field"), "type_");
        assert_eq!(snake("self", "field"), "self_");
        assert_eq!(snake("2fa-code", "field"), "field_2fa_code");
        assert_eq!(snake("x-idempotency-key", "p"), "x_idempotency_key");
        assert_eq!(snake("$$$", "field"), "field");
        assert_eq!(pascal("ACH_STANDARD", "Value"), "AchStandard");
        assert_eq!(pascal("2XX", "Value"), "Value2xx");
        assert_eq!(pascal("", "Value"), "Value");
        assert_eq!(pascal("self", "Value"), "SelfValue");
        assert_eq!(snake("größe", "field"), "grosse");
        assert_eq!(snake(&signs_spelt("+1"), "field"), "plus_1");
        assert_eq!(snake(&signs_spelt("-1"), "field"), "minus_1");
        assert_eq!(snake(&signs_spelt("-x"), "field"), "x");
        assert_eq!(snake("foo", "field"), "foo_");
    }

    /// OAuth reads as one word in the credentials' field names; an API key's or a bearer
    /// scheme's name stays as earlier versions gave it.
    #[test]
    fn credential_fields_read_oauth_as_one_word() {
        let doc = crate::load::load_str(
            r#"
openapi: 3.1.0
info: {title: Names, version: "1"}
security: [{OAuth2Security: []}, {oAuthToken: []}, {basicAuth: []}, {OAuthBearer: []}]
paths: {}
components:
  securitySchemes:
    OAuth2Security: {type: oauth2, flows: {implicit: {authorizationUrl: 'https://a', scopes: {}}}}
    oAuthToken: {type: openIdConnect, openIdConnectUrl: 'https://a'}
    basicAuth: {type: http, scheme: basic}
    OAuthBearer: {type: http, scheme: bearer}
"#,
            "names.yaml",
        )
        .expect("the document loads");
        let api = crate::build_ir(&doc, &crate::Options::default()).expect("it builds");
        let names: Vec<&str> = api
            .security_schemes
            .iter()
            .map(|scheme| scheme.rust_name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "oauth2_security",
                "oauth_token",
                "basic_auth",
                "o_auth_bearer"
            ]
        );
    }

    /// `@type` listed before `type` (JSON-LD) does not take `type`'s name: the member spelt
    /// as its Rust name keeps it, and the other is numbered.
    #[test]
    fn a_member_spelt_as_its_rust_name_keeps_it() {
        let doc = crate::load::load_str(
            r#"
openapi: 3.1.0
info: {title: Names, version: "1"}
paths: {}
components:
  schemas:
    Thing:
      type: object
      properties:
        "@type": {type: string}
        type: {type: string}
        "a.b": {type: string}
        a_b: {type: integer}
        "@id": {type: string}
"#,
            "names.yaml",
        )
        .expect("the document loads");
        let api = crate::build_ir(&doc, &crate::Options::default()).expect("it builds");
        let TypeKind::Struct(thing) = &api.types[0].kind else {
            panic!("{:?}", api.types[0].kind);
        };
        let names: Vec<(&str, &str)> = thing
            .fields
            .iter()
            .map(|field| (field.wire_name.as_str(), field.rust_name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("@type", "type_2"),
                ("type", "type_"),
                ("a.b", "a_b_2"),
                ("a_b", "a_b"),
                ("@id", "id"),
            ]
        );
    }

    #[test]
    fn parameters_named_with_a_bound_spell_it_out() {
        assert_eq!(
            snake(&bounds_spelt("DateSent<"), "param"),
            "date_sent_before"
        );
        assert_eq!(
            snake(&bounds_spelt("StartTime>"), "param"),
            "start_time_after"
        );
        assert_eq!(snake(&bounds_spelt("DateSent"), "param"), "date_sent");
        assert_eq!(snake(&bounds_spelt("<"), "param"), "param");
    }

    #[test]
    fn variants_spell_out_signs_and_the_empty_value() {
        assert_eq!(enum_variant_name("+1"), "Plus1");
        assert_eq!(enum_variant_name("-1"), "Minus1");
        assert_eq!(enum_variant_name("-"), "Minus");
        assert_eq!(enum_variant_name("+"), "Plus");
        assert_eq!(enum_variant_name("*"), "Value");
        assert_eq!(enum_variant_name("a-b"), "AB");
        assert_eq!(enum_variant_name(""), "Empty");
        assert_eq!(enum_variant_name("sepa credit"), "SepaCredit");
    }

    #[test]
    fn a_scope_numbers_later_takers_in_order() {
        let mut scope = Scope::new("_");
        assert_eq!(scope.claim("a".into()), "a");
        assert_eq!(scope.claim("a".into()), "a_2");
        assert_eq!(scope.claim("a".into()), "a_3");
    }

    #[test]
    fn statuses_read_as_words() {
        assert_eq!(status_word(StatusSpec::Code(201)), "Created");
        assert_eq!(status_word(StatusSpec::Code(299)), "Status299");
        assert_eq!(status_word(StatusSpec::Range(2)), "Success");
    }

    #[test]
    fn pointer_hints_keep_the_meaningful_segments() {
        assert_eq!(
            hint_from_pointer("#/components/responses/Gone/content/application~1json/schema"),
            NameHint::Words(vec!["Gone".into()])
        );
    }
}
