//! A [`Picture`] as a Graphviz graph (`dot -Tsvg tree.dot`): the same boxes
//! and labels as the SVG, laid out by Graphviz from left to right.

use std::fmt::Write as _;

use super::picture::{Item, Picture, cut_label};
use super::text::count;

/// Escapes text for a double-quoted Graphviz string.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The Graphviz document of `picture`.
pub fn render(picture: &Picture) -> String {
    let mut out = String::new();
    out.push_str("digraph search_tree {\n  rankdir=LR;\n  nodesep=0.15;\n  ranksep=0.5;\n");
    let _ = writeln!(
        out,
        "  label=\"{}\";\n  labelloc=t;\n  node [shape=box, style=\"rounded\", fontname=\"DejaVu Sans\", fontsize=10];",
        quoted(&format!("{}\n{}", picture.title, picture.convention())).replace('\n', "\\n")
    );
    for (i, placed) in picture.items.iter().enumerate() {
        let max = Picture::is_max(placed.column);
        let color = if max { "#2b6cb0" } else { "#c53030" };
        let attrs = match &placed.item {
            Item::Node {
                lines, pv, visits, ..
            } => {
                let mark = if max { "▲" } else { "▼" };
                let style = if *pv {
                    "style=\"rounded,filled,bold\", fillcolor=\"#fffbea\", color=\"#d69e2e\", penwidth=3"
                        .to_owned()
                } else {
                    format!("color=\"{color}\"")
                };
                format!(
                    "label=\"{mark} {}\\n{}\\n{}\", {style}, visits={visits}",
                    quoted(&lines[0]),
                    quoted(&lines[1]),
                    quoted(&lines[2])
                )
            }
            Item::Stub { pruned, cut } => format!(
                "label=\"✂ {pruned} pruned\\n{}\", style=\"rounded,dashed,filled\", \
                 fillcolor=\"#edf2f7\", color=\"#a0aec0\", fontcolor=\"#718096\", pruned={pruned}",
                quoted(&cut_label(*cut))
            ),
            Item::Fold {
                children,
                visits,
                stubs,
            } => format!(
                "label=\"+{children} more searched\\n{} nodes, {} with cut-offs\", \
                 style=\"rounded,dotted\", color=\"#718096\", visits={visits}, stubs={stubs}",
                count(*visits),
                count(*stubs as u64)
            ),
        };
        let _ = writeln!(out, "  n{i} [{attrs}];");
        if let Some(p) = placed.parent {
            let edge = if placed.pv_edge {
                " [color=\"#d69e2e\", penwidth=3]"
            } else if matches!(placed.item, Item::Node { .. }) {
                ""
            } else {
                " [style=dashed, color=\"#a0aec0\"]"
            };
            let _ = writeln!(out, "  n{p} -> n{i}{edge};");
        }
    }
    out.push_str("}\n");
    out
}
