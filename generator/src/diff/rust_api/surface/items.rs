//! What a surface is made of: items, their kinds, fields and arguments, variants and
//! signatures, and how an item is recorded.

use std::collections::BTreeMap;

use crate::diff::finding::Group;
use crate::diff::place;

/// Every public item, by path (`models::Pet`, `client::Client::get_pet`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surface {
    /// The items.
    pub items: BTreeMap<String, Item>,
}

/// One public item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// JSON pointer of what it was made from.
    pub origin: String,
    /// What stays the same when its Rust name changes (a schema's pointer, an operation's
    /// method and path), to tell a rename from a removal.
    pub identity: String,
    /// Its group in a changelog.
    pub group: Group,
}

/// The kind of an item, with what user code can rely on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A module that exists only when the API has operations (or webhooks).
    Module,
    /// A struct with public fields.
    Struct {
        /// Its fields.
        fields: Vec<Member>,
        /// Whether it implements `Default`.
        default: bool,
    },
    /// An enum.
    Enum {
        /// Its variants; a payload of several types is a tuple variant.
        variants: Vec<Variant>,
    },
    /// `pub struct Name(pub T)`.
    Newtype(String),
    /// `pub type Name = T`.
    Alias(String),
    /// An inherent method (`Self::name(...)` or `self.name(...)`).
    Method(Signature),
    /// A method of one of the crate's traits (`server::Api`, `webhooks::Webhooks`).
    TraitMethod(Signature),
}

impl Kind {
    /// What kind of item, in prose.
    pub fn noun(&self) -> &'static str {
        match self {
            Kind::Module => "module",
            Kind::Struct { .. } => "struct",
            Kind::Enum { .. } => "enum",
            Kind::Newtype(_) => "newtype",
            Kind::Alias(_) => "type alias",
            Kind::Method(_) => "method",
            Kind::TraitMethod(_) => "trait method",
        }
    }
}

/// A field or an argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Rust name.
    pub name: String,
    /// Type, with absolute paths.
    pub ty: String,
    /// What it stands for on the wire (property or parameter name), to tell renames.
    pub wire: String,
}

/// An enum variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Rust name.
    pub name: String,
    /// Payload types: none for a unit variant.
    pub payload: Vec<String>,
    /// What it stands for (enum value, status, alternative), to tell renames.
    pub wire: String,
}

/// A method's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The receiver (`&self`), if any.
    pub receiver: Option<String>,
    /// Arguments, in order.
    pub args: Vec<Member>,
    /// Return type (`()` when none).
    pub ret: String,
    /// `async fn`.
    pub is_async: bool,
}

impl Surface {
    pub(super) fn module(&mut self, name: &str, origin: &str) {
        self.insert(
            name.to_string(),
            Kind::Module,
            origin,
            format!("module {name}"),
        );
    }

    pub(super) fn insert(&mut self, path: String, kind: Kind, origin: &str, identity: String) {
        self.items.insert(
            path,
            Item {
                kind,
                origin: origin.to_string(),
                identity,
                group: place::group(origin),
            },
        );
    }
}
