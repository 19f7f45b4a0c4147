//! `shears net`: the nets kept in `nets/` and their manifest
//! (`docs/nets/manifest.toml`, `crate::net`): list them, show a net, make
//! a net again from its entry and compare it (verify), and write a score
//! model into a net file. A manifest net's command is parsed here, by the
//! real parser of `shears train`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use super::{Cli, CliCommand, TrainArgs};
use crate::data::format::header::BUILD;
use crate::net::verify::RemakePaths;
use crate::net::{
    Facts, NETS_DIR, NETS_MANIFEST_PATH, NetEntry, NetToolError, NetsManifest, Verdict,
    coefficients, remake, set_model,
};
use crate::util::repo::{find_repository_file, root_of};
use shears::eval::ScoreModel;

/// `shears net`.
#[derive(Debug, clap::Args)]
pub struct NetArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: NetCommand,
}

/// The `net` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum NetCommand {
    /// List the nets of the manifest, one line each: name, file, width,
    /// layout, file version, sha256 (its first 12 digits), held-out loss
    /// and the data sets it learned from.
    List {
        /// The manifest [default: docs/nets/manifest.toml in the working
        /// directory or a parent of it, else beside the binary's sources].
        #[arg(long, value_name = "PATH")]
        manifest: Option<PathBuf>,
    },
    /// Show a net: a net file's size, sha256, version, width, layout and
    /// score model, and its entry when the manifest has one (a file of
    /// the same sha256, or the net NET names). NET is a net file, or a
    /// name or file name of the manifest (`s6-g2`, `default.nnue`).
    Show {
        /// A net file, or a net of the manifest.
        net: String,
        /// The manifest [default: as for list].
        #[arg(long, value_name = "PATH")]
        manifest: Option<PathBuf>,
    },
    /// Make a net of the manifest again: its `shears train` command on its
    /// data (from the repository's root), in a new folder, then the score
    /// model its entry sets, and compare the file with the entry (size and
    /// sha256) and the kept file (the weights). It trains the whole net:
    /// minutes to hours. Exit 0 when it is the entry's file, or the kept
    /// file's net in another file (another version or score model), 1 when
    /// it is another net, 2 on bad input.
    Verify {
        /// The net's name (or file name) in the manifest.
        name: String,
        /// The manifest [default: as for list]; the repository's root is
        /// two folders up from it.
        #[arg(long, value_name = "PATH")]
        manifest: Option<PathBuf>,
        /// Look for the data files here, by name, instead of at the
        /// command's paths.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
        /// The new folder the net is made in (it must not exist)
        /// [default: a new folder in the system's temporary folder].
        #[arg(long, value_name = "DIR")]
        work_dir: Option<PathBuf>,
    },
    /// Write a score model into a net file (as version 3): the
    /// coefficients of a(t) and b(t) that `scripts/wdl_fit.py` prints, in
    /// the net's own centipawns, or --none to take the model out. The net
    /// then shows `score cp` and `wdl` by its own model wherever it is
    /// loaded.
    SetModel(SetModelArgs),
}

/// `shears net set-model`.
#[derive(Debug, clap::Args)]
pub struct SetModelArgs {
    /// The net file.
    pub file: PathBuf,
    /// a(t)'s four coefficients, centipawns, highest power first
    /// (`-946.076,2407.064,-1936.437,589.7`).
    #[arg(long, value_name = "A3,A2,A1,A0", value_parser = four_coefficients,
          allow_hyphen_values = true, required_unless_present = "none", requires = "b")]
    pub a: Option<[f64; 4]>,
    /// b(t)'s four coefficients, likewise.
    #[arg(long, value_name = "B3,B2,B1,B0", value_parser = four_coefficients,
          allow_hyphen_values = true, requires = "a")]
    pub b: Option<[f64; 4]>,
    /// Take the score model out instead.
    #[arg(long, conflicts_with_all = ["a", "b"])]
    pub none: bool,
    /// Write the net here instead of rewriting FILE in place.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace an existing --out.
    #[arg(long)]
    pub force: bool,
}

/// Four comma-separated numbers.
fn four_coefficients(text: &str) -> Result<[f64; 4], String> {
    let numbers: Vec<f64> = text
        .split(',')
        .map(|c| c.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{text}` is not four numbers separated by commas"))?;
    numbers
        .try_into()
        .map_err(|n: Vec<f64>| format!("`{text}` has {} numbers, not four", n.len()))
}

/// The `shears train` arguments of a manifest net's command, parsed by the
/// command line's own parser.
///
/// # Errors
///
/// What is wrong with the command: quotes or escapes (the manifest's
/// commands need none), another command than `shears train`, or what the
/// parser refuses.
pub fn train_args(command: &str) -> Result<TrainArgs, String> {
    if let Some(c) = command
        .chars()
        .find(|c| matches!(c, '"' | '\'' | '\\' | '$' | '`'))
    {
        return Err(format!(
            "has `{c}`: the manifest's commands are plain words"
        ));
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.first() != Some(&"shears") {
        return Err("does not start with `shears`".to_owned());
    }
    match Cli::try_parse_from(&words) {
        Ok(Cli {
            command: Some(CliCommand::Train(args)),
            ..
        }) => Ok(args),
        Ok(_) => Err("is not a `shears train` command".to_owned()),
        Err(e) => Err(format!("is refused: {}", e.to_string().trim())),
    }
}

pub(super) fn run(args: &NetArgs) -> ExitCode {
    let done = match &args.command {
        NetCommand::List { manifest } => list(manifest.as_deref()),
        NetCommand::Show { net, manifest } => show(net, manifest.as_deref()),
        NetCommand::Verify {
            name,
            manifest,
            data_dir,
            work_dir,
        } => verify(
            name,
            manifest.as_deref(),
            data_dir.as_deref(),
            work_dir.as_deref(),
        ),
        NetCommand::SetModel(args) => run_set_model(args),
    };
    done.unwrap_or_else(|e| {
        eprintln!("shears net: {e}");
        ExitCode::from(2)
    })
}

/// The manifest to use (`given`, else found) and the repository's root.
fn manifest_and_root(
    given: Option<&Path>,
) -> Result<(PathBuf, NetsManifest, PathBuf), NetToolError> {
    let path = match given {
        Some(path) => path.to_path_buf(),
        None => find_repository_file(NETS_MANIFEST_PATH)
            .map_err(|looked| NetToolError::NoManifest { looked })?,
    };
    let manifest = NetsManifest::load(&path)?;
    let root = root_of(&path, NETS_MANIFEST_PATH).unwrap_or_else(|| PathBuf::from("."));
    Ok((path, manifest, root))
}

fn list(manifest: Option<&Path>) -> Result<ExitCode, NetToolError> {
    let (_, manifest, _) = manifest_and_root(manifest)?;
    for net in &manifest.nets {
        let data: Vec<&str> = net.data.iter().map(|d| d.set.as_str()).collect();
        let positions: u64 = net.data.iter().map(|d| d.positions).sum();
        println!(
            "{:<12} {NETS_DIR}/{:<18} {:>3} {:<13} v{}  {}  held-out {:.6}  {} ({positions} positions)",
            net.name,
            net.file,
            net.width,
            net.layout,
            net.version,
            &net.sha256[..12],
            net.held_out_loss,
            data.join(" + ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn show(name: &str, manifest: Option<&Path>) -> Result<ExitCode, NetToolError> {
    let found = manifest_and_root(manifest);
    let given = Path::new(name);
    let (path, entry) = if given.is_file() {
        let facts = Facts::of(given)?;
        let entry = found
            .ok()
            .and_then(|(_, m, _)| m.nets.into_iter().find(|n| n.sha256 == facts.sha256));
        (given.to_path_buf(), entry)
    } else {
        let (path, manifest, root) = found?;
        let entry = manifest
            .find(name)
            .cloned()
            .ok_or_else(|| NetToolError::NoNet {
                name: name.to_owned(),
                manifest: path.display().to_string(),
            })?;
        (root.join(NETS_DIR).join(&entry.file), Some(entry))
    };
    let facts = Facts::of(&path)?;
    println!("file: {}", path.display());
    for line in facts.lines() {
        println!("{line}");
    }
    if let Some(entry) = entry {
        if entry.sha256 != facts.sha256 {
            println!("(not the manifest's file: its sha256 is {})", entry.sha256);
        }
        for line in entry_lines(&entry) {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A manifest entry's facts, as `show` prints them after the file's.
fn entry_lines(entry: &NetEntry) -> Vec<String> {
    let data: Vec<String> = entry
        .data
        .iter()
        .map(|d| format!("{} ({} positions)", d.set, d.positions))
        .collect();
    let mut lines = vec![
        format!("manifest: {}", entry.name),
        format!("data: {}", data.join(", ")),
        format!("command: {}", entry.command),
        format!("commit: {}", entry.commit),
        format!(
            "held-out loss: {} (quantised {})",
            entry.held_out_loss, entry.held_out_loss_quantised
        ),
        format!("adopted: {}", entry.adopted),
        format!("log: {}", entry.log),
        format!("score model (manifest): {}", entry.score_model),
    ];
    if let Some(m) = &entry.model {
        lines.push(format!(
            "model set after training: a(t) = {}, b(t) = {}",
            coefficients(&m.a),
            coefficients(&m.b)
        ));
    }
    if let Some(notes) = &entry.notes {
        lines.push(format!("notes: {notes}"));
    }
    lines
}

fn verify(
    name: &str,
    manifest: Option<&Path>,
    data_dir: Option<&Path>,
    work_dir: Option<&Path>,
) -> Result<ExitCode, NetToolError> {
    let (path, manifest, root) = manifest_and_root(manifest)?;
    let entry = manifest
        .find(name)
        .cloned()
        .ok_or_else(|| NetToolError::NoNet {
            name: name.to_owned(),
            manifest: path.display().to_string(),
        })?;
    let config = train_args(&entry.command)
        .map_err(|problem| NetToolError::BadCommand {
            name: entry.name.clone(),
            problem,
        })?
        .config();
    let work_dir = work_dir.map_or_else(
        || {
            std::env::temp_dir().join(format!(
                "shears-net-verify-{}-{}",
                entry.name,
                std::process::id()
            ))
        },
        Path::to_path_buf,
    );
    println!(
        "net {}: made again by `{}` in {} (trained by {}; this build is {BUILD})",
        entry.name,
        entry.command,
        work_dir.display(),
        entry.commit
    );
    let paths = RemakePaths {
        root: &root,
        data_dir,
        work_dir: &work_dir,
    };
    let made = remake(&entry, config, paths)?;
    println!(
        "made {}: {} bytes, sha256 {}; held-out loss {:.6}, quantised {:.6} (the manifest's: {}, {})",
        made.made.display(),
        made.facts.bytes,
        made.facts.sha256,
        made.summary.agreement.float_loss[0],
        made.summary.agreement.quantised_loss[0],
        entry.held_out_loss,
        entry.held_out_loss_quantised
    );
    let kept = root.join(NETS_DIR).join(&entry.file);
    Ok(match made.verdict {
        Verdict::Same => {
            println!(
                "{}: the same file as the manifest's, byte for byte ({} bytes, sha256 {})",
                entry.name, entry.bytes, entry.sha256
            );
            ExitCode::SUCCESS
        }
        Verdict::SameNet(differences) => {
            println!(
                "{}: the same net as {} (every weight and the layout) in another file: {}",
                entry.name,
                kept.display(),
                differences.join("; ")
            );
            ExitCode::SUCCESS
        }
        Verdict::Differs { differing, of } => {
            println!(
                "{}: another net: {differing} of the {of} weight words differ from {} (the net \
                 was trained by {}; a trainer changed since makes another)",
                entry.name,
                kept.display(),
                entry.commit
            );
            ExitCode::from(1)
        }
    })
}

fn run_set_model(args: &SetModelArgs) -> Result<ExitCode, NetToolError> {
    let model = match (args.a, args.b) {
        (Some(a), Some(b)) if !args.none => {
            Some(ScoreModel::net(a, b).map_err(|e| NetToolError::BadCommand {
                name: args.file.display().to_string(),
                problem: format!("--a/--b: {e}"),
            })?)
        }
        _ => None,
    };
    let out = args.out.as_deref().unwrap_or(&args.file);
    let file = set_model(&args.file, out, model, args.force)?;
    match &file.model {
        Some(m) => println!(
            "{}: score model written (a pawn is {:.1} of the net's centipawns)",
            out.display(),
            m.pawn()
        ),
        None => println!("{}: no score model", out.display()),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::manifest::{MANIFEST_PATH, Manifest};
    use crate::data::stats::sha256_file;
    use crate::util::repo::sources_root;

    fn repository_manifest() -> NetsManifest {
        NetsManifest::load(&sources_root().join(NETS_MANIFEST_PATH)).expect("the nets manifest")
    }

    #[test]
    fn every_nets_command_parses_with_the_parser_of_shears_train_and_matches_its_entry() {
        let manifest = repository_manifest();
        let data = Manifest::load(&sources_root().join(MANIFEST_PATH)).expect("the data manifest");
        assert!(manifest.nets.len() >= 5);
        for net in &manifest.nets {
            let args = train_args(&net.command).unwrap_or_else(|e| panic!("{}: {e}", net.name));
            let config = args.config();
            // The net's width and layout are the command's.
            assert_eq!(
                (config.settings.hidden, Some(config.settings.layout)),
                (net.width, net.layout()),
                "{}",
                net.name
            );
            assert!(config.resume.is_none(), "{}", net.name);
            // Its data sets are the data manifest's, one a file of the
            // command, in order: the set's file, or a copy named for the
            // set (`g3g2c.games`, the set g3g2c of g3g2.games).
            assert_eq!(config.files.len(), net.data.len(), "{}", net.name);
            for (file, prefix) in config.files.iter().zip(&net.data) {
                let set = data
                    .find(Some(prefix.set.as_str()), Path::new(""))
                    .unwrap_or_else(|| panic!("{}: no data set {}", net.name, prefix.set));
                let name = file.file_name().and_then(|f| f.to_str()).unwrap_or("");
                let extension = Path::new(&set.file).extension().and_then(|e| e.to_str());
                assert!(
                    name == set.file
                        || Some(name) == extension.map(|e| format!("{}.{e}", set.name)).as_deref(),
                    "{}: {name} is not the set {}'s file",
                    net.name,
                    prefix.set
                );
                assert!(prefix.positions <= set.kept, "{}: {}", net.name, prefix.set);
            }
            // The positions read add up: --positions, else every kept
            // position of the sets.
            let read: u64 = net.data.iter().map(|d| d.positions).sum();
            match config.first {
                Some(first) => assert_eq!(read, first, "{}", net.name),
                None => {
                    for prefix in &net.data {
                        let set = data.find(Some(prefix.set.as_str()), Path::new("")).unwrap();
                        assert_eq!(prefix.positions, set.kept, "{}: {}", net.name, set.name);
                    }
                }
            }
        }
    }

    #[test]
    fn every_listed_net_file_is_there_with_its_entrys_facts() {
        let root = sources_root();
        let manifest = repository_manifest();
        for net in &manifest.nets {
            let path = root.join(NETS_DIR).join(&net.file);
            let facts = Facts::of(&path).unwrap_or_else(|e| panic!("{}: {e}", net.name));
            assert_eq!(facts.sha256, net.sha256, "{}", net.name);
            assert_eq!(facts.bytes, net.bytes, "{}", net.name);
            assert_eq!(facts.file.version, net.version, "{}", net.name);
            assert_eq!(facts.file.net.hidden(), net.width, "{}", net.name);
            assert_eq!(Some(facts.file.net.layout()), net.layout(), "{}", net.name);
            // A model set after training is the one in the file.
            if let Some(m) = net.model().unwrap() {
                assert_eq!(facts.file.model, Some(m), "{}", net.name);
            }
        }
        // Every net in nets/ is listed: one copy of each file.
        for file in std::fs::read_dir(root.join(NETS_DIR)).unwrap() {
            let name = file.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                manifest.nets.iter().any(|n| n.file == name),
                "nets/{name} is not in the manifest"
            );
        }
        let shas: std::collections::BTreeSet<_> =
            manifest.nets.iter().map(|n| n.sha256.clone()).collect();
        assert_eq!(shas.len(), manifest.nets.len(), "one copy of each file");
    }

    #[test]
    fn every_nets_log_names_a_heading_of_its_page() {
        // GitHub's anchors: the heading in lower case, its punctuation
        // dropped, its spaces hyphens.
        let anchor = |heading: &str| -> String {
            heading
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        };
        for net in &repository_manifest().nets {
            let (page, heading) = net.log.split_once('#').expect("a page and an anchor");
            let text = std::fs::read_to_string(sources_root().join(page)).expect("the page");
            assert!(
                text.lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .any(|h| anchor(h.trim_start_matches('#')) == heading),
                "{}: {page} has no heading #{heading}",
                net.name
            );
        }
    }

    #[test]
    fn the_built_in_net_is_its_manifest_entry() {
        let manifest = repository_manifest();
        let built_in = manifest
            .find("default.nnue")
            .expect("the built-in net is listed");
        let sha = sha256_file(&sources_root().join("nets/default.nnue")).unwrap();
        assert_eq!(built_in.sha256, sha);
        assert_eq!(built_in.name, "s6-g2");
        assert_eq!(manifest.find("s6-g2"), Some(built_in));
    }

    #[test]
    fn commands_and_coefficients_are_refused_with_the_reason() {
        assert!(train_args("shears train d.bin --epochs 3").is_ok());
        for (command, reason) in [
            ("shears train \"d.bin\"", "has `\"`"),
            ("cargo run train d.bin", "does not start with `shears`"),
            ("shears datagen d.games", "not a `shears train` command"),
            ("shears train d.bin --epochs 0", "is refused"),
            ("shears train", "is refused"),
        ] {
            let err = train_args(command).unwrap_err();
            assert!(err.contains(reason), "{command}: {err}");
        }
        assert_eq!(four_coefficients("1, -2,3.5,4"), Ok([1.0, -2.0, 3.5, 4.0]));
        assert!(
            four_coefficients("1,2,3")
                .unwrap_err()
                .contains("has 3 numbers")
        );
        assert!(
            four_coefficients("1,2,x,4")
                .unwrap_err()
                .contains("not four numbers")
        );
    }
}
