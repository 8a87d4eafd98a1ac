//! A kernel ready to dispatch: its pre-decoded program, the bytes bound
//! as vertex buffer 2, and the resources it declared. Loading one from an
//! r600 ELF object (relocations, `.AMDGPU.config`, which compiler made it)
//! is the runtime's job (`risa_runtime::cayman::load`); the emulator only
//! runs what it is given.

use crate::program::Program;

/// A kernel ready to dispatch (what a loader or a test prepared).
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Symbol name.
    pub name: String,
    /// Byte offset of the kernel in `.text`.
    pub offset: u64,
    /// The pre-decoded program.
    pub program: Program,
    /// The whole relocated `.text` (bound read-only as vertex buffer 2).
    pub text: Vec<u8>,
    /// GPRs per thread (SQ_PGM_RESOURCES_LS NUM_GPRS; 0 = unknown, all 128 usable).
    pub num_gprs: u32,
    /// Stack entries (SQ_PGM_RESOURCES_LS STACK_SIZE).
    pub stack_size: u32,
    /// Static LDS in bytes (SQ_LDS_ALLOC × 4).
    pub lds_bytes: u32,
    /// The raw (register, value) pairs of this kernel.
    pub config: Vec<(u32, u32)>,
    /// LLVM's r600 back end made the object (its `.comment` names clang or
    /// LLVM). Its RAT atomics pass the byte pointer where the guide reads a
    /// dword index (stores are shifted right by 2 first, atomics are not),
    /// so a host that wants them to land where the source meant sets
    /// [`crate::Dispatch::atomics_byte_addressed`] for such kernels; by
    /// default they run as the hardware reads them.
    pub made_by_llvm: bool,
}

impl Kernel {
    /// A kernel from a raw CF program (hand-written code, tests): no config,
    /// all 128 GPRs, no static LDS; `code` is also bound as vertex buffer 2.
    pub fn from_code(name: &str, code: &[u8]) -> Kernel {
        Kernel {
            name: name.into(),
            offset: 0,
            program: Program::lower(code),
            text: code.to_vec(),
            num_gprs: 0,
            stack_size: 0,
            lds_bytes: 0,
            config: Vec::new(),
            made_by_llvm: false,
        }
    }
}
