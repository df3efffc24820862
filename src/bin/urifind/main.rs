//! The urifind command: finds URIs in files, directories and standard
//! input, and validates, parses or resolves URI references line by line.
//!
//! `args` turns the command line into a `Config`, `walk` lists and
//! searches the inputs, `output` prints, `check` runs the line modes and
//! `uriops` is the one door to the URI model. Exit status is grep's: 0
//! found (or all valid), 1 nothing found (or something invalid), 2 error.

mod args;
mod check;
mod output;
mod uriops;
mod walk;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use urifind::Finder;

use crate::args::{Config, Env, Generate, LowArgs, Mode};
use crate::output::Printer;
use crate::walk::Status;

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
    let cfg = match low.into_config(&Env::detect()) {
        Ok(cfg) => cfg,
        Err(msg) => {
            eprintln!("urifind: {msg}");
            return ExitCode::from(2);
        }
    };
    match run(&cfg) {
        Ok(st) => ExitCode::from(if st.error {
            2
        } else if st.found {
            0
        } else {
            1
        }),
        // `urifind ... | head -1`: the reader is gone, which is how a
        // filter is meant to end; quietly, like ripgrep.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(0),
        Err(e) => {
            eprintln!(
                "urifind: error writing output: {}",
                walk::io_reason(&e)
            );
            ExitCode::from(2)
        }
    }
}

/// Runs the mode of `cfg`; only output errors come back as `Err`.
fn run(cfg: &Config) -> io::Result<Status> {
    // Not locked: workers print from their threads (behind a mutex), and
    // the BufWriter makes the per-write lock of Stdout rare.
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout());
    match &cfg.mode {
        Mode::Generate(g) => {
            generate(*g, &mut out)?;
            out.flush()?;
            Ok(Status { found: true, error: false })
        }
        Mode::Find => {
            let entries = walk::collect(&cfg.paths, cfg.follow);
            let finder = build_finder(cfg);
            let mut printer = Printer::new(out, cfg);
            walk::search_all(&entries, cfg, &finder, &mut printer)
        }
        Mode::Check | Mode::Parse | Mode::Resolve(_) => {
            if let Mode::Resolve(base) = &cfg.mode {
                if let Err(m) = check::check_base(cfg, base) {
                    eprintln!("urifind: {m}");
                    return Ok(Status { found: false, error: true });
                }
            }
            let entries = walk::collect(&cfg.paths, cfg.follow);
            check::run(cfg, &entries, &mut out)
        }
    }
}

fn build_finder(cfg: &Config) -> Finder {
    let mut b = Finder::builder();
    b.grammar(cfg.grammar)
        .any_scheme(cfg.any_scheme)
        .abbreviated(cfg.abbrev)
        .rejected(cfg.rejected);
    if let Some(s) = &cfg.schemes {
        b.schemes(s);
    }
    if let Some(n) = cfg.max_uri_len {
        b.max_uri_len(n);
    }
    if let Some(n) = cfg.bracket_bound {
        b.bracket_bound(n);
    }
    b.build()
}

fn generate<W: Write>(g: Generate, out: &mut W) -> io::Result<()> {
    use clap_complete::Shell;
    let mut cmd = LowArgs::command();
    let shell = match g {
        Generate::Man => return clap_mangen::Man::new(cmd).render(out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
    };
    clap_complete::generate(shell, &mut cmd, "urifind", out);
    Ok(())
}
