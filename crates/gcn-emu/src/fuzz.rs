//! Running arbitrary instruction streams safely: the shared body of the fuzz
//! target (`fuzz/`) and of the randomized test (`tests/random_programs.rs`).
//!
//! A stream is decoded and run on one wave with a tight instruction budget
//! against a [`SimpleMemory`] holding one allocation; whatever the stream
//! does, the run must end (normally or with a fault) without panicking, and
//! memory outside the allocation cannot be reached (the [`crate::Memory`]
//! trait is the emulator's only way to memory).

use crate::exec::{run_group, Ctx};
use crate::gds::Gds;
use crate::image::{ImageDesc, Kind};
use crate::mem::SimpleMemory;
use crate::program::Program;
use crate::wave::{Wave, EXEC};
use crate::Fault;
use risa_gcn::Gen;

/// Base address of the one allocation the fuzzed program can reach.
pub const FUZZ_BASE: u64 = 0x1_0000;
/// Size of that allocation.
pub const FUZZ_SIZE: usize = 4096;

/// Runs `code` (little-endian words) for `gen` as a work-group of `waves`
/// waves whose registers are seeded from `seed`; returns the fault, if any.
pub fn run_stream(gen: Gen, code: &[u8], seed: u64, waves: u32, budget: u64) -> Option<Fault> {
    let prog = Program::new(gen, code, 0x1000);
    let mem = SimpleMemory::new();
    mem.add(FUZZ_BASE, vec![0xa5; FUZZ_SIZE]);
    let mut lds = vec![0u8; 1024];
    // A GDS so that GDS, GWS and ordered-count instructions run too (one
    // worker: a wait nothing in the group can satisfy is a deadlock fault).
    let gds = Gds::new();
    gds.begin_dispatch(1, true);
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    ctx.budget = budget;
    ctx.gds = Some(&gds);
    let mut rng = risa_gcn::random::Rng::from_state(seed | 1);
    let mut next = || rng.next_u64();
    let mut ws: Vec<Wave> = (0..waves.max(1))
        .map(|i| {
            let mut w = Wave::new(i);
            for s in w.s.iter_mut() {
                // Mostly small values and pointers into the allocation.
                let r = next();
                *s = match r % 4 {
                    0 => (r >> 8) as u32 & 0xff,
                    1 => (FUZZ_BASE as u32).wrapping_add((r >> 8) as u32 % FUZZ_SIZE as u32),
                    2 => 0,
                    _ => (r >> 16) as u32,
                };
            }
            // Half of the waves get a linear image descriptor (T#) over the
            // allocation in an aligned SGPR octet, so MIMG gets past its checks.
            let r = next();
            if r & 1 == 0 {
                let kinds = [
                    Kind::D1,
                    Kind::D2,
                    Kind::D3,
                    Kind::Cube,
                    Kind::D1Array,
                    Kind::D2Array,
                ];
                let kind = kinds[(r >> 1) as usize % kinds.len()];
                let dfmt = 1 + (r >> 4) as u32 % 19;
                let nfmt = (r >> 9) as u32 % 8;
                let dims = [
                    1 + (r >> 12) as u32 % 9,
                    1 + (r >> 16) as u32 % 5,
                    1 + (r >> 20) as u32 % 3,
                ];
                let mut t = ImageDesc::linear(gen, kind, FUZZ_BASE, dfmt, nfmt, dims);
                t.last_level = (r >> 24) as u32 % 3;
                let at = 8 * ((r >> 28) as usize % 13);
                w.s[at..at + 8].copy_from_slice(&t.encode(gen));
            }
            w.s[EXEC] = next() as u32;
            w.s[EXEC + 1] = next() as u32;
            for v in w.v.iter_mut().take(16) {
                for l in v.iter_mut() {
                    *l = (next() >> 20) as u32 % (FUZZ_SIZE as u32);
                }
            }
            // Any rounding and denormal mode, DX10_CLAMP and IEEE.
            w.mode = (next() as u32) & 0x3ff;
            w
        })
        .collect();
    run_group(&mut ws, &mut ctx, |_, _| {}).err()
}
