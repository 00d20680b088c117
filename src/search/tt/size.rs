//! The transposition table's shape, declared once with its UCI names,
//! defaults and ranges.

use crate::declaration::{self, number_field, Declaration, Effect};

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
