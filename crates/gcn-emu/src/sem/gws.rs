//! Global wave sync (`ds_gws_*`) and `ds_ordered_count`: instructions whose
//! waves may have to wait for waves of other work-groups. The state lives in
//! [`crate::gds::Gds`]; the model is described there and in
//! docs/gcn-emulator.md ("GDS and GWS").
//!
//! A wave that must wait is parked: its PC goes back to the instruction, the
//! instruction is not counted, and its status becomes [`Status::Sync`]. The
//! work-group scheduler runs the instruction again when the GDS state has
//! changed; `Wave::sync_ticket` remembers what a parked barrier or
//! semaphore wave waits for, so that re-running it does not arrive twice.

use super::{Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::gds::{advance, Gds, State};
use crate::program::{Op, Src};
use crate::wave::{Status, Wave, M0};
use risa_gcn::semantics::Gws;
use risa_gcn::Field;

fn gds<'a>(c: &Ctx<'a>) -> Result<&'a Gds, FaultKind> {
    c.gds
        .ok_or_else(|| FaultKind::BadOperand("gds: this context has no global data share".into()))
}

/// The GWS resource: (M0[21:16] + OFFSET[5:0]) mod 64.
fn resource(w: &Wave, op: &Op) -> usize {
    (((w.s[M0] >> 16) & 63) + (op.instr.field(Field::Offset) & 63)) as usize & 63
}

/// The data operand of the first active lane (0 when EXEC is 0).
fn first_lane(w: &Wave, op: &Op) -> u32 {
    let e = w.exec();
    match op.src[0] {
        Src::V(r) if e != 0 => w.v[r as usize][e.trailing_zeros() as usize],
        _ => 0,
    }
}

/// Parks the wave on this instruction until the GDS state changes.
fn park(w: &mut Wave, op: &Op, c: &mut Ctx) {
    w.pc -= 1;
    w.count -= 1;
    c.stats.instructions[op.cat as usize] -= 1;
    w.status = Status::Sync;
}

fn gws_init(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let r = &mut s.gws[resource(w, op)];
    r.counter = first_lane(w, op);
    g.changed(&mut s);
    Ok(())
}

fn gws_sema_v(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let r = &mut s.gws[resource(w, op)];
    r.counter = r.counter.wrapping_add(1);
    g.changed(&mut s);
    Ok(())
}

fn gws_sema_br(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let r = &mut s.gws[resource(w, op)];
    r.counter = r.counter.wrapping_add(first_lane(w, op));
    g.changed(&mut s);
    Ok(())
}

fn gws_sema_release_all(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let r = &mut s.gws[resource(w, op)];
    r.release_gen += 1;
    r.waiting = 0;
    g.changed(&mut s);
    Ok(())
}

fn gws_sema_p(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let r = &mut s.gws[resource(w, op)];
    if w.sync_ticket != 0 && r.release_gen != w.sync_ticket - 1 {
        // Released by ds_gws_sema_release_all while parked: go on without P.
        w.sync_ticket = 0;
        return Ok(());
    }
    if r.counter > 0 {
        r.counter -= 1;
        if w.sync_ticket != 0 {
            r.waiting = r.waiting.saturating_sub(1);
            w.sync_ticket = 0;
        }
        return Ok(());
    }
    if w.sync_ticket == 0 {
        w.sync_ticket = r.release_gen + 1;
        r.waiting += 1;
        r.barrier = false;
    }
    drop(s);
    park(w, op, c);
    Ok(())
}

/// The barrier counts the waves still to come: ds_gws_init sets it to N - 1,
/// each arriving wave decrements it, and the wave that finds it at 0 releases
/// the others and reloads it from its own data operand.
fn gws_barrier(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let mut s = g.lock();
    let value = first_lane(w, op);
    let r = &mut s.gws[resource(w, op)];
    if w.sync_ticket != 0 {
        if r.barrier_gen != w.sync_ticket - 1 {
            w.sync_ticket = 0;
            return Ok(());
        }
    } else if r.counter == 0 {
        r.counter = value;
        r.barrier_gen += 1;
        r.waiting = 0;
        g.changed(&mut s);
        return Ok(());
    } else {
        r.counter -= 1;
        r.waiting += 1;
        r.barrier = true;
        w.sync_ticket = r.barrier_gen + 1;
    }
    drop(s);
    park(w, op, c);
    Ok(())
}

/// ds_ordered_count: OFFSET0 = counter index × 4, OFFSET1 bit 0 wave_release,
/// bit 1 wave_done, bits 7:4 the operation (0 add, 1 swap). Waits for the
/// wave's turn on that index (dispatch order), then applies the operation to
/// the GDS dword at OFFSET0 in the wave's M0 window with the first active
/// lane's ADDR value and returns the old value to every active lane.
pub(super) fn ordered_count(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let g = gds(c)?;
    let off = op.instr.field(Field::Offset);
    let (off0, off1) = (off & 0xff, (off >> 8) & 0xff);
    let swap = match off1 >> 4 {
        0 => false,
        1 => true,
        // No reference defines the other values: the CLRX page lists the
        // opcode only ("DS_ORDERED_COUNT (???)"), and LLVM encodes just
        // llvm.amdgcn.ds.ordered.add (0) and .swap (1) there.
        n => {
            return Err(FaultKind::BadOperand(format!(
                "ds_ordered_count operation {n} (OFFSET[15:12]): only 0 (add) and 1 (swap) \
                 are defined by any reference"
            )))
        }
    };
    let idx = (off0 >> 2) as usize;
    let me = (c.group, w.id);
    let mut s = g.lock();
    if s.turn[idx] != me {
        drop(s);
        park(w, op, c);
        return Ok(());
    }
    let value = u64::from(first_lane(w, op));
    let m0 = w.s[M0];
    let old = rmw_window(&mut s, m0, off0, |o| {
        if swap {
            value
        } else {
            (o + value) & 0xffff_ffff
        }
    });
    c.stats.lds_bytes += 4;
    let e = w.exec();
    w.vwrite32(op.d as usize, &[old; 64], e);
    if off1 & 3 != 0 {
        advance(&mut s, idx, c.group_waves);
        g.changed(&mut s);
    }
    Ok(())
}

/// A dword read-modify-write at `a` in the GDS window of `m0` (0 and no
/// write outside it).
fn rmw_window(s: &mut State, m0: u32, a: u32, f: impl FnOnce(u64) -> u64) -> u32 {
    let (base, size) = (u64::from(m0 >> 16), u64::from(m0 & 0xffff));
    let a = u64::from(a);
    if a + 4 > size || (base + a + 4) as usize > s.mem.len() {
        return 0;
    }
    let at = (base + a) as usize;
    let old = u32::from_le_bytes(s.mem[at..at + 4].try_into().unwrap());
    let new = f(u64::from(old)) as u32;
    s.mem[at..at + 4].copy_from_slice(&new.to_le_bytes());
    old
}

/// The handler of a GWS row.
pub(super) fn lookup(g: Gws) -> Handler {
    match g {
        Gws::Init => gws_init,
        Gws::SemaV => gws_sema_v,
        Gws::SemaBr => gws_sema_br,
        Gws::SemaP => gws_sema_p,
        Gws::SemaReleaseAll => gws_sema_release_all,
        Gws::Barrier => gws_barrier,
    }
}
