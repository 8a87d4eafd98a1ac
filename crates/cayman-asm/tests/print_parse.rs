//! print → parse gives the identical words, for every instruction of every
//! table with random values in all fields (reserved bits included), and a
//! random literal group. The printer is the reference for the text; the
//! words go through the decoder first, so only encodable instructions are
//! generated (decode → encode identity is tested in crates/cayman).

use risa_cayman::codec::*;
use risa_cayman::fields::*;
use risa_cayman::ops::*;
use risa_cayman::print::*;
use risa_cayman_asm::alu::{parse_alu, LitRef};
use risa_cayman_asm::cf::{parse_cf, ClauseKind};
use risa_cayman_asm::fetch::parse_fetch;
use risa_cayman_asm::text::{Numbers, Plain};

use risa_rng::Rng;

fn random_words(r: &mut Rng, fmts: &[WordFormat]) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (k, f) in fmts.iter().enumerate() {
        for fld in f.fields {
            // bias towards zero so that optional fields are often absent
            let v = if r.next_u32().is_multiple_of(3) {
                0
            } else {
                r.next_u32()
            };
            fld.set(&mut w[k], v);
        }
    }
    w
}

fn cf_roundtrip(w0: u32, w1: u32) {
    let i = decode_cf(w0, w1).unwrap();
    let mut s = String::new();
    print_cf(&mut s, &i);
    let line = parse_cf(&s, &mut Plain).unwrap_or_else(|e| panic!("{s}\n{e:?}"));
    let mut w = line.words;
    if let (Some(a), Some(f)) = (line.addr, line.addr_field) {
        f.set(&mut w[0], Plain.num(a).unwrap() as u32);
    }
    if let Some((c, _)) = line.cnt {
        match line.clause {
            Some(ClauseKind::Alu) => CF_ALU_WORD1::COUNT.set(&mut w[1], c - 1),
            _ => CF_WORD1::COUNT.set(&mut w[1], c - 1),
        }
    }
    assert_eq!(w, [w0, w1], "{s}");
}

fn alu_roundtrip(w: [u32; 2], lits: &[u32; 4]) {
    let i = decode_alu(w[0], w[1]).unwrap();
    let mut s = String::new();
    print_alu(&mut s, &i, lits);
    if std::env::var_os("PEEK").is_some() {
        eprintln!("{s}");
    }
    let line = parse_alu(i.dst_chan(), &s, &mut Plain).unwrap_or_else(|e| panic!("{s}\n{e:?}"));
    let last = ALU_WORD0::LAST.get(w[0]);
    let mut got = line.words;
    ALU_WORD0::LAST.set(&mut got[0], last);
    assert_eq!(got, w, "{s}");
    for l in line.lits {
        if let LitRef::Known { chan, value } = l {
            assert_eq!(value, lits[chan as usize], "{s}");
        }
    }
}

/// Random words of the OP2 (or MOVA) row `op`.
fn op2_words(r: &mut Rng, op: &Op) -> [u32; 4] {
    let form = if op.flags & F_MOVA != 0 {
        "MOVA"
    } else {
        "ALU_OP2"
    };
    let mut w = random_words(r, word_formats(form, false, false));
    ALU_WORD1_OP2::ALU_INST.set(&mut w[1], op.code as u32);
    w
}

/// Random words of the OP3 row `op`.
fn op3_words(r: &mut Rng, op: &Op) -> [u32; 4] {
    let mut w = random_words(r, word_formats("ALU_OP3", false, false));
    ALU_WORD1_OP3::ALU_INST.set(&mut w[1], op.code as u32);
    w
}

#[test]
fn every_row_prints_and_parses_back() {
    let mut r = Rng::from_state(0x2545_f491_4f6c_dd1d);
    let mut n = 0;
    for _ in 0..300 {
        for op in CF_OPS.iter().filter(|o| o.code != 30) {
            let w = random_words(&mut r, word_formats("CF", false, false));
            let mut w1 = w[1];
            CF_WORD1::CF_INST.set(&mut w1, op.code as u32);
            cf_roundtrip(w[0], w1);
            n += 1;
        }
        for op in GWS_OPS {
            let mut w = random_words(&mut r, word_formats("GWS", false, false));
            CF_WORD1::CF_INST.set(&mut w[1], 30);
            CF_GWS_WORD0::GWS_OPCODE.set(&mut w[0], op.code as u32);
            cf_roundtrip(w[0], w[1]);
            n += 1;
        }
        for op in CF_ALU_OPS {
            let f = if op.flags & F_EXT != 0 {
                "CF_ALU_EXT"
            } else {
                "CF_ALU"
            };
            let mut w = random_words(&mut r, word_formats(f, false, false));
            CF_ALU_WORD1::CF_INST.set(&mut w[1], op.code as u32);
            cf_roundtrip(w[0], w[1]);
            n += 1;
        }
        for op in EXPORT_OPS {
            let rat = op.flags & F_RAT != 0;
            let mut w = random_words(&mut r, word_formats("EXPORT", rat, op.flags & F_SWIZ != 0));
            CF_ALLOC_EXPORT_WORD1_BUF::CF_INST.set(&mut w[1], op.code as u32);
            if rat {
                let rop = &RAT_OPS[r.next_u32() as usize % RAT_OPS.len()];
                CF_ALLOC_EXPORT_WORD0_RAT::RAT_INST.set(&mut w[0], rop.code as u32);
            }
            cf_roundtrip(w[0], w[1]);
            n += 1;
        }
        let lits = [r.next_u32(), r.next_u32(), r.next_u32(), r.next_u32()];
        for op in ALU_OP2 {
            let w = op2_words(&mut r, op);
            alu_roundtrip([w[0], w[1]], &lits);
            n += 1;
        }
        for op in ALU_OP3 {
            let w = op3_words(&mut r, op);
            alu_roundtrip([w[0], w[1]], &lits);
            n += 1;
        }
        for op in LDS_OPS {
            let mut w = random_words(&mut r, word_formats("LDS", false, false));
            ALU_WORD1_LDS_IDX_OP::ALU_INST.set(&mut w[1], OP3_LDS_IDX_OP);
            ALU_WORD1_LDS_IDX_OP::LDS_OP.set(&mut w[1], op.code as u32);
            alu_roundtrip([w[0], w[1]], &lits);
            n += 1;
        }
        for (table, kind, gds) in [
            (VTX_OPS, "VTX", false),
            (TEX_OPS, "TEX", false),
            (MEM_RD_OPS, "MEM_RD", false),
            (MEM_GDS_OPS, "MEM_GDS", true),
        ] {
            for op in table {
                let mut w = random_words(&mut r, word_formats(kind, false, op.flags & F_SEM != 0));
                w[3] = if r.next_u32().is_multiple_of(4) {
                    r.next_u32()
                } else {
                    0
                };
                match kind {
                    "VTX" => VTX_WORD0::VC_INST.set(&mut w[0], op.code as u32),
                    "TEX" => TEX_WORD0::TEX_INST.set(&mut w[0], op.code as u32),
                    "MEM_RD" => {
                        MEM_RD_WORD0::MEM_INST.set(&mut w[0], MEM_INST_MEM);
                        MEM_RD_WORD0::MEM_OP.set(&mut w[0], op.code as u32);
                    }
                    _ => {
                        MEM_GDS_WORD0::MEM_INST.set(&mut w[0], MEM_INST_MEM);
                        MEM_GDS_WORD0::MEM_OP.set(&mut w[0], op.code as u32);
                        let d = &LDS_OPS[r.next_u32() as usize % LDS_OPS.len()];
                        MEM_GDS_WORD1::GDS_OP.set(&mut w[1], d.code as u32);
                    }
                }
                let i = decode_fetch(w, gds).unwrap();
                let mut s = String::new();
                print_fetch(&mut s, &i);
                let line = parse_fetch(&s, &mut Plain).unwrap_or_else(|e| panic!("{s}\n{e:?}"));
                assert_eq!(line.words, w, "{s}");
                assert_eq!(line.gds, gds);
                n += 1;
            }
        }
    }
    assert!(n > 100_000, "{n}");
}

/// Shrinking counterpart of the test above for the ALU rows (the bulk of
/// the ISA): proptest draws the choices the word generator takes
/// (`Rng::from_choices`), so a failing row shrinks to its smallest words
/// (fields 0, no literal) before it is reported.
mod shrinking {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::Index;
    use risa_rng::Rng;

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 3000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn alu_row_prints_and_parses_back(
            op3 in any::<bool>(),
            row in any::<Index>(),
            choices in prop::collection::vec(any::<u64>(), 0..24),
            lits in any::<[u32; 4]>(),
        ) {
            let mut r = Rng::from_choices(choices);
            let w = if op3 {
                op3_words(&mut r, &ALU_OP3[row.index(ALU_OP3.len())])
            } else {
                op2_words(&mut r, &ALU_OP2[row.index(ALU_OP2.len())])
            };
            alu_roundtrip([w[0], w[1]], &lits);
        }
    }
}
