//! Finding the code to check in an ELF code object: its executable
//! sections, with every function symbol (kernels and called functions) as
//! an entry point, and the chip from the header.

use crate::cfg::Entry;
use crate::error::CheckError;
use crate::finding::Report;
use crate::lint::{check_code_noting, Options};
use risa_elf::{Elf, STT_FUNC};
use risa_gcn::{Processor, Target};

/// The code of one executable section and where execution may start in it.
#[derive(Debug, Clone)]
pub struct CodeUnit<'a> {
    /// The section's name.
    pub section: String,
    /// Its bytes.
    pub code: &'a [u8],
    /// The function symbols in it: kernels (a `NAME.kd` descriptor names
    /// them) and called functions.
    pub entries: Vec<Entry>,
}

/// The executable sections of `elf` with their entry points.
pub fn code_units<'a>(elf: &Elf<'a>) -> Vec<CodeUnit<'a>> {
    let kernels: std::collections::BTreeSet<&str> = elf
        .symbols
        .iter()
        .filter_map(|s| s.name.strip_suffix(".kd"))
        .collect();
    elf.sections
        .iter()
        .filter(|s| s.is_exec())
        .map(|s| {
            let mut entries: Vec<Entry> = elf
                .symbols_in(s.index)
                .into_iter()
                .filter(|sym| sym.sym_type == STT_FUNC)
                // Relocatable objects give offsets, linked ones addresses.
                .map(|sym| Entry {
                    pc: if elf.kind == 1 {
                        sym.value
                    } else {
                        sym.value.wrapping_sub(s.addr)
                    },
                    function: !kernels.contains(sym.name.as_str()),
                })
                .filter(|e| e.pc < s.data.len() as u64)
                .collect();
            if entries.is_empty() {
                entries.push(Entry::kernel(0));
            }
            entries.sort_unstable_by_key(|e| (e.pc, e.function));
            entries.dedup_by_key(|e| e.pc);
            CodeUnit {
                section: s.name.clone(),
                code: s.data,
                entries,
            }
        })
        .collect()
}

/// The chip an amdgcn ELF header names.
pub fn target_of(elf: &Elf) -> Option<Target> {
    Processor::by_mach(elf.flags & 0xff).map(Target::from)
}

/// Whether the header's XNACK setting is `on` or `any` (e_flags bits 9:8
/// of code objects v4+; bit 8 alone, `on`, in v3): LLVM then guards the
/// soft clauses against replay.
pub fn xnack_on(elf: &Elf) -> bool {
    matches!(elf.flags & 0x300, 0x100 | 0x300)
}

/// Checks every executable section of an amdgcn ELF object; `target`
/// overrides the chip of the header.
pub fn check_elf(
    bytes: &[u8],
    target: Option<Target>,
    opts: &Options,
) -> Result<Report, CheckError> {
    check_elf_noting(bytes, target, opts).map(|(r, _)| r)
}

/// [`check_elf`], with the places the control flow could not be followed,
/// as `section:pc: reason` lines.
pub fn check_elf_noting(
    bytes: &[u8],
    target: Option<Target>,
    opts: &Options,
) -> Result<(Report, Vec<String>), CheckError> {
    let elf = Elf::parse(bytes)?;
    let target = target
        .or_else(|| target_of(&elf))
        .ok_or(CheckError::UnknownChip(elf.flags))?;
    let units = code_units(&elf);
    if units.is_empty() {
        return Err(CheckError::NoCode);
    }
    let mut opts = opts.clone();
    opts.xnack |= xnack_on(&elf);
    let mut r = Report::default();
    let mut notes = Vec::new();
    for u in units {
        let (rep, n) = check_code_noting(target, u.code, &u.entries, &opts);
        r.merge(rep);
        notes.extend(
            n.into_iter()
                .map(|(pc, why)| format!("{}:{pc:#x}: {why}", u.section)),
        );
    }
    Ok((r, notes))
}
