//! The settings the command runs on ([`Config`]), made from the parsed
//! arguments ([`LowArgs`]) in one place: defaults that depend on the
//! terminal or the inputs, conflicts between flags and value checks.
//!
//! Everything that can be wrong with an argument is found here, before any
//! file is opened, so a bad argument always exits with status 2 and a
//! message, and the rest of the program never re-checks a flag.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;

use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};
use urifind::{BuildError, Finder, FinderBuilder, Grammar};

use crate::args::{
    ColorWhen, Generate, Hyphen, LowArgs, MailWhen, UnwrapWhat,
};

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
    /// `--type-list`: the file types of `-t` and `-T`.
    TypeList,
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
    /// `--files-without-match`: the names of files with none.
    FilesWithoutMatch,
    /// `-q`: nothing; the search stops at the first URI.
    Quiet,
}

impl Report {
    /// Whether one URI settles a file's output, so its search can stop
    /// there.
    pub fn first_only(self) -> bool {
        matches!(
            self,
            Report::FilesWithMatches
                | Report::FilesWithoutMatch
                | Report::Quiet
        )
    }
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
    /// When inputs are read as mail.
    pub mail: MailWhen,
    /// Report HTML markup resources in mail mode.
    pub html_resources: bool,
    /// The longest message read in mail mode.
    pub max_message_size: usize,
    /// Follow symlinks found in walks.
    pub follow: bool,
    /// `-g` globs selecting the files of walked directories.
    pub globs: Override,
    /// Honour `.gitignore`, `.ignore` and `.git/info/exclude` files.
    pub respect_ignore: bool,
    /// The `-t`/`-T` file types selecting the files of walked
    /// directories.
    pub types: Types,
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
    /// `--include-zero`: `-c` prints counts of 0 too.
    pub include_zero: bool,
    /// `-m`: the most URIs reported per input.
    pub max_count: Option<u64>,
    /// `-s`: no messages about inputs on stderr.
    pub no_messages: bool,
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
    /// Find IRIs too.
    pub iri: bool,
    /// Print the URI form of IRIs.
    pub to_uri: bool,
    /// Print wrapped links' targets and embedded links (plain output).
    pub unwrap: Option<UnwrapWhat>,
    /// Accept hosts a browser reads.
    pub browser_hosts: bool,
    /// The link analysis for these options (`--unwrap`, JSON).
    pub link: urifind::link::Analyzer,
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

/// The library's refusal of the finder's options, in the words of the
/// flags.
fn finder_error(e: BuildError) -> String {
    match e {
        BuildError::ZeroMaxUriLen => "--max-uri-len must be at least 1".into(),
        BuildError::IriWithRfc2396 => "--iri cannot be used with --grammar \
                                       rfc2396, which predates IRIs (use \
                                       rfc2396bis or rfc3986)"
            .into(),
        BuildError::SchemesAndAnyScheme => {
            "--scheme and --any-scheme cannot be used together".into()
        }
        BuildError::InvalidScheme(s) => format!(
            "invalid scheme '{s}' in --scheme (a letter, then letters, \
             digits, '+', '-' or '.')"
        ),
        e => format!("{e}"),
    }
}

impl Config {
    /// Checks the parsed arguments and settles every default.
    ///
    /// # Errors
    ///
    /// A message for the user when arguments contradict each other or a
    /// value is out of range.
    pub fn from_args(a: LowArgs, env: &Env) -> Result<Config, String> {
        let grammar = a.grammar;
        let mode = if let Some(g) = a.generate {
            Mode::Generate(g)
        } else if a.type_list {
            Mode::TypeList
        } else if a.check {
            Mode::Check
        } else if a.parse {
            Mode::Parse
        } else if let Some(base) = a.resolve {
            Mode::Resolve(os_to_bytes(base))
        } else {
            Mode::Find
        };
        let line_mode =
            matches!(mode, Mode::Check | Mode::Parse | Mode::Resolve(_));
        if !line_mode && (a.absolute || a.scheme_rules) {
            return Err(
                "--absolute and --scheme-rules need --check, --parse \
                        or --resolve"
                    .into(),
            );
        }
        if line_mode {
            let find_only = [
                (a.count, "--count"),
                (a.files_with_matches, "--files-with-matches"),
                (a.unique, "--unique"),
                (a.rejected, "--rejected"),
                (a.abbrev, "--abbrev"),
                (a.iri, "--iri"),
                (a.any_scheme, "--any-scheme"),
                (!a.scheme.is_empty(), "--scheme"),
                (a.byte_offset, "--byte-offset"),
                (a.search_zip, "--search-zip"),
                (a.mail == MailWhen::Always, "--mail"),
                (a.html_resources, "--html-resources"),
                (a.files_without_match, "--files-without-match"),
                (a.quiet, "--quiet"),
                (a.max_count.is_some(), "--max-count"),
                (a.max_message_size.is_some(), "--max-message-size"),
                (a.unwrap.is_some(), "--unwrap"),
                (a.browser_hosts, "--browser-hosts"),
            ];
            if let Some((_, name)) = find_only.iter().find(|(on, _)| *on) {
                return Err(format!(
                    "{name} cannot be used with --check, --parse or --resolve"
                ));
            }
        }
        if a.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        // The library reads a zero bound as "nothing is delimited"; the
        // command has no use for that.
        if a.bracket_bound == Some(0) {
            return Err("--bracket-bound must be at least 1".into());
        }
        let names: Vec<&str> = a.scheme.iter().map(|s| s.trim()).collect();
        let schemes = (!names.is_empty())
            .then(|| names.iter().map(|s| s.to_string()).collect());
        let globs = globs(&a.glob)?;
        let types = types(&a.types, &a.types_not)?;
        let mut paths = a.paths;
        let walks_many = paths.len() > 1
            || paths.iter().any(|p| p.as_os_str() != "-" && p.is_dir());
        if paths.is_empty() {
            paths.push(PathBuf::from("-"));
        }
        let with_filename =
            if a.no_filename { false } else { a.with_filename || walks_many };
        let report = if a.quiet {
            Report::Quiet
        } else if a.count {
            Report::Count
        } else if a.files_with_matches {
            Report::FilesWithMatches
        } else if a.files_without_match {
            Report::FilesWithoutMatch
        } else {
            Report::Each
        };
        let color = match a.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                env.stdout_tty && !env.no_color && !env.term_dumb && !a.json
            }
        } && !a.json;
        let mut cfg = Config {
            mode,
            paths,
            threads: a.threads.unwrap_or(env.cores.max(1)),
            text: a.text,
            // Mail archives come compressed: --mail reads gzip as well.
            gzip: a.search_zip || a.mail == MailWhen::Always,
            mail: a.mail,
            html_resources: a.html_resources,
            max_message_size: a
                .max_message_size
                .unwrap_or(urifind::mail::DEFAULT_MAX_MESSAGE),
            follow: a.follow,
            globs,
            respect_ignore: a.respect_ignore,
            types,
            with_filename,
            line_number: a.line_number,
            column: a.column,
            byte_offset: a.byte_offset,
            report,
            include_zero: a.include_zero,
            max_count: a.max_count,
            no_messages: a.no_messages,
            unique: a.unique,
            null: a.null,
            color,
            json: a.json,
            rejected: a.rejected,
            line_buffered: a.line_buffered || env.stdout_tty,
            schemes,
            any_scheme: a.any_scheme,
            abbrev: a.abbrev,
            iri: a.iri,
            to_uri: a.to_uri,
            unwrap: a.unwrap,
            browser_hosts: a.browser_hosts,
            link: urifind::link::Analyzer::new()
                .grammar(grammar)
                .iri(a.iri)
                .browser_hosts(a.browser_hosts),
            grammar,
            hyphen: a.hyphen,
            normalize: a.normalize,
            max_uri_len: a.max_uri_len,
            bracket_bound: a.bracket_bound,
            compat: a.compat,
            absolute: a.absolute,
            scheme_rules: a.scheme_rules,
        };
        // The finder's options are the library's to check (scheme names
        // as given, so that a refusal quotes them so).
        cfg.finder_builder().build().map_err(finder_error)?;
        for s in cfg.schemes.iter_mut().flatten() {
            s.make_ascii_lowercase();
        }
        Ok(cfg)
    }

    /// The library's finder for the selection options.
    pub fn finder_builder(&self) -> FinderBuilder {
        let mut b = Finder::builder();
        b.grammar(self.grammar)
            .any_scheme(self.any_scheme)
            .abbreviated(self.abbrev)
            .iri(self.iri)
            .browser_hosts(self.browser_hosts)
            .rejected(self.rejected);
        if let Some(s) = &self.schemes {
            b.schemes(s);
        }
        if let Some(n) = self.max_uri_len {
            b.max_uri_len(n);
        }
        if let Some(n) = self.bracket_bound {
            b.bracket_bound(n);
        }
        b
    }
}

/// The `-g` globs as one matcher, relative to the current directory
/// (like ripgrep's).
fn globs(list: &[String]) -> Result<Override, String> {
    if list.is_empty() {
        return Ok(Override::empty());
    }
    let root = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut b = OverrideBuilder::new(root);
    for g in list {
        b.add(g).map_err(|e| format!("-g {g}: {e}"))?;
    }
    b.build().map_err(|e| format!("-g: {e}"))
}

/// The `-t` and `-T` file types (the `ignore` crate's list, as
/// ripgrep's) as one matcher; an unknown name is an error.
fn types(select: &[String], negate: &[String]) -> Result<Types, String> {
    let mut b = TypesBuilder::new();
    b.add_defaults();
    for t in select {
        b.select(t);
    }
    for t in negate {
        b.negate(t);
    }
    b.build().map_err(|e| format!("{e} (--type-list shows the types)"))
}

/// The file types `-t` and `-T` know, with their globs, one per line as
/// `NAME: GLOB, GLOB`, sorted by name.
pub fn type_list() -> String {
    let mut b = TypesBuilder::new();
    b.add_defaults();
    let mut out = String::new();
    for def in b.definitions() {
        out.push_str(def.name());
        out.push_str(": ");
        out.push_str(&def.globs().join(", "));
        out.push('\n');
    }
    out
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
    use clap::Parser;

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
        Config::from_args(low, env)
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
        assert_eq!(
            cfg(&["--grammar", "3986"]).unwrap().grammar,
            Grammar::Rfc3986
        );
        assert!(cfg(&["--grammar", "rfc1738"])
            .unwrap_err()
            .contains("unknown grammar"));
    }

    #[test]
    fn iri() {
        let c = cfg(&["--iri", "--to-uri"]).unwrap();
        assert!(c.iri && c.to_uri);
        assert!(!cfg(&[]).unwrap().iri);
        let e = cfg(&["--iri", "--grammar", "rfc2396"]).unwrap_err();
        assert!(e.contains("rfc2396"), "{e}");
        assert!(cfg(&["--iri", "--grammar", "rfc3986"]).is_ok());
        assert!(cfg(&["--to-uri"]).is_err(), "--to-uri needs --iri");
        assert!(cfg(&["--iri", "--check"]).is_err());
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
    fn globs_and_ignore_files() {
        let c = cfg(&[]).unwrap();
        assert!(c.globs.is_empty() && !c.respect_ignore);
        let c =
            cfg(&["-g", "*.txt", "--glob=!old/", "--respect-ignore"]).unwrap();
        assert_eq!(c.globs.num_whitelists(), 1);
        assert_eq!(c.globs.num_ignores(), 1);
        assert!(c.respect_ignore);
        assert!(cfg(&["-g", "a[b"]).unwrap_err().contains("a[b"));
    }

    #[test]
    fn grep_flags() {
        let c = cfg(&[]).unwrap();
        assert!(!c.include_zero && !c.no_messages && c.max_count.is_none());
        assert_eq!(cfg(&["-q", "-c"]).unwrap().report, Report::Quiet);
        assert_eq!(
            cfg(&["--files-without-match"]).unwrap().report,
            Report::FilesWithoutMatch
        );
        assert!(cfg(&["-l", "--files-without-match"]).is_err());
        assert!(cfg(&["-c", "--files-without-match"]).is_err());
        assert!(cfg(&["-c", "--include-zero"]).unwrap().include_zero);
        assert!(cfg(&["--include-zero"]).is_err(), "--include-zero needs -c");
        assert_eq!(cfg(&["-m", "3"]).unwrap().max_count, Some(3));
        assert!(cfg(&["-m", "-1"]).is_err());
        assert!(cfg(&["-s"]).unwrap().no_messages);
        assert!(cfg(&["--check", "-q"]).unwrap_err().contains("--quiet"));
        assert!(cfg(&["--check", "-m", "1"]).is_err());
        assert_eq!(cfg(&["--type-list"]).unwrap().mode, Mode::TypeList);
    }

    #[test]
    fn file_types() {
        let c = cfg(&["-t", "html", "-T", "css"]).unwrap();
        assert!(c.types.matched("a.html", false).is_whitelist());
        assert!(c.types.matched("a.css", false).is_ignore());
        let e = cfg(&["-t", "nosuchtype"]).unwrap_err();
        assert!(e.contains("nosuchtype") && e.contains("--type-list"), "{e}");
        assert!(type_list().lines().any(|l| l.starts_with("html: ")));
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
}
