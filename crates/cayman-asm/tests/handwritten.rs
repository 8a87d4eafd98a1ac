//! Hand-written sources: labels as jump targets, clauses written in place
//! (addresses, counts, literals and LAST bits computed), several kernels,
//! core features (symbols, macros); and the diagnostics of the VLIW4 rules.
//! The output is read back with the disassembler, whose decoder is checked
//! against llc in crates/cayman/tests/llc_agreement.rs.

use risa_cayman_asm::assemble;

fn asm_ok(src: &str) -> Vec<u8> {
    let out = assemble("t.s", src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    out.text()
}

fn dis(code: &[u8]) -> String {
    risa_cayman::disassemble(code, &Default::default())
}

fn errors(src: &str) -> Vec<String> {
    let out = assemble("t.s", src, Default::default());
    out.output
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{}: {}: {}",
                d.file, d.line, d.col, d.severity, d.message
            )
        })
        .collect()
}

#[test]
fn clauses_in_place_with_labels() {
    let src = r#"
; a branch around a fetch, written the way a person would
n = 5
kern:
    ALU_PUSH_BEFORE: KCACHE0(CB0:0-15)
        0 x: PRED_SETGT_INT ____, R0.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
    JUMP: ADDR(skip) POP_CNT(1)
    TC:
        VFETCH R1.x___, R1.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
    ALU: KCACHE0(CB0:0-15)
        0 x: ADD_INT R1.x, R1.x, (n * 2)
          y: MOV R1.y, (0x40000000)
          z: MOV R1.z, (n * 2)
        1 w: MOV R1.w, KC0[1].x
skip:
    POP: ADDR(done) POP_CNT(1)
done:
    END:
"#;
    let code = asm_ok(src);
    let text = dis(&code);
    let want = "\
00 ALU_PUSH_BEFORE: ADDR(8) CNT(1) KCACHE0(CB0:0-15)
       0  x: PRED_SETGT_INT ____, R0.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
01 JUMP: ADDR(4) POP_CNT(1)
02 TC: ADDR(6) CNT(1)
       1  VFETCH R1.x___, R1.x, fc1 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
03 ALU: ADDR(9) CNT(5) KCACHE0(CB0:0-15)
       2  x: ADD_INT R1.x, R1.x, (0x0000000a, 1.4e-44).x
          y: MOV R1.y, (0x40000000, 2e0).y
          z: MOV R1.z, (0x0000000a, 1.4e-44).x
       3  w: MOV R1.w, KC0[1].x
04 POP: ADDR(5) POP_CNT(1)
05 END:
";
    // every word is reached: no padding, no data
    assert_eq!(text, want, "got:\n{text}");
    assert_eq!(code.len(), 14 * 8);
}

#[test]
fn several_kernels_and_core_features() {
    let src = r#"
.macro movx d, s
    0 x: MOV \d\().x, \s
.endm
a:
    ALU:
        movx R1, R2.x
    END:
    .p2align 8
b:
    ALU:
        movx R3, (7)
    END:
"#;
    let out = assemble("t.s", src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    let code = out.text();
    assert_eq!(out.output.symbol("a").unwrap().value.unwrap().value, 0);
    assert_eq!(out.output.symbol("b").unwrap().value.unwrap().value, 256);
    assert_eq!(out.programs.len(), 2);
    assert_eq!((out.programs[0].start, out.programs[0].size), (0, 24));
    assert_eq!((out.programs[1].start, out.programs[1].size), (256, 32));
    assert_eq!(
        dis(&code[256..]),
        "00 ALU: ADDR(2) CNT(2)\n       0  x: MOV R3.x, (0x00000007, 1e-44).x\n01 END:\n"
    );
}

/// One group of an ALU clause, for the rule checks.
fn group(body: &str) -> Vec<String> {
    errors(&format!("ALU:\n{body}\nEND:\n"))
}

#[test]
fn vliw_rule_diagnostics() {
    // the same slot twice
    assert_eq!(
        group("  0 x: MOV R1.x, R2.x\n    x: MOV R3.x, R4.y"),
        ["t.s:3:8: error: slot x is already taken by instruction 1 of this group"]
    );
    // five different literal values
    assert_eq!(
        group("  0 x: ADD R1.x, (1), (2)\n    y: ADD R1.y, (3), (4)\n    z: MOV R1.z, (5)"),
        ["t.s:4:18: error: more than four literal dwords in one instruction group"]
    );
    // the guide's read-port example (4.7.7): R1.x, R2.x and R3.x... on cycle 0/1
    let e = group(
        "  0 x: MUL R0.x, R1.x, R2.x\n    y: MUL R0.y, R3.x, R1.y\n    z: MUL R0.z, R2.x, R1.y",
    );
    // both later instructions need element x on cycle 0, which R1.x holds
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].starts_with(
            "t.s:3:18: error: GPR read port conflict: R3.x and R1.x both need element x in cycle 0"
        ),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("t.s:4:18: error: GPR read port conflict: R2.x and R1.x"),
        "{e:?}"
    );
    // ... and its fix with bank swizzles
    assert!(group(
        "  0 x: MUL R0.x, R1.x, R2.x\n    y: MUL R0.y, R3.x, R1.y VEC_201\n    z: MUL R0.z, R2.x, R1.y VEC_102"
    )
    .is_empty());
    // a reduction must fill the group
    assert_eq!(
        group("  0 x: DOT4 R1.x, R2.x, R3.x"),
        ["t.s:2:8: error: DOT4 is a reduction: all four slots of the group must execute it, with the same OMOD and CLAMP"]
    );
    // three kcache pairs
    assert_eq!(
        errors("ALU: KCACHE0(CB0:0-15)\n  0 x: ADD R1.x, KC0[0].x, KC0[1].x\n    y: MOV R1.y, KC0[2].z\nEND:\n"),
        ["t.s:3:18: error: all constant read ports are used: a group reads at most two kcache constant pairs (xy or zw of a constant)"]
    );
    // two AR elements
    assert_eq!(
        group(
            "  0 x: MOVA_INT AR.x, R0.x\n  1 x: MOV R1.x, R2[AR.x].x\n    y: MOV R1.y, R3[AR.y].y"
        ),
        ["t.s:4:8: error: only one AR element can be used per instruction group (AR.x and AR.y)"]
    );
    // double-precision instructions span slot pairs or all four slots
    assert_eq!(
        group("  0 x: ADD_64 R1.x, R2.y, R3.y\n    z: ADD_64 R1.z, R2.x, R3.x"),
        ["t.s:2:8: error: ADD_64 occupies slots xy: each of them must hold it"]
    );
    assert!(group("  0 x: ADD_64 R1.x, R2.y, R3.y\n    y: ADD_64 R1.y, R2.x, R3.x").is_empty());
    assert_eq!(
        group("  0 x: MUL_64 R1.x, R2.y, R3.y\n    y: MUL_64 R1.y, R2.y, R3.y\n    z: MUL_64 R1.z, R2.y, R3.y"),
        ["t.s:2:8: error: MUL_64 occupies slots xyzw: each of them must hold it"]
    );
    // 4.8.1: one PRED_SET*/KILL* per group; a KILL* group ends its clause
    assert_eq!(
        group("  0 x: PRED_SETE ____, R1.x, R2.x\n    y: PRED_SETGT ____, R1.y, R2.y"),
        ["t.s:3:8: error: PRED_SETE and PRED_SETGT cannot be co-issued: at most one PRED_SET* or KILL* per group"]
    );
    assert_eq!(
        group("  0 x: KILLGT ____, R1.x, R2.x\n  1 x: MOV R1.x, R2.x"),
        ["t.s:2:8: error: a KILL* group must be the last group of its ALU clause (guide 4.8.1)"]
    );
    assert!(group("  0 x: MOV R1.x, R2.x\n  1 x: KILLGT ____, R1.x, R2.x").is_empty());
    // 4.8.3: MOVA* and AR indexing in one group
    assert_eq!(
        group("  0 x: MOVA_INT AR.x, R0.x\n  1 x: MOVA_INT AR.x, R1.x\n    y: MOV R2.y, R3[AR.x].y"),
        ["t.s:4:8: error: AR indexing in the same group as MOVA_INT (guide 4.8.3: split it into two groups)"]
    );
    // kcache indexed by AR
    assert_eq!(
        group("  0 x: MOVA_INT AR.x, R0.x\n  1 x: MOV R1.x, KC0[1][AR.x].x"),
        ["t.s:3:18: error: kcache constants can be indexed only by the loop index (AL), not AR"]
    );
}

/// Cayman has no t-slot: the former ALU.Trans operations are issued in
/// several vector slots with the same operands (vliw.rs, REPLICATED).
#[test]
fn replicated_trans_and_integer_multiply() {
    // llc's form: all four slots (fixture corpus), one of them writing
    assert!(group(
        "  0 x: RECIP_IEEE ____, R1.x\n    y: RECIP_IEEE R2.y, R1.x\n    z: RECIP_IEEE ____, R1.x\n    w: RECIP_IEEE ____, R1.x"
    )
    .is_empty());
    // three slots x, y, z leave w to another instruction
    assert!(group(
        "  0 x: SIN R2.x, R1.x\n    y: SIN ____, R1.x\n    z: SIN ____, R1.x\n    w: ADD R2.w, R3.w, R4.w"
    )
    .is_empty());
    assert_eq!(
        group("  0 x: RECIP_IEEE R2.x, R1.x"),
        ["t.s:2:8: error: RECIP_IEEE is a transcendental operation: Cayman has no t-slot, so it must occupy slots xyz (and w when it writes w) of its group"]
    );
    // writing w needs all four
    assert_eq!(
        group("  0 x: COS ____, R1.x\n    y: COS ____, R1.x\n    w: COS R2.w, R1.x"),
        ["t.s:2:8: error: COS is a transcendental operation: Cayman has no t-slot, so it must occupy slots xyzw of its group"]
    );
    assert_eq!(
        group("  0 x: MULLO_INT R2.x, R1.x, R1.y\n    y: MULLO_INT ____, R1.x, R1.y\n    z: MULLO_INT ____, R1.x, R1.y\n    w: MOV R2.w, R3.w"),
        ["t.s:2:8: error: MULLO_INT is a 32-bit integer multiply: Cayman has no t-slot, so it must occupy slots xyzw of its group"]
    );
    // the copies must read the same operands
    assert_eq!(
        group("  0 x: MULHI_UINT R2.x, R1.x, R1.y\n    y: MULHI_UINT ____, R1.x, R1.y\n    z: MULHI_UINT ____, R1.x, R1.z\n    w: MULHI_UINT ____, R1.x, R1.y"),
        ["t.s:4:8: error: every copy of MULHI_UINT in slots xyzw must read the same operands"]
    );
    // conversions are one-slot operations on Cayman (llc issues them alone)
    assert!(group("  0 x: FLT_TO_INT R2.x, R1.x").is_empty());
}

/// Interpolation (guide 7.3.2 and the INTERP_* pages of chapter 8).
#[test]
fn interpolation_rules() {
    let ok = "  0 x: INTERP_XY R1.x, R0.y, SRC448.x VEC_210\n    y: INTERP_XY R1.y, R0.x, SRC448.x VEC_210\n    z: INTERP_XY ____, R0.y, SRC448.x VEC_210\n    w: INTERP_XY ____, R0.x, SRC448.x VEC_210";
    assert!(group(ok).is_empty(), "{:?}", group(ok));
    // bank swizzle 210 everywhere
    let e = group(&ok.replacen(" VEC_210", "", 1));
    assert_eq!(e, ["t.s:2:8: error: INTERP_XY must use bank swizzle VEC_210 (it reads the I/J GPR in the third cycle, guide 7.3.2)"]);
    // one parameter for the group
    let e = group(&ok.replacen("SRC448.x VEC_210\n    z", "SRC449.x VEC_210\n    z", 1));
    assert_eq!(e, ["t.s:3:30: error: the parameter (src1) of INTERP_XY must be the same in all its slots (guide 7.3.2)"]);
    // XY results go to x and y: z and w are write-masked
    let e = group(&ok.replacen("z: INTERP_XY ____", "z: INTERP_XY R1.z", 1));
    assert_eq!(
        e,
        ["t.s:4:8: error: INTERP_XY writes slots xy: slot z must be write-masked (guide 7.3.2)"]
    );
    let zw = "  0 x: INTERP_ZW ____, R0.y, SRC448.x VEC_210\n    y: INTERP_ZW R1.y, R0.x, SRC448.x VEC_210\n    z: INTERP_ZW R1.z, R0.y, SRC448.x VEC_210\n    w: INTERP_ZW R1.w, R0.x, SRC448.x VEC_210";
    assert_eq!(
        group(zw),
        ["t.s:3:8: error: INTERP_ZW writes slots zw: slot y must be write-masked (guide 7.3.2)"]
    );
    // INTERP_X lives in x and y, INTERP_Z in z and w
    assert!(group("  0 x: INTERP_X R1.x, R0.y, SRC448.x VEC_210\n    y: INTERP_X ____, R0.x, SRC448.x VEC_210").is_empty());
    assert_eq!(
        group("  0 z: INTERP_Z R1.z, R0.y, SRC448.z VEC_210"),
        ["t.s:2:8: error: INTERP_Z must be present in slots zw of its group (guide 7.3.2)"]
    );
}

/// Relative addressing: AR must be loaded by an earlier group of the clause
/// (guide 4.6.1), and relative GPR reads take read ports (4.7.4, 4.7.8).
#[test]
fn relative_addressing_rules() {
    assert_eq!(
        group("  0 x: MOV R1.x, R2[AR.x].x"),
        ["t.s:2:8: error: AR indexing needs a MOVA_INT to AR in an earlier group of the same ALU clause (guide 4.6.1)"]
    );
    // loaded in an earlier clause does not count: AR does not outlive its clause
    let e = errors("ALU:\n  0 x: MOVA_INT AR.x, R0.x\nALU:\n  0 x: MOV R1.x, R2[AR.x].x\nEND:\n");
    assert_eq!(e, ["t.s:4:8: error: AR indexing needs a MOVA_INT to AR in an earlier group of the same ALU clause (guide 4.6.1)"]);
    // MOVA_INT to CF_IDX0 does not load AR
    assert_eq!(
        group("  0 x: MOVA_INT CF_IDX0.x, R0.x\n  1 x: MOV R1.x, R2[AR.x].x").len(),
        1
    );
    // the loop index needs no MOVA
    assert!(group("  0 x: MOV R1.x, R2[AL].x").is_empty());
    // a relative read and an absolute one on the same element and cycle
    let mova = "  0 x: MOVA_INT AR.x, R0.x\n";
    assert_eq!(
        group(&format!("{mova}  1 x: MOV R1.x, R2[AR.x].x\n    y: MOV R1.y, R3.x")),
        ["t.s:4:18: error: GPR read port conflict: R3.x and R2[AR.x].x both need element x in cycle 0, and a relative address may differ from any other (guide 4.7.4; change BANK_SWIZZLE)"]
    );
    // ... moved to another cycle by the bank swizzle
    assert!(group(&format!(
        "{mova}  1 x: MOV R1.x, R2[AR.x].x\n    y: MOV R1.y, R3.x VEC_120"
    ))
    .is_empty());
    // the same relative read shares its port
    assert!(group(&format!(
        "{mova}  1 x: MOV R1.x, R2[AR.x].x\n    y: MOV R1.y, R2[AR.x].x"
    ))
    .is_empty());
    // two relative reads of different bases
    assert_eq!(
        group(&format!(
            "{mova}  1 x: ADD R1.x, R2[AR.x].x, R5.y\n    y: ADD R1.y, R3[AR.x].x, R5.y"
        ))
        .len(),
        1
    );
}

#[test]
fn syntax_and_layout_diagnostics() {
    let e = errors("ALU:\n  0 x: MOV R1.y, R2.x\nEND:\n");
    assert_eq!(
        e,
        ["t.s:2:14: error: the destination channel is the slot: they must agree"]
    );
    let e = errors("ALU:\n  0 x: FROB R1.x, R2.x\nEND:\n");
    assert_eq!(e, ["t.s:2:8: error: unknown ALU instruction 'FROB'"]);
    let e = errors("ALU:\n  0 x: MOV R1.x, R200.x\nEND:\n");
    assert_eq!(e, ["t.s:2:18: error: GPR index out of range (R0..R127)"]);
    let e = errors("  0 x: MOV R1.x, R2.x\n");
    assert_eq!(e, ["t.s:1:8: error: ALU instruction outside an ALU clause"]);
    let e = errors("TC:\n  0 x: MOV R1.x, R2.x\nEND:\n");
    assert_eq!(e, ["t.s:2:8: error: ALU instruction in a fetch clause"]);
    let e =
        errors("00 ALU: ADDR(4) CNT(1)\n  0 x: MOV R1.x, R2.x\n  1 y: MOV R1.y, R2.y\n01 END:\n");
    assert_eq!(
        e,
        ["t.s:1:21: error: CNT(1) but the clause body has 2 slots"]
    );
    let e = errors("JUMP: ADDR(nowhere)\nEND:\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("t.s:1:12: error:") && e[0].contains("nowhere"),
        "{e:?}"
    );
    let e = errors("ALU: KCACHE0(CB0:3-18)\n 0 x: NOP ____\nEND:\n");
    assert_eq!(
        e,
        ["t.s:1:18: error: a kcache window starts at a multiple of 16"]
    );
    let e = errors("EXPORT_DONE: PIXEL ARRAY_BASE(0) R1.xyzq\nEND:\n");
    assert_eq!(
        e,
        ["t.s:1:37: error: select must be one of x y z w 0 1 ? _"]
    );
    let e = errors("ALU:\nEND:\n");
    assert_eq!(e, ["t.s:1:1: error: clause has no instructions"]);
}

#[test]
fn lower_case_cf_names_are_labels() {
    // `loop_break` and `end` are labels, `END:` is the instruction
    let out = assemble(
        "t.s",
        "loop_break:\nend:\n  ALU:\n    0 x: NOP ____\n  END:\n",
        Default::default(),
    );
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    assert_eq!(out.programs.len(), 1);
    assert_eq!(
        out.output
            .symbol("loop_break")
            .unwrap()
            .value
            .unwrap()
            .value,
        0
    );
    assert_eq!(out.output.symbol("end").unwrap().value.unwrap().value, 0);
}

#[test]
fn float_literals() {
    let code = asm_ok("ALU:\n 0 x: MUL R1.x, R1.x, (1.5)\n   y: ADD R1.y, R1.y, (-0.25f)\n   z: MOV R1.z, (3)\nEND:\n");
    let text = dis(&code);
    assert!(
        text.contains("x: MUL R1.x, R1.x, (0x3fc00000, 1.5e0).x"),
        "{text}"
    );
    assert!(
        text.contains("y: ADD R1.y, R1.y, (0xbe800000, -2.5e-1).y"),
        "{text}"
    );
    assert!(
        text.contains("z: MOV R1.z, (0x00000003, 4e-45).z"),
        "{text}"
    );
}

/// examples/cayman/loop_sum.s, written by hand with labels and clauses in
/// place, is clang's loop_sum object byte for byte (.text, .AMDGPU.config,
/// symbol).
#[test]
fn hand_written_loop_sum_is_clangs_object() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let src = std::fs::read_to_string(format!("{root}/examples/cayman/loop_sum.s")).unwrap();
    let out = assemble("loop_sum.s", &src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    let ours = out.object().unwrap();
    let clang = std::fs::read(format!("{root}/tests/fixtures/cayman/loop_sum.o")).unwrap();
    let (a, b) = (
        risa_elf::Elf::parse(&clang).unwrap(),
        risa_elf::Elf::parse(&ours).unwrap(),
    );
    for s in [".text", ".AMDGPU.config"] {
        assert_eq!(
            a.section_by_name(s).unwrap().data,
            b.section_by_name(s).unwrap().data,
            "{s}"
        );
    }
    let k = b.symbols.iter().find(|s| s.name == "loop_sum").unwrap();
    assert_eq!((k.value, k.size), (0, 424));
}

/// `.AMDGPU.config` computed for a hand-written kernel without `.config_reg`:
/// NUM_GPRS = highest GPR + 1 (R124..R127 are clause temporaries), STACK_SIZE
/// from a loop (one entry) holding a push (one subentry), LDS from `.lds_size`.
#[test]
fn computed_config_for_hand_written_kernel() {
    let src = "
.lds_size 256
k:
    LOOP_START_DX10: ADDR(done)
    ALU_PUSH_BEFORE:
        0 x: PRED_SETGT_INT ____, R6.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
    ALU_POP_AFTER:
        0 x: MOV R125.x, R2.x
        1 y: MOV R1.y, R125.x
done:
    LOOP_END: ADDR(k)
    END:
";
    let out = assemble("t.s", src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    let obj = out.object().unwrap();
    let elf = risa_elf::Elf::parse(&obj).unwrap();
    let cfg = &elf.section_by_name(".AMDGPU.config").unwrap().data;
    let words: Vec<u32> = cfg
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // 7 GPRs (R6), stack 1 entry + ceil(1/4) = 2; LDS 64 dwords
    assert_eq!(words, [0x288d4, 7 | 2 << 8, 0x2880c, 0, 0x288e8, 64]);
    let e = errors("k:\n  ALU:\n    0 x: MOV R1.x, R2.x\n  END:\n.lds_size 16\n");
    assert_eq!(
        e,
        ["t.s:5:1: error: .lds_size applies to the kernel whose first CF line follows it, and none does"]
    );
}

/// `. = expr` inside a program is an error; after `END:` it ends the
/// program like `.org` and the next kernel starts there.
#[test]
fn location_assignment() {
    let e = errors("k:\n  ALU:\n    0 x: MOV R1.x, R2.x\n  . = 0x40\n  END:\n");
    assert_eq!(
        e,
        ["t.s:4:7: error: '. = …' inside a CF program: its clauses are laid out after the CF program ends, so the location cannot move here; end the program with END: first (or place words with .at)"]
    );
    let code = asm_ok("k:\n  ALU:\n    0 x: MOV R1.x, R2.x\n  END:\n. = 0x100\nk2:\n  ALU:\n    0 x: MOV R3.x, R4.x\n  END:\n");
    assert_eq!(code.len(), 0x100 + 24);
    assert!(
        dis(&code[0x100..]).contains("x: MOV R3.x, R4.x"),
        "{}",
        dis(&code[0x100..])
    );
    assert!(dis(&code[..24]).contains("x: MOV R1.x, R2.x"));
}
