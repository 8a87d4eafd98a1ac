//! Pre-decoded programs: the kernel's code decoded once into [`Op`]s that
//! carry their handler, resolved operands and branch targets.

use crate::exec::{Ctx, Handler};
use crate::fault::FaultKind;
use crate::sem;
use crate::sem::sdwa::{Ext, TMP_DST, TMP_SRC0, TMP_SRC1};
use crate::wave::{Wave, VCC};
use risa_gcn::table::{flag, Family, Role, Ty};
use risa_gcn::{decode, Enc, Field, Gen, Instr, Target};

/// A resolved source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// No operand.
    None,
    /// A scalar register by operand code (SGPR, VCC, M0, EXEC, ...).
    S(u8),
    /// A VGPR (256 and up: the emulator's temporaries for SDWA/DPP operands).
    V(u16),
    /// A constant (inline or literal), already widened for the operand's type.
    K(u64),
    /// SCC as 0/1.
    Scc,
    /// VCCZ: 1 when VCC is zero.
    Vccz,
    /// EXECZ: 1 when EXEC is zero.
    Execz,
}

/// Instruction categories counted by `--stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cat {
    /// Scalar ALU.
    Salu,
    /// Branches and other program-control instructions.
    Branch,
    /// Scalar memory.
    Smem,
    /// Vector ALU.
    Valu,
    /// Vector memory (buffer, flat, global, scratch, image).
    Vmem,
    /// LDS / GDS.
    Lds,
}

/// Number of [`Cat`] values.
pub const CAT_COUNT: usize = 6;

impl Cat {
    /// Names in [`Cat`] order, for reports.
    pub const NAMES: [&'static str; CAT_COUNT] = ["salu", "branch", "smem", "valu", "vmem", "lds"];
}

/// The wrapper an op's handler is (see [`Program::wrapper`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    /// The handler works on the op's own operands.
    None,
    /// SDWA or DPP (`sem::sdwa`): operands in [`Program::ext`].
    Ext,
    /// OP_SEL or a kept high half (`sem::opsel`): operands in [`Program::opsel`].
    OpSel,
}

/// A pre-decoded instruction.
#[derive(Clone)]
pub struct Op {
    /// The semantics.
    pub run: Handler,
    /// The decoded instruction (fields not resolved below are read from it).
    pub instr: Instr,
    /// Byte offset from the start of the code.
    pub offset: u32,
    /// Branch target (op index), `u32::MAX` when none or invalid.
    pub target: u32,
    /// Destination: a VGPR number, or a scalar operand code for scalar destinations.
    pub d: u16,
    /// Second (scalar) destination: carry-out, compare result.
    pub sd: u16,
    /// Sources in role order A, B, C (carry-in in slot 2).
    pub src: [Src; 3],
    /// VOP3 NEG bits per source.
    pub neg: u8,
    /// VOP3 ABS bits per source.
    pub abs: u8,
    /// VOP3 CLAMP.
    pub clamp: bool,
    /// VOP3 OMOD.
    pub omod: u8,
    /// The literal, SOPK/SOPP immediate or an index into [`Program::errors`].
    pub lit: u32,
    /// Category for statistics.
    pub cat: Cat,
    /// Handler-specific data decided at lowering (e.g. a memory access shape).
    pub aux: u32,
}

/// A kernel's code, pre-decoded.
pub struct Program {
    /// The generation the code was decoded for.
    pub gen: Gen,
    /// The generation and chip features the code was decoded for.
    pub target: Target,
    /// Device address of the first code byte.
    pub base: u64,
    /// The ops in address order.
    pub ops: Vec<Op>,
    /// Op index per code dword (`u32::MAX`: not the start of an instruction).
    pub index: Vec<u32>,
    /// Faults that lowering found (returned when the faulty op executes).
    pub errors: Vec<FaultKind>,
    /// SDWA/DPP operand data, indexed by the op's `aux`.
    pub ext: Vec<Ext>,
    /// Per op, its handler under a MODE.FP_ROUND other than nearest-even
    /// (the op's own handler when its result does not depend on rounding).
    /// Kept apart from [`Op`] so the default path's ops stay as small as before.
    pub round: Vec<Handler>,
    /// VOP3 OP_SEL operand data (GCN 1.4), indexed by the op's `aux`.
    pub opsel: Vec<sem::opsel::OpSel>,
}

fn stored_fault(_w: &mut Wave, op: &Op, c: &mut Ctx) -> Result<(), FaultKind> {
    Err(c.prog.errors[op.lit as usize].clone())
}

/// Aperture bases (high 32 bits) that FLAT addresses use for LDS and scratch:
/// on GCN 1.4 `src_shared_base` / `src_private_base` report them; on GCN
/// 1.1/1.2 the runtime puts them in the HSA queue (`amd_queue_t`
/// `group_segment_aperture_base_hi` / `private_segment_aperture_base_hi`).
pub const SHARED_APERTURE_HI: u32 = 0x0001_0000;
/// See [`SHARED_APERTURE_HI`].
pub const PRIVATE_APERTURE_HI: u32 = 0x0002_0000;
/// GCN 1.1/1.2: the device address FLAT_SCRATCH offsets count from (the
/// hardware's SH_HIDDEN_PRIVATE_BASE_VMID). The runtime gives a wave's flat
/// scratch init as its scratch address minus this base.
pub const HIDDEN_PRIVATE_BASE: u64 = 0x1_0000_0000;

impl Program {
    /// Decodes `code` (loaded at device address `base`) for `target` (a
    /// chip, or a generation's reference chip).
    pub fn new(target: impl Into<Target>, code: &[u8], base: u64) -> Program {
        let target = target.into();
        let gen = target.gen;
        let words: Vec<u32> = code
            .chunks(4)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        let mut p = Program {
            gen,
            target,
            base,
            ops: Vec::new(),
            index: vec![u32::MAX; words.len()],
            errors: Vec::new(),
            ext: Vec::new(),
            round: Vec::new(),
            opsel: Vec::new(),
        };
        let mut at = 0usize;
        while at < words.len() {
            p.index[at] = p.ops.len() as u32;
            let op = match decode(target, &words[at..]) {
                Ok(i) => p.lower(i, at as u32 * 4),
                Err(e) => {
                    let w = words[at];
                    let instr = Instr {
                        op: 0,
                        enc: Enc::Sopp,
                        gen,
                        len: 1,
                        raw: u64::from(w),
                        lit: None,
                    };
                    p.fault_op(
                        instr,
                        at as u32 * 4,
                        FaultKind::Decode(format!("{w:#010x}: {e}")),
                    )
                }
            };
            at += op.instr.len.max(1) as usize;
            p.round.push(p.round_handler(&op));
            p.ops.push(op);
        }
        // Resolve branch targets now that every op has an index.
        for i in 0..p.ops.len() {
            let op = &p.ops[i];
            if op.target == u32::MAX - 1 {
                let t = i64::from(op.offset) + 4 + 4 * i64::from(op.lit as u16 as i16);
                p.ops[i].target = p.op_at(t);
            }
        }
        p
    }

    /// The op index at byte offset `off`, `u32::MAX` if none starts there.
    pub fn op_at(&self, off: i64) -> u32 {
        if off < 0 || off % 4 != 0 {
            return u32::MAX;
        }
        self.index
            .get((off / 4) as usize)
            .copied()
            .unwrap_or(u32::MAX)
    }

    /// The op index of device address `addr`, `u32::MAX` if none starts there.
    pub fn op_at_addr(&self, addr: u64) -> u32 {
        match addr.checked_sub(self.base) {
            Some(o) if o < i64::MAX as u64 => self.op_at(o as i64),
            _ => u32::MAX,
        }
    }

    /// The handler `op` runs under a non-default rounding mode.
    fn round_handler(&self, op: &Op) -> Handler {
        if op.cat != Cat::Valu {
            return op.run;
        }
        match self.wrapper(op) {
            Wrapper::Ext if matches!(op.instr.enc, Enc::Vop1Dpp | Enc::Vop2Dpp | Enc::VopcDpp) => {
                sem::sdwa::run_dpp::<true>
            }
            Wrapper::Ext => sem::sdwa::run_sdwa::<true>,
            Wrapper::OpSel => sem::opsel::run_opsel::<true>,
            Wrapper::None => sem::round_handler(op.instr.op).unwrap_or(op.run),
        }
    }

    fn fault_op(&mut self, instr: Instr, offset: u32, f: FaultKind) -> Op {
        self.errors.push(f);
        let mut op = blank(instr, offset, stored_fault);
        op.lit = (self.errors.len() - 1) as u32;
        op
    }

    fn lower(&mut self, i: Instr, offset: u32) -> Op {
        let r = match i.enc {
            Enc::Vop1Sdwa
            | Enc::Vop2Sdwa
            | Enc::VopcSdwa
            | Enc::Vop1Dpp
            | Enc::Vop2Dpp
            | Enc::VopcDpp => self.lower_ext(i, offset),
            _ => self
                .try_lower(i, offset)
                .and_then(|op| self.lower_halves(op)),
        };
        match r {
            Ok(op) => op,
            Err(f) => self.fault_op(i, offset, f),
        }
    }

    fn try_lower(&self, i: Instr, offset: u32) -> Result<Op, FaultKind> {
        let info = i.info();
        let (run, aux) = sem::handler(i.op, i.enc, self.gen)?;
        let mut op = blank(i, offset, run);
        op.aux = aux;
        op.cat = category(info.family, info.name);
        let gen = self.gen;
        let lit = i.lit.unwrap_or(0);
        let scalar = |code: u32, ty: Ty| scalar_src(gen, code, ty, lit);
        match i.enc {
            Enc::Sop2 | Enc::Sop1 | Enc::Sopc | Enc::Sopk => {
                op.d = i.field(Field::Sdst) as u16;
                for o in info.sig {
                    match o.role {
                        Role::A => op.src[0] = scalar(i.field(Field::Ssrc0), o.ty)?,
                        // s_set_gpr_idx_on: the SSRC1 field holds the mode bits.
                        Role::B if o.ty == Ty::Gpridx => {
                            op.src[1] = Src::K(u64::from(i.field(Field::Ssrc1)))
                        }
                        Role::B if info.family != Family::Sopk => {
                            op.src[1] = scalar(i.field(Field::Ssrc1), o.ty)?
                        }
                        _ => {}
                    }
                }
                if i.enc == Enc::Sopk {
                    op.lit = i.field(Field::Simm16);
                    op.src[1] = Src::K(u64::from(lit));
                    if info.sig.iter().any(|o| o.ty == Ty::Label) {
                        op.target = u32::MAX - 1;
                    }
                }
            }
            Enc::Sopp => {
                op.lit = i.field(Field::Simm16);
                if info.sig.iter().any(|o| o.ty == Ty::Label) {
                    op.target = u32::MAX - 1;
                }
            }
            Enc::Smrd | Enc::Smem => {
                op.d = i.field(Field::Sdst) as u16;
                op.sd = (i.field(Field::Sbase) * 2) as u16;
                let imm = i.field(Field::Imm) != 0;
                let off = i.field(Field::Offset);
                // Byte offset in `lit`, SGPR offset in src[1].
                if i.enc == Enc::Smrd {
                    if imm {
                        op.lit = off * 4;
                    } else if i.lit.is_some() {
                        op.lit = lit.wrapping_mul(4);
                    } else {
                        op.src[1] = scalar(off, Ty::U32)?;
                    }
                } else if imm {
                    op.lit = off & 0xf_ffff;
                    if i.field(Field::Soe) != 0 {
                        op.src[1] = scalar(i.field(Field::Soffset), Ty::U32)?;
                    }
                } else {
                    op.src[1] = scalar(off & 0x7f, Ty::U32)?;
                }
            }
            Enc::Vop1 | Enc::Vop2 | Enc::Vopc => {
                for o in info.sig {
                    match o.role {
                        Role::D => op.d = i.field(Field::Vdst) as u16,
                        Role::SD => op.sd = VCC as u16,
                        Role::A => op.src[0] = scalar(i.field(Field::Src0), o.ty)?,
                        Role::B if o.sgpr => op.src[1] = scalar(i.field(Field::Vsrc1), o.ty)?,
                        Role::B => op.src[1] = Src::V(i.field(Field::Vsrc1) as u16),
                        Role::SC => op.src[2] = Src::S(VCC as u8),
                        Role::L => op.lit = lit,
                        _ => {}
                    }
                }
                if i.enc == Enc::Vopc {
                    op.sd = VCC as u16;
                }
                if info.has(flag::TIED) {
                    // v_mac: the destination is also the addend.
                    op.src[2] = Src::V(op.d);
                }
            }
            Enc::Vop3 | Enc::Vop3b | Enc::Vop3p => {
                let srcs = [Field::Src0, Field::Src1, Field::Src2];
                let mut n = 0;
                for o in info.sig {
                    match o.role {
                        Role::D => op.d = i.field(Field::Vdst) as u16,
                        Role::SD => op.sd = i.field(Field::Sdst3) as u16,
                        Role::A | Role::B | Role::C => {
                            let k = match o.role {
                                Role::A => 0,
                                Role::B => 1,
                                _ => 2,
                            };
                            op.src[k] = scalar(i.field(srcs[k]), o.ty)?;
                            n = n.max(k + 1);
                        }
                        Role::SC => op.src[2] = scalar(i.field(Field::Src2), o.ty)?,
                        Role::L => op.lit = lit,
                        _ => {}
                    }
                }
                if info.family == Family::Vopc {
                    op.sd = i.field(Field::Vdst) as u16;
                }
                if info.has(flag::TIED) {
                    op.src[2] = Src::V(op.d);
                }
                op.neg = i.field(Field::Neg) as u8;
                op.abs = i.field(Field::Abs) as u8;
                op.clamp = i.field(Field::Clamp) != 0;
                op.omod = i.field(Field::Omod) as u8;
                if info.has(flag::VOP3B) {
                    // VOP3b has no ABS field; its bits hold SDST.
                    op.abs = 0;
                }
            }
            Enc::Ds => {
                op.d = i.field(Field::Vdst) as u16;
                op.src[0] = Src::V(i.field(Field::Addr) as u16);
                op.src[1] = Src::V(i.field(Field::Data0) as u16);
                op.src[2] = Src::V(i.field(Field::Data1) as u16);
            }
            Enc::Mubuf | Enc::Mtbuf => {
                op.d = i.field(Field::Vdata) as u16;
                op.sd = (i.field(Field::Srsrc) * 4) as u16;
                op.src[0] = Src::V(i.field(Field::Vaddr) as u16);
                op.src[1] = scalar(i.field(Field::Soffset), Ty::U32)?;
                op.lit = i.field(Field::Offset);
            }
            Enc::Mimg => {
                op.d = i.field(Field::Vdata) as u16;
                op.sd = (i.field(Field::Srsrc) * 4) as u16;
                op.src[0] = Src::V(i.field(Field::Vaddr) as u16);
            }
            Enc::Flat => {
                op.d = i.field(Field::Vdst) as u16;
                op.src[0] = Src::V(i.field(Field::Addr) as u16);
                op.src[1] = Src::V(i.field(Field::Data0) as u16);
                let saddr = i.field(Field::Saddr);
                op.sd = if info.family == Family::Flat || saddr == 0x7f {
                    u16::MAX
                } else {
                    saddr as u16
                };
                // GCN 1.4: 13-bit signed offset for GLOBAL/SCRATCH, 12-bit unsigned for FLAT.
                let off = i.field(Field::Offset);
                op.lit = match info.family {
                    Family::Flat => off & 0xfff,
                    _ => ((off << 19) as i32 >> 19) as u32,
                };
            }
            _ => {}
        }
        Ok(op)
    }
}

impl Program {
    /// The VOP3 OP_SEL bits of `i` (0 where the generation has no OP_SEL).
    fn opsel_bits(&self, i: &Instr) -> u32 {
        if i.enc == Enc::Vop3 && risa_gcn::layout::has(i.enc, self.gen, Field::OpSel) {
            i.field(Field::OpSel)
        } else {
            0
        }
    }

    /// Whether the 16-bit result of `i` keeps the high half of VDST on this
    /// generation (the row's `keephi=`; SDWA and DPP forms place their result themselves).
    fn keeps_high_half(&self, i: &Instr) -> bool {
        matches!(i.enc, Enc::Vop1 | Enc::Vop2 | Enc::Vop3) && sem::keeps_high_half(i.op, self.gen)
    }

    /// Whether `i` runs through `sem::opsel` (OP_SEL set, or a destination
    /// whose high half is kept).
    pub(crate) fn half_wrapped(&self, i: &Instr) -> bool {
        self.opsel_bits(i) != 0 || self.keeps_high_half(i)
    }

    /// Which wrapper `op` runs through, if any (its real VGPR operands are
    /// then in [`Program::ext`] or [`Program::opsel`]).
    pub fn wrapper(&self, op: &Op) -> Wrapper {
        if op.cat != Cat::Valu {
            return Wrapper::None;
        }
        match op.instr.enc {
            Enc::Vop1Sdwa
            | Enc::Vop2Sdwa
            | Enc::VopcSdwa
            | Enc::Vop1Dpp
            | Enc::Vop2Dpp
            | Enc::VopcDpp => Wrapper::Ext,
            _ if self.half_wrapped(&op.instr) => Wrapper::OpSel,
            _ => Wrapper::None,
        }
    }

    /// GCN 1.4 VOP3 OP_SEL and ops that keep the high half of VDST run
    /// through `sem::opsel`; every other op is returned unchanged.
    fn lower_halves(&mut self, op: Op) -> Result<Op, FaultKind> {
        let i = op.instr;
        if !self.half_wrapped(&i) {
            return Ok(op);
        }
        let (bits, keep) = (self.opsel_bits(&i), self.keeps_high_half(&i));
        sem::opsel::lower(op, i.info(), bits, keep, &mut self.opsel)
    }

    /// SDWA and DPP: lower as the 32-bit form with temporaries for the
    /// selected/permuted sources and the result (see `sem::sdwa`).
    fn lower_ext(&mut self, i: Instr, offset: u32) -> Result<Op, FaultKind> {
        let info = i.info();
        let gen = self.gen;
        let sdwa = matches!(i.enc, Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa);
        let base = match i.enc {
            Enc::Vop1Sdwa | Enc::Vop1Dpp => Enc::Vop1,
            Enc::Vop2Sdwa | Enc::Vop2Dpp => Enc::Vop2,
            _ => Enc::Vopc,
        };
        let (inner, _) = sem::handler(i.op, base, gen)?;
        let mut op = blank(i, offset, inner);
        op.cat = Cat::Valu;
        let lit = 0;
        let field = |f: Field| i.field(f);
        // The real sources: SRC0 in the extra dword; src1 in VSRC1 (an SGPR on GCN 1.4 with S1).
        let s0 = field(Field::Src0);
        let src0 = if sdwa && field(Field::S0) != 0 {
            scalar_src(gen, s0, Ty::B32, lit)?
        } else {
            Src::V(s0 as u16)
        };
        let mut src1 = Src::None;
        let mut dst = u16::MAX;
        for o in info.sig {
            match o.role {
                Role::D => {
                    dst = field(Field::Vdst) as u16;
                    op.d = TMP_DST;
                }
                Role::SD => op.sd = VCC as u16,
                Role::A => op.src[0] = Src::V(TMP_SRC0),
                Role::B => {
                    let v = field(Field::Vsrc1);
                    src1 = if sdwa && field(Field::S1) != 0 {
                        scalar_src(gen, v, Ty::B32, lit)?
                    } else {
                        Src::V(v as u16)
                    };
                    op.src[1] = if sdwa { Src::V(TMP_SRC1) } else { src1 };
                }
                Role::SC => op.src[2] = Src::S(VCC as u8),
                _ => {}
            }
        }
        if info.has(flag::TIED) {
            // v_mac: the real destination is the addend.
            op.src[2] = Src::V(dst);
        }
        if info.family == Family::Vopc {
            op.sd = if sdwa && field(Field::SdwaSd) != 0 {
                field(Field::SdwaSdst) as u16
            } else {
                VCC as u16
            };
        }
        let mut x = Ext {
            inner,
            inner_round: sem::round_handler(i.op).unwrap_or(inner),
            src: [src0, if sdwa { src1 } else { Src::None }],
            sel: [6, 6],
            sext: [false, false],
            dst,
            dst_sel: 6,
            dst_unused: 0,
            dpp_ctrl: u16::MAX,
            bound_ctrl: false,
            masks: 0xff,
            keep_high: !sdwa && sem::keeps_high_half(i.op, gen),
        };
        if sdwa {
            x.sel = [field(Field::Src0Sel) as u8, field(Field::Src1Sel) as u8];
            x.sext = [field(Field::Src0Sext) != 0, field(Field::Src1Sext) != 0];
            x.dst_sel = if risa_gcn::layout::has(i.enc, gen, Field::DstSel) {
                field(Field::DstSel) as u8
            } else {
                6
            };
            x.dst_unused = field(Field::DstUnused) as u8;
            op.neg = (field(Field::Src0Neg) | field(Field::Src1Neg) << 1) as u8;
            op.abs = (field(Field::Src0Abs) | field(Field::Src1Abs) << 1) as u8;
            op.clamp = field(Field::Clamp) != 0;
            op.omod = field(Field::Omod) as u8;
            op.run = sem::sdwa::run_sdwa::<false>;
        } else {
            x.dpp_ctrl = field(Field::DppCtrl) as u16;
            x.bound_ctrl = field(Field::BoundCtrl) != 0;
            x.masks = (field(Field::RowMask) | field(Field::BankMask) << 4) as u8;
            op.neg = (field(Field::DppNeg0) | field(Field::DppNeg1) << 1) as u8;
            op.abs = (field(Field::DppAbs0) | field(Field::DppAbs1) << 1) as u8;
            op.run = sem::sdwa::run_dpp::<false>;
        }
        self.ext.push(x);
        op.aux = (self.ext.len() - 1) as u32;
        Ok(op)
    }
}

fn blank(instr: Instr, offset: u32, run: Handler) -> Op {
    Op {
        run,
        instr,
        offset,
        target: u32::MAX,
        d: 0,
        sd: 0,
        src: [Src::None; 3],
        neg: 0,
        abs: 0,
        clamp: false,
        omod: 0,
        lit: 0,
        cat: Cat::Salu,
        aux: 0,
    }
}

fn category(f: Family, name: &str) -> Cat {
    match f {
        Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk => Cat::Salu,
        Family::Sopp if name.contains("branch") => Cat::Branch,
        Family::Sopp => Cat::Salu,
        Family::Smrd | Family::Smem => Cat::Smem,
        Family::Ds => Cat::Lds,
        Family::Mubuf | Family::Mtbuf | Family::Mimg | Family::Flat | Family::Global => Cat::Vmem,
        Family::Scratch => Cat::Vmem,
        _ => Cat::Valu,
    }
}

/// Resolves a (9-bit) source operand code for an operand of type `ty`.
pub fn scalar_src(gen: Gen, code: u32, ty: Ty, lit: u32) -> Result<Src, FaultKind> {
    Ok(match code {
        0..=127 => Src::S(code as u8),
        235..=238 if gen.has(risa_gcn::Feature::ApertureRegs) => {
            let hi = if code < 237 {
                SHARED_APERTURE_HI
            } else {
                PRIVATE_APERTURE_HI
            };
            // Base: the aperture's start; limit: its last byte (4 GiB apertures).
            let v = if code % 2 == 1 {
                u64::from(hi) << 32
            } else {
                (u64::from(hi) << 32) | 0xffff_ffff
            };
            Src::K(if ty.dwords() == 2 { v } else { v >> 32 })
        }
        251 => Src::Vccz,
        252 => Src::Execz,
        253 => Src::Scc,
        255 => {
            let v = if ty.dwords() == 2 {
                if ty == Ty::F64 {
                    u64::from(lit) << 32
                } else {
                    u64::from(lit)
                }
            } else if ty.is_16bit() && !matches!(ty, Ty::V2F16 | Ty::V2I16 | Ty::V2U16) {
                u64::from(lit & 0xffff)
            } else {
                u64::from(lit)
            };
            Src::K(v)
        }
        256..=511 => Src::V((code - 256) as u16),
        _ => match risa_gcn::operand::inline_value(gen, code, ty) {
            Some(v) => Src::K(v),
            None => {
                return Err(FaultKind::BadOperand(format!(
                    "operand code {code} is not valid here"
                )))
            }
        },
    })
}
