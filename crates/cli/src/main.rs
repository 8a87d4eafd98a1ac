//! `risa`: assembler, disassembler and emulator for AMD GPU machine code.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Seek, Write};
use std::process::ExitCode;

use risa_gcn::{listing, Dialect, Processor};

mod asm;
mod asm_cayman;
mod check;
mod cli;
mod opencl;
mod profile;
mod run;

fn main() -> ExitCode {
    let cli = <cli::Cli as clap::Parser>::parse();
    // Each command gives its exit code, or an error to report as its own.
    let (name, result) = match cli.command {
        cli::Command::Asm(a) => ("asm", asm(&a)),
        cli::Command::Disasm(a) => ("disasm", disasm(&a).map(|()| 0)),
        cli::Command::Run(a) => ("run", run::run(&a)),
        cli::Command::Check(a) => ("check", check::run(&a)),
        cli::Command::Opencl { action } => ("opencl", opencl::run(&action).map(|()| 0)),
        cli::Command::Completions { shell } => {
            cli::print_completions(shell);
            return ExitCode::SUCCESS;
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("risa {name}: error: {e}");
            ExitCode::from(cli::EXIT_INPUT)
        }
    }
}

/// `risa asm`: Cayman has its own back end; every other arch (and a
/// source that names its GPU with `.gpu`/`.arch`) is GCN. The exit status
/// (the source's errors are already reported).
fn asm(a: &asm::AsmArgs) -> Result<u8, String> {
    match &a.arch {
        Some(arch) if arch.eq_ignore_ascii_case("cayman") => {
            asm_cayman::asm_cayman(a)?;
            if a.check.is_some() {
                eprintln!(
                    "risa asm: --check on Cayman output: run risa check on the object                      (risa check --arch cayman for raw code)"
                );
            }
            Ok(0)
        }
        _ => asm::run(a),
    }
}

/// `risa disasm`'s options.
#[derive(clap::Args)]
pub(crate) struct DisasmArgs {
    #[arg(short = 'a', long, value_name = "ARCH", long_help = cli::ARCH_HELP)]
    /// The chip, generation or cayman (optional for ELF objects)
    arch: Option<String>,
    /// Syntax: clrx (default) or llvm (text llvm-mc accepts)
    #[arg(
        long = "syntax",
        value_name = "S",
        default_value = "clrx",
        hide_default_value = true,
        value_parser = crate::cli::dialect_parser()
    )]
    dialect: Dialect,
    /// Show each instruction's offset and words
    #[arg(long)]
    hex: bool,
    /// Read text: one instruction per line as hex dwords (`7e000280 3f800000`
    /// or `0x7e000280, 0x3f800000`); print exactly one line per input line
    #[arg(long)]
    lines: bool,
    /// The input file, or - for standard input
    #[arg(value_name = "FILE|-")]
    input: String,
}

fn parse_gen(name: &str) -> Result<&'static Processor, String> {
    if name.eq_ignore_ascii_case("cayman") {
        return Err("--lines is not supported for cayman yet".into());
    }
    Processor::parse(name).ok_or_else(|| {
        format!(
            "unknown architecture {name:?}; accepted: cayman, {}",
            Processor::names_hint()
        )
    })
}

/// The GCN chip an amdgcn ELF's e_flags names.
fn gen_of_elf_flags(flags: u32) -> Option<&'static Processor> {
    Processor::by_mach(flags & 0xff)
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok(v)
    } else {
        std::fs::read(path).map_err(|e| format!("{path}: {e}"))
    }
}

/// Invalid Cayman programs (instruction groups that break the VLIW4 rules
/// the assembler checks) are printed as they are: when the text does not
/// assemble with the checks on but does with them off, it starts with
/// `.vliw_checks off`, so it reassembles to the same bytes, and a warning
/// names the first broken rule.
fn vliw_checks_off_if_needed(text: String, warnings: &mut Vec<String>) -> String {
    let first = risa_cayman_asm::assemble("<disassembly>", &text, Default::default());
    if !first.has_errors() {
        return text;
    }
    let off =
        format!(".vliw_checks off  ; the code breaks VLIW4 group rules (see the warnings)\n{text}");
    if risa_cayman_asm::assemble("<disassembly>", &off, Default::default()).has_errors() {
        return text;
    }
    let errors: Vec<String> = first
        .output
        .errors()
        .take(3)
        .map(|d| d.message.clone())
        .collect();
    warnings.push(format!(
        "the program breaks VLIW4 group rules ({}); written with .vliw_checks off",
        errors.join("; ")
    ));
    off
}

/// `risa disasm` of a raw code file: a first pass over it for the labels,
/// then the text listed on all cores a chunk at a time and written in order
/// (`risa_gcn_asm::disasm::disassemble_parallel`): memory for the labels,
/// the exactness check's caches and a few chunks, whatever the size of the file.
fn stream_raw(
    chip: &'static Processor,
    path: &str,
    opts: listing::Options,
    out: &mut impl Write,
) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
    let file = std::sync::Mutex::new(file);
    let read_at = |at: u64, buf: &mut [u8]| {
        let mut f = file.lock().map_err(|_| format!("{path}: read failed"))?;
        f.seek(std::io::SeekFrom::Start(at))
            .and_then(|_| f.read_exact(buf))
            .map_err(|e| format!("{path}: {e}"))
    };
    let write = |text: &str| {
        out.write_all(text.as_bytes())
            .map_err(|e| format!("writing output: {e}"))
    };
    risa_gcn_asm::disasm::disassemble_parallel(chip, opts, len, &read_at, write)
}

fn disasm(a: &DisasmArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let w = |e: std::io::Error| format!("writing output: {e}");
    if a.lines {
        let gen = parse_gen(a.arch.as_deref().ok_or("--lines needs --arch")?)?;
        let reader: Box<dyn BufRead> = if a.input == "-" {
            Box::new(std::io::BufReader::new(std::io::stdin()))
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(&a.input).map_err(|e| format!("{}: {e}", a.input))?,
            ))
        };
        for line in reader.lines() {
            let line = line.map_err(|e| format!("reading {}: {e}", a.input))?;
            match listing::disassemble_line(gen, &line, a.dialect) {
                Ok(t) => writeln!(out, "{t}").map_err(w)?,
                Err(e) => writeln!(out, "error: {e}").map_err(w)?,
            }
        }
        return out.flush().map_err(w);
    }
    if a.input != "-"
        && a.arch
            .as_deref()
            .is_some_and(|n| !n.eq_ignore_ascii_case("cayman"))
    {
        let mut magic = [0u8; 4];
        let n = std::fs::File::open(&a.input)
            .and_then(|mut f| f.read(&mut magic))
            .map_err(|e| format!("{}: {e}", a.input))?;
        if !risa_elf::is_elf(&magic[..n]) {
            // Raw code from a file: streamed, in memory for one piece.
            let gen = parse_gen(a.arch.as_deref().unwrap_or_default())?;
            let opts = listing::Options {
                dialect: a.dialect,
                hex: a.hex,
            };
            stream_raw(gen, &a.input, opts, &mut out)?;
            return out.flush().map_err(w);
        }
    }
    let bytes = read_input(&a.input)?;
    // r600 objects are ELF32; amdgcn code objects are ELF64.
    let elf32 = risa_elf::is_elf(&bytes) && bytes.get(4) == Some(&1);
    let cayman = a
        .arch
        .as_deref()
        .is_some_and(|n| n.eq_ignore_ascii_case("cayman"));
    if cayman || (a.arch.is_none() && elf32) {
        let opts = risa_cayman::DisasmOptions { hex: a.hex };
        let text = if risa_elf::is_elf(&bytes) {
            let (text, mut warnings) = risa_cayman::disassemble_object_warn(&bytes, &opts)
                .map_err(|e| format!("{}: {e}", a.input))?;
            let text = vliw_checks_off_if_needed(text, &mut warnings);
            for wn in &warnings {
                eprintln!("risa disasm: warning: {}: {wn}", a.input);
            }
            text
        } else {
            let mut warnings = Vec::new();
            let text =
                vliw_checks_off_if_needed(risa_cayman::disassemble(&bytes, &opts), &mut warnings);
            for wn in &warnings {
                eprintln!("risa disasm: warning: {}: {wn}", a.input);
            }
            text
        };
        out.write_all(text.as_bytes()).map_err(w)?;
        return out.flush().map_err(w);
    }
    let opts = listing::Options {
        dialect: a.dialect,
        hex: a.hex,
    };
    if risa_elf::is_elf(&bytes) {
        let elf = risa_elf::Elf::parse(&bytes).map_err(|e| format!("{}: {e}", a.input))?;
        let gen = match &a.arch {
            Some(n) => parse_gen(n)?,
            None => gen_of_elf_flags(elf.flags).ok_or_else(|| {
                format!(
                    "{}: e_flags {:#x} names no GCN chip risa knows; give --arch",
                    a.input, elf.flags
                )
            })?,
        };
        if risa_gcn_asm::objdis::is_relocatable_code_object(&elf) {
            // A whole source that `risa asm --format elf` makes the object from again.
            let src = risa_gcn_asm::objdis::disassemble_object(&bytes, gen, opts)
                .map_err(|e| format!("{}: {e}", a.input))?;
            for wn in &src.warnings {
                eprintln!("risa disasm: warning: {}: {wn}", a.input);
            }
            out.write_all(src.text.as_bytes()).map_err(w)?;
            return out.flush().map_err(w);
        }
        let mut any = false;
        for s in elf.sections.iter().filter(|s| s.is_exec()) {
            any = true;
            let syms: BTreeMap<u64, String> = elf
                .symbols_in(s.index)
                .into_iter()
                .filter(|sym| sym.sym_type != risa_elf::STT_OBJECT)
                .map(|sym| {
                    // Relocatable objects give offsets, linked ones addresses.
                    let off = if elf.kind == 1 {
                        sym.value
                    } else {
                        sym.value.wrapping_sub(s.addr)
                    };
                    (off, sym.name.clone())
                })
                .collect();
            writeln!(
                out,
                "{} section {} ({} bytes, {})",
                listing::comment(a.dialect),
                s.name,
                s.data.len(),
                gen
            )
            .map_err(w)?;
            out.write_all(
                risa_gcn_asm::disasm::disassemble(gen, s.data, 0, &syms, opts).as_bytes(),
            )
            .map_err(w)?;
        }
        if !any {
            return Err(format!(
                "{}: the ELF file has no executable section",
                a.input
            ));
        }
    } else {
        let gen = parse_gen(
            a.arch
                .as_deref()
                .ok_or("raw code needs --arch (see risa --help)")?,
        )?;
        out.write_all(
            risa_gcn_asm::disasm::disassemble(gen, &bytes, 0, &BTreeMap::new(), opts).as_bytes(),
        )
        .map_err(w)?;
    }
    out.flush().map_err(w)
}
