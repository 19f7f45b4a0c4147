//! `shears net verify`: a net of the manifest made again from its entry
//! (its `shears train` command on its data, then the score model its
//! entry sets) into a folder of its own, and compared with the entry and
//! the kept file.
//!
//! **Nothing it did not make is overwritten.** The net and its checkpoints
//! go into a new folder (one that exists is refused); the command's
//! `--out` and `--checkpoint-dir` are replaced by paths in it, and its
//! checkpoints are removed once the net is made. The data files are the
//! command's, from the repository's root (or found by name in another
//! folder); they are only read.
//!
//! **The verdict.** The file made is the entry's when its size and sha256
//! are. Otherwise the weights are compared with the kept file's: a net
//! trained before the file's version 3 holds the same weights in another
//! file (another version, another score model), which the verdict says;
//! other weights are another net (the build matters: a trainer that
//! changed since the entry's commit makes another).

use std::fs;
use std::path::{Path, PathBuf};

use super::error::NetToolError;
use super::manifest::{NETS_DIR, NetEntry};
use super::{Facts, set_model};
use crate::train::{self, RunConfig, Summary};
use shears::eval::nnue::{NetFile, header_len, read_file};

/// Where a net is made again.
#[derive(Debug, Clone, Copy)]
pub struct RemakePaths<'a> {
    /// The repository's root: the command's relative paths start here,
    /// and the kept file is in its `nets/`.
    pub root: &'a Path,
    /// Look for the data files here, by name, instead.
    pub data_dir: Option<&'a Path>,
    /// The new folder the net is made in (it must not exist).
    pub work_dir: &'a Path,
}

/// What a net made again is.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The entry's file, byte for byte (its size and sha256).
    Same,
    /// The kept file's net, every weight and the layout, in another file:
    /// what differs (the version, the score model).
    SameNet(Vec<String>),
    /// Another net: the 16-bit words of the weights that differ from the
    /// kept file's, of how many.
    Differs {
        /// Words that differ.
        differing: usize,
        /// Words compared.
        of: usize,
    },
}

/// A net made again: where, what it is, how its training ended and the
/// verdict.
#[derive(Debug, Clone)]
pub struct Remake {
    /// The net file made.
    pub made: PathBuf,
    /// Its facts.
    pub facts: Facts,
    /// Its training's end.
    pub summary: Summary,
    /// The verdict.
    pub verdict: Verdict,
}

/// Makes `entry`'s net again with `config` (its command, parsed) into
/// `paths.work_dir`, sets the score model its entry sets, and compares
/// the file with the entry and with the kept file.
///
/// # Errors
///
/// A command that resumes a checkpoint; a data file that is not there; a
/// work folder that exists or cannot be made; the training's error; a
/// kept file that cannot be read.
pub fn remake(
    entry: &NetEntry,
    mut config: RunConfig,
    paths: RemakePaths<'_>,
) -> Result<Remake, NetToolError> {
    if config.resume.is_some() {
        return Err(NetToolError::BadCommand {
            name: entry.name.clone(),
            problem: "resumes a checkpoint (--resume): a net made again starts from its data"
                .to_owned(),
        });
    }
    for (i, file) in config.files.iter_mut().enumerate() {
        let path = match (paths.data_dir, file.file_name()) {
            (Some(dir), Some(name)) => dir.join(name),
            _ if file.is_relative() => paths.root.join(&*file),
            _ => file.clone(),
        };
        if !path.is_file() {
            let set = entry.data.get(i).map_or("?", |d| d.set.as_str());
            return Err(NetToolError::NoData {
                path,
                set: set.to_owned(),
            });
        }
        *file = path;
    }
    let model = entry.model().map_err(|reason| NetToolError::BadModel {
        what: format!("net {}: its model", entry.name),
        reason,
    })?;
    let kept = paths.root.join(NETS_DIR).join(&entry.file);
    if paths.work_dir.exists() {
        return Err(NetToolError::Exists(paths.work_dir.to_path_buf()));
    }
    fs::create_dir_all(paths.work_dir).map_err(|e| NetToolError::io(paths.work_dir, &e))?;
    config.out = paths.work_dir.join(format!("{}.nnue", entry.name));
    config.checkpoint_dir = paths.work_dir.join("checkpoints");
    config.replace = false;

    let summary = train::run(&config)?;
    if model.is_some() {
        set_model(&config.out, &config.out, model, false)?;
    }
    fs::remove_dir_all(&config.checkpoint_dir)
        .map_err(|e| NetToolError::io(&config.checkpoint_dir, &e))?;
    let facts = Facts::of(&config.out)?;
    let verdict = if facts.sha256 == entry.sha256 && facts.bytes == entry.bytes {
        Verdict::Same
    } else {
        compare(&config.out, &facts, &kept)?
    };
    Ok(Remake {
        made: config.out,
        facts,
        summary,
        verdict,
    })
}

/// The verdict on `made` (whose facts are `facts`) against the kept file
/// `kept`, when it is not the entry's file.
fn compare(made: &Path, facts: &Facts, kept: &Path) -> Result<Verdict, NetToolError> {
    let net_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| NetToolError::Net { path, source }
    };
    let theirs = NetFile::load(kept).map_err(net_error(kept))?;
    let weights = |path: &Path, file: &NetFile| -> Result<Vec<u8>, NetToolError> {
        let bytes = read_file(path).map_err(net_error(path))?;
        Ok(bytes[header_len(file.version)..bytes.len() - 4].to_vec())
    };
    let (ours, kept_weights) = (weights(made, &facts.file)?, weights(kept, &theirs)?);
    if facts.file.net != theirs.net {
        let differing = ours
            .chunks(2)
            .zip(kept_weights.chunks(2))
            .filter(|(a, b)| a != b)
            .count()
            + ours.len().abs_diff(kept_weights.len()) / 2;
        return Ok(Verdict::Differs {
            differing,
            of: ours.len().max(kept_weights.len()) / 2,
        });
    }
    let mut differences = Vec::new();
    if facts.file.version != theirs.version {
        differences.push(format!(
            "the kept file is version {}, the net made version {}",
            theirs.version, facts.file.version
        ));
    }
    let model = |m: Option<&shears::eval::ScoreModel>| {
        m.map_or("none".to_owned(), |m| {
            format!("a pawn is {:.1} of its centipawns", m.pawn())
        })
    };
    if facts.file.model != theirs.model {
        differences.push(format!(
            "the kept file's score model: {}; the net made: {}",
            model(theirs.model.as_ref()),
            model(facts.file.model.as_ref())
        ));
    }
    if differences.is_empty() {
        differences.push(format!(
            "the kept file {} is not its entry's (its size or sha256)",
            kept.display()
        ));
    }
    Ok(Verdict::SameNet(differences))
}
