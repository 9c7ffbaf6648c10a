//! The public Rust API of the crate specgen generates for an IR: every type, field, variant,
//! method and trait method a user can name, with its exact type.
//!
//! Types are spelled by the emitters themselves: models' fields through
//! `emit::models::field_tokens`, server, client and webhook items through the functions that
//! emit them (their tokens read back with syn), so the surface cannot drift from the code.
//! Paths are absolute (`crate::models::Pet`, `::serde_json::Value`).
//!
//! `items.rs` is what a surface is made of, `tokens.rs` reads emitted tokens back; `models.rs`,
//! `operations.rs` and `credentials.rs` collect the items of the generated modules.

mod credentials;
mod items;
mod models;
mod operations;
mod tokens;

use crate::error::Result;
use crate::ir::Api;
use credentials::credentials;
use models::models;
use operations::{client, server, webhooks};

pub use items::{Item, Kind, Member, Signature, Surface, Variant};

impl Surface {
    /// The surface of the crate generated for `api`.
    pub fn of(api: &Api) -> Result<Surface> {
        let mut surface = Surface::default();
        models(api, &mut surface)?;
        credentials(api, &mut surface)?;
        if !api.operations.is_empty() {
            surface.module("server", "#/paths");
            surface.module("client", "#/paths");
            server(api, &mut surface)?;
            client(api, &mut surface)?;
        }
        if !api.webhooks.is_empty() {
            surface.module("webhooks", "#/webhooks");
            webhooks(api, &mut surface)?;
        }
        Ok(surface)
    }
}
