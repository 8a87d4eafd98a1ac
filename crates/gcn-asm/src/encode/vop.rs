//! Vector ALU encodings: VOP1/VOP2/VOPC and their VOP3, SDWA and DPP forms,
//! VOP3-only and VOP3P instructions, VINTRP; the constant bus rule.

use super::{Build, Want, VOP3_MODS};
use crate::mods::{self, bit, Mods, M};
use crate::opnd::{Opd, Val};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::table::{flag, Family, Opnd, Role, Ty};
use risa_gcn::Feature;

impl<'a> Build<'a, '_, '_> {
    // ---------------------------------------------------------------- vector ALU

    pub(super) fn vop(&mut self, want: Want) -> Option<()> {
        let info = self.info;
        let fam = info.family;
        let gfx9 = self.gen.has(Feature::Gfx9Insts);
        // 1. operands, in signature order (VOPC: the destination first).
        let mut dst_c: Option<Opd<'a>> = None;
        if fam == Family::Vopc {
            dst_c = Some(self.operand()?);
        }
        let mut ops: [Option<Opd<'a>>; 6] = Default::default();
        let mut attr = (0u32, 0u32, ""); // VOP3 interpolation: attribute, channel
        let mut param = None;
        // What the signature holds, gathered in this one pass over it (the
        // steps below ask often).
        let mut roles = 0u32;
        let mut wide_ops = false;
        let mut scalar_dst = false;
        for (k, op) in info.sig.iter().enumerate() {
            roles |= 1 << op.role as u32;
            wide_ops |= matches!(op.role, Role::D | Role::A | Role::B) && op.ty.dwords() == 2;
            scalar_dst |= op.role == Role::D && op.sgpr;
            match op.role {
                Role::T => {
                    self.sep()?;
                    attr = self.attr()?;
                }
                Role::P => {
                    self.sep()?;
                    param = Some(self.param()?);
                }
                _ => self.operand_into(&mut ops[k])?,
            }
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        // CLRX's `neg:N`, `abs:N`, `sext:N`: bit n modifies source n.
        let per_src = bit(M::Neg) | bit(M::Abs) | bit(M::Sext);
        // Interpolation in VOP3: bit 0 is the attribute's slot (SRC0, written
        // as given), bit 1 the VGPR (SRC1), as clrxasm numbers them.
        let has = |r: Role| roles >> r as u32 & 1 != 0;
        let interp = has(Role::T);
        let mut raw_neg_abs = (0u32, 0u32);
        // Whether an operand's own text has neg/abs (`-2`, `abs(2)`), apart
        // from `neg:`/`abs:` masks, which clrxasm takes on constants.
        let mut written_mods = [true; 6];
        if m.seen & per_src != 0 {
            let nsrc = info
                .sig
                .iter()
                .filter(|o| matches!(o.role, Role::A | Role::B | Role::C))
                .count() as u32;
            let nsrc = if interp { 2 } else { nsrc };
            let mut masks = [0u32; 3];
            for (i, k) in [M::Neg, M::Abs, M::Sext].into_iter().enumerate() {
                let v = m.get(k, 0);
                let (n, bits) = (v >> 8, v & 0xff);
                if n != 0xff && n > nsrc {
                    return self.err(m.at(k), format!("expected at most {nsrc} list elements"));
                }
                if bits >> nsrc != 0 {
                    // CLRX drops the bits of sources the instruction lacks.
                    self.asm
                        .warning(m.at(k), format!("bits above source {nsrc} ignored"));
                }
                masks[i] = bits & ((1 << nsrc) - 1);
            }
            let [mut ng, mut ab, sx] = masks;
            if interp {
                // (No VGPR operand, as in v_interp_mov_f32: both bits raw.)
                let keep = if info.operand(Role::A).is_some() {
                    1
                } else {
                    3
                };
                raw_neg_abs = (ng & keep, ab & keep);
                ng >>= 1;
                ab >>= 1;
            }
            for (k, op) in info.sig.iter().enumerate() {
                let n = match op.role {
                    Role::A => 0,
                    Role::B => 1,
                    Role::C => 2,
                    _ => continue,
                };
                written_mods[k] = ops[k].as_ref().is_some_and(|o| o.neg || o.abs);
                if let Some(o) = ops[k].as_mut() {
                    o.neg |= ng >> n & 1 != 0;
                    o.abs |= ab >> n & 1 != 0;
                    o.sext |= sx >> n & 1 != 0;
                }
            }
            m.seen &= !per_src;
        }
        // (Given as 0, they are absent: `vop3:0`, `neg:0`.)
        m.given &= m.seen | !(per_src | VOP3_MODS);
        let any_sext = ops.iter().flatten().any(|o| o.sext);
        // 2. the encoding.
        let short = match fam {
            Family::Vop2 => Some(Enc::Vop2),
            Family::Vop1 => Some(Enc::Vop1),
            Family::Vopc => Some(Enc::Vopc),
            _ => None,
        };
        let long = if info.has(flag::VOP3B) {
            Enc::Vop3b
        } else {
            Enc::Vop3
        };
        let has_vop3 = info.vop3_opcode(self.gen).is_some();
        let enc = match want {
            Want::E32 => match short {
                Some(e) => e,
                None => return self.err(self.st.name, "no 32-bit (_e32) encoding"),
            },
            Want::E64 => long,
            Want::Sdwa | Want::Dpp => {
                let (s, d) = match fam {
                    Family::Vop2 => (Enc::Vop2Sdwa, Enc::Vop2Dpp),
                    Family::Vop1 => (Enc::Vop1Sdwa, Enc::Vop1Dpp),
                    Family::Vopc => (Enc::VopcSdwa, Enc::VopcDpp),
                    _ => return self.err(self.st.name, "no SDWA/DPP encoding"),
                };
                if want == Want::Sdwa {
                    s
                } else {
                    d
                }
            }
            Want::Any => {
                if short.is_none() {
                    long
                } else if (m.seen & mods::SDWA != 0 || any_sext) && short.is_some() {
                    match fam {
                        Family::Vop2 => Enc::Vop2Sdwa,
                        Family::Vop1 => Enc::Vop1Sdwa,
                        _ => Enc::VopcSdwa,
                    }
                } else if m.seen & mods::DPP != 0 {
                    match fam {
                        Family::Vop2 => Enc::Vop2Dpp,
                        Family::Vop1 => Enc::Vop1Dpp,
                        _ => Enc::VopcDpp,
                    }
                } else if has_vop3 && self.needs_vop3(&m, dst_c.as_ref(), &ops) {
                    long
                } else {
                    short.unwrap_or(long)
                }
            }
        };
        let sdwa = matches!(enc, Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa);
        let dpp = matches!(enc, Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp);
        if self.clrx && dpp && wide_ops {
            return self.err(
                self.st.name,
                "DPP encoding of an instruction with 64-bit operands (clrxasm rejects it)",
            );
        }
        if self.clrx && (sdwa || dpp) && scalar_dst {
            return self.err(
                self.st.name,
                "SDWA/DPP encoding of an instruction with a scalar destination (clrxasm rejects it)",
            );
        }
        if (sdwa && info.has(flag::NOSDWA)) || (dpp && info.has(flag::NODPP)) {
            if !self.clrx {
                return self.err(self.st.name, "this instruction has no SDWA/DPP form");
            }
            // clrxasm encodes it (the hardware's result is undefined).
            self.asm.warning(
                self.st.name,
                "this instruction has no SDWA/DPP form in LLVM (clrxasm encodes it)",
            );
        }
        if (sdwa && !self.gen.has(Feature::Sdwa)) || (dpp && !self.gen.has(Feature::Dpp)) {
            return self.err(self.st.name, "SDWA and DPP exist only on gcn1.2, gcn1.4");
        }
        self.begin(enc)?;
        // 3. the fields.
        let long_enc = matches!(enc, Enc::Vop3 | Enc::Vop3b);
        let interp3 = fam == Family::Vintrp || (fam == Family::Vop3 && interp);
        if self.clrx {
            // clrxasm: an SGPR range of a vector instruction stays within
            // one group of four ("register line").
            for o in dst_c.iter().chain(ops.iter().flatten()) {
                if let Val::Reg { code, count } = o.v {
                    if count >= 2
                        && code < risa_gcn::operand::sgpr_count(self.gen)
                        && code / 4 != (code + count - 1) / 4
                    {
                        return self.err(
                            o.at,
                            "scalar register range crosses a group of four (clrxasm's rule)",
                        );
                    }
                }
            }
        }
        if let Some(d) = &dst_c {
            if long_enc {
                let code = self.sreg(d, 2)?;
                self.put(Field::Vdst, code);
            } else if sdwa && gfx9 && !d.is_vcc() {
                let code = self.sreg(d, 2)?;
                self.put(Field::SdwaSdst, code);
                self.put(Field::SdwaSd, 1);
            } else if !d.is_vcc() {
                return self.err(d.at, "the destination of this encoding must be vcc");
            }
        }
        let (mut neg, mut abs) = raw_neg_abs;
        let mut nsrc = 0;
        let mut vdst = 0;
        for (k, op) in info.sig.iter().enumerate() {
            if op.role == Role::T {
                if long_enc {
                    self.put(Field::Src0, attr.0 | attr.1 << 6 | m.flag(M::High) << 8);
                } else {
                    return self.err(attr.2, "interpolation operands need the VOP3 encoding");
                }
                continue;
            }
            if op.role == Role::P {
                self.put(Field::Src1, param.unwrap_or(0));
                continue;
            }
            // (Borrowed, not moved out: the operands stay where they were read.)
            let Some(o) = ops[k].as_ref() else { continue };
            match op.role {
                Role::D => {
                    let code = if op.sgpr {
                        self.sreg(o, op.ty.dwords())?
                    } else {
                        self.vgpr(o, op.ty.dwords())?
                    };
                    vdst = code;
                    self.put(Field::Vdst, code);
                }
                Role::SD | Role::SC if !long_enc => {
                    if !o.is_vcc() {
                        return self.err(o.at, "this encoding needs vcc here (use the VOP3 encoding for other registers)");
                    }
                }
                Role::SD => {
                    let code = self.sreg(o, 2)?;
                    self.put(Field::Sdst3, code);
                }
                Role::L => {
                    self.no_lit(o)?;
                    if matches!(o.v, Val::Reg { .. }) {
                        return self
                            .err(o.at, "expected a constant (the literal of v_madak/v_madmk)");
                    }
                    let code = self.src(o, op.ty, 1, true)?;
                    if code != 255 {
                        // madmk/madak: the constant is always a literal.
                        let v = match &o.v {
                            Val::Num(v) => v.value as u32,
                            Val::Float(f) => {
                                if op.ty.is_16bit() {
                                    u32::from(f.to_f16_bits())
                                } else {
                                    f.to_f32_bits()
                                }
                            }
                            _ => 0,
                        };
                        self.set_lit(v, o.at)?;
                    }
                }
                _ => {
                    // A source: A, B, C or SC (VOP3 carry-in).
                    let n = match op.role {
                        Role::A => 0,
                        Role::B => 1,
                        _ => 2,
                    };
                    let mut count = if op.role == Role::SC {
                        2
                    } else {
                        op.ty.dwords()
                    };
                    if self.clrx && op.role == Role::B && info.has(flag::CLRXB64) {
                        // clrxasm reads the class mask as a register pair.
                        match o.v {
                            Val::Reg { count: 1, .. } => self.asm.warning(
                                o.at,
                                "clrxasm rejects one register here (it wants a pair; the hardware reads one)",
                            ),
                            Val::Reg { .. } => count = 2,
                            _ => {}
                        }
                    }
                    let ty = if op.role == Role::SC { Ty::B64 } else { op.ty };
                    if long_enc {
                        let (f, bitn) = if interp3 {
                            match op.role {
                                Role::A | Role::B => (Field::Src1, 1),
                                _ => (Field::Src2, 2),
                            }
                        } else {
                            ([Field::Src0, Field::Src1, Field::Src2][n], n)
                        };
                        if op.vgpr && o.vgpr().is_none() {
                            // The field takes any source: encodable, so a warning.
                            self.asm.warning(o.at, "expected a vector register");
                        }
                        let code = self.src(o, ty, count, false)?;
                        self.put(f, code);
                        if self.clrx && code == 254 && n != 0 {
                            self.asm.warning(
                                o.at,
                                "LDS_DIRECT other than as the first source (clrxasm rejects it)",
                            );
                        }
                        if !op.sgpr {
                            self.note_read(code);
                        } else {
                            self.note_clrx_read(code);
                        }
                        if self.clrx
                            && (o.abs || o.neg)
                            && written_mods[k]
                            && !matches!(o.v, Val::Reg { .. })
                        {
                            self.asm.warning(
                                o.at,
                                "abs/neg of a constant (clrxasm rejects it; the hardware applies it)",
                            );
                        }
                        neg |= u32::from(o.neg) << bitn;
                        abs |= u32::from(o.abs) << bitn;
                        if o.sext {
                            return self.err(o.at, "sext() needs the SDWA encoding");
                        }
                        nsrc += 1;
                    } else if sdwa {
                        self.sdwa_src(o, op, n)?;
                    } else if dpp {
                        let code = self.vgpr(
                            &Opd {
                                neg: false,
                                abs: false,
                                ..o.clone()
                            },
                            count,
                        )?;
                        if o.sext {
                            return self.err(o.at, "sext() needs the SDWA encoding");
                        }
                        let (f, fneg, fabs) = if n == 0 {
                            (Field::Src0, Field::DppNeg0, Field::DppAbs0)
                        } else {
                            (Field::Vsrc1, Field::DppNeg1, Field::DppAbs1)
                        };
                        self.put(f, code);
                        self.put(fneg, u32::from(o.neg));
                        self.put(fabs, u32::from(o.abs));
                    } else {
                        // 32-bit encodings: SRC0 takes anything, VSRC1 a VGPR (or an SGPR if the row says so).
                        self.no_operand_mods(o)?;
                        if n == 0 {
                            if op.vgpr && o.vgpr().is_none() && !self.clrx {
                                return self.err(o.at, "expected a vector register");
                            }
                            let code = self.src(o, ty, count, true)?;
                            self.put(Field::Src0, code);
                            self.note_read(code);
                        } else if op.sgpr {
                            // CLRX takes any scalar operand code here (8-bit field).
                            let code = if self.clrx {
                                // (clrxasm also takes a literal here.)
                                self.src(o, ty, count, true)?
                            } else {
                                self.sreg(o, count)?
                            };
                            if code > 255 {
                                return self.err(o.at, "expected a scalar operand");
                            }
                            self.note_clrx_read(code);
                            self.put(Field::Vsrc1, code);
                        } else {
                            let code = self.vgpr(o, count)?;
                            self.put(Field::Vsrc1, code);
                        }
                    }
                }
            }
        }
        // The tied SRC2 of v_mac (= VDST) is left 0 in the VOP3 form, as LLVM encodes it.
        let _ = vdst;
        if !long_enc && has(Role::SC) {
            self.note_read(106);
        }
        if has(Role::L) {
            self.note_read(255);
        }
        // VCC read without being named (v_div_fmas_*) counts on the constant
        // bus; the row's flag says so, not a list of names.
        if let Some((vcc @ 106, _)) = info.implicit_read() {
            self.note_read(vcc);
        }
        if self.clrx && (sdwa || dpp) && (self.i.lit.is_some() || self.pending.is_some()) {
            return self.err(
                self.st.args,
                "a literal with SDWA or DPP (clrxasm rejects it)",
            );
        }
        self.constant_bus(has(Role::L))?;
        // 4. modifiers.
        if long_enc {
            let mut allowed = VOP3_MODS;
            if !gfx9 {
                allowed &= !bit(M::OpSel);
            }
            if interp3 {
                allowed |= bit(M::High);
            }
            self.check_mods(&m, allowed)?;
            self.field(Field::Neg, neg, self.st.args, "neg")?;
            self.field(Field::Abs, abs, self.st.args, "abs")?;
            self.field(Field::Clamp, m.flag(M::Clamp), m.at(M::Clamp), "clamp")?;
            self.field(Field::Omod, m.flag(M::Omod), m.at(M::Omod), "omod")?;
            if m.has(M::OpSel) {
                let v = m.get(M::OpSel, 0);
                let n = (v >> 8) as usize;
                let bits = v & 0xff;
                let at = m.at(M::OpSel);
                if n == 0xff {
                    // CLRX's number: bit k < nsrc selects source k, bit nsrc
                    // the destination; higher bits are dropped (warning).
                    let keep = bits & ((1 << (nsrc + 1)) - 1);
                    if keep != bits {
                        self.asm
                            .warning(at, format!("op_sel {bits:#x} truncated to {keep:#x}"));
                    }
                    let sel = (keep & ((1 << nsrc) - 1)) | (keep >> nsrc & 1) << 3;
                    self.field(Field::OpSel, sel, at, "op_sel")?;
                } else if n != nsrc + 1 {
                    return self.err(at, format!("op_sel takes {} elements", nsrc + 1));
                } else {
                    let sel = (bits & ((1 << nsrc) - 1)) | (bits >> nsrc & 1) << 3;
                    self.field(Field::OpSel, sel, at, "op_sel")?;
                }
            }
        } else if sdwa {
            let mut allowed = mods::SDWA | bit(M::Clamp) | bit(M::Omod);
            // CLRX writes the DST_SEL/DST_UNUSED fields of GCN 1.2 VOPC SDWA.
            if fam == Family::Vopc && (!self.clrx || self.gen.has(Feature::Gfx9Insts)) {
                allowed &= !(bit(M::DstSel) | bit(M::DstUnused));
            }
            if fam == Family::Vop1 {
                allowed &= !bit(M::Src1Sel);
            }
            self.check_mods(&m, allowed)?;
            let none = info.sig.is_empty();
            let d = |x: u32| if none { 0 } else { x };
            // CLRX's syntax defaults to `dst_unused:pad` and writes
            // `dst_sel:dword` in VOPC too; LLVM's to UNUSED_PRESERVE, and 0
            // in VOPC (which has no destination select).
            let (dsel, dunused) = match (self.clrx, fam == Family::Vopc) {
                (true, _) => (d(6), 0),
                (false, true) => (0, 0),
                (false, false) => (d(6), d(2)),
            };
            self.field(Field::Clamp, m.flag(M::Clamp), m.at(M::Clamp), "clamp")?;
            self.field(Field::Omod, m.flag(M::Omod), m.at(M::Omod), "omod")?;
            self.put(Field::DstSel, m.get(M::DstSel, dsel));
            self.put(Field::DstUnused, m.get(M::DstUnused, dunused));
            self.put(Field::Src0Sel, m.get(M::Src0Sel, d(6)));
            if fam != Family::Vop1 {
                self.put(Field::Src1Sel, m.get(M::Src1Sel, d(6)));
            }
            if self.clrx && fam == Family::Vopc && !layout::has(self.i.enc, self.gen, Field::DstSel)
            {
                // clrxasm takes dst_sel/dst_unused on VOPC SDWA (GCN 1.2) and
                // writes them into the unused bits; it writes DWORD when
                // dst_sel is absent, risa 0 as llvm-mc does
                // (docs/clrx-differences.md).
                // GCN 1.4 has SDST there: DST_SEL in its bits 0-2,
                // DST_UNUSED in 3-4.
                let sel = m.get(M::DstSel, 0) & 7 | (m.get(M::DstUnused, 0) & 3) << 3;
                let sdst = self.i.field(Field::SdwaSdst) | sel;
                self.put(Field::SdwaSdst, sdst);
            }
        } else if dpp {
            self.check_mods(&m, mods::DPP)?;
            if !m.has(M::DppCtrl) && !self.clrx {
                return self.err(
                    self.st.name,
                    "DPP needs a control (quad_perm, row_shl, ...)",
                );
            }
            // CLRX's default control is the identity quad_perm:[0,1,2,3].
            self.put(Field::DppCtrl, m.get(M::DppCtrl, 0xe4));
            let rm = m.get(M::RowMask, 15);
            self.field(Field::RowMask, rm, m.at(M::RowMask), "row_mask")?;
            let bm = m.get(M::BankMask, 15);
            self.field(Field::BankMask, bm, m.at(M::BankMask), "bank_mask")?;
            self.put(Field::BoundCtrl, m.flag(M::BoundCtrl));
        } else {
            self.check_mods(&m, 0)?;
        }
        Some(())
    }

    /// Notes a source operand code that may use the constant bus.
    // (Always inline: once per source; the call cost about what it does.)
    #[inline(always)]
    pub(super) fn note_read(&mut self, code: u32) {
        if (code < 128 || code == 255)
            && !self.reads[..self.n_reads].contains(&code)
            && self.n_reads < 4
        {
            self.reads[self.n_reads] = code;
            self.n_reads += 1;
        }
    }

    /// Notes a scalar source only CLRX's constant-bus rule counts (the
    /// SGPR operands of v_readlane/v_writelane).
    #[inline]
    pub(super) fn note_clrx_read(&mut self, code: u32) {
        if self.clrx
            && code < 128
            && !self.xreads[..self.n_xreads].contains(&code)
            && self.n_xreads < 4
        {
            self.xreads[self.n_xreads] = code;
            self.n_xreads += 1;
        }
    }

    /// GCN 1.0-1.4 vector instructions read at most one scalar value (an
    /// SGPR, which may be read by several operands, or the literal) over the
    /// constant bus; the implicit VCC carry-in of the 32-bit forms counts too.
    ///
    /// CLRX syntax applies clrxasm's rule: at most one of s0..s101 and VCC
    /// (M0, EXEC and TTMPs not counted, v_readlane/v_writelane's SGPRs
    /// counted), and no literal with such an SGPR or M0 (the v_madak/madmk
    /// constant not counted); what it accepts beyond the hardware rule is
    /// accepted with a warning.
    pub(super) fn constant_bus(&mut self, madk: bool) -> Option<()> {
        if self.clrx {
            let n_sgpr = risa_gcn::operand::sgpr_count(self.gen);
            let mut sg = [0u32; 8];
            let mut n = 0;
            let mut lit = false;
            let mut m0 = false;
            // (Read in place: no list is made for each instruction.)
            let all = self.reads[..self.n_reads]
                .iter()
                .chain(&self.xreads[..self.n_xreads]);
            for &code in all {
                let c = match code {
                    255 => {
                        lit |= !madk;
                        continue;
                    }
                    124 => {
                        m0 = true;
                        continue;
                    }
                    106 | 107 => 106,
                    c if c < n_sgpr => c,
                    _ => continue,
                };
                if !sg[..n].contains(&c) && n < sg.len() {
                    sg[n] = c;
                    n += 1;
                }
            }
            if n > 1 {
                return self.err(
                    self.st.args,
                    "more than one SGPR read (clrxasm's constant-bus rule)",
                );
            }
            let sgpr = sg[..n].iter().any(|&c| c != 106);
            if lit && (sgpr || m0) {
                return self.err(
                    self.st.args,
                    "a literal with an SGPR or M0 (clrxasm's constant-bus rule)",
                );
            }
            if self.n_reads > 1 {
                self.asm.warning(
                    self.st.args,
                    "more than one scalar value read over the constant bus (clrxasm accepts it)",
                );
            }
            return Some(());
        }
        // LLVM syntax: an error, as llvm-mc has (a disassembly of such
        // words prints them as data in this dialect).
        if self.n_reads > 1 {
            return self.err(
                self.st.args,
                "too many scalar values: a vector instruction reads at most one SGPR or literal (the constant bus)",
            );
        }
        Some(())
    }

    /// Whether an unsuffixed VOP1/VOP2/VOPC statement needs the VOP3 encoding.
    pub(super) fn needs_vop3(
        &self,
        m: &Mods<'_>,
        dst_c: Option<&Opd<'_>>,
        ops: &[Option<Opd<'_>>],
    ) -> bool {
        if m.seen & VOP3_MODS != 0 {
            return true;
        }
        if dst_c.is_some_and(|d| !d.is_vcc()) {
            return true;
        }
        for (k, op) in self.info.sig.iter().enumerate() {
            let Some(o) = &ops[k] else { continue };
            if o.neg || o.abs {
                return true;
            }
            match op.role {
                Role::SD | Role::SC if !o.is_vcc() => return true,
                Role::B if !op.sgpr && o.vgpr().is_none() => return true,
                Role::C => return true,
                _ => {}
            }
        }
        false
    }

    /// An SDWA source with its `sext`/neg/abs modifiers.
    pub(super) fn sdwa_src(&mut self, o: &Opd<'_>, op: &Opnd, n: usize) -> Option<()> {
        let (f, fs, fneg, fabs, fsext) = if n == 0 {
            (
                Field::Src0,
                Field::S0,
                Field::Src0Neg,
                Field::Src0Abs,
                Field::Src0Sext,
            )
        } else {
            (
                Field::Vsrc1,
                Field::S1,
                Field::Src1Neg,
                Field::Src1Abs,
                Field::Src1Sext,
            )
        };
        let count = op.ty.dwords();
        let code = match o.vgpr() {
            Some((v, have)) => {
                self.check_count(o, have, count)?;
                self.put(fs, 0);
                v
            }
            None => {
                if !layout::has(self.i.enc, self.gen, fs) {
                    return self.err(
                        o.at,
                        "SDWA sources must be vector registers on this generation",
                    );
                }
                let code = self.src(o, op.ty, count, false)?;
                self.put(fs, 1);
                self.note_read(code);
                if self.clrx && (o.abs || o.neg) && !matches!(o.v, Val::Reg { .. }) {
                    self.asm.warning(
                        o.at,
                        "abs/neg of a constant (clrxasm rejects it; the hardware applies it)",
                    );
                }
                code
            }
        };
        self.put(f, code);
        self.put(fneg, u32::from(o.neg));
        self.put(fabs, u32::from(o.abs));
        self.put(fsext, u32::from(o.sext));
        Some(())
    }

    /// `attrN.c`: (attribute, channel, text).
    pub(super) fn attr(&mut self) -> Option<(u32, u32, &'a str)> {
        let at = self.c.rest();
        // `attrN.C`, with spaces around the dot in CLRX (`attr26 . w`).
        let start = self.c.pos();
        let mut end = start;
        let b = self.c.text().as_bytes();
        let mut l = String::new();
        while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
            l.push(b[end].to_ascii_lowercase() as char);
            end += 1;
        }
        let mut k = end;
        while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
            k += 1;
        }
        if k < b.len() && b[k] == b'.' {
            k += 1;
            while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
                k += 1;
            }
            l.push('.');
            while k < b.len() && b[k].is_ascii_alphanumeric() {
                l.push(b[k].to_ascii_lowercase() as char);
                k += 1;
            }
            end = k;
        }
        self.c.set_pos(end);
        let w = self.c.slice(start, end);
        if let Some(r) = l.strip_prefix("attr") {
            if let Some((n, ch)) = r.split_once('.') {
                let chan = ["x", "y", "z", "w"].iter().position(|c| *c == ch);
                if let (Ok(n), Some(ch)) = (n.parse::<u32>(), chan) {
                    if n < 64 {
                        return Some((n, ch as u32, w));
                    }
                }
            }
        }
        self.err(at, "expected an attribute attrN.x/y/z/w (N 0..63)")?;
        None
    }

    /// `p10`, `p20`, `p0`.
    pub(super) fn param(&mut self) -> Option<u32> {
        let at = self.c.rest();
        let w = self.c.ident().unwrap_or("");
        match w.to_ascii_lowercase().as_str() {
            "p10" => Some(0),
            "p20" => Some(1),
            "p0" => Some(2),
            _ => {
                self.err(at, "expected p10, p20 or p0")?;
                None
            }
        }
    }

    pub(super) fn vintrp(&mut self) -> Option<()> {
        // Source modifiers, clamp or an output modifier select the VOP3 form
        // (GCN 1.2+), which CLRX writes without a suffix.
        if self.info.vop3_opcode(self.gen).is_some() && self.wants_vop3_interp() {
            return self.vop(Want::E64);
        }
        self.begin(Enc::Vintrp)?;
        for op in self.info.sig {
            match op.role {
                Role::D => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    let v = self.vgpr(o, 1)?;
                    self.put(Field::Vdst, v);
                }
                Role::A => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    let v = self.vgpr(o, 1)?;
                    self.put(Field::Src0, v);
                }
                Role::P => {
                    self.sep()?;
                    let p = self.param()?;
                    self.put(Field::Src0, p);
                }
                Role::T => {
                    self.sep()?;
                    let (a, ch, _) = self.attr()?;
                    self.put(Field::Attr, a);
                    self.put(Field::AttrChan, ch);
                }
                _ => {}
            }
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        // (`vop3:0`, `clamp:0`: absent where a VOP3 form exists, as clrxasm
        // takes them; GCN 1.0/1.1 interpolation has none. neg:/abs: of the
        // attribute alone (bit 0) do not select VOP3 and are dropped.)
        if self.info.vop3_opcode(self.gen).is_some() {
            m.given &= m.seen | !VOP3_MODS;
            if self.clrx {
                let na = bit(M::Neg) | bit(M::Abs);
                m.given &= !na;
                m.seen &= !na;
            }
        }
        self.check_mods(&m, 0)
    }

    /// Looks ahead (without diagnostics) for VOP3-only syntax in an interpolation statement.
    pub(super) fn wants_vop3_interp(&self) -> bool {
        let args = self.st.args;
        let b = args.as_bytes();
        if b.contains(&b'|') || args.contains("neg(") || args.contains("abs(") {
            return true;
        }
        // `-vN` (a negated operand) or a modifier after the last operand.
        if risa_asm_core::lex::split_operands(args).any(|o| o.starts_with('-')) {
            return true;
        }
        let last = risa_asm_core::lex::split_operands(args)
            .last()
            .unwrap_or("");
        last.split_whitespace().skip(1).any(|w| {
            let w = w.to_ascii_lowercase();
            // neg:/abs: select VOP3 when they modify the VGPR (bit 1).
            if let Some(v) = w.strip_prefix("neg:").or_else(|| w.strip_prefix("abs:")) {
                return match v.strip_prefix('[') {
                    Some(l) => l
                        .split(',')
                        .nth(1)
                        .is_some_and(|e| e.trim_end_matches(']').trim() != "0"),
                    None => {
                        let n = if let Some(h) = v.strip_prefix("0x") {
                            u64::from_str_radix(h, 16).ok()
                        } else {
                            v.parse::<u64>().ok()
                        };
                        n.is_none_or(|n| n & 2 != 0)
                    }
                };
            }
            // (`vop3:0`, `clamp:0`: given as absent.)
            ["clamp", "mul:", "div:", "vop3", "omod:", "abs:"]
                .iter()
                .any(|m| w.starts_with(m))
                && !w.ends_with(":0")
        })
    }

    pub(super) fn vop3p(&mut self) -> Option<()> {
        self.begin(Enc::Vop3p)?;
        let info = self.info;
        let mix = info.has(flag::MIX);
        let (mut neg, mut neg_hi) = (0, 0);
        let mut n = 0u32;
        for op in info.sig {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            let f = match op.role {
                Role::D => {
                    let v = self.vgpr(o, op.ty.dwords())?;
                    self.put(Field::Vdst, v);
                    continue;
                }
                Role::A => Field::Src0,
                Role::B => Field::Src1,
                _ => Field::Src2,
            };
            if mix {
                neg |= u32::from(o.neg) << n;
                neg_hi |= u32::from(o.abs) << n;
                if o.sext {
                    return self.err(o.at, "sext() is not valid here");
                }
            } else {
                self.no_operand_mods(o)?;
            }
            let code = self.src(o, op.ty, op.ty.dwords(), false)?;
            self.put(f, code);
            self.note_read(code);
            n += 1;
        }
        self.constant_bus(false)?;
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let mut allowed = bit(M::OpSel) | bit(M::OpSelHi) | bit(M::Clamp);
        if !mix || self.clrx {
            allowed |= bit(M::NegLo) | bit(M::NegHi);
        }
        self.check_mods(&m, allowed)?;
        let all = (1u32 << n) - 1;
        let list = |k: M, default: u32| -> Result<u32, &'a str> {
            if !m.has(k) {
                return Ok(default);
            }
            let v = m.get(k, 0);
            if v >> 8 == 0xff {
                return Ok(v & 0xff);
            }
            if v >> 8 != n {
                return Err(m.at(k));
            }
            Ok(v & 0xff)
        };
        let mut get = |k: M, default: u32| match list(k, default) {
            Ok(v) => Some(v),
            Err(at) => {
                self.asm.error(at, format!("expected {n} list elements"));
                None
            }
        };
        let opsel = get(M::OpSel, 0)?;
        // Unused op_sel_hi bits keep their default (1 for packed math), as LLVM encodes them;
        // clrxasm clears those a written list leaves out.
        // v_mad_mix*: op_sel_hi defaults to 0 in LLVM syntax, to [1,1,1] in CLRX's.
        let mix_hi = if self.clrx { 7 } else { 0 };
        let unused = if mix || (self.clrx && m.has(M::OpSelHi)) {
            0
        } else {
            7 & !all
        };
        let hi = get(M::OpSelHi, if mix { mix_hi } else { all })? | unused;
        if !mix {
            neg = get(M::NegLo, 0)?;
            neg_hi = get(M::NegHi, 0)?;
        } else {
            // CLRX: neg_lo/neg_hi set the NEG/NEG_HI fields of v_mad_mix* too.
            neg |= get(M::NegLo, 0)?;
            neg_hi |= get(M::NegHi, 0)?;
        }
        self.put(Field::OpSel, opsel);
        self.put(Field::OpSelHi, hi & 3);
        self.put(Field::OpSelHi2, hi >> 2 & 1);
        self.put(Field::Neg, neg);
        self.put(Field::NegHi, neg_hi);
        self.put(Field::Clamp, m.flag(M::Clamp));
        Some(())
    }
}
