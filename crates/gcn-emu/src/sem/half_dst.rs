//! What a 16-bit VALU result does to the high half of its destination VGPR,
//! per generation.
//!
//! On GCN 1.2 every 16-bit result written to VDST[15:0] zeroes VDST[31:16].
//! GCN 1.4 (gfx9) changed that for a few instructions, which leave the high
//! half as it was: LLVM records the set in `GCNSubtarget::
//! zeroesHigh16BitsOfDest` ("derived from experimentation": these zero the
//! high bits only on VOLCANIC_ISLANDS, all other 16-bit ALU results zero them
//! through GFX9). The `_legacy` rows at the GCN 1.2 opcodes (v_mad_legacy_f16
//! ...) are the old instructions kept for their old behaviour: they zero,
//! like every row not listed here. OP_SEL[3] (write the high half) always
//! keeps the low half; see `sem::opsel`.

use risa_gcn::Gen;

/// Rows (by table name) whose 16-bit result keeps VDST[31:16], and the
/// generations on which it does.
const KEEPS_HIGH_HALF: &[(&str, &[Gen])] = &[
    ("v_mad_f16", &[Gen::Gcn14]),
    ("v_mad_u16", &[Gen::Gcn14]),
    ("v_mad_i16", &[Gen::Gcn14]),
    ("v_fma_f16", &[Gen::Gcn14]),
    ("v_div_fixup_f16", &[Gen::Gcn14]),
    ("v_mac_f16", &[Gen::Gcn14]),
    ("v_madak_f16", &[Gen::Gcn14]),
    ("v_madmk_f16", &[Gen::Gcn14]),
];

/// Whether row `name`'s 16-bit result leaves the high half of VDST unchanged
/// on `gen` (otherwise it is zeroed).
pub fn keeps_high_half(name: &str, gen: Gen) -> bool {
    KEEPS_HIGH_HALF
        .iter()
        .any(|(n, gens)| *n == name && gens.contains(&gen))
}
