//! Experiment: random programs → disassemble → assemble (VLIW checks off) → compare.
fn main() {
    let mut x: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 16) as u32
    };
    let (mut ok, mut bad) = (0, 0);
    for it in 0..20000 {
        let n = 2 + (next() % 64) as usize;
        let mut bytes = Vec::new();
        for k in 0..n {
            let mut w = next();
            let r = next() % 4;
            if k % 2 == 0 && r == 0 {
                w &= 0xc000_001f; // small ADDR: clauses inside the code
            } else if k % 2 == 1 && r == 1 {
                w &= 0x83ff_ffff; // small CF_INST
            } else if k % 2 == 1 && r == 2 {
                w &= 0xffc0_7fff; // ALU: OP2 with a small opcode
            }
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        let text = risa_cayman::disassemble(&bytes, &Default::default());
        let src = format!(".vliw_checks off\n{text}");
        let out = risa_cayman_asm::assemble("r.s", &src, Default::default());
        if out.has_errors() || out.text() != bytes {
            bad += 1;
            if bad <= 3 {
                println!("--- case {it}: errors:\n{}", out.diagnostics());
                let got = out.text();
                let first = got.iter().zip(&bytes).position(|(a, b)| a != b);
                println!(
                    "len got {} want {}, first diff {:?}\n{text}",
                    got.len(),
                    bytes.len(),
                    first
                );
            }
        } else {
            ok += 1;
        }
    }
    println!("ok {ok} bad {bad}");
}
