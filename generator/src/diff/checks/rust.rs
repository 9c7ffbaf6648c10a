//! Rust checks: the catalogue entries for the public API of the generated crate, each with
//! its id, level and summary.

use super::check::Level;

/// Checks on the public API of the generated crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RustCheck {
    /// `server`, `client` or `webhooks` no longer generated.
    ModuleRemoved,
    /// A new module.
    ModuleAdded,
    /// A type went.
    TypeRemoved,
    /// A type has a new name.
    TypeRenamed,
    /// A new type.
    TypeAdded,
    /// A type changed kind, or what a newtype wraps or an alias names changed.
    TypeChanged,
    /// A struct field went.
    FieldRemoved,
    /// A struct field has a new name.
    FieldRenamed,
    /// A field's type changed.
    FieldTypeChanged,
    /// `T` became `Option<T>`.
    FieldOptionAdded,
    /// `Option<T>` became `T`.
    FieldOptionRemoved,
    /// A new field every struct literal must give: not an `Option`, or the struct has no
    /// `Default`.
    FieldAdded,
    /// A new `Option` field on a struct that keeps `Default`.
    OptionalFieldAdded,
    /// The struct no longer derives `Default`.
    DefaultRemoved,
    /// The struct now derives `Default`.
    DefaultAdded,
    /// An enum variant went.
    VariantRemoved,
    /// An enum variant has a new name.
    VariantRenamed,
    /// A variant's payload changed.
    VariantPayloadChanged,
    /// A new variant.
    VariantAdded,
    /// An inherent method or function went.
    MethodRemoved,
    /// A method has a new name.
    MethodRenamed,
    /// A method's arguments or return type changed.
    MethodSignatureChanged,
    /// A method's positional arguments keep their types but mean other parameters.
    MethodArgumentsShifted,
    /// A new method.
    MethodAdded,
    /// A new method of `server::Api` or `webhooks::Webhooks`.
    TraitMethodAdded,
    /// A trait method went.
    TraitMethodRemoved,
    /// A trait method has a new name.
    TraitMethodRenamed,
    /// A trait method's signature changed.
    TraitMethodSignatureChanged,
    /// `info.version` moved by less than the crate needs.
    VersionBumpInsufficient,
}

impl RustCheck {
    /// Every Rust check.
    pub const ALL: [RustCheck; 29] = [
        RustCheck::ModuleRemoved,
        RustCheck::ModuleAdded,
        RustCheck::TypeRemoved,
        RustCheck::TypeRenamed,
        RustCheck::TypeAdded,
        RustCheck::TypeChanged,
        RustCheck::FieldRemoved,
        RustCheck::FieldRenamed,
        RustCheck::FieldTypeChanged,
        RustCheck::FieldOptionAdded,
        RustCheck::FieldOptionRemoved,
        RustCheck::FieldAdded,
        RustCheck::OptionalFieldAdded,
        RustCheck::DefaultRemoved,
        RustCheck::DefaultAdded,
        RustCheck::VariantRemoved,
        RustCheck::VariantRenamed,
        RustCheck::VariantPayloadChanged,
        RustCheck::VariantAdded,
        RustCheck::MethodRemoved,
        RustCheck::MethodRenamed,
        RustCheck::MethodSignatureChanged,
        RustCheck::MethodArgumentsShifted,
        RustCheck::MethodAdded,
        RustCheck::TraitMethodAdded,
        RustCheck::TraitMethodRemoved,
        RustCheck::TraitMethodRenamed,
        RustCheck::TraitMethodSignatureChanged,
        RustCheck::VersionBumpInsufficient,
    ];

    /// Id, level and summary.
    pub fn spec(self) -> (&'static str, Level, &'static str) {
        use Level::*;
        match self {
            RustCheck::ModuleRemoved => (
                "rust-module-removed",
                Error,
                "module no longer generated (its cargo feature is empty)",
            ),
            RustCheck::ModuleAdded => ("rust-module-added", Info, "module added"),
            RustCheck::TypeRemoved => ("rust-type-removed", Error, "type removed"),
            RustCheck::TypeRenamed => ("rust-type-renamed", Error, "type renamed"),
            RustCheck::TypeAdded => ("rust-type-added", Info, "type added"),
            RustCheck::TypeChanged => (
                "rust-type-changed",
                Error,
                "type changed kind, or what it wraps or names changed",
            ),
            RustCheck::FieldRemoved => ("rust-field-removed", Error, "struct field removed"),
            RustCheck::FieldRenamed => ("rust-field-renamed", Error, "struct field renamed"),
            RustCheck::FieldTypeChanged => (
                "rust-field-type-changed",
                Error,
                "struct field's type changed",
            ),
            RustCheck::FieldOptionAdded => (
                "rust-field-option-added",
                Error,
                "struct field became an Option",
            ),
            RustCheck::FieldOptionRemoved => (
                "rust-field-option-removed",
                Error,
                "struct field is no longer an Option",
            ),
            RustCheck::FieldAdded => (
                "rust-field-added",
                Error,
                "new field every struct literal must give (not an Option, or the struct has no Default)",
            ),
            RustCheck::OptionalFieldAdded => (
                "rust-optional-field-added",
                Warning,
                "new Option field: struct literals without `..Default::default()` break",
            ),
            RustCheck::DefaultRemoved => (
                "rust-default-removed",
                Warning,
                "struct no longer implements Default",
            ),
            RustCheck::DefaultAdded => {
                ("rust-default-added", Info, "struct now implements Default")
            }
            RustCheck::VariantRemoved => ("rust-variant-removed", Error, "enum variant removed"),
            RustCheck::VariantRenamed => ("rust-variant-renamed", Error, "enum variant renamed"),
            RustCheck::VariantPayloadChanged => (
                "rust-variant-payload-changed",
                Error,
                "enum variant's payload changed",
            ),
            RustCheck::VariantAdded => (
                "rust-variant-added",
                Warning,
                "enum variant added: exhaustive matches break",
            ),
            RustCheck::MethodRemoved => ("rust-method-removed", Error, "method removed"),
            RustCheck::MethodRenamed => ("rust-method-renamed", Error, "method renamed"),
            RustCheck::MethodSignatureChanged => (
                "rust-method-signature-changed",
                Error,
                "method's arguments or return type changed",
            ),
            RustCheck::MethodArgumentsShifted => (
                "rust-method-arguments-shifted",
                Error,
                "method's arguments keep their types but stand for other parameters: calls compile and send values as the wrong parameter",
            ),
            RustCheck::MethodAdded => ("rust-method-added", Info, "method added"),
            RustCheck::TraitMethodAdded => (
                "rust-trait-method-added",
                Error,
                "trait method added: every implementation breaks",
            ),
            RustCheck::TraitMethodRemoved => (
                "rust-trait-method-removed",
                Error,
                "trait method removed: implementations defining it break",
            ),
            RustCheck::TraitMethodRenamed => {
                ("rust-trait-method-renamed", Error, "trait method renamed")
            }
            RustCheck::TraitMethodSignatureChanged => (
                "rust-trait-method-signature-changed",
                Error,
                "trait method's signature changed",
            ),
            RustCheck::VersionBumpInsufficient => (
                "rust-version-bump-insufficient",
                Warning,
                "info.version (the crate's version) moves by less than the changes need",
            ),
        }
    }
}
