//! A whole run: read traffic files as streams, check exchanges in parallel batches, and fold
//! the outcomes into one [`RunReport`]. Reading happens on its own thread while the previous
//! batch is checked, so memory stays bounded by a few batches whatever the file size.
//!
//! No stage waits on one core for the others. The reader of a JSON Lines file only finds the
//! line breaks (`memchr`) and hands over whole chunks of lines in one buffer; the checking
//! threads parse and check the lines; the fold of a batch's outcomes into the report (and the
//! sink) runs beside the checking of the next batch. A HAR is walked by the reader, which
//! parses each entry's envelope (its bodies are parsed by the checking threads). The outcomes
//! are folded in input order, so the report is the same whatever the number of threads.
//!
//! An input never stops the run: one that cannot be opened or read becomes an `unreadable`
//! finding (and [`RunReport::unreadable`] says why), and one that holds no exchange at all
//! becomes a `no-exchanges` finding unless [`RunOptions::allow_empty`] is set: a capture that
//! recorded nothing should fail a CI job, not pass it as clean.

use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use crate::check::{CheckOptions, Outcome, check_covering};
use crate::contract::Contract;
use crate::exchange::{Entry, Exchange};
use crate::finding::{Finding, Part, Severity, Site};
use crate::read;
use crate::report::group::{INPUT, MALFORMED, NOT_API, UNMATCHED};
use crate::report::{ExchangeOutcome, RunReport};
use crate::rule::Rule;

/// Exchanges per batch handed to the checking threads.
const BATCH: usize = 1024;
/// Bytes of traffic per batch, at most (about): with a few batches in flight, this and the
/// largest entry bound the memory of a run.
const BATCH_BYTES: usize = 16 << 20;
/// Records a checking thread takes at a time: without a bound rayon hands out a batch in
/// a few large pieces, and the thread that finishes first waits for the last one.
const STEAL: usize = 16;

/// How to run.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// The checks' options.
    pub check: CheckOptions,
    /// Keep one verdict per exchange (JUnit needs them).
    pub keep_outcomes: bool,
    /// Show a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// Let an input without a single exchange pass (otherwise it is a `no-exchanges` finding).
    pub allow_empty: bool,
    /// How large one entry may be.
    pub limits: read::Limits,
}

/// Where a run puts what grows with the traffic: the findings and, when kept, one verdict per
/// exchange. A [`RunReport`] keeps them in memory ([`run`]); the command line spools them to
/// disk so that a run's memory does not grow with its findings. A sink is called from one
/// thread at a time, in the report's order, but not always from the same thread (the fold of
/// a batch runs on a checking thread, beside the checking of the next batch): hence `Send`.
pub trait Sink: Send {
    /// One finding, in the report's order (by input, then exchange).
    fn finding(&mut self, finding: Finding) -> std::io::Result<()>;
    /// One exchange's verdict, in the same order.
    fn outcome(&mut self, outcome: ExchangeOutcome) -> std::io::Result<()>;
}

/// Findings and verdicts in memory.
#[derive(Debug, Default)]
struct Collected {
    findings: Vec<Finding>,
    outcomes: Vec<ExchangeOutcome>,
}

impl Sink for Collected {
    fn finding(&mut self, finding: Finding) -> std::io::Result<()> {
        self.findings.push(finding);
        Ok(())
    }

    fn outcome(&mut self, outcome: ExchangeOutcome) -> std::io::Result<()> {
        self.outcomes.push(outcome);
        Ok(())
    }
}

/// A run that could not go on: the sink failed (a spool that cannot be written).
#[derive(Debug, thiserror::Error)]
#[error("cannot keep the findings: {0}")]
pub struct RunError(#[from] pub std::io::Error);

/// Checks every input (`-` is standard input), keeping every finding in the report.
pub fn run(
    contract: &Contract,
    inputs: &[String],
    options: RunOptions,
) -> Result<RunReport, RunError> {
    let mut collected = Collected::default();
    let mut report = run_into(contract, inputs, options, &mut collected)?;
    report.findings = collected.findings;
    report.outcomes = collected.outcomes;
    Ok(report)
}

/// Checks every input, handing findings and verdicts to `sink`; the report returned has the
/// counts, the drift and [`RunReport::unreadable`], and empty `findings` and `outcomes`.
pub fn run_into(
    contract: &Contract,
    inputs: &[String],
    options: RunOptions,
    sink: &mut dyn Sink,
) -> Result<RunReport, RunError> {
    run_inner(contract, inputs, options, sink, None)
}

/// [`run_into`], also counting what of the contract the traffic exercised, for
/// [`crate::coverage`]: how many exchanges exercised each documented thing (only documented
/// things are counted, so the map is bounded by the contract, not by the traffic). The same
/// readers, matching and checking pass as `specval check`.
pub fn run_covering(
    contract: &Contract,
    inputs: &[String],
    options: RunOptions,
    sink: &mut dyn Sink,
) -> Result<(RunReport, Covered), RunError> {
    let mut covered = Covered::new();
    let report = run_inner(contract, inputs, options, sink, Some(&mut covered))?;
    Ok((report, covered))
}

/// How many exchanges exercised each documented thing.
pub type Covered = std::collections::BTreeMap<crate::coverage::key::Key, u64>;

fn run_inner(
    contract: &Contract,
    inputs: &[String],
    options: RunOptions,
    sink: &mut dyn Sink,
    mut covered: Option<&mut Covered>,
) -> Result<RunReport, RunError> {
    let mut report = RunReport {
        inputs: inputs.to_vec(),
        strict: options.check.strict,
        ..RunReport::default()
    };
    for input in inputs {
        let before = report.exchanges;
        let passed_over_before = report.passed_over();
        let result = match open(input) {
            Ok((reader, size)) => {
                let progress = progress_bar(options.progress, size, input);
                let reader: Box<dyn Read + Send> = match &progress {
                    Some(bar) => Box::new(bar.wrap_read(reader)),
                    None => reader,
                };
                let result = run_input(
                    contract,
                    input,
                    BufReader::with_capacity(1 << 16, reader),
                    options,
                    &mut report,
                    sink,
                    covered.as_deref_mut(),
                );
                if let Some(bar) = progress {
                    bar.finish_and_clear();
                }
                result
            }
            Err(error) => Err(Stop::Input(error)),
        };
        match result {
            Ok(()) => {}
            Err(Stop::Sink(error)) => return Err(RunError(error)),
            Err(Stop::Input(error)) => {
                if let Some(large) = read::TooLarge::of(&error) {
                    // An entry of its own, and the reason the input could not be read on.
                    report.exchanges += 1;
                    count(&mut report, MALFORMED, 1, 1);
                    let finding = input_finding(
                        input,
                        large.index,
                        large.line,
                        Rule::TooLarge,
                        large.to_string(),
                    );
                    sink.finding(finding)?;
                    report.unreadable.push(format!("{input}: {large}"));
                } else {
                    let index = (report.exchanges - before) as usize;
                    unreadable(&mut report, sink, input, index, &error)?;
                }
                continue;
            }
        }
        let passed_over = report.passed_over() - passed_over_before;
        if report.exchanges - passed_over == before && !options.allow_empty {
            let message = match passed_over {
                0 => "no exchanges: the input holds no traffic (a capture that recorded nothing?); --allow-empty accepts it".to_string(),
                1 => "no exchanges with the API: the input's one entry is passed over, as a \
                      CORS preflight, a web page's own resource (a page, script, style, image, \
                      font) or a call to another host than --host names (a capture of the wrong \
                      tab?); --allow-empty accepts it"
                    .to_string(),
                _ => format!(
                    "no exchanges with the API: the input's {passed_over} entries are all passed \
                     over, as CORS preflights, a web page's own resources (pages, scripts, \
                     styles, images, fonts) or calls to other hosts than --host names (a capture \
                     of the wrong tab?); --allow-empty accepts it"
                ),
            };
            let finding = input_finding(input, 0, None, Rule::NoExchanges, message);
            count(&mut report, INPUT, 0, 1);
            sink.finding(finding)?;
        }
    }
    Ok(report)
}

/// Folds one checked exchange into a report the way a run does: its operation's counts, its
/// verdict (when `keep_outcome`), its findings (handed to `sink`), its drift and, with
/// `covered`, what of the contract it exercised. For live traffic (`specval proxy` feeds
/// each exchange as it completes), so that its report is the one `specval check` would make
/// of the same exchanges.
pub fn fold_exchange(
    report: &mut RunReport,
    sink: &mut dyn Sink,
    contract: &Contract,
    exchange: &Exchange,
    outcome: Outcome,
    keep_outcome: bool,
    covered: Option<&mut Covered>,
) -> std::io::Result<()> {
    let verdict = keep_outcome.then(|| verdict_names(contract, exchange));
    fold(
        report,
        sink,
        Checked::Exchange { outcome, verdict },
        keep_outcome,
        covered,
    )
}

/// Opens an input: a file, or standard input for `-`, decompressed when it is gzip (see
/// [`read::decompressed`]); with its size when known (a compressed file's is not the size
/// read).
fn open(input: &str) -> std::io::Result<(Box<dyn Read + Send>, Option<u64>)> {
    let (reader, size): (Box<dyn BufRead + Send>, Option<u64>) = if input == "-" {
        (Box::new(BufReader::new(std::io::stdin())), None)
    } else {
        let file = std::fs::File::open(input)?;
        let size = file.metadata().ok().map(|meta| meta.len());
        (Box::new(BufReader::with_capacity(1 << 16, file)), size)
    };
    let (reader, compressed) = read::decompressed(reader)?;
    Ok((Box::new(reader), size.filter(|_| !compressed)))
}

/// Records an input that could not be read (or not to the end): a finding, and the message
/// the command line prints.
fn unreadable(
    report: &mut RunReport,
    sink: &mut dyn Sink,
    input: &str,
    index: usize,
    error: &std::io::Error,
) -> Result<(), RunError> {
    let message = format!("cannot read {input}: {error}");
    report.unreadable.push(message.clone());
    count(report, INPUT, 0, 1);
    sink.finding(input_finding(input, index, None, Rule::Unreadable, message))?;
    Ok(())
}

/// A finding about an input as a whole, or where it stopped.
fn input_finding(
    input: &str,
    index: usize,
    line: Option<usize>,
    rule: Rule,
    message: impl Into<String>,
) -> Finding {
    let site = Site {
        exchange: index,
        id: None,
        source: input.to_string(),
        line,
        operation: None,
        kind: crate::exchange::ExchangeKind::Operation,
    };
    let pointer = line.map(|line| format!("line:{line}")).unwrap_or_default();
    site.finding(Part::Entry, pointer, "", rule, message)
}

/// Adds to a group's counts: `exchanges` exchanges, `errors` errors (each failing its exchange
/// when there is one).
fn count(report: &mut RunReport, group: &str, exchanges: u64, errors: u64) {
    let stats = report.per_operation.entry(group.to_string()).or_default();
    stats.exchanges += exchanges;
    stats.failed += exchanges.min(errors);
    stats.errors += errors;
}

/// Why an input stopped: it could not be read, or the sink failed.
enum Stop {
    Input(std::io::Error),
    Sink(std::io::Error),
}

fn progress_bar(wanted: bool, size: Option<u64>, input: &str) -> Option<indicatif::ProgressBar> {
    if !wanted || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = match size {
        Some(size) => indicatif::ProgressBar::new(size).with_style(
            indicatif::ProgressStyle::with_template(
                "{msg} {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        ),
        None => indicatif::ProgressBar::new_spinner(),
    };
    bar.set_message(input.to_string());
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    Some(bar)
}

/// What the reader thread hands over: JSON Lines records as whole lines in one buffer, parsed
/// by the checking threads; HAR entries (which only a sequential walk can find) parsed by the
/// reader; a JSON Lines read error, last.
enum Batch {
    Lines(read::jsonl::Chunk),
    Entries(Vec<Entry>),
}

/// About how many bytes an entry holds: its bodies dominate.
fn weight(entry: &Entry) -> usize {
    let body = |body: &Option<crate::exchange::Body>| match body {
        Some(crate::exchange::Body::Text(text)) => text.len(),
        Some(crate::exchange::Body::Binary(bytes)) => bytes.len(),
        // Only JSON Lines records hold parsed bodies, and those arrive as lines.
        Some(crate::exchange::Body::Json(_) | crate::exchange::Body::Unrecorded(_)) | None => 0,
    };
    match entry {
        Ok(exchange) => {
            body(&exchange.request.body) + exchange.response.as_ref().map_or(0, |r| body(&r.body))
        }
        Err(malformed) => malformed.message.len(),
    }
}

/// What a checking thread hands back: everything `fold` needs, and nothing of the exchange's
/// bodies (dropped on the checking thread, in parallel).
// The large variant is the common one: boxing it would allocate once per exchange for the
// sake of the rare malformed entry.
#[allow(clippy::large_enum_variant)]
enum Checked {
    Exchange {
        outcome: Outcome,
        /// Kept only when outcomes are.
        verdict: Option<(String, usize, Option<String>, String)>,
    },
    Malformed(crate::exchange::Malformed),
}

/// Checks one entry (noting what it covers when `coverage` is set).
fn check_entry(contract: &Contract, entry: Entry, options: RunOptions, coverage: bool) -> Checked {
    match entry {
        Ok(exchange) => Checked::Exchange {
            outcome: check_covering(contract, &exchange, options.check, coverage),
            verdict: options
                .keep_outcomes
                .then(|| verdict_names(contract, &exchange)),
        },
        Err(malformed) => Checked::Malformed(malformed),
    }
}

/// What names an exchange's verdict (its file, position, id and `METHOD path`), with its own
/// credentials scrubbed: a testcase is never named by a credential.
fn verdict_names(
    contract: &Contract,
    exchange: &Exchange,
) -> (String, usize, Option<String>, String) {
    let secrets = crate::secrets::exchange_secrets(contract, exchange);
    let mut id = exchange.id.clone();
    if let Some(id) = &mut id {
        crate::secrets::scrub_owned(id, &secrets);
    }
    let mut label = label(exchange);
    crate::secrets::scrub_owned(&mut label, &secrets);
    (exchange.source.clone(), exchange.index, id, label)
}

/// Whether `first` (an input's first bytes) begins with UTF-16's byte order mark: `Some(true)`
/// for big-endian, `Some(false)` for little-endian. UTF-8's mark, or none, is `None`.
fn utf16_order(first: &[u8]) -> Option<bool> {
    match first {
        [0xFE, 0xFF, ..] => Some(true),
        [0xFF, 0xFE, ..] => Some(false),
        _ => None,
    }
}

/// The text of UTF-16 `bytes` (after the byte order mark), each unit that is no character (a
/// lone surrogate, an odd last byte) as U+FFFD.
fn utf16_text(bytes: &[u8], big_endian: bool) -> String {
    let units = bytes.chunks(2).map(|pair| match (pair, big_endian) {
        ([high, low], true) => u16::from_be_bytes([*high, *low]),
        ([low, high], false) => u16::from_le_bytes([*low, *high]),
        _ => 0xFFFD,
    });
    char::decode_utf16(units)
        .map(|unit| unit.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// One input: a reader thread streams batches of entries (or chunks of raw JSON Lines
/// records); this thread has each batch parsed and checked in parallel and folds the outcomes
/// in input order. The fold of a batch runs beside the checking of the next one, so that the
/// checking threads do not wait for it.
fn run_input(
    contract: &Contract,
    source: &str,
    mut reader: impl BufRead + Send,
    options: RunOptions,
    report: &mut RunReport,
    sink: &mut dyn Sink,
    mut covered: Option<&mut Covered>,
) -> Result<(), Stop> {
    let coverage = covered.is_some();
    let first = reader.fill_buf().map_err(Stop::Input)?.to_vec();
    // A file in UTF-16 with its byte order mark (what Windows PowerShell's `>` and Notepad's
    // "Unicode" write) is read as the text it holds, not refused as no text at all.
    if let Some(big_endian) = utf16_order(&first) {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(Stop::Input)?;
        let text = utf16_text(&bytes[2..], big_endian);
        let reader = std::io::Cursor::new(text.into_bytes());
        return run_input(contract, source, reader, options, report, sink, covered);
    }
    let format = read::detect(source, &first);
    // A NUL byte among the first bytes: no text, so no HAR and no JSON Lines (an image, an
    // archive, a core dump given by mistake). One finding says so, where reading it line by
    // line made thousands. An input that begins as JSON does is read all the same: its NUL
    // breaks one entry, which is reported, and the others are checked.
    let begins_as_json = first
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(&first)
        .iter()
        .find(|byte| !byte.is_ascii_whitespace())
        .is_some_and(|byte| matches!(byte, b'{' | b'['));
    let binary = (!begins_as_json)
        .then(|| first.iter().position(|&byte| byte == 0))
        .flatten();
    let webhook_paths = contract.webhook_paths();
    let (sender, receiver) = sync_channel::<Batch>(2);
    std::thread::scope(|scope| {
        let webhook_paths = &webhook_paths;
        let producer = scope.spawn(move || {
            if let Some(offset) = binary {
                let malformed = crate::exchange::Malformed {
                    index: 0,
                    source: source.to_owned(),
                    line: None,
                    message: format!(
                        "the input is not text (a NUL byte at offset {offset}): not a HAR or \
                         JSON Lines file"
                    ),
                };
                let _ = sender.send(Batch::Entries(vec![Err(malformed)]));
                return Ok(());
            }
            let limits = options.limits;
            // A closed receiver means the run stopped; nothing left to do.
            match format {
                read::Format::JsonLines => {
                    let sizes = read::jsonl::ChunkSizes {
                        lines: BATCH,
                        bytes: BATCH_BYTES,
                    };
                    read::jsonl::split(source, reader, limits, sizes, &mut |split| {
                        let _ = sender.send(match split {
                            read::jsonl::Split::Lines(chunk) => Batch::Lines(chunk),
                            read::jsonl::Split::Entry(entry) => Batch::Entries(vec![*entry]),
                        });
                    })
                }
                read::Format::Har | read::Format::JsonRecords => {
                    let mut batch = Vec::with_capacity(BATCH);
                    let mut bytes = 0;
                    let result = read::read_limited(
                        source,
                        reader,
                        format,
                        webhook_paths,
                        limits,
                        &mut |e| {
                            bytes += weight(&e);
                            batch.push(e);
                            if batch.len() == BATCH || bytes >= BATCH_BYTES {
                                bytes = 0;
                                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                                let _ = sender.send(Batch::Entries(full));
                            }
                        },
                    );
                    if !batch.is_empty() {
                        let _ = sender.send(Batch::Entries(batch));
                    }
                    result
                }
            }
        });
        let check_batch = |batch: Batch| -> Vec<Checked> {
            match batch {
                Batch::Lines(chunk) => chunk
                    .lines
                    .par_iter()
                    // Small pieces to steal: the batch ends with both threads busy to the last.
                    .with_max_len(STEAL)
                    .map(|at| {
                        let entry = read::jsonl::parse(source, webhook_paths, &chunk, at);
                        check_entry(contract, entry, options, coverage)
                    })
                    .collect(),
                Batch::Entries(entries) => entries
                    .into_par_iter()
                    .map(|entry| check_entry(contract, entry, options, coverage))
                    .collect(),
            }
        };
        let mut checked: Vec<Checked> = Vec::new();
        for batch in receiver {
            let previous = std::mem::take(&mut checked);
            let (folded, next) = rayon::join(
                || {
                    fold_all(
                        report,
                        sink,
                        previous,
                        options.keep_outcomes,
                        covered.as_deref_mut(),
                    )
                },
                || check_batch(batch),
            );
            // A sink that fails ends the run; dropping the receiver stops the reader.
            folded.map_err(Stop::Sink)?;
            checked = next;
        }
        fold_all(report, sink, checked, options.keep_outcomes, covered).map_err(Stop::Sink)?;
        producer
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the reader thread panicked")))
            .map_err(Stop::Input)
    })
}

/// Folds a batch's outcomes, in order.
fn fold_all(
    report: &mut RunReport,
    sink: &mut dyn Sink,
    checked: Vec<Checked>,
    report_outcomes: bool,
    mut covered: Option<&mut Covered>,
) -> std::io::Result<()> {
    checked.into_iter().try_for_each(|checked| {
        fold(
            report,
            sink,
            checked,
            report_outcomes,
            covered.as_deref_mut(),
        )
    })
}

fn label(exchange: &Exchange) -> String {
    format!("{} {}", exchange.request.method, exchange.request.path)
}

fn fold(
    report: &mut RunReport,
    sink: &mut dyn Sink,
    checked: Checked,
    report_outcomes: bool,
    covered: Option<&mut Covered>,
) -> std::io::Result<()> {
    report.exchanges += 1;
    match checked {
        Checked::Exchange {
            mut outcome,
            verdict,
        } => {
            if let Some(covered) = covered {
                for key in std::mem::take(&mut outcome.covered) {
                    *covered.entry(key).or_default() += 1;
                }
            }
            let key = match &outcome.operation {
                _ if outcome.not_api => NOT_API,
                Some(operation) => operation.as_str(),
                None => UNMATCHED,
            };
            let errors = outcome
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count() as u64;
            let warnings = outcome.findings.len() as u64 - errors;
            // Looked up before an owned key is made: most exchanges meet a known operation.
            let stats = match report.per_operation.get_mut(key) {
                Some(stats) => stats,
                None => report.per_operation.entry(key.to_string()).or_default(),
            };
            stats.exchanges += 1;
            stats.errors += errors;
            stats.warnings += warnings;
            // A warning fails the run as an error does (the exit code, JUnit's testcase): the
            // exchange counts as failed either way.
            if !outcome.findings.is_empty() {
                stats.failed += 1;
            }
            if let Some((source, index, id, label)) = verdict {
                sink.outcome(ExchangeOutcome {
                    source,
                    index,
                    id,
                    label,
                    // A report lists an exchange that is no call under its group's name.
                    operation: match outcome.not_api {
                        true => Some(NOT_API.to_string()),
                        false => outcome.operation.clone(),
                    },
                    errors,
                    warnings,
                })?;
            }
            for finding in outcome.findings {
                sink.finding(finding)?;
            }
            report.drift.merge(outcome.drift);
        }
        Checked::Malformed(malformed) => {
            count(report, MALFORMED, 1, 1);
            let site = Site {
                exchange: malformed.index,
                id: None,
                source: malformed.source.clone(),
                line: malformed.line,
                operation: None,
                kind: crate::exchange::ExchangeKind::Operation,
            };
            let pointer = malformed
                .line
                .map(|line| format!("line:{line}"))
                .unwrap_or_default();
            if report_outcomes {
                sink.outcome(ExchangeOutcome {
                    source: malformed.source.clone(),
                    index: malformed.index,
                    id: None,
                    label: "(malformed entry)".into(),
                    operation: None,
                    errors: 1,
                    warnings: 0,
                })?;
            }
            sink.finding(site.finding(
                Part::Entry,
                pointer,
                "",
                Rule::Malformed,
                malformed.message,
            ))?;
        }
    }
    Ok(())
}
