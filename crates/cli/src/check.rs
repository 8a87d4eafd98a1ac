//! `risa check`: the static checks (wait-state hazards, `s_waitcnt`) of a
//! GCN code object, assembly source or raw code, like a linter; and the same
//! checks for `risa asm --check` on what it assembled.

use risa_check::cfg::Entry;
use risa_check::lint::{check_code_noting, Options};
use risa_check::object::check_elf_noting;
use risa_check::{Kind, Report};
use risa_gcn::{Dialect, Target};

/// Exit status when `--check-error` is given and there are findings (the
/// status `risa run --check-error` uses).
pub(crate) const EXIT_FINDINGS: u8 = 4;

/// `risa check`'s options.
#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    #[arg(short = 'a', long, value_name = "ARCH", long_help = crate::cli::ARCH_HELP)]
    /// The chip (optional for ELF objects and sources that name it)
    arch: Option<String>,
    /// Syntax of the findings' instructions and of an assembly source:
    /// clrx (default) or llvm (clang -S output: `;` starts a comment)
    #[arg(
        long = "syntax",
        value_name = "S",
        default_value = "clrx",
        hide_default_value = true,
        value_parser = crate::cli::dialect_parser()
    )]
    dialect: Dialect,
    /// The checks: waitcnt, hazards (default: both)
    #[arg(long = "check", value_name = "LIST", default_value = "waitcnt,hazards")]
    checks: String,
    /// Exit with status 4 when there is any finding (for CI)
    #[arg(long)]
    check_error: bool,
    /// A GCN code object (.o/.co), an assembly source (.s), or raw code
    /// (with --arch), or - for standard input
    #[arg(value_name = "FILE|-")]
    input: String,
}

/// The `--check` list, keeping the static kinds.
pub(crate) fn static_kinds(list: &str) -> Result<Vec<Kind>, String> {
    let kinds = Kind::parse_list(list).map_err(|e| e.to_string())?;
    if let Some(k) = kinds
        .iter()
        .find(|k| !matches!(k, Kind::Waitcnt | Kind::Hazard))
    {
        return Err(format!(
            "`{k}` is a run-time check: use risa run --check={k} (risa check does waitcnt and hazards)"
        ));
    }
    Ok(kinds)
}

/// `risa check` on Cayman code: the ISA guide's rules that need no
/// execution ([`risa_check::cayman::lint`]), per kernel of an object (the
/// kernel's name after the file) or over raw code from its first byte.
pub(crate) fn check_cayman(a: &CheckArgs, bytes: &[u8], kinds: &[Kind]) -> Result<u8, String> {
    let mut status = 0;
    let mut run = |file: String, code: &[u8]| {
        let r = risa_check::cayman::lint(code, kinds);
        status = status.max(print_report("risa check", &file, &r, a.check_error, false));
    };
    if risa_elf::is_elf(bytes) {
        let ks = risa_runtime::cayman::load(bytes).map_err(|e| format!("{}: {e}", a.input))?;
        let many = ks.len() > 1;
        for k in &ks {
            let file = if many {
                format!("{}({})", a.input, k.name)
            } else {
                a.input.clone()
            };
            run(file, k.text.get(k.offset as usize..).unwrap_or(&[]));
        }
    } else {
        run(a.input.clone(), bytes);
    }
    Ok(status)
}

/// Runs `risa check`; the exit status.
pub(crate) fn run(a: &CheckArgs) -> Result<u8, String> {
    let kinds = static_kinds(&a.checks)?;
    let opts = Options {
        kinds,
        dialect: a.dialect,
        xnack: false,
    };
    let cayman = a
        .arch
        .as_deref()
        .is_some_and(|n| n.eq_ignore_ascii_case("cayman"));
    let bytes = crate::read_input(&a.input)?;
    let elf32 = risa_elf::is_elf(&bytes) && bytes.get(4) == Some(&1);
    if cayman || elf32 {
        return check_cayman(a, &bytes, &opts.kinds);
    }
    let target = match a.arch.as_deref() {
        Some(n) => Some(Target::from(risa_gcn_asm::backend::arch_of(n)?)),
        None => None,
    };
    let report = if risa_elf::is_elf(&bytes) {
        let (r, notes) =
            check_elf_noting(&bytes, target, &opts).map_err(|e| format!("{}: {e}", a.input))?;
        warn_notes("risa check", &a.input, &notes);
        r
    } else if looks_like_source(&a.input, &bytes) {
        let text = String::from_utf8(bytes).map_err(|e| format!("{}: {e}", a.input))?;
        let chip = match a.arch.as_deref() {
            Some(n) => Some(risa_gcn_asm::backend::arch_of(n)?),
            None => None,
        };
        let res = assemble(chip, &a.input, &text, a.dialect);
        eprint!("{}", res.diagnostics());
        if res.output.has_errors() {
            return Err(format!("{} does not assemble", a.input));
        }
        check_assembled(&res, &opts, &a.input)?
    } else {
        let t = target.ok_or("raw code needs --arch (see risa --help)")?;
        check_raw(t, &bytes, &opts, &a.input)
    };
    Ok(print_report(
        "risa check",
        &a.input,
        &report,
        a.check_error,
        false,
    ))
}

/// Whether the input is assembly text rather than raw code.
fn looks_like_source(path: &str, bytes: &[u8]) -> bool {
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    match ext {
        "s" | "S" | "asm" => true,
        "bin" | "raw" | "co" | "o" => false,
        _ => std::str::from_utf8(bytes).is_ok(),
    }
}

fn assemble(
    chip: Option<&'static risa_gcn::Processor>,
    name: &str,
    text: &str,
    dialect: Dialect,
) -> risa_gcn_asm::Assembled {
    let llvm = dialect == Dialect::Llvm;
    let opts = risa_asm_core::Options {
        semicolon_comments: llvm,
        slash_comments: llvm,
        ..Default::default()
    };
    risa_gcn_asm::assemble_in(chip, name, text, opts, false, dialect)
}

/// Prints where the control flow could not be followed (the code after
/// such a place is not checked).
fn warn_notes(cmd: &str, file: &str, notes: &[String]) {
    for n in notes {
        eprintln!("{cmd}: warning: {file}:{n} (not followed further)");
    }
}

/// Checks what the assembler made: its code object when the source
/// describes kernels, else the `.text` section from its first byte.
pub(crate) fn check_assembled(
    res: &risa_gcn_asm::Assembled,
    opts: &Options,
    file: &str,
) -> Result<Report, String> {
    if let Ok(obj) = risa_gcn_asm::codeobj::build(res) {
        if let Ok((r, notes)) = check_elf_noting(&obj, None, opts) {
            warn_notes("risa check", file, &notes);
            return Ok(r);
        }
    }
    let chip = res
        .backend
        .chip
        .ok_or("the source names no GCN chip: give --arch")?;
    let code = res
        .output
        .section(".text")
        .map(|s| s.data.as_slice())
        .unwrap_or(&[]);
    Ok(check_raw(chip.into(), code, opts, file))
}

/// Checks raw code from its first byte.
fn check_raw(target: Target, code: &[u8], opts: &Options, file: &str) -> Report {
    let (r, notes) = check_code_noting(target, code, &[Entry::kernel(0)], opts);
    let notes: Vec<String> = notes
        .into_iter()
        .map(|(pc, why)| format!("{pc:#x}: {why}"))
        .collect();
    warn_notes("risa check", file, &notes);
    r
}

/// Prints the findings (standard output, or standard error when `to_stderr`:
/// `risa asm -o -` writes the code there) and a summary line (standard
/// error); the exit status.
pub(crate) fn print_report(
    cmd: &str,
    file: &str,
    r: &Report,
    check_error: bool,
    to_stderr: bool,
) -> u8 {
    if to_stderr {
        eprint!("{}", r.render(file));
    } else {
        print!("{}", r.render(file));
    }
    let n = r.findings().count();
    if n == 0 {
        eprintln!("{cmd}: {file}: no findings");
        return 0;
    }
    let per: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|&k| {
            let c = r.findings().filter(|(f, _)| f.kind == k).count();
            (c > 0).then(|| format!("{k}: {c}"))
        })
        .collect();
    eprintln!(
        "{cmd}: {file}: {n} finding{} ({})",
        if n == 1 { "" } else { "s" },
        per.join(", ")
    );
    if check_error {
        EXIT_FINDINGS
    } else {
        0
    }
}
