//! A toy ISA used to test the core's back-end interface.
//!
//! Every instruction is 4 bytes:
//! - `nop`            -> 00 00 00 80
//! - `mov rN, EXPR`   -> 01 N imm16 (absolute 16-bit, fixup kind 1)
//! - `br EXPR`        -> 02 00 rel16 (PC-relative in words, fixup kind 2)
//! - `add rA, rB`     -> 03 A B 00
//!
//! Registers are `r0`..`r15` or register symbols (`x = %r3`).
#![allow(dead_code)]

use risa_asm_core::*;

pub const NOP: [u8; 4] = [0, 0, 0, 0x80];

#[derive(Default)]
pub struct Toy {
    pub flags: Vec<u64>,
}

fn parse_reg(asm: &mut Assembler, op: &str) -> Option<u8> {
    let t = op.trim();
    if let Some(n) = t.strip_prefix('r').and_then(|n| n.parse::<u8>().ok()) {
        if n < 16 {
            return Some(n);
        }
    }
    if let Some(r) = asm.register_symbol(t) {
        return Some(r as u8);
    }
    asm.error(op, format!("expected register, got '{t}'"));
    None
}

impl Backend for Toy {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        let ops: Vec<&str> = st.operands().collect();
        let m = st.name.to_ascii_lowercase();
        let want = match m.as_str() {
            "nop" => 0,
            "mov" | "add" => 2,
            "br" => 1,
            _ => {
                asm.error(st.name, format!("unknown instruction '{}'", st.name));
                return;
            }
        };
        if ops.len() != want {
            asm.error(st.args, format!("'{}' takes {} operands", m, want));
            return;
        }
        let (sec, off) = (asm.current_section(), asm.offset());
        match m.as_str() {
            "nop" => asm.emit(&NOP),
            "add" => {
                let (Some(a), Some(b)) = (parse_reg(asm, ops[0]), parse_reg(asm, ops[1])) else {
                    return;
                };
                asm.emit(&[3, a, b, 0]);
            }
            "mov" => {
                let Some(r) = parse_reg(asm, ops[0]) else {
                    return;
                };
                match asm.expr_str(ops[1]) {
                    ExprResult::Value(v) => {
                        if !v.is_abs() || v.value > 0xffff {
                            asm.error(ops[1], "immediate out of range");
                        }
                        let b = (v.value as u16).to_le_bytes();
                        asm.emit(&[1, r, b[0], b[1]]);
                    }
                    ExprResult::Pending(expr) => {
                        asm.emit(&[1, r, 0, 0]);
                        asm.add_fixup(Fixup {
                            section: sec,
                            offset: off,
                            kind: 1,
                            payload: 0,
                            expr,
                        });
                    }
                    ExprResult::Error => asm.emit(&[1, r, 0, 0]),
                }
            }
            "br" => {
                asm.emit(&[2, 0, 0, 0]);
                match asm.expr_str(ops[0]) {
                    ExprResult::Value(v) => {
                        if let Err(e) = patch(2, sec, off, v, &mut asm.section_mut(sec).data) {
                            asm.error(ops[0], e);
                        }
                    }
                    ExprResult::Pending(expr) => asm.add_fixup(Fixup {
                        section: sec,
                        offset: off,
                        kind: 2,
                        payload: 0,
                        expr,
                    }),
                    ExprResult::Error => {}
                }
            }
            _ => unreachable!(),
        }
    }

    fn directive(&mut self, asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
        if name != ".toyflag" {
            return false;
        }
        let mut c = st.cursor();
        if let Some(v) = asm.abs_expr(&mut c) {
            self.flags.push(v);
        }
        true
    }

    fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
        patch(f.kind, f.section, f.offset, v, data)
    }

    fn code_fill(&self, len: usize, out: &mut Vec<u8>) {
        for _ in 0..len / 4 {
            out.extend_from_slice(&NOP);
        }
        out.resize(out.len() + len % 4, 0);
    }

    fn register_symbol(&mut self, asm: &mut Assembler, text: &str) -> Option<u64> {
        parse_reg(asm, text).map(|r| r as u64)
    }

    fn condition(&mut self, _asm: &mut Assembler, kind: &str, arg: &str) -> Option<bool> {
        (kind == "arch").then(|| arg.eq_ignore_ascii_case("toy"))
    }
}

pub fn patch(
    kind: u32,
    section: SectionId,
    offset: u64,
    v: Value,
    data: &mut [u8],
) -> Result<(), String> {
    let o = offset as usize;
    match kind {
        1 => {
            if !v.is_abs() || v.value > 0xffff {
                return Err(format!("immediate 0x{:x} out of range", v.value));
            }
            data[o + 2..o + 4].copy_from_slice(&(v.value as u16).to_le_bytes());
        }
        _ => {
            if v.section != Some(section) {
                return Err("branch target must be in the same section".into());
            }
            let d = (v.value as i64 - (offset as i64 + 4)) / 4;
            if !(-32768..=32767).contains(&d) {
                return Err(format!("branch offset {d} out of range"));
            }
            data[o + 2..o + 4].copy_from_slice(&(d as i16).to_le_bytes());
        }
    }
    Ok(())
}

pub fn asm(src: &str) -> Output {
    asm_with(src, Options::default())
}

pub fn asm_with(src: &str, opts: Options) -> Output {
    Assembler::new(opts).assemble("test.s", src, &mut Toy::default())
}

/// Assemble and require no errors and no warnings; return `.text` bytes.
pub fn text(src: &str) -> Vec<u8> {
    let out = asm(src);
    let d = diag::render_all(&out.diagnostics);
    assert!(out.diagnostics.is_empty(), "unexpected diagnostics:\n{d}");
    out.section(".text")
        .map(|s| s.data.clone())
        .unwrap_or_default()
}

pub fn errors(src: &str) -> Vec<String> {
    asm(src).errors().map(|d| d.message.clone()).collect()
}

pub fn le32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn le16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn le64(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
