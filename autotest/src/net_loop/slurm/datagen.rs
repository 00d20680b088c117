//! The datagen step on Slurm: `autotest datagen -slurm
//! dir=RUN/gen-G/datagen [settings] -- ENGINE datagen OUT ...`, the local
//! step's command after the `--` less its `--threads` (each task's are
//! `cpus=`). The coordinator merges the shards into OUT; the tasks'
//! datagen put their shards in the lab store, not OUT, so the loop puts
//! OUT there with the record the engine's own datagen would give it (the
//! net that played it as its parent), the autotest command as the one
//! that made it.

use super::LoopSlurm;
use crate::net_loop::args::Setup;
use crate::net_loop::executor::Artifact;
use leiserchess::lab::store::{self, Kind, Role};
use std::path::Path;

/// The step's command: generation `g`'s `autotest datagen -slurm` by the
/// autotest at `autotest`, around `engine` (the local command, no
/// `--threads`).
pub fn command(autotest: &Path, slurm: &LoopSlurm, g: u32, engine: Vec<String>) -> Vec<String> {
    let mut words = vec![autotest.display().to_string(), "datagen".to_string()];
    // The games' keys: pairs a shard, the clocks scaled by node speed.
    words.extend(slurm.flag(g, "datagen", &["pairs", "nps", "bench"]));
    words.push("--".to_string());
    words.extend(engine);
    words
}

/// Puts the merged data `out` in the store of `setup`, played by `net`
/// (the embedded one when `None`) with the forwarded datagen options,
/// made by `command`; its sha256.
pub fn register(
    setup: &Setup,
    out: &Path,
    net: Option<&Artifact>,
    command: &[String],
) -> Result<String, String> {
    let mut words = vec!["datagen".to_string(), out.display().to_string()];
    if let Some(n) = net {
        words.extend(["--net".to_string(), n.path.display().to_string()]);
    }
    words.extend(setup.datagen_args.iter().cloned());
    let args = <leiserchess::lab::datagen::Args as clap::Parser>::try_parse_from(&words)
        .map_err(|e| e.to_string())?;
    let engine = args.engine.engine_quietly()?;
    let store = store::open(setup.store.as_deref()).map_err(|e| e.to_string())?;
    let played = store::evaluation(&store, Role::Played, &engine).map_err(|e| e.to_string())?;
    let record = store::register(&store, out, Kind::Dataset, vec![played], command)
        .map_err(|e| e.to_string())?;
    Ok(record.sha256)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net_loop::slurm::tests::setup;
    use crate::net_loop::sprt::artifact;
    use leiserchess::lab::store::{Parent, Source};
    use std::path::PathBuf;

    /// What `autotest datagen` reads of the command: the run directory,
    /// the shards' settings (no `pairs=` or `nps=`), and after `--` the engine's
    /// datagen as the local step gives it.
    #[test]
    fn the_command_is_the_local_one_after_slurm_datagen_s_flag() {
        let slurm = LoopSlurm::parse("dir=/r tasks=4 pairs=3 nps=2000000 cpus=2 poll=0.2").unwrap();
        let engine: Vec<String> = "/e datagen /l/gen-002/data.bin --positions 500 --seed 8 \
                                   --net /l/gen-001/net.nnue --store /s --nodes 20"
            .split(' ')
            .map(str::to_string)
            .collect();
        let words = command(Path::new("/a/autotest"), &slurm, 2, engine.clone());
        assert_eq!(
            words.join(" "),
            format!(
                "/a/autotest datagen -slurm dir=/r/gen-002/datagen tasks=4 cpus=2 poll=0.2 -- {}",
                engine.join(" ")
            )
        );
        let plan = crate::slurm::datagen::parse(&words[2..]).unwrap();
        assert_eq!(
            (plan.engine.as_str(), &plan.out, plan.positions, plan.seed),
            ("/e", &PathBuf::from("/l/gen-002/data.bin"), 500, 8)
        );
        assert_eq!(plan.rest, engine[7..]);
        assert_eq!(plan.opts.dir, PathBuf::from("/r/gen-002/datagen"));
        assert_eq!((plan.tasks(), plan.opts.cpus), (4, 2));
    }

    /// The merged data's record: played by the embedded net, the best
    /// net, or the hand-written evaluation as the forwarded options say;
    /// the command the loop ran.
    #[test]
    fn the_merged_data_is_registered_with_the_net_that_played_it() {
        let dir = crate::scratch::dir("net_loop-slurm-register");
        let mut s = setup(&dir);
        s.store = Some(dir.join("store"));
        let out = dir.join("data.bin");
        std::fs::write(&out, b"merged positions").unwrap();
        let command = vec!["autotest".to_string(), "datagen".to_string()];
        let played = |net: Option<&Artifact>, s: &Setup| {
            let sha = register(s, &out, net, &command).unwrap();
            let store = store::open(s.store.as_deref()).unwrap();
            let record = store::read_record(&store, &sha).unwrap();
            assert_eq!((record.kind, &record.command), (Kind::Dataset, &command));
            // The first registration's record is kept: a new file each time.
            std::fs::write(&out, format!("merged positions {sha}")).unwrap();
            record.parents
        };
        let embedded = store::embedded::sha256();
        let object = |sha: &str| vec![Parent::object(Role::Played, Kind::Net, sha)];
        assert_eq!(played(None, &s), object(&embedded));
        let net = dir.join("net.nnue");
        std::fs::write(&net, b"a net").unwrap();
        let best = artifact(&net).unwrap();
        let parents = played(Some(&best), &s);
        assert_eq!(parents.len(), 1);
        assert!(matches!(
            &parents[0].source,
            Source::Object { sha256, .. } if *sha256 == best.sha256
        ));
        s.datagen_args = vec!["--option".to_string(), "use_nnue=false".to_string()];
        let parents = played(None, &s);
        assert_eq!(parents[0].source, Source::HandWritten);
        s.datagen_args = vec!["--option".to_string(), "no_such=1".to_string()];
        assert!(register(&s, &out, None, &command).is_err());
    }
}
