//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod grammar;
mod iri;
mod schemes;
mod stream_prop;
mod uri;
