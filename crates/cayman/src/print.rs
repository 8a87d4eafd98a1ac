//! Printer: one line per CF instruction, ALU instruction or fetch, in a
//! layout modeled on AMD's shader-compiler ISA dumps (see docs/cayman-syntax.md).
//! Every field that differs from its default is printed, so the text is lossless.

use crate::codec::*;
use crate::fields::*;
use crate::ops;
use core::fmt::Write;

const CHAN: [char; 4] = ['x', 'y', 'z', 'w'];
const SEL: [char; 8] = ['x', 'y', 'z', 'w', '0', '1', '?', '_'];

/// Names of DATA_FORMAT values (VTX_WORD1_GPR page 9-52).
pub const DATA_FORMATS: [&str; 64] = [
    "FMT_INVALID",
    "FMT_8",
    "FMT_4_4",
    "FMT_3_3_2",
    "FMT_RESERVED_4",
    "FMT_16",
    "FMT_16_FLOAT",
    "FMT_8_8",
    "FMT_5_6_5",
    "FMT_6_5_5",
    "FMT_1_5_5_5",
    "FMT_4_4_4_4",
    "FMT_5_5_5_1",
    "FMT_32",
    "FMT_32_FLOAT",
    "FMT_16_16",
    "FMT_16_16_FLOAT",
    "FMT_8_24",
    "FMT_8_24_FLOAT",
    "FMT_24_8",
    "FMT_24_8_FLOAT",
    "FMT_10_11_11",
    "FMT_10_11_11_FLOAT",
    "FMT_11_11_10",
    "FMT_11_11_10_FLOAT",
    "FMT_2_10_10_10",
    "FMT_8_8_8_8",
    "FMT_10_10_10_2",
    "FMT_X24_8_32_FLOAT",
    "FMT_32_32",
    "FMT_32_32_FLOAT",
    "FMT_16_16_16_16",
    "FMT_16_16_16_16_FLOAT",
    "FMT_RESERVED_33",
    "FMT_32_32_32_32",
    "FMT_32_32_32_32_FLOAT",
    "FMT_RESERVED_36",
    "FMT_1",
    "FMT_1_REVERSED",
    "FMT_GB_GR",
    "FMT_BG_RG",
    "FMT_32_AS_8",
    "FMT_32_AS_8_8",
    "FMT_5_9_9_9_SHAREDEXP",
    "FMT_8_8_8",
    "FMT_16_16_16",
    "FMT_16_16_16_FLOAT",
    "FMT_32_32_32",
    "FMT_32_32_32_FLOAT",
    "FMT_BC1",
    "FMT_BC2",
    "FMT_BC3",
    "FMT_BC4",
    "FMT_BC5",
    "FMT_APC0",
    "FMT_APC1",
    "FMT_APC2",
    "FMT_APC3",
    "FMT_APC4",
    "FMT_APC5",
    "FMT_APC6",
    "FMT_APC7",
    "FMT_CTX1",
    "FMT_RESERVED_63",
];

/// Name of a special ALU source select (192..=255), if it has one.
pub fn special_src_name(sel: u32) -> Option<&'static str> {
    Some(match sel {
        217 => "LDS_BASE_ADDR",
        218 => "LDS_SIZE",
        219 => "OQA",
        220 => "OQB",
        221 => "OQAP",
        222 => "OQBP",
        223 => "LDS_DIRECT_A",
        224 => "LDS_DIRECT_B",
        225 => "CLAUSE_GLOBAL",
        227 => "TIME_HI",
        228 => "TIME_LO",
        229 => "MASK_HI",
        230 => "MASK_LO",
        231 => "HW_WAVE_ID",
        232 => "SIMD_ID",
        233 => "SE_ID",
        234 => "HW_THREADGRP_ID",
        235 => "WAVE_ID_IN_GRP",
        236 => "NUM_THREADGRP_WAVES",
        237 => "HW_ALU_ODD",
        238 => "LOOP_IDX",
        240 => "PARAM_BASE_ADDR",
        241 => "NEW_PRIM_MASK",
        242 => "PRIM_MASK_HI",
        243 => "PRIM_MASK_LO",
        244 => "1_DBL_L",
        245 => "1_DBL_M",
        246 => "0_5_DBL_L",
        247 => "0_5_DBL_M",
        248 => "0.0f",
        249 => "1.0f",
        250 => "1",
        251 => "-1",
        252 => "0.5f",
        254 => "PV",
        _ => return None,
    })
}

/// ALU source select of a literal constant.
pub const SRC_LITERAL: u32 = 253;
/// ALU source selects of LDS direct reads.
pub const SRC_LDS_DIRECT_A: u32 = 223;
/// See [`SRC_LDS_DIRECT_A`].
pub const SRC_LDS_DIRECT_B: u32 = 224;

fn index_mode(im: u32) -> &'static str {
    match im {
        0 => "AR.x",
        4 => "AL",
        5 => "GLOBAL",
        6 => "GLOBAL+AR.x",
        1 => "IM1",
        2 => "IM2",
        3 => "IM3",
        _ => "IM7",
    }
}

fn fmt_src(out: &mut String, s: &Src, im: u32, lits: &[u32]) {
    // "-1" is the inline constant -1 (select 251): a negated inline 1
    // (select 250) is spelled NEG(1) so the text stays unambiguous.
    let neg_one = s.neg && !s.abs && s.sel == 250;
    if s.neg && !neg_one {
        out.push('-');
    }
    if s.abs {
        out.push('|');
    }
    let rel = |out: &mut String| {
        if s.rel {
            out.push('[');
            out.push_str(index_mode(im));
            out.push(']');
        }
    };
    let sel = s.sel;
    let c = CHAN[s.chan as usize & 3];
    match sel {
        0..=127 => {
            out.push('R');
            push_num(out, sel);
            rel(out);
            out.push('.');
            out.push(c);
        }
        128..=191 | 256..=319 => {
            let (bank, idx) = match sel {
                128..=159 => (0, sel - 128),
                160..=191 => (1, sel - 160),
                256..=287 => (2, sel - 256),
                _ => (3, sel - 288),
            };
            out.push_str(["KC0[", "KC1[", "KC2[", "KC3["][bank]);
            push_num(out, idx);
            out.push(']');
            rel(out);
            out.push('.');
            out.push(c);
        }
        SRC_LITERAL => {
            match lits.get(s.chan as usize) {
                Some(v) => {
                    let _ = write!(out, "(0x{v:08x}, {:e})", f32::from_bits(*v));
                }
                None => out.push_str("literal"),
            }
            rel(out);
            let _ = write!(out, ".{c}");
        }
        254 => {
            out.push_str("PV");
            rel(out);
            out.push('.');
            out.push(c);
        }
        _ => {
            match special_src_name(sel) {
                Some(_) if neg_one => out.push_str("NEG(1)"),
                Some(n) => out.push_str(n),
                None => {
                    let _ = write!(out, "SRC{sel}");
                }
            }
            rel(out);
            if s.chan != 0 {
                let _ = write!(out, ".{c}");
            }
        }
    }
    if s.abs {
        out.push('|');
    }
}

/// Append a small decimal number without going through `fmt`.
fn push_num(out: &mut String, v: u32) {
    if v < 10 {
        out.push((b'0' + v as u8) as char);
    } else if v < 100 {
        out.push((b'0' + (v / 10) as u8) as char);
        out.push((b'0' + (v % 10) as u8) as char);
    } else {
        let _ = write!(out, "{v}");
    }
}

/// Literal channel a source needs (`Some(chan)`), counting LDS direct reads as x and y.
pub fn literal_need(s: &Src) -> Option<u32> {
    match s.sel {
        SRC_LITERAL => Some(s.chan),
        SRC_LDS_DIRECT_A | SRC_LDS_DIRECT_B => Some(1),
        _ => None,
    }
}

const BANK_SWIZZLE: [&str; 8] = [
    "VEC_012", "VEC_021", "VEC_120", "VEC_102", "VEC_201", "VEC_210", "BS6", "BS7",
];

/// Print one ALU instruction (without group number or slot), `lits` being
/// the literal dwords of its group.
pub fn print_alu(out: &mut String, i: &AluInst, lits: &[u32]) {
    let (w0, w1) = (i.words[0], i.words[1]);
    let im = ALU_WORD0::INDEX_MODE.get(w0);
    let mut used_rel = false;
    if i.form == AluForm::Lds {
        let _ = write!(out, "LDS_{}", i.op.name);
    } else {
        out.push_str(i.op.name);
    }
    // destination
    let mut first = true;
    if i.form != AluForm::Lds {
        out.push(' ');
        first = false;
        let rel = ALU_WORD1_OP2::DST_REL.get(w1) != 0;
        used_rel |= rel;
        let gpr = ALU_WORD1_OP2::DST_GPR.get(w1);
        let c = CHAN[i.dst_chan() as usize];
        let masked = i.form != AluForm::Op3 && ALU_WORD1_OP2::WRITE_MASK.get(w1) == 0;
        if masked && gpr == 0 && !rel {
            out.push_str("____");
        } else {
            if masked {
                out.push('(');
            }
            if i.form == AluForm::Mova {
                match gpr {
                    0 => out.push_str("AR"),
                    1 => out.push_str("CF_PC"),
                    2 => out.push_str("CF_IDX0"),
                    3 => out.push_str("CF_IDX1"),
                    4..=7 => {
                        let _ = write!(out, "CLAUSE_GLOBAL{}", gpr - 4);
                    }
                    _ => {
                        let _ = write!(out, "MOVA_DST{gpr}");
                    }
                }
            } else {
                out.push('R');
                push_num(out, gpr);
            }
            if rel {
                out.push('[');
                out.push_str(index_mode(im));
                out.push(']');
            }
            out.push('.');
            out.push(c);
            if masked {
                out.push(')');
            }
        }
    }
    // sources: the ones the opcode reads, plus any non-zero unused field
    let slots = i.src_slots();
    let n = (0..slots)
        .rev()
        .find(|&k| !i.src(k).is_zero())
        .map_or(0, |k| k + 1)
        .max(i.nsrc().min(slots));
    for k in 0..n {
        out.push_str(if first { " " } else { ", " });
        first = false;
        let s = i.src(k);
        used_rel |= s.rel;
        fmt_src(out, &s, im, lits);
    }
    // modifiers
    match i.form {
        AluForm::Op2 | AluForm::Mova | AluForm::ExecMask => {
            if ALU_WORD1_OP2::UPDATE_EXEC_MASK.get(w1) != 0 {
                out.push_str(" UPDATE_EXEC_MASK");
            }
            if ALU_WORD1_OP2::UPDATE_PRED.get(w1) != 0 {
                out.push_str(" UPDATE_PRED");
            }
            let o = ALU_WORD1_OP2::OMOD.get(w1);
            if i.form == AluForm::ExecMask {
                if o != 0 {
                    let _ = write!(out, " EXECUTE_MASK_OP({o})");
                }
            } else if o != 0 {
                out.push_str([" ", " MUL2", " MUL4", " DIV2"][o as usize]);
            }
        }
        AluForm::Lds => {
            let off = i.lds_offset();
            if off != 0 {
                let _ = write!(out, " OFFSET({off})");
            }
        }
        AluForm::Op3 => {}
    }
    if i.form != AluForm::Lds && ALU_WORD1_OP2::CLAMP.get(w1) != 0 {
        out.push_str(" CLAMP");
    }
    match ALU_WORD0::PRED_SEL.get(w0) {
        0 => {}
        1 => out.push_str(" PRED_SEL(1)"),
        2 => out.push_str(" PRED_SEL_ZERO"),
        _ => out.push_str(" PRED_SEL_ONE"),
    }
    let bs = ALU_WORD1_OP2::BANK_SWIZZLE.get(w1);
    if bs != 0 {
        let _ = write!(out, " {}", BANK_SWIZZLE[bs as usize]);
    }
    if im != 0 && !used_rel {
        let _ = write!(out, " INDEX_MODE({im})");
    }
}

/// Print the LDS direct-read literal pair.
pub fn print_lds_direct(out: &mut String, lo: u32, hi: u32) {
    use ALU_WORD1_LDS_DIRECT_LITERAL_HI as H;
    use ALU_WORD1_LDS_DIRECT_LITERAL_LO as L;
    let _ = write!(
        out,
        "LDS_DIRECT A(OFFSET({}) STRIDE({}){}) B(OFFSET({}) STRIDE({}){}){}",
        L::OFFSET_A.get(lo),
        L::STRIDE_A.get(lo),
        if L::THREAD_REL_A.get(lo) != 0 {
            " THREAD_REL"
        } else {
            ""
        },
        H::OFFSET_B.get(hi),
        H::STRIDE_B.get(hi),
        if H::THREAD_REL_B.get(hi) != 0 {
            " THREAD_REL"
        } else {
            ""
        },
        if H::DIRECT_READ_32.get(hi) != 0 {
            " DIRECT_READ_32"
        } else {
            ""
        },
    );
    let r = crate::codec::reserved_mask(&L::FORMAT) & lo;
    let r2 = crate::codec::reserved_mask(&H::FORMAT) & hi;
    if r != 0 || r2 != 0 {
        let _ = write!(out, " RSV(0x{r:08x},0x{r2:08x})");
    }
}

fn reserved(out: &mut String, words: &[u32], fmts: &[WordFormat]) {
    let mut any = false;
    let mut vals = [0u32; 4];
    for (k, (w, f)) in words.iter().zip(fmts.iter()).enumerate() {
        vals[k] = w & reserved_mask(f);
        any |= vals[k] != 0;
    }
    if words.len() == 4 && words[3] != 0 {
        vals[3] = words[3];
        any = true;
    }
    if any {
        out.push_str(" RSV(");
        for (k, v) in vals[..words.len().min(4)].iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "0x{v:08x}");
        }
        out.push(')');
    }
}

fn kcache(out: &mut String, n: u32, bank: u32, mode: u32, addr: u32, bim: u32) {
    if mode == 0 && bank == 0 && addr == 0 && bim == 0 {
        return;
    }
    let _ = write!(out, " KCACHE{n}(CB{bank}");
    if bim != 0 {
        let _ = write!(out, "+{}", ["", "IDX0", "IDX1", "IDX3"][bim as usize]);
    }
    let start = addr * 16;
    match mode {
        0 => {
            let _ = write!(out, ":{start} NOP)");
        }
        1 => {
            let _ = write!(out, ":{}-{})", start, start + 15);
        }
        2 => {
            let _ = write!(out, ":{}-{})", start, start + 31);
        }
        _ => {
            let _ = write!(out, ":{}-{}+AL)", start, start + 31);
        }
    }
}

fn flag(out: &mut String, cond: bool, s: &str) {
    if cond {
        out.push(' ');
        out.push_str(s);
    }
}

fn num(out: &mut String, v: u32, s: &str) {
    if v != 0 {
        let _ = write!(out, " {s}({v})");
    }
}

/// Print the CF_WORD1 fields shared by the CF and GWS forms.
fn cf_word1_common(out: &mut String, w1: u32, clause: bool) {
    use CF_WORD1 as W;
    num(out, W::POP_COUNT.get(w1), "POP_CNT");
    num(out, W::CF_CONST.get(w1), "CF_CONST");
    match W::COND.get(w1) {
        0 => {}
        1 => out.push_str(" COND(FALSE)"),
        2 => out.push_str(" COND(BOOL)"),
        _ => out.push_str(" COND(NOT_BOOL)"),
    }
    if !clause {
        num(out, W::COUNT.get(w1), "COUNT");
    }
    flag(out, W::VALID_PIXEL_MODE.get(w1) != 0, "VPM");
    flag(out, W::BARRIER.get(w1) != 0, "BARRIER");
}

/// Print one CF instruction (without its index).
pub fn print_cf(out: &mut String, i: &CfInst) {
    let (w0, w1) = (i.words[0], i.words[1]);
    match i.form {
        CfForm::Cf => {
            let _ = write!(out, "{}:", i.op.name);
            let clause = i.op.flags & (ops::F_TC | ops::F_GDS) != 0;
            let addr = CF_WORD0::ADDR.get(w0);
            if clause {
                let _ = write!(out, " ADDR({addr}) CNT({})", CF_WORD1::COUNT.get(w1) + 1);
            } else if i.op.flags & ops::F_JUMP != 0 || addr != 0 {
                let _ = write!(out, " ADDR({addr})");
            }
            num(out, CF_WORD0::JUMPTABLE_SEL.get(w0), "JTS");
            cf_word1_common(out, w1, clause);
            reserved(out, &i.words, &[CF_WORD0::FORMAT, CF_WORD1::FORMAT]);
        }
        CfForm::Gws => {
            use CF_GWS_WORD0 as G;
            let _ = write!(out, "{}:", i.op.name);
            let _ = write!(
                out,
                " VALUE({}) RESOURCE({})",
                G::VALUE.get(w0),
                G::RESOURCE.get(w0)
            );
            flag(out, G::SIGN.get(w0) != 0, "SIGN");
            num(out, G::VAL_INDEX_MODE.get(w0), "VIM");
            num(out, G::RSRC_INDEX_MODE.get(w0), "RIM");
            cf_word1_common(out, w1, false);
            reserved(out, &i.words, &[G::FORMAT, CF_WORD1::FORMAT]);
        }
        CfForm::Alu => {
            use CF_ALU_WORD0 as A;
            use CF_ALU_WORD1 as B;
            let _ = write!(
                out,
                "{}: ADDR({}) CNT({})",
                i.op.name,
                A::ADDR.get(w0),
                B::COUNT.get(w1) + 1
            );
            kcache(
                out,
                0,
                A::KCACHE_BANK0.get(w0),
                A::KCACHE_MODE0.get(w0),
                B::KCACHE_ADDR0.get(w1),
                0,
            );
            kcache(
                out,
                1,
                A::KCACHE_BANK1.get(w0),
                B::KCACHE_MODE1.get(w1),
                B::KCACHE_ADDR1.get(w1),
                0,
            );
            flag(out, B::ALT_CONST.get(w1) != 0, "ALT_CONST");
            flag(out, B::WHOLE_QUAD_MODE.get(w1) != 0, "WQM");
            flag(out, B::BARRIER.get(w1) != 0, "BARRIER");
        }
        CfForm::AluExt => {
            use CF_ALU_WORD0_EXT as A;
            use CF_ALU_WORD1_EXT as B;
            let _ = write!(out, "{}:", i.op.name);
            let m = [
                A::KCACHE_BANK_INDEX_MODE0.get(w0),
                A::KCACHE_BANK_INDEX_MODE1.get(w0),
                A::KCACHE_BANK_INDEX_MODE2.get(w0),
                A::KCACHE_BANK_INDEX_MODE3.get(w0),
            ];
            if m.iter().any(|&x| x != 0) {
                let _ = write!(
                    out,
                    " KCACHE_INDEX_MODE({},{},{},{})",
                    m[0], m[1], m[2], m[3]
                );
            }
            kcache(
                out,
                2,
                A::KCACHE_BANK2.get(w0),
                A::KCACHE_MODE2.get(w0),
                B::KCACHE_ADDR2.get(w1),
                0,
            );
            kcache(
                out,
                3,
                A::KCACHE_BANK3.get(w0),
                B::KCACHE_MODE3.get(w1),
                B::KCACHE_ADDR3.get(w1),
                0,
            );
            flag(out, B::BARRIER.get(w1) != 0, "BARRIER");
            reserved(out, &i.words, &[A::FORMAT, B::FORMAT]);
        }
        CfForm::Export => print_export(out, i),
    }
}

fn print_export(out: &mut String, i: &CfInst) {
    let (w0, w1) = (i.words[0], i.words[1]);
    use CF_ALLOC_EXPORT_WORD0 as E;
    let swiz = i.op.flags & ops::F_SWIZ != 0;
    match i.rat {
        Some(r) => {
            let _ = write!(out, "{} {}:", i.op.name, r.name);
        }
        None => {
            let _ = write!(out, "{}:", i.op.name);
        }
    }
    let ty = E::TYPE.get(w0);
    if swiz {
        out.push_str([" PIXEL", " POS", " PARAM", " TYPE3"][ty as usize]);
    } else {
        out.push_str([" WRITE", " WRITE_IND", " WRITE_ACK", " WRITE_IND_ACK"][ty as usize]);
    }
    let w0f = if i.rat.is_some() {
        use CF_ALLOC_EXPORT_WORD0_RAT as R;
        let _ = write!(out, " RAT({})", R::RAT_ID.get(w0));
        num(out, R::RAT_INDEX_MODE.get(w0), "RIM");
        R::FORMAT
    } else {
        let _ = write!(out, " ARRAY_BASE({})", E::ARRAY_BASE.get(w0));
        E::FORMAT
    };
    let index = E::INDEX_GPR.get(w0);
    if !swiz || index != 0 {
        let _ = write!(out, " [R{index}],");
    }
    let _ = write!(out, " R{}", E::RW_GPR.get(w0));
    if E::RW_REL.get(w0) != 0 {
        out.push_str("[AL]");
    }
    out.push('.');
    let w1f = if swiz {
        use CF_ALLOC_EXPORT_WORD1_SWIZ as S;
        for f in [S::SEL_X, S::SEL_Y, S::SEL_Z, S::SEL_W] {
            out.push(SEL[f.get(w1) as usize]);
        }
        S::FORMAT
    } else {
        use CF_ALLOC_EXPORT_WORD1_BUF as B;
        let m = B::COMP_MASK.get(w1);
        for (k, c) in CHAN.iter().enumerate() {
            out.push(if m & (1 << k) != 0 { *c } else { '_' });
        }
        num(out, B::ARRAY_SIZE.get(w1), "ARRAY_SIZE");
        B::FORMAT
    };
    num(out, E::ELEM_SIZE.get(w0), "ELEM_SIZE");
    use CF_ALLOC_EXPORT_WORD1_BUF as B;
    num(out, B::BURST_COUNT.get(w1), "BURST_COUNT");
    flag(out, B::VALID_PIXEL_MODE.get(w1) != 0, "VPM");
    flag(out, B::MARK.get(w1) != 0, "MARK");
    flag(out, B::BARRIER.get(w1) != 0, "BARRIER");
    reserved(out, &i.words, &[w0f, w1f]);
}

fn gpr_rel(out: &mut String, gpr: u32, rel: bool) {
    let _ = write!(out, "R{gpr}");
    if rel {
        out.push_str("[AL]");
    }
}

fn dst_sel(out: &mut String, w: u32, f: [Field; 4]) {
    out.push('.');
    for x in f {
        out.push(SEL[x.get(w) as usize]);
    }
}

fn fmt_fields(out: &mut String, ucf: u32, df: u32, nfa: u32, fca: u32, srf: u32) {
    flag(out, ucf != 0, "USE_CONST_FIELDS");
    if ucf == 0 || df != 0 {
        let _ = write!(out, " {}", DATA_FORMATS[df as usize]);
    }
    match nfa {
        0 => {}
        1 => out.push_str(" NUM_INT"),
        2 => out.push_str(" NUM_SCALED"),
        _ => out.push_str(" NUM_FORMAT(3)"),
    }
    flag(out, fca != 0, "SIGNED");
    flag(out, srf != 0, "SRF_NO_ZERO");
}

fn endian(out: &mut String, e: u32) {
    match e {
        0 => {}
        1 => out.push_str(" ENDIAN(8IN16)"),
        2 => out.push_str(" ENDIAN(8IN32)"),
        _ => out.push_str(" ENDIAN(3)"),
    }
}

/// Print one fetch-clause or GDS-clause instruction.
pub fn print_fetch(out: &mut String, i: &FetchInst) {
    let w = i.words;
    match i.form {
        FetchForm::Vtx | FetchForm::VtxSem => {
            use VTX_WORD0 as A;
            use VTX_WORD1_GPR as B;
            use VTX_WORD2 as C;
            let _ = write!(out, "{} ", i.op.name);
            let w1f = if i.form == FetchForm::Vtx {
                gpr_rel(out, B::DST_GPR.get(w[1]), B::DST_REL.get(w[1]) != 0);
                B::FORMAT
            } else {
                let _ = write!(out, "SEM({})", VTX_WORD1_SEM::SEMANTIC_ID.get(w[1]));
                VTX_WORD1_SEM::FORMAT
            };
            dst_sel(
                out,
                w[1],
                [B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W],
            );
            out.push_str(", ");
            gpr_rel(out, A::SRC_GPR.get(w[0]), A::SRC_REL.get(w[0]) != 0);
            let _ = write!(
                out,
                ".{}, fc{}",
                CHAN[A::SRC_SEL_X.get(w[0]) as usize],
                A::BUFFER_ID.get(w[0])
            );
            match A::FETCH_TYPE.get(w[0]) {
                0 => {}
                1 => out.push_str(" FETCH_TYPE(INSTANCE_DATA)"),
                2 => out.push_str(" FETCH_TYPE(NO_INDEX_OFFSET)"),
                _ => out.push_str(" FETCH_TYPE(3)"),
            }
            fmt_fields(
                out,
                B::USE_CONST_FIELDS.get(w[1]),
                B::DATA_FORMAT.get(w[1]),
                B::NUM_FORMAT_ALL.get(w[1]),
                B::FORMAT_COMP_ALL.get(w[1]),
                B::SRF_MODE_ALL.get(w[1]),
            );
            num(out, C::OFFSET.get(w[2]), "OFFSET");
            endian(out, C::ENDIAN_SWAP.get(w[2]));
            flag(out, C::CONST_BUF_NO_STRIDE.get(w[2]) != 0, "CBNS");
            flag(out, C::ALT_CONST.get(w[2]) != 0, "ALT_CONST");
            num(out, C::BUFFER_INDEX_MODE.get(w[2]), "BIM");
            flag(out, A::FETCH_WHOLE_QUAD.get(w[0]) != 0, "FWQ");
            let sy = A::SRC_SEL_Y.get(w[0]);
            if sy != 0 {
                let _ = write!(out, " SRC_SEL_Y({})", CHAN[sy as usize]);
            }
            num(out, A::STRUCTURED_READ.get(w[0]), "STRUCTURED_READ");
            flag(out, A::LDS_REQ.get(w[0]) != 0, "LDS_REQ");
            flag(out, A::COALESCED_READ.get(w[0]) != 0, "COALESCED_READ");
            reserved(out, &w, &[A::FORMAT, w1f, C::FORMAT]);
        }
        FetchForm::Tex => {
            use TEX_WORD0 as A;
            use TEX_WORD1 as B;
            use TEX_WORD2 as C;
            let _ = write!(out, "{} ", i.op.name);
            gpr_rel(out, B::DST_GPR.get(w[1]), B::DST_REL.get(w[1]) != 0);
            dst_sel(
                out,
                w[1],
                [B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W],
            );
            out.push_str(", ");
            gpr_rel(out, A::SRC_GPR.get(w[0]), A::SRC_REL.get(w[0]) != 0);
            dst_sel(
                out,
                w[2],
                [C::SRC_SEL_X, C::SRC_SEL_Y, C::SRC_SEL_Z, C::SRC_SEL_W],
            );
            let _ = write!(
                out,
                ", t{}, s{}",
                A::RESOURCE_ID.get(w[0]),
                C::SAMPLER_ID.get(w[2])
            );
            let (ox, oy, oz) = (
                C::OFFSET_X.get(w[2]),
                C::OFFSET_Y.get(w[2]),
                C::OFFSET_Z.get(w[2]),
            );
            if ox | oy | oz != 0 {
                let _ = write!(out, " OFFSET({ox},{oy},{oz})");
            }
            num(out, B::LOD_BIAS.get(w[1]), "LOD_BIAS");
            let ct = [
                B::COORD_TYPE_X,
                B::COORD_TYPE_Y,
                B::COORD_TYPE_Z,
                B::COORD_TYPE_W,
            ];
            if ct.iter().any(|f| f.get(w[1]) != 0) {
                out.push_str(" NORM(");
                for (k, f) in ct.iter().enumerate() {
                    out.push(if f.get(w[1]) != 0 { CHAN[k] } else { '_' });
                }
                out.push(')');
            }
            num(out, A::INST_MOD.get(w[0]), "INST_MOD");
            flag(out, A::FETCH_WHOLE_QUAD.get(w[0]) != 0, "FWQ");
            flag(out, A::ALT_CONST.get(w[0]) != 0, "ALT_CONST");
            num(out, A::RESOURCE_INDEX_MODE.get(w[0]), "RIM");
            num(out, A::SAMPLER_INDEX_MODE.get(w[0]), "SIM");
            reserved(out, &w, &[A::FORMAT, B::FORMAT, C::FORMAT]);
        }
        FetchForm::MemRd => {
            use MEM_RD_WORD0 as A;
            use MEM_RD_WORD1 as B;
            use MEM_RD_WORD2 as C;
            let _ = write!(out, "{} ", i.op.name);
            gpr_rel(out, B::DST_GPR.get(w[1]), B::DST_REL.get(w[1]) != 0);
            dst_sel(
                out,
                w[1],
                [B::DST_SEL_X, B::DST_SEL_Y, B::DST_SEL_Z, B::DST_SEL_W],
            );
            out.push_str(", ");
            gpr_rel(out, A::SRC_GPR.get(w[0]), A::SRC_REL.get(w[0]) != 0);
            let _ = write!(out, ".{}", CHAN[A::SRC_SEL_X.get(w[0]) as usize]);
            let _ = write!(out, " ARRAY_BASE({})", C::ARRAY_BASE.get(w[2]));
            num(out, C::ARRAY_SIZE.get(w[2]), "ARRAY_SIZE");
            num(out, A::ELEM_SIZE.get(w[0]), "ELEM_SIZE");
            num(out, A::BURST_COUNT.get(w[0]), "BURST_COUNT");
            fmt_fields(
                out,
                0,
                B::DATA_FORMAT.get(w[1]),
                B::NUM_FORMAT_ALL.get(w[1]),
                B::FORMAT_COMP_ALL.get(w[1]),
                B::SRF_MODE_ALL.get(w[1]),
            );
            endian(out, C::ENDIAN_SWAP.get(w[2]));
            flag(out, A::UNCACHED.get(w[0]) != 0, "UNCACHED");
            flag(out, A::INDEXED.get(w[0]) != 0, "INDEXED");
            flag(out, A::FETCH_WHOLE_QUAD.get(w[0]) != 0, "FWQ");
            let sy = A::SRC_SEL_Y.get(w[0]);
            if sy != 0 {
                let _ = write!(out, " SRC_SEL_Y({})", CHAN[sy as usize]);
            }
            flag(out, A::LDS_REQ.get(w[0]) != 0, "LDS_REQ");
            flag(out, A::COALESCED_READ.get(w[0]) != 0, "COALESCED_READ");
            reserved(out, &w, &[A::FORMAT, B::FORMAT, C::FORMAT]);
        }
        FetchForm::Gds => {
            use MEM_GDS_WORD0 as A;
            use MEM_GDS_WORD1 as B;
            use MEM_GDS_WORD2 as C;
            let ds = i.ds.map(|d| d.name).unwrap_or("?");
            let _ = write!(out, "{} {} R{}", i.op.name, ds, B::DST_GPR.get(w[1]));
            dst_sel(
                out,
                w[2],
                [C::DST_SEL_X, C::DST_SEL_Y, C::DST_SEL_Z, C::DST_SEL_W],
            );
            let _ = write!(out, ", R{}.", A::SRC_GPR.get(w[0]));
            for f in [A::SRC_SEL_X, A::SRC_SEL_Y, A::SRC_SEL_Z] {
                out.push(SEL[f.get(w[0]) as usize]);
            }
            let _ = write!(out, ", R{}", B::SRC_GPR.get(w[1]));
            num(out, A::SRC_REL_MODE.get(w[0]), "SRC_REL_MODE");
            num(out, B::DST_REL_MODE.get(w[1]), "DST_REL_MODE");
            num(out, B::UAV_ID.get(w[1]), "UAV_ID");
            num(out, B::UAV_INDEX_MODE.get(w[1]), "UIM");
            flag(out, B::ALLOC_CONSUME.get(w[1]) != 0, "ALLOC_CONSUME");
            flag(out, B::BCAST_FIRST_REQ.get(w[1]) != 0, "BCAST_FIRST_REQ");
            reserved(out, &w, &[A::FORMAT, B::FORMAT, C::FORMAT]);
        }
    }
}
