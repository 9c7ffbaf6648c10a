//! Serves the `routes.yaml` fixture's generated router and sends a request to every
//! operation: paths whose parameters share a segment with text, operations on one shape of
//! path told apart only by that text, and templates that differ only in parameter names must
//! all reach their own handler with their own parameters, and nothing else may.

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{Method, Request, StatusCode};
    use fixture_routes::server::*;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// Answers with the operation and the parameters it was given.
    struct Echo;

    impl Api for Echo {
        async fn get_thing(&self, params: GetThingParams) -> GetThingResponse {
            GetThingResponse::Ok(format!("get {}", params.name))
        }
        async fn cancel_thing(&self, params: CancelThingParams) -> CancelThingResponse {
            CancelThingResponse::Ok(format!("cancel {}", params.name))
        }
        async fn run_thing(&self, params: RunThingParams) -> RunThingResponse {
            RunThingResponse::Ok(format!("run {}", params.thing))
        }
        async fn get_file_json(&self, params: GetFileJsonParams) -> GetFileJsonResponse {
            GetFileJsonResponse::Ok(format!("file {}", params.id))
        }
        async fn get_repo(&self, params: GetRepoParams) -> GetRepoResponse {
            GetRepoResponse::Ok(format!("repo {}/{}", params.owner, params.repo))
        }
        async fn generate_repo(&self, params: GenerateRepoParams) -> GenerateRepoResponse {
            GenerateRepoResponse::Ok(format!(
                "generate {}/{}",
                params.template_owner, params.template_repo
            ))
        }
    }

    async fn call(method: Method, path: &str) -> (StatusCode, String) {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn every_operation_gets_its_own_request_and_parameters() {
        for (method, path, answer) in [
            (Method::GET, "/v1/abc", "\"get abc\""),
            (Method::POST, "/v1/op:1:cancel", "\"cancel op:1\""),
            (Method::POST, "/v1/job%201:run", "\"run job 1\""),
            (Method::GET, "/files/report.json", "\"file report\""),
            (Method::GET, "/repos/rust-lang/rust", "\"repo rust-lang/rust\""),
            (Method::POST, "/repos/a/b/generate", "\"generate a/b\""),
        ] {
            let (status, body) = call(method.clone(), path).await;
            assert_eq!((status, body.as_str()), (StatusCode::OK, answer), "{method} {path}");
        }
    }

    #[tokio::test]
    async fn text_that_matches_no_template_is_not_found() {
        for (method, path) in [
            (Method::POST, "/v1/op:pause"),
            (Method::GET, "/files/report.xml"),
            (Method::GET, "/files/.json"),
        ] {
            let (status, _) = call(method.clone(), path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}");
        }
    }

    /// The fixture documents no error body, so the server words its rejections as RFC 9457
    /// problem details rather than some other API's envelope.
    #[tokio::test]
    async fn a_rejection_is_problem_details_when_the_spec_documents_no_error_body() {
        let request = Request::builder()
            .method(Method::GET)
            .uri("/files/report.xml")
            .body(Body::empty())
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            response.headers()["content-type"],
            "application/problem+json"
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["type"], "about:blank");
        assert_eq!(body["title"], "Not Found");
        assert_eq!(body["status"], 404);
        assert_eq!(body["code"], "NOT_FOUND");
        assert_eq!(body["errors"][0], "no operation at /files/report.xml");
        assert_eq!(body["detail"], "no operation at /files/report.xml");
        assert!(body.get("http_code").is_none() && body.get("messages").is_none());
    }
}
