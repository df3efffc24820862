//! The urifind command (interim: prints URIs found on stdin or in files).
use std::io::{self, Write};

fn main() {
    let finder = urifind::Finder::new();
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let mut status = 1;
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let mut run = |r: Box<dyn io::Read>| {
        for item in finder.stream(r) {
            match item {
                Ok(urifind::scan::Item::Match(m)) => {
                    status = 0;
                    out.write_all(m.uri()).unwrap();
                    out.write_all(b"\n").unwrap();
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("urifind: {e}");
                    std::process::exit(2);
                }
            }
        }
    };
    if paths.is_empty() {
        run(Box::new(io::stdin()));
    } else {
        for p in paths {
            run(Box::new(std::fs::File::open(p).unwrap()));
        }
    }
    out.flush().unwrap();
    std::process::exit(status);
}
