//! The recorder: [`HarRecorder`], its configuration (redacted headers, body limit, label),
//! the entries it keeps, and HAR 1.2 documents of them, merged and written to a file.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use axum::http::HeaderName;
use serde_json::{Value, json};

/// How many bytes of each body are recorded unless [`HarRecorder::body_limit`] says otherwise.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// What a redacted header or cookie value is replaced by.
pub const REDACTED: &str = "[redacted]";

/// The headers whose values are redacted by default (matched case-insensitively).
pub const DEFAULT_REDACTED_HEADERS: [&str; 6] = [
    "public-api-key",
    "private-secret-key",
    "authorization",
    "cookie",
    "set-cookie",
    "proxy-authorization",
];

/// The `log.creator.name` of the HAR files written here.
pub const CREATOR_NAME: &str = "integration-tests";

/// Records the exchanges of an axum server as HAR 1.2 entries.
///
/// Cheap to clone: clones share the recorded entries and the configuration. Configure it
/// (the builder methods) before serving traffic; a change applies to exchanges that start
/// afterwards.
#[derive(Clone, Default)]
pub struct HarRecorder {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Shared {
    config: Arc<Config>,
    entries: Vec<Recorded>,
    /// Bumped by [`HarRecorder::clear`]: exchanges that started before it are not recorded.
    generation: u64,
    /// The sequence number of the last exchange that started (in this generation).
    last_seq: u64,
}

pub(super) struct Config {
    /// Lower-case header names.
    redacted: Vec<String>,
    pub(super) body_limit: usize,
    pub(super) label: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            redacted: DEFAULT_REDACTED_HEADERS
                .iter()
                .map(|name| (*name).to_owned())
                .collect(),
            body_limit: DEFAULT_BODY_LIMIT,
            label: None,
        }
    }
}

impl Config {
    pub(super) fn is_redacted(&self, name: &HeaderName) -> bool {
        // `HeaderName`s are lower-case already.
        self.redacted.iter().any(|r| r == name.as_str())
    }
}

struct Recorded {
    seq: u64,
    started: SystemTime,
    entry: Value,
}

/// What [`HarRecorder::begin`] hands an exchange.
pub(super) struct Ticket {
    pub(super) seq: u64,
    generation: u64,
    pub(super) config: Arc<Config>,
}

impl std::fmt::Debug for HarRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shared = self.lock();
        f.debug_struct("HarRecorder")
            .field("label", &shared.config.label)
            .field("redacted", &shared.config.redacted)
            .field("body_limit", &shared.config.body_limit)
            .field("entries", &shared.entries.len())
            .finish()
    }
}

impl HarRecorder {
    /// A recorder with no entries, the [default redacted headers](DEFAULT_REDACTED_HEADERS)
    /// and the [default body limit](DEFAULT_BODY_LIMIT).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Also redacts the values of header `name` (case-insensitive).
    #[must_use]
    pub fn redact_header(self, name: impl AsRef<str>) -> Self {
        let name = name.as_ref().trim().to_ascii_lowercase();
        self.configure(|config| {
            if !config.redacted.contains(&name) {
                config.redacted.push(name);
            }
        })
    }

    /// Records the values of header `name` after all (case-insensitive): the opposite of
    /// [`redact_header`](Self::redact_header), for a header redacted by default.
    #[must_use]
    pub fn unredact_header(self, name: impl AsRef<str>) -> Self {
        let name = name.as_ref().trim().to_ascii_lowercase();
        self.configure(|config| config.redacted.retain(|r| *r != name))
    }

    /// Records at most `limit` bytes of each body (the rest still passes through).
    #[must_use]
    pub fn body_limit(self, limit: usize) -> Self {
        self.configure(|config| config.body_limit = limit)
    }

    /// Names this recorder in each entry's comment (`"<label> exchange N"`), which tells the
    /// servers apart in a [merged](merge) file.
    #[must_use]
    pub fn label(self, label: impl Into<String>) -> Self {
        let label = label.into();
        self.configure(|config| config.label = Some(label))
    }

    /// The lower-case names of the headers whose values are redacted.
    #[must_use]
    pub fn redacted_headers(&self) -> Vec<String> {
        self.lock().config.redacted.clone()
    }

    /// How many exchanges have been recorded (finished exchanges only).
    #[must_use]
    pub fn entries_len(&self) -> usize {
        self.lock().entries.len()
    }

    /// The recorded HAR entries, in the order their exchanges started.
    #[must_use]
    pub fn entries(&self) -> Vec<Value> {
        let mut recorded: Vec<(u64, Value)> = self
            .lock()
            .entries
            .iter()
            .map(|r| (r.seq, r.entry.clone()))
            .collect();
        recorded.sort_by_key(|(seq, _)| *seq);
        recorded.into_iter().map(|(_, entry)| entry).collect()
    }

    /// Forgets every entry and starts numbering exchanges from 1 again. Exchanges still in
    /// flight (started before the call) are not recorded.
    pub fn clear(&self) {
        let mut shared = self.lock();
        shared.entries.clear();
        shared.generation += 1;
        shared.last_seq = 0;
    }

    /// The recorded exchanges as a HAR 1.2 document.
    #[must_use]
    pub fn to_har(&self) -> Value {
        har_document(self.entries())
    }

    /// Writes [`to_har`](Self::to_har) to `path`, atomically (see [`write_har`]).
    ///
    /// # Errors
    /// When the file cannot be written or renamed into place.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        write_har(path, &self.to_har())
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn configure(self, change: impl FnOnce(&mut Config)) -> Self {
        {
            let mut shared = self.lock();
            let mut config = Config {
                redacted: shared.config.redacted.clone(),
                body_limit: shared.config.body_limit,
                label: shared.config.label.clone(),
            };
            change(&mut config);
            shared.config = Arc::new(config);
        }
        self
    }

    pub(super) fn begin(&self) -> Ticket {
        let mut shared = self.lock();
        shared.last_seq += 1;
        Ticket {
            seq: shared.last_seq,
            generation: shared.generation,
            config: Arc::clone(&shared.config),
        }
    }

    pub(super) fn finish(&self, ticket: &Ticket, started: SystemTime, entry: Value) {
        let mut shared = self.lock();
        if shared.generation == ticket.generation {
            shared.entries.push(Recorded {
                seq: ticket.seq,
                started,
                entry,
            });
        }
    }
}

/// The exchanges of several recorders as one HAR 1.2 document, ordered by the time they
/// started (ties: in the order of `recorders`, then of each recorder's own numbering).
#[must_use]
pub fn merge(recorders: &[&HarRecorder]) -> Value {
    let mut all: Vec<(SystemTime, usize, u64, Value)> = Vec::new();
    for (index, recorder) in recorders.iter().enumerate() {
        let shared = recorder.lock();
        all.extend(
            shared
                .entries
                .iter()
                .map(|r| (r.started, index, r.seq, r.entry.clone())),
        );
    }
    all.sort_by_key(|a| (a.0, a.1, a.2));
    har_document(all.into_iter().map(|(_, _, _, entry)| entry).collect())
}

/// A HAR 1.2 document (`{"log": {"version": "1.2", "creator": …, "entries": …}}`) holding
/// `entries`.
#[must_use]
pub fn har_document(entries: Vec<Value>) -> Value {
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": CREATOR_NAME, "version": env!("CARGO_PKG_VERSION")},
            "entries": entries,
        }
    })
}

/// Writes `har` as pretty-printed JSON to `path`, creating missing parent directories. The
/// text goes to a temporary file in the same directory first, which is then renamed onto
/// `path`, so `path` never holds a half-written file.
///
/// # Errors
/// When a directory or the file cannot be created, written or renamed.
pub fn write_har(path: impl AsRef<Path>, har: &Value) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let path = path.as_ref();
    let file_name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let mut text = serde_json::to_vec_pretty(har).map_err(io::Error::other)?;
    text.push(b'\n');
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        file_name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}
