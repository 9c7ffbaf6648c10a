//! Generates the bindings for spec/openapi.yaml into `$OUT_DIR` with specgen's build-step API,
//! as a user's build script would: the models with every side, server, client and webhooks.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    specgen::Builder::new("../../spec/openapi.yaml")
        .server(true)
        .client(true)
        .webhooks(true)
        .type_override("Amount.value", "rust_decimal::Decimal")
        .generate()?;
    Ok(())
}
