//! `risa asm --arch cayman FILE -o OUT [--format raw|elf] [--listing]`.

use std::io::Write;

/// Help text of the Cayman assembler (shown by `risa asm --arch cayman --help`).
pub const USAGE: &str = "\
risa asm --arch cayman FILE|- -o OUT [--format raw|elf] [--listing] [-I DIR]...

Assembles Cayman (TeraScale 3) source: the text `risa disasm --arch cayman`
prints, or hand-written code with labels as jump targets and clauses written
in place (see docs/cayman-syntax.md). Errors are reported as
file:line:col: error: ... with the source line and a caret; no output is
written when there are errors.

    -o OUT           output file (- for standard output)
    --format raw     the bytes of .text (default)
    --format elf     an r600 ELF32 relocatable object like clang's: .text,
                     .AMDGPU.config (from .config_reg lines), one GLOBAL FUNC
                     symbol per CF program
    --listing        print the assembled code, disassembled with offsets and
                     words, to standard output
    -I DIR           add an include directory
";

/// Run the Cayman assembler with the arguments after `asm` (`--arch cayman` included).
pub fn asm_cayman(args: &[String]) -> Result<(), String> {
    let mut output = None;
    let mut elf = false;
    let mut listing = false;
    let mut opts = risa_cayman_asm::Options::default();
    let mut opts_walk = crate::opts::Opts::new(args);
    while let Some((flag, inline)) = opts_walk.next_flag() {
        let mut value = |name: &str| opts_walk.value(inline.clone(), name);
        match flag {
            "--arch" | "-a" => {
                value("--arch")?;
            }
            "-o" | "--output" => output = Some(value("-o")?),
            "--format" | "-f" => {
                elf = match value("--format")?.as_str() {
                    "raw" => false,
                    "elf" => true,
                    f => return Err(format!("unknown format {f:?}: use raw or elf")),
                }
            }
            "--listing" => listing = true,
            "-I" => opts.include_paths.push(value("-I")?.into()),
            f => opts_walk.other(f, USAGE, "risa asm --arch cayman --help")?,
        }
    }
    let input = opts_walk.input()?;
    let output = output.ok_or("no output: give -o OUT")?;
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
