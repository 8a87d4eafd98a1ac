//! The counter model against the printer (whose `s_waitcnt` text is checked
//! against llvm-mc) and against the instruction classes of every row.

use risa_check::access::{access, mem, Class};
use risa_check::counters::{counts, decode_waitcnt, kind, model, Counter};
use risa_gcn::random::{all_forms, random_instr, Rng};
use risa_gcn::{decode, print, Dialect, Gen, ALL_GENS};

/// `s_waitcnt` SIMM16 values: every field at 0, at its maximum and between.
fn values(gen: Gen) -> Vec<u32> {
    let mask = gen.info().waitcnt_mask;
    let mut rng = Rng::new(7);
    let mut v: Vec<u32> = (0..400).map(|_| rng.next_u32() & mask).collect();
    v.extend([0, mask, 0x0f70 & mask, 0xc07f & mask, 0x3f7 & mask]);
    v
}

#[test]
fn waitcnt_thresholds_match_the_printed_text() {
    for gen in ALL_GENS {
        let max = model(gen).max;
        assert_eq!(max, [gen.info().vmcnt_max, 7, 15]);
        for v in values(gen) {
            // s_waitcnt is SOPP opcode 0xc in every generation.
            let i = decode(gen, &[0xbf8c_0000 | v]).unwrap();
            let text = print(&i, Dialect::Llvm);
            let w = decode_waitcnt(gen, v);
            for c in Counter::ALL {
                let want = text
                    .split_once(&format!("{}(", c.name()))
                    .and_then(|(_, r)| r.split(')').next())
                    .map_or(max[c as usize], |n| n.parse().unwrap());
                assert_eq!(w.of(c), want, "{gen} {text}");
            }
        }
    }
}

#[test]
fn every_memory_row_counts_on_its_counter() {
    let mut rng = Rng::new(3);
    for gen in ALL_GENS {
        for (op, enc) in all_forms(gen) {
            let Some(i) = random_instr(&mut rng, gen, op, enc) else {
                continue;
            };
            let a = access(&i);
            let c = counts(&i, &a);
            let name = i.info().name;
            match a.class {
                Class::Vmem | Class::Flat => assert!(c.on(Counter::Vm), "{name}"),
                Class::Smem | Class::Ds => assert!(c.on(Counter::Lgkm), "{name}"),
                Class::Exp => assert_eq!(c.kinds, [0, kind::EXPORT, 0]),
                Class::Valu => assert!(!c.any(), "{name}"),
                Class::Salu => assert_eq!(c.any(), a.touches(mem::MSG), "{name}"),
            }
            // FLAT (not GLOBAL/SCRATCH) may address LDS: both counters.
            if a.class == Class::Flat {
                assert_eq!(c.on(Counter::Lgkm), name.starts_with("flat_"), "{name}");
            }
            // On GCN 1.0 a store holds its data VGPRs on EXP_CNT.
            if a.is_vmem() && a.touches(mem::VMEM_W) && !a.touches(mem::CACHE) {
                assert_eq!(c.on(Counter::Exp), gen == Gen::Gcn10, "{gen} {name}");
            }
        }
    }
}
