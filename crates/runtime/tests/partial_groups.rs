//! A global size that is not a multiple of the work-group size (OpenCL 1.2
//! forbids it, and the ICD rejects it; `risa run` and the runtime allow it,
//! as HSA and OpenCL 2.0 do): both ISAs launch exactly the grid's
//! work-items, the last group of a dimension holding only the rest, so the
//! same launch gives the same waves and the same results on both.

use risa_runtime::gpu::{Device, KernelArg, LaunchError, Object, Stats};
use risa_runtime::LaunchConfig;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../tests/fixtures/{rel}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Runs `ids` (8 uints per work-item, indexed by global id) over `grid`
/// work-items in groups of `block`, into a buffer of exactly `grid` entries:
/// a work-item past the grid would write past it and fault. Returns the
/// waves launched and the buffer.
fn ids(rel: &str, grid: u32, block: u32) -> (u64, Vec<u32>) {
    let obj = Object::parse(&fixture(rel)).unwrap();
    let dev = Device::new(obj.isa());
    let m = dev.load(obj).unwrap();
    let len = 32 * u64::from(grid);
    let out = dev.alloc(len).unwrap();
    let mut cfg = LaunchConfig::new([grid, 1, 1], 1);
    cfg.block = [block, 1, 1];
    cfg.threads = 2;
    let r = dev.launch(&m, 0, &[KernelArg::Buffer(out)], &cfg);
    let r = match r {
        Ok(r) => r,
        Err(LaunchError::Fault(f, _)) => panic!("{rel}, grid {grid}, block {block}: {f}"),
        Err(e) => panic!("{rel}: {e}"),
    };
    let waves = match r.stats {
        Stats::Gcn(s) => s.waves,
        Stats::Cayman(s) => s.waves,
    };
    let mut b = vec![0u8; len as usize];
    dev.read(out, &mut b).unwrap();
    let words = b
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (waves, words)
}

#[test]
fn a_partial_last_group_runs_only_the_grid_on_both_isas() {
    // (grid, block, waves): 15 full groups + 40 items; 7 full groups of two
    // waves + one of 4 items (one wave).
    for (grid, block, waves) in [(1000, 64, 16), (900, 128, 15), (64, 64, 1)] {
        for rel in ["cayman/ids.o", "gcn/gfx900/ids.o", "gcn/tahiti/ids.o"] {
            let (w, out) = ids(rel, grid, block);
            assert_eq!(w, waves, "{rel}: waves for grid {grid}, block {block}");
            for g in [0, grid - 1] {
                let e = &out[8 * g as usize..8 * g as usize + 8];
                assert_eq!(e[0], g % block, "{rel}: local id of {g}");
                assert_eq!(e[3], g / block, "{rel}: group id of {g}");
                assert_eq!(e[5], grid.div_ceil(block), "{rel}: groups");
                assert_eq!(e[7], 1, "{rel}: work_dim");
            }
        }
    }
}
