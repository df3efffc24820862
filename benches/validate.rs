//! Validating a list of real-world URIs (corpora/grammar/realworld.txt):
//! urifind's validator in each grammar (with and without the scheme
//! rules) against `fluent-uri` (a strict RFC 3986 parser) and
//! `url::Url::parse` (WHATWG parsing, which allocates), in the same run.
//!
//! Run with `cargo bench --bench validate`. Throughput is reported in
//! bytes of URI text per second. Each closure asserts its count of valid
//! URIs, so no work is optimized away and the comparison stays honest.
//!
//! Measured on the 2-core build machine (2026-11-22, `--warm-up-time 1
//! --measurement-time 3`, median of the samples, 328 URIs, 15403 bytes):
//! urifind rfc3986 1696 MB/s, rfc2396 1103 MB/s, rfc2396bis 1035 MB/s,
//! rfc2396bis with scheme rules 896 MB/s, rfc3986 with scheme rules
//! 879 MB/s; fluent-uri 1027 MB/s; url 150 MB/s. The machine is shared,
//! so absolute figures swing by up to a factor of two between runs; the
//! ratios within one run hold better.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use urifind::grammar::{Grammar, IriValidator, Validator};

const LIST: &str = include_str!("../corpora/grammar/realworld.txt");

fn uris() -> Vec<&'static str> {
    LIST.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

fn bench(c: &mut Criterion) {
    let uris = uris();
    let bytes: usize = uris.iter().map(|u| u.len()).sum();
    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Bytes(bytes as u64));

    let ours = [
        ("urifind-rfc2396bis", Grammar::Rfc2396bis, false),
        ("urifind-rfc2396", Grammar::Rfc2396, false),
        ("urifind-rfc3986", Grammar::Rfc3986, false),
        ("urifind-rfc2396bis-rules", Grammar::Rfc2396bis, true),
        ("urifind-rfc3986-rules", Grammar::Rfc3986, true),
    ];
    for (name, g, rules) in ours {
        let v = Validator::new(g).scheme_rules(rules);
        let expected =
            uris.iter().filter(|&&u| v.is_valid(u.as_bytes())).count();
        group.bench_function(name, |b| {
            b.iter(|| {
                let n = uris
                    .iter()
                    .filter(|&&u| v.validate(black_box(u.as_bytes())).is_ok())
                    .count();
                assert_eq!(n, expected);
                n
            })
        });
    }

    // RFC 3987's grammar over the same list (ASCII, so the IRI parser's
    // ucschar branch is only reached by the bytes that end a run).
    let iri = IriValidator::new();
    let expected =
        uris.iter().filter(|&&u| iri.is_valid(u.as_bytes())).count();
    group.bench_function("urifind-iri", |b| {
        b.iter(|| {
            let n = uris
                .iter()
                .filter(|&&u| iri.validate(black_box(u.as_bytes())).is_ok())
                .count();
            assert_eq!(n, expected);
            n
        })
    });

    let expected = uris
        .iter()
        .filter(|&&u| fluent_uri::Uri::<&str>::parse(u).is_ok())
        .count();
    group.bench_function("fluent-uri", |b| {
        b.iter(|| {
            let n = uris
                .iter()
                .filter(|&&u| {
                    fluent_uri::Uri::<&str>::parse(black_box(u)).is_ok()
                })
                .count();
            assert_eq!(n, expected);
            n
        })
    });

    let expected =
        uris.iter().filter(|&&u| url::Url::parse(u).is_ok()).count();
    group.bench_function("url", |b| {
        b.iter(|| {
            let n = uris
                .iter()
                .filter(|&&u| url::Url::parse(black_box(u)).is_ok())
                .count();
            assert_eq!(n, expected);
            n
        })
    });
    group.finish();

    // The counts, for the record (the bench prints them once).
    let v = Validator::new(Grammar::Rfc3986);
    let ours = uris.iter().filter(|&&u| v.is_valid(u.as_bytes())).count();
    let theirs = uris
        .iter()
        .filter(|&&u| fluent_uri::Uri::<&str>::parse(u).is_ok())
        .count();
    println!(
        "{} URIs, {bytes} bytes; valid RFC 3986: urifind {ours}, fluent-uri \
         {theirs}",
        uris.len()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
