//! Instruction semantics, and the map from a table row to its handler.
//!
//! Each row names its semantics in the table (`risa_gcn::semantics`: a
//! [`Sem`] id, or `nosem=REASON`). The handlers here are keyed by that id:
//! the function tables of the ALU modules (`(Sem, Handler)` pairs) are laid
//! out once, at compile time, into [`FUNCS`] and [`ROUND_FUNCS`], indexed by
//! the id. Compare, scalar memory, image (sampling included), DS and vector
//! memory rows run what their row's `Compare` / `ScalarMem` / `ImageMem` /
//! `LdsOp` / `VectorMem` says (derived from the row by the build, which
//! fails on a row it cannot read); no handler is chosen by parsing a row's
//! name. The map is read
//! once per op, at lowering: each op carries a plain function pointer, so
//! execution never looks an id up. `tests/row_semantics.rs` walks every row
//! of every generation: each has semantics or says in the table why not.
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
use risa_gcn::semantics::{row_sem, Sem, Semantics};
use risa_gcn::table::{Family, OpId};
use risa_gcn::{Enc, Gen, OPS};
pub(crate) use salu::GPR_IDX_EN;

pub(crate) type R = Result<(), FaultKind>;
/// Handlers by semantic id, as each ALU module lists them.
pub(crate) type Table = &'static [(Sem, Handler)];

/// One handler per semantic id, from `tables` (`None`: no table has the id).
/// Runs at compile time; an id listed twice fails the build.
const fn by_id(tables: &[Table]) -> [Option<Handler>; Sem::COUNT] {
    let mut out: [Option<Handler>; Sem::COUNT] = [None; Sem::COUNT];
    let mut t = 0;
    while t < tables.len() {
        let mut k = 0;
        while k < tables[t].len() {
            let (sem, h) = tables[t][k];
            assert!(
                out[sem as usize].is_none(),
                "a semantic id has two handlers in the sem tables"
            );
            out[sem as usize] = Some(h);
            k += 1;
        }
        t += 1;
    }
    out
}

/// The handler of every scalar and vector ALU operation, by [`Sem`].
static FUNCS: [Option<Handler>; Sem::COUNT] = by_id(&[
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
    valu::VALU,
    valu::SPECIAL,
    valu_rare::VALU_RARE,
    vop3p::VOP3P,
    vop3p::MIX,
    vop3p::DOT,
]);

/// The rounding-mode forms (see `round`), by [`Sem`].
const ROUND_BY_ID: [Option<Handler>; Sem::COUNT] = by_id(&[round::ROUNDED, round::SPECIAL]);

/// [`ROUND_BY_ID`], where lowering reads it.
static ROUND_FUNCS: [Option<Handler>; Sem::COUNT] = ROUND_BY_ID;

/// The build fails unless the rounding-mode forms are exactly those of the
/// ids of rows flagged `round` (`risa_gcn::semantics::ROUNDED`): a row whose
/// result follows MODE.FP_ROUND cannot lack its form, and no form is dead.
const _: () = {
    let flagged = risa_gcn::semantics::ROUNDED;
    let mut n = 0;
    while n < flagged.len() {
        assert!(
            ROUND_BY_ID[flagged[n] as usize].is_some(),
            "a row flagged `round` has no rounding-mode form in sem/round.rs"
        );
        n += 1;
    }
    let mut forms = 0;
    let mut i = 0;
    while i < Sem::COUNT {
        if ROUND_BY_ID[i].is_some() {
            forms += 1;
        }
        i += 1;
    }
    assert!(
        forms == flagged.len(),
        "sem/round.rs has a rounding-mode form for an id no `round` row names"
    );
};

/// The handler of a VALU row whose result depends on MODE.FP_ROUND, for
/// waves whose rounding mode is not nearest-even; `None` for every other
/// row (it runs its ordinary handler in every mode).
pub fn round_handler(op: OpId) -> Option<Handler> {
    let rs = row_sem(op);
    if !rs.round {
        return None;
    }
    ROUND_FUNCS[rs.id()? as usize]
}

/// The instructions whose result follows MODE.FP_ROUND (every other VALU op
/// computes the same in every rounding mode): the semantic ids of rows
/// flagged `round`. For tests and documentation.
pub fn rounded_ops() -> Vec<&'static str> {
    risa_gcn::semantics::ROUNDED
        .iter()
        .map(|s| s.name())
        .collect()
}

/// Whether row `op`'s 16-bit result keeps the high half of VDST on `gen`
/// (the row's `keephi=` attribute; otherwise the high half is zeroed).
pub fn keeps_high_half(op: OpId, gen: Gen) -> bool {
    row_sem(op).keeps_high_half(gen)
}

/// The handler of row `op` and its lowering-time data, or why it cannot run.
pub fn handler(op: OpId, enc: Enc, gen: Gen) -> Result<(Handler, u32), FaultKind> {
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
    let info = &OPS[op as usize];
    match row_sem(op).sem {
        Semantics::Runs(sem) => resolve(op, sem, gen),
        Semantics::Unsupported(_) => Err(FaultKind::Unsupported(info.name)),
    }
}

/// The handler of row `op`, which names `sem`, on `gen`.
fn resolve(op: OpId, sem: Sem, gen: Gen) -> Result<(Handler, u32), FaultKind> {
    let info = &OPS[op as usize];
    let h = match info.family {
        Family::Smrd | Family::Smem => return smem::lookup(info, row_sem(op).scalar_mem),
        Family::Ds => return ds::lookup(info, row_sem(op).lds),
        Family::Mubuf | Family::Mtbuf | Family::Flat | Family::Global | Family::Scratch => {
            return vmem::lookup(info, row_sem(op).vector_mem)
        }
        Family::Mimg => return mimg::lookup(info, row_sem(op).image),
        Family::Vopc => row_sem(op).compare.as_ref().and_then(vcmp::lookup),
        _ => valu::by_gen(sem, gen).or(FUNCS[sem as usize]),
    };
    h.map(|h| (h, 0)).ok_or(FaultKind::Unimplemented(info.name))
}

/// Whether the emulator has semantics for row `op` on `gen`, leaving its
/// `nosem=` mark aside: `tests/row_semantics.rs` checks the marks against it
/// (a marked row must not run, an unmarked one must).
pub fn resolves(op: OpId, gen: Gen) -> bool {
    let info = &OPS[op as usize];
    let sem = match row_sem(op).sem {
        Semantics::Runs(s) => s,
        Semantics::Unsupported(_) => match Sem::ALL.iter().find(|s| s.name() == info.name) {
            Some(&s) => s,
            None => return false,
        },
    };
    resolve(op, sem, gen).is_ok()
}

/// Every table row's name with whether the emulator has a handler for it in
/// `gen` (rows absent from `gen` are skipped). For coverage reports and tests.
pub fn coverage(gen: Gen) -> Vec<(&'static str, bool)> {
    OPS.iter()
        .enumerate()
        .filter(|(_, o)| o.opcode(gen).is_some())
        .map(|(i, o)| {
            let enc = match o.family {
                Family::Vop3 => Enc::Vop3,
                Family::Vop3p => Enc::Vop3p,
                Family::Vop1 => Enc::Vop1,
                Family::Vop2 => Enc::Vop2,
                Family::Vopc => Enc::Vopc,
                _ => Enc::Sop2,
            };
            (o.name, handler(i as OpId, enc, gen).is_ok())
        })
        .collect()
}
