//! Kernels of a code object: CLRX `.kernel`/`.config` and LLVM `.amdhsa_kernel`.

use crate::backend::GcnBackend;
use risa_asm_core::{Assembler, Statement};

/// The kernels declared in a source.
#[derive(Debug, Default, Clone)]
pub struct Kernels {
    /// In declaration order.
    pub list: Vec<Kernel>,
}

/// One kernel.
#[derive(Debug, Default, Clone)]
pub struct Kernel {
    /// Its symbol name.
    pub name: String,
}

/// Handles kernel pseudo-ops; false if `name` is not one.
pub fn directive(
    _b: &mut GcnBackend,
    _asm: &mut Assembler,
    _name: &str,
    _st: &Statement<'_>,
) -> bool {
    false
}
