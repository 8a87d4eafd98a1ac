//! `risa asm --arch cayman FILE -o OUT [--format raw|elf] [--listing]`.

use std::io::Write;

use crate::asm::AsmArgs;

/// Runs the Cayman assembler (`risa asm --arch cayman`).
pub fn asm_cayman(a: &AsmArgs) -> Result<(), String> {
    if a.llvm {
        return Err("--syntax is for GCN sources: Cayman has one syntax".into());
    }
    let elf = a.elf;
    let listing = a.listing;
    let mut opts = risa_cayman_asm::Options::default();
    opts.include_paths
        .extend(a.includes.iter().map(std::path::PathBuf::from));
    let input = a.input.clone();
    let output = a.out.clone().ok_or("no output: give -o OUT")?;
    let bytes = crate::read_input(&input)?;
    let src = String::from_utf8(bytes).map_err(|_| format!("{input}: not UTF-8 text"))?;
    let name = if input == "-" { "<stdin>" } else { &input };
    let out = risa_cayman_asm::assemble(name, &src, opts);
    eprint!("{}", out.diagnostics());
    if out.has_errors() {
        let n = out.output.errors().count();
        return Err(format!(
            "{n} error{} in {name}",
            if n == 1 { "" } else { "s" }
        ));
    }
    if elf && out.config.is_empty() {
        eprintln!(
            "risa asm: warning: no .config_reg lines: .AMDGPU.config is empty \
             (loaders read NUM_GPRS from SQ_PGM_RESOURCES_LS, register 0x288d4)"
        );
    }
    let data = if elf { out.object()? } else { out.text() };
    if output == "-" {
        std::io::stdout()
            .write_all(&data)
            .map_err(|e| format!("writing output: {e}"))?;
    } else {
        std::fs::write(&output, &data).map_err(|e| format!("{output}: {e}"))?;
    }
    if listing {
        let code = out.text();
        let mut s = String::new();
        for p in &out.programs {
            let (a, b) = (p.start as usize, (p.start + p.size) as usize);
            s.push_str(&format!("; program at .text+0x{a:x}, {} bytes\n", b - a));
            s.push_str(&risa_cayman::disassemble(
                &code[a.min(code.len())..b.min(code.len())],
                &risa_cayman::DisasmOptions { hex: true },
            ));
        }
        print!("{s}");
    }
    Ok(())
}
