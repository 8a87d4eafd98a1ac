//! LDS_IDX_OP (guide 8.11): the LDS operations of one ALU slot over the
//! active lanes, with results pushed to the output queues OQA/OQB.

use super::*;

pub(super) fn lds_op(
    oq: &mut [VecDeque<Lanes>; 2],
    lds: &mut [u32],
    op: LdsOp,
    s: &[Lanes],
    m: u64,
) -> Result<(), (Option<u32>, String)> {
    let size = lds.len() as u64 * 4;
    let chk = |l: usize, a: u32| -> Result<usize, (Option<u32>, String)> {
        if (a as u64) + 4 > size {
            Err((
                Some(l as u32),
                format!("LDS access at byte 0x{a:x} outside the group's {size} bytes of LDS"),
            ))
        } else {
            Ok((a >> 2) as usize)
        }
    };
    let off = op.offset as u32;
    let mut qa = [0u32; LANES];
    let mut qb = [0u32; LANES];
    let (mut push_a, mut push_b) = (false, false);
    let name = op.name;
    for l in lanes_of(m) {
        let a = s[0][l];
        let (x, y) = (s[1][l], s[2][l]);
        let w = chk(l, a & !3)?;
        let old = lds[w];
        let base = name.strip_suffix("_RET").unwrap_or(name);
        let ret = name.ends_with("_RET");
        let new =
            match base {
                b if rmw(b, old, x, y, a & 3).is_some() => rmw(b, old, x, y, a & 3),
                "WRITE_REL" | "XCHG_REL" => {
                    let w2 = chk(l, (a & !3).wrapping_add(off * 4))?;
                    if ret {
                        qb[l] = lds[w2];
                        push_b = true;
                    }
                    lds[w2] = y;
                    Some(x)
                }
                "WRITE2" | "XCHG2" => {
                    let w2 = chk(l, (a & !3).wrapping_add(off * 64 * 4))?;
                    if ret {
                        qb[l] = lds[w2];
                        push_b = true;
                    }
                    lds[w2] = y;
                    Some(x)
                }
                "READ" => None,
                "READ_REL" => {
                    let w2 = chk(l, (a & !3).wrapping_add(off * 4))?;
                    qb[l] = lds[w2];
                    push_b = true;
                    None
                }
                "READ2" => {
                    let w2 = chk(l, x & !3)?;
                    qb[l] = lds[w2];
                    push_b = true;
                    None
                }
                "READWRITE" => {
                    let w2 = chk(l, x & !3)?;
                    lds[w2] = y;
                    None
                }
                "BYTE_READ" | "UBYTE_READ" | "SHORT_READ" | "USHORT_READ" => None,
                // guide 9.6: "GDS-only (intercepted by ordered alloc unit)"
                "ATOMIC_ORDERED_ALLOC" => return Err((
                    None,
                    "LDS_ATOMIC_ORDERED_ALLOC_RET is GDS-only (guide 9.6); use it in a GDS clause"
                        .into(),
                )),
                other => return Err((None, format!("LDS_{other} is not supported"))),
            };
        if ret {
            qa[l] = read_ext(base, old, a & 3);
            push_a = true;
        }
        if let Some(v) = new {
            lds[w] = v;
        }
    }
    let ret = name.ends_with("_RET");
    if ret || push_a {
        oq[0].push_back(qa);
    }
    if push_b
        || name == "READ2_RET"
        || name == "READ_REL_RET"
        || name == "XCHG_REL_RET"
        || name == "XCHG2_RET"
    {
        oq[1].push_back(qb);
    }
    if oq[0].len() > 256 || oq[1].len() > 256 {
        return Err((
            None,
            "LDS output queue overflow (results never read)".into(),
        ));
    }
    Ok(())
}

/// The new value of the addressed dword for the LDS/GDS operations that
/// read-modify-write one dword (guide 9.6 DS_INST table; `x` = data 0,
/// `y` = data 1, `byte` = the address's byte within the dword); None for
/// the others. `base` is the mnemonic without `_RET`.
pub(super) fn rmw(base: &str, old: u32, x: u32, y: u32, byte: u32) -> Option<u32> {
    Some(match base {
        "ADD" => old.wrapping_add(x),
        "SUB" => old.wrapping_sub(x),
        "RSUB" => x.wrapping_sub(old),
        "INC" => {
            if old >= x {
                0
            } else {
                old + 1
            }
        }
        "DEC" => {
            if old == 0 || old > x {
                x
            } else {
                old - 1
            }
        }
        "MIN_INT" => (old as i32).min(x as i32) as u32,
        "MAX_INT" => (old as i32).max(x as i32) as u32,
        "MIN_UINT" => old.min(x),
        "MAX_UINT" => old.max(x),
        "AND" => old & x,
        "OR" => old | x,
        "XOR" => old ^ x,
        "MSKOR" => (old & !x) | y,
        "WRITE" | "XCHG" => x,
        "CMP_STORE" | "CMP_XCHG" => {
            if old == x {
                y
            } else {
                old
            }
        }
        "CMP_STORE_SPF" | "CMP_XCHG_SPF" => {
            if f32::from_bits(old) == f32::from_bits(x) {
                y
            } else {
                old
            }
        }
        "BYTE_WRITE" => {
            let sh = 8 * byte;
            (old & !(0xff << sh)) | ((x & 0xff) << sh)
        }
        "SHORT_WRITE" => {
            let sh = 8 * (byte & 2);
            (old & !(0xffff << sh)) | ((x & 0xffff) << sh)
        }
        _ => return None,
    })
}

/// What a `_RET` operation returns from the old dword: the sign- or
/// zero-extended byte/short for the narrow reads, else the dword.
pub(super) fn read_ext(base: &str, old: u32, byte: u32) -> u32 {
    match base {
        "BYTE_READ" => (old >> (8 * byte)) as u8 as i8 as i32 as u32,
        "UBYTE_READ" => (old >> (8 * byte)) as u8 as u32,
        "SHORT_READ" => (old >> (8 * (byte & 2))) as u16 as i16 as i32 as u32,
        "USHORT_READ" => (old >> (8 * (byte & 2))) as u16 as u32,
        _ => old,
    }
}
