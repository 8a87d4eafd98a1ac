//! The control-flow graph of GCN code: instructions reached from the entry
//! points (kernels and functions), cut into basic blocks at branches and
//! branch targets.
//!
//! Decoding follows the control flow from each entry, so data and padding
//! between functions are never read as code. Indirect control flow is
//! handled conservatively: `s_setpc_b64` ends a path (a return or a jump
//! nobody can follow statically), `s_swappc_b64` is a call that returns to
//! the next instruction (callees wait for their memory operations before
//! they return, as the calling convention requires), and the fork/join
//! instructions of GCN 1.0's stack of masks keep both paths.

use crate::access::{access, fl, Access};
use crate::hazard::{consumer_mask, producer_mask};
use risa_gcn::{decode_bytes, Field, Instr, Target};
use std::collections::{BTreeMap, BTreeSet};

/// One decoded instruction of the program.
#[derive(Debug, Clone, Copy)]
pub struct Insn {
    /// Byte offset in the code.
    pub pc: u64,
    /// The instruction.
    pub instr: Instr,
    /// What it reads and writes.
    pub access: Access,
    /// Its wait-state producer classes ([`crate::hazard::producer_mask`]).
    pub producer_mask: u32,
    /// Its wait-state consumer classes ([`crate::hazard::consumer_mask`]).
    pub consumer_mask: u32,
}

/// Where execution starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Byte offset in the code.
    pub pc: u64,
    /// A function called with `s_swappc_b64` (the caller's memory
    /// operations may still be outstanding), not a kernel.
    pub function: bool,
}

impl Entry {
    /// A kernel's first instruction.
    pub fn kernel(pc: u64) -> Entry {
        Entry {
            pc,
            function: false,
        }
    }
}

/// How a block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Falls into the next block (the next instruction is a branch target).
    Fall,
    /// A branch (conditional or not).
    Branch,
    /// A call (`s_swappc_b64`, `s_call_b64`): returns to the next instruction.
    Call,
    /// The path ends: `s_endpgm`, `s_setpc_b64` (return or indirect jump),
    /// or code that does not decode.
    End,
}

/// A basic block: instructions `start..end` of [`Cfg::insns`].
#[derive(Debug, Clone)]
pub struct Block {
    /// First instruction (index into [`Cfg::insns`]).
    pub start: usize,
    /// One past the last.
    pub end: usize,
    /// Successor blocks.
    pub succs: Vec<usize>,
    /// How the block ends.
    pub exit: Exit,
}

/// The graph.
#[derive(Debug, Clone, Default)]
pub struct Cfg {
    /// Every reached instruction, in PC order.
    pub insns: Vec<Insn>,
    /// The blocks, in PC order.
    pub blocks: Vec<Block>,
    /// Blocks where execution starts, with whether each is a function.
    pub entries: Vec<(usize, bool)>,
    /// Places the graph could not follow (undecodable words, branches out
    /// of the code), as (PC, reason).
    pub notes: Vec<(u64, String)>,
}

/// Where control goes after `i` at `pc`: (fall through?, branch target, exit kind).
fn flow(i: &Instr, a: &Access, pc: u64) -> (bool, Option<i64>, Exit) {
    if !a.has(fl::BRANCH) {
        return (true, None, Exit::Fall);
    }
    let name = i.info().name;
    let next = pc as i64 + 4 * i64::from(i.len);
    let rel = || next + 4 * i64::from(i.field(Field::Simm16) as u16 as i16);
    match name {
        "s_branch" => (false, Some(rel()), Exit::Branch),
        "s_endpgm"
        | "s_endpgm_saved"
        | "s_endpgm_ordered_ps_done"
        | "s_setpc_b64"
        | "s_rfe_b64"
        | "s_rfe_restore_b64" => (false, None, Exit::End),
        "s_swappc_b64" => (true, None, Exit::Call),
        "s_call_b64" => (true, None, Exit::Call),
        "s_cbranch_g_fork" | "s_cbranch_join" => (true, None, Exit::Branch),
        // s_cbranch_{scc,vcc,exec}*, s_cbranch_cdbg*, s_cbranch_i_fork.
        _ => (true, Some(rel()), Exit::Branch),
    }
}

/// Builds the graph of `code` (for `target`) from the entry offsets.
///
/// ```
/// use risa_check::cfg::build;
/// use risa_gcn::Gen;
/// // s_cbranch_scc0 1; s_nop 0; s_endpgm
/// let code: Vec<u8> = [0xbf84_0001u32, 0xbf80_0000, 0xbf81_0000]
///     .iter().flat_map(|w| w.to_le_bytes()).collect();
/// let g = build(Gen::Gcn12.into(), &code, &[risa_check::cfg::Entry::kernel(0)]);
/// assert_eq!(g.insns.len(), 3);
/// assert_eq!(g.blocks.len(), 3);
/// assert_eq!(g.blocks[0].succs, vec![1, 2]);
/// ```
pub fn build(target: Target, code: &[u8], entries: &[Entry]) -> Cfg {
    let mut g = Cfg::default();
    let mut insns: BTreeMap<u64, Insn> = BTreeMap::new();
    let mut leaders: BTreeSet<u64> = entries.iter().map(|e| e.pc).collect();
    let mut work: Vec<u64> = entries.iter().map(|e| e.pc).collect();
    while let Some(start) = work.pop() {
        let mut pc = start;
        loop {
            if insns.contains_key(&pc) {
                break;
            }
            let Some(bytes) = code
                .get(pc as usize..)
                .filter(|b| !b.is_empty() && pc % 4 == 0)
            else {
                g.notes
                    .push((pc, "control reaches past the end of the code".into()));
                break;
            };
            let instr = match decode_bytes(target, bytes) {
                Ok(i) => i,
                Err(e) => {
                    g.notes.push((pc, format!("does not decode: {e}")));
                    break;
                }
            };
            let a = access(&instr);
            insns.insert(
                pc,
                Insn {
                    pc,
                    instr,
                    access: a,
                    producer_mask: producer_mask(&instr, &a),
                    consumer_mask: consumer_mask(&instr, &a),
                },
            );
            let next = pc + 4 * u64::from(instr.len);
            let (falls, target_pc, exit) = flow(&instr, &a, pc);
            if let Some(t) = target_pc {
                if t < 0 || t as usize >= code.len() {
                    g.notes
                        .push((pc, format!("branch target {t:#x} is outside the code")));
                } else {
                    leaders.insert(t as u64);
                    work.push(t as u64);
                }
            }
            if exit != Exit::Fall {
                leaders.insert(next);
            }
            if !falls {
                break;
            }
            pc = next;
        }
    }
    g.insns = insns.into_values().collect();
    let index: BTreeMap<u64, usize> = g.insns.iter().enumerate().map(|(k, i)| (i.pc, k)).collect();
    // Cut blocks at leaders, after control-flow instructions and at gaps.
    let mut starts = Vec::new();
    for (k, i) in g.insns.iter().enumerate() {
        let gap = k == 0 || {
            let p = &g.insns[k - 1];
            p.pc + 4 * u64::from(p.instr.len) != i.pc || p.access.has(fl::BRANCH)
        };
        if gap || leaders.contains(&i.pc) {
            starts.push(k);
        }
    }
    let block_of: BTreeMap<usize, usize> =
        starts.iter().enumerate().map(|(b, &k)| (k, b)).collect();
    for (b, &s) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(g.insns.len());
        let last = &g.insns[end - 1];
        let next_pc = last.pc + 4 * u64::from(last.instr.len);
        let (falls, target_pc, exit) = flow(&last.instr, &last.access, last.pc);
        let mut succs = Vec::new();
        let mut add = |pc: u64| {
            if let Some(bb) = index.get(&pc).and_then(|k| block_of.get(k)) {
                if !succs.contains(bb) {
                    succs.push(*bb);
                }
            }
        };
        if falls {
            add(next_pc);
        }
        if let Some(t) = target_pc.filter(|&t| t >= 0) {
            add(t as u64);
        }
        let exit = if falls && exit == Exit::Fall && !index.contains_key(&next_pc) {
            Exit::End
        } else {
            exit
        };
        g.blocks.push(Block {
            start: s,
            end,
            succs,
            exit,
        });
    }
    g.entries = entries
        .iter()
        .filter_map(|e| {
            let b = index.get(&e.pc).and_then(|k| block_of.get(k))?;
            Some((*b, e.function))
        })
        .collect();
    g
}

impl Cfg {
    /// The instructions of block `b`.
    pub fn block_insns(&self, b: usize) -> &[Insn] {
        let bl = &self.blocks[b];
        &self.insns[bl.start..bl.end]
    }

    /// Predecessors of every block.
    pub fn preds(&self) -> Vec<Vec<usize>> {
        let mut p = vec![Vec::new(); self.blocks.len()];
        for (b, bl) in self.blocks.iter().enumerate() {
            for &s in &bl.succs {
                p[s].push(b);
            }
        }
        p
    }
}
