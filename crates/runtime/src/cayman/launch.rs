//! A Cayman launch on a device: the device's kernel arguments become r600
//! arguments ([`super::abi::Arg`]), the NDRange and the launch options a
//! [`Dispatch`], and the clause emulator runs it on the device's memory.

use super::abi::Arg;
use crate::device::DeviceMemory;
use crate::error::ArgError;
use crate::gpu::{Fault, KernelArg, LaunchError, Launched, Stats};
use crate::LaunchConfig;
use risa_cayman_emu::{Dispatch, Kernel, TraceSink};
use std::time::Instant;

/// Runs kernel `k` with `args` over `cfg`'s NDRange on `mem`.
pub(crate) fn launch(
    mem: &DeviceMemory,
    k: &Kernel,
    args: &[KernelArg],
    cfg: &LaunchConfig,
) -> Result<Launched, LaunchError> {
    if cfg.wave_items != crate::WAVE_ITEMS {
        return Err(ArgError::CaymanWaveItems(cfg.wave_items).into());
    }
    let mut cargs = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        cargs.push(match a {
            KernelArg::Buffer(p) => {
                Arg::Ptr(u32::try_from(*p).map_err(|_| ArgError::Not32Bit { index: i, addr: *p })?)
            }
            KernelArg::Local(n) => Arg::Local(*n),
            KernelArg::Bytes(b) if b.len() == 4 => {
                Arg::U32(u32::from_le_bytes(b[..].try_into().unwrap()))
            }
            KernelArg::Bytes(b) if b.len() == 8 => {
                Arg::U64(u64::from_le_bytes(b[..].try_into().unwrap()))
            }
            // A char, short or vector: aligned to the largest power of
            // two that divides its size (a 3-vector is passed in 4
            // elements' bytes).
            KernelArg::Bytes(b) => Arg::Bytes(b.clone(), 1 << b.len().trailing_zeros().min(7)),
            KernelArg::Aligned(b, align) => Arg::Bytes(b.clone(), *align),
        });
    }
    let mut d = Dispatch::linear(1, 64);
    d.grid = cfg.grid;
    d.block = cfg.block;
    d.work_dim = cfg.dims;
    for (i, o) in cfg.offset.iter().enumerate() {
        d.offset[i] = u32::try_from(*o).map_err(|_| ArgError::Offset32(*o))?;
    }
    d.max_instructions = cfg.max_instructions;
    d.atomics_byte_addressed = cfg.llvm_r600_atomics && k.made_by_llvm;
    d.trace = cfg.trace.as_ref().map(|open| TraceSink::new(open()));
    d.profile = cfg.cayman_profile.clone();
    d.observe = cfg.cayman_observe.clone();
    // a traced dispatch runs on one thread
    d.threads = if d.trace.is_some() {
        1
    } else {
        cfg.threads.max(1)
    };
    let start = Instant::now();
    let r = super::abi::run(k, &d, &cargs, mem);
    let wall = start.elapsed();
    match r {
        Ok(stats) => Ok(Launched {
            stats: Stats::Cayman(stats),
            wall,
            cpu: None,
            threads: d.threads,
        }),
        Err(fault) => Err(LaunchError::Fault(
            Box::new(Fault::Cayman {
                kernel: k.name.clone(),
                fault,
            }),
            None,
        )),
    }
}
