//! Throughput of the scanner against the limit (memchr over `:`), the
//! `linkify` crate and a `regex` URL extractor, on generated corpora; and of
//! the scanner alone on the adversarial inputs next to prose.
//!
//! Run: `cargo bench --bench scan -- --warm-up-time 1 --measurement-time 3`
//! (`-- iri/` for the IRI groups alone, `-- rows/` for 4 KiB texts
//! one after another, a scan each or one scanner kept)
//! then `python3 corpora/gen/report.py` for MB/s and ratios. Groups: the
//! generated corpora (prose, rfc, mail, dense, nouri), the seed draft
//! repeated (draft, when `../shared/seeds` is there), any text file named
//! by `URIFIND_BENCH_TEXT` (text), `adversarial`, and `rows`. Every
//! benchmark checks its answer: the count computed once before timing is
//! asserted inside the timed loop.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use linkify::{LinkFinder, LinkKind};
use regex::bytes::Regex;
use urifind::scan::Item;
use urifind::Finder;

#[path = "../corpora/gen/gen.rs"]
mod gen;

/// Size of each realistic corpus.
const REALISTIC_SIZE: usize = 4 << 20;
/// Size of each adversarial input (and of the prose next to them).
const ADVERSARIAL_SIZE: usize = 1 << 20;
/// The fixed seed: every run measures the same bytes.
const SEED: u64 = 2003;
/// The regex extractor's pattern (the one ripgrep is timed with).
const URL_PATTERN: &str = r#"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"]+"#;

fn memchr_count(hay: &[u8]) -> usize {
    memchr::memchr_iter(b':', hay).count()
}

fn stream_count(finder: &Finder, hay: &[u8]) -> usize {
    let mut n = 0;
    for item in finder.stream(hay) {
        if let Item::Match(_) = item.expect("reading a slice cannot fail") {
            n += 1;
        }
    }
    n
}

/// One group: the five contenders over `hay`, each checking its count.
fn contenders(c: &mut Criterion, name: &str, hay: &[u8]) {
    let finder = Finder::new();
    let mut lf = LinkFinder::new();
    lf.kinds(&[LinkKind::Url]);
    let re = Regex::new(URL_PATTERN).unwrap();
    // linkify wants &str: real text that is not UTF-8 is made so for all
    // contenders alike.
    let owned;
    let hay = match std::str::from_utf8(hay) {
        Ok(_) => hay,
        Err(_) => {
            owned = String::from_utf8_lossy(hay).into_owned().into_bytes();
            &owned[..]
        }
    };
    let text = std::str::from_utf8(hay).unwrap();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(hay.len() as u64));

    let n = memchr_count(hay);
    g.bench_function("memchr", |b| {
        b.iter(|| assert_eq!(memchr_count(black_box(hay)), n))
    });

    let n = finder.find_iter(hay).count();
    eprintln!("{name}: urifind finds {n} URIs in {} bytes", hay.len());
    g.bench_function("urifind", |b| {
        b.iter(|| assert_eq!(finder.find_iter(black_box(hay)).count(), n))
    });

    let n_stream = stream_count(&finder, hay);
    assert_eq!(n_stream, n, "{name}: stream and slice differ");
    g.bench_function("urifind-stream", |b| {
        b.iter(|| assert_eq!(stream_count(&finder, black_box(hay)), n))
    });

    let n = lf.links(text).count();
    eprintln!("{name}: linkify finds {n}");
    g.bench_function("linkify", |b| {
        b.iter(|| assert_eq!(lf.links(black_box(text)).count(), n))
    });

    let n = re.find_iter(hay).count();
    eprintln!("{name}: regex finds {n}");
    g.bench_function("regex", |b| {
        b.iter(|| assert_eq!(re.find_iter(black_box(hay)).count(), n))
    });
    g.finish();
}

/// `bytes` repeated up to `size` bytes.
fn repeat_to(bytes: &[u8], size: usize) -> Vec<u8> {
    bytes.iter().copied().cycle().take(size.max(bytes.len())).collect()
}

fn realistic(c: &mut Criterion) {
    for kind in ["prose", "rfc", "mail", "dense", "nouri"] {
        let hay = gen::generate(kind, REALISTIC_SIZE, SEED).unwrap();
        contenders(c, kind, &hay);
    }
    // Real text: the seed draft (beside the repository, as in CI), and any
    // file named by URIFIND_BENCH_TEXT (e.g. documentation concatenated).
    let draft = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/seeds/draft-fielding-uri-rfc2396bis-00.txt"
    );
    if let Ok(d) = std::fs::read(draft) {
        contenders(c, "draft", &repeat_to(&d, REALISTIC_SIZE));
    }
    if let Some(p) = std::env::var_os("URIFIND_BENCH_TEXT") {
        let t = std::fs::read(&p).expect("URIFIND_BENCH_TEXT names a file");
        contenders(c, "text", &t);
    }
}

fn adversarial(c: &mut Criterion) {
    let plain = Finder::new();
    let abbrev = Finder::builder().abbreviated(true).build().unwrap();
    let mut g = c.benchmark_group("adversarial");
    let mut kinds = vec!["prose"];
    kinds.extend(gen::ADVERSARIAL.iter().map(|&(k, _)| k));
    for kind in kinds {
        // `www.` triggers count only with abbreviated URIs asked for.
        let finder = if kind == "adv-www-run" { &abbrev } else { &plain };
        let hay = gen::generate(kind, ADVERSARIAL_SIZE, SEED).unwrap();
        g.throughput(Throughput::Bytes(hay.len() as u64));
        let n = finder.find_iter(&hay).count();
        g.bench_function(kind, |b| {
            b.iter(|| assert_eq!(finder.find_iter(black_box(&hay)).count(), n))
        });
    }
    g.finish();
}

/// Sentences with IRIs in several scripts, bare and delimited.
const IRI_SENTENCES: &str = "Le menu est sur http://www.example.fr/café et \
    la carte sur http://www.example.fr/carte.\n\
    Статья: http://ru.example.org/wiki/Страница, Δες \
    http://www.example.gr/σελίδα τώρα.\n\
    詳細はhttp://www.example.jp/を参照。北大的 http://北京大学.cn 不变。\n\
    日本語版は <http://ja.example.org/wiki/日本語> です。\
    また「http://ja.example.org/wiki/索引」も。\n";

/// Scanning with IRIs against without: the prose corpus (the bar: IRIs
/// cost at most 10% there), and prose with a paragraph of IRIs in every
/// 4 KiB.
fn iri(c: &mut Criterion) {
    let plain = Finder::new();
    let iri = Finder::builder().iri(true).build().unwrap();
    let prose = gen::generate("prose", REALISTIC_SIZE, SEED).unwrap();
    let mut mixed = Vec::with_capacity(prose.len() + prose.len() / 8);
    for chunk in prose.chunks(4096) {
        mixed.extend_from_slice(chunk);
        mixed.extend_from_slice(IRI_SENTENCES.as_bytes());
    }
    for (name, hay) in [("prose", &prose), ("prose-with-iris", &mixed)] {
        let mut g = c.benchmark_group(format!("iri/{name}"));
        g.throughput(Throughput::Bytes(hay.len() as u64));
        for (label, f) in [("urifind", &plain), ("urifind-iri", &iri)] {
            let n = f.find_iter(hay).count();
            eprintln!("iri/{name}: {label} finds {n}");
            g.bench_function(label, |b| {
                b.iter(|| assert_eq!(f.find_iter(black_box(hay)).count(), n))
            });
        }
        g.finish();
    }
}

/// Many short texts (the prose corpus cut into 4 KiB rows, as a column
/// of documents comes): a scan per row from the finder against one
/// [`urifind::scan::Scanner`] kept from row to row.
fn rows(c: &mut Criterion) {
    let f = Finder::new();
    let prose = gen::generate("prose", REALISTIC_SIZE, SEED).unwrap();
    let rows: Vec<&[u8]> = prose.chunks(4096).collect();
    let n: usize = rows.iter().map(|r| f.find_iter(r).count()).sum();
    let mut g = c.benchmark_group("rows/4KiB");
    g.throughput(Throughput::Bytes(prose.len() as u64));
    g.bench_function("find_iter", |b| {
        b.iter(|| {
            let k: usize =
                rows.iter().map(|r| f.find_iter(black_box(r)).count()).sum();
            assert_eq!(k, n)
        })
    });
    g.bench_function("scanner", |b| {
        let mut s = f.scanner();
        b.iter(|| {
            let k: usize =
                rows.iter().map(|r| s.find_iter(black_box(r)).count()).sum();
            assert_eq!(k, n)
        })
    });
    g.finish();
}

criterion_group!(benches, realistic, adversarial, iri, rows);
criterion_main!(benches);
