//! The `autotest` command line: a tournament from a course config file or
//! cutechess-style flags; `openings` to make an openings file; `stats` to
//! compute Elo and SPRT figures from given results; `tune` to tune an
//! engine's options by SPSA; `bench-record` to record the engine's
//! benchmarks; `runs`, `show` and `report` to read the results database,
//! `import` to add PGN files to it.

#![forbid(unsafe_code)]

use autotest::config::numbers;
use autotest::tournament::play::play_and_record;
use autotest::{config, db, interrupt, openings, slurm, stats, tune};
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "\
usage:
  autotest CONFIG.txt                   play a course config file (as lauto.jar)
  autotest -engine ... -engine ... [FLAGS]
  autotest openings [N] [PLIES] [SEED]  print N balanced openings of PLIES plies
                                        (default 100 8 1)
  autotest stats --wdl W D L [--sprt ELO0 ELO1 ALPHA BETA]
  autotest stats --penta P0 P1 P2 P3 P4 [--sprt ELO0 ELO1 ALPHA BETA]
  autotest stats --pgn FILE [FILE ...] --player NAME [--sprt ELO0 ELO1 ALPHA BETA]
                                        NAME's results in PGN files: W/D/L and
                                        colour-swapped pairs (same round, same
                                        opening), files added up
  autotest runs [-db PATH]              the recorded runs, newest first: id,
                                        kind, status, engines, time control,
                                        games, the first engine's W/D/L, start
  autotest show RUN [-db PATH]          run RUN's final table, rebuilt from its
                                        recorded games
  autotest report [-db PATH]            the recorded figures as markdown tables:
                                        the newest bench record, the SPRT
                                        runs, tuning runs and tournaments
  autotest bench-record [-engine PATH] [-rounds N] [-db PATH]
                                        run leiserchess bench --search pvs
                                        and mcts, perft and evalbench N times
                                        each, record every figure, print the
                                        median and min..max of each
                                        [target/release/leiserchess, 3]
  autotest import [-db PATH] PGN...     record each PGN file as a finished run
                                        (players from White/Black, pairs as
                                        stats --pgn finds them); a file
                                        imported before (same content) is
                                        not imported again
  autotest serve [-db PATH] [-port N] [-host ADDR]
                                        the results database as web pages,
                                        live while runs record (also --db,
                                        --port, --host) [-port 8090, -host
                                        127.0.0.1; -port 0: any free port]
  autotest tune -engine ... -param ... [-param ...] [TUNE FLAGS]
  autotest -engine ... -engine ... -slurm dir=RUN [...] [FLAGS]
                                        the same tournament as a Slurm job
                                        array (see -slurm)
  autotest slurm watch RUN              a coordinator again on a -slurm run
  autotest slurm cancel RUN             cancel every task of a -slurm run
  autotest datagen -slurm dir=RUN [tasks=N] [cpus=N] [sbatch=\"ARGS\"] [poll=S]
      [retries=N] -- ENGINE datagen OUT --positions N [--seed S] [ARGS ...]
                                        leiserchess datagen as a job array:
                                        task K makes N/tasks positions with
                                        seed S+K (cpus threads) into
                                        RUN/shards/K; merged into OUT, each
                                        position once [tasks=8]

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
                           record); else $AUTOTEST_DB [lab.db beside the PGN
                           file, else $XDG_DATA_HOME/leiserchess/lab.db]
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
                           play on a Slurm cluster (docs/DISTRIBUTED.md):
                           shards of N pairs [20], one array task each,
                           with cpus CPUs and games at once [1], sbatch
                           ARGS added [none]; RUN on a shared filesystem;
                           the coordinator merges the shards every poll
                           [0.5], submits an unfinished shard again up to
                           retries times [2], cancels the rest on an SPRT
                           decision, writes -pgnout [RUN/games.pgn]; the
                           same command (or slurm watch) goes on with RUN

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

autotest tune: SPSA (as fishtest) on one engine's UCI spin options, by
self-play of theta+c_k*delta against theta-c_k*delta, a colour-swapped pair
per iteration; a_k = a/(A+k+1)^0.602, c_k = c/(k+1)^0.101, A = iterations/10.
With a second -engine, the opponent: theta+ and theta- each play it a
colour-swapped pair on the iteration's opening (four games), and r is
theta+'s half-points less theta-'s (-4 to 4; in self-play its points less
theta-'s, -2 to 2). Takes -engine (the one to tune, then perhaps its
opponent), -each, -openings, -concurrency, -draw, -resign, -nozap,
-timemargin, -maxmoves, -seed and -db as above (the database: lab.db
beside the -state file, else the -out file, without -db or AUTOTEST_DB),
and:
  -param name=NAME start=X min=LO max=HI c=C [a=A]
                           one option to tune (repeatable); c: the
                           perturbation at iteration 0; a: the step's
                           numerator [the first step for a one-point pair
                           is c/20: a = c^2 (A+1)^0.602 / 10]
  -iterations N            game pairs, resumed ones included [1000]
  -out FILE                the tuned values, `NAME VALUE` lines, rewritten
                           after every pair [none]
  -state FILE              the iteration and theta, rewritten after every
                           pair; a run with an existing one resumes it [none]
One line per pair (its number, r, theta+'s and theta-'s points, theta
rounded); a progress line with the time left every 10 pairs (on stderr); at
the end the tuned values. The run and every pair's theta, step and r are recorded in
the results database; a resumed tune goes on in its own run.

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

/// `-h` or `--help` anywhere before a `--` (after it, the words are the
/// engine's), or `help` first: the usage, which covers every subcommand.
fn asks_for_help(args: &[String]) -> bool {
    args.first().is_some_and(|a| a == "help")
        || args
            .iter()
            .take_while(|a| *a != "--")
            .any(|a| a == "-h" || a == "--help")
}

fn main() -> ExitCode {
    // The command line as the results database records it.
    let command: Vec<String> = std::iter::once("autotest".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let args = &command[1..];
    let help = args.is_empty() || asks_for_help(args);
    let long_run = !help
        && !matches!(
            args.first().map(String::as_str),
            Some("stats" | "openings" | "runs" | "show" | "report" | "import" | "serve")
        );
    if long_run {
        if let Err(e) = interrupt::install() {
            eprintln!("autotest: {e}");
            return ExitCode::from(2);
        }
    }
    let result = match (help, args.first().map(String::as_str)) {
        (true, _) | (_, None) => {
            println!("{USAGE}");
            Ok(())
        }
        (false, Some("stats")) => stats::command::run(&args[1..]).map(|out| print!("{out}")),
        (false, Some("openings")) => openings_command(&args[1..]),
        (false, Some("tune")) => tune::command::run(&args[1..]),
        (false, Some("runs")) => db::command::runs(&args[1..]).map(|out| print!("{out}")),
        (false, Some("show")) => db::command::show(&args[1..]).map(|out| print!("{out}")),
        (false, Some("report")) => db::report::run(&args[1..]).map(|out| print!("{out}")),
        (false, Some("bench-record")) => {
            db::bench_record::run(&args[1..], &command).map(|out| print!("{out}"))
        }
        (false, Some("import")) => db::import::command(&args[1..]),
        (false, Some("serve")) => autotest::serve::command(&args[1..]),
        (false, Some("slurm")) => slurm::command(&args[1..]),
        (false, Some("datagen")) => slurm::datagen::start(args),
        (false, Some(a)) if a.starts_with('-') => match slurm::options::parse(args) {
            Err(e) => Err(e.to_string()),
            Ok((spec, None)) => play_and_record(&spec, Some(&command)),
            Ok((spec, Some(opts))) => slurm::coordinator::start(args, &spec, &opts),
        },
        (false, Some(path)) => config::course::load(Path::new(path))
            .and_then(|spec| play_and_record(&spec, Some(&command))),
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

fn openings_command(args: &[String]) -> Result<(), String> {
    let number = |i: usize, default: u64, name: &str| -> Result<u64, String> {
        args.get(i).map_or(Ok(default), |v| {
            numbers::whole(v, name).map_err(|e| format!("openings: {e}"))
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
