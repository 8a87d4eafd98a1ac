//! Running arbitrary instruction streams safely: the shared body of the fuzz
//! target (`fuzz/`) and of the randomized test (`tests/random_programs.rs`).
//!
//! A stream is decoded and run on one wave with a tight instruction budget
//! against a [`SimpleMemory`] holding one allocation; whatever the stream
//! does, the run must end (normally or with a fault) without panicking, and
//! memory outside the allocation cannot be reached (the [`crate::Memory`]
//! trait is the emulator's only way to memory).

use crate::exec::{run_group, Ctx};
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
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    ctx.budget = budget;
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
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
