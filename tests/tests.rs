//! Integration tests: one binary, every file a module.
mod stream_prop;
mod uri;
