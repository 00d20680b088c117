//! The transposition table: k-way set-associative, shared by all search
//! threads without locks.
//!
//! An entry is two 64-bit words: `data` (move, score, static eval, depth,
//! bound, age) and `check = key ^ data`. A reader accepts an entry only if
//! `check ^ data` equals its key, so a torn write by another thread reads
//! as a miss, never as a wrong entry. A bucket holds `ways` entries (4 by
//! default: 64 bytes, one cache line); a key maps to one bucket and may sit
//! in any of its ways.

use crate::rules::moves::Move;
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
    /// The score, with mate scores relative to this position (see `search`).
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

/// `n` empty slots, from zeroed memory: the allocator maps it lazily, so a
/// table of gigabytes is ready at once and its pages are touched (zeroed
/// by the kernel) only as the search reaches them. Writing the slots one by
/// one made `hash 4096` and each `ucinewgame` stall for seconds.
#[allow(unsafe_code)]
fn zeroed_slots(n: usize) -> Vec<Slot> {
    let slots = Box::<[Slot]>::new_zeroed_slice(n);
    // SAFETY: a `Slot` is two `AtomicU64`, which have the layout of `u64`;
    // all-zero bytes are the valid value 0 for each, an empty slot.
    unsafe { slots.assume_init() }.into_vec()
}

pub struct Table {
    slots: Vec<Slot>,
    ways: usize,
    buckets: usize,
    age: AtomicU8,
}

impl Table {
    /// A table of about `mb` megabytes in buckets of `ways` entries.
    pub fn new(mb: usize, ways: usize) -> Table {
        let ways = ways.clamp(1, 16);
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Slot>();
        let buckets = (entries / ways).max(1);
        Table {
            slots: zeroed_slots(buckets * ways),
            ways,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    pub fn ways(&self) -> usize {
        self.ways
    }

    /// Empties the table in place. The UCI loop swaps in a new table
    /// instead, which is instant at any size.
    pub fn clear(&self) {
        for s in &self.slots {
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

    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits pick the bucket: multiply-shift, no division.
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[b * self.ways..(b + 1) * self.ways]
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

    /// Whether every slot holds either nothing or a well-formed entry.
    pub fn is_well_formed(&self) -> bool {
        self.slots.iter().all(|s| {
            let data = s.data.load(Ordering::Relaxed);
            data == 0 || Entry::unpack(data).is_some()
        })
    }
}

/// The `check_rep` invariants and the `dump tt` text.
#[cfg(feature = "debug-commands")]
impl Entry {
    /// What is wrong with the raw word `data` of a non-empty slot, if
    /// anything: a bound, a move that is a packed move or none, a depth a
    /// search stores (1..=127), a score within ±MATE, no stray bits.
    fn check_data(data: u64) -> Result<(), String> {
        use crate::check::ensure;
        let Some(e) = Entry::unpack(data) else {
            return Err(format!("data {data:#018x} has no bound"));
        };
        let mv = data as u16;
        ensure(mv == 0 || e.mv.is_some(), || {
            format!("data {data:#018x}: move bits {mv:#06x} are not a move")
        })?;
        ensure(data >> 48 == 0, || {
            format!("data {data:#018x}: bits 48-63 are not zero")
        })?;
        crate::check::CheckRep::check_rep(&e)
    }
}

#[cfg(feature = "debug-commands")]
impl crate::check::CheckRep for Entry {
    const NAME: &'static str = "tt";

    fn check_rep(&self) -> Result<(), String> {
        use crate::check::ensure;
        use crate::search::MATE;
        ensure((1..=127).contains(&self.depth), || {
            format!("entry {self:?}: depth not in 1..=127")
        })?;
        ensure((self.score as i32).abs() <= MATE, || {
            format!("entry {self:?}: score beyond ±{MATE}")
        })?;
        ensure(self.age <= AGE_MASK, || {
            format!("entry {self:?}: age above {AGE_MASK}")
        })
    }
}

#[cfg(feature = "debug-commands")]
impl Table {
    /// Checks one slot: empty, or a well-formed entry.
    fn check_slot(&self, i: usize) -> Result<(), String> {
        let data = self.slots[i].data.load(Ordering::Relaxed);
        if data == 0 {
            return Ok(());
        }
        Entry::check_data(data).map_err(|e| format!("slot {i}: {e}"))
    }

    /// Checks the bucket of `key` (what a probe of `key` reads and a store
    /// writes): cheap enough for every node.
    pub fn check_bucket(&self, key: u64) -> Result<(), String> {
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        (b * self.ways..(b + 1) * self.ways).try_for_each(|i| self.check_slot(i))
    }

    /// The table's shape, fill, the entry of the position with `key`, and
    /// the first `first` non-empty entries.
    pub fn dump(&self, key: u64, first: usize) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        let used = self
            .slots
            .iter()
            .filter(|s| s.data.load(Ordering::Relaxed) != 0)
            .count();
        let _ = writeln!(
            t,
            "size {} MB, {} entries in {} buckets of {} ways, age {}",
            (self.slots.len() * std::mem::size_of::<Slot>()) >> 20,
            self.slots.len(),
            self.buckets,
            self.ways,
            self.age()
        );
        let _ = writeln!(
            t,
            "hashfull {} permille (this search), {used} entries non-empty",
            self.hashfull()
        );
        let show = |e: Option<Entry>| match e {
            None => "none".to_string(),
            Some(e) => format!(
                "move {} score {} depth {} bound {:?} age {}",
                e.mv.map_or("none".to_string(), |m| m.to_string()),
                e.score,
                e.depth,
                e.bound,
                e.age
            ),
        };
        let _ = writeln!(t, "this position ({key:016x}): {}", show(self.probe(key)));
        let _ = writeln!(t, "first {first} non-empty entries:");
        for (i, s) in self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.data.load(Ordering::Relaxed) != 0)
            .take(first)
        {
            let data = s.data.load(Ordering::Relaxed);
            let k = s.check.load(Ordering::Relaxed) ^ data;
            let _ = writeln!(
                t,
                "  slot {i:>8} key {k:016x} {}",
                show(Entry::unpack(data))
            );
        }
        let _ = writeln!(
            t,
            "check_rep {}",
            match crate::check::CheckRep::check_rep(self) {
                Ok(()) => "ok".to_string(),
                Err(e) => format!("FAILS: {e}"),
            }
        );
        t
    }
}

#[cfg(feature = "debug-commands")]
impl crate::check::CheckRep for Table {
    const NAME: &'static str = "tt";

    /// The shape, and every slot (a full scan: once per iteration).
    fn check_rep(&self) -> Result<(), String> {
        use crate::check::ensure;
        ensure((1..=16).contains(&self.ways), || {
            format!("{} ways, not in 1..=16", self.ways)
        })?;
        ensure(self.slots.len() == self.buckets * self.ways, || {
            format!(
                "{} slots for {} buckets of {} ways",
                self.slots.len(),
                self.buckets,
                self.ways
            )
        })?;
        ensure(self.age() <= AGE_MASK, || {
            format!("age {} above {AGE_MASK}", self.age())
        })?;
        (0..self.slots.len()).try_for_each(|i| self.check_slot(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    fn entry(depth: i8, score: i16) -> Entry {
        Entry {
            mv: Some(Move::rotate(Square::new(7), crate::rules::piece::Rot::L)),
            score,
            depth,
            bound: Bound::Exact,
            age: 0,
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let t = Table::new(1, 4);
        t.store(0xdead_beef, entry(5, -31990));
        let e = t.probe(0xdead_beef).unwrap();
        assert_eq!((e.depth, e.score, e.bound), (5, -31990, Bound::Exact));
        assert_eq!(e.mv, entry(0, 0).mv);
        assert_eq!(t.probe(0xdead_beee), None);
        assert!(t.is_well_formed());
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

#[cfg(all(test, feature = "debug-commands"))]
mod check_rep_tests {
    use super::*;
    use crate::check::CheckRep;
    use crate::rules::square::Square;

    fn entry(depth: i8, score: i16) -> Entry {
        Entry {
            mv: Some(Move::rotate(Square::new(7), crate::rules::piece::Rot::L)),
            score,
            depth,
            bound: Bound::Lower,
            age: 0,
        }
    }

    /// A table with one slot holding raw `data` for key 5.
    fn with_data(data: u64) -> Table {
        let t = Table::new(1, 4);
        t.store(5, entry(3, 10));
        let s = t
            .slots
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        s.data.store(data, Ordering::Relaxed);
        s.check.store(5 ^ data, Ordering::Relaxed);
        t
    }

    #[test]
    fn well_formed_entries_pass() {
        let t = Table::new(1, 4);
        t.store(5, entry(3, -32000));
        assert_eq!(t.check_rep(), Ok(()));
        assert_eq!(t.check_bucket(5), Ok(()));
        assert_eq!(t.probe(5).unwrap().check_rep(), Ok(()));
    }

    #[test]
    fn each_malformed_entry_is_caught_with_its_message() {
        let good = entry(3, 10).pack();
        let cases = [
            (good & !(3 << 40), "has no bound"),
            (good & !0xffff | 0x8000 | 0x4000, "are not a move"),
            (good | 1 << 50, "bits 48-63 are not zero"),
            (entry(0, 10).pack(), "depth not in 1..=127"),
            (entry(-3, 10).pack(), "depth not in 1..=127"),
            (entry(3, 32001).pack(), "score beyond ±32000"),
        ];
        for (data, want) in cases {
            let t = with_data(data);
            let e = t.check_rep().unwrap_err();
            assert!(e.starts_with("slot ") && e.ends_with(want), "{e}");
            assert_eq!(t.check_bucket(5).unwrap_err(), e);
        }
    }

    #[test]
    fn a_bad_shape_is_caught() {
        let mut t = Table::new(1, 4);
        t.buckets += 1;
        assert!(t.check_rep().unwrap_err().contains("slots for"));
        t.ways = 17;
        assert_eq!(t.check_rep().unwrap_err(), "17 ways, not in 1..=16");
    }

    #[test]
    fn the_dump_shows_the_current_entry() {
        let t = Table::new(1, 4);
        t.store(5, entry(3, 10));
        let d = t.dump(5, 10);
        assert!(d.contains("4 ways"), "{d}");
        assert!(
            d.contains("this position (0000000000000005): move h0L score 10 depth 3"),
            "{d}"
        );
        assert!(d.contains("key 0000000000000005"), "{d}");
        assert!(d.contains("check_rep ok"), "{d}");
    }
}
