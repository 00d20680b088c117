//! The `autotest` command line: a tournament from a course config file or
//! cutechess-style flags (`config`), `autotest tune` and `autotest
//! datagen` in the same syntax, and the subcommands clap reads
//! (`subcommands`): `openings`, `stats`, `runs`, `show`, `report`,
//! `bench-record`, `import`, `serve`, `slurm`, `data`, `nets`, `loop`. Each subcommand has a help
//! page of its own; `autotest --help` is the tournament's.

#![forbid(unsafe_code)]

use autotest::subcommands::{self, Subcommand};
use autotest::tournament::play::play_and_record;
use autotest::{config, db, interrupt, net_loop, openings, serve, slurm, stats, store, tune};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// The head of `autotest --help`, before the list of subcommands.
const USAGE: &str = "\
usage:
  autotest CONFIG.txt                   play a course config file (as lauto.jar)
  autotest -engine ... -engine ... [FLAGS]
  autotest -engine ... -engine ... -slurm dir=RUN [...] [FLAGS]
                                        the same tournament as a Slurm job
                                        array (see -slurm)
  autotest SUBCOMMAND ...               one of those below
  autotest --version                    the version (also -V)";

/// The rest of `autotest --help`: the flags, the course config files, and
/// what every run does.
const FLAGS_HELP: &str = "\
Flags (cutechess-cli's; defaults in brackets):
  -engine cmd=COMMAND [name=NAME] [dir=DIR] [option.NAME=VALUE ...]
          [tc=[MOVES/]SECONDS[+INC]|inf] [st=SECONDS] [depth=D] [nodes=N]
          [restart=on|off] [proto=uci]
                           one engine (at least two), each option.NAME one
                           its `uci` answer lists; name [the program's file
                           name], dir [the current one]; with no tc, st, depth
                           or nodes: [tc=10+0.1]; restart=off keeps its
                           process from game to game [on]
  -each KEY=VALUE ...      the -engine keys for every engine [none]
  -games N                 games per pairing per round [2]
  -rounds N                rounds [1]
  -concurrency N           games at once [the number of CPUs]
  -tournament round-robin|gauntlet   [round-robin]
  -openings file=F [order=sequential|random] [plies=K]
                           openings, one a line: moves or a FEN [the start
                           position]; [order=sequential], [plies: all]
  -repeat [2]              play each opening twice, colours swapped [on]
  -norepeat                one game per opening [off]
  -pgnout FILE             write the games, replacing FILE [none]; each
                           engine's standard error goes to NAME.stderr.log
                           beside FILE (replaced too, added to by -resume), a
                           block per game under `== round ROUND: WHITE vs
                           BLACK ==` [none without -pgnout]
  -resume                  go on from the games in the -pgnout FILE of an
                           earlier run with the same flags: they count and
                           are not played again (a game without a result
                           is), the new games are added to FILE [off]
  -db PATH                 record the run and its games in the SQLite
                           database PATH (made if missing; `none`: no
                           record); else $AUTOTEST_DB [the per-user
                           $XDG_DATA_HOME/leiserchess/lab.db, which autotest
                           runs, show, report and serve read too]
  -event TITLE             the PGN Event (alias -title) [autotest]
  -seed N                  seed of order=random (alias -srand) [1]
  -sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]
                           stop at the SPRT's decision (normalized Elo)
                           [none; alpha=0.05 beta=0.05]
  -maxmoves N              a draw once the game has N moves of each side,
                           book moves included [0: never]
  -nozap PLIES             the no-zap draw limit, also sent to engines with a
                           no_zap_plies option that is not set [100, the
                           rules'; 0: never]
  -timemargin MS           how late past its clock a move may come before it
                           is a time forfeit (the course referee: 0) [50]
  -draw movenumber=N movecount=M score=S
                           a draw once both engines' last M scores are all
                           within +-S cp, from move N on [none]
  -resign movecount=M score=S [twosided=true]
                           a loss for an engine whose last M scores are all
                           <= -S cp (twosided: and its opponent's >= +S)
                           [none; twosided=false]
  -recover                 go on after an engine crashes; always on [on]
  -slurm dir=RUN [pairs=N] [cpus=N] [sbatch=\"ARGS\"] [poll=SECONDS] [retries=N]
         [nps=REF [bench=\"ARGS\"]]
                           play on a Slurm cluster (docs/DISTRIBUTED.md):
                           shards of N pairs [20], one array task each,
                           with cpus CPUs and games at once [1], sbatch
                           ARGS added [none]; RUN on a shared filesystem;
                           the coordinator merges the shards every poll
                           [0.5], submits an unfinished shard again up to
                           retries times [2], cancels the rest on an SPRT
                           decision, writes -pgnout [RUN/games.pgn]; the
                           same command (or slurm watch) goes on with RUN;
                           nps=REF: each task benches its node with the
                           first engine's command and bench=\"ARGS\" [bench
                           --search pvs] and scales the clocks by REF over
                           its nps (1/8 .. 8) [none]

Course config files (the course referee's format; `#` starts a comment):
  cpus = N                 games at once [the number of CPUs]
  book = FILE              the openings, taken in order [none]
  game_rounds = N          N games in all, pairings in turn, a colour-swapped
                           pair per opening [one pair per pairing]
  title = TEXT             the PGN Event [Autotest]
  adjudicate = N           a draw at N moves of each side [0: never]
  nozap = PLIES            the no-zap draw limit [200, the course referee's]
  draw = movenumber=N movecount=M score=S    as -draw [none]
  resign = movecount=M score=S [twosided=true]    as -resign [none]
  player = NAME            starts an engine's section; in it:
    invoke = COMMAND       the engine's command line (required)
    fis = MAIN INC         a Fischer clock, seconds
    tc = MOVES SECONDS     SECONDS for every MOVES moves
    depth = D, nodes = N   search limits
    family = NAME          players of one family never meet
    NAME = VALUE           any other key: a UCI option
  Relative paths (book, an invoke program with a '/') are taken from the
  config file's directory. The games are appended to CONFIG.pgn beside it,
  in the course referee's layout, numbered on from the games already there
  (and on through the book); each engine's standard error to
  NAME.stderr.log there, as with -pgnout.

Before the first game (or pair), every engine must answer `uci` with `uciok`
and `isready` with `readyok` (10 s each), list every option set for it, and
refuse none: an `info string error` line before `readyok`, or a line on its
standard error saying 'error', 'unknown option' or 'no such option' while the
options are set, is a refusal. Else the run stops (exit status 2). An engine
that dies is reported with the last 10 lines of its standard error. SIGINT
(Ctrl-C) or SIGTERM: no new game (or pair) starts, those in flight finish and
count, exit status 128 + the signal; a second signal stops at once. After each
game the pairing's score is printed as cutechess prints it; at the end, a
table per engine (Elo from game pairs, 95%; a one-sided 95% bound at a 0% or
100% score).";

/// The subcommands tune and datagen, which keep the tournament's syntax.
const OTHERS: [(&str, &str); 2] = [
    (
        "tune",
        "Tune an engine's UCI spin options by SPSA (the tournament's flags)",
    ),
    (
        "datagen",
        "Make training positions: leiserchess datagen as a Slurm job array",
    ),
];

/// `autotest --help`.
fn usage() -> String {
    let mut out = format!("{USAGE}\n\nSubcommands (autotest SUBCOMMAND --help: its own page):\n");
    let others = OTHERS.iter().map(|(n, a)| (n.to_string(), a.to_string()));
    for (name, about) in subcommands::summaries().into_iter().chain(others) {
        out += &format!("  {name:<14}{about}\n");
    }
    out + "\n" + FLAGS_HELP
}

/// `-h` or `--help` among `args` before a `--` (after it, the words are
/// the engine's).
fn asks_for_help(args: &[String]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-h" || a == "--help")
}

/// The CPU check (as the engine's `main`: nothing of this crate's runs
/// before it), then the program.
fn main() -> ExitCode {
    if !leiserchess::cpu::supported() {
        let _ = std::io::stderr().write_all(b"autotest: ");
        let _ = std::io::stderr().write_all(leiserchess::cpu::UNSUPPORTED.as_bytes());
        return ExitCode::from(1);
    }
    run()
}

#[inline(never)]
fn run() -> ExitCode {
    // The command line as the results database records it.
    let command: Vec<String> = std::iter::once("autotest".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let mut args = command[1..].to_vec();
    // `autotest help SUBCOMMAND` is `autotest SUBCOMMAND --help`.
    if args.len() == 2 && args[0] == "help" {
        args = vec![args[1].clone(), "--help".to_string()];
    }
    let first = args.first().map_or("help", String::as_str);
    let help_page = match first {
        "help" => Some(usage()),
        "--version" | "-V" => Some(subcommands::VERSION.to_string()),
        "tune" if asks_for_help(&args) => Some(tune::command::HELP.to_string()),
        "datagen" if asks_for_help(&args) => Some(slurm::datagen::HELP.to_string()),
        word if !subcommands::is_subcommand(word) && asks_for_help(&args) => Some(usage()),
        _ => None,
    };
    if let Some(page) = help_page {
        // A reader that closed the pipe (`| head`) ends the page, not the program.
        let _ = writeln!(std::io::stdout(), "{page}");
        return ExitCode::SUCCESS;
    }
    let sub = match subcommands::is_subcommand(first) {
        true => match subcommands::parse(&args) {
            Ok(sub) => Some(sub),
            Err(e) => e.exit(),
        },
        false => None,
    };
    let long_run = match &sub {
        Some(s) => matches!(
            s,
            Subcommand::BenchRecord(_) | Subcommand::Slurm(_) | Subcommand::Loop(_)
        ),
        None => true,
    };
    if long_run {
        if let Err(e) = interrupt::install() {
            eprintln!("autotest: {e}");
            return ExitCode::from(2);
        }
    }
    let result = match sub {
        Some(sub) => run_subcommand(sub, &command),
        None => run_tournament(first, &args, &command),
    };
    match result {
        Ok(()) => match interrupt::received() {
            Some(signal) => ExitCode::from(interrupt::status(signal)),
            None => ExitCode::SUCCESS,
        },
        Err(e) => {
            eprintln!("autotest: {e}");
            ExitCode::from(2)
        }
    }
}

/// One of clap's subcommands, started by `command` (every word).
fn run_subcommand(sub: Subcommand, command: &[String]) -> Result<(), String> {
    let output = match sub {
        Subcommand::Openings(a) => Ok(openings::command(&a)),
        Subcommand::Stats(a) => stats::command::run(&a),
        Subcommand::Runs(a) => db::runs_and_show::runs(&a),
        Subcommand::Show(a) => db::runs_and_show::show(&a),
        Subcommand::Report(a) => db::report::run(&a),
        Subcommand::BenchRecord(a) => db::bench_record::run(&a, command),
        Subcommand::Import(a) => db::import::command(&a, command).map(|()| String::new()),
        Subcommand::Serve(a) => serve::command(&a).map(|()| String::new()),
        Subcommand::Slurm(c) => slurm::command(&c).map(|()| String::new()),
        Subcommand::Data(c) => store::data(&c),
        Subcommand::Nets(c) => store::nets(&c),
        Subcommand::Loop(a) => net_loop::command(&a).map(|()| String::new()),
    };
    output.map(|out| print!("{out}"))
}

/// A tournament from flags or a course config file, `autotest tune` or
/// `autotest datagen`: the words after the program are `args`, `first`
/// the first of them.
fn run_tournament(first: &str, args: &[String], command: &[String]) -> Result<(), String> {
    match first {
        "tune" => tune::command::run(&args[1..]),
        "datagen" => slurm::datagen::start(args),
        a if a.starts_with('-') => match slurm::options::parse(args) {
            Err(e) => Err(e.to_string()),
            Ok((spec, None)) => play_and_record(&spec, Some(command)),
            Ok((spec, Some(opts))) => slurm::coordinator::start(args, &spec, &opts),
        },
        path => config::course::load(Path::new(path))
            .and_then(|spec| play_and_record(&spec, Some(command))),
    }
}
