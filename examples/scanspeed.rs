//! Quick throughput of the scanner over files or repeated patterns, for
//! trying an input before it goes into `benches/scan.rs` (criterion is the
//! reference; this is a rough first look).
//!
//! `cargo run --release --example scanspeed -- [--repeat PATTERN SIZE] [FILE...]`
//! prints MB/s (best of 5 passes) and the match count for each input.
//! `PATTERN` takes `\n`, `\r` and `\t` escapes. With `ROWS=N` in the
//! environment each input is also cut into texts of `N` bytes, scanned
//! one after another with a `find_iter` each and with one `Scanner` kept
//! (best of 21 passes, the three ways taken in turn).

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--repeat" && i + 2 < args.len() {
            let pat = args[i + 1]
                .replace("\\n", "\n")
                .replace("\\r", "\r")
                .replace("\\t", "\t");
            let size: usize = args[i + 2].parse().expect("SIZE in bytes");
            let hay: Vec<u8> =
                pat.bytes().cycle().take(size.max(pat.len())).collect();
            inputs.push((format!("{:?}", args[i + 1]), hay));
            i += 3;
        } else {
            let hay = std::fs::read(&args[i]).expect("readable file");
            inputs.push((args[i].clone(), hay));
            i += 1;
        }
    }
    let finder = urifind::Finder::new();
    if let Some(n) = std::env::var("ROWS").ok().and_then(|v| v.parse().ok()) {
        for (name, hay) in &inputs {
            rows(&finder, name, hay, n);
        }
        return;
    }
    for (name, hay) in &inputs {
        let mut best = f64::INFINITY;
        let mut n = 0;
        for _ in 0..5 {
            let t = Instant::now();
            n = if std::env::var_os("STREAM").is_some() {
                finder
                    .stream(std::hint::black_box(&hay[..]))
                    .filter(|i| matches!(i, Ok(urifind::scan::Item::Match(_))))
                    .count()
            } else {
                finder.find_iter(std::hint::black_box(hay)).count()
            };
            best = best.min(t.elapsed().as_secs_f64());
        }
        let mbs = hay.len() as f64 / best / 1e6;
        println!("{mbs:>9.0} MB/s  {n:>8} URIs  {name}");
    }
}

/// `hay` whole, and cut into texts of `size` bytes scanned with a
/// `find_iter` each and with one `Scanner`: MB/s of each.
fn rows(finder: &urifind::Finder, name: &str, hay: &[u8], size: usize) {
    use std::hint::black_box;
    let rows: Vec<&[u8]> = hay.chunks(size.max(1)).collect();
    let mut scanner = finder.scanner();
    let mut best = [f64::INFINITY; 3];
    let mut counts = [0; 3];
    for _ in 0..21 {
        for (k, (b, n)) in best.iter_mut().zip(&mut counts).enumerate() {
            let t = Instant::now();
            *n = match k {
                0 => finder.find_iter(black_box(hay)).count(),
                1 => rows
                    .iter()
                    .map(|r| finder.find_iter(black_box(r)).count())
                    .sum(),
                _ => rows
                    .iter()
                    .map(|r| scanner.find_iter(black_box(r)).count())
                    .sum(),
            };
            *b = b.min(t.elapsed().as_secs_f64());
        }
    }
    let mbs = |k: usize| hay.len() as f64 / best[k] / 1e6;
    println!(
        "{:>7.0} MB/s whole ({} URIs), {:>7.0} MB/s rows of {size} with find_iter ({}), \
         {:>7.0} MB/s with one Scanner ({})  {name}",
        mbs(0), counts[0], mbs(1), counts[1], mbs(2), counts[2]
    );
}
