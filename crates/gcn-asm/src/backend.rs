//! The GCN back end of the assembler core: instructions, fixups, GCN
//! pseudo-ops (`.gpu`/`.arch`, kernels) and the listing.

use crate::encode::{self, branch_offset, Pending};
use crate::opnd;
use risa_asm_core::{Assembler, Backend, Fixup, SectionId, Statement, Value};
use risa_gcn::{Gen, Processor};

/// Fixup kinds.
const FIX_LITERAL: u32 = 0;
const FIX_IMM16: u32 = 1;
const FIX_BRANCH: u32 = 2;
const FIX_RELOC: u32 = 3;
/// A field of the instruction at the fixup's offset: payload = position |
/// width << 6 | signed << 16 | truncate (CLRX syntax) << 17.
const FIX_FIELD: u32 = 4;

/// A relocation of a literal dword, for code objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelocEntry {
    /// Section of the literal.
    pub section: SectionId,
    /// Offset of the literal dword.
    pub offset: u64,
    /// `R_AMDGPU_*` type.
    pub kind: u32,
    /// The symbol's value (absolute or section-relative).
    pub target: Value,
    /// The addend.
    pub addend: i64,
}

/// One emitted instruction, for `--listing`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEntry {
    /// Section it was emitted to.
    pub section: SectionId,
    /// Byte offset in the section.
    pub offset: u64,
    /// Number of dwords.
    pub len: usize,
    /// The statement's source text.
    pub text: String,
}

/// The operand code of an inline constant written as text (`1`, `-16`, `0.5`, `-4.0`).
fn inline_constant_code(t: &str) -> Option<u32> {
    if let Some(p) = risa_gcn::operand::INLINE_FLOATS
        .iter()
        .position(|f| *f == t)
    {
        return Some(240 + p as u32);
    }
    let v: i64 = t.parse().ok()?;
    match v {
        0..=64 => Some(128 + v as u32),
        -16..=-1 => Some((192 - v) as u32),
        _ => None,
    }
}

/// The chip of a `.gpu`/`.arch`/`--arch` name (LLVM processor, code name,
/// CLRX device or generation name: the processor table's).
pub fn arch_of(name: &str) -> Result<&'static Processor, ArchError> {
    if let Some(p) = Processor::parse(name) {
        return Ok(p);
    }
    let l = name.to_ascii_lowercase();
    let newer = [
        "gcn1.5", "gcn1.5.1", "navi", "navi10", "navidl", "gfx10", "gfx1000", "gfx1010", "gfx1011",
    ];
    if newer.contains(&l.as_str()) {
        return Err(ArchError::Unsupported(name.to_string()));
    }
    Err(ArchError::Unknown(name.to_string()))
}

/// Why [`arch_of`] knows no chip by a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchError {
    /// A later GCN/RDNA chip.
    #[error("'{0}' is not supported: risa assembles GCN 1.0, 1.1, 1.2 and 1.4 (gfx6-gfx9)")]
    Unsupported(String),
    /// A name the processor table does not have.
    #[error("unknown GCN architecture '{0}' (known: {hint})", hint = Processor::names_hint())]
    Unknown(String),
}

impl From<ArchError> for String {
    fn from(e: ArchError) -> String {
        e.to_string()
    }
}

/// Output format selected by the source, with CLRX's `.get_format` ids.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Raw code (`.rawcode`), the default.
    #[default]
    RawCode = 2,
    /// An AMDHSA (ROCm) code object (`.rocm`, `.amdhsa_kernel`).
    Rocm = 4,
}

/// CLRX device ids (`.get_gpu`), by device name.
const DEVICES: &[(&str, u32)] = &[
    ("capeverde", 0),
    ("pitcairn", 1),
    ("tahiti", 2),
    ("oland", 3),
    ("bonaire", 4),
    ("spectre", 5),
    ("spooky", 6),
    ("kalindi", 7),
    ("hainan", 8),
    ("hawaii", 9),
    ("iceland", 10),
    ("topaz", 10),
    ("tonga", 11),
    ("mullins", 12),
    ("fiji", 13),
    ("carrizo", 14),
    ("dummy", 15),
    ("goose", 16),
    ("horse", 17),
    ("stoney", 18),
    ("ellesmere", 19),
    ("polaris10", 19),
    ("polaris20", 19),
    ("baffin", 20),
    ("polaris11", 20),
    ("polaris21", 20),
    ("gfx804", 21),
    ("polaris12", 21),
    ("polaris22", 21),
    ("gfx900", 22),
    ("vega10", 22),
    ("gfx901", 23),
    ("gfx902", 24),
    ("raven", 24),
    ("gfx903", 25),
    ("gfx904", 26),
    ("vega12", 26),
    ("gfx905", 27),
    ("vega11", 27),
    ("gfx906", 28),
    ("vega20", 28),
    ("gfx907", 29),
];

fn device_id(name: &str) -> Option<u32> {
    let l = name.to_ascii_lowercase();
    DEVICES.iter().find(|(n, _)| *n == l).map(|&(_, id)| id)
}

fn default_device(gen: Gen) -> u32 {
    [0, 4, 11, 22][gen as usize]
}

/// The GCN assembler back end.
#[derive(Debug, Default)]
pub struct GcnBackend {
    /// The target chip (`None` until `--arch` or `.gpu`/`.arch` sets it).
    pub chip: Option<&'static Processor>,
    /// Record a [`ListEntry`] per instruction.
    pub keep_listing: bool,
    /// The listing (when `keep_listing`).
    pub listing: Vec<ListEntry>,
    /// Kernels and their configuration, for code objects.
    pub kernels: crate::kernel::Kernels,
    /// The CLRX device id of `.gpu` (for `.get_gpu`).
    pub device: Option<u32>,
    /// Relocations of literals (`sym@rel32@lo`), resolved to section offsets.
    pub relocs: Vec<RelocEntry>,
    /// Registers used by the code: highest VGPR + 1 and highest SGPR + 1.
    pub max_vgpr: u32,
    /// See `max_vgpr`.
    pub max_sgpr: u32,
    /// The output format chosen in the source (`.rawcode`, `.rocm`, `.format`).
    pub format: Format,
    /// ELF symbol types (`.type`) and visibilities (`.protected`, `.hidden`,
    /// `.internal`) by symbol name, for code objects.
    pub symbol_attrs: std::collections::HashMap<String, SymbolAttrs>,
    /// The dialect whose defaults and meanings apply where CLRX and LLVM
    /// differ (`--syntax`; CLRX by default).
    pub dialect: risa_gcn::Dialect,
    arch_reported: bool,
    /// Encodings made ahead by worker threads ([`crate::parallel`]).
    pub(crate) prepared: Option<Box<crate::parallel::Prepared>>,
    /// Statements whose encoding was taken from a worker thread.
    pub encodings_taken: u64,
    /// Blocks of lines taken whole from a worker thread (plain blocks:
    /// [`crate::parallel`]).
    pub blocks_taken: u64,
}

/// What `.type` and the visibility pseudo-ops said about a symbol.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SymbolAttrs {
    /// `STT_*` (`@function` 2, `@object` 1, `@notype` 0, ...).
    pub kind: Option<u8>,
    /// `STV_*` (`.internal` 1, `.hidden` 2, `.protected` 3).
    pub visibility: Option<u8>,
}

impl GcnBackend {
    /// A back end for `gen`'s reference chip (or none yet).
    pub fn new(gen: Option<Gen>) -> Self {
        Self::for_chip(gen.map(Processor::of_gen))
    }

    /// A back end for `chip` (or none yet).
    pub fn for_chip(chip: Option<&'static Processor>) -> Self {
        GcnBackend {
            chip,
            ..Default::default()
        }
    }

    /// The target generation, once a chip is chosen.
    pub fn gen(&self) -> Option<Gen> {
        self.chip.map(|p| p.gen)
    }
}

impl Backend for GcnBackend {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        let Some(chip) = self.chip else {
            if !self.arch_reported {
                self.arch_reported = true;
                asm.error(
                    st.name,
                    "no GPU architecture selected (use --arch or a .gpu/.arch pseudo-op)",
                );
            }
            return;
        };
        let pc = asm.offset();
        let clrx = self.dialect == risa_gcn::Dialect::Clrx;
        let hit = self.prepared.as_mut().and_then(|p| p.take(asm, st, chip));
        let e = match hit {
            Some(hit) => {
                self.encodings_taken += 1;
                for (severity, col, message) in hit.diags {
                    asm.report_at_col(severity, col, message);
                }
                hit.encoded
            }
            None => encode::assemble(asm, chip.target(), st, pc, clrx),
        };
        let Some(e) = e else {
            return;
        };
        let bytes = e.bytes();
        let section = asm.current_section();
        let lit_at = pc + 4 * (e.len as u64 - 1);
        if let Some(p) = e.pending {
            let fix = match p {
                Pending::Literal(x) => Some((FIX_LITERAL, lit_at, 0, x)),
                // (payload 1: CLRX syntax truncates a value that does not fit.)
                Pending::Imm16(x) => Some((
                    FIX_IMM16,
                    pc,
                    u64::from(self.dialect == risa_gcn::Dialect::Clrx),
                    x,
                )),
                Pending::Field {
                    expr,
                    entry,
                    signed,
                } => Some((
                    FIX_FIELD,
                    pc,
                    u64::from(entry)
                        | u64::from(signed) << 16
                        | u64::from(self.dialect == risa_gcn::Dialect::Clrx) << 17,
                    expr,
                )),
                Pending::Branch(x) => Some((FIX_BRANCH, pc, pc + 4 * e.len as u64, x)),
                Pending::Reloc(r) => match (r.value, r.pending) {
                    (Some(v), _) => {
                        self.relocs.push(RelocEntry {
                            section,
                            offset: lit_at,
                            kind: r.kind,
                            target: v,
                            addend: r.addend,
                        });
                        None
                    }
                    (None, Some(x)) => {
                        let payload = u64::from(r.kind) | (r.addend as i32 as u32 as u64) << 32;
                        Some((FIX_RELOC, lit_at, payload, x))
                    }
                    (None, None) => None,
                },
            };
            if let Some((kind, offset, payload, expr)) = fix {
                asm.add_fixup(Fixup {
                    section,
                    offset,
                    kind,
                    payload,
                    expr,
                });
            }
        }
        asm.emit(bytes.as_slice());
        self.max_vgpr = self.max_vgpr.max(e.vgprs);
        self.max_sgpr = self.max_sgpr.max(e.sgprs);
        if self.keep_listing {
            self.listing.push(ListEntry {
                section,
                offset: pc,
                len: e.len,
                text: st.text.trim().to_string(),
            });
        }
    }

    fn directive(&mut self, asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
        match name {
            ".gpu" | ".arch" => {
                match arch_of(st.args.trim()) {
                    Ok(g) => {
                        self.chip = Some(g);
                        if name == ".gpu" {
                            self.device = device_id(st.args.trim());
                        }
                    }
                    Err(e) => asm.error(st.args, e),
                }
                true
            }
            ".get_arch" | ".get_gpu" | ".get_format" => {
                let sym = st.args.trim();
                if sym.is_empty() {
                    asm.error(st.text, format!("{name} needs a symbol name"));
                    return true;
                }
                let v = match name {
                    ".get_arch" => self.gen().map_or(0, |g| g as u64),
                    ".get_gpu" => u64::from(
                        self.device
                            .unwrap_or_else(|| default_device(self.gen().unwrap_or(Gen::Gcn10))),
                    ),
                    _ => self.format as u64,
                };
                if let Err(e) = asm.set_symbol(sym, Value::abs(v)) {
                    asm.error(sym, e);
                }
                true
            }
            // ELF symbol visibility: written to code objects (kernels are
            // protected unless the source says otherwise).
            ".protected" | ".hidden" | ".internal" => {
                let vis = match name {
                    ".internal" => 1,
                    ".hidden" => 2,
                    _ => 3,
                };
                for n in risa_asm_core::lex::split_operands(st.args) {
                    let n = n.trim();
                    if n.is_empty() {
                        asm.error(st.args, format!("{name} needs a symbol name"));
                        continue;
                    }
                    self.symbol_attrs
                        .entry(n.to_string())
                        .or_default()
                        .visibility = Some(vis);
                }
                true
            }
            // Compiler bookkeeping (clang -S): accepted.
            ".ident" | ".addrsig" | ".addrsig_sym" => true,
            // ELF symbol types (`.type k,@function`), written to code objects.
            ".type" => {
                let Some((sym, ty)) = st.args.split_once(',') else {
                    asm.error(st.args, "expected '.type SYMBOL, @TYPE'");
                    return true;
                };
                let ty = ty
                    .trim()
                    .trim_start_matches(['@', '%', '#'])
                    .trim_matches('"');
                let kind = match ty.to_ascii_lowercase().as_str() {
                    "function" | "stt_func" => 2,
                    "object" | "stt_object" => 1,
                    "notype" | "stt_notype" => 0,
                    "tls_object" | "stt_tls" => 6,
                    "common" | "stt_common" => 5,
                    "gnu_indirect_function" | "stt_gnu_ifunc" => 10,
                    _ => {
                        asm.error(ty, format!("unknown symbol type '{ty}'"));
                        return true;
                    }
                };
                self.symbol_attrs
                    .entry(sym.trim().to_string())
                    .or_default()
                    .kind = Some(kind);
                true
            }
            ".rawcode" => {
                self.format = Format::RawCode;
                true
            }
            ".rocm" | ".amdhsa" => {
                self.format = Format::Rocm;
                true
            }
            ".format" => {
                match st.args.trim().to_ascii_lowercase().as_str() {
                    "rawcode" | "raw" => self.format = Format::RawCode,
                    "rocm" | "amdhsa" | "hsa" => self.format = Format::Rocm,
                    f => asm.error(
                        st.args,
                        format!("binary format '{f}' is not supported (rawcode or rocm)"),
                    ),
                }
                true
            }
            _ => crate::kernel::directive(self, asm, name, st),
        }
    }

    fn before_file_line(&mut self, asm: &mut Assembler, line: u32) {
        let Some(p) = self.prepared.as_mut() else {
            return asm.call_before_file_line(u32::MAX);
        };
        if let Some((vgprs, sgprs, n)) = p.before_line(asm, line, self.chip, self.keep_listing) {
            self.max_vgpr = self.max_vgpr.max(vgprs);
            self.max_sgpr = self.max_sgpr.max(sgprs);
            self.encodings_taken += n;
            self.blocks_taken += 1;
        }
    }

    fn raw_block(&mut self, _asm: &mut Assembler, end: &str, text: &str) {
        if end == ".end_amdgpu_metadata" {
            self.kernels.metadata_yaml = Some(text.to_string());
        }
    }

    fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
        let o = f.offset as usize;
        if f.kind == FIX_FIELD {
            let (pos, width) = (f.payload & 63, f.payload >> 6 & 63);
            let signed = f.payload >> 16 & 1 != 0;
            let truncate = f.payload >> 17 & 1 != 0;
            let n = (data.len().saturating_sub(o)).min(8);
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(&data[o..o + n]);
            let mut raw = u64::from_le_bytes(b);
            let s = v.value as i64;
            let ok = if signed {
                (-(1i64 << (width - 1))..(1i64 << (width - 1))).contains(&s)
            } else {
                (0..(1i64 << width)).contains(&s)
            };
            if !v.is_abs() || (!ok && !truncate) {
                return Err(format!("value {s} does not fit its {width}-bit field"));
            }
            let mask = ((1u64 << width) - 1) << pos;
            raw = (raw & !mask) | ((v.value << pos) & mask);
            data[o..o + n].copy_from_slice(&raw.to_le_bytes()[..n]);
            if !ok {
                // CLRX syntax keeps the bits that fit, as clrxasm does.
                return Err(format!(
                    "warning: value {s} truncated to its {width}-bit field"
                ));
            }
            return Ok(());
        }
        let Some(word) = data.get_mut(o..o + 4) else {
            return Err("fixup outside its section".into());
        };
        let old = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let new = match f.kind {
            FIX_LITERAL => {
                let s = v.value as i64;
                if s < i64::from(i32::MIN) || s > i64::from(u32::MAX) {
                    return Err(format!(
                        "value {:#x} does not fit a 32-bit literal",
                        v.value
                    ));
                }
                v.value as u32
            }
            FIX_IMM16 => {
                let s = v.value as i64;
                let new = (old & !0xffff) | (v.value as u32 & 0xffff);
                if !(-0x8000..=0xffff).contains(&s) {
                    if f.payload & 1 == 0 {
                        return Err(format!("value {:#x} does not fit 16 bits", v.value));
                    }
                    word.copy_from_slice(&new.to_le_bytes());
                    return Err(format!(
                        "warning: value {:#x} truncated to 16 bits ({:#x})",
                        v.value,
                        v.value & 0xffff
                    ));
                }
                new
            }
            FIX_RELOC => {
                self.relocs.push(RelocEntry {
                    section: f.section,
                    offset: f.offset,
                    kind: f.payload as u32,
                    target: v,
                    addend: i64::from((f.payload >> 32) as u32 as i32),
                });
                old
            }
            FIX_BRANCH => {
                let off = if v.is_abs() {
                    // An absolute number is the raw dword offset (LLVM's convention).
                    let s = v.value as i64;
                    if !(-0x8000..=0x7fff).contains(&s) {
                        return Err(format!("branch offset {s} out of range"));
                    }
                    v.value as u32 & 0xffff
                } else {
                    if v.section != Some(f.section) {
                        return Err("branch target is in another section".into());
                    }
                    branch_offset(v.value as i64 - f.payload as i64)?
                };
                (old & !0xffff) | off
            }
            _ => return Err("unknown fixup".into()),
        };
        word.copy_from_slice(&new.to_le_bytes());
        Ok(())
    }

    fn code_fill(&self, len: usize, out: &mut Vec<u8>) {
        // s_nop 0 per dword; a partial dword is zero bytes.
        let words = len / 4;
        for _ in 0..words {
            out.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
        }
        out.resize(out.len() + len % 4, 0);
    }

    fn register_symbol(&mut self, asm: &mut Assembler, text: &str) -> Option<u64> {
        let gen = self.gen().unwrap_or(Gen::Gcn14);
        let mut c = risa_asm_core::Cursor::new(text);
        let align = self.dialect != risa_gcn::Dialect::Clrx;
        match opnd::register(asm, gen, &mut c, align) {
            Ok(Some((code, count))) if c.at_end() => Some(opnd::reg_payload(code, count)),
            Ok(None) => match inline_constant_code(text.trim()) {
                // CLRX: `zz = %1`, `xx = %0.5` name inline constants (scalar sources only).
                Some(code) => Some(opnd::reg_payload(code, 0)),
                None => {
                    asm.error(
                        text,
                        "expected a register, a register range or an inline constant after '%'",
                    );
                    None
                }
            },
            Ok(Some(_)) => {
                asm.error(text, "expected a register or register range after '%'");
                None
            }
            Err(opnd::Reported) => None,
        }
    }

    fn condition(&mut self, _asm: &mut Assembler, kind: &str, arg: &str) -> Option<bool> {
        match kind {
            "arch" => Some(Processor::parse(arg.trim()).is_some_and(|p| Some(p.gen) == self.gen())),
            "gpu" => Some(Processor::parse(arg.trim()).is_some_and(|p| Some(p) == self.chip)),
            "fmt" => Some(match arg.trim().to_ascii_lowercase().as_str() {
                "rawcode" | "raw" => self.format == Format::RawCode,
                "rocm" | "amdhsa" => self.format == Format::Rocm,
                _ => false,
            }),
            _ => None,
        }
    }
}
