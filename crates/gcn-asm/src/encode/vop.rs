//! Vector ALU encodings: VOP1/VOP2/VOPC and their VOP3, SDWA and DPP forms,
//! VOP3-only and VOP3P instructions, VINTRP; the constant bus rule.

use super::{Build, Want, VOP3_MODS};
use crate::mods::{self, bit, Mods, M};
use crate::opnd::{Opd, Val};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::table::{flag, Family, Opnd, Role, Ty};
use risa_gcn::Gen;

impl<'a> Build<'a, '_, '_> {
    // ---------------------------------------------------------------- vector ALU

    pub(super) fn vop(&mut self, want: Want) -> Option<()> {
        let info = self.info;
        let fam = info.family;
        let gfx9 = self.gen == Gen::Gcn14;
        // 1. operands, in signature order (VOPC: the destination first).
        let mut dst_c: Option<Opd<'a>> = None;
        if fam == Family::Vopc {
            dst_c = Some(self.operand()?);
        }
        let mut ops: [Option<Opd<'a>>; 6] = Default::default();
        let mut attr = (0u32, 0u32, ""); // VOP3 interpolation: attribute, channel
        let mut param = None;
        for (k, op) in info.sig.iter().enumerate() {
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
                } else if m.seen & mods::SDWA != 0 && short.is_some() {
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
        if (sdwa && info.has(flag::NOSDWA)) || (dpp && info.has(flag::NODPP)) {
            return self.err(self.st.name, "this instruction has no SDWA/DPP form");
        }
        if (sdwa || dpp) && !self.gen.is_gfx8_plus() {
            return self.err(self.st.name, "SDWA and DPP exist only on gcn1.2, gcn1.4");
        }
        self.begin(enc)?;
        // 3. the fields.
        let long_enc = matches!(enc, Enc::Vop3 | Enc::Vop3b);
        let interp3 =
            fam == Family::Vintrp || (fam == Family::Vop3 && info.operand(Role::T).is_some());
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
        let (mut neg, mut abs) = (0u32, 0u32);
        let mut nsrc = 0;
        let mut vdst = 0;
        for (k, op) in info.sig.iter().enumerate() {
            if op.role == Role::T {
                if long_enc {
                    self.put(Field::Src0, attr.0 | attr.1 << 6);
                } else {
                    return self.err(attr.2, "interpolation operands need the VOP3 encoding");
                }
                continue;
            }
            if op.role == Role::P {
                self.put(Field::Src1, param.unwrap_or(0));
                continue;
            }
            let Some(o) = ops[k].take() else { continue };
            match op.role {
                Role::D => {
                    let code = if op.sgpr {
                        self.sreg(&o, op.ty.dwords())?
                    } else {
                        self.vgpr(&o, op.ty.dwords())?
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
                    let code = self.sreg(&o, 2)?;
                    self.put(Field::Sdst3, code);
                }
                Role::L => {
                    let code = self.src(&o, op.ty, 1, true)?;
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
                    let count = if op.role == Role::SC {
                        2
                    } else {
                        op.ty.dwords()
                    };
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
                        let code = self.src(&o, ty, count, false)?;
                        self.put(f, code);
                        if !op.sgpr {
                            self.note_read(code);
                        }
                        neg |= u32::from(o.neg) << bitn;
                        abs |= u32::from(o.abs) << bitn;
                        if o.sext {
                            return self.err(o.at, "sext() needs the SDWA encoding");
                        }
                        nsrc += 1;
                    } else if sdwa {
                        self.sdwa_src(&o, op, n)?;
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
                        self.no_operand_mods(&o)?;
                        if n == 0 {
                            if op.vgpr && o.vgpr().is_none() {
                                // SRC0 takes any source: encodable, so a warning.
                                self.asm.warning(o.at, "expected a vector register");
                            }
                            let code = self.src(&o, ty, count, true)?;
                            self.put(Field::Src0, code);
                            self.note_read(code);
                        } else if op.sgpr {
                            // An SGPR in the 8-bit VSRC1 field; the field can
                            // also hold an inline constant's code (CLRX prints
                            // `v_readlane_b32 s39, v12, 18`): a warning.
                            let code = match o.v {
                                Val::Reg { code, .. } if code < 128 => self.sreg(&o, count)?,
                                _ => {
                                    let code = self.src(&o, ty, count, false)?;
                                    if !(128..255).contains(&code) {
                                        return self.err(o.at, "expected a scalar register");
                                    }
                                    self.asm.warning(o.at, "expected a scalar register");
                                    code
                                }
                            };
                            self.put(Field::Vsrc1, code);
                        } else {
                            let code = self.vgpr(&o, count)?;
                            self.put(Field::Vsrc1, code);
                        }
                    }
                }
            }
        }
        // The tied SRC2 of v_mac (= VDST) is left 0 in the VOP3 form, as LLVM encodes it.
        let _ = vdst;
        if !long_enc && info.operand(Role::SC).is_some() {
            self.note_read(106);
        }
        if info.operand(Role::L).is_some() {
            self.note_read(255);
        }
        self.constant_bus()?;
        // 4. modifiers.
        if long_enc {
            let mut allowed = VOP3_MODS;
            if !gfx9 {
                allowed &= !bit(M::OpSel);
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
                if n != nsrc + 1 {
                    return self.err(at, format!("op_sel takes {} elements", nsrc + 1));
                }
                let sel = (bits & ((1 << nsrc) - 1)) | (bits >> nsrc & 1) << 3;
                self.field(Field::OpSel, sel, at, "op_sel")?;
            }
        } else if sdwa {
            let mut allowed = mods::SDWA | bit(M::Clamp) | bit(M::Omod);
            if fam == Family::Vopc && (want != Want::Any || self.gen == risa_gcn::Gen::Gcn14) {
                allowed &= !(bit(M::DstSel) | bit(M::DstUnused));
            }
            if fam == Family::Vop1 {
                allowed &= !bit(M::Src1Sel);
            }
            self.check_mods(&m, allowed)?;
            let none = info.sig.is_empty();
            let d = |x: u32| if none { 0 } else { x };
            // CLRX's syntax (no `_sdwa` suffix) defaults to `dst_unused:pad`
            // and writes `dst_sel:dword` in VOPC too; LLVM's to
            // UNUSED_PRESERVE and 0 in VOPC (which has no destination select).
            let clrx = want == Want::Any;
            let (dsel, dunused) = match (clrx, fam == Family::Vopc) {
                (true, _) => (6, 0),
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
        } else if dpp {
            self.check_mods(&m, mods::DPP)?;
            if !m.has(M::DppCtrl) {
                return self.err(
                    self.st.name,
                    "DPP needs a control (quad_perm, row_shl, ...)",
                );
            }
            self.put(Field::DppCtrl, m.get(M::DppCtrl, 0));
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
    #[inline]
    pub(super) fn note_read(&mut self, code: u32) {
        if (code < 128 || code == 255)
            && !self.reads[..self.n_reads].contains(&code)
            && self.n_reads < 4
        {
            self.reads[self.n_reads] = code;
            self.n_reads += 1;
        }
    }

    /// GCN 1.0-1.4 vector instructions read at most one scalar value (an
    /// SGPR, which may be read by several operands, or the literal) over the
    /// constant bus; the implicit VCC carry-in of the 32-bit forms counts too.
    ///
    /// A violation is encodable and occurs in machine code (a disassembly
    /// must assemble back), so it is a warning, where llvm-mc has an error.
    pub(super) fn constant_bus(&mut self) -> Option<()> {
        if self.n_reads > 1 {
            self.asm.warning(
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
                if !layout::has(self.enc, self.gen, fs) {
                    return self.err(
                        o.at,
                        "SDWA sources must be vector registers on this generation",
                    );
                }
                let code = self.src(o, op.ty, count, false)?;
                self.put(fs, 1);
                self.note_read(code);
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
        let w = self.c.ident().unwrap_or("");
        let l = w.to_ascii_lowercase();
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
        self.end_no_mods()
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
            ["clamp", "mul:", "div:", "vop3"]
                .iter()
                .any(|m| w.starts_with(m))
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
            n += 1;
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let mut allowed = bit(M::OpSel) | bit(M::OpSelHi) | bit(M::Clamp);
        if !mix {
            allowed |= bit(M::NegLo) | bit(M::NegHi);
        }
        self.check_mods(&m, allowed)?;
        let all = (1u32 << n) - 1;
        let list = |k: M, default: u32| -> Result<u32, &'a str> {
            if !m.has(k) {
                return Ok(default);
            }
            let v = m.get(k, 0);
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
        // Unused op_sel_hi bits keep their default (1 for packed math), as LLVM encodes them.
        let hi = get(M::OpSelHi, if mix { 0 } else { all })? | if mix { 0 } else { 7 & !all };
        if !mix {
            neg = get(M::NegLo, 0)?;
            neg_hi = get(M::NegHi, 0)?;
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
