//! Mail mode against its floor, on the same mbox: `mail` reads every
//! message (mbox split, MIME walk, decoding with offset maps, HTML
//! parsing, URI scanning); `parse_only` is what parsing alone costs
//! (mail-parser's mbox reader and parser, which decodes every part, and
//! mail mode's HTML tokenizer counting the links of HTML parts; no
//! scanning); `raw` is the
//! plain scanner over the same bytes. The mbox is synthetic list traffic
//! plus `corpora/mail/` (see `common/mbox.rs`), or the files named by
//! `URIFIND_MAIL_BENCH` (`:`-separated).
//!
//! The `hostile` group reads each hostile message of `corpora/gen`
//! (kinds `mail-*`) at 1 and 2 MiB, in mail mode and in raw mode: the
//! time of mail mode should double with the size (it is linear) and stay
//! within a few times raw mode's.
//!
//! Run: `cargo bench --bench mail -- --warm-up-time 1 --measurement-time 5`
//! (`-- hostile` for the hostile messages alone).
//! Every benchmark checks its answer inside the timed loop.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use urifind::mail::MailFinder;
use urifind::Finder;

#[path = "../corpora/gen/gen.rs"]
mod gen;
#[path = "common/mbox.rs"]
mod mbox;

/// Size of the synthetic traffic.
const SIZE: usize = 8 << 20;

fn bench(c: &mut Criterion) {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/mail");
    let (name, input) = mbox::input(SIZE, &dir);
    let mf = MailFinder::new(Finder::new());
    let finder = Finder::new();
    let mail_n = mbox::mail_mode(&mf, &input);
    let floor_n = mbox::parse_only(&input);
    let raw_n = finder.find_iter(&input).count();
    let mut g = c.benchmark_group(format!("mail-{name}"));
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.sample_size(10);
    g.bench_function("mail", |b| {
        b.iter(|| assert_eq!(mbox::mail_mode(&mf, black_box(&input)), mail_n))
    });
    g.bench_function("parse_only", |b| {
        b.iter(|| assert_eq!(mbox::parse_only(black_box(&input)), floor_n))
    });
    g.bench_function("raw", |b| {
        b.iter(|| {
            assert_eq!(finder.find_iter(black_box(&input)).count(), raw_n)
        })
    });
    g.finish();
}

/// The hostile messages, each at two sizes, mail mode and raw mode.
fn hostile(c: &mut Criterion) {
    let mf = MailFinder::new(Finder::new());
    let finder = Finder::new();
    let mut g = c.benchmark_group("hostile");
    g.sample_size(10);
    for &(kind, _) in gen::HOSTILE_MAIL {
        for mib in [1, 2] {
            let input = gen::generate(kind, mib << 20, 1).expect("a kind");
            let mail_n = mbox::mail_mode(&mf, &input);
            let raw_n = finder.find_iter(&input).count();
            g.throughput(Throughput::Bytes(input.len() as u64));
            g.bench_function(format!("{kind}/{mib}M/mail"), |b| {
                b.iter(|| {
                    assert_eq!(mbox::mail_mode(&mf, black_box(&input)), mail_n)
                })
            });
            g.bench_function(format!("{kind}/{mib}M/raw"), |b| {
                b.iter(|| {
                    assert_eq!(
                        finder.find_iter(black_box(&input)).count(),
                        raw_n
                    )
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench, hostile);
criterion_main!(benches);
