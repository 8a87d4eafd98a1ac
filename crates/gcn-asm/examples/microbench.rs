//! Times assembling one line repeated (for profiling): `microbench "LINE"`.
fn main() {
    let line = std::env::args()
        .nth(1)
        .unwrap_or("v_add_f32 v0, v1, v2".into());
    let n = 200_000;
    let src = format!("{line}\n").repeat(n);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        let a = risa_gcn_asm::assemble_in(
            Some(risa_gcn::Processor::of_gen(risa_gcn::Gen::Gcn14)),
            "m.s",
            &src,
            Default::default(),
            false,
            risa_gcn::Dialect::Llvm,
        );
        assert!(!a.output.has_errors(), "{}", a.diagnostics());
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{line:40} {:6.0} ns/line", best / n as f64 * 1e9);
}
