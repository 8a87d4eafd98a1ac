//! The static analyses on small hand-written programs: what each counter's
//! order allows, joins of paths and loops, the memory-model waits, and
//! functions (facts: the GCN ISA guides' S_WAITCNT and data-dependency
//! sections, LLVM's SIInsertWaitcnts).

use risa_check::cfg::Entry;
use risa_check::lint::{check_code, Options};
use risa_check::Kind;
use risa_gcn::Gen;

/// (PC, kind, message) of the findings on `src` (LLVM syntax) for `gen`.
fn findings(gen: Gen, src: &str, function: bool) -> Vec<(u64, Kind, String)> {
    let opts = risa_asm_core::Options {
        semicolon_comments: true,
        ..Default::default()
    };
    let a = risa_gcn_asm::assemble_with(Some(gen), "t.s", src, opts, false);
    assert!(a.output.diagnostics.is_empty(), "{}", a.diagnostics());
    let code: Vec<u8> = a.code().iter().flat_map(|w| w.to_le_bytes()).collect();
    let entry = Entry { pc: 0, function };
    let r = check_code(gen.into(), &code, &[entry], &Options::default());
    r.findings()
        .map(|(f, _)| (f.pc, f.kind, f.message.clone()))
        .collect()
}

fn pcs(gen: Gen, src: &str) -> Vec<(u64, Kind)> {
    findings(gen, src, false)
        .into_iter()
        .map(|(pc, k, _)| (pc, k))
        .collect()
}

const W: Kind = Kind::Waitcnt;

#[test]
fn scalar_loads_return_out_of_order() {
    // lgkmcnt(1) after two SMEM loads says nothing about the first one.
    let src = "s_load_dword s0, s[4:5], 0x0\ns_load_dword s1, s[4:5], 0x4\n\
               s_waitcnt lgkmcnt(1)\ns_add_u32 s2, s0, 1\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn12, src), [(0x14, W)]);
    let src = src.replace("lgkmcnt(1)", "lgkmcnt(0)");
    assert!(pcs(Gen::Gcn12, &src).is_empty());
}

#[test]
fn vector_loads_return_in_order() {
    // vmcnt(1): the older of two loads has returned, the younger may not.
    let src =
        "buffer_load_dword v0, off, s[8:11], 0\nbuffer_load_dword v1, off, s[8:11], 0 offset:4\n\
               s_waitcnt vmcnt(1)\nv_mov_b32 v2, v0\nv_mov_b32 v3, v1\ns_endpgm\n";
    let f = findings(Gen::Gcn10, src, false);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0, f[0].1), (0x18, W));
    assert!(
        f[0].2
            .contains("v1 read while the buffer_load_dword at 0x8 may be outstanding (needs s_waitcnt vmcnt(0) before it)"),
        "{}",
        f[0].2
    );
}

#[test]
fn lds_alone_is_in_order_but_mixed_with_smem_is_not() {
    let lds = "ds_read_b32 v0, v2\nds_read_b32 v1, v2 offset:4\ns_waitcnt lgkmcnt(1)\n\
               v_mov_b32 v3, v0\ns_endpgm\n";
    assert!(pcs(Gen::Gcn14, lds).is_empty());
    let mixed = "s_load_dword s0, s[4:5], 0x0\nds_read_b32 v0, v2\nds_read_b32 v1, v2 offset:4\n\
                 s_waitcnt lgkmcnt(1)\nv_mov_b32 v3, v0\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn14, mixed), [(0x1c, W)]);
}

#[test]
fn a_wait_on_one_path_only_is_not_enough() {
    let src = "buffer_load_dword v0, off, s[8:11], 0\ns_cbranch_scc0 1\n\
               s_waitcnt vmcnt(0)\nv_mov_b32 v1, v0\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn11, src), [(0x10, W)]);
}

#[test]
fn loops_carry_outstanding_loads_around() {
    // The load at the bottom of the loop is read at its top.
    let src = "s_mov_b32 s0, 4\nbuffer_load_dword v0, off, s[8:11], 0\ns_waitcnt vmcnt(0)\n\
               BB: v_add_f32 v1, v0, v1\nbuffer_load_dword v0, off, s[8:11], 0\n\
               s_sub_u32 s0, s0, 1\ns_cbranch_scc1 BB\ns_endpgm\n";
    let f = pcs(Gen::Gcn12, &src.replace("BB: ", "BB:\n"));
    assert_eq!(f, [(0x10, W)]);
}

#[test]
fn overwriting_a_register_a_load_will_write() {
    let src = "buffer_load_dword v0, off, s[8:11], 0\nv_mov_b32 v0, 1\ns_endpgm\n";
    let f = findings(Gen::Gcn12, src, false);
    assert_eq!((f[0].0, f[0].1), (8, W));
    assert!(f[0].2.starts_with("v0 written"), "{}", f[0].2);
    // Two loads into one register return in order: no wait needed.
    let src =
        "buffer_load_dword v0, off, s[8:11], 0\nbuffer_load_dword v0, off, s[8:11], 0 offset:4\n\
               s_waitcnt vmcnt(0)\nv_mov_b32 v1, v0\ns_endpgm\n";
    assert!(pcs(Gen::Gcn12, src).is_empty());
}

#[test]
fn export_and_gcn10_store_data_is_held_on_expcnt() {
    let exp = "exp mrt0, v0, v1, off, off done\nv_mov_b32 v0, 0\ns_endpgm\n";
    for gen in [Gen::Gcn10, Gen::Gcn14] {
        assert_eq!(pcs(gen, exp), [(8, W)], "{gen}");
    }
    let store = "buffer_store_dword v0, off, s[8:11], 0\nv_mov_b32 v0, 0\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn10, store), [(8, W)]);
    assert!(pcs(Gen::Gcn11, store).is_empty());
    let waited =
        "buffer_store_dword v0, off, s[8:11], 0\ns_waitcnt expcnt(0)\nv_mov_b32 v0, 0\ns_endpgm\n";
    assert!(pcs(Gen::Gcn10, waited).is_empty());
}

#[test]
fn barriers_returns_and_acquires() {
    let lds = "ds_write_b32 v0, v1\ns_barrier\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn14, lds), [(8, W)]);
    let ok = "ds_write_b32 v0, v1\ns_waitcnt lgkmcnt(0)\ns_barrier\ns_endpgm\n";
    assert!(pcs(Gen::Gcn14, ok).is_empty());
    let acquire = "buffer_atomic_add v1, off, s[8:11], 0 glc\nbuffer_wbinvl1_vol\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn12, acquire), [(8, W)]);
}

#[test]
fn called_functions_wait_for_their_caller() {
    let f = findings(Gen::Gcn14, "v_mov_b32 v0, v1\ns_setpc_b64 s[30:31]\n", true);
    assert_eq!((f[0].0, f[0].1), (0, W));
    assert!(
        f[0].2.contains("a memory operation of the caller"),
        "{}",
        f[0].2
    );
    let ok = "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\nv_mov_b32 v0, v1\ns_setpc_b64 s[30:31]\n";
    assert!(findings(Gen::Gcn14, ok, true).is_empty());
    // ...and wait for their own before they return.
    let ret = "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\nglobal_load_dword v0, v[2:3], off\n\
               s_setpc_b64 s[30:31]\n";
    assert_eq!(pcs(Gen::Gcn14, ret), [(0xc, W)]);
}

#[test]
fn hazards_count_the_worst_path() {
    // Taken, the branch leaves one wait state between the two; v_readlane
    // needs four after a VALU write of its lane select.
    let src = "v_readfirstlane_b32 s4, v0\ns_cbranch_scc0 1\ns_nop 3\n\
               v_readlane_b32 s5, v1, s4\ns_endpgm\n";
    assert_eq!(pcs(Gen::Gcn12, src), [(0xc, Kind::Hazard)]);
    let src = "v_readfirstlane_b32 s4, v0\ns_nop 2\ns_cbranch_scc0 1\ns_nop 3\n\
               v_readlane_b32 s5, v1, s4\ns_endpgm\n";
    assert!(pcs(Gen::Gcn12, src).is_empty());
}
