//! `sh no-run` blocks: each command checked without running it. The
//! program must be one a reader has; a `make` target must be in the
//! Makefile, a script in scripts/, a `cargo --path` a folder; for
//! `leiserchess` and `autotest`, the subcommand must exist and every flag
//! must appear in its own `--help`.

use super::blocks::Block;
use super::run::Binaries;
use std::path::Path;
use std::process::Command;

/// Programs a command may start with whose arguments are not ours to
/// check: the system's, the toolchain's, the course referee's, Slurm's.
const OTHERS: &[&str] = &[
    "apt-get", "sudo", "java", "git", "rustup", "curl", "cd", "export", "cat", "echo", "ls",
    "mkdir", "cp", "kill", "pkill", "sleep", "python3", "sbatch", "srun", "squeue", "sinfo",
    "scancel", "scontrol", "munge", "perf", "valgrind", "time", "env",
];

/// The cargo subcommands these documents use (`fuzz`: cargo-fuzz's).
const CARGO: &[&str] = &[
    "build", "run", "test", "install", "bench", "clippy", "fmt", "fuzz",
];

pub fn commands(repo: &Path, bins: &Binaries, block: &Block) -> Result<(), String> {
    let joined = block.text.replace("\\\n", " ").replace("2>&1", "");
    for line in joined.lines() {
        let line = strip_comment(line);
        for command in line
            .split(['|', ';', '&'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            let words = split(command);
            check(repo, bins, &words).map_err(|e| format!("'{command}': {e}"))?;
        }
    }
    Ok(())
}

fn check(repo: &Path, bins: &Binaries, words: &[String]) -> Result<(), String> {
    // Environment assignments and redirections are not the program.
    let words: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .filter(|w| !w.starts_with('>') && !w.starts_with('<'))
        .collect();
    let Some((&program, args)) = words.split_first() else {
        return Ok(());
    };
    let program = program.trim_start_matches("./");
    match program {
        "make" => make_targets(repo, args),
        "cargo" => cargo(repo, bins, args),
        "leiserchess" | "target/release/leiserchess" => ours(repo, bins, true, args),
        "autotest" | "target/release/autotest" => ours(repo, bins, false, args),
        p if p.starts_with("scripts/") => {
            let script = repo.join(p);
            let executable = std::fs::metadata(&script)
                .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0);
            match executable {
                Ok(true) => Ok(()),
                Ok(false) => Err(format!("{p} is not executable")),
                Err(_) => Err(format!("there is no {p}")),
            }
        }
        p if OTHERS.contains(&p) => Ok(()),
        p => Err(format!("'{p}' is not a program these documents know")),
    }
}

fn make_targets(repo: &Path, args: &[&str]) -> Result<(), String> {
    let makefile = std::fs::read_to_string(repo.join("Makefile")).map_err(|e| e.to_string())?;
    let targets: Vec<&str> = makefile
        .lines()
        .filter_map(|l| l.split_once(':').map(|(t, _)| t))
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .collect();
    for a in args
        .iter()
        .filter(|a| !a.starts_with('-') && !a.contains('='))
    {
        if !targets.contains(a) {
            return Err(format!("the Makefile has no target '{a}'"));
        }
    }
    Ok(())
}

fn cargo(repo: &Path, bins: &Binaries, args: &[&str]) -> Result<(), String> {
    let Some((&sub, rest)) = args.split_first() else {
        return Err("cargo without a subcommand".into());
    };
    if !CARGO.contains(&sub) {
        return Err(format!(
            "'cargo {sub}' is not a command these documents use"
        ));
    }
    if let Some(i) = rest.iter().position(|a| *a == "--path") {
        let dir = rest.get(i + 1).ok_or("--path without a folder")?;
        if !repo.join(dir).join("Cargo.toml").exists() {
            return Err(format!("--path {dir}: no Cargo.toml there"));
        }
    }
    match (sub, rest.iter().position(|a| *a == "--")) {
        ("run", Some(i)) => ours(repo, bins, true, &rest[i + 1..]),
        _ => Ok(()),
    }
}

/// `leiserchess` or `autotest`: each subcommand named must be listed on
/// its parent's `--help` (`autotest slurm watch`: `watch` on `autotest
/// slurm --help`), and every flag must appear on the last one's page, the
/// subcommand's own. autotest's first word may instead be a course config
/// file, whose flags are the tournament's (`autotest --help`). After a
/// `--`, autotest's words are a command of their own (`autotest datagen
/// -slurm … -- leiserchess datagen …`), checked as one.
fn ours(repo: &Path, bins: &Binaries, leiserchess: bool, args: &[&str]) -> Result<(), String> {
    let binary = match leiserchess {
        true => &bins.leiserchess,
        false => &bins.autotest,
    };
    let (args, inner) = match args.iter().position(|a| *a == "--") {
        Some(i) if !leiserchess => (&args[..i], Some(&args[i + 1..])),
        _ => (args, None),
    };
    if let Some(inner) = inner {
        let words: Vec<String> = inner.iter().map(|w| w.to_string()).collect();
        check(repo, bins, &words).map_err(|e| format!("after --: {e}"))?;
    }
    let mut path: Vec<&str> = Vec::new();
    let mut text = help(binary, &path)?;
    for &word in args.iter().take_while(|a| !is_flag(a)) {
        let listed = text
            .lines()
            .any(|l| l.split_whitespace().next() == Some(word));
        if !listed {
            // A word after a page that lists commands must be one of them
            // (clap's "Commands:"; the program's own page lists its own);
            // after another, it is a value.
            let config_file = !leiserchess && (word.contains('.') || word.contains('/'));
            let expected = match path.is_empty() {
                true => !config_file,
                false => text.lines().any(|l| l.trim_end() == "Commands:"),
            };
            if expected {
                let program = [binary.display().to_string()].into_iter();
                let named: Vec<String> =
                    program.chain(path.iter().map(|p| p.to_string())).collect();
                return Err(format!("{} has no command '{word}'", named.join(" ")));
            }
            break;
        }
        path.push(word);
        text = help(binary, &path)?;
    }
    let page = match path.is_empty() {
        true => format!("{}'s --help", binary.display()),
        false => format!("`{} {} --help`", binary.display(), path.join(" ")),
    };
    for flag in args.iter().filter(|a| is_flag(a)) {
        let flag = flag.split('=').next().unwrap_or(flag);
        let known = text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
            .any(|w| w == flag);
        if !known {
            return Err(format!("'{flag}' is not in {page}"));
        }
    }
    Ok(())
}

/// `-x` or `--xy`, not a negative number.
fn is_flag(word: &str) -> bool {
    word.starts_with('-') && !word[1..].starts_with(|c: char| c.is_ascii_digit()) && word != "--"
}

/// The `--help` page of `binary`'s subcommand `path` (none: the
/// program's own).
fn help(binary: &Path, path: &[&str]) -> Result<String, String> {
    let mut cmd = Command::new(binary);
    cmd.args(path).arg("--help");
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn strip_comment(line: &str) -> &str {
    let mut quoted = None;
    for (i, c) in line.char_indices() {
        match (quoted, c) {
            (None, '\'' | '"') => quoted = Some(c),
            (Some(q), c) if c == q => quoted = None,
            (None, '#') if i == 0 || line[..i].ends_with(char::is_whitespace) => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Words as the shell splits them, quotes removed (no expansions).
fn split(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = None;
    let mut in_word = false;
    for c in command.chars() {
        match (quoted, c) {
            (None, '\'' | '"') => {
                quoted = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quoted = None,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}
