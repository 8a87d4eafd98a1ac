//! `access` against the printer: for random valid instructions of every form
//! of every generation, the registers the LLVM-dialect text names (the
//! printer is checked against llvm-mc) must be exactly the registers
//! `access` reports as explicit operands, and the sets must be well formed.

use risa_check::access::{access, File, Reg, Use};
use risa_gcn::operand::{special_name, special_pair_name};
use risa_gcn::random::{all_forms, random_instr, Rng};
use risa_gcn::table::flag;
use risa_gcn::{print, Dialect, Gen, Instr, Processor, Target, ALL_GENS};
use std::collections::BTreeSet;

type Set = BTreeSet<(bool, u16)>;

/// The scalar operand code of a register name in `gen` (`vcc_lo` -> 106).
fn scalar_name(gen: Gen, name: &str) -> Option<(u16, u16)> {
    for code in 0..128u32 {
        if special_name(gen, code) == Some(name) {
            return Some((code as u16, 1));
        }
        if special_pair_name(gen, code) == Some(name) {
            return Some((code as u16, 2));
        }
    }
    None
}

/// Registers named in the text after the mnemonic.
fn text_regs(gen: Gen, text: &str) -> Set {
    let mut out = Set::new();
    let ops = text.split_once(' ').map_or("", |x| x.1);
    for raw in ops.split([',', ' ', '(', ')', '|']) {
        let t = raw.trim_start_matches('-');
        if t.is_empty() || t.contains(':') && !t.contains('[') {
            continue;
        }
        let (prefix, rest) = t
            .find(|c: char| c.is_ascii_digit() || c == '[')
            .map_or((t, ""), |k| t.split_at(k));
        let range = |rest: &str| -> Option<(u16, u16)> {
            if let Some(r) = rest.strip_prefix('[') {
                let (a, b) = r.trim_end_matches(']').split_once(':')?;
                let (a, b): (u16, u16) = (a.parse().ok()?, b.parse().ok()?);
                Some((a, b - a + 1))
            } else {
                Some((rest.parse().ok()?, 1))
            }
        };
        if let Some((c, n)) = scalar_name(gen, t) {
            for r in c..c + n {
                out.insert((false, r));
            }
            continue;
        }
        let (vector, first, n) = match prefix {
            "v" => match range(rest) {
                Some((a, n)) => (true, a, n),
                None => continue,
            },
            "s" => match range(rest) {
                Some((a, n)) => (false, a, n),
                None => continue,
            },
            "ttmp" => match range(rest) {
                Some((a, n)) => (false, gen.info().ttmp.0 as u16 + a, n),
                None => continue,
            },
            _ if rest.is_empty() => match scalar_name(gen, t) {
                Some((c, n)) => (false, c, n),
                None => continue,
            },
            _ => continue,
        };
        for r in first..first + n {
            out.insert((vector, r));
        }
    }
    out
}

fn add(set: &mut Set, r: &Reg) {
    for k in r.first..r.first + u16::from(r.count) {
        set.insert((r.file == File::Vector, k));
    }
}

/// Text and access may differ for these, for the reasons given.
fn known_difference(i: &Instr) -> bool {
    let info = i.info();
    let f = |x| i.field(x) != 0;
    use risa_gcn::Field::*;
    match i.enc {
        // A buffer load into LDS writes no VGPR, but the text names VDATA.
        risa_gcn::Enc::Mubuf | risa_gcn::Enc::Mtbuf if f(Lds) => true,
        // TFE/LWE's status dword is in the text of stores and atomics
        // without GLC, which return nothing else.
        risa_gcn::Enc::Mubuf | risa_gcn::Enc::Mtbuf | risa_gcn::Enc::Mimg
            if (f(Tfe) || i.enc == risa_gcn::Enc::Mimg && f(Lwe))
                && (info.has(flag::STORE) || info.has(flag::ATOMIC)) =>
        {
            true
        }
        // LWE without TFE: the printer shows n registers (status dword not
        // in LLVM's text).
        risa_gcn::Enc::Mimg if f(Lwe) => true,
        // image_*_noret text shows VDATA it does not write.
        risa_gcn::Enc::Mimg if info.has(flag::NORET) => true,
        _ => false,
    }
}

#[test]
fn explicit_operands_match_the_printed_text_in_every_row() {
    let mut targets: Vec<Target> = ALL_GENS.iter().map(|&g| Target::from(g)).collect();
    // gfx906's feature-gated rows (dot, fma_mix).
    targets.push(Processor::parse("gfx906").unwrap().target());
    let mut rng = Rng::new(15);
    let (mut checked, mut skipped) = (0, 0);
    let mut bad = Vec::new();
    for target in targets {
        for (op, enc) in all_forms(target) {
            for _ in 0..6 {
                let Some(i) = random_instr(&mut rng, target, op, enc) else {
                    continue;
                };
                let a = access(&i);
                assert!(
                    !a.reads.overflow && !a.writes.overflow,
                    "{:?}",
                    print(&i, Dialect::Llvm)
                );
                for r in a.reads.as_slice().iter().chain(a.writes.as_slice()) {
                    assert!(r.count >= 1);
                    let end = u32::from(r.first) + u32::from(r.count);
                    assert!(end <= if r.file == File::Vector { 256 } else { 128 });
                }
                // Every vector instruction reads EXEC.
                if !matches!(
                    a.class,
                    risa_check::access::Class::Salu | risa_check::access::Class::Smem
                ) {
                    assert!(a.reads_sreg(126) && a.reads_sreg(127));
                }
                if known_difference(&i) {
                    skipped += 1;
                    continue;
                }
                let text = print(&i, Dialect::Llvm);
                let want = text_regs(i.gen, &text);
                let mut got = Set::new();
                for r in a.reads.as_slice().iter().chain(a.writes.as_slice()) {
                    if r.how != Use::Implicit {
                        add(&mut got, r);
                    }
                }
                if want != got && bad.len() < 40 {
                    bad.push(format!(
                        "{text}  [{:?}]\n   text: {want:?}\n access: {got:?}",
                        i.enc
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(checked > 10_000, "{checked} checked, {skipped} skipped");
}
