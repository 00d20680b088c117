//! The SPRT step on Slurm: the tournament the local step plays
//! (`net_loop::sprt::spec`) written as autotest's flags, with `-slurm
//! dir=RUN/gen-G/sprt [settings]`: the run directory keeps the flags and
//! each array task parses them again. The coordinator merges the games
//! in schedule order into `RUN/gen-G/sprt/games.pgn` (the decision is a
//! local run's with one game at a time) and records the run in the
//! results database, which the loop sets on its generation's row. The
//! verdict, LLR and score are read back from the merged PGN.

use super::LoopSlurm;
use crate::config::spec::TournamentSpec;
use crate::db::best_effort::BestEffort;
use crate::db::loops;
use crate::db::provenance::limits_text;
use crate::net_loop::args::Setup;
use crate::net_loop::executor::{SprtJob, SprtResult};
use crate::net_loop::sprt::{artifact, spec, verdict};
use crate::openings;
use crate::slurm::options;
use crate::slurm::run_dir::RunDir;
use crate::slurm::run_record;
use crate::tournament::resume;
use std::path::{Path, PathBuf};

/// The merged PGN in the SPRT's run directory.
const GAMES: &str = "games.pgn";

/// `spec` as autotest's flags, for the loop's SPRT: two engines (each
/// by its command, name, options and limits), at most `max_games` games
/// as `-games N` of one round (the same games, colours and openings in
/// the same order), the openings, the SPRT, the seed, the title and the
/// PGN file.
pub fn flags(spec: &TournamentSpec) -> Vec<String> {
    let mut f = vec!["-event".to_string(), spec.title.clone()];
    for e in &spec.engines {
        let command: Vec<String> = e.command.iter().map(|w| format!("\"{w}\"")).collect();
        f.push("-engine".to_string());
        f.push(format!("cmd={}", command.join(" ")));
        f.push(format!("name={}", e.name));
        f.extend(e.options.iter().map(|(k, v)| format!("option.{k}={v}")));
        let limits = limits_text(&e.limits);
        f.extend(limits.split(' ').filter(|w| *w != "-").map(str::to_string));
    }
    if let Some(n) = spec.max_games {
        f.extend(["-games".to_string(), n.to_string()]);
    }
    if let Some(file) = &spec.openings.file {
        let order = if spec.openings.random {
            "random"
        } else {
            "sequential"
        };
        f.extend([
            "-openings".to_string(),
            format!("file={}", file.display()),
            format!("order={order}"),
        ]);
    }
    if let Some(t) = spec.sprt {
        f.push("-sprt".to_string());
        f.extend([
            format!("elo0={}", t.elo0),
            format!("elo1={}", t.elo1),
            format!("alpha={}", t.alpha),
            format!("beta={}", t.beta),
        ]);
    }
    f.extend(["-seed".to_string(), spec.seed.to_string()]);
    if let Some(pgn) = &spec.pgn_out {
        f.extend(["-pgnout".to_string(), pgn.display().to_string()]);
    }
    f
}

/// The step's command, `autotest FLAGS -slurm ...` by the autotest at
/// `autotest`, and the merged PGN it writes.
pub fn command(
    autotest: &Path,
    setup: &Setup,
    slurm: &LoopSlurm,
    job: &SprtJob,
) -> (Vec<String>, PathBuf) {
    let pgn = slurm.run_dir(job.generation, "sprt").join(GAMES);
    let mut tournament = spec(setup, job);
    tournament.pgn_out = Some(pgn.clone());
    let mut words = vec![autotest.display().to_string()];
    words.extend(flags(&tournament));
    words.extend(slurm.flag(job.generation, "sprt", &["tasks"]));
    (words, pgn)
}

/// Plays `job` by its command `words` ([`command`]) as a Slurm run to
/// its decision or its last game, its output in `sprt.log` beside the
/// local step's PGN; with `recording` (the results database and the
/// loop's row), the coordinator's run set on the generation's row.
pub fn play(
    setup: &Setup,
    slurm: &LoopSlurm,
    job: &SprtJob,
    words: &[String],
    recording: Option<(&mut BestEffort, i64)>,
) -> Result<SprtResult, String> {
    let ran = super::run(setup, words, &job.pgn.with_file_name("sprt.log"));
    if let Some((db, loop_id)) = recording {
        let run_dir = slurm.run_dir(job.generation, "sprt");
        let kept = RunDir::open(&run_dir)
            .ok()
            .and_then(|run| run_record::kept(&run, db.path()));
        if let Some(run) = kept {
            db.attempt(|c| loops::set_sprt_run(c, loop_id, job.generation, run));
        }
    }
    ran?;
    result(&words[1..], job.games)
}

/// The SPRT's result from the merged PGN of the tournament `args` (the
/// flags after the program), which plays at most `games` games.
pub fn result(args: &[String], games: u32) -> Result<SprtResult, String> {
    let (mut spec, _) = options::parse(args).map_err(|e| e.to_string())?;
    spec.resume = true;
    let book = openings::book(&spec)?;
    let merged = resume::load(&spec, &book)?.ok_or("the merged PGN is not read")?;
    let st = &merged.tally.standings[0];
    let (llr, verdict) = verdict(merged.tally.sprt(&spec), st.games(), games)?;
    Ok(SprtResult {
        pgn: artifact(&merged.path)?,
        verdict,
        llr,
        wdl: [st.wins, st.draws, st.losses],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::{Clock, EngineLimits};
    use crate::net_loop::executor::Artifact;
    use crate::net_loop::slurm::tests::setup;
    use crate::pgn::write::start_tags;
    use crate::stats::sprt::{llr_penta, sprt_decision};
    use crate::tournament::schedule::schedule;

    fn job(games: u32, best: Option<Artifact>) -> SprtJob {
        SprtJob {
            generation: 3,
            candidate: Artifact {
                path: PathBuf::from("/l/gen-003/net.nnue"),
                sha256: "ab".to_string(),
            },
            best,
            pgn: PathBuf::from("/l/gen-003/sprt.pgn"),
            games,
            seed: 9,
        }
    }

    /// The flags parse back into the local step's tournament but for
    /// what a Slurm run sets itself (the PGN file, no `-resume`, no
    /// database of its own, each task's games at once), and the games,
    /// whose schedule is the local one's: the same engines, colours,
    /// openings and pairs, game by game (all in one round).
    #[test]
    fn the_flags_are_the_local_tournament_and_its_schedule() {
        let dir = crate::scratch::dir("net_loop-slurm-flags");
        let slurm = LoopSlurm::parse("dir=/r tasks=4 pairs=3 cpus=2 sbatch=\"-p main\"").unwrap();
        let nodes = EngineLimits {
            nodes: Some(40),
            ..EngineLimits::default()
        };
        let clock = EngineLimits {
            clock: Some(Clock::Fischer {
                base_ms: 2_500,
                inc_ms: 25,
            }),
            ..EngineLimits::default()
        };
        let best = Artifact {
            path: PathBuf::from("/l/gen 002/net.nnue"),
            sha256: "cd".to_string(),
        };
        for (limits, games, best) in [(nodes, 7, None), (clock, 40, Some(best))] {
            let mut s = setup(&dir);
            s.engine = PathBuf::from("/e e/leiserchess");
            s.limits = limits;
            let job = job(games, best);
            let (words, pgn) = command(Path::new("/a/autotest"), &s, &slurm, &job);
            assert_eq!(words[0], "/a/autotest");
            assert_eq!(pgn, PathBuf::from("/r/gen-003/sprt/games.pgn"));
            let tail = &words[words.len() - 5..];
            assert_eq!(
                tail,
                [
                    "-slurm",
                    "dir=/r/gen-003/sprt",
                    "pairs=3",
                    "cpus=2",
                    "sbatch=-p main"
                ]
            );
            let (parsed, opts) = options::parse(&words[1..]).unwrap();
            let opts = opts.unwrap();
            assert_eq!((opts.pairs(), opts.cpus, opts.tasks), (3, 2, None));
            let local = spec(&s, &job);
            let n = openings::load(&s.openings, None).unwrap().len();
            let order = |t: &TournamentSpec| -> Vec<_> {
                let jobs = schedule(t, n);
                jobs.iter()
                    .map(|j| (j.number, j.white, j.black, j.opening, j.pair))
                    .collect()
            };
            assert_eq!(order(&parsed), order(&local));
            assert_eq!(order(&parsed).len(), games as usize);
            let as_run = TournamentSpec {
                pgn_out: Some(pgn),
                resume: false,
                db: None,
                concurrency: parsed.concurrency,
                games: parsed.games,
                rounds: parsed.rounds,
                max_games: None,
                ..local
            };
            assert_eq!(parsed, as_run);
        }
    }

    /// A merged PGN of `games` games in schedule order, by `words`'
    /// tournament, the candidate's results by pair cycling through win
    /// and win, win and draw, draw and draw (or the losses for them).
    fn merged(words: &[String], pgn: &Path, games: usize, wins: bool) {
        let (spec, _) = options::parse(words).unwrap();
        let book = openings::book(&spec).unwrap();
        let mut text = String::new();
        for j in schedule(&spec, book.len()).iter().take(games) {
            let cycle = [["W", "W"], ["W", "D"], ["D", "D"]][j.pair % 3];
            let candidate = cycle[(j.number - 1) % 2];
            let white_wins = (candidate == "W") == (wins == (j.white == 0));
            let result = match candidate {
                "D" => "1/2-1/2",
                _ if white_wins => "1-0",
                _ => "0-1",
            };
            let (fen, opening) = start_tags(&book[j.opening % book.len()]);
            text += &format!("[Event \"{}\"]\n", spec.title);
            text += &format!("[Round \"{}.{}\"]\n", j.round, j.number);
            text += &format!("[White \"{}\"]\n", spec.engines[j.white].name);
            text += &format!("[Black \"{}\"]\n", spec.engines[j.black].name);
            if let Some(fen) = fen {
                text += &format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n");
            }
            if let Some(opening) = opening {
                text += &format!("[Opening \"{opening}\"]\n");
            }
            text += &format!("[Result \"{result}\"]\n\n{result}\n\n");
        }
        std::fs::create_dir_all(pgn.parent().unwrap()).unwrap();
        std::fs::write(pgn, text).unwrap();
    }

    /// The result of a merged PGN: its games' LLR (pentanomial, on the
    /// candidate's pairs) and decision, its W/D/L, the file by sha256; a
    /// run of fewer games than its most without a decision is an error.
    #[test]
    fn the_result_is_read_from_the_merged_pgn() {
        let dir = crate::scratch::dir("net_loop-slurm-result");
        let s = setup(&dir);
        let slurm = LoopSlurm::parse(&format!("dir={}", dir.display())).unwrap();
        let (words, pgn) = command(Path::new("autotest"), &s, &slurm, &job(12, None));
        let args = &words[1..];
        // Six pairs: two of each of 2, 1.5 and 1 points (or 0, 0.5, 1).
        for (wins, pairs, wdl) in [
            (true, [0, 0, 2, 2, 2], [6, 6, 0]),
            (false, [2, 2, 2, 0, 0], [0, 6, 6]),
        ] {
            merged(args, &pgn, 12, wins);
            let r = result(args, 12).unwrap();
            let t = s.sprt;
            let llr = llr_penta(pairs, t.elo0, t.elo1);
            let expected = verdict(Some((llr, sprt_decision(llr, t.alpha, t.beta))), 12, 12);
            assert_eq!((r.llr, r.verdict), expected.unwrap());
            assert_eq!(r.wdl, wdl);
            assert_eq!(r.pgn, artifact(&pgn).unwrap());
        }
        merged(args, &pgn, 4, true);
        let e = result(args, 12).unwrap_err();
        assert_eq!(e, "the SPRT stopped after 4 of 12 games without a decision");
        std::fs::remove_file(&pgn).unwrap();
        let e = result(args, 12).unwrap_err();
        assert_eq!(e, "the SPRT stopped after 0 of 12 games without a decision");
    }
}
