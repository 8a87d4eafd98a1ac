//! The static checks: wait-state hazards and `s_waitcnt` over the control
//! flow graph, without running the code.
//!
//! Both are forward dataflow analyses over [`Cfg`] blocks that join the
//! states of all predecessor paths conservatively:
//! - hazards: a [`Window`] of recent instructions, joined by keeping per
//!   producer the fewest wait states since it (the worst path);
//! - `s_waitcnt`: per register, the memory operation that may still be
//!   writing it, as its age on each counter (how many operations of that
//!   counter issued after it), joined by keeping the youngest age. An
//!   `s_waitcnt` retires what it provably waits for ([`counters`]); a read
//!   of a register that may still be written, a write over one (the late
//!   return would overwrite it), a write of a VGPR an export or (before
//!   GCN 1.2) a store has not read yet, and an `s_barrier` with LDS writes
//!   outstanding are reported. FLAT results are waited for on VM_CNT: a
//!   FLAT access known to be LDS would be a DS instruction in clang's code. After a report the analysis goes on as if
//!   the missing wait were there, so one bug gives one finding.

use crate::access::{mem, Class, File, Reg};
use crate::cfg::{Cfg, Entry, Exit, Insn};
use crate::counters::{self, counts, in_order, kind, Counter, Model, Wait};
use crate::finding::{Finding, Kind, Report};
use crate::hazard::{describe, Window};
use risa_gcn::{print, Dialect, Gen, Instr, Target};

/// What to check and how to print it.
#[derive(Debug, Clone)]
pub struct Options {
    /// The checks (only [`Kind::Waitcnt`] and [`Kind::Hazard`] are static).
    pub kinds: Vec<Kind>,
    /// The syntax of instructions in findings.
    pub dialect: Dialect,
    /// The code runs with XNACK on (replayable memory instructions: the
    /// soft-clause hazard applies).
    pub xnack: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kinds: vec![Kind::Waitcnt, Kind::Hazard],
            dialect: Dialect::Llvm,
            xnack: false,
        }
    }
}

/// Checks `code` for `target` from the entry offsets (kernels and
/// functions).
///
/// ```
/// use risa_check::{cfg::Entry, lint::{check_code, Options}};
/// use risa_gcn::Gen;
/// // v_readfirstlane_b32 s4, v0; v_readlane_b32 s5, v1, s4; s_endpgm
/// let words = [0x7e08_0500u32, 0xd289_0005, 0x0000_0901, 0xbf81_0000];
/// let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// let r = check_code(Gen::Gcn12.into(), &code, &[Entry::kernel(0)], &Options::default());
/// let (f, _) = r.findings().next().unwrap();
/// assert_eq!((f.pc, f.kind), (4, risa_check::Kind::Hazard));
/// ```
pub fn check_code(target: Target, code: &[u8], entries: &[Entry], opts: &Options) -> Report {
    let g = crate::cfg::build(target, code, entries);
    check_cfg(&g, opts)
}

/// Checks a graph.
pub fn check_cfg(g: &Cfg, opts: &Options) -> Report {
    let mut r = Report::default();
    let Some(gen) = g.insns.first().map(|i| i.instr.gen) else {
        return r;
    };
    if opts.kinds.contains(&Kind::Hazard) {
        hazards(g, opts.dialect, opts.xnack, &mut r);
    }
    if opts.kinds.contains(&Kind::Waitcnt) {
        waitcnts(g, gen, opts.dialect, &mut r);
    }
    r
}

fn text(i: &Instr, d: Dialect) -> String {
    print(i, d)
}

fn mnemonic(i: &Instr, d: Dialect) -> &'static str {
    match d {
        Dialect::Llvm => i.info().name,
        _ => i.info().clrx,
    }
}

/// Runs a forward dataflow to a fixed point: `step` transfers a block's
/// entry state to its exit state (reporting into the sink when given),
/// `join` merges a predecessor's exit state into a successor's entry state.
fn solve<S: Clone>(
    g: &Cfg,
    init: S,
    function_entry: S,
    mut step: impl FnMut(usize, &mut S, Option<&mut Report>),
    mut join: impl FnMut(&mut S, &S) -> bool,
    report: &mut Report,
) {
    let n = g.blocks.len();
    let mut entry: Vec<Option<S>> = vec![None; n];
    let mut work: Vec<usize> = Vec::new();
    for &(e, function) in &g.entries {
        entry[e] = Some(if function {
            function_entry.clone()
        } else {
            init.clone()
        });
        work.push(e);
    }
    let mut queued = vec![false; n];
    for &e in &work {
        queued[e] = true;
    }
    // A bound on iterations: the lattices are finite, this only guards
    // against a bug turning into a hang.
    let mut budget = 64 * n + 1000;
    while let Some(b) = work.pop() {
        queued[b] = false;
        if budget == 0 {
            break;
        }
        budget -= 1;
        let Some(mut s) = entry[b].clone() else {
            continue;
        };
        step(b, &mut s, None);
        let bl = &g.blocks[b];
        for &succ in &bl.succs {
            let s_in = if bl.exit == Exit::Call && succ_is_next(g, b, succ) {
                // After a call returns, the callee has waited for its memory
                // operations and the window of recent instructions is gone.
                init.clone()
            } else {
                s.clone()
            };
            let changed = match &mut entry[succ] {
                Some(e) => join(e, &s_in),
                slot @ None => {
                    *slot = Some(s_in);
                    true
                }
            };
            if changed && !queued[succ] {
                queued[succ] = true;
                work.push(succ);
            }
        }
    }
    for (b, e) in entry.iter().enumerate() {
        if let Some(e) = e {
            let mut s = e.clone();
            step(b, &mut s, Some(report));
        }
    }
}

fn succ_is_next(g: &Cfg, b: usize, succ: usize) -> bool {
    let last = &g.insns[g.blocks[b].end - 1];
    g.insns[g.blocks[succ].start].pc == last.pc + 4 * u64::from(last.instr.len)
}

fn hazards(g: &Cfg, d: Dialect, xnack: bool, report: &mut Report) {
    let step = |b: usize, w: &mut Window, mut out: Option<&mut Report>| {
        for ins in g.block_insns(b) {
            if let Some(r) = out.as_deref_mut() {
                w.check(&ins.instr, &ins.access, &mut |v| {
                    let producer = g
                        .insns
                        .binary_search_by_key(&v.producer_pc, |i| i.pc)
                        .map(|k| mnemonic(&g.insns[k].instr, d))
                        .unwrap_or("instruction");
                    r.add(Finding {
                        kind: Kind::Hazard,
                        pc: ins.pc,
                        instr: text(&ins.instr, d),
                        message: describe(&v, producer),
                    });
                });
            }
            w.push(ins.pc, &ins.instr, &ins.access);
        }
    };
    solve(
        g,
        Window::new(xnack),
        Window::new(xnack),
        step,
        |a, b| a.join(b),
        report,
    );
}

/// No operation outstanding on a counter.
const NONE: u8 = u8::MAX;

/// A register's outstanding write: per counter, how many operations of
/// that counter issued after the one that writes it ([`NONE`]: not
/// pending), and which instruction that is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    age: [u8; 3],
    by: u32,
}

/// [`Slot::by`] of what the caller of a function left outstanding.
const CALLER: u32 = u32::MAX;

const FREE: Slot = Slot {
    age: [NONE; 3],
    by: 0,
};

impl Slot {
    fn pending(&self) -> bool {
        self.age != [NONE; 3]
    }

    /// Retires the slot on counter `c`.
    fn retire(&mut self, c: usize) {
        self.age[c] = NONE;
    }
}

/// The `s_waitcnt` dataflow state.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    /// Outstanding register writes: SGPR codes 0-127, then VGPRs.
    write: Vec<Slot>,
    /// VGPRs whose data an export, GDS instruction or (GCN 1.0/1.1) store
    /// has not read yet (EXP_CNT).
    lock: Vec<Slot>,
    /// Outstanding LDS writes (the youngest).
    lds_store: Slot,
    /// Outstanding vector memory writes: stores and atomics (the youngest).
    vm_store: Slot,
    /// Outstanding vector memory reads: loads and atomics (the youngest).
    vm_read: Slot,
    /// Kinds of operations outstanding per counter.
    kinds: [u16; 3],
}

const SREGS: usize = 128;

fn slot_index(file: File, r: u16) -> usize {
    match file {
        File::Scalar => r as usize,
        File::Vector => SREGS + r as usize,
    }
}

impl Pending {
    fn new() -> Self {
        Pending {
            write: vec![FREE; SREGS + 256],
            lock: vec![FREE; 256],
            lds_store: FREE,
            vm_store: FREE,
            vm_read: FREE,
            kinds: [0; 3],
        }
    }

    /// The state at the entry of a called function: the caller's memory
    /// operations may all still be outstanding (a function waits for them
    /// first, as LLVM's calling convention has it).
    fn caller() -> Self {
        let mut p = Pending::new();
        let all = Slot {
            age: [0; 3],
            by: CALLER,
        };
        p.write.fill(all);
        p.kinds = [kind::VMEM, kind::EXPORT, kind::SMEM | kind::LDS];
        p
    }

    fn slots_mut(&mut self) -> impl Iterator<Item = &mut Slot> {
        self.write.iter_mut().chain(self.lock.iter_mut()).chain([
            &mut self.lds_store,
            &mut self.vm_store,
            &mut self.vm_read,
        ])
    }

    /// Applies a wait: everything provably done on each counter retires.
    fn wait(&mut self, w: &Wait, model: &Model) {
        for c in Counter::ALL {
            let n = w.of(c);
            if n >= model.max[c as usize] {
                continue;
            }
            let ordered = in_order(c, self.kinds[c as usize]);
            let ci = c as usize;
            for s in self.slots_mut() {
                if s.age[ci] != NONE && (n == 0 || (ordered && u32::from(s.age[ci]) >= n)) {
                    s.retire(ci);
                }
            }
            if n == 0 {
                self.kinds[ci] = 0;
            }
        }
    }

    /// The wait that a missing `s_waitcnt` before this point would have
    /// been for slot `s`: used to report it and to go on as if it were there.
    fn needed(&self, s: &Slot, model: &Model) -> Wait {
        let mut at_most = model.max;
        for c in Counter::ALL {
            let ci = c as usize;
            if s.age[ci] != NONE {
                at_most[ci] = if in_order(c, self.kinds[ci]) {
                    u32::from(s.age[ci])
                } else {
                    0
                };
            }
        }
        Wait { at_most }
    }

    /// Issues an instruction that increments the counters in `k`.
    fn issue(&mut self, k: &counters::Counts, model: &Model) {
        for c in Counter::ALL {
            let ci = c as usize;
            if !k.on(c) {
                continue;
            }
            let ordered = in_order(c, self.kinds[ci] | k.kinds[ci]);
            let max = model.max[ci];
            for s in self.slots_mut() {
                if s.age[ci] != NONE {
                    s.age[ci] = s.age[ci].saturating_add(1).min(NONE - 1);
                    // The counter cannot exceed its maximum: issue waits, so
                    // the oldest of an in-order counter has completed.
                    if ordered && u32::from(s.age[ci]) >= max {
                        s.retire(ci);
                    }
                }
            }
            self.kinds[ci] |= k.kinds[ci];
        }
    }

    fn join(&mut self, o: &Pending) -> bool {
        let before = (self.kinds, self.lds_store, self.vm_store, self.vm_read);
        let mut changed = false;
        let merge = |a: &mut Slot, b: &Slot, changed: &mut bool| {
            if !b.pending() {
                return;
            }
            if !a.pending() {
                *a = *b;
                *changed = true;
                return;
            }
            for c in 0..3 {
                if b.age[c] < a.age[c] {
                    a.age[c] = b.age[c];
                    a.by = b.by;
                    *changed = true;
                }
            }
        };
        for (a, b) in self.write.iter_mut().zip(&o.write) {
            merge(a, b, &mut changed);
        }
        for (a, b) in self.lock.iter_mut().zip(&o.lock) {
            merge(a, b, &mut changed);
        }
        merge(&mut self.lds_store, &o.lds_store, &mut changed);
        merge(&mut self.vm_store, &o.vm_store, &mut changed);
        merge(&mut self.vm_read, &o.vm_read, &mut changed);
        for c in 0..3 {
            self.kinds[c] |= o.kinds[c];
        }
        changed || before != (self.kinds, self.lds_store, self.vm_store, self.vm_read)
    }
}

/// The registers of a range, as slot indices.
fn regs(r: &Reg) -> impl Iterator<Item = (u16, usize)> + '_ {
    (r.first..r.first + u16::from(r.count)).map(|k| (k, slot_index(r.file, k)))
}

fn reg_name(file: File, k: u16) -> String {
    Reg {
        file,
        first: k,
        count: 1,
        how: crate::access::Use::Src,
    }
    .name()
}

fn wait_text(w: &Wait, model: &Model) -> String {
    let parts: Vec<String> = Counter::ALL
        .iter()
        .filter(|&&c| w.of(c) < model.max[c as usize])
        .map(|&c| format!("{}({})", c.name(), w.of(c)))
        .collect();
    format!("s_waitcnt {}", parts.join(" "))
}

fn waitcnts(g: &Cfg, gen: Gen, d: Dialect, report: &mut Report) {
    let model = counters::model(gen);
    let step = |b: usize, p: &mut Pending, mut out: Option<&mut Report>| {
        for ins in g.block_insns(b) {
            transfer(g, ins, p, model, d, out.as_deref_mut());
        }
    };
    solve(
        g,
        Pending::new(),
        Pending::caller(),
        step,
        |a, b| a.join(b),
        report,
    );
}

/// One instruction of the `s_waitcnt` analysis.
fn transfer(
    g: &Cfg,
    ins: &Insn,
    p: &mut Pending,
    model: &Model,
    d: Dialect,
    mut out: Option<&mut Report>,
) {
    let (i, a) = (&ins.instr, &ins.access);
    if let Some(w) = counters::waitcnt_of(i, a) {
        p.wait(&w, model);
        return;
    }
    let by_name = |by: u32| match g.insns.get(by as usize) {
        Some(src) => format!("the {} at {:#x}", mnemonic(&src.instr, d), src.pc),
        None => "a memory operation of the caller".to_string(),
    };
    let mut report = |p: &mut Pending, s: Slot, what: String| {
        let w = p.needed(&s, model);
        if let Some(r) = out.as_deref_mut() {
            r.add(Finding {
                kind: Kind::Waitcnt,
                pc: ins.pc,
                instr: text(i, d),
                message: format!(
                    "{what} while {} may be outstanding (needs {} before it)",
                    by_name(s.by),
                    wait_text(&w, model)
                ),
            });
        }
        p.wait(&w, model);
    };
    // Reads of registers a memory operation may still be writing.
    for r in a.reads.as_slice() {
        for (k, idx) in regs(r) {
            let s = p.write[idx];
            if s.pending() {
                report(p, s, format!("{} read", reg_name(r.file, k)));
            }
        }
    }
    let c = counts(i, a);
    let returns = a.touches(mem::RETURNS);
    // Writes over a pending write (its late return would land after this
    // one), unless both return in order on the same counter.
    for r in a.writes.as_slice() {
        for (k, idx) in regs(r) {
            let s = p.write[idx];
            if s.pending() {
                let ordered_same = returns
                    && Counter::ALL.iter().all(|&cn| {
                        let ci = cn as usize;
                        s.age[ci] == NONE || (c.on(cn) && in_order(cn, p.kinds[ci] | c.kinds[ci]))
                    });
                if !ordered_same {
                    report(p, s, format!("{} written", reg_name(r.file, k)));
                }
            }
            if r.file == File::Vector {
                let l = p.lock[k as usize];
                if l.pending() {
                    report(
                        p,
                        l,
                        format!(
                            "{} overwritten (its data not yet read)",
                            reg_name(r.file, k)
                        ),
                    );
                }
            }
        }
    }
    // Memory-model waits (LLVM's memory legalizer, AMDGPUUsage): LDS and
    // global writes are done before other waves pass a barrier and before a
    // function returns; an L1 invalidate (acquire) comes after the loads
    // and atomics before it completed.
    let name = i.info().name;
    let ends_function = name == "s_setpc_b64";
    if name == "s_barrier" || ends_function {
        for s in [p.lds_store, p.vm_store] {
            if s.pending() {
                report(p, s, name.to_string());
            }
        }
    }
    if ends_function {
        if let Some(s) = p.write.iter().copied().find(Slot::pending) {
            report(p, s, "return".to_string());
        }
    }
    if name.starts_with("buffer_wbinvl1") && p.vm_read.pending() {
        let s = p.vm_read;
        report(p, s, format!("{} (acquire)", mnemonic(i, d)));
    }
    if !c.any() {
        // An ALU write: the register now holds this instruction's value.
        for r in a.writes.as_slice() {
            for (_, idx) in regs(r) {
                p.write[idx] = FREE;
            }
        }
        return;
    }
    p.issue(&c, model);
    let me = g
        .insns
        .binary_search_by_key(&ins.pc, |x| x.pc)
        .unwrap_or_default() as u32;
    let fresh = |on: &[Counter]| {
        let mut s = FREE;
        s.by = me;
        for &cn in on {
            if c.on(cn) {
                s.age[cn as usize] = 0;
            }
        }
        s
    };
    let data_counters: &[Counter] = match a.class {
        Class::Smem | Class::Ds => &[Counter::Lgkm],
        Class::Vmem => &[Counter::Vm],
        // FLAT counts on both counters, but its data is taken to come from
        // global memory, waited for on VM_CNT (as LLVM does for the FLAT
        // accesses it knows are not LDS: all of clang's).
        Class::Flat => &[Counter::Vm],
        _ => &[],
    };
    for r in a.writes.as_slice() {
        for (_, idx) in regs(r) {
            p.write[idx] = if returns && !data_counters.is_empty() {
                fresh(data_counters)
            } else {
                FREE
            };
        }
    }
    // Data VGPRs held until EXP_CNT decrements.
    if c.on(Counter::Exp) {
        for r in a.reads.as_slice() {
            if r.file == File::Vector && r.how == crate::access::Use::Data {
                for (k, _) in regs(r) {
                    p.lock[k as usize] = fresh(&[Counter::Exp]);
                }
            }
        }
    }
    if c.kinds[Counter::Lgkm as usize] & kind::LDS != 0 && a.touches(mem::LDS_W) {
        p.lds_store = fresh(&[Counter::Lgkm]);
    }
    if c.on(Counter::Vm) && a.touches(mem::VMEM_W) {
        p.vm_store = fresh(&[Counter::Vm]);
    }
    if c.on(Counter::Vm) && a.touches(mem::VMEM_R) {
        p.vm_read = fresh(&[Counter::Vm]);
    }
}
