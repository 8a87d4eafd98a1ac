//! `risa asm`: the GCN assembler command.

use std::io::Write;

use risa_asm_core::Options;

struct AsmArgs {
    arch: Option<String>,
    out: Option<String>,
    elf: bool,
    listing: bool,
    includes: Vec<String>,
    llvm: bool,
    input: String,
}

fn parse(args: &[String]) -> Result<AsmArgs, String> {
    let mut a = AsmArgs {
        arch: None,
        out: None,
        elf: false,
        listing: false,
        includes: Vec::new(),
        llvm: false,
        input: String::new(),
    };
    let mut opts_walk = crate::opts::Opts::new(args);
    while let Some((flag, inline)) = opts_walk.next_flag() {
        let mut value = |name: &str| opts_walk.value(inline.clone(), name);
        match flag {
            "--arch" | "-a" => a.arch = Some(value("--arch")?),
            "-o" | "--output" => a.out = Some(value("-o")?),
            "--format" | "-f" => {
                a.elf = match value("--format")?.as_str() {
                    "raw" | "bin" => false,
                    "elf" => true,
                    s => return Err(format!("unknown format {s:?}: use raw or elf")),
                }
            }
            "--listing" | "-l" => a.listing = true,
            "-I" | "--include" => a.includes.push(value("-I")?),
            "--syntax" => {
                a.llvm = match value("--syntax")?.as_str() {
                    "clrx" => false,
                    "llvm" => true,
                    s => return Err(format!("unknown syntax {s:?}: use clrx or llvm")),
                }
            }
            f => opts_walk.other(f, super::USAGE, "risa --help")?,
        }
    }
    a.input = opts_walk.input()?;
    Ok(a)
}

/// Runs the command; `Ok(false)` when the source had errors (already printed).
pub fn run(args: &[String]) -> Result<bool, String> {
    let a = parse(args)?;
    let gen = match &a.arch {
        Some(n) => Some(risa_gcn_asm::backend::arch_of(n)?),
        None => None,
    };
    // No default output file: `as` writes a.out where it stands, which can
    // silently replace a file of that name (a tracked one in a repository).
    // The output is written only where -o says; --listing alone only prints.
    if a.out.is_none() && !a.listing {
        return Err("no output: give -o OUT (- for standard output), or --listing".into());
    }
    // The source is read as a stream (pieces of whole lines), never whole.
    let (name, reader): (String, Box<dyn std::io::BufRead>) = if a.input == "-" {
        (
            "<stdin>".to_string(),
            Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin())),
        )
    } else {
        let f = std::fs::File::open(&a.input).map_err(|e| format!("{}: {e}", a.input))?;
        (
            a.input.clone(),
            Box::new(std::io::BufReader::with_capacity(1 << 16, f)),
        )
    };
    let opts = Options {
        include_paths: a.includes.iter().map(Into::into).collect(),
        semicolon_comments: a.llvm,
        // LLVM's assembler takes `//` comments too (risa disasm --syntax llvm
        // writes them); in CLRX's language `//` is unsigned division.
        slash_comments: a.llvm,
        ..Default::default()
    };
    let dialect = if a.llvm {
        risa_gcn::Dialect::Llvm
    } else {
        risa_gcn::Dialect::Clrx
    };
    let mut res = risa_gcn_asm::assemble_reader_in(gen, &name, reader, opts, a.listing, dialect);
    eprint!("{}", res.diagnostics());
    if res.output.has_errors() {
        let n = res.output.errors().count();
        eprintln!(
            "risa asm: {n} error{} in {name}",
            if n == 1 { "" } else { "s" }
        );
        return Ok(false);
    }
    if a.listing {
        print!("{}", res.listing_text());
    }
    if !a.elf && !res.backend.relocs.is_empty() {
        return Err(format!(
            "{name}: the code has relocations (sym@rel32@lo...): write a code object with --format elf"
        ));
    }
    if !a.elf {
        let dropped: Vec<&str> = res
            .output
            .sections
            .iter()
            .filter(|s| {
                s.name != ".text" && !s.data.is_empty() && s.name != ".risa.control_directive"
            })
            .map(|s| s.name.as_str())
            .collect();
        if !dropped.is_empty() {
            eprintln!(
                "risa asm: warning: raw output holds only .text; not written: {} (use --format elf)",
                dropped.join(", ")
            );
        }
    }
    let bytes = if a.elf {
        risa_gcn_asm::codeobj::build(&res).map_err(|e| format!("{name}: {e}"))?
    } else {
        // (Taken, not copied: the code is the biggest thing held.)
        res.output
            .sections
            .iter_mut()
            .find(|s| s.name == ".text")
            .map(|s| std::mem::take(&mut s.data))
            .unwrap_or_default()
    };
    let Some(out) = a.out.as_deref() else {
        return Ok(true);
    };
    if out == "-" {
        std::io::stdout()
            .write_all(&bytes)
            .map_err(|e| format!("writing standard output: {e}"))?;
    } else {
        std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(true)
}
