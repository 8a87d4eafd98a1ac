//! Assembly throughput: the disassembly of every fixture kernel
//! (tests/fixtures/cayman), assembled again and again (criterion); then the
//! established figures: lines/s and MB/s of source, wall and per
//! CPU-second. Checks that the bytes come back unchanged.

use risa_bench::Throughput;

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
    let mut sink = 0;
    let mut c = risa_bench::criterion();
    let p = risa_bench::measure(
        &mut c,
        "cayman-asm",
        "assemble_fixture_listings",
        Throughput::BytesDecimal(bytes as u64),
        || {
            for (s, _) in &srcs {
                sink += risa_cayman_asm::assemble("b.s", s, Default::default())
                    .text()
                    .len();
            }
        },
    );
    if p.ran() {
        println!(
            "assemble: {} kernels, {lines} lines ({bytes} bytes) of source: {:.2} M lines/s, {:.1} MB/s wall [{}]",
            srcs.len(),
            p.per_s_mean(lines as f64),
            p.per_s_mean(bytes as f64),
            sink % 7
        );
        // CPU time of this thread (Linux): the rate without other processes' share
        if let Some(cpu) = p.cpu {
            println!(
                "assemble: {:.2} M lines/s, {:.1} MB/s per CPU-second ({:.0}% of wall time on CPU)",
                p.per_cpu_s(lines as f64),
                p.per_cpu_s(bytes as f64),
                100.0 * cpu / p.mean_wall
            );
        }
    }
    c.final_summary();
}
