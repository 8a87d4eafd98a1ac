//! `risa asm`: the GCN assembler command.

use std::io::Write;

use clap::builder::TypedValueParser as _;
use risa_asm_core::Options;

/// `risa asm`'s options (GCN and Cayman).
#[derive(clap::Args)]
pub(crate) struct AsmArgs {
    #[arg(short = 'a', long, value_name = "ARCH", long_help = crate::cli::ARCH_HELP)]
    /// The chip, generation or cayman (.gpu/.arch in the source may set it)
    pub(crate) arch: Option<String>,
    /// Output file (- for standard output); required unless --listing is given (no a.out is written by default)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub(crate) out: Option<String>,
    /// raw (default): the .text section; elf: a code object
    #[arg(
        short = 'f',
        long = "format",
        value_name = "F",
        action = clap::ArgAction::Set,
        default_value = "raw",
        hide_default_value = true,
        value_parser = clap::builder::PossibleValuesParser::new(["raw", "bin", "elf"])
            .map(|s| s == "elf")
    )]
    pub(crate) elf: bool,
    /// Print offset, words and source of every instruction
    #[arg(short = 'l', long)]
    pub(crate) listing: bool,
    /// Add an include directory for .include/.incbin
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub(crate) includes: Vec<String>,
    /// clrx (default: `;` separates statements) or llvm (`;` starts a
    /// comment, as in clang -S output); instructions of both dialects are
    /// accepted either way
    #[arg(
        long = "syntax",
        value_name = "S",
        action = clap::ArgAction::Set,
        default_value = "clrx",
        hide_default_value = true,
        value_parser = clap::builder::PossibleValuesParser::new(["clrx", "llvm"])
            .map(|s| s == "llvm")
    )]
    pub(crate) llvm: bool,
    /// Check what was assembled for missing s_waitcnt and wait states, as
    /// `risa check` does (LIST: waitcnt,hazards, the default); findings go
    /// to standard error
    #[arg(
        long = "check",
        value_name = "LIST",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "waitcnt,hazards"
    )]
    pub(crate) check: Option<String>,
    /// With --check: exit with status 4 when there is any finding
    #[arg(long, requires = "check")]
    pub(crate) check_error: bool,
    /// Threads that encode instructions ahead of the assembler (default:
    /// one per idle CPU, by the load average); the assembler's own thread
    /// mostly takes their results. 1: assemble on one thread. The output
    /// is the same.
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// The source file, or - for standard input
    #[arg(value_name = "FILE|-")]
    pub(crate) input: String,
}

/// The CPUs not busy (at least 1): the CPUs less the busy ones, rounded
/// up (a CPU partly busy still helps). Busy: the smaller of the load
/// average of the last minute and the processes running now besides this
/// one (Linux's `/proc/loadavg`; elsewhere all CPUs are idle). The average
/// lags (a build that just ended, the run before this one in a loop); the
/// present count misses processes between bursts. Threads only pay where
/// cores are idle: parallel assembly spends more CPU time in all (the
/// workers read their blocks as an assembler would; the assembler still
/// reads every line that is not plain), which on busy cores is taken from
/// its own wall time. The present count also catches a process in a
/// burst of a few microseconds (a shell, a kernel worker, the `time` that
/// started this one), which the average of a loop of runs then confirms:
/// up to three looks a millisecond apart, the least busy one counts.
fn idle_cpus() -> usize {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut busy = f64::MAX;
    for look in 0..3 {
        if look > 0 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let now = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| busy_cpus(&s))
            .unwrap_or(0.0);
        busy = busy.min(now);
        if busy < 1.0 {
            break;
        }
    }
    ((cpus as f64 - busy).ceil().max(1.0) as usize).min(cpus)
}

/// The busy CPUs by a `/proc/loadavg` line (`0.52 0.58 0.59 2/467 1234`:
/// averages of 1, 5 and 15 minutes, running/all processes, the last id):
/// the smaller of the first average and the running processes less this
/// one.
fn busy_cpus(loadavg: &str) -> Option<f64> {
    let mut fields = loadavg.split_whitespace();
    let avg = fields.next()?.parse::<f64>().ok()?;
    let running = fields
        .nth(2)
        .and_then(|f| f.split('/').next()?.parse::<f64>().ok());
    Some(running.map_or(avg, |r| avg.min((r - 1.0).max(0.0))))
}

/// Runs the command; the exit status: 1 when the source had errors
/// (already printed), 4 for `--check` findings with `--check-error`.
pub fn run(a: &AsmArgs) -> Result<u8, String> {
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
    // The source is read as a stream (pieces of whole lines), never whole;
    // a file is also read by the threads that encode ahead.
    let (name, mut res) = if a.input == "-" {
        let reader = Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin()));
        let name = "<stdin>".to_string();
        let res = risa_gcn_asm::assemble_reader_in(gen, &name, reader, opts, a.listing, dialect);
        (name, res)
    } else {
        let jobs = a.jobs.unwrap_or_else(idle_cpus);
        // The assembler's thread takes whole runs of the workers' lines and
        // encodes blocks itself while it waits for a worker's: N - 1
        // workers beside it.
        let workers = jobs.saturating_sub(1);
        let threads = risa_gcn_asm::parallel::Threads::new(workers);
        let path = std::path::Path::new(&a.input);
        let res =
            risa_gcn_asm::parallel::assemble_file_in(gen, path, opts, a.listing, dialect, threads)
                .map_err(|e| format!("{}: {e}", a.input))?;
        (a.input.clone(), res)
    };
    eprint!("{}", res.diagnostics());
    if res.output.has_errors() {
        let n = res.output.errors().count();
        eprintln!(
            "risa asm: {n} error{} in {name}",
            if n == 1 { "" } else { "s" }
        );
        return Ok(crate::cli::EXIT_INPUT);
    }
    if a.listing {
        print!("{}", res.listing_text());
    }
    let checked = match &a.check {
        Some(list) => {
            let opts = risa_check::lint::Options {
                kinds: crate::check::static_kinds(list)?,
                dialect,
                xnack: false,
            };
            let r = crate::check::check_assembled(&res, &opts, &name)?;
            crate::check::print_report("risa asm", &name, &r, a.check_error, true)
        }
        None => 0,
    };
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
        return Ok(checked);
    };
    if out == "-" {
        std::io::stdout()
            .write_all(&bytes)
            .map_err(|e| format!("writing standard output: {e}"))?;
    } else {
        std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::busy_cpus;

    #[test]
    fn busy_cpus_takes_the_smaller_of_average_and_running() {
        // A loop of runs: the average says one CPU busy, only this one runs.
        assert_eq!(busy_cpus("1.52 0.98 0.71 1/467 1234\n"), Some(0.0));
        // A build: the average lags behind three processes running now.
        assert_eq!(busy_cpus("0.40 0.98 0.71 4/467 1234\n"), Some(0.4));
        assert_eq!(busy_cpus("2.50 0.98 0.71 3/467 1234\n"), Some(2.0));
        // No running count: the average.
        assert_eq!(busy_cpus("0.75"), Some(0.75));
        assert_eq!(busy_cpus("x 1 2 1/2 3"), None);
    }
}
