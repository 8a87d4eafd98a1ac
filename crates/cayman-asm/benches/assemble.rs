//! Assembly throughput: the disassembly of every fixture kernel
//! (tests/fixtures/cayman), assembled again and again; prints lines/s and
//! MB/s of source, and checks that the bytes come back unchanged.
use std::time::Instant;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/cayman");
    let mut srcs = Vec::new();
    for e in std::fs::read_dir(&dir).expect("fixtures") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "o") {
            let obj = std::fs::read(&p).expect("read");
            for k in risa_cayman::kernels(&obj).expect("kernels") {
                let text = risa_cayman::disassemble(k.code, &Default::default());
                srcs.push((text, k.code.to_vec()));
            }
        }
    }
    let lines: usize = srcs.iter().map(|(s, _)| s.lines().count()).sum();
    let bytes: usize = srcs.iter().map(|(s, _)| s.len()).sum();
    for (s, code) in &srcs {
        let out = risa_cayman_asm::assemble("b.s", s, Default::default());
        assert!(!out.has_errors() && out.text() == *code);
    }
    let iters = 100;
    let cpu0 = cpu_ns();
    let t = Instant::now();
    let mut sink = 0;
    for _ in 0..iters {
        for (s, _) in &srcs {
            sink += risa_cayman_asm::assemble("b.s", s, Default::default())
                .text()
                .len();
        }
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "assemble: {} kernels, {lines} lines ({bytes} bytes) of source: {:.2} M lines/s, {:.1} MB/s wall [{}]",
        srcs.len(),
        (lines * iters) as f64 / dt / 1e6,
        (bytes * iters) as f64 / dt / 1e6,
        sink % 7
    );
    // CPU time of this thread (Linux): the rate without other processes' share
    if let (Some(a), Some(b)) = (cpu0, cpu_ns()) {
        let cpu = (b - a) as f64 / 1e9;
        println!(
            "assemble: {:.2} M lines/s, {:.1} MB/s per CPU-second ({:.0}% of wall time on CPU)",
            (lines * iters) as f64 / cpu / 1e6,
            (bytes * iters) as f64 / cpu / 1e6,
            100.0 * cpu / dt
        );
    }
}

/// Nanoseconds this thread spent on a CPU, from /proc/thread-self/schedstat.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
