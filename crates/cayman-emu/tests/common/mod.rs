//! Helpers shared by the kernel tests: fixtures, a deterministic RNG, buffer layout.
#![allow(dead_code)]

use risa_cayman_emu::*;
use risa_runtime::cayman::{load, run, Arg};
use std::path::PathBuf;

pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/cayman")
        .join(format!("{name}.o"))
}

/// The named kernel of fixture `file`.
pub fn kernel(file: &str, name: &str) -> Kernel {
    let bytes = std::fs::read(fixture_path(file)).unwrap_or_else(|e| panic!("{file}.o: {e}"));
    let ks = load(&bytes).unwrap_or_else(|e| panic!("{file}.o: {e}"));
    ks.into_iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("{file}.o has no kernel {name}"))
}

#[allow(unused_imports)] // not every test program draws numbers
pub use risa_rng::Rng;

/// Buffers laid out one after another in a pool (256-byte aligned).
pub struct Layout {
    pub bufs: Vec<(u32, Vec<u8>)>,
    pub end: u32,
}
impl Layout {
    pub fn new() -> Layout {
        Layout {
            bufs: Vec::new(),
            end: 0,
        }
    }
    /// Add a buffer, returns its byte offset.
    pub fn add(&mut self, data: Vec<u8>) -> u32 {
        let off = self.end;
        self.end = (off + data.len() as u32)
            .next_multiple_of(256)
            .max(off + 256);
        self.bufs.push((off, data));
        off
    }
    pub fn pool(&self) -> Pool {
        let mut bytes = vec![0u8; self.end as usize];
        for (o, d) in &self.bufs {
            bytes[*o as usize..*o as usize + d.len()].copy_from_slice(d);
        }
        Pool::from_bytes(&bytes)
    }
}

pub fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect()
}
pub fn read_u32(p: &Pool, off: u32, n: usize) -> Vec<u32> {
    let b = p.to_bytes();
    (0..n)
        .map(|i| {
            u32::from_le_bytes(
                b[off as usize + 4 * i..off as usize + 4 * i + 4]
                    .try_into()
                    .unwrap(),
            )
        })
        .collect()
}
pub fn read_i32(p: &Pool, off: u32, n: usize) -> Vec<i32> {
    read_u32(p, off, n).into_iter().map(|x| x as i32).collect()
}
pub fn read_f32(p: &Pool, off: u32, n: usize) -> Vec<f32> {
    read_u32(p, off, n)
        .into_iter()
        .map(f32::from_bits)
        .collect()
}

/// Run and panic with the fault's report on failure.
pub fn go(k: &Kernel, d: &Dispatch, args: &[Arg], p: &Pool) -> Stats {
    run(k, d, args, p).unwrap_or_else(|f| panic!("{}: {f}", k.name))
}

/// ULP distance between two floats (NaNs equal to NaNs).
pub fn ulps(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a == b {
        return 0;
    }
    let k = |x: f32| {
        let i = x.to_bits() as i32 as i64;
        if i < 0 {
            i64::MIN / 2 - i
        } else {
            i
        }
    };
    let _ = k;
    let o = |x: f32| -> i64 {
        let i = x.to_bits() as i64;
        if i & 0x8000_0000 != 0 {
            -(i & 0x7fff_ffff)
        } else {
            i
        }
    };
    (o(a) - o(b)).unsigned_abs()
}

/// Assert `got` is within `tol` ULPs or `abs` absolute of `want`.
pub fn assert_close(got: f32, want: f32, tol: u64, abs: f32, what: &str) {
    if ulps(got, want) <= tol || (got - want).abs() <= abs {
        return;
    }
    panic!(
        "{what}: got {got:e} (0x{:08x}), want {want:e} (0x{:08x}), {} ulps",
        got.to_bits(),
        want.to_bits(),
        ulps(got, want)
    );
}

/// Kernel `t` from hand-encoded program words.
pub fn kernel_from_words(w: &[u32]) -> Kernel {
    Kernel::from_code("t", &bytes_u32(w))
}

/// The environment of a single wave of `k` in a one-wave group: no loop or
/// boolean constants, all GPRs, dword-addressed atomics.
pub fn one_wave_env<'a>(
    k: &'a Kernel,
    cb: &'a [Vec<u32>],
    global: &'a Pool,
    gds: &'a Pool,
) -> wave::Env<'a> {
    wave::Env {
        prog: &k.program,
        cb,
        global,
        text: &k.text,
        num_gprs: 0,
        loop_consts: [0; 32],
        bool_consts: 0,
        waves_in_group: 1,
        atomics_byte_addressed: false,
        made_by_llvm: false,
        gds,
        resources: &NO_RESOURCES,
        sync: &NO_SYNC,
    }
}

/// No host-bound fetch resources (the runtime defaults apply).
pub static NO_RESOURCES: Resources = Resources::new();
/// Shared GWS/ordered-append state for single-wave tests that do not use them.
pub static NO_SYNC: SyncState = SyncState::new();

/// Kernel `t` from Cayman assembly (risa's assembler); panics with the
/// assembler's diagnostics on errors.
pub fn kernel_from_asm(src: &str) -> Kernel {
    let out = risa_cayman_asm::assemble("t.s", src, Default::default());
    assert!(!out.has_errors(), "{}", out.diagnostics());
    Kernel::from_code("t", &out.text())
}
