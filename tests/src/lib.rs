//! Cross-crate test helpers: where the workspace, the spec and `../shared` live.
