//! The text of the commonest operands, computed at compile time.
//!
//! Printing a register or a small number digit by digit costs a branch per
//! digit count, and those branches follow the data (register numbers are
//! all over the place), so they mispredict. Here each such text is a table
//! entry: the characters and their count packed in one integer, written to
//! the output with one fixed-size store. The names come from
//! [`crate::operand`], the single source of truth; `tests` below check every
//! entry against the printer's general path.

use crate::gen::{Gen, ALL_GENS, GEN_COUNT};
use crate::operand::{sgpr_count, special_name, special_pair_name, ttmp_range};

/// Up to 7 bytes of text in the low bytes (first character lowest), the
/// length in the top byte; 0 if the text does not fit.
pub(crate) type Packed = u64;

/// As [`Packed`] with up to 15 bytes of text (the length in the top byte).
pub(crate) type Packed16 = u128;

/// Appends a [`Packed`] text: one 8-byte store, then the length grows by the
/// text's length (the bytes past it are spare capacity, never shown).
#[inline(always)]
pub(crate) fn push_packed(out: &mut Vec<u8>, t: Packed) {
    out.reserve(8);
    let len = out.len();
    // SAFETY: `reserve(8)` made room for 8 bytes past `len`; the new length
    // counts only the text's bytes (at most 7), all initialised by the store.
    unsafe {
        out.as_mut_ptr()
            .add(len)
            .cast::<u64>()
            .write_unaligned(t.to_le());
        out.set_len(len + (t >> 56) as usize);
    }
}

/// Appends a [`Packed16`] text with one 16-byte store.
#[inline(always)]
pub(crate) fn push_packed16(out: &mut Vec<u8>, t: Packed16) {
    out.reserve(16);
    let len = out.len();
    // SAFETY: as in `push_packed`, with 16 reserved bytes and at most 15 kept.
    unsafe {
        out.as_mut_ptr()
            .add(len)
            .cast::<u128>()
            .write_unaligned(t.to_le());
        out.set_len(len + (t >> 120) as usize);
    }
}

/// The decimal text of 0..=999: three zero-padded digits (first lowest)
/// and the digit count in the top byte.
static DEC: [u32; 1000] = dec_table();

const fn dec_table() -> [u32; 1000] {
    let mut t = [0u32; 1000];
    let mut v = 0;
    while v < 1000 {
        let n = if v >= 100 {
            3
        } else if v >= 10 {
            2
        } else {
            1
        };
        t[v as usize] = (b'0' + (v / 100) as u8) as u32
            | ((b'0' + (v / 10 % 10) as u8) as u32) << 8
            | ((b'0' + (v % 10) as u8) as u32) << 16
            | n << 24;
        v += 1;
    }
    t
}

/// Appends `v` (< 1000) in decimal with one 4-byte store.
#[inline(always)]
pub(crate) fn push_small_u32(out: &mut Vec<u8>, v: u32) {
    let e = DEC[v as usize];
    let n = e >> 24;
    // Drop the padding zeros: the digits move down to the first byte.
    let digits = (e & 0xff_ffff) >> (8 * (3 - n));
    out.reserve(4);
    let len = out.len();
    // SAFETY: as in `push_packed`, with 4 reserved bytes and at most 3 kept.
    unsafe {
        out.as_mut_ptr()
            .add(len)
            .cast::<u32>()
            .write_unaligned(digits.to_le());
        out.set_len(len + n as usize);
    }
}

/// Appends `v` (< 1000) as exactly three digits (`007`).
#[inline(always)]
pub(crate) fn push_padded3(out: &mut Vec<u8>, v: u32) {
    let digits = DEC[v as usize] & 0xff_ffff;
    out.reserve(4);
    let len = out.len();
    // SAFETY: as in `push_packed`, with 4 reserved bytes and 3 kept.
    unsafe {
        out.as_mut_ptr()
            .add(len)
            .cast::<u32>()
            .write_unaligned(digits.to_le());
        out.set_len(len + 3);
    }
}

/// Text being built in a constant: up to 16 bytes.
#[derive(Clone, Copy)]
struct Text {
    bytes: [u8; 16],
    len: usize,
}

impl Text {
    const fn new() -> Text {
        Text {
            bytes: [0; 16],
            len: 0,
        }
    }

    /// Appends `s`; text past 16 bytes only counts towards the length.
    const fn str(mut self, s: &[u8]) -> Text {
        let mut i = 0;
        while i < s.len() {
            if self.len < 16 {
                self.bytes[self.len] = s[i];
            }
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends `n` in decimal.
    const fn num(self, n: u32) -> Text {
        let mut digits = [0u8; 10];
        let mut k = digits.len();
        let mut v = n;
        loop {
            k -= 1;
            digits[k] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        let (_, used) = digits.split_at(k);
        self.str(used)
    }

    /// `prefix` and a register range as `print::push_range` writes it:
    /// `v5` or `v[5:6]`.
    const fn range(self, prefix: &[u8], first: u32, count: u32) -> Text {
        let t = self.str(prefix);
        if count == 1 {
            t.num(first)
        } else {
            t.str(b"[")
                .num(first)
                .str(b":")
                .num(first + count - 1)
                .str(b"]")
        }
    }

    /// As a [`Packed`] (0 if longer than 7 bytes).
    const fn packed(self) -> Packed {
        if self.len > 7 {
            return 0;
        }
        let mut t = (self.len as u64) << 56;
        let mut i = 0;
        while i < self.len {
            t |= (self.bytes[i] as u64) << (8 * i);
            i += 1;
        }
        t
    }

    /// As a [`Packed16`] (0 if longer than 15 bytes).
    const fn packed16(self) -> Packed16 {
        if self.len > 15 {
            return 0;
        }
        let mut t = (self.len as u128) << 120;
        let mut i = 0;
        while i < self.len {
            t |= (self.bytes[i] as u128) << (8 * i);
            i += 1;
        }
        t
    }
}

const fn pack_num(prefix: &[u8], n: u32) -> Packed {
    Text::new().str(prefix).num(n).packed()
}

const fn pack_str(s: &str) -> Packed {
    Text::new().str(s.as_bytes()).packed()
}

/// Packs each of `names` (each must fit: checked at compile time).
pub(crate) const fn pack_all<const N: usize>(names: [&str; N]) -> [Packed; N] {
    let mut t = [0; N];
    let mut k = 0;
    while k < N {
        t[k] = pack_concat(names[k], "");
        k += 1;
    }
    t
}

/// `b` as a [`Packed16`] (0 if longer than 15 bytes): also for texts made
/// at run time.
pub(crate) const fn pack16_bytes(b: &[u8]) -> Packed16 {
    Text::new().str(b).packed16()
}

/// Packs each of `names` as [`Packed16`] (each must fit).
pub(crate) const fn pack16_all<const N: usize>(names: [&str; N]) -> [Packed16; N] {
    let mut t = [0; N];
    let mut k = 0;
    while k < N {
        let text = Text::new().str(names[k].as_bytes());
        assert!(text.len <= 15, "packed text longer than 15 bytes");
        t[k] = text.packed16();
        k += 1;
    }
    t
}

/// Packs `a` followed by `b`; the pair must fit (checked at compile time
/// where the tables are built).
pub(crate) const fn pack_concat(a: &str, b: &str) -> Packed {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let len = a.len() + b.len();
    assert!(len <= 7, "packed text longer than 7 bytes");
    let mut t = (len as u64) << 56;
    let mut i = 0;
    while i < len {
        let c = if i < a.len() { a[i] } else { b[i - a.len()] };
        t |= (c as u64) << (8 * i);
        i += 1;
    }
    t
}

/// `v0`..`v255`.
pub(crate) static VGPR: [Packed; 256] = {
    let mut t = [0; 256];
    let mut n = 0;
    while n < 256 {
        t[n] = pack_num(b"v", n as u32);
        n += 1;
    }
    t
};

/// A single scalar register by its 8-bit code, per generation, as
/// `print::push_sreg` names it: SGPR, TTMP, special register, or the bare
/// `s<code>` for codes that name nothing (0 where the name is too long).
pub(crate) static SREG: [[Packed; 256]; GEN_COUNT] = {
    let mut t = [[0; 256]; GEN_COUNT];
    let mut g = 0;
    while g < 4 {
        let gen = ALL_GENS[g];
        let (t0, tn) = ttmp_range(gen);
        let mut code = 0;
        while code < 256 {
            t[g][code as usize] = if code < sgpr_count(gen) {
                pack_num(b"s", code)
            } else if code >= t0 && code < t0 + tn {
                pack_num(b"ttmp", code - t0)
            } else {
                match special_name(gen, code) {
                    Some(n) => pack_str(n),
                    None => pack_num(b"s", code),
                }
            };
            code += 1;
        }
        g += 1;
    }
    t
};

/// The text of integer inline constant `code` (128..=208): `0`..`64`, `-1`..`-16`.
const fn inline_int(code: u32) -> Text {
    if code <= 192 {
        Text::new().num(code - 128)
    } else {
        Text::new().str(b"-").num(code - 192)
    }
}

/// The integer inline constants, codes 128..=208.
pub(crate) static INLINE_INT: [Packed; 81] = {
    let mut t = [0; 81];
    let mut k = 0;
    while k < 81 {
        t[k] = inline_int(128 + k as u32).packed();
        k += 1;
    }
    t
};

/// A source operand code (9 bits) of a 32-bit operand, per generation:
/// the scalar registers, the integer inline constants and the VGPRs
/// (0 for the codes whose text depends on more than the code: float
/// constants, the literal, `src_*` names).
pub(crate) static SRC: [[Packed; 512]; GEN_COUNT] = {
    let mut t = [[0; 512]; GEN_COUNT];
    let mut g = 0;
    while g < 4 {
        let mut code = 0;
        while code < 512 {
            t[g][code] = match code {
                0..=127 => SREG[g][code],
                128..=208 => INLINE_INT[code - 128],
                256..=511 => VGPR[code - 256],
                _ => 0,
            };
            code += 1;
        }
        g += 1;
    }
    t
};

/// A source operand code (9 bits) of a 64-bit operand, per generation:
/// register pairs (`s[4:5]`, `vcc`, `ttmp[2:3]`, `v[6:7]`) and the integer
/// inline constants, as `print::push_src` writes them (0 for the rest).
pub(crate) static SRC_PAIR: [[Packed16; 512]; GEN_COUNT] = {
    let mut t = [[0; 512]; GEN_COUNT];
    let mut g = 0;
    while g < 4 {
        let gen = ALL_GENS[g];
        let (t0, tn) = ttmp_range(gen);
        let mut code = 0;
        while code < 512 {
            let c = code as u32;
            t[g][code] = match code {
                0..=127 => {
                    if c < sgpr_count(gen) {
                        Text::new().range(b"s", c, 2).packed16()
                    } else if c >= t0 && c < t0 + tn {
                        Text::new().range(b"ttmp", c - t0, 2).packed16()
                    } else {
                        match special_pair_name(gen, c) {
                            Some(n) => Text::new().str(n.as_bytes()).packed16(),
                            None => Text::new().range(b"s", c, 2).packed16(),
                        }
                    }
                }
                128..=208 => inline_int(c).packed16(),
                256..=511 => Text::new().range(b"v", c - 256, 2).packed16(),
                _ => 0,
            };
            code += 1;
        }
        g += 1;
    }
    t
};

/// The text of a scalar register range of `count` (more than 2) at code
/// `c` (below 128), as `print::push_sreg` writes it: SGPRs, TTMPs, or the
/// bare `s[..]` of codes past them (no special register is wider than 2).
const fn sreg_range(gen: Gen, c: u32, count: u32) -> Packed16 {
    let (t0, tn) = ttmp_range(gen);
    if c >= t0 && c < t0 + tn {
        Text::new().range(b"ttmp", c - t0, count).packed16()
    } else {
        Text::new().range(b"s", c, count).packed16()
    }
}

/// Scalar register ranges of 4 and 8 (resource and sampler descriptors)
/// by generation and code (below 128): the ranges of the memory
/// instructions, printed digit by digit at about 50 instructions each.
pub(crate) static SREG_WIDE: [[[Packed16; 128]; 2]; GEN_COUNT] = {
    let mut t = [[[0; 128]; 2]; GEN_COUNT];
    let mut g = 0;
    while g < 4 {
        let mut c = 0;
        while c < 128 {
            t[g][0][c] = sreg_range(ALL_GENS[g], c as u32, 4);
            t[g][1][c] = sreg_range(ALL_GENS[g], c as u32, 8);
            c += 1;
        }
        g += 1;
    }
    t
};

/// VGPR ranges of 3 and 4 (`v[n:n+3]`, memory data and image addresses) by
/// first register (also where the range runs past v255: the text is the
/// same).
pub(crate) static VGPR_WIDE: [[Packed16; 256]; 2] = {
    let mut t = [[0; 256]; 2];
    let mut n = 0;
    while n < 256 {
        t[0][n] = Text::new().range(b"v", n as u32, 3).packed16();
        t[1][n] = Text::new().range(b"v", n as u32, 4).packed16();
        n += 1;
    }
    t
};

/// The 64-bit source operand table of `gen`.
#[inline(always)]
pub(crate) fn src_pair_table(gen: Gen) -> &'static [Packed16; 512] {
    &SRC_PAIR[gen as usize]
}

/// `v[n:n+1]`: the VGPR part of [`SRC_PAIR`] (the same in every generation).
#[inline(always)]
pub(crate) fn vgpr_pair(n: u32) -> Packed16 {
    SRC_PAIR[0][256 + (n as usize & 255)]
}

/// The source operand table of `gen`.
#[inline(always)]
pub(crate) fn src_table(gen: Gen) -> &'static [Packed; 512] {
    &SRC[gen as usize]
}

/// The scalar register name table of `gen`.
#[inline(always)]
pub(crate) fn sreg_table(gen: Gen) -> &'static [Packed; 256] {
    &SREG[gen as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers() {
        for v in [0, 7, 10, 99, 100, 999] {
            let mut out = b"x".to_vec();
            push_small_u32(&mut out, v);
            push_padded3(&mut out, v);
            assert_eq!(out, format!("x{v}{v:03}").as_bytes());
        }
    }

    #[test]
    fn packed_texts() {
        let mut out = Vec::new();
        push_packed(&mut out, VGPR[255]);
        push_packed(&mut out, INLINE_INT[80]);
        push_packed(&mut out, sreg_table(Gen::Gcn14)[123]);
        push_packed(&mut out, sreg_table(Gen::Gcn10)[106]);
        assert_eq!(out, b"v255-16ttmp15vcc_lo");
        assert_eq!(pack_str("exec_lo8"), 0);
    }
}
