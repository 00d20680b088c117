//! `--slurm`'s run directories and flags, and the place its steps'
//! children run in; the setup the Slurm steps' tests share.

use super::*;

/// A loop's setup in `dir` (its folder `dir/loop`, made), an openings
/// file there, run here.
pub fn setup(dir: &Path) -> Setup {
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f3f4 d5U\n").unwrap();
    std::fs::create_dir_all(dir.join("loop")).unwrap();
    Setup {
        openings,
        ..Setup::example(&dir.join("loop"))
    }
}

/// Each step's run directory under the base, and its flag without the
/// other step's key.
#[test]
fn each_step_has_its_run_directory_and_its_settings() {
    let s = LoopSlurm::parse("dir=/r tasks=4 sbatch=\"-p main --time=30\" pairs=2 nps=1000000")
        .unwrap();
    assert_eq!(s.run_dir(12, "sprt"), PathBuf::from("/r/gen-012/sprt"));
    assert_eq!(
        s.flag(3, "datagen", &["pairs", "nps", "bench"]).join(" "),
        "-slurm dir=/r/gen-003/datagen tasks=4 sbatch=-p main --time=30"
    );
    assert_eq!(
        s.flag(3, "sprt", &["tasks"]).join(" "),
        "-slurm dir=/r/gen-003/sprt sbatch=-p main --time=30 pairs=2 nps=1000000"
    );
}

/// A step's child runs in the loop's folder with the loop's database, a
/// path made absolute; `none` as it is; without `--db`, the loop's own
/// environment's.
#[test]
fn a_step_s_child_runs_in_the_loop_s_folder_with_its_database() {
    let dir = crate::scratch::dir("net_loop-slurm-place");
    let mut s = setup(&dir);
    let log = dir.join("step.log");
    let words: Vec<String> = ["sh", "-c", "pwd; echo \"db ${AUTOTEST_DB-unset}\""]
        .map(str::to_string)
        .to_vec();
    let seen = |s: &Setup| {
        let _ = std::fs::remove_file(&log);
        run(s, &words, &log).unwrap();
        let text = std::fs::read_to_string(&log).unwrap();
        text.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
    };
    let here = s.dir.canonicalize().unwrap().display().to_string();
    assert_eq!(seen(&s), [here.clone(), "db none".to_string()]);
    s.db = Some("results.db".to_string());
    let db = std::env::current_dir().unwrap().join("results.db");
    assert_eq!(seen(&s), [here.clone(), format!("db {}", db.display())]);
    s.db = None;
    let inherited = std::env::var(ENV).unwrap_or("unset".to_string());
    assert_eq!(seen(&s), [here, format!("db {inherited}")]);
}
