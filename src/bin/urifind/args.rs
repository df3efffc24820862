//! Command-line arguments as the user writes them: the clap definition
//! ([`LowArgs`]), its help text and the value enums of its options. What
//! the flags mean together is worked out in `config`.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Parser, ValueEnum};
use urifind::Grammar;

/// The examples of `--help` and of the man page: a command line (pasted
/// into a shell as it stands) and what it does.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("urifind mail.txt", "URIs in a file, one per line"),
    ("cat notes.txt | urifind", "as a filter on standard input"),
    ("urifind -n -H docs/", "walk a directory, show file and line"),
    ("urifind -g '*.txt' -g '!old/' .", "only .txt files, not under old/"),
    ("urifind -t html -T css -l site/", "HTML files with a URI, no CSS"),
    ("urifind -z -u archive.txt.gz", "gzip input, each URI once"),
    (
        "urifind --json --abbrev page.txt",
        "JSON Lines, www.* abbreviations too",
    ),
    ("urifind --scheme http,https -c .", "count http(s) URIs per file"),
    ("urifind -q notes.txt && echo yes", "only the exit status"),
    ("urifind --rejected draft.txt", "candidates the validator turned down"),
    ("urifind --mail -l ~/Maildir", "messages holding a URI (MIME decoded)"),
    (
        "urifind --mail --json inbox.mbox",
        "where each URI is: message, part, ...",
    ),
    ("urifind --check uris.txt", "validate one URI reference per line"),
    ("urifind --parse < uris.txt", "split each line into components"),
    (
        "urifind --resolve 'http://a/b/c/d;p?q' refs.txt",
        "resolve each line against a base",
    ),
];

/// What the exit status means (in `--help` and the man page).
pub const EXIT_STATUS: &str = "0 if something was found (or every line is \
valid), 1 if nothing was found (or some line is invalid), 2 if an error \
occurred (2 wins over 0 and 1, except under -q, where a URI found is 0).";

/// The text after the options in `--help`: [`EXAMPLES`] in two columns
/// (a long command on a line of its own), then [`EXIT_STATUS`].
fn after_help() -> String {
    const COL: usize = 36;
    let mut s = String::from("Examples:\n");
    for (cmd, what) in EXAMPLES {
        if cmd.len() + 2 <= COL - 2 {
            s.push_str(&format!("  {cmd:<w$}{what}\n", w = COL - 2));
        } else {
            s.push_str(&format!("  {cmd}\n{:COL$}{what}\n", ""));
        }
    }
    s.push_str("\nExit status: ");
    s.push_str(EXIT_STATUS);
    s
}

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

/// What to print when the hyphen rule applied at a line break: the
/// library's choice.
pub use urifind::Hyphen;

/// `--hyphen`'s values, each with its help.
fn hyphen_values() -> impl clap::builder::TypedValueParser<Value = Hyphen> {
    use clap::builder::TypedValueParser as _;
    use clap::builder::{PossibleValue, PossibleValuesParser};
    PossibleValuesParser::new(Hyphen::ALL.map(|h| {
        PossibleValue::new(h.name()).help(match h {
            Hyphen::Keep => "The URI with its hyphen kept (the default)",
            Hyphen::Drop => "The form without the hyphen",
            Hyphen::Both => {
                "The kept form, then the form without the hyphen on its own \
                 line"
            }
        })
    }))
    .map(|s| s.parse::<Hyphen>().expect("one of the possible values"))
}

/// What `--unwrap` prints for a wrapped link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnwrapWhat {
    /// The target in place of the wrapper.
    Target,
    /// The wrapper, then its target.
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

/// The grammars `--grammar` offers (in help and shell completions).
const GRAMMARS: [Grammar; 3] =
    [Grammar::Rfc2396bis, Grammar::Rfc2396, Grammar::Rfc3986];

/// Reads `--grammar` with the library's own names (any case, and the
/// short aliases it accepts), and tells clap the names to offer, so that
/// completions suggest them rather than file names.
#[derive(Clone, Copy, Debug)]
struct GrammarParser;

impl TypedValueParser for GrammarParser {
    type Value = Grammar;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Grammar, clap::Error> {
        let s = value.to_string_lossy();
        s.parse().map_err(|e: urifind::grammar::ParseGrammarError| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("{e}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(GRAMMARS.iter().map(|g| PossibleValue::new(g.name()))))
    }
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
    after_help = after_help(),
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
    /// Search only files of this type in walked directories (repeatable;
    /// --type-list shows the types).
    #[arg(
        help_heading = "Input",
        short = 't',
        long = "type",
        value_name = "TYPE"
    )]
    pub types: Vec<String>,
    /// Leave out files of this type in walked directories (repeatable).
    #[arg(
        help_heading = "Input",
        short = 'T',
        long = "type-not",
        value_name = "TYPE"
    )]
    pub types_not: Vec<String>,
    /// Print the file types -t and -T know, with their globs, and exit.
    #[arg(help_heading = "Input", long = "type-list")]
    pub type_list: bool,
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
    /// In mail mode, the longest message read (K, M, G: powers of 1024;
    /// default 64M). A longer one is skipped with a note (exit status 2)
    /// and the next read.
    #[arg(
        help_heading = "Input",
        long = "max-message-size",
        value_name = "SIZE",
        value_parser = parse_size
    )]
    pub max_message_size: Option<usize>,

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
    /// Print only a count of URIs per file (files with none are left
    /// out unless --include-zero).
    #[arg(
        help_heading = "Output",
        short = 'c',
        long = "count",
        conflicts_with_all = ["files_with_matches", "files_without_match"]
    )]
    pub count: bool,
    /// With -c: also print the files where the count is 0.
    #[arg(help_heading = "Output", long = "include-zero", requires = "count")]
    pub include_zero: bool,
    /// Print only the names of files holding a URI.
    #[arg(
        help_heading = "Output",
        short = 'l',
        long = "files-with-matches",
        conflicts_with = "files_without_match"
    )]
    pub files_with_matches: bool,
    /// Print only the names of files searched whole that hold no URI.
    #[arg(help_heading = "Output", long = "files-without-match")]
    pub files_without_match: bool,
    /// Print nothing; stop at the first URI found. The exit status says
    /// whether one was found (0 then, even if an error occurred).
    #[arg(help_heading = "Output", short = 'q', long = "quiet")]
    pub quiet: bool,
    /// Say nothing about inputs that cannot be read, binary files or
    /// broken mail (the exit status still reports errors).
    #[arg(help_heading = "Output", short = 's', long = "no-messages")]
    pub no_messages: bool,
    /// Stop reading a file after NUM URIs (with -c, count at most NUM).
    #[arg(
        help_heading = "Output",
        short = 'm',
        long = "max-count",
        value_name = "NUM"
    )]
    pub max_count: Option<u64>,
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
    /// The grammar URIs are validated against.
    #[arg(
        help_heading = "Selection",
        long = "grammar",
        value_name = "G",
        default_value = "rfc2396bis",
        value_parser = GrammarParser
    )]
    pub grammar: Grammar,
    /// What to print when a URI had a hyphen at a line break.
    #[arg(
        help_heading = "Selection",
        long = "hyphen",
        value_name = "WHAT",
        default_value = "keep",
        value_parser = hyphen_values()
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

/// A size in bytes: digits and an optional `K`, `M` or `G` (powers of
/// 1024), at least one byte.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let bad = || format!("'{s}' is not a size (digits, then K, M or G)");
    let (num, shift) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: usize = num.parse().map_err(|_| bad())?;
    let n = n.checked_mul(1 << shift).ok_or_else(bad)?;
    if n == 0 {
        return Err("the size must be at least 1 byte".into());
    }
    Ok(n)
}
