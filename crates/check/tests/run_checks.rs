//! The run-time checkers on small hand-written GCN programs: each bug is
//! found at its PC with the right kind, and the fixed program gives none.

use risa_check::run::{Options, Session, WaveInputs};
use risa_check::{Kind, Report};
use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

/// Assembles `src` (LLVM syntax) for `gen`.
fn code(gen: Gen, src: &str) -> Vec<u8> {
    let opts = risa_asm_core::Options {
        semicolon_comments: true,
        ..Default::default()
    };
    let a = risa_gcn_asm::assemble_with(Some(gen), "t.s", src, opts, false);
    assert!(a.output.diagnostics.is_empty(), "{}", a.diagnostics());
    a.code().iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `src` as one work-group of `waves` waves (v0 = work-item id, s[0:1]
/// = address of a 4 KiB zeroed buffer, 512 bytes of LDS) under `checks`;
/// returns the report and wave 0's v`out` lane 0.
fn run(gen: Gen, src: &str, checks: &str, waves: u32, out: usize) -> (Report, u32) {
    let bytes = code(gen, src);
    let prog = Program::new(gen, &bytes, 0x1000);
    let mem = SimpleMemory::new();
    let buf = 0x10_0000u64;
    mem.add(buf, vec![0u8; 4096]);
    let mut lds = vec![0u8; 512];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let s = Session::new(
        Options::parse(checks).unwrap(),
        WaveInputs {
            sgprs: 0b11,
            vgprs: 1,
        },
    );
    ctx.observer = Some(s.observer());
    let mut ws: Vec<Wave> = (0..waves).map(Wave::new).collect();
    for w in &mut ws {
        w.set_s64(EXEC, u64::MAX);
        w.set_s64(0, buf);
        for l in 0..64 {
            w.v[0][l] = 64 * w.id + l as u32;
        }
    }
    exec::run_group(&mut ws, &mut ctx, |_, _| {}).unwrap();
    drop(ctx);
    (s.report(), ws[0].v[out][0])
}

fn kinds_at(r: &Report) -> Vec<(u64, Kind)> {
    r.findings().map(|(f, _)| (f.pc, f.kind)).collect()
}

// A load of 7 from memory, then its use.
const LOAD_USE: &str = "
    v_mov_b32 v1, 7
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    v_mov_b32 v4, s0
    v_mov_b32 v5, s1
    flat_store_dword v[4:5], v1
    s_waitcnt vmcnt(0)
    flat_load_dword v2, v[4:5]
    WAIT
    v_add_u32 v3, v2, v2
    s_endpgm
";

#[test]
fn waitcnt_holds_a_load_back_until_its_wait() {
    let good = LOAD_USE.replace("WAIT", "s_waitcnt vmcnt(0)");
    let (r, v3) = run(Gen::Gcn14, &good, "waitcnt", 1, 3);
    assert!(r.is_empty(), "{}", r.render("t"));
    assert_eq!(v3, 14);
    // Without the wait the add reads v2's old value (0) and is reported at
    // its PC (0x2c: six 4-byte VOP1 and two 8-byte FLAT before it).
    let bad = LOAD_USE.replace("WAIT", "s_nop 0");
    let (r, v3) = run(Gen::Gcn14, &bad, "waitcnt", 1, 3);
    assert_eq!(v3, 0);
    assert_eq!(kinds_at(&r), vec![(0x2c, Kind::Waitcnt)]);
    let text = r.render("t");
    assert!(
        text.contains("reads v2") && text.contains("flat_load_dword"),
        "{text}"
    );
}

#[test]
fn a_wait_for_one_more_op_is_too_weak() {
    // Two loads: vmcnt(1) lands only the first (VM_CNT returns in order).
    let src = "
    v_mov_b32 v4, s0
    v_mov_b32 v5, s1
    flat_load_dword v2, v[4:5]
    flat_load_dword v3, v[4:5]
    s_waitcnt vmcnt(1)
    v_mov_b32 v6, v2
    v_mov_b32 v7, v3
    s_endpgm
";
    let (r, _) = run(Gen::Gcn14, src, "waitcnt", 1, 0);
    assert_eq!(kinds_at(&r), vec![(0x20, Kind::Waitcnt)]);
}

#[test]
fn scalar_loads_land_only_at_lgkmcnt_zero() {
    // SMEM returns out of order: lgkmcnt(1) guarantees neither load.
    let src = "
    s_load_dword s4, s[0:1], 0x0
    s_load_dword s5, s[0:1], 0x4
    s_waitcnt lgkmcnt(1)
    s_mov_b32 s6, s4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s7, s5
    s_endpgm
";
    let (r, _) = run(Gen::Gcn14, src, "waitcnt", 1, 0);
    assert_eq!(kinds_at(&r), vec![(0x14, Kind::Waitcnt)]);
}

#[test]
fn uninit_finds_never_written_lanes_and_lds() {
    let src = "
    v_cmp_gt_u32 vcc, 32, v0
    s_and_saveexec_b64 s[2:3], vcc
    v_mov_b32 v1, 1
    s_or_b64 exec, exec, s[2:3]
    v_add_u32 v2, v1, v0
    v_lshlrev_b32 v3, 2, v0
    ds_read_b32 v4, v3
    s_endpgm
";
    let (r, _) = run(Gen::Gcn14, src, "uninit", 1, 0);
    // v1 is written in lanes 0-31 only; LDS is never written.
    assert_eq!(
        kinds_at(&r),
        vec![(0x10, Kind::Uninit), (0x18, Kind::Uninit)]
    );
    assert!(r.render("t").contains("v1 in lane 32"), "{}", r.render("t"));
}

#[test]
fn lds_race_without_barrier_and_none_with_it() {
    // Each work-item writes its slot, then reads the other wave's.
    let src = "
    s_mov_b32 m0, -1
    v_lshlrev_b32 v1, 2, v0
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    BARRIER
    v_xor_b32 v2, 64, v0
    v_lshlrev_b32 v2, 2, v2
    ds_read_b32 v3, v2
    s_waitcnt lgkmcnt(0)
    s_endpgm
";
    let good = src.replace("BARRIER", "s_barrier");
    let (r, _) = run(Gen::Gcn12, &good, "races", 2, 0);
    assert!(r.is_empty(), "{}", r.render("t"));
    // Without the barrier wave 0 runs to its end first: wave 1's write
    // meets wave 0's read, and wave 1's read meets wave 0's write.
    let bad = src.replace("BARRIER", "s_nop 0");
    let (r, _) = run(Gen::Gcn12, &bad, "races", 2, 0);
    assert_eq!(
        kinds_at(&r),
        vec![(0x8, Kind::Race), (0x20, Kind::Race)],
        "{}",
        r.render("t")
    );
}

#[test]
fn hazard_of_a_valu_sgpr_write_then_vmem_read_is_found_at_run_time() {
    // GCN 1.0-1.2: a VALU write of an SGPR then a VMEM read of it needs 5
    // wait states; s_nop 4 gives them.
    let src = "
    v_mov_b32 v4, s0
    v_mov_b32 v5, s1
    v_readfirstlane_b32 s8, v0
    NOPS
    buffer_load_dword v1, off, s[0:3], s8
    s_waitcnt vmcnt(0)
    s_endpgm
";
    let bad = src.replace("NOPS", "");
    let (r, _) = run_with_rsrc(Gen::Gcn12, &bad);
    assert_eq!(
        kinds_at(&r),
        vec![(0x10, Kind::Hazard)],
        "{}",
        r.render("t")
    );
    let good = src.replace("NOPS", "s_nop 4");
    let (r, _) = run_with_rsrc(Gen::Gcn12, &good);
    assert!(r.is_empty(), "{}", r.render("t"));
}

/// `run` with s[0:3] a buffer resource over the scratch buffer.
fn run_with_rsrc(gen: Gen, src: &str) -> (Report, u32) {
    let full = format!(
        "s_mov_b32 s2, -1\ns_mov_b32 s3, 0x27000\n{}",
        src.replace("v_mov_b32 v4, s0\n", "")
            .replace("v_mov_b32 v5, s1\n", "")
    );
    run(gen, &full, "hazards", 1, 0)
}

#[test]
fn global_race_when_lanes_store_to_one_address() {
    let src = "
    v_mov_b32 v4, s0
    v_mov_b32 v5, s1
    SPREAD
    global_store_dword v[4:5], v0, off
    s_endpgm
";
    let bad = src.replace("SPREAD", "");
    let (r, _) = run(Gen::Gcn14, &bad, "races-global", 1, 0);
    assert_eq!(kinds_at(&r), vec![(0x8, Kind::Race)], "{}", r.render("t"));
    // Each work-item its own dword: no race.
    let good = src.replace(
        "SPREAD",
        "v_lshlrev_b32 v6, 2, v0\n v_add_co_u32 v4, vcc, v4, v6\n v_addc_co_u32 v5, vcc, 0, v5, vcc",
    );
    let (r, _) = run(Gen::Gcn14, &good, "races-global", 1, 0);
    assert!(r.is_empty(), "{}", r.render("t"));
}
