//! Requests and responses as HAR entries: URL, headers (redacted), cookies, query string.

use axum::extract::OriginalUri;
use axum::http::{HeaderMap, HeaderName, Version, header, request, response};
use serde_json::{Map, Value, json};

use super::bodies::{Captured, body_size, body_text};
use super::recorder::{Config, REDACTED};

pub(super) fn request_json(parts: &request::Parts, body: &Captured, config: &Config) -> Value {
    let uri = parts
        .extensions
        .get::<OriginalUri>()
        .map_or(&parts.uri, |original| &original.0);
    let host = header_text(&parts.headers, header::HOST)
        .or_else(|| uri.authority().map(ToString::to_string))
        .unwrap_or_else(|| "localhost".to_owned());
    let scheme = uri.scheme_str().unwrap_or("http");
    let path_and_query = uri.path_and_query().map_or("/", |pq| pq.as_str());
    let url = format!("{scheme}://{host}{path_and_query}");

    let mut har = Map::new();
    har.insert("method".into(), parts.method.as_str().into());
    har.insert("url".into(), url.into());
    har.insert("httpVersion".into(), http_version(parts.version).into());
    har.insert(
        "cookies".into(),
        request_cookies(&parts.headers, config).into(),
    );
    har.insert("headers".into(), headers_json(&parts.headers, config));
    har.insert(
        "queryString".into(),
        query_json(uri.query().unwrap_or_default()),
    );
    if body.total != Some(0) {
        let mut post_data = Map::new();
        post_data.insert(
            "mimeType".into(),
            header_text(&parts.headers, header::CONTENT_TYPE)
                .unwrap_or_default()
                .into(),
        );
        body_text(body, &mut post_data);
        har.insert("postData".into(), post_data.into());
    }
    har.insert("headersSize".into(), (-1).into());
    har.insert("bodySize".into(), body_size(body));
    har.into()
}

pub(super) fn response_json(parts: &response::Parts, body: &Captured, config: &Config) -> Value {
    let mut content = Map::new();
    content.insert("size".into(), body.total.unwrap_or(body.bytes.len()).into());
    content.insert(
        "mimeType".into(),
        header_text(&parts.headers, header::CONTENT_TYPE)
            .unwrap_or_default()
            .into(),
    );
    if body.total != Some(0) {
        body_text(body, &mut content);
    }
    let redirect = header_text(&parts.headers, header::LOCATION).unwrap_or_default();

    let mut har = Map::new();
    har.insert("status".into(), parts.status.as_u16().into());
    har.insert(
        "statusText".into(),
        parts.status.canonical_reason().unwrap_or_default().into(),
    );
    har.insert("httpVersion".into(), http_version(parts.version).into());
    har.insert(
        "cookies".into(),
        response_cookies(&parts.headers, config).into(),
    );
    har.insert("headers".into(), headers_json(&parts.headers, config));
    har.insert("content".into(), content.into());
    har.insert("redirectURL".into(), redirect.into());
    har.insert("headersSize".into(), (-1).into());
    har.insert("bodySize".into(), body_size(body));
    har.into()
}

fn http_version(version: Version) -> &'static str {
    match version {
        Version::HTTP_09 => "HTTP/0.9",
        Version::HTTP_10 => "HTTP/1.0",
        Version::HTTP_2 => "HTTP/2",
        Version::HTTP_3 => "HTTP/3",
        _ => "HTTP/1.1",
    }
}

fn header_text(headers: &HeaderMap, name: HeaderName) -> Option<String> {
    headers
        .get(name)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

fn headers_json(headers: &HeaderMap, config: &Config) -> Value {
    headers
        .iter()
        .map(|(name, value)| {
            let value = if config.is_redacted(name) {
                REDACTED.to_owned()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            json!({"name": name.as_str(), "value": value})
        })
        .collect()
}

fn request_cookies(headers: &HeaderMap, config: &Config) -> Vec<Value> {
    let redacted = config.is_redacted(&header::COOKIE);
    headers
        .get_all(header::COOKIE)
        .iter()
        .flat_map(|value| {
            String::from_utf8_lossy(value.as_bytes())
                .split(';')
                .filter_map(|pair| cookie_json(pair, redacted))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn response_cookies(headers: &HeaderMap, config: &Config) -> Vec<Value> {
    let redacted = config.is_redacted(&header::SET_COOKIE);
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| {
            let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
            let mut attributes = text.split(';');
            let mut cookie = cookie_json(attributes.next()?, redacted)?;
            for attribute in attributes {
                let (key, value) = attribute.split_once('=').unwrap_or((attribute, ""));
                let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
                let field = match key.as_str() {
                    "path" => ("path", Value::from(value)),
                    "domain" => ("domain", Value::from(value)),
                    "expires" => ("expires", Value::from(value)),
                    "httponly" => ("httpOnly", Value::from(true)),
                    "secure" => ("secure", Value::from(true)),
                    _ => continue,
                };
                cookie[field.0] = field.1;
            }
            Some(cookie)
        })
        .collect()
}

fn cookie_json(pair: &str, redacted: bool) -> Option<Value> {
    let pair = pair.trim();
    if pair.is_empty() {
        return None;
    }
    let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
    let value = if redacted { REDACTED } else { value.trim() };
    Some(json!({"name": name.trim(), "value": value}))
}

fn query_json(query: &str) -> Value {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            json!({"name": percent_decode(name), "value": percent_decode(value)})
        })
        .collect()
}

/// Decodes `application/x-www-form-urlencoded` text: `+` is a space, `%XX` a byte; invalid
/// escapes stay as they are and invalid UTF-8 becomes U+FFFD.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("%E2%82%AC"), "€");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%41"), "A");
    }

    #[test]
    fn query_pairs() {
        assert_eq!(
            query_json("a=1&b&c=x%3Dy&&d="),
            json!([
                {"name": "a", "value": "1"},
                {"name": "b", "value": ""},
                {"name": "c", "value": "x=y"},
                {"name": "d", "value": ""},
            ])
        );
    }
}
