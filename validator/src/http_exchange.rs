//! Live `http` messages as the [`Exchange`](crate::exchange::Exchange) halves the traffic
//! readers build, so live traffic (the tower layer, the client-side checks) is judged by the
//! same checks as recorded traffic.

use http::HeaderMap;

use crate::exchange;

/// The request half as the traffic readers record it: the method in capitals, the path as
/// sent (percent-encoded), the query decoded, headers in order, the body's bytes.
pub fn request_of(
    method: &http::Method,
    uri: &http::Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> exchange::Request {
    exchange::Request {
        method: method.as_str().to_ascii_uppercase(),
        path: uri.path().to_string(),
        query: uri
            .query()
            .map(crate::read::parse_query)
            .unwrap_or_default(),
        headers: header_list(headers),
        body: decoded(body, headers),
        mime_type: None,
        // A client's URI is absolute; a server's is in origin form and has none.
        authority: uri.authority().map(|authority| {
            let text = authority.as_str();
            let host = text.rsplit_once('@').map_or(text, |(_, host)| host);
            host.to_ascii_lowercase()
        }),
        // A request on the wire carries its credentials in its headers.
        userinfo: None,
    }
}

/// The response half as the traffic readers record it.
pub fn response_of(
    status: http::StatusCode,
    headers: &HeaderMap,
    body: &[u8],
) -> exchange::Response {
    exchange::Response {
        status: status.as_u16(),
        headers: header_list(headers),
        body: decoded(body, headers),
        mime_type: None,
    }
}

/// The body's bytes, undone from the `Content-Encoding` they were sent in (a client that
/// accepts `gzip` gets it from most servers).
fn decoded(body: &[u8], headers: &HeaderMap) -> Option<exchange::Body> {
    let body = body_of(body);
    match headers.get(http::header::CONTENT_ENCODING) {
        Some(coding) => crate::content_coding::decoded(
            body,
            &[(
                "content-encoding".to_string(),
                String::from_utf8_lossy(coding.as_bytes()).into_owned(),
            )],
        ),
        None => body,
    }
}

fn header_list(map: &HeaderMap) -> Vec<(String, String)> {
    map.iter()
        .map(|(name, value)| {
            // Almost every value is visible ASCII, which `to_str` checks faster than the
            // lossy conversion reads UTF-8; the rest (obs-text) is read as UTF-8.
            let value = match value.to_str() {
                Ok(text) => text.to_owned(),
                Err(_) => String::from_utf8_lossy(value.as_bytes()).into_owned(),
            };
            (name.as_str().to_string(), value)
        })
        .collect()
}

/// No body and an empty one are the same on the wire.
fn body_of(bytes: &[u8]) -> Option<exchange::Body> {
    (!bytes.is_empty()).then(|| exchange::Body::Binary(bytes.to_vec()))
}
