//! The `autotest` command line: a tournament from a course config file or
//! cutechess-style flags; `openings` to make an openings file; `stats` to
//! compute Elo and SPRT figures from given results.

use autotest::record::GameRecord;
use autotest::{config, openings, stats, tournament};
use std::io::IsTerminal;
use std::process::ExitCode;

const USAGE: &str = "usage:
  autotest CONFIG                       play the tournament of a course config file
  autotest -engine cmd=... name=... [option.X=V] [tc=40/60|60+0.6] [st=S] [depth=D] [nodes=N]
           -engine ... [-each ...] [-games N] [-rounds N] [-concurrency N]
           [-tournament round-robin|gauntlet] [-openings file=F order=sequential|random plies=K]
           [-repeat] [-pgnout F] [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-maxmoves N] [-recover]
  autotest openings [N] [PLIES] [SEED]  print N balanced openings of PLIES plies (default 100 8 1)
  autotest stats --wdl W D L [--sprt ELO0 ELO1 ALPHA BETA]
  autotest stats --penta P0 P1 P2 P3 P4 [--sprt ELO0 ELO1 ALPHA BETA]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("stats") => stats::stats_command(&args[1..]).map(|out| print!("{out}")),
        Some("openings") => openings_command(&args[1..]),
        Some(a) if a.starts_with('-') => config::parse_flags(&args)
            .map_err(|e| e.to_string())
            .and_then(|spec| play(&spec)),
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {path}: {e}"))
            .and_then(|text| config::parse_course_config(&text).map_err(|e| format!("{path}: {e}")))
            .and_then(|spec| play(&spec)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("autotest: {e}");
            ExitCode::from(2)
        }
    }
}

fn openings_command(args: &[String]) -> Result<(), String> {
    let number = |i: usize, default: u64, name: &str| -> Result<u64, String> {
        args.get(i).map_or(Ok(default), |v| {
            v.parse()
                .map_err(|_| format!("openings: {name} must be a number, got '{v}'"))
        })
    };
    let (n, plies, seed) = (
        number(0, 100, "N")?,
        number(1, 8, "PLIES")?,
        number(2, 1, "SEED")?,
    );
    for o in openings::generate(n as usize, plies as usize, seed) {
        println!("{}", openings::to_line(&o));
    }
    Ok(())
}

fn play(spec: &autotest::spec::TournamentSpec) -> Result<(), String> {
    if spec.engines.len() < 2 {
        return Err("a tournament needs at least two engines".to_string());
    }
    let mut book = match &spec.openings.file {
        Some(path) => openings::load(path, spec.openings.plies)?,
        None => Vec::new(),
    };
    if spec.openings.random {
        fastrand::Rng::with_seed(spec.seed).shuffle(&mut book);
    }
    let terminal = std::io::stderr().is_terminal();
    let summary = tournament::run(spec, &book, |rec: &GameRecord, done, total| {
        if terminal {
            let width = 30;
            let filled = done * width / total.max(1);
            eprint!(
                "\r[{}{}] {done}/{total} {} vs {}: {} ({})\x1b[K",
                "#".repeat(filled),
                ".".repeat(width - filled),
                rec.white,
                rec.black,
                rec.result,
                rec.termination
            );
            if done == total {
                eprintln!();
            }
        } else {
            eprintln!(
                "game {done}/{total}: {} vs {}: {} ({})",
                rec.white, rec.black, rec.result, rec.termination
            );
        }
    })?;
    if terminal {
        eprintln!();
    }
    println!("{}", spec.title);
    print!("{}", tournament::table(spec, &summary));
    Ok(())
}
