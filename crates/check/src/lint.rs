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
    check_code_noting(target, code, entries, opts).0
}

/// [`check_code`], with the places the control flow could not be followed
/// (words that do not decode, branches out of the code) as (PC, reason).
pub fn check_code_noting(
    target: Target,
    code: &[u8],
    entries: &[Entry],
    opts: &Options,
) -> (Report, Vec<(u64, String)>) {
    let g = crate::cfg::build(target, code, entries);
    (check_cfg(&g, opts), g.notes)
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
                w.check_masked(&ins.instr, &ins.access, ins.consumer_mask, &mut |v| {
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
            w.push_masked(ins.pc, &ins.instr, &ins.access, ins.producer_mask);
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

/// A register's outstanding write: per counter, the score (issue number on
/// that counter) of the memory operation that writes it (0: none), and
/// which instruction that is. Scores make an issue or a wait O(1): an
/// operation's age is the counter's top score minus its own (LLVM's
/// SIInsertWaitcnts keeps score brackets the same way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    score: [u32; 3],
    by: u32,
}

/// [`Slot::by`] of what the caller of a function left outstanding.
const CALLER: u32 = u32::MAX;

const FREE: Slot = Slot {
    score: [0; 3],
    by: 0,
};

/// The `s_waitcnt` dataflow state.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    /// Outstanding register writes: SGPR codes 0-127, then VGPRs.
    write: Vec<Slot>,
    /// VGPRs whose data an export, GDS instruction or (GCN 1.0) store has
    /// not read yet (EXP_CNT).
    lock: Vec<Slot>,
    /// Outstanding LDS writes (the youngest).
    lds_store: Slot,
    /// Outstanding vector memory writes: stores and atomics (the youngest).
    vm_store: Slot,
    /// Outstanding vector memory reads: loads and atomics (the youngest).
    vm_read: Slot,
    /// Kinds of operations outstanding per counter.
    kinds: [u16; 3],
    /// Per counter, the score of the youngest operation issued.
    top: [u32; 3],
    /// Per counter, operations with scores up to this one are complete.
    done: [u32; 3],
    /// The counters' maxima.
    max: [u32; 3],
}

const SREGS: usize = 128;

fn slot_index(file: File, r: u16) -> usize {
    match file {
        File::Scalar => r as usize,
        File::Vector => SREGS + r as usize,
    }
}

impl Pending {
    fn new(model: &Model) -> Self {
        Pending {
            write: vec![FREE; SREGS + 256],
            lock: vec![FREE; 256],
            lds_store: FREE,
            vm_store: FREE,
            vm_read: FREE,
            kinds: [0; 3],
            top: [0; 3],
            done: [0; 3],
            max: model.max,
        }
    }

    /// The state at the entry of a called function: the caller's memory
    /// operations may all still be outstanding (a function waits for them
    /// first, as LLVM's calling convention has it).
    fn caller(model: &Model) -> Self {
        let mut p = Pending::new(model);
        p.top = [1; 3];
        let all = Slot {
            score: [1; 3],
            by: CALLER,
        };
        p.write.fill(all);
        p.kinds = [kind::VMEM, kind::EXPORT, kind::SMEM | kind::LDS];
        p
    }

    /// How many operations of counter `c` issued after the one of slot `s`
    /// (None: it is complete, or there is none).
    fn age(&self, s: &Slot, c: usize) -> Option<u32> {
        let sc = s.score[c];
        if sc == 0 || sc <= self.done[c] {
            return None;
        }
        let age = self.top[c] - sc;
        // The counter cannot exceed its maximum (issue waits), so the oldest
        // operations of an in-order counter have completed.
        if age >= self.max[c] && in_order(COUNTERS[c], self.kinds[c]) {
            return None;
        }
        Some(age)
    }

    fn pending(&self, s: &Slot) -> bool {
        (0..3).any(|c| self.age(s, c).is_some())
    }

    /// Applies a wait: everything provably done on each counter retires.
    fn wait(&mut self, w: &Wait) {
        for c in Counter::ALL {
            let ci = c as usize;
            let n = w.of(c);
            if n >= self.max[ci] {
                continue;
            }
            if n == 0 {
                self.done[ci] = self.top[ci];
                self.kinds[ci] = 0;
            } else if in_order(c, self.kinds[ci]) {
                self.done[ci] = self.done[ci].max(self.top[ci].saturating_sub(n));
            }
        }
    }

    /// The wait that a missing `s_waitcnt` before this point would have
    /// been for slot `s`: used to report it and to go on as if it were there.
    fn needed(&self, s: &Slot) -> Wait {
        let mut at_most = self.max;
        for c in Counter::ALL {
            let ci = c as usize;
            if let Some(age) = self.age(s, ci) {
                at_most[ci] = if in_order(c, self.kinds[ci]) { age } else { 0 };
            }
        }
        Wait { at_most }
    }

    /// Issues an instruction that increments the counters in `k`.
    fn issue(&mut self, k: &counters::Counts) {
        for c in Counter::ALL {
            let ci = c as usize;
            if k.on(c) {
                self.top[ci] += 1;
                self.kinds[ci] |= k.kinds[ci];
            }
        }
    }

    /// A slot for an operation just issued on the counters `on`.
    fn fresh(&self, on: &[Counter], by: u32) -> Slot {
        let mut s = Slot { score: [0; 3], by };
        for &c in on {
            s.score[c as usize] = self.top[c as usize];
        }
        s
    }

    /// Merges the state of another path: per slot and counter the youngest
    /// age (the worst case), kinds united.
    fn join(&mut self, o: &Pending) -> bool {
        let mut changed = false;
        let kinds: [u16; 3] = std::array::from_fn(|c| self.kinds[c] | o.kinds[c]);
        changed |= kinds != self.kinds;
        let top: [u32; 3] = std::array::from_fn(|c| self.top[c].max(o.top[c]) + 1);
        // Slot by slot, in place: the ages are read with this state's old
        // top/done/kinds, which change only at the end.
        let merge = |me: &Pending, a: &Slot, b: &Slot, changed: &mut bool| {
            let mut out = Slot {
                score: [0; 3],
                by: a.by,
            };
            for (c, &top_c) in top.iter().enumerate() {
                let (x, y) = (me.age(a, c), o.age(b, c));
                let age = match (x, y) {
                    (Some(x), Some(y)) if y < x => {
                        out.by = b.by;
                        *changed = true;
                        y
                    }
                    (Some(x), _) => x,
                    (None, Some(y)) => {
                        out.by = b.by;
                        *changed = true;
                        y
                    }
                    (None, None) => continue,
                };
                out.score[c] = top_c - age;
            }
            out
        };
        for k in 0..self.write.len() {
            let m = merge(self, &self.write[k], &o.write[k], &mut changed);
            self.write[k] = m;
        }
        for k in 0..self.lock.len() {
            let m = merge(self, &self.lock[k], &o.lock[k], &mut changed);
            self.lock[k] = m;
        }
        self.lds_store = merge(self, &self.lds_store, &o.lds_store, &mut changed);
        self.vm_store = merge(self, &self.vm_store, &o.vm_store, &mut changed);
        self.vm_read = merge(self, &self.vm_read, &o.vm_read, &mut changed);
        self.kinds = kinds;
        self.top = top;
        self.done = [0; 3];
        changed
    }
}

/// The counters by index.
const COUNTERS: [Counter; 3] = Counter::ALL;

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
        Pending::new(model),
        Pending::caller(model),
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
        p.wait(&w);
        return;
    }
    let by_name = |by: u32| match g.insns.get(by as usize) {
        Some(src) => format!("the {} at {:#x}", mnemonic(&src.instr, d), src.pc),
        None => "a memory operation of the caller".to_string(),
    };
    let mut report = |p: &mut Pending, s: Slot, what: String| {
        let w = p.needed(&s);
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
        p.wait(&w);
    };
    // Reads of registers a memory operation may still be writing.
    for r in a.reads.as_slice() {
        for (k, idx) in regs(r) {
            let s = p.write[idx];
            if p.pending(&s) {
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
            if p.pending(&s) {
                let ordered_same = returns
                    && Counter::ALL.iter().all(|&cn| {
                        let ci = cn as usize;
                        p.age(&s, ci).is_none()
                            || (c.on(cn) && in_order(cn, p.kinds[ci] | c.kinds[ci]))
                    });
                if !ordered_same {
                    report(p, s, format!("{} written", reg_name(r.file, k)));
                }
            }
            if r.file == File::Vector {
                let l = p.lock[k as usize];
                if p.pending(&l) {
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
            if p.pending(&s) {
                report(p, s, name.to_string());
            }
        }
    }
    if ends_function {
        if let Some(s) = p.write.iter().copied().find(|s| p.pending(s)) {
            report(p, s, "return".to_string());
        }
    }
    if name.starts_with("buffer_wbinvl1") && p.pending(&p.vm_read) {
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
    p.issue(&c);
    let me = g
        .insns
        .binary_search_by_key(&ins.pc, |x| x.pc)
        .unwrap_or_default() as u32;
    let fresh = |p: &Pending, on: &[Counter]| {
        let mut s = p.fresh(on, me);
        for &cn in on {
            if !c.on(cn) {
                s.score[cn as usize] = 0;
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
                fresh(p, data_counters)
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
                    p.lock[k as usize] = fresh(p, &[Counter::Exp]);
                }
            }
        }
    }
    if c.kinds[Counter::Lgkm as usize] & kind::LDS != 0 && a.touches(mem::LDS_W) {
        p.lds_store = fresh(p, &[Counter::Lgkm]);
    }
    if c.on(Counter::Vm) && a.touches(mem::VMEM_W) {
        p.vm_store = fresh(p, &[Counter::Vm]);
    }
    if c.on(Counter::Vm) && a.touches(mem::VMEM_R) {
        p.vm_read = fresh(p, &[Counter::Vm]);
    }
}
