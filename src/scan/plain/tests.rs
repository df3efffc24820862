//! The plain way held to the general way: crafted shapes at every
//! offset, and generated text.

use super::decide;
use crate::scan::bare::Bare;
use crate::scan::decision::View;
use crate::scan::delimited::Closers;
use crate::scan::judge::Judge;
use crate::scan::tests::support::{check_stream_equals_slice, splitmix};
use crate::scan::{Context, Finder, FinderBuilder, Item, Shape};

/// What the plain way says of the first colon in `t`: the input
/// the URI is made from, and its context.
fn decided(t: &str) -> Option<(&str, Context)> {
    let opts = FinderBuilder::new();
    let judge = Judge::new(&opts);
    let vw = View::whole(t.as_bytes());
    let c = t.find(':').unwrap();
    let f =
        decide(&judge, &mut Bare::default(), &mut Closers::default(), &vw, c)
            .found(vw.base)?;
    let joined = f.shape == Shape::Joined;
    assert_eq!(joined, t[f.uri_span.clone()].contains('\n'));
    Some((&t[f.uri_span], f.context))
}

/// [`decided`] for a bare URI.
fn plain(t: &str) -> Option<&str> {
    decided(t).map(|(u, ctx)| {
        assert_eq!(ctx, Context::Bare, "{t:?}");
        u
    })
}

#[test]
fn takes_the_plainest_shape() {
    for (t, uri) in [
        ("see this http://a.example/x now", "http://a.example/x"),
        ("see this\thttp://a.example/ x", "http://a.example/"),
        (
            "a line\nhttps://a.example:80/p?q=1#f\n",
            "https://a.example:80/p?q=1#f",
        ),
        ("a line\nftp://a.example\n", "ftp://a.example"),
        (
            "see this HTTP://A-B.example/~x/(y/*'!$,;=+@:/ x",
            "HTTP://A-B.example/~x/(y/*'!$,;=+@:/",
        ),
        ("see this http://a.example/x<", "http://a.example/x"),
        ("see this http://a.example/x\"", "http://a.example/x"),
        ("see this wss://a.example/x>", "wss://a.example/x"),
        // character references for `<`, `>` and `"`, brackets
        ("&lt;http://a.example/x&gt;", "http://a.example/x"),
        ("a text &#60;http://a.example/&#x0003E;", "http://a.example/"),
        ("a text &quot;http://a.example/&QUOT;", "http://a.example/"),
        ("a text)http://a.b/]x", "http://a.b/"),
        ("a text]http://a.b/x)y", "http://a.b/x"),
        ("a text, http://a.example/a)b ", "http://a.example/a"),
        ("a text, http://a.example/(a]b ", "http://a.example/(a"),
        ("a text, http://a.example/a&amp;b ", "http://a.example/a&amp;b"),
        ("a text, http://a.b/&#00000006 x", "http://a.b/&#00000006"),
        ("a text, http://a.example/a&lt ", "http://a.example/a&lt"),
        ("a text, http://a.b/?a&b#c&d\n", "http://a.b/?a&b#c&d"),
    ] {
        assert_eq!(plain(t), Some(uri), "{t:?}");
        agree(t);
    }
}

/// The letters that end a word, as a loop over its bytes counts them.
#[test]
fn letters_ending_a_word() {
    let bytes: Vec<u8> = (0..=255u8).collect();
    let mut next = splitmix(0x1e77);
    for _ in 0..200_000 {
        let mut w = [0u8; 8];
        for b in &mut w {
            *b = match next() % 4 {
                0 => bytes[(next() % 256) as usize],
                1 => b"@[`{AZaz"[(next() % 8) as usize],
                _ => b'a' + (next() % 26) as u8,
            };
        }
        let want = w.iter().rev().take_while(|b| b.is_ascii_alphabetic());
        assert_eq!(
            super::letters_ending(u64::from_le_bytes(w)),
            want.count(),
            "{w:?}"
        );
    }
}

/// An angle bracket whose closer is nowhere within the bracket bound
/// opens nothing; one whose closer may come does.
#[test]
fn an_angle_bracket_that_never_closes() {
    let pad = "x".repeat(2100);
    let t = format!("a text x<http://a.example/\n  {pad}");
    assert_eq!(plain(&t), Some("http://a.example/"));
    let t = format!("a text x<http://a.example/\n  {pad}>");
    assert_eq!(plain(&t), Some("http://a.example/"));
    let t = format!("a text x\"http://a.example/\n  {pad}\"");
    assert_eq!(plain(&t), Some("http://a.example/"));
    // (Unsure when the bound reaches past the input's end.)
    assert_eq!(decided("a text x<http://a.example/\n  x"), None);
}

/// Quotes and angle brackets around a URI of the plainest shape, on
/// one line or rejoined across one line break.
#[test]
fn takes_delimited_uris() {
    let pad = "x".repeat(2100);
    for (t, uri, ctx) in [
        ("a text <http://a.example/x>", "http://a.example/x", Context::Angle),
        (
            "a text \"http://a.example/x\"",
            "http://a.example/x",
            Context::Quoted,
        ),
        (
            "a text x<http://a.example/\n  x>",
            "http://a.example/\n  x",
            Context::Angle,
        ),
        (
            "a text\"https://a.example/p?q\r\n\t=1\".",
            "https://a.example/p?q\r\n\t=1",
            Context::Quoted,
        ),
        (
            "> a text \"http://a.example/a\n> b\"",
            "http://a.example/a\n> b",
            Context::Quoted,
        ),
    ] {
        assert_eq!(decided(t), Some((uri, ctx)), "{t:?}");
        agree(t);
        let t = format!("{t}{pad}");
        assert_eq!(decided(&t), Some((uri, ctx)), "{t:?}");
        agree(&t);
    }
    for t in [
        // a closer on the next line, more than one line break, a
        // line that starts a URI, another quote depth, a blank line
        "a text \"http://a.example/\n\"",
        "a text \"http://a.example/\n  x\n  y\"",
        "a text \"http://a.example/\n  http://b.example/\"",
        "> a text \"http://a.example/\n>> x\"",
        "a text \"http://a.example/\n\n  x\"",
        // a break in the authority, after a hyphen, before a `#`
        "a text \"http://a.example\n  /x\"",
        "a text \"http://a.example/x-\n  y\"",
        "a text \"http://a.example/x\n  #y\"",
        // what a closer trims or the bytes before it end
        "a text \"http://a.example/x.\"",
        "a text \"http://a.example/x\n  y,\"",
        "a text \"http://a.example/x%41\"",
        "a text <http://a.example/x y>",
        "a text <http://a.example/x\"",
    ] {
        // (Some of them leave a bare URI, which the plain way may
        // take: the context fails.)
        let got = decided(t);
        assert!(got.is_none_or(|(_, ctx)| ctx == Context::Bare), "{t:?}");
        agree(t);
    }
}

/// Quotes and angle brackets whose context fails, as the general
/// way reads it, around a URI of the plainest shape: the URI is bare.
#[test]
fn delimited_contexts_that_fail() {
    for (t, uri) in [
        ("a text \"http://a.example/ \"x", "http://a.example/"),
        ("a text \"http://a.example/x  y \"", "http://a.example/x"),
        ("a text <http://a.example/x{>", "http://a.example/x"),
        ("a text \"http://a.example/x\n\n\"", "http://a.example/x"),
        (
            "> > <http://a.example/x\n> > y/z\n> > <http://b.example/>",
            "http://a.example/x",
        ),
        ("a text <http://a.example/x\n y/z\n\n>", "http://a.example/x"),
        ("a text <http://a.example/x\n y/z w>", "http://a.example/x"),
    ] {
        assert_eq!(decided(t), Some((uri, Context::Bare)), "{t:?}");
        agree(t);
    }
    for t in [
        // a closer that may close after blanks, a third line
        "a text <http://a.example/x >",
        "a text <http://a.example/x\n y/z\n w>",
        "a text <http://a.example/x\n y/z\n>",
        "a text <http://a.example/x\n y/z\n> w",
        "a text <http://a.example/x\n y/z >",
    ] {
        assert!(decided(t).is_none_or(|(_, c)| c == Context::Bare));
        agree(t);
    }
}

/// Every combination of an opener, a URI, what may follow it on the
/// next line and a closer: the plain and the general way agree.
#[test]
fn delimited_combinations_agree() {
    let mut taken = 0;
    for open in ["\"", "<", " \"", "x<", "> \""] {
        for uri in [
            "http://a.example/",
            "https://a.example/p?q",
            "ftp://a.example",
            "http://a.example/x-",
            "http://a.example/x.",
            "http://a.example/#f",
        ] {
            for next in [
                "",
                "\n  x",
                "\n\tx.",
                "\r\n  y?z",
                "\n> x",
                "\n\n x",
                "\n  http://b.example/",
                "\n  #g",
                "  \n x",
                " x",
            ] {
                for close in ["\"", ">", "", " \"", ".\""] {
                    let t = format!("a text{open}{uri}{next}{close} more");
                    agree(&t);
                    let c = t.find(':').unwrap();
                    let opts = FinderBuilder::new();
                    let judge = Judge::new(&opts);
                    let vw = View::whole(t.as_bytes());
                    let (mut b, mut cl) =
                        (Bare::default(), Closers::default());
                    taken += decide(&judge, &mut b, &mut cl, &vw, c)
                        .found(vw.base)
                        .is_some_and(|f| f.context != Context::Bare)
                        as usize;
                }
            }
        }
    }
    assert!(taken > 60, "{taken}");
}

/// The plain way (on) and the general way (off) find the same items
/// in `t`. (Debug builds also check each colon the plain way takes.)
fn agree(t: &str) {
    for rejected in [false, true] {
        let mut b = Finder::builder();
        b.rejected(rejected);
        let on = b.build().unwrap();
        let off = b.prefilter(false).build().unwrap();
        let x: Vec<Item<'_>> = on.items(t.as_bytes()).collect();
        let y: Vec<Item<'_>> = off.items(t.as_bytes()).collect();
        assert_eq!(x, y, "{t:?}");
    }
    check_stream_equals_slice(t.as_bytes());
}

#[test]
fn declines_the_rest() {
    for t in [
        // contexts, or what may open one
        "a text, <\nhttp://a.example/ x",
        "a text, URL: http://a.example/ x",
        "a text, > http://a.example/ x",
        "a text, x  http://a.example/ x",
        "a text, (http://a.example/x) ",
        "a text, *http://a.example/x* ",
        "a text, 'http://a.example/x' ",
        "a text, </http:x>",
        // schemes that need more
        "a text, x.http://a.example/ x",
        "a text, =3Dhttp://a.example/ x",
        "a text, svn+ssh://a.example/ x",
        "a text, file:///etc/motd x",
        "a text, mailto:a@b.example x",
        "a text, abcdefghttp://a.example/ x",
        // URIs that need more
        "a text, http://a.example/x. ",
        "a text, http://a.example/x' ",
        "a text, http://a.example/a-\nb ",
        "a text, http://a.example/a&amp;b)c ",
        "a text, http://a.example/a&amp;b&lt;c ",
        "a text, http://a.example/a&amp;b%4x ",
        "a text, http://a.example/(a)b ",
        "a text, &lt:http://a.example/a ",
        "a text, x;http://a.example/a ",
        "a text, &amp;http://a.example/a ",
        "a text, &#00000000000000060;http://a.example/a ",
        "a text, (http://a.example/a) ",
        "a text, http://a.example/%41 ",
        "a text, http://a.example/[x] ",
        "a text, http://a.example/x\u{e9} ",
        "a text, http://u@a.example/ x",
        "a text, http://1.2.3.4/ x",
        "a text, http://a..b/ x",
        "a text, http://\n  a.example/ x",
        "a text, http://a.example/x",
    ] {
        assert_eq!(plain(t), None, "{t:?}");
    }
    // (What comes before each of them is no reason.)
    assert!(plain("a text, http://a.example/x ").is_some());
    // A colon in the input's first eight bytes goes the general way.
    assert_eq!(plain("http://a.example/x "), None);
}

/// On text made of the pieces of plain URIs and of near misses, the
/// plain way (on) and the general way (off) find the same items,
/// and streams split anywhere find them too; the plain way takes
/// many of those colons. (Debug builds also check every colon it
/// takes against the general way.)
#[test]
fn agrees_with_the_general_way() {
    // What may stand before a scheme, schemes, hosts, the pieces of
    // a path, and what may follow a URI.
    const BEFORE: &[&str] = &[
        "", " ", " ", " ", "\n", "\n", "x ", "x ", "<", "\"", "(", "x", "> ",
        "  ", "\t", "URL:", "*", "x.", "=3D", "-\n", "<\n", "\r\n", "'", "<",
        "<", "\"", "\"", " <", " \"", "&lt;", "&gt;", "&#34;", ")", "]", ";",
        "&lt", "x;", "&amp;", "<", "<", "\"", "\"", " \"",
    ];
    const SCHEMES: &[&str] = &[
        "http://",
        "http://",
        "http://",
        "http://",
        "HTTPS://",
        "ftp://",
        "svn+ssh://",
        "file://",
        "x:",
        "mailto:",
        "http:",
        "abcdefghi://",
    ];
    const HOSTS: &[&str] = &[
        "a.example",
        "a.example",
        "a.example",
        "b-c.example.",
        "1.2.3.4",
        "a..b",
        "-a",
        "",
        "u@a.example",
        "a.example:8080",
        "a.example:",
        "a.example\n",
    ];
    const TAIL: &[&str] = &[
        "/x", "/x", "/x", "/", "?q=1", "#f", "#", "&amp;", "&", "%41", "%4",
        "(", ")", "[", "]", ".", ",", "'", "-", "*", ":", "\u{e9}", "~",
        "&#60;", "&gt;", "&#00006", "&#x3", "&quot",
    ];
    const AFTER: &[&str] = &[
        " ",
        " ",
        " ",
        " ",
        "\n",
        "\n",
        "\r\n",
        "-\n",
        "\n  ",
        "<",
        ">",
        "\n  x\"",
        "\n  y>",
        "\n> z\"",
        "\n  #\"",
        ">",
        "\"",
        "\"",
        "",
        ".",
        ". ",
        "\u{3002}",
        "\t",
        "\n> ",
        "\n  x\"",
        "\n  y>",
        "\"",
        ">",
        "\"",
        ">",
        "&lt;",
        "&gt;",
        "&QUOT;",
        "&#062;",
        "&#x22;",
        "&g",
        "&",
        "]",
        ")",
        "])",
        ")x",
        "]\n",
        "&gt;x",
        "\"",
        ">",
        "\"",
        ">",
        "\"",
        ">",
        "\n  y\n<",
        " \"x",
        "\n  y z\"",
        "{",
        "\n  y\n\n",
        "\n y\n http://b.example/>",
        "\"",
        ">",
        "\"",
        ">",
    ];
    let mut next = splitmix(0x91a1);
    let mut pick = |p: &[&'static str]| p[(next() >> 16) as usize % p.len()];
    let (mut texts, mut taken, mut delimited) = (0, 0, 0);
    for round in 0..4000 {
        let mut t = String::new();
        for _ in 0..6 {
            t.push_str(pick(&["w", "w", "w", "", "."]));
            t.push_str(pick(BEFORE));
            t.push_str(pick(SCHEMES));
            t.push_str(pick(HOSTS));
            for _ in 0..round % 4 {
                t.push_str(pick(TAIL));
            }
            t.push_str(pick(AFTER));
        }
        let v = t.as_bytes();
        for rejected in [false, true] {
            let mut b = Finder::builder();
            b.rejected(rejected);
            // Bounds that cut URIs and brackets short, now and then.
            let (len, bound) =
                [(64 * 1024, 2048), (12, 2048), (20, 3)][(round / 2) % 3];
            b.max_uri_len(len).bracket_bound(bound);
            b.abbreviated(round % 5 == 0);
            let on = b.build().unwrap();
            let off = b.prefilter(false).build().unwrap();
            let x: Vec<Item<'_>> = on.items(v).collect();
            let y: Vec<Item<'_>> = off.items(v).collect();
            assert_eq!(x, y, "{t:?}");
        }
        if round % 8 == 0 {
            check_stream_equals_slice(v);
        }
        texts += 1;
        let opts = FinderBuilder::new();
        let judge = Judge::new(&opts);
        let vw = View::whole(v);
        let found: Vec<Context> = t
            .char_indices()
            .filter(|&(_, ch)| ch == ':')
            .filter_map(|(c, _)| {
                let (mut b, mut cl) = (Bare::default(), Closers::default());
                decide(&judge, &mut b, &mut cl, &vw, c)
                    .found(vw.base)
                    .map(|f| f.context)
            })
            .collect();
        taken += !found.is_empty() as usize;
        delimited += found.iter().any(|&x| x != Context::Bare) as usize;
    }
    assert!(taken * 8 > texts, "{taken} of {texts}");
    assert!(delimited * 60 > texts, "{delimited} of {texts}");
}
