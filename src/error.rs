//! Crate-level error types. Every boundary that takes untrusted input (UCI
//! lines, engine.toml, the command line, EPD files) reports through one of
//! these, carrying the bad token and what was expected.

use std::path::PathBuf;

use thiserror::Error;

/// Longest piece of user text echoed back in an error message.
const ECHO_LIMIT: usize = 80;

/// Shortens user text for an error message (a megabyte line must not come
/// back as a megabyte error).
pub fn echo(text: &str) -> String {
    if text.chars().count() <= ECHO_LIMIT {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(ECHO_LIMIT).collect();
        format!("{cut}… ({} bytes)", text.len())
    }
}

/// A line of a suite file (perft or EPD) that could not be used; the other
/// lines still run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Parses a suite file line by line with `parse` (given the trimmed line and
/// its 1-based number), skipping blank lines and `#` comments. Good and bad
/// lines are both returned, so a malformed line does not stop the others.
pub fn parse_numbered_lines<T>(
    text: &str,
    parse: impl Fn(&str, usize) -> Result<T, String>,
) -> (Vec<T>, Vec<LineError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse(line, i + 1) {
            Ok(e) => entries.push(e),
            Err(reason) => errors.push(LineError {
                line: i + 1,
                reason,
            }),
        }
    }
    (entries, errors)
}

/// A FEN that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// No FEN text at all.
    #[error("empty FEN")]
    Empty,
    /// Not FEN syntax.
    #[error("invalid FEN \"{}\": {reason}", echo(.fen))]
    Syntax {
        /// The FEN text.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well-formed, but not a legal position.
    #[error("illegal position \"{}\": {reason}", echo(.fen))]
    Illegal {
        /// The FEN text.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A move in UCI text that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not UCI move syntax at all.
    #[error("malformed move \"{}\"", echo(.0))]
    Malformed(String),
    /// The null move `0000`, which a position cannot play.
    #[error("null move \"0000\" is not supported")]
    Null,
    /// Well-formed, but not legal in the position.
    #[error("illegal move \"{}\" in position {fen}", echo(.mv))]
    Illegal {
        /// The move text.
        mv: String,
        /// The position it was tried in.
        fen: String,
    },
}

/// A rejected UCI line, or one that could not be carried out. The engine
/// answers it with `info string error: …` and keeps its previous state.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciError {
    /// The first word is no command we know.
    #[error("unknown command \"{}\"", echo(.0))]
    UnknownCommand(String),
    /// A command with missing, extra or malformed arguments.
    #[error("{command}: {reason}")]
    BadArguments {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// `position` with a bad FEN.
    #[error("position: {0}")]
    Fen(#[from] FenError),
    /// `position … moves` with a bad move.
    #[error("position: move {index} of the list: {error}")]
    Move {
        /// 1-based index in the moves list.
        index: usize,
        /// What is wrong with the move.
        error: MoveError,
    },
    /// `go` with a bad parameter.
    #[error("go: {param} {reason}")]
    BadGo {
        /// The parameter.
        param: String,
        /// What is wrong.
        reason: String,
    },
    /// `setoption` with an unknown name or a bad value.
    #[error("setoption: {0}")]
    Option(#[from] OptionError),
    /// The job the line asked for could not be started.
    #[error(transparent)]
    Thread(#[from] ThreadError),
    /// The external UCI parser failed on the line.
    #[error("could not parse \"{}\": {reason}", echo(.line))]
    Parser {
        /// The line.
        line: String,
        /// What the parser said.
        reason: String,
    },
}

/// A job of the engine (a search, a perft, a bench) whose thread the
/// system would not start: the command is not carried out, and the engine
/// goes on answering.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{command}: cannot start the {job} thread: {reason}")]
pub struct ThreadError {
    /// The command that asked for the job (`go`, `bench`).
    pub command: &'static str,
    /// The job (`search`, `perft`, `bench`).
    pub job: &'static str,
    /// The operating system's message.
    pub reason: String,
}

/// Something in a `go` line that cannot be honoured as written. The engine
/// says so (`info string warning: …`) and still searches within what is
/// valid, so that every `go` gets its `bestmove`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GoWarning {
    /// A negative time (a clock that ran out, or a GUI's margin): read as 0.
    #[error("go: {param} {value} is negative, read as 0")]
    NegativeTime {
        /// The parameter.
        param: String,
        /// The number as written.
        value: String,
    },
    /// A negative count (`depth`, `nodes`, `mate`, `movestogo`): ignored.
    #[error("go: {param} {value} is negative, ignored")]
    NegativeCount {
        /// The parameter.
        param: String,
        /// The number as written.
        value: String,
    },
    /// `movestogo 0`: no number of moves; ignored (the clock is read as
    /// for the rest of the game), as Stockfish reads it.
    #[error("go: movestogo {value} is no number of moves, ignored")]
    NoMovesToGo {
        /// The number as written.
        value: String,
    },
    /// `depth` 0 or below: no depth to search; read as depth 1, the
    /// quickest answer a search gives.
    #[error("go: depth {} is no search depth, read as 1", echo(.value))]
    DepthBelowOne {
        /// The number as written.
        value: String,
    },
    /// A number of 2^64 or more: read as the largest one.
    #[error("go: {param} {} is too large, read as {}", echo(.value), u64::MAX)]
    TooLarge {
        /// The parameter.
        param: String,
        /// The number as written.
        value: String,
    },
    /// A parameter without its number: ignored.
    #[error("go: {param} needs a number, ignored")]
    MissingNumber {
        /// The parameter.
        param: String,
    },
    /// A parameter followed by something that is not a number: ignored.
    #[error("go: {param} \"{}\" is not a number, ignored", echo(.value))]
    NotANumber {
        /// The parameter.
        param: String,
        /// What followed it.
        value: String,
    },
    /// A word that is no `go` parameter: ignored, as Stockfish does.
    #[error("go: unknown parameter \"{}\" ignored", echo(.0))]
    Unknown(String),
    /// `searchmoves` without a move: every move is searched.
    #[error("go: searchmoves without a move, searching every move")]
    NoSearchMoves,
    /// A `searchmoves` move that cannot be played here: left out.
    #[error("go: searchmoves: {0}; left out")]
    BadSearchMove(MoveError),
    /// `searchmoves` with no move that can be played here: every move is
    /// searched.
    #[error("go: no searchmoves move can be played here, searching every move")]
    NoPlayableSearchMove,
}

/// An option name or value that the option table refuses.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option \"{}\"", echo(.0))]
    Unknown(String),
    /// The value does not fit the option.
    #[error("option \"{name}\": bad value \"{}\", expected {expected}", echo(.value))]
    BadValue {
        /// The option name.
        name: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// A valid value that could not be applied now; the old one is kept.
    #[error("option \"{name}\": cannot apply \"{}\": {reason}", echo(.value))]
    Refused {
        /// The option name.
        name: String,
        /// The value given.
        value: String,
        /// Why.
        reason: String,
    },
}

impl OptionError {
    /// A value that parsed but could not be applied (e.g. a `Hash` size
    /// that cannot be allocated).
    pub fn refused(name: &str, value: &str, reason: &str) -> OptionError {
        OptionError::Refused {
            name: name.to_owned(),
            value: value.to_owned(),
            reason: reason.to_owned(),
        }
    }
}

/// A Polyglot opening book that cannot be used. The engine reports it
/// (`setoption name BookFile …`) and keeps the book it had, if any.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// The file cannot be opened or read.
    #[error("book {}: cannot read: {reason}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        reason: String,
    },
    /// The path names a directory or something else that is not a file.
    #[error("book {}: not a file", .path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The size is not a whole number of 16-byte entries.
    #[error(
        "book {}: {size} bytes is not a multiple of 16 (a Polyglot book is a list of 16-byte entries)",
        .path.display()
    )]
    BadSize {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The entries are not in ascending key order, so a binary search would
    /// miss moves.
    #[error(
        "book {}: entries not sorted by key: entry {index} (key {key:016x}) follows key {previous:016x}",
        .path.display()
    )]
    Unsorted {
        /// The file.
        path: PathBuf,
        /// 0-based index of the first entry out of order.
        index: usize,
        /// Its key.
        key: u64,
        /// The key of the entry before it.
        previous: u64,
    },
    /// The entries do not fit in memory.
    #[error("book {}: cannot allocate memory for {entries} entries", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// How many entries it holds.
        entries: u64,
    },
}

/// engine.toml could not be used, in whole or in part. The command-line
/// tools stop with this message; UCI mode starts with the defaults for what
/// was refused and reports it (see [`ConfigError::consequence`]).
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not valid TOML.
    #[error("{}: invalid TOML: {message}", .path.display())]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message (with line and column).
        message: String,
    },
    /// A key that the file may not hold.
    #[error("{}: unknown key \"{key}\" (allowed: {allowed})", .path.display())]
    UnknownKey {
        /// The file.
        path: PathBuf,
        /// The key, with its table (`options.Foo`).
        key: String,
        /// The keys that are allowed there.
        allowed: String,
    },
    /// A known key with a value of the wrong type or range.
    #[error("{}: key \"{key}\" has bad value {value}: expected {expected}", .path.display())]
    BadValue {
        /// The file.
        path: PathBuf,
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// Keys that name the same option (option names ignore case): which
    /// one was meant is not clear, so none is used.
    #[error(
        "{}: keys {} set the same option, \"{option}\" (option names ignore case): keep one",
        .path.display(),
        .keys.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ")
    )]
    DuplicateKey {
        /// The file.
        path: PathBuf,
        /// The keys, with their table (`options.Hash`, `options.hash`).
        keys: Vec<String>,
        /// The option they name.
        option: String,
    },
    /// The `log_file` setting names a file that cannot be opened for
    /// appending (a directory, a folder that does not exist, no permission).
    #[error(
        "{}: key \"engine.log_file\": cannot open the log file \"{}\": {source}",
        .path.display(),
        .file.display()
    )]
    LogFile {
        /// The settings file.
        path: PathBuf,
        /// The log file it names.
        file: PathBuf,
        /// Why it cannot be opened.
        source: std::io::Error,
    },
}

impl ConfigError {
    /// What UCI mode, which starts anyway, did about the problem.
    pub fn consequence(&self) -> &'static str {
        match self {
            ConfigError::Io { .. } | ConfigError::Toml { .. } => {
                "started with the built-in defaults"
            }
            ConfigError::UnknownKey { .. } => "the key is ignored",
            ConfigError::BadValue { .. } | ConfigError::DuplicateKey { .. } => {
                "started with the default for it"
            }
            ConfigError::LogFile { .. } => "the conversation is not logged",
        }
    }
}
