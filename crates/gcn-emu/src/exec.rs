//! Running waves: the interpreter loop, work-group scheduling at barriers,
//! statistics and tracing.

use crate::fault::{Fault, FaultKind};
use crate::mem::Memory;
use crate::program::{Cat, Op, Program, Src, CAT_COUNT};
use crate::sem::GPR_IDX_EN;
use crate::wave::M0;
use crate::wave::{Status, Wave};
use std::io::Write;

/// The semantics of one instruction.
pub type Handler = fn(&mut Wave, &Op, &mut Ctx) -> Result<(), FaultKind>;

/// Counters kept while running.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Wave-instructions executed per [`crate::program::Cat`].
    pub instructions: [u64; CAT_COUNT],
    /// Bytes read from device memory by vector and scalar loads.
    pub bytes_read: u64,
    /// Bytes written to device memory.
    pub bytes_written: u64,
    /// Bytes moved between VGPRs and LDS.
    pub lds_bytes: u64,
    /// Waves run to completion.
    pub waves: u64,
}

impl Stats {
    /// Adds `o` to these counters.
    pub fn add(&mut self, o: &Stats) {
        for (a, b) in self.instructions.iter_mut().zip(o.instructions.iter()) {
            *a += b;
        }
        self.bytes_read += o.bytes_read;
        self.bytes_written += o.bytes_written;
        self.lds_bytes += o.lds_bytes;
        self.waves += o.waves;
    }

    /// All wave-instructions.
    pub fn total(&self) -> u64 {
        self.instructions.iter().sum()
    }
}

/// Everything a handler may touch besides its wave.
pub struct Ctx<'a> {
    /// The program being run (branch targets, code base address).
    pub prog: &'a Program,
    /// Device memory.
    pub mem: &'a dyn Memory,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// Counters.
    pub stats: Stats,
    /// Per-wave instruction budget.
    pub budget: u64,
    /// Trace output: every executed instruction and the registers it wrote.
    pub trace: Option<Box<dyn Write + Send>>,
    /// Prefix for trace lines (e.g. the work-group id).
    pub trace_tag: String,
}

impl<'a> Ctx<'a> {
    /// A context with no trace and a budget of 2^40 instructions per wave.
    pub fn new(prog: &'a Program, mem: &'a dyn Memory, lds: &'a mut [u8]) -> Ctx<'a> {
        Ctx {
            prog,
            mem,
            lds,
            stats: Stats::default(),
            budget: 1 << 40,
            trace: None,
            trace_tag: String::new(),
        }
    }
}

fn instr_text(op: &Op) -> String {
    if op.instr.op == 0 && op.instr.enc == risa_gcn::Enc::Sopp && op.instr.len == 1 {
        // A word that did not decode (see Program::new).
        if risa_gcn::decode(op.instr.gen, &[op.instr.raw as u32]).is_err() {
            return format!(".long {:#010x}", op.instr.raw as u32);
        }
    }
    risa_gcn::print(&op.instr, risa_gcn::Dialect::Llvm)
}

fn fault(prog: &Program, w: &Wave, idx: usize, kind: FaultKind) -> Fault {
    let (pc, instr) = match prog.ops.get(idx) {
        Some(op) => (u64::from(op.offset), instr_text(op)),
        None => (0, String::from("<none>")),
    };
    Fault {
        kind,
        pc,
        instr,
        wave: w.id,
    }
}

/// MODE.FP_ROUND (bits 3:0): the f32 rounding mode in bits 1:0, the f64/f16
/// mode in bits 3:2 (0 nearest-even, 1 toward +inf, 2 toward -inf, 3 toward
/// zero; GcnState.md "MODE register").
pub const FP_ROUND: u32 = 0xf;

/// MODE bits under which a VALU op leaves the fast path: VGPR indexing, and
/// a rounding mode other than nearest-even. Testing them costs the loop the
/// same single AND it always had, so the default mode runs no slower.
const VALU_SLOW: u32 = GPR_IDX_EN | FP_ROUND;

/// Runs `w` until it ends, reaches a barrier or faults.
pub fn run_wave(w: &mut Wave, ctx: &mut Ctx) -> Result<(), Fault> {
    let prog = ctx.prog;
    let ops = &prog.ops[..];
    if ctx.trace.is_some() {
        return run_wave_traced(w, ctx);
    }
    while w.status == Status::Running {
        let idx = w.pc as usize;
        let Some(op) = ops.get(idx) else {
            let addr = ops
                .last()
                .map(|o| u64::from(o.offset) + 4 * u64::from(o.instr.len))
                .unwrap_or(0);
            return Err(fault(prog, w, idx, FaultKind::BadPc(prog.base + addr)));
        };
        w.pc += 1;
        w.count += 1;
        ctx.stats.instructions[op.cat as usize] += 1;
        if w.count > ctx.budget {
            return Err(fault(prog, w, idx, FaultKind::Budget(ctx.budget)));
        }
        let r = if w.mode & VALU_SLOW != 0 && op.cat == Cat::Valu {
            run_valu_slow(w, op, ctx)
        } else {
            (op.run)(w, op, ctx)
        };
        if let Err(k) = r {
            return Err(fault(prog, w, idx, k));
        }
    }
    Ok(())
}

/// A VALU op under a non-default rounding mode or VGPR indexing: the op's
/// rounding-mode handler when MODE.FP_ROUND is not nearest-even (the same
/// handler for ops that do not round), with the operands indexed.
#[inline(never)]
fn run_valu_slow(w: &mut Wave, op: &Op, ctx: &mut Ctx) -> Result<(), FaultKind> {
    let run = if w.mode & FP_ROUND != 0 {
        // The loop has already moved the pc past this op.
        ctx.prog.round[w.pc as usize - 1]
    } else {
        op.run
    };
    if w.mode & GPR_IDX_EN != 0 {
        run_indexed(w, op, run, ctx)
    } else {
        run(w, op, ctx)
    }
}

/// A VALU op while VGPR indexing is on (s_set_gpr_idx_on, GCN 1.2+): the VGPR
/// operands M0[15:12] selects (bit 0 src0, 1 src1, 2 src2, 3 dst) are offset by
/// M0[7:0].
fn run_indexed(w: &mut Wave, op: &Op, run: Handler, ctx: &mut Ctx) -> Result<(), FaultKind> {
    let m0 = w.s[M0];
    let idx = (m0 & 0xff) as u16;
    let mode = (m0 >> 12) & 0xf;
    let mut o = op.clone();
    let shift = |r: u16| -> Result<u16, FaultKind> {
        if r + idx > 255 {
            return Err(FaultKind::BadOperand(format!(
                "v{r} indexed by {idx} is past v255"
            )));
        }
        Ok(r + idx)
    };
    for k in 0..3 {
        if mode >> k & 1 != 0 {
            if let Src::V(r) = o.src[k] {
                o.src[k] = Src::V(shift(r)?);
            }
        }
    }
    let vgpr_dst = op
        .instr
        .info()
        .operand(risa_gcn::table::Role::D)
        .is_some_and(|d| !d.sgpr);
    if mode & 8 != 0 && vgpr_dst {
        o.d = shift(o.d)?;
    }
    run(w, &o, ctx)
}

fn run_wave_traced(w: &mut Wave, ctx: &mut Ctx) -> Result<(), Fault> {
    let prog = ctx.prog;
    while w.status == Status::Running {
        let idx = w.pc as usize;
        let Some(op) = prog.ops.get(idx) else {
            return Err(fault(prog, w, idx, FaultKind::BadPc(prog.base)));
        };
        let before = w.clone();
        w.pc += 1;
        w.count += 1;
        ctx.stats.instructions[op.cat as usize] += 1;
        if w.count > ctx.budget {
            return Err(fault(prog, w, idx, FaultKind::Budget(ctx.budget)));
        }
        let r = if w.mode & VALU_SLOW != 0 && op.cat == Cat::Valu {
            run_valu_slow(w, op, ctx)
        } else {
            (op.run)(w, op, ctx)
        };
        let mut line = format!(
            "{} w{} {:#06x}: {}",
            ctx.trace_tag,
            w.id,
            op.offset,
            instr_text(op)
        );
        for i in 0..128 {
            if before.s[i] != w.s[i] {
                line.push_str(&format!(" s{}={:#x}", i, w.s[i]));
            }
        }
        if before.scc != w.scc {
            line.push_str(&format!(" scc={}", w.scc as u8));
        }
        for r in 0..256 {
            if before.v[r] != w.v[r] {
                let e = w.exec();
                let first = if e == 0 {
                    0
                } else {
                    e.trailing_zeros() as usize
                };
                line.push_str(&format!(" v{}[{}]={:#x}", r, first, w.v[r][first]));
            }
        }
        if let Some(t) = ctx.trace.as_mut() {
            let _ = writeln!(t, "{line}");
        }
        if let Err(k) = r {
            return Err(fault(prog, w, idx, k));
        }
    }
    Ok(())
}

/// Runs the waves of one work-group to completion: each wave runs until it
/// ends or reaches `s_barrier`; when every live wave waits at the barrier,
/// all are released. Waves run one after another on the calling thread, so
/// LDS needs no locking and results do not depend on timing.
pub fn run_group(
    waves: &mut [Wave],
    ctx: &mut Ctx,
    mut on_wave_start: impl FnMut(&Wave, &mut Ctx),
) -> Result<(), Fault> {
    loop {
        for w in waves.iter_mut() {
            if w.status == Status::Running {
                on_wave_start(w, ctx);
                run_wave(w, ctx)?;
                if w.status == Status::Done {
                    ctx.stats.waves += 1;
                }
            }
        }
        let mut waiting = false;
        for w in waves.iter_mut() {
            if w.status == Status::Barrier {
                w.status = Status::Running;
                waiting = true;
            }
        }
        if !waiting {
            return Ok(());
        }
    }
}
