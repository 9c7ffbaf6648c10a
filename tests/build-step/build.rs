//! Generates the bindings for spec/openapi.yaml into `$OUT_DIR/api.rs` with specgen's
//! build-step API, as a user's build script would.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    specgen::Builder::new("../../spec/openapi.yaml")
        .type_override("Amount.value", "rust_decimal::Decimal")
        .generate()?;
    Ok(())
}
