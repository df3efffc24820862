//! Large regular files mapped into memory, so the library searches them
//! in place as one slice, and the guard that keeps a file shrinking
//! underneath its map from killing the process.
//!
//! A read from a page of a map that lies past the end of its file (the
//! file was truncated after it was mapped) raises `SIGBUS`. The guard is
//! a `SIGBUS` handler that knows the address ranges of the live maps:
//! for a fault inside one, it puts zero-filled pages over the rest of
//! that map and lets the read go on, so the file reads as its remaining
//! bytes followed by NULs (which end any URI, like the end of input);
//! any other fault goes to the handler that was there before. This is
//! the only module with `unsafe` code.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use memmap2::{Mmap, MmapOptions};

/// How many maps may be live at once (one per searching thread is
/// needed); when all are taken, files are read instead.
const SLOTS: usize = 64;

/// The address ranges of live maps: `START[i]..END[i]`, empty when free.
static START: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static END: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// Whether slot `i` is taken.
static TAKEN: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
/// Whether the guard replaced pages of the map in slot `i`.
static SHRUNK: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];

/// The system's page size.
static PAGE: AtomicUsize = AtomicUsize::new(0);

/// The `SIGBUS` action in force before the guard, or `None` when the
/// guard could not be installed.
static PREVIOUS: OnceLock<Option<libc::sigaction>> = OnceLock::new();

/// A file mapped into memory and registered with the guard.
pub struct Mapped {
    map: Mmap,
    slot: usize,
}

impl Mapped {
    /// Maps the first `len` bytes of `file` (a regular file of that
    /// length). `None` when the guard is not available or every slot is
    /// taken, and an error when the system cannot map the file: the
    /// caller then reads it.
    ///
    /// # Errors
    ///
    /// The system's error when mapping fails.
    pub fn new(file: &File, len: u64) -> io::Result<Option<Mapped>> {
        let Ok(len) = usize::try_from(len) else { return Ok(None) };
        if len == 0 || !guard_installed() {
            return Ok(None);
        }
        let Some(slot) = (0..SLOTS).find(|&i| {
            TAKEN[i]
                .compare_exchange(
                    false,
                    true,
                    Ordering::AcqRel,
                    Ordering::Relaxed,
                )
                .is_ok()
        }) else {
            return Ok(None);
        };
        // SAFETY: the map is read only, and only through `bytes`. Another
        // process may change the file meanwhile: the bytes seen are then
        // some mix of old and new ones, as with read(2); if it shrinks the
        // file, the guard registered below turns the pages past its new
        // end into zeros instead of letting SIGBUS end the process.
        let map = match unsafe { MmapOptions::new().len(len).map(file) } {
            Ok(map) => map,
            Err(e) => {
                TAKEN[slot].store(false, Ordering::Release);
                return Err(e);
            }
        };
        let start = map.as_ptr() as usize;
        SHRUNK[slot].store(false, Ordering::Relaxed);
        END[slot].store(start + len, Ordering::Release);
        START[slot].store(start, Ordering::Release);
        Ok(Some(Mapped { map, slot }))
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Whether the file shrank while mapped: the bytes past its new end
    /// read as zeros. (Nothing is reported then: like a read, the map
    /// shows the file as it is.)
    #[cfg(test)]
    pub fn shrunk(&self) -> bool {
        SHRUNK[self.slot].load(Ordering::Acquire)
    }

    /// Drops the page table entries of the whole pages inside `range`
    /// (the file's pages stay in the page cache; a later read maps them
    /// in again). A thread done with a range does this so that unmapping
    /// at the end, on one thread, has little left to do.
    pub fn release(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            let page = PAGE.load(Ordering::Relaxed).max(4096);
            let start = range.start.div_ceil(page) * page;
            let end = range.end.min(self.map.len()) / page * page;
            if start < end {
                // SAFETY: the map is a shared, read-only map of a file:
                // dropping its page table entries changes no byte it
                // shows, since a later read maps the file's pages in again.
                let _ = unsafe {
                    self.map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = range;
    }

    /// Asks the system to map in the pages of `range` of the file now,
    /// in one call rather than a fault every few pages (a thread about
    /// to search that range). Never faults itself.
    pub fn populate(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            let advice = memmap2::Advice::PopulateRead;
            let _ = self.map.advise_range(advice, range.start, range.len());
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = self.map.advise_range(
                memmap2::Advice::WillNeed,
                range.start,
                range.len(),
            );
        }
    }

    /// Asks the system to map the pages of the file from `from` on in
    /// ahead of the search, one piece at a time, until done or `stop` is set. Run on
    /// another thread, this takes the cost of the page faults off the
    /// searching one. Never faults itself: past a shrunken file's end the
    /// system reports an error and this stops.
    pub fn prefault(&self, from: usize, stop: &AtomicBool) {
        #[cfg(target_os = "linux")]
        {
            const PIECE: usize = 1 << 20;
            let len = self.map.len();
            let mut at = from.min(len);
            while at < len && !stop.load(Ordering::Relaxed) {
                let n = PIECE.min(len - at);
                let advice = memmap2::Advice::PopulateRead;
                if self.map.advise_range(advice, at, n).is_err() {
                    return;
                }
                at += n;
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = stop;
            let _ = self.map.advise_range(
                memmap2::Advice::WillNeed,
                from,
                self.map.len().saturating_sub(from),
            );
        }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // Unregistered before `map` is unmapped (fields drop after this).
        START[self.slot].store(0, Ordering::Release);
        END[self.slot].store(0, Ordering::Release);
        TAKEN[self.slot].store(false, Ordering::Release);
    }
}

/// Installs the guard once; returns whether it is in place.
fn guard_installed() -> bool {
    PREVIOUS
        .get_or_init(|| {
            // SAFETY: plain system calls on values owned here; the
            // handler only uses atomics and async-signal-safe calls.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page <= 0 {
                    return None;
                }
                PAGE.store(page as usize, Ordering::Relaxed);
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_sigbus as *const () as usize;
                new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut new.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, &new, &mut old) != 0 {
                    return None;
                }
                Some(old)
            }
        })
        .is_some()
}

/// The `SIGBUS` handler: see the module doc.
extern "C" fn on_sigbus(
    _sig: libc::c_int,
    info: *mut libc::siginfo_t,
    _ctx: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let page = PAGE.load(Ordering::Relaxed);
    for i in 0..SLOTS {
        let start = START[i].load(Ordering::Acquire);
        let end = END[i].load(Ordering::Acquire);
        if start == 0 || addr < start || addr >= end {
            continue;
        }
        let from = addr & !(page - 1);
        let to = (end + page - 1) & !(page - 1);
        // SAFETY: [from, to) lies inside the live map of slot i (whose
        // own range ends at `to`, rounded to pages), which is only ever
        // read; zero-filled private pages replace the file's there.
        let p = unsafe {
            libc::mmap(
                from as *mut libc::c_void,
                to - from,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if p != libc::MAP_FAILED {
            SHRUNK[i].store(true, Ordering::Release);
            return;
        }
    }
    // Not a map of ours: put the previous action back, and return, so
    // that the faulting read runs again and meets it.
    if let Some(Some(old)) = PREVIOUS.get() {
        // SAFETY: `old` is the action the system gave us.
        unsafe { libc::sigaction(libc::SIGBUS, old, std::ptr::null_mut()) };
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn a_file_shrinking_under_its_map_reads_as_zeros() {
        let page = 4096 * 4;
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(&vec![b'x'; page * 8]).unwrap();
        let m = Mapped::new(&f, (page * 8) as u64).unwrap().unwrap();
        assert_eq!(m.bytes()[page * 6], b'x');
        f.set_len(page as u64 + 10).unwrap();
        let b = m.bytes();
        // The bytes still in the file, then zeros (not SIGBUS).
        assert_eq!(b[page + 9], b'x');
        assert!(b[page + 10..].iter().all(|&c| c == 0));
        assert!(m.shrunk());
        assert_eq!(b.len(), page * 8);
    }

    #[test]
    fn maps_are_registered_until_dropped() {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"http://a.example/\n").unwrap();
        let m = Mapped::new(&f, 18).unwrap().unwrap();
        let slot = m.slot;
        assert_eq!(
            START[slot].load(Ordering::Acquire),
            m.bytes().as_ptr() as usize
        );
        assert!(!m.shrunk());
        drop(m);
        assert_eq!(START[slot].load(Ordering::Acquire), 0);
        assert!(!TAKEN[slot].load(Ordering::Acquire));
    }
}
