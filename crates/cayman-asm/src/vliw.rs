//! The VLIW4 rules of one ALU instruction group (HD 6900 ISA guide,
//! sections 4.3 and 4.6–4.8): slots, reduction instructions, PRED_SET*/KILL*
//! co-issue, MOVA* and AR use, and the GPR / constant read-port algorithm of
//! section 4.7.8.
//!
//! Each check returns the index of the offending instruction (and source)
//! with a message; the assembler turns them into `file:line:col` errors.

use risa_cayman::codec::{AluForm, AluInst};
use risa_cayman::fields::*;
use risa_cayman::ops;

/// A rule violation: instruction index in the group, source index (if the
/// violation is about one operand), message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Index of the instruction in the group.
    pub inst: usize,
    /// Index of the source operand concerned, if any.
    pub src: Option<usize>,
    /// What rule is broken.
    pub msg: String,
}

/// Reduction instructions: all four slots execute the same one.
const REDUCTIONS: &[&str] = &[
    "DOT4",
    "DOT4_IEEE",
    "CUBE",
    "MAX4",
    "INTERP_XY",
    "INTERP_ZW",
];

/// Double-precision instructions that span several slots with one operation
/// (chapter 8 "Coissue" notes): two-slot ones occupy x,y or z,w; four-slot ones
/// all of x,y,z,w. Only the instructions whose pages say so are listed.
const MULTI_SLOT: &[(&str, usize)] = &[
    ("ADD_64", 2),
    ("FLT32_TO_FLT64", 2),
    ("FLT64_TO_FLT32", 2),
    ("FRACT_64", 2),
    ("LDEXP_64", 2),
    ("PRED_SETE_64", 2),
    ("PRED_SETGE_64", 2),
    ("PRED_SETGT_64", 2),
    ("MUL_64", 4),
    ("FREXP_64", 4),
];

/// Loading cycle of source 0..2 for each BANK_SWIZZLE (Table 4.3).
const CYCLE: [[u8; 3]; 6] = [
    [0, 1, 2], // VEC_012
    [0, 2, 1], // VEC_021
    [1, 2, 0], // VEC_120
    [1, 0, 2], // VEC_102
    [2, 0, 1], // VEC_201
    [2, 1, 0], // VEC_210
];

const SLOT: [char; 4] = ['x', 'y', 'z', 'w'];

fn is_kcache(sel: u32) -> bool {
    (128..192).contains(&sel) || (256..320).contains(&sel)
}

/// Check one instruction group.
pub fn check_group(g: &[AluInst]) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut bad =
        |inst: usize, src: Option<usize>, msg: String| v.push(Violation { inst, src, msg });
    // slots
    let mut used = [None::<usize>; 4];
    for (k, i) in g.iter().enumerate() {
        let s = i.dst_chan() as usize;
        if let Some(p) = used[s] {
            bad(
                k,
                None,
                format!(
                    "slot {} is already taken by instruction {} of this group",
                    SLOT[s],
                    p + 1
                ),
            );
        } else {
            used[s] = Some(k);
        }
    }
    // reductions: all four slots, same opcode, same OMOD and CLAMP
    for (k, i) in g.iter().enumerate() {
        if i.form == AluForm::Lds || !REDUCTIONS.contains(&i.op.name) {
            continue;
        }
        let same = g.len() == 4
            && g.iter().all(|j| {
                j.op == i.op
                    && j.form == i.form
                    && ALU_WORD1_OP2::OMOD.get(j.words[1]) == ALU_WORD1_OP2::OMOD.get(i.words[1])
                    && ALU_WORD1_OP2::CLAMP.get(j.words[1]) == ALU_WORD1_OP2::CLAMP.get(i.words[1])
            });
        if !same {
            bad(
                k,
                None,
                format!(
                    "{} is a reduction: all four slots of the group must execute it, with the same OMOD and CLAMP",
                    i.op.name
                ),
            );
            break;
        }
    }
    // multi-slot double-precision instructions fill their slot pair / all slots
    for (k, i) in g.iter().enumerate() {
        if i.form == AluForm::Lds {
            continue;
        }
        let name = i.op.name.strip_suffix("_ALT").unwrap_or(i.op.name);
        let Some(&(_, n)) = MULTI_SLOT.iter().find(|(m, _)| *m == name) else {
            continue;
        };
        let chan = i.dst_chan() as usize;
        let need: &[usize] = if n == 4 {
            &[0, 1, 2, 3]
        } else if chan < 2 {
            &[0, 1]
        } else {
            &[2, 3]
        };
        let ok = need
            .iter()
            .all(|&c| used[c].is_some_and(|j| g[j].op == i.op && g[j].form == i.form));
        if !ok {
            let slots: String = need.iter().map(|&c| SLOT[c]).collect();
            bad(
                k,
                None,
                format!(
                    "{} occupies slots {slots}: each of them must hold it",
                    i.op.name
                ),
            );
            break;
        }
    }
    // 4.8.1: at most one PRED_SET* or KILL* per group (the 64-bit PRED_SET*_64
    // span two slots with one operation and are left out)
    let mut pred: Option<usize> = None;
    for (k, i) in g.iter().enumerate() {
        let exec =
            i.form != AluForm::Lds && i.op.flags & ops::F_EXEC != 0 && i.op.flags & ops::F_64 == 0;
        if !exec {
            continue;
        }
        match pred {
            Some(p) => bad(
                k,
                None,
                format!(
                    "{} and {} cannot be co-issued: at most one PRED_SET* or KILL* per group",
                    g[p].op.name, i.op.name
                ),
            ),
            None => pred = Some(k),
        }
    }
    // 4.8.3: MOVA* and AR indexing never share a group
    let uses_ar = |i: &AluInst| {
        let im = ALU_WORD0::INDEX_MODE.get(i.words[0]);
        let ar_mode = matches!(im, 0..=3 | 6);
        let dst_rel = i.form != AluForm::Lds && ALU_WORD1_OP2::DST_REL.get(i.words[1]) != 0;
        ar_mode && (dst_rel || (0..i.src_slots()).any(|s| i.src(s).rel))
    };
    if let Some(m) = g
        .iter()
        .position(|i| i.op.flags & ops::F_MOVA != 0 && i.form != AluForm::Lds)
    {
        if let Some(k) = g.iter().position(uses_ar) {
            bad(
                k,
                None,
                format!(
                    "AR indexing in the same group as {} (guide 4.8.3: split it into two groups)",
                    g[m].op.name
                ),
            );
        }
    }
    // AR: one element per group; kcache operands may not use AR
    let mut ar: Option<(u32, usize)> = None;
    for (k, i) in g.iter().enumerate() {
        let im = ALU_WORD0::INDEX_MODE.get(i.words[0]);
        let elem = match im {
            0..=3 => Some(im),
            6 => Some(0),
            _ => None,
        };
        let dst_rel = i.form != AluForm::Lds && ALU_WORD1_OP2::DST_REL.get(i.words[1]) != 0;
        let mut any_rel = dst_rel;
        for s in 0..i.src_slots().min(i.nsrc().max(1)) {
            let src = i.src(s);
            if !src.rel {
                continue;
            }
            any_rel = true;
            if elem.is_some() && is_kcache(src.sel) {
                bad(
                    k,
                    Some(s),
                    "kcache constants can be indexed only by the loop index (AL), not AR".into(),
                );
            }
        }
        if let (true, Some(e)) = (any_rel, elem) {
            match ar {
                Some((p, _)) if p != e => bad(
                    k,
                    None,
                    format!(
                        "only one AR element can be used per instruction group (AR.{} and AR.{})",
                        SLOT[p as usize], SLOT[e as usize]
                    ),
                ),
                _ => ar = Some((e, k)),
            }
        }
    }
    // read ports (4.7.8): GPR per (cycle, element), two constant pairs
    let mut gpr_port: [[Option<u32>; 4]; 3] = [[None; 4]; 3];
    let mut const_port: [Option<(u32, u32)>; 2] = [None; 2];
    for (k, i) in g.iter().enumerate() {
        let bs = ALU_WORD1_OP2::BANK_SWIZZLE.get(i.words[1]) as usize;
        let n = i.nsrc().min(i.src_slots());
        #[allow(clippy::needless_range_loop)] // `s` is the operand number, used in three tables
        for s in 0..n {
            let src = i.src(s);
            if src.sel < 128 {
                if bs >= CYCLE.len() {
                    bad(k, None, format!("BANK_SWIZZLE {bs} is reserved"));
                    break;
                }
                if src.rel {
                    continue; // address known only at run time
                }
                let s0 = i.src(0);
                if s == 1 && s0.sel == src.sel && s0.chan == src.chan && !s0.rel {
                    continue; // shares src0's read
                }
                let cyc = CYCLE[bs][s] as usize;
                let port = &mut gpr_port[cyc][src.chan as usize];
                match *port {
                    None => *port = Some(src.sel),
                    Some(p) if p == src.sel => {}
                    Some(p) => bad(
                        k,
                        Some(s),
                        format!(
                            "GPR read port conflict: R{}.{} and R{p}.{} both need element {} in cycle {cyc} (change BANK_SWIZZLE)",
                            src.sel, SLOT[src.chan as usize], SLOT[src.chan as usize], SLOT[src.chan as usize]
                        ),
                    ),
                }
            } else if is_kcache(src.sel) {
                let key = (src.sel, src.chan / 2);
                if const_port.contains(&Some(key)) {
                    continue;
                }
                match const_port.iter_mut().find(|p| p.is_none()) {
                    Some(p) => *p = Some(key),
                    None => bad(
                        k,
                        Some(s),
                        "all constant read ports are used: a group reads at most two kcache constant pairs (xy or zw of a constant)".into(),
                    ),
                }
            }
        }
    }
    v
}

/// Is this group a pixel kill (an ALU KILL* instruction)? Guide 4.8.1: it
/// must be the last group of its ALU clause.
pub fn has_kill(g: &[AluInst]) -> bool {
    g.iter().any(|i| {
        i.form != AluForm::Lds && i.op.flags & ops::F_EXEC != 0 && i.op.name.starts_with("KILL")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use risa_cayman::codec::decode_alu;

    /// Build an OP2 instruction: op, slot, src0 (sel, chan), src1 (sel, chan), bank swizzle.
    fn op2(code: u32, slot: u32, s0: (u32, u32), s1: (u32, u32), bs: u32) -> AluInst {
        let mut w = [0u32; 2];
        ALU_WORD0::SRC0_SEL.set(&mut w[0], s0.0);
        ALU_WORD0::SRC0_CHAN.set(&mut w[0], s0.1);
        ALU_WORD0::SRC1_SEL.set(&mut w[0], s1.0);
        ALU_WORD0::SRC1_CHAN.set(&mut w[0], s1.1);
        ALU_WORD1_OP2::ALU_INST.set(&mut w[1], code);
        ALU_WORD1_OP2::DST_CHAN.set(&mut w[1], slot);
        ALU_WORD1_OP2::WRITE_MASK.set(&mut w[1], 1);
        ALU_WORD1_OP2::BANK_SWIZZLE.set(&mut w[1], bs);
        decode_alu(w[0], w[1]).unwrap()
    }
    const MUL: u32 = 1;

    #[test]
    fn guide_read_port_examples() {
        // 4.7.7: illegal with VEC_012 everywhere (R1.x/R2.x/R3.x on cycle 0 of element x)
        let bad = [
            op2(MUL, 0, (1, 0), (2, 0), 0),
            op2(MUL, 1, (3, 0), (1, 1), 0),
            op2(MUL, 2, (2, 0), (1, 1), 0),
        ];
        let v = check_group(&bad);
        assert!(!v.is_empty() && v[0].msg.contains("read port"), "{v:?}");
        // the guide's fix: VEC_012, VEC_201, VEC_102
        let good = [
            op2(MUL, 0, (1, 0), (2, 0), 0),
            op2(MUL, 1, (3, 0), (1, 1), 4),
            op2(MUL, 2, (2, 0), (1, 1), 3),
        ];
        assert_eq!(check_group(&good), vec![]);
        // squaring shares src0's read
        assert_eq!(
            check_group(&[
                op2(MUL, 0, (1, 0), (1, 0), 0),
                op2(MUL, 1, (1, 1), (1, 1), 0)
            ]),
            vec![]
        );
    }

    #[test]
    fn slots_and_constants() {
        let v = check_group(&[
            op2(MUL, 0, (1, 0), (2, 0), 0),
            op2(MUL, 0, (3, 1), (4, 1), 0),
        ]);
        assert!(v[0].msg.contains("slot x is already taken"), "{v:?}");
        // three distinct kcache pairs
        let v = check_group(&[
            op2(MUL, 0, (128, 0), (129, 0), 0),
            op2(MUL, 1, (130, 0), (248, 0), 0),
        ]);
        assert!(v[0].msg.contains("constant read ports"), "{v:?}");
        // same pair (x and y of KC0[0]) shares a port
        assert_eq!(
            check_group(&[
                op2(MUL, 0, (128, 0), (128, 1), 0),
                op2(MUL, 1, (129, 2), (129, 3), 0)
            ]),
            vec![]
        );
    }
}
