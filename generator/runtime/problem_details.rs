// `error_response` of `src/server.rs` in every generated crate whose API documents no error
// body the server can fill (`ir::error_envelope`); an API that does document one gets an
// `error_response` generated for its body instead. A fragment of the server module beside
// `server.rs`, which calls it and provides `json_response` and `Response`.

/// The error body of a rejected request: RFC 9457 problem details, the API
/// documenting no error body the server can fill. The code and each message are
/// extension members (`code`, `errors`).
pub fn error_response(status: ::http::StatusCode, code: &str, messages: Vec<String>) -> Response {
    let body = ::serde_json::json!({
        "type": "about:blank",
        "title": status.canonical_reason().unwrap_or("Error"),
        "status": status.as_u16(),
        "detail": messages.join("; "),
        "code": code,
        "errors": messages,
    });
    let mut response = json_response(status, &body);
    response.headers_mut().insert(
        ::http::header::CONTENT_TYPE,
        ::http::HeaderValue::from_static("application/problem+json"),
    );
    response
}

#[cfg(test)]
mod problem_details_tests {
    use super::*;

    #[tokio::test]
    async fn a_rejection_is_problem_details_with_the_code_and_messages() {
        let response = error_response(
            ::http::StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
            vec!["a".into(), "b".into()],
        );
        assert_eq!(response.status(), 400);
        assert_eq!(
            response.headers()[::http::header::CONTENT_TYPE],
            "application/problem+json"
        );
        let body = ::axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let body: ::serde_json::Value = ::serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body,
            ::serde_json::json!({
                "type": "about:blank",
                "title": "Bad Request",
                "status": 400,
                "detail": "a; b",
                "code": "VALIDATION_ERROR",
                "errors": ["a", "b"],
            })
        );
    }
}
