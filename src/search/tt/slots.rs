//! The table's memory: one block of zeroed slots. On Linux a table of
//! 2 MB or more is an anonymous mapping of its own, aligned to 2 MB and
//! marked for transparent huge pages: the search reaches the table at
//! random, and with 4 KB pages nearly every probe of a large table also
//! misses the TLB, and its first touch of each page is a page fault
//! (BENCHMARKS.md, "Huge pages for the table"). Elsewhere, for a smaller
//! table, or if the mapping fails, the allocator's zeroed memory: the plain
//! path, and the oracle the tests compare the mapping with. Either way the
//! kernel zeroes a page only when it is first touched, so a table of
//! gigabytes is made at once; `populate` has the kernel back every page of
//! a mapping ahead of the search, which would otherwise pay for them in
//! its first moments (with huge pages, nearly the whole table in the first
//! few thousand nodes: BENCHMARKS.md, "The table backed before the
//! search").

use super::Slot;
use std::ops::Deref;

/// The huge page size of x86-64 and of most arm64 kernels.
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

/// The bytes `populate` backs at a time: a thread backing a table asks
/// between parts whether it is still wanted.
#[cfg(target_os = "linux")]
const PART: usize = 16 * (2 << 20);

pub(super) enum Slots {
    /// `len` slots at `ptr`, in a mapping of `bytes` bytes.
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<Slot>,
        len: usize,
        bytes: usize,
    },
    Heap(Vec<Slot>),
}

// SAFETY: a `Slots` owns its memory as a `Box<[Slot]>` does, and `Slot` is
// two atomics: moving it to another thread or sharing it is sound.
#[allow(unsafe_code)]
unsafe impl Send for Slots {}
// SAFETY: as above; every access through `&Slots` goes through atomics.
#[allow(unsafe_code)]
unsafe impl Sync for Slots {}

impl Slots {
    /// `n` empty slots: mapped for huge pages where that works, else from
    /// the allocator.
    pub fn new(n: usize) -> Slots {
        #[cfg(target_os = "linux")]
        if let Some(s) = Slots::mapped(n) {
            return s;
        }
        Slots::heap(n)
    }

    /// `n` empty slots from the allocator's zeroed memory.
    #[allow(unsafe_code)]
    pub fn heap(n: usize) -> Slots {
        let slots = Box::<[Slot]>::new_zeroed_slice(n);
        // SAFETY: a `Slot` is two `AtomicU64`, which have the layout of
        // `u64`; all-zero bytes are the valid value 0 for each, an empty
        // slot.
        Slots::Heap(unsafe { slots.assume_init() }.into_vec())
    }

    /// `n` empty slots in a new mapping aligned to 2 MB and advised to use
    /// huge pages; `None` below 2 MB or when the kernel refuses the
    /// mapping.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    pub fn mapped(n: usize) -> Option<Slots> {
        let want = n.checked_mul(std::mem::size_of::<Slot>())?;
        if want < HUGE {
            return None;
        }
        let bytes = want.checked_next_multiple_of(HUGE)?;
        // One huge page more than needed, so that an aligned start fits.
        let span = bytes.checked_add(HUGE)?;
        // SAFETY: a new private anonymous mapping: it touches no memory
        // that exists.
        let at = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if at == libc::MAP_FAILED {
            return None;
        }
        let start = at as usize;
        let aligned = start.next_multiple_of(HUGE);
        let head = aligned - start;
        let tail = span - head - bytes;
        // SAFETY: both ranges lie in the mapping just made, before and
        // after the part kept, and nothing refers to them.
        unsafe {
            if head > 0 {
                libc::munmap(at, head);
            }
            if tail > 0 {
                libc::munmap((aligned + bytes) as *mut libc::c_void, tail);
            }
        }
        // SAFETY: advice on the part kept: it changes only how the pages
        // are backed (a refusal leaves 4 KB pages), never their contents.
        unsafe { libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        let ptr = std::ptr::NonNull::new(aligned as *mut Slot)?;
        Some(Slots::Mapped { ptr, len: n, bytes })
    }

    /// Has the kernel back (and zero) the pages of part `k` (of
    /// `PART` bytes) of a mapping, leaving what the slots hold as it is,
    /// so that it may run beside a search: whether it did, `None` past the
    /// last part and for the allocator's memory (small, or off Linux).
    #[allow(unsafe_code)]
    pub fn populate(&self, k: usize) -> Option<bool> {
        match self {
            #[cfg(target_os = "linux")]
            Slots::Mapped { ptr, bytes, .. } => {
                let from = k.checked_mul(PART).filter(|&f| f < *bytes)?;
                let len = PART.min(bytes - from);
                // SAFETY: the range lies in the mapping `mapped` made and
                // kept; `MADV_POPULATE_WRITE` (Linux 5.14) faults its pages
                // in as a write would, without changing any byte; an older
                // kernel refuses it (EINVAL) and the pages stay lazy.
                let r = unsafe {
                    let at = ptr.as_ptr().cast::<u8>().add(from);
                    libc::madvise(at.cast(), len, libc::MADV_POPULATE_WRITE)
                };
                Some(r == 0)
            }
            Slots::Heap(_) => None,
        }
    }
}

impl Deref for Slots {
    type Target = [Slot];

    #[inline]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[Slot] {
        match self {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping is readable and writable, zero-filled by
            // the kernel (all-zero is an empty slot), aligned to 2 MB (more
            // than a `Slot` needs), `len` slots long, and lives until
            // `self` is dropped; it is shared only through atomics.
            Slots::Mapped { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
            Slots::Heap(v) => v,
        }
    }
}

impl Drop for Slots {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Slots::Mapped { ptr, bytes, .. } = self {
            // SAFETY: the mapping `mapped` made and kept, unmapped once:
            // nothing refers to it after its owner is dropped.
            unsafe { libc::munmap(ptr.as_ptr().cast(), *bytes) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_is_mapped_aligned_and_empty_a_small_one_is_not() {
        let n = 5 * HUGE / std::mem::size_of::<Slot>() + 3;
        let s = Slots::new(n);
        assert!(matches!(s, Slots::Mapped { .. }));
        assert_eq!(s.len(), n);
        assert_eq!(s.as_ptr() as usize % HUGE, 0);
        assert!(s
            .iter()
            .all(|x| x.check.load(Relaxed) == 0 && x.data.load(Relaxed) == 0));
        // Every slot is writable, the last included.
        for x in s.iter().step_by(4099).chain(s.last()) {
            x.data.store(7, Relaxed);
            assert_eq!(x.data.load(Relaxed), 7);
        }
        assert!(matches!(Slots::new(1000), Slots::Heap(_)));
        assert!(Slots::mapped(1000).is_none());
        // The bound: exactly one huge page is mapped, a slot less is not.
        let page = HUGE / std::mem::size_of::<Slot>();
        assert!(Slots::mapped(page).is_some());
        assert!(Slots::mapped(page - 1).is_none());
        assert!(
            advised_huge(s.as_ptr() as usize),
            "no `hg` flag on the mapping"
        );
    }

    /// The process's virtual size in bytes (`VmSize`), read into `buf`
    /// (allocated beforehand, so that reading allocates nothing).
    #[cfg(target_os = "linux")]
    fn vm_size(buf: &mut Vec<u8>) -> usize {
        use std::io::Read;
        buf.clear();
        let mut f = std::fs::File::open("/proc/self/status").expect("/proc/self/status");
        f.read_to_end(buf).expect("read /proc/self/status");
        let line = buf
            .split(|&b| b == b'\n')
            .find(|l| l.starts_with(b"VmSize:"))
            .expect("a VmSize line");
        let kb: usize = line
            .iter()
            .filter(|b| b.is_ascii_digit())
            .fold(0, |n, &b| n * 10 + usize::from(b - b'0'));
        kb * 1024
    }

    /// What the process maps grows by exactly the table's bytes (the
    /// extra huge page taken to align it is given back, before it and
    /// after it) and shrinks by as much when the table is dropped. In a
    /// process of its own, this test alone on one thread: the other tests'
    /// threads map and unmap memory of their own meanwhile.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_mapping_keeps_only_the_table_and_is_gone_when_dropped() {
        const CHILD: &str = "LEISERCHESS_SLOTS_ALONE";
        if std::env::var_os(CHILD).is_none() {
            let module = module_path!().split_once("::").map_or("", |m| m.1);
            let name = format!("{module}::a_mapping_keeps_only_the_table_and_is_gone_when_dropped");
            let out = std::process::Command::new(std::env::current_exe().expect("this test"))
                .args([name.as_str(), "--exact", "--test-threads=1", "--nocapture"])
                .env(CHILD, "1")
                .output()
                .expect("run this test alone");
            let said = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{said}");
            assert!(said.contains("1 passed"), "{said}");
            return;
        }
        // Linux 6.7 and later align an anonymous mapping of 2 MB or more
        // themselves: the extra huge page then lies after the table, and
        // only the unmapping of the tail is seen here.
        let mut buf = Vec::with_capacity(1 << 16);
        for k in 1..=3 {
            let before = vm_size(&mut buf);
            let s = Slots::mapped(k * HUGE / std::mem::size_of::<Slot>()).expect("mapped");
            assert_eq!(vm_size(&mut buf) - before, k * HUGE, "table {k}");
            drop(s);
            assert_eq!(vm_size(&mut buf), before, "table {k} dropped");
        }
    }

    /// Whether the kernel has backed each of a table's pages.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    fn backed(s: &Slots) -> Vec<bool> {
        let bytes = std::mem::size_of_val::<[Slot]>(s);
        let mut flags = vec![0u8; bytes.div_ceil(page_size())];
        // SAFETY: the range is the table's own, page-aligned (it starts on
        // 2 MB), and `flags` has one byte for each of its pages.
        let r =
            unsafe { libc::mincore(s.as_ptr() as *mut libc::c_void, bytes, flags.as_mut_ptr()) };
        assert_eq!(r, 0, "mincore");
        flags.iter().map(|f| f & 1 == 1).collect()
    }

    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    fn page_size() -> usize {
        // SAFETY: `sysconf` reads a constant of the system.
        unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn populate_backs_every_page_part_by_part_and_keeps_what_the_slots_hold() {
        // One part and two huge pages: two parts.
        let n = (PART + 2 * HUGE) / std::mem::size_of::<Slot>();
        let s = Slots::new(n);
        // The first and the last huge page touched; the others not.
        s[5].data.store(11, Relaxed);
        s[n - 1].check.store(13, Relaxed);
        let before = backed(&s);
        let first = PART / page_size();
        let count = |b: &[bool]| b.iter().filter(|&&x| x).count();
        assert!(
            count(&before) <= 2 * HUGE / page_size(),
            "untouched pages backed"
        );
        assert_eq!(s.populate(0), Some(true));
        let after = backed(&s);
        assert!(after[..first].iter().all(|&x| x), "the first part");
        assert_eq!(after[first..], before[first..], "beyond the first part");
        assert_eq!(s.populate(1), Some(true));
        assert!(backed(&s).iter().all(|&x| x));
        assert_eq!(s.populate(2), None);
        assert_eq!(
            (s[5].data.load(Relaxed), s[n - 1].check.load(Relaxed)),
            (11, 13)
        );
        let mut others = s.iter().enumerate().filter(|&(i, _)| i != 5 && i != n - 1);
        assert!(others.all(|(_, x)| x.check.load(Relaxed) == 0 && x.data.load(Relaxed) == 0));
        assert_eq!(Slots::heap(n).populate(0), None);
        // A mapping of whole parts has no part past its end.
        let whole = Slots::new(PART / std::mem::size_of::<Slot>());
        assert_eq!(whole.populate(0), Some(true));
        assert_eq!(whole.populate(1), None);
    }

    /// Whether the kernel's map of this process marks the mapping that
    /// holds `at` for huge pages (`hg` among its VmFlags). Not "starts
    /// at": the kernel merges it with a neighbour of the same flags, such
    /// as another test's table.
    #[cfg(target_os = "linux")]
    fn advised_huge(at: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps");
        // A mapping's header starts with its range, `start-end` in hex.
        let holds = |line: &str| {
            let range = line.split_whitespace().next().unwrap_or("");
            let mut ends = range.split('-').map(|x| usize::from_str_radix(x, 16));
            match (ends.next(), ends.next()) {
                (Some(Ok(start)), Some(Ok(end))) => (start..end).contains(&at),
                _ => false,
            }
        };
        // Its first VmFlags line after its header is its own.
        smaps
            .lines()
            .skip_while(|l| !holds(l))
            .find(|l| l.starts_with("VmFlags:"))
            .is_some_and(|l| l.split_whitespace().any(|f| f == "hg"))
    }
}
