//! The transposition table: k-way set-associative, shared by all search
//! threads without locks.
//!
//! An entry is two 64-bit words: `data` (move, score, depth, bound, age)
//! and `check = key ^ data`. A reader accepts an entry only if
//! `check ^ data` equals its key, so a torn write by another thread reads
//! as a miss, never as a wrong entry. A bucket holds `ways` entries (4 by
//! default: 64 bytes, one cache line); a key maps to one bucket and may sit
//! in any of its ways.
//!
//! Its shape (`hash`, `tt_ways`) is declared here once, with its UCI
//! names, defaults and ranges ([`TABLE`]). Its invariants and the
//! `dump tt` text are in `check`.

mod check;
mod slots;

use crate::declaration::{self, number_field, Declaration, Effect};
use crate::rules::moves::Move;
use crate::search::MATE_BOUND;
use slots::Slots;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is at most this (no move reached alpha).
    Upper = 1,
    /// The score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// What the table holds about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub mv: Option<Move>,
    /// The score, with mate scores relative to this position ([`to_tt`]).
    pub score: i16,
    pub depth: i8,
    pub bound: Bound,
    pub age: u8,
}

// data layout: bits 0–15 move, 16–31 score, 32–39 depth, 40–41 bound,
// 42–47 age (6 bits).
const AGE_MASK: u8 = 63;

impl Entry {
    fn pack(&self) -> u64 {
        let mv = self.mv.map_or(0, Move::bits) as u64;
        mv | (self.score as u16 as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.bound as u64) << 40
            | ((self.age & AGE_MASK) as u64) << 42
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits(data as u16),
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            bound,
            age: ((data >> 42) as u8) & AGE_MASK,
        })
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The transposition table's shape: the `hash` and `tt_ways` options, and
/// what `leiserchess bench` and the profile use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableSize {
    /// Megabytes.
    pub hash_mb: usize,
    /// Entries per bucket (the k of the k-way table).
    pub ways: usize,
}

pub const TABLE: &[Declaration<TableSize>] = &[
    Effect::NewTable.on(Declaration::spin(
        "hash",
        16,
        1,
        4096,
        number_field!(hash_mb),
        "The transposition table's size in MB",
    )),
    Effect::NewTable.on(Declaration::spin(
        "tt_ways",
        4,
        1,
        16,
        number_field!(ways),
        "Entries a bucket of the transposition table holds (the k of k-way)",
    )),
];

impl Default for TableSize {
    fn default() -> Self {
        declaration::defaults(
            TableSize {
                hash_mb: 0,
                ways: 0,
            },
            TABLE,
        )
    }
}

pub struct Table {
    slots: Slots,
    ways: usize,
    buckets: usize,
    age: AtomicU8,
}

impl Table {
    /// A table of about `mb` megabytes in buckets of `ways` entries.
    pub fn new(mb: usize, ways: usize) -> Table {
        Table::with(mb, ways, Slots::new)
    }

    /// The same table in memory from `slots`.
    fn with(mb: usize, ways: usize, slots: impl Fn(usize) -> Slots) -> Table {
        let ways = ways.clamp(1, 16);
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Slot>();
        let buckets = (entries / ways).max(1);
        Table {
            slots: slots(buckets * ways),
            ways,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    pub fn ways(&self) -> usize {
        self.ways
    }

    /// The entries the table holds (its buckets times its ways).
    pub fn entries(&self) -> usize {
        self.slots.len()
    }

    /// Has the kernel back the pages of part `k` of the table now,
    /// keeping its entries (it may run beside a search): whether it did,
    /// `None` past the last part or where the table is not a mapping of
    /// its own (see `slots`).
    pub fn populate(&self, k: usize) -> Option<bool> {
        self.slots.populate(k)
    }

    /// Empties the table in place. The UCI loop swaps in a new table
    /// instead, which is made at once at any size (and backed on a thread
    /// of its own).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to replace.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store((age + 1) & AGE_MASK, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    /// The slots of the bucket of `key`.
    fn bucket_range(&self, key: u64) -> std::ops::Range<usize> {
        // The high bits pick the bucket: multiply-shift, no division.
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        b * self.ways..(b + 1) * self.ways
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        &self.slots[self.bucket_range(key)]
    }

    /// Asks the processor to start loading the bucket of `key` into the
    /// cache, so that a probe soon after finds it there: called as a move
    /// is made, the load overlaps the work before the child's probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let first = self.bucket_range(key).start;
            let at: *const Slot = &self.slots[first];
            // SAFETY: a prefetch is a hint that never faults and changes no
            // memory; the address is a slot of this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|s| {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            (check ^ data == key).then(|| Entry::unpack(data)).flatten()
        })
    }

    /// Stores `e` for `key`: over the same key's entry, else over the way
    /// that is oldest and then shallowest.
    pub fn store(&self, key: u64, mut e: Entry) {
        let age = self.age();
        e.age = age;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut worst = i32::MAX;
        for s in bucket {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            let old = Entry::unpack(data);
            if check ^ data == key {
                // Keep a deeper result of this search unless the new one is exact.
                if let Some(old) = old {
                    if old.age == age && old.depth > e.depth && e.bound != Bound::Exact {
                        return;
                    }
                    if e.mv.is_none() {
                        e.mv = old.mv;
                    }
                }
                victim = s;
                break;
            }
            let value = match old {
                None => i32::MIN,
                Some(old) => {
                    let stale = (age.wrapping_sub(old.age) & AGE_MASK) as i32;
                    old.depth as i32 - 8 * stale
                }
            };
            if value < worst {
                worst = value;
                victim = s;
            }
        }
        let data = e.pack();
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| Entry::unpack(s.data.load(Ordering::Relaxed)).is_some_and(|e| e.age == age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// A score as the table stores it: a mate score relative to the stored
/// position at `ply`, not to the root, so that it holds wherever the
/// position is met again.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score met at `ply`, relative to the root again.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_rep::CheckRep;
    use crate::rules::square::Square;

    /// An exact entry with a move.
    pub(super) fn entry(depth: i8, score: i16) -> Entry {
        Entry {
            mv: Some(Move::rotate(Square::new(7), crate::rules::piece::Rot::L)),
            score,
            depth,
            bound: Bound::Exact,
            age: 0,
        }
    }

    /// The huge-page table against the allocator's, the plain path: the
    /// same stores and probes, the same answers.
    #[test]
    fn the_mapped_table_answers_as_the_heap_table_does() {
        let mapped = Table::new(8, 4);
        assert!(cfg!(not(target_os = "linux")) || matches!(mapped.slots, Slots::Mapped { .. }));
        let heap = Table::with(8, 4, Slots::heap);
        let mut rng = fastrand::Rng::with_seed(30);
        for i in 0..200_000 {
            // Few enough keys that buckets fill and entries are replaced.
            let key = rng.u64(..) % 300_000;
            if i % 3 == 0 {
                let e = entry(rng.i8(1..=60), rng.i16(-30_000..=30_000));
                mapped.store(key, e);
                heap.store(key, e);
            } else {
                assert_eq!(mapped.probe(key), heap.probe(key), "key {key}");
            }
            if i % 50_000 == 0 {
                mapped.new_search();
                heap.new_search();
            }
        }
        assert_eq!(mapped.hashfull(), heap.hashfull());
        assert_eq!(mapped.check_rep(), Ok(()));
    }

    #[test]
    fn store_then_probe_round_trips() {
        let t = Table::new(1, 4);
        t.store(0xdead_beef, entry(5, -31990));
        let e = t.probe(0xdead_beef).unwrap();
        assert_eq!((e.depth, e.score, e.bound), (5, -31990, Bound::Exact));
        assert_eq!(e.mv, entry(0, 0).mv);
        assert_eq!(t.probe(0xdead_beee), None);
        assert_eq!(t.check_rep(), Ok(()));
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest() {
        let t = Table::new(1, 2);
        // Keys that share bucket 0: high bits zero.
        let keys = [1u64, 2, 3];
        t.store(keys[0], entry(9, 1));
        t.store(keys[1], entry(2, 2));
        t.store(keys[2], entry(5, 3));
        assert!(t.probe(keys[0]).is_some());
        assert!(t.probe(keys[1]).is_none());
        assert!(t.probe(keys[2]).is_some());
        // After a new search the old deep entry is the first to go.
        t.new_search();
        t.store(4, entry(1, 4));
        assert!(t.probe(4).is_some());
        assert_eq!(
            t.probe(keys[2]).is_some() as u8 + t.probe(keys[0]).is_some() as u8,
            1
        );
    }
}
