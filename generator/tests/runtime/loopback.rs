//! A loopback HTTP server that answers from a script and keeps what it was sent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::IntoResponse;

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    delay: Duration,
}

impl Reply {
    /// An answer with `status` and no body.
    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    /// With a header.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Reply {
        self.headers.push((name, value.into()));
        self
    }

    /// With a JSON body.
    pub fn json(mut self, body: serde_json::Value) -> Reply {
        self.headers
            .push(("content-type", "application/json".into()));
        self.body = body.to_string().into_bytes();
        self
    }

    /// With these bytes as its body.
    pub fn bytes(mut self, body: &[u8]) -> Reply {
        self.body = body.to_vec();
        self
    }

    /// Answered only after `delay`.
    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// Its path and query.
    pub uri: String,
    /// Its headers.
    pub headers: http::HeaderMap,
    /// Its body.
    pub body: Vec<u8>,
}

#[derive(Default)]
struct State {
    script: Mutex<VecDeque<Reply>>,
    received: Mutex<Vec<Received>>,
}

/// A running server.
pub struct Loopback {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    state: Arc<State>,
}

impl Loopback {
    /// Serves `script` in order, on the current tokio runtime; the last reply is repeated.
    pub async fn start(script: Vec<Reply>) -> Loopback {
        let state = Arc::new(State {
            script: Mutex::new(script.into()),
            received: Mutex::default(),
        });
        let router = axum::Router::new()
            .fallback(answer)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Loopback { url, state }
    }

    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }
}

async fn answer(
    axum::extract::State(state): axum::extract::State<Arc<State>>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    state.received.lock().unwrap().push(Received {
        uri: parts.uri.to_string(),
        headers: parts.headers,
        body: body.to_vec(),
    });
    let reply = {
        let mut script = state.script.lock().unwrap();
        if script.len() > 1 {
            script.pop_front().unwrap()
        } else {
            script.front().cloned().expect("a script")
        }
    };
    tokio::time::sleep(reply.delay).await;
    let mut response = (
        http::StatusCode::from_u16(reply.status).unwrap(),
        reply.body,
    )
        .into_response();
    for (name, value) in reply.headers {
        response
            .headers_mut()
            .insert(name, http::HeaderValue::from_str(&value).unwrap());
    }
    response
}
