//! Writes a generated corpus to stdout:
//! `cargo run --release --example gencorpus -- KIND SIZE_BYTES SEED`.
//!
//! `KIND` is one of the kinds of `corpora/gen/gen.rs` (`list` prints them
//! with a description); `SIZE_BYTES` accepts a `K`, `M` or `G` suffix
//! (powers of 1024). The output is streamed: any size takes little memory.

use std::io::{self, Write};

#[path = "../corpora/gen/gen.rs"]
mod gen;

fn parse_size(s: &str) -> Option<u64> {
    let (num, mul) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mul)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("list") {
        for k in gen::REALISTIC {
            println!("{k}");
        }
        for (k, what) in gen::ADVERSARIAL.iter().chain(gen::HOSTILE_MAIL) {
            println!("{k}\t{what}");
        }
        return;
    }
    let usage = "usage: gencorpus KIND SIZE_BYTES[K|M|G] SEED  (or: list)";
    if args.len() != 3 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let size = parse_size(&args[1]).unwrap_or_else(|| {
        eprintln!("bad size '{}'\n{usage}", args[1]);
        std::process::exit(2)
    });
    let seed: u64 = args[2].parse().unwrap_or_else(|_| {
        eprintln!("bad seed '{}'\n{usage}", args[2]);
        std::process::exit(2)
    });
    let mut g = gen::Gen::new(&args[0], seed).unwrap_or_else(|| {
        eprintln!("unknown kind '{}'; kinds: {:?}", args[0], gen::kinds());
        std::process::exit(2)
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut left = size;
    let mut buf = Vec::with_capacity(1 << 16);
    while left > 0 {
        buf.clear();
        while buf.len() < 1 << 15 {
            g.next_piece(&mut buf);
        }
        // the expected URIs are for tests; not kept here
        drop(g.take_expected());
        let n = (buf.len() as u64).min(left) as usize;
        if let Err(e) = out.write_all(&buf[..n]) {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return;
            }
            eprintln!("gencorpus: {e}");
            std::process::exit(1);
        }
        left -= n as u64;
    }
    if let Err(e) = out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("gencorpus: {e}");
            std::process::exit(1);
        }
    }
}
