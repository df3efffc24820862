//! Deterministic generator of large test corpora for benchmarks and
//! robustness runs: realistic text (prose, RFC-style documents, mail) with
//! URIs in every delimiting style, and adversarial inputs.
//!
//! This file depends on nothing but `std` and on no part of urifind, so that
//! both the benchmark (`benches/scan.rs`, through `#[path]`) and the
//! `gencorpus` example can include it. The same kind, size and seed always
//! give the same bytes, on every platform.
//!
//! Output is produced in pieces ([`Gen::next_piece`]) so that arbitrarily
//! large streams (1 GiB and more) can be written without holding them in
//! memory; [`generate`] collects exactly `size` bytes.
#![allow(dead_code)]

#[path = "words.rs"]
mod words;
use words::{HOSTS, SEGMENTS, TLDS, WORDS};

/// The realistic kinds.
pub const REALISTIC: &[&str] = &["prose", "nouri", "rfc", "mail", "dense"];

/// The adversarial kinds, each with what it repeats.
pub const ADVERSARIAL: &[(&str, &str)] = &[
    ("adv-lt", "`<` only"),
    ("adv-quote", "`\"` only"),
    ("adv-colon", "`:` only"),
    ("adv-http", "`http://` repeated, no whitespace"),
    ("adv-a-colon", "`a:` repeated"),
    ("adv-url-prefix", "`<URL:` repeated"),
    ("adv-hyphen-nl", "`-\\n` repeated"),
    ("adv-percent", "`%` only"),
    ("adv-parens", "`((((` only"),
    ("adv-quote-prefix", "`> > > ` lines"),
    ("adv-one-line", "prose with URIs and no newline at all"),
    ("adv-unclosed-lt", "one `<http://` then prose that never closes it"),
    ("adv-lt-nl", "`<` and newline alternating"),
    ("adv-crlf", "prose with URIs, CRLF line breaks everywhere"),
    ("adv-lt-http", "`<http://a.example/ ` repeated, never closed"),
    ("adv-quote-http", "`\"http://a.example/ ` repeated, never closed"),
    ("adv-long-uri", "one bare URI as long as the input"),
    ("adv-hyphen-uri", "one bare URI continued by `-\\n` forever"),
    ("adv-dangling", "`http://\\n` repeated (dangling authority)"),
    ("adv-quoted-angle", "`> > <http://a.example/x` lines, never closed"),
    ("adv-http-space", "`http:// ` repeated (nothing after `//`)"),
    ("adv-a-colon-nl", "`a:\\n` repeated"),
    ("adv-url-bare", "`URL:` repeated, no `<`"),
    ("adv-scheme-colon", "`http:` repeated"),
    ("adv-bare-http", "`http://a.example/ ` repeated: a URI every 18 bytes"),
    ("adv-www-run", "`x:www.a.b/` repeated, one run (benched with --abbrev)"),
    ("adv-emphasis", "`**__~~http://a.example/x~~__**` repeated, one run"),
    ("adv-stars", "runs of 61 `*` before `http:`, one run"),
    ("adv-entity", "`&lt;http://a.example/&gt;` repeated, no whitespace"),
    ("adv-entity-zeros", "`http://a.b/&#0000...6 `: zeros, then no reference"),
    ("adv-paren-uri", "`http://a.b/(x)` repeated, one run"),
    ("adv-closers", "`)http://a.b/]` repeated: a bracket ends every URI"),
    ("adv-dots-colon", "`....:` repeated"),
    (
        "adv-lt-break",
        "`<http://a.example/\\n  x` repeated: every URI rejoined",
    ),
    (
        "adv-quote-break",
        "`\"http://a.example/\\n  x` repeated: quotes pair across lines",
    ),
];

/// Hostile mail: each kind is one message (no mbox envelope) whose
/// shape has cost mail mode more than its size, with what it is.
pub const HOSTILE_MAIL: &[(&str, &str)] = &[
    (
        "mail-dense-text",
        "text/plain, `http://a.example/xy ` (a URI every 20 bytes)",
    ),
    (
        "mail-many-parts",
        "multipart/mixed of ~49-byte text parts, one URI each",
    ),
    (
        "mail-huge-header",
        "one header field folded forever, a URI every 20 bytes",
    ),
    (
        "mail-parts-alt",
        "mail-many-parts, `Content-Type` and `Content-type` alternating",
    ),
    (
        "mail-parts-named",
        "mail-many-parts, each part with its own `name=` parameter",
    ),
    ("mail-base64", "text/plain in base64, a URI every 19 decoded bytes"),
    ("mail-html-shown", "HTML: `<a href=URI>another URI</a><br>` repeated"),
    ("mail-qp", "quoted-printable text, escapes and soft breaks in every URI"),
    (
        "mail-nested",
        "multiparts nested one per ~2.4 KB (20,000 deep at 48 MiB)",
    ),
];

/// Every kind [`Gen::new`] accepts.
pub fn kinds() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = REALISTIC.to_vec();
    v.extend(ADVERSARIAL.iter().map(|&(k, _)| k));
    v.extend(HOSTILE_MAIL.iter().map(|&(k, _)| k));
    v
}

/// Exactly `size` bytes of `kind` from `seed`; `None` for an unknown kind.
pub fn generate(kind: &str, size: usize, seed: u64) -> Option<Vec<u8>> {
    let mut g = Gen::new(kind, seed)?;
    let mut out = Vec::with_capacity(size + 4096);
    while out.len() < size {
        g.next_piece(&mut out);
    }
    out.truncate(size);
    Some(out)
}

/// splitmix64: a small, fast, well-mixed PRNG; plenty for text.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
    /// One element of `xs`.
    pub fn pick<'a, T: ?Sized>(&mut self, xs: &[&'a T]) -> &'a T {
        xs[self.below(xs.len())]
    }
}

/// A URI of a plausible shape (mostly valid; a few with odd characters).
fn uri(r: &mut Rng) -> String {
    let mut s = String::new();
    match r.below(20) {
        0 => {
            s.push_str("mailto:");
            s.push_str(r.pick(&["fielding", "timbl", "uri-request", "jim"]));
            s.push('@');
            s.push_str(r.pick(HOSTS));
            if r.chance(1, 3) {
                s.push_str("?subject=unsubscribe");
            }
            return s;
        }
        1 => {
            s.push_str("urn:");
            s.push_str(r.pick(&[
                "ietf:rfc:2396",
                "isbn:0451450523",
                "oasis:names:specification:docbook:dtd:xml:4.1.2",
            ]));
            return s;
        }
        2 => {
            s.push_str("news:comp.infosystems.www.servers.unix");
            return s;
        }
        3 => s.push_str("ftp://"),
        4 => s.push_str("file:///usr/share/doc"),
        5..=7 => s.push_str("https://"),
        8 => s.push_str("gopher://"),
        _ => s.push_str("http://"),
    }
    if !s.starts_with("file") {
        if r.chance(1, 20) {
            s.push_str("anonymous@");
        }
        if r.chance(2, 3) {
            s.push_str(r.pick(HOSTS));
        } else {
            s.push_str(r.pick(&["www.", "ftp.", "", "lists."]));
            s.push_str(r.pick(WORDS).trim_matches('\''));
            s.retain(|c| c.is_ascii_alphanumeric() || ".-:/@".contains(c));
            s.push('.');
            s.push_str(r.pick(TLDS));
        }
        if r.chance(1, 10) {
            s.push_str(r.pick(&[":80", ":8080", ":21"]));
        }
    }
    for _ in 0..r.below(5) {
        s.push('/');
        s.push_str(r.pick(SEGMENTS));
    }
    if r.chance(1, 3) {
        s.push('/');
    }
    if r.chance(1, 6) {
        s.push_str(r.pick(&["?q=uri&lang=en", "?id=12345", "?", "?a=b;c=d"]));
    }
    if r.chance(1, 8) {
        s.push_str(r.pick(&["#WARNING", "#section-4.2", "#top", "#"]));
    }
    s
}

/// A URI with a `-` in it, split right after that hyphen: (before, after).
fn hyphen_uri(r: &mut Rng) -> (String, String) {
    let host = r.pick(&["www.example.org", "a.example", "www.ietf.org"]);
    let a = r.pick(&["long", "uri", "draft", "some", "well"]);
    let b = r.pick(&["name.html", "known/", "fielding-00.txt", "list"]);
    (format!("http://{host}/{a}-"), b.to_string())
}

/// An indentation string for a continuation line.
fn indent(r: &mut Rng) -> &'static str {
    r.pick(&["", " ", "  ", "    ", "\t", "      "])
}

/// What a scanner following docs/CONTRACT.md reports for a bare candidate: the
/// text trimmed of trailing `.` `,` `;` `:` `!` `?` `'`, and of `)` or
/// `]` without an opening partner, repeatedly.
pub fn trim_bare(s: &str) -> String {
    let mut t = s;
    loop {
        let n = |c: char| t.matches(c).count();
        match t.as_bytes().last() {
            Some(b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'') => {}
            Some(b')') if n('(') < n(')') => {}
            Some(b']') if n('[') < n(']') => {}
            _ => return t.to_string(),
        }
        t = &t[..t.len() - 1];
    }
}

/// One URI token in a random delimiting style (may contain line breaks;
/// `quote` is the mail quote prefix of the current line, for breaks).
/// Returns the token, and what the scanner must report: for a delimited
/// URI the URI itself (`bare` false), for a bare one the candidate text
/// before trimming (`bare` true: punctuation may still follow).
fn uri_token(r: &mut Rng, quote: &str) -> (String, String, bool) {
    let u = uri(r);
    let brk = |r: &mut Rng, u: &str| -> String {
        // break inside the URI, after a `/` or `.` if there is one
        let cut = u
            .char_indices()
            .skip(u.find("//").map_or(4, |i| i + 3))
            .filter(|&(_, c)| c == '/' || c == '.')
            .map(|(i, _)| i + 1)
            .nth(r.below(3))
            // never at the very end: a line starting with `>` would read
            // as a mail quote prefix
            .filter(|&c| c < u.len())
            .unwrap_or(u.len() / 2);
        format!("{}\n{}{}{}", &u[..cut], quote, indent(r), &u[cut..])
    };
    match r.below(13) {
        0..=2 => {
            let p = r.pick(&["", ".", ",", ";", ":", "!", "?", "'", "."]);
            (format!("{u}{p}"), format!("{u}{p}"), true)
        }
        3 => (format!("({u})"), format!("{u})"), true),
        4 => (format!("(see {u})."), format!("{u})."), true),
        5 => (format!("\"{u}\""), u, false),
        6 => (format!("\"{u}.\""), u, false),
        7 => (format!("<{u}>"), u, false),
        8 => (format!("<URL:{u}>"), u, false),
        9 => (format!("<{}>", brk(r, &u)), u, false),
        10 => (format!("<URL:{}>", brk(r, &u)), u, false),
        11 => {
            let (a, b) = hyphen_uri(r);
            let sp = r.pick(&["", "", " ", "  "]);
            (
                format!("{a}{sp}\n{quote}{}{b}", indent(r)),
                format!("{a}{b}"),
                true,
            )
        }
        _ => {
            // dangling `http://` at a line end, host on the next line
            let host = r.pick(&["www.ietf.org", "ftp.is.co.za", "192.0.2.1"]);
            let seg = r.pick(SEGMENTS);
            (
                format!("http://\n{quote}{}{host}/{seg}", indent(r)),
                format!("http://{host}/{seg}"),
                true,
            )
        }
    }
}

/// Which extras a prose paragraph may hold.
#[derive(Clone, Copy)]
struct ProseOpts {
    /// Per-mille of words followed by a URI token.
    uri_permille: usize,
    /// Ordinary colons (`Note:`, `10:30`, `e.g.:`).
    colons: bool,
}

fn sentence(
    r: &mut Rng,
    out: &mut Vec<String>,
    o: ProseOpts,
    quote: &str,
    exp: &mut Vec<String>,
) {
    let n = r.range(4, 18);
    // the last URI token, while sentence punctuation may still follow it
    let mut pending: Option<(usize, String, bool)> = None;
    for i in 0..n {
        let mut w = r.pick(WORDS).to_string();
        if i == 0 {
            let mut c = w.chars();
            if let Some(f) = c.next() {
                w = f.to_uppercase().chain(c).collect();
            }
            if o.colons && r.chance(1, 12) {
                out.push(r.pick(&["Note:", "Re:", "NB:", "Update:"]).into());
            }
        }
        if i + 1 < n && r.chance(1, 12) {
            w.push(',');
        }
        out.push(w);
        if o.colons && r.chance(1, 60) {
            out.push(
                r.pick(&[
                    "at 10:30",
                    "e.g.:",
                    "i.e.:",
                    "(ratio 3:2)",
                    "std::vector",
                    "C:\\dir",
                    "as follows:",
                    "localhost:8080",
                ])
                .into(),
            );
        }
        if o.uri_permille > 0 && r.below(1000) < o.uri_permille {
            let (tok, mut cand, bare) = uri_token(r, quote);
            if let Some((_, c, b)) = pending.take() {
                exp.push(if b { trim_bare(&c) } else { c });
            }
            out.push(tok);
            if bare && i + 1 == n {
                cand.push('\u{0}'); // marker: the end follows
            }
            pending = Some((out.len() - 1, cand, bare));
        }
    }
    let end = r.pick(&[".", ".", ".", "?", "!", ":"]);
    if let Some(last) = out.last_mut() {
        last.push_str(end);
    }
    if let Some((_, mut c, b)) = pending {
        if let Some(stripped) = c.strip_suffix('\u{0}') {
            c = format!("{stripped}{end}");
        }
        exp.push(if b { trim_bare(&c) } else { c });
    }
}

/// Wraps tokens into lines of at most `width` columns, each starting with
/// `prefix`; tokens holding line breaks keep them (the column restarts).
fn wrap(tokens: &[String], width: usize, prefix: &str, out: &mut Vec<u8>) {
    let mut col = 0;
    for t in tokens {
        let first_len = t.find('\n').unwrap_or(t.len());
        if col > 0 && col + 1 + first_len > width {
            out.push(b'\n');
            col = 0;
        }
        if col == 0 {
            out.extend_from_slice(prefix.as_bytes());
            col = prefix.len();
        } else {
            out.push(b' ');
            col += 1;
        }
        out.extend_from_slice(t.as_bytes());
        match t.rfind('\n') {
            Some(i) => col = t.len() - i - 1,
            None => col += t.len(),
        }
    }
    if col > 0 {
        out.push(b'\n');
    }
}

fn paragraph(
    r: &mut Rng,
    o: ProseOpts,
    prefix: &str,
    width: usize,
    exp: &mut Vec<String>,
) -> Vec<u8> {
    let mut toks = Vec::new();
    for _ in 0..r.range(2, 7) {
        sentence(r, &mut toks, o, prefix, exp);
    }
    let mut out = Vec::new();
    wrap(&toks, width, prefix, &mut out);
    out
}

/// A generator of one kind: call [`Gen::next_piece`] repeatedly.
pub struct Gen {
    kind: Kind,
    r: Rng,
    started: bool,
    page: usize,
    section: usize,
    line_on_page: usize,
    msg: usize,
    expected: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Prose,
    NoUri,
    Rfc,
    Mail,
    Dense,
    Repeat(&'static [u8]),
    OneLine,
    UnclosedLt,
    Crlf,
    LongUri,
    HyphenUri,
    QuotedAngle,
    Hostile(Hostile),
}

/// The shapes of [`HOSTILE_MAIL`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hostile {
    DenseText,
    ManyParts,
    PartsAlt,
    PartsNamed,
    HugeHeader,
    Base64,
    HtmlShown,
    Qp,
    Nested,
}

impl Gen {
    /// A generator for `kind` (see [`kinds`]), or `None`.
    pub fn new(kind: &str, seed: u64) -> Option<Gen> {
        let k = match kind {
            "prose" => Kind::Prose,
            "nouri" | "noprose" => Kind::NoUri,
            "rfc" => Kind::Rfc,
            "mail" => Kind::Mail,
            "dense" => Kind::Dense,
            "adv-lt" => Kind::Repeat(b"<<<<<<<<<<<<<<<<"),
            "adv-quote" => Kind::Repeat(b"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\""),
            "adv-colon" => Kind::Repeat(b"::::::::::::::::"),
            "adv-http" => Kind::Repeat(b"http://"),
            "adv-a-colon" => Kind::Repeat(b"a:a:a:a:a:a:a:a:"),
            "adv-url-prefix" => Kind::Repeat(b"<URL:"),
            "adv-hyphen-nl" => Kind::Repeat(b"-\n-\n-\n-\n-\n-\n-\n-\n"),
            "adv-percent" => Kind::Repeat(b"%%%%%%%%%%%%%%%%"),
            "adv-parens" => Kind::Repeat(b"(((((((((((((((("),
            "adv-quote-prefix" => Kind::Repeat(b"> > > \n"),
            "adv-one-line" => Kind::OneLine,
            "adv-unclosed-lt" => Kind::UnclosedLt,
            "adv-lt-nl" => Kind::Repeat(b"<\n<\n<\n<\n<\n<\n<\n<\n"),
            "adv-crlf" => Kind::Crlf,
            "adv-lt-http" => Kind::Repeat(b"<http://a.example/ "),
            "adv-quote-http" => Kind::Repeat(b"\"http://a.example/ "),
            "adv-long-uri" => Kind::LongUri,
            "adv-hyphen-uri" => Kind::HyphenUri,
            "adv-dangling" => Kind::Repeat(b"http://\n"),
            "adv-quoted-angle" => Kind::QuotedAngle,
            "adv-http-space" => Kind::Repeat(b"http:// "),
            "adv-a-colon-nl" => Kind::Repeat(b"a:\na:\na:\na:\n"),
            "adv-url-bare" => Kind::Repeat(b"URL:"),
            "adv-scheme-colon" => Kind::Repeat(b"http:"),
            "adv-bare-http" => Kind::Repeat(b"http://a.example/ "),
            "adv-www-run" => Kind::Repeat(b"x:www.a.b/"),
            "adv-emphasis" => {
                Kind::Repeat(b"**__~~http://a.example/x~~__**")
            }
            "adv-stars" => Kind::Repeat(
                b"*************************************************************http:",
            ),
            "adv-entity" => Kind::Repeat(b"&lt;http://a.example/&gt;"),
            "adv-entity-zeros" => {
                Kind::Repeat(b"http://a.b/&#00000000000000000000000006 ")
            }
            "adv-paren-uri" => Kind::Repeat(b"http://a.b/(x)"),
            "adv-closers" => Kind::Repeat(b")http://a.b/]"),
            "adv-dots-colon" => Kind::Repeat(b"....:"),
            "adv-lt-break" => Kind::Repeat(b"<http://a.example/\n  x"),
            "adv-quote-break" => Kind::Repeat(b"\"http://a.example/\n  x"),
            "mail-dense-text" => Kind::Hostile(Hostile::DenseText),
            "mail-many-parts" => Kind::Hostile(Hostile::ManyParts),
            "mail-parts-alt" => Kind::Hostile(Hostile::PartsAlt),
            "mail-parts-named" => Kind::Hostile(Hostile::PartsNamed),
            "mail-huge-header" => Kind::Hostile(Hostile::HugeHeader),
            "mail-base64" => Kind::Hostile(Hostile::Base64),
            "mail-html-shown" => Kind::Hostile(Hostile::HtmlShown),
            "mail-qp" => Kind::Hostile(Hostile::Qp),
            "mail-nested" => Kind::Hostile(Hostile::Nested),
            _ => return None,
        };
        Some(Gen {
            kind: k,
            r: Rng::new(seed ^ 0x005e_ed0f_u64.wrapping_mul(0x1000_0001)),
            started: false,
            page: 1,
            section: 1,
            line_on_page: 0,
            msg: 0,
            expected: Vec::new(),
        })
    }

    /// Appends the next piece (a paragraph, a message, a page part, a few
    /// KiB of a repeated pattern) to `out`.
    pub fn next_piece(&mut self, out: &mut Vec<u8>) {
        let first = !self.started;
        self.started = true;
        let prose = ProseOpts { uri_permille: 8, colons: true };
        match self.kind {
            Kind::Prose => self.prose(out, prose),
            Kind::NoUri => {
                self.prose(out, ProseOpts { uri_permille: 0, ..prose })
            }
            Kind::Dense => {
                // A URI every ~100 bytes: short runs of words between them.
                let mut toks = Vec::new();
                for _ in 0..40 {
                    for _ in 0..self.r.range(6, 12) {
                        toks.push(self.r.pick(WORDS).to_string());
                    }
                    let (tok, cand, bare) = uri_token(&mut self.r, "");
                    toks.push(tok);
                    self.expected.push(if bare {
                        trim_bare(&cand)
                    } else {
                        cand
                    });
                }
                wrap(&toks, 72, "", out);
                out.push(b'\n');
            }
            Kind::Rfc => self.rfc(out),
            Kind::Mail => self.mail(out),
            Kind::Repeat(pat) => {
                for _ in 0..(8192 / pat.len()).max(1) {
                    out.extend_from_slice(pat);
                }
            }
            Kind::OneLine => {
                let p = paragraph(&mut self.r, prose, "", 72, &mut Vec::new());
                out.extend(
                    p.iter().map(|&b| if b == b'\n' { b' ' } else { b }),
                );
            }
            Kind::UnclosedLt => {
                if first {
                    out.extend_from_slice(b"<http://a.example/");
                }
                let p = paragraph(&mut self.r, prose, "", 72, &mut Vec::new());
                // no blank line (which would end the bracket search), and
                // no `>` that could close it
                out.extend(p.iter().filter(|&&b| b != b'>'));
            }
            Kind::Crlf => {
                let mut p = Vec::new();
                self.prose(&mut p, prose);
                for &b in &p {
                    if b == b'\n' {
                        out.push(b'\r');
                    }
                    out.push(b);
                }
            }
            Kind::LongUri => {
                if first {
                    out.extend_from_slice(b"http://a.example/");
                }
                for _ in 0..512 {
                    out.extend_from_slice(b"abcdefghijklmno/");
                }
            }
            Kind::HyphenUri => {
                if first {
                    out.extend_from_slice(b"see http://a.example/x-\n");
                }
                for _ in 0..1024 {
                    out.extend_from_slice(b"  abc-\n");
                }
            }
            Kind::QuotedAngle => {
                for _ in 0..128 {
                    out.extend_from_slice(
                        b"> > <http://a.example/x\n> > y/z\n",
                    );
                }
            }
            Kind::Hostile(h) => self.hostile(h, first, out),
        }
    }

    /// About 8 KiB of a hostile message; its header block first.
    fn hostile(&mut self, h: Hostile, first: bool, out: &mut Vec<u8>) {
        const HEAD: &[u8] = b"From: x@example.org\nSubject: hostile\n\
MIME-Version: 1.0\n";
        if first {
            out.extend_from_slice(HEAD);
            out.extend_from_slice(match h {
                Hostile::DenseText => b"Content-Type: text/plain\n\n",
                Hostile::ManyParts
                | Hostile::PartsAlt
                | Hostile::PartsNamed => {
                    b"Content-Type: multipart/mixed; boundary=b\n\n"
                }
                Hostile::HugeHeader => b"X-Links: http://a.example/x",
                Hostile::Base64 => {
                    b"Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\n"
                }
                Hostile::HtmlShown => b"Content-Type: text/html\n\n",
                Hostile::Qp => {
                    b"Content-Type: text/plain\n\
Content-Transfer-Encoding: quoted-printable\n\n"
                }
                Hostile::Nested => {
                    b"Content-Type: multipart/mixed; boundary=n0\n\n"
                }
            });
        }
        let end = out.len() + 8192;
        while out.len() < end {
            match h {
                Hostile::DenseText => {
                    out.extend_from_slice(b"http://a.example/xy ");
                    if self.r.chance(1, 4) {
                        out.push(b'\n');
                    }
                }
                Hostile::ManyParts => out.extend_from_slice(
                    b"--b\nContent-Type: text/plain\n\nhttp://a.example/x\n",
                ),
                Hostile::PartsAlt => {
                    // Header blocks that differ from one part to the next.
                    self.msg += 1;
                    out.extend_from_slice(if self.msg % 2 == 1 {
                        b"--b\nContent-Type: text/plain\n\nhttp://a.example/x\n"
                    } else {
                        b"--b\nContent-type: text/plain\n\nhttp://a.example/x\n"
                    });
                }
                Hostile::PartsNamed => {
                    out.extend(
                        format!(
                            "--b\nContent-Type: text/plain; name=p{:07}\n\n\
                             http://a.example/x\n",
                            self.msg
                        )
                        .bytes(),
                    );
                    self.msg += 1;
                }
                Hostile::HugeHeader => {
                    out.extend_from_slice(b"\n http://a.example/y")
                }
                Hostile::Base64 => {
                    // 57 bytes a line, 76 characters of base64.
                    let line = b"http://a.example/x http://b.example/y http://c.example/z ";
                    base64_line(&line[..57], out);
                }
                Hostile::HtmlShown => out.extend_from_slice(
                    b"<a href=\"http://d.example/z\">http://e.example/w</a><br>\n",
                ),
                Hostile::Qp => out.extend_from_slice(
                    b"http://a.example/?id=3D1 <http://b.ex=\nample/x> =41 \n",
                ),
                Hostile::Nested => {
                    self.msg += 1;
                    let n = self.msg;
                    out.extend(
                        format!(
                            "--n{}\nContent-Type: text/plain\n\n",
                            n - 1
                        )
                        .bytes(),
                    );
                    for _ in 0..115 {
                        out.extend_from_slice(b"http://a.example/xy ");
                    }
                    out.extend(
                        format!(
                            "\n--n{}\nContent-Type: multipart/mixed; boundary=n{n}\n\n",
                            n - 1
                        )
                        .bytes(),
                    );
                }
            }
        }
    }

    /// What a scanner following docs/CONTRACT.md must report, in order, for the
    /// pieces generated since the last call (kinds `prose`, `nouri`,
    /// `rfc`, `mail` and `dense` only; the default finder). A piece cut by
    /// truncation may lose its last URIs.
    pub fn take_expected(&mut self) -> Vec<String> {
        std::mem::take(&mut self.expected)
    }

    fn prose(&mut self, out: &mut Vec<u8>, o: ProseOpts) {
        let width = self.r.range(64, 76);
        out.extend(paragraph(&mut self.r, o, "", width, &mut self.expected));
        out.push(b'\n');
    }

    fn rfc(&mut self, out: &mut Vec<u8>) {
        let r = &mut self.r;
        let o = ProseOpts { uri_permille: 10, colons: true };
        let mut piece = Vec::new();
        match r.below(10) {
            0 => {
                self.section += 1;
                piece.extend(
                    format!(
                        "{}.{}.  {} {}\n\n",
                        self.section / 4 + 1,
                        self.section % 4 + 1,
                        cap(r.pick(WORDS)),
                        cap(r.pick(WORDS))
                    )
                    .bytes(),
                );
            }
            1 => {
                for l in [
                    "   URI-reference = URI / relative-ref\n",
                    "   scheme        = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )\n",
                    "   hier-part     = \"//\" authority path-abempty\n",
                    "   authority     = [ userinfo \"@\" ] host [ \":\" port ]\n",
                    "   IPv6address   =                            6( h16 \":\" ) ls32\n",
                    "   pct-encoded   = \"%\" HEXDIG HEXDIG\n",
                    "   gen-delims    = \":\" / \"/\" / \"?\" / \"#\" / \"[\" / \"]\" / \"@\"\n",
                ]
                .iter()
                .take(r.range(2, 7))
                {
                    piece.extend(l.bytes());
                }
                piece.push(b'\n');
            }
            2 => {
                // indented examples, one URI a line
                piece.extend(b"   For example:\n\n");
                for _ in 0..r.range(1, 5) {
                    piece.extend(b"      ");
                    let u = uri(r);
                    piece.extend(u.bytes());
                    self.expected.push(trim_bare(&u));
                    piece.push(b'\n');
                }
                piece.push(b'\n');
            }
            3 => {
                let n = r.range(2000, 9999);
                let (a, b, c) = (
                    cap(r.pick(WORDS)),
                    cap(r.pick(WORDS)),
                    cap(r.pick(WORDS)),
                );
                let u = uri(r);
                piece.extend(
                    format!(
                        "   [RFC{n}]  {a}, T., \"{b} {c}\", RFC {n}, August 1998,\n              <{u}>.\n\n",
                    )
                    .bytes(),
                );
                self.expected.push(u);
            }
            _ => {
                piece.extend(paragraph(r, o, "   ", 72, &mut self.expected));
                piece.push(b'\n');
            }
        }
        // page breaks every ~50 lines, with footer and header
        let lines = piece.iter().filter(|&&b| b == b'\n').count();
        out.extend(&piece);
        self.line_on_page += lines;
        if self.line_on_page >= 50 {
            self.line_on_page = 0;
            out.extend(
                format!(
                    "\nFielding, et al.        Expires August 2003             [Page {}]\n\x0c\nInternet-Draft            URI Generic Syntax           February 2003\n\n",
                    self.page
                )
                .bytes(),
            );
            self.page += 1;
        }
    }

    fn mail(&mut self, out: &mut Vec<u8>) {
        self.msg += 1;
        let n = self.msg;
        let r = &mut self.r;
        let exp = &mut self.expected;
        exp.push("mailto:uri-request@w3.org?subject=unsubscribe".into());
        exp.push("https://lists.w3.org/Archives/Public/uri/".into());
        let who =
            r.pick(&["Roy T. Fielding", "Larry Masinter", "Tim", "Ann Lee"]);
        let user = r.pick(&["fielding", "masinter", "timbl", "ann.lee"]);
        let host =
            r.pick(&["example.org", "w3.org", "ics.uci.edu", "example.com"]);
        let flowed = r.chance(1, 3);
        let mut m = format!(
            "From {user}@{host} Tue Mar  4 10:30:{:02} 2003\n\
             From: {who} <{user}@{host}>\n\
             To: uri@w3.org\n\
             Subject: Re: {} {}\n\
             Date: Tue, 4 Mar 2003 10:30:{:02} -0800\n\
             Message-ID: <{n}.{:x}@mail.{host}>\n\
             References: <{}.{:x}@mail.example.org>\n <{}.{:x}@news.example.com>\n\
             List-Unsubscribe: <mailto:uri-request@w3.org?subject=unsubscribe>,\n <https://lists.w3.org/Archives/Public/uri/>\n\
             Content-Type: text/plain; charset=us-ascii{}\n\n",
            n % 60,
            r.pick(WORDS),
            r.pick(WORDS),
            n % 60,
            r.next_u64() & 0xffff_ffff,
            n + 7,
            r.next_u64() & 0xffff,
            n + 3,
            r.next_u64() & 0xffff,
            if flowed { "; format=flowed" } else { "" },
        );
        let o = ProseOpts { uri_permille: 15, colons: true };
        let mut body = Vec::new();
        body.extend(
            format!("On Mon, 3 Mar 2003, {} wrote:\n", r.pick(WORDS)).bytes(),
        );
        if r.chance(1, 2) {
            body.extend(paragraph(r, o, "> > ", 72, exp));
            body.extend(b"> >\n");
        }
        body.extend(paragraph(r, o, "> ", 72, exp));
        if r.chance(1, 2) {
            exp.push("http://www.example.org/some/long/path/file.html".into());
            body.extend(b">\n> see <http://www.example.org/some/long/\n> path/file.html>\n");
        }
        body.push(b'\n');
        for _ in 0..r.range(1, 3) {
            let p = paragraph(r, o, "", 72, exp);
            if flowed {
                // format=flowed: soft breaks are a space before the newline
                for &b in &p {
                    if b == b'\n' {
                        body.push(b' ');
                    }
                    body.push(b);
                }
                // the paragraph's last line ends hard
                if body.ends_with(b" \n") {
                    let l = body.len();
                    body.remove(l - 2);
                }
            } else {
                body.extend(p);
            }
            body.push(b'\n');
        }
        body.extend(format!("-- \n{who}  http://{host}/~{user}/\n\n").bytes());
        exp.push(format!("http://{host}/~{user}/"));
        m.push_str(&String::from_utf8_lossy(&body));
        out.extend(m.bytes());
    }
}

/// Appends `data` in base64 (with padding) and a line break.
fn base64_line(data: &[u8], out: &mut Vec<u8>) {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(v >> (18 - 6 * k)) as usize & 63]);
            } else {
                out.push(b'=');
            }
        }
    }
    out.push(b'\n');
}

fn cap(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
