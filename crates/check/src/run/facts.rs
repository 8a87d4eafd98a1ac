//! What each pre-decoded op reads and writes, in the terms the run-time
//! checkers need: VGPR and SGPR sets, and which memory counter it uses.
//!
//! This is the minimum the run-time checkers need, built from the emulator's
//! decoded [`Op`]s once per program; the static checker's def/use model
//! (`access.rs`, branch `check-static`) was not yet available when this was
//! written. Where the register set depends on run-time values (`v_movrel*`,
//! `s_movrel*`) nothing is recorded, so those reads are not checked.

use risa_gcn::table::{flag, Family, Role, Ty};
use risa_gcn::{Enc, Field, Gen};
use risa_gcn_emu::program::{scalar_src, Op, Src};
use risa_gcn_emu::Program;

/// SGPR operand code of VCC_LO.
pub const VCC: u8 = 106;
/// SGPR operand code of M0.
pub const M0: u8 = 124;
/// SGPR operand code of EXEC_LO.
pub const EXEC: u8 = 126;

/// How the lanes of a VGPR read are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// The lanes EXEC enables.
    Exec,
    /// The first lane EXEC enables (`v_readfirstlane_b32`).
    First,
    /// Lanes chosen at run time (`v_readlane_b32`, DPP): whole register.
    Any,
}

/// The memory counter an op increments, and whether its results may come
/// back out of order with the others of that counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// No counter.
    None,
    /// VM_CNT: vector memory (in order on GCN 1.0-1.4).
    Vm,
    /// LGKM_CNT, in order with the others of its kind: LDS, GDS, messages.
    LgkmInOrder,
    /// LGKM_CNT, out of order: scalar memory.
    LgkmAny,
}

/// One op's registers and memory behaviour.
#[derive(Debug, Clone)]
pub struct Facts {
    /// VGPR ranges read: (first, count, lanes).
    pub vr: Vec<(u16, u8, Lanes)>,
    /// VGPR ranges written (first, count); `vw_all`: every lane is written
    /// whatever EXEC is (`v_writelane_b32` writes one lane chosen at run time).
    pub vw: Vec<(u16, u8)>,
    /// See `vw`.
    pub vw_all: bool,
    /// Bit `r` set: VGPR r read (`vr` as a set).
    pub vr_set: [u64; 4],
    /// Bit `r` set: VGPR r written.
    pub vw_set: [u64; 4],
    /// SGPRs (operand codes 0-127) read.
    pub sr: u128,
    /// SGPRs written.
    pub sw: u128,
    /// The counter the op increments.
    pub counter: Counter,
    /// `s_waitcnt`: the counts it waits for (vm, lgkm).
    pub wait: Option<(u32, u32)>,
    /// `s_barrier`.
    pub barrier: bool,
    /// A DS op on LDS (not GDS).
    pub lds: bool,
}

impl Facts {
    fn empty() -> Facts {
        Facts {
            vr: Vec::new(),
            vw: Vec::new(),
            vw_all: false,
            vr_set: [0; 4],
            vw_set: [0; 4],
            sr: 0,
            sw: 0,
            counter: Counter::None,
            wait: None,
            barrier: false,
            lds: false,
        }
    }

    fn read_v(&mut self, r: u32, n: u32, lanes: Lanes) {
        let n = n.min(256u32.saturating_sub(r));
        if n == 0 {
            return;
        }
        self.vr.push((r as u16, n as u8, lanes));
        for k in r..r + n {
            self.vr_set[k as usize / 64] |= 1 << (k % 64);
        }
    }

    fn write_v(&mut self, r: u32, n: u32) {
        let n = n.min(256u32.saturating_sub(r));
        if n == 0 {
            return;
        }
        self.vw.push((r as u16, n as u8));
        for k in r..r + n {
            self.vw_set[k as usize / 64] |= 1 << (k % 64);
        }
    }

    fn read_s(&mut self, code: u32, n: u32) {
        self.sr |= sgpr_bits(code, n);
    }

    fn write_s(&mut self, code: u32, n: u32) {
        self.sw |= sgpr_bits(code, n);
    }

    /// A resolved source: registers are read, constants are not.
    fn read_src(&mut self, s: Src, n: u32, lanes: Lanes) {
        match s {
            Src::V(r) if r < 256 => self.read_v(u32::from(r), n, lanes),
            Src::S(c) => self.read_s(u32::from(c), n),
            Src::Vccz => self.read_s(u32::from(VCC), 2),
            Src::Execz => self.read_s(u32::from(EXEC), 2),
            _ => {}
        }
    }

    /// Whether the op reads or writes any VGPR in `set`.
    #[inline(always)]
    pub fn touches_v(&self, set: &[u64; 4]) -> bool {
        (0..4).any(|k| (self.vr_set[k] | self.vw_set[k]) & set[k] != 0)
    }
}

/// Bits of the SGPR operand codes `code .. code + n` (codes past 127 dropped).
pub fn sgpr_bits(code: u32, n: u32) -> u128 {
    let mut b = 0u128;
    for c in code..code + n {
        if c < 128 {
            b |= 1 << c;
        }
    }
    b
}

/// The facts of every op of `prog`, by op index.
pub fn of_program(prog: &Program) -> Vec<Facts> {
    prog.ops.iter().map(|op| of_op(prog, op)).collect()
}

/// `s_waitcnt`'s SIMM16 as (vmcnt, lgkmcnt) in `gen` (AMD's ISA guides:
/// VM_CNT bits 3:0, on GCN 1.4 also 15:14 as its bits 5:4; LGKM_CNT 11:8).
pub fn waitcnt_fields(gen: Gen, simm16: u32) -> (u32, u32) {
    let mut vm = simm16 & 0xf;
    if gen.info().vmcnt_max > 15 {
        vm |= (simm16 >> 14 & 3) << 4;
    }
    (vm, simm16 >> 8 & 0xf)
}

/// The largest value LGKM_CNT holds on GCN 1.0-1.4 (4 bits).
pub const LGKM_MAX: u32 = 15;

fn of_op(prog: &Program, op: &Op) -> Facts {
    let mut f = Facts::empty();
    let i = &op.instr;
    if op.instr.op == 0 && i.enc == Enc::Sopp && risa_gcn::decode(i.gen, &[i.raw as u32]).is_err() {
        return f;
    }
    let info = i.info();
    let gen = prog.gen;
    let width = |r: Role| info.operand(r).map_or(1, |o| o.ty.data_dwords(gen));
    let lit = i.lit.unwrap_or(0);
    let src = |code: u32, ty: Ty| scalar_src(gen, code, ty, lit).unwrap_or(Src::None);
    let name = info.name;
    match i.enc {
        Enc::Sop1 | Enc::Sop2 | Enc::Sopc | Enc::Sopk => {
            if name.starts_with("s_movrel") || name.contains("gpr_idx") {
                return f;
            }
            for o in info.sig {
                match o.role {
                    Role::A => f.read_src(op.src[0], o.ty.dwords(), Lanes::Exec),
                    Role::B if o.ty != Ty::Gpridx && info.family != Family::Sopk => {
                        f.read_src(op.src[1], o.ty.dwords(), Lanes::Exec)
                    }
                    Role::D => {
                        let d = i.field(Field::Sdst);
                        // SOPK forms that read SDST (compares, add/mul, cmov).
                        if info.family == Family::Sopk
                            && ["s_cmpk", "s_addk", "s_mulk", "s_cmovk"]
                                .iter()
                                .any(|p| name.starts_with(p))
                        {
                            f.read_s(d, o.ty.dwords());
                        }
                        if !name.starts_with("s_cmpk") {
                            f.write_s(d, o.ty.dwords());
                        }
                    }
                    _ => {}
                }
            }
            if name.contains("saveexec") {
                f.read_s(u32::from(EXEC), 2);
                f.write_s(u32::from(EXEC), 2);
            }
        }
        Enc::Sopp => match name {
            "s_waitcnt" => f.wait = Some(waitcnt_fields(gen, op.lit)),
            "s_barrier" => f.barrier = true,
            "s_cbranch_vccz" | "s_cbranch_vccnz" => f.read_s(u32::from(VCC), 2),
            "s_cbranch_execz" | "s_cbranch_execnz" => f.read_s(u32::from(EXEC), 2),
            "s_sendmsg" | "s_sendmsghalt" => {
                f.read_s(u32::from(M0), 1);
                f.counter = Counter::LgkmInOrder;
            }
            _ => {}
        },
        Enc::Smrd | Enc::Smem => {
            f.counter = Counter::LgkmAny;
            if info.operand(Role::A).is_some() {
                f.read_s(u32::from(op.sd), width(Role::A));
            }
            f.read_src(op.src[1], 1, Lanes::Exec);
            if info.operand(Role::D).is_some() {
                let d = i.field(Field::Sdst);
                if info.has(flag::STORE) {
                    f.read_s(d, width(Role::D));
                } else {
                    f.write_s(d, width(Role::D));
                }
            }
        }
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Vop3b | Enc::Vop3p => {
            valu(&mut f, op, &src)
        }
        Enc::Vop1Sdwa
        | Enc::Vop2Sdwa
        | Enc::VopcSdwa
        | Enc::Vop1Dpp
        | Enc::Vop2Dpp
        | Enc::VopcDpp => valu_ext(&mut f, op, &src),
        Enc::Ds => {
            let gds = i.field(Field::Gds) != 0;
            f.counter = Counter::LgkmInOrder;
            f.lds = !gds;
            if gds || !gen.has(risa_gcn::Feature::Gfx9Insts) {
                f.read_s(u32::from(M0), 1);
            }
            for o in info.sig {
                let n = o.ty.data_dwords(gen);
                match o.role {
                    Role::A => f.read_v(i.field(Field::Addr), 1, Lanes::Exec),
                    Role::B => f.read_v(i.field(Field::Data0), n, Lanes::Exec),
                    Role::C => f.read_v(i.field(Field::Data1), n, Lanes::Exec),
                    Role::D => f.write_v(i.field(Field::Vdst), n),
                    _ => {}
                }
            }
        }
        Enc::Mubuf | Enc::Mtbuf => {
            f.counter = Counter::Vm;
            let (offen, idxen, addr64) = (
                i.field(Field::Offen),
                i.field(Field::Idxen),
                i.field(Field::Addr64),
            );
            let na = if addr64 != 0 { 2 } else { offen + idxen };
            f.read_v(i.field(Field::Vaddr), na, Lanes::Exec);
            f.read_s(i.field(Field::Srsrc) * 4, 4);
            f.read_src(op.src[1], 1, Lanes::Exec);
            vmem_data(&mut f, op, i.field(Field::Vdata), width(Role::V), gen);
        }
        Enc::Flat => {
            f.counter = Counter::Vm;
            let saddr = op.sd != u16::MAX;
            let na = match info.family {
                Family::Scratch if saddr => 0,
                _ if saddr => 1,
                _ => width(Role::A),
            };
            f.read_v(i.field(Field::Addr), na, Lanes::Exec);
            if saddr {
                let n = if info.family == Family::Scratch { 1 } else { 2 };
                f.read_s(u32::from(op.sd), n);
            }
            if let Some(o) = info.operand(Role::B).or(info.operand(Role::V)) {
                f.read_v(i.field(Field::Data0), o.ty.data_dwords(gen), Lanes::Exec);
            }
            if info.operand(Role::D).is_some() {
                let tfe = i.field(Field::Tfe);
                f.write_v(i.field(Field::Vdst), width(Role::D) + tfe);
            }
        }
        Enc::Mimg => {
            f.counter = Counter::Vm;
            f.read_v(i.field(Field::Vaddr), 1, Lanes::Exec);
            let r128 = risa_gcn::layout::has(i.enc, gen, Field::R128) && i.field(Field::R128) != 0;
            f.read_s(i.field(Field::Srsrc) * 4, if r128 { 4 } else { 8 });
            if info.has(flag::SAMPLER) {
                f.read_s(i.field(Field::Ssamp) * 4, 4);
            }
            let n = if info.has(flag::GATHER4) {
                4
            } else {
                i.field(Field::Dmask).count_ones().max(1)
            };
            let v = i.field(Field::Vdata);
            if info.has(flag::STORE) || info.has(flag::ATOMIC) {
                f.read_v(v, n, Lanes::Exec);
            }
            if !info.has(flag::STORE) && (!info.has(flag::ATOMIC) || i.field(Field::Glc) != 0) {
                f.write_v(v, n + i.field(Field::Tfe));
            }
        }
        _ => {}
    }
    f
}

/// MUBUF/MTBUF VDATA: stores and atomics read it; loads and returning
/// atomics write it (a compare-swap returns half of what it reads).
fn vmem_data(f: &mut Facts, op: &Op, v: u32, n: u32, gen: Gen) {
    let i = &op.instr;
    let info = i.info();
    let _ = gen;
    if info.has(flag::STORE) || info.has(flag::ATOMIC) {
        f.read_v(v, n, Lanes::Exec);
    }
    if i.field(Field::Lds) != 0 || info.has(flag::STORE) {
        return;
    }
    if info.has(flag::ATOMIC) {
        if i.field(Field::Glc) != 0 {
            let back = if info.name.contains("cmpswap") {
                n / 2
            } else {
                n
            };
            f.write_v(v, back.max(1));
        }
        return;
    }
    f.write_v(v, n + i.field(Field::Tfe));
}

/// VOP1/VOP2/VOPC/VOP3/VOP3P: operands from the encoding's fields.
fn valu(f: &mut Facts, op: &Op, src: &dyn Fn(u32, Ty) -> Src) {
    let i = &op.instr;
    let info = i.info();
    let vop3 = matches!(i.enc, Enc::Vop3 | Enc::Vop3b | Enc::Vop3p);
    let name = info.name;
    let lanes_a = match name {
        "v_readfirstlane_b32" => Lanes::First,
        "v_readlane_b32" => Lanes::Any,
        _ => Lanes::Exec,
    };
    if name.starts_with("v_movrel") {
        return;
    }
    for o in info.sig {
        let n = o.ty.dwords();
        match o.role {
            Role::A => f.read_src(src(i.field(Field::Src0), o.ty), n, lanes_a),
            Role::B if vop3 => f.read_src(src(i.field(Field::Src1), o.ty), n, Lanes::Exec),
            Role::B if o.sgpr => f.read_src(src(i.field(Field::Vsrc1), o.ty), n, Lanes::Exec),
            Role::B => f.read_v(i.field(Field::Vsrc1), n, Lanes::Exec),
            Role::C => f.read_src(src(i.field(Field::Src2), o.ty), n, Lanes::Exec),
            Role::SC if vop3 => f.read_src(src(i.field(Field::Src2), o.ty), 2, Lanes::Exec),
            Role::SC => f.read_s(u32::from(VCC), 2),
            Role::D if o.sgpr => f.write_s(i.field(Field::Vdst), n),
            Role::D => f.write_v(i.field(Field::Vdst), n),
            Role::SD if vop3 => f.write_s(i.field(Field::Sdst3), 2),
            Role::SD => f.write_s(u32::from(VCC), 2),
            _ => {}
        }
    }
    if info.family == Family::Vopc {
        if vop3 {
            f.write_s(i.field(Field::Vdst), 2);
        } else {
            f.write_s(u32::from(VCC), 2);
        }
    }
    if info.has(flag::CMPX) {
        f.write_s(u32::from(EXEC), 2);
    }
    if info.has(flag::TIED) {
        if let Some(o) = info.operand(Role::D) {
            f.read_v(i.field(Field::Vdst), o.ty.dwords(), Lanes::Exec);
        }
    }
    if let Some((code, n)) = info.implicit_read() {
        f.read_s(code, n);
    }
    if name == "v_writelane_b32" {
        f.vw_all = true;
    }
    // Every vector op reads EXEC.
    f.read_s(u32::from(EXEC), 2);
}

/// SDWA and DPP forms: the real operands (the emulator runs them on temporaries).
fn valu_ext(f: &mut Facts, op: &Op, src: &dyn Fn(u32, Ty) -> Src) {
    let i = &op.instr;
    let info = i.info();
    let sdwa = matches!(i.enc, Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa);
    let a_lanes = if sdwa { Lanes::Exec } else { Lanes::Any };
    for o in info.sig {
        let n = o.ty.dwords();
        match o.role {
            Role::A if sdwa && i.field(Field::S0) != 0 => {
                f.read_src(src(i.field(Field::Src0), Ty::B32), 1, Lanes::Exec)
            }
            Role::A => f.read_v(i.field(Field::Src0), n, a_lanes),
            Role::B if sdwa && i.field(Field::S1) != 0 => {
                f.read_src(src(i.field(Field::Vsrc1), Ty::B32), 1, Lanes::Exec)
            }
            Role::B => f.read_v(i.field(Field::Vsrc1), n, Lanes::Exec),
            Role::SC => f.read_s(u32::from(VCC), 2),
            Role::D => f.write_v(i.field(Field::Vdst), n),
            Role::SD => f.write_s(u32::from(VCC), 2),
            _ => {}
        }
    }
    if info.family == Family::Vopc {
        if sdwa && i.field(Field::SdwaSd) != 0 {
            f.write_s(i.field(Field::SdwaSdst), 2);
        } else {
            f.write_s(u32::from(VCC), 2);
        }
    }
    if info.has(flag::TIED) {
        if let Some(o) = info.operand(Role::D) {
            f.read_v(i.field(Field::Vdst), o.ty.dwords(), Lanes::Exec);
        }
    }
    f.read_s(u32::from(EXEC), 2);
}
