//! The HTTP pieces of a record: the method, the request target split into path and query,
//! the query decoded, a body recorded as text or base64.

use base64::Engine as _;

use crate::exchange::Body;

/// Uppercases a method in place, refusing an empty one.
pub(super) fn method(mut method: String, name: &str, problems: &mut Vec<String>) -> Option<String> {
    if method.is_empty() {
        problems.push(format!("{name} is empty"));
        return None;
    }
    method.make_ascii_uppercase();
    Some(method)
}

/// A request target split into its parts.
pub(super) struct Target {
    /// The path as written (`/` when the URL has none).
    pub path: String,
    /// The raw query string.
    pub query: Option<String>,
    /// The host and port of an absolute URL, lower case, without user information.
    pub authority: Option<String>,
    /// The user information of an absolute URL (`user:password@`), as written.
    pub userinfo: Option<String>,
}

/// Splits a URL (`https://host/p?q#f`) or an origin-form target (`/p?q`) into its path, query
/// and authority. A URL of a resource that never left the browser (`data:`, `blob:`, an
/// extension's page; Chrome's HAR export lists them) is kept whole as its path, which no path
/// of an API matches: the check passes it over as the page's own.
pub(super) fn split_target(target: &str) -> Result<Target, String> {
    if let Some((scheme, _)) = target.split_once(':')
        && is_browser_local(scheme)
    {
        return Ok(Target {
            path: target.to_owned(),
            query: None,
            authority: None,
            userinfo: None,
        });
    }
    let target = target.split_once('#').map_or(target, |(before, _)| before);
    let mut userinfo = None;
    // After the scheme (`https://host/p`), or a scheme-relative URL (`//host/p`), which names
    // its host as an absolute one does; `None` for an origin-form path (`/p`).
    let after_scheme = match target.strip_prefix("//") {
        Some(rest) => Some(rest),
        None if target.starts_with('/') => None,
        None => match target.split_once("://") {
            Some((scheme, rest))
                if !scheme.is_empty()
                    && scheme
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
            {
                Some(rest)
            }
            _ => return Err(" is neither an absolute URL nor a path starting with /".into()),
        },
    };
    let (authority, after_authority) = match after_scheme {
        None => (None, target),
        Some(rest) => {
            let end = rest.find(['/', '?']).unwrap_or(rest.len());
            let authority = &rest[..end];
            let host = match authority.rsplit_once('@') {
                Some((user, host)) => {
                    userinfo = Some(user);
                    host
                }
                None => authority,
            };
            let host = (!host.is_empty()).then(|| host.to_ascii_lowercase());
            (host, &rest[end..])
        }
    };
    let (path, query) = match after_authority.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (after_authority, None),
    };
    let path = if path.is_empty() { "/" } else { path };
    Ok(Target {
        path: path.to_owned(),
        query: query.map(str::to_owned),
        authority,
        userinfo: userinfo.map(str::to_owned),
    })
}

/// The `Authorization` header a client sends for a URL's user information
/// (`https://sk_test_…:@api.stripe.com/`, as curl, Python's requests and Stripe's examples
/// take a key): Basic with the user and password it holds, percent-decoded, added unless the
/// request has an `Authorization` of its own. The credentials check then reads it. Returns
/// the decoded `user:password`, a secret whether or not it was sent: the request keeps it
/// ([`Request::userinfo`](crate::exchange::Request::userinfo)) so that no report repeats it.
pub(super) fn authorize_userinfo(
    headers: &mut Vec<(String, String)>,
    userinfo: Option<&str>,
) -> Option<String> {
    let userinfo = userinfo.filter(|userinfo| !userinfo.is_empty())?;
    let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
    let decoded = |part: &str| -> String {
        percent_encoding::percent_decode_str(part)
            .decode_utf8_lossy()
            .into_owned()
    };
    let pair = format!("{}:{}", decoded(user), decoded(password));
    if crate::exchange::header(headers, "authorization").is_none() {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&pair);
        headers.push(("Authorization".to_string(), format!("Basic {encoded}")));
    }
    Some(pair)
}

/// Whether a URL scheme names something a browser holds itself rather than fetches over
/// HTTP.
fn is_browser_local(scheme: &str) -> bool {
    const LOCAL: [&str; 12] = [
        "data",
        "blob",
        "about",
        "javascript",
        "file",
        "filesystem",
        "view-source",
        "chrome",
        "chrome-extension",
        "moz-extension",
        "safari-extension",
        "safari-web-extension",
    ];
    LOCAL.iter().any(|local| scheme.eq_ignore_ascii_case(local))
}

/// Parses a query string into decoded pairs (`application/x-www-form-urlencoded` rules:
/// `+` is a space; a name without `=` has an empty value; empty pieces are skipped).
pub(crate) fn parse_query(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}

/// A body recorded as text, possibly base64: empty is no body; decoded bytes are text when
/// they are UTF-8.
pub(super) fn text_body(
    text: String,
    base64: bool,
    name: &str,
    problems: &mut Vec<String>,
) -> Option<Body> {
    if text.is_empty() {
        return None;
    }
    if !base64 {
        return Some(Body::Text(text));
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let decoded = if text.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: String = text.split_ascii_whitespace().collect();
        engine.decode(compact)
    } else {
        engine.decode(&text)
    };
    match decoded {
        Ok(bytes) if bytes.is_empty() => None,
        Ok(bytes) => Some(match String::from_utf8(bytes) {
            Ok(text) => Body::Text(text),
            Err(err) => Body::Binary(err.into_bytes()),
        }),
        Err(err) => {
            problems.push(format!("{name} is not valid base64 ({err})"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_query;

    #[test]
    fn a_query_string_is_decoded_as_a_form() {
        let pairs = |query: &str| -> Vec<(String, String)> { parse_query(query) };
        let owned = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            pairs("a=1&b=x+y&c&&d=%2B%zz&e=%C3%A9&f=%FF"),
            owned(&[
                ("a", "1"),
                ("b", "x y"),
                ("c", ""),
                ("d", "+%zz"),
                ("e", "é"),
                ("f", "\u{FFFD}")
            ])
        );
    }
}
