//! Behaviour documented in ClrxAsmSyntax.md (ISA-independent parts),
//! checked with the toy ISA of `common`.

mod common;
use common::*;
use risa_asm_core::*;

#[test]
fn statements_separated_by_semicolons() {
    // three statements on one line: data, an instruction, an assignment
    let out = asm("nop_count = 0\n.int 1,2,3; nop; nop_count = nop_count+1\n.int nop_count");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let mut want = le32(&[1, 2, 3]);
    want.extend_from_slice(&NOP);
    want.extend(le32(&[1]));
    assert_eq!(out.section(".text").unwrap().data, want);
}

#[test]
fn line_continuation_with_backslash() {
    assert_eq!(text(".int 1, \\\n  2,\\\n3"), le32(&[1, 2, 3]));
}

#[test]
fn comments() {
    assert_eq!(
        text(".int 1 # comment .int 5\n# whole line\n.int 2"),
        le32(&[1, 2])
    );
    assert_eq!(text(".int 1 /* inline */, 2"), le32(&[1, 2]));
    assert_eq!(
        text(".int 1 /* multi\n line\n comment */ .int 2\n.int 3"),
        le32(&[1, 2, 3])
    );
    // '#' inside a string is not a comment
    assert_eq!(text(".ascii \"a#b\""), b"a#b".to_vec());
    // '//' is the unsigned division operator in CLRX ...
    assert_eq!(text(".int 7//2"), le32(&[3]));
    // ... and a comment in LLVM style when asked for
    let o = Options {
        slash_comments: true,
        ..Default::default()
    };
    let out = asm_with(".int 7 // two", o);
    assert!(!out.has_errors());
    assert_eq!(out.section(".text").unwrap().data, le32(&[7]));
}

#[test]
fn case_insensitive_pseudo_ops_and_instructions() {
    let mut want = le32(&[1]);
    want.extend_from_slice(&NOP);
    assert_eq!(text(".INT 1\nNOP"), want);
}

#[test]
fn symbol_names_are_case_sensitive() {
    assert_eq!(text("a = 1\nA = 2\n.byte a, A"), vec![1, 2]);
}

#[test]
fn labels_and_multiple_labels() {
    // label1 and init both name the first instruction, end the second
    let out = asm("label1: init: add r1, r2\nend:  nop");
    assert!(!out.has_errors());
    let v = |n: &str| out.symbol(n).unwrap().value.unwrap();
    assert_eq!(v("label1").value, 0);
    assert_eq!(v("init").value, 0);
    assert_eq!(v("end").value, 4);
    assert_eq!(v("end").section, Some(SectionId(0)));
    assert!(out.symbol("end").unwrap().is_label);
}

#[test]
fn labels_cannot_be_redefined() {
    let e = errors("x: nop\nx: nop");
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("already defined"));
    assert!(!errors("x: nop\nx = 3").is_empty());
}

#[test]
fn output_counter() {
    assert_eq!(text(".int 0\n.int .\n.int .-4"), le32(&[0, 4, 4]));
    // '.' is always the same global counter, even inside scopes
    assert_eq!(text(".byte 0\n.scope s\n.byte .\n.ends"), vec![0, 1]);
}

#[test]
fn local_labels() {
    // mov r0, 3f-3b: distance between previous and next '3' labels
    let src = "3: nop\nmov r0, 3f-3b\nnop\n3: nop\nbr 3b\n3: br 3b";
    let out = asm(src);
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let d = &out.section(".text").unwrap().data;
    assert_eq!(&d[4..8], &[1, 0, 12, 0]);
    // br 3b at 16 -> label at 12: (12 - 20)/4 = -2
    assert_eq!(&d[16..20], &[2, 0, 0xfe, 0xff]);
    // the redefined 3 at 20 -> br to itself: -1
    assert_eq!(&d[20..24], &[2, 0, 0xff, 0xff]);
    // local labels never appear as symbols
    assert!(out.symbols.iter().all(|s| s.name != "3"));
}

#[test]
fn local_label_errors() {
    assert!(errors("br 1b")[0].contains("no previous local label"));
    let e = errors("br 1f");
    assert!(e[0].contains("undefined"), "{e:?}");
}

#[test]
fn register_symbols() {
    // regpool = %r4 ; the toy back end parses the register
    let out = asm("reg1 = %r5\nadd reg1, r2\nzz = %r7\nadd zz, reg1");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(
        out.section(".text").unwrap().data,
        vec![3, 5, 2, 0, 3, 7, 5, 0]
    );
    assert_eq!(out.symbol("reg1").unwrap().register, Some(5));
    // register symbols are not numbers
    assert!(errors("reg1 = %r5\n.int reg1")[0].contains("register symbol"));
}

#[test]
fn scopes_example() {
    let src = "
.scope ala  # open scope 'ala', parent is global scope
    sym1 = 4
    sym2 = 11
    .byte sym1 # put 4
    .scope child   # open scope child, parent is 'ala'
        sym1 = 5
        .byte sym1 # put 5
        .byte sym2 # put 11, sym2 in 'ala' scope
    .ends
    .scope      # open temporary scope
        sym1 = 8
        .byte sym1 # put 8
    .ends       # close scope, now is doesn't exists
    .byte sym1 # put 4
.ends       # close scope 'ala'
";
    assert_eq!(text(src), vec![4, 5, 11, 8, 4]);
}

#[test]
fn scopes_usings_example() {
    let src = "
.scope ala
    sym2 = 4
.ends
.scope another
    sym2 = 6
    sym3 = 15
.ends
.using ala
.byte sym2
.scope ula
    .using another
    .byte sym2
.ends
.byte sym2
.scope ula
    .using ala
    .byte sym2
    .byte sym3
.ends
::ala::sym2 = 7
.byte ala::sym2
";
    assert_eq!(text(src), vec![4, 6, 4, 4, 15, 7]);
}

#[test]
fn scope_paths_example() {
    let src = "
sym1 = 9
.scope ala
    sym1 = 4
    .scope child
        sym1 = 7
    .ends
.ends
.byte ala::sym1
.byte ala::child::sym1
.scope ala
    .byte ::sym1
.ends
";
    assert_eq!(text(src), vec![4, 7, 9]);
}

#[test]
fn scoped_symbols_in_output_and_forward_refs() {
    let out = asm(".scope s\nx: .int later\n.ends\nlater: .int 0");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert!(out.symbol("s::x").is_some());
    assert_eq!(out.section(".text").unwrap().data[..4], le32(&[4])[..]);
    assert!(!errors(".ends")[0].is_empty());
}

#[test]
fn sections() {
    let out = asm(".int 1\n.data\n.byte 2\n.rodata\n.byte 3\n.text\n.int 4\n.data\n.byte 5");
    assert!(!out.has_errors());
    assert_eq!(out.section(".text").unwrap().data, le32(&[1, 4]));
    assert_eq!(out.section(".data").unwrap().data, vec![2, 5]);
    assert_eq!(out.section(".rodata").unwrap().data, vec![3]);
}

#[test]
fn label_symbols_refer_to_sections() {
    let out = asm(".data\n.byte 1\nd1: .byte 2\n.text\nt1: nop\n.int d1 - d1, t1 + 4");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let d1 = out.symbol("d1").unwrap().value.unwrap();
    assert_eq!(d1.value, 1);
    assert_eq!(
        d1.section,
        out.sections
            .iter()
            .position(|s| s.name == ".data")
            .map(|i| SectionId(i as u32))
    );
    // label + absolute stays relative -> relocation recorded
    assert_eq!(out.relocations.len(), 1);
    assert_eq!(out.relocations[0].addend, 4);
    // label - label of another section is an error
    assert!(!errors(".data\na: .byte 0\n.text\nb: .int a-b").is_empty());
    // multiplication of a relative value is an error
    assert!(!errors("b: .int b*2").is_empty());
}

#[test]
fn integer_literals() {
    assert_eq!(
        text(".quad 100, 12, 4323, 0x354, 0x3da, 0xDAB, 0246, 077, 0b10010101, 0b11011"),
        le64(&[100, 12, 4323, 0x354, 0x3da, 0xdab, 0o246, 0o77, 0b10010101, 0b11011])
    );
    assert_eq!(text(".quad 18446744073709551615"), le64(&[u64::MAX]));
    assert!(!errors(".quad 18446744073709551616").is_empty());
    assert!(!errors(".int 08").is_empty());
}

#[test]
fn character_literals() {
    assert_eq!(
        text(".byte 'a', 'b', '-', '\\n', '\\t', '\\v', '\\xab', '\\123'"),
        vec![b'a', b'b', b'-', 10, 9, 11, 0xab, 0o123]
    );
}

#[test]
fn string_escapes() {
    assert_eq!(
        text(r#".ascii "\a\b\t\n\v\f\r\\\"\'\101\x42""#),
        vec![7, 8, 9, 10, 11, 12, 13, 92, 34, 39, 0o101, 0x42]
    );
    assert_eq!(
        text(".ascii \"ala ma kota\", \"some\\n\""),
        b"ala ma kotasome\n".to_vec()
    );
}

#[test]
fn float_literals() {
    let out = asm(".double 10.2, .45, +1.5e, 100e-6, 0x1a2.4b5p5");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let want: Vec<u64> = [
        10.2f64,
        0.45,
        1.5,
        100e-6,
        (0x1a24b5 as f64) / 4096.0 * 32.0,
    ]
    .iter()
    .map(|f| f.to_bits())
    .collect();
    assert_eq!(out.section(".text").unwrap().data, le64(&want));
    // float literals are not allowed in integer expressions
    assert!(errors(".int 1.5")[0].contains("floating point"));
}

#[test]
fn operators() {
    let cases: &[(&str, i64)] = &[
        ("-5", -5),
        ("~0", -1),
        ("!0", 1),
        ("!7", 0),
        ("+3", 3),
        ("6*7", 42),
        ("-7/2", -3),
        ("-1//2", (u64::MAX / 2) as i64),
        ("-7%3", -1),
        ("-7%%3", ((-7i64 as u64) % 3) as i64),
        ("1<<4", 16),
        ("-16>>2", ((-16i64 as u64) >> 2) as i64),
        ("-16>>>2", -4),
        ("12&10", 8),
        ("12|3", 15),
        ("12^10", 6),
        ("0!0", -1),
        ("5!-1", 5),
        ("3+4", 7),
        ("3-4", -1),
        ("3==3", -1),
        ("3!=3", 0),
        ("3<>4", -1),
        ("-1<0", -1),
        ("-1<=-1", -1),
        ("-1>0", 0),
        ("0>=0", -1),
        ("-1<@0", 0),
        ("0<=@0", -1),
        ("-1>@0", -1),
        ("1>=@2", 0),
        ("2&&3", 1),
        ("0&&3", 0),
        ("0||3", 1),
        ("0||0", 0),
        ("1?2:3", 2),
        ("0?2:3", 3),
        ("0?1:0?2:3", 3),
        ("1?0?4:5:6", 5),
    ];
    for (e, want) in cases {
        let out = asm(&format!(".quad {e}"));
        assert!(
            !out.has_errors(),
            "{e}: {}",
            diag::render_all(&out.diagnostics)
        );
        assert_eq!(
            out.section(".text").unwrap().data,
            le64(&[*want as u64]),
            "{e}"
        );
    }
}

#[test]
fn operator_precedence() {
    let cases: &[(&str, i64)] = &[
        // '*' and '<<' bind tighter than '+'
        ("1+2*3", 7),
        ("1+1<<2", 5),
        // '&', '|', '+' share one level, evaluated left to right
        ("1|2+4", 7),
        ("6&3+1", 3),
        // comparisons below arithmetic, logical below comparisons
        ("1+1==2", -1),
        ("1==1&&2==2", 1),
        ("2>1?10:20", 10),
        ("(1+2)*3", 9),
        ("-2*-3", 6),
    ];
    for (e, want) in cases {
        let out = asm(&format!(".quad {e}"));
        assert!(!out.has_errors(), "{e}");
        assert_eq!(
            out.section(".text").unwrap().data,
            le64(&[*want as u64]),
            "{e}"
        );
    }
}

#[test]
fn division_by_zero_is_an_error() {
    assert!(errors(".int 1/0")[0].contains("division by zero"));
    assert!(errors(".int 1%%0")[0].contains("division by zero"));
}

#[test]
fn sixty_four_bit_arithmetic() {
    assert_eq!(
        text(".quad 0xffffffff*0x100000001"),
        le64(&[0xffffffffu64.wrapping_mul(0x100000001)])
    );
    assert_eq!(text(".quad 1<<63>>>63"), le64(&[u64::MAX]));
}

#[test]
fn forward_references() {
    let out = asm(".int later*2+1\nx = later + 1\n.int x\nlater = 20");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(out.section(".text").unwrap().data, le32(&[41, 21]));
    assert_eq!(out.symbol("x").unwrap().value, Some(Value::abs(21)));
}

#[test]
fn undefined_symbol_is_reported_at_its_use() {
    let out = asm(".int 1\n.int 2 + nothere");
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].message, "undefined symbol 'nothere'");
    assert_eq!((e[0].line, e[0].col), (2, 10));
}

#[test]
fn at_sign_and_parentheses_mark_expressions_for_back_ends() {
    // the core leaves '@' to the back end; parentheses are plain grouping
    assert_eq!(text(".int (1)"), le32(&[1]));
}

#[test]
fn statements_after_a_macro_call_follow_its_expansion() {
    // clrxasm: `.macro mm; .int 1; .endm; mm; .int 2` gives 1, 2; the rest
    // of a line waits for the frame a statement opened (macro, .endr).
    assert_eq!(
        text(".macro mm; .int 1; .endm; mm; .int 2\n.rept 2; .int 3; .endr; .int 4"),
        le32(&[1, 2, 3, 3, 4])
    );
    // A symbol defined after the call on the same line is a forward
    // reference inside the expansion.
    let out = asm(".macro mm; .int x; .endm; mm; x = 5; .int 6");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(out.section(".text").unwrap().data, le32(&[5, 6]));
}

#[test]
fn macro_arguments_split_at_every_comma() {
    // clrxasm: `m (1, 2)` passes two arguments `(1` and `2)`.
    assert_eq!(
        text(".macro m a, b\n.int \\b\n.endm\nm (1+2), 7\nm 5 (6)"),
        le32(&[7, 6])
    );
    assert!(!errors(".macro m a\n.int \\a\n.endm\nm (1, 2)").is_empty());
}

#[test]
fn forward_references_take_the_first_value() {
    // clrxasm: a forward reference is resolved as soon as it can be
    // evaluated, so later reassignments do not change it (1, 3, 3).
    assert_eq!(
        text(".int x; x=1; x=2\n.int y+z; y=1; z=2; y=5\n.int w; w=q; q=3; q=4"),
        le32(&[1, 3, 3])
    );
}
