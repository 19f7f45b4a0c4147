//! The façade the UCI layer drives: the current position, the options, the
//! searcher (table, thread states), the opening book, the Syzygy tables of
//! `SyzygyPath`, the net of `EvalFile`, the random state of a limited
//! strength, and at most one
//! running job (the answer to a `go`, a perft, a bench or a tool's command,
//! the last three started in `tasks.rs`) on its own thread. [`Engine::go`]
//! only plans who thinks and how the move is chosen; `answer.rs` answers.
//!
//! Every setter is all-or-nothing: a rejected position or option leaves the
//! previous one in place.

use std::sync::{Arc, Mutex, MutexGuard};

use super::answer::{Choice, EngineSearch, Go, Thinker};
use super::evaluation::Nets;
use super::job::{Job, JobKind, Sink};
use super::opening::OpeningBook;
use super::options::{BOOK_FILE, Effect, HASH, OptionSpec, OptionValue, Options, SYZYGY_PATH};
use super::report::{EvalTrace, Listener, NetNews, Report, Style, StyleCell};
use super::strength::limited::{LevelChoice, StrengthSeeds, level_limits, level_settings};
use crate::chess::Position;
use crate::error::{OptionError, ThreadError};
use crate::eval::{self, Evaluation};
use crate::search::{self, SearchLimits, SearchSettings, Searcher, Signals};
use crate::tb::{self, Tablebases};

/// An option value refused at start-up ([`Engine::with_fallbacks`]): the
/// option's name and why.
pub type Refused = (&'static str, OptionError);

/// The engine state behind the UCI loop.
pub struct Engine {
    position: Position,
    /// Why the last `position` command was refused, if it was: the GUI no
    /// longer has `position`, so no `go` searches it.
    refused: Option<String>,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    book: OpeningBook,
    /// The tables of `SyzygyPath`, if any.
    tables: Option<Arc<Tablebases>>,
    /// The net of `EvalFile`.
    nets: Nets,
    /// The net the last `setoption` loaded or switched on, to be named
    /// ([`Engine::take_net_news`]).
    net_news: Option<NetNews>,
    /// The random state of a limited strength (`StrengthSeed`).
    seeds: StrengthSeeds,
    /// The strength level changed since the last search: the table and
    /// the histories hold what another level's search (another
    /// evaluation) found, and are cleared before the next search.
    level_changed: bool,
    listener: Listener,
    /// How the reports are written: set from the options and by `debug`.
    style: Arc<StyleCell>,
    running: Option<Job>,
    /// This game was told that `OwnBook` has no book to use.
    told_no_book: bool,
}

impl Engine {
    /// An engine at the start position with `options`; the reports of its
    /// jobs go to `listener`.
    ///
    /// # Errors
    ///
    /// When the `Hash` of `options` cannot be allocated, its `BookFile`
    /// cannot be loaded, or its `SyzygyPath` cannot be used.
    pub fn new(options: Options, listener: Listener) -> Result<Engine, OptionError> {
        Engine::build(options, listener, false).map(|(engine, _)| engine)
    }

    /// As [`Engine::new`], but a `Hash`, `BookFile` or `SyzygyPath` that
    /// cannot be applied falls back to the option's default instead of
    /// failing (UCI start-up: a GUI user with a bad engine.toml still gets
    /// an engine). Returns each refusal, with the name of its option,
    /// beside the engine, whose options then hold the defaults used.
    ///
    /// # Errors
    ///
    /// When even the default `Hash` cannot be allocated.
    pub fn with_fallbacks(
        options: Options,
        listener: Listener,
    ) -> Result<(Engine, Vec<Refused>), OptionError> {
        Engine::build(options, listener, true)
    }

    fn build(
        mut options: Options,
        listener: Listener,
        fallback: bool,
    ) -> Result<(Engine, Vec<Refused>), OptionError> {
        let mut refused = Vec::new();
        // The king-and-pawn bitbase is solved once, off the search's path.
        std::thread::spawn(crate::eval::endgame::kpk::warm);
        let searcher = or_default(&mut options, HASH, fallback, &mut refused, |o| {
            let mut searcher = Searcher::new(o.hash_mb()).map_err(|e| {
                OptionError::refused(HASH, &o.hash_mb().to_string(), &e.to_string())
            })?;
            searcher.set_threads(o.threads());
            Ok(searcher)
        })?;
        let book = or_default(&mut options, BOOK_FILE, fallback, &mut refused, |o| {
            OpeningBook::new(o)
                .map_err(|e| OptionError::refused(BOOK_FILE, o.book_file(), &e.to_string()))
        })?;
        let tables = or_default(&mut options, SYZYGY_PATH, fallback, &mut refused, |o| {
            open_tables(o.syzygy_path())
        })?;
        let nets = Nets::open(&mut options, fallback, &mut refused)?;
        for (spec, value) in options.iter().filter(|(s, _)| s.effect == Effect::Tunable) {
            apply_tunable(spec, value);
        }
        let mut engine = Engine {
            position: Position::startpos(),
            refused: None,
            seeds: StrengthSeeds::new(options.strength_seed()),
            level_changed: false,
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            book,
            tables,
            nets,
            net_news: None,
            listener,
            style: Arc::new(StyleCell::default()),
            running: None,
            told_no_book: false,
        };
        engine.restyle(false);
        Ok((engine, refused))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Replaces the position (already fully built and validated).
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
        self.refused = None;
    }

    /// A `position` command was refused for `reason`: the position stays
    /// (for `d`), but until a position is accepted every `go` is answered
    /// `bestmove 0000` without a search, since the GUI is somewhere else.
    pub fn refuse_position(&mut self, reason: String) {
        self.refused = Some(reason);
    }

    /// Why the last `position` command was refused (`None`: the position
    /// is the GUI's).
    pub fn refused_position(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The search settings the options give ([`Options::search_settings`]).
    pub fn settings(&self) -> SearchSettings {
        self.options.search_settings()
    }

    /// `setoption`: the option's new value, and what its row says a change
    /// does ([`Effect`]). On error nothing changes. The changes that touch
    /// the searcher (`Hash`, `Threads`, `Clear Hash`) are refused while a
    /// job runs (one that has sent its final report is waited for
    /// instead). `BookFile` loads and checks the book at once, `EvalFile`
    /// the net; a new `SyzygyPath` is read at once and used from the next
    /// search on.
    ///
    /// # Errors
    ///
    /// [`OptionError`] for an unknown option, a bad value, or one that
    /// cannot be applied (a `Hash` that cannot be allocated, a book or a
    /// net that cannot be loaded, a `SyzygyPath` folder that does not exist
    /// or holds no tables, `Use NNUE` without a net).
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
        let mut next = self.options.clone();
        let (spec, parsed) = next.set(name, value)?;
        let refused = |e: &dyn std::fmt::Display| {
            OptionError::refused(spec.name, value.unwrap_or(""), &e.to_string())
        };
        if spec.effect.needs_idle() {
            if self.is_busy() && !self.has_answered() {
                return Err(refused(&"a search is running (send stop first)"));
            }
            // A job that has sent its final report may still be ending: a
            // GUI that sets Hash right after bestmove must not be refused.
            self.stop_and_wait();
        } else {
            self.reap();
        }
        match spec.effect {
            Effect::NextSearch | Effect::OutputStyle => {}
            Effect::ResizeHash => self
                .searcher()
                .resize_hash(next.hash_mb())
                .map_err(|e| refused(&e))?,
            Effect::ResizeThreads => self.searcher().set_threads(next.threads()),
            Effect::ClearHash => self.searcher().clear_hash(),
            Effect::LoadBook => {
                self.book.load(next.book_file()).map_err(|e| refused(&e))?;
                self.told_no_book = false;
            }
            Effect::ReseedBook => self.book.reseed(next.book_seed()),
            Effect::UseBook => self.told_no_book = false,
            Effect::Strength => {
                self.level_changed |= next.strength_level() != self.options.strength_level();
            }
            Effect::ReseedStrength => self.seeds = StrengthSeeds::new(next.strength_seed()),
            Effect::OpenTables => self.tables = open_tables(next.syzygy_path())?,
            Effect::UseNet => self.nets.check_use(&next).map_err(|e| refused(&e))?,
            Effect::LoadNet => self.nets.load(next.eval_file()).map_err(|e| refused(&e))?,
            Effect::Tunable => apply_tunable(spec, &parsed),
        }
        let switched = next.use_nnue() != self.options.use_nnue();
        self.options = next;
        self.net_news = match spec.effect {
            Effect::LoadNet => self.nets.news(&self.options, true),
            Effect::UseNet if switched => self.nets.news(&self.options, false),
            _ => None,
        };
        if spec.effect == Effect::OutputStyle {
            self.restyle(self.style().debug);
        }
        Ok((spec, parsed))
    }

    /// The net the last `setoption` loaded (`EvalFile`: always) or
    /// switched on (`Use NNUE` from false to true: a net not named as
    /// playing since), for an `info string`; once.
    pub fn take_net_news(&mut self) -> Option<NetNews> {
        self.net_news.take()
    }

    /// How the engine's reports are written now.
    pub fn style(&self) -> Style {
        self.style.get()
    }

    /// `debug on|off`: reports written with more detail, or not.
    pub fn set_debug(&mut self, on: bool) {
        self.restyle(on);
    }

    /// The style of the options, with `debug`.
    fn restyle(&mut self, debug: bool) {
        self.style.set(Style {
            chess960: self.options.chess960(),
            show_wdl: self.options.show_wdl(),
            debug,
        });
    }

    /// The tables of `SyzygyPath`, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tables.as_ref()
    }

    /// Problems with the tables found since the last call (broken table
    /// files, now treated as missing), each once.
    pub fn take_problems(&self) -> Vec<String> {
        self.tables
            .as_ref()
            .map(|t| t.take_problems())
            .unwrap_or_default()
    }

    /// The `d` command: which evaluation plays, the board, FEN, key and
    /// checkers, and with tables what they say about the position.
    pub fn display(&self) -> String {
        let mut text = String::new();
        // First, so that readers of the diagram's last lines are not
        // surprised by an extra one.
        if self.refused.is_some() {
            text.push_str(
                "Refused: the last position command (below is the position before it; \
                 go answers bestmove 0000 until a position is accepted)\n",
            );
        }
        text.push_str(&self.nets.in_play(&self.options));
        text.push('\n');
        text.push_str(&self.position.diagram());
        if let Some(tables) = &self.tables {
            for line in tb::describe(tables, &self.position) {
                text.push('\n');
                text.push_str(&line);
            }
        }
        text
    }

    /// The searcher (a search job holds it for as long as it runs).
    fn searcher(&self) -> MutexGuard<'_, Searcher> {
        self.searcher.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `ucinewgame`: forget everything learned about the previous game (the
    /// hash table and the histories); a limited strength draws the next
    /// game's evaluation errors. Waits for a running job to stop.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.searcher().new_game();
        self.seeds.new_game();
        self.level_changed = false;
        self.told_no_book = false;
    }

    /// The opening book, if one is loaded.
    pub fn book(&self) -> Option<&crate::book::Book> {
        self.book.book()
    }

    /// Answers `go` for the current position: plans who thinks and how
    /// the move is chosen (`Engine::plan`) and starts the one job that
    /// answers (see `engine::answer`). A job still running is stopped
    /// first (a search still sends its own `bestmove`). A book move is
    /// known at once: it is sent before this returns.
    ///
    /// # Errors
    ///
    /// When the search thread cannot be started.
    pub fn go(&mut self, limits: SearchLimits) -> Result<(), ThreadError> {
        let mut go = self.plan(limits);
        if let Thinker::Search(search) = &go.thinker {
            go.net_news = self.nets.first_play(&search.evaluation);
        }
        let instant = go.is_instant();
        let ponder = go.limits.ponder;
        let fallback = go.fallback();
        self.start(
            JobKind::Search,
            ponder,
            move |signals, send| go.answer(signals, send),
            move |reason| Report::SearchFailed {
                reason,
                best: fallback,
            },
        )?;
        if instant {
            self.stop_and_wait();
        }
        Ok(())
    }

    /// The plan of a `go`: after a refused `position`, nothing to search
    /// (`bestmove 0000`, after `stop` or `ponderhit` for `go infinite` and
    /// `go ponder`, as always); with `OwnBook`, the book's move when it has
    /// one for a game move (see `engine::opening`); with `SearchAlgorithm`,
    /// a teaching search; at a limited strength, the level's search and
    /// choice (see `engine::limited`); else the engine's search and its
    /// best line.
    fn plan(&mut self, mut limits: SearchLimits) -> Go {
        limits.clock.move_overhead = self.options.move_overhead_ms();
        let position = self.position.clone();
        let plan = |limits, thinker, choice, no_book_note| Go {
            position,
            limits,
            thinker,
            choice,
            no_book_note,
            net_news: None,
        };
        if self.refused.is_some() {
            return plan(limits, Thinker::Nothing, Choice::Best, false);
        }
        let no_book_note = !self.told_no_book && self.book.is_missing(&limits, &self.options);
        self.told_no_book |= no_book_note;
        if let Some(book) = self
            .book
            .choose(self.position.board(), &limits, &self.options)
        {
            return plan(limits, Thinker::Nothing, Choice::Book(book), no_book_note);
        }
        if let Some(config) = self.options.search_algorithm() {
            return plan(limits, Thinker::Theory(config), Choice::Best, no_book_note);
        }
        if self.level_changed {
            self.stop_and_wait();
            self.searcher().new_game();
            self.level_changed = false;
        }
        let searcher = Arc::clone(&self.searcher);
        let tables = self.tables.clone();
        let settings = self.settings();
        let Some(level) = self.options.strength_level() else {
            let thinker = Thinker::Search(Box::new(EngineSearch {
                searcher,
                limits: limits.clone(),
                settings,
                tables,
                handicap: None,
                evaluation: self.evaluation(),
            }));
            return plan(limits, thinker, Choice::Best, no_book_note);
        };
        let thinker = Thinker::Search(Box::new(EngineSearch {
            searcher,
            limits: level_limits(&level, &limits),
            settings: level_settings(&level, settings),
            tables,
            handicap: level.handicap(self.seeds.noise()),
            // The levels were calibrated with the hand-crafted evaluation.
            evaluation: Evaluation::HandCrafted,
        }));
        let choice = Choice::Level(LevelChoice {
            level,
            shown_lines: settings.multipv,
            seed: self.seeds.next_move(),
        });
        plan(limits, thinker, choice, no_book_note)
    }

    /// The `eval` command: the hand-crafted evaluation of the current
    /// position term by term, the net's evaluation and its value of each
    /// piece, which of the two plays, and last what the one that plays
    /// says ([`EvalTrace`]; the UCI layer shows it, the net's scores also
    /// as `score cp` shows them).
    pub fn eval_trace(&self) -> EvalTrace {
        let board = self.position.board();
        EvalTrace {
            hand_crafted: eval::trace(board),
            net: self.nets.net_eval(board),
            in_play: self.nets.in_play(&self.options),
            playing: self.nets.playing_eval(&self.options, board),
        }
    }

    /// The evaluation a full-strength search plays with now (`Use NNUE`,
    /// `EvalFile`).
    pub fn evaluation(&self) -> Evaluation {
        self.nets.evaluation(&self.options)
    }

    /// Starts a job of `kind` after stopping any running one.
    pub(super) fn start(
        &mut self,
        kind: JobKind,
        ponder: bool,
        work: impl FnOnce(&Signals, &(dyn Fn(Report) + Sync)) + Send + 'static,
        on_panic: impl FnOnce(String) -> Report + Send + 'static,
    ) -> Result<(), ThreadError> {
        self.stop_and_wait();
        let signals = Arc::new(Signals::new(ponder));
        let (listener, style) = (Arc::clone(&self.listener), Arc::clone(&self.style));
        let sink: Sink = Arc::new(move |report| listener(report, style.get()));
        self.running = Some(Job::start(kind, signals, sink, work, on_panic)?);
        Ok(())
    }

    /// `stop`: the running job (if any) stops and sends its final report.
    pub fn stop(&self) {
        if let Some(job) = &self.running {
            job.stop();
        }
    }

    /// `ponderhit`: the pondering search now plays for real.
    pub fn ponderhit(&self) {
        if let Some(job) = &self.running {
            job.ponderhit();
        }
    }

    /// Whether a job's thread is still running.
    pub fn is_busy(&self) -> bool {
        self.running.as_ref().is_some_and(Job::is_running)
    }

    /// Whether the running job (if any) has sent its final report.
    fn has_answered(&self) -> bool {
        self.running.as_ref().is_some_and(Job::has_answered)
    }

    /// Joins a job thread that has already finished.
    fn reap(&mut self) {
        if !self.is_busy() {
            self.stop_and_wait();
        }
    }

    /// Stops any running job and waits for its thread to end.
    pub fn stop_and_wait(&mut self) {
        if let Some(job) = self.running.take() {
            job.stop_and_join();
        }
    }

    /// End of input: a running perft, bench or tool finishes (its output is
    /// what was asked for, as when the commands are piped in); a search
    /// stops, as `quit` would stop it.
    pub fn finish(&mut self) {
        match self.running.take() {
            Some(job) if job.kind() != JobKind::Search => job.join(),
            Some(job) => job.stop_and_join(),
            None => {}
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

/// Sets the search tunable an option stands for (the `spsa` build). The
/// option table has checked the range.
fn apply_tunable(spec: &OptionSpec, value: &OptionValue) {
    if let OptionValue::Int(v) = *value
        && let Ok(v) = i32::try_from(v)
        && search::find_tunable(spec.name).is_some()
    {
        search::set_tunable(spec.name, v);
    }
}

/// `make(options)`; when that fails and `fallback` holds, the failure is
/// noted in `refused` and `make` runs again with the option `name` back at
/// its default (unless it was at its default already).
fn or_default<T>(
    options: &mut Options,
    name: &'static str,
    fallback: bool,
    refused: &mut Vec<Refused>,
    make: impl Fn(&Options) -> Result<T, OptionError>,
) -> Result<T, OptionError> {
    match make(options) {
        Err(error) if fallback && *options != reset(options, name) => {
            refused.push((name, error));
            options.reset(name);
            make(options)
        }
        result => result,
    }
}

/// `options` with `name` at its default.
fn reset(options: &Options, name: &str) -> Options {
    let mut reset = options.clone();
    reset.reset(name);
    reset
}

/// The tables of a `SyzygyPath` value: `None` when it is `<empty>`.
fn open_tables(path: &str) -> Result<Option<Arc<Tablebases>>, OptionError> {
    if tb::is_off(path) {
        return Ok(None);
    }
    Tablebases::open(path)
        .map(|t| Some(Arc::new(t)))
        .map_err(|e| OptionError::refused(SYZYGY_PATH, path, &e.to_string()))
}
