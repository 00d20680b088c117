//! The subcommands whose command lines clap reads: `openings`, `stats`,
//! `runs`, `show`, `report`, `bench-record`, `import`, `serve`, `slurm`,
//! `data`, `nets` and `loop`, each with its own `--help` and typed values; a bad argument
//! is refused naming it (exit status 2). Their long options are taken
//! with one dash too, as the tournament flags are spelt (`-db PATH`):
//! [`double_dashed`]. The tournament's flags, a course config file,
//! `autotest tune` and `autotest datagen` keep cutechess's syntax
//! (`config::flags`).

use crate::db::bench_record::BenchRecordArgs;
use crate::db::import::ImportArgs;
use crate::db::report::ReportArgs;
use crate::db::runs_and_show::{RunsArgs, ShowArgs};
use crate::net_loop::args::LoopArgs;
use crate::openings::OpeningsArgs;
use crate::serve::args::ServeArgs;
use crate::slurm::SlurmCommand;
use crate::stats::command::StatsArgs;
use crate::store::{DataCommand, NetsCommand};
use clap::error::ErrorKind;
use clap::{Command, CommandFactory, Parser};

/// `autotest --version`'s answer.
pub const VERSION: &str = concat!("autotest ", env!("CARGO_PKG_VERSION"));

#[derive(Parser, Debug)]
#[command(name = "autotest", disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Subcommand,
}

/// A subcommand and what its command line asks for.
#[derive(clap::Subcommand, Clone, Debug, PartialEq)]
pub enum Subcommand {
    /// Print N balanced openings of PLIES plies, one a line
    ///
    /// The lines are an openings file (-openings file=F): random legal moves
    /// from the start position, none zapping a King, each kept when a
    /// depth-3 search scores its final position within 50 cp, and no
    /// final position twice. The same SEED gives the same openings.
    Openings(OpeningsArgs),
    /// Elo, LOS and the SPRT of given results, or of a player's PGN games
    ///
    /// Prints the games, the score, the Elo with its 95% interval
    /// (from the pairs with --penta or --pgn; a one-sided bound at a 0%
    /// or 100% score), LOS and the draw ratio, and with --sprt the LLR,
    /// its bounds and the decision.
    Stats(StatsArgs),
    /// The recorded runs, newest first
    ///
    /// A line per run: its id, kind, status, engines, time control,
    /// games, the first engine's W/D/L, start.
    Runs(RunsArgs),
    /// A run's final table, rebuilt from its recorded games
    Show(ShowArgs),
    /// The recorded figures as markdown tables
    ///
    /// The newest bench record, the SPRT runs, the tuning runs and the
    /// tournaments, to paste into BENCHMARKS.md.
    Report(ReportArgs),
    /// Measure the engine's benchmarks and record every figure
    ///
    /// Runs leiserchess bench --search pvs and mcts, perft and evalbench
    /// N times each, records every figure in the results database as it
    /// comes, and prints the median and min..max of each.
    BenchRecord(BenchRecordArgs),
    /// Record PGN files as finished runs
    ///
    /// Each file a run: players from White and Black, pairs as stats
    /// --pgn finds them. A file imported before (the same content) is
    /// not imported again.
    Import(ImportArgs),
    /// The results database as web pages, live while runs record
    Serve(ServeArgs),
    /// A -slurm or datagen run's coordinator again, or the run cancelled
    #[command(subcommand)]
    Slurm(SlurmCommand),
    /// The lab store's datasets: ls, show HASH, verify, gc
    ///
    /// Each reads the store's lineage records into the results database
    /// first (docs/STORE.md).
    #[command(subcommand)]
    Data(DataCommand),
    /// The lab store's nets: ls, show HASH, verify, reproduce HASH, default-md HASH
    ///
    /// Each reads the store's lineage records into the results database
    /// first (docs/STORE.md).
    #[command(subcommand)]
    Nets(NetsCommand),
    /// Make net generations unattended: data, training, SPRT, promotion
    ///
    /// Each generation: leiserchess datagen with the best net, relabel with
    /// it (with --relabel-nodes), train a candidate on the newest
    /// generations' data, an SPRT of the candidate against the best; H1
    /// promotes it (DIR/best.nnue, marked in the store's record), H0 or no
    /// decision within --games rejects it. Then the next, until
    /// --generations, --hours or --rejections (none: until stopped). The
    /// state is DIR/loop.json, written after every step: the same command
    /// goes on at the step it was in, a step done never run again, the one
    /// cut short run again (datagen, relabel and train go on from their
    /// files, the SPRT from its PGN). Another command is refused, naming
    /// what differs, unless --force. The loop, its generations and its
    /// SPRTs (runs) are recorded in the results database as each step ends
    /// (autotest serve shows them on /nets).
    Loop(Box<LoopArgs>),
}

/// Whether `word` names one of these subcommands.
pub fn is_subcommand(word: &str) -> bool {
    Cli::command().find_subcommand(word).is_some()
}

/// Each subcommand's name and what it does, as the help lists them.
pub fn summaries() -> Vec<(String, String)> {
    Cli::command()
        .get_subcommands()
        .map(|s| {
            let about = s.get_about().map_or(String::new(), |a| a.to_string());
            (s.get_name().to_string(), about)
        })
        .collect()
}

/// The subcommand `words` (after the program: the subcommand's name,
/// then its arguments) asks for. The error is clap's: a refusal naming
/// the argument, or a help page; `clap::Error::exit` prints it, with
/// exit status 2 for a refusal.
pub fn parse(words: &[String]) -> Result<Subcommand, clap::Error> {
    let mut cli = Cli::command();
    cli.build();
    let (name, rest) = words
        .split_first()
        .map_or(("", &[][..]), |(n, r)| (n.as_str(), r));
    let rest = match cli.find_subcommand_mut(name) {
        Some(sub) => {
            let longs = long_options(sub);
            double_dashed(rest, &longs).map_err(|word| {
                sub.error(
                    ErrorKind::UnknownArgument,
                    format!("unexpected argument '{word}' found"),
                )
            })?
        }
        None => rest.to_vec(),
    };
    let all = ["autotest", name].into_iter().map(String::from).chain(rest);
    Ok(Cli::try_parse_from(all)?.command)
}

/// The long options of `cmd` and of its subcommands.
fn long_options(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    for sub in cmd.get_subcommands() {
        out.extend(long_options(sub));
    }
    out
}

/// `words` with each `-NAME` or `-NAME=VALUE` whose NAME is one of
/// `longs` spelt `--NAME`, up to a `--`. Any other word of one dash and
/// more than one letter that is not a number (a value of `--sprt`) is
/// the error: no option of the subcommand.
pub fn double_dashed(words: &[String], longs: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(words.len());
    let mut options = true;
    for word in words {
        options &= word != "--";
        let single = word
            .strip_prefix('-')
            .filter(|rest| options && !rest.starts_with('-'));
        match single {
            Some(rest) if rest.chars().count() > 1 => {
                let name = rest.split('=').next().unwrap_or(rest);
                if longs.iter().any(|l| l == name) {
                    out.push(format!("-{word}"));
                } else if rest.parse::<f64>().is_ok() {
                    out.push(word.clone());
                } else {
                    return Err(word.clone());
                }
            }
            _ => out.push(word.clone()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn one_dash_long_options_are_made_two() {
        let longs = words("db port help");
        assert_eq!(
            double_dashed(&words("-db x.db --port 0 -port=1 -h 3 -1.75"), &longs),
            Ok(words("--db x.db --port 0 --port=1 -h 3 -1.75"))
        );
        assert_eq!(
            double_dashed(&words("-db x -- -db -games"), &longs),
            Ok(words("--db x -- -db -games"))
        );
        assert_eq!(
            double_dashed(&words("-db x -games 2"), &longs),
            Err("-games".to_string())
        );
    }

    #[test]
    fn subcommands_read_typed_values_in_either_spelling() {
        let serve = parse(&words("serve -db lab.db -port 0 --host 0.0.0.0")).unwrap();
        let Subcommand::Serve(s) = serve else {
            panic!("{serve:?}")
        };
        assert_eq!(s.db.db.as_deref(), Some("lab.db"));
        assert_eq!((s.port, s.host), (0, Ipv4Addr::UNSPECIFIED.into()));
        let show = parse(&words("show 7")).unwrap();
        assert!(
            matches!(show, Subcommand::Show(ShowArgs { run: 7, .. })),
            "{show:?}"
        );
        let watch = parse(&words("slurm watch runs/a")).unwrap();
        assert!(matches!(
            watch,
            Subcommand::Slurm(SlurmCommand::Watch { .. })
        ));
        // What RUN/task.sh runs in each array task.
        let task = parse(&words("slurm datagen-task runs/a 3")).unwrap();
        assert!(matches!(
            task,
            Subcommand::Slurm(SlurmCommand::DatagenTask { k: 3, .. })
        ));
        let record = parse(&words("bench-record -rounds 2")).unwrap();
        let Subcommand::BenchRecord(b) = record else {
            panic!("{record:?}")
        };
        assert_eq!(
            (b.rounds, b.engine.to_str()),
            (2, Some("target/release/leiserchess"))
        );
    }

    /// A refusal names the argument; help is a page of its own.
    #[test]
    fn bad_arguments_are_named() {
        let refused = |s: &str| {
            let e = parse(&words(s)).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{s}: {e}");
            e.to_string()
        };
        assert!(refused("serve --port http").contains("'http'"));
        assert!(refused("serve -games 2").contains("'-games'"));
        assert!(refused("runs --games 2").contains("'--games'"));
        assert!(refused("show seven").contains("'seven'"));
        assert!(refused("bench-record -rounds 0").contains("'0'"));
        assert!(refused("stats --wdl 1 x 3").contains("'x'"));
        assert!(refused("import").contains("<PGN>"));
        let help = parse(&words("runs --help")).unwrap_err();
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        assert!(help.to_string().contains("autotest runs"), "{help}");
    }

    #[test]
    fn every_subcommand_is_known_and_summarised() {
        let names: Vec<String> = summaries().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            words("openings stats runs show report bench-record import serve slurm data nets loop")
        );
        assert!(summaries().iter().all(|(_, about)| !about.is_empty()));
        assert!(is_subcommand("bench-record") && !is_subcommand("tune"));
    }
}
