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
    let cpu0 = cpu_ns();
    let iters = 200;
    let t = Instant::now();
    for _ in 0..iters {
        for c in &codes {
            out_len += risa_cayman::disassemble(c, &opts).len();
        }
    }
    let dt = t.elapsed().as_secs_f64();
    let cpu1 = cpu_ns();
    let mb = (total * iters) as f64 / 1e6;
    println!("decode+print: {} kernels, {} bytes of code, {:.1} MB/s ({:.0} ns/instruction-dword pair) [{}]",
        codes.len(), total, mb / dt, dt * 1e9 / ((total * iters) as f64 / 8.0), out_len % 7);
    // CPU time of this thread (Linux): the rate without other processes' share
    if let (Some(a), Some(b)) = (cpu0, cpu1) {
        let cpu = (b - a) as f64 / 1e9;
        println!(
            "decode+print: {:.1} MB/s per CPU-second ({:.0}% of wall time on CPU)",
            mb / cpu,
            100.0 * cpu / dt
        );
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

/// Nanoseconds this thread spent on a CPU, from /proc/thread-self/schedstat.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
