//! Random valid instructions: every field randomized within what the
//! instruction's signature allows and what LLVM's assembler accepts.
//!
//! Used to make the `llvm-mc` differential vectors, the benchmark corpus and
//! property tests. The choices are deliberately conservative where LLVM 14 is
//! stricter than the hardware (one scalar source per VOP3 instruction, no
//! literal equal to an inline constant, ...), so that every generated
//! instruction has exactly one textual form that re-encodes to its bytes.

use crate::decode::{decode, Instr};
use crate::gen::Gen;
use crate::layout::{self, Enc, Field};
use crate::operand::{int_inline_code, sgpr_count};
use crate::processor::{Feature, Target};
use crate::table::{flag, Family, OpId, OpInfo, Role, Ty, OPS};

/// The shared deterministic generator (`risa-rng`): seeded streams, and
/// choice lists that proptest shrinks to a minimal instruction.
pub use risa_rng::Rng;

/// Which encoding variants an instruction can be generated in for `gen`.
pub fn variants(info: &OpInfo, gen: Gen) -> Vec<Enc> {
    let mut v = Vec::new();
    if info.opcode(gen).is_none() {
        return v;
    }
    let (has_sdwa, has_dpp) = (gen.has(Feature::Sdwa), gen.has(Feature::Dpp));
    let (short, sdwa, dpp) = match info.family {
        Family::Vop2 => (Enc::Vop2, Enc::Vop2Sdwa, Enc::Vop2Dpp),
        Family::Vop1 => (Enc::Vop1, Enc::Vop1Sdwa, Enc::Vop1Dpp),
        Family::Vopc => (Enc::Vopc, Enc::VopcSdwa, Enc::VopcDpp),
        Family::Vintrp => {
            v.push(Enc::Vintrp);
            if info.vop3_opcode(gen).is_some() {
                v.push(Enc::Vop3);
            }
            return v;
        }
        f => {
            v.push(match f {
                Family::Sop2 => Enc::Sop2,
                Family::Sopk => Enc::Sopk,
                Family::Sop1 => Enc::Sop1,
                Family::Sopc => Enc::Sopc,
                Family::Sopp => Enc::Sopp,
                Family::Smrd => Enc::Smrd,
                Family::Smem => Enc::Smem,
                Family::Vop3 if info.has(flag::VOP3B) => Enc::Vop3b,
                Family::Vop3 => Enc::Vop3,
                Family::Vop3p => Enc::Vop3p,
                Family::Ds => Enc::Ds,
                Family::Mubuf => Enc::Mubuf,
                Family::Mtbuf => Enc::Mtbuf,
                Family::Mimg => Enc::Mimg,
                Family::Exp => Enc::Exp,
                _ => Enc::Flat,
            });
            return v;
        }
    };
    v.push(short);
    if info.vop3_opcode(gen).is_some() {
        v.push(if info.has(flag::VOP3B) {
            Enc::Vop3b
        } else {
            Enc::Vop3
        });
    }
    // LLVM 14 has no SDWA form of the tied 16-bit v_mac.
    let tied16 = info.has(flag::TIED) && info.sig.iter().any(|o| o.ty.is_16bit());
    if has_sdwa && !info.has(flag::NOSDWA) && !tied16 {
        v.push(sdwa);
    }
    if has_dpp && !info.has(flag::NODPP) {
        v.push(dpp);
    }
    v
}

/// Builds a random instance of instruction `op` in encoding `enc` for `gen`.
///
/// Returns `None` when the combination does not exist.
pub fn random_instr(rng: &mut Rng, target: impl Into<Target>, op: OpId, enc: Enc) -> Option<Instr> {
    let target = target.into();
    let gen = target.gen;
    let info = &OPS[op as usize];
    let mut g = Gen_ {
        rng,
        gen,
        enc,
        raw: 0,
        lit: None,
        info,
        scalar_used: None,
    };
    let (mask, val) = enc.prefix(gen)?;
    g.raw = u64::from(val & mask);
    let opcode = match enc {
        Enc::Vop3 | Enc::Vop3b => info.vop3_opcode(gen)?,
        _ => info.opcode(gen)?,
    };
    g.set(Field::Op, u32::from(opcode));
    g.fill();
    let (raw, lit) = (g.raw, g.lit);
    // (No allocation: listings make instances of every form they meet.)
    let mut words = [raw as u32, (raw >> 32) as u32, 0];
    let mut n = enc.base_dwords() as usize;
    if let Some(l) = lit {
        words[n] = l;
        n += 1;
    }
    let i = decode(target, &words[..n]).ok()?;
    (i.op == op).then_some(i)
}

struct Gen_<'r> {
    rng: &'r mut Rng,
    gen: Gen,
    enc: Enc,
    raw: u64,
    lit: Option<u32>,
    info: &'static OpInfo,
    /// The one scalar register (code) the instruction may read, for VOP3's constant-bus rule.
    scalar_used: Option<(u32, u32)>,
}

impl Gen_<'_> {
    fn set(&mut self, f: Field, v: u32) {
        layout::set(self.enc, self.gen, &mut self.raw, f, v);
    }
    fn b(&mut self, f: Field) {
        let v = self.rng.below(2);
        self.set(f, v);
    }

    /// A random SGPR number aligned for `count` registers.
    fn sgpr(&mut self, count: u32) -> u32 {
        let align = count.min(4);
        let n = (sgpr_count(self.gen) - count.max(align)) / align;
        self.rng.below(n + 1) * align
    }

    /// A scalar destination code: SGPR, or vcc/exec/m0-style specials.
    fn sdst(&mut self, count: u32) -> u32 {
        if self.rng.one_in(6) {
            match count {
                1 => [106, 107, 124, 126, 127][self.rng.below(5) as usize],
                2 => [106, 126][self.rng.below(2) as usize],
                _ => self.sgpr(count),
            }
        } else {
            self.sgpr(count)
        }
    }

    /// A literal that is not also an inline constant of `ty`.
    fn literal(&mut self, ty: Ty) -> u32 {
        loop {
            let v = match self.rng.below(3) {
                0 => self.rng.below(0x1_0000),
                _ => self.rng.next_u64() as u32,
            };
            let v = if ty.is_16bit() { v & 0xffff } else { v };
            let inline = int_inline_code(self.gen, u64::from(v), ty).is_some();
            if !inline {
                return v;
            }
        }
    }

    /// A scalar source code (8-bit field): SGPR/special, inline constant or literal.
    fn ssrc(&mut self, ty: Ty, allow_lit: bool, allow_sgpr: bool) -> u32 {
        let count = ty.dwords();
        let mut tries = 0;
        loop {
            tries += 1;
            if tries > 64 {
                // Every scalar choice is taken: an inline constant always fits.
                return 128 + self.rng.below(65);
            }
            let code = match self.rng.below(6) {
                0 | 1 if allow_sgpr => {
                    if let Some((c, n)) = self.scalar_used {
                        if n != count {
                            continue;
                        }
                        c
                    } else if self.rng.one_in(5) {
                        match count {
                            1 => [106, 107, 124, 126, 127][self.rng.below(5) as usize],
                            _ => [106, 126][self.rng.below(2) as usize],
                        }
                    } else {
                        self.sgpr(count)
                    }
                }
                // llvm-mc has no 16-bit inline constants before GCN 1.2.
                2..=4 if ty.is_16bit() && !self.gen.has(Feature::Gcn3Encoding) => continue,
                2 => 128 + self.rng.below(65),
                // LLVM reads a negative integer given to an f16 operand as a literal.
                3 if ty.is_16bit() && ty.is_float() => continue,
                3 => 193 + self.rng.below(16),
                4 => {
                    // LLVM prints float constants of 16-bit integer operands as literals.
                    if ty.is_16bit() && !ty.is_float() {
                        continue;
                    }
                    let top = if self.gen.has(Feature::Inv2PiInlineImm) {
                        9
                    } else {
                        8
                    };
                    240 + self.rng.below(top)
                }
                5 if allow_lit => {
                    if self.lit.is_none() {
                        self.lit = Some(self.literal(ty));
                    }
                    255
                }
                _ => continue,
            };
            if code < 128 || code == 255 {
                self.scalar_used = Some((code, count));
            }
            return code;
        }
    }

    fn vgpr(&mut self, count: u32) -> u32 {
        self.rng.below(256 - count + 1)
    }

    fn fill(&mut self) {
        let info = self.info;
        match self.enc {
            Enc::Sop2 | Enc::Sop1 | Enc::Sopc | Enc::Sopk | Enc::Sopp => self.fill_scalar(),
            Enc::Smrd | Enc::Smem => self.fill_smem(),
            Enc::Vop2 | Enc::Vop1 | Enc::Vopc => {
                for o in info.sig {
                    match o.role {
                        Role::D if o.sgpr => {
                            let v = self.sgpr(1);
                            self.set(Field::Vdst, v)
                        }
                        Role::D => {
                            let v = self.vgpr(o.ty.dwords());
                            self.set(Field::Vdst, v)
                        }
                        Role::A => {
                            // An implicit VCC/M0 read, a literal or a scalar lane select
                            // (v_writelane) takes the one scalar-source slot.
                            let scalar_taken = info.operand(Role::SC).is_some()
                                || info.has(flag::LIT | flag::SREAD)
                                || info.operand(Role::B).is_some_and(|b| b.sgpr);
                            let allow_lit = !scalar_taken;
                            let c = if o.vgpr {
                                256 + self.vgpr(o.ty.dwords())
                            } else if scalar_taken {
                                if !o.sgpr && self.rng.below(2) == 0 {
                                    256 + self.vgpr(o.ty.dwords())
                                } else {
                                    128 + self.rng.below(65)
                                }
                            } else {
                                self.src9(o.ty, allow_lit, !o.sgpr)
                            };
                            self.set(Field::Src0, c)
                        }
                        Role::B => {
                            let v = if o.sgpr {
                                self.sgpr(1)
                            } else {
                                self.vgpr(o.ty.dwords())
                            };
                            self.set(Field::Vsrc1, v)
                        }
                        Role::L => self.lit = Some(self.literal(o.ty)),
                        _ => {}
                    }
                }
            }
            Enc::Vop3 | Enc::Vop3b => self.fill_vop3(),
            Enc::Vop3p => self.fill_vop3p(),
            Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa => self.fill_sdwa(),
            Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp => self.fill_dpp(),
            Enc::Vintrp => {
                let v = self.vgpr(1);
                self.set(Field::Vdst, v);
                let a = if info.operand(Role::P).is_some() {
                    self.rng.below(3)
                } else {
                    self.vgpr(1)
                };
                self.set(Field::Src0, a);
                let (at, ch) = (self.rng.below(33), self.rng.below(4));
                self.set(Field::Attr, at);
                self.set(Field::AttrChan, ch);
            }
            Enc::Ds => self.fill_ds(),
            Enc::Mubuf | Enc::Mtbuf => self.fill_buf(),
            Enc::Mimg => self.fill_mimg(),
            Enc::Exp => self.fill_exp(),
            Enc::Flat => self.fill_flat(),
        }
    }

    /// A 9-bit VOP source: VGPR (256+), or a scalar source.
    fn src9(&mut self, ty: Ty, allow_lit: bool, allow_vgpr: bool) -> u32 {
        if allow_vgpr && self.rng.below(2) == 0 {
            256 + self.vgpr(ty.dwords())
        } else {
            self.ssrc(ty, allow_lit, true)
        }
    }

    fn fill_scalar(&mut self) {
        let info = self.info;
        for o in info.sig {
            match o.role {
                Role::D => {
                    let v = self.sdst(o.ty.dwords());
                    self.set(Field::Sdst, v)
                }
                Role::A if o.sgpr => {
                    let v = self.sgpr(o.ty.dwords());
                    self.set(Field::Ssrc0, v)
                }
                Role::B if o.sgpr => {
                    let v = self.sgpr(o.ty.dwords());
                    self.set(Field::Ssrc1, v)
                }
                Role::A => {
                    let c = self.ssrc(o.ty, true, true);
                    self.set(Field::Ssrc0, c)
                }
                Role::B if o.ty == Ty::Gpridx => {
                    let v = self.rng.below(16);
                    self.set(Field::Ssrc1, v)
                }
                Role::B => {
                    let c = self.ssrc(o.ty, true, true);
                    self.set(Field::Ssrc1, c)
                }
                Role::L => self.lit = Some(self.literal(o.ty)),
                Role::K => {
                    let v = self.simm16(o.ty);
                    self.set(Field::Simm16, v)
                }
                _ => {}
            }
        }
    }

    fn simm16(&mut self, ty: Ty) -> u32 {
        match ty {
            Ty::Waitcnt => {
                let vm = self.rng.below(16);
                let exp = self.rng.below(8);
                let lgkm = self.rng.below(16);
                let hi = (self.rng.below(4) << 14) & self.gen.info().waitcnt_mask;
                vm | exp << 4 | lgkm << 8 | hi
            }
            Ty::Hwreg => {
                let id = 1 + self.rng.below(7);
                let off = self.rng.below(32);
                let size = self.rng.below(32 - off) + 1;
                id | off << 6 | (size - 1) << 11
            }
            Ty::Sendmsg => match self.rng.below(4) {
                0 => 1,
                1 => 2 | (1 + self.rng.below(3)) << 4 | self.rng.below(4) << 8,
                2 => 3,
                _ => 15 | (1 + self.rng.below(4)) << 4,
            },
            Ty::Gpridx => self.rng.below(16),
            _ => self.rng.below(0x1_0000),
        }
    }

    fn fill_smem(&mut self) {
        let info = self.info;
        for o in info.sig {
            match o.role {
                Role::D if info.has(flag::IMM_D) => {
                    let v = self.rng.below(128);
                    self.set(Field::Sdst, v)
                }
                Role::D => {
                    let v = self.sgpr(o.ty.dwords());
                    self.set(Field::Sdst, v)
                }
                Role::A => {
                    let n = o.ty.dwords();
                    let v = self.sgpr(n) / 2;
                    self.set(Field::Sbase, v)
                }
                Role::O => {
                    if self.rng.below(2) == 0 {
                        self.set(Field::Imm, 1);
                        let max = match self.enc {
                            Enc::Smrd => 256,
                            _ => 1 << 20,
                        };
                        let v = self.rng.below(max);
                        self.set(Field::Offset, v);
                    } else {
                        let v = self.sgpr(1);
                        self.set(Field::Offset, v);
                    }
                }
                _ => {}
            }
        }
        if self.enc == Enc::Smem
            && info.operand(Role::A).is_some()
            && info.operand(Role::D).is_some()
            && !info.has(flag::IMM_D)
        {
            self.b(Field::Glc);
        }
    }

    fn fill_vop3(&mut self) {
        let info = self.info;
        if info.operand(Role::SC).is_some() {
            let c = self.sgpr(2);
            self.scalar_used = Some((c, 2));
        }
        if info.has(flag::SREAD) {
            // The implicit VCC/M0 read is its one scalar.
            self.scalar_used = Some((106, 2));
        }
        let vintrp = info.family == Family::Vintrp || info.operand(Role::T).is_some();
        let mut neg = 0;
        let mut abs = 0;
        let mut float_dst = false;
        for o in info.sig {
            match o.role {
                Role::D if o.sgpr => {
                    let v = self.sgpr(1);
                    self.set(Field::Vdst, v)
                }
                Role::D => {
                    float_dst = o.ty.is_float();
                    // Wide results may not overlap their sources (qsad/mqsad): keep them apart.
                    let v = 128 + self.rng.below(128 - o.ty.dwords() + 1);
                    self.set(Field::Vdst, v)
                }
                Role::SD => {
                    let v = self.sdst(2);
                    self.set(Field::Sdst3, v)
                }
                Role::SC => {
                    let c = self.scalar_used.map_or(106, |(c, _)| c);
                    self.set(Field::Src2, c)
                }
                Role::T => {
                    let v = self.rng.below(33) | self.rng.below(4) << 6;
                    self.set(Field::Src0, v)
                }
                Role::P => {
                    let v = self.rng.below(3);
                    self.set(Field::Src1, v)
                }
                Role::A | Role::B | Role::C => {
                    let (f, n) = if vintrp {
                        match o.role {
                            Role::A | Role::B => (Field::Src1, 1),
                            _ => (Field::Src2, 2),
                        }
                    } else {
                        match o.role {
                            Role::A => (Field::Src0, 0),
                            Role::B => (Field::Src1, 1),
                            _ => (Field::Src2, 2),
                        }
                    };
                    let c = if o.sgpr {
                        self.ssrc(o.ty, false, true)
                    } else if vintrp || o.vgpr || o.ty.dwords() > 2 || self.rng.below(2) == 0 {
                        256 + self.rng.below(128 - o.ty.dwords() + 1)
                    } else {
                        self.ssrc(o.ty, false, true)
                    };
                    self.set(f, c);
                    // LLVM reads a negated integer constant of an f16 operand as a literal.
                    if o.ty.is_float() && !(o.ty.is_16bit() && (128..256).contains(&c)) {
                        neg |= self.rng.below(2) << n;
                        abs |= self.rng.below(2) << n;
                    }
                }
                _ => {}
            }
        }
        // The tied SRC2 of v_mac is VDST in hardware; LLVM encodes the field as 0.
        if info.has(flag::TIED) {
            self.set(Field::Src2, 0);
        }
        self.set(Field::Neg, neg);
        if self.enc == Enc::Vop3 {
            self.set(Field::Abs, abs);
        }
        if float_dst {
            self.b(Field::Clamp);
            if !info.has(flag::NOOMOD) {
                let v = self.rng.below(4);
                self.set(Field::Omod, v);
            }
        }
    }

    fn fill_vop3p(&mut self) {
        let info = self.info;
        let mut n = 0;
        for o in info.sig {
            match o.role {
                Role::D => {
                    let v = self.vgpr(o.ty.dwords());
                    self.set(Field::Vdst, v)
                }
                Role::A | Role::B | Role::C => {
                    let f = [Field::Src0, Field::Src1, Field::Src2][n];
                    n += 1;
                    let c = self.src9(o.ty, false, true);
                    self.set(f, c);
                }
                _ => {}
            }
        }
        let all = (1u32 << n) - 1;
        let opsel = self.rng.below(all + 1);
        self.set(Field::OpSel, opsel & 7);
        let hi = self.rng.below(all + 1) | (7 & !all);
        self.set(Field::OpSelHi, hi & 3);
        self.set(Field::OpSelHi2, hi >> 2 & 1);
        let float = info
            .sig
            .iter()
            .any(|o| o.role != Role::D && o.ty.is_float());
        if float {
            let v = self.rng.below(all + 1);
            self.set(Field::Neg, v);
            let v = self.rng.below(all + 1);
            self.set(Field::NegHi, v);
        }
        self.b(Field::Clamp);
    }

    fn fill_sdwa(&mut self) {
        let info = self.info;
        if info.sig.is_empty() {
            return;
        }
        let has = |f| layout::has(self.enc, self.gen, f);
        let (sd_field, omod_field) = (has(Field::SdwaSd), has(Field::Omod));
        let mut float_dst = false;
        for o in info.sig {
            match o.role {
                Role::D => {
                    float_dst = o.ty.is_float();
                    let v = self.vgpr(o.ty.dwords());
                    self.set(Field::Vdst, v)
                }
                Role::A | Role::B => {
                    let (f, s, neg, abs, sext, sel) = if o.role == Role::A {
                        (
                            Field::Src0,
                            Field::S0,
                            Field::Src0Neg,
                            Field::Src0Abs,
                            Field::Src0Sext,
                            Field::Src0Sel,
                        )
                    } else {
                        (
                            Field::Vsrc1,
                            Field::S1,
                            Field::Src1Neg,
                            Field::Src1Abs,
                            Field::Src1Sext,
                            Field::Src1Sel,
                        )
                    };
                    // An implicit VCC read (SC role) already uses the one scalar slot.
                    let vcc_read = info.operand(Role::SC).is_some();
                    let sgpr_src = layout::has(self.enc, self.gen, s);
                    if sgpr_src && !vcc_read && self.rng.one_in(4) && self.scalar_used.is_none() {
                        let c = self.sgpr(1);
                        self.scalar_used = Some((c, 1));
                        self.set(f, c);
                        self.set(s, 1);
                    } else {
                        let v = self.vgpr(1);
                        self.set(f, v);
                    }
                    let v = self.rng.below(7);
                    self.set(sel, v);
                    if o.ty.is_float() {
                        self.b(neg);
                        self.b(abs);
                    } else if !o.ty.is_16bit() || o.ty.is_float() {
                        self.b(sext);
                    }
                }
                _ => {}
            }
        }
        if info.family == Family::Vopc {
            if sd_field && self.rng.below(2) == 0 {
                self.set(Field::SdwaSd, 1);
                // With SD set, VCC would print as `vcc` and read back as SD=0.
                let v = self.sgpr(2);
                self.set(Field::SdwaSdst, v);
            }
        } else {
            // v_mac_*: the destination is also an input, so it is whole.
            let v = if info.has(flag::TIED) {
                6
            } else {
                self.rng.below(7)
            };
            self.set(Field::DstSel, v);
            let v = self.rng.below(3);
            self.set(Field::DstUnused, v);
            if float_dst {
                self.b(Field::Clamp);
                if omod_field {
                    let v = self.rng.below(4);
                    self.set(Field::Omod, v);
                }
            }
        }
    }

    fn fill_dpp(&mut self) {
        let info = self.info;
        for o in info.sig {
            match o.role {
                Role::D => {
                    let v = self.vgpr(o.ty.dwords());
                    self.set(Field::Vdst, v)
                }
                Role::A | Role::B => {
                    let (f, neg, abs) = if o.role == Role::A {
                        (Field::Src0, Field::DppNeg0, Field::DppAbs0)
                    } else {
                        (Field::Vsrc1, Field::DppNeg1, Field::DppAbs1)
                    };
                    let v = self.vgpr(o.ty.dwords());
                    self.set(f, v);
                    if o.ty.is_float() {
                        self.b(neg);
                        self.b(abs);
                    }
                }
                _ => {}
            }
        }
        const CTRLS: [(u32, u32); 9] = [
            (0, 256),
            (0x101, 15),
            (0x111, 15),
            (0x121, 15),
            (0x130, 1),
            (0x134, 1),
            (0x138, 1),
            (0x13c, 1),
            (0x140, 4),
        ];
        let (base, n) = CTRLS[self.rng.below(9) as usize];
        let c = base + self.rng.below(n);
        self.set(Field::DppCtrl, c);
        let v = self.rng.below(16);
        self.set(Field::RowMask, v);
        let v = self.rng.below(16);
        self.set(Field::BankMask, v);
        self.b(Field::BoundCtrl);
    }

    fn fill_ds(&mut self) {
        let info = self.info;
        for o in info.sig {
            let f = match o.role {
                Role::D => Field::Vdst,
                Role::A => Field::Addr,
                Role::B => Field::Data0,
                _ => Field::Data1,
            };
            let v = self.vgpr(o.ty.dwords());
            self.set(f, v);
        }
        if info.sig.is_empty() && !info.has(flag::GDS) {
            return;
        }
        let v = self.rng.below(0x1_0000);
        self.set(Field::Offset, v);
        if info.has(flag::GDS) {
            self.set(Field::Gds, 1);
        } else if !info.has(flag::NOGDS) {
            self.b(Field::Gds);
        }
    }

    fn fill_buf(&mut self) {
        let info = self.info;
        if info.has(flag::NOARGS) {
            return;
        }
        let n = info
            .operand(Role::V)
            .map_or(1, |o| o.ty.data_dwords(self.gen));
        // buffer_store_lds_dword has no data operand: its VDATA field stays 0.
        if info.operand(Role::V).is_some() {
            let v = self.vgpr(n + 1);
            self.set(Field::Vdata, v);
        }
        // buffer_store_lds_dword takes no address: only the offset modes.
        let modes = match (
            info.operand(Role::V),
            layout::has(self.enc, self.gen, Field::Addr64),
        ) {
            (None, _) => 1,
            (_, false) => 4,
            _ => 5,
        };
        let mode = self.rng.below(modes);
        match mode {
            1 => self.set(Field::Offen, 1),
            2 => self.set(Field::Idxen, 1),
            3 => {
                self.set(Field::Offen, 1);
                self.set(Field::Idxen, 1)
            }
            4 => self.set(Field::Addr64, 1),
            _ => {}
        }
        if mode != 0 {
            let v = self.vgpr(2);
            self.set(Field::Vaddr, v);
        }
        let v = self.rng.below(25);
        self.set(Field::Srsrc, v);
        let c = if self.rng.below(2) == 0 {
            self.sgpr(1)
        } else {
            128 + self.rng.below(65)
        };
        self.set(Field::Soffset, c);
        let v = self.rng.below(4096);
        self.set(Field::Offset, v);
        if info.operand(Role::V).is_some() {
            self.b(Field::Glc);
        }
        self.b(Field::Slc);
        if self.enc == Enc::Mtbuf {
            let v = self.rng.below(15);
            self.set(Field::Dfmt, v);
            let v = [0, 1, 2, 3, 4, 5, 7][self.rng.below(7) as usize];
            self.set(Field::Nfmt, v);
        }
        if info.has(flag::LDS) && (self.rng.one_in(3) || info.operand(Role::V).is_none()) {
            self.set(Field::Lds, 1);
        }
    }

    fn fill_mimg(&mut self) {
        let info = self.info;
        let dmask = match info.operand(Role::V) {
            Some(v) if info.has(flag::ATOMIC) => (1 << v.ty.dwords()) - 1,
            _ if info.has(flag::GATHER4) => 1 << self.rng.below(4),
            _ => 1 + self.rng.below(15),
        };
        self.set(Field::Dmask, dmask);
        let v = self.vgpr(4);
        self.set(Field::Vdata, v);
        let v = self.vgpr(16);
        self.set(Field::Vaddr, v);
        let v = self.rng.below(12) * 2;
        self.set(Field::Srsrc, v);
        if info.has(flag::SAMPLER) {
            let v = self.rng.below(25);
            self.set(Field::Ssamp, v);
        }
        self.b(Field::Unorm);
        self.b(Field::Glc);
        self.b(Field::Slc);
        self.b(Field::Da);
        self.b(Field::Lwe);
    }

    fn fill_exp(&mut self) {
        const TGTS: [(u32, u32); 5] = [(0, 8), (8, 1), (9, 1), (12, 4), (32, 32)];
        let (b, n) = TGTS[self.rng.below(5) as usize];
        let t = b + self.rng.below(n);
        self.set(Field::Tgt, t);
        let en = self.rng.below(16);
        self.set(Field::En, en);
        for (k, f) in [Field::Vsrc0, Field::Vsrc1e, Field::Vsrc2, Field::Vsrc3]
            .into_iter()
            .enumerate()
        {
            if en >> k & 1 != 0 {
                let v = self.vgpr(1);
                self.set(f, v);
            }
        }
        self.b(Field::Done);
        self.b(Field::Vm);
    }

    fn fill_flat(&mut self) {
        let info = self.info;
        let segs = self.gen.has(Feature::FlatGlobalInsts);
        let seg = info.family.flat_seg();
        self.set(Field::Seg, seg);
        let use_saddr = segs && info.family != Family::Flat && self.rng.below(2) == 0;
        for o in info.sig {
            match o.role {
                Role::D => {
                    let v = self.vgpr(o.ty.dwords());
                    self.set(Field::Vdst, v)
                }
                Role::A => {
                    let v = self.vgpr(2);
                    self.set(Field::Addr, v)
                }
                Role::V => {
                    let v = self.vgpr(o.ty.data_dwords(self.gen));
                    self.set(Field::Data0, v)
                }
                _ => {}
            }
        }
        if info.family == Family::Scratch && use_saddr {
            self.set(Field::Addr, 0);
        }
        if segs && info.family != Family::Flat {
            let s = if use_saddr {
                let n = if info.family == Family::Global { 2 } else { 1 };
                self.sgpr(n)
            } else {
                0x7f
            };
            self.set(Field::Saddr, s);
        }
        if layout::has(Enc::Flat, self.gen, Field::Offset) {
            let v = if info.family == Family::Flat {
                self.rng.below(4096)
            } else {
                self.rng.below(8192)
            };
            self.set(Field::Offset, v);
        }
        self.b(Field::Glc);
        self.b(Field::Slc);
        // An atomic without GLC returns nothing: its VDST field is left 0.
        if info.has(flag::ATOMIC) && layout::get(self.enc, self.gen, self.raw, Field::Glc) == 0 {
            self.set(Field::Vdst, 0);
        }
    }
}

/// Every (instruction, encoding) pair that exists on `target`, in table order.
pub fn all_forms(target: impl Into<Target>) -> Vec<(OpId, Enc)> {
    let target = target.into();
    let mut v = Vec::new();
    for (i, info) in OPS.iter().enumerate() {
        if !target.features.contains(info.feat) {
            continue;
        }
        for e in variants(info, target.gen) {
            v.push((i as OpId, e));
        }
    }
    v
}

/// A random valid instruction of one of `forms` (each draw picks a form at
/// random, until one gives an instruction).
pub fn random_of(rng: &mut Rng, target: Target, forms: &[(OpId, Enc)]) -> Instr {
    loop {
        let (op, enc) = forms[rng.below(forms.len() as u32) as usize];
        if let Some(i) = random_instr(rng, target, op, enc) {
            return i;
        }
    }
}

/// `n` random valid instructions of every form of `target` (picked at
/// random), back to back as little-endian code: code every disassembler
/// decodes. Deterministic for a `seed`.
pub fn valid_code(target: impl Into<Target>, n: usize, seed: u64) -> Vec<u8> {
    let target = target.into();
    let forms = all_forms(target);
    let mut rng = Rng::new(seed);
    let mut code = Vec::with_capacity(n * 6);
    for _ in 0..n {
        let (w, k) = random_of(&mut rng, target, &forms).words();
        w[..k]
            .iter()
            .for_each(|x| code.extend_from_slice(&x.to_le_bytes()));
    }
    code
}

/// Random words biased to the form `(op, enc)`: every bit random except the
/// encoding's fixed prefix, the opcode field (and SEG for GLOBAL/SCRATCH),
/// so unused and reserved bits, odd registers, literals equal to inline
/// constants and invalid operand codes all occur. Three words: the form's
/// base words and whatever follows (a literal, or the next instruction).
pub fn garbage_for(rng: &mut Rng, gen: Gen, op: OpId, enc: Enc) -> [u32; 3] {
    let info = &OPS[op as usize];
    let mut raw = rng.next_u64();
    if let Some((mask, val)) = enc.prefix(gen) {
        raw = (raw & !u64::from(mask)) | u64::from(val);
    }
    let opcode = match enc {
        Enc::Vop3 | Enc::Vop3b => info.vop3_opcode(gen),
        _ => info.opcode(gen),
    };
    if let Some(o) = opcode {
        layout::set(enc, gen, &mut raw, Field::Op, u32::from(o));
    }
    if enc == Enc::Flat && info.family != Family::Flat {
        layout::set(enc, gen, &mut raw, Field::Seg, info.family.flat_seg());
    }
    // A literal is often one of the inline constants' values.
    let third = rng.next_u64() as u32;
    let lit = match rng.below(4) {
        1 => rng.next_u64() as u32,
        0 => [
            0u32,
            0xfffd, // -3 to a 16-bit operand
            64,
            0xffff_fff0,
            0x3f80_0000,
            0x3c00, // 1.0 to a 16-bit operand
            0x4080_0000,
            0x3e22_f983,
        ][rng.below(8) as usize],
        _ => rng.next_u64() as u32,
    };
    if enc.base_dwords() == 1 {
        [raw as u32, lit, third]
    } else {
        [raw as u32, (raw >> 32) as u32, lit]
    }
}

/// `n` test cases of raw words for `gen`: one in five fully random, the
/// others biased to each (instruction, encoding) form in turn (so every
/// encoding and opcode is hit). Each case is 1 to 3 dwords, sometimes
/// followed by 1 to 3 stray bytes: cases cut short exercise truncated
/// instructions.
pub fn garbage_cases(target: impl Into<Target>, n: usize, seed: u64) -> Vec<Vec<u8>> {
    let target = target.into();
    let gen = target.gen;
    let mut rng = Rng::new(seed);
    let forms = all_forms(target);
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let words = if k % 5 == 4 || forms.is_empty() {
            let r = rng.next_u64();
            [r as u32, (r >> 32) as u32, rng.next_u64() as u32]
        } else {
            let (op, enc) = forms[(k - k / 5) % forms.len()];
            garbage_for(&mut rng, gen, op, enc)
        };
        let len = match rng.below(16) {
            0 => 1,
            1 => 2,
            _ => 3,
        };
        let mut bytes: Vec<u8> = words[..len].iter().flat_map(|w| w.to_le_bytes()).collect();
        if rng.one_in(32) {
            for _ in 0..1 + rng.below(3) {
                bytes.push(rng.next_u64() as u8);
            }
        }
        out.push(bytes);
    }
    out
}
