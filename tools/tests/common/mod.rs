//! Drives the real `shears` binary over pipes for the UCI integration tests.
//!
//! Every read has a timeout ([`TIMEOUT`]), so a hung engine fails the test
//! instead of blocking it; the child is killed when the [`Engine`] is dropped.

#![allow(dead_code)]

// The library's tests (tests/ in the repository root) find the tables the
// same way.
#[path = "../../../tests/common/tables.rs"]
pub mod tables;

pub mod data;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shears::chess::Position;

/// How long any single expected line (or the process exit) may take. Only a
/// liveness bound: nothing here should take more than a fraction of it.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Quiet period after the last expected line, to catch late extra output
/// (a second `bestmove`).
pub const SETTLE: Duration = Duration::from_millis(150);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    transcript: Vec<String>,
    /// The working directory: empty but for an engine.toml (empty unless
    /// [`Engine::spawn_with_config`] gives one), so that neither a stray
    /// engine.toml here nor one next to the executable is used and every
    /// test starts from the built-in defaults.
    _dir: tempfile::TempDir,
}

impl Engine {
    /// Starts the engine in UCI mode.
    pub fn spawn() -> Engine {
        Engine::spawn_inner(true, None, "")
    }

    /// Starts the engine with `toml` as the engine.toml of its directory.
    pub fn spawn_with_config(toml: &str) -> Engine {
        Engine::spawn_inner(true, None, toml)
    }

    /// Starts the engine and closes the read end of its stdout at once, as a
    /// GUI that went away would.
    pub fn spawn_with_closed_stdout() -> Engine {
        Engine::spawn_inner(false, None, "")
    }

    /// Starts the engine with its address space limited to `kib` KiB
    /// (`ulimit -v` in `sh`), so that a large allocation fails on any
    /// machine, however much memory it has.
    pub fn spawn_with_address_space_limit(kib: u64) -> Engine {
        Engine::spawn_inner(true, Some(kib), "")
    }

    fn spawn_inner(keep_stdout: bool, address_space_kib: Option<u64>, toml: &str) -> Engine {
        let dir = tempfile::tempdir().expect("creating a temporary directory");
        std::fs::write(dir.path().join("engine.toml"), toml).expect("writing engine.toml");
        let binary = env!("CARGO_BIN_EXE_shears");
        let mut command = match address_space_kib {
            None => Command::new(binary),
            Some(kib) => {
                let mut sh = Command::new("sh");
                sh.args(["-c", "ulimit -v \"$1\" && exec \"$0\"", binary])
                    .arg(kib.to_string());
                sh
            }
        };
        let mut child = command
            .current_dir(dir.path())
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting the shears binary");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        if keep_stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.strip_suffix('\n').unwrap_or(&text);
                            let line = line.strip_suffix('\r').unwrap_or(line);
                            if tx.send(line.to_owned()).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        } else {
            drop(stdout);
            drop(tx);
        }
        let mut stderr = child.stderr.take().expect("piped stderr");
        let stderr = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            buf
        });
        Engine {
            child,
            stdin,
            lines: rx,
            stderr: Some(stderr),
            transcript: Vec::new(),
            _dir: dir,
        }
    }

    fn fail(&self, message: &str) -> ! {
        let tail_start = self.transcript.len().saturating_sub(60);
        panic!(
            "{message}\n--- transcript (last {} lines) ---\n{}",
            self.transcript.len() - tail_start,
            self.transcript[tail_start..].join("\n")
        );
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        if let Err(e) = self.try_send(line) {
            self.fail(&format!("cannot write {line:?} to the engine: {e}"));
        }
    }

    /// Sends one line, returning the write error instead of failing.
    pub fn try_send(&mut self, line: &str) -> std::io::Result<()> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.try_send_bytes(&bytes)
    }

    /// Sends raw bytes (nothing added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        if let Err(e) = self.try_send_bytes(bytes) {
            self.fail(&format!("cannot write {} raw bytes: {e}", bytes.len()));
        }
    }

    fn try_send_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        self.transcript.push(format!("> {}", shown.trim_end()));
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin already closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".to_owned());
        self.stdin = None;
    }

    /// The next line, waiting at most [`TIMEOUT`].
    pub fn recv(&mut self) -> String {
        self.recv_before(Instant::now() + TIMEOUT)
    }

    fn recv_before(&mut self, deadline: Instant) -> String {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                self.fail("the expected output did not come within 10 s")
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.fail("the engine closed its stdout while a line was expected")
            }
        }
    }

    /// Lines up to and including the first one that satisfies `done`, which
    /// must come within [`TIMEOUT`] (however many lines come before it).
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let line = self.recv_before(deadline);
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// Lines up to and including the first `bestmove` line.
    pub fn read_until_bestmove(&mut self) -> Vec<String> {
        self.read_until(is_bestmove)
    }

    /// Everything that arrives within `period` (less if stdout closes).
    pub fn collect_for(&mut self, period: Duration) -> Vec<String> {
        let end = Instant::now() + period;
        let mut lines = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) => return lines,
                Err(RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(left);
                    return lines;
                }
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Fails unless no line in `lines` is a `bestmove`.
    pub fn assert_no_bestmove(&self, lines: &[String], context: &str) {
        if let Some(b) = lines.iter().find(|l| is_bestmove(l)) {
            self.fail(&format!("{context}: unexpected {b:?}"));
        }
    }

    /// Waits (at most [`TIMEOUT`]) for the process to end; returns its
    /// status, the stdout lines not read yet and all of stderr.
    pub fn wait_exit(&mut self) -> (ExitStatus, Vec<String>, String) {
        let start = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if start.elapsed() < TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => self.fail("the engine did not exit within 10 s"),
                Err(e) => self.fail(&format!("waiting for the engine: {e}")),
            }
        };
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    rest.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    self.fail("stdout stayed open after the engine exited")
                }
            }
        }
        let stderr = self
            .stderr
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default();
        (status, rest, String::from_utf8_lossy(&stderr).into_owned())
    }

    /// Closes stdin and checks a clean exit: code 0, no panic on stderr.
    /// Returns the stdout lines that were not read yet.
    pub fn shutdown(mut self) -> Vec<String> {
        self.close_stdin();
        let (status, rest, stderr) = self.wait_exit();
        if status.code() != Some(0) {
            self.fail(&format!("exit status {status}, stderr: {stderr}"));
        }
        if stderr.contains("panicked") {
            self.fail(&format!("the engine panicked: {stderr}"));
        }
        rest
    }

    /// The `Fen:` line of `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(|l| l.starts_with("Checkers:"));
        match lines.iter().find_map(|l| l.strip_prefix("Fen: ")) {
            Some(fen) => fen.to_owned(),
            None => self.fail("`d` printed no `Fen: ` line"),
        }
    }

    /// `go perft depth`: the divide lines and the total.
    pub fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        self.send(&format!("go perft {depth}"));
        let lines = self.read_until(|l| l.starts_with("Nodes searched: "));
        let (last, body) = lines.split_last().expect("at least the total line");
        let Some(total) = last
            .strip_prefix("Nodes searched: ")
            .and_then(|n| n.parse().ok())
        else {
            self.fail(&format!("bad perft total line {last:?}"));
        };
        let Some((blank, divide)) = body.split_last() else {
            self.fail("perft printed no blank line before the total");
        };
        if !blank.is_empty() {
            self.fail(&format!(
                "expected a blank line before the total, got {blank:?}"
            ));
        }
        let mut counts = Vec::new();
        for line in divide {
            let parsed = line
                .split_once(": ")
                .and_then(|(m, n)| Some((m.to_owned(), n.parse::<u64>().ok()?)));
            match parsed {
                Some(entry) => counts.push(entry),
                None => self.fail(&format!("bad perft divide line {line:?}")),
            }
        }
        (counts, total)
    }

    /// Sets a position and checks that the engine accepted it silently.
    pub fn set_position(&mut self, command: &str) {
        self.send(command);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("{command:?} was not accepted silently: {lines:?}"));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a line is a `bestmove` line.
pub fn is_bestmove(line: &str) -> bool {
    line == "bestmove" || line.starts_with("bestmove ")
}

/// Counts the `bestmove` lines.
pub fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| is_bestmove(l)).count()
}

/// `bestmove M [ponder P]` → `(M, P)`.
pub fn parse_bestmove(line: &str) -> Option<(String, Option<String>)> {
    let tokens: Vec<&str> = line.split(' ').collect();
    match tokens.as_slice() {
        ["bestmove", m] => Some(((*m).to_owned(), None)),
        ["bestmove", m, "ponder", p] => Some(((*m).to_owned(), Some((*p).to_owned()))),
        _ => None,
    }
}

/// A score as `info` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `cp N`.
    Cp(i64),
    /// `mate N`.
    Mate(i64),
}

/// One parsed `info` line. Fields the line does not carry are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u64>,
    pub seldepth: Option<u64>,
    pub multipv: Option<u64>,
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Option<String>,
    /// `wdl W D L` (`UCI_ShowWDL`), right after the score and its bound.
    pub wdl: Option<[u64; 3]>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u64>,
    pub tbhits: Option<u64>,
    pub time: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

impl Info {
    /// A search progress line: `depth`, `seldepth`, `score`, `nodes`, `nps`,
    /// `time` and a non-empty `pv`, all present.
    pub fn is_progress(&self) -> bool {
        self.depth.is_some()
            && self.seldepth.is_some()
            && self.score.is_some()
            && self.nodes.is_some()
            && self.nps.is_some()
            && self.time.is_some()
            && !self.pv.is_empty()
    }
}

/// Parses an `info` line by the UCI grammar, strictly: only UCI's info
/// keywords, each at most once, each with a well-formed value; `pv` and
/// `string` take the rest of the line. (`refutation`, `currline`, `cpuload`
/// and `sbhits` are not expected from Shears and are refused.)
pub fn parse_info(line: &str) -> Result<Info, String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let bad = |what: String| Err(format!("{what} in {line:?}"));
    if tokens.first() != Some(&"info") || tokens.len() < 2 {
        return bad("not an info line".to_owned());
    }
    let mut info = Info::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 1;
    while i < tokens.len() {
        let key = tokens[i];
        if seen.contains(&key) {
            return bad(format!("{key:?} twice"));
        }
        seen.push(key);
        i += 1;
        let next = tokens.get(i).copied();
        let number = || next.and_then(|t| t.parse::<u64>().ok());
        match key {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "tbhits" | "time"
            | "currmovenumber" => {
                let Some(n) = number() else {
                    return bad(format!("{key:?} without a number"));
                };
                i += 1;
                let slot = match key {
                    "depth" => &mut info.depth,
                    "seldepth" => &mut info.seldepth,
                    "multipv" => &mut info.multipv,
                    "nodes" => &mut info.nodes,
                    "nps" => &mut info.nps,
                    "hashfull" => &mut info.hashfull,
                    "tbhits" => &mut info.tbhits,
                    "time" => &mut info.time,
                    _ => &mut info.currmovenumber,
                };
                *slot = Some(n);
            }
            "score" => {
                let value = tokens.get(i + 1).and_then(|t| t.parse::<i64>().ok());
                info.score = match (next, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => return bad("bad score".to_owned()),
                };
                i += 2;
                if let Some(b @ ("lowerbound" | "upperbound")) = tokens.get(i).copied() {
                    info.bound = Some(b.to_owned());
                    i += 1;
                }
            }
            "wdl" => {
                if !matches!(
                    tokens.get(i - 2).copied(),
                    Some("lowerbound" | "upperbound")
                ) && i.checked_sub(4).and_then(|j| tokens.get(j)).copied() != Some("score")
                {
                    return bad("wdl not right after the score".to_owned());
                }
                let parts: Vec<u64> = tokens[i..]
                    .iter()
                    .take(3)
                    .map_while(|t| t.parse().ok())
                    .collect();
                let [w, d, l] = parts[..] else {
                    return bad("wdl without three numbers".to_owned());
                };
                info.wdl = Some([w, d, l]);
                i += 3;
            }
            "currmove" => {
                let Some(m) = next.filter(|m| is_move_text(m)) else {
                    return bad("currmove without a move".to_owned());
                };
                info.currmove = Some(m.to_owned());
                i += 1;
            }
            "pv" => {
                info.pv = tokens[i..].iter().map(|t| (*t).to_owned()).collect();
                if info.pv.is_empty() || !info.pv.iter().all(|m| is_move_text(m)) {
                    return bad("bad pv".to_owned());
                }
                i = tokens.len();
            }
            "string" => {
                info.string = Some(tokens[i..].join(" "));
                i = tokens.len();
            }
            _ => return bad(format!("unexpected {key:?}")),
        }
    }
    if tokens[1] != "depth" && tokens[1] != "string" {
        return bad("an info line here starts with depth or string".to_owned());
    }
    Ok(info)
}

/// UCI move syntax: `e2e4`, `e7e8q`.
fn is_move_text(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Plays `moves` from `pos`, failing with the first illegal one.
pub fn play_line(pos: &Position, moves: &[String], chess960: bool) -> Result<Position, String> {
    let mut pos = pos.clone();
    for m in moves {
        let mv = pos
            .parse_move(m, chess960)
            .map_err(|e| format!("{m} is not legal in {}: {e}", pos.fen()))?;
        pos.play(mv);
    }
    Ok(pos)
}

/// The `info string` a search sends first when its net plays for the
/// first time (uci_nnue.rs checks it).
pub const NET_NEWS: &str = "info string NNUE evaluation using net ";

/// Sends `go`, reads to its `bestmove`, and checks: the lines before the
/// search are warnings holding `warnings` (in order), besides the name of
/// a net that plays for the first time ([`NET_NEWS`]), there is one
/// `bestmove`, it is legal in `pos` (with its ponder move), and no error
/// was printed. Returns the lines.
pub fn go_answered(e: &mut Engine, pos: &Position, go: &str, warnings: &[&str]) -> Vec<String> {
    e.send(go);
    let lines = e.read_until_bestmove();
    let said: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string ") && !l.starts_with(NET_NEWS))
        .collect();
    assert_eq!(said.len(), warnings.len(), "{go:?}: {lines:?}");
    for (line, fragment) in said.iter().zip(warnings) {
        assert!(
            line.starts_with("info string warning: ") && line.contains(fragment),
            "{go:?}: {line:?} lacks {fragment:?}"
        );
    }
    assert_eq!(count_bestmoves(&lines), 1, "{go:?}: {lines:?}");
    let (best, ponder) = parse_bestmove(lines.last().unwrap()).expect("a bestmove line");
    let mut played = vec![best];
    played.extend(ponder);
    if let Err(err) = play_line(pos, &played, false) {
        panic!("{go:?}: {err}: {lines:?}");
    }
    assert!(e.sync().is_empty(), "{go:?}: output after bestmove");
    lines
}

/// The FEN after `moves` from the start position (computed by the library).
pub fn startpos_after(moves: &[&str]) -> String {
    let mut pos = Position::startpos();
    pos.play_uci_moves(moves.iter().copied(), false)
        .expect("test moves are legal");
    pos.fen()
}

/// Runs the binary as a command-line tool, `shears ARGS`, in `dir` (give it
/// a directory without an engine.toml), and waits for it.
pub fn run_cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shears"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary starts")
}

/// A process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
