//! The clang-built corpus (tests/fixtures/gcn, rebuilt by
//! tools/build-gcn-fixtures.sh): every word of every kernel decodes, and the
//! instruction sequence equals the one clang itself printed (`.s`).

use risa_gcn::{listing, Dialect, Gen};
use std::path::Path;

fn clang_mnemonics(s: &str, kernel: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in s.lines() {
        let t = line.split(';').next().unwrap().trim();
        if t == format!("{kernel}:") {
            inside = true;
            continue;
        }
        // A non-kernel function ends with s_setpc_b64, not s_endpgm: stop at its end label.
        if inside && t.starts_with(".Lfunc_end") {
            break;
        }
        if !inside || t.is_empty() || t.starts_with('.') || t.ends_with(':') {
            continue;
        }
        let m = t.split_whitespace().next().unwrap().to_string();
        out.push(m);
        if t.starts_with("s_endpgm") {
            break;
        }
    }
    out
}

#[test]
fn every_kernel_of_every_chip_decodes_like_clang_wrote_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcn");
    let mut kernels = 0;
    for (chip, gen) in [
        ("tahiti", Gen::Gcn10),
        ("hawaii", Gen::Gcn11),
        ("fiji", Gen::Gcn12),
        ("gfx900", Gen::Gcn14),
    ] {
        let dir = root.join(chip);
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for obj in entries
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "o"))
        {
            let bytes = std::fs::read(obj).unwrap();
            let elf = risa_elf::Elf::parse(&bytes).unwrap();
            let text = elf.section_by_name(".text").unwrap();
            let asm = std::fs::read_to_string(obj.with_extension("s")).unwrap();
            for sym in elf
                .symbols_in(text.index)
                .into_iter()
                .filter(|s| s.sym_type == risa_elf::STT_FUNC && s.size > 0)
            {
                let code = &text.data[sym.value as usize..(sym.value + sym.size) as usize];
                let items = listing::decode_all(gen, code, 0);
                let mut ours = Vec::new();
                for (pc, r) in &items {
                    let i = r.as_ref().unwrap_or_else(|e| {
                        panic!("{}: {} +{pc:#x}: {e}", obj.display(), sym.name)
                    });
                    assert_eq!(
                        i.reserved_bits(),
                        0,
                        "{}: {} +{pc:#x}",
                        obj.display(),
                        sym.name
                    );
                    let text = risa_gcn::print(i, Dialect::Llvm);
                    ours.push(text.split(' ').next().unwrap().to_string());
                    if text.starts_with("s_endpgm") {
                        break;
                    }
                }
                let theirs = clang_mnemonics(&asm, &sym.name);
                // clang omits the _e32/_e64 suffix where the encoding is the default one.
                let norm = |m: &str| {
                    m.trim_end_matches("_e32")
                        .trim_end_matches("_e64")
                        .to_string()
                };
                let a: Vec<String> = ours.iter().map(|m| norm(m)).collect();
                let b: Vec<String> = theirs.iter().map(|m| norm(m)).collect();
                assert_eq!(a, b, "{}: {}", obj.display(), sym.name);
                kernels += 1;
            }
        }
    }
    assert!(kernels >= 4 * 30, "only {kernels} kernels checked");
}
