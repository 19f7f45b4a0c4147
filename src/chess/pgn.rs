//! PGN games in: a streaming reader ([`PgnReader`]) that splits a file into
//! games, each with its tags, its main-line moves as SAN text and its
//! result, and the main line played out on a board ([`PgnGame::mainline`]).
//!
//! What it reads: tag pairs (`[Name "value"]`, with `\"` and `\\`
//! escapes), move numbers (`12.`, `12...`, `1.e4`), SAN moves (castling as
//! `O-O` or `0-0`), comments (`{…}`, `;` to the end of the line, `%` lines),
//! variations `( … )` to any depth (skipped), NAGs (`$14`) and suffix
//! annotations (`!`, `?!`…), and the results `1-0`, `0-1`, `1/2-1/2`, `*`.
//! A game without a result ends where the next one's tags begin, or at the
//! end of the file.
//!
//! What it does not do: decide anything about a broken game. A syntax error
//! is kept in [`PgnGame::error`] with its line, the reader moves on to the
//! next game, and the caller says what it skips. Only I/O errors stop it.
//!
//! ```
//! use shears::chess::pgn::{GameResult, PgnReader};
//! let text = "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Qh5?! 1-0\n";
//! let games: Vec<_> = PgnReader::new(text.as_bytes()).map(Result::unwrap).collect();
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].result(), GameResult::WhiteWins);
//! let (_, moves) = games[0].mainline(usize::MAX).unwrap();
//! assert_eq!(moves.len(), 3);
//! ```

use std::io::{self, Read};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position as _};

/// Bytes read from the input at a time.
const CHUNK: usize = 1 << 16;
/// Longest token kept (a move, a tag name or value); longer ones are errors.
const MAX_TOKEN: usize = 255;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*` or anything else: unknown or unfinished.
    Unknown,
}

impl GameResult {
    /// The result a PGN result token (or `Result` tag) names, if it is one.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// A SAN move as written, with the line it is on and the comment after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanText {
    /// The text (`Nf3`, `exd8=Q+`, `O-O`).
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// The text of the first `{…}` comment that follows the move in the
    /// main line, before the next move (a match runner writes the engine's
    /// score and time there: `{+0.31/12 0.234s}`), at most
    /// [`MAX_COMMENT`] bytes of it.
    pub comment: Option<String>,
}

/// Longest comment kept after a move, bytes; the rest is dropped.
pub const MAX_COMMENT: usize = 4096;

/// One game as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// Line of its first token.
    pub line: usize,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The main line's moves, as written.
    pub moves: Vec<SanText>,
    /// The result token that ended the movetext, if any.
    pub termination: Option<GameResult>,
    /// The first syntax error, with its line.
    pub error: Option<String>,
}

impl PgnGame {
    /// The value of the first tag named `name` (names are case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result: the `Result` tag's, else the result token's, else unknown.
    pub fn result(&self) -> GameResult {
        self.tag("Result")
            .and_then(|r| GameResult::parse(r.trim()))
            .or(self.termination)
            .unwrap_or(GameResult::Unknown)
    }

    /// The game for a message: `game 3 (line 41, Carlsen - Caruana)`.
    pub fn describe(&self) -> String {
        let players = match (self.tag("White"), self.tag("Black")) {
            (Some(w), Some(b)) => {
                format!(", {} - {}", crate::error::echo(w), crate::error::echo(b))
            }
            _ => String::new(),
        };
        format!("game {} (line {}{players})", self.number, self.line)
    }

    /// The position the game starts from: the `FEN` tag's (Chess960
    /// castling when the `Variant` tag names Chess960), else the standard
    /// start.
    ///
    /// # Errors
    ///
    /// A message for a variant other than chess or Chess960, or a bad FEN.
    pub fn start(&self) -> Result<Chess, String> {
        let mode = match self.tag("Variant").map(str::to_ascii_lowercase) {
            None => CastlingMode::Standard,
            Some(v) if v.is_empty() || v == "standard" || v == "chess" => CastlingMode::Standard,
            Some(v) if v.contains("960") || v.contains("fischer") => CastlingMode::Chess960,
            Some(v) => {
                return Err(format!(
                    "variant \"{}\" is not supported",
                    crate::error::echo(&v)
                ));
            }
        };
        let Some(fen) = self.tag("FEN") else {
            return Ok(Chess::default());
        };
        let setup: Fen = fen
            .trim()
            .parse()
            .map_err(|e| format!("bad FEN tag \"{}\": {e}", crate::error::echo(fen)))?;
        setup
            .into_position(mode)
            .map_err(|e| format!("illegal FEN tag \"{}\": {e}", crate::error::echo(fen)))
    }

    /// The start position and the first `max_plies` moves of the main line
    /// (all of them if there are fewer), each checked for legality. Moves
    /// beyond `max_plies` are not looked at.
    ///
    /// # Errors
    ///
    /// The syntax error of the game, or a message naming the first move
    /// that is not SAN or not legal, with its ply and line.
    pub fn mainline(&self, max_plies: usize) -> Result<(Chess, Vec<Move>), String> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let start = self.start()?;
        let mut board = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len().min(max_plies));
        for (ply, san) in self.moves.iter().take(max_plies).enumerate() {
            let what = || format!("ply {} \"{}\" (line {})", ply + 1, san.text, san.line);
            let parsed = SanPlus::from_ascii(san.text.as_bytes())
                .map_err(|_| format!("{} is not a SAN move", what()))?;
            let m = parsed.san.to_move(&board).map_err(|e| {
                let fen = Fen::from_position(&board, shakmaty::EnPassantMode::Legal);
                format!("{} is {e} in {fen}", what())
            })?;
            // `to_move` returns only legal moves of `board`.
            board.play_unchecked(m);
            moves.push(m);
        }
        Ok((start, moves))
    }
}

/// Splits PGN text into games; see the module docs.
pub struct PgnReader<R> {
    input: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// 1-based line and 0-based column of the next byte.
    line: usize,
    column: usize,
    games: usize,
    done: bool,
}

/// Whether a token may start with `c` (a move, a move number, a result or
/// `--`).
fn is_symbol_start(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}

/// Whether a token may go on with `c`.
fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"_+#=:-/".contains(&c)
}

impl<R: Read> PgnReader<R> {
    /// A reader of the PGN text `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            buf: vec![0; CHUNK],
            pos: 0,
            len: 0,
            line: 1,
            column: 0,
            games: 0,
            done: false,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.len {
            self.len = loop {
                match self.input.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            self.pos = 0;
            if self.len == 0 {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    fn bump(&mut self) -> io::Result<Option<u8>> {
        let c = self.peek()?;
        if let Some(c) = c {
            self.pos += 1;
            if c == b'\n' {
                self.line += 1;
                self.column = 0;
            } else {
                self.column += 1;
            }
        }
        Ok(c)
    }

    /// Skips to the end of the line (the newline is consumed).
    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(c) = self.bump()? {
            if c == b'\n' {
                break;
            }
        }
        Ok(())
    }

    /// Skips white space and comments; a comment left open at the end of
    /// the input is an error of `game`. With `main_line`, the first brace
    /// comment after the game's last move is kept as its comment.
    fn skip_blanks(&mut self, game: &mut PgnGame, main_line: bool) -> io::Result<()> {
        while let Some(c) = self.peek()? {
            match c {
                b'%' if self.column == 0 => self.skip_line()?,
                b';' => self.skip_line()?,
                b'{' => {
                    let line = self.line;
                    self.bump()?;
                    let mut text = Vec::new();
                    loop {
                        match self.bump()? {
                            Some(b'}') => break,
                            Some(c) => {
                                if text.len() < MAX_COMMENT {
                                    text.push(c);
                                }
                            }
                            None => {
                                fail(game, line, "comment \"{\" is never closed");
                                return Ok(());
                            }
                        }
                    }
                    if main_line
                        && let Some(last) = game.moves.last_mut()
                        && last.comment.is_none()
                    {
                        last.comment = Some(String::from_utf8_lossy(&text).trim().to_owned());
                    }
                }
                // A UTF-8 byte order mark.
                0xEF | 0xBB | 0xBF if self.line == 1 && self.column < 3 => {
                    self.bump()?;
                }
                c if c.is_ascii_whitespace() => {
                    self.bump()?;
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// Reads a token of symbol characters (the first is known to be one).
    fn symbol(&mut self) -> io::Result<Vec<u8>> {
        let mut token = Vec::new();
        while let Some(c) = self.peek()? {
            if !is_symbol_char(c) {
                break;
            }
            self.bump()?;
            if token.len() <= MAX_TOKEN {
                token.push(c);
            }
        }
        Ok(token)
    }

    /// Reads a tag pair (at its `[`) into `game`; a malformed one is an
    /// error of the game, and the rest of its line is skipped.
    fn tag(&mut self, game: &mut PgnGame) -> io::Result<()> {
        let line = self.line;
        self.bump()?;
        match self.tag_pair()? {
            Ok(pair) => game.tags.push(pair),
            Err(reason) => {
                fail(game, line, &format!("malformed tag: {reason}"));
                if self.column != 0 {
                    self.skip_line()?;
                }
            }
        }
        Ok(())
    }

    fn tag_pair(&mut self) -> io::Result<Result<(String, String), &'static str>> {
        self.skip_spaces()?;
        let mut name = Vec::new();
        while let Some(c) = self.peek()? {
            if !(c.is_ascii_alphanumeric() || c == b'_') {
                break;
            }
            self.bump()?;
            name.push(c);
        }
        if name.is_empty() || name.len() > MAX_TOKEN {
            return Ok(Err("no tag name"));
        }
        self.skip_spaces()?;
        if self.peek()? != Some(b'"') {
            return Ok(Err("no quoted value"));
        }
        self.bump()?;
        let mut value = Vec::new();
        loop {
            match self.peek()? {
                None | Some(b'\n') => return Ok(Err("the value's quote is never closed")),
                Some(b'"') => {
                    self.bump()?;
                    break;
                }
                Some(b'\\') => {
                    self.bump()?;
                    match self.peek()? {
                        Some(c @ (b'"' | b'\\')) => {
                            self.bump()?;
                            value.push(c);
                        }
                        _ => value.push(b'\\'),
                    }
                }
                Some(c) => {
                    self.bump()?;
                    value.push(c);
                }
            }
            if value.len() > 4 * MAX_TOKEN {
                return Ok(Err("the value is too long"));
            }
        }
        self.skip_spaces()?;
        if self.peek()? != Some(b']') {
            return Ok(Err("no closing \"]\""));
        }
        self.bump()?;
        Ok(Ok((
            String::from_utf8_lossy(&name).into_owned(),
            String::from_utf8_lossy(&value).into_owned(),
        )))
    }

    fn skip_spaces(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.bump()?;
        }
        Ok(())
    }

    /// The next game, `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// Only when the input cannot be read.
    pub fn next_game(&mut self) -> io::Result<Option<PgnGame>> {
        let mut game = PgnGame {
            number: self.games + 1,
            ..PgnGame::default()
        };
        let mut started = false;
        let mut in_movetext = false;
        let mut depth = 0usize;
        loop {
            self.skip_blanks(&mut game, depth == 0)?;
            let Some(c) = self.peek()? else {
                break;
            };
            if !started {
                started = true;
                game.line = self.line;
            }
            let line = self.line;
            match c {
                // The next game's tags: this one had no result.
                b'[' if in_movetext && (depth == 0 || self.column == 0) => {
                    if depth > 0 {
                        fail(&mut game, line, "a variation \"(\" is never closed");
                    }
                    break;
                }
                b'[' => self.tag(&mut game)?,
                b'(' => {
                    self.bump()?;
                    depth += 1;
                    in_movetext = true;
                }
                b')' => {
                    self.bump()?;
                    if depth == 0 {
                        fail(&mut game, line, "\")\" closes no variation");
                    }
                    depth = depth.saturating_sub(1);
                }
                b'$' => {
                    self.bump()?;
                    while let Some(b'0'..=b'9') = self.peek()? {
                        self.bump()?;
                    }
                }
                b'!' | b'?' | b'.' => {
                    self.bump()?;
                }
                b'*' => {
                    self.bump()?;
                    in_movetext = true;
                    if depth == 0 {
                        game.termination = Some(GameResult::Unknown);
                        break;
                    }
                }
                c if is_symbol_start(c) => {
                    in_movetext = true;
                    let token = self.symbol()?;
                    if depth > 0 {
                        continue;
                    }
                    let text = String::from_utf8_lossy(&token);
                    if let Some(result) = GameResult::parse(&text) {
                        game.termination = Some(result);
                        break;
                    }
                    if token.iter().all(u8::is_ascii_digit) {
                        continue; // a move number
                    }
                    if token.len() > MAX_TOKEN {
                        fail(&mut game, line, "a move token is too long");
                        continue;
                    }
                    let text = match text.as_ref() {
                        "0-0" => "O-O".to_owned(),
                        "0-0-0" => "O-O-O".to_owned(),
                        t => t.to_owned(),
                    };
                    game.moves.push(SanText {
                        text,
                        line,
                        comment: None,
                    });
                }
                other => {
                    self.bump()?;
                    in_movetext = true;
                    let shown = if other.is_ascii_graphic() {
                        format!("\"{}\"", other as char)
                    } else {
                        format!("byte 0x{other:02x}")
                    };
                    fail(&mut game, line, &format!("unexpected {shown}"));
                }
            }
        }
        if !started {
            self.done = true;
            return Ok(None);
        }
        if depth > 0 && game.termination.is_none() && self.peek()?.is_none() {
            fail(&mut game, self.line, "a variation \"(\" is never closed");
        }
        self.games += 1;
        Ok(Some(game))
    }
}

/// Records the first syntax error of a game.
fn fail(game: &mut PgnGame, line: usize, reason: &str) {
    if game.error.is_none() {
        game.error = Some(format!("line {line}: {reason}"));
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = io::Result<PgnGame>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_game() {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
