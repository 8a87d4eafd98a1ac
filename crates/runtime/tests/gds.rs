//! GDS, GWS and ordered count through the runtime: hand-written kernels
//! (tests/gds/*.s, CLRX syntax) assembled by risa, whose instruction words
//! are first checked against llvm-mc's (tests/gds/encodings.txt, made by
//! tests/gds/regen.sh), then run, the GDS ones with several work-groups on 2
//! worker threads so that GDS atomics and GWS waits cross threads.

use risa_runtime::args::ArgValue;
use risa_runtime::gcn::{launch_with_gds, GcnObject, Gds, GDS_BYTES};
use risa_runtime::{LaunchConfig, RunError};

fn dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gds")
}

/// llvm-mc's words per kernel file, as byte patterns (`None`: a label fixup
/// llvm-mc leaves open).
fn oracle() -> Vec<(String, Vec<Vec<Option<u8>>>)> {
    let text = std::fs::read_to_string(dir().join("encodings.txt")).unwrap();
    let mut out: Vec<(String, Vec<Vec<Option<u8>>>)> = Vec::new();
    for l in text.lines() {
        if let Some(name) = l.strip_prefix("# ") {
            out.push((name.to_string(), Vec::new()));
        } else {
            let bytes = l
                .split(',')
                .map(|b| {
                    b.strip_prefix("0x")
                        .map(|h| u8::from_str_radix(h, 16).unwrap())
                })
                .collect();
            out.last_mut().unwrap().1.push(bytes);
        }
    }
    out
}

fn assemble(file: &str) -> GcnObject {
    let src = std::fs::read_to_string(dir().join(file)).unwrap();
    let a = risa_gcn_asm::assemble_in(
        None.map(risa_gcn::Processor::of_gen),
        file,
        &src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    // The oracle: llvm-mc's encoding of every instruction, in order.
    let (_, want) = oracle().into_iter().find(|(n, _)| n == file).unwrap();
    let text = &a.output.section(".text").unwrap().data;
    let mut at = 0;
    for (k, w) in want.iter().enumerate() {
        let got = &text[at..at + w.len()];
        for (b, (g, x)) in got.iter().zip(w).enumerate() {
            if let Some(x) = x {
                assert_eq!(g, x, "{file}: instruction {k}, byte {b}");
            }
        }
        at += w.len();
    }
    assert_eq!(at, text.len(), "{file}: instruction count");
    let bytes = risa_gcn_asm::codeobj::build(&a).unwrap();
    GcnObject::load(&bytes).unwrap()
}

fn config(items: u32, block: u32, threads: usize) -> LaunchConfig {
    let mut c = LaunchConfig::new([items, 1, 1], 1);
    c.block = [block, 1, 1];
    c.threads = threads;
    c
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// ds_add_rtn_u32 from 1024 lanes in 16 work-groups on 2 threads: every old
/// value from the preloaded 1000 to 2023 is returned exactly once, GDS ends at
/// 2024; the access past the M0 window reads 0 and leaves GDS byte 80 alone.
#[test]
fn gds_atomics_across_threads() {
    let obj = assemble("gds_atomics.s");
    let k = obj.kernel(None).unwrap();
    let mut pre = vec![0u8; 128];
    pre[16..20].copy_from_slice(&1000u32.to_le_bytes());
    pre[80..84].copy_from_slice(&0xdead_beefu32.to_le_bytes());
    let gds = Gds::from_bytes(&pre).unwrap();
    let n = 1024;
    let r = launch_with_gds(
        &obj,
        k,
        &[ArgValue::Buffer(vec![0; 4 * n])],
        &config(n as u32, 64, 2),
        &gds,
    )
    .unwrap();
    let mut got = words(&r.buffers[0].1);
    got.sort_unstable();
    let want: Vec<u32> = (1000..1000 + n as u32).collect();
    assert_eq!(got, want);
    let g = gds.bytes();
    assert_eq!(g.len(), GDS_BYTES);
    assert_eq!(words(&g[16..20]), [1000 + n as u32]);
    assert_eq!(words(&g[80..84]), [0xdead_beef], "write outside the window");
    assert!(Gds::from_bytes(&vec![0; GDS_BYTES + 1]).is_err());
}

/// The GWS barrier holds every wave until all n work-groups have added to
/// GDS; with n = 3 groups but 2 threads (2 resident groups) it can never be
/// met and the dispatch ends with a deadlock report instead of hanging.
#[test]
fn gws_barrier_and_deadlock() {
    let obj = assemble("gws_barrier.s");
    let k = obj.kernel(None).unwrap();
    for (groups, threads) in [(2u32, 2usize), (3, 3), (8, 8), (1, 2)] {
        let n = 64 * groups as usize;
        let r = launch_with_gds(
            &obj,
            k,
            &[ArgValue::Buffer(vec![0; 4 * n]), ArgValue::U32(groups)],
            &config(n as u32, 64, threads),
            &Gds::new(),
        )
        .unwrap_or_else(|e| panic!("{groups} groups on {threads} threads: {e}"));
        assert!(
            words(&r.buffers[0].1).iter().all(|&v| v == n as u32),
            "{groups} groups: every lane sees all adds"
        );
    }
    let t0 = std::time::Instant::now();
    let e = launch_with_gds(
        &obj,
        k,
        &[ArgValue::Buffer(vec![0; 4 * 192]), ArgValue::U32(3)],
        &config(192, 64, 2),
        &Gds::new(),
    )
    .unwrap_err();
    let RunError::Fault(f, _) = e else {
        panic!("expected a fault, got {e}")
    };
    assert!(f.message.contains("deadlock"), "{}", f.message);
    assert!(f.message.contains("GWS barrier 0"), "{}", f.message);
    assert_eq!(f.instr, "ds_gws_barrier v1 gds");
    assert!(t0.elapsed().as_secs() < 10);
}

/// ds_ordered_count returns 0, 1, 2, ... to the waves in dispatch order
/// (work-group, then wave), although 2 threads run groups concurrently.
#[test]
fn ordered_count_in_dispatch_order() {
    let obj = assemble("ordered_count.s");
    let k = obj.kernel(None).unwrap();
    // 10 groups of 2 waves, and a partial last group of 1 wave.
    let n = 10 * 128 + 64;
    let gds = Gds::new();
    let r = launch_with_gds(
        &obj,
        k,
        &[ArgValue::Buffer(vec![0; 4 * (11 * 128)])],
        &config(n, 128, 2),
        &gds,
    )
    .unwrap();
    let got = words(&r.buffers[0].1);
    for (i, &v) in got.iter().enumerate().take(n as usize) {
        assert_eq!(v, (i / 64) as u32, "work-item {i}");
    }
    // Counter index 1 lives at GDS dword 1 of the window: 21 waves added 1.
    assert_eq!(words(&gds.bytes()[4..8]), [21]);
}

/// MUBUF LDS=1 and a packed d16 format load on gfx900, in a kernel: LDS gets
/// each lane's dword at M0 + 4 lane; the 8_8_8_8 unorm bytes (0, 255) read as
/// the halves 0x0000 and 0x3c00 (1.0) in one VGPR.
#[test]
fn buffer_lds_and_d16_kernel() {
    let obj = assemble("buffer_lds_d16.s");
    let k = obj.kernel(None).unwrap();
    let input: Vec<u32> = (0..64u32).map(|l| 0x0102_ff00 | l << 24).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let r = risa_runtime::gcn::launch(
        &obj,
        k,
        &[ArgValue::Buffer(bytes), ArgValue::Buffer(vec![0; 512])],
        &config(64, 64, 2),
    )
    .unwrap();
    let out = words(&r.buffers[1].1);
    assert_eq!(&out[..64], &input[..]);
    assert!(
        out[64..].iter().all(|&v| v == 0x3c00_0000),
        "{:x?}",
        &out[64..68]
    );
}
