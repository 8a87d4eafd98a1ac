//! Assembles each line of standard input alone and prints its words or its
//! first diagnostic: `cargo run -p risa-gcn-asm --example asm_lines -- gcn1.2 [llvm]`.
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let gen =
        risa_gcn::Gen::parse(args.get(1).map_or("gcn1.2", |s| s.as_str())).expect("generation");
    let dialect = if args.get(2).is_some_and(|d| d == "llvm") {
        risa_gcn::Dialect::Llvm
    } else {
        risa_gcn::Dialect::Clrx
    };
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let a = risa_gcn_asm::assemble_in(
            Some(risa_gcn::Processor::of_gen(gen)),
            "l.s",
            &line,
            Default::default(),
            false,
            dialect,
        );
        let words: Vec<String> = a.code().iter().map(|w| format!("{w:08x}")).collect();
        let diag = a
            .output
            .diagnostics
            .first()
            .map(|d| format!("{:?}: {}", d.severity, d.message))
            .unwrap_or_default();
        if a.output.has_errors() {
            println!("{line:<60} => ERR {diag}");
        } else {
            println!("{line:<60} => {} {diag}", words.join(" "));
        }
    }
}
