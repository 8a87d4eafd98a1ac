//! The decoder: machine words to [`Instr`], never panicking, never allocating.

use crate::gen::Gen;
use crate::layout::{self, Enc, Field};
use crate::processor::{Feature, Target};
use crate::table::{self, flag, Family, OpId, OpInfo, OPS};

/// A decoded instruction: which instruction it is and its raw bits.
///
/// Operands are read from `raw` through the encoding's field layout, so the
/// decoded form is small (24 bytes) and decoding is a few table look-ups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instr {
    /// The instruction (index into [`table::OPS`]).
    pub op: OpId,
    /// Its physical encoding.
    pub enc: Enc,
    /// The generation it was decoded for.
    pub gen: Gen,
    /// Length in dwords, literal included (1 or 2).
    pub len: u8,
    /// The first two dwords (first in the low half; the second is 0 for 1-dword encodings).
    pub raw: u64,
    /// The 32-bit literal constant, if the instruction has one.
    pub lit: Option<u32>,
}

impl Instr {
    /// The table row of this instruction.
    #[inline]
    pub fn info(&self) -> &'static OpInfo {
        &OPS[self.op as usize]
    }

    /// Field `f` of this instruction (0 if its encoding has no such field).
    #[inline]
    pub fn field(&self, f: Field) -> u32 {
        layout::get(self.enc, self.gen, self.raw, f)
    }

    /// Bits set in places no field of the encoding covers (the first dword
    /// is the low half). The hardware ignores them and llvm-mc's
    /// disassembler drops them silently; a listing should point them out,
    /// because the printed text does not carry them.
    #[inline]
    pub fn reserved_bits(&self) -> u64 {
        layout::reserved_bits(self.enc, self.gen, self.raw)
    }

    /// The instruction's words.
    pub fn words(&self) -> ([u32; 2], usize) {
        let mut w = [self.raw as u32, (self.raw >> 32) as u32];
        if self.enc.base_dwords() == 1 {
            if let Some(l) = self.lit {
                w[1] = l;
            }
        }
        (w, self.len as usize)
    }
}

/// Why words could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No words were given.
    #[error("no instruction words")]
    Empty,
    /// The encoding needs more dwords than were given.
    #[error("truncated instruction: needs {need} dwords, {have} available")]
    Truncated {
        /// Dwords the instruction needs.
        need: u8,
        /// Dwords available.
        have: u8,
    },
    /// The first dword matches no encoding of this generation.
    #[error("{0:#010x} is not a valid GCN encoding")]
    UnknownEncoding(u32),
    /// The encoding is known but its opcode is not defined in this generation.
    #[error("unknown {} opcode {opcode} ({opcode:#x})", family.file().to_uppercase())]
    UnknownOpcode {
        /// The encoding family.
        family: Family,
        /// The opcode field.
        opcode: u32,
    },
    /// A field holds a value this instruction cannot have (e.g. a reserved operand code).
    #[error("invalid value {value} ({value:#x}) in field {field:?}")]
    BadField {
        /// The field.
        field: Field,
        /// Its value.
        value: u32,
    },
}

/// The family whose table holds the opcodes of an encoding.
#[inline]
fn family_of(enc: Enc, gen: Gen, raw: u64) -> Result<Family, DecodeError> {
    if enc != Enc::Flat {
        return Ok(BASE_FAMILY[enc as usize]);
    }
    Ok(match layout::get(enc, gen, raw, Field::Seg) {
        0 => Family::Flat,
        1 => Family::Scratch,
        2 => Family::Global,
        v => {
            return Err(DecodeError::BadField {
                field: Field::Seg,
                value: v,
            })
        }
    })
}

/// [`base_family`] by encoding: a load where the `match` is a jump (every
/// instruction a listing decodes, twice, asks).
static BASE_FAMILY: [Family; layout::ENC_COUNT] = {
    let mut t = [Family::Sop2; layout::ENC_COUNT];
    let mut k = 0;
    while k < layout::ENC_COUNT {
        t[k] = base_family(layout::ENCS[k]);
        k += 1;
    }
    t
};

/// The family of the rows encoding `enc` holds in its own form (FLAT: the
/// FLAT rows; GCN 1.4's segment field picks GLOBAL or SCRATCH instead, see
/// `family_of`). The encoder's table of what each encoding holds starts
/// from it.
pub(crate) const fn base_family(enc: Enc) -> Family {
    match enc {
        Enc::Sop2 => Family::Sop2,
        Enc::Sopk => Family::Sopk,
        Enc::Sop1 => Family::Sop1,
        Enc::Sopc => Family::Sopc,
        Enc::Sopp => Family::Sopp,
        Enc::Smrd => Family::Smrd,
        Enc::Smem => Family::Smem,
        Enc::Vop2 | Enc::Vop2Sdwa | Enc::Vop2Dpp => Family::Vop2,
        Enc::Vop1 | Enc::Vop1Sdwa | Enc::Vop1Dpp => Family::Vop1,
        Enc::Vopc | Enc::VopcSdwa | Enc::VopcDpp => Family::Vopc,
        Enc::Vop3 | Enc::Vop3b => Family::Vop3,
        Enc::Vop3p => Family::Vop3p,
        Enc::Vintrp => Family::Vintrp,
        Enc::Ds => Family::Ds,
        Enc::Mubuf => Family::Mubuf,
        Enc::Mtbuf => Family::Mtbuf,
        Enc::Mimg => Family::Mimg,
        Enc::Exp => Family::Exp,
        Enc::Flat => Family::Flat,
    }
}

/// Whether a 32-bit literal dword follows the base words of an instruction
/// of a row with [`flag`] bits `flags` in encoding `enc` (the decoder and
/// the encoder share the rule): a scalar or VOP1/VOP2/VOPC source written
/// as 255, GCN 1.1's SMRD literal offset, or a row whose constant is always
/// a literal.
#[inline(always)]
pub(crate) fn literal_follows(enc: Enc, gen: Gen, raw: u64, flags: u32) -> bool {
    literal_in_fields(enc, gen, raw) || flags & flag::LIT != 0
}

/// The part of [`literal_follows`] that the fields decide, whatever the row.
#[inline(always)]
fn literal_in_fields(enc: Enc, gen: Gen, raw: u64) -> bool {
    match enc {
        Enc::Sop2 | Enc::Sop1 | Enc::Sopc => {
            layout::get(enc, gen, raw, Field::Ssrc0) == 255
                || layout::get(enc, gen, raw, Field::Ssrc1) == 255
        }
        Enc::Vop2 | Enc::Vop1 | Enc::Vopc => layout::get(enc, gen, raw, Field::Src0) == 255,
        // GCN 1.1 added a 32-bit literal offset to SMRD (IMM=0, OFFSET=255).
        Enc::Smrd => {
            gen.has(Feature::CiInsts)
                && layout::get(enc, gen, raw, Field::Imm) == 0
                && layout::get(enc, gen, raw, Field::Offset) == 255
        }
        _ => false,
    }
}

/// Decodes one instruction from the start of `words` for `target`: a
/// [`Gen`] (its reference chip) or a chip's [`Target`] (gfx906 decodes its
/// `v_fmac_f32`, gfx900 does not).
///
/// ```
/// use risa_gcn::{decode, Gen};
/// let i = decode(Gen::Gcn12, &[0x0200_0501]).unwrap(); // v_add_f32_e32 v0, v1, v2
/// assert_eq!(i.info().name, "v_add_f32");
/// assert_eq!(i.len, 1);
/// ```
#[inline]
pub fn decode(target: impl Into<Target>, words: &[u32]) -> Result<Instr, DecodeError> {
    decode_for(target.into(), words)
}

fn decode_for(target: Target, words: &[u32]) -> Result<Instr, DecodeError> {
    decode_inline(target, words)
}

/// [`decode`] inlined into its caller: for the one loop that decodes all
/// of a listing's instructions (`listing::Stretch::scan`), where the call
/// and the copy of its result are a tenth of the cost.
#[inline(always)]
pub(crate) fn decode_inline(target: Target, words: &[u32]) -> Result<Instr, DecodeError> {
    let h = decode_head(target, words)?;
    let lit = h.lit.then(|| words[h.base as usize]);
    Ok(Instr {
        op: h.op,
        enc: h.enc,
        gen: target.gen,
        len: h.base + u8::from(h.lit),
        raw: h.raw,
        lit,
    })
}

/// The encoding of an instruction whose first dword is `w0`: SDWA and DPP
/// replace SRC0 of VOP1/VOP2/VOPC with a marker and add a dword (GCN 1.2+).
#[inline(always)]
fn encoding_of(gen: Gen, w0: u32) -> Option<Enc> {
    let enc = Enc::classify(gen, w0)?;
    let src0 = w0 & 0x1ff;
    if (src0 == 0xf9 || src0 == 0xfa) && matches!(enc, Enc::Vop2 | Enc::Vop1 | Enc::Vopc) {
        let sdwa = src0 == 0xf9;
        if gen.has(if sdwa { Feature::Sdwa } else { Feature::Dpp }) {
            return Some(match (enc, sdwa) {
                (Enc::Vop2, true) => Enc::Vop2Sdwa,
                (Enc::Vop1, true) => Enc::Vop1Sdwa,
                (Enc::Vopc, true) => Enc::VopcSdwa,
                (Enc::Vop2, false) => Enc::Vop2Dpp,
                (Enc::Vop1, false) => Enc::Vop1Dpp,
                _ => Enc::VopcDpp,
            });
        }
    }
    Some(enc)
}

/// Whether `enc` is an SDWA or DPP encoding.
#[inline(always)]
fn sdwa_or_dpp(enc: Enc) -> bool {
    matches!(
        enc,
        Enc::Vop2Sdwa | Enc::Vop1Sdwa | Enc::VopcSdwa | Enc::Vop2Dpp | Enc::Vop1Dpp | Enc::VopcDpp
    )
}

/// What decoding finds before the [`Instr`] is made: the words at `words`
/// are an instruction of row `op`, `base` dwords long in encoding `enc`,
/// followed by a literal dword when `lit` (and `words` holds it).
struct Head {
    op: OpId,
    enc: Enc,
    raw: u64,
    base: u8,
    lit: bool,
}

/// The one decoding path: [`decode`] and [`decode_len`] are this, inlined
/// into each, so the length the first pass of a listing finds is the
/// length of the instruction the listing prints.
#[inline(always)]
fn decode_head(target: Target, words: &[u32]) -> Result<Head, DecodeError> {
    let gen = target.gen;
    let w0 = *words.first().ok_or(DecodeError::Empty)?;
    let mut enc = encoding_of(gen, w0).ok_or(DecodeError::UnknownEncoding(w0))?;
    let src0 = w0 & 0x1ff;
    let base = enc.base_dwords() as usize;
    if words.len() < base {
        return Err(DecodeError::Truncated {
            need: base as u8,
            have: words.len() as u8,
        });
    }
    let mut raw = u64::from(w0);
    if base == 2 {
        raw |= u64::from(words[1]) << 32;
    }
    let family = family_of(enc, gen, raw)?;
    let opcode = layout::get(enc, gen, raw, Field::Op);
    let op = table::lookup(family, target, opcode)
        .ok_or(DecodeError::UnknownOpcode { family, opcode })?;
    // (The flags apart from the rows: see `OP_FLAGS`.)
    let flags = table::OP_FLAGS[op as usize];
    // Every instruction with a scalar destination beside VDST uses VOP3b in its long form.
    if enc == Enc::Vop3 && flags & flag::VOP3B != 0 {
        enc = Enc::Vop3b;
    }
    let lit = literal_follows(enc, gen, raw, flags);
    if lit {
        if sdwa_or_dpp(enc) {
            // An SDWA/DPP word where a K constant follows (v_madmk/v_madak):
            // no such form exists (llvm-mc calls it an invalid encoding), and
            // an instruction is at most two dwords.
            return Err(DecodeError::BadField {
                field: Field::Src0,
                value: src0,
            });
        }
        if words.len() <= base {
            return Err(DecodeError::Truncated {
                need: base as u8 + 1,
                have: words.len() as u8,
            });
        }
    }
    Ok(Head {
        op,
        enc,
        raw,
        base: base as u8,
        lit,
    })
}

/// The length in dwords of the instruction at the start of `words` (its
/// [`Instr::len`]) and, if it is a branch ([`flag::BRANCH`]), its SIMM16
/// offset in dwords; the same errors as [`decode`]. The first pass of a
/// listing needs no more, and this costs a fraction of a decoding (a
/// first pass over much code makes one [`LenDecoder`] and asks it).
pub fn decode_len(target: Target, words: &[u32]) -> Result<(u8, Option<i16>), DecodeError> {
    LenDecoder::new(target).decode_len(words)
}

/// Bits of a [`LenDecoder`] fact: the opcode names a row that needs no
/// chip feature; the row has a literal operand ([`flag::LIT`]); it branches.
const FACT_ROW: u8 = 1;
const FACT_LIT: u8 = 2;
const FACT_BRANCH: u8 = 4;

/// Per generation, family and opcode: the `FACT_*` bits of the row (0 for
/// no row or a feature-gated one, which the full decoding resolves).
type Facts = Vec<Vec<u8>>;

static FACTS: [std::sync::OnceLock<Facts>; crate::gen::GEN_COUNT] =
    [const { std::sync::OnceLock::new() }; crate::gen::GEN_COUNT];

fn facts(gen: Gen) -> Facts {
    (0..table::FAMILY_COUNT)
        .map(|family| {
            table::ungated_rows(family, gen)
                .map(|row| match row.map(|r| &OPS[r as usize]) {
                    None => 0,
                    Some(info) => {
                        FACT_ROW
                            | if info.has(flag::LIT) { FACT_LIT } else { 0 }
                            | if info.has(flag::BRANCH) {
                                FACT_BRANCH
                            } else {
                                0
                            }
                    }
                })
                .collect()
        })
        .collect()
}

/// [`decode_len`] for one target, made once for many instructions: the
/// common case reads a byte of facts per opcode (a small table that stays
/// in cache) instead of the row; anything else (words that do not decode,
/// feature-gated rows, code cut short) takes the decoder's own path, so
/// the answers are [`decode`]'s.
#[derive(Clone, Copy)]
pub struct LenDecoder {
    target: Target,
    facts: &'static Facts,
}

impl LenDecoder {
    /// The length decoder of `target`.
    pub fn new(target: Target) -> Self {
        LenDecoder {
            target,
            facts: FACTS[target.gen as usize].get_or_init(|| facts(target.gen)),
        }
    }

    /// [`decode_len`].
    #[inline]
    pub fn decode_len(&self, words: &[u32]) -> Result<(u8, Option<i16>), DecodeError> {
        match self.quick(words) {
            Some(x) => Ok(x),
            None => decode_len_by_head(self.target, words),
        }
    }

    /// The common case of [`LenDecoder::decode_len`]; `None` for the rest.
    #[inline(always)]
    fn quick(&self, words: &[u32]) -> Option<(u8, Option<i16>)> {
        let gen = self.target.gen;
        let (&w0, rest) = words.split_first()?;
        let enc = encoding_of(gen, w0)?;
        let base = enc.base_dwords() as usize;
        let raw = match (base, rest.first()) {
            (1, _) => u64::from(w0),
            (_, Some(&w1)) => u64::from(w0) | u64::from(w1) << 32,
            _ => return None,
        };
        let family = family_of(enc, gen, raw).ok()?;
        let opcode = layout::get(enc, gen, raw, Field::Op);
        let fact = *self.facts[family as usize].get(opcode as usize)?;
        if fact == 0 {
            return None;
        }
        let lit = fact & FACT_LIT != 0 || literal_in_fields(enc, gen, raw);
        if lit && (sdwa_or_dpp(enc) || words.len() <= base) {
            return None;
        }
        let branch = (fact & FACT_BRANCH != 0)
            .then(|| layout::get(enc, gen, raw, Field::Simm16) as u16 as i16);
        Some((base as u8 + u8::from(lit), branch))
    }
}

/// [`decode_len`] by the decoder's own path.
#[cold]
fn decode_len_by_head(target: Target, words: &[u32]) -> Result<(u8, Option<i16>), DecodeError> {
    let h = decode_head(target, words)?;
    let branch = OPS[h.op as usize]
        .has(flag::BRANCH)
        .then(|| layout::get(h.enc, target.gen, h.raw, Field::Simm16) as u16 as i16);
    Ok((h.base + u8::from(h.lit), branch))
}

/// Decodes little-endian bytes (length need not be a multiple of 4; a partial
/// trailing dword is an error for the instruction that needs it).
pub fn decode_bytes(target: impl Into<Target>, bytes: &[u8]) -> Result<Instr, DecodeError> {
    let mut w = [0u32; 2];
    let n = (bytes.len() / 4).min(2);
    for (i, slot) in w.iter_mut().enumerate().take(n) {
        *slot = u32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ]);
    }
    decode(target, &w[..n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::processor::PROCESSORS;
    use crate::random::{all_forms, garbage_cases, random_of, Rng};

    /// What `decode` says `decode_len` must say: the length, the branch
    /// offset of a branch, the same error.
    fn expected(target: Target, words: &[u32]) -> Result<(u8, Option<i16>), DecodeError> {
        decode_for(target, words).map(|i| {
            let branch = i.info().has(flag::BRANCH);
            (i.len, branch.then(|| i.field(Field::Simm16) as u16 as i16))
        })
    }

    /// The first pass of a listing ([`decode_len`]) agrees with the
    /// decoder on every chip: on words of every bit pattern (fully random,
    /// and random but for each form's fixed bits and opcode, cut to every
    /// length), and on random valid instructions of every form.
    #[test]
    fn decode_len_agrees_with_decode() {
        for chip in PROCESSORS {
            let target = chip.target();
            for case in garbage_cases(target, 20_000, 0x1e4) {
                let words: Vec<u32> = case
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                for n in 0..=words.len() {
                    let w = &words[..n];
                    assert_eq!(
                        decode_len(target, w),
                        expected(target, w),
                        "{} {w:08x?}",
                        chip.name
                    );
                }
            }
            let forms = all_forms(target);
            let mut rng = Rng::new(0x1e5);
            for _ in 0..20_000 {
                let i = random_of(&mut rng, target, &forms);
                let (w, n) = i.words();
                let got = decode_len(target, &w[..n]);
                assert_eq!(
                    got,
                    expected(target, &w[..n]),
                    "{} {:08x?}",
                    chip.name,
                    &w[..n]
                );
                assert_eq!(got.map(|x| x.0), Ok(i.len), "{}", i.info().name);
            }
        }
    }
}
