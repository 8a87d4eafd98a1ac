//! The printer: one decoded form, two dialects.
//!
//! * [`Dialect::Llvm`] prints what `llvm-mc` accepts and re-encodes to the same
//!   bytes (`_e32`/`_e64`/`_sdwa`/`_dpp` suffixes, LLVM's modifier names).
//! * [`Dialect::Clrx`] prints CLRX's syntax (no suffixes, `vop3` to force the
//!   long encoding, CLRX's mnemonics and modifier spellings).

use crate::decode::Instr;
use crate::gen::Gen;
use crate::layout::{self, Enc, Field};
use crate::operand::{
    inline_float_text, inline_value, sgpr_count, special_name, special_pair_name, ttmp_range,
    DFMT_NAMES, HWREG_NAMES, HWREG_NAMES_CLRX, HWREG_NAMES_CLRX_GCN14, NFMT_NAMES,
};
use crate::optext::{
    self, pack16_all, pack_all, pack_concat, push_packed, push_packed16, push_padded3,
    push_small_u32, Packed, Packed16,
};
use crate::processor::{Feature, Target};
use crate::table::{flag, Family, OpId, OpInfo, Opnd, Role, Ty, OPS};

mod plan;

/// Assembly syntax flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// CLRX's syntax (the default of `risa disasm`).
    #[default]
    Clrx,
    /// LLVM's AMDGPU syntax, as `llvm-mc` reads and writes it.
    Llvm,
}

/// Prints one instruction to a new string (convenience for [`Printer`]).
pub fn print(i: &Instr, dialect: Dialect) -> String {
    let mut s = String::with_capacity(48);
    Printer::new(dialect).write(i, &mut s);
    s
}

/// The text before and after a source with VOP3 negate/absolute modifiers,
/// by dialect (CLRX, LLVM) and `neg | abs << 1 | constant << 2`.
///
/// Constants take the functional forms `neg(..)`/`abs(..)`: `-2.0` would
/// read back as the inline constant -2.0, not as 2.0 negated. LLVM writes
/// `|-1.0|`; CLRX's `abs()` keeps a constant's sign readable.
static MODDED: [[[Packed; 3]; 8]; 2] = {
    let mut t = [[[0; 3]; 8]; 2];
    let mut llvm = 0;
    while llvm < 2 {
        let mut k = 0;
        while k < 8 {
            let (neg, abs, constant) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
            let neg_fn = neg && constant;
            // CLRX writes `abs(v1)`, LLVM `|v1|`.
            let abs_fn = abs && llvm == 0;
            let (neg_pre, neg_post) = match (neg, neg_fn) {
                (true, true) => ("neg(", ")"),
                (true, false) => ("-", ""),
                _ => ("", ""),
            };
            let (abs_pre, abs_post) = match (abs, abs_fn) {
                (true, true) => ("abs(", ")"),
                (true, false) => ("|", "|"),
                _ => ("", ""),
            };
            // (`neg(abs(` is 8 bytes: the two prefixes stay apart.)
            t[llvm][k] = [
                pack_concat(neg_pre, ""),
                pack_concat(abs_pre, ""),
                pack_concat(abs_post, neg_post),
            ];
            k += 1;
        }
        llvm += 1;
    }
    t
};

/// Prints instructions; holds what the text depends on beyond the instruction.
pub struct Printer<'a> {
    /// The syntax flavour.
    pub dialect: Dialect,
    /// Byte address of the instruction, to resolve branch targets.
    pub pc: u64,
    /// Names branch targets (byte addresses); when it returns `None` the raw offset is printed.
    pub label: Option<&'a dyn Fn(u64) -> Option<&'a str>>,
    /// Set when the text printed since [`Printer::write_checked`] began
    /// cannot give the words back in this dialect (see there).
    lossy: std::cell::Cell<bool>,
    /// Set while [`Printer::write_checked`] runs: the checks behind
    /// `lossy` cost a third of the printing time, which plain printing
    /// ([`Printer::write`]) does not pay.
    checking: std::cell::Cell<bool>,
    /// Whether vector ALU lines are printed by plan when checked (see
    /// [`plan`]); the test of the plans turns it off to get the general
    /// path's text.
    plans: bool,
}

/// Register numbers and offsets are small: below 1000 a number is one
/// table look-up and one store, longer numbers take the loop.
#[inline(always)]
fn push_u32(out: &mut Vec<u8>, v: u32) {
    if v < 1000 {
        push_small_u32(out, v);
    } else {
        push_u32_long(out, v);
    }
}

/// Numbers of 1000 and more (offsets): groups of three digits, the first
/// unpadded, from the same table.
#[inline(never)]
fn push_u32_long(out: &mut Vec<u8>, v: u32) {
    if v >= 1_000_000 {
        push_u32(out, v / 1_000_000);
        push_padded3(out, v / 1000 % 1000);
    } else {
        push_small_u32(out, v / 1000);
    }
    push_padded3(out, v % 1000);
}

/// Appends a string of up to 32 bytes (mnemonics, modifier names,
/// separators: every string the printer writes but labels) as two
/// overlapping copies of 1, 4, 8 or 16 bytes, not a `memcpy` call (a
/// listing spent 3 % of its time in those calls for the mnemonics alone);
/// for a constant string the length tests fold away.
#[inline(always)]
fn push_bytes(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    if n > 32 {
        return out.extend_from_slice(b);
    }
    out.reserve(n);
    let len = out.len();
    // SAFETY: the loads read `b[0..w]` and `b[n - w..n]` with `w <= n`
    // (the short case `b[0]`, `b[n / 2]` and `b[n - 1]`, `n >= 1`); the
    // stores write the `n` bytes past `len` that `reserve` made room for,
    // all of them (the two copies overlap), before `set_len`.
    unsafe {
        let (src, dst) = (b.as_ptr(), out.as_mut_ptr().add(len));
        macro_rules! two_copies {
            ($t:ty, $w:expr) => {{
                let (head, tail) = (
                    src.cast::<$t>().read_unaligned(),
                    src.add(n - $w).cast::<$t>().read_unaligned(),
                );
                dst.cast::<$t>().write_unaligned(head);
                dst.add(n - $w).cast::<$t>().write_unaligned(tail);
            }};
        }
        if n >= 16 {
            two_copies!(u128, 16)
        } else if n >= 8 {
            two_copies!(u64, 8)
        } else if n >= 4 {
            two_copies!(u32, 4)
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
        out.set_len(len + n);
    }
}

/// A signed number in decimal (`-3`), without `fmt`'s machinery: branch
/// offsets and `lit()` values are printed per instruction.
#[inline]
fn push_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    push_u64(out, v.unsigned_abs());
}

/// An unsigned number in decimal (any width).
#[inline]
fn push_u64(out: &mut Vec<u8>, v: u64) {
    match u32::try_from(v) {
        Ok(v) => push_u32(out, v),
        Err(_) => {
            push_u64(out, v / 1000);
            push_padded3(out, (v % 1000) as u32);
        }
    }
}

/// `s` in lower case (CLRX's spelling of the upper-case name tables),
/// without a temporary `String`.
fn push_lower(out: &mut Vec<u8>, s: &str) {
    out.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
}

/// `name` followed by `v` in decimal (`offset:12`).
#[inline]
fn push_named_u32(out: &mut Vec<u8>, name: &str, v: u32) {
    out.push_str(name);
    push_u32(out, v);
}

/// `name` followed by `v` in hex (`row_mask:0xf`).
fn push_named_hex(out: &mut Vec<u8>, name: &str, v: u32) {
    out.push_str(name);
    push_hex(out, u64::from(v));
}

#[inline(always)]
fn push_hex(out: &mut Vec<u8>, v: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("0x");
    let digits = if v == 0 {
        1
    } else {
        (64 - v.leading_zeros()).div_ceil(4)
    };
    for d in (0..digits).rev() {
        out.push(HEX[((v >> (4 * d)) & 15) as usize]);
    }
}

/// Text output into a byte buffer: the printer works on bytes because
/// `String::push` re-encodes every character.
trait PushStr {
    fn push_str(&mut self, s: &str);
}

impl PushStr for Vec<u8> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        push_bytes(self, s.as_bytes());
    }
}

/// `v5` or `v[5:6]`.
#[inline(always)]
fn push_range(out: &mut Vec<u8>, prefix: &str, first: u32, count: u32) {
    out.push_str(prefix);
    if count == 1 {
        push_u32(out, first);
    } else {
        out.push(b'[');
        push_u32(out, first);
        out.push(b':');
        push_u32(out, first + count - 1);
        out.push(b']');
    }
}

#[inline(always)]
fn push_vgpr(out: &mut Vec<u8>, n: u32, count: u32) {
    if count == 1 && n < 256 {
        push_packed(out, optext::VGPR[n as usize]);
    } else if count == 2 && n < 256 {
        push_packed16(out, optext::vgpr_pair(n));
    } else if (3..=4).contains(&count) && n < 256 {
        push_packed16(out, optext::VGPR_WIDE[count as usize - 3][n as usize]);
    } else {
        push_range(out, "v", n, count);
    }
}

/// A scalar register operand (codes 0..=127): SGPRs, VCC, EXEC, M0, TTMPs...
#[inline]
fn push_sreg(out: &mut Vec<u8>, gen: Gen, code: u32, count: u32) {
    if count == 1 && code < 256 {
        let t = optext::sreg_table(gen)[code as usize];
        if t != 0 {
            return push_packed(out, t);
        }
    } else if count == 2 && code < 128 {
        let t = optext::src_pair_table(gen)[code as usize];
        if t != 0 {
            return push_packed16(out, t);
        }
    } else if (count == 4 || count == 8) && code < 128 {
        return push_packed16(
            out,
            optext::SREG_WIDE[gen as usize][count as usize / 8][code as usize],
        );
    }
    push_sreg_general(out, gen, code, count);
}

/// The inline constant code the assembler would give the 32-bit literal
/// `v` printed for an operand of type `ty` (as hex), if any.
fn inline_code_of(gen: Gen, v: u32, ty: Ty) -> Option<u32> {
    crate::operand::int_inline_code(gen, u64::from(v), ty)
}

/// The VADDR width CLRX shows for a MIMG instruction: at least 4 (clrxdisasm
/// prints `v[n:n+3]` for the address of every image instruction), more where
/// the instruction's address has more components. GcnInstrsMimg.md gives the
/// minimum as `VADDR(min:max)`, made from the suffixes: one register for the
/// coordinates, one each for `_c` (Z-compare), `_o` (offsets), `_b` (bias),
/// `_cl` (LOD clamp), `_l` (LOD), two for `_d`/`_cd` (derivatives).
fn clrx_vaddr_dwords(name: &str) -> u32 {
    let Some(rest) = name
        .strip_prefix("image_sample")
        .or_else(|| name.strip_prefix("image_gather4"))
    else {
        return 4;
    };
    let mut n = 1;
    for part in rest.split('_') {
        n += match part {
            "c" | "o" | "b" | "cl" | "l" => 1,
            "d" | "cd" => 2,
            _ => 0,
        };
    }
    n.max(4)
}

/// [`clrx_vaddr_dwords`] of row `op`, from a table made on first use:
/// parsing the name cost a sixth of printing an image instruction.
fn clrx_vaddr_min(op: OpId) -> u32 {
    static MIN: std::sync::OnceLock<Box<[u8]>> = std::sync::OnceLock::new();
    let t = MIN.get_or_init(|| {
        OPS.iter()
            .map(|r| clrx_vaddr_dwords(r.clrx) as u8)
            .collect()
    });
    u32::from(t[usize::from(op)])
}

/// The encoding suffix LLVM's syntax gives `info`'s mnemonic in `enc`.
#[inline]
fn llvm_suffix(info: &OpInfo, enc: Enc, gen: Gen) -> &'static str {
    let is_vop_family = matches!(info.family, Family::Vop2 | Family::Vop1 | Family::Vopc);
    match enc {
        // Ops with no VOP3 form (in LLVM) have one spelling only (llvm-mc
        // prints no suffix).
        Enc::Vop2 | Enc::Vop1 | Enc::Vopc
            if !info.has(flag::NOVOP3) && !info.has(flag::NOLLVM64) =>
        {
            "_e32"
        }
        Enc::Vop3 | Enc::Vop3b if is_vop_family => "_e64",
        Enc::Vop3 if info.family == Family::Vintrp => "_e64",
        Enc::Vintrp if info.vop3_opcode(gen).is_some() => "_e32",
        Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa => "_sdwa",
        Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp => "_dpp",
        _ => "",
    }
}

/// Whether `info`'s VOP3 form is an interpolation (its attribute and
/// channel in SRC0, its vsrc in SRC1).
#[inline]
fn vop3_interp(info: &OpInfo) -> bool {
    info.family == Family::Vintrp
        || (info.family == Family::Vop3 && info.operand(Role::T).is_some())
}

/// The implicit VCC read (of the 32-bit carry forms and v_div_fmas), for
/// [`Printer::constant_bus`].
const IMPLICIT_VCC: u32 = 0x1000;

/// Marks a 64-bit scalar read for [`Printer::constant_bus`] in LLVM's
/// syntax: llvm-mc counts `s[0:1]` and `s0` (or `vcc` and `vcc_lo`) as two
/// registers.
const WIDE_READ: u32 = 0x2000;

/// CLRX's names of the MTBUF number formats (NFMT).
pub const CLRX_NFMT: [&str; 8] = [
    "unorm",
    "snorm",
    "uscaled",
    "sscaled",
    "uint",
    "sint",
    "snorm_ogl",
    "float",
];

/// Whether `enc` is a vector ALU encoding (VOP*, with SDWA/DPP, VINTRP).
fn vector_alu(enc: Enc) -> bool {
    matches!(
        enc,
        Enc::Vop2
            | Enc::Vop1
            | Enc::Vopc
            | Enc::Vop3
            | Enc::Vop3b
            | Enc::Vop3p
            | Enc::Vop2Sdwa
            | Enc::Vop1Sdwa
            | Enc::VopcSdwa
            | Enc::Vop2Dpp
            | Enc::Vop1Dpp
            | Enc::VopcDpp
            | Enc::Vintrp
    )
}

/// Whether a row has a 64-bit destination or source (A, B): such rows have
/// no SDWA or DPP form an assembler takes (both work on 32-bit lanes).
fn has_wide_operand(info: &OpInfo) -> bool {
    info.sig
        .iter()
        .any(|o| matches!(o.role, Role::A | Role::B | Role::D) && o.ty.dwords() > 1)
}

/// [`push_sreg`] without the table of single registers (which is made to match it).
fn push_sreg_general(out: &mut Vec<u8>, gen: Gen, code: u32, count: u32) {
    if code < sgpr_count(gen) {
        return push_range(out, "s", code, count);
    }
    let (t0, tn) = ttmp_range(gen);
    if code >= t0 && code < t0 + tn {
        return push_range(out, "ttmp", code - t0, count);
    }
    let name = if count == 1 {
        special_name(gen, code)
    } else if count == 2 {
        special_pair_name(gen, code)
    } else {
        None
    };
    match name {
        Some(n) => out.push_str(n),
        // Not a register of this generation: print the code so nothing is lost.
        None => push_range(out, "s", code, count),
    }
}

impl<'a> Printer<'a> {
    /// A printer for `dialect` with no labels, at address 0.
    pub fn new(dialect: Dialect) -> Self {
        Printer {
            dialect,
            pc: 0,
            label: None,
            lossy: std::cell::Cell::new(false),
            checking: std::cell::Cell::new(false),
            plans: true,
        }
    }

    /// A printer for `dialect` that names branch targets with `label`.
    pub fn with_labels(dialect: Dialect, label: &'a dyn Fn(u64) -> Option<&'a str>) -> Self {
        Printer {
            label: Some(label),
            ..Printer::new(dialect)
        }
    }

    /// Writes the instruction's text like [`Printer::write`] and says whether
    /// the text can stand for the instruction's words in this dialect.
    ///
    /// It cannot (`false`) when a field holds a value the dialect has no
    /// name for: an operand code that names no register or constant
    /// (`src_reserved_N`, an SGPR past the last one, an export target or
    /// interpolation parameter that does not exist), and in CLRX's syntax
    /// also a negated or absolute constant (CLRX's assembler reads `-abs(2)`
    /// and `--1` as expressions, not modifiers), an SDWA select 7 or
    /// `dst_unused` 3, and a DPP control that names no operation. A listing
    /// prints such instructions as data (`.int`) with this text as a comment.
    pub fn write_checked(&self, i: &Instr, out: &mut String) -> bool {
        self.lossy.set(false);
        self.checking.set(true);
        self.write(i, out);
        self.checking.set(false);
        !self.lossy.get()
    }

    /// Writes the instruction's text (no newline) to `out`.
    pub fn write(&self, i: &Instr, out: &mut String) {
        let start = out.len();
        // SAFETY: the printer appends only whole `&str`s and ASCII bytes, so
        // the buffer stays valid UTF-8; the debug assertion re-checks it.
        let bytes = unsafe { out.as_mut_vec() };
        self.write_bytes(i, bytes);
        debug_assert!(std::str::from_utf8(&bytes[start..]).is_ok());
    }

    /// Appends the instruction's text (no newline, UTF-8) to a byte buffer:
    /// the fastest way to produce a listing.
    pub fn write_bytes(&self, i: &Instr, out: &mut Vec<u8>) {
        match (self.dialect, self.checking.get()) {
            (Dialect::Llvm, false) => Pr::<true, false>(self).write_bytes(i, out),
            (Dialect::Llvm, true) => Pr::<true, true>(self).write_bytes(i, out),
            (Dialect::Clrx, false) => Pr::<false, false>(self).write_bytes(i, out),
            (Dialect::Clrx, true) => Pr::<false, true>(self).write_bytes(i, out),
        }
    }
}

/// Asks the cache for the rows printing an instruction of row `op` in
/// `enc` reads first: its row of [`OPS`] and its plan.
#[inline(always)]
pub(crate) fn prefetch_rows(op: crate::table::OpId, enc: Enc, gen: Gen, dialect: Dialect) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault;
    // SSE, which it needs, is part of every x86-64 target.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(OPS.as_ptr().wrapping_add(op as usize).cast::<i8>());
        if let Some(p) = plan::row_address(op, enc, gen, dialect) {
            _mm_prefetch::<_MM_HINT_T0>(p);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (op, enc, gen, dialect);
}

/// Whether `role` is a source's (A, B) in SDWA and DPP: a test of the
/// role's bit rather than a jump on the role, whose target changes with
/// every operand in turn (the worst case of an indirect branch).
#[inline(always)]
fn source_role(role: Role) -> bool {
    const SOURCES: u32 = 1 << Role::A as u32 | 1 << Role::B as u32;
    1u32 << role as u32 & SOURCES != 0
}

/// LLVM's SDWA select values.
const SEL_LLVM: [Packed; 8] = pack_all([
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "7",
]);

/// The prefixes of the SDWA selects (` dst_sel:`, ...).
struct SdwaSel;

impl SdwaSel {
    const DST: Packed16 = pack16_all([" dst_sel:"])[0];
    const SRC0: Packed16 = pack16_all([" src0_sel:"])[0];
    const SRC1: Packed16 = pack16_all([" src1_sel:"])[0];
    const UNUSED: Packed16 = pack16_all([" dst_unused:"])[0];
}

/// The printer at work, with the dialect (`L`: LLVM's) and whether the
/// text is being checked (`C`, see [`Printer::write_checked`]) fixed at
/// compile time: each of the four combinations is compiled apart, so the
/// per-operand dialect and checking tests cost nothing.
struct Pr<'p, 'a, const L: bool, const C: bool>(&'p Printer<'a>);

impl<'a, const L: bool, const C: bool> std::ops::Deref for Pr<'_, 'a, L, C> {
    type Target = Printer<'a>;
    fn deref(&self) -> &Printer<'a> {
        self.0
    }
}

impl<const L: bool, const C: bool> Pr<'_, '_, L, C> {
    /// [`Printer::write_bytes`] for this dialect and checking mode.
    #[inline(always)]
    fn write_bytes(&self, i: &Instr, out: &mut Vec<u8>) {
        // Plans pay off where the checks run (listings): unchecked, the
        // general path is cheaper on clang's kernels (literals, op_sel).
        if C && self.plans && self.by_plan(i, out) {
            return;
        }
        let info = i.info();
        if self.llvm() && self.checking() && info.has(flag::NOLLVM) {
            // llvm-mc 14 does not know the instruction.
            self.lose();
        }
        let name = if self.llvm() { info.name } else { info.clrx };
        out.push_str(name);
        if self.llvm() {
            out.push_str(llvm_suffix(info, i.enc, i.gen));
        }
        let mut ops = Ops { out, first: true };
        match i.enc {
            Enc::Sop2 | Enc::Sop1 | Enc::Sopc | Enc::Sopk | Enc::Sopp => self.scalar(i, &mut ops),
            Enc::Smrd | Enc::Smem => self.smem(i, &mut ops),
            Enc::Vop2 | Enc::Vop1 | Enc::Vopc => self.vop_short(i, &mut ops),
            Enc::Vop3 | Enc::Vop3b => self.vop3(i, &mut ops),
            Enc::Vop3p => self.vop3p(i, &mut ops),
            Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa => self.sdwa(i, &mut ops),
            Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp => self.dpp(i, &mut ops),
            Enc::Vintrp => self.vintrp(i, &mut ops),
            Enc::Ds => self.ds(i, &mut ops),
            Enc::Mubuf | Enc::Mtbuf => self.buf(i, &mut ops),
            Enc::Mimg => self.mimg(i, &mut ops),
            Enc::Exp => self.exp(i, &mut ops),
            Enc::Flat => self.flat(i, &mut ops),
        }
    }

    /// Whether the text is being checked (see `checking`): the costlier
    /// checks run only then.
    #[inline(always)]
    fn checking(&self) -> bool {
        C
    }

    fn lose(&self) {
        self.lossy.set(true);
    }

    /// [`Pr::lose`] if `lossy`, without a branch (for tests of bits that
    /// code in any order sets at random: give it `&` and `|` of them,
    /// not `&&` and `||`).
    #[inline(always)]
    fn lose_if(&self, lossy: bool) {
        self.lossy.set(self.lossy.get() | lossy);
    }

    /// A VGPR operand: a range past v255 has no text.
    #[inline(always)]
    fn vgpr(&self, out: &mut Vec<u8>, n: u32, count: u32) {
        if self.checking() && n + count > 256 {
            self.lose();
        }
        push_vgpr(out, n, count)
    }

    /// A scalar register operand (see [`Printer::sgpr_range_check`]).
    #[inline(always)]
    fn sreg(&self, out: &mut Vec<u8>, i: &Instr, code: u32, count: u32) {
        if self.checking() {
            self.xnack_check(i.gen, code);
            self.sgpr_range_check(i, code, count);
        }
        push_sreg(out, i.gen, code, count)
    }

    /// Ranges of SGPRs must be aligned (pairs to 2, larger to 4) where the
    /// dialect's assembler says so, else the words have no text. llvm-mc
    /// checks every range below 128 ("invalid register alignment").
    /// clrxasm checks SGPR ranges only (not TTMPs), and in a vector ALU
    /// instruction takes an odd pair unless it crosses a multiple of 4
    /// (`s[5:6]` yes, `s[7:8]`: "Scalar register range cross two register
    /// lines"); in scalar and memory instructions it refuses `s[7:8]`
    /// ("Unaligned scalar register range").
    #[inline(always)]
    fn sgpr_range_check(&self, i: &Instr, code: u32, count: u32) {
        if code >= 102 || code + count > 102 {
            // Past the SGPRs of every generation: only names read back.
            self.nameless_check(i.gen, code, count);
        }
        if count < 2 {
            return;
        }
        let a = if count == 2 { 2 } else { 4 };
        if code.is_multiple_of(a) {
            return;
        }
        if self.llvm() {
            if code < 128 {
                self.lose();
            }
        } else if code < sgpr_count(i.gen) && (!vector_alu(i.enc) || count != 2 || code % 4 == 3) {
            self.lose();
        }
    }

    /// A scalar operand code (range) that names no register of `gen`, or a
    /// range that runs past the SGPRs or TTMPs, is printed as a number
    /// (`s104` on GCN 1.0, `s[127:128]`) that no assembler reads back.
    #[cold]
    fn nameless_check(&self, gen: Gen, code: u32, count: u32) {
        let n = sgpr_count(gen);
        let (t0, tn) = ttmp_range(gen);
        let nameless = if code < n {
            code + count > n
        } else if code >= t0 && code < t0 + tn {
            code - t0 + count > tn
        } else {
            match count {
                1 => special_name(gen, code).is_none(),
                2 => special_pair_name(gen, code).is_none(),
                _ => true,
            }
        };
        if nameless {
            self.lose();
        }
    }

    /// llvm-mc names XNACK_MASK only on chips with XNACK (fiji, the GCN 1.2
    /// reference chip, has none: "register not available on this GPU").
    #[inline(always)]
    fn xnack_check(&self, gen: Gen, code: u32) {
        // (The cheap tests first: most operands are not scalar registers.)
        if self.llvm()
            && code < 128
            && gen.info().xnack_mask == Some(code & !1)
            && !Target::from(gen).has(Feature::XnackSupport)
        {
            self.lose();
        }
    }

    /// clrxasm and llvm-mc refuse a vector instruction that reads more than
    /// one scalar value over the constant bus, where risa's assembler only
    /// warns: such words have no text. `reads` are the source operand codes
    /// (`u32::MAX` for none, [`IMPLICIT_VCC`] for the carry-in).
    ///
    /// The two assemblers count differently. llvm-mc counts every scalar
    /// source (SGPRs, TTMPs, EXEC, M0, the `src_*` specials, literals) and
    /// tells the implicit VCC from an explicit `vcc_lo`, `vcc_hi` from
    /// `vcc_lo` and a 64-bit register from its low half ([`WIDE_READ`]). clrxasm 0.1.9
    /// counts only the registers below TTMP (SGPRs, FLAT_SCRATCH,
    /// XNACK_MASK, VCC; the implicit VCC as VCC) and refuses a literal
    /// beside an explicit one of them or M0 ("Literal with SGPR or M0 is
    /// illegal"), while TTMPs, EXEC and M0 alone are free.
    fn constant_bus(&self, reads: &[u32]) {
        if !self.checking() {
            return;
        }
        let mut seen = [u32::MAX; 4];
        let mut n = 0;
        let (mut literal, mut lit_partner) = (false, false);
        for &r in reads {
            let code = r & !WIDE_READ;
            // VGPRs (and unused slots) never use the bus: the common case.
            if code >= 256 && code != IMPLICIT_VCC {
                continue;
            }
            let scalar = if self.llvm() {
                code < 128
                    || code == 255
                    || code == IMPLICIT_VCC
                    || (235..=239).contains(&code)
                    || (251..=254).contains(&code)
            } else {
                literal |= r == 255;
                lit_partner |= r < 108 || r == 124;
                r < 108 || r == IMPLICIT_VCC
            };
            // clrxasm counts VCC as one register; llvm-mc tells vcc_hi from
            // vcc_lo (and both from the implicit VCC).
            let r = if !self.llvm() && (r == 107 || r == IMPLICIT_VCC) {
                106
            } else {
                r
            };
            if scalar && !seen[..n].contains(&r) && n < 4 {
                seen[n] = r;
                n += 1;
            }
        }
        if n > 1 || (literal && lit_partner) {
            self.lose();
        }
    }

    /// Operand `op` (source code `code`) as the dialect writes it: CLRX
    /// widens B of the [`flag::CLRXB64`] rows to 64 bits where the pair has
    /// a name (not past the last SGPR or VGPR, not a special register:
    /// clrxdisasm prints `v[255:0]` and `vcc_u!` there, which nothing reads).
    #[inline(always)]
    fn clrx_b(&self, i: &Instr, op: &Opnd, code: u32) -> Opnd {
        // clrxasm refuses an SGPR pair that crosses a group of four
        // (s[15:16]); the one register it then gets is what the hardware reads.
        let pair = || {
            (code + 1 < sgpr_count(i.gen) && code % 4 != 3)
                || matches!(code, 128..=208 | 240..=248 | 256..=510)
        };
        if !self.llvm() && op.role == Role::B && i.info().has(flag::CLRXB64) && pair() {
            Opnd { ty: Ty::B64, ..*op }
        } else {
            *op
        }
    }

    /// Whether source code `code` is a constant for the modifiers: in
    /// LLVM's syntax every code from 128 to 255 (`neg(1)`, `neg(src_scc)`),
    /// in CLRX's the numbers only (inline constants and literals; clrxasm
    /// takes `-abs(scc)` and `sext(shared_base)` as modified registers, but
    /// reads `-2` and `sext(45)` as expressions).
    #[inline(always)]
    fn constant_code(&self, code: u32) -> bool {
        if self.llvm() {
            (128..256).contains(&code)
        } else {
            matches!(code, 128..=208 | 240..=248 | 255)
        }
    }

    #[inline(always)]
    fn llvm(&self) -> bool {
        L
    }

    /// A scalar or vector source operand code (8- or 9-bit) of type `ty`.
    #[inline(always)]
    fn push_src(
        &self,
        out: &mut Vec<u8>,
        i: &Instr,
        code: u32,
        ty: Ty,
        sgpr_only_count: Option<u32>,
    ) {
        let count = sgpr_only_count.unwrap_or(ty.dwords());
        if self.checking() {
            if code < 128 {
                self.xnack_check(i.gen, code);
                self.sgpr_range_check(i, code, count);
            } else if code >= 256 && code + count > 512 {
                // A VGPR range past v255.
                self.lose();
            }
        }
        // One table look-up for the common codes (and one predictable branch).
        if count == 1 {
            let t = optext::src_table(i.gen)[code as usize & 511];
            if t != 0 {
                return push_packed(out, t);
            }
        } else if count == 2 {
            let t = optext::src_pair_table(i.gen)[code as usize & 511];
            if t != 0 {
                return push_packed16(out, t);
            }
        }
        match code {
            0..=127 => push_sreg(out, i.gen, code, count),
            128..=208 => push_packed(out, optext::INLINE_INT[code as usize - 128]),
            240..=248 => {
                if ty.is_16bit() && !ty.is_float() && self.llvm() {
                    // LLVM shows float constants of 16-bit integer operands as
                    // their f16 bits, which llvm-mc 14 reads back as a literal.
                    self.lose();
                    let v = inline_value(i.gen, code, ty).unwrap_or(0);
                    push_hex(out, v);
                } else if code == 248 && !i.gen.has(Feature::Inv2PiInlineImm) {
                    self.lose();
                    out.push_str("src_reserved_248");
                } else {
                    // CLRX writes 1/(2*pi) with 8 digits whatever the width
                    // (clrxasm reads it back as the constant for f64 too).
                    let ty = if self.llvm() { ty } else { Ty::F32 };
                    out.push_str(inline_float_text(code, ty));
                }
            }
            255 => {
                if i.lit.is_none() {
                    // The literal code where the encoding has no literal.
                    self.lose();
                }
                self.literal(out, i, i.lit.unwrap_or(0), ty)
            }
            256..=511 => self.vgpr(out, code - 256, count),
            254 if !self.llvm() => {
                if !vector_alu(i.enc) {
                    // LDS direct is a source of vector ALU instructions only.
                    self.lose();
                }
                out.push_str("lds")
            }
            _ => match special_name(i.gen, code) {
                Some(n) => out.push_str(if self.llvm() {
                    n
                } else {
                    n.strip_prefix("src_").unwrap_or(n)
                }),
                None => {
                    self.lose();
                    out.push_str("src_reserved_");
                    push_u32(out, code);
                }
            },
        }
    }

    /// A literal constant of an operand of type `ty`. Assemblers read a
    /// literal whose value is also an inline constant as the inline
    /// constant (one word shorter); CLRX's `lit(..)` keeps it a literal
    /// (`lit(1)`, `lit(0x40000000)` for 2.0). LLVM's syntax has no such form:
    /// the listing prints those instructions as data (its check fails).
    fn literal(&self, out: &mut Vec<u8>, i: &Instr, v: u32, ty: Ty) {
        if self.llvm() && ty.is_16bit() && v > 0xffff {
            // LLVM's syntax has 16-bit literals only for 16-bit operands.
            self.lose();
        }
        if self.llvm() && self.checking() && inline_code_of(i.gen, v, ty).is_some() {
            // llvm-mc reads such a literal as the inline constant.
            self.lose();
        }
        if !self.llvm() && inline_code_of(i.gen, v, ty).is_some() {
            out.push_str("lit(");
            if (-16..=64).contains(&(v as i32)) {
                // (`lit(-3)` is 0xfffffffd; a 16-bit 0xfffd stays hex.)
                push_i64(out, i64::from(v as i32));
            } else {
                push_hex(out, u64::from(v));
            }
            out.push(b')');
            return;
        }
        push_hex(out, u64::from(v));
    }

    fn scalar(&self, i: &Instr, o: &mut Ops) {
        for op in i.info().sig {
            let out = o.next();
            match op.role {
                Role::D => self.sreg(out, i, i.field(Field::Sdst), op.ty.dwords()),
                Role::A => {
                    let c = i.field(Field::Ssrc0);
                    if c == 254 && self.llvm() {
                        // llvm-mc takes src_lds_direct in vector instructions only.
                        self.lose();
                    }
                    self.push_src(out, i, c, op.ty, None)
                }
                Role::B if op.ty == Ty::Gpridx => self.gpr_idx(out, i.field(Field::Ssrc1)),
                Role::K if op.ty == Ty::Gpridx => self.gpr_idx(out, i.field(Field::Simm16)),
                Role::B => {
                    let c = i.field(Field::Ssrc1);
                    if c == 254 && self.llvm() {
                        self.lose();
                    }
                    self.push_src(out, i, c, op.ty, None)
                }
                Role::L => push_hex(out, u64::from(i.lit.unwrap_or(0))),
                Role::K => self.simm16(out, i, op.ty, i.field(Field::Simm16)),
                _ => {}
            }
        }
        // Operand-less SOPPs ignore their immediate, but a non-zero one is
        // printed (as llvm-mc does for s_endpgm) so no bits are lost.
        if i.enc == Enc::Sopp && i.info().sig.is_empty() {
            let v = i.field(Field::Simm16);
            if v != 0 {
                push_u32(o.next(), v);
            }
        }
    }

    fn gpr_idx(&self, out: &mut Vec<u8>, v: u32) {
        // Only the four low bits are modes; anything else stays a number
        // (llvm-mc takes only 4-bit values there).
        if self.llvm() && v > 15 {
            self.lose();
        }
        if !self.llvm() || v == 0 || v > 15 {
            return push_hex(out, u64::from(v));
        }
        out.push_str("gpr_idx(");
        let names = ["SRC0", "SRC1", "SRC2", "DST"];
        let mut first = true;
        for (b, n) in names.iter().enumerate() {
            if v >> b & 1 != 0 {
                if !first {
                    out.push(b',');
                }
                out.push_str(n);
                first = false;
            }
        }
        out.push(b')');
    }

    fn simm16(&self, out: &mut Vec<u8>, i: &Instr, ty: Ty, v: u32) {
        match ty {
            Ty::Label => {
                let off = i64::from(v as u16 as i16);
                let target = (self.pc as i64 + 4 + off * 4) as u64;
                if let Some(name) = self.label.and_then(|l| l(target)) {
                    out.push_str(name);
                } else if self.llvm() {
                    push_i64(out, off);
                } else {
                    // CLRX branch operands are byte addresses; `.` is this instruction.
                    let rel = 4 + off * 4;
                    out.push_str(if rel < 0 { ".-" } else { ".+" });
                    push_u64(out, rel.unsigned_abs());
                }
            }
            Ty::Waitcnt => self.waitcnt(out, i.gen, v),
            Ty::Hwreg => self.hwreg(out, i.gen, v),
            Ty::Sendmsg => self.sendmsg(out, v),
            Ty::Simm16 | Ty::I16 | Ty::U16 | Ty::Imm16 => push_hex(out, u64::from(v)),
            _ => push_hex(out, u64::from(v)),
        }
    }

    fn waitcnt(&self, out: &mut Vec<u8>, gen: Gen, v: u32) {
        let g = gen.info();
        let (known, vm_max) = (g.waitcnt_mask, g.vmcnt_max);
        // VM_CNT[5:4] at bits 15:14 where the generation has them.
        let vm = (v & 15) | (v & known) >> 14 << 4;
        let exp = (v >> 4) & 7;
        let lgkm = (v >> 8) & 15;
        if v & !known != 0 {
            if !self.llvm() {
                // clrxasm takes no number for s_waitcnt (clrxdisasm drops the bits).
                self.lose();
            }
            return push_hex(out, u64::from(v));
        }
        let sep = if self.llvm() { " " } else { " & " };
        let parts = [
            ("vmcnt", vm, vm_max),
            ("expcnt", exp, 7),
            ("lgkmcnt", lgkm, 15),
        ];
        let mut any = false;
        for (n, val, max) in parts {
            if val != max {
                if any {
                    out.push_str(sep);
                }
                out.push_str(n);
                out.push(b'(');
                push_u32(out, val);
                out.push(b')');
                any = true;
            }
        }
        if !any {
            out.push_str("vmcnt(");
            push_u32(out, vm_max);
            out.push(b')');
            out.push_str(sep);
            out.push_str("expcnt(7)");
            out.push_str(sep);
            out.push_str("lgkmcnt(15)");
        }
    }

    fn hwreg(&self, out: &mut Vec<u8>, gen: Gen, v: u32) {
        let id = v & 63;
        let off = (v >> 6) & 31;
        let size = ((v >> 11) & 31) + 1;
        out.push_str("hwreg(");
        match HWREG_NAMES.get(id as usize) {
            Some(n) if !n.is_empty() => {
                if self.llvm() {
                    out.push_str("HW_REG_");
                    out.push_str(n);
                } else {
                    push_lower(out, n);
                }
            }
            _ if !self.llvm() => {
                // CLRX's further names, else `@N` (clrxasm reads `hwreg(60, ..)`
                // as a symbol).
                let gcn14 = if gen.has(Feature::Gfx9Insts) {
                    &HWREG_NAMES_CLRX_GCN14[..]
                } else {
                    &[]
                };
                match HWREG_NAMES_CLRX.iter().chain(gcn14).find(|(_, x)| *x == id) {
                    Some((n, _)) => push_lower(out, n),
                    None => {
                        out.push(b'@');
                        push_u32(out, id)
                    }
                }
            }
            _ => push_u32(out, id),
        }
        if off != 0 || size != 32 || !self.llvm() {
            push_named_u32(out, ", ", off);
            push_named_u32(out, ", ", size);
        }
        out.push(b')');
    }

    fn sendmsg(&self, out: &mut Vec<u8>, v: u32) {
        let id = v & 15;
        let op = (v >> 4) & 7;
        let stream = (v >> 8) & 3;
        let clean = |mask: u32| v & !mask == 0;
        let l = self.llvm();
        let name = |n: &str| {
            if l {
                format!("MSG_{n}")
            } else {
                n.to_ascii_lowercase()
            }
        };
        let text = match id {
            1 if clean(0xf) => Some(name("INTERRUPT")),
            2 | 3 if clean(0x37f) && (op != 0 || stream == 0) => {
                let gsop = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
                let base = name(if id == 2 { "GS" } else { "GS_DONE" });
                match gsop.get(op as usize) {
                    Some(g) if op != 0 => {
                        let g = if l {
                            g.to_string()
                        } else {
                            g[6..].to_ascii_lowercase()
                        };
                        Some(format!("{base}, {g}, {stream}"))
                    }
                    Some(g) if id == 3 => Some(format!(
                        "{base}, {}",
                        if l { g.to_string() } else { "nop".into() }
                    )),
                    _ => None,
                }
            }
            15 if clean(0x7f) && (1..=4).contains(&op) => {
                let s = [
                    "",
                    "ECC_ERR_INTERRUPT",
                    "REG_RD",
                    "HOST_TRAP_ACK",
                    "TTRACE_PC",
                ][op as usize];
                Some(if l {
                    format!("MSG_SYSMSG, SYSMSG_OP_{s}")
                } else {
                    format!("sysmsg, {}", s.to_ascii_lowercase())
                })
            }
            _ => None,
        };
        match text {
            Some(t) => {
                out.push_str("sendmsg(");
                out.push_str(&t);
                out.push(b')');
            }
            None => {
                if !self.llvm() {
                    // clrxasm takes no number for s_sendmsg.
                    self.lose();
                }
                push_hex(out, u64::from(v))
            }
        }
    }

    fn smem(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        let imm = i.field(Field::Imm) != 0;
        for op in info.sig {
            let out = o.next();
            match op.role {
                Role::D if info.has(flag::IMM_D) => push_hex(out, u64::from(i.field(Field::Sdst))),
                Role::D => {
                    let d = i.field(Field::Sdst);
                    if self.llvm() && (126..=127).contains(&d) {
                        // LLVM loads no EXEC (SReg_*_XEXEC).
                        self.lose();
                    }
                    self.sreg(out, i, d, op.ty.dwords())
                }
                Role::A => self.sreg(out, i, i.field(Field::Sbase) * 2, op.ty.dwords()),
                Role::O if i.field(Field::Soe) != 0 => {
                    // GCN 1.4 SGPR offset (SOE); with IMM also an immediate
                    // one, CLRX's `offset:` after the flags.
                    if !imm || self.llvm() {
                        self.lose();
                    }
                    self.sreg(out, i, i.field(Field::Soffset), 1);
                }
                Role::O => {
                    let off = i.field(Field::Offset);
                    if imm {
                        push_hex(out, u64::from(off));
                    } else if i.enc == Enc::Smrd && off == 255 && i.lit.is_some() {
                        push_hex(out, u64::from(i.lit.unwrap_or(0)));
                    } else {
                        if off > 0x7f {
                            // An SGPR offset code past 127 has no text.
                            self.lose();
                        }
                        self.sreg(out, i, off & 0x7f, 1);
                    }
                }
                _ => {}
            }
        }
        packed_flag!(self, o, i.field(Field::Glc) != 0, "glc");
        packed_flag!(self, o, i.field(Field::Nv) != 0, "nv");
        if i.field(Field::Soe) != 0 && imm && info.operand(Role::O).is_some() {
            push_named_hex(o.modifier(), "offset:", i.field(Field::Offset));
        }
    }

    /// VOP1/VOP2/VOPC in their 32-bit encodings.
    fn vop_short(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        if info.family == Family::Vopc {
            o.next().push_str("vcc");
        }
        // The scalar reads for the constant-bus check, taken as the operands
        // are printed. (clrxasm does not count the constant of
        // v_madak/v_madmk, llvm-mc does.)
        let mut reads = [u32::MAX; 4];
        for op in info.sig {
            let out = o.next();
            match op.role {
                Role::D if op.sgpr => self.sreg(out, i, i.field(Field::Vdst), op.ty.dwords()),
                Role::D => self.vgpr(out, i.field(Field::Vdst), op.ty.dwords()),
                Role::SD => out.push_str("vcc"),
                Role::SC => {
                    reads[1] = IMPLICIT_VCC;
                    out.push_str("vcc")
                }
                Role::A => {
                    let c = i.field(Field::Src0);
                    reads[0] = c;
                    let misplaced = (op.vgpr && c < 256) || (op.sgpr && c >= 256);
                    if self.checking() && self.llvm() && misplaced {
                        // llvm-mc: "invalid operand for instruction".
                        self.lose();
                    }
                    self.push_src(out, i, c, op.ty, None)
                }
                Role::B if op.sgpr => {
                    let c = i.field(Field::Vsrc1);
                    if self.checking() && c >= 128 && self.llvm() {
                        self.lose();
                    }
                    // llvm-mc and risa's CLRX-dialect assembler count the
                    // lane select as a scalar read.
                    reads[3] = c;
                    match c {
                        // The 8-bit field may hold an inline constant's code.
                        128..=254 => self.push_src(out, i, c, op.ty, None),
                        _ => self.sreg(out, i, c, op.ty.dwords()),
                    }
                }
                Role::B => self.vgpr(
                    out,
                    i.field(Field::Vsrc1),
                    self.clrx_b(i, op, i.field(Field::Vsrc1) + 256).ty.dwords(),
                ),
                Role::L => {
                    let lit = i.lit.unwrap_or(0);
                    if self.llvm() {
                        reads[2] = 255;
                        if self.checking() && op.ty.is_16bit() && lit > 0xffff {
                            // A 16-bit constant has no 32-bit text in LLVM's syntax.
                            self.lose();
                        }
                    }
                    push_hex(out, u64::from(lit))
                }
                _ => {}
            }
        }
        self.constant_bus(&reads);
    }

    /// A source with VOP3 negate/absolute modifiers.
    ///
    /// Constants take the functional forms `neg(..)`/`abs(..)`: `-2.0` would
    /// read back as the inline constant -2.0, not as 2.0 negated.
    #[inline(always)]
    fn push_modded(
        &self,
        out: &mut Vec<u8>,
        i: &Instr,
        code: u32,
        op: &Opnd,
        neg: bool,
        abs: bool,
    ) {
        let constant = self.constant_code(code);
        let wrapped = neg | abs;
        if self.llvm() {
            // llvm-mc: no neg/abs on an integer operand or a src_* special.
            self.lose_if(wrapped & (!op.ty.is_float() | (235..=239).contains(&code)));
        } else {
            // CLRX's assembler reads `-2`, `--1` and `-abs(2)` as
            // expressions: a modifier on a constant has no CLRX text here
            // (the VOP3 printer writes such bits as `abs:[..]`/`neg:[..]`).
            self.lose_if(constant & wrapped);
        }
        let count = if op.sgpr { Some(op.ty.dwords()) } else { None };
        // Modifier bits are data: the text around the operand from a table
        // instead of a branch per bit; where the text is checked (code with
        // any bits) not even one branch for "any modifier": the texts of
        // no modifier have no length.
        let k = usize::from(neg) | usize::from(abs) << 1 | usize::from(constant) << 2;
        let [neg_pre, abs_pre, post] = MODDED[usize::from(self.llvm())][k];
        if wrapped || self.checking() {
            push_packed(out, neg_pre);
            push_packed(out, abs_pre);
        }
        self.push_src(out, i, code, op.ty, count);
        if wrapped || self.checking() {
            push_packed(out, post);
        }
    }

    fn vop3(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        let neg = i.field(Field::Neg);
        let abs = i.field(Field::Abs);
        if info.family == Family::Vopc {
            self.sreg(o.next(), i, i.field(Field::Vdst), 2);
        }
        let src_field = |role: Role| match role {
            Role::A => Some((Field::Src0, 0)),
            Role::B => Some((Field::Src1, 1)),
            Role::C | Role::SC => Some((Field::Src2, 2)),
            _ => None,
        };
        // In interpolation rows moved to VOP3, A is the vsrc in SRC1.
        let interp = vop3_interp(info);
        let (mut const_neg, mut const_abs) = (0, 0);
        // The sources for the constant-bus check, taken as they are printed
        // (in signature order): llvm-mc counts the implicit read (VCC of
        // v_div_fmas, M0 of v_movrel*) on the constant bus, the VCC apart
        // from an explicit `vcc_lo`; clrxasm counts the VCC as VCC.
        let bus = !interp && self.checking();
        let implicit = info.implicit_read();
        let key = |code| if code == 106 { IMPLICIT_VCC } else { code };
        let mut reads = [u32::MAX; 5];
        let mut n_reads = 0;
        let mut read = |op: &Opnd, code: u32| {
            if bus && !op.sgpr && n_reads < 4 {
                // A source that names the implicit register whole
                // (`vcc` of v_div_fmas_f64) is that read to llvm-mc.
                let whole = self.llvm() && implicit == Some((code, op.ty.dwords()));
                reads[n_reads] = if whole {
                    key(code)
                } else if self.llvm() && op.ty.dwords() == 2 {
                    code | WIDE_READ
                } else {
                    code
                };
                n_reads += 1;
            }
        };
        for op in info.sig {
            if op.role == Role::T {
                // VOP3-encoded interpolation: attribute and channel in SRC0.
                let a = i.field(Field::Src0);
                self.interp_operand(o.next(), i, *op, a & 63, a >> 6 & 3);
                continue;
            }
            if op.role == Role::P {
                self.interp_operand(o.next(), i, *op, i.field(Field::Src1), 0);
                continue;
            }
            let out = o.next();
            match op.role {
                Role::D if op.sgpr => self.sreg(out, i, i.field(Field::Vdst), op.ty.dwords()),
                Role::D => self.vgpr(out, i.field(Field::Vdst), op.ty.dwords()),
                Role::SD => self.sreg(out, i, i.field(Field::Sdst3), 2),
                Role::SC => {
                    let code = i.field(Field::Src2);
                    read(op, code);
                    self.push_src(out, i, code, Ty::B64, Some(2))
                }
                role => {
                    let (f, n) = if interp {
                        match role {
                            Role::A | Role::B => (Field::Src1, 1),
                            _ => (Field::Src2, 2),
                        }
                    } else {
                        match src_field(role) {
                            Some(x) => x,
                            None => continue,
                        }
                    };
                    let code = i.field(f);
                    read(op, code);
                    let op = &self.clrx_b(i, op, code);
                    let (n_bit, a_bit) = (neg >> n & 1 != 0, abs >> n & 1 != 0);
                    if !self.llvm() && (128..256).contains(&code) && (n_bit | a_bit) {
                        // clrxasm reads `-2` or `abs(2)` as an expression, but
                        // takes the bits of a bare constant from `neg:[..]`
                        // and `abs:[..]`, written after the operands.
                        const_neg |= u32::from(n_bit) << n;
                        const_abs |= u32::from(a_bit) << n;
                        self.push_modded(out, i, code, op, false, false);
                    } else {
                        self.push_modded(out, i, code, op, n_bit, a_bit);
                    }
                }
            }
        }
        if bus {
            if let Some((code, _)) = implicit {
                reads[n_reads] = key(code);
                n_reads += 1;
            }
            self.constant_bus(&reads[..n_reads]);
        }
        // (The tied SRC2 of v_mac is VDST and has no role in the signature: not printed.)
        // SRC0 bit 8 of VOP3-encoded 16-bit interpolation: the attribute's high half.
        let high = interp && i.field(Field::Src0) >> 8 & 1 != 0 && info.operand(Role::T).is_some();
        packed_flag!(self, o, high, "high");
        // CLRX writes `op_sel:[..] mul:2 clamp`, LLVM `clamp op_sel:[..] mul:2`.
        if self.llvm() {
            packed_flag!(self, o, i.field(Field::Clamp) != 0, "clamp");
        }
        let opsel = i.field(Field::OpSel);
        if opsel != 0 && self.llvm() && !info.sig.iter().any(|o| o.ty.is_16bit()) {
            // llvm-mc takes op_sel only where an operand is 16-bit.
            self.lose();
        }
        if opsel != 0 {
            let n = info
                .sig
                .iter()
                .filter(|s| matches!(s.role, Role::A | Role::B | Role::C))
                .count();
            self.bit_list(o.modifier(), "op_sel", opsel, n, true);
        }
        let float = || {
            info.sig
                .iter()
                .any(|s| s.role == Role::A && s.ty.is_float())
        };
        if self.llvm() && i.enc == Enc::Vop3b && i.field(Field::Omod) != 0 && !float() {
            // LLVM's VOP3b carry forms have no output modifier (v_div_scale
            // has one: llvm-mc 14 takes `mul:2` there).
            self.lose();
        }
        o.omod(i.field(Field::Omod));
        if !self.llvm() {
            packed_flag!(self, o, i.field(Field::Clamp) != 0, "clamp");
        }
        let n_src = if const_neg | const_abs != 0 {
            info.sig
                .iter()
                .filter(|s| matches!(s.role, Role::A | Role::B | Role::C))
                .count()
        } else {
            0
        };
        if const_abs != 0 {
            self.bit_list(o.modifier(), "abs", const_abs, n_src, false);
        }
        if const_neg != 0 {
            self.bit_list(o.modifier(), "neg", const_neg, n_src, false);
        }
        // CLRX picks the short encoding unless told; the VOP3 form of a
        // VOP1/VOP2/VOPC/VINTRP op is marked so the text keeps it.
        let short_family = matches!(
            info.family,
            Family::Vop2 | Family::Vop1 | Family::Vopc | Family::Vintrp
        );
        if !self.llvm() && short_family {
            o.modifier().push_str("vop3");
        }
    }

    /// `name:[b0,b1,...]`: the low `n` bits of `v`, then bit 3 of `v` if
    /// `dst_bit` (VOP3's op_sel keeps the destination's bit there).
    fn bit_list(&self, out: &mut Vec<u8>, name: &str, v: u32, n: usize, dst_bit: bool) {
        out.push_str(name);
        out.push_str(":[");
        let bits = (0..n as u32).chain(dst_bit.then_some(3));
        for (k, b) in bits.enumerate() {
            if k > 0 {
                out.push(b',');
            }
            out.push(b'0' + (v >> b & 1) as u8);
        }
        out.push(b']');
    }

    fn vop3p(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        let mix = info.has(flag::MIX);
        let neg = i.field(Field::Neg);
        let neg_hi = i.field(Field::NegHi);
        let mut n = 0;
        let mut reads = [u32::MAX; 3];
        for op in info.sig {
            let out = o.next();
            let f = match op.role {
                Role::D => {
                    self.vgpr(out, i.field(Field::Vdst), op.ty.dwords());
                    continue;
                }
                Role::A => Field::Src0,
                Role::B => Field::Src1,
                _ => Field::Src2,
            };
            // v_mad_mix*: NEG negates and NEG_HI takes the absolute value, per
            // source; LLVM writes them as `-x`/`|x|`, CLRX as neg_lo/neg_hi lists.
            let mix_mods = mix && self.llvm();
            if mix_mods {
                self.push_modded(
                    out,
                    i,
                    i.field(f),
                    op,
                    neg >> n & 1 != 0,
                    neg_hi >> n & 1 != 0,
                );
            } else {
                self.push_src(out, i, i.field(f), op.ty, None);
            }
            if n < 3 {
                reads[n] = i.field(f);
            }
            n += 1;
        }
        self.constant_bus(&reads);
        let opsel = i.field(Field::OpSel);
        let hi = i.field(Field::OpSelHi) | i.field(Field::OpSelHi2) << 2;
        let all = (1u32 << n) - 1;
        if opsel & all != 0 {
            self.bit_list(o.modifier(), "op_sel", opsel, n, false);
        }
        // Default OP_SEL_HI: all ones, except LLVM's zeros for v_mad_mix*/v_fma_mix*
        // (clrxasm takes [1,1,1] for those too; clrxdisasm prints [0,0,0]).
        let default_hi = if mix && self.llvm() { 0 } else { all };
        // The bits of sources the row lacks: llvm-mc sets them; clrxasm sets
        // them too unless a list is written, which clears them. Other values
        // have no text.
        let spare = 7 & !all;
        let written = hi & all != default_hi || (!self.llvm() && spare != 0 && hi & spare == 0);
        let kept = if written && !self.llvm() { 0 } else { spare };
        if hi & spare != kept {
            self.lose();
        }
        if written {
            self.bit_list(o.modifier(), "op_sel_hi", hi, n, false);
        }
        let lists = !mix || !self.llvm();
        if lists && neg & all != 0 {
            self.bit_list(o.modifier(), "neg_lo", neg, n, false);
        }
        if lists && neg_hi & all != 0 {
            self.bit_list(o.modifier(), "neg_hi", neg_hi, n, false);
        }
        packed_flag!(self, o, i.field(Field::Clamp) != 0, "clamp");
    }

    /// An SDWA select in LLVM's syntax (` dst_sel:BYTE_0`): `name` is one
    /// of [`SdwaSel`]'s prefixes.
    #[inline(always)]
    fn sel(&self, out: &mut Vec<u8>, name: Packed16, v: u32) {
        self.lose_if(v & 7 == 7);
        push_packed16(out, name);
        push_packed(out, SEL_LLVM[v as usize & 7]);
    }

    fn sdwa(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        if self.llvm() && (info.has(flag::NOSDWA) || has_wide_operand(info)) {
            // llvm-mc 14 has no SDWA form of the row.
            self.lose();
        }
        // GCN 1.4 SDWA sources may be SGPRs: one constant-bus read in CLRX.
        let mut reads = [u32::MAX; 2];
        if info.family == Family::Vopc {
            let out = o.next();
            // GCN 1.4 VOPC SDWA may name its scalar destination (SD=1).
            let sd = layout::has(i.enc, i.gen, Field::SdwaSd);
            let (sd_bit, sdst) = (i.field(Field::SdwaSd), i.field(Field::SdwaSdst));
            if sd && if sd_bit == 0 { sdst != 0 } else { sdst == 106 } {
                // `vcc` stands for SD=0 with no destination field: the field
                // set without SD, or SD with VCC named, has no text.
                self.lose();
            }
            if sd && i.field(Field::SdwaSd) != 0 {
                self.sreg(out, i, i.field(Field::SdwaSdst), 2);
            } else {
                out.push_str("vcc");
            }
        }
        for op in info.sig {
            let out = o.next();
            if source_role(op.role) {
                let (src, s, neg, abs, sext) = if op.role == Role::A {
                    (
                        i.field(Field::Src0),
                        Field::S0,
                        Field::Src0Neg,
                        Field::Src0Abs,
                        Field::Src0Sext,
                    )
                } else {
                    (
                        i.field(Field::Vsrc1),
                        Field::S1,
                        Field::Src1Neg,
                        Field::Src1Abs,
                        Field::Src1Sext,
                    )
                };
                let code = if i.field(s) != 0 { src } else { src + 256 };
                reads[usize::from(op.role == Role::B)] = code;
                let sext = i.field(sext) != 0;
                let constant = self.constant_code(code);
                let (neg, abs) = (i.field(neg) != 0, i.field(abs) != 0);
                // clrxasm reads `sext(45)` as an expression; llvm-mc
                // takes no modifier on an SDWA constant (it takes
                // sext() on an SGPR: `sext(s44)`).
                if self.llvm() {
                    self.lose_if(sext & op.ty.is_float() | constant & (sext | neg | abs));
                } else {
                    self.lose_if(sext & constant);
                }
                // (Texts of no length without SEXT: see `push_modded`.)
                const SEXT: [Packed; 2] = pack_all(["", "sext("]);
                const CLOSE: [Packed; 2] = pack_all(["", ")"]);
                if sext || self.checking() {
                    push_packed(out, SEXT[usize::from(sext)]);
                }
                self.push_modded(out, i, code, op, neg, abs);
                if sext || self.checking() {
                    push_packed(out, CLOSE[usize::from(sext)]);
                }
            } else {
                self.extension_other(out, i, op);
            }
        }
        self.constant_bus(&reads);
        if self.llvm() {
            packed_flag!(self, o, i.field(Field::Clamp) != 0, "clamp");
            o.omod(i.field(Field::Omod));
        } else {
            o.omod(i.field(Field::Omod));
            packed_flag!(self, o, i.field(Field::Clamp) != 0, "clamp");
        }
        if self.llvm()
            && info.sig.is_empty()
            && i.field(Field::DstSel) | i.field(Field::DstUnused) | i.field(Field::Src0Sel) == 0
        {
            // `v_nop_sdwa` takes no selects in LLVM syntax, which encodes them
            // as 0; CLRX syntax shows them (they are what makes it SDWA).
            return;
        }
        if !self.llvm() {
            return self.sdwa_sels_clrx(i, o);
        }
        if info.family != Family::Vopc {
            self.sel(o.out, SdwaSel::DST, i.field(Field::DstSel));
            const UNUSED: [Packed16; 4] =
                pack16_all(["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "3"]);
            let du = i.field(Field::DstUnused) as usize & 3;
            self.lose_if(du == 3);
            push_packed16(o.out, SdwaSel::UNUSED);
            push_packed16(o.out, UNUSED[du]);
        }
        self.sel(o.out, SdwaSel::SRC0, i.field(Field::Src0Sel));
        if info.family != Family::Vop1 {
            self.sel(o.out, SdwaSel::SRC1, i.field(Field::Src1Sel));
        }
    }

    /// CLRX's SDWA selects: those that differ from the defaults (`dword`,
    /// `dst_unused:pad`), or `sdwa` when none does. (Texts of no length
    /// for the defaults and the fields the encoding lacks: the values are
    /// as random as the code, a branch on each would follow them.)
    fn sdwa_sels_clrx(&self, i: &Instr, o: &mut Ops) {
        /// ` NAME:` and the value's text, none for the default (`dword`),
        /// `7` for the select with no name.
        const fn sels(name: Packed16) -> [(Packed16, Packed); 8] {
            const VALUES: [&str; 8] = [
                "byte0", "byte1", "byte2", "byte3", "word0", "word1", "", "7",
            ];
            let mut t = [(0, 0); 8];
            let mut v = 0;
            while v < 8 {
                if v != 6 {
                    t[v] = (name, pack_all([VALUES[v]])[0]);
                }
                v += 1;
            }
            t
        }
        const DST: [(Packed16, Packed); 8] = sels(SdwaSel::DST);
        const SRC0: [(Packed16, Packed); 8] = sels(SdwaSel::SRC0);
        const SRC1: [(Packed16, Packed); 8] = sels(SdwaSel::SRC1);
        // (`preserve` is 8 bytes: a Packed16.)
        const UNUSED: [Packed16; 4] = pack16_all(["", "sext", "preserve", "7"]);
        const SDWA: Packed = pack_concat(" sdwa", "");
        let info = i.info();
        let has_dst = layout::has(i.enc, i.gen, Field::DstSel);
        let has_src1 = info.family != Family::Vop1;
        let dst = i.field(Field::DstSel) as usize & 7;
        let unused = i.field(Field::DstUnused) as usize & 3;
        let src0 = i.field(Field::Src0Sel) as usize & 7;
        let src1 = i.field(Field::Src1Sel) as usize & 7;
        self.lose_if(
            has_dst & (dst == 7) | has_dst & (unused == 3) | (src0 == 7) | has_src1 & (src1 == 7),
        );
        // (Index 6, the default, has no text.)
        let dst = if has_dst { dst } else { 6 };
        let unused = if has_dst { unused } else { 0 };
        let src1 = if has_src1 { src1 } else { 6 };
        let out = &mut *o.out;
        push_packed16(out, DST[dst].0);
        push_packed(out, DST[dst].1);
        push_packed16(
            out,
            SdwaSel::UNUSED & 0u128.wrapping_sub(u128::from(unused != 0)),
        );
        push_packed16(out, UNUSED[unused]);
        push_packed16(out, SRC0[src0].0);
        push_packed(out, SRC0[src0].1);
        push_packed16(out, SRC1[src1].0);
        push_packed(out, SRC1[src1].1);
        let none = (dst == 6) & (unused == 0) & (src0 == 6) & (src1 == 6);
        push_packed(out, SDWA & 0u64.wrapping_sub(u64::from(none)));
    }

    /// An operand of an SDWA or DPP instruction but its sources: the
    /// destination, or VCC.
    #[inline(always)]
    fn extension_other(&self, out: &mut Vec<u8>, i: &Instr, op: &Opnd) {
        if op.role == Role::D {
            if op.sgpr {
                // v_readfirstlane_b32: clrxasm and llvm-mc refuse its
                // SDWA/DPP forms (clrxdisasm prints them so).
                self.lose();
                self.sreg(out, i, i.field(Field::Vdst), op.ty.dwords())
            } else {
                self.vgpr(out, i.field(Field::Vdst), op.ty.dwords())
            }
        } else if matches!(op.role, Role::SD | Role::SC) {
            out.push_str("vcc");
        }
    }

    fn dpp(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        if self.llvm() && info.has(flag::NODPP) {
            // llvm-mc 14 has no DPP form of the row (no VOPC at all).
            self.lose();
        }
        if has_wide_operand(info) {
            // DPP moves 32-bit lanes: no assembler takes a 64-bit operand.
            self.lose();
        }
        if info.family == Family::Vopc {
            o.next().push_str("vcc");
        }
        for op in info.sig {
            let out = o.next();
            if source_role(op.role) {
                let (src, neg, abs) = if op.role == Role::A {
                    (Field::Src0, Field::DppNeg0, Field::DppAbs0)
                } else {
                    (Field::Vsrc1, Field::DppNeg1, Field::DppAbs1)
                };
                let (n, a) = (i.field(neg) != 0, i.field(abs) != 0);
                let code = i.field(src) + 256;
                if a && !op.ty.is_float() && self.llvm() {
                    // LLVM has no |..| on an integer DPP operand.
                    self.lose();
                }
                if n && !a && !op.ty.is_float() && self.llvm() {
                    // On an integer operand the NEG bit is LLVM's sign extension.
                    out.push_str("sext(");
                    self.vgpr(out, code - 256, op.ty.dwords());
                    out.push(b')');
                } else {
                    self.push_modded(out, i, code, op, n, a);
                }
            } else {
                self.extension_other(out, i, op);
            }
        }
        let c = i.field(Field::DppCtrl);
        let out = o.modifier();
        match c {
            0x000..=0x0ff => {
                out.push_str("quad_perm:[");
                for k in 0..4 {
                    if k != 0 {
                        out.push(b',');
                    }
                    out.push(b'0' + (c >> (2 * k) & 3) as u8);
                }
                out.push(b']');
            }
            0x101..=0x10f => {
                push_named_u32(out, "row_shl:", c & 15);
            }
            0x111..=0x11f => {
                push_named_u32(out, "row_shr:", c & 15);
            }
            0x121..=0x12f => {
                push_named_u32(out, "row_ror:", c & 15);
            }
            // CLRX writes the wave shifts and row broadcasts without the
            // `:1`/`:` of LLVM's spelling (clrxdisasm, GcnInstrsVop1.md).
            0x130..=0x13c | 0x142 | 0x143 if c & 3 == 0 || c >= 0x142 => {
                const WAVE: [[&str; 6]; 2] = [
                    [
                        "wave_shl",
                        "wave_rol",
                        "wave_shr",
                        "wave_ror",
                        "row_bcast15",
                        "row_bcast31",
                    ],
                    [
                        "wave_shl:1",
                        "wave_rol:1",
                        "wave_shr:1",
                        "wave_ror:1",
                        "row_bcast:15",
                        "row_bcast:31",
                    ],
                ];
                let k = if c >= 0x142 {
                    c - 0x142 + 4
                } else {
                    (c - 0x130) / 4
                };
                out.push_str(WAVE[usize::from(self.llvm())][k as usize]);
            }
            0x140 => out.push_str("row_mirror"),
            0x141 => out.push_str("row_half_mirror"),
            _ => {
                // No name for a control that selects no operation; llvm-mc
                // rejects `dpp_ctrl:0x1e0` too.
                self.lose();
                push_named_hex(out, "dpp_ctrl:", c);
            }
        }
        if !self.llvm() {
            // CLRX: `bound_ctrl bank_mask:N row_mask:N`, in decimal; left
            // out when both are 15, as on CLRX's pages (clrxdisasm 0.1.9
            // prints them always; docs/clrx-differences.md).
            o.flag(i.field(Field::BoundCtrl) != 0, "bound_ctrl");
            let (bank, row) = (i.field(Field::BankMask), i.field(Field::RowMask));
            if bank != 15 || row != 15 {
                push_named_u32(o.modifier(), "bank_mask:", bank);
                push_named_u32(o.modifier(), "row_mask:", row);
            }
            return;
        }
        push_named_hex(o.modifier(), "row_mask:", i.field(Field::RowMask));
        push_named_hex(o.modifier(), "bank_mask:", i.field(Field::BankMask));
        if i.field(Field::BoundCtrl) != 0 {
            o.modifier().push_str(if self.llvm() {
                "bound_ctrl:1"
            } else {
                "bound_ctrl"
            });
        }
    }

    fn interp_operand(&self, out: &mut Vec<u8>, _i: &Instr, op: Opnd, attr_field: u32, chan: u32) {
        match op.role {
            Role::P => match attr_field {
                0 => out.push_str("p10"),
                1 => out.push_str("p20"),
                2 => out.push_str("p0"),
                v => {
                    self.lose();
                    push_named_u32(out, "invalid_param_", v)
                }
            },
            _ => {
                push_named_u32(out, "attr", attr_field);
                out.push(b'.');
                out.push(b"xyzw"[chan as usize & 3]);
            }
        }
    }

    fn vintrp(&self, i: &Instr, o: &mut Ops) {
        for op in i.info().sig {
            let out = o.next();
            match op.role {
                Role::D => self.vgpr(out, i.field(Field::Vdst), 1),
                Role::A => self.vgpr(out, i.field(Field::Src0), 1),
                Role::P => self.interp_operand(out, i, *op, i.field(Field::Src0), 0),
                Role::T => {
                    self.interp_operand(out, i, *op, i.field(Field::Attr), i.field(Field::AttrChan))
                }
                _ => {}
            }
        }
    }

    fn ds(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        for op in info.sig {
            let out = o.next();
            let f = match op.role {
                Role::D => Field::Vdst,
                Role::A => Field::Addr,
                Role::B => Field::Data0,
                _ => Field::Data1,
            };
            self.vgpr(out, i.field(f), op.ty.dwords());
        }
        if info.has(flag::OFF2) {
            let (a, b) = (i.field(Field::Offset0), i.field(Field::Offset1));
            if a != 0 {
                push_named_u32(o.modifier(), "offset0:", a);
            }
            if b != 0 {
                push_named_u32(o.modifier(), "offset1:", b);
            }
        } else {
            let off = i.field(Field::Offset);
            if off != 0 {
                push_named_u32(o.modifier(), "offset:", off);
            }
        }
        packed_flag!(self, o, i.field(Field::Gds) != 0, "gds");
    }

    fn buf(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        if info.has(flag::NOARGS) {
            return;
        }
        let (offen, idxen, addr64) = (
            i.field(Field::Offen),
            i.field(Field::Idxen),
            i.field(Field::Addr64),
        );
        let data = info.operand(Role::V);
        // clrxasm: "Idxen and offen must be zero in 64-bit address mode";
        // llvm-mc: "invalid operand for instruction".
        self.lose_if((addr64 != 0) & (offen | idxen != 0));
        if self.llvm() && i.field(Field::Lds) != 0 && data.is_some() && !info.has(flag::LDS) {
            // llvm-mc takes `lds` only on the loads that have an LDS form.
            self.lose();
        }
        // Both assemblers refuse the pair ("Both LDS and TFE is illegal").
        self.lose_if((i.field(Field::Lds) != 0) & (i.field(Field::Tfe) != 0));
        if let Some(op) = data {
            // CLRX counts the TFE status dword in the data registers.
            let tfe = if self.llvm() { 0 } else { i.field(Field::Tfe) };
            self.vgpr(
                o.next(),
                i.field(Field::Vdata),
                op.ty.data_dwords(i.gen) + tfe,
            );
        }
        match offen + idxen + addr64 {
            // buffer_store_lds_dword has neither data nor an `off` placeholder.
            0 if data.is_none() => {}
            0 if self.llvm() => {
                if i.field(Field::Vaddr) != 0 {
                    // `off` leaves the unused address register out.
                    self.lose();
                }
                o.next().push_str("off")
            }
            // CLRX shows the unused address register.
            0 => self.vgpr(o.next(), i.field(Field::Vaddr), 1),
            1 if addr64 == 0 => self.vgpr(o.next(), i.field(Field::Vaddr), 1),
            _ => self.vgpr(o.next(), i.field(Field::Vaddr), 2),
        }
        self.sreg(o.next(), i, i.field(Field::Srsrc) * 4, 4);
        self.push_src(o.next(), i, i.field(Field::Soffset), Ty::B32, None);
        if !self.llvm() {
            return self.buf_mods_clrx(i, o);
        }
        if i.enc == Enc::Mtbuf {
            let (d, n) = (i.field(Field::Dfmt), i.field(Field::Nfmt));
            if self.llvm() {
                if n == 6 && !Target::from(i.gen).has(Feature::Gcn3Encoding) {
                    // llvm-mc 14 before GCN 1.2: "unsupported format" (it
                    // takes BUF_DATA_FORMAT_INVALID and _RESERVED_15).
                    self.lose();
                }
                if d != 1 || n != 0 {
                    let out = o.modifier();
                    out.push_str("format:[");
                    if d != 1 {
                        out.push_str("BUF_DATA_FORMAT_");
                        out.push_str(DFMT_NAMES[d as usize & 15]);
                        if n != 0 {
                            out.push(b',');
                        }
                    }
                    if n != 0 {
                        out.push_str("BUF_NUM_FORMAT_");
                        out.push_str(NFMT_NAMES[n as usize & 7]);
                    }
                    out.push(b']');
                }
            } else {
                let out = o.modifier();
                push_named_u32(out, "format:[", d);
                push_named_u32(out, ",", n);
                out.push(b']');
            }
        }
        packed_flag!(self, o, idxen != 0, "idxen");
        packed_flag!(self, o, offen != 0, "offen");
        packed_flag!(self, o, addr64 != 0, "addr64");
        let off = i.field(Field::Offset);
        if off != 0 {
            push_named_u32(o.modifier(), "offset:", off);
        }
        // LLVM spells buffer_store_lds_dword with `lds` before the cache bits.
        let lds_first = data.is_none() && self.llvm();
        packed_flag!(self, o, lds_first && i.field(Field::Lds) != 0, "lds");
        packed_flag!(self, o, i.field(Field::Glc) != 0, "glc");
        packed_flag!(self, o, i.field(Field::Slc) != 0, "slc");
        packed_flag!(self, o, !lds_first && i.field(Field::Lds) != 0, "lds");
        packed_flag!(self, o, i.field(Field::Tfe) != 0, "tfe");
    }

    /// CLRX's MUBUF/MTBUF modifiers: `offen idxen offset:N glc slc addr64
    /// lds tfe format:[dfmt,nfmt]` (format names in lower case, a default
    /// half left out).
    fn buf_mods_clrx(&self, i: &Instr, o: &mut Ops) {
        packed_flag!(self, o, i.field(Field::Offen) != 0, "offen");
        packed_flag!(self, o, i.field(Field::Idxen) != 0, "idxen");
        let off = i.field(Field::Offset);
        if off != 0 {
            push_named_u32(o.modifier(), "offset:", off);
        }
        packed_flag!(self, o, i.field(Field::Glc) != 0, "glc");
        packed_flag!(self, o, i.field(Field::Slc) != 0, "slc");
        packed_flag!(self, o, i.field(Field::Addr64) != 0, "addr64");
        packed_flag!(self, o, i.field(Field::Lds) != 0, "lds");
        packed_flag!(self, o, i.field(Field::Tfe) != 0, "tfe");
        if i.enc == Enc::Mtbuf {
            let (d, n) = (i.field(Field::Dfmt), i.field(Field::Nfmt));
            if d != 1 || n != 0 {
                let out = o.modifier();
                out.push_str("format:[");
                if d != 1 {
                    if d == 0 || d == 15 {
                        // clrxasm: "Unknown data/number format".
                        self.lose();
                    }
                    // CLRX's names are LLVM's in lower case (0 and 15 have none).
                    for b in DFMT_NAMES[d as usize & 15].bytes() {
                        out.push(b.to_ascii_lowercase());
                    }
                }
                if n != 0 {
                    if d != 1 {
                        out.push(b',');
                    }
                    out.push_str(CLRX_NFMT[n as usize & 7]);
                }
                out.push(b']');
            }
        }
    }

    fn mimg(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        let dmask = i.field(Field::Dmask);
        let tfe = i.field(Field::Tfe);
        let d16 = i.field(Field::D16) != 0;
        let mut n = if info.has(flag::GATHER4) {
            4
        } else {
            dmask.count_ones().max(1)
        };
        if d16 && !i.gen.has(Feature::UnpackedD16Vmem) {
            n = n.div_ceil(2);
        }
        if let Some(op) = info.operand(Role::V) {
            // Atomics: DMASK counts the data dwords (2 for a 64-bit value or a
            // 32-bit cmpswap pair); without one, the row's data type decides.
            if info.has(flag::ATOMIC) && dmask == 0 {
                n = op.ty.dwords();
            }
            self.vgpr(o.next(), i.field(Field::Vdata), n + tfe);
        }
        let mut a = info.operand(Role::A).map_or(1, |a| a.ty.dwords());
        if !self.llvm() {
            a = clrx_vaddr_min(i.op).max(a);
        }
        self.vgpr(o.next(), i.field(Field::Vaddr), a);
        let r128 = i.field(Field::R128) != 0 && !i.gen.has(Feature::R128A16);
        self.sreg(
            o.next(),
            i,
            i.field(Field::Srsrc) * 4,
            if r128 { 4 } else { 8 },
        );
        if info.has(flag::SAMPLER) {
            self.sreg(o.next(), i, i.field(Field::Ssamp) * 4, 4);
        }
        if !self.llvm() {
            // In decimal, and left out when 1: CLRX's default (the assembler
            // takes it in CLRX syntax), as clrxdisasm prints it. clrxasm
            // refuses dmask:0 ("Zero in dmask is illegal") and counts no TFE
            // register for gather4 (nor halves its data for d16 on GCN 1.4).
            let gather4 = info.has(flag::GATHER4);
            let packed_d16 = d16 && !i.gen.has(Feature::UnpackedD16Vmem);
            if dmask == 0 || (gather4 && (tfe != 0 || packed_d16)) {
                self.lose();
            }
            if dmask != 1 {
                push_named_u32(o.modifier(), "dmask:", dmask);
            }
        } else if dmask != 0 {
            push_named_hex(o.modifier(), "dmask:", dmask);
        }
        packed_flag!(self, o, i.field(Field::Unorm) != 0, "unorm");
        packed_flag!(self, o, i.field(Field::Glc) != 0, "glc");
        packed_flag!(self, o, i.field(Field::Slc) != 0, "slc");
        let r128 = i.field(Field::R128) != 0;
        if i.gen.has(Feature::R128A16) {
            packed_flag!(self, o, r128, "a16");
        } else {
            packed_flag!(self, o, r128, "r128");
        }
        packed_flag!(self, o, tfe != 0, "tfe");
        packed_flag!(self, o, i.field(Field::Lwe) != 0, "lwe");
        packed_flag!(self, o, i.field(Field::Da) != 0, "da");
        packed_flag!(self, o, d16, "d16");
    }

    fn exp(&self, i: &Instr, o: &mut Ops) {
        let tgt = i.field(Field::Tgt);
        let out = o.next();
        match tgt {
            0..=7 => push_named_u32(out, "mrt", tgt),
            8 => out.push_str("mrtz"),
            9 => out.push_str("null"),
            12..=15 => push_named_u32(out, "pos", tgt - 12),
            32..=63 => push_named_u32(out, "param", tgt - 32),
            _ => {
                self.lose();
                push_named_u32(out, "invalid_target_", tgt);
            }
        }
        let en = i.field(Field::En);
        let compr = i.field(Field::Compr) != 0;
        let regs = [Field::Vsrc0, Field::Vsrc1e, Field::Vsrc2, Field::Vsrc3];
        for (k, f) in regs.iter().enumerate() {
            // With COMPR, LLVM and CLRX list the two packed registers twice each.
            let (reg, bit) = if compr { (regs[k / 2], k) } else { (*f, k) };
            let out = o.next();
            if en >> bit & 1 != 0 {
                self.vgpr(out, i.field(reg), 1);
            } else {
                out.push_str("off");
            }
        }
        // A register field no enabled channel shows has no text (CLRX's
        // would be a `vsrc2=0x..` dump, which clrxasm rejects).
        for (k, f) in regs.iter().enumerate() {
            let shown = if compr {
                k < 2 && en >> (2 * k) & 3 != 0
            } else {
                en >> k & 1 != 0
            };
            if !shown && i.field(*f) != 0 {
                self.lose();
            }
        }
        packed_flag!(self, o, i.field(Field::Done) != 0, "done");
        packed_flag!(self, o, compr, "compr");
        packed_flag!(self, o, i.field(Field::Vm) != 0, "vm");
    }

    fn flat(&self, i: &Instr, o: &mut Ops) {
        let info = i.info();
        let saddr = i.field(Field::Saddr);
        let segs = i.gen.has(Feature::FlatGlobalInsts) && info.family != Family::Flat;
        let has_saddr = segs && saddr != 0x7f;
        // CLRX shows VDST of atomics without glc too (the field is kept).
        let returns = !info.has(flag::ATOMIC) || i.field(Field::Glc) != 0 || !self.llvm();
        if !returns && i.field(Field::Vdst) != 0 {
            // An atomic without glc has no destination in LLVM's text.
            self.lose();
        }
        for op in info.sig {
            match op.role {
                Role::D if returns => self.vgpr(
                    o.next(),
                    i.field(Field::Vdst),
                    op.ty.dwords() + i.field(Field::Tfe),
                ),
                Role::A => {
                    let out = o.next();
                    match info.family {
                        Family::Scratch if has_saddr => {
                            if i.field(Field::Addr) != 0 {
                                // `off` leaves the unused address field out.
                                self.lose();
                            }
                            out.push_str("off")
                        }
                        Family::Scratch => self.vgpr(out, i.field(Field::Addr), 1),
                        Family::Global if has_saddr => self.vgpr(out, i.field(Field::Addr), 1),
                        _ => self.vgpr(out, i.field(Field::Addr), 2),
                    }
                }
                Role::V => self.vgpr(o.next(), i.field(Field::Data0), op.ty.data_dwords(i.gen)),
                _ => {}
            }
        }
        if segs {
            let out = o.next();
            if has_saddr {
                let n = if info.family == Family::Global { 2 } else { 1 };
                self.sreg(out, i, saddr, n);
            } else {
                out.push_str("off");
            }
        }
        if layout::has(Enc::Flat, i.gen, Field::Offset) {
            let raw = i.field(Field::Offset);
            let off = if info.family == Family::Flat {
                raw as i32 & 0xfff
            } else {
                ((raw << 19) as i32) >> 19
            };
            if off != 0 {
                let out = o.modifier();
                out.push_str(if self.llvm() {
                    "offset:"
                } else {
                    "inst_offset:"
                });
                if off < 0 {
                    out.push(b'-');
                }
                push_u32(out, off.unsigned_abs());
            }
        }
        // CLRX: `lds glc slc tfe nv`; LLVM: `glc slc lds tfe nv`.
        packed_flag!(self, o, !self.llvm() && i.field(Field::Lds) != 0, "lds");
        packed_flag!(self, o, i.field(Field::Glc) != 0, "glc");
        packed_flag!(self, o, i.field(Field::Slc) != 0, "slc");
        packed_flag!(self, o, self.llvm() && i.field(Field::Lds) != 0, "lds");
        packed_flag!(self, o, i.field(Field::Tfe) != 0, "tfe");
        packed_flag!(self, o, i.field(Field::Nv) != 0, "nv");
    }
}

/// The output modifier's text by OMOD field, with its leading space (of
/// no length for 0: no branch on a field random code sets at random).
const OMOD: [Packed; 4] = [
    0,
    pack_concat(" mul:2", ""),
    pack_concat(" mul:4", ""),
    pack_concat(" div:2", ""),
];

/// Separators: `mnemonic op, op, op mod mod`.
struct Ops<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
}

impl Ops<'_> {
    /// Starts the next operand and returns the buffer to write it to.
    #[inline(always)]
    fn next(&mut self) -> &mut Vec<u8> {
        // (One store either way: the branch would follow the data.)
        const SEPARATOR: [Packed; 2] = [pack_concat(", ", ""), pack_concat(" ", "")];
        push_packed(self.out, SEPARATOR[usize::from(self.first)]);
        self.first = false;
        self.out
    }

    /// Starts a modifier.
    #[inline(always)]
    fn modifier(&mut self) -> &mut Vec<u8> {
        self.out.push(b' ');
        self.out
    }

    /// The output modifier (OMOD field).
    #[inline(always)]
    fn omod(&mut self, v: u32) {
        push_packed(self.out, OMOD[v as usize & 3]);
    }

    #[inline(always)]
    fn flag(&mut self, on: bool, name: &str) {
        if on {
            self.modifier().push_str(name);
        }
    }

    /// [`Ops::flag`] of a short name (` name`, packed: [`packed_flag!`]), with no
    /// branch on `on`: the bits are as random as the code, and the text's
    /// length grows by nothing when `on` is false.
    #[inline(always)]
    fn flag_packed(&mut self, on: bool, text: Packed) {
        push_packed(self.out, text & 0u64.wrapping_sub(u64::from(on)));
    }
}

/// `ops.flag(on, "name")` for names of up to six bytes, without a branch
/// where the printer checks its text ([`Ops::flag_packed`]): a listing's
/// code may hold any bits (random code: -0.52 mispredictions per line in
/// cachegrind's model, CPU -3 %), while plain printing of compilers'
/// code, whose flags are mostly clear, keeps the branch (without it,
/// decode+print of clang's kernels took 2.7 % more instructions and 13 %
/// more mispredictions in the model).
macro_rules! packed_flag {
    ($pr:expr, $ops:expr, $on:expr, $name:literal) => {
        if $pr.checking() {
            $ops.flag_packed($on, {
                const TEXT: Packed = pack_concat(" ", $name);
                TEXT
            })
        } else {
            $ops.flag($on, $name)
        }
    };
}
use packed_flag;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::ALL_GENS;

    /// Strings of every length (mnemonics, modifiers) are copied whole,
    /// after any text.
    #[test]
    fn strings_of_every_length_are_copied_whole() {
        let long = "v_mad_mixhi_f16_abcdefghijklmnopqrstuvwxyz0123456789";
        for n in 0..=long.len() {
            for lead in ["", "x", "    "] {
                let mut out = lead.as_bytes().to_vec();
                push_bytes(&mut out, &long.as_bytes()[..n]);
                assert_eq!(out, format!("{lead}{}", &long[..n]).as_bytes());
            }
        }
    }

    fn text(t: optext::Packed) -> Vec<u8> {
        let mut out = Vec::new();
        push_packed(&mut out, t);
        out
    }

    /// The packed tables print what the general paths print.
    #[test]
    fn operand_tables_match_general_path() {
        for gen in ALL_GENS {
            for code in 0..256 {
                let t = optext::sreg_table(gen)[code as usize];
                let mut slow = Vec::new();
                push_sreg_general(&mut slow, gen, code, 1);
                if t != 0 {
                    assert_eq!(text(t), slow, "{gen} sreg {code}");
                } else {
                    assert!(slow.len() > 7, "{gen} sreg {code} missing from the table");
                }
            }
            for code in 0..512u32 {
                let t = optext::src_table(gen)[code as usize];
                let want = match code {
                    0..=127 => {
                        let mut slow = Vec::new();
                        push_sreg_general(&mut slow, gen, code, 1);
                        slow
                    }
                    128..=208 => {
                        let v = inline_value(gen, code, Ty::I32).unwrap() as u32 as i32;
                        v.to_string().into_bytes()
                    }
                    256..=511 => format!("v{}", code - 256).into_bytes(),
                    // Text that depends on the type, the literal or the dialect.
                    _ => {
                        assert_eq!(t, 0, "{gen} source {code}");
                        continue;
                    }
                };
                if t != 0 || want.len() <= 7 {
                    assert_eq!(text(t), want, "{gen} source {code}");
                }
            }
        }
        for gen in ALL_GENS {
            for code in 0..512u32 {
                let t = optext::src_pair_table(gen)[code as usize];
                let mut fast = Vec::new();
                push_packed16(&mut fast, t);
                let want = match code {
                    0..=127 => {
                        let mut slow = Vec::new();
                        push_sreg_general(&mut slow, gen, code, 2);
                        slow
                    }
                    128..=208 => {
                        let v = inline_value(gen, code, Ty::I64).unwrap() as i64;
                        v.to_string().into_bytes()
                    }
                    256..=511 => format!("v[{}:{}]", code - 256, code - 255).into_bytes(),
                    _ => {
                        assert_eq!(t, 0, "{gen} source pair {code}");
                        continue;
                    }
                };
                assert_eq!(fast, want, "{gen} source pair {code}");
            }
        }
        for n in 0..256 {
            assert_eq!(text(optext::VGPR[n as usize]), format!("v{n}").as_bytes());
            for count in 3..=4 {
                let mut fast = Vec::new();
                push_packed16(&mut fast, optext::VGPR_WIDE[count as usize - 3][n as usize]);
                let mut slow = Vec::new();
                push_range(&mut slow, "v", n, count);
                assert_eq!(fast, slow, "v{n} x{count}");
            }
        }
        for gen in ALL_GENS {
            for code in 0..128u32 {
                for count in [4, 8] {
                    let mut fast = Vec::new();
                    push_sreg(&mut fast, gen, code, count);
                    let mut slow = Vec::new();
                    push_sreg_general(&mut slow, gen, code, count);
                    assert_eq!(fast, slow, "{gen} s{code} x{count}");
                }
            }
        }
    }

    #[test]
    fn decimal_numbers() {
        for v in [
            0,
            9,
            10,
            999,
            1000,
            1001,
            65535,
            999_999,
            1_000_000,
            1_000_007,
            u32::MAX,
        ] {
            let mut out = Vec::new();
            push_u32(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
    }
}
