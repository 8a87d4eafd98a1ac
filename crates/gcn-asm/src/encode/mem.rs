//! Memory and export encodings: DS, MUBUF/MTBUF, MIMG, EXP, FLAT/GLOBAL/SCRATCH.

use super::Build;
use crate::mods::{bit, Mods, M};
use crate::opnd::{count_operands_upto, Opd, Val};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::table::{flag, Family, Role, Ty};
use risa_gcn::Feature;

impl<'a> Build<'a, '_, '_> {
    // ---------------------------------------------------------------- memory

    pub(super) fn ds(&mut self) -> Option<()> {
        self.begin(Enc::Ds)?;
        let info = self.info;
        if self.clrx && info.sig.is_empty() && self.c.rest().trim_start().starts_with(['v', 'V']) {
            // clrxasm takes an address register for ds_nop (ADDR field).
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            let v = self.vgpr(o, 1)?;
            self.put(Field::Addr, v);
        } else if self.clrx && info.sig.is_empty() {
            self.asm.warning(
                self.st.name,
                "no address register (clrxasm rejects this: it wants one for ds_nop)",
            );
        }
        for op in info.sig {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            let f = match op.role {
                Role::D => Field::Vdst,
                Role::A => Field::Addr,
                Role::B => Field::Data0,
                _ => Field::Data1,
            };
            let v = self.vgpr(o, op.ty.dwords())?;
            self.put(f, v);
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let off2 = info.has(flag::OFF2);
        let allowed = bit(M::Gds)
            | if off2 {
                bit(M::Offset0) | bit(M::Offset1)
            } else {
                bit(M::Offset)
            };
        self.check_mods(&m, allowed)?;
        self.no_inst_offset(&m)?;
        if off2 {
            self.mfield(&m, Field::Offset0, M::Offset0, "offset0")?;
            self.mfield(&m, Field::Offset1, M::Offset1, "offset1")?;
        } else {
            self.mfield(&m, Field::Offset, M::Offset, "offset")?;
        }
        self.put(Field::Gds, m.flag(M::Gds));
        Some(())
    }

    pub(super) fn buf(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        let info = self.info;
        let data = info.operand(Role::V);
        let mut vaddr: Option<Opd<'a>> = None;
        let mut vdata: Option<(Opd<'a>, u32)> = None;
        if !info.has(flag::NOARGS) {
            if let Some(op) = data {
                let mut slot = None;
                self.operand_into(&mut slot)?;
                let Some(o) = &slot else { return None };
                vdata = Some((o.clone(), op.ty.data_dwords(self.gen)));
            }
            // CLRX leaves VADDR out when no address mode uses it (three
            // operands with data); LLVM writes `off` there.
            let addressed = if data.is_some() { 4 } else { 3 };
            if count_operands_upto(self.st.args, addressed) == addressed {
                vaddr = Some(self.operand()?);
            }
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            let code = self.sreg(o, 4)?;
            let b = self.block(
                o,
                code,
                4,
                "the resource must be an aligned quad s[4n:4n+3]",
            )?;
            self.put(Field::Srsrc, b);
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            self.no_operand_mods(o)?;
            let code = self.src(o, Ty::B32, 1, false)?;
            if self.clrx && code == 254 {
                return self.err(o.at, "LDS_DIRECT is not allowed as soffset");
            }
            if code > 255 {
                return self.err(
                    o.at,
                    "soffset must be a scalar register or an inline constant",
                );
            }
            self.put(Field::Soffset, code);
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let mut allowed = bit(M::Idxen)
            | bit(M::Offen)
            | bit(M::Addr64)
            | bit(M::Offset)
            | bit(M::Glc)
            | bit(M::Slc)
            | bit(M::Lds)
            | bit(M::Tfe);
        if enc == Enc::Mtbuf {
            allowed |= bit(M::Format);
        }
        self.check_mods(&m, allowed)?;
        self.no_inst_offset(&m)?;
        if self.clrx {
            if m.flag(M::Addr64) != 0 && (m.flag(M::Offen) | m.flag(M::Idxen)) != 0 {
                self.asm.warning(
                    m.at(M::Addr64),
                    "addr64 with offen or idxen (clrxasm rejects this combination)",
                );
            }
            if m.flag(M::Lds) != 0 && m.flag(M::Tfe) != 0 {
                self.asm.warning(
                    m.at(M::Tfe),
                    "lds with tfe (clrxasm rejects this combination)",
                );
            }
        }
        let (idxen, offen, addr64) = (m.flag(M::Idxen), m.flag(M::Offen), m.flag(M::Addr64));
        self.mfield(&m, Field::Offset, M::Offset, "offset")?;
        for (f, k, name) in [
            (Field::Idxen, M::Idxen, "idxen"),
            (Field::Offen, M::Offen, "offen"),
            (Field::Addr64, M::Addr64, "addr64"),
            (Field::Glc, M::Glc, "glc"),
            (Field::Slc, M::Slc, "slc"),
            (Field::Lds, M::Lds, "lds"),
            (Field::Tfe, M::Tfe, "tfe"),
        ] {
            self.field(f, m.flag(k), m.at(k), name)?;
        }
        if let Some((o, n)) = vdata {
            // CLRX counts the TFE status register in VDATA (LLVM does not);
            // in CLRX syntax risa also takes LLVM's count, with a warning.
            let mut want = n;
            if self.clrx && m.flag(M::Tfe) != 0 {
                if o.vgpr().is_some_and(|(_, have)| have == n) {
                    self.asm.warning(
                        o.at,
                        "with tfe, CLRX counts the status register in the data (clrxasm rejects this count)",
                    );
                } else {
                    want = n + 1;
                }
            }
            let v = self.vgpr(&o, want)?;
            self.put(Field::Vdata, v);
        }
        if enc == Enc::Mtbuf {
            let fm = m.get(M::Format, 1);
            self.put(Field::Dfmt, fm & 15);
            self.put(Field::Nfmt, fm >> 4);
        }
        if let Some(o) = vaddr {
            let want = match idxen + offen + addr64 {
                0 => 0,
                1 if addr64 == 0 => 1,
                _ => 2,
            };
            match (&o.v, want) {
                (Val::Off, 0) => {}
                // An address register no mode reads is kept as written.
                (_, 0) => {
                    let v = self.vgpr(&o, 1)?;
                    self.put(Field::Vaddr, v);
                }
                _ => {
                    let v = self.vgpr(&o, want)?;
                    self.put(Field::Vaddr, v);
                }
            }
        }
        Some(())
    }

    pub(super) fn mimg(&mut self) -> Option<()> {
        self.begin(Enc::Mimg)?;
        let info = self.info;
        let mut vdata: Option<Opd<'a>> = None;
        if info.operand(Role::V).is_some() {
            vdata = Some(self.operand()?);
        }
        let mut slot = None;
        self.operand_into(&mut slot)?;
        let Some(o) = &slot else { return None };
        let v = self.vgpr(o, 0)?;
        self.put(Field::Vaddr, v);
        let rsrc = self.operand()?;
        let mut samp = None;
        if info.has(flag::SAMPLER) {
            samp = Some(self.operand()?);
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let allowed = bit(M::Dmask)
            | bit(M::Unorm)
            | bit(M::Glc)
            | bit(M::Slc)
            | bit(M::R128)
            | bit(M::Tfe)
            | bit(M::Lwe)
            | bit(M::Da)
            | bit(M::D16);
        self.check_mods(&m, allowed)?;
        // CLRX's DMASK is 1 unless given; it rejects dmask:0 and stores or
        // atomics without unorm (risa warns: the hardware takes both).
        let dmask = if self.clrx && !m.has(M::Dmask) {
            1
        } else {
            m.flag(M::Dmask)
        };
        if self.clrx && m.has(M::Dmask) && dmask == 0 {
            self.asm
                .warning(m.at(M::Dmask), "dmask:0 (clrxasm rejects a zero dmask)");
        }
        if self.clrx && (info.has(flag::STORE) || info.has(flag::ATOMIC)) && m.flag(M::Unorm) == 0 {
            self.asm.warning(
                self.st.name,
                "a store or atomic without unorm (clrxasm rejects it)",
            );
        }
        self.field(Field::Dmask, dmask, m.at(M::Dmask), "dmask")?;
        for (f, k, name) in [
            (Field::Unorm, M::Unorm, "unorm"),
            (Field::Glc, M::Glc, "glc"),
            (Field::Slc, M::Slc, "slc"),
            (Field::R128, M::R128, "r128"),
            (Field::Tfe, M::Tfe, "tfe"),
            (Field::Lwe, M::Lwe, "lwe"),
            (Field::Da, M::Da, "da"),
            (Field::D16, M::D16, "d16"),
        ] {
            self.field(f, m.flag(k), m.at(k), name)?;
        }
        let r128 = m.flag(M::R128) != 0 && !self.gen.has(Feature::R128A16);
        let code = self.sreg(&rsrc, if r128 { 4 } else { 8 })?;
        let b = self.block(&rsrc, code, 4, "the resource must start at a multiple of 4")?;
        self.put(Field::Srsrc, b);
        if let Some(s) = samp {
            let code = self.sreg(&s, 4)?;
            let b = self.block(&s, code, 4, "the sampler must be an aligned quad")?;
            self.put(Field::Ssamp, b);
        }
        if let (Some(o), Some(op)) = (vdata, info.operand(Role::V)) {
            let gather4 = info.has(flag::GATHER4);
            let mut n = if gather4 {
                4
            } else {
                dmask.count_ones().max(1)
            };
            // (CLRX: gather4 returns four registers, also with d16.)
            if m.flag(M::D16) != 0
                && !self.gen.has(Feature::UnpackedD16Vmem)
                && !(self.clrx && gather4)
            {
                n = n.div_ceil(2);
            }
            // Atomics: DMASK counts the data dwords (2 for a 64-bit value or a
            // 32-bit cmpswap pair); without one, the row's data type decides.
            if info.has(flag::ATOMIC) && dmask == 0 {
                n = op.ty.dwords();
            }
            // CLRX counts no TFE register for gather4.
            let tfe = if self.clrx && gather4 {
                0
            } else {
                m.flag(M::Tfe)
            };
            let v = self.vgpr(&o, n + tfe)?;
            self.put(Field::Vdata, v);
        }
        Some(())
    }

    pub(super) fn exp(&mut self) -> Option<()> {
        self.begin(Enc::Exp)?;
        self.sep()?;
        let at = self.c.rest();
        let w = self.c.ident().unwrap_or("");
        let l = w.to_ascii_lowercase();
        let num = |p: &str| l.strip_prefix(p).and_then(|n| n.parse::<u32>().ok());
        let tgt = match l.as_str() {
            "mrtz" => Some(8),
            "null" => Some(9),
            _ => num("mrt")
                .filter(|&n| n < 8)
                .or_else(|| num("pos").filter(|&n| n < 4).map(|n| n + 12))
                .or_else(|| num("param").filter(|&n| n < 32).map(|n| n + 32))
                .or_else(|| num("invalid_target_").filter(|&n| n < 64)),
        };
        let Some(tgt) = tgt else {
            return self.err(
                at,
                "expected an export target (mrt0..7, mrtz, null, pos0..3, param0..31)",
            );
        };
        self.put(Field::Tgt, tgt);
        if !self.clrx {
            // llvm-mc writes no comma after the target and accepts one;
            // clrxasm requires it.
            self.c.eat(b',');
            self.first = true;
        }
        let mut regs = [None; 4];
        let mut texts = [""; 4];
        for k in 0..4 {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            texts[k] = o.at;
            regs[k] = match o.v {
                Val::Off => None,
                _ => Some(self.vgpr(o, 1)?),
            };
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        self.check_mods(&m, bit(M::Done) | bit(M::Compr) | bit(M::Vm))?;
        let compr = m.flag(M::Compr) != 0;
        // LLVM writes each packed register of a compressed export twice.
        let llvm_pairs = compr
            && regs[0] == regs[1]
            && regs[2] == regs[3]
            && (regs[0].is_some() || regs[2].is_some());
        // CLRX: with compr, operands 0/1 name VSRC0 and 2/3 VSRC1 (a pair
        // given twice must be the same register; `off` leaves its EN bit 0).
        let differ =
            |a: Option<u32>, b: Option<u32>| matches!((a, b), (Some(x), Some(y)) if x != y);
        let clrx_pairs =
            compr && self.clrx && !differ(regs[0], regs[1]) && !differ(regs[2], regs[3]);
        if compr && self.clrx && !clrx_pairs {
            // (risa's raw form: each operand its own field.)
            self.asm.warning(
                texts[1],
                "compr with different registers in a pair: each is written to its own field (clrxasm rejects this)",
            );
        }
        let llvm_pairs = llvm_pairs || clrx_pairs;
        let fields = [Field::Vsrc0, Field::Vsrc1e, Field::Vsrc2, Field::Vsrc3];
        let mut en = 0;
        for k in 0..4 {
            if let Some(r) = regs[k] {
                en |= 1 << k;
                let f = if llvm_pairs { fields[k / 2] } else { fields[k] };
                self.put(f, r);
            }
        }
        self.put(Field::En, en);
        self.put(Field::Done, m.flag(M::Done));
        self.put(Field::Compr, m.flag(M::Compr));
        self.put(Field::Vm, m.flag(M::Vm));
        Some(())
    }

    pub(super) fn flat(&mut self) -> Option<()> {
        self.begin(Enc::Flat)?;
        let info = self.info;
        let segs = self.gen.has(Feature::FlatGlobalInsts);
        let seg = info.family.flat_seg();
        if layout::has(Enc::Flat, self.gen, Field::Seg) {
            self.put(Field::Seg, seg);
        }
        let has_saddr_op = segs && info.family != Family::Flat;
        let n_sig = info.sig.len() + usize::from(has_saddr_op);
        let has_d = info.operand(Role::D).is_some();
        // An atomic without glc returns nothing and is written without its destination.
        let d_given =
            has_d && (!info.has(flag::ATOMIC) || count_operands_upto(self.st.args, n_sig) == n_sig);
        let mut dst: Option<(Opd<'a>, u32)> = None;
        let mut addr: Option<Opd<'a>> = None;
        for op in info.sig {
            match op.role {
                Role::D if d_given => dst = Some((self.operand()?, op.ty.dwords())),
                Role::D => {}
                Role::A => addr = Some(self.operand()?),
                Role::V => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    let v = self.vgpr(o, op.ty.data_dwords(self.gen))?;
                    self.put(Field::Data0, v);
                }
                _ => {}
            }
        }
        let mut saddr = None;
        if has_saddr_op {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            saddr = match o.v {
                Val::Off => None,
                _ => {
                    let n = if info.family == Family::Global { 2 } else { 1 };
                    let code = self.sreg(o, n)?;
                    self.clrx_align(o)?;
                    Some(code)
                }
            };
            self.put(Field::Saddr, saddr.unwrap_or(0x7f));
        }
        if let Some(a) = addr {
            let (n, off_ok) = match info.family {
                Family::Scratch if saddr.is_some() => (0, true),
                Family::Scratch => (1, false),
                Family::Global if saddr.is_some() => (1, false),
                _ => (2, false),
            };
            match a.v {
                Val::Off if off_ok => {}
                // clrxasm takes `off, off` for SCRATCH (no address at all).
                Val::Off if self.clrx && info.family == Family::Scratch => {}
                _ if n == 0 => {
                    return self.err(a.at, "with an SGPR address the VGPR address must be 'off'")
                }
                _ => {
                    let v = self.vgpr(&a, n)?;
                    self.put(Field::Addr, v);
                }
            }
        }
        if self.clrx && self.c.rest().bytes().any(|b| b.is_ascii_uppercase()) {
            self.asm.warning(
                self.c.rest().trim(),
                "upper-case FLAT modifiers (clrxasm rejects them)",
            );
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let mut allowed = bit(M::Glc) | bit(M::Slc) | bit(M::Tfe) | bit(M::Nv) | bit(M::Lds);
        if layout::has(Enc::Flat, self.gen, Field::Offset) {
            allowed |= bit(M::Offset);
        }
        self.check_mods(&m, allowed)?;
        if self.clrx && info.family == Family::Flat && m.flag(M::Lds) != 0 {
            self.asm.warning(
                m.at(M::Lds),
                "lds on a FLAT instruction (clrxasm rejects it: only GLOBAL and SCRATCH)",
            );
        }
        if info.has(flag::ATOMIC) && d_given && m.flag(M::Glc) == 0 && !self.clrx {
            let at = dst.as_ref().map_or(self.st.args, |d| d.0.at);
            self.asm
                .warning(at, "an atomic returns a value only with glc");
        }
        for (f, k, name) in [
            (Field::Glc, M::Glc, "glc"),
            (Field::Slc, M::Slc, "slc"),
            (Field::Tfe, M::Tfe, "tfe"),
            (Field::Nv, M::Nv, "nv"),
            (Field::Lds, M::Lds, "lds"),
        ] {
            self.field(f, m.flag(k), m.at(k), name)?;
        }
        if let Some((_, e)) = &m.pending {
            let signed = info.family != Family::Flat && segs;
            self.field_later(Field::Offset, e.clone(), m.at(M::Offset), signed)?;
        } else if m.has(M::Offset) {
            let at = m.at(M::Offset);
            let mut off = m.offset_i;
            if self.clrx {
                // clrxasm keeps the bits that fit, with a warning.
                let t = if info.family == Family::Flat || !segs {
                    off & 0xfff
                } else {
                    (off & 0x1fff) << 51 >> 51
                };
                if t != off {
                    self.asm
                        .warning(at, format!("offset {off:#x} truncated to fit its field"));
                    off = t;
                }
            }
            let v = if info.family == Family::Flat {
                if !(0..4096).contains(&off) {
                    return self.err(at, "FLAT offset must be 0..4095");
                }
                off as u32
            } else {
                if !(-4096..4096).contains(&off) {
                    return self.err(at, "offset must be -4096..4095");
                }
                (off as u32) & 0x1fff
            };
            self.put(Field::Offset, v);
        }
        if let Some((o, n)) = dst {
            let v = self.vgpr(&o, n + m.flag(M::Tfe))?;
            self.put(Field::Vdst, v);
        }
        Some(())
    }
}
