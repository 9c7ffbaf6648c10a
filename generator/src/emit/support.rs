//! `src/support.rs` of the generated crate: the few types that make the models lossless.
//! Each keeps the text it was given so that serializing writes back exactly what arrived:
//! a date-time keeps its offset and precision, a decimal its digits, base64 its alphabet and
//! padding. The module is the same for every API: it is `generator/runtime/support.rs`
//! (with `union.rs`), spliced in whole.

use proc_macro2::TokenStream;

use super::{GeneratedFile, rust_file, splice};
use crate::error::Result;

/// The support module file.
pub fn emit() -> Result<GeneratedFile> {
    rust_file("src/support.rs", tokens())
}

/// The support module's contents.
pub fn tokens() -> TokenStream {
    splice::module_file("support.rs")
}
