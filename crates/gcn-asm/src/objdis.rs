//! A whole AMDHSA code object (ELF64 relocatable, code object v4/v5) as a
//! source that `risa asm --format elf` turns back into the same object:
//! `.amdgcn_target`, `.amdhsa_code_object_version`, the symbols (binding,
//! `.type`, visibility, `.size`), `.text` with its relocations written as
//! `sym@rel32@lo+4` operands, the data sections, each kernel descriptor as an
//! `.amdhsa_kernel` block in its place in `.rodata`, and the metadata note as
//! `.amdgpu_metadata` YAML (or `.amdgpu_metadata_msgpack` bytes when YAML
//! cannot give the same MessagePack). The inverse of [`crate::codeobj::build`].

use crate::kernel::descriptor_source;
use risa_elf::{Elf, Section, Symbol};
use risa_gcn::{listing, Dialect, Processor};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// `STT_SECTION`.
const STT_SECTION: u8 = 3;
/// `STT_FILE`.
const STT_FILE: u8 = 4;
/// `R_AMDGPU_REL64`: descriptor → code.
const R_AMDGPU_REL64: u32 = 5;

/// The text of a disassembled code object and what it could not express.
#[derive(Debug, Clone, Default)]
pub struct ObjectSource {
    /// The source (also holds the warnings, as comments).
    pub text: String,
    /// What the source does not reproduce that a loader may need (also
    /// printed as comments). Non-allocated sections (`.comment`, ...) are
    /// only noted in a comment.
    pub warnings: Vec<String>,
}

/// Whether `bytes` is a relocatable AMDHSA code object this module writes
/// back as a whole (ELF64, `EM_AMDGPU`, OS/ABI HSA, `ET_REL`).
pub fn is_relocatable_code_object(e: &Elf<'_>) -> bool {
    e.is64
        && e.machine == risa_elf::EM_AMDGPU
        && e.osabi == crate::codeobj::ELFOSABI_AMDGPU_HSA
        && e.kind == 1
}

/// The relocation specifier of an `R_AMDGPU_*` type (`rel32@lo` for 10).
fn reloc_spec(kind: u32) -> Option<&'static str> {
    Some(match kind {
        1 => "abs32@lo",
        2 => "abs32@hi",
        3 => "abs64",
        4 => "rel32",
        5 => "rel64",
        6 => "abs32",
        7 => "gotpcrel",
        8 => "gotpcrel32@lo",
        9 => "gotpcrel32@hi",
        10 => "rel32@lo",
        11 => "rel32@hi",
        _ => return None,
    })
}

fn addend_text(a: i64) -> String {
    match a {
        0 => String::new(),
        a if a > 0 => format!("+{a}"),
        a => format!("-{}", a.unsigned_abs()),
    }
}

/// The notes of a `SHT_NOTE` section: (name, type, descriptor).
fn notes(data: &[u8]) -> Option<Vec<(String, u32, &[u8])>> {
    let mut out = Vec::new();
    let mut at = 0usize;
    let u32_at = |o: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(o..o + 4)?.try_into().ok()?))
    };
    while at < data.len() {
        let namesz = u32_at(at)? as usize;
        let descsz = u32_at(at + 4)? as usize;
        let kind = u32_at(at + 8)?;
        let name_at = at + 12;
        let name = data.get(name_at..name_at.checked_add(namesz)?)?;
        let desc_at = name_at + namesz.div_ceil(4) * 4;
        let desc = data.get(desc_at..desc_at.checked_add(descsz)?)?;
        let name = String::from_utf8_lossy(name.strip_suffix(&[0]).unwrap_or(name)).into_owned();
        out.push((name, kind, desc));
        at = desc_at + descsz.div_ceil(4) * 4;
    }
    Some(out)
}

/// `.byte` lines for `data` (16 a line), indented.
fn bytes_lines(out: &mut String, data: &[u8]) {
    for chunk in data.chunks(16) {
        let b: Vec<String> = chunk.iter().map(|x| format!("{x:#04x}")).collect();
        let _ = writeln!(out, "    .byte {}", b.join(", "));
    }
}

/// The directive that selects section `s` in the source.
fn section_directive(s: &Section<'_>) -> String {
    match s.name.as_str() {
        ".text" | ".data" | ".rodata" | ".bss" => s.name.clone(),
        n => {
            let mut f = String::new();
            if s.flags & 2 != 0 {
                f.push('a');
            }
            if s.flags & 1 != 0 {
                f.push('w');
            }
            if s.flags & risa_elf::SHF_EXECINSTR != 0 {
                f.push('x');
            }
            let ty = if s.sh_type == risa_elf::SHT_NOBITS {
                "@nobits"
            } else {
                "@progbits"
            };
            format!(".section {n}, \"{f}\", {ty}")
        }
    }
}

/// Disassembles a relocatable AMDHSA code object for `chip` (the one its
/// e_flags name, or the user's choice) into a complete source (see the
/// module documentation).
pub fn disassemble_object(
    bytes: &[u8],
    chip: &'static Processor,
    opts: listing::Options,
) -> Result<ObjectSource, String> {
    let gen = chip.gen;
    let e = Elf::parse(bytes).map_err(|e| e.to_string())?;
    if !is_relocatable_code_object(&e) {
        return Err("not a relocatable AMDHSA code object (ELF64, EM_AMDGPU, OS/ABI HSA)".into());
    }
    let c = listing::comment(opts.dialect);
    let mut warn: Vec<String> = Vec::new();
    let text_sec = e
        .sections
        .iter()
        .find(|s| s.name == ".text")
        .ok_or("the object has no .text section")?;
    let rodata = e.sections.iter().find(|s| s.name == ".rodata");
    let named = |s: &Symbol| {
        !s.name.is_empty() && s.sym_type != STT_SECTION && s.sym_type != STT_FILE && s.shndx != 0
    };

    // Where a label can stand in .text: instruction starts and the end.
    let mut bounds: BTreeSet<u64> = listing::decode_all(gen, text_sec.data, 0)
        .iter()
        .map(|(pc, _)| *pc)
        .collect();
    bounds.insert(text_sec.data.len() as u64);
    let plain = |n: &str| {
        let b = n.as_bytes();
        !b.is_empty()
            && !b[0].is_ascii_digit()
            && b.iter()
                .all(|&c| c.is_ascii_alphanumeric() || b"_.$".contains(&c))
    };
    let mut seen = BTreeMap::new();
    for s in e.symbols.iter().filter(|s| named(s)) {
        *seen.entry(s.name.as_str()).or_insert(0) += 1;
    }
    // Symbols written as labels with directives; the others as `.elf_symbol`.
    let simple = |s: &Symbol| {
        named(s)
            && plain(&s.name)
            && seen.get(s.name.as_str()) == Some(&1)
            && s.bind <= 2
            && matches!(s.sym_type, 0 | 1 | 2 | 5 | 6)
            && s.other <= 3
            && (s.shndx as usize != text_sec.index || bounds.contains(&s.value))
    };

    // Kernels: FUNC symbols K in .text with a 64-byte K.kd in .rodata.
    let mut kernels: Vec<(String, usize)> = Vec::new();
    if let Some(r) = rodata {
        for s in e.symbols.iter().filter(|s| simple(s)) {
            if s.shndx as usize != text_sec.index {
                continue;
            }
            let kd = format!("{}.kd", s.name);
            if let Some(k) = e
                .symbols
                .iter()
                .find(|x| x.name == kd && x.shndx as usize == r.index)
            {
                let off = k.value as usize;
                if off + 64 <= r.data.len() {
                    if k.size != 64
                        || k.sym_type != risa_elf::STT_OBJECT
                        || k.bind != 1
                        || k.other & 3 != 3
                    {
                        warn.push(format!(
                            "symbol {kd}: written as a 64-byte GLOBAL PROTECTED OBJECT"
                        ));
                    }
                    kernels.push((s.name.clone(), off));
                }
            }
        }
    }
    kernels.sort_by_key(|k| k.1);
    let is_kd = |s: &Symbol| {
        rodata.is_some_and(|r| s.shndx as usize == r.index)
            && kernels.iter().any(|(k, _)| {
                s.name.len() == k.len() + 3
                    && s.name.starts_with(k.as_str())
                    && s.name.ends_with(".kd")
            })
    };

    // The sections written back: .text and the allocated data sections.
    let data_secs: Vec<&Section<'_>> = e
        .sections
        .iter()
        .filter(|s| {
            s.index != text_sec.index
                && s.flags & 2 != 0
                && (s.sh_type == 1 || s.sh_type == risa_elf::SHT_NOBITS)
        })
        .collect();
    let written = |idx: usize| idx == text_sec.index || data_secs.iter().any(|s| s.index == idx);
    let dropped: Vec<&str> = e
        .sections
        .iter()
        .filter(|s| s.index != 0 && !written(s.index) && !matches!(s.sh_type, 2 | 3 | 4 | 7 | 9))
        .map(|s| s.name.as_str())
        .collect();
    let mut notes_out: Vec<String> = Vec::new();
    if !dropped.is_empty() {
        notes_out.push(format!(
            "sections not reproduced (risa writes .text, the allocated data sections and the metadata note; loaders need no more): {}",
            dropped.join(", ")
        ));
    }

    // Labels per section: symbols, plus labels relocations need.
    let mut labels: BTreeMap<usize, BTreeMap<u64, Vec<String>>> = BTreeMap::new();
    let kd_blocks: Vec<u64> = kernels.iter().map(|k| k.1 as u64).collect();
    let inside_kd = |s: &Symbol| {
        rodata.is_some_and(|r| s.shndx as usize == r.index)
            && kd_blocks.iter().any(|&o| s.value > o && s.value < o + 64)
    };
    let fits = |s: &Symbol| {
        e.sections
            .get(s.shndx as usize)
            .is_some_and(|x| s.value <= x.size)
    };
    let mut raw_symbols: Vec<String> = Vec::new();
    for s in e
        .symbols
        .iter()
        .filter(|s| !s.name.is_empty() && s.sym_type != STT_SECTION && !is_kd(s))
    {
        let labelled = simple(s) && written(s.shndx as usize) && fits(s) && !inside_kd(s);
        if labelled {
            labels
                .entry(s.shndx as usize)
                .or_default()
                .entry(s.value)
                .or_default()
                .push(s.name.clone());
            continue;
        }
        let sec = match s.shndx {
            0 => Some("undef".to_string()),
            0xfff1 => Some("abs".to_string()),
            i if written(i as usize) => Some(e.sections[i as usize].name.clone()),
            _ => None,
        };
        let name_ok = s
            .name
            .chars()
            .all(|c| c.is_ascii_graphic() && c != ',' && c != ';' && c != '#' && c != '"')
            && !s.name.contains("//")
            && !s.name.contains("/*");
        match sec {
            Some(sec) if name_ok => raw_symbols.push(format!(
                ".elf_symbol {}, {sec}, {:#x}, {}, {}, {}, {}",
                s.name, s.value, s.size, s.sym_type, s.bind, s.other
            )),
            _ => warn.push(format!(
                "symbol {:?} (section {}) is not written",
                s.name, s.shndx
            )),
        }
    }

    // Relocations of .text as operand text.
    let mut text_relocs: BTreeMap<u64, String> = BTreeMap::new();
    for r in e.relocations_for(text_sec.index) {
        let Some(spec) = reloc_spec(r.kind) else {
            warn.push(format!(
                ".text+{:#x}: relocation type {} is not written",
                r.offset, r.kind
            ));
            continue;
        };
        let Some(sym) = r.symbol.checked_sub(1).and_then(|i| e.symbols.get(i)) else {
            warn.push(format!(
                ".text+{:#x}: relocation without a symbol",
                r.offset
            ));
            continue;
        };
        let (name, addend) = if sym.sym_type == STT_SECTION {
            // A section symbol: the nearest label at or before the target.
            let sec = sym.shndx as usize;
            if !written(sec) {
                warn.push(format!(
                    ".text+{:#x}: relocation against a section that is not written",
                    r.offset
                ));
                continue;
            }
            let target = r.addend.max(0) as u64;
            let ls = labels.entry(sec).or_default();
            let (v, n) = match ls.range(..=target).next_back() {
                Some((v, n)) => (*v, n[0].clone()),
                None => {
                    let sname: String = e.sections[sec]
                        .name
                        .chars()
                        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                        .collect();
                    let n = format!(".Lsec{sname}_0");
                    ls.entry(0).or_default().push(n.clone());
                    (0, n)
                }
            };
            (n, r.addend - v as i64)
        } else if labels
            .get(&(sym.shndx as usize))
            .and_then(|m| m.get(&sym.value))
            .is_some_and(|ns| ns.contains(&sym.name))
        {
            (sym.name.clone(), r.addend)
        } else {
            warn.push(format!(
                ".text+{:#x}: relocation against {} (not a label: undefined, raw or a descriptor) is not written",
                r.offset, sym.name
            ));
            continue;
        };
        text_relocs.insert(r.offset, format!("{name}@{spec}{}", addend_text(addend)));
    }

    // The metadata note: `.amdgpu_metadata` when `.note` is exactly the one
    // note risa writes for it, else the section's bytes.
    let mut metadata: Option<String> = None;
    for s in e.sections.iter().filter(|s| s.sh_type == 7) {
        if s.name != ".note" {
            warn.push(format!("note section {} is not reproduced", s.name));
            continue;
        }
        let single = notes(s.data).and_then(|ns| match ns.as_slice() {
            [(n, k, d)] if n == "AMDGPU" && *k == crate::codeobj::NT_AMDGPU_METADATA => Some(*d),
            _ => None,
        });
        metadata = Some(match single {
            Some(desc)
                if risa_elf::write::note("AMDGPU", crate::codeobj::NT_AMDGPU_METADATA, desc)
                    == s.data =>
            {
                metadata_source(desc)
            }
            _ => {
                let mut t = format!(
                    "{c} .note is not one NT_AMDGPU_METADATA note as risa writes it: its bytes\n"
                );
                for chunk in s.data.chunks(16) {
                    let b: Vec<String> = chunk.iter().map(|x| format!("{x:#04x}")).collect();
                    let _ = writeln!(t, ".amdgpu_note_bytes {}", b.join(", "));
                }
                t
            }
        });
    }
    if metadata.is_none() {
        warn.push(
            "the object has no .note: risa asm writes a metadata note made from the kernels".into(),
        );
    }

    // Target and code object version.
    let meta_target = e
        .sections
        .iter()
        .filter(|s| s.sh_type == 7)
        .filter_map(|s| notes(s.data))
        .flatten()
        .find(|(n, k, _)| n == "AMDGPU" && *k == crate::codeobj::NT_AMDGPU_METADATA)
        .and_then(|(_, _, d)| risa_metadata::from_msgpack(d).ok())
        .and_then(|v| {
            risa_metadata::field(&v, "amdhsa.target")
                .and_then(|t| t.as_str())
                .map(str::to_string)
        });
    // The metadata's target when the assembler reads it as this chip.
    let readable = |t: &String| {
        let c = t.rsplit('-').next().unwrap_or("");
        let c = c.split(':').next().unwrap_or(c);
        t.chars()
            .all(|ch| ch.is_ascii_graphic() && ch != '"' && ch != '\\')
            && crate::backend::arch_of(c) == Ok(chip)
    };
    let target = meta_target
        .filter(readable)
        .unwrap_or_else(|| format!("amdgcn-amd-amdhsa--{}", chip.name));
    // Other XNACK/SRAMECC settings (or a header that names another chip
    // than the one given): e_flags are written as they are (CLRX's `.eflags`).
    let derived = crate::codeobj::default_eflags(chip);
    let eflags = (derived != e.flags).then_some(e.flags);
    // EF_AMDGPU_FEATURE_XNACK_V4: 0x100 any, 0x300 on.
    let xnack_on_or_any = matches!(e.flags & 0x300, 0x100 | 0x300);
    let version = u32::from(e.abi_version) + 2;
    if !(4..=5).contains(&version) {
        warn.push(format!(
            "EI_ABIVERSION {} (code object v{version}): risa asm writes v4 or v5",
            e.abi_version
        ));
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "{c} risa disasm: AMDHSA code object v{version}, {chip} ({gen}), e_flags {:#x}",
        e.flags
    );
    let _ = writeln!(
        out,
        "{c} reassemble: risa asm{} --format elf FILE -o OUT",
        if opts.dialect == Dialect::Llvm {
            " --syntax llvm"
        } else {
            ""
        }
    );
    let _ = writeln!(out, ".amdgcn_target \"{target}\"");
    if let Some(f) = eflags {
        let _ = writeln!(
            out,
            ".eflags {f:#x}  {c} e_flags as they are (risa derives {derived:#x} from the chip)"
        );
    }
    // llvm-mc 14 has no such directive (v4 is its default; clang-14 -S does
    // not write it), so the LLVM dialect leaves the default out.
    if version != 4 || opts.dialect != Dialect::Llvm {
        let _ = writeln!(out, ".amdhsa_code_object_version {version}");
    }

    // Symbol attributes.
    let mut declared = BTreeSet::new();
    for s in e.symbols.iter().filter(|s| {
        labels
            .get(&(s.shndx as usize))
            .and_then(|m| m.get(&s.value))
            .is_some_and(|ns| ns.contains(&s.name))
            && named(s)
            && !is_kd(s)
    }) {
        if !declared.insert(s.name.clone()) {
            warn.push(format!("symbol {} is defined twice; written once", s.name));
            continue;
        }
        match s.bind {
            1 => {
                let _ = writeln!(out, ".globl {}", s.name);
            }
            2 => {
                let _ = writeln!(out, ".weak {}", s.name);
            }
            0 => {}
            b => warn.push(format!(
                "symbol {}: binding {b} is written as local",
                s.name
            )),
        }
        match s.sym_type {
            0 => {}
            1 => {
                let _ = writeln!(out, ".type {},@object", s.name);
            }
            2 => {
                let _ = writeln!(out, ".type {},@function", s.name);
            }
            5 => {
                let _ = writeln!(out, ".type {},@common", s.name);
            }
            6 => {
                let _ = writeln!(out, ".type {},@tls_object", s.name);
            }
            t => warn.push(format!("symbol {}: type {t} is not written", s.name)),
        }
        match s.other & 3 {
            1 => {
                let _ = writeln!(out, ".internal {}", s.name);
            }
            2 => {
                let _ = writeln!(out, ".hidden {}", s.name);
            }
            3 => {
                let _ = writeln!(out, ".protected {}", s.name);
            }
            _ => {}
        }
        if s.size != 0 {
            let _ = writeln!(out, ".size {}, {}", s.name, s.size);
        }
    }

    if !raw_symbols.is_empty() {
        let _ = writeln!(
            out,
            "{c} symbols no label can stand for: NAME, SECTION, VALUE, SIZE, TYPE, BIND, OTHER"
        );
        for l in &raw_symbols {
            let _ = writeln!(out, "{l}");
        }
    }

    // .text
    let _ = writeln!(out, "\n.text");
    let code_labels: BTreeMap<u64, String> = labels
        .get(&text_sec.index)
        .map(|m| {
            m.iter()
                .filter(|(v, _)| **v < text_sec.data.len() as u64)
                .map(|(v, n)| (*v, n.join(":\n")))
                .collect()
        })
        .unwrap_or_default();
    out.push_str(&crate::disasm::disassemble_relocated(
        chip,
        text_sec.data,
        0,
        &code_labels,
        &text_relocs,
        opts,
    ));
    if let Some(m) = labels.get(&text_sec.index) {
        for (v, ns) in m.range(text_sec.data.len() as u64..) {
            if *v == text_sec.data.len() as u64 {
                for n in ns {
                    let _ = writeln!(out, "{n}:");
                }
            } else {
                warn.push(format!(
                    "symbols {} lie past the end of .text",
                    ns.join(", ")
                ));
            }
        }
    }

    // Data sections, with the descriptors in .rodata.
    for s in &data_secs {
        let _ = writeln!(out, "\n{}", section_directive(s));
        let is_rodata = rodata.is_some_and(|r| r.index == s.index);
        let kds: BTreeMap<u64, &str> = if is_rodata {
            kernels
                .iter()
                .map(|(k, o)| (*o as u64, k.as_str()))
                .collect()
        } else {
            BTreeMap::new()
        };
        for r in e.relocations_for(s.index) {
            let sym = r
                .symbol
                .checked_sub(1)
                .and_then(|i| e.symbols.get(i))
                .map_or("", |x| x.name.as_str());
            let expected = r.kind == R_AMDGPU_REL64
                && r.addend == 16
                && r.offset >= 16
                && kds.get(&(r.offset - 16)) == Some(&sym);
            if !expected {
                warn.push(format!(
                    "{}+{:#x}: relocation type {} against {sym:?} is not written",
                    s.name, r.offset, r.kind
                ));
            }
        }
        let empty = BTreeMap::new();
        let ls = labels.get(&s.index).unwrap_or(&empty);
        let size = s.size;
        let nobits = s.sh_type == risa_elf::SHT_NOBITS;
        let mut events: BTreeSet<u64> = ls.keys().copied().collect();
        events.extend(kds.keys().copied());
        let mut at = 0u64;
        let flush = |out: &mut String, from: u64, to: u64| {
            if to <= from {
                return;
            }
            if nobits {
                let _ = writeln!(out, "    .skip {}", to - from);
            } else {
                bytes_lines(out, &s.data[from as usize..to as usize]);
            }
        };
        for ev in events {
            if ev < at {
                if let Some(ns) = ls.get(&ev) {
                    warn.push(format!(
                        "{}: labels {} inside a kernel descriptor are not written",
                        s.name,
                        ns.join(", ")
                    ));
                }
                continue;
            }
            if ev > size {
                break;
            }
            flush(&mut out, at, ev);
            at = ev;
            if let Some(ns) = ls.get(&ev) {
                for n in ns {
                    let _ = writeln!(out, "{n}:");
                }
            }
            if let Some(k) = kds.get(&ev) {
                let d: [u8; 64] = s.data[ev as usize..ev as usize + 64]
                    .try_into()
                    .expect("64 bytes");
                let _ = writeln!(out, ".amdhsa_kernel {k}");
                for l in descriptor_source(gen, &d, xnack_on_or_any) {
                    let _ = writeln!(out, "    {l}");
                }
                let _ = writeln!(out, ".end_amdhsa_kernel");
                at = ev + 64;
            }
        }
        flush(&mut out, at, size);
        if let Some(m) = labels.get(&s.index) {
            for (v, ns) in m.range(size + 1..) {
                warn.push(format!(
                    "symbols {} lie past the end of {} ({v:#x})",
                    ns.join(", "),
                    s.name
                ));
            }
        }
    }

    if let Some(m) = metadata {
        out.push('\n');
        out.push_str(&m);
    }
    if !warn.is_empty() || !notes_out.is_empty() {
        out.push('\n');
        for n in &notes_out {
            let _ = writeln!(out, "{c} note: {n}");
        }
        for w in &warn {
            let _ = writeln!(out, "{c} warning: {w}");
        }
    }
    Ok(ObjectSource {
        text: out,
        warnings: warn,
    })
}

/// The metadata note's MessagePack as `.amdgpu_metadata` YAML when that
/// converts back to the same bytes, else as `.amdgpu_metadata_msgpack` bytes.
/// The block's lines go through the assembler's line reader first, so YAML
/// with comment or continuation characters of either dialect (`#`, `;`,
/// `//`, `/*`, a trailing `\`) is written as bytes too.
fn metadata_source(desc: &[u8]) -> String {
    let text = risa_metadata::from_msgpack(desc).and_then(|v| risa_metadata::to_yaml(&v));
    if let Ok(text) = text {
        let lexer_safe = !["#", ";", "//", "/*", "*/"]
            .iter()
            .any(|m| text.contains(m))
            && !text.lines().any(|l| l.ends_with('\\'));
        let same = risa_metadata::from_yaml(&text)
            .is_ok_and(|back| risa_metadata::to_msgpack(&back) == desc);
        if lexer_safe && same {
            return format!(".amdgpu_metadata\n{text}.end_amdgpu_metadata\n");
        }
    }
    let mut out = String::new();
    for chunk in desc.chunks(16) {
        let b: Vec<String> = chunk.iter().map(|x| format!("{x:#04x}")).collect();
        let _ = writeln!(out, ".amdgpu_metadata_msgpack {}", b.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_yaml_when_that_gives_the_same_bytes_else_raw() {
        let v = risa_metadata::from_yaml("---\na: 1\nb:\n  - 'x y'\n  - true\n...\n").unwrap();
        let mp = risa_metadata::to_msgpack(&v);
        assert!(metadata_source(&mp).starts_with(".amdgpu_metadata\n---\n"));
        // 1 as uint16 (not the smallest form): YAML would write it back as 0x01
        let odd = [0x81u8, 0xa1, b'a', 0xcd, 0x00, 0x01];
        let s = metadata_source(&odd);
        assert_eq!(
            s,
            ".amdgpu_metadata_msgpack 0x81, 0xa1, 0x61, 0xcd, 0x00, 0x01\n"
        );
        // a '#' would be taken for a comment by the CLRX line reader
        let hash = [0x81u8, 0xa1, b'a', 0xa2, b'#', b'b'];
        assert!(metadata_source(&hash).starts_with(".amdgpu_metadata_msgpack"));
    }
}
