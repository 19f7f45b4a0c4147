//! Small text helpers of the theory pictures and tables: values as a
//! reader writes them, XML escaping, byte and count formatting.

use shears::search::theory::Bound;
use shears::search::{INFINITE, MATE, MATE_BOUND};

/// A value: `+35`, `-120`, `+M5` (the side mates 5 plies from the root),
/// `-M4` (is mated 4 plies from the root; `-M0`: mated at the root), and
/// `+∞`, `−∞` for the bounds of a full window.
pub fn value(v: i32) -> String {
    if v >= INFINITE {
        "+∞".to_owned()
    } else if v <= -INFINITE {
        "−∞".to_owned()
    } else if v >= MATE_BOUND {
        format!("+M{}", MATE - v)
    } else if v <= -MATE_BOUND {
        format!("-M{}", MATE + v)
    } else {
        format!("{v:+}")
    }
}

/// A window bound: as [`value`], but the bounds just inside the infinite
/// ones (SSS*'s first test, "at least +∞?", has the window `(+∞−1, +∞)`)
/// are written `+∞−1` and `−∞+1`: no value is ever there.
pub fn window_bound(v: i32) -> String {
    if v.abs() >= MATE && v.abs() < INFINITE {
        if v > 0 { "+∞−1" } else { "−∞+1" }.to_owned()
    } else {
        value(v)
    }
}

/// A value with what it says: `= +35`, `≥ +35`, `≤ +35`.
pub fn bounded(v: i32, bound: Bound) -> String {
    let sign = match bound {
        Bound::Exact => "=",
        Bound::Lower => "≥",
        Bound::Upper => "≤",
    };
    format!("{sign} {}", value(v))
}

/// A window `[α, β]`.
pub fn window(alpha: i32, beta: i32) -> String {
    format!("[{}, {}]", window_bound(alpha), window_bound(beta))
}

/// Escapes text for XML content and attributes.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// A count with thousands separators: `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as `812 B`, `14.2 KB`, `3.1 MB`.
pub fn bytes(n: u64) -> String {
    const KB: f64 = 1024.0;
    let f = n as f64;
    if f < KB {
        format!("{n} B")
    } else if f < KB * KB {
        format!("{:.1} KB", f / KB)
    } else {
        format!("{:.1} MB", f / (KB * KB))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_a_person_writes_them() {
        assert_eq!(value(35), "+35");
        assert_eq!(value(-120), "-120");
        assert_eq!(value(0), "+0");
        assert_eq!(value(MATE - 5), "+M5");
        assert_eq!(value(-(MATE - 4)), "-M4");
        assert_eq!(value(INFINITE), "+∞");
        assert_eq!(value(-MATE), "-M0");
        assert_eq!(window_bound(-(INFINITE - 1)), "−∞+1");
        assert_eq!(window(INFINITE - 1, INFINITE), "[+∞−1, +∞]");
        assert_eq!(bounded(-3, Bound::Lower), "≥ -3");
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(count(999), "999");
        assert_eq!(bytes(2048), "2.0 KB");
    }
}
