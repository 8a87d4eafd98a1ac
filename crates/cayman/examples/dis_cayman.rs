//! Disassemble an r600 ELF object or raw file: `dis FILE [--hex] [--raw]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[1]).expect("read");
    let opts = risa_cayman::DisasmOptions {
        hex: args.iter().any(|a| a == "--hex"),
    };
    if args.iter().any(|a| a == "--raw") {
        print!("{}", risa_cayman::disassemble(&data, &opts));
    } else {
        match risa_cayman::disassemble_object(&data, &opts) {
            Ok(s) => print!("{s}"),
            Err(e) => eprintln!("error: {e}"),
        }
    }
}
