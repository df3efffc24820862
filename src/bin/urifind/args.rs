//! Command-line arguments as the user writes them: the clap definition
//! ([`LowArgs`]), its help text and the value enums of its options. What
//! the flags mean together is worked out in `config`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

const AFTER_HELP: &str = "\
Examples:
  urifind mail.txt                  URIs in a file, one per line
  cat notes.txt | urifind           as a filter on standard input
  urifind -n -H docs/               walk a directory, show file and line
  urifind -g '*.txt' -g '!old/' .   only .txt files, not under old/
  urifind -z -u archive.txt.gz      gzip input, each URI once
  urifind --json --abbrev page.txt  JSON Lines, www.* abbreviations too
  urifind --scheme http,https -c .  count http(s) URIs per file
  urifind --rejected draft.txt      candidates the validator turned down
  urifind --mail -l ~/Maildir       messages holding a URI (MIME decoded)
  urifind --mail --json inbox.mbox  where each URI is: message, part, ...
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

/// When to read inputs as mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MailWhen {
    /// An input that starts like mail (an mbox `From ` line, or a header
    /// block with From: and Date:, Message-ID:, MIME-Version:,
    /// Received: or Newsgroups:).
    Auto,
    /// Every input is a message or an mbox.
    Always,
    /// Never: raw bytes.
    Never,
}

/// What `--unwrap` prints for a wrapped link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnwrapWhat {
    /// The target in place of the wrapper.
    Target,
    /// The wrapper, then its target.
    Both,
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
    /// Select the files of walked directories by glob (repeatable,
    /// gitignore syntax): GLOB includes, !GLOB excludes, the last glob
    /// that matches wins, and once a glob includes, files matching none
    /// are left out. Excluded directories are not entered; paths named on
    /// the command line are always searched.
    #[arg(
        help_heading = "Input",
        short = 'g',
        long = "glob",
        value_name = "GLOB"
    )]
    pub glob: Vec<String>,
    /// Leave out what .gitignore, .ignore and .git/info/exclude files say
    /// to ignore, in walked directories and their parents (by default
    /// every file is searched, hidden ones too).
    #[arg(help_heading = "Input", long = "respect-ignore")]
    pub respect_ignore: bool,
    /// Read inputs as mail and news the way a mail reader shows them
    /// (mbox split, MIME parts decoded, HTML parsed); offsets still point
    /// into the raw file. --mail alone is --mail=always.
    #[arg(
        help_heading = "Input",
        long = "mail",
        value_name = "WHEN",
        num_args = 0..=1,
        require_equals = true,
        default_value = "auto",
        default_missing_value = "always"
    )]
    pub mail: MailWhen,
    /// In mail mode, also report the markup resources of HTML parts (img
    /// src, link href, xmlns, the DOCTYPE, CSS url(), cid: links).
    #[arg(help_heading = "Input", long = "html-resources")]
    pub html_resources: bool,

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
    /// Print where each link leads: a wrapped link (Safe Links, URL
    /// Defense, redirectors) as its target, or with =both the wrapper and
    /// then its target; links embedded in a query on lines of their own
    /// after the URI holding them. --unwrap alone is --unwrap=target.
    /// (JSON always carries these fields.)
    #[arg(
        help_heading = "Output",
        long = "unwrap",
        value_name = "WHAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "target"
    )]
    pub unwrap: Option<UnwrapWhat>,
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
    /// Also find IRIs (RFC 3987): addresses with non-ASCII characters,
    /// printed as written. Not with --grammar rfc2396.
    #[arg(help_heading = "Selection", long = "iri")]
    pub iri: bool,
    /// Also report URIs whose only fault is a host that a browser reads
    /// as an IPv4 address or a domain (http://0x7f.1/,
    /// http://%77%77%77.example.com/), as written; JSON adds host_as_read.
    #[arg(help_heading = "Selection", long = "browser-hosts")]
    pub browser_hosts: bool,
    /// With --iri: print each IRI's URI form (host in IDNA ASCII, other
    /// non-ASCII characters percent-encoded as UTF-8) instead.
    #[arg(help_heading = "Selection", long = "to-uri", requires = "iri")]
    pub to_uri: bool,
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
