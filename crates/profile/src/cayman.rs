//! Cayman profiles: the counts `risa_cayman_emu` gathers
//! ([`risa_cayman_emu::profile`]) on the lines of risa's Cayman disassembly,
//! one line per CF instruction, ALU group (its slots joined by ` | `) and
//! fetch instruction, so the text and HTML reports render them as they do
//! GCN profiles; and Cayman timelines ([`Timeline`]), recorded through the
//! Cayman emulator's observer hook.

use crate::listing::{Class, Line, Listing};
use crate::recorder::{OpCount, Profile};
use crate::timeline::{Limits, Timeline as Tl, Tracker, What};
use risa_cayman::disasm::{self, ItemKind};
use risa_cayman_emu::observe::{GroupAt, ObserverFactory};
use risa_cayman_emu::profile::Layout;
use risa_cayman_emu::profile::Profile as Counts;
use risa_cayman_emu::program::{AluClause, CfKind, CfOp, FetchOp, Program};
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::Observer;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The instruction-mix classes of a Cayman profile: CF instructions, ALU
/// groups, ALU groups with an LDS op, TC fetch instructions, RAT and
/// export CF instructions (`rat/exp`; GDS instructions count as `lds`).
pub const CLASSES: [&str; 5] = ["cf", "alu", "lds", "fetch", "rat/exp"];

/// The profile of what Cayman dispatches counted, with the timeline `tl`
/// recorded (its units renumbered as the listing's lines).
pub fn profile(counts: &Counts, tl: Option<&Timeline>) -> Profile {
    let listing = listing(&counts.code, &counts.program, &counts.layout);
    // the lines in address order (CF program, then the clauses), as the
    // annotated listing shows them
    let mut rows: Vec<(usize, Line, OpCount)> = listing
        .lines
        .into_iter()
        .zip(&counts.counts)
        .enumerate()
        .map(|(i, (l, c))| {
            let c = OpCount {
                waves: c.waves,
                lanes: c.lanes,
            };
            (i, l, c)
        })
        .collect();
    rows.sort_by_key(|(_, l, _)| l.offset);
    let mut line_of = vec![0u32; rows.len()];
    for (k, (i, _, _)) in rows.iter().enumerate() {
        line_of[*i] = k as u32;
    }
    let (lines, counts) = rows.into_iter().map(|(_, l, c)| (l, c)).unzip();
    let timeline = tl.map(|t| {
        let mut t = t.finish();
        for g in &mut t.groups {
            for e in &mut g.events {
                if let What::Run { first, .. } = &mut e.what {
                    *first = line_of.get(*first as usize).copied().unwrap_or(0);
                }
            }
        }
        t
    });
    Profile {
        listing: Some(Arc::new(Listing {
            lines,
            classes: listing.classes,
        })),
        counts,
        timeline,
    }
}

/// The timeline class of a group holding GROUP_BARRIER (a slice of its own).
pub const GROUP_BARRIER: &str = "GROUP_BARRIER";

/// Records the timeline of Cayman dispatches (`risa run --timeline`): one
/// [`TimelineRecorder`] per worker thread, gathered by `Timeline::finish`.
#[derive(Clone)]
pub struct Timeline {
    limits: Limits,
    /// Where each unit's index lies (set from the program at the first CF
    /// instruction a wave runs).
    layout: Arc<OnceLock<Layout>>,
    got: Arc<Mutex<Tl>>,
}

impl Timeline {
    /// A timeline of the dispatches of one program, kept within `limits`.
    pub fn new(limits: Limits) -> Timeline {
        Timeline {
            limits,
            layout: Arc::default(),
            got: Arc::default(),
        }
    }

    /// The observer of one worker thread.
    pub fn recorder(&self) -> Box<dyn Observer> {
        Box::new(TimelineRecorder {
            tl: self.clone(),
            tracker: Tracker::new(self.limits),
            waiting: Vec::new(),
        })
    }

    /// A factory for `LaunchConfig::add_cayman_observer`.
    pub fn factory(&self) -> ObserverFactory {
        let t = self.clone();
        ObserverFactory(Arc::new(move || t.recorder()))
    }

    /// What the recorders gathered, work-groups by id; event `first`s
    /// number the units of the program's profile layout.
    fn finish(&self) -> Tl {
        let mut t = self.got.lock().unwrap_or_else(|e| e.into_inner()).clone();
        t.groups.sort_by_key(|g| g.id);
        t.limits = Some(self.limits);
        t
    }
}

/// Records the work-groups one worker thread runs.
pub struct TimelineRecorder {
    tl: Timeline,
    tracker: Tracker,
    /// Per wave: it has not started yet, or waits at a barrier.
    waiting: Vec<bool>,
}

impl TimelineRecorder {
    fn issue(&mut self, w: &Wave, unit: usize, class: Class) {
        let i = w.index as usize;
        if self.waiting.get(i).copied().unwrap_or(false) {
            self.waiting[i] = false;
            self.tracker.resume(i);
        }
        self.tracker.issue(i, unit, class);
    }
}

impl Observer for TimelineRecorder {
    fn cf_before(&mut self, w: &Wave, pc: u32, op: &CfOp, env: &Env) {
        self.tl.layout.get_or_init(|| Layout::new(env.prog));
        let class = match op.kind {
            CfKind::Rat { .. } | CfKind::ScratchWrite { .. } | CfKind::ExportCombined { .. } => {
                "rat/exp"
            }
            _ => "cf",
        };
        self.issue(w, pc as usize, Class::Mix(class));
        if matches!(op.kind, CfKind::End) {
            self.tracker.stop(w.index as usize, What::End);
        }
    }

    fn group_before(&mut self, w: &Wave, at: GroupAt, clause: &AluClause) {
        let Some(g) = clause.groups.get(at.group) else {
            return;
        };
        let ins = &clause.instrs[g.first as usize..][..g.len as usize];
        let class = if g.barrier {
            GROUP_BARRIER
        } else if ins.iter().any(|i| i.lds.is_some()) {
            "lds"
        } else {
            "alu"
        };
        let Some(layout) = self.tl.layout.get() else {
            return;
        };
        let unit = layout.alu.get(at.clause as usize).copied().unwrap_or(0) + at.group;
        self.issue(w, unit, Class::Mix(class));
    }

    fn fetch_before(&mut self, w: &Wave, clause: u32, k: usize, op: &FetchOp, _mask: u64) {
        let class = if matches!(op, FetchOp::Gds { .. }) {
            "lds"
        } else {
            "fetch"
        };
        let Some(layout) = self.tl.layout.get() else {
            return;
        };
        let unit = layout.fetch.get(clause as usize).copied().unwrap_or(0) + k;
        self.issue(w, unit, Class::Mix(class));
    }

    fn barrier(&mut self, w: &Wave) {
        let i = w.index as usize;
        self.tracker.barrier(i);
        if let Some(x) = self.waiting.get_mut(i) {
            *x = true;
        }
    }

    fn group_start(&mut self, _gid: [u32; 3], linear: u64, waves: usize, _lds_bytes: usize) {
        self.tracker.start(linear, waves);
        self.waiting.clear();
        self.waiting.resize(waves, true);
    }

    fn group_end(&mut self, _gid: [u32; 3]) {
        let g = self.tracker.end();
        let mut got = self.tl.got.lock().unwrap_or_else(|e| e.into_inner());
        got.groups.extend(g);
        got.skipped_groups += std::mem::take(&mut self.tracker.skipped);
    }
}

/// The listing of `prog`, one line per count of `layout`.
fn listing(code: &[u8], prog: &Program, layout: &Layout) -> Listing {
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
