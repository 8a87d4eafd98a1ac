//! `risa run`: load a code object, run one kernel on the emulator, write the buffers.

use risa_runtime::args::{check, parse_spec, ArgValue};
use risa_runtime::gpu::{Device, Isa, LaunchError, Launched, Object, Stats};
use risa_runtime::{LaunchConfig, DEFAULT_MAX_INSTRUCTIONS, WAVE_ITEMS};
use std::path::PathBuf;

/// `risa run`'s options.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// The code object: amdhsa (GCN) or r600 (Cayman)
    #[arg(value_name = "FILE")]
    pub(crate) file: String,
    /// Kernel to run (may be left out when FILE has one)
    #[arg(long, value_name = "NAME")]
    pub(crate) kernel: Option<String>,
    /// Global size in work-items; the number of values is the work dimension
    /// the kernel sees (get_work_dim)
    #[arg(long, value_name = "X[,Y[,Z]]", required = true, value_parser = |v: &str| list::<u32>("--grid", v))]
    pub(crate) grid: Option<::std::vec::Vec<u32>>,
    /// Work-group size (default 64)
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = |v: &str| list::<u32>("--block", v))]
    pub(crate) block: Option<::std::vec::Vec<u32>>,
    /// Global offset (default 0)
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = |v: &str| list::<u64>("--offset", v))]
    pub(crate) offset: Option<::std::vec::Vec<u64>>,
    /// One per kernel argument, in order (kinds: see --help)
    #[arg(long = "arg", value_name = "SPEC", long_help = crate::cli::ARG_HELP, value_parser = parse_spec)]
    pub(crate) args: Vec<ArgValue>,
    /// Write every buffer argument to `DIR/arg<i>.bin` (i counts all
    /// arguments, scalars included); also after a fault
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Waves, instructions by category, bytes moved, wall time and emulation
    /// rate (to stderr)
    #[arg(long)]
    pub(crate) stats: bool,
    /// Every executed instruction per wave with the registers it wrote (runs
    /// on one thread); for Cayman each CF instruction, ALU group and fetch
    #[arg(long, value_name = "FILE")]
    pub(crate) trace: Option<PathBuf>,
    /// Per-wave instruction limit
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INSTRUCTIONS, value_parser = positive::<u64>)]
    pub(crate) max_instructions: u64,
    /// Host threads (default: all cores)
    #[arg(long, value_name = "N", value_parser = positive::<usize>)]
    pub(crate) threads: Option<usize>,
    /// GCN: work-items per wave, 1 to 64 (the hardware's 64 by default);
    /// with 1 each work-item runs alone up to its next barrier, the order of
    /// a CPU OpenCL (for kernels whose result depends on atomics' order)
    #[arg(long, value_name = "N", default_value_t = WAVE_ITEMS, value_parser = clap::value_parser!(u32).range(1..=i64::from(WAVE_ITEMS)), conflicts_with = "check")]
    pub(crate) wave_items: u32,
    /// Print buffer argument I after the run as TYPE (f32 default; i32 u32
    /// f64 i64 u64 hex)
    #[arg(long, value_name = "I[:TYPE]", value_parser = parse_print)]
    pub(crate) print: Vec<(usize, String)>,
    #[command(flatten)]
    pub(crate) profiling: Box<crate::profile::ProfileArgs>,
    /// Run-time checks (GCN): waitcnt (a register read before its load
    /// landed), hazards, races (LDS between waves without s_barrier; add
    /// races-global for global memory), uninit (reads of never-written
    /// registers and LDS), or all; findings go to stderr once per PC and kind
    #[arg(long, value_name = "LIST", value_parser = risa_check::run::Options::parse, conflicts_with = "trace")]
    pub(crate) check: Option<risa_check::run::Options>,
    /// With --check: exit with status 4 when there is any finding
    #[arg(long, requires = "check")]
    pub(crate) check_error: bool,
    /// Cayman: run the RAT atomics of a clang/LLVM-made object at the byte
    /// address clang-14 passes them (where the source means them) instead
    /// of as the hardware reads the index (a dword index: four times the
    /// address)
    #[arg(long)]
    pub(crate) llvm_r600_atomics: bool,
}

fn list<T: std::str::FromStr>(opt: &str, v: &str) -> Result<Vec<T>, String> {
    let parts: Vec<&str> = v.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!(
            "{opt} takes 1 to 3 comma-separated values, got {v:?}"
        ));
    }
    parts
        .iter()
        .map(|p| {
            p.trim()
                .parse::<T>()
                .map_err(|_| format!("{opt}: {p:?} is not a non-negative integer"))
        })
        .collect()
}

/// A positive integer option value.
fn positive<T: std::str::FromStr + PartialOrd + Default>(v: &str) -> Result<T, String> {
    v.parse()
        .ok()
        .filter(|n| *n > T::default())
        .ok_or_else(|| format!("{v:?} is not a positive integer"))
}

/// `--print I[:TYPE]`.
fn parse_print(v: &str) -> Result<(usize, String), String> {
    let (i, ty) = v.split_once(':').unwrap_or((v, "f32"));
    let i: usize = i
        .parse()
        .map_err(|_| format!("{i:?} is not an argument index"))?;
    if !matches!(ty, "f32" | "i32" | "u32" | "f64" | "i64" | "u64" | "hex") {
        return Err(format!("unknown type {ty:?} (f32 i32 u32 f64 i64 u64 hex)"));
    }
    Ok((i, ty.to_string()))
}

/// Writes every buffer argument to `DIR/arg<i>.bin`.
fn write_out(dir: &PathBuf, buffers: &[(usize, Vec<u8>)]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (i, bytes) in buffers {
        let p = dir.join(format!("arg{i}.bin"));
        std::fs::write(&p, bytes).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

/// Prints buffer `i` as `ty` values: the first 8 and the last 2 when long.
fn print_buffer(buffers: &[(usize, Vec<u8>)], i: usize, ty: &str) -> Result<(), String> {
    let bytes = buffers
        .iter()
        .find(|(k, _)| *k == i)
        .map(|(_, b)| b)
        .ok_or_else(|| format!("--print {i}: argument {i} is not a buffer"))?;
    let size = if ty.ends_with("64") { 8 } else { 4 };
    let vals: Vec<String> = bytes
        .chunks_exact(size)
        .map(|c| {
            let u = c.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
            match ty {
                "f32" => format!("{}", f32::from_bits(u as u32)),
                "i32" => format!("{}", u as u32 as i32),
                "u32" => format!("{u}"),
                "f64" => format!("{}", f64::from_bits(u)),
                "i64" => format!("{}", u as i64),
                "u64" => format!("{u}"),
                _ => format!("{u:#010x}"),
            }
        })
        .collect();
    let shown = if vals.len() > 10 {
        format!(
            "{}, ..., {}",
            vals[..8].join(", "),
            vals[vals.len() - 2..].join(", ")
        )
    } else {
        vals.join(", ")
    };
    println!("arg{i} = [{shown}] ({} x {ty})", vals.len());
    Ok(())
}

fn print_stats(res: &Launched) {
    match &res.stats {
        Stats::Gcn(s) => print_gcn_stats(s, res),
        Stats::Cayman(s) => print_cayman_stats(s, res),
    }
}

fn print_gcn_stats(s: &risa_gcn_emu::Stats, res: &Launched) {
    let secs = res.wall.as_secs_f64();
    let total = s.total();
    eprintln!("waves:        {}", s.waves);
    eprintln!("instructions: {total} wave-instructions");
    for (name, n) in risa_gcn_emu::program::Cat::NAMES.iter().zip(s.instructions) {
        if n > 0 {
            eprintln!("  {name:<7} {n:>14}");
        }
    }
    eprintln!(
        "memory:       {} bytes read, {} bytes written, {} bytes LDS",
        s.bytes_read, s.bytes_written, s.lds_bytes
    );
    eprintln!(
        "wall time:    {:.3} ms on {} thread(s)",
        secs * 1e3,
        res.threads
    );
    if secs > 0.0 {
        eprintln!(
            "rate:         {:.2} M wave-instructions/s ({:.2} M per thread)",
            total as f64 / secs / 1e6,
            total as f64 / secs / 1e6 / res.threads as f64
        );
    }
    if let Some(cpu) = res.cpu.filter(|c| !c.is_zero()) {
        eprintln!(
            "cpu time:     {:.3} ms ({:.2} M wave-instructions per CPU-second)",
            cpu.as_secs_f64() * 1e3,
            total as f64 / cpu.as_secs_f64() / 1e6
        );
    }
}

fn print_cayman_stats(s: &risa_cayman_emu::Stats, res: &Launched) {
    let secs = res.wall.as_secs_f64();
    eprintln!("work-groups:  {}", s.workgroups);
    eprintln!("waves:        {}", s.waves);
    eprintln!(
        "instructions: {} CF, {} ALU groups ({} ALU slots), {} fetches, {} RAT, {} LDS, {} barriers (per wave)",
        s.cf_instructions,
        s.alu_groups,
        s.alu_instructions,
        s.fetches,
        s.rat_ops,
        s.lds_ops,
        s.barriers
    );
    eprintln!(
        "wall time:    {:.3} ms on {} thread(s)",
        secs * 1e3,
        res.threads
    );
    if secs > 0.0 {
        let wave_instr = s.cf_instructions + s.alu_groups + s.fetches;
        eprintln!(
            "rate:         {:.2} M wave-instructions/s (CF + ALU groups + fetches)",
            wave_instr as f64 / secs / 1e6
        );
    }
}

/// Runs `risa run ARGS`; returns the process exit code.
pub fn run(a: &RunArgs) -> Result<u8, String> {
    let bytes = std::fs::read(&a.file).map_err(|e| format!("cannot read {}: {e}", a.file))?;
    let obj = Object::parse(&bytes).map_err(|e| format!("{}: {e}", a.file))?;
    if a.wave_items != WAVE_ITEMS && obj.isa() == Isa::Cayman {
        <crate::cli::Cli as clap::CommandFactory>::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--wave-items is for GCN: Cayman runs waves of 64 work-items only",
            )
            .exit();
    }
    let dev = Device::new(obj.isa());
    let module = dev.load(obj).map_err(|e| format!("{}: {e}", a.file))?;
    let kernel = module
        .kernel(a.kernel.as_deref())
        .map_err(|e| e.to_string())?;
    if let Some(info) = &module.kernels[kernel].args {
        check(info, &a.args).map_err(|e| format!("bad arguments: {e}"))?;
    }
    let grid = a.grid.clone().unwrap();
    let dims = grid.len() as u32;
    let pad = |v: &[u32]| -> [u32; 3] { std::array::from_fn(|i| v.get(i).copied().unwrap_or(1)) };
    let mut cfg = LaunchConfig::new(pad(&grid), dims);
    if let Some(b) = &a.block {
        cfg.block = pad(b);
    }
    if let Some(o) = &a.offset {
        cfg.offset = std::array::from_fn(|i| o.get(i).copied().unwrap_or(0));
    }
    cfg.max_instructions = a.max_instructions;
    cfg.wave_items = a.wave_items;
    cfg.llvm_r600_atomics = a.llvm_r600_atomics;
    if let Some(t) = a.threads {
        cfg.threads = t;
    }
    if let Some(path) = a.trace.clone() {
        let f = std::fs::File::create(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let f = std::sync::Mutex::new(Some(f));
        cfg.trace = Some(Box::new(move || {
            let f = f.lock().unwrap().take();
            match f {
                Some(f) => Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write + Send>,
                None => Box::new(std::io::sink()),
            }
        }));
    }
    let checks = match &a.check {
        Some(opts) => risa_runtime::check::attach(&module, kernel, opts.clone(), &mut cfg),
        None => None,
    };
    let name = &module.kernels[kernel].name;
    let session =
        crate::profile::attach(&a.profiling, a.trace.is_some(), dev.isa(), name, &mut cfg)?;
    let (kargs, placed) = dev.place_args(&a.args).map_err(|e| e.to_string())?;
    let result = dev.launch(&module, kernel, &kargs, &cfg);
    let found = checks.as_ref().is_some_and(|s| {
        let r = s.report();
        eprint!("{}", r.render(&a.file));
        !r.is_empty()
    });
    let checked = |code: u8| {
        if found && a.check_error && code == 0 {
            4
        } else {
            code
        }
    };
    let buffers: Vec<(usize, Vec<u8>)> = placed
        .iter()
        .map(|&(i, addr, len)| {
            let mut b = vec![0u8; len];
            dev.read(addr, &mut b).map(|()| (i, b))
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    match result {
        Ok(res) => {
            if let Some(dir) = &a.out {
                write_out(dir, &buffers)?;
            }
            for (i, ty) in &a.print {
                print_buffer(&buffers, *i, ty)?;
            }
            if a.stats {
                print_stats(&res);
            }
            session.map_or(Ok(()), |s| s.finish())?;
            Ok(checked(0))
        }
        Err(LaunchError::Fault(report, res)) => {
            eprintln!("risa run: {report}");
            if let Some(dir) = &a.out {
                write_out(dir, &buffers)?;
                eprintln!(
                    "risa run: buffers as they were at the fault written to {}",
                    dir.display()
                );
            }
            if let (true, Some(res)) = (a.stats, res) {
                print_stats(&res);
            }
            session.map_or(Ok(()), |s| s.finish())?;
            Ok(3)
        }
        Err(e) => Err(e.to_string()),
    }
}
