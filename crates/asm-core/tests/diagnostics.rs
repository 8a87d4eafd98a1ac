//! Diagnostics format, error recovery, expansion context, limits, fixups.

mod common;
use common::*;
use risa_asm_core::*;

#[test]
fn error_format_with_caret() {
    let out = asm("nop\n  mov r1, 3 +\n");
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    let s = e[0].to_string();
    assert_eq!(
        s,
        "test.s:2:14: error: expected expression\n  mov r1, 3 +\n             ^\n"
    );
}

#[test]
fn all_errors_are_collected() {
    let out = asm("bogus1\n.int 1\nbogus2 r1\n.int 2/0\nmov r99, 1\n.int 3");
    let lines: Vec<u32> = out.errors().map(|d| d.line).collect();
    assert_eq!(lines, vec![1, 3, 4, 5]);
    // the good statements were still assembled
    let d = &out.section(".text").unwrap().data;
    assert_eq!(&d[..4], &le32(&[1])[..]);
}

#[test]
fn warnings_have_positions() {
    let out = asm(".byte 1, 300");
    let w: Vec<_> = out.warnings().collect();
    assert_eq!(w.len(), 1);
    assert_eq!((w[0].line, w[0].col), (1, 10));
    assert!(w[0].message.contains("truncated"));
}

#[test]
fn errors_inside_macros_name_the_expansion_site() {
    let src = ".macro m x\n  .int \\x / 0\n.endm\n\n  m 5\n";
    let out = asm(src);
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    // the position is the line in the macro body
    assert_eq!(e[0].line, 2);
    assert_eq!(e[0].notes.len(), 1);
    assert_eq!(e[0].notes[0].line, 5);
    assert_eq!(e[0].notes[0].col, 3);
    assert!(e[0].notes[0].message.contains("macro 'm'"));
    let s = e[0].to_string();
    assert!(
        s.contains("test.s:5:3: note: in expansion of macro 'm'"),
        "{s}"
    );
}

#[test]
fn nested_expansion_notes() {
    let src = ".macro inner\n.err\n.endm\n.macro outer\ninner\n.endm\n.rept 1\nouter\n.endr";
    let e: Vec<_> = asm(src).errors().cloned().collect();
    assert_eq!(e.len(), 1);
    let msgs: Vec<_> = e[0]
        .notes
        .iter()
        .map(|n| (n.line, n.message.as_str()))
        .collect();
    assert_eq!(
        msgs,
        vec![
            (5, "in expansion of macro 'inner'"),
            (8, "in expansion of macro 'outer'"),
            (7, "in repetition started here")
        ]
    );
}

#[test]
fn errors_in_included_files() {
    let mut o = Options::default();
    o.files.insert("inc.s".into(), b"\n.int 1/0\n".to_vec());
    let out = asm_with(".byte 0\n.include \"inc.s\"", o);
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].file.as_str(), e[0].line), ("inc.s", 2));
    assert_eq!(e[0].notes[0].file, "test.s");
    assert_eq!(e[0].notes[0].line, 2);
    assert!(e[0].notes[0].message.contains("included"));
}

#[test]
fn fixup_errors_point_at_the_source() {
    let out = asm("  mov r1, big\n.int 0\nbig = 0x10000");
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("out of range"));
    assert_eq!((e[0].line, e[0].col), (1, 11));
    assert_eq!(e[0].source_line, "  mov r1, big");
}

#[test]
fn forward_branches_and_immediates() {
    let out = asm("br end\nmov r2, val\nnop\nend: br end\nval = 0x1234");
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    let d = &out.section(".text").unwrap().data;
    assert_eq!(&d[0..4], &[2, 0, 2, 0]);
    assert_eq!(&d[4..8], &[1, 2, 0x34, 0x12]);
    assert_eq!(&d[12..16], &[2, 0, 0xff, 0xff]);
}

#[test]
fn branch_out_of_range() {
    let out = asm("br far\n.skip 0x40000\nfar: nop");
    let e: Vec<_> = out.errors().collect();
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("out of range"));
    assert_eq!((e[0].line, e[0].col), (1, 4));
}

#[test]
fn circular_symbols_are_errors_not_hangs() {
    let out = asm("a = b + 1\nb = a + 1\n.int a");
    assert!(out.has_errors());
    let out = asm("x = x + 1\n.int x");
    assert!(out.has_errors());
}

#[test]
fn endless_repetition_is_stopped() {
    let o = Options {
        max_lines: 100_000,
        ..Default::default()
    };
    let out = asm_with(".while 1\n.endr", o.clone());
    assert!(out.errors().any(|d| d.message.contains("limit")));
    let out = asm_with(".while 1\nnop\n.endr", o.clone());
    assert!(out.errors().any(|d| d.message.contains("limit")));
    let out = asm_with(".rept 1000000000\n.rept 1000000000\n.endr\n.endr", o);
    assert!(out.has_errors());
}

#[test]
fn recursive_macros_are_limited() {
    let out = asm(".macro r\nr\n.endm\nr");
    assert!(out
        .errors()
        .any(|d| d.message.contains("nested too deeply")));
    let mut o = Options::default();
    o.files
        .insert("self.s".into(), b".include \"self.s\"\n".to_vec());
    let out = asm_with(".include \"self.s\"", o);
    assert!(out.errors().any(|d| d.message.contains("too deep")));
}

#[test]
fn deep_expressions_do_not_overflow_the_stack() {
    let src = format!(".int {}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(asm(&src)
        .errors()
        .any(|d| d.message.contains("nested too deeply")));
    let src = format!(".int {}1", "-".repeat(100_000));
    assert!(asm(&src).has_errors());
    let src = format!(".int {}0", "1+".repeat(100_000));
    let out = asm(&src);
    assert!(!out.has_errors());
    assert_eq!(out.section(".text").unwrap().data, le32(&[100_000]));
}

#[test]
fn huge_sizes_are_bounded() {
    let o = Options {
        max_section_size: 1 << 20,
        ..Default::default()
    };
    assert!(asm_with(".fill 0x7fffffffffffffff, 8, 1", o.clone()).has_errors());
    assert!(asm_with(".skip 1<<62", o.clone()).has_errors());
    assert!(asm_with(".org 1<<40", o.clone()).has_errors());
    assert!(asm_with(".byte 1\n.p2align 63", o).has_errors());
}

#[test]
fn unterminated_constructs() {
    assert!(errors(".macro m\n.byte 1")[0].contains("missing '.endm'"));
    assert!(errors(".ascii \"abc")[0].contains("unterminated"));
    assert!(!errors(".byte 'a").is_empty());
    // an unterminated block comment just runs to the end
    assert_eq!(text(".byte 1 /* no end\n.byte 2"), vec![1]);
}

#[test]
fn diagnostics_limit() {
    let o = Options {
        max_diagnostics: 5,
        ..Default::default()
    };
    let out = asm_with(".rept 100\n.err\n.endr", o);
    assert_eq!(out.diagnostics.len(), 5);
}

#[test]
fn invalid_utf8_and_control_bytes() {
    let src = String::from_utf8_lossy(b"\xff\xfe.byte 1\n\x00\x01\n.int \x7f").into_owned();
    let out = asm(&src);
    assert!(out.has_errors());
}

#[test]
fn fuzz_regressions() {
    // non-ASCII text in an alternate-mode macro body
    let _ = asm(".altmacro\n.macro m\nlo\u{fffd}\n.endm\nm");
}
