//! Print the programs and diagnostics of an assembly: `progs FILE`.
fn main() {
    let p = std::env::args().nth(1).expect("file");
    let src = std::fs::read_to_string(&p).expect("read");
    let out = risa_cayman_asm::assemble(&p, &src, Default::default());
    eprint!("{}", out.diagnostics());
    println!("{:?}", out.programs);
}
