//! `src/support.rs` of the generated crate: the few types that make the models lossless.
//! Each keeps the text it was given so that serializing writes back exactly what arrived:
//! a date-time keeps its offset and precision, a decimal its digits, base64 its alphabet and
//! padding. The module is the same for every API: it is `generator/runtime/support.rs`
//! (with `union.rs`), spliced in whole.

use super::{GeneratedFile, printed_file, splice};
use crate::error::Result;

/// The support module file.
pub fn emit() -> Result<GeneratedFile> {
    Ok(printed_file(
        "src/support.rs",
        splice::module_text("support.rs"),
    ))
}
