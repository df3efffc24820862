//! Every scheme of each family the contract names is found through every
//! path of the scanner: a slice, a stream cut anywhere, a feeder, and
//! colon-dense text where the scanner filters colons in bulk. The filters
//! are derived from the families' lists; this is what fails when one is
//! not.

use urifind::grammar::schemes::{fits_prose_form, IP_BASED, PROSE_OPAQUE};
use urifind::scan::Item;
use urifind::Finder;

/// A reader that hands out at most `n` bytes per call.
struct Chunked<'a>(&'a [u8], usize);

impl std::io::Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(self.1).min(out.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// The URIs found in `text` by every path, after checking they agree.
fn found(text: &[u8]) -> Vec<Vec<u8>> {
    let f = Finder::new();
    let slice: Vec<Vec<u8>> =
        f.find_iter(text).map(|m| m.uri().to_vec()).collect();
    for n in [1, 7, 64, 4096] {
        let stream: Vec<Vec<u8>> = f
            .stream(Chunked(text, n))
            .filter_map(|it| match it.unwrap() {
                Item::Match(m) => Some(m.uri().to_vec()),
                _ => None,
            })
            .collect();
        assert_eq!(stream, slice, "stream, reads of {n} bytes");
        let mut fed = Vec::new();
        let mut feeder = f.feeder();
        let mut keep = |it: Item<'static>| {
            if let Item::Match(m) = it {
                fed.push(m.uri().to_vec());
            }
        };
        for chunk in text.chunks(n) {
            feeder.feed(chunk, &mut keep);
        }
        feeder.finish(&mut keep);
        assert_eq!(fed, slice, "feeder, chunks of {n} bytes");
    }
    slice
}

/// Texts holding `uri` once, in prose, and in colon-dense text with the
/// URI at every offset of the scanner's 64-byte filter blocks.
fn texts(uri: &str) -> Vec<String> {
    let mut t = vec![
        format!("see {uri} here."),
        format!("say \"{uri}\" here."),
        format!("at <{uri}> here."),
    ];
    for pad in 0..70 {
        let dense = "a:".repeat(12);
        let tail = "b:".repeat(40);
        t.push(format!("{dense}{} {uri} {tail}", "x".repeat(pad)));
    }
    t
}

fn check_found(uri: &str) {
    for t in texts(uri) {
        assert_eq!(found(t.as_bytes()), [uri.as_bytes()], "{t:?}");
    }
}

#[test]
fn every_prose_opaque_scheme_is_found_everywhere() {
    assert!(!PROSE_OPAQUE.is_empty());
    for s in PROSE_OPAQUE {
        // A body every opaque scheme takes (`data` needs `type/sub,`,
        // `sms` a `+` first, `matrix` a `/`), but `file`, whose body
        // is a path.
        let body = if *s == "file" { "/a/b,c" } else { "+1/b,c" };
        assert!(fits_prose_form(s.as_bytes(), body.as_bytes()), "{s}");
        check_found(&format!("{s}:{body}"));
        check_found(&format!("{}:{body}", s.to_ascii_uppercase()));
        // Never before a second colon in prose: a name in code. (Angle
        // brackets take a registered scheme in any form.)
        for t in
            texts(&format!("{s}::Name")).iter().filter(|t| !t.contains('<'))
        {
            assert!(found(t.as_bytes()).is_empty(), "{t:?}");
        }
    }
}

#[test]
fn every_ip_based_scheme_is_found_everywhere() {
    assert!(!IP_BASED.is_empty());
    for s in IP_BASED {
        check_found(&format!("{s}://a.example/x"));
        check_found(&format!("{}://a.example/x", s.to_ascii_uppercase()));
        // The scheme rules apply to each: no host of 256.
        let bad = format!("see {s}://256.1.1.1/ here");
        assert!(found(bad.as_bytes()).is_empty(), "{bad}");
    }
}

/// A scheme in neither list is found bare only with `//`: the lists are
/// what makes the difference.
#[test]
fn other_schemes_need_slashes_in_prose() {
    for t in texts("foo:a/b,c") {
        assert!(found(t.as_bytes()).is_empty(), "{t:?}");
    }
    assert_eq!(found(b"see foo://a.example/x here"), [b"foo://a.example/x"]);
}
