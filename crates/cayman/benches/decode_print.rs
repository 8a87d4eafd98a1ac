//! Decode+print throughput over the fixture corpus (criterion), followed by
//! the established figures: MB/s wall and per CPU-second, ns per
//! instruction-dword pair, and decode_alu alone.

use risa_bench::Throughput;

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
    let mut c = risa_bench::criterion();
    let p = risa_bench::measure(
        &mut c,
        "cayman",
        "decode_print_fixtures",
        Throughput::BytesDecimal(total as u64),
        || {
            for c in &codes {
                out_len += risa_cayman::disassemble(c, &opts).len();
            }
        },
    );
    if p.ran() {
        println!(
            "decode+print: {} kernels, {} bytes of code, {:.1} MB/s ({:.0} ns/instruction-dword pair) [{}]",
            codes.len(),
            total,
            p.per_s_mean(total as f64),
            p.mean_wall * 1e9 / (total as f64 / 8.0),
            out_len % 7
        );
        // CPU time of this thread (Linux): the rate without other processes' share
        if let Some(cpu) = p.cpu {
            println!(
                "decode+print: {:.1} MB/s per CPU-second ({:.0}% of wall time on CPU)",
                p.per_cpu_s(total as f64),
                100.0 * cpu / p.mean_wall
            );
        }
    }
    // decode only (ALU/CF words, no printing)
    let words: Vec<u32> = codes
        .iter()
        .flat_map(|c| {
            c.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut ok = 0usize;
    let p = risa_bench::measure(
        &mut c,
        "cayman",
        "decode_alu_fixtures",
        Throughput::BytesDecimal(words.len() as u64 * 4),
        || {
            for p in words.chunks_exact(2) {
                ok += risa_cayman::decode_alu(p[0], p[1]).is_ok() as usize;
            }
        },
    );
    if p.ran() {
        println!(
            "decode_alu only: {:.1} MB/s [{}]",
            p.per_s_mean(words.len() as f64 * 4.0),
            ok % 7
        );
    }
    c.final_summary();
}
