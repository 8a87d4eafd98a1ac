//! AMDHSA code objects (ELF64) from an assembled source.

use crate::Assembled;

/// Builds the code object of an assembled source.
pub fn build(a: &Assembled) -> Result<Vec<u8>, String> {
    let _ = a;
    Err("ELF output is not implemented yet".into())
}
