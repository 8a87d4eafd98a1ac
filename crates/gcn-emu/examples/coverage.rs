fn main() {
    for gen in risa_gcn::ALL_GENS {
        let c = risa_gcn_emu::coverage(gen);
        let done = c.iter().filter(|x| x.1).count();
        let missing: Vec<&str> = c.iter().filter(|x| !x.1).map(|x| x.0).collect();
        println!(
            "{gen}: {done}/{} rows have handlers; missing: {}",
            c.len(),
            missing.join(" ")
        );
    }
}
