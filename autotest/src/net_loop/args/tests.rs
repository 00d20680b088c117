//! `autotest loop`'s flags parsed into the plan and the setup, and the
//! refusals of bad ones, each naming its flag.

use super::*;
use crate::subcommands::{parse, Subcommand};

/// The files every command line names, in a folder of the test's.
fn files(test: &str) -> (PathBuf, String) {
    let dir = crate::scratch::dir(&format!("net_loop-args-{test}"));
    std::fs::write(dir.join("engine"), "").unwrap();
    std::fs::write(dir.join("openings.txt"), "f3f4 d5U\n").unwrap();
    let base = format!(
        "loop --dir {d}/loop --engine {d}/engine --positions 5000 --epochs 3 --games 100 \
         --elo0 0 --elo1 5 --openings {d}/openings.txt",
        d = dir.display()
    );
    (dir, base)
}

fn args(words: &[String]) -> Result<LoopArgs, String> {
    match parse(words) {
        Ok(Subcommand::Loop(a)) => Ok(*a),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

fn split(line: &str) -> Vec<String> {
    split_command(line).unwrap()
}

#[test]
fn the_flags_become_the_plan_and_the_settings() {
    let (dir, base) = files("plan");
    let line = format!(
        "{base} -nodes 200 --relabel-nodes 50 --train-window 2 --seed 9 --threads 2 \
         --store {d}/store --datagen-args \"--nodes 20 --random-plies 4\" \
         --train-args=\"--beam --lambda 0.7\" --generations 3 --hours 0.5 --rejections 2",
        d = dir.display()
    );
    let a = args(&split(&line)).unwrap();
    let (plan, setup) = a.plan().unwrap();
    assert_eq!(
        plan.budget,
        Budget {
            positions: 5000,
            epochs: 3,
            games: 100,
            relabel_nodes: Some(50),
            train_window: 2,
            warm_start: false,
            seed: 9,
        }
    );
    assert_eq!(
        plan.stop,
        StopRules {
            generations: Some(3),
            hours: Some(0.5),
            rejections: Some(2),
        }
    );
    assert!(dir.join("loop").is_dir());
    assert_eq!(setup.dir, dir.join("loop"));
    assert_eq!(setup.datagen_args, split("--nodes 20 --random-plies 4"));
    assert_eq!(setup.train_args, split("--beam --lambda 0.7"));
    assert!(setup.relabel_args.is_empty());
    assert_eq!((setup.limits.nodes, setup.limits.clock), (Some(200), None));
    assert_eq!((setup.sprt.elo1, setup.sprt.alpha), (5.0, 0.05));
    let value = |k: &str| {
        let found = plan.settings.iter().find(|(n, _)| n == k);
        found.unwrap_or_else(|| panic!("{k}")).1.clone()
    };
    assert_eq!(value("--positions").as_deref(), Some("5000"));
    assert_eq!(value("--tc"), None);
    assert_eq!(
        value("--store"),
        Some(dir.join("store").display().to_string())
    );
    assert_eq!(
        value("--datagen-args").as_deref(),
        Some("--nodes 20 --random-plies 4")
    );
    // Neither the stop rules nor the threads are settings.
    for k in [
        "--generations",
        "--hours",
        "--rejections",
        "--threads",
        "--force",
    ] {
        assert!(plan.settings.iter().all(|(n, _)| n != k), "{k}");
    }
    assert_eq!(setup.slurm, None);
    assert_eq!(value("--slurm"), None);
    assert_eq!(value("--warm-start"), None);
    // A clock instead of nodes, and candidates from the best net.
    let a = args(&split(&format!("{base} --tc 2+0.02 --warm-start"))).unwrap();
    let (warm, setup) = a.plan().unwrap();
    assert!(setup.limits.clock.is_some() && setup.limits.nodes.is_none());
    assert!(warm.budget.warm_start);
    let found = warm.settings.iter().find(|(n, _)| n == "--warm-start");
    assert_eq!(found.unwrap().1.as_deref(), Some("on"));
    // On Slurm: the settings, their run directories' base absolute, and
    // a setting a restart must repeat.
    let line = format!(
        "{base} --nodes 5 --slurm \"dir={d}/runs tasks=6 cpus=2\"",
        d = dir.display()
    );
    let (plan, setup) = args(&split(&line)).unwrap().plan().unwrap();
    let slurm = setup.slurm.unwrap();
    assert_eq!(slurm.dir, dir.join("runs"));
    assert_eq!(slurm.settings, ["tasks=6", "cpus=2"]);
    let found = plan.settings.iter().find(|(n, _)| n == "--slurm");
    assert_eq!(found.unwrap().1, Some(slurm.text()));
}

#[test]
fn bad_flags_are_refused_by_name() {
    let (dir, base) = files("refused");
    // A flag given again replaces the base's.
    let refused = |extra: &str| {
        let line = ["--games 100", "--elo1 5"]
            .into_iter()
            .filter(|given| extra.contains(given.split(' ').next().unwrap()))
            .fold(base.clone(), |line, given| line.replace(given, ""));
        let words = split(&format!("{line} {extra}"));
        match args(&words) {
            Err(e) => e,
            Ok(a) => a.plan().unwrap_err(),
        }
    };
    let has = |extra: &str, part: &str| {
        let e = refused(extra);
        assert!(e.contains(part), "{extra}: {e}");
    };
    has("", "--tc <TC>|--nodes <N>");
    has("--tc 1+0 --nodes 5", "cannot be used with");
    has("--tc inf", "an SPRT's games need a clock or --nodes");
    has("--tc 5x", "bad time control '5x'");
    has("--nodes 0", "'0'");
    has("--nodes 5 --hours -1", "wants a positive number of hours");
    has("--nodes 5 --games 1", "'1'");
    has(
        "--nodes 5 --alpha 1.5",
        "--alpha 1.5: must be between 0 and 1",
    );
    has("--nodes 5 --elo1 0", "--elo0 0 must be less than --elo1 0");
    has(
        "--nodes 5 --datagen-args \"--positions 9\"",
        "--datagen-args: --positions is the loop's to set",
    );
    has(
        "--nodes 5 --train-args --resume",
        "--train-args: --resume is the loop's to set",
    );
    has(
        "--nodes 5 --train-args \"--init a.nnue\"",
        "--train-args: --init is the loop's to set",
    );
    has(
        "--nodes 5 --relabel-args --net=x.nnue",
        "--relabel-args: --net=x.nnue is the loop's to set",
    );
    has(
        "--nodes 5 --datagen-args \"--nodes many\"",
        "--datagen-args '--nodes many': invalid value 'many' for '--nodes <N>'",
    );
    has(
        "--nodes 5 --slurm \"dir=r pairs=0\"",
        "--slurm 'dir=r pairs=0': pairs=0: pairs must be at least 1",
    );
    has(
        "--nodes 5 --train-args --no-such-flag",
        "--train-args '--no-such-flag': unexpected argument '--no-such-flag'",
    );
    let mut words = split(&format!("{base} --nodes 5 --relabel-args"));
    words.push("\"".to_string());
    let e = args(&words).unwrap().plan().unwrap_err();
    assert!(e.starts_with("--relabel-args: unterminated \""), "{e}");
    let missing = format!("{base} --nodes 5").replace("/engine", "/no-engine");
    let e = args(&split(&missing)).unwrap().plan().unwrap_err();
    assert_eq!(
        e,
        format!("--engine {}/no-engine: no such file", dir.display())
    );
    std::fs::write(dir.join("openings.txt"), "z9z9\n").unwrap();
    has(
        "--nodes 5",
        &format!(
            "--openings: {}, line 1: ",
            dir.join("openings.txt").display()
        ),
    );
}
