//! A whole run: read traffic files as streams, check exchanges in parallel batches, and fold
//! the outcomes into one [`RunReport`]. Reading happens on its own thread while the previous
//! batch is checked, so memory stays bounded by a few batches whatever the file size.

use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use crate::check::{CheckOptions, Outcome, check};
use crate::contract::Contract;
use crate::exchange::{Entry, Exchange};
use crate::finding::{Part, Severity, Site};
use crate::read;
use crate::report::{ExchangeOutcome, RunReport};

/// Exchanges per batch handed to the checking threads.
const BATCH: usize = 1024;

/// How to run.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// The checks' options.
    pub check: CheckOptions,
    /// Keep one verdict per exchange (JUnit needs them).
    pub keep_outcomes: bool,
    /// Show a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
}

/// An input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {source_name}: {error}")]
pub struct InputError {
    /// The input as named.
    pub source_name: String,
    /// Why.
    pub error: std::io::Error,
}

/// Checks every input; `-` is standard input.
pub fn run(
    contract: &Contract,
    inputs: &[String],
    options: RunOptions,
) -> Result<RunReport, InputError> {
    let mut report = RunReport {
        inputs: inputs.to_vec(),
        strict: options.check.strict,
        ..RunReport::default()
    };
    for input in inputs {
        let (reader, size): (Box<dyn Read + Send>, Option<u64>) = if input == "-" {
            (Box::new(std::io::stdin()), None)
        } else {
            let file = std::fs::File::open(input).map_err(|error| InputError {
                source_name: input.clone(),
                error,
            })?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), size)
        };
        let progress = progress_bar(options.progress, size, input);
        let reader: Box<dyn Read + Send> = match &progress {
            Some(bar) => Box::new(bar.wrap_read(reader)),
            None => reader,
        };
        run_input(
            contract,
            input,
            BufReader::with_capacity(1 << 16, reader),
            options,
            &mut report,
        )
        .map_err(|error| InputError {
            source_name: input.clone(),
            error,
        })?;
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
    }
    Ok(report)
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

/// What the reader thread hands over: JSON Lines records are parsed by the checking
/// threads, HAR entries (which only a sequential walk can find) by the reader.
enum Item {
    Line(read::jsonl::RawLine),
    Entry(Box<Entry>),
}

/// What a checking thread hands back: everything `fold` needs, and nothing of the exchange's
/// bodies (dropped on the checking thread, in parallel).
enum Checked {
    Exchange {
        outcome: Outcome,
        /// Kept only when outcomes are.
        verdict: Option<(String, usize, Option<String>, String)>,
    },
    Malformed(crate::exchange::Malformed),
}

/// One input: a reader thread streams batches of entries (or raw JSON Lines records); this
/// thread has each batch parsed and checked in parallel and folds the outcomes in input order.
fn run_input(
    contract: &Contract,
    source: &str,
    mut reader: impl BufRead + Send,
    options: RunOptions,
    report: &mut RunReport,
) -> std::io::Result<()> {
    let first = reader.fill_buf()?.to_vec();
    let format = read::detect(source, &first);
    let webhook_paths = contract.webhook_paths();
    let (sender, receiver) = sync_channel::<Vec<Item>>(2);
    std::thread::scope(|scope| {
        let webhook_paths = &webhook_paths;
        let producer = scope.spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let mut push = |item| {
                batch.push(item);
                if batch.len() == BATCH {
                    // A closed receiver means the run stopped; nothing left to do.
                    let _ = sender.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            };
            let result = match format {
                read::Format::JsonLines => read::jsonl::split(source, reader, &mut |line| {
                    push(match line {
                        read::jsonl::Line::Record(raw) => Item::Line(raw),
                        read::jsonl::Line::Entry(entry) => Item::Entry(entry),
                    })
                }),
                read::Format::Har => read::read(source, reader, format, webhook_paths, &mut |e| {
                    push(Item::Entry(Box::new(e)))
                }),
            };
            if !batch.is_empty() {
                let _ = sender.send(batch);
            }
            result
        });
        for batch in receiver {
            let outcomes: Vec<Checked> = batch
                .into_par_iter()
                .map(|item| {
                    let entry = match item {
                        Item::Line(raw) => read::jsonl::parse(source, webhook_paths, &raw),
                        Item::Entry(entry) => *entry,
                    };
                    match entry {
                        Ok(exchange) => Checked::Exchange {
                            outcome: check(contract, &exchange, options.check),
                            verdict: options.keep_outcomes.then(|| {
                                (
                                    exchange.source.clone(),
                                    exchange.index,
                                    exchange.id.clone(),
                                    label(&exchange),
                                )
                            }),
                        },
                        Err(malformed) => Checked::Malformed(malformed),
                    }
                })
                .collect();
            for checked in outcomes {
                fold(report, checked, options.keep_outcomes);
            }
        }
        producer
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the reader thread panicked")))
    })
}

fn label(exchange: &Exchange) -> String {
    format!("{} {}", exchange.request.method, exchange.request.path)
}

fn fold(report: &mut RunReport, checked: Checked, report_outcomes: bool) {
    report.exchanges += 1;
    match checked {
        Checked::Exchange { outcome, verdict } => {
            let key = outcome
                .operation
                .clone()
                .unwrap_or_else(|| "(unmatched)".to_string());
            let errors = outcome
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count() as u64;
            let warnings = outcome.findings.len() as u64 - errors;
            let stats = report.per_operation.entry(key).or_default();
            stats.exchanges += 1;
            stats.errors += errors;
            stats.warnings += warnings;
            if errors > 0 {
                stats.failed += 1;
            }
            if let Some((source, index, id, label)) = verdict {
                report.outcomes.push(ExchangeOutcome {
                    source,
                    index,
                    id,
                    label,
                    operation: outcome.operation.clone(),
                    errors,
                    warnings,
                });
            }
            report.findings.extend(outcome.findings);
            report.drift.merge(outcome.drift);
        }
        Checked::Malformed(malformed) => {
            let stats = report
                .per_operation
                .entry("(malformed)".to_string())
                .or_default();
            stats.exchanges += 1;
            stats.failed += 1;
            stats.errors += 1;
            let site = Site {
                exchange: malformed.index,
                id: None,
                source: malformed.source.clone(),
                operation: None,
                kind: crate::exchange::ExchangeKind::Operation,
            };
            let pointer = malformed
                .line
                .map(|line| format!("line:{line}"))
                .unwrap_or_default();
            if report_outcomes {
                report.outcomes.push(ExchangeOutcome {
                    source: malformed.source.clone(),
                    index: malformed.index,
                    id: None,
                    label: "(malformed entry)".into(),
                    operation: None,
                    errors: 1,
                    warnings: 0,
                });
            }
            report.findings.push(site.finding(
                Part::Entry,
                pointer,
                "",
                "malformed",
                malformed.message,
            ));
        }
    }
}
