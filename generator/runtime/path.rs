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
    let mut wanted = template.split('/');
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
            None => match text.strip_prefix(literal) {
                Some(rest) => text = rest,
                None => return false,
            },
            Some(name) => {
                let at = if pattern.is_empty() {
                    text.rfind(literal)
                } else {
                    text.find(literal)
                };
                match at {
                    Some(at) if at > 0 => {
                        params.push((name, &text[..at]));
                        text = &text[at + literal.len()..];
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

fn decode(raw: &str) -> Decoded {
    percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .ok()
        .map(|text| text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::params;

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
}
