//! `risa run` for Cayman: r600 ELF objects (clang `-target r600 -mcpu=cayman`)
//! on the Cayman clause emulator, with the same arguments, outputs and exit
//! codes as the GCN path.
//!
//! Buffer arguments are laid out one after another (256-byte aligned) in the
//! global pool the kernel sees as RAT0 and vertex buffer 1; a pointer
//! argument is the buffer's byte offset in that pool (ABI-NOTES).

use crate::run::{print_buffer, write_out, RunArgs};
use risa_cayman_emu::{run, Arg, Dispatch, Fault, Kernel, Pool, Stats, TraceSink};
use risa_runtime::args::ArgValue;
use std::time::Instant;

/// Alignment of each buffer in the pool (a RAT/vertex buffer cache line is
/// far smaller; 256 keeps addresses readable in traces and faults).
const BUFFER_ALIGN: usize = 256;

/// Runs `a` on the Cayman emulator; returns the process exit code.
pub fn run_object(a: &RunArgs, bytes: &[u8]) -> Result<u8, String> {
    let kernels = risa_cayman_emu::load(bytes).map_err(|e| format!("{}: {e}", a.file))?;
    let kernel = pick(&kernels, a.kernel.as_deref(), &a.file)?;
    let (args, mut pool_bytes, placed) = lay_out(&a.args)?;
    if pool_bytes.len() > u32::MAX as usize {
        return Err("the buffers do not fit the 32-bit address space of r600 pointers".into());
    }
    // An empty pool still has to exist for the kernel's fetch constants.
    if pool_bytes.is_empty() {
        pool_bytes.resize(4, 0);
    }
    let pool = Pool::from_bytes(&pool_bytes);
    let grid = a.grid.clone().unwrap_or_default();
    let pad = |v: &[u32]| -> [u32; 3] { std::array::from_fn(|i| v.get(i).copied().unwrap_or(1)) };
    let mut d = Dispatch::linear(1, 64);
    d.grid = pad(&grid);
    d.work_dim = grid.len() as u32;
    if let Some(b) = &a.block {
        d.block = pad(b);
    }
    if let Some(o) = &a.offset {
        let mut off = [0u32; 3];
        for (k, v) in o.iter().enumerate() {
            off[k] = u32::try_from(*v)
                .map_err(|_| format!("--offset {v} does not fit r600's 32-bit ids"))?;
        }
        d.offset = off;
    }
    d.max_instructions = a.max_instructions;
    if let Some(path) = &a.trace {
        let f = std::fs::File::create(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        d.trace = Some(TraceSink::new(std::io::BufWriter::new(f)));
    }
    // a traced dispatch runs on one thread
    d.threads = if d.trace.is_some() {
        1
    } else {
        a.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    };
    let start = Instant::now();
    let result = run(kernel, &d, &args, &pool);
    let wall = start.elapsed();
    let after = pool.to_bytes();
    let buffers: Vec<(usize, Vec<u8>)> = placed
        .iter()
        .map(|&(i, off, len)| (i, after[off..off + len].to_vec()))
        .collect();
    match result {
        Ok(stats) => {
            if let Some(dir) = &a.out {
                write_out(dir, &buffers)?;
            }
            for (i, ty) in &a.print {
                print_buffer(&buffers, *i, ty)?;
            }
            if a.stats {
                print_stats(&stats, wall, d.threads);
            }
            Ok(0)
        }
        Err(fault) => {
            report(kernel, &fault);
            if let Some(dir) = &a.out {
                write_out(dir, &buffers)?;
                eprintln!(
                    "risa run: buffers as they were at the fault written to {}",
                    dir.display()
                );
            }
            Ok(3)
        }
    }
}

fn pick<'k>(kernels: &'k [Kernel], name: Option<&str>, file: &str) -> Result<&'k Kernel, String> {
    let names = || {
        kernels
            .iter()
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match name {
        Some(n) => kernels
            .iter()
            .find(|k| k.name == n)
            .ok_or_else(|| format!("{file} has no kernel {n:?} (it has: {})", names())),
        None if kernels.len() == 1 => Ok(&kernels[0]),
        None if kernels.is_empty() => Err(format!("{file} holds no kernel")),
        None => Err(format!(
            "{file} holds several kernels; choose one with --kernel ({})",
            names()
        )),
    }
}

/// The emulator's arguments, the initial pool and where each buffer argument
/// lives in it: (argument index, offset, length).
type Layout = (Vec<Arg>, Vec<u8>, Vec<(usize, usize, usize)>);

/// r600 objects carry no argument metadata, so kinds come from the specs
/// alone: 32-bit scalars, 64-bit scalars (8-byte aligned in the constant
/// buffer), buffers (32-bit pool offsets) and `__local` sizes.
fn lay_out(values: &[ArgValue]) -> Result<Layout, String> {
    let mut args = Vec::with_capacity(values.len());
    let mut pool = Vec::new();
    let mut placed = Vec::new();
    for (i, v) in values.iter().enumerate() {
        args.push(match v {
            ArgValue::I32(x) => Arg::U32(*x as u32),
            ArgValue::U32(x) => Arg::U32(*x),
            ArgValue::F32(x) => Arg::F32(*x),
            ArgValue::I64(x) => Arg::U64(*x as u64),
            ArgValue::U64(x) => Arg::U64(*x),
            ArgValue::F64(x) => Arg::U64(x.to_bits()),
            ArgValue::Local(n) => Arg::Local(*n),
            ArgValue::Image(_) => {
                return Err(format!(
                    "argument {i}: Cayman kernels take no images (img2d:)"
                ))
            }
            ArgValue::Buffer(bytes) => {
                pool.resize(pool.len().next_multiple_of(BUFFER_ALIGN), 0);
                let off = pool.len();
                pool.extend_from_slice(bytes);
                placed.push((i, off, bytes.len()));
                Arg::Ptr(
                    u32::try_from(off)
                        .map_err(|_| format!("argument {i}: buffers exceed 4 GiB"))?,
                )
            }
        });
    }
    Ok((args, pool, placed))
}

fn report(kernel: &Kernel, fault: &Fault) {
    eprintln!("risa run: fault in kernel {}: {fault}", kernel.name);
}

fn print_stats(s: &Stats, wall: std::time::Duration, threads: usize) {
    let secs = wall.as_secs_f64();
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
    eprintln!("wall time:    {:.3} ms on {threads} thread(s)", secs * 1e3);
    if secs > 0.0 {
        let wave_instr = s.cf_instructions + s.alu_groups + s.fetches;
        eprintln!(
            "rate:         {:.2} M wave-instructions/s (CF + ALU groups + fetches)",
            wave_instr as f64 / secs / 1e6
        );
    }
}
