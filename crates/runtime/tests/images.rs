//! Image arguments: `image_rw` (tests/kernels/image_rw.cl, compiled by
//! clang-19 + ROCm device libraries into tests/fixtures/gcn-v5/) reads an
//! rgba8i image with read_imagei and writes an rgba32i one with write_imagei
//! on every generation; the output is compared with a CPU reference computed
//! here. Work-items past the image read zeros and their writes are dropped.

use risa_runtime::args::{parse_spec, ArgValue};
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::LaunchConfig;
use std::path::PathBuf;

const CHIPS: [&str; 4] = ["tahiti", "hawaii", "fiji", "gfx900"];
const W: usize = 13;
const H: usize = 7;

#[test]
fn image_rw_matches_cpu_reference() {
    // Texel bytes (rgba8i): a deterministic pattern with negative values.
    let src: Vec<u8> = (0..W * H * 4).map(|i| (i * 37 + 11) as u8).collect();
    let list: Vec<String> = src
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string())
        .collect();
    let args = vec![
        parse_spec(&format!("img2d:{W}:{H}:rgba8i:u32:{}", list.join(","))).unwrap(),
        parse_spec(&format!("img2d:{W}:{H}:rgba32i:zeros")).unwrap(),
        ArgValue::I32(W as i32),
    ];
    let texel = |x: i64, y: i64| -> [i32; 4] {
        if x < 0 || y < 0 || x >= W as i64 || y >= H as i64 {
            return [0; 4];
        }
        let o = 4 * (y as usize * W + x as usize);
        std::array::from_fn(|k| i32::from(src[o + k] as i8))
    };
    let mut want = vec![0i32; W * H * 4];
    for y in 0..H as i64 {
        for x in 0..W as i64 {
            let p = texel(x, y);
            let q = texel(W as i64 - 1 - x, y);
            for k in 0..4 {
                want[4 * (y as usize * W + x as usize) + k] = p[k] * 2 + q[3 - k];
            }
        }
    }
    for chip in CHIPS {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../tests/fixtures/gcn-v5/{chip}/image_rw.o"));
        let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
        let k = obj.kernel(None).unwrap();
        // A grid larger than the image: the extra work-items are out of range.
        let mut cfg = LaunchConfig::new([16, 8, 1], 2);
        cfg.block = [8, 8, 1];
        cfg.threads = 2;
        let r = launch(&obj, k, &args, &cfg).unwrap_or_else(|e| panic!("{chip}: {e}"));
        let out = &r.buffers.iter().find(|(i, _)| *i == 1).unwrap().1;
        let got: Vec<i32> = out
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, want, "{chip}");
    }
}

#[test]
fn image_specs_are_checked() {
    for (spec, msg) in [
        ("img2d:4:4:rgbx:zeros", "unknown image format"),
        ("img2d:4:4:rgba8:u32:1,2", "holds 64 bytes"),
        ("img2d:0:4:rgba8:zeros", "sizes are 1 to 16384"),
        ("img2d:4:rgba8", "expected img2d:WIDTH:HEIGHT:FORMAT:DATA"),
    ] {
        let e = parse_spec(spec).unwrap_err();
        assert!(e.to_string().contains(msg), "{spec}: {e}");
    }
    // An image where the kernel takes a buffer (and the reverse) is refused.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/gcn-v5/gfx900/image_rw.o");
    let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
    let k = obj.kernel(None).unwrap();
    let args = vec![
        ArgValue::Buffer(vec![0; 16]),
        parse_spec("img2d:2:2:rgba32i:zeros").unwrap(),
        ArgValue::I32(2),
    ];
    let e = launch(&obj, k, &args, &LaunchConfig::new([2, 2, 1], 2)).unwrap_err();
    assert!(e.to_string().contains("image2d_t"), "{e}");
}

/// Every `img2d:` format reports the channel data type and order, width and
/// height PoCL reports for the same OpenCL format (`image_info`,
/// tests/kernels/image_info.cl; the expected values are PoCL's, written by
/// tools/images/pocl-image-info.py into tests/kernels/pocl/image_info/).
#[test]
fn image_channel_words_match_pocl() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let expected =
        std::fs::read_to_string(root.join("tests/kernels/pocl/image_info/formats.txt")).unwrap();
    let rows: Vec<Vec<&str>> = expected
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
        .collect();
    // PoCL's run covers every format img2d: accepts.
    let names: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    let all: Vec<&str> = risa_runtime::args::IMAGE_FORMATS
        .iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(names, all);
    for chip in CHIPS {
        let path = root.join(format!("tests/fixtures/gcn-v5/{chip}/image_info.o"));
        let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
        let k = obj.kernel(None).unwrap();
        for r in &rows {
            let (w, h) = (r[3], r[4]);
            let args = vec![
                parse_spec(&format!("img2d:{w}:{h}:{}:zeros", r[0])).unwrap(),
                ArgValue::Buffer(vec![0; 16]),
            ];
            let res = launch(&obj, k, &args, &LaunchConfig::new([1, 1, 1], 1))
                .unwrap_or_else(|e| panic!("{chip} {}: {e}", r[0]));
            let out = &res.buffers.iter().find(|(i, _)| *i == 1).unwrap().1;
            let got: Vec<String> = out
                .chunks(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]).to_string())
                .collect();
            assert_eq!(got, r[1..], "{chip}: {}", r[0]);
        }
    }
}
