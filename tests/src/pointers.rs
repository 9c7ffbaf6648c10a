//! JSON pointers and `$ref`s: escaping, building and decoding pointers, resolving a local
//! reference (explaining why one does not resolve), collecting and following references.

use serde_json::Value;

use crate::findings::Finding;

/// Escapes one JSON pointer reference token: `~` → `~0`, `/` → `~1`
/// (so `/banking/accounts` becomes `~1banking~1accounts`).
#[must_use]
pub fn escape_pointer_token(token: &str) -> String {
    specgen::load::escape_segment(token).into_owned()
}

/// Undoes [`escape_pointer_token`]: `~1` → `/`, then `~0` → `~`.
#[must_use]
pub fn unescape_pointer_token(token: &str) -> String {
    specgen::load::unescape_segment(token)
}

/// Appends one (unescaped) token to a JSON pointer.
#[must_use]
pub fn pointer_push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_pointer_token(token))
}

/// Builds a JSON pointer from unescaped tokens, e.g. `["paths", "/a"]` → `/paths/~1a`.
#[must_use]
pub fn pointer_from_tokens<S: AsRef<str>>(tokens: &[S]) -> String {
    tokens.iter().fold(String::new(), |pointer, token| {
        pointer_push(&pointer, token.as_ref())
    })
}

/// Percent-encodes a JSON pointer for use as a URI fragment: every byte that RFC 3986 does
/// not allow in a fragment (`{`, `}`, `%`, space, non-ASCII, …) becomes `%XX`.
#[must_use]
pub fn pointer_to_uri_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        let allowed = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte);
        if allowed {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes in a URI fragment.
///
/// # Errors
///
/// A `%` not followed by two hex digits, or bytes that are not UTF-8 once decoded.
pub fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = bytes
                .get(index + 1..index + 3)
                .and_then(|pair| std::str::from_utf8(pair).ok())
                .and_then(|pair| u8::from_str_radix(pair, 16).ok());
            match hex {
                Some(byte) => out.push(byte),
                None => {
                    return Err(format!(
                        "bad percent-encoding at byte {index} (`%` must be followed by two hex digits)"
                    ));
                }
            }
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent-decoded bytes are not UTF-8".to_string())
}

/// Resolves a local reference such as `#/components/schemas/Amount` in `document`,
/// decoding percent-escapes and then `~1`/`~0` as RFC 6901 §6 requires for JSON pointers
/// in URI fragments.
///
/// Returns the decoded JSON pointer of the target and the target itself.
///
/// # Errors
///
/// A message for a person: the reference is not of the form `#/…`, is badly encoded, or
/// names something the document does not have (saying which step of the pointer fails).
pub fn resolve_local_ref<'a>(
    document: &'a Value,
    reference: &str,
) -> Result<(String, &'a Value), String> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Err(format!(
            "`{reference}` is not a local reference: only `#/…` JSON pointers into this document are allowed"
        ));
    };
    if fragment.is_empty() {
        return Err(format!(
            "`{reference}` refers to the whole document, not to a component in it"
        ));
    }
    if !fragment.starts_with('/') {
        return Err(format!(
            "`{reference}` is a plain-name fragment (anchor), not a JSON pointer `#/…`"
        ));
    }
    let pointer = percent_decode(fragment).map_err(|error| format!("`{reference}`: {error}"))?;
    match document.pointer(&pointer) {
        Some(target) => Ok((pointer, target)),
        None => Err(format!(
            "`{reference}` does not resolve: {}",
            explain_missing(document, &pointer)
        )),
    }
}

/// Says which step of `pointer` fails in `document`, e.g. "`/components/schemas` has no
/// member `Amout`".
fn explain_missing(document: &Value, pointer: &str) -> String {
    let mut current = document;
    let mut walked = String::new();
    for raw in pointer.split('/').skip(1) {
        let token = unescape_pointer_token(raw);
        let shown = if walked.is_empty() {
            "the document root"
        } else {
            &walked
        };
        let next = match current {
            Value::Object(map) => match map.get(&token) {
                Some(next) => next,
                None => return format!("`{shown}` has no member `{token}`"),
            },
            Value::Array(items) => {
                let index = token
                    .parse::<usize>()
                    .ok()
                    .filter(|_| token == "0" || !token.starts_with('0'));
                match index.and_then(|index| items.get(index)) {
                    Some(next) => next,
                    None => {
                        return format!(
                            "`{shown}` is an array of {} item(s); `{token}` is not an index into it",
                            items.len()
                        );
                    }
                }
            }
            _ => return format!("`{shown}` is a {} and has no members", type_name(current)),
        };
        walked.push('/');
        walked.push_str(raw);
        current = next;
    }
    "the pointer is malformed".to_string()
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// One `$ref` in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefSite {
    /// JSON pointer of the `$ref` member itself, e.g. `/paths/~1a/get/requestBody/$ref`.
    pub location: String,
    /// The reference as written.
    pub target: String,
}

/// Every `$ref` in `document`: each string value of an object member named `$ref`,
/// anywhere in the tree, in document order. (A `$ref` whose value is not a string, such as
/// a schema property named `$ref`, is not a reference and is not collected.)
#[must_use]
pub fn collect_refs(document: &Value) -> Vec<RefSite> {
    fn walk(value: &Value, pointer: &str, out: &mut Vec<RefSite>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let child_pointer = pointer_push(pointer, key);
                    if let (true, Value::String(target)) = (key == "$ref", child) {
                        out.push(RefSite {
                            location: child_pointer,
                            target: target.clone(),
                        });
                    } else {
                        walk(child, &child_pointer, out);
                    }
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    walk(child, &format!("{pointer}/{index}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(document, "", &mut out);
    out
}

/// Check: every `$ref` in `document` is a local JSON pointer (`#/…`) that resolves.
/// Returns one finding per dangling or non-local reference, located at the `$ref` itself.
#[must_use]
pub fn dangling_refs(document: &Value) -> Vec<Finding> {
    collect_refs(document)
        .into_iter()
        .filter_map(|site| {
            resolve_local_ref(document, &site.target)
                .err()
                .map(|message| Finding::new(site.location, message))
        })
        .collect()
}

/// Follows a chain of Reference Objects (`{"$ref": "#/…"}`) starting at `value` (found at
/// `pointer`) until a non-reference object is reached.
///
/// Returns the pointer of the final target, the target, and (when at least one reference was
/// followed) the location of the first `$ref`.
///
/// # Errors
///
/// A finding at the failing `$ref`: dangling, non-local, or circular.
pub fn follow_refs<'a>(
    document: &'a Value,
    pointer: &str,
    value: &'a Value,
) -> Result<(String, &'a Value, Option<String>), Finding> {
    const MAX_HOPS: usize = 32;
    let mut current_pointer = pointer.to_string();
    let mut current = value;
    let mut via = None;
    for _ in 0..MAX_HOPS {
        let Some(Value::String(reference)) = current.get("$ref") else {
            return Ok((current_pointer, current, via));
        };
        let ref_location = pointer_push(&current_pointer, "$ref");
        let (target_pointer, target) = resolve_local_ref(document, reference)
            .map_err(|message| Finding::new(ref_location.clone(), message))?;
        via.get_or_insert(ref_location);
        current_pointer = target_pointer;
        current = target;
    }
    Err(Finding::new(
        pointer_push(pointer, "$ref"),
        format!("more than {MAX_HOPS} chained references (circular?)"),
    ))
}
