//! Integration tests: one binary, every file a module.
mod cases;
mod cli;
mod cli_mail;
mod grammar;
mod iri;
mod link;
mod mail;
mod mail_prop;
mod plain_prop;
mod schemes;
mod split;
mod stream_prop;
mod uri;
