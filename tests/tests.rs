//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod grammar;
mod iri;
mod stream_prop;
mod uri;
