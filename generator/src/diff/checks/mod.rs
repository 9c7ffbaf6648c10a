//! The catalogue: every check `specgen diff` runs, each with a stable id, a level and the side
//! it can break.
//!
//! Sides are the HTTP roles of the two programs an exchange pairs: [`Side::Clients`] is an old
//! HTTP client against a new HTTP server (API clients against the new server; the API's old
//! notification sender against new receivers), [`Side::Servers`] an old HTTP server against a
//! new HTTP client (the API's old server against new clients; old notification receivers
//! against the new sender). [`Side::Rust`] is the public API of the generated crate.
//!
//! Schema checks are made of a [`Flow`] (whose message) and a [`Facet`] (what changed in its
//! schema), and their level follows from one rule (`judge`): a change that narrows a message
//! breaks its old producers, one that widens it breaks its old consumers; the break is an
//! error when the old party is user code (API clients, notification receivers) and certain,
//! a warning when it is certain but only hurts the API's own old deployment (users upgrading
//! before the provider) or when it depends on how strictly the party checks what it reads,
//! and info otherwise.

mod check;
mod facet;
mod rust;
mod schema;
mod structural;

use std::sync::OnceLock;

pub use check::{Area, Check, Level, Side};
pub use facet::{Bound, Facet};
pub use rust::RustCheck;
pub use schema::{Flow, schema_id, schema_level};
pub use structural::Structural;

use schema::judge;

/// The whole catalogue, in a stable order: schema checks by flow, structural checks, Rust
/// checks.
pub fn catalogue() -> &'static [Check] {
    static CATALOGUE: OnceLock<Vec<Check>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut checks = Vec::new();
        for check in Structural::ALL {
            let (id, side, level, area, summary) = check.spec();
            checks.push(Check {
                id: id.to_string(),
                level,
                side,
                area,
                summary: summary.to_string(),
            });
        }
        for flow in Flow::ALL {
            for facet in Facet::all() {
                let (side, level) = judge(flow, facet);
                checks.push(Check {
                    id: schema_id(flow, facet),
                    level,
                    side,
                    area: facet.area(),
                    summary: format!("{}: {}", flow.noun(), facet.summary()),
                });
            }
        }
        for check in RustCheck::ALL {
            let (id, level, summary) = check.spec();
            checks.push(Check {
                id: id.to_string(),
                level,
                side: Some(Side::Rust),
                area: Area::RustApi,
                summary: summary.to_string(),
            });
        }
        checks
    })
}

/// The check with this id.
pub fn find(id: &str) -> Option<&'static Check> {
    catalogue().iter().find(|check| check.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = catalogue().iter().map(|c| c.id.as_str()).collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), count);
    }
}
