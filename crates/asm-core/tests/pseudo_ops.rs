//! Behaviour documented in ClrxAsmPseudoOps.md (ISA-independent parts).

mod common;
use common::*;
use risa_asm_core::*;

fn warnings(src: &str) -> Vec<String> {
    asm(src).warnings().map(|d| d.message.clone()).collect()
}

#[test]
fn align_balign_p2align() {
    assert_eq!(text(".data\n.byte 1\n.align 4\n.byte 2\n.text"), vec![]);
    let out = asm(
        ".data\n.byte 1\n.align 4\n.byte 2\n.balign 8, 0xaa\n.byte 3\n.p2align 2, 0x55\n.byte 4",
    );
    assert!(!out.has_errors());
    assert_eq!(
        out.section(".data").unwrap().data,
        vec![1, 0, 0, 0, 2, 0xaa, 0xaa, 0xaa, 3, 0x55, 0x55, 0x55, 4]
    );
    assert_eq!(out.section(".data").unwrap().align, 8);
    // the limit: skip alignment when more bytes would be needed
    let out = asm(".data\n.byte 1\n.align 8, 0, 3\n.byte 2\n.align 4, 0, 3\n.byte 3");
    assert_eq!(out.section(".data").unwrap().data, vec![1, 2, 0, 0, 3]);
    // must be a power of two
    assert!(errors(".align 3")[0].contains("power of two"));
}

#[test]
fn align_in_text_fills_no_ops() {
    let mut want = le32(&[1]);
    want.extend_from_slice(&NOP);
    want.extend_from_slice(&NOP);
    want.extend_from_slice(&NOP);
    want.extend(le32(&[2]));
    assert_eq!(text(".int 1\n.align 16\n.int 2"), want);
    // with an explicit value the value is used
    assert_eq!(text(".byte 1\n.align 4, 7\n"), vec![1, 7, 7, 7]);
}

#[test]
fn balignw_balignl() {
    let out = asm(".data\n.byte 1\n.balignw 8, 0x1234\n.byte 2\n.balignl 8, 0xdeadbeef");
    assert_eq!(
        out.section(".data").unwrap().data,
        vec![1, 0, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 2, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde]
    );
}

#[test]
fn altmacro_substitution_without_backslash() {
    let src = ".altmacro\n.macro test1 a b\n    .int a, b\n.endm\ntest1 12,34";
    assert_eq!(text(src), le32(&[12, 34]));
}

#[test]
fn altmacro_expression_arguments() {
    let src = ".altmacro\n.macro stringize a,b,c\n    .string \"a, b, c\"\n.endm\nstringize %12|33, %43*5, %12-65";
    assert_eq!(text(src), b"45, 215, -53\0".to_vec());
}

#[test]
fn altmacro_quoting() {
    let src = ".altmacro\n.macro str a\n.ascii \"a\"\n.endm\nstr <this is test !<!>>\nstr 'this is test !''";
    assert_eq!(text(src), b"this is test <>this is test '".to_vec());
}

#[test]
fn altmacro_local_names() {
    let src = ".altmacro\n.macro m\nlocal myName\nmyName: .int myName\n.endm\nm\nm";
    let out = asm(src);
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(out.section(".text").unwrap().data, le32(&[0, 4]));
}

#[test]
fn ascii_asciz_string() {
    assert_eq!(text(".ascii \"ab\", \"c\""), b"abc".to_vec());
    assert_eq!(text(".asciz \"ab\", \"c\""), b"ab\0c\0".to_vec());
    assert_eq!(text(".string \"x\""), b"x\0".to_vec());
}

#[test]
fn string16_32_64() {
    assert_eq!(text(".string16 \"ab\""), vec![b'a', 0, b'b', 0, 0, 0]);
    assert_eq!(text(".string32 \"a\""), vec![b'a', 0, 0, 0, 0, 0, 0, 0]);
    let mut w = vec![0xff, 0, 0, 0, 0, 0, 0, 0];
    w.extend([0; 8]);
    assert_eq!(text(".string64 \"\\xff\""), w);
}

#[test]
fn byte_short_int_quad_with_warnings() {
    assert_eq!(text(".byte 1, -1, 255"), vec![1, 255, 255]);
    assert_eq!(text(".short 0x1234\n.hword -2"), le16(&[0x1234, 0xfffe]));
    assert_eq!(text(".int 1\n.long 2\n.word 3"), le32(&[1, 2, 3]));
    assert_eq!(text(".quad -1"), le64(&[u64::MAX]));
    // value too big: stored truncated, with a warning
    let out = asm(".byte 256\n.short 0x12345");
    assert!(!out.has_errors());
    assert_eq!(out.section(".text").unwrap().data, vec![0, 0x45, 0x23]);
    assert_eq!(out.warnings().count(), 2);
    // empty expression: 0 and a warning
    let out = asm(".byte 1,,2");
    assert_eq!(out.section(".text").unwrap().data, vec![1, 0, 2]);
    assert_eq!(out.warnings().count(), 1);
}

#[test]
fn octa() {
    let out = asm(".octa 0x0123456789abcdef0123456789abcdef, -1, 5");
    assert!(!out.has_errors());
    let d = &out.section(".text").unwrap().data;
    assert_eq!(
        d[..16],
        0x0123456789abcdef0123456789abcdefu128.to_le_bytes()
    );
    assert_eq!(d[16..32], [0xff; 16]);
    assert_eq!(d[32..48], 5u128.to_le_bytes());
}

#[test]
fn floats_half_single_double() {
    let out = asm(".half 1.0, -2.5, 65504.0\n.float 1.5, 3\n.single -0.25\n.double 2.0, ,1");
    let mut w = le16(&[0x3c00, 0xc100, 0x7bff]);
    w.extend(le32(&[
        1.5f32.to_bits(),
        3f32.to_bits(),
        (-0.25f32).to_bits(),
    ]));
    w.extend(le64(&[2f64.to_bits(), 0, 1f64.to_bits()]));
    assert_eq!(out.section(".text").unwrap().data, w);
    // empty value warns
    assert_eq!(out.warnings().count(), 1);
    assert!(!out.has_errors());
}

#[test]
fn enum_example() {
    let src = "
.enum OK,BADFD,FATAL
.enum >8, BitOne,BitTwo
.enum HALO
.scope Result
    .enum NONE,FULL,INVALID
.ends
.enum >, myzero
.byte OK, BADFD, FATAL, BitOne, BitTwo, HALO, Result::NONE, Result::FULL, Result::INVALID, myzero
";
    assert_eq!(text(src), vec![0, 1, 2, 8, 9, 10, 0, 1, 2, 0]);
    // enumerated symbols cannot be assigned later
    assert!(!errors(".enum A\nA = 5").is_empty());
}

#[test]
fn equ_set_redefinable() {
    assert_eq!(
        text(".equ a, 1\n.byte a\n.set a, 2\n.byte a\na = 3\n.byte a"),
        vec![1, 2, 3]
    );
}

#[test]
fn equiv_cannot_be_redefined() {
    assert!(errors(".equiv a, 1\n.equiv a, 2")[0].contains("already defined"));
    assert!(!errors(".equiv a, 1\na = 2").is_empty());
    assert!(!errors("a = 1\n.equiv a, 2").is_empty());
}

#[test]
fn eqv_example() {
    let src = "a = 3\nb = 5\n.eqv currentValue, a+b\n.int currentValue\nb = 7\n.int currentValue";
    assert_eq!(text(src), le32(&[8, 10]));
    assert!(!errors(".eqv x, 1\n.eqv x, 2").is_empty());
}

#[test]
fn err_error_warning_print_fail() {
    let out = asm(".err\n.error \"custom message\"\n.warning \"careful\"\n.print \"hello\"\n.fail 10\n.fail 500");
    let e: Vec<_> = out.errors().map(|d| d.message.as_str()).collect();
    assert_eq!(e.len(), 3);
    assert!(e[0].contains(".err"));
    assert_eq!(e[1], "custom message");
    let w: Vec<_> = out.warnings().map(|d| d.message.as_str()).collect();
    assert_eq!(w[0], "careful");
    assert_eq!(w.len(), 2);
    assert_eq!(out.printed, vec!["hello".to_string()]);
}

#[test]
fn abort_and_end() {
    let out = asm(".int 1\n.abort\n.int 2\n.err");
    assert_eq!(out.errors().count(), 1);
    assert_eq!(out.section(".text").unwrap().data, le32(&[1]));
    assert_eq!(text(".int 1\n.end\n.int 2\n.err"), le32(&[1]));
}

#[test]
fn exitm() {
    let src = ".macro m x\n.byte 1\n.if \\x\n.exitm\n.endif\n.byte 2\n.endm\nm 0\nm 1\n.byte 3";
    assert_eq!(text(src), vec![1, 2, 1, 3]);
    assert!(!errors(".exitm").is_empty());
}

#[test]
fn fill_and_fillq() {
    assert_eq!(text(".fill 3"), vec![0, 0, 0]);
    assert_eq!(text(".fill 2, 2, 0x1234"), le16(&[0x1234, 0x1234]));
    // .fill takes only the lowest 4 bytes of the value
    assert_eq!(text(".fill 1, 8, 0x1122334455667788"), le64(&[0x55667788]));
    assert_eq!(
        text(".fillq 1, 8, 0x1122334455667788"),
        le64(&[0x1122334455667788])
    );
    assert_eq!(text(".fill 0, 4, 1\n.fill 3, 0, 1"), vec![]);
    // value doesn't fit: truncated with a warning
    assert_eq!(warnings(".fill 1, 1, 0x1ff").len(), 1);
}

#[test]
fn for_example() {
    assert_eq!(
        text(".for x=1,x<16,x+x\n    .int x\n.endr"),
        le32(&[1, 2, 4, 8])
    );
}

#[test]
fn while_example() {
    assert_eq!(
        text("x=1\n.while x<16\n    .int x\n    x=x+x\n.endr"),
        le32(&[1, 2, 4, 8])
    );
}

#[test]
fn get_64bit_and_bitness_conditions() {
    assert_eq!(text(".get_64bit a\n.64bit\n.get_64bit b\n.byte a, b\n.if64\n.byte 9\n.endif\n.if32\n.byte 8\n.endif"), vec![0, 1, 9]);
}

#[test]
fn get_version_and_policy() {
    assert_eq!(
        text(".get_version v\n.policy 200\n.get_policy p\n.short v, p"),
        le16(&[VERSION_NUMBER as u16, 200])
    );
}

#[test]
fn global_local_weak_size_extern() {
    let out = asm(".global a\n.globl b\n.local c\n.weak d\n.extern e\na: b: c: d: nop\n.size a, 4");
    assert!(!out.has_errors());
    assert!(out.symbol("a").unwrap().global);
    assert!(out.symbol("b").unwrap().global);
    assert!(out.symbol("c").unwrap().local);
    assert!(out.symbol("d").unwrap().weak);
    assert_eq!(out.symbol("a").unwrap().size, Some(4));
}

#[test]
fn if_family() {
    let t = |cond: &str| text(&format!("{cond}\n.byte 1\n.else\n.byte 0\n.endif"))[0];
    assert_eq!(t(".if 2"), 1);
    assert_eq!(t(".if 0"), 0);
    assert_eq!(t(".ifne 1"), 1);
    assert_eq!(t(".ifeq 0"), 1);
    assert_eq!(t(".ifeq 3"), 0);
    assert_eq!(t(".ifgt 1"), 1);
    assert_eq!(t(".ifgt 0"), 0);
    assert_eq!(t(".ifge 0"), 1);
    assert_eq!(t(".ifge -1"), 0);
    assert_eq!(t(".iflt -1"), 1);
    assert_eq!(t(".iflt 0"), 0);
    assert_eq!(t(".ifle 0"), 1);
    assert_eq!(t(".ifle 1"), 0);
    assert_eq!(t(".ifb"), 1);
    assert_eq!(t(".ifb x"), 0);
    assert_eq!(t(".ifnb x"), 1);
    assert_eq!(t(".ifc abc,abc"), 1);
    assert_eq!(t(".ifc abc,abd"), 0);
    assert_eq!(t(".ifnc abc,abd"), 1);
    assert_eq!(t(".ifeqs \"a b\",\"a b\""), 1);
    assert_eq!(t(".ifeqs \"a\",\"b\""), 0);
    assert_eq!(t(".ifnes \"a\",\"b\""), 1);
    assert_eq!(t("x=1\n.ifdef x"), 1);
    assert_eq!(t(".ifdef y"), 0);
    assert_eq!(t(".ifndef y"), 1);
    assert_eq!(t(".ifnotdef y"), 1);
    assert_eq!(t(".ifarch toy"), 1);
    assert_eq!(t(".ifnarch toy"), 0);
    // not supported by the toy back end
    assert!(!errors(".ifgpu x\n.endif").is_empty());
}

#[test]
fn elseif_chains() {
    let src = |v: i32| {
        format!(
            "v={v}\n.if v==1\n.byte 1\n.elseif v==2\n.byte 2\n.elseifeq v-3\n.byte 3\n.elseifdef v\n.byte 4\n.else\n.byte 5\n.endif"
        )
    };
    assert_eq!(text(&src(1)), vec![1]);
    assert_eq!(text(&src(2)), vec![2]);
    assert_eq!(text(&src(3)), vec![3]);
    assert_eq!(text(&src(9)), vec![4]);
    // nested conditionals in a skipped block are skipped entirely
    assert_eq!(
        text(".if 0\n.if 1\n.byte 1\n.else\n.byte 2\n.endif\n.byte 3\n.else\n.byte 4\n.endif"),
        vec![4]
    );
    // errors
    assert!(!errors(".endif").is_empty());
    assert!(!errors(".else").is_empty());
    assert!(!errors(".if 1\n.else\n.else\n.endif").is_empty());
    assert!(errors(".if 1\n.byte 1")[0].contains("unterminated"));
    // an expression in a false branch is not evaluated
    assert_eq!(text(".if 0\n.int 1/0\n.endif"), vec![]);
}

#[test]
fn incbin_and_include() {
    let mut o = Options::default();
    o.files.insert("data.bin".into(), vec![1, 2, 3, 4, 5]);
    o.files
        .insert("inc.s".into(), b".byte 9\nincsym = 42\n".to_vec());
    o.allow_fs = false;
    let out = asm_with(".incbin \"data.bin\"\n.incbin \"data.bin\", 1, 2\n.incbin \"data.bin\", 3\n.include \"inc.s\"\n.byte incsym", o.clone());
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(
        out.section(".text").unwrap().data,
        vec![1, 2, 3, 4, 5, 2, 3, 4, 5, 9, 42]
    );
    let out = asm_with(".include \"missing.s\"\n.incbin \"nope\"", o);
    assert_eq!(out.errors().count(), 2);
}

#[test]
fn include_from_file_system_and_search_paths() {
    let scratch = tempfile::Builder::new()
        .prefix("risa-asm-core-test-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/x.s"), ".byte 7\n").unwrap();
    let o = Options {
        include_paths: vec![dir.join("sub")],
        ..Default::default()
    };
    let out = asm_with(".include \"x.s\"", o);
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(out.section(".text").unwrap().data, vec![7]);
}

#[test]
fn irp_example() {
    // .irp reg v0,v1,v4,v5 / v_mul_f32 v10,\reg  ->  four instructions
    let src = ".irp reg r0,r1,r4,r5\n    add r10,\\reg\n.endr";
    assert_eq!(
        text(src),
        vec![3, 10, 0, 0, 3, 10, 1, 0, 3, 10, 4, 0, 3, 10, 5, 0]
    );
    let src = ".irp reg, r0, r1\n    add r10,\\reg\n.endr";
    assert_eq!(text(src), vec![3, 10, 0, 0, 3, 10, 1, 0]);
}

#[test]
fn irpc_example() {
    let src = ".irpc reg 0145\n    add r10,r\\reg\n.endr";
    assert_eq!(
        text(src),
        vec![3, 10, 0, 0, 3, 10, 1, 0, 3, 10, 4, 0, 3, 10, 5, 0]
    );
}

#[test]
fn macro_join_with_empty_parens() {
    let src = ".macro macro1, x\n.set \\x\\()Symbol, 10\n.endm\nmacro1 Linux\n.byte LinuxSymbol";
    assert_eq!(text(src), vec![10]);
}

#[test]
fn macro_calls_with_commas_and_spaces_and_varargs() {
    let src = "
.macro somemacro
.byte 0
.endm
.macro somemacro1 a,b,c
.byte \\a,\\b,\\c
.endm
somemacro
somemacro1 1,2,4
somemacro1 1 2 3
/* use variadic argument */
.macro putHeaderAndData x,data:vararg
    .byte \\x&0x3f, \\data
.endm
putHeaderAndData 0xfe,1,4,6,7,110
";
    assert_eq!(text(src), vec![0, 1, 2, 4, 1, 2, 3, 0x3e, 1, 4, 6, 7, 110]);
}

#[test]
fn macro_simple_examples_and_defaults() {
    let src = "
.macro putTwoBytes value1,value2
    .byte \\value1+\\value2, \\value2-\\value1
.endm
putTwoBytes 4,7
.macro putTwoBytes2 value1=100,value2
    .byte \\value1+\\value2, \\value2-\\value1
.endm
putTwoBytes2 ,7
";
    // the reference text says "107,93", but 7-100 is -93, stored as the
    // byte 0xa3 (163); the arithmetic, not the sign slip, is what we check
    assert_eq!(text(src), vec![11, 3, 107, (-93i8) as u8]);
}

#[test]
fn macro_substitution_in_strings() {
    let src = ".macro putVersionInfo major,minor,micro\n.ascii \"CLRadeonExtender \\major\\().\\minor\\().\\micro\"\n.endm\nputVersionInfo 1,2,3";
    assert_eq!(text(src), b"CLRadeonExtender 1.2.3".to_vec());
}

#[test]
fn nested_macro_definitions() {
    let src = "
.macro generators m,value1,value2
    .macro gen\\m x1,x2  # define genM with two arguments
        /* use first and second operand of parent macro, and use two
         * operands from this macro */
        .int (\\x1+\\x2)*(\\value1+\\value2)
    .endm
.endm
/* define genF1 */
generators F1,2,3
/* use genF1, generates (10+12)*(2+3) -> 22*5 -> 110 */
genF1 10,12
";
    assert_eq!(text(src), le32(&[110]));
}

#[test]
fn macro_expression_argument() {
    let src = ".macro m a\n.ascii \"\\a\"\n.endm\nm \\%3*4";
    assert_eq!(text(src), b"12".to_vec());
}

#[test]
fn macro_required_keyword_and_counter() {
    assert!(errors(".macro m a:req\n.byte \\a\n.endm\nm")[0].contains("required"));
    assert_eq!(
        text(".macro m a, b\n.byte \\a, \\b\n.endm\nm b=2, a=1"),
        vec![1, 2]
    );
    assert_eq!(text(".macro m\n.byte \\@\n.endm\nm\nm\nm"), vec![0, 1, 2]);
    assert!(!errors(".macro m a\n.endm\nm 1, 2").is_empty());
}

#[test]
fn macro_case_sensitivity() {
    assert_eq!(text(".macro Foo\n.byte 1\n.endm\nFOO\nfoo"), vec![1, 1]);
    assert!(!errors(".nomacrocase\n.macro Bar\n.byte 1\n.endm\nBAR").is_empty());
}

#[test]
fn purgem() {
    assert!(errors(".macro m\n.byte 1\n.endm\nm\n.purgem m\nm")[0].contains("unknown instruction"));
    assert!(!errors(".purgem nothing").is_empty());
    assert!(!errors(".macro m\n.endm\n.macro m\n.endm").is_empty());
}

#[test]
fn offset_struct() {
    let src = ".struct 0\nf1: .skip 4\nf2: .skip 2\nf3:\n.text\n.byte f1, f2, f3";
    assert_eq!(text(src), vec![0, 4, 6]);
    assert_eq!(text(".offset 8\nx: .text\n.byte x"), vec![8]);
    // data cannot go into the absolute section
    assert!(!errors(".struct 0\n.byte 1").is_empty());
}

#[test]
fn org() {
    assert_eq!(text(".byte 1\n.org 4\n.byte 2"), vec![1, 0, 0, 0, 2]);
    assert_eq!(
        text("start: .byte 1\n.org start+3, 0xff\n.byte 2"),
        vec![1, 0xff, 0xff, 2]
    );
    assert_eq!(text(".byte 1\n. = 3\n.byte 2"), vec![1, 0, 0, 2]);
    assert!(errors(".byte 1, 2\n.org 1")[0].contains("backwards"));
    // the absolute section may go backwards
    assert_eq!(text(".struct 8\n.org 2\nx:\n.text\n.byte x"), vec![2]);
}

#[test]
fn rept_example() {
    let mut w = Vec::new();
    for _ in 0..3 {
        w.extend_from_slice(&NOP);
    }
    assert_eq!(text(".rept 3\nnop\n.endr"), w);
    assert_eq!(text(".rept 0\nnop\n.endr"), vec![]);
    assert_eq!(
        text(".rept 2\n.rept 2\n.byte 1\n.endr\n.byte 2\n.endr"),
        vec![1, 1, 2, 1, 1, 2]
    );
    assert!(!errors(".endr").is_empty());
    assert!(errors(".rept 2\n.byte 1")[0].contains("unterminated"));
}

#[test]
fn section_with_flags_type_align() {
    let out = asm(".section .mydata, \"aw\", @progbits align=16\n.byte 1\n.section .mybss, \"aw\", @nobits\n.skip 8\n.section .code2, \"ax\"\n.byte 1\n.align 4");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let s = out.section(".mydata").unwrap();
    assert_eq!(
        (s.flags.as_str(), s.elf_type.as_deref(), s.align),
        ("aw", Some("progbits"), 16)
    );
    let b = out.section(".mybss").unwrap();
    assert_eq!((b.kind, b.size, b.data.len()), (SectionKind::NoBits, 8, 0));
    let c = out.section(".code2").unwrap();
    assert_eq!(c.kind, SectionKind::Code);
    assert_eq!(c.data, vec![1, 0, 0, 0]);
}

#[test]
fn skip_space() {
    assert_eq!(text(".skip 3\n.space 2, 0xab"), vec![0, 0, 0, 0xab, 0xab]);
}

#[test]
fn undef() {
    assert_eq!(
        text("x = 1\n.undef x\n.ifdef x\n.byte 1\n.else\n.byte 2\n.endif"),
        vec![2]
    );
    assert_eq!(warnings(".undef nothing").len(), 1);
}

#[test]
fn ignored_pseudo_ops() {
    assert_eq!(text(".file \"a.c\"\n.ln 3\n.line 4\n.lflags\n.sbttl \"x\"\n.title \"x\"\n.version \"1\"\n.byte 1"), vec![1]);
}

#[test]
fn back_end_pseudo_ops() {
    let mut toy = Toy::default();
    let out =
        Assembler::new(Options::default()).assemble("t.s", ".toyflag 3\n.TOYFLAG 1+1", &mut toy);
    assert!(!out.has_errors());
    assert_eq!(toy.flags, vec![3, 2]);
    assert!(errors(".nosuchop 1")[0].contains("unknown pseudo-op"));
}
