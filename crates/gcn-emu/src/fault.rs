//! Faults: why a wave stopped abnormally.

use std::fmt;

/// What went wrong, without the location (the executor adds that).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// A memory access touched no guest allocation.
    Memory {
        /// The lane that made the access (`None` for scalar accesses).
        lane: Option<u32>,
        /// The device address.
        addr: u64,
        /// Bytes accessed.
        size: u32,
        /// Whether it was a write.
        write: bool,
    },
    /// The instruction words do not decode.
    Decode(String),
    /// The instruction decodes but risa does not execute it (yet).
    Unimplemented(&'static str),
    /// The instruction exists only for graphics (or needs a sampler) and cannot run here.
    Unsupported(&'static str),
    /// An operand the instruction cannot use (e.g. an SGPR index past the end).
    BadOperand(String),
    /// Control reached an address that is not the start of an instruction.
    BadPc(u64),
    /// The wave executed more instructions than allowed.
    Budget(u64),
    /// `s_trap` or a similar explicit stop.
    Trap(u32),
    /// Waves of a work-group wait at different barriers forever.
    Deadlock,
    /// `s_sethalt 1`: the wave halted and nothing can resume it.
    Halted,
    /// Every resident wave waits on a GWS resource or its ordered-count turn
    /// and none that could release them can run (see `gds.rs`).
    GwsDeadlock(String),
    /// The wave was parked on a global resource when the dispatch stopped
    /// for a fault elsewhere (not a fault of this wave; not reported).
    Cancelled,
}

impl FaultKind {
    /// The fault of an access outside every allocation, by `lane` (`None`
    /// for scalar accesses).
    pub fn memory(lane: Option<u32>, e: crate::mem::OutOfRange, write: bool) -> FaultKind {
        FaultKind::Memory {
            lane,
            addr: e.addr,
            size: e.size,
            write,
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::Memory {
                lane,
                addr,
                size,
                write,
            } => {
                let what = if *write { "write" } else { "read" };
                write!(
                    f,
                    "{what} of {size} bytes at {addr:#x} is outside every allocation"
                )?;
                if let Some(l) = lane {
                    write!(f, " (lane {l})")?;
                }
                Ok(())
            }
            FaultKind::Decode(m) => write!(f, "invalid instruction: {m}"),
            FaultKind::Unimplemented(n) => write!(f, "{n} is not implemented by the emulator"),
            FaultKind::Unsupported(n) if n.starts_with("image_") => write!(
                f,
                "{n} is a graphics-only gather (4x1 texels of the pixel shader's \
                 footprint); risa samples images with image_sample*, image_gather4* \
                 and image_get_lod only"
            ),
            FaultKind::Unsupported(n) => {
                write!(
                    f,
                    "{n} is a graphics/sampling instruction; compute emulation rejects it"
                )
            }
            FaultKind::BadOperand(m) => write!(f, "bad operand: {m}"),
            FaultKind::BadPc(a) => write!(f, "jump to {a:#x}, which is not an instruction start"),
            FaultKind::Budget(n) => write!(f, "instruction budget of {n} exceeded (endless loop?)"),
            FaultKind::Trap(n) => write!(f, "s_trap {n}"),
            FaultKind::Deadlock => write!(f, "waves of the work-group can never meet at a barrier"),
            FaultKind::Halted => write!(
                f,
                "wave halted (s_sethalt 1); no debugger or host can resume it"
            ),
            FaultKind::GwsDeadlock(m) => write!(f, "deadlock: {m}"),
            FaultKind::Cancelled => write!(f, "stopped by a fault in another work-group"),
        }
    }
}

/// A fault with its place: which wave, at which instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// What happened.
    pub kind: FaultKind,
    /// Byte offset of the instruction from the start of the code.
    pub pc: u64,
    /// The instruction as text (LLVM syntax), or its words when it does not decode.
    pub instr: String,
    /// The wave's index within its work-group.
    pub wave: u32,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wave {} at pc {:#x} `{}`: {}",
            self.wave, self.pc, self.instr, self.kind
        )
    }
}

impl std::error::Error for Fault {}
