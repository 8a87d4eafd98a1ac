//! Why a check could not start: a bad `--check=` list or an object that
//! holds no GCN code.

use risa_elf::ElfError;

/// Why a check list did not parse or an object could not be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A name in a `--check=` / `RISA_CHECK` list that is no check.
    #[error("unknown check `{0}` (known: waitcnt, hazards, races, uninit, all)")]
    UnknownCheck(String),
    /// The object is not well-formed ELF.
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// The header's e_flags name no chip in the table, and none was given.
    #[error("e_flags {0:#x} names no GCN chip risa knows; give --arch")]
    UnknownChip(u32),
    /// The object has no executable section to check.
    #[error("the ELF file has no executable section")]
    NoCode,
}
