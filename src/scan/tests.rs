//! The scanner's tests across its rooms: slices, streams, feeders and
//! read-ahead agree; the colon filters change no item; abbreviations;
//! regressions found by the fuzzers.

use std::io;

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

    #[test]
    fn stream_equals_slice_for_every_chunk_size() {
        let f = Finder::builder().rejected(true).abbreviated(true).build();
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
        let f = Finder::builder().rejected(true).build();
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
            let on = b.build();
            let off = b.prefilter(false).build();
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
        for dir in ["corpora/cases", "../shared/cases"] {
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
}

mod abbreviated {
    use super::*;

    #[test]
    fn abbreviated_uris() {
        let f = Finder::builder().abbreviated(true).build();
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
        let f = Finder::builder().rejected(true).abbreviated(true).build();
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
