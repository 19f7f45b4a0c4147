//! Point suites: EPD lines that give several moves points, as the Strategic
//! Test Suite (STS) does:
//!
//! ```text
//! … bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";
//! ```
//!
//! The points come from `c8` (points) and `c9` (the moves, UCI) when both
//! are there with as many entries; otherwise from `c0` when it is a list
//! `MOVE=POINTS, …` (SAN). A `c0` whose first item is not of that shape is
//! an ordinary comment and gives no points. A move that is not listed scores
//! 0; a position's maximum is its highest listed value. A move listed twice
//! (seven lines of STS 1–15 list one with two values) scores its first
//! value, as fsmosca's STS Rating, the usual runner of these files, does.
//!
//! This module reads the fields' text ([`point_list`]), holds the resolved
//! moves ([`MovePoints`]) and adds up the scores by theme ([`by_theme`],
//! [`report_lines`]). Resolving the move texts against the position is
//! `epd`'s job, as it is for `bm`/`am`; whether a position is *solved* stays
//! a matter of `bm`/`am` and is not decided here.
//!
//! A theme is the `id` without its trailing number ([`theme_of`]):
//! `STS(v1.0) Undermine.001` is in `STS(v1.0) Undermine`.
//!
//! `scripts/sts_uci.py` scores any UCI engine by the same rules and prints
//! the same table; keep the two in step.

use shakmaty::Move;

use shears::error::echo;

/// A point list as written in the line: `(move text, points)` in field
/// order, and the field the moves came from (`c9` or `c0`, for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointList {
    /// `"c9"` (points from `c8`) or `"c0"`.
    pub field: &'static str,
    /// The moves as written, each with its points.
    pub items: Vec<(String, u32)>,
}

/// Reads the point list of a line from the text of its `c0`, `c8` and `c9`
/// operations (each `None` when the line has no such operation).
///
/// `c8` + `c9` are used when both are present, `c8` holds only whole
/// numbers and they have as many entries; otherwise `c0` when it is a point
/// list. `Ok(None)`: the line gives no points.
///
/// # Errors
///
/// When `c0` starts as a point list but an item is not `MOVE=POINTS`, or
/// when `c8` and `c9` are both present but unusable and `c0` gives no list
/// either.
pub fn point_list(
    c0: Option<&str>,
    c8: Option<&str>,
    c9: Option<&str>,
) -> Result<Option<PointList>, String> {
    let paired = match (c8, c9) {
        (Some(points), Some(moves)) => Some(c8_c9_items(points, moves)),
        _ => None,
    };
    if let Some(Ok(items)) = paired {
        return Ok(Some(PointList { field: "c9", items }));
    }
    let from_c0 = c0.map(c0_items).transpose()?.flatten();
    match (from_c0, paired) {
        (Some(items), _) => Ok(Some(PointList { field: "c0", items })),
        (None, Some(Err(reason))) => Err(format!("c8/c9: {reason}")),
        (None, _) => Ok(None),
    }
}

/// The pairs of `c8` (points) and `c9` (moves).
fn c8_c9_items(points: &str, moves: &str) -> Result<Vec<(String, u32)>, String> {
    let points: Vec<&str> = points.split_whitespace().collect();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    if moves.is_empty() {
        return Err("no moves".to_owned());
    }
    if points.len() != moves.len() {
        return Err(format!(
            "c8 has {} entries, c9 has {}",
            points.len(),
            moves.len()
        ));
    }
    moves
        .iter()
        .zip(&points)
        .map(|(m, p)| Ok(((*m).to_owned(), parse_points(p)?)))
        .collect()
}

/// The items of a `c0` point list (`f5=10, Be5+=2`), or `None` when `c0`
/// is a comment (its first item is not `MOVE=POINTS`).
fn c0_items(text: &str) -> Result<Option<Vec<(String, u32)>>, String> {
    let mut items = text.split(',').map(str::trim).filter(|s| !s.is_empty());
    let Some(first) = items.next().and_then(c0_item) else {
        return Ok(None);
    };
    let mut list = vec![first?];
    for item in items {
        match c0_item(item) {
            Some(pair) => list.push(pair?),
            None => {
                return Err(format!(
                    "c0: cannot read \"{}\" (expected MOVE=POINTS)",
                    echo(item)
                ));
            }
        }
    }
    Ok(Some(list))
}

/// One `MOVE=POINTS` item: `None` when it does not have that shape (one
/// word, one `=`), an error when the points are not a whole number.
fn c0_item(item: &str) -> Option<Result<(String, u32), String>> {
    let (mv, points) = item.rsplit_once('=')?;
    if mv.is_empty() || points.is_empty() || item.contains(char::is_whitespace) {
        return None;
    }
    Some(parse_points(points).map(|p| (mv.to_owned(), p)))
}

/// A whole number of points: ASCII digits only (no sign), below 2^32.
fn parse_points(text: &str) -> Result<u32, String> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
        .ok_or_else(|| format!("bad points \"{}\"", echo(text)))
}

/// The points of one position, its moves resolved, each move once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovePoints {
    moves: Vec<(Move, u32)>,
}

impl MovePoints {
    /// The list, in field order; a move listed again is dropped (its first
    /// value counts).
    pub fn new(listed: impl IntoIterator<Item = (Move, u32)>) -> Self {
        let mut moves: Vec<(Move, u32)> = Vec::new();
        for (m, points) in listed {
            if !moves.iter().any(|(earlier, _)| *earlier == m) {
                moves.push((m, points));
            }
        }
        Self { moves }
    }

    /// The listed moves with their points, in field order.
    pub fn moves(&self) -> &[(Move, u32)] {
        &self.moves
    }

    /// What playing `m` scores: its listed points, else 0 (no move: 0).
    pub fn of(&self, m: Option<Move>) -> u32 {
        m.and_then(|m| self.moves.iter().find(|(listed, _)| *listed == m))
            .map_or(0, |(_, points)| *points)
    }

    /// The most a move scores here.
    pub fn max(&self) -> u32 {
        self.moves.iter().map(|(_, p)| *p).max().unwrap_or(0)
    }

    /// The moves that score [`Self::max`].
    pub fn best_moves(&self) -> Vec<Move> {
        let max = self.max();
        self.moves
            .iter()
            .filter(|(_, p)| *p == max)
            .map(|(m, _)| *m)
            .collect()
    }
}

/// What one position scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointScore {
    /// Points of the move played.
    pub got: u32,
    /// The most a move scores there.
    pub max: u32,
}

/// The theme of an `id`: the id without its trailing number and the
/// separator before it (`.`, `-`, `_`, `#`, `:` or spaces). An id that is
/// all number, or has none, is its own theme.
///
/// ```
/// use shears_tools::suites::epd_points::theme_of;
/// assert_eq!(theme_of("STS(v1.0) Undermine.001"), "STS(v1.0) Undermine");
/// assert_eq!(theme_of("WAC 12"), "WAC");
/// assert_eq!(theme_of("back rank"), "back rank");
/// assert_eq!(theme_of("042"), "042");
/// ```
pub fn theme_of(id: &str) -> &str {
    let stem = id.trim_end_matches(|c: char| c.is_ascii_digit());
    if stem.len() == id.len() {
        return id;
    }
    let theme = stem.trim_end_matches(|c: char| c.is_whitespace() || ".-_#:".contains(c));
    if theme.is_empty() { id } else { theme }
}

/// The points of one theme (or of a whole suite).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeScore {
    /// The theme ([`theme_of`] the ids).
    pub theme: String,
    /// Positions with points in it.
    pub positions: usize,
    /// Points scored.
    pub got: u64,
    /// Most points possible.
    pub max: u64,
}

impl ThemeScore {
    fn new(theme: &str) -> Self {
        Self {
            theme: theme.to_owned(),
            positions: 0,
            got: 0,
            max: 0,
        }
    }

    fn add(&mut self, score: PointScore) {
        self.positions += 1;
        self.got += u64::from(score.got);
        self.max += u64::from(score.max);
    }

    /// The share of the maximum as a percentage with one decimal (`61.2%`),
    /// rounded half up in integers so that every runner prints the same;
    /// `-` when nothing could be scored.
    pub fn percent(&self) -> String {
        if self.max == 0 {
            return "-".to_owned();
        }
        let tenths = (self.got * 1000 + self.max / 2) / self.max;
        format!("{}.{}%", tenths / 10, tenths % 10)
    }
}

/// The scores of each theme, in order of first appearance, from the
/// `(theme, score)` of every position that has points.
pub fn by_theme<'a>(scores: impl IntoIterator<Item = (&'a str, PointScore)>) -> Vec<ThemeScore> {
    let mut themes: Vec<ThemeScore> = Vec::new();
    for (theme, score) in scores {
        let index = match themes.iter().position(|t| t.theme == theme) {
            Some(i) => i,
            None => {
                themes.push(ThemeScore::new(theme));
                themes.len() - 1
            }
        };
        themes[index].add(score);
    }
    themes
}

/// The table printed for a point suite: one line per theme, aligned
/// (`<theme>  <got>/<max>  <pct>%  <n> positions`), then
/// `total: <got>/<max> (<pct>%)`. Empty when no theme has points.
pub fn report_lines(themes: &[ThemeScore]) -> Vec<String> {
    if themes.is_empty() {
        return Vec::new();
    }
    let fraction = |t: &ThemeScore| format!("{}/{}", t.got, t.max);
    let name_width = themes.iter().map(|t| t.theme.chars().count()).max();
    let fraction_width = themes.iter().map(|t| fraction(t).len()).max();
    let (name_width, fraction_width) = (name_width.unwrap_or(0), fraction_width.unwrap_or(0));
    let mut total = ThemeScore::new("total");
    let mut lines = Vec::with_capacity(themes.len() + 1);
    for t in themes {
        total.positions += t.positions;
        total.got += t.got;
        total.max += t.max;
        lines.push(format!(
            "{:<name_width$}  {:>fraction_width$}  {:>6}  {} position{}",
            t.theme,
            fraction(t),
            t.percent(),
            t.positions,
            if t.positions == 1 { "" } else { "s" }
        ));
    }
    lines.push(format!(
        "total: {}/{} ({})",
        total.got,
        total.max,
        total.percent()
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::epd::parse_epd;
    use shears::chess::move_to_uci;

    const STS_FEN: &str = "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - -";

    fn items(list: &[(&str, u32)]) -> Vec<(String, u32)> {
        list.iter().map(|(m, p)| ((*m).to_owned(), *p)).collect()
    }

    fn uci_points(points: &MovePoints) -> Vec<(String, u32)> {
        points
            .moves()
            .iter()
            .map(|(m, p)| (move_to_uci(*m, false), *p))
            .collect()
    }

    #[test]
    fn c8_c9_are_preferred_to_c0() {
        let list = point_list(Some("f5=10, Be5+=2"), Some("10 3"), Some("f4f5 d4f2"))
            .unwrap()
            .unwrap();
        assert_eq!(list.field, "c9");
        assert_eq!(list.items, items(&[("f4f5", 10), ("d4f2", 3)]));
    }

    #[test]
    fn unusable_c8_c9_fall_back_to_c0_or_are_an_error() {
        let c0 = Some("f5=10, Be5+=2");
        for (c8, c9) in [("10 2 3", "f4f5 d4e5"), ("10 x", "f4f5 d4e5"), ("", "")] {
            let list = point_list(c0, Some(c8), Some(c9)).unwrap().unwrap();
            assert_eq!(list.field, "c0", "{c8} / {c9}");
            assert_eq!(list.items, items(&[("f5", 10), ("Be5+", 2)]));
        }
        assert_eq!(
            point_list(None, Some("10 2 3"), Some("f4f5 d4e5")),
            Err("c8/c9: c8 has 3 entries, c9 has 2".to_owned())
        );
        assert_eq!(
            point_list(Some("a comment"), Some("10 -2"), Some("f4f5 d4e5")),
            Err("c8/c9: bad points \"-2\"".to_owned())
        );
        // Only one of the two is not a point list: they are comments.
        assert_eq!(point_list(None, Some("10 2"), None), Ok(None));
        assert_eq!(point_list(None, None, Some("f4f5")), Ok(None));
    }

    #[test]
    fn c0_is_a_point_list_only_when_it_starts_as_one() {
        assert_eq!(
            point_list(Some("Rxd5 wins the queen"), None, None),
            Ok(None)
        );
        assert_eq!(point_list(Some("x = 1, y = 2"), None, None), Ok(None));
        assert_eq!(point_list(Some(""), None, None), Ok(None));
        let list = point_list(Some(" O-O=10 ,Nf3=5, "), None, None)
            .unwrap()
            .unwrap();
        assert_eq!(list.items, items(&[("O-O", 10), ("Nf3", 5)]));
        assert_eq!(
            point_list(Some("f5=10, Be5+ is good"), None, None),
            Err("c0: cannot read \"Be5+ is good\" (expected MOVE=POINTS)".to_owned())
        );
        for points in ["99999999999", "+5", "-0", "1.5"] {
            assert_eq!(
                point_list(Some(&format!("f5=10, Be5+={points}")), None, None),
                Err(format!("bad points \"{points}\"")),
            );
        }
    }

    #[test]
    fn sts_line_gets_its_points_and_theme() {
        let line = format!(
            "{STS_FEN} bm f5; id \"STS(v1.0) Undermine.001\"; \
             c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\"; c7 \"f5 Be5+ Bf2 Bg4\"; \
             c8 \"10 2 3 2\"; c9 \"f4f5 d4e5 d4f2 f3g4\";"
        );
        let (entries, errors) = parse_epd(&line);
        assert!(errors.is_empty(), "{errors:?}");
        let e = &entries[0];
        assert_eq!(e.theme, "STS(v1.0) Undermine");
        let points = e.points.as_ref().unwrap();
        let expected = items(&[("f4f5", 10), ("d4e5", 2), ("d4f2", 3), ("f3g4", 2)]);
        assert_eq!(uci_points(points), expected);
        assert_eq!(points.max(), 10);
        assert_eq!(points.of(Some(points.moves()[2].0)), 3);
        assert_eq!(points.of(None), 0);
        let unlisted = e.position.parse_move("e2e4", false).unwrap();
        assert_eq!(points.of(Some(unlisted)), 0);

        // The same points from c0 alone: SAN resolved against the position.
        let c0_only = format!("{STS_FEN} bm f5; id \"x.1\"; c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";");
        let (entries, errors) = parse_epd(&c0_only);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(uci_points(entries[0].points.as_ref().unwrap()), expected);
    }

    #[test]
    fn bad_point_moves_are_bad_lines_and_the_rest_still_parse() {
        let text = format!(
            "{STS_FEN} bm f5; c0 \"f5=10, Nf3=2\";\n\
             {STS_FEN} bm f5; c0 \"f5=10, Be5+=2\";\n\
             {STS_FEN} bm f5; c8 \"10 2\"; c9 \"f4f5 d4d8\";\n\
             {STS_FEN} bm f5; c8 \"10 2\"; c9 \"f4f5\";\n\
             {STS_FEN} c0 \"just a comment\";\n\
             {STS_FEN} c8 \"2 10 10\"; c9 \"d4e5 f4f5 d4f2\";\n"
        );
        let (entries, errors) = parse_epd(&text);
        let reasons: Vec<(usize, &str)> =
            errors.iter().map(|e| (e.line, e.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                (1, "c0: illegal move \"Nf3\""),
                (3, "c9: illegal move \"d4d8\""),
                (4, "c8/c9: c8 has 2 entries, c9 has 1"),
                (5, "no bm, am or points"),
            ]
        );
        assert_eq!(entries.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 6]);
        // Points without bm: the moves with the most points solve it.
        let e = &entries[1];
        assert_eq!(e.theme, "(no id)");
        assert_eq!(e.expected, "most points f5 Bf2");
        assert!(e.is_solved_by(Some(e.points.as_ref().unwrap().moves()[2].0)));
        assert!(!e.is_solved_by(Some(e.points.as_ref().unwrap().moves()[0].0)));
    }

    #[test]
    fn a_move_listed_twice_scores_its_first_value() {
        // STS 1-15 line 954: "Qxe8=10, Bb2=5, h3=5, Nf4=5, Nf4=6".
        let (entries, errors) = parse_epd(&format!(
            "{STS_FEN} bm f5; c8 \"3 10 9\"; c9 \"d4f2 f4f5 d4f2\";"
        ));
        assert!(errors.is_empty(), "{errors:?}");
        let points = entries[0].points.as_ref().unwrap();
        assert_eq!(uci_points(points), items(&[("d4f2", 3), ("f4f5", 10)]));
        assert_eq!(points.max(), 10);
    }

    #[test]
    fn theme_drops_the_trailing_number_only() {
        assert_eq!(
            theme_of("STS(v9.0) Advancement of a/b/c pawns.100"),
            "STS(v9.0) Advancement of a/b/c pawns"
        );
        assert_eq!(theme_of("BK.05"), "BK");
        assert_eq!(theme_of("ECM 1.1"), "ECM 1");
        assert_eq!(theme_of("pos-7"), "pos");
        assert_eq!(theme_of("KRvK"), "KRvK");
        assert_eq!(theme_of(""), "");
    }

    #[test]
    fn themes_add_up_in_order_of_first_appearance_and_print_aligned() {
        let score = |got, max| PointScore { got, max };
        let themes = by_theme([
            ("B theme", score(10, 10)),
            ("A", score(3, 10)),
            ("B theme", score(0, 10)),
            ("A", score(2, 5)),
        ]);
        assert_eq!(
            themes
                .iter()
                .map(|t| (t.theme.as_str(), t.positions, t.got, t.max))
                .collect::<Vec<_>>(),
            [("B theme", 2, 10, 20), ("A", 2, 5, 15)]
        );
        assert_eq!(
            report_lines(&themes),
            [
                "B theme  10/20   50.0%  2 positions",
                "A         5/15   33.3%  2 positions",
                "total: 15/35 (42.9%)",
            ]
        );
        assert!(report_lines(&[]).is_empty());
    }

    #[test]
    fn percent_rounds_half_up_and_shows_no_maximum() {
        let t = |got, max| ThemeScore {
            theme: String::new(),
            positions: 1,
            got,
            max,
        };
        assert_eq!(t(1, 2000).percent(), "0.1%");
        assert_eq!(t(1, 2001).percent(), "0.0%");
        assert_eq!(t(2, 3).percent(), "66.7%");
        assert_eq!(t(10, 10).percent(), "100.0%");
        assert_eq!(t(0, 0).percent(), "-");
    }
}
