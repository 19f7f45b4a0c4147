//! Tests of the tuner: the samples against the engine, the gradient, Adam,
//! the targets blend and loading data files.

use shakmaty::ByColor;

use super::*;
use crate::data::target::K_RANGE;
use shears::chess::Position;
use shears::eval::coefficients;

const FENS: [&str; 4] = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/5pk1/6p1/8/3B4/8/5PPP/6K1 b - - 0 40",
    "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 15",
    "8/8/4k3/8/2b5/8/4K3/3B4 w - - 0 60",
];

fn samples() -> Vec<Sample> {
    FENS.iter()
        .zip([1.0, 0.0, 0.5, 0.5])
        .map(|(fen, r)| {
            let pos = Position::from_fen(fen, false).unwrap();
            Sample::new(
                &coefficients(pos.board()),
                r,
                Some((200.0 * r) as i32 - 100),
            )
        })
        .collect()
}

#[test]
fn a_sample_evaluates_like_the_engine_with_the_current_weights() {
    let w = current_weights();
    for (fen, s) in FENS.iter().zip(samples()) {
        let pos = Position::from_fen(fen, false).unwrap();
        let engine = white_eval(pos.board());
        let float = s.evaluate(&w).value;
        // The engine truncates twice (blend, then scale): within 2 cp.
        assert!(
            (float - f64::from(engine)).abs() <= 2.0,
            "{fen}: {float} vs {engine}"
        );
    }
}

#[test]
fn the_gradient_matches_finite_differences() {
    let s = samples();
    let w = current_weights();
    let k = 167.0;
    let (_, grad) = gradient(&s, &w, k);
    let mut used: Vec<usize> = s[0]
        .features
        .iter()
        .map(|&(i, _)| i as usize)
        .take(5)
        .collect();
    // The complexity weights too (their endgame values act, through the
    // adjustment; their midgame values have no effect).
    used.extend((0..COMPLEXITY_FEATURES).map(|j| layout::COMPLEXITY.at(j)));
    for i in used {
        for j in 0..2 {
            let h = 1e-3;
            let mut up = w.clone();
            up[i][j] += h;
            let mut down = w.clone();
            down[i][j] -= h;
            let numeric = (loss(&s, &up, k) - loss(&s, &down, k)) / (2.0 * h);
            assert!(
                (numeric - grad[i][j]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                "weight {i}/{j}: analytic {} numeric {numeric}",
                grad[i][j]
            );
        }
    }
}

#[test]
fn adam_lowers_the_loss_and_k_is_inside_its_range() {
    let s = samples();
    let w = current_weights();
    // The samples have scores: K is the scores' fit, within its range
    // (at its low end: ±100 cp scores predict these results exactly).
    let (k, source) = fit_k(&s, &w).unwrap();
    assert_eq!(source, KSource::Scores);
    assert!((K_RANGE.0..=K_RANGE.1).contains(&k), "{k}");
    let unscored: Vec<Sample> = FENS
        .iter()
        .zip([1.0, 0.0, 0.5, 0.5])
        .map(|(fen, r)| {
            let pos = Position::from_fen(fen, false).unwrap();
            Sample::new(&coefficients(pos.board()), r, None)
        })
        .collect();
    let (ke, source) = fit_k(&unscored, &w).unwrap();
    assert_eq!(source, KSource::Evaluation);
    assert!((K_RANGE.0..=K_RANGE.1).contains(&ke), "{ke}");
    assert!(fit_k(&[], &w).is_none());
    let before = loss(&s, &w, k);
    let config = AdamConfig {
        epochs: 50,
        rate: 1.0,
        l2: 0.0,
        anchor: L2Anchor::Start,
    };
    let after = loss(&s, &adam(&s, &w, None, k, config, &mut |_, _| {}), k);
    assert!(after < before, "{after} !< {before}");
}

#[test]
fn a_strong_l2_penalty_holds_the_weights_at_their_start() {
    let s = samples();
    let w = current_weights();
    let config = AdamConfig {
        epochs: 50,
        rate: 1.0,
        l2: 1e3,
        anchor: L2Anchor::Start,
    };
    let fitted = adam(&s, &w, None, 167.0, config, &mut |_, _| {});
    let drift = fitted
        .iter()
        .zip(&w)
        .map(|(a, b)| (a[0] - b[0]).abs().max((a[1] - b[1]).abs()))
        .fold(0.0, f64::max);
    assert!(drift < 1.0, "{drift}");
}

#[test]
fn a_strong_l2_penalty_toward_zero_shrinks_every_weight() {
    let s = samples();
    let w = current_weights();
    let config = AdamConfig {
        epochs: 100,
        rate: 1.0,
        l2: 1e3,
        anchor: L2Anchor::Zero,
    };
    let fitted = adam(&s, &w, None, 167.0, config, &mut |_, _| {});
    // Each step moves a weight about `rate` toward zero, and none away.
    for (i, (a, b)) in fitted.iter().zip(&w).enumerate() {
        for j in 0..2 {
            assert!(
                a[j].abs() <= b[j].abs() + 1.0,
                "{i}/{j}: {} from {}",
                a[j],
                b[j]
            );
        }
    }
    let size = |ws: &[[f64; 2]]| ws.iter().map(|a| a[0].abs() + a[1].abs()).sum::<f64>();
    assert!(
        size(&fitted) < 0.7 * size(&w),
        "{} {}",
        size(&fitted),
        size(&w)
    );
}

#[test]
fn lambda_zero_is_exactly_the_result_only_loss_and_lambda_moves_it() {
    let plain = samples();
    let w = current_weights();
    let (k, _) = fit_k(&plain, &w).unwrap();
    let target = |lambda| Target {
        scale: k as f32,
        lambda,
    };
    let before = loss(&plain, &w, k);
    let mut blended = samples();
    assert_eq!(set_targets(&mut blended, target(0.0)).unwrap(), 0);
    assert_eq!(loss(&blended, &w, k).to_bits(), before.to_bits());
    assert_eq!(gradient(&blended, &w, k).1, gradient(&plain, &w, k).1);
    let mut losses = Vec::new();
    for lambda in [0.5, 1.0] {
        set_targets(&mut blended, target(lambda)).unwrap();
        losses.push(loss(&blended, &w, k));
    }
    assert!(
        losses[0] != before && losses[1] != losses[0],
        "{before} {losses:?}"
    );
    // Back to 0: the results again, bit for bit.
    set_targets(&mut blended, target(0.0)).unwrap();
    assert_eq!(loss(&blended, &w, k).to_bits(), before.to_bits());
    assert!(matches!(
        set_targets(&mut blended, target(1.5)),
        Err(TuneError::BadLambda(_))
    ));
}

#[test]
fn with_lambda_one_the_target_is_the_score_through_the_sigmoid() {
    let mut s = samples();
    let t = Target {
        scale: 100.0,
        lambda: 1.0,
    };
    set_targets(&mut s, t).unwrap();
    for x in &s {
        let score = f64::from(x.score.unwrap());
        let expected = 1.0 / (1.0 + (-score / 100.0).exp());
        assert!((f64::from(x.target) - expected).abs() < 1e-6);
    }
    // A sample without a score keeps its result, and is counted.
    let mut old = vec![Sample::new(
        &coefficients(&shakmaty::Chess::default()),
        0.5,
        None,
    )];
    assert_eq!(set_targets(&mut old, t).unwrap(), 1);
    assert_eq!(old[0].target, 0.5);
}

#[test]
fn old_files_load_unless_scores_are_needed_and_bad_lines_are_named() {
    const START: &str = shears::chess::START_FEN;
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.txt");
    let new = dir.path().join("new.txt");
    std::fs::write(
        &old,
        format!("# game 0\n{START} | 1.0\n{} | 0.0\nnonsense\n", FENS[2]),
    )
    .unwrap();
    // FENS[1] is in check: dropped, not an error.
    std::fs::write(
        &new,
        format!("{} | 0.5 | 12\n{START} | 0.5 | -3\n", FENS[1]),
    )
    .unwrap();
    let Loaded {
        samples: loaded,
        ends,
        bad,
    } = load(&[old.clone(), new.clone()], false, None, &|_| {}).unwrap();
    assert_eq!((loaded.len(), scored(&loaded)), (3, 1));
    // old.txt: no position before its `# game 0` line, two after it (an
    // unfinished game, closed at the file's end); new.txt: one game.
    assert_eq!(ends, vec![0, 2, 3]);
    // The first two positions only: the first game cut after them.
    let first = load(&[old.clone(), new.clone()], false, Some(2), &|_| {}).unwrap();
    assert_eq!((first.samples.len(), first.ends), (2, vec![0, 2]));
    assert_eq!(bad.len(), 1);
    assert_eq!((bad[0].path.clone(), bad[0].line), (old.clone(), 4));
    let loaded = load(std::slice::from_ref(&new), true, None, &|_| {}).unwrap();
    assert_eq!(scored(&loaded.samples), 1);
    let err = load(&[new, old.clone()], true, None, &|_| {}).unwrap_err();
    assert!(
        matches!(&err, TuneError::NoScore { path, line: 2 } if *path == old),
        "{err}"
    );
    assert!(
        err.to_string().contains("old.txt:2: no search score"),
        "{err}"
    );
}

#[test]
fn scale_is_read_from_the_side_ahead() {
    let coefs = Coefficients {
        features: vec![(0, 1)],
        phase: 0,
        scale: ByColor {
            white: 32,
            black: 64,
        },
        known_win: None,
        complexity: [0; COMPLEXITY_FEATURES],
        danger: [[0; shears::eval::DANGER_FEATURES]; 2],
    };
    let s = Sample::new(&coefs, 1.0, None);
    let mut w = vec![[0.0; 2]; COUNT];
    w[0] = [0.0, 100.0];
    assert_eq!(s.evaluate(&w).value, 50.0);
    w[0] = [0.0, -100.0];
    assert_eq!(s.evaluate(&w).value, -100.0);
}

/// The side-to-move view is not needed by the tuner; kept here so a test can
/// check that a sample rebuilds the engine's own evaluation.
fn white_eval(pos: &shakmaty::Chess) -> i32 {
    use shakmaty::Position as _;
    let v = shears::eval::evaluate(pos);
    if pos.turn() == shakmaty::Color::White {
        v
    } else {
        -v
    }
}

#[test]
fn a_packed_file_loads_as_its_text_twin_and_a_cut_record_is_named() {
    use crate::data::format::packed::{pack, pack_game_end};
    let dir = tempfile::tempdir().unwrap();
    let fens = [shears::chess::START_FEN, FENS[0], FENS[2]];
    let mut text = String::new();
    let mut bytes = Vec::new();
    for (i, fen) in fens.iter().enumerate() {
        let score = 10 * i as i32 - 7;
        text.push_str(&format!("{fen} | 0.5 | {score}\n"));
        let board = Position::from_fen(fen, false).unwrap().board().clone();
        bytes.extend_from_slice(&pack(&board, 0.5, Some(score)));
    }
    text.push_str("# game 0 0.5 40\n");
    bytes.extend_from_slice(&pack_game_end(0, 0.5, 40));
    let (txt, bin) = (dir.path().join("d.txt"), dir.path().join("d.bin"));
    std::fs::write(&txt, &text).unwrap();
    std::fs::write(&bin, &bytes).unwrap();
    let a = load(&[txt], true, None, &|_| {}).unwrap();
    let b = load(std::slice::from_ref(&bin), true, None, &|_| {}).unwrap();
    assert!(a.bad.is_empty() && b.bad.is_empty());
    assert_eq!(a, b);
    let a = a.samples;
    // Positions whose quiet leaf is in check are left out, in both forms;
    // which ones depends on the evaluation that resolves the leaves.
    let kept = fens
        .iter()
        .filter(|fen| {
            let board = Position::from_fen(fen, false).unwrap().board().clone();
            super::quiet::quiet_leaf(&board).is_some()
        })
        .count();
    assert!(kept > 0);
    assert_eq!(a.len(), kept);

    bytes.extend_from_slice(&[1, 2, 3]);
    bytes[8] = 0xFF; // the first record: a piece code that does not exist
    std::fs::write(&bin, &bytes).unwrap();
    let bad = load(&[bin], true, None, &|_| {}).unwrap().bad;
    let found: Vec<(usize, &str)> = bad.iter().map(|b| (b.line, b.reason.as_str())).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, 1);
    assert!(found[0].1.contains("piece code 15"), "{found:?}");
    assert_eq!(found[1].0, 5);
    assert!(found[1].1.contains("3 bytes at the end"), "{found:?}");
}

#[test]
fn only_the_named_groups_move() {
    let s = samples();
    let w = current_weights();
    let config = AdamConfig {
        epochs: 20,
        rate: 1.0,
        l2: 0.0,
        anchor: L2Anchor::Start,
    };
    let names = ["MOBILITY_KNIGHT".to_owned(), "TEMPO".to_owned()];
    let free = free_weights(&names)
        .expect("both groups exist")
        .expect("a mask");
    let fitted = adam(&s, &w, Some(&free), 167.0, config, &mut |_, _| {});
    let moved = |i: usize| fitted[i] != w[i];
    assert!((0..COUNT).filter(|&i| !free[i]).all(|i| !moved(i)));
    assert!(moved(layout::TEMPO), "the free weights are fitted");
    assert_eq!(
        free.iter().filter(|&&f| f).count(),
        1 + layout::MOBILITY_KNIGHT.indices().len()
    );
    assert!(free_weights(&[]).expect("no names").is_none());
    assert!(matches!(
        free_weights(&["NO_SUCH_GROUP".to_owned()]),
        Err(TuneError::UnknownGroup(n)) if n == "NO_SUCH_GROUP"
    ));
}
