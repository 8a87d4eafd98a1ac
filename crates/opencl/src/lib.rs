//! risa as an OpenCL 1.2 platform: an ICD (installable client driver) that
//! Debian's loader (ocl-icd) opens through an `.icd` file naming
//! `librisa_opencl.so`. The platform is `risa`; its devices are the chips
//! risa emulates ([`platform::CHIPS`]; `RISA_OPENCL_DEVICES=cayman,gfx900`
//! restricts the list). Programs are OpenCL C compiled with the clang on
//! PATH ([`compiler`]) or the objects `risa run` takes; kernels run on the
//! runtime's device layer (`risa_runtime::gpu`), one device memory per
//! context. See `docs/opencl.md`.
// Handle lookups take raw pointers but dereference them only after finding
// them in the registry of live handles (handle.rs), so they are safe to call.
#![allow(
    clippy::missing_safety_doc,
    clippy::too_many_arguments,
    clippy::not_unsafe_ptr_arg_deref,
    non_snake_case
)]

pub mod compiler;
pub mod context;
pub mod dispatch;
pub mod event;
pub mod handle;
pub mod image;
pub mod image_queue;
pub mod info;
pub mod kernel;
pub mod mem;
pub mod platform;
pub mod program;
pub mod queue;
pub mod r600_layout;
pub mod sampler;
pub mod sched;
