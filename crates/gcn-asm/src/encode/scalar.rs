//! Scalar encodings (SOP*, SMRD/SMEM) and the special 16-bit immediates
//! (`s_waitcnt` counters, `hwreg`, `sendmsg`, `gpr_idx`, branch targets).

use super::{branch_offset, Build, Pending};

/// The length of `word(` at the start of `s` (case-insensitive; CLRX allows
/// spaces before the parenthesis), or `None`.
pub(super) fn call_len(s: &str, word: &str) -> Option<usize> {
    let b = s.as_bytes();
    let n = word.len();
    if b.len() <= n || !b[..n].eq_ignore_ascii_case(word.as_bytes()) {
        return None;
    }
    let mut i = n;
    while b.get(i).is_some_and(|&x| x == b' ' || x == b'\t') {
        i += 1;
    }
    (b.get(i) == Some(&b'(')).then_some(i + 1)
}
use crate::mods::{bit, Mods, M};
use crate::opnd::{Opd, Val};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::operand::{HWREG_NAMES, HWREG_NAMES_CLRX, HWREG_NAMES_CLRX_GCN14, HWREG_NAMES_GCN14};
use risa_gcn::table::{flag, Role, Ty};
use risa_gcn::Feature;

impl<'a> Build<'a, '_, '_> {
    pub(super) fn simm16(&mut self, ty: Ty) -> Option<u32> {
        self.sep()?;
        let at = self.c.rest();
        match ty {
            Ty::Waitcnt => return self.waitcnt(),
            Ty::Hwreg if call_len(at, "hwreg").is_some() => return self.hwreg(),
            Ty::Sendmsg if call_len(at, "sendmsg").is_some() => return self.sendmsg(),
            Ty::Gpridx if call_len(at, "gpr_idx").is_some() => return self.gpr_idx(),
            _ => {}
        }
        self.first = true;
        let mut slot = None;
        self.operand_into(&mut slot)?;
        let Some(o) = &slot else { return None };
        self.no_operand_mods(o)?;
        self.no_lit(o)?;
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
            (Val::Num(v), Ty::Label) if self.clrx && v.is_abs() => {
                // A number is an address to clrxasm, which accepts none in
                // raw code; risa's plain number is LLVM's raw SIMM16.
                self.err(
                    o.at,
                    "a branch target in CLRX syntax is a label or an address (.+8); a plain number is LLVM syntax",
                )?;
                None
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
        self.i.enc.base_dwords() + u32::from(self.info.has(flag::LIT))
    }

    /// `vmcnt(N) expcnt(N) lgkmcnt(N)` joined by spaces, `&` or `,`; or a number.
    pub(super) fn waitcnt(&mut self) -> Option<u32> {
        let g = self.gen.info();
        let mut v: u32 = g.waitcnt_mask;
        let mut any = false;
        loop {
            self.c.skip_ws();
            let at = self.c.rest();
            let which = ["vmcnt", "expcnt", "lgkmcnt"]
                .into_iter()
                .enumerate()
                .find_map(|(k, w)| call_len(at, w).map(|n| (k, n)));
            let Some((k, len)) = which else { break };
            let name = ["vmcnt", "expcnt", "lgkmcnt"][k];
            self.c.set_pos(self.c.pos() + len);
            let n = self.asm.abs_expr(&mut self.c)?;
            self.c.skip_ws();
            if !self.c.eat(b')') {
                return self.err(self.c.rest(), "expected ')'").map(|_| 0);
            }
            let max = match k {
                0 => u64::from(g.vmcnt_max),
                1 => 7,
                _ => 15,
            };
            if n > max {
                if !self.clrx {
                    self.err(at, format!("{name} value {n} too large (at most {max})"))?;
                }
                // CLRX keeps the bits that fit, with a warning.
                self.asm.warning(
                    at,
                    format!("{name} value {n} too large (at most {max}): truncated"),
                );
            }
            let n = (n & max) as u32;
            v = match k {
                // VM_CNT[5:4] at bits 15:14 where the generation has them.
                0 => (v & !0xc00f) | (n & 15) | ((n >> 4) << 14 & g.waitcnt_mask),
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
        let len = call_len(self.c.rest(), "hwreg").unwrap_or(0);
        self.c.set_pos(self.c.pos() + len);
        self.c.skip_ws();
        let at = self.c.rest();
        // CLRX's `hwreg(@5, ..)`: the id as an expression.
        self.c.eat(b'@');
        let save = self.c;
        if self.c.eat(b'@') {
            // CLRX: `@expr` is the register number.
            self.c.skip_ws();
        }
        let id = match self.c.ident() {
            Some(w) => {
                let u = w.to_ascii_uppercase();
                // (LLVM's `HW_REG_MODE`, which clrxasm does not know, has no
                // other meaning in CLRX: read in both dialects.)
                let u = u
                    .strip_prefix("HW_REG_")
                    .or_else(|| u.strip_prefix("HWREG_"))
                    .unwrap_or(&u);
                let named = HWREG_NAMES
                    .iter()
                    .position(|n| !n.is_empty() && *n == u)
                    .map(|p| p as u32)
                    .or_else(|| {
                        HWREG_NAMES_GCN14
                            .iter()
                            .chain(&HWREG_NAMES_CLRX)
                            .chain(&HWREG_NAMES_CLRX_GCN14)
                            .find(|(n, _)| *n == u)
                            .map(|&(_, id)| id)
                    });
                match named {
                    Some(p) => u64::from(p),
                    None => {
                        self.c = save;
                        self.c.eat(b'@');
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
        self.c.skip_ws();
        if !self.c.eat(b')') {
            return self.err(self.c.rest(), "expected ')'").map(|_| 0);
        }
        if id > 63 || off > 31 || !(1..=32).contains(&size) {
            if !self.clrx {
                self.err(at, "hwreg: register 0..63, offset 0..31, size 1..32")?;
            }
            // CLRX keeps the bits that fit, with a warning.
            self.asm.warning(
                at,
                "hwreg: register 0..63, offset 0..31, size 1..32: truncated",
            );
        }
        if self.clrx {
            // clrxasm ORs the shifted values (no masking) and keeps 16 bits.
            let v = id | off << 6 | size.wrapping_sub(1) << 11;
            return Some((v & 0xffff) as u32);
        }
        Some((id & 63) as u32 | (off as u32 & 31) << 6 | ((size as u32).wrapping_sub(1) & 31) << 11)
    }

    /// `sendmsg(MSG [, OP [, STREAM]])`.
    pub(super) fn sendmsg(&mut self) -> Option<u32> {
        let len = call_len(self.c.rest(), "sendmsg").unwrap_or(0);
        self.c.set_pos(self.c.pos() + len);
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
            let u = if u == "SYSTEM" {
                "SYSMSG".to_string()
            } else {
                u
            };
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
                let u = if u == "EMIT-CUT" {
                    "EMIT_CUT".to_string()
                } else {
                    u
                };
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
        self.c.skip_ws();
        if !self.c.eat(b')') {
            return self.err(self.c.rest(), "expected ')'").map(|_| 0);
        }
        if id > 15 || op > 7 || stream > 3 {
            if !self.clrx {
                self.err(at, "sendmsg: message 0..15, operation 0..7, stream 0..3")?;
            }
            // CLRX keeps the bits that fit, with a warning.
            self.asm.warning(
                at,
                "sendmsg: message 0..15, operation 0..7, stream 0..3: truncated",
            );
        }
        Some((id & 15) as u32 | (op as u32 & 7) << 4 | (stream as u32 & 3) << 8)
    }

    /// A name looked up by `f`, or an expression.
    pub(super) fn named_value(&mut self, f: impl Fn(&str) -> Option<u64>) -> Option<u64> {
        self.c.skip_ws();
        // CLRX: `@expr` is the number.
        if self.c.eat(b'@') {
            return self.asm.abs_expr(&mut self.c);
        }
        let save = self.c;
        // `emit-cut` is one name.
        let r = self.c.rest();
        if r.len() >= 8 && r.as_bytes()[..8].eq_ignore_ascii_case(b"emit-cut") {
            self.c.set_pos(self.c.pos() + 8);
            if let Some(v) = f("emit-cut") {
                return Some(v);
            }
            self.c = save;
        }
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
        let len = call_len(self.c.rest(), "gpr_idx").unwrap_or(0);
        self.c.set_pos(self.c.pos() + len);
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
                    self.clrx_align(o)?;
                    self.put(Field::Sdst, code);
                }
                Role::B if op.ty == Ty::Gpridx => {
                    let v = self.simm16(Ty::Gpridx)?;
                    if let Some(Pending::Imm16(e)) = &self.pending {
                        // A later symbol: the mode goes into SSRC1, not the low 16 bits.
                        let e = e.clone();
                        self.pending = None;
                        self.field_later(Field::Ssrc1, e, self.st.args, false)?;
                    } else {
                        self.field(Field::Ssrc1, v, self.st.args, "gpr_idx mode")?;
                    }
                }
                Role::A | Role::B => {
                    let mut slot = None;
                    self.operand_into(&mut slot)?;
                    let Some(o) = &slot else { return None };
                    self.no_operand_mods(o)?;
                    self.clrx_align(o)?;
                    if op.sgpr && !self.clrx && !matches!(o.v, Val::Reg { code, .. } if code < 128)
                    {
                        return self.err(o.at, "expected a scalar register");
                    }
                    let code = self.src(o, op.ty, op.ty.dwords(), true)?;
                    if self.clrx && code == 254 {
                        self.asm.warning(
                            o.at,
                            "LDS_DIRECT in a scalar instruction (clrxasm rejects it)",
                        );
                    }
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
                            self.i.lit = Some(0);
                        }
                        Val::Float(f) => self.i.lit = Some(f.to_f32_bits()),
                        _ => {
                            let v = self.value(o)?;
                            let s = v as i64;
                            if s < i64::from(i32::MIN) || s > i64::from(u32::MAX) {
                                self.asm
                                    .warning(o.at, format!("value {v:#x} truncated to 32 bits"));
                            }
                            self.i.lit = Some(v as u32);
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
        for op in info.sig {
            let mut slot = None;
            self.operand_into(&mut slot)?;
            let Some(o) = &slot else { return None };
            if op.role == Role::O && o.lit && enc == Enc::Smrd && self.gen.has(Feature::CiInsts) {
                // GCN 1.1: lit() asks for the 32-bit literal form (as clrxasm).
                let v = self.value(&Opd {
                    lit: false,
                    ..o.clone()
                })?;
                self.put(Field::Offset, 255);
                self.i.lit = Some(v as u32);
                continue;
            }
            if op.role == Role::O {
                self.no_lit(o)?;
            }
            match op.role {
                Role::D if info.has(flag::IMM_D) => {
                    let v = self.value(o)?;
                    self.field(Field::Sdst, v as u32, o.at, "immediate")?;
                }
                Role::D => {
                    let code = self.sreg(o, op.ty.dwords())?;
                    self.clrx_align(o)?;
                    self.put(Field::Sdst, code);
                }
                Role::A => {
                    let code = self.sreg(o, op.ty.dwords())?;
                    self.clrx_align(o)?;
                    let b = self.block(o, code, 2, "the base must be an aligned register pair")?;
                    self.put(Field::Sbase, b);
                }
                Role::O => match &o.v {
                    Val::Reg { code, .. }
                        if self.clrx
                            && !self.gen.has(Feature::Gfx9Insts)
                            && *code != 124
                            && (info.has(flag::STORE)
                                || info.has(flag::ATOMIC)
                                || info.has(flag::IMM_D)) =>
                    {
                        // llvm-mc encodes it; the hardware takes any SGPR.
                        self.asm.warning(
                            o.at,
                            "an SGPR offset of an SMEM store, atomic or probe (clrxasm rejects it: M0 only on GCN 1.2)",
                        );
                        let code = self.sreg(o, 1)?;
                        self.put(Field::Offset, code);
                    }
                    Val::Pending(e) => {
                        // A later symbol: the immediate form, filled in by a fixup.
                        self.put(Field::Imm, 1);
                        self.field_later(Field::Offset, e.clone(), o.at, false)?;
                    }
                    Val::Reg { .. } => {
                        let code = self.sreg(o, 1)?;
                        self.put(Field::Offset, code);
                    }
                    _ => {
                        let mut v = self.value(o)?;
                        let width = u32::from(self.row[Field::Offset as usize]) >> 6;
                        if self.clrx
                            && enc == Enc::Smrd
                            && self.gen.has(Feature::CiInsts)
                            && v >> 8 != 0
                        {
                            // clrxasm: the 32-bit literal form for any other value.
                            let s = v as i64;
                            if s < i64::from(i32::MIN) || s > i64::from(u32::MAX) {
                                self.asm
                                    .warning(o.at, format!("offset {v:#x} truncated to 32 bits"));
                            }
                            self.put(Field::Offset, 255);
                            self.i.lit = Some(v as u32);
                            continue;
                        }
                        if self.clrx
                            && v >> width != 0
                            && !(enc == Enc::Smrd && self.gen.has(Feature::CiInsts))
                        {
                            // clrxasm keeps the bits that fit, with a warning.
                            let t = v & ((1 << width) - 1);
                            self.asm
                                .warning(o.at, format!("offset {v:#x} truncated to {t:#x}"));
                            v = t;
                        }
                        let fits = v <= u64::from(u32::MAX)
                            && layout::set(enc, self.gen, &mut self.i.raw, Field::Offset, v as u32);
                        if fits {
                            self.put(Field::Imm, 1);
                        } else if enc == Enc::Smrd
                            && self.gen.has(Feature::CiInsts)
                            && v <= u64::from(u32::MAX)
                        {
                            // GCN 1.1: a 32-bit literal offset (IMM=0, OFFSET=255).
                            self.put(Field::Offset, 255);
                            self.i.lit = Some(v as u32);
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
        let soe = self.clrx
            && layout::has(enc, self.gen, Field::Soe)
            && self.i.field(Field::Imm) == 0
            && m.has(M::Offset);
        let extra = if soe { bit(M::Offset) } else { 0 };
        self.check_mods(&m, bit(M::Glc) | bit(M::Nv) | extra)?;
        self.no_inst_offset(&m)?;
        if soe {
            // GCN 1.4 (CLRX syntax): an SGPR offset plus `offset:` is
            // SOFFSET + the immediate (SOE).
            let sgpr = self.i.field(Field::Offset);
            self.put(Field::Offset, 0);
            self.put(Field::Soe, 1);
            self.put(Field::Imm, 1);
            self.put(Field::Soffset, sgpr);
            self.mfield(&m, Field::Offset, M::Offset, "offset")?;
        }
        self.field(Field::Glc, m.flag(M::Glc), m.at(M::Glc), "glc")?;
        self.field(Field::Nv, m.flag(M::Nv), m.at(M::Nv), "nv")
    }
}
