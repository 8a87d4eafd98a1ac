//! `LaunchConfig::wave_items`: a work-group run as narrower waves. A lane's
//! two LDS atomics in a row see the other lanes of its wave between them
//! (64-item waves) or not (1-item waves: each work-item runs alone), and
//! kernels whose result does not depend on that order give the same output
//! at every width.

use risa_runtime::args::ArgValue;
use risa_runtime::error::ArgError;
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::{LaunchConfig, RunError};

/// out[item] = the first of two `ds_add_rtn_u32 1` of every lane on LDS dword 0.
const TWICE: &str = "
.gpu GFX900
.kernel twice
    .config
        .dims x
        .localsize 4
        .use_kernarg_segment_ptr
        .arg out, \"uint*\", 8, , globalbuf, u32, global, default
.text
twice:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    v_mov_b32 v1, 0
    v_mov_b32 v2, 1
    ds_add_rtn_u32 v3, v1, v2
    ds_add_rtn_u32 v4, v1, v2
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v5, 2, v0
    v_mov_b32 v6, s5
    v_add_co_u32 v5, vcc, s4, v5
    v_addc_co_u32 v6, vcc, v6, 0, vcc
    global_store_dword v[5:6], v3, off
    s_endpgm
";

fn twice(items: u32, wave_items: u32) -> Result<Vec<u32>, RunError> {
    let a = risa_gcn_asm::assemble_in(
        None,
        "twice.s",
        TWICE,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let obj = GcnObject::load(&risa_gcn_asm::codeobj::build(&a).unwrap()).unwrap();
    let mut cfg = LaunchConfig::new([items, 1, 1], 1);
    cfg.block = [items, 1, 1];
    cfg.threads = 1;
    cfg.wave_items = wave_items;
    let args = [ArgValue::Buffer(vec![0; 4 * items as usize])];
    let r = launch(&obj, &obj.kernels[0], &args, &cfg)?;
    Ok(r.buffers[0]
        .1
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn atomics_follow_the_wave_width() {
    // 64-item waves: the first round of all 128 lanes (two waves, the first
    // one running both its atomics before the second starts).
    let want: Vec<u32> = (0..128).map(|i| if i < 64 { i } else { 64 + i }).collect();
    assert_eq!(twice(128, 64).unwrap(), want);
    let want: Vec<u32> = (0..64).collect();
    assert_eq!(twice(64, 64).unwrap(), want);
    // One item per wave: each runs both its atomics before the next item.
    for n in [64, 1024] {
        let want: Vec<u32> = (0..n).map(|i| 2 * i).collect();
        assert_eq!(twice(n, 1).unwrap(), want, "{n} items");
    }
    // 7-item waves: the waves before an item's did both rounds, its own
    // wave's lanes before it did the first.
    let want: Vec<u32> = (0..100).map(|i| 2 * (i / 7 * 7) + i % 7).collect();
    assert_eq!(twice(100, 7).unwrap(), want);
}

#[test]
fn out_of_range_widths_are_refused() {
    for w in [0, 65] {
        assert!(matches!(
            twice(64, w),
            Err(RunError::Args(ArgError::WaveItems(x))) if x == w
        ));
    }
}

/// Runs a corpus kernel (fiji, clang-14) over 256 items in groups of 64 at
/// `wave_items` work-items per wave.
fn corpus(name: &str, args: &[ArgValue], wave_items: u32) -> Vec<(usize, Vec<u8>)> {
    let path = format!(
        "{}/../../tests/fixtures/gcn/fiji/{name}.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
    let mut cfg = LaunchConfig::new([256, 1, 1], 1);
    cfg.threads = 2;
    cfg.wave_items = wave_items;
    let k = obj.kernels.iter().find(|k| k.name == name).unwrap();
    launch(&obj, k, args, &cfg)
        .unwrap_or_else(|e| panic!("{name} at {wave_items} items a wave: {e}"))
        .buffers
}

#[test]
fn barriers_and_lds_give_the_same_output_at_every_width() {
    let a: Vec<u8> = (0..256u32)
        .flat_map(|i| ((i * 37 % 101) as f32 * 0.5).to_le_bytes())
        .collect();
    let args = [ArgValue::Buffer(a), ArgValue::Buffer(vec![0; 4 * 4])];
    let want = corpus("lds_reduce", &args, 64);
    assert_ne!(want[1].1, vec![0; 16]);
    for w in [1, 7] {
        assert_eq!(corpus("lds_reduce", &args, w), want, "{w} items a wave");
    }
}
