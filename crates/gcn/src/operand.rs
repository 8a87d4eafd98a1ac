//! Operand codes: scalar registers, special registers and inline constants,
//! and how each generation names them.

use crate::gen::Gen;
use crate::processor::Feature;
use crate::table::Ty;

/// The name of a 32-bit scalar operand code in `gen` (SGPRs excluded), if it has one.
pub const fn special_name(gen: Gen, code: u32) -> Option<&'static str> {
    let g = gen.info();
    let traps = g.trap_base_regs;
    let apertures = gen.has(Feature::ApertureRegs);
    Some(match code {
        _ if at(g.flat_scratch, code, 0) => "flat_scratch_lo",
        _ if at(g.flat_scratch, code, 1) => "flat_scratch_hi",
        _ if at(g.xnack_mask, code, 0) => "xnack_mask_lo",
        _ if at(g.xnack_mask, code, 1) => "xnack_mask_hi",
        106 => "vcc_lo",
        107 => "vcc_hi",
        108 if traps => "tba_lo",
        109 if traps => "tba_hi",
        110 if traps => "tma_lo",
        111 if traps => "tma_hi",
        124 => "m0",
        126 => "exec_lo",
        127 => "exec_hi",
        235 if apertures => "src_shared_base",
        236 if apertures => "src_shared_limit",
        237 if apertures => "src_private_base",
        238 if apertures => "src_private_limit",
        239 if apertures => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        254 => "src_lds_direct",
        _ => return None,
    })
}

/// Whether `code` is register `k` of a pair that starts at `base`.
const fn at(base: Option<u32>, code: u32, k: u32) -> bool {
    matches!(base, Some(b) if b + k == code)
}

/// The name of a 64-bit register pair starting at `code`, if it is a named pair:
/// the low half's name without `_lo` (`vcc_lo` → `vcc`), or a 64-bit `src_*` source.
pub const fn special_pair_name(gen: Gen, code: u32) -> Option<&'static str> {
    let Some(lo) = special_name(gen, code) else {
        return None;
    };
    let (head, tail) = lo.split_at(lo.len().saturating_sub(3));
    if bytes_eq(tail.as_bytes(), b"_lo") {
        return Some(head);
    }
    let (src, _) = lo.split_at(if lo.len() < 4 { lo.len() } else { 4 });
    if bytes_eq(src.as_bytes(), b"src_") && !bytes_eq(lo.as_bytes(), b"src_lds_direct") {
        Some(lo)
    } else {
        None
    }
}

/// `a == b` for byte strings, usable in constants.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Number of SGPRs addressable by number in `gen`.
pub const fn sgpr_count(gen: Gen) -> u32 {
    gen.info().sgprs
}

/// First trap temporary (`ttmp0`) code and count in `gen`.
pub const fn ttmp_range(gen: Gen) -> (u32, u32) {
    gen.info().ttmp
}

/// The value an inline constant code stands for, as the operand's bits
/// (`None` for codes that are not inline constants in `gen`).
///
/// ```
/// use risa_gcn::{operand::inline_value, table::Ty, Gen};
/// assert_eq!(inline_value(Gen::Gcn10, 242, Ty::F32), Some(0x3f80_0000));
/// assert_eq!(inline_value(Gen::Gcn10, 193, Ty::I32), Some(0xffff_ffff));
/// assert_eq!(inline_value(Gen::Gcn10, 248, Ty::F32), None); // 1/(2*pi) is GCN 1.2+
/// ```
pub fn inline_value(gen: Gen, code: u32, ty: Ty) -> Option<u64> {
    let wide = ty.dwords() == 2;
    match code {
        128..=192 => Some(u64::from(code - 128)),
        193..=208 => {
            let v = -(i64::from(code) - 192);
            Some(if wide { v as u64 } else { u64::from(v as u32) })
        }
        240..=248 => {
            if code == 248 && !gen.has(Feature::Inv2PiInlineImm) {
                return None;
            }
            let i = (code - 240) as usize;
            const F32: [u32; 9] = [
                0x3f00_0000,
                0xbf00_0000,
                0x3f80_0000,
                0xbf80_0000,
                0x4000_0000,
                0xc000_0000,
                0x4080_0000,
                0xc080_0000,
                0x3e22_f983,
            ];
            const F64: [u64; 9] = [
                0x3fe0_0000_0000_0000,
                0xbfe0_0000_0000_0000,
                0x3ff0_0000_0000_0000,
                0xbff0_0000_0000_0000,
                0x4000_0000_0000_0000,
                0xc000_0000_0000_0000,
                0x4010_0000_0000_0000,
                0xc010_0000_0000_0000,
                0x3fc4_5f30_6dc9_c882,
            ];
            const F16: [u16; 9] = [
                0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
            ];
            Some(if ty.is_16bit() {
                u64::from(F16[i])
            } else if wide {
                F64[i]
            } else {
                u64::from(F32[i])
            })
        }
        _ => None,
    }
}

/// The float inline constant code (240..=248) whose value is `bits` for an
/// operand of type `ty`, if any.
pub fn float_inline_code(gen: Gen, ty: Ty, bits: u64) -> Option<u32> {
    (240..=248).find(|&c| inline_value(gen, c, ty) == Some(bits))
}

/// The bits an operand of type `ty` holds when the integer `raw` is
/// written for it: 64 bits for a 64-bit operand, 16 bits for a 16-bit
/// one when `raw` is in `-0x8000..=0xffff`, 32 bits otherwise.
pub fn int_operand_bits(raw: u64, ty: Ty) -> u64 {
    if ty.dwords() == 2 {
        raw
    } else if ty.is_16bit() && (-0x8000..=0xffff).contains(&(raw as i64)) {
        u64::from(raw as u16)
    } else {
        u64::from(raw as u32)
    }
}

/// The inline constant code the assembler (both dialects, like llvm-mc)
/// gives the integer `raw` written as an operand of type `ty`; `None` when
/// it needs a literal. The printer asks the same question of a literal it
/// is about to print, so that text and words agree in one place.
///
/// ```
/// use risa_gcn::{operand::int_inline_code, table::Ty, Gen};
/// assert_eq!(int_inline_code(Gen::Gcn12, 0xfffd, Ty::U16), Some(195)); // -3
/// assert_eq!(int_inline_code(Gen::Gcn12, 0x3f80_0000, Ty::F32), Some(242)); // 1.0
/// assert_eq!(int_inline_code(Gen::Gcn12, 0xfffd, Ty::U32), None);
/// ```
pub fn int_inline_code(gen: Gen, raw: u64, ty: Ty) -> Option<u32> {
    let bits = int_operand_bits(raw, ty);
    let val = match ty.dwords() {
        2 => bits as i64,
        _ if ty.is_16bit() && bits <= 0xffff => i64::from(bits as u16 as i16),
        _ => i64::from(bits as u32 as i32),
    };
    if (0..=64).contains(&val) {
        return Some(128 + val as u32);
    }
    if (-16..0).contains(&val) {
        return Some((192 - val) as u32);
    }
    float_inline_code(gen, ty, bits).or_else(|| {
        // A 64-bit float operand written as 32 bits is the value's high half.
        let high_half = ty.dwords() == 2 && ty.is_float() && bits >> 32 == 0;
        float_inline_code(gen, ty, bits << 32).filter(|_| high_half)
    })
}

/// The float inline constants 240..=247, as written in assembly.
pub const INLINE_FLOATS: [&str; 8] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];

/// Hardware register names of `hwreg()` by id (LLVM adds `HW_REG_`, CLRX
/// writes them lower case); id 0 has no name.
pub const HWREG_NAMES: [&str; 8] = [
    "",
    "MODE",
    "STATUS",
    "TRAPSTS",
    "HW_ID",
    "GPR_ALLOC",
    "LDS_ALLOC",
    "IB_STS",
];

/// Hardware registers only GCN 1.4 names (LLVM spelling without `HW_REG_`), by
/// id. The assembler accepts them (clang-14 writes `hwreg(HW_REG_SH_MEM_BASES,
/// ...)` for gfx900); the printer writes their number, which every assembler
/// reads back.
pub const HWREG_NAMES_GCN14: [(&str, u32); 1] = [("SH_MEM_BASES", 15)];

/// Hardware registers CLRX names beyond [`HWREG_NAMES`] (GcnOperands.md;
/// clrxdisasm prints `hwreg(inst_dw1, 25, 28)` for `ba5ede4b`), in every
/// generation; other ids it writes as `@N`.
pub const HWREG_NAMES_CLRX: [(&str, u32); 5] = [
    ("PC_LO", 8),
    ("PC_HI", 9),
    ("INST_DW0", 10),
    ("INST_DW1", 11),
    ("IB_DBG0", 12),
];

/// Hardware registers CLRX names on GCN 1.4 only (GcnOperands.md; clrxdisasm
/// 0.1.9 writes `@13`..`@19` for them on earlier generations). The CLRX
/// dialect's assembler reads them on every generation.
pub const HWREG_NAMES_CLRX_GCN14: [(&str, u32); 7] = [
    ("IB_DBG1", 13),
    ("FLUSH_IB", 14),
    ("SH_MEM_BASES", 15),
    ("SQ_SHADER_TBA_LO", 16),
    ("SQ_SHADER_TBA_HI", 17),
    ("SQ_SHADER_TMA_LO", 18),
    ("SQ_SHADER_TMA_HI", 19),
];

/// MTBUF data formats by DFMT value (LLVM adds `BUF_DATA_FORMAT_`).
pub const DFMT_NAMES: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];

/// MTBUF numeric formats by NFMT value (LLVM adds `BUF_NUM_FORMAT_`).
pub const NFMT_NAMES: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

/// How LLVM spells the float inline constant `code` (240..=248) for an operand of type `ty`.
pub fn inline_float_text(code: u32, ty: Ty) -> &'static str {
    match code {
        240..=247 => INLINE_FLOATS[(code - 240) as usize],
        _ if ty.dwords() == 2 => "0.15915494309189532",
        _ => "0.15915494",
    }
}
