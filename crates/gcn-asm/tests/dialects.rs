//! Texts that mean different bytes in CLRX and LLVM syntax are assembled as
//! the chosen dialect says (docs/gcn-asm.md, "Dialects"). Expected words:
//! CLRX's from `clrxasm -b rawcode -g DEVICE` (CLRX 0.1.9), LLVM's from
//! `llvm-mc -arch=amdgcn -mcpu=CPU -show-encoding`.

use risa_gcn::{Dialect, Gen};
use risa_gcn_asm::assemble_in;

fn words(gen: Gen, dialect: Dialect, src: &str) -> Vec<u32> {
    let a = assemble_in(
        Some(risa_gcn::Processor::of_gen(gen)),
        "d.s",
        src,
        Default::default(),
        false,
        dialect,
    );
    assert!(!a.output.has_errors(), "{src}\n{}", a.diagnostics());
    a.code()
}

fn error(gen: Gen, dialect: Dialect, src: &str) -> String {
    let a = assemble_in(
        Some(risa_gcn::Processor::of_gen(gen)),
        "d.s",
        src,
        Default::default(),
        false,
        dialect,
    );
    assert!(a.output.has_errors(), "{src}: no error");
    a.diagnostics()
}

/// (generation, text, CLRX words, LLVM words or `None` when llvm-mc
/// rejects the text).
type Case = (Gen, &'static str, &'static [u32], Option<&'static [u32]>);

const CASES: &[Case] = &[
    // MIMG: DMASK 1 in CLRX (clrxasm -g Tonga: f0000100 00010102), 0 in LLVM.
    (
        Gen::Gcn12,
        "image_load v1, v[2:5], s[4:11]",
        &[0xf000_0100, 0x0001_0102],
        Some(&[0xf000_0000, 0x0001_0102]),
    ),
    // SDWA DST_UNUSED: pad in CLRX (clrxasm -g GFX900: 020204f9 060e0603
    // for sext:1), preserve in LLVM.
    (
        Gen::Gcn14,
        "v_add_f32 v1, v3, v2 dst_sel:dword src0_sel:dword src1_sel:dword",
        &[0x0202_04f9, 0x0606_0603],
        None,
    ),
    // v_mad_mix op_sel_hi: [1,1,1] in CLRX (d3a04001 1c120702), 0 in LLVM
    // (llvm-mc -mcpu=gfx900: 01 00 a0 d3 02 07 12 04).
    (
        Gen::Gcn14,
        "v_mad_mix_f32 v1, v2, v3, v4",
        &[0xd3a0_4001, 0x1c12_0702],
        Some(&[0xd3a0_0001, 0x0412_0702]),
    ),
    // Buffer TFE: CLRX counts the status register in VDATA
    // (clrxasm -g Tonga: e0501000 01810102).
    (
        Gen::Gcn12,
        "buffer_load_dword v[1:2], v2, s[4:7], s1 offen tfe",
        &[0xe050_1000, 0x0181_0102],
        None,
    ),
    // MTBUF: a number names a format in CLRX (32 = DFMT 4; e8201000),
    // float = NFMT 7; `@` gives field values.
    (
        Gen::Gcn12,
        "tbuffer_load_format_x v1, v2, s[4:7], s1 offen format:[32, float]",
        &[0xeba0_1000, 0x0101_0102],
        None,
    ),
    (
        Gen::Gcn12,
        "tbuffer_load_format_x v1, v2, s[4:7], s1 offen format:[@4,@7]",
        &[0xeba0_1000, 0x0101_0102],
        None,
    ),
    // exp compr: operands 2/3 name VSRC1 in CLRX (c4000405 00000201).
    (
        Gen::Gcn12,
        "exp mrt0, v1, off, v2, off compr",
        &[0xc400_0405, 0x0000_0201],
        None,
    ),
    // A returning FLAT atomic without glc: clrxasm encodes it (dd080000
    // 01000402); llvm-mc: "instruction must use glc".
    (
        Gen::Gcn12,
        "flat_atomic_add v1, v[2:3], v4",
        &[0xdd08_0000, 0x0100_0402],
        None,
    ),
    // lit() on a GCN 1.1 SMRD offset: the literal form (clrxasm -g Hawaii).
    (
        Gen::Gcn11,
        "s_load_dwordx2 s[24:25], s[90:91], lit(-1)",
        &[0xc04c_5aff, 0xffff_ffff],
        None,
    ),
    // DPP without a control: quad_perm:[0,1,2,3] in CLRX (7e7442fa f300e4c4).
    (
        Gen::Gcn12,
        "v_log_f32 v58, v196 bank_mask:3",
        &[0x7e74_42fa, 0xf300_e4c4],
        None,
    ),
];

#[test]
fn each_dialect_has_its_meaning() {
    for &(gen, src, clrx, llvm) in CASES {
        assert_eq!(words(gen, Dialect::Clrx, src), clrx, "CLRX: {src}");
        if let Some(l) = llvm {
            assert_eq!(words(gen, Dialect::Llvm, src), l, "LLVM: {src}");
        }
    }
}

#[test]
fn forward_references_in_offset_fields() {
    // clrxasm -g GFX900: d8000003 00000201, e0501003 01010102, c0020041
    // 00000003, bf110300 (the gpr_idx mode is SSRC1, not the low bits).
    for (src, want) in [
        (
            "ds_add_u32 v1, v2 offset:fw; fw=3",
            &[0xd800_0003u32, 0x0000_0201][..],
        ),
        (
            "buffer_load_dword v1, v2, s[4:7], s1 offen offset:fw; fw=3",
            &[0xe050_1003, 0x0101_0102],
        ),
        (
            "s_load_dword s1, s[2:3], fw; fw=3",
            &[0xc002_0041, 0x0000_0003],
        ),
        ("s_set_gpr_idx_on s0, fw; fw=3", &[0xbf11_0300]),
    ] {
        assert_eq!(words(Gen::Gcn14, Dialect::Clrx, src), want, "{src}");
        assert_eq!(words(Gen::Gcn14, Dialect::Llvm, src), want, "{src}");
    }
}

#[test]
fn clrx_spellings() {
    // Each pair means the same words (CLRX spelling, canonical spelling).
    for (gen, clrx, other) in [
        (
            Gen::Gcn12,
            "v_cmp_lg_i32 vcc, v1, v2",
            "v_cmp_ne_i32 vcc, v1, v2",
        ),
        (
            Gen::Gcn12,
            "v_cmp_tru_u32 vcc, v1, v2",
            "v_cmp_t_u32 vcc, v1, v2",
        ),
        (
            Gen::Gcn12,
            "v_cmpx_t_f32 vcc, v1, v2",
            "v_cmpx_tru_f32 vcc, v1, v2",
        ),
        (
            Gen::Gcn12,
            "s_cmp_ne_u64 s[0:1], s[2:3]",
            "s_cmp_lg_u64 s[0:1], s[2:3]",
        ),
        (
            Gen::Gcn12,
            "v_add_f32 v1, v2, v3 vop3:1",
            "v_add_f32 v1, v2, v3 vop3",
        ),
        (
            Gen::Gcn12,
            "v_add_f32 v1, v2, v3 vop3:0",
            "v_add_f32 v1, v2, v3",
        ),
        (
            Gen::Gcn12,
            "buffer_load_dword v1, v2, s[4:7], s1 offen glc:1 slc:0",
            "buffer_load_dword v1, v2, s[4:7], s1 offen glc",
        ),
        (
            Gen::Gcn12,
            "v_add_f32 v1, v2, v3 neg:[0,1]",
            "v_add_f32 v1, v2, -v3",
        ),
        (
            Gen::Gcn12,
            "v_add_f32 v1, v2, v3 abs:3",
            "v_add_f32 v1, |v2|, |v3|",
        ),
        (
            Gen::Gcn12,
            "v_add_f32 v1, v2, v3 omod:2",
            "v_add_f32 v1, v2, v3 mul:4",
        ),
        (
            Gen::Gcn14,
            "v_add_f16 v1, v2, v3 op_sel:4",
            "v_add_f16 v1, v2, v3 op_sel:[0,0,1]",
        ),
        (Gen::Gcn12, "s_waitcnt vmcnt  (14)", "s_waitcnt vmcnt(14)"),
        (
            Gen::Gcn12,
            "ds_add_u32 v1, v2 offset :16",
            "ds_add_u32 v1, v2 offset:16",
        ),
        (
            Gen::Gcn12,
            "v_interp_p1_f32 v1, v2, attr26 . w",
            "v_interp_p1_f32 v1, v2, attr26.w",
        ),
        (
            Gen::Gcn12,
            "s_getreg_b32 s1, hwreg(HWREG_MODE, 0, 32)",
            "s_getreg_b32 s1, hwreg(mode, 0, 32)",
        ),
        (
            Gen::Gcn12,
            "s_getreg_b32 s1, hwreg(pc_lo, 0, 32)",
            "s_getreg_b32 s1, hwreg(@8, 0, 32)",
        ),
        (
            Gen::Gcn12,
            "s_sendmsg sendmsg(system)",
            "s_sendmsg sendmsg(sysmsg)",
        ),
        (
            Gen::Gcn12,
            "s_and_b64 vcc[0:1], s[2:3], 4",
            "s_and_b64 vcc, s[2:3], 4",
        ),
        (
            Gen::Gcn12,
            "x=%s[20:23]; s_mov_b32 x[1], 5",
            "s_mov_b32 s21, 5",
        ),
        (
            Gen::Gcn14,
            "global_load_dword v1, v[2:3], off inst_offset:8",
            "global_load_dword v1, v[2:3], off offset:8",
        ),
        (
            Gen::Gcn12,
            "v_mov_b32 v1, v2 wave_shl",
            "v_mov_b32 v1, v2 wave_shl:1",
        ),
        (
            Gen::Gcn12,
            "v_mov_b32 v1, v2 row_bcast15",
            "v_mov_b32 v1, v2 row_bcast:15",
        ),
    ] {
        assert_eq!(
            words(gen, Dialect::Clrx, clrx),
            words(gen, Dialect::Clrx, other),
            "{clrx} / {other}"
        );
    }
}

#[test]
fn clrx_rejects_what_clrxasm_rejects() {
    for (gen, src, msg) in [
        // clrxasm: "Jump over current section!" (a number is an address).
        (Gen::Gcn12, "s_branch 0x10", "branch target"),
        // clrxasm: "Expected operator".
        (Gen::Gcn12, "s_movk_i32 s1, lit(4)", "lit()"),
        // clrxasm: "Unaligned scalar register range".
        (Gen::Gcn12, "s_load_dwordx4 s[2:5], s[2:3], 0", "misaligned"),
        // clrxasm: "Scalar register range cross two register lines".
        (
            Gen::Gcn12,
            "v_add_f64 v[0:1], s[3:4], v[2:3]",
            "group of four",
        ),
        // clrxasm: "More than one SGPR to read in instruction".
        (
            Gen::Gcn10,
            "v_writelane_b32 v1, s2, s3",
            "more than one SGPR",
        ),
    ] {
        let d = error(gen, Dialect::Clrx, src);
        assert!(d.contains(msg) && d.starts_with("d.s:1:"), "{src}: {d}");
    }
}

#[test]
fn export_target_comma() {
    // llvm-mc prints no comma after the target and takes either form
    // (-mcpu=gfx900: c4001803 00000100); clrxasm requires the comma
    // ("Expected ',' before argument") and gives the same words with it.
    let words_of = [0xc400_1803, 0x0000_0100];
    for src in [
        "exp mrt0 v0, v1, off, off done vm",
        "exp mrt0, v0, v1, off, off done vm",
    ] {
        assert_eq!(words(Gen::Gcn14, Dialect::Llvm, src), words_of, "{src}");
    }
    let clrx = "exp mrt0, v0, v1, off, off done vm";
    assert_eq!(words(Gen::Gcn14, Dialect::Clrx, clrx), words_of);
    let d = error(
        Gen::Gcn14,
        Dialect::Clrx,
        "exp mrt0 v0, v1, off, off done vm",
    );
    assert!(d.contains("expected ','"), "{d}");
}
