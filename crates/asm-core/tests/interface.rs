//! The back-end interface beyond the toy ISA basics.

mod common;
use risa_asm_core::*;

/// A back end that records what the core hands it.
#[derive(Default)]
struct Recorder {
    seen: Vec<(String, Vec<String>)>,
    finished_symbols: Vec<String>,
    deferred: Option<Pos>,
}

impl Backend for Recorder {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        self.seen.push((
            st.name.to_string(),
            st.operands().map(str::to_string).collect(),
        ));
        if st.name == "warnlater" {
            self.deferred = Some(asm.pos(st.args));
        }
        // a cursor-driven parse: NAME [ '[' EXPR ':' EXPR ']' ]
        if st.name == "range" {
            let mut c = st.cursor();
            let _ = c.ident();
            if c.eat(b'[') {
                let a = asm.abs_expr(&mut c);
                if !c.eat(b':') {
                    return asm.error(c.rest(), "expected ':'");
                }
                let b = asm.abs_expr(&mut c);
                if !c.eat(b']') {
                    return asm.error(c.rest(), "expected ']'");
                }
                if let (Some(a), Some(b)) = (a, b) {
                    asm.emit(&[a as u8, b as u8]);
                }
            }
        }
    }
    fn directive(&mut self, asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
        match name {
            // override a core pseudo-op
            ".text" => {
                let id = asm.add_section(".mytext", SectionKind::Code);
                asm.switch_section(id);
                true
            }
            ".kernel" => {
                let n = st.args.trim();
                let id = asm.add_section(&format!(".text.{n}"), SectionKind::Code);
                asm.switch_section(id);
                asm.set_symbol(n, asm.here()).unwrap();
                true
            }
            ".config" => {
                let id = asm.add_section(".config", SectionKind::Config);
                asm.switch_section(id);
                true
            }
            _ => false,
        }
    }
    fn finish(&mut self, asm: &mut Assembler) {
        self.finished_symbols = asm.symbol_infos().into_iter().map(|s| s.name).collect();
        if let Some(p) = self.deferred {
            asm.warning_at(p, "deferred warning");
        }
    }
}

#[test]
fn statements_operands_and_hooks() {
    let mut r = Recorder::default();
    let src =
        "lbl: op1 a, b(1,2), \"x,y\"\n.text\nwarnlater  here\nrange s[1:2+3]\n.kernel k1\n op2";
    let out = Assembler::new(Options::default()).assemble("i.s", src, &mut r);
    assert!(!out.has_errors(), "{}", diag::render_all(&out.diagnostics));
    assert_eq!(
        r.seen[0],
        (
            "op1".to_string(),
            vec!["a".into(), "b(1,2)".into(), "\"x,y\"".into()]
        )
    );
    assert_eq!(out.section(".mytext").unwrap().data, vec![1, 5]);
    assert!(out.section(".text.k1").is_some());
    assert!(r.finished_symbols.contains(&"k1".to_string()));
    assert!(r.finished_symbols.contains(&"lbl".to_string()));
    let w: Vec<_> = out.warnings().collect();
    assert_eq!(w.len(), 1);
    assert_eq!(
        (w[0].line, w[0].col, w[0].message.as_str()),
        (3, 12, "deferred warning")
    );
}

#[test]
fn config_sections_reject_data() {
    let mut r = Recorder::default();
    let out = Assembler::new(Options::default()).assemble("i.s", ".config\n.byte 1", &mut r);
    assert!(out.errors().any(|d| d.message.contains("cannot put data")));
}

#[test]
fn cursor_and_float_literals_for_operands() {
    let mut c = Cursor::new("  -1.5h, 0x1p4, 7");
    let f = c.float_literal().unwrap();
    assert_eq!(
        (f.neg, f.suffix, f.to_f16_bits()),
        (true, Some(b'h'), 0xbe00)
    );
    assert!(c.eat(b','));
    assert_eq!(c.float_literal().unwrap().to_f32_bits(), 16f32.to_bits());
    assert!(c.eat(b','));
    assert!(c.float_literal().is_none());
    assert_eq!(c.until_comma(), "7");
}

#[test]
fn expression_results_for_back_ends() {
    let mut a = Assembler::new(Options::default());
    assert!(matches!(a.expr_str("fwd + 1"), ExprResult::Pending(_)));
    assert!(matches!(a.expr_str("1 +"), ExprResult::Error));
    assert!(matches!(
        a.expr_str("(1 << 40) >> 38"),
        ExprResult::Value(Value {
            section: None,
            value: 4
        })
    ));
    a.set_symbol("k", Value::abs(5)).unwrap();
    assert_eq!(a.symbol_value("k"), Some(Value::abs(5)));
}

#[test]
fn assembler_is_reusable_for_inspection() {
    let mut a = Assembler::new(Options::default());
    a.run("x.s", ".data\nd: .byte 1,2\n", &mut NoIsa);
    assert_eq!(a.error_count(), 0);
    let id = a.find_section(".data").unwrap();
    assert_eq!(a.section(id).data, vec![1, 2]);
    let out = a.into_output();
    assert_eq!(out.symbol("d").unwrap().value.unwrap().section, Some(id));
}

/// A back end that claims lines starting with `x:` (which the core would
/// otherwise read as a label) and emits the byte after the colon.
struct Claimer;
impl Backend for Claimer {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        asm.error(st.name, "unexpected instruction");
    }
    fn claim(&mut self, asm: &mut Assembler, text: &str) -> bool {
        let Some(rest) = text.strip_prefix("x:") else {
            return false;
        };
        match rest.trim().parse::<u8>() {
            Ok(v) => asm.emit(&[v]),
            Err(_) => asm.error(rest.trim(), "expected a byte"),
        }
        true
    }
}

#[test]
fn claim_takes_label_like_statements_after_real_labels() {
    let src = "x: 7\nlab: x: 9\nx: bad\n";
    let out = Assembler::new(Options::default()).assemble("c.s", src, &mut Claimer);
    assert_eq!(out.section(".text").unwrap().data, [7, 9]);
    // the real label was still defined, at the second byte
    assert_eq!(out.symbol("lab").unwrap().value.unwrap().value, 1);
    let errs: Vec<String> = out.errors().map(|d| d.to_string()).collect();
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].starts_with("c.s:3:4: error: expected a byte"),
        "{errs:?}"
    );
}

#[test]
fn semicolon_comments_option() {
    let src = ".byte 1 ; .byte 2\n.byte 3 ; comment /* not a block\n.byte 4\n";
    // default: ';' separates statements
    let out = Assembler::new(Options::default()).assemble("s.s", ".byte 1 ; .byte 2", &mut NoIsa);
    assert_eq!(out.section(".text").unwrap().data, [1, 2]);
    let opts = Options {
        semicolon_comments: true,
        ..Options::default()
    };
    let out = Assembler::new(opts).assemble("s.s", src, &mut NoIsa);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    assert_eq!(out.section(".text").unwrap().data, [1, 3, 4]);
}

/// A back end that buffers its bytes and emits them only at the end of the
/// source; `j SYM` leaves a byte for a fixup inside the buffered bytes. Since
/// `end_of_source` runs before fixups are applied, the fixup finds its byte.
#[derive(Default)]
struct Buffering {
    pending: Vec<u8>,
}
impl Backend for Buffering {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        match st.name {
            "b" => self.pending.push(st.args.parse().unwrap_or(0)),
            "j" => {
                let offset = asm.offset() + self.pending.len() as u64;
                self.pending.push(0);
                match asm.expr_str(st.args) {
                    ExprResult::Pending(expr) => asm.add_fixup(Fixup {
                        section: asm.current_section(),
                        offset,
                        kind: 0,
                        payload: 0,
                        expr,
                    }),
                    _ => asm.error(st.args, "want a forward reference"),
                }
            }
            _ => asm.error(st.name, "unknown"),
        }
    }
    fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
        let b = data
            .get_mut(f.offset as usize)
            .ok_or("fixup outside the data")?;
        *b = v.value as u8;
        Ok(())
    }
    fn end_of_source(&mut self, asm: &mut Assembler) {
        let p = std::mem::take(&mut self.pending);
        asm.emit(&p);
    }
}

#[test]
fn end_of_source_runs_before_fixups() {
    let src = "b 7\nj later\nb 8\nlater = 9\n";
    let out = Assembler::new(Options::default()).assemble("e.s", src, &mut Buffering::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    assert_eq!(out.section(".text").unwrap().data, [7, 9, 8]);
}
