//! CLAMP on integer results, row by row: every row whose CLRX page
//! (GcnInstrsVop2.md, GcnInstrsVop3.md, GcnInstrsVop3p.md) says "If CLAMP
//! modifier supplied, then result is saturated to ..." is run, in its VOP3
//! (VOP3b, VOP3P) form on every generation whose encoding has the CLAMP bit,
//! on boundary operands with and without CLAMP, against the exact result
//! saturated (CLAMP) or wrapped (no CLAMP). Rows with a carry-out must give
//! the same carry either way.
//!
//! GCN 1.0/1.1 VOP3b has no CLAMP bit (bit 11 is part of SDST; llvm-mc:
//! "integer clamping is not supported on this GPU"), so their carry rows are
//! checked only on GCN 1.2 and 1.4.

use risa_gcn::random::{random_instr, Rng};
use risa_gcn::table::{Family, Role};
use risa_gcn::{decode, layout, Enc, Field, Instr, Processor, Target, ALL_GENS, OPS};
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

/// The saturation range of a row's result.
#[derive(Clone, Copy, Debug)]
enum Sat {
    U16,
    I16,
    U32,
    I32,
}

impl Sat {
    fn bits(self) -> u32 {
        match self {
            Sat::U16 | Sat::I16 => 16,
            _ => 32,
        }
    }
    fn signed(self) -> bool {
        matches!(self, Sat::I16 | Sat::I32)
    }
    fn range(self) -> (i128, i128) {
        match self {
            Sat::U16 => (0, 0xffff),
            Sat::I16 => (-0x8000, 0x7fff),
            Sat::U32 => (0, 0xffff_ffff),
            Sat::I32 => (-0x8000_0000, 0x7fff_ffff),
        }
    }
}

/// Exact result from (a, b, c, carry-in), operands already sign- or
/// zero-extended as the row's type says.
type Exact = fn(i128, i128, i128, i128) -> i128;

/// The rows the documents give a saturating CLAMP, by name (a name covers
/// its rows in every generation: `v_add_u32` with a carry on GCN 1.2 and
/// without on GCN 1.4 compute the same sum).
const ROWS: &[(&str, Sat, Exact)] = &[
    ("v_add_co_u32", Sat::U32, |a, b, _, _| a + b),
    ("v_add_i32", Sat::U32, |a, b, _, _| a + b), // GCN 1.0/1.1 carry row (U32 per CLRX)
    ("v_add_u32", Sat::U32, |a, b, _, _| a + b),
    ("v_sub_co_u32", Sat::U32, |a, b, _, _| a - b),
    ("v_sub_i32", Sat::U32, |a, b, _, _| a - b),
    ("v_sub_u32", Sat::U32, |a, b, _, _| a - b),
    ("v_subrev_co_u32", Sat::U32, |a, b, _, _| b - a),
    ("v_subrev_i32", Sat::U32, |a, b, _, _| b - a),
    ("v_subrev_u32", Sat::U32, |a, b, _, _| b - a),
    ("v_addc_co_u32", Sat::U32, |a, b, _, c| a + b + c),
    ("v_addc_u32", Sat::U32, |a, b, _, c| a + b + c),
    ("v_subb_co_u32", Sat::U32, |a, b, _, c| a - b - c),
    ("v_subb_u32", Sat::U32, |a, b, _, c| a - b - c),
    ("v_subbrev_co_u32", Sat::U32, |a, b, _, c| b - a - c),
    ("v_subbrev_u32", Sat::U32, |a, b, _, c| b - a - c),
    ("v_add_u16", Sat::U16, |a, b, _, _| a + b),
    ("v_sub_u16", Sat::U16, |a, b, _, _| a - b),
    ("v_subrev_u16", Sat::U16, |a, b, _, _| b - a),
    ("v_add_i16", Sat::I16, |a, b, _, _| a + b),
    ("v_sub_i16", Sat::I16, |a, b, _, _| a - b),
    ("v_mad_u16", Sat::U16, |a, b, c, _| a * b + c),
    ("v_mad_i16", Sat::I16, |a, b, c, _| a * b + c),
    ("v_mad_legacy_u16", Sat::U16, |a, b, c, _| a * b + c),
    ("v_mad_legacy_i16", Sat::I16, |a, b, c, _| a * b + c),
    ("v_pk_add_u16", Sat::U16, |a, b, _, _| a + b),
    ("v_pk_sub_u16", Sat::U16, |a, b, _, _| a - b),
    ("v_pk_add_i16", Sat::I16, |a, b, _, _| a + b),
    ("v_pk_sub_i16", Sat::I16, |a, b, _, _| a - b),
    ("v_pk_mad_u16", Sat::U16, |a, b, c, _| a * b + c),
    ("v_pk_mad_i16", Sat::I16, |a, b, c, _| a * b + c),
];

/// The GCN 1.4 VOP3 `v_add_i32`/`v_sub_i32` (no carry) saturate signed.
fn sat_of(name: &str, carry: bool, sat: Sat) -> Sat {
    match (name, carry) {
        ("v_add_i32" | "v_sub_i32", false) => Sat::I32,
        _ => sat,
    }
}

const EDGES: [u32; 12] = [
    0,
    1,
    2,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffe,
    0xffff_ffff,
    0x8000_7fff,
];

/// The row's VOP3 instance: v0 = f(v1, v2, v3 | s[10:11]), carry-out s[20:21].
fn instance(t: Target, id: usize, enc: Enc, clamp: bool) -> Option<Instr> {
    let mut rng = Rng::new(id as u64);
    let i = random_instr(&mut rng, t, id as u16, enc)?;
    let gen = t.gen;
    if !layout::has(enc, gen, Field::Clamp) {
        return None;
    }
    let info = &OPS[id];
    let mut raw = i.raw;
    let mut set = |f: Field, v: u32| {
        if layout::has(enc, gen, f) {
            layout::set(enc, gen, &mut raw, f, v);
        }
    };
    set(Field::Vdst, 0);
    set(Field::Src0, 257);
    set(Field::Src1, 258);
    set(Field::Src2, 259);
    for o in info.sig {
        match o.role {
            Role::SC => set(Field::Src2, 10),
            Role::SD => set(Field::Sdst3, 20),
            _ => {}
        }
    }
    set(Field::Clamp, clamp as u32);
    set(Field::Omod, 0);
    set(Field::Neg, 0);
    set(Field::NegHi, 0);
    if enc != Enc::Vop3b {
        set(Field::Abs, 0);
        set(Field::OpSel, 0);
    }
    if enc == Enc::Vop3p {
        set(Field::OpSelHi, 3);
        set(Field::OpSelHi2, 1);
    }
    let j = decode(t, &[raw as u32, (raw >> 32) as u32]).ok()?;
    (j.op == i.op).then_some(j)
}

fn run(t: Target, i: &Instr, v: [[u32; 64]; 3], cin: u64) -> ([u32; 64], u64) {
    let (w, n) = i.words();
    let mut words = w[..n].to_vec();
    words.push(0xbf81_0000);
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(t, &code, 0);
    let mem = SimpleMemory::new();
    let mut lds = vec![];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut wv = Wave::new(0);
    wv.set_s64(EXEC, u64::MAX);
    wv.v[1] = v[0];
    wv.v[2] = v[1];
    wv.v[3] = v[2];
    wv.v[0] = [0x5a5a_5a5a; 64];
    wv.set_s64(10, cin);
    exec::run_wave(&mut wv, &mut ctx).unwrap_or_else(|f| panic!("{f:?}"));
    (wv.v[0], wv.s64(20))
}

#[test]
fn integer_clamp_saturates_on_every_documented_row() {
    let mut targets: Vec<Target> = ALL_GENS.iter().map(|&g| g.into()).collect();
    targets.push(Processor::parse("gfx906").unwrap().target());
    let mut checked = Vec::new();
    let mut rng = Rng::new(7);
    for t in targets {
        for (id, info) in OPS.iter().enumerate() {
            let Some(&(_, sat, exact)) = ROWS.iter().find(|r| r.0 == info.name) else {
                continue;
            };
            if !info.available(t) {
                continue;
            }
            let carry = info.operand(Role::SD).is_some();
            let cin = info.operand(Role::SC).is_some();
            let sat = sat_of(info.name, carry, sat);
            let packed = info.family == Family::Vop3p;
            let enc = match info.family {
                Family::Vop3p => Enc::Vop3p,
                _ if carry => Enc::Vop3b,
                _ => Enc::Vop3,
            };
            let (Some(on), Some(off)) = (instance(t, id, enc, true), instance(t, id, enc, false))
            else {
                continue;
            };
            for round in 0..8 {
                let mut v = [[0u32; 64]; 3];
                for l in 0..64 {
                    for (k, x) in v.iter_mut().enumerate() {
                        let e = EDGES[(l / [1, 4, 16][k] + round * (k + 1)) % EDGES.len()];
                        x[l] = if rng.one_in(4) {
                            rng.next_u64() as u32
                        } else if sat.bits() == 16 && !packed {
                            e & 0xffff
                        } else if packed {
                            (e & 0xffff) | (EDGES[(l + round) % EDGES.len()] << 16)
                        } else {
                            e
                        };
                    }
                }
                let cmask = rng.next_u64();
                let (dc, co_c) = run(t, &on, v, cmask);
                let (dw, co_w) = run(t, &off, v, cmask);
                let bits = sat.bits();
                let halves = if packed { 2 } else { 1 };
                for l in 0..64 {
                    let c = i128::from(cin && cmask >> l & 1 != 0);
                    for h in 0..halves {
                        let shift = 16 * h;
                        let ext = |x: u32| -> i128 {
                            let x = x >> shift;
                            match (bits, sat.signed()) {
                                (16, false) => i128::from(x as u16),
                                (16, true) => i128::from(x as u16 as i16),
                                (_, false) => i128::from(x),
                                _ => i128::from(x as i32),
                            }
                        };
                        let r = exact(ext(v[0][l]), ext(v[1][l]), ext(v[2][l]), c);
                        let (lo, hi) = sat.range();
                        let mask = (1u64 << bits) - 1;
                        let want_c = (r.clamp(lo, hi) as u64) & mask;
                        let want_w = (r as u64) & mask;
                        let got_c = u64::from(dc[l] >> shift) & mask;
                        let got_w = u64::from(dw[l] >> shift) & mask;
                        let what = format!(
                            "{t:?} {} lane {l} half {h}: a={:#x} b={:#x} c={:#x} cin={c}",
                            info.name, v[0][l], v[1][l], v[2][l]
                        );
                        assert_eq!(got_c, want_c, "{what}: with CLAMP");
                        assert_eq!(got_w, want_w, "{what}: without CLAMP");
                    }
                }
                if carry {
                    assert_eq!(
                        co_c, co_w,
                        "{t:?} {}: carry-out depends on CLAMP",
                        info.name
                    );
                }
            }
            checked.push(format!("{}:{}", t.gen, info.name));
        }
    }
    println!(
        "{} (generation, row) pairs checked: {checked:?}",
        checked.len()
    );
    // GCN 1.2 carry rows, GCN 1.4 VOP3 i32 rows and the 16-bit and packed rows.
    for must in [
        "gcn1.2:v_add_u32",
        "gcn1.2:v_subb_u32",
        "gcn1.4:v_add_co_u32",
        "gcn1.4:v_addc_co_u32",
        "gcn1.4:v_add_u32",
        "gcn1.4:v_add_i32",
        "gcn1.4:v_sub_i32",
        "gcn1.4:v_mad_u16",
        "gcn1.2:v_mad_i16",
        "gcn1.4:v_pk_add_i16",
    ] {
        assert!(checked.iter().any(|c| c == must), "{must} not checked");
    }
}

/// CLAMP and OMOD on float results (CLRX GcnInstrsVop3.md: "CLAMP - clamps
/// destination floating point value in range 0.0-1.0", OMOD multiplies it
/// by 2, 4 or 0.5, "Clamping applied after OMOD", and both affect "only
/// instruction that output is floating point value"): for every row with a
/// float destination, in its VOP3 (VOP3b, VOP3P) form on every generation,
/// a random instance on random operands must give with CLAMP the clamped
/// result it gives without (NaN becomes 0 under MODE.DX10_CLAMP), and with
/// OMOD the scaled one where the scaling is exact (normal results in and
/// out). Rows marked `noomod` in the tables are checked for CLAMP only.
#[test]
fn float_clamp_and_omod_on_every_float_row() {
    use risa_gcn::table::flag;
    let mut targets: Vec<Target> = ALL_GENS.iter().map(|&g| g.into()).collect();
    targets.push(Processor::parse("gfx906").unwrap().target());
    let (mut rows, mut runs) = (0, 0);
    let mut failures = Vec::new();
    for t in targets {
        let gen = t.gen;
        for (id, info) in OPS.iter().enumerate() {
            let Some(d) = info.operand(Role::D) else {
                continue;
            };
            if d.sgpr || !d.ty.is_float() || !info.available(t) {
                continue;
            }
            let enc = match info.family {
                Family::Vop3p => Enc::Vop3p,
                Family::Vop1 | Family::Vop2 | Family::Vop3 if info.vop3_opcode(gen).is_some() => {
                    if info.has(flag::VOP3B) {
                        Enc::Vop3b
                    } else {
                        Enc::Vop3
                    }
                }
                _ => continue,
            };
            // Interpolation rows read LDS parameters; not here.
            if info.operand(Role::T).is_some() || info.name.starts_with("v_interp") {
                continue;
            }
            let mut rng = Rng::new(0xc1a0 + id as u64);
            let mut checked = false;
            for _ in 0..4 {
                let Some(base) = random_instr(&mut rng, t, id as u16, enc) else {
                    continue;
                };
                let with = |clamp: u32, omod: u32| -> Option<Instr> {
                    let mut raw = base.raw;
                    if !layout::set(enc, gen, &mut raw, Field::Clamp, clamp) {
                        return None;
                    }
                    if enc != Enc::Vop3p {
                        layout::set(enc, gen, &mut raw, Field::Omod, omod);
                    }
                    let mut words = vec![raw as u32, (raw >> 32) as u32];
                    words.extend(base.lit);
                    decode(t, &words).ok().filter(|j| j.op == base.op)
                };
                let (Some(plain), Some(clamped)) = (with(0, 0), with(1, 0)) else {
                    continue;
                };
                let vd = base.field(Field::Vdst) as usize;
                let mut w = Wave::new(0);
                for v in w.v.iter_mut() {
                    for x in v.iter_mut() {
                        let r = rng.next_u64();
                        *x = if r.is_multiple_of(4) {
                            (r >> 32) as u32
                        } else if r % 4 == 1 {
                            // halves (both) in [-3, 3]
                            let h = |k: u64| u32::from(half_bits(((k % 97) as f32 - 48.0) / 16.0));
                            h(r >> 8) | h(r >> 24) << 16
                        } else {
                            (((r >> 8) % 97) as f32 / 16.0 - 3.0).to_bits()
                        };
                    }
                }
                for s in w.s.iter_mut() {
                    *s = (((rng.next_u64() >> 8) % 97) as f32 / 16.0 - 3.0).to_bits();
                }
                w.set_s64(EXEC, u64::MAX);
                // Denormals kept (FP_DENORM all on), nearest-even, DX10_CLAMP/IEEE random.
                w.mode = 0xf0 | (rng.next_u64() as u32 & 0x300);
                let go = |i: &Instr| -> Option<Vec<[u32; 64]>> {
                    let (ws, n) = i.words();
                    let mut words = ws[..n].to_vec();
                    words.push(0xbf81_0000);
                    let code: Vec<u8> = words.iter().flat_map(|x| x.to_le_bytes()).collect();
                    let prog = Program::new(t, &code, 0);
                    let mem = SimpleMemory::new();
                    let mut lds = vec![0u8; 256];
                    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
                    let mut wv = w.clone();
                    exec::run_wave(&mut wv, &mut ctx).ok()?;
                    Some(wv.v[vd..vd + d.ty.dwords() as usize].to_vec())
                };
                let (Some(p), Some(c)) = (go(&plain), go(&clamped)) else {
                    continue;
                };
                runs += 1;
                checked = true;
                let dx10 = w.mode & 0x100 != 0;
                let hi = info.name.contains("mixhi");
                let text = risa_gcn::print(&clamped, risa_gcn::Dialect::Llvm);
                let lanes = |v: &Vec<[u32; 64]>, l: usize| values(d.ty, v, l, hi);
                for l in 0..64 {
                    let (x, y) = (lanes(&p, l), lanes(&c, l));
                    if x.iter().zip(&y).any(|(&x, &y)| !clamped_ok(x, y, dx10)) {
                        failures.push(format!(
                            "{} {text}: lane {l}: without CLAMP {x:?}, with {y:?}",
                            t.gen
                        ));
                        break;
                    }
                }
                // OMOD (VOP3 forms of rows without `noomod`).
                if enc == Enc::Vop3p || info.has(flag::NOOMOD) {
                    continue;
                }
                for (omod, factor) in [(1u32, 2.0f64), (2, 4.0), (3, 0.5)] {
                    let Some(scaled) = with(0, omod) else {
                        continue;
                    };
                    let Some(o) = go(&scaled) else {
                        continue;
                    };
                    let text = risa_gcn::print(&scaled, risa_gcn::Dialect::Llvm);
                    for l in 0..64 {
                        let (x, y) = (lanes(&p, l), lanes(&o, l));
                        if x.iter()
                            .zip(&y)
                            .any(|(&x, &y)| !scaled_ok(d.ty, x, y, factor))
                        {
                            failures.push(format!(
                                "{} {text}: lane {l}: without OMOD {x:?}, with {y:?}",
                                t.gen
                            ));
                            break;
                        }
                    }
                }
            }
            rows += checked as u32;
        }
    }
    println!("{rows} (generation, float row) pairs, {runs} runs");
    failures.sort();
    failures.dedup_by(|a, b| a.split(": lane").next() == b.split(": lane").next());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The float values of lane `l` of a result of type `ty` (f16: the low half,
/// or the high one for the `mixhi` rows; v2f16: both halves).
fn values(ty: risa_gcn::table::Ty, v: &[[u32; 64]], l: usize, hi: bool) -> Vec<f64> {
    use risa_gcn::table::Ty;
    match ty {
        Ty::F64 => vec![f64::from_bits(
            u64::from(v[0][l]) | u64::from(v[1][l]) << 32,
        )],
        Ty::F32 => vec![f64::from(f32::from_bits(v[0][l]))],
        Ty::V2F16 => vec![half_value(v[0][l]), half_value(v[0][l] >> 16)],
        _ => vec![half_value(v[0][l] >> if hi { 16 } else { 0 })],
    }
}

/// Whether `y` is `x` scaled by `f` where that is exact: `x` and `x * f`
/// normal in `ty`'s format (other values round or flush: `tests/omod.rs`).
fn scaled_ok(ty: risa_gcn::table::Ty, x: f64, y: f64, f: f64) -> bool {
    use risa_gcn::table::Ty;
    if x.is_nan() {
        return y.is_nan();
    }
    let (min, max) = match ty {
        Ty::F64 => (f64::MIN_POSITIVE, f64::MAX),
        Ty::F32 => (f64::from(f32::MIN_POSITIVE), f64::from(f32::MAX)),
        _ => (2f64.powi(-14), 65504.0),
    };
    let normal = |v: f64| v == 0.0 || (v.abs() >= min && v.abs() <= max);
    if x.is_infinite() {
        return y == x;
    }
    if !normal(x) || !normal(x * f) {
        return true;
    }
    y == x * f
}

/// Whether `y` is `x` clamped to [0, 1] (NaN: 0 under DX10_CLAMP, else a NaN;
/// the sign of a zero is not checked).
fn clamped_ok(x: f64, y: f64, dx10: bool) -> bool {
    if x.is_nan() {
        return if dx10 {
            y == 0.0
        } else {
            y.is_nan() || y == 0.0
        };
    }
    y == x.clamp(0.0, 1.0)
}

fn half_value(h: u32) -> f64 {
    f64::from(risa_gcn_emu::float::f16_to_f32(h as u16))
}

fn half_bits(x: f32) -> u16 {
    risa_gcn_emu::float::f64_to_f16(f64::from(x))
}
