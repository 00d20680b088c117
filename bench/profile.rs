//! The flamegraph workload (`make profile`, `scripts/profile.sh`): the
//! bench positions searched to a fixed depth on one thread (`search`),
//! over and over for a fixed time, under the in-process sampling profiler
//! `pprof` asked for 1000 samples a second of CPU time (SIGPROF: the
//! kernel delivers at most one a timer tick, so 250 a second with
//! `CONFIG_HZ=250`), restarted every 200 ms so that inlined functions get
//! their share (see `profile`).
//!
//! It writes an SVG flamegraph and prints three tables of the 20 functions
//! with the most samples: by self share (the sampled stack's innermost
//! frame), by self share charged to the innermost `leiserchess::` frame
//! (so that library code such as slice iterators or `Ord::min` counts for
//! the engine function running it), and by inclusive share (anywhere on
//! the stack, counted once per sample; engine functions only, since the
//! `main`/`std` wrappers around them are on every stack). Inlined
//! functions count as frames of their own, as far as the debug line
//! information (`debug = 1`, inherited by the bench profile from the
//! release profile) names them.
//!
//! Usage: `cargo bench --bench profile -- [OUT.svg] [SECONDS]`, or the
//! environment variables `PROFILE_OUT`, `PROFILE_SECONDS` and
//! `PROFILE_DEPTH` (defaults `target/profile/flamegraph.svg`, 10 s and
//! depth 7). `PROFILE_FOLDED=FILE` also writes the stacks as sampled in
//! folded form; `PROFILE_RAW=1` draws them as sampled (see `simplify`). A
//! relative `OUT.svg` is relative to the crate root, where cargo runs
//! benches. Other arguments starting with `-` are ignored. As with
//! criterion, `--bench` (which `cargo bench` passes) selects the real run:
//! without it (`cargo test --benches`) one quick depth-3 round is
//! profiled and nothing is written.

use leiserchess::search::tt::TableSize;
use leiserchess::search::{bench, Params};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const DEFAULT_OUT: &str = "target/profile/flamegraph.svg";
const DEFAULT_SECONDS: f64 = 10.0;
const DEFAULT_DEPTH: u32 = 7;
/// Samples per second of CPU time.
const FREQUENCY: i32 = 1000;
/// The profiler restarts this often (see `profile`).
const SLICE: Duration = Duration::from_millis(200);
/// Rows of each table.
const TOP: usize = 20;

struct Config {
    out: PathBuf,
    seconds: f64,
    depth: u32,
    /// Keep the stacks as sampled (see `simplify`).
    raw: bool,
}

fn config() -> Result<Config, String> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut out = env("PROFILE_OUT");
    let mut seconds = env("PROFILE_SECONDS");
    let depth = env("PROFILE_DEPTH");
    let mut positional = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    if let Some(a) = positional.next() {
        out = Some(a);
    }
    if let Some(a) = positional.next() {
        seconds = Some(a);
    }
    let seconds = match seconds {
        None => DEFAULT_SECONDS,
        Some(s) => s
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .ok_or(format!("SECONDS must be a number ≥ 0, got '{s}'"))?,
    };
    let depth = match depth {
        None => DEFAULT_DEPTH,
        Some(d) => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=20).contains(d))
            .ok_or(format!("PROFILE_DEPTH must be 1..20, got '{d}'"))?,
    };
    Ok(Config {
        out: PathBuf::from(out.unwrap_or_else(|| DEFAULT_OUT.to_string())),
        seconds,
        depth,
        raw: env("PROFILE_RAW").is_some_and(|v| v != "0"),
    })
}

/// A symbol's demangled name without the legacy mangling's `::h…` hash.
fn clean(name: &str) -> String {
    match name.rfind("::h") {
        Some(i) if name.len() - i == 19 && name[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) => {
            name[..i].to_string()
        }
        _ => name.to_string(),
    }
}

/// Whether a (cleaned) name is one of the engine's own functions,
/// `leiserchess::…` or `<leiserchess::… as …>::…`.
fn is_engine(name: &str) -> bool {
    name.starts_with("leiserchess::") || name.starts_with("<leiserchess::")
}

/// Makes a sampled stack readable in a flamegraph (`PROFILE_RAW` unset):
/// drops the frames outside the outermost engine frame (`main`, `std::rt`,
/// the bench's own `run`) and the library frames between engine frames
/// (iterator adaptors, `thread::scope`, `catch_unwind`), and folds
/// recursion: a function met again on the way in replaces the stack from
/// its first call, so `pvs → search_moves → pvs → … → quiesce →
/// static_eval` becomes `pvs → search_moves → quiesce → static_eval`, and
/// the evaluation of every depth stacks in one tower. The innermost frame
/// stays. (The tables are counted on the stacks as sampled.)
fn simplify(frames: &mut pprof::Frames) {
    // One symbol a frame, outermost first.
    let flat: Vec<&pprof::Symbol> = frames
        .frames
        .iter()
        .rev()
        .flat_map(|f| f.iter().rev())
        .collect();
    let names: Vec<String> = flat.iter().map(|s| clean(&s.name())).collect();
    let (Some(first), Some(last)) = (
        names.iter().position(|n| is_engine(n)),
        names.iter().rposition(|n| is_engine(n)),
    ) else {
        return;
    };
    let mut path: Vec<usize> = Vec::new();
    for i in first..names.len() {
        if i < last && !is_engine(&names[i]) {
            continue;
        }
        match path.iter().position(|&k| names[k] == names[i]) {
            Some(j) => path.truncate(j + 1),
            None => path.push(i),
        }
    }
    frames.frames = path.iter().rev().map(|&i| vec![flat[i].clone()]).collect();
}

/// `report` with every stack `simplify`-ed.
fn simplified(report: &pprof::Report) -> pprof::Report {
    let mut data: HashMap<pprof::Frames, isize> = HashMap::new();
    for (frames, &count) in &report.data {
        let mut frames = frames.clone();
        simplify(&mut frames);
        // Stacks that are now the same merge (the key includes the time of
        // a stack's first sample).
        frames.sample_timestamp = std::time::UNIX_EPOCH;
        *data.entry(frames).or_default() += count;
    }
    pprof::Report {
        data,
        timing: report.timing.clone(),
    }
}

/// Sample counts by function, and the total.
#[derive(Default)]
struct Tally {
    /// The stack's innermost frame, whatever it is.
    own: HashMap<String, i64>,
    /// The innermost engine frame: library code (slice iterators,
    /// `Ord::min`, atomics…) charged to the engine function that ran it.
    own_engine: HashMap<String, i64>,
    /// Every distinct engine frame on the stack.
    inclusive: HashMap<String, i64>,
    total: i64,
}

fn tally(report: &pprof::Report) -> Tally {
    let mut t = Tally::default();
    for (frames, &count) in &report.data {
        let count = count as i64;
        t.total += count;
        // `frames.frames` runs from the innermost physical frame outwards;
        // each holds its inlined functions, innermost first.
        let names: Vec<String> = frames
            .frames
            .iter()
            .flatten()
            .map(|symbol| clean(&symbol.name()))
            .collect();
        let leaf = names.first().cloned().unwrap_or_else(|| "[unknown]".into());
        *t.own.entry(leaf).or_default() += count;
        let engine_leaf = names.iter().find(|n| is_engine(n));
        let engine_leaf = engine_leaf
            .cloned()
            .unwrap_or_else(|| "[outside the engine]".into());
        *t.own_engine.entry(engine_leaf).or_default() += count;
        let distinct: HashSet<&String> = names.iter().filter(|n| is_engine(n)).collect();
        for name in distinct {
            *t.inclusive.entry(name.clone()).or_default() += count;
        }
    }
    t
}

/// The `TOP` rows of `counts` with the most samples. With `skip_all`,
/// the functions on (nearly) every stack are named on one line instead.
fn print_top(title: &str, counts: &HashMap<String, i64>, total: i64, skip_all: bool) {
    let mut rows: Vec<(&String, &i64)> = counts.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    println!("\ntop {TOP} by {title} (of {total} samples):");
    if skip_all {
        let all: Vec<&str> = rows
            .iter()
            .filter(|r| *r.1 * 200 >= total * 199)
            .map(|r| r.0.as_str())
            .collect();
        if !all.is_empty() {
            println!("(on 99.5% of stacks or more: {})", all.join(", "));
        }
        rows.retain(|r| *r.1 * 200 < total * 199);
    }
    println!("{:>7} {:>8}  function", "share", "samples");
    for (name, &n) in rows.into_iter().take(TOP) {
        let share = 100.0 * n as f64 / total.max(1) as f64;
        println!("{share:6.2}% {n:>8}  {name}");
    }
}

/// The samples as folded stacks (`outer;…;inner count`, one a line, the
/// input of `inferno-flamegraph` and speedscope), names cleaned.
fn write_folded(report: &pprof::Report, path: &PathBuf) -> Result<(), String> {
    use std::io::Write;
    let mut lines: Vec<String> = report
        .data
        .iter()
        .map(|(frames, count)| {
            let names: Vec<String> = frames
                .frames
                .iter()
                .rev()
                .flat_map(|f| f.iter().rev())
                .map(|symbol| clean(&symbol.name()))
                .collect();
            format!("{} {count}", names.join(";"))
        })
        .collect();
    lines.sort();
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The CPU time of the calling thread so far (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds), if known.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse::<u64>().ok()?;
    Some(Duration::from_nanos(ns))
}

/// What `profile` measured.
struct Profile {
    /// Every slice's samples.
    report: pprof::Report,
    slices: u32,
    rounds: u32,
    nodes: u64,
    elapsed: Duration,
    /// The search thread's CPU time, if known.
    cpu: Option<Duration>,
}

/// Searches the bench positions to `depth` on a thread of its own, round
/// after round until `seconds` have passed, and samples it in `SLICE`s.
///
/// pprof counts a sample under the first sample with the same *physical*
/// call stack (it compares the functions' start addresses, not the
/// instruction pointers) and resolves inlined functions from that first
/// sample's addresses alone. With fat LTO nearly everything is inlined
/// into a dozen functions, so one long profile would give each physical
/// stack's samples to whichever inlined function its first sample was in:
/// `Walk::run`, `place` or `Lengths::lower` would swap several percent
/// from run to run. A new profiler for every short slice draws a new
/// representative each time, so the inlined functions' shares average
/// out over the slices' thousands of representatives.
fn profile(depth: u32, seconds: f64) -> Result<Profile, String> {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let search = std::thread::Builder::new()
            .name("search".to_string())
            .spawn_scoped(scope, || {
                let cpu0 = thread_cpu();
                let start = Instant::now();
                let (mut rounds, mut nodes) = (0u32, 0u64);
                loop {
                    let table = TableSize::default();
                    let lines = bench::run(depth, Params::default(), table.hash_mb, table.ways);
                    nodes += lines.iter().map(|l| l.nodes).sum::<u64>();
                    rounds += 1;
                    if start.elapsed() >= Duration::from_secs_f64(seconds) {
                        break;
                    }
                }
                let elapsed = start.elapsed();
                let cpu = thread_cpu().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
                done.store(true, Ordering::Release);
                (rounds, nodes, elapsed, cpu)
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        let mut data: HashMap<pprof::Frames, isize> = HashMap::new();
        let mut timing = None;
        let mut slices = 0u32;
        loop {
            let guard = pprof::ProfilerGuardBuilder::default()
                .frequency(FREQUENCY)
                .blocklist(&["libc", "libgcc", "pthread", "vdso"])
                .build()
                .map_err(|e| format!("cannot start the profiler: {e}"))?;
            let start = Instant::now();
            while start.elapsed() < SLICE && !done.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let report = guard
                .report()
                .build()
                .map_err(|e| format!("cannot build the report: {e}"))?;
            drop(guard);
            slices += 1;
            for (mut frames, count) in report.data {
                // The same stack from different slices is one key.
                frames.sample_timestamp = std::time::UNIX_EPOCH;
                *data.entry(frames).or_default() += count;
            }
            match &mut timing {
                None => timing = Some(report.timing),
                Some(t) => t.duration += report.timing.duration,
            }
            if done.load(Ordering::Acquire) {
                break;
            }
        }
        let (rounds, nodes, elapsed, cpu) = search
            .join()
            .map_err(|_| "the search thread panicked".to_string())?;
        Ok(Profile {
            report: pprof::Report {
                data,
                timing: timing.expect("at least one slice"),
            },
            slices,
            rounds,
            nodes,
            elapsed,
            cpu,
        })
    })
}

fn run() -> Result<(), String> {
    let cfg = config()?;
    if let Some(dir) = cfg.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    println!(
        "profile: bench positions ({}) to depth {}, 1 thread, {} MB {}-way table, \
         repeated for at least {:.1} s, asking for {} samples a second",
        bench::POSITIONS.len(),
        cfg.depth,
        TableSize::default().hash_mb,
        TableSize::default().ways,
        cfg.seconds,
        FREQUENCY
    );

    let p = profile(cfg.depth, cfg.seconds)?;
    let report = &p.report;
    println!(
        "{} rounds, {} nodes in {:.2} s wall ({:.0} nodes/s)",
        p.rounds,
        p.nodes,
        p.elapsed.as_secs_f64(),
        p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9)
    );
    let samples: isize = report.data.values().sum();
    if let Some(cpu) = p.cpu {
        // SIGPROF comes from the kernel's timer tick: at most CONFIG_HZ a
        // second, whatever the frequency asked for.
        println!(
            "{samples} samples in {} slices, {:.2} s of the search thread's CPU time \
             ({:.0} a second)",
            p.slices,
            cpu.as_secs_f64(),
            samples as f64 / cpu.as_secs_f64().max(1e-9)
        );
    }
    let file = std::fs::File::create(&cfg.out)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out.display()))?;
    let shown = if cfg.raw {
        None
    } else {
        Some(simplified(report))
    };
    let mut options = pprof::flamegraph::Options::default();
    options.title = format!("leiserchess: bench positions to depth {}", cfg.depth);
    options.subtitle = Some(format!(
        "{samples} CPU-time samples of one search thread{}",
        if cfg.raw {
            ""
        } else {
            "; recursion folded, std wrappers between engine frames hidden"
        }
    ));
    options.count_name = "samples".to_string();
    options.image_width = Some(1600);
    // Colours by name, the same in every run.
    options.hash = true;
    shown
        .as_ref()
        .unwrap_or(report)
        .flamegraph_with_options(std::io::BufWriter::new(file), &mut options)
        .map_err(|e| format!("cannot write the flamegraph: {e}"))?;
    let path = std::fs::canonicalize(&cfg.out).unwrap_or(cfg.out.clone());
    println!("flamegraph: {}", path.display());

    if let Some(folded) = std::env::var_os("PROFILE_FOLDED").filter(|v| !v.is_empty()) {
        write_folded(report, &PathBuf::from(&folded))?;
        println!("folded stacks: {}", PathBuf::from(folded).display());
    }

    let t = tally(report);
    print_top("self share (innermost frame)", &t.own, t.total, false);
    print_top(
        "self share (innermost leiserchess:: frame)",
        &t.own_engine,
        t.total,
        false,
    );
    print_top(
        "inclusive share (leiserchess:: frames on the stack)",
        &t.inclusive,
        t.total,
        true,
    );
    Ok(())
}

/// Without `--bench` (`cargo test --benches` runs bench targets so): one
/// quick round under the profiler, nothing written.
fn smoke() -> Result<(), String> {
    let p = profile(3, 0.0)?;
    println!(
        "profile: test mode (no --bench), depth 3, {} nodes, {} samples: ok",
        p.nodes,
        p.report.data.values().sum::<isize>()
    );
    Ok(())
}

fn main() -> ExitCode {
    let result = if std::env::args().any(|a| a == "--bench") {
        run()
    } else {
        smoke()
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("profile: {e}");
            ExitCode::FAILURE
        }
    }
}
