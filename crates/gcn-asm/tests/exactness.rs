//! The cheap exactness check of listings ([`risa_gcn_asm::disasm::Exactness`])
//! trusts the printer for instructions whose bits are all bits valid
//! instances of their form set. Here that trust is checked against the
//! assembler itself: for random words of every form (garbage: unused and
//! reserved bits, odd registers, invalid codes) and random valid
//! instructions, every trusted instruction whose text the printer calls
//! exact must assemble back to its words, in both dialects, on every chip.
//!
//! `RISA_EXACT_CASES` sets the cases per chip (default 4000).

use risa_gcn::random::{all_forms, garbage_cases, random_instr, Rng};
use risa_gcn::table::OpId;
use risa_gcn::{decode, listing, Dialect, Enc, Instr, Printer, Processor, Target, OPS};
use risa_gcn_asm::disasm::{text_is_exact, Exactness};
use std::collections::HashSet;

fn cases() -> usize {
    std::env::var("RISA_EXACT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4000)
}

/// Instructions to check on `chip`: the first of each garbage case, and
/// valid instances of every form.
fn instructions(chip: &'static Processor, n: usize) -> Vec<Instr> {
    let mut v: Vec<Instr> = garbage_cases(chip, n, 0xe4ac7)
        .iter()
        .filter_map(|b| {
            let w: Vec<u32> = b
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            decode(chip, &w).ok()
        })
        .collect();
    let mut rng = Rng::new(0xe4ac7);
    for (op, enc) in all_forms(chip) {
        let Some(x) = random_instr(&mut rng, chip, op, enc) else {
            continue;
        };
        if x.lit.is_some() {
            v.extend(LITERALS_LIKE_INLINE.map(|l| Instr { lit: Some(l), ..x }));
        }
        v.extend(one_bit_off(chip, &x));
        v.push(x);
    }
    // The SDWA/DPP forms of the rows LLVM has none of (the generator builds
    // them; `all_forms` leaves them out): disassemblers meet them in any
    // code, and the check learns their bits all the same.
    let forms: HashSet<(OpId, Enc)> = all_forms(chip).into_iter().collect();
    let target = Target::from(chip);
    for (op, info) in OPS.iter().enumerate() {
        let op = op as OpId;
        if !target.features.contains(info.feat) {
            continue;
        }
        for enc in SDWA_DPP {
            if forms.contains(&(op, enc)) {
                continue;
            }
            if let Some(x) = random_instr(&mut rng, chip, op, enc) {
                v.extend(one_bit_off(chip, &x));
                v.push(x);
            }
        }
    }
    v
}

const SDWA_DPP: [Enc; 6] = [
    Enc::Vop2Sdwa,
    Enc::Vop1Sdwa,
    Enc::VopcSdwa,
    Enc::Vop2Dpp,
    Enc::Vop1Dpp,
    Enc::VopcDpp,
];

/// The instructions that differ from `x` in one bit of its encoding
/// (not of its literal): a bit that valid instances of a form always set
/// or always clear is where text and words part first.
fn one_bit_off(chip: &'static Processor, x: &Instr) -> Vec<Instr> {
    let (w, k) = x.words();
    let bits = if x.lit.is_some() {
        (k - 1) * 32
    } else {
        k * 32
    };
    (0..bits)
        .filter_map(|b| {
            let mut w = w;
            w[b / 32] ^= 1 << (b % 32);
            decode(chip, &w[..k]).ok()
        })
        .collect()
}

/// Literals whose text an assembler reads as an inline constant for some
/// operand width (-3 and 1.0 of 16-bit operands, -3, 1.0 and 1/(2*pi) of
/// 32-bit ones, 64): valid words, which the printer must write so that
/// they stay literals (CLRX's `lit(..)`) or call inexact (LLVM's syntax).
const LITERALS_LIKE_INLINE: [u32; 8] = [
    0xfffd,
    0x3c00,
    0xbc00,
    0x3118,
    0xffff_fffd,
    0x3f80_0000,
    0x3e22_f983,
    64,
];

#[test]
fn trusted_instructions_assemble_back() {
    let n = cases();
    let mut bad = Vec::new();
    for name in ["tahiti", "hawaii", "fiji", "gfx900", "gfx906"] {
        let chip = Processor::parse(name).unwrap();
        let all = instructions(chip, n);
        for d in [Dialect::Clrx, Dialect::Llvm] {
            let check = Exactness::new(chip, d);
            let (mut trusted, mut total) = (0, 0);
            for i in &all {
                if i.reserved_bits() != 0 || listing::branch_target(i, 0).is_some() {
                    continue;
                }
                let mut t = String::new();
                if !Printer::new(d).write_checked(i, &mut t) {
                    continue;
                }
                total += 1;
                if !check.trusted(i) {
                    continue;
                }
                trusted += 1;
                if !text_is_exact(chip, i, &t, d) {
                    let (w, k) = i.words();
                    bad.push(format!("{name} {d:?} {:08x?}: {t}", &w[..k]));
                }
            }
            eprintln!("{name} {d:?}: {trusted} of {total} printable instructions trusted");
            assert!(
                trusted * 2 > total,
                "too few trusted: the check is not cheap"
            );
        }
    }
    assert!(
        bad.is_empty(),
        "{} trusted instructions do not assemble back:\n{}",
        bad.len(),
        bad.iter().take(400).cloned().collect::<Vec<_>>().join("\n")
    );
}
