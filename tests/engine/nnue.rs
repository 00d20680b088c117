//! The learned evaluation: the accumulator kept move by move equals one
//! built from scratch; the vector kernels' evaluation equals the scalar
//! oracle's to the bit; the quantised net agrees with its float model
//! within the bound the model states; training drives the loss down;
//! checkpoints round trip; `EvalFile` with a bad file keeps the net; and
//! the record beside the embedded net names its bytes.

use clap::Parser;
use leiserchess::eval::nnue::accumulator::{Accumulator, Before, Stack};
use leiserchess::eval::nnue::{features, Network};
use leiserchess::lab::data::{Outcome, Sample};
use leiserchess::lab::train::model::{Adam, Inputs, Model};
use leiserchess::lab::train::{self, Set, State};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::movegen::generate;
use leiserchess::rules::moves::MoveList;
use session::Engine;
use sha2::{Digest, Sha256};
use std::time::Duration;

use crate::common::{reference, scratch, session};

/// Random playouts from the start: `visit` sees every position on the way.
fn playouts(games: u64, plies: usize, mut visit: impl FnMut(&Board)) {
    for seed in 0..games {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        for _ in 0..plies {
            visit(&b);
            let mut list = MoveList::new();
            generate(&b, &mut list);
            let m = list.iter().nth(rng.usize(..list.len())).unwrap();
            if b.make(m).king_zapped() {
                break;
            }
        }
    }
}

fn random_net(beam: bool, seed: u64) -> (Model, Network) {
    let mut m = Model::random(beam, seed);
    // Larger first-layer weights than the trainer starts from, so that
    // units land on both sides of the clip.
    let mut rng = fastrand::Rng::with_seed(seed + 1);
    for w in m.params.iter_mut() {
        *w += (rng.f32() - 0.5) * 0.6;
    }
    m.clip();
    let net = m.quantise();
    (m, net)
}

#[test]
fn the_incremental_accumulator_equals_a_fresh_one_after_every_make_and_unmake() {
    // The search's stack of accumulators, whose slots are reused: every
    // line after the first re-fills slots an earlier line left.
    let (_, net) = random_net(false, 3);
    let mut checked = 0;
    let mut stack = Stack::new();
    for seed in 0..150u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut b = fen::parse(fen::STARTPOS).unwrap();
        stack.clear();
        stack.push(Accumulator::refresh(&net, &b));
        let mut played = Vec::new();
        for _ in 0..80 {
            let mut list = MoveList::new();
            generate(&b, &mut list);
            let m = list.iter().nth(rng.usize(..list.len())).unwrap();
            let before = Before::of(&b, m.touched());
            let undo = b.make(m);
            let acc = stack.last().unwrap().child(&net, &b, &before, &undo);
            stack.push_child(&net, &b, &before, &undo);
            assert_eq!(stack.last(), Some(&acc), "after {m} (seed {seed})");
            if !undo.king_zapped() {
                assert_eq!(
                    acc,
                    Accumulator::refresh(&net, &b),
                    "after {m} (seed {seed})"
                );
                checked += 1;
            }
            played.push((m, undo));
            if undo.king_zapped() {
                break;
            }
        }
        while let Some((m, undo)) = played.pop() {
            b.unmake(m, undo);
            stack.pop();
            assert_eq!(
                stack.last().unwrap(),
                &Accumulator::refresh(&net, &b),
                "after unmaking {m}"
            );
        }
    }
    assert!(checked > 5000, "{checked} positions checked");
}

#[test]
fn the_vector_evaluation_equals_the_scalar_oracle_on_the_reference_positions() {
    let nets = [
        Network::embedded(),
        random_net(true, 5).1,
        random_net(false, 6).1,
    ];
    let fens = reference::fens("positions.txt");
    assert!(fens.len() >= 300, "{} reference positions", fens.len());
    for f in &fens {
        let b = fen::parse(f).unwrap();
        for net in &nets {
            let acc = Accumulator::refresh(net, &b);
            assert_eq!(net.evaluate(&acc, &b), net.evaluate_plain(&acc, &b), "{f}");
        }
    }
}

/// Along a random playout (seeded by quickcheck), with the embedded net:
/// every accumulator made move by move by the vector kernels equals a
/// scalar refresh, and every evaluation equals the scalar oracle's.
fn kernels_follow_a_playout(seed: u64) -> bool {
    let net = Network::embedded();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut b = fen::parse(fen::STARTPOS).unwrap();
    let mut acc = Accumulator::refresh(&net, &b);
    for _ in 0..120 {
        if acc != Accumulator::refresh(&net, &b)
            || net.evaluate(&acc, &b) != net.evaluate_plain(&acc, &b)
        {
            return false;
        }
        let mut list = MoveList::new();
        generate(&b, &mut list);
        let m = list.iter().nth(rng.usize(..list.len())).unwrap();
        let before = Before::of(&b, m.touched());
        let undo = b.make(m);
        if undo.king_zapped() {
            break;
        }
        acc = acc.child(&net, &b, &before, &undo);
    }
    true
}

#[test]
fn the_vector_kernels_follow_random_playouts() {
    quickcheck::QuickCheck::new()
        .tests(300)
        .quickcheck(kernels_follow_a_playout as fn(u64) -> bool);
}

/// The model's inputs for `b`, side to move first.
fn inputs(b: &Board, beam: bool) -> (Vec<u16>, Vec<u16>) {
    let views = [b.side(), b.side().opp()].map(|v| {
        let mut f: Vec<u16> = features::pieces(b, v).map(|f| f as u16).collect();
        if beam {
            f.extend(features::beams(b, v).map(|f| f as u16));
        }
        f
    });
    let [us, them] = views;
    (us, them)
}

#[test]
fn the_quantised_net_agrees_with_its_float_model_within_the_stated_bound() {
    for beam in [false, true] {
        let (model, net) = random_net(beam, 11);
        let (mut worst, mut sum, mut n) = (0.0f32, 0.0f32, 0);
        playouts(60, 60, |b| {
            let (us, them) = inputs(b, beam);
            let x = Inputs {
                us: &us,
                them: &them,
            };
            let float = model.forward(&model.hidden(&x));
            let quant = net.evaluate(&Accumulator::refresh(&net, b), b) as f32;
            let active = us.len().max(them.len());
            let diff = (float - quant).abs();
            assert!(
                diff <= model.quantisation_bound(active),
                "beam {beam}: float {float} quantised {quant}, bound {}",
                model.quantisation_bound(active)
            );
            worst = worst.max(diff);
            sum += diff;
            n += 1;
        });
        // The bound is a worst case; the typical error is a few cp.
        assert!(
            sum / (n as f32) < 5.0,
            "beam {beam}: mean error {} cp, worst {worst}",
            sum / n as f32
        );
    }
}

/// A tiny synthetic set: playout positions whose target is a fixed
/// function of the pieces (a random piece-square table through the
/// logistic), which the net can represent.
fn synthetic() -> Set {
    let mut rng = fastrand::Rng::with_seed(5);
    let table: Vec<f64> = (0..features::PIECE_FEATURES)
        .map(|_| rng.f64() - 0.5)
        .collect();
    let mut set = Set::default();
    playouts(40, 50, |b| {
        let us: f64 = features::pieces(b, b.side()).map(|f| table[f]).sum();
        let target = 1.0 / (1.0 + (-us).exp());
        let s = Sample {
            board: b.clone(),
            score: 0,
            outcome: Outcome::Draw,
        };
        set.push(&s, false, target as f32);
    });
    set
}

#[test]
fn training_on_a_tiny_synthetic_set_drives_the_loss_down() {
    let set = synthetic();
    assert!(set.len() > 1000, "{} positions", set.len());
    let k = 0.006;
    let mut m = Model::random(false, 1);
    let mut adam = Adam::new(m.params.len());
    let (start, _) = train::losses(&m, &set, k);
    let all: Vec<usize> = (0..set.len()).collect();
    let mut parts = train::Parts::new(&m);
    for _ in 0..300 {
        for batch in all.chunks(256) {
            let (grad, _) = train::gradient(&m, &set, batch, k, 2, &mut parts);
            adam.step(&mut m.params, &grad, 0.003);
            m.clip();
        }
        if train::losses(&m, &set, k).0 < start / 10.0 {
            break;
        }
    }
    let (end, _) = train::losses(&m, &set, k);
    assert!(end < start / 10.0, "loss {start} -> {end}");
}

#[test]
fn a_checkpoint_round_trips_and_bad_ones_are_named() {
    let model = Model::random(true, 9);
    let mut adam = Adam::new(model.params.len());
    adam.t = 77;
    adam.m[3] = 0.25;
    let s = State {
        model,
        adam,
        epoch: 4,
        best: 0.125,
    };
    let bytes = s.to_bytes();
    assert_eq!(State::from_bytes(&bytes).unwrap(), s);
    assert!(State::from_bytes(&bytes[..bytes.len() - 4])
        .unwrap_err()
        .contains("a checkpoint of this net has"));
    assert!(State::from_bytes(b"LNNUE1\0\0 and more bytes than that")
        .unwrap_err()
        .contains("not a training checkpoint"));
}

#[test]
fn train_names_bad_arguments() {
    let args = |a: &[&str]| {
        train::Args::try_parse_from(std::iter::once("train").chain(a.iter().copied()))
            .map_err(|e| e.to_string())
    };
    let refused = |a: &[&str], named: &str| {
        let e = args(a).unwrap_err();
        assert!(e.contains(named), "{a:?}: {e}");
    };
    refused(&["d.bin"], "--out <FILE>");
    refused(&["--out", "x"], "<DATA>...");
    refused(
        &["d.bin", "--out", "x", "--lambda", "2"],
        "invalid value '2' for '--lambda <L>': not a number from 0 to 1",
    );
    refused(
        &["d.bin", "--out", "x", "--wat"],
        "unexpected argument '--wat'",
    );
    let a = args(&["d.bin", "--out", "x", "--beam", "--epochs", "3"]).unwrap();
    assert!(a.beam && a.epochs == 3 && !a.resume);
    assert_eq!(a.beside(".ckpt"), std::path::Path::new("x.ckpt"));
}

/// The `nnue cp` of the `eval` command's answer.
fn nnue_cp(e: &mut Engine) -> String {
    e.send("eval");
    let (_, line) = e.until(Duration::from_secs(10), |l| l.contains("nnue cp"));
    line
}

#[test]
fn eval_file_with_a_bad_file_names_it_and_keeps_the_net() {
    let dir = scratch::dir("nnue-eval-file");
    let good = dir.join("good.nnue");
    std::fs::write(&good, random_net(false, 21).1.to_bytes()).unwrap();
    let bad = dir.join("bad.nnue");
    let mut truncated = random_net(false, 21).1.to_bytes();
    truncated.truncate(1000);
    std::fs::write(&bad, &truncated).unwrap();

    let mut e = Engine::spawn();
    let embedded = nnue_cp(&mut e);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.until(Duration::from_secs(10), |l| l.contains("1024 inputs"));
    let loaded = nnue_cp(&mut e);
    assert_ne!(
        loaded, embedded,
        "the random net scores the start like the embedded one"
    );
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    let (_, line) = e.until(Duration::from_secs(10), |l| l.contains("error:"));
    assert!(
        line.contains("bad.nnue")
            && line.contains("header promises")
            && line.contains("net unchanged"),
        "{line}"
    );
    assert_eq!(nnue_cp(&mut e), loaded);
    // Still a working engine, searching with the net.
    e.send("setoption name use_nnue value true");
    e.send("go depth 3");
    assert!(!e.answer(Duration::from_secs(30)).best.is_empty());
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `n` with a comma every three digits: `295,700`.
fn thousands(n: usize) -> String {
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

#[test]
fn the_record_beside_the_embedded_net_names_its_size_sha256_and_bench_signature() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/nnue/");
    let net = std::fs::read(format!("{dir}default.nnue")).unwrap();
    let record = std::fs::read_to_string(format!("{dir}default.md")).unwrap();
    let sha: String = Sha256::digest(&net)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let line = format!("| file | {} bytes, sha256 `{sha}` |", thousands(net.len()));
    assert!(
        record.contains(&line),
        "src/eval/nnue/default.md does not say: {line}"
    );
    let signature: usize = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench/signature-pvs.txt"
    ))
    .unwrap()
    .trim()
    .parse()
    .unwrap();
    let line = format!("| bench signature | {} nodes", thousands(signature));
    assert!(
        record.contains(&line),
        "src/eval/nnue/default.md does not say: {line}"
    );
    assert_eq!(Network::from_bytes(&net).unwrap(), Network::embedded());
}
