//! Contract coverage (`specval coverage`): which documented things recorded traffic exercised,
//! and which it never did.
//!
//! What can be covered, per operation and per webhook of the contract (a [`Key`] each):
//!
//! - [`Category::Operation`] / [`Category::Notification`]: the operation was called, the
//!   notification delivered, at all;
//! - [`Category::Status`]: each documented response (reply) key, `201`, `2XX` or `default`,
//!   covered by a response whose status resolves to it as `specval check` resolves it (the
//!   exact code, then its class, then `default`);
//! - [`Category::Parameter`]: each parameter (`header:x-idempotency-key`, `query:…`,
//!   `path:…`), covered when a request carries it;
//! - [`Category::RequestMember`] / [`Category::ResponseMember`]: each property the body's
//!   schema declares, top-level and nested, as a pattern with `*` for array items and map
//!   values (`/transactions/*/status`); response members are per documented status; a
//!   notification's payload counts as the webhook's request (`notification`), the receiver's
//!   reply as its response (`reply 200`);
//! - [`Category::EnumValue`]: each value of an enum list (`enum`, `x-extensible-enum`) at a
//!   member of a request or response body, covered when the traffic sent that value there.
//!
//! A thing is covered by the exchanges that exercised it, whether or not they kept the rest of
//! the contract: coverage is about what was tried; `specval check` judges it. Traffic is read,
//! matched and parsed by the same pass as `specval check`
//! ([`crate::run::run_covering`]), so the two never disagree on which operation an exchange
//! is. Only documented things are counted: what the spec does not show is the drift summary of
//! `specval check`.
//!
//! Percentages are `covered / total × 100`, rounded to one decimal for display; `overall` is
//! over every item of every category together (so a category with many items weighs more).
//! A category without items is 100%. [`Coverage::meets`] compares the exact ratio.
//!
//! Nothing from the traffic reaches a report but counts: names, statuses, patterns and enum
//! values all come from the contract, so no credential (nor any other recorded value) can be
//! written. The report is sorted (operations by id, items by category, message, place, value)
//! and so deterministic.
//!
//! The formats: [`text`], [`json`], [`html`] (one self-contained page).

pub mod html;
pub mod json;
pub mod key;
pub mod text;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::contract::{Contract, OperationSpec};
use crate::finding::{Finding, Part};
use crate::report::{ExchangeOutcome, RunReport};
use crate::rule::Rule;
use crate::run::{Covered, Sink};

pub use key::{Category, Key, message};

/// Everything of the contract that traffic can exercise.
pub fn universe(contract: &Contract) -> Vec<Key> {
    let mut keys = Vec::new();
    let kinds = [
        (
            contract.operations(),
            Category::Operation,
            Part::Request,
            Part::Response,
        ),
        (
            contract.webhooks(),
            Category::Notification,
            Part::Notification,
            Part::Reply,
        ),
    ];
    for (ops, category, request, response) in kinds {
        for op in ops {
            keys.push(Key::operation(op, category));
            for param in &op.parameters {
                keys.push(Key::parameter(op, param));
            }
            if let Some(schema) = op.request_body.as_ref().and_then(|b| b.schema.as_deref()) {
                members(
                    contract,
                    op,
                    schema,
                    &message(request, None),
                    Category::RequestMember,
                    &mut keys,
                );
            }
            for spec in &op.responses {
                keys.push(Key::status(op, &spec.key));
                if let Some(schema) = &spec.body.schema {
                    let message = message(response, Some(&spec.key));
                    members(
                        contract,
                        op,
                        schema,
                        &message,
                        Category::ResponseMember,
                        &mut keys,
                    );
                }
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The members and enum values a body's schema documents.
fn members(
    contract: &Contract,
    op: &OperationSpec,
    schema: &str,
    message: &str,
    category: Category,
    keys: &mut Vec<Key>,
) {
    let Some(members) = contract.members(schema) else {
        return;
    };
    for pattern in &members.properties {
        keys.push(Key::member(op, category, message, pattern));
    }
    for (pattern, values) in &members.enums {
        // A value the schema forbids at this place (a known error code of another status)
        // is not there to be exercised: only traffic that breaks the contract holds it.
        let excluded = members.excluded.get(pattern);
        for value in values {
            if !excluded.is_some_and(|excluded| excluded.contains(value)) {
                keys.push(Key::enum_value(op, message, pattern, value));
            }
        }
    }
}

/// Covered and total items, and the percentage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Count {
    /// Items exercised.
    pub covered: u64,
    /// Items documented.
    pub total: u64,
    /// `covered / total × 100`, rounded to one decimal but never to 100 while an item is
    /// left, nor to 0 once one is covered; 100 when there is nothing to cover.
    pub percent: f64,
}

impl Default for Count {
    /// Nothing to cover: all of it covered, as [`Coverage::meets`] counts it.
    fn default() -> Count {
        Count {
            covered: 0,
            total: 0,
            percent: 100.0,
        }
    }
}

impl Count {
    fn add(&mut self, covered: bool) {
        self.total += 1;
        if covered {
            self.covered += 1;
        }
        self.percent = percent(self.covered, self.total);
    }
}

fn percent(covered: u64, total: u64) -> f64 {
    if total == 0 {
        return 100.0;
    }
    // Rounded half up to one decimal, in integers: the same digits on every platform. A
    // figure that rounds to 100 with an item left (2,524 of 2,525) or to 0 with one covered
    // would say the opposite of the counts beside it.
    let tenths = (covered * 1000 * 2 + total) / (total * 2);
    let tenths = match tenths {
        1000 if covered < total => 999,
        0 if covered > 0 => 1,
        tenths => tenths,
    };
    tenths as f64 / 10.0
}

/// Counts per category, and over all of them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Operations called.
    pub operations: Count,
    /// Notifications delivered.
    pub notifications: Count,
    /// Documented statuses answered.
    pub statuses: Count,
    /// Parameters sent.
    pub parameters: Count,
    /// Request (and notification payload) members sent.
    pub request_members: Count,
    /// Response (and reply) members received.
    pub response_members: Count,
    /// Enum values seen at their members.
    pub enum_values: Count,
    /// Every item of every category.
    pub overall: Count,
}

impl Totals {
    /// The count of a category.
    pub fn get(&self, category: Category) -> &Count {
        match category {
            Category::Operation => &self.operations,
            Category::Notification => &self.notifications,
            Category::Status => &self.statuses,
            Category::Parameter => &self.parameters,
            Category::RequestMember => &self.request_members,
            Category::ResponseMember => &self.response_members,
            Category::EnumValue => &self.enum_values,
        }
    }

    fn add(&mut self, category: Category, covered: bool) {
        let count = match category {
            Category::Operation => &mut self.operations,
            Category::Notification => &mut self.notifications,
            Category::Status => &mut self.statuses,
            Category::Parameter => &mut self.parameters,
            Category::RequestMember => &mut self.request_members,
            Category::ResponseMember => &mut self.response_members,
            Category::EnumValue => &mut self.enum_values,
        };
        count.add(covered);
        self.overall.add(covered);
    }
}

/// One documented thing of an operation, and how many exchanges exercised it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// What kind of thing.
    pub category: Category,
    /// See [`Key::message`].
    pub message: String,
    /// See [`Key::at`].
    pub at: String,
    /// See [`Key::value`].
    pub value: String,
    /// Exchanges that exercised it; 0 for a gap.
    pub hits: u64,
}

impl Item {
    /// Whether the traffic exercised it.
    pub fn covered(&self) -> bool {
        self.hits > 0
    }

    /// The item as a person reads it: `status 404`, `parameter header:x-idempotency-key`,
    /// `response member response 200 /amount/value`, `enum value request /status = CLOSED`.
    pub fn describe(&self) -> String {
        let mut text = self.category.singular().to_string();
        for part in [self.message.as_str(), self.place()] {
            if !part.is_empty() {
                text.push(' ');
                text.push_str(part);
            }
        }
        if self.category == Category::EnumValue {
            text.push_str(" = ");
            text.push_str(&self.value);
        }
        text
    }

    /// [`Item::at`] with the body itself spelled `(body)`.
    pub fn place(&self) -> &str {
        match self.category {
            Category::RequestMember | Category::ResponseMember | Category::EnumValue
                if self.at.is_empty() =>
            {
                "(body)"
            }
            _ => &self.at,
        }
    }
}

/// One operation's or webhook's coverage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OperationCoverage {
    /// operationId, or the webhook's name.
    pub id: String,
    /// `operation` or `notification`.
    pub kind: Category,
    /// Method.
    pub method: String,
    /// Path template (relative to the base path for operations).
    pub path: String,
    /// Exchanges matched to it.
    pub exchanges: u64,
    /// Its counts.
    pub totals: Totals,
    /// Every item, sorted.
    pub items: Vec<Item>,
}

/// The coverage of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coverage {
    /// The inputs as named on the command line.
    pub inputs: Vec<String>,
    /// Entries read, malformed ones included.
    pub exchanges: u64,
    /// Entries that could not be read as exchanges.
    pub malformed: u64,
    /// Exchanges that matched no operation or webhook.
    pub unmatched: u64,
    /// Counts over the whole contract.
    pub totals: Totals,
    /// Operations by id, then webhooks by name.
    pub operations: Vec<OperationCoverage>,
}

impl Coverage {
    /// Tallies what a run covered ([`crate::run::run_covering`]) against everything the
    /// contract documents.
    pub fn tally(contract: &Contract, report: &RunReport, covered: &Covered) -> Coverage {
        let mut operations: BTreeMap<(Category, String), OperationCoverage> = BTreeMap::new();
        let kinds = [
            (contract.operations(), Category::Operation),
            (contract.webhooks(), Category::Notification),
        ];
        for (ops, kind) in kinds {
            for op in ops {
                operations.insert(
                    (kind, op.id.clone()),
                    OperationCoverage {
                        id: op.id.clone(),
                        kind,
                        method: op.method.clone(),
                        path: op.path.clone(),
                        exchanges: report.per_operation.get(&op.id).map_or(0, |s| s.exchanges),
                        totals: Totals::default(),
                        items: Vec::new(),
                    },
                );
            }
        }
        let webhooks: Vec<&str> = contract.webhooks().iter().map(|w| w.id.as_str()).collect();
        let mut totals = Totals::default();
        for key in universe(contract) {
            let hits = covered.get(&key).copied().unwrap_or(0);
            totals.add(key.category, hits > 0);
            let kind = match key.category {
                Category::Notification => Category::Notification,
                Category::Operation => Category::Operation,
                _ if webhooks.contains(&key.operation.as_str())
                    && operations
                        .contains_key(&(Category::Notification, key.operation.clone())) =>
                {
                    Category::Notification
                }
                _ => Category::Operation,
            };
            if let Some(op) = operations.get_mut(&(kind, key.operation.clone())) {
                op.totals.add(key.category, hits > 0);
                op.items.push(Item {
                    category: key.category,
                    message: key.message,
                    at: key.at,
                    value: key.value,
                    hits,
                });
            }
        }
        let group = |name: &str| report.per_operation.get(name).map_or(0, |s| s.exchanges);
        Coverage {
            inputs: report.inputs.clone(),
            exchanges: report.exchanges,
            malformed: group(crate::report::group::MALFORMED),
            unmatched: group(crate::report::group::UNMATCHED),
            totals,
            operations: operations.into_values().collect(),
        }
    }

    /// Whether the overall coverage is at least `percent` (the exact ratio, not the rounded
    /// figure: 2 of 3 does not meet 66.7).
    pub fn meets(&self, percent: f64) -> bool {
        let overall = &self.totals.overall;
        if overall.total == 0 {
            return true;
        }
        overall.covered as f64 * 100.0 >= percent * overall.total as f64
    }

    /// What `--min-coverage percent` says of a run that falls short of it, `None` when it
    /// [meets](Self::meets) it: the counts and how many items the threshold asks for beside
    /// the rounded figure, which alone may read as the threshold itself (12 of 760 is 1.579%,
    /// shown as 1.6%, below `--min-coverage 1.6`).
    pub fn shortfall(&self, percent: f64) -> Option<String> {
        if self.meets(percent) {
            return None;
        }
        let overall = &self.totals.overall;
        let needed = (percent * overall.total as f64 / 100.0).ceil() as u64;
        Some(format!(
            "overall coverage {:.1}% ({} of {} items) is below --min-coverage {percent}, which \
             asks for {needed}",
            overall.percent, overall.covered, overall.total
        ))
    }
}

/// The most gaps the text and HTML formats list per operation: a spec whose schemas reach
/// each other everywhere (Stripe's) documents hundreds of thousands of places, and a report a
/// person reads must stay readable. The counts still cover every item; `json` lists them all.
pub const LISTED_GAPS: usize = 200;

/// The formats of `specval coverage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Totals, then each operation's counts and gaps.
    Text,
    /// The whole tally, every item with its hits.
    Json,
    /// One self-contained HTML page: the totals and a table per operation.
    Html,
}

/// Writes the coverage in a format.
pub fn write(
    coverage: &Coverage,
    format: Format,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Text => text::write(coverage, out),
        Format::Json => json::write(coverage, out),
        Format::Html => html::write(coverage, out),
    }
}

/// A [`Sink`] for a coverage run: the findings of the checks are not its business, but the
/// inputs that held no exchange (`no-exchanges`) and could not be read are; nothing is kept
/// of the others, so memory does not grow with the traffic.
#[derive(Debug, Default)]
pub struct InputProblems {
    /// The messages of `no-exchanges` findings, one per empty input.
    pub empty: Vec<String>,
}

impl Sink for InputProblems {
    fn finding(&mut self, finding: Finding) -> std::io::Result<()> {
        if finding.rule == Rule::NoExchanges {
            self.empty
                .push(format!("{}: {}", finding.source, finding.message));
        }
        Ok(())
    }

    fn outcome(&mut self, _: ExchangeOutcome) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_half_up_to_one_decimal_and_meets_uses_the_exact_ratio() {
        assert_eq!(percent(1, 9), 11.1);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(1, 8), 12.5);
        assert_eq!(percent(0, 0), 100.0);
        // Never 100 with an item left, nor 0 with one covered.
        assert_eq!(percent(2524, 2525), 99.9);
        assert_eq!(percent(1, 2525), 0.1);
        assert_eq!(percent(0, 2525), 0.0);
        assert_eq!(Count::default().percent, 100.0);
        let mut coverage = Coverage {
            inputs: Vec::new(),
            exchanges: 0,
            malformed: 0,
            unmatched: 0,
            totals: Totals::default(),
            operations: Vec::new(),
        };
        for covered in [true, true, false] {
            coverage.totals.add(Category::Status, covered);
        }
        assert_eq!(coverage.totals.overall.percent, 66.7);
        assert!(coverage.meets(66.6));
        assert!(!coverage.meets(66.7), "2 of 3 is below 66.7");
        assert!(coverage.meets(0.0));
    }

    #[test]
    fn the_universe_of_the_embedded_contract_has_every_operation_and_status() {
        let contract = Contract::embedded().unwrap();
        let keys = universe(&contract);
        let of = |category| keys.iter().filter(|k| k.category == category).count();
        assert_eq!(of(Category::Operation), 9);
        assert_eq!(of(Category::Notification), 1);
        assert_eq!(of(Category::Status), 40);
        assert_eq!(of(Category::Parameter), 13);
        assert!(keys.contains(&Key {
            operation: "getAccount".into(),
            category: Category::EnumValue,
            message: "response 200".into(),
            at: "/status".into(),
            value: "CLOSED".into(),
        }));
    }
}
