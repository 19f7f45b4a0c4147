//! A [`Picture`] as SVG: one box per node (MAX levels blue, MIN levels red,
//! the principal variation gold), grey dashed stubs for pruned moves,
//! dotted "+N more" boxes for folded children, column headers and a legend.
//!
//! Every box carries its numbers as `data-` attributes (`data-visits`,
//! `data-pruned`, `data-stubs`, and a node its parent's `data-parent`), so
//! a test can check the picture against the search's own counters and the
//! values against the convention.

use std::fmt::Write as _;

use super::picture::{Item, Picture, Placed, cut_label};
use super::text::{count, xml};

/// Box width, px.
const BOX_W: f64 = 178.0;
/// Box height, px.
const BOX_H: f64 = 50.0;
/// Row pitch, px.
const ROW_H: f64 = 58.0;
/// Gap between columns, px.
const COL_GAP: f64 = 44.0;
/// Left and right margin, px.
const MARGIN: f64 = 16.0;
/// Space above the first row: title and column headers, px (plus a line
/// per extra title line).
const TOP: f64 = 84.0;
/// Height of a title line, px.
const TITLE_LINE: f64 = 19.0;
/// Narrowest picture, px (room for the legend).
const MIN_WIDTH: f64 = 820.0;
/// Space below the last row: the legend, px.
const BOTTOM: f64 = 124.0;

const STYLE: &str = "
  text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: #1a202c; }
  .title { font-size: 15px; font-weight: bold; }
  .head { font-size: 12px; font-weight: bold; }
  .sub { font-size: 11px; fill: #4a5568; }
  .value { font-weight: bold; }
  .window { font-size: 10.5px; fill: #4a5568; }
  .node rect { fill: #ffffff; stroke-width: 1.6; }
  .max rect { stroke: #2b6cb0; }
  .min rect { stroke: #c53030; }
  .max .mark { fill: #2b6cb0; }
  .min .mark { fill: #c53030; }
  .node.pv rect { fill: #fffbea; stroke: #d69e2e; stroke-width: 3.2; }
  .stub rect { fill: #edf2f7; stroke: #a0aec0; stroke-dasharray: 5 3; }
  .stub text { fill: #718096; }
  .fold rect { fill: #f7fafc; stroke: #718096; stroke-dasharray: 1.5 2.5; }
  .fold text { fill: #4a5568; }
  .edge { fill: none; stroke: #a0aec0; stroke-width: 1.2; }
  .edge.pruned { stroke-dasharray: 4 3; }
  .edge.pv { stroke: #d69e2e; stroke-width: 3.2; }
";

fn x_of(column: u32) -> f64 {
    MARGIN + f64::from(column) * (BOX_W + COL_GAP)
}

fn y_of(top: f64, row: f64) -> f64 {
    top + row * ROW_H
}

/// The SVG document of `picture`.
pub fn render(picture: &Picture) -> String {
    let title: Vec<&str> = picture.title.lines().collect();
    let top = TOP + TITLE_LINE * title.len().saturating_sub(1) as f64;
    let width =
        (2.0 * MARGIN + f64::from(picture.columns.max(1)) * (BOX_W + COL_GAP)).max(MIN_WIDTH);
    let height = top + f64::from(picture.rows) * ROW_H + BOTTOM;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\">"
    );
    let _ = writeln!(out, "<style>{STYLE}</style>");
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#ffffff\"/>"
    );
    for (i, line) in title.iter().enumerate() {
        let class = if i == 0 { "title" } else { "sub" };
        let _ = writeln!(
            out,
            "<text class=\"{class}\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>",
            24.0 + TITLE_LINE * i as f64,
            xml(line)
        );
    }
    let head_y = top - 30.0;
    for column in 0..picture.columns.max(1) {
        let [head, sub] = picture.header(column);
        let x = x_of(column);
        let _ = writeln!(
            out,
            "<text class=\"head\" x=\"{x:.1}\" y=\"{head_y:.1}\">{}</text>\
             <text class=\"sub\" x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
            xml(&head),
            head_y + 16.0,
            xml(&sub)
        );
    }
    for placed in &picture.items {
        if let Some(p) = placed.parent {
            edge(&mut out, top, &picture.items[p], placed);
        }
    }
    for placed in &picture.items {
        let parent = placed.parent.map(|p| &picture.items[p]);
        item(&mut out, top, placed, parent);
    }
    legend(
        &mut out,
        top + f64::from(picture.rows) * ROW_H + 18.0,
        picture,
    );
    out.push_str("</svg>\n");
    out
}

fn edge(out: &mut String, top: f64, from: &Placed, to: &Placed) {
    let (x1, y1) = (x_of(from.column) + BOX_W, y_of(top, from.row) + BOX_H / 2.0);
    let (x2, y2) = (x_of(to.column), y_of(top, to.row) + BOX_H / 2.0);
    let mid = (x1 + x2) / 2.0;
    let class = match to.item {
        _ if to.pv_edge => "edge pv",
        Item::Stub { .. } | Item::Fold { .. } => "edge pruned",
        Item::Node { .. } => "edge",
    };
    let _ = writeln!(
        out,
        "<path class=\"{class}\" d=\"M{x1:.1},{y1:.1} C{mid:.1},{y1:.1} {mid:.1},{y2:.1} {x2:.1},{y2:.1}\"/>"
    );
}

fn item(out: &mut String, top: f64, placed: &Placed, parent: Option<&Placed>) {
    let (x, y) = (x_of(placed.column), y_of(top, placed.row));
    let level = if Picture::is_max(placed.column) {
        "max"
    } else {
        "min"
    };
    match &placed.item {
        Item::Node {
            id,
            lines,
            visits,
            pv,
        } => {
            let pv_class = if *pv { " pv" } else { "" };
            let mark = if level == "max" { "▲" } else { "▼" };
            let parent = match parent.map(|p| &p.item) {
                Some(Item::Node { id, .. }) => format!(" data-parent=\"{id}\""),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "<g class=\"node {level}{pv_class}\" data-id=\"{id}\"{parent} data-visits=\"{visits}\" \
                 data-pv=\"{pv}\" transform=\"translate({x:.1},{y:.1})\">\
                 <rect width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"5\"/>\
                 <text class=\"mark\" x=\"{:.1}\" y=\"15\">{mark}</text>\
                 <text x=\"8\" y=\"15\">{}</text>\
                 <text class=\"value\" x=\"8\" y=\"30\">{}</text>\
                 <text class=\"window\" x=\"8\" y=\"44\">{}</text></g>",
                BOX_W - 16.0,
                xml(&lines[0]),
                xml(&lines[1]),
                xml(&lines[2])
            );
        }
        Item::Stub { pruned, cut } => {
            let moves = if *pruned == 1 { "move" } else { "moves" };
            let _ = writeln!(
                out,
                "<g class=\"stub\" data-pruned=\"{pruned}\" transform=\"translate({x:.1},{y:.1})\">\
                 <rect width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"5\"/>\
                 <text x=\"8\" y=\"19\">✂ {pruned} {moves} pruned</text>\
                 <text x=\"8\" y=\"37\">{}</text></g>",
                xml(&cut_label(*cut))
            );
        }
        Item::Fold {
            children,
            visits,
            stubs,
        } => {
            let _ = writeln!(
                out,
                "<g class=\"fold\" data-children=\"{children}\" data-visits=\"{visits}\" \
                 data-stubs=\"{stubs}\" transform=\"translate({x:.1},{y:.1})\">\
                 <rect width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"5\"/>\
                 <text x=\"8\" y=\"19\">+{children} more searched</text>\
                 <text x=\"8\" y=\"37\">{} nodes, {} with cut-offs</text></g>",
                count(*visits),
                count(*stubs as u64)
            );
        }
    }
}

/// The legend: the value convention first (see the module docs of
/// `picture.rs`), then how to read the boxes.
fn legend(out: &mut String, y: f64, picture: &Picture) {
    let convention = picture.convention();
    let (first, second) = split_line(&convention);
    let lines = [
        first,
        second,
        "= exact, ≥ lower bound, ≤ upper bound; a … b: bounds in memory (SSS*, MTD(f)).",
        "Window [α, β]: what the node was searched with, in the same view. ×k: k visits. Gold: principal variation.",
        "Grey dashed: moves never searched: β-cut at a MAX node (a value ≥ β), α-cut at a MIN node (≤ α);",
        "shallow: bound from the parent, deep: from further up, test bound: from an MTD test. Dotted: folded.",
        "+M5 / -M5: the root's side mates / is mated 5 plies from the root.",
    ];
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text class=\"sub legend\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>",
            y + 15.0 * i as f64,
            xml(line)
        );
    }
}

/// `text` cut in two at the space nearest its middle.
fn split_line(text: &str) -> (&str, &str) {
    let middle = text.len() / 2;
    let cut = text
        .match_indices(' ')
        .map(|(i, _)| i)
        .min_by_key(|&i| i.abs_diff(middle))
        .unwrap_or(text.len());
    let (a, b) = text.split_at(cut);
    (a, b.trim_start())
}
