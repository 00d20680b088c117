//! The table's `check_rep` invariants (an entry's, a bucket's, the whole
//! table's) and the `dump tt` text.

use super::{Entry, Table, AGE_MASK};
use crate::check_rep::{ensure, CheckRep};
use crate::search::MATE;
use std::sync::atomic::Ordering;

impl Entry {
    /// What is wrong with the raw word `data` of a non-empty slot, if
    /// anything: a bound, a move that is a packed move or none, no stray
    /// bits, and the entry's own invariants.
    fn check_data(data: u64) -> Result<(), String> {
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
        e.check_rep()
    }
}

impl CheckRep for Entry {
    const NAME: &'static str = "tt";

    /// A depth a search stores (1..=127), a score within ±MATE, an age in
    /// its 6 bits.
    fn check_rep(&self) -> Result<(), String> {
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
        self.bucket_range(key).try_for_each(|i| self.check_slot(i))
    }

    /// The table's shape, fill, the entry of the position with `key`, and
    /// the first `first` non-empty entries.
    #[cfg(feature = "debug-commands")]
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
            (self.slots.len() * std::mem::size_of::<super::Slot>()) >> 20,
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
            match self.check_rep() {
                Ok(()) => "ok".to_string(),
                Err(e) => format!("FAILS: {e}"),
            }
        );
        t
    }
}

impl CheckRep for Table {
    const NAME: &'static str = "tt";

    /// The shape, and every slot (a full scan: once per iteration).
    fn check_rep(&self) -> Result<(), String> {
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
    use super::super::tests::entry;
    use super::*;

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

    #[cfg(feature = "debug-commands")]
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
        assert!(d.contains(", 1 entries non-empty"), "{d}");
        assert!(d.contains("check_rep ok"), "{d}");
    }
}
