//! Integration tests: one binary, every file a module.
mod grammar;
