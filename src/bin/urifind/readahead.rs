//! Reading ahead on a second thread: while the scanner works on one
//! block, the kernel copies the next ones, so a large file costs about
//! the larger of the two instead of their sum (measured in README).

use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

/// The size of one block read ahead.
const BLOCK: usize = 1 << 20;
/// How many blocks may wait, read but not yet scanned.
const DEPTH: usize = 2;

/// A reader whose reads are served from blocks a background thread has
/// already read. Memory: at most `DEPTH + 2` blocks.
pub struct ReadAhead {
    rx: Receiver<io::Result<Vec<u8>>>,
    back: SyncSender<Vec<u8>>,
    cur: Vec<u8>,
    at: usize,
    done: bool,
}

impl ReadAhead {
    /// Starts reading `rdr` on a new thread.
    pub fn new<R: Read + Send + 'static>(mut rdr: R) -> ReadAhead {
        let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(DEPTH);
        let (back, spare) = sync_channel::<Vec<u8>>(DEPTH + 2);
        thread::spawn(move || loop {
            let mut buf = spare.try_recv().unwrap_or_default();
            buf.resize(BLOCK, 0);
            let res = loop {
                match rdr.read(&mut buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    r => break r,
                }
            };
            let last = !matches!(res, Ok(n) if n > 0);
            let msg = res.map(|n| {
                buf.truncate(n);
                buf
            });
            // The reader went away: stop quietly.
            if tx.send(msg).is_err() || last {
                return;
            }
        });
        ReadAhead { rx, back, cur: Vec::new(), at: 0, done: false }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.cur.len() {
            if self.done {
                return Ok(0);
            }
            match self.rx.recv() {
                Ok(Ok(block)) => {
                    let old = std::mem::replace(&mut self.cur, block);
                    let _ = self.back.try_send(old);
                    self.at = 0;
                    if self.cur.is_empty() {
                        self.done = true;
                    }
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => {
                    self.done = true;
                    return Ok(0);
                }
            }
        }
        let n = out.len().min(self.cur.len() - self.at);
        out[..n].copy_from_slice(&self.cur[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that fails after handing out some bytes.
    struct Failing(usize);

    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.0.min(out.len()).min(1000);
            out[..n].fill(b'x');
            self.0 -= n;
            Ok(n)
        }
    }

    #[test]
    fn same_bytes_as_the_reader() {
        let data: Vec<u8> =
            (0..5_000_000u32).map(|i| (i % 251) as u8).collect();
        let mut got = Vec::new();
        ReadAhead::new(io::Cursor::new(data.clone()))
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(got, data);
    }

    #[test]
    fn errors_come_through_after_the_data() {
        let mut r = ReadAhead::new(Failing(2500));
        let mut got = Vec::new();
        let err = r.read_to_end(&mut got).unwrap_err();
        assert_eq!(got.len(), 2500);
        assert_eq!(err.to_string(), "disk on fire");
    }
}
