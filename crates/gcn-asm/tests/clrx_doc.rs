//! The examples of the CLRX documentation (reference/clrx-doc/ClrxAsmSyntax.md
//! and ClrxAsmPseudoOps.md) that involve GCN code, assembled as documented.
//! Expected words: the ISA encoding as `llvm-mc -arch=amdgcn -mcpu=tahiti
//! -show-encoding` gives it for the equivalent plain instruction (noted
//! beside each), or the documented expansion assembled separately.
//!
//! Where a documentation example is not valid GCN as printed (VOP2
//! instructions with an operand left out: `v_add_i32 v1, v2`,
//! `v_mul_f32 v10,\reg`), the missing operand is added and noted.

use risa_gcn::Gen;
use risa_gcn_asm::{assemble, Assembled};

fn ok(gen: Gen, src: &str) -> Assembled {
    let a = assemble(Some(gen), "doc.s", src);
    assert!(!a.output.has_errors(), "{src}\n{}", a.diagnostics());
    a
}

fn sym(a: &Assembled, name: &str) -> u64 {
    a.output
        .symbol(name)
        .and_then(|s| s.value)
        .unwrap_or_else(|| panic!("symbol {name} undefined"))
        .value
}

/// ClrxAsmSyntax.md, "Layout of the source": statements separated by `;`.
#[test]
fn statements_separated_by_semicolons() {
    let a = ok(
        Gen::Gcn10,
        "nop_count = 0\n.int 1,2,3; v_nop; nop_count = nop_count+1\n",
    );
    // v_nop: 7e000000 (llvm-mc)
    assert_eq!(a.code(), [1, 2, 3, 0x7e00_0000]);
    assert_eq!(sym(&a, "nop_count"), 1);
}

/// ClrxAsmSyntax.md, "Symbols": several labels before a statement.
#[test]
fn labels_before_statements() {
    // The doc writes `v_add_i32 v1, v2`; VOP2 needs vcc and two sources.
    let a = ok(
        Gen::Gcn10,
        "label1: init: v_add_i32 v1, vcc, v2, v3\nend:  s_endpgm\n",
    );
    assert_eq!(sym(&a, "label1"), 0);
    assert_eq!(sym(&a, "init"), 0);
    assert_eq!(sym(&a, "end"), 4);
}

/// ClrxAsmSyntax.md: `3f-3b` refers to the next and previous local label `3`.
#[test]
fn local_labels_in_operands() {
    let a = ok(
        Gen::Gcn10,
        "3: s_nop 0\nv_add_i32 v32, vcc, 3f-3b, v2\n3: s_endpgm\n",
    );
    // `3f` is not known yet when the operand is read, so the value takes the
    // literal slot (its size cannot depend on later symbols): 3f - 3b = 12.
    // v_add_i32_e32 v32, vcc, 0xc, v2 = 4a4004ff 0000000c (llvm-mc, with a literal)
    assert_eq!(a.code(), [0xbf80_0000, 0x4a40_04ff, 12, 0xbf81_0000]);
    // Backward references are known: 3b - 1b = 4 is an inline constant.
    let b = ok(
        Gen::Gcn10,
        "1: s_nop 0
3: v_add_i32 v32, vcc, 3b-1b, v2
",
    );
    assert_eq!(b.code(), [0xbf80_0000, 0x4a40_0484]);
}

/// ClrxAsmSyntax.md: register symbols and their indexing.
#[test]
fn register_symbols_and_indexing() {
    let src = "regpool = %v[16:31]
reg1 = %s[0:1]
s_and_b64 reg1, s[2:3], s[4:5]  # output as s[0:1]
s_cmp_lt_i32 reg1[0], s2        # compare s0 with s2
v_xor_b32 regpool[4], regpool[7], regpool[9]    # v_xor_b32 v20, v23, v25
zx = 10 # zx symbol
v_xor_b32 regpool[zx+1], regpool[zx+5], regpool[zx+7]    # v_xor_b32 v27, v31, v33
";
    let a = ok(Gen::Gcn10, src);
    // llvm-mc: s_and_b64 s[0:1], s[2:3], s[4:5] = 87800402; s_cmp_lt_i32 s0, s2 = bf040200;
    // v_xor_b32 v20, v23, v25 = 3a283317; v_xor_b32 v27, v31, v33 = 3a36431f
    assert_eq!(
        a.code(),
        [0x8780_0402, 0xbf04_0200, 0x3a28_3317, 0x3a36_431f]
    );
}

/// ClrxAsmSyntax.md: `lit()` forces a literal for an inline-encodable constant.
#[test]
fn lit_forces_a_literal() {
    let a = ok(
        Gen::Gcn10,
        "s_add_u32 s1,s2,lit(4)\ns_add_u32 s1,s2,lit(4.0)\ns_add_u32 s1,s2,4\n",
    );
    // s_add_u32 s1, s2, 4 = 80018402 (llvm-mc); SSRC1 = 255 (literal) instead of 132.
    assert_eq!(
        a.code(),
        [0x8001_ff02, 4, 0x8001_ff02, 0x4080_0000, 0x8001_8402]
    );
}

/// ClrxAsmSyntax.md, "Instruction operands": `@` makes an operand an expression.
#[test]
fn at_sign_forces_an_expression() {
    let a = ok(Gen::Gcn10, ".set v0, 3\nv_add_f32 v0, @v0, v4\n");
    // v_add_f32_e32 v0, 3, v4 = 06000883 (llvm-mc)
    assert_eq!(a.code(), [0x0600_0883]);
}

/// ClrxAsmPseudoOps.md, `.rept`: three v_nop.
#[test]
fn rept_repeats() {
    let a = ok(Gen::Gcn12, ".rept 3\nv_nop\n.endr\n");
    assert_eq!(a.code(), [0x7e00_0000; 3]);
}

/// ClrxAsmPseudoOps.md, `.irp` and `.irpc` produce the documented expansions.
#[test]
fn irp_and_irpc_expand_as_documented() {
    // The doc's `v_mul_f32 v10,\reg` lacks the second source; `v1` is added.
    let expanded = ok(
        Gen::Gcn10,
        "v_mul_f32 v10,v0,v1\nv_mul_f32 v10,v1,v1\nv_mul_f32 v10,v4,v1\nv_mul_f32 v10,v5,v1\n",
    );
    // v_mul_f32_e32 v10, v0, v1 = 10140300 (llvm-mc)
    assert_eq!(expanded.code()[0], 0x1014_0300);
    let irp = ok(
        Gen::Gcn10,
        ".irp reg v0,v1,v4,v5\n    v_mul_f32 v10,\\reg,v1\n.endr\n",
    );
    assert_eq!(irp.code(), expanded.code());
    let irp2 = ok(
        Gen::Gcn10,
        ".irp reg v0 v1 v4 v5\n    v_mul_f32 v10,\\reg,v1\n.endr\n",
    );
    assert_eq!(irp2.code(), expanded.code());
    let irpc = ok(
        Gen::Gcn10,
        ".irpc reg 0145\n    v_mul_f32 v10,v\\reg,v1\n.endr\n",
    );
    assert_eq!(irpc.code(), expanded.code());
}

/// ClrxAsmPseudoOps.md, `.align`: in `.text` without a fill value, no-ops fill the hole.
#[test]
fn align_in_code_fills_with_s_nop() {
    let a = ok(Gen::Gcn14, "s_endpgm\n.align 16\ns_endpgm\n");
    assert_eq!(
        a.code(),
        [
            0xbf81_0000,
            0xbf80_0000,
            0xbf80_0000,
            0xbf80_0000,
            0xbf81_0000
        ]
    );
    let b = ok(Gen::Gcn14, "s_endpgm\n.align 8, 0\ns_endpgm\n");
    assert_eq!(b.code(), [0xbf81_0000, 0, 0xbf81_0000]);
}

/// ClrxAsmPseudoOps.md: `.gpu`/`.arch` names and `.get_arch`/`.get_gpu` ids.
#[test]
fn gpu_and_arch_names_and_ids() {
    for (src, arch, gpu) in [
        (".gpu Tahiti", 0, 2),
        (".gpu Bonaire", 1, 4),
        (".gpu Hawaii", 1, 9),
        (".gpu Fiji", 2, 13),
        (".gpu Ellesmere", 2, 19),
        (".gpu GFX900", 3, 22),
        (".arch GCN1.2", 2, 11),
        (".arch VEGA", 3, 22),
        (".arch GFX6", 0, 0),
        (".arch CI", 1, 4),
    ] {
        let a = assemble(None, "g.s", &format!("{src}\n.get_arch A\n.get_gpu G\n"));
        assert!(!a.output.has_errors(), "{src}: {}", a.diagnostics());
        assert_eq!((sym(&a, "A"), sym(&a, "G")), (arch, gpu), "{src}");
    }
    let a = assemble(None, "g.s", ".arch GCN1.5\n");
    assert!(
        a.diagnostics().contains("not supported"),
        "{}",
        a.diagnostics()
    );
}

/// ClrxAsmPseudoOps.md, `.ifarch`/`.ifgpu`/`.iffmt` and `.get_format`.
#[test]
fn target_conditionals() {
    let src = ".gpu Fiji
.ifarch GCN1.2
.int 1
.else
.int 2
.endif
.ifnarch GCN1.0
.int 3
.endif
.ifgpu Fiji
.int 4
.endif
.iffmt rawcode
.int 5
.endif
.get_format F
";
    let a = ok(Gen::Gcn12, src);
    assert_eq!(a.code(), [1, 3, 4, 5]);
    assert_eq!(sym(&a, "F"), 2);
}

/// ClrxAsmSyntax.md: "constant literals in symreganges like `zz=%1` or
/// `xx=%0.5`", permitted in scalar sources, not in a scalar destination.
#[test]
fn constant_register_symbols() {
    let a = ok(
        Gen::Gcn12,
        "zz=%1\nxx=%0.5\ns_add_u32 s0, s1, zz\nv_add_f32 v0, xx, v1\n",
    );
    let b = ok(Gen::Gcn12, "s_add_u32 s0, s1, 1\nv_add_f32 v0, 0.5, v1\n");
    // s_add_u32 s0, s1, 1 = 80008101; v_add_f32_e32 v0, 0.5, v1 = 020002f0 (llvm-mc -mcpu=fiji)
    assert_eq!(b.code(), [0x8000_8101, 0x0200_02f0]);
    assert_eq!(a.code(), b.code());
    let e = assemble(Some(Gen::Gcn12), "d.s", "zz=%1\ns_mov_b32 zz, s0\n");
    assert!(
        e.diagnostics().contains("expected a scalar register"),
        "{}",
        e.diagnostics()
    );
}

/// ClrxAsmSyntax.md, "Literals": the `h`, `s`, `l` suffixes choose the
/// precision of a float literal in an operand.
#[test]
fn float_literal_suffixes() {
    let a = ok(
        Gen::Gcn12,
        "v_mov_b32 v0, 1.5h\nv_mov_b32 v0, 1.5s\nv_mov_b32 v0, 1.0h\n",
    );
    // 1.5 as half = 0x3e00, as single = 0x3fc00000; 1.0 half = 0x3c00 (not the f32 inline 1.0).
    assert_eq!(
        a.code(),
        [
            0x7e00_02ff,
            0x3e00,
            0x7e00_02ff,
            0x3fc0_0000,
            0x7e00_02ff,
            0x3c00
        ]
    );
}
