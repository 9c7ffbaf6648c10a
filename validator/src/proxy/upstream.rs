//! Where a listener forwards to: the upstream's base URL, and how a request's target and
//! headers are rewritten for it.

use http::header::{self, HeaderMap, HeaderName};
use http::uri::{Authority, Scheme, Uri};

/// An upstream base URL: `http://host:port` with an optional base path (`/gateway`), which is
/// put in front of every forwarded path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    authority: Authority,
    /// The base path without a trailing slash (`""` for none).
    base_path: String,
    /// The URL as given, for messages.
    text: String,
}

/// Why an upstream URL is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UpstreamError {
    /// Not a URL.
    #[error("{0:?} is not an absolute http:// URL: {1}")]
    Invalid(String, String),
    /// `https://`: the proxy speaks plain HTTP to its upstream only.
    #[error(
        "{0:?}: https upstreams are not supported (the proxy speaks plain HTTP to its upstream); put a TLS-terminating proxy in between or use the service's http address"
    )]
    Https(String),
    /// Another scheme, or none.
    #[error("{0:?}: the upstream must be an http:// URL")]
    Scheme(String),
    /// A query or fragment, which cannot be combined with a request's own.
    #[error("{0:?}: an upstream base URL takes no query or fragment")]
    Query(String),
}

impl std::str::FromStr for Upstream {
    type Err = UpstreamError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.contains('#') {
            return Err(UpstreamError::Query(text.to_string()));
        }
        let uri: Uri = text.parse().map_err(|err: http::uri::InvalidUri| {
            UpstreamError::Invalid(text.into(), err.to_string())
        })?;
        match uri.scheme() {
            Some(scheme) if *scheme == Scheme::HTTP => {}
            Some(scheme) if *scheme == Scheme::HTTPS => {
                return Err(UpstreamError::Https(text.to_string()));
            }
            _ => return Err(UpstreamError::Scheme(text.to_string())),
        }
        let Some(authority) = uri.authority().cloned() else {
            return Err(UpstreamError::Invalid(text.into(), "no host".into()));
        };
        if uri.query().is_some() {
            return Err(UpstreamError::Query(text.to_string()));
        }
        Ok(Upstream {
            authority,
            base_path: uri.path().trim_end_matches('/').to_string(),
            text: text.to_string(),
        })
    }
}

impl std::fmt::Display for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Upstream {
    /// The upstream target of a request for `path_and_query` (as the client sent it): the base
    /// path, then the client's path and query unchanged (the contract is checked on the
    /// client's path, which is what a recording of the client's traffic would hold).
    pub fn target(
        &self,
        path_and_query: Option<&http::uri::PathAndQuery>,
    ) -> Result<Uri, http::Error> {
        let tail = path_and_query.map_or("/", |pq| pq.as_str());
        let tail = if tail.starts_with('/') {
            tail.to_string()
        } else {
            // `*` (OPTIONS *) or an absolute-form target's remnants: forward as the root.
            "/".to_string()
        };
        Uri::builder()
            .scheme(Scheme::HTTP)
            .authority(self.authority.clone())
            .path_and_query(format!("{}{tail}", self.base_path))
            .build()
    }
}

/// Headers that describe one connection, not the message: a proxy must not pass them on
/// (RFC 9110, section 7.6.1), nor `Host`, which the client sets from the upstream's address.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Removes the hop-by-hop headers, and those the `Connection` header names, from `headers`.
pub fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_path_goes_in_front() {
        let upstream: Upstream = "http://127.0.0.1:8080/gw/".parse().unwrap();
        let pq: http::uri::PathAndQuery = "/v1/banking/accounts?x=1".parse().unwrap();
        assert_eq!(
            upstream.target(Some(&pq)).unwrap().to_string(),
            "http://127.0.0.1:8080/gw/v1/banking/accounts?x=1"
        );
        let bare: Upstream = "http://localhost:9".parse().unwrap();
        assert_eq!(
            bare.target(None).unwrap().to_string(),
            "http://localhost:9/"
        );
    }

    #[test]
    fn refuses_what_it_cannot_forward_to() {
        assert!(matches!(
            "https://api.example.com".parse::<Upstream>(),
            Err(UpstreamError::Https(_))
        ));
        assert!(matches!(
            "ftp://x".parse::<Upstream>(),
            Err(UpstreamError::Scheme(_))
        ));
        assert!(matches!(
            "/v1".parse::<Upstream>(),
            Err(UpstreamError::Scheme(_))
        ));
        assert!(matches!(
            "http://x/?a=1".parse::<Upstream>(),
            Err(UpstreamError::Query(_))
        ));
        assert!("not a url at all".parse::<Upstream>().is_err());
    }

    #[test]
    fn hop_by_hop_headers_stay_behind() {
        let mut headers = HeaderMap::new();
        headers.insert("connection", "close, x-private".parse().unwrap());
        headers.insert("x-private", "1".parse().unwrap());
        headers.insert("transfer-encoding", "chunked".parse().unwrap());
        headers.insert("content-type", "application/json".parse().unwrap());
        strip_hop_by_hop(&mut headers);
        assert_eq!(headers.len(), 1);
        assert!(headers.contains_key("content-type"));
    }
}
