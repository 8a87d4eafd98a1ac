//! CF instructions (guide chapter 3 and 9.1): the CF program loop, the
//! branch-loop stack (PUSH/POP, loops, calls) and the condition of a CF
//! instruction. Clauses run in `alu_clause` and `fetch`, exports in `export`.

use super::*;

impl Wave {
    /// The lanes the innermost loop has broken out of or continued: a POP
    /// or ELSE must not reactivate them.
    pub(super) fn loop_excl(&self) -> u64 {
        for e in self.stack.iter().rev() {
            if let Entry::Loop(l) = e {
                return l.broken | l.cont;
            }
        }
        0
    }

    /// The innermost loop entry of the stack and its index.
    pub(super) fn innermost_loop(&mut self) -> Option<(usize, &mut LoopState)> {
        let n = self.stack.len();
        for (k, e) in self.stack.iter_mut().enumerate().rev() {
            if let Entry::Loop(l) = e {
                let _ = n;
                return Some((k, l));
            }
        }
        None
    }

    /// Pushes `e`, faulting past [`MAX_STACK`] entries.
    pub(super) fn push(&mut self, e: Entry) -> Result<(), Fault> {
        if self.stack.len() >= MAX_STACK {
            return Err(self.fault(format!(
                "branch-loop stack overflow (more than {MAX_STACK} entries)"
            )));
        }
        self.stack.push(e);
        Ok(())
    }

    /// Pops `n` PUSH entries, restoring the active mask each saved.
    pub(super) fn pop_n(&mut self, n: u8) -> Result<(), Fault> {
        for _ in 0..n {
            match self.stack.pop() {
                Some(Entry::Push(m)) => {
                    self.active = m & !self.loop_excl() & self.valid;
                }
                Some(e) => {
                    return Err(self.fault(format!(
                        "POP_COUNT pops a {} entry, not a PUSH entry",
                        match e {
                            Entry::Loop(_) => "loop",
                            _ => "call",
                        }
                    )))
                }
                None => return Err(self.fault("branch-loop stack underflow")),
            }
        }
        Ok(())
    }

    /// The lanes for which `op`'s condition (CF_WORD1 COND, VALID_PIXEL_MODE)
    /// holds.
    fn cond_mask(&self, env: &Env, op: &CfOp) -> Result<u64, Fault> {
        let mut m = self.active;
        if op.vpm {
            m &= self.valid;
        }
        let b = env.bool_consts >> (op.cf_const & 31) & 1 != 0;
        // CF_WORD1 COND (guide 9.1): 0 CF_COND_ACTIVE, 1 CF_COND_FALSE,
        // 2 CF_COND_BOOL, 3 CF_COND_NOT_BOOL
        Ok(match op.cond {
            0 => m,
            1 => 0,
            2 => {
                if b {
                    m
                } else {
                    0
                }
            }
            _ => {
                if !b {
                    m
                } else {
                    0
                }
            }
        })
    }

    /// [`Wave::run`]; `TRACE` writes a trace line per CF instruction.
    pub(super) fn run_cf<const TRACE: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
    ) -> Result<Yield, Fault> {
        if let Some(ctx) = self.resume.take() {
            self.stats.barriers += 1;
            if self.alu_clause(env, lds, ctx)? {
                return Ok(Yield::Barrier);
            }
            self.pc += 1;
        }
        loop {
            if self.done {
                return Ok(Yield::Done);
            }
            let pc = self.pc;
            let op = env.prog.cf.get(pc as usize).ok_or_else(|| {
                self.fault(format!(
                    "execution ran past the end of the CF program ({} instructions)",
                    env.prog.cf.len()
                ))
            })?;
            self.tick()?;
            self.stats.cf_instructions += 1;
            if self.prof.is_some() {
                self.count_cf(pc);
            }
            let active_before = self.active;
            if TRACE {
                self.trace_cf(pc);
                self.observe(|o, w| o.cf_before(w, pc, op, env));
            }
            let mut next = pc + 1;
            match &op.kind {
                CfKind::Nop => {}
                CfKind::End => {
                    self.done = true;
                    return Ok(Yield::Done);
                }
                CfKind::Alu {
                    kind,
                    clause,
                    kcache,
                    wqm: w,
                } => {
                    match kind {
                        AluKind::PushBefore => self.push(Entry::Push(self.active))?,
                        // guide 3.7.7: the lanes of the innermost PUSH come back,
                        // as with CF REACTIVATE, before the clause runs.
                        AluKind::ReactivateBefore => self.reactivate()?,
                        // Valid-pixel mode runs on active & valid lanes; in a
                        // compute program every active lane is valid.
                        AluKind::ValidPixelMode => self.active &= self.valid,
                        _ => {}
                    }
                    let exec = if *w { wqm(self.active) } else { self.active };
                    // the locks are taken at clause start: an indexed bank
                    // adds CF_IDX0/1 as they are now (9.1 KCACHE_BANK_INDEX_MODE;
                    // "indexed locks of banks 14 and 15 are ignored")
                    let mut ctx = ClauseCtx {
                        cf: pc,
                        clause: *clause,
                        kind: *kind,
                        kcache: *kcache,
                        exec,
                        exec_new: self.active,
                        broken: 0,
                        cont: 0,
                        killed: 0,
                        group: 0,
                    };
                    // (res_index_mode marks an ALU clause with an indexed bank)
                    if op.res_index_mode != 0 {
                        self.index_kcache(&mut ctx.kcache)?;
                    }
                    if self.alu_clause(env, lds, ctx)? {
                        return Ok(Yield::Barrier);
                    }
                }
                CfKind::Tc(idx) | CfKind::Gds(idx) => {
                    let m = self.cond_mask(env, op)?;
                    if !self.fetch_clause(env, *idx, m)? {
                        return Ok(self.wait());
                    }
                }
                CfKind::Gws {
                    op: gop,
                    resource,
                    value,
                    sign,
                    index_modes,
                } => {
                    // VAL_INDEX_MODE / RSRC_INDEX_MODE: VALUE and RESOURCE
                    // plus CF_IDX0/1 (fields keep their widths)
                    let (resource, value) = if *index_modes != 0 {
                        let r = self
                            .indexed(u32::from(*resource), *index_modes >> 2)
                            .map_err(|e| self.fault(format!("GWS RSRC_INDEX_MODE: {e}")))?;
                        let v = self
                            .indexed(u32::from(*value), *index_modes & 3)
                            .map_err(|e| self.fault(format!("GWS VAL_INDEX_MODE: {e}")))?;
                        (&((r & 31) as u8), &((v & 0x3ff) as u16))
                    } else {
                        (resource, value)
                    };
                    if self.cond_mask(env, op)? != 0
                        && !env
                            .sync
                            .gws(*gop, *resource, *value, *sign, &mut self.gws_ticket)
                    {
                        self.blocked_on = Some(format!(
                            "{} on GWS resource {resource} (value {})",
                            ["GWS_SEMA_V", "GWS_SEMA_P", "GWS_BARRIER", "GWS_INIT"]
                                [*gop as usize & 3],
                            env.sync.gws_value(*resource as usize)
                        ));
                        return Ok(self.wait());
                    }
                }
                CfKind::ExportCombined { .. } => {
                    let m = self.cond_mask(env, op)?;
                    self.export_combined(env, op, m)?;
                }
                CfKind::Illegal(n, why) => {
                    return Err(self.fault(format!("{n} cannot run in a compute program: {why}")))
                }
                CfKind::Rat { .. } => {
                    let m = self.cond_mask(env, op)?;
                    if op.res_index_mode != 0 {
                        // RAT_INDEX_MODE: the RAT id plus CF_IDX0/1
                        let mut o = op.clone();
                        if let CfKind::Rat { rat_id, .. } = &mut o.kind {
                            let id = self
                                .indexed(*rat_id as u32, op.res_index_mode)
                                .map_err(|e| self.fault(format!("RAT_INDEX_MODE: {e}")))?;
                            *rat_id = id.min(255) as u8;
                        }
                        self.rat(env, &o, m)?;
                    } else {
                        self.rat(env, op, m)?;
                    }
                }
                CfKind::ScratchWrite { .. } => {
                    let m = self.cond_mask(env, op)?;
                    self.scratch_write(env, op, m)?;
                }
                CfKind::LoopStart(k) => {
                    let m = self.cond_mask(env, op)?;
                    let (count, init, inc) = if *k == 1 {
                        (1, 0, 0)
                    } else {
                        let c = env.loop_consts[op.cf_const as usize & 31];
                        (
                            c & 0xfff,
                            ((c >> 12) & 0xfff) as i32,
                            (c >> 24) as u8 as i8 as i32,
                        )
                    };
                    if count == 0 || m == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    } else {
                        self.push(Entry::Loop(LoopState {
                            saved: self.active,
                            broken: 0,
                            cont: 0,
                            counter: count,
                            inc,
                            prev_al: self.al,
                            kind: *k,
                        }))?;
                        self.active = m;
                        if *k == 0 {
                            self.al = init;
                        }
                    }
                }
                CfKind::LoopEnd => {
                    let b = self.cond_mask(env, op)? != 0 || self.active == 0;
                    let valid = self.valid;
                    let Some(Entry::Loop(lp)) = self.stack.last_mut() else {
                        return Err(self
                            .fault("LOOP_END without a matching LOOP_START on top of the stack"));
                    };
                    if lp.kind != 1 {
                        lp.counter = lp.counter.saturating_sub(1);
                    }
                    let go_on = lp.saved & !lp.broken & valid;
                    let again = go_on != 0 && (lp.kind == 1 || lp.counter > 0) && b;
                    if again {
                        lp.cont = 0;
                        if lp.kind == 0 {
                            self.al = self.al.wrapping_add(lp.inc);
                        }
                        self.active = go_on;
                        next = op.addr;
                    } else {
                        let lp = *lp;
                        self.stack.pop();
                        self.active = lp.saved & valid;
                        if lp.kind != 2 {
                            self.al = lp.prev_al;
                        }
                    }
                }
                CfKind::LoopBreak | CfKind::LoopContinue => {
                    let m = self.cond_mask(env, op)?;
                    let brk = matches!(op.kind, CfKind::LoopBreak);
                    let valid = self.valid;
                    let Some((k, lp)) = self.innermost_loop() else {
                        return Err(self.fault("LOOP_BREAK/LOOP_CONTINUE outside a loop"));
                    };
                    if brk {
                        lp.broken |= m;
                    } else {
                        lp.cont |= m;
                    }
                    let left = lp.saved & !(lp.broken | lp.cont) & valid;
                    self.active &= !m;
                    if left == 0 {
                        self.stack.truncate(k + 1);
                        next = op.addr;
                    }
                }
                CfKind::Jump => {
                    if self.cond_mask(env, op)? == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    }
                }
                CfKind::JumpTable(sel) => {
                    // guide 3.7/9.1 JUMPTABLE: the JUMPs that follow form the
                    // table; ADDR is the instruction after it (taken when no
                    // lane passes the condition). JUMPTABLE_SEL 0..3 pick byte
                    // A..D of the constant CF_CONST selects.
                    if self.cond_mask(env, op)? == 0 {
                        next = op.addr;
                    } else {
                        let idx = match sel {
                            0..=3 => {
                                (env.loop_consts[op.cf_const as usize & 31] >> (8 * *sel as u32))
                                    & 0xff
                            }
                            // CF_JUMPTABLE_SEL_INDEX_0/1: the CF index register
                            4 | 5 => self.cf_idx[*sel as usize - 4],
                            s => {
                                return Err(self.fault(format!(
                                    "JUMPTABLE_SEL {s} is reserved (0-3 loop constant bytes, 4/5 CF_IDX0/1)"
                                )))
                            }
                        };
                        let target = pc + 1 + idx;
                        if target >= op.addr {
                            return Err(self.fault(format!(
                                "jump table index {idx} lies past the table (ADDR {})",
                                op.addr
                            )));
                        }
                        next = target;
                    }
                }
                CfKind::JumpAny => {
                    if self.cond_mask(env, op)? != 0 {
                        next = op.addr;
                    } else {
                        self.pop_n(op.pop_count)?;
                    }
                }
                CfKind::Push(w) => {
                    let m = self.cond_mask(env, op)?;
                    if m == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    } else {
                        self.push(Entry::Push(self.active))?;
                        self.active = if *w { wqm(m) & self.valid } else { m };
                    }
                }
                CfKind::Else(w) => {
                    self.pop_n(op.pop_count)?;
                    let Some(Entry::Push(saved)) = self.stack.last().copied() else {
                        return Err(self.fault("ELSE without a PUSH entry on top of the stack"));
                    };
                    let pass = op.cond == 0 || self.cond_mask(env, op)? != 0;
                    if pass {
                        let m = saved & !self.active & !self.loop_excl() & self.valid;
                        self.active = if *w { wqm(m) & self.valid } else { m };
                    }
                    if self.active == 0 {
                        next = op.addr;
                    }
                }
                CfKind::Pop(w) => {
                    self.pop_n(op.pop_count)?;
                    if op.vpm {
                        self.active &= self.valid;
                    }
                    if *w {
                        self.active = wqm(self.active) & self.valid;
                    }
                }
                CfKind::Call => {
                    if self.cond_mask(env, op)? != 0 && self.calls < MAX_CALL_DEPTH {
                        self.push(Entry::Call(pc + 1))?;
                        self.calls += 1;
                        next = op.addr;
                    }
                }
                CfKind::Return => match self.stack.pop() {
                    Some(Entry::Call(r)) => {
                        self.calls -= 1;
                        next = r;
                    }
                    _ => return Err(self.fault("RETURN without a CALL entry on top of the stack")),
                },
                CfKind::Kill => {
                    // guide 3.7 KILL: "only a pixel shader can execute this
                    // instruction; the instruction is illegal in other program types"
                    return Err(self.fault(
                        "CF KILL is illegal outside pixel shaders (risa runs compute programs)",
                    ));
                }
                CfKind::Reactivate => self.reactivate()?,
                CfKind::Unsupported(n) => {
                    return Err(self.fault(format!("{n} is not supported in compute programs")))
                }
                CfKind::Invalid(e) => {
                    return Err(self.fault(format!("invalid CF instruction: {e}")))
                }
            }
            if TRACE {
                self.trace_cf_after(pc, next, active_before);
            }
            self.pc = next;
        }
    }
}
