//! The Cayman rules that need no execution, from the HD 6900 ISA guide:
//! what every ALU group, clause and CF instruction reads and writes, and
//! the guide's "must"/"cannot"/"illegal" statements about PV, AR, MOVA*,
//! PRED_SET* and the LDS output queue. The run-time checker reports them
//! for the groups that run; `risa check` for every group of the program.

use crate::Kind;
use risa_cayman_emu::program::{
    AluClause, AluInstr, CfKind, CfOp, Class, FetchOp, Program, SrcKind,
};

/// A set of GPR elements: bit 4r + c is GPR r, element c.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Chans([u64; 8]);

impl Chans {
    /// Adds GPR `r` element `c`.
    pub fn add(&mut self, r: u8, c: u8) {
        let b = 4 * (r as usize & 127) + (c as usize & 3);
        self.0[b / 64] |= 1 << (b % 64);
    }

    /// The first element in both sets, as (GPR, element).
    pub fn common(&self, o: &Chans) -> Option<(u8, u8)> {
        (0..8).find_map(|k| {
            let x = self.0[k] & o.0[k];
            (x != 0).then(|| {
                let b = 64 * k + x.trailing_zeros() as usize;
                ((b / 4) as u8, (b % 4) as u8)
            })
        })
    }
}

/// GPR `r` element `c` as the disassembler names it.
pub fn gpr_name(r: u8, c: u8) -> String {
    format!("R{r}.{}", ['x', 'y', 'z', 'w'][c as usize & 3])
}

/// What runs a CF instruction's work (clauses of one type never overlap,
/// guide 3.2 BARRIER).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Flow control only: nothing runs beside it.
    None,
    /// An ALU clause.
    Alu,
    /// A fetch through the texture cache (TC clause).
    Tc,
    /// A GDS clause.
    Gds,
    /// A memory export (RAT, scratch, scatter).
    Export,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::None => "CF",
            Unit::Alu => "ALU clause",
            Unit::Tc => "TC clause",
            Unit::Gds => "GDS clause",
            Unit::Export => "memory export",
        }
    }
}

/// What one CF instruction reads and writes, for the BARRIER rule.
#[derive(Clone, Debug)]
pub struct CfFacts {
    /// Its unit.
    pub unit: Unit,
    /// GPR elements it (or its clause) reads.
    pub reads: Chans,
    /// GPR elements it (or its clause) writes.
    pub writes: Chans,
    /// Its BARRIER bit.
    pub barrier: bool,
}

/// The GPR sources an ALU instruction reads (not relative: those are
/// chosen at run time).
pub fn alu_reads(i: &AluInstr) -> impl Iterator<Item = (u8, u8)> + '_ {
    let n = if i.class == Class::Nop {
        0
    } else {
        i.nsrc as usize
    };
    i.src[..n.min(3)].iter().filter_map(|s| match s.kind {
        SrcKind::Gpr(r) if !s.rel => Some((r, s.chan)),
        _ => None,
    })
}

/// The GPR element an ALU instruction writes, if any (not relative).
pub fn alu_write(i: &AluInstr) -> Option<(u8, u8)> {
    (i.write && !i.dst_rel && !matches!(i.class, Class::Nop | Class::Lds))
        .then_some((i.dst_gpr, i.slot))
}

/// The GPR elements a fetch instruction reads and writes (not relative).
pub fn fetch_access(op: &FetchOp, mut read: impl FnMut(u8, u8), mut write: impl FnMut(u8, u8)) {
    let mut dst = |g: u8, rel: bool, sel: &[u8; 4]| {
        if !rel {
            for (c, &s) in sel.iter().enumerate() {
                if s != 7 {
                    write(g, c as u8);
                }
            }
        }
    };
    match op {
        FetchOp::Vtx {
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            ..
        } => {
            if !src_rel && *src_sel < 4 {
                read(*src_gpr, *src_sel);
            }
            dst(*dst_gpr, *dst_rel, dst_sel);
        }
        FetchOp::BufferResinfo {
            dst_gpr,
            dst_rel,
            dst_sel,
            ..
        } => dst(*dst_gpr, *dst_rel, dst_sel),
        FetchOp::Tex(t) => {
            if !t.src_rel {
                for &s in &t.src_sel {
                    if s < 4 {
                        read(t.src_gpr, s);
                    }
                }
            }
            dst(t.dst_gpr, t.dst_rel, &t.dst_sel);
        }
        FetchOp::ScratchRead {
            indexed,
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            burst,
            ..
        } => {
            if *indexed && !src_rel && *src_sel < 4 {
                read(*src_gpr, *src_sel);
            }
            for b in 0..=*burst {
                dst(dst_gpr.wrapping_add(b), *dst_rel, dst_sel);
            }
        }
        FetchOp::Gds {
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            ..
        } => {
            if !src_rel {
                for &s in src_sel {
                    if s < 4 {
                        read(*src_gpr, s);
                    }
                }
            }
            dst(*dst_gpr, *dst_rel, dst_sel);
        }
        FetchOp::Unsupported(_) | FetchOp::Invalid(_) => {}
    }
}

/// The elements of `comps` of GPRs `first` .. `first + bursts`.
fn burst_reads(first: u8, bursts: u8, comps: u8, read: &mut impl FnMut(u8, u8)) {
    for b in 0..=bursts {
        for c in 0..4 {
            if comps >> c & 1 != 0 {
                read(first.wrapping_add(b), c);
            }
        }
    }
}

/// The GPR elements a memory-export CF instruction reads (not relative);
/// with `data` false only its address (INDEX_GPR).
pub fn export_reads(op: &CfOp, data: bool, mut read: impl FnMut(u8, u8)) {
    match &op.kind {
        CfKind::Rat {
            inst,
            ty,
            rw_gpr,
            rw_rel,
            index_gpr,
            comp_mask,
            burst,
            ..
        } => {
            // what the operation reads of RW_GPR (guide 9.2 MEM_RAT: X the
            // data, Z the compare value; MSKOR's mask in W as LLVM emits it;
            // the return address Y is not checked: clang-14 leaves it unset
            // for XCHG_RTN)
            let base = inst.strip_suffix("_RTN").unwrap_or(inst);
            let comps: u8 = match base {
                "STORE_DWORD" | "STORE_TYPED" => *comp_mask,
                "NOP" => 0,
                "CMPXCHG_INT" => 0b101,
                "MSKOR" => 0b1001,
                _ => comp_mask & 1,
            };
            if !rw_rel && data {
                let bursts = if base.starts_with("STORE") { *burst } else { 0 };
                burst_reads(*rw_gpr, bursts, comps, &mut read);
            }
            if ty & 1 != 0 {
                read(*index_gpr, 0);
            }
        }
        CfKind::ScratchWrite {
            indexed,
            rw_gpr,
            rw_rel,
            index_gpr,
            comp_mask,
            burst,
            ..
        } => {
            if !rw_rel && data {
                burst_reads(*rw_gpr, *burst, *comp_mask, &mut read);
            }
            if *indexed {
                read(*index_gpr, 0);
            }
        }
        CfKind::ExportCombined {
            rw_gpr,
            rw_rel: false,
            comp_mask,
            ..
        } => {
            if data {
                read(*rw_gpr, 0);
                if comp_mask >> 1 & 1 != 0 {
                    read(*rw_gpr, 1);
                }
            }
            // W holds the dword address
            read(*rw_gpr, 3);
        }
        _ => {}
    }
}

/// The facts of every CF instruction of `p`.
pub fn cf_facts(p: &Program) -> Vec<CfFacts> {
    p.cf.iter()
        .map(|op| {
            let (mut reads, mut writes) = (Chans::default(), Chans::default());
            let unit = match &op.kind {
                CfKind::Alu { clause, .. } => {
                    if let Some(Ok(cl)) = p.alu.get(*clause as usize) {
                        for i in &cl.instrs {
                            alu_reads(i).for_each(|(r, c)| reads.add(r, c));
                            if let Some((r, c)) = alu_write(i) {
                                writes.add(r, c);
                            }
                        }
                    }
                    Unit::Alu
                }
                CfKind::Tc(k) | CfKind::Gds(k) => {
                    for f in p.fetch.get(*k as usize).into_iter().flatten() {
                        let (rd, wr) = (&mut reads, &mut writes);
                        fetch_access(f, |r, c| rd.add(r, c), |r, c| wr.add(r, c));
                    }
                    if matches!(op.kind, CfKind::Tc(_)) {
                        Unit::Tc
                    } else {
                        Unit::Gds
                    }
                }
                CfKind::Rat { .. }
                | CfKind::ScratchWrite { .. }
                | CfKind::ExportCombined { .. } => {
                    export_reads(op, true, |r, c| reads.add(r, c));
                    Unit::Export
                }
                _ => Unit::None,
            };
            CfFacts {
                unit,
                reads,
                writes,
                barrier: op.barrier,
            }
        })
        .collect()
}

/// The CF instructions that may still run while the next one starts: those
/// since the last one with the BARRIER bit (guide 3.2: "If this bit is set,
/// all prior instructions complete before the current instruction begins";
/// without it, a TC clause and an ALU clause "can co-issue").
#[derive(Default, Clone)]
pub struct BarrierWindow {
    inflight: Vec<u32>,
}

impl BarrierWindow {
    /// CF instruction `pc` starts: the dependence on a clause of another
    /// unit that may still run, if any (as a message).
    pub fn step(&mut self, pc: u32, facts: &[CfFacts]) -> Option<String> {
        let f = facts.get(pc as usize)?;
        if f.barrier {
            self.inflight.clear();
        }
        let mut found = None;
        if !f.barrier && f.unit != Unit::None {
            for &o in self.inflight.iter().rev() {
                let of = &facts[o as usize];
                if of.unit == f.unit {
                    continue;
                }
                let dep = [
                    (f.reads.common(&of.writes), "reads", "writes"),
                    (f.writes.common(&of.reads), "writes", "reads"),
                    (f.writes.common(&of.writes), "writes", "writes"),
                ];
                if let Some((Some((r, c)), mine, theirs)) =
                    dep.into_iter().find(|(d, _, _)| d.is_some())
                {
                    found = Some(format!(
                        "{} {mine} {}, which the {} at CF {o} {theirs}, without the BARRIER bit: \
                         the two may run at once (guide 3.2 BARRIER)",
                        f.unit.name(),
                        gpr_name(r, c),
                        of.unit.name(),
                    ));
                    break;
                }
            }
        }
        if f.unit != Unit::None {
            self.inflight.push(pc);
        }
        found
    }
}

/// The static findings of each group of an ALU clause (index = group).
pub fn clause_rules(cl: &AluClause) -> Vec<Vec<(Kind, String)>> {
    let mut out = vec![Vec::new(); cl.groups.len()];
    let mut mova_seen = false;
    let (mut qa, mut qb) = (0i64, 0i64);
    let mut last_push = None;
    for (gi, g) in cl.groups.iter().enumerate() {
        let ins = &cl.instrs[g.first as usize..g.first as usize + g.len as usize];
        let prev = gi
            .checked_sub(1)
            .map(|p| &cl.groups[p])
            .map(|p| &cl.instrs[p.first as usize..p.first as usize + p.len as usize]);
        let f = &mut out[gi];
        // PV: the previous group's results, not preserved past the clause's
        // end nor by NOPs (4.6.2, 4.9.4); not a MOVA*'s (4.8.3).
        for i in ins {
            let n = if i.class == Class::Nop {
                0
            } else {
                i.nsrc as usize
            };
            for s in &i.src[..n.min(3)] {
                if s.kind != SrcKind::Pv {
                    continue;
                }
                let ch = ['x', 'y', 'z', 'w'][s.chan as usize & 3];
                match prev.map(|p| p.iter().find(|j| j.slot == s.chan)) {
                    None => f.push((
                        Kind::Uninit,
                        format!(
                            "reads PV.{ch} in the first group of the clause: PV is not preserved \
                             past the end of an ALU clause (guide 4.6.2)"
                        ),
                    )),
                    Some(None) => f.push((
                        Kind::Uninit,
                        format!(
                            "reads PV.{ch}, but the previous group has no instruction in slot \
                             {ch} (an empty slot runs a NOP, which invalidates PV; guide 4.6.2, 4.9.4)"
                        ),
                    )),
                    Some(Some(j)) if j.class == Class::Nop => f.push((
                        Kind::Uninit,
                        format!(
                            "reads PV.{ch}, which the previous group's NOP invalidated (guide 4.9.4)"
                        ),
                    )),
                    Some(Some(j)) if j.class == Class::Mova => f.push((
                        Kind::Hazard,
                        format!(
                            "reads PV.{ch} after the previous group's {} in that slot: MOVA* \
                             produce undefined PV values (guide 4.8.3)",
                            j.name
                        ),
                    )),
                    _ => {}
                }
            }
        }
        // AR: set by a MOVA* of an earlier group of the clause, not used in
        // a MOVA*'s group, one element per group (4.6.1, 4.8.3).
        let has_mova = ins.iter().any(|i| i.class == Class::Mova);
        let mut ar_elems = 0u8;
        for i in ins {
            let n = if i.class == Class::Nop {
                0
            } else {
                i.nsrc as usize
            };
            let gpr_rel = i.src[..n.min(3)]
                .iter()
                .any(|s| s.rel && matches!(s.kind, SrcKind::Gpr(_)));
            if (gpr_rel || i.dst_rel) && i.index_mode < 4 {
                ar_elems |= 1 << i.index_mode;
            }
        }
        if ar_elems != 0 {
            if !mova_seen {
                f.push((
                    Kind::Hazard,
                    "uses AR indexing, but no earlier group of the clause ran a MOVA*: AR must be \
                     set by a MOVA* in a prior group of the same clause (guide 4.6.1)"
                        .into(),
                ));
            }
            if has_mova {
                f.push((
                    Kind::Hazard,
                    "uses AR indexing in a group with a MOVA*, which the guide forbids (4.6.1, 4.8.3)"
                        .into(),
                ));
            }
            if ar_elems.count_ones() > 1 {
                f.push((
                    Kind::Hazard,
                    "uses more than one AR element in one group (guide 4.6.1: only one AR element \
                     per instruction group)"
                        .into(),
                ));
            }
        }
        mova_seen |= has_mova;
        // at most one PRED_SET* per group (4.10)
        if ins
            .iter()
            .filter(|i| i.update_pred || i.update_exec)
            .count()
            > 1
        {
            f.push((
                Kind::Hazard,
                "more than one instruction of the group updates the predicate or the active \
                 mask: at most one PRED_SET* per group (guide 4.10)"
                    .into(),
            ));
        }
        // LDS output queue: one kind of use per group; empty at clause end (7.3.4)
        let uses: Vec<(bool, bool)> = ins
            .iter()
            .flat_map(|i| {
                let n = if i.class == Class::Nop {
                    0
                } else {
                    i.nsrc as usize
                };
                i.src[..n.min(3)].iter().filter_map(|s| match s.kind {
                    SrcKind::Oq { b, pop } => Some((b, pop)),
                    _ => None,
                })
            })
            .collect();
        if uses.windows(2).any(|w| w[0] != w[1]) {
            f.push((
                Kind::Hazard,
                "mixes LDS output queue uses in one group (guide 7.3.4: all uses of the queue in \
                 a group must be of the same type, pop or not, A or B)"
                    .into(),
            ));
        }
        if let Some(&(b, true)) = uses.first() {
            if b {
                qb -= 1;
            } else {
                qa -= 1;
            }
        }
        for i in ins {
            if let Some(op) = i.lds {
                if op.name.ends_with("_RET") {
                    qa += 1;
                    last_push = Some(gi);
                }
                if matches!(
                    op.name,
                    "READ2_RET" | "READ_REL_RET" | "XCHG_REL_RET" | "XCHG2_RET"
                ) {
                    qb += 1;
                    last_push = Some(gi);
                }
            }
        }
    }
    if let (Some(at), true) = (last_push, qa > 0 || qb > 0) {
        out[at].push((
            Kind::Waitcnt,
            format!(
                "the clause ends with {} result(s) of its LDS reads in output queue A and {} in B: \
                 a shader must not leave data in the output queue at the end of the clause \
                 (guide 7.3.4)",
                qa.max(0),
                qb.max(0)
            ),
        ));
    }
    out
}
