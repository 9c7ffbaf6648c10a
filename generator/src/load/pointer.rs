//! JSON pointers (RFC 6901), bare and as URI fragments (RFC 3986 §3.5).
//!
//! specgen writes every pointer it reports in fragment form (`#/a/b`) because
//! that is what users write in `$ref` and can search for. Fragment form
//! percent-decodes, so [`join`] percent-encodes `%` to keep a pointer it
//! builds decoding back to exactly the same keys; other characters are left
//! as they are so that pointers stay readable (`#/paths/~1pets~1{id}`).

use std::borrow::Cow;

use serde_json::Value;

/// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`. The workspace's one
/// escaper (specval's findings and the contract's `$ref`s use it too); borrowed when there is
/// nothing to escape, the common case.
pub fn escape_segment(s: &str) -> Cow<'_, str> {
    if !s.contains(['~', '/']) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace('~', "~0").replace('/', "~1"))
}

/// Undoes [`escape_segment`]. A `~` not followed by `0` or `1` is not a
/// valid escape; it is kept as written, since this is for turning reference
/// tokens back into names (see [`decode_pointer`] for strict parsing).
pub fn unescape_segment(s: &str) -> String {
    strict_unescape(s).unwrap_or_else(|| s.replace("~1", "/").replace("~0", "~"))
}

/// [`unescape_segment`] that rejects invalid escapes.
fn strict_unescape(s: &str) -> Option<String> {
    if !s.contains('~') {
        return Some(s.to_owned());
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Appends `segment` (an unescaped key or index) to `base`.
///
/// `base` may be in fragment form (`#`, `#/a`) or bare (``, `/a`); the
/// result has the same form. In fragment form `%` is percent-encoded so that
/// [`decode_pointer`] returns the original key.
pub fn join(base: &str, segment: &str) -> String {
    let escaped = escape_segment(segment);
    let mut out = String::with_capacity(base.len() + escaped.len() + 1);
    out.push_str(base);
    out.push('/');
    if base.starts_with('#') {
        push_fragment_segment(&mut out, &escaped);
    } else {
        out.push_str(&escaped);
    }
    out
}

/// Builds a fragment-form pointer (`#/a/b`) from unescaped segments.
pub fn encode_pointer<S: AsRef<str>>(segments: &[S]) -> String {
    let mut out = String::from("#");
    for segment in segments {
        out.push('/');
        push_fragment_segment(&mut out, &escape_segment(segment.as_ref()));
    }
    out
}

/// Splits a pointer into its unescaped segments.
///
/// Accepts fragment form (`#/a/b`, percent-decoded first) and bare form
/// (`/a/b`); `#` and the empty string are the root. `None` when the text is
/// not a pointer: missing leading `/`, a bad `~` escape, or percent-escapes
/// that do not decode to UTF-8.
pub fn decode_pointer(pointer: &str) -> Option<Vec<String>> {
    let bare = match pointer.strip_prefix('#') {
        Some(fragment) => Cow::Owned(percent_decode(fragment)?),
        None => std::borrow::Cow::Borrowed(pointer),
    };
    if bare.is_empty() {
        return Some(Vec::new());
    }
    let rest = bare.strip_prefix('/')?;
    rest.split('/').map(strict_unescape).collect()
}

/// Rewrites any accepted spelling of a pointer into the fragment form that
/// specgen reports, so that pointers can be compared as strings.
pub fn canonical_pointer(pointer: &str) -> Option<String> {
    decode_pointer(pointer).map(|segments| encode_pointer(&segments))
}

/// Looks up unescaped segments in a value: object keys, and array indices
/// written as RFC 6901 requires (decimal, no leading zeros).
pub(crate) fn resolve<'a, S: AsRef<str>>(root: &'a Value, segments: &[S]) -> Option<&'a Value> {
    let mut current = root;
    for segment in segments {
        let segment = segment.as_ref();
        current = match current {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(parse_index(segment)?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// Mutable counterpart of [`resolve`].
pub(crate) fn resolve_mut<'a, S: AsRef<str>>(
    root: &'a mut Value,
    segments: &[S],
) -> Option<&'a mut Value> {
    let mut current = root;
    for segment in segments {
        let segment = segment.as_ref();
        current = match current {
            Value::Object(map) => map.get_mut(segment)?,
            Value::Array(items) => items.get_mut(parse_index(segment)?)?,
            _ => return None,
        };
    }
    Some(current)
}

fn parse_index(segment: &str) -> Option<usize> {
    let well_formed = !segment.is_empty()
        && segment.bytes().all(|b| b.is_ascii_digit())
        && (segment == "0" || !segment.starts_with('0'));
    if well_formed {
        segment.parse().ok()
    } else {
        None
    }
}

fn push_fragment_segment(out: &mut String, escaped: &str) {
    for c in escaped.chars() {
        if c == '%' {
            out.push_str("%25");
        } else {
            out.push(c);
        }
    }
}

/// Decodes `%XX` escapes; `None` when the bytes are not UTF-8. A `%` not followed by two hex
/// digits is kept as written, since hand-written `$ref`s are often not strictly encoded.
pub fn percent_decode(s: &str) -> Option<String> {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(Cow::into_owned)
}

/// [`percent_decode`] that turns bytes that are not UTF-8 into U+FFFD: for text that must be
/// read whatever it holds (a recorded path, a file name in a `$ref`).
pub fn percent_decode_lossy(s: &str) -> String {
    // Most path segments hold no escape; copying them is a tenth of the decoder's cost, which
    // live checks pay on every request.
    if !s.contains('%') {
        return s.to_owned();
    }
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Turns a bare pointer built internally (already `~`-escaped) into the
/// fragment form used in reports.
pub(crate) fn fragment_from_bare(bare: &str) -> String {
    let mut out = String::with_capacity(bare.len() + 1);
    out.push('#');
    push_fragment_segment(&mut out, bare);
    out
}

/// Appends `/` and the escaped `segment` to a bare pointer, without the
/// temporary string of [`escape_segment`]; the walks over whole documents
/// call this for every node.
pub(crate) fn push_segment(bare: &mut String, segment: &str) {
    bare.push('/');
    for c in segment.chars() {
        match c {
            '~' => bare.push_str("~0"),
            '/' => bare.push_str("~1"),
            _ => bare.push(c),
        }
    }
}

/// Appends `/` and an array index to a bare pointer.
pub(crate) fn push_index(bare: &mut String, index: usize) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = write!(bare, "/{index}");
}
