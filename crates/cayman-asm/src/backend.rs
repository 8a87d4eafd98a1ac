//! The Cayman back end of the assembler core: turns CF lines, clause bodies
//! and data into CF programs, lays out the clauses, and checks the VLIW rules.
//!
//! A *program* is one CF program with its clauses (one kernel). Its CF
//! instructions are emitted as they come (so labels on CF lines get the
//! right address); clause bodies are collected and written at their `ADDR`
//! when it is given, or laid out after the CF program when the program
//! ends (at `END` written without an index, at a directive that moves the
//! location, at a new program, at the end of the source).

use crate::alu::{self, AluLine, LitRef};
use crate::cf::{self, ClauseKind};
use crate::fetch;
use crate::text::*;
use crate::vliw;
use risa_asm_core::{Assembler, Backend, ExprResult, Fixup, Pos, SectionId, Statement, Value};
use risa_cayman::codec::decode_alu;
use risa_cayman::fields::*;
use risa_cayman::print::literal_need;

/// Largest program image (dwords): 16 MiB.
const MAX_PROGRAM_DWORDS: usize = 1 << 22;

/// Fixup kind: ADDR of a CF jump (payload = program start offset).
const FIX_CF_ADDR: u32 = 1;

/// Evaluates operand numbers with the core's expressions.
struct AsmNum<'s>(&'s mut Assembler);

impl<'a> Numbers<'a> for AsmNum<'_> {
    fn num(&mut self, t: &'a str) -> PResult<'a, i64> {
        if let Some(v) = parse_int(t) {
            return Ok(v);
        }
        match self.0.expr_str(t) {
            ExprResult::Value(v) if v.is_abs() => Ok(v.value as i64),
            ExprResult::Value(_) => err(t, "expected an absolute value, not an address"),
            ExprResult::Pending(_) => {
                err(t, "the value must be known here (no forward references)")
            }
            ExprResult::Error => Err(PErr {
                at: t,
                msg: String::new(),
            }),
        }
    }
}

/// One clause of a program.
#[derive(Debug)]
struct Clause {
    kind: ClauseKind,
    /// CF slot of the instruction that starts it.
    cf_slot: u32,
    /// ADDR (64-bit units) when written as a number.
    addr: Option<u32>,
    /// CNT when written.
    cnt: Option<(u32, Pos)>,
    /// The body (dwords).
    body: Vec<u32>,
    /// Where the CF line is.
    pos: Pos,
    /// Written into the image.
    placed: bool,
    /// A line of the body had an error (no follow-up errors about it).
    bad: bool,
}

/// One open ALU instruction.
#[derive(Debug)]
struct GroupInst {
    words: [u32; 2],
    not_last: bool,
    lits: [LitRef; 3],
    pos: Pos,
    src_pos: [Option<Pos>; 3],
}

/// What the lines after a CF line belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// CF level.
    Cf,
    /// Inside clause `i` of the current program.
    Clause(usize),
    /// Data placed by `.at`, continuing at this dword.
    At(usize),
    /// After a CF line with an error: its clause lines are skipped silently.
    Broken,
}

#[derive(Debug)]
struct Program {
    sec: SectionId,
    /// Byte offset of the program in its section.
    start: u64,
    image: Vec<u32>,
    written: Vec<bool>,
    /// Dwords of the image already in the section.
    emitted: usize,
    next_slot: u32,
    clauses: Vec<Clause>,
    /// The program was laid out; a CF line without an index starts a new one.
    closed: bool,
    /// Number of CF lines.
    ncf: usize,
    /// `.lds_size` of this program.
    lds_bytes: u32,
}

/// A finished program, for object writers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramInfo {
    /// Section.
    pub section: SectionId,
    /// Byte offset in the section.
    pub start: u64,
    /// Size in bytes.
    pub size: u64,
    /// Static LDS size in bytes (`.lds_size`), 0 if not declared.
    pub lds_bytes: u32,
}

/// The Cayman back end.
#[derive(Debug, Default)]
pub struct Cayman {
    prog: Option<Program>,
    ctx: Option<Ctx>,
    group: Vec<GroupInst>,
    /// Literal dwords given by a LITERALS / LDS_DIRECT line for the open group.
    group_lits: Option<(Vec<u32>, Pos)>,
    /// Programs assembled so far.
    pub programs: Vec<ProgramInfo>,
    /// `.config_reg` (register, value) pairs, in source order.
    pub config: Vec<(u32, u32)>,
    /// Skip the VLIW4 group rules (`.vliw_checks off`); on by default.
    pub no_vliw_checks: bool,
    /// A KILL* group of the open clause (an error if another group follows).
    kill_pos: Option<Pos>,
    /// An earlier group of the open ALU clause loads AR (guide 4.6.1).
    ar_loaded: bool,
    /// `.lds_size` given outside a program: for the next one.
    pending_lds: Option<u32>,
    pending_lds_pos: Option<Pos>,
    /// Sections, symbols and relocations of the `.elf_*` lines.
    pub extras: crate::extras::ElfExtras,
}

fn report(asm: &mut Assembler, e: PErr<'_>) {
    if !e.msg.is_empty() {
        asm.error(e.at, e.msg);
    }
}

impl Program {
    fn new(asm: &Assembler) -> Program {
        Program {
            sec: asm.current_section(),
            start: asm.offset(),
            image: Vec::new(),
            written: Vec::new(),
            emitted: 0,
            next_slot: 0,
            clauses: Vec::new(),
            closed: false,
            ncf: 0,
            lds_bytes: 0,
        }
    }

    /// Write `words` at dword `at` of the image (and the section if that part is
    /// already emitted). Returns false on a conflict with different words.
    fn write(&mut self, asm: &mut Assembler, at: usize, words: &[u32]) -> bool {
        if words.is_empty() {
            return true;
        }
        let end = at + words.len();
        if end > MAX_PROGRAM_DWORDS {
            // reported by the caller's size check; never allocate for it
            return false;
        }
        if self.image.len() < end {
            self.image.resize(end, 0);
            self.written.resize(end, false);
        }
        let mut ok = true;
        for (k, &w) in words.iter().enumerate() {
            let p = at + k;
            if self.written[p] && self.image[p] != w {
                ok = false;
            }
            self.image[p] = w;
            self.written[p] = true;
            if p < self.emitted {
                let o = (self.start as usize) + p * 4;
                let data = &mut asm.section_mut(self.sec).data;
                if o + 4 <= data.len() {
                    data[o..o + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
        ok
    }

    /// Emit the image (zero-padded) up to dword `upto` into the section.
    fn sync(&mut self, asm: &mut Assembler, upto: usize) {
        if upto <= self.emitted {
            return;
        }
        if asm.current_section() != self.sec {
            return;
        }
        let mut bytes = Vec::with_capacity((upto - self.emitted) * 4);
        for p in self.emitted..upto {
            bytes.extend_from_slice(&self.image.get(p).copied().unwrap_or(0).to_le_bytes());
        }
        asm.emit(&bytes);
        self.emitted = upto;
    }

    /// Overwrite the COUNT and ADDR of clause `i`'s CF instruction.
    fn patch_cf(&mut self, asm: &mut Assembler, i: usize, addr: u32, cnt: u32) {
        let c = &self.clauses[i];
        let p = c.cf_slot as usize * 2;
        let mut w = [
            self.image.get(p).copied().unwrap_or(0),
            self.image.get(p + 1).copied().unwrap_or(0),
        ];
        match c.kind {
            ClauseKind::Alu => {
                CF_ALU_WORD0::ADDR.set(&mut w[0], addr);
                CF_ALU_WORD1::COUNT.set(&mut w[1], cnt.wrapping_sub(1));
            }
            _ => {
                CF_WORD0::ADDR.set(&mut w[0], addr);
                CF_WORD1::COUNT.set(&mut w[1], cnt.wrapping_sub(1));
            }
        }
        self.write(asm, p, &w);
    }
}

impl Cayman {
    /// A new back end.
    pub fn new() -> Self {
        Self::default()
    }

    /// Remember that the open clause had a bad line.
    fn mark_bad(&mut self) {
        if let (Some(p), Some(Ctx::Clause(ci))) = (self.prog.as_mut(), self.ctx) {
            p.clauses[ci].bad = true;
        }
    }

    /// Close the open ALU group (literals, LAST bit, VLIW rules) into the clause.
    fn close_group(&mut self, asm: &mut Assembler) {
        if self.group.is_empty() {
            self.group_lits = None;
            return;
        }
        let mut g = std::mem::take(&mut self.group);
        let given = self.group_lits.take();
        // literal channels: explicit ones first, then automatic ones
        let mut lit: [Option<u32>; 4] = [None; 4];
        for gi in &g {
            for (k, l) in gi.lits.iter().enumerate() {
                if let LitRef::Known { chan, value } = *l {
                    match lit[chan as usize] {
                        Some(v) if v != value => {
                            let p = gi.src_pos[k].unwrap_or(gi.pos);
                            asm.error_at(
                                p,
                                format!(
                                    "literal channel .{} already holds 0x{v:08x} in this group",
                                    ['x', 'y', 'z', 'w'][chan as usize]
                                ),
                            );
                        }
                        _ => lit[chan as usize] = Some(value),
                    }
                }
            }
        }
        for gi in g.iter_mut() {
            for k in 0..3 {
                if let LitRef::Auto { value } = gi.lits[k] {
                    let chan = match lit.iter().position(|v| *v == Some(value)) {
                        Some(c) => c,
                        None => match lit.iter().position(|v| v.is_none()) {
                            Some(c) => {
                                lit[c] = Some(value);
                                c
                            }
                            None => {
                                let p = gi.src_pos[k].unwrap_or(gi.pos);
                                asm.error_at(
                                    p,
                                    "more than four literal dwords in one instruction group",
                                );
                                continue;
                            }
                        },
                    } as u32;
                    match k {
                        0 => ALU_WORD0::SRC0_CHAN.set(&mut gi.words[0], chan),
                        1 => ALU_WORD0::SRC1_CHAN.set(&mut gi.words[0], chan),
                        _ => ALU_WORD1_OP3::SRC2_CHAN.set(&mut gi.words[1], chan),
                    }
                }
            }
        }
        // LAST on the last instruction (unless the listing says the group was cut)
        if let Some(l) = g.last_mut() {
            if !l.not_last {
                ALU_WORD0::LAST.set(&mut l.words[0], 1);
            }
        }
        let mut insts = Vec::with_capacity(g.len());
        for gi in &g {
            match decode_alu(gi.words[0], gi.words[1]) {
                Ok(i) => insts.push(i),
                Err(e) => {
                    asm.error_at(
                        gi.pos,
                        format!("internal: instruction does not decode ({e})"),
                    );
                    return;
                }
            }
        }
        let violations = if self.no_vliw_checks {
            Vec::new()
        } else {
            vliw::check_group(&insts)
        };
        if !self.no_vliw_checks {
            if let Some(kp) = self.kill_pos.take() {
                asm.error_at(
                    kp,
                    "a KILL* group must be the last group of its ALU clause (guide 4.8.1)",
                );
            }
            if vliw::has_kill(&insts) {
                self.kill_pos = Some(g[0].pos);
            }
            // 4.6.1: "the index must be initialized by a MOVA* operation that
            // is present in a prior instruction group of the same clause"
            if let (false, Some(k)) = (self.ar_loaded, vliw::first_ar_user(&insts)) {
                asm.error_at(
                    g[k].pos,
                    "AR indexing needs a MOVA_INT to AR in an earlier group of the same ALU clause (guide 4.6.1)",
                );
            }
            if vliw::loads_ar(&insts) {
                self.ar_loaded = true;
            }
        }
        for v in violations {
            let gi = &g[v.inst];
            let p = v.src.and_then(|s| gi.src_pos[s]).unwrap_or(gi.pos);
            asm.error_at(p, v.msg);
        }
        // literal dwords: same rule as the hardware and the disassembler
        let mut need: Option<u32> = None;
        for i in &insts {
            for k in 0..i.src_slots() {
                if let Some(c) = literal_need(&i.src(k)) {
                    need = Some(need.map_or(c, |x| x.max(c)));
                }
            }
        }
        let nlit = need.map_or(0, |c| (c as usize / 2 + 1) * 2);
        let mut words: Vec<u32> = Vec::with_capacity(g.len() * 2 + nlit);
        for gi in &g {
            words.extend_from_slice(&gi.words);
        }
        let mut lw: Vec<u32> = (0..nlit).map(|c| lit[c].unwrap_or(0)).collect();
        if let Some((gv, gp)) = given {
            // the given dwords are the literal slots exactly (a listing cut at
            // the clause end may give fewer than the group references)
            if gv.len() > nlit {
                asm.error_at(
                    gp,
                    format!(
                        "{} literal dwords given, but the group references {nlit}",
                        gv.len()
                    ),
                );
            }
            for (c, x) in lit.iter().enumerate() {
                match (x, gv.get(c)) {
                    (Some(x), Some(v)) if x != v => asm.error_at(
                        gp,
                        format!("literal dword {c} is 0x{v:08x} here but 0x{x:08x} in an operand"),
                    ),
                    (Some(_), None) => asm.error_at(gp, format!("literal dword {c} is missing")),
                    _ => {}
                }
            }
            lw = gv;
        }
        words.extend_from_slice(&lw);
        if let (Some(p), Some(Ctx::Clause(ci))) = (self.prog.as_mut(), self.ctx) {
            p.clauses[ci].body.extend_from_slice(&words);
        }
    }

    /// Close the open clause: write it at its ADDR if known.
    fn close_clause(&mut self, asm: &mut Assembler) {
        self.close_group(asm);
        self.kill_pos = None;
        self.ar_loaded = false;
        let Some(Ctx::Clause(ci)) = self.ctx else {
            return;
        };
        self.ctx = Some(Ctx::Cf);
        let Some(p) = self.prog.as_mut() else {
            return;
        };
        let unit = if p.clauses[ci].kind == ClauseKind::Alu {
            2
        } else {
            4
        };
        let c = &p.clauses[ci];
        let n = c.body.len() / unit;
        let (max, what) = if unit == 2 {
            (128, "slots")
        } else {
            (64, "instructions")
        };
        if n > max {
            asm.error_at(
                c.pos,
                format!("clause has {n} {what}; at most {max} fit in CNT"),
            );
        }
        let cnt = match c.cnt {
            Some((v, cp)) => {
                if n as u32 > v {
                    asm.error_at(cp, format!("CNT({v}) but the clause body has {n} {what}"));
                }
                v
            }
            None => n as u32,
        };
        if let Some(a) = c.addr {
            let body = std::mem::take(&mut p.clauses[ci].body);
            if !body.is_empty() || p.clauses[ci].cnt.is_none() {
                let pos = p.clauses[ci].pos;
                if a as usize * 2 + body.len() > MAX_PROGRAM_DWORDS {
                    asm.error_at(pos, "clause lies beyond 16 MiB from the program start");
                } else if !p.write(asm, a as usize * 2, &body) {
                    asm.error_at(pos, "clause overlaps other code with different contents");
                }
            }
            p.clauses[ci].placed = true;
            p.patch_cf(asm, ci, a, cnt);
        }
    }

    /// Lay out the clauses without an ADDR and emit the whole program.
    fn flush(&mut self, asm: &mut Assembler, close: bool) {
        self.close_clause(asm);
        if let Some(Ctx::At(_)) = self.ctx {
            self.ctx = Some(Ctx::Cf);
        }
        let Some(p) = self.prog.as_mut() else {
            return;
        };
        // the clause area starts on a 128-bit boundary after the CF program, as in
        // llc's objects (the gap is a zero CF word, i.e. a NOP)
        let mut end = (p.image.len().max(p.next_slot as usize * 2) + 3) & !3;
        // fetch clauses first (they need 128-bit alignment), then ALU clauses,
        // as llc lays them out: at most one padding slot
        let order: Vec<usize> = (0..p.clauses.len())
            .filter(|&c| p.clauses[c].kind != ClauseKind::Alu)
            .chain((0..p.clauses.len()).filter(|&c| p.clauses[c].kind == ClauseKind::Alu))
            .collect();
        for ci in order {
            if p.clauses[ci].placed {
                continue;
            }
            let c = &p.clauses[ci];
            let unit = if c.kind == ClauseKind::Alu { 2 } else { 4 };
            if c.kind != ClauseKind::Alu {
                end = (end + 3) & !3; // fetch clauses start on 128-bit boundaries
            }
            let n = (c.body.len() / unit) as u32;
            if n == 0 && c.cnt.is_none() && !c.bad {
                asm.error_at(c.pos, "clause has no instructions");
            }
            let cnt = c.cnt.map_or(n, |(v, _)| v);
            let body = std::mem::take(&mut p.clauses[ci].body);
            let addr = end / 2;
            if end + body.len() > MAX_PROGRAM_DWORDS {
                asm.error_at(p.clauses[ci].pos, "program larger than 16 MiB");
                p.clauses[ci].placed = true;
                continue;
            }
            p.write(asm, end, &body);
            end += body.len();
            p.clauses[ci].placed = true;
            if addr > CF_ALU_WORD0::ADDR.max() as usize {
                asm.error_at(p.clauses[ci].pos, "clause address does not fit ADDR");
            }
            p.patch_cf(asm, ci, addr as u32, cnt);
        }
        let len = p.image.len();
        p.sync(asm, len);
        if close {
            p.closed = true;
        }
        let info = ProgramInfo {
            section: p.sec,
            start: p.start,
            size: p.image.len() as u64 * 4,
            lds_bytes: p.lds_bytes,
        };
        match self
            .programs
            .iter_mut()
            .find(|x| x.section == info.section && x.start == info.start)
        {
            Some(x) => *x = info,
            None => self.programs.push(info),
        }
    }

    /// The program a CF line with (optional) index goes to.
    fn program_for(&mut self, asm: &mut Assembler, index: Option<u32>) {
        let new = match (&self.prog, index) {
            (None, _) => true,
            (Some(p), Some(0)) => p.ncf > 0,
            (Some(p), None) => p.closed,
            (Some(p), Some(_)) => p.sec != asm.current_section(),
        };
        if new {
            if self.prog.is_some() {
                self.flush(asm, true);
            }
            let mut p = Program::new(asm);
            p.lds_bytes = self.pending_lds.take().unwrap_or(0);
            self.pending_lds_pos = None;
            self.prog = Some(p);
            self.ctx = Some(Ctx::Cf);
        }
    }

    fn cf_line(&mut self, asm: &mut Assembler, index: Option<(u32, &str)>, text: &str) {
        self.close_clause(asm);
        self.ctx = Some(Ctx::Cf);
        self.program_for(asm, index.map(|x| x.0));
        let line = {
            let mut n = AsmNum(asm);
            match cf::parse_cf(text, &mut n) {
                Ok(l) => l,
                Err(e) => {
                    self.ctx = Some(Ctx::Broken);
                    return report(asm, e);
                }
            }
        };
        let Some(p) = self.prog.as_mut() else { return };
        let slot = index.map_or(p.next_slot, |x| x.0);
        if let Some((i, at)) = index {
            if i < p.next_slot && p.written.get(i as usize * 2).copied().unwrap_or(false) {
                asm.error(at, format!("CF slot {i} is already used"));
                return;
            }
        }
        if slot as usize * 2 + 2 > MAX_PROGRAM_DWORDS {
            asm.error(text, "CF program too long");
            return;
        }
        let pos = asm.pos(text);
        let mut words = line.words;
        let p = self.prog.as_mut().expect("program");
        let at = slot as usize * 2;
        if let Some(kind) = line.clause {
            // clause ADDR: a number places the body there; none lets the layout choose
            let mut addr = None;
            if let Some(a) = line.addr {
                let mut n = AsmNum(asm);
                let max = match kind {
                    ClauseKind::Alu => CF_ALU_WORD0::ADDR.max(),
                    _ => CF_WORD0::ADDR.max(),
                };
                match n.num(a) {
                    Ok(v) if (0..=max as i64).contains(&v) => addr = Some(v as u32),
                    Ok(_) => return asm.error(a, "clause address out of range"),
                    Err(e) => return report(asm, e),
                }
            }
            let p = self.prog.as_mut().expect("program");
            let cnt = line.cnt.map(|(v, t)| (v, asm.pos(t)));
            if let (Some(a), Some((c, _))) = (addr, cnt) {
                // keep the given fields even if no body follows
                match kind {
                    ClauseKind::Alu => {
                        CF_ALU_WORD0::ADDR.set(&mut words[0], a);
                        CF_ALU_WORD1::COUNT.set(&mut words[1], c - 1);
                    }
                    _ => {
                        CF_WORD0::ADDR.set(&mut words[0], a);
                        CF_WORD1::COUNT.set(&mut words[1], c - 1);
                    }
                }
            }
            p.clauses.push(Clause {
                kind,
                cf_slot: slot,
                addr,
                cnt,
                body: Vec::new(),
                pos,
                placed: false,
                bad: false,
            });
            self.ctx = Some(Ctx::Clause(p.clauses.len() - 1));
        } else if let (Some(a), Some(f)) = (line.addr, line.addr_field) {
            // jump target: a CF slot number, or a label in this program
            let start = p.start;
            let sec = p.sec;
            let section_off = start + at as u64 * 4;
            match asm.expr_str(a) {
                ExprResult::Value(v) => match cf_target(v, sec, start) {
                    Ok(t) if t <= f.max() as u64 => f.set(&mut words[0], t as u32),
                    Ok(_) => return asm.error(a, "jump target out of range"),
                    Err(m) => return asm.error(a, m),
                },
                ExprResult::Pending(expr) => asm.add_fixup(Fixup {
                    section: sec,
                    offset: section_off,
                    kind: FIX_CF_ADDR,
                    payload: start,
                    expr,
                }),
                ExprResult::Error => return,
            }
        }
        let p = self.prog.as_mut().expect("program");
        if !p.write(asm, at, &words) {
            asm.error(text, "CF instruction overlaps a clause");
        }
        p.sync(asm, at + 2);
        p.next_slot = p.next_slot.max(slot + 1);
        p.ncf += 1;
        // END written by hand (no index) ends the program
        if index.is_none() && line.op.name == "END" && line.clause.is_none() {
            self.flush(asm, true);
        }
    }

    fn alu_line(&mut self, asm: &mut Assembler, new_group: bool, slot: u32, text: &str) {
        if self.ctx == Some(Ctx::Broken) {
            return;
        }
        let Some(Ctx::Clause(ci)) = self.ctx else {
            return asm.error(text, "ALU instruction outside an ALU clause");
        };
        if self
            .prog
            .as_ref()
            .is_some_and(|p| p.clauses[ci].kind != ClauseKind::Alu)
        {
            self.mark_bad();
            return asm.error(text, "ALU instruction in a fetch clause");
        }
        if new_group || self.group_lits.is_some() {
            self.close_group(asm);
        }
        let line: AluLine = {
            let mut n = AsmNum(asm);
            match alu::parse_alu(slot, text, &mut n) {
                Ok(l) => l,
                Err(e) => {
                    self.mark_bad();
                    return report(asm, e);
                }
            }
        };
        let pos = asm.pos(text);
        let mut src_pos = [None; 3];
        for (sp, at) in src_pos.iter_mut().zip(line.src_at) {
            if !at.is_empty() {
                *sp = Some(asm.pos(at));
            }
        }
        if self.group.len() >= 8 {
            return asm.error(
                text,
                "too many instructions in one group (a group has four slots)",
            );
        }
        if self.group.last().is_some_and(|g| g.not_last) {
            return asm.error(text, "NOT_LAST marks the last instruction of a group");
        }
        self.group.push(GroupInst {
            not_last: line.not_last,
            words: line.words,
            lits: line.lits,
            pos,
            src_pos,
        });
    }

    fn literal_line(&mut self, asm: &mut Assembler, lds: bool, text: &str, body: &str) {
        if self.ctx == Some(Ctx::Broken) {
            return;
        }
        if self.group.is_empty() || self.group_lits.is_some() {
            return asm.error(text, "literal dwords must follow an instruction group");
        }
        let r = {
            let mut n = AsmNum(asm);
            if lds {
                alu::parse_lds_direct(body, &mut n)
            } else {
                alu::parse_literals(body, &mut n)
            }
        };
        match r {
            Ok(v) => {
                let p = asm.pos(text);
                self.group_lits = Some((v, p));
                self.close_group(asm);
            }
            Err(e) => report(asm, e),
        }
    }

    fn fetch_line(&mut self, asm: &mut Assembler, text: &str) {
        if self.ctx == Some(Ctx::Broken) {
            return;
        }
        let Some(Ctx::Clause(ci)) = self.ctx else {
            return asm.error(text, "fetch instruction outside a TC or GDS clause");
        };
        let line = {
            let mut n = AsmNum(asm);
            match fetch::parse_fetch(text, &mut n) {
                Ok(l) => l,
                Err(e) => {
                    self.mark_bad();
                    return report(asm, e);
                }
            }
        };
        let Some(p) = self.prog.as_mut() else { return };
        let c = &mut p.clauses[ci];
        let msg = match (c.kind, line.gds) {
            (ClauseKind::Alu, _) => "fetch instruction in an ALU clause",
            (ClauseKind::Tc, true) => "GDS instruction in a TC clause",
            (ClauseKind::Gds, false) => "fetch instruction in a GDS clause",
            _ => return c.body.extend_from_slice(&line.words),
        };
        c.bad = true;
        asm.error(text, msg);
    }

    /// Data words (`.int`/`.long`/`.word` values) inside a program.
    fn data_words(&mut self, asm: &mut Assembler, index: Option<u32>, args: &str) -> bool {
        let mut words = Vec::new();
        for t in split_top(args, b',') {
            let v = AsmNum(asm).num(t);
            match v {
                Ok(v) if v >= i32::MIN as i64 && v <= u32::MAX as i64 => words.push(v as u32),
                Ok(_) => {
                    asm.error(t, "value does not fit 32 bits");
                    return true;
                }
                Err(e) => {
                    report(asm, e);
                    return true;
                }
            }
        }
        if let Some(i) = index {
            // an undecodable CF slot
            self.close_clause(asm);
            self.program_for(asm, Some(i));
            let Some(p) = self.prog.as_mut() else {
                return true;
            };
            let at = i as usize * 2;
            if at + words.len() > MAX_PROGRAM_DWORDS {
                asm.error(args, "CF program too long");
                return true;
            }
            if !p.write(asm, at, &words) {
                asm.error(args, "data overlaps other code");
            }
            p.sync(asm, at + words.len());
            p.next_slot = p.next_slot.max((at + words.len()).div_ceil(2) as u32);
            p.ncf += 1;
            return true;
        }
        match self.ctx {
            Some(Ctx::Clause(ci)) => {
                self.close_group(asm);
                let Some(p) = self.prog.as_mut() else {
                    return true;
                };
                let unit = if p.clauses[ci].kind == ClauseKind::Alu {
                    2
                } else {
                    4
                };
                if words.len() % unit != 0 {
                    asm.error(
                        args,
                        format!("data in this clause comes in whole instructions of {unit} dwords"),
                    );
                }
                p.clauses[ci].body.extend_from_slice(&words);
                true
            }
            Some(Ctx::At(at)) => {
                let Some(p) = self.prog.as_mut() else {
                    return true;
                };
                if at + words.len() > MAX_PROGRAM_DWORDS {
                    asm.error(args, "data beyond 16 MiB from the program start");
                    return true;
                }
                if !p.write(asm, at, &words) {
                    asm.error(args, "data overlaps other code");
                }
                self.ctx = Some(Ctx::At(at + words.len()));
                true
            }
            _ => false,
        }
    }

    fn dispatch(&mut self, asm: &mut Assembler, text: &str) -> bool {
        let t = text.trim_end();
        let b = t.as_bytes();
        if b.is_empty() {
            return false;
        }
        // NN …: CF index, group number or fetch number
        let nd = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if nd > 0 && b.get(nd).is_some_and(|c| *c == b' ' || *c == b'\t') {
            let num = &t[..nd];
            let rest = t[nd..].trim_start();
            if let Some(a) = rest
                .strip_prefix(".int")
                .or_else(|| rest.strip_prefix(".long"))
            {
                let Ok(i) = num.parse::<u32>() else {
                    asm.error(num, "CF index too large");
                    return true;
                };
                self.data_words(asm, Some(i), a.trim());
                return true;
            }
            let rb = rest.as_bytes();
            if rb.len() >= 2 && rb[1] == b':' {
                if let Some(s) = alu::slot_of(&rest[..1]) {
                    self.alu_line(asm, true, s, rest[2..].trim());
                    return true;
                }
            }
            if cf::split_cf_head(rest).is_some() {
                match num.parse::<u32>() {
                    Ok(i) if i < (1 << 23) => self.cf_line(asm, Some((i, num)), rest),
                    _ => asm.error(num, "CF index too large"),
                }
                return true;
            }
            let first = rest.split_whitespace().next().unwrap_or("");
            if fetch::is_fetch_name(first) {
                self.fetch_line(asm, rest);
                return true;
            }
            asm.error(
                rest,
                "expected a CF instruction, an ALU slot (x: … w:) or a fetch instruction",
            );
            return true;
        }
        if b.len() >= 2 && b[1] == b':' && b.get(2) != Some(&b':') {
            if let Some(s) = alu::slot_of(&t[..1]) {
                self.alu_line(asm, false, s, t[2..].trim());
                return true;
            }
        }
        if cf::split_cf_head(t).is_some() {
            self.cf_line(asm, None, t);
            return true;
        }
        let first = t.split_whitespace().next().unwrap_or("");
        match first {
            "LITERALS" => {
                self.literal_line(asm, false, t, t[first.len()..].trim());
                true
            }
            "LDS_DIRECT" => {
                self.literal_line(asm, true, t, t[first.len()..].trim());
                true
            }
            _ if fetch::is_fetch_name(first) => {
                self.fetch_line(asm, t);
                true
            }
            _ => false,
        }
    }
}

/// Turn a jump target value into a CF slot of the program at `start`.
fn cf_target(v: Value, sec: SectionId, start: u64) -> Result<u64, String> {
    match v.section {
        None => Ok(v.value),
        Some(s) if s == sec => {
            let off = v.value.wrapping_sub(start);
            if v.value < start || !off.is_multiple_of(8) {
                return Err("jump target is not a CF instruction of this program".into());
            }
            Ok(off / 8)
        }
        Some(_) => Err("jump target is in another section".into()),
    }
}

/// Directives that move the location counter or put bytes in a section:
/// they end the current program.
const LOCATION_DIRECTIVES: &[&str] = &[
    ".text",
    ".data",
    ".rodata",
    ".bss",
    ".section",
    ".align",
    ".balign",
    ".balignw",
    ".balignl",
    ".p2align",
    ".p2alignw",
    ".p2alignl",
    ".org",
    ".fill",
    ".fillq",
    ".skip",
    ".space",
    ".byte",
    ".short",
    ".hword",
    ".word",
    ".int",
    ".long",
    ".quad",
    ".octa",
    ".half",
    ".float",
    ".single",
    ".double",
    ".ascii",
    ".asciz",
    ".string",
    ".string16",
    ".string32",
    ".string64",
    ".incbin",
    ".struct",
    ".offset",
    ".end",
];

impl Backend for Cayman {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        asm.error(
            st.name,
            format!("unknown Cayman instruction '{}' (CF lines are 'NAME: fields', ALU lines 'x: NAME …')", st.name),
        );
    }

    fn claim(&mut self, asm: &mut Assembler, text: &str) -> bool {
        self.dispatch(asm, text)
    }

    fn directive(&mut self, asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
        if name.starts_with(".elf_") {
            let parts = split_top(st.args, b',');
            return match self.extras.directive(name, &parts) {
                Some(Ok(())) => true,
                Some(Err(e)) => {
                    asm.error(st.args, e.to_string());
                    true
                }
                None => false,
            };
        }
        match name {
            ".at" => {
                self.close_clause(asm);
                if self.prog.is_none() {
                    asm.error(st.name, ".at places data inside a CF program; none is open");
                    return true;
                }
                let v = AsmNum(asm).num(st.args);
                match v {
                    Ok(v) if v >= 0 && v % 4 == 0 && (v as usize) < MAX_PROGRAM_DWORDS * 4 => {
                        self.ctx = Some(Ctx::At(v as usize / 4));
                    }
                    Ok(_) => asm.error(
                        st.args,
                        ".at takes a byte offset that is a multiple of 4, below 16 MiB",
                    ),
                    Err(e) => report(asm, e),
                }
                true
            }
            ".vliw_checks" => {
                match st.args.trim() {
                    "on" | "1" => self.no_vliw_checks = false,
                    "off" | "0" => self.no_vliw_checks = true,
                    _ => asm.error(st.args, ".vliw_checks takes on or off"),
                }
                true
            }
            ".lds_size" => {
                let v = match AsmNum(asm).num(st.args.trim()) {
                    Ok(v) if (0..=u32::MAX as i64).contains(&v) => v as u32,
                    Ok(_) => {
                        asm.error(st.args, ".lds_size takes a byte count (0..2^32)");
                        return true;
                    }
                    Err(e) => {
                        report(asm, e);
                        return true;
                    }
                };
                // for the kernel whose first CF line follows
                self.pending_lds = Some(v);
                self.pending_lds_pos = Some(asm.pos(st.name));
                true
            }
            ".config_reg" => {
                let parts = split_top(st.args, b',');
                if parts.len() != 2 {
                    asm.error(st.name, ".config_reg takes a register and a value");
                    return true;
                }
                let mut vals = [0u32; 2];
                for (k, t) in parts.iter().enumerate() {
                    match AsmNum(asm).num(t) {
                        Ok(v) if (0..=u32::MAX as i64).contains(&v) => vals[k] = v as u32,
                        Ok(_) => {
                            asm.error(t, "value does not fit 32 bits");
                            return true;
                        }
                        Err(e) => {
                            report(asm, e);
                            return true;
                        }
                    }
                }
                self.config.push((vals[0], vals[1]));
                true
            }
            ".int" | ".long" | ".word" if self.prog.is_some() && self.ctx != Some(Ctx::Cf) => {
                self.data_words(asm, None, st.args)
            }
            _ => {
                if self.prog.is_some() && LOCATION_DIRECTIVES.contains(&name) {
                    self.flush(asm, true);
                    self.prog = None;
                    self.ctx = None;
                }
                false
            }
        }
    }

    fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
        match f.kind {
            FIX_CF_ADDR => {
                let sec = f.section;
                let t = cf_target(v, sec, f.payload)?;
                if t > CF_WORD0::ADDR.max() as u64 {
                    return Err("jump target out of range".into());
                }
                let o = f.offset as usize;
                let Some(b) = data.get_mut(o..o + 4) else {
                    return Err("internal: fixup outside the section".into());
                };
                let mut w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                CF_WORD0::ADDR.set(&mut w, t as u32);
                b.copy_from_slice(&w.to_le_bytes());
                Ok(())
            }
            _ => Err("internal: unknown fixup".into()),
        }
    }

    /// `. = expr`: inside a program (before its `END:`) the clause layout
    /// would be split at an arbitrary place, so it is an error; after `END:`
    /// it ends the program like `.org`.
    fn location_assign(&mut self, asm: &mut Assembler, rhs: &str) {
        let Some(p) = self.prog.as_ref() else { return };
        if !p.closed {
            asm.error(
                rhs,
                "'. = …' inside a CF program: its clauses are laid out after the CF program ends, so the location cannot move here; end the program with END: first (or place words with .at)",
            );
        }
        self.flush(asm, true);
        self.prog = None;
        self.ctx = None;
    }

    fn end_of_source(&mut self, asm: &mut Assembler) {
        if self.prog.is_some() {
            self.flush(asm, true);
        }
        if let Some(p) = self.pending_lds_pos.take() {
            asm.error_at(
                p,
                ".lds_size applies to the kernel whose first CF line follows it, and none does",
            );
        }
    }
}
