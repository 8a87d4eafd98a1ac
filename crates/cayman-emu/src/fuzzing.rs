//! Program generators shared by the fuzz target (`fuzz/`) and the
//! fuzz-style tests (`tests/fuzz.rs`): random words placed where they reach
//! the memory side of the emulator.

use crate::resource::{Dim, Format, Resource, Resources};

/// A CF program around random words: 0 TC (1-8 random TEX/VTX/MEM_RD
/// instructions, TEX_INST biased towards the implemented ones), 1 GDS (1-4
/// random MEM_GDS instructions), 2 a random CF word pair (a GWS
/// instruction half the time), 3 MEM_RAT with a random RAT word, 4 another
/// random CF pair, 5 END; and resources 0-7 bound with random shapes, RAT
/// 2 bound to a window. `body` supplies the words (zeros once it runs out).
pub fn memory_program(body: &[u32], seed: u32) -> (Vec<u32>, Resources) {
    let mut k = 0;
    let mut next = || {
        let v = body.get(k).copied().unwrap_or(0);
        k += 1;
        v
    };
    let nfetch = 1 + next() % 4;
    let ngds = 1 + next() % 4;
    let fetch_at = 6;
    let gds_at = fetch_at + 2 * nfetch;
    let cf = |inst: u32, addr: u32, count: u32| [addr, ((count - 1) << 10) | (inst << 22)];
    let mut w = Vec::new();
    w.extend(cf(1, fetch_at, nfetch));
    w.extend(cf(3, gds_at, ngds));
    for slot in 2..5 {
        let (w0, w1) = (next(), next());
        let pair = if slot == 3 {
            // MEM_RAT: an op of the table on RAT 0 or 2 (or any id, 1 in 8)
            let ops = risa_cayman::ops::RAT_OPS;
            let op = ops[(w0 >> 4) as usize % ops.len()].code as u32;
            let id = if w1 & 7 == 0 { w0 & 0xf } else { w0 & 2 };
            // RW_GPR / INDEX_GPR 0-7, ELEM_SIZE 0-1, BURST_COUNT 0-1
            let w0 = (w0 & !(0x3ff | (0xf << 18) | (0xf << 26) | (1 << 31))) | op << 4 | id;
            [w0, (w1 & !((0xff << 22) | (7 << 17))) | (86 << 22)]
        } else {
            match w1 & 7 {
                // raw words
                0 => [w0, w1],
                // GLOBAL_WAVE_SYNC (CF_INST 30), no index modes, small VALUE
                1..=2 => [w0 & !(0x3f0 | (0xf << 26)), (w1 & (1 << 31)) | (30 << 22)],
                _ => [0, 0],
            }
        };
        w.extend(pair);
    }
    w.extend([0, 32 << 22]);
    const TEX: [u32; 8] = [3, 4, 5, 9, 11, 12, 0, 14];
    const FMTS: [u32; 20] = [
        1, 5, 6, 7, 13, 14, 15, 16, 26, 29, 30, 31, 32, 34, 35, 44, 45, 46, 47, 48,
    ];
    for _ in 0..nfetch {
        let (mut w0, mut w1, w2) = (next(), next(), next());
        if w0 & (15 << 28) != 0 {
            // 15 in 16: an implemented opcode, small SRC_GPR / DST_GPR, no
            // index modes, resource / buffer 0-7, a supported vertex format
            w0 = (w0 & !0x1f) | TEX[(w0 >> 5) as usize % TEX.len()];
            w0 &= !((0x7c << 16) | (0x1f << 24) | (0xf8 << 8));
            w1 &= !0x7c;
            if w0 & 0x1f == 0 {
                w1 = (w1 & !(0x3f << 22)) | FMTS[(w1 >> 22) as usize % FMTS.len()] << 22;
            }
        }
        w.extend([w0, w1, w2, 0]);
    }
    for _ in 0..ngds {
        let (w0, w1, w2) = (next(), next(), next());
        // MEM_GDS, SRC_GPR 0-3, source selects 0-5, REL modes 0-2, an op of the table
        let sel = |v: u32| (v % 6) | ((v >> 3) % 6) << 3 | ((v >> 6) % 6) << 6;
        let w0 =
            2 | (4 << 8) | ((w0 >> 11) & 3) << 11 | ((w0 >> 18) % 3) << 18 | sel(w0 >> 20) << 20;
        let ops = risa_cayman::ops::LDS_OPS;
        let op = ops[(w1 >> 9) as usize % ops.len()].code as u32;
        let w1 =
            (w1 & !(0x7c | (3 << 7) | (0x3f << 9) | (1 << 30))) | ((w1 >> 7) % 3) << 7 | op << 9;
        w.extend([w0, w1, w2, 0]);
    }
    let mut res = Resources::new();
    let mut s = |k: u32| seed.rotate_left(k * 7) ^ next();
    for id in 0..8u8 {
        let v = s(id as u32);
        let dim = [
            Dim::Buffer,
            Dim::Tex1D,
            Dim::Tex1DArray,
            Dim::Tex2D,
            Dim::Tex2DArray,
            Dim::Tex3D,
        ][(v % 6) as usize];
        let fmt = Format {
            data: [
                1, 5, 6, 7, 13, 14, 15, 16, 26, 29, 30, 31, 32, 34, 35, 44, 45, 46, 47, 48, 8,
            ][((v >> 3) % 21) as usize],
            num: ((v >> 8) % 3) as u8,
            signed: v & (1 << 10) != 0,
        };
        let mut r = Resource::texture(
            dim,
            ((v >> 11) % 5000) as u64,
            [1 + (v >> 24) % 40, 1 + (v >> 16) % 8, 1 + (v >> 20) % 4],
            fmt,
        );
        r.stride = if v & (1 << 30) != 0 {
            (v >> 12) % 40
        } else {
            0
        };
        r.swizzle = [(v % 7) as u8, ((v >> 2) % 7) as u8, 2, 5];
        res.bind(id, r);
    }
    res.bind_rat(2, (seed % 4096) as u64, (seed >> 12) as u64 % 4096);
    (w, res)
}
