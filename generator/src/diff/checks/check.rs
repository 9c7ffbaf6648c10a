//! What a check is: the level of its findings, the side it can break, the area of the
//! document it concerns, and its entry in the catalogue.

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A change worth knowing, that breaks nothing.
    Info,
    /// May break, depending on the party or on the order of deployment.
    Warning,
    /// Breaks existing user code or deployed users.
    Error,
}

impl Level {
    /// The level's name, as `--fail-on` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    /// The level named `text` (`warn` is accepted for `warning`).
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "info" => Some(Level::Info),
            "warning" | "warn" => Some(Level::Warning),
            "error" | "err" => Some(Level::Error),
            _ => None,
        }
    }
}

/// Which pairing of old and new programs a change can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Old clients (and the API's old notification sender) against the new server (and new
    /// notification receivers).
    Clients,
    /// Old servers and old notification receivers against new clients (and the new sender).
    Servers,
    /// User code written against the old generated crate, compiled against the new one.
    Rust,
}

impl Side {
    /// Every side, in report order.
    pub const ALL: [Side; 3] = [Side::Clients, Side::Servers, Side::Rust];

    /// The side's name, as `--side` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Clients => "clients",
            Side::Servers => "servers",
            Side::Rust => "rust",
        }
    }

    /// The side named `text`.
    pub fn parse(text: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.as_str() == text)
    }

    /// A heading for the side.
    pub fn title(self) -> &'static str {
        match self {
            Side::Clients => "Old clients against the new server",
            Side::Servers => "Old servers and notification receivers against new clients",
            Side::Rust => "Rust API of the generated crate",
        }
    }
}

/// The part of the document a check concerns, for the catalogue's grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    /// Paths and servers.
    Paths,
    /// Operations.
    Operations,
    /// Parameters.
    Parameters,
    /// Request bodies.
    RequestBodies,
    /// Responses, their statuses, media types and headers.
    Responses,
    /// Schemas of any message.
    Schemas,
    /// Enumerations.
    Enums,
    /// Security requirements and schemes.
    Security,
    /// Webhooks.
    Webhooks,
    /// The generated crate's public Rust API.
    RustApi,
}

impl Area {
    /// A heading for the area.
    pub fn title(self) -> &'static str {
        match self {
            Area::Paths => "Paths",
            Area::Operations => "Operations",
            Area::Parameters => "Parameters",
            Area::RequestBodies => "Request bodies",
            Area::Responses => "Responses",
            Area::Schemas => "Schemas",
            Area::Enums => "Enums",
            Area::Security => "Security",
            Area::Webhooks => "Webhooks",
            Area::RustApi => "Rust API",
        }
    }
}

/// One check of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Stable id, e.g. `request-max-length-tightened`.
    pub id: String,
    /// Level of every finding of this check.
    pub level: Level,
    /// The side it can break (`None` for changes that break nothing).
    pub side: Option<Side>,
    /// What the document (or crate) area is.
    pub area: Area,
    /// What the check finds.
    pub summary: String,
}
