//! The HTML report (`risa run --profile-html FILE`): one self-contained page
//! (inline CSS and SVG, no script, nothing fetched) with the instruction-mix
//! charts, the hottest instructions and the annotated listing.

use crate::recorder::Profile;
use crate::report::{lanes_per_wave, shown, Summary};
use crate::svg::{bars, colour, escape};
use std::fmt::Write;

/// Mnemonics shown in the mnemonic chart.
const TOP_MNEMONICS: usize = 15;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.4em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.6em}\
.sub{color:#555;margin-top:0}.charts{display:flex;flex-wrap:wrap;gap:2em}\
svg text{font-size:12px;font-family:sans-serif;fill:#222}svg .title{font-weight:bold;font-size:13px}\
table{border-collapse:collapse;font-size:13px}th,td{padding:1px 8px;text-align:right;white-space:nowrap}\
th{border-bottom:1px solid #888}th.i{text-align:left}td.i{text-align:left;font-family:monospace}\
td.pc{font-family:monospace;color:#555}tr.cold td{color:#999}\
td.heat{width:120px;padding:0}td.heat span{display:block;height:12px;background:#d62728}\
.cls{display:inline-block;width:.8em;height:.8em;margin-right:.3em}";

/// The page for profile `p` of the run described by `title`, with its
/// `hot` hottest instructions listed before the annotated code.
pub fn page(p: &Profile, title: &str, hot: usize) -> String {
    let s = Summary::new(p);
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <link rel=\"icon\" href=\"data:,\">\n<title>risa profile: {t}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<h1>risa profile</h1>\n<p class=\"sub\">{t}</p>\n",
        t = escape(title)
    );
    let Some(listing) = &p.listing else {
        o.push_str("<p>No instruction was issued.</p>\n</body>\n</html>\n");
        return o;
    };
    let _ = writeln!(
        o,
        "<p>{} wave-instructions issued, {:.1} active lanes per wave-instruction.</p>",
        s.total,
        s.lanes as f64 / s.total.max(1) as f64
    );
    let cats: Vec<(String, &str, u64)> = s
        .by_class
        .iter()
        .filter(|(_, c)| c.waves > 0)
        .map(|&(k, c)| (k.to_string(), k, c.waves))
        .collect();
    let mnems: Vec<(String, &str, u64)> = s
        .by_mnemonic
        .iter()
        .take(TOP_MNEMONICS)
        .map(|&(m, n)| {
            let cat = listing
                .lines
                .iter()
                .find(|l| l.mnemonics.contains(&m))
                .map_or("", |l| l.mix);
            (m.to_string(), cat, n)
        })
        .collect();
    let _ = writeln!(
        o,
        "<h2>Instruction mix</h2>\n<div class=\"charts\">\n{}\n{}\n</div>",
        bars("Wave-instructions by class", &cats, s.total),
        bars(&format!("Top {} mnemonics", mnems.len()), &mnems, s.total)
    );
    let head = "<tr><th>percent</th><th></th><th>waves</th><th>lanes</th><th>lanes/wave</th>\
                <th>pc</th><th class=\"i\">instruction</th></tr>";
    let max = s.hot.first().map_or(1, |&i| p.counts[i].waves.max(1));
    let row = |o: &mut String, i: usize| {
        let c = &p.counts[i];
        let l = &listing.lines[i];
        let cls = format!(
            "<span class=\"cls\" style=\"background:{}\" title=\"{}\"></span>",
            colour(l.mix),
            l.mix
        );
        if c.waves == 0 {
            let _ = writeln!(
                o,
                "<tr class=\"cold\"><td></td><td class=\"heat\"></td><td></td><td></td><td></td>\
                 <td class=\"pc\">{:#06x}</td><td class=\"i\">{cls}{}</td></tr>",
                l.offset,
                escape(&shown(listing, i))
            );
            return;
        }
        let _ = writeln!(
            o,
            "<tr><td>{:.2}%</td><td class=\"heat\"><span style=\"width:{:.1}%\"></span></td>\
             <td>{}</td><td>{}</td><td>{:.1}</td><td class=\"pc\">{:#06x}</td><td class=\"i\">{cls}{}</td></tr>",
            s.pct(c.waves),
            100.0 * c.waves as f64 / max as f64,
            c.waves,
            c.lanes,
            lanes_per_wave(c),
            l.offset,
            escape(&shown(listing, i))
        );
    };
    let _ = writeln!(o, "<h2>Hottest instructions</h2>\n<table>\n{head}");
    for &i in s.hot.iter().take(hot) {
        row(&mut o, i);
    }
    o.push_str("</table>\n");
    if let Some((a, b)) = s.range {
        let _ = writeln!(
            o,
            "<h2>Annotated listing ({:#06x}..{:#06x})</h2>\n<table>\n{head}",
            listing.lines[a].offset, listing.lines[b].offset
        );
        for i in a..=b {
            row(&mut o, i);
        }
        o.push_str("</table>\n");
    }
    o.push_str("</body>\n</html>\n");
    o
}
