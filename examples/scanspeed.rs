//! Quick throughput of the scanner over files or repeated patterns, for
//! trying an input before it goes into `benches/scan.rs` (criterion is the
//! reference; this is a rough first look).
//!
//! `cargo run --release --example scanspeed -- [--repeat PATTERN SIZE] [FILE...]`
//! prints MB/s (best of 5 passes) and the match count for each input.
//! `PATTERN` takes `\n`, `\r` and `\t` escapes.

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
