//! ALU instruction lines (`x: NAME dst, src, … modifiers`), the inverse of
//! `risa_cayman::print::print_alu`, and the lines that follow a group
//! (`LITERALS …`, `LDS_DIRECT …`).

use crate::text::*;
use risa_cayman::codec::reserved_mask;
use risa_cayman::fields::*;
use risa_cayman::ops::{self, Op};
use risa_cayman::print::special_src_name;
use std::collections::HashMap;
use std::sync::OnceLock;

/// How a source refers to the group's literal dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitRef {
    /// Not a literal.
    None,
    /// `(0xVALUE, …).c`: channel and value given.
    Known {
        /// Literal channel (0..=3).
        chan: u32,
        /// Its value.
        value: u32,
    },
    /// `literal.c`: channel given, value from a `LITERALS` line (else 0).
    Unknown,
    /// `(VALUE)` without a channel: the assembler picks one.
    Auto {
        /// Its value.
        value: u32,
    },
}

/// A parsed ALU instruction line.
#[derive(Clone, Debug)]
pub struct AluLine<'a> {
    /// The two dwords, LAST clear (set by the group).
    pub words: [u32; 2],
    /// Table row (OP2, OP3 or LDS).
    pub op: &'static Op,
    /// Literal use of each source.
    pub lits: [LitRef; 3],
    /// Source text of each source (for diagnostics); empty if absent.
    pub src_at: [&'a str; 3],
    /// `NOT_LAST`: the group ends here without the LAST bit (a cut group).
    pub not_last: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Op2,
    Op3,
    Lds,
}

/// Which slot letter: `x`…`w`.
pub fn slot_of(t: &str) -> Option<u32> {
    if t.len() == 1 {
        chan_of(t.as_bytes()[0])
    } else {
        None
    }
}

fn index_mode<'a>(t: &'a str) -> PResult<'a, u32> {
    Ok(match t {
        "AR.x" => 0,
        "AR.y" | "IM1" => 1,
        "AR.z" | "IM2" => 2,
        "AR.w" | "IM3" => 3,
        "AL" => 4,
        "GLOBAL" => 5,
        "GLOBAL+AR.x" => 6,
        "IM7" => 7,
        _ => return err(t, format!("unknown relative index '{t}'")),
    })
}

/// Parse `[mode]` and `.c` after an operand's base; returns (rel mode, chan).
fn suffix<'a>(s: &'a str) -> PResult<'a, (Option<u32>, Option<u32>)> {
    let mut s = s;
    let mut rel = None;
    if let Some(r) = s.strip_prefix('[') {
        let Some(e) = r.find(']') else {
            return err(s, "missing ']'");
        };
        rel = Some(index_mode(&r[..e])?);
        s = &r[e + 1..];
    }
    if s.is_empty() {
        return Ok((rel, None));
    }
    match s.strip_prefix('.') {
        Some(c) if c.len() == 1 => match chan_of(c.as_bytes()[0]) {
            Some(v) => Ok((rel, Some(v))),
            None => err(c, "channel must be x, y, z or w"),
        },
        _ => err(s, format!("unexpected '{s}' after operand")),
    }
}

/// A parsed source before it is stored.
struct SrcOut {
    sel: u32,
    rel: Option<u32>,
    chan: u32,
    neg: bool,
    abs: bool,
    lit: LitRef,
}

fn special_names() -> impl Iterator<Item = (u32, &'static str)> {
    (192..=255u32)
        .filter(|&s| s != 253 && s != 254)
        .filter_map(|s| special_src_name(s).map(|n| (s, n)))
}

fn digits(s: &str) -> usize {
    s.bytes().take_while(|c| c.is_ascii_digit()).count()
}

fn src_body<'a>(t: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, SrcOut> {
    let mut o = SrcOut {
        sel: 0,
        rel: None,
        chan: 0,
        neg: false,
        abs: false,
        lit: LitRef::None,
    };
    let set = |o: &mut SrcOut, s: &'a str| -> PResult<'a, ()> {
        let (rel, chan) = suffix(s)?;
        o.rel = rel;
        o.chan = chan.unwrap_or(0);
        Ok(())
    };
    let b = t.as_bytes();
    if let Some(r) = t.strip_prefix("NEG(1)") {
        o.sel = 250;
        o.neg = true;
        set(&mut o, r)?;
        return Ok(o);
    }
    if b.len() > 1 && (b[0] == b'R' || b[0] == b'r') && b[1].is_ascii_digit() {
        let d = 1 + digits(&t[1..]);
        o.sel = gpr(&t[..d])?;
        set(&mut o, &t[d..])?;
        return Ok(o);
    }
    if let Some(r) = t.strip_prefix("KC") {
        let bank = r
            .bytes()
            .next()
            .and_then(|c| c.checked_sub(b'0'))
            .unwrap_or(9);
        if bank > 3 || !r[1..].starts_with('[') {
            return err(t, "expected KC0[n]..KC3[n]");
        }
        let inner = &r[2..];
        let Some(e) = inner.find(']') else {
            return err(t, "missing ']'");
        };
        let idx = n.num(&inner[..e])?;
        if !(0..32).contains(&idx) {
            return err(&inner[..e], "kcache index must be 0..=31");
        }
        o.sel = [128, 160, 256, 288][bank as usize] + idx as u32;
        set(&mut o, &inner[e + 1..])?;
        return Ok(o);
    }
    if t.starts_with('(') {
        // literal: (VALUE[, float view]) — find the matching ')'
        let mut depth = 0;
        let mut end = None;
        for (i, c) in b.iter().enumerate() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(e) = end else {
            return err(t, "missing ')'");
        };
        let inner = &t[1..e];
        let vt = split_top(inner, b',').first().copied().unwrap_or(inner);
        let v = match float_bits(vt) {
            Some(b) => b as i64,
            None => n.num(vt)?,
        };
        if v < i32::MIN as i64 || v > u32::MAX as i64 {
            return err(vt, "literal does not fit 32 bits");
        }
        o.sel = risa_cayman::print::SRC_LITERAL;
        let (rel, chan) = suffix(&t[e + 1..])?;
        o.rel = rel;
        match chan {
            Some(c) => {
                o.chan = c;
                o.lit = LitRef::Known {
                    chan: c,
                    value: v as u32,
                };
            }
            None => o.lit = LitRef::Auto { value: v as u32 },
        }
        return Ok(o);
    }
    if let Some(r) = t.strip_prefix("literal") {
        o.sel = risa_cayman::print::SRC_LITERAL;
        o.lit = LitRef::Unknown;
        set(&mut o, r)?;
        return Ok(o);
    }
    if let Some(r) = t.strip_prefix("PV") {
        if r.is_empty() || r.starts_with('.') || r.starts_with('[') {
            o.sel = 254;
            set(&mut o, r)?;
            return Ok(o);
        }
    }
    if let Some(r) = t.strip_prefix("SRC") {
        let d = digits(r);
        if d > 0 {
            let v: u32 = r[..d].parse().unwrap_or(u32::MAX);
            if v > 511 {
                return err(t, "source select must be 0..=511");
            }
            o.sel = v;
            set(&mut o, &r[d..])?;
            return Ok(o);
        }
    }
    // named special selects: longest name that parses
    let mut cands: Vec<(u32, &str)> = special_names()
        .filter(|(_, nm)| t.starts_with(nm))
        .collect();
    cands.sort_by_key(|(_, nm)| std::cmp::Reverse(nm.len()));
    let mut first_err = None;
    for (sel, nm) in cands {
        match suffix(&t[nm.len()..]) {
            Ok((rel, chan)) => {
                o.sel = sel;
                o.rel = rel;
                o.chan = chan.unwrap_or(0);
                return Ok(o);
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or(PErr {
        at: t,
        msg: format!("unknown ALU source '{t}'"),
    }))
}

/// A float literal (`1.5`, `-2e-3`, `0.5f`) as its f32 bits; integers and
/// expressions are not floats.
fn float_bits(t: &str) -> Option<u32> {
    let t = t.trim();
    let body = t.strip_suffix('f').unwrap_or(t);
    let has_float_syntax = t.ends_with('f') || body.contains('.') || body.contains(['e', 'E']);
    if !has_float_syntax || body.starts_with("0x") || body.starts_with("0X") {
        return None;
    }
    if !body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+'))
    {
        return None;
    }
    body.parse::<f32>().ok().map(f32::to_bits)
}

fn src_abs<'a>(t: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, SrcOut> {
    if let Some(r) = t.strip_prefix('|') {
        let Some(inner) = r.strip_suffix('|') else {
            return err(t, "missing closing '|'");
        };
        let mut o = src_body(inner, n)?;
        o.abs = true;
        return Ok(o);
    }
    src_body(t, n)
}

fn parse_src<'a>(t: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, SrcOut> {
    match src_abs(t, n) {
        Ok(o) => Ok(o),
        Err(e) => match t.strip_prefix('-') {
            Some(r) if !r.is_empty() => {
                let mut o = src_abs(r, n)?;
                o.neg = true;
                Ok(o)
            }
            _ => Err(e),
        },
    }
}

/// The ALU instruction called `name`: an exact (upper-case) match through a
/// hash map built once, else a case-insensitive search of the tables.
fn alu_op(name: &str) -> Option<(Form, &'static Op)> {
    static MAP: OnceLock<HashMap<String, (Form, &'static Op)>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut m = HashMap::new();
        for o in ops::ALU_OP3 {
            m.insert(o.name.to_string(), (Form::Op3, o));
        }
        for o in ops::ALU_OP2 {
            m.insert(o.name.to_string(), (Form::Op2, o));
        }
        for o in ops::LDS_OPS {
            m.insert(format!("LDS_{}", o.name), (Form::Lds, o));
        }
        m
    });
    if let Some(&x) = map.get(name) {
        return Some(x);
    }
    if let Some(o) = name
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("LDS_"))
        .and_then(|_| ops::by_name(ops::LDS_OPS, &name[4..]))
    {
        return Some((Form::Lds, o));
    }
    ops::by_name(ops::ALU_OP2, name)
        .map(|o| (Form::Op2, o))
        .or_else(|| ops::by_name(ops::ALU_OP3, name).map(|o| (Form::Op3, o)))
}

/// Split `NAME dst, src, src MODS` into name, operands and modifiers.
fn split_inst(text: &str) -> (&str, Vec<&str>, Vec<&str>) {
    let text = text.trim();
    let ne = text
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(text.len());
    let name = &text[..ne];
    let rest = text[ne..].trim();
    let mut ops = split_top(rest, b',');
    let mut mods = Vec::new();
    if let Some(last) = ops.pop() {
        let mut w = split_ws(last);
        if !w.is_empty() {
            let first = w.remove(0);
            ops.push(first);
            mods = w;
        }
    }
    (name, ops, mods)
}

/// Parse one ALU instruction for slot `slot` (0..=3); `text` starts at the mnemonic.
pub fn parse_alu<'a>(
    slot: u32,
    text: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, AluLine<'a>> {
    let (name, opnds, mods) = split_inst(text);
    let Some((form, op)) = alu_op(name) else {
        return err(name, format!("unknown ALU instruction '{name}'"));
    };
    let mova = op.flags & ops::F_MOVA != 0;
    let mut w = [0u32; 2];
    match form {
        Form::Op2 => ALU_WORD1_OP2::ALU_INST.set(&mut w[1], op.code as u32),
        Form::Op3 => ALU_WORD1_OP3::ALU_INST.set(&mut w[1], op.code as u32),
        Form::Lds => {
            ALU_WORD1_LDS_IDX_OP::ALU_INST.set(&mut w[1], ops::OP3_LDS_IDX_OP);
            ALU_WORD1_LDS_IDX_OP::LDS_OP.set(&mut w[1], op.code as u32);
        }
    }
    ALU_WORD1_OP2::DST_CHAN.set(&mut w[1], slot);
    let mut im: Option<(u32, &str)> = None;
    let mut note_rel = |m: Option<u32>, at: &'a str| -> PResult<'a, bool> {
        match (m, im) {
            (None, _) => Ok(false),
            (Some(m), Some((prev, _))) if prev != m => err(
                at,
                "all relative operands of an instruction share one INDEX_MODE",
            ),
            (Some(m), _) => {
                im = Some((m, at));
                Ok(true)
            }
        }
    };
    let mut srcs: &[&str] = &opnds;
    if form != Form::Lds {
        let Some((&d, rest)) = opnds.split_first() else {
            return err(text, format!("{} needs a destination", op.name));
        };
        srcs = rest;
        let (masked, body) = if d == "____" {
            (true, None)
        } else if let Some(x) = d.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            (true, Some(x))
        } else {
            (false, Some(d))
        };
        if masked && form == Form::Op3 {
            return err(
                d,
                "three-source instructions always write their destination",
            );
        }
        // OP3 has no WRITE_MASK bit (bit 4 belongs to SRC2_SEL)
        if !masked && form != Form::Op3 {
            ALU_WORD1_OP2::WRITE_MASK.set(&mut w[1], 1);
        }
        if let Some(body) = body {
            let dot = body.rfind('.').unwrap_or(body.len());
            let (base, ch) = (&body[..dot], &body[dot..]);
            let (base, rel) = match base.find('[') {
                Some(p) => {
                    let Some(m) = base[p + 1..].strip_suffix(']') else {
                        return err(base, "missing ']'");
                    };
                    (&base[..p], Some(index_mode(m)?))
                }
                None => (base, None),
            };
            let g = if mova {
                match base {
                    "AR" => 0,
                    "CF_PC" => 1,
                    "CF_IDX0" => 2,
                    "CF_IDX1" => 3,
                    "CLAUSE_GLOBAL0" => 4,
                    "CLAUSE_GLOBAL1" => 5,
                    "CLAUSE_GLOBAL2" => 6,
                    "CLAUSE_GLOBAL3" => 7,
                    _ => match base.strip_prefix("MOVA_DST").and_then(parse_int) {
                        Some(v) if (0..128).contains(&v) => v as u32,
                        _ => {
                            return err(
                                base,
                                "MOVA_INT writes AR, CF_PC, CF_IDX0/1 or CLAUSE_GLOBAL0-3",
                            )
                        }
                    },
                }
            } else {
                gpr(base)?
            };
            ALU_WORD1_OP2::DST_GPR.set(&mut w[1], g);
            if note_rel(rel, d)? {
                ALU_WORD1_OP2::DST_REL.set(&mut w[1], 1);
            }
            match ch.strip_prefix('.').map(str::as_bytes) {
                Some([c]) if chan_of(*c) == Some(slot) => {}
                Some([c]) if chan_of(*c).is_some() => {
                    return err(ch, "the destination channel is the slot: they must agree")
                }
                _ => return err(d, "expected destination Rn.c"),
            }
        }
    }
    let nslots = if form == Form::Op2 { 2 } else { 3 };
    if srcs.len() > nslots {
        return err(
            srcs[nslots],
            format!("{} has at most {nslots} source fields", op.name),
        );
    }
    let mut lits = [LitRef::None; 3];
    let mut src_at = [""; 3];
    for (k, &t) in srcs.iter().enumerate() {
        let s = parse_src(t, n)?;
        src_at[k] = t;
        lits[k] = s.lit;
        if s.abs && form != Form::Op2 {
            return err(t, "only two-source (OP2) instructions have ABS");
        }
        if s.neg && form == Form::Lds {
            return err(t, "LDS instructions have no NEG");
        }
        let rel = note_rel(s.rel, t)? as u32;
        let (sel_f, rel_f, chan_f, w_idx) = match k {
            0 => (
                ALU_WORD0::SRC0_SEL,
                ALU_WORD0::SRC0_REL,
                ALU_WORD0::SRC0_CHAN,
                0,
            ),
            1 => (
                ALU_WORD0::SRC1_SEL,
                ALU_WORD0::SRC1_REL,
                ALU_WORD0::SRC1_CHAN,
                0,
            ),
            _ => (
                ALU_WORD1_OP3::SRC2_SEL,
                ALU_WORD1_OP3::SRC2_REL,
                ALU_WORD1_OP3::SRC2_CHAN,
                1,
            ),
        };
        sel_f.set(&mut w[w_idx], s.sel);
        rel_f.set(&mut w[w_idx], rel);
        chan_f.set(&mut w[w_idx], s.chan);
        if s.neg {
            match k {
                0 => ALU_WORD0::SRC0_NEG.set(&mut w[0], 1),
                1 => ALU_WORD0::SRC1_NEG.set(&mut w[0], 1),
                _ => ALU_WORD1_OP3::SRC2_NEG.set(&mut w[1], 1),
            }
        }
        if s.abs {
            match k {
                0 => ALU_WORD1_OP2::SRC0_ABS.set(&mut w[1], 1),
                _ => ALU_WORD1_OP2::SRC1_ABS.set(&mut w[1], 1),
            }
        }
    }
    let mut explicit_im = None;
    let mut not_last = false;
    for &m in &mods {
        let op2 = form == Form::Op2;
        match m {
            "UPDATE_EXEC_MASK" if op2 => ALU_WORD1_OP2::UPDATE_EXEC_MASK.set(&mut w[1], 1),
            "UPDATE_PRED" if op2 => ALU_WORD1_OP2::UPDATE_PRED.set(&mut w[1], 1),
            "MUL2" if op2 => ALU_WORD1_OP2::OMOD.set(&mut w[1], 1),
            "MUL4" if op2 => ALU_WORD1_OP2::OMOD.set(&mut w[1], 2),
            "DIV2" if op2 => ALU_WORD1_OP2::OMOD.set(&mut w[1], 3),
            "CLAMP" if form != Form::Lds => ALU_WORD1_OP2::CLAMP.set(&mut w[1], 1),
            "PRED_SEL_ZERO" => ALU_WORD0::PRED_SEL.set(&mut w[0], 2),
            "PRED_SEL_ONE" => ALU_WORD0::PRED_SEL.set(&mut w[0], 3),
            "VEC_012" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 0),
            "VEC_021" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 1),
            "VEC_120" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 2),
            "VEC_102" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 3),
            "VEC_201" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 4),
            "VEC_210" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 5),
            "BS6" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 6),
            "BS7" => ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], 7),
            "NOT_LAST" => not_last = true,
            _ => {
                if let (Some(a), true) = (call(m, "EXECUTE_MASK_OP"), op2) {
                    setn(n, &mut w[1], ALU_WORD1_OP2_EXECUTE_MASK::EXECUTE_MASK_OP, a)?;
                } else if let Some(a) = call(m, "PRED_SEL") {
                    setn(n, &mut w[0], ALU_WORD0::PRED_SEL, a)?;
                } else if let Some(a) = call(m, "INDEX_MODE") {
                    let v = n.num(a)?;
                    if !(0..8).contains(&v) {
                        return err(a, "INDEX_MODE is 0..=7");
                    }
                    explicit_im = Some((v as u32, a));
                } else if let (Some(a), Form::Lds) = (call(m, "OFFSET"), form) {
                    let v = n.num(a)?;
                    if !(0..64).contains(&v) {
                        return err(a, "LDS OFFSET is 0..=63");
                    }
                    let v = v as u32;
                    use ALU_WORD0_LDS_IDX_OP as A;
                    use ALU_WORD1_LDS_IDX_OP as B;
                    B::IDX_OFFSET_0.set(&mut w[1], v & 1);
                    B::IDX_OFFSET_1.set(&mut w[1], (v >> 1) & 1);
                    B::IDX_OFFSET_2.set(&mut w[1], (v >> 2) & 1);
                    B::IDX_OFFSET_3.set(&mut w[1], (v >> 3) & 1);
                    A::IDX_OFFSET_4.set(&mut w[0], (v >> 4) & 1);
                    A::IDX_OFFSET_5.set(&mut w[0], (v >> 5) & 1);
                } else {
                    return err(m, format!("unknown modifier '{m}' for {}", op.name));
                }
            }
        }
    }
    match (im, explicit_im) {
        (Some((a, _)), Some((b, at))) if a != b => {
            return err(at, "INDEX_MODE disagrees with the relative operands")
        }
        (Some((a, _)), _) | (None, Some((a, _))) => ALU_WORD0::INDEX_MODE.set(&mut w[0], a),
        (None, None) => {}
    }
    Ok(AluLine {
        words: w,
        op,
        lits,
        src_at,
        not_last,
    })
}

/// Parse the words of a `LITERALS 0x… 0x…` line (`text` after the keyword).
pub fn parse_literals<'a>(text: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, Vec<u32>> {
    let mut v = Vec::new();
    for t in split_ws(text) {
        let x = n.num(t)?;
        if x < i32::MIN as i64 || x > u32::MAX as i64 {
            return err(t, "literal does not fit 32 bits");
        }
        v.push(x as u32);
    }
    // no dwords at all: a group whose literals the clause end cuts off
    if v.len() > 4 {
        return err(text, "LITERALS takes at most four dwords");
    }
    Ok(v)
}

/// Parse an `LDS_DIRECT A(…) B(…) …` line (`text` after the keyword) into
/// the literal dwords it stands for.
pub fn parse_lds_direct<'a>(text: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, Vec<u32>> {
    use ALU_WORD1_LDS_DIRECT_LITERAL_HI as H;
    use ALU_WORD1_LDS_DIRECT_LITERAL_LO as L;
    let mut lo = 0u32;
    let mut hi = 0u32;
    let mut extra = Vec::new();
    for t in split_ws(text) {
        let part = |a: &'a str,
                    w: &mut u32,
                    off: Field,
                    stride: Field,
                    rel: Field,
                    n: &mut dyn Numbers<'a>|
         -> PResult<'a, ()> {
            for p in split_ws(a) {
                if let Some(x) = call(p, "OFFSET") {
                    setn(n, w, off, x)?;
                } else if let Some(x) = call(p, "STRIDE") {
                    setn(n, w, stride, x)?;
                } else if p == "THREAD_REL" {
                    rel.set(w, 1);
                } else {
                    return err(p, format!("unknown LDS_DIRECT field '{p}'"));
                }
            }
            Ok(())
        };
        if let Some(a) = call(t, "A") {
            part(a, &mut lo, L::OFFSET_A, L::STRIDE_A, L::THREAD_REL_A, n)?;
        } else if let Some(a) = call(t, "B") {
            part(a, &mut hi, H::OFFSET_B, H::STRIDE_B, H::THREAD_REL_B, n)?;
        } else if t == "DIRECT_READ_32" {
            H::DIRECT_READ_32.set(&mut hi, 1);
        } else if let Some(a) = call(t, "RSV") {
            let p = split_top(a, b',');
            if p.len() != 2 {
                return err(a, "RSV takes two values");
            }
            let masks = [reserved_mask(&L::FORMAT), reserved_mask(&H::FORMAT)];
            for (k, x) in p.iter().enumerate() {
                let v = n.num(x)? as u32;
                if v & !masks[k] != 0 {
                    return err(x, "RSV sets bits outside the reserved bits");
                }
                if k == 0 {
                    lo |= v;
                } else {
                    hi |= v;
                }
            }
        } else {
            let v = n.num(t)?;
            extra.push(v as u32);
        }
    }
    let mut v = vec![lo, hi];
    v.extend(extra);
    if v.len() > 4 {
        return err(text, "at most four literal dwords");
    }
    Ok(v)
}
