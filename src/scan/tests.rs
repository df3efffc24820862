//! The scanner's tests across its rooms: slices, streams, feeders and
//! read-ahead agree; the colon filters change no item; abbreviations;
//! regressions found by the fuzzers.

use std::io;
use std::ops::Range;

use super::*;

mod slices_and_streams {
    use super::*;

    /// A reader that hands out at most `n` bytes per call.
    struct Chunked<'a>(&'a [u8], usize);

    impl io::Read for Chunked<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    const TEXTS: &[&str] = &[
        "Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
         but you can probably pick it up from <ftp://ds.internic.\n\
         net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n\
         ietf/uri/historical.html#WARNING>.\n",
        "> > <http://www.example.com/long-\n> > page.html>\nhttp://\n  a.example/x \
         [https://a.example/x](https://b.example/y) URL:http://c.example/",
        "<URL:\n http://www.example.com/pub/\n file.txt> mailto:a@b.example, \
         http://a.example/x_(y)). <x-doc:chapter-4> <URL:x-doc:c-3>",
    ];

    fn slice_items(f: &Finder, t: &[u8]) -> Vec<Item<'static>> {
        f.items(t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect()
    }

    /// `find_iter` taken one `next` at a time, in one loop (`fold`, as
    /// `count` and `collect` do) and through `items` give the same
    /// matches: plain ones handed straight back and general ones
    /// queued, with rejections between them, dense and crafted.
    #[test]
    fn find_iter_next_fold_and_items_agree() {
        let f = Finder::builder().rejected(true).build().unwrap();
        let mut texts: Vec<Vec<u8>> =
            TEXTS.iter().map(|t| t.as_bytes().to_vec()).collect();
        texts.push(b"http://a.example/x ".repeat(50));
        texts.push(b"\"http://a.example/\n  x".repeat(50));
        texts.push(b"<http://a.example/\n  x http://[::1: ".repeat(30));
        texts.push(b"http://a.example/)) http://256.1.1.1/ x".repeat(30));
        for t in &texts {
            // (A `for` loop calls `next`.)
            let mut one = Vec::new();
            for m in f.find_iter(t) {
                one.push((m.span(), m.uri().to_vec()));
            }
            let mut all = Vec::new();
            f.find_iter(t)
                .for_each(|m| all.push((m.span(), m.uri().to_vec())));
            let items: Vec<_> = f
                .items(t)
                .filter_map(|i| match i {
                    Item::Match(m) => Some((m.span(), m.uri().to_vec())),
                    Item::Rejected(_) => None,
                })
                .collect();
            assert!(!one.is_empty());
            assert_eq!(one, all);
            assert_eq!(one, items);
            assert_eq!(f.find_iter(t).count(), one.len());
        }
    }

    #[test]
    fn stream_equals_slice_for_every_chunk_size() {
        let f = Finder::builder()
            .rejected(true)
            .abbreviated(true)
            .build()
            .unwrap();
        for t in TEXTS {
            let want = slice_items(&f, t.as_bytes());
            assert!(!want.is_empty());
            for n in 1..=9 {
                let got: Vec<_> = f
                    .stream(Chunked(t.as_bytes(), n))
                    .count_lines(true)
                    .map(|i| i.unwrap())
                    .collect();
                assert_eq!(got, want, "chunk size {n}\n{t}");
            }
        }
    }

    #[test]
    fn feeder_equals_slice() {
        for t in TEXTS {
            support::check_stream_equals_slice(t.as_bytes());
        }
    }

    #[test]
    fn read_ahead_across_many_blocks() {
        // Several MiB, with URIs (some broken over lines, some in
        // brackets) at every offset modulo the block size.
        let mut t = Vec::new();
        let mut k = 0;
        while t.len() < 3_500_000 {
            t.extend_from_slice(TEXTS[k % TEXTS.len()].as_bytes());
            t.extend(std::iter::repeat_n(b'x', k % 977));
            t.push(b'\n');
            k += 1;
        }
        let f = Finder::builder().rejected(true).build().unwrap();
        let want: Vec<Item<'static>> = f
            .items(&t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect();
        assert!(want.len() > 10_000);
        for n in [usize::MAX, 70_001, 4096] {
            let got: Vec<_> = f
                .stream_read_ahead(support::ChunkedOwned(t.clone(), 0, n))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert!(got == want, "read-ahead with reads of {n} bytes differs");
        }
    }

    #[test]
    fn appendix_e_example() {
        let f = Finder::new();
        let got: Vec<_> = f
            .find_iter(TEXTS[0].as_bytes())
            .map(|m| m.uri().to_vec())
            .collect();
        assert_eq!(
            got,
            [
                &b"http://www.w3.org/Addressing/"[..],
                b"ftp://ds.internic.net/rfc/",
                b"http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
            ]
        );
    }

    #[test]
    fn offsets_point_at_the_text() {
        let f = Finder::new();
        let t = TEXTS[1].as_bytes();
        for m in f.find_iter(t) {
            let u = m.uri();
            assert_eq!(t[m.uri_span().start], u[0]);
            assert_eq!(t[m.uri_span().end - 1], u[u.len() - 1]);
            assert!(m.span().start <= m.uri_span().start);
            assert!(m.uri_span().end <= m.span().end);
        }
    }

    #[test]
    fn hyphen_alternative() {
        let f = Finder::new();
        let m =
            f.find_iter(b"<http://a.example/read-\n me.txt>").next().unwrap();
        assert_eq!(m.uri(), b"http://a.example/read-me.txt");
        assert_eq!(
            m.without_hyphen(),
            Some(&b"http://a.example/readme.txt"[..])
        );
    }

    #[test]
    fn stream_positions() {
        let f = Finder::new();
        let t = b"x\r\nsee <http://a.example/\n b> and\nhttp://c.example/";
        let pos: Vec<_> = f
            .stream(Chunked(t, 3))
            .count_lines(true)
            .map(|i| match i.unwrap() {
                Item::Match(m) => m.position().unwrap(),
                Item::Rejected(_) => unreachable!(),
            })
            .map(|p| (p.line, p.column))
            .collect();
        assert_eq!(pos, [(2, 5), (4, 1)]);
    }
}

/// The colon filters (`Triggers::colon_ok` and the bulk filter) only save
/// work: with them off, every colon goes to the engine's full path, and
/// the items must be the same.
mod prefilter {
    use super::*;

    fn items(f: &Finder, t: &[u8]) -> Vec<String> {
        f.items(t).map(|i| format!("{i:?}")).collect()
    }

    fn compare(t: &[u8]) {
        for rejected in [false, true] {
            let mut b = Finder::builder();
            b.rejected(rejected);
            let on = b.build().unwrap();
            let off = b.prefilter(false).build().unwrap();
            assert_eq!(
                items(&on, t),
                items(&off, t),
                "rejected {rejected}: {:?}",
                bstr::BStr::new(t)
            );
        }
    }

    #[test]
    fn filters_change_no_item() {
        const PIECES: &[&str] = &[
            "http://",
            "https://",
            "mailto:",
            "news:",
            "urn:x:y",
            "a:",
            ":",
            "::",
            "URL:",
            "url:",
            "<",
            ">",
            "> ",
            "> > ",
            "\"",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\n   ",
            "-\n",
            "a.example",
            "/x",
            ".",
            ",",
            ";",
            ")",
            "(",
            "[",
            "]",
            "%41",
            "@",
            "user@",
            "ftp://",
            "www.",
            "x",
            "abc",
            "Note:",
            "10:30",
            "std::",
            "data:",
            "tel:",
            "geo:",
            "sip:",
            "l",
            "L",
            "3",
            "caf\u{e9}",
            "\u{201c}",
            // What the reader's rules look at before a scheme and after
            // a URI.
            "=3D",
            "=A0",
            "9",
            "+",
            "e.",
            "*",
            "_",
            "~",
            "'",
            "`",
            "</",
            "&lt;",
            "&#x3E;",
            "&amp;",
            "sms:+1",
            "sms:",
            "matrix:",
            "bitcoin:",
            "file:/",
            "file:",
            "...",
            "--",
        ];
        let mut next = support::splitmix(0x5eed);
        for round in 0..3000 {
            let mut t = String::new();
            // Long texts too, so that the bulk filter's blocks fill up.
            let n = if round % 10 == 0 { 400 } else { 60 };
            for _ in 0..n {
                t.push_str(PIECES[(next() >> 16) as usize % PIECES.len()]);
            }
            compare(t.as_bytes());
        }
        // Every labelled case, ours and the shared ones.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut cases = 0;
        for dir in
            ["corpora/cases", "../shared/cases", "../shared/cases-reader"]
        {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else { continue };
            for e in rd {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "txt") {
                    compare(&std::fs::read(&p).unwrap());
                    cases += 1;
                }
            }
        }
        assert!(cases > 300, "only {cases} case files");
    }

    /// Prose: colons tens of bytes apart, where the trigger search turns
    /// them away a block at a time (the sieve), with every kind of colon
    /// at every distance from a block's edge and the text's end; in a
    /// slice and in a stream fed a few bytes at a time.
    #[test]
    fn sieve_changes_no_item() {
        const FILLER: &[&str] =
            &["word ", "and ", "the ", "x", "(see) ", "\n", "12 ", "a-b.c "];
        const COLONS: &[&str] = &[
            "Subject: ",
            "Note:\n",
            "at 10:30 ",
            "at 9:5 ",
            "x1:30 ",
            "(above): ",
            "http://a.example/x ",
            "<http://a.example/\n  y> ",
            "\"mailto:a@b.example\" ",
            "news:comp.x ",
            "urn:x:y ",
            "12://a.example ",
            "a2://b ",
            "re:: ",
            "std::io ",
            "URL: <http://c.example/> ",
            "sip:\tx ",
            "tel:  \n",
            "ab:",
            ":",
        ];
        let mut next = support::splitmix(0x51e7e);
        let f = Finder::new();
        let mut found = 0;
        for round in 0..600 {
            let mut t = String::new();
            let n = 4 + round % 12;
            for _ in 0..n {
                let gap = (next() % 90) as usize;
                while t.len() % 97 < gap % 97 && t.len() < 2000 {
                    t.push_str(FILLER[(next() >> 16) as usize % FILLER.len()]);
                    if next() % 3 == 0 {
                        break;
                    }
                }
                for _ in 0..(next() % 12) {
                    t.push_str(FILLER[(next() >> 16) as usize % FILLER.len()]);
                }
                t.push_str(COLONS[(next() >> 16) as usize % COLONS.len()]);
            }
            let t = t.as_bytes();
            compare(t);
            let want: Vec<Item<'static>> = f
                .items(t)
                .map(|i| match i {
                    Item::Match(m) => Item::Match(m.into_owned()),
                    Item::Rejected(r) => Item::Rejected(r),
                })
                .collect();
            found += want.len();
            let chunk = 1 + (next() % 200) as usize;
            let got: Vec<_> = f
                .stream(support::Chunked(t, chunk))
                .map(|i| i.unwrap())
                .collect();
            assert_eq!(got, want, "chunk {chunk}: {:?}", bstr::BStr::new(t));
        } // Texts long enough for blocks, and URIs in them.
        assert!(found > 2000, "{found}");
    }
}

/// Jumps past overlong candidates (taken only when rejections are not
/// reported) skip no URI: with rejections reported, every colon is
/// decided, and the matches are the same.
mod overlong_jumps {
    use super::support::*;
    use super::*;

    fn matches(f: &Finder, t: &[u8]) -> Vec<(Range<usize>, Vec<u8>)> {
        f.items(t)
            .filter_map(|i| match i {
                Item::Match(m) => Some((m.span(), m.uri().to_vec())),
                Item::Rejected(_) => None,
            })
            .collect()
    }

    #[test]
    fn long_runs_with_brackets_give_the_matches_of_every_colon() {
        const PIECES: [&str; 12] = [
            "http://a.b/",
            "(x)",
            "(",
            ")",
            "[y]",
            "]",
            "zzzzzzz",
            "a:",
            "(http://c.example/p)",
            "[mailto:m@d.example]",
            " ",
            "\n",
        ];
        let mut next = splitmix(0x0b5e);
        let mut found = 0;
        for round in 0..400 {
            let max = 30 + (next() % 200) as usize;
            let mut t = Vec::new();
            while t.len() < 3000 {
                // Mostly no blank, so that runs outgrow the bound.
                let k = (next() % 12) as usize;
                if k < 10 || next() % 50 == 0 {
                    t.extend_from_slice(PIECES[k].as_bytes());
                }
            }
            let jumps = Finder::builder().max_uri_len(max).build().unwrap();
            let every = Finder::builder()
                .max_uri_len(max)
                .rejected(true)
                .build()
                .unwrap();
            let want = matches(&every, &t);
            found += want.len();
            assert_eq!(matches(&jumps, &t), want, "{round} {max}");
            for n in [1, 7, 4096] {
                let got: Vec<_> = jumps
                    .stream(Chunked(&t, n))
                    .filter_map(|i| match i.unwrap() {
                        Item::Match(m) => Some((m.span(), m.uri().to_vec())),
                        Item::Rejected(_) => None,
                    })
                    .collect();
                assert_eq!(got, want, "{round} {max}, chunks of {n}");
            }
        }
        assert!(found > 1000, "{found}");
    }

    /// Openers that are never closed (an IP literal without its `]`,
    /// repeated with no blank), some of them closed or followed by a URI
    /// at random: the matches are those of every colon decided.
    #[test]
    fn openers_never_closed_give_the_matches_of_every_colon() {
        const PIECES: [&str; 6] = [
            "http://[::1:",
            "http://[::1:",
            "(",
            "]",
            ")",
            "http://a.example/[x] ",
        ];
        let mut next = splitmix(0x1b6e);
        let mut found = 0;
        for round in 0..200 {
            let max = 20 + (next() % 100) as usize;
            let mut t = Vec::new();
            while t.len() < 2000 {
                let k = (next() % 6) as usize;
                if k < 2 || next() % 8 == 0 {
                    t.extend_from_slice(PIECES[k].as_bytes());
                }
            }
            let jumps = Finder::builder().max_uri_len(max).build().unwrap();
            let every = Finder::builder()
                .max_uri_len(max)
                .rejected(true)
                .build()
                .unwrap();
            let want = matches(&every, &t);
            found += want.len();
            assert_eq!(matches(&jumps, &t), want, "{round} {max}");
            for n in [1, 7, 4096] {
                let got: Vec<_> = jumps
                    .stream(Chunked(&t, n))
                    .filter_map(|i| match i.unwrap() {
                        Item::Match(m) => Some((m.span(), m.uri().to_vec())),
                        Item::Rejected(_) => None,
                    })
                    .collect();
                assert_eq!(got, want, "{round} {max}, chunks of {n}");
            }
        }
        assert!(found > 100, "{found}");
    }
}

/// A bare IP literal with no `]` is refused before the checks when
/// rejections are not reported: the matches are those found when every
/// candidate is checked (rejections reported).
mod unclosed_literals {
    use super::support::*;
    use super::*;

    fn matches(f: &Finder, t: &[u8]) -> Vec<(Range<usize>, Vec<u8>)> {
        f.items(t)
            .filter_map(|i| match i {
                Item::Match(m) => Some((m.span(), m.uri().to_vec())),
                Item::Rejected(_) => None,
            })
            .collect()
    }

    #[test]
    fn unclosed_literals_give_the_matches_of_every_check() {
        const PIECES: [&str; 14] = [
            "http://[::1",
            "http://[",
            "ftp://[v1.x",
            "]",
            "-",
            "\n",
            " ",
            "*",
            "'",
            "@a.example",
            ".",
            ":8",
            "/p",
            "http://a.example/",
        ];
        let mut next = splitmix(0x71a1);
        let (mut found, mut literals) = (0, 0);
        for round in 0..2000 {
            let mut t = Vec::new();
            for _ in 0..(1 + next() % 8) {
                t.extend_from_slice(PIECES[(next() % 14) as usize].as_bytes());
            }
            literals += usize::from(t.windows(3).any(|w| w == b"//["));
            let quick = Finder::new();
            let every = Finder::builder().rejected(true).build().unwrap();
            let want = matches(&every, &t);
            found += want.len();
            assert_eq!(
                matches(&quick, &t),
                want,
                "{round}: {:?}",
                String::from_utf8_lossy(&t)
            );
        }
        assert!(found > 300 && literals > 500, "{found} {literals}");
    }
}

mod abbreviated {
    use super::*;

    #[test]
    fn abbreviated_uris() {
        let f = Finder::builder().abbreviated(true).build().unwrap();
        let t = b"See www.w3.org/Addressing/, ftp.example.org/pub and \
                  http://www.example.com/ or me@www.example.net. WWW.X.ORG:";
        let got: Vec<(Vec<u8>, Context)> =
            f.find_iter(t).map(|m| (m.uri().to_vec(), m.context())).collect();
        let want: Vec<(Vec<u8>, Context)> = vec![
            (b"http://www.w3.org/Addressing/".to_vec(), Context::Abbreviated),
            (b"ftp://ftp.example.org/pub".to_vec(), Context::Abbreviated),
            (b"http://www.example.com/".to_vec(), Context::Bare),
            (b"http://WWW.X.ORG".to_vec(), Context::Abbreviated),
        ];
        assert_eq!(got, want);
        assert_eq!(Finder::new().find_iter(b"www.w3.org/x").count(), 0);
    }
}

mod regressions {
    use super::support::*;

    #[test]
    fn abbrev_after_url_prefix() {
        for t in [
            &b"a <URL:<www.#http://a.example"[..],
            b"http://news:.<URL:<www.[http://",
        ] {
            check_stream_equals_slice(t);
        }
    }
}

/// The rules of docs/CONTRACT.md sections 1 to 3 on what a reader takes
/// for a URI, each with its edges, through the whole scanner.
mod reader {
    use super::*;

    /// The URIs found in `t`, as strings.
    fn uris(t: &str) -> Vec<String> {
        Finder::new()
            .find_iter(t.as_bytes())
            .map(|m| String::from_utf8(m.uri().to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn where_the_scheme_starts() {
        assert_eq!(
            uris("+https://a.example/ -ftp://b.example/"),
            ["https://a.example/", "ftp://b.example/"]
        );
        assert!(uris("9p://fs.example/share and 3com:x").is_empty());
        assert_eq!(
            uris("the FAQ.http://a.example/ page"),
            ["http://a.example/"]
        );
        assert_eq!(
            uris("svn+ssh://a.example/r git+https://b.example/r"),
            ["svn+ssh://a.example/r", "git+https://b.example/r"]
        );
        assert_eq!(
            uris("=3Dhttps://a.example/ or=A0https://b.example/"),
            ["https://a.example/", "https://b.example/"]
        );
        assert_eq!(
            uris("=20http://a.example/ url=abc://h/"),
            ["http://a.example/", "abc://h/"]
        );
        // A prose-opaque scheme after a full stop.
        assert_eq!(uris("write.mailto:a@b.example"), ["mailto:a@b.example"]);
    }

    #[test]
    fn opaque_schemes_with_conditions() {
        assert_eq!(
            uris("pay bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT"),
            ["bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT"]
        );
        assert_eq!(
            uris("sms:+15105550101?body=hi sms:5 sms:?b=1"),
            ["sms:+15105550101?body=hi", "sms:5", "sms:?b=1"]
        );
        assert!(uris("\"sms:GetApp\" sms:x").is_empty());
        assert_eq!(
            uris("matrix:r/room:example.org"),
            ["matrix:r/room:example.org"]
        );
        assert!(uris("matrix:get(y) matrix:u").is_empty());
        assert_eq!(uris("file:/etc/motd."), ["file:/etc/motd"]);
        assert!(uris("file:/ file:x file:/.").is_empty());
        for t in ["geo::Point", "bitcoin::Txid", "sms::x", "file::Spec"] {
            assert!(uris(t).is_empty(), "{t}");
        }
    }

    #[test]
    fn xml_elements_are_no_uris() {
        for t in [
            "<dav:href>",
            "<soap:Body>",
            "<xsl:template>",
            "<geo:lat>51.5</geo:lat>",
            "<tel:name>x</tel:name>",
            "</news:title>",
            "</foo:bar> </a.b:c>",
        ] {
            assert!(uris(t).is_empty(), "{t}");
        }
        // A local mailbox, a URL: label, and what is no single name.
        assert_eq!(uris("List-Post: <mailto:root>"), ["mailto:root"]);
        assert_eq!(uris("<URL:about:blank>"), ["about:blank"]);
        assert_eq!(
            uris("<geo:1,2> <urn:a:b> <news:comp.lang.c>"),
            ["geo:1,2", "urn:a:b", "news:comp.lang.c"]
        );
        // What follows the element is scanned as usual.
        assert_eq!(
            uris("<dav:href>http://a.example/x</dav:href>"),
            ["http://a.example/x"]
        );
    }

    #[test]
    fn html_references_end_a_bare_uri() {
        assert_eq!(
            uris("&lt;http://c.example/z&gt; &quot;http://d/q&quot;"),
            ["http://c.example/z", "http://d/q"]
        );
        for t in [
            "&#60;http://e.example/&#62;",
            "&#x3C;http://e.example/&#x3e;",
            "&#X22;http://e.example/&#0034;",
            "http://e.example/&#x00022;x",
            "http://e.example/&GT;",
        ] {
            assert_eq!(uris(t), ["http://e.example/"], "{t}");
        }
        // `&amp;` and other references stay; so does a `&` that is none.
        assert_eq!(
            uris("http://e.example/?a=1&amp;b=2&c&#61;x"),
            ["http://e.example/?a=1&amp;b=2&c&#61;x"]
        );
        // No `;`, no reference; and no bracket rules come with them.
        assert_eq!(uris("http://e.example/x&lt"), ["http://e.example/x&lt"]);
        assert_eq!(
            uris("&lt;http://e.example/a-\n b&gt;"),
            ["http://e.example/a-b"]
        );
    }

    #[test]
    fn an_unmatched_bracket_ends_a_bare_uri() {
        assert_eq!(
            uris("(see http://a.example/x_(y))"),
            ["http://a.example/x_(y)"]
        );
        assert_eq!(uris("(http://a.example/x)more"), ["http://a.example/x"]);
        assert_eq!(
            uris("[t](https://t.example/)[m](mailto:m@t.example)"),
            ["https://t.example/", "mailto:m@t.example"]
        );
        assert_eq!(uris("http://a.example/)(x)"), ["http://a.example/"]);
        assert_eq!(uris("http://[::1]/a]"), ["http://[::1]/a"]);
        // Each kind on its own.
        assert_eq!(uris("http://a.example/(x]"), ["http://a.example/(x"]);
        assert_eq!(uris("http://a.example/[x)"), ["http://a.example/"]);
        // Across a hyphen joining two lines, and after a dangling `//`.
        assert_eq!(
            uris("(http://a.example/b-\n(c)d) e"),
            ["http://a.example/b-(c)d"]
        );
        assert_eq!(
            uris("(http://a.example/(b-\nc)d) e"),
            ["http://a.example/(b-c)d"]
        );
        assert_eq!(
            uris("(at http://\n  www.example.org/x) now"),
            ["http://www.example.org/x"]
        );
    }

    #[test]
    fn a_trailing_opening_paren_is_trimmed() {
        assert_eq!(uris("http://a.example/( flaky)"), ["http://a.example/"]);
        assert_eq!(uris("http://a.example/x((."), ["http://a.example/x"]);
        assert_eq!(uris("http://a.example/(x"), ["http://a.example/(x"]);
        // `[` is no sentence punctuation.
        assert_eq!(uris("mailto:a@b.example[ x"), ["mailto:a@b.example["]);
    }

    #[test]
    fn brackets_cost_linear_time() {
        // Every colon of one long run asks where brackets end it: the
        // notes answer each without reading the run again (reading it
        // would take minutes here). All but those near the end are too
        // long.
        let t = "a://(b)".repeat(100_000);
        let f =
            Finder::builder().any_scheme(true).rejected(true).build().unwrap();
        let n = f
            .items(t.as_bytes())
            .filter(|i| {
                matches!(i, Item::Rejected(r)
                    if matches!(r.reason(), RejectReason::TooLong { .. }))
            })
            .count();
        assert!(n > 90_000, "{n}");
    }

    #[test]
    fn emphasis_markup_is_trimmed_in_pairs() {
        for t in [
            "*http://a.example/x*.",
            "_http://a.example/x_",
            "**http://a.example/x**",
            "_*http://a.example/x*_",
            "~http://a.example/x~!",
            "(*http://a.example/x*)",
            "\u{201c}*http://a.example/x*\u{201d}",
            "say\u{a0}*http://a.example/x*",
        ] {
            assert_eq!(uris(t), ["http://a.example/x"], "{t}");
        }
        // Unpaired, or not at the start of a word: kept.
        assert_eq!(uris("http://a.example/x_"), ["http://a.example/x_"]);
        assert_eq!(uris("a_http://a.example/x_"), ["http://a.example/x_"]);
        assert_eq!(uris("*http://a.example/x"), ["http://a.example/x"]);
        assert_eq!(uris("**http://a.example/x*"), ["http://a.example/x*"]);
        assert_eq!(uris("_http://a.example/x*"), ["http://a.example/x*"]);
        // Trimmed once.
        assert_eq!(uris("*http://a.example/x**"), ["http://a.example/x*"]);
    }

    #[test]
    fn apostrophes_by_quote_and_count() {
        for t in [
            "'http://a.example/x'",
            "`http://a.example/x'",
            "``http://a.example/x''",
            "'_http://a.example/x_'",
            "http://a.example/x'.",
        ] {
            assert_eq!(uris(t), ["http://a.example/x"], "{t}");
        }
        assert_eq!(uris("http://a.example/a'b'"), ["http://a.example/a'b'"]);
        assert_eq!(uris("http://a.example/''"), ["http://a.example/''"]);
        assert_eq!(uris("http://a.example/'''"), ["http://a.example/''"]);
        assert_eq!(uris("'http://a.example/it's'"), ["http://a.example/it's"]);
    }

    #[test]
    fn long_runs_of_markup_cost_linear_time() {
        let mut t = "*".repeat(200_000);
        t.push_str("http://a.example/x");
        t.push_str(&"*".repeat(10));
        assert_eq!(uris(&t), ["http://a.example/x**********"]);
        // One run far longer than a URI may be: the search jumps over
        // its colons (from windows that start past the input's start).
        let t = "*http://a.example/x".repeat(30_000);
        assert_eq!(uris(&t).len(), 1);
        let t = "*_~http://a.example/x~_* ".repeat(20_000);
        assert_eq!(uris(&t).len(), 20_000);
    }

    #[test]
    fn a_bad_host_is_cut_at_debris() {
        for t in [
            "https://example.org*",
            "https://example.org* (see note)",
            "https://example.org*/path",
            "see https://example.org-- now",
            "see https://example.org---",
            "<a href='https://example.org'/>",
        ] {
            assert_eq!(uris(t), ["https://example.org"], "{t}");
        }
        assert_eq!(uris("ftp://me@example.org'"), ["ftp://me@example.org"]);
        // Any other fault of the host rejects the whole.
        for t in [
            "https://example.org-/",
            "https://pr--<N>.example.org/",
            "https://example.org--.",
            "https://-x.example.org*",
            "https://example.org--)",
        ] {
            assert!(uris(t).is_empty(), "{t}");
        }
        // Not IP-based: the host is a reg-name, `*` and `'` are fine.
        assert_eq!(uris("foo://a*b'c/"), ["foo://a*b'c/"]);
    }

    #[test]
    fn dots_alone_are_nothing() {
        for t in [
            "\"file://...\",",
            "\"s3://...\"",
            "<news:...>",
            "<file://..>",
            "mailto:... ",
            "<URL:x-y:..>",
        ] {
            assert!(uris(t).is_empty(), "{t}");
        }
        assert_eq!(uris("<file:///...>"), ["file:///..."]);
        assert_eq!(uris("<news:a...>"), ["news:a..."]);
    }
}

pub(crate) mod support {
    use super::*;

    /// splitmix64 from `seed`: deterministic pseudo-random numbers for
    /// tests that generate their inputs.
    pub(crate) fn splitmix(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }

    /// A reader that hands out at most `n` bytes per call.
    pub(crate) struct Chunked<'a>(pub(crate) &'a [u8], pub(crate) usize);

    impl io::Read for Chunked<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// An owned reader that hands out at most `n` bytes per call.
    pub(crate) struct ChunkedOwned(
        pub(crate) Vec<u8>,
        pub(crate) usize,
        pub(crate) usize,
    );

    impl io::Read for ChunkedOwned {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let rest = &self.0[self.1..];
            let n = rest.len().min(self.2).min(out.len());
            out[..n].copy_from_slice(&rest[..n]);
            self.1 += n;
            Ok(n)
        }
    }

    pub(crate) fn check_stream_equals_slice(t: &[u8]) {
        let f = Finder::builder()
            .rejected(true)
            .abbreviated(true)
            .build()
            .unwrap();
        let want: Vec<Item<'static>> = f
            .items(t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect();
        for n in 1..=9 {
            let got: Vec<_> = f
                .stream(Chunked(t, n))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert_eq!(got, want, "chunk size {n}: {:?}", bstr::BStr::new(t));
            let mut fed = Vec::new();
            let mut feeder = f.feeder().count_lines(true);
            for chunk in t.chunks(n) {
                feeder.feed(chunk, &mut |it| fed.push(it));
            }
            feeder.finish(&mut |it| fed.push(it));
            assert_eq!(fed, want, "feeder, chunk size {n}");
            let ahead: Vec<_> = f
                .stream_read_ahead(ChunkedOwned(t.to_vec(), 0, n))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert_eq!(ahead, want, "read-ahead, chunk size {n}");
        }
    }
}
