//! `risa`: assembler, disassembler and emulator for AMD GPU machine code.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use risa_gcn::{listing, Dialect, Processor};

mod asm;
mod asm_cayman;
mod opts;
mod run;
mod run_cayman;

pub(crate) const USAGE: &str = "\
risa — AMD GPU machine code in software (GCN 1.0–1.4, Cayman)

USAGE:
    risa asm --arch ARCH [-o OUT] [--format raw|elf] [--listing] [--syntax S] FILE|-
    risa disasm --arch ARCH [--syntax clrx|llvm] [--hex] [--lines] FILE|-
    risa asm --arch cayman FILE|- -o OUT [--format raw|elf] [--listing]
    risa run FILE [--kernel NAME] --grid X[,Y[,Z]] [--block ...] [--arg SPEC]... [--out DIR] [--stats]

COMMANDS:
    run       Run a GCN kernel (amdhsa .o/.co) or a Cayman one (r600 .o) on the
              emulator; see `risa run --help`.
    asm       Assemble GCN source in CLRX or LLVM syntax (both are accepted:
              `_e64` suffixes, `neg()`, `vmcnt(0) & lgkmcnt(0)`, ...), with the
              CLRX assembler language (expressions, labels, macros, .rept,
              .if, .include ...). Writes the code section as raw little-endian
              words, or an AMDHSA code object (--format elf). Every error is
              reported as file:line:col with the line and a caret.
              Cayman: risa asm --arch cayman (see docs/cayman-syntax.md).
    disasm    Disassemble raw little-endian dwords or an ELF code object
              (detected by its magic), with the object's symbols and the
              branch targets as labels. Words that do not decode are printed
              as `.int 0x...` and decoding goes on. A relocatable code object
              (clang -c; GCN v4/v5 or Cayman) is printed whole: kernel
              descriptors, metadata, symbols, relocations, data; `risa asm
              --format elf` (with the same --syntax; --arch cayman for
              Cayman) makes the same object from the text, so it can be
              edited and run again.

ASM OPTIONS:
    --arch ARCH      as for disasm, below (.gpu/.arch in the source may set it)
    -o OUT           output file (default a.out; - for standard output)
    --format F       raw (default): the .text section; elf: a code object
    --listing        print offset, words and source of every instruction
    -I DIR           add an include directory for .include/.incbin
    --syntax S       clrx (default: `;` separates statements) or llvm (`;`
                     starts a comment, as in clang -S output); instructions
                     of both dialects are accepted either way

DISASM OPTIONS:
    --arch ARCH      a chip: gfx600-gfx602, gfx700-gfx705, gfx801-gfx810,
                     gfx900, gfx902, gfx904, gfx906 (Vega 20: dot/fmac
                     instructions), gfx909, gfx90c, or a code name (tahiti,
                     hawaii, fiji, polaris10, vega20, ...), or a generation
                     (gcn1.0 gcn1.1 gcn1.2 gcn1.4 gcn1.4.1, si ci vi gfx9);
                     cayman for TeraScale 3 (r600 ELF32 objects are detected)
                     (optional for ELF objects: the chip in e_flags is used)
    --syntax S       clrx (default) or llvm (text llvm-mc accepts)
    --hex            show each instruction's offset and words
    --lines          read text from FILE/stdin: one instruction per line as hex
                     dwords (`7e000280 3f800000` or `0x7e000280, 0x3f800000`);
                     print exactly one line per input line
    -h, --help       this help

EXAMPLES:
    risa asm --arch gfx900 -o kernel.bin --listing kernel.s
    risa asm --syntax llvm --format elf -o k.o k.s        # clang -S output
    risa disasm --arch gfx900 examples/gcn/vadd-gfx900.o
    risa disasm K.o > K.s && risa asm --format elf K.s -o K2.o   # same object
    echo 'bf810000' | risa disasm --arch fiji --lines -
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("asm") => match asm(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("risa asm: error: {e}");
                ExitCode::from(1)
            }
        },
        Some("disasm") => match disasm(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("risa disasm: error: {e}");
                ExitCode::from(1)
            }
        },
        Some("run") => match run::run(&args[1..]) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                eprintln!("risa run: error: {e}");
                ExitCode::from(1)
            }
        },
        Some("-h" | "--help" | "help") | None => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            println!("risa {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("risa: unknown command {other:?}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `risa asm`: Cayman has its own back end; every other arch (and a
/// source that names its GPU with `.gpu`/`.arch`) is GCN. `Ok(false)`: the
/// source had errors (already reported).
fn asm(args: &[String]) -> Result<bool, String> {
    let arch = args
        .iter()
        .position(|a| a == "--arch" || a == "-a")
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| {
            args.iter()
                .find_map(|a| a.strip_prefix("--arch=").map(str::to_string))
        });
    match arch {
        Some(a) if a.eq_ignore_ascii_case("cayman") => asm_cayman::asm_cayman(args).map(|()| true),
        _ => asm::run(args),
    }
}

struct DisasmArgs {
    arch: Option<String>,
    dialect: Dialect,
    hex: bool,
    lines: bool,
    input: String,
}

fn parse_disasm(args: &[String]) -> Result<DisasmArgs, String> {
    let mut a = DisasmArgs {
        arch: None,
        dialect: Dialect::Clrx,
        hex: false,
        lines: false,
        input: String::new(),
    };
    let mut opts_walk = crate::opts::Opts::new(args);
    while let Some((flag, inline)) = opts_walk.next_flag() {
        let mut value = |name: &str| opts_walk.value(inline.clone(), name);
        match flag {
            "--arch" | "-a" => a.arch = Some(value("--arch")?),
            "--syntax" => {
                a.dialect = match value("--syntax")?.as_str() {
                    "clrx" => Dialect::Clrx,
                    "llvm" => Dialect::Llvm,
                    s => return Err(format!("unknown syntax {s:?}: use clrx or llvm")),
                }
            }
            "--hex" => a.hex = true,
            "--lines" => a.lines = true,
            f => opts_walk.other(f, USAGE, "risa --help")?,
        }
    }
    a.input = opts_walk.input()?;
    Ok(a)
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

/// The bytes read at a time by [`stream_raw`].
const PIECE: usize = 1 << 20;

/// `risa disasm` of a raw code file in two passes over it (labels, then
/// text), a piece at a time: memory for one piece, the labels and the
/// exactness check's caches, whatever the size of the file.
fn stream_raw(
    chip: &'static Processor,
    path: &str,
    opts: listing::Options,
    out: &mut impl Write,
) -> Result<(), String> {
    let open = || std::fs::File::open(path).map_err(|e| format!("{path}: {e}"));
    let mut buf = vec![0u8; PIECE];
    let mut read_pieces = |f: &mut dyn FnMut(&[u8]) -> Result<(), String>| -> Result<(), String> {
        let mut file = open()?;
        loop {
            let n = file.read(&mut buf).map_err(|e| format!("{path}: {e}"))?;
            if n == 0 {
                return Ok(());
            }
            f(&buf[..n])?;
        }
    };
    let mut scan = listing::Labels::new(chip, 0, opts.dialect, BTreeMap::new());
    read_pieces(&mut |p| {
        scan.feed(p);
        Ok(())
    })?;
    let labels = scan.finish();
    let check = risa_gcn_asm::disasm::Exactness::new(chip, opts.dialect);
    let exact = |i: &risa_gcn::Instr, t: &str| check.is_exact(i, t);
    let none = BTreeMap::new();
    let mut lister = listing::Lister::new(chip, 0, opts, &labels, &none, &exact);
    let mut text = Vec::with_capacity(PIECE * 12);
    let w = |e: std::io::Error| format!("writing output: {e}");
    read_pieces(&mut |p| {
        lister.feed(p, &mut text);
        out.write_all(&text).map_err(w)?;
        text.clear();
        Ok(())
    })?;
    lister.finish(&mut text);
    out.write_all(&text).map_err(w)
}

fn disasm(args: &[String]) -> Result<(), String> {
    let a = parse_disasm(args)?;
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
