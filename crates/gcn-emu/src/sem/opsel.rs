//! VOP3 OP_SEL (GCN 1.4): which 16-bit half of a source is read and which
//! half of the destination is written.
//!
//! OP_SEL[0..2] select the high half (bits 31:16) of SRC0..SRC2, OP_SEL[3]
//! writes the 16-bit result to the high half of VDST (CLRX GcnInstrsVop3.md,
//! "Operand half selection"; LLVM AMDGPUModifierSyntax.rst `op_sel`). Writing
//! the high half leaves the low half as it was (the "other part is
//! preserved" of GcnInstrsVop3.md V_INTERP_P2_F16); writing the low half
//! behaves as without OP_SEL.
//!
//! The same wrapper keeps the high half of VDST for the GCN 1.4 instructions
//! whose 16-bit result leaves it unchanged (`sem::half_dst`).
//!
//! Ops with OP_SEL = 0 that zero the high half are untouched, so this costs
//! nothing on the common path. The others are lowered like SDWA: the selected
//! halves are moved to the low half of temporary VGPRs, the instruction's
//! normal handler runs on them, and a 16-bit result is merged into the half
//! of the real destination it belongs to.

use super::R;
use crate::exec::{Ctx, Handler};
use crate::fault::FaultKind;
use crate::mem::active_lanes;
use crate::program::{Op, Src};
use crate::wave::Wave;
use risa_gcn::table::{OpInfo, Role};

/// Temporary VGPR slots for the selected sources (beyond v255; v258 is the
/// shared temporary destination of `sem::sdwa`).
const TMP_SRC: [u16; 3] = [256, 257, 259];
/// Temporary destination for a high-half result.
const TMP_DST: u16 = super::sdwa::TMP_DST;

/// What an OP_SEL op needs besides its rewritten [`Op`].
#[derive(Clone, Copy, Debug)]
pub struct OpSel {
    /// The instruction's ordinary semantics.
    pub inner: Handler,
    /// Its semantics under a non-default MODE.FP_ROUND (see `sem::round`).
    pub inner_round: Handler,
    /// The real sources.
    pub src: [Src; 3],
    /// OP_SEL bits 0-2: read the high half of SRC0..2.
    pub hi_src: u8,
    /// The real destination VGPR when only one half of it is written, else
    /// `u16::MAX` (the handler writes the destination itself).
    pub dst: u16,
    /// With `dst`: the result goes to the high half (OP_SEL[3]), else to the
    /// low half with the high half kept.
    pub dst_hi: bool,
}

/// Checks OP_SEL against the operands of `info` and rewrites `op` to run
/// through [`run_opsel`]; `table` receives the side data. OP_SEL bits on an
/// operand that is not 16-bit are refused (LLVM: "op_sel must be 0" for
/// 32-bit operands; what the hardware does with them is not documented).
/// `keep_high`: the op's 16-bit result leaves VDST[31:16] unchanged.
pub fn lower(
    mut op: Op,
    info: &OpInfo,
    opsel: u32,
    keep_high: bool,
    table: &mut Vec<OpSel>,
) -> Result<Op, FaultKind> {
    let is16 = |role: Role| info.operand(role).is_some_and(|o| o.ty.is_16bit());
    for (k, role) in [Role::A, Role::B, Role::C].into_iter().enumerate() {
        if opsel >> k & 1 != 0 && !is16(role) {
            return Err(FaultKind::BadOperand(format!(
                "op_sel selects a half of src{k}, which is not a 16-bit operand of {}",
                info.name
            )));
        }
    }
    let hi_dst = opsel & 8 != 0;
    if hi_dst && !is16(Role::D) {
        return Err(FaultKind::BadOperand(format!(
            "op_sel selects a half of the destination, which is not 16-bit in {}",
            info.name
        )));
    }
    let half = hi_dst || keep_high;
    let x = OpSel {
        inner: op.run,
        inner_round: super::round_handler(op.instr.op).unwrap_or(op.run),
        src: op.src,
        hi_src: (opsel & 7) as u8,
        dst: if half { op.d } else { u16::MAX },
        dst_hi: hi_dst,
    };
    for (k, s) in op.src.iter_mut().enumerate() {
        if opsel >> k & 1 != 0 {
            *s = Src::V(TMP_SRC[k]);
        }
    }
    if half {
        op.d = TMP_DST;
    }
    op.run = run_opsel::<false>;
    table.push(x);
    op.aux = (table.len() - 1) as u32;
    Ok(op)
}

/// Runs an op with OP_SEL: select the source halves, run, place the result
/// (`ROUND`: under a non-default MODE.FP_ROUND).
pub fn run_opsel<const ROUND: bool>(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let x = c.prog.opsel[op.aux as usize];
    run_with(w, op, c, &x, ROUND)
}

/// [`run_opsel`] with its side data `x` given (VGPR indexing moves its registers).
pub fn run_with(w: &mut Wave, op: &Op, c: &mut Ctx, x: &OpSel, round: bool) -> R {
    let inner = if round { x.inner_round } else { x.inner };
    for (k, (&slot, &s)) in TMP_SRC.iter().zip(x.src.iter()).enumerate() {
        if x.hi_src >> k & 1 != 0 {
            let mut t = [0u32; 64];
            w.lanes32(s, &mut t);
            for v in t.iter_mut() {
                *v >>= 16;
            }
            w.v[slot as usize] = t;
        }
    }
    if x.dst == u16::MAX {
        return inner(w, op, c);
    }
    let e = w.exec();
    inner(w, op, c)?;
    let r = w.v[TMP_DST as usize];
    let d = &mut w.v[x.dst as usize];
    for l in active_lanes(e) {
        d[l] = if x.dst_hi {
            (d[l] & 0xffff) | r[l] << 16
        } else {
            (d[l] & 0xffff_0000) | (r[l] & 0xffff)
        };
    }
    Ok(())
}
