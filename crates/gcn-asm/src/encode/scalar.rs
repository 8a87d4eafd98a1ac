//! Scalar encodings (SOP*, SMRD/SMEM) and the special 16-bit immediates
//! (`s_waitcnt` counters, `hwreg`, `sendmsg`, `gpr_idx`, branch targets).

use super::{branch_offset, starts_call, Build, Pending};
use crate::mods::{bit, Mods, M};
use crate::opnd::Val;
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::operand::{HWREG_NAMES, HWREG_NAMES_CLRX, HWREG_NAMES_GCN14};
use risa_gcn::table::{flag, Role, Ty};
use risa_gcn::Gen;

impl<'a> Build<'a, '_, '_> {
    pub(super) fn simm16(&mut self, ty: Ty) -> Option<u32> {
        self.sep()?;
        let at = self.c.rest();
        match ty {
            Ty::Waitcnt => return self.waitcnt(),
            Ty::Hwreg if starts_call(at, "hwreg") => return self.hwreg(),
            Ty::Sendmsg if starts_call(at, "sendmsg") => return self.sendmsg(),
            Ty::Gpridx if starts_call(at, "gpr_idx") => return self.gpr_idx(),
            _ => {}
        }
        self.first = true;
        let mut slot = None;
        self.operand_into(&mut slot)?;
        let Some(o) = &slot else { return None };
        self.no_operand_mods(o)?;
        match (&o.v, ty) {
            (Val::Num(v), Ty::Label) if !v.is_abs() => {
                if Some(self.asm.current_section()) != v.section {
                    self.err(o.at, "branch target is in another section")?;
                }
                let next = self.pc as i64 + 4 * i64::from(self.len_words());
                match branch_offset(v.value as i64 - next) {
                    Ok(off) => Some(off),
                    Err(e) => {
                        self.err(o.at, e)?;
                        None
                    }
                }
            }
            (Val::Pending(e), _) => {
                self.pending = Some(if ty == Ty::Label {
                    Pending::Branch(e.clone())
                } else {
                    Pending::Imm16(e.clone())
                });
                Some(0)
            }
            _ => {
                let v = self.value(o)?;
                Some(self.fit16(v, o.at))
            }
        }
    }

    /// Truncates a value to 16 bits, warning when it does not fit (signed or unsigned).
    pub(super) fn fit16(&mut self, v: u64, at: &str) -> u32 {
        let s = v as i64;
        if !(-0x8000..=0xffff).contains(&s) {
            self.asm.warning(
                at,
                format!("value {v:#x} truncated to 16 bits ({:#x})", v & 0xffff),
            );
        }
        (v & 0xffff) as u32
    }

    /// Length in words of the instruction being built (for branch offsets).
    pub(super) fn len_words(&self) -> u32 {
        self.enc.base_dwords() + u32::from(self.info.has(flag::LIT))
    }

    /// `vmcnt(N) expcnt(N) lgkmcnt(N)` joined by spaces, `&` or `,`; or a number.
    pub(super) fn waitcnt(&mut self) -> Option<u32> {
        let gfx9 = self.gen == Gen::Gcn14;
        let mut v: u32 = if gfx9 { 0xcf7f } else { 0x0f7f };
        let mut any = false;
        loop {
            self.c.skip_ws();
            let at = self.c.rest();
            let which = ["vmcnt", "expcnt", "lgkmcnt"]
                .into_iter()
                .position(|w| starts_call(at, w));
            let Some(k) = which else { break };
            let name = ["vmcnt", "expcnt", "lgkmcnt"][k];
            self.c.set_pos(self.c.pos() + name.len() + 1);
            let n = self.asm.abs_expr(&mut self.c)?;
            if !self.c.eat(b')') {
                return self.err(self.c.rest(), "expected ')'").map(|_| 0);
            }
            let max = match k {
                0 if gfx9 => 63,
                0 => 15,
                1 => 7,
                _ => 15,
            };
            if n > max {
                self.err(at, format!("{name} value {n} too large (at most {max})"))?;
            }
            let n = n as u32;
            v = match k {
                0 => (v & !0xc00f) | (n & 15) | if gfx9 { (n >> 4) << 14 } else { 0 },
                1 => (v & !0x70) | n << 4,
                _ => (v & !0xf00) | n << 8,
            };
            any = true;
            self.c.skip_ws();
            if self.c.peek() == Some(b'&') || self.c.peek() == Some(b',') {
                self.c.bump();
            }
        }
        if any {
            return Some(v);
        }
        self.first = true;
        let mut slot = None;
        self.operand_into(&mut slot)?;
        let Some(o) = &slot else { return None };
        let x = self.value(o)?;
        Some(self.fit16(x, o.at))
    }

    /// `hwreg(NAME|N [, offset, size])`.
    pub(super) fn hwreg(&mut self) -> Option<u32> {
        self.c.set_pos(self.c.pos() + "hwreg(".len());
        self.c.skip_ws();
        let at = self.c.rest();
        // CLRX's `hwreg(@5, ..)`: the id as an expression.
        self.c.eat(b'@');
        let save = self.c;
        let id = match self.c.ident() {
            Some(w) => {
                let u = w.to_ascii_uppercase();
                let u = u.strip_prefix("HW_REG_").unwrap_or(&u);
                let named = HWREG_NAMES
                    .iter()
                    .position(|n| !n.is_empty() && *n == u)
                    .map(|p| p as u32)
                    .or_else(|| {
                        HWREG_NAMES_GCN14
                            .iter()
                            .chain(&HWREG_NAMES_CLRX)
                            .find(|(n, _)| *n == u)
                            .map(|&(_, id)| id)
                    });
                match named {
                    Some(p) => u64::from(p),
                    None => {
                        self.c = save;
                        self.asm.abs_expr(&mut self.c)?
                    }
                }
            }
            None => self.asm.abs_expr(&mut self.c)?,
        };
        let (mut off, mut size) = (0, 32);
        if self.c.eat(b',') {
            off = self.asm.abs_expr(&mut self.c)?;
            if !self.c.eat(b',') {
                return self.err(self.c.rest(), "expected ', size'").map(|_| 0);
            }
            size = self.asm.abs_expr(&mut self.c)?;
        }
        if !self.c.eat(b')') {
            return self.err(self.c.rest(), "expected ')'").map(|_| 0);
        }
        if id > 63 || off > 31 || !(1..=32).contains(&size) {
            self.err(at, "hwreg: register 0..63, offset 0..31, size 1..32")?;
        }
        Some(id as u32 | (off as u32) << 6 | (size as u32 - 1) << 11)
    }

    /// `sendmsg(MSG [, OP [, STREAM]])`.
    pub(super) fn sendmsg(&mut self) -> Option<u32> {
        self.c.set_pos(self.c.pos() + "sendmsg(".len());
        let at = self.c.rest();
        const MSGS: [(&str, u64); 10] = [
            ("INTERRUPT", 1),
            ("GS", 2),
            ("GS_DONE", 3),
            ("SAVEWAVE", 4),
            ("STALL_WAVE_GEN", 5),
            ("HALT_WAVES", 6),
            ("ORDERED_PS_DONE", 7),
            ("EARLY_PRIM_DEALLOC", 8),
            ("GS_ALLOC_REQ", 9),
            ("SYSMSG", 15),
        ];
        const GSOPS: [&str; 4] = ["NOP", "CUT", "EMIT", "EMIT_CUT"];
        const SYSOPS: [&str; 5] = [
            "",
            "ECC_ERR_INTERRUPT",
            "REG_RD",
            "HOST_TRAP_ACK",
            "TTRACE_PC",
        ];
        let id = self.named_value(|w| {
            let u = w.to_ascii_uppercase();
            let u = u.strip_prefix("MSG_").unwrap_or(&u).to_string();
            MSGS.iter().find(|(n, _)| *n == u).map(|&(_, v)| v)
        })?;
        let (mut op, mut stream) = (0, 0);
        if self.c.eat(b',') {
            op = self.named_value(|w| {
                let u = w.to_ascii_uppercase();
                if let Some(g) = u.strip_prefix("GS_OP_") {
                    return GSOPS.iter().position(|n| *n == g).map(|p| p as u64);
                }
                if let Some(s) = u.strip_prefix("SYSMSG_OP_") {
                    return SYSOPS
                        .iter()
                        .position(|n| !n.is_empty() && *n == s)
                        .map(|p| p as u64);
                }
                GSOPS
                    .iter()
                    .position(|n| *n == u)
                    .or_else(|| SYSOPS.iter().position(|n| !n.is_empty() && *n == u))
                    .map(|p| p as u64)
            })?;
            if self.c.eat(b',') {
                stream = self.asm.abs_expr(&mut self.c)?;
            }
        }
        if !self.c.eat(b')') {
            return self.err(self.c.rest(), "expected ')'").map(|_| 0);
        }
        if id > 15 || op > 7 || stream > 3 {
            self.err(at, "sendmsg: message 0..15, operation 0..7, stream 0..3")?;
        }
        Some(id as u32 | (op as u32) << 4 | (stream as u32) << 8)
    }

    /// A name looked up by `f`, or an expression.
    pub(super) fn named_value(&mut self, f: impl Fn(&str) -> Option<u64>) -> Option<u64> {
        self.c.skip_ws();
        let save = self.c;
        if let Some(w) = self.c.ident() {
            if let Some(v) = f(w) {
                return Some(v);
            }
            self.c = save;
        }
        self.asm.abs_expr(&mut self.c)
    }

    /// `gpr_idx(SRC0,SRC1,SRC2,DST)`.
    pub(super) fn gpr_idx(&mut self) -> Option<u32> {
        self.c.set_pos(self.c.pos() + "gpr_idx(".len());
        let mut v = 0;
        if self.c.eat(b')') {
            return Some(0);
        }
        loop {
            let at = self.c.rest();
            let w = self.c.ident().unwrap_or("");
            let b = match w.to_ascii_uppercase().as_str() {
                "SRC0" => 1,
                "SRC1" => 2,
                "SRC2" => 4,
                "DST" => 8,
                _ => return self.err(at, "expected SRC0, SRC1, SRC2 or DST").map(|_| 0),
            };
            v |= b;
            if self.c.eat(b')') {
                return Some(v);
            }
            if !self.c.eat(b',') {
                return self.err(self.c.rest(), "expected ',' or ')'").map(|_| 0);
            }
        }
    }

    // ---------------------------------------------------------------- scalar

    pub(super) fn scalar(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        for op in self.info.sig {
            match op.role {
                Role::D => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    let code = self.sreg(o, op.ty.dwords())?;
                    self.put(Field::Sdst, code);
                }
                Role::B if op.ty == Ty::Gpridx => {
                    let v = self.simm16(Ty::Gpridx)?;
                    self.field(Field::Ssrc1, v, self.st.args, "gpr_idx mode")?;
                }
                Role::A | Role::B => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    self.no_operand_mods(o)?;
                    if op.sgpr && !matches!(o.v, Val::Reg { code, .. } if code < 128) {
                        return self.err(o.at, "expected a scalar register");
                    }
                    let code = self.src(o, op.ty, op.ty.dwords(), true)?;
                    if code > 255 {
                        return self.err(
                            o.at,
                            "vector registers are not allowed in scalar instructions",
                        );
                    }
                    let f = if op.role == Role::A {
                        Field::Ssrc0
                    } else {
                        Field::Ssrc1
                    };
                    self.put(f, code);
                }
                Role::L => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    match &o.v {
                        Val::Pending(e) => {
                            self.pending = Some(Pending::Literal(e.clone()));
                            self.lit = Some(0);
                        }
                        Val::Float(f) => self.lit = Some(f.to_f32_bits()),
                        _ => {
                            let v = self.value(o)?;
                            let s = v as i64;
                            if s < i64::from(i32::MIN) || s > i64::from(u32::MAX) {
                                self.asm
                                    .warning(o.at, format!("value {v:#x} truncated to 32 bits"));
                            }
                            self.lit = Some(v as u32);
                        }
                    }
                }
                Role::K => {
                    let v = self.simm16(op.ty)?;
                    self.put(Field::Simm16, v);
                }
                _ => {}
            }
        }
        self.end_no_mods()
    }

    // ---------------------------------------------------------------- scalar memory

    pub(super) fn smem(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        let info = self.info;
        let mut sgpr_offset = None;
        for op in info.sig {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            match op.role {
                Role::D if info.has(flag::IMM_D) => {
                    let v = self.value(o)?;
                    self.field(Field::Sdst, v as u32, o.at, "immediate")?;
                }
                Role::D => {
                    let code = self.sreg(o, op.ty.dwords())?;
                    self.put(Field::Sdst, code);
                }
                Role::A => {
                    let code = self.sreg(o, op.ty.dwords())?;
                    if code % 2 != 0 {
                        return self.err(o.at, "the base must be an aligned register pair");
                    }
                    self.put(Field::Sbase, code / 2);
                }
                Role::O => match o.v {
                    Val::Reg { .. } => {
                        let code = self.sreg(o, 1)?;
                        self.put(Field::Offset, code);
                        sgpr_offset = Some(code);
                    }
                    _ => {
                        let v = self.value(o)?;
                        let fits = v <= u64::from(u32::MAX)
                            && layout::set(enc, self.gen, &mut self.raw, Field::Offset, v as u32);
                        if fits {
                            self.put(Field::Imm, 1);
                        } else if enc == Enc::Smrd
                            && self.gen == Gen::Gcn11
                            && v <= u64::from(u32::MAX)
                        {
                            // GCN 1.1: a 32-bit literal offset (IMM=0, OFFSET=255).
                            self.put(Field::Offset, 255);
                            self.lit = Some(v as u32);
                        } else {
                            return self.err(o.at, format!("offset {v:#x} out of range"));
                        }
                    }
                },
                _ => {}
            }
        }
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        // GCN 1.4: an SGPR offset and an immediate one (SOE=1, IMM=1), in
        // CLRX's syntax `s_load_dword s1, s[2:3], s4 offset:0x10`.
        let soe = enc == Enc::Smem && self.gen == Gen::Gcn14 && sgpr_offset.is_some();
        self.check_mods(
            &m,
            bit(M::Glc) | bit(M::Nv) | if soe { bit(M::Offset) } else { 0 },
        )?;
        if let (true, Some(code)) = (m.has(M::Offset), sgpr_offset) {
            self.put(Field::Soe, 1);
            self.put(Field::Soffset, code);
            self.put(Field::Imm, 1);
            self.put(Field::Offset, 0);
            self.field(Field::Offset, m.flag(M::Offset), m.at(M::Offset), "offset")?;
        }
        self.field(Field::Glc, m.flag(M::Glc), m.at(M::Glc), "glc")?;
        self.field(Field::Nv, m.flag(M::Nv), m.at(M::Nv), "nv")
    }
}
