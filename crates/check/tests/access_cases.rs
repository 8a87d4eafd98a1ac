//! Hand-checked def/use sets of instructions whose operands are implicit or
//! whose widths depend on fields (facts from the ISA guides).

use risa_check::access::{access, fl, mem, Access, Class, File, Use, EXEC, M0, VCC};
use risa_gcn::{decode, Gen, Instr};

/// Assembles one line of LLVM syntax for `gen` and decodes it.
fn one(gen: Gen, line: &str) -> Instr {
    let opts = risa_asm_core::Options {
        semicolon_comments: true,
        ..Default::default()
    };
    let a = risa_gcn_asm::assemble_with(Some(gen), "t.s", line, opts, false);
    assert!(
        a.output.diagnostics.is_empty(),
        "{line}: {}",
        a.diagnostics()
    );
    decode(gen, &a.code()).unwrap()
}

fn acc(gen: Gen, line: &str) -> Access {
    access(&one(gen, line))
}

fn vregs(regs: &[risa_check::access::Reg]) -> Vec<(u16, u8)> {
    regs.iter()
        .filter(|r| r.file == File::Vector)
        .map(|r| (r.first, r.count))
        .collect()
}

#[test]
fn readlane_lane_select_is_tagged() {
    let a = acc(Gen::Gcn12, "v_readlane_b32 s5, v3, s7");
    assert!(a.writes_sreg(5) && !a.writes.any_of(File::Vector));
    let ls = a.reads.as_slice().iter().find(|r| r.how == Use::LaneSel);
    assert_eq!(ls.map(|r| (r.first, r.count)), Some((7, 1)));
    let a = acc(Gen::Gcn14, "v_writelane_b32 v1, s2, vcc_lo");
    let ls = a.reads.as_slice().iter().find(|r| r.how == Use::LaneSel);
    assert_eq!(ls.map(|r| r.first), Some(VCC));
}

#[test]
fn sixty_four_bit_pairs_and_carries() {
    let a = acc(Gen::Gcn12, "v_add_f64 v[0:1], s[4:5], v[2:3]");
    assert_eq!(vregs(a.writes.as_slice()), [(0, 2)]);
    assert!(a.reads_sreg(4) && a.reads_sreg(5) && !a.reads_sreg(6));
    let a = acc(Gen::Gcn12, "v_addc_u32_e32 v1, vcc, v2, v3, vcc");
    assert!(a.writes_sreg(VCC) && a.writes_sreg(VCC + 1));
    assert!(a
        .reads
        .as_slice()
        .iter()
        .any(|r| r.how == Use::Carry && r.first == VCC));
    let a = acc(Gen::Gcn14, "v_div_scale_f32 v0, s[8:9], v1, v2, v1");
    assert!(a.writes_sreg(8) && a.writes_sreg(9) && !a.writes_sreg(VCC));
    // v_div_fmas reads VCC without naming it.
    let a = acc(Gen::Gcn10, "v_div_fmas_f32 v0, v1, v2, v3");
    assert!(a.reads_sreg(VCC) && a.reads_sreg(VCC + 1));
}

#[test]
fn compares_write_vcc_or_sdst_and_cmpx_exec() {
    let a = acc(Gen::Gcn11, "v_cmp_lt_f32_e32 vcc, v0, v1");
    assert!(a.writes_sreg(VCC) && !a.writes_sreg(EXEC));
    let a = acc(Gen::Gcn12, "v_cmp_lt_f32_e64 s[2:3], v0, v1");
    assert!(a.writes_sreg(2) && a.writes_sreg(3) && !a.writes_sreg(VCC));
    let a = acc(Gen::Gcn12, "v_cmpx_gt_u32_e32 vcc, 0, v1");
    assert!(a.writes_sreg(EXEC) && a.writes_sreg(VCC));
}

#[test]
fn scalar_implicit_state() {
    let a = acc(Gen::Gcn12, "s_and_saveexec_b64 s[0:1], vcc");
    assert!(a.writes_sreg(0) && a.writes_sreg(EXEC) && a.reads_sreg(EXEC) && a.reads_sreg(VCC));
    assert!(a.has(fl::SCC_W));
    let a = acc(Gen::Gcn12, "s_addc_u32 s0, s1, 5");
    assert!(a.has(fl::SCC_R) && a.has(fl::SCC_W));
    let a = acc(Gen::Gcn12, "s_cselect_b32 s0, s1, s2");
    assert!(a.has(fl::SCC_R) && !a.has(fl::SCC_W));
    let a = acc(Gen::Gcn12, "s_mov_b32 m0, -1");
    assert!(a.writes_sreg(M0) && !a.has(fl::SCC_W) && a.is_salu());
    let a = acc(Gen::Gcn12, "s_cmpk_eq_u32 s3, 0x10");
    assert!(a.reads_sreg(3) && !a.writes_sreg(3) && a.has(fl::SCC_W));
    let a = acc(Gen::Gcn12, "s_cbranch_vccz 4");
    assert!(a.has(fl::VCCZ_R) && a.has(fl::BRANCH) && a.reads_sreg(VCC));
    let a = acc(Gen::Gcn12, "s_movrels_b32 s0, s8");
    assert!(a.reads_sreg(M0) && a.has(fl::INDEXED));
    let a = acc(Gen::Gcn12, "s_sendmsg sendmsg(MSG_INTERRUPT)");
    assert!(a.reads_sreg(M0) && a.touches(mem::MSG));
}

#[test]
fn hardware_registers() {
    let a = acc(Gen::Gcn12, "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3");
    assert!(a.has(fl::HWREG_W) && a.reads_sreg(3) && !a.writes_sreg(3));
    let h = a.hwreg.unwrap();
    assert_eq!((h.id, h.offset, h.size), (1, 0, 4));
    let a = acc(Gen::Gcn14, "s_getreg_b32 s2, hwreg(HW_REG_TRAPSTS, 2, 3)");
    assert!(a.has(fl::HWREG_R) && a.writes_sreg(2));
    let h = a.hwreg.unwrap();
    assert_eq!((h.id, h.offset, h.size), (3, 2, 3));
    let a = acc(
        Gen::Gcn12,
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf",
    );
    assert!(a.has(fl::HWREG_W) && a.reads.as_slice().is_empty());
}

#[test]
fn scalar_memory() {
    let a = acc(Gen::Gcn12, "s_load_dwordx8 s[8:15], s[2:3], 0x10");
    assert!(a.class == Class::Smem && a.touches(mem::SMEM_R | mem::RETURNS));
    assert!((8..16).all(|r| a.writes_sreg(r)) && !a.writes_sreg(16));
    assert!(a.reads_sreg(2) && a.reads_sreg(3));
    let a = acc(Gen::Gcn10, "s_buffer_load_dword s0, s[4:7], s9");
    assert!((4..8).all(|r| a.reads_sreg(r)) && a.reads_sreg(9));
    let a = acc(Gen::Gcn12, "s_store_dword s1, s[2:3], 0x0");
    assert!(a.reads_sreg(1) && !a.writes_sreg(1) && a.touches(mem::SMEM_W));
}

#[test]
fn vector_memory_widths() {
    // MUBUF: two address VGPRs with offen+idxen, the resource quad, soffset.
    let a = acc(
        Gen::Gcn12,
        "buffer_load_dwordx3 v[4:6], v[0:1], s[8:11], s2 idxen offen",
    );
    assert_eq!(vregs(a.writes.as_slice()), [(4, 3)]);
    assert!(vregs(a.reads.as_slice()).contains(&(0, 2)));
    assert!((8..12).all(|r| a.reads_sreg(r)) && a.reads_sreg(2));
    // TFE adds a status dword to what a load writes.
    let a = acc(Gen::Gcn12, "buffer_load_dword v4, off, s[8:11], 0 tfe");
    assert_eq!(vregs(a.writes.as_slice()), [(4, 2)]);
    // Atomics return only with GLC; cmpswap returns half its data.
    let a = acc(
        Gen::Gcn12,
        "buffer_atomic_cmpswap v[2:3], off, s[8:11], 0 glc",
    );
    assert_eq!(vregs(a.writes.as_slice()), [(2, 1)]);
    let a = acc(Gen::Gcn12, "buffer_atomic_add v2, off, s[8:11], 0");
    assert!(a.writes.as_slice().is_empty() && a.touches(mem::VMEM_W));
    // MIMG: DMASK bits give the data registers; d16 packs two halves per
    // register on GCN 1.4 only; TFE adds one.
    let a = acc(
        Gen::Gcn14,
        "image_load v[0:2], v[4:7], s[8:15] dmask:0xb unorm",
    );
    assert_eq!(vregs(a.writes.as_slice()), [(0, 3)]);
    let a = acc(
        Gen::Gcn14,
        "image_load v[0:1], v[4:7], s[8:15] dmask:0x7 unorm d16",
    );
    assert_eq!(vregs(a.writes.as_slice()), [(0, 2)]);
    let a = acc(
        Gen::Gcn12,
        "image_load v[0:2], v[4:7], s[8:15] dmask:0x3 unorm tfe",
    );
    assert_eq!(vregs(a.writes.as_slice()), [(0, 3)]);
    let a = acc(
        Gen::Gcn12,
        "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf",
    );
    assert!((16..20).all(|r| a.reads_sreg(r)) && (8..16).all(|r| a.reads_sreg(r)));
    // FLAT counts on both paths; GLOBAL with SADDR reads one VGPR and the pair.
    let a = acc(Gen::Gcn11, "flat_load_dwordx2 v[0:1], v[2:3]");
    assert!(a.touches(mem::FLAT_ANY) && a.class == Class::Flat);
    let a = acc(Gen::Gcn14, "global_store_dword v1, v2, s[4:5] offset:16");
    assert_eq!(vregs(a.reads.as_slice()), [(1, 1), (2, 1)]);
    assert!(a.reads_sreg(4) && a.reads_sreg(5) && a.writes.as_slice().is_empty());
    let a = acc(Gen::Gcn14, "global_load_short_d16_hi v1, v[2:3], off");
    assert_eq!(vregs(a.writes.as_slice()), [(1, 1)]);
}

#[test]
fn lds_and_m0() {
    // Before GCN 1.4 every DS instruction reads M0 (the LDS limit).
    let a = acc(Gen::Gcn12, "ds_read_b64 v[0:1], v2 offset:8");
    assert!(a.reads_sreg(M0) && a.touches(mem::LDS_R) && !a.touches(mem::LDS_W));
    assert_eq!(vregs(a.writes.as_slice()), [(0, 2)]);
    let a = acc(Gen::Gcn14, "ds_write2_b32 v0, v1, v2 offset1:4");
    assert!(!a.reads_sreg(M0) && a.touches(mem::LDS_W));
    let a = acc(Gen::Gcn14, "ds_add_u32 v0, v1 gds");
    assert!(a.reads_sreg(M0) && a.touches(mem::GDS_W) && !a.touches(mem::LDS_W));
    let a = acc(Gen::Gcn14, "ds_bpermute_b32 v0, v1, v2");
    assert!(!a.touches(mem::LDS_R | mem::LDS_W));
    let a = acc(Gen::Gcn14, "v_interp_p1_f32 v0, v1, attr0.x");
    assert!(a.reads_sreg(M0) && a.is_valu());
    let a = acc(Gen::Gcn14, "v_mov_b32 v0, src_lds_direct");
    assert!(a.reads_sreg(M0) && a.has(fl::LDS_DIRECT));
    let a = acc(Gen::Gcn12, "v_movrels_b32 v0, v4");
    assert!(a.reads_sreg(M0) && a.has(fl::INDEXED));
}

#[test]
fn dpp_and_exports() {
    let a = acc(
        Gen::Gcn12,
        "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    );
    assert!(a.has(fl::DPP) && a.reads.has(File::Vector, 1));
    // exp mrt0 v0, v1, off, off done vm (llvm-mc's encoding; risa's
    // assembler wants a comma after the target in this form).
    let a = access(&decode(Gen::Gcn12, &[0xc400_1803, 0x0000_0100]).unwrap());
    assert_eq!(vregs(a.reads.as_slice()), [(0, 1), (1, 1)]);
    assert!(a.touches(mem::EXPORT) && a.class == Class::Exp);
}
