//! What a decoded instruction reads and writes: register ranges (SGPRs and
//! the scalar specials by operand code, VGPRs by number), SCC, the hardware
//! registers of `s_setreg`/`s_getreg`, and which memory it touches.
//!
//! The explicit operands come from the table row's signature (role, type,
//! register class) read through the encoding's fields, so every row of every
//! generation is covered without a case per instruction. What a row does not
//! say (SCC, EXEC of the `saveexec` forms, M0 of LDS and messages, ...) is the
//! short `IMPLICIT` list of name patterns, resolved once per row.
//!
//! [`access`] allocates nothing: the sets are fixed-capacity arrays.

use risa_gcn::layout::{self, Enc, Field};
use risa_gcn::table::{flag, Family, OpInfo, Role, Ty, OPS};
use risa_gcn::{Feature, Instr};
use std::sync::OnceLock;

/// Operand code of `vcc_lo` (VCC is the pair 106-107).
pub const VCC: u16 = 106;
/// Operand code of `m0`.
pub const M0: u16 = 124;
/// Operand code of `exec_lo` (EXEC is the pair 126-127).
pub const EXEC: u16 = 126;

/// Register file of a [`Reg`] range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum File {
    /// Scalar operand codes 0-127: SGPRs and the named scalar registers
    /// (VCC 106-107, M0 124, EXEC 126-127, trap temporaries, ...).
    Scalar,
    /// Vector registers by number.
    Vector,
}

/// Why an instruction reads a register: the hazard rules care which operand
/// it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Use {
    /// An ALU source (or an SALU/VALU destination that is also read).
    Src,
    /// The lane-select SGPR of `v_readlane`/`v_writelane`.
    LaneSel,
    /// An address, resource, sampler or offset of a memory instruction.
    Addr,
    /// Data a store, atomic or export sends to memory.
    Data,
    /// VCC read as the carry-in / condition of a VOP2 or VOP3 carry form.
    Carry,
    /// A register the instruction reads without naming it (EXEC of vector
    /// instructions, M0 of LDS and messages, VCC of `v_div_fmas`).
    Implicit,
}

/// A range of consecutive registers of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reg {
    /// The register file.
    pub file: File,
    /// First register (operand code for [`File::Scalar`]).
    pub first: u16,
    /// Number of 32-bit registers.
    pub count: u8,
    /// Which operand it is.
    pub how: Use,
}

impl Reg {
    /// Whether the range contains scalar operand code / VGPR `r` of `file`.
    #[inline]
    pub fn covers(&self, file: File, r: u16) -> bool {
        self.file == file && r >= self.first && r < self.first + u16::from(self.count)
    }

    /// Whether two ranges share a register.
    #[inline]
    pub fn overlaps(&self, o: &Reg) -> bool {
        self.file == o.file
            && self.first < o.first + u16::from(o.count)
            && o.first < self.first + u16::from(self.count)
    }

    /// The range as assembly text (`s[4:5]`, `v7`, `vcc`, `m0`).
    pub fn name(&self) -> String {
        let (p, n) = match self.file {
            File::Vector => ("v", self.first),
            File::Scalar => match (self.first, self.count) {
                (VCC, 2) => return "vcc".into(),
                (VCC, 1) => return "vcc_lo".into(),
                (107, 1) => return "vcc_hi".into(),
                (M0, 1) => return "m0".into(),
                (EXEC, 2) => return "exec".into(),
                (EXEC, 1) => return "exec_lo".into(),
                (127, 1) => return "exec_hi".into(),
                _ => ("s", self.first),
            },
        };
        if self.count == 1 {
            format!("{p}{n}")
        } else {
            format!("{p}[{n}:{}]", n + u16::from(self.count) - 1)
        }
    }
}

/// A fixed-capacity list of register ranges.
#[derive(Debug, Clone, Copy)]
pub struct Regs<const N: usize> {
    items: [Reg; N],
    len: u8,
    /// A range was dropped because the list was full (never happens for the
    /// instructions of the tables; the exhaustive test checks it).
    pub overflow: bool,
}

const NO_REG: Reg = Reg {
    file: File::Scalar,
    first: 0,
    count: 0,
    how: Use::Src,
};

impl<const N: usize> Default for Regs<N> {
    fn default() -> Self {
        Regs {
            items: [NO_REG; N],
            len: 0,
            overflow: false,
        }
    }
}

impl<const N: usize> Regs<N> {
    fn push(&mut self, r: Reg) {
        if r.count == 0 {
            return;
        }
        match self.items.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = r;
                self.len += 1;
            }
            None => self.overflow = true,
        }
    }

    /// The ranges.
    #[inline]
    pub fn as_slice(&self) -> &[Reg] {
        &self.items[..self.len as usize]
    }

    /// Whether any range contains register `r` of `file`.
    #[inline]
    pub fn has(&self, file: File, r: u16) -> bool {
        self.as_slice().iter().any(|x| x.covers(file, r))
    }

    /// The first range that overlaps `o`.
    #[inline]
    pub fn overlapping(&self, o: &Reg) -> Option<&Reg> {
        self.as_slice().iter().find(|x| x.overlaps(o))
    }

    /// Whether any range is of `file`.
    #[inline]
    pub fn any_of(&self, file: File) -> bool {
        self.as_slice().iter().any(|x| x.file == file)
    }
}

/// The broad class of an instruction, as the wait-state rules and the
/// counters name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Scalar ALU (SOP1, SOP2, SOPK, SOPC) and program control (SOPP).
    Salu,
    /// Scalar memory (SMRD/SMEM).
    Smem,
    /// Vector ALU (VOP1/2/C/3/3P, SDWA, DPP, VINTRP).
    Valu,
    /// Vector memory through a buffer or image resource (MUBUF, MTBUF, MIMG).
    Vmem,
    /// FLAT, GLOBAL and SCRATCH.
    Flat,
    /// LDS/GDS (DS).
    Ds,
    /// Export.
    Exp,
}

/// Flag bits of [`Access::flags`].
pub mod fl {
    /// Reads SCC.
    pub const SCC_R: u32 = 1 << 0;
    /// Writes SCC.
    pub const SCC_W: u32 = 1 << 1;
    /// Reads VCCZ (`src_vccz`, `s_cbranch_vcc*`).
    pub const VCCZ_R: u32 = 1 << 2;
    /// Reads EXECZ (`src_execz`, `s_cbranch_exec*`).
    pub const EXECZ_R: u32 = 1 << 3;
    /// Reads LDS through `src_lds_direct` (M0 gives the address).
    pub const LDS_DIRECT: u32 = 1 << 4;
    /// Writes a hardware register (`s_setreg*`; the id is in [`super::Access::hwreg`]).
    pub const HWREG_W: u32 = 1 << 5;
    /// Reads a hardware register (`s_getreg*`).
    pub const HWREG_R: u32 = 1 << 6;
    /// Writes MODE bits beside `s_setreg` (`s_set_gpr_idx_*`, `s_setvskip`).
    pub const MODE_W: u32 = 1 << 7;
    /// A register operand is indexed by M0 (`s_movrel*`, `v_movrel*`): the
    /// range given is the base only.
    pub const INDEXED: u32 = 1 << 8;
    /// Changes control flow (branch, call, return, end of program).
    pub const BRANCH: u32 = 1 << 9;
    /// Reads TRAPSTS implicitly (`s_rfe*`).
    pub const RFE: u32 = 1 << 10;
    /// `s_waitcnt`.
    pub const WAITCNT: u32 = 1 << 11;
    /// `s_nop`.
    pub const NOP: u32 = 1 << 12;
    /// A DPP instruction.
    pub const DPP: u32 = 1 << 13;
}

/// Memory bits of [`Access::mem`].
pub mod mem {
    /// Reads LDS.
    pub const LDS_R: u16 = 1 << 0;
    /// Writes LDS.
    pub const LDS_W: u16 = 1 << 1;
    /// Reads GDS.
    pub const GDS_R: u16 = 1 << 2;
    /// Writes GDS.
    pub const GDS_W: u16 = 1 << 3;
    /// Reads global/constant memory through a vector memory instruction (or FLAT).
    pub const VMEM_R: u16 = 1 << 4;
    /// Writes global memory through a vector memory instruction (or FLAT).
    pub const VMEM_W: u16 = 1 << 5;
    /// Reads memory through the scalar cache.
    pub const SMEM_R: u16 = 1 << 6;
    /// Writes memory through the scalar cache (GCN 1.2+ scalar stores).
    pub const SMEM_W: u16 = 1 << 7;
    /// Exports (EXP).
    pub const EXPORT: u16 = 1 << 8;
    /// Sends a message (`s_sendmsg*`, `s_ttracedata`).
    pub const MSG: u16 = 1 << 9;
    /// The memory instruction returns data into registers.
    pub const RETURNS: u16 = 1 << 10;
    /// Private (scratch) memory: SCRATCH instructions.
    pub const PRIVATE: u16 = 1 << 11;
    /// A FLAT instruction: the address may be LDS or global memory.
    pub const FLAT_ANY: u16 = 1 << 12;
    /// A cache control instruction with no data (`buffer_wbinvl1`, `s_dcache_*`).
    pub const CACHE: u16 = 1 << 13;
}

/// A hardware register an `s_setreg`/`s_getreg` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hwreg {
    /// Register id (1 MODE, 2 STATUS, 3 TRAPSTS, ...).
    pub id: u8,
    /// First bit.
    pub offset: u8,
    /// Number of bits.
    pub size: u8,
}

/// Hardware register id of MODE.
pub const HW_MODE: u8 = 1;
/// Hardware register id of TRAPSTS.
pub const HW_TRAPSTS: u8 = 3;

/// What one instruction reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct Access {
    /// Its class.
    pub class: Class,
    /// Registers read.
    pub reads: Regs<8>,
    /// Registers written.
    pub writes: Regs<4>,
    /// [`fl`] bits.
    pub flags: u32,
    /// [`mem`] bits.
    pub mem: u16,
    /// The hardware register of `s_setreg*`/`s_getreg*`.
    pub hwreg: Option<Hwreg>,
}

impl Access {
    /// Whether flag `f` ([`fl`]) is set.
    #[inline]
    pub fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }

    /// Whether any bit of `m` ([`mem`]) is set.
    #[inline]
    pub fn touches(&self, m: u16) -> bool {
        self.mem & m != 0
    }

    /// Whether the instruction writes scalar operand code `r` (an SGPR, VCC, M0, EXEC half).
    #[inline]
    pub fn writes_sreg(&self, r: u16) -> bool {
        self.writes.has(File::Scalar, r)
    }

    /// Whether the instruction reads scalar operand code `r`.
    #[inline]
    pub fn reads_sreg(&self, r: u16) -> bool {
        self.reads.has(File::Scalar, r)
    }

    /// Whether it is a vector ALU instruction.
    #[inline]
    pub fn is_valu(&self) -> bool {
        self.class == Class::Valu
    }

    /// Whether it is a scalar ALU instruction (SOPP included).
    #[inline]
    pub fn is_salu(&self) -> bool {
        self.class == Class::Salu
    }

    /// Whether it is a vector memory instruction (buffer, image, FLAT, GLOBAL, SCRATCH).
    #[inline]
    pub fn is_vmem(&self) -> bool {
        matches!(self.class, Class::Vmem | Class::Flat)
    }
}

// Implicit effects of rows, which the signatures do not carry.
const I_SCC_R: u32 = 1 << 0;
const I_SCC_W: u32 = 1 << 1;
const I_EXEC_R: u32 = 1 << 2;
const I_EXEC_W: u32 = 1 << 3;
const I_VCC_R: u32 = 1 << 4;
const I_M0_R: u32 = 1 << 5;
const I_M0_W: u32 = 1 << 6;
/// The destination field is read (read-modify-write, or a compare of it).
const I_D_R: u32 = 1 << 7;
/// The destination field is only read (`s_cmpk_*`, `s_setreg_b32`).
const I_D_NOT_W: u32 = 1 << 8;
const I_MODE_W: u32 = 1 << 9;
const I_INDEXED: u32 = 1 << 10;
const I_BRANCH: u32 = 1 << 11;
const I_VCCZ_R: u32 = 1 << 12;
const I_EXECZ_R: u32 = 1 << 13;
const I_HW_R: u32 = 1 << 14;
const I_HW_W: u32 = 1 << 15;
const I_RFE: u32 = 1 << 16;
const I_MSG: u32 = 1 << 17;
const I_WAITCNT: u32 = 1 << 18;
const I_NOP: u32 = 1 << 19;
/// SCC is not written although the family's rows usually write it.
const I_NO_SCC: u32 = 1 << 20;
/// No LDS access although the row is DS (lane shuffles through the LDS
/// crossbar: `ds_swizzle`, `ds_permute`, `ds_bpermute`).
const I_NO_LDS: u32 = 1 << 21;
const I_LDS_W: u32 = 1 << 22;

/// Effects of rows beyond their operands, by name: `*` at either end is a
/// wildcard. Sources: the ISA guides' instruction descriptions (CLRX's
/// GcnInstrs*.md in `shared/reference`).
const IMPLICIT: &[(&str, u32)] = &[
    // SCC: scalar compares and most SOP2/SOP1 arithmetic write it; a few read it.
    ("s_cmp_*", I_SCC_W),
    ("s_bitcmp*", I_SCC_W),
    ("s_cmpk_*", I_SCC_W | I_D_R | I_D_NOT_W),
    ("s_addk_i32", I_SCC_W | I_D_R),
    ("s_mulk_i32", I_D_R),
    ("s_cmovk_i32", I_SCC_R | I_D_R),
    ("s_addc_u32", I_SCC_R),
    ("s_subb_u32", I_SCC_R),
    ("s_cselect_*", I_SCC_R | I_NO_SCC),
    ("s_cmov_*", I_SCC_R | I_D_R),
    ("s_bfm_*", I_NO_SCC),
    ("s_mul_i32", I_NO_SCC),
    ("s_mul_hi_*", I_NO_SCC),
    ("s_pack_*", I_NO_SCC),
    ("s_mov_*", I_NO_SCC),
    ("s_movk_i32", I_NO_SCC),
    ("s_brev_*", I_NO_SCC),
    ("s_ff0_*", I_NO_SCC),
    ("s_ff1_*", I_NO_SCC),
    ("s_flbit_*", I_NO_SCC),
    ("s_sext_*", I_NO_SCC),
    ("s_bitset*", I_NO_SCC | I_D_R),
    ("s_bitreplicate_*", I_NO_SCC),
    ("s_getpc_b64", I_NO_SCC),
    ("s_setpc_b64", I_NO_SCC | I_BRANCH),
    ("s_swappc_b64", I_NO_SCC | I_BRANCH),
    ("s_call_b64", I_NO_SCC | I_BRANCH),
    ("s_rfe_b64", I_NO_SCC | I_BRANCH | I_RFE),
    ("s_rfe_restore_b64", I_NO_SCC | I_BRANCH | I_RFE),
    (
        "s_cbranch_g_fork",
        I_NO_SCC | I_BRANCH | I_EXEC_R | I_EXEC_W,
    ),
    (
        "s_cbranch_i_fork",
        I_BRANCH | I_EXEC_R | I_EXEC_W | I_D_R | I_D_NOT_W,
    ),
    ("s_cbranch_join", I_SCC_W | I_BRANCH | I_EXEC_R | I_EXEC_W),
    ("s_movrels_*", I_NO_SCC | I_M0_R | I_INDEXED),
    ("s_movreld_*", I_NO_SCC | I_M0_R | I_INDEXED),
    ("s_set_gpr_idx_idx", I_NO_SCC | I_M0_R | I_M0_W),
    ("s_set_gpr_idx_on", I_NO_SCC | I_M0_R | I_M0_W | I_MODE_W),
    ("s_set_gpr_idx_off", I_MODE_W),
    ("s_set_gpr_idx_mode", I_M0_R | I_M0_W),
    ("s_setvskip", I_NO_SCC | I_MODE_W),
    ("*_saveexec_b64", I_SCC_W | I_EXEC_R | I_EXEC_W),
    ("*_wrexec_b64", I_SCC_W | I_EXEC_R | I_EXEC_W),
    ("s_getreg_*", I_HW_R | I_NO_SCC),
    ("s_setreg_b32", I_HW_W | I_D_R | I_D_NOT_W | I_NO_SCC),
    ("s_setreg_imm32_b32", I_HW_W | I_NO_SCC),
    ("s_mov_fed_b32", I_NO_SCC),
    ("s_mov_regrd_b32", I_NO_SCC),
    // Program control.
    ("s_branch", I_BRANCH),
    ("s_cbranch_scc*", I_BRANCH | I_SCC_R),
    ("s_cbranch_vcc*", I_BRANCH | I_VCC_R | I_VCCZ_R),
    ("s_cbranch_exec*", I_BRANCH | I_EXEC_R | I_EXECZ_R),
    ("s_cbranch_cdbg*", I_BRANCH),
    ("s_endpgm*", I_BRANCH),
    ("s_sendmsg*", I_MSG | I_M0_R),
    ("s_ttracedata", I_MSG | I_M0_R),
    ("s_waitcnt", I_WAITCNT),
    ("s_nop", I_NOP),
    // Vector ALU reading M0: interpolation (the LDS parameter base).
    ("v_interp_*", I_M0_R),
    // DS: lane shuffles do not touch LDS memory; add-TID reads M0.
    ("ds_swizzle_b32", I_NO_LDS),
    ("ds_permute_b32", I_NO_LDS),
    ("ds_bpermute_b32", I_NO_LDS),
    ("ds_nop", I_NO_LDS),
    ("ds_*_addtid_*", I_M0_R),
    ("ds_append", I_LDS_W),
    ("ds_consume", I_LDS_W),
    ("ds_gws_*", I_M0_R),
    ("ds_ordered_count", I_M0_R),
];

fn matches(pat: &str, name: &str) -> bool {
    match (pat.strip_prefix('*'), pat.strip_suffix('*')) {
        (Some(p), _) => name.ends_with(p),
        (_, Some(p)) if p.contains('*') => {
            let (a, b) = p.split_once('*').unwrap_or((p, ""));
            name.starts_with(a) && name[a.len()..].contains(b)
        }
        (_, Some(p)) => name.starts_with(p),
        _ => name == pat,
    }
}

/// The implicit-effect bits of every row, computed once.
fn implicit_bits(op: u16) -> u32 {
    static BITS: OnceLock<Vec<u32>> = OnceLock::new();
    let bits = BITS.get_or_init(|| {
        OPS.iter()
            .map(|o| {
                let mut b = IMPLICIT
                    .iter()
                    .filter(|(p, _)| matches(p, o.name))
                    .fold(0, |a, (_, f)| a | f);
                // SOP1, SOP2 and SOPC rows write SCC unless listed otherwise.
                if matches!(o.family, Family::Sop2 | Family::Sop1 | Family::Sopc)
                    && b & I_NO_SCC == 0
                {
                    b |= I_SCC_W;
                }
                b
            })
            .collect()
    });
    bits.get(op as usize).copied().unwrap_or(0)
}

/// The scalar source an operand code names, as register, flag or nothing
/// (constants and literals).
fn scalar_code(a: &mut Access, code: u32, count: u32, how: Use) {
    match code {
        0..=127 => a.reads.push(sreg(code, count, how)),
        251 => a.flags |= fl::VCCZ_R,
        252 => a.flags |= fl::EXECZ_R,
        253 => a.flags |= fl::SCC_R,
        254 => {
            a.flags |= fl::LDS_DIRECT;
            a.mem |= mem::LDS_R;
            a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
        }
        _ => {}
    }
}

/// A 9-bit vector-ALU source code: scalar codes below 256, VGPRs above.
fn src9(a: &mut Access, code: u32, count: u32, how: Use) {
    if code >= 256 {
        a.reads.push(vreg(code - 256, count, how));
    } else {
        scalar_code(a, code, count, how);
    }
}

#[inline]
fn sreg(code: u32, count: u32, how: Use) -> Reg {
    // Clamp ranges that would run past the scalar code space (odd fields).
    let count = count.min(128u32.saturating_sub(code));
    Reg {
        file: File::Scalar,
        first: code as u16,
        count: count as u8,
        how,
    }
}

#[inline]
fn vreg(n: u32, count: u32, how: Use) -> Reg {
    let count = count.min(256u32.saturating_sub(n));
    Reg {
        file: File::Vector,
        first: n as u16,
        count: count as u8,
        how,
    }
}

fn class_of(enc: Enc) -> Class {
    match enc {
        Enc::Sop2 | Enc::Sopk | Enc::Sop1 | Enc::Sopc | Enc::Sopp => Class::Salu,
        Enc::Smrd | Enc::Smem => Class::Smem,
        Enc::Ds => Class::Ds,
        Enc::Mubuf | Enc::Mtbuf | Enc::Mimg => Class::Vmem,
        Enc::Flat => Class::Flat,
        Enc::Exp => Class::Exp,
        _ => Class::Valu,
    }
}

/// What `i` reads and writes.
///
/// ```
/// use risa_check::access::{access, File};
/// use risa_gcn::{decode, Gen};
/// // v_add_f32_e32 v0, v1, v2
/// let a = access(&decode(Gen::Gcn12, &[0x0200_0501]).unwrap());
/// assert!(a.writes.has(File::Vector, 0));
/// assert!(a.reads.has(File::Vector, 1) && a.reads.has(File::Vector, 2));
/// assert!(a.reads_sreg(126)); // EXEC
/// ```
pub fn access(i: &Instr) -> Access {
    let info = i.info();
    let imp = implicit_bits(i.op);
    let mut a = Access {
        class: class_of(i.enc),
        reads: Regs::default(),
        writes: Regs::default(),
        flags: 0,
        mem: 0,
        hwreg: None,
    };
    match a.class {
        Class::Salu => scalar_alu(i, info, imp, &mut a),
        Class::Smem => scalar_mem(i, info, &mut a),
        Class::Valu => vector_alu(i, info, &mut a),
        Class::Ds => ds(i, info, imp, &mut a),
        Class::Vmem if i.enc == Enc::Mimg => mimg(i, info, &mut a),
        Class::Vmem => buffer(i, info, &mut a),
        Class::Flat => flat(i, info, &mut a),
        Class::Exp => export(i, &mut a),
    }
    if !matches!(a.class, Class::Salu | Class::Smem) {
        a.reads.push(sreg(u32::from(EXEC), 2, Use::Implicit));
    }
    implicit(i, imp, &mut a);
    a
}

/// The effects of the [`IMPLICIT`] bits.
fn implicit(i: &Instr, imp: u32, a: &mut Access) {
    let pairs = [
        (I_SCC_R, fl::SCC_R),
        (I_SCC_W, fl::SCC_W),
        (I_VCCZ_R, fl::VCCZ_R),
        (I_EXECZ_R, fl::EXECZ_R),
        (I_MODE_W, fl::MODE_W),
        (I_INDEXED, fl::INDEXED),
        (I_BRANCH, fl::BRANCH),
        (I_RFE, fl::RFE),
        (I_WAITCNT, fl::WAITCNT),
        (I_NOP, fl::NOP),
        (I_HW_R, fl::HWREG_R),
        (I_HW_W, fl::HWREG_W),
    ];
    for (i_bit, f) in pairs {
        if imp & i_bit != 0 {
            a.flags |= f;
        }
    }
    if imp & I_EXEC_R != 0 && !a.reads_sreg(EXEC) {
        a.reads.push(sreg(u32::from(EXEC), 2, Use::Implicit));
    }
    if imp & I_EXEC_W != 0 {
        a.writes.push(sreg(u32::from(EXEC), 2, Use::Implicit));
    }
    if imp & I_VCC_R != 0 {
        a.reads.push(sreg(u32::from(VCC), 2, Use::Implicit));
    }
    if imp & I_M0_R != 0 {
        a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
    }
    if imp & I_M0_W != 0 {
        a.writes.push(sreg(u32::from(M0), 1, Use::Implicit));
    }
    if imp & I_MSG != 0 {
        a.mem |= mem::MSG;
    }
    if imp & (I_HW_R | I_HW_W) != 0 {
        let v = i.field(Field::Simm16);
        a.hwreg = Some(Hwreg {
            id: (v & 0x3f) as u8,
            offset: (v >> 6 & 0x1f) as u8,
            size: ((v >> 11 & 0x1f) + 1) as u8,
        });
    }
}

fn scalar_alu(i: &Instr, info: &OpInfo, imp: u32, a: &mut Access) {
    for op in info.sig {
        let n = op.ty.dwords();
        match (op.role, i.enc) {
            (Role::D, _) => {
                let d = i.field(Field::Sdst);
                if imp & I_D_R != 0 {
                    scalar_code(a, d, n, Use::Src);
                }
                if imp & I_D_NOT_W == 0 && d < 128 {
                    a.writes.push(sreg(d, n, Use::Src));
                }
            }
            (Role::A, _) => scalar_code(a, i.field(Field::Ssrc0), n, Use::Src),
            (Role::B, _) if op.ty == Ty::Gpridx => {}
            (Role::B, _) => scalar_code(a, i.field(Field::Ssrc1), n, Use::Src),
            _ => {}
        }
    }
}

fn scalar_mem(i: &Instr, info: &OpInfo, a: &mut Access) {
    let store = info.has(flag::STORE);
    let atomic = info.has(flag::ATOMIC);
    let glc = i.field(Field::Glc) != 0;
    let imm = i.field(Field::Imm) != 0;
    a.mem |= if store {
        mem::SMEM_W
    } else if atomic {
        mem::SMEM_R | mem::SMEM_W
    } else if info.operand(Role::D).is_some() && !info.has(flag::IMM_D) {
        mem::SMEM_R
    } else {
        mem::CACHE
    };
    for op in info.sig {
        let n = op.ty.dwords();
        match op.role {
            Role::D if info.has(flag::IMM_D) => {}
            Role::D => {
                let d = i.field(Field::Sdst);
                if store || atomic {
                    scalar_code(a, d, n, Use::Data);
                }
                // An atomic returns the old value only with GLC (cmpswap: the first half).
                if !store && (!atomic || glc) {
                    let n = if atomic && info.name.contains("cmpswap") {
                        n / 2
                    } else {
                        n
                    };
                    if d < 128 {
                        a.writes.push(sreg(d, n, Use::Src));
                        a.mem |= mem::RETURNS;
                    }
                }
            }
            Role::A => a.reads.push(sreg(i.field(Field::Sbase) * 2, n, Use::Addr)),
            Role::O if i.field(Field::Soe) != 0 => {
                scalar_code(a, i.field(Field::Soffset), 1, Use::Addr)
            }
            Role::O if !(imm || i.enc == Enc::Smrd && i.lit.is_some()) => {
                scalar_code(a, i.field(Field::Offset) & 0x7f, 1, Use::Addr)
            }
            _ => {}
        }
    }
}

fn vector_alu(i: &Instr, info: &OpInfo, a: &mut Access) {
    let short = matches!(i.enc, Enc::Vop1 | Enc::Vop2 | Enc::Vopc);
    let sdwa = matches!(i.enc, Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa);
    let dpp = matches!(i.enc, Enc::Vop1Dpp | Enc::Vop2Dpp | Enc::VopcDpp);
    if dpp {
        a.flags |= fl::DPP;
    }
    let vop3 = matches!(i.enc, Enc::Vop3 | Enc::Vop3b | Enc::Vop3p);
    // Interpolation moved to VOP3 keeps attribute and channel in SRC0.
    let interp3 = vop3
        && (info.family == Family::Vintrp
            || (info.family == Family::Vop3 && info.operand(Role::T).is_some()));
    // VOPC writes VCC (short forms) or its SDST (VOP3 VDST field; SDWA SDST on GCN 1.4).
    if info.family == Family::Vopc {
        let d = if vop3 {
            i.field(Field::Vdst)
        } else if sdwa && layout::has(i.enc, i.gen, Field::SdwaSd) && i.field(Field::SdwaSd) != 0 {
            i.field(Field::SdwaSdst)
        } else {
            u32::from(VCC)
        };
        if d < 128 {
            a.writes.push(sreg(d, 2, Use::Src));
        }
    }
    if info.has(flag::CMPX) {
        a.writes.push(sreg(u32::from(EXEC), 2, Use::Implicit));
    }
    if i.enc == Enc::Vintrp || interp3 || info.family == Family::Vintrp {
        a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
        a.mem |= mem::LDS_R;
    }
    for op in info.sig {
        let n = op.ty.dwords();
        match op.role {
            Role::D => {
                let d = i.field(Field::Vdst);
                if op.sgpr {
                    if d < 128 {
                        a.writes.push(sreg(d, n, Use::Src));
                    }
                } else {
                    a.writes.push(vreg(d, n, Use::Src));
                }
                // v_mac/v_fmac accumulate into their destination; v_writelane
                // keeps the other lanes.
                if info.has(flag::TIED) || (info.name.starts_with("v_writelane") && !op.sgpr) {
                    a.reads.push(vreg(d, n, Use::Src));
                }
            }
            Role::SD => {
                let d = if vop3 {
                    i.field(Field::Sdst3)
                } else {
                    u32::from(VCC)
                };
                if d < 128 {
                    a.writes.push(sreg(d, 2, Use::Src));
                }
            }
            Role::SC => {
                if vop3 {
                    src9(a, i.field(Field::Src2), 2, Use::Carry);
                } else {
                    a.reads.push(sreg(u32::from(VCC), 2, Use::Carry));
                }
            }
            Role::A | Role::B | Role::C => {
                let how = if op.sgpr && op.role == Role::B {
                    Use::LaneSel
                } else {
                    Use::Src
                };
                vector_src(i, info, op.role, n, how, short, sdwa, dpp, interp3, a);
            }
            _ => {}
        }
    }
    if let Some((code, n)) = info.implicit_read() {
        a.reads.push(sreg(code, n, Use::Implicit));
        if code == u32::from(M0) {
            a.flags |= fl::INDEXED;
        }
    }
}

/// One source operand of a vector ALU instruction, read through the field
/// its encoding puts it in.
#[allow(clippy::too_many_arguments)]
fn vector_src(
    i: &Instr,
    info: &OpInfo,
    role: Role,
    n: u32,
    how: Use,
    short: bool,
    sdwa: bool,
    dpp: bool,
    interp3: bool,
    a: &mut Access,
) {
    if i.enc == Enc::Vintrp {
        if role == Role::A {
            a.reads.push(vreg(i.field(Field::Src0), 1, how));
        }
        return;
    }
    if interp3 {
        // The vsrc of VOP3 interpolation is SRC1; C (f16 p2's vdst_in) is SRC2.
        let f = if role == Role::C {
            Field::Src2
        } else {
            Field::Src1
        };
        src9(a, i.field(f), n, how);
        return;
    }
    if short || sdwa || dpp {
        match role {
            Role::A if sdwa => {
                let c = i.field(Field::Src0);
                let scalar = i.field(Field::S0) != 0;
                src9(a, if scalar { c } else { c + 256 }, n, how);
            }
            Role::A if dpp => a.reads.push(vreg(i.field(Field::Src0), n, how)),
            Role::A => src9(a, i.field(Field::Src0), n, how),
            Role::B if info.operand(Role::B).is_some_and(|o| o.sgpr) => {
                scalar_code(a, i.field(Field::Vsrc1), n, how)
            }
            Role::B if sdwa => {
                let c = i.field(Field::Vsrc1);
                let scalar = i.field(Field::S1) != 0;
                src9(a, if scalar { c } else { c + 256 }, n, how);
            }
            Role::B => a.reads.push(vreg(i.field(Field::Vsrc1), n, how)),
            _ => {}
        }
        return;
    }
    let f = match role {
        Role::A => Field::Src0,
        Role::B => Field::Src1,
        _ => Field::Src2,
    };
    src9(a, i.field(f), n, how);
}

fn ds(i: &Instr, info: &OpInfo, imp: u32, a: &mut Access) {
    let gds = info.has(flag::GDS) || i.field(Field::Gds) != 0;
    let (r, w) = if gds {
        (mem::GDS_R, mem::GDS_W)
    } else {
        (mem::LDS_R, mem::LDS_W)
    };
    let has_d = info.operand(Role::D).is_some();
    let has_data = info.operand(Role::B).is_some();
    if imp & I_NO_LDS == 0 {
        if has_d {
            a.mem |= r;
        }
        if has_data || imp & I_LDS_W != 0 {
            a.mem |= w;
        }
    }
    if has_d {
        a.mem |= mem::RETURNS;
    }
    // GDS instructions take their base and size from M0; before GCN 1.4
    // every DS instruction clamps its LDS addresses with M0.
    if gds || !i.gen.has(Feature::Gfx9Insts) {
        a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
    }
    for op in info.sig {
        let n = op.ty.dwords();
        match op.role {
            Role::D => a.writes.push(vreg(i.field(Field::Vdst), n, Use::Src)),
            Role::A => a
                .reads
                .push(vreg(i.field(Field::Addr), n.min(1), Use::Addr)),
            Role::B => a.reads.push(vreg(i.field(Field::Data0), n, Use::Data)),
            Role::C => a.reads.push(vreg(i.field(Field::Data1), n, Use::Data)),
            _ => {}
        }
    }
}

fn buffer(i: &Instr, info: &OpInfo, a: &mut Access) {
    if info.has(flag::NOARGS) {
        a.mem |= mem::CACHE;
        return;
    }
    let store = info.has(flag::STORE);
    let atomic = info.has(flag::ATOMIC);
    let glc = i.field(Field::Glc) != 0;
    let lds = i.field(Field::Lds) != 0;
    let tfe = i.field(Field::Tfe);
    let data = info.operand(Role::V);
    if lds {
        // The load goes to LDS at M0 (buffer_store_lds_dword: from LDS).
        a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
    }
    match data {
        None if store => a.mem |= mem::LDS_R | mem::VMEM_W,
        None => {}
        Some(_) if store => a.mem |= mem::VMEM_W,
        Some(_) if atomic => a.mem |= mem::VMEM_R | mem::VMEM_W,
        Some(_) if lds => a.mem |= mem::VMEM_R | mem::LDS_W,
        Some(_) => a.mem |= mem::VMEM_R,
    }
    if let Some(op) = data {
        let n = op.ty.data_dwords(i.gen);
        let v = i.field(Field::Vdata);
        if store || atomic {
            a.reads.push(vreg(v, n, Use::Data));
        }
        let returns = if atomic { glc } else { !store && !lds };
        if returns {
            // A cmpswap returns the old value: the first half of its data.
            let ret = if atomic && info.name.contains("cmpswap") {
                n / 2
            } else {
                n
            };
            a.writes.push(vreg(v, ret + tfe, Use::Src));
            a.mem |= mem::RETURNS;
        }
    }
    let addr = match (
        i.field(Field::Offen) + i.field(Field::Idxen),
        i.field(Field::Addr64),
    ) {
        (_, 1) | (2, _) => 2,
        (1, _) => 1,
        _ => 0,
    };
    a.reads.push(vreg(i.field(Field::Vaddr), addr, Use::Addr));
    a.reads.push(sreg(i.field(Field::Srsrc) * 4, 4, Use::Addr));
    scalar_code(a, i.field(Field::Soffset), 1, Use::Addr);
}

fn mimg(i: &Instr, info: &OpInfo, a: &mut Access) {
    let store = info.has(flag::STORE);
    let atomic = info.has(flag::ATOMIC);
    let glc = i.field(Field::Glc) != 0;
    let dmask = i.field(Field::Dmask);
    let tfe = i.field(Field::Tfe) | i.field(Field::Lwe);
    let mut n = if info.has(flag::GATHER4) {
        4
    } else {
        dmask.count_ones().max(1)
    };
    if i.field(Field::D16) != 0 && !i.gen.has(Feature::UnpackedD16Vmem) {
        n = n.div_ceil(2);
    }
    if let Some(op) = info.operand(Role::V) {
        if atomic && dmask == 0 {
            n = op.ty.dwords();
        }
        let v = i.field(Field::Vdata);
        if store || atomic {
            a.reads.push(vreg(v, n, Use::Data));
        }
        let returns = if atomic {
            glc
        } else {
            !store && !info.has(flag::NORET)
        };
        if returns {
            a.writes.push(vreg(v, n + tfe, Use::Src));
            a.mem |= mem::RETURNS;
        }
    }
    a.mem |= if store {
        mem::VMEM_W
    } else if atomic {
        mem::VMEM_R | mem::VMEM_W
    } else {
        mem::VMEM_R
    };
    let addr = info.operand(Role::A).map_or(1, |o| o.ty.dwords());
    a.reads.push(vreg(i.field(Field::Vaddr), addr, Use::Addr));
    let r128 = i.field(Field::R128) != 0 && !i.gen.has(Feature::R128A16);
    a.reads.push(sreg(
        i.field(Field::Srsrc) * 4,
        if r128 { 4 } else { 8 },
        Use::Addr,
    ));
    if info.has(flag::SAMPLER) {
        a.reads.push(sreg(i.field(Field::Ssamp) * 4, 4, Use::Addr));
    }
}

fn flat(i: &Instr, info: &OpInfo, a: &mut Access) {
    let store = info.has(flag::STORE);
    let atomic = info.has(flag::ATOMIC);
    let glc = i.field(Field::Glc) != 0;
    let segs = i.gen.has(Feature::FlatGlobalInsts) && info.family != Family::Flat;
    let saddr = i.field(Field::Saddr);
    let has_saddr = segs && saddr != 0x7f;
    a.mem |= match info.family {
        Family::Scratch => mem::PRIVATE,
        Family::Flat => mem::FLAT_ANY,
        _ => 0,
    };
    a.mem |= if store {
        mem::VMEM_W
    } else if atomic {
        mem::VMEM_R | mem::VMEM_W
    } else {
        mem::VMEM_R
    };
    if layout::has(Enc::Flat, i.gen, Field::Lds) && i.field(Field::Lds) != 0 {
        a.reads.push(sreg(u32::from(M0), 1, Use::Implicit));
        a.mem |= mem::LDS_W;
    }
    for op in info.sig {
        match op.role {
            Role::D if !atomic || glc => {
                let n = op.ty.data_dwords(i.gen) + i.field(Field::Tfe);
                a.writes.push(vreg(i.field(Field::Vdst), n, Use::Src));
                a.mem |= mem::RETURNS;
            }
            Role::A => {
                let n = match info.family {
                    Family::Scratch if has_saddr => 0,
                    Family::Scratch => 1,
                    Family::Global if has_saddr => 1,
                    _ => 2,
                };
                a.reads.push(vreg(i.field(Field::Addr), n, Use::Addr));
            }
            Role::V => a.reads.push(vreg(
                i.field(Field::Data0),
                op.ty.data_dwords(i.gen),
                Use::Data,
            )),
            _ => {}
        }
    }
    if has_saddr {
        let n = if info.family == Family::Global { 2 } else { 1 };
        scalar_code(a, saddr, n, Use::Addr);
    }
}

fn export(i: &Instr, a: &mut Access) {
    a.mem |= mem::EXPORT;
    let en = i.field(Field::En);
    let regs = [Field::Vsrc0, Field::Vsrc1e, Field::Vsrc2, Field::Vsrc3];
    if i.field(Field::Compr) != 0 {
        for (k, f) in regs[..2].iter().enumerate() {
            if en >> (2 * k) & 3 != 0 {
                a.reads.push(vreg(i.field(*f), 1, Use::Data));
            }
        }
    } else {
        for (k, f) in regs.iter().enumerate() {
            if en >> k & 1 != 0 {
                a.reads.push(vreg(i.field(*f), 1, Use::Data));
            }
        }
    }
}
