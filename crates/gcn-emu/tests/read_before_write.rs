//! Every instruction reads all its sources before it writes any destination
//! (registers, addresses, M0, EXEC, VCC): the hardware reads operands once,
//! at issue, and compilers' register allocators rely on it (LLVM reuses an
//! address VGPR as the destination of `ds_read2_b32 v[3:4], v3 ...`).
//!
//! A metamorphic test over every row of every generation (and gfx906): a
//! random instance of each (instruction, encoding) form from
//! `risa_gcn::random` is run twice on the same input values, once with its
//! destination range moved where it overlaps no source, once with the
//! destination overlapping one source (for each register source of the
//! destination's register file). The destination's value and every other
//! register, memory, LDS and GDS must come out the same.

use risa_gcn::operand::sgpr_count;
use risa_gcn::random::{all_forms, random_instr, Rng};
use risa_gcn::table::{flag, Family, Role};
use risa_gcn::{decode, layout, Enc, Field, Instr, Processor, Target, ALL_GENS};
use risa_gcn_emu::exec::run_group;
use risa_gcn_emu::image::{ImageDesc, Kind as ImgKind};
use risa_gcn_emu::wave::{EXEC, M0};
use risa_gcn_emu::{Ctx, Gds, Program, SimpleMemory, Wave};

const BASE: u64 = 0x1_0000;
const SIZE: usize = 8192;
const LDS: usize = 4096;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum File {
    V,
    S,
}

/// How the harness seeds a source so that the instruction gets past its
/// checks: plain data, a 64-bit pointer into the allocation, a buffer V#.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Data,
    Ptr,
    Rsrc,
    /// An image descriptor (T#): a linear 2D image over the allocation.
    Image,
}

/// A register range an operand occupies.
#[derive(Clone, Copy, Debug)]
struct Range {
    file: File,
    /// The field that names it (for destinations, the one the test rewrites).
    field: Field,
    first: u32,
    n: u32,
    kind: Kind,
}

impl Range {
    fn overlaps(&self, o: &Range) -> bool {
        self.file == o.file && self.first < o.first + o.n && o.first < self.first + self.n
    }
    fn contains(&self, r: u32) -> bool {
        (self.first..self.first + self.n).contains(&r)
    }
}

fn r(file: File, field: Field, first: u32, n: u32) -> Range {
    Range {
        file,
        field,
        first,
        n,
        kind: Kind::Data,
    }
}

/// A 9-bit VOP source or 8-bit scalar source code as a register range.
fn src_code(field: Field, code: u32, n: u32) -> Option<Range> {
    match code {
        0..=127 if code + n <= 128 => Some(r(File::S, field, code, n)),
        256..=511 => Some(r(File::V, field, code - 256, n)),
        _ => None,
    }
}

/// The destination and source register ranges of `i` (those in fields; the
/// implicit VCC of VOP2/VOPC stays where it is in both runs).
fn footprint(i: &Instr) -> (Vec<Range>, Vec<Range>) {
    let info = i.info();
    let gen = i.gen;
    let f = |x: Field| i.field(x);
    let mut d = Vec::new();
    let mut s = Vec::new();
    let n_of = |role: Role| info.operand(role).map_or(1, |o| o.ty.dwords());
    match i.enc {
        Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc => {
            for o in info.sig {
                let n = o.ty.dwords();
                match o.role {
                    Role::D if f(Field::Sdst) + n <= 128 => {
                        d.push(r(File::S, Field::Sdst, f(Field::Sdst), n))
                    }
                    Role::A => s.extend(src_code(Field::Ssrc0, f(Field::Ssrc0), n)),
                    Role::B if o.ty != risa_gcn::table::Ty::Gpridx => {
                        s.extend(src_code(Field::Ssrc1, f(Field::Ssrc1), n))
                    }
                    _ => {}
                }
            }
        }
        Enc::Smrd | Enc::Smem => {
            let dn = n_of(Role::D);
            if info.operand(Role::D).is_some() && !info.has(flag::IMM_D) {
                let dr = r(File::S, Field::Sdst, f(Field::Sdst), dn);
                if dr.first + dn <= 128 {
                    if info.has(flag::STORE) {
                        s.push(dr);
                    } else {
                        d.push(dr);
                    }
                }
            }
            if info.operand(Role::A).is_some() {
                let n = n_of(Role::A);
                let mut b = r(File::S, Field::Sbase, f(Field::Sbase) * 2, n);
                b.kind = if n == 4 { Kind::Rsrc } else { Kind::Ptr };
                s.push(b);
            }
            let imm = f(Field::Imm) != 0;
            if i.enc == Enc::Smrd && !imm && i.lit.is_none() {
                s.extend(src_code(Field::Offset, f(Field::Offset), 1));
            } else if i.enc == Enc::Smem && !imm {
                s.extend(src_code(Field::Offset, f(Field::Offset) & 0x7f, 1));
            } else if i.enc == Enc::Smem && f(Field::Soe) != 0 {
                s.extend(src_code(Field::Soffset, f(Field::Soffset), 1));
            }
        }
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Vop3b | Enc::Vop3p => {
            let vop3 = matches!(i.enc, Enc::Vop3 | Enc::Vop3b | Enc::Vop3p);
            for o in info.sig {
                let n = o.ty.dwords();
                match o.role {
                    Role::D if o.sgpr => d.push(r(File::S, Field::Vdst, f(Field::Vdst), n)),
                    Role::D => d.push(r(File::V, Field::Vdst, f(Field::Vdst), n)),
                    Role::SD if vop3 => d.push(r(File::S, Field::Sdst3, f(Field::Sdst3), 2)),
                    Role::A => s.extend(src_code(Field::Src0, f(Field::Src0), n)),
                    Role::B if vop3 => s.extend(src_code(Field::Src1, f(Field::Src1), n)),
                    Role::B if o.sgpr => s.push(r(File::S, Field::Vsrc1, f(Field::Vsrc1), 1)),
                    Role::B => s.push(r(File::V, Field::Vsrc1, f(Field::Vsrc1), n)),
                    Role::C | Role::SC if vop3 => {
                        s.extend(src_code(Field::Src2, f(Field::Src2), n))
                    }
                    _ => {}
                }
            }
            if vop3 && info.family == Family::Vopc {
                d.push(r(File::S, Field::Vdst, f(Field::Vdst), 2));
            }
            d.retain(|x| x.first + x.n <= if x.file == File::S { 128 } else { 256 });
        }
        Enc::Vop1Sdwa
        | Enc::Vop2Sdwa
        | Enc::VopcSdwa
        | Enc::Vop1Dpp
        | Enc::Vop2Dpp
        | Enc::VopcDpp => {
            let sdwa = matches!(i.enc, Enc::Vop1Sdwa | Enc::Vop2Sdwa | Enc::VopcSdwa);
            for o in info.sig {
                let n = o.ty.dwords();
                match o.role {
                    Role::D if !o.sgpr => d.push(r(File::V, Field::Vdst, f(Field::Vdst), n)),
                    Role::A if sdwa && f(Field::S0) != 0 => {
                        s.extend(src_code(Field::Src0, f(Field::Src0), n))
                    }
                    Role::A => s.push(r(File::V, Field::Src0, f(Field::Src0), n)),
                    Role::B if sdwa && f(Field::S1) != 0 => {
                        s.extend(src_code(Field::Vsrc1, f(Field::Vsrc1), n))
                    }
                    Role::B => s.push(r(File::V, Field::Vsrc1, f(Field::Vsrc1), n)),
                    _ => {}
                }
            }
            if info.family == Family::Vopc && sdwa && f(Field::SdwaSd) != 0 {
                let c = f(Field::SdwaSdst);
                if c + 2 <= 128 {
                    d.push(r(File::S, Field::SdwaSdst, c, 2));
                }
            }
            d.retain(|x| x.first + x.n <= 256);
        }
        Enc::Ds => {
            for o in info.sig {
                let n = o.ty.dwords();
                let (field, dst) = match o.role {
                    Role::D => (Field::Vdst, true),
                    Role::A => (Field::Addr, false),
                    Role::B => (Field::Data0, false),
                    Role::C => (Field::Data1, false),
                    _ => continue,
                };
                let x = r(File::V, field, f(field), n);
                if x.first + n <= 256 {
                    if dst {
                        d.push(x)
                    } else {
                        s.push(x)
                    }
                }
            }
        }
        Enc::Mubuf | Enc::Mtbuf => {
            if info.has(flag::NOARGS) {
                return (d, s);
            }
            if let Some(o) = info.operand(Role::V) {
                let n = o.ty.data_dwords(gen) + f(Field::Tfe);
                let x = r(File::V, Field::Vdata, f(Field::Vdata), n);
                if info.has(flag::STORE) || info.has(flag::ATOMIC) {
                    // An atomic's returned value replaces its data: tied.
                    s.push(x);
                } else if f(Field::Lds) == 0 {
                    d.push(x);
                }
            }
            let n = if f(Field::Addr64) != 0 {
                2
            } else {
                f(Field::Offen) + f(Field::Idxen)
            };
            if n > 0 {
                s.push(r(File::V, Field::Vaddr, f(Field::Vaddr), n));
            }
            let mut rs = r(File::S, Field::Srsrc, f(Field::Srsrc) * 4, 4);
            rs.kind = Kind::Rsrc;
            s.push(rs);
            s.extend(src_code(Field::Soffset, f(Field::Soffset), 1));
        }
        Enc::Flat => {
            let saddr = f(Field::Saddr);
            let has_saddr =
                gen == risa_gcn::Gen::Gcn14 && info.family != Family::Flat && saddr != 0x7f;
            for o in info.sig {
                match o.role {
                    Role::D => d.push(r(File::V, Field::Vdst, f(Field::Vdst), o.ty.dwords())),
                    Role::A if info.family == Family::Scratch && has_saddr => {}
                    Role::A => {
                        let n = if has_saddr || info.family == Family::Scratch {
                            1
                        } else {
                            2
                        };
                        let mut x = r(File::V, Field::Addr, f(Field::Addr), n);
                        if n == 2 {
                            x.kind = Kind::Ptr;
                        }
                        s.push(x);
                    }
                    Role::V => s.push(r(
                        File::V,
                        Field::Data0,
                        f(Field::Data0),
                        o.ty.data_dwords(gen),
                    )),
                    _ => {}
                }
            }
            if has_saddr {
                let n = if info.family == Family::Global { 2 } else { 1 };
                let mut x = r(File::S, Field::Saddr, saddr, n);
                if n == 2 {
                    x.kind = Kind::Ptr;
                }
                s.push(x);
            }
            d.retain(|x| x.first + x.n <= 256);
            s.retain(|x| x.first + x.n <= 256);
        }
        Enc::Mimg => {
            let n = if info.has(flag::GATHER4) {
                4
            } else {
                f(Field::Dmask).count_ones().max(1)
            } + (f(Field::Tfe) | f(Field::Lwe));
            if info.operand(Role::V).is_some() {
                let x = r(File::V, Field::Vdata, f(Field::Vdata), n);
                if info.has(flag::STORE) || info.has(flag::ATOMIC) {
                    s.push(x);
                } else if x.first + n <= 256 {
                    d.push(x);
                }
            }
            // The address count depends on the image: take the widest the
            // harness's 2D T# reads (x, y, mip; 4 to be safe; sampling:
            // offsets, bias, reference, 4 derivatives, x, y, clamp, LOD).
            let va = f(Field::Vaddr);
            let width = if info.has(flag::SAMPLER) || info.has(flag::GATHER4) {
                11
            } else {
                4
            };
            s.push(r(File::V, Field::Vaddr, va, width.min(256 - va)));
            let n = if f(Field::R128) != 0 { 4 } else { 8 };
            let mut t = r(File::S, Field::Srsrc, f(Field::Srsrc) * 4, n);
            t.kind = Kind::Image;
            s.push(t);
            if info.has(flag::SAMPLER) {
                s.push(r(File::S, Field::Ssamp, f(Field::Ssamp) * 4, 4));
            }
        }
        _ => {}
    }
    (d, s)
}

/// Destinations no field names: EXEC of `s_*_saveexec_b64` and `v_cmpx_*`,
/// VCC of VOP2 carry-outs and VOPC. A moved destination that lands on one
/// would make two destinations of one register (which write wins is another
/// question than read-before-write), so the test does not go there.
fn implicit_dst(i: &Instr) -> Vec<Range> {
    let info = i.info();
    let mut v = Vec::new();
    if info.name.contains("saveexec") || info.has(flag::CMPX) {
        v.push(r(File::S, Field::Sdst, EXEC as u32, 2));
    }
    if matches!(i.enc, Enc::Vop2 | Enc::Vopc) || info.family == Family::Vopc && i.enc != Enc::Vop3 {
        v.push(r(File::S, Field::Sdst, 106, 2));
    }
    v
}

/// The instruction with destination `dst` moved to start at `first`.
fn moved(t: Target, i: &Instr, dst: &Range, first: u32) -> Option<Instr> {
    let mut raw = i.raw;
    if !layout::set(i.enc, i.gen, &mut raw, dst.field, first) {
        return None;
    }
    let mut words = vec![raw as u32];
    if i.enc.base_dwords() == 2 {
        words.push((raw >> 32) as u32);
    }
    if let Some(l) = i.lit {
        words.push(l);
    }
    let j = decode(t, &words).ok()?;
    (j.op == i.op && j.enc == i.enc && j.field(dst.field) == first).then_some(j)
}

struct State {
    w: Wave,
    mem: Vec<u8>,
    lds: Vec<u8>,
}

struct Outcome {
    fault: Option<String>,
    w: Wave,
    mem: Vec<u8>,
    lds: Vec<u8>,
    gds: Vec<u8>,
}

fn run(t: Target, i: &Instr, st: &State) -> Outcome {
    let (w, len) = i.words();
    let mut words = w[..len].to_vec();
    words.push(0xbf81_0000); // s_endpgm
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(t, &code, 0x1000);
    let mem = SimpleMemory::new();
    mem.add(BASE, st.mem.clone());
    let mut lds = st.lds.clone();
    let gds = Gds::new();
    gds.begin_dispatch(1, true);
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    ctx.budget = 16;
    ctx.gds = Some(&gds);
    let mut ws = [st.w.clone()];
    let fault = run_group(&mut ws, &mut ctx, |_, _| {})
        .err()
        .map(|f| format!("{:?}", f.kind));
    let [w] = ws;
    Outcome {
        fault,
        w,
        mem: mem.get(BASE).unwrap(),
        lds,
        gds: gds.bytes(),
    }
}

/// Random registers, with the instruction's pointer and resource sources
/// made valid.
fn state(rng: &mut Rng, i: &Instr, srcs: &[Range]) -> State {
    let mut w = Wave::new(0);
    for s in w.s.iter_mut() {
        let x = rng.next_u64();
        *s = match x % 4 {
            0 => (x >> 8) as u32 & 0xff,
            1 => (x >> 8) as u32 % LDS as u32,
            _ => (x >> 32) as u32,
        };
    }
    for v in w.v.iter_mut().take(256) {
        for l in v.iter_mut() {
            let x = rng.next_u64();
            *l = if x.is_multiple_of(3) {
                (x >> 32) as u32
            } else {
                (x >> 32) as u32 % LDS as u32
            };
        }
    }
    for x in srcs {
        let off = || (rng_off(x.first) & !15) as u32;
        match (x.kind, x.file) {
            (Kind::Ptr, File::S) => {
                w.s[x.first as usize] = BASE as u32 + off();
                w.s[x.first as usize + 1] = 0;
            }
            (Kind::Ptr, File::V) => {
                for l in 0..64 {
                    w.v[x.first as usize][l] = BASE as u32 + ((rng.next_u64() % 4096) as u32 & !15);
                    w.v[x.first as usize + 1][l] = 0;
                }
            }
            (Kind::Image, File::S) if x.first + 8 <= 128 => {
                let t = ImageDesc::linear(i.gen, ImgKind::D2, BASE, 14, 4, [16, 16, 1]);
                let q = x.first as usize;
                w.s[q..q + 8].copy_from_slice(&t.encode(i.gen));
            }
            (Kind::Rsrc, File::S) => {
                let q = x.first as usize;
                w.s[q] = BASE as u32;
                w.s[q + 1] = 0;
                w.s[q + 2] = 4096;
                w.s[q + 3] = 0x27fac;
            }
            _ => {}
        }
    }
    // M0: the LDS limit on GCN 1.0-1.2, the index of v_movrel*/s_movrel*
    // (0 there, so their footprint is the one in the fields).
    w.s[M0] = if i.info().name.contains("movrel") {
        0
    } else {
        u32::MAX
    };
    let e = if rng.one_in(2) {
        u64::MAX
    } else {
        rng.next_u64() | 1
    };
    w.set_s64(EXEC, e);
    w.mode = rng.next_u64() as u32 & 0x3ff;
    let mut mem = vec![0u8; SIZE];
    for b in mem.iter_mut() {
        *b = rng.next_u64() as u8;
    }
    let mut lds = vec![0u8; LDS];
    for b in lds.iter_mut() {
        *b = rng.next_u64() as u8;
    }
    State { w, mem, lds }
}

fn rng_off(seed: u32) -> u64 {
    (u64::from(seed) * 0x9e37_79b9) % 4096
}

/// Registers of `file` (VGPRs: the 256 architectural ones).
fn regs(w: &Wave, file: File) -> Vec<Vec<u32>> {
    match file {
        File::V => w.v[..256].iter().map(|l| l.to_vec()).collect(),
        File::S => w.s.iter().map(|&s| vec![s]).collect(),
    }
}

/// Compares the run with the disjoint destination `d1` against the run with
/// the overlapping destination `d2`; `Err` describes the first difference.
fn same(a: &Outcome, b: &Outcome, d1: &Range, d2: &Range) -> Result<(), String> {
    if a.mem != b.mem {
        return Err("memory differs".into());
    }
    if a.lds != b.lds {
        return Err("LDS differs".into());
    }
    if a.gds != b.gds {
        return Err("GDS differs".into());
    }
    if a.w.scc != b.w.scc || a.w.pc != b.w.pc || a.w.mode != b.w.mode {
        return Err("scc/pc/mode differs".into());
    }
    for file in [File::V, File::S] {
        let (ra, rb) = (regs(&a.w, file), regs(&b.w, file));
        for k in 0..ra.len() as u32 {
            if file == d1.file && (d1.contains(k) || d2.contains(k)) {
                continue;
            }
            if ra[k as usize] != rb[k as usize] {
                return Err(format!("{file:?}{k} differs"));
            }
        }
        if file == d1.file {
            for k in 0..d1.n {
                let (x, y) = (&ra[(d1.first + k) as usize], &rb[(d2.first + k) as usize]);
                if x != y {
                    let lane = x.iter().zip(y).position(|(p, q)| p != q).unwrap();
                    return Err(format!(
                        "destination dword {k} differs in lane {lane}: {:#x} (disjoint) vs {:#x} (overlapping)",
                        x[lane], y[lane]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Like [`same`] for a moved source: every register but the source's old
/// place `ex` (which only run `a` filled) must agree.
fn same_except(a: &Outcome, b: &Outcome, ex: &Range) -> Result<(), String> {
    if a.mem != b.mem || a.lds != b.lds || a.gds != b.gds {
        return Err("memory, LDS or GDS differs".into());
    }
    if a.w.scc != b.w.scc || a.w.pc != b.w.pc || a.w.mode != b.w.mode {
        return Err("scc/pc/mode differs".into());
    }
    for file in [File::V, File::S] {
        let (ra, rb) = (regs(&a.w, file), regs(&b.w, file));
        for k in 0..ra.len() as u32 {
            if file == ex.file && ex.contains(k) {
                continue;
            }
            if ra[k as usize] != rb[k as usize] {
                return Err(format!("{file:?}{k} differs"));
            }
        }
    }
    Ok(())
}

/// A start for destination `d` that overlaps no source and no other destination.
fn disjoint(
    gen: risa_gcn::Gen,
    d: &Range,
    srcs: &[Range],
    dsts: &[Range],
    avoid: &Range,
) -> Option<u32> {
    let (limit, align) = match d.file {
        File::V => (256, 1),
        File::S => (sgpr_count(gen), d.n.clamp(1, 4)),
    };
    let mut first = 0;
    while first + d.n <= limit {
        let c = Range { first, ..*d };
        let clash = srcs.iter().any(|s| s.overlaps(&c))
            || dsts.iter().any(|x| x.field != d.field && x.overlaps(&c))
            || avoid.overlaps(&c);
        if !clash {
            return Some(first);
        }
        first += align;
    }
    None
}

#[test]
fn sources_are_read_before_destinations_are_written() {
    let mut targets: Vec<(String, Target)> = ALL_GENS
        .iter()
        .map(|&g| (g.to_string(), g.into()))
        .collect();
    let gfx906 = Processor::parse("gfx906").unwrap();
    targets.push(("gfx906".into(), gfx906.target()));
    let tries: u32 = std::env::var("RISA_RBW_TRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 2 } else { 6 });
    let mut failures = Vec::new();
    let (mut checked, mut faulted, mut forms_checked) = (0u32, 0u32, 0u32);
    for (tname, t) in &targets {
        let gen = t.gen;
        let mut rng = Rng::new(0xb0ff + gen as u64);
        for (op, enc) in all_forms(*t) {
            let mut form_checked = false;
            for _ in 0..tries {
                let Some(i) = random_instr(&mut rng, *t, op, enc) else {
                    continue;
                };
                let (dsts, srcs) = footprint(&i);
                for d in &dsts {
                    for s in srcs.iter().filter(|s| s.file == d.file) {
                        // The overlapping destination: aligned like the original.
                        let (limit, align) = match d.file {
                            File::V => (256, 1),
                            File::S => (128, d.n.clamp(1, 4)),
                        };
                        let at = (s.first / align * align).min(limit - d.n);
                        let d2 = Range { first: at, ..*d };
                        if !d2.overlaps(s) || implicit_dst(&i).iter().any(|x| x.overlaps(&d2)) {
                            continue;
                        }
                        // s_movrel*: the destination indexed by M0 must be an SGPR.
                        if d.file == File::S
                            && i.info().name.contains("movrel")
                            && at + d.n > sgpr_count(gen)
                        {
                            continue;
                        }
                        let Some(first1) = disjoint(gen, d, &srcs, &dsts, &d2) else {
                            continue;
                        };
                        let d1 = Range {
                            first: first1,
                            ..*d
                        };
                        let (Some(i1), Some(i2)) =
                            (moved(*t, &i, d, d1.first), moved(*t, &i, d, at))
                        else {
                            continue;
                        };
                        let base = state(&mut rng, &i, &srcs);
                        // Run 1 starts with the disjoint destination holding what
                        // the overlapping one holds in run 2.
                        let mut st1 = State {
                            w: base.w.clone(),
                            mem: base.mem.clone(),
                            lds: base.lds.clone(),
                        };
                        for k in 0..d.n as usize {
                            match d.file {
                                File::V => {
                                    st1.w.v[d1.first as usize + k] = base.w.v[at as usize + k]
                                }
                                File::S => {
                                    st1.w.s[d1.first as usize + k] = base.w.s[at as usize + k]
                                }
                            }
                        }
                        let a = run(*t, &i1, &st1);
                        let b = run(*t, &i2, &base);
                        let text = risa_gcn::print(&i2, risa_gcn::Dialect::Llvm);
                        match (&a.fault, &b.fault) {
                            (None, None) => {
                                checked += 1;
                                form_checked = true;
                                if let Err(e) = same(&a, &b, &d1, &d2) {
                                    failures.push(format!("{tname}: {text}: {e}"));
                                }
                            }
                            // The same fault both ways: what was written up to it must agree too.
                            (Some(x), Some(y)) if x == y => {
                                faulted += 1;
                                if let Err(e) = same(&a, &b, &d1, &d2) {
                                    failures.push(format!("{tname}: {text}: after {x}: {e}"));
                                }
                            }
                            (Some(_), Some(_)) => faulted += 1,
                            (x, y) => failures.push(format!(
                                "{tname}: {text}: disjoint run {x:?}, overlapping run {y:?}"
                            )),
                        }
                    }
                }
                // Destinations no field names (VCC of VOPC/VOP2 carries, EXEC of
                // v_cmpx/saveexec) cannot move: move each scalar source onto
                // them instead, the other run reading the same value from
                // where the source was.
                for d in implicit_dst(&i) {
                    for s in srcs.iter().filter(|s| s.file == File::S && s.n <= 2) {
                        let movable = matches!(
                            s.field,
                            Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
                        );
                        // The source's old place gets the moved value in the other
                        // run: it must be an ordinary SGPR (not EXEC, M0, VCC).
                        // No other source may read it (both runs must read the same).
                        let plain = s.first + s.n <= sgpr_count(gen)
                            && srcs.iter().filter(|x| x.overlaps(s)).count() == 1;
                        if !movable
                            || !plain
                            || s.overlaps(&d)
                            || dsts.iter().any(|x| x.overlaps(s))
                        {
                            continue;
                        }
                        // Scalar source fields hold the operand code: VCC_LO 106, EXEC_LO 126.
                        let at = d.first;
                        let Some(i2) = moved(*t, &i, s, at) else {
                            continue;
                        };
                        let base = state(&mut rng, &i, &srcs);
                        let mut st1 = State {
                            w: base.w.clone(),
                            mem: base.mem.clone(),
                            lds: base.lds.clone(),
                        };
                        for k in 0..s.n as usize {
                            st1.w.s[s.first as usize + k] = base.w.s[at as usize + k];
                        }
                        let a = run(*t, &i, &st1);
                        let b = run(*t, &i2, &base);
                        let text = risa_gcn::print(&i2, risa_gcn::Dialect::Llvm);
                        match (&a.fault, &b.fault) {
                            (None, None) => {
                                checked += 1;
                                form_checked = true;
                                if let Err(e) = same_except(&a, &b, s) {
                                    let t1 = risa_gcn::print(&i, risa_gcn::Dialect::Llvm);
                                    failures.push(format!(
                                        "{tname}: {text}: {e} (vs {t1}; s{}={:#x} s{}={:#x} / {:#x})",
                                        s.first,
                                        st1.w.s[s.first as usize],
                                        at,
                                        base.w.s[at as usize],
                                        st1.w.s[at as usize]
                                    ));
                                }
                            }
                            (Some(x), Some(y)) if x == y => faulted += 1,
                            (Some(_), Some(_)) => faulted += 1,
                            (x, y) => failures.push(format!(
                                "{tname}: {text}: source elsewhere {x:?}, source on the destination {y:?}"
                            )),
                        }
                    }
                }
            }
            forms_checked += form_checked as u32;
            if !form_checked && std::env::var("RISA_RBW_LIST").is_ok() {
                println!(
                    "unchecked {tname} {} {enc:?}",
                    risa_gcn::OPS[op as usize].name
                );
            }
        }
    }
    println!(
        "{checked} overlapping runs compared ({faulted} faulted both ways), {forms_checked} forms covered"
    );
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
