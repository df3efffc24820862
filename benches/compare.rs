//! urifind's library against the `linkify` crate, in memory, one thread,
//! on the inputs the project's speed goals name: URI-dense text made
//! here, and real text read from files.
//!
//! * `many`: `http://a.example/x ` repeated to 16 MiB (883,011 URIs);
//! * `brk`: `<http://a.example/\n  x` repeated to 16 MiB (an angle bracket
//!   that never closes before every URI);
//! * `qbrk`: the same with `"` for `<` (the quotes pair across each line
//!   break: every other URI is rejoined across it, the others are bare);
//! * `doc`: the file named by `URIFIND_BENCH_DOC` (for instance every text
//!   file under `/usr/share/doc`, concatenated);
//! * `mail`: the file named by `URIFIND_BENCH_MAIL` (for instance mail
//!   messages, concatenated).
//!
//! Each group also times `urifind-split`: the same search cut into parts
//! (`Finder::split`) and run on every core, then joined.
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

/// The matches in `hay` counted by searching it in parts on `threads`
/// threads and joining them (as the command does for a large file).
fn split_count(finder: &Finder, hay: &[u8], threads: usize) -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let split = finder.split(hay, 4 * threads);
    let next = AtomicUsize::new(0);
    let mut done: Vec<_> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= split.len() {
                            return mine;
                        }
                        let mut p = split.part(k);
                        p.by_ref().for_each(drop);
                        mine.push((k, p.journal()));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    done.sort_by_key(|d| d.0);
    let (mut n, mut from) = (0, 0);
    let mut prev = done[0].1.clone();
    for (k, next) in done.into_iter().skip(1) {
        match split.join(&prev, &next) {
            Some(j) => {
                n += j.keep - from;
                (prev, from) = (next, j.from);
            }
            None => {
                n += split.rescan_keeps(&prev) - from;
                let mut p = split.rescan(&prev, k);
                p.by_ref().for_each(drop);
                (prev, from) = (p.journal(), 0);
            }
        }
    }
    n + prev.items() - from
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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(split_count(&finder, hay, threads), n_u);
    g.bench_function("urifind-split", |b| {
        b.iter(|| {
            assert_eq!(split_count(&finder, black_box(hay), threads), n_u)
        })
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
