//! From a statement to machine words: operands are read in the order of the
//! instruction's signature (its table row) and written into the fields of
//! the chosen encoding through `risa_gcn::layout`. One function per encoding
//! family, mirroring the printer; no code is specific to one instruction.

use crate::mods::{self, bit, Mods, M};
use crate::names::{self, gen_list, Found};
use crate::opnd::{self, count_operands, Opd, Val};
use risa_asm_core::{Assembler, Cursor, Expr, ExprResult, Statement};
use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::operand::inline_value;
use risa_gcn::table::{flag, Family, OpId, OpInfo, Opnd, Role, Ty, OPS};
use risa_gcn::Gen;

/// A value that is not known yet and is patched in at the end.
#[derive(Debug, Clone)]
pub enum Pending {
    /// The 32-bit literal dword.
    Literal(Expr),
    /// A 16-bit immediate (SIMM16).
    Imm16(Expr),
    /// A branch target: SIMM16 = (target - next instruction) / 4.
    Branch(Expr),
    /// A relocation of the literal dword.
    Reloc(Box<opnd::Reloc>),
}

/// The result of assembling one instruction.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// The words (1 to 3).
    pub words: [u32; 3],
    /// Number of words.
    pub len: usize,
    /// A value to patch in later.
    pub pending: Option<Pending>,
    /// The row that was assembled.
    pub op: OpId,
    /// Highest VGPR referenced + 1 (0: none).
    pub vgprs: u32,
    /// Highest numbered SGPR referenced + 1 (0: none).
    pub sgprs: u32,
}

/// How the mnemonic asked for an encoding (LLVM suffixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Any,
    E32,
    E64,
    Sdwa,
    Dpp,
}

/// Splits `_e32`/`_e64`/`_sdwa`/`_dpp` off a lower-case mnemonic.
fn split_suffix(name: &str) -> (&str, Want) {
    for (s, w) in [
        ("_e32", Want::E32),
        ("_e64", Want::E64),
        ("_sdwa", Want::Sdwa),
        ("_dpp", Want::Dpp),
    ] {
        if let Some(b) = name.strip_suffix(s) {
            return (b, w);
        }
    }
    (name, Want::Any)
}

/// Assembles one instruction statement at byte offset `pc` of its section.
/// Errors are reported through `asm`; `None` means nothing is emitted.
pub fn assemble(asm: &mut Assembler, gen: Gen, st: &Statement<'_>, pc: u64) -> Option<Encoded> {
    let mut buf = [0u8; 48];
    let lname: String;
    let name = if !st.name.bytes().any(|b| b.is_ascii_uppercase()) {
        st.name
    } else if st.name.len() <= buf.len() {
        let b = &mut buf[..st.name.len()];
        b.copy_from_slice(st.name.as_bytes());
        b.make_ascii_lowercase();
        std::str::from_utf8(b).unwrap_or("")
    } else {
        lname = st.name.to_ascii_lowercase();
        &lname
    };
    // LLVM spells most vector instructions with an encoding suffix: try the
    // base name first, then the whole name (no mnemonic ends in a suffix).
    let (base, want) = split_suffix(name);
    let (op, want) = match (want, names::find(base, gen)) {
        (Want::Any, Found::Op(op)) => (op, Want::Any),
        (Want::Any, found) => return unknown(asm, st, found),
        (_, Found::Op(op)) => (op, want),
        (_, base_found) => match names::find(name, gen) {
            Found::Op(op) => (op, Want::Any),
            Found::Unknown => return unknown(asm, st, base_found),
            found => return unknown(asm, st, found),
        },
    };
    let info = &OPS[op as usize];
    let mut b = Build {
        asm,
        gen,
        info,
        enc: Enc::Sopp,
        raw: 0,
        lit: None,
        pending: None,
        c: Cursor::new(st.args),
        st,
        first: true,
        pc,
        vgprs: 0,
        sgprs: 0,
        reads: [0; 4],
        n_reads: 0,
    };
    b.run(want)?;
    let base = b.enc.base_dwords() as usize;
    let mut words = [b.raw as u32, (b.raw >> 32) as u32, 0];
    let mut len = base;
    if let Some(l) = b.lit {
        words[len] = l;
        len += 1;
    }
    Some(Encoded {
        words,
        len,
        pending: b.pending,
        op,
        vgprs: b.vgprs,
        sgprs: b.sgprs,
    })
}

fn unknown(asm: &mut Assembler, st: &Statement<'_>, found: Found) -> Option<Encoded> {
    match found {
        Found::OtherGens(g) => asm.error(
            st.name,
            format!("instruction '{}' exists only on {}", st.name, gen_list(&g)),
        ),
        _ => asm.error(st.name, format!("unknown instruction '{}'", st.name)),
    }
    None
}

struct Build<'a, 's, 't> {
    asm: &'s mut Assembler,
    gen: Gen,
    info: &'static OpInfo,
    enc: Enc,
    raw: u64,
    lit: Option<u32>,
    pending: Option<Pending>,
    c: Cursor<'a>,
    st: &'t Statement<'a>,
    first: bool,
    pc: u64,
    vgprs: u32,
    sgprs: u32,
    reads: [u32; 4],
    n_reads: usize,
}

/// Modifiers every VOP3 (VOP3a) form takes.
const VOP3_MODS: u64 = bit(M::Clamp) | bit(M::Omod) | bit(M::Vop3) | bit(M::OpSel);

impl<'a> Build<'a, '_, '_> {
    fn err(&mut self, at: &str, msg: impl Into<String>) -> Option<()> {
        self.asm.error(at, msg);
        None
    }

    /// Starts the encoding: fixed bits and the opcode.
    fn begin(&mut self, enc: Enc) -> Option<()> {
        self.enc = enc;
        let Some((mask, val)) = enc.prefix(self.gen) else {
            return self.err(
                self.st.name,
                format!("encoding {enc:?} does not exist on {}", self.gen),
            );
        };
        self.raw = u64::from(val & mask);
        let opc = match enc {
            Enc::Vop3 | Enc::Vop3b => self.info.vop3_opcode(self.gen),
            _ => self.info.opcode(self.gen),
        };
        let Some(opc) = opc else {
            return self.err(
                self.st.name,
                format!("'{}' has no {enc:?} form on {}", self.st.name, self.gen),
            );
        };
        if enc != Enc::Exp {
            self.put(Field::Op, u32::from(opc));
        }
        Some(())
    }

    /// Writes a field whose value is known to fit.
    fn put(&mut self, f: Field, v: u32) {
        layout::set(self.enc, self.gen, &mut self.raw, f, v);
    }

    /// Writes a user-supplied value into a field, reporting what does not fit.
    fn field(&mut self, f: Field, v: u32, at: &str, what: &str) -> Option<()> {
        if !layout::has(self.enc, self.gen, f) {
            if v == 0 {
                return Some(());
            }
            return self.err(
                at,
                format!("{what} is not available in this encoding on {}", self.gen),
            );
        }
        if !layout::set(self.enc, self.gen, &mut self.raw, f, v) {
            return self.err(at, format!("{what} value {v} does not fit its field"));
        }
        Some(())
    }

    /// Expects the separator before the next operand and reads it.
    fn operand(&mut self) -> Option<Opd<'a>> {
        if !self.first && !self.c.eat(b',') {
            let at = self.c.rest();
            let at = if at.trim().is_empty() {
                self.st.args
            } else {
                at
            };
            self.asm.error(at, "expected ',' and another operand");
            return None;
        }
        self.first = false;
        let o = opnd::operand(self.asm, self.gen, &mut self.c)?;
        if let Val::Reg { code, count } = o.v {
            let end = code + count.max(1);
            if code >= 256 {
                self.vgprs = self.vgprs.max(end - 256);
            } else if code < risa_gcn::operand::sgpr_count(self.gen) {
                self.sgprs = self.sgprs.max(end);
            }
        }
        Some(o)
    }

    /// Expects the separator and returns a cursor positioned at the next operand's text.
    fn sep(&mut self) -> Option<()> {
        if !self.first && !self.c.eat(b',') {
            let at = self.c.rest();
            self.asm.error(at, "expected ',' and another operand");
            return None;
        }
        self.first = false;
        self.c.skip_ws();
        Some(())
    }

    /// Parses the modifiers after the operands into `m`.
    fn mods(&mut self, m: &mut Mods<'a>) -> Option<()> {
        if self.c.at_end() {
            return Some(());
        }
        mods::parse(self.asm, &mut self.c, m)
    }

    fn check_mods(&mut self, m: &Mods<'_>, allowed: u64) -> Option<()> {
        m.check(self.asm, allowed, self.st.name).then_some(())
    }

    fn no_operand_mods(&mut self, o: &Opd<'_>) -> Option<()> {
        if o.neg || o.abs || o.sext {
            return self.err(
                o.at,
                "neg/abs/sext modifiers are not allowed on this operand",
            );
        }
        Some(())
    }

    /// A register range of exactly `count` registers (`count` 0: any).
    fn check_count(&mut self, o: &Opd<'_>, have: u32, count: u32) -> Option<()> {
        if have != 0 && count != 0 && have != count {
            let s = if count == 1 { "" } else { "s" };
            return self.err(o.at, format!("expected {count} register{s}, got {have}"));
        }
        Some(())
    }

    /// A VGPR range of `count` registers; returns its number.
    fn vgpr(&mut self, o: &Opd<'_>, count: u32) -> Option<u32> {
        self.no_operand_mods(o)?;
        match o.vgpr() {
            Some((n, have)) => {
                self.check_count(o, have, count)?;
                Some(n)
            }
            None => {
                self.err(o.at, "expected a vector register (v0..v255)")?;
                None
            }
        }
    }

    /// A scalar register range (code 0..=127) of `count` registers.
    fn sreg(&mut self, o: &Opd<'_>, count: u32) -> Option<u32> {
        self.no_operand_mods(o)?;
        match o.v {
            Val::Reg { code, count: have } if code < 128 => {
                self.check_count(o, have, count)?;
                Some(code)
            }
            _ => {
                self.err(o.at, "expected a scalar register")?;
                None
            }
        }
    }

    /// A known absolute value.
    fn value(&mut self, o: &Opd<'_>) -> Option<u64> {
        self.no_operand_mods(o)?;
        match &o.v {
            Val::Num(v) if v.is_abs() => Some(v.value),
            Val::Num(_) => {
                self.err(o.at, "expected an absolute value, not an address")?;
                None
            }
            Val::Pending(_) => {
                self.err(o.at, "value must be known here (symbol defined later)")?;
                None
            }
            Val::Float(_) => {
                self.err(o.at, "expected an integer")?;
                None
            }
            _ => {
                self.err(o.at, "expected a constant")?;
                None
            }
        }
    }

    /// Sets the literal dword, which one instruction has at most once.
    fn set_lit(&mut self, v: u32, at: &str) -> Option<()> {
        match self.lit {
            Some(old) if old != v => self.err(at, "only one literal constant per instruction"),
            _ => {
                self.lit = Some(v);
                Some(())
            }
        }
    }

    /// The operand code (9-bit space) of a source of type `ty`: register,
    /// inline constant, or 255 with the literal set (when `lit` allows it).
    fn src(&mut self, o: &Opd<'_>, ty: Ty, count: u32, lit: bool) -> Option<u32> {
        let wide = ty.dwords() == 2;
        match &o.v {
            Val::Reg { code, count: have } => {
                self.check_count(o, *have, count)?;
                Some(*code)
            }
            Val::Off => {
                self.err(o.at, "'off' is not allowed here")?;
                None
            }
            Val::Num(v) => {
                if !v.is_abs() {
                    self.err(o.at, "an address is not allowed here")?;
                    return None;
                }
                let raw = v.value;
                if o.lit {
                    if !lit {
                        self.err(o.at, "a literal constant is not allowed here")?;
                        return None;
                    }
                    self.set_lit(raw as u32, o.at)?;
                    return Some(255);
                }
                // Normalize to the operand's width, as the hardware sees it.
                let sv = raw as i64;
                let (val, bits) = if wide {
                    (sv, raw)
                } else if ty.is_16bit() && (-0x8000..=0xffff).contains(&sv) {
                    let x = raw as u16;
                    (i64::from(x as i16), u64::from(x))
                } else {
                    if sv < i64::from(i32::MIN) || sv > i64::from(u32::MAX) {
                        self.asm
                            .warning(o.at, format!("value {raw:#x} truncated to 32 bits"));
                    }
                    let x = raw as u32;
                    (i64::from(x as i32), u64::from(x))
                };
                if (0..=64).contains(&val) {
                    return Some(128 + val as u32);
                }
                if (-16..0).contains(&val) {
                    return Some((192 - val) as u32);
                }
                if let Some(code) = self.float_inline(ty, bits) {
                    return Some(code);
                }
                if wide {
                    if let Some(code) = self.float_inline(ty, bits << 32) {
                        if ty.is_float() && bits >> 32 == 0 {
                            return Some(code);
                        }
                    }
                }
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                let l = if wide {
                    if sv < i64::from(i32::MIN) || sv > i64::from(u32::MAX) {
                        self.err(o.at, "64-bit value does not fit a 32-bit literal")?;
                        return None;
                    }
                    raw as u32
                } else {
                    bits as u32
                };
                self.set_lit(l, o.at)?;
                Some(255)
            }
            Val::Float(f) => {
                let bits = if ty.is_16bit() {
                    u64::from(f.to_f16_bits())
                } else if wide {
                    f.to_f64_bits()
                } else {
                    u64::from(f.to_f32_bits())
                };
                if bits == 0 && !o.lit {
                    return Some(128);
                }
                if let Some(code) = self.float_inline(ty, bits).filter(|_| !o.lit) {
                    return Some(code);
                }
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                let l = if wide {
                    if bits as u32 != 0 {
                        self.asm
                            .warning(o.at, "double literal truncated to its high 32 bits");
                    }
                    (bits >> 32) as u32
                } else {
                    bits as u32
                };
                self.set_lit(l, o.at)?;
                Some(255)
            }
            Val::Reloc(r) => {
                if !lit {
                    self.err(
                        o.at,
                        "a relocated value needs a literal slot, not allowed here",
                    )?;
                    return None;
                }
                if self.pending.is_some() || self.lit.is_some() {
                    self.err(o.at, "only one literal constant per instruction")?;
                    return None;
                }
                self.pending = Some(Pending::Reloc(r.clone()));
                self.lit = Some(0);
                Some(255)
            }
            Val::Pending(e) => {
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                if self.pending.is_some() || self.lit.is_some() {
                    self.err(o.at, "only one literal constant per instruction")?;
                    return None;
                }
                self.pending = Some(Pending::Literal(e.clone()));
                self.lit = Some(0);
                Some(255)
            }
        }
    }

    /// The inline-constant code whose value is `bits` for type `ty`.
    fn float_inline(&self, ty: Ty, bits: u64) -> Option<u32> {
        (240..=248).find(|&c| inline_value(self.gen, c, ty) == Some(bits))
    }

    /// A 16-bit immediate of SOPK/SOPP of type `ty`.
    fn simm16(&mut self, ty: Ty) -> Option<u32> {
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
        let o = self.operand()?;
        self.no_operand_mods(&o)?;
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
                let v = self.value(&o)?;
                Some(self.fit16(v, o.at))
            }
        }
    }

    /// Truncates a value to 16 bits, warning when it does not fit (signed or unsigned).
    fn fit16(&mut self, v: u64, at: &str) -> u32 {
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
    fn len_words(&self) -> u32 {
        self.enc.base_dwords() + u32::from(self.info.has(flag::LIT))
    }

    /// `vmcnt(N) expcnt(N) lgkmcnt(N)` joined by spaces, `&` or `,`; or a number.
    fn waitcnt(&mut self) -> Option<u32> {
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
        let o = self.operand()?;
        let x = self.value(&o)?;
        Some(self.fit16(x, o.at))
    }

    /// `hwreg(NAME|N [, offset, size])`.
    fn hwreg(&mut self) -> Option<u32> {
        self.c.set_pos(self.c.pos() + "hwreg(".len());
        self.c.skip_ws();
        let at = self.c.rest();
        const NAMES: [&str; 8] = [
            "",
            "MODE",
            "STATUS",
            "TRAPSTS",
            "HW_ID",
            "GPR_ALLOC",
            "LDS_ALLOC",
            "IB_STS",
        ];
        let save = self.c;
        let id = match self.c.ident() {
            Some(w) => {
                let u = w.to_ascii_uppercase();
                let u = u.strip_prefix("HW_REG_").unwrap_or(&u);
                match NAMES.iter().position(|n| !n.is_empty() && *n == u) {
                    Some(p) => p as u64,
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
    fn sendmsg(&mut self) -> Option<u32> {
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
    fn named_value(&mut self, f: impl Fn(&str) -> Option<u64>) -> Option<u64> {
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
    fn gpr_idx(&mut self) -> Option<u32> {
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

    fn run(&mut self, want: Want) -> Option<()> {
        let fam = self.info.family;
        let is_vop = matches!(
            fam,
            Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p
        ) || (fam == Family::Vintrp && (want == Want::E64));
        if want != Want::Any && !is_vop && !(fam == Family::Vintrp && want == Want::E32) {
            return self.err(
                self.st.name,
                "encoding suffix not valid for this instruction",
            );
        }
        match fam {
            Family::Sop2 => self.scalar(Enc::Sop2),
            Family::Sop1 => self.scalar(Enc::Sop1),
            Family::Sopc => self.scalar(Enc::Sopc),
            Family::Sopk => self.scalar(Enc::Sopk),
            Family::Sopp => self.scalar(Enc::Sopp),
            Family::Smrd => self.smem(Enc::Smrd),
            Family::Smem => self.smem(Enc::Smem),
            Family::Ds => self.ds(),
            Family::Mubuf => self.buf(Enc::Mubuf),
            Family::Mtbuf => self.buf(Enc::Mtbuf),
            Family::Mimg => self.mimg(),
            Family::Exp => self.exp(),
            Family::Flat | Family::Global | Family::Scratch => self.flat(),
            Family::Vop3p => self.vop3p(),
            Family::Vintrp if want != Want::E64 => self.vintrp(),
            _ => self.vop(want),
        }
    }

    fn end_no_mods(&mut self) -> Option<()> {
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        self.check_mods(&m, 0)
    }

    // ---------------------------------------------------------------- scalar

    fn scalar(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        for op in self.info.sig {
            match op.role {
                Role::D => {
                    let o = self.operand()?;
                    let code = self.sreg(&o, op.ty.dwords())?;
                    self.put(Field::Sdst, code);
                }
                Role::B if op.ty == Ty::Gpridx => {
                    let v = self.simm16(Ty::Gpridx)?;
                    self.field(Field::Ssrc1, v, self.st.args, "gpr_idx mode")?;
                }
                Role::A | Role::B => {
                    let o = self.operand()?;
                    self.no_operand_mods(&o)?;
                    if op.sgpr && !matches!(o.v, Val::Reg { code, .. } if code < 128) {
                        return self.err(o.at, "expected a scalar register");
                    }
                    let code = self.src(&o, op.ty, op.ty.dwords(), true)?;
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
                    let o = self.operand()?;
                    match &o.v {
                        Val::Pending(e) => {
                            self.pending = Some(Pending::Literal(e.clone()));
                            self.lit = Some(0);
                        }
                        Val::Float(f) => self.lit = Some(f.to_f32_bits()),
                        _ => {
                            let v = self.value(&o)?;
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

    fn smem(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        let info = self.info;
        for op in info.sig {
            let o = self.operand()?;
            match op.role {
                Role::D if info.has(flag::IMM_D) => {
                    let v = self.value(&o)?;
                    self.field(Field::Sdst, v as u32, o.at, "immediate")?;
                }
                Role::D => {
                    let code = self.sreg(&o, op.ty.dwords())?;
                    self.put(Field::Sdst, code);
                }
                Role::A => {
                    let code = self.sreg(&o, op.ty.dwords())?;
                    if code % 2 != 0 {
                        return self.err(o.at, "the base must be an aligned register pair");
                    }
                    self.put(Field::Sbase, code / 2);
                }
                Role::O => match o.v {
                    Val::Reg { .. } => {
                        let code = self.sreg(&o, 1)?;
                        self.put(Field::Offset, code);
                    }
                    _ => {
                        let v = self.value(&o)?;
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
        self.check_mods(&m, bit(M::Glc) | bit(M::Nv))?;
        self.field(Field::Glc, m.flag(M::Glc), m.at(M::Glc), "glc")?;
        self.field(Field::Nv, m.flag(M::Nv), m.at(M::Nv), "nv")
    }

    // ---------------------------------------------------------------- vector ALU

    fn vop(&mut self, want: Want) -> Option<()> {
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
                _ => ops[k] = Some(self.operand()?),
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
                            return self.err(o.at, "expected a vector register");
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
                                return self.err(o.at, "expected a vector register");
                            }
                            let code = self.src(&o, ty, count, true)?;
                            self.put(Field::Src0, code);
                            self.note_read(code);
                        } else if op.sgpr {
                            let code = self.sreg(&o, count)?;
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
            if fam == Family::Vopc {
                allowed &= !(bit(M::DstSel) | bit(M::DstUnused));
            }
            if fam == Family::Vop1 {
                allowed &= !bit(M::Src1Sel);
            }
            self.check_mods(&m, allowed)?;
            let none = info.sig.is_empty();
            let d = |x: u32| if none { 0 } else { x };
            self.field(Field::Clamp, m.flag(M::Clamp), m.at(M::Clamp), "clamp")?;
            self.field(Field::Omod, m.flag(M::Omod), m.at(M::Omod), "omod")?;
            self.put(Field::DstSel, m.get(M::DstSel, d(6)));
            self.put(Field::DstUnused, m.get(M::DstUnused, d(2)));
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
    fn note_read(&mut self, code: u32) {
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
    fn constant_bus(&mut self) -> Option<()> {
        if self.n_reads > 1 {
            return self.err(
                self.st.args,
                "too many scalar values: a vector instruction reads at most one SGPR or literal (the constant bus)",
            );
        }
        Some(())
    }

    /// Whether an unsuffixed VOP1/VOP2/VOPC statement needs the VOP3 encoding.
    fn needs_vop3(&self, m: &Mods<'_>, dst_c: Option<&Opd<'_>>, ops: &[Option<Opd<'_>>]) -> bool {
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
    fn sdwa_src(&mut self, o: &Opd<'_>, op: &Opnd, n: usize) -> Option<()> {
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
    fn attr(&mut self) -> Option<(u32, u32, &'a str)> {
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
    fn param(&mut self) -> Option<u32> {
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

    fn vintrp(&mut self) -> Option<()> {
        // Source modifiers, clamp or an output modifier select the VOP3 form
        // (GCN 1.2+), which CLRX writes without a suffix.
        if self.info.vop3_opcode(self.gen).is_some() && self.wants_vop3_interp() {
            return self.vop(Want::E64);
        }
        self.begin(Enc::Vintrp)?;
        for op in self.info.sig {
            match op.role {
                Role::D => {
                    let o = self.operand()?;
                    let v = self.vgpr(&o, 1)?;
                    self.put(Field::Vdst, v);
                }
                Role::A => {
                    let o = self.operand()?;
                    let v = self.vgpr(&o, 1)?;
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
    fn wants_vop3_interp(&self) -> bool {
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

    fn vop3p(&mut self) -> Option<()> {
        self.begin(Enc::Vop3p)?;
        let info = self.info;
        let mix = info.has(flag::MIX);
        let (mut neg, mut neg_hi) = (0, 0);
        let mut n = 0u32;
        for op in info.sig {
            let o = self.operand()?;
            let f = match op.role {
                Role::D => {
                    let v = self.vgpr(&o, op.ty.dwords())?;
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
                self.no_operand_mods(&o)?;
            }
            let code = self.src(&o, op.ty, op.ty.dwords(), false)?;
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

    // ---------------------------------------------------------------- memory

    fn ds(&mut self) -> Option<()> {
        self.begin(Enc::Ds)?;
        let info = self.info;
        for op in info.sig {
            let o = self.operand()?;
            let f = match op.role {
                Role::D => Field::Vdst,
                Role::A => Field::Addr,
                Role::B => Field::Data0,
                _ => Field::Data1,
            };
            let v = self.vgpr(&o, op.ty.dwords())?;
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

    fn buf(&mut self, enc: Enc) -> Option<()> {
        self.begin(enc)?;
        let info = self.info;
        let n_ops = count_operands(self.st.args);
        let data = info.operand(Role::V);
        let mut vaddr: Option<Opd<'a>> = None;
        if !info.has(flag::NOARGS) {
            if let Some(op) = data {
                let o = self.operand()?;
                let v = self.vgpr(&o, op.ty.data_dwords(self.gen))?;
                self.put(Field::Vdata, v);
            }
            if data.is_some() || n_ops > 2 {
                vaddr = Some(self.operand()?);
            }
            let o = self.operand()?;
            let code = self.sreg(&o, 4)?;
            if code % 4 != 0 {
                return self.err(o.at, "the resource must be an aligned quad s[4n:4n+3]");
            }
            self.put(Field::Srsrc, code / 4);
            let o = self.operand()?;
            self.no_operand_mods(&o)?;
            let code = self.src(&o, Ty::B32, 1, false)?;
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
                (_, 0) => {
                    return self.err(o.at, "without idxen/offen/addr64 the address must be 'off'")
                }
                _ => {
                    let v = self.vgpr(&o, want)?;
                    self.put(Field::Vaddr, v);
                }
            }
        }
        Some(())
    }

    fn mimg(&mut self) -> Option<()> {
        self.begin(Enc::Mimg)?;
        let info = self.info;
        let mut vdata: Option<Opd<'a>> = None;
        if info.operand(Role::V).is_some() {
            vdata = Some(self.operand()?);
        }
        let o = self.operand()?;
        let v = self.vgpr(&o, 0)?;
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
            if info.has(flag::ATOMIC) {
                n = op.ty.dwords();
            }
            let v = self.vgpr(&o, n + m.flag(M::Tfe))?;
            self.put(Field::Vdata, v);
        }
        Some(())
    }

    fn exp(&mut self) -> Option<()> {
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
            let o = self.operand()?;
            texts[k] = o.at;
            regs[k] = match o.v {
                Val::Off => None,
                _ => Some(self.vgpr(&o, 1)?),
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

    fn flat(&mut self) -> Option<()> {
        self.begin(Enc::Flat)?;
        let info = self.info;
        let gfx9 = self.gen == Gen::Gcn14;
        let seg = match info.family {
            Family::Scratch => 1,
            Family::Global => 2,
            _ => 0,
        };
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
                    let o = self.operand()?;
                    let v = self.vgpr(&o, op.ty.data_dwords(self.gen))?;
                    self.put(Field::Data0, v);
                }
                _ => {}
            }
        }
        let mut saddr = None;
        if has_saddr_op {
            let o = self.operand()?;
            saddr = match o.v {
                Val::Off => None,
                _ => {
                    let n = if info.family == Family::Global { 2 } else { 1 };
                    Some(self.sreg(&o, n)?)
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
            let at = dst.as_ref().map_or(self.st.args, |d| d.0.at);
            return self.err(at, "a returning atomic needs glc");
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

/// Whether `s` starts with `word(` (case-insensitive).
fn starts_call(s: &str, word: &str) -> bool {
    let b = s.as_bytes();
    let n = word.len();
    b.len() > n && b[..n].eq_ignore_ascii_case(word.as_bytes()) && b[n] == b'('
}

/// A branch distance in bytes as the SIMM16 dword offset.
pub fn branch_offset(bytes: i64) -> Result<u32, String> {
    if bytes % 4 != 0 {
        return Err(format!(
            "branch target is not dword aligned ({bytes} bytes away)"
        ));
    }
    let d = bytes / 4;
    if !(-32768..=32767).contains(&d) {
        return Err(format!(
            "branch target out of range: {d} dwords (must be -32768..32767)"
        ));
    }
    Ok((d as u16) as u32)
}

/// Parses an expression for directives (re-exported convenience).
pub fn eval(asm: &mut Assembler, s: &str) -> ExprResult {
    asm.expr_str(s)
}
