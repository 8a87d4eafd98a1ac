//! Inline SVG charts for the HTML report (drawn here: no script, no font or
//! stylesheet from elsewhere).

use std::fmt::Write;

/// Escapes `s` for HTML and SVG text and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A bar's fill colour, one per category name (the same in every chart).
pub fn colour(class: &str) -> &'static str {
    match class {
        "salu" => "#4e79a7",
        "branch" => "#f28e2b",
        "smem" => "#e15759",
        "valu" => "#59a14f",
        "vmem" => "#b07aa1",
        "lds" => "#edc948",
        // Cayman's classes (see crate::cayman)
        "cf" => "#f28e2b",
        "alu" => "#59a14f",
        "fetch" => "#b07aa1",
        "rat/exp" => "#76b7b2",
        _ => "#9c9c9c",
    }
}

/// A horizontal bar chart: one bar per `(label, class, value)`, its length
/// and percentage relative to `total`, coloured by `class`.
pub fn bars(title: &str, rows: &[(String, &str, u64)], total: u64) -> String {
    const ROW: usize = 22;
    const LABEL: usize = 170;
    const BAR: usize = 360;
    let height = 30 + ROW * rows.len();
    let width = LABEL + BAR + 150;
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{t}\">\
         <text x=\"0\" y=\"16\" class=\"title\">{t}</text>",
        t = escape(title)
    );
    for (k, (label, class, value)) in rows.iter().enumerate() {
        let y = 26 + k * ROW;
        let frac = if total == 0 {
            0.0
        } else {
            *value as f64 / total as f64
        };
        let len = (frac * BAR as f64).max(if *value > 0 { 1.0 } else { 0.0 });
        let _ = write!(
            o,
            "<text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{l}</text>\
             <rect x=\"{LABEL}\" y=\"{y}\" width=\"{len:.1}\" height=\"{h}\" fill=\"{c}\"><title>{l}: {value}</title></rect>\
             <text x=\"{vx:.1}\" y=\"{ty}\">{value} ({p:.1}%)</text>",
            lx = LABEL - 6,
            ty = y + 14,
            l = escape(label),
            h = ROW - 4,
            c = colour(class),
            vx = LABEL as f64 + len + 6.0,
            p = 100.0 * frac,
        );
    }
    o.push_str("</svg>");
    o
}
