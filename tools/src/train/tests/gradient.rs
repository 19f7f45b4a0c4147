//! The analytic gradient against finite differences, its sparsity, and its
//! independence from how the batch is split over the workers.

use super::super::gradient::{Worker, batch_gradient, mean_losses};
use super::super::loss::Target;
use super::super::model::Model;
use super::{all, games, samples};
use shears::eval::nnue::arch::{INPUTS, Layout};

const HIDDEN: usize = 8;
const TARGET: Target = Target {
    scale: 150.0,
    lambda: 0.5,
};

/// A small net whose hidden layers sit inside SCReLU's slope for most
/// positions (biases of 0.4), so that every kind of weight has a gradient.
fn model() -> Model {
    let mut model = Model::random(HIDDEN, 11);
    let b1 = model.b1_start();
    for b in &mut model.params[b1..b1 + HIDDEN] {
        *b = 0.4;
    }
    model
}

#[test]
fn the_gradient_equals_finite_differences() {
    for layout in Layout::ALL {
        gradient_equals_finite_differences(layout);
    }
}

fn gradient_equals_finite_differences(layout: Layout) {
    let data = samples(&games(2, 3));
    let batch: Vec<u32> = all(data.len()).into_iter().take(24).collect();
    let model = model().with_layout(layout);
    let mut workers = vec![Worker::new(HIDDEN)];
    batch_gradient(&model, &data, &batch, &TARGET, &mut workers);
    let grad = workers[0].grad.clone();

    // Weights of each kind: rows of the first sample's inputs (both
    // perspectives), the biases, both halves of W2, b2.
    let features = data[batch[0] as usize].features(model.layout());
    let mut checked = Vec::new();
    for (k, &f) in features
        .us()
        .iter()
        .chain(features.them())
        .enumerate()
        .step_by(5)
    {
        checked.push(usize::from(f) * HIDDEN + k % HIDDEN);
    }
    let b1 = model.b1_start();
    let w2 = model.w2_start();
    checked.extend([
        b1,
        b1 + 3,
        b1 + 7,
        w2,
        w2 + 5,
        w2 + HIDDEN + 2,
        w2 + 2 * HIDDEN - 1,
    ]);
    checked.push(model.b2_index());

    let loss = |m: &Model| mean_losses(m, &data, &batch, [TARGET])[0];
    let h = 1e-3;
    let mut nonzero = 0;
    for &i in &checked {
        let mut plus = model.clone();
        plus.params[i] += h;
        let mut minus = model.clone();
        minus.params[i] -= h;
        let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
        let analytic = f64::from(grad[i]);
        let tolerance = 0.02 * analytic.abs().max(numeric.abs()) + 2e-6;
        assert!(
            (analytic - numeric).abs() <= tolerance,
            "weight {i}: analytic {analytic:e}, finite differences {numeric:e}"
        );
        if analytic.abs() > 1e-5 {
            nonzero += 1;
        }
    }
    // The check is not vacuous: most of these weights do move the loss.
    assert!(
        nonzero * 4 >= checked.len() * 3,
        "{nonzero} of {}",
        checked.len()
    );
}

#[test]
fn only_the_rows_of_active_inputs_get_a_gradient() {
    let data = samples(&games(1, 5));
    let batch = vec![0u32, 1, 2];
    let model = model();
    let mut workers = vec![Worker::new(HIDDEN)];
    batch_gradient(&model, &data, &batch, &TARGET, &mut workers);
    let mut active = vec![false; INPUTS];
    for &i in &batch {
        let features = data[i as usize].features(model.layout());
        for &f in features.us().iter().chain(features.them()) {
            active[usize::from(f)] = true;
        }
    }
    for (f, &on) in active.iter().enumerate() {
        let row = &workers[0].grad[f * HIDDEN..(f + 1) * HIDDEN];
        if on {
            assert!(row.iter().any(|&g| g != 0.0), "input {f} is active");
        } else {
            assert!(row.iter().all(|&g| g == 0.0), "input {f} is not active");
        }
    }
}

#[test]
fn the_gradient_does_not_depend_on_the_number_of_workers() {
    let data = samples(&games(3, 7));
    let batch = all(data.len());
    let model = model();
    let mut one = vec![Worker::new(HIDDEN)];
    let loss_one = batch_gradient(&model, &data, &batch, &TARGET, &mut one);
    let mut three = vec![Worker::new(HIDDEN); 3];
    let loss_three = batch_gradient(&model, &data, &batch, &TARGET, &mut three);
    assert!((loss_one - loss_three).abs() <= 1e-9 * loss_one.abs());
    for (a, b) in one[0].grad.iter().zip(&three[0].grad) {
        assert!((a - b).abs() <= 1e-5 * a.abs().max(1e-3), "{a} {b}");
    }
    // The summed loss is the mean loss times the positions.
    let mean = mean_losses(&model, &data, &batch, [TARGET])[0];
    assert!((loss_one / batch.len() as f64 - mean).abs() < 1e-9);
}
