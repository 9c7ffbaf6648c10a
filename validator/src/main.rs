//! The `specval` command line. Exit codes: 0 clean, 1 findings, 2 when an input or the
//! contract cannot be read.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use specval::Contract;
use specval::check::CheckOptions;
use specval::report::records::Spool;
use specval::report::{self, Format};
use specval::run::{RunOptions, run_into};

/// mimalloc rather than the system allocator: parsing and checking allocate and free many
/// small values on every checking thread, and glibc's malloc made a two-core run spend about
/// 12% more CPU time than a one-core run on the same traffic (arena locks and cache lines
/// shared between the threads); with mimalloc it does not, and one core is faster too
/// (`scripts/bench-validate.sh`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Validates API traffic and payloads against the contract specgen writes.
#[derive(Parser)]
#[command(name = "specval", version, about)]
struct Cli {
    #[command(flatten)]
    contract: ContractArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args)]
struct ContractArgs {
    /// A contract directory (specgen's `schemas/`). Default: the embedded contract of this API.
    #[arg(long, global = true, conflicts_with = "spec")]
    contract: Option<PathBuf>,
    /// An OpenAPI document; its contract is made in memory by specgen.
    #[arg(long, global = true)]
    spec: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Checks recorded traffic: HAR 1.2 or JSON Lines files (`-` reads standard input).
    Check {
        /// Traffic files.
        #[arg(required = true)]
        files: Vec<String>,
        #[command(flatten)]
        judging: Judging,
        #[command(flatten)]
        reading: Reading,
    },
    /// Contract coverage of recorded traffic: which operations, statuses, parameters, body
    /// members, enum values and notifications it exercised, and which it never did.
    /// Exit 1 below --min-coverage, or for an input without exchanges; 2 when an input or the
    /// contract cannot be read.
    Coverage {
        /// Traffic files (HAR 1.2 or JSON Lines; `-` reads standard input).
        #[arg(required = true)]
        files: Vec<String>,
        /// Report format (html: one self-contained page).
        #[arg(long, value_enum, default_value = "text")]
        format: specval::coverage::Format,
        /// Write the report here instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Exit 1 when the overall coverage is below this percentage (0 to 100).
        #[arg(long, value_name = "PCT", value_parser = percentage)]
        min_coverage: Option<f64>,
        #[command(flatten)]
        reading: Reading,
    },
    /// Checks every example of an OpenAPI document against the schema of the place it stands
    /// (`--spec`, default spec/openapi.yaml). Exit 1 when one contradicts its schema.
    Examples {
        /// Report format (junit: a testcase per example; sarif: a result per violation at the
        /// example's line in the document).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// A reverse proxy that forwards everything, checks every exchange, prints findings as
    /// they happen, records the traffic with credentials redacted, and on exit (Ctrl-C,
    /// SIGTERM or --max-exchanges) writes the run's report. Exit 0 clean, 1 findings (or no
    /// exchange without --allow-empty, or coverage below --min-coverage), 2 bad arguments,
    /// a listen address that cannot be taken, or a recording that could not be written.
    #[cfg(feature = "proxy")]
    Proxy(Box<proxy_cli::ProxyArgs>),
    /// Checks one JSON payload against one schema.
    Message {
        /// Component name (`Account`) or path under schemas/ (`operations/createAccount.request.json`).
        #[arg(long)]
        schema: String,
        /// The payload file; `-` reads standard input.
        file: PathBuf,
        /// Show instance values in messages.
        #[arg(long)]
        show_values: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Examples { format } = &cli.command {
        let spec = cli
            .contract
            .spec
            .clone()
            .unwrap_or_else(|| PathBuf::from("spec/openapi.yaml"));
        return examples(&spec, *format);
    }
    let contract = match (&cli.contract.contract, &cli.contract.spec) {
        (Some(dir), _) => Contract::from_dir(dir),
        (None, Some(spec)) => Contract::from_spec(spec),
        (None, None) => Contract::embedded(),
    };
    let contract = match contract {
        Ok(contract) => contract,
        Err(err) => {
            eprintln!("specval: error: {err}");
            return ExitCode::from(2);
        }
    };
    // The document's problems specgen repaired or left out: the contract enforces less there.
    for warning in contract.spec_warnings() {
        eprintln!("specval: warning: {warning}");
    }
    match cli.command {
        Command::Check {
            files,
            judging,
            reading,
        } => {
            let mut contract = contract;
            contract.add_base_urls(&reading.base_url);
            contract.add_api_hosts(&reading.hosts);
            let options =
                reading.run_options(judging.check_options(), judging.format == Format::Junit);
            check(&contract, &files, judging.format, judging.output, options)
        }
        Command::Message {
            schema,
            file,
            show_values,
        } => message(&contract, &schema, &file, show_values),
        Command::Coverage {
            files,
            format,
            output,
            min_coverage,
            reading,
        } => {
            let mut contract = contract;
            contract.add_base_urls(&reading.base_url);
            contract.add_api_hosts(&reading.hosts);
            let options = reading.run_options(CheckOptions::default(), false);
            coverage(&contract, &files, format, output, options, min_coverage)
        }
        #[cfg(feature = "proxy")]
        Command::Proxy(args) => proxy_cli::run(contract, *args),
        Command::Examples { .. } => ExitCode::from(2),
    }
}

#[cfg(feature = "proxy")]
mod proxy_cli;

/// How `check` and `proxy` judge exchanges and where their report goes.
#[derive(Args)]
pub(crate) struct Judging {
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Write the report here instead of standard output.
    #[arg(long, short)]
    pub(crate) output: Option<PathBuf>,
    /// Also report undocumented properties and enum values (as warnings, which fail the run).
    #[arg(long)]
    pub(crate) strict: bool,
    /// Show instance values in messages (masked by default). Credentials are never shown.
    #[arg(long)]
    pub(crate) show_values: bool,
}

impl Judging {
    pub(crate) fn check_options(&self) -> CheckOptions {
        CheckOptions {
            strict: self.strict,
            show_values: self.show_values,
        }
    }
}

/// Writes a report to `output`, or standard output; whether it could (the error is printed).
pub(crate) fn write_report(
    output: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> bool {
    let written = match output {
        Some(path) => specval::output::write_file(path, write),
        None => to_stdout(write),
    };
    if let Err(err) = &written {
        eprintln!("specval: error: cannot write the report: {err}");
    }
    written.is_ok()
}

/// How `check` and `coverage` read traffic.
#[derive(Args)]
struct Reading {
    /// No progress bar, even on a terminal.
    #[arg(long)]
    quiet: bool,
    /// Another base address the API is reached at, besides the spec's servers (repeatable):
    /// requests are matched on the path after it, e.g. https://gw.example.com/payments/v1.
    #[arg(long, value_name = "URL")]
    base_url: Vec<String>,
    /// The API's host (repeatable; a URL's host counts): an exchange sent to another host, by
    /// its Host header (a browser HAR's analytics, CDN or third-party calls), is not the API's
    /// and is passed over, as a page's own resources are. Without it every host counts.
    #[arg(long = "host", value_name = "HOST")]
    hosts: Vec<String>,
    /// Let an input without any exchange pass (by default an empty capture fails the run).
    #[arg(long)]
    allow_empty: bool,
    /// The largest JSON Lines line or HAR entry read (bytes; K, M, G suffixes are 1024-based).
    /// A larger one stops the reading of its input: a finding, and exit 2.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = size)]
    max_entry_size: usize,
}

impl Reading {
    fn run_options(&self, check: CheckOptions, keep_outcomes: bool) -> RunOptions {
        RunOptions {
            check,
            keep_outcomes,
            progress: !self.quiet,
            allow_empty: self.allow_empty,
            limits: specval::read::Limits {
                max_entry: self.max_entry_size,
            },
        }
    }
}

/// A percentage, 0 to 100.
pub(crate) fn percentage(text: &str) -> Result<f64, String> {
    text.trim()
        .trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|p| (0.0..=100.0).contains(p))
        .ok_or_else(|| format!("{text:?} is not a percentage from 0 to 100"))
}

fn coverage(
    contract: &Contract,
    files: &[String],
    format: specval::coverage::Format,
    output: Option<PathBuf>,
    options: RunOptions,
    min_coverage: Option<f64>,
) -> ExitCode {
    let allow_empty = options.allow_empty;
    let mut problems = specval::coverage::InputProblems::default();
    let (report, covered) =
        match specval::run::run_covering(contract, files, options, &mut problems) {
            Ok(run) => run,
            Err(err) => {
                eprintln!("specval: error: {err}");
                return ExitCode::from(2);
            }
        };
    let tally = specval::coverage::Coverage::tally(contract, &report, &covered);
    if !write_report(output.as_deref(), |out| {
        specval::coverage::write(&tally, format, out)
    }) {
        return ExitCode::from(2);
    }
    for message in &report.unreadable {
        eprintln!("specval: error: {message}");
    }
    for message in &problems.empty {
        eprintln!("specval: error: {message}");
    }
    let below = min_coverage.and_then(|pct| tally.shortfall(pct));
    if let Some(shortfall) = &below {
        eprintln!("specval: {shortfall}");
    }
    // Entries read, none of them an exchange with the API (all broken, or another API's
    // capture): a figure of nothing, which must not pass as a green run.
    let counted = tally
        .exchanges
        .saturating_sub(tally.malformed + tally.unmatched);
    let nothing_counted = tally.exchanges > 0 && counted == 0 && !allow_empty;
    if nothing_counted {
        eprintln!(
            "specval: error: no entry is an exchange with the API ({} malformed, {} matching no \
             operation or notification): nothing was counted",
            tally.malformed, tally.unmatched
        );
    }
    if !report.unreadable.is_empty() {
        ExitCode::from(2)
    } else if !problems.empty.is_empty() || below.is_some() || nothing_counted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A size in bytes: `1048576`, `512K`, `64M`, `1G` (powers of 1024).
pub(crate) fn size(text: &str) -> Result<usize, String> {
    let (digits, shift) = match text.trim().char_indices().last() {
        Some((at, 'k' | 'K')) => (&text[..at], 10),
        Some((at, 'm' | 'M')) => (&text[..at], 20),
        Some((at, 'g' | 'G')) => (&text[..at], 30),
        _ => (text.trim(), 0),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{text:?} is not a size such as 1048576, 512K, 64M or 1G"))
}

fn examples(spec: &std::path::Path, format: Format) -> ExitCode {
    let report = match specval::examples::check_document(spec) {
        Ok(report) => report,
        Err(err) => {
            eprintln!("specval: error: {}: {err}", spec.display());
            return ExitCode::from(2);
        }
    };
    let written = to_stdout(|out| match format {
        Format::Json => serde_json::to_writer_pretty(&mut *out, &report)
            .map_err(std::io::Error::other)
            .and_then(|()| writeln!(out)),
        Format::Junit | Format::Sarif => {
            report::write(&report.as_run(&spec.to_string_lossy()), format, out)
        }
        Format::Text => report
            .invalid
            .iter()
            .try_for_each(|item| {
                let pointer = if item.pointer.is_empty() {
                    "(root)"
                } else {
                    &item.pointer
                };
                writeln!(
                    out,
                    "{} ({}): {pointer}: {} (rule {}; {})",
                    item.example, item.place, item.message, item.rule, item.schema_location
                )
            })
            .and_then(|()| {
                writeln!(
                    out,
                    "specval: {} examples in {}, {} valid, {} contradict their schema",
                    report.found,
                    spec.display(),
                    report.valid,
                    report.found - report.valid
                )
            }),
    });
    if let Err(err) = written {
        eprintln!("specval: error: {err}");
        return ExitCode::from(2);
    }
    if report.valid == report.found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Writes to standard output. A reader that closed it (`specval check … | head`) took what it
/// wanted: that is not an error, and the exit code stays the verdict.
pub(crate) fn to_stdout(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

fn check(
    contract: &Contract,
    files: &[String],
    format: Format,
    output: Option<PathBuf>,
    options: RunOptions,
) -> ExitCode {
    // Findings go to disk as the run finds them, so that memory does not grow with them.
    let spooled = Spool::new(format == Format::Junit).and_then(|mut spool| {
        let report = run_into(contract, files, options, &mut spool).map_err(|err| err.0)?;
        spool.finish()?;
        Ok((report, spool))
    });
    let (report, spool) = match spooled {
        Ok(spooled) => spooled,
        Err(err) => {
            eprintln!("specval: error: cannot keep the findings: {err}");
            return ExitCode::from(2);
        }
    };
    if !write_report(output.as_deref(), |out| {
        report::write_records(&report, &spool, format, out)
    }) {
        return ExitCode::from(2);
    }
    // The report covers what could be read; an input that could not be is still an error.
    for message in &report.unreadable {
        eprintln!("specval: error: {message}");
    }
    ExitCode::from(report::exit_code(&report, &spool))
}

fn message(contract: &Contract, schema: &str, file: &PathBuf, show_values: bool) -> ExitCode {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    let text = match text {
        Ok(text) => text,
        Err(err) => {
            eprintln!("specval: error: cannot read {}: {err}", file.display());
            return ExitCode::from(2);
        }
    };
    let instance: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(err) => {
            eprintln!("specval: error: {} is not JSON: {err}", file.display());
            return ExitCode::from(2);
        }
    };
    let mut violations = match contract.validate(schema, &instance, show_values) {
        Ok(violations) => violations,
        Err(err) => {
            eprintln!("specval: error: {err}");
            return ExitCode::from(2);
        }
    };
    // Shown values may quote the payload's own secrets (a member named `apiSecret`), as
    // `check` keeps them out.
    if show_values {
        specval::hide_payload_secrets(&mut violations, &instance);
    }
    let written = to_stdout(|out| {
        if violations.is_empty() {
            return writeln!(out, "{}: conforms to {schema}", file.display());
        }
        for violation in &violations {
            let pointer = if violation.pointer.is_empty() {
                "(root)"
            } else {
                &violation.pointer
            };
            writeln!(
                out,
                "{pointer}: {} (rule {}; {})",
                violation.message, violation.rule, violation.schema_location
            )?;
        }
        writeln!(
            out,
            "{}: {} finding(s) against {schema}",
            file.display(),
            violations.len()
        )
    });
    if let Err(err) = written {
        eprintln!("specval: error: {err}");
        return ExitCode::from(2);
    }
    if violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
