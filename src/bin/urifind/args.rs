//! Command-line arguments: the clap definition as written by the user
//! ("low" args, [`LowArgs`]) and the validated settings the rest of the
//! command runs on ("high" args, [`Config`]).
//!
//! Everything that can be wrong with an argument is found here, before any
//! file is opened, so a bad argument always exits with status 2 and a
//! message, and the rest of the program never re-checks a flag.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use urifind::grammar::ParseGrammarError;
use urifind::Grammar;

const AFTER_HELP: &str = "\
Examples:
  urifind mail.txt                  URIs in a file, one per line
  cat notes.txt | urifind           as a filter on standard input
  urifind -n -H docs/               walk a directory, show file and line
  urifind -z -u archive.txt.gz      gzip input, each URI once
  urifind --json --abbrev page.txt  JSON Lines, www.* abbreviations too
  urifind --scheme http,https -c .  count http(s) URIs per file
  urifind --rejected draft.txt      candidates the validator turned down
  urifind --check uris.txt          validate one URI reference per line
  urifind --parse < uris.txt        split each line into components
  urifind --resolve http://a/b/c/d;p?q refs.txt
                                    resolve each line against a base

Exit status: 0 if something was found (or every line is valid), 1 if \
nothing was found (or some line is invalid), 2 if an error occurred \
(2 wins over 0 and 1).";

/// When to color the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Color when stdout is a terminal, NO_COLOR is unset and TERM is not
    /// `dumb`.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

/// What to print when the hyphen rule applied at a line break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Hyphen {
    /// The URI with its hyphen kept (the default).
    Keep,
    /// The form without the hyphen.
    Drop,
    /// The kept form, then the form without the hyphen on its own line.
    Both,
}

/// What `--generate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generate {
    /// A man page (roff).
    Man,
    /// Bash completions.
    CompleteBash,
    /// Zsh completions.
    CompleteZsh,
    /// Fish completions.
    CompleteFish,
}

/// The arguments as clap parses them.
#[derive(Debug, Parser)]
#[command(
    name = "urifind",
    version,
    about = "Find URIs in plain text (mail, news, RFC-style documents), \
             strictly validated.",
    long_about = "Find URIs in plain text the way Appendix E of \
                  draft-fielding-uri-rfc2396bis-00 recommends (angle \
                  brackets, quotes, bare URIs, rejoined line breaks) and \
                  print each one, validated against the URI grammar. With \
                  no PATH, or PATH '-', standard input is read as a filter.",
    after_help = AFTER_HELP,
    max_term_width = 100
)]
pub struct LowArgs {
    /// Files or directories to search ('-' is standard input).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    // ---- input ----
    /// Search N files in parallel (default: number of cores).
    #[arg(
        help_heading = "Input",
        short = 'j',
        long = "threads",
        value_name = "N"
    )]
    pub threads: Option<usize>,
    /// Search binary files as text (no NUL check; standard input is always
    /// text)
    #[arg(help_heading = "Input", short = 'a', long = "text")]
    pub text: bool,
    /// Decompress gzip input (files starting with the gzip magic bytes).
    #[arg(
        help_heading = "Input",
        short = 'z',
        long = "search-zip",
        visible_alias = "gzip"
    )]
    pub search_zip: bool,
    /// Follow symbolic links found while walking directories (loops are
    /// detected and reported).
    #[arg(help_heading = "Input", short = 'L', long = "follow")]
    pub follow: bool,

    // ---- output ----
    /// Print the file name with each URI (default with several files or a
    /// directory).
    #[arg(
        help_heading = "Output",
        short = 'H',
        long = "with-filename",
        overrides_with = "no_filename"
    )]
    pub with_filename: bool,
    /// Never print file names.
    #[arg(
        help_heading = "Output",
        long = "no-filename",
        overrides_with = "with_filename"
    )]
    pub no_filename: bool,
    /// Print the 1-based line number where each match starts (its
    /// opening delimiter, if any).
    #[arg(help_heading = "Output", short = 'n', long = "line-number")]
    pub line_number: bool,
    /// Print the 1-based byte column where each match starts.
    #[arg(help_heading = "Output", long = "column")]
    pub column: bool,
    /// Print the 0-based byte offset of each URI's first byte (after any
    /// opening delimiter).
    #[arg(help_heading = "Output", short = 'b', long = "byte-offset")]
    pub byte_offset: bool,
    /// Print only a count of URIs per file.
    #[arg(
        help_heading = "Output",
        short = 'c',
        long = "count",
        conflicts_with = "files_with_matches"
    )]
    pub count: bool,
    /// Print only the names of files holding a URI.
    #[arg(help_heading = "Output", short = 'l', long = "files-with-matches")]
    pub files_with_matches: bool,
    /// Print each URI only once (in order of first occurrence; per file
    /// when file names are printed). With --normalize, by normal form.
    #[arg(help_heading = "Output", short = 'u', long = "unique")]
    pub unique: bool,
    /// Follow file names with a NUL byte instead of ':' or a newline.
    #[arg(help_heading = "Output", short = '0', long = "null")]
    pub null: bool,
    /// When to use color.
    #[arg(
        help_heading = "Output",
        long = "color",
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: ColorWhen,
    /// JSON Lines output: one object per URI (or per line with --check,
    /// --parse, --resolve).
    #[arg(help_heading = "Output", long = "json")]
    pub json: bool,
    /// Show the candidates the validator rejected (with the offset and
    /// reason of the fault) instead of the URIs found.
    #[arg(help_heading = "Output", long = "rejected")]
    pub rejected: bool,
    /// Flush output after every line (default only on a terminal).
    #[arg(help_heading = "Output", long = "line-buffered")]
    pub line_buffered: bool,

    // ---- selection ----
    /// Accept only these schemes (comma-separated, repeatable).
    #[arg(
        help_heading = "Selection",
        long = "scheme",
        value_name = "LIST",
        value_delimiter = ','
    )]
    pub scheme: Vec<String>,
    /// Accept every syntactically valid scheme in every context.
    #[arg(help_heading = "Selection", long = "any-scheme")]
    pub any_scheme: bool,
    /// Also find abbreviated URIs (www.example.org/x, ftp.example.org).
    #[arg(help_heading = "Selection", long = "abbrev")]
    pub abbrev: bool,
    /// The grammar: rfc2396bis (default), rfc2396 or rfc3986.
    #[arg(
        help_heading = "Selection",
        long = "grammar",
        value_name = "G",
        default_value = "rfc2396bis"
    )]
    pub grammar: String,
    /// What to print when a URI had a hyphen at a line break.
    #[arg(
        help_heading = "Selection",
        long = "hyphen",
        value_name = "WHAT",
        default_value = "keep"
    )]
    pub hyphen: Hyphen,
    /// Print URIs in normal form (RFC section 6).
    #[arg(help_heading = "Selection", long = "normalize")]
    pub normalize: bool,
    /// Longest URI in bytes; longer candidates are rejected.
    #[arg(help_heading = "Selection", long = "max-uri-len", value_name = "N")]
    pub max_uri_len: Option<usize>,
    /// Bytes searched between '<' (or '"') and its closing partner.
    #[arg(
        help_heading = "Selection",
        long = "bracket-bound",
        value_name = "N"
    )]
    pub bracket_bound: Option<usize>,

    // ---- line modes ----
    /// Validate each input line as one URI reference; report invalid
    /// lines as PATH:LINE:COL: MESSAGE.
    #[arg(help_heading = "Line modes", long = "check", conflicts_with_all = ["parse", "resolve"])]
    pub check: bool,
    /// Print each input line's components as JSON.
    #[arg(
        help_heading = "Line modes",
        long = "parse",
        conflicts_with = "resolve"
    )]
    pub parse: bool,
    /// Resolve each input line against BASE (RFC section 5.2).
    #[arg(help_heading = "Line modes", long = "resolve", value_name = "BASE")]
    pub resolve: Option<OsString>,
    /// With --resolve: the backwards-compatible reading of 'http:g'.
    #[arg(help_heading = "Line modes", long = "compat", requires = "resolve")]
    pub compat: bool,
    /// With --check/--parse: accept only absolute URIs (with optional
    /// fragment).
    #[arg(help_heading = "Line modes", long = "absolute")]
    pub absolute: bool,
    /// With --check/--parse: also apply the rules of IP-based schemes
    /// (http, ftp, ...).
    #[arg(help_heading = "Line modes", long = "scheme-rules")]
    pub scheme_rules: bool,

    /// Print a man page or shell completions and exit.
    #[arg(help_heading = "Other", long = "generate", value_name = "KIND")]
    pub generate: Option<Generate>,
}

/// Which job the command does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find URIs in text (the default).
    Find,
    /// `--check`: validate one reference per line.
    Check,
    /// `--parse`: components of one reference per line.
    Parse,
    /// `--resolve BASE`: resolve one reference per line.
    Resolve(Vec<u8>),
    /// `--generate KIND`.
    Generate(Generate),
}

/// What to print for each file or URI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// Every URI (or rejected candidate).
    Each,
    /// `-c`: a count per file.
    Count,
    /// `-l`: the names of files with a URI.
    FilesWithMatches,
}

/// The validated settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The job.
    pub mode: Mode,
    /// Inputs; `-` is standard input. Never empty.
    pub paths: Vec<PathBuf>,
    /// Worker threads for files (at least 1).
    pub threads: usize,
    /// Search binary files as text.
    pub text: bool,
    /// Decompress gzip input.
    pub gzip: bool,
    /// Follow symlinks found in walks.
    pub follow: bool,
    /// Print file names.
    pub with_filename: bool,
    /// Print line numbers.
    pub line_number: bool,
    /// Print columns.
    pub column: bool,
    /// Print byte offsets.
    pub byte_offset: bool,
    /// What to print.
    pub report: Report,
    /// Print each URI once.
    pub unique: bool,
    /// NUL after file names.
    pub null: bool,
    /// Color escapes in the output.
    pub color: bool,
    /// JSON Lines output.
    pub json: bool,
    /// Show rejected candidates instead of URIs.
    pub rejected: bool,
    /// Flush after each line.
    pub line_buffered: bool,
    /// Accepted schemes (lower case), if restricted.
    pub schemes: Option<Vec<String>>,
    /// Accept any scheme.
    pub any_scheme: bool,
    /// Find abbreviated URIs.
    pub abbrev: bool,
    /// Grammar for validation.
    pub grammar: Grammar,
    /// Hyphen handling in plain output.
    pub hyphen: Hyphen,
    /// Print normal forms.
    pub normalize: bool,
    /// Longest URI.
    pub max_uri_len: Option<usize>,
    /// Bracket search bound.
    pub bracket_bound: Option<usize>,
    /// `--compat` reading of `http:g`.
    pub compat: bool,
    /// `--absolute`.
    pub absolute: bool,
    /// `--scheme-rules`.
    pub scheme_rules: bool,
}

/// Facts about the environment that decide defaults (passed in so that
/// tests do not depend on the terminal they run in).
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// Is stdout a terminal?
    pub stdout_tty: bool,
    /// Is `NO_COLOR` set to a non-empty value?
    pub no_color: bool,
    /// Is `TERM` equal to `dumb`?
    pub term_dumb: bool,
    /// Number of cores.
    pub cores: usize,
}

impl Env {
    /// Reads the real environment.
    pub fn detect() -> Env {
        Env {
            stdout_tty: std::io::stdout().is_terminal(),
            no_color: std::env::var_os("NO_COLOR")
                .is_some_and(|v| !v.is_empty()),
            term_dumb: std::env::var_os("TERM").is_some_and(|v| v == "dumb"),
            cores: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
        }
    }
}

/// Checks one scheme name given to `--scheme`: RFC 3986 `scheme =
/// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn valid_scheme(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b[1..].iter().all(|&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        })
}

impl LowArgs {
    /// Validates the arguments into a [`Config`].
    ///
    /// # Errors
    ///
    /// A message for the user when arguments contradict each other or a
    /// value is out of range.
    pub fn into_config(self, env: &Env) -> Result<Config, String> {
        let grammar: Grammar = self
            .grammar
            .parse()
            .map_err(|e: ParseGrammarError| e.to_string())?;
        let mode = if let Some(g) = self.generate {
            Mode::Generate(g)
        } else if self.check {
            Mode::Check
        } else if self.parse {
            Mode::Parse
        } else if let Some(base) = self.resolve {
            Mode::Resolve(os_to_bytes(base))
        } else {
            Mode::Find
        };
        let line_mode =
            matches!(mode, Mode::Check | Mode::Parse | Mode::Resolve(_));
        if !line_mode && (self.absolute || self.scheme_rules) {
            return Err(
                "--absolute and --scheme-rules need --check, --parse \
                        or --resolve"
                    .into(),
            );
        }
        if line_mode {
            let find_only = [
                (self.count, "--count"),
                (self.files_with_matches, "--files-with-matches"),
                (self.unique, "--unique"),
                (self.rejected, "--rejected"),
                (self.abbrev, "--abbrev"),
                (self.any_scheme, "--any-scheme"),
                (!self.scheme.is_empty(), "--scheme"),
                (self.byte_offset, "--byte-offset"),
                (self.search_zip, "--search-zip"),
            ];
            if let Some((_, name)) = find_only.iter().find(|(on, _)| *on) {
                return Err(format!(
                    "{name} cannot be used with --check, --parse or --resolve"
                ));
            }
        }
        if self.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        if self.max_uri_len == Some(0) {
            return Err("--max-uri-len must be at least 1".into());
        }
        if self.bracket_bound == Some(0) {
            return Err("--bracket-bound must be at least 1".into());
        }
        if self.any_scheme && !self.scheme.is_empty() {
            return Err(
                "--scheme and --any-scheme cannot be used together".into()
            );
        }
        let schemes = if self.scheme.is_empty() {
            None
        } else {
            let mut v = Vec::new();
            for s in &self.scheme {
                let s = s.trim();
                if !valid_scheme(s) {
                    return Err(format!(
                        "invalid scheme '{s}' in --scheme (a letter, then \
                         letters, digits, '+', '-' or '.')"
                    ));
                }
                v.push(s.to_ascii_lowercase());
            }
            Some(v)
        };
        let mut paths = self.paths;
        let walks_many = paths.len() > 1
            || paths.iter().any(|p| p.as_os_str() != "-" && p.is_dir());
        if paths.is_empty() {
            paths.push(PathBuf::from("-"));
        }
        let with_filename = if self.no_filename {
            false
        } else {
            self.with_filename || walks_many
        };
        let report = if self.count {
            Report::Count
        } else if self.files_with_matches {
            Report::FilesWithMatches
        } else {
            Report::Each
        };
        let color = match self.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                env.stdout_tty && !env.no_color && !env.term_dumb && !self.json
            }
        } && !self.json;
        Ok(Config {
            mode,
            paths,
            threads: self.threads.unwrap_or(env.cores.max(1)),
            text: self.text,
            gzip: self.search_zip,
            follow: self.follow,
            with_filename,
            line_number: self.line_number,
            column: self.column,
            byte_offset: self.byte_offset,
            report,
            unique: self.unique,
            null: self.null,
            color,
            json: self.json,
            rejected: self.rejected,
            line_buffered: self.line_buffered || env.stdout_tty,
            schemes,
            any_scheme: self.any_scheme,
            abbrev: self.abbrev,
            grammar,
            hyphen: self.hyphen,
            normalize: self.normalize,
            max_uri_len: self.max_uri_len,
            bracket_bound: self.bracket_bound,
            compat: self.compat,
            absolute: self.absolute,
            scheme_rules: self.scheme_rules,
        })
    }
}

/// The bytes of an OS string (lossless on Unix).
pub fn os_to_bytes(s: OsString) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        s.into_vec()
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned().into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env { stdout_tty: false, no_color: false, term_dumb: false, cores: 4 }
    }

    fn cfg(args: &[&str]) -> Result<Config, String> {
        cfg_env(args, &env())
    }

    fn cfg_env(args: &[&str], env: &Env) -> Result<Config, String> {
        let mut v = vec!["urifind"];
        v.extend_from_slice(args);
        let low = LowArgs::try_parse_from(v).map_err(|e| e.to_string())?;
        low.into_config(env)
    }

    #[test]
    fn defaults() {
        let c = cfg(&[]).unwrap();
        assert_eq!(c.mode, Mode::Find);
        assert_eq!(c.paths, vec![PathBuf::from("-")]);
        assert_eq!(c.threads, 4);
        assert!(!c.with_filename);
        assert!(!c.color);
        assert!(!c.line_buffered);
        assert_eq!(c.report, Report::Each);
        assert_eq!(c.grammar, Grammar::Rfc2396bis);
        assert_eq!(c.hyphen, Hyphen::Keep);
        assert!(c.schemes.is_none());
    }

    #[test]
    fn with_filename_default_for_several_files() {
        assert!(cfg(&["a", "b"]).unwrap().with_filename);
        assert!(!cfg(&["a"]).unwrap().with_filename);
        assert!(cfg(&["-H", "a"]).unwrap().with_filename);
        assert!(!cfg(&["--no-filename", "a", "b"]).unwrap().with_filename);
        // The later of -H / --no-filename wins.
        assert!(cfg(&["--no-filename", "-H", "a"]).unwrap().with_filename);
        assert!(!cfg(&["-H", "--no-filename", "a"]).unwrap().with_filename);
    }

    #[test]
    fn with_filename_default_for_a_directory() {
        let d = std::env::temp_dir();
        let c = cfg(&[d.to_str().unwrap()]).unwrap();
        assert!(c.with_filename);
    }

    #[test]
    fn threads() {
        assert_eq!(cfg(&["-j", "3"]).unwrap().threads, 3);
        assert_eq!(cfg(&["--threads=1"]).unwrap().threads, 1);
        assert!(cfg(&["-j", "0"]).unwrap_err().contains("at least 1"));
        assert!(cfg(&["-j", "x"]).is_err());
    }

    #[test]
    fn color() {
        let tty = Env { stdout_tty: true, ..env() };
        assert!(cfg_env(&[], &tty).unwrap().color);
        assert!(!cfg_env(&["--color=never"], &tty).unwrap().color);
        assert!(!cfg_env(&["--json"], &tty).unwrap().color);
        let nc = Env { no_color: true, ..tty.clone() };
        assert!(!cfg_env(&[], &nc).unwrap().color);
        let dumb = Env { term_dumb: true, ..tty.clone() };
        assert!(!cfg_env(&[], &dumb).unwrap().color);
        assert!(cfg(&["--color", "always"]).unwrap().color);
        assert!(!cfg(&["--color", "always", "--json"]).unwrap().color);
        assert!(cfg(&["--color", "sometimes"]).is_err());
    }

    #[test]
    fn line_buffered() {
        let tty = Env { stdout_tty: true, ..env() };
        assert!(cfg_env(&[], &tty).unwrap().line_buffered);
        assert!(cfg(&["--line-buffered"]).unwrap().line_buffered);
    }

    #[test]
    fn schemes() {
        let c = cfg(&["--scheme", "HTTP,https", "--scheme=ftp"]).unwrap();
        assert_eq!(c.schemes.unwrap(), ["http", "https", "ftp"]);
        assert!(cfg(&["--scheme", "1http"]).unwrap_err().contains("1http"));
        assert!(cfg(&["--scheme", ""]).is_err());
        assert!(cfg(&["--scheme", "http", "--any-scheme"]).is_err());
    }

    #[test]
    fn grammar() {
        assert_eq!(
            cfg(&["--grammar", "rfc3986"]).unwrap().grammar,
            Grammar::Rfc3986
        );
        assert_eq!(
            cfg(&["--grammar=RFC2396"]).unwrap().grammar,
            Grammar::Rfc2396
        );
        assert!(cfg(&["--grammar", "rfc1738"])
            .unwrap_err()
            .contains("unknown grammar"));
    }

    #[test]
    fn hyphen() {
        assert_eq!(cfg(&["--hyphen", "drop"]).unwrap().hyphen, Hyphen::Drop);
        assert_eq!(cfg(&["--hyphen=both"]).unwrap().hyphen, Hyphen::Both);
        assert!(cfg(&["--hyphen", "maybe"]).is_err());
    }

    #[test]
    fn report() {
        assert_eq!(cfg(&["-c"]).unwrap().report, Report::Count);
        assert_eq!(cfg(&["-l"]).unwrap().report, Report::FilesWithMatches);
        assert!(cfg(&["-c", "-l"]).is_err());
    }

    #[test]
    fn limits() {
        assert_eq!(
            cfg(&["--max-uri-len", "10"]).unwrap().max_uri_len,
            Some(10)
        );
        assert!(cfg(&["--max-uri-len", "0"]).is_err());
        assert!(cfg(&["--max-uri-len", "-1"]).is_err());
        assert!(cfg(&["--bracket-bound", "0"]).is_err());
    }

    #[test]
    fn line_modes() {
        assert_eq!(cfg(&["--check"]).unwrap().mode, Mode::Check);
        assert_eq!(cfg(&["--parse"]).unwrap().mode, Mode::Parse);
        assert_eq!(
            cfg(&["--resolve", "http://a/b"]).unwrap().mode,
            Mode::Resolve(b"http://a/b".to_vec())
        );
        assert!(cfg(&["--check", "--parse"]).is_err());
        assert!(cfg(&["--check", "--resolve", "x:"]).is_err());
        assert!(cfg(&["--check", "-c"]).unwrap_err().contains("--count"));
        assert!(cfg(&["--absolute"]).is_err());
        assert!(cfg(&["--compat"]).is_err());
        let c = cfg(&["--check", "--absolute", "--scheme-rules"]).unwrap();
        assert!(c.absolute && c.scheme_rules);
        assert!(cfg(&["--resolve", "http://a/", "--compat"]).unwrap().compat);
    }

    #[test]
    fn flags() {
        let c = cfg(&["-a", "-z", "-n", "-b", "-u", "-0", "--column", "-L"])
            .unwrap();
        assert!(c.text && c.gzip && c.line_number && c.byte_offset);
        assert!(c.unique && c.null && c.column && c.follow);
        let c =
            cfg(&["--json", "--rejected", "--abbrev", "--normalize"]).unwrap();
        assert!(c.json && c.rejected && c.abbrev && c.normalize);
        assert!(cfg(&["--any-scheme"]).unwrap().any_scheme);
        assert!(cfg(&["--bogus"]).is_err());
    }

    #[test]
    fn generate() {
        assert_eq!(
            cfg(&["--generate", "man"]).unwrap().mode,
            Mode::Generate(Generate::Man)
        );
        assert_eq!(
            cfg(&["--generate", "complete-zsh"]).unwrap().mode,
            Mode::Generate(Generate::CompleteZsh)
        );
        assert!(cfg(&["--generate", "pdf"]).is_err());
    }

    #[test]
    fn valid_scheme_names() {
        assert!(valid_scheme("a"));
        assert!(valid_scheme("svn+ssh"));
        assert!(valid_scheme("x-y.z"));
        assert!(!valid_scheme("-x"));
        assert!(!valid_scheme("a_b"));
    }
}
