//! Every table row encodes and decodes: for each instruction, random field
//! values are packed through the field tables, decoded back to the same row,
//! re-encoded to identical words and printed. Plus: random words never panic.

use risa_cayman::codec::*;
use risa_cayman::fields::*;
use risa_cayman::ops::*;
use risa_cayman::print::*;

use risa_rng::Rng;

fn random_words(r: &mut Rng, fmts: &[WordFormat]) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (k, f) in fmts.iter().enumerate() {
        for fld in f.fields {
            fld.set(&mut w[k], r.next_u32());
        }
    }
    w
}

#[test]
fn every_row_roundtrips() {
    let mut r = Rng::from_state(0x9e37_79b9_7f4a_7c15);
    let mut n = 0;
    for _ in 0..200 {
        for op in CF_OPS.iter().filter(|o| o.code != 30) {
            let mut w = random_words(&mut r, word_formats("CF", false, false));
            CF_WORD1::CF_INST.set(&mut w[1], op.code as u32);
            let i = decode_cf(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            assert_eq!(encode_cf(&i), [w[0], w[1]]);
            let mut s = String::new();
            print_cf(&mut s, &i);
            assert!(s.starts_with(op.name));
            n += 1;
        }
        for op in GWS_OPS {
            let mut w = random_words(&mut r, word_formats("GWS", false, false));
            CF_WORD1::CF_INST.set(&mut w[1], 30);
            CF_GWS_WORD0::GWS_OPCODE.set(&mut w[0], op.code as u32);
            let i = decode_cf(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            assert_eq!(encode_cf(&i), [w[0], w[1]]);
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
            let i = decode_cf(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            assert_eq!(encode_cf(&i), [w[0], w[1]]);
            n += 1;
        }
        for op in EXPORT_OPS {
            let rat = op.flags & F_RAT != 0;
            let mut w = random_words(&mut r, word_formats("EXPORT", rat, op.flags & F_SWIZ != 0));
            CF_ALLOC_EXPORT_WORD1_BUF::CF_INST.set(&mut w[1], op.code as u32);
            let rows: &[Op] = if rat {
                RAT_OPS
            } else {
                &[Op {
                    name: "",
                    code: 0,
                    flags: 0,
                    sem: None,
                }]
            };
            let rop = &rows[r.next_u32() as usize % rows.len()];
            if rat {
                CF_ALLOC_EXPORT_WORD0_RAT::RAT_INST.set(&mut w[0], rop.code as u32);
            }
            let i = decode_cf(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            if rat {
                assert_eq!(i.rat, Some(rop));
            }
            assert_eq!(encode_cf(&i), [w[0], w[1]]);
            let mut s = String::new();
            print_cf(&mut s, &i);
            n += 1;
        }
        for op in ALU_OP2 {
            let form = if op.flags & F_MOVA != 0 {
                "MOVA"
            } else {
                "ALU_OP2"
            };
            let mut w = random_words(&mut r, word_formats(form, false, false));
            ALU_WORD1_OP2::ALU_INST.set(&mut w[1], op.code as u32);
            let i = decode_alu(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            assert_eq!(encode_alu(&i), [w[0], w[1]]);
            let mut s = String::new();
            print_alu(&mut s, &i, &[1, 2, 3, 4]);
            assert!(s.starts_with(op.name));
            n += 1;
        }
        for op in ALU_OP3 {
            let mut w = random_words(&mut r, word_formats("ALU_OP3", false, false));
            ALU_WORD1_OP3::ALU_INST.set(&mut w[1], op.code as u32);
            let i = decode_alu(w[0], w[1]).unwrap();
            assert_eq!(i.op, op);
            assert_eq!(i.form, AluForm::Op3);
            assert_eq!(encode_alu(&i), [w[0], w[1]]);
            n += 1;
        }
        for op in LDS_OPS {
            let mut w = random_words(&mut r, word_formats("LDS", false, false));
            ALU_WORD1_LDS_IDX_OP::ALU_INST.set(&mut w[1], OP3_LDS_IDX_OP);
            ALU_WORD1_LDS_IDX_OP::LDS_OP.set(&mut w[1], op.code as u32);
            let i = decode_alu(w[0], w[1]).unwrap();
            assert_eq!((i.op, i.form), (op, AluForm::Lds));
            assert_eq!(encode_alu(&i), [w[0], w[1]]);
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
                assert_eq!(i.op, op, "{kind}");
                assert_eq!(encode_fetch(&i), w);
                let mut s = String::new();
                print_fetch(&mut s, &i);
                n += 1;
            }
        }
    }
    assert!(n > 50_000);
}

#[test]
fn random_programs_never_panic() {
    let mut r = Rng::from_state(42);
    for len in [0usize, 3, 8, 64, 257, 4096] {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len).map(|_| r.next_u32() as u8).collect();
            let _ = risa_cayman::disassemble(&bytes, &risa_cayman::DisasmOptions { hex: true });
            let _ = risa_cayman::disassemble_object(&bytes, &Default::default());
        }
    }
}
