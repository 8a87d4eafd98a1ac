//! What one slot of an ALU group computes, per instruction class (see
//! `program::Class`): plain and moded ops, LDS_IDX_OP, PRED_SET* and KILL*,
//! the four-slot ops (CUBE, FREXP_64, FLT_TO_UINT4), the reductions (DOT4,
//! MAX4), the double pairs, MOVA_INT and the per-wave register writes, and
//! the `_PREV` ops that read the next slot's result. `FLAGS` adds the
//! floating-point exception flags the slot raises to `flags` (its lanes).

use super::group::{Operands, Pending, SlotFault, SlotOutputs};
use super::lds::lds_op;
use super::*;

/// A plain op (the common case: `alu::exec_slot_ref` with OMOD and CLAMP).
#[inline(always)]
pub(super) fn plain<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    o: &mut Lanes,
    flags: &mut Lanes,
) {
    // (sources read in the call keep the common loop as it was before the
    // flags existed)
    alu::exec_slot_ref(
        i.sem,
        ops.at(i.loc[0]),
        ops.at(i.loc[1]),
        ops.at(i.loc[2]),
        o,
    );
    if (i.omod != 0 || i.clamp) && i.sem.float_result() {
        for v in o.iter_mut() {
            *v = alu::out_mod(*v, i.omod, i.clamp);
        }
    }
    if FLAGS {
        let (a, b, c) = (ops.at(i.loc[0]), ops.at(i.loc[1]), ops.at(i.loc[2]));
        let n = i.nsrc as usize;
        for l in lanes_of(m) {
            flags[l] |= alu::fp_flags(i.sem, n, [a[l], b[l], c[l]], o[l]);
        }
    }
}

/// LDS_IDX_OP over lanes `m` (results go to the output queues `oq`); with
/// `log`, the access is recorded for the observer.
#[inline(always)]
pub(super) fn lds(
    i: &AluInstr,
    rows: &[Lanes],
    m: u64,
    lds_limit: Option<u32>,
    oq: &mut [VecDeque<Lanes>; 2],
    lds: &mut [u32],
    log: Option<&mut Vec<LdsAccess>>,
) -> Result<(), SlotFault> {
    let op = i.lds.expect("LDS op decoded");
    // SET_LDS_SIZE: lanes addressing at or beyond the size are left out
    // (writes discarded, reads return 0)
    let m = match lds_limit {
        None => m,
        Some(lim) => {
            let a = &rows[i.loc[0] as usize];
            lanes_of(m)
                .filter(|&l| (a[l] & !3) < lim)
                .fold(0u64, |acc, l| acc | 1 << l)
        }
    };
    let s = &rows[i.loc[0] as usize..i.loc[0] as usize + 3];
    if let Some(log) = log {
        log.push(LdsAccess {
            op,
            slot: i.slot,
            mask: m,
            src: [s[0], s[1], s[2]],
        });
    }
    lds_op(oq, lds, op, s, m).map_err(|(lane, e)| (Some(i.slot), lane, e))
}

/// PRED_SET*: the 1.0/0.0 (or 1/0) result in `o`; returns the lanes where
/// the comparison holds.
#[inline(always)]
pub(super) fn pred_set<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    o: &mut Lanes,
    flags: &mut Lanes,
) -> u64 {
    let (a, b) = (ops.at(i.loc[0]), ops.at(i.loc[1]));
    if (FLAGS || i.mode[0] != 0) && fmode::pred_reads_floats(i.sem) {
        let fl = FLAGS.then_some((flags, m));
        fmode::pred_set_lanes(i.sem, i.mode, a, b, o, fl)
    } else {
        alu::pred_set_lanes(i.sem, a, b, o)
    }
}

/// KILL*: writes 1.0/0.0 like SET*; the kill itself only happens in pixel
/// shaders and is ignored in other program types (guide 8.2 KILLE ...
/// KILLNE_INT), so a compute wave keeps its lanes.
#[inline(always)]
pub(super) fn kill<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    o: &mut Lanes,
    flags: &mut Lanes,
) {
    let (a, b) = (ops.at(i.loc[0]), ops.at(i.loc[1]));
    if (FLAGS || i.mode[0] != 0) && fmode::pred_reads_floats(i.sem) {
        let fl = FLAGS.then_some((flags, m));
        fmode::kill_lanes(i.sem, i.mode, a, b, o, fl);
    } else {
        for l in 0..LANES {
            let t = alu::kill_test(i.sem, a[l], b[l]);
            o[l] = if t { 0x3f80_0000 } else { 0 };
        }
    }
}

/// The four-slot ops (FREXP_64, CUBE, FLT_TO_UINT4): all four results from
/// the four slots' sources.
#[inline(always)]
pub(super) fn quad<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    res: &mut [Lanes; 4],
    flags: &mut Lanes,
) {
    // the four slots' first sources (and CUBE's second)
    let s0: [&Lanes; 4] = [0, 1, 2, 3].map(|c| ops.at(ops.locs_of(c)[0]));
    let s1: [&Lanes; 4] = [0, 1, 2, 3].map(|c| ops.at(ops.locs_of(c)[1]));
    let moded = FLAGS || i.mode != [0, 0];
    let mut cx = fmode::Ctx::new(i.mode, FLAGS);
    for l in 0..LANES {
        let r: [u32; 4] = match i.sem {
            Sem::Frexp64 => {
                // double: X slot high dword, Y slot low dword
                let v = f64::from_bits(((s0[0][l] as u64) << 32) | s0[1][l] as u64);
                let (fr, e) = alu::frexp64(v);
                if moded {
                    fmode::frexp64_flags(&mut cx, v.to_bits());
                }
                [e, e, fr as u32, (fr >> 32) as u32]
            }
            Sem::Cube if moded => fmode::cube(&mut cx, s0[2][l], s1[0][l], s0[0][l]),
            Sem::Cube => {
                // slot x reads (z, y), y (z, x), z (x, z), w (y, z)
                let v = |p: &Lanes| f32::from_bits(alu::ftz(p[l]));
                let (x, y, z) = (v(s0[2]), v(s1[0]), v(s0[0]));
                alu::cube(x, y, z).map(|c| alu::ftz(c.to_bits()))
            }
            _ => {
                if moded {
                    let s = [0, 1, 2, 3].map(|c| s0[c][l]);
                    fmode::flt_to_uint4_flags(&mut cx, s);
                }
                let p = (0..4).fold(0u32, |acc, c| {
                    acc | (alu::flt_to_uint(s0[c][l]) & 0xff) << (8 * c)
                });
                [p; 4]
            }
        };
        for c in 0..4 {
            res[c][l] = r[c];
        }
        let fl = cx.take();
        if FLAGS && m >> l & 1 != 0 {
            flags[l] |= fl;
        }
    }
}

/// MOVA_INT: the clamped integer in `o`, and the register MOVA_DST names
/// (ALU_WORD1_OP2_MOVA): AR (`out.new_ar`) or CF_IDX0/1 (`pending`).
#[inline(always)]
pub(super) fn mova(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    o: &mut Lanes,
    out: &mut SlotOutputs,
    pending: &mut Pending,
) -> Result<(), SlotFault> {
    let a = ops.at(i.loc[0]);
    let mut v = [0u32; LANES];
    for l in 0..LANES {
        let x = a[l] as i32;
        // guide 8.2 MOVA_INT: out of [-256, 255] → -256
        v[l] = if !(-256..=255).contains(&x) {
            -256i32 as u32
        } else {
            x as u32
        };
    }
    *o = v;
    let slot = i.slot as usize;
    match i.dst_gpr {
        0 => out.new_ar = Some((slot, m, v)),
        // CF_IDX0/1: one register per wave; its nine lsbs from the first
        // lane that executes
        2 | 3 => {
            if m != 0 {
                pending.any = true;
                pending.cf_idx[i.dst_gpr as usize - 2] =
                    Some(v[m.trailing_zeros() as usize] & 0x1ff);
            }
        }
        // CLAUSE_GLOBAL bytes: no instruction of the guide reads
        // CLAUSE_GLOBAL, so nothing observes it
        4..=7 => {}
        1 => {
            return Err((
                Some(i.slot),
                None,
                "MOVA_INT to CF_PC (a computed CF jump) is not emulated".into(),
            ))
        }
        d => {
            return Err((
                Some(i.slot),
                None,
                format!("MOVA_DST {d} is reserved (0-7 are defined)"),
            ))
        }
    }
    Ok(())
}

/// SET_CF_IDX0/1 and SET_LDS_SIZE: per-wave registers take the first
/// executing lane's value.
#[inline(always)]
pub(super) fn wave_state(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    pending: &mut Pending,
) -> Result<(), SlotFault> {
    if m == 0 {
        return Ok(());
    }
    let l = m.trailing_zeros() as usize;
    let (a, b) = (ops.at(i.loc[0])[l], ops.at(i.loc[1])[l]);
    pending.any = true;
    match i.sem {
        Sem::SetCfIdx(k) => pending.cf_idx[k as usize & 1] = Some(a & 0x1ff),
        _ => {
            // SET_LDS_SIZE: src0 = size (bytes), src1 = global mode
            if b != 0 {
                return Err((
                    Some(i.slot),
                    Some(l as u32),
                    "SET_LDS_SIZE global mode is not emulated (each work-group has its own LDS in risa)".into(),
                ));
            }
            pending.lds_limit = Some(a);
        }
    }
    Ok(())
}

/// DOT4, DOT4_IEEE, MAX4: the reduction over every slot of the group that
/// runs the same op.
#[inline(always)]
pub(super) fn reduce<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    o: &mut Lanes,
    flags: &mut Lanes,
) {
    let ins = ops.ins;
    if FLAGS || i.mode[0] != 0 {
        let srcs: Vec<(&Lanes, &Lanes)> = ins
            .iter()
            .filter(|j| j.sem == i.sem)
            .map(|j| (ops.at(j.loc[0]), ops.at(j.loc[1])))
            .collect();
        let fl = FLAGS.then_some((flags, m));
        fmode::reduce_lanes(i.sem, i.mode, &srcs, o, fl);
        return;
    }
    for l in 0..LANES {
        let mut acc: Option<f32> = None;
        for j in ins {
            if j.sem != i.sem {
                continue;
            }
            let (s0, s1) = (ops.at(j.loc[0]), ops.at(j.loc[1]));
            let t = match i.sem {
                Sem::Dot4 => f32::from_bits(alu::mul_legacy(s0[l], s1[l])),
                Sem::Dot4Ieee => f32::from_bits(alu::ftz(s0[l])) * f32::from_bits(alu::ftz(s1[l])),
                _ => f32::from_bits(alu::ftz(s0[l])),
            };
            acc = Some(match (acc, i.sem) {
                (None, _) => t,
                (Some(a), Sem::Max4) => a.max(t),
                (Some(a), _) => a + t,
            });
        }
        o[l] = alu::ftz(acc.unwrap_or(0.0).to_bits());
    }
}

/// A double op and the float/double conversions, run by the first slot of
/// its pair ((x, y) or (z, w)): high dword in that slot, low in the next.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn double<const FLAGS: bool>(
    i: &AluInstr,
    ops: Operands,
    m: u64,
    res: &mut [Lanes; 4],
    flags: &mut Lanes,
    pred: u64,
    out: &mut SlotOutputs,
    ctx: &mut ClauseCtx,
) {
    let slot = i.slot as usize;
    let (hi, lo) = (slot, slot + 1);
    let (lh, ll) = (i.loc, ops.locs_of(lo));
    let (r_hi, r_lo) = res.split_at_mut(lo);
    let (o_hi, o_lo) = (&mut r_hi[hi], &mut r_lo[0]);
    let moded = FLAGS || i.mode[1] != 0 || (i.mode[0] != 0 && i.class != Class::Double);
    match i.class {
        _ if moded => {
            let (sh, sl) = (lh.map(|p| ops.at(p)), ll.map(|p| ops.at(p)));
            let fl = FLAGS.then_some((flags, m));
            fmode::double_lanes(i.sem, i.mode, sh, sl, o_hi, o_lo, fl);
        }
        Class::Double => {
            let sh = lh.map(|p| ops.at(p));
            let sl = ll.map(|p| ops.at(p));
            alu::exec_double(i.sem, sh, sl, o_hi, o_lo);
        }
        Class::F32ToF64 => {
            let a = ops.at(lh[0]);
            for l in 0..LANES {
                (o_hi[l], o_lo[l]) = alu::flt32_to_flt64(a[l]);
            }
        }
        _ => {
            let (a, b) = (ops.at(lh[0]), ops.at(ll[0]));
            for l in 0..LANES {
                o_hi[l] = alu::flt64_to_flt32(a[l], b[l]);
                o_lo[l] = 0;
            }
        }
    }
    if let Sem::PredSet64(_) = i.sem {
        // true lanes got 0 (execute)
        let mut bits = 0u64;
        for l in 0..LANES {
            bits |= ((o_hi[l] == 0) as u64) << l;
        }
        pred_set_effects(i, m, bits, pred, &mut out.new_pred, ctx);
    }
    out.writes[hi] = true;
    out.writes[lo] = true;
    out.masks[lo] = m;
}

/// The `_PREV` ops, W down to X: each uses the next slot's result.
#[inline(always)]
pub(super) fn prev_ops<const FLAGS: bool>(
    ops: Operands,
    res: &mut [Lanes; 4],
    flags: &mut Lanes,
    out: &mut SlotOutputs,
) -> Result<(), SlotFault> {
    for slot in (0..4).rev() {
        let Some(i) = ops.ins.iter().find(|j| j.slot as usize == slot) else {
            continue;
        };
        if i.class != Class::Prev || i.dead {
            continue;
        }
        if i.sem != Sem::Mbcnt32Hi && (slot == 3 || !out.writes[slot + 1]) {
            return Err((
                Some(i.slot),
                None,
                format!(
                    "{} needs a result in the next slot ({}) of its group",
                    i.name,
                    if slot == 3 {
                        "there is none after W"
                    } else {
                        "it is empty"
                    }
                ),
            ));
        }
        let (lo, hi) = res.split_at_mut(slot + 1);
        let prev = hi.first().unwrap_or(&lo[slot]);
        let (a, b) = (ops.at(i.loc[0]), ops.at(i.loc[1]));
        let mut o = [0u32; LANES];
        if FLAGS || i.mode[0] != 0 {
            let fl = FLAGS.then_some((&mut *flags, out.masks[slot]));
            fmode::prev_lanes(i.sem, i.mode, i.omod, i.clamp, a, b, prev, &mut o, fl);
        } else {
            for l in 0..LANES {
                o[l] = alu::prev_op(i.sem, a[l], b[l], prev[l], l as u32);
            }
            if (i.omod != 0 || i.clamp) && i.sem.float_result() {
                for v in o.iter_mut() {
                    *v = alu::out_mod(*v, i.omod, i.clamp);
                }
            }
        }
        lo[slot] = o;
        out.writes[slot] = true;
    }
    Ok(())
}

/// What a PRED_SET* result `bits` (lanes `m`) does beyond its value:
/// UPDATE_PRED sets the predicate, UPDATE_EXEC_MASK the clause's new active
/// mask, with EXECUTE_MASK_OP recording the failing lanes as broken,
/// continued or killed.
#[inline(always)]
pub(super) fn pred_set_effects(
    i: &AluInstr,
    m: u64,
    bits: u64,
    pred: u64,
    new_pred: &mut Option<u64>,
    ctx: &mut ClauseCtx,
) {
    if i.update_pred {
        *new_pred = Some((pred & !m) | (bits & m));
    }
    if i.update_exec {
        ctx.exec_new = (ctx.exec_new & !m) | (bits & m);
        let fail = m & !bits;
        match i.exec_op {
            1 => ctx.broken |= fail,
            2 => ctx.cont |= fail,
            3 => ctx.killed |= fail,
            _ => {}
        }
    }
}
