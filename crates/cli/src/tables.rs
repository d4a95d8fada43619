//! The articles' result tables: counts, then ratios, for A moving first (o), second (x)
//! and both.

use std::fmt::Write;

/// The label column's width: the article's 5, or wider for longer side names (`yellow`).
fn label_width<T>(rows: &[(&str, T); 3]) -> usize {
    rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0).max(5)
}

fn header(title: &str, width: usize) -> String {
    format!("{title:width$}{:>8}{:>8}{:>8}\n", "win", "lose", "draw")
}

/// `count  win lose draw` rows, as `ai_match` prints them.
pub fn count_table(rows: [(&str, [u64; 3]); 3]) -> String {
    let width = label_width(&rows);
    let mut out = header("count", width);
    for (label, [w, l, d]) in rows {
        let _ = writeln!(out, "{label:width$}{w:8}{l:8}{d:8}");
    }
    out
}

/// `ratio  win lose draw` rows in percent, with `decimals` places.
pub fn ratio_table(rows: [(&str, [f64; 3]); 3], decimals: usize) -> String {
    let width = label_width(&rows);
    let mut out = header("ratio", width);
    for (label, values) in rows {
        let _ = write!(out, "{label:width$}");
        for v in values {
            let cell = format!("{:.*}%", decimals, v * 100.0);
            let _ = write!(out, "{cell:>8}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_look_like_the_seeds() {
        let counts = count_table([
            ("o", [29252, 14312, 6436]),
            ("x", [14337, 29339, 6324]),
            ("total", [43589, 43651, 12760]),
        ]);
        assert_eq!(
            counts,
            "count     win    lose    draw\no       29252   14312    6436\nx       14337   29339    6324\ntotal   43589   43651   12760\n"
        );
        let ratios = ratio_table(
            [
                ("o", [0.58504, 0.28624, 0.12872]),
                ("x", [0.28674, 0.58678, 0.12648]),
                ("total", [0.43589, 0.43651, 0.1276]),
            ],
            1,
        );
        assert_eq!(
            ratios,
            "ratio     win    lose    draw\no       58.5%   28.6%   12.9%\nx       28.7%   58.7%   12.6%\ntotal   43.6%   43.7%   12.8%\n"
        );
        let long = count_table([
            ("red", [1, 2, 3]),
            ("yellow", [4, 5, 6]),
            ("total", [5, 7, 9]),
        ]);
        assert_eq!(
            long,
            "count      win    lose    draw\nred          1       2       3\nyellow       4       5       6\ntotal        5       7       9\n"
        );
    }
}
