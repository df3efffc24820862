//! Hostile messages (the `mail-*` kinds of `corpora/gen`): what reading
//! one costs in heap, measured by a counting allocator, at two sizes.
//!
//! For every shape: the matches are the ones the shape holds (counted
//! from how it is built), the peak of live heap while the message is
//! read stays under a bound proportional to the message, and doubling
//! the message does not much more than double that peak (no cost that
//! grows with the square of anything held).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use urifind::mail::{MailFinder, MailItem, Message};
use urifind::Finder;

#[path = "../corpora/gen/gen.rs"]
mod gen;

/// The system allocator, counting the bytes alive and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static A: Counting = Counting;

/// The tests share the counters: one at a time (every test of this
/// binary takes it).
static ONE: Mutex<()> = Mutex::new(());

/// Reads `data` as one message: the matches, the peak of heap
/// allocated meanwhile beyond what was alive before (the message itself
/// is alive before), and the number of allocations made.
fn read(data: Vec<u8>) -> (usize, usize, usize) {
    let mf = MailFinder::new(Finder::new());
    let msg = Message::from_bytes(data);
    let before = ALLOCS.load(Ordering::Relaxed);
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut n = 0;
    msg.for_each_item(&mf, |it| {
        n += usize::from(matches!(it, MailItem::Match(_)));
        true
    });
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    (n, PEAK.load(Ordering::Relaxed) - base, allocs)
}

/// `kind` at 256 KiB and 512 KiB: the matches of each are `per_kib` a
/// KiB or more, the extra heap at most `factor` times the message plus
/// 256 KiB, and the larger message's heap at most 2.5 times the
/// smaller's.
fn bounded(kind: &str, per_kib: usize, factor: usize) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut peaks = Vec::new();
    for kib in [256, 512] {
        let size = kib << 10;
        let data = gen::generate(kind, size, 1).unwrap();
        let (n, peak, _) = read(data);
        assert!(
            n >= per_kib * kib,
            "{kind} at {kib} KiB: {n} matches, expected {} or more",
            per_kib * kib
        );
        let bound = factor * size + (256 << 10);
        assert!(
            peak <= bound,
            "{kind} at {kib} KiB: {peak} bytes of heap, bound {bound}"
        );
        peaks.push(peak);
    }
    assert!(
        peaks[1] * 2 <= peaks[0] * 5,
        "{kind}: heap grew from {} to {} bytes when the message doubled",
        peaks[0],
        peaks[1]
    );
}

#[test]
fn dense_text() {
    // A URI every 20 bytes or so: 51 a KiB; nothing held per match.
    bounded("mail-dense-text", 48, 0);
}

#[test]
fn many_small_parts() {
    // Split part by part: no record of every part is kept, the heap
    // stays within the constant whatever the number of parts.
    bounded("mail-many-parts", 20, 0);
}

/// A million small parts are read without allocating for the part
/// itself: what is allocated is the match (its URI) and what the
/// scanner sets up for each text, not a record of the part, its names
/// or its header fields (a part whose header block repeats the last
/// one's, or says what it said, is not read again).
fn little_per_part(kind: &str) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let data = gen::generate(kind, 512 << 10, 1).unwrap();
    let parts = data.windows(4).filter(|w| w == b"\n--b").count();
    let (n, peak, allocs) = read(data);
    // A few KiB at any time: the last header block, one part's text.
    assert!(peak <= 16 << 10, "{kind}: {peak} bytes of heap");
    assert!(
        parts > 8_000 && n >= parts - 1,
        "{kind}: {parts} parts, {n} matches"
    );
    // Three a part here: the match's URI and the scanner's setup for
    // the part's text.
    assert!(
        allocs <= 4 * parts,
        "{kind}: {allocs} allocations for {parts} parts"
    );
}

#[test]
fn many_small_parts_allocate_little_per_part() {
    little_per_part("mail-many-parts");
}

/// The same when the header blocks differ from one part to the next
/// but say the same: another case of the field name, or a parameter of
/// their own.
#[test]
fn varied_header_blocks_allocate_little_per_part() {
    bounded("mail-parts-alt", 20, 0);
    bounded("mail-parts-named", 15, 0);
    little_per_part("mail-parts-alt");
    little_per_part("mail-parts-named");
}

#[test]
fn one_huge_header_field() {
    // Read where it stands: nothing held per match either.
    bounded("mail-huge-header", 48, 0);
}

#[test]
fn dense_base64() {
    // The parser's copy, the decoded text and its map.
    bounded("mail-base64", 39, 2);
}

#[test]
fn html_links_showing_other_uris() {
    // Two matches a link (the target, and the text showing another
    // URI); a record per link, the visible text and its map (12 bytes a
    // segment) are held.
    bounded("mail-html-shown", 36, 5);
}

#[test]
fn dense_quoted_printable() {
    // Every URI holds escapes: the parser's masked copy, the decoded
    // text and 8 bytes of map for each escape or soft line break.
    bounded("mail-qp", 38, 3);
}

#[test]
fn deeply_nested_multiparts() {
    // The parser's record of every part, under the message's size.
    bounded("mail-nested", 40, 1);
}

#[test]
fn html_links_report_what_their_text_shows() {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let data = gen::generate("mail-html-shown", 64 << 10, 1).unwrap();
    let mf = MailFinder::new(Finder::new());
    let msg = Message::from_bytes(data);
    let (mut targets, mut texts) = (0, 0);
    msg.for_each_item(&mf, |it| {
        if let MailItem::Match(m) = it {
            if m.uri() == b"http://d.example/z" {
                assert_eq!(m.shown(), Some(&b"http://e.example/w"[..]));
                targets += 1;
            } else {
                assert_eq!(m.uri(), b"http://e.example/w");
                texts += 1;
            }
        }
        true
    });
    assert!(targets > 1000);
    assert!(texts == targets || texts + 1 == targets, "{texts} {targets}");
}

/// An HTML part of about `size` bytes: `head` then `unit` repeated.
fn html_message(head: &[u8], unit: &[u8], size: usize) -> Vec<u8> {
    let mut m = b"Content-Type: text/html\n\n".to_vec();
    m.extend_from_slice(head);
    while m.len() < size {
        m.extend_from_slice(unit);
    }
    m
}

/// HTML made to stall a tokenizer (a tag, comment or script escape
/// that never ends, end tags that close nothing or everything,
/// thousands of open elements and namespaces), at 1 and 4 MiB: four
/// times the HTML takes at most about four times as long (a rescan per
/// token would take sixteen), and the heap stays within a few times the
/// message.
#[test]
fn hostile_html_in_linear_time() {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let shapes: [(&str, &[u8], &[u8]); 10] = [
        ("an unclosed tag", b"<a", b" href=x"),
        ("an unclosed value", b"<a href=\"", b"http://a.example/ "),
        ("an unclosed comment", b"<!--", b"x -- - <!- "),
        ("escaped script", b"<script><!--<script>", b"</scrip <!-- x -"),
        ("RAWTEXT near ends", b"<style>", b"</styl </style2 <"),
        ("open elements", b"", b"<b>"),
        ("stray end tags", b"<b>", b"</i><i>x"),
        ("links in depth", b"", b"<a href=x><div>http://a.example/"),
        ("namespaces", b"", b"<svg><foreignObject><math><mi>"),
        ("CDATA in SVG", b"<svg>", b"<![CDATA[x]]><p/>"),
    ];
    for (what, head, unit) in shapes {
        let mut best = [f64::MAX; 2];
        for (k, size) in [1 << 20, 4 << 20].into_iter().enumerate() {
            for _ in 0..3 {
                let data = html_message(head, unit, size);
                let t = std::time::Instant::now();
                let (_, peak, _) = read(data);
                best[k] = best[k].min(t.elapsed().as_secs_f64());
                assert!(
                    peak <= 4 * size + (256 << 10),
                    "{what} at {size} bytes: {peak} bytes of heap"
                );
            }
        }
        assert!(
            best[1] <= 8.0 * best[0] + 0.02,
            "{what}: {:.3} s at 1 MiB, {:.3} s at 4 MiB",
            best[0],
            best[1]
        );
    }
}
