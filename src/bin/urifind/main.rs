//! The urifind command: finds URIs in files, directories and standard
//! input, and validates, parses or resolves URI references line by line.
//!
//! The search mode's data flow, one room per step: `args` (the command
//! line as written) → `config` (what it means, checked once) → `walk`
//! (the inputs, in order) → `input` (open, detect, decompress) →
//! `search` (the library over one input) → `printer` (every byte of
//! output and every message); `schedule` decides which thread searches
//! which input and when its output is printed; `mapped` maps large
//! files into memory, and `parts` searches one of them on several
//! threads. `check` runs the line modes, `json` is the JSON
//! writer both share, `generate` writes the man page and completions.
//!
//! Exit status is grep's: 0 found (or all valid), 1 nothing found (or
//! something invalid), 2 error; under `-q` a URI found is 0 even after
//! an error, as in grep and ripgrep.

mod args;
mod check;
mod config;
mod generate;
mod input;
mod json;
#[cfg(unix)]
mod mapped;
#[cfg(unix)]
mod parts;
mod printer;
mod schedule;
mod search;
mod walk;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::args::LowArgs;
use crate::config::{Config, Env, Mode, Report};
use crate::printer::Printer;
use crate::walk::{Walk, WalkOptions};

/// How the run went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Status {
    /// Something was found (printed or counted).
    pub found: bool,
    /// An error was reported.
    pub error: bool,
}

fn main() -> ExitCode {
    let low = match LowArgs::try_parse() {
        Ok(low) => low,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors
            // to stderr with status 2. A closed stdout is not an error.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let cfg = match Config::from_args(low, &Env::detect()) {
        Ok(cfg) => cfg,
        Err(msg) => {
            eprintln!("urifind: {msg}");
            return ExitCode::from(2);
        }
    };
    let quiet = cfg.report == Report::Quiet;
    match run(&cfg) {
        Ok(st) => {
            let skipped =
                search::SKIPPED.load(std::sync::atomic::Ordering::Relaxed);
            ExitCode::from(if (st.error || skipped) && !(quiet && st.found) {
                2
            } else if st.found {
                0
            } else {
                1
            })
        }
        // `urifind ... | head -1`: the reader is gone, which is how a
        // filter is meant to end; quietly, like ripgrep.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(0),
        Err(e) => {
            eprintln!(
                "urifind: error writing output: {}",
                printer::io_reason(&e)
            );
            ExitCode::from(2)
        }
    }
}

/// Runs the mode of `cfg`; only output errors come back as `Err`.
fn run(cfg: &Config) -> io::Result<Status> {
    let walk = || Walk::new(&cfg.paths, WalkOptions::of(cfg));
    match &cfg.mode {
        Mode::Generate(g) => {
            let mut out = io::stdout().lock();
            generate::generate(*g, &mut out)?;
            out.flush()?;
            Ok(Status { found: true, error: false })
        }
        Mode::TypeList => {
            let mut out = io::stdout().lock();
            out.write_all(config::type_list().as_bytes())?;
            out.flush()?;
            Ok(Status { found: true, error: false })
        }
        Mode::Find => {
            // The printer gathers output in its own buffer; workers print
            // from their threads, behind a mutex.
            let finder = search::finder(cfg);
            let mut printer = Printer::new(io::stdout(), cfg);
            schedule::search_all(walk(), cfg, &finder, &mut printer)
        }
        Mode::Check | Mode::Parse | Mode::Resolve(_) => {
            if let Mode::Resolve(base) = &cfg.mode {
                if let Err(m) = check::check_base(cfg, base) {
                    eprintln!("urifind: {m}");
                    return Ok(Status { found: false, error: true });
                }
            }
            let mut out =
                io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
            check::run(cfg, walk(), &mut out)
        }
    }
}
