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
