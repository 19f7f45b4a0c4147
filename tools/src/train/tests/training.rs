//! A tiny net trained here lowers its loss on its own data; the clip holds.

use super::super::gradient::mean_losses;
use super::super::loss::{Target, fit_scale};
use super::super::schedule::Schedule;
use super::super::trainer::{Settings, Trainer};
use super::{all, games, samples};
use shears::eval::nnue::arch::{Layout, WEIGHT_CLIP};

pub(super) fn settings(hidden: usize, epochs: u32) -> Settings {
    Settings {
        hidden,
        layout: Layout::Plain,
        epochs,
        batch_size: 64,
        lr: 0.01,
        wd: 0.01,
        target: Target {
            scale: 200.0,
            lambda: 0.5,
        },
        schedule: Schedule::Cosine { final_ratio: 0.1 },
        seed: 9,
    }
}

#[test]
fn a_tiny_net_lowers_its_loss_on_its_own_data() {
    let data = samples(&games(30, 1));
    let train = all(data.len());
    let settings = settings(16, 12);
    let targets = [settings.target, settings.target.results_only()];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        let mut trainer = Trainer::new(settings);
        let before = mean_losses(&trainer.model, &data, &train, targets);
        let mut train_losses = Vec::new();
        while trainer.epoch < settings.epochs {
            let mut steps = 0;
            let report = trainer.train_epoch(&data, &train, &mut |_| steps += 1);
            assert_eq!(steps, train.len().div_ceil(settings.batch_size));
            train_losses.push(report.train_loss);
        }
        let after = mean_losses(&trainer.model, &data, &train, targets);
        assert!(
            after[0] < 0.5 * before[0],
            "loss {:.5} → {:.5} ({train_losses:?})",
            before[0],
            after[0]
        );
        assert!(
            after[1] < before[1],
            "against the results: {before:?} → {after:?}"
        );
        assert!(
            train_losses.last().unwrap() < train_losses.first().unwrap(),
            "{train_losses:?}"
        );
        let end = trainer.model.b2_index();
        assert!(
            trainer.model.params[..end]
                .iter()
                .all(|w| w.abs() <= WEIGHT_CLIP)
        );
    });
}

#[test]
fn a_large_learning_rate_is_held_to_the_clip() {
    let data = samples(&games(4, 2));
    let train = all(data.len());
    let mut settings = settings(8, 3);
    settings.lr = 5.0;
    settings.wd = 0.0;
    let mut trainer = Trainer::new(settings);
    trainer.train_epoch(&data, &train, &mut |_| {});
    let end = trainer.model.b2_index();
    let weights = &trainer.model.params[..end];
    assert!(weights.iter().all(|w| w.abs() <= WEIGHT_CLIP));
    // Such steps do reach the clip: it is what holds them.
    assert!(weights.iter().any(|w| w.abs() == WEIGHT_CLIP));
}

#[test]
fn the_scale_fitted_to_the_labels_is_the_one_they_were_made_with() {
    // Results drawn as sigmoid(score / 150) says: the fit finds 150 again.
    let data = samples(&games(40, 4));
    let mut rng = shears::chess::random::Rng::new(3);
    let relabelled: Vec<_> = data
        .iter()
        .map(|s| {
            let score = s.score().unwrap();
            let p = super::super::loss::sigmoid(score as f32 / 150.0);
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            let white = s.side_to_move() == shakmaty::Color::White;
            let stm_result = if u < p { 1.0 } else { 0.0 };
            let white_result = if white { stm_result } else { 1.0 - stm_result };
            let white_score = if white { score } else { -score };
            super::super::sample::Sample::new(
                &s.board(),
                s.side_to_move(),
                Some(white_score),
                white_result,
            )
            .unwrap()
        })
        .collect();
    let k = fit_scale(&relabelled, &all(relabelled.len())).unwrap();
    assert!((100.0..220.0).contains(&k), "K = {k}");
    let none: Vec<u32> = Vec::new();
    assert_eq!(fit_scale(&relabelled, &none), None);
}
