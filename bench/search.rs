//! Criterion benchmarks of the search: the transposition table's probe and
//! store, and whole fixed-depth searches.
//!
//! - `tt/probe_hit`, `tt/probe_miss`, `tt/store`: one operation per
//!   iteration on a 16 MB 4-way table (2^20 entries) half filled with
//!   pseudo-random keys, so criterion's time is the time per operation.
//!   `probe_hit` asks for keys that were stored (nearly all still there),
//!   `probe_miss` for keys that never were (every way of the bucket is
//!   read and rejected), `store` writes fresh keys into a table that
//!   starts half full (a bucket scan, then a replacement). Keys are a `splitmix64` of
//!   a counter, computed in the loop: a few cycles of every iteration, the
//!   same in all three, and no key array competing for the cache. Most
//!   operations miss the L2 cache and the TLB; consecutive operations are
//!   independent and may overlap, so the times are per operation in a
//!   stream, not one operation's latency (a store, which branches on what
//!   it reads, overlaps less than a probe).
//! - `search/bench_depth4`: `search::bench::run(4, Params::default(), 16,
//!   4)`, the 24 bench positions to depth 4, a fresh table each (its
//!   allocation included, as in `leiserchess bench`);
//! - `search/startpos_d6`: the start position searched to depth 6, one
//!   thread, a fresh 16 MB table each time (allocated outside the timing).
//!
//! The searches' throughput is their node count, so criterion reports
//! nodes per second; single-thread search is deterministic, and every
//! timed search is checked to visit exactly the expected nodes.
//!
//! Run with `cargo bench --bench search`; the whole run takes about 40 s.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use leiserchess::check_rep::CheckRep;
use leiserchess::rules::fen;
use leiserchess::rules::moves::Move;
use leiserchess::rules::piece::Rot;
use leiserchess::rules::square::Square;
use leiserchess::search::pvs::order::Order;
use leiserchess::search::pvs::think;
use leiserchess::search::time::SearchLimits;
use leiserchess::search::tt::{Bound, Entry, Table};
use leiserchess::search::{bench, Params, Root, Shared};
use std::hint::black_box;
use std::time::Duration;

/// The table under test: 16 MB, 4 ways (the engine's defaults).
const TT_MB: usize = 16;
const TT_WAYS: usize = 4;

/// Keys stored before probing: half the table's 2^20 entries.
const FILLED: u64 = 1 << 19;

/// Counters at and above this give keys that were never stored.
const FRESH: u64 = 1 << 40;

/// `splitmix64`: a well-mixed 64-bit key for each counter value.
#[inline(always)]
fn key(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An entry varying with `i`: depth 1..=16 (as a search stores), all three
/// bounds, a move or none.
#[inline(always)]
fn entry(i: u64) -> Entry {
    Entry {
        mv: (i & 4 != 0).then(|| Move::rotate(Square::new((i % 64) as u8), Rot::L)),
        score: (i % 2001) as i16 - 1000,
        depth: 1 + (i % 16) as i8,
        bound: match i % 3 {
            0 => Bound::Upper,
            1 => Bound::Lower,
            _ => Bound::Exact,
        },
        age: 0,
    }
}

/// A table holding the keys `key(0..FILLED)`.
fn filled_table() -> Table {
    let t = Table::new(TT_MB, TT_WAYS);
    for i in 0..FILLED {
        t.store(key(i), entry(i));
    }
    t
}

fn bench_tt(c: &mut Criterion) {
    let table = filled_table();
    let hits = (0..FILLED)
        .filter(|&i| table.probe(key(i)).is_some())
        .count() as u64;
    let false_hits = (0..FILLED)
        .filter(|&i| table.probe(key(FRESH + i)).is_some())
        .count();
    assert!(
        hits * 10 >= FILLED * 9,
        "only {hits} of {FILLED} stored keys are still in the table"
    );
    assert_eq!(false_hits, 0, "keys never stored were found");
    eprintln!(
        "tt: {TT_MB} MB, {TT_WAYS} ways, {FILLED} keys stored, {:.1}% still found",
        100.0 * hits as f64 / FILLED as f64
    );

    let mut g = c.benchmark_group("tt");
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(1));
    g.bench_function("probe_hit", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i = (i + 1) & (FILLED - 1);
            table.probe(black_box(key(i)))
        })
    });
    g.bench_function("probe_miss", |b| {
        let mut i = FRESH;
        b.iter(|| {
            i += 1;
            table.probe(black_box(key(i)))
        })
    });
    // Stores go to a table of its own: the probes above keep theirs.
    let store_table = filled_table();
    g.bench_function("store", |b| {
        // Fresh keys, wrapping after 2^24 stores (16 times the table's
        // size): the table stays full of recent entries.
        let mut i = 0u64;
        b.iter(|| {
            i = (i + 1) & ((1 << 24) - 1);
            store_table.store(black_box(key(FRESH + i)), black_box(entry(i)));
        })
    });
    g.finish();
    assert_eq!(table.check_rep(), Ok(()), "the probed table");
    assert_eq!(store_table.check_rep(), Ok(()), "the stored-to table");
}

/// What one single-thread search needs besides the position: a fresh
/// table and move-ordering state.
fn fresh(hash_mb: usize, ways: usize) -> (Shared, [Order; 1]) {
    (Shared::new(hash_mb, ways), [Order::default()])
}

/// Searches `root` to `depth` on one thread; returns the node count.
fn search(root: &Root, depth: u32, shared: &Shared, orders: &mut [Order; 1]) -> u64 {
    let limits = SearchLimits::depth(depth);
    let answer = think(
        root,
        &limits,
        Params::default(),
        shared,
        orders,
        |_, _, _| {},
    );
    answer.nodes
}

fn bench_search(c: &mut Criterion) {
    let bench_nodes = |lines: &[bench::Line]| lines.iter().map(|l| l.nodes).sum::<u64>();
    let run4 = || bench::run(4, Params::default(), TT_MB, TT_WAYS);
    let nodes4 = bench_nodes(&run4());

    let root = Root::new(fen::parse(fen::STARTPOS).expect("the start position parses"));
    let (shared, mut orders) = fresh(TT_MB, TT_WAYS);
    let nodes6 = search(&root, 6, &shared, &mut orders);
    eprintln!("search: bench depth 4 {nodes4} nodes, startpos depth 6 {nodes6} nodes");

    let mut g = c.benchmark_group("search");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(nodes4));
    g.bench_function("bench_depth4", |b| {
        b.iter(|| {
            let lines = run4();
            assert_eq!(bench_nodes(&lines), nodes4, "bench depth 4 nodes changed");
            lines
        })
    });
    g.throughput(Throughput::Elements(nodes6));
    g.bench_function("startpos_d6", |b| {
        b.iter_batched_ref(
            || fresh(TT_MB, TT_WAYS),
            |(shared, orders)| {
                let nodes = search(black_box(&root), 6, shared, orders);
                assert_eq!(nodes, nodes6, "startpos depth 6 nodes changed");
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench_tt, bench_search);
criterion_main!(benches);
