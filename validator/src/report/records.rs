//! Where the writers read what grows with the traffic (findings, and the verdict of every
//! exchange) from: a [`RunReport`] in memory, or a [`Spool`] on disk.
//!
//! `specval check` spools: a run with 200k failing exchanges held every finding in memory
//! until the report was written (200–290 MB); with the spool its memory no longer grows with
//! the findings, and each writer streams them back, one at a time, in the report's order.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde::{Deserialize, Serialize};

use super::group::group;
use super::{ExchangeOutcome, RunReport};
use crate::finding::{Finding, Severity};
use crate::rule::Rule;
use crate::run::Sink;

/// One after another, each possibly failing (a spool that cannot be read back).
pub type Stream<'r, T> = Box<dyn Iterator<Item = io::Result<Cow<'r, T>>> + 'r>;

/// A testcase of the JUnit format: an exchange's verdict with its findings, or findings whose
/// exchange has no verdict (an input that is empty or could not be read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// The input.
    pub source: String,
    /// The verdict, when there is one.
    pub outcome: Option<ExchangeOutcome>,
    /// Its findings, in the report's order.
    pub findings: Vec<Finding>,
}

/// What the writers need to know before they write the findings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Error findings.
    pub errors: u64,
    /// Warning findings.
    pub warnings: u64,
    /// The rules findings name.
    pub rules: BTreeSet<Rule>,
    /// The groups findings are listed under (operations, `(unmatched)`, …).
    pub groups: BTreeSet<String>,
}

impl Tally {
    fn add(&mut self, finding: &Finding) {
        match finding.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        if !self.rules.contains(&finding.rule) {
            self.rules.insert(finding.rule.clone());
        }
        let group = group(finding);
        if !self.groups.contains(group) {
            self.groups.insert(group.to_string());
        }
    }
}

/// Findings and verdicts, read as often as a writer needs.
pub trait Records {
    /// Counts, rules and groups of the findings.
    fn tally(&self) -> Tally;
    /// Every finding, in the report's order (by input, then exchange).
    fn findings(&self) -> io::Result<Stream<'_, Finding>>;
    /// The findings of one group, in the report's order.
    fn group(&self, name: &str) -> io::Result<Stream<'_, Finding>>;
    /// The JUnit testcases: suite by suite (the inputs in order, then any other source),
    /// in the report's order within a suite.
    fn cases(&self) -> io::Result<Stream<'_, Case>>;
}

impl Records for RunReport {
    fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        self.findings.iter().for_each(|finding| tally.add(finding));
        tally
    }

    fn findings(&self) -> io::Result<Stream<'_, Finding>> {
        Ok(Box::new(self.findings.iter().map(|f| Ok(Cow::Borrowed(f)))))
    }

    fn group(&self, name: &str) -> io::Result<Stream<'_, Finding>> {
        let name = name.to_string();
        Ok(Box::new(
            self.findings
                .iter()
                .filter(move |f| group(f) == name)
                .map(|f| Ok(Cow::Borrowed(f))),
        ))
    }

    fn cases(&self) -> io::Result<Stream<'_, Case>> {
        Ok(Box::new(
            cases_of(self).into_iter().map(|case| Ok(Cow::Owned(case))),
        ))
    }
}

/// The testcases of a report in memory, whatever the order of its findings and outcomes: a
/// case per outcome with the findings of its exchange, then per suite the findings of
/// exchanges without an outcome.
fn cases_of(report: &RunReport) -> Vec<Case> {
    let mut findings: BTreeMap<(&str, usize), Vec<Finding>> = BTreeMap::new();
    for finding in &report.findings {
        findings
            .entry((finding.source.as_str(), finding.exchange))
            .or_default()
            .push(finding.clone());
    }
    let mut suites: Vec<(&str, Vec<Case>)> = report
        .inputs
        .iter()
        .map(|input| (input.as_str(), Vec::new()))
        .collect();
    for outcome in &report.outcomes {
        let found = findings
            .remove(&(outcome.source.as_str(), outcome.index))
            .unwrap_or_default();
        suite(&mut suites, &outcome.source).push(Case {
            source: outcome.source.clone(),
            outcome: Some(outcome.clone()),
            findings: found,
        });
    }
    for finding in &report.findings {
        if let Some(found) = findings.remove(&(finding.source.as_str(), finding.exchange)) {
            suite(&mut suites, &finding.source).push(Case {
                source: finding.source.clone(),
                outcome: None,
                findings: found,
            });
        }
    }
    suites.into_iter().flat_map(|(_, cases)| cases).collect()
}

/// The cases of a source's suite, the suite added at the end when new.
fn suite<'s, 'a>(suites: &'s mut Vec<(&'a str, Vec<Case>)>, source: &'a str) -> &'s mut Vec<Case> {
    let at = match suites.iter().position(|(name, _)| *name == source) {
        Some(at) => at,
        None => {
            suites.push((source, Vec::new()));
            suites.len() - 1
        }
    };
    &mut suites[at].1
}

/// Findings and verdicts spooled to temporary files as a run hands them over (a [`Sink`]),
/// read back by the writers (a [`Records`]). Findings go to one file per group, each line
/// numbered, so that the text format reads a group at a time and the others merge the files
/// back into the report's order; with verdicts kept (JUnit), whole testcases go to a file of
/// their own instead.
#[derive(Debug)]
pub struct Spool {
    dir: tempfile::TempDir,
    /// Per group: its file and, while writing, the writer.
    groups: BTreeMap<String, (std::path::PathBuf, Option<BufWriter<File>>)>,
    /// The testcases (JUnit), when kept.
    cases: Option<(std::path::PathBuf, Option<BufWriter<File>>)>,
    /// The testcase being gathered.
    pending: Option<Case>,
    sequence: u64,
    tally: Tally,
}

/// A finding on a line of a group file.
#[derive(Serialize, Deserialize)]
struct Numbered<F> {
    n: u64,
    f: F,
}

impl Spool {
    /// A spool in the temporary directory; `cases` keeps testcases (for JUnit) instead of
    /// findings by group.
    pub fn new(cases: bool) -> io::Result<Spool> {
        let dir = tempfile::Builder::new().prefix("specval-").tempdir()?;
        let cases = cases.then(|| (dir.path().join("cases.jsonl"), None));
        Ok(Spool {
            dir,
            groups: BTreeMap::new(),
            cases,
            pending: None,
            sequence: 0,
            tally: Tally::default(),
        })
    }

    /// Flushes everything: call once the run is over, before reading.
    pub fn finish(&mut self) -> io::Result<()> {
        self.flush_case()?;
        for (_, writer) in self.groups.values_mut() {
            if let Some(mut writer) = writer.take() {
                writer.flush()?;
            }
        }
        if let Some((_, writer)) = &mut self.cases
            && let Some(mut writer) = writer.take()
        {
            writer.flush()?;
        }
        Ok(())
    }

    fn flush_case(&mut self) -> io::Result<()> {
        let (Some(case), Some((path, writer))) = (self.pending.take(), &mut self.cases) else {
            return Ok(());
        };
        let writer = match writer {
            Some(writer) => writer,
            None => writer.insert(BufWriter::new(File::create(path)?)),
        };
        serde_json::to_writer(&mut *writer, &case)?;
        writer.write_all(b"\n")
    }

    fn read_lines<T: for<'de> Deserialize<'de>>(
        path: &std::path::Path,
    ) -> io::Result<impl Iterator<Item = io::Result<T>> + use<T>> {
        let file = match File::open(path) {
            Ok(file) => Some(file),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err),
        };
        Ok(file.into_iter().flat_map(|file| {
            BufReader::new(file).lines().map(|line| {
                let line = line?;
                serde_json::from_str(&line).map_err(io::Error::from)
            })
        }))
    }
}

impl Sink for Spool {
    fn finding(&mut self, finding: Finding) -> io::Result<()> {
        self.tally.add(&finding);
        if self.cases.is_some() {
            let same = self
                .pending
                .as_ref()
                .is_some_and(|case| same_exchange(case, &finding));
            if !same {
                self.flush_case()?;
                self.pending = Some(Case {
                    source: finding.source.clone(),
                    outcome: None,
                    findings: Vec::new(),
                });
            }
            if let Some(case) = &mut self.pending {
                case.findings.push(finding);
            }
            return Ok(());
        }
        let group = group(&finding).to_string();
        let index = self.groups.len();
        let (path, writer) = self
            .groups
            .entry(group)
            .or_insert_with(|| (self.dir.path().join(format!("group-{index}.jsonl")), None));
        let writer = match writer {
            Some(writer) => writer,
            None => writer.insert(BufWriter::new(File::create(path)?)),
        };
        self.sequence += 1;
        serde_json::to_writer(
            &mut *writer,
            &Numbered {
                n: self.sequence,
                f: &finding,
            },
        )?;
        writer.write_all(b"\n")
    }

    fn outcome(&mut self, outcome: ExchangeOutcome) -> io::Result<()> {
        self.flush_case()?;
        self.pending = Some(Case {
            source: outcome.source.clone(),
            outcome: Some(outcome),
            findings: Vec::new(),
        });
        Ok(())
    }
}

/// Whether a finding belongs to the testcase being gathered.
fn same_exchange(case: &Case, finding: &Finding) -> bool {
    let index = match (&case.outcome, case.findings.first()) {
        (Some(outcome), _) => outcome.index,
        (None, Some(first)) => first.exchange,
        (None, None) => return false,
    };
    case.source == finding.source && index == finding.exchange
}

impl Records for Spool {
    fn tally(&self) -> Tally {
        self.tally.clone()
    }

    fn findings(&self) -> io::Result<Stream<'_, Finding>> {
        if self.cases.is_some() {
            let cases = self.cases()?;
            return Ok(Box::new(cases.flat_map(|case| {
                match case {
                    Ok(case) => case
                        .into_owned()
                        .findings
                        .into_iter()
                        .map(|f| Ok(Cow::Owned(f)))
                        .collect::<Vec<_>>(),
                    Err(err) => vec![Err(err)],
                }
            })));
        }
        // A k-way merge of the group files by line number.
        let mut files = Vec::new();
        for (path, _) in self.groups.values() {
            files.push(Self::read_lines::<Numbered<Finding>>(path)?);
        }
        let mut heads = BinaryHeap::new();
        let mut failed = None;
        for (at, file) in files.iter_mut().enumerate() {
            match file.next() {
                Some(Ok(line)) => heads.push(Head(line, at)),
                Some(Err(err)) => failed = Some(err),
                None => {}
            }
        }
        if let Some(err) = failed {
            return Err(err);
        }
        Ok(Box::new(std::iter::from_fn(move || {
            let Head(line, at) = heads.pop()?;
            match files[at].next() {
                Some(Ok(next)) => heads.push(Head(next, at)),
                Some(Err(err)) => return Some(Err(err)),
                None => {}
            }
            Some(Ok(Cow::Owned(line.f)))
        })))
    }

    fn group(&self, name: &str) -> io::Result<Stream<'_, Finding>> {
        if self.cases.is_some() {
            let name = name.to_string();
            let all = self.findings()?;
            return Ok(Box::new(
                all.filter(move |f| f.as_ref().map_or(true, |f| group(f) == name)),
            ));
        }
        let Some((path, _)) = self.groups.get(name) else {
            return Ok(Box::new(std::iter::empty()));
        };
        let lines = Self::read_lines::<Numbered<Finding>>(path)?;
        Ok(Box::new(
            lines.map(|line| line.map(|line| Cow::Owned(line.f))),
        ))
    }

    fn cases(&self) -> io::Result<Stream<'_, Case>> {
        let Some((path, _)) = &self.cases else {
            return Err(io::Error::other("the spool keeps no testcases"));
        };
        let lines = Self::read_lines::<Case>(path)?;
        Ok(Box::new(lines.map(|case| case.map(Cow::Owned))))
    }
}

/// A line of a group file, ordered for the merge: the smallest number first.
struct Head(Numbered<Finding>, usize);

impl PartialEq for Head {
    fn eq(&self, other: &Head) -> bool {
        self.0.n == other.0.n
    }
}

impl Eq for Head {}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Head) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Head {
    fn cmp(&self, other: &Head) -> std::cmp::Ordering {
        // BinaryHeap is a max-heap.
        other.0.n.cmp(&self.0.n)
    }
}
