//! The runtime's errors: what went wrong, where (the argument, kernel,
//! section or relocation) and why, as values a front end can match on. The
//! messages are the ones `risa run` prints.

use crate::gpu::Isa;

/// Why a kernel cannot be chosen from an object by name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// No kernel has the name.
    #[error("no kernel {name:?}; the object has: {all}")]
    NotFound {
        /// The name asked for.
        name: String,
        /// The object's kernels, comma-separated.
        all: String,
    },
    /// No name was given and the object has several kernels.
    #[error("the object has {count} kernels ({all}); choose one with --kernel")]
    Ambiguous {
        /// How many kernels the object has.
        count: usize,
        /// Their names, comma-separated.
        all: String,
    },
}

/// Why an amdhsa (GCN) code object cannot be loaded or placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GcnLoadError {
    /// The bytes are not an ELF file risa can read.
    #[error("{0}")]
    Elf(String),
    /// The ELF file is not for AMDGPU.
    #[error("not an AMDGPU object (e_machine {0:#x})")]
    NotAmdgpu(u16),
    /// The chip in `e_flags` is not one risa emulates.
    #[error("chip {0:#x} in e_flags is not a GCN 1.0-1.4 chip risa emulates (r600/Cayman objects run with --arch cayman)")]
    UnknownChip(u32),
    /// The code object version is not 3 to 5.
    #[error("code object ABI version {0} (v{v}) is not supported", v = u32::from(*.0) + 2)]
    AbiVersion(u8),
    /// The loaded image would be too large.
    #[error("the code object's loaded size is over 1 GiB")]
    TooLarge,
    /// There is no code.
    #[error("no .text section")]
    NoText,
    /// A relocation names a symbol that does not exist.
    #[error("relocation in {section} names symbol {symbol}, which does not exist")]
    NoSymbol {
        /// The relocation section.
        section: String,
        /// The symbol index.
        symbol: usize,
    },
    /// A relocation is against a symbol in no loaded section.
    #[error("relocation against undefined symbol {0:?}")]
    Undefined(String),
    /// A relocation patches bytes outside the image.
    #[error("relocation at {0:#x} is outside the image")]
    RelocationOutside(usize),
    /// A relocation type risa does not apply.
    #[error("relocation type {0} is not supported")]
    RelocationType(u32),
    /// A note runs past its section.
    #[error("note in {0} is truncated")]
    TruncatedNote(String),
    /// The metadata note is not valid MessagePack.
    #[error("msgpack: {0}")]
    Msgpack(String),
    /// There is no metadata note.
    #[error("no AMDGPU metadata note (NT_AMDGPU_METADATA): is this an amdhsa code object v3+?")]
    NoMetadata,
    /// The metadata lists no kernels.
    #[error("the code object's metadata lists no kernels")]
    NoKernels,
    /// A kernel's descriptor or entry cannot be found.
    #[error("kernel {kernel}: {why}")]
    Kernel {
        /// The kernel's name.
        kernel: String,
        /// What is wrong.
        why: String,
    },
    /// The kernel does not belong to the placed object.
    #[error("kernel {0} is not in the placed object")]
    NotPlaced(String),
    /// Device memory is full.
    #[error("device memory has no room for the code object")]
    NoRoom,
}

/// Why an object cannot be parsed or loaded on a device.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// An amdhsa code object's problem.
    #[error(transparent)]
    Gcn(#[from] GcnLoadError),
    /// An r600 object's problem.
    #[error(transparent)]
    Cayman(#[from] crate::cayman::LoadError),
    /// The r600 object has no kernel.
    #[error("the r600 object holds no kernel")]
    NoR600Kernel,
    /// The object is for another chip than the device's.
    #[error("the object is for {object}, the device is {device}")]
    WrongDevice {
        /// The object's instruction set.
        object: Isa,
        /// The device's.
        device: Isa,
    },
}

/// Why a launch's arguments or NDRange do not fit the kernel or the device.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// The work dimension is not 1 to 3.
    #[error("work dimension {0} is not 1, 2 or 3")]
    WorkDim(u32),
    /// A grid or block size is 0.
    #[error("grid and block sizes must be at least 1")]
    EmptyRange,
    /// The work-group is larger than the hardware allows.
    #[error("a work-group of {0} work-items is over the limit of 1024")]
    GroupTooLarge(u64),
    /// The work-items per wave are not 1 to 64.
    #[error("{0} work-items per wave: must be 1 to 64")]
    WaveItems(u32),
    /// Narrower waves were asked of Cayman, which runs only 64-item waves.
    #[error("Cayman runs waves of 64 work-items only (asked {0})")]
    CaymanWaveItems(u32),
    /// The number of arguments is wrong (the kernel's name known).
    #[error("kernel {kernel} takes {want} arguments, {got} given")]
    Count {
        /// The kernel.
        kernel: String,
        /// Arguments it takes.
        want: usize,
        /// Arguments given.
        got: usize,
    },
    /// The number of arguments is wrong, with what the kernel expects.
    #[error("the kernel takes {want} arguments, {got} given; it expects:{expects}")]
    CountExpecting {
        /// Arguments it takes.
        want: usize,
        /// Arguments given.
        got: usize,
        /// One line per argument it takes.
        expects: String,
    },
    /// An argument is of a kind risa cannot supply.
    #[error("argument {index} ({name}) is a {kind}, which risa cannot supply")]
    Unsupported {
        /// The argument's index.
        index: usize,
        /// Its name.
        name: String,
        /// Its metadata kind.
        kind: String,
    },
    /// An argument value does not fit the argument.
    #[error(
        "argument {index}{name} is a {want}, but {given} was given; the kernel expects:{expects}"
    )]
    Mismatch {
        /// The argument's index.
        index: usize,
        /// " (name)" or "".
        name: String,
        /// What the kernel takes there.
        want: String,
        /// What was given.
        given: String,
        /// One line per argument it takes.
        expects: String,
    },
    /// The dynamic LDS is more than a GCN compute unit has.
    #[error("the work-group needs {0} bytes of LDS, over the 64 KiB a GCN compute unit has")]
    GcnLds(u64),
    /// Device memory is full for the launch's own allocations.
    #[error("device memory has no room for the launch")]
    NoRoom,
    /// The buffers do not fit the address space.
    #[error("the buffers do not fit the device's address space")]
    AddressSpaceFull,
    /// An image does not fit device memory.
    #[error("argument {0}: device memory is full")]
    ImageNoRoom(usize),
    /// Cayman kernels take no image arguments.
    #[error("argument {0}: Cayman kernels take no images (img2d:)")]
    CaymanImage(usize),
    /// A Cayman pointer argument is past 4 GiB.
    #[error("argument {index}: {addr:#x} is not a 32-bit address")]
    Not32Bit {
        /// The argument's index.
        index: usize,
        /// The device address.
        addr: u64,
    },
    /// A Cayman global offset is past 32 bits.
    #[error("offset {0} does not fit r600's 32-bit ids")]
    Offset32(u64),
    /// There is no kernel with this index in the module.
    #[error("no kernel {0}")]
    NoKernel(usize),
    /// The kernel's code cannot be entered.
    #[error(transparent)]
    Entry(#[from] GcnLoadError),
}

/// A `risa run` argument SPEC that cannot be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{spec:?}: {why}")]
pub struct SpecError {
    /// The SPEC as given.
    pub spec: String,
    /// What is wrong with it.
    pub why: String,
}
