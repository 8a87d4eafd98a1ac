//! Writes random raw code for the round-trip and differential checks.
//!
//! `garbage CHIP CASES SEED OUT` (a chip or generation name) writes the cases of
//! [`risa_gcn::random::garbage_cases`] back to back (whole dwords only, so
//! the stream is one piece of raw code) to OUT.
//!
//! `garbage GEN CASES SEED OUT --instr` writes one instruction per case
//! instead (its words, as risa decodes them; one word when the case does not
//! decode), with the reserved bits cleared (bits no field covers), and
//! prints each case's offset and length in dwords, one per line: the
//! vectors of tools/vectors/clrx-dis.py. `--instr-reserved` keeps the
//! reserved bits.
//!
//! `garbage CHIP CASES SEED OUT --valid` writes CASES random valid
//! instructions instead, every form of the chip picked at random: code that
//! every disassembler decodes, the inputs of tools/cli-bench.
use risa_gcn::{decode, random, random::garbage_cases, Processor};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: garbage GEN CASES SEED OUT [--instr|--instr-reserved|--valid]");
        std::process::exit(2);
    }
    // A chip or generation name: the forms of that chip's instructions.
    let gen = Processor::parse(&args[1]).expect("unknown chip or generation");
    let n: usize = args[2].parse().expect("CASES");
    let seed: u64 = args[3].parse().expect("SEED");
    let mode = args.get(5).map(String::as_str);
    let mut out = Vec::new();
    if mode == Some("--valid") {
        std::fs::write(&args[4], random::valid_code(gen, n, seed)).expect("writing OUT");
        return;
    }
    for c in garbage_cases(gen, n, seed) {
        let c = &c[..c.len() / 4 * 4];
        if mode.is_none() {
            out.extend_from_slice(c);
            continue;
        }
        let words: Vec<u32> = c
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        // At most two dwords, as a listing decodes: an SDWA/DPP word of a
        // row with a literal (v_madmk_f32) would take a third as its
        // literal, which no instruction has (and `Instr::words` cannot hold).
        let mut w: Vec<u32> = match decode(gen, &words[..words.len().min(2)]) {
            Ok(i) => {
                let mut i = i;
                if mode == Some("--instr") {
                    i.raw &= !i.reserved_bits();
                }
                let (w, k) = i.words();
                w[..k].to_vec()
            }
            // A case cut short would take the next case's word as its literal.
            Err(risa_gcn::DecodeError::Truncated { .. }) => continue,
            Err(_) => words[..words.len().min(1)].to_vec(),
        };
        if w.is_empty() {
            continue;
        }
        // Clearing bits can change the length (never in practice); re-decode.
        if let Ok(i) = decode(gen, &w) {
            w.truncate(i.len as usize);
        } else {
            w.truncate(1);
        }
        println!("{} {}", out.len(), w.len());
        for x in w {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    std::fs::write(&args[4], out).expect("writing OUT");
}
