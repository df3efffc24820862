//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod stream_prop;
mod uri;
