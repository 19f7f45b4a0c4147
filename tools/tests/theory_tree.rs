//! The pictures of `shears tree` and the command line of `tree` and
//! `compare`: the SVG is well-formed XML whose boxes add up to the search's
//! own counters (every visit drawn or folded, every pruned part drawn as a
//! stub), and bad input is refused with exit code 2.

use std::process::{Command, Output};

use shears::chess::Position;
use shears::search::theory::{
    Algorithm, MoveOrdering, SearchTree, TheoryConfig, TheoryLimits, TheoryResult, search,
};
use shears_tools::theory::picture::Picture;
use shears_tools::theory::{dot, svg};

/// A position with captures on both sides (MVV-LVA has work to do).
const TACTICAL: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// What an SVG's boxes add up to.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    /// Visits of drawn nodes plus visits folded away.
    visits: u64,
    /// Stub boxes plus nodes with stubs folded away.
    stubs: u64,
    /// Nodes drawn on the principal variation.
    pv_nodes: usize,
    /// Drawn nodes.
    drawn: usize,
}

fn count_svg(text: &str) -> Counted {
    let doc = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut c = Counted::default();
    let number = |n: &roxmltree::Node, attr: &str| -> u64 {
        n.attribute(attr)
            .unwrap_or_else(|| panic!("{attr} on {n:?}"))
            .parse()
            .expect("a number")
    };
    for n in doc.descendants().filter(|n| n.has_tag_name("g")) {
        let class = n.attribute("class").unwrap_or("");
        if class.starts_with("node") {
            c.visits += number(&n, "data-visits");
            c.drawn += 1;
            if n.attribute("data-pv") == Some("true") {
                c.pv_nodes += 1;
            }
        } else if class == "fold" {
            c.visits += number(&n, "data-visits");
            c.stubs += number(&n, "data-stubs");
        } else if class == "stub" {
            assert!(number(&n, "data-pruned") > 0);
            c.stubs += 1;
        }
    }
    c
}

fn searched(fen: &str, depth: u32, config: TheoryConfig) -> (Position, SearchTree, TheoryResult) {
    let pos = Position::from_fen(fen, false).unwrap();
    let mut tree = SearchTree::new(1 << 21);
    let result = search(
        &pos,
        depth,
        config,
        TheoryLimits::default(),
        Some(&mut tree),
    );
    (pos, tree, result)
}

#[test]
fn svg_boxes_add_up_to_the_search_counters() {
    let fens = [shears::chess::START_FEN, TACTICAL];
    for fen in fens {
        for algorithm in Algorithm::ALL {
            for ordering in [MoveOrdering::None, MoveOrdering::MvvLva, MoveOrdering::Full] {
                let config = TheoryConfig::new(algorithm, ordering);
                let (pos, tree, result) = searched(fen, 3, config);
                let nodes = result.stats.nodes;
                for max_width in [0, 3] {
                    let picture = Picture::new(&tree, &pos, max_width, "test".to_owned());
                    let c = count_svg(&svg::render(&picture));
                    let what = format!("{config}, width {max_width}, {fen}");
                    assert_eq!(c.visits, nodes, "visits: {what}");
                    assert_eq!(c.stubs, tree.pruned_nodes() as u64, "stubs: {what}");
                    if matches!(algorithm, Algorithm::Minimax | Algorithm::AlphaBeta) {
                        // Each node is searched once: one stub per cut-off.
                        assert_eq!(c.stubs, result.stats.cutoffs, "cut-offs: {what}");
                    }
                    if algorithm == Algorithm::Minimax {
                        assert_eq!(c.stubs, 0, "{what}");
                    }
                    // The principal variation is always drawn, root included.
                    assert_eq!(c.pv_nodes, result.pv.len() + 1, "pv: {what}");
                    if max_width == 0 {
                        assert_eq!(c.drawn, tree.nodes().len(), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn alpha_beta_prunes_what_minimax_draws_and_dot_is_a_digraph() {
    let mm = searched(
        TACTICAL,
        3,
        TheoryConfig::new(Algorithm::Minimax, MoveOrdering::None),
    );
    let ab = searched(
        TACTICAL,
        3,
        TheoryConfig::new(Algorithm::AlphaBeta, MoveOrdering::MvvLva),
    );
    assert_eq!(mm.2.value, ab.2.value);
    assert!(
        ab.2.stats.nodes * 5 < mm.2.stats.nodes,
        "alpha-beta saves most of the tree"
    );
    assert!(ab.1.pruned_nodes() > 0);
    let picture = Picture::new(&ab.1, &ab.0, 4, "t".to_owned());
    let graph = dot::render(&picture);
    assert!(graph.starts_with("digraph"), "{graph}");
    assert_eq!(graph.matches("->").count(), picture.items.len() - 1);
    assert!(graph.contains("β-cut") || graph.contains("α-cut"));
}

fn shears(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shears"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn tree_command_writes_svg_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let out = shears(
        dir.path(),
        &["tree", "--depth", "2", "--fen", TACTICAL, "-o", "t.svg"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = String::from_utf8_lossy(&out.stdout);
    let nodes: u64 = summary
        .split(" nodes")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let svg_text = std::fs::read_to_string(dir.path().join("t.svg")).unwrap();
    assert_eq!(count_svg(&svg_text).visits, nodes, "{summary}");
    let out = shears(
        dir.path(),
        &[
            "tree",
            "--depth",
            "2",
            "--algorithm",
            "mtdf",
            "--format",
            "dot",
            "-o",
            "t.dot",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let dot_text = std::fs::read_to_string(dir.path().join("t.dot")).unwrap();
    assert!(dot_text.starts_with("digraph"));
}

/// A drawn node of an SVG: its level, parent, value text and PV mark.
#[derive(Debug)]
struct Drawn {
    id: String,
    max: bool,
    parent: Option<String>,
    value: String,
    pv: bool,
}

fn drawn_nodes(svg_text: &str) -> Vec<Drawn> {
    let doc = roxmltree::Document::parse(svg_text).expect("the SVG is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class").unwrap_or("").starts_with("node"))
        .map(|n| Drawn {
            id: n.attribute("data-id").unwrap().to_owned(),
            max: n.attribute("class").unwrap().contains(" max"),
            parent: n.attribute("data-parent").map(str::to_owned),
            value: n
                .children()
                .find(|c| c.attribute("class") == Some("value"))
                .and_then(|c| c.text())
                .unwrap_or_default()
                .to_owned(),
            pv: n.attribute("data-pv") == Some("true"),
        })
        .collect()
}

/// `= +35` as 35; a mate `= +M3` beyond every centipawn value (a quicker
/// mate higher, a quicker loss lower); `None` for a bound.
fn exact_value(text: &str) -> Option<i64> {
    let v = text.strip_prefix("= ")?;
    let (sign, rest) = match v.split_at(1) {
        ("+", rest) => (1, rest),
        ("-", rest) => (-1, rest),
        _ => panic!("{text}"),
    };
    Some(match rest.strip_prefix('M') {
        Some(plies) => sign * (1_000_000 - plies.parse::<i64>().unwrap()),
        None => sign * rest.parse::<i64>().unwrap(),
    })
}

fn svg_of(dir: &std::path::Path, args: &[&str]) -> String {
    let mut all = vec!["tree"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "c.svg"]);
    let out = shears(dir, &all);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(dir.join("c.svg")).unwrap()
}

/// The picture has one convention, stated in its legend and headers: every
/// value is the root's side to move's view; a MAX node takes the largest
/// child, a MIN node the smallest. Minimax draws every node exact, so each
/// parent can be checked against its children; alpha-beta's principal
/// variation then carries the root's value unchanged to its leaf.
#[test]
fn every_value_is_the_roots_view_max_takes_the_largest_min_the_smallest() {
    let dir = tempfile::tempdir().unwrap();
    let black_to_move = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    for (fen, side) in [(TACTICAL, "White"), (black_to_move, "Black")] {
        let text = svg_of(
            dir.path(),
            &["--fen", fen, "--algorithm", "minimax", "--max-width", "0"],
        );
        assert!(
            text.contains(&format!("Every value and window is {side}&apos;s view"))
                && text.contains("takes the largest of its children&apos;s values")
                && text.contains("the smallest."),
            "{text}"
        );
        assert_eq!(
            text.matches(&format!(" · {side}&apos;s view</text>"))
                .count(),
            3,
            "every column header names the same view"
        );
        let nodes = drawn_nodes(&text);
        let value = |n: &Drawn| exact_value(&n.value).unwrap_or_else(|| panic!("{n:?}"));
        let mut checked = 0;
        for node in &nodes {
            let children: Vec<i64> = nodes
                .iter()
                .filter(|c| c.parent.as_deref() == Some(node.id.as_str()))
                .map(value)
                .collect();
            if children.is_empty() {
                continue;
            }
            let expected = if node.max {
                children.iter().max()
            } else {
                children.iter().min()
            };
            assert_eq!(
                Some(&value(node)),
                expected,
                "{fen}: {node:?}: {children:?}"
            );
            checked += 1;
        }
        assert!(checked > 20, "{checked}");
    }
    // Alpha-beta from the start position (the defaults): every node of the
    // principal variation shows the root's exact value.
    let nodes = drawn_nodes(&svg_of(dir.path(), &[]));
    let pv: Vec<&str> = nodes
        .iter()
        .filter(|n| n.pv)
        .map(|n| n.value.as_str())
        .collect();
    assert_eq!(pv.len(), 3, "{nodes:?}");
    assert!(
        pv.iter().all(|v| *v == pv[0]) && pv[0].starts_with("= "),
        "{pv:?}"
    );
}

/// The default picture fits one screen.
#[test]
fn the_default_tree_picture_fits_one_screen() {
    let dir = tempfile::tempdir().unwrap();
    let text = svg_of(dir.path(), &[]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let size = |attr: &str| -> f64 { doc.root_element().attribute(attr).unwrap().parse().unwrap() };
    assert!(
        size("width") <= 1000.0 && size("height") <= 1080.0,
        "{} × {}",
        size("width"),
        size("height")
    );
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.fens"), "8/8/8/8/8/8/8/8 w - - 0 1\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["tree", "--depth", "0", "-o", "x.svg"], "--depth"),
        (&["tree", "--depth", "7", "-o", "x.svg"], "--depth"),
        (
            &["tree", "--depth", "2", "--fen", "not a fen", "-o", "x.svg"],
            "invalid FEN",
        ),
        (
            &[
                "tree",
                "--depth",
                "2",
                "--fen",
                "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
                "-o",
                "x.svg",
            ],
            "illegal position",
        ),
        (
            &["tree", "--depth", "2", "--algorithm", "best", "-o", "x.svg"],
            "--algorithm",
        ),
        (
            &["tree", "--depth", "2", "-o", "no/such/dir/x.svg"],
            "cannot write",
        ),
        (
            &[
                "tree",
                "--depth",
                "2",
                "--ordering",
                "random",
                "-o",
                "x.svg",
            ],
            "--ordering",
        ),
        (&["compare", "--depth", "0"], "--depth"),
        (
            &["compare", "--depth", "2", "--suite", "absent.fens"],
            "cannot read",
        ),
        (
            &["compare", "--depth", "2", "--suite", "bad.fens"],
            "line 1",
        ),
        (
            &["compare", "--depth", "2", "--plot", "no/such/dir/p.svg"],
            "cannot write",
        ),
        (
            &["compare", "--depth", "2", "--fen", "x", "--bench"],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let out = shears(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert!(
        !dir.path().join("x.svg").exists()
            || std::fs::read(dir.path().join("x.svg")).unwrap().is_empty()
    );
}

#[test]
fn compare_prints_equal_values_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = shears(
        dir.path(),
        &[
            "compare", "--fen", TACTICAL, "--depth", "3", "--plot", "p.svg",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for depth in 1..=3 {
        assert!(
            text.contains(&format!("depth {depth} · 1 position")),
            "{text}"
        );
    }
    assert_eq!(
        text.matches("every completed algorithm returned the same value")
            .count(),
        3,
        "{text}"
    );
    for name in [
        "minimax",
        "alpha-beta (none)",
        "alpha-beta (full)",
        "NegaScout/PVS (full)",
        "SSS* (MT-SSS*) (full)",
        "MTD(f) (full)",
        "engine (real search)",
        "b^d",
        "b^2 + b^1 - 1",
    ] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    // The value column of the theory rows at depth 3: one value.
    let depth3 = text.split("depth 3 ·").nth(1).unwrap();
    let values: Vec<&str> = depth3
        .lines()
        .filter(|l| {
            l.starts_with("minimax")
                || l.starts_with("alpha")
                || l.starts_with("Nega")
                || l.starts_with("SSS")
                || l.starts_with("MTD")
        })
        .filter(|l| !l.contains("passes per position"))
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(values.len(), 6, "{depth3}");
    assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
    let plot = std::fs::read_to_string(dir.path().join("p.svg")).unwrap();
    let doc = roxmltree::Document::parse(&plot).unwrap();
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    assert_eq!(lines, 7 + 2, "seven rows and two bounds");
    assert!(text.contains("MTD(f) (full): "), "passes line:\n{text}");
}
