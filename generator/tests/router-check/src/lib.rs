//! Serves the `routes.yaml` fixture's generated router and sends a request to every
//! operation: paths whose parameters share a segment with text, operations on one shape of
//! path told apart only by that text, and templates that differ only in parameter names must
//! all reach their own handler with their own parameters, and nothing else may. A form body
//! sent by the generated client over loopback reaches its handler as sent, and the server
//! checks its fields (and a query parameter whose schema is a component) by their schemas.
//! The webhook receiver is built and routes deliveries to paths axum 0.8 would refuse.

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
        async fn get_archive(&self, params: GetArchiveParams) -> GetArchiveResponse {
            let ext = serde_json::to_value(&params.ext).unwrap();
            GetArchiveResponse::Ok(format!("{} as {}", params.name, ext.as_str().unwrap()))
        }
        async fn get_file_json(&self, params: GetFileJsonParams) -> GetFileJsonResponse {
            GetFileJsonResponse::Ok(format!("file {}", params.id))
        }
        async fn update_message(
            &self,
            params: UpdateMessageParams,
            body: axum::body::Bytes,
        ) -> UpdateMessageResponse {
            let mut echo = serde_json::Map::new();
            echo.insert("sid".into(), params.sid.into());
            echo.insert("limit".into(), params.limit.into());
            echo.insert(
                "form".into(),
                String::from_utf8_lossy(&body).into_owned().into(),
            );
            UpdateMessageResponse::Ok(echo)
        }
        async fn upload(&self, _params: UploadParams, body: axum::body::Bytes) -> UploadResponse {
            UploadResponse::Ok(body.len() as i64)
        }
        async fn get_repo(&self, params: GetRepoParams) -> GetRepoResponse {
            GetRepoResponse::Ok(format!("repo {}/{}", params.owner, params.repo))
        }
        async fn list_reactions(&self, params: ListReactionsParams) -> ListReactionsResponse {
            ListReactionsResponse::Ok(format!("reactions {}/{}", params.owner, params.repo))
        }
        async fn create_pet(
            &self,
            _params: CreatePetParams,
            body: fixture_routes::models::Pet,
        ) -> CreatePetResponse {
            // What a service does with a pet: assigns its id, keeps its secret to itself.
            let secret = body.secret.unwrap_or_default();
            CreatePetResponse::Created(fixture_routes::models::Pet {
                id: Some(format!("pet-{}-{}", body.name, secret.len())),
                secret: None,
                ..body
            })
        }
        async fn search_users(&self, params: SearchUsersParams) -> SearchUsersResponse {
            SearchUsersResponse::Ok(format!("users {}", params.q))
        }
        async fn search_repos(&self, params: SearchReposParams) -> SearchReposResponse {
            SearchReposResponse::Ok(format!("repos {}", params.q))
        }
        async fn get_job(&self, _params: GetJobParams) -> GetJobResponse {
            GetJobResponse::Ok("job".into())
        }
        async fn get_jobs(&self, _params: GetJobsParams) -> GetJobsResponse {
            GetJobsResponse::Ok("jobs".into())
        }
        async fn get_share(&self, params: GetShareParams) -> GetShareResponse {
            GetShareResponse::Ok(format!("share {}", params.id))
        }
        async fn get_share_link(&self, params: GetShareLinkParams) -> GetShareLinkResponse {
            GetShareLinkResponse::Ok(format!("link {}", params.id))
        }
        async fn put_bucket(&self, params: PutBucketParams) -> PutBucketResponse {
            PutBucketResponse::Ok(format!("bucket {}", params.bucket))
        }
        async fn put_bucket_acl(&self, params: PutBucketAclParams) -> PutBucketAclResponse {
            PutBucketAclResponse::Ok(format!("acl {}", params.bucket))
        }
        async fn copy_part(&self, params: CopyPartParams) -> CopyPartResponse {
            CopyPartResponse::Ok(format!(
                "copy {} part {} from {}",
                params.bucket, params.part_number, params.x_amz_copy_source
            ))
        }
        async fn get_item(&self, params: GetItemParams) -> GetItemResponse {
            GetItemResponse::Ok(format!("item {} {}", params.user_id, params.item_id))
        }
        async fn get_alerts(&self, params: GetAlertsParams) -> GetAlertsResponse {
            GetAlertsResponse::Ok(format!("alerts {} {}", params.lat, params.lon))
        }
        async fn get_legacy(&self, _params: GetLegacyParams) -> GetLegacyResponse {
            GetLegacyResponse::Ok("legacy".into())
        }
        async fn get_blob(&self, params: GetBlobParams) -> GetBlobResponse {
            GetBlobResponse::Ok(format!("blob {}", params.path))
        }
        async fn get_note(&self, params: GetNoteParams) -> GetNoteResponse {
            match params.x_author {
                Some(author) => GetNoteResponse::Ok(format!("note {} by {author}", params.note_id)),
                None => GetNoteResponse::Ok(format!("note {}", params.note_id)),
            }
        }
        async fn get_revision(&self, params: GetRevisionParams) -> GetRevisionResponse {
            match params.if_none_match.as_deref() {
                Some("\"v1\"") => GetRevisionResponse::NotModified,
                Some("moved") => GetRevisionResponse::Found(GetRevisionFoundHeaders {
                    location: "/notes/elsewhere/revision".into(),
                }),
                _ => GetRevisionResponse::Ok(format!("revision of {}", params.note_id)),
            }
        }
        async fn get_caps(&self, params: GetCapsParams) -> GetCapsResponse {
            GetCapsResponse::Ok(format!("caps {}", params.id))
        }
        async fn get_cafe(&self, params: GetCafeParams) -> GetCafeResponse {
            GetCafeResponse::Ok(format!("café {}", params.id))
        }
        async fn get_price_list(&self, _params: GetPriceListParams) -> GetPriceListResponse {
            GetPriceListResponse::Ok("prices".to_string())
        }
        async fn create_user(
            &self,
            _params: CreateUserParams,
            body: fixture_routes::models::CreateUserRequest,
        ) -> CreateUserResponse {
            let status = match body.name.as_deref() {
                Some("") => StatusCode::BAD_REQUEST,
                _ => StatusCode::CREATED,
            };
            let user = fixture_routes::models::CreateUserDefaultBody {
                name: body.name,
                ..Default::default()
            };
            CreateUserResponse::Default(status, user)
        }
        async fn create_note(
            &self,
            _params: CreateNoteParams,
            body: fixture_routes::models::Note,
        ) -> CreateNoteResponse {
            CreateNoteResponse::Ok(format!("{} x{:?}", body.text, body.count))
        }
        async fn patch_note(
            &self,
            _params: PatchNoteParams,
            body: fixture_routes::models::Note,
        ) -> PatchNoteResponse {
            PatchNoteResponse::Ok(format!("patched {}", body.text))
        }
        async fn list_articles(&self, _params: ListArticlesParams) -> ListArticlesResponse {
            ListArticlesResponse::Ok(fixture_routes::models::ListArticlesOkBody {
                data: Some(vec!["a1".into()]),
                ..Default::default()
            })
        }
        async fn logout_user(&self, _params: LogoutUserParams) -> LogoutUserResponse {
            LogoutUserResponse::Default(StatusCode::OK)
        }
        async fn end_session(&self, params: EndSessionParams) -> EndSessionResponse {
            if params.session_id == "s1" {
                EndSessionResponse::UndocumentedSuccess(StatusCode::NO_CONTENT)
            } else {
                EndSessionResponse::NotFound
            }
        }
        async fn get_flags(&self, params: GetFlagsParams) -> GetFlagsResponse {
            GetFlagsResponse::Ok(format!(
                "verbose={:?} strict={:?}",
                params.verbose, params.strict
            ))
        }
        async fn get_lists(&self, params: GetListsParams) -> GetListsResponse {
            fn words<T: std::fmt::Display>(items: Vec<T>) -> Vec<String> {
                items.iter().map(|item| item.to_string()).collect()
            }
            let mut state = match params.state {
                Some(state) => format!(" state={:?}", words(state)),
                None => String::new(),
            };
            if let Some(mixed) = params.mixed {
                state.push_str(&format!(" mixed={mixed:?}"));
            }
            if let Some(uuids) = params.uuids {
                state.push_str(&format!(" uuids={uuids:?}"));
            }
            if let Some(category) = params.category {
                state.push_str(&format!(" category={category:?}"));
            }
            if let Some(labels) = params.labels {
                state.push_str(&format!(" labels={labels:?}"));
            }
            GetListsResponse::Ok(format!(
                "ids={:?} tag={:?} code={:?} sort={:?} word={:?} x_ids={:?}{state}",
                params.ids,
                params.tag,
                params.code,
                params.sort.map(words),
                params.word,
                params.x_ids
            ))
        }
        async fn download_file(&self, params: DownloadFileParams) -> DownloadFileResponse {
            // Bytes that are no UTF-8 and no JSON, then the id.
            let mut bytes = vec![0u8, 0x9f, 0xff, b'{'];
            bytes.extend_from_slice(params.id.as_bytes());
            if params.id == "part" {
                let status = StatusCode::PARTIAL_CONTENT;
                return DownloadFileResponse::Success(status, bytes.into());
            }
            DownloadFileResponse::Ok(bytes.into())
        }
        async fn get_thing_labels(&self, params: GetThingLabelsParams) -> GetThingLabelsResponse {
            GetThingLabelsResponse::Ok(format!("labels of {}", params.id))
        }
        async fn patch_labels(&self, params: PatchLabelsParams) -> PatchLabelsResponse {
            PatchLabelsResponse::Ok(format!("patched {} {}", params.kind, params.id))
        }
        async fn set_password(
            &self,
            _params: SetPasswordParams,
            body: axum::body::Bytes,
        ) -> SetPasswordResponse {
            SetPasswordResponse::Ok(format!("{} characters", body.len()))
        }
        async fn create_token(
            &self,
            _params: CreateTokenParams,
            body: axum::body::Bytes,
        ) -> CreateTokenResponse {
            CreateTokenResponse::Ok(format!("form {:?}", String::from_utf8_lossy(&body)))
        }
        async fn create_memo(
            &self,
            _params: CreateMemoParams,
            body: axum::body::Bytes,
        ) -> CreateMemoResponse {
            CreateMemoResponse::Ok(String::from_utf8_lossy(&body).into_owned())
        }
        async fn replace_file(
            &self,
            params: ReplaceFileParams,
            body: axum::body::Bytes,
        ) -> ReplaceFileResponse {
            ReplaceFileResponse::Ok(format!("{} got {:?}", params.id, &body[..]))
        }
        async fn get_certificate(
            &self,
            params: GetCertificateParams,
        ) -> GetCertificateResponse {
            let bytes: &'static [u8] = match params.id.as_str() {
                "pdf" => b"%PDF-1.7\n\xe2\xe3\xcf\xd3",
                _ => b"<certificate/>",
            };
            GetCertificateResponse::Ok(axum::body::Bytes::from_static(bytes))
        }
        async fn get_contact(&self, params: GetContactParams) -> GetContactResponse {
            GetContactResponse::Ok(format!("by id {}", params.contact_id))
        }
        async fn get_contact_by_number(
            &self,
            params: GetContactByNumberParams,
        ) -> GetContactByNumberResponse {
            GetContactByNumberResponse::Ok(format!("by number {}", params.contact_number))
        }
        async fn get_role_assignment(
            &self,
            params: GetRoleAssignmentParams,
        ) -> GetRoleAssignmentResponse {
            GetRoleAssignmentResponse::Ok(format!(
                "{} | {}",
                params.scope, params.role_assignment_name
            ))
        }
        async fn delete_role_assignment(
            &self,
            params: DeleteRoleAssignmentParams,
        ) -> DeleteRoleAssignmentResponse {
            DeleteRoleAssignmentResponse::Ok(format!(
                "deleted {} | {}",
                params.scope, params.role_assignment_name
            ))
        }
        async fn get_subscription_role_assignment(
            &self,
            params: GetSubscriptionRoleAssignmentParams,
        ) -> GetSubscriptionRoleAssignmentResponse {
            GetSubscriptionRoleAssignmentResponse::Ok(format!(
                "subscription {} | {}",
                params.subscription_id, params.name
            ))
        }
        async fn attach_file(
            &self,
            _params: AttachFileParams,
            body: axum::body::Bytes,
        ) -> AttachFileResponse {
            AttachFileResponse::Ok(format!("{:?}", &body[..]))
        }
        async fn get_with_basic(&self, params: GetWithBasicParams) -> GetWithBasicResponse {
            let basic = params.credentials.basic_auth.unwrap_or_default();
            let (username, password) = (basic.username, basic.password);
            GetWithBasicResponse::Ok(format!("{username} {}", password.expose()))
        }
        async fn create_widget(
            &self,
            _params: CreateWidgetParams,
            body: String,
        ) -> CreateWidgetResponse {
            let location = format!("/widgets/{body}");
            match body.as_str() {
                "queued" => {
                    CreateWidgetResponse::Accepted(CreateWidgetAcceptedHeaders { location })
                }
                "refused" => CreateWidgetResponse::BadRequest(CreateWidgetBadRequestHeaders {
                    retry_after: Some("30".into()),
                }),
                // A value no header can carry.
                "broken" => CreateWidgetResponse::Created(
                    body,
                    CreateWidgetCreatedHeaders {
                        location: "/widgets/a\r\nSet-Cookie: b=c".into(),
                        x_rate_limit_remaining: None,
                    },
                ),
                _ => CreateWidgetResponse::Created(
                    format!("made {body}"),
                    CreateWidgetCreatedHeaders {
                        location,
                        x_rate_limit_remaining: Some("41".into()),
                    },
                ),
            }
        }
        async fn get_with_cookies(&self, params: GetWithCookiesParams) -> GetWithCookiesResponse {
            let shown = |key: Option<fixture_routes::credentials::Secret>| {
                key.map(|key| key.expose().to_string())
            };
            let key = shown(params.credentials.cookie_key);
            let query_key = shown(params.credentials.query_key);
            GetWithCookiesResponse::Ok(format!(
                "session={} theme={:?} ids={:?} key={key:?} query_key={query_key:?}",
                params.session,
                params.theme.map(|theme| theme.as_str().to_string()),
                params.ids
            ))
        }
        async fn share_file(
            &self,
            _params: ShareFileParams,
            body: axum::body::Bytes,
        ) -> ShareFileResponse {
            ShareFileResponse::Ok(format!("{} bytes", body.len()))
        }
        async fn post_recipe(
            &self,
            _params: PostRecipeParams,
            body: fixture_routes::models::Note,
        ) -> PostRecipeResponse {
            PostRecipeResponse::Ok(format!("{} {:?}", body.text, body.count))
        }
        async fn get_with_hmac(&self, params: GetWithHmacParams) -> GetWithHmacResponse {
            let hmac = params
                .credentials
                .hmac
                .map(|hmac| hmac.expose().to_string());
            GetWithHmacResponse::Ok(format!("hmac={hmac:?}"))
        }
        async fn get_with_oauth(&self, params: GetWithOauthParams) -> GetWithOauthResponse {
            let credentials = params.credentials;
            GetWithOauthResponse::Ok(format!(
                "oauth={:?} oidc={:?}",
                credentials.oauth.map(|token| token.expose().to_string()),
                credentials.oidc.map(|token| token.expose().to_string())
            ))
        }
        async fn get_with_either(&self, params: GetWithEitherParams) -> GetWithEitherResponse {
            let credentials = params.credentials;
            GetWithEitherResponse::Ok(format!(
                "basic={:?} oauth={:?}",
                credentials.basic_auth.map(|basic| basic.username),
                credentials.oauth.map(|token| token.expose().to_string())
            ))
        }
        async fn get_with_token(&self, params: GetWithTokenParams) -> GetWithTokenResponse {
            let credentials = params.credentials;
            let shown = |token: Option<fixture_routes::credentials::Secret>| {
                token.map(|token| token.expose().to_string())
            };
            GetWithTokenResponse::Ok(format!(
                "oauth={:?} oidc={:?}",
                shown(credentials.oauth),
                shown(credentials.oidc)
            ))
        }
        async fn search_pets(&self, params: SearchPetsParams) -> SearchPetsResponse {
            let filter = params.filter;
            let page = params.page.map(|p| (p.size, p.cursor));
            let text =
                |number: Option<fixture_routes::support::Decimal>| number.map(|n| n.to_string());
            let point = params.point.map(|p| (text(p.lat), text(p.lon)));
            SearchPetsResponse::Ok(format!(
                "filter={:?} {:?} {:?} page={page:?} point={point:?}",
                filter.name, filter.age, filter.tags
            ))
        }
        async fn get_clips(&self, params: GetClipsParams) -> GetClipsResponse {
            GetClipsResponse::Ok(format!("filter={:?}", params.filter))
        }
        async fn generate_repo(&self, params: GenerateRepoParams) -> GenerateRepoResponse {
            GenerateRepoResponse::Ok(format!(
                "generate {}/{}",
                params.template_owner, params.template_repo
            ))
        }
    }

    /// Sends a `POST` of `body` in `media` to `path`.
    async fn post_as(path: &str, media: &str, body: &'static str) -> (StatusCode, String) {
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header("content-type", media)
            .body(Body::from(body))
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn call(method: Method, path: &str) -> (StatusCode, String) {
        call_with(method, path, &[]).await
    }

    /// Sends a request without a body, with these headers (a name given twice is sent on
    /// two lines).
    async fn call_with(
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (StatusCode, String) {
        let mut request = Request::builder().method(method).uri(path);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Body::empty()).unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// A body sent to an operation that takes none is refused, as specval calls it a
    /// violation, rather than passed to a handler that would act on the request regardless;
    /// an empty or blank one is no body.
    #[tokio::test]
    async fn a_body_to_an_operation_that_takes_none_is_refused() {
        let (status, body) =
            post_as("/v1/op:cancel", "application/json", r#"{"reason": "x"}"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body.contains("cancelThing takes none"), "{body}");
        for blank in ["", " \r\n"] {
            let (status, body) = post_as("/v1/op:cancel", "application/json", blank).await;
            assert_eq!(status, StatusCode::OK, "{blank:?}: {body}");
        }
    }

    /// An upload documented as bytes and as parts with a schema of their own: the bytes pass
    /// as they are, the parts are checked by their own schema, where they reached the
    /// handler unread (`garbage`, a word for an integer, no parts at all).
    #[tokio::test]
    async fn parts_documented_beside_bytes_are_checked_by_their_own_schema() {
        let post = |media: &'static str, body: &'static str| post_as("/shares", media, body);
        let (status, body) = post("application/octet-stream", "\u{0}garbage").await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "8 bytes"));
        // An empty upload (an empty file, with its Content-Type) is a body of no bytes, as
        // the client sends `RawBody::new(&[])`, not a missing one.
        let (status, body) = post("application/octet-stream", "").await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "0 bytes"));
        let multipart = "multipart/form-data; boundary=B";
        let parts = "--B\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n2\r\n--B--\r\n";
        let (status, _) = post(multipart, parts).await;
        assert_eq!(status, StatusCode::OK, "{parts}");
        for broken in [
            "garbage",
            "--B\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\nnotanumber\r\n--B--\r\n",
            "--B--\r\n",
        ] {
            let (status, text) = post(multipart, broken).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{broken:?}: {text}");
        }
    }

    /// `text/json` is JSON (Swashbuckle documents it beside `application/json`): read and
    /// checked as JSON, where the server had refused it as a media type it does not read.
    #[tokio::test]
    async fn a_text_json_body_is_read_as_json() {
        let post = |media: &'static str, body: &'static str| post_as("/recipes", media, body);
        for media in ["application/json", "text/json", "text/json; charset=utf-8"] {
            let (status, body) = post(media, r#"{"text": "soup", "count": 2}"#).await;
            assert_eq!(
                (status, body.as_str()),
                (StatusCode::OK, r#""soup Some(2)""#),
                "{media}"
            );
        }
        let (status, text) = post("text/json", r#"{"text": "soup", "count": 0}"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        assert!(text.contains("/count"), "{text}");
        let (status, _) = post("text/json", "garbage{").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn every_operation_gets_its_own_request_and_parameters() {
        for (method, path, answer) in [
            (Method::GET, "/v1/abc", "\"get abc\""),
            // An encoded `:` is the name's own (RFC 3986, 2.2), not the verb's.
            (Method::GET, "/v1/a%3Acancel", "\"get a:cancel\""),
            (Method::POST, "/v1/op:1:cancel", "\"cancel op:1\""),
            (Method::POST, "/v1/job%201:run", "\"run job 1\""),
            (Method::GET, "/files/report.json", "\"file report\""),
            (
                Method::GET,
                "/repos/rust-lang/rust",
                "\"repo rust-lang/rust\"",
            ),
            (Method::POST, "/repos/a/b/generate", "\"generate a/b\""),
        ] {
            let (status, body) = call(method.clone(), path).await;
            assert_eq!(
                (status, body.as_str()),
                (StatusCode::OK, answer),
                "{method} {path}"
            );
        }
    }

    /// Templates that append a query or a fragment: the request's query or header picks the
    /// operation; a bare fragment (only a body would tell it apart) leaves the plain one.
    #[tokio::test]
    async fn operations_told_apart_by_their_templates_appendix_get_their_own_requests() {
        for (path, answer) in [
            ("/search?q=x&type=user", "\"users x\""),
            ("/search?type=repo&q=y", "\"repos y\""),
            ("/shares/s1", "\"share s1\""),
        ] {
            let (status, body) = call(Method::GET, path).await;
            assert_eq!((status, body.as_str()), (StatusCode::OK, answer), "{path}");
        }
        for (target, answer) in [("Glue.GetJobs", "\"jobs\""), ("Glue.GetJob", "\"job\"")] {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/")
                .header("x-amz-target", target)
                .body(Body::empty())
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(
                (status, String::from_utf8_lossy(&bytes).as_ref()),
                (StatusCode::OK, answer)
            );
        }
        // S3: a fragment's bare words name query parameters and headers the request must
        // carry (with any value: `?acl` as S3's clients send it); a word the operation
        // declares nothing for (`deprecated!`) asks nothing. Before, every request went to
        // the plain `PUT /buckets/{Bucket}`.
        let copy = [("x-amz-copy-source", "/src/key")];
        for (path, headers, answer) in [
            ("/buckets/b", &[][..], "\"bucket b\""),
            ("/buckets/b?acl", &[][..], "\"acl b\""),
            ("/buckets/b?acl=true", &[][..], "\"acl b\""),
            ("/buckets/b?partNumber=2", &copy[..], "\"copy b part 2 from /src/key\""),
            // Without the header, the part number alone asks for no copy.
            ("/buckets/b?partNumber=2", &[][..], "\"bucket b\""),
        ] {
            let (status, body) = call_with(Method::PUT, path, headers).await;
            assert_eq!((status, body.as_str()), (StatusCode::OK, answer), "{path} {headers:?}");
        }
        // What no template asks for reaches none of them.
        let (status, _) = call(Method::GET, "/search?type=gist&q=z").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        // The generated client sends the query its template fixes.
        let client = client().await;
        assert_eq!(
            client.search_repos("r").await.unwrap(),
            "repos r"
        );
        assert_eq!(
            client.search_users("u").await.unwrap(),
            "users u"
        );
        assert_eq!(client.put_bucket_acl("b", &true).await.unwrap(), "acl b");
        assert_eq!(
            client.copy_part("b", &3, "/src/k").await.unwrap(),
            "copy b part 3 from /src/k"
        );
        assert_eq!(client.put_bucket("b").await.unwrap(), "bucket b");
        // A name holding what a verb looks like reaches the plain operation, whole.
        assert_eq!(
            client.get_thing("s:cancel").await.unwrap(),
            "get s:cancel"
        );
        assert_eq!(client.cancel_thing("a:b").await.unwrap(), "cancel a:b");
    }

    /// Path parameters that disagree with their template (a variable without a parameter, a
    /// parameter without a variable, one spelt in another case, ones named in the template's
    /// query, a variable written twice) and templates axum refuses as written: the server
    /// reads each request's values, and the client puts each value where the server reads it.
    #[tokio::test]
    async fn path_parameters_that_disagree_with_their_template_still_carry_their_values() {
        for (path, answer) in [
            ("/users/7/items/abc", "\"item 7 abc\""),
            ("/alerts?lat=1.5&lon=-2", "\"alerts 1.5 -2\""),
            ("/caps/x/again/x", "\"caps x\""),
            ("/legacy/:id", "\"legacy\""),
            ("/blobs/b1", "\"blob b1\""),
            ("/notes/n1", "\"note n1\""),
        ] {
            let (status, body) = call(Method::GET, path).await;
            assert_eq!((status, body.as_str()), (StatusCode::OK, answer), "{path}");
        }
        // The text of a template is text, not a parameter, and a catch-all's spelling is one
        // segment's parameter.
        for path in ["/legacy/7", "/blobs/a/b"] {
            assert_eq!(
                call(Method::GET, path).await.0,
                StatusCode::NOT_FOUND,
                "{path}"
            );
        }
        use fixture_routes::client::GetItemSuccess;
        use fixture_routes::support::Decimal;
        let client = client().await;
        match client.get_item(&7, "a b").await.unwrap() {
            GetItemSuccess::Ok(text) => assert_eq!(text, "item 7 a b"),
            other => panic!("{other:?}"),
        }
        let lat: Decimal = "1.5".parse().unwrap();
        let lon: Decimal = "-2".parse().unwrap();
        assert_eq!(
            client.get_alerts(&lat, &lon).await.unwrap(),
            "alerts 1.5 -2"
        );
        assert_eq!(client.get_caps("x").await.unwrap(), "caps x");
    }

    /// A list parameter reaches its handler whole, in each form OpenAPI gives one: every
    /// `?tag=` pair, not the first; a header's every line; each delimiter where its style
    /// says. The generated client sends each in its form, so items holding commas or
    /// ampersands arrive as they were.
    /// Text of a template that a client percent-encodes reaches its operation however it was
    /// encoded (upper or lower case hex, or more than it had to be), from the generated client
    /// too; other text does not.
    #[tokio::test]
    async fn text_a_client_encodes_is_routed_however_it_was_encoded() {
        for (path, answer) in [
            ("/menu/caf%C3%A9/7", r#""café 7""#),
            ("/menu/caf%c3%a9/7", r#""café 7""#),
            ("/menu/%63af%C3%A9/a%20b", r#""café a b""#),
            ("/price%20list", r#""prices""#),
        ] {
            assert_eq!(
                call(Method::GET, path).await,
                (StatusCode::OK, answer.to_string()),
                "{path}"
            );
        }
        for path in ["/menu/cafe/7", "/price+list", "/price%20lists"] {
            assert_eq!(
                call(Method::GET, path).await.0,
                StatusCode::NOT_FOUND,
                "{path}"
            );
        }
        let client = client().await;
        assert_eq!(client.get_cafe("7").await.unwrap(), "café 7");
        assert_eq!(client.get_price_list().await.unwrap(), "prices");
    }

    /// A path parameter that is a whole segment cannot be `.` or `..`: a URL reads either,
    /// encoded or not, as a dot segment, and the request would go to another path. Inside a
    /// segment (`{name}:cancel`) the dots are text.
    #[tokio::test]
    async fn the_client_refuses_a_path_value_that_is_a_dot_segment() {
        use fixture_routes::client::ClientError;
        let client = client().await;
        for value in [".", ".."] {
            let refused = client.get_thing(value).await.unwrap_err();
            assert!(
                matches!(&refused, ClientError::InvalidRequest(reason) if reason.contains("dot segment")),
                "{value}: {refused}"
            );
        }
        // An empty value would send `/things/`: another path, perhaps another operation.
        let refused = client.get_thing("").await.unwrap_err();
        assert!(
            matches!(&refused, ClientError::InvalidRequest(reason) if reason.contains("empty")),
            "{refused}"
        );
        assert_eq!(
            client.get_thing("a.b").await.unwrap(),
            "get a.b"
        );
        assert_eq!(
            client.cancel_thing("..").await.unwrap(),
            "cancel .."
        );
    }

    /// A body documented as JSON and as a form reaches its handler from either, checked by
    /// its schema, and from `multipart/form-data` documented with the same schema (`curl -F`
    /// to a Django REST framework API: it was refused); a documented media type the handler's
    /// typed body cannot come from (text) is refused with a message that says so, and an
    /// undocumented one as before.
    #[tokio::test]
    async fn a_body_documented_as_json_and_as_a_form_is_read_from_either() {
        let post = |media: &'static str, body: &'static str| post_as("/notes", media, body);
        const PARTS: &str = "--XyZ\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhi\r\n\
                             --XyZ\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n2\r\n\
                             --XyZ--\r\n";
        const BAD_PARTS: &str = "--XyZ\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhi\r\n\
                                 --XyZ\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n0\r\n\
                                 --XyZ--\r\n";
        for (media, body) in [
            ("application/json", r#"{"text": "hi", "count": 2}"#),
            ("application/x-www-form-urlencoded", "text=hi&count=2"),
            ("multipart/form-data; boundary=XyZ", PARTS),
        ] {
            assert_eq!(
                post(media, body).await,
                (StatusCode::OK, r#""hi xSome(2)""#.to_string()),
                "{media}"
            );
        }
        let (status, text) = post("application/x-www-form-urlencoded", "text=hi&count=0").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        let (status, text) = post("multipart/form-data; boundary=XyZ", BAD_PARTS).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        assert!(text.contains("count"), "the part that breaks its rule is named: {text}");
        let (status, text) = post("text/plain", "hi").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(text.contains("text/plain is documented"), "{text}");
        let (status, text) = post("application/xml", "<note/>").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(text.contains("must be application/json"), "{text}");
    }

    /// JSON documented in another JSON media type is answered in it, and the generated client
    /// reads it.
    #[tokio::test]
    async fn json_goes_in_the_json_media_type_documented() {
        let request = Request::builder()
            .uri("/articles")
            .body(Body::empty())
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[axum::http::header::CONTENT_TYPE],
            "application/vnd.api+json"
        );
        let articles = client().await.list_articles().await.unwrap();
        assert_eq!(articles.data, Some(vec!["a1".to_string()]));
    }

    /// A documented `304 Not Modified` and a documented redirect are answers the client hands
    /// over, not failures it tries to read an error body from, and the redirect is not
    /// followed.
    #[tokio::test]
    async fn a_documented_304_or_redirect_is_an_answer_not_an_error() {
        use fixture_routes::client::GetRevisionSuccess;
        let client = client().await;
        let note = "n1".to_string();
        let fresh = client.get_revision(&note, None).await.unwrap();
        assert!(matches!(fresh, GetRevisionSuccess::Ok(text) if text == "revision of n1"));
        let tag = "\"v1\"".to_string();
        let unchanged = client.get_revision(&note, Some(&tag)).await.unwrap();
        assert!(matches!(unchanged, GetRevisionSuccess::NotModified));
        let moved = "moved".to_string();
        // Not followed: the caller gets the documented redirect and where it points, not
        // the answer of `/notes/elsewhere/revision` (which exists and would be a 200).
        let found = client.get_revision(&note, Some(&moved)).await.unwrap();
        assert!(
            matches!(&found, GetRevisionSuccess::Found(headers)
                if headers.location == "/notes/elsewhere/revision"),
            "{found:?}"
        );
    }

    /// A header value beyond visible ASCII (`Zoë`) is text, read as UTF-8, not a header that is
    /// missing; one the client cannot send is refused before anything is sent.
    #[tokio::test]
    async fn a_header_value_is_read_as_utf_8() {
        let client = client().await;
        let note = client
            .get_note("n1", Some("Zoë"))
            .await
            .unwrap();
        assert_eq!(note, "note n1 by Zoë");
        let refused = client
            .get_note("n1", Some("two\nlines"))
            .await
            .unwrap_err();
        let message = refused.to_string();
        assert!(
            message.contains("header X-Author: its value holds a line break"),
            "{message}"
        );
    }

    /// A body documented in a JSON media type of its own (`application/merge-patch+json`)
    /// is sent in that type, not as `application/json`.
    #[tokio::test]
    async fn a_json_body_goes_in_the_json_media_type_documented() {
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = sent.clone();
        let client = fixture_routes::client::Client::builder(
            serve().await,
            fixture_routes::credentials::Credentials::new(),
        )
        .observe(move |request, _| {
            let media = request.headers()[axum::http::header::CONTENT_TYPE].clone();
            seen.lock().unwrap().push(media);
        })
        .build()
        .unwrap();
        let note: fixture_routes::models::Note =
            serde_json::from_value(serde_json::json!({"text": "hi"})).unwrap();
        assert_eq!(client.patch_note(&note).await.unwrap(), "patched hi");
        assert_eq!(*sent.lock().unwrap(), ["application/merge-patch+json"]);
    }

    /// An operation whose only answer is `default` succeeds by it: a 2XX is the call's success,
    /// with the documented body; another status is the error it is.
    #[tokio::test]
    async fn a_default_only_answer_is_the_success_of_its_2xx() {
        use fixture_routes::client::ClientError;
        use fixture_routes::models::CreateUserRequest;
        let client = client().await;
        let ann = CreateUserRequest {
            name: Some("ann".into()),
            ..Default::default()
        };
        let created = client.create_user(&ann).await.unwrap();
        assert_eq!(created.name.as_deref(), Some("ann"));
        client.logout_user().await.unwrap();
        // An operation that documents its errors alone succeeds by the 2xx its server gives,
        // on both sides; its documented error is still an error.
        client.end_session("s1").await.unwrap();
        let missing = client.end_session("s2").await.unwrap_err();
        assert!(
            matches!(
                &missing,
                ClientError::Api { status, .. } | ClientError::ApiOther { status, .. }
                    if status.as_u16() == 404
            ),
            "{missing}"
        );
        let refused = client
            .create_user(&CreateUserRequest {
                name: Some(String::new()),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 400),
            "{refused}"
        );
    }

    /// `?verbose=` is `verbose` absent where the spec allows an empty value, and a value its
    /// schema refuses elsewhere.
    #[tokio::test]
    async fn an_empty_value_is_absent_only_where_the_spec_allows_one() {
        for (path, status, answer) in [
            (
                "/flags?verbose=",
                StatusCode::OK,
                r#""verbose=None strict=None""#,
            ),
            (
                "/flags?verbose=true&strict=false",
                StatusCode::OK,
                r#""verbose=Some(true) strict=Some(false)""#,
            ),
        ] {
            assert_eq!(
                call(Method::GET, path).await,
                (status, answer.to_string()),
                "{path}"
            );
        }
        for path in ["/flags?strict=", "/flags?verbose=maybe"] {
            assert_eq!(
                call(Method::GET, path).await.0,
                StatusCode::BAD_REQUEST,
                "{path}"
            );
        }
    }

    #[tokio::test]
    async fn list_parameters_arrive_whole_in_each_form() {
        let (status, body) = call_with(
            Method::GET,
            "/lists/1,2?tag=a&tag=b%2Cc&code=3,4&sort=asc|desc&word=x%20y",
            &[("x-ids", "5, 6"), ("x-ids", "7")],
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""ids=[1, 2] tag=[\"a\", \"b,c\"] code=Some([3, 4]) sort=Some([\"asc\", \"desc\"]) word=Some([\"x\", \"y\"]) x_ids=Some([5, 6, 7])""#
            )
        );
        // `?state=open,closed` where the spec says `?state=open&state=closed`: read as the list
        // it can only be, while `tag`'s `b,c` above stays one item.
        let (status, body) = call(Method::GET, "/lists/1?tag=a&state=open,closed").await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""ids=[1] tag=[\"a\"] code=None sort=None word=None x_ids=None state=[\"open\", \"closed\"]""#
            )
        );
        // A list sent with brackets, as Rails, PHP and `qs` write one (`tag[]=a`, `state[0]=`),
        // is that list, required and checked as if sent under its name.
        let (status, body) = call(
            Method::GET,
            "/lists/1?tag[]=a&tag%5B%5D=b&state[0]=open&state[1]=closed",
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""ids=[1] tag=[\"a\", \"b\"] code=None sort=None word=None x_ids=None state=[\"open\", \"closed\"]""#
            )
        );
        let (status, text) = call(Method::GET, "/lists/1?tag[]=a&state[]=ajar").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        assert!(text.contains("query parameter state"), "{text}");
        // A parameter that is one value or a list (`oneOf: [integer, array of integers]`):
        // one value, the key repeated and one text holding the list all reach the handler
        // whole, and an item that keeps neither alternative is refused.
        for (query, category) in [
            ("category=3", r#"[\"3\"]"#),
            ("category=1&category=2", r#"[\"1\", \"2\"]"#),
            ("category=1,2", r#"[\"1\", \"2\"]"#),
        ] {
            let (status, body) = call(Method::GET, &format!("/lists/1?tag=a&{query}")).await;
            assert_eq!(
                (status, body.as_str()),
                (
                    StatusCode::OK,
                    format!(
                        r#""ids=[1] tag=[\"a\"] code=None sort=None word=None x_ids=None category={category}""#
                    )
                    .as_str()
                ),
                "{query}"
            );
        }
        for query in ["category=0", "category=1&category=x", "category=2,0"] {
            let (status, text) = call(Method::GET, &format!("/lists/1?tag=a&{query}")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {text}");
            assert!(text.contains("query parameter category"), "{query}: {text}");
        }
        // Each item is checked by the list's schema: `code`'s minimum, the header's
        // `maxItems` counted over both lines, an enum; the refusal names each.
        let (status, text) = call_with(
            Method::GET,
            "/lists/1?tag=a&code=3,0&sort=asc|up",
            &[("x-ids", "1, 2"), ("x-ids", "3, 4")],
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        for name in [
            "query parameter code",
            "query parameter sort",
            "header X-Ids",
        ] {
            assert!(text.contains(name), "{name}: {text}");
        }

        use fixture_routes::models::{GetListsSortItem, GetListsStateItem};
        let client = client().await;
        let tags = ["a,b".to_string(), "c&d".to_string(), "e f".to_string()];
        let words = ["x".to_string(), "y".to_string()];
        let answer = client
            .get_lists(
                &[1, 2],
                &tags,
                Some(&[3, 4]),
                Some(&[GetListsSortItem::Desc, GetListsSortItem::Asc]),
                Some(&words),
                Some(&[GetListsStateItem::Closed, GetListsStateItem::Open]),
                // Items of a union (an integer or a string): every one arrives, as its text.
                Some(&["1".to_string(), "abc".to_string()]),
                // `items` without `type: array`: a list all the same.
                Some(&["u1".to_string(), "u2".to_string()]),
                // One value or a list of them: the list arrives whole.
                Some(&["4".to_string(), "5".to_string()]),
                // PeerTube's `tagsOneOf` (a string or strings, `explode: false`): the list
                // arrives as its items, not as the one string `en,fr`.
                Some(&["en".to_string(), "fr".to_string()]),
                Some(&[5, 6]),
            )
            .await
            .unwrap();
        assert_eq!(
            answer,
            r#"ids=[1, 2] tag=["a,b", "c&d", "e f"] code=Some([3, 4]) sort=Some(["desc", "asc"]) word=Some(["x", "y"]) x_ids=Some([5, 6]) state=["closed", "open"] mixed=["1", "abc"] uuids=["u1", "u2"] category=["4", "5"] labels=["en", "fr"]"#
        );
        let answer = client
            .get_lists(
                &[9],
                &["only".to_string()],
                None,
                None,
                None,
                None,
                None,
                None,
                None,
                None,
                None,
            )
            .await
            .unwrap();
        assert_eq!(
            answer,
            r#"ids=[9] tag=["only"] code=None sort=None word=None x_ids=None"#
        );
    }

    /// A file goes down as its bytes and up as its bytes, and a text answer comes as its
    /// text, each with its media type: neither side reads them as JSON.
    #[tokio::test]
    async fn bodies_that_are_not_json_travel_as_they_are() {
        let request = Request::builder()
            .method(Method::GET)
            .uri("/files/f1/content")
            .body(Body::empty())
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"],
            "application/octet-stream"
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"\x00\x9f\xff{f1");

        use fixture_routes::client::{ClientError, DownloadFileSuccess, RawBody};
        let client = client().await;
        match client.download_file("f2").await.unwrap() {
            DownloadFileSuccess::Ok(bytes) => assert_eq!(bytes, b"\x00\x9f\xff{f2"),
            other => panic!("{other:?}"),
        }
        match client.download_file("part").await.unwrap() {
            DownloadFileSuccess::Success(status, bytes) => {
                assert_eq!(status.as_u16(), 206);
                assert_eq!(bytes, b"\x00\x9f\xff{part");
            }
            other => panic!("{other:?}"),
        }
        // Up: the bytes as sent, as the documented media type (the server refuses another).
        let receipt = client
            .replace_file("f3", RawBody::new(&[1, 0xfe]))
            .await
            .unwrap();
        assert_eq!(receipt, "f3 got [1, 254]");
        let refused = client
            .replace_file(
                "f3",
                RawBody::with_content_type(b"{}", "application/json"),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 400),
            "{refused}"
        );
        // `*/*` holding bytes: a file of any media type reaches the handler as it came.
        for (bytes, media) in [
            (&b"\x01\xfe"[..], None),
            (&b"%PDF-1.7"[..], Some("application/pdf")),
            (&b"{}"[..], Some("application/json")),
        ] {
            let body = match media {
                Some(media) => RawBody::with_content_type(bytes, media),
                None => RawBody::new(bytes),
            };
            let receipt = client.attach_file(body).await.unwrap();
            assert_eq!(receipt, format!("{bytes:?}"), "{media:?}");
        }
        // A text body is the words it is, and its schema judges them (`maxLength: 5`).
        let memo = client.create_memo(RawBody::new(b"hello")).await.unwrap();
        assert_eq!(memo, "hello");
        let long = client
            .create_memo(RawBody::new(b"hello!"))
            .await
            .unwrap_err();
        assert!(
            matches!(&long, ClientError::Api { status, .. } if status.as_u16() == 400),
            "{long}"
        );
        // A multipart body goes with the boundary its caller gives.
        let upload = "--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nPNG\r\n--b--\r\n";
        let size = client
            .upload(RawBody::with_content_type(
                upload.as_bytes(),
                "multipart/form-data; boundary=b",
            ))
            .await
            .unwrap();
        assert_eq!(size, upload.len() as i64);
    }

    /// An object in the query reaches its handler as its struct, its members read as its
    /// style says; the server checks each member, and the client sends them so.
    #[tokio::test]
    async fn object_query_parameters_arrive_as_their_structs() {
        let (status, body) = call(
            Method::GET,
            "/pets/search?filter[name]=rex&filter[age]=3&filter[tags]=a&filter[tags]=b\
             &size=10&cursor=c1&point=lat,1.5,lon,-2",
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""filter=Some(\"rex\") Some(3) Some([\"a\", \"b\"]) page=Some((Some(10), Some(\"c1\"))) point=Some((Some(\"1.5\"), Some(\"-2\")))""#
            )
        );
        // Absent optional objects are `None`; the required one must be there.
        let (status, body) = call(Method::GET, "/pets/search?filter[name]=rex").await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""filter=Some(\"rex\") None None page=None point=None""#
            )
        );
        for (path, named) in [
            ("/pets/search?size=10", "query parameter filter is required"),
            // Named by its member, as specval names it (`query:filter/age`).
            (
                "/pets/search?filter[age]=-1",
                "query parameter filter/age: ",
            ),
            (
                "/pets/search?filter[age]=3&size=500",
                "query parameter page",
            ),
        ] {
            let (status, body) = call(Method::GET, path).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
            assert!(body.contains(named), "{path}: {body}");
        }

        use fixture_routes::models::{SearchPetsFilter, SearchPetsPage, SearchPetsPoint};
        let client = client().await;
        let filter: SearchPetsFilter = serde_json::from_value(
            serde_json::json!({"name": "a&b", "age": 3, "tags": ["x", "y,z"]}),
        )
        .unwrap();
        let page: SearchPetsPage =
            serde_json::from_value(serde_json::json!({"size": 10, "cursor": "c 1"})).unwrap();
        let point: SearchPetsPoint =
            serde_json::from_value(serde_json::json!({"lat": 1.5, "lon": -2})).unwrap();
        let answer = client
            .search_pets(&filter, Some(&page), Some(&point))
            .await
            .unwrap();
        assert_eq!(
            answer,
            r#"filter=Some("a&b") Some(3) Some(["x", "y,z"]) page=Some((Some(10), Some("c 1"))) point=Some((Some("1.5"), Some("-2")))"#
        );
    }

    /// A free-form `deepObject` (`schema: {type: object}`) arrives as the map of its members,
    /// and the client sends a map so.
    #[tokio::test]
    async fn a_free_form_deep_object_arrives_as_its_members() {
        let (status, body) = call(
            Method::GET,
            "/clips?filter[name_eq]=john&filter[size_gt]=3&page=2",
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::OK,
                r#""filter=Some({\"name_eq\": String(\"john\"), \"size_gt\": String(\"3\")})""#
            )
        );
        let (_, body) = call(Method::GET, "/clips").await;
        assert_eq!(body, r#""filter=None""#);
        let filter = std::collections::BTreeMap::from([(
            "name_eq".to_string(),
            serde_json::Value::from("a&b c"),
        )]);
        let answer = client().await.get_clips(Some(&filter)).await.unwrap();
        assert_eq!(answer, r#"filter=Some({"name_eq": String("a&b c")})"#);
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

    /// The headers a response documents are set by the handler, sent, and handed over by the
    /// generated client beside the body; one HTTP cannot carry makes the answer a 500.
    #[tokio::test]
    async fn documented_response_headers_reach_the_caller() {
        use fixture_routes::client::{
            ClientError, CreateWidgetAcceptedHeaders, CreateWidgetCreatedHeaders,
            CreateWidgetSuccess, WithHeaders,
        };
        let client = client().await;
        match client.create_widget(&"w1".to_string()).await.unwrap() {
            CreateWidgetSuccess::Created(WithHeaders { body, headers }) => {
                assert_eq!(body, "made w1");
                assert_eq!(
                    headers,
                    CreateWidgetCreatedHeaders {
                        location: "/widgets/w1".into(),
                        x_rate_limit_remaining: Some("41".into()),
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        match client.create_widget(&"queued".to_string()).await.unwrap() {
            CreateWidgetSuccess::Accepted(headers) => assert_eq!(
                headers,
                CreateWidgetAcceptedHeaders {
                    location: "/widgets/queued".into()
                }
            ),
            other => panic!("{other:?}"),
        }
        // On the wire, as HTTP has them.
        let post = |body: &'static str| {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/widgets")
                .header("content-type", "application/json")
                .body(Body::from(body))
                .unwrap();
            router(Echo).oneshot(request)
        };
        let refused = post("\"refused\"").await.unwrap();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        assert_eq!(refused.headers()["retry-after"], "30");
        let broken = post("\"broken\"").await.unwrap();
        assert_eq!(broken.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(broken.headers().get("set-cookie").is_none());
        assert!(broken.headers().get("location").is_none());
        match client.create_widget(&"broken".to_string()).await {
            Err(ClientError::Api { status, body }) => {
                assert_eq!(status, 500);
                assert!(body["detail"].as_str().unwrap().contains("`location`"));
            }
            other => panic!("{other:?}"),
        }
    }

    /// The generated client of the fixture's router on a loopback port.
    /// `/archives/{name}.{ext}`: a name holding the dot arrives whole, the server keeping the
    /// split whose `ext` its enum takes, for the client's request and a raw one alike; an
    /// empty name is refused before anything is sent (`/archives/.zip` holds none).
    #[tokio::test]
    async fn a_segment_of_two_parameters_is_split_where_their_schemas_say() {
        use fixture_routes::client::ClientError;
        use fixture_routes::models::GetArchiveExt;
        let client = client().await;
        for (name, ext, want) in [
            ("report", GetArchiveExt::Zip, "report as zip"),
            ("a.b", GetArchiveExt::TarGz, "a.b as tar.gz"),
            ("v1.2.3", GetArchiveExt::Zip, "v1.2.3 as zip"),
        ] {
            let got = client.get_archive(name, &ext).await.unwrap();
            assert_eq!(got, want);
        }
        let (status, body) = call_with(Method::GET, "/archives/a.b.tar.gz", &[]).await;
        assert_eq!(
            (status, body.as_str()),
            (StatusCode::OK, "\"a.b as tar.gz\"")
        );
        // No split fits: refused, naming the parameter as the first split reads it.
        let (status, body) = call_with(Method::GET, "/archives/a.rar", &[]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.contains("path parameter ext"), "{body}");
        assert!(matches!(
            client
                .get_archive("", &GetArchiveExt::Zip)
                .await,
            Err(ClientError::InvalidRequest(_))
        ));
    }

    async fn client() -> fixture_routes::client::Client {
        fixture_routes::client::Client::new(
            serve().await,
            fixture_routes::credentials::Credentials::new(),
        )
        .unwrap()
    }

    /// The fixture's router on a loopback port, and its address.
    async fn serve() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Echo)).await });
        format!("http://{address}")
    }

    /// A response documented as text or a file (XML or a PDF, the text listed first) is
    /// bytes on both sides: a PDF, which is no UTF-8, reaches the caller whole.
    #[tokio::test]
    async fn a_response_of_text_or_a_file_is_bytes() {
        let client = client().await;
        assert_eq!(
            client.get_certificate("pdf").await.unwrap(),
            b"%PDF-1.7\n\xe2\xe3\xcf\xd3"
        );
        assert_eq!(
            client.get_certificate("xml").await.unwrap(),
            b"<certificate/>"
        );
    }

    /// Paths that differ only in their parameters' names (Xero's `/Contacts/{ContactID}` and
    /// `/Contacts/{ContactNumber}`) are one route: a request goes to the first whose path
    /// parameters keep its schemas, as specval reads it, and a value neither keeps is
    /// refused by the last.
    #[tokio::test]
    async fn one_route_of_two_paths_is_told_apart_by_its_values() {
        let client = client().await;
        let id = uuid::Uuid::from_u128(7);
        assert_eq!(
            client.get_contact(&id).await.unwrap(),
            format!("by id {id}")
        );
        assert_eq!(
            client.get_contact_by_number("CN-12").await.unwrap(),
            "by number CN-12"
        );
        let (status, _) = call(Method::GET, "/contacts/far-too-long-a-number").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }

    /// Azure's scope (`x-ms-skip-url-encoding`) fills as many segments as its value has: the
    /// client writes its `/` as they are, and the server, which no axum route lets match
    /// them, finds the operation where no route did, or where the route that did lacks the
    /// method.
    #[tokio::test]
    async fn a_parameter_written_as_it_is_fills_several_segments() {
        let client = client().await;
        assert_eq!(
            client
                .get_role_assignment("subscriptions/1/resourceGroups/g h", "r1")
                .await
                .unwrap(),
            "subscriptions/1/resourceGroups/g h | r1"
        );
        let assignments = "providers/Example.Authorization/roleAssignments";
        let (status, body) = call(
            Method::GET,
            &format!("/subscriptions/1/resourceGroups/g/{assignments}/r2"),
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (StatusCode::OK, "subscriptions/1/resourceGroups/g | r2"),
            "the slashes as a client sends them"
        );
        // The scope holds `providers` itself.
        let nested = format!("subscriptions/1/{assignments}/a/b");
        assert_eq!(
            client.get_role_assignment(&nested, "r3").await.unwrap(),
            format!("{nested} | r3")
        );
        // A route naming its segments goes first; where it lacks the method, the spanning
        // operation answers.
        assert_eq!(
            client
                .get_role_assignment("subscriptions/9", "r4")
                .await
                .unwrap(),
            "subscription 9 | r4"
        );
        assert_eq!(
            client
                .delete_role_assignment("subscriptions/9", "r5")
                .await
                .unwrap(),
            "deleted subscriptions/9 | r5"
        );
        let (status, _) = call(Method::PUT, &format!("/s/{assignments}/r6")).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        let (status, _) = call(Method::GET, &format!("/{assignments}/r7")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "the scope fills a segment at least");
        // A dot segment in the scope names another path, however it is written.
        for scope in ["subscriptions/1/../2", "subscriptions/1/%2E%2E/2", "s%2F..%2Ft", "."] {
            let (status, _) = call(Method::GET, &format!("/{scope}/{assignments}/r8")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{scope}");
        }
        let (status, _) = call(Method::GET, &format!("/s/{assignments}/too-long-a-name")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "its other rules still hold");
        assert!(matches!(
            client.get_role_assignment("a/../b", "r8").await,
            Err(fixture_routes::client::ClientError::InvalidRequest(_))
        ));
    }

    /// A route with no PATCH of its own (`/things/{id}/labels`) under a broader one that has
    /// one (`/{kind}/{id}/labels`): axum routes by path first, so the PATCH met a 405, though
    /// specval reads it as the broader operation. The broader operation now answers it, its
    /// parameters read from its own template; the narrower route keeps its own GET.
    #[tokio::test]
    async fn a_method_the_narrower_route_lacks_goes_to_the_broader_one() {
        let client = client().await;
        assert_eq!(
            client.patch_labels("things", "5").await.unwrap(),
            "patched things 5"
        );
        assert_eq!(
            client.patch_labels("other", "7").await.unwrap(),
            "patched other 7"
        );
        assert_eq!(
            client.get_thing_labels("5").await.unwrap(),
            "labels of 5"
        );
        // A method neither route has is still not allowed.
        let (status, _) = call(Method::DELETE, "/things/5/labels").await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    }

    /// Zero bytes with the documented Content-Type are a body: an empty text is judged by its
    /// schema (`minLength: 1` refuses it before the handler), and an empty form is a form of
    /// no fields, which the generated client sends for `{}` (the server called it absent).
    #[tokio::test]
    async fn an_empty_text_or_form_is_a_body_its_schema_judges() {
        let empty_text = Request::builder()
            .method(Method::PUT)
            .uri("/password")
            .header("content-type", "text/plain")
            .body(Body::empty())
            .unwrap();
        let answer = router(Echo).oneshot(empty_text).await.unwrap();
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST);
        let client = client().await;
        assert_eq!(
            client
                .set_password(fixture_routes::client::RawBody::new(b"s3cret"))
                .await
                .unwrap(),
            "6 characters"
        );
        assert_eq!(
            client.create_token(&serde_json::json!({})).await.unwrap(),
            r#"form """#
        );
        assert_eq!(
            client
                .create_token(&serde_json::json!({"scope": "read"}))
                .await
                .unwrap(),
            r#"form "scope=read""#
        );
        // Without the form's Content-Type, zero bytes are no body, which is required.
        let (status, _) = call(Method::POST, "/tokens").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }

    /// A server that negotiates, as Java frameworks do (XML unless the client asks for JSON),
    /// answers the generated client in JSON: the client asks for the media types it reads,
    /// where reqwest alone would send `*/*` and get XML it cannot decode.
    #[tokio::test]
    async fn the_client_asks_for_the_media_types_it_reads() {
        use std::sync::{Arc, Mutex};
        let seen = Arc::new(Mutex::new(Vec::new()));
        let negotiating = {
            let seen = seen.clone();
            move |headers: axum::http::HeaderMap| async move {
                let accept = headers
                    .get_all("accept")
                    .iter()
                    .map(|value| value.to_str().unwrap().to_string())
                    .collect::<Vec<_>>()
                    .join(" | ");
                let json = accept.contains("application/json");
                seen.lock().unwrap().push(accept);
                if json {
                    ([("content-type", "application/json")], "\"octocat/hello\"")
                } else {
                    (
                        [("content-type", "application/xml")],
                        "<repo>octocat/hello</repo>",
                    )
                }
            }
        };
        let app = axum::Router::new()
            .route("/repos/{owner}/{repo}", axum::routing::get(negotiating.clone()))
            .route(
                "/repos/{owner}/{repo}/reactions",
                axum::routing::get(negotiating),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let client = fixture_routes::client::Client::new(
            format!("http://{address}"),
            fixture_routes::credentials::Credentials::new(),
        )
        .unwrap();
        let repo = client
            .get_repo("octocat", "hello")
            .await
            .unwrap();
        assert_eq!(repo, "octocat/hello");
        // The success body's JSON type and the error body's own, once each: one header, the
        // error's at a lower weight, so that a server choosing between the two for a success
        // answers in the success's.
        assert_eq!(
            *seen.lock().unwrap(),
            ["application/json, application/problem+json;q=0.9"]
        );
        // An operation whose `Accept` parameter defaults to a media type of the API's own
        // (GitHub's previews) asks for that one, which its server requires.
        seen.lock().unwrap().clear();
        let _ = client
            .list_reactions("octocat", "hello")
            .await;
        assert_eq!(
            *seen.lock().unwrap(),
            ["application/vnd.github.squirrel-girl-preview+json"]
        );
    }

    /// HTTP Basic credentials, and OAuth 2 and OpenID Connect access tokens, go from the
    /// generated client in `Authorization` and reach the handler as they were given; a call
    /// without them is refused 401, and `Debug` shows none of them.
    #[tokio::test]
    async fn basic_and_oauth_credentials_travel_in_authorization() {
        use fixture_routes::client::{Client, ClientError};
        use fixture_routes::credentials::{BasicAuth, Credentials};
        let base = serve().await;
        let client_with = |change: &dyn Fn(&mut Credentials)| {
            let mut credentials = Credentials::new();
            change(&mut credentials);
            Client::new(base.clone(), credentials).unwrap()
        };
        // The password is everything after the user name's colon (RFC 7617).
        let basic = || Some(BasicAuth::new("AC123", "pa:ss"));
        let client = client_with(&|c| c.basic_auth = basic());
        assert_eq!(client.get_with_basic().await.unwrap(), "AC123 pa:ss");
        // A bearer token does not say which scheme issued it: the server hands it to each
        // the operation names.
        let client = client_with(&|c| c.oauth = Some("access-token".into()));
        assert_eq!(
            client.get_with_token().await.unwrap(),
            r#"oauth=Some("access-token") oidc=Some("access-token")"#
        );
        let client = client_with(&|c| c.oidc = Some("id-token".into()));
        assert_eq!(
            client.get_with_token().await.unwrap(),
            r#"oauth=Some("id-token") oidc=Some("id-token")"#
        );
        // `Authorization` carries one scheme: the client sends the one of a requirement it
        // meets whole. Holding Basic and a token but not the key Basic needs beside it, it
        // sends the token; holding the key too, Basic, the first requirement.
        let client = client_with(&|c| {
            c.basic_auth = basic();
            c.oauth = Some("access-token".into());
        });
        assert_eq!(
            client.get_with_either().await.unwrap(),
            r#"basic=None oauth=Some("access-token")"#
        );
        let client = client_with(&|c| {
            c.basic_auth = basic();
            c.oauth = Some("access-token".into());
            c.query_key = Some("q3y".into());
        });
        assert!(
            client
                .get_with_either()
                .await
                .unwrap()
                .starts_with(r#"basic=Some("AC123")"#)
        );
        // A scheme's word alone is no token, not IANA's nor one the document declares.
        for word in ["DPoP", "Negotiate", "HMAC-SHA256", "Bearer"] {
            let (status, text) =
                call_with(Method::GET, "/secure/oauth", &[("authorization", word)]).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{word}: {text}");
        }
        // A 401 says how to authenticate (RFC 9110): a challenge per scheme that travels in
        // `Authorization`.
        for (path, challenge) in [
            ("/secure/basic", "Basic realm=\"api\""),
            ("/secure/token", "Bearer"),
            // Scheme names are case-insensitive (RFC 9110); the contract keeps them so.
            ("/secure/signed", "hmac-sha256"),
            ("/secure/either", "Basic realm=\"api\", Bearer"),
        ] {
            let request = Request::builder()
                .method(Method::GET)
                .uri(path)
                .body(Body::empty())
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{path}");
            assert_eq!(
                response.headers()["www-authenticate"].to_str().unwrap(),
                challenge,
                "{path}"
            );
        }
        // Basic's base64 without its padding is read, for the check and the handler alike.
        let (status, text) = call_with(
            Method::GET,
            "/secure/basic",
            &[("authorization", "Basic QUMxMjM6cGE6c3M")],
        )
        .await;
        assert_eq!((status, text.as_str()), (StatusCode::OK, r#""AC123 pa:ss""#));
        // A key the operation does not name is not sent: `getWithBasic` takes Basic alone,
        // so neither the cookie key nor the query key goes with it.
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = sent.clone();
        let mut credentials = Credentials::new();
        credentials.basic_auth = basic();
        credentials.cookie_key = Some("k3y".into());
        credentials.query_key = Some("q3y".into());
        let observed = Client::builder(base.clone(), credentials)
            .observe(move |request, _| {
                let cookie = request.headers().get("cookie").cloned();
                seen.lock()
                    .unwrap()
                    .push((request.uri().to_string(), cookie));
            })
            .build()
            .unwrap();
        assert_eq!(observed.get_with_basic().await.unwrap(), "AC123 pa:ss");
        let sent = sent.lock().unwrap().clone();
        assert_eq!(sent.len(), 1);
        assert!(!sent[0].0.contains("q3y"), "{:?}", sent[0]);
        assert_eq!(sent[0].1, None, "{:?}", sent[0]);
        // An operation that says it takes no credential (`getRepo`'s `security: []`: a login, a
        // health check) is sent none: a key it does not ask for would only leak there. One
        // whose document names no scheme anywhere (`getNote`), as a document that forgot to
        // would have it, is sent what the client holds.
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = sent.clone();
        let mut credentials = Credentials::new();
        credentials.basic_auth = basic();
        credentials.oauth = Some("access-token".into());
        credentials.cookie_key = Some("k3y".into());
        credentials.query_key = Some("q3y".into());
        let observed = Client::builder(base.clone(), credentials)
            .observe(move |request, _| {
                let headers = request.headers();
                seen.lock().unwrap().push((
                    request.uri().to_string(),
                    headers.get("authorization").cloned(),
                    headers.get("cookie").cloned(),
                ));
            })
            .build()
            .unwrap();
        let repo = observed
            .get_repo("octocat", "hello")
            .await
            .unwrap();
        assert_eq!(repo, "repo octocat/hello");
        let note = observed.get_note("n1", None).await.unwrap();
        assert_eq!(note, "note n1");
        let sent = sent.lock().unwrap().clone();
        assert_eq!(sent.len(), 2);
        assert!(!sent[0].0.contains("q3y"), "{:?}", sent[0]);
        assert_eq!((&sent[0].1, &sent[0].2), (&None, &None), "{:?}", sent[0]);
        assert!(sent[1].0.contains("q3y"), "{:?}", sent[1]);
        assert!(sent[1].1.is_some() && sent[1].2.is_some(), "{:?}", sent[1]);
        // To the schemes the operation names alone: `oidc` is not one of `getWithOauth`'s.
        let client = client_with(&|c| c.oauth = Some("access-token".into()));
        assert_eq!(
            client.get_with_oauth().await.unwrap(),
            r#"oauth=Some("access-token") oidc=None"#
        );
        // Several set: one `Authorization` line, of the first scheme in the spec's order
        // that the operation accepts, so each call gets its own.
        let client = client_with(&|c| {
            c.basic_auth = basic();
            c.oauth = Some("access-token".into());
        });
        assert_eq!(client.get_with_basic().await.unwrap(), "AC123 pa:ss");
        assert_eq!(
            client.get_with_token().await.unwrap(),
            r#"oauth=Some("access-token") oidc=Some("access-token")"#
        );
        // The server takes an HTTP credential only in its own scheme: a bearer token where
        // the operation takes Basic is none.
        let (status, _) = call_with(
            Method::GET,
            "/secure/basic",
            &[("authorization", "Bearer access-token")],
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        // An OAuth 2 token is taken in any scheme (GitHub's `token`), as specval takes it, and
        // the handler gets what was presented: it had run with `None` beside a passed check.
        for (sent, token) in [
            ("token gh_1", "gh_1"),
            ("Digest abc", "abc"),
            ("garbage", "garbage"),
        ] {
            let (status, body) =
                call_with(Method::GET, "/secure/oauth", &[("authorization", sent)]).await;
            assert_eq!(status, StatusCode::OK, "{sent}");
            assert!(
                body.contains(&format!("oauth=Some(\\\"{token}\\\")")),
                "{sent}: {body}"
            );
        }
        // Another HTTP scheme (`HMAC-SHA256`): the credential is an `Authorization` value in
        // that scheme, the word in any case. Without it, or in another scheme, the handler
        // does not run; the server had let every such call through.
        for refused in [
            None,
            Some("Bearer sig-1"),
            Some("HMAC-SHA256 "),
            Some("HMAC-SHA256"),
        ] {
            let headers: Vec<(&str, &str)> =
                refused.map(|v| ("authorization", v)).into_iter().collect();
            let (status, _) = call_with(Method::GET, "/secure/signed", &headers).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused:?}");
        }
        let (status, body) = call_with(
            Method::GET,
            "/secure/signed",
            &[("authorization", "hmac-sha256 sig-1")],
        )
        .await;
        assert_eq!(
            (status, body.as_str()),
            (StatusCode::OK, r#""hmac=Some(\"sig-1\")""#)
        );
        let client = client_with(&|c| c.hmac = Some("sig-2".into()));
        assert_eq!(
            client.get_with_hmac().await.unwrap(),
            r#"hmac=Some("sig-2")"#
        );
        let unsigned = client_with(&|c| c.oauth = Some("access-token".into()));
        assert!(matches!(
            unsigned.get_with_hmac().await,
            Err(ClientError::Api { .. } | ClientError::ApiOther { .. })
        ));
        // `Debug` shows none of them.
        let mut credentials = Credentials::new();
        credentials.basic_auth = basic();
        credentials.oauth = Some("access-token".into());
        let shown = format!("{credentials:?}");
        for secret in ["AC123", "pa:ss", "access-token"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        // Without credentials: the server refuses before the handler.
        let bare = client_with(&|_| {});
        for refused in [
            bare.get_with_basic().await.unwrap_err(),
            bare.get_with_token().await.unwrap_err(),
        ] {
            assert!(
                matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 401),
                "{refused}"
            );
        }
        let (status, _) = call_with(Method::GET, "/secure/basic", &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    /// Cookie parameters and a cookie credential leave the generated client in one `Cookie`
    /// line (RFC 6265 5.4: a server may read only the first), and reach the handler; so does
    /// an API key in the query. Cookie and query names are case-sensitive (`SID`, `apiKey`):
    /// the server finds them as the spec writes them.
    #[tokio::test]
    async fn cookies_travel_in_one_header_and_arrive_whole() {
        use fixture_routes::credentials::Credentials;
        use fixture_routes::models::GetWithCookiesTheme;
        use std::sync::{Arc, Mutex};
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recording = {
            let seen = seen.clone();
            move |uri: axum::http::Uri, headers: axum::http::HeaderMap| async move {
                let mut lines: Vec<String> = headers
                    .get_all("cookie")
                    .iter()
                    .map(|value| value.to_str().unwrap().to_string())
                    .collect();
                lines.push(uri.query().unwrap_or_default().to_string());
                seen.lock().unwrap().push(lines);
                ([("content-type", "application/json")], "\"seen\"")
            }
        };
        let app = axum::Router::new().route("/secure/cookies", axum::routing::get(recording));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let mut credentials = Credentials::new();
        credentials.cookie_key = Some("k3y".into());
        credentials.query_key = Some("q3y".into());
        let theme = GetWithCookiesTheme::Dark;
        let client =
            fixture_routes::client::Client::new(format!("http://{address}"), credentials.clone())
                .unwrap();
        client
            .get_with_cookies("s1", Some(&theme), Some(&[1, 2]))
            .await
            .unwrap();
        assert_eq!(
            *seen.lock().unwrap(),
            [[
                "session=s1; theme=dark; ids=1; ids=2; SID=k3y",
                "apiKey=q3y"
            ]]
        );

        let client = fixture_routes::client::Client::new(serve().await, credentials).unwrap();
        assert_eq!(
            client
                .get_with_cookies("s1", Some(&theme), Some(&[1, 2]))
                .await
                .unwrap(),
            r#"session=s1 theme=Some("dark") ids=Some([1, 2]) key=Some("k3y") query_key=Some("q3y")"#
        );

        // A value holding what a cookie cannot carry travels percent-encoded and arrives
        // whole: its `;` neither ends it nor sets another cookie.
        let mut credentials = Credentials::new();
        credentials.cookie_key = Some("c=o;o k%".into());
        credentials.query_key = Some("q".into());
        let client = fixture_routes::client::Client::new(serve().await, credentials).unwrap();
        assert_eq!(
            client
                .get_with_cookies("abc; theme=light", None, None)
                .await
                .unwrap(),
            r#"session=abc; theme=light theme=None ids=None key=Some("c=o;o k%") query_key=Some("q")"#
        );
    }

    /// The fields of a form, sorted, to compare whatever order they were sent in.
    fn fields(form: &str) -> Vec<(String, String)> {
        let mut fields: Vec<(String, String)> = serde_urlencoded::from_str(form).unwrap();
        fields.sort();
        fields
    }

    #[tokio::test]
    async fn the_client_sends_a_form_the_server_checks_and_passes_on() {
        use fixture_routes::client::ClientError;
        let client = client().await;
        let body = serde_json::json!({"Body": "hi there", "Attempt": 2, "MediaUrl": ["a", "b&c"]});
        let echo = client
            .update_message("SM1", Some(&5), &body)
            .await
            .unwrap();
        assert_eq!(echo["sid"], "SM1");
        assert_eq!(
            echo["limit"], 5,
            "a query parameter whose schema is a component"
        );
        let sent = fields(echo["form"].as_str().unwrap());
        let expected = [
            ("Attempt", "2"),
            ("Body", "hi there"),
            ("MediaUrl", "a"),
            ("MediaUrl", "b&c"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(sent, expected);
        // Fields and parameters that break their schemas are refused before the handler.
        for (limit, body) in [
            (Some(50), serde_json::json!({"Body": "hi"})),
            (None, serde_json::json!({"Body": "hi", "Attempt": 0})),
            (None, serde_json::json!({"Attempt": 1})),
        ] {
            let refused = client
                .update_message("SM1", limit.as_ref(), &body)
                .await
                .unwrap_err();
            assert!(
                matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 400),
                "{body} {limit:?}: {refused}"
            );
        }
    }

    /// A form's `encoding` is how its fields travel both ways: `explode: false` joins a list
    /// into one field, a JSON `contentType` makes an object one field of JSON text. The
    /// client sends them so and the server reads them so, item by item.
    #[tokio::test]
    async fn a_forms_encoding_is_how_the_client_sends_and_the_server_reads_its_fields() {
        use fixture_routes::client::ClientError;
        let client = client().await;
        let body = serde_json::json!({
            "Body": "hi", "Codes": [1, 2, 3], "Meta": {"k": "v,w", "n": 2}
        });
        let echo = client
            .update_message("SM1", None, &body)
            .await
            .unwrap();
        let sent = fields(echo["form"].as_str().unwrap());
        let expected = [
            ("Body", "hi"),
            ("Codes", "1,2,3"),
            ("Meta", r#"{"k":"v,w","n":2}"#),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(sent, expected);
        // Each item and member is checked by its schema: a wrong one is refused by name.
        for (form, wanted) in [
            ("Body=hi&Codes=1,2", StatusCode::OK),
            ("Body=hi&Codes=", StatusCode::OK),
            ("Body=hi&Codes=1,x", StatusCode::BAD_REQUEST),
            ("Body=hi&Meta=%7B%22n%22%3A2%7D", StatusCode::OK),
            ("Body=hi&Meta=%7B%22n%22%3A%22two%22%7D", StatusCode::BAD_REQUEST),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/messages/SM1.json")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(form))
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            assert_eq!(status, wanted, "{form}: {text}");
            if wanted == StatusCode::BAD_REQUEST {
                assert!(
                    text.contains("/Codes/1") || text.contains("/Meta/n"),
                    "{form}: {text}"
                );
            }
        }
        let refused = client
            .update_message(
                "SM1",
                None,
                &serde_json::json!({"Body": "hi", "Codes": ["x"]}),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 400),
            "{refused}"
        );
    }

    /// A scalar query key sent more than once is checked at every value, as specval checks
    /// them; the handler reads the first.
    #[tokio::test]
    async fn every_value_of_a_repeated_scalar_query_parameter_is_checked() {
        for (query, wanted) in [
            ("Limit=5&Limit=6", StatusCode::OK),
            ("Limit=5&Limit=50", StatusCode::BAD_REQUEST),
            ("Limit=5&Limit=x", StatusCode::BAD_REQUEST),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri(format!("/messages/SM1.json?{query}"))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from("Body=hi"))
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            assert_eq!(status, wanted, "{query}: {text}");
            if wanted == StatusCode::OK {
                assert!(text.contains("\"limit\":5"), "{query}: {text}");
            } else {
                assert!(text.contains("Limit"), "{query}: {text}");
            }
        }
    }

    #[tokio::test]
    async fn a_form_operation_refuses_json() {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/messages/SM1.json")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"Body": "hi"}"#))
            .unwrap();
        let response = router(Echo).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("application/x-www-form-urlencoded"), "{text}");
    }

    /// A multipart body's parts are checked as the fields of its schema, as specval checks
    /// them: a missing required part, a part that is no integer where one is, and a body that
    /// is not made of parts are refused before the handler; the handler still gets the bytes.
    #[tokio::test]
    async fn a_multipart_body_is_checked_part_by_part() {
        let part = |name: &str, text: &str| {
            format!("--b\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{text}\r\n")
        };
        let file = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\
                    Content-Type: image/png\r\n\r\nPNG\r\n";
        for (body, status, said) in [
            (
                format!("{file}{}--b--\r\n", part("count", "3")),
                StatusCode::OK,
                "",
            ),
            (
                format!("{}--b--\r\n", part("count", "3")),
                StatusCode::BAD_REQUEST,
                "file",
            ),
            (
                format!("{file}{}--b--\r\n", part("count", "notanumber")),
                StatusCode::BAD_REQUEST,
                "integer",
            ),
            (
                "garbage".to_string(),
                StatusCode::BAD_REQUEST,
                "not multipart/form-data",
            ),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/uploads")
                .header("content-type", "multipart/form-data; boundary=b")
                .body(Body::from(body.clone()))
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            assert_eq!(response.status(), status, "{body}");
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            if status == StatusCode::OK {
                assert_eq!(text, body.len().to_string());
            } else {
                assert!(text.contains(said), "{said}: {text}");
            }
        }
    }

    /// A multipart upload reaches its handler as sent; another media type is refused.
    #[tokio::test]
    async fn a_multipart_upload_passes_unread_and_only_as_documented() {
        let upload = "--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nPNG\r\n--b--\r\n";
        for (content_type, status, answer) in [
            (
                "multipart/form-data; boundary=b",
                StatusCode::OK,
                upload.len().to_string(),
            ),
            ("text/plain", StatusCode::BAD_REQUEST, String::new()),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/uploads")
                .header("content-type", content_type)
                .body(Body::from(upload))
                .unwrap();
            let response = router(Echo).oneshot(request).await.unwrap();
            assert_eq!(response.status(), status, "{content_type}");
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            if status == StatusCode::OK {
                assert_eq!(String::from_utf8_lossy(&bytes), answer);
            } else {
                let text = String::from_utf8_lossy(&bytes);
                assert!(text.contains("multipart/form-data"), "{text}");
            }
        }
    }

    /// A required `readOnly` property is left out of requests and a required `writeOnly` one
    /// out of responses, as OpenAPI reads `required` beside them: the generated server takes a
    /// new pet without the id it assigns, and the client reads the answer without the secret.
    #[tokio::test]
    async fn a_request_leaves_out_what_the_server_assigns() {
        use fixture_routes::client::ClientError;
        use fixture_routes::models::Pet;
        let client = client().await;
        let pet: Pet =
            serde_json::from_value(serde_json::json!({"name": "Rex", "secret": "s3"})).unwrap();
        let created = client.create_pet(&pet).await.unwrap();
        assert_eq!(created.id.as_deref(), Some("pet-Rex-2"));
        assert_eq!(created.name, "Rex");
        assert_eq!(created.secret, None);
        // The other properties stay required: a pet without its secret is refused before
        // the handler.
        let unnamed: Pet = serde_json::from_value(serde_json::json!({"name": "Rex"})).unwrap();
        let refused = client.create_pet(&unnamed).await.unwrap_err();
        assert!(
            matches!(&refused, ClientError::Api { status, .. } if status.as_u16() == 400),
            "{refused}"
        );
    }

    /// Records the notifications a receiver takes.
    #[derive(Clone, Default)]
    struct Inbox(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

    impl fixture_routes::webhooks::Webhooks for Inbox {
        async fn pet_adopted(
            &self,
            payload: fixture_routes::models::PostHooksShelterAdoptedRequest,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("adopted {:?}", payload.pet));
            Ok(())
        }
        async fn pet_lost(
            &self,
            payload: fixture_routes::models::Post3apetLostRequest,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("lost {:?}", payload.pet));
            Ok(())
        }
        async fn pet_found(
            &self,
            payload: fixture_routes::models::PetEvent,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("found {:?}", payload.pet));
            Ok(())
        }
        async fn pet_moved(
            &self,
            payload: fixture_routes::models::PetEvent,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("moved {:?}", payload.pet));
            Ok(())
        }
        async fn create_note_noted(
            &self,
            payload: fixture_routes::models::PostCreateNoteNotedRequest,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("noted {:?}", payload.text));
            Ok(())
        }
        async fn sms_inbound(
            &self,
            payload: serde_json::Value,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0.lock().unwrap().push(format!("inbound {payload}"));
            Ok(())
        }
        async fn ping(&self) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0.lock().unwrap().push("ping".to_string());
            Ok(())
        }
        async fn sms_status(
            &self,
            payload: serde_json::Value,
            headers: fixture_routes::webhooks::SmsStatusHeaders,
        ) -> Result<(), fixture_routes::webhooks::HandlerError> {
            self.0.lock().unwrap().push(format!(
                "sms {payload} signed {} token {:?}",
                headers.x_twilio_signature, headers.i_twilio_idempotency_token
            ));
            Ok(())
        }
    }

    /// Two notifications delivered at one path with one method (an SMS's status and an
    /// incoming SMS at `/hooks/sms`) share the route, which axum refused to build twice: each
    /// delivery reaches the handler of the notification it keeps, and one that keeps neither
    /// is refused by the first's rules.
    #[tokio::test]
    async fn notifications_at_one_path_reach_each_its_own_handler() {
        use fixture_routes::webhooks::{Delivery, DeliveryPolicy, Sender, SmsStatusHeaders};
        let inbox = Inbox::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let receiver = fixture_routes::webhooks::receiver(inbox.clone());
        tokio::spawn(async move { axum::serve(listener, receiver).await.unwrap() });
        let sender = Sender::new(DeliveryPolicy {
            max_attempts: 1,
            ..DeliveryPolicy::default()
        });
        let inbound = serde_json::json!({"From": "+15550100", "Body": "hi"});
        assert_eq!(
            sender.sms_inbound(&base, &inbound).await,
            Delivery::Delivered { attempts: 1 }
        );
        let signed = SmsStatusHeaders {
            x_twilio_signature: "c2lnbmF0dXJl".into(),
            i_twilio_idempotency_token: Some("t1".into()),
        };
        let status = serde_json::json!({"MessageSid": "SM2"});
        assert_eq!(
            sender.sms_status(&base, &status, &signed).await,
            Delivery::Delivered { attempts: 1 }
        );
        assert_eq!(
            *inbox.0.lock().unwrap(),
            [
                r#"inbound {"Body":"hi","From":"+15550100"}"#,
                r#"sms {"MessageSid":"SM2"} signed c2lnbmF0dXJl token Some("t1")"#
            ]
        );
        let refused = reqwest::Client::new()
            .post(format!("{base}/hooks/sms"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("Other=1")
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 400);
        assert_eq!(inbox.0.lock().unwrap().len(), 2, "no handler ran");
    }

    /// A notification that is not a JSON POST is sent with its documented method and media
    /// type by the generated sender, and read so by the generated receiver: a GET without a
    /// body, a form whose fields are checked by its schema.
    #[tokio::test]
    async fn the_sender_and_receiver_use_each_notifications_method_and_media_type() {
        use fixture_routes::webhooks::{Delivery, DeliveryPolicy, Sender, SmsStatusHeaders};
        let inbox = Inbox::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let receiver = fixture_routes::webhooks::receiver(inbox.clone());
        tokio::spawn(async move { axum::serve(listener, receiver).await.unwrap() });
        let sender = Sender::new(DeliveryPolicy {
            max_attempts: 1,
            ..DeliveryPolicy::default()
        });
        assert_eq!(
            sender.ping(&base).await,
            Delivery::Delivered { attempts: 1 }
        );
        let sms = serde_json::json!({"MessageSid": "SM1", "Attempt": 2});
        // Its documented headers go with it, and reach the handler as sent.
        let signed = SmsStatusHeaders {
            x_twilio_signature: "c2lnbmF0dXJl".into(),
            i_twilio_idempotency_token: None,
        };
        assert_eq!(
            sender.sms_status(&base, &sms, &signed).await,
            Delivery::Delivered { attempts: 1 }
        );
        // The form's fields are read by their schema: `Attempt` is the integer it says.
        assert_eq!(
            *inbox.0.lock().unwrap(),
            [
                "ping",
                r#"sms {"Attempt":2,"MessageSid":"SM1"} signed c2lnbmF0dXJl token None"#
            ]
        );
        // Another peer's form is read the same way, and its fields and headers checked: a
        // delivery without its signature, or with one its schema refuses, is refused.
        let http = reqwest::Client::new();
        let sent = |body: &'static str, signature: Option<&'static str>| {
            let mut request = http
                .post(format!("{base}/hooks/sms"))
                .header("content-type", "application/x-www-form-urlencoded")
                .header("i-twilio-idempotency-token", "tok-1");
            if let Some(signature) = signature {
                request = request.header("x-twilio-signature", signature);
            }
            request.body(body).send()
        };
        let signature = Some("c2lnbmF0dXJl");
        assert_eq!(
            sent("MessageSid=SM2", signature).await.unwrap().status(),
            204
        );
        assert!(
            inbox.0.lock().unwrap()[2].ends_with(r#"token Some("tok-1")"#),
            "{:?}",
            inbox.0.lock().unwrap()
        );
        assert_eq!(
            sent("MessageSid=SM3&Attempt=0", signature)
                .await
                .unwrap()
                .status(),
            400
        );
        for unsigned in [None, Some("short")] {
            let refused = sent("MessageSid=SM4", unsigned).await.unwrap();
            assert_eq!(refused.status(), 400, "{unsigned:?}");
            let text = refused.text().await.unwrap();
            assert!(text.contains("X-Twilio-Signature"), "{unsigned:?}: {text}");
        }
        assert_eq!(
            inbox.0.lock().unwrap().len(),
            3,
            "no refused delivery reached it"
        );
        let ping = http.get(format!("{base}/hooks/ping")).send().await.unwrap();
        assert_eq!(ping.status(), 204);
    }

    /// A callback goes to the very URL its subscriber gave (the value of
    /// `{$request.body#/callbackUrl}`), its query included, with nothing appended; the
    /// generated receiver takes it at its own path.
    #[tokio::test]
    async fn a_callback_is_sent_to_the_url_the_subscriber_gave() {
        use fixture_routes::webhooks::{Delivery, DeliveryPolicy, Sender};
        let targets = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = targets.clone();
        let inbox = Inbox::default();
        let receiver =
            fixture_routes::webhooks::receiver(inbox.clone()).layer(axum::middleware::from_fn(
                move |request: axum::extract::Request, next: axum::middleware::Next| {
                    seen.lock().unwrap().push(request.uri().to_string());
                    next.run(request)
                },
            ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, receiver).await.unwrap() });
        let sender = Sender::new(DeliveryPolicy {
            max_attempts: 1,
            ..DeliveryPolicy::default()
        });
        let payload: fixture_routes::models::PostCreateNoteNotedRequest =
            serde_json::from_value(serde_json::json!({"text": "hi"})).unwrap();
        let url = format!("{base}/createNote-noted?token=xyz");
        assert_eq!(
            sender.create_note_noted(&url, &payload).await,
            Delivery::Delivered { attempts: 1 }
        );
        assert_eq!(*targets.lock().unwrap(), ["/createNote-noted?token=xyz"]);
        assert_eq!(*inbox.0.lock().unwrap(), ["noted Some(\"hi\")"]);
    }

    /// At the receiver's root, the notifications without a path are told apart as the vendor
    /// delivers them all there, and as specval tells them: the one declaring most of the
    /// payload's members (`:petLost` requires nothing and keeps every payload, but a pet
    /// event without its `type` is a broken pet event, refused), then one it keeps, then the
    /// one the payload's `type` names (`petFound` and `petMoved` share a schema); else the
    /// first.
    #[tokio::test]
    async fn notifications_delivered_to_one_url_reach_the_one_their_payload_names() {
        let inbox = Inbox::default();
        let receiver = fixture_routes::webhooks::receiver(inbox.clone());
        for (payload, status) in [
            (r#"{"type": "petMoved", "pet": "rex", "place": "park"}"#, StatusCode::NO_CONTENT),
            (r#"{"type": "petFound", "pet": "rex"}"#, StatusCode::NO_CONTENT),
            (r#"{"pet": "rex"}"#, StatusCode::NO_CONTENT),
            (r#"{"pet": "rex", "place": "park"}"#, StatusCode::BAD_REQUEST),
            (r#"{"pet": 7}"#, StatusCode::BAD_REQUEST),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/")
                .header("content-type", "application/json")
                .body(Body::from(payload))
                .unwrap();
            let response = receiver.clone().oneshot(request).await.unwrap();
            assert_eq!(response.status(), status, "{payload}");
        }
        assert_eq!(
            *inbox.0.lock().unwrap(),
            [
                "moved Some(\"rex\")",
                "found Some(\"rex\")",
                "lost Some(\"rex\")"
            ]
        );
    }

    /// Delivery paths in axum 0.7's syntax (`/hooks/:shelter/adopted`, and a notification
    /// named `:petLost` without a path): axum 0.8 panics on such a route as the router is built.
    /// The receiver routes the first by position and the second at its encoded name, and each
    /// delivery reaches its own handler. The second, given no path, is also taken at the
    /// receiver's root, the one URL a vendor delivers such notifications to, wherever the
    /// merchant nests the receiver.
    #[tokio::test]
    async fn a_receiver_with_delivery_paths_in_axum_07_syntax_is_built_and_routes_each() {
        let inbox = Inbox::default();
        let receiver = axum::Router::new()
            .nest("/vendor", fixture_routes::webhooks::receiver(inbox.clone()))
            .merge(fixture_routes::webhooks::receiver(inbox.clone()));
        for (path, status) in [
            ("/hooks/north/adopted", StatusCode::NO_CONTENT),
            ("/%3ApetLost", StatusCode::NO_CONTENT),
            ("/", StatusCode::NO_CONTENT),
            ("/vendor", StatusCode::NO_CONTENT),
            ("/somewhere-else", StatusCode::NOT_FOUND),
        ] {
            let request = Request::builder()
                .method(Method::POST)
                .uri(path)
                .header("content-type", "application/json")
                .body(Body::from(r#"{"pet": "rex"}"#))
                .unwrap();
            let response = receiver.clone().oneshot(request).await.unwrap();
            assert_eq!(response.status(), status, "{path}");
        }
        assert_eq!(
            *inbox.0.lock().unwrap(),
            [
                "adopted Some(\"rex\")",
                "lost Some(\"rex\")",
                "lost Some(\"rex\")",
                "lost Some(\"rex\")"
            ]
        );
    }
}

/// The `swagger-2.yaml` fixture, a Swagger 2.0 document: its lists travel as 2.0 wrote them
/// (`collectionFormat` csv, 2.0's default, and multi), its body parameter is the request's
/// JSON body and its base path leads every route, from the generated client to any server and
/// to the generated one.
#[cfg(test)]
mod swagger_two {
    use std::sync::{Arc, Mutex};

    use fixture_swagger_2::credentials::{Credentials, Secret};
    use fixture_swagger_2::models::{Pet, PetBase};
    use fixture_swagger_2::server::*;

    /// Answers a listing with one pet per id, named after the tags and the trace.
    struct Pets;

    impl Api for Pets {
        async fn login(&self, _params: LoginParams, _body: axum::body::Bytes) -> LoginResponse {
            unreachable!("not called")
        }
        async fn list_pets(&self, params: ListPetsParams) -> ListPetsResponse {
            let name = format!(
                "limit={:?}/{} tags={:?} trace={:?}",
                params.limit,
                params.limit_or_default(),
                params.tags,
                params.x_trace
            );
            let pets = params.ids.unwrap_or_default().into_iter().map(|id| {
                Pet::Base(PetBase {
                    id,
                    name: name.clone(),
                    kind: "Cat".into(),
                    tag: Some(None),
                    additional_properties: Default::default(),
                })
            });
            let pets: Vec<Pet> = pets.collect();
            let total = pets.len().to_string();
            ListPetsResponse::Ok(
                pets,
                ListPetsOkHeaders {
                    x_total: Some(total),
                },
            )
        }
        async fn add_pet(&self, _params: AddPetParams, body: Pet) -> AddPetResponse {
            AddPetResponse::Created(body)
        }
        async fn get_pet(&self, _params: GetPetParams) -> GetPetResponse {
            unreachable!("not called")
        }
        async fn upload_photo(
            &self,
            _params: UploadPhotoParams,
            _body: axum::body::Bytes,
        ) -> UploadPhotoResponse {
            unreachable!("not called")
        }
    }

    fn credentials() -> Credentials {
        let mut credentials = Credentials::new();
        credentials.key = Some(Secret::new("k3y"));
        credentials
    }

    #[tokio::test]
    async fn lists_travel_as_the_collection_format_says() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recording = {
            let seen = seen.clone();
            move |uri: axum::http::Uri, headers: axum::http::HeaderMap| async move {
                let mut pairs: Vec<(String, String)> =
                    serde_urlencoded::from_str(uri.query().unwrap_or_default()).unwrap();
                for name in ["x-trace", "x-api-key"] {
                    let value = headers.get(name).map(|v| v.to_str().unwrap().to_string());
                    pairs.push((name.into(), value.unwrap_or_default()));
                }
                seen.lock().unwrap().push(pairs);
                ([("content-type", "application/json")], "[]")
            }
        };
        let app = axum::Router::new().route("/v2/pets", axum::routing::get(recording));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let client =
            fixture_swagger_2::client::Client::new(format!("http://{address}/v2"), credentials())
                .unwrap();
        let tags = ["a".to_string(), "b,c".to_string()];
        let trace = ["t1".to_string(), "t2".to_string()];
        let pets = client
            .list_pets(Some(&10), Some(&[1, 2]), Some(&tags), Some(&trace))
            .await
            .unwrap();
        // An optional documented header the answer lacks is `None`.
        assert!(pets.body.is_empty());
        assert_eq!(pets.headers.x_total, None);
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        assert_eq!(
            *seen.lock().unwrap(),
            [[
                pair("limit", "10"),
                pair("ids", "1,2"),
                pair("tags", "a"),
                pair("tags", "b,c"),
                pair("x-trace", "t1,t2"),
                pair("x-api-key", "k3y"),
            ]]
        );
    }

    /// A form's list goes as 2.0's `csv` says, one comma-separated value, where a 3.0 form
    /// would repeat the key.
    #[tokio::test]
    async fn a_form_list_goes_comma_separated() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recording = {
            let seen = seen.clone();
            move |headers: axum::http::HeaderMap, body: String| async move {
                let kind = headers
                    .get("content-type")
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_string();
                seen.lock().unwrap().push((kind, body));
                (
                    [("content-type", "application/json")],
                    r#"{"user": "bob", "scopes": ["read", "write"]}"#,
                )
            }
        };
        let app = axum::Router::new().route("/v2/login", axum::routing::post(recording));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let mut credentials = Credentials::new();
        credentials.basic = Some(fixture_swagger_2::credentials::BasicAuth::new("bob", "pw"));
        let client =
            fixture_swagger_2::client::Client::new(format!("http://{address}/v2"), credentials)
                .unwrap();
        let form = serde_json::json!({"user": "bob", "scopes": ["read", "write"]});
        let session = client.login(&form).await.unwrap();
        assert_eq!(session.scopes, ["read", "write"]);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].0, "application/x-www-form-urlencoded");
        let mut fields: Vec<(String, String)> = serde_urlencoded::from_str(&seen[0].1).unwrap();
        fields.sort();
        let field = |name: &str, value: &str| (name.to_string(), value.to_string());
        assert_eq!(
            fields,
            [field("scopes", "read,write"), field("user", "bob")]
        );
    }

    #[tokio::test]
    async fn the_generated_server_reads_them_back() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Pets)).await });
        let client =
            fixture_swagger_2::client::Client::new(format!("http://{address}/v2"), credentials())
                .unwrap();
        let tags = ["a".to_string(), "b,c".to_string()];
        let pets = client
            .list_pets(
                Some(&3),
                Some(&[7, 8]),
                Some(&tags),
                Some(&["t1".to_string()]),
            )
            .await
            .unwrap();
        // The documented `X-Total` header, set by the handler, comes with the body.
        assert_eq!(pets.headers.x_total.as_deref(), Some("2"));
        let pets = pets.body;
        let base = |pet: &Pet| match pet {
            Pet::Base(base) => base.clone(),
            other => panic!("a pet tagged `Cat`, which no subtype answers to, is the base: {other:?}"),
        };
        let ids: Vec<i64> = pets.iter().map(|pet| base(pet).id).collect();
        assert_eq!(ids, [7, 8]);
        assert_eq!(
            base(&pets[0]).name,
            r#"limit=Some(3)/3 tags=Some(["a", "b,c"]) trace=Some(["t1"])"#
        );
        // Without `limit`, the handler sees it absent, and its documented default beside.
        let pets = client
            .list_pets(None, Some(&[1]), None, None)
            .await
            .unwrap()
            .body;
        assert_eq!(base(&pets[0]).name, "limit=None/20 tags=None trace=None");
        // The body parameter is the JSON body; `x-nullable` keeps an explicit null apart from
        // an absent tag.
        let pet: Pet = serde_json::from_value(
            serde_json::json!({"id": 5, "name": "Rex", "kind": "Dog", "tag": null, "barks": true}),
        )
        .unwrap();
        let added = client.add_pet(&pet).await.unwrap();
        assert_eq!(added, pet);
        // A pet tagged `Dog` is the subtype, its own member typed.
        match added {
            Pet::Dog(dog) => {
                assert_eq!(dog.tag, Some(None));
                assert_eq!(dog.barks, Some(true));
                assert!(dog.additional_properties.is_empty());
            }
            other => panic!("a pet tagged `Dog` is a `Dog`: {other:?}"),
        }
        // Without the API key the server refuses before the handler.
        let anonymous = fixture_swagger_2::client::Client::new(
            format!("http://{address}/v2"),
            Credentials::new(),
        )
        .unwrap();
        assert!(anonymous.list_pets(None, None, None, None).await.is_err());
    }
}

/// Query parameters that carry objects (fixture `query-objects.yaml`): a component by `$ref`
/// and a map as `deepObject`, a component behind a lone `allOf` as form keys, and a JSON text.
/// The generated client sends each as its style or media type says, and the generated server
/// reads each back into its type; a value that breaks its schema is refused.
#[cfg(test)]
mod query_objects {
    use std::collections::BTreeMap;

    use fixture_query_objects::models::{Filter, FilterColor, PageFields, Where};
    use fixture_query_objects::server::*;
    use tower::ServiceExt;

    /// Answers with what it read, as JSON.
    struct Reader;

    impl Api for Reader {
        async fn search(&self, params: SearchParams) -> SearchResponse {
            let read = serde_json::json!({
                "filter": params.filter,
                "labels": params.labels,
                "where": params.where_,
                "page": params.page,
                "channel": params.channel,
            });
            SearchResponse::Ok(read.as_object().unwrap().clone())
        }

        async fn get_report(&self, params: GetReportParams) -> GetReportResponse {
            GetReportResponse::Ok(params.id)
        }

        async fn list_charges(&self, params: ListChargesParams) -> ListChargesResponse {
            ListChargesResponse::Ok(format!("{:?}", params.created))
        }
    }

    /// Answers `getReport` with the documented error its id names.
    struct Failing;

    impl Api for Failing {
        async fn search(&self, _params: SearchParams) -> SearchResponse {
            SearchResponse::Ok(Default::default())
        }

        async fn list_charges(&self, _params: ListChargesParams) -> ListChargesResponse {
            unreachable!("not called")
        }

        async fn get_report(&self, params: GetReportParams) -> GetReportResponse {
            use fixture_query_objects::models::{Invalid, Problem};
            let problem = |code: &str| Problem {
                code: code.to_string(),
                message: None,
                additional_properties: Default::default(),
            };
            match params.id.as_str() {
                "gone" => GetReportResponse::NotFound,
                "busy" => GetReportResponse::Conflict(problem("BUSY")),
                "bad" => GetReportResponse::UnprocessableEntity(Invalid {
                    errors: vec!["id: not a report id".to_string()],
                    additional_properties: Default::default(),
                }),
                "locked" => GetReportResponse::Status423("try at noon".to_string()),
                "down" => GetReportResponse::ServerError(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    problem("DOWN"),
                ),
                id => GetReportResponse::Ok(format!("report {id}")),
            }
        }
    }

    /// Each documented error reaches the caller as what the operation documents: the API's
    /// error body (`Problem`, the type most errors document) as `Api`; a `422` of a type of its
    /// own, a text `423` and a bare `404` as `ApiOther` with their bodies, where each was an
    /// `UnexpectedResponse` ("the error body does not match") before.
    #[tokio::test]
    async fn every_documented_error_reaches_the_caller_as_documented() {
        use fixture_query_objects::client::{Client, ClientError};
        use fixture_query_objects::credentials::Credentials;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Failing)).await });
        let client = Client::builder(format!("http://{address}"), Credentials::new())
            .retry(fixture_query_objects::retry::RetryPolicy::none())
            .build()
            .unwrap();
        let report = |id: &str| {
            let client = client.clone();
            let id = id.to_string();
            async move { client.get_report(&id).await }
        };
        assert_eq!(report("r1").await.unwrap(), "report r1");
        for (id, status, code) in [("busy", 409, "BUSY"), ("down", 503, "DOWN")] {
            match report(id).await {
                Err(ClientError::Api { status: got, body }) => {
                    assert_eq!((got.as_u16(), body.code.as_str()), (status, code));
                }
                other => panic!("{id}: {other:?}"),
            }
        }
        for (id, status, body) in [
            (
                "bad",
                422,
                serde_json::json!({"errors": ["id: not a report id"]}),
            ),
            ("locked", 423, serde_json::json!("try at noon")),
            ("gone", 404, serde_json::Value::Null),
        ] {
            match report(id).await {
                Err(ClientError::ApiOther {
                    status: got,
                    body: read,
                }) => {
                    assert_eq!((got.as_u16(), read), (status, body), "{id}");
                }
                other => panic!("{id}: {other:?}"),
            }
        }
    }

    /// A parameter that is an object or an integer (Stripe's `created`) is checked as what it
    /// was sent as: its members (`created[gte]=5`) by the object's properties, a whole value
    /// (`created=5`) as the integer. Before, the members went unchecked.
    #[tokio::test]
    async fn a_union_parameter_is_checked_as_its_members_or_whole() {
        let status = |query: &'static str| async move {
            let request = axum::http::Request::builder()
                .uri(format!("/charges?{query}"))
                .body(axum::body::Body::empty())
                .unwrap();
            router(Reader).oneshot(request).await.unwrap().status().as_u16()
        };
        assert_eq!(status("created[gte]=5").await, 200);
        assert_eq!(status("created=1700000000").await, 200);
        assert_eq!(status("created[gte]=yesterday").await, 400);
        assert_eq!(status("created=1.5").await, 400);
    }

    /// [`Reader`] served on a port of its own, and a client of it.
    async fn serve_reader() -> (std::net::SocketAddr, fixture_query_objects::client::Client) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Reader)).await });
        let client = fixture_query_objects::client::Client::new(
            format!("http://{address}"),
            fixture_query_objects::credentials::Credentials::new(),
        )
        .unwrap();
        (address, client)
    }

    /// The same parameter reaches the handler as the alternative it was sent as, from the
    /// generated client and from a raw query (`curl -g '…?created[gte]=5&created[gt]=1'`);
    /// it was `None` when sent as members, and the filter was lost.
    #[tokio::test]
    async fn a_union_parameter_reaches_the_handler_as_what_was_sent() {
        use fixture_query_objects::models::{ListChargesCreated, Range};
        let (address, client) = serve_reader().await;
        let range = ListChargesCreated::Range(Range {
            gt: Some(1),
            gte: Some(1_700_000_000),
            additional_properties: Default::default(),
        });
        let whole = ListChargesCreated::I64(1_700_000_000);
        for sent in [Some(range), Some(whole), None] {
            let read = client.list_charges(sent.as_ref()).await.unwrap();
            assert_eq!(read, format!("{sent:?}"));
        }
        let raw = |query: &'static str| {
            let url = format!("http://{address}/charges?{query}");
            async move {
                let text = reqwest::get(url).await.unwrap().text().await.unwrap();
                serde_json::from_str::<String>(&text).unwrap()
            }
        };
        let members = raw("created%5Bgte%5D=5&created%5Bgt%5D=1").await;
        assert!(
            members.starts_with("Some(Range(Range { gt: Some(1), gte: Some(5)"),
            "{members}"
        );
        assert_eq!(raw("created=7").await, "Some(I64(7))");
    }

    #[tokio::test]
    async fn objects_travel_typed_from_the_client_to_the_server() {
        let (_, client) = serve_reader().await;
        let filter = Filter {
            color: Some(FilterColor::Green),
            size: Some(3),
            additional_properties: Default::default(),
        };
        let labels = BTreeMap::from([("a".to_string(), 1), ("b".to_string(), 22)]);
        let where_ = Where {
            name: "rex & co".into(),
            age: Some(7),
            additional_properties: Default::default(),
        };
        let page = PageFields {
            number: Some(2),
            per_page: Some(50),
            additional_properties: Default::default(),
        };
        let read = client
            .search(
                Some(&filter),
                Some(&labels),
                Some(&where_),
                Some(&page),
                Some(&"messaging".to_string()),
            )
            .await
            .unwrap();
        assert_eq!(
            serde_json::Value::Object(read),
            serde_json::json!({
                "filter": {"color": "green", "size": 3},
                "labels": {"a": 1, "b": 22},
                "where": {"name": "rex & co", "age": 7},
                "page": {"number": 2, "per_page": 50},
                "channel": "messaging",
            })
        );
        let none = client.search(None, None, None, None, None).await.unwrap();
        assert_eq!(
            serde_json::Value::Object(none),
            serde_json::json!({"filter": null, "labels": null, "where": null, "page": null, "channel": null})
        );
    }

    /// The status the generated server answers a raw query with.
    async fn status_of(query: &str) -> u16 {
        let request = axum::http::Request::get(format!("/search?{query}"))
            .body(axum::body::Body::empty())
            .unwrap();
        router(Reader)
            .oneshot(request)
            .await
            .unwrap()
            .status()
            .as_u16()
    }

    #[tokio::test]
    async fn the_server_reads_each_style_and_refuses_what_breaks_the_schema() {
        assert_eq!(status_of("filter[color]=red&filter[size]=2").await, 200);
        assert_eq!(status_of("filter[color]=blue").await, 400);
        assert_eq!(status_of("labels[x]=1&labels[y]=2").await, 200);
        assert_eq!(status_of("labels[x]=one").await, 400);
        assert_eq!(
            status_of("where=%7B%22name%22%3A%22rex%22%7D").await,
            200,
            "where={{\"name\":\"rex\"}}"
        );
        assert_eq!(status_of("where=%7B%22age%22%3A3%7D").await, 400, "no name");
        assert_eq!(status_of("where=rex").await, 400, "not JSON");
        // A string written as JSON, or bare as clients send it: the contract's reading.
        assert_eq!(status_of("channel=%22messaging%22").await, 200);
        assert_eq!(status_of("channel=messaging").await, 200);
        assert_eq!(status_of("channel=much-too-long").await, 400, "maxLength");
        assert_eq!(status_of("number=2&per_page=5").await, 200);
        assert_eq!(status_of("number=two").await, 400);
    }
}

/// An API whose error body is JSON:API's list of error objects (`fixture-error-items`).
#[cfg(test)]
mod error_items {
    use fixture_error_items::client::{Client, ClientError};
    use fixture_error_items::credentials::Credentials;
    use fixture_error_items::server::*;

    struct Articles;

    impl Api for Articles {
        async fn get_article(&self, params: GetArticleParams) -> GetArticleResponse {
            GetArticleResponse::Ok(format!("article {}", params.id))
        }
    }

    /// The server's own rejection is the documented body, one error object per reason with
    /// the code and the detail, so the API's own client reads it as `ClientError::Api`, not as
    /// a body it cannot read (strings where the document has objects).
    #[tokio::test]
    async fn a_rejection_fills_one_error_object_per_reason() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Articles)).await });
        let client = Client::new(format!("http://{address}"), Credentials::new()).unwrap();
        assert_eq!(client.get_article(&7, None).await.unwrap(), "article 7");
        match client.get_article(&0, Some("too long")).await {
            Err(ClientError::Api { status, body }) => {
                assert_eq!(status.as_u16(), 400);
                assert_eq!(body.errors.len(), 2, "{body:?}");
                for error in &body.errors {
                    assert_eq!(error.code.as_deref(), Some("VALIDATION_ERROR"), "{body:?}");
                    assert!(error.additional_properties.is_empty(), "{body:?}");
                }
                let details: Vec<&str> = body.errors.iter().map(|e| e.detail.as_str()).collect();
                assert!(details.iter().any(|d| d.contains("id")), "{details:?}");
                assert!(details.iter().any(|d| d.contains("fields")), "{details:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}

/// OpenAPI's inheritance (fixture `inheritance.yaml`): a value declared as the base `Pet` is
/// the subtype its tag names, with the subtype's own members typed; the base's own tag, or a
/// tag no subtype answers to, is the base's struct; and each comes back as it went.
#[cfg(test)]
mod inheritance {
    use fixture_inheritance::credentials::Credentials;
    use fixture_inheritance::models::{Cat, CatBase, CatHuntingSkill, Pet, Sink};
    use fixture_inheritance::server::*;
    use serde_json::{Value, json};

    fn read(value: Value) -> Pet {
        let pet: Pet = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&pet).unwrap(), value, "{pet:?}");
        pet
    }

    /// A subtype whose struct has no member for the tag (the base's discriminator names
    /// `type`, no schema declares it) is written with its tag when built in code, so a reader
    /// tells it from the others; one read with its tag goes back as it came.
    #[test]
    fn a_subtype_built_in_code_is_written_with_its_tag() {
        use fixture_inheritance::models::{Geometry, LineString, Point};
        let line = Geometry::LineString(LineString {
            coordinates: Some(vec![vec![1.5, 2.5], vec![3.5, 4.5]]),
            ..Default::default()
        });
        let written = serde_json::to_value(&line).unwrap();
        assert_eq!(
            written,
            json!({"type": "LineString", "coordinates": [[1.5, 2.5], [3.5, 4.5]]})
        );
        let back: Geometry = serde_json::from_value(written).unwrap();
        assert!(matches!(back, Geometry::LineString(_)), "{back:?}");
        let point = Geometry::Point(Point::default());
        assert_eq!(serde_json::to_value(&point).unwrap(), json!({"type": "Point"}));
        let received = json!({"type": "Point", "coordinates": [1.5, 2.5], "bbox": [0.5]});
        let read: Geometry = serde_json::from_value(received.clone()).unwrap();
        assert!(matches!(&read, Geometry::Point(point) if point.coordinates.as_deref() == Some(&[1.5, 2.5][..])));
        assert_eq!(serde_json::to_value(&read).unwrap(), received);
    }

    /// An alternative that declares its tag optional (with a default) and is built in code
    /// without it is written with the tag its mapping gives, which the contract requires and
    /// by which it is read back; a tag it holds is written as it is.
    #[test]
    fn an_optional_tag_left_out_in_code_is_written() {
        use fixture_inheritance::models::{ImageField, ImageFieldType, TemplateField};
        let image = TemplateField::ImageField(ImageField {
            name: "img".into(),
            type_: None,
            additional_properties: Default::default(),
        });
        let written = serde_json::to_value(&image).unwrap();
        assert_eq!(written, json!({"name": "img", "type": "image"}));
        let back: TemplateField = serde_json::from_value(written).unwrap();
        assert!(
            matches!(&back, TemplateField::ImageField(field) if field.type_ == Some(ImageFieldType::Image)),
            "{back:?}"
        );
        let other = json!({"name": "img", "type": "picture"});
        let read = TemplateField::ImageField(serde_json::from_value(other.clone()).unwrap());
        assert_eq!(serde_json::to_value(&read).unwrap(), other);
    }

    #[test]
    fn each_tag_is_the_subtype_it_names() {
        // By the explicit mapping, a `Cat` with its own member typed.
        let cat = read(json!({"petType": "cat", "name": "Tom", "huntingSkill": "lazy"}));
        assert!(
            matches!(&cat, Pet::Cat(cat) if matches!(cat.as_ref(), Cat::Base(cat) if cat.hunting_skill == CatHuntingSkill::Lazy)),
            "{cat:?}"
        );
        // By its name, two levels down: a `Lion` extends `Cat`.
        let lion = read(json!({"petType": "Lion", "name": "Leo", "huntingSkill": "clueless", "mane": true}));
        assert!(matches!(&lion, Pet::Lion(lion) if lion.mane == Some(true)), "{lion:?}");
        // By Azure's `x-ms-discriminator-value`.
        let parrot = read(json!({"petType": "parrot", "name": "Polly", "words": ["hi"]}));
        assert!(
            matches!(&parrot, Pet::Parrot(parrot) if parrot.words.as_deref() == Some(&["hi".to_string()][..])),
            "{parrot:?}"
        );
        // A subtype that adds nothing holds the base's struct, and a member that is a `Pet`
        // is chosen by its own tag.
        let dog = read(json!({"petType": "Dog", "name": "Rex", "friend": {"petType": "cat", "name": "Tom", "huntingSkill": "lazy"}}));
        match &dog {
            Pet::Dog(dog) => assert!(matches!(dog.friend.as_deref(), Some(Pet::Cat(_)))),
            other => panic!("{other:?}"),
        }
    }

    /// `Cat`, which `Lion` extends, is a union of its own: a lion declared as a cat is a lion.
    #[test]
    fn a_subtype_that_others_extend_chooses_among_them() {
        let value = json!({"petType": "Lion", "name": "Leo", "huntingSkill": "clueless", "mane": false});
        let cat: Cat = serde_json::from_value(value.clone()).unwrap();
        assert!(matches!(&cat, Cat::Lion(lion) if lion.mane == Some(false)), "{cat:?}");
        assert_eq!(serde_json::to_value(&cat).unwrap(), value);
        let own: Cat = serde_json::from_value(json!({"petType": "cat", "name": "Tom", "huntingSkill": "lazy"})).unwrap();
        assert!(matches!(own, Cat::Base(_)), "{own:?}");
    }

    /// `Sink` pins its tag to an enum of every kind (`Invalid` among them, as Azure writes
    /// it), which `PipelineSink` inherits: a sink of kind `Invalid` is the base, not a
    /// pipeline sink.
    #[test]
    fn an_inherited_pin_of_the_tag_does_not_draw_other_kinds() {
        let invalid: Sink = serde_json::from_value(json!({"kind": "Invalid", "name": "x"})).unwrap();
        assert!(matches!(invalid, Sink::Base(_)), "{invalid:?}");
        let pipeline: Sink =
            serde_json::from_value(json!({"kind": "Pipeline", "account": "a1"})).unwrap();
        assert!(
            matches!(&pipeline, Sink::PipelineSink(sink) if sink.account.as_deref() == Some("a1")),
            "{pipeline:?}"
        );
    }

    /// `additionalProperties: {type: object}` (Azure's "anything") keeps a member that is no
    /// object, where the struct refused the whole value.
    #[test]
    fn members_beside_a_free_form_object_rule_are_kept_whatever_they_are() {
        use fixture_inheritance::models::Settings;
        let value = json!({"name": "s", "retries": 3, "labels": {"a": 1}});
        let settings: Settings = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(settings.additional_properties["retries"], 3);
        assert_eq!(serde_json::to_value(&settings).unwrap(), value);
    }

    #[test]
    fn the_bases_own_tag_and_an_unknown_one_are_the_base() {
        for tag in ["Pet", "Hamster"] {
            let pet = read(json!({"petType": tag, "name": "Ham", "wheel": 3}));
            match pet {
                Pet::Base(base) => {
                    assert_eq!(base.pet_type, tag);
                    assert_eq!(base.additional_properties["wheel"], 3);
                }
                other => panic!("{tag}: {other:?}"),
            }
        }
        // A cat without its required member is no typed cat: kept whole, as received, by the
        // union `Cat` its tag names.
        let broken = read(json!({"petType": "cat", "name": "Tom"}));
        assert!(
            matches!(&broken, Pet::Cat(cat) if matches!(cat.as_ref(), Cat::Unknown(_))),
            "{broken:?}"
        );
    }

    /// Stores nothing: answers with the pet it was given.
    struct Echo;

    impl Api for Echo {
        async fn list_pets(&self, _params: ListPetsParams) -> ListPetsResponse {
            unreachable!("not called")
        }
        async fn add_pet(&self, _params: AddPetParams, body: Pet) -> AddPetResponse {
            AddPetResponse::Created(body)
        }
        async fn set_sink(&self, _params: SetSinkParams, _body: Sink) -> SetSinkResponse {
            unreachable!("not called")
        }
    }

    #[tokio::test]
    async fn a_subtype_travels_as_itself_through_the_generated_server_and_client() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(Echo)).await });
        let client =
            fixture_inheritance::client::Client::new(format!("http://{address}"), Credentials::new())
                .unwrap();
        let cat = Pet::Cat(Box::new(Cat::Base(Box::new(CatBase {
            pet_type: "cat".into(),
            name: "Tom".into(),
            friend: None,
            hunting_skill: CatHuntingSkill::Clueless,
            additional_properties: Default::default(),
        }))));
        let stored = client.add_pet(&cat).await.unwrap();
        assert_eq!(stored, cat);
        assert!(matches!(stored, Pet::Cat(_)));
    }
}

/// A whole number read into a double goes back as it came (`100`, not serde's `100.0`),
/// wherever the double is: a struct's field, a component that is a bare double (AWS's
/// `Double`), a union's alternative. Only the field did.
#[cfg(test)]
mod whole_doubles {
    use fixture_formats::models::{Measure, Ratio};

    #[test]
    fn a_whole_double_is_written_as_it_came_in_a_newtype_and_a_union() {
        for text in ["100", "-3", "0", "2.5", "1e300"] {
            let ratio: Ratio = serde_json::from_str(text).unwrap();
            let expected: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_value(&ratio).unwrap(), expected, "{text}");
            let measure: Measure = serde_json::from_str(text).unwrap();
            assert!(matches!(measure, Measure::F64(_)), "{text}: {measure:?}");
            assert_eq!(serde_json::to_value(&measure).unwrap(), expected, "{text}");
        }
        assert_eq!(serde_json::to_string(&Ratio(100.0)).unwrap(), "100");
        assert_eq!(serde_json::to_string(&Measure::F64(7.0)).unwrap(), "7");
    }
}

/// 3.1's enum with a word per value (`oneOf` of `const`s with titles) is an enum: each value
/// lands in its own variant and goes back as it came, where it was a union of `String`
/// alternatives and `liability` came back as another variant than the one it was built as.
#[cfg(test)]
mod const_alternatives {
    use fixture_json_schema_2020_12::models::{AccountType, Currency};

    #[test]
    fn each_constant_is_its_own_variant_and_a_plain_string_opens_the_list() {
        for (text, expected) in [
            ("asset", AccountType::Asset),
            ("liability", AccountType::Liability),
            ("equity", AccountType::Equity),
            ("goodwill", AccountType::Unknown("goodwill".into())),
        ] {
            let read: AccountType = serde_json::from_value(text.into()).unwrap();
            assert_eq!(read, expected, "{text}");
            assert_eq!(serde_json::to_value(&read).unwrap(), text, "{text}");
        }
        assert_eq!(AccountType::KNOWN, ["asset", "liability", "equity"]);
        for (text, expected) in [
            ("EUR", Currency::Eur),
            ("USD", Currency::Usd),
            ("CHF", Currency::Unknown("CHF".into())),
        ] {
            let read: Currency = serde_json::from_value(text.into()).unwrap();
            assert_eq!(read, expected, "{text}");
            assert_eq!(serde_json::to_value(&read).unwrap(), text, "{text}");
        }
    }
}
