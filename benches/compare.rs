//! urifind's library against the `linkify` crate, in memory, one thread,
//! on the inputs the project's speed goals name: URI-dense text made
//! here, and real text read from files.
//!
//! * `many`: `http://a.example/x ` repeated to 16 MiB (883,011 URIs);
//! * `brk`: `<http://a.example/\n  x` repeated to 16 MiB (an angle bracket
//!   that never closes before every URI);
//! * `qbrk`: the same with `"` for `<` (every URI rejoined across its line
//!   break);
//! * `doc`: the file named by `URIFIND_BENCH_DOC` (for instance every text
//!   file under `/usr/share/doc`, concatenated);
//! * `mail`: the file named by `URIFIND_BENCH_MAIL` (for instance mail
//!   messages, concatenated).
//!
//! A real input whose variable is unset is skipped. Both contenders read
//! the same bytes (text that is not UTF-8 is repaired first, as `linkify`
//! takes `&str`) and count what they find; the count computed before
//! timing is asserted inside the timed loop.
//!
//! Run: `URIFIND_BENCH_DOC=doc.txt URIFIND_BENCH_MAIL=mail.txt cargo bench
//! --bench compare`. Throughput is in MB/s; the time per URI is the time
//! per iteration divided by the count printed for the input.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use linkify::{LinkFinder, LinkKind};
use urifind::Finder;

/// Size of each generated input.
const DENSE_SIZE: usize = 16 << 20;

/// `unit` repeated and cut to `size` bytes.
fn repeat_to(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

/// One group: urifind and linkify over `bytes`.
fn pair(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let hay = text.as_bytes();
    let finder = Finder::new();
    let mut lf = LinkFinder::new();
    lf.kinds(&[LinkKind::Url]);
    let n_u = finder.find_iter(hay).count();
    let n_l = lf.links(&text).count();
    eprintln!(
        "{name}: {} bytes, urifind finds {n_u} URIs, linkify {n_l} links",
        hay.len()
    );
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::BytesDecimal(hay.len() as u64));
    if hay.len() > 64 << 20 {
        g.sample_size(10);
    }
    g.bench_function("urifind", |b| {
        b.iter(|| assert_eq!(finder.find_iter(black_box(hay)).count(), n_u))
    });
    g.bench_function("linkify", |b| {
        b.iter(|| assert_eq!(lf.links(black_box(&text)).count(), n_l))
    });
    g.finish();
}

fn dense(c: &mut Criterion) {
    pair(c, "many", &repeat_to(b"http://a.example/x ", DENSE_SIZE));
    pair(c, "brk", &repeat_to(b"<http://a.example/\n  x", DENSE_SIZE));
    pair(c, "qbrk", &repeat_to(b"\"http://a.example/\n  x", DENSE_SIZE));
}

fn real(c: &mut Criterion) {
    for (name, var) in
        [("doc", "URIFIND_BENCH_DOC"), ("mail", "URIFIND_BENCH_MAIL")]
    {
        let Some(path) = std::env::var_os(var) else {
            eprintln!("{name}: skipped ({var} is not set)");
            continue;
        };
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{var}={}: {e}", std::path::Path::new(&path).display())
        });
        pair(c, name, &bytes);
    }
}

criterion_group!(benches, dense, real);
criterion_main!(benches);
