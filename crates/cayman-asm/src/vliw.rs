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

/// How many vector slots an operation that had only an ALU.Trans unit on
/// earlier chips takes on Cayman, which has no t-slot (glossary "ALU.Trans —
/// not relevant on HD 6900"; these are the ALU.Trans operations of section
/// 4.8, Table 4.4, that are not conversions). The guide states no slot rule for
/// them; the rule here is what both Cayman code generators do, so code the
/// hardware is known to run: llc (`-mcpu=cayman`) issues every one of them in
/// all four slots with the same sources (all 121 such groups of the fixture
/// corpus), Mesa's r600 Cayman path issues the floating-point ones in x, y, z
/// (plus w when w is written) and the 32-bit integer multiplies in all four.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Replicate {
    /// Slots x, y and z, and w too when one of the copies writes w.
    Xyz,
    /// All four slots.
    Xyzw,
}

const REPLICATED: &[(&str, Replicate)] = &[
    ("EXP_IEEE", Replicate::Xyz),
    ("LOG_CLAMPED", Replicate::Xyz),
    ("LOG_IEEE", Replicate::Xyz),
    ("RECIP_CLAMPED", Replicate::Xyz),
    ("RECIP_FF", Replicate::Xyz),
    ("RECIP_IEEE", Replicate::Xyz),
    ("RECIPSQRT_CLAMPED", Replicate::Xyz),
    ("RECIPSQRT_FF", Replicate::Xyz),
    ("RECIPSQRT_IEEE", Replicate::Xyz),
    ("SQRT_IEEE", Replicate::Xyz),
    ("SIN", Replicate::Xyz),
    ("COS", Replicate::Xyz),
    ("RECIP_INT", Replicate::Xyz),
    ("RECIP_UINT", Replicate::Xyz),
    ("MULLO_INT", Replicate::Xyzw),
    ("MULHI_INT", Replicate::Xyzw),
    ("MULLO_UINT", Replicate::Xyzw),
    ("MULHI_UINT", Replicate::Xyzw),
];

/// Interpolation instructions (guide 7.3.2 and their chapter 8 pages): the
/// slots each must be present in, and the slots that must be written-masked.
const INTERP: &[(&str, &[usize], &[usize])] = &[
    ("INTERP_XY", &[0, 1, 2, 3], &[2, 3]),
    ("INTERP_ZW", &[0, 1, 2, 3], &[0, 1]),
    ("INTERP_X", &[0, 1], &[]),
    ("INTERP_Z", &[2, 3], &[]),
];

/// BANK_SWIZZLE value of ALU_VEC_210.
const VEC_210: u32 = 5;

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

/// The operand fields of an OP2 instruction: ALU_WORD0 without LAST, and the
/// two ABS bits. Copies of a replicated operation must agree on them.
fn operands(i: &AluInst) -> (u32, u32, u32) {
    let mut w0 = i.words[0];
    ALU_WORD0::LAST.set(&mut w0, 0);
    (
        w0,
        ALU_WORD1_OP2::SRC0_ABS.get(i.words[1]),
        ALU_WORD1_OP2::SRC1_ABS.get(i.words[1]),
    )
}

/// A GPR read-port reservation (guide 4.7.8): an absolute GPR, or a relative
/// one whose address is known only at run time (GPR base and index: AR.x for
/// INDEX_MODE 0..3, Table 4.2, else the mode).
#[derive(Clone, Copy, PartialEq, Eq)]
enum PortUse {
    Abs(u32),
    Rel(u32, u32),
}

fn port_use(i: &AluInst, sel: u32, rel: bool) -> PortUse {
    if !rel {
        return PortUse::Abs(sel);
    }
    let im = ALU_WORD0::INDEX_MODE.get(i.words[0]);
    PortUse::Rel(sel, if im <= 3 { 0 } else { im })
}

fn port_name(p: PortUse, chan: u32) -> String {
    let c = SLOT[chan as usize];
    match p {
        PortUse::Abs(s) => format!("R{s}.{c}"),
        PortUse::Rel(s, 4) => format!("R{s}[AL].{c}"),
        PortUse::Rel(s, 0) => format!("R{s}[AR.x].{c}"),
        PortUse::Rel(s, m) => format!("R{s}[INDEX_MODE({m})].{c}"),
    }
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
    // Cayman has no t-slot: a former ALU.Trans operation occupies several
    // vector slots, each copy with the same operands (see REPLICATED)
    for (name, rule) in REPLICATED {
        let Some(k) = g
            .iter()
            .position(|i| i.form == AluForm::Op2 && i.op.name == *name)
        else {
            continue;
        };
        let copies: Vec<&AluInst> = g
            .iter()
            .filter(|i| i.form == AluForm::Op2 && i.op.name == *name)
            .collect();
        let writes_w = copies
            .iter()
            .any(|i| i.dst_chan() == 3 && ALU_WORD1_OP2::WRITE_MASK.get(i.words[1]) != 0);
        let need: &[usize] = match (rule, writes_w) {
            (Replicate::Xyz, false) => &[0, 1, 2],
            _ => &[0, 1, 2, 3],
        };
        let missing = need
            .iter()
            .any(|&c| !copies.iter().any(|i| i.dst_chan() as usize == c));
        let slots: String = need.iter().map(|&c| SLOT[c]).collect();
        let why = if *rule == Replicate::Xyzw {
            "a 32-bit integer multiply"
        } else {
            "a transcendental operation"
        };
        if missing {
            let extra = if *rule == Replicate::Xyz && !writes_w {
                " (and w when it writes w)"
            } else {
                ""
            };
            bad(
                k,
                None,
                format!(
                    "{name} is {why}: Cayman has no t-slot, so it must occupy slots {slots}{extra} of its group"
                ),
            );
        } else if let Some(j) = g.iter().position(|i| {
            i.form == AluForm::Op2 && i.op.name == *name && operands(i) != operands(&g[k])
        }) {
            bad(
                j,
                None,
                format!("every copy of {name} in slots {slots} must read the same operands"),
            );
        }
    }
    // interpolation (guide 7.3.2 and the INTERP_* pages of chapter 8): the
    // slots each one needs, VEC_210 everywhere, one parameter (src1) for the
    // whole group, the unused slots write-masked
    for (name, slots, masked) in INTERP {
        let Some(k) = g
            .iter()
            .position(|i| i.form == AluForm::Op2 && i.op.name == *name)
        else {
            continue;
        };
        let is = |i: &AluInst| i.form == AluForm::Op2 && i.op.name == *name;
        let missing = slots.iter().any(|&c| !used[c].is_some_and(|j| is(&g[j])));
        if missing {
            let s: String = slots.iter().map(|&c| SLOT[c]).collect();
            bad(
                k,
                None,
                format!("{name} must be present in slots {s} of its group (guide 7.3.2)"),
            );
            continue;
        }
        for (j, i) in g.iter().enumerate().filter(|(_, i)| is(i)) {
            if ALU_WORD1_OP2::BANK_SWIZZLE.get(i.words[1]) != VEC_210 {
                bad(
                    j,
                    None,
                    format!("{name} must use bank swizzle VEC_210 (it reads the I/J GPR in the third cycle, guide 7.3.2)"),
                );
            }
            let (p, q) = (i.src(1), g[k].src(1));
            if (p.sel, p.chan, p.rel, p.neg) != (q.sel, q.chan, q.rel, q.neg) {
                bad(
                    j,
                    Some(1),
                    format!("the parameter (src1) of {name} must be the same in all its slots (guide 7.3.2)"),
                );
            }
            let c = i.dst_chan() as usize;
            if masked.contains(&c) && ALU_WORD1_OP2::WRITE_MASK.get(i.words[1]) != 0 {
                bad(
                    j,
                    None,
                    format!(
                        "{name} writes slots {}: slot {} must be write-masked (guide 7.3.2)",
                        (0..4)
                            .filter(|x| !masked.contains(x))
                            .map(|x| SLOT[x])
                            .collect::<String>(),
                        SLOT[c]
                    ),
                );
            }
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
    // Relative GPR reads take a port too; their address is known only at run
    // time, so a relative read conflicts with any other address on the same
    // port (4.7.4 and 4.7.8 count addresses "after relative addressing is
    // applied"), and two reads share a port only if written identically.
    let mut gpr_port: [[Option<PortUse>; 4]; 3] = [[None; 4]; 3];
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
                let s0 = i.src(0);
                if s == 1 && s0.sel == src.sel && s0.chan == src.chan && s0.rel == src.rel {
                    continue; // shares src0's read
                }
                let cyc = CYCLE[bs][s] as usize;
                let want = port_use(i, src.sel, src.rel);
                let port = &mut gpr_port[cyc][src.chan as usize];
                match *port {
                    None => *port = Some(want),
                    Some(p) if p == want => {}
                    Some(p) => {
                        let (a, b) = (port_name(want, src.chan), port_name(p, src.chan));
                        let c = SLOT[src.chan as usize];
                        let msg = if matches!((want, p), (PortUse::Abs(_), PortUse::Abs(_))) {
                            format!("GPR read port conflict: {a} and {b} both need element {c} in cycle {cyc} (change BANK_SWIZZLE)")
                        } else {
                            format!("GPR read port conflict: {a} and {b} both need element {c} in cycle {cyc}, and a relative address may differ from any other (guide 4.7.4; change BANK_SWIZZLE)")
                        };
                        bad(k, Some(s), msg)
                    }
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

/// The first instruction of the group that indexes with AR (INDEX_MODE
/// AR.x..AR.w or GLOBAL+AR.x on a relative operand or destination).
pub fn first_ar_user(g: &[AluInst]) -> Option<usize> {
    g.iter().position(|i| {
        let ar_mode = matches!(ALU_WORD0::INDEX_MODE.get(i.words[0]), 0..=3 | 6);
        let dst_rel = i.form != AluForm::Lds && ALU_WORD1_OP2::DST_REL.get(i.words[1]) != 0;
        ar_mode && (dst_rel || (0..i.src_slots()).any(|s| i.src(s).rel))
    })
}

/// Does the group load AR (a MOVA_INT whose MOVA_DST is AR, guide 4.9.5)?
pub fn loads_ar(g: &[AluInst]) -> bool {
    g.iter().any(|i| {
        i.form != AluForm::Lds
            && i.op.flags & ops::F_MOVA != 0
            && ALU_WORD1_OP2_MOVA::MOVA_DST.get(i.words[1]) == 0
    })
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
