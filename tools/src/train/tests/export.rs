//! Export → load: the engine reads the net, and its integer evaluation
//! agrees with the float net within docs/nnue.md's bound on every position.

use shears::eval::nnue::arch::{DEFAULT_HIDDEN, Layout, QA, QB, SCALE};
use shears::eval::nnue::{Accumulator, AnyNet, Net, NetError, NetFile, screlu};

use super::super::error::TrainError;
use super::super::export::{agreement, export};
use super::super::model::{Model, Scratch};
use super::super::sample::Sample;
use super::super::trainer::Trainer;
use super::training::settings;
use super::{all, games, samples};

/// docs/nnue.md's bound on |quantised − float| for `sample`, plus 0.5 cp
/// for the float pass's own rounding.
fn bound<const H: usize>(model: &Model, net: &Net<H>, sample: &Sample) -> f64 {
    let mut scratch = Scratch::new(H);
    model.evaluate(sample, &mut scratch);
    let pieces = sample.features(model.layout()).len as f64;
    let eps = (pieces + 1.0) / (2.0 * f64::from(QA));
    let mut sum = 1.5 / f64::from(QA * QB);
    for (half, acc) in [&scratch.us, &scratch.them].into_iter().enumerate() {
        for (i, &a) in acc.iter().enumerate() {
            let a = f64::from(a);
            let s = |x: f64| f64::from(screlu(x as f32));
            let delta = (s(a + eps) - s(a)).max(s(a) - s(a - eps));
            let w = f64::from(net.output_weights()[half].0[i]) / f64::from(QB);
            sum += w.abs() * delta + s(a) / (2.0 * f64::from(QB));
        }
    }
    f64::from(SCALE) * sum + 1.0 + 0.5
}

#[test]
fn an_exported_net_loads_and_agrees_with_the_float_net_within_the_bound() {
    for layout in Layout::ALL {
        check_export::<256>(layout);
    }
}

#[test]
fn every_width_and_layout_exports_and_agrees_with_its_float_net() {
    check_export::<32>(Layout::KingMirrored);
    check_export::<64>(Layout::Plain);
    check_export::<128>(Layout::KingMirrored);
    check_export::<128>(Layout::Plain);
    check_export::<512>(Layout::KingMirrored);
}

/// A net `H` wide trained 2 epochs with `layout`, exported, read back and
/// compared with the float net on every position.
fn check_export<const H: usize>(layout: Layout)
where
    Net<H>: TryFrom<AnyNet, Error = NetError>,
{
    let data = samples(&games(12, 6));
    let indices = all(data.len());
    let mut trainer = Trainer::new(super::super::trainer::Settings {
        layout,
        ..settings(H, 2)
    });
    trainer.train_epoch(&data, &indices, &mut |_| {});
    trainer.train_epoch(&data, &indices, &mut |_| {});

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nets").join("trained.nnue");
    let exported = export(&trainer.model, &path, false, &[]).unwrap();
    assert!(exported.fit.is_err(), "no positions, no score model");
    let any = exported.net;
    // Written whole and renamed: no temporary file is left beside it.
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
    assert_eq!((any.hidden(), any.layout()), (H, layout));
    assert_eq!(NetFile::load(&path).unwrap().net, any);
    assert_eq!(
        any,
        trainer.model.to_float_net().unwrap().quantise().unwrap()
    );
    let net = Net::<H>::try_from(any.clone()).unwrap();

    let mut scratch = Scratch::new(H);
    let mut largest: f64 = 0.0;
    let mut differs = 0;
    for sample in &data {
        let float = f64::from(trainer.model.evaluate(sample, &mut scratch));
        let acc = Accumulator::refresh(&net, &sample.board());
        let quantised = f64::from(net.evaluate(&acc, sample.side_to_move()));
        let diff = (quantised - float).abs();
        assert!(
            diff <= bound(&trainer.model, &net, sample),
            "{} cp apart: quantised {quantised}, float {float}",
            diff
        );
        // The trainer's float pass is the engine's FloatNet's.
        let engine_float = trainer
            .model
            .to_float_net()
            .unwrap()
            .evaluate(&sample.board(), sample.side_to_move());
        assert!((f64::from(engine_float) - float).abs() < 0.01);
        largest = largest.max(diff);
        differs += usize::from(float.abs() > 1.0);
    }
    assert!(differs > data.len() / 2, "the net is not trivial");

    let target = trainer.settings.target;
    let report = agreement(&trainer.model, &any, &data, &indices, &target);
    assert_eq!(report.positions, data.len());
    assert!((report.max_cp - largest).abs() < 1e-9);
    assert!(report.mean_cp <= report.max_cp && report.mean_cp > 0.0);
    for k in 0..2 {
        assert!((report.float_loss[k] - report.quantised_loss[k]).abs() < 0.01);
    }
}

#[test]
fn a_net_of_another_hidden_size_is_not_exported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.nnue");
    let err = export(&Model::zeroed(8), &path, false, &[]).unwrap_err();
    assert!(err.to_string().contains("--hidden 8"), "{err}");
    assert!(!path.exists());
}

#[test]
fn a_net_the_file_cannot_hold_or_an_existing_file_without_replace_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.nnue");
    let old = b"the previous net".to_vec();
    std::fs::write(&path, &old).unwrap();
    let fresh = Trainer::new(settings(DEFAULT_HIDDEN, 2)).model;
    let err = export(&fresh, &path, false, &[]).unwrap_err();
    assert!(matches!(err, TrainError::OutExists { .. }), "{err}");
    let mut exploded = fresh.clone();
    let b2 = exploded.b2_index();
    exploded.params[b2] = 1e9;
    let err = export(&exploded, &path, true, &[]).unwrap_err();
    assert!(err.to_string().contains("the output bias is"), "{err}");
    let mut not_a_number = fresh.clone();
    not_a_number.params[3] = f32::NAN;
    let err = export(&not_a_number, &path, true, &[]).unwrap_err();
    assert!(err.to_string().contains("weight 3 is NaN"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), old);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // Asked to replace it, a sound net does.
    let net = export(&fresh, &path, true, &[]).unwrap().net;
    assert_eq!(NetFile::load(&path).unwrap().net, net);
}

#[test]
fn a_trained_net_is_written_with_the_score_model_fitted_to_its_data() {
    // Positions labelled by their material, results by the game's end: a
    // net that learns the material has scores the results follow.
    let data = samples(&games(40, 9));
    assert!(data.len() > 2_000, "{}", data.len());
    let indices = all(data.len());
    let mut trainer = Trainer::new(settings(32, 2));
    for _ in 0..4 {
        trainer.train_epoch(&data, &indices, &mut |_| {});
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fitted.nnue");
    let exported = export(&trainer.model, &path, false, &data).unwrap();
    let fit = exported.fit.expect("a score model is fitted");
    // Random games seldom reach the endgame: the cubic bends below zero
    // where there is no data, and a lower degree is the model.
    assert_eq!(fit.refused.len(), 3 - fit.degree, "{fit:?}");
    assert_eq!(fit.positions, data.len());
    assert!(fit.log_loss < fit.baseline, "{fit:?}");
    assert!(fit.model.normalised && fit.model.pawn() > 1.0, "{fit:?}");
    // The file holds it, with the net.
    let file = NetFile::load(&path).unwrap();
    assert_eq!(file.model, Some(fit.model));
    assert_eq!(file.net, exported.net);
    // The same data and net, the same model (any thread count: fixed
    // chunks).
    let again = super::super::fit_score_model(&exported.net, &data).unwrap();
    assert_eq!(again, fit);
    // Too few positions: a net without a model.
    let few = super::super::fit_score_model(&exported.net, &data[..500]).unwrap_err();
    assert!(few.contains("fewer than the 1000"), "{few}");
}
