//! [`Checkpoint`]: a training run saved after an epoch, to resume from
//! (`--resume`) or to export again: the float weights, the optimiser's
//! moments and steps, the epochs done and the settings, in a small binary
//! file of our own.
//!
//! Little-endian, `n` the number of weights (`771·H + 1`), version 2 (a
//! version 1 checkpoint, of the first trainer, is read too: it has no
//! layout field, and its net is plain):
//!
//! ```text
//! 0    8   magic "SHEARSCK"
//! 8    4   format version, u32 = 2
//! 12   4   hidden neurons H, u32
//! 16   4   epochs done, u32
//! 20   8   AdamW steps, u64
//! 28   4   epochs of the run, u32
//! 32   8   batch size, u64
//! 40   4   learning rate, f32
//! 44   4   weight decay, f32
//! 48   4   K (centipawns), f32
//! 52   4   λ, f32
//! 56   1   schedule: 0 constant, 1 step, 2 cosine
//! 57   4   its epochs between drops (step), u32
//! 61   4   its factor (step: gamma; cosine: the final ratio), f32
//! 65   8   seed, u64
//! 73   1   validation rule: 0 every nth game, 1 last percent
//! 74   4   its n or percent, u32
//! 78   8   training positions, u64
//! 86   8   held-out positions, u64
//! 94   8   n, u64
//! 102  4   input layout, u32 (0 plain, 1 king-mirrored, as in the net file)
//! 106  4n  the weights, f32 (model.rs's layout)
//! …    4n  AdamW's first moments, f32
//! …    4n  AdamW's second moments, f32
//! …    4   CRC-32 of everything before, u32
//! ```

use std::fs;
use std::path::{Path, PathBuf};

use super::adamw::AdamW;
use super::dataset::Split;
use super::error::TrainError;
use super::loss::Target;
use super::model::{Model, param_count};
use super::schedule::Schedule;
use super::trainer::Settings;
use shears::eval::nnue::arch::Layout;
use shears::eval::nnue::crc32;

/// The first bytes of a checkpoint.
pub const MAGIC: [u8; 8] = *b"SHEARSCK";
/// The format version this trainer writes (it reads 1 and 2).
pub const VERSION: u32 = 2;
/// The first version, without the layout field.
const VERSION_1: u32 = 1;
/// Bytes before the weights (version 2; version 1 has 4 fewer).
const HEADER_LEN: usize = 106;
/// Bytes before the weights of a checkpoint of `version`.
fn header_len(version: u32) -> usize {
    if version == VERSION_1 {
        HEADER_LEN - 4
    } else {
        HEADER_LEN
    }
}
/// The largest hidden size a checkpoint may claim (a guard against a
/// damaged header asking for gigabytes).
const MAX_HIDDEN: usize = 1 << 16;

/// A run saved after an epoch.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The run's settings.
    pub settings: Settings,
    /// Its validation rule.
    pub split: Split,
    /// Epochs done.
    pub epoch: u32,
    /// Training positions of its data.
    pub train_positions: u64,
    /// Held-out positions of its data.
    pub validation_positions: u64,
    /// The net.
    pub model: Model,
    /// The optimiser.
    pub adam: AdamW,
}

/// The file name of the checkpoint after epoch `epoch` in `dir`.
pub fn path_for(dir: &Path, epoch: u32) -> PathBuf {
    dir.join(format!("epoch-{epoch:04}.ckpt"))
}

fn put_floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.settings;
        let n = self.model.params.len();
        let mut out = Vec::with_capacity(HEADER_LEN + 12 * n + 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(s.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.adam.steps.to_le_bytes());
        out.extend_from_slice(&s.epochs.to_le_bytes());
        out.extend_from_slice(&(s.batch_size as u64).to_le_bytes());
        for v in [s.lr, s.wd, s.target.scale, s.target.lambda] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let (kind, every, factor) = match s.schedule {
            Schedule::Constant => (0u8, 0u32, 0f32),
            Schedule::Step { every, gamma } => (1, every, gamma),
            Schedule::Cosine { final_ratio } => (2, 0, final_ratio),
        };
        out.push(kind);
        out.extend_from_slice(&every.to_le_bytes());
        out.extend_from_slice(&factor.to_le_bytes());
        out.extend_from_slice(&s.seed.to_le_bytes());
        let (kind, value) = match self.split {
            Split::EveryNthGame(n) => (0u8, n),
            Split::LastPercent(p) => (1, p),
        };
        out.push(kind);
        out.extend_from_slice(&value.to_le_bytes());
        out.extend_from_slice(&self.train_positions.to_le_bytes());
        out.extend_from_slice(&self.validation_positions.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        out.extend_from_slice(&s.layout.code().to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        put_floats(&mut out, &self.model.params);
        put_floats(&mut out, &self.adam.m);
        put_floats(&mut out, &self.adam.v);
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the checkpoint to `path` (through a temporary file beside it,
    /// renamed when complete, so that a run stopped while saving never
    /// leaves half a checkpoint).
    ///
    /// # Errors
    ///
    /// When the folder cannot be made or the file written.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        fs::write(&tmp, self.to_bytes()).map_err(|e| TrainError::io(&tmp, e))?;
        fs::rename(&tmp, path).map_err(|e| TrainError::io(path, e))
    }

    /// Reads the checkpoint at `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be read, or is not a checkpoint of this
    /// version, or is cut or damaged.
    pub fn load(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = fs::read(path).map_err(|e| TrainError::io(path, e))?;
        Checkpoint::from_bytes(&bytes).map_err(|reason| TrainError::Checkpoint {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Reads a checkpoint from its bytes.
    ///
    /// # Errors
    ///
    /// A message saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if !bytes.starts_with(&MAGIC[..bytes.len().min(MAGIC.len())]) || bytes.is_empty() {
            return Err("not a shears train checkpoint (it does not start with SHEARSCK)".into());
        }
        if bytes.len() < header_len(VERSION_1) {
            return Err(format!("cut short: {} bytes", bytes.len()));
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32();
        if version != VERSION && version != VERSION_1 {
            return Err(format!(
                "format version {version}; this trainer reads versions 1 and {VERSION}"
            ));
        }
        if bytes.len() < header_len(version) {
            return Err(format!("cut short: {} bytes", bytes.len()));
        }
        let hidden = r.u32() as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!("hidden size {hidden} (the file is damaged)"));
        }
        let epoch = r.u32();
        let steps = r.u64();
        let epochs = r.u32();
        let batch_size = r.u64() as usize;
        let (lr, wd, scale, lambda) = (r.f32(), r.f32(), r.f32(), r.f32());
        let (kind, every, factor) = (r.u8(), r.u32(), r.f32());
        let schedule = match kind {
            0 => Schedule::Constant,
            1 => Schedule::Step {
                every,
                gamma: factor,
            },
            2 => Schedule::Cosine {
                final_ratio: factor,
            },
            k => return Err(format!("schedule kind {k} (the file is damaged)")),
        };
        let seed = r.u64();
        let split = match (r.u8(), r.u32()) {
            (0, n) => Split::EveryNthGame(n),
            (1, p) => Split::LastPercent(p),
            (k, _) => return Err(format!("validation rule {k} (the file is damaged)")),
        };
        let train_positions = r.u64();
        let validation_positions = r.u64();
        let n = r.u64();
        let layout = if version == VERSION_1 {
            Layout::Plain
        } else {
            let code = r.u32();
            Layout::from_code(code)
                .ok_or_else(|| format!("input layout {code} (the file is damaged)"))?
        };
        if n != param_count(hidden) as u64 {
            return Err(format!(
                "{n} weights for a net of {hidden} hidden neurons, which has {}",
                param_count(hidden)
            ));
        }
        let n = n as usize;
        let expected = header_len(version) + 12 * n + 4;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, a checkpoint of this net has {expected} (cut or damaged)",
                bytes.len()
            ));
        }
        let (body, crc) = bytes.split_at(expected - 4);
        let stored = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        let computed = crc32(body);
        if stored != computed {
            return Err(format!(
                "checksum {stored:08x} in the file, {computed:08x} computed (damaged)"
            ));
        }
        let params = r.floats(n);
        let m = r.floats(n);
        let v = r.floats(n);
        Ok(Checkpoint {
            settings: Settings {
                hidden,
                layout,
                epochs,
                batch_size,
                lr,
                wd,
                target: Target { scale, lambda },
                schedule,
                seed,
            },
            split,
            epoch,
            train_positions,
            validation_positions,
            model: Model::from_params(hidden, params).with_layout(layout),
            adam: AdamW { m, v, steps },
        })
    }
}

/// Reads little-endian values in order; the caller has checked the length.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("the length was checked");
        self.at += N;
        out
    }

    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }

    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }

    fn floats(&mut self, n: usize) -> Vec<f32> {
        let out = self.bytes[self.at..self.at + 4 * n]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        self.at += 4 * n;
        out
    }
}
