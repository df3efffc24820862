//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod grammar;
mod mail;
mod stream_prop;
mod uri;
