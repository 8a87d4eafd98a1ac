//! Any program disassembles to text that assembles back to the same bytes:
//! random CF programs (with clause addresses inside the code, so ALU and
//! fetch clauses, cut groups, truncated literals, undecodable words and
//! unreached words all occur) → disassemble → assemble with
//! `.vliw_checks off` (random groups break the VLIW rules) → identical.

use risa_rng::Rng;

fn program(r: &mut Rng) -> Vec<u8> {
    let n = 2 + (r.next_u32() % 64) as usize;
    let mut bytes = Vec::with_capacity(n * 4 + 3);
    for k in 0..n {
        let mut w = r.next_u32();
        match (k % 2, r.next_u32() % 4) {
            (0, 0) => w &= 0xc000_001f, // small ADDR: clauses inside the code
            (1, 1) => w &= 0x83ff_ffff, // small CF_INST
            (1, 2) => w &= 0xffc0_7fff, // OP2 ALU with a small opcode
            _ => {}
        }
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    // sometimes a trailing partial dword
    for _ in 0..(r.next_u32() % 8).saturating_sub(4) {
        bytes.push(r.next_u32() as u8);
    }
    bytes
}

#[test]
fn random_programs_reassemble_identically() {
    let mut r = Rng::from_state(0x1234_5678_9abc_def1);
    let mut alu_lines = 0;
    for case in 0..4000 {
        let bytes = program(&mut r);
        let text = risa_cayman::disassemble(&bytes, &Default::default());
        alu_lines += text
            .lines()
            .filter(|l| l.contains(": ") && l.starts_with("   "))
            .count();
        let src = format!(".vliw_checks off\n{text}");
        let out = risa_cayman_asm::assemble("r.s", &src, Default::default());
        assert!(
            !out.has_errors(),
            "case {case}:\n{}\n{text}",
            out.diagnostics()
        );
        assert_eq!(out.text(), bytes, "case {case}:\n{text}");
    }
    // the generator reaches clause bodies, not only CF words
    assert!(alu_lines > 5000, "{alu_lines}");
}
