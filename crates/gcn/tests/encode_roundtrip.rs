//! `encode` is the exact inverse of `decode`: for words of every encoding
//! and generation that decode (reserved and unused bits set, literals equal
//! to inline constants, SDWA/DPP, MIMG, FLAT, odd operand codes ...),
//! `encode(&decode(words))` gives the same words back. The words come from
//! the shared generator `risa_gcn::random::garbage_cases` (every bit random
//! except a form's prefix and opcode, so every form is hit) and, through
//! proptest, from `garbage_for` with shrinking; and from the `.text` of
//! every clang fixture (tests/fixtures/gcn*).

use proptest::prelude::*;
use proptest::sample::Index;
use risa_gcn::random::{all_forms, garbage_cases, garbage_for, Rng};
use risa_gcn::{decode, decode_bytes, encode, Gen, Processor, Target, ALL_GENS};
use std::sync::OnceLock;

/// Decodes each case and checks that encoding gives its words back;
/// returns (cases, cases that decoded).
fn roundtrip_cases(target: Target, n: usize, seed: u64) -> (usize, usize) {
    let mut decoded = 0;
    for bytes in garbage_cases(target, n, seed) {
        let Ok(i) = decode_bytes(target, &bytes) else {
            continue;
        };
        decoded += 1;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .take(usize::from(i.len))
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        match encode(&i) {
            Ok(w) => assert_eq!(
                &w[..],
                &words[..],
                "{}: {} {:08x?} re-encodes differently",
                target.gen,
                i.info().name,
                words
            ),
            Err(e) => panic!(
                "{}: {} {:08x?} decodes but does not encode: {e}",
                target.gen,
                i.info().name,
                words
            ),
        }
    }
    (n, decoded)
}

/// The targets: each generation's reference chip, and gfx906 (dot/fma-mix rows).
fn targets() -> Vec<(String, Target)> {
    let mut t: Vec<(String, Target)> = ALL_GENS
        .iter()
        .map(|&g| (g.to_string(), Target::from(g)))
        .collect();
    let gfx906 = Processor::parse("gfx906").expect("gfx906 in the chip table");
    t.push(("gfx906".into(), gfx906.target()));
    t
}

#[test]
fn decode_encode_gives_the_words_back() {
    for (name, target) in targets() {
        let (n, ok) = roundtrip_cases(target, 100_000, 0x5eed_e4c0);
        println!("{name}: {ok} of {n} random words decoded and re-encoded to themselves");
        assert!(ok > n / 2, "{name}: too few cases decoded ({ok} of {n})");
    }
}

/// The long run: `cargo test --release -p risa-gcn --test
/// encode_roundtrip -- --ignored --nocapture`.
#[test]
#[ignore = "2,000,000 words per target: run in release mode"]
fn decode_encode_gives_the_words_back_2m() {
    for (name, target) in targets() {
        let (n, ok) = roundtrip_cases(target, 2_000_000, 0xe4c0_de00);
        println!("{name}: {ok} of {n} random words decoded and re-encoded to themselves");
        assert!(ok > n / 2);
    }
}

#[test]
fn clang_fixture_text_reencodes() {
    let root = format!("{}/../../tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut instrs = 0;
    for dir in ["gcn", "gcn-v5"] {
        for (cpu, target) in [
            ("tahiti", Target::from(Gen::Gcn10)),
            ("hawaii", Target::from(Gen::Gcn11)),
            ("fiji", Target::from(Gen::Gcn12)),
            ("gfx900", Target::from(Gen::Gcn14)),
            ("gfx906", Processor::parse("gfx906").unwrap().target()),
        ] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}/{cpu}")) else {
                continue;
            };
            for e in entries.flatten() {
                let path = e.path();
                if path.extension().is_none_or(|x| x != "o") {
                    continue;
                }
                let obj = std::fs::read(&path).unwrap();
                let elf = risa_elf::Elf::parse(&obj).unwrap();
                let text = elf.section_by_name(".text").expect(".text").data;
                let words: Vec<u32> = text
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let mut at = 0;
                while at < words.len() {
                    let Ok(i) = decode(target, &words[at..]) else {
                        // Padding or data between kernels: as the disassembler, one word on.
                        at += 1;
                        continue;
                    };
                    let n = usize::from(i.len);
                    let back = encode(&i).unwrap_or_else(|e| {
                        panic!("{}: {} at {at}: {e}", path.display(), i.info().name)
                    });
                    assert_eq!(
                        &back[..],
                        &words[at..at + n],
                        "{} at word {at}",
                        path.display()
                    );
                    instrs += 1;
                    at += n;
                }
            }
        }
    }
    println!("{instrs} clang-made instructions re-encoded");
    assert!(
        instrs > 10_000,
        "fixtures missing? only {instrs} instructions"
    );
}

/// Every (instruction, encoding) of each target, computed once.
fn forms(k: usize) -> &'static [(risa_gcn::table::OpId, risa_gcn::Enc)] {
    static FORMS: OnceLock<Vec<Vec<(risa_gcn::table::OpId, risa_gcn::Enc)>>> = OnceLock::new();
    &FORMS.get_or_init(|| targets().iter().map(|(_, t)| all_forms(*t)).collect())[k]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// proptest draws the words' random bits; a failure shrinks to the
    /// first form and the fewest bits set.
    #[test]
    fn any_decodable_form_reencodes(
        t in 0usize..5,
        form in any::<Index>(),
        choices in prop::collection::vec(any::<u64>(), 0..8),
    ) {
        let (_, target) = targets()[t].clone();
        let forms = forms(t);
        let (op, enc) = forms[form.index(forms.len())];
        let words = garbage_for(&mut Rng::from_choices(choices), target.gen, op, enc);
        if let Ok(i) = decode(target, &words) {
            let n = usize::from(i.len);
            let back = encode(&i).map_err(|e| TestCaseError::fail(format!("{e}")))?;
            prop_assert_eq!(&back[..], &words[..n], "{} {}", target.gen, i.info().name);
        }
    }
}
