//! The `specgen` command line: `generate` writes the crate, `check` tells whether it is stale.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use specgen::output::{self, Drift};
use specgen::{Options, diff, load};

/// Generates Rust bindings and a JSON Schema contract from an OpenAPI document.
#[derive(Parser)]
#[command(name = "specgen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes the generated crate (replacing the output directory as a whole).
    Generate(Target),
    /// Exits 1 and says what differs when the output directory is not what `generate` writes.
    Check(Target),
    /// Compares two versions of a spec: what breaks on the wire for old clients, servers and
    /// notification receivers, and what breaks in Rust for code using the generated crate.
    /// Exits 0 when nothing at or above --fail-on is found, 1 when something is, 2 when a
    /// document cannot be read.
    Diff(DiffArgs),
}

#[derive(Args)]
struct DiffArgs {
    /// The old document: a file, or REV:PATH read with `git show` (PATH from the repository
    /// root, as git takes it; REV:./PATH for one relative to the current directory).
    #[arg(required_unless_present = "list_checks")]
    old: Option<String>,
    /// The new document, likewise.
    #[arg(required_unless_present = "list_checks")]
    new: Option<String>,
    /// Output format: text, json, markdown, junit or sarif.
    #[arg(long, default_value = "text", value_parser = parse_format)]
    format: diff::report::Format,
    /// Every change, breaking or not, grouped by operation and component (text or markdown).
    #[arg(long)]
    changelog: bool,
    /// Exit 1 when a finding at this level or above is found: error, warning or info.
    #[arg(long, default_value = "error", value_parser = parse_level)]
    fail_on: diff::Level,
    /// Only these sides (repeatable): clients (old clients against the new server), servers
    /// (old servers and notification receivers against new clients), rust (the generated
    /// crate's API). Default: all three.
    #[arg(long = "side", value_parser = parse_side)]
    sides: Vec<diff::Side>,
    /// Package name of the generated crate (default: the spec's info.x-crate-name, else its title).
    #[arg(long)]
    crate_name: Option<String>,
    /// Type overrides the crate is generated with: KEY=TYPE (repeatable).
    #[arg(long = "type-override", value_name = "KEY=TYPE")]
    type_overrides: Vec<String>,
    /// Print the catalogue of checks (id, level, side, what it finds) and exit.
    #[arg(long)]
    list_checks: bool,
}

fn parse_format(text: &str) -> Result<diff::report::Format, String> {
    diff::report::Format::parse(text)
        .ok_or_else(|| format!("`{text}` is not one of text, json, markdown, junit, sarif"))
}

fn parse_level(text: &str) -> Result<diff::Level, String> {
    diff::Level::parse(text).ok_or_else(|| format!("`{text}` is not one of error, warning, info"))
}

fn parse_side(text: &str) -> Result<diff::Side, String> {
    diff::Side::parse(text).ok_or_else(|| format!("`{text}` is not one of clients, servers, rust"))
}

#[derive(Args)]
struct Target {
    /// The OpenAPI document (YAML or JSON; Swagger 2.0, OpenAPI 3.0, 3.1 or 3.2).
    #[arg(long, default_value = "spec/openapi.yaml")]
    spec: PathBuf,
    /// The generated crate's directory.
    #[arg(long, default_value = "generated")]
    out: PathBuf,
    /// Package name of the generated crate (default: the spec's info.x-crate-name, else its title).
    #[arg(long)]
    crate_name: Option<String>,
    /// Use a Rust type for a schema: KEY=TYPE, KEY being Component, Component.property or a
    /// JSON pointer (repeatable).
    #[arg(long = "type-override", value_name = "KEY=TYPE")]
    type_overrides: Vec<String>,
    /// Do not emit the round-trip test of every example (`src/example_tests.rs`).
    #[arg(long)]
    no_example_tests: bool,
    /// Put each operation behind a cargo feature named after its first tag (`tag-files`; on by
    /// default), and each type behind the features that use it: for large specs, compile only
    /// what you call with `default-features = false, features = ["client", "tag-files"]`.
    #[arg(long)]
    features_per_tag: bool,
    /// How contract files hold the components they need: self-contained (each file its own
    /// $defs), shared (one definitions document per direction, for specs whose components
    /// reach most others), or auto (self-contained unless that would exceed 64 MiB).
    #[arg(long, value_enum, default_value_t = LayoutArg::Auto)]
    contract_layout: LayoutArg,
}

/// `--contract-layout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LayoutArg {
    Auto,
    SelfContained,
    Shared,
}

impl From<LayoutArg> for specgen::ContractLayout {
    fn from(layout: LayoutArg) -> specgen::ContractLayout {
        match layout {
            LayoutArg::Auto => specgen::ContractLayout::Auto,
            LayoutArg::SelfContained => specgen::ContractLayout::SelfContained,
            LayoutArg::Shared => specgen::ContractLayout::Shared,
        }
    }
}

impl Target {
    fn options(&self) -> Result<Options, String> {
        let type_overrides = overrides(&self.type_overrides)?;
        Ok(Options {
            crate_name: self.crate_name.clone(),
            type_overrides,
            no_example_tests: self.no_example_tests,
            features_per_tag: self.features_per_tag,
            contract_layout: self.contract_layout.into(),
            ..Options::default()
        })
    }
}

impl Target {
    /// The `generate` command for this target, every option as it was given, shell-quoted so
    /// that it can be pasted: `cargo run -p specgen -- generate …` when cargo runs this binary
    /// (it sets `CARGO`), else this program as it was invoked.
    fn generate_command(&self) -> String {
        let mut words: Vec<String> = if std::env::var_os("CARGO").is_some() {
            ["cargo", "run", "-p", "specgen", "--"]
                .map(String::from)
                .to_vec()
        } else {
            let program = std::env::args_os()
                .next()
                .map(|arg| arg.to_string_lossy().into_owned())
                .unwrap_or_else(|| "specgen".into());
            vec![program]
        };
        words.push("generate".into());
        words.extend([
            "--spec".into(),
            self.spec.to_string_lossy().into_owned(),
            "--out".into(),
            self.out.to_string_lossy().into_owned(),
        ]);
        if let Some(name) = &self.crate_name {
            words.extend(["--crate-name".into(), name.clone()]);
        }
        for entry in &self.type_overrides {
            words.extend(["--type-override".into(), entry.clone()]);
        }
        if self.no_example_tests {
            words.push("--no-example-tests".into());
        }
        if self.features_per_tag {
            words.push("--features-per-tag".into());
        }
        match self.contract_layout {
            LayoutArg::Auto => {}
            LayoutArg::SelfContained => words.push("--contract-layout=self-contained".into()),
            LayoutArg::Shared => words.push("--contract-layout=shared".into()),
        }
        words
            .iter()
            .map(|word| shell_quote(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `word` as a POSIX shell reads it back: as it is when it has nothing the shell would
/// interpret, else in single quotes (a `'` inside becoming `'\''`).
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// mimalloc rather than the system allocator: the emitters allocate on every rayon thread, and
/// glibc's per-thread arenas grow by thousands of `mprotect` calls (30,000 for a 1.7 MB spec,
/// about half a second of system time on two cores). Its `no_thp` feature (Cargo.toml) keeps it
/// from asking for transparent huge pages: each one is zeroed whole on first touch, which was a
/// quarter of the run for a 1.7 MB spec and doubled the peak memory for a small one.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    specgen::configure_threads();
    match cli.command {
        Command::Generate(target) => generate(&target),
        Command::Check(target) => check(&target),
        Command::Diff(args) => diff_command(&args),
    }
}

fn overrides(entries: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut type_overrides = BTreeMap::new();
    for entry in entries {
        let (key, ty) = entry
            .split_once('=')
            .ok_or_else(|| format!("--type-override takes KEY=TYPE, got `{entry}`"))?;
        type_overrides.insert(key.trim().to_string(), ty.trim().to_string());
    }
    Ok(type_overrides)
}

fn diff_command(args: &DiffArgs) -> ExitCode {
    if args.list_checks {
        print!("{}", diff::report::catalogue(args.format));
        return ExitCode::SUCCESS;
    }
    let (Some(old), Some(new)) = (&args.old, &args.new) else {
        eprintln!("error: OLD and NEW are required");
        return ExitCode::from(2);
    };
    let options = match overrides(&args.type_overrides) {
        Ok(type_overrides) => Options {
            crate_name: args.crate_name.clone(),
            type_overrides,
            no_example_tests: true,
            ..Options::default()
        },
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let (old_doc, new_doc) = rayon::join(|| diff::source::load(old), || diff::source::load(new));
    let report = old_doc
        .and_then(|old_doc| Ok((old_doc, new_doc?)))
        .and_then(|(old_doc, new_doc)| diff::diff(&old_doc, &new_doc, &options));
    let report = match report {
        Ok(report) => report,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    let render = diff::report::RenderOptions {
        format: args.format,
        changelog: args.changelog,
        sides: if args.sides.is_empty() {
            diff::Side::ALL.to_vec()
        } else {
            args.sides.clone()
        },
        fail_on: args.fail_on,
    };
    print!("{}", diff::report::render(&report, &render));
    if report.fails(render.fail_on, &render.sides) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The crate for the target's spec; the warnings of the way there go to stderr.
fn files_for(target: &Target) -> Result<Vec<specgen::GeneratedFile>, String> {
    let options = target.options()?;
    rayon::spawn(specgen::warm_up);
    let doc = load::load_file(&target.spec).map_err(|e| e.to_string())?;
    files_of(&doc, &options)
}

fn files_of(
    doc: &load::Document,
    options: &Options,
) -> Result<Vec<specgen::GeneratedFile>, String> {
    let generation = specgen::generate(doc, options).map_err(|e| e.to_string())?;
    for warning in specgen::ir::Warning::summarized(&generation.warnings) {
        eprintln!("warning: {warning}");
    }
    Ok(generation.files)
}

fn generate(target: &Target) -> ExitCode {
    let loaded = target.options().and_then(|options| {
        // On the other core while the document loads; unneeded when nothing changed, and
        // then left unfinished when the process ends.
        rayon::spawn(specgen::warm_up);
        let doc = load::load_file(&target.spec).map_err(|e| e.to_string())?;
        Ok((doc, options))
    });
    let (doc, options) = match loaded {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    // Nothing changed since the last generation (same specgen, options and input bytes, and
    // the output as written): nothing to do.
    if specgen::fingerprint::is_current(&target.out, specgen::fingerprint::inputs(&doc, &options)) {
        eprintln!(
            "specgen: {} is up to date with {}",
            target.out.display(),
            target.spec.display()
        );
        return ExitCode::SUCCESS;
    }
    let files = match files_of(&doc, &options) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let written = match output::write_crate(&target.out, &files) {
        Ok(written) => written,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "specgen: {} files in {}: {} written, {} unchanged, {} removed",
        files.len(),
        target.out.display(),
        written.written,
        written.unchanged,
        written.removed
    );
    ExitCode::SUCCESS
}

fn check(target: &Target) -> ExitCode {
    let files = match files_for(target) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if let Err(err) = output::refuse_foreign_directory(&target.out) {
        eprintln!("error: {err}");
        return ExitCode::from(2);
    }
    let drift = output::compare(&target.out, &files);
    if drift.is_empty() {
        eprintln!(
            "specgen: {} is up to date with {}",
            target.out.display(),
            target.spec.display()
        );
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "specgen: {} is stale: {} file(s) differ from what {} generates. Run `{}`.",
        target.out.display(),
        drift.len(),
        target.spec.display(),
        target.generate_command()
    );
    // A summary, not the whole change: a one-word title change touches every contract file
    // (their `$id`), hundreds on a large spec. The first files are listed, and the first
    // changed ones show how.
    const LISTED: usize = 50;
    const DIFFS: usize = 3;
    let mut diffs = 0;
    for item in drift.iter().take(LISTED) {
        match item {
            Drift::Missing(path) => eprintln!("  missing: {}", path.display()),
            Drift::Extra(path) => eprintln!("  not generated (extra): {}", path.display()),
            Drift::Changed(path, diff) => {
                eprintln!("  changed: {}", path.display());
                diffs += 1;
                if diffs <= DIFFS {
                    for line in diff.lines() {
                        eprintln!("    {line}");
                    }
                }
            }
        }
    }
    if drift.len() > LISTED {
        eprintln!("  … and {} more file(s)", drift.len() - LISTED);
    }
    let changed = drift
        .iter()
        .filter(|item| matches!(item, Drift::Changed(..)))
        .count();
    if changed > DIFFS {
        eprintln!(
            "  (how the first {DIFFS} changed files differ is shown; run the command above and \
             `git diff` for the rest)"
        );
    }
    ExitCode::from(1)
}
