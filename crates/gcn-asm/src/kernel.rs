//! Kernels of a code object, described by LLVM's `.amdhsa_kernel` blocks or
//! by CLRX's `.kernel` + `.config` pseudo-ops, and their 64-byte AMDHSA
//! kernel descriptors (field layout: AMDGPUUsage, "Kernel Descriptor").

use crate::backend::{Format, GcnBackend};
use risa_asm_core::{Assembler, Cursor, Pos, Statement};
use risa_gcn::{Feature, Gen};

/// Kernel argument (metadata only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arg {
    /// Name (may be empty).
    pub name: String,
    /// Type name (may be empty).
    pub type_name: String,
    /// Size in bytes.
    pub size: u32,
    /// Offset in the kernarg segment.
    pub offset: u32,
    /// Metadata value kind (`by_value`, `global_buffer`, `hidden_global_offset_x`...).
    pub value_kind: String,
    /// Address space for pointers (`global`, `local`, ...).
    pub address_space: Option<String>,
}

/// One kernel: its name and everything its descriptor and metadata need.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Symbol of the code (the kernel's entry label).
    pub name: String,
    /// Where the kernel was declared (for errors found at the end).
    pub pos: Option<Pos>,
    /// Static LDS bytes.
    pub group_segment_fixed_size: u32,
    /// Scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Kernarg segment size (0: from the arguments).
    pub kernarg_size: u32,
    /// Next free VGPR (None: counted from the code).
    pub next_free_vgpr: Option<u32>,
    /// Next free SGPR (None: counted from the code).
    pub next_free_sgpr: Option<u32>,
    /// Reserve VCC / FLAT_SCRATCH / XNACK_MASK in the SGPR count.
    pub reserve_vcc: bool,
    /// See `reserve_vcc`.
    pub reserve_flat_scratch: bool,
    /// See `reserve_vcc` (None: the target's default).
    pub reserve_xnack_mask: Option<bool>,
    /// User SGPRs: private segment buffer, dispatch ptr, queue ptr, kernarg
    /// segment ptr, dispatch id, flat scratch init, private segment size.
    pub user_sgprs: [bool; 7],
    /// Explicit USER_SGPR_COUNT (None: from `user_sgprs`).
    pub user_sgpr_count: Option<u32>,
    /// rsrc2 bit 0 (private segment wave offset SGPR).
    pub private_segment_wavefront_offset: bool,
    /// Work-group id X/Y/Z SGPRs.
    pub workgroup_id: [bool; 3],
    /// Work-group info SGPR.
    pub workgroup_info: bool,
    /// VGPR work-item ids: 0 X, 1 XY, 2 XYZ.
    pub workitem_id: u32,
    /// rsrc1 float modes, clamp and IEEE bits, priority, debug, privileged.
    pub float_round_mode_32: u32,
    /// See above.
    pub float_round_mode_16_64: u32,
    /// See above.
    pub float_denorm_mode_32: u32,
    /// See above.
    pub float_denorm_mode_16_64: u32,
    /// See above.
    pub dx10_clamp: bool,
    /// See above.
    pub ieee_mode: bool,
    /// See above.
    pub fp16_overflow: bool,
    /// See above.
    pub priority: u32,
    /// See above.
    pub debug_mode: bool,
    /// See above.
    pub priv_mode: bool,
    /// rsrc2 exception enable bits 24..30 (as a 7-bit mask).
    pub exceptions: u32,
    /// Dynamic stack (kernel_code_properties bit 11).
    pub uses_dynamic_stack: bool,
    /// Bits OR-ed into COMPUTE_PGM_RSRC1/2 (CLRX `.pgmrsrc1`/`.pgmrsrc2`).
    pub rsrc1_or: u32,
    /// See `rsrc1_or`.
    pub rsrc2_or: u32,
    /// Byte offset of the entry from the kernel symbol (CLRX `.kernel_code_entry_offset`).
    pub entry_offset: u64,
    /// Arguments (metadata).
    pub args: Vec<Arg>,
    /// Metadata `.max_flat_workgroup_size`.
    pub max_flat_workgroup_size: u32,
    /// Where `.end_amdhsa_kernel` placed the descriptor (section, offset);
    /// `None`: appended to `.rodata` when the code object is built.
    pub kd_at: Option<(risa_asm_core::SectionId, u64)>,
    /// Whole descriptor dwords given raw (`.amdhsa_risa_raw_dword OFFSET, VALUE`):
    /// written over the laid-out descriptor, for bits no field expresses.
    pub raw_dwords: Vec<(u32, u32)>,
}

impl Kernel {
    /// A kernel with the defaults of `.amdhsa_kernel` (AMDGPUUsage).
    pub fn new(name: &str) -> Self {
        Kernel {
            name: name.to_string(),
            pos: None,
            group_segment_fixed_size: 0,
            private_segment_fixed_size: 0,
            kernarg_size: 0,
            next_free_vgpr: None,
            next_free_sgpr: None,
            reserve_vcc: true,
            reserve_flat_scratch: true,
            reserve_xnack_mask: None,
            user_sgprs: [false; 7],
            user_sgpr_count: None,
            private_segment_wavefront_offset: false,
            workgroup_id: [true, false, false],
            workgroup_info: false,
            workitem_id: 0,
            float_round_mode_32: 0,
            float_round_mode_16_64: 0,
            float_denorm_mode_32: 0,
            float_denorm_mode_16_64: 3,
            dx10_clamp: true,
            ieee_mode: true,
            fp16_overflow: false,
            priority: 0,
            debug_mode: false,
            priv_mode: false,
            exceptions: 0,
            uses_dynamic_stack: false,
            rsrc1_or: 0,
            rsrc2_or: 0,
            entry_offset: 0,
            args: Vec::new(),
            max_flat_workgroup_size: 256,
            kd_at: None,
            raw_dwords: Vec::new(),
        }
    }

    /// USER_SGPR_COUNT: the enabled user SGPRs (4, 2, 2, 2, 2, 2, 1 registers).
    pub fn user_sgpr_count(&self) -> u32 {
        const SIZES: [u32; 7] = [4, 2, 2, 2, 2, 2, 1];
        self.user_sgpr_count.unwrap_or_else(|| {
            self.user_sgprs
                .iter()
                .zip(SIZES)
                .filter(|(on, _)| **on)
                .map(|(_, n)| n)
                .sum()
        })
    }

    /// SGPRs the wave needs: the highest used + 1, plus VCC, FLAT_SCRATCH and
    /// XNACK_MASK as reserved (the "extra SGPRs" rule of AMDGPUUsage).
    pub fn sgpr_count(&self, gen: Gen, used: u32) -> u32 {
        let base = self.next_free_sgpr.unwrap_or(used);
        let mut extra = if self.reserve_vcc { 2 } else { 0 };
        let xnack = self
            .reserve_xnack_mask
            .unwrap_or(gen.has(Feature::Gfx9Insts));
        // Where the generation has XNACK_MASK, FLAT_SCRATCH sits below it.
        if gen.info().xnack_mask.is_some() {
            if xnack {
                extra = 4;
            }
            if self.reserve_flat_scratch {
                extra = 6;
            }
        } else if self.reserve_flat_scratch {
            extra = 4;
        }
        base.saturating_add(extra)
    }

    /// The 64-byte kernel descriptor. `entry` is the byte offset from the
    /// descriptor to the code (0 in relocatable objects, where a relocation
    /// supplies it).
    pub fn descriptor(&self, gen: Gen, used_vgprs: u32, used_sgprs: u32, entry: i64) -> [u8; 64] {
        let vgprs = self.next_free_vgpr.unwrap_or(used_vgprs);
        let sgprs = self.sgpr_count(gen, used_sgprs);
        let vgpr_blocks = vgprs.max(1).div_ceil(4) - 1;
        let sgpr_blocks = sgprs.max(1).div_ceil(8) - 1;
        let b = |x: bool| u32::from(x);
        let mut rsrc1 = (vgpr_blocks & 63)
            | (sgpr_blocks & 15) << 6
            | (self.priority & 3) << 10
            | (self.float_round_mode_32 & 3) << 12
            | (self.float_round_mode_16_64 & 3) << 14
            | (self.float_denorm_mode_32 & 3) << 16
            | (self.float_denorm_mode_16_64 & 3) << 18
            | b(self.priv_mode) << 20
            | b(self.dx10_clamp) << 21
            | b(self.debug_mode) << 22
            | b(self.ieee_mode) << 23;
        if gen.has(Feature::Gfx9Insts) {
            rsrc1 |= b(self.fp16_overflow) << 26;
        }
        rsrc1 |= self.rsrc1_or;
        let rsrc2 = b(self.private_segment_wavefront_offset)
            | (self.user_sgpr_count() & 31) << 1
            | b(self.workgroup_id[0]) << 7
            | b(self.workgroup_id[1]) << 8
            | b(self.workgroup_id[2]) << 9
            | b(self.workgroup_info) << 10
            | (self.workitem_id & 3) << 11
            | (self.exceptions & 0x7f) << 24
            | self.rsrc2_or;
        let mut props = 0u16;
        for (k, on) in self.user_sgprs.iter().enumerate() {
            props |= u16::from(*on) << k;
        }
        props |= u16::from(self.uses_dynamic_stack) << 11;
        let mut d = [0u8; 64];
        d[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        d[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        d[8..12].copy_from_slice(&self.kernarg_size().to_le_bytes());
        d[16..24].copy_from_slice(&entry.to_le_bytes());
        d[48..52].copy_from_slice(&rsrc1.to_le_bytes());
        d[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        d[56..58].copy_from_slice(&props.to_le_bytes());
        for &(off, v) in &self.raw_dwords {
            let o = off as usize;
            d[o..o + 4].copy_from_slice(&v.to_le_bytes());
        }
        d
    }

    /// The kernarg segment size: given, or the end of the last argument.
    pub fn kernarg_size(&self) -> u32 {
        if self.kernarg_size != 0 {
            return self.kernarg_size;
        }
        self.args
            .iter()
            .map(|a| a.offset + a.size)
            .max()
            .unwrap_or(0)
    }
}

/// The `.amdhsa_*` lines that give back the 64-byte descriptor `d` (the
/// inverse of [`Kernel::descriptor`], with the entry offset 0 of relocatable
/// objects): every field the directives of `gen` have, register counts as
/// `next_free_*` of whole granules with nothing reserved (as llvm-objdump
/// prints them), and `.amdhsa_risa_raw_dword OFFSET, VALUE` for each dword
/// the fields cannot express (reserved bits, priority, debug mode, ...).
/// `xnack`: the target's XNACK is "on" or "any" (e_flags), where LLVM wants
/// `.amdhsa_reserve_xnack_mask 1` (its 2 SGPRs are then counted).
pub fn descriptor_source(gen: Gen, d: &[u8; 64], xnack: bool) -> Vec<String> {
    let dw = |o: usize| u32::from_le_bytes([d[o], d[o + 1], d[o + 2], d[o + 3]]);
    let (rsrc1, rsrc2, props) = (dw(48), dw(52), dw(56) & 0xffff);
    let bit = |v: u32, b: u32| v >> b & 1;
    let mut k = Kernel::new("");
    k.group_segment_fixed_size = dw(0);
    k.private_segment_fixed_size = dw(4);
    k.kernarg_size = dw(8);
    for (i, u) in k.user_sgprs.iter_mut().enumerate() {
        *u = bit(props, i as u32) == 1;
    }
    k.uses_dynamic_stack = bit(props, 11) == 1;
    k.user_sgpr_count = Some(rsrc2 >> 1 & 31);
    k.private_segment_wavefront_offset = bit(rsrc2, 0) == 1;
    k.workgroup_id = [bit(rsrc2, 7) == 1, bit(rsrc2, 8) == 1, bit(rsrc2, 9) == 1];
    k.workgroup_info = bit(rsrc2, 10) == 1;
    k.workitem_id = (rsrc2 >> 11 & 3).min(2);
    k.exceptions = rsrc2 >> 24 & 0x7f;
    k.next_free_vgpr = Some(((rsrc1 & 63) + 1) * 4);
    // Nothing reserved: the SGPR count is whole granules. GCN 1.0 has no
    // `.amdhsa_reserve_flat_scratch` in LLVM (gfx7+), whose default (1) adds 4.
    let sgprs = ((rsrc1 >> 6 & 15) + 1) * 8;
    let flat_field = gen.has(Feature::FlatAddressSpace);
    let xnack = xnack && gen.info().xnack_mask.is_some();
    k.reserve_vcc = false;
    k.reserve_flat_scratch = !flat_field;
    k.reserve_xnack_mask = Some(xnack);
    k.next_free_sgpr = Some(if flat_field && !xnack {
        sgprs
    } else {
        sgprs - 4
    });
    k.float_round_mode_32 = rsrc1 >> 12 & 3;
    k.float_round_mode_16_64 = rsrc1 >> 14 & 3;
    k.float_denorm_mode_32 = rsrc1 >> 16 & 3;
    k.float_denorm_mode_16_64 = rsrc1 >> 18 & 3;
    k.dx10_clamp = bit(rsrc1, 21) == 1;
    k.ieee_mode = bit(rsrc1, 23) == 1;
    k.fp16_overflow = gen.has(Feature::Gfx9Insts) && bit(rsrc1, 26) == 1;
    let b = |x: bool| u32::from(x);
    let mut l = vec![
        format!(".amdhsa_group_segment_fixed_size {}", dw(0)),
        format!(".amdhsa_private_segment_fixed_size {}", dw(4)),
        format!(".amdhsa_kernarg_size {}", dw(8)),
        format!(".amdhsa_user_sgpr_count {}", rsrc2 >> 1 & 31),
    ];
    for (i, n) in USER_SGPRS.iter().enumerate() {
        l.push(format!(".amdhsa_user_sgpr_{n} {}", b(k.user_sgprs[i])));
    }
    if k.uses_dynamic_stack {
        l.push(".amdhsa_uses_dynamic_stack 1".into());
    }
    l.push(format!(
        ".amdhsa_system_sgpr_private_segment_wavefront_offset {}",
        b(k.private_segment_wavefront_offset)
    ));
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        l.push(format!(
            ".amdhsa_system_sgpr_workgroup_id_{c} {}",
            b(k.workgroup_id[i])
        ));
    }
    l.push(format!(
        ".amdhsa_system_sgpr_workgroup_info {}",
        b(k.workgroup_info)
    ));
    l.push(format!(".amdhsa_system_vgpr_workitem_id {}", k.workitem_id));
    l.push(format!(
        ".amdhsa_next_free_vgpr {}",
        k.next_free_vgpr.unwrap_or(0)
    ));
    // Above 104 SGPRs the directive is refused: rsrc1 is then written raw.
    l.push(format!(
        ".amdhsa_next_free_sgpr {}",
        k.next_free_sgpr.unwrap_or(0).min(104)
    ));
    k.next_free_sgpr = k.next_free_sgpr.map(|n| n.min(104));
    l.push(".amdhsa_reserve_vcc 0".into());
    if flat_field {
        l.push(".amdhsa_reserve_flat_scratch 0".into());
    }
    if gen.info().xnack_mask.is_some() {
        l.push(format!(".amdhsa_reserve_xnack_mask {}", b(xnack)));
    }
    l.push(format!(
        ".amdhsa_float_round_mode_32 {}",
        k.float_round_mode_32
    ));
    l.push(format!(
        ".amdhsa_float_round_mode_16_64 {}",
        k.float_round_mode_16_64
    ));
    l.push(format!(
        ".amdhsa_float_denorm_mode_32 {}",
        k.float_denorm_mode_32
    ));
    l.push(format!(
        ".amdhsa_float_denorm_mode_16_64 {}",
        k.float_denorm_mode_16_64
    ));
    l.push(format!(".amdhsa_dx10_clamp {}", b(k.dx10_clamp)));
    l.push(format!(".amdhsa_ieee_mode {}", b(k.ieee_mode)));
    if gen.has(Feature::Gfx9Insts) {
        l.push(format!(".amdhsa_fp16_overflow {}", b(k.fp16_overflow)));
    }
    let exc = [
        "fp_ieee_invalid_op",
        "fp_denorm_src",
        "fp_ieee_div_zero",
        "fp_ieee_overflow",
        "fp_ieee_underflow",
        "fp_ieee_inexact",
        "int_div_zero",
    ];
    for (i, n) in exc.iter().enumerate() {
        l.push(format!(
            ".amdhsa_exception_{n} {}",
            bit(k.exceptions, i as u32)
        ));
    }
    // What the fields give back; every other dword is written raw.
    let mine = k.descriptor(gen, 0, 0, 0);
    for o in (0..64).step_by(4) {
        let m = u32::from_le_bytes([mine[o], mine[o + 1], mine[o + 2], mine[o + 3]]);
        if m != dw(o) {
            l.push(format!(".amdhsa_risa_raw_dword {o}, {:#010x}", dw(o)));
        }
    }
    l
}

/// An ELF symbol given by `.elf_symbol`, written as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSymbol {
    /// Name (any characters but `,` and blanks).
    pub name: String,
    /// Section name, `abs` or `undef`.
    pub section: String,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `st_info & 15`.
    pub kind: u8,
    /// `st_info >> 4`.
    pub bind: u8,
    /// `st_other`.
    pub other: u8,
}

/// The kernels declared in a source, and the pseudo-op state around them.
#[derive(Debug, Default, Clone)]
pub struct Kernels {
    /// In declaration order.
    pub list: Vec<Kernel>,
    /// Inside `.amdhsa_kernel` (index in `list`).
    amdhsa: Option<usize>,
    /// Inside a CLRX `.config` of this kernel.
    config: Option<usize>,
    /// Current CLRX `.kernel`.
    current: Option<usize>,
    /// `.amdhsa_code_object_version`.
    pub code_object_version: Option<u32>,
    /// CLRX `.eflags`: e_flags written as given (else from the generation).
    pub eflags: Option<u32>,
    /// YAML of an `.amdgpu_metadata` block (kept, not interpreted).
    pub metadata_yaml: Option<String>,
    /// The metadata note's MessagePack given as bytes
    /// (`.amdgpu_metadata_msgpack B, B, ...`, appended line by line); takes
    /// precedence over `.amdgpu_metadata`.
    pub metadata_msgpack: Option<Vec<u8>>,
    /// The whole `.note` section given as bytes (`.amdgpu_note_bytes B, ...`,
    /// appended line by line); takes precedence over the metadata.
    pub note_bytes: Option<Vec<u8>>,
    /// Symbols written as given (`.elf_symbol NAME, SECTION, VALUE, SIZE,
    /// TYPE, BIND, OTHER`; SECTION a section name, `abs` or `undef`).
    pub raw_symbols: Vec<RawSymbol>,
}

impl Kernels {
    fn find_or_add(&mut self, name: &str, pos: Pos) -> usize {
        if let Some(i) = self.list.iter().position(|k| k.name == name) {
            return i;
        }
        let mut k = Kernel::new(name);
        k.pos = Some(pos);
        self.list.push(k);
        self.list.len() - 1
    }
}

fn value(asm: &mut Assembler, args: &str) -> Option<u64> {
    let mut c = Cursor::new(args);
    let v = asm.abs_expr(&mut c)?;
    if !c.at_end() {
        asm.error(c.rest(), "unexpected text after the value");
        return None;
    }
    Some(v)
}

fn value32(asm: &mut Assembler, args: &str) -> Option<u32> {
    let v = value(asm, args)?;
    if v > u64::from(u32::MAX) {
        asm.error(args, format!("value {v:#x} does not fit 32 bits"));
        return None;
    }
    Some(v as u32)
}

/// A register count of at most `max`.
fn bounded(asm: &mut Assembler, args: &str, max: u32, what: &str) -> Option<u32> {
    let v = value32(asm, args)?;
    if v > max {
        asm.error(
            args,
            format!("{v} {what} is more than a wave can have ({max})"),
        );
        return None;
    }
    Some(v)
}

fn flag_value(asm: &mut Assembler, args: &str) -> Option<bool> {
    if args.trim().is_empty() {
        return Some(true);
    }
    let v = value(asm, args)?;
    if v > 1 {
        asm.error(args, "expected 0 or 1");
        return None;
    }
    Some(v == 1)
}

/// Handles kernel pseudo-ops; false if `name` is not one.
pub fn directive(b: &mut GcnBackend, asm: &mut Assembler, name: &str, st: &Statement<'_>) -> bool {
    let args = st.args.trim();
    let ks = &mut b.kernels;
    match name {
        ".amdhsa_kernel" => {
            if args.is_empty() {
                asm.error(st.name, ".amdhsa_kernel needs the kernel's name");
                return true;
            }
            let pos = asm.pos(st.args);
            let i = ks.find_or_add(args, pos);
            ks.amdhsa = Some(i);
            b.format = Format::Rocm;
            return true;
        }
        ".end_amdhsa_kernel" => {
            match ks.amdhsa.take() {
                // The descriptor goes here, as LLVM places it; its bytes are
                // written when the code object is built.
                Some(i) => {
                    ks.list[i].kd_at = Some((asm.current_section(), asm.offset()));
                    asm.emit(&[0; 64]);
                }
                None => asm.error(st.name, ".end_amdhsa_kernel without .amdhsa_kernel"),
            }
            return true;
        }
        ".amdhsa_code_object_version" => {
            if let Some(v) = value32(asm, args) {
                if v != 4 && v != 5 {
                    asm.warning(
                        args,
                        format!("code object version {v}: risa writes version 4 (or 5)"),
                    );
                }
                ks.code_object_version = Some(v);
            }
            return true;
        }
        ".amdgcn_target" => {
            let t = args.trim_matches('"');
            let chip = t.rsplit('-').next().unwrap_or("");
            let chip = chip.split(':').next().unwrap_or(chip);
            match crate::backend::arch_of(chip) {
                // A generation name given first (--arch gcn1.4) is refined by the chip.
                Ok(p) if b.chip.is_none_or(|c| c.gen == p.gen) => b.chip = Some(p),
                Ok(p) => asm.error(
                    st.args,
                    format!(
                        "target {t} is {} ({}), but the architecture is {}",
                        p.name,
                        p.gen,
                        b.chip.map_or("", |c| c.name)
                    ),
                ),
                Err(e) => asm.error(st.args, e),
            }
            b.format = Format::Rocm;
            return true;
        }
        ".amdgpu_metadata" => {
            asm.capture_raw(".end_amdgpu_metadata", st.name);
            return true;
        }
        ".elf_symbol" => {
            let p: Vec<&str> = risa_asm_core::lex::split_operands(args).collect();
            if p.len() != 7 {
                asm.error(
                    args,
                    ".elf_symbol takes NAME, SECTION, VALUE, SIZE, TYPE, BIND, OTHER",
                );
                return true;
            }
            let nums: Vec<Option<u64>> = p[2..].iter().map(|t| value(asm, t)).collect();
            let (Some(v), Some(sz), Some(t), Some(b), Some(o)) =
                (nums[0], nums[1], nums[2], nums[3], nums[4])
            else {
                return true;
            };
            if t > 15 || b > 15 || o > 255 {
                asm.error(args, "TYPE and BIND are 4 bits, OTHER 8 bits");
                return true;
            }
            ks.raw_symbols.push(RawSymbol {
                name: p[0].trim().to_string(),
                section: p[1].trim().to_string(),
                value: v,
                size: sz,
                kind: t as u8,
                bind: b as u8,
                other: o as u8,
            });
            return true;
        }
        ".amdgpu_metadata_msgpack" | ".amdgpu_note_bytes" => {
            let mut bytes = Vec::new();
            for p in risa_asm_core::lex::split_operands(args) {
                match value(asm, p) {
                    Some(v) if v <= 0xff => bytes.push(v as u8),
                    Some(v) => asm.error(p, format!("{v:#x} is not a byte")),
                    None => {}
                }
            }
            let to = if name == ".amdgpu_note_bytes" {
                &mut ks.note_bytes
            } else {
                &mut ks.metadata_msgpack
            };
            to.get_or_insert_with(Vec::new).extend(bytes);
            return true;
        }
        ".amdgpu_hsa_kernel"
        | ".amdgpu_lds"
        | ".amd_amdgpu_isa"
        | ".hsa_code_object_version"
        | ".hsa_code_object_isa" => {
            asm.warning(st.name, format!("'{name}' (code object v2/v3) is ignored"));
            return true;
        }
        // CLRX
        ".kernel" => {
            if args.is_empty() {
                asm.error(st.name, ".kernel needs the kernel's name");
                return true;
            }
            let pos = asm.pos(st.args);
            let i = ks.find_or_add(args, pos);
            ks.current = Some(i);
            ks.config = None;
            return true;
        }
        ".config" => {
            match ks.current {
                Some(i) => ks.config = Some(i),
                None => asm.error(st.name, ".config must follow a .kernel"),
            }
            return true;
        }
        ".control_directive" => {
            // The 128-byte control directive of code object v2 has no place in
            // v4: its content goes to a section that is not written.
            ks.config = None;
            let id = asm
                .find_section(".risa.control_directive")
                .unwrap_or_else(|| {
                    asm.add_section(".risa.control_directive", risa_asm_core::SectionKind::Data)
                });
            asm.switch_section(id);
            asm.warning(
                st.name,
                "'.control_directive' (code object v2) is not written to the code object",
            );
            return true;
        }
        // Global ROCm pseudo-ops of CLRX that code object v4 derives itself.
        ".eflags" => {
            // CLRX (ClrxAsmRocm.md): the ELF header's e_flags, as given.
            if let Some(v) = value32(asm, args) {
                ks.eflags = Some(v);
            }
            return true;
        }
        ".arch_minor" | ".arch_stepping" | ".newbinfmt" | ".tripple" | ".target"
        | ".md_version" | ".llvm10binfmt" | ".metadatav3" => return true,
        ".text" | ".data" | ".rodata" | ".section" => {
            // Leaving the configuration; the core switches the section.
            ks.config = None;
            return false;
        }
        _ => {}
    }
    if let Some(i) = ks.amdhsa {
        if let Some(field) = name.strip_prefix(".amdhsa_") {
            amdhsa_field(&mut ks.list[i], asm, field, args, st);
            return true;
        }
        asm.error(
            st.name,
            format!("'{name}' inside .amdhsa_kernel (expected .amdhsa_* or .end_amdhsa_kernel)"),
        );
        return true;
    }
    if let Some(i) = ks.config {
        return clrx_config(&mut ks.list[i], asm, name, args, st);
    }
    false
}

/// The `.amdhsa_user_sgpr_*` names, in `Kernel::user_sgprs` order.
const USER_SGPRS: [&str; 7] = [
    "private_segment_buffer",
    "dispatch_ptr",
    "queue_ptr",
    "kernarg_segment_ptr",
    "dispatch_id",
    "flat_scratch_init",
    "private_segment_size",
];

fn amdhsa_field(k: &mut Kernel, asm: &mut Assembler, field: &str, args: &str, st: &Statement<'_>) {
    let flag = |asm: &mut Assembler| flag_value(asm, args);
    if let Some(u) = field.strip_prefix("user_sgpr_") {
        if let Some(p) = USER_SGPRS.iter().position(|n| *n == u) {
            if let Some(v) = flag(asm) {
                k.user_sgprs[p] = v;
            }
            return;
        }
        if u == "count" {
            k.user_sgpr_count = value32(asm, args);
            return;
        }
    }
    let exc = [
        "fp_ieee_invalid_op",
        "fp_denorm_src",
        "fp_ieee_div_zero",
        "fp_ieee_overflow",
        "fp_ieee_underflow",
        "fp_ieee_inexact",
        "int_div_zero",
    ];
    if let Some(e) = field.strip_prefix("exception_") {
        if let Some(p) = exc.iter().position(|n| *n == e) {
            if let Some(v) = flag(asm) {
                k.exceptions = (k.exceptions & !(1 << p)) | u32::from(v) << p;
            }
            return;
        }
    }
    let two_bits = |asm: &mut Assembler| -> Option<u32> {
        let v = value32(asm, args)?;
        if v > 3 {
            asm.error(args, "expected 0..3");
            return None;
        }
        Some(v)
    };
    if field == "risa_raw_dword" {
        let parts: Vec<&str> = risa_asm_core::lex::split_operands(args).collect();
        if parts.len() != 2 {
            asm.error(args, "expected OFFSET, VALUE");
            return;
        }
        let (Some(off), Some(v)) = (value32(asm, parts[0]), value32(asm, parts[1])) else {
            return;
        };
        if off % 4 != 0 || off > 60 {
            asm.error(
                parts[0],
                "expected a dword offset in the descriptor: 0, 4, ... 60",
            );
            return;
        }
        k.raw_dwords.retain(|&(o, _)| o != off);
        k.raw_dwords.push((off, v));
        return;
    }
    match field {
        "group_segment_fixed_size" => k.group_segment_fixed_size = value32(asm, args).unwrap_or(0),
        "private_segment_fixed_size" => {
            k.private_segment_fixed_size = value32(asm, args).unwrap_or(0)
        }
        "kernarg_size" => k.kernarg_size = value32(asm, args).unwrap_or(0),
        "next_free_vgpr" => k.next_free_vgpr = bounded(asm, args, 256, "VGPRs"),
        "next_free_sgpr" => k.next_free_sgpr = bounded(asm, args, 104, "SGPRs"),
        "reserve_vcc" => k.reserve_vcc = flag(asm).unwrap_or(true),
        "reserve_flat_scratch" => k.reserve_flat_scratch = flag(asm).unwrap_or(true),
        "reserve_xnack_mask" => k.reserve_xnack_mask = flag(asm),
        "uses_dynamic_stack" => k.uses_dynamic_stack = flag(asm).unwrap_or(false),
        "system_sgpr_private_segment_wavefront_offset" | "enable_private_segment" => {
            k.private_segment_wavefront_offset = flag(asm).unwrap_or(false)
        }
        "system_sgpr_workgroup_id_x" => k.workgroup_id[0] = flag(asm).unwrap_or(true),
        "system_sgpr_workgroup_id_y" => k.workgroup_id[1] = flag(asm).unwrap_or(false),
        "system_sgpr_workgroup_id_z" => k.workgroup_id[2] = flag(asm).unwrap_or(false),
        "system_sgpr_workgroup_info" => k.workgroup_info = flag(asm).unwrap_or(false),
        "system_vgpr_workitem_id" => {
            let v = two_bits(asm).unwrap_or(0);
            if v == 3 {
                asm.error(args, "expected 0, 1 or 2");
            }
            k.workitem_id = v;
        }
        "float_round_mode_32" => k.float_round_mode_32 = two_bits(asm).unwrap_or(0),
        "float_round_mode_16_64" => k.float_round_mode_16_64 = two_bits(asm).unwrap_or(0),
        "float_denorm_mode_32" => k.float_denorm_mode_32 = two_bits(asm).unwrap_or(0),
        "float_denorm_mode_16_64" => k.float_denorm_mode_16_64 = two_bits(asm).unwrap_or(3),
        "dx10_clamp" => k.dx10_clamp = flag(asm).unwrap_or(true),
        "ieee_mode" => k.ieee_mode = flag(asm).unwrap_or(true),
        "fp16_overflow" => k.fp16_overflow = flag(asm).unwrap_or(false),
        _ => asm.error(
            st.name,
            format!("unknown or unsupported kernel descriptor field '.amdhsa_{field}'"),
        ),
    }
}

/// CLRX `.config` pseudo-ops (ClrxAsmRocm.md / ClrxAsmPseudoOps.md), mapped
/// onto the code object v4 descriptor and metadata.
fn clrx_config(
    k: &mut Kernel,
    asm: &mut Assembler,
    name: &str,
    args: &str,
    st: &Statement<'_>,
) -> bool {
    let flag = |asm: &mut Assembler| flag_value(asm, args).unwrap_or(false);
    match name {
        ".dims" => {
            let d = args.to_ascii_lowercase();
            if d.is_empty() || d.chars().any(|c| !"xyz".contains(c)) {
                asm.error(args, "expected dimensions: a combination of x, y, z");
                return true;
            }
            k.workgroup_id = [d.contains('x'), d.contains('y'), d.contains('z')];
            k.workitem_id = if d.contains('z') {
                2
            } else if d.contains('y') {
                1
            } else {
                0
            };
        }
        ".sgprsnum" => {
            // CLRX counts VCC and the other extra registers in .sgprsnum.
            k.next_free_sgpr = bounded(asm, args, 112, "SGPRs");
            k.reserve_vcc = false;
            k.reserve_flat_scratch = false;
            k.reserve_xnack_mask = Some(false);
        }
        ".vgprsnum" => k.next_free_vgpr = bounded(asm, args, 256, "VGPRs"),
        ".localsize" | ".group_segment_fixed_size" | ".workgroup_group_segment_size" => {
            k.group_segment_fixed_size = value32(asm, args).unwrap_or(0)
        }
        ".scratchbuffer" | ".private_segment_fixed_size" | ".workitem_private_segment_size" => {
            k.private_segment_fixed_size = value32(asm, args).unwrap_or(0)
        }
        ".kernarg_segment_size" | ".md_kernarg_segment_size" => {
            k.kernarg_size = value32(asm, args).unwrap_or(0)
        }
        ".userdatanum" => k.user_sgpr_count = value32(asm, args),
        ".pgmrsrc1" => k.rsrc1_or = value32(asm, args).unwrap_or(0),
        ".pgmrsrc2" => k.rsrc2_or = value32(asm, args).unwrap_or(0),
        ".dx10clamp" => k.dx10_clamp = true,
        ".ieeemode" => k.ieee_mode = true,
        ".debugmode" => k.debug_mode = true,
        ".privmode" => k.priv_mode = true,
        ".tgsize" => k.workgroup_info = true,
        ".priority" => k.priority = value32(asm, args).unwrap_or(0) & 3,
        ".floatmode" => {
            let v = value32(asm, args).unwrap_or(0xc0);
            k.float_round_mode_32 = v & 3;
            k.float_round_mode_16_64 = v >> 2 & 3;
            k.float_denorm_mode_32 = v >> 4 & 3;
            k.float_denorm_mode_16_64 = v >> 6 & 3;
        }
        ".exceptions" => k.exceptions = value32(asm, args).unwrap_or(0) & 0x7f,
        ".use_private_segment_buffer" => k.user_sgprs[0] = flag(asm),
        ".use_dispatch_ptr" => k.user_sgprs[1] = flag(asm),
        ".use_queue_ptr" => k.user_sgprs[2] = flag(asm),
        ".use_kernarg_segment_ptr" => k.user_sgprs[3] = flag(asm),
        ".use_dispatch_id" => k.user_sgprs[4] = flag(asm),
        ".use_flat_scratch_init" => k.user_sgprs[5] = flag(asm),
        ".use_private_segment_size" => k.user_sgprs[6] = flag(asm),
        ".use_dynamic_call_stack" => k.uses_dynamic_stack = flag(asm),
        ".kernel_code_entry_offset" => k.entry_offset = value(asm, args).unwrap_or(0),
        ".max_flat_work_group_size" => {
            k.max_flat_workgroup_size = value32(asm, args).unwrap_or(256)
        }
        ".arg" => {
            if let Some(a) = clrx_arg(asm, args, k.args.last()) {
                k.args.push(a);
            }
        }
        // Accepted for compatibility; code object v4 has no place for them.
        ".codeversion"
        | ".call_convention"
        | ".machine"
        | ".private_elem_size"
        | ".use_ptr64"
        | ".kernarg_segment_align"
        | ".group_segment_align"
        | ".private_segment_align"
        | ".wavefront_size"
        | ".md_language"
        | ".md_version"
        | ".wavefront_sgpr_count"
        | ".workitem_vgpr_count"
        | ".reserved_sgprs"
        | ".reserved_vgprs"
        | ".runtime_handle"
        | ".md_symname"
        | ".md_wavefront_size"
        | ".md_sgprsnum"
        | ".md_vgprsnum"
        | ".md_kernarg_segment_align"
        | ".md_group_segment_fixed_size"
        | ".md_private_segment_fixed_size"
        | ".cws"
        | ".reqd_work_group_size"
        | ".work_group_size_hint"
        | ".vectypehint"
        | ".fixed_work_group_size"
        | ".spilledsgprs"
        | ".spilledvgprs"
        | ".use_xnack_enabled"
        | ".use_debug_enabled"
        | ".use_ordered_append_gds"
        | ".use_grid_workgroup_count"
        | ".default_hsa_features" => {}
        _ => {
            let _ = st;
            return false;
        }
    }
    true
}

/// `.arg [NAME][, "TYPENAME"], SIZE, [ALIGN], VALUEKIND, VALUETYPE[, POINTEEALIGN][, ADDRSPACE]...`
fn clrx_arg(asm: &mut Assembler, args: &str, prev: Option<&Arg>) -> Option<Arg> {
    let parts: Vec<&str> = risa_asm_core::lex::split_operands(args).collect();
    // NAME may be empty, TYPENAME is the optional quoted second part.
    let (name, rest) = match parts.first() {
        Some(n) if !n.starts_with('"') => (n.to_string(), &parts[1..]),
        Some(_) => (String::new(), &parts[..]),
        None => {
            asm.error(args, ".arg needs at least a size and a value kind");
            return None;
        }
    };
    let (type_name, rest) = match rest.first() {
        Some(t) if t.starts_with('"') => (t.trim_matches('"').to_string(), &rest[1..]),
        _ => (String::new(), rest),
    };
    if rest.len() < 3 {
        asm.error(args, ".arg: expected SIZE, [ALIGN], VALUEKIND, VALUETYPE");
        return None;
    }
    let size = value32(asm, rest[0])?;
    let align = if rest[1].is_empty() {
        size.clamp(1, 16).next_power_of_two()
    } else {
        value32(asm, rest[1])?.max(1)
    };
    let kind = rest[2].to_ascii_lowercase();
    let value_kind = match kind.as_str() {
        "value" => "by_value",
        "globalbuf" => "global_buffer",
        "dynshptr" => "dynamic_shared_pointer",
        "gox" | "globaloffsetx" => "hidden_global_offset_x",
        "goy" | "globaloffsety" => "hidden_global_offset_y",
        "goz" | "globaloffsetz" => "hidden_global_offset_z",
        "none" => "hidden_none",
        "printfbuf" => "hidden_printf_buffer",
        "defqueue" => "hidden_default_queue",
        "complact" => "hidden_completion_action",
        "multigridsyncarg" => "hidden_multigrid_sync_arg",
        "image" => "image",
        "sampler" => "sampler",
        "pipe" => "pipe",
        "queue" => "queue",
        _ => {
            asm.error(
                rest[2],
                format!("unknown argument value kind '{}'", rest[2]),
            );
            return None;
        }
    };
    let address_space = rest
        .iter()
        .skip(4)
        .map(|s| {
            s.split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
        })
        .find(|s| {
            matches!(
                s.as_str(),
                "global" | "local" | "constant" | "private" | "generic" | "region"
            )
        });
    let end = prev.map_or(0, |p| p.offset + p.size);
    let offset = end.div_ceil(align) * align;
    Some(Arg {
        name,
        type_name,
        size,
        offset,
        value_kind: value_kind.to_string(),
        address_space,
    })
}
