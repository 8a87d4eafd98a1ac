//! The command line's shape: commands, their options and help texts, all
//! declared once for clap (usage, `--help`, `--version`, typo suggestions
//! and shell completions are generated from these definitions).
//!
//! Exit codes: 0 success, 1 an error in the input (a source with errors, an
//! unreadable or malformed file, a kernel that does not match its
//! arguments), 2 bad usage (unknown command or option, a malformed option
//! value; clap reports these), 3 the guest program faulted (`risa run`).

use clap::{Parser, Subcommand};

use crate::asm::AsmArgs;
use crate::check::CheckArgs;
use crate::run::RunArgs;
use crate::DisasmArgs;

/// Exit code for an error in the input.
pub(crate) const EXIT_INPUT: u8 = 1;

const ABOUT: &str = "risa — AMD GPU machine code in software (GCN 1.0–1.4, Cayman)";

const AFTER_HELP: &str = "\
EXAMPLES:
    risa asm --arch gfx900 -o kernel.bin --listing kernel.s
    risa asm --syntax llvm --format elf -o k.o k.s        # clang -S output
    risa disasm --arch gfx900 examples/gcn/vadd-gfx900.o
    risa disasm K.o > K.s && risa asm --format elf K.s -o K2.o   # same object
    echo 'bf810000' | risa disasm --arch fiji --lines -

EXIT STATUS:
    0  success
    1  an error in the input (source errors, unreadable or malformed files)
    2  bad usage (unknown command or option, malformed option value)
    3  the kernel faulted on the emulator (risa run)
    4  findings of risa check, asm --check or run --check, with --check-error";

/// `risa`: assembler, disassembler and emulator for AMD GPU machine code.
#[derive(Parser)]
#[command(
    name = "risa",
    version,
    about = ABOUT,
    after_help = AFTER_HELP,
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true,
    max_term_width = 100
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The commands.
#[derive(Subcommand)]
pub(crate) enum Command {
    /// Assemble GCN source in CLRX or LLVM syntax, or Cayman source
    #[command(
        long_about = ASM_LONG_ABOUT,
        after_help = ASM_AFTER_HELP
    )]
    Asm(AsmArgs),
    /// Disassemble raw little-endian dwords or an ELF code object
    #[command(long_about = DISASM_LONG_ABOUT, after_help = DISASM_AFTER_HELP)]
    Disasm(DisasmArgs),
    /// Run a GCN kernel (amdhsa .o/.co) or a Cayman one (r600 .o) on the emulator
    #[command(long_about = RUN_LONG_ABOUT, after_help = RUN_AFTER_HELP)]
    Run(RunArgs),
    /// Check GCN code for missing s_waitcnt and wait states, without running it
    #[command(long_about = CHECK_LONG_ABOUT, after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Register the risa OpenCL platform (ICD) with the OpenCL ICD loader
    #[command(after_help = OPENCL_AFTER_HELP)]
    Opencl {
        #[command(subcommand)]
        action: OpenclAction,
    },
    /// Print a shell completion script (e.g. `risa completions bash > /etc/bash_completion.d/risa`)
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
}

/// What `risa opencl` does.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum OpenclAction {
    /// Write DIR/risa.icd naming the librisa_opencl.so built next to this binary
    Install {
        /// The ICD loader's vendor directory
        #[arg(default_value = "/etc/OpenCL/vendors")]
        dir: std::path::PathBuf,
    },
    /// Print that library's path
    Path,
}

const OPENCL_AFTER_HELP: &str = "\
Build the library first: cargo build --release -p risa-opencl.
For a user install: risa opencl install ~/.local/share/risa-icd, then
export OCL_ICD_VENDORS=~/.local/share/risa-icd (ocl-icd reads only that
directory then). RISA_OPENCL_DEVICES=cayman,gfx900 restricts the devices.";

const ASM_LONG_ABOUT: &str = "\
Assemble GCN source in CLRX or LLVM syntax (both are accepted: `_e64`
suffixes, `neg()`, `vmcnt(0) & lgkmcnt(0)`, ...), with the CLRX assembler
language (expressions, labels, macros, .rept, .if, .include ...). Writes the
code section as raw little-endian words, or an AMDHSA code object (--format
elf). Every error is reported as file:line:col with the line and a caret.

Cayman (TeraScale 3): risa asm --arch cayman FILE|- -o OUT [--format raw|elf]
[--listing] [-I DIR]... assembles the text `risa disasm --arch cayman` prints,
or hand-written code with labels as jump targets and clauses written in place
(see docs/cayman-syntax.md); -o is required, --format elf writes an r600
ELF32 relocatable object like clang's (.text, .AMDGPU.config from
.config_reg lines, one GLOBAL FUNC symbol per CF program), and --listing
prints the assembled code disassembled with offsets and words. No output is
written when there are errors.";

const ASM_AFTER_HELP: &str = "\
EXAMPLES:
    risa asm --arch gfx900 -o kernel.bin --listing kernel.s
    risa asm --syntax llvm --format elf -o k.o k.s        # clang -S output
    risa asm --format elf -o dbl.o examples/gcn/dbl-clrx.s
    risa asm --arch cayman examples/cayman/loop_sum.s --format elf -o loop_sum.o";

const DISASM_LONG_ABOUT: &str = "\
Disassemble raw little-endian dwords or an ELF code object (detected by its
magic), with the object's symbols and the branch targets as labels. Words
that do not decode are printed as `.int 0x...` and decoding goes on. A
relocatable code object (clang -c; GCN v4/v5 or Cayman) is printed whole:
kernel descriptors, metadata, symbols, relocations, data; `risa asm --format
elf` (with the same --syntax; --arch cayman for Cayman) makes the same object
from the text, so it can be edited and run again.";

const DISASM_AFTER_HELP: &str = "\
EXAMPLES:
    risa disasm --arch gfx900 examples/gcn/vadd-gfx900.o
    risa disasm --arch tahiti --syntax llvm --hex code.bin
    risa disasm K.o > K.s && risa asm --format elf K.s -o K2.o   # same object
    echo 'bf810000' | risa disasm --arch fiji --lines -";

const RUN_LONG_ABOUT: &str = "\
Run a GCN or Cayman kernel on the emulator.

FILE is an amdhsa code object (.o or linked .co) for a GCN 1.0-1.4 chip
(tahiti, hawaii, fiji, gfx900, ...; taken from the ELF header), or an r600
ELF object for Cayman (clang -target r600 -mcpu=cayman). r600 objects carry
no argument metadata: the specs alone give the kinds. Both run on the same
runtime: each buffer is its own allocation, and an access outside every
allocation faults.";

const RUN_AFTER_HELP: &str = "\
EXAMPLES:
    risa run examples/gcn/vadd-gfx900.o --grid 1000 --arg buf:f32:0..1000 \\
        --arg buf:f32:1000..2000 --arg buf:zeros:4000 --arg i32:1000 --print 2 --stats
    risa run k.o --grid 1024 --arg buf:a.bin --arg buf:zeros:4096 --out out/
    risa run k.o --grid 1024 --arg ... --profile --profile-html p.html --timeline t.json";

const CHECK_LONG_ABOUT: &str = "\
Check GCN code statically, like a linter: every path of each kernel's and
function's control-flow graph is followed (branches, loops; a call returns
with nothing outstanding, an indirect jump ends a path).

  waitcnt  a register read (or overwritten) while a load that writes it may
           be outstanding: no s_waitcnt covers it on some path, with the
           generation's counters (vmcnt/expcnt/lgkmcnt widths; SMEM and mixed
           lgkm kinds return out of order, so only lgkmcnt(0) waits for
           them); a VGPR overwritten before an export (or, on GCN 1.0, a
           store) read it; LDS or global writes outstanding at s_barrier or
           a function's return; an L1 invalidate before the atomic it
           follows completed
  hazards  fewer wait states than the ISA guide's table of manually
           inserted wait states requires (s_nop N counts N+1, every other
           instruction one), on the worst path

Each finding is printed once per (PC, kind) as file:pc: kind: message, with
the instruction in the chosen syntax. FILE is an amdhsa code object, an
assembly source (assembled first; --syntax llvm for clang -S output) or raw
code with --arch. Cayman programs have no such rules: a note says so.";

const CHECK_AFTER_HELP: &str = "\
EXAMPLES:
    risa check k.o
    risa check --syntax llvm --check=hazards k.s
    risa check --check-error k.o || echo 'needs waits'
    risa asm --syntax llvm --format elf --check k.s -o k.o

EXIT STATUS:
    0  checked (findings are printed, not an error, unless --check-error)
    1  an error in the input
    2  bad usage
    4  findings with --check-error";

/// The value parser of `--syntax clrx|llvm` where it selects a printer
/// dialect (`disasm`, `check`).
pub(crate) fn dialect_parser() -> impl clap::builder::TypedValueParser<Value = risa_gcn::Dialect> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["clrx", "llvm"]).map(|s| {
        if s == "llvm" {
            risa_gcn::Dialect::Llvm
        } else {
            risa_gcn::Dialect::Clrx
        }
    })
}

/// The help text of `--arch` (shared by `asm` and `disasm`).
pub(crate) const ARCH_HELP: &str = "\
A chip: gfx600-gfx602, gfx700-gfx705, gfx801-gfx810, gfx900, gfx902, gfx904,
gfx906 (Vega 20: dot/fmac instructions), gfx909, gfx90c, or a code name
(tahiti, hawaii, fiji, polaris10, vega20, ...), or a generation (gcn1.0 gcn1.1
gcn1.2 gcn1.4 gcn1.4.1, si ci vi gfx9); cayman for TeraScale 3 (r600 ELF32
objects are detected). Optional for ELF objects (the chip in e_flags is used)
and for sources that name it with .gpu/.arch";

/// The help text of `risa run --arg`.
pub(crate) const ARG_HELP: &str = "\
One per kernel argument, in order:
  i32:V u32:V i64:V u64:V f32:V f64:V (decimal or 0x-hex)
  buf:PATH         a global buffer holding the file's bytes
  buf:zeros:BYTES  a zeroed global buffer
  buf:TYPE:V,V,..  a buffer of these values (TYPE i32 u32 f32 i64 u64 f64);
                   buf:TYPE:A..B holds A, A+1, ..., B-1
  local:BYTES      a __local pointer with that much LDS
  img2d:W:H:FMT:DATA  a linear 2D image (GCN): FMT one of r8 r8ui r16ui
                   r32ui r32i r32f rgba8 rgba8ui rgba8i rgba16ui rgba16i
                   rgba16f rgba32ui rgba32i rgba32f; DATA zeros, TYPE:LIST as
                   for buf:, or a file of W*H texels (rows W texels apart);
                   --out and --print see the texels";

/// Writes the completion script for `shell` to standard output.
pub(crate) fn print_completions(shell: clap_complete::Shell) {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "risa", &mut std::io::stdout());
}

#[cfg(test)]
mod tests {
    /// clap's own consistency checks of the definitions (they would
    /// otherwise only fire when a user reaches the broken command).
    #[test]
    fn definitions_are_consistent() {
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
