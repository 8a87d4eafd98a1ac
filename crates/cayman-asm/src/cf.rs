//! CF lines: `NAME: fields` (see docs/cayman-syntax.md), the inverse of
//! `risa_cayman::print::print_cf`.

use crate::text::*;
use risa_cayman::codec::reserved_mask;
use risa_cayman::fields::*;
use risa_cayman::ops::{self, Op};
use std::collections::HashSet;
use std::sync::OnceLock;

/// The CF_INST value of GLOBAL_WAVE_SYNC.
const CF_GLOBAL_WAVE_SYNC: u32 = 30;

/// What kind of clause a CF instruction starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// An ALU clause (CF_ALU_WORD*); ADDR/CNT in 64-bit slots.
    Alu,
    /// A fetch clause through the texture cache (TC, TC_ACK): 128-bit instructions.
    Tc,
    /// A GDS clause: 128-bit instructions.
    Gds,
}

/// A parsed CF line.
#[derive(Clone, Debug)]
pub struct CfLine<'a> {
    /// The two dwords; ADDR and COUNT are filled only when given as numbers
    /// (`addr` is `None`) and by the layout otherwise.
    pub words: [u32; 2],
    /// Table row.
    pub op: &'static Op,
    /// The clause this instruction starts, if any.
    pub clause: Option<ClauseKind>,
    /// `ADDR(…)` text, if written (not yet evaluated).
    pub addr: Option<&'a str>,
    /// `CNT(n)` (clause length) if written, with its text.
    pub cnt: Option<(u32, &'a str)>,
    /// The ADDR field (where the layout stores the address).
    pub addr_field: Option<Field>,
}

/// Is `name` the name of a CF instruction? CF names are matched in upper
/// case only, so that `END:` is the instruction and `end:` or
/// `loop_break:` stay labels.
pub fn is_cf_name(name: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            [ops::CF_ALU_OPS, ops::EXPORT_OPS, ops::GWS_OPS, ops::CF_OPS]
                .iter()
                .flat_map(|t| t.iter().map(|o| o.name))
                .collect()
        })
        .contains(name)
}

/// If `text` starts a CF line (`NAME:` or `NAME RATOP:`), return the head
/// (text before the colon) and the rest after it.
pub fn split_cf_head(text: &str) -> Option<(&str, &str)> {
    let colon = text.find(':')?;
    let head = text[..colon].trim_end();
    if text[colon + 1..].starts_with(':') {
        return None;
    }
    let first = head.split_whitespace().next()?;
    if !is_cf_name(first) || head.split_whitespace().count() > 2 {
        return None;
    }
    Some((head, &text[colon + 1..]))
}

fn cond<'a>(n: &mut dyn Numbers<'a>, a: &'a str) -> PResult<'a, i64> {
    Ok(match a {
        "ACTIVE" => 0,
        "FALSE" => 1,
        "BOOL" => 2,
        "NOT_BOOL" => 3,
        _ => n.num(a)?,
    })
}

fn rsv<'a>(
    n: &mut dyn Numbers<'a>,
    words: &mut [u32],
    masks: &[u32],
    args: &'a str,
) -> PResult<'a, ()> {
    let parts = split_top(args, b',');
    if parts.len() > words.len() {
        return err(args, format!("RSV takes {} values", words.len()));
    }
    for (k, p) in parts.iter().enumerate() {
        let v = n.num(p)?;
        if v < 0 || v > u32::MAX as i64 {
            return err(p, "reserved-bits value must be a 32-bit number");
        }
        let v = v as u32;
        if v & !masks[k] != 0 {
            return err(
                p,
                format!(
                    "RSV value 0x{v:08x} sets bits outside the reserved bits 0x{:08x}",
                    masks[k]
                ),
            );
        }
        words[k] |= v;
    }
    Ok(())
}

/// Parse one CF line; `text` is the whole line after the CF index.
pub fn parse_cf<'a>(text: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, CfLine<'a>> {
    let Some((head, rest)) = split_cf_head(text) else {
        return err(text, "expected a CF instruction 'NAME: fields'");
    };
    let mut names = head.split_whitespace();
    let name = names.next().unwrap_or(head);
    let sub = names.next();
    let toks = split_ws(rest);
    if let Some(op) = ops::by_name(ops::CF_ALU_OPS, name) {
        if let Some(s) = sub {
            return err(s, "unexpected word before ':'");
        }
        return parse_alu_cf(op, &toks, n);
    }
    if let Some(op) = ops::by_name(ops::EXPORT_OPS, name) {
        return parse_export(op, sub, head, &toks, n);
    }
    if let Some(s) = sub {
        return err(s, "unexpected word before ':'");
    }
    if let Some(op) = ops::by_name(ops::GWS_OPS, name) {
        return parse_gws(op, &toks, n);
    }
    let op = ops::by_name(ops::CF_OPS, name).ok_or_else(|| PErr {
        at: name,
        msg: format!("unknown CF instruction '{name}'"),
    })?;
    if op.code as u32 == CF_GLOBAL_WAVE_SYNC {
        return err(
            name,
            "write GLOBAL_WAVE_SYNC as GWS_SEMA_V/P, GWS_BARRIER or GWS_INIT",
        );
    }
    use CF_WORD0 as A;
    use CF_WORD1 as B;
    let mut w = [0u32; 2];
    B::CF_INST.set(&mut w[1], op.code as u32);
    let clause = if op.flags & ops::F_TC != 0 {
        Some(ClauseKind::Tc)
    } else if op.flags & ops::F_GDS != 0 {
        Some(ClauseKind::Gds)
    } else {
        None
    };
    let mut line = CfLine {
        words: w,
        op,
        clause,
        addr: None,
        cnt: None,
        addr_field: Some(A::ADDR),
    };
    for &t in &toks {
        if let Some(a) = call(t, "ADDR") {
            line.addr = Some(a);
        } else if let Some(a) = call(t, "CNT") {
            if clause.is_none() {
                return err(t, "CNT is for clause instructions; use COUNT(n)");
            }
            let v = n.num(a)?;
            if !(1..=64).contains(&v) {
                return err(a, "CNT must be 1..=64 instructions");
            }
            line.cnt = Some((v as u32, a));
        } else if !common_word1(t, &mut line.words[1], clause.is_some(), n)? {
            if let Some(a) = call(t, "JTS") {
                setn(n, &mut line.words[0], A::JUMPTABLE_SEL, a)?;
            } else if let Some(a) = call(t, "RSV") {
                rsv(
                    n,
                    &mut line.words,
                    &[reserved_mask(&A::FORMAT), reserved_mask(&B::FORMAT)],
                    a,
                )?;
            } else {
                return err(t, format!("unknown field '{t}' for {}", op.name));
            }
        }
    }
    Ok(line)
}

/// CF_WORD1 fields shared by the CF and GWS forms; false if `t` is none of them.
fn common_word1<'a>(
    t: &'a str,
    w1: &mut u32,
    clause: bool,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, bool> {
    use CF_WORD1 as B;
    if let Some(a) = call(t, "POP_CNT") {
        setn(n, w1, B::POP_COUNT, a)?;
    } else if let Some(a) = call(t, "CF_CONST") {
        setn(n, w1, B::CF_CONST, a)?;
    } else if let Some(a) = call(t, "COND") {
        let v = cond(n, a)?;
        setf(w1, B::COND, v, a)?;
    } else if let (Some(a), false) = (call(t, "COUNT"), clause) {
        setn(n, w1, B::COUNT, a)?;
    } else if t == "VPM" {
        B::VALID_PIXEL_MODE.set(w1, 1);
    } else if t == "BARRIER" {
        B::BARRIER.set(w1, 1);
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn parse_gws<'a>(
    op: &'static Op,
    toks: &[&'a str],
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, CfLine<'a>> {
    use CF_GWS_WORD0 as G;
    let mut w = [0u32; 2];
    CF_WORD1::CF_INST.set(&mut w[1], CF_GLOBAL_WAVE_SYNC);
    G::GWS_OPCODE.set(&mut w[0], op.code as u32);
    for &t in toks {
        if let Some(a) = call(t, "VALUE") {
            setn(n, &mut w[0], G::VALUE, a)?;
        } else if let Some(a) = call(t, "RESOURCE") {
            setn(n, &mut w[0], G::RESOURCE, a)?;
        } else if t == "SIGN" {
            G::SIGN.set(&mut w[0], 1);
        } else if let Some(a) = call(t, "VIM") {
            setn(n, &mut w[0], G::VAL_INDEX_MODE, a)?;
        } else if let Some(a) = call(t, "RIM") {
            setn(n, &mut w[0], G::RSRC_INDEX_MODE, a)?;
        } else if let Some(a) = call(t, "RSV") {
            rsv(
                n,
                &mut w,
                &[reserved_mask(&G::FORMAT), reserved_mask(&CF_WORD1::FORMAT)],
                a,
            )?;
        } else if !common_word1(t, &mut w[1], false, n)? {
            return err(t, format!("unknown field '{t}' for {}", op.name));
        }
    }
    Ok(CfLine {
        words: w,
        op,
        clause: None,
        addr: None,
        cnt: None,
        addr_field: None,
    })
}

/// `CBb:lo-hi`, `CBb:lo-hi+AL`, `CBb:lo NOP` → (bank, mode, addr).
fn kcache<'a>(a: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, (i64, u32, i64)> {
    let Some(r) = a.strip_prefix("CB") else {
        return err(a, "expected CBbank:first-last");
    };
    let Some(colon) = r.find(':') else {
        return err(a, "expected CBbank:first-last");
    };
    let bank = n.num(&r[..colon])?;
    let range = r[colon + 1..].trim();
    let (lo_t, mode, hi_t) = if let Some(lo) = range.strip_suffix(" NOP") {
        (lo.trim(), 0, None)
    } else {
        let (range, al) = match range.strip_suffix("+AL") {
            Some(x) => (x, true),
            None => (range, false),
        };
        let Some(dash) = range.find('-') else {
            return err(range, "expected first-last constant range");
        };
        (
            &range[..dash],
            if al { 3 } else { 1 },
            Some(&range[dash + 1..]),
        )
    };
    let lo = n.num(lo_t)?;
    if lo < 0 || lo % 16 != 0 {
        return err(lo_t, "a kcache window starts at a multiple of 16");
    }
    let mut mode = mode;
    if let Some(h) = hi_t {
        let hi = n.num(h)?;
        match (hi - lo + 1, mode) {
            (16, 1) => {}
            (32, 1) => mode = 2,
            (32, 3) => {}
            _ => {
                return err(
                    h,
                    "a kcache window is 16 or 32 constants (+AL windows are 32)",
                )
            }
        }
    }
    Ok((bank, mode, lo / 16))
}

fn parse_alu_cf<'a>(
    op: &'static Op,
    toks: &[&'a str],
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, CfLine<'a>> {
    let mut w = [0u32; 2];
    if op.flags & ops::F_EXT != 0 {
        use CF_ALU_WORD0_EXT as A;
        use CF_ALU_WORD1_EXT as B;
        B::CF_INST.set(&mut w[1], op.code as u32);
        for &t in toks {
            if let Some(a) = call(t, "KCACHE_INDEX_MODE") {
                let p = split_top(a, b',');
                if p.len() != 4 {
                    return err(a, "KCACHE_INDEX_MODE takes four values");
                }
                let f = [
                    A::KCACHE_BANK_INDEX_MODE0,
                    A::KCACHE_BANK_INDEX_MODE1,
                    A::KCACHE_BANK_INDEX_MODE2,
                    A::KCACHE_BANK_INDEX_MODE3,
                ];
                for (x, fld) in p.iter().zip(f) {
                    setn(n, &mut w[0], fld, x)?;
                }
            } else if let Some(a) = call(t, "KCACHE2") {
                let (b, m, ad) = kcache(a, n)?;
                setf(&mut w[0], A::KCACHE_BANK2, b, a)?;
                A::KCACHE_MODE2.set(&mut w[0], m);
                setf(&mut w[1], B::KCACHE_ADDR2, ad, a)?;
            } else if let Some(a) = call(t, "KCACHE3") {
                let (b, m, ad) = kcache(a, n)?;
                setf(&mut w[0], A::KCACHE_BANK3, b, a)?;
                B::KCACHE_MODE3.set(&mut w[1], m);
                setf(&mut w[1], B::KCACHE_ADDR3, ad, a)?;
            } else if t == "BARRIER" {
                B::BARRIER.set(&mut w[1], 1);
            } else if let Some(a) = call(t, "RSV") {
                rsv(
                    n,
                    &mut w,
                    &[reserved_mask(&A::FORMAT), reserved_mask(&B::FORMAT)],
                    a,
                )?;
            } else {
                return err(t, format!("unknown field '{t}' for {}", op.name));
            }
        }
        return Ok(CfLine {
            words: w,
            op,
            clause: None,
            addr: None,
            cnt: None,
            addr_field: None,
        });
    }
    use CF_ALU_WORD0 as A;
    use CF_ALU_WORD1 as B;
    B::CF_INST.set(&mut w[1], op.code as u32);
    let mut line = CfLine {
        words: w,
        op,
        clause: Some(ClauseKind::Alu),
        addr: None,
        cnt: None,
        addr_field: Some(A::ADDR),
    };
    let w = &mut line.words;
    for &t in toks {
        if let Some(a) = call(t, "ADDR") {
            line.addr = Some(a);
        } else if let Some(a) = call(t, "CNT") {
            let v = n.num(a)?;
            if !(1..=128).contains(&v) {
                return err(a, "CNT must be 1..=128 slots");
            }
            line.cnt = Some((v as u32, a));
        } else if let Some(a) = call(t, "KCACHE0") {
            let (b, m, ad) = kcache(a, n)?;
            setf(&mut w[0], A::KCACHE_BANK0, b, a)?;
            A::KCACHE_MODE0.set(&mut w[0], m);
            setf(&mut w[1], B::KCACHE_ADDR0, ad, a)?;
        } else if let Some(a) = call(t, "KCACHE1") {
            let (b, m, ad) = kcache(a, n)?;
            setf(&mut w[0], A::KCACHE_BANK1, b, a)?;
            B::KCACHE_MODE1.set(&mut w[1], m);
            setf(&mut w[1], B::KCACHE_ADDR1, ad, a)?;
        } else if t == "ALT_CONST" {
            B::ALT_CONST.set(&mut w[1], 1);
        } else if t == "WQM" {
            B::WHOLE_QUAD_MODE.set(&mut w[1], 1);
        } else if t == "BARRIER" {
            B::BARRIER.set(&mut w[1], 1);
        } else {
            return err(t, format!("unknown field '{t}' for {}", op.name));
        }
    }
    Ok(line)
}

fn parse_export<'a>(
    op: &'static Op,
    sub: Option<&'a str>,
    head: &'a str,
    toks: &[&'a str],
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, CfLine<'a>> {
    use CF_ALLOC_EXPORT_WORD0 as E;
    use CF_ALLOC_EXPORT_WORD0_RAT as R;
    use CF_ALLOC_EXPORT_WORD1_BUF as B;
    use CF_ALLOC_EXPORT_WORD1_SWIZ as S;
    let rat = op.flags & ops::F_RAT != 0;
    let swiz = op.flags & ops::F_SWIZ != 0;
    let mut w = [0u32; 2];
    B::CF_INST.set(&mut w[1], op.code as u32);
    match (rat, sub) {
        (true, Some(s)) => {
            let r = ops::by_name(ops::RAT_OPS, s).ok_or_else(|| PErr {
                at: s,
                msg: format!("unknown RAT operation '{s}'"),
            })?;
            R::RAT_INST.set(&mut w[0], r.code as u32);
        }
        (true, None) => return err(head, "a RAT export needs its operation (e.g. STORE_DWORD)"),
        (false, Some(s)) => return err(s, "unexpected word before ':'"),
        (false, None) => {}
    }
    let mut typed = false;
    let mut data = false;
    for &t0 in toks {
        let t = t0.strip_suffix(',').unwrap_or(t0);
        let ty = if swiz {
            ["PIXEL", "POS", "PARAM", "TYPE3"]
                .iter()
                .position(|x| *x == t)
        } else {
            ["WRITE", "WRITE_IND", "WRITE_ACK", "WRITE_IND_ACK"]
                .iter()
                .position(|x| *x == t)
        };
        if let Some(ty) = ty {
            E::TYPE.set(&mut w[0], ty as u32);
            typed = true;
        } else if let (Some(a), true) = (call(t, "RAT"), rat) {
            setn(n, &mut w[0], R::RAT_ID, a)?;
        } else if let (Some(a), true) = (call(t, "RIM"), rat) {
            setn(n, &mut w[0], R::RAT_INDEX_MODE, a)?;
        } else if let (Some(a), false) = (call(t, "ARRAY_BASE"), rat) {
            setn(n, &mut w[0], E::ARRAY_BASE, a)?;
        } else if let Some(g) = t.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            E::INDEX_GPR.set(&mut w[0], gpr(g)?);
        } else if !data
            && t.len() > 1
            && t.as_bytes()[0] == b'R'
            && t.as_bytes()[1].is_ascii_digit()
        {
            let Some(dot) = t.rfind('.') else {
                return err(t, "expected Rn.mask");
            };
            let (g, rel) = gpr_rel(&t[..dot])?;
            E::RW_GPR.set(&mut w[0], g);
            E::RW_REL.set(&mut w[0], rel as u32);
            let m = &t[dot + 1..];
            if m.len() != 4 {
                return err(m, "expected four mask characters");
            }
            let mb = m.as_bytes();
            if swiz {
                for (k, f) in [S::SEL_X, S::SEL_Y, S::SEL_Z, S::SEL_W].iter().enumerate() {
                    let v = sel_of(mb[k]).ok_or_else(|| PErr {
                        at: m,
                        msg: "select must be one of x y z w 0 1 ? _".into(),
                    })?;
                    f.set(&mut w[1], v);
                }
            } else {
                let mut cm = 0;
                for (k, c) in b"xyzw".iter().enumerate() {
                    if mb[k] == *c {
                        cm |= 1 << k;
                    } else if mb[k] != b'_' {
                        return err(
                            m,
                            "write mask is x y z w in order, '_' for skipped channels",
                        );
                    }
                }
                B::COMP_MASK.set(&mut w[1], cm);
            }
            data = true;
        } else if let (Some(a), false) = (call(t, "ARRAY_SIZE"), swiz) {
            setn(n, &mut w[1], B::ARRAY_SIZE, a)?;
        } else if let Some(a) = call(t, "ELEM_SIZE") {
            setn(n, &mut w[0], E::ELEM_SIZE, a)?;
        } else if let Some(a) = call(t, "BURST_COUNT") {
            setn(n, &mut w[1], B::BURST_COUNT, a)?;
        } else if t == "VPM" {
            B::VALID_PIXEL_MODE.set(&mut w[1], 1);
        } else if t == "MARK" {
            B::MARK.set(&mut w[1], 1);
        } else if t == "BARRIER" {
            B::BARRIER.set(&mut w[1], 1);
        } else if let Some(a) = call(t, "RSV") {
            let f0 = if rat { R::FORMAT } else { E::FORMAT };
            let f1 = if swiz { S::FORMAT } else { B::FORMAT };
            rsv(n, &mut w, &[reserved_mask(&f0), reserved_mask(&f1)], a)?;
        } else {
            return err(t, format!("unknown field '{t}' for {}", op.name));
        }
    }
    if !typed {
        return err(head, "missing export type (e.g. WRITE_IND, PIXEL)");
    }
    if !data {
        return err(head, "missing data register (e.g. R1.xyzw)");
    }
    Ok(CfLine {
        words: w,
        op,
        clause: None,
        addr: None,
        cnt: None,
        addr_field: None,
    })
}
