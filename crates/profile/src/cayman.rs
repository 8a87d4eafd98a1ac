//! Cayman profiles: the counts `risa_cayman_emu` gathers
//! ([`risa_cayman_emu::profile`]) on the lines of risa's Cayman disassembly,
//! one line per CF instruction, ALU group (its slots joined by ` | `) and
//! fetch instruction, so the text and HTML reports render them as they do
//! GCN profiles.

use crate::listing::{Line, Listing};
use crate::recorder::{OpCount, Profile};
use risa_cayman::disasm::{self, ItemKind};
use risa_cayman_emu::profile::Profile as Counts;
use risa_cayman_emu::program::{CfKind, Program};
use std::collections::HashMap;
use std::sync::Arc;

/// The instruction-mix classes of a Cayman profile: CF instructions, ALU
/// groups, ALU groups with an LDS op, TC fetch instructions, RAT and
/// export CF instructions (`rat/exp`; GDS instructions count as `lds`).
pub const CLASSES: [&str; 5] = ["cf", "alu", "lds", "fetch", "rat/exp"];

/// The profile of what Cayman dispatches counted.
pub fn profile(counts: &Counts) -> Profile {
    let listing = listing(&counts.code, &counts.program, &counts.layout);
    // the lines in address order (CF program, then the clauses), as the
    // annotated listing shows them
    let mut rows: Vec<(Line, OpCount)> = listing
        .lines
        .into_iter()
        .zip(&counts.counts)
        .map(|(l, c)| {
            let c = OpCount {
                waves: c.waves,
                lanes: c.lanes,
            };
            (l, c)
        })
        .collect();
    rows.sort_by_key(|(l, _)| l.offset);
    let (lines, counts) = rows.into_iter().unzip();
    Profile {
        listing: Some(Arc::new(Listing {
            lines,
            classes: listing.classes,
        })),
        counts,
        timeline: None,
    }
}

/// The listing of `prog`, one line per count of `layout`.
fn listing(code: &[u8], prog: &Program, layout: &risa_cayman_emu::profile::Layout) -> Listing {
    let (dis, _) = disasm::listing(code);
    // the disassembler's lines by dword offset and kind
    let mut at: HashMap<(usize, bool), &str> = HashMap::new();
    for it in &dis.items {
        let key = match it.kind {
            ItemKind::Cf => (it.dword, true),
            ItemKind::Alu | ItemKind::Fetch => (it.dword, false),
            _ => continue,
        };
        at.entry(key).or_insert(it.text.trim());
    }
    let word = |dword: usize| -> u32 {
        code.get(dword * 4..dword * 4 + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let text = |dword: usize, cf: bool| -> String {
        at.get(&(dword, cf))
            .map_or_else(|| format!(".long {:#010x}", word(dword)), |t| t.to_string())
    };
    let mut lines = vec![None; layout.len];
    for (i, op) in prog.cf.iter().enumerate() {
        let mnemonic =
            risa_cayman::codec::decode_cf(word(2 * i), word(2 * i + 1)).map_or("?", |c| c.op.name);
        let mix = match op.kind {
            CfKind::Rat { .. } | CfKind::ScratchWrite { .. } | CfKind::ExportCombined { .. } => {
                "rat/exp"
            }
            _ => "cf",
        };
        lines[i] = Some(Line {
            offset: (8 * i) as u32,
            text: text(2 * i, true),
            mnemonics: vec![mnemonic],
            mix,
            class: None,
            target: jump_target(&op.kind).then_some(8 * op.addr),
        });
    }
    for (c, clause) in prog.alu.iter().enumerate() {
        let (Ok(clause), Some(&start)) = (clause, prog.alu_addr.get(c)) else {
            continue;
        };
        for (g, group) in clause.groups.iter().enumerate() {
            let slot = (start + group.at) as usize;
            let instrs = &clause.instrs[group.first as usize..][..group.len as usize];
            let texts: Vec<String> = (0..instrs.len())
                .map(|k| text(2 * (slot + k), false))
                .collect();
            let lds = instrs.iter().any(|i| i.lds.is_some());
            lines[layout.alu[c] + g] = Some(Line {
                offset: (8 * slot) as u32,
                text: texts.join(" | "),
                mnemonics: instrs.iter().map(|i| i.name).collect(),
                mix: if lds { "lds" } else { "alu" },
                class: None,
                target: None,
            });
        }
    }
    for (f, clause) in prog.fetch.iter().enumerate() {
        let Some(&start) = prog.fetch_addr.get(f) else {
            continue;
        };
        let gds = fetch_is_gds(prog, f);
        for k in 0..clause.len() {
            let dword = 2 * start as usize + 4 * k;
            let w = [
                word(dword),
                word(dword + 1),
                word(dword + 2),
                word(dword + 3),
            ];
            let mnemonic = risa_cayman::codec::decode_fetch(w, gds).map_or("?", |i| i.op.name);
            lines[layout.fetch[f] + k] = Some(Line {
                offset: (4 * dword) as u32,
                text: text(dword, false),
                mnemonics: vec![mnemonic],
                mix: if gds { "lds" } else { "fetch" },
                class: None,
                target: None,
            });
        }
    }
    Listing {
        lines: lines
            .into_iter()
            .map(|l| {
                l.unwrap_or_else(|| Line {
                    offset: 0,
                    text: String::new(),
                    mnemonics: Vec::new(),
                    mix: "cf",
                    class: None,
                    target: None,
                })
            })
            .collect(),
        classes: &CLASSES,
    }
}

/// CF instructions whose ADDR is where they may go.
fn jump_target(k: &CfKind) -> bool {
    matches!(
        k,
        CfKind::Jump
            | CfKind::Else(_)
            | CfKind::LoopStart(_)
            | CfKind::LoopEnd
            | CfKind::LoopBreak
            | CfKind::LoopContinue
            | CfKind::Call
            | CfKind::JumpAny
    )
}

/// Whether fetch clause `f` is a GDS clause (started by a GDS CF instruction).
fn fetch_is_gds(prog: &Program, f: usize) -> bool {
    prog.cf
        .iter()
        .any(|op| matches!(op.kind, CfKind::Gds(i) if i as usize == f))
}
