//! `risa run`: load a code object, run one kernel on the emulator, write the buffers.

use risa_runtime::args::{check, parse_spec, ArgValue};
use risa_runtime::gpu::{Device, KernelArg, LaunchError, Launched, Object, Stats};
use risa_runtime::{LaunchConfig, DEFAULT_MAX_INSTRUCTIONS};
use std::path::PathBuf;

pub const USAGE: &str = "\
risa run — run a GCN or Cayman kernel on the emulator

USAGE:
    risa run FILE [--kernel NAME] --grid X[,Y[,Z]] [--block X[,Y[,Z]]]
             [--offset X[,Y[,Z]]] [--arg SPEC]... [--out DIR] [--stats]
             [--trace FILE] [--max-instructions N] [--threads N]

    FILE is an amdhsa code object (.o or linked .co) for a GCN 1.0-1.4 chip
    (tahiti, hawaii, fiji, gfx900, ...; taken from the ELF header), or an
    r600 ELF object for Cayman (clang -target r600 -mcpu=cayman). r600
    objects carry no argument metadata: the specs alone give the kinds.
    Both run on the same runtime: each buffer is its own allocation, and
    an access outside every allocation faults.

OPTIONS:
    --kernel NAME         kernel to run (may be left out when FILE has one)
    --grid X[,Y[,Z]]      global size in work-items; the number of values is
                          the work dimension the kernel sees (get_work_dim)
    --block X[,Y[,Z]]     work-group size (default 64)
    --offset X[,Y[,Z]]    global offset (default 0)
    --arg SPEC            one per kernel argument, in order:
                            i32:V u32:V i64:V u64:V f32:V f64:V (decimal or 0x-hex)
                            buf:PATH         a global buffer holding the file's bytes
                            buf:zeros:BYTES  a zeroed global buffer
                            buf:TYPE:V,V,..  a buffer of these values (TYPE i32 u32
                                             f32 i64 u64 f64); buf:TYPE:A..B holds
                                             A, A+1, ..., B-1
                            local:BYTES      a __local pointer with that much LDS
                            img2d:W:H:FMT:DATA  a linear 2D image (GCN): FMT one of
                                             r8 r8ui r16ui r32ui r32i r32f rgba8
                                             rgba8ui rgba8i rgba16ui rgba16i rgba16f
                                             rgba32ui rgba32i rgba32f; DATA zeros,
                                             TYPE:LIST as for buf:, or a file of
                                             W*H texels (rows W texels apart); --out
                                             and --print see the texels
    --out DIR             write every buffer argument to DIR/arg<i>.bin (i counts
                          all arguments, scalars included); also after a fault
    --print I[:TYPE]      print buffer argument I after the run as TYPE (f32
                          default; i32 u32 f64 i64 u64 hex)
    --stats               waves, instructions by category, bytes moved, wall
                          time and emulation rate (to stderr)
    --trace FILE          every executed instruction per wave with the
                          registers it wrote (runs on one thread); for Cayman
                          each CF instruction, ALU group and fetch
    --max-instructions N  per-wave instruction limit (default 100000000)
    --threads N           host threads (default: all cores)

EXAMPLES:
    risa run examples/gcn/vadd-gfx900.o --grid 1000 --arg buf:f32:0..1000 \\
        --arg buf:f32:1000..2000 --arg buf:zeros:4000 --arg i32:1000 --print 2 --stats
    risa run k.o --grid 1024 --arg buf:a.bin --arg buf:zeros:4096 --out out/
";

pub(crate) struct RunArgs {
    pub(crate) file: String,
    pub(crate) kernel: Option<String>,
    pub(crate) grid: Option<Vec<u32>>,
    pub(crate) block: Option<Vec<u32>>,
    pub(crate) offset: Option<Vec<u64>>,
    pub(crate) args: Vec<ArgValue>,
    pub(crate) out: Option<PathBuf>,
    pub(crate) stats: bool,
    pub(crate) trace: Option<PathBuf>,
    pub(crate) max_instructions: u64,
    pub(crate) threads: Option<usize>,
    pub(crate) print: Vec<(usize, String)>,
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

fn parse(args: &[String]) -> Result<RunArgs, String> {
    let mut r = RunArgs {
        file: String::new(),
        kernel: None,
        grid: None,
        block: None,
        offset: None,
        args: Vec::new(),
        out: None,
        stats: false,
        trace: None,
        max_instructions: DEFAULT_MAX_INSTRUCTIONS,
        threads: None,
        print: Vec::new(),
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--kernel" => r.kernel = Some(val("--kernel")?),
            "--grid" => r.grid = Some(list("--grid", &val("--grid")?)?),
            "--block" => r.block = Some(list("--block", &val("--block")?)?),
            "--offset" => r.offset = Some(list("--offset", &val("--offset")?)?),
            "--arg" => {
                let spec = val("--arg")?;
                r.args
                    .push(parse_spec(&spec).map_err(|e| format!("--arg {e}"))?);
            }
            "--out" => r.out = Some(PathBuf::from(val("--out")?)),
            "--stats" => r.stats = true,
            "--print" => {
                let v = val("--print")?;
                let (i, ty) = v.split_once(':').unwrap_or((&v, "f32"));
                let i: usize = i
                    .parse()
                    .map_err(|_| format!("--print: {i:?} is not an argument index"))?;
                if !matches!(ty, "f32" | "i32" | "u32" | "f64" | "i64" | "u64" | "hex") {
                    return Err(format!(
                        "--print: unknown type {ty:?} (f32 i32 u32 f64 i64 u64 hex)"
                    ));
                }
                r.print.push((i, ty.to_string()));
            }
            "--trace" => r.trace = Some(PathBuf::from(val("--trace")?)),
            "--max-instructions" => {
                let v = val("--max-instructions")?;
                r.max_instructions = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("--max-instructions: {v:?} is not a positive integer")
                })?;
            }
            "--threads" => {
                let v = val("--threads")?;
                r.threads = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--threads: {v:?} is not a positive integer"))?,
                );
            }
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(format!("unknown option {s:?} (see risa run --help)"))
            }
            s => {
                if file.is_some() {
                    return Err(format!("more than one input file ({s:?})"));
                }
                file = Some(s.to_string());
            }
        }
    }
    r.file = file.ok_or("no input file (see risa run --help)")?;
    if r.grid.is_none() {
        return Err("--grid is required (the global size in work-items)".into());
    }
    Ok(r)
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

/// Kernel arguments, and (argument index, device address, length) of each
/// buffer to read back.
type Placed = (Vec<KernelArg>, Vec<(usize, u64, usize)>);

/// Places the argument values on `dev`: buffers and images become
/// allocations. Returns the kernel arguments and (argument index, device
/// address, length) of every buffer to read back.
fn place(dev: &Device, values: &[ArgValue]) -> Result<Placed, String> {
    let mut args = Vec::with_capacity(values.len());
    let mut placed = Vec::new();
    let full = || "the buffers do not fit the device's address space".to_string();
    for (i, v) in values.iter().enumerate() {
        args.push(match v {
            ArgValue::Buffer(bytes) => {
                let addr = dev.alloc(bytes.len() as u64).ok_or_else(full)?;
                dev.write(addr, bytes).map_err(|e| e.to_string())?;
                placed.push((i, addr, bytes.len()));
                KernelArg::Buffer(addr)
            }
            ArgValue::Image(img) => {
                let (obj, texels) = dev.image(img).map_err(|e| format!("argument {i}: {e}"))?;
                placed.push((i, texels, img.data.len()));
                KernelArg::Buffer(obj)
            }
            ArgValue::Local(n) => KernelArg::Local(*n),
            v => KernelArg::Bytes(v.scalar_bytes().unwrap_or_default()),
        });
    }
    Ok((args, placed))
}

/// Runs `risa run ARGS`; returns the process exit code.
pub fn run(args: &[String]) -> Result<u8, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{USAGE}");
        return Ok(0);
    }
    let a = parse(args)?;
    let bytes = std::fs::read(&a.file).map_err(|e| format!("cannot read {}: {e}", a.file))?;
    let obj = Object::parse(&bytes).map_err(|e| format!("{}: {e}", a.file))?;
    let dev = Device::new(obj.isa());
    let module = dev.load(obj).map_err(|e| format!("{}: {e}", a.file))?;
    let kernel = module.kernel(a.kernel.as_deref())?;
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
    let (kargs, placed) = place(&dev, &a.args)?;
    let result = dev.launch(&module, kernel, &kargs, &cfg);
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
            Ok(0)
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
            Ok(3)
        }
        Err(e) => Err(e.to_string()),
    }
}
