//! Decodes hex dwords from the command line: `dis gcn1.2 0x7e000280 0x3f800000`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let gen = risa_gcn::Gen::parse(&args[1]).expect("arch");
    let words: Vec<u32> = args[2..]
        .iter()
        .map(|a| u32::from_str_radix(a.trim_start_matches("0x"), 16).unwrap())
        .collect();
    match risa_gcn::decode(gen, &words) {
        Ok(i) => println!(
            "{}\n{}",
            risa_gcn::print(&i, risa_gcn::Dialect::Llvm),
            risa_gcn::print(&i, risa_gcn::Dialect::Clrx)
        ),
        Err(e) => println!("error: {e}"),
    }
}
