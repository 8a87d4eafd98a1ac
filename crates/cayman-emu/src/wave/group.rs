//! One ALU group (guide 4.3-4.10), in three passes so that every slot sees
//! the registers as they were before the group: read the sources that are
//! not read in place, execute the slots (per instruction class, in `slots`),
//! then commit PV, GPRs, the predicate, AR, the exception flags and the
//! per-wave registers.

use super::slots;
use super::*;

/// Where an ALU group failed: the slot, the lane (when one lane is at
/// fault) and why.
pub(super) type SlotFault = (Option<u8>, Option<u32>, String);

/// Per-wave buffers of the group loop, kept across groups (and taken out of
/// the wave while a clause runs, so that they borrow apart from it).
pub(super) struct Scratch {
    /// The result of each slot (x, y, z, w) of the current group.
    pub(super) res: [Lanes; 4],
    pub(super) em: ExpandedMask,
    /// The exception flags the current group raises (clauses with `flags`).
    pub(super) flags: Lanes,
    /// Per-wave registers the current group writes (rare; kept out of the
    /// group loop's locals so the common path's registers stay free).
    pub(super) pending: Pending,
    /// Record the group's LDS operations in `lds_log` (observed waves).
    pub(super) log_lds: bool,
    /// The LDS operations of the current group (observed waves).
    pub(super) lds_log: Vec<LdsAccess>,
}

impl Scratch {
    /// Zeroed buffers.
    pub(super) fn new() -> Box<Scratch> {
        Box::new(Scratch {
            res: [[0; LANES]; 4],
            em: ExpandedMask {
                of: 0,
                lanes: [0; LANES],
            },
            flags: [0; LANES],
            pending: Pending::default(),
            log_lds: false,
            lds_log: Vec::new(),
        })
    }
}

/// Per-wave register writes of one ALU group, committed after its slots.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) any: bool,
    pub(super) cf_idx: [Option<u32>; 2],
    pub(super) lds_limit: Option<u32>,
}

/// The operands of a group's slots as the slots read them: in place in the
/// register file (GPRs, PV, and the rows pass 1 materialized) or among the
/// clause's literals.
#[derive(Clone, Copy)]
pub(super) struct Operands<'a> {
    /// The wave's register file rows.
    pub(super) rows: &'a [Lanes],
    /// The clause's literal constants (locations with [`CONST_LOC`]).
    consts: &'a [Lanes],
    /// The group's instructions.
    pub(super) ins: &'a [AluInstr],
}

impl<'a> Operands<'a> {
    /// The operand at location `p`.
    #[inline(always)]
    pub(super) fn at(self, p: u16) -> &'a Lanes {
        if p & CONST_LOC != 0 {
            &self.consts[(p & !CONST_LOC) as usize]
        } else {
            &self.rows[p as usize]
        }
    }

    /// The locations of the sources of the instruction in `slot` (an empty
    /// slot's temporary rows when there is none).
    #[inline(always)]
    pub(super) fn locs_of(self, slot: usize) -> [u16; 3] {
        self.ins
            .iter()
            .find(|j| j.slot as usize == slot)
            .map_or([0, 1, 2].map(|k| TMP_ROW + 3 * slot as u16 + k), |j| j.loc)
    }
}

/// What the slots of a group produce besides their results (in
/// [`Scratch::res`]): which slots write under which lane mask, and the
/// registers they change.
#[derive(Default)]
pub(super) struct SlotOutputs {
    /// Slot c has a result to commit.
    pub(super) writes: [bool; 4],
    /// The lanes slot c writes.
    pub(super) masks: [u64; 4],
    /// The predicate after the group (PRED_SET* with UPDATE_PRED).
    pub(super) new_pred: Option<u64>,
    /// MOVA_INT's AR write: element, lanes, values.
    pub(super) new_ar: Option<(usize, u64, Lanes)>,
    /// The group has `_PREV` ops (run after the other slots).
    pub(super) has_prev: bool,
    /// The group's four-slot op (CUBE, FREXP_64, FLT_TO_UINT4) has run.
    pub(super) quad_done: bool,
    /// The group stores the exception flags (STORE_FLAGS, LOAD_STORE_FLAGS).
    pub(super) has_flags: bool,
}

impl Wave {
    /// Runs ALU group `g` of `clause` over `ctx.exec`. `FLAGS` tracks the
    /// floating-point exception flags (guide 4.13.2).
    #[inline(always)]
    pub(super) fn exec_group<const FLAGS: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        g: &AluGroup,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<(), SlotFault> {
        let ins = &clause.instrs[g.first as usize..g.first as usize + g.len as usize];
        // pass 1: every slot reads its sources before any slot writes. GPR,
        // PV and constant operands are read in place (nothing is written
        // before pass 3); the others are materialized in `tmp`.
        let mut d = g.dyn_srcs;
        while d != 0 {
            let bit = d.trailing_zeros() as usize;
            d &= d - 1;
            let i = &ins[bit / 3];
            let k = bit % 3;
            let mut buf = [0u32; LANES];
            self.read_src(env, lds, ctx, i, &i.src[k], &mut buf)
                .map_err(|e| (Some(i.slot), None, e))?;
            self.rows[i.loc[k] as usize] = buf;
        }
        // pass 2: compute into `res`
        let mut out = SlotOutputs::default();
        if FLAGS {
            sc.flags = [0; LANES];
        }
        self.exec_slots::<FLAGS>(lds, ins, &clause.consts, ctx, sc, &mut out)?;
        let ops = Operands {
            rows: &self.rows,
            consts: &clause.consts,
            ins,
        };
        if out.has_prev {
            slots::prev_ops::<FLAGS>(ops, &mut sc.res, &mut sc.flags, &mut out)?;
        }
        // STORE_FLAGS / LOAD_STORE_FLAGS (W slot): the flags so far,
        // "inclusive of the current VLIW"
        let mut load_flags: Option<(u64, Lanes)> = None;
        if FLAGS && out.has_flags {
            let i = ins.iter().find(|j| j.slot == 3).expect("flags op in W");
            let m = out.masks[3];
            for l in 0..LANES {
                sc.res[3][l] = self.flags[l] | sc.flags[l];
            }
            out.writes[3] = true;
            if i.sem == Sem::LoadStoreFlags {
                load_flags = Some((m, *ops.at(i.loc[0])));
            }
        }
        // pass 3
        self.commit::<FLAGS>(env, ins, sc, &out, load_flags.as_ref());
        Ok(())
    }

    /// Pass 2 of [`Wave::exec_group`]: each slot of `ins` computes its
    /// result into `sc.res` (the `_PREV` ops, which need the other slots'
    /// results, only mark `out.has_prev`).
    #[inline(always)]
    fn exec_slots<const FLAGS: bool>(
        &mut self,
        lds: &mut [u32],
        ins: &[AluInstr],
        consts: &[Lanes],
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
        out: &mut SlotOutputs,
    ) -> Result<(), SlotFault> {
        let exec = ctx.exec;
        let res = &mut sc.res;
        let pred = self.pred;
        let ops = Operands {
            rows: &self.rows,
            consts,
            ins,
        };
        for i in ins {
            if i.dead {
                continue;
            }
            let slot = i.slot as usize;
            let m = match i.pred_sel {
                0 => exec,
                2 => exec & !pred,
                3 => exec & pred,
                _ => return Err((Some(i.slot), None, "PRED_SEL = 1 is reserved".into())),
            };
            out.masks[slot] = m;
            match i.class {
                Class::Nop => {}
                Class::Plain => {
                    slots::plain::<FLAGS>(i, ops, m, &mut res[slot], &mut sc.flags);
                    out.writes[slot] = true;
                }
                Class::Lds => {
                    slots::lds(
                        i,
                        ops.rows,
                        m,
                        self.lds_limit,
                        &mut self.oq,
                        lds,
                        sc.log_lds.then_some(&mut sc.lds_log),
                    )?;
                    self.stats.lds_ops += 1;
                }
                Class::PredSet => {
                    let bits = slots::pred_set::<FLAGS>(i, ops, m, &mut res[slot], &mut sc.flags);
                    slots::pred_set_effects(i, m, bits, pred, &mut out.new_pred, ctx);
                    out.writes[slot] = true;
                }
                Class::Kill => {
                    slots::kill::<FLAGS>(i, ops, m, &mut res[slot], &mut sc.flags);
                    out.writes[slot] = true;
                }
                Class::Prev => out.has_prev = true,
                Class::Quad => {
                    if !out.quad_done {
                        out.quad_done = true;
                        slots::quad::<FLAGS>(i, ops, m, res, &mut sc.flags);
                        out.writes = [true; 4];
                        out.masks = [m; 4];
                    }
                }
                Class::Mova => {
                    slots::mova(i, ops, m, &mut res[slot], out, &mut sc.pending)?;
                    out.writes[slot] = true;
                }
                Class::WaveState => slots::wave_state(i, ops, m, &mut sc.pending)?,
                Class::Moded => {
                    let (a, b, c) = (ops.at(i.loc[0]), ops.at(i.loc[1]), ops.at(i.loc[2]));
                    let fl = FLAGS.then_some((&mut sc.flags, m));
                    fmode::exec_slot(i.sem, i.mode, i.omod, i.clamp, a, b, c, &mut res[slot], fl);
                    out.writes[slot] = true;
                }
                Class::Interp => self.interp(i, lds, ops, exec, res, out)?,
                Class::Flags => {
                    if slot != 3 {
                        return Err((
                            Some(i.slot),
                            None,
                            format!("{} is available only in the W slot (guide 8.2)", i.name),
                        ));
                    }
                    out.has_flags = true;
                }
                Class::Reduce => {
                    slots::reduce::<FLAGS>(i, ops, m, &mut res[slot], &mut sc.flags);
                    out.writes[slot] = true;
                }
                Class::Double | Class::F32ToF64 | Class::F64ToF32 => {
                    // pairs: (x, y) and (z, w); the first slot of a pair runs it
                    if slot.is_multiple_of(2) {
                        slots::double::<FLAGS>(i, ops, m, res, &mut sc.flags, pred, out, ctx);
                    }
                }
                Class::Unsupported => {
                    return Err((Some(i.slot), None, format!("{} is not implemented", i.name)))
                }
            }
        }
        Ok(())
    }

    /// Pass 3 of [`Wave::exec_group`]: the slots' results go to PV and their
    /// destination GPRs under their lane masks, then the predicate, the
    /// exception flags, the per-wave registers and AR change.
    #[inline(always)]
    fn commit<const FLAGS: bool>(
        &mut self,
        env: &Env,
        ins: &[AluInstr],
        sc: &mut Scratch,
        out: &SlotOutputs,
        load_flags: Option<&(u64, Lanes)>,
    ) {
        let ngprs = if env.num_gprs == 0 { 128 } else { env.num_gprs } as i32;
        let ok = |r: i32| (0..ngprs).contains(&r) || (FIRST_CLAUSE_TEMP as i32..128).contains(&r);
        for i in ins {
            let slot = i.slot as usize;
            if !out.writes[slot] {
                continue;
            }
            let m = out.masks[slot];
            if m == 0 {
                continue;
            }
            let r = &sc.res[slot];
            if i.pv_live {
                merge_into(&mut self.rows[PV_ROW as usize + slot], r, m, &mut sc.em);
            }
            if !i.write {
                continue;
            }
            let d = i.dst_gpr as i32;
            if !i.dst_rel {
                if ok(d) {
                    self.touched |= 1 << d;
                    merge_into(&mut self.rows[gi(d as usize, slot)], r, m, &mut sc.em);
                }
            } else if i.index_mode == 4 {
                let r2 = d + self.al;
                if ok(r2) && r2 < ngprs {
                    self.touched |= 1 << r2;
                    merge_into(&mut self.rows[gi(r2 as usize, slot)], r, m, &mut sc.em);
                }
            } else {
                for l in lanes_of(m) {
                    let r2 = d + self.ar[i.index_mode as usize & 3][l] as i32;
                    if (0..ngprs).contains(&r2) {
                        self.touched |= 1 << r2;
                        self.rows[gi(r2 as usize, slot)][l] = r[l];
                    }
                }
            }
        }
        if let Some(p) = out.new_pred {
            self.pred = p;
        }
        if FLAGS {
            for l in 0..LANES {
                self.flags[l] |= sc.flags[l];
            }
            if let Some((m, v)) = load_flags {
                // LOAD_STORE_FLAGS: the working copy becomes src0's six bits
                for l in lanes_of(*m) {
                    self.flags[l] = v[l] & 0x3f;
                }
            }
        }
        if sc.pending.any {
            let p = std::mem::take(&mut sc.pending);
            for k in 0..2 {
                if let Some(v) = p.cf_idx[k] {
                    self.cf_idx[k] = v;
                }
            }
            if let Some(n) = p.lds_limit {
                self.lds_limit = Some(n);
            }
        }
        if let Some((c, m, v)) = &out.new_ar {
            merge_into(&mut self.ar[*c], v, *m, &mut sc.em);
        }
    }
}

/// A lane mask expanded to one all-ones / all-zeros dword per lane, cached
/// for the last mask seen (a clause usually runs every group under one mask).
pub(super) struct ExpandedMask {
    of: u64,
    lanes: Lanes,
}

/// Byte of a lane mask → 8 dword lane masks.
static EXPAND8: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            t[b][k] = if b >> k & 1 != 0 { u32::MAX } else { 0 };
            k += 1;
        }
        b += 1;
    }
    t
};

/// `dst = m ? src : dst` per lane, branch-free (the loop vectorizes).
#[inline(always)]
fn merge_into(dst: &mut Lanes, src: &Lanes, m: u64, em: &mut ExpandedMask) {
    if m == u64::MAX {
        *dst = *src;
        return;
    }
    if em.of != m {
        for k in 0..8 {
            em.lanes[8 * k..8 * k + 8].copy_from_slice(&EXPAND8[(m >> (8 * k)) as usize & 255]);
        }
        em.of = m;
    }
    let e = &em.lanes;
    for l in 0..LANES {
        dst[l] = (src[l] & e[l]) | (dst[l] & !e[l]);
    }
}
