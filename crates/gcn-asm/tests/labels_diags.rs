//! Branch labels (forward and backward, via fixups), special operand syntax,
//! and diagnostics. Expected words come from `llvm-mc -arch=amdgcn
//! -mcpu=gfx900 -filetype=obj` + `llvm-objdump -d` on the same source.

use risa_gcn::Gen;
use risa_gcn_asm::assemble;

const BRANCHES: &str = "start:
s_nop 0
s_branch start
s_cbranch_scc0 end
v_add_f32 v0, 0x12345678, v1
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt expcnt(3)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 2, 5)
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)
end:
s_endpgm
";

/// BRANCHES is LLVM syntax (`HW_REG_MODE` is no CLRX name).
fn assemble_llvm(name: &str, src: &str) -> risa_gcn_asm::Assembled {
    risa_gcn_asm::assemble_in(
        Some(risa_gcn::Processor::of_gen(Gen::Gcn14)),
        name,
        src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    )
}

#[test]
fn labels_and_special_operands_match_llvm_mc() {
    let a = assemble_llvm("br.s", BRANCHES);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    assert_eq!(
        a.code(),
        [
            0xBF800000, 0xBF82FFFE, 0xBF840006, 0x020002FF, 0x12345678, 0xBF8C0070, 0xBF8CCF3F,
            0xB8802081, 0xBF900122, 0xBF810000
        ]
    );
}

#[test]
fn clrx_spellings_of_the_same_program() {
    // CLRX: `&` between counters, lower-case hwreg/sendmsg names, local labels.
    let src = "1: s_nop 0
s_branch 1b
s_cbranch_scc0 2f
v_add_f32 v0, 0x12345678, v1
s_waitcnt vmcnt(0) & lgkmcnt(0)
s_waitcnt expcnt(3)
s_getreg_b32 s0, hwreg(mode, 2, 5)
s_sendmsg sendmsg(gs, emit, 1)
2: s_endpgm
";
    let a = assemble(Some(Gen::Gcn14), "br.s", src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    assert_eq!(a.code(), assemble_llvm("b.s", BRANCHES).code());
}

#[test]
fn branch_out_of_range_is_an_error_with_position() {
    let src = "s_branch far\n.skip 0x40000\nfar: s_endpgm\n";
    let a = assemble(Some(Gen::Gcn12), "r.s", src);
    let d = a.diagnostics();
    assert!(
        d.contains("r.s:1:10: error: branch target out of range"),
        "{d}"
    );
}

#[test]
fn other_generation_mnemonics_and_registers_name_the_generations() {
    let src = "v_add_u16 v0, v1, v2\ns_mov_b32 s0, flat_scratch_lo\nv_pk_add_f16 v0, v1, v2\n";
    let a = assemble(Some(Gen::Gcn10), "g.s", src);
    let d = a.diagnostics();
    assert!(
        d.contains("g.s:1:1: error: instruction 'v_add_u16' exists only on gcn1.2, gcn1.4"),
        "{d}"
    );
    assert!(
        d.contains(
            "g.s:2:15: error: register 'flat_scratch_lo' exists only on gcn1.1, gcn1.2, gcn1.4"
        ),
        "{d}"
    );
    assert!(
        d.contains("g.s:3:1: error: instruction 'v_pk_add_f16' exists only on gcn1.4"),
        "{d}"
    );
    // All errors of the file are reported, with the line and a caret.
    assert_eq!(a.output.errors().count(), 3);
    assert!(
        d.contains("s_mov_b32 s0, flat_scratch_lo\n              ^"),
        "{d}"
    );
}

#[test]
fn truncated_values_warn_and_still_assemble() {
    let a = assemble(Some(Gen::Gcn12), "t.s", "s_movk_i32 s0, 0x12345\n");
    assert!(!a.output.has_errors());
    let w: Vec<_> = a.output.warnings().collect();
    assert_eq!(w.len(), 1, "{}", a.diagnostics());
    assert!(
        w[0].message.contains("truncated to 16 bits"),
        "{}",
        w[0].message
    );
    assert_eq!(a.code(), [0xb0002345]);
}

#[test]
fn operand_errors_point_at_the_operand() {
    let cases = [
        ("v_add_f32 v0, v1, v2, v3", "unexpected extra operand 'v3'"),
        ("s_mov_b32 s0, v1", "vector registers are not allowed"),
        ("s_load_dwordx2 s[0:1], s[1:2], 0", "aligned register pair"),
        (
            "v_add_f32_e64 v0, 0x12345, v1",
            "literal constant is not allowed",
        ),
        ("v_mov_b32 v0, v1 glc", "modifier 'glc' is not valid"),
        ("ds_read_b32 v0, v1 offset:70000", "does not fit"),
        ("s_add_u32 s0, s1, v256", "VGPR number out of range"),
        ("v_mov_b32 v[0:1], v2", "expected 1 register, got 2"),
        ("bogus_op v0", "unknown instruction"),
        ("s_add_u32 s0, s1, 1.5, 0x10", "unexpected extra operand"),
    ];
    for (src, msg) in cases {
        let a = risa_gcn_asm::assemble_in(
            Some(risa_gcn::Processor::of_gen(Gen::Gcn12)),
            "e.s",
            src,
            Default::default(),
            false,
            risa_gcn::Dialect::Llvm,
        );
        let d = a.diagnostics();
        assert!(a.output.has_errors(), "{src}: no error");
        assert!(d.contains(msg), "{src}: want {msg:?} in\n{d}");
        assert!(d.starts_with("e.s:1:"), "{d}");
    }
    // CLRX syntax truncates an offset that does not fit, with a warning, as
    // clrxasm does (d86c1170 00000001, "Value 0x11170 truncated to 0x1170").
    let a = assemble(Some(Gen::Gcn12), "e.s", "ds_read_b32 v0, v1 offset:70000");
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    assert_eq!(a.code(), [0xd86c_1170, 0x0000_0001]);
    assert!(a.diagnostics().contains("e.s:1:") && a.diagnostics().contains("truncated"));
}

#[test]
fn inline_constants_and_literals_as_the_hardware_wants() {
    let g = Some(Gen::Gcn12);
    // 64 and -16 are inline; 65 and -17 need a literal; 0x3f800000 is 1.0 inline.
    let cases: [(&str, &[u32]); 6] = [
        ("v_mov_b32 v0, 64", &[0x7e0002c0]),
        ("v_mov_b32 v0, 65", &[0x7e0002ff, 65]),
        ("v_mov_b32 v0, -16", &[0x7e0002d0]),
        ("v_mov_b32 v0, -17", &[0x7e0002ff, 0xffffffef]),
        ("v_mov_b32 v0, 0x3f800000", &[0x7e0002f2]),
        ("v_mov_b32 v0, 1.5", &[0x7e0002ff, 0x3fc00000]),
    ];
    for (src, want) in cases {
        let a = assemble(g, "c.s", src);
        assert!(!a.output.has_errors(), "{}", a.diagnostics());
        assert_eq!(a.code(), want, "{src}");
    }
}

#[test]
fn constant_bus_is_checked_like_llvm_mc() {
    // llvm-mc -mcpu=tahiti: lines 1, 3, 4 and 5 violate the constant bus
    // restriction; the same SGPR read twice (lines 2 and 6) is one read.
    // risa warns (the words are encodable and a disassembly of such code
    // must assemble back) where llvm-mc has an error.
    let src = "v_add_f32_e64 v0, s1, s2
v_add_f32_e64 v0, s1, s1
v_cndmask_b32 v0, s1, v2, vcc
v_cndmask_b32_e64 v0, s1, v2, s[2:3]
v_madmk_f32 v0, s1, 0x40000000, v2
v_fma_f32 v0, s1, v1, s1
";
    let a = risa_gcn_asm::assemble_in(
        Some(risa_gcn::Processor::of_gen(Gen::Gcn10)),
        "cb.s",
        src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    let lines: Vec<u32> = a.output.errors().map(|d| d.line).collect();
    assert_eq!(lines, [1, 3, 4, 5], "{}", a.diagnostics());
    assert!(a.diagnostics().contains("constant bus"));
    // CLRX syntax follows clrxasm (checked with clrxasm -g Tahiti): two
    // different SGPRs (lines 1, 3, 4) are errors, the v_madmk constant does
    // not count (line 5 is accepted, with a warning).
    let c = assemble(Some(Gen::Gcn10), "cb.s", src);
    let lines: Vec<u32> = c.output.errors().map(|d| d.line).collect();
    assert_eq!(lines, [1, 3, 4], "{}", c.diagnostics());
    assert!(c.output.warnings().any(|w| w.line == 5));
}
