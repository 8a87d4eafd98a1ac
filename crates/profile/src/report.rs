//! The text profile (`risa run --profile`): the hottest instructions, the
//! instruction mix, then the disassembly with each instruction's share, the
//! way `perf annotate` shows a function.

use crate::recorder::{OpCount, Profile};
use crate::Listing;
use std::fmt::Write;

/// Totals and orderings of a profile, shared by the text and HTML reports.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Wave-instructions issued (equals `--stats`' total).
    pub total: u64,
    /// Active lanes summed over every issue.
    pub lanes: u64,
    /// Wave-instructions and active lanes per mix class, in
    /// [`Listing::classes`] order.
    pub by_class: Vec<(&'static str, OpCount)>,
    /// Wave-instructions per mnemonic, most first (a Cayman ALU group
    /// counts once under each of its slots' mnemonics).
    pub by_mnemonic: Vec<(&'static str, u64)>,
    /// Op indices of every executed instruction, most issued first (ties in
    /// address order).
    pub hot: Vec<usize>,
    /// The first and last executed op (the listing's range).
    pub range: Option<(usize, usize)>,
}

impl Summary {
    /// Sums up `p`.
    pub fn new(p: &Profile) -> Summary {
        let mut s = Summary {
            total: 0,
            lanes: 0,
            by_class: Vec::new(),
            by_mnemonic: Vec::new(),
            hot: Vec::new(),
            range: None,
        };
        let Some(listing) = &p.listing else {
            return s;
        };
        s.by_class = listing
            .classes
            .iter()
            .map(|&k| (k, OpCount::default()))
            .collect();
        let mut mnem: Vec<(&'static str, u64)> = Vec::new();
        for (i, (c, l)) in p.counts.iter().zip(&listing.lines).enumerate() {
            if c.waves == 0 {
                continue;
            }
            s.total += c.waves;
            s.lanes += c.lanes;
            if let Some((_, k)) = s.by_class.iter_mut().find(|(k, _)| *k == l.mix) {
                k.waves += c.waves;
                k.lanes += c.lanes;
            }
            for &m in &l.mnemonics {
                match mnem.iter_mut().find(|(n, _)| *n == m) {
                    Some((_, n)) => *n += c.waves,
                    None => mnem.push((m, c.waves)),
                }
            }
            s.hot.push(i);
            s.range = Some((s.range.map_or(i, |r| r.0), i));
        }
        mnem.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        s.by_mnemonic = mnem;
        s.hot
            .sort_by(|&a, &b| p.counts[b].waves.cmp(&p.counts[a].waves).then(a.cmp(&b)));
        s
    }

    /// `n` as a percentage of all wave-instructions.
    pub fn pct(&self, n: u64) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.total as f64
        }
    }
}

/// Average active lanes per issue.
pub fn lanes_per_wave(c: &OpCount) -> f64 {
    if c.waves == 0 {
        0.0
    } else {
        c.lanes as f64 / c.waves as f64
    }
}

/// The instruction with its branch target, as the listing shows it.
pub fn shown(listing: &Listing, idx: usize) -> String {
    let l = &listing.lines[idx];
    match l.target {
        Some(t) => format!("{}  -> {t:#06x}", l.text),
        None => l.text.clone(),
    }
}

/// The text report: `title` (kernel, chip, grid), the `hot` hottest
/// instructions, the mix by category, and the annotated listing from the
/// first to the last executed instruction.
pub fn text(p: &Profile, title: &str, hot: usize) -> String {
    let s = Summary::new(p);
    let mut o = String::new();
    let _ = writeln!(o, "# risa profile: {title}");
    let Some(listing) = &p.listing else {
        let _ = writeln!(o, "# no instruction was issued");
        return o;
    };
    let _ = writeln!(
        o,
        "# {} wave-instructions, {:.1} active lanes per wave-instruction",
        s.total,
        s.lanes as f64 / s.total.max(1) as f64
    );
    let row = |o: &mut String, i: usize| {
        let c = &p.counts[i];
        let _ = writeln!(
            o,
            "{:>7.2}% {:>12} {:>14} {:>7.1}  {:#06x}  {}",
            s.pct(c.waves),
            c.waves,
            c.lanes,
            lanes_per_wave(c),
            listing.lines[i].offset,
            shown(listing, i)
        );
    };
    let header = format!(
        "{:>8} {:>12} {:>14} {:>7}  {:<6}  instruction",
        "percent", "waves", "lanes", "lanes/w", "pc"
    );
    let _ = writeln!(o, "\nHottest instructions\n{header}");
    for &i in s.hot.iter().take(hot) {
        row(&mut o, i);
    }
    let _ = writeln!(
        o,
        "\nInstruction mix\n{:<8} {:>12} {:>8} {:>7}",
        "class", "waves", "percent", "lanes/w"
    );
    for (k, c) in &s.by_class {
        if c.waves > 0 {
            let pct = s.pct(c.waves);
            let _ = writeln!(
                o,
                "{:<8} {:>12} {:>7.2}% {:>7.1}  {}",
                k,
                c.waves,
                pct,
                lanes_per_wave(c),
                "#".repeat((pct / 2.5).round() as usize)
            );
        }
    }
    if let Some((a, b)) = s.range {
        let _ = writeln!(
            o,
            "\nAnnotated listing ({:#06x}..{:#06x})\n{header}",
            listing.lines[a].offset, listing.lines[b].offset
        );
        for i in a..=b {
            if p.counts[i].waves > 0 {
                row(&mut o, i);
            } else {
                let l = &listing.lines[i];
                let _ = writeln!(o, "{:46}{:#06x}  {}", "", l.offset, shown(listing, i));
            }
        }
    }
    o
}
