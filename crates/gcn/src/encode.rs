//! The encoder: [`Instr`] to machine words, the exact inverse of
//! [`decode`](crate::decode()).
//!
//! An [`Instr`] holds its operands as field values in `raw` (laid out by
//! [`layout`], the same data the decoder reads), so encoding writes the bits
//! the instruction's identity fixes — the encoding's prefix, the opcode of
//! the row in the generation, FLAT's segment — and appends the literal when
//! the decoder's rule says one follows. Every other bit (operands,
//! modifiers, and reserved bits a decoded word carried) is kept as it is:
//! `encode(&decode(words)?)` gives `words` back for everything that decodes.
//!
//! Instructions are built by hand with [`Instr::build`] and the field
//! setters ([`Instr::with`], [`Instr::set`], [`Instr::with_lit`]), or from
//! operands in signature order with [`Instr::new`].
//!
//! ```
//! use risa_gcn::{encode, Enc, Field, Gen, Instr};
//! // v_add_f32_e32 v0, v1, v2: SRC0 codes 256.. are VGPRs, VSRC1 is a VGPR number.
//! let i = Instr::build(Gen::Gcn12, "v_add_f32", Enc::Vop2)?
//!     .with(Field::Vdst, 0)?
//!     .with(Field::Src0, 256 + 1)?
//!     .with(Field::Vsrc1, 2)?;
//! assert_eq!(&encode(&i)?[..], [0x0200_0501]);
//! # Ok::<(), risa_gcn::EncodeError>(())
//! ```

use crate::decode::{base_family, literal_follows, Instr};
use crate::gen::{Gen, ALL_GENS, GEN_COUNT};
use crate::layout::{self, Enc, Field, ENCS, ENC_COUNT, LAYOUTS};
use crate::processor::{Feature, Target};
use crate::table::{find_by_name, flag, Family, OpId, OPS};

/// The words of one encoded instruction (1 to 3 dwords), held inline: no
/// allocation. Dereferences to `[u32]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Words {
    words: [u32; 3],
    len: u8,
}

impl Words {
    /// The words as a slice (first dword first).
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.words[..usize::from(self.len)]
    }

    /// The words in a fixed array (unused slots 0) and their number.
    #[inline]
    pub fn to_array(self) -> ([u32; 3], usize) {
        (self.words, usize::from(self.len))
    }

    /// Appends the words to `out` as little-endian bytes (code as it sits in memory).
    pub fn write_le(&self, out: &mut Vec<u8>) {
        for w in self.as_slice() {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
}

impl std::ops::Deref for Words {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        self.as_slice()
    }
}

impl AsRef<[u32]> for Words {
    #[inline]
    fn as_ref(&self) -> &[u32] {
        self.as_slice()
    }
}

/// Why an instruction cannot be encoded: which part, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// No instruction of that name exists on the target.
    #[error("no instruction named '{0}' on this target")]
    UnknownName(
        /// The name as given.
        String,
    ),
    /// The encoding does not exist in the generation (SMEM before GCN 1.2,
    /// SDWA/DPP before GCN 1.2, VOP3P before GCN 1.4, ...).
    #[error("encoding {enc:?} does not exist on {gen}")]
    NoEncoding {
        /// The encoding.
        enc: Enc,
        /// The generation.
        gen: Gen,
    },
    /// The instruction has no opcode in this encoding on this generation
    /// (another family's encoding, a VOP3 form of a 32-bit-only row, or a
    /// VOP3 form of a VOP3b row and the reverse).
    #[error("'{name}' has no {enc:?} form on {gen}")]
    NoForm {
        /// The instruction's mnemonic.
        name: &'static str,
        /// The encoding asked for.
        enc: Enc,
        /// The generation.
        gen: Gen,
    },
    /// The field is not part of the encoding in this generation.
    #[error("field {field:?} is not part of {enc:?} on {gen}")]
    NoField {
        /// The field.
        field: Field,
        /// The encoding.
        enc: Enc,
        /// The generation.
        gen: Gen,
    },
    /// The value is wider than the field.
    #[error("value {value} ({value:#x}) does not fit field {field:?} ({width} bits)")]
    TooWide {
        /// The field.
        field: Field,
        /// The value.
        value: u32,
        /// The field's width in bits.
        width: u32,
    },
    /// The operands call for a literal dword (a source written as 255, a
    /// row whose constant is always a literal) and none was given.
    #[error("'{name}' in {enc:?} needs a literal constant and has none")]
    MissingLiteral {
        /// The instruction's mnemonic.
        name: &'static str,
        /// The encoding.
        enc: Enc,
    },
    /// A literal was given where no operand reads one.
    #[error("'{name}' in {enc:?} reads no literal constant here (no source is 255)")]
    UnexpectedLiteral {
        /// The instruction's mnemonic.
        name: &'static str,
        /// The encoding.
        enc: Enc,
    },
    /// SDWA and DPP words have no room for a literal (at most two dwords).
    #[error("'{name}' in {enc:?}: SDWA and DPP forms cannot carry a literal constant")]
    LiteralInSdwaDpp {
        /// The instruction's mnemonic.
        name: &'static str,
        /// The encoding.
        enc: Enc,
    },
    /// [`Instr::new`]: the operands do not match the instruction's signature.
    #[error("'{name}': operand {index}: {why}")]
    BadOperand {
        /// The instruction's mnemonic.
        name: &'static str,
        /// The operand's position (0 = first).
        index: usize,
        /// What is wrong with it.
        why: &'static str,
    },
}

/// The families whose rows each encoding holds, as bit masks (bit =
/// `Family as u32`): VOP3 also holds the `_e64` forms of VOP1/VOP2/VOPC and
/// interpolation rows, FLAT the GCN 1.4 GLOBAL and SCRATCH rows.
static HOLDS: [u32; ENC_COUNT] = holds_table();

const fn holds_table() -> [u32; ENC_COUNT] {
    const fn b(f: Family) -> u32 {
        1 << f as u32
    }
    let mut t = [0u32; ENC_COUNT];
    let mut k = 0;
    while k < ENC_COUNT {
        t[ENCS[k] as usize] = b(base_family(ENCS[k]));
        k += 1;
    }
    let long = b(Family::Vop3) | b(Family::Vop1) | b(Family::Vop2) | b(Family::Vopc);
    t[Enc::Vop3 as usize] = long | b(Family::Vintrp);
    t[Enc::Vop3b as usize] = long | b(Family::Vintrp);
    t[Enc::Flat as usize] |= b(Family::Global) | b(Family::Scratch);
    t
}

/// The bits the identity of (`op`, `enc`, `gen`) fixes, as (mask, value)
/// over the first two dwords: the encoding's prefix (with the SDWA/DPP
/// marker), the opcode field and, for GLOBAL/SCRATCH, the segment.
///
/// ```
/// use risa_gcn::{encode::fixed_bits, table::find_by_name, Enc, Gen};
/// let (op, _) = find_by_name("s_endpgm", Gen::Gcn12).next().unwrap();
/// assert_eq!(fixed_bits(op, Enc::Sopp, Gen::Gcn12), Ok((0xffff_0000, 0xbf81_0000)));
/// assert!(fixed_bits(op, Enc::Sop1, Gen::Gcn12).is_err());
/// ```
#[inline]
pub fn fixed_bits(op: OpId, enc: Enc, gen: Gen) -> Result<(u64, u64), EncodeError> {
    fixed(op, enc, gen).ok_or_else(|| fixed_error(op, enc, gen))
}

/// Why [`fixed`] found no fixed bits.
#[cold]
#[inline(never)]
fn fixed_error(op: OpId, enc: Enc, gen: Gen) -> EncodeError {
    if FIXED[enc as usize][gen as usize].mask != 0 {
        EncodeError::NoForm {
            name: OPS[op as usize].name,
            enc,
            gen,
        }
    } else {
        EncodeError::NoEncoding { enc, gen }
    }
}

/// What an encoding of a generation fixes before the opcode is known: the
/// prefix (with the SDWA/DPP marker) and where the opcode goes.
#[derive(Clone, Copy)]
struct Fixed {
    /// Prefix and opcode-field bits (0: the encoding does not exist here).
    mask: u64,
    /// The prefix's value.
    value: u64,
    /// The opcode field's bits (0: EXP, which has none).
    op_mask: u64,
    /// Position of the opcode field.
    op_pos: u8,
}

/// [`Fixed`] of every encoding in every generation, derived at compile
/// time from the layout tables (the encoder's per-statement work becomes a
/// load, as the decoder's first step is).
static FIXED: [[Fixed; GEN_COUNT]; ENC_COUNT] = fixed_table();

const fn fixed_table() -> [[Fixed; GEN_COUNT]; ENC_COUNT] {
    let none = Fixed {
        mask: 0,
        value: 0,
        op_mask: 0,
        op_pos: 0,
    };
    let mut t = [[none; GEN_COUNT]; ENC_COUNT];
    let mut e = 0;
    while e < ENC_COUNT {
        let enc = ENCS[e];
        let mut g = 0;
        while g < GEN_COUNT {
            let feature = match enc {
                Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa => Some(Feature::Sdwa),
                Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp => Some(Feature::Dpp),
                _ => None,
            };
            let exists = match feature {
                Some(f) => ALL_GENS[g].has(f),
                None => true,
            };
            if let (true, Some((pmask, pval))) = (exists, layout::prefix_in(enc, g)) {
                let op = layout::LAYOUT_DATA[e][g][Field::Op as usize];
                let (pos, width) = ((op & 63) as u64, (op >> 6) as u64);
                let op_mask = if width == 0 {
                    0
                } else {
                    ((1u64 << width) - 1) << pos
                };
                t[e][g] = Fixed {
                    mask: pmask as u64 | op_mask,
                    value: (pval & pmask) as u64,
                    op_mask,
                    op_pos: pos as u8,
                };
            }
            g += 1;
        }
        e += 1;
    }
    t
}

/// [`fixed_bits`] without the error (`None`): inlined into the encoder
/// and [`Instr::start`], which the assembler calls for every statement.
#[inline(always)]
fn fixed(op: OpId, enc: Enc, gen: Gen) -> Option<(u64, u64)> {
    let info = &OPS[op as usize];
    let f = FIXED[enc as usize][gen as usize];
    let opcode = if !matches!(enc, Enc::Vop3 | Enc::Vop3b) {
        info.opcode(gen)
    } else if info.has(flag::VOP3B) == (enc == Enc::Vop3b) {
        // The decoder reads VOP3b from the row's flag: the two long forms
        // are one opcode space, each row in exactly one of them.
        info.vop3_opcode(gen)
    } else {
        None
    };
    let ok = f.mask != 0 && HOLDS[enc as usize] >> info.family as u32 & 1 != 0;
    let opcode = opcode.filter(|_| ok)?;
    let mut value = f.value | (u64::from(opcode) << f.op_pos) & f.op_mask;
    let mut mask = f.mask;
    if enc == Enc::Flat {
        // GCN 1.4 GLOBAL and SCRATCH: the segment is part of the identity.
        put_fixed(
            &LAYOUTS[enc as usize][gen as usize],
            Field::Seg,
            info.family.flat_seg(),
            &mut mask,
            &mut value,
        );
    }
    Some((mask, value))
}

/// Adds field `f` = `v` to the fixed bits (nothing when the encoding lacks it: EXP's opcode).
#[inline(always)]
fn put_fixed(row: &layout::Layout, f: Field, v: u32, mask: &mut u64, value: &mut u64) {
    let e = row[f as usize];
    let (pos, width) = (e & 63, e >> 6);
    if width != 0 {
        let fm = ((1u64 << width) - 1) << pos;
        *mask |= fm;
        *value = (*value & !fm) | (u64::from(v) << pos) & fm;
    }
}

/// Encodes an instruction: its fixed bits (prefix, opcode, FLAT segment)
/// from (`op`, `enc`, `gen`), every other bit of `raw` as it is, and the
/// literal when the decoder would read one. `len` is not read (the words
/// say how long they are).
///
/// The exact inverse of [`decode`](crate::decode()): for any words that
/// decode, encoding the result gives them back. An instruction decoded for
/// a chip with features (gfx906's `v_fmac_f32`) encodes to words that the
/// same chip decodes back to it.
///
/// ```
/// use risa_gcn::{decode, encode, Gen};
/// let words = [0xd110_0000, 0x0002_0501]; // v_add_f32_e64 v0, v1, v2 (GCN 1.2)
/// let i = decode(Gen::Gcn12, &words).unwrap();
/// assert_eq!(&encode(&i).unwrap()[..], words);
/// ```
#[inline]
pub fn encode(i: &Instr) -> Result<Words, EncodeError> {
    let (mask, value) = fixed_bits(i.op, i.enc, i.gen)?;
    let raw = (i.raw & !mask) | value;
    let info = i.info();
    let base = i.enc.base_dwords() as usize;
    let mut words = [raw as u32, (raw >> 32) as u32, 0];
    if base == 1 {
        words[1] = 0;
    }
    let mut len = base;
    let wants = literal_follows(i.enc, i.gen, raw, info.flags);
    match (wants, i.lit) {
        (true, Some(l)) if base == 1 => {
            words[len] = l;
            len += 1;
        }
        (false, None) => {}
        _ => return Err(literal_error(i, wants)),
    }
    Ok(Words {
        words,
        len: len as u8,
    })
}

/// Why the literal of `i` does not match what its operands read.
#[cold]
fn literal_error(i: &Instr, wants: bool) -> EncodeError {
    let (name, enc) = (i.info().name, i.enc);
    match (wants, i.lit) {
        (true, Some(_)) => EncodeError::LiteralInSdwaDpp { name, enc },
        (true, None) => EncodeError::MissingLiteral { name, enc },
        _ => EncodeError::UnexpectedLiteral { name, enc },
    }
}

/// An operand of [`Instr::new`], in the instruction's signature order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A vector register `v[n]` (the first of a range).
    V(u32),
    /// A scalar register `s[n]` (the first of a range).
    S(u32),
    /// `vcc` (the implicit carry and condition operands of the 32-bit forms take only this).
    Vcc,
    /// An integer: an inline constant when it is one (-16..=64), else a literal.
    Int(i32),
    /// A literal dword, even when the value has an inline code.
    Lit(u32),
    /// An operand code as the hardware reads it (inline constants 128..=208,
    /// 240..=248, special registers such as `exec_lo` = 126).
    Code(u32),
    /// A 16-bit immediate (SOPK/SOPP).
    Imm(u16),
}

impl Instr {
    /// The instruction `op` in encoding `enc` of `gen` with every operand
    /// field 0 and no literal: the starting point of a hand-built
    /// instruction (the assembler's, too).
    #[inline]
    pub fn start(gen: Gen, op: OpId, enc: Enc) -> Result<Instr, EncodeError> {
        let (_, raw) = fixed_bits(op, enc, gen)?;
        Ok(Instr {
            op,
            enc,
            gen,
            len: enc.base_dwords() as u8,
            raw,
            lit: None,
        })
    }

    /// [`Instr::start`] by mnemonic (LLVM or CLRX spelling, no `_e32`/`_e64`
    /// suffix) on `target`: a [`Gen`] or a chip's [`Target`].
    ///
    /// ```
    /// use risa_gcn::{encode, Enc, Field, Gen, Instr};
    /// // s_mov_b32 s3, 0x12345678: SSRC0 = 255 reads the literal.
    /// let i = Instr::build(Gen::Gcn10, "s_mov_b32", Enc::Sop1)?
    ///     .with(Field::Sdst, 3)?
    ///     .with(Field::Ssrc0, 255)?
    ///     .with_lit(0x1234_5678);
    /// assert_eq!(&encode(&i)?[..], [0xbe83_03ff, 0x1234_5678]);
    /// // A field the encoding lacks is an error that names it.
    /// let e = Instr::build(Gen::Gcn10, "s_mov_b32", Enc::Sop1)?.with(Field::Vdst, 1);
    /// assert!(e.unwrap_err().to_string().contains("Vdst"));
    /// # Ok::<(), risa_gcn::EncodeError>(())
    /// ```
    pub fn build(target: impl Into<Target>, name: &str, enc: Enc) -> Result<Instr, EncodeError> {
        let target = target.into();
        let gen = target.gen;
        let mut first = None;
        for (op, _) in find_by_name(name, target) {
            match Instr::start(gen, op, enc) {
                Ok(i) => return Ok(i),
                Err(e) => first = first.or(Some(e)),
            }
        }
        Err(first.unwrap_or(EncodeError::UnknownName(name.to_string())))
    }

    /// Writes `value` into field `f`.
    #[inline]
    pub fn set(&mut self, f: Field, value: u32) -> Result<(), EncodeError> {
        let row = &LAYOUTS[self.enc as usize][self.gen as usize];
        if layout::set_in(row, &mut self.raw, f, value) {
            return Ok(());
        }
        let width = u32::from(row[f as usize] >> 6);
        Err(if width == 0 {
            EncodeError::NoField {
                field: f,
                enc: self.enc,
                gen: self.gen,
            }
        } else {
            EncodeError::TooWide {
                field: f,
                value,
                width,
            }
        })
    }

    /// [`Instr::set`] by value, for chaining.
    #[inline]
    pub fn with(mut self, f: Field, value: u32) -> Result<Instr, EncodeError> {
        self.set(f, value)?;
        Ok(self)
    }

    /// Sets the literal dword (read when a source is 255, or always by rows
    /// such as `v_madmk_f32`).
    #[inline]
    pub fn with_lit(mut self, lit: u32) -> Instr {
        self.lit = Some(lit);
        self.len = self.enc.base_dwords() as u8 + 1;
        self
    }

    /// The instruction `name` on `target` from its operands in printed
    /// (signature) order, in its first encoding: the 32-bit form of a VOP1/
    /// VOP2/VOPC row (VOPC's `vcc` destination is not written), the VOP3 or
    /// VOP3b form of a VOP3 row, the scalar encodings. Modifiers and the
    /// memory encodings are set field by field ([`Instr::build`]).
    ///
    /// ```
    /// use risa_gcn::{encode, Gen, Instr, Operand::*};
    /// let i = Instr::new(Gen::Gcn12, "v_add_f32", &[V(0), V(1), V(2)])?;
    /// assert_eq!(&encode(&i)?[..], [0x0200_0501]);
    /// let i = Instr::new(Gen::Gcn12, "v_mul_f32", &[V(3), Int(1000), V(4)])?;
    /// assert_eq!(&encode(&i)?[..], [0x0a06_08ff, 1000]);
    /// let i = Instr::new(Gen::Gcn14, "v_fma_f32", &[V(0), V(1), S(2), Int(-1)])?;
    /// assert_eq!(risa_gcn::print(&i, risa_gcn::Dialect::Llvm), "v_fma_f32 v0, v1, s2, -1");
    /// assert!(Instr::new(Gen::Gcn12, "v_add_f32", &[V(0), V(1)]).is_err());
    /// # Ok::<(), risa_gcn::EncodeError>(())
    /// ```
    pub fn new(
        target: impl Into<Target>,
        name: &str,
        operands: &[Operand],
    ) -> Result<Instr, EncodeError> {
        let target = target.into();
        let (op, info) = find_by_name(name, target)
            .next()
            .ok_or(EncodeError::UnknownName(name.to_string()))?;
        let gen = target.gen;
        let enc = match info.family {
            Family::Sop2 => Enc::Sop2,
            Family::Sop1 => Enc::Sop1,
            Family::Sopc => Enc::Sopc,
            Family::Sopk => Enc::Sopk,
            Family::Sopp => Enc::Sopp,
            Family::Vop2 => Enc::Vop2,
            Family::Vop1 => Enc::Vop1,
            Family::Vopc => Enc::Vopc,
            Family::Vop3 if info.has(flag::VOP3B) => Enc::Vop3b,
            Family::Vop3 => Enc::Vop3,
            _ => {
                return Err(EncodeError::BadOperand {
                    name: info.name,
                    index: 0,
                    why: "Instr::new takes ALU instructions; build memory ones with Instr::build",
                })
            }
        };
        let mut i = Instr::start(gen, op, enc)?;
        if operands.len() != info.sig.len() {
            return Err(EncodeError::BadOperand {
                name: info.name,
                index: operands.len().min(info.sig.len()),
                why: "wrong number of operands for this instruction",
            });
        }
        for (index, (opnd, &o)) in info.sig.iter().zip(operands).enumerate() {
            let bad = |why| EncodeError::BadOperand {
                name: info.name,
                index,
                why,
            };
            let field = match slot(enc, opnd.role).ok_or(bad("no field for this operand here"))? {
                Slot::Field(f) => Some(f),
                Slot::Vcc if o == Operand::Vcc => continue,
                Slot::Vcc => return Err(bad("the 32-bit form takes only vcc here")),
                Slot::Literal => None,
            };
            let Some(field) = field else {
                // The always-present literal of v_madmk/v_madak, s_setreg_imm32.
                let v = match o {
                    Operand::Lit(v) => v,
                    Operand::Int(v) => v as u32,
                    _ => return Err(bad("expected a constant (the instruction's literal)")),
                };
                i = i.with_lit(v);
                continue;
            };
            let code = match (o, field) {
                (Operand::Imm(v), Field::Simm16) => u32::from(v),
                (_, Field::Simm16) => {
                    return Err(bad("expected a 16-bit immediate (Operand::Imm)"))
                }
                (Operand::V(n), Field::Src0 | Field::Src1 | Field::Src2) => 256 + n,
                (Operand::V(n), Field::Vdst | Field::Vsrc1) if !opnd.sgpr => n,
                (Operand::S(n), Field::Vdst | Field::Vsrc1) if opnd.sgpr => n,
                (_, Field::Vdst | Field::Vsrc1) if !opnd.sgpr => {
                    return Err(bad("expected a vector register"))
                }
                (Operand::V(_), _) => return Err(bad("a vector register is not allowed here")),
                (Operand::S(n), _) => n,
                (Operand::Vcc, _) => 106,
                (Operand::Code(c), _) => c,
                (Operand::Int(v @ 0..=64), _) => 128 + v as u32,
                (Operand::Int(v @ -16..=-1), _) => (192 - v) as u32,
                (Operand::Int(v), _) => {
                    i = i.with_lit(v as u32);
                    255
                }
                (Operand::Lit(v), _) => {
                    i = i.with_lit(v);
                    255
                }
                (Operand::Imm(_), _) => return Err(bad("a 16-bit immediate is not allowed here")),
            };
            i.set(field, code)?;
        }
        Ok(i)
    }
}

/// Where [`Instr::new`] writes an operand.
#[derive(Clone, Copy)]
enum Slot {
    /// A field.
    Field(Field),
    /// The implicit VCC of a 32-bit form: nothing to write.
    Vcc,
    /// The literal dword (role `L`).
    Literal,
}

/// Where an operand of `role` goes in `enc` (`None`: nowhere).
fn slot(enc: Enc, role: crate::table::Role) -> Option<Slot> {
    use crate::table::Role::*;
    Some(Slot::Field(match (enc, role) {
        (Enc::Sop2 | Enc::Sop1 | Enc::Sopk, D) => Field::Sdst,
        (Enc::Sop2 | Enc::Sop1 | Enc::Sopc, A) => Field::Ssrc0,
        (Enc::Sop2 | Enc::Sopc, B) => Field::Ssrc1,
        (Enc::Sopk | Enc::Sopp, K) => Field::Simm16,
        (Enc::Sop2 | Enc::Sop1 | Enc::Sopk | Enc::Sopc, L) => return Some(Slot::Literal),
        (Enc::Vop2 | Enc::Vop1 | Enc::Vopc, D) => Field::Vdst,
        (Enc::Vop2 | Enc::Vop1 | Enc::Vopc, A) => Field::Src0,
        (Enc::Vop2 | Enc::Vopc, B) => Field::Vsrc1,
        (Enc::Vop2 | Enc::Vop1 | Enc::Vopc, SD | SC) => return Some(Slot::Vcc),
        (Enc::Vop2 | Enc::Vop1 | Enc::Vopc, L) => return Some(Slot::Literal),
        (Enc::Vop3 | Enc::Vop3b, D) => Field::Vdst,
        (Enc::Vop3b, SD) => Field::Sdst3,
        (Enc::Vop3 | Enc::Vop3b, A) => Field::Src0,
        (Enc::Vop3 | Enc::Vop3b, B) => Field::Src1,
        (Enc::Vop3 | Enc::Vop3b, C | SC) => Field::Src2,
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode;

    fn op(name: &str, gen: Gen) -> OpId {
        find_by_name(name, gen).next().unwrap().0
    }

    #[test]
    fn errors_name_what_cannot_be_encoded() {
        let g = Gen::Gcn12;
        // SMEM does not exist on GCN 1.0, SDWA neither.
        let e = Instr::build(Gen::Gcn10, "v_add_f32", Enc::Vop2Sdwa).unwrap_err();
        assert_eq!(
            e,
            EncodeError::NoEncoding {
                enc: Enc::Vop2Sdwa,
                gen: Gen::Gcn10
            }
        );
        // A VOP2 row has no SOP2 form; v_nop has no VOP3b form.
        assert!(matches!(
            Instr::start(g, op("v_add_f32", g), Enc::Sop2),
            Err(EncodeError::NoForm { .. })
        ));
        assert!(matches!(
            Instr::start(g, op("v_nop", g), Enc::Vop3b),
            Err(EncodeError::NoForm { .. })
        ));
        // v_add_u32 (GCN 1.2) writes a carry: VOP3b, not VOP3a.
        assert!(Instr::start(g, op("v_add_u32", g), Enc::Vop3).is_err());
        assert!(Instr::start(g, op("v_add_u32", g), Enc::Vop3b).is_ok());
        let i = Instr::start(g, op("v_add_f32", g), Enc::Vop2).unwrap();
        assert_eq!(
            i.with(Field::Vdst, 256),
            Err(EncodeError::TooWide {
                field: Field::Vdst,
                value: 256,
                width: 8
            })
        );
        assert!(matches!(
            i.with(Field::Sbase, 1),
            Err(EncodeError::NoField { .. })
        ));
        // The literal follows the operands: SRC0 = 255 needs one, else none.
        let lit = i.with(Field::Src0, 255).unwrap();
        assert!(matches!(
            encode(&lit),
            Err(EncodeError::MissingLiteral { .. })
        ));
        assert_eq!(&encode(&lit.with_lit(7)).unwrap()[..], [0x0200_00ff, 7]);
        assert!(matches!(
            encode(&i.with_lit(7)),
            Err(EncodeError::UnexpectedLiteral { .. })
        ));
        // An SDWA word has no room for v_madmk's constant.
        let m = Instr::start(g, op("v_madmk_f32", g), Enc::Vop2Sdwa)
            .unwrap()
            .with_lit(1);
        assert!(matches!(
            encode(&m),
            Err(EncodeError::LiteralInSdwaDpp { .. })
        ));
        assert!(matches!(
            Instr::build(g, "v_no_such_op", Enc::Vop2),
            Err(EncodeError::UnknownName(_))
        ));
    }

    #[test]
    fn fixed_bits_are_overwritten_and_other_bits_kept() {
        // Encoding rewrites the opcode from the row: a decoded s_endpgm with
        // its SIMM16 (ignored by the hardware) keeps SIMM16.
        let i = decode(Gen::Gcn14, &[0xbf81_1234]).unwrap();
        let mut j = i;
        j.raw = 0x1234; // prefix and opcode cleared: encode writes them back
        assert_eq!(&encode(&j).unwrap()[..], [0xbf81_1234]);
        // GLOBAL's segment is part of its identity.
        let g = Instr::start(Gen::Gcn14, op("global_load_dword", Gen::Gcn14), Enc::Flat).unwrap();
        assert_eq!(g.field(Field::Seg), 2);
        assert_eq!(
            decode(Gen::Gcn14, &encode(&g).unwrap())
                .unwrap()
                .info()
                .name,
            "global_load_dword"
        );
    }

    #[test]
    fn new_checks_operands() {
        let g = Gen::Gcn12;
        assert!(Instr::new(
            g,
            "v_add_f32",
            &[Operand::S(0), Operand::V(1), Operand::V(2)]
        )
        .is_err());
        assert!(Instr::new(
            g,
            "v_add_f32",
            &[Operand::V(0), Operand::V(1), Operand::S(2)]
        )
        .is_err());
        // v_addc_u32 (GCN 1.2, 32-bit form): the carries are vcc.
        let i = Instr::new(
            g,
            "v_addc_u32",
            &[
                Operand::V(1),
                Operand::Vcc,
                Operand::V(2),
                Operand::V(3),
                Operand::Vcc,
            ],
        )
        .unwrap();
        assert_eq!(
            crate::print(&i, crate::Dialect::Llvm),
            "v_addc_u32_e32 v1, vcc, v2, v3, vcc"
        );
        let k = Instr::new(g, "s_movk_i32", &[Operand::S(5), Operand::Imm(0x1234)]).unwrap();
        assert_eq!(&encode(&k).unwrap()[..], [0xb005_1234]);
        let m = Instr::new(
            g,
            "v_madmk_f32",
            &[
                Operand::V(0),
                Operand::V(1),
                Operand::Lit(0x4000_0000),
                Operand::V(2),
            ],
        );
        let m = m.unwrap();
        assert_eq!(encode(&m).unwrap().len(), 2);
        assert!(Instr::new(g, "ds_read_b32", &[Operand::V(0), Operand::V(1)]).is_err());
    }
}
