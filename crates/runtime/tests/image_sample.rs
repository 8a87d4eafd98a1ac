//! Sampled images: the kernels of tests/kernels/image_sample.cl (read_imagef
//! and read_imageui with constant samplers: every OpenCL address mode,
//! nearest and linear, normalized and unnormalized coordinates), compiled by
//! clang-19 + ROCm device libraries into `image_sample_lz` with the S# as
//! immediates (tests/fixtures/gcn-v5/<chip>/image_sample.o), run on a 5x4
//! image over a 12x10 grid and compared with PoCL's outputs for the same
//! kernels and texels (tests/kernels/pocl/image_sample/, written by
//! tools/images/pocl-sample.py).
//!
//! Nearest filtering and integer texels compare exactly (the same texel;
//! PoCL's UNORM8 conversion, raw times the f32 reciprocal of 255, is one
//! ulp off the correctly rounded raw / 255 risa returns for some). Linear filtering
//! compares within 1/256: risa, like the hardware, rounds texel-space
//! coordinates to 1/256 texel (`GcnMemHandling.md`, "Image addressing") and
//! weighs by that 8-bit fraction, while PoCL uses the float fraction; each
//! axis's weight then differs by at most 1/512, so a 2D result on UNORM data
//! in [0, 1] differs by at most 2/512.

use risa_runtime::args::{parse_spec, ArgValue};
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::LaunchConfig;
use std::path::PathBuf;

const CHIPS: [&str; 5] = ["tahiti", "hawaii", "fiji", "gfx900", "gfx906"];
const GRID: [u32; 3] = [12, 10, 1];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs kernel `name` of `chip`'s object on the image `format`; returns the
/// output buffer as 32-bit words.
fn run(chip: &str, name: &str, format: &str) -> Vec<u32> {
    let texels = std::fs::read(root().join("tests/kernels/pocl/image_sample/texels.bin")).unwrap();
    let list: Vec<String> = texels
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string())
        .collect();
    let args = vec![
        parse_spec(&format!("img2d:5:4:{format}:u32:{}", list.join(","))).unwrap(),
        ArgValue::Buffer(vec![0; 12 * 10 * 16]),
    ];
    let path = root().join(format!("tests/fixtures/gcn-v5/{chip}/image_sample.o"));
    let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
    let k = obj.kernel(Some(name)).unwrap();
    let mut cfg = LaunchConfig::new(GRID, 2);
    cfg.block = [4, 2, 1];
    cfg.threads = 1;
    let r = launch(&obj, k, &args, &cfg).unwrap_or_else(|e| panic!("{chip} {name}: {e}"));
    let out = &r.buffers.iter().find(|(i, _)| *i == 1).unwrap().1;
    out.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn expected(name: &str) -> Vec<u32> {
    let p = root().join(format!("tests/kernels/pocl/image_sample/{name}.out.bin"));
    std::fs::read(p)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn nearest_matches_pocl_exactly() {
    for chip in CHIPS {
        for name in [
            "nearest_none",
            "nearest_clamp",
            "nearest_edge",
            "nearest_norm_clamp",
            "nearest_norm_repeat",
            "nearest_norm_mirror",
        ] {
            let (got, want) = (run(chip, name, "rgba8"), expected(name));
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                // PoCL converts UNORM8 as raw * (1/255 in f32), risa (like
                // buffer_load_format) as the correctly rounded raw / 255:
                // the texel must be the same and risa's value the exact one.
                let raw = (f64::from(f32::from_bits(*w)) * 255.0).round();
                assert_eq!(
                    f32::from_bits(*g),
                    (raw / 255.0) as f32,
                    "{chip} {name}: work-item {} component {}",
                    i / 4,
                    i % 4
                );
            }
        }
        let got = run(chip, "nearest_uint", "rgba8ui");
        assert_eq!(got, expected("nearest_uint"), "{chip} nearest_uint");
    }
}

#[test]
fn linear_matches_pocl_within_the_8_bit_fraction() {
    let mut worst = 0f32;
    for chip in CHIPS {
        for name in [
            "linear_clamp",
            "linear_edge",
            "linear_norm_edge",
            "linear_norm_repeat",
            "linear_norm_mirror",
        ] {
            let (got, want) = (run(chip, name, "rgba8"), expected(name));
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                let d = (f32::from_bits(*g) - f32::from_bits(*w)).abs();
                worst = worst.max(d);
                assert!(
                    d <= 2.0 / 512.0 + 1e-6,
                    "{chip} {name}: work-item {} component {}: risa {} PoCL {}",
                    i / 4,
                    i % 4,
                    f32::from_bits(*g),
                    f32::from_bits(*w)
                );
            }
        }
    }
    eprintln!(
        "largest difference from PoCL: {worst} ({} / 512)",
        worst * 512.0
    );
    // The tolerance is needed (the fractions do differ) but not slack.
    assert!(worst > 0.0, "linear results equal PoCL's bit for bit");
}
