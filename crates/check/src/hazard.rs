//! The "manually inserted wait states" of each generation as a table, and a
//! checker that runs over a window of the last issued instructions.
//!
//! The hardware does not check these dependencies: software must put enough
//! independent instructions or `s_nop`s between the two instructions of each
//! [`RULES`] row. `s_nop N` counts N+1 wait states, every other instruction
//! one. The run-time checker feeds the [`Window`] the instructions a wave
//! issues, in order; the static checker feeds it the paths of the control
//! flow graph and joins windows where paths meet ([`Window::join`]), so the
//! wait states it counts are the minimum over all paths.
//!
//! Sources: the "Manually Inserted Wait States (NOPs)" tables of AMD's
//! Southern Islands, Sea Islands, GCN3 and Vega ISA guides; LLVM's
//! `GCNHazardRecognizer.cpp` and `GCNSubtarget.h` (facts only) where they
//! narrow a rule to some generations.

use crate::access::{self, fl, mem, Access, Class, File, Reg, Use, EXEC, M0, VCC};
use risa_gcn::{Field, Gen, Instr};

/// The instruction that makes the hazard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Producer {
    /// A VALU instruction writes an SGPR (VCC included).
    ValuWritesSgpr,
    /// A VALU instruction writes VCC.
    ValuWritesVcc,
    /// A VALU instruction writes EXEC.
    ValuWritesExec,
    /// A VALU instruction writes a VGPR.
    ValuWritesVgpr,
    /// An SALU instruction writes M0.
    SaluWritesM0,
    /// An SALU instruction writes an SGPR.
    SaluWritesSgpr,
    /// `s_setreg*` of any hardware register.
    Setreg,
    /// `s_setreg*` of MODE bits that include VSKIP (bit 28).
    SetregVskip,
    /// `s_setreg*` of TRAPSTS.
    SetregTrapsts,
    /// `s_setvskip`.
    Setvskip,
    /// A member of a soft clause (consecutive SMEM, or consecutive
    /// VMEM/FLAT instructions).
    ClauseMember,
    /// A vector memory store of more than 64 bits of data (FLAT x3/x4 and
    /// cmpswap_x2; buffer x3/x4 and cmpswap_x2 whose SOFFSET is not an
    /// SGPR; image stores and atomics of more than two dwords).
    WideStore,
}

/// The instruction that would see the wrong value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consumer {
    /// A VMEM (or FLAT) instruction reads the SGPR.
    VmemReadsSgpr,
    /// An SMRD instruction reads the SGPR.
    SmrdReadsSgpr,
    /// `s_buffer_load*` reads the SGPR.
    SbufferReadsSgpr,
    /// `v_readlane`/`v_writelane` uses the SGPR as lane select.
    LaneSelect,
    /// `v_div_fmas_*` (reads VCC).
    DivFmas,
    /// A VALU instruction reads VCCZ as a source (`src_vccz`).
    ReadsVccz,
    /// A VALU instruction reads EXECZ as a source (`src_execz`).
    ReadsExecz,
    /// A DPP instruction reads the VGPR.
    DppReadsVgpr,
    /// Any DPP instruction.
    Dpp,
    /// `s_getreg*` of the same hardware register.
    GetregSame,
    /// `s_setreg*` of the same hardware register.
    SetregSame,
    /// `s_getreg*` of MODE.
    GetregMode,
    /// Any vector instruction (VALU, VMEM, FLAT, DS, export).
    AnyVector,
    /// `s_rfe*`.
    Rfe,
    /// GDS, `s_sendmsg*`, `s_ttracedata` (read M0).
    GdsOrMessage,
    /// LDS add-TID, LDS DMA (buffer/global/scratch with LDS=1,
    /// `buffer_store_lds_dword`), interpolation and `src_lds_direct`.
    LdsM0,
    /// `s_movrel*`.
    SMovrel,
    /// A VALU instruction writes a VGPR that holds the store's data.
    ValuOverwritesData,
    /// The next memory instruction of the same soft clause.
    ClauseMember,
}

/// One wait-state rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Short name (used in messages and tests).
    pub name: &'static str,
    /// The rule as the ISA guide states it.
    pub text: &'static str,
    /// Wait states required per generation ([`Gen`] order; 0: no such rule).
    pub waits: [u8; 4],
    /// The first instruction.
    pub producer: Producer,
    /// The second instruction.
    pub consumer: Consumer,
    /// Where the rule comes from.
    pub source: &'static str,
}

impl Rule {
    /// Wait states the rule needs in `gen` (0: it does not apply).
    #[inline]
    pub fn waits(&self, gen: Gen) -> u32 {
        u32::from(self.waits[gen as usize])
    }
}

use Consumer as C;
use Producer as P;

/// Every rule, per generation.
pub const RULES: &[Rule] = &[
    Rule {
        name: "setreg-getreg",
        text: "S_SETREG (any register) then S_GETREG of the same register",
        waits: [2, 2, 2, 2],
        producer: P::Setreg,
        consumer: C::GetregSame,
        source: "SI/CI/GCN3/Vega guides; LLVM checkGetRegHazards",
    },
    Rule {
        name: "setreg-setreg",
        text: "S_SETREG (any register) then S_SETREG of the same register",
        waits: [1, 1, 2, 2],
        producer: P::Setreg,
        consumer: C::SetregSame,
        source: "GCN3/Vega guides (2); LLVM getSetRegWaitStates: 1 up to CI",
    },
    Rule {
        name: "setvskip-getreg",
        text: "S_SETVSKIP then S_GETREG MODE",
        waits: [2, 2, 2, 2],
        producer: P::Setvskip,
        consumer: C::GetregMode,
        source: "SI/CI/GCN3/Vega guides",
    },
    Rule {
        name: "setreg-vskip-vector",
        text: "S_SETREG MODE.vskip then any vector instruction",
        waits: [2, 2, 2, 2],
        producer: P::SetregVskip,
        consumer: C::AnyVector,
        source: "SI/CI/GCN3/Vega guides",
    },
    Rule {
        name: "valu-vcc-vccz",
        text: "VALU that sets VCC then VALU that uses VCCZ as a data source",
        waits: [5, 5, 5, 5],
        producer: P::ValuWritesVcc,
        consumer: C::ReadsVccz,
        source: "SI/CI/GCN3/Vega guides",
    },
    Rule {
        name: "valu-exec-execz",
        text: "VALU that sets EXEC then VALU that uses EXECZ as a data source",
        waits: [5, 5, 5, 5],
        producer: P::ValuWritesExec,
        consumer: C::ReadsExecz,
        source: "SI/CI/GCN3/Vega guides",
    },
    Rule {
        name: "valu-sgpr-lane-select",
        text: "VALU writes SGPR/VCC (readlane, cmp, add/sub, div_scale) then \
               V_{READ,WRITE}LANE using that SGPR/VCC as the lane select",
        waits: [4, 4, 4, 4],
        producer: P::ValuWritesSgpr,
        consumer: C::LaneSelect,
        source: "SI/CI/GCN3/Vega guides; LLVM checkRWLaneHazards",
    },
    Rule {
        name: "valu-vcc-div-fmas",
        text: "VALU writes VCC (including v_div_scale) then V_DIV_FMAS",
        waits: [4, 4, 4, 4],
        producer: P::ValuWritesVcc,
        consumer: C::DivFmas,
        source: "SI/CI/GCN3/Vega guides; LLVM checkDivFMasHazards",
    },
    Rule {
        name: "wide-store-data",
        text: "VMEM store of more than 64 bits then a VALU write of VGPRs holding its data",
        waits: [0, 1, 1, 1],
        producer: P::WideStore,
        consumer: C::ValuOverwritesData,
        source: "CI/GCN3/Vega guides; LLVM has12DWordStoreHazard (not SI)",
    },
    Rule {
        name: "valu-sgpr-vmem",
        text: "VALU writes SGPR then VMEM reads that SGPR",
        waits: [0, 0, 5, 5],
        producer: P::ValuWritesSgpr,
        consumer: C::VmemReadsSgpr,
        source: "GCN3/Vega guides; LLVM hasVMEMReadSGPRVALUDefHazard (GCN 1.2+)",
    },
    Rule {
        name: "valu-sgpr-smrd",
        text: "VALU writes SGPR then SMRD reads that SGPR",
        waits: [4, 0, 0, 0],
        producer: P::ValuWritesSgpr,
        consumer: C::SmrdReadsSgpr,
        source: "LLVM hasSMRDReadVALUDefHazard (SI only)",
    },
    Rule {
        name: "salu-sgpr-sbuffer",
        text: "SALU writes SGPR then S_BUFFER_LOAD reads it (descriptor)",
        waits: [4, 0, 0, 0],
        producer: P::SaluWritesSgpr,
        consumer: C::SbufferReadsSgpr,
        source: "LLVM checkSMRDHazards (SI only, found by testing, undocumented)",
    },
    Rule {
        name: "salu-m0-gds-msg",
        text: "SALU writes M0 then GDS, S_SENDMSG or S_TTRACE_DATA",
        waits: [1, 1, 1, 1],
        producer: P::SaluWritesM0,
        consumer: C::GdsOrMessage,
        source: "SI/CI/GCN3/Vega guides; LLVM hasReadM0SendMsgHazard (GCN 1.2-1.4)",
    },
    Rule {
        name: "valu-vgpr-dpp",
        text: "VALU writes VGPR then VALU DPP reads that VGPR",
        waits: [0, 0, 2, 2],
        producer: P::ValuWritesVgpr,
        consumer: C::DppReadsVgpr,
        source: "GCN3/Vega guides; LLVM checkDPPHazards",
    },
    Rule {
        name: "valu-exec-dpp",
        text: "VALU writes EXEC then VALU DPP op (ALU does not forward EXEC)",
        waits: [0, 0, 5, 5],
        producer: P::ValuWritesExec,
        consumer: C::Dpp,
        source: "GCN3/Vega guides; LLVM checkDPPHazards",
    },
    Rule {
        name: "setreg-trapsts-rfe",
        text: "S_SETREG TRAPSTS then RFE/RFE_restore",
        waits: [0, 0, 1, 1],
        producer: P::SetregTrapsts,
        consumer: C::Rfe,
        source: "GCN3/Vega guides; LLVM hasRFEHazards (GCN 1.2+)",
    },
    Rule {
        name: "salu-m0-lds",
        text: "SALU writes M0 then LDS add-TID, buffer_store_LDS_dword, scratch or \
               global with LDS=1, VINTERP or LDS_direct",
        waits: [0, 0, 0, 1],
        producer: P::SaluWritesM0,
        consumer: C::LdsM0,
        source: "Vega guide; LLVM hasReadM0MovRelInterpHazard/LdsDma/LdsDirect (GFX9)",
    },
    Rule {
        name: "salu-m0-movrel",
        text: "SALU writes M0 then S_MOVREL",
        waits: [0, 0, 0, 1],
        producer: P::SaluWritesM0,
        consumer: C::SMovrel,
        source: "Vega guide; LLVM checkReadM0Hazards for S_MOVREL* (GFX9)",
    },
    Rule {
        name: "xnack-soft-clause",
        text: "With XNACK on, the memory instructions of a soft clause (consecutive \
               SMEM, or consecutive VMEM/FLAT) may be replayed: no member may write a \
               register a member reads, and a store ends a clause that writes registers",
        waits: [0, 0, 1, 1],
        producer: P::ClauseMember,
        consumer: C::ClauseMember,
        source: "LLVM checkSoftClauseHazards (GCN 1.2+, XNACK enabled; not in the guides' tables)",
    },
];

/// The rule table as Markdown (docs/static-checks.md holds it; a test
/// keeps the two equal).
pub fn rules_markdown() -> String {
    let mut s = String::from(
        "| rule | the guide's words | GCN 1.0 | 1.1 | 1.2 | 1.4 | source |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in RULES {
        let text = r.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let w: Vec<String> = r
            .waits
            .iter()
            .map(|&w| if w == 0 { "-".into() } else { w.to_string() })
            .collect();
        s.push_str(&format!(
            "| `{}` | {text} | {} | {} | {} | {} | {} |\n",
            r.name, w[0], w[1], w[2], w[3], r.source
        ));
    }
    s
}

/// The soft-clause rule (checked by [`Window`] over the whole clause).
fn clause_rule() -> &'static Rule {
    RULES
        .iter()
        .find(|r| r.producer == P::ClauseMember)
        .unwrap_or(&RULES[0])
}

/// Registers as a bit set: scalar codes 0-127, then VGPRs 0-255.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RegSet([u64; 6]);

impl RegSet {
    fn add(&mut self, r: &Reg) {
        let base = if r.file == File::Vector { 128 } else { 0 };
        for k in r.first..r.first + u16::from(r.count) {
            let b = base + k as usize;
            self.0[b / 64] |= 1 << (b % 64);
        }
    }

    fn meets(&self, o: &RegSet) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }

    fn union(&mut self, o: &RegSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 6]
    }
}

/// The soft clause the last instructions form (XNACK replay hazard).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Clause {
    /// Members (0: no clause open).
    len: u8,
    /// Scalar (SMEM) or vector (VMEM/FLAT) memory.
    smem: bool,
    /// PC of the first member.
    first_pc: u64,
    defs: RegSet,
    uses: RegSet,
}

/// Which clause kind `a` belongs to: Some(true) SMEM, Some(false) VMEM/FLAT.
fn clause_kind(a: &Access) -> Option<bool> {
    match a.class {
        Class::Smem => Some(true),
        Class::Vmem | Class::Flat => Some(false),
        _ => None,
    }
}

impl Clause {
    /// Whether adding `a` to the clause breaks the rule.
    fn breaks(&self, a: &Access) -> bool {
        if self.len == 0 || clause_kind(a) != Some(self.smem) || self.defs.is_empty() {
            return false;
        }
        if a.touches(mem::VMEM_W | mem::SMEM_W) {
            return true;
        }
        let (mut d, mut u) = (self.defs, self.uses);
        a.writes.as_slice().iter().for_each(|r| d.add(r));
        a.reads.as_slice().iter().for_each(|r| u.add(r));
        d.meets(&u)
    }

    /// Adds `a` (issued at `pc`), or starts a new clause with it.
    fn push(&mut self, pc: u64, a: &Access) {
        let Some(smem) = clause_kind(a) else {
            *self = Clause::default();
            return;
        };
        if self.len == 0 || self.smem != smem || self.breaks(a) {
            *self = Clause {
                smem,
                first_pc: pc,
                ..Clause::default()
            };
        }
        self.len = self.len.saturating_add(1);
        a.writes.as_slice().iter().for_each(|r| self.defs.add(r));
        a.reads.as_slice().iter().for_each(|r| self.uses.add(r));
    }

    fn join(&mut self, o: &Clause) -> bool {
        let before = *self;
        if self.len == 0 {
            *self = *o;
        } else if o.len > 0 && o.smem == self.smem {
            self.len = self.len.max(o.len);
            self.first_pc = self.first_pc.min(o.first_pc);
            self.defs.union(&o.defs);
            self.uses.union(&o.uses);
        }
        *self != before
    }
}

/// The most wait states any rule needs: a window need not look further back.
pub const MAX_WAITS: u32 = 5;

/// Wait states an issued instruction accounts for: `s_nop N` is N+1.
#[inline]
pub fn wait_states(i: &Instr, a: &Access) -> u32 {
    if a.has(fl::NOP) {
        (i.field(Field::Simm16) & 0xf) + 1
    } else {
        1
    }
}

/// MODE's VSKIP bit.
const VSKIP_BIT: u8 = 28;

/// The register (if any) of `p` that the producer class writes.
fn produced(producer: Producer, p: &Access) -> Option<Reg> {
    let valu = p.is_valu();
    let salu = p.is_salu();
    let sgpr = |r: &&Reg| r.file == File::Scalar && r.first < 128;
    let first = |pred: &dyn Fn(&Reg) -> bool| p.writes.as_slice().iter().copied().find(|r| pred(r));
    let hw = p.hwreg.filter(|_| p.has(fl::HWREG_W));
    let any = Reg {
        file: File::Scalar,
        first: 0,
        count: 1,
        how: Use::Implicit,
    };
    match producer {
        P::ValuWritesSgpr if valu => first(&|r| sgpr(&r)),
        P::ValuWritesVcc if valu => {
            first(&|r| r.covers(File::Scalar, VCC) || r.covers(File::Scalar, VCC + 1))
        }
        P::ValuWritesExec if valu => {
            first(&|r| r.covers(File::Scalar, EXEC) || r.covers(File::Scalar, EXEC + 1))
        }
        P::ValuWritesVgpr if valu => first(&|r| r.file == File::Vector),
        P::SaluWritesM0 if salu => first(&|r| r.covers(File::Scalar, M0)),
        P::SaluWritesSgpr if salu => first(&|r| sgpr(&r)),
        P::Setreg => hw.map(|_| any),
        P::SetregVskip => hw
            .filter(|h| {
                h.id == access::HW_MODE && h.offset <= VSKIP_BIT && VSKIP_BIT < h.offset + h.size
            })
            .map(|_| any),
        P::SetregTrapsts => hw.filter(|h| h.id == access::HW_TRAPSTS).map(|_| any),
        _ => None,
    }
}

/// Whether `p` (instruction `pi`) is a store of more than 64 bits that the
/// wide-store rule covers, and its data registers.
fn wide_store_data(pi: &Instr, p: &Access) -> Option<Reg> {
    if !p.is_vmem() || !p.touches(mem::VMEM_W) {
        return None;
    }
    let data = p
        .reads
        .as_slice()
        .iter()
        .copied()
        .find(|r| r.how == Use::Data && r.file == File::Vector)?;
    if data.count <= 2 {
        return None;
    }
    // Buffer stores whose SOFFSET is an SGPR need no wait states.
    if matches!(pi.enc, risa_gcn::Enc::Mubuf | risa_gcn::Enc::Mtbuf)
        && pi.field(Field::Soffset) < 128
    {
        return None;
    }
    Some(data)
}

/// What went wrong: the rule, and the register or state that links the two
/// instructions.
#[derive(Debug, Clone, Copy)]
pub struct Violation {
    /// The rule.
    pub rule: &'static Rule,
    /// PC of the producer.
    pub producer_pc: u64,
    /// Wait states the rule needs.
    pub needed: u32,
    /// Wait states there are (on the worst path).
    pub had: u32,
    /// The register that links them (for rules about registers).
    pub reg: Option<Reg>,
}

/// Whether `c` (instruction `ci`) is the rule's consumer of what `p`
/// produced (`reg`); returns the linking register if any.
fn consumes(
    rule: &Rule,
    pi: &Instr,
    p: &Access,
    reg: Option<Reg>,
    ci: &Instr,
    c: &Access,
) -> Option<Option<Reg>> {
    let reads = |pred: &dyn Fn(&Reg) -> bool| c.reads.as_slice().iter().copied().find(|r| pred(r));
    let overlap_read = |how: Option<Use>| {
        let w = p.writes.as_slice();
        reads(&|r| how.is_none_or(|h| r.how == h) && w.iter().any(|x| x.overlaps(r)))
            .map(|r| Some(p.writes.overlapping(&r).copied().unwrap_or(r)))
    };
    let same_hw = || match (p.hwreg, c.hwreg) {
        (Some(a), Some(b)) => a.id == b.id,
        _ => false,
    };
    match rule.consumer {
        C::VmemReadsSgpr if c.is_vmem() => {
            reads(&|r| r.file == File::Scalar && r.how != Use::Implicit && sgpr_overlap(p, r))
                .map(Some)
        }
        C::SmrdReadsSgpr if c.class == Class::Smem => {
            reads(&|r| r.file == File::Scalar && sgpr_overlap(p, r)).map(Some)
        }
        C::SbufferReadsSgpr
            if c.class == Class::Smem && ci.info().name.starts_with("s_buffer_") =>
        {
            reads(&|r| r.file == File::Scalar && sgpr_overlap(p, r)).map(Some)
        }
        C::LaneSelect => overlap_read(Some(Use::LaneSel)),
        C::DivFmas if ci.info().name.starts_with("v_div_fmas") => Some(reg),
        C::ReadsVccz if c.is_valu() && c.has(fl::VCCZ_R) => Some(reg),
        C::ReadsExecz if c.is_valu() && c.has(fl::EXECZ_R) => Some(reg),
        C::DppReadsVgpr if c.has(fl::DPP) => {
            let w = p.writes.as_slice();
            reads(&|r| r.file == File::Vector && w.iter().any(|x| x.overlaps(r)))
                .map(|r| p.writes.overlapping(&r).copied())
        }
        C::Dpp if c.has(fl::DPP) => Some(reg),
        C::GetregSame if c.has(fl::HWREG_R) && same_hw() => Some(None),
        C::SetregSame if c.has(fl::HWREG_W) && same_hw() => Some(None),
        C::GetregMode if c.has(fl::HWREG_R) && c.hwreg.is_some_and(|h| h.id == access::HW_MODE) => {
            Some(None)
        }
        C::AnyVector if !matches!(c.class, Class::Salu | Class::Smem) => Some(None),
        C::Rfe if c.has(fl::RFE) => Some(None),
        C::GdsOrMessage
            if c.reads_sreg(M0) && (c.touches(mem::MSG) || c.touches(mem::GDS_R | mem::GDS_W)) =>
        {
            Some(reg)
        }
        C::LdsM0 if c.reads_sreg(M0) && lds_m0_consumer(ci, c) => Some(reg),
        C::SMovrel if c.is_salu() && c.has(fl::INDEXED) => Some(reg),
        C::ValuOverwritesData if c.is_valu() => {
            let data = wide_store_data(pi, p)?;
            c.writes.overlapping(&data).map(|r| Some(*r))
        }
        _ => None,
    }
}

/// Whether `r` overlaps an SGPR `p` writes.
fn sgpr_overlap(p: &Access, r: &Reg) -> bool {
    p.writes
        .as_slice()
        .iter()
        .any(|w| w.file == File::Scalar && w.overlaps(r))
}

/// LDS instructions that take an address from M0 on GCN 1.4.
fn lds_m0_consumer(ci: &Instr, c: &Access) -> bool {
    let name = ci.info().name;
    c.has(fl::LDS_DIRECT)
        || name.starts_with("v_interp")
        || name.contains("_addtid_")
        || (c.is_vmem()
            && c.reads
                .as_slice()
                .iter()
                .any(|r| r.how == Use::Implicit && r.first == M0 && r.file == File::Scalar))
}

/// Checks a consumer against one earlier instruction `distance` wait states
/// back; calls `out` for each rule it breaks.
pub fn check_pair(
    gen: Gen,
    (pi, p, ppc): (&Instr, &Access, u64),
    distance: u32,
    (ci, c): (&Instr, &Access),
    out: &mut dyn FnMut(Violation),
) {
    let masks = (producer_mask(pi, p), consumer_mask(ci, c));
    check_masked(gen, (pi, p, ppc), distance, (ci, c), masks, out);
}

/// Every producer class, in declaration order (bit `k` of a producer mask).
const PRODUCERS: [Producer; 12] = [
    P::ValuWritesSgpr,
    P::ValuWritesVcc,
    P::ValuWritesExec,
    P::ValuWritesVgpr,
    P::SaluWritesM0,
    P::SaluWritesSgpr,
    P::Setreg,
    P::SetregVskip,
    P::SetregTrapsts,
    P::Setvskip,
    P::ClauseMember,
    P::WideStore,
];

/// Every consumer class (bit `k` of a consumer mask).
const CONSUMERS: [Consumer; 19] = [
    C::VmemReadsSgpr,
    C::SmrdReadsSgpr,
    C::SbufferReadsSgpr,
    C::LaneSelect,
    C::DivFmas,
    C::ReadsVccz,
    C::ReadsExecz,
    C::DppReadsVgpr,
    C::Dpp,
    C::GetregSame,
    C::SetregSame,
    C::GetregMode,
    C::AnyVector,
    C::Rfe,
    C::GdsOrMessage,
    C::LdsM0,
    C::SMovrel,
    C::ValuOverwritesData,
    C::ClauseMember,
];

/// What instruction `pi` produces, per producer class: the register it
/// writes for the class (`Some(None)`: the class has no register).
fn produces(producer: Producer, pi: &Instr, p: &Access) -> Option<Option<Reg>> {
    match producer {
        P::WideStore => wide_store_data(pi, p).map(Some),
        P::Setvskip => (p.is_salu() && pi.info().name == "s_setvskip").then_some(None),
        P::ClauseMember => None,
        _ => produced(producer, p).map(Some),
    }
}

/// The producer classes of an instruction, as bits in `PRODUCERS` order.
pub fn producer_mask(pi: &Instr, p: &Access) -> u32 {
    PRODUCERS
        .iter()
        .enumerate()
        .filter(|(_, &k)| produces(k, pi, p).is_some())
        .fold(0, |m, (b, _)| m | 1 << b)
}

/// The consumer classes an instruction may belong to (the cheap part of
/// `consumes`: the class, not the registers), as bits in `CONSUMERS` order.
pub fn consumer_mask(ci: &Instr, c: &Access) -> u32 {
    let name = ci.info().name;
    let vector = !matches!(c.class, Class::Salu | Class::Smem);
    CONSUMERS
        .iter()
        .enumerate()
        .filter(|(_, &k)| match k {
            C::VmemReadsSgpr => c.is_vmem(),
            C::SmrdReadsSgpr => c.class == Class::Smem,
            C::SbufferReadsSgpr => c.class == Class::Smem && name.starts_with("s_buffer_"),
            C::LaneSelect => c.reads.as_slice().iter().any(|r| r.how == Use::LaneSel),
            C::DivFmas => name.starts_with("v_div_fmas"),
            C::ReadsVccz => c.is_valu() && c.has(fl::VCCZ_R),
            C::ReadsExecz => c.is_valu() && c.has(fl::EXECZ_R),
            C::DppReadsVgpr | C::Dpp => c.has(fl::DPP),
            C::GetregSame | C::GetregMode => c.has(fl::HWREG_R),
            C::SetregSame => c.has(fl::HWREG_W),
            C::AnyVector => vector,
            C::Rfe => c.has(fl::RFE),
            C::GdsOrMessage | C::LdsM0 => c.reads_sreg(M0),
            C::SMovrel => c.is_salu() && c.has(fl::INDEXED),
            C::ValuOverwritesData => c.is_valu(),
            C::ClauseMember => false,
        })
        .fold(0, |m, (b, _)| m | 1 << b)
}

/// The mask bit of a producer class ([`PRODUCERS`] is in declaration order).
#[inline]
fn bit_of_producer(k: Producer) -> u32 {
    1 << k as u32
}

/// The mask bit of a consumer class ([`CONSUMERS`] is in declaration order).
#[inline]
fn bit_of_consumer(k: Consumer) -> u32 {
    1 << k as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn may_produce_covers_every_producer() {
        use risa_gcn::random::{all_forms, random_instr, Rng};
        let mut rng = Rng::new(5);
        for gen in risa_gcn::ALL_GENS {
            for (op, enc) in all_forms(gen) {
                if let Some(i) = random_instr(&mut rng, gen, op, enc) {
                    let a = crate::access::access(&i);
                    assert!(producer_mask(&i, &a) == 0 || may_produce(&i, &a));
                }
            }
        }
    }

    #[test]
    fn class_lists_are_in_declaration_order() {
        for (k, p) in PRODUCERS.iter().enumerate() {
            assert_eq!(*p as usize, k);
        }
        for (k, c) in CONSUMERS.iter().enumerate() {
            assert_eq!(*c as usize, k);
        }
    }
}

/// The rules (bits in [`RULES`] order) whose producer class is in `pmask`.
fn rules_of_producers(pmask: u32) -> u32 {
    RULES
        .iter()
        .enumerate()
        .filter(|(_, r)| pmask & bit_of_producer(r.producer) != 0)
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// The rules whose consumer class is in `cmask`.
fn rules_of_consumers(cmask: u32) -> u32 {
    RULES
        .iter()
        .enumerate()
        .filter(|(_, r)| cmask & bit_of_consumer(r.consumer) != 0)
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// [`check_pair`] with the two instructions' masks already known.
fn check_masked(
    gen: Gen,
    (pi, p, ppc): (&Instr, &Access, u64),
    distance: u32,
    (ci, c): (&Instr, &Access),
    (pmask, cmask): (u32, u32),
    out: &mut dyn FnMut(Violation),
) {
    check_rules(
        gen,
        (pi, p, ppc),
        distance,
        (ci, c),
        rules_of_producers(pmask) & rules_of_consumers(cmask),
        out,
    );
}

/// Checks the rules in `candidates` (bits in [`RULES`] order).
fn check_rules(
    gen: Gen,
    (pi, p, ppc): (&Instr, &Access, u64),
    distance: u32,
    (ci, c): (&Instr, &Access),
    mut candidates: u32,
    out: &mut dyn FnMut(Violation),
) {
    while candidates != 0 {
        let k = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let rule = &RULES[k];
        let need = rule.waits(gen);
        if need <= distance {
            continue;
        }
        let Some(reg) = produces(rule.producer, pi, p) else {
            continue;
        };
        if let Some(link) = consumes(rule, pi, p, reg, ci, c) {
            out(Violation {
                rule,
                producer_pc: ppc,
                needed: need,
                had: distance,
                reg: link,
            });
        }
    }
}

/// One issued instruction the window remembers.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Its PC.
    pub pc: u64,
    /// The instruction.
    pub instr: Instr,
    /// What it reads and writes.
    pub access: Access,
    /// Wait states issued after it so far.
    pub since: u32,
    /// The rules it can be the first instruction of (bits in [`RULES`] order).
    pub rules: u32,
}

/// Capacity of a [`Window`]: one path holds at most [`MAX_WAITS`] entries;
/// joins of several paths may hold more.
pub const WINDOW_CAP: usize = 8;

/// The last issued instructions that can still make a hazard (fewer than
/// [`MAX_WAITS`] wait states ago), allocation-free.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    items: [Option<Entry>; WINDOW_CAP],
    clause: Clause,
    /// Check the soft-clause rule (the chip replays memory instructions on
    /// XNACK).
    xnack: bool,
}

impl Default for Window {
    fn default() -> Self {
        Window::new(false)
    }
}

impl Window {
    /// An empty window; `xnack`: the code runs with XNACK on (the ELF
    /// header's XNACK setting `on` or `any`), so the soft-clause rule applies.
    pub fn new(xnack: bool) -> Self {
        Window {
            items: [None; WINDOW_CAP],
            clause: Clause::default(),
            xnack,
        }
    }

    /// The remembered instructions.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.items.iter().flatten()
    }

    /// Checks instruction `i` (accesses `a`) against the window; calls `out`
    /// for each broken rule.
    pub fn check(&self, i: &Instr, a: &Access, out: &mut dyn FnMut(Violation)) {
        self.check_masked(i, a, consumer_mask(i, a), out)
    }

    /// [`Window::check`] with the instruction's [`consumer_mask`] known (a
    /// caller that sees an instruction many times computes it once).
    pub fn check_masked(&self, i: &Instr, a: &Access, cmask: u32, out: &mut dyn FnMut(Violation)) {
        if cmask != 0 {
            let crules = rules_of_consumers(cmask);
            for e in self.entries() {
                if e.rules & crules != 0 {
                    let pair = ((&e.instr, &e.access, e.pc), (i, a));
                    check_rules(i.gen, pair.0, e.since, pair.1, e.rules & crules, out);
                }
            }
        }
        let rule = clause_rule();
        if self.xnack && rule.waits(i.gen) > 0 && self.clause.breaks(a) {
            out(Violation {
                rule,
                producer_pc: self.clause.first_pc,
                needed: rule.waits(i.gen),
                had: 0,
                reg: None,
            });
        }
    }

    /// Records that `i` issued (after [`Window::check`]).
    pub fn push(&mut self, pc: u64, i: &Instr, a: &Access) {
        self.push_masked(pc, i, a, producer_mask(i, a))
    }

    /// [`Window::push`] with the instruction's [`producer_mask`] known.
    pub fn push_masked(&mut self, pc: u64, i: &Instr, a: &Access, producer_mask: u32) {
        self.clause.push(pc, a);
        let w = wait_states(i, a);
        for slot in self.items.iter_mut() {
            if let Some(e) = slot {
                e.since += w;
                if e.since >= MAX_WAITS {
                    *slot = None;
                }
            }
        }
        // Instructions that produce nothing any rule cares about need no slot.
        if producer_mask == 0 {
            return;
        }
        self.insert(Entry {
            pc,
            instr: *i,
            access: *a,
            since: 0,
            rules: rules_of_producers(producer_mask),
        });
    }

    fn insert(&mut self, e: Entry) {
        if let Some(slot) = self.items.iter_mut().find(|s| s.is_none()) {
            *slot = Some(e);
            return;
        }
        // Full (only after joins of many paths): drop the oldest.
        if let Some(slot) = self
            .items
            .iter_mut()
            .max_by_key(|s| s.map_or(0, |e| e.since))
        {
            *slot = Some(e);
        }
    }

    /// Merges the window of another path into this one (per PC, the fewest
    /// wait states since); returns whether this window changed.
    pub fn join(&mut self, o: &Window) -> bool {
        let mut changed = self.clause.join(&o.clause);
        for e in o.entries() {
            match self.items.iter_mut().flatten().find(|x| x.pc == e.pc) {
                Some(x) if x.since > e.since => {
                    x.since = e.since;
                    changed = true;
                }
                Some(_) => {}
                None => {
                    self.insert(*e);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Forgets everything (the start of a program: nothing issued before).
    pub fn clear(&mut self) {
        *self = Window::new(self.xnack);
    }
}

/// Whether `i` can be the first instruction of any rule.
pub fn may_produce(i: &Instr, a: &Access) -> bool {
    a.is_valu()
        || a.has(fl::HWREG_W)
        || (a.is_salu() && !a.writes.as_slice().is_empty())
        || i.info().name == "s_setvskip"
        || (a.is_vmem() && a.touches(mem::VMEM_W))
}

/// The message of a violation, naming the producer instruction.
///
/// ```
/// use risa_check::hazard::{describe, Violation, RULES};
/// let v = Violation { rule: &RULES[6], producer_pc: 0x10, needed: 4, had: 1, reg: None };
/// assert!(describe(&v, "v_readfirstlane_b32").starts_with(
///     "4 wait states needed after the v_readfirstlane_b32 at 0x10, 1 on the worst path"));
/// ```
pub fn describe(v: &Violation, producer: &str) -> String {
    let what = v.reg.map(|r| format!("; {}", r.name())).unwrap_or_default();
    format!(
        "{} wait state{} needed after the {producer} at {:#x}, {} on the worst path ({}: {}{what})",
        v.needed,
        if v.needed == 1 { "" } else { "s" },
        v.producer_pc,
        v.had,
        v.rule.name,
        v.rule.text.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}
