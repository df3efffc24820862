//! `--generate`: the man page and the shell completions, made from the
//! clap definition in `args`. The man page is clap_mangen's sections
//! with the examples and exit status of `args` as sections of their own
//! (EXAMPLES, EXIT STATUS) instead of the help text's free-form tail.

use std::io::{self, Write};

use clap::CommandFactory;
use roff::{bold, roman, Roff};

use crate::args::{Generate, LowArgs, EXAMPLES, EXIT_STATUS};

/// Writes what `g` asks for to `out`.
///
/// # Errors
///
/// Errors writing to `out`.
pub fn generate<W: Write>(g: Generate, out: &mut W) -> io::Result<()> {
    use clap_complete::Shell;
    let mut cmd = LowArgs::command();
    let shell = match g {
        Generate::Man => return man(cmd, out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
    };
    clap_complete::generate(shell, &mut cmd, "urifind", out);
    Ok(())
}

/// The man page: clap_mangen's title, name, synopsis, description and
/// options, then EXAMPLES (each command in bold, as it is typed, its
/// purpose below), EXIT STATUS and VERSION.
fn man<W: Write>(cmd: clap::Command, out: &mut W) -> io::Result<()> {
    let man = clap_mangen::Man::new(cmd);
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    let mut r = Roff::new();
    r.control("SH", ["EXAMPLES"]);
    for (cmd, what) in EXAMPLES {
        r.control("TP", []).text([bold(*cmd)]).text([roman(*what)]);
    }
    r.control("SH", ["EXIT STATUS"]).text([roman(EXIT_STATUS)]);
    r.to_writer(out)?;
    man.render_version_section(out)
}
