//! [`Tablebases`]: the Syzygy tables of one or more folders, probed for WDL
//! and DTZ through shakmaty-syzygy, shared by every search thread.
//!
//! Opening only lists the folders: a table file is opened on its first
//! probe. A probe that cannot answer (no table for the material, castling
//! rights, too many pieces) gives `None`, which means "no information".
//! A table found broken — a file whose size cannot be a table's, or one
//! that turns out truncated or corrupted when read — is treated as missing
//! from then on and reported once through [`Tablebases::take_problems`];
//! a probe never panics.
//!
//! "Missing" is meant literally: the prober keeps an open table's header
//! in memory and may answer some positions from it without reading the
//! file, so a broken table is not merely flagged; the prober is rebuilt
//! without it (an `RwLock` swap; probes running then finish on the old
//! one, and any read they make of the broken part fails).

use std::collections::{HashMap, HashSet};
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use shakmaty::{Chess, Position as _};
use shakmaty_syzygy::{Material, Metric, ProbeError, SyzygyError, Tablebase};
use thiserror::Error;

use super::values::{Dtz, Wdl};

/// The value of `SyzygyPath` that means "no tables" (Stockfish's).
pub const EMPTY_PATH: &str = "<empty>";

/// A `SyzygyPath` that cannot be used.
#[derive(Debug, Error)]
pub enum TbError {
    /// A folder that does not exist (or is not a folder).
    #[error("syzygy folder \"{}\" does not exist or is not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// A folder that cannot be listed.
    #[error("cannot read syzygy folder \"{}\": {source}", .path.display())]
    Unreadable {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A folder with no usable table file in it.
    #[error("syzygy folder \"{}\" holds no usable tables (*.rtbw, *.rtbz){}", .path.display(), skipped_note(*.skipped))]
    NoTables {
        /// The folder.
        path: PathBuf,
        /// Table files in it that were skipped as broken.
        skipped: usize,
    },
    /// An empty path.
    #[error("no syzygy folder given")]
    Empty,
}

fn skipped_note(skipped: usize) -> String {
    match skipped {
        0 => String::new(),
        n => format!("; {n} broken table file(s) skipped"),
    }
}

/// Whether a `SyzygyPath` value turns the tables off: empty, or `<empty>`.
pub fn is_off(spec: &str) -> bool {
    let spec = spec.trim();
    spec.is_empty() || spec == EMPTY_PATH
}

/// Problems to report, each once.
#[derive(Default)]
struct Problems {
    pending: Vec<String>,
    seen: HashSet<String>,
}

/// The tables of one `SyzygyPath`.
pub struct Tablebases {
    /// The prober, over every table not found broken.
    inner: RwLock<Arc<Tablebase<Chess>>>,
    /// Every table file added, by file name (`KRvK.rtbw`).
    files: HashMap<String, PathBuf>,
    /// The table files found broken since.
    broken: Mutex<HashSet<PathBuf>>,
    folders: Vec<PathBuf>,
    wdl_tables: usize,
    dtz_tables: usize,
    max_pieces: usize,
    problems: Mutex<Problems>,
    /// Materials (`KRvK`) whose probe panicked inside the prober: not
    /// probed again.
    panicked: Mutex<HashSet<String>>,
    any_panicked: AtomicBool,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("folders", &self.folders)
            .field("wdl_tables", &self.wdl_tables)
            .field("dtz_tables", &self.dtz_tables)
            .field("max_pieces", &self.max_pieces)
            .finish_non_exhaustive()
    }
}

impl Tablebases {
    /// The tables in the folders of `spec`, joined by the platform's path
    /// separator (`:` on Unix, `;` on Windows), as `SyzygyPath` gives them.
    /// Table files whose size shows them broken are skipped and reported
    /// (see [`Tablebases::take_problems`]).
    ///
    /// # Errors
    ///
    /// [`TbError`] when `spec` names no folder, or a folder that does not
    /// exist, cannot be read or holds no usable table.
    pub fn open(spec: &str) -> Result<Tablebases, TbError> {
        let mut tables = Tablebases {
            inner: RwLock::new(Arc::new(Tablebase::new())),
            files: HashMap::new(),
            broken: Mutex::default(),
            folders: Vec::new(),
            wdl_tables: 0,
            dtz_tables: 0,
            max_pieces: 0,
            problems: Mutex::default(),
            panicked: Mutex::default(),
            any_panicked: AtomicBool::new(false),
        };
        for folder in std::env::split_paths(spec.trim()) {
            if folder.as_os_str().is_empty() {
                continue;
            }
            tables.add_folder(&folder)?;
        }
        if tables.folders.is_empty() {
            return Err(TbError::Empty);
        }
        tables.max_pieces = tables.prober().max_pieces();
        Ok(tables)
    }

    fn add_folder(&mut self, folder: &Path) -> Result<(), TbError> {
        if !folder.is_dir() {
            return Err(TbError::NotAFolder(folder.to_path_buf()));
        }
        let unreadable = |source| TbError::Unreadable {
            path: folder.to_path_buf(),
            source,
        };
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(folder).map_err(unreadable)? {
            paths.push(entry.map_err(unreadable)?.path());
        }
        paths.sort();
        let (mut added, mut skipped) = (0, 0);
        let mut prober = self.inner.write().unwrap_or_else(|p| p.into_inner());
        let prober = Arc::get_mut(&mut prober).expect("not shared while opening");
        for path in paths {
            match prober.add_file(&path) {
                Ok(()) => {
                    added += 1;
                    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                    let is_wdl = path.extension().is_some_and(|e| e == "rtbw");
                    if let Some(name) = name
                        && self.files.insert(name, path).is_none()
                    {
                        *if is_wdl {
                            &mut self.wdl_tables
                        } else {
                            &mut self.dtz_tables
                        } += 1;
                    }
                }
                // Not a table file: ignored.
                Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
                Err(e) => {
                    skipped += 1;
                    let message = format!(
                        "syzygy table {} skipped: {}",
                        path.display(),
                        describe_io(&e)
                    );
                    self.report(message);
                }
            }
        }
        if added == 0 {
            return Err(TbError::NoTables {
                path: folder.to_path_buf(),
                skipped,
            });
        }
        self.folders.push(folder.to_path_buf());
        Ok(())
    }

    /// The folders the tables come from.
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The materials (`KRPvKR`) that have both a WDL and a DTZ table,
    /// sorted.
    pub fn materials(&self) -> Vec<String> {
        let mut materials: Vec<String> = self
            .files
            .keys()
            .filter_map(|name| name.strip_suffix(".rtbw"))
            .filter(|stem| self.files.contains_key(&format!("{stem}.rtbz")))
            .map(str::to_owned)
            .collect();
        materials.sort();
        materials
    }

    /// The most pieces of any table (0 for none).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// One line describing the tables: how many of each kind, up to how
    /// many pieces, from where.
    pub fn summary(&self) -> String {
        let folders: Vec<String> = self
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        format!(
            "{} WDL and {} DTZ tables, up to {} pieces, from {}",
            self.wdl_tables,
            self.dtz_tables,
            self.max_pieces,
            folders.join(", ")
        )
    }

    /// The WDL value of `pos` as the tables store it: exact when `pos` was
    /// reached by a capture or pawn move (its halfmove clock is zero);
    /// otherwise the value as if the clock were zero. `None` when the tables
    /// cannot tell (no table, castling rights, too many pieces, a broken
    /// table).
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.guarded(pos, |tb| tb.probe_wdl_after_zeroing(pos))
            .map(Wdl::from)
    }

    /// The DTZ of `pos` (see [`Dtz`]); `None` when the tables cannot tell.
    pub fn probe_dtz(&self, pos: &Chess) -> Option<Dtz> {
        self.guarded(pos, |tb| tb.probe_dtz(pos)).map(Dtz::from)
    }

    /// The problems found since the last call (broken tables), each
    /// reported once, as one-line messages.
    pub fn take_problems(&self) -> Vec<String> {
        let mut problems = self.problems.lock().unwrap_or_else(|p| p.into_inner());
        std::mem::take(&mut problems.pending)
    }

    /// Queues `message` unless it was queued before.
    fn report(&self, message: String) {
        let mut problems = self.problems.lock().unwrap_or_else(|p| p.into_inner());
        if problems.seen.insert(message.clone()) {
            problems.pending.push(message);
        }
    }

    /// Runs one probe of `pos`: errors become `None`, a broken table is
    /// marked and reported, and a panic inside the prober is caught.
    fn guarded<T>(
        &self,
        pos: &Chess,
        probe: impl FnOnce(&Tablebase<Chess>) -> Result<T, SyzygyError>,
    ) -> Option<T> {
        if pos.board().occupied().count() > self.max_pieces {
            return None;
        }
        if self.any_panicked.load(Ordering::Relaxed) && self.has_panicked(pos) {
            return None;
        }
        let prober = self.prober();
        match panic::catch_unwind(AssertUnwindSafe(|| probe(&prober))) {
            Ok(Ok(value)) => Some(value),
            Ok(Err(error)) => {
                self.note_error(&error);
                None
            }
            Err(_) => {
                let material = material_of(pos);
                self.report(format!(
                    "syzygy probe of {material} failed inside the prober; {material} is no longer probed"
                ));
                self.panicked
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(material);
                self.any_panicked.store(true, Ordering::Relaxed);
                None
            }
        }
    }

    fn has_panicked(&self, pos: &Chess) -> bool {
        let panicked = self.panicked.lock().unwrap_or_else(|p| p.into_inner());
        panicked.contains(&material_of(pos))
    }

    /// A probe error: a table that failed to read is marked broken (and so
    /// missing from now on) and reported once; the other errors only mean
    /// that the tables cannot tell.
    fn note_error(&self, error: &SyzygyError) {
        let SyzygyError::ProbeFailed {
            metric,
            material,
            error,
        } = error
        else {
            return;
        };
        let ext = match metric {
            Metric::Wdl => "rtbw",
            Metric::Dtz => "rtbz",
        };
        let name = format!("{material}.{ext}");
        let Some(path) = self.files.get(&name) else {
            return;
        };
        let why = match error.as_ref() {
            ProbeError::Read { error } => format!("read error: {error}"),
            ProbeError::Magic { .. } => "not a Syzygy table (bad magic bytes)".to_owned(),
            ProbeError::CorruptedTable { .. } => "truncated or corrupted".to_owned(),
        };
        let mut broken = self.broken.lock().unwrap_or_else(|p| p.into_inner());
        if !broken.insert(path.clone()) {
            return;
        }
        // A new prober over the tables still good (adding a file only reads
        // its metadata); a file that cannot be added now is left out.
        let mut prober = Tablebase::new();
        for file in self.files.values().filter(|f| !broken.contains(*f)) {
            let _ = prober.add_file(file);
        }
        *self.inner.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(prober);
        drop(broken);
        self.report(format!(
            "syzygy table {} is broken ({why}); treated as missing",
            path.display()
        ));
    }

    /// The current prober.
    fn prober(&self) -> Arc<Tablebase<Chess>> {
        Arc::clone(&self.inner.read().unwrap_or_else(|p| p.into_inner()))
    }
}

/// The material of `pos` in table-name form (`KRvK`).
fn material_of(pos: &Chess) -> String {
    Material::from_board(pos.board()).to_string()
}

/// A file-level error, without the noise of `io::Error`'s debug form.
fn describe_io(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::InvalidData => "its size is not that of a Syzygy table".to_owned(),
        _ => error.to_string(),
    }
}
