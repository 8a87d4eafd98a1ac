//! Assemble a file and disassemble the result: `asm FILE`.
fn main() {
    let p = std::env::args().nth(1).expect("file");
    let src = std::fs::read_to_string(&p).expect("read");
    let out = risa_cayman_asm::assemble(&p, &src, Default::default());
    eprint!("{}", out.diagnostics());
    let code = out.text();
    print!(
        "{}",
        risa_cayman::disassemble(&code, &risa_cayman::DisasmOptions { hex: true })
    );
}
