//! Microcode field layouts of chapter 9 ("Microcode Formats"), as data.
//!
//! Every dword format of the guide is one `word!` row list: field name, lowest
//! bit, width. Reserved bits are listed too (as `RESERVED*`), so each format
//! covers all 32 bits of its dword; a unit test checks that. The codec reads
//! and writes instruction fields only through these constants.

/// One bit field of a 32-bit microcode dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name as the guide spells it.
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u8,
    /// Width in bits.
    pub width: u8,
}

impl Field {
    /// Mask of the field's value (not shifted).
    #[inline]
    pub const fn mask(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }
    /// Extract the field from a dword.
    #[inline]
    pub const fn get(self, w: u32) -> u32 {
        (w >> self.lo) & self.mask()
    }
    /// Store `v` (truncated to the field width) into a dword.
    #[inline]
    pub fn set(self, w: &mut u32, v: u32) {
        let m = self.mask() << self.lo;
        *w = (*w & !m) | ((v << self.lo) & m);
    }
    /// Largest value the field can hold.
    #[inline]
    pub const fn max(self) -> u32 {
        self.mask()
    }
}

/// A 32-bit microcode dword format: its name and fields.
#[derive(Clone, Copy, Debug)]
pub struct WordFormat {
    /// Format name as in chapter 9.
    pub name: &'static str,
    /// Its fields, in bit order.
    pub fields: &'static [Field],
}

macro_rules! word {
    ($(#[$m:meta])* $modname:ident = $fmtname:literal { $($f:ident $lo:literal $w:literal),* $(,)? }) => {
        $(#[$m])*
        #[allow(non_snake_case, missing_docs)]
        pub mod $modname {
            use super::{Field, WordFormat};
            $(pub const $f: Field = Field { name: stringify!($f), lo: $lo, width: $w };)*
            /// The whole dword format.
            pub const FORMAT: WordFormat = WordFormat { name: $fmtname, fields: &[$($f),*] };
        }
    };
}

word!(/// CF_WORD0: default first dword of CF instructions.
    CF_WORD0 = "CF_WORD0" { ADDR 0 24, JUMPTABLE_SEL 24 3, RESERVED 27 5 });
word!(/// CF_GWS_WORD0: first dword of global-wave-sync instructions.
    CF_GWS_WORD0 = "CF_GWS_WORD0" { VALUE 0 10, RESERVED0 10 6, RESOURCE 16 5, RESERVED1 21 4,
    SIGN 25 1, VAL_INDEX_MODE 26 2, RSRC_INDEX_MODE 28 2, GWS_OPCODE 30 2 });
word!(/// CF_WORD1: default second dword of CF instructions.
    CF_WORD1 = "CF_WORD1" { POP_COUNT 0 3, CF_CONST 3 5, COND 8 2, COUNT 10 6, RESERVED0 16 4,
    VALID_PIXEL_MODE 20 1, RESERVED1 21 1, CF_INST 22 8, RESERVED2 30 1, BARRIER 31 1 });
word!(/// CF_ALU_WORD0: first dword of ALU clause instructions.
    CF_ALU_WORD0 = "CF_ALU_WORD0" { ADDR 0 22, KCACHE_BANK0 22 4, KCACHE_BANK1 26 4, KCACHE_MODE0 30 2 });
word!(/// CF_ALU_WORD1: second dword of ALU clause instructions.
    CF_ALU_WORD1 = "CF_ALU_WORD1" { KCACHE_MODE1 0 2, KCACHE_ADDR0 2 8, KCACHE_ADDR1 10 8, COUNT 18 7,
    ALT_CONST 25 1, CF_INST 26 4, WHOLE_QUAD_MODE 30 1, BARRIER 31 1 });
word!(/// CF_ALU_WORD0_EXT: first dword of the ALU_EXTENDED prefix.
    CF_ALU_WORD0_EXT = "CF_ALU_WORD0_EXT" { RESERVED0 0 4, KCACHE_BANK_INDEX_MODE0 4 2,
    KCACHE_BANK_INDEX_MODE1 6 2, KCACHE_BANK_INDEX_MODE2 8 2, KCACHE_BANK_INDEX_MODE3 10 2,
    RESERVED1 12 10, KCACHE_BANK2 22 4, KCACHE_BANK3 26 4, KCACHE_MODE2 30 2 });
word!(/// CF_ALU_WORD1_EXT: second dword of the ALU_EXTENDED prefix.
    CF_ALU_WORD1_EXT = "CF_ALU_WORD1_EXT" { KCACHE_MODE3 0 2, KCACHE_ADDR2 2 8, KCACHE_ADDR3 10 8,
    RESERVED0 18 8, CF_INST 26 4, RESERVED1 30 1, BARRIER 31 1 });
word!(/// CF_ALLOC_EXPORT_WORD0: first dword of exports and memory writes.
    CF_ALLOC_EXPORT_WORD0 = "CF_ALLOC_EXPORT_WORD0" { ARRAY_BASE 0 13, TYPE 13 2, RW_GPR 15 7,
    RW_REL 22 1, INDEX_GPR 23 7, ELEM_SIZE 30 2 });
word!(/// CF_ALLOC_EXPORT_WORD0_RAT: first dword of UAV (RAT) exports.
    CF_ALLOC_EXPORT_WORD0_RAT = "CF_ALLOC_EXPORT_WORD0_RAT" { RAT_ID 0 4, RAT_INST 4 6, RESERVED 10 1,
    RAT_INDEX_MODE 11 2, TYPE 13 2, RW_GPR 15 7, RW_REL 22 1, INDEX_GPR 23 7, ELEM_SIZE 30 2 });
word!(/// CF_ALLOC_EXPORT_WORD1_BUF: second dword of memory/RAT exports.
    CF_ALLOC_EXPORT_WORD1_BUF = "CF_ALLOC_EXPORT_WORD1_BUF" { ARRAY_SIZE 0 12, COMP_MASK 12 4,
    BURST_COUNT 16 4, VALID_PIXEL_MODE 20 1, RESERVED 21 1, CF_INST 22 8, MARK 30 1, BARRIER 31 1 });
word!(/// CF_ALLOC_EXPORT_WORD1_SWIZ: second dword of pixel/position/parameter exports.
    CF_ALLOC_EXPORT_WORD1_SWIZ = "CF_ALLOC_EXPORT_WORD1_SWIZ" { SEL_X 0 3, SEL_Y 3 3, SEL_Z 6 3,
    SEL_W 9 3, RESERVED0 12 4, BURST_COUNT 16 4, VALID_PIXEL_MODE 20 1, RESERVED1 21 1, CF_INST 22 8,
    MARK 30 1, BARRIER 31 1 });
word!(/// ALU_WORD0: first dword of ALU instructions.
    ALU_WORD0 = "ALU_WORD0" { SRC0_SEL 0 9, SRC0_REL 9 1, SRC0_CHAN 10 2, SRC0_NEG 12 1,
    SRC1_SEL 13 9, SRC1_REL 22 1, SRC1_CHAN 23 2, SRC1_NEG 25 1, INDEX_MODE 26 3, PRED_SEL 29 2,
    LAST 31 1 });
word!(/// ALU_WORD1_OP2: second dword of zero-to-two-source ALU instructions.
    ALU_WORD1_OP2 = "ALU_WORD1_OP2" { SRC0_ABS 0 1, SRC1_ABS 1 1, UPDATE_EXEC_MASK 2 1,
    UPDATE_PRED 3 1, WRITE_MASK 4 1, OMOD 5 2, ALU_INST 7 11, BANK_SWIZZLE 18 3, DST_GPR 21 7,
    DST_REL 28 1, DST_CHAN 29 2, CLAMP 31 1 });
word!(/// ALU_WORD1_OP3: second dword of three-source ALU instructions.
    ALU_WORD1_OP3 = "ALU_WORD1_OP3" { SRC2_SEL 0 9, SRC2_REL 9 1, SRC2_CHAN 10 2, SRC2_NEG 12 1,
    ALU_INST 13 5, BANK_SWIZZLE 18 3, DST_GPR 21 7, DST_REL 28 1, DST_CHAN 29 2, CLAMP 31 1 });
word!(/// ALU_WORD1_OP2_MOVA: second dword of MOVA_INT.
    ALU_WORD1_OP2_MOVA = "ALU_WORD1_OP2_MOVA" { SRC0_ABS 0 1, SRC1_ABS 1 1, UPDATE_EXEC_MASK 2 1,
    UPDATE_PRED 3 1, WRITE_MASK 4 1, OMOD 5 2, ALU_INST 7 11, BANK_SWIZZLE 18 3, MOVA_DST 21 7,
    DST_REL 28 1, DST_CHAN 29 2, CLAMP 31 1 });
word!(/// ALU_WORD1_OP2_EXECUTE_MASK: second dword of PRED_SET*/KILL* that update the active mask.
    ALU_WORD1_OP2_EXECUTE_MASK = "ALU_WORD1_OP2_EXECUTE_MASK" { SRC0_ABS 0 1, SRC1_ABS 1 1,
    UPDATE_EXEC_MASK 2 1, UPDATE_PRED 3 1, WRITE_MASK 4 1, EXECUTE_MASK_OP 5 2, ALU_INST 7 11,
    BANK_SWIZZLE 18 3, DST_GPR 21 7, DST_REL 28 1, DST_CHAN 29 2, CLAMP 31 1 });
word!(/// ALU_WORD0_LDS_IDX_OP: first dword of LDS indexed operations.
    ALU_WORD0_LDS_IDX_OP = "ALU_WORD0_LDS_IDX_OP" { SRC0_SEL 0 9, SRC0_REL 9 1, SRC0_CHAN 10 2,
    IDX_OFFSET_4 12 1, SRC1_SEL 13 9, SRC1_REL 22 1, SRC1_CHAN 23 2, IDX_OFFSET_5 25 1,
    INDEX_MODE 26 3, PRED_SEL 29 2, LAST 31 1 });
word!(/// ALU_WORD1_LDS_IDX_OP: second dword of LDS indexed operations.
    ALU_WORD1_LDS_IDX_OP = "ALU_WORD1_LDS_IDX_OP" { SRC2_SEL 0 9, SRC2_REL 9 1, SRC2_CHAN 10 2,
    IDX_OFFSET_1 12 1, ALU_INST 13 5, BANK_SWIZZLE 18 3, LDS_OP 21 6, IDX_OFFSET_0 27 1,
    IDX_OFFSET_2 28 1, DST_CHAN 29 2, IDX_OFFSET_3 31 1 });
word!(/// ALU_WORD1_LDS_DIRECT_LITERAL_LO: literal dword 0 of an LDS direct read.
    ALU_WORD1_LDS_DIRECT_LITERAL_LO = "ALU_WORD1_LDS_DIRECT_LITERAL_LO" { OFFSET_A 0 13, STRIDE_A 13 7,
    RESERVED0 20 2, THREAD_REL_A 22 1, RESERVED1 23 9 });
word!(/// ALU_WORD1_LDS_DIRECT_LITERAL_HI: literal dword 1 of an LDS direct read.
    ALU_WORD1_LDS_DIRECT_LITERAL_HI = "ALU_WORD1_LDS_DIRECT_LITERAL_HI" { OFFSET_B 0 13, STRIDE_B 13 7,
    RESERVED0 20 2, THREAD_REL_B 22 1, RESERVED1 23 8, DIRECT_READ_32 31 1 });
word!(/// VTX_WORD0: first dword of vertex fetches.
    VTX_WORD0 = "VTX_WORD0" { VC_INST 0 5, FETCH_TYPE 5 2, FETCH_WHOLE_QUAD 7 1, BUFFER_ID 8 8,
    SRC_GPR 16 7, SRC_REL 23 1, SRC_SEL_X 24 2, SRC_SEL_Y 26 2, STRUCTURED_READ 28 2, LDS_REQ 30 1,
    COALESCED_READ 31 1 });
word!(/// VTX_WORD1_GPR: second dword of vertex fetches that name a destination GPR.
    VTX_WORD1_GPR = "VTX_WORD1_GPR" { DST_GPR 0 7, DST_REL 7 1, RESERVED 8 1, DST_SEL_X 9 3,
    DST_SEL_Y 12 3, DST_SEL_Z 15 3, DST_SEL_W 18 3, USE_CONST_FIELDS 21 1, DATA_FORMAT 22 6,
    NUM_FORMAT_ALL 28 2, FORMAT_COMP_ALL 30 1, SRF_MODE_ALL 31 1 });
word!(/// VTX_WORD1_SEM: second dword of semantic vertex fetches.
    VTX_WORD1_SEM = "VTX_WORD1_SEM" { SEMANTIC_ID 0 8, RESERVED 8 1, DST_SEL_X 9 3, DST_SEL_Y 12 3,
    DST_SEL_Z 15 3, DST_SEL_W 18 3, USE_CONST_FIELDS 21 1, DATA_FORMAT 22 6, NUM_FORMAT_ALL 28 2,
    FORMAT_COMP_ALL 30 1, SRF_MODE_ALL 31 1 });
word!(/// VTX_WORD2: third dword of vertex fetches.
    VTX_WORD2 = "VTX_WORD2" { OFFSET 0 16, ENDIAN_SWAP 16 2, CONST_BUF_NO_STRIDE 18 1, RESERVED0 19 1,
    ALT_CONST 20 1, BUFFER_INDEX_MODE 21 2, RESERVED1 23 9 });
word!(/// TEX_WORD0: first dword of texture fetches.
    TEX_WORD0 = "TEX_WORD0" { TEX_INST 0 5, INST_MOD 5 2, FETCH_WHOLE_QUAD 7 1, RESOURCE_ID 8 8,
    SRC_GPR 16 7, SRC_REL 23 1, ALT_CONST 24 1, RESOURCE_INDEX_MODE 25 2, SAMPLER_INDEX_MODE 27 2,
    RESERVED 29 3 });
word!(/// TEX_WORD1: second dword of texture fetches.
    TEX_WORD1 = "TEX_WORD1" { DST_GPR 0 7, DST_REL 7 1, RESERVED 8 1, DST_SEL_X 9 3, DST_SEL_Y 12 3,
    DST_SEL_Z 15 3, DST_SEL_W 18 3, LOD_BIAS 21 7, COORD_TYPE_X 28 1, COORD_TYPE_Y 29 1,
    COORD_TYPE_Z 30 1, COORD_TYPE_W 31 1 });
word!(/// TEX_WORD2: third dword of texture fetches.
    TEX_WORD2 = "TEX_WORD2" { OFFSET_X 0 5, OFFSET_Y 5 5, OFFSET_Z 10 5, SAMPLER_ID 15 5,
    SRC_SEL_X 20 3, SRC_SEL_Y 23 3, SRC_SEL_Z 26 3, SRC_SEL_W 29 3 });
word!(/// MEM_RD_WORD0: first dword of memory reads.
    MEM_RD_WORD0 = "MEM_RD_WORD0" { MEM_INST 0 5, ELEM_SIZE 5 2, FETCH_WHOLE_QUAD 7 1, MEM_OP 8 3,
    UNCACHED 11 1, INDEXED 12 1, SRC_SEL_Y 13 2, RESERVED 15 1, SRC_GPR 16 7, SRC_REL 23 1,
    SRC_SEL_X 24 2, BURST_COUNT 26 4, LDS_REQ 30 1, COALESCED_READ 31 1 });
word!(/// MEM_RD_WORD1: second dword of memory reads.
    MEM_RD_WORD1 = "MEM_RD_WORD1" { DST_GPR 0 7, DST_REL 7 1, RESERVED0 8 1, DST_SEL_X 9 3,
    DST_SEL_Y 12 3, DST_SEL_Z 15 3, DST_SEL_W 18 3, RESERVED1 21 1, DATA_FORMAT 22 6,
    NUM_FORMAT_ALL 28 2, FORMAT_COMP_ALL 30 1, SRF_MODE_ALL 31 1 });
word!(/// MEM_RD_WORD2: third dword of memory reads.
    MEM_RD_WORD2 = "MEM_RD_WORD2" { ARRAY_BASE 0 13, RESERVED0 13 3, ENDIAN_SWAP 16 2, RESERVED1 18 2,
    ARRAY_SIZE 20 12 });
word!(/// MEM_GDS_WORD0: first dword of global data share operations.
    MEM_GDS_WORD0 = "MEM_GDS_WORD0" { MEM_INST 0 5, RESERVED0 5 3, MEM_OP 8 3, SRC_GPR 11 7,
    SRC_REL_MODE 18 2, SRC_SEL_X 20 3, SRC_SEL_Y 23 3, SRC_SEL_Z 26 3, RESERVED1 29 3 });
word!(/// MEM_GDS_WORD1: second dword of global data share operations.
    MEM_GDS_WORD1 = "MEM_GDS_WORD1" { DST_GPR 0 7, DST_REL_MODE 7 2, GDS_OP 9 6, RESERVED0 15 1,
    SRC_GPR 16 7, RESERVED1 23 1, UAV_INDEX_MODE 24 2, UAV_ID 26 4, ALLOC_CONSUME 30 1,
    BCAST_FIRST_REQ 31 1 });
word!(/// MEM_GDS_WORD2: third dword of global data share operations.
    MEM_GDS_WORD2 = "MEM_GDS_WORD2" { DST_SEL_X 0 3, DST_SEL_Y 3 3, DST_SEL_Z 6 3, DST_SEL_W 9 3,
    RESERVED 12 20 });

/// Every dword format of chapter 9.
pub const ALL_FORMATS: &[WordFormat] = &[
    CF_WORD0::FORMAT,
    CF_GWS_WORD0::FORMAT,
    CF_WORD1::FORMAT,
    CF_ALU_WORD0::FORMAT,
    CF_ALU_WORD1::FORMAT,
    CF_ALU_WORD0_EXT::FORMAT,
    CF_ALU_WORD1_EXT::FORMAT,
    CF_ALLOC_EXPORT_WORD0::FORMAT,
    CF_ALLOC_EXPORT_WORD0_RAT::FORMAT,
    CF_ALLOC_EXPORT_WORD1_BUF::FORMAT,
    CF_ALLOC_EXPORT_WORD1_SWIZ::FORMAT,
    ALU_WORD0::FORMAT,
    ALU_WORD1_OP2::FORMAT,
    ALU_WORD1_OP3::FORMAT,
    ALU_WORD1_OP2_MOVA::FORMAT,
    ALU_WORD1_OP2_EXECUTE_MASK::FORMAT,
    ALU_WORD0_LDS_IDX_OP::FORMAT,
    ALU_WORD1_LDS_IDX_OP::FORMAT,
    ALU_WORD1_LDS_DIRECT_LITERAL_LO::FORMAT,
    ALU_WORD1_LDS_DIRECT_LITERAL_HI::FORMAT,
    VTX_WORD0::FORMAT,
    VTX_WORD1_GPR::FORMAT,
    VTX_WORD1_SEM::FORMAT,
    VTX_WORD2::FORMAT,
    TEX_WORD0::FORMAT,
    TEX_WORD1::FORMAT,
    TEX_WORD2::FORMAT,
    MEM_RD_WORD0::FORMAT,
    MEM_RD_WORD1::FORMAT,
    MEM_RD_WORD2::FORMAT,
    MEM_GDS_WORD0::FORMAT,
    MEM_GDS_WORD1::FORMAT,
    MEM_GDS_WORD2::FORMAT,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_covers_32_bits_exactly_once() {
        for f in ALL_FORMATS {
            let mut seen = 0u64;
            for fld in f.fields {
                assert!(
                    fld.width > 0 && fld.lo as u32 + fld.width as u32 <= 32,
                    "{} {}",
                    f.name,
                    fld.name
                );
                let m = (fld.mask() as u64) << fld.lo;
                assert_eq!(seen & m, 0, "{}: {} overlaps", f.name, fld.name);
                seen |= m;
            }
            assert_eq!(seen, 0xffff_ffff, "{} does not cover all bits", f.name);
        }
    }
}
