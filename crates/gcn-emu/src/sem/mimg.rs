//! MIMG without a sampler: `image_load*`, `image_store*`, `image_get_resinfo`
//! and `image_atomic_*` on linear images (see [`crate::image`]); the
//! sampling forms are in `sem/sample.rs`.
//!
//! Behaviour from `reference/clrx-doc/GcnInstrsMimg.md`; where the documents
//! are silent the choice is stated here and in `docs/gcn-emulator.md`.

use super::format::{components, from_d16, join, mask, one, pack, split, to_d16, unpack};
use super::vmem::{atomic_index, mem_fault, ATOMICS};
use super::{Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::image::{layout, ImageDesc, Kind};
use crate::mem::{active_lanes, AtomicOp};
use crate::program::{Op, Src};
use crate::wave::Wave;
use risa_gcn::semantics::{ImageAccess, ImageMem};
use risa_gcn::table::OpInfo;
use risa_gcn::Field;

/// `aux` bits of loads and stores.
const MIP: u32 = 1;
/// Raw components, no number-format conversion (`*_pck`).
const PCK: u32 = 2;
/// Sign-extend raw components (`*_pck_sgn`).
const SGN: u32 = 4;

/// The handler of image row `info` and its `aux`, or why it cannot run,
/// from the row's [`ImageMem`] (derived from the row by the build).
pub(super) fn lookup(info: &OpInfo, access: Option<ImageMem>) -> Result<(Handler, u32), FaultKind> {
    let name = info.name;
    let unimpl = FaultKind::Unimplemented(name);
    let aux = |a: ImageAccess| {
        let bit = |on: bool, b: u32| if on { b } else { 0 };
        bit(a.mip, MIP) | bit(a.pck, PCK) | bit(a.sgn, SGN)
    };
    Ok(match access.ok_or(unimpl.clone())? {
        ImageMem::Sample(s) => (super::sample::SAMPLE, super::sample::aux(s)),
        ImageMem::Atomic(op) => (atomic, atomic_index(op).ok_or(unimpl)?),
        ImageMem::ResInfo => (resinfo, 0),
        ImageMem::Load(a) => (load, aux(a)),
        ImageMem::Store(a) => (store, aux(a)),
    })
}

/// The instruction's fields and its image, decoded once per execution.
pub(super) struct Access {
    pub(super) img: ImageDesc,
    pub(super) kind: Kind,
    /// First address VGPR.
    pub(super) va: usize,
    /// First data VGPR.
    vd: usize,
    pub(super) dmask: u32,
    glc: bool,
    /// TFE or LWE: one more VGPR after the data.
    status: bool,
    pub(super) d16: bool,
    pub(super) a16: bool,
    d16_packed: bool,
}

fn vgpr(s: Src) -> usize {
    match s {
        Src::V(r) => r as usize,
        _ => 0,
    }
}

impl Access {
    pub(super) fn new(w: &Wave, op: &Op, c: &Ctx) -> Result<Access, FaultKind> {
        let gen = c.prog.gen;
        let lay = layout(gen);
        let i = op.instr;
        let bit15 = i.field(Field::R128) != 0;
        let words = if bit15 && !lay.a16() { 4 } else { 8 };
        let r = op.sd as usize;
        if r + words > 128 {
            return Err(FaultKind::BadOperand(format!(
                "the image resource s[{r}:{}] is past the scalar registers",
                r + words - 1
            )));
        }
        let img = ImageDesc::decode(gen, &w.s[r..r + words]);
        let kind = img.check(gen)?;
        Ok(Access {
            img,
            kind,
            va: vgpr(op.src[0]),
            vd: op.d as usize,
            dmask: i.field(Field::Dmask),
            glc: i.field(Field::Glc) != 0,
            status: i.field(Field::Tfe) != 0 || i.field(Field::Lwe) != 0,
            d16: i.field(Field::D16) != 0,
            a16: bit15 && lay.a16(),
            d16_packed: lay.d16_packed(),
        })
    }

    /// Address component `k` of lane `l` (16-bit halves with A16).
    fn addr(&self, w: &Wave, l: usize, k: usize) -> u32 {
        if self.a16 {
            (w.v[self.va + k / 2][l] >> (16 * (k % 2))) & 0xffff
        } else {
            w.v[self.va + k][l]
        }
    }

    /// The texel address of lane `l` (`None`: outside the image).
    fn target(&self, w: &Wave, l: usize, mip: bool) -> Option<u64> {
        let n = self.kind.coords();
        let mut c = [0u32; 3];
        for (k, v) in c.iter_mut().enumerate().take(n) {
            *v = self.addr(w, l, k);
        }
        let m = if mip { self.addr(w, l, n) } else { 0 };
        self.img.texel(self.kind, c, m)
    }

    /// Writes the selected components `vals` to the data VGPRs of lane `l`
    /// (16-bit with D16), then the TFE/LWE status dword (0: the texel is resident).
    pub(super) fn put(&self, w: &mut Wave, l: usize, vals: [u32; 4]) {
        self.put_mask(w, l, vals, self.dmask);
    }

    /// [`Access::put`] for the components `dmask` selects (gather4 returns
    /// four whatever its DMASK).
    pub(super) fn put_mask(&self, w: &mut Wave, l: usize, vals: [u32; 4], dmask: u32) {
        let mut k = 0usize;
        for (c, v) in vals.iter().enumerate() {
            if dmask >> c & 1 == 0 {
                continue;
            }
            if !self.d16 {
                w.v[self.vd + k][l] = *v;
            } else if self.d16_packed {
                let r = &mut w.v[self.vd + k / 2][l];
                let sh = 16 * (k % 2) as u32;
                *r = (*r & !(0xffff << sh)) | ((v & 0xffff) << sh);
            } else {
                w.v[self.vd + k][l] = v & 0xffff;
            }
            k += 1;
        }
        if self.status {
            let regs = if self.d16 && self.d16_packed {
                k.div_ceil(2)
            } else {
                k
            };
            w.v[self.vd + regs][l] = 0;
        }
    }

    /// The data components of lane `l` in RGBA slots (DMASK selects which slots
    /// the consecutive data VGPRs fill; 16-bit values with D16).
    fn take(&self, w: &Wave, l: usize) -> [u32; 4] {
        let mut out = [0u32; 4];
        let mut k = 0usize;
        for (c, o) in out.iter_mut().enumerate() {
            if self.dmask >> c & 1 == 0 {
                continue;
            }
            *o = if !self.d16 {
                w.v[self.vd + k][l]
            } else if self.d16_packed {
                (w.v[self.vd + k / 2][l] >> (16 * (k % 2))) & 0xffff
            } else {
                w.v[self.vd + k][l] & 0xffff
            };
            k += 1;
        }
        out
    }
}

fn load(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = Access::new(w, op, c)?;
    if a.d16 && op.aux & PCK != 0 {
        return Err(FaultKind::BadOperand("D16 with image_load_*pck*".into()));
    }
    let comps = components(a.img.dfmt);
    let bpp = a.img.texel_bytes() as usize;
    let nfmt = a.img.nfmt;
    let e = w.exec();
    for l in active_lanes(e) {
        let vals = match a.target(w, l, op.aux & MIP != 0) {
            // Outside the image: every returned component is 0.
            None => [0; 4],
            Some(addr) => {
                let mut buf = [0u8; 16];
                c.mem
                    .read(addr, &mut buf[..bpp])
                    .map_err(|err| mem_fault(l, err, false))?;
                c.stats.bytes_read += bpp as u64;
                let raw = split(&buf[..bpp], comps);
                if op.aux & PCK != 0 {
                    // Raw components, zero- or sign-extended from their width.
                    std::array::from_fn(|k| match comps.get(k) {
                        Some(&b) if op.aux & SGN != 0 && b < 32 => {
                            (((raw[k] << (32 - b)) as i32) >> (32 - b)) as u32
                        }
                        _ => raw[k],
                    })
                } else {
                    let s = swizzle(&a.img, convert(raw, comps, nfmt)?);
                    if a.d16 {
                        s.map(|x| to_d16(x, nfmt))
                    } else {
                        s
                    }
                }
            }
        };
        a.put(w, l, vals);
    }
    Ok(())
}

/// The register values of a texel's raw components `raw` converted by
/// NUMBER_FORMAT, with the components the format lacks filled as 0, 0, 0, 1.
pub(super) fn convert(raw: [u32; 4], comps: &[u32], nfmt: u32) -> Result<[u32; 4], FaultKind> {
    let mut v = [0, 0, 0, one(nfmt)];
    for (k, &b) in comps.iter().enumerate() {
        v[k] = unpack(raw[k], b, nfmt)?;
    }
    Ok(v)
}

/// DST_SEL_X..W of `img` applied to RGBA register values `v`.
pub(super) fn swizzle(img: &ImageDesc, v: [u32; 4]) -> [u32; 4] {
    std::array::from_fn(|k| match img.dst_sel[k] {
        1 => one(img.nfmt),
        s @ 4..=7 => v[s as usize - 4],
        _ => 0,
    })
}

fn store(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = Access::new(w, op, c)?;
    if a.d16 && op.aux & PCK != 0 {
        return Err(FaultKind::BadOperand("D16 with image_store_*pck".into()));
    }
    let comps = components(a.img.dfmt);
    let bpp = a.img.texel_bytes() as usize;
    let nfmt = a.img.nfmt;
    // Components DMASK leaves out keep their stored bits.
    let full = a.dmask & mask(comps.len() as u32) == mask(comps.len() as u32);
    let e = w.exec();
    for l in active_lanes(e) {
        // Outside the image: the store is dropped.
        let Some(addr) = a.target(w, l, op.aux & MIP != 0) else {
            continue;
        };
        let data = a.take(w, l);
        let mut buf = [0u8; 16];
        let mut raw = [0u32; 4];
        if !full {
            c.mem
                .read(addr, &mut buf[..bpp])
                .map_err(|err| mem_fault(l, err, false))?;
            c.stats.bytes_read += bpp as u64;
            raw = split(&buf[..bpp], comps);
        }
        for (k, &b) in comps.iter().enumerate() {
            if a.dmask >> k & 1 == 0 {
                continue;
            }
            raw[k] = if op.aux & PCK != 0 {
                data[k] & mask(b)
            } else {
                let v = if a.d16 {
                    from_d16(data[k], nfmt)
                } else {
                    data[k]
                };
                pack(v, b, nfmt)?
            };
        }
        join(&raw, comps, &mut buf[..bpp]);
        c.mem
            .write(addr, &buf[..bpp])
            .map_err(|err| mem_fault(l, err, true))?;
        c.stats.bytes_written += bpp as u64;
    }
    Ok(())
}

fn resinfo(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = Access::new(w, op, c)?;
    let e = w.exec();
    for l in active_lanes(e) {
        let mip = w.v[a.va][l];
        let v = a.img.resinfo(c.prog.gen, a.kind, mip);
        a.put(w, l, if a.d16 { v.map(|x| x & 0xffff) } else { v });
    }
    Ok(())
}

fn atomic(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = Access::new(w, op, c)?;
    let aop = ATOMICS[op.aux as usize].1;
    let cmp = matches!(aop, AtomicOp::CmpSwap | AtomicOp::FCmpSwap);
    // DMASK counts the data dwords: the value (and the comparand for cmpswap).
    let n = a.dmask.count_ones() / if cmp { 2 } else { 1 };
    let bits = match (n, a.dmask.count_ones() % if cmp { 2 } else { 1 }) {
        (1, 0) => 32,
        (2, 0) => 64,
        _ => {
            return Err(FaultKind::BadOperand(format!(
                "image atomic with DMASK {:#x}: expected 1 or 2 data dwords{}",
                a.dmask,
                if cmp {
                    " and as many comparand dwords"
                } else {
                    ""
                }
            )))
        }
    };
    if a.d16 {
        return Err(FaultKind::BadOperand("D16 with an image atomic".into()));
    }
    let bpp = a.img.texel_bytes();
    if bpp * 8 != bits {
        return Err(FaultKind::BadOperand(format!(
            "image atomic on {bits} bits needs a {bits}-bit texel; DATA_FORMAT {} has {} bits",
            a.img.dfmt,
            bpp * 8
        )));
    }
    let k = (bits / 32) as usize;
    let e = w.exec();
    for l in active_lanes(e) {
        let rd = |r: usize| -> u64 {
            let lo = u64::from(w.v[r][l]);
            if k == 2 {
                lo | u64::from(w.v[r + 1][l]) << 32
            } else {
                lo
            }
        };
        let val = rd(a.vd);
        let cv = if cmp { rd(a.vd + k) } else { 0 };
        // Outside the image: nothing changes and the returned value is 0.
        let old = match a.target(w, l, false) {
            None => 0,
            Some(addr) => {
                let old = c
                    .mem
                    .atomic(addr, bits, aop, val, cv)
                    .map_err(|err| mem_fault(l, err, true))?;
                c.stats.bytes_read += u64::from(bpp);
                c.stats.bytes_written += u64::from(bpp);
                old
            }
        };
        if a.glc {
            w.v[a.vd][l] = old as u32;
            if k == 2 {
                w.v[a.vd + 1][l] = (old >> 32) as u32;
            }
        }
    }
    Ok(())
}
