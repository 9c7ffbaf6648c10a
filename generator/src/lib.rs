//! specgen: reads an OpenAPI document and writes Rust bindings and a JSON Schema contract.
