//! Instruction semantics, and the map from a table row to its handler.
//!
//! The map is built once per program (at lowering): each op carries a plain
//! function pointer, so execution never compares names.
//!
//! Contract of every handler: all sources (registers, addresses, M0, EXEC,
//! VCC) are read before any destination is written, as the hardware reads
//! operands at issue, so a destination range may overlap any source. Lane
//! by lane: lane `l`'s sources are read before lane `l` is written; a
//! handler that reads other lanes snapshots the source registers first.
//! `tests/read_before_write.rs` checks it for every row.

mod ds;
mod exact;
mod fork;
mod format;
mod gws;
mod half_dst;
mod mimg;
pub mod opsel;
mod round;
mod salu;
mod sample;
mod screen_partition;
pub mod sdwa;
mod smem;
mod valu;
mod valu_rare;
mod vcmp;
mod vmem;
mod vop3p;

pub use crate::exec::Handler;
use crate::fault::FaultKind;
pub use ds::{lds_footprint, LdsAccess};
pub(crate) use fork::VSKIP;
pub(crate) use format::{components, mask};
pub use half_dst::keeps_high_half;
use risa_gcn::table::{Family, OpInfo, Role};
use risa_gcn::{Enc, Gen};
pub(crate) use salu::GPR_IDX_EN;

pub(crate) type R = Result<(), FaultKind>;
pub(crate) type Table = &'static [(&'static str, Handler)];

fn find(tables: &[Table], name: &str) -> Option<Handler> {
    tables
        .iter()
        .flat_map(|t| t.iter())
        .find(|(n, _)| *n == name)
        .map(|&(_, h)| h)
}

/// Names that mean the same operation as another row's name.
const ALIASES: &[(&str, &str)] = &[
    ("v_mad_legacy_f16", "v_mad_f16"),
    ("v_mad_legacy_u16", "v_mad_u16"),
    ("v_mad_legacy_i16", "v_mad_i16"),
    ("v_fma_legacy_f16", "v_fma_f16"),
    ("v_div_fixup_legacy_f16", "v_div_fixup_f16"),
    // The `_regrd`/`_regwr`/`_prsv` variants differ from their base instruction
    // only in how the hardware orders the register access against pending
    // writes (the CLRX pages give no other operation; see docs/gcn-emulator.md).
    ("s_mov_regrd_b32", "s_mov_b32"),
    ("s_getreg_regrd_b32", "s_getreg_b32"),
    ("v_readlane_regrd_b32", "v_readlane_b32"),
    ("v_mov_prsv_b32", "v_mov_b32"),
    ("v_writelane_regwr_b32", "v_mov_b32"),
];

/// The row name whose semantics `name` shares (see [`ALIASES`]).
fn canonical(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(a, _)| *a == name)
        .map(|&(_, b)| b)
        .unwrap_or(name)
}

/// The handler of a VALU instruction whose result depends on MODE.FP_ROUND,
/// for waves whose rounding mode is not nearest-even; `None` for every other
/// instruction (it runs its ordinary handler in every mode).
pub fn round_handler(info: &OpInfo) -> Option<Handler> {
    if !matches!(
        info.family,
        Family::Vop1 | Family::Vop2 | Family::Vop3 | Family::Vop3p
    ) {
        return None;
    }
    round::lookup(canonical(info.name))
}

/// The instructions whose result follows MODE.FP_ROUND (every other VALU op
/// computes the same in every rounding mode). For tests and documentation.
pub fn rounded_ops() -> Vec<&'static str> {
    round::names().collect()
}

/// The handler of an instruction and its lowering-time data, or why it cannot run.
pub fn handler(info: &OpInfo, enc: Enc, gen: Gen) -> Result<(Handler, u32), FaultKind> {
    if matches!(
        enc,
        Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa | Enc::Vop1Dpp | Enc::Vop2Dpp | Enc::VopcDpp
    ) {
        return Err(FaultKind::Unimplemented(
            if matches!(enc, Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa) {
                "SDWA"
            } else {
                "DPP"
            },
        ));
    }
    let name = canonical(info.name);
    let h = match info.family {
        Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk | Family::Sopp => find(
            &[
                salu::SOP2_32,
                salu::SOP2_64,
                salu::SOP1_32,
                salu::SOP1_64,
                salu::SOP1_64_32,
                salu::SOP1_32_64,
                salu::SAVEEXEC,
                salu::SOPC32,
                salu::SOPC64,
                salu::SOPK,
                salu::CBRANCH,
                salu::MISC,
                fork::FORK,
            ],
            name,
        ),
        Family::Smrd | Family::Smem => return smem::lookup(info),
        Family::Vopc => vcmp::lookup(name),
        Family::Vop3p => find(&[vop3p::VOP3P, vop3p::MIX, vop3p::DOT], name),
        Family::Vop1 | Family::Vop2 | Family::Vop3 => {
            let carry = info.operand(Role::SD).is_some();
            valu::by_gen(name, gen)
                .or_else(|| valu::by_signature(name, carry))
                .or_else(|| find(&[valu::VALU, valu::SPECIAL, valu_rare::VALU_RARE], name))
        }
        Family::Ds => return ds::lookup(info),
        Family::Mubuf | Family::Mtbuf | Family::Flat | Family::Global | Family::Scratch => {
            return vmem::lookup(info)
        }
        Family::Mimg => return mimg::lookup(info),
        Family::Exp | Family::Vintrp => return Err(FaultKind::Unsupported(info.name)),
    };
    h.map(|h| (h, 0)).ok_or(FaultKind::Unimplemented(info.name))
}

/// Every table row's name with whether the emulator has a handler for it in
/// `gen` (rows absent from `gen` are skipped). For coverage reports and tests.
pub fn coverage(gen: Gen) -> Vec<(&'static str, bool)> {
    risa_gcn::OPS
        .iter()
        .filter(|o| o.opcode(gen).is_some())
        .map(|o| {
            let enc = match o.family {
                Family::Vop3 => Enc::Vop3,
                Family::Vop3p => Enc::Vop3p,
                Family::Vop1 => Enc::Vop1,
                Family::Vop2 => Enc::Vop2,
                Family::Vopc => Enc::Vopc,
                _ => Enc::Sop2,
            };
            (o.name, handler(o, enc, gen).is_ok())
        })
        .collect()
}
