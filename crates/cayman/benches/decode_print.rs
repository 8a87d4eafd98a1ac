//! Decode+print throughput over the fixture corpus; prints MB/s.
use std::time::Instant;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/cayman");
    let mut codes = Vec::new();
    for e in std::fs::read_dir(&dir).expect("fixtures") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "o") {
            let obj = std::fs::read(&p).expect("read");
            for k in risa_cayman::kernels(&obj).expect("kernels") {
                codes.push(k.code.to_vec());
            }
        }
    }
    let total: usize = codes.iter().map(|c| c.len()).sum();
    let opts = risa_cayman::DisasmOptions { hex: false };
    let mut out_len = 0;
    // warm up
    for c in &codes {
        out_len += risa_cayman::disassemble(c, &opts).len();
    }
    let iters = 200;
    let t = Instant::now();
    for _ in 0..iters {
        for c in &codes {
            out_len += risa_cayman::disassemble(c, &opts).len();
        }
    }
    let dt = t.elapsed().as_secs_f64();
    let mb = (total * iters) as f64 / 1e6;
    println!("decode+print: {} kernels, {} bytes of code, {:.1} MB/s ({:.0} ns/instruction-dword pair) [{}]",
        codes.len(), total, mb / dt, dt * 1e9 / ((total * iters) as f64 / 8.0), out_len % 7);
    // decode only (ALU/CF words, no printing)
    let words: Vec<u32> = codes
        .iter()
        .flat_map(|c| {
            c.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect::<Vec<_>>()
        })
        .collect();
    let t = Instant::now();
    let mut ok = 0usize;
    for _ in 0..iters {
        for p in words.chunks_exact(2) {
            ok += risa_cayman::decode_alu(p[0], p[1]).is_ok() as usize;
        }
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "decode_alu only: {:.1} MB/s [{}]",
        (words.len() * 4 * iters) as f64 / 1e6 / dt,
        ok % 7
    );
}
