//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod grammar;
mod schemes;
mod stream_prop;
mod uri;
