//! Matching a request path against an operation's path template.
//!
//! axum routes by whole segments and refuses a segment that mixes text and a parameter
//! (`/v1/{name}:cancel`, `/files/{id}.json`, common in real APIs), and two routes of the same
//! shape whose parameters are named differently. The generated router therefore routes by
//! position only, and each operation's handler reads its parameters by matching the path
//! against its own template here.
//!
//! This module is copied into the server of every generated crate (`server::path`); specgen
//! keeps it as an ordinary Rust file so that it is compiled and unit-tested as itself.

/// A path parameter's value, percent-decoded; `None` when the decoded bytes are not UTF-8.
pub type Decoded = Option<String>;

/// The parameters of `path` under `template`, each percent-decoded; `None` when the path does
/// not match. Within a segment, a parameter ends where the text after it begins, at the last
/// occurrence of that text when nothing follows it (`{name}:cancel` on `a:b:cancel` gives
/// `a:b`). Parameters are never empty.
pub fn params(template: &'static str, path: &str) -> Option<Vec<(&'static str, Decoded)>> {
    raw_params(template, path).map(|list| {
        list.into_iter()
            .map(|(name, raw)| (name, decode(raw)))
            .collect()
    })
}

/// [`params`] as they stand in the path, not decoded: the one rule of where a parameter
/// begins and ends, for whoever decodes them otherwise (specval matches recorded traffic with
/// it).
pub fn raw_params<'t, 'p>(template: &'t str, path: &'p str) -> Option<Vec<(&'t str, &'p str)>> {
    let mut params = Vec::new();
    if spans_segments(template) {
        let wanted: Vec<&'t str> = wire(template).split('/').collect();
        let given = segment_ranges(path);
        return spanning_from(&wanted, path, &given, &mut params).then_some(params);
    }
    let mut wanted = wire(template).split('/');
    let mut given = path.split('/');
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return Some(params),
            (Some(pattern), Some(text)) => {
                if !segment(pattern, text, &mut params) {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

/// Whether a template has a parameter that may fill several segments, written `{+name}` as
/// RFC 6570 writes reserved expansion: one whose value the document says is written as it is,
/// `/` included (Azure's `x-ms-skip-url-encoding` on `/{scope}/providers/…`, where the scope
/// is `subscriptions/1/resourceGroups/g`).
pub fn spans_segments(template: &str) -> bool {
    // Asked for every request a handler reads: most templates have no `{+` at all.
    template.contains("{+")
        && wire(template)
            .split('/')
            .any(|segment| spanning_name(segment).is_some())
}

/// `template` with each segment that begins with a parameter `spans` names, alone or followed
/// by text (`{name}`, `{name}:cancel`), written `{+name}` (see [`spans_segments`]): how the
/// server, the client and specval read a template whose document says a parameter's value is
/// written as it is.
pub fn spanning_template(template: &str, spans: impl Fn(&str) -> bool) -> String {
    // The appendix (`#disambiguation_dummy`, `?type=user`) is no segment.
    let (path, appendix) = template.split_at(wire(template).len());
    let path = path
        .split('/')
        .map(|segment| match leading_param(segment) {
            Some((name, suffix)) if spans(name) => format!("{{+{name}}}{suffix}"),
            _ => segment.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/");
    path + appendix
}

/// `template` with each segment right after the API's version that begins with a parameter
/// (`/v1/{name}`, `/v1/{name}:cancel`) written `{+name}`, as if that parameter might hold `/`;
/// `None` when no segment does.
///
/// OpenAPI forbids an unescaped `/` in a path parameter, yet documents converted from
/// Google's discovery format lost the `{+name}` their source wrote, so real traffic to
/// `/v1/{name}` reads `/v1/projects/p/locations/l`. specval tries this reading only for a
/// path that no template fits as written, to name the operation such a request meant
/// (and the parameter that broke the rule) instead of none.
pub fn slashed_template(template: &str) -> Option<String> {
    // Only a parameter right after the API's version (`/v1/{name}`, `/v1beta2/{parent}/…`,
    // Docker's `/v2/{name}/manifests/…`) is a resource name of several segments; one deeper
    // in the path (Azure's `…/capacities/{name}`) names one thing, and a longer path there
    // is another resource (`…/capacities/x/diagnosticSettings`), which no operation has.
    let (path, appendix) = template.split_at(wire(template).len());
    let segments: Vec<&str> = path.split('/').collect();
    let mut changed = false;
    let slashed: Vec<String> = segments
        .iter()
        .enumerate()
        .map(|(at, segment)| {
            let after_version = at > 0 && is_version(segments[at - 1]);
            match leading_param(segment) {
                Some((name, suffix)) if after_version => {
                    changed = true;
                    format!("{{+{name}}}{suffix}")
                }
                _ => segment.to_string(),
            }
        })
        .collect();
    changed.then(|| slashed.join("/") + appendix)
}

/// Whether a path segment names an API version: `v1`, `v2`, `v1beta1`, `v1alpha`, `v3p1beta1`.
pub fn is_version(segment: &str) -> bool {
    let Some(rest) = segment.strip_prefix('v') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A segment that begins with one parameter, then text without parameters: the name and the
/// text (`{name}:cancel` gives `name` and `:cancel`; `{id}` gives `id` and nothing).
fn leading_param(segment: &str) -> Option<(&str, &str)> {
    let rest = segment.strip_prefix('{')?;
    let (name, suffix) = rest.split_once('}')?;
    let plain = !name.is_empty() && !name.starts_with('+') && !name.contains('{');
    (plain && !suffix.contains(['{', '}'])).then_some((name, suffix))
}

/// The name of a segment that is one parameter filling any number of segments, and the text
/// that ends its last segment (`{+scope}` gives `scope` and nothing; `{+name}:cancel` gives
/// `name` and `:cancel`).
fn spanning_name(segment: &str) -> Option<(&str, &str)> {
    let (name, suffix) = segment.strip_prefix("{+")?.split_once('}')?;
    (!name.is_empty() && !name.contains('{') && !suffix.contains(['{', '}']))
        .then_some((name, suffix))
}

/// Whether a spanning parameter's value, as it stands in a path, holds a `.` or `..`
/// segment, written as it is, percent-encoded (`%2E%2E`) or behind an encoded `/`
/// (`a%2F..%2Fb`): a URL reads it as a move to another path, which the client refuses to
/// send; a request that carries one anyway names no operation's path (a handler checking the
/// scope's prefix would read `subscriptions/1/../2` as subscription 1).
pub fn holds_dot_segment(raw: &str) -> bool {
    let decoded = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
    decoded
        .split('/')
        .any(|segment| matches!(segment, "." | ".."))
}

/// Where each segment of `path` begins and ends.
fn segment_ranges(path: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (at, _) in path.match_indices('/') {
        ranges.push((start, at));
        start = at + 1;
    }
    ranges.push((start, path.len()));
    ranges
}

/// Matches the template's segments `wanted` against the segments of `path` at `given`,
/// adding the parameters to `params`. A spanning parameter takes as many segments as the rest
/// of the template leaves it, the most first (`/{+scope}/providers/{name}` on
/// `/a/providers/b/providers/c` gives the scope `a/providers/b`), and may be one empty
/// segment (Azure's empty `parentResourcePath`: `…/Microsoft.Web//sites/x`).
fn spanning_from<'t, 'p>(
    wanted: &[&'t str],
    path: &'p str,
    given: &[(usize, usize)],
    params: &mut Vec<(&'t str, &'p str)>,
) -> bool {
    let Some((pattern, rest)) = wanted.split_first() else {
        return given.is_empty();
    };
    let before = params.len();
    if let Some((name, suffix)) = spanning_name(pattern) {
        let most = given.len().saturating_sub(rest.len());
        for take in (1..=most).rev() {
            let (start, last) = (given[0].0, given[take - 1]);
            // The text ending the last segment (`:cancel`) is not the value's.
            let end = if suffix.is_empty() {
                last.1
            } else {
                match spelled_last(&path[last.0..last.1], suffix) {
                    Some((at, len)) if at > 0 && last.0 + at + len == last.1 => last.0 + at,
                    _ => continue,
                }
            };
            let value = &path[start..end];
            if holds_dot_segment(value) {
                continue;
            }
            params.push((name, value));
            if spanning_from(rest, path, &given[take..], params) {
                return true;
            }
            params.truncate(before);
        }
        return false;
    }
    let Some(&(start, end)) = given.first() else {
        return false;
    };
    if segment(pattern, &path[start..end], params) && spanning_from(rest, path, &given[1..], params)
    {
        return true;
    }
    params.truncate(before);
    false
}

/// The most ways [`raw_params_all`] lists.
const MOST_SPLITS: usize = 16;

/// Whether a path matching `template` may be split into its parameters in more than one way:
/// a segment where a parameter is followed by text and then another parameter
/// (`{name}.{ext}` on `a.b.json`).
pub fn ambiguous(template: &str) -> bool {
    wire(template).split('/').any(|segment| {
        segment
            .find('}')
            .is_some_and(|end| segment[end..].contains('{'))
    })
}

/// Every way `path` matches `template` (at most 16), [`raw_params`]'s first: where a segment
/// holds several parameters (`{name}.{ext}` on `a.b.json`), each place the text between them
/// is spelled gives one, so that a reader can keep the one whose values its schemas take
/// (`ext` an enum of `json` and `tar.gz`: `a.b` and `json`).
pub fn raw_params_all<'t, 'p>(template: &'t str, path: &'p str) -> Vec<Vec<(&'t str, &'p str)>> {
    if spans_segments(template) {
        return raw_params(template, path).into_iter().collect();
    }
    let wanted: Vec<&'t str> = wire(template).split('/').collect();
    let given: Vec<&'p str> = path.split('/').collect();
    if wanted.len() != given.len() {
        return Vec::new();
    }
    let mut all = vec![Vec::new()];
    for (pattern, text) in wanted.into_iter().zip(given) {
        let ways = segment_all(pattern, text, None);
        if ways.is_empty() {
            return Vec::new();
        }
        all = all
            .iter()
            .flat_map(|before: &Vec<(&'t str, &'p str)>| {
                ways.iter()
                    .map(move |way| before.iter().chain(way).copied().collect())
            })
            .take(MOST_SPLITS)
            .collect();
    }
    all
}

/// [`raw_params_all`], each percent-decoded.
pub fn params_all(template: &'static str, path: &str) -> Vec<Vec<(&'static str, Decoded)>> {
    raw_params_all(template, path)
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|(name, raw)| (name, decode(raw)))
                .collect()
        })
        .collect()
}

/// Every way one segment matches, in [`segment`]'s order of preference (the first place the
/// text after a parameter is spelled, the last when nothing follows that text); `open` is a
/// parameter whose end is not found yet.
fn segment_all<'t, 'p>(
    pattern: &'t str,
    text: &'p str,
    open: Option<&'t str>,
) -> Vec<Vec<(&'t str, &'p str)>> {
    if pattern.is_empty() {
        return match open {
            Some(name) if !text.is_empty() => vec![vec![(name, text)]],
            None if text.is_empty() => vec![Vec::new()],
            _ => Vec::new(),
        };
    }
    if let Some(after) = pattern.strip_prefix('{')
        && let Some(end) = after.find('}')
    {
        if open.is_some() {
            // Two parameters with nothing between: where one ends is unknowable.
            return Vec::new();
        }
        return segment_all(&after[end + 1..], text, Some(&after[..end]));
    }
    let next = pattern
        .char_indices()
        .skip(1)
        .find(|(_, c)| *c == '{')
        .map_or(pattern.len(), |(at, _)| at);
    let (literal, rest) = pattern.split_at(next);
    let Some(name) = open else {
        return match spelled_at_start(text, literal) {
            Some(len) => segment_all(rest, &text[len..], None),
            None => Vec::new(),
        };
    };
    let mut places: Vec<(usize, usize)> = (1..text.len())
        .filter(|at| text.is_char_boundary(*at))
        .filter_map(|at| ending_at_start(&text[at..], literal).map(|len| (at, len)))
        .collect();
    if rest.is_empty() {
        places.reverse();
    }
    places
        .into_iter()
        .flat_map(|(at, len)| {
            segment_all(rest, &text[at + len..], None)
                .into_iter()
                .map(move |mut after| {
                    after.insert(0, (name, &text[..at]));
                    after
                })
        })
        .take(MOST_SPLITS)
        .collect()
}

/// Matches one segment, adding its parameters to `params`.
fn segment<'t, 'p>(
    mut pattern: &'t str,
    mut text: &'p str,
    params: &mut Vec<(&'t str, &'p str)>,
) -> bool {
    let mut open: Option<&'t str> = None;
    while !pattern.is_empty() {
        if let Some(after) = pattern.strip_prefix('{')
            && let Some(end) = after.find('}')
        {
            if open.is_some() {
                // Two parameters with nothing between: where one ends is unknowable.
                return false;
            }
            open = Some(&after[..end]);
            pattern = &after[end + 1..];
            continue;
        }
        // Text up to the next parameter (a `{` without `}` is text).
        let next = pattern
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == '{')
            .map_or(pattern.len(), |(at, _)| at);
        let literal = &pattern[..next];
        pattern = &pattern[next..];
        match open.take() {
            None => match spelled_at_start(text, literal) {
                Some(len) => text = &text[len..],
                None => return false,
            },
            Some(name) => {
                let at = if pattern.is_empty() {
                    spelled_last(text, literal)
                } else {
                    spelled_first(text, literal)
                };
                match at {
                    Some((at, len)) if at > 0 => {
                        params.push((name, &text[..at]));
                        text = &text[at + len..];
                    }
                    _ => return false,
                }
            }
        }
    }
    match open {
        Some(name) if !text.is_empty() => {
            params.push((name, text));
            true
        }
        Some(_) => false,
        None => text.is_empty(),
    }
}

/// A template with its parameters' names left out (`/cards/{}`, `{}.json`): templates that
/// read the same so match the same paths, told apart by their values alone (Xero's
/// `/Contacts/{ContactID}` and `/Contacts/{ContactNumber}`).
pub fn route_shape(template: &str) -> String {
    let mut shape = String::with_capacity(template.len());
    let mut in_name = false;
    let mut name_starts = false;
    for c in template.chars() {
        match c {
            '{' => {
                in_name = true;
                name_starts = true;
                shape.push('{');
            }
            '}' => {
                in_name = false;
                shape.push('}');
            }
            // A spanning parameter (`{+scope}`) matches other paths than a plain one.
            '+' if name_starts => shape.push('+'),
            _ if !in_name => shape.push(c),
            _ => {}
        }
        name_starts &= c == '{';
    }
    shape
}

/// A template as a request carries it: without the query (`/search?type=user`) or fragment
/// (`/files/{file_id}#add_shared_link`, AWS's `/#Action=AddTags`) some specs append to tell
/// apart operations on one path, which no request has in its path.
pub fn wire(template: &str) -> &str {
    template.split(['?', '#']).next().unwrap_or_default()
}

/// What a template's appendix asks of a request, as `(name, value)`: a query parameter or a
/// header with that name, and that value unless the template leaves it to a variable
/// (`?lat={lat}`: `None`). Each item of a `?query`, and each item of a fragment, where items
/// are parted by `&`: a `name=value` pair (AWS's `#Action=AddTags` for the query parameter,
/// `#X-Amz-Target=Glue.GetJob` for the header; Azure's `#op=GRANTACE`), or a bare name that
/// `declares` says is one of the operation's query parameters or headers (S3's `#acl`,
/// `#partNumber&uploadId`, `#x-amz-copy-source`: the request must carry it, with any value).
/// A bare word the operation declares no parameter for (`#add_shared_link`, `#deprecated!`)
/// only tells the templates apart, and asks nothing. Names and values are percent-decoded.
pub fn asks(template: &str, declares: impl Fn(&str) -> bool) -> Vec<(String, Option<String>)> {
    let (before_fragment, fragment) = match template.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (template, None),
    };
    let text = |raw: &str| decode(raw).unwrap_or_else(|| raw.to_string());
    let pair = |name: &str, value: Option<&str>| {
        let value = value.filter(|value| !(value.starts_with('{') && value.ends_with('}')));
        (text(name), value.map(text))
    };
    let mut out: Vec<(String, Option<String>)> = before_fragment
        .split_once('?')
        .map(|(_, query)| query)
        .into_iter()
        .flat_map(|query| query.split('&'))
        .filter(|item| !item.is_empty())
        .map(|item| match item.split_once('=') {
            Some((name, value)) => pair(name, Some(value)),
            None => pair(item, None),
        })
        .collect();
    let items = fragment
        .into_iter()
        .flat_map(|fragment| fragment.split('&'));
    for item in items {
        match item.split_once('=') {
            Some((name, value)) if !name.is_empty() && !value.contains('=') => {
                out.push(pair(name, Some(value)));
            }
            Some(_) => {}
            None if !item.is_empty() && declares(&text(item)) => out.push(pair(item, None)),
            None => {}
        }
    }
    out
}

/// Whether a request meets what [`asks`] found: each name a query parameter (in `query`,
/// decoded) or a header (`header` looks one up, in any case) with the value asked for.
pub fn asks_met<N: AsRef<str>, V: AsRef<str>>(
    asked: &[(N, Option<V>)],
    query: &[(String, String)],
    header: &dyn Fn(&str) -> Option<String>,
) -> bool {
    asked.iter().all(|(name, wanted)| {
        let name = name.as_ref();
        let wanted = wanted.as_ref().map(AsRef::as_ref);
        let fits = |value: &str| wanted.is_none_or(|wanted| wanted == value);
        query.iter().any(|(key, value)| key == name && fits(value))
            || header(name).is_some_and(|value| fits(value.trim()))
    })
}

/// How many bytes at the start of `text` spell `literal`: each of its bytes as it is or
/// percent-encoded, in either case of hex. A template's text is written decoded (`/café`,
/// `/price list`), while a request path holds it as its client encoded it (`/caf%C3%A9`,
/// `/price%20list`; some encode more than they must, some in lower case, and
/// `encodeURIComponent` encodes the `@` of `/users/@{handle}`).
fn spelled_at_start(text: &str, literal: &str) -> Option<usize> {
    spelled(text, literal, false)
}

/// [`spelled_at_start`] for text that ends a parameter's value (`:cancel` after `{name}`): a
/// delimiter of RFC 3986 (`:`, `@`, `[`, `]`, and `/`, `?`, `#`) counts only as it is.
/// Encoded, it is data (RFC 3986, 2.2) and belongs to the value: `s%3Acancel` is the name
/// `s:cancel`, as the generated client writes a `:` of a value, not `s` and the verb.
fn ending_at_start(text: &str, literal: &str) -> Option<usize> {
    spelled(text, literal, true)
}

/// [`spelled_at_start`], where `delimiters_as_they_are` refuses an encoded delimiter.
fn spelled(text: &str, literal: &str, delimiters_as_they_are: bool) -> Option<usize> {
    if !text.contains('%') {
        return text.starts_with(literal).then_some(literal.len());
    }
    let text = text.as_bytes();
    let mut at = 0;
    for &byte in literal.as_bytes() {
        match *text.get(at)? {
            sent if sent == byte => at += 1,
            b'%' if delimiters_as_they_are && b":/?#[]@".contains(&byte) => return None,
            b'%' => {
                let hex = std::str::from_utf8(text.get(at + 1..at + 3)?).ok()?;
                if u8::from_str_radix(hex, 16).ok()? != byte {
                    return None;
                }
                at += 3;
            }
            _ => return None,
        }
    }
    Some(at)
}

/// Where `literal` is first spelled in `text` (see [`ending_at_start`]), and how long it is
/// there.
fn spelled_first(text: &str, literal: &str) -> Option<(usize, usize)> {
    if !text.contains('%') {
        return text.find(literal).map(|at| (at, literal.len()));
    }
    (0..text.len())
        .filter(|at| text.is_char_boundary(*at))
        .find_map(|at| ending_at_start(&text[at..], literal).map(|len| (at, len)))
}

/// Where `literal` is last spelled in `text`, and how long it is there.
fn spelled_last(text: &str, literal: &str) -> Option<(usize, usize)> {
    if !text.contains('%') {
        return text.rfind(literal).map(|at| (at, literal.len()));
    }
    (0..text.len())
        .rev()
        .filter(|at| text.is_char_boundary(*at))
        .find_map(|at| ending_at_start(&text[at..], literal).map(|len| (at, len)))
}

fn decode(raw: &str) -> Decoded {
    percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()
        .map(|text| text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::{ambiguous, asks, asks_met, params, params_all, route_shape, spans_segments};

    #[test]
    fn templates_differing_only_in_names_have_one_shape() {
        assert_eq!(route_shape("/cards/{cardId}"), "/cards/{}");
        assert_eq!(
            route_shape("/cards/{otherId}"),
            route_shape("/cards/{cardId}")
        );
        assert_eq!(route_shape("/v1/{name}:cancel"), "/v1/{}:cancel");
        assert_ne!(route_shape("/cards/{id}.json"), route_shape("/cards/{id}"));
    }

    #[test]
    fn text_a_client_percent_encodes_matches_however_it_was_encoded() {
        assert_eq!(got("/café/{id}", "/caf%C3%A9/1"), want(&[("id", "1")]));
        assert_eq!(got("/café/{id}", "/caf%c3%a9/1"), want(&[("id", "1")]));
        assert_eq!(got("/café/{id}", "/café/1"), want(&[("id", "1")]));
        assert_eq!(got("/price list", "/price%20list"), want(&[]));
        // An encoded delimiter is data: the verb's `:` comes as it is, and a name may hold
        // `%3A` (the generated client writes a `:` of a value so).
        assert_eq!(
            got("/{name}:cancel", "/a%3Ab:cancel"),
            want(&[("name", "a:b")])
        );
        assert_eq!(got("/{name}:cancel", "/a%3Ab%3Acancel"), None);
        assert_eq!(got("/{name}", "/s%3Aaccess"), want(&[("name", "s:access")]));
        // Text no value precedes may come encoded, delimiters too (`encodeURIComponent`).
        assert_eq!(got("/users/@me", "/users/%40me"), want(&[]));
        assert_eq!(
            got("/users/@{handle}", "/users/%40bob"),
            want(&[("handle", "bob")])
        );
        assert_eq!(got("/{id}.json", "/7%2Ejson"), want(&[("id", "7")]));
        assert_eq!(got("/café/{id}", "/cafe/1"), None);
        assert_eq!(got("/price list", "/price%2"), None);
    }

    #[test]
    fn a_template_appendix_is_not_part_of_the_path_but_asks_of_the_request() {
        assert_eq!(got("/search?type=user", "/search"), want(&[]));
        assert_eq!(
            got("/files/{file_id}#add_shared_link", "/files/7"),
            want(&[("file_id", "7")])
        );
        assert_eq!(got("/#Action=AddTags", "/"), want(&[]));
        let owned = |pairs: &[(&str, Option<&str>)]| -> Vec<(String, Option<String>)> {
            pairs
                .iter()
                .map(|(name, value)| (name.to_string(), value.map(str::to_string)))
                .collect()
        };
        let none = |_: &str| false;
        assert_eq!(
            asks("/alerts?lat={lat}&lon={lon}&units=m", none),
            owned(&[("lat", None), ("lon", None), ("units", Some("m"))])
        );
        assert_eq!(
            asks("/#X-Amz-Target=Glue.GetJob", none),
            owned(&[("X-Amz-Target", Some("Glue.GetJob"))])
        );
        assert_eq!(asks("/files/{file_id}#add_shared_link", none), owned(&[]));
        assert_eq!(
            asks("/catalog/acl#op=GRANT%20ACE", none),
            owned(&[("op", Some("GRANT ACE"))])
        );
        // S3: a fragment's bare words name the operation's own query parameters and headers,
        // which the request must carry; a word it declares nothing for asks nothing.
        let s3 = |name: &str| {
            [
                "acl",
                "select",
                "select-type",
                "partNumber",
                "uploadId",
                "x-amz-copy-source",
            ]
            .contains(&name)
        };
        assert_eq!(asks("/{Bucket}#acl", s3), owned(&[("acl", None)]));
        assert_eq!(
            asks("/{Bucket}/{Key}#select&select-type=2", s3),
            owned(&[("select", None), ("select-type", Some("2"))])
        );
        assert_eq!(
            asks("/{Bucket}/{Key}#x-amz-copy-source&partNumber&uploadId", s3),
            owned(&[
                ("x-amz-copy-source", None),
                ("partNumber", None),
                ("uploadId", None)
            ])
        );
        assert_eq!(
            asks("/{Bucket}#lifecycle&deprecated!", |name| name
                == "lifecycle"),
            owned(&[("lifecycle", None)])
        );
        assert_eq!(asks("/{Bucket}#acl", none), owned(&[]));
        let asked = asks("/search?type=user&q={q}", none);
        let query = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let no_header = |_: &str| None;
        assert!(asks_met(
            &asked,
            &query(&[("q", "x"), ("type", "user")]),
            &no_header
        ));
        assert!(!asks_met(
            &asked,
            &query(&[("q", "x"), ("type", "repo")]),
            &no_header
        ));
        assert!(!asks_met(&asked, &query(&[("type", "user")]), &no_header));
        let target = asks("/#X-Amz-Target=Glue.GetJob", none);
        let header = |name: &str| {
            name.eq_ignore_ascii_case("x-amz-target")
                .then(|| " Glue.GetJob".to_string())
        };
        assert!(asks_met(&target, &[], &header));
        assert!(!asks_met(&target, &[], &no_header));
        // A bare name is met by the parameter with any value, an empty one too (`?acl`), or
        // by the header.
        let acl = asks("/{Bucket}#acl", s3);
        assert!(asks_met(&acl, &query(&[("acl", "")]), &no_header));
        assert!(!asks_met(&acl, &query(&[("tagging", "")]), &no_header));
        let copy = asks("/{Bucket}/{Key}#x-amz-copy-source", s3);
        let source = |name: &str| (name == "x-amz-copy-source").then(|| "/b/k".to_string());
        assert!(asks_met(&copy, &[], &source));
        assert!(!asks_met(&copy, &[], &no_header));
    }

    /// The parameters as owned pairs, for comparing.
    fn got(template: &'static str, path: &str) -> Option<Vec<(String, Option<String>)>> {
        params(template, path).map(|list| {
            list.into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect()
        })
    }

    fn want(pairs: &[(&str, &str)]) -> Option<Vec<(String, Option<String>)>> {
        Some(
            pairs
                .iter()
                .map(|(name, value)| (name.to_string(), Some(value.to_string())))
                .collect(),
        )
    }

    #[test]
    fn whole_segment_parameters_are_decoded() {
        assert_eq!(
            got("/v1/accounts/{account_id}", "/v1/accounts/a%20b"),
            want(&[("account_id", "a b")])
        );
        assert_eq!(got("/v1/accounts/{id}", "/v1/accounts"), None);
        assert_eq!(got("/v1/accounts/{id}", "/v1/accounts/"), None);
        assert_eq!(got("/v1/a", "/v1/b"), None);
        assert_eq!(
            got("/v1/accounts/{id}", "/v1/accounts/%FF%FE"),
            Some(vec![("id".to_string(), None)]),
            "bytes that are not UTF-8 are told apart"
        );
    }

    #[test]
    fn a_spanning_parameter_takes_the_segments_the_rest_leaves_it() {
        let template = "/{+scope}/providers/Microsoft.Authorization/roleAssignments/{name}";
        assert!(spans_segments(template));
        assert!(!spans_segments("/v1/{scope}/x"));
        assert_eq!(
            got(
                template,
                "/subscriptions/1/resourceGroups/g%20h/providers/Microsoft.Authorization/roleAssignments/r"
            ),
            want(&[
                ("scope", "subscriptions/1/resourceGroups/g h"),
                ("name", "r")
            ])
        );
        assert_eq!(
            got(
                template,
                "/s/providers/Microsoft.Authorization/roleAssignments/r"
            ),
            want(&[("scope", "s"), ("name", "r")])
        );
        // The scope holds `providers` itself: it takes all it can.
        assert_eq!(
            got(
                template,
                "/a/providers/Microsoft.Authorization/roleAssignments/b/providers/Microsoft.Authorization/roleAssignments/c"
            ),
            want(&[
                (
                    "scope",
                    "a/providers/Microsoft.Authorization/roleAssignments/b"
                ),
                ("name", "c")
            ])
        );
        assert_eq!(
            got(
                template,
                "/providers/Microsoft.Authorization/roleAssignments/r"
            ),
            None,
            "a spanning parameter fills at least one segment"
        );
        assert_eq!(
            got(
                template,
                "/a/b/providers/Microsoft.Authorization/roleAssignments/r/x"
            ),
            None
        );
        // Two side by side, one empty (Azure's `parentResourcePath`).
        assert_eq!(
            got("/p/{+parent}/{+kind}/{name}", "/p//sites/x"),
            want(&[("parent", ""), ("kind", "sites"), ("name", "x")])
        );
        // Text after the parameter ends its last segment (Google's `{+name}:cancel`).
        assert_eq!(
            got("/v1/{+name}:cancel", "/v1/a/b:cancel"),
            want(&[("name", "a/b")])
        );
        assert_eq!(
            got("/v1/{+name}:cancel", "/v1/a:b/c:cancel"),
            want(&[("name", "a:b/c")])
        );
        assert_eq!(got("/v1/{+name}:cancel", "/v1/a/b:cancelled"), None);
        assert_eq!(got("/v1/{+name}:cancel", "/v1/a/:cancel"), None);
        assert_eq!(got("/v1/{+name}:cancel", "/v1/a/..:cancel"), None);
        assert_eq!(
            got("/v1/{+name}:cancel/{x}", "/v1/a/b:cancel/y"),
            want(&[("name", "a/b"), ("x", "y")])
        );
        // Encoded, the `:` is the name's own.
        assert_eq!(got("/v1/{+name}:cancel/{x}", "/v1/a/b%3Acancel/y"), None);
        assert_eq!(got("/{+next}", "/a/b/c"), want(&[("next", "a/b/c")]));
        for dotted in [
            "/a/../b/x",
            "/a/./x",
            "/a/%2E%2E/x",
            "/a%2F..%2Fb/x",
            "/../x",
        ] {
            assert_eq!(got("/{+scope}/x", dotted), None, "{dotted}");
        }
        assert_eq!(
            params_all("/{+next}", "/a/b").len(),
            1,
            "one way, the one `params` gives"
        );
        assert_eq!(
            route_shape(template),
            route_shape("/{+s}/providers/Microsoft.Authorization/roleAssignments/{n}")
        );
        assert_ne!(route_shape("/{+s}/x"), route_shape("/{s}/x"));
        assert_eq!(
            super::spanning_template("/{scope}/p/{name}/{x}.json/{a}.{b}", |name| name != "name"),
            "/{+scope}/p/{name}/{+x}.json/{a}.{b}"
        );
        assert_eq!(
            super::slashed_template("/v1/{name}:cancel/{id}/x?alt=json").as_deref(),
            Some("/v1/{+name}:cancel/{id}/x?alt=json")
        );
        assert_eq!(
            super::slashed_template("/v1beta2/{parent}/instances").as_deref(),
            Some("/v1beta2/{+parent}/instances")
        );
        assert_eq!(super::slashed_template("/v1/files/{a}.{b}"), None);
        assert_eq!(super::slashed_template("/{+scope}/x"), None);
        assert_eq!(super::slashed_template("/accounts/{id}"), None);
        assert_eq!(super::slashed_template("/{id}/x"), None);
        assert_eq!(super::slashed_template("/views/{id}"), None);
        assert_eq!(
            super::spanning_template("/{id}#disambiguation_dummy", |_| true),
            "/{+id}#disambiguation_dummy"
        );
    }

    #[test]
    fn parameters_sharing_a_segment_with_text() {
        assert_eq!(got("/v1/{name}:cancel", "/v1/ops/1:cancel"), None);
        assert_eq!(
            got("/v1/{name}:cancel", "/v1/op:1:cancel"),
            want(&[("name", "op:1")])
        );
        assert_eq!(got("/v1/{name}:cancel", "/v1/op:run"), None);
        assert_eq!(
            got("/files/{id}.{ext}", "/files/report.tar.gz"),
            want(&[("id", "report"), ("ext", "tar.gz")])
        );
        assert_eq!(got("/files/{id}.json", "/files/.json"), None);
        assert_eq!(got("/x/{a}{b}", "/x/ab"), None);
        assert_eq!(got("/é/{x}é", "/é/1é"), want(&[("x", "1")]));
    }

    /// Every split of a segment holding two parameters, the one `params` gives first; one
    /// parameter beside text has one.
    #[test]
    fn a_segment_of_two_parameters_is_split_every_way() {
        let all = |template: &'static str, path: &str| -> Vec<Vec<(&'static str, String)>> {
            params_all(template, path)
                .into_iter()
                .map(|list| {
                    list.into_iter()
                        .map(|(name, value)| (name, value.unwrap()))
                        .collect()
                })
                .collect()
        };
        let pairs = |list: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
            list.iter().map(|(n, v)| (*n, v.to_string())).collect()
        };
        assert!(ambiguous("/files/{name}.{ext}"));
        assert!(!ambiguous("/files/{name}.json"));
        assert!(!ambiguous("/v1/{name}:cancel/{id}"));
        assert_eq!(
            all("/files/{name}.{ext}", "/files/a.b.tar.gz"),
            [
                pairs(&[("name", "a"), ("ext", "b.tar.gz")]),
                pairs(&[("name", "a.b"), ("ext", "tar.gz")]),
                pairs(&[("name", "a.b.tar"), ("ext", "gz")]),
            ]
        );
        let first: Vec<(String, Option<String>)> = all("/files/{name}.{ext}", "/files/a.b.tar.gz")
            [0]
        .iter()
        .map(|(n, v)| (n.to_string(), Some(v.clone())))
        .collect();
        assert_eq!(Some(first), got("/files/{name}.{ext}", "/files/a.b.tar.gz"));
        // Encoded text between them counts as the text.
        assert_eq!(
            all("/f/{name}.{ext}", "/f/x%2Ey.json"),
            [
                pairs(&[("name", "x"), ("ext", "y.json")]),
                pairs(&[("name", "x.y"), ("ext", "json")]),
            ]
        );
        assert_eq!(
            all("/v1/{name}:cancel", "/v1/a:b:cancel"),
            [pairs(&[("name", "a:b")])]
        );
        assert!(all("/files/{name}.{ext}", "/files/.json").is_empty());
        assert!(all("/files/{name}.{ext}", "/files/a/b").is_empty());
    }
}
