// Over 600 lines on purpose: one generator of synthetic traffic, shared by the benchmark, an example and a script, kept whole.
//! Synthetic recorded traffic built from a spec's examples, for the throughput benchmark
//! (`benches/validate.rs`), `examples/synth_traffic.rs` and `scripts/bench-validate.sh`.
//!
//! Every operation contributes one exchange shape per response example (the request example
//! cycled beside it); the webhook contributes its payload and each reply. A shape carries
//! what a real client sends: the method, the concrete path with the example path parameters
//! under the first server's base path, the query, the credential headers with fake values, a
//! fresh idempotency key per exchange, content types. A request answered 401 is sent without
//! credentials, as the spec says it must be. Successful answers are ten times as frequent as
//! each error example, and the shapes are interleaved in a fixed pseudo-random order.
//!
//! About one exchange in a hundred breaks a rule, by turns: a required header missing, a
//! response property of the wrong type, an undocumented status, credentials missing on a
//! successful call, a wrong request content type (a shape that one of those cannot apply to
//! gets an unknown path instead). Everything else is clean.
//!
//! The file is written as it goes, one exchange at a time, until it reaches the size asked
//! for; nothing but the shapes is held in memory.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

/// A traffic file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line (specval's JSON Lines record, bodies as JSON values).
    Jsonl,
    /// HAR 1.2, one entry per line under `log.entries`, bodies as text.
    Har,
}

impl Format {
    /// `jsonl` or `har`.
    #[allow(dead_code)] // not every includer parses a name
    pub fn parse(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "jsonl" | "ndjson" => Some(Format::Jsonl),
            "har" => Some(Format::Har),
            _ => None,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    /// Exchanges written.
    pub exchanges: u64,
    /// Of those, the ones that break a rule.
    pub broken: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// How an exchange is made to break a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Breakage {
    MissingRequiredHeader,
    WrongPropertyType,
    UndocumentedStatus,
    MissingCredentials,
    WrongContentType,
}

const BREAKAGES: [Breakage; 5] = [
    Breakage::MissingRequiredHeader,
    Breakage::WrongPropertyType,
    Breakage::UndocumentedStatus,
    Breakage::MissingCredentials,
    Breakage::WrongContentType,
];

/// One exchange shape.
#[derive(Debug, Clone)]
struct Shape {
    notification: bool,
    method: String,
    /// Scheme and host.
    origin: String,
    /// The concrete path, base path included.
    path: String,
    query: Vec<(String, String)>,
    /// Headers sent every time (credentials excluded).
    headers: Vec<(String, String)>,
    /// Credential headers (`name`, fake value); empty for a 401 shape.
    credentials: Vec<(String, String)>,
    /// Header parameters that get a fresh UUID per exchange (idempotency keys), and whether
    /// each is required.
    fresh_uuid_headers: Vec<(String, bool)>,
    request_body: Option<Value>,
    request_content_type: Option<String>,
    status: u16,
    response_body: Option<Value>,
    /// The response body with a string its schema types as a string turned into a number.
    retyped_response_body: Option<Value>,
    response_content_type: Option<String>,
    /// The operation documents `default` or a class covering 418: an undocumented status
    /// cannot be made up.
    status_catch_all: bool,
    /// Pre-rendered bodies: JSON text, and that text as a JSON string (HAR).
    request_json: Option<String>,
    request_text: Option<String>,
    response_json: Option<String>,
    response_text: Option<String>,
}

/// Traffic shapes read from a spec, ready to be written out.
#[derive(Debug, Clone)]
pub struct Traffic {
    shapes: Vec<Shape>,
    /// Shape indexes, each repeated by its weight, in a fixed shuffled order.
    schedule: Vec<usize>,
}

/// Where the bench and the example find the spec.
#[allow(dead_code)] // not every includer reads the spec from its default place
pub fn default_spec_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml")
}

impl Traffic {
    /// Loads `spec` (YAML or JSON, through specgen's loader) and collects its shapes.
    pub fn from_spec(spec: &Path) -> Result<Traffic, String> {
        let doc = specgen::load::load_file(spec).map_err(|e| e.to_string())?;
        Traffic::from_document(&doc.root)
    }

    /// Collects the shapes of an OpenAPI 3.1 document given as a value.
    pub fn from_document(root: &Value) -> Result<Traffic, String> {
        let mut shapes = Vec::new();
        let mut weights = Vec::new();
        let (origin, base_path) = server(root);
        let global_security = root.get("security");
        for (template, item) in root
            .get("paths")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let item = resolve(root, item);
            for method in METHODS {
                let Some(op) = item.get(method) else {
                    continue;
                };
                let security = op.get("security").or(global_security);
                let context = OperationContext {
                    root,
                    item,
                    op,
                    method,
                    origin: &origin,
                    path: format!("{base_path}{template}"),
                    notification: false,
                    credentials: credentials(root, security),
                };
                context.shapes(&mut shapes, &mut weights);
            }
        }
        for (_, item) in root
            .get("webhooks")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let item = resolve(root, item);
            for method in METHODS {
                let Some(op) = item.get(method) else {
                    continue;
                };
                let Some(path) = op
                    .get("x-delivery-path")
                    .or_else(|| item.get("x-delivery-path"))
                    .and_then(Value::as_str)
                else {
                    continue; // nowhere to deliver it
                };
                let context = OperationContext {
                    root,
                    item,
                    op,
                    method,
                    origin: "https://merchant.example.com",
                    path: path.to_string(),
                    notification: true,
                    credentials: credentials(root, op.get("security")),
                };
                context.shapes(&mut shapes, &mut weights);
            }
        }
        if shapes.is_empty() {
            return Err("the spec has no operation with examples to build traffic from".into());
        }
        let mut schedule: Vec<usize> = weights
            .iter()
            .enumerate()
            .flat_map(|(index, &weight)| std::iter::repeat_n(index, weight))
            .collect();
        // Fisher-Yates with a fixed seed: the same file every time.
        let mut state = 0x5eed_u64;
        for i in (1..schedule.len()).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            schedule.swap(i, j);
        }
        Ok(Traffic { shapes, schedule })
    }

    /// Number of distinct exchange shapes.
    #[allow(dead_code)] // not every includer prints it
    pub fn shapes(&self) -> usize {
        self.shapes.len()
    }

    /// Writes traffic to `path` until it holds at least `target_bytes`.
    pub fn write_file(
        &self,
        path: &Path,
        target_bytes: u64,
        format: Format,
    ) -> io::Result<Summary> {
        let file = File::create(path)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let summary = self.write(&mut out, target_bytes, format)?;
        out.flush()?;
        Ok(summary)
    }

    /// Writes traffic until at least `target_bytes` are written (at least one exchange).
    pub fn write(
        &self,
        out: &mut impl Write,
        target_bytes: u64,
        format: Format,
    ) -> io::Result<Summary> {
        let mut summary = Summary::default();
        let mut buf = Vec::with_capacity(1 << 16);
        if format == Format::Har {
            buf.extend_from_slice(
                br#"{"log":{"version":"1.2","creator":{"name":"specval synth_traffic","version":"1.0"},"pages":[],"entries":["#,
            );
            buf.push(b'\n');
        }
        let mut n = 0u64;
        loop {
            let shape = &self.shapes[self.schedule[(n % self.schedule.len() as u64) as usize]];
            let broken = (n % 100 == 50).then(|| {
                let breakage = BREAKAGES[((n / 100) % BREAKAGES.len() as u64) as usize];
                shape.break_with(breakage)
            });
            let exchange = Exchange {
                n,
                shape: broken.as_ref().unwrap_or(shape),
            };
            if format == Format::Har && n > 0 {
                buf.extend_from_slice(b",\n");
            }
            match format {
                Format::Jsonl => exchange.jsonl(&mut buf),
                Format::Har => exchange.har(&mut buf),
            }
            summary.exchanges += 1;
            summary.broken += u64::from(broken.is_some());
            n += 1;
            if summary.bytes + buf.len() as u64 >= target_bytes {
                break;
            }
            if buf.len() >= 1 << 15 {
                out.write_all(&buf)?;
                summary.bytes += buf.len() as u64;
                buf.clear();
            }
        }
        if format == Format::Har {
            buf.extend_from_slice(b"\n]}}\n");
        }
        out.write_all(&buf)?;
        summary.bytes += buf.len() as u64;
        Ok(summary)
    }
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Follows a local `$ref` (and chains of them).
fn resolve<'a>(root: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..32 {
        let Some(target) = value
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer))
        else {
            break;
        };
        value = target;
    }
    value
}

/// The first server's origin (variables at their defaults) and base path.
fn server(root: &Value) -> (String, String) {
    let Some(server) = root
        .get("servers")
        .and_then(Value::as_array)
        .and_then(|s| s.first())
    else {
        return ("https://api.example.com".into(), String::new());
    };
    let mut url = server
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or("/")
        .to_string();
    for (name, variable) in server
        .get("variables")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let default = variable
            .get("default")
            .and_then(Value::as_str)
            .unwrap_or("");
        url = url.replace(&format!("{{{name}}}"), default);
    }
    let (origin, path) = match url.split_once("://") {
        Some((scheme, rest)) => {
            let at = rest.find('/').unwrap_or(rest.len());
            (
                format!("{scheme}://{}", &rest[..at]),
                rest[at..].to_string(),
            )
        }
        None => ("https://api.example.com".to_string(), url),
    };
    let base = path.trim_end_matches('/').to_string();
    (origin, base)
}

/// Fake credentials for the first security requirement.
fn credentials(root: &Value, security: Option<&Value>) -> Vec<(String, String)> {
    let Some(requirement) = security
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let mut headers = Vec::new();
    let mut cookies = Vec::new();
    for name in requirement.keys() {
        let Some(scheme) = root
            .pointer(&format!(
                "/components/securitySchemes/{}",
                specgen::load::escape_segment(name)
            ))
            .map(|s| resolve(root, s))
        else {
            continue;
        };
        let fake = format!("fake_{}_0123456789abcdef", name.replace(['-', ' '], "_"));
        match scheme.get("type").and_then(Value::as_str) {
            Some("apiKey") => {
                let key = scheme.get("name").and_then(Value::as_str).unwrap_or(name);
                match scheme.get("in").and_then(Value::as_str) {
                    Some("header") => headers.push((key.to_string(), fake)),
                    Some("cookie") => cookies.push(format!("{key}={fake}")),
                    _ => {} // query credentials are not modelled
                }
            }
            Some("http") => {
                let value = match scheme.get("scheme").and_then(Value::as_str) {
                    Some(s) if s.eq_ignore_ascii_case("basic") => {
                        "Basic ZmFrZS11c2VyOmZha2UtcGFzc3dvcmQ=".to_string()
                    }
                    _ => format!("Bearer {fake}"),
                };
                headers.push(("Authorization".into(), value));
            }
            Some("oauth2" | "openIdConnect") => {
                headers.push(("Authorization".into(), format!("Bearer {fake}")));
            }
            _ => {}
        }
    }
    if !cookies.is_empty() {
        headers.push(("Cookie".into(), cookies.join("; ")));
    }
    headers
}

struct OperationContext<'a> {
    root: &'a Value,
    item: &'a Value,
    op: &'a Value,
    method: &'a str,
    origin: &'a str,
    /// Path template, base path included.
    path: String,
    notification: bool,
    credentials: Vec<(String, String)>,
}

/// A parameter's example value.
fn example(root: &Value, param: &Value) -> Option<String> {
    let schema = param.get("schema").map(|s| resolve(root, s));
    let value = param
        .get("example")
        .or_else(|| {
            param
                .get("examples")
                .and_then(Value::as_object)
                .and_then(|e| e.values().next())
                .map(|e| resolve(root, e))
                .and_then(|e| e.get("value"))
        })
        .or_else(|| schema.and_then(|s| s.get("example")))
        .or_else(|| schema.and_then(|s| s.get("default")))
        .or_else(|| {
            schema
                .and_then(|s| s.get("enum"))
                .and_then(Value::as_array)
                .and_then(|e| e.first())
        })?;
    Some(match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

/// Media type, examples and schema of a request body or response.
fn content_examples<'a>(
    root: &'a Value,
    holder: &'a Value,
) -> (Option<String>, Vec<Value>, Option<&'a Value>) {
    let Some(content) = holder.get("content").and_then(Value::as_object) else {
        return (None, Vec::new(), None);
    };
    let Some((media, entry)) = content
        .iter()
        .find(|(media, _)| media.contains("json"))
        .or_else(|| content.iter().next())
    else {
        return (None, Vec::new(), None);
    };
    let mut examples: Vec<Value> = entry
        .get("examples")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(_, e)| resolve(root, e).get("value").cloned())
        .collect();
    if examples.is_empty()
        && let Some(example) = entry.get("example")
    {
        examples.push(example.clone());
    }
    (Some(media.clone()), examples, entry.get("schema"))
}

impl OperationContext<'_> {
    fn shapes(&self, shapes: &mut Vec<Shape>, weights: &mut Vec<usize>) {
        let root = self.root;
        // Path-item parameters, overridden by the operation's own (same name and place).
        let mut params: Vec<&Value> = Vec::new();
        for list in [self.item.get("parameters"), self.op.get("parameters")] {
            for param in list.and_then(Value::as_array).into_iter().flatten() {
                let param = resolve(root, param);
                let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
                params.retain(|p| key(p) != key(param));
                params.push(param);
            }
        }
        let mut path = self.path.clone();
        let mut query = Vec::new();
        let mut headers = vec![
            ("Accept".to_string(), "application/json".to_string()),
            ("User-Agent".to_string(), "synth-traffic/1.0".to_string()),
        ];
        let mut fresh_uuid_headers = Vec::new();
        for param in params {
            let name = param.get("name").and_then(Value::as_str).unwrap_or("");
            let required = param.get("required").and_then(Value::as_bool) == Some(true);
            let schema = param.get("schema").map(|s| resolve(root, s));
            let uuid = schema.and_then(|s| s.get("format")).and_then(Value::as_str) == Some("uuid");
            match param.get("in").and_then(Value::as_str) {
                Some("path") => {
                    let value = example(root, param).unwrap_or_else(|| "x".into());
                    path = path.replace(&format!("{{{name}}}"), &encode(&value, false));
                }
                Some("query") => {
                    if let Some(value) = example(root, param) {
                        query.push((name.to_string(), value));
                    }
                }
                Some("header") if uuid => fresh_uuid_headers.push((name.to_string(), required)),
                Some("header") => {
                    if let Some(value) = example(root, param) {
                        headers.push((name.to_string(), value));
                    }
                }
                _ => {}
            }
        }
        let request_body = self.op.get("requestBody").map(|b| resolve(root, b));
        let (request_media, request_examples, _) = request_body
            .map(|b| content_examples(root, b))
            .unwrap_or((None, Vec::new(), None));
        let body_required = request_body
            .and_then(|b| b.get("required"))
            .and_then(Value::as_bool)
            == Some(true);
        // An optional body is sometimes left out: a request without one is as valid.
        let mut request_variants: Vec<Option<Value>> =
            request_examples.into_iter().map(Some).collect();
        if !body_required || request_variants.is_empty() {
            request_variants.push(None);
        }
        let responses = self.op.get("responses").and_then(Value::as_object);
        let status_catch_all = responses.is_some_and(|r| {
            r.keys()
                .any(|k| k == "default" || k.eq_ignore_ascii_case("4XX"))
        });
        let mut used = 0;
        for (key, response) in responses.into_iter().flatten() {
            let response = resolve(root, response);
            let status = match key.parse::<u16>() {
                Ok(status) => status,
                Err(_) if key == "default" => 500,
                Err(_) => match key.as_bytes().first() {
                    Some(&c @ b'1'..=b'5') => u16::from(c - b'0') * 100,
                    _ => continue,
                },
            };
            let (response_media, mut examples, schema) = content_examples(root, response);
            let mut bodies: Vec<Option<Value>> = examples.drain(..).map(Some).collect();
            if bodies.is_empty() {
                bodies.push(None);
            }
            let success = (200..300).contains(&status);
            for body in bodies {
                let request = request_variants[used % request_variants.len()].clone();
                used += 1;
                let unauthenticated = status == 401;
                shapes.push(Shape::new(Shape {
                    notification: self.notification,
                    method: self.method.to_ascii_uppercase(),
                    origin: self.origin.to_string(),
                    path: path.clone(),
                    query: query.clone(),
                    headers: headers.clone(),
                    credentials: if unauthenticated {
                        Vec::new()
                    } else {
                        self.credentials.clone()
                    },
                    fresh_uuid_headers: fresh_uuid_headers.clone(),
                    request_content_type: request.as_ref().and(request_media.clone()),
                    request_body: request,
                    status,
                    response_content_type: body.as_ref().and(response_media.clone()),
                    retyped_response_body: body.as_ref().and_then(|body| {
                        let mut retyped = body.clone();
                        schema
                            .is_some_and(|s| retype_string(root, s, &mut retyped, 0))
                            .then_some(retyped)
                    }),
                    response_body: body,
                    status_catch_all,
                    request_json: None,
                    request_text: None,
                    response_json: None,
                    response_text: None,
                }));
                weights.push(if success { 10 } else { 1 });
            }
        }
    }
}

impl Shape {
    /// Fills in the pre-rendered bodies.
    fn new(mut shape: Shape) -> Shape {
        let render = |body: &Option<Value>| {
            body.as_ref().map(|body| {
                let json = serde_json::to_string(body).expect("a Value serializes");
                let text = serde_json::to_string(&json).expect("a string serializes");
                (json, text)
            })
        };
        (shape.request_json, shape.request_text) = render(&shape.request_body).unzip();
        (shape.response_json, shape.response_text) = render(&shape.response_body).unzip();
        shape
    }

    /// A copy of this shape that breaks a rule (or has an unknown path, when `breakage`
    /// does not apply to it).
    fn break_with(&self, breakage: Breakage) -> Shape {
        let mut broken = self.clone();
        let applied = match breakage {
            Breakage::MissingRequiredHeader => {
                let before = broken.fresh_uuid_headers.len();
                broken.fresh_uuid_headers.retain(|(_, required)| !required);
                broken.fresh_uuid_headers.len() < before
            }
            Breakage::WrongPropertyType => match &self.retyped_response_body {
                Some(body) => {
                    broken.response_body = Some(body.clone());
                    broken = Shape::new(broken);
                    true
                }
                None => false,
            },
            Breakage::UndocumentedStatus if !self.status_catch_all => {
                broken.status = 418;
                true
            }
            Breakage::MissingCredentials
                if !self.credentials.is_empty() && (200..300).contains(&self.status) =>
            {
                broken.credentials.clear();
                true
            }
            Breakage::WrongContentType if broken.request_body.is_some() => {
                broken.request_content_type = Some("text/plain".into());
                true
            }
            _ => false,
        };
        if !applied {
            broken.path.push_str("/no-such-resource");
        }
        broken
    }
}

/// Turns the first string of `value` (depth first) that `schema` types as a string, and
/// only a string, into a number; whether there was one.
fn retype_string(root: &Value, schema: &Value, value: &mut Value, depth: usize) -> bool {
    let schema = resolve(root, schema);
    if depth > 32 {
        return false;
    }
    if let Value::String(_) = value {
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let string_only =
            types.contains(&"string") && !types.iter().any(|t| matches!(*t, "number" | "integer"));
        if string_only {
            *value = Value::from(12345);
        }
        return string_only;
    }
    // The alternatives of an allOf all apply; those of anyOf/oneOf are left alone.
    let all_of = schema.get("allOf").and_then(Value::as_array);
    if all_of
        .into_iter()
        .flatten()
        .any(|part| retype_string(root, part, value, depth + 1))
    {
        return true;
    }
    match value {
        Value::Array(items) => schema.get("items").is_some_and(|s| {
            items
                .iter_mut()
                .any(|item| retype_string(root, s, item, depth + 1))
        }),
        Value::Object(map) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return false;
            };
            map.iter_mut().any(|(name, child)| {
                properties
                    .get(name)
                    .is_some_and(|s| retype_string(root, s, child, depth + 1))
            })
        }
        _ => false,
    }
}

/// One exchange being written.
struct Exchange<'a> {
    n: u64,
    shape: &'a Shape,
}

fn push_json(buf: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    serde_json::to_writer(&mut *buf, value).expect("writing to a Vec cannot fail");
}

/// Percent-encodes a path segment or query component.
fn encode(text: &str, query: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            b' ' if query => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A version-4 UUID derived from `n` and a salt.
fn uuid(n: u64, salt: u64) -> String {
    let mut state = n ^ salt.rotate_left(17);
    let high = splitmix(&mut state);
    let low = splitmix(&mut state);
    format!(
        "{:08x}-{:04x}-4{:03x}-{:x}{:03x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xfff,
        8 + (low >> 62),
        (low >> 48) & 0xfff,
        low & 0xffff_ffff_ffff
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        409 => "Conflict",
        418 => "I'm a teapot",
        500 => "Internal Server Error",
        _ => "",
    }
}

impl Exchange<'_> {
    fn id(&self) -> String {
        format!("ex-{:010}", self.n)
    }

    /// `2024-05-21T…Z`, 37 ms apart.
    fn started(&self) -> String {
        let ms = self.n * 37;
        let (secs, ms) = (ms / 1000, ms % 1000);
        let day = 21 + (secs / 86_400) % 7;
        let secs = secs % 86_400;
        format!(
            "2024-05-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    }

    fn url(&self) -> String {
        let shape = self.shape;
        let mut url = format!("{}{}", shape.origin, shape.path);
        for (i, (name, value)) in shape.query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(&encode(name, true));
            url.push('=');
            url.push_str(&encode(value, true));
        }
        url
    }

    fn request_headers(&self) -> Vec<(String, String)> {
        let shape = self.shape;
        let mut headers = shape.headers.clone();
        headers.extend(shape.credentials.iter().cloned());
        for (i, (name, _)) in shape.fresh_uuid_headers.iter().enumerate() {
            headers.push((name.clone(), uuid(self.n, i as u64 + 1)));
        }
        if let Some(media) = &shape.request_content_type {
            headers.push(("Content-Type".into(), media.clone()));
        }
        headers
    }

    fn response_headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![
            (
                "Date".to_string(),
                "Tue, 21 May 2024 10:00:00 GMT".to_string(),
            ),
            ("X-Request-Id".to_string(), uuid(self.n, 0)),
        ];
        if let Some(media) = &self.shape.response_content_type {
            headers.push(("Content-Type".into(), media.clone()));
        }
        headers
    }

    /// `{"id":…,"request":{…},"response":{…}}` and a newline.
    fn jsonl(&self, buf: &mut Vec<u8>) {
        let shape = self.shape;
        buf.extend_from_slice(b"{\"id\":");
        push_json(buf, &self.id());
        if shape.notification {
            buf.extend_from_slice(b",\"kind\":\"notification\"");
        }
        buf.extend_from_slice(b",\"startedAt\":");
        push_json(buf, &self.started());
        buf.extend_from_slice(b",\"request\":{\"method\":");
        push_json(buf, &shape.method);
        buf.extend_from_slice(b",\"url\":");
        push_json(buf, &self.url());
        buf.extend_from_slice(b",\"headers\":");
        jsonl_headers(buf, &self.request_headers());
        if let Some(body) = &shape.request_json {
            buf.extend_from_slice(b",\"body\":");
            buf.extend_from_slice(body.as_bytes());
        }
        buf.extend_from_slice(b"},\"response\":{\"status\":");
        buf.extend_from_slice(shape.status.to_string().as_bytes());
        buf.extend_from_slice(b",\"headers\":");
        jsonl_headers(buf, &self.response_headers());
        if let Some(body) = &shape.response_json {
            buf.extend_from_slice(b",\"body\":");
            buf.extend_from_slice(body.as_bytes());
        }
        buf.extend_from_slice(b"}}\n");
    }

    /// One HAR entry (no separator).
    fn har(&self, buf: &mut Vec<u8>) {
        let shape = self.shape;
        let wait = 5 + (self.n * 7919) % 200;
        buf.extend_from_slice(b"{\"startedDateTime\":");
        push_json(buf, &self.started());
        buf.extend_from_slice(format!(",\"time\":{}.5", wait + 1).as_bytes());
        buf.extend_from_slice(b",\"request\":{\"method\":");
        push_json(buf, &shape.method);
        buf.extend_from_slice(b",\"url\":");
        push_json(buf, &self.url());
        buf.extend_from_slice(b",\"httpVersion\":\"HTTP/1.1\",\"cookies\":[],\"headers\":");
        har_pairs(buf, &self.request_headers());
        buf.extend_from_slice(b",\"queryString\":");
        har_pairs(buf, &shape.query);
        let request_size = shape.request_json.as_ref().map_or(0, String::len);
        if let Some(text) = &shape.request_text {
            buf.extend_from_slice(b",\"postData\":{\"mimeType\":");
            push_json(buf, shape.request_content_type.as_deref().unwrap_or(""));
            buf.extend_from_slice(b",\"text\":");
            buf.extend_from_slice(text.as_bytes());
            buf.push(b'}');
        }
        buf.extend_from_slice(
            format!(",\"headersSize\":-1,\"bodySize\":{request_size}}}").as_bytes(),
        );
        buf.extend_from_slice(b",\"response\":{\"status\":");
        buf.extend_from_slice(shape.status.to_string().as_bytes());
        buf.extend_from_slice(b",\"statusText\":");
        push_json(buf, reason(shape.status));
        buf.extend_from_slice(b",\"httpVersion\":\"HTTP/1.1\",\"cookies\":[],\"headers\":");
        har_pairs(buf, &self.response_headers());
        let response_size = shape.response_json.as_ref().map_or(0, String::len);
        buf.extend_from_slice(
            format!(",\"content\":{{\"size\":{response_size},\"mimeType\":").as_bytes(),
        );
        push_json(
            buf,
            shape
                .response_content_type
                .as_deref()
                .unwrap_or("x-unknown"),
        );
        if let Some(text) = &shape.response_text {
            buf.extend_from_slice(b",\"text\":");
            buf.extend_from_slice(text.as_bytes());
        }
        buf.extend_from_slice(
            format!("}},\"redirectURL\":\"\",\"headersSize\":-1,\"bodySize\":{response_size}}}")
                .as_bytes(),
        );
        buf.extend_from_slice(
            format!(
                ",\"cache\":{{}},\"timings\":{{\"blocked\":-1,\"dns\":-1,\"connect\":-1,\"send\":0.2,\"wait\":{wait},\"receive\":1.3}}"
            )
            .as_bytes(),
        );
        buf.extend_from_slice(b",\"_id\":");
        push_json(buf, &self.id());
        buf.push(b'}');
    }
}

/// `{"name":"value",…}`.
fn jsonl_headers(buf: &mut Vec<u8>, pairs: &[(String, String)]) {
    buf.push(b'{');
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_json(buf, name);
        buf.push(b':');
        push_json(buf, value);
    }
    buf.push(b'}');
}

/// `[{"name":…,"value":…},…]`.
fn har_pairs(buf: &mut Vec<u8>, pairs: &[(String, String)]) {
    buf.push(b'[');
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        buf.extend_from_slice(b"{\"name\":");
        push_json(buf, name);
        buf.extend_from_slice(b",\"value\":");
        push_json(buf, value);
        buf.push(b'}');
    }
    buf.push(b']');
}
