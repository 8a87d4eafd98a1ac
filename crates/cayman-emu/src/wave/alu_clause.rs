//! ALU clauses (guide chapter 4): the clause loop over its groups (one
//! compiled copy per tracing / exception-flag / AVX2 combination), resuming
//! after a barrier, and what the end of a clause does to the masks and the
//! stack. One group's work is in `group`.

use super::*;

impl Wave {
    /// Runs (the rest of) an ALU clause; returns true when stopped at a barrier.
    pub(super) fn alu_clause(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        mut ctx: ClauseCtx,
    ) -> Result<bool, Fault> {
        let clause = match &env.prog.alu[ctx.clause as usize] {
            Ok(c) => c,
            Err(e) => {
                let mut f = self.fault(format!("invalid ALU clause: {e}"));
                f.at.clause = env.prog.alu_addr.get(ctx.clause as usize).copied();
                return Err(f);
            }
        };
        let mut sc = self.scratch.take().expect("scratch present");
        if clause.flags && ctx.group == 0 {
            // guide 4.13.2: cleared at the beginning of each ALU clause
            self.flags = [0; LANES];
        }
        let first_group = ctx.group;
        // tracing and the exception flags each select a separately compiled
        // clause loop, so the common one carries neither
        let r = match (self.instrumented, clause.flags) {
            (true, true) => self.clause_groups::<true, true>(env, lds, clause, &mut ctx, &mut sc),
            (true, false) => self.clause_groups_vector::<true>(env, lds, clause, &mut ctx, &mut sc),
            (false, true) => self.clause_groups::<false, true>(env, lds, clause, &mut ctx, &mut sc),
            (false, false) => {
                self.clause_groups_vector::<false>(env, lds, clause, &mut ctx, &mut sc)
            }
        };
        self.scratch = Some(sc);
        if self.prof.is_some() {
            self.count_groups(&ctx, first_group);
        }
        let at_barrier = r?;
        if at_barrier {
            self.resume = Some(ctx);
            return Ok(true);
        }
        self.end_clause(&ctx)?;
        Ok(false)
    }

    /// The clause loop without exception flags, with AVX2 when the CPU has
    /// it (an observed or traced run should cost its observer, not a slower
    /// loop).
    #[inline(always)]
    fn clause_groups_vector<const TRACE: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { self.clause_groups_avx2::<TRACE>(env, lds, clause, ctx, sc) };
        }
        self.clause_groups::<TRACE, false>(env, lds, clause, ctx, sc)
    }

    /// [`Wave::clause_groups`] compiled with AVX2 (8 lanes per vector op).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn clause_groups_avx2<const TRACE: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        self.clause_groups::<TRACE, false>(env, lds, clause, ctx, sc)
    }

    /// Runs the groups of a clause from `ctx.group`; true when stopped at a
    /// barrier. `TRACE` writes a trace line per group.
    #[inline(always)]
    fn clause_groups<const TRACE: bool, const FLAGS: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        while ctx.group < clause.groups.len() {
            self.tick().map_err(|mut f| {
                f.at.group = Some(ctx.group as u32);
                f
            })?;
            let g = &clause.groups[ctx.group];
            let at = GroupAt {
                cf: ctx.cf,
                clause: ctx.clause,
                group: ctx.group,
                exec: ctx.exec,
            };
            if TRACE {
                self.trace_snapshot(ctx.exec_new);
                sc.log_lds = self.observer.is_some();
                sc.lds_log.clear();
                self.observe(|o, w| o.group_before(w, at, clause));
            }
            let r = self.exec_group::<FLAGS>(env, lds, clause, g, ctx, sc);
            if TRACE {
                self.trace_group(ctx.clause, ctx.group, ctx.exec_new, r.is_err());
                let (log, ok) = (&sc.lds_log, r.is_ok());
                self.observe(|o, w| o.group_after(w, at, log, ok));
            }
            r.map_err(|(slot, lane, msg)| {
                let mut f = self.fault(msg);
                f.at.clause = env.prog.alu_addr.get(ctx.clause as usize).copied();
                f.at.group = Some(ctx.group as u32);
                f.at.slot = slot;
                f.at.lane = lane;
                f.at.cf = Some(ctx.cf);
                f
            })?;
            self.stats.alu_groups += 1;
            self.stats.alu_instructions += g.len as u64;
            ctx.group += 1;
            if g.barrier {
                // stop after the barrier's group (if it is the clause's last
                // group, the clause ends when the wave resumes)
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Ends a clause: killed lanes leave the valid mask, the PRED_SET exec
    /// updates become the active mask and the loop's break/continue masks,
    /// and the clause kind's POP or ELSE happens.
    fn end_clause(&mut self, ctx: &ClauseCtx) -> Result<(), Fault> {
        self.valid &= !ctx.killed;
        let new = ctx.exec_new & self.valid;
        if ctx.broken | ctx.cont != 0 {
            let Some((_, lp)) = self.innermost_loop() else {
                return Err(
                    self.fault("PRED_SET with a BREAK/CONTINUE exec-mask op outside a loop")
                );
            };
            lp.broken |= ctx.broken;
            lp.cont |= ctx.cont;
        }
        self.active = new;
        // AR and the predicate do not outlive the clause; PV neither.
        match ctx.kind {
            AluKind::Plain
            | AluKind::PushBefore
            | AluKind::ReactivateBefore
            | AluKind::ValidPixelMode => {}
            AluKind::PopAfter => self.pop_n(1)?,
            AluKind::Pop2After => self.pop_n(2)?,
            AluKind::ElseAfter => {
                let Some(Entry::Push(saved)) = self.stack.last().copied() else {
                    return Err(self.fault("ALU_ELSE_AFTER without a PUSH entry on the stack"));
                };
                self.active = saved & !self.active & !self.loop_excl() & self.valid;
            }
        }
        Ok(())
    }

    /// REACTIVATE: the lanes saved by the innermost PUSH become active again.
    pub(super) fn reactivate(&mut self) -> Result<(), Fault> {
        let Some(Entry::Push(saved)) = self.stack.last().copied() else {
            return Err(self.fault("REACTIVATE without a PUSH entry on the stack"));
        };
        self.active = saved & self.valid;
        Ok(())
    }
}
