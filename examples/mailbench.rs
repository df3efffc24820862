//! One pass of mail mode, of its parse-only floor or of the raw scanner
//! over an mbox, for whole-process timing (`time`, `hyperfine`), or the
//! benchmark's mbox written to a file.
//!
//! `cargo run --release --example mailbench -- write FILE [MB]` writes the
//! synthetic list traffic of `benches/common/mbox.rs` (default 64 MB; the files
//! of `URIFIND_MAIL_BENCH` instead when set); `... -- mail|floor|raw
//! FILE` reads FILE once and prints the count (URIs, hrefs, URIs).

#[path = "../corpora/gen/gen.rs"]
mod gen;
#[path = "../benches/common/mbox.rs"]
mod mbox;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, file) = match &args[..] {
        [m, f, ..] => (m.as_str(), f.as_str()),
        _ => {
            eprintln!(
                "usage: mailbench write FILE [MB] | mail|floor|raw FILE"
            );
            std::process::exit(2);
        }
    };
    if mode == "write" {
        let mb: usize = args.get(2).map_or(64, |s| s.parse().expect("MB"));
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpora/mail");
        let (_, data) = mbox::input(mb << 20, &dir);
        std::fs::write(file, &data).expect("writable file");
        println!("{} bytes", data.len());
        return;
    }
    let input = std::fs::read(file).expect("readable file");
    let n = match mode {
        "mail" => mbox::mail_mode(
            &urifind::mail::MailFinder::new(urifind::Finder::new()),
            &input,
        ),
        "floor" => mbox::parse_only(&input),
        "raw" => urifind::Finder::new().find_iter(&input).count(),
        _ => panic!("mode: mail, floor or raw"),
    };
    println!("{n}");
}
