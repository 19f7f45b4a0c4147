//! `shears compare --plot`: nodes against depth on a log scale, one line
//! per algorithm, with the full tree `b^d` and the minimal tree
//! `b^⌈d/2⌉ + b^⌊d/2⌋ - 1` dashed.

use std::fmt::Write as _;

use super::compare::DepthResult;
use super::text::xml;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 290.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

/// Colours of the algorithm lines, in row order.
const PALETTE: &[&str] = &[
    "#c53030", "#dd6b20", "#2b6cb0", "#2f855a", "#6b46c1", "#b7791f", "#4a5568", "#00838f",
];

/// One line of the plot.
struct Series {
    name: String,
    points: Vec<(u32, f64)>,
    color: &'static str,
    dashed: bool,
}

fn series(results: &[DepthResult]) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    let rows = results.first().map_or(0, |r| r.rows.len());
    for i in 0..rows {
        let points = results
            .iter()
            .filter_map(|r| {
                let row = r.rows.get(i)?;
                row.completed()
                    .then(|| (r.depth, (row.stats.nodes + row.stats.qnodes) as f64))
            })
            .collect();
        let name = results[0].rows[i].name();
        out.push(Series {
            name,
            points,
            color: PALETTE[i % PALETTE.len()],
            dashed: false,
        });
    }
    let bound = |name: &str, color, f: &dyn Fn(&DepthResult) -> f64| Series {
        name: name.to_owned(),
        points: results.iter().map(|r| (r.depth, f(r))).collect(),
        color,
        dashed: true,
    };
    out.push(bound("b^d (full tree, leaves)", "#1a202c", &|r| {
        r.full_tree
    }));
    out.push(bound(
        "b^⌈d/2⌉+b^⌊d/2⌋−1 (minimal tree)",
        "#718096",
        &|r| r.minimal_tree,
    ));
    out
}

/// `1`, `10`, `100`, `1k` … `100G` for a power of ten.
fn power_label(exp: i32) -> String {
    const UNITS: [&str; 4] = ["", "k", "M", "G"];
    let unit = (exp / 3).clamp(0, 3);
    let mantissa = 10u64.pow((exp - 3 * unit).max(0) as u32);
    format!("{mantissa}{}", UNITS[unit as usize])
}

/// The SVG plot of `results`, titled `title`.
pub fn render(results: &[DepthResult], title: &str) -> String {
    let lines = series(results);
    let values = lines.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = values
        .filter(|v| *v > 0.0)
        .fold((f64::MAX, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let lo_exp = if lo == f64::MAX {
        0
    } else {
        lo.log10().floor() as i32
    };
    let hi_exp = (hi.log10().ceil() as i32).max(lo_exp + 1);
    let depths: Vec<u32> = results.iter().map(|r| r.depth).collect();
    let (d_min, d_max) = (
        depths.iter().copied().min().unwrap_or(1),
        depths.iter().copied().max().unwrap_or(1),
    );
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |d: u32| {
        let span = f64::from((d_max - d_min).max(1));
        LEFT + plot_w * f64::from(d - d_min) / span
    };
    let y = |v: f64| {
        let t = (v.max(1.0).log10() - f64::from(lo_exp)) / f64::from(hi_exp - lo_exp);
        TOP + plot_h * (1.0 - t)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"12\">\n\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n\
         <text x=\"{LEFT}\" y=\"28\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        xml(title)
    );
    for exp in lo_exp..=hi_exp {
        let yy = y(10f64.powi(exp));
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#e2e8f0\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#4a5568\">{}</text>",
            LEFT + plot_w,
            LEFT - 8.0,
            yy + 4.0,
            power_label(exp)
        );
    }
    for &d in &depths {
        let xx = x(d);
        let _ = writeln!(
            out,
            "<line x1=\"{xx:.1}\" y1=\"{TOP}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#edf2f7\"/>\
             <text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#4a5568\">{d}</text>",
            TOP + plot_h,
            TOP + plot_h + 18.0
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">depth (plies)</text>\
         <text x=\"16\" y=\"{:.1}\" transform=\"rotate(-90 16 {:.1})\" text-anchor=\"middle\">nodes (log scale)</text>",
        LEFT + plot_w / 2.0,
        HEIGHT - 16.0,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0
    );
    for (i, s) in lines.iter().enumerate() {
        let dash = if s.dashed {
            " stroke-dasharray=\"7 5\""
        } else {
            ""
        };
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(d, v)| format!("{:.1},{:.1}", x(d), y(v)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"series\" data-name=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{dash} points=\"{}\"/>",
            xml(&s.name),
            s.color,
            points.join(" ")
        );
        for p in &s.points {
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.8\" fill=\"{}\"/>",
                x(p.0),
                y(p.1),
                s.color
            );
        }
        let ly = TOP + 10.0 + 22.0 * i as f64;
        let lx = WIDTH - RIGHT + 20.0;
        let _ = writeln!(
            out,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            lx + 26.0,
            s.color,
            lx + 32.0,
            ly + 4.0,
            xml(&s.name)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_ten_are_labelled_with_units() {
        assert_eq!(power_label(0), "1");
        assert_eq!(power_label(2), "100");
        assert_eq!(power_label(3), "1k");
        assert_eq!(power_label(7), "10M");
    }
}
