//! Data and number formats shared by formatted buffer accesses (MUBUF
//! `*_format_*`, MTBUF) and images (MIMG): how a stored element splits into
//! components and how one component converts to and from its register value
//! (`reference/clrx-doc/GcnMemHandling.md`, "MUBUF/MTBUF format conversion"
//! and "Image resource format").

use crate::fault::FaultKind;

/// Component bit widths of a DATA_FORMAT, from the lowest bit (empty: invalid
/// or not modelled). Codes 0-15 are shared by buffers and images; 16-19 are
/// image-only 16-bit packed formats.
pub(crate) fn components(dfmt: u32) -> &'static [u32] {
    match dfmt {
        1 => &[8],
        2 => &[16],
        3 => &[8, 8],
        4 => &[32],
        5 => &[16, 16],
        // "10_11_11": two 11-bit and one 10-bit component from the lowest bit.
        6 => &[11, 11, 10],
        // "11_11_10": one 10-bit and two 11-bit components from the lowest bit.
        7 => &[10, 11, 11],
        // "10_10_10_2": one 2-bit and three 10-bit components from the lowest bit.
        8 => &[2, 10, 10, 10],
        // "2_10_10_10": three 10-bit and one 2-bit component from the lowest bit.
        9 => &[10, 10, 10, 2],
        10 => &[8, 8, 8, 8],
        11 => &[32, 32],
        12 => &[16, 16, 16, 16],
        13 => &[32, 32, 32],
        14 => &[32, 32, 32, 32],
        16 => &[5, 6, 5],
        // "1_5_5_5": three 5-bit and one 1-bit component from the lowest bit.
        17 => &[5, 5, 5, 1],
        // "5_5_5_1": one 1-bit and three 5-bit components from the lowest bit.
        18 => &[1, 5, 5, 5],
        19 => &[4, 4, 4, 4],
        _ => &[],
    }
}

/// Whether NUM_FORMAT `nfmt` gives integer register values (UINT, SINT)
/// rather than floats.
pub(crate) fn is_int(nfmt: u32) -> bool {
    nfmt == 4 || nfmt == 5
}

/// The register value of "one" for `nfmt`: what a missing fourth component
/// and a DST_SEL of 1 read as (1 for integer formats, 1.0 otherwise).
pub(crate) fn one(nfmt: u32) -> u32 {
    if is_int(nfmt) {
        1
    } else {
        0x3f80_0000
    }
}

/// An unsigned float of `bits` (10 or 11: 5-bit exponent with bias 15, no
/// sign) to f32; exact.
fn small_float(raw: u32, bits: u32) -> f32 {
    let mbits = bits - 5;
    let e = raw >> mbits;
    let m = raw & ((1 << mbits) - 1);
    match e {
        0 => m as f32 * 2f32.powi(-14 - mbits as i32),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => f32::from_bits(((e + 112) << 23) | (m << (23 - mbits))),
    }
}

/// A stored component to its register value by NUM_FORMAT.
pub(crate) fn unpack(raw: u32, bits: u32, nfmt: u32) -> Result<u32, FaultKind> {
    let max = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let sx = if bits == 32 {
        raw as i32
    } else {
        ((raw << (32 - bits)) as i32) >> (32 - bits)
    };
    Ok(match nfmt {
        0 => (f64::from(raw) / f64::from(max)) as f32,
        1 if bits > 1 => ((f64::from(sx) / f64::from(max >> 1)) as f32).max(-1.0),
        2 => raw as f32,
        3 => sx as f32,
        4 => return Ok(raw),
        5 => return Ok(sx as u32),
        7 if bits == 32 => return Ok(raw),
        7 if bits == 16 => crate::float::f16_to_f32(raw as u16),
        7 if bits == 10 || bits == 11 => small_float(raw, bits),
        _ => return Err(FaultKind::Unimplemented("this data/number format")),
    }
    .to_bits())
}

/// A register value to a stored component by NUM_FORMAT (round to nearest, saturated).
pub(crate) fn pack(v: u32, bits: u32, nfmt: u32) -> Result<u32, FaultKind> {
    let max = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let f = f64::from(f32::from_bits(v));
    let smax = f64::from(max >> 1);
    Ok(match nfmt {
        0 => (f.clamp(0.0, 1.0) * f64::from(max)).round_ties_even() as u32,
        1 if bits > 1 => ((f.clamp(-1.0, 1.0) * smax).round_ties_even() as i64) as u32 & max,
        2 => f.clamp(0.0, f64::from(max)).round_ties_even() as u32,
        3 => (f.clamp(-smax - 1.0, smax).round_ties_even() as i64) as u32 & max,
        4 => v.min(max),
        5 => (i64::from(v as i32).clamp(-(max as i64 >> 1) - 1, max as i64 >> 1)) as u32 & max,
        7 if bits == 32 => v,
        7 if bits == 16 => u32::from(crate::float::f32_to_f16(f32::from_bits(v))),
        _ => return Err(FaultKind::Unimplemented("this data/number format")),
    })
}

/// Splits an element's little-endian bytes into its raw components (the
/// layout of [`components`]); components the format lacks are 0.
pub(crate) fn split(bytes: &[u8], comps: &[u32]) -> [u32; 4] {
    let mut words = [0u32; 4];
    for (k, c) in bytes.chunks(4).enumerate().take(4) {
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        words[k] = u32::from_le_bytes(b);
    }
    let mut out = [0u32; 4];
    let mut bit = 0u32;
    for (k, &bits) in comps.iter().enumerate() {
        let (word, sh) = ((bit / 32) as usize, bit % 32);
        out[k] = (words[word] >> sh) & mask(bits);
        bit += bits;
    }
    out
}

/// Joins raw components into an element's little-endian bytes (`out` has
/// the element's size).
pub(crate) fn join(raw: &[u32; 4], comps: &[u32], out: &mut [u8]) {
    let mut words = [0u32; 4];
    let mut bit = 0u32;
    for (k, &bits) in comps.iter().enumerate() {
        let (word, sh) = ((bit / 32) as usize, bit % 32);
        words[word] |= (raw[k] & mask(bits)) << sh;
        bit += bits;
    }
    for (k, c) in out.chunks_mut(4).enumerate() {
        c.copy_from_slice(&words[k].to_le_bytes()[..c.len()]);
    }
}

/// The low `bits` bits set.
pub(crate) fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// A component loaded by a `_d16` format instruction as 16 bits: half float
/// for the float-valued number formats, the low 16 bits of the integer for
/// UINT/SINT (GcnInstrsMubuf.md BUFFER_LOAD_FORMAT_D16_X). Buffers and
/// images alike.
pub(crate) fn to_d16(v: u32, nfmt: u32) -> u32 {
    if is_int(nfmt) {
        v & 0xffff
    } else {
        u32::from(crate::float::f32_to_f16(f32::from_bits(v)))
    }
}

/// The register value a 16-bit stored component stands for (inverse of [`to_d16`]).
pub(crate) fn from_d16(h: u32, nfmt: u32) -> u32 {
    match nfmt {
        4 => h & 0xffff,
        5 => h as u16 as i16 as i32 as u32,
        _ => crate::float::f16_to_f32(h as u16).to_bits(),
    }
}
