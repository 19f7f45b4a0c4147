//! A checkpoint round-trips, a run resumed from one takes the same steps as
//! one straight through, and damaged checkpoints are refused with a reason.

use super::super::checkpoint::{Checkpoint, path_for};
use super::super::dataset::Split;
use super::super::trainer::Trainer;
use super::training::settings;
use super::{all, games, samples};

fn checkpoint_of(trainer: &Trainer) -> Checkpoint {
    Checkpoint {
        settings: trainer.settings,
        split: Split::EveryNthGame(20),
        epoch: trainer.epoch,
        train_positions: 123,
        validation_positions: 4,
        model: trainer.model.clone(),
        adam: trainer.adam.clone(),
    }
}

#[test]
fn resuming_from_a_checkpoint_continues_identically() {
    let data = samples(&games(6, 8));
    let train = all(data.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        let settings = settings(8, 2);
        let mut straight = Trainer::new(settings);
        straight.train_epoch(&data, &train, &mut |_| {});
        straight.train_epoch(&data, &train, &mut |_| {});

        let mut first = Trainer::new(settings);
        first.train_epoch(&data, &train, &mut |_| {});
        let dir = tempfile::tempdir().unwrap();
        let path = path_for(dir.path(), first.epoch);
        checkpoint_of(&first).save(&path).unwrap();
        drop(first);

        let ck = Checkpoint::load(&path).unwrap();
        assert_eq!(ck.epoch, 1);
        assert_eq!(ck.settings, settings);
        let mut resumed = Trainer::resume(ck.settings, ck.model, ck.adam, ck.epoch);
        resumed.train_epoch(&data, &train, &mut |_| {});
        assert_eq!(resumed.epoch, 2);
        assert_eq!(resumed.model, straight.model);
        assert_eq!(resumed.adam, straight.adam);
        // And the epochs did train: the weights moved from the start.
        assert_ne!(resumed.model, Trainer::new(settings).model);
    });
}

#[test]
fn a_checkpoint_round_trips_byte_for_byte() {
    let mut trainer = Trainer::new(settings(8, 3));
    let data = samples(&games(2, 9));
    trainer.train_epoch(&data, &all(data.len()), &mut |_| {});
    let mut ck = checkpoint_of(&trainer);
    ck.split = Split::LastPercent(7);
    let bytes = ck.to_bytes();
    let back = Checkpoint::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.split, Split::LastPercent(7));
    assert_eq!((back.train_positions, back.validation_positions), (123, 4));
}

#[test]
fn damaged_checkpoints_are_refused_with_a_reason() {
    let trainer = Trainer::new(settings(8, 3));
    let bytes = checkpoint_of(&trainer).to_bytes();
    let refused = |b: &[u8]| Checkpoint::from_bytes(b).unwrap_err();

    assert!(refused(b"").contains("not a shears train checkpoint"));
    assert!(refused(b"SHEARSNN and more").contains("not a shears train checkpoint"));
    assert!(refused(&bytes[..50]).contains("cut short"));
    assert!(refused(&bytes[..bytes.len() - 1]).contains("cut or damaged"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refused(&longer).contains("cut or damaged"));
    let mut flipped = bytes.clone();
    flipped[5000] ^= 0x10;
    assert!(refused(&flipped).contains("checksum"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(refused(&version).contains("version 9"));
    let mut hidden = bytes.clone();
    hidden[12..16].copy_from_slice(&16u32.to_le_bytes());
    assert!(refused(&hidden).contains("weights for a net of 16"));

    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.ckpt");
    let err = Checkpoint::load(&missing).unwrap_err().to_string();
    assert!(err.contains("none.ckpt"), "{err}");
}
