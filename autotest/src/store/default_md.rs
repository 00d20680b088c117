//! `autotest nets default-md HASH`: `src/eval/nnue/default.md`, the
//! record of the embedded net, made from the net's lineage record in the
//! lab store and the results database. Its table (generation, file,
//! shape, since when it is embedded, its store name, its `bench`
//! signature), its parents, the command that trained it, the data it was
//! trained on with what played and scored them, the SPRTs that promoted
//! it (with their run in the results database where it has one), the
//! generations before it back to generation 5, and generation 5's history
//! as written by hand (`leiserchess::lab::store::GENERATION5_HISTORY`).
//!
//! A net's generation is 5 for generation 5 and one more than the net
//! its latest promotion was played against for any other.

use crate::db::artifacts::{self, Artifact};
use crate::db::loops;
use crate::db::promotions::{self, Promotion};
use crate::db::text_enums::{ArtifactKind, ArtifactStatus, Decision, ParentRole};
use crate::stats::elo;
use leiserchess::eval::nnue::Network;
use leiserchess::lab::store::{self, Store, GENERATION5_HISTORY};
use rusqlite::Connection;

/// The page for the net `sha256`, with `bench` the `leiserchess bench`
/// node total measured with it.
pub fn page(
    conn: &Connection,
    store: &Store,
    sha256: &str,
    bench: Option<u64>,
) -> Result<String, String> {
    let net = artifacts::get(conn, sha256)?.ok_or(format!("no artifact {sha256}"))?;
    let generation = generation_of(conn, sha256)?;
    let bytes = std::fs::read(store.object_path(sha256)).map_err(|e| {
        format!(
            "{sha256} is not in the store {}: {e}",
            store.root().display()
        )
    })?;
    let mut out = String::from(INTRO);
    out += &table(&net, generation, &bytes, bench)?;
    out += &lineage(conn, sha256)?;
    out += &training(&net);
    out += &data(conn, sha256)?;
    out += &accepted(conn, &promotions::of(conn, sha256)?)?;
    out += &earlier(conn, sha256)?;
    out += "\n";
    out += GENERATION5_HISTORY;
    Ok(out)
}

const INTRO: &str = "# The embedded net: `default.nnue`

What `EvalFile` is by default and `bench`'s signature is measured with.
This file is made by `autotest nets default-md HASH --bench NODES` from
the net's record in the lab store and the results database
(docs/STORE.md). `tests/engine/nnue.rs` checks that the file beside this
one has the size and sha256 written here, and
`autotest/tests/tournament/default_md.rs` that the command makes this
file of the embedded net in a store that holds only the committed nets
(`src/lab/store/`), what a clean clone has: a parent shown `lost` there
may be kept in the lab store that made it. Figures and their commands are
in BENCHMARKS.md (\"Net generations\").

";

/// The generation of the net `sha256`.
fn generation_of(conn: &Connection, sha256: &str) -> Result<u32, String> {
    let five = store::generation5_record().sha256;
    let mut at = sha256.to_string();
    let mut steps: u32 = 0;
    // A chain of promotions as long as the nets there are ends somewhere
    // or goes round.
    let most = artifacts::list(conn, ArtifactKind::Net)?.len();
    while at != five {
        let against = promotions::of(conn, &at)?
            .pop()
            .and_then(|p| p.against)
            .filter(|_| steps as usize <= most);
        let Some(against) = against else {
            return Err(format!(
                "the generation of {sha256} is not known: it is generation 5 ({}), or a net \
                 promoted by autotest loop against one whose generation is known, and {at} is \
                 neither",
                &five[..8]
            ));
        };
        at = against;
        steps += 1;
    }
    Ok(5 + steps)
}

/// `n` with a comma every three digits: `295,700`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The net's shape from its file: its inputs, and its hidden units.
fn shape(bytes: &[u8]) -> Result<String, String> {
    let net = Network::from_bytes(bytes).map_err(|e| e.to_string())?;
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let what = match word(12) {
        1 => "pieces and beams",
        _ => "pieces",
    };
    Ok(format!(
        "{} inputs ({what} from each side's view) → 2 × {} → 1",
        thousands(net.inputs() as u64),
        word(8)
    ))
}

fn table(
    net: &Artifact,
    generation: u32,
    bytes: &[u8],
    bench: Option<u64>,
) -> Result<String, String> {
    let prefix = &net.sha256[..8];
    let embedded = match (&net.embedded_commit, &net.embedded_date) {
        (Some(c), Some(d)) => format!("{c} ({d} UTC)"),
        (Some(c), None) => c.clone(),
        _ => "not in its record".to_string(),
    };
    let bench = bench.map_or(
        "not given (`autotest nets default-md --bench NODES`)".to_string(),
        |n| format!("{} nodes (`bench/signature-pvs.txt`)", thousands(n)),
    );
    let rows = [
        ("generation", generation.to_string()),
        (
            "file",
            format!(
                "{} bytes, sha256 `{}`",
                thousands(bytes.len() as u64),
                net.sha256
            ),
        ),
        ("shape", shape(bytes)?),
        ("embedded since", embedded),
        (
            "in the store",
            format!("`store:{prefix}`, its lineage `autotest nets show {prefix}` (docs/STORE.md)"),
        ),
        ("bench signature", bench),
    ];
    let mut out = String::from("| | |\n|---|---|\n");
    for (name, value) in rows {
        out += &format!("| {name} | {value} |\n");
    }
    Ok(out)
}

fn dash(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "-".to_string())
}

/// Its record's parents, a row each.
fn lineage(conn: &Connection, sha256: &str) -> Result<String, String> {
    let mut out = String::from(
        "\n## Lineage\n\nIts record's parents:\n\n\
         | role | sha256 | kind | status | positions | file |\n|---|---|---|---|---|---|\n",
    );
    for e in artifacts::parents(conn, sha256)? {
        let a = artifacts::get(conn, &e.sha256)?;
        let cell = |f: fn(&Artifact) -> String| a.as_ref().map_or("-".to_string(), f);
        out += &format!(
            "| {} | `{}` | {} | {} | {} | {} |\n",
            e.role,
            e.sha256,
            cell(|a| a.kind.to_string()),
            cell(|a| a.status.to_string()),
            cell(|a| a.positions.map_or("-".to_string(), |p| thousands(p as u64))),
            cell(|a| dash(&a.file)),
        );
    }
    Ok(out)
}

/// `words` as a shell command, wrapped before 76 columns.
fn wrapped(words: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 74 {
            out += &line;
            out += " \\\n";
            line = "    ".to_string();
        } else if !line.is_empty() {
            line.push(' ');
        }
        line += w;
    }
    out + &line + "\n"
}

/// The command that trained it, and where and when.
fn training(net: &Artifact) -> String {
    let mut out = String::from("\n## Training\n\n");
    match &net.command {
        Some(words) => out += &format!("```sh\n{}```\n\n", wrapped(words)),
        None => out += "Its record has no command.\n\n",
    }
    out + &format!(
        "Build {}, host {}, {} UTC.\n",
        dash(&net.build_commit),
        dash(&net.host),
        dash(&net.date)
    )
}

/// Each dataset it was trained on that has a record: its size, the
/// command that made it, and its own parents.
fn data(conn: &Connection, sha256: &str) -> Result<String, String> {
    let mut out = String::new();
    for e in artifacts::parents(conn, sha256)? {
        if e.role != ParentRole::TrainedOn {
            continue;
        }
        let Some(d) = artifacts::get(conn, &e.sha256)?.filter(|d| d.command.is_some()) else {
            continue;
        };
        let parents: Vec<String> = artifacts::parents(conn, &d.sha256)?
            .iter()
            .map(|p| format!("{} `{}`", p.role, p.sha256))
            .collect();
        out += &format!(
            "- `{}`: {} positions, {}; `{}`; {}\n",
            d.sha256,
            d.positions.map_or("-".to_string(), |p| thousands(p as u64)),
            match d.status {
                ArtifactStatus::Kept => "in the store",
                ArtifactStatus::Lost => "lost",
            },
            d.command.as_ref().map_or(String::new(), |c| c.join(" ")),
            if parents.is_empty() {
                "no parents recorded".to_string()
            } else {
                parents.join(", ")
            }
        );
    }
    if out.is_empty() {
        return Ok(out);
    }
    Ok(format!(
        "\n## Data\n\nThe datasets it was trained on that have a record: hash, size, \
         command, parents.\n\n{out}"
    ))
}

/// The SPRT of a promotion, in words.
fn sprt_text(p: &Promotion) -> String {
    let [w, d, l] = p.wdl;
    let shown =
        elo::estimate_wdl(w, d, l).map_or("-".to_string(), |e| elo::elo_shown(&e, w + d + l, 1));
    format!(
        "SPRT at {}, elo0 {} elo1 {}: W {w} D {d} L {l}, {shown}, LLR {:.2}, H1",
        p.limits, p.elo0, p.elo1, p.llr
    )
}

/// The run of the loop's generation that promoted a net, if the results
/// database has it.
fn run_of(conn: &Connection, p: &Promotion) -> Result<Option<i64>, String> {
    let found = loops::all(conn)?
        .into_iter()
        .filter(|l| l.row.dir == p.loop_dir)
        .flat_map(|l| l.row.generations)
        .filter(|g| {
            g.number == p.generation
                && g.candidate.as_deref() == Some(p.sha256.as_str())
                && g.decision == Some(Decision::Promoted)
        })
        .find_map(|g| g.sprt_run);
    Ok(found)
}

/// The SPRTs that promoted it.
fn accepted(conn: &Connection, promoted: &[Promotion]) -> Result<String, String> {
    let mut out = String::from("\n## Accepted by\n\n");
    if promoted.is_empty() {
        return Ok(out + "Its record holds no promotion by `autotest loop`.\n");
    }
    for p in promoted {
        let run = run_of(conn, p)?.map_or(String::new(), |id| {
            format!(" (run {id} of the results database)")
        });
        out += &format!(
            "- `autotest loop` in `{}`, generation {}, against `{}`: {}{run}, {} UTC.\n",
            p.loop_dir,
            p.generation,
            p.against.as_deref().unwrap_or("a net not known by hash"),
            sprt_text(p),
            p.date
        );
    }
    Ok(out)
}

/// The nets before it, each promoted against the next, back to
/// generation 5.
fn earlier(conn: &Connection, sha256: &str) -> Result<String, String> {
    let five = store::generation5_record().sha256;
    let mut out = String::new();
    let mut at = promotions::of(conn, sha256)?.pop().and_then(|p| p.against);
    while let Some(net) = at.filter(|n| *n != five) {
        let Some(p) = promotions::of(conn, &net)?.pop() else {
            break;
        };
        out += &format!(
            "- generation {}: `{net}`, by `autotest loop` in `{}`, generation {}: {}.\n",
            generation_of(conn, &net)?,
            p.loop_dir,
            p.generation,
            sprt_text(&p)
        );
        at = p.against;
    }
    if out.is_empty() {
        return Ok(out);
    }
    Ok(format!(
        "\n## Earlier generations\n\nNewest first, each promoted against the next.\n\n{out}"
    ))
}
