//! Fetch-clause and GDS-clause lines, the inverse of
//! `risa_cayman::print::print_fetch`.

use crate::text::*;
use risa_cayman::codec::{self, reserved_mask, FetchForm, FetchInst};
use risa_cayman::fields::*;
use risa_cayman::ops::{self, Op};
use risa_cayman::print::DATA_FORMATS;

/// Is `name` a fetch or GDS instruction mnemonic?
pub fn is_fetch_name(name: &str) -> bool {
    ops::by_name(ops::VTX_OPS, name).is_some()
        || ops::by_name(ops::TEX_OPS, name).is_some()
        || ops::by_name(ops::MEM_RD_OPS, name).is_some()
        || ops::by_name(ops::MEM_GDS_OPS, name).is_some()
}

/// A parsed fetch/GDS instruction: its four dwords and whether it belongs
/// in a GDS clause.
#[derive(Clone, Copy, Debug)]
pub struct FetchLine {
    /// The dwords (the fourth is padding).
    pub words: [u32; 4],
    /// Table row.
    pub op: &'static Op,
    /// A GDS-clause instruction (else a TC-clause one).
    pub gds: bool,
}

fn swz<'a>(w: &mut u32, fields: &[Field], s: &'a str) -> PResult<'a, ()> {
    if s.len() != fields.len() {
        return err(s, format!("expected {} swizzle characters", fields.len()));
    }
    for (f, c) in fields.iter().zip(s.bytes()) {
        let v = sel_of(c).ok_or_else(|| PErr {
            at: s,
            msg: "swizzle characters are x y z w 0 1 ? _".into(),
        })?;
        f.set(w, v);
    }
    Ok(())
}

/// `Rn[AL].sel` → (gpr, rel, sel text).
fn reg_sel<'a>(t: &'a str) -> PResult<'a, (u32, bool, &'a str)> {
    let Some(dot) = t.rfind('.') else {
        return err(t, "expected Rn.swizzle");
    };
    let (g, rel) = gpr_rel(&t[..dot])?;
    Ok((g, rel, &t[dot + 1..]))
}

/// `Rn[AL].swz` into the GPR, relative and swizzle fields of one dword.
fn reg_swz<'a>(w: &mut u32, gpr: Field, rel: Field, sel: &[Field], t: &'a str) -> PResult<'a, ()> {
    let (g, r, s) = reg_sel(t)?;
    gpr.set(w, g);
    rel.set(w, r as u32);
    swz(w, sel, s)
}

/// `Rn[AL].c` into the GPR, relative and channel fields of one dword.
fn reg_chan<'a>(w: &mut u32, gpr: Field, rel: Field, sel: Field, t: &'a str) -> PResult<'a, ()> {
    let (g, r, s) = reg_sel(t)?;
    gpr.set(w, g);
    rel.set(w, r as u32);
    sel.set(w, chan1(s)?);
    Ok(())
}

/// The `count` comma-separated operands of `rest` (the last one followed
/// by the modifiers), else an error showing `name`'s `usage`.
fn operands<'a>(
    text: &'a str,
    rest: &'a str,
    count: usize,
    name: &str,
    usage: &str,
) -> PResult<'a, Vec<&'a str>> {
    let opnds = split_top(rest, b',');
    if opnds.len() != count {
        return err(text, format!("expected {name} {usage}"));
    }
    Ok(opnds)
}

fn chan1<'a>(s: &'a str) -> PResult<'a, u32> {
    match s.as_bytes() {
        [c] => chan_of(*c).ok_or_else(|| PErr {
            at: s,
            msg: "channel must be x, y, z or w".into(),
        }),
        _ => err(s, "expected one channel letter"),
    }
}

fn data_format(t: &str) -> Option<u32> {
    DATA_FORMATS.iter().position(|f| *f == t).map(|v| v as u32)
}

/// Shared modifiers of the format-carrying forms (VTX and MEM_RD word 1).
fn fmt_mod<'a>(t: &'a str, w1: &mut u32, n: &mut dyn Numbers<'a>) -> PResult<'a, bool> {
    use VTX_WORD1_GPR as B;
    if let Some(f) = data_format(t) {
        B::DATA_FORMAT.set(w1, f);
    } else if t == "NUM_INT" {
        B::NUM_FORMAT_ALL.set(w1, 1);
    } else if t == "NUM_SCALED" {
        B::NUM_FORMAT_ALL.set(w1, 2);
    } else if let Some(a) = call(t, "NUM_FORMAT") {
        setn(n, w1, B::NUM_FORMAT_ALL, a)?;
    } else if t == "SIGNED" {
        B::FORMAT_COMP_ALL.set(w1, 1);
    } else if t == "SRF_NO_ZERO" {
        B::SRF_MODE_ALL.set(w1, 1);
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn endian<'a>(a: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, i64> {
    Ok(match a {
        "NONE" => 0,
        "8IN16" => 1,
        "8IN32" => 2,
        _ => n.num(a)?,
    })
}

fn rsv<'a>(
    w: &mut [u32; 4],
    fmts: &[WordFormat],
    a: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, ()> {
    let p = split_top(a, b',');
    if p.len() > 4 {
        return err(a, "RSV takes at most four values");
    }
    for (k, x) in p.iter().enumerate() {
        let v = n.num(x)?;
        if v < 0 || v > u32::MAX as i64 {
            return err(x, "reserved-bits value must be a 32-bit number");
        }
        let m = if k < 3 {
            reserved_mask(&fmts[k])
        } else {
            u32::MAX
        };
        if (v as u32) & !m != 0 {
            return err(
                x,
                format!("RSV value sets bits outside the reserved bits 0x{m:08x}"),
            );
        }
        w[k] |= v as u32;
    }
    Ok(())
}

/// The first word of `s` (the last operand) and the modifiers after it.
fn lead_word<'a>(s: &'a str, what: &str) -> PResult<'a, (&'a str, Vec<&'a str>)> {
    let mut toks = split_ws(s);
    if toks.is_empty() {
        return err(s, format!("expected {what}"));
    }
    let first = toks.remove(0);
    Ok((first, toks))
}

/// A modifier of a fetch form that only stores into one field of dword
/// `word`: a flag (`NAME`, the field set to 1) or a number (`NAME(n)`).
struct FieldMod {
    name: &'static str,
    word: usize,
    field: Field,
    number: bool,
}

const fn flag(name: &'static str, word: usize, field: Field) -> FieldMod {
    FieldMod {
        name,
        word,
        field,
        number: false,
    }
}

const fn number(name: &'static str, word: usize, field: Field) -> FieldMod {
    FieldMod {
        name,
        word,
        field,
        number: true,
    }
}

/// Reads the modifiers `toks` of instruction `name`: those of `fields`,
/// `RSV(..)` (the reserved bits of the dword formats `fmts`), and the rest
/// through `special` (false: not one of the form's).
fn modifiers<'a>(
    toks: &[&'a str],
    name: &str,
    fields: &[FieldMod],
    fmts: [WordFormat; 3],
    w: &mut [u32; 4],
    n: &mut dyn Numbers<'a>,
    mut special: impl FnMut(&'a str, &mut [u32; 4], &mut dyn Numbers<'a>) -> PResult<'a, bool>,
) -> PResult<'a, ()> {
    'toks: for &t in toks {
        for m in fields {
            if !m.number && t == m.name {
                m.field.set(&mut w[m.word], 1);
                continue 'toks;
            }
            if let Some(a) = call(t, m.name).filter(|_| m.number) {
                setn(n, &mut w[m.word], m.field, a)?;
                continue 'toks;
            }
        }
        if let Some(a) = call(t, "RSV") {
            rsv(w, &fmts, a, n)?;
        } else if !special(t, w, n)? {
            return err(t, format!("unknown modifier '{t}' for {name}"));
        }
    }
    Ok(())
}

/// Parse one fetch or GDS instruction; `text` starts at the mnemonic. The
/// text is read into a [`FetchInst`] (per form, below), which
/// [`codec::encode_fetch`] packs.
pub fn parse_fetch<'a>(text: &'a str, n: &mut dyn Numbers<'a>) -> PResult<'a, FetchLine> {
    let text = text.trim();
    let ne = text
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(text.len());
    let name = &text[..ne];
    let rest = text[ne..].trim();
    let (inst, gds) = if let Some(op) = ops::by_name(ops::VTX_OPS, name) {
        (parse_vtx(op, text, name, rest, n)?, false)
    } else if let Some(op) = ops::by_name(ops::TEX_OPS, name) {
        (parse_tex(op, text, name, rest, n)?, false)
    } else if let Some(op) = ops::by_name(ops::MEM_RD_OPS, name) {
        (parse_mem_rd(op, text, name, rest, n)?, false)
    } else if let Some(op) = ops::by_name(ops::MEM_GDS_OPS, name) {
        (parse_gds(op, text, name, rest, n)?, true)
    } else {
        return err(name, format!("unknown fetch instruction '{name}'"));
    };
    Ok(FetchLine {
        words: codec::encode_fetch(&inst),
        op: inst.op,
        gds,
    })
}

/// A VTX (vertex fetch) instruction: `rest` holds its operands and modifiers.
fn parse_vtx<'a>(
    op: &'static Op,
    text: &'a str,
    name: &'a str,
    rest: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, FetchInst> {
    let mut w = [0u32; 4];
    use VTX_WORD0 as A;
    use VTX_WORD1_GPR as B;
    use VTX_WORD2 as C;
    let sem = op.flags & ops::F_SEM != 0;
    A::VC_INST.set(&mut w[0], op.code as u32);
    let opnds = operands(text, rest, 3, name, "dst.swizzle, Rsrc.c, fcN [modifiers]")?;
    // destination
    let (dst, dsel) = match opnds[0].rfind('.') {
        Some(d) => (&opnds[0][..d], &opnds[0][d + 1..]),
        None => return err(opnds[0], "expected destination with swizzle"),
    };
    if sem {
        let Some(a) = call(dst, "SEM") else {
            return err(dst, "VFETCH_SEMANTIC writes SEM(id)");
        };
        setn(n, &mut w[1], VTX_WORD1_SEM::SEMANTIC_ID, a)?;
    } else {
        let (g, rel) = gpr_rel(dst)?;
        B::DST_GPR.set(&mut w[1], g);
        B::DST_REL.set(&mut w[1], rel as u32);
    }
    swz(
        &mut w[1],
        &[B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W],
        dsel,
    )?;
    reg_chan(&mut w[0], A::SRC_GPR, A::SRC_REL, A::SRC_SEL_X, opnds[1])?;
    let (fc, toks) = lead_word(opnds[2], "fcN (buffer id)")?;
    let Some(id) = fc.strip_prefix("fc") else {
        return err(fc, "expected fcN (buffer id)");
    };
    setn(n, &mut w[0], A::BUFFER_ID, id)?;
    let w1f = if sem {
        VTX_WORD1_SEM::FORMAT
    } else {
        B::FORMAT
    };
    const FIELDS: &[FieldMod] = &[
        flag("USE_CONST_FIELDS", 1, B::USE_CONST_FIELDS),
        number("OFFSET", 2, C::OFFSET),
        flag("CBNS", 2, C::CONST_BUF_NO_STRIDE),
        flag("ALT_CONST", 2, C::ALT_CONST),
        number("BIM", 2, C::BUFFER_INDEX_MODE),
        flag("FWQ", 0, A::FETCH_WHOLE_QUAD),
        number("STRUCTURED_READ", 0, A::STRUCTURED_READ),
        flag("LDS_REQ", 0, A::LDS_REQ),
        flag("COALESCED_READ", 0, A::COALESCED_READ),
    ];
    let fmts = [A::FORMAT, w1f, C::FORMAT];
    modifiers(&toks, name, FIELDS, fmts, &mut w, n, |t, w, n| {
        if fmt_mod(t, &mut w[1], n)? {
            return Ok(true);
        }
        if let Some(a) = call(t, "FETCH_TYPE") {
            let v = match a {
                "VERTEX_DATA" => 0,
                "INSTANCE_DATA" => 1,
                "NO_INDEX_OFFSET" => 2,
                _ => n.num(a)?,
            };
            setf(&mut w[0], A::FETCH_TYPE, v, a)?;
        } else if let Some(a) = call(t, "ENDIAN") {
            let v = endian(a, n)?;
            setf(&mut w[2], C::ENDIAN_SWAP, v, a)?;
        } else if let Some(a) = call(t, "SRC_SEL_Y") {
            A::SRC_SEL_Y.set(&mut w[0], chan1(a)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(FetchInst {
        words: w,
        form: if sem {
            FetchForm::VtxSem
        } else {
            FetchForm::Vtx
        },
        op,
        ds: None,
    })
}

/// A TEX (texture fetch) instruction: `rest` holds its operands and modifiers.
fn parse_tex<'a>(
    op: &'static Op,
    text: &'a str,
    name: &'a str,
    rest: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, FetchInst> {
    let mut w = [0u32; 4];
    use TEX_WORD0 as A;
    use TEX_WORD1 as B;
    use TEX_WORD2 as C;
    A::TEX_INST.set(&mut w[0], op.code as u32);
    let opnds = operands(
        text,
        rest,
        4,
        name,
        "Rdst.swz, Rsrc.swz, tN, sN [modifiers]",
    )?;
    let dst_sel = [B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W];
    reg_swz(&mut w[1], B::DST_GPR, B::DST_REL, &dst_sel, opnds[0])?;
    let (g, rel, s) = reg_sel(opnds[1])?;
    A::SRC_GPR.set(&mut w[0], g);
    A::SRC_REL.set(&mut w[0], rel as u32);
    swz(
        &mut w[2],
        &[C::SRC_SEL_X, C::SRC_SEL_Y, C::SRC_SEL_Z, C::SRC_SEL_W],
        s,
    )?;
    let Some(t) = opnds[2].strip_prefix('t') else {
        return err(opnds[2], "expected tN (resource id)");
    };
    setn(n, &mut w[0], A::RESOURCE_ID, t)?;
    let (sm, toks) = lead_word(opnds[3], "sN (sampler id)")?;
    let Some(sid) = sm.strip_prefix('s') else {
        return err(sm, "expected sN (sampler id)");
    };
    setn(n, &mut w[2], C::SAMPLER_ID, sid)?;
    const FIELDS: &[FieldMod] = &[
        number("LOD_BIAS", 1, B::LOD_BIAS),
        number("INST_MOD", 0, A::INST_MOD),
        flag("FWQ", 0, A::FETCH_WHOLE_QUAD),
        flag("ALT_CONST", 0, A::ALT_CONST),
        number("RIM", 0, A::RESOURCE_INDEX_MODE),
        number("SIM", 0, A::SAMPLER_INDEX_MODE),
    ];
    let fmts = [A::FORMAT, B::FORMAT, C::FORMAT];
    modifiers(&toks, name, FIELDS, fmts, &mut w, n, |t, w, n| {
        if let Some(a) = call(t, "OFFSET") {
            let p = split_top(a, b',');
            if p.len() != 3 {
                return err(a, "OFFSET(x,y,z)");
            }
            setn(n, &mut w[2], C::OFFSET_X, p[0])?;
            setn(n, &mut w[2], C::OFFSET_Y, p[1])?;
            setn(n, &mut w[2], C::OFFSET_Z, p[2])?;
        } else if let Some(a) = call(t, "NORM") {
            if a.len() != 4 {
                return err(a, "NORM(xyzw) with '_' for unnormalized");
            }
            let f = [
                B::COORD_TYPE_X,
                B::COORD_TYPE_Y,
                B::COORD_TYPE_Z,
                B::COORD_TYPE_W,
            ];
            for (k, c) in a.bytes().enumerate() {
                if c == b"xyzw"[k] {
                    f[k].set(&mut w[1], 1);
                } else if c != b'_' {
                    return err(a, "NORM(xyzw) with '_' for unnormalized");
                }
            }
        } else {
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(FetchInst {
        words: w,
        form: FetchForm::Tex,
        op,
        ds: None,
    })
}

/// A MEM_RD (memory read) instruction: `rest` holds its operands and modifiers.
fn parse_mem_rd<'a>(
    op: &'static Op,
    text: &'a str,
    name: &'a str,
    rest: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, FetchInst> {
    let mut w = [0u32; 4];
    use MEM_RD_WORD0 as A;
    use MEM_RD_WORD1 as B;
    use MEM_RD_WORD2 as C;
    A::MEM_INST.set(&mut w[0], ops::MEM_INST_MEM);
    A::MEM_OP.set(&mut w[0], op.code as u32);
    let opnds = operands(text, rest, 2, name, "Rdst.swz, Rsrc.c [modifiers]")?;
    let dst_sel = [B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W];
    reg_swz(&mut w[1], B::DST_GPR, B::DST_REL, &dst_sel, opnds[0])?;
    let (src, toks) = lead_word(opnds[1], "Rsrc.c")?;
    reg_chan(&mut w[0], A::SRC_GPR, A::SRC_REL, A::SRC_SEL_X, src)?;
    const FIELDS: &[FieldMod] = &[
        number("ARRAY_BASE", 2, C::ARRAY_BASE),
        number("ARRAY_SIZE", 2, C::ARRAY_SIZE),
        number("ELEM_SIZE", 0, A::ELEM_SIZE),
        number("BURST_COUNT", 0, A::BURST_COUNT),
        flag("UNCACHED", 0, A::UNCACHED),
        flag("INDEXED", 0, A::INDEXED),
        flag("FWQ", 0, A::FETCH_WHOLE_QUAD),
        flag("LDS_REQ", 0, A::LDS_REQ),
        flag("COALESCED_READ", 0, A::COALESCED_READ),
    ];
    let fmts = [A::FORMAT, B::FORMAT, C::FORMAT];
    modifiers(&toks, name, FIELDS, fmts, &mut w, n, |t, w, n| {
        if fmt_mod(t, &mut w[1], n)? {
            return Ok(true);
        }
        if let Some(a) = call(t, "ENDIAN") {
            let v = endian(a, n)?;
            setf(&mut w[2], C::ENDIAN_SWAP, v, a)?;
        } else if let Some(a) = call(t, "SRC_SEL_Y") {
            A::SRC_SEL_Y.set(&mut w[0], chan1(a)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(FetchInst {
        words: w,
        form: FetchForm::MemRd,
        op,
        ds: None,
    })
}

/// A MEM_GDS (global data share) instruction: `rest` holds its operands and modifiers.
fn parse_gds<'a>(
    op: &'static Op,
    text: &'a str,
    name: &'a str,
    rest: &'a str,
    n: &mut dyn Numbers<'a>,
) -> PResult<'a, FetchInst> {
    let mut w = [0u32; 4];
    use MEM_GDS_WORD0 as A;
    use MEM_GDS_WORD1 as B;
    use MEM_GDS_WORD2 as C;
    A::MEM_INST.set(&mut w[0], ops::MEM_INST_MEM);
    A::MEM_OP.set(&mut w[0], op.code as u32);
    let ne = rest
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let dsn = &rest[..ne];
    let ds = ops::by_name(ops::LDS_OPS, dsn).ok_or_else(|| PErr {
        at: dsn,
        msg: format!("unknown GDS operation '{dsn}'"),
    })?;
    B::GDS_OP.set(&mut w[1], ds.code as u32);
    let opnds = operands(
        text,
        &rest[ne..],
        3,
        name,
        "OP Rdst.swz, Rsrc.sss, Rsrc2 [modifiers]",
    )?;
    let (g, _rel, s) = reg_sel(opnds[0])?;
    B::DST_GPR.set(&mut w[1], g);
    swz(
        &mut w[2],
        &[C::DST_SEL_X, C::DST_SEL_Y, C::DST_SEL_Z, C::DST_SEL_W],
        s,
    )?;
    let (g, _rel, s) = reg_sel(opnds[1])?;
    A::SRC_GPR.set(&mut w[0], g);
    swz(&mut w[0], &[A::SRC_SEL_X, A::SRC_SEL_Y, A::SRC_SEL_Z], s)?;
    let (s2, toks) = lead_word(opnds[2], "Rsrc2")?;
    B::SRC_GPR.set(&mut w[1], gpr(s2)?);
    const FIELDS: &[FieldMod] = &[
        number("SRC_REL_MODE", 0, A::SRC_REL_MODE),
        number("DST_REL_MODE", 1, B::DST_REL_MODE),
        number("UAV_ID", 1, B::UAV_ID),
        number("UIM", 1, B::UAV_INDEX_MODE),
        flag("ALLOC_CONSUME", 1, B::ALLOC_CONSUME),
        flag("BCAST_FIRST_REQ", 1, B::BCAST_FIRST_REQ),
    ];
    let fmts = [A::FORMAT, B::FORMAT, C::FORMAT];
    modifiers(&toks, name, FIELDS, fmts, &mut w, n, |_, _, _| Ok(false))?;
    Ok(FetchInst {
        words: w,
        form: FetchForm::Gds,
        op,
        ds: Some(ds),
    })
}
