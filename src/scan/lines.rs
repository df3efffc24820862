//! Line counting for [`Position`]s, shared by the slice and stream
//! drivers: forward over the bytes between items, never the whole input
//! twice.

use crate::scan::item::Position;

/// Line counting: the line of absolute offset `at` and the start of
/// that line. Items come almost in order, so counting moves forward over
/// the bytes between them (and back for the rare item that starts before
/// the previous one: a rejected bracket, then a match inside it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    at: usize,
    line: u64,
    line_start: usize,
}

impl Lines {
    pub(crate) fn new() -> Lines {
        Lines { at: 0, line: 1, line_start: 0 }
    }

    /// Counting from the line numbered `line` that starts at absolute
    /// offset `line_start`.
    pub(crate) fn at(line_start: usize, line: u64) -> Lines {
        Lines { at: line_start, line, line_start }
    }

    /// Moves to absolute offset `to`; `buf` holds the input from
    /// absolute `base` and covers both `self.at` and `to`.
    pub(crate) fn advance(
        &mut self,
        buf: &[u8],
        base: usize,
        to: usize,
    ) -> Position {
        if to >= self.at {
            let seg = &buf[self.at - base..to - base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            if let Some(i) = memchr::memrchr(b'\n', seg) {
                self.line += n;
                self.line_start = self.at + i + 1;
            }
            self.at = to;
            Position {
                line: self.line,
                column: (to - self.line_start) as u64 + 1,
            }
        } else {
            let seg = &buf[to - base..self.at - base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            let ls = match memchr::memrchr(b'\n', &buf[..to - base]) {
                Some(i) => base + i + 1,
                None => self.line_start.min(to),
            };
            Position { line: self.line - n, column: (to - ls) as u64 + 1 }
        }
    }
}
