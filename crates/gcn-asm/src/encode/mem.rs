//! Memory and export encodings: DS, MUBUF/MTBUF, MIMG, EXP, FLAT/GLOBAL/SCRATCH.

use super::Build;
use crate::mods::{bit, Mods, M};
use crate::opnd::{count_operands, Opd, Val};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::table::{flag, Family, Role, Ty};
use risa_gcn::Gen;

impl<'a> Build<'a, '_, '_> {
    // ---------------------------------------------------------------- memory

    pub(super) fn ds(&mut self) -> Option<()> {
        self.begin(Enc::Ds)?;
        let info = self.info;
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
        if off2 {
            self.field(
                Field::Offset0,
                m.flag(M::Offset0),
                m.at(M::Offset0),
                "offset0",
            )?;
            self.field(
                Field::Offset1,
                m.flag(M::Offset1),
                m.at(M::Offset1),
                "offset1",
            )?;
        } else {
            self.field(Field::Offset, m.flag(M::Offset), m.at(M::Offset), "offset")?;
        }
        self.put(Field::Gds, m.flag(M::Gds));
        Some(())
    }

    pub(super) fn buf(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        let info = self.info;
        let n_ops = count_operands(self.st.args);
        let data = info.operand(Role::V);
        let mut vaddr: Option<Opd<'a>> = None;
        // (data registers written, where, registers the row wants)
        let mut data_count = None;
        if !info.has(flag::NOARGS) {
            if let Some(op) = data {
                let mut slot = None;
                self.operand_into(&mut slot)?;
                let Some(o) = &slot else { return None };
                // The count is checked with the modifiers: CLRX counts the
                // TFE status dword in it (`v[1:2]` for a dword with tfe).
                let v = self.vgpr(o, 0)?;
                let have = o.vgpr().map_or(0, |(_, h)| h);
                data_count = Some((have, o.at, op.ty.data_dwords(self.gen)));
                self.put(Field::Vdata, v);
            }
            // CLRX leaves VADDR out when no address mode uses it (three
            // operands with data); LLVM writes `off` there.
            if n_ops > if data.is_some() { 3 } else { 2 } {
                vaddr = Some(self.operand()?);
            }
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            let code = self.sreg(o, 4)?;
            if code % 4 != 0 {
                return self.err(o.at, "the resource must be an aligned quad s[4n:4n+3]");
            }
            self.put(Field::Srsrc, code / 4);
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            self.no_operand_mods(o)?;
            let code = self.src(o, Ty::B32, 1, false)?;
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
        let (idxen, offen, addr64) = (m.flag(M::Idxen), m.flag(M::Offen), m.flag(M::Addr64));
        for (f, k, name) in [
            (Field::Idxen, M::Idxen, "idxen"),
            (Field::Offen, M::Offen, "offen"),
            (Field::Addr64, M::Addr64, "addr64"),
            (Field::Offset, M::Offset, "offset"),
            (Field::Glc, M::Glc, "glc"),
            (Field::Slc, M::Slc, "slc"),
            (Field::Lds, M::Lds, "lds"),
            (Field::Tfe, M::Tfe, "tfe"),
        ] {
            self.field(f, m.flag(k), m.at(k), name)?;
        }
        if let Some((have, at, want)) = data_count {
            if have != 0 && have != want && have != want + m.flag(M::Tfe) {
                let s = if want == 1 { "" } else { "s" };
                return self.err(at, format!("expected {want} register{s}, got {have}"));
            }
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
        for (f, k, name) in [
            (Field::Dmask, M::Dmask, "dmask"),
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
        let r128 = m.flag(M::R128) != 0 && self.gen != Gen::Gcn14;
        let code = self.sreg(&rsrc, if r128 { 4 } else { 8 })?;
        if code % 4 != 0 {
            return self.err(rsrc.at, "the resource must start at a multiple of 4");
        }
        self.put(Field::Srsrc, code / 4);
        if let Some(s) = samp {
            let code = self.sreg(&s, 4)?;
            if code % 4 != 0 {
                return self.err(s.at, "the sampler must be an aligned quad");
            }
            self.put(Field::Ssamp, code / 4);
        }
        if let (Some(o), Some(op)) = (vdata, info.operand(Role::V)) {
            let dmask = m.flag(M::Dmask);
            let mut n = if info.has(flag::GATHER4) {
                4
            } else {
                dmask.count_ones().max(1)
            };
            if m.flag(M::D16) != 0 && self.gen == Gen::Gcn14 {
                n = n.div_ceil(2);
            }
            // Atomics: DMASK counts the data dwords (2 for a 64-bit value or a
            // 32-bit cmpswap pair); without one, the row's data type decides.
            if info.has(flag::ATOMIC) && dmask == 0 {
                n = op.ty.dwords();
            }
            let v = self.vgpr(&o, n + m.flag(M::Tfe))?;
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
        let gfx9 = self.gen == Gen::Gcn14;
        let seg = info.family.flat_seg();
        if layout::has(Enc::Flat, self.gen, Field::Seg) {
            self.put(Field::Seg, seg);
        }
        let has_saddr_op = gfx9 && info.family != Family::Flat;
        let n_ops = count_operands(self.st.args);
        let n_sig = info.sig.len() + usize::from(has_saddr_op);
        let has_d = info.operand(Role::D).is_some();
        // An atomic without glc returns nothing and is written without its destination.
        let d_given = has_d && (!info.has(flag::ATOMIC) || n_ops >= n_sig);
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
                    Some(self.sreg(o, n)?)
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
                _ if n == 0 => {
                    return self.err(a.at, "with an SGPR address the VGPR address must be 'off'")
                }
                _ => {
                    let v = self.vgpr(&a, n)?;
                    self.put(Field::Addr, v);
                }
            }
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        let mut allowed = bit(M::Glc) | bit(M::Slc) | bit(M::Tfe) | bit(M::Nv) | bit(M::Lds);
        if gfx9 {
            allowed |= bit(M::Offset);
        }
        self.check_mods(&m, allowed)?;
        if info.has(flag::ATOMIC) && d_given && m.flag(M::Glc) == 0 {
            // CLRX shows VDST of every atomic (it is a field); only with glc
            // does the instruction return anything there.
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
        if m.has(M::Offset) {
            let at = m.at(M::Offset);
            let off = m.offset_i;
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
