//! The scan behind every `Finder` method: the options' finders, built
//! once, run over one text (plain, or with `mail` each message of it read
//! as a mail reader shows it), each match handed over as a
//! [`Hit`](crate::fields::Hit) for the fields to read. Both `finder.rs`
//! and `arrow.rs` scan through here.

use std::cell::OnceCell;

use urifind::link::Analyzer;
use urifind::mail::{MailFinder, Messages};

use crate::arrow::Density;
use crate::fields::Hit;
use crate::options::Options;

/// The finders of one set of options.
pub struct Scanner {
    /// The options, as given.
    pub opts: Options,
    inner: urifind::Finder,
    mail: Option<MailFinder>,
    /// The link analyzer of `inner` (so of the options).
    analyzer: Analyzer,
    /// How dense in matches the last Arrow array was.
    pub density: Density,
}

impl Scanner {
    /// Builds the finders of `opts`.
    pub fn new(opts: Options) -> Scanner {
        let inner = opts.build();
        let mail = opts.build_mail();
        let analyzer = inner.link_analyzer();
        Scanner { opts, inner, mail, analyzer, density: Density::default() }
    }

    /// A scan kept from text to text, for [`Scanner::each_in`]: many
    /// short texts (the rows of an array) then pay the scan's setup once.
    pub fn scratch(&self) -> urifind::scan::Scanner<'_> {
        self.inner.scanner()
    }

    /// Calls `f` on every match in `hay`, in order, offsets into `hay`.
    pub fn each(&self, hay: &[u8], f: impl FnMut(&Hit<'_>)) {
        self.each_in(&mut self.scratch(), hay, f);
    }

    /// [`Scanner::each`] with the scan `scratch` (from
    /// [`Scanner::scratch`] of this scanner).
    pub fn each_in(
        &self,
        scratch: &mut urifind::scan::Scanner<'_>,
        hay: &[u8],
        mut f: impl FnMut(&Hit<'_>),
    ) {
        let hyphen = self.opts.hyphen;
        let analyzer = &self.analyzer;
        match &self.mail {
            None => scratch.find_iter(hay).for_each(|m| {
                let link = OnceCell::new();
                f(&Hit { m: &m, mail: None, hyphen, analyzer, link: &link });
            }),
            Some(mf) => {
                for msg in Messages::new(hay) {
                    // Reading from a slice cannot fail.
                    let Ok(msg) = msg else { break };
                    for mm in msg.matches(mf) {
                        let link = OnceCell::new();
                        f(&Hit {
                            m: mm.as_match(),
                            mail: Some(&mm),
                            hyphen,
                            analyzer,
                            link: &link,
                        });
                    }
                }
            }
        }
    }
}
