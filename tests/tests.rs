//! Integration tests: one binary, every file a module.
mod cases;
mod grammar;
mod uri;
