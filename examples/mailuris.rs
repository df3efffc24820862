//! The mail reader as a library user sees it: reads an mbox or a message
//! on standard input and prints, for each URI, where it came from.
//!
//! `cargo run --example mailuris < message.eml` prints one line per URI:
//! message number, part, context, raw byte span, then the URI (and what
//! a link's text shows when it differs). With `-q`, only the URIs.

use std::io::{self, Write};

use urifind::mail::{MailFinder, MailItem, Messages};
use urifind::Finder;

fn main() -> io::Result<()> {
    let quiet = std::env::args().any(|a| a == "-q");
    let mf = MailFinder::new(Finder::new());
    let out = io::stdout();
    let mut out = out.lock();
    for msg in Messages::new(io::stdin().lock()).count_lines(true) {
        let msg = msg?;
        for item in msg.items(&mf) {
            match item {
                MailItem::Match(m) if quiet => {
                    out.write_all(m.uri())?;
                    out.write_all(b"\n")?;
                }
                MailItem::Match(m) => {
                    let o = m.origin();
                    let p = m.position().expect("lines are counted");
                    write!(
                        out,
                        "{}:{}:{}:{} part={} {} [{}..{}] ",
                        o.message(),
                        p.line,
                        p.column,
                        o.content_type(),
                        o.part(),
                        m.context(),
                        m.span().start,
                        m.span().end
                    )?;
                    out.write_all(m.uri())?;
                    if let Some(s) = m.shown() {
                        out.write_all(b" shown=")?;
                        out.write_all(s)?;
                    }
                    out.write_all(b"\n")?;
                }
                MailItem::Note(n) if !quiet => {
                    writeln!(
                        out,
                        "{}: note: {}",
                        n.origin().message(),
                        n.reason()
                    )?;
                }
                _ => {}
            }
        }
    }
    Ok(())
}
