//! Integration tests: one binary, every file a module.
mod cases;
mod stream_prop;
mod uri;
