//! Every case of `tests/data/vectors.txt` (the host's IEEE arithmetic under
//! fesetround, from tools/fp-oracle/gen.sh) compared bit for bit, NaNs
//! included, in all four rounding modes.

use risa_fp::{convert as cv, fp16, fp32, fp64, Round};

fn f(b: u64) -> f32 {
    f32::from_bits(b as u32)
}
fn d(b: u64) -> f64 {
    f64::from_bits(b)
}
fn h(b: u64) -> u16 {
    b as u16
}

/// The result bits of `op` on `a` under `r`, or None for an unknown op.
fn eval(op: &str, x: &[u64], r: Round) -> Option<u64> {
    let u = |v: f32| u64::from(v.to_bits());
    let w = |v: f64| v.to_bits();
    let s = u64::from;
    Some(match op {
        "add32" => u(fp32::add(f(x[0]), f(x[1]), r)),
        "sub32" => u(fp32::sub(f(x[0]), f(x[1]), r)),
        "mul32" => u(fp32::mul(f(x[0]), f(x[1]), r)),
        "div32" => u(fp32::div(f(x[0]), f(x[1]), r)),
        "sqrt32" => u(fp32::sqrt(f(x[0]), r)),
        "fma32" => u(fp32::fma(f(x[0]), f(x[1]), f(x[2]), r)),
        "add64" => w(fp64::add(d(x[0]), d(x[1]), r)),
        "sub64" => w(fp64::sub(d(x[0]), d(x[1]), r)),
        "mul64" => w(fp64::mul(d(x[0]), d(x[1]), r)),
        "div64" => w(fp64::div(d(x[0]), d(x[1]), r)),
        "sqrt64" => w(fp64::sqrt(d(x[0]), r)),
        "fma64" => w(fp64::fma(d(x[0]), d(x[1]), d(x[2]), r)),
        "add16" => s(fp16::add(h(x[0]), h(x[1]), r)),
        "sub16" => s(fp16::sub(h(x[0]), h(x[1]), r)),
        "mul16" => s(fp16::mul(h(x[0]), h(x[1]), r)),
        "div16" => s(fp16::div(h(x[0]), h(x[1]), r)),
        "sqrt16" => s(fp16::sqrt(h(x[0]), r)),
        "fma16" => s(fp16::fma(h(x[0]), h(x[1]), h(x[2]), r)),
        "ldexp32" => u(fp32::ldexp(f(x[0]), x[1] as u32 as i32, r)),
        "ldexp64" => w(fp64::ldexp(d(x[0]), x[1] as u32 as i32, r)),
        "ldexp16" => s(fp16::ldexp(h(x[0]), x[1] as u32 as i32, r)),
        "f64_to_f32" => u(cv::f64_to_f32(d(x[0]), r)),
        "f64_to_f16" => s(cv::f64_to_f16(d(x[0]), r)),
        "f32_to_f16" => s(cv::f32_to_f16(f(x[0]), r)),
        "i32_to_f32" => u(cv::i32_to_f32(x[0] as i32, r)),
        "u32_to_f32" => u(cv::u32_to_f32(x[0] as u32, r)),
        "i64_to_f32" => u(cv::i64_to_f32(x[0] as i64, r)),
        "u64_to_f32" => u(cv::u64_to_f32(x[0], r)),
        "i64_to_f64" => w(cv::i64_to_f64(x[0] as i64, r)),
        "u64_to_f64" => w(cv::u64_to_f64(x[0], r)),
        "i32_to_f16" => s(cv::i32_to_f16(x[0] as i32, r)),
        "u32_to_f16" => s(cv::u32_to_f16(x[0] as u32, r)),
        _ => return None,
    })
}

#[test]
fn matches_host_ieee_in_every_mode() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/vectors.txt");
    let text =
        std::fs::read_to_string(path).expect("tests/data/vectors.txt (tools/fp-oracle/gen.sh)");
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let (lhs, rhs) = line.split_once(" : ").expect("OP ARGS : RESULTS");
        let mut it = lhs.split(' ');
        let op = it.next().unwrap();
        let args: Vec<u64> = it.map(|t| u64::from_str_radix(t, 16).unwrap()).collect();
        let want: Vec<u64> = rhs
            .split(' ')
            .map(|t| u64::from_str_radix(t, 16).unwrap())
            .collect();
        assert_eq!(want.len(), 4, "line {}", n + 1);
        for (r, &want) in Round::ALL.iter().zip(&want) {
            let got = eval(op, &args, *r).unwrap_or_else(|| panic!("unknown op {op}"));
            count += 1;
            if got != want {
                failures.push(format!(
                    "line {}: {op} {args:x?} {r:?}: got {got:#x}, want {want:#x}",
                    n + 1
                ));
            }
        }
    }
    assert!(count > 50_000, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases differ:\n{}",
        failures.len(),
        failures[..failures.len().min(400)].join("\n")
    );
}
