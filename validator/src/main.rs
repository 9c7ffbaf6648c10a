//! The `specval` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use specval::Contract;

/// Validates API payloads against the contract specgen writes.
#[derive(Parser)]
#[command(name = "specval", version, about)]
struct Cli {
    /// A contract directory (specgen's `schemas/`); default: the embedded contract of this API.
    #[arg(long, global = true)]
    contract: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Checks one JSON payload against one schema. Exit 0 when it conforms, 1 when it does
    /// not, 2 when the payload or the contract cannot be read.
    Message {
        /// Component name (`Account`) or path under schemas/ (`operations/createAccount.request.json`).
        #[arg(long)]
        schema: String,
        /// The payload file; `-` reads standard input.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let contract = match &cli.contract {
        Some(dir) => Contract::from_dir(dir),
        None => Contract::embedded(),
    };
    let contract = match contract {
        Ok(contract) => contract,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Message { schema, file } => message(&contract, &schema, &file),
    }
}

fn message(contract: &Contract, schema: &str, file: &PathBuf) -> ExitCode {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    let text = match text {
        Ok(text) => text,
        Err(err) => {
            eprintln!("error: cannot read {}: {err}", file.display());
            return ExitCode::from(2);
        }
    };
    let instance: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(err) => {
            eprintln!("error: {} is not JSON: {err}", file.display());
            return ExitCode::from(2);
        }
    };
    match contract.validate(schema, &instance) {
        Ok(findings) if findings.is_empty() => {
            println!("{}: conforms to {schema}", file.display());
            ExitCode::SUCCESS
        }
        Ok(findings) => {
            for finding in &findings {
                let pointer = if finding.pointer.is_empty() {
                    "(root)"
                } else {
                    &finding.pointer
                };
                println!(
                    "{pointer}: {} [{}] at {}",
                    finding.message, finding.rule, finding.schema_location
                );
            }
            println!(
                "{}: {} finding(s) against {schema}",
                file.display(),
                findings.len()
            );
            ExitCode::from(1)
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(2)
        }
    }
}
